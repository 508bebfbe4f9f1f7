//! A line/point chart with optional log axes. Log axes are drawn by plotting log10 of the
//! data on a linear axis and labelling ticks with the powers back, which keeps one
//! coordinate type for every chart.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::PALETTE;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Marker {
    Line,
    Points,
    LineAndPoints,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub marker: Marker,
    /// Index into the palette.
    pub color: usize,
    /// Drawn thicker, for the series the page wants the eye on (a Pareto front, a best fit).
    pub emphasis: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    pub label: String,
    pub log: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct XyChart {
    pub title: String,
    pub x: Axis,
    pub y: Axis,
    pub series: Vec<Series>,
}

fn color(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

impl XyChart {
    /// Finite points only, moved to log10 where an axis is logarithmic (non-positive values
    /// cannot be shown on a log axis and are dropped).
    fn plotted(&self, s: &Series) -> Vec<(f64, f64)> {
        let tx = |v: f64, log: bool| if log { (v > 0.0).then(|| v.log10()) } else { Some(v) };
        s.points
            .iter()
            .filter_map(|&(x, y)| Some((tx(x, self.x.log)?, tx(y, self.y.log)?)))
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .collect()
    }

    /// Data bounds with a margin; a degenerate range is widened so plotters gets a real one.
    fn bounds(&self) -> Option<((f64, f64), (f64, f64))> {
        let pts: Vec<(f64, f64)> = self.series.iter().flat_map(|s| self.plotted(s)).collect();
        if pts.is_empty() {
            return None;
        }
        let span = |vals: &mut dyn Iterator<Item = f64>, log: bool| {
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for v in vals {
                lo = lo.min(v);
                hi = hi.max(v);
            }
            if hi - lo < 1e-12 {
                let pad = if log { 0.5 } else { lo.abs().max(1.0) * 0.1 };
                return (lo - pad, hi + pad);
            }
            let pad = (hi - lo) * 0.05;
            // A linear axis of positive data starts at zero when that costs little room.
            if !log && lo >= 0.0 && lo < (hi - lo) * 0.5 {
                return (0.0, hi + pad);
            }
            (lo - pad, hi + pad)
        };
        Some((span(&mut pts.iter().map(|p| p.0), self.x.log), span(&mut pts.iter().map(|p| p.1), self.y.log)))
    }
}

/// Tick text. On a log axis spanning a decade or more, only ticks at 1, 2 and 5 times a
/// power of ten are labelled (the others would read 3.98, 6.31, …).
fn tick_label(v: f64, log: bool, decades: f64) -> String {
    if !log {
        return crate::model::fmt_num(v, 3);
    }
    let x = 10f64.powf(v);
    let mantissa = x / 10f64.powf(v.floor());
    let nice = [1.0, 2.0, 5.0, 10.0].iter().any(|m| (mantissa / m - 1.0).abs() < 0.02);
    if nice {
        crate::model::fmt_num(x, 3)
    } else if decades < 1.0 {
        // Ticks sit at round logarithms, not round numbers: show two significant digits.
        let step = 10f64.powf(x.log10().floor() - 1.0);
        crate::model::fmt_num((x / step).round() * step, 3)
    } else {
        String::new()
    }
}

/// Draws the chart on any plotters backend. Errors are the backend's, as text.
pub fn draw_xy<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, chart: &XyChart) -> Result<(), String> {
    // The backend's error carries no more than "could not draw" for a person; formatting it
    // with Debug would pull string-escaping code into the page for nothing.
    let err = |_: DrawingAreaErrorKind<DB::ErrorType>| String::from("the chart could not be drawn");
    area.fill(&WHITE).map_err(err)?;
    let Some(((x0, x1), (y0, y1))) = chart.bounds() else {
        area.draw(&Text::new("nothing to plot yet", (20, 30), ("sans-serif", 14).into_font().color(&BLACK)))
            .map_err(err)?;
        return area.present().map_err(err);
    };
    let mut ctx = ChartBuilder::on(area)
        .caption(&chart.title, ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(err)?;
    let (xl, yl) = (chart.x.log, chart.y.log);
    let (xd, yd) = (x1 - x0, y1 - y0);
    let fx = move |v: &f64| tick_label(*v, xl, xd);
    let fy = move |v: &f64| tick_label(*v, yl, yd);
    ctx.configure_mesh()
        .x_desc(chart.x.label.as_str())
        .y_desc(chart.y.label.as_str())
        .x_label_formatter(&fx)
        .y_label_formatter(&fy)
        .light_line_style(RGBColor(238, 238, 238))
        .max_light_lines(2)
        // Each label costs plotters a forced page layout in the browser (it measures text
        // with a temporary element), so keep them few.
        .x_labels(6)
        .y_labels(6)
        .draw()
        .map_err(err)?;
    for s in &chart.series {
        let pts = chart.plotted(s);
        let c = color(s.color);
        let width = if s.emphasis { 3 } else { 2 };
        if matches!(s.marker, Marker::Line | Marker::LineAndPoints) {
            ctx.draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(width))).map_err(err)?;
        }
        if matches!(s.marker, Marker::Points | Marker::LineAndPoints) {
            let r = if s.emphasis { 5 } else { 4 };
            ctx.draw_series(pts.iter().map(|&p| Circle::new(p, r, c.filled()))).map_err(err)?;
        }
    }
    let (x_px, y_px) = ctx.plotting_area().get_pixel_range();
    draw_legend(area, (x_px.start + 8, y_px.start + 8), &chart.series).map_err(err)?;
    area.present().map_err(err)
}

/// The legend, drawn with text sizes from the backend. (plotters' own legend measures text
/// through the page's layout in the browser, which is slow; see ui's `MeasuredCanvas`.)
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x0, y0): (i32, i32),
    series: &[Series],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let entries: Vec<&Series> = series.iter().filter(|s| !s.label.is_empty()).collect();
    if entries.is_empty() {
        return Ok(());
    }
    let font: TextStyle = ("sans-serif", 12).into_font().color(&BLACK);
    const LINE: i32 = 17;
    let mut width = 0;
    for s in &entries {
        width = width.max(area.estimate_text_size(&s.label, &font)?.0 as i32);
    }
    let bottom = y0 + LINE * entries.len() as i32 + 6;
    area.draw(&Rectangle::new([(x0, y0), (x0 + width + 40, bottom)], WHITE.mix(0.85).filled()))?;
    area.draw(&Rectangle::new([(x0, y0), (x0 + width + 40, bottom)], RGBColor(200, 200, 200)))?;
    for (k, s) in entries.iter().enumerate() {
        let y = y0 + 12 + LINE * k as i32;
        let c = color(s.color);
        if s.marker == Marker::Points {
            area.draw(&Circle::new((x0 + 16, y), 4, c.filled()))?;
        } else {
            area.draw(&PathElement::new(vec![(x0 + 6, y), (x0 + 26, y)], c.stroke_width(if s.emphasis { 3 } else { 2 })))?;
        }
        area.draw(&Text::new(s.label.as_str(), (x0 + 32, y - 7), font.clone()))?;
    }
    Ok(())
}

/// The chart as an SVG document, for export and for native tests.
pub fn to_svg(chart: &XyChart, width: u32, height: u32) -> Result<String, String> {
    let mut out = String::new();
    {
        let backend = SVGBackend::with_string(&mut out, (width, height));
        let area = backend.into_drawing_area();
        draw_xy(&area, chart)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(log: bool, points: Vec<(f64, f64)>) -> XyChart {
        XyChart {
            title: "T against np".into(),
            x: Axis { label: "np".into(), log },
            y: Axis { label: "time (s)".into(), log: false },
            series: vec![Series { label: "cluster A".into(), points, marker: Marker::LineAndPoints, color: 0, emphasis: false }],
        }
    }

    #[test]
    fn renders_labels_and_series_to_svg() {
        let svg = to_svg(&chart(true, vec![(4.0, 1580.0), (8.0, 1610.0), (64.0, 1670.0)]), 640, 400).expect("draws");
        assert!(svg.starts_with("<svg"), "{}", &svg[..60.min(svg.len())]);
        for text in ["T against np", "cluster A", "time (s)"] {
            assert!(svg.contains(text), "svg lacks {text}");
        }
        // Log axis: tick labels are the powers back (10, 100), not their logarithms.
        let compact = svg.replace(['\n', ' '], "");
        assert!(compact.contains(">10<"), "log tick 10 missing");
        assert!(!compact.contains(">6.31<"), "log ticks off the 1-2-5 sequence are not labelled");
        assert!(svg.matches("<circle").count() >= 3, "three points drawn");
    }

    #[test]
    fn empty_and_degenerate_data_do_not_fail() {
        for pts in [vec![], vec![(1.0, 1.0)], vec![(f64::NAN, 1.0), (0.0, -1.0)]] {
            let svg = to_svg(&chart(true, pts.clone()), 300, 200).expect("draws");
            assert!(svg.contains("<svg"), "{pts:?}");
        }
    }
}

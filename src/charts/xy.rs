//! A line/point chart with optional log axes. Log axes are drawn by plotting log10 of the
//! data on a linear axis and labelling ticks with the powers back, which keeps one
//! coordinate type for every chart.

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::PALETTE;

#[cfg(test)]
use super::to_svg;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Marker {
    Line,
    Points,
    LineAndPoints,
    /// Small dots along a dense curve: a dotted line.
    Dots,
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

/// Tick positions (in plotted units: log10 of the value on a log axis) at 1, 2 and 5 times
/// powers of ten, about `target` of them. Chosen here rather than by plotters so that log
/// axes read 1, 2, 5, 10, 20, … instead of 3.98, 6.31, ….
fn ticks(lo: f64, hi: f64, log: bool, target: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return vec![lo];
    }
    if log {
        let mut out = Vec::new();
        for mantissas in [&[1.0][..], &[1.0, 2.0, 5.0], &[1.0, 2.0, 3.0, 5.0, 7.0]] {
            out.clear();
            for k in (lo.floor() as i32)..=(hi.ceil() as i32) {
                for m in mantissas {
                    let v = (m * 10f64.powi(k)).log10();
                    if v >= lo - 1e-9 && v <= hi + 1e-9 {
                        out.push(v);
                    }
                }
            }
            if out.len() > target / 2 {
                break;
            }
        }
        if out.len() >= 2 {
            // Thin a long list to about `target`, keeping decades.
            let keep = out.len().div_ceil(target + 2);
            return out.into_iter().enumerate().filter(|(i, _)| i % keep == 0).map(|(_, v)| v).collect();
        }
        // A narrow range: round values evenly spaced, placed on the log axis.
        let (a, b) = (10f64.powf(lo), 10f64.powf(hi));
        return linear_ticks(a, b, target).into_iter().filter(|v| *v > 0.0).map(f64::log10).collect();
    }
    linear_ticks(lo, hi, target)
}

/// About `target` round values (1, 2 or 5 times a power of ten apart) between lo and hi.
pub(crate) fn linear_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    let raw = (hi - lo) / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// Height of one legend entry, pixels.
const LEGEND_LINE: i32 = 17;

/// A linear axis over plotted units whose grid lines and labels sit at our own `ticks`.
struct TickedAxis {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl Ranged for TickedAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let t = (value - self.lo) / (self.hi - self.lo);
        limit.0 + (t * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // Bold lines and labels at the ticks; no light lines between them.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

fn tick_label(v: f64, log: bool) -> String {
    let x = if log { 10f64.powf(v) } else { v };
    // Two significant digits are enough for a tick, and hide float noise (0.30000000000000004).
    let mag = 10f64.powf(x.abs().log10().floor() - 2.0);
    crate::model::fmt_num(if x == 0.0 { 0.0 } else { (x / mag).round() * mag }, 3)
}

/// Where a drawn chart's plot sits, so a page can draw over it (a marker that moves without
/// redrawing the chart).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// Pixel columns and rows of the plotting area.
    pub x_px: (i32, i32),
    pub y_px: (i32, i32),
    /// The x axis' data range (log10 of it on a log axis).
    pub x: (f64, f64),
    pub log_x: bool,
}

impl Frame {
    /// The pixel column of data value `v`, when it is inside the plot.
    pub fn x_pixel(&self, v: f64) -> Option<i32> {
        let t = if self.log_x { (v > 0.0).then(|| v.log10())? } else { v };
        let f = (t - self.x.0) / (self.x.1 - self.x.0);
        (f.is_finite() && (0.0..=1.0).contains(&f))
            .then(|| self.x_px.0 + (f * f64::from(self.x_px.1 - self.x_px.0)).round() as i32)
    }
}

/// Draws the chart on any plotters backend; answers where the plot is (None when there was
/// nothing to plot). Errors are the backend's, as text.
pub fn draw_xy<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, chart: &XyChart) -> Result<Option<Frame>, String> {
    // The backend's error carries no more than "could not draw" for a person; formatting it
    // with Debug would pull string-escaping code into the page for nothing.
    let err = |_: DrawingAreaErrorKind<DB::ErrorType>| String::from("the chart could not be drawn");
    area.fill(&WHITE).map_err(err)?;
    let Some(((x0, x1), (y0, y1))) = chart.bounds() else {
        area.draw(&Text::new("nothing to plot yet", (20, 30), ("sans-serif", 14).into_font().color(&BLACK)))
            .map_err(err)?;
        return area.present().map(|_| None).map_err(err);
    };
    let (xl, yl) = (chart.x.log, chart.y.log);
    let x_axis = TickedAxis { lo: x0, hi: x1, ticks: ticks(x0, x1, xl, 6) };
    let y_axis = TickedAxis { lo: y0, hi: y1, ticks: ticks(y0, y1, yl, 6) };
    // The legend sits between the title and the plot, so it never hides a curve.
    let legend_rows = chart.series.iter().filter(|s| !s.label.is_empty()).count() as i32;
    let legend_height = if legend_rows > 0 { LEGEND_LINE * legend_rows + 6 } else { 0 };
    // The title, centred, then the legend, then the plot.
    let title_style: TextStyle = ("sans-serif", 15).into_font().color(&BLACK);
    let (title_w, _) = area.estimate_text_size(&chart.title, &title_style).map_err(err)?;
    let width = area.dim_in_pixel().0 as i32;
    area.draw(&Text::new(chart.title.as_str(), ((width - title_w as i32) / 2, 8), title_style)).map_err(err)?;
    const TITLE: i32 = 28;
    let mut ctx = ChartBuilder::on(area)
        .margin(12)
        .margin_top(TITLE + legend_height + 6)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x_axis, y_axis)
        .map_err(err)?;
    let fx = move |v: &f64| tick_label(*v, xl);
    let fy = move |v: &f64| tick_label(*v, yl);
    ctx.configure_mesh()
        .x_desc(chart.x.label.as_str())
        .y_desc(chart.y.label.as_str())
        .x_label_formatter(&fx)
        .y_label_formatter(&fy)
        .bold_line_style(RGBColor(225, 225, 225))
        .draw()
        .map_err(err)?;
    for s in &chart.series {
        let pts = chart.plotted(s);
        let c = color(s.color);
        let width = if s.emphasis { 3 } else { 2 };
        if matches!(s.marker, Marker::Line | Marker::LineAndPoints) {
            ctx.draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(width))).map_err(err)?;
        }
        if matches!(s.marker, Marker::Points | Marker::LineAndPoints | Marker::Dots) {
            let r = match s.marker {
                Marker::Dots => 1,
                _ if s.emphasis => 5,
                _ => 4,
            };
            // Dots along a dense curve: about 80 of them, so they read as a dotted line.
            let step = if s.marker == Marker::Dots { pts.len().div_ceil(80).max(1) } else { 1 };
            ctx.draw_series(pts.iter().step_by(step).map(|&p| Circle::new(p, r, c.filled()))).map_err(err)?;
        }
    }
    let (x_px, y_px) = ctx.plotting_area().get_pixel_range();
    draw_legend(area, (x_px.start, TITLE), &chart.series).map_err(err)?;
    area.present().map_err(err)?;
    Ok(Some(Frame { x_px: (x_px.start, x_px.end), y_px: (y_px.start, y_px.end), x: (x0, x1), log_x: xl }))
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
    let mut width = 0;
    for s in &entries {
        width = width.max(area.estimate_text_size(&s.label, &font)?.0 as i32);
    }
    let bottom = y0 + LEGEND_LINE * entries.len() as i32 + 6;
    area.draw(&Rectangle::new([(x0, y0), (x0 + width + 40, bottom)], WHITE.mix(0.85).filled()))?;
    area.draw(&Rectangle::new([(x0, y0), (x0 + width + 40, bottom)], RGBColor(200, 200, 200)))?;
    for (k, s) in entries.iter().enumerate() {
        let y = y0 + 12 + LEGEND_LINE * k as i32;
        let c = color(s.color);
        if s.marker == Marker::Points {
            area.draw(&Circle::new((x0 + 16, y), 4, c.filled()))?;
        } else if s.marker == Marker::Dots {
            for x in [8, 13, 18, 23] {
                area.draw(&Circle::new((x0 + x, y), 1, c.filled()))?;
            }
        } else {
            area.draw(&PathElement::new(vec![(x0 + 6, y), (x0 + 26, y)], c.stroke_width(if s.emphasis { 3 } else { 2 })))?;
        }
        area.draw(&Text::new(s.label.as_str(), (x0 + 32, y - 7), font.clone()))?;
    }
    Ok(())
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
        // Log axis: tick labels are the powers back at 1, 2, 5 (5, 10, 20, 50), not logarithms.
        let compact = svg.replace(['\n', ' '], "");
        for t in [">10<", ">20<", ">50<"] {
            assert!(compact.contains(t), "log tick {t} missing");
        }
        assert!(!compact.contains(">6.31<"), "no ticks off the 1-2-5 sequence");
        assert!(svg.matches("<circle").count() >= 3, "three points drawn");
    }

    #[test]
    fn ticks_by_hand() {
        let log = |v: &[f64]| v.iter().map(|x| (10f64.powf(*x) * 1000.0).round() / 1000.0).collect::<Vec<_>>();
        // np from 2 to 1024 on a log axis: 2, 5, 10, 20, … thinned to about six.
        assert_eq!(log(&ticks(2f64.log10(), 1024f64.log10(), true, 6)), vec![2.0, 10.0, 50.0, 200.0, 1000.0]);
        // Within a factor of eight: 1-2-5 gives three ticks, the finer set four.
        assert_eq!(log(&ticks(1000f64.log10(), 8000f64.log10(), true, 6)), vec![1000.0, 2000.0, 3000.0, 5000.0, 7000.0]);
        assert_eq!(ticks(0.0, 1700.0, false, 6), vec![0.0, 500.0, 1000.0, 1500.0]);
        // Less than a factor of two on a log axis: round values, not round logarithms.
        assert_eq!(log(&ticks(890f64.log10(), 1700f64.log10(), true, 6)), vec![1000.0, 1200.0, 1400.0, 1600.0]);
        assert_eq!(tick_label(0.30000000000000004, false), "0.3");
    }

    #[test]
    fn empty_and_degenerate_data_do_not_fail() {
        for pts in [vec![], vec![(1.0, 1.0)], vec![(f64::NAN, 1.0), (0.0, -1.0)]] {
            let svg = to_svg(&chart(true, pts.clone()), 300, 200).expect("draws");
            assert!(svg.contains("<svg"), "{pts:?}");
        }
    }
}

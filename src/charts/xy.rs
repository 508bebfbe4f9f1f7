//! A line/point chart with optional log axes. Log axes are drawn by plotting log10 of the
//! data on a linear axis and labelling ticks with the powers back, which keeps one
//! coordinate type for every chart.

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{color, failed, header, split_unit, unit_suffix, ChartError, Readout, Table, Theme};
use crate::model::{chart, fmt_num};

#[cfg(test)]
use super::{to_svg, to_svg_themed};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Marker {
    Line,
    Points,
    LineAndPoints,
    /// Small dots along a dense curve: a dotted line.
    Dots,
}

/// A series drawn: the model's data (`model::chart::Series`) and how it is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub data: chart::Series,
    pub marker: Marker,
    /// Index into the palette.
    pub color: usize,
    /// Drawn thicker, for the series the page wants the eye on (a Pareto front, a best fit).
    pub emphasis: bool,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Axis {
    pub label: String,
    pub log: bool,
    /// Values the axis never runs beyond, whatever the data (a share: 0 to 100 %).
    pub limits: Option<(f64, f64)>,
}

/// A range drawn as a translucent band between a low and a high curve: the model's data
/// (`model::chart::Band`, in the chart's units) and its colour.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    pub data: chart::Band,
    /// Index into the palette.
    pub color: usize,
}

/// A histogram: one bar per bin, (low x, high x, height).
#[derive(Debug, Clone, PartialEq)]
pub struct Bars {
    pub label: String,
    pub bins: Vec<(f64, f64, f64)>,
    pub color: usize,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct XyChart {
    pub title: String,
    pub x: Axis,
    pub y: Axis,
    pub series: Vec<Series>,
    /// Drawn first, under the series.
    pub bands: Vec<Band>,
    pub bars: Vec<Bars>,
}

/// A value moved to plotted units: log10 on a log axis (None when it cannot be shown there).
fn to_plot(v: f64, log: bool) -> Option<f64> {
    let t = if log { (v > 0.0).then(|| v.log10())? } else { v };
    t.is_finite().then_some(t)
}

impl XyChart {
    /// Finite points only, moved to log10 where an axis is logarithmic (non-positive values
    /// cannot be shown on a log axis and are dropped).
    fn plotted(&self, s: &Series) -> Vec<(f64, f64)> {
        s.data.points.iter().filter_map(|&(x, y)| Some((to_plot(x, self.x.log)?, to_plot(y, self.y.log)?))).collect()
    }

    /// A band's polygon in plotted units: along the high curve, back along the low one.
    fn band_polygon(&self, b: &Band) -> Vec<(f64, f64)> {
        let pts: Vec<(f64, f64, f64)> = b
            .data
            .points
            .iter()
            .filter_map(|&(x, lo, hi)| {
                Some((to_plot(x, self.x.log)?, to_plot(lo, self.y.log)?, to_plot(hi, self.y.log)?))
            })
            .collect();
        let mut poly: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.2)).collect();
        poly.extend(pts.iter().rev().map(|p| (p.0, p.1)));
        poly
    }

    /// A histogram's bars in plotted units: (x0, x1, y0, y1), the base at zero on a linear
    /// axis and at the bottom of the data on a log one.
    fn bar_rects(&self, b: &Bars) -> Vec<(f64, f64, f64, f64)> {
        let base = if self.y.log { None } else { Some(0.0) };
        b.bins
            .iter()
            .filter_map(|&(x0, x1, h)| {
                let y1 = to_plot(h, self.y.log)?;
                Some((to_plot(x0, self.x.log)?, to_plot(x1, self.x.log)?, base.unwrap_or(y1), y1))
            })
            .collect()
    }

    /// Data bounds with a margin; a degenerate range is widened so plotters gets a real one.
    fn bounds(&self) -> Option<((f64, f64), (f64, f64))> {
        let mut pts: Vec<(f64, f64)> = self.series.iter().flat_map(|s| self.plotted(s)).collect();
        pts.extend(self.bands.iter().flat_map(|b| self.band_polygon(b)));
        for b in &self.bars {
            pts.extend(self.bar_rects(b).into_iter().flat_map(|(x0, x1, y0, y1)| [(x0, y0), (x1, y1)]));
        }
        if pts.is_empty() {
            return None;
        }
        Some((span(pts.iter().map(|p| p.0), &self.x), span(pts.iter().map(|p| p.1), &self.y)))
    }
}

/// An axis' range over the plotted values `vals`, with a margin; a degenerate range is widened
/// so plotters gets a real one, and the axis' limits hold. (Issue "Honest, round 2", 20: the
/// share chart of one region, 100 % throughout, ran from 90 to 110 %.)
fn span(vals: impl Iterator<Item = f64>, axis: &Axis) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in vals {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    let one = hi - lo < 1e-12;
    let pad = match (one, axis.log) {
        (true, true) => 0.5,
        // A tenth of the value itself (0.1 for zero): a run time of 0.27 ms alone drew on
        // an axis from 0 to 0.1 s, the bar against the left edge.
        (true, false) if lo != 0.0 => lo.abs() * 0.1,
        (true, false) => 0.1,
        _ => (hi - lo) * 0.05,
    };
    // A linear axis of positive data starts at zero when that costs little room, and always
    // for one value (around it, the axis would make a constant look like a change).
    let (lo, hi) =
        if !axis.log && lo >= 0.0 && (one || lo < (hi - lo) * 0.5) { (0.0, hi + pad) } else { (lo - pad, hi + pad) };
    match axis.limits {
        Some((a, b)) if lo.max(a) < hi.min(b) => (lo.max(a), hi.min(b)),
        Some((a, b)) if a < b => (a, b),
        _ => (lo, hi),
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
        let (a, b) = (pow10(lo), pow10(hi));
        return linear_ticks(a, b, target).into_iter().filter(|v| *v > 0.0).map(f64::log10).collect();
    }
    linear_ticks(lo, hi, target)
}

/// 10ˣ: exact at a whole x (by `powi`, as `powf` is there), else as eˣ ˡⁿ ¹⁰, within an ulp or
/// two of `powf`, which would bring libm's `pow` (2.2 KB of wasm) into every page with a chart.
fn pow10(x: f64) -> f64 {
    if x.fract() == 0.0 && x.abs() <= 300.0 {
        10f64.powi(x as i32)
    } else {
        (x * std::f64::consts::LN_10).exp()
    }
}

/// About `target` round values (1, 2 or 5 times a power of ten apart) between lo and hi.
pub(crate) fn linear_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    let raw = (hi - lo) / target.max(1) as f64;
    let mag = pow10(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

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

/// The value at a tick (ticks on a log axis are log10 of it).
fn tick_value(v: f64, log: bool) -> f64 {
    if log {
        pow10(v)
    } else {
        v
    }
}

/// Significant digits for an axis's labels: three hide float noise (0.30000000000000004);
/// ticks close relative to their size (0.09765, 0.09770 s; 1.505, 1.51 on a narrow log axis)
/// get as many more as they need to read differently.
fn label_digits(ticks: &[f64], log: bool) -> usize {
    let values: Vec<f64> = ticks.iter().map(|&v| tick_value(v, log)).collect();
    crate::model::error::digits_to_tell_apart(&values, 3)
}

/// A tick's label with `digits` significant digits.
fn tick_label(v: f64, log: bool, digits: usize) -> String {
    crate::model::fmt_num(tick_value(v, log), digits)
}

/// Where a drawn chart's plot sits, so a page can draw over it (a marker that moves without
/// redrawing the chart) and map a pointer back to data.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Frame {
    /// Pixel columns and rows of the plotting area.
    pub x_px: (i32, i32),
    pub y_px: (i32, i32),
    /// The axes' data ranges (log10 of them on a log axis).
    pub x: (f64, f64),
    pub y: (f64, f64),
    pub log_x: bool,
    pub log_y: bool,
    /// The legend's box (left, top, right, bottom), pixels, when there is one: outside the
    /// plotting area.
    pub legend: Option<(i32, i32, i32, i32)>,
}

impl Frame {
    /// The pixel column of data value `v`, when it is inside the plot.
    pub fn x_pixel(&self, v: f64) -> Option<i32> {
        let f = (to_plot(v, self.log_x)? - self.x.0) / (self.x.1 - self.x.0);
        (f.is_finite() && (0.0..=1.0).contains(&f))
            .then(|| self.x_px.0 + (f * f64::from(self.x_px.1 - self.x_px.0)).round() as i32)
    }

    /// Pixel position of a point in plotted units (may lie outside the plot).
    fn pixel(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let fx = (x - self.x.0) / (self.x.1 - self.x.0);
        let fy = (y - self.y.0) / (self.y.1 - self.y.0);
        (
            f64::from(self.x_px.0) + fx * f64::from(self.x_px.1 - self.x_px.0),
            f64::from(self.y_px.1) - fy * f64::from(self.y_px.1 - self.y_px.0),
        )
    }

    /// The plotted-unit x of pixel column `px`.
    fn x_at(&self, px: i32) -> f64 {
        self.x.0 + f64::from(px - self.x_px.0) / f64::from((self.x_px.1 - self.x_px.0).max(1)) * (self.x.1 - self.x.0)
    }

    pub fn contains(&self, (x, y): (i32, i32)) -> bool {
        (self.x_px.0..=self.x_px.1).contains(&x) && (self.y_px.0..=self.y_px.1).contains(&y)
    }
}

/// Height of one legend row, pixels.
const LEGEND_LINE: i32 = 18;
/// Height of the title line, pixels.
const TITLE: i32 = 28;

/// One legend entry: its label, how its key is drawn, its colour and weight.
struct Entry<'a> {
    label: &'a str,
    key: Key,
    color: RGBColor,
    emphasis: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Key {
    Marker(Marker),
    /// A filled swatch: a band or bars.
    Swatch,
}

impl XyChart {
    fn entries(&self) -> Vec<Entry<'_>> {
        let mut out: Vec<Entry> = self
            .bars
            .iter()
            .map(|b| Entry { label: &b.label, key: Key::Swatch, color: color(b.color), emphasis: false })
            .collect();
        out.extend(self.bands.iter().map(|b| Entry {
            label: &b.data.label,
            key: Key::Swatch,
            color: color(b.color),
            emphasis: false,
        }));
        out.extend(self.series.iter().map(|s| Entry {
            label: &s.data.label,
            key: Key::Marker(s.marker),
            color: color(s.color),
            emphasis: s.emphasis,
        }));
        out.retain(|e| !e.label.is_empty());
        out
    }
}

/// Lays the legend's entries out in rows that wrap at `width` pixels: each entry's (x, row).
pub(super) fn legend_layout(widths: &[i32], width: i32) -> Vec<(i32, i32)> {
    let (mut x, mut row) = (0, 0);
    widths
        .iter()
        .map(|&w| {
            if x > 0 && x + w > width {
                x = 0;
                row += 1;
            }
            let at = (x, row);
            x += w;
            at
        })
        .collect()
}

/// Draws the chart on any plotters backend in `theme`; answers where the plot is (None when
/// there was nothing to plot).
pub fn draw_xy<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &XyChart,
    theme: &Theme,
) -> Result<Option<Frame>, ChartError> {
    // The backend's error carries no more than "could not draw" for a person; formatting it
    // with Debug would pull string-escaping code into the page for nothing.
    let err = failed::<DrawingAreaErrorKind<DB::ErrorType>>;
    area.fill(&theme.background).map_err(err)?;
    let Some(((x0, x1), (y0, y1))) = chart.bounds() else {
        area.draw(&Text::new("nothing to plot yet", (20, 30), theme.font(14))).map_err(err)?;
        return area.present().map(|_| None).map_err(err);
    };
    let (xl, yl) = (chart.x.log, chart.y.log);
    let (width, _) = area.dim_in_pixel();
    let width = width as i32;
    // Fewer ticks on a narrow chart, so their labels do not run into each other.
    let x_ticks = if width < 480 { 4 } else { 6 };
    let x_axis = TickedAxis { lo: x0, hi: x1, ticks: ticks(x0, x1, xl, x_ticks) };
    let y_axis = TickedAxis { lo: y0, hi: y1, ticks: ticks(y0, y1, yl, 6) };
    let (sx, sy) = (label_digits(&x_axis.ticks, xl), label_digits(&y_axis.ticks, yl));
    // The title, centred, then the legend in rows that wrap, then the plot: the legend sits
    // outside the plotting area, so it never hides a curve.
    let title_style = theme.font(15);
    let (title_w, _) = area.estimate_text_size(&chart.title, &title_style).map_err(err)?;
    area.draw(&Text::new(chart.title.as_str(), ((width - title_w as i32) / 2, 8), title_style)).map_err(err)?;
    let entries = chart.entries();
    let font = theme.font(12);
    let mut widths = Vec::with_capacity(entries.len());
    for e in &entries {
        widths.push(area.estimate_text_size(e.label, &font).map_err(err)?.0 as i32 + 46);
    }
    let (lx, inner) = (14, width - 28);
    let layout = legend_layout(&widths, inner);
    let legend_rows = layout.last().map_or(0, |l| l.1 + 1);
    let legend_height = LEGEND_LINE * legend_rows;
    let mut ctx = ChartBuilder::on(area)
        .margin(12)
        .margin_top(TITLE + legend_height + 6)
        .x_label_area_size(40)
        .y_label_area_size(if width < 480 { 52 } else { 60 })
        .build_cartesian_2d(x_axis, y_axis)
        .map_err(err)?;
    let fx = move |v: &f64| tick_label(*v, xl, sx);
    let fy = move |v: &f64| tick_label(*v, yl, sy);
    ctx.configure_mesh()
        .x_desc(chart.x.label.as_str())
        .y_desc(chart.y.label.as_str())
        .x_label_formatter(&fx)
        .y_label_formatter(&fy)
        .bold_line_style(theme.grid)
        .axis_style(theme.axis)
        .label_style(theme.font(12))
        .axis_desc_style(theme.font(12))
        .draw()
        .map_err(err)?;
    for b in &chart.bands {
        let poly = chart.band_polygon(b);
        if poly.len() >= 4 {
            ctx.draw_series(std::iter::once(Polygon::new(poly, color(b.color).mix(0.22).filled()))).map_err(err)?;
        }
    }
    for b in &chart.bars {
        let c = color(b.color);
        let rects = chart.bar_rects(b);
        ctx.draw_series(
            rects.iter().map(|&(x0, x1, y0, y1)| Rectangle::new([(x0, y0), (x1, y1)], c.mix(0.7).filled())),
        )
        .map_err(err)?;
        ctx.draw_series(
            rects
                .iter()
                .map(|&(x0, x1, y0, y1)| Rectangle::new([(x0, y0), (x1, y1)], theme.background.stroke_width(1))),
        )
        .map_err(err)?;
    }
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
    let mut legend = None;
    if !entries.is_empty() {
        let top = TITLE;
        for (e, &(x, row)) in entries.iter().zip(&layout) {
            draw_key(area, e, (lx + x, top + LEGEND_LINE * row + 9), &font).map_err(err)?;
        }
        let right = layout.iter().zip(&widths).map(|(l, w)| lx + l.0 + w).max().unwrap_or(lx);
        legend = Some((lx, top, right, top + legend_height));
    }
    area.present().map_err(err)?;
    Ok(Some(Frame {
        x_px: (x_px.start, x_px.end),
        y_px: (y_px.start, y_px.end),
        x: (x0, x1),
        y: (y0, y1),
        log_x: xl,
        log_y: yl,
        legend,
    }))
}

/// One legend entry: its key (a line, a point, dots or a swatch) and its label, with text
/// sizes from the backend. (plotters' own legend measures text through the page's layout in
/// the browser, which is slow; see ui's `MeasuredCanvas`.)
fn draw_key<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    e: &Entry,
    (x0, y): (i32, i32),
    font: &TextStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let c = e.color;
    match e.key {
        Key::Swatch => area.draw(&Rectangle::new([(x0 + 6, y - 5), (x0 + 26, y + 5)], c.mix(0.45).filled()))?,
        Key::Marker(Marker::Points) => area.draw(&Circle::new((x0 + 16, y), 4, c.filled()))?,
        Key::Marker(Marker::Dots) => {
            for x in [8, 13, 18, 23] {
                area.draw(&Circle::new((x0 + x, y), 1, c.filled()))?;
            }
        }
        Key::Marker(_) => area
            .draw(&PathElement::new(vec![(x0 + 6, y), (x0 + 26, y)], c.stroke_width(if e.emphasis { 3 } else { 2 })))?,
    }
    area.draw(&Text::new(e.label, (x0 + 32, y - 7), font.clone()))
}

/// A number for a table or read-out: four significant digits (as `fmt_num`, never NaN).
fn num(v: f64) -> String {
    fmt_num(v, 4)
}

/// The chart's data as a table: x, then each series' y (and each band's low and high, each
/// histogram's bin and count) with the axes' units in the headers. Series without a label
/// are named after the labelled series of the same colour.
pub fn table(chart: &XyChart) -> Table {
    let (xn, yn) = (chart.x.label.as_str(), chart.y.label.as_str());
    if !chart.bars.is_empty() {
        return bins_table(chart);
    }
    let mut headers = vec![xn.to_string()];
    // Columns: (x, value) pairs per column.
    let mut columns: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut named: Vec<(usize, String)> = Vec::new();
    for s in chart.series.iter().filter(|s| !s.data.points.is_empty()) {
        let label = if s.data.label.is_empty() {
            let base = named.iter().rev().find(|(c, _)| *c == s.color).map_or("series", |(_, l)| l.as_str());
            let how = match s.marker {
                Marker::Dots => "dots",
                Marker::Points => "points",
                _ => "line",
            };
            format!("{base} ({how})")
        } else {
            named.push((s.color, s.data.label.clone()));
            s.data.label.clone()
        };
        headers.push(format!("{label}: {yn}"));
        columns.push(s.data.points.clone());
    }
    for b in &chart.bands {
        let label = if b.data.label.is_empty() { "range" } else { b.data.label.as_str() };
        headers.push(format!("{label}, low: {yn}"));
        headers.push(format!("{label}, high: {yn}"));
        columns.push(b.data.points.iter().map(|p| (p.0, p.1)).collect());
        columns.push(b.data.points.iter().map(|p| (p.0, p.2)).collect());
    }
    let mut rows: Vec<Vec<String>> = Vec::new();
    if !columns.is_empty() {
        let mut xs: Vec<f64> = columns.iter().flatten().map(|p| p.0).filter(|x| x.is_finite()).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup_by(|a, b| (*a - *b).abs() <= 1e-12 * b.abs().max(1e-300));
        for x in xs {
            let mut row = vec![num(x)];
            for c in &columns {
                let v = c.iter().find(|p| (p.0 - x).abs() <= 1e-12 * x.abs().max(1e-300) && p.1.is_finite());
                row.push(v.map_or(String::new(), |p| num(p.1)));
            }
            rows.push(row);
        }
    }
    Table { headers, rows, note: None }
}

/// A histogram's table: a row per bin, a column per histogram; the marks drawn over it (a
/// mean, an interval) are named in the note, as their labels give their values.
fn bins_table(chart: &XyChart) -> Table {
    let (name, unit) = split_unit(&chart.x.label);
    let mut headers = vec![header(&format!("{name} from"), unit), header(&format!("{name} to"), unit)];
    headers.extend(chart.bars.iter().map(|b| format!("{}: {}", b.label, chart.y.label)));
    let mut rows = Vec::new();
    if let Some(first) = chart.bars.first() {
        for (k, &(lo, hi, _)) in first.bins.iter().enumerate() {
            let mut row = vec![fmt_num(lo, 6), fmt_num(hi, 6)];
            row.extend(chart.bars.iter().map(|b| b.bins.get(k).map_or(String::new(), |v| num(v.2))));
            rows.push(row);
        }
    }
    let marks: Vec<&str> = chart
        .bands
        .iter()
        .map(|b| b.data.label.as_str())
        .chain(chart.series.iter().map(|s| s.data.label.as_str()))
        .filter(|l| !l.is_empty())
        .collect();
    Table { headers, rows, note: (!marks.is_empty()).then(|| format!("Marked: {}.", marks.join("; "))) }
}

/// The data point nearest pixel `at` (within the plot): a series' point, or the histogram bin
/// under it, with the axes' units: "processes = 64, time = 3.2 s".
pub fn readout(chart: &XyChart, frame: &Frame, at: (i32, i32)) -> Option<Readout> {
    if !frame.contains(at) {
        return None;
    }
    let (xn, xu) = split_unit(&chart.x.label);
    let (yn, yu) = split_unit(&chart.y.label);
    let (xu, yu) = (unit_suffix(xu), unit_suffix(yu));
    let (px, py) = (f64::from(at.0), f64::from(at.1));
    // Bars first: the bin under the pointer.
    let xp = frame.x_at(at.0);
    for b in &chart.bars {
        for (k, r) in chart.bar_rects(b).into_iter().enumerate() {
            if r.0 <= xp && xp <= r.1 {
                let (lo, hi, h) = b.bins.get(k).copied()?;
                let x = frame.pixel(((r.0 + r.1) / 2.0, r.3));
                return Some(Readout {
                    x_px: x.0.round() as i32,
                    y_px: x.1.round() as i32,
                    text: format!("{xn} {}–{}{xu}: {} {yn}", fmt_num(lo, 6), fmt_num(hi, 6), num(h)),
                });
            }
        }
    }
    // (squared distance in pixels, series, the point as given, its pixel position)
    type Nearest<'a> = (f64, &'a Series, (f64, f64), (f64, f64));
    let mut best: Option<Nearest> = None;
    for s in &chart.series {
        for (&raw, p) in s.data.points.iter().zip(chart.plotted(s)) {
            let q = frame.pixel(p);
            let d = (q.0 - px).powi(2) + (q.1 - py).powi(2);
            if best.is_none_or(|b| d < b.0) {
                best = Some((d, s, raw, q));
            }
        }
    }
    let (_, s, (x, y), q) = best?;
    let label = if s.data.label.is_empty() { String::new() } else { format!("{}: ", s.data.label) };
    // The series' own band (same colour) at this x says the range too.
    let range = chart.bands.iter().filter(|b| b.color == s.color).find_map(|b| {
        let &(_, lo, hi) = b.data.points.iter().find(|p| (p.0 - x).abs() <= 1e-9 * x.abs().max(1e-300))?;
        Some(format!(" (range {}–{}{yu})", num(lo), num(hi)))
    });
    Some(Readout {
        x_px: q.0.round() as i32,
        y_px: q.1.round() as i32,
        text: format!("{label}{xn} = {}{xu}, {yn} = {}{yu}{}", num(x), num(y), range.unwrap_or_default()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(log: bool, points: Vec<(f64, f64)>) -> XyChart {
        XyChart {
            title: "T against np".into(),
            x: Axis { label: "np".into(), log, limits: None },
            y: Axis { label: "time (s)".into(), log: false, limits: None },
            series: vec![Series {
                data: chart::Series { label: "cluster A".into(), points },
                marker: Marker::LineAndPoints,
                color: 0,
                emphasis: false,
            }],
            ..XyChart::default()
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
        assert_eq!(
            log(&ticks(1000f64.log10(), 8000f64.log10(), true, 6)),
            vec![1000.0, 2000.0, 3000.0, 5000.0, 7000.0]
        );
        assert_eq!(ticks(0.0, 1700.0, false, 6), vec![0.0, 500.0, 1000.0, 1500.0]);
        // Less than a factor of two on a log axis: round values, not round logarithms.
        assert_eq!(log(&ticks(890f64.log10(), 1700f64.log10(), true, 6)), vec![1000.0, 1200.0, 1400.0, 1600.0]);
        assert_eq!(tick_label(0.30000000000000004, false, label_digits(&[0.2, 0.30000000000000004], false)), "0.3");
        // Ticks 0.00005 apart near 0.1 need four digits to differ.
        let close = [0.09765, 0.0977];
        let d = label_digits(&close, false);
        assert_eq!(
            (tick_label(close[0], false, d), tick_label(close[1], false, d)),
            ("0.09765".into(), "0.0977".into())
        );
        // A log axis over 1.505–1.52 (issue 33: it read 1.51, 1.51, 1.5, 1.5).
        let t = ticks(1.505f64.log10(), 1.52f64.log10(), true, 6);
        let d = label_digits(&t, true);
        let labels: Vec<String> = t.iter().map(|&v| tick_label(v, true, d)).collect();
        assert!(labels.len() >= 2 && labels.windows(2).all(|w| w[0] != w[1]), "{labels:?}");
    }

    #[test]
    fn empty_and_degenerate_data_do_not_fail() {
        for pts in [vec![], vec![(1.0, 1.0)], vec![(f64::NAN, 1.0), (0.0, -1.0)]] {
            let svg = to_svg(&chart(true, pts.clone()), 300, 200).expect("draws");
            assert!(svg.contains("<svg"), "{pts:?}");
        }
    }

    #[test]
    fn one_value_is_drawn_from_zero_and_limits_hold() {
        let lin = Axis { label: String::new(), log: false, limits: None };
        assert_eq!(span([5.0, 5.0].into_iter(), &lin), (0.0, 5.5), "a constant from zero, not 4.5 to 5.5");
        assert_eq!(span([-5.0].into_iter(), &lin), (-5.5, -4.5));
        let (lo, hi) = span([2.688e-4, 2.688e-4].into_iter(), &lin);
        assert!(lo == 0.0 && (hi / 2.9568e-4 - 1.0).abs() < 1e-9, "one small value fills the axis: {lo} to {hi}");
        assert_eq!(span([0.0].into_iter(), &lin), (0.0, 0.1));
        assert_eq!(span([2.0].into_iter(), &Axis { log: true, ..lin.clone() }), (1.5, 2.5));
        assert_eq!(span([20.0, 40.0].into_iter(), &lin), (19.0, 41.0));
        let share = Axis { limits: Some((0.0, 100.0)), ..lin.clone() };
        assert_eq!(
            span([100.0, 100.0].into_iter(), &share),
            (0.0, 100.0),
            "one region's share: 0 to 100 %, not 90 to 110 %"
        );
        assert_eq!(span([2.0, 98.0].into_iter(), &share), (0.0, 100.0));
        assert_eq!(span([20.0, 40.0].into_iter(), &share), (19.0, 41.0));
    }

    fn five_curves() -> XyChart {
        let mut c = chart(true, vec![(2.0, 1.9), (64.0, 30.0)]);
        c.series = (0..5)
            .map(|k| Series {
                data: chart::Series {
                    label: format!("model number {k} with a long name"),
                    points: (1..=64)
                        .map(|n| (f64::from(n), f64::from(n) / (1.0 + 0.01 * f64::from(k) * f64::from(n))))
                        .collect(),
                },
                marker: Marker::Line,
                color: k as usize,
                emphasis: k == 0,
            })
            .collect();
        c.bands = vec![Band {
            data: chart::Band {
                label: "range".into(),
                points: (1..=64).map(|n| (f64::from(n), f64::from(n) * 0.8, f64::from(n) * 1.1)).collect(),
            },
            color: 0,
        }];
        c
    }

    #[test]
    fn legend_sits_outside_the_plot_at_any_width() {
        for width in [320, 400, 640, 1200] {
            let (svg, frame) = to_svg_themed(&five_curves(), width, 400, &Theme::LIGHT).expect("draws");
            let f = frame.expect("frame");
            let (l, t, r, b) = f.legend.expect("a legend");
            // Above the plot and within the drawing: it wraps rather than running off or over.
            assert!(b <= f.y_px.0, "{width}: legend bottom {b} below plot top {}", f.y_px.0);
            assert!(l >= 0 && r <= width as i32 && t >= 0, "{width}: legend {l}..{r}");
            // Every label is drawn (six entries: five curves and the band).
            assert_eq!((0..5).filter(|k| svg.contains(&format!("model number {k}"))).count(), 5);
        }
        // Narrow: the legend wraps into more rows than wide.
        let rows = |w| {
            let f = to_svg_themed(&five_curves(), w, 400, &Theme::LIGHT).expect("draws").1.expect("frame");
            f.legend.map(|l| l.3 - l.1).unwrap_or(0)
        };
        assert!(rows(320) > rows(1200), "{} vs {}", rows(320), rows(1200));
        assert_eq!(legend_layout(&[100, 100, 100], 250), vec![(0, 0), (100, 0), (0, 1)]);
    }

    #[test]
    fn a_band_is_a_translucent_polygon_between_low_and_high() {
        let c = five_curves();
        assert_eq!(c.band_polygon(&c.bands[0]).len(), 128, "along the high curve and back along the low one");
        let svg = to_svg(&c, 640, 400).expect("draws");
        let poly = svg.lines().find(|l| l.contains("<polygon")).expect("a polygon");
        // Filled in the band's colour (palette 0), translucent.
        assert!(poly.contains("fill=\"#0072B2\"") && poly.contains("opacity=\"0.22"), "{poly}");
        // The band's low and high are in the table, with units.
        let t = table(&c);
        assert!(t.headers.contains(&"range, low: time (s)".to_string()), "{:?}", t.headers);
        assert_eq!(t.rows.len(), 64);
        assert_eq!(t.rows[9].last().map(String::as_str), Some("11"), "high at n = 10");
    }

    #[test]
    fn dark_theme_draws_light_text_on_dark() {
        let (svg, _) = to_svg_themed(&five_curves(), 640, 400, &Theme::DARK).expect("draws");
        assert!(svg.contains("fill=\"#181A1E\""), "dark background");
        assert!(svg.contains("#E8E8E8"), "light text");
        assert!(!svg.contains("fill=\"#FFFFFF\""));
    }

    #[test]
    fn readout_names_the_nearest_point_with_units() {
        let c = chart(false, vec![(4.0, 1580.0), (8.0, 1610.0), (64.0, 1670.0)]);
        let (_, frame) = to_svg_themed(&c, 640, 400, &Theme::LIGHT).expect("draws");
        let f = frame.expect("frame");
        let px = f.x_pixel(8.0).expect("inside");
        let r = readout(&c, &f, (px + 3, f.y_px.0 + 5)).expect("a point");
        assert_eq!(r.text, "cluster A: np = 8, time = 1610 s");
        assert_eq!(r.x_px, px);
        assert_eq!(readout(&c, &f, (f.x_px.0 - 5, f.y_px.0)), None, "outside the plot");
    }
}

//! The "Broadcast across sites" page's two drawings: the latency heat map (nodes reordered by
//! logical cluster, the clusters outlined) and the grid-broadcast timeline (one row per
//! cluster).

use plotters::coord::Shift;
use plotters::prelude::*;

use super::comm::{size_text, time_text};
use super::xy::{legend_layout, linear_ticks};
use super::{color, failed, ChartError, Drawing, Frame, Table, Theme};
use crate::model::fmt_num;
use crate::model::sites::page::{ClustersView, GridView};

type Area<'a, DB> = DrawingArea<DB, Shift>;

/// Draws the title centred at the top.
fn title<DB: DrawingBackend>(area: &Area<DB>, text: &str, theme: &Theme) -> Result<(), ChartError> {
    let style = theme.font(15);
    let (w, _) = area.estimate_text_size(text, &style).map_err(failed)?;
    let width = area.dim_in_pixel().0 as i32;
    area.draw(&Text::new(text, ((width - w as i32) / 2, 8), style)).map_err(failed)
}

/// The latency matrix reordered by logical cluster, averaged into blocks when it is large.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatMap {
    pub title: String,
    /// Nodes in the matrix.
    pub n: usize,
    /// Blocks per side; `cells` is side × side mean latencies, µs, in heat-map order.
    pub side: usize,
    pub cells: Vec<f64>,
    /// Where each group ends, as a fraction of the side (last is 1).
    pub bounds: Vec<f64>,
}

impl HeatMap {
    /// At most `max_side` blocks per side, so a 1,000-node matrix draws as fast as a small one.
    pub fn new(cv: &ClustersView, max_side: usize) -> HeatMap {
        let n = cv.order.len();
        let side = n.min(max_side.max(1));
        let mut sum = vec![0.0; side * side];
        let mut count = vec![0u32; side * side];
        let block = |p: usize| p * side / n.max(1);
        for (pi, &i) in cv.order.iter().enumerate() {
            let (bi, row) = (block(pi), i * cv.n);
            for (pj, &j) in cv.order.iter().enumerate() {
                let k = bi * side + block(pj);
                if let (Some(s), Some(c)) = (sum.get_mut(k), count.get_mut(k)) {
                    *s += cv.latency_us.get(row + j).copied().unwrap_or(0.0);
                    *c += 1;
                }
            }
        }
        let cells = sum.iter().zip(&count).map(|(s, &c)| if c > 0 { s / f64::from(c) } else { 0.0 }).collect();
        let mut end = 0;
        let bounds = cv.groups.iter().map(|g| {
            end += g.len();
            end as f64 / n.max(1) as f64
        });
        let blocks = if side < n { format!(", {side} × {side} blocks") } else { String::new() };
        HeatMap {
            title: format!("Latency between {n} nodes, ordered by logical cluster{blocks}"),
            n,
            side,
            cells,
            bounds: bounds.collect(),
        }
    }
}

/// A light-to-dark blue ramp (ColorBrewer YlGnBu), readable with common colour blindness.
const RAMP: [(f64, f64, f64); 5] =
    [(255.0, 255.0, 217.0), (199.0, 233.0, 180.0), (65.0, 182.0, 196.0), (34.0, 94.0, 168.0), (8.0, 29.0, 88.0)];

fn ramp(t: f64) -> RGBColor {
    let x = t.clamp(0.0, 1.0) * (RAMP.len() - 1) as f64;
    let k = (x.floor() as usize).min(RAMP.len() - 2);
    let f = x - k as f64;
    let (a, b) = (RAMP[k], RAMP[k + 1]); // ok: k ≤ len − 2
    let mix = |p: f64, q: f64| (p + (q - p) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

impl Drawing for HeatMap {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, area: &Area<DB>, theme: &Theme) -> Result<Option<Frame>, ChartError> {
        area.fill(&theme.background).map_err(failed)?;
        title(area, &self.title, theme)?;
        let font = |size| theme.font(size);
        let (w, h) = area.dim_in_pixel();
        let (x0, y0) = (44, 56);
        let size = (w as i32 - x0 - 110).min(h as i32 - y0 - 12).max(10);
        let positive = self.cells.iter().copied().filter(|v| *v > 0.0);
        let (lo, hi) = positive.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        if self.side == 0 || lo > hi {
            area.draw(&Text::new("no latencies to show", (20, 40), font(14))).map_err(failed)?;
            return Ok(None);
        }
        let span = (hi / lo).ln().max(1e-12);
        let edge = |k: usize| (k as f64 * f64::from(size) / self.side as f64).round() as i32;
        for (k, &v) in self.cells.iter().enumerate() {
            let (r, c) = (k / self.side, k % self.side);
            let color = if v > 0.0 { ramp((v / lo).ln() / span) } else { theme.grid };
            let rect = [(x0 + edge(c), y0 + edge(r)), (x0 + edge(c + 1), y0 + edge(r + 1))];
            area.draw(&Rectangle::new(rect, color.filled())).map_err(failed)?;
        }
        // Each group's block on the diagonal, outlined and named.
        let px = |f: f64| (f * f64::from(size)).round() as i32;
        let mut start = 0.0;
        for (g, &end) in self.bounds.iter().enumerate() {
            let (a, b) = (px(start), px(end));
            let rect = [(x0 + a, y0 + a), (x0 + b, y0 + b)];
            area.draw(&Rectangle::new(rect, color(1).stroke_width(2))).map_err(failed)?;
            if b - a >= 12 || self.bounds.len() <= 12 {
                let label = format!("G{}", g + 1);
                let mid = (a + b) / 2;
                area.draw(&Text::new(label.clone(), (x0 - 30, y0 + mid - 6), font(11))).map_err(failed)?;
                area.draw(&Text::new(label, (x0 + mid - 7, y0 - 16), font(11))).map_err(failed)?;
            }
            start = end;
        }
        area.draw(&Rectangle::new([(x0, y0), (x0 + size, y0 + size)], theme.axis)).map_err(failed)?;
        // The colour key: a log scale from the smallest to the largest latency.
        let (bx, steps) = (x0 + size + 20, 64);
        for s in 0..steps {
            let (ya, yb) = (y0 + size * s / steps, y0 + size * (s + 1) / steps);
            let color = ramp(1.0 - f64::from(s) / f64::from(steps));
            area.draw(&Rectangle::new([(bx, ya), (bx + 16, yb)], color.filled())).map_err(failed)?;
        }
        for (t, y) in [(1.0, y0), (0.5, y0 + size / 2), (0.0, y0 + size)] {
            let v = lo * (span * t).exp();
            area.draw(&Text::new(format!("{} µs", fmt_num(v, 3)), (bx + 20, y - 6), font(11))).map_err(failed)?;
        }
        area.present().map_err(failed)?;
        Ok(None)
    }

    /// Mean latency between each pair of logical clusters (of the blocks drawn), µs.
    fn table(&self) -> Table {
        let groups = self.bounds.len();
        let block_group = |b: usize| {
            let f = (b as f64 + 0.5) / self.side.max(1) as f64;
            self.bounds.iter().position(|&e| f <= e).unwrap_or(groups.saturating_sub(1))
        };
        let mut sum = vec![0.0; groups * groups];
        let mut count = vec![0u32; groups * groups];
        for (k, &v) in self.cells.iter().enumerate() {
            let (r, c) = (block_group(k / self.side.max(1)), block_group(k % self.side.max(1)));
            if let (Some(s), Some(n)) = (sum.get_mut(r * groups + c), count.get_mut(r * groups + c)) {
                *s += v;
                *n += 1;
            }
        }
        let mut headers = vec!["mean latency (µs), from row to column".to_string()];
        headers.extend((1..=groups).map(|g| format!("G{g}")));
        let rows = (0..groups)
            .map(|r| {
                let mut row = vec![format!("G{}", r + 1)];
                row.extend((0..groups).map(|c| {
                    let k = r * groups + c;
                    if count[k] > 0 {
                        fmt_num(sum[k] / f64::from(count[k]), 4)
                    } else {
                        String::new()
                    } // ok: k < groups²
                }));
                row
            })
            .collect();
        Table {
            headers,
            rows,
            note: Some(format!("Means over the {0} × {0} blocks the chart draws, by logical cluster.", self.side)),
        }
    }
}

/// One schedule of the grid broadcast as a timeline: a row per logical cluster, a bar for
/// the message reaching its coordinator and one for its local broadcast, a line from sender
/// to receiver, and the completion times marked.
#[derive(Debug, Clone, PartialEq)]
pub struct Timeline {
    pub title: String,
    pub rows: Vec<String>,
    /// (row, start µs, end µs, local broadcast rather than a transfer).
    pub bars: Vec<(usize, f64, f64, bool)>,
    /// (from row, to row, start µs, arrival µs).
    pub sends: Vec<(usize, usize, f64, f64)>,
    /// Vertical lines: (µs, label).
    pub marks: Vec<(f64, String)>,
    /// The time axis runs from 0 to this, µs (shared by both schedules so they compare).
    pub t_max: f64,
}

impl Timeline {
    pub fn new(g: &GridView, sizes: &[usize], look_ahead: bool) -> Timeline {
        let s = if look_ahead { &g.ecef_lat } else { &g.ecef };
        let name = if look_ahead { "ECEF-LAt" } else { "ECEF" };
        let rows = g
            .coordinators
            .iter()
            .zip(sizes)
            .enumerate()
            .map(|(k, (c, n))| format!("G{} · {n} at node {c}", k + 1))
            .collect();
        let mut bars = vec![(g.root_group, 0.0, g.local.get(g.root_group).map_or(0.0, |l| l.1), true)];
        let mut sends = Vec::new();
        for t in &s.transfers {
            bars.push((t.to, t.start_us, t.arrival_us, false));
            bars.push((t.to, t.arrival_us, t.local_end_us, true));
            sends.push((t.from, t.to, t.start_us, t.arrival_us));
        }
        let mut marks = vec![(s.completion_us, format!("{name}: {}", time_text(s.completion_us)))];
        if let Some(b) = g.binomial_us {
            marks.push((b, format!("binomial tree: {}", time_text(b))));
        }
        let t_max = [g.ecef.completion_us, g.ecef_lat.completion_us, g.binomial_us.unwrap_or(0.0)]
            .into_iter()
            .fold(1e-9, f64::max);
        Timeline {
            title: format!("{name} schedule of {} from G{}", size_text(g.size_bytes), g.root_group + 1),
            rows,
            bars,
            sends,
            marks,
            t_max: t_max * 1.04,
        }
    }
}

impl Drawing for Timeline {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, area: &Area<DB>, theme: &Theme) -> Result<Option<Frame>, ChartError> {
        area.fill(&theme.background).map_err(failed)?;
        title(area, &self.title, theme)?;
        let (w, h) = area.dim_in_pixel();
        let small = theme.font(11);
        let mut label_w = 0;
        for r in &self.rows {
            label_w = label_w.max(area.estimate_text_size(r, &small).map_err(failed)?.0 as i32);
        }
        let w = w as i32;
        // Key, under the title, in rows that wrap within the drawing (on one row, it ran off
        // the chart's right edge on a desktop's half-width column and on a phone: issue
        // "Honest, round 2", 20).
        let (transfer, local) = (color(0), color(1));
        let key = [
            (Some(transfer), "message to the coordinator"),
            (Some(local), "broadcast inside the cluster"),
            (None, "lines: sender → receiver"),
        ];
        let mut widths = Vec::new();
        for (swatch, text) in key {
            widths.push(
                area.estimate_text_size(text, &small).map_err(failed)?.0 as i32 + if swatch.is_some() { 18 } else { 0 },
            );
        }
        const GAP: i32 = 18;
        const LINE: i32 = 16;
        let left = 14;
        let spaced: Vec<i32> = widths.iter().map(|w| w + GAP).collect();
        let layout = legend_layout(&spaced, w - left - 8 + GAP);
        let mut right = left;
        for ((swatch, text), (&(dx, row), width)) in key.into_iter().zip(layout.iter().zip(&widths)) {
            let (kx, ky) = (left + dx, 31 + LINE * row);
            let tx = match swatch {
                Some(c) => {
                    area.draw(&Rectangle::new([(kx, ky + 1), (kx + 14, ky + 11)], c.filled())).map_err(failed)?;
                    kx + 18
                }
                None => kx,
            };
            area.draw(&Text::new(text, (tx, ky), small.clone())).map_err(failed)?;
            right = right.max(kx + width);
        }
        let extra = LINE * layout.last().map_or(0, |l| l.1);
        let legend = Some((left, 28, right, 44 + extra));
        let (x0, x1, y0, y1) = (label_w + 14, w - 16, 58 + extra, h as i32 - 40);
        let rows = self.rows.len().max(1) as i32;
        let band = ((y1 - y0) / rows).max(2);
        let x = |t: f64| x0 + ((t / self.t_max).clamp(0.0, 1.0) * f64::from(x1 - x0)).round() as i32;
        let mid = |r: usize| y0 + band * r as i32 + band / 2;
        // Rows, their labels and the time axis.
        for (r, label) in self.rows.iter().enumerate() {
            let y = y0 + band * r as i32;
            area.draw(&PathElement::new(vec![(x0, y + band), (x1, y + band)], theme.grid)).map_err(failed)?;
            if band >= 9 {
                area.draw(&Text::new(label.as_str(), (4, mid(r) - 6), small.clone())).map_err(failed)?;
            }
        }
        area.draw(&PathElement::new(vec![(x0, y1), (x1, y1)], theme.axis)).map_err(failed)?;
        for t in linear_ticks(0.0, self.t_max, if w < 480 { 4 } else { 6 }) {
            area.draw(&PathElement::new(vec![(x(t), y1), (x(t), y1 + 4)], theme.axis)).map_err(failed)?;
            // Centred on its tick, inside the drawing.
            let label = time_text(t);
            let lw = area.estimate_text_size(&label, &small).map_err(failed)?.0 as i32;
            area.draw(&Text::new(label, ((x(t) - lw / 2).clamp(0, (w - lw).max(0)), y1 + 7), small.clone()))
                .map_err(failed)?;
        }
        area.draw(&Text::new("time since the root started", (x1 - 150, y1 + 22), small.clone())).map_err(failed)?;
        let bar = (band * 3 / 10).max(1);
        for &(r, a, b, is_local) in &self.bars {
            let color = if is_local { local } else { transfer };
            let rect = [(x(a), mid(r) - bar), (x(b).max(x(a) + 1), mid(r) + bar)];
            area.draw(&Rectangle::new(rect, color.filled())).map_err(failed)?;
        }
        for &(from, to, a, b) in &self.sends {
            let line = PathElement::new(vec![(x(a), mid(from)), (x(b), mid(to))], theme.axis.stroke_width(1));
            area.draw(&line).map_err(failed)?;
            area.draw(&Circle::new((x(b), mid(to)), 3, theme.axis.filled())).map_err(failed)?;
        }
        for (k, (t, label)) in self.marks.iter().enumerate() {
            let color = if k == 0 { color(2) } else { color(3) };
            area.draw(&PathElement::new(vec![(x(*t), y0 - 4), (x(*t), y1)], color.stroke_width(2))).map_err(failed)?;
            let (tw, _) = area.estimate_text_size(label, &small).map_err(failed)?;
            let tx = (x(*t) - tw as i32 - 4).max(x0);
            area.draw(&Text::new(label.as_str(), (tx, y0 - 14 + 12 * k as i32), small.clone().color(&color)))
                .map_err(failed)?;
        }
        area.present().map_err(failed)?;
        Ok(Some(Frame {
            x_px: (x0, x1),
            y_px: (y0, y1),
            x: (0.0, self.t_max),
            y: (0.0, f64::from(rows)),
            log_x: false,
            log_y: false,
            legend,
        }))
    }

    fn table(&self) -> Table {
        let headers = ["cluster", "what", "start (µs)", "end (µs)"].map(String::from).to_vec();
        let rows = self
            .bars
            .iter()
            .map(|&(r, a, b, local)| {
                let what = if local { "broadcast inside the cluster" } else { "message to the coordinator" };
                vec![self.rows.get(r).cloned().unwrap_or_default(), what.into(), fmt_num(a, 6), fmt_num(b, 6)]
            })
            .collect();
        let marks: Vec<&str> = self.marks.iter().map(|m| m.1.as_str()).collect();
        Table { headers, rows, note: Some(format!("Completion: {}.", marks.join("; "))) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::to_svg;
    use crate::model::catalog::presets as catalog;
    use crate::model::sites::page::{default_inputs, view};

    #[test]
    fn default_page_draws_every_chart() {
        let v = view(&default_inputs(), &catalog());
        let cv = v.clusters.as_ref().expect("clusters");
        let map = HeatMap::new(cv, 200);
        assert_eq!((map.n, map.side, map.cells.len()), (78, 78, 78 * 78));
        assert_eq!(map.bounds.len(), 6);
        assert!((map.bounds[5] - 1.0).abs() < 1e-12);
        // Inside the first group (Orsay) the latency is Table 2's 48.39 µs off the diagonal.
        assert_eq!(map.cells[1], 48.39);
        let svg = to_svg(&map, 640, 560).expect("draws");
        assert!(svg.contains("G6") && svg.matches("<rect").count() >= 78 * 78);

        // Blocks: a 1,000-node matrix at most 160 per side, every node counted once.
        let big = crate::model::sites::gridcast::benchmark_matrix(1000);
        let groups = crate::model::sites::gridcast::clusters(&big, 0.2);
        let cv = ClustersView {
            order: groups.iter().flatten().copied().collect(),
            groups,
            n: 1000,
            latency_us: std::rc::Rc::new(big.values.clone()),
            group_latency_us: vec![],
        };
        let map = HeatMap::new(&cv, 160);
        assert_eq!(map.side, 160);
        let mean_all = big.values.iter().sum::<f64>() / 1e6;
        // Blocks hold 6 or 7 nodes a side, so their plain mean is near, not equal to, the mean.
        let mean_blocks = map.cells.iter().sum::<f64>() / (160.0 * 160.0);
        assert!((mean_blocks / mean_all - 1.0).abs() < 0.05, "{mean_blocks} vs {mean_all}");

        let g = v.grid.as_ref().expect("grid");
        let sizes: Vec<usize> =
            v.clusters.as_ref().map(|c| c.groups.iter().map(Vec::len).collect()).unwrap_or_default();
        for look_ahead in [false, true] {
            let t = Timeline::new(g, &sizes, look_ahead);
            assert_eq!(t.rows.len(), 6);
            assert_eq!(t.sends.len(), 5);
            assert_eq!(t.bars.len(), 1 + 2 * 5);
            assert!(t.bars.iter().all(|b| b.1 <= b.2 && b.2 <= t.t_max));
            let svg = to_svg(&t, 640, 360).expect("draws");
            assert!(svg.contains("binomial tree") && svg.contains("G1 · 20 at node 0"));
        }
    }

    #[test]
    fn the_timelines_key_stays_inside_the_drawing_at_any_width() {
        // Issue "Honest, round 2", 20: the key of the ECEF charts ran off their right edge at
        // 1280 px (two charts side by side) and on a phone.
        let v = view(&default_inputs(), &catalog());
        let g = v.grid.as_ref().expect("grid");
        let sizes: Vec<usize> =
            v.clusters.as_ref().map(|c| c.groups.iter().map(Vec::len).collect()).unwrap_or_default();
        let t = Timeline::new(g, &sizes, true);
        let mut heights = Vec::new();
        for width in [300, 358, 480, 536, 640, 1200] {
            let (svg, frame) = crate::charts::to_svg_themed(&t, width, 360, &Theme::LIGHT).expect("draws");
            let f = frame.expect("a frame");
            let (l, top, r, b) = f.legend.expect("the key's box");
            assert!(l >= 0 && top >= 24 && r <= width as i32, "{width}: key {l}..{r} in 0..{width}");
            assert!(
                b <= f.y_px.0 - 12,
                "{width}: key bottom {b} over the plot (top {}) or the completion labels",
                f.y_px.0
            );
            assert!(f.y_px.1 - f.y_px.0 > 100, "{width}: rows {:?}", f.y_px);
            for text in ["message to the coordinator", "broadcast inside the cluster", "sender → receiver"] {
                assert!(svg.contains(text), "{width}: {text}");
            }
            assert!(!svg.contains("NaN"));
            heights.push(b - top);
        }
        assert!(heights[0] > heights[5], "the key wraps on a phone: {heights:?}");
    }
}

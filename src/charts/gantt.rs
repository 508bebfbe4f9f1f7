//! A Gantt chart: one row per process (or any actor), a bar per span of activity, coloured by
//! kind, over a time window that the page can zoom. Plain data, so any calculator can use it;
//! the simulation page draws one replication's computing, sending and waiting with it.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::xy::linear_ticks;
use super::{color, failed, header, split_unit, unit_suffix, ChartError, Drawing, Frame, Readout, Table, Theme};
use crate::model::fmt_num;

/// Most rows the data table lists (a run keeps up to 20,000 spans).
pub const TABLE_ROWS: usize = 1000;

#[derive(Debug, Clone, PartialEq)]
pub struct Gantt {
    pub title: String,
    /// Row names, top to bottom ("process 0", …).
    pub rows: Vec<String>,
    /// Kinds of span: name and palette index.
    pub kinds: Vec<(String, usize)>,
    /// (row, kind, start, end), in the time axis' unit.
    pub spans: Vec<(u32, u8, f64, f64)>,
    /// The time axis' label with its unit: "time (s)".
    pub time_label: String,
    /// The time window shown: (from, to).
    pub window: (f64, f64),
    /// A sentence drawn under the title and put under the table (spans left out, and why).
    pub note: Option<String>,
}

impl Gantt {
    /// The spans overlapping the window.
    fn visible(&self) -> impl Iterator<Item = &(u32, u8, f64, f64)> {
        let (a, b) = self.window;
        self.spans.iter().filter(move |s| s.3 >= a && s.2 <= b)
    }

    fn kind_name(&self, k: u8) -> &str {
        self.kinds.get(usize::from(k)).map_or("", |k| k.0.as_str())
    }
}

impl Drawing for Gantt {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
    ) -> Result<Option<Frame>, ChartError> {
        area.fill(&theme.background).map_err(failed)?;
        let (w, h) = area.dim_in_pixel();
        let (w, h) = (w as i32, h as i32);
        let title = theme.font(15);
        let (tw, _) = area.estimate_text_size(&self.title, &title).map_err(failed)?;
        area.draw(&Text::new(self.title.as_str(), ((w - tw as i32) / 2, 8), title)).map_err(failed)?;
        let small = theme.font(12);
        // The key, under the title and outside the rows.
        let mut kx = 14;
        for (name, c) in &self.kinds {
            area.draw(&Rectangle::new([(kx, 33), (kx + 14, 43)], color(*c).filled())).map_err(failed)?;
            area.draw(&Text::new(name.as_str(), (kx + 18, 31), small.clone())).map_err(failed)?;
            kx += 32 + area.estimate_text_size(name, &small).map_err(failed)?.0 as i32;
        }
        let legend = Some((14, 28, kx, 46));
        let mut y0 = 54;
        if let Some(n) = &self.note {
            area.draw(&Text::new(n.as_str(), (14, 50), small.clone())).map_err(failed)?;
            y0 += 16;
        }
        let mut label_w = 0;
        for r in &self.rows {
            label_w = label_w.max(area.estimate_text_size(r, &small).map_err(failed)?.0 as i32);
        }
        let (x0, x1, y1) = (label_w + 12, w - 16, h - 44);
        let (a, b) = self.window;
        if self.rows.is_empty()
            || x1 - x0 < 20
            || y1 - y0 < 10
            || b.partial_cmp(&a) != Some(std::cmp::Ordering::Greater)
        {
            area.draw(&Text::new("nothing to show in this window", (20, y0 + 20), theme.font(14))).map_err(failed)?;
            return area.present().map(|_| None).map_err(failed);
        }
        let n = self.rows.len() as i32;
        let band = f64::from(y1 - y0) / f64::from(n);
        let x = |t: f64| x0 + ((t.clamp(a, b) - a) / (b - a) * f64::from(x1 - x0)).round() as i32;
        let row_top = |r: i32| y0 + (band * f64::from(r)).round() as i32;
        for (r, label) in self.rows.iter().enumerate() {
            let r = r as i32;
            area.draw(&PathElement::new(vec![(x0, row_top(r + 1)), (x1, row_top(r + 1))], theme.grid))
                .map_err(failed)?;
            // Labels only where rows are tall enough to read them.
            if band >= 11.0 || r % (11.0 / band).ceil() as i32 == 0 {
                let mid = (row_top(r) + row_top(r + 1)) / 2;
                area.draw(&Text::new(label.as_str(), (4, mid - 7), small.clone())).map_err(failed)?;
            }
        }
        let pad = ((band * 0.15).round() as i32).min(4);
        for &(r, k, s, e) in self.visible() {
            let (top, bottom) = (row_top(r as i32) + pad, row_top(r as i32 + 1) - pad);
            let c = color(self.kinds.get(usize::from(k)).map_or(4, |k| k.1));
            area.draw(&Rectangle::new([(x(s), top), (x(e).max(x(s) + 1), bottom.max(top + 1))], c.filled()))
                .map_err(failed)?;
        }
        area.draw(&PathElement::new(vec![(x0, y1), (x1, y1)], theme.axis)).map_err(failed)?;
        area.draw(&PathElement::new(vec![(x0, y0), (x0, y1)], theme.axis)).map_err(failed)?;
        let ticks = linear_ticks(a, b, if w < 480 { 4 } else { 6 });
        // A window zoomed in far needs more digits for neighbouring ticks to differ.
        let digits = crate::model::error::digits_to_tell_apart(&ticks, 4);
        for t in ticks {
            area.draw(&PathElement::new(vec![(x(t), y1), (x(t), y1 + 4)], theme.axis)).map_err(failed)?;
            let label = fmt_num(t, digits);
            let (lw, _) = area.estimate_text_size(&label, &small).map_err(failed)?;
            area.draw(&Text::new(label, (x(t) - lw as i32 / 2, y1 + 7), small.clone())).map_err(failed)?;
        }
        let (lw, _) = area.estimate_text_size(&self.time_label, &small).map_err(failed)?;
        area.draw(&Text::new(self.time_label.as_str(), ((x0 + x1 - lw as i32) / 2, y1 + 24), small)).map_err(failed)?;
        area.present().map_err(failed)?;
        Ok(Some(Frame {
            x_px: (x0, x1),
            y_px: (y0, y1),
            x: (a, b),
            y: (0.0, f64::from(n)),
            log_x: false,
            log_y: false,
            legend,
        }))
    }

    fn table(&self) -> Table {
        let (_, unit) = split_unit(&self.time_label);
        let headers = vec![
            "process".into(),
            "activity".into(),
            header("start", unit),
            header("end", unit),
            header("duration", unit),
        ];
        let n = self.visible().count();
        let rows = self
            .visible()
            .take(TABLE_ROWS)
            .map(|&(r, k, s, e)| {
                let row = self.rows.get(r as usize).map_or(String::new(), |r| r.clone());
                vec![row, self.kind_name(k).to_string(), fmt_num(s, 6), fmt_num(e, 6), fmt_num(e - s, 4)]
            })
            .collect();
        let mut notes: Vec<String> = self.note.iter().cloned().collect();
        if n > TABLE_ROWS {
            notes.push(format!(
                "The first {TABLE_ROWS} of {n} spans in this window are listed; narrow the window to see the others."
            ));
        }
        Table { headers, rows, note: (!notes.is_empty()).then(|| notes.join(" ")) }
    }

    fn readout(&self, frame: &Frame, at: (i32, i32)) -> Option<Readout> {
        if !frame.contains(at) {
            return None;
        }
        let unit = unit_suffix(split_unit(&self.time_label).1);
        let n = self.rows.len() as f64;
        let row = (f64::from(at.1 - frame.y_px.0) / f64::from((frame.y_px.1 - frame.y_px.0).max(1)) * n).floor() as u32;
        let width = f64::from((frame.x_px.1 - frame.x_px.0).max(1));
        let t = frame.x.0 + f64::from(at.0 - frame.x_px.0) / width * (frame.x.1 - frame.x.0);
        // The span under the pointer, or the nearest one in its row.
        let dist = |s: &(u32, u8, f64, f64)| {
            if t < s.2 {
                s.2 - t
            } else if t > s.3 {
                t - s.3
            } else {
                0.0
            }
        };
        let &(r, k, s, e) = self.visible().filter(|s| s.0 == row).min_by(|p, q| dist(p).total_cmp(&dist(q)))?;
        let mid = ((s + e) / 2.0).clamp(frame.x.0, frame.x.1);
        let x_px = frame.x_px.0 + ((mid - frame.x.0) / (frame.x.1 - frame.x.0) * width).round() as i32;
        let row_name = self.rows.get(r as usize).map_or("", |r| r.as_str());
        Some(Readout {
            x_px,
            y_px: at.1,
            text: format!(
                "{row_name}: {} {}–{}{unit} ({}{unit})",
                self.kind_name(k),
                fmt_num(s, 6),
                fmt_num(e, 6),
                fmt_num(e - s, 4)
            ),
        })
    }
}

//! The communication page's charts: the point-to-point fits and the broadcasts as `XyChart`s,
//! and the size and time texts every chart of seed 002 writes (`charts::sites` too).

use super::{Axis, Marker, Series, XyChart};
use crate::model::chart;
use crate::model::comm::page::Series as PageSeries;
use crate::model::fmt_num;

/// A message size for people: "8 B", "64 KB", "1.5 MB" (KB = 1024 bytes).
pub fn size_text(bytes: f64) -> String {
    for (unit, f) in [("GB", 1073741824.0), ("MB", 1048576.0), ("KB", 1024.0)] {
        if bytes >= f {
            return format!("{} {unit}", fmt_num(bytes / f, 4));
        }
    }
    format!("{} B", fmt_num(bytes, 4))
}

/// A time for people, from µs: "47.7 µs", "9.04 ms", "1.2 s".
pub fn time_text(us: f64) -> String {
    if us >= 1e6 {
        format!("{} s", fmt_num(us / 1e6, 4))
    } else if us >= 1e3 {
        format!("{} ms", fmt_num(us / 1e3, 4))
    } else {
        format!("{} µs", fmt_num(us, 4))
    }
}

/// Palette index of curve `k`, skipping the grey kept for measurements and keys.
fn curve_color(k: usize) -> usize {
    if k >= 4 {
        k + 1
    } else {
        k
    }
}

/// Measured one-way times (points) against each fitted model (lines, the best thicker), with
/// the protocol knee as a vertical line. `series` is the page's: "measured" first.
pub fn p2p_chart(series: &[PageSeries], best: Option<&str>, knee_bytes: Option<f64>) -> XyChart {
    let mut out = Vec::new();
    for (k, s) in series.iter().enumerate() {
        let measured = k == 0;
        let is_best = best == Some(s.label.as_str());
        out.push(Series {
            data: chart::Series {
                label: if is_best { format!("{} (best)", s.label) } else { s.label.clone() },
                points: s.points.clone(),
            },
            marker: if measured { Marker::Points } else { Marker::Line },
            color: if measured { 4 } else { curve_color(k - 1) },
            emphasis: is_best,
        });
    }
    // The measurements are drawn last, over the curves.
    if !out.is_empty() {
        out.rotate_left(1);
    }
    let times = series.first().map(|s| s.points.iter().map(|p| p.1)).into_iter().flatten();
    let (lo, hi) = times.fold((f64::INFINITY, 0.0f64), |(lo, hi), t| (lo.min(t), hi.max(t)));
    if let (Some(m), true) = (knee_bytes, lo <= hi) {
        out.push(Series {
            data: chart::Series { label: format!("protocol knee, {}", size_text(m)), points: vec![(m, lo), (m, hi)] },
            marker: Marker::Line,
            color: 6,
            emphasis: false,
        });
    }
    XyChart {
        title: "One-way time against message size: measured and fitted".into(),
        x: Axis { label: "message size (bytes)".into(), log: true, limits: None },
        y: Axis { label: "time (µs)".into(), log: true, limits: None },
        series: out,
        ..XyChart::default()
    }
}

/// Broadcast completion time against message size, one line per algorithm.
pub fn broadcast_chart(curves: &[PageSeries], model: &str, procs: u32) -> XyChart {
    XyChart {
        title: format!("Broadcast to {procs} processes in {model}"),
        x: Axis { label: "message size (bytes)".into(), log: true, limits: None },
        y: Axis { label: "completion time (µs)".into(), log: true, limits: None },
        series: curves
            .iter()
            .enumerate()
            .map(|(k, s)| Series {
                data: chart::Series { label: s.label.clone(), points: s.points.clone() },
                marker: Marker::Line,
                color: curve_color(k),
                emphasis: false,
            })
            .collect(),
        ..XyChart::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::to_svg;
    use crate::model::catalog::presets as catalog;
    use crate::model::comm::page::{default_inputs, view};

    #[test]
    fn texts() {
        assert_eq!(size_text(65536.0), "64 KB");
        assert_eq!(size_text(8.0), "8 B");
        assert_eq!(size_text(1572864.0), "1.5 MB");
        assert_eq!(time_text(9042.8), "9.043 ms");
    }

    #[test]
    fn default_page_draws_every_chart() {
        let v = view(&default_inputs(), &catalog());
        let fit = v.fit.as_ref().expect("fit");
        let c = p2p_chart(&v.chart, fit.best.map(|k| k.name()), fit.knee.map(|k| k.size_bytes));
        assert_eq!(c.series.len(), 6, "four models, measured, the knee");
        assert_eq!(c.series[4].data.label, "measured");
        assert!(c.series[5].data.label.contains("64 KB"));
        let svg = to_svg(&c, 640, 400).expect("draws");
        assert!(svg.contains("protocol knee") && svg.contains("(best)"));
    }
}

//! The speed-up page's chart, as `XyChart` data built from `speedup_page::ChartData`.

use super::{Axis, Band, Marker, Series, XyChart};
use crate::model::chart;
use crate::model::speedup::page::ChartData;
use crate::model::speedup::weak::Weak;
use crate::model::speedup::Model;

/// The colours kept for the measured points (4, grey), the excluded ones (6) and the forecast
/// with its range (7).
const KEPT: [usize; 3] = [4, 6, 7];

/// Colour index of a model: the models in their order take the colours not [`KEPT`] (0–3 and
/// 5, then 8 on, which `charts::color` wraps onto the palette).
fn color(m: Model) -> usize {
    nth_free(m as usize)
}

/// The i-th colour index not [`KEPT`].
fn nth_free(i: usize) -> usize {
    (0..).filter(|c| !KEPT.contains(c)).nth(i).unwrap_or(0)
}

/// Measured points, every fitted curve (the best one thicker), the forecast and its 90 %
/// range as a shaded band.
pub fn fits(c: &ChartData, best: Option<Model>) -> XyChart {
    let mut series = Vec::new();
    for (m, s) in &c.curves {
        let best = best == Some(*m);
        let label = if best { format!("{} (best)", s.label) } else { s.label.clone() };
        series.push(Series {
            data: chart::Series { label, points: s.points.clone() },
            marker: Marker::Line,
            color: color(*m),
            emphasis: best,
        });
    }
    let [measured, excluded, forecast] = KEPT;
    if let Some(f) = &c.forecast {
        series.push(Series { data: f.clone(), marker: Marker::Line, color: forecast, emphasis: true });
    }
    let bands = c.band.iter().map(|b| Band { data: b.clone(), color: forecast }).collect();
    series.push(Series { data: c.measured.clone(), marker: Marker::Points, color: measured, emphasis: true });
    if !c.excluded.points.is_empty() {
        series.push(Series { data: c.excluded.clone(), marker: Marker::Points, color: excluded, emphasis: false });
    }
    XyChart {
        title: if c.y_is_time { "Run time against processes".into() } else { "Speed-up against processes".into() },
        x: Axis { label: c.x_label.into(), log: c.log_axes, limits: None },
        y: Axis { label: c.y_label.into(), log: c.log_axes, limits: None },
        series,
        bands,
        ..XyChart::default()
    }
}

/// A weak-scaling series: the measured times, the model's time and its 90 % range, against n.
pub fn weak_times(w: &Weak) -> XyChart {
    XyChart {
        title: "Run time, weak scaling".into(),
        x: Axis { label: "processes (n)".into(), log: true, limits: None },
        y: Axis { label: "time (s)".into(), log: false, limits: None },
        series: vec![
            Series {
                data: chart::Series {
                    label: format!("model: {}", w.formula),
                    points: w.curve.iter().map(|&(n, t)| (n, t.0)).collect(),
                },
                marker: Marker::Line,
                color: 0,
                emphasis: true,
            },
            Series {
                data: chart::Series {
                    label: "measured".into(),
                    points: w.points.iter().map(|p| (f64::from(p.n), p.time_s)).collect(),
                },
                marker: Marker::Points,
                color: 4,
                emphasis: false,
            },
        ],
        bands: vec![Band {
            data: chart::Band {
                label: "90 % range".into(),
                points: w.curve.iter().map(|&(n, t)| (n, t.1, t.2)).collect(),
            },
            color: 0,
        }],
        bars: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::to_svg;
    use crate::model::catalog::presets;
    use crate::model::speedup::page::{default_inputs, view};
    use crate::model::speedup::MODELS;

    #[test]
    fn every_fit_and_the_points() {
        let v = view(&default_inputs(), &presets());
        let c = fits(v.chart.as_ref().expect("chart"), v.best);
        let fitted = v.models.iter().filter(|m| m.skipped_reason.is_none()).count();
        assert_eq!(
            c.series.iter().filter(|s| s.marker == Marker::Line).count(),
            fitted + 1,
            "the fits and the forecast"
        );
        assert_eq!(
            c.series.iter().filter(|s| s.emphasis && s.marker == Marker::Line).count(),
            2,
            "the best fit and the forecast"
        );
        assert_eq!(c.bands.iter().map(|b| b.data.label.as_str()).collect::<Vec<_>>(), ["forecast range (90 %)"]);
        let measured = c.series.iter().find(|s| s.data.label == "measured").expect("points");
        assert_eq!(
            measured.data.points,
            vec![(2.0, 2.0), (4.0, 3.92), (8.0, 7.25), (16.0, 13.29), (32.0, 20.23), (64.0, 24.95)]
        );
        assert!(to_svg(&c, 640, 400).expect("draws").contains("Speed-up against processes"));
    }

    #[test]
    fn every_model_has_a_colour_and_none_runs_out() {
        let seen: Vec<usize> = MODELS.iter().map(|&m| color(m)).collect();
        assert_eq!(seen[..5], [0, 1, 2, 3, 5], "the five first take the palette's, as before the list was open");
        // As many more families as one could add: never one of the kept colours (past the
        // palette's eight, `charts::color` wraps).
        for i in 0..40 {
            assert!(!KEPT.contains(&nth_free(i)), "{i}");
        }
    }
}

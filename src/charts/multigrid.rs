//! The planner page's charts, as `XyChart` data built from model results.

use super::{Axis, Marker, Series, XyChart};
use crate::model::chart;
use crate::model::multigrid::page::pareto_front;
use crate::model::multigrid::{Fit, Plan};

/// Predicted T against np at a fixed work per process (the largest calibrated size, where the
/// calibration runs lie), one curve per (cluster, fabric), with the measured runs as points.
pub fn time_vs_np(calibrations: &[(String, &Fit)], max_np: u32) -> XyChart {
    let mut series = Vec::new();
    for (k, (label, fit)) in calibrations.iter().enumerate() {
        let (_, work) = fit.measured_range_mb();
        let mut curve = Vec::new();
        let mut np = 2u32;
        while np <= max_np.max(8) {
            if let Ok(p) = fit.predict(np, work) {
                curve.push((f64::from(np), p.time_s));
            }
            np = if np < 16 { np + 1 } else { np + np / 8 };
        }
        series.push(Series {
            data: chart::Series {
                label: format!("{label}, {} MB/process", crate::model::fmt_num(work, 4)),
                points: curve,
            },
            marker: Marker::Line,
            color: k,
            emphasis: false,
        });
        let measured: Vec<(f64, f64)> = fit
            .runs
            .iter()
            .filter(|r| (r.work_mb - work).abs() <= 1e-9 * work)
            .map(|r| (f64::from(r.np), r.time_s))
            .collect();
        series.push(Series {
            data: chart::Series { label: String::new(), points: measured },
            marker: Marker::Points,
            color: k,
            emphasis: true,
        });
    }
    XyChart {
        title: "Predicted run time against np (dots: calibration runs)".into(),
        x: Axis { label: "np (processes)".into(), log: true, limits: None },
        y: Axis { label: "T (s)".into(), log: false, limits: None },
        series,
        ..XyChart::default()
    }
}

/// Every ranked option as (time, cost), the Pareto front drawn over them.
pub fn cost_vs_time(ranking: &[Plan]) -> XyChart {
    let pts: Vec<(f64, f64)> = ranking.iter().map(|p| (p.time_s, p.cost)).collect();
    let front: Vec<(f64, f64)> = pareto_front(&pts).into_iter().map(|i| pts[i]).collect();
    XyChart {
        title: "Cost against time of every feasible option".into(),
        x: Axis { label: "predicted T (s)".into(), log: true, limits: None },
        y: Axis { label: "cost (catalog currency)".into(), log: true, limits: None },
        series: vec![
            Series {
                data: chart::Series { label: "options".into(), points: pts },
                marker: Marker::Points,
                color: 4,
                emphasis: false,
            },
            Series {
                data: chart::Series { label: "Pareto front".into(), points: front },
                marker: Marker::LineAndPoints,
                color: 1,
                emphasis: true,
            },
        ],
        ..XyChart::default()
    }
}

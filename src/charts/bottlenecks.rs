//! The Extra-P section's chart: each region's predicted share of the run time against the
//! process count (`model::bottlenecks::page::ShareCurves`), as `XyChart` data.

use super::{Axis, Marker, Series, XyChart};
use crate::model::bottlenecks::page::ShareCurves;
use crate::model::chart;

/// One line per shown region (the first, largest at the last target, thicker), the rest as
/// one grey line; log n, share in per cent.
pub fn shares(c: &ShareCurves) -> XyChart {
    let last = c.curves.len().saturating_sub(1);
    let series = c
        .curves
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let other = i == last && s.label.ends_with("other regions");
            Series {
                data: chart::Series {
                    label: s.label.clone(),
                    points: s.points.iter().map(|&(n, s)| (n, s * 100.0)).collect(),
                },
                marker: Marker::LineAndPoints,
                color: if other {
                    4
                } else if i >= 4 {
                    i + 1
                } else {
                    i
                },
                emphasis: i == 0,
            }
        })
        .collect();
    XyChart {
        title: "Predicted share of the run time".into(),
        x: Axis { label: format!("processes ({})", c.process_parameter), log: true, limits: None },
        // A share is of the whole: one region's is 100 % throughout, drawn as that, not as a
        // line in the middle of 90 to 110 % (issue "Honest, round 2", 20).
        y: Axis { label: "share of the run time (%)".into(), log: false, limits: Some((0.0, 100.0)) },
        series,
        bands: Vec::new(),
        bars: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_become_per_cent_and_other_regions_grey() {
        let c = ShareCurves {
            process_parameter: "p".into(),
            curves: vec![
                chart::Series { label: "a".into(), points: vec![(2.0, 0.25), (4.0, 0.5)] },
                chart::Series { label: "3 other regions".into(), points: vec![(2.0, 0.75), (4.0, 0.5)] },
            ],
        };
        let x = shares(&c);
        assert_eq!(x.series[0].data.points, [(2.0, 25.0), (4.0, 50.0)]);
        assert!(x.series[0].emphasis && !x.series[1].emphasis);
        assert_eq!(x.series[1].color, 4);
        assert!(x.x.log && !x.y.log);
        assert!(crate::charts::to_svg(&x, 640, 400).is_ok_and(|s| s.contains("other regions")));
    }

    /// The share axis' range as drawn.
    fn y_range(curves: Vec<chart::Series>) -> (f64, f64) {
        let c = ShareCurves { process_parameter: "p".into(), curves };
        let (svg, frame) =
            crate::charts::to_svg_themed(&shares(&c), 640, 400, &crate::charts::Theme::LIGHT).expect("draws");
        assert!(!svg.contains("NaN"));
        frame.expect("a plot").y
    }

    #[test]
    fn the_share_axis_runs_from_0_to_at_most_100_per_cent() {
        // Issue "Honest, round 2", 20: one region, 100 % at every count, drew an axis from 90
        // to 110 %.
        let one = chart::Series { label: "main".into(), points: vec![(2.0, 1.0), (64.0, 1.0), (1024.0, 1.0)] };
        assert_eq!(y_range(vec![one]), (0.0, 100.0));
        // Two regions: from zero, never above 100 %.
        let a = chart::Series { label: "a".into(), points: vec![(2.0, 0.1), (1024.0, 0.98)] };
        let b = chart::Series { label: "b".into(), points: vec![(2.0, 0.9), (1024.0, 0.02)] };
        assert_eq!(y_range(vec![a, b]), (0.0, 100.0));
        // Small shares keep their room: the axis ends a little above the largest.
        let a = chart::Series { label: "a".into(), points: vec![(2.0, 0.1), (1024.0, 0.2)] };
        let b = chart::Series { label: "b".into(), points: vec![(2.0, 0.05), (1024.0, 0.15)] };
        let (lo, hi) = y_range(vec![a, b]);
        assert!(lo == 0.0 && (20.0..25.0).contains(&hi), "{lo}..{hi}");
        // Two regions that share the time equally: from 0, not 45 to 55 %.
        let half = |l: &str| chart::Series { label: l.into(), points: vec![(2.0, 0.5), (1024.0, 0.5)] };
        assert_eq!(y_range(vec![half("a"), half("b")]), (0.0, 55.0));
    }
}

//! The Extra-P section's chart: each region's predicted share of the run time against the
//! process count (`model::extrap::page::ShareCurves`), as `XyChart` data.

use crate::model::chart;
use super::{Axis, Marker, Series, XyChart};
use crate::model::extrap::page::ShareCurves;

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
                data: chart::Series { label: s.label.clone(), points: s.points.iter().map(|&(n, s)| (n, s * 100.0)).collect() },
                marker: Marker::LineAndPoints,
                color: if other { 4 } else if i >= 4 { i + 1 } else { i },
                emphasis: i == 0,
            }
        })
        .collect();
    XyChart {
        title: "Predicted share of the run time".into(),
        x: Axis { label: format!("processes ({})", c.process_parameter), log: true },
        y: Axis { label: "share of the run time (%)".into(), log: false },
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
}

//! The two-regions page's charts, as `XyChart` data built from `regions_page::PageView`.

use super::{Axis, Marker, Series, XyChart};
use crate::model::chart;
use crate::model::fmt_num;
use crate::model::regions::page::PageView;
use crate::model::regions::Point;

/// Grey, for series that explain a style rather than show a case.
const KEY: usize = 4;

fn case_color(k: usize) -> usize {
    // Skip the grey of the key.
    if k >= KEY {
        k + 1
    } else {
        k
    }
}

fn key(label: &str, marker: Marker) -> Series {
    Series { data: chart::Series { label: label.into(), points: Vec::new() }, marker, color: KEY, emphasis: false }
}

/// Speed-up against cores per region: two regions (lines, n* marked) and one region (dots)
/// for every case; additive, or overlapping when `overlapping`.
pub fn speedup_vs_n(view: &PageView, overlapping: bool) -> XyChart {
    type Pick = fn(&Point) -> f64;
    let (one, two): (Pick, Pick) = if overlapping {
        (|p| p.one_region_overlapping, |p| p.two_regions_overlapping)
    } else {
        (|p| p.one_region, |p| p.two_regions)
    };
    let mut series = vec![key("one region (dots)", Marker::Dots)];
    if !overlapping {
        series.push(key("n*: peak of two regions", Marker::Points));
    }
    for (k, c) in view.cases.iter().enumerate() {
        let color = case_color(k);
        series.push(Series {
            data: chart::Series {
                label: format!("two regions, {}", c.label),
                points: c.curve.iter().map(|p| (p.n, two(p))).collect(),
            },
            marker: Marker::Line,
            color,
            emphasis: true,
        });
        series.push(Series {
            data: chart::Series { label: String::new(), points: c.curve.iter().map(|p| (p.n, one(p))).collect() },
            marker: Marker::Dots,
            color,
            emphasis: false,
        });
        if let (false, Some(n), Some(s)) = (overlapping, c.optimum.n_star(), c.optimum.sp2_max()) {
            let n_max = c.curve.last().map_or(0.0, |p| p.n);
            if (1.0..=n_max).contains(&n) {
                series.push(Series {
                    data: chart::Series { label: String::new(), points: vec![(n, s)] },
                    marker: Marker::Points,
                    color,
                    emphasis: true,
                });
            }
        }
    }
    let how = if overlapping { "overlapping: t = max of the parts" } else { "additive: t = sum of the parts" };
    XyChart {
        title: format!("Speed-up against cores per region ({how})"),
        x: Axis { label: "n, cores per region (two regions: 2n cores)".into(), log: true, limits: None },
        y: Axis { label: "speed-up".into(), log: false, limits: None },
        series,
        ..XyChart::default()
    }
}

/// Two-region speed-up against the bandwidth between the regions: its maximum over n (line)
/// and its value at the required-bandwidth n (dots), with the required bandwidth of each case
/// as a point. None of it depends on the current bandwidth (the page marks that over the
/// chart), so moving it does not redraw this chart.
pub fn sweep_speedup(view: &PageView) -> XyChart {
    let at_n = view.req_n.map(|n| format!("Sp2 at n = {} (dots)", fmt_num(n, 6)));
    let mut series = vec![key("Sp2_max over n (line)", Marker::Line)];
    if let Some(l) = &at_n {
        series.push(key(l, Marker::Dots));
        series.push(key("required B_E", Marker::Points));
    }
    for (k, c) in view.cases.iter().enumerate() {
        let color = case_color(k);
        series.push(Series {
            data: chart::Series {
                label: c.label.clone(),
                points: c.sweep.iter().map(|r| (r.bandwidth_gb_s, r.sp2_best)).collect(),
            },
            marker: Marker::Line,
            color,
            emphasis: true,
        });
        series.push(Series {
            data: chart::Series {
                label: String::new(),
                points: c.sweep.iter().filter_map(|r| Some((r.bandwidth_gb_s, r.sp2_at_n?))).collect(),
            },
            marker: Marker::Dots,
            color,
            emphasis: false,
        });
        let need = c.verdict.as_ref().and_then(|v| v.as_ref().ok()).and_then(|v| {
            let b = v.required.requirement_bandwidth()?;
            Some((b, v.required.target_speedup))
        });
        if let (Some(p), Some(first), Some(last)) = (need, c.sweep.first(), c.sweep.last()) {
            if (first.bandwidth_gb_s..=last.bandwidth_gb_s).contains(&p.0) {
                series.push(Series {
                    data: chart::Series { label: String::new(), points: vec![p] },
                    marker: Marker::Points,
                    color,
                    emphasis: true,
                });
            }
        }
    }
    XyChart {
        title: "Two-region speed-up against the bandwidth between the regions".into(),
        x: Axis { label: "B_E, bandwidth between the regions (GB/s)".into(), log: true, limits: None },
        y: Axis { label: "speed-up".into(), log: false, limits: None },
        series,
        ..XyChart::default()
    }
}

/// The optimal region size n* against the bandwidth between the regions.
pub fn sweep_n_star(view: &PageView) -> XyChart {
    let mut series = Vec::new();
    for (k, c) in view.cases.iter().enumerate() {
        series.push(Series {
            data: chart::Series {
                label: c.label.clone(),
                points: c.sweep.iter().filter_map(|r| Some((r.bandwidth_gb_s, r.n_star?))).collect(),
            },
            marker: Marker::Line,
            color: case_color(k),
            emphasis: true,
        });
    }
    XyChart {
        title: "Optimal region size n* against the bandwidth between the regions".into(),
        x: Axis { label: "B_E, bandwidth between the regions (GB/s)".into(), log: true, limits: None },
        y: Axis { label: "n*, cores per region".into(), log: true, limits: None },
        series,
        ..XyChart::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::to_svg;
    use crate::model::catalog::presets;
    use crate::model::regions::page::{default_inputs, view as page_view};
    use crate::model::workspace::PageInputs;

    fn evaluate(texts: &PageInputs) -> PageView {
        page_view(texts, &presets())
    }

    #[test]
    fn charts_show_every_case() {
        let view = evaluate(&default_inputs());
        let c = speedup_vs_n(&view, false);
        // Two keys, then per case: two regions, one region, n* (inside 1..1120 for all four).
        assert_eq!(c.series.len(), 2 + 4 * 3);
        assert_eq!(c.series[2].data.label, "two regions, N = 10000");
        assert_eq!(c.series[2].data.points.len(), view.cases[0].curve.len());
        let n_star = &c.series[4].data.points[0];
        assert_eq!(Some(n_star.0), view.cases[0].optimum.n_star());
        let s = sweep_speedup(&view);
        assert!(s.series.iter().any(|s| s.data.label == "N = 40000" && s.data.points.len() == 1000));
        let n = sweep_n_star(&view);
        assert_eq!(n.series.len(), 4);
        // Moving the bandwidth leaves the sweep charts as they are (the page marks it over them).
        let mut inputs = default_inputs();
        inputs.insert("region_bw".into(), "7.3".into());
        let moved = evaluate(&inputs);
        assert_eq!(sweep_speedup(&moved), s);
        assert_eq!(sweep_n_star(&moved), n);
        assert_ne!(speedup_vs_n(&moved, false), c);
        for chart in [c, s, n, speedup_vs_n(&view, true)] {
            let svg = to_svg(&chart, 640, 400).expect("draws");
            assert!(svg.contains(&chart.title), "title drawn");
        }
    }
}

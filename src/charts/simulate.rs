//! The simulation page's charts, as `XyChart` data built from `simulate_page::ResultView`.

use super::{Axis, Marker, Series, XyChart};
use crate::model::pevpm::engine::{Activity, Timeline};
use crate::model::pevpm::page::{activity_name, ResultView};

/// Most timeline segments drawn (a run of 32 processes can have thousands).
const MAX_SEGMENTS: usize = 3000;

/// Speed-up against processes: the job's own series, then the seed's Figure 6 comparison
/// (full distributions, averages, minimums) when it was asked for.
pub fn speedup(v: &ResultView) -> XyChart {
    let series = v
        .curves
        .iter()
        .enumerate()
        .map(|(k, c)| Series {
            label: c.label.clone(),
            points: c.points.iter().map(|&(n, s, _)| (f64::from(n), s)).collect(),
            marker: Marker::LineAndPoints,
            color: k,
            emphasis: k == 0,
        })
        .collect();
    XyChart {
        title: "Simulated speed-up against processes".into(),
        x: Axis { label: "processes".into(), log: true },
        y: Axis { label: "speed-up".into(), log: false },
        series,
    }
}

/// The distribution of run times over the replications, one line per process count.
pub fn run_times(v: &ResultView) -> XyChart {
    let series = v
        .rows
        .iter()
        .enumerate()
        .map(|(k, r)| Series {
            label: format!("{} processes", r.numprocs),
            points: r.histogram.iter().map(|&(lo, hi, c)| ((lo + hi) / 2.0, f64::from(c))).collect(),
            marker: Marker::LineAndPoints,
            color: k,
            emphasis: false,
        })
        .collect();
    XyChart {
        title: "Run times over the replications".into(),
        x: Axis { label: "run time (s)".into(), log: false },
        y: Axis { label: "replications".into(), log: false },
        series,
    }
}

fn activity_color(a: Activity) -> usize {
    match a {
        Activity::Computing => 2,
        Activity::Sending => 0,
        Activity::Waiting => 1,
    }
}

/// One replication: per process (y) what it does over time (x).
pub fn timeline(numprocs: u32, t: &Timeline) -> XyChart {
    let mut series: Vec<Series> = [Activity::Computing, Activity::Sending, Activity::Waiting]
        .iter()
        .map(|&a| Series { label: activity_name(a).into(), points: Vec::new(), marker: Marker::Line, color: activity_color(a), emphasis: true })
        .collect();
    for &(p, a, start, end) in t.segments.iter().take(MAX_SEGMENTS) {
        let y = f64::from(p);
        series.push(Series { label: String::new(), points: vec![(start, y), (end, y)], marker: Marker::Line, color: activity_color(a), emphasis: true });
    }
    let cut = t.truncated || t.segments.len() > MAX_SEGMENTS;
    XyChart {
        title: format!("One replication on {numprocs} processes{}", if cut { " (beginning)" } else { "" }),
        x: Axis { label: "time (s)".into(), log: false },
        y: Axis { label: "process".into(), log: false },
        series,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::to_svg;
    use crate::model::pevpm::job::Simulation;
    use crate::model::pevpm::page::{default_inputs, prepare, view, Field};
    use crate::model::workspace::catalog::presets as catalog;
    use crate::model::workspace::PageField;

    #[test]
    fn charts_of_a_small_jacobi_run() {
        let mut inputs = default_inputs();
        inputs.insert(Field::Numprocs.key().into(), "2 4".into());
        inputs.insert(Field::Replications.key().into(), "4".into());
        inputs.insert(Field::Params.key().into(), "xsize = 64\niterations = 5".into());
        let report = Simulation::new(prepare(&inputs, &catalog()).expect("valid")).expect("valid").run_to_end().expect("runs");
        let v = view(&report);
        let s = speedup(&v);
        assert_eq!(s.series.len(), v.curves.len());
        assert_eq!(s.series[0].points.len(), 2);
        assert_eq!(run_times(&v).series.len(), 2);
        let (n, t) = v.timeline.as_ref().expect("small runs have a timeline");
        let c = timeline(*n, t);
        assert_eq!(c.series.len(), 3 + t.segments.len().min(MAX_SEGMENTS));
        for chart in [s, run_times(&v), c] {
            assert!(to_svg(&chart, 640, 400).expect("draws").contains(&chart.title));
        }
    }
}

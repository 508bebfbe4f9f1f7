//! The simulation page's charts, as `XyChart` data built from `simulate_page::ResultView`.

use super::{Axis, Band, Bars, Gantt, Marker, Series, XyChart};
use crate::model::chart;
use crate::model::fmt_num;
use crate::model::simulate::engine::{Activity, Timeline};
use crate::model::simulate::page::{activity_name, ResultView, RowView};

/// Speed-up against processes: the job's own series, then the seed's Figure 6 comparison
/// (full distributions, averages, minimums) when it was asked for.
pub fn speedup(v: &ResultView) -> XyChart {
    let series = v
        .curves
        .iter()
        .enumerate()
        .map(|(k, c)| Series {
            data: chart::Series {
                label: c.label.clone(),
                points: c.points.iter().map(|&(n, s, _)| (f64::from(n), s)).collect(),
            },
            marker: Marker::LineAndPoints,
            color: k,
            emphasis: k == 0,
        })
        .collect();
    XyChart {
        title: "Simulated speed-up against processes".into(),
        x: Axis { label: "processes".into(), log: true, limits: None },
        y: Axis { label: "speed-up".into(), log: false, limits: None },
        series,
        ..XyChart::default()
    }
}

/// The histogram of one process count's run times over the replications: a bar per bin,
/// the mean as a line, and the middle 95 % of the runs as a band.
pub fn run_times(row: &RowView) -> XyChart {
    let tallest = row.histogram.iter().map(|b| f64::from(b.2)).fold(0.0, f64::max);
    let [lo, hi] = row.interval95_s;
    let runs = row.histogram.iter().map(|b| b.2).sum::<u32>();
    XyChart {
        title: format!(
            "Run times of {runs} replication{} on {} processes",
            if runs == 1 { "" } else { "s" },
            row.numprocs
        ),
        x: Axis { label: "run time (s)".into(), log: false, limits: None },
        y: Axis { label: "replications".into(), log: false, limits: None },
        bars: vec![Bars {
            label: format!("{} processes", row.numprocs),
            bins: row.histogram.iter().map(|&(a, b, c)| (a, b, f64::from(c))).collect(),
            color: 0,
        }],
        bands: vec![Band {
            data: chart::Band {
                label: format!("middle 95 % of the runs, {} s", crate::model::error::fmt_range(lo, hi, 4)),
                points: vec![(lo, 0.0, tallest), (hi, 0.0, tallest)],
            },
            color: 6,
        }],
        series: vec![Series {
            data: chart::Series {
                label: format!("mean {} s", fmt_num(row.mean_s, 4)),
                points: vec![(row.mean_s, 0.0), (row.mean_s, tallest)],
            },
            marker: Marker::Line,
            color: 1,
            emphasis: true,
        }],
    }
}

/// Palette index per activity (the same in the key and the bars).
fn activity_color(a: Activity) -> usize {
    match a {
        Activity::Computing => 2,
        Activity::Sending => 0,
        Activity::Waiting => 1,
    }
}

const ACTIVITIES: [Activity; 3] = [Activity::Computing, Activity::Sending, Activity::Waiting];

/// The end of the last span of a timeline, s (the time axis' full length).
pub fn timeline_end(t: &Timeline) -> f64 {
    t.segments.iter().map(|s| s.3).filter(|e| e.is_finite()).fold(0.0, f64::max)
}

/// One replication as a Gantt chart: per process what it does over time, in `window` (s).
pub fn timeline(numprocs: u32, t: &Timeline, window: (f64, f64)) -> Gantt {
    let end = timeline_end(t);
    let zoomed = window.0 > 0.0 || window.1 < end;
    Gantt {
        title: format!("One replication on {numprocs} processes{}", if zoomed { ", zoomed" } else { "" }),
        rows: (0..numprocs).map(|p| format!("process {p}")).collect(),
        kinds: ACTIVITIES.iter().map(|&a| (activity_name(a).to_string(), activity_color(a))).collect(),
        spans: t
            .segments
            .iter()
            .map(|&(p, a, s, e)| (p, ACTIVITIES.iter().position(|&k| k == a).unwrap_or(0) as u8, s, e))
            .collect(),
        time_label: "time (s)".into(),
        window,
        note: t.truncated.then(|| {
            format!(
                "Only the first {} spans of this run were kept (a bound on memory): the chart ends at {} s.",
                t.segments.len(),
                fmt_num(end, 4)
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::{to_svg, Drawing};
    use crate::model::catalog::presets as catalog;
    use crate::model::simulate::job::Simulation;
    use crate::model::simulate::page::{default_inputs, prepare, view, Field};
    use crate::model::workspace::PageField;

    /// The view of the page's default job (Jacobi) with these process counts and replications,
    /// a small grid and 5 iterations.
    fn jacobi(numprocs: &str, replications: &str) -> ResultView {
        let mut inputs = default_inputs();
        inputs.insert(Field::Numprocs.key().into(), numprocs.into());
        inputs.insert(Field::Replications.key().into(), replications.into());
        inputs.insert(Field::Params.key().into(), "xsize = 64\niterations = 5".into());
        let report =
            Simulation::new(prepare(&inputs, &catalog()).expect("valid").0).expect("valid").run_to_end().expect("runs");
        view(&report)
    }

    #[test]
    fn charts_of_a_small_jacobi_run() {
        let v = jacobi("2 4", "40");
        let s = speedup(&v);
        assert_eq!(s.series.len(), v.curves.len());
        assert_eq!(s.series[0].data.points.len(), 2);
        assert!(to_svg(&s, 640, 400).expect("draws").contains(&s.title));

        // The histogram: its bars are the view's bins, they count every replication, and the
        // mean and the middle 95 % are drawn from the run's own numbers.
        let row = &v.rows[1];
        let h = run_times(row);
        assert_eq!(h.bars[0].bins.len(), row.histogram.len());
        assert_eq!(h.bars[0].bins.iter().map(|b| b.2).sum::<f64>(), 40.0);
        assert_eq!(h.series[0].data.points[0].0, row.mean_s);
        assert_eq!(
            (h.bands[0].data.points[0].0, h.bands[0].data.points[1].0),
            (row.interval95_s[0], row.interval95_s[1])
        );
        assert!(row.interval95_s[0] <= row.mean_s && row.mean_s <= row.interval95_s[1]);
        let table = h.table();
        assert_eq!(table.rows.len(), row.histogram.len());
        assert_eq!(table.headers[0], "run time from (s)");
        let (svg, frame) = crate::charts::to_svg_themed(&h, 640, 400, &crate::charts::Theme::LIGHT).expect("draws");
        assert!(svg.matches("<rect").count() >= row.histogram.iter().filter(|b| b.2 > 0).count());
        // Hovering the middle of the first bar reads its bin.
        let f = frame.expect("frame");
        let (lo, hi, c) = row.histogram[0];
        let px = f.x_pixel((lo + hi) / 2.0).expect("inside");
        let r = h.readout(&f, (px, f.y_px.1 - 2)).expect("a bin");
        assert!(r.text.ends_with(&format!(": {c} replications")), "{}", r.text);

        // The timeline: every span of the run, as Gantt bars per process.
        let (n, t) = v.timeline.as_ref().expect("small runs have a timeline");
        let end = timeline_end(t);
        let g = timeline(*n, t, (0.0, end));
        assert_eq!(g.rows.len(), *n as usize);
        assert_eq!(g.spans.len(), t.segments.len());
        assert_eq!(g.table().rows.len(), t.segments.len().min(crate::charts::gantt::TABLE_ROWS));
        let svg = to_svg(&g, 640, 400).expect("draws");
        assert!(svg.contains("process 1") && svg.contains("waiting"));
        // Zoomed to the first tenth, only the spans that reach into it are listed.
        let z = timeline(*n, t, (0.0, end / 10.0));
        let inside = t.segments.iter().filter(|s| s.2 <= end / 10.0).count();
        assert_eq!(z.table().rows.len(), inside.min(crate::charts::gantt::TABLE_ROWS));
        assert!(z.title.ends_with("zoomed"));
    }

    #[test]
    fn one_replication_fills_the_run_time_axis() {
        // One run (a bar of no width at 0.27 ms in the all-to-all) drew on an axis from
        // 0 to 0.1 s, the bar and the mean against its left edge, under "1 replications".
        let v = jacobi("4", "1");
        let h = run_times(&v.rows[0]);
        assert!(h.title.starts_with("Run times of 1 replication on 4 processes"), "{}", h.title);
        let (_, frame) = crate::charts::to_svg_themed(&h, 640, 400, &crate::charts::Theme::LIGHT).expect("draws");
        let f = frame.expect("frame");
        let at = f.x_pixel(v.rows[0].mean_s).expect("inside");
        assert!(at - f.x_px.0 > (f.x_px.1 - f.x_px.0) / 2, "the run at pixel {at} of {:?}", f.x_px);
    }
}

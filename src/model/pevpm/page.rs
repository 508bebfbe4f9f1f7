//! The simulation page: from the texts in its inputs to a job ready to run ([`prepare`]), and
//! from a finished report to everything the page shows ([`view`]). Running happens between the
//! two: `Simulation::new(job)?`, then its parts run in slices (`Stepper::step` until
//! `Progress::Done`), possibly in several Web Workers, and merged (`Simulation::merge`), so the
//! page can report progress and cancel (terminate the workers).
//!
//! Inputs (field names of the page, also the keys of the command line's JSON):
//! `skeleton` (text), `params` (`name = value` lines), `numprocs` (process counts, e.g.
//! "2 4 8"), `procs_per_node`, `machine` (`perseus`, `fitted` or `histograms`),
//! `latency_us` and `bandwidth_mbit_s` (the fitted line), `histograms` (pasted MPIBench
//! table), `mode` (`distribution`, `average`, `minimum`), `contention` (`moment`,
//! `configuration`, `none`), `replications`, `seed`, `compare` (`yes`: the Figure 6 series).
//! Seed: `seeds/001_0f2c37bb58f8c7d1.txt`; model: [`crate::model::pevpm`].

use crate::model::pevpm::examples::{Example, EXAMPLES};
use crate::model::pevpm::lang;
use crate::model::pevpm::machine::{perseus, Contention, Machine, Mode};
use crate::model::pevpm::program::MAX_PROCS;
use crate::model::pevpm::engine::{Activity, Timeline};
use crate::model::pevpm::job::{Job, Limits, Report};
use crate::model::input::list::{self, ListSpec};
use crate::model::input::table::parse_number;
use crate::model::workspace::{FieldSet, PageInputs};
use crate::model::InputError;

pub const PAGE: &str = "simulate";
/// Most process counts in one job.
pub const MAX_COUNTS: usize = 64;
/// Bins of the run-time histograms.
pub const HISTOGRAM_BINS: usize = 20;

/// The presets: the shipped examples.
pub const PRESETS: &[Example] = &EXAMPLES;

/// The page's inputs for an example, on the Perseus-like machine.
pub fn preset_inputs(e: &Example) -> PageInputs {
    let pairs = [
        ("skeleton", e.skeleton),
        ("params", e.params),
        ("numprocs", e.numprocs),
        ("procs_per_node", "1"),
        ("machine", "perseus"),
        ("latency_us", "70"),
        ("bandwidth_mbit_s", "85"),
        ("histograms", ""),
        ("mode", "distribution"),
        ("contention", "moment"),
        ("replications", "20"),
        ("seed", "1"),
        ("compare", "yes"),
    ];
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// Every fabric of every cluster in the catalog as a machine: the fabric (measured, or fitted on
/// the communication page and saved there) as the fitted line, with the cluster's cores per
/// node as processes per node (MB = 2^20 bytes, so Mbit/s = MB/s · 8 · 1.048576).
pub fn catalog_machines(catalog: &crate::model::workspace::catalog::Catalog) -> Vec<FieldSet> {
    let mut out = Vec::new();
    for c in &catalog.clusters {
        for f in &c.fabrics {
            if !(f.latency_us.is_finite() && f.latency_us >= 0.0 && f.bandwidth_mb_s.is_finite() && f.bandwidth_mb_s > 0.0) {
                continue;
            }
            out.push(FieldSet {
                label: format!("{} — {}", c.name, f.name),
                fields: vec![
                    ("machine", "fitted".into()),
                    ("latency_us", crate::model::fmt_num(f.latency_us, 6)),
                    ("bandwidth_mbit_s", crate::model::fmt_num(f.bandwidth_mb_s * 8.0 * 1.048576, 8)),
                    ("procs_per_node", c.cores_per_node.clamp(1, 64).to_string()),
                ],
            });
        }
    }
    out
}

/// The Jacobi example.
pub fn default_inputs() -> PageInputs {
    preset_inputs(&EXAMPLES[0])
}

fn get<'a>(inputs: &'a PageInputs, key: &str) -> &'a str {
    inputs.get(key).map(String::as_str).unwrap_or("")
}

fn whole(inputs: &PageInputs, key: &str, lo: f64, hi: f64, errors: &mut Vec<InputError>) -> Option<u64> {
    let text = get(inputs, key).trim();
    match parse_number(text) {
        Some(x) if x.fract() == 0.0 && (lo..=hi).contains(&x) => Some(x as u64),
        _ => {
            let found = if text.is_empty() { "nothing".into() } else { format!("\"{}\"", text.chars().take(20).collect::<String>()) };
            errors.push(InputError::new(key, format!("expected a whole number from {lo} to {hi}, found {found}")));
            None
        }
    }
}

fn positive(inputs: &PageInputs, key: &str, hi: f64, errors: &mut Vec<InputError>) -> Option<f64> {
    let text = get(inputs, key).trim();
    match parse_number(text) {
        Some(x) if x > 0.0 && x <= hi => Some(x),
        _ => {
            errors.push(InputError::new(key, format!("expected a number above 0 and at most {hi}, found \"{}\"", text.chars().take(20).collect::<String>())));
            None
        }
    }
}

/// Process counts: whole numbers separated by spaces, commas or semicolons, sorted.
pub fn parse_counts(text: &str) -> Result<Vec<u32>, InputError> {
    let spec = ListSpec { max_items: MAX_COUNTS, required: true };
    let mut out = list::whole_numbers("numprocs", text, spec, 1, MAX_PROCS)?;
    out.sort_unstable();
    Ok(out)
}

/// The machine the inputs choose.
pub fn parse_machine(inputs: &PageInputs) -> Result<Machine, Vec<InputError>> {
    match get(inputs, "machine").trim().to_ascii_lowercase().as_str() {
        "perseus" | "" => Ok(perseus()),
        "fitted" => {
            let mut errors = Vec::new();
            let latency = parse_number(get(inputs, "latency_us")).filter(|x| (0.0..=1e7).contains(x));
            if latency.is_none() {
                errors.push(InputError::new("latency_us", "expected a latency from 0 to 1e7 µs"));
            }
            let bw = positive(inputs, "bandwidth_mbit_s", 1e9, &mut errors);
            match (latency, bw) {
                (Some(l), Some(w)) => Machine::fitted(l * 1e-6, w * 1e6 / 8.0).map_err(|m| vec![InputError::new("bandwidth_mbit_s", m)]),
                _ => Err(errors),
            }
        }
        "histograms" => Machine::from_histograms("histograms", "pasted histograms", get(inputs, "histograms")).map_err(|e| vec![e]),
        other => Err(vec![InputError::new("machine", format!("unknown machine \"{}\"; expected perseus, fitted or histograms", other.chars().take(20).collect::<String>()))]),
    }
}

/// Parses and validates every input into a job; all errors at once, each naming its field
/// (and line and column for the skeleton, parameters and histograms).
pub fn prepare(inputs: &PageInputs) -> Result<Job, Vec<InputError>> {
    let mut errors = Vec::new();
    let skeleton = lang::parse(get(inputs, "skeleton")).map_err(|e| errors.push(e)).ok();
    let params = lang::parse_params("params", get(inputs, "params")).map_err(|e| errors.push(e)).ok();
    let numprocs = parse_counts(get(inputs, "numprocs")).map_err(|e| errors.push(e)).ok();
    let ppn = whole(inputs, "procs_per_node", 1.0, 64.0, &mut errors);
    let machine = parse_machine(inputs).map_err(|e| errors.extend(e)).ok();
    let mode = Mode::parse(get(inputs, "mode"));
    if mode.is_none() {
        errors.push(InputError::new("mode", "expected distribution, average or minimum"));
    }
    let contention = match get(inputs, "contention").trim() {
        "" => Some(Contention::Moment),
        t => Contention::parse(t),
    };
    if contention.is_none() {
        errors.push(InputError::new("contention", "expected moment, configuration or none"));
    }
    let replications = whole(inputs, "replications", 1.0, 10000.0, &mut errors);
    let seed = whole(inputs, "seed", 0.0, 9007199254740991.0, &mut errors);
    let compare = matches!(get(inputs, "compare").trim().to_ascii_lowercase().as_str(), "yes" | "true" | "1" | "on");
    match (skeleton, params, numprocs, ppn, machine, mode, contention, replications, seed) {
        (Some(skeleton), Some(params), Some(numprocs), Some(ppn), Some(machine), Some(mode), Some(contention), Some(replications), Some(seed))
            if errors.is_empty() =>
        {
            let job = Job {
                skeleton,
                params,
                numprocs,
                procs_per_node: ppn as u32,
                machine,
                mode,
                contention,
                replications: replications as u32,
                seed,
                compare,
                sequential_s: None,
                limits: Limits::default(),
            };
            // Compile what a keystroke can afford now, so that most errors of the skeleton
            // against the counts show before a run; the run checks the rest.
            crate::model::pevpm::job::Simulation::check(&job).map(|_| job).map_err(|e| vec![e])
        }
        _ => Err(errors),
    }
}

/// One row of the results table.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RowView {
    pub numprocs: u32,
    pub nodes: u32,
    pub mean_s: f64,
    pub ci95_s: [f64; 2],
    pub sd_s: f64,
    pub speedup: f64,
    /// Run-time histogram: (bin low s, bin high s, replications).
    pub histogram: Vec<(f64, f64, u32)>,
    /// Per process: computing, sending, waiting (mean seconds).
    pub procs: Vec<[f64; 3]>,
    pub messages_per_run: f64,
    pub unreceived_per_run: f64,
}

/// One line of the speed-up chart.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CurveView {
    pub label: String,
    /// (numprocs, speed-up, mean run time s).
    pub points: Vec<(u32, f64, f64)>,
}

/// Everything the results part of the page shows. It crosses from the page's Web Worker as
/// JSON.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ResultView {
    pub rows: Vec<RowView>,
    /// The main series first, then the Figure 6 series when asked for.
    pub curves: Vec<CurveView>,
    /// The first replication of the smallest count with a timeline (≤ 32 processes):
    /// (numprocs, timeline).
    pub timeline: Option<(u32, Timeline)>,
    /// (process, what it waits for, line) of a deadlocked run, and the count and time.
    pub deadlock: Option<DeadlockView>,
    pub sequential_s: f64,
    pub messages: u64,
    /// A sentence for the top of the results ("Speed-up 3.3 at 8 processes …").
    pub summary: String,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DeadlockView {
    pub numprocs: u32,
    pub time_s: f64,
    pub blocked: Vec<(u32, String, u32)>,
}

fn finite(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// Histogram of run times in `bins` equal bins between the smallest and the largest.
pub fn histogram(times: &[f64], bins: usize) -> Vec<(f64, f64, u32)> {
    let lo = times.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = times.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if times.is_empty() || !lo.is_finite() || !hi.is_finite() || bins == 0 {
        return Vec::new();
    }
    if hi <= lo {
        return vec![(lo, lo, times.len() as u32)];
    }
    let w = (hi - lo) / bins as f64;
    let mut out: Vec<(f64, f64, u32)> = (0..bins).map(|i| (lo + w * i as f64, lo + w * (i + 1) as f64, 0)).collect();
    for t in times {
        let i = (((t - lo) / w) as usize).min(bins - 1);
        if let Some(b) = out.get_mut(i) {
            b.2 += 1;
        }
    }
    out
}

/// What the page shows for a finished report.
pub fn view(report: &Report) -> ResultView {
    let rows: Vec<RowView> = report
        .main
        .results
        .iter()
        .map(|c| RowView {
            numprocs: c.numprocs,
            nodes: c.nodes,
            mean_s: finite(c.mean_s),
            ci95_s: [finite(c.ci95_s[0]), finite(c.ci95_s[1])],
            sd_s: finite(c.sd_s),
            speedup: finite(c.speedup),
            histogram: histogram(&c.run_times_s, HISTOGRAM_BINS),
            procs: c.procs.iter().map(|p| [finite(p.computing_s), finite(p.sending_s), finite(p.waiting_s)]).collect(),
            messages_per_run: finite(c.messages_per_run),
            unreceived_per_run: finite(c.unreceived_per_run),
        })
        .collect();
    let curve = |label: &str, s: &crate::model::pevpm::job::SeriesResult| CurveView {
        label: label.to_string(),
        points: s.results.iter().map(|c| (c.numprocs, finite(c.speedup), finite(c.mean_s))).collect(),
    };
    let mut curves = vec![curve(report.main.series.label, &report.main)];
    curves.extend(report.comparison.iter().filter(|s| s.series.label != report.main.series.label).map(|s| curve(s.series.label, s)));
    let timeline = report.main.results.iter().find_map(|c| c.timeline.clone().map(|t| (c.numprocs, t)));
    let deadlock = report.deadlock.as_ref().map(|d| DeadlockView {
        numprocs: d.numprocs,
        time_s: finite(d.time_s),
        blocked: d.blocked.iter().map(|b| (b.proc, b.waiting_for.clone(), b.line)).collect(),
    });
    let summary = match (&deadlock, rows.iter().max_by(|a, b| a.speedup.total_cmp(&b.speedup))) {
        (Some(d), _) => format!("Deadlock with {} processes: {} of them wait for messages that never come.", d.numprocs, d.blocked.len()),
        (None, Some(best)) => format!(
            "Best speed-up {} at {} processes ({} s ± {} s a run).",
            crate::model::fmt_num(best.speedup, 3),
            best.numprocs,
            crate::model::fmt_num(best.mean_s, 4),
            crate::model::fmt_num((best.ci95_s[1] - best.mean_s).max(0.0), 2)
        ),
        (None, None) => "No results.".to_string(),
    };
    ResultView { rows, curves, timeline, deadlock, sequential_s: finite(report.sequential_s), messages: report.messages, summary }
}

/// Activity names for a timeline legend.
pub fn activity_name(a: Activity) -> &'static str {
    match a {
        Activity::Computing => "computing",
        Activity::Sending => "sending",
        Activity::Waiting => "waiting",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::pevpm::job::{Progress, Simulation, Stepper};

    fn run(inputs: &PageInputs) -> Report {
        let job = prepare(inputs).unwrap();
        Simulation::new(job).unwrap().run_to_end().unwrap()
    }

    #[test]
    fn catalog_fabrics_become_machines() {
        let machines = catalog_machines(&crate::model::workspace::catalog::presets());
        let ma = machines.iter().find(|m| m.label == "bwGRiD Mannheim — InfiniBand 20 Gbit/s").expect("listed");
        let get = |k: &str| ma.fields.iter().find(|(f, _)| *f == k).map(|(_, v)| v.as_str());
        assert_eq!(get("machine"), Some("fitted"));
        assert_eq!(get("latency_us"), Some("2"));
        // 1430.5 MB/s of 2^20 bytes is 12000 Mbit/s (1.5 GB/s), to the catalog's rounding.
        let mbit: f64 = get("bandwidth_mbit_s").and_then(|v| v.parse().ok()).expect("a number");
        assert!((mbit - 12000.0).abs() < 0.1, "{mbit}");
        assert_eq!(get("procs_per_node"), Some("8"));
        // The fields prepare into a job on that line.
        let mut inputs = default_inputs();
        for (k, v) in &ma.fields {
            inputs.insert(k.to_string(), v.clone());
        }
        inputs.insert("numprocs".into(), "8 16".into());
        assert!(prepare(&inputs).is_ok());
    }

    #[test]
    fn every_preset_prepares_and_runs_small() {
        for e in PRESETS {
            let mut inputs = preset_inputs(e);
            inputs.insert("numprocs".into(), "2 4".into());
            inputs.insert("replications".into(), "3".into());
            inputs.insert("params".into(), "iterations = 20\ntransforms = 2\ntasks = 20".into());
            let v = view(&run(&inputs));
            assert_eq!(v.rows.len(), 2, "{}", e.id);
            assert!(v.rows.iter().all(|r| r.mean_s > 0.0 && r.speedup > 0.0), "{}", e.id);
            assert_eq!(v.curves.len(), 4, "{}", e.id);
            assert!(v.timeline.is_some());
            assert!(v.deadlock.is_none());
            assert_eq!(v.rows[0].histogram.iter().map(|b| b.2).sum::<u32>(), 3);
        }
    }

    #[test]
    fn errors_name_fields() {
        let mut inputs = default_inputs();
        inputs.insert("numprocs".into(), "2 x".into());
        inputs.insert("mode".into(), "median".into());
        inputs.insert("replications".into(), "0".into());
        inputs.insert("params".into(), "xsize 3".into());
        let errs = prepare(&inputs).unwrap_err();
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["params", "numprocs", "mode", "replications"]);
        let mut inputs = default_inputs();
        inputs.insert("numprocs".into(), "3".into());
        let e = &prepare(&inputs).unwrap_err()[0];
        assert_eq!(e.field, "skeleton");
        assert!(e.message.contains("to = 3 is not a process"), "{e}");
        let mut inputs = default_inputs();
        inputs.insert("machine".into(), "histograms".into());
        inputs.insert("histograms".into(), "1024 2 1 10 20 5\n1024 2 1 15 30 5".into());
        let e = &prepare(&inputs).unwrap_err()[0];
        assert_eq!((e.field.as_str(), e.line), ("histograms", Some(2)));
    }

    #[test]
    fn a_long_chain_through_a_share_link_or_a_workspace_is_an_error_not_a_crash() {
        // 17,000 terms deflate to a link of a few hundred characters.
        let mut inputs = default_inputs();
        inputs.insert("skeleton".into(), format!("Serial time = 1{}", "+0".repeat(17_000)));
        let link = crate::model::workspace::share::encode(PAGE, &inputs);
        assert!(link.len() < 400, "{} characters", link.len());
        let shared = crate::model::workspace::share::decode(&link).expect("a valid link");
        let e = &prepare(&shared.inputs).unwrap_err()[0];
        assert_eq!((e.field.as_str(), e.line, e.column), ("skeleton", Some(1), Some(16 + 2 * 255)), "{e}");
        let mut ws = crate::model::workspace::Workspace::default();
        ws.pages.insert(PAGE.into(), inputs);
        let ws = crate::model::workspace::Workspace::from_json("imported file", &ws.to_json()).expect("a valid workspace");
        assert!(prepare(&ws.pages[PAGE]).is_err());
    }

    #[test]
    fn deadlock_shows_as_a_view() {
        let mut inputs = default_inputs();
        inputs.insert("skeleton".into(), "Message type = MPI_Recv, from = (procnum + 1) % numprocs".into());
        inputs.insert("numprocs".into(), "3".into());
        let v = view(&run(&inputs));
        let d = v.deadlock.unwrap();
        assert_eq!(d.blocked.len(), 3);
        assert!(v.summary.contains("Deadlock"));
    }

    #[test]
    fn histogram_counts_every_time() {
        let h = histogram(&[1.0, 2.0, 2.0, 3.0], 2);
        assert_eq!(h, vec![(1.0, 2.0, 1), (2.0, 3.0, 3)]);
        assert_eq!(histogram(&[5.0; 3], 4), vec![(5.0, 5.0, 3)]);
        assert!(histogram(&[], 4).is_empty());
    }

    mod robustness {
        use super::*;
        use proptest::prelude::*;

        fn numbers(v: &ResultView) -> Vec<f64> {
            let mut out = vec![v.sequential_s];
            for r in &v.rows {
                out.extend([r.mean_s, r.ci95_s[0], r.ci95_s[1], r.sd_s, r.speedup, r.messages_per_run]);
                out.extend(r.histogram.iter().flat_map(|b| [b.0, b.1]));
                out.extend(r.procs.iter().flatten());
            }
            out.extend(v.curves.iter().flat_map(|c| c.points.iter().flat_map(|p| [p.1, p.2])));
            out
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

            /// Whatever is typed into any field, preparing never panics, and a run (bounded
            /// here to a slice of steps) shows only finite numbers.
            #[test]
            fn any_text_in_any_field(
                key in prop::sample::select(vec!["skeleton", "params", "numprocs", "procs_per_node", "machine", "latency_us",
                                                 "bandwidth_mbit_s", "histograms", "mode", "contention", "replications", "seed"]),
                text in "[0-9eE.,;\\t \\n+-]{0,30}|[a-z]{0,8}|[0-9]{1,12}|(Serial time = |Loop iterations = |procnum|numprocs|[-0-9.e]{1,6}|[{}()%*/ ]){0,12}",
            ) {
                let mut inputs = default_inputs();
                inputs.insert("params".into(), "iterations = 5".into());
                inputs.insert("numprocs".into(), "2 4".into());
                inputs.insert("replications".into(), "2".into());
                inputs.insert("latency_us".into(), "50".into());
                inputs.insert("histograms".into(), "1024 2 1 100 200 3\n1024 2 1 200 300 1".into());
                inputs.insert(key.to_string(), text);
                if let Ok(job) = prepare(&inputs) {
                    if let Ok(sim) = Simulation::new(job) {
                        let mut sim = Stepper::new(sim);
                        if let Ok(Progress::Done) = sim.step(200_000) {
                            for x in numbers(&view(&sim.report())) {
                                prop_assert!(x.is_finite(), "{key}: {x}");
                            }
                        }
                    }
                }
            }
        }
    }
}

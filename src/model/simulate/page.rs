//! The simulation page: its input texts parsed once into a typed [`Job`] ([`parse`]), checked
//! ([`evaluate`]; both at once: [`prepare`]), and from a finished report to everything the
//! page shows ([`view`]). Running happens between the two:
//! `Simulation::new(job)?`, then its parts run in slices (`Stepper::step` until
//! `Progress::Done`), possibly in several Web Workers, and merged (`Simulation::merge`), so the
//! page can report progress and cancel (terminate the workers).
//!
//! Unlike the other pages, nothing is computed from part of the inputs (a job needs them all),
//! so the page's typed inputs are the job itself: [`parse`] gives either the job or every
//! field's error, and what the page shows before a run is [`prepare`]'s: a checked job to
//! run, or the errors.
//!
//! Inputs ([`Field`]; field names of the page, also the keys of the command line's JSON):
//! `skeleton` (text), `params` (`name = value` lines), `numprocs` (process counts, e.g.
//! "2 4 8"), `procs_per_node`, `machine` (`perseus`, `fitted` or `histograms`),
//! `latency_us` and `bandwidth_mbit_s` (the fitted line), `histograms` (pasted MPIBench
//! table), `mode` (`distribution`, `average`, `minimum`), `contention` (`moment`,
//! `configuration`, `none`), `replications`, `seed`, `compare` (`yes`: the Figure 6 series).
//! The validators of single values ([`Whole`], [`fitted_machine`], [`process_counts`],
//! [`parse_mode`], [`parse_contention`]) are shared with `scalewise simulate`, which builds
//! the job from its JSON.
//! Seed: `seeds/001_0f2c37bb58f8c7d1.txt`; model: [`crate::model::simulate`].

use crate::model::catalog::Catalog;
use crate::model::fmt_num;
use crate::model::input::list::{self, ListSpec};
use crate::model::input::table::parse_number;
use crate::model::simulate::engine::{Activity, Timeline};
use crate::model::simulate::examples::{Example, EXAMPLES};
use crate::model::simulate::job::{Estimate, Job, Limits, Report, Simulation};
use crate::model::simulate::lang;
use crate::model::simulate::machine::{perseus, Contention, Machine, Mode};
use crate::model::simulate::program::MAX_PROCS;
use crate::model::workspace::{text, FieldErrors, FieldSet, PageField, PageInputs, Preset};
use crate::model::InputError;

pub const PAGE: &str = crate::model::calculators::SIMULATE.key;
/// Most process counts in one job.
pub const MAX_COUNTS: usize = 64;
/// Bins of the run-time histograms.
pub const HISTOGRAM_BINS: usize = 20;

/// The page's input fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Skeleton,
    Params,
    Numprocs,
    ProcsPerNode,
    Machine,
    LatencyUs,
    BandwidthMbitS,
    Histograms,
    Mode,
    Contention,
    Replications,
    Seed,
    Compare,
}

impl PageField for Field {
    const ALL: &'static [Field] = &[
        Field::Skeleton,
        Field::Params,
        Field::Numprocs,
        Field::ProcsPerNode,
        Field::Machine,
        Field::LatencyUs,
        Field::BandwidthMbitS,
        Field::Histograms,
        Field::Mode,
        Field::Contention,
        Field::Replications,
        Field::Seed,
        Field::Compare,
    ];

    fn key(self) -> &'static str {
        match self {
            Field::Skeleton => "skeleton",
            Field::Params => "params",
            Field::Numprocs => "numprocs",
            Field::ProcsPerNode => "procs_per_node",
            Field::Machine => "machine",
            Field::LatencyUs => "latency_us",
            Field::BandwidthMbitS => "bandwidth_mbit_s",
            Field::Histograms => "histograms",
            Field::Mode => "mode",
            Field::Contention => "contention",
            Field::Replications => "replications",
            Field::Seed => "seed",
            Field::Compare => "compare",
        }
    }
}

/// A number as the user gave it: its value, when it is one, and how to show it in an error.
#[derive(Debug, Clone, Copy)]
pub struct Given<'a> {
    pub value: Option<f64>,
    pub shown: &'a str,
}

impl<'a> Given<'a> {
    /// A number typed as text.
    pub fn text(t: &'a str) -> Given<'a> {
        let t = t.trim();
        Given { value: parse_number(t), shown: t }
    }

    fn found(self) -> String {
        format!("\"{}\"", self.shown.chars().take(20).collect::<String>())
    }
}

/// The range of a whole-number field.
#[derive(Debug, Clone, Copy)]
pub struct Whole {
    pub lo: f64,
    pub hi: f64,
}

pub const PROCS_PER_NODE: Whole = Whole { lo: 1.0, hi: 64.0 };
pub const REPLICATIONS: Whole = Whole { lo: 1.0, hi: 10000.0 };
/// Seeds up to 2^53 − 1, which every JSON reader keeps exactly.
pub const SEED: Whole = Whole { lo: 0.0, hi: 9007199254740991.0 };

impl Whole {
    /// The number if it is whole and in the range; else an error naming `field`.
    pub fn check(self, field: &str, given: Given) -> Result<u64, InputError> {
        match given.value {
            Some(x) if x.fract() == 0.0 && (self.lo..=self.hi).contains(&x) => Ok(x as u64),
            _ => {
                let found = if given.shown.is_empty() { "nothing".into() } else { given.found() };
                Err(InputError::new(
                    field,
                    format!("expected a whole number from {} to {}, found {found}", self.lo, self.hi),
                ))
            }
        }
    }
}

/// Process counts: whole numbers separated by spaces, commas or semicolons, sorted.
pub fn parse_counts(text: &str) -> Result<Vec<u32>, InputError> {
    let spec = ListSpec { max_items: MAX_COUNTS, required: true };
    list::whole_numbers(Field::Numprocs.key(), text, spec, 1, MAX_PROCS).and_then(process_counts)
}

/// Process counts, each from 1 to [`MAX_PROCS`] (checked by the caller, which knows where
/// each came from), sorted: at least one, at most [`MAX_COUNTS`].
pub fn process_counts(mut counts: Vec<u32>) -> Result<Vec<u32>, InputError> {
    if counts.is_empty() || counts.len() > MAX_COUNTS {
        let n = counts.len();
        return Err(InputError::new(
            Field::Numprocs.key(),
            format!("expected 1 to {MAX_COUNTS} process counts, found {n}"),
        ));
    }
    counts.sort_unstable();
    Ok(counts)
}

/// The line latency + size / bandwidth, from µs and Mbit/s; errors name `fields` (latency,
/// bandwidth).
pub fn fitted_machine(latency_us: Given, bandwidth_mbit_s: Given, fields: [&str; 2]) -> Result<Machine, FieldErrors> {
    let mut errors = Vec::new();
    let latency = latency_us.value.filter(|x| (0.0..=1e7).contains(x));
    if latency.is_none() {
        errors.push(InputError::new(fields[0], "expected a latency from 0 to 1e7 µs"));
    }
    let bandwidth = bandwidth_mbit_s.value.filter(|x| *x > 0.0 && *x <= 1e9);
    if bandwidth.is_none() {
        errors.push(InputError::new(
            fields[1],
            format!("expected a number above 0 and at most 1000000000, found {}", bandwidth_mbit_s.found()),
        ));
    }
    match (latency, bandwidth) {
        (Some(l), Some(w)) => {
            Machine::fitted(l * 1e-6, w * 1e6 / 8.0).map_err(|m| vec![InputError::new(fields[1], m.to_string())])
        }
        _ => Err(errors),
    }
}

/// The machine the inputs choose.
pub fn parse_machine(texts: &PageInputs) -> Result<Machine, FieldErrors> {
    match text(texts, Field::Machine).trim().to_ascii_lowercase().as_str() {
        "perseus" | "" => Ok(perseus()),
        "fitted" => fitted_machine(
            Given::text(text(texts, Field::LatencyUs)),
            Given::text(text(texts, Field::BandwidthMbitS)),
            [Field::LatencyUs.key(), Field::BandwidthMbitS.key()],
        ),
        "histograms" => {
            Machine::from_histograms(Field::Histograms.key(), "pasted histograms", text(texts, Field::Histograms))
                .map_err(|e| vec![e])
        }
        other => Err(vec![InputError::new(
            Field::Machine.key(),
            format!(
                "unknown machine \"{}\"; expected perseus, fitted or histograms",
                other.chars().take(20).collect::<String>()
            ),
        )]),
    }
}

/// How message times are drawn, named by `field` in errors.
pub fn parse_mode(field: &str, t: &str) -> Result<Mode, InputError> {
    Mode::parse(t).ok_or_else(|| InputError::new(field, "expected distribution, average or minimum"))
}

/// Which contention picks a message's histogram (blank: of the moment).
pub fn parse_contention(field: &str, t: &str) -> Result<Contention, InputError> {
    match t.trim() {
        "" => Ok(Contention::Moment),
        t => Contention::parse(t).ok_or_else(|| InputError::new(field, "expected moment, configuration or none")),
    }
}

/// Parses every field once: the job, or every field's error (each naming its field, and line
/// and column for the skeleton, parameters and histograms).
pub fn parse(texts: &PageInputs) -> Result<Job, FieldErrors> {
    let mut errors = Vec::new();
    let skeleton = lang::parse(text(texts, Field::Skeleton)).map_err(|e| errors.push(e)).ok();
    let params = lang::parse_params(Field::Params.key(), text(texts, Field::Params)).map_err(|e| errors.push(e)).ok();
    let numprocs = parse_counts(text(texts, Field::Numprocs)).map_err(|e| errors.push(e)).ok();
    let whole = |w: Whole, f: Field| w.check(f.key(), Given::text(text(texts, f)));
    let procs_per_node = whole(PROCS_PER_NODE, Field::ProcsPerNode).map_err(|e| errors.push(e)).ok();
    let machine = parse_machine(texts).map_err(|e| errors.extend(e)).ok();
    let mode = parse_mode(Field::Mode.key(), text(texts, Field::Mode)).map_err(|e| errors.push(e)).ok();
    let contention =
        parse_contention(Field::Contention.key(), text(texts, Field::Contention)).map_err(|e| errors.push(e)).ok();
    let replications = whole(REPLICATIONS, Field::Replications).map_err(|e| errors.push(e)).ok();
    let seed = whole(SEED, Field::Seed).map_err(|e| errors.push(e)).ok();
    let compare =
        matches!(text(texts, Field::Compare).trim().to_ascii_lowercase().as_str(), "yes" | "true" | "1" | "on");
    match (skeleton, params, numprocs, procs_per_node, machine, mode, contention, replications, seed) {
        (
            Some(skeleton),
            Some(params),
            Some(numprocs),
            Some(procs_per_node),
            Some(machine),
            Some(mode),
            Some(contention),
            Some(replications),
            Some(seed),
        ) if errors.is_empty() => {
            let (procs_per_node, replications) = (procs_per_node as u32, replications as u32);
            let (sequential_s, limits) = (None, Limits::default());
            Ok(Job {
                skeleton,
                params,
                numprocs,
                procs_per_node,
                machine,
                mode,
                contention,
                replications,
                seed,
                compare,
                sequential_s,
                limits,
            })
        }
        _ => Err(errors),
    }
}

/// The job checked as far as a keystroke can afford: most errors of the skeleton against the
/// process counts show before a run; the run checks the rest. (The catalog is not read: a
/// machine from it arrives as the fitted line's fields.)
pub fn evaluate(job: Job, catalog: &Catalog) -> Result<Job, FieldErrors> {
    checked(job, catalog).map(|(job, _)| job)
}

/// [`evaluate`], with the job's work as far as the check could count it.
pub fn checked(job: Job, _catalog: &Catalog) -> Result<(Job, Estimate), FieldErrors> {
    Simulation::check(&job).map(|e| (job, e)).map_err(|e| vec![e])
}

/// What the page shows before a run, from its texts: the job Run starts and its work, or
/// every error.
pub fn prepare(texts: &PageInputs, catalog: &Catalog) -> Result<(Job, Estimate), FieldErrors> {
    checked(parse(texts)?, catalog)
}

/// A count of steps: whole below 100,000, else three digits and a power of ten ("5.86e7", "2e9").
fn steps_text(x: f64) -> String {
    if x < 1e5 {
        return fmt_num(x.round(), 6);
    }
    let s = format!("{x:.2e}");
    match s.split_once('e') {
        Some((m, e)) => format!("{}e{e}", m.trim_end_matches('0').trim_end_matches('.')),
        None => s,
    }
}

/// The line beside Run: the job's work against its limit, and how far that count is sure.
pub fn work_text(e: &Estimate) -> String {
    let mut s =
        format!("Work: about {} steps, of the limit of {} a job may take.", steps_text(e.steps), steps_text(e.limit));
    if e.counts < e.of_counts {
        s.push_str(&format!(
            " Counted on the smallest {} of {} process counts; the run counts the rest as it goes.",
            e.counts, e.of_counts
        ));
    }
    if e.dynamic {
        s.push_str(
            " Some loop counts are known only as the run goes, so this is a lower bound: \
             the run counts them as they run and stops, saying how far it got, if the job passes its limit.",
        );
    }
    s
}

/// The page's inputs for an example, on the Perseus-like machine.
fn example_inputs(e: &Example) -> PageInputs {
    let pairs = [
        (Field::Skeleton, e.skeleton),
        (Field::Params, e.params),
        (Field::Numprocs, e.numprocs),
        (Field::ProcsPerNode, "1"),
        (Field::Machine, "perseus"),
        (Field::LatencyUs, "70"),
        (Field::BandwidthMbitS, "85"),
        (Field::Histograms, ""),
        (Field::Mode, "distribution"),
        (Field::Contention, "moment"),
        (Field::Replications, "20"),
        (Field::Seed, "1"),
        (Field::Compare, "yes"),
    ];
    pairs.iter().map(|(f, v)| (f.key().to_string(), v.to_string())).collect()
}

/// The presets: the shipped examples, on the Perseus-like machine.
pub fn presets() -> Vec<Preset> {
    EXAMPLES
        .iter()
        .map(|e| Preset { key: e.id, name: e.name, description: e.description, inputs: example_inputs(e) })
        .collect()
}

/// The Jacobi example.
pub fn default_inputs() -> PageInputs {
    example_inputs(&EXAMPLES[0])
}

/// Every cluster's measured message histograms (when it has some) as a histograms machine,
/// and every fabric of every cluster in the catalog as a machine: the fabric (measured, or fitted on
/// the communication page and saved there) as the fitted line, with the cluster's cores per
/// node as processes per node (MB = 2^20 bytes, so Mbit/s = MB/s · 8 · 1.048576).
pub fn catalog_machines(catalog: &Catalog) -> Vec<FieldSet> {
    let mut out = Vec::new();
    for c in &catalog.clusters {
        if !c.message_histograms.is_empty() {
            out.push(FieldSet {
                label: format!("{} — measured message times", c.name),
                fields: vec![
                    (Field::Machine.key(), "histograms".into()),
                    (Field::Histograms.key(), c.message_histograms.clone()),
                    (Field::ProcsPerNode.key(), c.cores_per_node.clamp(1, 64).to_string()),
                ],
            });
        }
        for f in &c.fabrics {
            if !(f.latency_us.is_finite()
                && f.latency_us >= 0.0
                && f.bandwidth_mb_s.is_finite()
                && f.bandwidth_mb_s > 0.0)
            {
                continue;
            }
            out.push(FieldSet {
                label: format!("{} — {}", c.name, f.name),
                fields: vec![
                    (Field::Machine.key(), "fitted".into()),
                    (Field::LatencyUs.key(), crate::model::fmt_num(f.latency_us, 6)),
                    (Field::BandwidthMbitS.key(), crate::model::fmt_num(f.bandwidth_mb_s * 8.0 * 1.048576, 8)),
                    (Field::ProcsPerNode.key(), c.cores_per_node.clamp(1, 64).to_string()),
                ],
            });
        }
    }
    out
}

/// One row of the results table.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RowView {
    pub numprocs: u32,
    pub nodes: u32,
    pub mean_s: f64,
    pub ci95_s: [f64; 2],
    /// The middle 95 % of the replications' run times: their 2.5th and 97.5th percentiles, s.
    pub interval95_s: [f64; 2],
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

/// The `q` quantile (0 to 1) of `times`, interpolated linearly between order statistics
/// (Hyndman and Fan's definition 7, R's and NumPy's default); 0 for no times.
pub fn quantile(times: &[f64], q: f64) -> f64 {
    let mut sorted: Vec<f64> = times.iter().copied().filter(|t| t.is_finite()).collect();
    if sorted.is_empty() {
        return 0.0;
    }
    sorted.sort_by(f64::total_cmp);
    let h = (sorted.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    let (a, b) = (sorted[lo], sorted[hi.min(sorted.len() - 1)]); // ok: lo ≤ hi ≤ len − 1
    a + (b - a) * (h - lo as f64)
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
            interval95_s: [quantile(&c.run_times_s, 0.025), quantile(&c.run_times_s, 0.975)],
            sd_s: finite(c.sd_s),
            speedup: finite(c.speedup),
            histogram: histogram(&c.run_times_s, HISTOGRAM_BINS),
            procs: c.procs.iter().map(|p| [finite(p.computing_s), finite(p.sending_s), finite(p.waiting_s)]).collect(),
            messages_per_run: finite(c.messages_per_run),
            unreceived_per_run: finite(c.unreceived_per_run),
        })
        .collect();
    let curve = |label: &str, s: &crate::model::simulate::job::SeriesResult| CurveView {
        label: label.to_string(),
        points: s.results.iter().map(|c| (c.numprocs, finite(c.speedup), finite(c.mean_s))).collect(),
    };
    let mut curves = vec![curve(report.main.series.label, &report.main)];
    curves.extend(
        report
            .comparison
            .iter()
            .filter(|s| s.series.label != report.main.series.label)
            .map(|s| curve(s.series.label, s)),
    );
    let timeline = report.main.results.iter().find_map(|c| c.timeline.clone().map(|t| (c.numprocs, t)));
    let deadlock = report.deadlock.as_ref().map(|d| DeadlockView {
        numprocs: d.numprocs,
        time_s: finite(d.time_s),
        blocked: d.blocked.iter().map(|b| (b.proc, b.waiting_for.clone(), b.line)).collect(),
    });
    let fastest = rows.iter().min_by(|a, b| a.mean_s.total_cmp(&b.mean_s));
    let summary = match (&deadlock, rows.iter().max_by(|a, b| a.speedup.total_cmp(&b.speedup))) {
        (Some(d), _) => format!("Deadlock with {} processes: {} of them wait for messages that never come.", d.numprocs, d.blocked.len()),
        // Nothing computed: no time to compare with, so no speed-up (it was shown as 0).
        (None, Some(_)) if report.sequential_s <= 0.0 => match fastest {
            Some(f) => format!(
                "The skeleton computes nothing, so there is no speed-up to show; the fastest is {} processes ({} s a run).",
                f.numprocs,
                crate::model::fmt_num(f.mean_s, 4)
            ),
            None => "No results.".to_string(),
        },
        (None, Some(best)) => format!(
            "Best speed-up {} at {} processes ({} s ± {} s a run).",
            crate::model::fmt_num(best.speedup, 3),
            best.numprocs,
            crate::model::fmt_num(best.mean_s, 4),
            crate::model::fmt_num((best.ci95_s[1] - best.mean_s).max(0.0), 2)
        ),
        (None, None) => "No results.".to_string(),
    };
    ResultView {
        rows,
        curves,
        timeline,
        deadlock,
        sequential_s: finite(report.sequential_s),
        messages: report.messages,
        summary,
    }
}

/// Activity names for a timeline legend.
pub fn activity_name(a: Activity) -> &'static str {
    match a {
        Activity::Computing => "computing",
        Activity::Sending => "sending",
        Activity::Waiting => "waiting",
    }
}

crate::model::calculators::usual_contract!(
    /// The simulation page's row in the table of calculators. Its view is what the page shows
    /// as the user types (the job checked, its work); a run is [`Simulation`]'s.
    SimulatePage, Result<Job, FieldErrors>, Result<(Job, Estimate), FieldErrors>, prepare, {
    /// The job run to its end: the results the page shows after Run.
    fn results(texts: &PageInputs, catalog: &Catalog) -> String {
        match prepare(texts, catalog) {
            Err(e) => format!("{e:#?}"),
            Ok((job, _)) => match Simulation::new(job).and_then(|s| s.run_to_end()) {
                Ok(r) => format!("{:#?}", view(&r)),
                Err(e) => format!("{e:#?}"),
            },
        }
    }
    /// Each example program, cut to 3 replications of 10 iterations on 2 and 4 processes.
    fn examples() -> Vec<(String, PageInputs)> {
        presets()
            .into_iter()
            .map(|e| {
                let mut inputs = e.inputs;
                inputs.insert(Field::Replications.key().into(), "3".into());
                inputs.insert(Field::Numprocs.key().into(), "2 4".into());
                let params = format!("{}\niterations = 10", text(&inputs, Field::Params));
                inputs.insert(Field::Params.key().into(), params);
                (e.key.to_string(), inputs)
            })
            .collect()
    }
});

#[cfg(test)]
mod tests;

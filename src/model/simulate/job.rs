//! A simulation job and its results (seed 001, section 5; spec "The virtual machine"): the
//! validated [`Job`] and its [`Limits`]; a [`Simulation`], the job checked and compiled, split
//! into parts fixed by the job (a process count and a block of at most [`PARTS`] of its
//! replications each); each part runs on its
//! own (whole, [`Simulation::run_part`], or in slices, [`Stepper`]) through the engine
//! ([`super::engine::Run`]), and the parts' sums are merged in part order into a [`Report`]:
//! per process count the mean run time with its 95 % confidence interval (Student's t), the
//! speed-up, per-process times and message counts, and the seed's Figure 6 series. The report
//! is the same to the last bit whatever ran the parts, and in whatever order.

use super::engine::{Deadlock, ProcTimes, Run, RunError, RunOutcome, Timeline, TIMELINE_MAX_PROCS};
use super::lang::Skeleton;
use super::machine::{Contention, Machine, Mode, RunMachine};
use super::program::{self, compile, compile_within, parameters, Programs, MAX_PROGRAM_OPS};
use crate::model::InputError;

/// Everything a simulation needs, validated.
#[derive(Debug, Clone)]
pub struct Job {
    pub skeleton: Skeleton,
    /// Parameters given outside the skeleton (they override its `Param` defaults).
    pub params: Vec<(String, super::lang::Expr)>,
    pub numprocs: Vec<u32>,
    pub procs_per_node: u32,
    pub machine: Machine,
    pub mode: Mode,
    pub contention: Contention,
    pub replications: u32,
    pub seed: u64,
    /// Also run the seed's Figure 6 series (distribution, averages, minimum).
    pub compare: bool,
    /// Sequential time for the speed-up, seconds; `None`: the total computing time of all
    /// processes at the smallest process count (see [`Report`]).
    pub sequential_s: Option<f64>,
    pub limits: Limits,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Steps one replication may take: ops at their costs ([`program::Costs`]).
    pub max_steps_per_run: u64,
    /// Steps the whole job may take: checked before it starts where loop counts are known,
    /// and counted as it runs (loop counts drawn at run time, `floor(uniform(…))`), each part
    /// against its share (its replications' share of its count's ops, its count's share of
    /// the job's as estimated before the start); a part that passes its share stops with an
    /// error saying how far it got. 2e9 steps take at most about 20 s of one core, whatever the
    /// job's shape ([`program::Costs`]).
    pub max_steps_per_job: f64,
    /// Most ops a simulation keeps compiled for all its process counts together (about 32
    /// bytes each). The programs of counts past it are compiled again by each part when it
    /// reaches them and dropped when it moves on, so memory stays flat however many counts
    /// a job has.
    pub kept_ops: usize,
    /// Bytes one replication may hold in messages and receives waiting to be matched, as
    /// told before it starts ([`Programs::peak_message_bytes`]: an all-to-all of p processes
    /// holds up to about 56 p² at its peak). Replications of different counts run side by side, one
    /// a core (natively) or a worker (the page).
    pub max_run_bytes: f64,
}

/// [`Limits::max_run_bytes`] unless the command is given another: 512 MB, an all-to-all of up to
/// 3,023 processes.
pub const MAX_RUN_BYTES: f64 = 512e6;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps_per_run: 100_000_000,
            max_steps_per_job: 2e9,
            kept_ops: MAX_PROGRAM_OPS,
            max_run_bytes: MAX_RUN_BYTES,
        }
    }
}

/// A job's work as the page can tell before it runs ([`Simulation::check`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Steps (ops at their costs, [`program::Costs`]) of every series, counted process count
    /// and replication.
    pub steps: f64,
    /// The job's limit ([`Limits::max_steps_per_job`]).
    pub limit: f64,
    /// Process counts whose programs were compiled to count them (the smallest first) ...
    pub counts: usize,
    /// ... of this many.
    pub of_counts: usize,
    /// Some loop count is known only as the run goes: `steps` is a lower bound, and the run
    /// counts those loops against the limit as they run.
    pub dynamic: bool,
}

/// One line of the comparison: how message times were drawn.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Series {
    pub label: &'static str,
    pub mode: Mode,
    pub contention: Contention,
}

/// The seed's Figure 6: full distributions against averages (of n × p and of ping-pong)
/// against ping-pong minimums.
pub const FIGURE6: [Series; 4] = [
    Series { label: "distribution", mode: Mode::Distribution, contention: Contention::Moment },
    Series { label: "average n × p", mode: Mode::Average, contention: Contention::Configuration },
    Series { label: "average 2 × 1", mode: Mode::Average, contention: Contention::None },
    Series { label: "minimum 2 × 1", mode: Mode::Minimum, contention: Contention::None },
];

/// Results for one process count of one series.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CountResult {
    pub numprocs: u32,
    pub nodes: u32,
    pub mean_s: f64,
    /// 95 % confidence interval of the mean (Student's t); zero width for one replication.
    pub ci95_s: [f64; 2],
    pub sd_s: f64,
    pub min_s: f64,
    pub max_s: f64,
    pub speedup: f64,
    /// Run time of every replication, for a histogram.
    pub run_times_s: Vec<f64>,
    /// Per process, averaged over replications.
    pub procs: Vec<ProcTimes>,
    pub messages_per_run: f64,
    /// Messages sent but never received, per run.
    pub unreceived_per_run: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Timeline>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SeriesResult {
    pub series: Series,
    pub results: Vec<CountResult>,
}

/// Everything a job produced.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Report {
    /// The job's own mode and contention.
    pub main: SeriesResult,
    /// The Figure 6 series, when asked for (the main series appears among them as well).
    pub comparison: Vec<SeriesResult>,
    /// The first deadlock met; the job stops there.
    pub deadlock: Option<Deadlock>,
    /// The time speed-ups are relative to, seconds.
    pub sequential_s: f64,
    pub messages: u64,
    /// Ops run in all (the answer's steps).
    pub steps: u64,
    /// Steps charged against the limits in all: the ops and what [`program::Costs`] adds.
    pub charged: u64,
}

/// Progress of a job run in slices (for a Web Worker's progress bar and cancel button).
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    Running { fraction: f64 },
    Done,
}

/// Partial sums for one process count of one series, over some replications.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
struct Acc {
    times: Vec<f64>,
    procs: Vec<ProcTimes>,
    messages: f64,
    unreceived: f64,
    timeline: Option<Timeline>,
    /// Ops, steps charged and messages of every run, a deadlocked one too (the report's totals).
    steps: u64,
    charged: u64,
    sent: u64,
}

impl Acc {
    fn add_run(
        &mut self,
        time_s: f64,
        procs: &[ProcTimes],
        messages: u64,
        unreceived: u64,
        timeline: Option<Timeline>,
    ) {
        self.times.push(time_s);
        self.add_procs(procs);
        self.messages += messages as f64;
        self.unreceived += unreceived as f64;
        if timeline.is_some() {
            self.timeline = timeline;
        }
    }

    fn add_procs(&mut self, procs: &[ProcTimes]) {
        if self.procs.len() < procs.len() {
            self.procs.resize(procs.len(), ProcTimes::default());
        }
        for (sum, p) in self.procs.iter_mut().zip(procs) {
            sum.computing_s += p.computing_s;
            sum.sending_s += p.sending_s;
            sum.waiting_s += p.waiting_s;
            sum.end_s += p.end_s;
        }
    }

    /// Adds a later part's sums (its replications follow this one's).
    fn add(&mut self, other: &Acc) {
        self.times.extend_from_slice(&other.times);
        self.add_procs(&other.procs);
        self.messages += other.messages;
        self.unreceived += other.unreceived;
        if self.timeline.is_none() {
            self.timeline.clone_from(&other.timeline);
        }
    }
}

/// Most parts a job's replications are split into, per process count.
pub const PARTS: usize = 8;

/// What one part of a job produced: its sums per series for its process count. Parts are
/// fixed by the job (not by the threads or workers that run them): one process count and a
/// run of its replications each (part j: count j / R, replication block j % R, of R ≤
/// [`PARTS`] blocks), merged in part order, so a report is the same to the last bit however
/// many run at once — a count's sums are added over the same replication blocks in the same
/// order as when one part held every count.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Partial {
    pub part: usize,
    /// `[series][count]` (only the part's count is filled).
    acc: Vec<Vec<Acc>>,
    /// The part's first deadlock, with its series and count (the part stops there).
    deadlock: Option<(usize, usize, Deadlock)>,
}

/// Most ops [`Simulation::check`] compiles: it runs on every keystroke, and this much takes
/// a few milliseconds.
pub const CHECK_OPS: usize = 50_000;

/// A job checked and compiled, ready to run: its replications are split into
/// [`Simulation::parts`] parts of consecutive replications, each run on its own
/// ([`Simulation::run_part`], [`Stepper`]) and merged ([`Simulation::merge`]).
pub struct Simulation {
    job: Job,
    counts: Vec<Count>,
    series: Vec<Series>,
}

/// One process count of a job: its parameters and, within [`Limits::kept_ops`], its programs.
struct Count {
    params: Vec<(String, f64)>,
    programs: Option<Programs>,
    /// Ops of one run ([`Programs::estimated_steps`]): its parts' share of the job's limit.
    steps: f64,
}

/// One part being run in slices.
struct Part {
    partial: Partial,
    /// The process count's index.
    c: usize,
    /// Steps charged ([`program::Costs`]) and messages of the part's finished runs.
    steps: u64,
    sent: u64,
    /// Its share of the job's steps.
    share: f64,
    /// First replication and number of replications.
    r0: usize,
    reps: usize,
    /// Index of the current (series, count, replication) in this part's plan.
    next: usize,
    current: Option<Run>,
    /// The programs of a count the simulation does not keep: (count index, programs).
    compiled: Option<(usize, Programs)>,
}

impl Simulation {
    /// Checks the job (compiles the skeleton for every process count) before anything runs.
    /// Programs are kept up to [`Limits::kept_ops`] ops in all; larger counts are only checked
    /// here ([`program::check_only`], which keeps nothing) and compiled as the run reaches them.
    pub fn new(job: Job) -> Result<Simulation, InputError> {
        Self::check_counts(&job)?;
        let mut counts = Vec::with_capacity(job.numprocs.len());
        let (mut steps, mut kept) = (0.0, 0usize);
        for &n in &job.numprocs {
            let params = parameters(&job.skeleton, &job.params, n)?;
            // Kept when it fits what is left of the budget; a count that does not is given up
            // as soon as it passes it, and checked without keeping.
            let room = job.limits.kept_ops.saturating_sub(kept).min(MAX_PROGRAM_OPS);
            let programs = compile_within(&job.skeleton, &params, n, room)?;
            let checked;
            let p = match &programs {
                Some(p) => {
                    kept += p.ops();
                    p
                }
                None => {
                    checked = program::check_only(&job.skeleton, &params, n)?;
                    &checked
                }
            };
            Self::check_memory(&job, p)?;
            let count_steps = p.estimated_steps;
            steps += count_steps;
            counts.push(Count { params, programs, steps: count_steps });
        }
        let series = Self::series_of(&job);
        Self::check_steps(&job, steps * series.len() as f64 * job.replications as f64)?;
        Ok(Simulation { job, counts, series })
    }

    /// What can be checked of a job within [`CHECK_OPS`] compiled ops, for a page that checks
    /// as the user types: everything but the programs of the largest process counts, which
    /// [`Simulation::new`] checks when the run starts. Keeps nothing.
    /// Answers the job's work as far as those ops can tell, for the page to show before a run.
    pub fn check(job: &Job) -> Result<Estimate, InputError> {
        let estimate = Self::estimate(job)?;
        Self::check_steps(job, estimate.steps)?;
        Ok(estimate)
    }

    fn estimate(job: &Job) -> Result<Estimate, InputError> {
        Self::check_counts(job)?;
        let mut params = Vec::with_capacity(job.numprocs.len());
        for &n in &job.numprocs {
            params.push(parameters(&job.skeleton, &job.params, n)?);
        }
        let (mut steps, mut ops, mut counted, mut dynamic) = (0.0, 0usize, 0usize, false);
        // Counts are sorted, so the smallest are checked first.
        for (&n, params) in job.numprocs.iter().zip(&params) {
            let Some(p) = compile_within(&job.skeleton, params, n, CHECK_OPS - ops)? else { break };
            Self::check_memory(job, &p)?;
            steps += p.estimated_steps;
            ops += p.ops();
            counted += 1;
            dynamic |= p.dynamic;
        }
        let per_replication = steps * Self::series_of(job).len() as f64;
        Ok(Estimate {
            steps: per_replication * job.replications as f64,
            limit: job.limits.max_steps_per_job,
            counts: counted,
            of_counts: job.numprocs.len(),
            dynamic,
        })
    }

    fn check_counts(job: &Job) -> Result<(), InputError> {
        if job.numprocs.is_empty() {
            return Err(InputError::new("numprocs", "no process counts given"));
        }
        if !(1..=10_000).contains(&job.replications) {
            return Err(InputError::new("replications", "expected 1 to 10000 replications"));
        }
        Ok(())
    }

    fn series_of(job: &Job) -> Vec<Series> {
        let mut series = vec![Series { label: "main", mode: job.mode, contention: job.contention }];
        if job.compare {
            series.extend(FIGURE6.iter().filter(|s| !(s.mode == job.mode && s.contention == job.contention)));
        }
        series
    }

    /// A run of these programs holds no more than [`Limits::max_run_bytes`] at once.
    fn check_memory(job: &Job, programs: &Programs) -> Result<(), InputError> {
        let bytes = programs.peak_message_bytes();
        if bytes > job.limits.max_run_bytes {
            let n = programs.numprocs;
            return Err(InputError::new(
                "numprocs",
                format!(
                    "an all-to-all of {n} processes holds about {} MB of messages at once ({} bytes × {n}²), more than the {} MB a run may hold; fewer processes (the command's max_run_mb raises the limit)",
                    crate::model::fmt_num(bytes / 1e6, 3),
                    program::ALLTOALL_PAIR_BYTES,
                    crate::model::fmt_num(job.limits.max_run_bytes / 1e6, 3)
                ),
            ));
        }
        Ok(())
    }

    /// `total`: ops of every series, count and replication.
    fn check_steps(job: &Job, total: f64) -> Result<(), InputError> {
        if total > job.limits.max_steps_per_job {
            return Err(InputError::new(
                super::lang::FIELD,
                format!(
                    "this job would take about {} steps (limit {}); lower the loop counts, replications or process counts",
                    crate::model::fmt_num(total, 3),
                    crate::model::fmt_num(job.limits.max_steps_per_job, 3)
                ),
            ));
        }
        Ok(())
    }

    /// Ops of the programs kept compiled (for tests of the memory bound).
    #[cfg(test)]
    pub(crate) fn kept_ops(&self) -> usize {
        self.counts.iter().filter_map(|c| c.programs.as_ref()).map(Programs::ops).sum()
    }

    /// Ops of every count's programs, kept or not (compiled again here).
    #[cfg(test)]
    pub(crate) fn counts_ops(&self) -> usize {
        self.counts
            .iter()
            .zip(&self.job.numprocs)
            .map(|(c, &n)| compile(&self.job.skeleton, &c.params, n).map_or(0, |p| p.ops()))
            .sum()
    }

    pub fn job(&self) -> &Job {
        &self.job
    }

    /// How many parts the job is split into: every process count's replications in at most
    /// [`PARTS`] blocks.
    pub fn parts(&self) -> usize {
        self.counts.len() * self.blocks()
    }

    /// Blocks of replications per process count.
    fn blocks(&self) -> usize {
        (self.job.replications as usize).clamp(1, PARTS)
    }

    /// The process count of part `j` (its index in the job's list).
    fn part_count(&self, j: usize) -> usize {
        j / self.blocks()
    }

    /// The work of part `j`, as far as it is known before the run: its replications times its
    /// count's ops (at least 1, for a count whose ops are drawn at run time).
    fn part_load(&self, j: usize) -> u64 {
        let steps = self.counts.get(self.part_count(j)).map_or(1.0, |c| c.steps.clamp(1.0, 1e15));
        self.part_range(j).1 as u64 * steps as u64
    }

    /// The parts in the order threads take them: more work first, so that the threads
    /// finish close together (20 replications of one count in parts of 2 and 3 on two
    /// threads: 10 and 10 replications each, against 11 and 9 in part order; the largest
    /// process counts of a list first). The report does not depend on it.
    pub fn longest_first(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.parts()).collect();
        order.sort_by_key(|&j| std::cmp::Reverse(self.part_load(j)));
        order
    }

    /// The parts each of `k` workers runs, for workers that cannot take parts as they free up
    /// (the page's Web Workers are handed theirs at the start): in [`Self::longest_first`]
    /// order, each part goes to the worker with the least work so far (ties: the lower
    /// worker). 20 replications on 3 workers: 6, 7 and 7, where runs of consecutive parts
    /// give 5, 7 and 8. Every worker computes the same shares from the same job.
    pub fn shares(&self, k: usize) -> Vec<Vec<usize>> {
        let k = k.max(1);
        let mut shares = vec![Vec::new(); k];
        let mut load = vec![0u64; k];
        for j in self.longest_first() {
            // The first of equal minima: the lower worker.
            let w = load.iter().enumerate().min_by_key(|&(_, l)| *l).map_or(0, |(w, _)| w);
            if let (Some(share), Some(l)) = (shares.get_mut(w), load.get_mut(w)) {
                share.push(j);
                *l = l.saturating_add(self.part_load(j));
            }
        }
        shares
    }

    /// The replications of part `j`: first and count (balanced: counts differ by at most one).
    pub(crate) fn part_range(&self, j: usize) -> (usize, usize) {
        let (reps, blocks) = (self.job.replications as usize, self.blocks());
        let b = j % blocks;
        let start = |b: usize| b.min(blocks) * reps / blocks;
        (start(b), start(b + 1) - start(b))
    }

    fn start_part(&self, j: usize) -> Part {
        let (r0, reps) = self.part_range(j);
        let c = self.part_count(j);
        let acc = self.series.iter().map(|_| self.job.numprocs.iter().map(|_| Acc::default()).collect()).collect();
        // The part's share of the job's ops: its replications' share of its count's, and its
        // count's share of the job's as estimated before the start (in equal shares when
        // nothing is known).
        let weight = |c: &Count| c.steps.max(1.0);
        let all: f64 = self.counts.iter().map(weight).sum();
        let count_share = self.counts.get(c).map_or(0.0, |k| weight(k) / all.max(1.0));
        let share = self.job.limits.max_steps_per_job * count_share * reps as f64 / self.job.replications.max(1) as f64;
        Part {
            partial: Partial { part: j, acc, deadlock: None },
            c,
            steps: 0,
            sent: 0,
            share,
            r0,
            reps,
            next: 0,
            current: None,
            compiled: None,
        }
    }

    /// Runs part `j` whole.
    pub fn run_part(&self, j: usize) -> Result<Partial, RunError> {
        let mut part = self.start_part(j);
        while !self.step_part(&mut part, u64::MAX)? {}
        Ok(part.partial)
    }

    /// Runs the whole job on this thread, its parts one after another. (Natively,
    /// `crate::parallel` runs the parts on several threads; the page runs them in Web Workers.
    /// The report is the same to the bit.)
    pub fn run_to_end(&self) -> Result<Report, RunError> {
        let partials = (0..self.parts()).map(|j| self.run_part(j)).collect::<Result<Vec<_>, _>>()?;
        Ok(self.merge(partials))
    }

    /// Runs `part` by at most about `max_steps` ops; returns whether the part has finished.
    fn step_part(&self, part: &mut Part, max_steps: u64) -> Result<bool, RunError> {
        let mut budget = max_steps.max(1);
        let plan = self.part_plan(part);
        let (c, share) = (part.c, part.share);
        let (Some(count), Some(&n)) = (self.counts.get(c), self.job.numprocs.get(c)) else { return Ok(true) };
        while part.partial.deadlock.is_none() && part.next < plan {
            let (s, r) = (part.next / part.reps, part.r0 + part.next % part.reps);
            let programs = match (&count.programs, &mut part.compiled) {
                (Some(p), _) => p,
                (None, Some((k, p))) if *k == c => p,
                (None, compiled) => {
                    *compiled = None;
                    let p = compile(&self.job.skeleton, &count.params, n)?;
                    &compiled.insert((c, p)).1
                }
            };
            let run = part.current.get_or_insert_with(|| self.start_run(programs, s, r));
            let before = run.steps();
            // Paused one op past the share at the latest, where the check below stops it.
            let left = (share - (part.steps + before) as f64).max(0.0);
            let outcome = run.advance(programs, &self.job.machine, budget.min((left as u64).saturating_add(1)))?;
            let used = run.steps() - before;
            budget = budget.saturating_sub(used);
            let spent = part.steps + run.steps();
            if spent as f64 > share {
                return Err(self.over_budget(part, spent));
            }
            let Some(outcome) = outcome else { return Ok(false) };
            let (steps, ops, sent) = (run.steps(), run.ops(), run.messages());
            part.steps += steps;
            part.current = None;
            part.next += 1;
            let Some(a) = part.partial.acc.get_mut(s).and_then(|row| row.get_mut(c)) else { return Ok(true) };
            a.steps += ops;
            a.charged += steps;
            a.sent += sent;
            part.sent += sent;
            match outcome {
                RunOutcome::Deadlock(d) => part.partial.deadlock = Some((s, c, d)),
                RunOutcome::Finished { time_s, procs, messages, unreceived, timeline } => {
                    a.add_run(time_s, &procs, messages, unreceived, timeline)
                }
            }
            if budget == 0 {
                return Ok(part.partial.deadlock.is_some() || part.next >= plan);
            }
        }
        Ok(true)
    }

    /// The error of a part that passed its share of the job's ops after `spent` of them.
    fn over_budget(&self, part: &Part, spent: u64) -> RunError {
        let plan = self.part_plan(part);
        InputError::new(
            super::lang::FIELD,
            format!(
                "stopped after {} steps, {} of this part's {plan} runs done: the job would pass its limit of {} steps (loop counts drawn at run time are counted as they run); lower the loop counts, replications or process counts, or raise the limit",
                crate::model::fmt_num(spent as f64, 3),
                part.next,
                crate::model::fmt_num(self.job.limits.max_steps_per_job, 3)
            ),
        )
    }

    /// How many runs `part` makes: each series and replication of it.
    fn part_plan(&self, part: &Part) -> usize {
        self.series.len() * part.reps
    }

    fn part_fraction(&self, part: &Part) -> f64 {
        if part.partial.deadlock.is_some() {
            return 1.0;
        }
        (part.next as f64 / self.part_plan(part).max(1) as f64).clamp(0.0, 1.0)
    }

    fn start_run(&self, programs: &Programs, s: usize, r: usize) -> Run {
        let series = self.series[s];
        let n = programs.numprocs;
        let rm = RunMachine::new(&self.job.machine, n, self.job.procs_per_node, series.mode, series.contention);
        let timeline = s == 0 && r == 0 && n <= TIMELINE_MAX_PROCS;
        Run::new(programs, rm, (self.job.seed, &[n as u64, r as u64]), self.job.limits.max_steps_per_run, timeline)
    }

    /// The report from the parts' results (any order; a missing part's replications are
    /// simply absent). A deadlock ends the job where it happened: the first in plan order
    /// (series, then process count) is reported, with the results of the counts before it.
    pub fn merge(&self, mut partials: Vec<Partial>) -> Report {
        partials.sort_by_key(|p| p.part);
        let counts = self.job.numprocs.len();
        let first = partials.iter().filter_map(|p| p.deadlock.as_ref()).min_by_key(|(s, c, _)| (*s, *c));
        let cut = first.map_or(usize::MAX, |(s, c, _)| s * counts + c);
        let deadlock = first.map(|(_, _, d)| d.clone());
        let mut acc: Vec<Vec<Acc>> =
            self.series.iter().map(|_| self.job.numprocs.iter().map(|_| Acc::default()).collect()).collect();
        for p in &partials {
            for (s, (sums, row)) in acc.iter_mut().zip(&p.acc).enumerate() {
                for (c, (sum, a)) in sums.iter_mut().zip(row).enumerate() {
                    if s * counts + c < cut {
                        sum.add(a);
                    }
                }
            }
        }
        // The totals count what the job did before each block of replications met its first
        // deadlock in plan order (series, then count), as when one part ran every count of a
        // block and stopped there: every run before that point, and that point's runs up to
        // the deadlocked one.
        let blocks = self.blocks();
        let mut stop = vec![usize::MAX; blocks];
        for p in &partials {
            if let (Some((s, c, _)), Some(b)) = (&p.deadlock, stop.get_mut(p.part % blocks)) {
                *b = (*b).min(s * counts + c);
            }
        }
        let (mut messages, mut steps, mut charged) = (0u64, 0u64, 0u64);
        for p in &partials {
            let b = stop.get(p.part % blocks).copied().unwrap_or(usize::MAX);
            for (s, row) in p.acc.iter().enumerate() {
                for (c, a) in row.iter().enumerate() {
                    if s * counts + c <= b {
                        messages += a.sent;
                        steps += a.steps;
                        charged += a.charged;
                    }
                }
            }
        }
        self.report(&acc, deadlock, messages, (steps, charged))
    }

    fn report(&self, acc: &[Vec<Acc>], deadlock: Option<Deadlock>, messages: u64, steps: (u64, u64)) -> Report {
        let (steps, charged) = steps;
        let sequential_s = self.job.sequential_s.unwrap_or_else(|| {
            // Nothing finished (a deadlock at the first count): 0, not an empty sum's -0.
            let Some(a) = acc.first().and_then(|row| row.first()).filter(|a| !a.times.is_empty()) else { return 0.0 };
            let reps = a.times.len().max(1) as f64;
            a.procs.iter().map(|p| p.computing_s).sum::<f64>() / reps
        });
        let ppn = self.job.procs_per_node.max(1);
        let results = |acc: &[Acc]| -> Vec<CountResult> {
            acc.iter()
                .zip(&self.job.numprocs)
                .filter(|(a, _)| !a.times.is_empty())
                .map(|(a, &n)| {
                    let k = a.times.len() as f64;
                    let (mean, sd, half) = mean_ci(&a.times);
                    CountResult {
                        numprocs: n,
                        nodes: n.div_ceil(ppn),
                        mean_s: mean,
                        ci95_s: [mean - half, mean + half],
                        sd_s: sd,
                        min_s: a.times.iter().copied().fold(f64::INFINITY, f64::min),
                        max_s: a.times.iter().copied().fold(0.0, f64::max),
                        speedup: if mean > 0.0 { sequential_s / mean } else { 0.0 },
                        run_times_s: a.times.clone(),
                        procs: a
                            .procs
                            .iter()
                            .map(|p| ProcTimes {
                                computing_s: p.computing_s / k,
                                sending_s: p.sending_s / k,
                                waiting_s: p.waiting_s / k,
                                end_s: p.end_s / k,
                            })
                            .collect(),
                        messages_per_run: a.messages / k,
                        unreceived_per_run: a.unreceived / k,
                        timeline: a.timeline.clone(),
                    }
                })
                .collect()
        };
        let all: Vec<SeriesResult> =
            self.series.iter().zip(acc).map(|(s, a)| SeriesResult { series: *s, results: results(a) }).collect();
        let mut main = all.first().cloned().unwrap_or_else(|| SeriesResult {
            series: Series { label: "main", mode: self.job.mode, contention: self.job.contention },
            results: Vec::new(),
        });
        main.series.label = FIGURE6
            .iter()
            .find(|f| f.mode == main.series.mode && f.contention == main.series.contention)
            .map_or("main", |f| f.label);
        let comparison = if self.job.compare {
            let mut c = Vec::new();
            for f in FIGURE6 {
                if let Some(s) = all.iter().find(|s| s.series.mode == f.mode && s.series.contention == f.contention) {
                    let mut s = s.clone();
                    s.series.label = f.label;
                    for r in &mut s.results {
                        r.timeline = None;
                    }
                    c.push(s);
                }
            }
            c
        } else {
            Vec::new()
        };
        Report { main, comparison, deadlock, sequential_s, messages, steps, charged }
    }
}

/// Runs some parts of a job (by default all) one after another, in slices: for a Web
/// Worker's progress bar and cancel button.
pub struct Stepper {
    sim: Simulation,
    parts: Vec<usize>,
    /// Index into `parts` of the part being run.
    i: usize,
    current: Option<Part>,
    partials: Vec<Partial>,
    /// Messages of the finished parts.
    sent: u64,
}

impl Stepper {
    /// Every part of the job.
    pub fn new(sim: Simulation) -> Stepper {
        let parts = (0..sim.parts()).collect();
        Stepper::for_parts(sim, parts)
    }

    /// The given parts (indices past [`Simulation::parts`] are ignored).
    pub fn for_parts(sim: Simulation, mut parts: Vec<usize>) -> Stepper {
        parts.retain(|&j| j < sim.parts());
        Stepper { sim, parts, i: 0, current: None, partials: Vec::new(), sent: 0 }
    }

    pub fn simulation(&self) -> &Simulation {
        &self.sim
    }

    /// Runs at most about `max_steps` ops, then reports progress, or `Done` when every part is.
    pub fn step(&mut self, max_steps: u64) -> Result<Progress, RunError> {
        while let Some(&j) = self.parts.get(self.i) {
            let sim = &self.sim;
            let part = self.current.get_or_insert_with(|| sim.start_part(j));
            if !sim.step_part(part, max_steps)? {
                return Ok(Progress::Running { fraction: self.fraction() });
            }
            if let Some(p) = self.current.take() {
                self.sent += p.sent;
                self.partials.push(p.partial);
            }
            self.i += 1;
            if max_steps != u64::MAX {
                return Ok(if self.i < self.parts.len() {
                    Progress::Running { fraction: self.fraction() }
                } else {
                    Progress::Done
                });
            }
        }
        Ok(Progress::Done)
    }

    /// The fraction of this stepper's replications done.
    pub fn fraction(&self) -> f64 {
        let current = self.current.as_ref().map_or(0.0, |p| self.sim.part_fraction(p));
        ((self.i as f64 + current) / self.parts.len().max(1) as f64).clamp(0.0, 1.0)
    }

    /// Messages simulated so far: the finished runs' and the current run's (for the page's
    /// messages a second).
    pub fn messages(&self) -> u64 {
        self.sent + self.current.as_ref().map_or(0, |p| p.sent + p.current.as_ref().map_or(0, Run::messages))
    }

    /// The results of the parts finished so far, taken out (the stepper keeps its job).
    pub fn take_partials(&mut self) -> Vec<Partial> {
        std::mem::take(&mut self.partials)
    }

    /// The report of the parts finished so far (all of them, once `step` said `Done`).
    pub fn report(&self) -> Report {
        self.sim.merge(self.partials.clone())
    }
}

/// Mean, standard deviation and the half-width of the 95 % confidence interval of the mean.
pub fn mean_ci(xs: &[f64]) -> (f64, f64, f64) {
    let n = xs.len();
    if n == 0 {
        return (0.0, 0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return (mean, 0.0, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
    let sd = var.sqrt();
    (mean, sd, t975(n - 1) * sd / (n as f64).sqrt())
}

/// Student's t, 97.5 % quantile, for `df` degrees of freedom (table to 30, then
/// 1.96 + 2.4/df, within 0.002 of the exact value).
fn t975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    T.get(df.wrapping_sub(1)).copied().unwrap_or(1.96 + 2.4 / df as f64)
}

//! `scalewise simulate`: Monte Carlo simulation of a program skeleton on a virtual parallel
//! machine (PEVPM, seed 001). The JSON becomes the job directly, through the simulation
//! page's own validators (skeleton and parameter parsers, ranges, machines), each error
//! naming its JSON key; the page's `evaluate` then checks it, so the command and the page
//! check alike. This file writes the answer.

use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;

use super::joined;
use crate::model::catalog::Catalog;
use crate::model::input::request::TextOr;
use crate::model::input::table::parse_number;
use crate::model::simulate::engine::{Deadlock, ProcTimes};
use crate::model::simulate::job::{CountResult, Job, Limits, Report, Simulation};
use crate::model::simulate::lang::{self, Expr};
use crate::model::simulate::machine::{perseus, Contention, Machine, Mode};
use crate::model::simulate::page::{self, Given, Whole, PROCS_PER_NODE, REPLICATIONS, SEED};
use crate::model::simulate::program::MAX_PROCS;
use crate::model::simulate::request::{MachineRequest, Number, NumberOrText};
use crate::model::InputError;

use super::request::SimulateRequest;
use super::Subcommand;

pub const COMMAND: Subcommand = Subcommand {
    name: "simulate",
    summary: "run time and speed-up of a program skeleton on a simulated machine (PEVPM, seed 001)",
    help: HELP,
    run: super::run_command::<SimulateCommand>,
    reads_input: true,
    each: None,
    schema: super::schemas_of::<SimulateCommand>(),
};

const HELP: &str = r#"scalewise simulate — predict a message-passing program's run time and speed-up by simulating
its skeleton on a virtual parallel machine whose message times are sampled from measured
distributions under the contention of the moment (PEVPM, seed 001: Grove and Coddington).

USAGE:
    scalewise simulate [FILE|-] [--compact]

INPUT (one JSON object):
    skeleton          the program's skeleton (text). Directives, one after another:
                        Param xsize = 256
                        Loop iterations = 1000 { ... }      Loop i iterations = n { ... }
                        Runon c1 = procnum % 2 == 0 & c2 = procnum % 2 != 0 { ... } { ... }
                        Message type = MPI_Send, size = xsize * sizeof(float), to = procnum + 1
                        Message type = MPI_Recv, from = procnum - 1      (from = any: any source)
                        Message type = MPI_Isend | MPI_Irecv | MPI_Wait | MPI_Barrier
                                     | MPI_Bcast | MPI_Reduce | MPI_Allreduce | MPI_Gather
                                     | MPI_Scatter | MPI_Alltoall   (size = bytes, root = rank)
                        Serial time = 3.24 / numprocs         (milliseconds)
                        Break                                   (leave the innermost loop)
                      C source with "// PEVPM" comments (the seed's Figure 5) is accepted as is.
                      Expressions: + - * / %, comparisons, && || !, procnum, numprocs,
                      parameters, loop counters, source and tag (of the last blocking
                      receive), min max floor ceil abs sqrt log2 pow xor sizeof,
                      uniform(a, b), exponential(mean).
    params            optional object {"name": number or expression text}; overrides the
                      skeleton's Param defaults (e.g. {"xsize": 256, "iterations": 1000})
    numprocs          list of process counts, each 1 to 16384 (e.g. [2, 4, 8, 16])
    procs_per_node    processes per node (default 1); picks the measured p of histograms
    machine           "perseus" (default): a Perseus-like machine constructed from the seed's
                      facts (100 Mbit/s Ethernet, 16 KB knee, +70 % mean at 64 × 1 for 1 KB,
                      backplane saturation, 200 ms retransmission outliers); or
                      {"latency_us": l, "bandwidth_mbit_s": W}: every message takes l + size/W;
                      or {"histograms": "<table>"}: MPIBench-style histograms, columns message
                      size (bytes), n, p, bin low, bin high (µs unless the header names a unit,
                      e.g. "low (ms)"), count; tab, comma or space separated; or
                      {"calibration": "<samples>"}: raw per-message timings made into those
                      histograms (ping-pong, n = 2, p = 1; Sturges bins per size): a SimGrid
                      calibration CSV (operation,size,start,duration in s, no header; a send
                      and a receive with the same start are one round trip, halved) or a
                      (size, time) table of repeated samples (µs unless the header says)
    mode              "distribution" (default: sample), "average" or "minimum" (each
                      histogram's mean or lowest time)
    contention        "moment" (default: the number of messages on the contention scoreboard
                      picks the n × p histogram), "configuration" (the run's own n × p) or
                      "none" (the least loaded histogram, i.e. ping-pong)
    replications      Monte Carlo replications per process count (default 20, 1 to 10000)
    seed              whole number (default 1); the same seed gives the same answer everywhere
                      (process counts and replications run on every core, in parts fixed by
                      the job and merged in order, so the answer does not depend on the core
                      count)
    compare           optional true: also the seed's Figure 6 series (distribution, average
                      n × p, average 2 × 1, minimum 2 × 1)
    max_steps         optional: steps one replication may take (default 1e8, 1000 to 1e12); a
                      step is an op, and a Serial time, send, receive or wait counts 4 to 21
                      steps, as its time does (more past 4,096 processes), a process's start
                      10: so a limit of steps is one of time, whatever the job's shape
    max_job_steps     optional: steps the whole job may take (default 2e9, at most about 20 s
                      of one core, 10 s on two, for every shape measured; 1000 to 1e12);
                      checked before the start where loop counts are known and counted as
                      the job runs, so a loop count drawn at run time (floor(uniform(…)))
                      stops it with an error saying how far it got
    max_run_mb        optional: megabytes one replication may hold in messages waiting to be
                      matched, told before the start (default 512, 1 to 1e6): an all-to-all
                      of p processes holds up to about 56 p² bytes at its peak, so 512 MB
                      allows up to 3,023 processes and 10,000 need 5,600; runs of different
                      counts go side by side, one a core
    sequential_s      optional: the time speed-ups are relative to (default: the total
                      computing time of all processes at the smallest process count)

OUTPUT:
    results           [{numprocs, nodes, mean_s, ci95_s: [low, high] (95 % confidence
                      interval of the mean, Student's t), sd_s, min_s, max_s, speedup
                      (sequential_s / mean_s; null when that is 0: the skeleton computes
                      nothing), run_times_s (every replication), procs: [{computing_s, sending_s,
                      waiting_s, end_s}] (per process, mean over replications),
                      messages_per_run, unreceived_per_run}]
    sequential_s, machine ("perseus", "fitted", "histograms" or "calibration": the kind
    read), mode, contention, replications, seed (as run), messages (simulated in all),
    steps (ops executed; the limits count each at its cost, see max_steps)
    comparison        with compare: [{label, mode, contention, results: [{numprocs, mean_s,
                      ci95_s, speedup}]}]
    deadlock          when a run deadlocks, instead of the results of that count and later:
                      {numprocs, time_s, blocked: [{proc, waiting_for, line}]}

EXAMPLE:
    {"skeleton": "Loop iterations = 100 {\n Message type = MPI_Send, size = 1024, to = 1 - procnum\n Message type = MPI_Recv, from = 1 - procnum\n Serial time = 1\n}",
     "numprocs": [2], "machine": {"latency_us": 100, "bandwidth_mbit_s": 80}}
    answers mean_s 0.12024: 100 × (1 ms + 100 µs + 1024·8 bits / 80 Mbit/s), the sender
    holding until its message arrives.

ERRORS:
    One line naming the key, with line and column for the skeleton, e.g.
    "skeleton: line 3, column 20: expected a number, a name, "(", "-" or "!", found "}""
    or "numprocs[1]: expected a process count from 1 to 16384, found 0". Exit status 1.
"#;

/// `{"name": number or expression text}`, in the keys' order (later ones may use earlier).
fn params(given: Option<&BTreeMap<String, NumberOrText>>) -> Result<Vec<(String, Expr)>, InputError> {
    let Some(o) = given else { return Ok(Vec::new()) };
    let mut out = Vec::with_capacity(o.len());
    for (k, v) in o {
        if !lang::is_name(k) {
            return Err(InputError::new("params", format!("\"{k}\" is not a name (letters, digits and _)")));
        }
        let path = format!("params.{k}");
        let value = match v {
            TextOr::Value(n) => {
                Expr::Num(n.as_f64().ok_or_else(|| InputError::new(&path, "not a number this command can read"))?)
            }
            TextOr::Text(s) => lang::parse_expr(&path, s)?,
        };
        out.push((k.clone(), value));
    }
    Ok(out)
}

fn numprocs(list: &[Number]) -> Result<Vec<u32>, InputError> {
    let mut counts = Vec::with_capacity(list.len());
    for (i, x) in list.iter().enumerate() {
        match x.as_u64() {
            Some(n) if (1..=u64::from(MAX_PROCS)).contains(&n) => counts.push(n as u32),
            _ => {
                return Err(InputError::new(
                    format!("numprocs[{i}]"),
                    format!("expected a process count from 1 to {MAX_PROCS}, found {x}"),
                ))
            }
        }
    }
    page::process_counts(counts)
}

/// A whole number, given as a JSON number (or as text), in the page's range for it.
fn whole(given: Option<&NumberOrText>, key: &str, range: Whole, default: u64) -> Result<u64, InputError> {
    let Some(v) = given else { return Ok(default) };
    let (value, shown) = match v {
        TextOr::Value(n) => (n.as_f64(), n.to_string()),
        TextOr::Text(s) => (parse_number(s), s.clone()),
    };
    range.check(key, Given { value, shown: &shown })
}

/// A name among the page's choices (mode, contention).
fn choice<T>(
    given: Option<&String>,
    key: &str,
    default: T,
    parse: fn(&str, &str) -> Result<T, InputError>,
) -> Result<T, InputError> {
    given.map_or(Ok(default), |v| parse(key, v))
}

/// The machine and what the answer calls it: "perseus", "fitted", "histograms" or
/// "calibration".
fn machine(given: Option<&MachineRequest>) -> Result<(Machine, &'static str), InputError> {
    match given {
        None => Ok((perseus(), "perseus")),
        Some(TextOr::Text(s)) if s.trim().eq_ignore_ascii_case("perseus") => Ok((perseus(), "perseus")),
        Some(TextOr::Text(s)) => Err(InputError::new("machine", format!(
            "unknown machine \"{}\"; expected \"perseus\", {{\"latency_us\", \"bandwidth_mbit_s\"}} or {{\"histograms\"}}",
            s.chars().take(20).collect::<String>()
        ))),
        Some(TextOr::Value(o)) => {
            if let Some(c) = &o.calibration {
                let (_, _, table) = crate::model::simulate::calibration::calibration_table("machine.calibration", c)?;
                let machine = Machine::from_histograms("machine.calibration", "calibration samples", &table)?;
                return Ok((machine, "calibration"));
            }
            if let Some(h) = &o.histograms {
                let machine = Machine::from_histograms("machine.histograms", "pasted histograms", h)?;
                return Ok((machine, "histograms"));
            }
            let mut line = Vec::with_capacity(2);
            for (k, x) in [("latency_us", &o.latency_us), ("bandwidth_mbit_s", &o.bandwidth_mbit_s)] {
                let Some(x) = x else { return Err(InputError::new("machine", format!("missing key \"{k}\" (or give \"histograms\")"))) };
                line.push((x.as_f64(), x.to_string()));
            }
            let [latency, bandwidth] = [&line[0], &line[1]].map(|(value, shown)| Given { value: *value, shown: shown.as_str() });
            let machine = page::fitted_machine(latency, bandwidth, ["machine.latency_us", "machine.bandwidth_mbit_s"]).map_err(|e| joined(&e))?;
            Ok((machine, "fitted"))
        }
    }
}

/// An optional number of the request under `key`: None when not given, the number when `fits`,
/// else "expected {expected}, found …" for the key.
fn number(
    key: &str,
    given: Option<&Number>,
    fits: impl Fn(f64) -> bool,
    expected: &str,
) -> Result<Option<f64>, InputError> {
    match given.map(|v| (v, v.as_f64())) {
        None => Ok(None),
        Some((_, Some(x))) if fits(x) => Ok(Some(x)),
        Some((v, _)) => Err(InputError::new(key, format!("expected {expected}, found {v}"))),
    }
}

fn sequential_s(given: Option<&Number>) -> Result<Option<f64>, InputError> {
    number("sequential_s", given, |x| x > 0.0 && x <= 1e9, "a time in seconds above 0")
}

fn limits(r: &SimulateRequest) -> Result<Limits, InputError> {
    // Written as JSON likes, 2000000000 or 2e9 (a float in JSON, a whole one here; one past
    // u64 saturates, so the range below is the only bound).
    let whole = |key: &str, given: Option<&Number>| match given
        .map(|v| (v, v.as_u64().or_else(|| v.as_f64().filter(|x| x.fract() == 0.0 && *x >= 0.0).map(|x| x as u64))))
    {
        None => Ok(None),
        Some((_, Some(x))) if (1000..=1_000_000_000_000).contains(&x) => Ok(Some(x)),
        Some((v, _)) => Err(InputError::new(key, format!("expected a whole number from 1000 to 1e12, found {v}"))),
    };
    let mut limits = Limits::default();
    if let Some(x) = whole("max_steps", r.max_steps.as_ref())? {
        limits.max_steps_per_run = x;
    }
    if let Some(x) = whole("max_job_steps", r.max_job_steps.as_ref())? {
        limits.max_steps_per_job = x as f64;
    }
    if let Some(mb) =
        number("max_run_mb", r.max_run_mb.as_ref(), |mb| (1.0..=1e6).contains(&mb), "megabytes from 1 to 1e6")?
    {
        limits.max_run_bytes = mb * 1e6;
    }
    Ok(limits)
}

/// The job from the request, and what the answer calls its machine; every key's problem at
/// once.
fn job(r: &SimulateRequest) -> Result<(Job, &'static str), InputError> {
    let mut errors = Vec::new();
    let mut keep = |e: InputError| errors.push(e);
    let skeleton = lang::parse(&r.skeleton).map_err(&mut keep).ok();
    let params = params(r.params.as_ref()).map_err(&mut keep).ok();
    let numprocs = numprocs(&r.numprocs).map_err(&mut keep).ok();
    let procs_per_node = whole(r.procs_per_node.as_ref(), "procs_per_node", PROCS_PER_NODE, 1).map_err(&mut keep).ok();
    let machine = machine(r.machine.as_ref()).map_err(&mut keep).ok();
    let mode = choice(r.mode.as_ref(), "mode", Mode::Distribution, page::parse_mode).map_err(&mut keep).ok();
    let contention =
        choice(r.contention.as_ref(), "contention", Contention::Moment, page::parse_contention).map_err(&mut keep).ok();
    let replications = whole(r.replications.as_ref(), "replications", REPLICATIONS, 20).map_err(&mut keep).ok();
    let seed = whole(r.seed.as_ref(), "seed", SEED, 1).map_err(&mut keep).ok();
    let compare = r.compare.unwrap_or(false);
    let sequential_s = sequential_s(r.sequential_s.as_ref()).map_err(&mut keep).ok();
    let limits = limits(r).map_err(&mut keep).ok();
    let all = (
        skeleton,
        params,
        numprocs,
        procs_per_node,
        machine,
        mode,
        contention,
        replications,
        seed,
        sequential_s,
        limits,
    );
    let (
        Some(skeleton),
        Some(params),
        Some(numprocs),
        Some(ppn),
        Some(machine),
        Some(mode),
        Some(contention),
        Some(reps),
        Some(seed),
        Some(sequential_s),
        Some(limits),
    ) = all
    else {
        return Err(joined(&errors));
    };
    let (procs_per_node, replications, (machine, kind)) = (ppn as u32, reps as u32, machine);
    Ok((
        Job {
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
        },
        kind,
    ))
}

/// One count's results; `speedup` is null when there is no time to compare with (the
/// skeleton computes nothing and no `sequential_s` was given).
/// `scalewise simulate`'s answer.
#[derive(Serialize, JsonSchema)]
pub struct SimulateAnswer<'a> {
    /// Per process count, of the job's own mode and contention.
    results: Vec<CountOut<'a>>,
    /// The time speed-ups are relative to, s.
    sequential_s: f64,
    mode: Mode,
    contention: Contention,
    /// Messages sent in all.
    messages: u64,
    /// Ops run in all.
    steps: u64,
    replications: u32,
    seed: u64,
    /// "perseus", "fitted", "histograms" or "calibration": what the machine was made from.
    machine: &'a str,
    /// With "compare": the seed's Figure 6 series.
    #[serde(skip_serializing_if = "Option::is_none")]
    comparison: Option<Vec<SeriesOut<'a>>>,
    /// The first deadlock met; the job stops there.
    #[serde(skip_serializing_if = "Option::is_none")]
    deadlock: Option<&'a Deadlock>,
}

/// One process count's results.
#[derive(Serialize, JsonSchema)]
struct CountOut<'a> {
    numprocs: u32,
    nodes: u32,
    mean_s: f64,
    /// 95 % confidence interval of the mean.
    ci95_s: [f64; 2],
    sd_s: f64,
    min_s: f64,
    max_s: f64,
    /// Null without a sequential time to compare with.
    speedup: Option<f64>,
    /// Every replication's run time.
    run_times_s: &'a [f64],
    /// Per process, averaged over replications.
    procs: &'a [ProcTimes],
    messages_per_run: f64,
    unreceived_per_run: f64,
}

impl<'a> CountOut<'a> {
    fn new(c: &'a CountResult, baseline: bool) -> Self {
        CountOut {
            numprocs: c.numprocs,
            nodes: c.nodes,
            mean_s: c.mean_s,
            ci95_s: c.ci95_s,
            sd_s: c.sd_s,
            min_s: c.min_s,
            max_s: c.max_s,
            speedup: baseline.then_some(c.speedup),
            run_times_s: &c.run_times_s,
            procs: &c.procs,
            messages_per_run: c.messages_per_run,
            unreceived_per_run: c.unreceived_per_run,
        }
    }
}

#[derive(Serialize, JsonSchema)]
struct SeriesOut<'a> {
    label: &'a str,
    mode: Mode,
    contention: Contention,
    results: Vec<ComparedCount>,
}

#[derive(Serialize, JsonSchema)]
struct ComparedCount {
    numprocs: u32,
    mean_s: f64,
    ci95_s: [f64; 2],
    speedup: Option<f64>,
}

/// The answer, from what was run: `job` (its replications and seed) on the machine called
/// `machine`.
fn answer<'a>(r: &'a Report, job: &Job, machine: &'a str) -> SimulateAnswer<'a> {
    let baseline = r.sequential_s > 0.0;
    let comparison = (!r.comparison.is_empty()).then(|| {
        r.comparison
            .iter()
            .map(|s| SeriesOut {
                label: s.series.label,
                mode: s.series.mode,
                contention: s.series.contention,
                results: s
                    .results
                    .iter()
                    .map(|c| ComparedCount {
                        numprocs: c.numprocs,
                        mean_s: c.mean_s,
                        ci95_s: c.ci95_s,
                        speedup: baseline.then_some(c.speedup),
                    })
                    .collect(),
            })
            .collect()
    });
    SimulateAnswer {
        results: r.main.results.iter().map(|c| CountOut::new(c, baseline)).collect(),
        sequential_s: r.sequential_s,
        mode: r.main.series.mode,
        contention: r.main.series.contention,
        messages: r.messages,
        steps: r.steps,
        replications: job.replications,
        seed: job.seed,
        machine,
        comparison,
        deadlock: r.deadlock.as_ref(),
    }
}

/// `scalewise simulate` as a [`super::Command`].
struct SimulateCommand;

impl super::Command for SimulateCommand {
    type Request = SimulateRequest;
    /// The simulation (its job) and its report, and the machine's name.
    type Computed = (Simulation, Report, &'static str);
    type Answer<'a> = SimulateAnswer<'a>;

    fn compute(r: SimulateRequest) -> Result<Self::Computed, InputError> {
        // A job reads nothing of the catalog.
        let catalog = Catalog::default();
        let (job, machine) = job(&r)?;
        let job = page::evaluate(job, &catalog).map_err(|errs| joined(&errs))?;
        let sim = Simulation::new(job)?;
        let report = crate::parallel::run(&sim)?;
        Ok((sim, report, machine))
    }

    fn answer((sim, report, machine): &Self::Computed) -> SimulateAnswer<'_> {
        answer(report, sim.job(), machine)
    }
}

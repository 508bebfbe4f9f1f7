//! `scalewise simulate`: Monte Carlo simulation of a program skeleton on a virtual parallel
//! machine (PEVPM, seed 001). The JSON is turned into the simulation page's input texts, so
//! the command and the page validate alike (`model::pevpm::page::prepare`); this file names
//! the key of every problem and writes the answer.

use serde_json::{json, Map, Value};

use scalewise::model::pevpm::job::{CountResult, Report, Simulation};
use scalewise::model::pevpm::page::prepare;
use scalewise::model::pevpm::program::MAX_PROCS;
use scalewise::model::workspace::PageInputs;
use scalewise::model::InputError;

use super::{kind, object, to_json, Subcommand};

pub const COMMAND: Subcommand = Subcommand {
    name: "simulate",
    summary: "run time and speed-up of a program skeleton on a simulated machine (PEVPM, seed 001)",
    help: HELP,
    run,
    reads_input: true,
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
    numprocs          list of process counts, each 1 to 1024 (e.g. [2, 4, 8, 16])
    procs_per_node    processes per node (default 1); picks the measured p of histograms
    machine           "perseus" (default): a Perseus-like machine constructed from the seed's
                      facts (100 Mbit/s Ethernet, 16 KB knee, +70 % mean at 64 × 1 for 1 KB,
                      backplane saturation, 200 ms retransmission outliers); or
                      {"latency_us": l, "bandwidth_mbit_s": W}: every message takes l + size/W;
                      or {"histograms": "<table>"}: MPIBench-style histograms, columns message
                      size (bytes), n, p, bin low, bin high (µs unless the header names a unit,
                      e.g. "low (ms)"), count; tab, comma or space separated
    mode              "distribution" (default: sample), "average" or "minimum" (each
                      histogram's mean or lowest time)
    contention        "moment" (default: the number of messages on the contention scoreboard
                      picks the n × p histogram), "configuration" (the run's own n × p) or
                      "none" (the least loaded histogram, i.e. ping-pong)
    replications      Monte Carlo replications per process count (default 20, 1 to 10000)
    seed              whole number (default 1); the same seed gives the same answer everywhere
                      (the replications run on every core, in up to 8 parts fixed by the job
                      and merged in order, so the answer does not depend on the core count)
    compare           optional true: also the seed's Figure 6 series (distribution, average
                      n × p, average 2 × 1, minimum 2 × 1)
    sequential_s      optional: the time speed-ups are relative to (default: the total
                      computing time of all processes at the smallest process count)

OUTPUT:
    results           [{numprocs, nodes, mean_s, ci95_s: [low, high] (95 % confidence
                      interval of the mean, Student's t), sd_s, min_s, max_s, speedup,
                      run_times_s (every replication), procs: [{computing_s, sending_s,
                      waiting_s, end_s}] (per process, mean over replications),
                      messages_per_run, unreceived_per_run}]
    sequential_s, machine, mode, contention, replications, seed, messages (simulated in all),
    steps (ops executed)
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
    or "numprocs[1]: expected a process count from 1 to 1024, found 0". Exit status 1.
"#;

const KEYS: [&str; 12] = [
    "skeleton",
    "params",
    "numprocs",
    "procs_per_node",
    "machine",
    "mode",
    "contention",
    "replications",
    "seed",
    "compare",
    "sequential_s",
    "max_steps",
];

fn text_of(v: &Value, path: &str) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(format!("{path}: expected a number or text, found {}", kind(other))),
    }
}

/// "key: line 3, column 4: message", with machine fields under `machine.`.
fn error_text(e: &InputError) -> String {
    let key = match e.field.as_str() {
        f @ ("latency_us" | "bandwidth_mbit_s" | "histograms") => format!("machine.{f}"),
        f => f.to_string(),
    };
    format!("{key}: {}", e.local_text())
}

/// The page's input texts from the JSON.
fn inputs(m: &Map<String, Value>) -> Result<PageInputs, String> {
    let mut p = PageInputs::new();
    let mut set = |k: &str, v: String| {
        p.insert(k.to_string(), v);
    };
    match m.get("skeleton") {
        Some(Value::String(s)) => set("skeleton", s.clone()),
        Some(v) => return Err(format!("skeleton: expected text, found {}", kind(v))),
        None => return Err("input: missing key \"skeleton\"".into()),
    }
    let mut params = String::new();
    if let Some(v) = m.get("params") {
        let Value::Object(o) = v else { return Err(format!("params: expected an object, found {}", kind(v))) };
        for (k, v) in o {
            let valid = k.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') && k.chars().all(|c| c.is_alphanumeric() || c == '_');
            if !valid {
                return Err(format!("params: \"{k}\" is not a name (letters, digits and _)"));
            }
            params.push_str(&format!("{k} = {}\n", text_of(v, &format!("params.{k}"))?));
        }
    }
    set("params", params);
    match m.get("numprocs") {
        Some(Value::Array(a)) => {
            let mut words = Vec::new();
            for (i, x) in a.iter().enumerate() {
                match x.as_u64() {
                    Some(n) if (1..=u64::from(MAX_PROCS)).contains(&n) => words.push(n.to_string()),
                    _ => return Err(format!("numprocs[{i}]: expected a process count from 1 to {MAX_PROCS}, found {x}")),
                }
            }
            set("numprocs", words.join(" "));
        }
        Some(v) => return Err(format!("numprocs: expected a list of process counts, found {}", kind(v))),
        None => return Err("input: missing key \"numprocs\"".into()),
    }
    let opt = |k: &str, default: &str| -> Result<String, String> { m.get(k).map_or(Ok(default.to_string()), |v| text_of(v, k)) };
    set("procs_per_node", opt("procs_per_node", "1")?);
    set("mode", opt("mode", "distribution")?);
    set("contention", opt("contention", "moment")?);
    set("replications", opt("replications", "20")?);
    set("seed", opt("seed", "1")?);
    match m.get("compare") {
        None | Some(Value::Bool(false)) => set("compare", "no".into()),
        Some(Value::Bool(true)) => set("compare", "yes".into()),
        Some(v) => return Err(format!("compare: expected true or false, found {}", kind(v))),
    }
    match m.get("machine") {
        None => set("machine", "perseus".into()),
        Some(Value::String(s)) => set("machine", s.clone()),
        Some(v @ Value::Object(_)) => {
            let o = object(v.clone(), "machine", &["latency_us", "bandwidth_mbit_s", "histograms", "name"])?;
            if let Some(h) = o.get("histograms") {
                let Value::String(h) = h else { return Err(format!("machine.histograms: expected a table as text, found {}", kind(h))) };
                set("machine", "histograms".into());
                set("histograms", h.clone());
            } else {
                set("machine", "fitted".into());
                for k in ["latency_us", "bandwidth_mbit_s"] {
                    let Some(x) = o.get(k) else { return Err(format!("machine: missing key \"{k}\" (or give \"histograms\")")) };
                    let Some(x) = x.as_f64() else { return Err(format!("machine.{k}: expected a number, found {}", kind(x))) };
                    set(k, x.to_string());
                }
            }
        }
        Some(v) => return Err(format!("machine: expected \"perseus\" or an object, found {}", kind(v))),
    }
    Ok(p)
}

fn count_json(c: &CountResult) -> Result<Value, String> {
    let mut v = to_json(c)?;
    if let Value::Object(o) = &mut v {
        o.remove("timeline");
    }
    Ok(v)
}

fn report_json(r: &Report, m: &Map<String, Value>) -> Result<Value, String> {
    let results: Vec<Value> = r.main.results.iter().map(count_json).collect::<Result<_, _>>()?;
    let mut out = json!({
        "results": results,
        "sequential_s": r.sequential_s,
        "mode": r.main.series.mode,
        "contention": r.main.series.contention,
        "messages": r.messages,
        "steps": r.steps,
    });
    for k in ["replications", "seed"] {
        out[k] = m.get(k).cloned().unwrap_or(if k == "seed" { json!(1) } else { json!(20) });
    }
    out["machine"] = m.get("machine").filter(|v| v.is_string()).cloned().unwrap_or(json!("perseus"));
    if m.get("machine").is_some_and(Value::is_object) {
        out["machine"] = json!(if m.get("machine").and_then(|v| v.get("histograms")).is_some() { "histograms" } else { "fitted" });
    }
    if !r.comparison.is_empty() {
        let series: Vec<Value> = r
            .comparison
            .iter()
            .map(|s| {
                json!({
                    "label": s.series.label,
                    "mode": s.series.mode,
                    "contention": s.series.contention,
                    "results": s.results.iter().map(|c| json!({"numprocs": c.numprocs, "mean_s": c.mean_s, "ci95_s": c.ci95_s, "speedup": c.speedup})).collect::<Vec<_>>(),
                })
            })
            .collect();
        out["comparison"] = json!(series);
    }
    if let Some(d) = &r.deadlock {
        out["deadlock"] = to_json(d)?;
    }
    Ok(out)
}

fn run(input: Value) -> Result<Value, String> {
    let m = object(input, "input", &KEYS)?;
    let texts = inputs(&m)?;
    let mut job = prepare(&texts).map_err(|errs| errs.iter().map(error_text).collect::<Vec<_>>().join("; "))?;
    if let Some(v) = m.get("sequential_s") {
        match v.as_f64() {
            Some(x) if x > 0.0 && x <= 1e9 => job.sequential_s = Some(x),
            _ => return Err(format!("sequential_s: expected a time in seconds above 0, found {v}")),
        }
    }
    if let Some(v) = m.get("max_steps") {
        match v.as_u64() {
            Some(x) if x >= 1000 => job.limits.max_steps_per_run = x,
            _ => return Err(format!("max_steps: expected a whole number of at least 1000, found {v}")),
        }
    }
    let sim = Simulation::new(job).map_err(|e| error_text(&e))?;
    let report = scalewise::parallel::run(&sim).map_err(|e| error_text(&e))?;
    report_json(&report, &m)
}

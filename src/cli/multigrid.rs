//! `scalewise multigrid`: fits the multigrid model (seed 000) to calibration runs, predicts run
//! times, and plans a job over one or two clusters. The model is `model::multigrid`; this file
//! only reads the JSON, names the key of every problem, and writes the answer.

use super::unplaced;

use schemars::JsonSchema;
use serde::Serialize;

use crate::model::cost::Economics;
use crate::model::multigrid::{
    self as mg, AlphaPoint, Assignment, Calibration, Cluster, FabricFit, Fit, Infeasibility, Np0Fit, ParallelRun, Plan,
    PlannerInput, PlannerReport, Prediction, Problem, Resolution, RunOverhead, SequentialRun, TcompPoint,
};
use crate::model::workspace::machines;
use crate::model::InputError;

use super::allocation::allocation_help;
use super::request::MultigridRequest;
use super::Subcommand;
use crate::model::allocation::AllocationOptions;
use crate::model::input::request::TextOr;
use crate::model::multigrid::request::{
    ParallelRun as ParRow, PlannerCluster, PlannerRequest, Runs, SequentialRun as SeqRow,
};

pub const COMMAND: Subcommand = Subcommand {
    name: "multigrid",
    summary: "run time and cost on one or two clusters from np = 4 and 8 runs (seed 000)",
    help: HELP,
    run: super::run_command::<MultigridCommand>,
    reads_input: true,
    each: None,
    schema: super::schemas_of::<MultigridCommand>(),
};

const HELP: &str = concat!(
    r#"scalewise multigrid — run time and cost of a multigrid solver on one or two clusters,
predicted from a few runs on one processor and on a few processes (seed 000:
T = Tcomp + Tcomm, Tcomm = α(np) + γ·work, α(np) = c + d·log2(np), γ = γ(largest np0)).

USAGE:
    scalewise multigrid [FILE|-] [--compact] [--allocation md|csv|latex ...]

INPUT (one JSON object; give the runs, a planner, or both):
    sequential        list of runs on one processor:
                        work_mb   memory the process needed, MB (> 0)
                        time_s    run time, s (> 0)
                      at least two distinct work sizes (the paper: N̄ × N and N̄/2 × N rows)
    parallel          list of runs on np0 processes at the same per-process sizes:
                        np        processes, at least 2 (the paper: 4 and 8)
                        work_mb   memory per process, MB; must match a sequential run
                        time_s    run time, s; must not be below the sequential time
                      at least two np0 values, each at two or more work sizes.
                      Repeated rows must agree (average repeats before entering them).
                      Either list may instead be the page's pasted table as one string,
                      read by the page's reader: "work (MB), time (s)\n2048, 1500\n..." and
                      "np work time\n4 2048 1580\n..." (a header with units, or none;
                      commas, tabs or spaces); the answer's rows then carry its "line".
    predict           list of {np, work_mb} to predict (np ≥ 1; np = 1 has no Tcomm; at
                      most 4096)
    planner           optional object:
      n                 grid side N of the N × N problem
      bytes_per_point   memory per grid point, bytes (the paper's code: 32), or instead
      bytes_from_run    {work_mb, rows_per_process, columns} of a calibration run
      clusters          one or two objects:
                          name, free_procs, procs_per_node, memory_per_node_mb,
                          price_per_cpu_hour (price units per CPU-hour, ≥ 0),
                          fabrics: list of {fabric, sequential, parallel}
                          (one calibration per cluster and fabric)
      shared_fabrics    fabric names that join the two clusters (each calibrated on both);
                        only these are used for a job spanning both
      candidate_np      np to try on each cluster alone (at most 4096 in each list)
      pair_candidate_np np to try on each side of a two-cluster job (every pair is tried;
                        at most 16384 pairs per shared fabric)
                        Both default to the powers of two up to the free processes, plus
                        the free processes.

OUTPUT (with runs):
    alpha             {c, d} in s (d per doubling of np), per_np0 [{np0, alpha_s,
                      gamma_s_per_mb, points [{work_mb, tcomm_s, fitted_s, residual_s}]}],
                      residuals [{np0, log2_np0, alpha_s, fitted_s, residual_s}]
    gamma_s_per_mb    γ used for predictions, s/MB; gamma_np0: the np0 it comes from
    tcomp_line        {intercept_s, slope_s_per_mb, residuals [{work_mb, time_s, fitted_s,
                      residual_s}]}: Tcomp for sizes that were not measured
    tcomm             per parallel run: {np, work_mb, time_s, tcomp_s, tcomm_s}
    time_grows_with_work  false when the fit makes time fall with work somewhere
    predictions       [{np, work_mb, tcomp_s, tcomm_s, time_s, time_low_s, time_high_s,
                      notes}]; time_low_s/time_high_s: a 90 % range, how far scaling
                      predictions from a few small runs fell from measured times at the same
                      multiple of the largest calibrated np on real series (VALIDATION.md;
                      this method itself could not be checked there); notes:
                      tcomp_from_line, tcomp_extrapolated, single_process,
                      tcomp_clamped_at_zero, tcomm_clamped_at_zero (a negative part is
                      set to 0 and flagged)
    warnings_at       [{path, message}], every calculator's shape; the planner makes no
                      warnings today, so it is empty
"#,
    allocation_help!(),
    r#"    Rows: the planner's ranking, the fastest plan per process count; efficiency
    relative to the smallest count, n0·t0/(n·t); cost as the planner prices it.

OUTPUT (with a planner):
    planner           {n, bytes_per_point,
                       ranking: feasible options, fastest first: {n, fabric, time_s,
                         time_low_s, time_high_s (90 % range), cpu_hours, cost,
                         parts [{cluster, np, rows, rows_per_process, memory_per_process_mb,
                         prediction, price_per_cpu_hour, cpu_hours,
                         cost}], even_split (two clusters: the same rows per process
                         everywhere, for comparison)},
                       infeasible: [{n, fabric, assignments [{cluster, np}], reason {kind,
                         ...}, why}],
                       resolution: the largest power-of-two N the free processes can hold,
                         {largest {n, best}, smaller {n, best} (N/2), time_ratio,
                         cost_ratio}, or null,
                       notes}
    Two clusters: T = max(T_A, T_B) (inter-cluster messages neglected, as in the paper);
    the rows are split to minimise it under both memory limits. Cost = Σ np·T/3600·price.

EXAMPLE:
    {"sequential": [{"work_mb": 2048, "time_s": 1500}, {"work_mb": 1024, "time_s": 740}],
     "parallel": [{"np": 4, "work_mb": 2048, "time_s": 1580},
                  {"np": 4, "work_mb": 1024, "time_s": 800},
                  {"np": 8, "work_mb": 2048, "time_s": 1610},
                  {"np": 8, "work_mb": 1024, "time_s": 825}],
     "predict": [{"np": 64, "work_mb": 2048}]}
    answers alpha {c: 0, d: 20}, gamma_s_per_mb 0.0244140625 and T(64) = 1670 s.

ERRORS:
    One line naming the key, e.g. "parallel[2].time_s: time (s) must be greater than 0,
    found -3"; several problems are joined with "; ". Exit status 1.
"#
);

/// `scalewise multigrid` as a [`super::Command`].
struct MultigridCommand;

/// What `multigrid` computed: the fit and its predictions (with runs), the plan (with a
/// planner).
struct Computed {
    fit: Option<Fit>,
    predictions: Option<Vec<Prediction>>,
    planned: Option<(PlannerInput, PlannerReport)>,
}

impl super::Command for MultigridCommand {
    type Request = MultigridRequest;
    type Computed = Computed;
    type Answer<'a> = MultigridAnswer<'a>;

    fn compute(r: MultigridRequest) -> Result<Computed, InputError> {
        compute(r)
    }

    fn answer(c: &Computed) -> MultigridAnswer<'_> {
        MultigridAnswer {
            fit: c.fit.as_ref().map(FitOut::new),
            predictions: c.predictions.as_deref(),
            planner: c.planned.as_ref().map(|(input, report)| PlannerOut::new(input, report)),
            warnings_at: Vec::new(),
        }
    }

    fn allocation(c: &Computed, o: &AllocationOptions) -> super::allocation::Table {
        super::allocation::of_plans(c.planned.as_ref().map_or(&[], |(_, report)| &report.ranking), o)
    }
}

fn compute(r: MultigridRequest) -> Result<Computed, InputError> {
    let cal = calibration(r.sequential.as_ref(), r.parallel.as_ref(), "")?;
    let (predict, planner) = (r.predict, r.planner);
    if cal.is_none() && predict.is_some() {
        return Err(InputError::new("predict", "needs the sequential and parallel runs to fit first"));
    }
    if cal.is_none() && planner.is_none() {
        return Err(InputError::new(
            "input",
            "give sequential and parallel runs, a planner, or both; see 'scalewise multigrid --help'",
        ));
    }
    let fit = cal.map(|cal| fit_or_error(&cal, "")).transpose()?;
    let mut predictions = None;
    if let Some(fit) = &fit {
        let wanted = predict.unwrap_or_default();
        super::at_most(&wanted, crate::model::multigrid::MAX_PREDICT, "(np, work) pairs")?;
        let mut list = Vec::with_capacity(wanted.len());
        for (i, t) in wanted.iter().enumerate() {
            let path = format!("predict[{i}]");
            let p = fit.predict(t.np, t.work_mb).map_err(|e| unplaced(format!("{path}.{}: {}", e.field, e.message)))?;
            list.push(p);
        }
        predictions = Some(list);
    }
    let planned = planner.map(plan_of).transpose()?;
    Ok(Computed { fit, predictions, planned })
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

fn dot(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// The runs of "sequential" and "parallel" (lists, or the page's pasted tables read by its
/// readers), if either is there.
fn calibration(
    seq: Option<&Runs<SeqRow>>,
    par: Option<&Runs<ParRow>>,
    prefix: &str,
) -> Result<Option<Calibration>, InputError> {
    if seq.is_none() && par.is_none() {
        return Ok(None);
    }
    let mut cal = Calibration::default();
    let seq_path = dot(prefix, "sequential");
    let par_path = dot(prefix, "parallel");
    match seq {
        Some(TextOr::Text(t)) => cal.sequential = mg::page::sequential_runs(&seq_path, t)?,
        Some(TextOr::Value(rows)) => {
            cal.sequential = rows.iter().map(|r| SequentialRun::new(r.work_mb, r.time_s)).collect()
        }
        None => {}
    }
    match par {
        Some(TextOr::Text(t)) => cal.parallel = mg::page::parallel_runs(&par_path, t)?,
        Some(TextOr::Value(rows)) => {
            cal.parallel = rows.iter().map(|r| ParallelRun::new(r.np, r.work_mb, r.time_s)).collect()
        }
        None => {}
    }
    Ok(Some(cal))
}

/// Rewrites the model's "row k" (1-based) as the JSON path "table[k−1]".
fn rows_to_paths(message: &str, table_path: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(pos) = rest.find("row ") {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + 4..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        match after[..digits].parse::<usize>() {
            Ok(k) if k >= 1 => {
                out.push_str(&format!("{table_path}[{}]", k - 1));
                rest = &after[digits..];
            }
            _ => {
                out.push_str("row ");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// One model error as "path[index].key: what is wrong".
fn calibration_error(e: &InputError, prefix: &str) -> String {
    let (table, columns): (&str, &[&str]) = if e.field == mg::SEQUENTIAL_FIELD {
        ("sequential", &mg::SEQUENTIAL_COLUMNS)
    } else if e.field == mg::PARALLEL_FIELD {
        ("parallel", &mg::PARALLEL_COLUMNS)
    } else {
        return format!("{}{e}", if prefix.is_empty() { String::new() } else { format!("{prefix}: ") });
    };
    let table_path = dot(prefix, table);
    let mut message = e.message.as_str();
    let mut row = None;
    if let Some((k, rest)) = message.strip_prefix("row ").and_then(|r| r.split_once(": ")) {
        if let Ok(k) = k.parse::<usize>() {
            row = Some(k);
            message = rest;
        }
    }
    let mut key = table_path.clone();
    if let Some(k) = row.filter(|&k| k >= 1) {
        key.push_str(&format!("[{}]", k - 1));
        if let Some(name) = e.column.and_then(|c| c.checked_sub(1)).and_then(|c| columns.get(c)) {
            key.push('.');
            key.push_str(name);
        }
    }
    format!("{key}: {}", rows_to_paths(message, &table_path))
}

fn fit_or_error(cal: &Calibration, prefix: &str) -> Result<Fit, InputError> {
    // Every error of the runs, in one sentence that names each one's key.
    mg::fit(cal)
        .map_err(|errors| unplaced(errors.iter().map(|e| calibration_error(e, prefix)).collect::<Vec<_>>().join("; ")))
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/// `scalewise multigrid`'s answer: the fit and predictions (with runs), the planner's (with
/// a planner), or both.
#[derive(Serialize, JsonSchema)]
pub struct MultigridAnswer<'a> {
    #[serde(flatten)]
    fit: Option<FitOut<'a>>,
    /// With runs: one per (np, work) asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    predictions: Option<&'a [Prediction]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    planner: Option<PlannerOut<'a>>,
    /// Every calculator's answer has it; the planner makes no warnings today, so it is empty.
    warnings_at: Vec<crate::model::Warning>,
}

#[derive(Serialize, JsonSchema)]
struct AlphaOut<'a> {
    c: f64,
    d: f64,
    per_np0: &'a [Np0Fit],
    residuals: &'a [AlphaPoint],
}

#[derive(Serialize, JsonSchema)]
struct TcompOut<'a> {
    intercept_s: f64,
    slope_s_per_mb: f64,
    residuals: &'a [TcompPoint],
}

#[derive(Serialize, JsonSchema)]
struct FitOut<'a> {
    alpha: AlphaOut<'a>,
    gamma_s_per_mb: f64,
    gamma_np0: u32,
    tcomp_line: TcompOut<'a>,
    tcomm: &'a [RunOverhead],
    time_grows_with_work: bool,
}

impl<'a> FitOut<'a> {
    fn new(f: &'a Fit) -> Self {
        FitOut {
            alpha: AlphaOut { c: f.alpha.c_s, d: f.alpha.d_s, per_np0: &f.per_np0, residuals: &f.alpha.points },
            gamma_s_per_mb: f.gamma_s_per_mb,
            gamma_np0: f.gamma_np0,
            tcomp_line: TcompOut {
                intercept_s: f.tcomp.intercept_s,
                slope_s_per_mb: f.tcomp.slope_s_per_mb,
                residuals: &f.tcomp.points,
            },
            tcomm: &f.runs,
            time_grows_with_work: f.time_grows_with_work(),
        }
    }
}

#[derive(Serialize, JsonSchema)]
struct InfeasibleOut<'a> {
    n: u32,
    fabric: &'a str,
    assignments: &'a [Assignment],
    reason: &'a Infeasibility,
    why: String,
}

#[derive(Serialize, JsonSchema)]
struct PlannerOut<'a> {
    n: u32,
    bytes_per_point: f64,
    ranking: &'a [Plan],
    infeasible: Vec<InfeasibleOut<'a>>,
    resolution: &'a Option<Resolution>,
    notes: &'a [String],
}

// ---------------------------------------------------------------------------------------------
// Planner
// ---------------------------------------------------------------------------------------------

fn np_list(list: Option<Vec<u32>>, path: &str, key: &str) -> Result<Option<Vec<u32>>, InputError> {
    if let Some(l) = &list {
        if l.is_empty() {
            return Err(InputError::new(
                format!("{path}.{key}"),
                "the list is empty; leave the key out for the default",
            ));
        }
        if let Some(i) = l.iter().position(|&np| np == 0) {
            return Err(InputError::new(format!("{path}.{key}[{i}]"), "0 processes is not a candidate"));
        }
    }
    Ok(list)
}

/// A planner cluster's own keys, or a catalog machine's figures where a key is left out.
struct ClusterKeys {
    name: String,
    free_procs: u32,
    procs_per_node: u32,
    memory_per_node_mb: f64,
    price_per_cpu_hour: f64,
    economics: Economics,
}

fn cluster_keys(c: &PlannerCluster, path: &str) -> Result<ClusterKeys, InputError> {
    let machine = match &c.catalog {
        Some(id) => Some(machines::full().cluster(id).cloned().ok_or_else(|| {
            InputError::new(format!("{path}.catalog"), format!("no machine \"{id}\" in `scalewise catalog`"))
        })?),
        None => None,
    };
    let missing =
        |key: &str| InputError::new(format!("{path}.{key}"), "missing (give it, or name a machine with \"catalog\")");
    let m = machine.as_ref();
    let name = c.name.clone().or_else(|| m.map(|m| m.name.clone())).ok_or_else(|| missing("name"))?;
    let procs_per_node =
        c.procs_per_node.or_else(|| m.map(|m| m.cores_per_node)).ok_or_else(|| missing("procs_per_node"))?;
    if procs_per_node == 0 {
        return Err(InputError::new(format!("{path}.procs_per_node"), "must be at least 1, found 0"));
    }
    let free_procs = match (c.free_procs, c.nodes, m) {
        (Some(f), _, _) => f,
        (None, Some(nodes), _) => nodes.saturating_mul(procs_per_node),
        (None, None, Some(m)) => m.nodes.saturating_mul(procs_per_node),
        (None, None, None) => return Err(missing("free_procs")),
    };
    let memory_per_node_mb = c
        .memory_per_node_mb
        .or_else(|| m.filter(|m| m.memory_per_node_gb > 0.0).map(|m| m.memory_per_node_gb * 1024.0))
        .ok_or_else(|| missing("memory_per_node_mb"))?;
    let price_per_cpu_hour = c
        .price_per_cpu_hour
        .or_else(|| m.map(|m| m.price_per_cpu_hour))
        .ok_or_else(|| missing("price_per_cpu_hour"))?;
    let mut economics = m.map(Economics::of).unwrap_or_default();
    economics.cores_per_node =
        c.cores_per_node.unwrap_or(if m.is_some() { economics.cores_per_node } else { procs_per_node });
    if economics.cores_per_node < procs_per_node {
        return Err(InputError::new(
            format!("{path}.cores_per_node"),
            format!("{} cores per node cannot run {procs_per_node} processes per node", economics.cores_per_node),
        ));
    }
    Ok(ClusterKeys { name, free_procs, procs_per_node, memory_per_node_mb, price_per_cpu_hour, economics })
}

fn read_cluster(c: &PlannerCluster, path: &str) -> Result<Cluster, InputError> {
    let k = cluster_keys(c, path)?;
    if k.name.trim().is_empty() {
        return Err(InputError::new(format!("{path}.name"), "must not be empty"));
    }
    if k.free_procs == 0 {
        return Err(InputError::new(format!("{path}.free_procs"), "must be at least 1, found 0"));
    }
    if k.memory_per_node_mb <= 0.0 {
        return Err(InputError::new(
            format!("{path}.memory_per_node_mb"),
            format!("must be greater than 0, found {}", k.memory_per_node_mb),
        ));
    }
    if k.price_per_cpu_hour < 0.0 {
        return Err(InputError::new(
            format!("{path}.price_per_cpu_hour"),
            format!("must be at least 0, found {}", k.price_per_cpu_hour),
        ));
    }
    let fabrics_path = format!("{path}.fabrics");
    if c.fabrics.is_empty() {
        return Err(InputError::new(fabrics_path, "at least one calibrated fabric is needed"));
    }
    let mut fabrics: Vec<FabricFit> = Vec::with_capacity(c.fabrics.len());
    for (j, f) in c.fabrics.iter().enumerate() {
        let fpath = format!("{fabrics_path}[{j}]");
        if f.fabric.trim().is_empty() {
            return Err(InputError::new(format!("{fpath}.fabric"), "must not be empty"));
        }
        if let Some(k) = fabrics.iter().position(|g| g.fabric == f.fabric) {
            return Err(InputError::new(
                format!("{fpath}.fabric"),
                format!("\"{}\" is already calibrated at {fabrics_path}[{k}]", f.fabric),
            ));
        }
        let cal = calibration(f.sequential.as_ref(), f.parallel.as_ref(), &fpath)?
            .ok_or_else(|| InputError::new(&fpath, "missing keys \"sequential\" and \"parallel\""))?;
        fabrics.push(FabricFit { fabric: f.fabric.clone(), fit: fit_or_error(&cal, &fpath)? });
    }
    Ok(Cluster {
        name: k.name,
        free_procs: k.free_procs,
        procs_per_node: k.procs_per_node,
        memory_per_node_mb: k.memory_per_node_mb,
        price_per_cpu_hour: k.price_per_cpu_hour,
        fabrics,
        economics: k.economics,
    })
}

fn read_planner(p: PlannerRequest) -> Result<PlannerInput, InputError> {
    let path = "planner";
    let n = p.n;
    if n < 2 {
        return Err(InputError::new("planner.n", format!("the grid side must be at least 2, found {n}")));
    }
    let bytes_per_point = match (p.bytes_per_point, &p.bytes_from_run) {
        (Some(b), None) => {
            if b <= 0.0 {
                return Err(InputError::new("planner.bytes_per_point", format!("must be greater than 0, found {b}")));
            }
            b
        }
        (None, Some(r)) => {
            let rpath = "planner.bytes_from_run";
            mg::bytes_per_point(r.work_mb, r.rows_per_process, r.columns)
                .map_err(|e| unplaced(format!("{rpath}.{}: {}", e.field.replace(' ', "_"), e.message)))?
        }
        (Some(_), Some(_)) => {
            return Err(InputError::new("planner", "give bytes_per_point or bytes_from_run, not both"))
        }
        (None, None) => {
            return Err(InputError::new("planner", "missing key \"bytes_per_point\" (or \"bytes_from_run\")"))
        }
    };
    let cpath = "planner.clusters";
    if p.clusters.is_empty() || p.clusters.len() > 2 {
        return Err(InputError::new(cpath, format!("one or two clusters are needed, found {}", p.clusters.len())));
    }
    let mut clusters: Vec<Cluster> = Vec::with_capacity(2);
    for (i, c) in p.clusters.iter().enumerate() {
        let c = read_cluster(c, &format!("{cpath}[{i}]"))?;
        if clusters.iter().any(|o| o.name == c.name) {
            return Err(InputError::new(format!("{cpath}[{i}].name"), format!("\"{}\" names two clusters", c.name)));
        }
        clusters.push(c);
    }
    let shared_fabrics: Vec<String> = p.shared_fabrics.unwrap_or_default();
    if clusters.len() < 2 && !shared_fabrics.is_empty() {
        return Err(InputError::new("planner.shared_fabrics", "need two clusters"));
    }
    for (i, s) in shared_fabrics.iter().enumerate() {
        if shared_fabrics[..i].contains(s) {
            return Err(InputError::new(format!("planner.shared_fabrics[{i}]"), format!("\"{s}\" is listed twice")));
        }
        for (ci, c) in clusters.iter().enumerate() {
            if !c.fabrics.iter().any(|f| &f.fabric == s) {
                return Err(InputError::new(
                    format!("planner.shared_fabrics[{i}]"),
                    format!("\"{s}\" has no calibration on cluster {} ({cpath}[{ci}].fabrics)", c.name),
                ));
            }
        }
    }
    let candidate_np = np_list(p.candidate_np, path, "candidate_np")?;
    let pair_candidate_np = np_list(p.pair_candidate_np, path, "pair_candidate_np")?;
    Ok(PlannerInput {
        clusters,
        shared_fabrics,
        problem: Problem { n, bytes_per_point },
        candidate_np,
        pair_candidate_np,
    })
}

/// The planner read and run.
fn plan_of(p: PlannerRequest) -> Result<(PlannerInput, PlannerReport), InputError> {
    let input = read_planner(p)?;
    let report = mg::plan(&input)
        .map_err(|errors| unplaced(errors.iter().map(|e| format!("planner: {e}")).collect::<Vec<_>>().join("; ")))?;
    Ok((input, report))
}

impl<'a> PlannerOut<'a> {
    fn new(input: &PlannerInput, report: &'a PlannerReport) -> Self {
        PlannerOut {
            n: report.n,
            bytes_per_point: input.problem.bytes_per_point,
            ranking: &report.ranking,
            infeasible: report
                .infeasible
                .iter()
                .map(|o| InfeasibleOut {
                    n: o.n,
                    fabric: &o.fabric,
                    assignments: &o.assignments,
                    reason: &o.reason,
                    why: o.reason.text(),
                })
                .collect(),
            resolution: &report.resolution,
            notes: &report.notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn runs(k: f64) -> Value {
        json!({
            "sequential": [{"work_mb": 2048, "time_s": 1500.0 * k}, {"work_mb": 1024, "time_s": 740.0 * k}],
            "parallel": [
                {"np": 4, "work_mb": 2048, "time_s": 1580.0 * k}, {"np": 4, "work_mb": 1024, "time_s": 800.0 * k},
                {"np": 8, "work_mb": 2048, "time_s": 1610.0 * k}, {"np": 8, "work_mb": 1024, "time_s": 825.0 * k}
            ]
        })
    }

    fn with(mut base: Value, key: &str, v: Value) -> Value {
        base[key] = v;
        base
    }

    fn num(v: &Value) -> f64 {
        v.as_f64().unwrap_or(f64::NAN)
    }

    #[test]
    fn worked_example() {
        let input = with(runs(1.0), "predict", json!([{"np": 64, "work_mb": 2048}, {"np": 64, "work_mb": 1536}]));
        let out = super::super::run_json(&COMMAND, input, &[]).expect("valid");
        let cases = [
            ("alpha.c", &out["alpha"]["c"], 0.0),
            ("alpha.d", &out["alpha"]["d"], 20.0),
            ("gamma", &out["gamma_s_per_mb"], 25.0 / 1024.0),
            ("alpha(4)", &out["alpha"]["per_np0"][0]["alpha_s"], 40.0),
            ("tcomm of run 3", &out["tcomm"][2]["tcomm_s"], 110.0),
            ("T(64)", &out["predictions"][0]["time_s"], 1670.0),
            ("Tcomm(64)", &out["predictions"][0]["tcomm_s"], 170.0),
            ("Tcomp at 1536 MB from the line", &out["predictions"][1]["tcomp_s"], 740.0 + 760.0 / 1024.0 * 512.0),
        ];
        for (name, got, want) in cases {
            assert!((num(got) - want).abs() < 1e-9, "{name}: {got} vs {want}");
        }
        assert_eq!(out["predictions"][0]["np"], json!(64));
        assert_eq!(out["predictions"][1]["notes"], json!(["tcomp_from_line"]));
        assert_eq!(out["gamma_np0"], json!(8));
        assert_eq!(out["time_grows_with_work"], json!(true));
    }

    #[test]
    fn errors_name_the_key() {
        let bad_time = {
            let mut v = runs(1.0);
            v["parallel"][2]["time_s"] = json!(-3);
            v
        };
        let dup = {
            let mut v = runs(1.0);
            if let Some(a) = v["sequential"].as_array_mut() {
                a.push(json!({"work_mb": 2048, "time_s": 1510}));
            }
            v
        };
        let no_tcomp = {
            let mut v = runs(1.0);
            v["parallel"][3]["work_mb"] = json!(512);
            v
        };
        let cases = [
            ("negative time", bad_time, "parallel[2].time_s: time (s) must be greater than 0, found -3"),
            ("duplicate with another time", dup, "sequential[2]: same work size (2048 MB) as sequential[0]"),
            ("no Tcomp", no_tcomp, "parallel[3].work_mb: no sequential run at 512 MB"),
            (
                "missing key",
                json!({"sequential": [{"work_mb": 1}], "parallel": []}),
                "sequential[0]: missing key \"time_s\"",
            ),
            (
                "wrong type",
                json!({"sequential": [{"work_mb": "big", "time_s": 1}]}),
                "sequential[0].work_mb: expected a number, found a string",
            ),
            ("unknown key", json!({"sequential": [], "paralel": []}), "input: unknown key \"paralel\""),
            (
                "row with a typo",
                json!({"sequential": [{"work_mb": 1, "time": 1}]}),
                "sequential[0]: unknown key \"time\"",
            ),
            (
                "one work size",
                json!({"sequential": [{"work_mb": 2048, "time_s": 1500}], "parallel": []}),
                "sequential: only one work size (2048 MB)",
            ),
            ("bad predict np", with(runs(1.0), "predict", json!([{"np": 0, "work_mb": 2048}])), "predict[0].np: "),
            ("bad predict work", with(runs(1.0), "predict", json!([{"np": 8, "work_mb": -1}])), "predict[0].work_mb: "),
            ("predict without runs", json!({"predict": []}), "predict: needs the sequential and parallel runs"),
            ("nothing", json!({}), "give sequential and parallel runs, a planner, or both"),
            ("not an object", json!([1, 2]), "input: expected an object, found a list"),
        ];
        for (name, input, want) in cases {
            let err = super::super::run_json(&COMMAND, input, &[]).map_err(|e| crate::cli::said(&e)).expect_err(name);
            assert!(err.contains(want), "{name}: {err}");
            assert!(!err.contains('\n'), "{name}: one line: {err}");
        }
    }

    #[test]
    fn all_calibration_problems_in_one_line() {
        let mut v = runs(1.0);
        v["sequential"][0]["time_s"] = json!(0);
        v["parallel"][1]["np"] = json!(1);
        let err = super::super::run_json(&COMMAND, v, &[]).map_err(|e| crate::cli::said(&e)).expect_err("two bad rows");
        assert!(
            err.contains("sequential[0].time_s: ") && err.contains("; parallel[1].np: np must be at least 2"),
            "{err}"
        );
    }

    fn cluster(name: &str, free: u32, ppn: u32, mem: f64, price: f64, fabrics: &[(&str, f64)]) -> Value {
        let fabrics: Vec<Value> = fabrics
            .iter()
            .map(|&(f, k)| {
                let mut r = runs(k);
                r["fabric"] = json!(f);
                r
            })
            .collect();
        json!({"name": name, "free_procs": free, "procs_per_node": ppn, "memory_per_node_mb": mem,
               "price_per_cpu_hour": price, "fabrics": fabrics})
    }

    /// Table I's setting: 64 free on A (one process per 2 GB node), 32 on B (4 per 8 GB node).
    fn table1() -> Value {
        json!({
            "n": 65536, "bytes_per_point": 32,
            "clusters": [
                cluster("A", 64, 1, 2048.0, 1.0, &[("Fast Ethernet", 1.0), ("Myrinet", 0.7)]),
                cluster("B", 32, 4, 8192.0, 2.0, &[("Fast Ethernet", 0.6), ("Myrinet", 0.4)])
            ],
            "shared_fabrics": ["Fast Ethernet"]
        })
    }

    #[test]
    fn planner_table1() {
        let out = super::super::run_json(&COMMAND, json!({"planner": table1()}), &[]).expect("valid");
        let p = &out["planner"];
        let ranking = p["ranking"].as_array().expect("a list");
        assert!(!ranking.is_empty());
        let times: Vec<f64> = ranking.iter().map(|o| num(&o["time_s"])).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "fastest first: {times:?}");
        // 64 + 32 over Fast Ethernet is ranked, with its best split and the even split.
        let both = ranking
            .iter()
            .find(|o| {
                o["parts"]
                    .as_array()
                    .is_some_and(|a| a.len() == 2 && a[0]["np"] == json!(64) && a[1]["np"] == json!(32))
            })
            .expect("A 64 + B 32");
        assert_eq!(both["fabric"], json!("Fast Ethernet"));
        assert_eq!(num(&both["parts"][0]["rows"]) + num(&both["parts"][1]["rows"]), 65536.0);
        assert_eq!(both["even_split"]["status"], json!("feasible"));
        assert!(num(&both["time_s"]) <= num(&both["even_split"]["time_s"]));
        // No job spans both clusters over Myrinet.
        assert!(ranking
            .iter()
            .all(|o| o["parts"].as_array().is_some_and(|a| a.len() == 1) || o["fabric"] == json!("Fast Ethernet")));
        // B alone on 32 cannot hold 65536² (4 GB per core, Table I).
        let infeasible = p["infeasible"].as_array().expect("a list");
        let b32 = infeasible
            .iter()
            .find(|o| o["assignments"] == json!([{"cluster": "B", "np": 32}]) && o["fabric"] == json!("Myrinet"))
            .expect("B alone on 32 is listed as infeasible");
        assert_eq!(b32["reason"]["kind"], json!("memory_per_process"));
        assert!(b32["why"].as_str().is_some_and(|w| w.contains("4096 MB per process on B")), "{b32}");
        assert_eq!(p["resolution"]["largest"]["n"], json!(65536));
        assert_eq!(p["resolution"]["smaller"]["n"], json!(32768));
    }

    #[test]
    fn planner_bytes_from_a_run_and_errors() {
        let mut t = table1();
        t.as_object_mut().map(|m| m.remove("bytes_per_point"));
        t["bytes_from_run"] = json!({"work_mb": 2048, "rows_per_process": 1024, "columns": 65536});
        let out = super::super::run_json(&COMMAND, json!({"planner": t.clone()}), &[]).expect("valid");
        assert_eq!(out["planner"]["bytes_per_point"], json!(32.0));

        let edit = |f: &dyn Fn(&mut Value)| {
            let mut v = table1();
            f(&mut v);
            json!({ "planner": v })
        };
        let cases = [
            (
                "zero procs per node",
                edit(&|v| v["clusters"][1]["procs_per_node"] = json!(0)),
                "planner.clusters[1].procs_per_node: must be at least 1",
            ),
            (
                "shared fabric unknown",
                edit(&|v| v["shared_fabrics"] = json!(["InfiniBand"])),
                "planner.shared_fabrics[0]: \"InfiniBand\" has no calibration on cluster A",
            ),
            (
                "bad calibration in a cluster",
                edit(&|v| v["clusters"][0]["fabrics"][1]["parallel"][0]["time_s"] = json!(0)),
                "planner.clusters[0].fabrics[1].parallel[0].time_s: ",
            ),
            (
                "three clusters",
                edit(&|v| v["clusters"].as_array_mut().into_iter().for_each(|a| a.push(a[0].clone()))),
                "planner.clusters: one or two clusters",
            ),
            ("candidate 0", edit(&|v| v["candidate_np"] = json!([4, 0])), "planner.candidate_np[1]: 0 processes"),
            (
                "too many pairs",
                edit(&|v| v["pair_candidate_np"] = json!((1..=200).collect::<Vec<u32>>())),
                "planner: pair candidate np: 200 × 200",
            ),
            (
                "both byte keys",
                edit(&|v| v["bytes_from_run"] = json!({"work_mb": 1, "rows_per_process": 1, "columns": 1})),
                "not both",
            ),
            (
                "bad row count",
                edit(&|v| {
                    v.as_object_mut().map(|m| m.remove("bytes_per_point"));
                    v["bytes_from_run"] = json!({"work_mb": 1, "rows_per_process": 0, "columns": 1});
                }),
                "planner.bytes_from_run.rows_per_process: ",
            ),
        ];
        for (name, input, want) in cases {
            let err = super::super::run_json(&COMMAND, input, &[]).map_err(|e| crate::cli::said(&e)).expect_err(name);
            assert!(err.contains(want), "{name}: {err}");
        }
    }

    #[test]
    fn help_documents_every_input_key() {
        for key in [
            "sequential",
            "parallel",
            "predict",
            "work_mb",
            "time_s",
            "np",
            "planner",
            "bytes_per_point",
            "bytes_from_run",
            "free_procs",
            "procs_per_node",
            "memory_per_node_mb",
            "price_per_cpu_hour",
            "fabrics",
            "shared_fabrics",
            "candidate_np",
            "pair_candidate_np",
            "gamma_s_per_mb",
            "predictions",
            "ranking",
            "infeasible",
            "resolution",
        ] {
            assert!(COMMAND.help.contains(key), "help lacks {key}");
        }
    }
}

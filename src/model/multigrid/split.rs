//! One configuration planned: one cluster alone on np processes ([`plan_alone`]), or one job
//! over two clusters ([`plan_pair`]) with the split of rows that minimises its time; whether it
//! can run at all, and why not ([`Infeasibility`]).
//!
//! Seed: `seeds/000_36e595e86e3acfcd.txt`, section V.B (one job over two clusters, equation
//! (5)). Spec: `shared/spec/multigrid.md`.
//!
//! np_A processes on A hold N_A rows each, np_B on B hold N_B (the last processes may hold one
//! row fewer); np_A·N_A + np_B·N_B ≥ N and every process holds at least one row. Each side is
//! predicted with its own calibration over the shared fabric, and T = max(T_A, T_B) (5): the
//! paper neglects inter-cluster messages against the imbalance. [`plan_pair`] finds the
//! integer split minimising (5) under both memory limits by bisection on N_A (exact to the
//! row when the predicted time grows with work on both sides, see
//! [`Fit::time_grows_with_work`]), and reports the even split (same rows per process
//! everywhere) next to it.

use serde::{Deserialize, Serialize};

use super::calibration::{Fit, Prediction};
use super::problem::{cost, ClusterSide, CpuUse, Problem};
use super::{ceil_div, num};
use crate::model::cost::{bill, place, total, Bill, Economics, Money, Placement};
use crate::model::error::InputError;

/// Why a configuration cannot run. `text()` says it for people.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Infeasibility {
    /// More processes asked for than are free.
    NotEnoughFreeProcs { cluster: String, np: u32, free_procs: u32 },
    /// More processes than grid rows: some would hold none.
    MoreProcsThanRows { np: u64, rows: u64 },
    /// The fullest process needs more memory than a process has.
    MemoryPerProcess { cluster: String, need_mb: f64, have_mb: f64 },
    /// Two clusters: even with every process at its memory limit the rows do not fit.
    RowsDoNotFit { rows: u64, max_rows: u64 },
    /// The clusters are not joined by this fabric (or one side is not calibrated over it).
    FabricNotShared { fabric: String },
    /// The prediction overflowed (absurdly large inputs).
    PredictionOutOfRange,
}

impl Infeasibility {
    pub fn text(&self) -> String {
        match self {
            Infeasibility::NotEnoughFreeProcs { cluster, np, free_procs } => {
                format!("{np} processes asked for on {cluster}, but only {free_procs} are free")
            }
            Infeasibility::MoreProcsThanRows { np, rows } => {
                format!("{np} processes for {rows} rows: some processes would hold no row")
            }
            Infeasibility::MemoryPerProcess { cluster, need_mb, have_mb } => format!(
                "needs {} MB per process on {cluster}, but a process there has {} MB",
                num(*need_mb),
                num(*have_mb)
            ),
            Infeasibility::RowsDoNotFit { rows, max_rows } => {
                format!("the memory of these processes holds at most {max_rows} of the {rows} rows")
            }
            Infeasibility::FabricNotShared { fabric } => format!("{fabric} does not join the two clusters"),
            Infeasibility::PredictionOutOfRange => "the predicted time is too large to represent".to_string(),
        }
    }
}

/// One cluster's share of an option.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Part {
    pub cluster: String,
    pub np: u32,
    /// Rows of the grid on this cluster.
    pub rows: u64,
    /// Rows on its fullest process (the others hold this many or one fewer).
    pub rows_per_process: u64,
    pub memory_per_process_mb: f64,
    /// This side's predicted time (the job takes the largest over the parts).
    pub prediction: Prediction,
    pub price_per_cpu_hour: f64,
    /// CPU-hours and cost of this cluster's processes, held for the whole job.
    pub cpu_hours: f64,
    pub cost: f64,
    /// The processes per node, the nodes held and the cores they leave idle.
    #[serde(default)]
    pub placement: Placement,
    /// What the nodes held are billed and use for the whole job: node-hours, the price in the
    /// machine's currency and unit, energy, carbon.
    #[serde(default)]
    pub bill: Bill,
    #[serde(skip)]
    economics: Economics,
}

/// The even split of a two-cluster job: the same rows per process everywhere.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum EvenSplit {
    Feasible { rows_per_process: u64, time_s: f64, cpu_hours: f64, cost: f64 },
    Infeasible { rows_per_process: u64, reason: Infeasibility },
}

/// A feasible option with its predicted time and cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Plan {
    /// Grid side N.
    pub n: u32,
    pub fabric: String,
    /// One part per cluster used.
    pub parts: Vec<Part>,
    /// max over the parts (equation (5)).
    pub time_s: f64,
    /// The 90 % range of `time_s`: the max over the parts of their ranges.
    #[serde(default)]
    pub time_low_s: f64,
    #[serde(default)]
    pub time_high_s: f64,
    pub cpu_hours: f64,
    pub cost: f64,
    /// Nodes held by every part × hours (whole nodes billed).
    #[serde(default)]
    pub node_hours: f64,
    /// What the job is billed, when every part has a price in one currency and unit.
    #[serde(default)]
    pub price: Option<Money>,
    #[serde(default)]
    pub energy_kwh: Option<f64>,
    #[serde(default)]
    pub co2e_kg: Option<f64>,
    /// For two clusters: the even split next to the best one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub even_split: Option<EvenSplit>,
}

impl Plan {
    pub fn total_np(&self) -> u64 {
        self.parts.iter().map(|p| u64::from(p.np)).sum()
    }
}

/// Processes on one cluster in an option.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Assignment {
    pub cluster: String,
    pub np: u32,
}

/// An option that cannot run, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct InfeasibleOption {
    pub n: u32,
    pub fabric: String,
    pub assignments: Vec<Assignment>,
    pub reason: Infeasibility,
}

/// The answer for one configuration: a plan, or why there is none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    Feasible(Plan),
    Infeasible(InfeasibleOption),
}

/// One cluster over one fabric with its calibration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Side<'a> {
    pub cluster: &'a ClusterSide,
    pub fit: &'a Fit,
}

/// A side ready for the search: the problem's sizes and the memory limit in rows.
pub(super) struct SideCtx<'a> {
    pub(super) cluster: &'a ClusterSide,
    fit: &'a Fit,
    problem: &'a Problem,
    pub(super) n: u64,
    pub(super) max_rows: u64,
}

/// A candidate np on one side with its α (None: one process).
#[derive(Debug, Clone, Copy)]
pub(super) struct Cand {
    pub(super) np: u32,
    alpha: Option<f64>,
}

impl<'a> SideCtx<'a> {
    pub(super) fn new(cluster: &'a ClusterSide, fit: &'a Fit, problem: &'a Problem) -> Self {
        SideCtx { cluster, fit, problem, n: u64::from(problem.n), max_rows: cluster.max_rows_per_process(problem) }
    }

    pub(super) fn cand(&self, np: u32) -> Cand {
        Cand { np, alpha: self.fit.alpha_for(np) }
    }

    pub(super) fn time(&self, c: &Cand, rows_per_process: u64) -> f64 {
        self.fit.time_at(c.alpha, self.problem.work_mb_for_rows(rows_per_process))
    }

    fn memory_error(&self, rows_per_process: u64) -> Infeasibility {
        Infeasibility::MemoryPerProcess {
            cluster: self.cluster.name.clone(),
            need_mb: self.problem.work_mb_for_rows(rows_per_process),
            have_mb: self.cluster.memory_per_process_mb(),
        }
    }

    fn part(&self, c: &Cand, rows: u64, rows_per_process: u64) -> Part {
        let work = self.problem.work_mb_for_rows(rows_per_process);
        Part {
            cluster: self.cluster.name.clone(),
            np: c.np,
            rows,
            rows_per_process,
            memory_per_process_mb: self.cluster.memory_per_process_mb(),
            prediction: self.fit.evaluate(c.np, c.alpha, work),
            price_per_cpu_hour: self.cluster.price_per_cpu_hour,
            cpu_hours: 0.0,
            cost: 0.0,
            placement: place(u64::from(c.np), self.cluster.procs_per_node, self.cluster.economics.cores_per_node),
            bill: Bill::default(),
            economics: self.cluster.economics.clone(),
        }
    }
}

fn finish_plan(
    n: u32,
    fabric: &str,
    mut parts: Vec<Part>,
    even_split: Option<EvenSplit>,
) -> Result<Plan, Infeasibility> {
    let time_s = parts.iter().map(|p| p.prediction.time_s).fold(0.0, f64::max);
    if !time_s.is_finite() {
        return Err(Infeasibility::PredictionOutOfRange);
    }
    for p in &mut parts {
        let c = cost(&[CpuUse { np: p.np, price_per_cpu_hour: p.price_per_cpu_hour }], time_s);
        p.cpu_hours = c.cpu_hours;
        p.cost = c.cost;
        p.bill = bill(&p.economics, &p.placement, time_s, 1.0);
    }
    let cpu_hours = parts.iter().map(|p| p.cpu_hours).sum();
    let cost = parts.iter().map(|p| p.cost).sum();
    let time_low_s = parts.iter().map(|p| p.prediction.time_low_s).fold(0.0, f64::max);
    let time_high_s = parts.iter().map(|p| p.prediction.time_high_s).fold(0.0, f64::max);
    let billed = total(&parts.iter().map(|p| p.bill.clone()).collect::<Vec<_>>());
    Ok(Plan {
        n,
        fabric: fabric.to_string(),
        parts,
        time_s,
        time_low_s,
        time_high_s,
        cpu_hours,
        cost,
        node_hours: billed.node_hours,
        price: billed.price,
        energy_kwh: billed.energy_kwh,
        co2e_kg: billed.co2e_kg,
        even_split,
    })
}

/// Rows on the fullest process when one cluster runs the whole grid, or why it cannot.
pub(super) fn alone_rows(ctx: &SideCtx, c: &Cand) -> Result<u64, Infeasibility> {
    if c.np > ctx.cluster.free_procs {
        return Err(Infeasibility::NotEnoughFreeProcs {
            cluster: ctx.cluster.name.clone(),
            np: c.np,
            free_procs: ctx.cluster.free_procs,
        });
    }
    let np = u64::from(c.np);
    if np == 0 || np > ctx.n {
        return Err(Infeasibility::MoreProcsThanRows { np, rows: ctx.n });
    }
    let r = ceil_div(ctx.n, np);
    if r > ctx.max_rows {
        return Err(ctx.memory_error(r));
    }
    Ok(r)
}

pub(super) fn alone(ctx: &SideCtx, c: &Cand) -> Result<Plan, Infeasibility> {
    let r = alone_rows(ctx, c)?;
    finish_plan(ctx.problem.n, &ctx.cluster.fabric, vec![ctx.part(c, ctx.n, r)], None)
}

/// Integer split of a two-cluster job.
#[derive(Debug, Clone, Copy)]
pub(super) struct Split {
    pub(super) rows_a: u64,
    pub(super) r_a: u64,
    pub(super) rows_b: u64,
    pub(super) r_b: u64,
    pub(super) time_s: f64,
}

/// Checks that a pair can hold the grid at all: (lo, hi) range of rows per process on A.
fn pair_range(a: &SideCtx, pa: u64, b: &SideCtx, pb: u64) -> Result<(u64, u64), Infeasibility> {
    let n = a.n;
    if pa == 0 || pb == 0 || pa.saturating_add(pb) > n {
        return Err(Infeasibility::MoreProcsThanRows { np: pa.saturating_add(pb), rows: n });
    }
    if a.max_rows == 0 {
        return Err(a.memory_error(1));
    }
    if b.max_rows == 0 {
        return Err(b.memory_error(1));
    }
    let cap_b = pb.saturating_mul(b.max_rows);
    let cap = pa.saturating_mul(a.max_rows).saturating_add(cap_b);
    if cap < n {
        return Err(Infeasibility::RowsDoNotFit { rows: n, max_rows: cap });
    }
    let lo = if n > cap_b { ceil_div(n - cap_b, pa) } else { 1 }.max(1);
    let hi = a.max_rows.min(ceil_div(n - pb, pa));
    if lo > hi {
        return Err(Infeasibility::RowsDoNotFit { rows: n, max_rows: cap });
    }
    Ok((lo, hi))
}

/// Rows per process on B when A's processes hold r rows each (B keeps at least one each).
fn rows_b_for(n: u64, pa: u64, pb: u64, r: u64) -> u64 {
    let rows_a = pa.saturating_mul(r);
    if rows_a >= n - pb {
        1
    } else {
        ceil_div(n - rows_a, pb)
    }
}

/// The split minimising max(T_A, T_B): bisection for the first r (rows per process on A)
/// where T_A(r) ≥ T_B(r), then the better of r and r − 1 (and the even split's r).
pub(super) fn split_exact(a: &SideCtx, ca: &Cand, b: &SideCtx, cb: &Cand) -> Result<Split, Infeasibility> {
    let n = a.n;
    let (pa, pb) = (u64::from(ca.np), u64::from(cb.np));
    let (lo, hi) = pair_range(a, pa, b, pb)?;
    let times = |r: u64| (a.time(ca, r), b.time(cb, rows_b_for(n, pa, pb, r)));
    let (ta_hi, tb_hi) = times(hi);
    let cross = if ta_hi < tb_hi {
        hi
    } else {
        let (mut l, mut h) = (lo, hi);
        while l < h {
            let m = l + (h - l) / 2;
            let (ta, tb) = times(m);
            if ta >= tb {
                h = m;
            } else {
                l = m + 1;
            }
        }
        l
    };
    let even = ceil_div(n, pa + pb);
    let mut best: Option<(u64, f64)> = None;
    for r in [cross, cross.saturating_sub(1), even] {
        if r < lo || r > hi {
            continue;
        }
        let (ta, tb) = times(r);
        let t = ta.max(tb);
        if best.is_none_or(|(_, bt)| t < bt) {
            best = Some((r, t));
        }
    }
    let Some((r, _)) = best else {
        return Err(Infeasibility::RowsDoNotFit { rows: n, max_rows: n });
    };
    let rows_a = pa.saturating_mul(r).min(n - pb);
    let rows_b = n - rows_a;
    let (r_a, r_b) = (ceil_div(rows_a, pa), ceil_div(rows_b, pb));
    let time_s = a.time(ca, r_a).max(b.time(cb, r_b));
    if !time_s.is_finite() {
        return Err(Infeasibility::PredictionOutOfRange);
    }
    Ok(Split { rows_a, r_a, rows_b, r_b, time_s })
}

pub(super) fn pair_cost(a: &SideCtx, ca: &Cand, b: &SideCtx, cb: &Cand, time_s: f64) -> f64 {
    cost(
        &[
            CpuUse { np: ca.np, price_per_cpu_hour: a.cluster.price_per_cpu_hour },
            CpuUse { np: cb.np, price_per_cpu_hour: b.cluster.price_per_cpu_hour },
        ],
        time_s,
    )
    .cost
}

pub(super) fn even_split(a: &SideCtx, ca: &Cand, b: &SideCtx, cb: &Cand) -> EvenSplit {
    let (pa, pb) = (u64::from(ca.np), u64::from(cb.np));
    let r = ceil_div(a.n, pa + pb);
    if pa + pb > a.n {
        return EvenSplit::Infeasible {
            rows_per_process: r,
            reason: Infeasibility::MoreProcsThanRows { np: pa + pb, rows: a.n },
        };
    }
    if r > a.max_rows {
        return EvenSplit::Infeasible { rows_per_process: r, reason: a.memory_error(r) };
    }
    if r > b.max_rows {
        return EvenSplit::Infeasible { rows_per_process: r, reason: b.memory_error(r) };
    }
    let time_s = a.time(ca, r).max(b.time(cb, r));
    let c = cost(
        &[
            CpuUse { np: ca.np, price_per_cpu_hour: a.cluster.price_per_cpu_hour },
            CpuUse { np: cb.np, price_per_cpu_hour: b.cluster.price_per_cpu_hour },
        ],
        time_s,
    );
    EvenSplit::Feasible { rows_per_process: r, time_s, cpu_hours: c.cpu_hours, cost: c.cost }
}

/// The best split of a pair after checking both sides have the processes free.
pub(super) fn pair_split(a: &SideCtx, ca: &Cand, b: &SideCtx, cb: &Cand) -> Result<Split, Infeasibility> {
    for (ctx, c) in [(a, ca), (b, cb)] {
        if c.np > ctx.cluster.free_procs {
            return Err(Infeasibility::NotEnoughFreeProcs {
                cluster: ctx.cluster.name.clone(),
                np: c.np,
                free_procs: ctx.cluster.free_procs,
            });
        }
    }
    split_exact(a, ca, b, cb)
}

pub(super) fn pair_plan(a: &SideCtx, ca: &Cand, b: &SideCtx, cb: &Cand, s: &Split) -> Result<Plan, Infeasibility> {
    let parts = vec![a.part(ca, s.rows_a, s.r_a), b.part(cb, s.rows_b, s.r_b)];
    finish_plan(a.problem.n, &a.cluster.fabric, parts, Some(even_split(a, ca, b, cb)))
}

fn check_side(side: &Side, problem: &Problem) -> Result<(), Vec<InputError>> {
    let mut errors = side.cluster.check();
    errors.extend(problem.check());
    if !side.fit.is_finite() {
        errors.push(InputError::new(
            format!("cluster {}: calibration over {}", side.cluster.name, side.cluster.fabric),
            "has numbers that are not finite",
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn np_error(np: u32) -> Result<(), Vec<InputError>> {
    if np == 0 {
        Err(vec![InputError::new("np", "the number of processes must be at least 1, found 0")])
    } else {
        Ok(())
    }
}

pub(super) fn infeasible(
    n: u32,
    fabric: &str,
    assignments: &[(&ClusterSide, u32)],
    reason: Infeasibility,
) -> InfeasibleOption {
    InfeasibleOption {
        n,
        fabric: fabric.to_string(),
        assignments: assignments.iter().map(|(c, np)| Assignment { cluster: c.name.clone(), np: *np }).collect(),
        reason,
    }
}

/// One cluster alone on np processes: the plan, or why it cannot run.
pub fn plan_alone(side: Side, np: u32, problem: &Problem) -> Result<Outcome, Vec<InputError>> {
    check_side(&side, problem)?;
    np_error(np)?;
    let ctx = SideCtx::new(side.cluster, side.fit, problem);
    Ok(match alone(&ctx, &ctx.cand(np)) {
        Ok(p) => Outcome::Feasible(p),
        Err(reason) => Outcome::Infeasible(infeasible(problem.n, &side.cluster.fabric, &[(side.cluster, np)], reason)),
    })
}

/// One job over two clusters joined by the fabric both sides name: the split of rows that
/// minimises max(T_A, T_B) under both memory limits, with the even split next to it.
pub fn plan_pair(a: Side, np_a: u32, b: Side, np_b: u32, problem: &Problem) -> Result<Outcome, Vec<InputError>> {
    let mut errors = Vec::new();
    for s in [&a, &b] {
        if let Err(e) = check_side(s, problem) {
            errors.extend(e);
        }
    }
    for np in [np_a, np_b] {
        if let Err(e) = np_error(np) {
            errors.extend(e);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let assignments = [(a.cluster, np_a), (b.cluster, np_b)];
    let fail = |reason| Ok(Outcome::Infeasible(infeasible(problem.n, &a.cluster.fabric, &assignments, reason)));
    if a.cluster.fabric != b.cluster.fabric {
        return fail(Infeasibility::FabricNotShared { fabric: format!("{} / {}", a.cluster.fabric, b.cluster.fabric) });
    }
    let (ca_ctx, cb_ctx) = (SideCtx::new(a.cluster, a.fit, problem), SideCtx::new(b.cluster, b.fit, problem));
    let (ca, cb) = (ca_ctx.cand(np_a), cb_ctx.cand(np_b));
    match pair_split(&ca_ctx, &ca, &cb_ctx, &cb).and_then(|s| pair_plan(&ca_ctx, &ca, &cb_ctx, &cb, &s)) {
        Ok(p) => Ok(Outcome::Feasible(p)),
        Err(reason) => fail(reason),
    }
}

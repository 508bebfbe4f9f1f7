//! The planner: scenario 1 ranks every option on one or two clusters by time, scenario 2
//! ("resolution") finds the largest grid the free processes can hold ([`plan`]).
//!
//! Seed: `seeds/000_36e595e86e3acfcd.txt`, section V.C (Scenarios 1 and 2, Tables I and II).
//! Spec: `shared/spec/multigrid.md`.
//!
//! Scenario 1 ranks by time (ties: cheaper, then fewer processes): each cluster alone over
//! each of its fabrics at each candidate np (`candidate_np`), and both clusters over each
//! shared fabric at every pair (np_A, np_B) of the pair candidates (`pair_candidate_np`), each
//! with its best split. Both lists default to the powers of two from 2 up to the cluster's
//! free processes, plus the free processes themselves (the paper's runs are 32 + 32 and
//! 64 + 32: all that was free). Pairs are a Cartesian product, so their number is capped at
//! [`MAX_PAIRS`] per shared fabric; a long `candidate_np` (every np from 2 to 1024) is cheap.
//! Scenario 2 ("resolution") takes N from the powers of two, as the paper does: the largest
//! N any option can hold, its fastest option, against the fastest option at N/2.

use serde::{Deserialize, Serialize};

use super::calibration::Fit;
use super::num;
use super::problem::{check_cluster_numbers, cost, ClusterSide, CpuUse, Problem, BYTES_PER_MB};
use super::split::{
    alone, alone_rows, infeasible, pair_cost, pair_plan, pair_split, Cand, InfeasibleOption, Plan, SideCtx, Split,
};
use crate::model::cost::Economics;
use crate::model::error::InputError;

/// A cluster's calibration over one fabric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct FabricFit {
    pub fabric: String,
    pub fit: Fit,
}

/// A cluster with the fabrics it was calibrated over.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Cluster {
    pub name: String,
    pub free_procs: u32,
    pub procs_per_node: u32,
    pub memory_per_node_mb: f64,
    pub price_per_cpu_hour: f64,
    pub fabrics: Vec<FabricFit>,
    /// Cores, price, power and carbon of its nodes.
    #[serde(default)]
    pub economics: Economics,
}

impl Cluster {
    /// This cluster as reached over one fabric.
    pub fn side(&self, fabric: &str) -> ClusterSide {
        ClusterSide {
            name: self.name.clone(),
            fabric: fabric.to_string(),
            free_procs: self.free_procs,
            procs_per_node: self.procs_per_node,
            memory_per_node_mb: self.memory_per_node_mb,
            price_per_cpu_hour: self.price_per_cpu_hour,
            economics: self.economics.clone(),
        }
    }
}

/// What the planner is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct PlannerInput {
    /// One or two clusters; with two, the first is "A" in the pairing.
    pub clusters: Vec<Cluster>,
    /// Fabrics that join the two clusters (each must be calibrated on both).
    #[serde(default)]
    pub shared_fabrics: Vec<String>,
    pub problem: Problem,
    /// np values to try on each cluster alone; default: powers of two from 2 up to the free
    /// processes, plus the free processes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidate_np: Option<Vec<u32>>,
    /// np values to try on each side of a two-cluster job; every pair of them is tried, so the
    /// pairs (per shared fabric) are limited to [`MAX_PAIRS`]. Default as for `candidate_np`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair_candidate_np: Option<Vec<u32>>,
}

/// Most (np_A, np_B) pairs tried per shared fabric (128 × 128): each needs its own split
/// search, and the page must stay responsive.
pub const MAX_PAIRS: usize = 16_384;

/// Most candidate process counts in a list (`candidate_np`, `pair_candidate_np`): each is
/// planned on every fabric and ranked, and every np from 2 to 4,096 fits.
pub const MAX_CANDIDATES: usize = 4096;

/// The fastest option at one grid size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct ResolutionLevel {
    pub n: u32,
    pub best: Plan,
}

/// Scenario 2: the largest power-of-two N the free resources can hold, against N/2.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Resolution {
    pub largest: ResolutionLevel,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smaller: Option<ResolutionLevel>,
    /// largest.time / smaller.time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ratio: Option<f64>,
    /// largest.cost / smaller.cost (None when the smaller run is free).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_ratio: Option<f64>,
}

/// The planner's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct PlannerReport {
    pub n: u32,
    /// Feasible options, fastest first (ties: cheaper, then fewer processes).
    pub ranking: Vec<Plan>,
    pub infeasible: Vec<InfeasibleOption>,
    /// None when not even N = 2 fits.
    pub resolution: Option<Resolution>,
    /// Caveats for the page (e.g. a calibration whose time falls as work grows).
    pub notes: Vec<String>,
}

fn check_planner(input: &PlannerInput) -> Vec<InputError> {
    let mut errors = input.problem.check();
    if input.clusters.is_empty() || input.clusters.len() > 2 {
        errors.push(InputError::new(
            "clusters",
            format!("one or two clusters are needed, found {}", input.clusters.len()),
        ));
    }
    for (i, c) in input.clusters.iter().enumerate() {
        errors.extend(check_cluster_numbers(
            &c.name,
            c.free_procs,
            c.procs_per_node,
            c.memory_per_node_mb,
            c.price_per_cpu_hour,
        ));
        if input.clusters[..i].iter().any(|o| o.name == c.name) {
            errors.push(InputError::new("cluster name", format!("two clusters are named {}", c.name)));
        }
        if c.fabrics.is_empty() {
            errors.push(InputError::new(
                format!("cluster {}: fabrics", c.name),
                "at least one calibrated fabric is needed",
            ));
        }
        for (j, f) in c.fabrics.iter().enumerate() {
            if f.fabric.trim().is_empty() {
                errors.push(InputError::new(format!("cluster {}: fabric name", c.name), "must not be empty"));
            }
            if c.fabrics[..j].iter().any(|o| o.fabric == f.fabric) {
                errors.push(InputError::new(
                    format!("cluster {}: fabrics", c.name),
                    format!("{} is calibrated twice", f.fabric),
                ));
            }
            if !f.fit.is_finite() {
                errors.push(InputError::new(
                    format!("cluster {}: calibration over {}", c.name, f.fabric),
                    "has numbers that are not finite",
                ));
            }
        }
    }
    if input.clusters.len() < 2 && !input.shared_fabrics.is_empty() {
        errors.push(InputError::new("shared fabrics", "need two clusters"));
    }
    if input.clusters.len() == 2 {
        for (i, s) in input.shared_fabrics.iter().enumerate() {
            if input.shared_fabrics[..i].contains(s) {
                errors.push(InputError::new("shared fabrics", format!("{s} is listed twice")));
            }
            for c in &input.clusters {
                if !c.fabrics.iter().any(|f| &f.fabric == s) {
                    errors.push(InputError::new(
                        "shared fabrics",
                        format!("{s} has no calibration on cluster {}", c.name),
                    ));
                }
            }
        }
    }
    for (field, list) in [("candidate np", &input.candidate_np), ("pair candidate np", &input.pair_candidate_np)] {
        if let Some(list) = list {
            if list.is_empty() {
                errors.push(InputError::new(field, "the list is empty; leave it out for the default"));
            }
            if list.contains(&0) {
                errors.push(InputError::new(field, "0 processes is not a candidate"));
            }
            if list.len() > MAX_CANDIDATES {
                errors.push(InputError::new(
                    field,
                    format!(
                        "{} process counts is more than the {MAX_CANDIDATES} tried at once; shorten the list",
                        list.len()
                    ),
                ));
            }
        }
    }
    if input.clusters.len() == 2 && !input.shared_fabrics.is_empty() && errors.is_empty() {
        let lists = pair_lists(input);
        let pairs = lists[0].len().saturating_mul(lists[1].len());
        if pairs > MAX_PAIRS {
            errors.push(InputError::new(
                "pair candidate np",
                format!(
                    "{} × {} = {pairs} pairs of process counts per shared fabric is more than the {MAX_PAIRS} tried at once; shorten the list",
                    lists[0].len(),
                    lists[1].len()
                ),
            ));
        }
    }
    errors
}

fn sorted_list(list: &Option<Vec<u32>>, free_procs: u32) -> Vec<u32> {
    let mut v = match list {
        Some(l) => l.clone(),
        None => default_candidates(free_procs),
    };
    v.sort_unstable();
    v.dedup();
    v
}

fn pair_lists(input: &PlannerInput) -> Vec<Vec<u32>> {
    input.clusters.iter().map(|c| sorted_list(&input.pair_candidate_np, c.free_procs)).collect()
}

/// Powers of two from 2 up to `free`, plus `free` itself.
pub fn default_candidates(free_procs: u32) -> Vec<u32> {
    let mut v: Vec<u32> = (1..32).map(|k| 1u32 << k).take_while(|&p| p <= free_procs).collect();
    if free_procs >= 1 && !v.contains(&free_procs) {
        v.push(free_procs);
    }
    v
}

pub(super) struct Planner<'a> {
    input: &'a PlannerInput,
    sides: Vec<Vec<ClusterSide>>,
    /// np values per cluster for single-cluster options and for two-cluster jobs.
    alone_np: Vec<Vec<u32>>,
    pair_np: Vec<Vec<u32>>,
}

fn better(key: (f64, f64, u64), best: Option<(f64, f64, u64)>) -> bool {
    match best {
        None => true,
        Some((bt, bc, bn)) => key.0.total_cmp(&bt).then(key.1.total_cmp(&bc)).then(key.2.cmp(&bn)).is_lt(),
    }
}

fn plan_key(p: &Plan) -> (f64, f64, u64) {
    (p.time_s, p.cost, p.total_np())
}

/// One option at one grid size, as [`Planner::for_each_choice`] offers it: the sides are
/// borrowed for the call, the fabric for as long as the planner's input.
enum Choice<'c, 'f> {
    Alone { ci: usize, fabric: &'f str, ctx: &'c SideCtx<'c>, cand: Cand },
    Pair { fabric: &'f str, a: &'c SideCtx<'c>, b: &'c SideCtx<'c>, ca: Cand, cb: Cand },
}

/// The option that won at one grid size, before its plan is built.
enum Winner<'f> {
    Alone { ci: usize, fabric: &'f str, np: u32 },
    Pair { fabric: &'f str, np_a: u32, np_b: u32, split: Split },
}

impl<'a> Planner<'a> {
    pub(super) fn new(input: &'a PlannerInput) -> Self {
        let sides = input.clusters.iter().map(|c| c.fabrics.iter().map(|f| c.side(&f.fabric)).collect()).collect();
        let alone_np = input.clusters.iter().map(|c| sorted_list(&input.candidate_np, c.free_procs)).collect();
        Planner { input, sides, alone_np, pair_np: pair_lists(input) }
    }

    fn problem_at(&self, n: u32) -> Problem {
        Problem { n, bytes_per_point: self.input.problem.bytes_per_point }
    }

    fn ctx<'b>(&'b self, ci: usize, fabric: &str, problem: &'b Problem) -> Option<SideCtx<'b>> {
        let c = self.input.clusters.get(ci)?;
        let fi = c.fabrics.iter().position(|f| f.fabric == fabric)?;
        Some(SideCtx::new(self.sides.get(ci)?.get(fi)?, &c.fabrics[fi].fit, problem))
    }

    /// Both sides over a shared fabric, when there are two clusters.
    fn pair_ctx<'b>(&'b self, fabric: &str, problem: &'b Problem) -> Option<(SideCtx<'b>, SideCtx<'b>)> {
        if self.input.clusters.len() != 2 {
            return None;
        }
        Some((self.ctx(0, fabric, problem)?, self.ctx(1, fabric, problem)?))
    }

    /// Calls `visit` with every option at one grid size, in ranking order before sorting:
    /// each cluster alone over each of its fabrics at each candidate np, then both clusters
    /// over each shared fabric at each pair of candidates.
    fn for_each_choice(&self, problem: &Problem, mut visit: impl FnMut(Choice<'_, 'a>)) {
        for (ci, c) in self.input.clusters.iter().enumerate() {
            for f in &c.fabrics {
                let Some(ctx) = self.ctx(ci, &f.fabric, problem) else { continue };
                for &np in &self.alone_np[ci] {
                    visit(Choice::Alone { ci, fabric: &f.fabric, ctx: &ctx, cand: ctx.cand(np) });
                }
            }
        }
        for fabric in &self.input.shared_fabrics {
            let Some((a, b)) = self.pair_ctx(fabric, problem) else { continue };
            for &np_a in &self.pair_np[0] {
                let ca = a.cand(np_a);
                for &np_b in &self.pair_np[1] {
                    visit(Choice::Pair { fabric, a: &a, b: &b, ca, cb: b.cand(np_b) });
                }
            }
        }
    }

    /// Scenario 1 at grid side n: every option, feasible ones ranked.
    pub(super) fn rank(&self, n: u32) -> (Vec<Plan>, Vec<InfeasibleOption>) {
        let problem = self.problem_at(n);
        let mut ranking = Vec::new();
        let mut infeasible_list = Vec::new();
        self.for_each_choice(&problem, |choice| match choice {
            Choice::Alone { fabric, ctx, cand, .. } => match alone(ctx, &cand) {
                Ok(p) => ranking.push(p),
                Err(reason) => infeasible_list.push(infeasible(n, fabric, &[(ctx.cluster, cand.np)], reason)),
            },
            Choice::Pair { fabric, a, b, ca, cb } => {
                match pair_split(a, &ca, b, &cb).and_then(|s| pair_plan(a, &ca, b, &cb, &s)) {
                    Ok(p) => ranking.push(p),
                    Err(reason) => {
                        infeasible_list.push(infeasible(n, fabric, &[(a.cluster, ca.np), (b.cluster, cb.np)], reason))
                    }
                }
            }
        });
        sort_plans(&mut ranking, &plan_key);
        (ranking, infeasible_list)
    }

    /// The fastest option at grid side n (ties: cheaper, then fewer processes), the same one
    /// `rank` puts first, without building a plan for every option.
    pub(super) fn best_at(&self, n: u32) -> Option<Plan> {
        let problem = self.problem_at(n);
        let mut best: Option<((f64, f64, u64), Winner)> = None;
        let mut offer = |key: (f64, f64, u64), w: Winner<'a>| {
            if key.0.is_finite() && better(key, best.as_ref().map(|b| b.0)) {
                best = Some((key, w));
            }
        };
        self.for_each_choice(&problem, |choice| match choice {
            Choice::Alone { ci, fabric, ctx, cand } => {
                if let Ok(r) = alone_rows(ctx, &cand) {
                    let t = ctx.time(&cand, r);
                    let money =
                        cost(&[CpuUse { np: cand.np, price_per_cpu_hour: ctx.cluster.price_per_cpu_hour }], t).cost;
                    offer((t, money, u64::from(cand.np)), Winner::Alone { ci, fabric, np: cand.np });
                }
            }
            Choice::Pair { fabric, a, b, ca, cb } => {
                if let Ok(split) = pair_split(a, &ca, b, &cb) {
                    let key =
                        (split.time_s, pair_cost(a, &ca, b, &cb, split.time_s), u64::from(ca.np) + u64::from(cb.np));
                    offer(key, Winner::Pair { fabric, np_a: ca.np, np_b: cb.np, split });
                }
            }
        });
        match best?.1 {
            Winner::Alone { ci, fabric, np } => {
                let ctx = self.ctx(ci, fabric, &problem)?;
                alone(&ctx, &ctx.cand(np)).ok()
            }
            Winner::Pair { fabric, np_a, np_b, split } => {
                let (a, b) = self.pair_ctx(fabric, &problem)?;
                pair_plan(&a, &a.cand(np_a), &b, &b.cand(np_b), &split).ok()
            }
        }
    }

    fn resolution(&self) -> Option<Resolution> {
        let total_mb: f64 = self
            .input
            .clusters
            .iter()
            .map(|c| f64::from(c.free_procs) * c.memory_per_node_mb / f64::from(c.procs_per_node.max(1)))
            .sum();
        // N² · bytes ≤ all free memory bounds N from above; walk the powers of two down.
        let bound = (total_mb * BYTES_PER_MB / self.input.problem.bytes_per_point).sqrt();
        let mut k: u32 = 31;
        while k >= 1 && f64::from(1u32 << k) > bound {
            k -= 1;
        }
        while k >= 1 {
            let n = 1u32 << k;
            if let Some(best) = self.best_at(n) {
                let smaller =
                    if k >= 2 { self.best_at(n / 2).map(|b| ResolutionLevel { n: n / 2, best: b }) } else { None };
                let time_ratio = smaller.as_ref().filter(|s| s.best.time_s > 0.0).map(|s| best.time_s / s.best.time_s);
                let cost_ratio = smaller.as_ref().filter(|s| s.best.cost > 0.0).map(|s| best.cost / s.best.cost);
                return Some(Resolution { largest: ResolutionLevel { n, best }, smaller, time_ratio, cost_ratio });
            }
            k -= 1;
        }
        None
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        for c in &self.input.clusters {
            for f in &c.fabrics {
                if !f.fit.time_grows_with_work() {
                    notes.push(format!(
                        "cluster {} over {}: the predicted time falls as work grows for some sizes (Tcomp slope {} s/MB, γ {} s/MB); the split between clusters assumes it grows and may be off",
                        c.name,
                        f.fabric,
                        num(f.fit.tcomp.slope_s_per_mb),
                        num(f.fit.gamma_s_per_mb)
                    ));
                }
            }
        }
        if self.input.clusters.len() == 2 && self.input.shared_fabrics.is_empty() {
            notes.push("no fabric joins the two clusters, so no job spans both".to_string());
        }
        notes
    }
}

/// Scenarios 1 and 2 for one or two clusters (see the module doc for what is ranked).
pub fn plan(input: &PlannerInput) -> Result<PlannerReport, Vec<InputError>> {
    let errors = check_planner(input);
    if !errors.is_empty() {
        return Err(errors);
    }
    let planner = Planner::new(input);
    let (ranking, infeasible) = planner.rank(input.problem.n);
    Ok(PlannerReport {
        n: input.problem.n,
        ranking,
        infeasible,
        resolution: planner.resolution(),
        notes: planner.notes(),
    })
}

/// Orders plans by `key`, lowest first (one sort for every order the planner and its page
/// use: each order as its own closure type would be a sort of its own in every page's wasm).
pub fn sort_plans(ranking: &mut [Plan], key: &dyn Fn(&Plan) -> (f64, f64, u64)) {
    ranking.sort_by(|x, y| {
        let (kx, ky) = (key(x), key(y));
        kx.0.total_cmp(&ky.0).then(kx.1.total_cmp(&ky.1)).then(kx.2.cmp(&ky.2))
    });
}

//! Everything the multi-cluster planner page shows, computed from the texts in its inputs
//! and the cluster catalog. The page only renders what [`evaluate`] returns, so every number
//! on screen is tested here, natively.
//!
//! Inputs (field names of the page, also the keys of share links and workspace files):
//! `cal_count` calibrations, each `cal{i}_cluster` (catalog id), `cal{i}_fabric`,
//! `cal{i}_seq` (table: work MB, time s), `cal{i}_par` (table: np, work MB, time s); the
//! problem `grid_n`, `bytes_per_point`, target `np`; the pair of clusters `pair_a`, `pair_b`
//! with `pair_fabric`, `np_a`, `np_b`, processes per node `ppn_a`, `ppn_b` and free processes
//! `free_a`, `free_b` for the planner.

use std::collections::BTreeMap;

use crate::model::workspace::catalog::Catalog;
use crate::model::multigrid::{
    self as mg, Calibration, Cluster as PlannerCluster, ClusterSide, FabricFit, Fit, Outcome, ParallelRun, PlannerInput,
    PlannerReport, Problem, SequentialRun, Side,
};
use crate::model::multigrid::presets::MultigridPreset;
use crate::model::input::table::{parse_table, ColumnSpec, Quantity, MEGABYTES, PLAIN, SECONDS};
use crate::model::workspace::PageInputs;
use crate::model::InputError;

pub const PAGE: &str = "multigrid";
/// Most calibrations a page holds.
pub const MAX_CALIBRATIONS: usize = 8;

pub const SEQUENTIAL_COLUMNS: &[ColumnSpec] = &[
    ColumnSpec::new("work", Quantity::Size, MEGABYTES).aliases(&["work_mb", "memory", "mem", "size"]),
    ColumnSpec::new("time", Quantity::Time, SECONDS).aliases(&["t", "runtime", "seconds", "tcomp"]),
];

pub const PARALLEL_COLUMNS: &[ColumnSpec] = &[
    ColumnSpec::new("np", Quantity::Plain, PLAIN).aliases(&["np0", "procs", "processes", "p"]).integer(),
    ColumnSpec::new("work", Quantity::Size, MEGABYTES).aliases(&["work_mb", "memory", "mem", "size"]),
    ColumnSpec::new("time", Quantity::Time, SECONDS).aliases(&["t", "runtime", "seconds"]),
];

/// One calibration as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct CalibrationView {
    /// 1-based, as in the field names.
    pub index: usize,
    pub cluster_id: String,
    pub fabric: String,
    /// Errors about the cluster or fabric choice.
    pub choice_errors: Vec<InputError>,
    pub sequential_errors: Vec<InputError>,
    pub parallel_errors: Vec<InputError>,
    /// Present when both tables parse and the fit succeeds.
    pub fit: Option<Fit>,
}

/// The prediction for one calibration at the target np.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetRow {
    pub cluster: String,
    pub fabric: String,
    pub outcome: Result<Outcome, Vec<InputError>>,
}

/// Everything on the page.
#[derive(Debug, Clone, PartialEq)]
pub struct PageView {
    pub calibrations: Vec<CalibrationView>,
    /// Errors of single fields (`grid_n`, `np`, …), keyed by field name.
    pub field_errors: BTreeMap<String, String>,
    pub problem: Option<Problem>,
    pub np: Option<u32>,
    /// One row per calibrated (cluster, fabric), at the target np.
    pub target: Vec<TargetRow>,
    /// Fabrics that join the chosen pair of clusters and are calibrated on both.
    pub pair_fabrics: Vec<String>,
    /// The chosen pair at np_a + np_b, over the chosen fabric.
    pub split: Option<Result<Outcome, Vec<InputError>>>,
    pub planner: Option<Result<PlannerReport, Vec<InputError>>>,
    /// Bytes per grid point derived from a run the user describes (`derive_rows` rows per
    /// process × `derive_cols` columns in `derive_mb` MB); None while those are empty.
    pub derived_bytes_per_point: Option<Result<f64, String>>,
}

fn get<'a>(inputs: &'a PageInputs, key: &str) -> &'a str {
    inputs.get(key).map(String::as_str).unwrap_or("")
}

fn parse_u32(inputs: &PageInputs, key: &str, what: &str, min: u32, errors: &mut BTreeMap<String, String>) -> Option<u32> {
    let text = get(inputs, key).trim();
    let msg = match text.parse::<u32>() {
        Ok(v) if v >= min => return Some(v),
        Ok(_) => format!("{what}: expected a whole number of at least {min}"),
        Err(_) if text.is_empty() => format!("{what}: a value is needed"),
        Err(_) => format!("{what}: expected a whole number, found \"{}\"", text.chars().take(20).collect::<String>()),
    };
    errors.insert(key.to_string(), msg);
    None
}

fn parse_positive(inputs: &PageInputs, key: &str, what: &str, errors: &mut BTreeMap<String, String>) -> Option<f64> {
    let text = get(inputs, key).trim();
    match crate::model::input::table::parse_number(text) {
        Some(v) if v > 0.0 => Some(v),
        _ => {
            let found = if text.is_empty() { "nothing".to_string() } else { format!("\"{text}\"") };
            errors.insert(key.to_string(), format!("{what}: expected a number greater than 0, found {found}"));
            None
        }
    }
}

/// Parses one calibration's two tables into model runs.
pub fn parse_calibration(seq_text: &str, par_text: &str) -> (Calibration, Vec<InputError>, Vec<InputError>) {
    let mut cal = Calibration::default();
    let mut seq_errors = Vec::new();
    let mut par_errors = Vec::new();
    match parse_table(mg::SEQUENTIAL_FIELD, seq_text, SEQUENTIAL_COLUMNS) {
        Ok(t) => {
            for r in t.rows {
                if let [Some(w), Some(time)] = r.values[..] {
                    cal.sequential.push(SequentialRun { work_mb: w, time_s: time, line: Some(r.line) });
                }
            }
        }
        Err(e) => seq_errors.push(e),
    }
    match parse_table(mg::PARALLEL_FIELD, par_text, PARALLEL_COLUMNS) {
        Ok(t) => {
            for r in t.rows {
                if let [Some(np), Some(w), Some(time)] = r.values[..] {
                    // parse_table checked np is a whole number within u32.
                    cal.parallel.push(ParallelRun { np: np as u32, work_mb: w, time_s: time, line: Some(r.line) });
                }
            }
        }
        Err(e) => par_errors.push(e),
    }
    (cal, seq_errors, par_errors)
}

fn calibration_view(index: usize, inputs: &PageInputs, catalog: &Catalog) -> CalibrationView {
    let key = |k: &str| format!("cal{index}_{k}");
    let cluster_id = get(inputs, &key("cluster")).to_string();
    let fabric = get(inputs, &key("fabric")).to_string();
    let mut choice_errors = Vec::new();
    match catalog.cluster(&cluster_id) {
        None => choice_errors.push(InputError::new(
            format!("calibration {index}"),
            format!("no cluster \"{cluster_id}\" in the catalog; choose one"),
        )),
        Some(c) if c.fabric(&fabric).is_none() => choice_errors.push(InputError::new(
            format!("calibration {index}"),
            format!("{} has no fabric \"{fabric}\"; choose one of its fabrics", c.name),
        )),
        Some(_) => {}
    }
    let (cal, mut seq_errors, mut par_errors) = parse_calibration(get(inputs, &key("seq")), get(inputs, &key("par")));
    let mut fit = None;
    if seq_errors.is_empty() && par_errors.is_empty() {
        match mg::fit(&cal) {
            Ok(f) => fit = Some(f),
            Err(errs) => {
                for e in errs {
                    if e.field == mg::SEQUENTIAL_FIELD {
                        seq_errors.push(e);
                    } else {
                        par_errors.push(e);
                    }
                }
            }
        }
    }
    CalibrationView {
        index,
        cluster_id,
        fabric,
        choice_errors,
        sequential_errors: seq_errors,
        parallel_errors: par_errors,
        fit,
    }
}

/// A catalog cluster as the planner sees it, with this page's processes per node and free
/// processes. Memory per node of 0 (unknown) means no memory limit can be checked: the
/// planner is given an effectively unlimited memory and the page says so.
fn planner_cluster(
    catalog: &Catalog,
    id: &str,
    ppn: u32,
    free: u32,
    calibrations: &[CalibrationView],
) -> Option<PlannerCluster> {
    let c = catalog.cluster(id)?;
    let fabrics = calibrations
        .iter()
        .filter(|cv| cv.cluster_id == id && cv.choice_errors.is_empty())
        .filter_map(|cv| cv.fit.clone().map(|fit| FabricFit { fabric: cv.fabric.clone(), fit }))
        .fold(Vec::<FabricFit>::new(), |mut acc, ff| {
            // The first calibration of a (cluster, fabric) wins; later duplicates are ignored.
            if !acc.iter().any(|a| a.fabric == ff.fabric) {
                acc.push(ff);
            }
            acc
        });
    Some(PlannerCluster {
        name: c.name.clone(),
        free_procs: free,
        procs_per_node: ppn,
        memory_per_node_mb: memory_mb(c.memory_per_node_gb),
        price_per_cpu_hour: c.price_per_cpu_hour,
        fabrics,
    })
}

fn memory_mb(gb: f64) -> f64 {
    if gb > 0.0 {
        gb * 1024.0
    } else {
        f64::MAX / 4.0
    }
}

/// Computes the page from its inputs.
pub fn evaluate(inputs: &PageInputs, catalog: &Catalog) -> PageView {
    let mut field_errors = BTreeMap::new();
    let count = get(inputs, "cal_count").trim().parse::<usize>().unwrap_or(1).clamp(1, MAX_CALIBRATIONS);
    let calibrations: Vec<CalibrationView> = (1..=count).map(|i| calibration_view(i, inputs, catalog)).collect();

    let n = parse_u32(inputs, "grid_n", "grid side N", 2, &mut field_errors);
    let bpp = parse_positive(inputs, "bytes_per_point", "bytes per grid point", &mut field_errors);
    let np = parse_u32(inputs, "np", "target np", 1, &mut field_errors);
    let problem = match (n, bpp) {
        (Some(n), Some(bytes_per_point)) => Some(Problem { n, bytes_per_point }),
        _ => None,
    };

    // Each calibrated (cluster, fabric) alone at the target np, on nodes filled to its cores.
    let mut target = Vec::new();
    if let (Some(problem), Some(np)) = (&problem, np) {
        for cv in calibrations.iter().filter(|cv| cv.choice_errors.is_empty()) {
            let (Some(fit), Some(c)) = (&cv.fit, catalog.cluster(&cv.cluster_id)) else { continue };
            let side = ClusterSide {
                name: c.name.clone(),
                fabric: cv.fabric.clone(),
                free_procs: u32::try_from(c.cores()).unwrap_or(u32::MAX),
                procs_per_node: c.cores_per_node,
                memory_per_node_mb: memory_mb(c.memory_per_node_gb),
                price_per_cpu_hour: c.price_per_cpu_hour,
            };
            let outcome = mg::plan_alone(Side { cluster: &side, fit }, np, problem);
            target.push(TargetRow { cluster: c.name.clone(), fabric: cv.fabric.clone(), outcome });
        }
    }

    // The pair of clusters.
    let a_id = get(inputs, "pair_a").to_string();
    let b_id = get(inputs, "pair_b").to_string();
    let default_ppn = |id: &str| catalog.cluster(id).map(|c| c.cores_per_node).unwrap_or(1);
    let ppn_a = if get(inputs, "ppn_a").trim().is_empty() {
        Some(default_ppn(&a_id))
    } else {
        parse_u32(inputs, "ppn_a", "processes per node on A", 1, &mut field_errors)
    };
    // Cluster B is optional: without it the planner ranks A alone and there is no split.
    let two = !a_id.is_empty() && !b_id.is_empty() && a_id != b_id;
    let ppn_b = if !two || get(inputs, "ppn_b").trim().is_empty() {
        Some(default_ppn(&b_id))
    } else {
        parse_u32(inputs, "ppn_b", "processes per node on B", 1, &mut field_errors)
    };
    let np_a = parse_u32(inputs, "np_a", "processes on A", 1, &mut field_errors);
    let free_a = parse_u32(inputs, "free_a", "free processes on A", 1, &mut field_errors);
    let (np_b, free_b) = if two {
        (
            parse_u32(inputs, "np_b", "processes on B", 1, &mut field_errors),
            parse_u32(inputs, "free_b", "free processes on B", 1, &mut field_errors),
        )
    } else {
        (None, None)
    };

    let mut pair_fabrics = Vec::new();
    let mut split = None;
    let mut planner = None;
    if let (Some(problem), Some(ppn_a), Some(ppn_b)) = (&problem, ppn_a, ppn_b) {
        let a = planner_cluster(catalog, &a_id, ppn_a, free_a.unwrap_or(1), &calibrations);
        let b = if two { planner_cluster(catalog, &b_id, ppn_b, free_b.unwrap_or(1), &calibrations) } else { None };
        if let (Some(a), Some(b)) = (&a, &b) {
            pair_fabrics = catalog
                .links_between(&a_id, &b_id)
                .map(|l| l.fabric.name.clone())
                .filter(|f| a.fabrics.iter().any(|x| &x.fabric == f) && b.fabrics.iter().any(|x| &x.fabric == f))
                .collect();
            let chosen = get(inputs, "pair_fabric");
            let fabric = pair_fabrics.iter().find(|f| f.as_str() == chosen).or(pair_fabrics.first()).cloned();
            if let (Some(fabric), Some(np_a), Some(np_b)) = (fabric, np_a, np_b) {
                let (sa, sb) = (side_of(a, &fabric, np_a), side_of(b, &fabric, np_b));
                let (fa, fb) = (fit_of(a, &fabric), fit_of(b, &fabric));
                if let (Some(fa), Some(fb)) = (fa, fb) {
                    split = Some(mg::plan_pair(Side { cluster: &sa, fit: fa }, np_a, Side { cluster: &sb, fit: fb }, np_b, problem));
                }
            }
        }
        if let (Some(a), Some(_), Some(_)) = (&a, free_a, if two { free_b } else { Some(1) }) {
            let mut clusters = vec![a.clone()];
            clusters.extend(b.clone());
            if clusters.iter().any(|c| !c.fabrics.is_empty()) {
                let input = PlannerInput {
                    clusters,
                    shared_fabrics: pair_fabrics.clone(),
                    problem: problem.clone(),
                    candidate_np: None,
                    pair_candidate_np: None,
                };
                planner = Some(mg::plan(&input));
            }
        }
    }

    let derive = ["derive_rows", "derive_cols", "derive_mb"].map(|k| get(inputs, k).trim());
    let derived_bytes_per_point = (!derive.iter().all(|t| t.is_empty())).then(|| {
        let rows = derive[0].parse::<u64>().map_err(|_| "rows per process: expected a whole number".to_string())?;
        let cols = derive[1].parse::<u32>().map_err(|_| "columns: expected a whole number".to_string())?;
        let mb = crate::model::input::table::parse_number(derive[2]).ok_or_else(|| "work: expected a number of MB".to_string())?;
        mg::bytes_per_point(mb, rows, cols).map_err(|e| e.to_string())
    });

    PageView { calibrations, field_errors, problem, np, target, pair_fabrics, split, planner, derived_bytes_per_point }
}

fn side_of(c: &PlannerCluster, fabric: &str, np: u32) -> ClusterSide {
    let mut s = c.side(fabric);
    // The split is asked for a given np; free processes only bound the planner.
    s.free_procs = s.free_procs.max(np);
    s
}

fn fit_of<'a>(c: &'a PlannerCluster, fabric: &str) -> Option<&'a Fit> {
    c.fabrics.iter().find(|f| f.fabric == fabric).map(|f| &f.fit)
}

/// The inputs a preset loads.
pub fn preset_inputs(p: &MultigridPreset) -> PageInputs {
    let mut m = PageInputs::new();
    let mut set = |k: &str, v: String| {
        m.insert(k.to_string(), v);
    };
    set("cal_count", p.calibrations.len().to_string());
    for (i, c) in p.calibrations.iter().enumerate() {
        let i = i + 1;
        set(&format!("cal{i}_cluster"), c.cluster_id.to_string());
        set(&format!("cal{i}_fabric"), c.fabric.to_string());
        set(&format!("cal{i}_seq"), c.sequential.to_string());
        set(&format!("cal{i}_par"), c.parallel.to_string());
    }
    set("grid_n", p.grid_n.to_string());
    set("bytes_per_point", p.bytes_per_point.to_string());
    set("np", p.np.to_string());
    set("pair_a", p.cluster_a.to_string());
    set("pair_b", p.cluster_b.to_string());
    set("pair_fabric", String::new());
    let b_text = |v: u32| if p.cluster_b.is_empty() { String::new() } else { v.to_string() };
    set("np_a", p.np_a.to_string());
    set("np_b", b_text(p.np_b));
    set("ppn_a", p.procs_per_node_a.to_string());
    set("ppn_b", b_text(p.procs_per_node_b));
    set("free_a", p.free_a.to_string());
    set("free_b", b_text(p.free_b));
    m
}

/// The page's inputs before the user has touched it: the spec's worked example.
pub fn default_inputs() -> PageInputs {
    crate::model::multigrid::presets::PRESETS.first().map(preset_inputs).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::workspace::catalog::presets;
    use crate::model::multigrid::presets::PRESETS;

    fn feasible(o: &Result<Outcome, Vec<InputError>>) -> &mg::Plan {
        match o {
            Ok(Outcome::Feasible(p)) => p,
            other => panic!("expected a feasible plan, got {other:?}"),
        }
    }

    #[test]
    fn worked_example_gives_1670_s() {
        let view = evaluate(&default_inputs(), &presets());
        let fit = view.calibrations[0].fit.as_ref().expect("the worked example fits");
        assert!((fit.alpha.d_s - 20.0).abs() < 1e-9 && fit.alpha.c_s.abs() < 1e-9);
        assert_eq!(view.target.len(), 1);
        let plan = feasible(&view.target[0].outcome);
        assert!((plan.time_s - 1670.0).abs() < 1e-6, "T(64) = {}", plan.time_s);
        assert!(view.field_errors.is_empty(), "{:?}", view.field_errors);
    }

    #[test]
    fn errors_name_the_row_and_leave_other_calibrations_alone() {
        let mut inputs = preset_inputs(&PRESETS[1]);
        inputs.insert("cal2_par".into(), "np\twork (MB)\ttime (s)\n4\t1024\tabc\n".into());
        inputs.insert("cal3_seq".into(), "work (MB)\ttime (s)\n1024\t300\n".into());
        inputs.insert("grid_n".into(), "-5".into());
        let view = evaluate(&inputs, &presets());
        let e = &view.calibrations[1].parallel_errors;
        assert_eq!((e[0].line, e[0].column), (Some(2), Some(3)), "{e:?}");
        assert!(view.calibrations[2].sequential_errors.iter().any(|e| e.message.contains("work size")), "{:?}", view.calibrations[2]);
        assert!(view.calibrations[0].fit.is_some() && view.calibrations[3].fit.is_some());
        assert!(view.field_errors["grid_n"].contains("whole number"));
        assert!(view.target.is_empty() && view.planner.is_none(), "no problem, no prediction");
    }

    #[test]
    fn bytes_per_point_from_a_run() {
        let mut inputs = default_inputs();
        assert_eq!(evaluate(&inputs, &presets()).derived_bytes_per_point, None);
        // The paper: 1024 rows × 65536 columns in 2048 MB is 32 bytes per point.
        inputs.insert("derive_rows".into(), "1024".into());
        inputs.insert("derive_cols".into(), "65536".into());
        inputs.insert("derive_mb".into(), "2048".into());
        assert_eq!(evaluate(&inputs, &presets()).derived_bytes_per_point, Some(Ok(32.0)));
        inputs.insert("derive_cols".into(), "lots".into());
        assert!(matches!(evaluate(&inputs, &presets()).derived_bytes_per_point, Some(Err(m)) if m.contains("columns")));
    }

    #[test]
    fn white_rose_preset_ranks_and_splits() {
        let view = evaluate(&preset_inputs(&PRESETS[1]), &presets());
        assert_eq!(view.pair_fabrics, vec!["Fast Ethernet".to_string()], "A and B join over Fast Ethernet only");
        let split = feasible(view.split.as_ref().expect("a split"));
        assert_eq!(split.parts.len(), 2);
        let report = match &view.planner {
            Some(Ok(r)) => r,
            other => panic!("planner: {other:?}"),
        };
        assert!(!report.ranking.is_empty());
        let times: Vec<f64> = report.ranking.iter().map(|p| p.time_s).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "ranked by time");
        // Switching A's Myrinet calibration off removes every A-over-Myrinet option.
        let mut inputs = preset_inputs(&PRESETS[1]);
        let myrinet_a = (1..=4).find(|i| inputs[&format!("cal{i}_cluster")] == "wrg-a" && inputs[&format!("cal{i}_fabric")] == "Myrinet");
        let i = myrinet_a.expect("A over Myrinet is in the preset");
        inputs.insert(format!("cal{i}_fabric"), "Fast Ethernet".into());
        let view2 = evaluate(&inputs, &presets());
        let r2 = match &view2.planner {
            Some(Ok(r)) => r,
            other => panic!("planner: {other:?}"),
        };
        assert!(r2.ranking.iter().all(|p| !(p.parts.len() == 1 && p.parts[0].cluster.contains("cluster A") && p.fabric == "Myrinet")));
    }
}

/// Indices of the options on the time–cost Pareto front (no other option is both faster and
/// cheaper), ordered by time. Options are (time, cost).
pub fn pareto_front(options: &[(f64, f64)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..options.len()).filter(|&i| options[i].0.is_finite() && options[i].1.is_finite()).collect();
    order.sort_by(|&i, &j| options[i].0.total_cmp(&options[j].0).then(options[i].1.total_cmp(&options[j].1)));
    let mut front = Vec::new();
    let mut best_cost = f64::INFINITY;
    for i in order {
        if options[i].1 < best_cost {
            best_cost = options[i].1;
            front.push(i);
        }
    }
    front
}

#[cfg(test)]
mod pareto_tests {
    use super::pareto_front;

    #[test]
    fn front_by_hand() {
        // (time, cost): 0 fast and dear, 1 dominated by 2, 2 middle, 3 slow and cheap, 4 slower and dearer than 3.
        let opts = [(10.0, 9.0), (20.0, 8.0), (15.0, 5.0), (30.0, 1.0), (40.0, 2.0)];
        assert_eq!(pareto_front(&opts), vec![0, 2, 3]);
        assert_eq!(pareto_front(&[]), Vec::<usize>::new());
    }
}

/// The planner benchmark of issue 3: the White Rose calibrations (2 clusters × 2 fabrics),
/// 1024 free processes on each, every np from 2 to 1024 on each cluster alone, both fabrics
/// shared, N = 65536. Used by `make bench` natively and by the page's `bench_planner` export
/// in the browser, so both time the same work.
pub fn benchmark_planner_input() -> Option<PlannerInput> {
    let preset = crate::model::multigrid::presets::PRESETS.get(1)?;
    let mut clusters: Vec<PlannerCluster> = Vec::new();
    for (id, ppn) in [(preset.cluster_a, 1), (preset.cluster_b, 4)] {
        let mut fabrics = Vec::new();
        for c in preset.calibrations.iter().filter(|c| c.cluster_id == id) {
            let (cal, se, pe) = parse_calibration(c.sequential, c.parallel);
            if !se.is_empty() || !pe.is_empty() {
                return None;
            }
            fabrics.push(FabricFit { fabric: c.fabric.to_string(), fit: mg::fit(&cal).ok()? });
        }
        clusters.push(PlannerCluster {
            name: id.to_string(),
            free_procs: 1024,
            procs_per_node: ppn,
            memory_per_node_mb: 8192.0,
            price_per_cpu_hour: 1.0,
            fabrics,
        });
    }
    Some(PlannerInput {
        clusters,
        shared_fabrics: vec!["Fast Ethernet".into(), "Myrinet".into()],
        problem: Problem { n: 65536, bytes_per_point: 32.0 },
        candidate_np: Some((2..=1024).collect()),
        pair_candidate_np: None,
    })
}

#[cfg(test)]
mod benchmark_tests {
    #[test]
    fn benchmark_input_plans() {
        let input = super::benchmark_planner_input().expect("the preset builds a benchmark");
        assert_eq!(input.clusters.iter().map(|c| c.fabrics.len()).sum::<usize>(), 4);
        let report = super::mg::plan(&input).expect("plans");
        assert!(report.ranking.len() > 2000, "{} options", report.ranking.len());
    }
}

#[cfg(test)]
mod robustness {
    use super::*;
    use crate::model::workspace::catalog::presets;
    use crate::model::multigrid::presets::PRESETS;
    use proptest::prelude::*;

    /// Every number the page would show, collected from a view.
    fn numbers(v: &PageView) -> Vec<f64> {
        let mut out = Vec::new();
        for c in &v.calibrations {
            if let Some(f) = &c.fit {
                out.extend([f.alpha.c_s, f.alpha.d_s, f.gamma_s_per_mb, f.tcomp.intercept_s, f.tcomp.slope_s_per_mb]);
                out.extend(f.runs.iter().map(|r| r.tcomm_s));
            }
        }
        let mut plan = |p: &mg::Plan| out.extend([p.time_s, p.cost, p.cpu_hours]);
        for t in &v.target {
            if let Ok(Outcome::Feasible(p)) = &t.outcome {
                plan(p);
            }
        }
        if let Some(Ok(Outcome::Feasible(p))) = &v.split {
            plan(p);
        }
        if let Some(Ok(r)) = &v.planner {
            r.ranking.iter().for_each(&mut plan);
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// Whatever is typed into any field of the White Rose preset, the page evaluates
        /// without panicking and shows only finite numbers.
        #[test]
        fn any_text_in_any_field(
            key in prop::sample::select(vec!["cal1_seq", "cal2_par", "grid_n", "bytes_per_point", "np", "np_a", "np_b",
                                              "ppn_a", "free_b", "pair_a", "pair_fabric", "cal3_fabric", "cal_count", "derive_mb"]),
            text in "[0-9eE.,;\\t \\n+-]{0,30}|[a-z]{0,8}|[0-9]{1,12}",
        ) {
            let mut inputs = preset_inputs(&PRESETS[1]);
            inputs.insert(key.to_string(), text);
            let view = evaluate(&inputs, &presets());
            for x in numbers(&view) {
                prop_assert!(x.is_finite(), "{key}: {x}");
            }
        }
    }
}

//! Everything the multi-cluster planner page shows (seed 000): its fields ([`Field`]), read
//! once into typed [`Inputs`] by [`parse`], and what [`evaluate`] computes from them and the
//! cluster catalog. The page renders what [`view`] returns, so every number on screen is
//! tested here, natively.
//!
//! Inputs (field names of the page, also the keys of share links and workspace files):
//! `cal_count` calibrations, each `cal{i}_cluster` (catalog id), `cal{i}_fabric`,
//! `cal{i}_seq` (table: work MB, time s), `cal{i}_par` (table: np, work MB, time s); the
//! problem `grid_n`, `bytes_per_point`, target `np`; the pair of clusters `pair_a`, `pair_b`
//! with `pair_fabric`, `np_a`, `np_b`, processes per node `ppn_a`, `ppn_b` and free processes
//! `free_a`, `free_b` for the planner; `derive_rows`, `derive_cols`, `derive_mb`: a run whose
//! size gives the bytes per grid point.

use std::collections::BTreeMap;

use crate::model::catalog::Catalog;
use crate::model::cost::{self, CostLine, Economics};
use crate::model::input::table::{parse_number, parse_table, ColumnSpec, Quantity, MEGABYTES, PLAIN, SECONDS};
use crate::model::multigrid::presets::{MultigridPreset, PRESETS};
use crate::model::multigrid::{
    self as mg, Calibration, Cluster as PlannerCluster, ClusterSide, FabricFit, Fit, Outcome, ParallelRun, Plan,
    PlannerInput, PlannerReport, Problem, SequentialRun, Side,
};
use crate::model::workspace::{text, Edit, FieldErrors, PageField, PageInputs, Preset};
use crate::model::InputError;

pub const PAGE: &str = crate::model::calculators::MULTIGRID.key;
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

/// One of the four inputs of a calibration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CalPart {
    /// Catalog id of the cluster.
    Cluster,
    /// Fabric name, as in the catalog.
    Fabric,
    /// The sequential runs' table.
    Sequential,
    /// The parallel runs' table.
    Parallel,
}

impl CalPart {
    pub const ALL: [CalPart; 4] = [CalPart::Cluster, CalPart::Fabric, CalPart::Sequential, CalPart::Parallel];
}

/// The page's input fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    CalCount,
    /// One input of calibration i, 1-based as in the key, up to [`MAX_CALIBRATIONS`] (a larger
    /// index has the empty key, which holds no text).
    Cal(usize, CalPart),
    GridN,
    BytesPerPoint,
    Np,
    PairA,
    PairB,
    PairFabric,
    NpA,
    NpB,
    PpnA,
    PpnB,
    FreeA,
    FreeB,
    DeriveRows,
    DeriveCols,
    DeriveMb,
    /// Prices, node power, PUE and carbon intensity of the clusters ([`cost::parse_costs`]).
    Costs,
    /// What the planner's ranking orders by ([`RankBy`]).
    RankBy,
}

/// The keys of the calibrations' fields, by calibration and [`CalPart`].
const CAL_KEYS: [[&str; 4]; MAX_CALIBRATIONS] = [
    ["cal1_cluster", "cal1_fabric", "cal1_seq", "cal1_par"],
    ["cal2_cluster", "cal2_fabric", "cal2_seq", "cal2_par"],
    ["cal3_cluster", "cal3_fabric", "cal3_seq", "cal3_par"],
    ["cal4_cluster", "cal4_fabric", "cal4_seq", "cal4_par"],
    ["cal5_cluster", "cal5_fabric", "cal5_seq", "cal5_par"],
    ["cal6_cluster", "cal6_fabric", "cal6_seq", "cal6_par"],
    ["cal7_cluster", "cal7_fabric", "cal7_seq", "cal7_par"],
    ["cal8_cluster", "cal8_fabric", "cal8_seq", "cal8_par"],
];

/// The fields that are not a calibration's.
const SINGLE_FIELDS: [Field; 18] = [
    Field::CalCount,
    Field::GridN,
    Field::BytesPerPoint,
    Field::Np,
    Field::PairA,
    Field::PairB,
    Field::PairFabric,
    Field::NpA,
    Field::NpB,
    Field::PpnA,
    Field::PpnB,
    Field::FreeA,
    Field::FreeB,
    Field::DeriveRows,
    Field::DeriveCols,
    Field::DeriveMb,
    Field::Costs,
    Field::RankBy,
];

const ALL_FIELDS: [Field; SINGLE_FIELDS.len() + 4 * MAX_CALIBRATIONS] = {
    let mut all = [Field::CalCount; SINGLE_FIELDS.len() + 4 * MAX_CALIBRATIONS];
    let mut k = 0;
    while k < SINGLE_FIELDS.len() {
        all[k] = SINGLE_FIELDS[k];
        k += 1;
    }
    let mut i = 0;
    while i < MAX_CALIBRATIONS {
        let mut p = 0;
        while p < 4 {
            all[SINGLE_FIELDS.len() + 4 * i + p] = Field::Cal(i + 1, CalPart::ALL[p]);
            p += 1;
        }
        i += 1;
    }
    all
};

impl PageField for Field {
    const ALL: &'static [Field] = &ALL_FIELDS;

    fn key(self) -> &'static str {
        match self {
            Field::CalCount => "cal_count",
            Field::Cal(i, part) => {
                i.checked_sub(1).and_then(|i| CAL_KEYS.get(i)).map_or("", |keys| keys[part as usize])
            }
            Field::GridN => "grid_n",
            Field::BytesPerPoint => "bytes_per_point",
            Field::Np => "np",
            Field::PairA => "pair_a",
            Field::PairB => "pair_b",
            Field::PairFabric => "pair_fabric",
            Field::NpA => "np_a",
            Field::NpB => "np_b",
            Field::PpnA => "ppn_a",
            Field::PpnB => "ppn_b",
            Field::FreeA => "free_a",
            Field::FreeB => "free_b",
            Field::DeriveRows => "derive_rows",
            Field::DeriveCols => "derive_cols",
            Field::DeriveMb => "derive_mb",
            Field::Costs => "costs",
            Field::RankBy => "rank_by",
        }
    }
}

impl Field {
    /// The field of a key, if the page has one.
    pub fn from_key(key: &str) -> Option<Field> {
        Field::ALL.iter().copied().find(|f| f.key() == key)
    }
}

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
    pub derived_bytes_per_point: Option<Result<f64, InputError>>,
}

/// One calibration's inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct CalibrationInputs {
    /// 1-based, as in the field names.
    pub index: usize,
    pub cluster_id: String,
    pub fabric: String,
    /// The runs of both tables; None while either table has an error.
    pub runs: Option<Calibration>,
}

/// A run whose size gives the bytes per grid point: `rows` rows per process of `columns`
/// columns in `work_mb` MB.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeriveRun {
    pub rows: u64,
    pub columns: u32,
    pub work_mb: f64,
}

/// The page's inputs, each read once. A field with an error holds None (and the error is in
/// the [`FieldErrors`] that [`parse`] returns).
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// `cal_count` of them (1 to [`MAX_CALIBRATIONS`]; anything else counts as 1 or 8).
    pub calibrations: Vec<CalibrationInputs>,
    /// Grid side N, at least 2.
    pub grid_n: Option<u32>,
    pub bytes_per_point: Option<f64>,
    /// The target np, at least 1.
    pub np: Option<u32>,
    /// Catalog ids of the pair; `pair_b` may be empty (then the planner ranks A alone).
    pub pair_a: String,
    pub pair_b: String,
    /// The fabric asked for between them; the first shared one when it is not shared.
    pub pair_fabric: String,
    pub np_a: Option<u32>,
    pub free_a: Option<u32>,
    /// None also when there is no second cluster.
    pub np_b: Option<u32>,
    pub free_b: Option<u32>,
    /// Processes per node: Some(None) when left empty (the catalog's cores per node).
    pub ppn_a: Option<Option<u32>>,
    pub ppn_b: Option<Option<u32>>,
    /// None while the three fields are empty or one of them has an error.
    pub derive: Option<DeriveRun>,
    /// The costs table's lines (empty while it has an error).
    pub costs: Vec<CostLine>,
    pub rank_by: RankBy,
}

/// What the planner's options are ranked by: each lowest first, options without the figure
/// (or priced in another currency than the first priced option) last, ties by time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RankBy {
    #[default]
    Time,
    Price,
    Energy,
    Carbon,
}

impl RankBy {
    pub const ALL: [RankBy; 4] = [RankBy::Time, RankBy::Price, RankBy::Energy, RankBy::Carbon];

    pub fn key(self) -> &'static str {
        match self {
            RankBy::Time => "time",
            RankBy::Price => "price",
            RankBy::Energy => "energy",
            RankBy::Carbon => "carbon",
        }
    }

    /// The figure of `plan` this order compares (price: in `currency`).
    fn value(self, plan: &Plan, currency: Option<&str>) -> Option<f64> {
        match self {
            RankBy::Time => Some(plan.time_s),
            RankBy::Price => plan.price.as_ref().filter(|m| Some(m.currency.as_str()) == currency).map(|m| m.amount),
            RankBy::Energy => plan.energy_kwh,
            RankBy::Carbon => plan.co2e_kg,
        }
    }

    /// `ranking` (fastest first) in this order.
    pub fn order(self, ranking: &mut [Plan]) {
        if self == RankBy::Time {
            return;
        }
        let currency = first_currency(ranking);
        // An option without the figure goes last (its key is infinite).
        let key = |p: &Plan| (self.value(p, currency.as_deref()).unwrap_or(f64::INFINITY), p.time_s, p.total_np());
        mg::planner::sort_plans(ranking, &key);
    }
}

fn first_currency(ranking: &[Plan]) -> Option<String> {
    ranking.iter().find_map(|p| p.price.as_ref().map(|m| m.currency.clone()))
}

/// The option of lowest carbon among those on the time–price Pareto front (no other option
/// both faster and cheaper; price in the first priced option's currency, else the catalog's
/// cost), as an index of `ranking`; None when no option's carbon is known.
pub fn lowest_carbon_on_front(ranking: &[Plan]) -> Option<usize> {
    let currency = first_currency(ranking);
    let price = |p: &Plan| match &currency {
        Some(c) => p.price.as_ref().filter(|m| &m.currency == c).map_or(f64::INFINITY, |m| m.amount),
        None => p.cost,
    };
    let points: Vec<(f64, f64)> = ranking.iter().map(|p| (p.time_s, price(p))).collect();
    pareto_front(&points)
        .into_iter()
        .filter_map(|i| Some((i, ranking[i].co2e_kg?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

impl Inputs {
    /// Two different clusters are chosen: a job may span both.
    pub fn two_clusters(&self) -> bool {
        two_clusters(&self.pair_a, &self.pair_b)
    }

    /// The grid, when its side and bytes per point are valid.
    pub fn problem(&self) -> Option<Problem> {
        Some(Problem { n: self.grid_n?, bytes_per_point: self.bytes_per_point? })
    }
}

fn two_clusters(a: &str, b: &str) -> bool {
    !a.is_empty() && !b.is_empty() && a != b
}

/// A whole number of at least `min` in `field` (called `what` in its error).
fn whole_number(field: Field, text: &str, what: &str, min: u32) -> Result<u32, InputError> {
    let text = text.trim();
    let fail = |m: String| Err(InputError::new(field.key(), format!("{what}: {m}")));
    match text.parse::<u32>() {
        Ok(v) if v >= min => Ok(v),
        Ok(_) => fail(format!("expected a whole number of at least {min}")),
        Err(_) if text.is_empty() => fail("a value is needed".into()),
        // Digits only, but more than a u32 holds: whole, and too large (not "not whole").
        Err(_) if text.bytes().all(|b| b.is_ascii_digit()) => {
            let shown: String = text.chars().take(20).collect();
            fail(format!("{shown}{} is too large: at most {}", if text.len() > 20 { "…" } else { "" }, u32::MAX))
        }
        Err(_) => fail(format!("expected a whole number, found \"{}\"", text.chars().take(20).collect::<String>())),
    }
}

/// A number greater than 0 in `field` (called `what` in its error).
fn positive_number(field: Field, text: &str, what: &str) -> Result<f64, InputError> {
    let text = text.trim();
    match parse_number(text) {
        Some(v) if v > 0.0 => Ok(v),
        _ => {
            let found = if text.is_empty() { "nothing".to_string() } else { format!("\"{text}\"") };
            Err(InputError::new(field.key(), format!("{what}: expected a number greater than 0, found {found}")))
        }
    }
}

/// The sequential runs of a table; errors name `field`.
pub fn sequential_runs(field: &str, text: &str) -> Result<Vec<SequentialRun>, InputError> {
    let table = parse_table(field, text, SEQUENTIAL_COLUMNS)?;
    Ok(table
        .rows
        .into_iter()
        .filter_map(|r| match r.values[..] {
            [Some(w), Some(time)] => Some(SequentialRun { work_mb: w, time_s: time, line: Some(r.line) }),
            _ => None,
        })
        .collect())
}

/// The parallel runs of a table; errors name `field`.
pub fn parallel_runs(field: &str, text: &str) -> Result<Vec<ParallelRun>, InputError> {
    let table = parse_table(field, text, PARALLEL_COLUMNS)?;
    Ok(table
        .rows
        .into_iter()
        .filter_map(|r| match r.values[..] {
            // parse_table checked np is a whole number within u32.
            [Some(np), Some(w), Some(time)] => {
                Some(ParallelRun { np: np as u32, work_mb: w, time_s: time, line: Some(r.line) })
            }
            _ => None,
        })
        .collect())
}

/// Reads the page's fields, collecting the errors.
struct Reader<'a> {
    texts: &'a PageInputs,
    errors: FieldErrors,
}

impl Reader<'_> {
    fn text(&self, field: Field) -> &str {
        text(self.texts, field)
    }

    fn keep<T>(&mut self, value: Result<T, InputError>) -> Option<T> {
        value.map_err(|e| self.errors.push(e)).ok()
    }

    fn whole(&mut self, field: Field, what: &str, min: u32) -> Option<u32> {
        let v = whole_number(field, self.text(field), what, min);
        self.keep(v)
    }

    /// Processes per node: empty means the catalog's cores per node.
    fn per_node(&mut self, field: Field, what: &str) -> Option<Option<u32>> {
        if self.text(field).trim().is_empty() {
            Some(None)
        } else {
            self.whole(field, what, 1).map(Some)
        }
    }

    fn calibration(&mut self, index: usize) -> CalibrationInputs {
        let field = |part| Field::Cal(index, part);
        let seq = sequential_runs(field(CalPart::Sequential).key(), self.text(field(CalPart::Sequential)));
        let par = parallel_runs(field(CalPart::Parallel).key(), self.text(field(CalPart::Parallel)));
        let runs = match (seq, par) {
            (Ok(sequential), Ok(parallel)) => Some(Calibration { sequential, parallel }),
            (seq, par) => {
                self.errors.extend(seq.err().into_iter().chain(par.err()));
                None
            }
        };
        CalibrationInputs {
            index,
            cluster_id: self.text(field(CalPart::Cluster)).to_string(),
            fabric: self.text(field(CalPart::Fabric)).to_string(),
            runs,
        }
    }

    /// The run that gives bytes per point; only its first bad field is reported.
    fn derive(&mut self) -> Option<DeriveRun> {
        let [rows, cols, mb] = [Field::DeriveRows, Field::DeriveCols, Field::DeriveMb].map(|f| self.text(f).trim());
        if rows.is_empty() && cols.is_empty() && mb.is_empty() {
            return None;
        }
        let run = (|| {
            let rows = rows.parse::<u64>().map_err(|_| (Field::DeriveRows, "expected a whole number"))?;
            let columns = cols.parse::<u32>().map_err(|_| (Field::DeriveCols, "expected a whole number"))?;
            let work_mb = parse_number(mb).ok_or((Field::DeriveMb, "expected a number of MB"))?;
            Ok(DeriveRun { rows, columns, work_mb })
        })();
        run.map_err(|(field, message)| self.errors.push(InputError::new(field.key(), message))).ok()
    }
}

/// Reads every field once: the typed inputs, and the errors of the fields that have one
/// (each naming its field's key).
pub fn parse(texts: &PageInputs) -> (Inputs, FieldErrors) {
    let mut r = Reader { texts, errors: FieldErrors::new() };
    let count = r.text(Field::CalCount).trim().parse::<usize>().unwrap_or(1).clamp(1, MAX_CALIBRATIONS);
    let calibrations = (1..=count).map(|i| r.calibration(i)).collect();
    let grid_n = r.whole(Field::GridN, "grid side N", 2);
    let bpp = positive_number(Field::BytesPerPoint, r.text(Field::BytesPerPoint), "bytes per grid point");
    let bytes_per_point = r.keep(bpp);
    let np = r.whole(Field::Np, "target np", 1);
    let (pair_a, pair_b) = (r.text(Field::PairA).to_string(), r.text(Field::PairB).to_string());
    // Cluster B is optional: without it its fields are not read.
    let two = two_clusters(&pair_a, &pair_b);
    let ppn_a = r.per_node(Field::PpnA, "processes per node on A");
    let ppn_b = if two { r.per_node(Field::PpnB, "processes per node on B") } else { Some(None) };
    let np_a = r.whole(Field::NpA, "processes on A", 1);
    let free_a = r.whole(Field::FreeA, "free processes on A", 1);
    let np_b = if two { r.whole(Field::NpB, "processes on B", 1) } else { None };
    let free_b = if two { r.whole(Field::FreeB, "free processes on B", 1) } else { None };
    let inputs = Inputs {
        calibrations,
        grid_n,
        bytes_per_point,
        np,
        pair_fabric: r.text(Field::PairFabric).to_string(),
        pair_a,
        pair_b,
        np_a,
        free_a,
        np_b,
        free_b,
        ppn_a,
        ppn_b,
        derive: r.derive(),
        costs: {
            let lines = cost::parse_costs(Field::Costs.key(), r.text(Field::Costs));
            r.keep(lines).unwrap_or_default()
        },
        rank_by: {
            let t = r.text(Field::RankBy).trim();
            let by = RankBy::ALL.into_iter().find(|b| b.key() == t || t.is_empty()).ok_or_else(|| {
                InputError::new(
                    Field::RankBy.key(),
                    format!("rank by: expected time, price, energy or carbon, found \"{t}\""),
                )
            });
            r.keep(by).unwrap_or_default()
        },
    };
    (inputs, r.errors)
}

/// Computes the page from its inputs; the field errors are [`view`]'s to attach.
pub fn evaluate(inputs: &Inputs, catalog: &Catalog) -> PageView {
    let calibrations: Vec<CalibrationView> = inputs.calibrations.iter().map(|c| calibration_view(c, catalog)).collect();
    let problem = inputs.problem();
    let target = match (&problem, inputs.np) {
        (Some(problem), Some(np)) => target_rows(inputs, &calibrations, catalog, problem, np),
        _ => Vec::new(),
    };
    let pair = problem.as_ref().map(|p| pair_section(inputs, catalog, &calibrations, p)).unwrap_or_default();
    let derived_bytes_per_point = inputs.derive.map(|d| mg::bytes_per_point(d.work_mb, d.rows, d.columns));
    PageView {
        calibrations,
        field_errors: BTreeMap::new(),
        problem,
        np: inputs.np,
        target,
        pair_fabrics: pair.fabrics,
        split: pair.split,
        planner: pair.planner,
        derived_bytes_per_point,
    }
}

/// The page for its texts: [`parse`], [`evaluate`], and each field error where the page shows it.
pub fn view(texts: &PageInputs, catalog: &Catalog) -> PageView {
    let (inputs, errors) = parse(texts);
    let mut view = evaluate(&inputs, catalog);
    for e in errors {
        attach(&mut view, e);
    }
    view
}

fn attach(view: &mut PageView, mut e: InputError) {
    match Field::from_key(&e.field) {
        Some(Field::Cal(i, part)) => {
            let Some(c) = view.calibrations.iter_mut().find(|c| c.index == i) else { return };
            // Under a table the error names the table, as the model's fit errors do.
            let (label, list) = match part {
                CalPart::Parallel => (mg::PARALLEL_FIELD, &mut c.parallel_errors),
                _ => (mg::SEQUENTIAL_FIELD, &mut c.sequential_errors),
            };
            e.field = label.to_string();
            list.push(e);
        }
        // Under the run it describes, the error names the part of it, as the model's do.
        Some(f @ (Field::DeriveRows | Field::DeriveCols | Field::DeriveMb)) => {
            e.field = match f {
                Field::DeriveRows => "rows per process",
                Field::DeriveCols => "columns",
                _ => "work",
            }
            .to_string();
            view.derived_bytes_per_point = Some(Err(e));
        }
        // The costs table's error keeps its line and column.
        Some(Field::Costs) => {
            view.field_errors.insert(e.field.clone(), e.local_text());
        }
        _ => {
            view.field_errors.insert(e.field, e.message);
        }
    }
}

fn calibration_view(c: &CalibrationInputs, catalog: &Catalog) -> CalibrationView {
    let index = c.index;
    let mut choice_errors = Vec::new();
    match catalog.cluster(&c.cluster_id) {
        None => choice_errors.push(InputError::new(
            format!("calibration {index}"),
            format!("no cluster \"{}\" in the catalog; choose one", c.cluster_id),
        )),
        Some(cl) if cl.fabric(&c.fabric).is_none() => choice_errors.push(InputError::new(
            format!("calibration {index}"),
            format!("{} has no fabric \"{}\"; choose one of its fabrics", cl.name, c.fabric),
        )),
        Some(_) => {}
    }
    let (mut sequential_errors, mut parallel_errors) = (Vec::new(), Vec::new());
    let fit = c.runs.as_ref().and_then(|runs| {
        mg::fit(runs)
            .map_err(|errs| {
                for e in errs {
                    if e.field == mg::SEQUENTIAL_FIELD {
                        sequential_errors.push(e);
                    } else {
                        parallel_errors.push(e);
                    }
                }
            })
            .ok()
    });
    CalibrationView {
        index,
        cluster_id: c.cluster_id.clone(),
        fabric: c.fabric.clone(),
        choice_errors,
        sequential_errors,
        parallel_errors,
        fit,
    }
}

/// The processes per node the page places on cluster `id`: the pair's field when `id` is
/// one of the pair and the field is given, else the catalog's cores per node (nodes filled).
/// The per-cluster table, the ranking and the allocation all place processes this way.
pub fn procs_per_node(inputs: &Inputs, catalog: &Catalog, id: &str) -> Option<u32> {
    let catalog_ppn = catalog.cluster(id).map_or(1, |c| c.cores_per_node.max(1));
    let field = if id == inputs.pair_a {
        inputs.ppn_a
    } else if id == inputs.pair_b && inputs.two_clusters() {
        inputs.ppn_b
    } else {
        Some(None)
    };
    field.map(|p| p.unwrap_or(catalog_ppn))
}

/// Each calibrated (cluster, fabric) alone at the target np, placed as [`procs_per_node`] says.
fn target_rows(
    inputs: &Inputs,
    calibrations: &[CalibrationView],
    catalog: &Catalog,
    problem: &Problem,
    np: u32,
) -> Vec<TargetRow> {
    let mut rows = Vec::new();
    for cv in calibrations.iter().filter(|cv| cv.choice_errors.is_empty()) {
        let (Some(fit), Some(c)) = (&cv.fit, catalog.cluster(&cv.cluster_id)) else { continue };
        let Some(ppn) = procs_per_node(inputs, catalog, &cv.cluster_id) else { continue };
        let side = ClusterSide {
            name: c.name.clone(),
            fabric: cv.fabric.clone(),
            free_procs: u32::try_from(u64::from(c.nodes) * u64::from(ppn)).unwrap_or(u32::MAX),
            procs_per_node: ppn,
            memory_per_node_mb: memory_mb(c.memory_per_node_gb),
            price_per_cpu_hour: c.price_per_cpu_hour,
            economics: economics(inputs, c),
        };
        let outcome = mg::plan_alone(Side { cluster: &side, fit }, np, problem);
        rows.push(TargetRow { cluster: c.name.clone(), fabric: cv.fabric.clone(), outcome });
    }
    rows
}

/// What the page shows about the pair of clusters.
#[derive(Default)]
struct PairSection {
    fabrics: Vec<String>,
    split: Option<Result<Outcome, Vec<InputError>>>,
    planner: Option<Result<PlannerReport, Vec<InputError>>>,
}

fn pair_section(
    inputs: &Inputs,
    catalog: &Catalog,
    calibrations: &[CalibrationView],
    problem: &Problem,
) -> PairSection {
    let mut out = PairSection::default();
    let ppn_a = procs_per_node(inputs, catalog, &inputs.pair_a);
    let ppn_b = if inputs.two_clusters() { procs_per_node(inputs, catalog, &inputs.pair_b) } else { Some(1) };
    let (Some(ppn_a), Some(ppn_b)) = (ppn_a, ppn_b) else { return out };
    let two = inputs.two_clusters();
    let a = planner_cluster(inputs, catalog, &inputs.pair_a, ppn_a, inputs.free_a.unwrap_or(1), calibrations);
    let b = if two {
        planner_cluster(inputs, catalog, &inputs.pair_b, ppn_b, inputs.free_b.unwrap_or(1), calibrations)
    } else {
        None
    };
    if let (Some(a), Some(b)) = (&a, &b) {
        out.fabrics = catalog
            .links_between(&inputs.pair_a, &inputs.pair_b)
            .map(|l| l.fabric.name.clone())
            .filter(|f| a.fabrics.iter().any(|x| &x.fabric == f) && b.fabrics.iter().any(|x| &x.fabric == f))
            .collect();
        out.split = split(inputs, a, b, &out.fabrics, problem);
    }
    if let (Some(a), Some(_), Some(_)) = (&a, inputs.free_a, if two { inputs.free_b } else { Some(1) }) {
        let mut clusters = vec![a.clone()];
        clusters.extend(b.clone());
        if clusters.iter().any(|c| !c.fabrics.is_empty()) {
            let input = PlannerInput {
                clusters,
                shared_fabrics: out.fabrics.clone(),
                problem: problem.clone(),
                candidate_np: None,
                pair_candidate_np: None,
            };
            let mut report = mg::plan(&input);
            if let Ok(r) = &mut report {
                inputs.rank_by.order(&mut r.ranking);
            }
            out.planner = Some(report);
        }
    }
    out
}

/// The chosen pair at np_a + np_b over the chosen fabric (or the first shared one).
fn split(
    inputs: &Inputs,
    a: &PlannerCluster,
    b: &PlannerCluster,
    fabrics: &[String],
    problem: &Problem,
) -> Option<Result<Outcome, Vec<InputError>>> {
    let fabric = fabrics.iter().find(|f| **f == inputs.pair_fabric).or(fabrics.first())?;
    let (np_a, np_b) = (inputs.np_a?, inputs.np_b?);
    let (sa, sb) = (side_of(a, fabric, np_a), side_of(b, fabric, np_b));
    let (fa, fb) = (fit_of(a, fabric)?, fit_of(b, fabric)?);
    Some(mg::plan_pair(Side { cluster: &sa, fit: fa }, np_a, Side { cluster: &sb, fit: fb }, np_b, problem))
}

/// A catalog cluster as the planner sees it, with this page's processes per node and free
/// processes. Memory per node of 0 (unknown) means no memory limit can be checked: the
/// planner is given an effectively unlimited memory and the page says so.
fn planner_cluster(
    inputs: &Inputs,
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
        economics: economics(inputs, c),
    })
}

/// A cluster's price, power and carbon: the catalog's, with the costs table's line for it.
fn economics(inputs: &Inputs, c: &crate::model::catalog::Cluster) -> Economics {
    let e = Economics::of(c);
    match inputs.costs.iter().find(|l| l.cluster == c.id) {
        Some(line) => line.apply(e),
        None => e,
    }
}

fn memory_mb(gb: f64) -> f64 {
    if gb > 0.0 {
        gb * 1024.0
    } else {
        f64::MAX / 4.0
    }
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

/// The texts a preset puts in the page's fields.
fn preset_inputs(p: &MultigridPreset) -> PageInputs {
    let mut m = PageInputs::new();
    let mut set = |f: Field, v: String| {
        m.insert(f.key().to_string(), v);
    };
    set(Field::CalCount, p.calibrations.len().to_string());
    for (i, c) in p.calibrations.iter().enumerate() {
        let i = i + 1;
        set(Field::Cal(i, CalPart::Cluster), c.cluster_id.to_string());
        set(Field::Cal(i, CalPart::Fabric), c.fabric.to_string());
        set(Field::Cal(i, CalPart::Sequential), c.sequential.to_string());
        set(Field::Cal(i, CalPart::Parallel), c.parallel.to_string());
    }
    set(Field::GridN, p.grid_n.to_string());
    set(Field::BytesPerPoint, p.bytes_per_point.to_string());
    set(Field::Np, p.np.to_string());
    set(Field::PairA, p.cluster_a.to_string());
    set(Field::PairB, p.cluster_b.to_string());
    set(Field::PairFabric, String::new());
    let b_text = |v: u32| if p.cluster_b.is_empty() { String::new() } else { v.to_string() };
    set(Field::NpA, p.np_a.to_string());
    set(Field::NpB, b_text(p.np_b));
    set(Field::PpnA, p.procs_per_node_a.to_string());
    set(Field::PpnB, b_text(p.procs_per_node_b));
    set(Field::FreeA, p.free_a.to_string());
    set(Field::FreeB, b_text(p.free_b));
    m
}

/// The page's presets (see [`crate::model::multigrid::presets`] for where their numbers
/// come from).
pub fn presets() -> Vec<Preset> {
    PRESETS
        .iter()
        .map(|p| Preset { key: p.key, name: p.name, description: p.description, inputs: preset_inputs(p) })
        .collect()
}

/// The page's inputs before the user has touched it: the spec's worked example.
pub fn default_inputs() -> PageInputs {
    PRESETS.first().map(preset_inputs).unwrap_or_default()
}

crate::model::calculators::usual_contract!(
    /// The planner's row in the table of calculators.
    MultigridPage
);

/// The edit that adds one more calibration (of `cluster_id` over `fabric`, empty tables) after
/// the page's `count`, unless the page holds [`MAX_CALIBRATIONS`] already.
pub fn add_calibration(count: usize, cluster_id: &str, fabric: &str) -> Edit {
    if count >= MAX_CALIBRATIONS {
        return Edit::default();
    }
    let i = count + 1;
    let set = |part, v: &str| (Field::Cal(i, part).key().to_string(), v.to_string());
    let set = vec![
        set(CalPart::Cluster, cluster_id),
        set(CalPart::Fabric, fabric),
        set(CalPart::Sequential, "work (MB)\ttime (s)\n"),
        set(CalPart::Parallel, "np\twork (MB)\ttime (s)\n"),
        (Field::CalCount.key().to_string(), i.to_string()),
    ];
    Edit { set, ..Edit::default() }
}

/// The edit that removes calibration `index` (1-based) of the page's `count` (as its view
/// has them): the later ones move down one place (their texts as they are when the edit is
/// applied); the last one's fields are left empty.
pub fn remove_calibration(count: usize, index: usize) -> Edit {
    let count = count.min(MAX_CALIBRATIONS);
    let key = |j, part| Field::Cal(j, part).key().to_string();
    let mut set: Vec<(String, String)> = CalPart::ALL.iter().map(|&part| (key(count, part), String::new())).collect();
    set.push((Field::CalCount.key().to_string(), count.saturating_sub(1).max(1).to_string()));
    Edit {
        copy: (index..count)
            .flat_map(|j| CalPart::ALL.iter().map(move |&part| (key(j + 1, part), key(j, part))))
            .collect(),
        set,
    }
}

/// Indices of the options on the time–cost Pareto front (no other option is both faster and
/// cheaper), ordered by time. Options are (time, cost).
pub fn pareto_front(options: &[(f64, f64)]) -> Vec<usize> {
    let mut order: Vec<usize> =
        (0..options.len()).filter(|&i| options[i].0.is_finite() && options[i].1.is_finite()).collect();
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

/// The planner benchmark of issue 3: the White Rose calibrations (2 clusters × 2 fabrics),
/// 1024 free processes on each, every np from 2 to 1024 on each cluster alone, both fabrics
/// shared, N = 65536. Used by `make bench` (tests/bench_planner.rs).
pub fn benchmark_planner_input() -> Option<PlannerInput> {
    let preset = PRESETS.get(1)?;
    let mut clusters: Vec<PlannerCluster> = Vec::new();
    for (id, ppn) in [(preset.cluster_a, 1), (preset.cluster_b, 4)] {
        let mut fabrics = Vec::new();
        for c in preset.calibrations.iter().filter(|c| c.cluster_id == id) {
            let sequential = sequential_runs(mg::SEQUENTIAL_FIELD, c.sequential).ok()?;
            let parallel = parallel_runs(mg::PARALLEL_FIELD, c.parallel).ok()?;
            let fit = mg::fit(&Calibration { sequential, parallel }).ok()?;
            fabrics.push(FabricFit { fabric: c.fabric.to_string(), fit });
        }
        clusters.push(PlannerCluster {
            name: id.to_string(),
            free_procs: 1024,
            procs_per_node: ppn,
            memory_per_node_mb: 8192.0,
            price_per_cpu_hour: 1.0,
            fabrics,
            economics: Economics::default(),
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
mod tests;

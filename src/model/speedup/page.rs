//! Everything the speed-up fitting page shows (seed 004): its fields, read once into typed
//! [`Inputs`] by [`parse`], and what [`evaluate`] computes from them. The page renders what
//! [`view`] returns; every number on screen is tested here, natively.
//!
//! Input fields (names of the page's inputs, of share links and of workspace files):
//! - `points`: the pasted table. Columns `n` (whole, ≥ 1), then `time` (with a unit in the
//!   header: `time (ms)`, `time_s`; seconds when none) or `speedup`, and an optional
//!   `weight`; with a header, an optional `nodes` (the nodes each run used; a header whose
//!   only count is `nodes` reads it as n, as before). With a header the columns may come in
//!   any order; without one they are n, value, weight, and the value is what
//!   `second_column` says.
//! - `second_column`: `speedup` (default) or `time`: what the second column of a table
//!   without a header holds.
//! - `target`: process counts to predict at, separated by commas or spaces ("128, 256").
//! - `include_past_peak`: "1", "true", "yes" or "on" puts the points after the speed-up peak
//!   back into the fits of the models that cannot fall; anything else leaves them out.
//! - `models`: the models to fit, comma separated (`downey, usl`); empty means every model.
//! - `chart_y`: `speedup` (default) or `time`; `chart_axes`: `log` (default) or `linear`.
//! - `cores_per_node`: processes one node holds (empty: not said). With it, or with nodes in
//!   the table, the forecast says which predictions need more nodes than the measured runs.

use std::collections::BTreeMap;

use crate::model::catalog::Catalog;
pub use crate::model::chart::{Band, Series};
use crate::model::fit::{calibration, forecast};
use crate::model::input::list::{self, ListSpec};
use crate::model::input::table::{self, ColumnSpec, Quantity, PLAIN, SECONDS};
use crate::model::speedup::weak::{analyse_sent, Weak, REGION_KEY};
use crate::model::speedup::{
    analyse, Analysis, Fit, Measure, Model, Options, PointView, Prediction, RawPoint, Space, Suggestion, MODELS,
};
use crate::model::workspace::{text, FieldErrors, PageField, PageInputs, Preset};
use crate::model::{fmt_num, InputError, Warning};

pub const PAGE: &str = crate::model::calculators::SPEEDUP.key;
/// The page's lead, its list of models made from the list of families when compiling.
pub const LEAD: &str = crate::model::concat_const!(
    "Paste run times or speed-ups measured at a few process counts; see Downey's model (A = average parallelism, \
     σ = variance of parallelism) fitted next to ",
    crate::model::fit::RIVALS,
    ", with their uncertainty, and the curve predicted where you have not measured (Lan 2007). A weak-scaling \
     series (the work grows with n)? Choose weak scaling: its time and efficiency are predicted instead."
);
/// Most target process counts predicted at once.
pub const MAX_TARGETS: usize = 8;
/// Points of the chart's log-spaced n grid.
pub const CHART_POINTS: usize = 64;

/// The page's input fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Points,
    SecondColumn,
    Target,
    IncludePastPeak,
    Models,
    ChartY,
    ChartAxes,
    CoresPerNode,
    /// "strong" (a fixed problem, the default) or "weak" (the work grows with n).
    Scaling,
}

impl PageField for Field {
    const ALL: &'static [Field] = &[
        Field::Points,
        Field::SecondColumn,
        Field::Target,
        Field::IncludePastPeak,
        Field::Models,
        Field::ChartY,
        Field::ChartAxes,
        Field::CoresPerNode,
        Field::Scaling,
    ];

    fn key(self) -> &'static str {
        match self {
            Field::Points => "points",
            Field::SecondColumn => "second_column",
            Field::Target => "target",
            Field::IncludePastPeak => "include_past_peak",
            Field::Models => "models",
            Field::ChartY => "chart_y",
            Field::ChartAxes => "chart_axes",
            Field::CoresPerNode => crate::model::fit::CORES_PER_NODE,
            Field::Scaling => "scaling",
        }
    }
}

const N_COLUMN: ColumnSpec =
    ColumnSpec::new("n", Quantity::Plain, PLAIN).aliases(&["np", "p", "procs", "processes", "cores"]).integer();
/// A table whose only count is "nodes" counts nodes as n (as it always has).
const N_OR_NODES_COLUMN: ColumnSpec = N_COLUMN.aliases(&["np", "p", "procs", "processes", "nodes", "cores"]);
const NODES_COLUMN: ColumnSpec = ColumnSpec::new("nodes", Quantity::Plain, PLAIN).integer().optional();
const TIME_COLUMN: ColumnSpec = ColumnSpec::new("time", Quantity::Time, SECONDS).aliases(&["t", "runtime", "seconds"]);
const SPEEDUP_COLUMN: ColumnSpec = ColumnSpec::new("speedup", Quantity::Plain, PLAIN).aliases(&["speed_up", "s", "sp"]);
const WEIGHT_COLUMN: ColumnSpec =
    ColumnSpec::new("weight", Quantity::Plain, PLAIN).aliases(&["w", "weights"]).optional();

/// The columns a table with a header may have.
pub const POINT_COLUMNS: &[ColumnSpec] =
    &[N_COLUMN, TIME_COLUMN.optional(), SPEEDUP_COLUMN.optional(), WEIGHT_COLUMN, NODES_COLUMN];
/// The same, "nodes" read as n (a header without another count).
const NODE_COUNT_COLUMNS: &[ColumnSpec] =
    &[N_OR_NODES_COLUMN, TIME_COLUMN.optional(), SPEEDUP_COLUMN.optional(), WEIGHT_COLUMN];

/// The points table as read: the raw points (validated by the analysis), what they measure.
#[derive(Debug, Clone, PartialEq)]
pub struct PointTable {
    pub raw: Vec<RawPoint>,
    pub measure: Measure,
    /// With a header the columns may come in any order, so errors name no column.
    pub had_header: bool,
    /// Said next to the results (a table with both times and speed-ups).
    pub note: Option<String>,
}

/// The page's inputs, each read once; a field with an error holds its default (and the error
/// is in the [`FieldErrors`] that [`parse`] returns).
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// None while the table has an error.
    pub points: Option<PointTable>,
    pub targets: Vec<u32>,
    pub include_past_peak: bool,
    /// The models asked for, as typed; every model when none is.
    pub models: Vec<Model>,
    /// The chart shows times (where the points have them) rather than speed-ups.
    pub chart_time: bool,
    pub log_axes: bool,
    /// Processes per node, where said.
    pub cores_per_node: Option<u32>,
    /// A weak-scaling series: the time is modelled and the efficiency is T(n₀)/T(n).
    pub weak: bool,
}

/// A parameter as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamView {
    pub name: &'static str,
    pub value: f64,
    pub std_err: Option<f64>,
    /// "24.87 ± 0.27" (or the value alone without an uncertainty; T1 with "s").
    pub text: String,
}

/// One row of the model table: a fit, or a model skipped with its reason.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRow {
    pub model: Model,
    /// Shown name ("Amdahl/Dowdy").
    pub label: &'static str,
    pub params: Vec<ParamView>,
    pub sse: Option<f64>,
    pub aicc: Option<f64>,
    pub loo: Option<f64>,
    /// Points the model was fitted to.
    pub points_used: usize,
    pub is_best: bool,
    pub ranked: bool,
    pub converged: bool,
    /// Residuals (n, measured − fitted) in the fitted space.
    pub residuals: Vec<(u32, f64)>,
    pub notes: Vec<String>,
    /// Why the model was not fitted (then params is empty and the numbers None).
    pub skipped_reason: Option<String>,
    pub predictions: Vec<Prediction>,
}

/// A forecast at one target, with how often such ranges held on the corpus.
#[derive(Debug, Clone, PartialEq)]
pub struct ForecastRow {
    pub prediction: Prediction,
    /// Held-out share inside, the number of predictions and the median width, at this
    /// horizon (for as many measured counts).
    pub held_out: (f64, usize, f64),
    /// "at 2–4× the largest measured n, such ranges held 89 % of 102 predictions on sources
    /// they were not set on".
    pub track_record: String,
    /// Said when every measured run sat in one node and this prediction needs more.
    pub node_note: Option<String>,
}

/// One row of the forecast's track record: how its ranges held on sources held out.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackRow {
    /// "up to 2×", "2–4×", …, or the node case.
    pub label: String,
    pub coverage: f64,
    pub predictions: usize,
    /// Median width over the prediction (None where not kept).
    pub width: Option<f64>,
}

/// The chart: measured points, every fitted curve, the band of the best one.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartData {
    /// True when y is time in seconds, false for speed-up.
    pub y_is_time: bool,
    pub log_axes: bool,
    pub x_label: &'static str,
    pub y_label: &'static str,
    /// Points used by every fit.
    pub measured: Series,
    /// Points left out of the non-declining fits (past the peak).
    pub excluded: Series,
    /// One curve per fitted model, over a log-spaced n grid from 1 to max(target, 2·max n).
    pub curves: Vec<(Model, Series)>,
    /// The forecast and its range, from the largest measured n (its anchor) on.
    pub forecast: Option<Series>,
    pub band: Option<Band>,
}

/// Everything on the page.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PageView {
    /// An error in the points table (with line and column where it has them).
    pub points_error: Option<InputError>,
    /// Errors of the other fields, keyed by field name.
    pub field_errors: BTreeMap<String, String>,
    /// Times (with or without an n = 1 run) or speed-ups; None without valid points.
    pub measure: Option<Measure>,
    /// Speedup, or Time when T1 is fitted (times without an n = 1 run).
    pub space: Option<Space>,
    pub t1_measured: Option<f64>,
    pub points: Vec<PointView>,
    /// One row per model asked for, fitted or skipped, in the order of [`MODELS`].
    pub models: Vec<ModelRow>,
    pub best: Option<Model>,
    pub best_reason: String,
    pub targets: Vec<u32>,
    /// The best model's predictions at the targets.
    pub best_predictions: Vec<Prediction>,
    /// The forecast at the targets: the prediction to use beyond the data.
    pub forecast: Vec<ForecastRow>,
    /// How the forecast's ranges held on held-out sources, per horizon (for as many measured
    /// counts as given), and where the runs' one node is left.
    pub track_record: Vec<TrackRow>,
    pub advice: Vec<Suggestion>,
    pub advice_text: String,
    pub warnings: Vec<Warning>,
    pub chart: Option<ChartData>,
    /// The weak-scaling model and predictions (the other results stay empty then).
    pub weak: Option<Weak>,
    /// Weak scaling is chosen and its analysis is not in yet: a view of [`view_deferred`],
    /// until [`apply_weak`] puts it in.
    pub weak_pending: bool,
}

/// A preset's data; [`presets`] makes the page's inputs of it.
struct PresetData {
    key: &'static str,
    name: &'static str,
    /// Where the data come from.
    description: &'static str,
    points: &'static str,
    target: &'static str,
}

/// The thesis's Example 5.1 and one constructed data set per curve shape. The constructed
/// ones are model curves rounded as a timer would print them, with a fixed wobble of a few
/// tenths of a per cent (no randomness), so that no model fits exactly.
const PRESETS: [PresetData; 4] = [
    PresetData {
        key: "example-5-1",
        name: "Thesis Example 5.1 (NAS LU, class W)",
        description: "Measured speed-ups of NAS LU class W on 2–64 nodes (Lan 2007, Table 5.1); the thesis fits A = 24.70, σ = 0.74 (squared error 0.407)",
        points: "n\tspeedup\n2\t2.00\n4\t3.92\n8\t7.25\n16\t13.29\n32\t20.23\n64\t24.95\n",
        target: "128",
    },
    PresetData {
        key: "linear",
        name: "Linear part only",
        description: "Constructed: times of a program with Downey A = 400, σ = 0.3 and T(1) = 1800 s, measured only up to n = 16, where the speed-up is still almost n. The fits agree on the data and disagree far beyond it (the thesis's Scenario B)",
        points: "n\ttime (s)\n1\t1800.0\n2\t897.6\n4\t452.8\n8\t225.1\n16\t113.5\n",
        target: "64, 256",
    },
    PresetData {
        key: "linear-nonlinear",
        name: "Linear and nonlinear parts, no 1-process run",
        description: "Constructed: times of a program with Downey A = 48, σ = 1.5 and T(1) = 3600 s on 2–128 processes, without a run on 1 process: T(1) is fitted",
        points: "n\ttime (s)\n2\t1829.8\n4\t930.9\n8\t491.8\n16\t266.7\n32\t156.6\n64\t100.1\n128\t75.2\n",
        target: "256",
    },
    PresetData {
        key: "decline",
        name: "With a decline after the peak",
        description: "Constructed: speed-ups from the universal scalability law with σ = 0.02, κ = 0.0004 (peak near n = 49), 1–128 processes; the points past the peak are left out of the Downey fit unless included",
        points: "n\tspeedup\n1\t1.00\n2\t1.95\n4\t3.79\n8\t6.85\n16\t11.53\n32\t15.74\n48\t16.95\n64\t16.36\n96\t14.69\n128\t12.82\n",
        target: "40",
    },
];

impl PresetData {
    fn inputs(&self) -> PageInputs {
        [
            (Field::Points, self.points),
            (Field::SecondColumn, "auto"),
            (Field::Target, self.target),
            (Field::IncludePastPeak, ""),
            (Field::Models, ""),
            (Field::ChartY, "speedup"),
            (Field::ChartAxes, "log"),
            (Field::CoresPerNode, ""),
            (Field::Scaling, "strong"),
        ]
        .iter()
        .map(|(f, v)| (f.key().to_string(), v.to_string()))
        .collect()
    }
}

/// The presets the page's buttons load.
pub fn presets() -> Vec<Preset> {
    PRESETS
        .iter()
        .map(|p| Preset { key: p.key, name: p.name, description: p.description, inputs: p.inputs() })
        .collect()
}

/// The page before the user has touched it: Example 5.1.
pub fn default_inputs() -> PageInputs {
    PRESETS[0].inputs()
}

fn clip(s: &str) -> String {
    s.chars().take(20).collect()
}

/// Whether a toggle's text means on.
pub fn is_on(text: &str) -> bool {
    matches!(text.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on")
}

/// How a headerless table's second column is read: a speed-up is at most a few times n
/// (caches can make it super-linear, not a hundredfold) and 1 at n = 1; a column that breaks
/// either is times. The sentence says which reading was taken and why.
fn guess_measure(rows: &[(f64, f64)]) -> (Measure, String) {
    let at_one = rows.iter().find(|r| r.0 == 1.0).map(|r| r.1);
    if let Some(v) = at_one.filter(|v| !(0.5..=1.5).contains(v)) {
        let why = format!("a speed-up at n = 1 is 1, and it holds {}", fmt_num(v, 4));
        return (Measure::TimeS, format!("No header: the second column is read as times in seconds ({why}); choose \"speed-up\" to read it otherwise."));
    }
    if let Some(&(n, v)) = rows.iter().find(|r| r.1 > 4.0 * r.0) {
        let why = format!("{} at n = {} is more than any speed-up there", fmt_num(v, 4), n);
        return (Measure::TimeS, format!("No header: the second column is read as times in seconds ({why}); choose \"speed-up\" to read it otherwise."));
    }
    (Measure::Speedup, "No header: the second column is read as speed-ups (each is at most a few times its n); choose \"time\" to read it as times.".into())
}

/// Reads the points table: the raw points, what they measure, and whether it had a header.
/// `second_column` is what a headerless table's second column holds (None: guessed from the
/// data, and said).
pub fn parse_points(text: &str, second_column: Option<Measure>) -> Result<PointTable, InputError> {
    let field = Field::Points.key();
    // Split once; the records are read under one set of columns, two at most.
    let records = table::records(text);
    let with_header =
        || records.table(field, POINT_COLUMNS).or_else(|e| records.table(field, NODE_COUNT_COLUMNS).map_err(|_| e));
    let (table, idx, measure, note) = if records.has_header() {
        // A header with "nodes" as its only count is read as before, nodes as n.
        let table = with_header()?;
        let has = |i: usize| table.rows.iter().any(|r| r.values.get(i).is_some_and(Option::is_some));
        match (has(1), has(2)) {
            (true, true) => (
                table,
                [0, 1, 3, 4],
                Measure::TimeS,
                Some(
                    "the table has times and speed-ups: the times are fitted and the speed-up column is ignored"
                        .to_string(),
                ),
            ),
            (true, false) => (table, [0, 1, 3, 4], Measure::TimeS, None),
            (false, true) => (table, [0, 2, 3, 4], Measure::Speedup, None),
            (false, false) => {
                if table.rows.is_empty() {
                    return Ok(PointTable { raw: Vec::new(), measure: Measure::Speedup, had_header: true, note: None });
                }
                return Err(InputError::new(field, "the header needs a time or a speedup column").at(1, None));
            }
        }
    } else {
        // Without a header no unit applies: a time and a speed-up column read the same numbers,
        // so the plain reading serves both, and the guess reads it too.
        let y = match second_column {
            Some(Measure::TimeS) => TIME_COLUMN,
            _ => SPEEDUP_COLUMN,
        };
        // A text the header's columns would refuse is refused with their message, as it
        // always was.
        let read = records.table(field, &[N_COLUMN, y, WEIGHT_COLUMN]).map_err(|e| with_header().err().unwrap_or(e))?;
        let (measure, note) = match second_column {
            Some(m) => (m, None),
            None => {
                let rows: Vec<(f64, f64)> = read
                    .rows
                    .iter()
                    .filter_map(|r| Some((r.values.first().copied()??, r.values.get(1).copied()??)))
                    .collect();
                let (m, note) = guess_measure(&rows);
                (m, Some(note))
            }
        };
        (read, [0, 1, 2, 3], measure, note)
    };
    let mut raw = Vec::with_capacity(table.rows.len());
    for r in &table.rows {
        let at = |i: usize| r.values.get(i).copied().flatten();
        let (Some(n), value) = (at(idx[0]), at(idx[1])) else { continue };
        let Some(value) = value else {
            let what = if measure == Measure::TimeS { "time" } else { "speedup" };
            return Err(InputError::new(field, format!("missing value for {what}")).at(r.line, None));
        };
        raw.push(RawPoint { n, value, weight: at(idx[2]), nodes: at(idx[3]), line: Some(r.line) });
    }
    Ok(PointTable { raw, measure, had_header: table.had_header, note })
}

/// What a table without a header holds in its second column: "auto" (None: guessed from the
/// data), "speedup" or "time" (the page's field and the command's `--second-column`).
/// `field` names it in an error.
pub fn second_column(field: &str, word: &str) -> Result<Option<Measure>, InputError> {
    match word.trim().to_ascii_lowercase().as_str() {
        "auto" => Ok(None),
        "speedup" | "speed-up" => Ok(Some(Measure::Speedup)),
        "time" | "time_s" | "times" => Ok(Some(Measure::TimeS)),
        other => Err(InputError::new(field, format!("expected auto, speedup or time, found \"{}\"", clip(other)))),
    }
}

/// Target process counts from text like "64, 128 256" (an error names them "target n").
pub fn parse_targets(text: &str) -> Result<Vec<u32>, InputError> {
    let spec = ListSpec { max_items: MAX_TARGETS, required: false };
    list::whole_numbers("target n", text, spec, 1, 1_000_000_000)
}

/// Reads every field once. A field with an error is read as its default, so the page still
/// computes what it can.
pub fn parse(texts: &PageInputs) -> (Inputs, FieldErrors) {
    let mut errors = FieldErrors::new();
    let mut fail = |field: Field, message: String| errors.push(InputError::new(field.key(), message));
    let second = match text(texts, Field::SecondColumn).trim() {
        "" => None,
        t => second_column(Field::SecondColumn.key(), t).unwrap_or_else(|e| {
            fail(Field::SecondColumn, e.message);
            None
        }),
    };
    let targets = parse_targets(text(texts, Field::Target)).unwrap_or_else(|e| {
        fail(Field::Target, e.to_string());
        Vec::new()
    });
    let mut models = Vec::new();
    let mut unknown = None;
    for word in text(texts, Field::Models).split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty()) {
        match Model::from_name(word) {
            Some(m) => models.push(m),
            None => unknown = Some(word),
        }
    }
    // The last unknown name is the one said.
    if let Some(word) = unknown {
        let names: Vec<&str> = MODELS.iter().map(|m| m.name()).collect();
        fail(Field::Models, format!("unknown model \"{}\"; expected {}", clip(word), names.join(", ")));
    }
    if models.is_empty() {
        models = MODELS.to_vec();
    }
    let chart_time = match text(texts, Field::ChartY).trim() {
        "" | "speedup" => false,
        "time" => true,
        other => {
            fail(Field::ChartY, format!("expected speedup or time, found \"{}\"", clip(other)));
            false
        }
    };
    let log_axes = match text(texts, Field::ChartAxes).trim() {
        "" | "log" => true,
        "linear" => false,
        other => {
            fail(Field::ChartAxes, format!("expected log or linear, found \"{}\"", clip(other)));
            true
        }
    };
    let weak = match text(texts, Field::Scaling).trim() {
        "" | "strong" => false,
        "weak" => true,
        other => {
            fail(Field::Scaling, format!("expected strong or weak, found \"{}\"", clip(other)));
            false
        }
    };
    let cores_per_node = match text(texts, Field::CoresPerNode).trim() {
        "" => None,
        t => match t.parse::<u32>() {
            Ok(c) if c >= 1 => Some(c),
            _ => {
                fail(
                    Field::CoresPerNode,
                    format!("expected a whole number of processes per node (at least 1), found \"{}\"", clip(t)),
                );
                None
            }
        },
    };
    let include_past_peak = is_on(text(texts, Field::IncludePastPeak));
    let points = parse_points(text(texts, Field::Points), second).map_err(|e| errors.push(e)).ok();
    (Inputs { points, targets, include_past_peak, models, chart_time, log_axes, cores_per_node, weak }, errors)
}

fn param_text(name: &str, value: f64, std_err: Option<f64>) -> String {
    let unit = if name == "T1" { " s" } else { "" };
    match std_err {
        Some(e) => format!("{}{unit} ± {}", fmt_num(value, 4), fmt_num(e, 2)),
        None => format!("{}{unit}", fmt_num(value, 4)),
    }
}

/// The log-spaced chart grid from `from` to `top`.
fn grid(from: f64, top: f64) -> Vec<f64> {
    let top = top.max(2.0 * from);
    (0..CHART_POINTS).map(|i| from * ((top / from).ln() * i as f64 / (CHART_POINTS - 1) as f64).exp()).collect()
}

fn chart(a: &Analysis, targets: &[u32], y_time: bool, log_axes: bool) -> ChartData {
    let nmax = a.points.iter().map(|p| p.n).max().unwrap_or(1);
    let top = f64::from(targets.iter().copied().max().unwrap_or(1).max(nmax.saturating_mul(2)));
    let xs = grid(1.0, top);
    let point_y = |p: &PointView| if y_time { p.time_s } else { p.speedup };
    let series = |label: &str, keep: &dyn Fn(&PointView) -> bool| {
        let chosen: Vec<(f64, f64)> =
            a.points.iter().filter(|p| keep(p)).filter_map(|p| point_y(p).map(|y| (f64::from(p.n), y))).collect();
        Series { label: label.to_string(), points: chosen }
    };
    let measured = series("measured", &|p| p.in_monotone_fits);
    let excluded = series("past the peak (left out)", &|p| !p.in_monotone_fits);
    let curves = a
        .fits
        .iter()
        .filter_map(|f| {
            let ys: Option<Vec<f64>> =
                xs.iter().map(|&n| if y_time { f.time_at(n) } else { Some(f.speedup_at(n)) }).collect();
            ys.map(|y| {
                (f.model, Series { label: f.model.label().to_string(), points: xs.iter().copied().zip(y).collect() })
            })
        })
        .collect();
    // The forecast is drawn where it is one: from its anchor, the largest measured n, on.
    let anchor = a.anchor().unwrap_or(1.0);
    let fc: Vec<(f64, Prediction)> =
        grid(anchor, top).into_iter().filter_map(|x| a.forecast_at(x).map(|p| (x, p))).collect();
    let pick = |p: &Prediction| -> Option<(f64, f64, f64)> {
        if y_time {
            p.time_s
        } else {
            Some((p.speedup, p.speedup_low, p.speedup_high))
        }
    };
    let rows: Vec<(f64, (f64, f64, f64))> = fc.iter().filter_map(|(x, p)| pick(p).map(|v| (*x, v))).collect();
    let forecast = (!rows.is_empty()).then(|| Series {
        label: format!("forecast beyond n = {}", fmt_num(anchor, 6)),
        points: rows.iter().map(|r| (r.0, r.1 .0)).collect(),
    });
    let band = (!rows.is_empty()).then(|| Band {
        label: format!("forecast range ({} %)", fmt_num(100.0 * forecast::LEVEL, 2)),
        points: rows.iter().map(|&(x, (_, lo, hi))| (x, lo, hi)).collect(),
    });
    ChartData {
        y_is_time: y_time,
        log_axes,
        x_label: "processes n",
        y_label: if y_time { "time (s)" } else { "speed-up" },
        measured,
        excluded,
        curves,
        forecast,
        band,
    }
}

/// "up to 2×", "2–4×", "beyond 16×": horizon band `i`.
fn band_label(i: usize) -> String {
    let tops = forecast::HORIZON_TOPS;
    match (i.checked_sub(1).and_then(|j| tops.get(j)), tops[i].is_finite()) {
        (None, _) => format!("up to {}×", fmt_num(tops[i], 3)),
        (Some(lo), true) => format!("{}–{}×", fmt_num(*lo, 3), fmt_num(tops[i], 3)),
        (Some(lo), false) => format!("beyond {}×", fmt_num(*lo, 3)),
    }
}

fn pct(x: f64) -> String {
    format!("{} %", fmt_num(100.0 * x, 2))
}

fn forecast_row(p: &Prediction, counts: usize) -> ForecastRow {
    let held_out = forecast::track_record(p.horizon, counts);
    let track_record = format!(
        "at {} the largest measured n, such ranges held {} of {} predictions on sources they were not set on",
        band_label(forecast::horizon_band(p.horizon)),
        pct(held_out.0),
        held_out.1
    );
    let node_note = p.crosses_nodes.then(|| {
        let (held, count) = calibration::NODE_HELD_OUT;
        format!(
            "needs {} nodes, and every measured run was inside one: the range is {}× as wide in log terms (such ranges held {} of {} predictions on held-out sources)",
            p.nodes.unwrap_or(2),
            fmt_num(calibration::NODE_FACTOR, 3),
            pct(held),
            count
        )
    });
    ForecastRow { prediction: p.clone(), held_out, track_record, node_note }
}

/// The forecast's track record for `counts` measured counts: each horizon band, then the
/// node case.
pub fn track_record(counts: usize) -> Vec<TrackRow> {
    let mut rows: Vec<TrackRow> = calibration::HELD_OUT[forecast::count_class(counts)]
        .iter()
        .enumerate()
        .map(|(i, &(coverage, predictions, width))| TrackRow {
            label: band_label(i),
            coverage,
            predictions,
            width: Some(width),
        })
        .collect();
    let (coverage, predictions) = calibration::NODE_HELD_OUT;
    rows.push(TrackRow {
        label: "leaving the one node of the measured runs".into(),
        coverage,
        predictions,
        width: None,
    });
    rows
}

/// One row of the model table: the model's fit, or why it was skipped.
fn model_row(a: &Analysis, model: Model) -> Option<ModelRow> {
    let skipped = |reason: String| ModelRow {
        model,
        label: model.label(),
        params: Vec::new(),
        sse: None,
        aicc: None,
        loo: None,
        points_used: 0,
        is_best: false,
        ranked: false,
        converged: false,
        residuals: Vec::new(),
        notes: Vec::new(),
        skipped_reason: Some(reason),
        predictions: Vec::new(),
    };
    let fitted = |f: &Fit| ModelRow {
        model,
        label: model.label(),
        params: f
            .params
            .iter()
            .map(|p| ParamView {
                name: p.name,
                value: p.value,
                std_err: p.std_err,
                text: param_text(p.name, p.value, p.std_err),
            })
            .collect(),
        sse: Some(f.sse),
        aicc: f.aicc,
        loo: f.loo,
        points_used: f.points,
        is_best: a.best == Some(model),
        ranked: f.ranked,
        converged: f.termination.was_successful(),
        residuals: f.residuals.clone(),
        notes: f.notes.clone(),
        skipped_reason: None,
        predictions: f.predictions.clone(),
    };
    match a.fit(model) {
        Some(f) => Some(fitted(f)),
        None => a.skipped.iter().find(|s| s.model == model).map(|s| skipped(s.reason.clone())),
    }
}

/// Computes the page from its inputs: the analysis of the points, its table rows and chart.
/// The catalog is not used (every page's `evaluate` takes it).
pub fn evaluate(inputs: &Inputs, _catalog: &Catalog) -> PageView {
    evaluate_in::<true>(inputs, None)
}

/// The weak-scaling analysis of the page's inputs: None unless weak scaling is chosen and the
/// points were read. `sent`: a region the Bottlenecks page sent with them ([`REGION_KEY`]).
fn weak_result(inputs: &Inputs, sent: Option<&str>) -> Option<Result<Weak, InputError>> {
    let table = inputs.points.as_ref().filter(|_| inputs.weak)?;
    Some(analyse_sent(Field::Points.key(), &table.raw, table.measure, &inputs.targets, sent).map_err(|mut e| {
        // Columns of a table with a header need not be in n, value, weight order.
        if table.had_header {
            e.column = None;
        }
        e
    }))
}

/// The weak-scaling analysis of the page's texts, for [`apply_weak`]: what the page's Web
/// Worker computes (`ui::bottlenecks_worker`), whose wasm holds the search the page's does not.
pub fn weak_of(texts: &PageInputs) -> Option<Result<Weak, InputError>> {
    weak_result(&parse(texts).0, texts.get(REGION_KEY).map(String::as_str))
}

/// Puts the weak-scaling analysis ([`weak_of`]) in a view of [`view_deferred`]; the view is
/// then the one [`view`] computes.
pub fn apply_weak(view: &mut PageView, result: Result<Weak, InputError>) {
    view.weak_pending = false;
    match result {
        Ok(w) => {
            view.warnings.extend(w.warnings.iter().map(|m| Warning::at(Field::Points.key(), m.clone())));
            view.measure = view.measure.or(Some(Measure::TimeS));
            view.targets = w.predictions.iter().map(|p| p.n).collect();
            view.weak = Some(w);
        }
        // An error of the table's reading (put by `view`) comes first.
        Err(e) => {
            view.points_error.get_or_insert(e);
        }
    }
}

/// [`evaluate`], with the weak-scaling analysis (WEAK) or without it (left pending: the code
/// of the search then stays out of the page's wasm).
fn evaluate_in<const WEAK: bool>(inputs: &Inputs, sent: Option<&str>) -> PageView {
    let mut view = PageView { targets: inputs.targets.clone(), ..PageView::default() };
    let Some(table) = &inputs.points else { return view };
    if inputs.weak {
        view.warnings.extend(table.note.clone().map(|m| Warning::at(Field::Points.key(), m)));
        view.weak_pending = true;
        if WEAK {
            if let Some(r) = weak_result(inputs, sent) {
                apply_weak(&mut view, r);
            }
        }
        return view;
    }
    let opts = Options {
        models: inputs.models.clone(),
        include_past_peak: inputs.include_past_peak,
        targets: inputs.targets.clone(),
        leave_one_out: true,
        cores_per_node: inputs.cores_per_node,
    };
    let analysis = match analyse(Field::Points.key(), &table.raw, table.measure, &opts) {
        Ok(a) => a,
        Err(mut e) => {
            // Columns of a table with a header need not be in n, value, weight order.
            if table.had_header {
                e.column = None;
            }
            view.points_error = Some(e);
            return view;
        }
    };
    if inputs.chart_time && table.measure != Measure::TimeS {
        view.warnings.push(Warning::at(Field::Points.key(), "the chart shows speed-ups: the points have no times"));
    }
    view.warnings.extend(table.note.clone().map(|m| Warning::at(Field::Points.key(), m)));
    view.warnings.extend(analysis.warnings.iter().cloned());
    view.models =
        MODELS.iter().filter(|m| inputs.models.contains(m)).filter_map(|m| model_row(&analysis, *m)).collect();
    view.chart =
        Some(chart(&analysis, &view.targets, inputs.chart_time && table.measure == Measure::TimeS, inputs.log_axes));
    view.best_predictions = analysis.best_fit().map(|f| f.predictions.clone()).unwrap_or_default();
    view.forecast = analysis.forecast.iter().map(|p| forecast_row(p, analysis.points.len())).collect();
    view.track_record = track_record(analysis.points.len());
    view.measure = Some(table.measure);
    view.space = Some(analysis.space);
    view.t1_measured = analysis.t1_measured;
    view.best = analysis.best;
    view.best_reason = analysis.best_reason;
    view.advice = analysis.advice;
    view.advice_text = analysis.advice_text;
    view.points = analysis.points;
    view
}

crate::model::calculators::usual_contract!(
    /// The speed-up page's row in the table of calculators.
    SpeedupPage
);

/// The page for its input texts: [`parse`], [`evaluate`], and the fields' errors put where
/// the page shows them (the table's under the table, the others' by their field).
pub fn view(texts: &PageInputs, _catalog: &Catalog) -> PageView {
    view_in::<true>(texts)
}

/// [`view`] without the weak-scaling analysis, which the page has its worker compute
/// ([`weak_of`]) and puts in with [`apply_weak`]; `weak_pending` says it is awaited.
pub fn view_deferred(texts: &PageInputs) -> PageView {
    view_in::<false>(texts)
}

fn view_in<const WEAK: bool>(texts: &PageInputs) -> PageView {
    let (inputs, errors) = parse(texts);
    let sent = if WEAK { texts.get(REGION_KEY).map(String::as_str) } else { None };
    let mut view = evaluate_in::<WEAK>(&inputs, sent);
    for e in errors {
        if e.field == Field::Points.key() {
            view.points_error = Some(e);
        } else {
            view.field_errors.insert(e.field, e.message);
        }
    }
    view
}

#[cfg(test)]
mod tests;

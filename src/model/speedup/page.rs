//! Everything the speed-up fitting page shows (seed 004), computed from the texts of its
//! inputs by [`evaluate`]. The page renders what it returns; every number on screen is tested
//! here, natively.
//!
//! Input fields (names of the page's inputs, of share links and of workspace files):
//! - `points`: the pasted table. Columns `n` (whole, ≥ 1), then `time` (with a unit in the
//!   header: `time (ms)`, `time_s`; seconds when none) or `speedup`, and an optional
//!   `weight`. With a header the columns may come in any order; without one they are
//!   n, value, weight, and the value is what `second_column` says.
//! - `second_column`: `speedup` (default) or `time`: what the second column of a table
//!   without a header holds.
//! - `target`: process counts to predict at, separated by commas or spaces ("128, 256").
//! - `include_past_peak`: "1", "true", "yes" or "on" puts the points after the speed-up peak
//!   back into the fits of the models that cannot fall; anything else leaves them out.
//! - `models`: the models to fit, comma separated (`downey, usl`); empty means all five.
//! - `chart_y`: `speedup` (default) or `time`; `chart_axes`: `log` (default) or `linear`.

use std::collections::BTreeMap;

use crate::model::speedup::{
    analyse, Analysis, Measure, Model, Options, PointView, Prediction, RawPoint, Space, Suggestion, MODELS,
};
use crate::model::input::list::{self, ListSpec};
use crate::model::input::table::{parse_table, ColumnSpec, Quantity, PLAIN, SECONDS};
use crate::model::workspace::PageInputs;
use crate::model::{fmt_num, InputError};

pub const PAGE: &str = "speedup";
/// Most target process counts predicted at once.
pub const MAX_TARGETS: usize = 8;
/// Points of the chart's log-spaced n grid.
pub const CHART_POINTS: usize = 64;

const N_COLUMN: ColumnSpec =
    ColumnSpec::new("n", Quantity::Plain, PLAIN).aliases(&["np", "p", "procs", "processes", "nodes", "cores"]).integer();
const TIME_COLUMN: ColumnSpec = ColumnSpec::new("time", Quantity::Time, SECONDS).aliases(&["t", "runtime", "seconds"]);
const SPEEDUP_COLUMN: ColumnSpec = ColumnSpec::new("speedup", Quantity::Plain, PLAIN).aliases(&["speed_up", "s", "sp"]);
const WEIGHT_COLUMN: ColumnSpec = ColumnSpec::new("weight", Quantity::Plain, PLAIN).aliases(&["w", "weights"]).optional();

/// The columns a table with a header may have.
pub const POINT_COLUMNS: &[ColumnSpec] = &[N_COLUMN, TIME_COLUMN.optional(), SPEEDUP_COLUMN.optional(), WEIGHT_COLUMN];

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

/// One line of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub label: String,
    /// The model drawn, None for measured points.
    pub model: Option<Model>,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
}

/// The uncertainty band of the best model.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    pub model: Model,
    pub x: Vec<f64>,
    pub low: Vec<f64>,
    pub high: Vec<f64>,
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
    pub curves: Vec<Series>,
    pub band: Option<Band>,
}

/// Everything on the page.
#[derive(Debug, Clone, PartialEq)]
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
    pub advice: Vec<Suggestion>,
    pub advice_text: String,
    pub warnings: Vec<String>,
    pub chart: Option<ChartData>,
}

/// A preset the page can load.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preset {
    pub key: &'static str,
    pub label: &'static str,
    /// Where the data come from.
    pub description: &'static str,
    pub points: &'static str,
    pub target: &'static str,
}

/// The thesis's Example 5.1 and one constructed data set per curve shape. The constructed
/// ones are model curves rounded as a timer would print them, with a fixed wobble of a few
/// tenths of a per cent (no randomness), so that no model fits exactly.
pub const PRESETS: &[Preset] = &[
    Preset {
        key: "example-5-1",
        label: "Thesis Example 5.1 (NAS LU, class W)",
        description: "Measured speed-ups of NAS LU class W on 2–64 nodes (Lan 2007, Table 5.1); the thesis fits A = 24.70, σ = 0.74 (squared error 0.407)",
        points: "n\tspeedup\n2\t2.00\n4\t3.92\n8\t7.25\n16\t13.29\n32\t20.23\n64\t24.95\n",
        target: "128",
    },
    Preset {
        key: "linear",
        label: "Linear part only",
        description: "Constructed: times of a program with Downey A = 400, σ = 0.3 and T(1) = 1800 s, measured only up to n = 16, where the speed-up is still almost n. The fits agree on the data and disagree far beyond it (the thesis's Scenario B)",
        points: "n\ttime (s)\n1\t1800.0\n2\t897.6\n4\t452.8\n8\t225.1\n16\t113.5\n",
        target: "64, 256",
    },
    Preset {
        key: "linear-nonlinear",
        label: "Linear and nonlinear parts, no 1-process run",
        description: "Constructed: times of a program with Downey A = 48, σ = 1.5 and T(1) = 3600 s on 2–128 processes, without a run on 1 process: T(1) is fitted",
        points: "n\ttime (s)\n2\t1829.8\n4\t930.9\n8\t491.8\n16\t266.7\n32\t156.6\n64\t100.1\n128\t75.2\n",
        target: "256",
    },
    Preset {
        key: "decline",
        label: "With a decline after the peak",
        description: "Constructed: speed-ups from the universal scalability law with σ = 0.02, κ = 0.0004 (peak near n = 49), 1–128 processes; the points past the peak are left out of the Downey fit unless included",
        points: "n\tspeedup\n1\t1.00\n2\t1.95\n4\t3.79\n8\t6.85\n16\t11.53\n32\t15.74\n48\t16.95\n64\t16.36\n96\t14.69\n128\t12.82\n",
        target: "40",
    },
];

/// The inputs a preset loads; None for an unknown key.
pub fn preset_inputs(key: &str) -> Option<PageInputs> {
    let p = PRESETS.iter().find(|p| p.key == key)?;
    let mut m = PageInputs::new();
    for (k, v) in [
        ("points", p.points),
        ("second_column", "speedup"),
        ("target", p.target),
        ("include_past_peak", ""),
        ("models", ""),
        ("chart_y", "speedup"),
        ("chart_axes", "log"),
    ] {
        m.insert(k.to_string(), v.to_string());
    }
    Some(m)
}

/// The page before the user has touched it: Example 5.1.
pub fn default_inputs() -> PageInputs {
    preset_inputs("example-5-1").unwrap_or_default()
}

fn get<'a>(inputs: &'a PageInputs, key: &str) -> &'a str {
    inputs.get(key).map(String::as_str).unwrap_or("")
}

fn clip(s: &str) -> String {
    s.chars().take(20).collect()
}

/// Whether a toggle's text means on.
pub fn is_on(text: &str) -> bool {
    matches!(text.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on")
}

/// Reads the points table: the raw points, what they measure, and whether it had a header.
pub fn parse_points(text: &str, second_column: Measure) -> Result<(Vec<RawPoint>, Measure, bool, Option<String>), InputError> {
    let field = "points";
    let table = parse_table(field, text, POINT_COLUMNS)?;
    let (table, idx, measure, note) = if table.had_header {
        let has = |i: usize| table.rows.iter().any(|r| r.values.get(i).is_some_and(Option::is_some));
        match (has(1), has(2)) {
            (true, true) => (table, [0, 1, 3], Measure::TimeS, Some("the table has times and speed-ups: the times are fitted and the speed-up column is ignored".to_string())),
            (true, false) => (table, [0, 1, 3], Measure::TimeS, None),
            (false, true) => (table, [0, 2, 3], Measure::Speedup, None),
            (false, false) => {
                if table.rows.is_empty() {
                    return Ok((Vec::new(), Measure::Speedup, true, None));
                }
                return Err(InputError::new(field, "the header needs a time or a speedup column").at(1, None));
            }
        }
    } else {
        let y = if second_column == Measure::TimeS { TIME_COLUMN } else { SPEEDUP_COLUMN };
        (parse_table(field, text, &[N_COLUMN, y, WEIGHT_COLUMN])?, [0, 1, 2], second_column, None)
    };
    let mut raw = Vec::with_capacity(table.rows.len());
    for r in &table.rows {
        let at = |i: usize| r.values.get(i).copied().flatten();
        let (Some(n), value) = (at(idx[0]), at(idx[1])) else { continue };
        let Some(value) = value else {
            let what = if measure == Measure::TimeS { "time" } else { "speedup" };
            return Err(InputError::new(field, format!("missing value for {what}")).at(r.line, None));
        };
        raw.push(RawPoint { n, value, weight: at(idx[2]), line: Some(r.line) });
    }
    Ok((raw, measure, table.had_header, note))
}

/// Target process counts from text like "64, 128 256".
pub fn parse_targets(text: &str) -> Result<Vec<u32>, String> {
    let spec = ListSpec { max_items: MAX_TARGETS, required: false };
    list::whole_numbers("target n", text, spec, 1, 1_000_000_000).map_err(|e| e.to_string())
}

fn param_text(name: &str, value: f64, std_err: Option<f64>) -> String {
    let unit = if name == "T1" { " s" } else { "" };
    match std_err {
        Some(e) => format!("{}{unit} ± {}", fmt_num(value, 4), fmt_num(e, 2)),
        None => format!("{}{unit}", fmt_num(value, 4)),
    }
}

/// The log-spaced chart grid from 1 to `top`.
fn grid(top: f64) -> Vec<f64> {
    let top = top.max(2.0);
    (0..CHART_POINTS).map(|i| (top.ln() * i as f64 / (CHART_POINTS - 1) as f64).exp()).collect()
}

fn chart(a: &Analysis, targets: &[u32], y_time: bool, log_axes: bool) -> ChartData {
    let nmax = a.points.iter().map(|p| p.n).max().unwrap_or(1);
    let top = f64::from(targets.iter().copied().max().unwrap_or(1).max(nmax.saturating_mul(2)));
    let xs = grid(top);
    let point_y = |p: &PointView| if y_time { p.time_s } else { p.speedup };
    let series = |label: &str, keep: &dyn Fn(&PointView) -> bool| {
        let chosen: Vec<(f64, f64)> = a.points.iter().filter(|p| keep(p)).filter_map(|p| point_y(p).map(|y| (f64::from(p.n), y))).collect();
        Series { label: label.to_string(), model: None, x: chosen.iter().map(|c| c.0).collect(), y: chosen.iter().map(|c| c.1).collect() }
    };
    let measured = series("measured", &|p| p.in_monotone_fits);
    let excluded = series("past the peak (left out)", &|p| !p.in_monotone_fits);
    let curves = a
        .fits
        .iter()
        .filter_map(|f| {
            let ys: Option<Vec<f64>> = xs.iter().map(|&n| if y_time { f.time_at(n) } else { Some(f.speedup_at(n)) }).collect();
            ys.map(|y| Series { label: f.model.label().to_string(), model: Some(f.model), x: xs.clone(), y })
        })
        .collect();
    let band = a.best_fit().and_then(|f| {
        let rows: Option<Vec<(f64, f64)>> =
            xs.iter().map(|&n| if y_time { f.time_band(n).map(|b| (b.1, b.2)) } else { Some(f.speedup_band(n)).map(|b| (b.1, b.2)) }).collect();
        rows.map(|r| Band { model: f.model, x: xs.clone(), low: r.iter().map(|v| v.0).collect(), high: r.iter().map(|v| v.1).collect() })
    });
    ChartData {
        y_is_time: y_time,
        log_axes,
        x_label: "processes n",
        y_label: if y_time { "time (s)" } else { "speed-up" },
        measured,
        excluded,
        curves,
        band,
    }
}

/// Computes the page from its inputs.
pub fn evaluate(inputs: &PageInputs) -> PageView {
    let mut field_errors = BTreeMap::new();
    let second = match get(inputs, "second_column").trim().to_ascii_lowercase().as_str() {
        "" | "speedup" | "speed-up" => Measure::Speedup,
        "time" | "time_s" | "times" => Measure::TimeS,
        other => {
            field_errors.insert("second_column".into(), format!("expected speedup or time, found \"{}\"", clip(other)));
            Measure::Speedup
        }
    };
    let targets = parse_targets(get(inputs, "target")).unwrap_or_else(|e| {
        field_errors.insert("target".into(), e);
        Vec::new()
    });
    let mut models = Vec::new();
    for word in get(inputs, "models").split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty()) {
        match Model::from_name(word) {
            Some(m) => models.push(m),
            None => {
                let names: Vec<&str> = MODELS.iter().map(|m| m.name()).collect();
                field_errors.insert("models".into(), format!("unknown model \"{}\"; expected {}", clip(word), names.join(", ")));
            }
        }
    }
    if models.is_empty() {
        models = MODELS.to_vec();
    }
    let want_time = match get(inputs, "chart_y").trim() {
        "" | "speedup" => false,
        "time" => true,
        other => {
            field_errors.insert("chart_y".into(), format!("expected speedup or time, found \"{}\"", clip(other)));
            false
        }
    };
    let log_axes = match get(inputs, "chart_axes").trim() {
        "" | "log" => true,
        "linear" => false,
        other => {
            field_errors.insert("chart_axes".into(), format!("expected log or linear, found \"{}\"", clip(other)));
            true
        }
    };
    let opts = Options { models: models.clone(), include_past_peak: is_on(get(inputs, "include_past_peak")), targets: targets.clone(), leave_one_out: true };
    let mut view = PageView {
        points_error: None,
        field_errors,
        measure: None,
        space: None,
        t1_measured: None,
        points: Vec::new(),
        models: Vec::new(),
        best: None,
        best_reason: String::new(),
        targets,
        best_predictions: Vec::new(),
        advice: Vec::new(),
        advice_text: String::new(),
        warnings: Vec::new(),
        chart: None,
    };
    let (raw, measure, had_header, note) = match parse_points(get(inputs, "points"), second) {
        Ok(v) => v,
        Err(e) => {
            view.points_error = Some(e);
            return view;
        }
    };
    let analysis = match analyse("points", &raw, measure, &opts) {
        Ok(a) => a,
        Err(mut e) => {
            // Columns of a table with a header need not be in n, value, weight order.
            if had_header {
                e.column = None;
            }
            view.points_error = Some(e);
            return view;
        }
    };
    if want_time && measure != Measure::TimeS {
        view.warnings.push("the chart shows speed-ups: the points have no times".into());
    }
    view.warnings.extend(note);
    view.warnings.extend(analysis.warnings.iter().cloned());
    for m in MODELS.iter().filter(|m| models.contains(m)) {
        if let Some(f) = analysis.fit(*m) {
            view.models.push(ModelRow {
                model: *m,
                label: m.label(),
                params: f.params.iter().map(|p| ParamView { name: p.name, value: p.value, std_err: p.std_err, text: param_text(p.name, p.value, p.std_err) }).collect(),
                sse: Some(f.sse),
                aicc: f.aicc,
                loo: f.loo,
                points_used: f.points,
                is_best: analysis.best == Some(*m),
                ranked: f.ranked,
                converged: f.converged,
                residuals: f.residuals.clone(),
                notes: f.notes.clone(),
                skipped_reason: None,
                predictions: f.predictions.clone(),
            });
        } else if let Some(s) = analysis.skipped.iter().find(|s| s.model == *m) {
            view.models.push(ModelRow {
                model: *m,
                label: m.label(),
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
                skipped_reason: Some(s.reason.clone()),
                predictions: Vec::new(),
            });
        }
    }
    view.chart = Some(chart(&analysis, &view.targets, want_time && measure == Measure::TimeS, log_axes));
    view.best_predictions = analysis.best_fit().map(|f| f.predictions.clone()).unwrap_or_default();
    view.measure = Some(measure);
    view.space = Some(analysis.space);
    view.t1_measured = analysis.t1_measured;
    view.best = analysis.best;
    view.best_reason = analysis.best_reason;
    view.advice = analysis.advice;
    view.advice_text = analysis.advice_text;
    view.points = analysis.points;
    view
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(key: &str, text: &str) -> PageInputs {
        let mut i = default_inputs();
        i.insert(key.to_string(), text.to_string());
        i
    }

    #[test]
    fn example_5_1_on_the_page() {
        let v = evaluate(&default_inputs());
        assert!(v.points_error.is_none() && v.field_errors.is_empty(), "{:?} {:?}", v.points_error, v.field_errors);
        let d = v.models.iter().find(|r| r.model == Model::Downey).expect("downey row");
        assert!(d.sse.is_some_and(|s| s < 0.2940), "{:?}", d.sse);
        assert_eq!(d.params[0].name, "A");
        assert!(d.params[0].text.starts_with("24.87 ± "), "{}", d.params[0].text);
        assert!(d.params[1].text.starts_with("0.8055 ± ") || d.params[1].text.starts_with("0.8056 ± "), "{}", d.params[1].text);
        assert_eq!(v.models.len(), 5);
        assert_eq!(v.models.iter().filter(|r| r.is_best).count(), 1);
        assert!(!v.best_reason.is_empty());
        assert_eq!(v.targets, vec![128]);
        assert_eq!(v.best_predictions.len(), 1);
        let c = v.chart.as_ref().expect("a chart");
        assert_eq!(c.curves.len(), 5);
        assert_eq!(c.curves[0].x.len(), CHART_POINTS);
        assert!((c.curves[0].x[0] - 1.0).abs() < 1e-12 && (c.curves[0].x[CHART_POINTS - 1] - 128.0).abs() < 1e-9);
        assert_eq!(c.measured.x, vec![2.0, 4.0, 8.0, 16.0, 32.0, 64.0]);
        assert!(c.band.is_some());
        assert!(v.points.iter().all(|p| p.karp_flatt.is_some() && p.efficiency.is_some()));
    }

    #[test]
    fn every_preset_evaluates() {
        for p in PRESETS {
            let v = evaluate(&preset_inputs(p.key).expect("preset"));
            assert!(v.points_error.is_none(), "{}: {:?}", p.key, v.points_error);
            assert!(v.best.is_some(), "{}: no best", p.key);
            assert!(!v.advice_text.is_empty(), "{}", p.key);
        }
        assert!(preset_inputs("nonsense").is_none());
        // The no-1-process preset fits T1 near the 3600 s it was made with.
        let v = evaluate(&preset_inputs("linear-nonlinear").expect("preset"));
        assert_eq!(v.space, Some(Space::Time));
        let d = v.models.iter().find(|r| r.model == Model::Downey).expect("downey");
        let t1 = d.params.iter().find(|p| p.name == "T1").expect("T1 fitted").value;
        assert!((t1 - 3600.0).abs() < 100.0, "T1 = {t1}");
        // The decline preset flags the points after n = 48.
        let v = evaluate(&preset_inputs("decline").expect("preset"));
        let past: Vec<u32> = v.points.iter().filter(|p| p.past_peak).map(|p| p.n).collect();
        assert_eq!(past, vec![64, 96, 128]);
        assert_eq!(v.chart.as_ref().map(|c| c.excluded.x.len()), Some(3));
        let v = evaluate(&{
            let mut i = preset_inputs("decline").expect("preset");
            i.insert("include_past_peak".into(), "1".into());
            i
        });
        assert_eq!(v.models.iter().find(|r| r.model == Model::Downey).map(|r| r.points_used), Some(10));
    }

    #[test]
    fn tables_in_several_forms() {
        // Headerless: the second column is what second_column says.
        let v = evaluate(&with("points", "2 2.00\n4 3.92\n8 7.25\n16 13.29\n32 20.23\n64 24.95"));
        assert_eq!(v.measure, Some(Measure::Speedup));
        let mut i = with("points", "1,100\n2,52\n4,27\n8,15");
        i.insert("second_column".into(), "time".into());
        let v = evaluate(&i);
        assert_eq!((v.measure, v.t1_measured), (Some(Measure::TimeS), Some(100.0)));
        // Times in milliseconds, columns in another order, a weight column.
        let v = evaluate(&with("points", "weight,time (ms),np\n1,100000,1\n2,52000,2\n1,27000,4\n1,15000,8"));
        assert_eq!(v.t1_measured, Some(100.0));
        assert_eq!(v.points[1].weight, 2.0);
        let mut i = with("points", "n time\n1 100\n2 50\n4 25\n8 13");
        i.insert("chart_y".into(), "time".into());
        let c = evaluate(&i).chart.expect("chart");
        assert!(c.y_is_time && c.measured.y == vec![100.0, 50.0, 25.0, 13.0]);
    }

    #[test]
    fn errors_name_field_line_and_column() {
        let v = evaluate(&with("points", "n\tspeedup\n2\t2\n4\tabc"));
        let e = v.points_error.expect("error");
        assert_eq!((e.line, e.column), (Some(3), Some(2)));
        let v = evaluate(&with("points", "2 2\n0 1"));
        let e = v.points_error.expect("error");
        assert_eq!((e.line, e.column), (Some(2), Some(1)));
        assert!(e.message.contains("whole number"), "{e}");
        let v = evaluate(&with("points", "2 2\n2.5 1"));
        assert!(v.points_error.is_some_and(|e| e.line == Some(2) && e.message.contains("whole number")));
        let v = evaluate(&with("points", "n\tweight\n2\t1"));
        assert!(v.points_error.is_some_and(|e| e.message.contains("time or a speedup")));
        let mut i = with("target", "64, lots");
        i.insert("models".into(), "downey, nonsense".into());
        i.insert("chart_axes".into(), "cubic".into());
        let v = evaluate(&i);
        assert!(v.field_errors["target"].contains("\"lots\""));
        assert!(v.field_errors["models"].contains("nonsense"));
        assert!(v.field_errors.contains_key("chart_axes"));
        assert_eq!(v.models.len(), 1, "only Downey asked for");
        assert!(evaluate(&with("points", "")).points_error.is_some());
    }

    #[test]
    fn toggles() {
        for (t, on) in [("1", true), ("true", true), (" on ", true), ("yes", true), ("", false), ("0", false), ("no", false)] {
            assert_eq!(is_on(t), on, "{t:?}");
        }
    }

    mod robustness {
        use super::*;
        use proptest::prelude::*;

        /// Every number the page would show.
        fn numbers(v: &PageView) -> Vec<f64> {
            let mut out = Vec::new();
            out.extend(v.t1_measured);
            for p in &v.points {
                out.extend([p.value, p.weight]);
                out.extend([p.speedup, p.time_s, p.efficiency, p.karp_flatt].into_iter().flatten());
            }
            let preds = |ps: &[Prediction], out: &mut Vec<f64>| {
                for p in ps {
                    out.extend([p.speedup, p.speedup_low, p.speedup_high, p.efficiency]);
                    if let Some((a, b, c)) = p.time_s {
                        out.extend([a, b, c]);
                    }
                }
            };
            for r in &v.models {
                out.extend([r.sse, r.aicc, r.loo].into_iter().flatten());
                out.extend(r.params.iter().flat_map(|p| [Some(p.value), p.std_err]).flatten());
                out.extend(r.residuals.iter().map(|x| x.1));
                preds(&r.predictions, &mut out);
            }
            preds(&v.best_predictions, &mut out);
            if let Some(c) = &v.chart {
                for s in c.curves.iter().chain([&c.measured, &c.excluded]) {
                    out.extend(s.x.iter().chain(&s.y));
                }
                if let Some(b) = &c.band {
                    out.extend(b.x.iter().chain(&b.low).chain(&b.high));
                }
            }
            out
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

            /// Whatever is typed into any field, the page evaluates without panicking and
            /// shows only finite numbers.
            #[test]
            fn any_text_in_any_field(
                key in prop::sample::select(vec!["points", "second_column", "target", "include_past_peak", "models", "chart_y", "chart_axes"]),
                text in "[0-9eE.,;\\t \\n+-]{0,40}|[a-z_ ]{0,12}|[0-9]{1,12}|(n|time|speedup|weight|np)[ \\t,(ms)]{0,6}[0-9 .\\n]{0,30}",
                preset in prop::sample::select(vec!["example-5-1", "linear", "linear-nonlinear", "decline"]),
            ) {
                let mut inputs = preset_inputs(preset).unwrap_or_default();
                inputs.insert("chart_y".into(), "time".into());
                inputs.insert(key.to_string(), text);
                let view = evaluate(&inputs);
                for x in numbers(&view) {
                    prop_assert!(x.is_finite(), "{key}: {x}");
                }
            }
        }
    }
}

//! `scalewise speedup`: fits Downey's speed-up model and its rivals to measured points and
//! predicts at other process counts (seed 004). The model is `model::speedup`; this file reads
//! the JSON, names the key of every problem, and writes the answer.

use super::unplaced;
use crate::model::InputError;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::ser::SerializeMap;
use serde::Serialize;
use serde_json::Value;

use crate::model::fit::forecast;
use crate::model::speedup::{analyse, weak, Analysis, Measure, Model, Options, Prediction, RawPoint, Space, MODELS};

use super::allocation::{self, allocation_help};
use super::answer::WithTable;
use super::request::{input_schema, output_schema, SpeedupInput, SpeedupRequest};
use super::{kind, ErrorItem, Render, Reply, Schemas, Subcommand};
use crate::model::allocation::{AllocationOptions, SpeedupRows};
use crate::model::speedup::request::SpeedupPoint;
use crate::model::Warning;

pub const COMMAND: Subcommand = Subcommand {
    name: "speedup",
    summary: "fit {model_words} speed-up curves; predict with a range (seed 004)",
    help: HELP,
    run,
    reads_input: true,
    each: Some(each),
    schema: Schemas { input: Some(input_schema::<SpeedupInput>), output: output_schema::<SpeedupOutput<'static>> },
};

const HELP: &str = concat!(
    r#"scalewise speedup — fit speed-up curves to a few measured runs and predict the others
(seed 004: Lan 2007, Downey's model tuned by Levenberg–Marquardt, with its rivals).

Models (all fitted by weighted least squares on the same residuals):
{model_lines}
Speed-ups are fitted as given. Times with a run at n = 1 become speed-ups T(1)/T(n). Times
without one are fitted as T(n) = T1/S(n) with T1 (seconds) a fitted parameter.

USAGE:
    scalewise speedup [FILE|-] [--compact] [--allocation md|csv|latex ...]
    scalewise speedup --format table [FILE|-] [--predict "64, 256"] [--second-column auto|speedup|time]
                      [--scaling weak]
    scalewise speedup [--format extrap] FILE [--predict 256,1024] [--metric NAME]
                      [--parameter NAME] [--hold VALUE|largest|per-value]

INPUT: one JSON object, or a JSON array of such objects (answered by an array in the same
order, the elements answered on every core; an element with a problem gets {"error": "..."}
in its place, and the exit status stays 0 — only a top level that is neither an object nor an
array is exit status 1):
    points            [{"n": 2, "speedup": 2.0}, ...] or [{"n": 4, "time_s": 169.6}, ...]:
                      n a whole number ≥ 1; speedup or time_s > 0 (the same one in every
                      point); optional "weight" > 0 (default 1); optional "nodes", the nodes
                      the run used (whole, 1 to n). A repeated n is averaged (weighted) and
                      said in warnings.
    predict           optional list of whole n to predict at, e.g. [32, 64] (at most 4096)
    models            optional list of names (default every model above)
    include_past_peak optional boolean (default false): points after the speed-up peak are
                      left out of the fits of models that cannot fall unless true; {can_fall}
                      always fits every point
    leave_one_out     optional boolean (default true): false skips the leave-one-out refits
    cores_per_node    optional whole number: processes one node holds. With it, or with
                      "nodes" on points that used several nodes, each prediction says how many
                      nodes it needs; where every measured run is inside one node and a
                      prediction needs more, the forecast says so and widens its range
    scaling           optional "strong" (default) or "weak": a weak-scaling series (the work
                      grows with n) of times; answered as WEAK SCALING below

OUTPUT:
    fits              [{model, params {name: value}, uncertainty {name: standard error or
                      null}, sse, aicc (null below k + 3 points), loo (leave-one-out error,
                      null when not computed), points_used, converged, iterations, ranked,
                      notes [..], residuals [{n, residual}], predictions [{n, speedup, low,
                      high, efficiency, and where times were given time_s, time_low_s,
                      time_high_s, horizon}]}]; params: each model's, as Models above
                      names them, plus T1 (s) when fitted. sse, residuals and loo are in
                      speed-up, or in seconds when T1 is fitted.
                      uncertainty: standard errors from s²(JᵀWJ)⁺ (pseudo-inverse; notes say
                      which parameters the points cannot tell apart, which sit at a bound,
                      and when s² is the corpus's run-to-run noise because the curve passes
                      through every point); null only where it could not be computed, with
                      a note. low/high and time_low_s/time_high_s are ranges at `level`:
                      the prediction times e^(q·u), u growing with the horizon (n over the
                      largest measured n) and with the disagreement of simple laws, q that
                      model's error quantiles measured on real scaling series (VALIDATION.md).
    level             the level of every range: 0.9
    forecast          {method, serial, parallel, trend_exponent, amdahl_weight, units ("s", or
                      "T(1)" for speed-up input), predictions [{n, speedup, low, high,
                      efficiency, horizon, time_s, time_low_s, time_high_s (where times were
                      given), held_out_coverage, held_out_predictions, held_out_width, nodes
                      (where known), crosses_nodes}]}: the prediction to use beyond the data.
                      ln T(n) = w·ln A(n) + (1 − w)·ln P(n): A is Amdahl's law anchored at the
                      largest measured count k, A(n) = serial + parallel/n, P the trend of the
                      last two runs, T(k)·(k/n)^trend_exponent, and w = amdahl_weight, which
                      falls as the runs scale better further out; the rule chosen on the
                      validation corpora with each source held out (VALIDATION.md).
                      held_out_coverage is how often its ranges held at that horizon (for as
                      many measured counts) on sources left out of their calibration,
                      held_out_width their median width over the prediction; crosses_nodes:
                      every measured run was inside one node and n needs more, so the range
                      is widened by the factor measured for such predictions.
    best              the chosen model's name (null when none could be fitted)
    best_reason       why: lowest AICc, else lowest leave-one-out error, else lowest squared
                      error; with the runner-up
    fitted_space      "speedup" or "time"
    t1_s              T(1) as measured (times with an n = 1 run), or null
    skipped           [{model, reason}]: models not fitted (e.g. fewer points than parameters)
    warnings          [..]: repeated n, points past the peak, super-linear speed-ups, …
    warnings_at       the same as [{path, message}], path the input they concern ("points",
                      "cores_per_node"): the shape every calculator's answer has
    points            [{n, speedup, time_s, weight, efficiency, karp_flatt, past_peak,
                      super_linear, merged_rows, in_non_declining_fits}] (null where unknown)
    karp_flatt        [{n, e}]: serial fraction (1/S − 1/n)/(1 − 1/n) for n > 1
    advice            {text, n [..], suggestions [{n, role (linear, transition, peak),
                      already_measured, text}]}: where to measure next, from the best curve

EXAMPLE:
    {"points": [{"n": 2, "speedup": 2.00}, {"n": 4, "speedup": 3.92},
                {"n": 8, "speedup": 7.25}, {"n": 16, "speedup": 13.29},
                {"n": 32, "speedup": 20.23}, {"n": 64, "speedup": 24.95}],
     "predict": [128], "models": ["downey"]}
    gives downey A = 24.87, sigma = 0.806, sse 0.294 (the thesis's A = 24.70, sigma = 0.74 has
    0.407), and a speed-up of 24.87 at n = 128.

WEAK SCALING ("scaling": "weak"): the work grows with n, so the times stay flat or grow.
    points are times ({"n", "time_s"}); predict optional (default 4× and 16× the largest n);
    models, include_past_peak and leave_one_out are refused. The time is modelled as a
    region of 'scalewise bottlenecks' is (a constant, Extra-P's normal form c0 + c1·n^i·
    log2(n)^j, a power law, …, chosen by leave-one-out), with 90 % ranges. The answer:
    scaling           "weak"
    model             {family, formula (e.g. "10 + 0.5·log₂ n"), loo_rel_error, note}
    efficiency_base_n n0, the smallest count measured (1 with a one-process run); t1_s its
                      time when n0 = 1, else null
    points            [{n, time_s, efficiency (T(n0)/T(n)), merged_rows}]
    predictions       [{n, time_s, time_low_s, time_high_s, efficiency, efficiency_low,
                      efficiency_high, horizon}]
    level, warnings, warnings_at (as above)

PASTED TABLES (--format table): the speed-up page's points table, read by the page's reader:
    a header naming n and time or speedup (units in brackets, e.g. "n,time (s)"; optional
    weight and nodes columns) or none; comma, tab or space separated. The answer is the one
    the same points give in JSON, as the page gives it. Options, read as the page's fields:
    --predict "64, 256"         counts to predict at (at most 8, as on the page)
    --second-column auto|speedup|time
                                what a table without a header holds (default auto: times
                                when a speed-up would be impossible, e.g. 100 at n = 1)
    --scaling weak              the work grows with n (times only)
    How a table without a header was read is said in table_reading and first in warnings.
    A bad cell: "points: line 3, column 2: expected a number for time (s), found "5x"".

EXTRA-P EXPERIMENTS (--format extrap, or recognised without it):
    FILE is an Extra-P experiment (github.com/extra-p/extrap, docs/file-formats.md) in its
    text, JSON (either layout), JSON Lines or Talpas format, ranked region by region as
    'scalewise bottlenecks' does: its --help gives the models, the options (--predict,
    --metric, --parameter, --hold) and the answer's keys.
    Malformed files: one line naming the line (and column) or the JSON path, e.g.
    "Extra-P experiment: line 4, column 8: expected a measured value (a number), found "x"".

"#,
    allocation_help!(),
    r#"    Rows: the measured counts with times, then the forecast's predictions beyond them.

ERRORS:
    One line naming the key, e.g. "points[2].n: n must be a whole number of processes from 1
    to 1e9, found 2.5". Exit status 1 (for a single object).
"#
);

/// A help text or summary with its lists of speed-up models written out from [`MODELS`]:
/// `{model_lines}` (a line per model: name, curve, ranges), `{model_words}` (their labels'
/// first words, "Downey, Amdahl, …") and `{can_fall}` (the names of those that can fall).
pub fn help_words(text: &str) -> String {
    if !text.contains("{model_") && !text.contains("{can_fall}") {
        return text.to_string();
    }
    let width = MODELS.iter().map(|m| m.name().chars().count() + 3).max().unwrap_or(0).max(9);
    let lines: Vec<String> = MODELS
        .iter()
        .map(|m| {
            let fall = if m.can_decline() { " (can fall after a peak)" } else { "" };
            format!("    {:<width$}{}{fall}", m.name(), m.help())
        })
        .collect();
    let and = |words: Vec<&str>| match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.concat(),
    };
    let words = and(MODELS.iter().map(|m| m.label().split(['/', ' ']).next().unwrap_or("")).collect());
    let can_fall = and(MODELS.iter().filter(|m| m.can_decline()).map(|m| m.name()).collect());
    text.replace("{model_lines}", &lines.join("\n")).replace("{model_words}", &words).replace("{can_fall}", &can_fall)
}

/// The points of a request as the model reads them, and what they measure (all speed-ups or
/// all times).
fn points(list: &[SpeedupPoint]) -> Result<(Vec<RawPoint>, Measure), InputError> {
    let mut measure = None;
    let mut raw = Vec::with_capacity(list.len());
    for (i, p) in list.iter().enumerate() {
        let path = format!("points[{i}]");
        let (value, this) = match (p.speedup, p.time_s) {
            (Some(s), None) => (s, Measure::Speedup),
            (None, Some(t)) => (t, Measure::TimeS),
            (Some(_), Some(_)) => return Err(InputError::new(path, "give speedup or time_s, not both")),
            (None, None) => return Err(InputError::new(path, "missing key \"speedup\" or \"time_s\"")),
        };
        match measure {
            Some(m) if m != this => {
                return Err(InputError::new(
                    path,
                    "every point must give the same one of speedup and time_s as points[0]",
                ))
            }
            _ => measure = Some(this),
        }
        raw.push(RawPoint { n: p.n, value, weight: p.weight, nodes: p.nodes, line: None });
    }
    Ok((raw, measure.unwrap_or(Measure::Speedup)))
}

// The answer as typed records, written straight to text by serde (a batch of thousands
// builds no JSON tree). Fields are in the order of their names, as serde_json writes the keys
// of an object, so the text is the same whichever way it is written.

#[derive(Serialize, JsonSchema)]
pub(super) struct PredictionOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    crosses_nodes: Option<bool>,
    efficiency: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    held_out_coverage: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    held_out_predictions: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    held_out_width: Option<f64>,
    high: f64,
    horizon: f64,
    low: f64,
    n: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u32>,
    speedup: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_high_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_low_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_s: Option<f64>,
}

pub(super) fn prediction(p: &Prediction) -> PredictionOut {
    PredictionOut {
        crosses_nodes: None,
        efficiency: p.efficiency,
        held_out_coverage: None,
        held_out_predictions: None,
        held_out_width: None,
        high: p.speedup_high,
        horizon: p.horizon,
        low: p.speedup_low,
        n: p.n,
        nodes: None,
        speedup: p.speedup,
        time_high_s: p.time_s.map(|t| t.2),
        time_low_s: p.time_s.map(|t| t.1),
        time_s: p.time_s.map(|t| t.0),
    }
}

/// An object of named numbers, its keys in order (a fit's params and uncertainty).
struct Named(Vec<(&'static str, Option<f64>)>);

impl Serialize for Named {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut entries: Vec<&(&str, Option<f64>)> = self.0.iter().collect();
        entries.sort_unstable_by_key(|e| e.0);
        let mut m = s.serialize_map(Some(entries.len()))?;
        for (k, v) in entries {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[derive(Serialize, JsonSchema)]
struct ResidualOut {
    n: u32,
    residual: f64,
}

#[derive(Serialize, JsonSchema)]
struct FitOut<'a> {
    aicc: Option<f64>,
    converged: bool,
    iterations: u32,
    loo: Option<f64>,
    model: &'static str,
    notes: &'a [String],
    #[schemars(with = "BTreeMap<String, Option<f64>>")]
    params: Named,
    points_used: usize,
    predictions: Vec<PredictionOut>,
    ranked: bool,
    residuals: Vec<ResidualOut>,
    sse: f64,
    #[schemars(with = "BTreeMap<String, Option<f64>>")]
    uncertainty: Named,
}

#[derive(Serialize, JsonSchema)]
struct PointOut {
    efficiency: Option<f64>,
    in_non_declining_fits: bool,
    karp_flatt: Option<f64>,
    merged_rows: usize,
    n: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u32>,
    past_peak: bool,
    speedup: Option<f64>,
    super_linear: bool,
    time_s: Option<f64>,
    weight: f64,
}

#[derive(Serialize, JsonSchema)]
struct KarpFlattOut {
    e: f64,
    n: u32,
}

#[derive(Serialize, JsonSchema)]
struct SuggestionOut<'a> {
    already_measured: bool,
    n: u32,
    role: &'static str,
    text: &'a str,
}

#[derive(Serialize, JsonSchema)]
struct AdviceOut<'a> {
    n: Vec<u32>,
    suggestions: Vec<SuggestionOut<'a>>,
    text: &'a str,
}

#[derive(Serialize, JsonSchema)]
struct ForecastOut {
    amdahl_weight: Option<f64>,
    method: String,
    parallel: Option<f64>,
    predictions: Vec<PredictionOut>,
    serial: Option<f64>,
    trend_exponent: Option<f64>,
    units: &'static str,
}

#[derive(Serialize, JsonSchema)]
struct SkippedOut<'a> {
    model: &'static str,
    reason: &'a str,
}

#[derive(Serialize, JsonSchema)]
struct AnswerOut<'a> {
    advice: AdviceOut<'a>,
    best: Option<&'static str>,
    best_reason: &'a str,
    fits: Vec<FitOut<'a>>,
    fitted_space: &'static str,
    forecast: ForecastOut,
    karp_flatt: Vec<KarpFlattOut>,
    level: f64,
    points: Vec<PointOut>,
    skipped: Vec<SkippedOut<'a>>,
    t1_s: Option<f64>,
    /// `--format table` only: how a table without a header was read (also the first warning).
    #[serde(skip_serializing_if = "Option::is_none")]
    table_reading: Option<String>,
    /// The sentences of `warnings_at`, kept as they always were.
    warnings: Vec<&'a str>,
    warnings_at: &'a [Warning],
}

fn answer(a: &Analysis) -> AnswerOut<'_> {
    let fits = a
        .fits
        .iter()
        .map(|f| FitOut {
            aicc: f.aicc,
            converged: f.termination.was_successful(),
            iterations: f.iterations,
            loo: f.loo,
            model: f.model.name(),
            notes: &f.notes,
            params: Named(f.params.iter().map(|p| (p.name, Some(p.value))).collect()),
            points_used: f.points,
            predictions: f.predictions.iter().map(prediction).collect(),
            ranked: f.ranked,
            residuals: f.residuals.iter().map(|&(n, residual)| ResidualOut { n, residual }).collect(),
            sse: f.sse,
            uncertainty: Named(f.params.iter().map(|p| (p.name, p.std_err)).collect()),
        })
        .collect();
    let points = a
        .points
        .iter()
        .map(|p| PointOut {
            efficiency: p.efficiency,
            in_non_declining_fits: p.in_monotone_fits,
            karp_flatt: p.karp_flatt,
            merged_rows: p.merged_rows,
            n: p.n,
            nodes: p.nodes,
            past_peak: p.past_peak,
            speedup: p.speedup,
            super_linear: p.super_linear,
            time_s: p.time_s,
            weight: p.weight,
        })
        .collect();
    let forecast = a
        .forecast
        .iter()
        .map(|p| {
            let (held, count, width) = forecast::track_record(p.horizon, a.points.len());
            PredictionOut {
                crosses_nodes: Some(p.crosses_nodes),
                held_out_coverage: Some(held),
                held_out_predictions: Some(count),
                held_out_width: Some(width),
                nodes: p.nodes,
                ..prediction(p)
            }
        })
        .collect();
    let law = a.forecast_law();
    AnswerOut {
        advice: AdviceOut {
            n: a.advice.iter().filter(|s| !s.already_measured).map(|s| s.n).collect(),
            suggestions: a
                .advice
                .iter()
                .map(|s| SuggestionOut { already_measured: s.already_measured, n: s.n, role: s.role, text: &s.text })
                .collect(),
            text: &a.advice_text,
        },
        best: a.best.map(Model::name),
        best_reason: &a.best_reason,
        fits,
        fitted_space: if a.space == Space::Time { "time" } else { "speedup" },
        forecast: ForecastOut {
            amdahl_weight: law.map(|l| l.weight),
            method: forecast::method(),
            parallel: law.map(|l| l.amdahl.1),
            predictions: forecast,
            serial: law.map(|l| l.amdahl.0),
            trend_exponent: law.map(|l| l.exponent),
            units: if a.measure == Measure::TimeS { "s" } else { "T(1)" },
        },
        karp_flatt: a.points.iter().filter_map(|p| p.karp_flatt.map(|e| KarpFlattOut { e, n: p.n })).collect(),
        level: forecast::LEVEL,
        points,
        skipped: a.skipped.iter().map(|s| SkippedOut { model: s.model.name(), reason: &s.reason }).collect(),
        t1_s: a.t1_measured,
        table_reading: None,
        warnings: a.warnings.iter().map(|w| w.message.as_str()).collect(),
        warnings_at: &a.warnings,
    }
}

/// Whether a request asks for weak scaling ("scaling": "weak"; "strong" is the default).
fn weak(r: &SpeedupRequest) -> Result<bool, InputError> {
    match r.scaling.as_deref() {
        None | Some("strong") => Ok(false),
        Some("weak") => Ok(true),
        Some(other) => {
            Err(InputError::new("scaling", format!("expected \"strong\" or \"weak\", found {}", Value::from(other))))
        }
    }
}

/// A weak-scaling request's `raw` points to its answer: the time's model and predictions with
/// the efficiency T(n₀)/T(n).
fn weak_answer(
    r: &SpeedupRequest,
    raw: &[RawPoint],
    measure: Measure,
) -> Result<(WeakAnswer, SpeedupRows), InputError> {
    for (key, given) in [
        ("models", r.models.is_some()),
        ("include_past_peak", r.include_past_peak.is_some()),
        ("leave_one_out", r.leave_one_out.is_some()),
    ] {
        if given {
            return Err(InputError::new(
                key,
                "not read for weak scaling (the time is modelled as on the Bottlenecks page)",
            ));
        }
    }
    let targets = predict_list(&r.predict)?;
    let w = weak::analyse_weak("points", raw, measure, &targets)?;
    let rows = SpeedupRows::of_weak(&w);
    let answer = WeakAnswer {
        scaling: "weak",
        level: w.level,
        model: WeakModelOut { family: w.family, formula: w.formula, loo_rel_error: w.loo, note: w.note },
        efficiency_base_n: w.base_n,
        t1_s: (w.base_n == 1).then_some(w.base_time_s),
        points: w.points,
        predictions: w
            .predictions
            .iter()
            .map(|p| WeakPredictionOut {
                n: p.n,
                time_s: p.time_s.0,
                time_low_s: p.time_s.1,
                time_high_s: p.time_s.2,
                efficiency: p.efficiency.0,
                efficiency_low: p.efficiency.1,
                efficiency_high: p.efficiency.2,
                horizon: p.horizon,
            })
            .collect(),
        warnings_at: w.warnings.iter().map(|m| Warning::at("points", m.clone())).collect(),
        warnings: w.warnings,
        table_reading: None,
    };
    Ok((answer, rows))
}

/// A weak-scaling series' answer.
#[derive(Serialize, JsonSchema)]
struct WeakAnswer {
    /// "weak".
    scaling: &'static str,
    level: f64,
    model: WeakModelOut,
    /// The count the efficiency is relative to.
    efficiency_base_n: u32,
    t1_s: Option<f64>,
    points: Vec<weak::WeakPoint>,
    predictions: Vec<WeakPredictionOut>,
    warnings: Vec<String>,
    warnings_at: Vec<Warning>,
    /// `--format table` only: how a table without a header was read (also the first warning).
    #[serde(skip_serializing_if = "Option::is_none")]
    table_reading: Option<String>,
}

#[derive(Serialize, JsonSchema)]
struct WeakModelOut {
    family: String,
    formula: String,
    loo_rel_error: Option<f64>,
    note: Option<String>,
}

#[derive(Serialize, JsonSchema)]
struct WeakPredictionOut {
    n: u32,
    time_s: f64,
    time_low_s: f64,
    time_high_s: f64,
    efficiency: f64,
    efficiency_low: f64,
    efficiency_high: f64,
    horizon: f64,
}

/// `scalewise speedup`'s answer: one analysis (strong or weak scaling), or a list of them in
/// the input's order with `{"error"}` in place of an element that could not be answered.
// The schema's type only (its doc is the schema's description): what `Written` and `Many`
// write is one of these, which tests/schema.rs checks on every answer.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum SpeedupOutput<'a> {
    Strong(Box<AnswerOut<'a>>),
    Weak(&'a WeakAnswer),
    Many(Vec<SpeedupItem<'a>>),
}

#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
enum SpeedupItem<'a> {
    Strong(Box<AnswerOut<'a>>),
    Weak(&'a WeakAnswer),
    Error(ErrorItem),
}

/// The whole counts of "predict" (none when absent).
fn predict_list(predict: &Option<Vec<f64>>) -> Result<Vec<u32>, InputError> {
    let Some(list) = predict else { return Ok(Vec::new()) };
    let list = super::at_most(list, crate::model::speedup::MAX_PREDICT, "process counts")?;
    list.iter()
        .enumerate()
        .map(|(i, &n)| {
            if n.fract() == 0.0 && (1.0..=1e9).contains(&n) {
                Ok(n as u32)
            } else {
                Err(InputError::new(
                    format!("predict[{i}]"),
                    format!("expected a whole number from 1 to 1e9, found {}", Value::from(n)),
                ))
            }
        })
        .collect()
}

/// A request answered: a strong-scaling analysis (written from its record), or a weak-scaling
/// answer with its allocation table's rows.
enum Answered {
    Strong(Box<Analysis>),
    Weak(Box<WeakAnswer>, SpeedupRows),
}

impl Answered {
    /// The rows of its allocation table, as the page tabulates them.
    fn rows(&self) -> SpeedupRows {
        match self {
            Answered::Strong(a) => SpeedupRows::of_analysis(a),
            Answered::Weak(_, rows) => rows.clone(),
        }
    }
}

fn answered(r: &SpeedupRequest) -> Result<Answered, InputError> {
    let (raw, measure) = points(&r.points)?;
    if weak(r)? {
        weak_answer(r, &raw, measure).map(|(w, rows)| Answered::Weak(Box::new(w), rows))
    } else {
        analysis(r, &raw, measure, false).map(|a| Answered::Strong(Box::new(a)))
    }
}

/// A request answered, as it is written: the strong-scaling record is made from the analysis
/// as it is written, with how a pasted table was read.
struct Written {
    answered: Answered,
    table_reading: Option<String>,
}

impl Written {
    fn item(&self) -> SpeedupItem<'_> {
        match &self.answered {
            Answered::Strong(a) => {
                SpeedupItem::Strong(Box::new(AnswerOut { table_reading: self.table_reading.clone(), ..answer(a) }))
            }
            Answered::Weak(w, _) => SpeedupItem::Weak(w),
        }
    }
}

impl Serialize for Written {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.item().serialize(s)
    }
}

/// A list's answers, each with its allocation table, written element by element.
struct Many(Vec<WithTable<Result<Written, ErrorItem>>>);

impl Serialize for Many {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for e in &self.0 {
            let item = match &e.answer {
                Ok(w) => w.item(),
                Err(error) => SpeedupItem::Error(ErrorItem { error: error.error.clone() }),
            };
            seq.serialize_element(&super::answer::Tabled { answer: item, allocation: e.allocation.as_ref() })?;
        }
        seq.end()
    }
}

/// A request answered, with its allocation table when the options ask for one.
fn reply(answered: Answered, table_reading: Option<String>, opts: &[(String, String)]) -> Result<Reply, InputError> {
    let allocation = allocation::table(opts, |o| allocation::of_speedup(&answered.rows(), o))?;
    Ok(Reply::new(WithTable { answer: Written { answered, table_reading }, allocation }))
}

/// The analysis of `raw` points with the other keys of the request `r`. `from_header`: the
/// points came from a table with a header, whose columns need not be in n, value, weight
/// order, so an error names the line only (as on the page).
fn analysis(r: &SpeedupRequest, raw: &[RawPoint], measure: Measure, from_header: bool) -> Result<Analysis, InputError> {
    let targets = predict_list(&r.predict)?;
    let models = match &r.models {
        None => MODELS.to_vec(),
        Some(list) if !list.is_empty() => list
            .iter()
            .enumerate()
            .map(|(i, v)| {
                Model::from_name(v).ok_or_else(|| {
                    let names: Vec<&str> = MODELS.iter().map(|m| m.name()).collect();
                    InputError::new(
                        format!("models[{i}]"),
                        format!("expected one of {}, found {}", names.join(", "), Value::from(v.as_str())),
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(InputError::new("models", "expected a non-empty list of model names, found an empty list"))
        }
    };
    let opts = Options {
        models,
        include_past_peak: r.include_past_peak.unwrap_or(false),
        targets,
        leave_one_out: r.leave_one_out.unwrap_or(true),
        cores_per_node: match r.cores_per_node {
            None => None,
            Some(c) if c.fract() == 0.0 && (1.0..=1e9).contains(&c) => Some(c as u32),
            Some(c) => {
                return Err(InputError::new(
                    "cores_per_node",
                    format!("expected a whole number from 1 to 1e9, found {}", Value::from(c)),
                ))
            }
        },
    };
    analyse("points", raw, measure, &opts).map_err(|mut e| {
        if from_header {
            e.column = None;
        }
        e
    })
}

/// `--format table`: the speed-up page's points table (a header naming n and time or speed-up,
/// units in brackets, or none; comma, tab or space separated), read by the page's own reader,
/// then answered as the same points in JSON would be. `--predict` and `--second-column` read as
/// the page's fields of those names read them; `--scaling weak` as the page's scaling.
pub fn run_table(text: &str, opts: &[(String, String)]) -> Result<Reply, InputError> {
    use crate::model::speedup::page;
    let (second, request) = table_options(opts)?;
    let table = page::parse_points(text, second)?;
    let (raw, measure) = (table.raw, table.measure);
    // What the page says first among its warnings: how a table without a header was read (or
    // that a speed-up column beside times is ignored), worded for the command.
    let note = table.note.as_deref().map(cli_words);
    if weak(&request)? {
        let (mut w, rows) = weak_answer(&request, &raw, measure)?;
        if let Some(note) = note {
            w.warnings.insert(0, note.clone());
            w.warnings_at.insert(0, Warning::at("points", note.clone()));
            w.table_reading = Some(note);
        }
        return reply(Answered::Weak(Box::new(w), rows), None, opts);
    }
    let mut a = analysis(&request, &raw, measure, table.had_header)?;
    if let Some(note) = &note {
        a.warnings.insert(0, Warning::at("points", note.clone()));
    }
    reply(Answered::Strong(Box::new(a)), note, opts)
}

/// The page's words for its second-column choice, as the command's option.
pub fn cli_words(note: &str) -> String {
    note.replace("choose \"speed-up\"", "give --second-column speedup")
        .replace("choose \"time\"", "give --second-column time")
}

/// The options of `--format table`, read as the page reads its fields of those names: what a
/// header-less table's second column holds, and the request's `predict` and `scaling` (its
/// points come from the table). Also the check of the options before the input is read
/// (`bottlenecks::RAW`).
pub fn table_options(opts: &[(String, String)]) -> Result<(Option<Measure>, SpeedupRequest), InputError> {
    use crate::model::speedup::page;
    let mut second = None;
    let mut request = SpeedupRequest::default();
    for (k, v) in opts {
        match k.as_str() {
            "--predict" => {
                let targets = page::parse_targets(v).map_err(|e| InputError::new("--predict", e.to_string()))?;
                request.predict = Some(targets.into_iter().map(f64::from).collect());
            }
            "--second-column" => second = page::second_column("--second-column", v)?,
            "--scaling" => request.scaling = Some(v.clone()),
            // The allocation table's (`allocation::attach`).
            o if allocation::OPTIONS.contains(&o) => {}
            other => return Err(unplaced(format!("{other} applies to --format extrap, not to a table"))),
        }
    }
    Ok((second, request))
}

/// One element of a list input to its answer's text, a problem as `{"error": "..."}`.
fn each(text: &str, how: &Render) -> Result<String, InputError> {
    let a = match super::request::read_text::<SpeedupRequest>(text).and_then(|r| answered(&r)) {
        Ok(a) => a,
        Err(error) => return how.item(&ErrorItem { error: super::said(&error) }, |_| None),
    };
    let table = |o: &AllocationOptions| allocation::of_speedup(&a.rows(), o);
    match &a {
        // A strong-scaling answer is written straight from its record, with no JSON tree.
        Answered::Strong(s) => how.item(&answer(s), table),
        Answered::Weak(w, _) => how.item(&**w, table),
    }
}

fn run(input: &str, opts: &[(String, String)]) -> Result<Reply, InputError> {
    let read = |text: &&str| super::request::read_text::<SpeedupRequest>(text).and_then(|r| answered(&r));
    match input.trim_start().as_bytes().first() {
        // Data sets are independent: one per core at a time, answers in the input's order.
        Some(b'[') => {
            let list: Vec<&str> = serde_json::from_str::<Vec<&serde_json::value::RawValue>>(input)
                .map_err(super::not_json)?
                .into_iter()
                .map(serde_json::value::RawValue::get)
                .collect();
            let all = crate::parallel::map(&list, &read).ok_or_else(|| unplaced(crate::parallel::STOPPED))?;
            // Each answered element with its allocation table.
            let items = all
                .into_iter()
                .map(|a| match a {
                    Ok(a) => {
                        let allocation = allocation::table(opts, |o| allocation::of_speedup(&a.rows(), o))?;
                        Ok(WithTable { answer: Ok(Written { answered: a, table_reading: None }), allocation })
                    }
                    Err(error) => {
                        Ok(WithTable { answer: Err(ErrorItem { error: super::said(&error) }), allocation: None })
                    }
                })
                .collect::<Result<_, InputError>>()?;
            Ok(Reply::new(Many(items)))
        }
        Some(b'{') => reply(read(&input)?, None, opts),
        _ => {
            let other: Value = serde_json::from_str(input).map_err(super::not_json)?;
            Err(InputError::new("input", format!("expected an object or a list of objects, found {}", kind(&other))))
        }
    }
}

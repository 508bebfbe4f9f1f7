//! `scalewise comm` and `broadcast` (seed 002): point-to-point model fits and broadcast
//! predictions. The models are `model::comm` and `model::comm::collectives`; this file reads
//! the JSON (or raw benchmark text), names the key of every problem, and writes the answer.
//! (The seed's logical clusters and grid broadcasts are `cli::sites`.)

use super::unplaced;
use crate::model::InputError;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::model::comm::collectives::{all_algorithms, Algorithm, Split, DEFAULT_LATENCY_SHARE, MAX_PROCS};
use crate::model::comm::export::{self as exports, ExportFormat};
use crate::model::comm::{self, fit_all, CommFit, Format, Knee, Model, ModelKind, Point, MAX_SIZE_BYTES};

use super::request::{BroadcastRequest, CommRequest};
use super::{RawInput, Reply, Subcommand};
use crate::model::comm::request::{CommPoint, ModelParams};
use crate::model::input::request::TextOr;

pub const COMMAND: Subcommand = Subcommand {
    name: "comm",
    summary: "fit Hockney, LogP, LogGP and pLogP to ping-pong times; the best model, the knee (seed 002)",
    help: COMM_HELP,
    run: super::run_command::<CommCommand>,
    reads_input: true,
    each: None,
    schema: super::schemas_of::<CommCommand>(),
};

pub const RAW: RawInput = RawInput {
    command: "comm",
    formats: &["osu", "osu_bw", "imb", "table"],
    run: run_comm_raw,
    options: &[],
    sniff: None,
    check: None,
};

pub const BROADCAST: Subcommand = Subcommand {
    name: "broadcast",
    summary: "broadcast time per algorithm ({algorithm_keys}) in a fitted model",
    help: BROADCAST_HELP,
    run: super::run_command::<BroadcastCommand>,
    reads_input: true,
    each: None,
    schema: super::schemas_of::<BroadcastCommand>(),
};

const COMM_HELP: &str = r#"scalewise comm — which point-to-point model describes your network (seed 002):
    Hockney  T(m) = α + β·m                       least squares over every size
    LogP     T(m) = (L + 2o) + (⌈m/w⌉ − 1)·max(g, o)   fitted below the protocol knee;
             w = the smallest non-empty size measured
    LogGP    T(m) = (L + 2o) + (m − 1)·G           L + 2o at the smallest size, G from the
             sizes above the knee
    pLogP    T(m) = L + g(m), g(m) piecewise linear between the measured sizes
Times in µs, sizes in bytes. Models are ranked by leave-one-out error (each size predicted
from the others), since pLogP passes through every measurement. The knee (eager →
rendezvous) is the best split into two straight segments, reported when it cuts the squared
relative residual 4× and one line misses by more than 2 %.

USAGE:
    scalewise comm [FILE|-] [--compact]
    scalewise comm [FILE|-] --format osu|osu_bw|imb|table
    scalewise comm [FILE|-] [--format ..] --export loggopsim|simgrid|sstmacro|ompi-rules

INPUT (JSON):
    points     list of {size_bytes (0 to 2^40, whole), time_us (one-way, > 0)}, at most
               4096; repeated sizes are averaged; Hockney, LogP and LogGP need 2 sizes,
               pLogP 3
    predict    optional list of sizes (bytes) to predict in every model (at most 4096)
    export     optional list of formats to write for other tools ("all" for every one):
               {export_keys} (see EXPORTS)
    procs      optional, for ompi-rules: the largest communicator (20); rules are written
               for 2, 4, 8, … below it and for it
    latency_share  optional, 0 to 1 (0.5): the share of a small message's time that is
               wire latency, as in `broadcast` (splits LogGOPSim's L and o; the rules'
               broadcasts)
With --format the input is raw text instead: osu (osu_latency output), osu_bw (osu_bw:
time = size / bandwidth, MB = 10^6 B), imb (IMB PingPong: t[usec]) or table (size, time;
units in the header, e.g. "size (KB)  time (us)"). Predictions are then made at the
measured sizes. A line that cannot be read, output cut off mid-table included, is refused
with its line and column (all of the text or none of it).

OUTPUT:
    models     [{model: "hockney"|"logp"|"loggp"|"plogp", params {..}, rel_error (mean
               relative error at the measured sizes), loo_rel_error (leave-one-out, over at
               most 64 sizes left out, spread evenly; null with too few sizes), rel_errors
               [{size_bytes, rel_error}], predictions [{size_bytes, time_us}]}]
               params: hockney {alpha_us, beta_us_per_byte, bandwidth_mb_s}; logp
               {l_plus_2o_us, gap_us, w_bytes}; loggp {l_plus_2o_us, big_g_us_per_byte,
               bandwidth_mb_s}; plogp {t_smallest_us, bandwidth_mb_s, knots}
               (bandwidth in MB/s, MB = 2^20 B, as in the catalog)
    best       the model with the smallest leave-one-out error, best_reason why
    knee       {size_bytes (first rendezvous size), last_eager_bytes, jump_us,
               residual_ratio} or null
    skipped    [{model, reason}]: models that need more sizes
    format     what the input was read as
    warnings, warnings_at  always empty ([] each; warnings_at is every calculator's
               [{path, message}]): a text is read whole or refused at its bad line
    exports    {format: text}, only with "export": the files below, as text

EXPORTS (--export NAME writes that text alone instead of JSON):
    loggopsim  a LogGOPSim command line: -L -o -g in ns, -G -O in ns per byte (O = 0: a
               ping-pong does not measure it), -S the rendezvous threshold in bytes (the
               knee); L and o split L + 2o by latency_share
    simgrid    a SimGrid link (latency in us, bandwidth in Bps) and --cfg=smpi/lat-factor
               and smpi/bw-factor "size:factor;size:factor" per protocol segment (eager
               below the knee, rendezvous from it)
    sstmacro   an SST/macro parameter block: nic injection and logp switch latency (us)
               and bandwidth (GB/s, 10^9 B/s) of the best model
    ompi-rules an Open MPI coll_tuned dynamic rules file for MPI_Bcast (collective 7):
               per communicator size, "msg_size algorithm topo segsize" where the fastest
               broadcast of the best model changes, with Open MPI's algorithm ids
               ({ompi_algorithms}); use it with
               mpirun --mca coll_tuned_use_dynamic_rules 1
                      --mca coll_tuned_dynamic_rules_filename FILE

EXAMPLE:
    {"points": [{"size_bytes": 1, "time_us": 50.01}, {"size_bytes": 1024, "time_us": 60.24},
                {"size_bytes": 65536, "time_us": 705.4}], "predict": [131072]}
    scalewise comm --format osu osu_latency.txt
    scalewise comm --format osu osu_latency.txt --export ompi-rules > bcast-rules.conf

ERRORS:
    One line naming the key, e.g. "points[2].time_us: must be greater than 0". Exit status 1.
"#;

const BROADCAST_HELP: &str = r#"scalewise broadcast — time to broadcast m bytes to P processes (seed 002, Table 3):
{algorithm_formulas}
Every model gives T(m) = L + g(m); L = latency_share × T(0) and g(m) = T(m) − L (a ping-pong
cannot separate the wire latency from the sender's gap). P = 1 takes 0 (linear on ties).

USAGE:
    scalewise broadcast [FILE|-] [--compact]

INPUT (one JSON object):
    model           "hockney", "logp", "loggp" or "plogp" (default: the best fitted one)
    params          the model's parameters as `scalewise comm` writes them:
                    hockney {alpha_us, beta_us_per_byte}; logp {l_plus_2o_us, gap_us,
                    w_bytes}; loggp {l_plus_2o_us, big_g_us_per_byte}
    points          instead of params: [{size_bytes, time_us}] to fit (needed for plogp)
    procs           P, processes (1 to 16777216)
    size_bytes      m, bytes
    latency_share   optional, 0 to 1 (default 0.5)

OUTPUT:
    model, procs, size_bytes, latency_us (L), gap_us (g(m)),
    algorithms      [{algorithm: {algorithm_keys_quoted}, time_us,
                    segment_bytes (pipeline only)}]
    best            the fastest algorithm

EXAMPLE:
    {"model": "hockney", "params": {"alpha_us": 10, "beta_us_per_byte": 0.01},
     "procs": 8, "size_bytes": 1000}
    answers each algorithm's time (linear's 110; the pipeline's 110.6 with s = 256): best
    binomial, 60.
"#;

/// `x` when it is from `lo` to `hi`, else the error naming `path` (also `cli::sites`').
pub(super) fn within(x: f64, path: &str, lo: f64, hi: f64) -> Result<f64, InputError> {
    if (lo..=hi).contains(&x) {
        Ok(x)
    } else {
        Err(InputError::new(path, format!("must be from {lo} to {hi}, found {x}")))
    }
}

/// The measurements of a request, each checked as the page checks a row.
fn points(list: &[CommPoint]) -> Result<Vec<Point>, InputError> {
    if list.len() > comm::MAX_POINTS {
        return Err(InputError::new(
            "points",
            format!("{} measurements is more than the {} a fit takes", list.len(), comm::MAX_POINTS),
        ));
    }
    let mut out = Vec::with_capacity(list.len());
    for (i, p) in list.iter().enumerate() {
        let size = within(p.size_bytes, &format!("points[{i}].size_bytes"), 0.0, MAX_SIZE_BYTES)?;
        if !comm::time_in_range(p.time_us) {
            return Err(InputError::new(
                format!("points[{i}].time_us"),
                format!("must be from 1e-6 to 1e12 µs, found {}", p.time_us),
            ));
        }
        out.push(Point { size_bytes: size, time_us: p.time_us, line: None });
    }
    Ok(out)
}

/// What to export and with which broadcast basis (`export`, `procs`, `latency_share`).
#[derive(Debug, Clone, Default)]
pub struct ExportRequest {
    pub formats: Vec<ExportFormat>,
    pub procs: Option<u32>,
    pub latency_share: Option<f64>,
}

impl ExportRequest {
    fn from_request(r: &CommRequest) -> Result<ExportRequest, InputError> {
        let formats = match &r.export {
            None => Vec::new(),
            Some(TextOr::Text(s)) if s == "all" => ExportFormat::all().collect(),
            Some(TextOr::Text(_)) => return Err(InputError::new("export", "expected a list, found a string")),
            Some(TextOr::Value(list)) => list
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    ExportFormat::from_key(x).ok_or_else(|| {
                        InputError::new(
                            format!("export[{i}]"),
                            format!("expected {}, found {x:?}", ExportFormat::expected()),
                        )
                    })
                })
                .collect::<Result<_, _>>()?,
        };
        let procs = match r.procs {
            None => None,
            Some(p) => {
                let p = within(p, "procs", 2.0, f64::from(MAX_PROCS))?;
                if p.fract() != 0.0 {
                    return Err(InputError::new("procs", format!("expected a whole number, found {p}")));
                }
                Some(p as u32)
            }
        };
        let latency_share = r.latency_share.map(|x| within(x, "latency_share", 0.0, 1.0)).transpose()?;
        Ok(ExportRequest { formats, procs, latency_share })
    }

    /// The text of one format.
    pub fn text(&self, fit: &CommFit, format: ExportFormat) -> Result<String, InputError> {
        exports::export(format, fit, self.latency_share.unwrap_or(DEFAULT_LATENCY_SHARE), self.procs.unwrap_or(20))
            .ok_or_else(|| InputError::new("export", format!("no fitted model to write {} from", format.name())))
    }
}

/// `scalewise comm`'s answer.
#[derive(Serialize, JsonSchema)]
pub struct CommAnswer {
    /// Every model fitted, with its parameters, errors and predictions.
    models: Vec<ModelAnswer>,
    /// The model chosen, by its key.
    best: Option<&'static str>,
    best_reason: String,
    /// The eager-to-rendezvous knee, when the measurements show one.
    knee: Option<Knee>,
    /// Models that could not be fitted, with the reason.
    skipped: Vec<SkippedModel>,
    /// The format the measurements were read in.
    format: Format,
    /// Always empty: a text is read whole or refused at its bad line, and a fit's remarks
    /// have keys of their own (`knee`, `skipped`). Kept for scripts that read it.
    warnings: Vec<String>,
    /// The same, in every calculator's shape; empty too.
    warnings_at: Vec<crate::model::Warning>,
    /// With "export": each format's text by its name.
    #[serde(skip_serializing_if = "Option::is_none")]
    exports: Option<BTreeMap<&'static str, String>>,
}

#[derive(Serialize, JsonSchema)]
struct ModelAnswer {
    model: &'static str,
    /// The model's parameters by name; sizes and counts (w_bytes, knots) are integers.
    #[schemars(with = "BTreeMap<String, f64>")]
    params: BTreeMap<&'static str, Param>,
    rel_error: f64,
    loo_rel_error: Option<f64>,
    rel_errors: Vec<SizeError>,
    predictions: Vec<SizeTime>,
}

/// A model's parameter: a size or a count as an integer when whole, any other as it is.
#[derive(Serialize)]
#[serde(untagged)]
enum Param {
    Whole(super::Whole),
    Real(f64),
}

#[derive(Serialize, JsonSchema)]
struct SizeError {
    #[serde(serialize_with = "crate::model::finite::whole")]
    size_bytes: f64,
    rel_error: f64,
}

#[derive(Serialize, JsonSchema)]
struct SizeTime {
    #[serde(serialize_with = "crate::model::finite::whole")]
    size_bytes: f64,
    time_us: f64,
}

#[derive(Serialize, JsonSchema)]
struct SkippedModel {
    model: &'static str,
    reason: String,
}

fn comm_answer(
    fit: &CommFit,
    predict: &[f64],
    format: Format,
    request: &ExportRequest,
) -> Result<CommAnswer, InputError> {
    let models = fit
        .models
        .iter()
        .map(|f| ModelAnswer {
            model: f.model.kind().key(),
            // Sizes and counts among the parameters (w_bytes, knots) are written as integers.
            params: f
                .model
                .params()
                .into_iter()
                .map(|(k, v)| {
                    (
                        k,
                        if k.ends_with("_bytes") || k == "knots" {
                            Param::Whole(super::Whole(v))
                        } else {
                            Param::Real(v)
                        },
                    )
                })
                .collect(),
            rel_error: f.mean_rel_error,
            loo_rel_error: f.loo_rel_error,
            rel_errors: fit
                .sizes_bytes
                .iter()
                .zip(&f.rel_errors)
                .map(|(&size_bytes, &rel_error)| SizeError { size_bytes, rel_error })
                .collect(),
            predictions: predict.iter().map(|&m| SizeTime { size_bytes: m, time_us: f.model.time_us(m) }).collect(),
        })
        .collect();
    let exports = if request.formats.is_empty() {
        None
    } else {
        Some(request.formats.iter().map(|f| Ok((f.key(), request.text(fit, *f)?))).collect::<Result<_, InputError>>()?)
    };
    Ok(CommAnswer {
        models,
        best: fit.best.map(ModelKind::key),
        best_reason: fit.best_reason.clone(),
        knee: fit.knee,
        skipped: fit.skipped.iter().map(|(k, r)| SkippedModel { model: k.key(), reason: r.clone() }).collect(),
        format,
        warnings: Vec::new(),
        warnings_at: Vec::new(),
        exports,
    })
}

super::answered_command!(CommCommand, CommRequest, CommAnswer, run_comm);

fn run_comm(r: CommRequest) -> Result<CommAnswer, InputError> {
    let request = ExportRequest::from_request(&r)?;
    let (fit, predict) = fit_of(&r)?;
    comm_answer(&fit, &predict, Format::Table, &request)
}

/// The fit of a request's points and the sizes it asks to predict at, checked.
fn fit_of(r: &CommRequest) -> Result<(CommFit, Vec<f64>), InputError> {
    let pts = points(&r.points)?;
    let predict = match &r.predict {
        None => Vec::new(),
        Some(list) => super::at_most(list, comm::MAX_PREDICT, "message sizes")?
            .iter()
            .enumerate()
            .map(|(i, &x)| within(x, &format!("predict[{i}]"), 0.0, MAX_SIZE_BYTES))
            .collect::<Result<_, _>>()?,
    };
    let fit = fit_all(&pts).map_err(|e| InputError::new("points", e.message))?;
    Ok((fit, predict))
}

/// `comm --export NAME`: the other tool's file, written from the fit of the input: JSON (its
/// `procs` and `latency_share` read as for the answer's `exports`; its own `export` key set
/// aside) or raw benchmark text of `format`.
pub fn export(format: Option<&str>, text: &str, e: ExportFormat) -> Result<String, InputError> {
    let (fit, request) = match format {
        Some(f) => (raw_fit(f, text)?, ExportRequest::default()),
        None => {
            super::check_json(text)?;
            let r = CommRequest { export: None, ..super::request::read_text::<CommRequest>(text)? };
            let request = ExportRequest::from_request(&r)?;
            (fit_of(&r)?.0, request)
        }
    };
    request.text(&fit, e)
}

/// Raw benchmark text of `format` to its answer (which holds no exports: `--export` writes
/// its file from the fit, [`export`]).
fn run_comm_raw(format: &str, text: &str, _options: &[(String, String)]) -> Result<Reply, InputError> {
    let fit = raw_fit(format, text)?;
    let sizes = fit.sizes_bytes.clone();
    Ok(Reply::new(comm_answer(
        &fit,
        &sizes,
        Format::from_key(format).unwrap_or(Format::Table),
        &ExportRequest::default(),
    )?))
}

/// The fit of raw benchmark text of `format`: all of the text or none of it.
fn raw_fit(format: &str, text: &str) -> Result<CommFit, InputError> {
    let format = Format::from_key(format).unwrap_or(Format::Table);
    let parsed = comm::parse_p2p(text, Some(format));
    // All of the text or none of it: a line that cannot be read is an error at that line.
    if let Some(e) = parsed.error {
        return Err(InputError { field: String::new(), ..e });
    }
    if parsed.points.is_empty() {
        return Err(unplaced("no measurements found"));
    }
    fit_all(&parsed.points).map_err(|e| unplaced(e.message))
}

fn params_model(kind: ModelKind, p: &ModelParams) -> Result<Model, InputError> {
    let keys: &[&str] = match kind {
        ModelKind::Hockney => &["alpha_us", "beta_us_per_byte", "bandwidth_mb_s"],
        ModelKind::LogP => &["l_plus_2o_us", "gap_us", "w_bytes"],
        ModelKind::LogGP => &["l_plus_2o_us", "big_g_us_per_byte", "bandwidth_mb_s"],
        ModelKind::PLogP => return Err(InputError::new("params", "pLogP has no closed form; give \"points\" instead")),
    };
    let given = [
        ("alpha_us", p.alpha_us),
        ("beta_us_per_byte", p.beta_us_per_byte),
        ("bandwidth_mb_s", p.bandwidth_mb_s),
        ("l_plus_2o_us", p.l_plus_2o_us),
        ("gap_us", p.gap_us),
        ("w_bytes", p.w_bytes),
        ("big_g_us_per_byte", p.big_g_us_per_byte),
    ];
    // Another model's key is an error here, as an unknown key is.
    if let Some((k, _)) = given.iter().find(|(k, v)| v.is_some() && !keys.contains(k)) {
        return Err(InputError::new("params", format!("unknown key \"{k}\"; expected {}", keys.join(", "))));
    }
    let get = |k: &str, lo: f64| -> Result<f64, InputError> {
        let v = given
            .iter()
            .find(|g| g.0 == k)
            .and_then(|g| g.1)
            .ok_or_else(|| InputError::new("params", format!("missing key \"{k}\"")))?;
        within(v, &format!("params.{k}"), lo, 1e12)
    };
    Ok(match kind {
        ModelKind::Hockney => {
            Model::Hockney { alpha_us: get("alpha_us", -1e12)?, beta_us_per_byte: get("beta_us_per_byte", 0.0)? }
        }
        ModelKind::LogP => Model::LogP {
            l_2o_us: get("l_plus_2o_us", -1e12)?,
            gap_us: get("gap_us", 0.0)?,
            w_bytes: get("w_bytes", 1.0)?,
        },
        _ => Model::LogGP { l_2o_us: get("l_plus_2o_us", -1e12)?, g_us_per_byte: get("big_g_us_per_byte", 0.0)? },
    })
}

super::answered_command!(BroadcastCommand, BroadcastRequest, BroadcastAnswer, run_broadcast);

fn run_broadcast(r: BroadcastRequest) -> Result<BroadcastAnswer, InputError> {
    let kind = match &r.model {
        None => None,
        Some(s) => Some(ModelKind::from_key(s).ok_or_else(|| {
            InputError::new("model", format!("unknown model \"{s}\"; expected {}", ModelKind::expected()))
        })?),
    };
    let model = match (&r.params, &r.points) {
        (Some(_), Some(_)) => return Err(InputError::new("input", "give params or points, not both")),
        (Some(p), None) => params_model(kind.ok_or_else(|| InputError::new("model", "needed with params"))?, p)?,
        (None, Some(p)) => {
            let fit = fit_all(&points(p)?).map_err(|e| InputError::new("points", e.message))?;
            let k = kind.or(fit.best).ok_or_else(|| InputError::new("points", "no model could be fitted"))?;
            match fit.model(k) {
                Some(model) => model.clone(),
                None => {
                    let why = fit.skipped.iter().find(|s| s.0 == k).map(|s| s.1.clone()).unwrap_or_default();
                    return Err(InputError::new("points", why));
                }
            }
        }
        (None, None) => return Err(InputError::new("input", "missing key \"params\" (or \"points\")")),
    };
    let procs = within(r.procs, "procs", 1.0, f64::from(MAX_PROCS))?;
    if procs.fract() != 0.0 {
        return Err(InputError::new("procs", format!("expected a whole number, found {procs}")));
    }
    let size = within(r.size_bytes, "size_bytes", 0.0, MAX_SIZE_BYTES)?;
    let share = r.latency_share.map_or(Ok(DEFAULT_LATENCY_SHARE), |x| within(x, "latency_share", 0.0, 1.0))?;
    let split = Split::new(&model, share);
    let (times, best) = all_algorithms(&split, procs as u32, size);
    Ok(BroadcastAnswer {
        model: model.kind().key(),
        procs: procs as u32,
        size_bytes: size,
        latency_us: split.latency_us,
        gap_us: split.gap_us(size),
        algorithms: times
            .iter()
            .map(|t| AlgorithmTime {
                algorithm: t.algorithm,
                time_us: t.time_us,
                segment_bytes: t.segment_bytes.map(super::Whole),
            })
            .collect(),
        best,
    })
}

/// `scalewise broadcast`'s answer.
#[derive(Serialize, JsonSchema)]
pub struct BroadcastAnswer {
    /// The model used, by its key.
    model: &'static str,
    procs: u32,
    #[serde(serialize_with = "crate::model::finite::whole")]
    size_bytes: f64,
    /// L, the wire latency, µs.
    latency_us: f64,
    /// g(m), the sender's gap for the message, µs.
    gap_us: f64,
    /// Every algorithm's time.
    algorithms: Vec<AlgorithmTime>,
    /// The fastest algorithm.
    best: Algorithm,
}

#[derive(Serialize, JsonSchema)]
struct AlgorithmTime {
    algorithm: Algorithm,
    time_us: f64,
    /// The pipeline's best segment size, bytes (null for the other algorithms).
    segment_bytes: Option<super::Whole>,
}

/// A help text or summary with its lists of broadcast algorithms written out from
/// [`Algorithm`]: `{algorithm_formulas}` (a line per algorithm: key, formula, note),
/// `{algorithm_keys}`, `{algorithm_keys_quoted}` ("linear"|"binomial"|…) and
/// `{ompi_algorithms}` (1 basic_linear, 3 pipeline, …); and the export formats,
/// `{export_keys}` (loggopsim, simgrid, …).
pub fn help_words(text: &str) -> String {
    if !text.contains("{algorithm") && !text.contains("{ompi_algorithms}") && !text.contains("{export_keys}") {
        return text.to_string();
    }
    let width = Algorithm::all().map(|a| a.key().chars().count() + 2).max().unwrap_or(0).max(11);
    let formulas: Vec<String> = Algorithm::all()
        .map(|a| {
            let line = format!("    {:<width$}{}", a.key(), a.formula());
            match a.note() {
                // The note in a column of its own, 42 characters after the formulas start.
                Some(note) => format!("{line:<column$}({note})", column = width + 46),
                None => line,
            }
        })
        .collect();
    let keys: Vec<&str> = Algorithm::all().map(Algorithm::key).collect();
    let quoted: Vec<String> = keys.iter().map(|k| format!("\"{k}\"")).collect();
    text.replace("{algorithm_formulas}", &formulas.join("\n"))
        .replace("{algorithm_keys_quoted}", &quoted.join("|"))
        .replace("{algorithm_keys}", &keys.join(", "))
        .replace(
            "{ompi_algorithms}",
            &Algorithm::ompi_list(|a| format!("{} {}", a.ompi_id(), a.ompi_name()), ", ", ", "),
        )
        .replace("{export_keys}", &ExportFormat::all().map(ExportFormat::key).collect::<Vec<_>>().join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_documents_every_key() {
        for (help, keys) in [
            (
                COMM_HELP,
                &[
                    "points",
                    "predict",
                    "models",
                    "params",
                    "rel_error",
                    "predictions",
                    "best",
                    "knee",
                    "skipped",
                    "warnings",
                    "warnings_at",
                ][..],
            ),
            (
                BROADCAST_HELP,
                &[
                    "model",
                    "params",
                    "points",
                    "procs",
                    "size_bytes",
                    "latency_share",
                    "algorithms",
                    "segment_bytes",
                    "best",
                ],
            ),
        ] {
            for k in keys {
                assert!(help.contains(k), "help lacks {k}");
            }
        }
    }
}

//! Everything the communication page shows: its input texts parsed once into typed [`Inputs`]
//! ([`parse`]), then computed ([`evaluate`]); [`view`] does both and attaches the errors. The
//! page only renders the [`PageView`]: the point-to-point fits, broadcasts and Poly-adapt.
//! The latency matrix, its logical clusters and the grid broadcast are the "Broadcast across
//! sites" page's (`model::sites::page`), which reads its numbers, sizes and latency share with
//! this page's readers ([`number_in`], [`sizes_of`], [`latency_share`]).
//!
//! Inputs (field names, also the keys of share links and workspace files), with defaults:
//! - `p2p`: point-to-point measurements: a (size, time) table with units in the header, or
//!   raw OSU latency/bandwidth or IMB PingPong output (default: a constructed OSU sample).
//! - `p2p_format`: `auto` (recognised from the headers), `table`, `osu`, `osu_bw`, `imb`.
//! - `latency_share`: share of a small message's time that is wire latency L, 0 to 1 (0.5);
//!   the rest is the sender's gap g (see `collectives`).
//! - `procs` (20) and `sizes` ("8KB 512KB"): broadcast predictions, P and message sizes.
//! - `bcast_model`: the model the broadcast table is shown in (the page's choice; blank: the
//!   best fitted one).
//! - `measured`: measured broadcasts, a table (size, procs, algorithm, time), e.g.
//!   `size (KB)  procs  algorithm  time (ms)` / `8  20  binomial  0.61` (default empty), or
//!   raw osu_bcast / IMB Bcast output under a line naming the algorithm and process count
//!   (`bcast_output`).

use std::collections::BTreeMap;

use serde::Serialize;

pub use crate::model::chart::Series;

use crate::model::catalog::{Catalog, Fabric};
use crate::model::comm::collectives::{
    all_algorithms, poly_adapt1, poly_adapt2, AdaptRow, Algorithm, Broadcast, MeasuredBroadcast, ModelChoice, Split,
    DEFAULT_LATENCY_SHARE, MAX_PROCS,
};
use crate::model::comm::{self, fit_all, CommFit, Format, ModelKind, MAX_SIZE_BYTES};
use crate::model::input::list::{self, ListSpec};
use crate::model::input::table::{parse_number, parse_table, ColumnSpec, Quantity, BYTES, MICROSECONDS, PLAIN};
use crate::model::workspace::{text, FieldErrors, PageField, PageInputs, Preset};
use crate::model::InputError;

pub const PAGE: &str = crate::model::calculators::COMM.key;
pub use super::bcast_output::MEASURED_FIELD;
/// Most sizes a size list may hold.
pub const MAX_SIZES: usize = 64;

pub const MEASURED_COLUMNS: &[ColumnSpec] = &[
    ColumnSpec::new("size", Quantity::Size, BYTES).aliases(&["bytes", "m", "msg_size", "message_size"]),
    ColumnSpec::new("procs", Quantity::Plain, PLAIN).aliases(&["p", "np", "processes"]).integer(),
    ColumnSpec::new("algorithm", Quantity::Plain, PLAIN).aliases(&["alg", "algo"]).integer(),
    ColumnSpec::new("time", Quantity::Time, MICROSECONDS).aliases(&["t", "latency"]),
];

/// The page's input fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    P2p,
    P2pFormat,
    LatencyShare,
    Procs,
    Sizes,
    BcastModel,
    Measured,
}

impl PageField for Field {
    const ALL: &'static [Field] = &[
        Field::P2p,
        Field::P2pFormat,
        Field::LatencyShare,
        Field::Procs,
        Field::Sizes,
        Field::BcastModel,
        Field::Measured,
    ];

    fn key(self) -> &'static str {
        match self {
            Field::P2p => "p2p",
            Field::P2pFormat => "p2p_format",
            Field::LatencyShare => "latency_share",
            Field::Procs => "procs",
            Field::Sizes => "sizes",
            Field::BcastModel => "bcast_model",
            Field::Measured => "measured",
        }
    }
}

/// Broadcasts predicted by one model at one size (for `procs` processes).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BroadcastRow {
    pub size_bytes: f64,
    pub model: ModelKind,
    /// In the order of [`Algorithm::all`].
    pub times: Vec<Broadcast>,
    pub best: Algorithm,
}

/// Everything on the page.
#[derive(Debug, Clone, PartialEq)]
pub struct PageView {
    /// Errors of single-value fields (`procs`, `sizes`, `latency_share`, …), keyed by field
    /// name.
    pub field_errors: BTreeMap<String, String>,
    /// What the `p2p` text was read as.
    pub format: Format,
    /// A problem in the `p2p` text (with its line): then nothing of it is fitted.
    pub p2p_error: Option<InputError>,
    /// Fits of the four models, knee, best model and why; None without measurements.
    pub fit: Option<CommFit>,
    /// Log–log chart: "measured", then one curve per fitted model (sizes > 0 only).
    pub chart: Vec<Series>,
    /// Predicted broadcasts: every size × every fitted model, at `procs`.
    pub broadcast: Vec<BroadcastRow>,
    /// Completion time against size per algorithm (log–log), in the model chosen for the chart
    /// (`bcast_model`) when it is fitted, else the best one: [`PageView::broadcast_chart_model`].
    pub broadcast_chart: Vec<Series>,
    pub broadcast_chart_model: Option<ModelKind>,
    pub measured: Vec<MeasuredBroadcast>,
    pub measured_error: Option<InputError>,
    /// Poly-adapt-1: per algorithm, the model closest to the measured broadcasts.
    pub adapt1: Vec<ModelChoice>,
    /// Poly-adapt-2 (the Table 4 of the user's platform): per (size, procs), the fastest.
    pub adapt2: Vec<AdaptRow>,
    pub warnings: Vec<String>,
}

/// The point-to-point measurements and the broadcasts' inputs, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct P2pInputs {
    /// The measurements; on a problem in the text, its error and the rows above it.
    pub p2p: comm::Parsed,
    /// Processes of the broadcast predictions; `None` when the field is wrong.
    pub procs: Option<u32>,
    /// Message sizes of the broadcast predictions (none when the field is wrong).
    pub sizes: Vec<f64>,
    /// The measured broadcasts; on a problem, its error and the rows above it.
    pub measured: Vec<MeasuredBroadcast>,
    pub measured_error: Option<InputError>,
    /// The model the broadcast chart is drawn in (None: the best fitted one).
    pub chart_model: Option<ModelKind>,
}

/// Everything the page reads, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// Share of a small message's time that is wire latency (its default when the field is
    /// wrong).
    pub latency_share: f64,
    pub p2p: P2pInputs,
}

/// A number of a page's field in a range; a blank field takes `default`. (Also the "Broadcast
/// across sites" page's.)
pub fn number_in<F: PageField>(
    texts: &PageInputs,
    field: F,
    what: &str,
    range: (f64, f64),
    default: f64,
    errors: &mut FieldErrors,
) -> Option<f64> {
    let t = text(texts, field).trim();
    if t.is_empty() {
        return Some(default);
    }
    match parse_number(t) {
        Some(v) if v >= range.0 && v <= range.1 => Some(v),
        _ => {
            errors.push(InputError::new(
                field.key(),
                format!(
                    "{what}: expected a number from {} to {}, found \"{}\"",
                    crate::model::fmt_num(range.0, 6),
                    crate::model::fmt_num(range.1, 6),
                    t.chars().take(20).collect::<String>()
                ),
            ));
            None
        }
    }
}

/// A list of message sizes: "8KB 512KB", "8 kB, 1 MB", "65536" (KB = 1024 bytes).
pub fn parse_sizes(text: &str) -> Result<Vec<f64>, InputError> {
    let spec = ListSpec { max_items: MAX_SIZES, required: false };
    list::sizes("sizes", text, spec, MAX_SIZE_BYTES)
}

/// The sizes of a page's field, `blank` when it is blank ([`parse_sizes`]).
pub fn sizes_of<F: PageField>(texts: &PageInputs, field: F, blank: &str) -> Result<Vec<f64>, InputError> {
    let t = text(texts, field);
    parse_sizes(if t.trim().is_empty() { blank } else { t })
}

/// Replaces algorithm names by their column codes so the table parser can read them. A name
/// is a word: a letter, then letters, digits, '_' or '-' (every name the command reads,
/// [`Algorithm::names`]); other words are left as they are.
fn encode_algorithms(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match Algorithm::from_key(word) {
            Some(a) if !word.is_empty() => {
                // Padded to the word's width, so that the columns errors name stay the text's.
                let code = Algorithm::all().position(|x| x == a).unwrap_or(0) + 1;
                out.push_str(&format!("{code:<width$}", width = word.chars().count()));
            }
            _ => out.push_str(word),
        }
        word.clear();
    };
    for ch in text.chars() {
        if ch.is_ascii_alphabetic() || ch == '_' || (!word.is_empty() && (ch.is_ascii_digit() || ch == '-')) {
            word.push(ch);
        } else {
            flush(&mut word, &mut out);
            out.push(ch);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Reads the measured broadcasts; on an error, the rows above it.
pub fn parse_measured(text: &str) -> (Vec<MeasuredBroadcast>, Option<InputError>) {
    if crate::model::comm::bcast_output::is_bcast_output(text) {
        return crate::model::comm::bcast_output::parse_bcast_output(text);
    }
    let fix = |mut e: InputError| {
        if e.message.contains("for algorithm") {
            e.message = format!(
                "unknown algorithm{}; expected {}",
                e.message.split("found").nth(1).map(|f| format!(" {}", f.trim())).unwrap_or_default(),
                Algorithm::expected()
            );
        }
        e
    };
    let encoded = encode_algorithms(text);
    let (rows, mut error) = match parse_table(MEASURED_FIELD, &encoded, MEASURED_COLUMNS) {
        Ok(t) => (t.rows, None),
        Err(e) => {
            let head: Vec<&str> = encoded.lines().take(e.line.unwrap_or(1).saturating_sub(1)).collect();
            (
                parse_table(MEASURED_FIELD, &head.join("\n"), MEASURED_COLUMNS).map(|t| t.rows).unwrap_or_default(),
                Some(fix(e)),
            )
        }
    };
    let mut out = Vec::new();
    for r in rows {
        let [Some(m), Some(p), Some(a), Some(t)] = r.values[..] else { continue };
        // The character column of the k-th column's cell (1-based k), as every error names it.
        let bad = |k: usize, msg: &str| {
            Some(InputError::new(MEASURED_FIELD, msg).at(r.line, Some(r.columns.get(k - 1).copied().unwrap_or(k))))
        };
        let algorithm = Algorithm::all().nth((a as usize).wrapping_sub(1));
        let problem = if !(0.0..=MAX_SIZE_BYTES).contains(&m) {
            bad(1, "a size is from 0 to 1 TB")
        } else if !(1.0..=f64::from(MAX_PROCS)).contains(&p) {
            bad(2, "procs is a whole number from 1 to 16777216")
        } else if algorithm.is_none() {
            bad(3, &format!("unknown algorithm; expected {}", Algorithm::expected()))
        } else if !(t > 0.0 && t <= 1e12) {
            bad(4, "a time must be greater than 0")
        } else {
            None
        };
        if let (None, Some(algorithm)) = (&problem, algorithm) {
            out.push(MeasuredBroadcast { size_bytes: m, procs: p as u32, algorithm, time_us: t });
        } else {
            error = problem;
            break;
        }
    }
    (out, error)
}

/// The processes of the broadcast predictions (20 when blank).
fn procs(texts: &PageInputs, errors: &mut FieldErrors) -> Option<u32> {
    number_in(texts, Field::Procs, "processes", (1.0, f64::from(MAX_PROCS)), 20.0, errors).and_then(|p| {
        if p.fract() == 0.0 {
            Some(p as u32)
        } else {
            errors.push(InputError::new(Field::Procs.key(), "processes: expected a whole number"));
            None
        }
    })
}

/// The latency share in a page's `field` (its default when blank or wrong): this page's and
/// the "Broadcast across sites" page's.
pub fn latency_share<F: PageField>(texts: &PageInputs, field: F, errors: &mut FieldErrors) -> f64 {
    number_in(texts, field, "latency share", (0.0, 1.0), DEFAULT_LATENCY_SHARE, errors).unwrap_or(DEFAULT_LATENCY_SHARE)
}

/// The process count and latency share the broadcasts are predicted at, for a page that draws
/// more of them (`None`: the count is wrong).
pub fn broadcast_basis(texts: &PageInputs) -> (Option<u32>, f64) {
    let mut errors = FieldErrors::new();
    (procs(texts, &mut errors), latency_share(texts, Field::LatencyShare, &mut errors))
}

impl P2pInputs {
    fn parse(texts: &PageInputs, errors: &mut FieldErrors) -> P2pInputs {
        let format = Format::from_key(text(texts, Field::P2pFormat).trim());
        let p2p = comm::parse_p2p(text(texts, Field::P2p), format);
        let procs = procs(texts, errors);
        let sizes = sizes_of(texts, Field::Sizes, "8KB 512KB").unwrap_or_else(|e| {
            errors.push(InputError::new(Field::Sizes.key(), format!("message sizes: {}", e.local_text())));
            Vec::new()
        });
        let (measured, measured_error) = parse_measured(text(texts, Field::Measured));
        let chart_model = ModelKind::from_key(text(texts, Field::BcastModel));
        P2pInputs { p2p, procs, sizes, measured, measured_error, chart_model }
    }
}

/// Parses every field once.
pub fn parse(texts: &PageInputs) -> (Inputs, FieldErrors) {
    let mut errors = FieldErrors::new();
    let share = latency_share(texts, Field::LatencyShare, &mut errors);
    let p2p = P2pInputs::parse(texts, &mut errors);
    (Inputs { latency_share: share, p2p }, errors)
}

/// The page for its input texts: parsed, computed, with each field's error.
pub fn view(texts: &PageInputs, catalog: &Catalog) -> PageView {
    let (inputs, errors) = parse(texts);
    with_errors(evaluate(&inputs, catalog), errors)
}

fn with_errors(mut view: PageView, errors: FieldErrors) -> PageView {
    view.field_errors.extend(errors.into_iter().map(|e| (e.field, e.message)));
    view
}

/// Computes the page from its parsed inputs.
pub fn evaluate(inputs: &Inputs, _catalog: &Catalog) -> PageView {
    let mut view = empty_view();
    evaluate_p2p(&inputs.p2p, inputs.latency_share, &mut view);
    view
}

fn empty_view() -> PageView {
    PageView {
        field_errors: BTreeMap::new(),
        format: Format::Table,
        p2p_error: None,
        fit: None,
        chart: Vec::new(),
        broadcast: Vec::new(),
        broadcast_chart: Vec::new(),
        broadcast_chart_model: None,
        measured: Vec::new(),
        measured_error: None,
        adapt1: Vec::new(),
        adapt2: Vec::new(),
        warnings: Vec::new(),
    }
}

/// Fits, broadcasts and Poly-adapt.
fn evaluate_p2p(p: &P2pInputs, share: f64, view: &mut PageView) {
    view.format = p.p2p.format;
    view.p2p_error = p.p2p.error.clone();
    view.measured = p.measured.clone();
    view.measured_error = p.measured_error.clone();
    let fit = if p.p2p.points.is_empty() { None } else { fit_all(&p.p2p.points).ok() };
    let Some(f) = fit else { return };
    if let Some(k) = &f.knee {
        view.warnings.push(format!(
            "Protocol knee between {} and {} bytes: LogP is fitted below it, LogGP's G above it.",
            crate::model::fmt_num(k.last_eager_bytes, 8),
            crate::model::fmt_num(k.size_bytes, 8)
        ));
    }
    view.chart = fit_chart(&f);
    if let Some(procs) = p.procs {
        view.broadcast = broadcast_rows(&f, share, procs, &p.sizes);
        let kind = p.chart_model.filter(|k| f.model(*k).is_some()).or(f.best);
        view.broadcast_chart_model = kind;
        view.broadcast_chart = kind.map(|k| broadcast_chart(&f, k, share, procs, &p.sizes)).unwrap_or_default();
    }
    if let Some(choices) = poly_adapt1(&f, share, &p.measured) {
        let mut cases: Vec<(f64, u32)> = p.measured.iter().map(|r| (r.size_bytes, r.procs)).collect();
        if let Some(procs) = p.procs {
            cases.extend(p.sizes.iter().map(|&m| (m, procs)));
        }
        cases.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        cases.dedup();
        view.adapt2 = cases.iter().filter_map(|&(m, procs)| poly_adapt2(&f, share, &choices, m, procs)).collect();
        view.adapt1 = choices;
    }
    view.fit = Some(f);
}

fn log_sizes(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let (a, b) = (lo.max(1.0).log2(), hi.max(lo.max(1.0)).log2());
    (0..n).map(|i| (a + (b - a) * i as f64 / (n - 1).max(1) as f64).exp2()).collect()
}

/// The measurements and one curve per fitted model, log–log.
fn fit_chart(f: &CommFit) -> Vec<Series> {
    let measured: Vec<(f64, f64)> =
        f.sizes_bytes.iter().zip(&f.times_us).filter(|p| *p.0 > 0.0).map(|(m, t)| (*m, *t)).collect();
    let (lo, hi) = (measured.first().map_or(1.0, |p| p.0), measured.last().map_or(1.0, |p| p.0));
    let mut chart = vec![Series { label: "measured".into(), points: measured }];
    let xs = log_sizes(lo, hi, 49);
    for mf in &f.models {
        let points = xs.iter().map(|&m| (m, mf.model.time_us(m))).filter(|p| p.1 > 0.0).collect();
        chart.push(Series { label: mf.model.kind().name().into(), points });
    }
    chart
}

/// Every algorithm at every size in every fitted model.
fn broadcast_rows(f: &CommFit, share: f64, procs: u32, sizes: &[f64]) -> Vec<BroadcastRow> {
    let mut rows = Vec::new();
    for &m in sizes {
        for mf in &f.models {
            let (times, best) = all_algorithms(&Split::new(&mf.model, share), procs, m);
            rows.push(BroadcastRow { size_bytes: m, model: mf.model.kind(), times, best });
        }
    }
    rows
}

/// Completion time against size per algorithm in model `kind` (fitted), from 1 B to the
/// largest measured or asked size, 41 sizes evenly spaced in log.
fn broadcast_chart(f: &CommFit, kind: ModelKind, share: f64, procs: u32, sizes: &[f64]) -> Vec<Series> {
    let Some(model) = f.model(kind) else { return Vec::new() };
    let split = Split::new(model, share);
    let hi = f.sizes_bytes.iter().chain(sizes).copied().fold(2.0, f64::max);
    let xs = log_sizes(1.0, hi, 41);
    Algorithm::all()
        .map(|a| {
            let points = xs
                .iter()
                .map(|&m| (m, crate::model::comm::collectives::broadcast(&split, a, procs, m).time_us))
                .filter(|q| q.1 > 0.0)
                .collect();
            Series { label: a.key().into(), points }
        })
        .collect()
}

/// A fitted model as a catalog fabric, for "save to Clusters".
pub fn fitted_fabric(view: &PageView, kind: ModelKind, name: &str) -> Option<Fabric> {
    view.fit.as_ref()?.model(kind).map(|m| comm::to_fabric(m, name))
}

/// Constructed OSU latency output (not a measurement): Gigabit-Ethernet-like, 47.6 µs +
/// m / 117 B/µs, a 95 µs rendezvous handshake from 64 KB, ±1 % seeded noise.
pub const OSU_SAMPLE: &str = "# OSU MPI Latency Test v5.9 (constructed sample, not a measurement)
# Size          Latency (us)
0                           47.72
1                           47.84
2                           47.90
4                           48.06
8                           47.90
16                          48.14
32                          47.42
64                          48.11
128                         49.13
256                         49.94
512                         52.39
1024                        55.92
2048                        65.06
4096                        82.19
8192                       117.72
16384                      187.91
32768                      324.48
65536                      698.76
131072                    1257.30
262144                    2402.99
524288                    4648.27
1048576                   9042.80
2097152                  18174.35
4194304                  35731.33
";

/// Constructed ping-pong table and broadcasts (not measurements): the OSU sample's curve in a
/// table with units, and broadcasts on 20 processes.
pub const TABLE_SAMPLE: &str = "size (KB)\ttime (us)\n0.0078125\t47.9\n1\t55.9\n8\t117.7\n32\t324.5\n64\t698.8\n256\t2403\n1024\t9043\n4096\t35731\n";
pub const MEASURED_SAMPLE: &str = "size (KB)\tprocs\talgorithm\ttime (ms)\n8\t20\tbinomial\t0.61\n8\t20\tlinear\t2.3\n512\t20\tpipeline\t6.9\n512\t20\tbinomial\t19.5\n";

/// The page's presets.
pub fn presets() -> Vec<Preset> {
    let inputs = |p2p: &str, measured: &str| -> PageInputs {
        [
            (Field::P2p, p2p.to_string()),
            (Field::P2pFormat, "auto".to_string()),
            (Field::LatencyShare, "0.5".to_string()),
            (Field::Procs, "20".to_string()),
            (Field::Sizes, "8KB 64KB 512KB 4MB".to_string()),
            (Field::Measured, measured.to_string()),
        ]
        .into_iter()
        .map(|(f, v)| (f.key().to_string(), v))
        .collect()
    };
    vec![
        Preset {
            key: "osu-g5k",
            name: "Constructed OSU output, Grid'5000 (Nasri et al., Table 2)",
            description: "A constructed osu_latency output (Gigabit-Ethernet-like, not a measurement) and the 78 Grid'5000 machines of Nasri et al., Table 2.",
            inputs: inputs(OSU_SAMPLE, ""),
        },
        Preset {
            key: "table-bcast",
            name: "Constructed ping-pong table and broadcasts, Grid'5000",
            description: "The same curve as a (size, time) table, constructed broadcasts on 20 processes (not measurements), and Nasri et al.'s Table 2.",
            inputs: inputs(TABLE_SAMPLE, MEASURED_SAMPLE),
        },
    ]
}

/// The page's inputs before the user has touched it: the first preset's.
pub fn default_inputs() -> PageInputs {
    presets().into_iter().next().map(|p| p.inputs).unwrap_or_default()
}

crate::model::calculators::usual_contract!(
    /// The communication page's row in the table of calculators.
    CommPage
);

#[cfg(test)]
mod tests;

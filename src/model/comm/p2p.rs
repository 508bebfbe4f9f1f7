//! Point-to-point communication models fitted to ping-pong measurements (seed 002,
//! Nasri–Steffenel–Trystram, §3 and Table 3; spec `collectives.md`).
//!
//! Input: one-way times T(m) in µs for messages of m bytes, from a pasted (size, time) table,
//! raw OSU latency or bandwidth output, or Intel MPI Benchmarks PingPong output
//! ([`parse_p2p`]). Sizes 0 to 2^40 bytes, times above 0 and below 10^12 µs.
//!
//! Models (every time in µs, m in bytes):
//! - Hockney: T(m) = α + β·m, ordinary least squares over every size.
//! - LogP: T(m) = (L + 2o) + (⌈m/w⌉ − 1)·max(g, o). From ping-pong alone only L + 2o and
//!   max(g, o) can be told apart; w is the smallest non-empty message measured (LogP's
//!   "small message"), and both are fitted by least squares on the sizes sent eagerly (below
//!   the protocol knee, all sizes when there is none): LogP is a small-message model.
//! - LogGP: T(m) = (L + 2o) + (m − 1)·G. L + 2o is pinned to the smallest message measured
//!   and G, the gap per byte, is the least-squares slope through that point of the sizes
//!   sent by rendezvous (all sizes when there is no knee): long messages set G, as in LogGP.
//! - pLogP: T(m) = L + g(m) with g(m) taken from the measurements themselves: piecewise
//!   linear between measured sizes (repeated sizes averaged), constant below the smallest
//!   size, and continued with the last segment's slope above the largest.
//!
//! pLogP passes through every measurement, so its in-sample error is zero by construction.
//! Models are therefore ranked by their leave-one-out error: each size is predicted from a
//! fit to the other sizes (the knee kept fixed), which is what a model is used for.
//!
//! The protocol knee (eager → rendezvous) is the best split of the sizes into two straight
//! segments, with relative (1/T²-weighted) least squares; it is reported when the two
//! segments cut the squared relative residual of one line by at least 4× and one line misses
//! by more than 2 % RMS.

use serde::Serialize;

use crate::model::fit::line;
use crate::model::input::table::{field_columns, parse_number, parse_table, ColumnSpec, Quantity, BYTES, MICROSECONDS};
use crate::model::InputError;

pub const P2P_FIELD: &str = "point-to-point measurements";
/// Largest message size accepted, bytes (1 TiB).
pub const MAX_SIZE_BYTES: f64 = 1_099_511_627_776.0;
/// Smallest time accepted, µs (a picosecond: below it relative errors and fitted rates stop
/// being finite numbers).
pub const MIN_TIME_US: f64 = 1e-6;
/// Largest time accepted, µs (about 11.6 days).
pub const MAX_TIME_US: f64 = 1e12;

/// Whether a measured time is within [`MIN_TIME_US`] and [`MAX_TIME_US`].
pub fn time_in_range(time_us: f64) -> bool {
    (MIN_TIME_US..=MAX_TIME_US).contains(&time_us)
}
/// Most measurements read; more is not a ping-pong table.
pub const MAX_POINTS: usize = 4096;
/// Most message sizes one input predicts at on the command (the page's `MAX_SIZES` are fewer:
/// a table of them is shown). Work and answer grow with the list: 4,096 sizes answer in well
/// under a second.
pub const MAX_PREDICT: usize = 4096;

pub const P2P_COLUMNS: &[ColumnSpec] = &[
    ColumnSpec::new("size", Quantity::Size, BYTES).aliases(&[
        "bytes",
        "#bytes",
        "m",
        "msg_size",
        "message_size",
        "message",
        "length",
    ]),
    ColumnSpec::new("time", Quantity::Time, MICROSECONDS).aliases(&["t", "latency", "lat", "t[usec]", "one_way"]),
];

/// What the pasted text was recognised as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// A (size, time) table through `table.rs`.
    Table,
    /// `osu_latency`: one-way latency per size.
    OsuLatency,
    /// `osu_bw`: bandwidth per size, turned into time per message (size / bandwidth).
    OsuBandwidth,
    /// IMB PingPong: `t[usec]` is half the round trip, i.e. one-way.
    ImbPingPong,
}

impl Format {
    /// The format named by its key (`table`, `osu`, `osu_bw`, `imb`: the page's `p2p_format`
    /// and the command's `--format`); `None` for anything else.
    pub fn from_key(key: &str) -> Option<Format> {
        match key {
            "table" => Some(Format::Table),
            "osu" => Some(Format::OsuLatency),
            "osu_bw" => Some(Format::OsuBandwidth),
            "imb" => Some(Format::ImbPingPong),
            _ => None,
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            Format::Table => "a (size, time) table",
            Format::OsuLatency => "OSU latency output",
            Format::OsuBandwidth => "OSU bandwidth output (time per message = size / bandwidth)",
            Format::ImbPingPong => "Intel MPI Benchmarks PingPong output",
        }
    }
}

/// One measurement.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Point {
    pub size_bytes: f64,
    pub time_us: f64,
    /// 1-based line in the pasted text, when it came from one.
    #[serde(skip)]
    pub line: Option<usize>,
}

/// The measurements read from a text: all of them, or none and the `error` that names the
/// first line (and column) that cannot be read. A text half read is never fitted as if it
/// were whole.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub format: Format,
    pub points: Vec<Point>,
    pub error: Option<InputError>,
}

/// Recognises OSU and IMB output from their headers; anything else is a table.
pub fn detect_format(text: &str) -> Format {
    let head: String = text.lines().take(40).collect::<Vec<_>>().join("\n").to_ascii_lowercase();
    if head.contains("osu") && head.contains("bandwidth") {
        Format::OsuBandwidth
    } else if head.contains("osu") {
        Format::OsuLatency
    } else if head.contains("benchmarking pingpong")
        || head.contains("#bytes #repetitions")
        || head.contains("intel(r) mpi benchmarks")
    {
        Format::ImbPingPong
    } else {
        Format::Table
    }
}

/// Reads measurements in the given format (`None`: recognised from the headers).
pub fn parse_p2p(text: &str, format: Option<Format>) -> Parsed {
    let format = format.unwrap_or_else(|| detect_format(text));
    let (mut points, error) = match format {
        Format::Table => parse_plain_table(text),
        Format::OsuLatency | Format::OsuBandwidth => parse_osu(text, format == Format::OsuBandwidth),
        Format::ImbPingPong => parse_imb(text),
    };
    if error.is_some() {
        points.clear();
    }
    Parsed { format, points, error }
}

fn err(line: usize, column: Option<usize>, message: impl Into<String>) -> InputError {
    InputError::new(P2P_FIELD, message).at(line, column)
}

/// Checks one measurement's range; `cols` are the character columns of size and time.
fn point(line: usize, cols: (usize, usize), size: f64, time: f64) -> Result<Point, InputError> {
    if !(0.0..=MAX_SIZE_BYTES).contains(&size) || size.fract() != 0.0 {
        return Err(err(line, Some(cols.0), "a message size is a whole number of bytes from 0 to 1 TiB"));
    }
    if !time_in_range(time) {
        return Err(err(line, Some(cols.1), "a time must be from 1e-6 µs to 1e12 µs"));
    }
    Ok(Point { size_bytes: size, time_us: time, line: Some(line) })
}

fn parse_plain_table(text: &str) -> (Vec<Point>, Option<InputError>) {
    let table = match parse_table(P2P_FIELD, text, P2P_COLUMNS) {
        Ok(t) => t,
        Err(e) => return (Vec::new(), Some(e)),
    };
    let mut points = Vec::new();
    for r in table.rows {
        if let [Some(m), Some(t)] = r.values[..] {
            match point(r.line, (r.columns[0], r.columns[1]), m, t) {
                Ok(p) => points.push(p),
                Err(e) => return (points, Some(e)),
            }
        }
        if points.len() > MAX_POINTS {
            return (points, Some(err(r.line, None, format!("more than {MAX_POINTS} measurements"))));
        }
    }
    (points, None)
}

/// Numbers of one data line, or the error naming the cell that is not one (at its character
/// column, as every error names a column).
fn numbers(line: usize, l: &str) -> Result<Vec<f64>, InputError> {
    let (at, _) = field_columns(l);
    l.split_whitespace()
        .zip(at)
        .map(|(c, col)| {
            parse_number(c).ok_or_else(|| {
                err(line, Some(col), format!("expected a number, found \"{}\"", c.chars().take(24).collect::<String>()))
            })
        })
        .collect()
}

/// The character column of whitespace field `i` (0-based) of `l`, past its end where there is none.
fn column_of(l: &str, i: usize) -> usize {
    let (at, end) = field_columns(l);
    at.get(i).copied().unwrap_or(end)
}

fn truncated(line: usize, column: usize, what: &str) -> InputError {
    err(line, Some(column), format!("the output stops in the middle of this line ({what}); it looks cut off"))
}

fn parse_osu(text: &str, bandwidth: bool) -> (Vec<Point>, Option<InputError>) {
    let mut points = Vec::new();
    let mut seen_header = false;
    for (i, l) in text.lines().enumerate() {
        let line = i + 1;
        let t = l.trim();
        if t.starts_with('#') {
            let lower = t.to_ascii_lowercase();
            seen_header |= lower.contains("size");
            // A header that names the other benchmark: the format does not apply.
            let (latency, rate) = (lower.contains("latency"), lower.contains("bandwidth") || lower.contains("mb/s"));
            if bandwidth && latency && !rate {
                return (points, Some(err(line, None, "this is osu_latency output (its header names a latency), not osu_bw; read it with the osu format")));
            }
            if !bandwidth && rate && !latency {
                return (points, Some(err(line, None, "this is osu_bw output (its header names a bandwidth), not osu_latency; read it with the osu_bw format")));
            }
            continue;
        }
        if t.is_empty() {
            continue;
        }
        let v = match numbers(line, l) {
            Ok(v) => v,
            Err(e) => return (points, Some(e)),
        };
        // osu_latency -f and osu_bw -m print more columns; the first two are size and value.
        let (Some(&size), Some(&value)) = (v.first(), v.get(1)) else {
            return (points, Some(truncated(line, column_of(l, 1), "a size without its time")));
        };
        if bandwidth && size == 0.0 {
            continue;
        }
        if bandwidth && !(value > 0.0 && value.is_finite()) {
            return (points, Some(err(line, Some(column_of(l, 1)), "a bandwidth must be greater than 0")));
        }
        // OSU prints MB/s with MB = 10^6 bytes: bytes / (MB/s) is µs.
        let time = if bandwidth { size / value } else { value };
        match point(line, (column_of(l, 0), column_of(l, 1)), size, time) {
            Ok(p) => points.push(p),
            Err(e) => return (points, Some(e)),
        }
        if points.len() > MAX_POINTS {
            return (points, Some(err(line, None, format!("more than {MAX_POINTS} measurements"))));
        }
    }
    let error = (!seen_header && points.is_empty())
        .then(|| InputError::new(P2P_FIELD, "no OSU table found (expected a \"# Size\" header and rows under it)"));
    (points, error)
}

fn parse_imb(text: &str) -> (Vec<Point>, Option<InputError>) {
    let lines: Vec<&str> = text.lines().collect();
    // The PingPong section when there is one, else the first table.
    let start = lines.iter().position(|l| l.to_ascii_lowercase().contains("benchmarking pingpong")).unwrap_or(0);
    let mut points = Vec::new();
    let mut time_col: Option<usize> = None;
    let mut width = 0;
    for (i, l) in lines.iter().enumerate().skip(start) {
        let line = i + 1;
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with('#') {
            let lower = t.to_ascii_lowercase();
            if lower.contains("#bytes") {
                let cells: Vec<&str> = lower.split_whitespace().collect();
                time_col = cells.iter().position(|c| *c == "t[usec]" || c.starts_with("t_avg"));
                width = cells.len();
                if time_col.is_none() {
                    return (points, Some(err(line, None, "this IMB table has no t[usec] column")));
                }
            } else if !points.is_empty() {
                break; // the next benchmark's section
            }
            continue;
        }
        let Some(tc) = time_col else {
            continue; // text before the table header
        };
        let v = match numbers(line, l) {
            Ok(v) => v,
            Err(e) => return (points, Some(e)),
        };
        if v.len() < width {
            return (points, Some(truncated(line, column_of(l, v.len()), &format!("{} of {width} values", v.len()))));
        }
        match point(line, (column_of(l, 0), column_of(l, tc)), v[0], v[tc]) {
            Ok(p) => points.push(p),
            Err(e) => return (points, Some(e)),
        }
        if points.len() > MAX_POINTS {
            return (points, Some(err(line, None, format!("more than {MAX_POINTS} measurements"))));
        }
    }
    let error = time_col.is_none().then(|| {
        InputError::new(P2P_FIELD, "no IMB PingPong table found (expected a \"#bytes #repetitions t[usec]\" header)")
    });
    (points, error)
}

/// Measurements sorted by size, repeated sizes averaged: (size, mean time).
pub fn distinct(points: &[Point]) -> Vec<(f64, f64)> {
    let mut sorted: Vec<(f64, f64)> = points.iter().map(|p| (p.size_bytes, p.time_us)).collect();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<(f64, f64, f64)> = Vec::new();
    for (m, t) in sorted {
        match out.last_mut() {
            Some(last) if last.0 == m => {
                last.1 += t;
                last.2 += 1.0;
            }
            _ => out.push((m, t, 1.0)),
        }
    }
    out.into_iter().map(|(m, t, k)| (m, t / k)).collect()
}

/// The four models, each defined once on its variant: its key (`to_string`, also its JSON
/// name and its value in share links) and its name as written (`message`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    strum::EnumIter,
    strum::EnumCount,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::EnumMessage,
)]
#[strum(ascii_case_insensitive)]
pub enum ModelKind {
    #[strum(to_string = "hockney", message = "Hockney")]
    Hockney,
    #[strum(to_string = "logp", message = "LogP")]
    LogP,
    #[strum(to_string = "loggp", message = "LogGP")]
    LogGP,
    #[strum(to_string = "plogp", message = "pLogP")]
    PLogP,
}

/// Every model, in the order they are fitted and listed.
pub const MODEL_KINDS: [ModelKind; <ModelKind as strum::EnumCount>::COUNT] =
    [ModelKind::Hockney, ModelKind::LogP, ModelKind::LogGP, ModelKind::PLogP];

impl Serialize for ModelKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.key())
    }
}

impl ModelKind {
    /// The key used in JSON and share links.
    pub fn key(self) -> &'static str {
        self.into()
    }
    pub fn name(self) -> &'static str {
        strum::EnumMessage::get_message(&self).unwrap_or_else(|| self.key())
    }
    pub fn from_key(s: &str) -> Option<ModelKind> {
        s.trim().parse().ok()
    }
    /// "hockney, logp, loggp or plogp", for messages.
    pub fn expected() -> String {
        crate::model::one_of(MODEL_KINDS.iter().map(|k| k.key()))
    }
    /// Fewest distinct sizes a fit needs.
    pub fn min_sizes(self) -> usize {
        match self {
            ModelKind::PLogP => 3,
            _ => 2,
        }
    }
}

/// A fitted model. Every variant predicts a finite time ≥ 0 for any size ≥ 0.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "model", rename_all = "lowercase")]
pub enum Model {
    Hockney {
        alpha_us: f64,
        beta_us_per_byte: f64,
    },
    /// `l_2o_us` = L + 2o, `gap_us` = max(g, o) per small message of `w_bytes`.
    LogP {
        l_2o_us: f64,
        gap_us: f64,
        w_bytes: f64,
    },
    /// `l_2o_us` = L + 2o, `g_us_per_byte` = G.
    LogGP {
        l_2o_us: f64,
        g_us_per_byte: f64,
    },
    /// g(m) through the measured (size, one-way time) knots; T(m) = L + g(m).
    PLogP {
        sizes_bytes: Vec<f64>,
        times_us: Vec<f64>,
    },
}

impl Model {
    pub fn kind(&self) -> ModelKind {
        match self {
            Model::Hockney { .. } => ModelKind::Hockney,
            Model::LogP { .. } => ModelKind::LogP,
            Model::LogGP { .. } => ModelKind::LogGP,
            Model::PLogP { .. } => ModelKind::PLogP,
        }
    }

    /// One-way time of an m-byte message, µs (never negative).
    pub fn time_us(&self, m: f64) -> f64 {
        let m = m.max(0.0);
        let t = match self {
            Model::Hockney { alpha_us, beta_us_per_byte } => alpha_us + beta_us_per_byte * m,
            Model::LogP { l_2o_us, gap_us, w_bytes } => l_2o_us + ((m / w_bytes).ceil() - 1.0).max(0.0) * gap_us,
            Model::LogGP { l_2o_us, g_us_per_byte } => l_2o_us + (m.max(1.0) - 1.0) * g_us_per_byte,
            Model::PLogP { sizes_bytes, times_us } => interpolate(sizes_bytes, times_us, m),
        };
        t.max(0.0)
    }

    /// The parameters as (key, value) pairs, for tables and JSON. pLogP has no closed form:
    /// its latency and asymptotic bandwidth are given instead of its knots.
    pub fn params(&self) -> Vec<(&'static str, f64)> {
        match self {
            Model::Hockney { alpha_us, beta_us_per_byte } => vec![
                ("alpha_us", *alpha_us),
                ("beta_us_per_byte", *beta_us_per_byte),
                ("bandwidth_mb_s", bandwidth_mb_s(*beta_us_per_byte)),
            ],
            Model::LogP { l_2o_us, gap_us, w_bytes } => {
                vec![("l_plus_2o_us", *l_2o_us), ("gap_us", *gap_us), ("w_bytes", *w_bytes)]
            }
            Model::LogGP { l_2o_us, g_us_per_byte } => vec![
                ("l_plus_2o_us", *l_2o_us),
                ("big_g_us_per_byte", *g_us_per_byte),
                ("bandwidth_mb_s", bandwidth_mb_s(*g_us_per_byte)),
            ],
            Model::PLogP { sizes_bytes, .. } => vec![
                ("t_smallest_us", self.time_us(0.0)),
                ("bandwidth_mb_s", bandwidth_mb_s(self.asymptotic_us_per_byte())),
                ("knots", sizes_bytes.len() as f64),
            ],
        }
    }

    /// Time per extra byte for long messages, µs/B (≥ 0).
    pub fn asymptotic_us_per_byte(&self) -> f64 {
        match self {
            Model::Hockney { beta_us_per_byte, .. } => *beta_us_per_byte,
            Model::LogP { gap_us, w_bytes, .. } => gap_us / w_bytes,
            Model::LogGP { g_us_per_byte, .. } => *g_us_per_byte,
            Model::PLogP { sizes_bytes, times_us } => last_slope(sizes_bytes, times_us),
        }
    }
}

/// MB/s (MB = 2^20 bytes, as in the catalog) from µs per byte; 0 when the slope is 0.
pub fn bandwidth_mb_s(us_per_byte: f64) -> f64 {
    if us_per_byte > 0.0 {
        (1e6 / us_per_byte / 1_048_576.0).min(1e12)
    } else {
        0.0
    }
}

fn last_slope(xs: &[f64], ys: &[f64]) -> f64 {
    match (xs, ys) {
        ([.., x0, x1], [.., y0, y1]) if x1 > x0 => ((y1 - y0) / (x1 - x0)).max(0.0),
        _ => 0.0,
    }
}

/// Piecewise linear through (xs, ys) (xs increasing); flat below, last slope above.
fn interpolate(xs: &[f64], ys: &[f64], x: f64) -> f64 {
    let (Some(&x0), Some(&y0)) = (xs.first(), ys.first()) else { return 0.0 };
    if x <= x0 {
        return y0;
    }
    let i = xs.partition_point(|&v| v < x);
    match (xs.get(i), ys.get(i)) {
        (Some(&xb), Some(&yb)) if i > 0 => {
            let (xa, ya) = (xs[i - 1], ys[i - 1]); // ok: i > 0 and i < len
            if xb > xa {
                ya + (yb - ya) * (x - xa) / (xb - xa)
            } else {
                yb
            }
        }
        _ => {
            let (xl, yl) = (xs[xs.len() - 1], ys[ys.len().min(xs.len()) - 1]); // ok: xs, ys not empty
            yl + last_slope(xs, ys) * (x - xl)
        }
    }
}

/// Weighted least squares line y = a + b·x; None when x does not vary.
pub fn line_fit(pts: &[(f64, f64, f64)]) -> Option<(f64, f64)> {
    line::fit(pts).map(|l| (l.intercept, l.slope))
}

/// A line with a slope of at least 0 (a time does not fall as messages grow).
fn rising_line(pts: &[(f64, f64, f64)]) -> Option<(f64, f64)> {
    let (a, b) = line_fit(pts)?;
    if b >= 0.0 {
        Some((a, b))
    } else {
        let sw: f64 = pts.iter().map(|p| p.2).sum();
        Some((pts.iter().map(|p| p.1 * p.2).sum::<f64>() / sw, 0.0))
    }
}

/// The eager → rendezvous switch: where the sizes split into two straight segments.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Knee {
    /// Largest size on the eager side, bytes.
    #[serde(serialize_with = "crate::model::finite::whole")]
    pub last_eager_bytes: f64,
    /// Smallest size on the rendezvous side, bytes: the knee reported.
    #[serde(serialize_with = "crate::model::finite::whole")]
    pub size_bytes: f64,
    /// Time the rendezvous segment adds at the knee over the eager one, µs: above the
    /// segments' scatter there, so always > 0.
    pub jump_us: f64,
    /// Squared relative residual of the two segments over that of one line.
    pub residual_ratio: f64,
}

fn weighted_sse(pts: &[(f64, f64)]) -> Option<(f64, (f64, f64))> {
    let w: Vec<(f64, f64, f64)> = pts.iter().map(|&(m, t)| (m, t, 1.0 / (t * t))).collect();
    let (a, b) = line_fit(&w)?;
    Some((w.iter().map(|&(m, t, wt)| wt * (a + b * m - t).powi(2)).sum(), (a, b)))
}

/// Finds the knee in distinct, sorted (size, time) points (see the module docs).
pub fn find_knee(pts: &[(f64, f64)]) -> Option<Knee> {
    let n = pts.len();
    if n < 4 {
        return None;
    }
    let (one, _) = weighted_sse(pts)?;
    if (one / n as f64).sqrt() <= 0.02 {
        return None;
    }
    // (residual, split index, left line, right line)
    type Split = (f64, usize, (f64, f64), (f64, f64));
    let mut best: Option<Split> = None;
    for k in 2..=n - 2 {
        let (Some((l, lf)), Some((r, rf))) = (weighted_sse(&pts[..k]), weighted_sse(&pts[k..])) else { continue };
        if best.is_none_or(|b| l + r < b.0) {
            best = Some((l + r, k, lf, rf));
        }
    }
    let (two, k, (la, lb), (ra, rb)) = best?;
    let ratio = two / one;
    let (m_last, m_first) = (pts[k - 1].0, pts[k].0); // ok: 2 ≤ k ≤ n − 2
    let jump_us = (ra + rb * m_first) - (la + lb * m_first);
    // A protocol switch makes a message slower at the knee: a jump down, or one within the
    // two segments' own scatter there (twice their relative RMS residual), is no knee.
    let noise_us = 2.0 * (two / n as f64).sqrt() * pts[k].1;
    (ratio <= 0.25 && jump_us > noise_us).then_some(Knee {
        last_eager_bytes: m_last,
        size_bytes: m_first,
        jump_us,
        residual_ratio: ratio,
    })
}

/// Why a model could not be fitted to the points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoFit {
    /// Fewer different message sizes than the model has parameters.
    TooFewSizes { kind: ModelKind, given: usize },
    /// Every point has the same size.
    SizesDoNotVary,
    /// Fewer than two different sizes at or below the knee (LogP's eager line).
    FewBelowKnee,
    /// No size above the smallest (LogGP's long-message slope).
    NoneLarger,
    /// The fitted parameters are not all finite.
    NotFinite,
}

impl std::fmt::Display for NoFit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoFit::TooFewSizes { kind, given } => {
                write!(f, "{} needs at least {} different message sizes; {given} given", kind.name(), kind.min_sizes())
            }
            NoFit::SizesDoNotVary => f.write_str("the sizes do not vary"),
            NoFit::FewBelowKnee => f.write_str("fewer than two different sizes below the knee"),
            NoFit::NoneLarger => f.write_str("no size larger than the smallest"),
            NoFit::NotFinite => f.write_str("the fit does not give finite parameters"),
        }
    }
}

/// Fits one model to distinct, sorted points; Err says why it cannot.
pub fn fit_model(kind: ModelKind, pts: &[(f64, f64)], knee: Option<&Knee>) -> Result<Model, NoFit> {
    if pts.len() < kind.min_sizes() {
        return Err(NoFit::TooFewSizes { kind, given: pts.len() });
    }
    let unweighted = |p: &[(f64, f64)]| p.iter().map(|&(m, t)| (m, t, 1.0)).collect::<Vec<_>>();
    let model = match kind {
        ModelKind::Hockney => {
            let (a, b) = rising_line(&unweighted(pts)).ok_or(NoFit::SizesDoNotVary)?;
            Model::Hockney { alpha_us: a, beta_us_per_byte: b }
        }
        ModelKind::LogP => {
            let w = pts.iter().map(|p| p.0).find(|&m| m > 0.0).unwrap_or(1.0);
            let eager: Vec<(f64, f64, f64)> = pts
                .iter()
                .filter(|p| knee.is_none_or(|k| p.0 <= k.last_eager_bytes))
                .map(|&(m, t)| (((m / w).ceil() - 1.0).max(0.0), t, 1.0))
                .collect();
            let (a, b) = rising_line(&eager).ok_or(NoFit::FewBelowKnee)?;
            Model::LogP { l_2o_us: a, gap_us: b, w_bytes: w }
        }
        ModelKind::LogGP => {
            let (m0, t0) = pts[0]; // ok: at least two points
            let long: Vec<&(f64, f64)> = pts[1..].iter().filter(|p| knee.is_none_or(|k| p.0 >= k.size_bytes)).collect();
            let long: Vec<(f64, f64, f64)> = long.iter().map(|&&(m, t)| (m, t, 1.0)).collect();
            let g = line::slope_through(m0, t0, &long).ok_or(NoFit::NoneLarger)?.max(0.0);
            Model::LogGP { l_2o_us: t0 - (m0.max(1.0) - 1.0) * g, g_us_per_byte: g }
        }
        ModelKind::PLogP => {
            Model::PLogP { sizes_bytes: pts.iter().map(|p| p.0).collect(), times_us: pts.iter().map(|p| p.1).collect() }
        }
    };
    let finite = model.params().iter().all(|p| p.1.is_finite());
    finite.then_some(model).ok_or(NoFit::NotFinite)
}

/// One model's fit and its errors.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelFit {
    pub model: Model,
    /// |predicted − measured| / measured at each distinct size, in size order.
    pub rel_errors: Vec<f64>,
    pub mean_rel_error: f64,
    /// Mean relative error predicting each size from the others; None below min_sizes + 1.
    pub loo_rel_error: Option<f64>,
}

/// Everything fitted to one set of measurements.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommFit {
    /// Distinct sizes (sorted) with their mean times.
    pub sizes_bytes: Vec<f64>,
    pub times_us: Vec<f64>,
    pub knee: Option<Knee>,
    pub models: Vec<ModelFit>,
    /// Models that could not be fitted, with the reason.
    pub skipped: Vec<(ModelKind, String)>,
    pub best: Option<ModelKind>,
    /// Why `best` was chosen, in a sentence.
    pub best_reason: String,
}

impl CommFit {
    pub fn model(&self, kind: ModelKind) -> Option<&Model> {
        self.models.iter().find(|f| f.model.kind() == kind).map(|f| &f.model)
    }
    pub fn best_model(&self) -> Option<&Model> {
        self.best.and_then(|k| self.model(k))
    }
}

fn rel(pred: f64, meas: f64) -> f64 {
    ((pred - meas) / meas).abs()
}

/// Fits every model to the measurements (at least one).
pub fn fit_all(points: &[Point]) -> Result<CommFit, InputError> {
    let pts = distinct(points);
    if pts.is_empty() {
        return Err(InputError::new(P2P_FIELD, "no measurements yet: paste a (size, time) table or OSU/IMB output"));
    }
    let knee = find_knee(&pts);
    let mut models = Vec::new();
    let mut skipped = Vec::new();
    for kind in MODEL_KINDS {
        match fit_model(kind, &pts, knee.as_ref()) {
            Ok(model) => {
                let rel_errors: Vec<f64> = pts.iter().map(|&(m, t)| rel(model.time_us(m), t)).collect();
                let mean_rel_error = rel_errors.iter().sum::<f64>() / rel_errors.len() as f64;
                models.push(ModelFit {
                    loo_rel_error: leave_one_out(kind, &pts, knee.as_ref()),
                    model,
                    rel_errors,
                    mean_rel_error,
                });
            }
            Err(reason) => skipped.push((kind, reason.to_string())),
        }
    }
    let (best, best_reason) = choose_best(&models);
    Ok(CommFit {
        sizes_bytes: pts.iter().map(|p| p.0).collect(),
        times_us: pts.iter().map(|p| p.1).collect(),
        knee,
        models,
        skipped,
        best,
        best_reason,
    })
}

/// Most sizes [`leave_one_out`] leaves out in turn: every size up to this many (a benchmark's
/// output has 20 to 30), else this many spread evenly from the smallest to the largest, so
/// that its cost grows as the points, not as their square (4,096 sizes took 0.42 s, most of it
/// here).
pub const MAX_LOO_SIZES: usize = 64;

/// The indices of the sizes [`leave_one_out`] leaves out of `n`.
fn loo_indices(n: usize) -> Vec<usize> {
    if n <= MAX_LOO_SIZES {
        return (0..n).collect();
    }
    let mut v: Vec<usize> =
        (0..MAX_LOO_SIZES).map(|j| (j * (n - 1) + (MAX_LOO_SIZES - 1) / 2) / (MAX_LOO_SIZES - 1)).collect();
    v.dedup();
    v
}

fn leave_one_out(kind: ModelKind, pts: &[(f64, f64)], knee: Option<&Knee>) -> Option<f64> {
    let n = pts.len();
    if n <= kind.min_sizes() {
        return None;
    }
    let left_out = loo_indices(n);
    let mut sum = 0.0;
    let mut rest = Vec::with_capacity(n - 1);
    for &i in &left_out {
        let (m, t) = pts[i];
        rest.clear();
        rest.extend(pts.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, p)| *p));
        sum += rel(fit_model(kind, &rest, knee).ok()?.time_us(m), t);
    }
    let e = sum / left_out.len() as f64;
    e.is_finite().then_some(e)
}

fn choose_best(models: &[ModelFit]) -> (Option<ModelKind>, String) {
    let pct = |e: f64| format!("{} %", crate::model::fmt_num(100.0 * e, 3));
    let with_loo: Vec<(ModelKind, f64)> =
        models.iter().filter_map(|f| f.loo_rel_error.map(|e| (f.model.kind(), e))).collect();
    if let Some(&(k, e)) = with_loo.iter().min_by(|a, b| a.1.total_cmp(&b.1)) {
        let others: Vec<String> =
            with_loo.iter().filter(|o| o.0 != k).map(|(ok, oe)| format!("{} {}", ok.name(), pct(*oe))).collect();
        let mut reason = format!(
            "{} predicts each measured size from the others within {} on average (leave-one-out)",
            k.name(),
            pct(e)
        );
        if !others.is_empty() {
            reason.push_str(&format!(", against {}", others.join(", ")));
        }
        return (Some(k), reason);
    }
    match models.iter().min_by(|a, b| a.mean_rel_error.total_cmp(&b.mean_rel_error)) {
        Some(f) => (
            Some(f.model.kind()),
            format!(
                "{} misses the measurements by {} on average; too few sizes to test predictions on left-out sizes",
                f.model.kind().name(),
                pct(f.mean_rel_error)
            ),
        ),
        None => (None, "no model could be fitted".into()),
    }
}

/// A catalog fabric from a fitted model: latency = the model's time for an empty message,
/// bandwidth = its long-message rate (0 slope gives the catalog's floor of 0.001 MB/s).
#[allow(clippy::needless_update)] // natively a fabric has its `sources` too
pub fn to_fabric(model: &Model, name: &str) -> crate::model::catalog::Fabric {
    crate::model::catalog::Fabric {
        name: name.to_string(),
        latency_us: model.time_us(0.0),
        bandwidth_mb_s: bandwidth_mb_s(model.asymptotic_us_per_byte()).max(0.001),
        source: format!("fitted {} model (communication page)", model.kind().name()),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(v: &[(f64, f64)]) -> Vec<Point> {
        v.iter().map(|&(m, t)| Point { size_bytes: m, time_us: t, line: None }).collect()
    }

    #[test]
    fn hockney_matches_independent_least_squares() {
        // Normal equations solved by Cramer's rule, independent of line_fit's centred form.
        let data = [(1.0, 10.2), (1024.0, 19.1), (4096.0, 45.0), (65536.0, 560.0), (262144.0, 2250.0)];
        let (n, sx, sy) = (5.0, data.iter().map(|p| p.0).sum::<f64>(), data.iter().map(|p| p.1).sum::<f64>());
        let sxx: f64 = data.iter().map(|p| p.0 * p.0).sum();
        let sxy: f64 = data.iter().map(|p| p.0 * p.1).sum();
        let det = n * sxx - sx * sx;
        let (a, b) = ((sy * sxx - sx * sxy) / det, (n * sxy - sx * sy) / det);
        let fit = fit_all(&pts(&data)).expect("fits");
        match fit.model(ModelKind::Hockney) {
            Some(Model::Hockney { alpha_us, beta_us_per_byte }) => {
                assert!((alpha_us - a).abs() < 1e-9 * a.abs().max(1.0), "{alpha_us} vs {a}");
                assert!((beta_us_per_byte - b).abs() < 1e-12, "{beta_us_per_byte} vs {b}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn exact_models_are_recovered() {
        // T = 20 + 0.01 m exactly: every linear model recovers it, pLogP interpolates it.
        let data: Vec<(f64, f64)> =
            [1.0, 8.0, 64.0, 512.0, 4096.0, 32768.0].iter().map(|&m| (m, 20.0 + 0.01 * m)).collect();
        let fit = fit_all(&pts(&data)).expect("fits");
        assert_eq!(fit.knee, None);
        for f in &fit.models {
            assert!(f.mean_rel_error < 1e-9, "{:?}", f);
            assert!((f.model.time_us(100_000.0) - 1020.0).abs() < 1e-6, "{:?}", f.model);
        }
        match fit.model(ModelKind::LogGP) {
            Some(Model::LogGP { l_2o_us, g_us_per_byte }) => {
                assert!((l_2o_us - 20.01).abs() < 1e-9 && (g_us_per_byte - 0.01).abs() < 1e-12)
            }
            other => panic!("{other:?}"),
        }
        // LogP: w = 1 B (the smallest size), gap = 0.01 µs per byte-sized message.
        match fit.model(ModelKind::LogP) {
            Some(Model::LogP { l_2o_us, gap_us, w_bytes }) => {
                assert_eq!(*w_bytes, 1.0);
                assert!((l_2o_us - 20.01).abs() < 1e-9 && (gap_us - 0.01).abs() < 1e-12)
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn knee_found_and_models_rank() {
        // Eager: 50 + m/100; from 65536 B rendezvous adds a 100 µs handshake.
        let data: Vec<(f64, f64)> = (0..=22)
            .map(|j| {
                let m = f64::from(1u32 << j);
                (m, 50.0 + m / 100.0 + if m >= 65536.0 { 100.0 } else { 0.0 })
            })
            .collect();
        let fit = fit_all(&pts(&data)).expect("fits");
        let knee = fit.knee.expect("a knee");
        assert_eq!((knee.last_eager_bytes, knee.size_bytes), (32768.0, 65536.0));
        assert!((knee.jump_us - 100.0).abs() < 1e-6, "{knee:?}");
        // LogP fitted on the eager sizes is exact there; LogGP's slope comes from the long ones.
        let logp = fit.model(ModelKind::LogP).expect("logp");
        assert!((logp.time_us(4096.0) - (50.0 + 40.96)).abs() < 1e-6);
        let loggp = fit.model(ModelKind::LogGP).expect("loggp");
        assert!((loggp.asymptotic_us_per_byte() - 0.01).abs() < 2e-4);
        assert!(fit.best.is_some() && fit.best_reason.contains("leave-one-out"), "{}", fit.best_reason);
    }

    #[test]
    fn leave_one_out_leaves_out_every_size_or_an_even_spread_of_them() {
        assert_eq!(loo_indices(5), [0, 1, 2, 3, 4]);
        assert_eq!(loo_indices(MAX_LOO_SIZES), (0..MAX_LOO_SIZES).collect::<Vec<_>>());
        for n in [65, 100, 4096] {
            let v = loo_indices(n);
            assert_eq!((v.len(), v[0], v[v.len() - 1]), (MAX_LOO_SIZES, 0, n - 1), "{n}");
            assert!(v.windows(2).all(|w| w[0] < w[1]));
            // Evenly: no gap more than one above the mean.
            assert!(v.windows(2).all(|w| w[1] - w[0] <= (n - 1) / (MAX_LOO_SIZES - 1) + 1), "{n}");
        }
    }

    #[test]
    fn a_jump_down_or_within_the_scatter_is_no_knee() {
        // Two segments that fit far better than one, but the long messages are faster at
        // the split than the short line says (a jump down): no protocol switch (issue 33's
        // IMB case that reported a knee "jumping by −2.898 µs").
        let down: Vec<(f64, f64)> = (0..=22)
            .map(|j| {
                let m = f64::from(1u32 << j);
                (m, if m >= 65536.0 { 2.0 + m / 1400.0 } else { 6.0 + m / 1000.0 })
            })
            .collect();
        assert_eq!(find_knee(&down), None);
        // The same with the long segment 100 µs higher: a knee.
        let up: Vec<(f64, f64)> = down.iter().map(|&(m, t)| (m, if m >= 65536.0 { t + 100.0 } else { t })).collect();
        assert!(find_knee(&up).is_some_and(|k| k.jump_us > 0.0 && k.size_bytes == 65536.0));
    }

    #[test]
    fn too_few_sizes_skip_models_with_a_reason() {
        let fit = fit_all(&pts(&[(8.0, 10.0), (8.0, 12.0), (1024.0, 30.0)])).expect("fits");
        assert_eq!(fit.sizes_bytes, vec![8.0, 1024.0]);
        assert_eq!(fit.times_us, vec![11.0, 30.0]);
        assert_eq!(fit.skipped.len(), 1);
        assert_eq!(fit.skipped[0].0, ModelKind::PLogP);
        assert!(fit.skipped[0].1.contains("at least 3"), "{}", fit.skipped[0].1);
        let one = fit_all(&pts(&[(8.0, 10.0)])).expect("one size still answers");
        assert!(one.models.is_empty() && one.best.is_none() && one.skipped.len() == 4);
        assert!(fit_all(&[]).is_err());
    }

    #[test]
    fn plogp_interpolates_and_extrapolates() {
        let m = Model::PLogP { sizes_bytes: vec![10.0, 20.0, 40.0], times_us: vec![5.0, 7.0, 11.0] };
        for (x, want) in [(0.0, 5.0), (10.0, 5.0), (15.0, 6.0), (30.0, 9.0), (40.0, 11.0), (60.0, 15.0)] {
            assert!((m.time_us(x) - want).abs() < 1e-12, "T({x}) = {}", m.time_us(x));
        }
    }

    const OSU: &str = "# OSU MPI Latency Test v5.9\n# Size          Latency (us)\n0                       1.52\n1                       1.55\n2                       1.56\n4                       1.58\n";

    #[test]
    fn osu_and_imb_are_recognised() {
        let p = parse_p2p(OSU, None);
        assert_eq!(p.format, Format::OsuLatency);
        assert_eq!(p.error, None);
        assert_eq!(p.points.len(), 4);
        assert_eq!((p.points[3].size_bytes, p.points[3].time_us, p.points[3].line), (4.0, 1.58, Some(6)));

        let bw = "# OSU MPI Bandwidth Test v5.9\n# Size      Bandwidth (MB/s)\n1                       2.00\n1024                 1024.00\n";
        let p = parse_p2p(bw, None);
        assert_eq!(p.format, Format::OsuBandwidth);
        assert_eq!(p.points.iter().map(|q| q.time_us).collect::<Vec<_>>(), vec![0.5, 1.0]);

        // A format named for the other benchmark does not apply: an error at its header.
        let p = parse_p2p(OSU, Some(Format::OsuBandwidth));
        let e = p.error.expect("latency output read as osu_bw");
        assert_eq!(e.line, Some(1));
        assert!(e.message.contains("not osu_bw; read it with the osu format"), "{e}");
        let e = parse_p2p(bw, Some(Format::OsuLatency)).error.expect("bandwidth output read as osu");
        assert!(e.message.contains("read it with the osu_bw format"), "{e}");

        let imb = "#---\n# Benchmarking PingPong \n# #processes = 2 \n#---\n       #bytes #repetitions      t[usec]   Mbytes/sec\n            0         1000         0.23         0.00\n            1         1000         0.24         4.17\n\n#---\n# Benchmarking PingPing\n#---\n       #bytes #repetitions      t[usec]   Mbytes/sec\n            0         1000         9.99         0.00\n";
        let p = parse_p2p(imb, None);
        assert_eq!(p.format, Format::ImbPingPong);
        assert_eq!(p.error, None);
        assert_eq!(p.points.iter().map(|q| q.time_us).collect::<Vec<_>>(), vec![0.23, 0.24]);
    }

    #[test]
    fn a_bad_line_is_an_error_there_and_nothing_is_read() {
        let cut = format!("{OSU}8     ");
        let p = parse_p2p(&cut, None);
        let e = p.error.expect("an error");
        assert_eq!(e.line, Some(7));
        assert!(e.message.contains("cut off"), "{e}");
        assert!(p.points.is_empty(), "the rows above are not fitted as if they were the whole");

        let imb = "# Benchmarking PingPong\n       #bytes #repetitions      t[usec]   Mbytes/sec\n            0         1000         0.23         0.00\n            1         1000";
        let p = parse_p2p(imb, None);
        assert_eq!(p.error.as_ref().and_then(|e| e.line), Some(4));
        assert!(p.points.is_empty());

        let table = "size (KB), time (ms)\n1, 0.05\n2, 0.06\n4, oops\n8, 0.1";
        let p = parse_p2p(table, None);
        assert_eq!(p.format, Format::Table);
        // The character column where "oops" starts, as every page counts columns.
        assert_eq!(p.error.as_ref().map(|e| (e.line, e.column)), Some((Some(4), Some(4))));
        assert!(p.points.is_empty());

        // One typo in the middle of an osu_latency output: the 8 good rows below it are not
        // dropped in silence (issue 33); the whole text is an error at that line and column.
        let typo = OSU.replace("2                       1.56", "2                       1.5g");
        let p = parse_p2p(&typo, None);
        let e = p.error.expect("an error");
        // Column 25: "2" and 23 blanks come before "1.5g" (issue 45, item 21: characters, as
        // every page counts columns, not the second field).
        assert_eq!((e.line.is_some(), e.column), (true, Some(25)), "{e}");
        assert!(p.points.is_empty());

        let neg = parse_p2p("8 1.0\n16 -2", Some(Format::Table));
        assert_eq!(neg.error.map(|e| (e.line, e.column)), Some((Some(2), Some(4))));
    }

    #[test]
    fn fabric_from_a_fit() {
        let f = to_fabric(&Model::Hockney { alpha_us: 48.0, beta_us_per_byte: 1.0 / 119.0 }, "GigE (fitted)");
        assert_eq!(f.latency_us, 48.0);
        assert!((f.bandwidth_mb_s - 119e6 / 1_048_576.0).abs() < 1e-6);
        let mut cat = crate::model::catalog::presets();
        cat.clusters[0].fabrics.push(f);
        assert_eq!(cat.validate(), Ok(()));
    }

    proptest::proptest! {
        /// Any measurements in range give finite parameters and errors for every fitted model.
        #[test]
        fn fits_are_finite(data in proptest::collection::vec((0u32..1 << 30, 1e-3f64..1e9), 0..12)) {
            let p: Vec<Point> = data.iter().map(|&(m, t)| Point { size_bytes: f64::from(m), time_us: t, line: None }).collect();
            if let Ok(fit) = fit_all(&p) {
                for f in &fit.models {
                    proptest::prop_assert!(f.model.params().iter().all(|x| x.1.is_finite()));
                    proptest::prop_assert!(f.mean_rel_error.is_finite() && f.loo_rel_error.is_none_or(f64::is_finite));
                    for m in [0.0, 1.0, 1e6, MAX_SIZE_BYTES] {
                        let t = f.model.time_us(m);
                        proptest::prop_assert!(t.is_finite() && t >= 0.0);
                    }
                }
            }
        }
    }

    #[test]
    fn times_below_a_picosecond_are_refused_with_their_position() {
        // A time of 1e-320 µs once gave an infinite relative error.
        let parsed = parse_p2p("size time\n1 1e-320\n100 2\n1000 5", None);
        let e = parsed.error.expect("an error");
        assert_eq!((e.line, e.column), (Some(2), Some(3)), "{e}");
        assert!(e.message.contains("from 1e-6 µs"), "{e}");
        assert!(time_in_range(MIN_TIME_US) && time_in_range(MAX_TIME_US) && !time_in_range(0.0));
    }
}

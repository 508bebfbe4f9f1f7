//! Everything the communication page shows, computed from the texts of its inputs
//! ([`evaluate`]); the page only renders the [`PageView`].
//!
//! Inputs (field names, also the keys of share links and workspace files), with defaults:
//! - `p2p`: point-to-point measurements: a (size, time) table with units in the header, or
//!   raw OSU latency/bandwidth or IMB PingPong output (default: a constructed OSU sample).
//! - `p2p_format`: `auto` (recognised from the headers), `table`, `osu`, `osu_bw`, `imb`.
//! - `latency_share`: share of a small message's time that is wire latency L, 0 to 1 (0.5);
//!   the rest is the sender's gap g (see `collectives`).
//! - `procs` (20) and `sizes` ("8KB 512KB"): broadcast predictions, P and message sizes.
//! - `measured`: measured broadcasts, a table (size, procs, algorithm, time), e.g.
//!   `size (KB)  procs  algorithm  time (ms)` / `8  20  binomial  0.61` (default empty).
//! - `matrix`: a latency matrix in µs, one row per node (default: Grid'5000, Table 2).
//! - `symmetrise`: `yes` to replace each pair by its mean when the matrix is not symmetric.
//! - `rho` (0.2), `root` (node index, 0), `grid_size` ("512KB"), `bandwidth_mb_s` (119,
//!   MB = 2^20 B: the catalog's nominal 1 Gbit/s): the grid broadcast.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::workspace::catalog::{Catalog, Fabric};
use crate::model::comm::collectives::{
    all_algorithms, poly_adapt1, poly_adapt2, AdaptRow, Algorithm, Broadcast, MeasuredBroadcast, ModelChoice, Split,
    ALGORITHMS, DEFAULT_LATENCY_SHARE, MAX_PROCS,
};
use crate::model::comm::{self, fit_all, CommFit, Format, Model, ModelKind, MAX_SIZE_BYTES};
use crate::model::comm::gridcast::{self, binomial_all, clusters, ecef, ClusterProcs, Coordinators, LatencyMatrix, Schedule};
use crate::model::input::list::{self, ListSpec};
use crate::model::input::table::{parse_number, parse_table, ColumnSpec, Quantity, BYTES, MICROSECONDS, PLAIN};
use crate::model::workspace::PageInputs;
use crate::model::InputError;

pub const PAGE: &str = "comm";
pub const MEASURED_FIELD: &str = "measured broadcasts";
/// Most sizes a size list may hold.
pub const MAX_SIZES: usize = 64;
/// Most logical clusters the grid broadcast schedules (ECEF is cubic in them).
pub const MAX_COORDINATORS: usize = 256;

pub const MEASURED_COLUMNS: &[ColumnSpec] = &[
    ColumnSpec::new("size", Quantity::Size, BYTES).aliases(&["bytes", "m", "msg_size", "message_size"]),
    ColumnSpec::new("procs", Quantity::Plain, PLAIN).aliases(&["p", "np", "processes"]).integer(),
    ColumnSpec::new("algorithm", Quantity::Plain, PLAIN).aliases(&["alg", "algo"]).integer(),
    ColumnSpec::new("time", Quantity::Time, MICROSECONDS).aliases(&["t", "latency"]),
];

/// A line or point series of a chart: (x, y) with x, y > 0 for log–log axes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// Broadcasts predicted by one model at one size (for `procs` processes).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BroadcastRow {
    pub size_bytes: f64,
    pub model: ModelKind,
    /// In the order of `ALGORITHMS`: linear, binomial, binary, pipeline.
    pub times: [Broadcast; 4],
    pub best: Algorithm,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClustersView {
    /// Node indices (0-based) of each group, groups ordered by their smallest index.
    pub groups: Vec<Vec<usize>>,
    /// Nodes in heat-map order (the groups one after another); outline groups by their sizes.
    pub order: Vec<usize>,
    /// The matrix clustered (symmetrised when asked), row-major, n × n, original node order.
    pub n: usize,
    pub latency_us: Vec<f64>,
    /// Mean latency inside each group (0 for one node), µs.
    pub group_latency_us: Vec<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GridView {
    pub size_bytes: f64,
    /// Coordinator (node index) of each group: its smallest index.
    pub coordinators: Vec<usize>,
    /// Group of the root node.
    pub root_group: usize,
    /// Best local algorithm and its time per group, µs (Hockney from the group's mean
    /// latency and the bandwidth, split by `latency_share`).
    pub local: Vec<(Algorithm, f64)>,
    pub ecef: Schedule,
    pub ecef_lat: Schedule,
    /// Grid-unaware binomial tree over every node, µs.
    pub binomial_us: Option<f64>,
    /// The better of ECEF and ECEF-LAt, µs.
    pub hierarchical_us: f64,
    /// binomial_us / hierarchical_us.
    pub speedup: Option<f64>,
}

/// Everything on the page.
#[derive(Debug, Clone, PartialEq)]
pub struct PageView {
    /// Errors of single-value fields (`procs`, `sizes`, `rho`, …), keyed by field name.
    pub field_errors: BTreeMap<String, String>,
    /// What the `p2p` text was read as.
    pub format: Format,
    /// A problem in the `p2p` text (with its line); the rows above it are still used.
    pub p2p_error: Option<InputError>,
    /// Fits of the four models, knee, best model and why; None without measurements.
    pub fit: Option<CommFit>,
    /// Log–log chart: "measured", then one curve per fitted model (sizes > 0 only).
    pub chart: Vec<Series>,
    /// Predicted broadcasts: every size × every fitted model, at `procs`.
    pub broadcast: Vec<BroadcastRow>,
    /// Completion time against size per algorithm, for the best model (log–log).
    pub broadcast_chart: Vec<Series>,
    pub measured: Vec<MeasuredBroadcast>,
    pub measured_error: Option<InputError>,
    /// Poly-adapt-1: per algorithm, the model closest to the measured broadcasts.
    pub adapt1: Vec<ModelChoice>,
    /// Poly-adapt-2 (the Table 4 of the user's platform): per (size, procs), the fastest.
    pub adapt2: Vec<AdaptRow>,
    pub matrix_error: Option<InputError>,
    /// The matrix is square and complete but not symmetric: offer `symmetrise`.
    pub asymmetric: bool,
    pub clusters: Option<ClustersView>,
    pub grid: Option<GridView>,
    pub warnings: Vec<String>,
}

fn get<'a>(inputs: &'a PageInputs, key: &str) -> &'a str {
    inputs.get(key).map(String::as_str).unwrap_or("")
}

/// A number in a range; a blank field takes `default`.
fn number_in(inputs: &PageInputs, key: &str, what: &str, range: (f64, f64), default: f64, errors: &mut BTreeMap<String, String>) -> Option<f64> {
    let text = get(inputs, key).trim();
    if text.is_empty() {
        return Some(default);
    }
    match parse_number(text) {
        Some(v) if v >= range.0 && v <= range.1 => Some(v),
        _ => {
            errors.insert(
                key.into(),
                format!(
                    "{what}: expected a number from {} to {}, found \"{}\"",
                    crate::model::fmt_num(range.0, 6),
                    crate::model::fmt_num(range.1, 6),
                    text.chars().take(20).collect::<String>()
                ),
            );
            None
        }
    }
}


/// A list of message sizes: "8KB 512KB", "8 kB, 1 MB", "65536" (KB = 1024 bytes).
pub fn parse_sizes(text: &str) -> Result<Vec<f64>, String> {
    let spec = ListSpec { max_items: MAX_SIZES, required: false };
    list::sizes("sizes", text, spec, MAX_SIZE_BYTES).map_err(|e| e.local_text())
}

/// Replaces algorithm names by their column codes so the table parser can read them.
fn encode_algorithms(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match Algorithm::from_key(word) {
            Some(a) if !word.is_empty() => {
                let code = ALGORITHMS.iter().position(|x| *x == a).unwrap_or(0) + 1;
                out.push_str(&code.to_string());
            }
            _ => out.push_str(word),
        }
        word.clear();
    };
    for ch in text.chars() {
        if ch.is_ascii_alphabetic() || ch == '_' {
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
    let fix = |mut e: InputError| {
        if e.message.contains("for algorithm") {
            e.message = format!(
                "unknown algorithm{}; expected linear, binomial, binary or pipeline",
                e.message.split("found").nth(1).map(|f| format!(" {}", f.trim())).unwrap_or_default()
            );
        }
        e
    };
    let encoded = encode_algorithms(text);
    let (rows, mut error) = match parse_table(MEASURED_FIELD, &encoded, MEASURED_COLUMNS) {
        Ok(t) => (t.rows, None),
        Err(e) => {
            let head: Vec<&str> = encoded.lines().take(e.line.unwrap_or(1).saturating_sub(1)).collect();
            (parse_table(MEASURED_FIELD, &head.join("\n"), MEASURED_COLUMNS).map(|t| t.rows).unwrap_or_default(), Some(fix(e)))
        }
    };
    let mut out = Vec::new();
    for r in rows {
        let [Some(m), Some(p), Some(a), Some(t)] = r.values[..] else { continue };
        let bad = |col: usize, msg: &str| Some(InputError::new(MEASURED_FIELD, msg).at(r.line, Some(col)));
        let algorithm = ALGORITHMS.get((a as usize).wrapping_sub(1)).copied();
        let problem = if !(0.0..=MAX_SIZE_BYTES).contains(&m) {
            bad(1, "a size is from 0 to 1 TB")
        } else if !(1.0..=f64::from(MAX_PROCS)).contains(&p) {
            bad(2, "procs is a whole number from 1 to 16777216")
        } else if algorithm.is_none() {
            bad(3, "unknown algorithm; expected linear, binomial, binary or pipeline")
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

fn log_sizes(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let (a, b) = (lo.max(1.0).log2(), hi.max(lo.max(1.0)).log2());
    (0..n).map(|i| (a + (b - a) * i as f64 / (n - 1).max(1) as f64).exp2()).collect()
}

/// Computes the page.
pub fn evaluate(inputs: &PageInputs, _catalog: &Catalog) -> PageView {
    let mut errors = BTreeMap::new();
    let mut warnings = Vec::new();

    // Point-to-point measurements and fits.
    let format = match get(inputs, "p2p_format").trim() {
        "table" => Some(Format::Table),
        "osu" => Some(Format::OsuLatency),
        "osu_bw" => Some(Format::OsuBandwidth),
        "imb" => Some(Format::ImbPingPong),
        _ => None,
    };
    let parsed = comm::parse_p2p(get(inputs, "p2p"), format);
    let fit = if parsed.points.is_empty() { None } else { fit_all(&parsed.points).ok() };
    if let Some(f) = &fit {
        if let Some(k) = &f.knee {
            warnings.push(format!(
                "Protocol knee between {} and {} bytes: LogP is fitted below it, LogGP's G above it.",
                crate::model::fmt_num(k.last_eager_bytes, 8),
                crate::model::fmt_num(k.size_bytes, 8)
            ));
        }
    }
    let share = number_in(inputs, "latency_share", "latency share", (0.0, 1.0), DEFAULT_LATENCY_SHARE, &mut errors)
        .unwrap_or(DEFAULT_LATENCY_SHARE);

    let mut chart = Vec::new();
    if let Some(f) = &fit {
        let measured: Vec<(f64, f64)> =
            f.sizes_bytes.iter().zip(&f.times_us).filter(|p| *p.0 > 0.0).map(|(m, t)| (*m, *t)).collect();
        let (lo, hi) = (measured.first().map_or(1.0, |p| p.0), measured.last().map_or(1.0, |p| p.0));
        chart.push(Series { name: "measured".into(), points: measured });
        let xs = log_sizes(lo, hi, 49);
        for mf in &f.models {
            let points = xs.iter().map(|&m| (m, mf.model.time_us(m))).filter(|p| p.1 > 0.0).collect();
            chart.push(Series { name: mf.model.kind().name().into(), points });
        }
    }

    // Broadcast predictions.
    let procs = number_in(inputs, "procs", "processes", (1.0, f64::from(MAX_PROCS)), 20.0, &mut errors).and_then(|p| {
        if p.fract() == 0.0 {
            Some(p as u32)
        } else {
            errors.insert("procs".into(), "processes: expected a whole number".into());
            None
        }
    });
    let sizes_text = get(inputs, "sizes");
    let sizes = match parse_sizes(if sizes_text.trim().is_empty() { "8KB 512KB" } else { sizes_text }) {
        Ok(s) => s,
        Err(e) => {
            errors.insert("sizes".into(), format!("message sizes: {e}"));
            Vec::new()
        }
    };
    let mut broadcast = Vec::new();
    let mut broadcast_chart = Vec::new();
    if let (Some(f), Some(p)) = (&fit, procs) {
        for &m in &sizes {
            for mf in &f.models {
                let (times, best) = all_algorithms(&Split::new(&mf.model, share), p, m);
                broadcast.push(BroadcastRow { size_bytes: m, model: mf.model.kind(), times, best });
            }
        }
        if let Some(model) = f.best_model() {
            let split = Split::new(model, share);
            let hi = f.sizes_bytes.last().copied().unwrap_or(1.0).max(sizes.iter().copied().fold(1.0, f64::max));
            let xs = log_sizes(1.0, hi, 41);
            for a in ALGORITHMS {
                let points = xs
                    .iter()
                    .map(|&m| (m, crate::model::comm::collectives::broadcast(&split, a, p, m).time_us))
                    .filter(|q| q.1 > 0.0)
                    .collect();
                broadcast_chart.push(Series { name: format!("{} ({})", a.key(), model.kind().name()), points });
            }
        }
    }

    // Poly-adapt.
    let (measured, measured_error) = parse_measured(get(inputs, "measured"));
    let mut adapt1 = Vec::new();
    let mut adapt2 = Vec::new();
    if let Some(f) = &fit {
        if let Some(choices) = poly_adapt1(f, share, &measured) {
            let mut cases: Vec<(f64, u32)> = measured.iter().map(|r| (r.size_bytes, r.procs)).collect();
            if let Some(p) = procs {
                cases.extend(sizes.iter().map(|&m| (m, p)));
            }
            cases.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            cases.dedup();
            adapt2 = cases.iter().filter_map(|&(m, p)| poly_adapt2(f, share, &choices, m, p)).collect();
            adapt1 = choices;
        }
    }

    // Logical clusters.
    let mut matrix_error = None;
    let mut asymmetric = false;
    let mut matrix: Option<LatencyMatrix> = None;
    match gridcast::parse_matrix(get(inputs, "matrix")) {
        Ok(m) => match m.symmetry_error() {
            Some(e) if get(inputs, "symmetrise").trim() != "yes" => {
                asymmetric = true;
                matrix_error = Some(e);
            }
            Some(_) => {
                warnings.push("The latency matrix was not symmetric: each pair uses the mean of its two directions.".into());
                matrix = Some(m.symmetrise());
            }
            None => matrix = Some(m),
        },
        Err(e) => matrix_error = Some(e),
    }
    let rho = number_in(inputs, "rho", "ρ", (0.0, 10.0), gridcast::DEFAULT_RHO, &mut errors);
    let clusters_view = match (&matrix, rho) {
        (Some(m), Some(rho)) => {
            let groups = clusters(m, rho);
            let group_latency_us = groups
                .iter()
                .map(|g| {
                    let pairs = g.len() * g.len().saturating_sub(1) / 2;
                    let sum: f64 = g.iter().enumerate().flat_map(|(a, &i)| g[a + 1..].iter().map(move |&j| (i, j))).map(|(i, j)| m.get(i, j)).sum();
                    if pairs == 0 { 0.0 } else { sum / pairs as f64 }
                })
                .collect();
            Some(ClustersView {
                order: groups.iter().flatten().copied().collect(),
                groups,
                n: m.n,
                latency_us: m.values.clone(),
                group_latency_us,
            })
        }
        _ => None,
    };

    // Grid broadcast.
    let root = number_in(inputs, "root", "root node", (0.0, gridcast::MAX_NODES as f64), 0.0, &mut errors);
    let grid_size = match parse_sizes(if get(inputs, "grid_size").trim().is_empty() { "512KB" } else { get(inputs, "grid_size") }) {
        Ok(v) if v.len() == 1 => v.first().copied(),
        Ok(_) => {
            errors.insert("grid_size".into(), "message size: give one size".into());
            None
        }
        Err(e) => {
            errors.insert("grid_size".into(), format!("message size: {e}"));
            None
        }
    };
    let bandwidth = number_in(inputs, "bandwidth_mb_s", "bandwidth", (1e-3, 1e9), 119.0, &mut errors);
    let mut grid = None;
    if let (Some(cv), Some(m), Some(root), Some(size), Some(bw)) = (&clusters_view, &matrix, root, grid_size, bandwidth) {
        if root.fract() != 0.0 || root as usize >= m.n {
            errors.insert("root".into(), format!("root node: expected a node index from 0 to {}", m.n - 1));
        } else if cv.groups.len() > MAX_COORDINATORS {
            warnings.push(format!(
                "{} logical clusters: the grid broadcast is scheduled for at most {MAX_COORDINATORS}.",
                cv.groups.len()
            ));
        } else {
            grid = Some(grid_view(cv, m, root as usize, size, bw, share));
        }
    }

    PageView {
        field_errors: errors,
        format: parsed.format,
        p2p_error: parsed.error,
        fit,
        chart,
        broadcast,
        broadcast_chart,
        measured,
        measured_error,
        adapt1,
        adapt2,
        matrix_error,
        asymmetric,
        clusters: clusters_view,
        grid,
        warnings,
    }
}

fn grid_view(cv: &ClustersView, m: &LatencyMatrix, root: usize, size: f64, bw_mb_s: f64, share: f64) -> GridView {
    let beta = 1.0 / (bw_mb_s * 1.048576); // µs per byte
    let coordinators: Vec<usize> = cv.groups.iter().map(|g| g.first().copied().unwrap_or(0)).collect();
    let root_group = cv.groups.iter().position(|g| g.contains(&root)).unwrap_or(0);
    let k = coordinators.len();
    let mut local = Vec::with_capacity(k);
    let mut intra_l = Vec::with_capacity(k);
    let mut intra_g = Vec::with_capacity(k);
    for (g, &lat) in cv.groups.iter().zip(&cv.group_latency_us) {
        let model = Model::Hockney { alpha_us: lat, beta_us_per_byte: beta };
        let split = Split::new(&model, share);
        let (times, best) = all_algorithms(&split, g.len() as u32, size);
        local.push((best, times.iter().find(|t| t.algorithm == best).map_or(0.0, |t| t.time_us)));
        intra_l.push(split.latency_us);
        intra_g.push(split.gap_us(size));
    }
    // Between clusters the wire latency is the coordinators' latency; the sender is busy
    // while it pushes the bytes.
    let latency_us: Vec<Vec<f64>> =
        coordinators.iter().map(|&a| coordinators.iter().map(|&b| if a == b { 0.0 } else { m.get(a, b) }).collect()).collect();
    let gap_us = vec![vec![size * beta; k]; k];
    let c = Coordinators { latency_us, gap_us, local_us: local.iter().map(|l| l.1).collect() };
    let e = ecef(&c, root_group, false);
    let lat = ecef(&c, root_group, true);
    let procs = ClusterProcs { procs: cv.groups.iter().map(|g| g.len() as u32).collect(), latency_us: intra_l, gap_us: intra_g };
    let binomial_us = binomial_all(&c, &procs, root_group);
    let hierarchical_us = e.completion_us.min(lat.completion_us);
    GridView {
        size_bytes: size,
        coordinators,
        root_group,
        local,
        speedup: binomial_us.filter(|_| hierarchical_us > 0.0).map(|b| b / hierarchical_us),
        ecef: e,
        ecef_lat: lat,
        binomial_us,
        hierarchical_us,
    }
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

/// Presets: (id, label, inputs).
pub fn presets() -> Vec<(&'static str, &'static str, PageInputs)> {
    let base = |p2p: &str, measured: &str| {
        let mut m = PageInputs::new();
        for (k, v) in [
            ("p2p", p2p.to_string()),
            ("p2p_format", "auto".to_string()),
            ("latency_share", "0.5".to_string()),
            ("procs", "20".to_string()),
            ("sizes", "8KB 64KB 512KB 4MB".to_string()),
            ("measured", measured.to_string()),
            ("matrix", gridcast::table2_text()),
            ("symmetrise", String::new()),
            ("rho", "0.2".to_string()),
            ("root", "0".to_string()),
            ("grid_size", "512KB".to_string()),
            ("bandwidth_mb_s", "119".to_string()),
        ] {
            m.insert(k.to_string(), v);
        }
        m
    };
    vec![
        ("osu-g5k", "Constructed OSU output, Grid'5000 (seed 002, Table 2)", base(OSU_SAMPLE, "")),
        ("table-bcast", "Constructed ping-pong table and broadcasts, Grid'5000", base(TABLE_SAMPLE, MEASURED_SAMPLE)),
    ]
}

/// The page's inputs before the user has touched it.
pub fn default_inputs() -> PageInputs {
    presets().into_iter().next().map(|p| p.2).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::workspace::catalog::presets as catalog;

    #[test]
    fn default_page_shows_everything() {
        let v = evaluate(&default_inputs(), &catalog());
        assert_eq!(v.format, Format::OsuLatency);
        assert!(v.p2p_error.is_none() && v.field_errors.is_empty() && v.matrix_error.is_none(), "{v:?}");
        let fit = v.fit.as_ref().expect("fits");
        assert_eq!(fit.models.len(), 4);
        assert_eq!(fit.knee.map(|k| k.size_bytes), Some(65536.0), "{:?}", fit.knee);
        assert!(fit.best.is_some());
        assert_eq!(v.chart.len(), 5);
        assert_eq!(v.broadcast.len(), 4 * 4);
        assert_eq!(v.broadcast_chart.len(), 4);
        // Seed Table 4's pattern on 20 processes: binomial at 8 KB, pipeline at 512 KB.
        let best = |m: f64| v.adapt2.iter().find(|r| r.size_bytes == m && r.procs == 20).map(|r| r.algorithm);
        assert_eq!(best(8192.0), Some(Algorithm::Binomial));
        assert_eq!(best(524288.0), Some(Algorithm::Pipeline));
        let c = v.clusters.as_ref().expect("clusters");
        assert_eq!(c.groups.iter().map(Vec::len).collect::<Vec<_>>(), vec![20, 11, 7, 1, 20, 19]);
        assert_eq!(c.order.len(), 78);
        let g = v.grid.as_ref().expect("grid");
        assert_eq!(g.ecef.transfers.len(), 5);
        assert_eq!(g.coordinators, vec![0, 20, 31, 38, 39, 59]);
        // The seed measured the hierarchical broadcast at least twice as fast as the binomial
        // tree; with Table 2's latencies and a nominal 1 Gbit/s everywhere the model gives 1.78×
        // at 512 KB (sizes from 8 KB to 4 MB: see `grid_speedup_across_sizes`).
        assert!(g.speedup.is_some_and(|s| s > 1.5), "{g:?}");
        let fabric = fitted_fabric(&v, ModelKind::Hockney, "GigE fitted").expect("fabric");
        assert!(fabric.latency_us > 0.0 && fabric.bandwidth_mb_s > 50.0, "{fabric:?}");
    }

    #[test]
    fn measured_broadcasts_drive_poly_adapt() {
        let inputs = presets().into_iter().nth(1).expect("second preset").2;
        let v = evaluate(&inputs, &catalog());
        assert_eq!(v.measured.len(), 4, "{:?}", v.measured_error);
        assert_eq!(v.measured[0], MeasuredBroadcast { size_bytes: 8192.0, procs: 20, algorithm: Algorithm::Binomial, time_us: 610.0 });
        let binomial = v.adapt1.iter().find(|c| c.algorithm == Algorithm::Binomial).expect("binomial");
        assert_eq!((binomial.measurements, binomial.errors.len()), (2, 4));
        assert!(v.adapt1.iter().find(|c| c.algorithm == Algorithm::Binary).is_some_and(|c| c.measurements == 0));
    }

    #[test]
    fn bad_fields_name_themselves() {
        let mut inputs = default_inputs();
        inputs.insert("procs".into(), "2.5".into());
        inputs.insert("sizes".into(), "8 furlongs".into());
        inputs.insert("rho".into(), "-1".into());
        inputs.insert("measured".into(), "size procs algorithm time\n8 4 scatter 10".into());
        inputs.insert("matrix".into(), "0 1 2\n1 0 3\n2 4 0".into());
        let v = evaluate(&inputs, &catalog());
        assert!(v.field_errors["procs"].contains("whole number"));
        assert!(v.field_errors["sizes"].contains("furlongs"), "{:?}", v.field_errors);
        assert!(v.field_errors["rho"].contains("from 0 to 10"));
        let e = v.measured_error.expect("measured error");
        assert_eq!((e.line, e.column), (Some(2), Some(3)));
        assert!(e.message.contains("unknown algorithm \"scatter\""), "{e}");
        assert!(v.asymmetric && v.matrix_error.is_some() && v.clusters.is_none());
        inputs.insert("symmetrise".into(), "yes".into());
        inputs.insert("rho".into(), "0.2".into());
        let v = evaluate(&inputs, &catalog());
        assert!(!v.asymmetric && v.clusters.is_some() && v.warnings.iter().any(|w| w.contains("symmetric")));
    }

    #[test]
    fn grid_speedup_across_sizes() {
        let mut inputs = default_inputs();
        for (size, low) in [("8KB", 1.5), ("64KB", 1.5), ("512KB", 1.5), ("4MB", 1.5)] {
            inputs.insert("grid_size".into(), size.into());
            let g = evaluate(&inputs, &catalog()).grid.expect("grid");
            let s = g.speedup.expect("speed-up");
            assert!(s > low, "{size}: {s}");
        }
    }

    #[test]
    fn sizes_in_many_spellings() {
        assert_eq!(parse_sizes("8KB 512kb, 1 MB; 65536 2 k"), Ok(vec![8192.0, 524288.0, 1048576.0, 65536.0, 2048.0]));
        assert!(parse_sizes("KB").is_err());
        assert!(parse_sizes("1.5").is_err());
        assert_eq!(parse_sizes(""), Ok(vec![]));
    }

    /// Every number the page would show.
    fn numbers(v: &PageView) -> Vec<f64> {
        let mut out = Vec::new();
        if let Some(f) = &v.fit {
            out.extend(f.sizes_bytes.iter().chain(&f.times_us));
            for m in &f.models {
                out.extend(m.model.params().iter().map(|p| p.1));
                out.extend(m.rel_errors.iter().copied().chain([m.mean_rel_error]).chain(m.loo_rel_error));
            }
            if let Some(k) = &f.knee {
                out.extend([k.size_bytes, k.last_eager_bytes, k.jump_us, k.residual_ratio]);
            }
        }
        for s in v.chart.iter().chain(&v.broadcast_chart) {
            out.extend(s.points.iter().flat_map(|p| [p.0, p.1]));
        }
        for r in &v.broadcast {
            out.extend(r.times.iter().map(|t| t.time_us).chain(r.times.iter().filter_map(|t| t.segment_bytes)));
        }
        for c in &v.adapt1 {
            out.extend(c.errors.iter().map(|e| e.1));
        }
        for r in &v.adapt2 {
            out.extend(r.candidates.iter().map(|c| c.1.time_us).chain([r.time_us]));
        }
        if let Some(c) = &v.clusters {
            out.extend(c.group_latency_us.iter().chain(&c.latency_us));
        }
        if let Some(g) = &v.grid {
            out.extend(g.local.iter().map(|l| l.1).chain([g.hierarchical_us]).chain(g.binomial_us).chain(g.speedup));
            for s in [&g.ecef, &g.ecef_lat] {
                out.extend([s.inter_us, s.completion_us]);
                out.extend(s.transfers.iter().flat_map(|t| [t.start_us, t.arrival_us, t.local_end_us]));
            }
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..Default::default() })]

        /// Whatever is typed into any field, the page evaluates without panicking and shows
        /// only finite numbers.
        #[test]
        fn any_text_in_any_field(
            key in proptest::sample::select(vec!["p2p", "p2p_format", "latency_share", "procs", "sizes", "measured",
                                                 "matrix", "symmetrise", "rho", "root", "grid_size", "bandwidth_mb_s"]),
            text in "[0-9eE.,;\\t \\n+-]{0,40}|[a-z#()µ ]{0,12}|[0-9]{1,14}|[0-9 \\n]{0,30}",
        ) {
            let mut inputs = presets().into_iter().nth(1).map(|p| p.2).unwrap_or_default();
            inputs.insert("matrix".into(), "0 5 9\n5 0 9\n9 9 0".into());
            inputs.insert(key.to_string(), text);
            let v = evaluate(&inputs, &catalog());
            for x in numbers(&v) {
                proptest::prop_assert!(x.is_finite(), "{key}: {x}");
            }
        }
    }
}

//! Broadcast of m bytes to P processes in every point-to-point model, and the two levels of
//! adaptation of seed 002 (Table 3, §4.3; spec `collectives.md`).
//!
//! The seed writes the algorithms in pLogP terms, with L the latency and g(m) the time the
//! sender is busy with one message of m bytes (times in µs, P ≥ 1 processes):
//! - linear (flat tree): L + (P − 1)·g(m)
//! - segmented chain (pipeline), k = ⌈m/s⌉ segments of s bytes: (P − 1)·(g(s) + L) + g(s)·(k − 1),
//!   with s the power of two (or m itself) that minimises the time
//! - binary tree: ⌈log₂P⌉·(2·g(m) + L) (the seed's upper bound, used as the prediction)
//! - binomial tree: ⌈log₂P⌉·L + ⌊log₂P⌋·g(m)
//!
//! Every model gives a one-way time T(m) = L + g(m). A ping-pong cannot tell the wire latency
//! from the sender's gap, so the split is an explicit assumption, the same for every model:
//! L = `latency_share` × T(0) and g(m) = T(m) − L. With the default share ½ the sender is busy
//! for half of a small message's time; 1 makes small sends free for the sender, 0 makes the
//! sender wait for every delivery (Hockney's reading). P = 1 sends nothing: every algorithm
//! takes 0 and ties go to the first algorithm, linear (seed Table 4's one-machine cluster).
//!
//! Poly-adapt-1 picks, per algorithm, the model whose predictions fall closest (mean relative
//! error) to the user's measured broadcasts; Poly-adapt-2 picks per message size the
//! algorithm that finishes first, each algorithm predicted by its Poly-adapt-1 model.

use serde::Serialize;

use crate::model::comm::{CommFit, Model, ModelKind};

/// The broadcast algorithms. Everything said of one lives on its variant: its key
/// (`to_string`, also its JSON name), the other names it is read by (`serialize`), its label
/// in tables (`message`), its full name (`detailed_message`), its formula, and Open MPI's id
/// and name for it (`coll_tuned_bcast_algorithm`). Adding one is its variant here, its
/// formula in [`broadcast`] and its answer to [`Algorithm::segmented`] (both exhaustive
/// matches: the compiler asks for them), and its times by hand in the tests' `check` (which
/// fails without them): the lists, messages, help texts, table headers, the page's table and
/// the Open MPI mapping in both directions follow from these.
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
    strum::EnumProperty,
)]
#[strum(ascii_case_insensitive)]
pub enum Algorithm {
    #[strum(
        to_string = "linear",
        serialize = "flat",
        serialize = "flat_tree",
        serialize = "flat-tree",
        serialize = "basic_linear",
        message = "linear",
        detailed_message = "linear (flat tree)",
        props(formula = "L + (P − 1)·g(m)", ompi_id = 1, ompi_name = "basic_linear")
    )]
    Linear,
    #[strum(
        to_string = "binomial",
        serialize = "binomial_tree",
        serialize = "binomial-tree",
        message = "binomial tree",
        detailed_message = "binomial tree",
        props(formula = "⌈log₂P⌉·L + ⌊log₂P⌋·g(m)", ompi_id = 6, ompi_name = "binomial")
    )]
    Binomial,
    #[strum(
        to_string = "binary",
        serialize = "binary_tree",
        serialize = "binary-tree",
        message = "binary tree",
        detailed_message = "binary tree",
        props(
            formula = "⌈log₂P⌉·(2·g(m) + L)",
            note = "the seed's upper bound",
            ompi_id = 5,
            ompi_name = "binary_tree"
        )
    )]
    Binary,
    #[strum(
        to_string = "pipeline",
        serialize = "chain",
        serialize = "segmented",
        message = "pipeline",
        detailed_message = "segmented chain (pipeline)",
        props(
            formula = "(P − 1)·(g(s) + L) + g(s)·(k − 1), k = ⌈m/s⌉, s the best power of two or m",
            ompi_id = 3,
            ompi_name = "pipeline"
        )
    )]
    Pipeline,
}

impl Algorithm {
    /// Every algorithm, in the order of tables and of ties (the first wins).
    pub fn all() -> impl Iterator<Item = Algorithm> {
        <Algorithm as strum::IntoEnumIterator>::iter()
    }
    /// Its key: "linear", "binomial", … (also its name in JSON).
    pub fn key(self) -> &'static str {
        self.into()
    }
    /// Its full name, e.g. "segmented chain (pipeline)".
    pub fn name(self) -> &'static str {
        strum::EnumMessage::get_detailed_message(&self).unwrap_or_else(|| self.key())
    }
    /// Its column label in tables, e.g. "binomial tree".
    pub fn label(self) -> &'static str {
        strum::EnumMessage::get_message(&self).unwrap_or_else(|| self.key())
    }
    /// Its formula in pLogP terms.
    pub fn formula(self) -> &'static str {
        strum::EnumProperty::get_str(&self, "formula").unwrap_or_default()
    }
    /// What to say beside its formula, if anything.
    pub fn note(self) -> Option<&'static str> {
        strum::EnumProperty::get_str(&self, "note")
    }
    /// Whether it cuts the message into segments (and so has a best segment size, which
    /// [`Broadcast::segment_bytes`] gives). A match on every algorithm: a new one must say.
    pub fn segmented(self) -> bool {
        match self {
            Algorithm::Pipeline => true,
            Algorithm::Linear | Algorithm::Binomial | Algorithm::Binary => false,
        }
    }
    /// The names it is read by besides its key ([`Algorithm::from_key`]).
    pub fn names(self) -> &'static [&'static str] {
        strum::EnumMessage::get_serializations(&self)
    }
    /// Reads its key or another of its names (as "chain" for the pipeline; any case).
    pub fn from_key(s: &str) -> Option<Algorithm> {
        s.trim().parse().ok()
    }
    /// "linear, binomial, … or pipeline": the keys, for messages.
    pub fn expected() -> String {
        crate::model::one_of(Algorithm::all().map(Algorithm::key))
    }
    /// Open MPI's `coll_tuned_bcast_algorithm` id for it.
    pub fn ompi_id(self) -> u32 {
        strum::EnumProperty::get_int(&self, "ompi_id").and_then(|i| u32::try_from(i).ok()).unwrap_or(0)
    }
    /// Open MPI's name for it ("basic_linear", "binary_tree", …).
    pub fn ompi_name(self) -> &'static str {
        strum::EnumProperty::get_str(&self, "ompi_name").unwrap_or_default()
    }
    /// The algorithm Open MPI numbers `id`, when the calculator has it.
    pub fn from_ompi_id(id: u32) -> Option<Algorithm> {
        Algorithm::all().find(|a| a.ompi_id() == id)
    }
    /// The algorithms by Open MPI id, `f` writing each ("1 basic_linear"), joined with `sep`
    /// and `last` before the last one.
    pub fn ompi_list(f: fn(Algorithm) -> String, sep: &str, last: &str) -> String {
        let mut all: Vec<Algorithm> = Algorithm::all().collect();
        all.sort_by_key(|a| a.ompi_id());
        let words: Vec<String> = all.into_iter().map(f).collect();
        match words.split_last() {
            Some((end, rest)) if !rest.is_empty() => format!("{}{last}{end}", rest.join(sep)),
            _ => words.concat(),
        }
    }
}

impl Serialize for Algorithm {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.key())
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl schemars::JsonSchema for Algorithm {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Algorithm".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let keys: Vec<&str> = Algorithm::all().map(Algorithm::key).collect();
        schemars::json_schema!({ "type": "string", "enum": keys, "description": "A broadcast algorithm." })
    }
}

/// Largest process count accepted.
pub const MAX_PROCS: u32 = 1 << 24;
/// Default share of a small message's time that is wire latency (see the module docs).
pub const DEFAULT_LATENCY_SHARE: f64 = 0.5;

/// A model split into latency and sender gap.
#[derive(Debug, Clone, Copy)]
pub struct Split<'a> {
    pub model: &'a Model,
    pub latency_us: f64,
}

impl<'a> Split<'a> {
    /// `share` is clamped to [0, 1].
    pub fn new(model: &'a Model, share: f64) -> Self {
        let share = if share.is_finite() { share.clamp(0.0, 1.0) } else { DEFAULT_LATENCY_SHARE };
        Split { model, latency_us: share * model.time_us(0.0) }
    }
    /// g(m), µs.
    pub fn gap_us(&self, m: f64) -> f64 {
        (self.model.time_us(m) - self.latency_us).max(0.0)
    }
}

/// One predicted broadcast.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Broadcast {
    pub algorithm: Algorithm,
    pub time_us: f64,
    /// The pipeline's best segment size, bytes (None for the other algorithms).
    pub segment_bytes: Option<f64>,
}

fn ceil_log2(p: u32) -> f64 {
    f64::from(32 - p.saturating_sub(1).leading_zeros())
}

fn floor_log2(p: u32) -> f64 {
    f64::from(31u32.saturating_sub(p.max(1).leading_zeros()))
}

/// Time of one algorithm broadcasting `size_bytes` (≥ 0) to `procs` processes (≥ 1).
pub fn broadcast(split: &Split, algorithm: Algorithm, procs: u32, size_bytes: f64) -> Broadcast {
    let m = size_bytes.max(0.0);
    let l = split.latency_us;
    let p1 = f64::from(procs.max(1) - 1);
    let mut segment_bytes = None;
    let time_us = if procs <= 1 {
        segment_bytes = algorithm.segmented().then_some(m);
        0.0
    } else {
        match algorithm {
            Algorithm::Linear => l + p1 * split.gap_us(m),
            Algorithm::Binomial => ceil_log2(procs) * l + floor_log2(procs) * split.gap_us(m),
            Algorithm::Binary => ceil_log2(procs) * (2.0 * split.gap_us(m) + l),
            Algorithm::Pipeline => {
                let chain = |s: f64| {
                    let k = if s > 0.0 { (m / s).ceil().max(1.0) } else { 1.0 };
                    let g = split.gap_us(s);
                    p1 * (g + l) + g * (k - 1.0)
                };
                // Powers of two below m, then m itself (one segment); ties keep the larger s.
                let mut best = (chain(m), m);
                let mut s = 1.0;
                while s < m {
                    let t = chain(s);
                    // Ties (within rounding) keep the larger segment: fewer messages.
                    if t < best.0 * (1.0 - 1e-12) {
                        best = (t, s);
                    }
                    s *= 2.0;
                }
                segment_bytes = Some(best.1);
                best.0
            }
        }
    };
    Broadcast { algorithm, time_us, segment_bytes }
}

/// Every algorithm for one model, in [`Algorithm::all`]'s order, and the fastest (the first
/// on ties).
pub fn all_algorithms(split: &Split, procs: u32, size_bytes: f64) -> (Vec<Broadcast>, Algorithm) {
    let all: Vec<Broadcast> = Algorithm::all().map(|a| broadcast(split, a, procs, size_bytes)).collect();
    let best = fastest(&all);
    (all, best)
}

/// The fastest of some broadcasts (at least one); ties within rounding go to the earlier.
fn fastest(all: &[Broadcast]) -> Algorithm {
    all.iter().skip(1).fold(all[0], |b, x| if x.time_us < b.time_us * (1.0 - 1e-12) { *x } else { b }).algorithm
}

/// One measured broadcast.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MeasuredBroadcast {
    pub size_bytes: f64,
    pub procs: u32,
    pub algorithm: Algorithm,
    pub time_us: f64,
}

/// Poly-adapt-1 for one algorithm.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelChoice {
    pub algorithm: Algorithm,
    /// The model closest to the measurements; for an algorithm without measurements, the
    /// best point-to-point model.
    pub model: ModelKind,
    /// Mean relative error of each model against this algorithm's measurements (empty when
    /// there are none).
    pub errors: Vec<(ModelKind, f64)>,
    pub measurements: usize,
}

/// Poly-adapt-1: per algorithm, the fitted model closest to the measured broadcasts.
/// None when no model is fitted.
pub fn poly_adapt1(fit: &CommFit, share: f64, measured: &[MeasuredBroadcast]) -> Option<Vec<ModelChoice>> {
    let fallback = fit.best?;
    Some(
        Algorithm::all()
            .map(|algorithm| {
                let rows: Vec<&MeasuredBroadcast> = measured.iter().filter(|r| r.algorithm == algorithm).collect();
                let errors: Vec<(ModelKind, f64)> = if rows.is_empty() {
                    Vec::new()
                } else {
                    fit.models
                        .iter()
                        .map(|f| {
                            let split = Split::new(&f.model, share);
                            let sum: f64 = rows
                                .iter()
                                .map(|r| {
                                    let t = broadcast(&split, algorithm, r.procs, r.size_bytes).time_us;
                                    ((t - r.time_us) / r.time_us).abs()
                                })
                                .sum();
                            (f.model.kind(), sum / rows.len() as f64)
                        })
                        .collect()
                };
                let model = errors.iter().min_by(|a, b| a.1.total_cmp(&b.1)).map(|e| e.0).unwrap_or(fallback);
                ModelChoice { algorithm, model, errors, measurements: rows.len() }
            })
            .collect(),
    )
}

/// Poly-adapt-2 for one (size, procs): each algorithm by its chosen model, and the fastest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AdaptRow {
    pub size_bytes: f64,
    pub procs: u32,
    /// (algorithm, model used, prediction) for every algorithm.
    pub candidates: Vec<(ModelKind, Broadcast)>,
    pub algorithm: Algorithm,
    pub model: ModelKind,
    pub time_us: f64,
}

pub fn poly_adapt2(
    fit: &CommFit,
    share: f64,
    choices: &[ModelChoice],
    size_bytes: f64,
    procs: u32,
) -> Option<AdaptRow> {
    let candidates: Vec<(ModelKind, Broadcast)> = choices
        .iter()
        .filter_map(|c| {
            let model = fit.model(c.model)?;
            Some((c.model, broadcast(&Split::new(model, share), c.algorithm, procs, size_bytes)))
        })
        .collect();
    let &(model, best) = candidates.iter().reduce(|a, b| if b.1.time_us < a.1.time_us { b } else { a })?;
    Some(AdaptRow { size_bytes, procs, algorithm: best.algorithm, model, time_us: best.time_us, candidates })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::comm::{fit_all, Point};

    fn hockney(alpha: f64, beta: f64) -> Model {
        Model::Hockney { alpha_us: alpha, beta_us_per_byte: beta }
    }

    #[test]
    fn every_algorithm_is_named_once_and_read_back_by_each_name() {
        let all: Vec<Algorithm> = Algorithm::all().collect();
        assert_eq!(all.len(), <Algorithm as strum::EnumCount>::COUNT);
        for a in Algorithm::all() {
            // Its key, in any case and padded, its JSON name and its Open MPI id lead back to it.
            assert_eq!(Algorithm::from_key(a.key()), Some(a));
            assert_eq!(Algorithm::from_key(&format!(" {} ", a.key().to_uppercase())), Some(a));
            assert_eq!(serde_json::to_value(a).ok(), Some(serde_json::Value::from(a.key())));
            assert_eq!(Algorithm::from_ompi_id(a.ompi_id()), Some(a), "{a:?}");
            assert!(
                a.ompi_id() > 0 && !a.ompi_name().is_empty() && !a.formula().is_empty() && !a.label().is_empty(),
                "{a:?}"
            );
            assert!(Algorithm::expected().contains(a.key()));
            // No two share a key, an Open MPI id or a label.
            for b in Algorithm::all().filter(|b| *b != a) {
                assert!(a.key() != b.key() && a.ompi_id() != b.ompi_id() && a.label() != b.label(), "{a:?} {b:?}");
            }
        }
        for a in Algorithm::all() {
            for name in a.names() {
                assert_eq!(Algorithm::from_key(name), Some(a), "{name}");
            }
        }
        assert_eq!(Algorithm::from_key("flat_tree"), Some(Algorithm::Linear));
        assert_eq!(Algorithm::from_key("Chain"), Some(Algorithm::Pipeline));
        assert_eq!(Algorithm::from_key("ring"), None);
        let keys: Vec<&str> = Algorithm::all().map(Algorithm::key).collect();
        let last = keys.last().copied().unwrap_or_default();
        assert!(
            Algorithm::expected().starts_with(&format!("{}, ", keys[0]))
                && Algorithm::expected().ends_with(&format!(" or {last}"))
        );
        assert_eq!(Algorithm::from_ompi_id(0), None);
    }

    /// Each algorithm's time against its expected value, by name: every algorithm has one (a
    /// new algorithm fails here until its time by hand is added).
    fn check(split: &Split, procs: u32, m: f64, want: &[(Algorithm, f64)], want_segment: f64) {
        for a in Algorithm::all() {
            let w =
                want.iter().find(|w| w.0 == a).unwrap_or_else(|| panic!("{a:?}: no time by hand at P={procs} m={m}")).1;
            let b = broadcast(split, a, procs, m);
            assert!((b.time_us - w).abs() < 1e-9, "{a:?} P={procs} m={m}: {} vs {w}", b.time_us);
            assert_eq!(b.segment_bytes, a.segmented().then_some(want_segment), "{a:?}: segment for P={procs} m={m}");
        }
    }

    /// The seed's Table 4 compares these four (whatever else the calculator has).
    const TABLE4: [Algorithm; 4] = [Algorithm::Linear, Algorithm::Binomial, Algorithm::Binary, Algorithm::Pipeline];

    /// The fastest of Table 4's algorithms (ties to the earlier, as [`all_algorithms`]).
    fn table4_best(split: &Split, procs: u32, m: f64) -> Algorithm {
        fastest(&TABLE4.map(|a| broadcast(split, a, procs, m)))
    }

    #[test]
    fn formulas_by_hand() {
        // T(m) = 10 + 0.01 m, share ½: L = 5, g(m) = 5 + 0.01 m.
        let model = hockney(10.0, 0.01);
        let split = Split::new(&model, 0.5);
        // P = 8, m = 1000: g = 15. Linear 5 + 7·15 = 110. Binomial 3·5 + 3·15 = 60.
        // Binary 3·(30 + 5) = 105. Pipeline: s = 1000 → 7·20 = 140; s = 512 (k = 2, g = 10.12)
        // → 7·15.12 + 10.12 = 115.96; s = 256 (k = 4, g = 7.56) → 7·12.56 + 3·7.56 = 110.6;
        // s = 128 (k = 8, g = 6.28) → 7·11.28 + 7·6.28 = 122.92; smaller s cost more.
        check(
            &split,
            8,
            1000.0,
            &[
                (Algorithm::Linear, 110.0),
                (Algorithm::Binomial, 60.0),
                (Algorithm::Binary, 105.0),
                (Algorithm::Pipeline, 110.6),
            ],
            256.0,
        );
        // P = 5: ⌈log₂5⌉ = 3, ⌊log₂5⌋ = 2. m = 0: g = 5. Linear 5 + 4·5 = 25; binomial
        // 15 + 10 = 25; binary 3·15 = 45; pipeline one empty segment: 4·10 = 40.
        check(
            &split,
            5,
            0.0,
            &[
                (Algorithm::Linear, 25.0),
                (Algorithm::Binomial, 25.0),
                (Algorithm::Binary, 45.0),
                (Algorithm::Pipeline, 40.0),
            ],
            0.0,
        );
        // P = 1 sends nothing.
        check(&split, 1, 1e6, &Algorithm::all().map(|a| (a, 0.0)).collect::<Vec<_>>(), 1e6);
        assert_eq!(all_algorithms(&split, 1, 1e6).1, Algorithm::Linear);
        assert_eq!(all_algorithms(&split, 8, 1000.0).1, Algorithm::Binomial);
        // Share 0 is Hockney's reading: L = 0, g = T. P = 2: every algorithm sends once.
        let h = Split::new(&model, 0.0);
        check(
            &h,
            2,
            100.0,
            &[
                (Algorithm::Linear, 11.0),
                (Algorithm::Binomial, 11.0),
                (Algorithm::Binary, 22.0),
                (Algorithm::Pipeline, 11.0),
            ],
            100.0,
        );
    }

    #[test]
    fn seed_table4_pattern_on_a_gigabit_cluster() {
        // Orsay-like: 48.39 µs latency (Table 2), 119 MB/s; 20 processes.
        let model = hockney(48.39, 1.0 / (119.0 * 1.048576));
        let split = Split::new(&model, 0.5);
        assert_eq!(table4_best(&split, 20, 8192.0), Algorithm::Binomial, "8 kB");
        assert_eq!(table4_best(&split, 20, 524288.0), Algorithm::Pipeline, "512 kB");
        assert_eq!(table4_best(&split, 1, 524288.0), Algorithm::Linear, "one machine");
    }

    #[test]
    fn poly_adapt_picks_the_closest_model_and_the_fastest_algorithm() {
        // Eager 50 + m/100 µs; a 100 µs rendezvous handshake from 64 KB.
        let points: Vec<Point> = (0..=22)
            .map(|j| {
                let m = f64::from(1u32 << j);
                Point { size_bytes: m, time_us: 50.0 + m / 100.0 + if m >= 65536.0 { 100.0 } else { 0.0 }, line: None }
            })
            .collect();
        let fit = fit_all(&points).expect("fits");
        // Measured binomial broadcasts generated by pLogP itself: Poly-adapt-1 must pick it.
        let plogp = fit.model(ModelKind::PLogP).expect("plogp");
        let split = Split::new(plogp, 0.5);
        let measured: Vec<MeasuredBroadcast> = [1024.0, 100_000.0, 1e6]
            .iter()
            .map(|&m| MeasuredBroadcast {
                size_bytes: m,
                procs: 16,
                algorithm: Algorithm::Binomial,
                time_us: broadcast(&split, Algorithm::Binomial, 16, m).time_us,
            })
            .collect();
        let choices = poly_adapt1(&fit, 0.5, &measured).expect("choices");
        assert!(choices.iter().map(|c| c.algorithm).eq(Algorithm::all()), "one choice per algorithm, in order");
        let choice = |a: Algorithm| choices.iter().find(|c| c.algorithm == a).expect("a choice");
        let binomial = choice(Algorithm::Binomial);
        assert_eq!((binomial.model, binomial.measurements), (ModelKind::PLogP, 3));
        assert_eq!(choice(Algorithm::Linear).model, fit.best.expect("best"), "no measurements: the best p2p model");
        let row = poly_adapt2(&fit, 0.5, &choices, 1e6, 16).expect("row");
        let fastest = row.candidates.iter().map(|c| c.1.time_us).fold(f64::INFINITY, f64::min);
        assert_eq!(row.time_us, fastest);
        assert_eq!(row.algorithm, Algorithm::Pipeline);
    }

    proptest::proptest! {
        /// Broadcast times are finite, ≥ 0, and never below one message's delivery for P ≥ 2.
        #[test]
        fn times_are_finite(alpha in 0.0f64..1e6, beta in 0.0f64..1e3, share in 0.0f64..=1.0,
                            procs in 1u32..MAX_PROCS, m in 0.0f64..1e12) {
            let model = hockney(alpha, beta);
            let split = Split::new(&model, share);
            for a in Algorithm::all() {
                let b = broadcast(&split, a, procs, m);
                proptest::prop_assert!(b.time_us.is_finite() && b.time_us >= 0.0);
                // A segmented broadcast's segments may be cheaper than one whole message.
                if procs >= 2 && !a.segmented() {
                    proptest::prop_assert!(b.time_us >= model.time_us(m) * (1.0 - 1e-12) - 1e-9, "{a:?}");
                }
            }
        }
    }
}

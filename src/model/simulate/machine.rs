//! Message-time models: MPIBench-style histograms per (message size, n × p configuration), a
//! fitted line T = l + b/W, and the Perseus-like preset built from the seed's facts.
//!
//! # Histograms (seed 001, sections 2–3; spec "Communication time distributions")
//!
//! A pasted table has the columns message size (bytes), n (nodes), p (processes per node),
//! bin low, bin high (microseconds unless the header names a unit) and count. Rows with the
//! same (size, n, p) form one histogram. A bin with high ≤ low, a negative count, a histogram
//! whose counts are all zero, and bins that overlap are errors naming the line; bins with a
//! count of 0 carry no probability and are skipped. Within a bin, times are uniform.
//!
//! Sampling is by inverse CDF: u in [0, 1) picks the bin through the cumulative counts, then
//! a point inside it. Between two measured sizes the quantile functions are interpolated
//! linearly in size (same u, so a size halfway between gets the time halfway between at every
//! quantile); this is done once per (size, level) and kept as one merged histogram. Below the
//! smallest measured size the smallest is used; above the largest, the largest is shifted by
//! the growth of its mean per byte between the two largest sizes (a pure delay: no new spread).
//!
//! # Contention level
//!
//! MPIBench's n × p benchmark has all n·p processes sending at once, so a message that leaves
//! while m messages are in flight (itself included) is sampled from the configuration with
//! the run's p (or the nearest measured p) and the smallest n·p ≥ m (the largest when none
//! is). [`Contention::Configuration`] uses the run's own n × p instead, and
//! [`Contention::None`] the least loaded configuration measured (ping-pong, 2 × 1).
//!
//! # Modes (the seed's Figure 6)
//!
//! `Distribution` samples; `Average` uses each histogram's mean; `Minimum` its lowest bin edge.

use std::collections::BTreeMap;

use crate::model::input::table::{parse_table, ColumnSpec, Quantity, BYTES, MICROSECONDS, PLAIN};
use crate::model::InputError;

/// How message times are drawn (the seed's Figure 6 compares the three).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Distribution,
    Average,
    Minimum,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Distribution, Mode::Average, Mode::Minimum];
    pub fn name(self) -> &'static str {
        match self {
            Mode::Distribution => "distribution",
            Mode::Average => "average",
            Mode::Minimum => "minimum",
        }
    }
    pub fn parse(s: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name().eq_ignore_ascii_case(s.trim()))
    }
}

/// Which measured configuration a message's time comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Contention {
    /// The number of messages in flight when it leaves (the seed's contention scoreboard).
    Moment,
    /// The run's n × p, whatever the traffic.
    Configuration,
    /// The least loaded configuration measured (ping-pong).
    None,
}

impl Contention {
    pub const ALL: [Contention; 3] = [Contention::Moment, Contention::Configuration, Contention::None];
    pub fn name(self) -> &'static str {
        match self {
            Contention::Moment => "moment",
            Contention::Configuration => "configuration",
            Contention::None => "none",
        }
    }
    pub fn parse(s: &str) -> Option<Contention> {
        Contention::ALL.into_iter().find(|m| m.name().eq_ignore_ascii_case(s.trim()))
    }
}

/// A piecewise-linear inverse CDF: segment i covers u in [cum[i-1], cum[i]) and maps it
/// linearly onto [lo[i], hi[i]] (a histogram bin with uniform times inside).
#[derive(Debug, Clone, PartialEq)]
pub struct Quantile {
    pub cum: Vec<f64>,
    pub lo: Vec<f64>,
    pub hi: Vec<f64>,
}

impl Quantile {
    /// From bins (low s, high s, weight > 0), sorted and not overlapping.
    fn from_bins(bins: &[(f64, f64, f64)]) -> Quantile {
        let total: f64 = bins.iter().map(|b| b.2).sum();
        let mut acc = 0.0;
        let mut q = Quantile { cum: Vec::new(), lo: Vec::new(), hi: Vec::new() };
        for &(lo, hi, w) in bins {
            acc += w;
            q.cum.push(acc / total);
            q.lo.push(lo);
            q.hi.push(hi);
        }
        if let Some(last) = q.cum.last_mut() {
            *last = 1.0;
        }
        q
    }

    fn start(&self, i: usize) -> f64 {
        if i == 0 {
            0.0
        } else {
            self.cum[i - 1]
        }
    }

    /// Time at quantile u in [0, 1).
    pub fn at(&self, u: f64) -> f64 {
        let i = self.cum.partition_point(|&c| c <= u).min(self.cum.len() - 1);
        self.in_segment(i, u)
    }

    #[inline(always)]
    fn in_segment(&self, i: usize, u: f64) -> f64 {
        let (a, b) = (self.start(i), self.cum[i]);
        let f = if b > a { ((u - a) / (b - a)).clamp(0.0, 1.0) } else { 0.0 };
        self.lo[i] + (self.hi[i] - self.lo[i]) * f
    }

    pub fn mean(&self) -> f64 {
        (0..self.cum.len()).map(|i| (self.cum[i] - self.start(i)) * 0.5 * (self.lo[i] + self.hi[i])).sum()
    }

    pub fn min(&self) -> f64 {
        self.lo.first().copied().unwrap_or(0.0)
    }

    /// (1 − w)·a(u) + w·b(u), exactly: breakpoints at the union of both.
    fn blend(a: &Quantile, b: &Quantile, w: f64) -> Quantile {
        let mut q = Quantile { cum: Vec::new(), lo: Vec::new(), hi: Vec::new() };
        let (mut i, mut j, mut start) = (0, 0, 0.0);
        while i < a.cum.len() && j < b.cum.len() {
            let end = a.cum[i].min(b.cum[j]);
            if end > start {
                q.cum.push(end);
                q.lo.push((1.0 - w) * a.in_segment(i, start) + w * b.in_segment(j, start));
                q.hi.push((1.0 - w) * a.in_segment(i, end) + w * b.in_segment(j, end));
            }
            start = end;
            if a.cum[i] <= end {
                i += 1;
            }
            if b.cum[j] <= end {
                j += 1;
            }
        }
        q
    }

    fn shifted(&self, by: f64) -> Quantile {
        Quantile {
            cum: self.cum.clone(),
            lo: self.lo.iter().map(|x| x + by).collect(),
            hi: self.hi.iter().map(|x| x + by).collect(),
        }
    }
}

/// One measured configuration: its histograms by message size.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub nodes: u32,
    pub per_node: u32,
    /// (size in bytes, quantile function), sizes ascending.
    pub sizes: Vec<(f64, Quantile)>,
}

impl Config {
    /// The quantile function for any size (see the module's notes).
    pub fn at_size(&self, size: f64) -> Quantile {
        let s = &self.sizes;
        let k = s.partition_point(|(x, _)| *x <= size);
        match (k.checked_sub(1).and_then(|i| s.get(i)), s.get(k)) {
            (Some((s0, q0)), Some((s1, q1))) => Quantile::blend(q0, q1, (size - s0) / (s1 - s0)),
            (Some((s1, q1)), None) => match k.checked_sub(2).and_then(|i| s.get(i)) {
                Some((s0, q0)) if size > *s1 => {
                    let slope = ((q1.mean() - q0.mean()) / (s1 - s0)).max(0.0);
                    q1.shifted(slope * (size - s1))
                }
                _ => q1.clone(),
            },
            (None, Some((_, q))) => q.clone(),
            (None, None) => Quantile { cum: vec![1.0], lo: vec![0.0], hi: vec![0.0] },
        }
    }
}

/// A machine's message times.
#[derive(Debug, Clone, PartialEq)]
pub enum Machine {
    /// Measured (or constructed) histograms, configurations sorted by n·p then p.
    Histograms { name: String, configs: Vec<Config> },
    /// T = latency + size / bandwidth, the same for every message.
    Fitted { latency_s: f64, bandwidth_bytes_s: f64 },
}

pub const HISTOGRAM_COLUMNS: &[ColumnSpec] = &[
    ColumnSpec::new("size", Quantity::Size, BYTES).aliases(&["message size", "message_size", "bytes", "b"]),
    ColumnSpec::new("n", Quantity::Plain, PLAIN).aliases(&["nodes"]).integer(),
    ColumnSpec::new("p", Quantity::Plain, PLAIN).aliases(&["ppn", "procs per node", "per node"]).integer(),
    ColumnSpec::new("low", Quantity::Time, MICROSECONDS).aliases(&["bin low", "bin_low", "from", "lo"]),
    ColumnSpec::new("high", Quantity::Time, MICROSECONDS).aliases(&["bin high", "bin_high", "to", "hi"]),
    ColumnSpec::new("count", Quantity::Plain, PLAIN).aliases(&["counts", "frequency", "freq", "weight"]),
];

/// Most configurations and bins a pasted table may hold (keeps a paste from stalling a tab).
const MAX_BINS: usize = 200_000;

/// Which of a fitted line's two numbers is outside what [`Machine::fitted`] takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutOfRange {
    Latency,
    Bandwidth,
}

impl std::fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OutOfRange::Latency => "latency must be from 0 to 10 s",
            OutOfRange::Bandwidth => "bandwidth must be from 1 byte/s to 1e15 bytes/s",
        })
    }
}

impl Machine {
    /// Parses pasted MPIBench-style histograms; `field` names the input in errors.
    pub fn from_histograms(field: &str, name: &str, text: &str) -> Result<Machine, InputError> {
        let table = parse_table(field, text, HISTOGRAM_COLUMNS)?;
        if table.rows.is_empty() {
            return Err(InputError::new(field, "no histogram rows; expected size, n, p, low, high, count"));
        }
        if table.rows.len() > MAX_BINS {
            return Err(InputError::new(field, format!("more than {MAX_BINS} bins")));
        }
        // (n, p, size bits) → bins (low s, high s, count, line, the character columns of low
        // and of count).
        type Bins = Vec<(f64, f64, f64, usize, (usize, usize))>;
        let mut groups: BTreeMap<(u32, u32, u64), Bins> = BTreeMap::new();
        for r in &table.rows {
            let [Some(size), Some(n), Some(p), Some(lo), Some(hi), Some(count)] = r.values[..] else { continue };
            // Column k (1-based) named by the character where its cell starts, as every error does.
            let at = |k: usize| r.columns.get(k - 1).copied().unwrap_or(k);
            let bad = |k: usize, msg: &str| Err(InputError::new(field, msg.to_string()).at(r.line, Some(at(k))));
            if !(0.0..=1e12).contains(&size) {
                return bad(1, "message size must be from 0 to 1e12 bytes");
            }
            if !(1.0..=1e6).contains(&n) {
                return bad(2, "n (nodes) must be a whole number from 1 to 1000000");
            }
            if !(1.0..=1024.0).contains(&p) {
                return bad(3, "p (processes per node) must be a whole number from 1 to 1024");
            }
            if lo < 0.0 || hi > 1e9 {
                return bad(4, "bin times must be from 0 to 1e9 microseconds");
            }
            if hi <= lo {
                return bad(5, "empty bin: high must be greater than low");
            }
            if !(0.0..=1e15).contains(&count) {
                return bad(6, "count must be from 0 to 1e15");
            }
            let bins = groups.entry((n as u32, p as u32, size.to_bits())).or_default();
            bins.push((lo * 1e-6, hi * 1e-6, count, r.line, (at(4), at(6))));
        }
        let mut by_config: BTreeMap<(u32, u32), Vec<(f64, Quantile)>> = BTreeMap::new();
        for ((n, p, size_bits), mut bins) in groups {
            bins.sort_by(|a, b| a.0.total_cmp(&b.0));
            for w in bins.windows(2) {
                if w[1].0 < w[0].1 {
                    return Err(InputError::new(
                        field,
                        format!("bins overlap: this bin starts before the bin on line {} ends", w[0].3),
                    )
                    .at(w[1].3, Some(w[1].4 .0)));
                }
            }
            let (line, count_column) = bins.first().map_or((1, 6), |b| (b.3, b.4 .1));
            let kept: Vec<(f64, f64, f64)> = bins.iter().filter(|b| b.2 > 0.0).map(|b| (b.0, b.1, b.2)).collect();
            if kept.is_empty() {
                return Err(InputError::new(field, "empty histogram: every count of this size and n × p is 0")
                    .at(line, Some(count_column)));
            }
            by_config.entry((n, p)).or_default().push((f64::from_bits(size_bits), Quantile::from_bins(&kept)));
        }
        let mut configs: Vec<Config> = by_config
            .into_iter()
            // In size order already: the groups came in key order, and the bits of sizes ≥ 0
            // order as the sizes do.
            .map(|((nodes, per_node), sizes)| Config { nodes, per_node, sizes })
            .collect();
        sort_configs(&mut configs);
        Ok(Machine::Histograms { name: name.to_string(), configs })
    }

    /// The fitted line; latency in seconds (≥ 0), bandwidth in bytes/s (> 0).
    pub fn fitted(latency_s: f64, bandwidth_bytes_s: f64) -> Result<Machine, OutOfRange> {
        if !(0.0..=10.0).contains(&latency_s) {
            return Err(OutOfRange::Latency);
        }
        if !(1.0..=1e15).contains(&bandwidth_bytes_s) {
            return Err(OutOfRange::Bandwidth);
        }
        Ok(Machine::Fitted { latency_s, bandwidth_bytes_s })
    }

    pub fn name(&self) -> String {
        match self {
            Machine::Histograms { name, .. } => name.clone(),
            Machine::Fitted { latency_s, bandwidth_bytes_s } => format!(
                "fitted: {} µs + size / {} MB/s",
                crate::model::fmt_num(latency_s * 1e6, 4),
                crate::model::fmt_num(bandwidth_bytes_s / 1e6, 4)
            ),
        }
    }
}

/// A machine made ready for one run (one process count, processes per node and mode):
/// message time from (size, messages in flight), cached by size.
pub struct RunMachine {
    /// Indices into the configs, least loaded first, with their n·p.
    levels: Vec<(usize, u64)>,
    fixed_level: Option<usize>,
    /// The level for each number of messages in flight, as far as the table goes (a message's
    /// path looks it up instead of searching the levels).
    level_at: Box<[u16]>,
    /// The level of every moment busier than the busiest measured (the last, or the fixed
    /// one): a busy network (an all-to-all's hundreds of thousands in flight) needs no search.
    beyond: (u64, usize),
    mode: Mode,
    /// The distinct sizes met so far (their bits), and for size i and level l the sampler at
    /// `i * levels + l`: a size's samplers for every level are built when it is first met.
    sizes: Vec<u64>,
    samplers: Vec<Sampler>,
    /// The size of the last message (most messages of a program have one or two sizes): its
    /// bits (at first a NaN's, which no size has) and the start of its samplers.
    last_bits: u64,
    row: usize,
}

/// Most entries of [`RunMachine`]'s level table; busier moments search the levels.
const LEVEL_TABLE: usize = 4096;

/// One piece of an inverse CDF: u in [a, b) maps linearly onto [lo, hi], as lo + (u − a)·slope
/// (slope = (hi − lo)/(b − a), worked out once, so that a draw needs no division). The numbers
/// sampling needs, side by side.
#[derive(Debug, Clone, Copy)]
pub struct Seg {
    a: f64,
    b: f64,
    lo: f64,
    hi: f64,
    slope: f64,
}

/// A quantile function with a guide table for O(1) lookup of u's segment, or a constant.
#[derive(Debug, Clone)]
pub enum Sampler {
    Const(f64),
    Table { segs: Box<[Seg]>, guide: Box<[u32]> },
}

impl Sampler {
    fn new(q: Quantile, mode: Mode) -> Sampler {
        match mode {
            Mode::Average => Sampler::Const(q.mean().max(0.0)),
            Mode::Minimum => Sampler::Const(q.min().max(0.0)),
            Mode::Distribution if q.cum.len() == 1 && q.lo[0] == q.hi[0] => Sampler::Const(q.lo[0].max(0.0)),
            Mode::Distribution => {
                // Eight guide entries a segment: the scan after the guide seldom moves, so its
                // branch is seldom mispredicted (two a segment: about 4 % slower on Jacobi 64).
                let k = 8 * q.cum.len();
                let guide = (0..k).map(|g| q.cum.partition_point(|&c| c <= g as f64 / k as f64) as u32).collect();
                let segs = (0..q.cum.len())
                    .map(|i| {
                        let (a, b, lo, hi) = (q.start(i), q.cum[i], q.lo[i], q.hi[i]);
                        Seg { a, b, lo, hi, slope: if b > a { (hi - lo) / (b - a) } else { 0.0 } }
                    })
                    .collect();
                Sampler::Table { segs, guide }
            }
        }
    }

    /// The time at quantile u in [0, 1): [`Quantile::at`] with the division done beforehand (the
    /// result may differ from it in the last bits).
    #[inline(always)]
    pub fn sample(&self, u: f64) -> f64 {
        match self {
            Sampler::Const(t) => *t,
            Sampler::Table { segs, guide } => {
                // u32, not usize: float conversions of 64-bit unsigned integers are long on x86.
                let g = (u * guide.len() as u32 as f64) as u32 as usize;
                let mut i = guide.get(g).map_or(0, |&i| i as usize);
                let last = segs.len().saturating_sub(1);
                while i < last && segs.get(i).is_some_and(|s| s.b <= u) {
                    i += 1;
                }
                let Some(s) = segs.get(i) else { return 0.0 };
                // u ≥ a here (the guide and the scan above); the bound at hi guards rounding.
                // Compares, not f64::min: that stays a library call at opt-level "z" (measured).
                let t = s.lo + (u - s.a) * s.slope;
                let t = if t < s.hi { t } else { s.hi };
                if t > 0.0 {
                    t
                } else {
                    0.0
                }
            }
        }
    }

    pub fn is_random(&self) -> bool {
        matches!(self, Sampler::Table { .. })
    }
}

impl RunMachine {
    pub fn new(machine: &Machine, numprocs: u32, per_node: u32, mode: Mode, contention: Contention) -> Self {
        let mut levels = Vec::new();
        let mut fixed_level = None;
        if let Machine::Histograms { configs, .. } = machine {
            // The measured p nearest the run's (ties: the smaller).
            let p = configs.iter().map(|c| c.per_node).min_by_key(|&p| (p.abs_diff(per_node), p)).unwrap_or(1);
            levels = configs
                .iter()
                .enumerate()
                .filter(|(_, c)| c.per_node == p)
                .map(|(i, c)| (i, c.nodes as u64 * c.per_node as u64))
                .collect();
            fixed_level = match contention {
                Contention::Moment => None,
                Contention::Configuration => {
                    Some(levels.partition_point(|l| l.1 < numprocs as u64).min(levels.len().saturating_sub(1)))
                }
                Contention::None => {
                    // The least loaded measurement of all, whatever its p.
                    levels = vec![(0, 0)];
                    Some(0)
                }
            };
        }
        let mut m = RunMachine {
            levels,
            fixed_level,
            level_at: Box::new([]),
            beyond: (0, 0),
            mode,
            sizes: Vec::new(),
            samplers: Vec::new(),
            last_bits: f64::NAN.to_bits(),
            row: 0,
        };
        let top = m.levels.last().map_or(0, |l| l.1 as usize);
        m.level_at = (0..=top.min(LEVEL_TABLE)).map(|k| m.level_search(k) as u16).collect();
        m.beyond = (top as u64, m.level_search(usize::MAX));
        m
    }

    fn level_search(&self, in_flight: usize) -> usize {
        match self.fixed_level {
            Some(l) => l,
            None => self.levels.partition_point(|l| l.1 < in_flight as u64).min(self.levels.len().saturating_sub(1)),
        }
    }

    /// The level for a message leaving with `in_flight` messages on the network (itself included).
    #[inline(always)]
    fn level(&self, in_flight: usize) -> usize {
        match self.level_at.get(in_flight) {
            Some(&l) => l as usize,
            None if in_flight as u64 > self.beyond.0 => self.beyond.1,
            None => self.level_search(in_flight),
        }
    }

    /// The time of a message of `size` bytes leaving with `in_flight` messages in flight (a
    /// draw from `rng` only when the time is random).
    #[inline(always)]
    pub fn draw(&mut self, machine: &Machine, size: f64, in_flight: usize, rng: &mut super::rng::Rng) -> f64 {
        match self.sampler(machine, size, in_flight) {
            Sampler::Const(t) => *t,
            s => s.sample(rng.unit()),
        }
    }

    /// The sampler for a message of `size` bytes leaving with `in_flight` messages in flight.
    #[inline(always)]
    pub fn sampler(&mut self, machine: &Machine, size: f64, in_flight: usize) -> &Sampler {
        if size.to_bits() != self.last_bits {
            self.select(machine, size);
        }
        // `level` is below the number of levels (at least 1), and the row holds one per level.
        let level = self.level(in_flight);
        self.samplers.get(self.row + level).unwrap_or(&Sampler::Const(0.0))
    }

    /// Makes `size` the current one, building its samplers on its first use.
    #[inline(never)]
    fn select(&mut self, machine: &Machine, size: f64) {
        let bits = size.to_bits();
        let per_size = self.levels.len().max(1);
        let i = match self.sizes.iter().position(|&b| b == bits) {
            Some(i) => i,
            None => {
                self.sizes.push(bits);
                for level in 0..per_size {
                    let cfg = self.levels.get(level).map(|l| l.0);
                    let sampler = match (machine, cfg) {
                        (Machine::Fitted { latency_s, bandwidth_bytes_s }, _) => {
                            Sampler::Const(latency_s + size / bandwidth_bytes_s)
                        }
                        (Machine::Histograms { configs, .. }, Some(c)) => match configs.get(c) {
                            Some(c) => Sampler::new(c.at_size(size), self.mode),
                            None => Sampler::Const(0.0),
                        },
                        _ => Sampler::Const(0.0),
                    };
                    self.samplers.push(sampler);
                }
                self.sizes.len() - 1
            }
        };
        self.last_bits = bits;
        self.row = i * per_size;
    }
}

/// The Perseus-like preset (seed 001, section 3), constructed — not measured — so that it
/// shows the seed's facts until real histograms are pasted:
///
/// - Contention-free (2 × 1) time: a hard minimum T0(b) = 70 µs + b/W1 up to the 16 KB knee,
///   with W1 chosen so 16 KB messages achieve 81 Mbit/s (T0(16 KB) = 1.618 ms); beyond the
///   knee (MPICH's large-message protocol) the slope changes to W2 = 11.9 MB/s (≈ 95 Mbit/s
///   on the wire, near Fast Ethernet's 100 Mbit/s).
/// - Contention spreads times above T0: the mean is T0·(1 + c), c = c(n, p)·f(b) with
///   c(n, p) = 0.14·log2(n·p/2)·(1 + 0.3·(p − 1)) and f(b) = min(1, √(1 KB / b)), so a 1 KB
///   message at 64 × 1 takes 70 % longer on average than at 2 × 1, and large messages feel
///   less contention. The shape is a gamma density of shape 3 shifted to start at T0 (a
///   smooth rise from a hard minimum, a peak near the mean, a fast fall), binned in 24 bins.
/// - Backplane saturation: nodes fill switches of 24 ports, so with n > 24 the traffic between
///   two switches comes from min(n − 24, 24) nodes at min(p·8b/T0, 97 Mbit/s)·min(1, b/16 KB)
///   each (small messages are latency-bound and leave the wire mostly idle). Once it
///   passes 90 % of the 2.1 Gbit/s backplane, the mean stretches by 1 + 4·(load − 0.9):
///   64 × 1 (24 nodes crossing) starts to degrade at about 16 KB (24 × 81 Mbit/s = 93 %),
///   32 × 1 (8 crossing) does not.
/// - Retransmission outliers: on a saturated backplane a fraction 1e-3·(load − 0.9) of
///   messages (at most 1e-3) lands 200 ms after the slowest ordinary time (Linux's minimum TCP retransmission
///   timeout). The seed's small-message MPI_Isend distributions show no such tail, so below
///   saturation there are none.
///
/// Configurations n × p for n = 2, 4, …, 64 and p = 1, 2; sizes 0 B to 1 MB.
pub fn perseus() -> Machine {
    const SIZES: [f64; 9] = [0.0, 64.0, 256.0, 1024.0, 4096.0, 16384.0, 65536.0, 262144.0, 1048576.0];
    const KNEE: f64 = 16384.0;
    let w1 = KNEE / (KNEE * 8.0 / 81e6 - 70e-6);
    let w2 = 11.9e6;
    let t0 = |b: f64| if b <= KNEE { 70e-6 + b / w1 } else { 70e-6 + KNEE / w1 + (b - KNEE) / w2 };
    let mut configs = Vec::new();
    for p in [1u32, 2] {
        for n in [2u32, 4, 8, 16, 32, 64] {
            let np = (n * p) as f64;
            let c_np = 0.14 * (np / 2.0).log2() * (1.0 + 0.3 * (p as f64 - 1.0));
            let sizes = SIZES
                .iter()
                .map(|&b| {
                    let base = t0(b);
                    let f = if b <= 1024.0 { 1.0 } else { (1024.0 / b).sqrt() };
                    // Small messages are latency-bound and leave the wire mostly idle: they load
                    // the backplane in proportion to their size up to the 16 KB knee.
                    let node_rate = (p as f64 * b * 8.0 / base).min(97e6) * (b / KNEE).min(1.0);
                    let crossing = (n.saturating_sub(24)).min(24) as f64;
                    let overload = (crossing * node_rate / 2.1e9 - 0.9).max(0.0);
                    let mean = base * (1.0 + c_np * f) * (1.0 + 4.0 * overload);
                    (b, Quantile::from_bins(&gamma_bins(base, mean - base, (1e-3 * overload).min(1e-3), 0.2)))
                })
                .collect();
            configs.push(Config { nodes: n, per_node: p, sizes });
        }
    }
    sort_configs(&mut configs);
    Machine::Histograms { name: "Perseus-like (constructed from Grove & Coddington)".into(), configs }
}

/// Configurations by n·p, then p (one sort, shared, so the pages carry its code once).
fn sort_configs(configs: &mut [Config]) {
    configs.sort_by_key(|c| (c.nodes as u64 * c.per_node as u64, c.per_node));
}

/// Bins of T0 + spread·X, X ~ Gamma(shape 3, mean 1), over [0, 4) in 24 bins, plus an outlier
/// bin of weight `p_out` at T0 + `rto_s`. A zero spread gives one narrow bin at T0.
fn gamma_bins(t0: f64, spread: f64, p_out: f64, rto_s: f64) -> Vec<(f64, f64, f64)> {
    let mut bins = Vec::new();
    if spread <= 1e-12 {
        bins.push((t0, t0 * 1.001 + 1e-9, 1.0 - p_out));
    } else {
        // CDF of Gamma(3, rate 3): 1 − e^{−3x}(1 + 3x + (3x)²/2).
        let cdf = |x: f64| 1.0 - (-3.0 * x).exp() * (1.0 + 3.0 * x + 4.5 * x * x);
        const K: usize = 24;
        let total = cdf(4.0);
        for k in 0..K {
            let (a, b) = (4.0 * k as f64 / K as f64, 4.0 * (k + 1) as f64 / K as f64);
            let w = (cdf(b) - cdf(a)) / total * (1.0 - p_out);
            bins.push((t0 + spread * a, t0 + spread * b, w));
        }
    }
    if p_out > 0.0 {
        // A retransmission comes on top of a slow ordinary transfer, after every ordinary bin.
        let last = bins.last().map_or(t0, |b| b.1);
        bins.push((last + rto_s, last + rto_s + 0.01, p_out));
    }
    bins
}

/// The preset as an MPIBench-style table (µs), for people to read or edit and paste back.
pub fn to_table(machine: &Machine) -> String {
    let mut s = String::from("size_bytes\tn\tp\tlow_us\thigh_us\tcount\n");
    if let Machine::Histograms { configs, .. } = machine {
        for c in configs {
            for (size, q) in &c.sizes {
                let mut prev = 0.0;
                for i in 0..q.cum.len() {
                    let w = (q.cum[i] - prev) * 1e6;
                    prev = q.cum[i];
                    s.push_str(&format!(
                        "{size}\t{}\t{}\t{:.3}\t{:.3}\t{:.1}\n",
                        c.nodes,
                        c.per_node,
                        q.lo[i] * 1e6,
                        q.hi[i] * 1e6,
                        w
                    ));
                }
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hist(text: &str) -> Machine {
        Machine::from_histograms("histograms", "test", text).unwrap()
    }

    fn mean_at(m: &Machine, np: u64, p: u32, size: f64) -> f64 {
        let Machine::Histograms { configs, .. } = m else { panic!() };
        let c = configs.iter().find(|c| c.nodes as u64 * c.per_node as u64 == np && c.per_node == p).unwrap();
        c.at_size(size).mean()
    }

    #[test]
    fn histogram_errors_name_line_and_column() {
        let cases = [
            // Columns are characters, where the cell starts (issue 45, item 21).
            ("1024 2 1 10 20 5\n1024 2 1 15 30 5", 2, 10, "overlap"),
            ("1024 2 1 10 10 5", 1, 13, "empty bin"),
            ("1024 2 1 10 20 0\n1024 2 1 20 30 0", 1, 16, "empty histogram"),
            ("1024 0 1 10 20 5", 1, 6, "n (nodes)"),
            ("1024 2 1 10 20 -1", 1, 16, "count"),
            ("-5 2 1 10 20 1", 1, 1, "message size"),
            ("1024 2 1 10 20", 1, 15, "at least 6 expected"),
        ];
        for (text, line, col, msg) in cases {
            let e = Machine::from_histograms("histograms", "t", text).unwrap_err();
            assert_eq!((e.line, e.column), (Some(line), Some(col)), "{text}: {e}");
            assert!(e.message.contains(msg), "{text}: {e}");
        }
    }

    #[test]
    fn header_units_and_quantiles() {
        // Two bins: 1/4 of the weight on [1, 2) ms, 3/4 on [3, 5) ms.
        let m = hist("size (B), n, p, low (ms), high (ms), count\n100, 2, 1, 1, 2, 1\n100, 2, 1, 3, 5, 3\n");
        let Machine::Histograms { configs, .. } = &m else { panic!() };
        let q = &configs[0].sizes[0].1;
        assert_eq!(q.at(0.0), 1e-3);
        assert!((q.at(0.125) - 1.5e-3).abs() < 1e-15);
        assert!((q.at(0.625) - 4e-3).abs() < 1e-15);
        assert!((q.mean() - (0.25 * 1.5e-3 + 0.75 * 4e-3)).abs() < 1e-15);
        assert_eq!(q.min(), 1e-3);
    }

    #[test]
    fn sizes_interpolate_in_quantile_space_and_extrapolate_as_a_shift() {
        let m = hist("0 2 1 10 20 1\n1000 2 1 30 60 1\n2000 2 1 50 100 1\n");
        let Machine::Histograms { configs, .. } = &m else { panic!() };
        let c = &configs[0];
        let q = c.at_size(500.0);
        assert!((q.at(0.0) - 20e-6).abs() < 1e-15 && (q.at(0.5) - 30e-6).abs() < 1e-15);
        // Above 2000 B: the mean grows 30 µs per 1000 B between 1000 and 2000 B (45 → 75 µs).
        let q = c.at_size(3000.0);
        assert!((q.mean() - 105e-6).abs() < 1e-12, "{}", q.mean());
        assert!((q.min() - 80e-6).abs() < 1e-12, "a shift keeps the spread: {}", q.min());
        assert!((c.at_size(-1.0).min() - 10e-6).abs() < 1e-18);
    }

    #[test]
    fn blend_is_exact_with_different_breakpoints() {
        let a = Quantile::from_bins(&[(0.0, 1.0, 1.0), (1.0, 2.0, 1.0)]);
        let b = Quantile::from_bins(&[(10.0, 11.0, 1.0), (11.0, 12.0, 2.0), (12.0, 13.0, 1.0)]);
        let c = Quantile::blend(&a, &b, 0.25);
        for k in 0..100 {
            let u = k as f64 / 100.0;
            let want = 0.75 * a.at(u) + 0.25 * b.at(u);
            assert!((c.at(u) - want).abs() < 1e-12, "u {u}: {} vs {want}", c.at(u));
        }
        assert!((c.mean() - (0.75 * a.mean() + 0.25 * b.mean())).abs() < 1e-12);
    }

    #[test]
    fn contention_levels_pick_the_smallest_configuration_that_holds_the_traffic() {
        let m = hist("8 2 1 1 2 1\n8 8 1 3 4 1\n8 4 2 5 6 1\n8 32 1 7 8 1\n");
        let mut r = RunMachine::new(&m, 16, 1, Mode::Minimum, Contention::Moment);
        let mut at = |k: usize| r.sampler(&m, 8.0, k).sample(0.0);
        let us = |t: f64| (t * 1e6).round();
        assert_eq!([at(1), at(2), at(3), at(8), at(9), at(100)].map(us), [1.0, 1.0, 3.0, 3.0, 7.0, 7.0]);
        let mut r = RunMachine::new(&m, 16, 1, Mode::Minimum, Contention::Configuration);
        assert_eq!(us(r.sampler(&m, 8.0, 1).sample(0.0)), 7.0);
        let mut r = RunMachine::new(&m, 16, 2, Mode::Minimum, Contention::Moment);
        assert_eq!(us(r.sampler(&m, 8.0, 1).sample(0.0)), 5.0);
        let mut r = RunMachine::new(&m, 16, 2, Mode::Minimum, Contention::None);
        assert_eq!(us(r.sampler(&m, 8.0, 50).sample(0.0)), 1.0);
    }

    #[test]
    fn perseus_preset_shows_the_seeds_facts() {
        let m = perseus();
        // +70 % mean for 1 KB at 64 × 1 against 2 × 1 .
        let ratio = mean_at(&m, 64, 1, 1024.0) / mean_at(&m, 2, 1, 1024.0);
        assert!((1.68..1.72).contains(&ratio), "{ratio}");
        // 81 Mbit/s for 16 KB ping-pong at the minimum.
        let Machine::Histograms { configs, .. } = &m else { panic!() };
        let t16 = configs[0].at_size(16384.0).min();
        assert!((16384.0 * 8.0 / t16 / 1e6 - 81.0).abs() < 0.01, "{t16}");
        // The knee: the time per byte changes at 16 KB.
        let q = |b: f64| configs[0].at_size(b).min();
        let below = (q(16384.0) - q(4096.0)) / 12288.0;
        let above = (q(65536.0) - q(16384.0)) / 49152.0;
        assert!(below / above > 1.1, "{below} {above}");
        // Saturation at 64 × 1 from about 16 KB: contention then grows with size, not shrinks.
        let rel = |b: f64| mean_at(&m, 64, 1, b) / mean_at(&m, 2, 1, b);
        assert!(rel(65536.0) > 1.4 && rel(65536.0) > rel(16384.0), "{} {}", rel(16384.0), rel(65536.0));
        let rel32 = |b: f64| mean_at(&m, 32, 1, b) / mean_at(&m, 2, 1, b);
        assert!(rel32(65536.0) < rel32(16384.0), "{} {}", rel32(16384.0), rel32(65536.0));
        // Outliers at the retransmission timeout under severe contention only.
        let worst = |np: u64, p: u32, b: f64| {
            let c = configs.iter().find(|c| c.nodes as u64 * c.per_node as u64 == np && c.per_node == p).unwrap();
            c.at_size(b).at(0.999_999_9)
        };
        assert!(worst(64, 1, 65536.0) > 0.2 && worst(64, 1, 1024.0) < 0.01 && worst(16, 1, 65536.0) < 0.1);
        // Round trip through the table form.
        let back = Machine::from_histograms("h", "p", &to_table(&m)).unwrap();
        let r = mean_at(&back, 64, 1, 1024.0) / mean_at(&m, 64, 1, 1024.0);
        assert!((r - 1.0).abs() < 1e-3, "{r}");
    }
}

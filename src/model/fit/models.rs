//! The speed-up models of seed 004 (Lan 2007, chapter 3, eqs. 3.1–3.7) and beyond it, each a
//! unit type implementing [`Family`] and a name in [`with_families!`]'s list: their shapes S(n),
//! the value fitted in either space (a speed-up, or a time T1/S(n)), the Jacobian of that value
//! in closed form, and gradients by central differences for the bands' delta method.
//!
//! - Downey (A = average parallelism ≥ 1, σ = variance coefficient ≥ 0), low variance σ ≤ 1:
//!   S = A·n/(A + σ/2·(n−1)) for n ≤ A, A·n/(σ(A−½) + n(1−σ/2)) for A ≤ n ≤ 2A−1, A beyond;
//!   high variance σ ≥ 1: S = n·A(σ+1)/(σ(n+A−1) + A) for n ≤ A + Aσ − σ, A beyond
//!   (thesis eqs. 3.5 and 3.7). The two agree at σ = 1; σ = 0 is min(n, A) and σ → ∞ is
//!   A·n/(A + n − 1).
//! - Amdahl/Dowdy: T(n) = c1 + c2/n (eq. 3.1), c1, c2 ≥ 0; for speed-ups S = 1/(c1 + c2/n),
//!   c1 and c2 in units of T(1). Started by linear least squares in 1/n, then polished on the
//!   same residuals as the others.
//! - Chiang: S = (1+β)n/(n+β), β ≥ 0 (eq. 3.2).
//! - Smirni: S = (1−rⁿ)/(1−r), 0 ≤ r ≤ 1 (eq. 3.3).
//! - USL, Gunther's universal scalability law (beyond the thesis): S = n/(1 + σ(n−1) + κn(n−1)),
//!   σ, κ ≥ 0; it can fall after its peak.
//!
//! Parameters travel as `[f64; 4]`: the shape parameters first (as [`Family::PARAMS`] names
//! them), then T1 in seconds when it is fitted (times without an n = 1 run). Amdahl fitted to
//! times is T(n) = c1 + c2/n itself, c1 and c2 in seconds.

/// How a family's fit starts; the solver (`lm.rs`) follows it, the family only says which.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// From the point of the family's [`Family::grid`] with the lowest squared error, for each
    /// data set: the way of any family without a reason for another.
    Grid,
    /// The shape is 1/(c1 + c2/n): fitted to times, T(n) = c1 + c2/n is a line in 1/n, run
    /// from the data's own weighted line, and T1 = c1 + c2 is no parameter of its own.
    /// Amdahl's.
    Line,
    /// Downey's: the classic starts either side of σ = 1, then searches along the breaks of
    /// his piecewise curve (σ = 0, σ = 1, n = A, n = 2A − 1, n = A + Aσ − σ).
    Ridges,
}

/// One family of speed-up curves S(n): all that fitting, the charts, the calibration, the
/// help and the page know of it. A family is a unit type implementing this, and one line in
/// [`families!`]'s list; the rest (the [`Model`] variant, [`MODELS`], every dispatch) is made
/// from the list.
pub trait Family {
    /// The name used in the CLI and in field values (lower case, one word).
    const NAME: &'static str;
    /// The name as the page shows it; its first word (up to a '/' or ' ') names it in
    /// sentences (as "Amdahl" for "Amdahl/Dowdy").
    const LABEL: &'static str;
    /// Its line in `scalewise speedup --help`, after its name: the curve and the parameters'
    /// ranges (the parameters named as [`Family::PARAMS`] names them).
    const HELP: &'static str;
    /// Names of the shape parameters, at most two (a fitted T1 comes after them).
    const PARAMS: &'static [&'static str];
    /// Lower and upper bounds of the shape parameters.
    const BOUNDS: ([f64; 2], [f64; 2]);
    /// Whether the speed-up can fall as n grows (then the points past the peak are fitted too).
    const CAN_DECLINE: bool = false;
    const START: Start = Start::Grid;
    /// What every point's value of one curve shares, worked out once per parameter set
    /// (Smirni's ln r); 0 when nothing is.
    fn shared(_p: &[f64; 4]) -> f64 {
        0.0
    }
    /// The speed-up at n for shape parameters `p`, with `sh` = [`Family::shared`]`(p)`.
    fn shape(p: &[f64; 4], sh: f64, n: f64) -> f64;
    /// [`Family::shape`] and its derivatives by the shape parameters, in closed form.
    fn shape_grad(p: &[f64; 4], sh: f64, n: f64) -> (f64, [f64; 2]);
    /// The shape parameters a [`Start::Grid`] fit searches for its start.
    fn grid() -> Vec<[f64; 4]> {
        Vec::new()
    }
}

/// "a, b and c" of the first words of the `labels` whose `chosen` is true, as a `&'static str`
/// made when compiling (see [`list_len`] and [`list_bytes`]).
macro_rules! and_list {
    ($labels:expr, $chosen:expr) => {{
        const LABELS: &[&str] = &$labels;
        const CHOSEN: &[bool] = &$chosen;
        const BYTES: [u8; list_len(LABELS, CHOSEN)] = list_bytes(LABELS, CHOSEN);
        match core::str::from_utf8(&BYTES) {
            Ok(text) => text,
            Err(_) => panic!("a label's first word is cut inside a character"),
        }
    }};
}

/// A label's first word: the bytes up to its first '/' or ' '.
const fn first_word(label: &str) -> &[u8] {
    let bytes = label.as_bytes();
    let mut i = 0;
    while i < bytes.len() && bytes[i] != b'/' && bytes[i] != b' ' {
        i += 1;
    }
    bytes.split_at(i).0
}

/// Writes "a, b and c" of the chosen labels' first words into `out` (when given) and answers
/// its length.
const fn list_into(labels: &[&str], chosen: &[bool], mut out: Option<&mut [u8]>) -> usize {
    let total = {
        let mut count = 0;
        let mut i = 0;
        while i < labels.len() {
            count += chosen[i] as usize;
            i += 1;
        }
        count
    };
    let (mut at, mut written, mut i) = (0, 0, 0);
    while i < labels.len() {
        if chosen[i] {
            let sep: &[u8] = match (written, total - written) {
                (0, _) => b"",
                (_, 1) => b" and ",
                _ => b", ",
            };
            let word = first_word(labels[i]);
            let mut j = 0;
            while j < sep.len() + word.len() {
                if let Some(out) = &mut out {
                    out[at] = if j < sep.len() { sep[j] } else { word[j - sep.len()] };
                }
                at += 1;
                j += 1;
            }
            written += 1;
        }
        i += 1;
    }
    at
}

/// The length of [`list_bytes`]'s text.
const fn list_len(labels: &[&str], chosen: &[bool]) -> usize {
    list_into(labels, chosen, None)
}

/// "a, b and c" of the chosen labels' first words, as bytes.
const fn list_bytes<const N: usize>(labels: &[&str], chosen: &[bool]) -> [u8; N] {
    let mut out = [0; N];
    list_into(labels, chosen, Some(&mut out));
    out
}

/// Every one but the first.
const fn not_first<const N: usize>(_: [bool; N]) -> [bool; N] {
    let mut out = [true; N];
    out[0] = false;
    out
}

/// Makes the [`Model`] enum, [`MODELS`] and the dispatch to each [`Family`] from the one list
/// of families.
macro_rules! families {
    ([$($family:ident),*]) => {
        /// A speed-up model: one variant per [`Family`], named as its type.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
        pub enum Model {
            $($family),*
        }

        /// Every model, in the list's order: fits, tables, charts and the calibration follow it.
        pub const MODELS: [Model; [$(stringify!($family)),*].len()] = [$(Model::$family),*];

        impl Model {
            /// The name used in the CLI and in field values.
            pub fn name(self) -> &'static str {
                match self { $(Model::$family => $family::NAME),* }
            }
            /// The name as the page shows it.
            pub fn label(self) -> &'static str {
                match self { $(Model::$family => $family::LABEL),* }
            }
            /// Names of the shape parameters (without a fitted T1).
            pub fn param_names(self) -> &'static [&'static str] {
                match self { $(Model::$family => $family::PARAMS),* }
            }
            /// Its line in `scalewise speedup --help`: the curve and the parameters' ranges.
            pub fn help(self) -> &'static str {
                match self { $(Model::$family => $family::HELP),* }
            }
            /// Whether the model's speed-up can fall as n grows.
            pub fn can_decline(self) -> bool {
                match self { $(Model::$family => $family::CAN_DECLINE),* }
            }
            /// Lower and upper bounds of the shape parameters.
            pub(super) fn bounds(self) -> ([f64; 2], [f64; 2]) {
                match self { $(Model::$family => $family::BOUNDS),* }
            }
            /// How its fit starts.
            #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
            pub(super) fn start(self) -> Start {
                match self { $(Model::$family => $family::START),* }
            }
            /// The grid of its [`Start::Grid`] fit's starts.
            pub(super) fn grid(self) -> Vec<[f64; 4]> {
                match self { $(Model::$family => $family::grid()),* }
            }
        }

        /// The families that cannot fall, by their labels' first words, as a sentence lists them
        /// ("Downey, Amdahl, …"): made when compiling, so the page pays for the
        /// text alone.
        pub const CANNOT_FALL: &str = and_list!([$($family::LABEL),*], [$(!$family::CAN_DECLINE),*]);
        /// The families that can fall, likewise ("USL").
        pub const CAN_FALL: &str = and_list!([$($family::LABEL),*], [$($family::CAN_DECLINE),*]);
        /// Every family but the first (Downey's, the seed's), likewise: its rivals.
        pub const RIVALS: &str = and_list!([$($family::LABEL),*], not_first([$($family::CAN_DECLINE),*]));

        /// The [`Shared`] part of the model's curve at shape parameters `p`.
        #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
        pub(super) fn shared(model: Model, p: &[f64; 4]) -> Shared {
            Shared(match model { $(Model::$family => $family::shared(p)),* })
        }

        /// [`shape`] with the curve's [`Shared`] part given.
        #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
        pub(super) fn shape_at(model: Model, p: &[f64; 4], sh: Shared, n: f64) -> f64 {
            match model { $(Model::$family => $family::shape(p, sh.0, n)),* }
        }

        /// The shape's speed-up at n and its derivatives by the shape parameters, in closed form.
        #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
        fn shape_grad(model: Model, p: &[f64; 4], sh: Shared, n: f64) -> (f64, [f64; 2]) {
            match model { $(Model::$family => $family::shape_grad(p, sh.0, n)),* }
        }
    };
}

/// **The list of speed-up model families**, handed to `$then!` after the tokens given (as
/// `calculator_table!` hands on the calculators). Adding a family: its type and `impl Family`
/// below, and its name here; [`families!`] and the fits' specialised loops (`lm.rs`) are made
/// from it.
macro_rules! with_families {
    ($then:ident!($($args:tt)*)) => {
        $then! { $($args)* [Downey, Amdahl, Chiang, Smirni, Usl] }
    };
}

with_families!(families!());

impl Model {
    pub fn from_name(s: &str) -> Option<Model> {
        MODELS.iter().copied().find(|m| m.name().eq_ignore_ascii_case(s.trim()))
    }
    /// The speed-up at n of the model with these shape parameters (as `param_names` lists
    /// them).
    pub fn speedup(self, params: &[f64], n: f64) -> f64 {
        let mut p = [0.0; 4];
        for (slot, v) in p.iter_mut().zip(params) {
            *slot = *v;
        }
        shape(self, &p, n)
    }
}

/// Downey's speed-up for a workload of average parallelism A and variance σ (eqs. 3.5, 3.7).
pub struct Downey;

impl Family for Downey {
    const NAME: &'static str = "downey";
    const LABEL: &'static str = "Downey";
    const HELP: &'static str = "A (average parallelism ≥ 1), sigma (≥ 0): low variance for sigma ≤ 1, high above";
    const PARAMS: &'static [&'static str] = &["A", "sigma"];
    const BOUNDS: ([f64; 2], [f64; 2]) = ([1.0, 0.0], [1e7, 1e4]);
    const START: Start = Start::Ridges;
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn shape(p: &[f64; 4], _: f64, n: f64) -> f64 {
        downey(p[0], p[1], n)
    }
    /// On a break of the piecewise curve the derivative is the piece's that holds at n.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn shape_grad(p: &[f64; 4], _: f64, n: f64) -> (f64, [f64; 2]) {
        let s = downey(p[0], p[1], n);
        let (a, sg) = (p[0], p[1]);
        // One division per piece: what both derivatives share.
        let d = if sg <= 1.0 {
            if n <= a {
                let den = a + sg / 2.0 * (n - 1.0);
                let q = n * (n - 1.0) / 2.0 / (den * den);
                [sg * q, -a * q]
            } else if n <= 2.0 * a - 1.0 {
                let den = sg * (a - 0.5) + n * (1.0 - sg / 2.0);
                let q = n / (den * den);
                [(den - a * sg) * q, -a * (a - 0.5 - n / 2.0) * q]
            } else {
                [1.0, 0.0]
            }
        } else if n <= a + a * sg - sg {
            let den = sg * (n + a - 1.0) + a;
            let q = n * (n - 1.0) / (den * den);
            [(sg + 1.0) * sg * q, -a * q]
        } else {
            [1.0, 0.0]
        };
        (s, d)
    }
}

/// Amdahl's law in Dowdy's form, S(n) = 1/(c1 + c2/n) (eq. 3.1).
pub struct Amdahl;

impl Family for Amdahl {
    const NAME: &'static str = "amdahl";
    const LABEL: &'static str = "Amdahl/Dowdy";
    const HELP: &'static str = "Amdahl/Dowdy T(n) = c1 + c2/n; for speed-ups S = 1/(c1 + c2/n) (c in units of T(1))";
    const PARAMS: &'static [&'static str] = &["c1", "c2"];
    const BOUNDS: ([f64; 2], [f64; 2]) = ([0.0, 0.0], [1e300, 1e300]);
    const START: Start = Start::Line;
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn shape(p: &[f64; 4], _: f64, n: f64) -> f64 {
        1.0 / (p[0] + p[1] / n).max(1e-300)
    }
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn shape_grad(p: &[f64; 4], sh: f64, n: f64) -> (f64, [f64; 2]) {
        let s = Self::shape(p, sh, n);
        let den = p[0] + p[1] / n;
        (s, if den > 1e-300 { [-s * s, -s * s / n] } else { [0.0, 0.0] })
    }
}

/// Chiang's speed-up, (1 + β)n/(n + β) (eq. 3.3).
pub struct Chiang;

impl Family for Chiang {
    const NAME: &'static str = "chiang";
    const LABEL: &'static str = "Chiang";
    const HELP: &'static str = "S = (1 + beta)·n/(n + beta), beta ≥ 0";
    const PARAMS: &'static [&'static str] = &["beta"];
    const BOUNDS: ([f64; 2], [f64; 2]) = ([0.0, 0.0], [1e9, 0.0]);
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn shape(p: &[f64; 4], _: f64, n: f64) -> f64 {
        (1.0 + p[0]) * n / (n + p[0])
    }
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn shape_grad(p: &[f64; 4], sh: f64, n: f64) -> (f64, [f64; 2]) {
        (Self::shape(p, sh, n), [n * (n - 1.0) / ((n + p[0]) * (n + p[0])), 0.0])
    }
    /// β = 0 and 10⁻³ … 10⁹ by quarter decades.
    fn grid() -> Vec<[f64; 4]> {
        (0..=49).map(|i| [if i == 0 { 0.0 } else { exp10(-3.0 + 0.25 * f64::from(i - 1)) }, 0.0, 0.0, 0.0]).collect()
    }
}

/// Smirni's speed-up, (1 − rⁿ)/(1 − r) (eq. 3.4).
pub struct Smirni;

impl Family for Smirni {
    const NAME: &'static str = "smirni";
    const LABEL: &'static str = "Smirni";
    const HELP: &'static str = "S = (1 − r^n)/(1 − r), 0 ≤ r ≤ 1";
    const PARAMS: &'static [&'static str] = &["r"];
    const BOUNDS: ([f64; 2], [f64; 2]) = ([0.0, 0.0], [1.0, 0.0]);
    /// ln r: a logarithm per point saved.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn shared(p: &[f64; 4]) -> f64 {
        smirni_log(p[0])
    }
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn shape(p: &[f64; 4], sh: f64, n: f64) -> f64 {
        smirni_at(p[0], sh, n)
    }
    /// The speed-up and its slope from the one rⁿ.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn shape_grad(p: &[f64; 4], sh: f64, n: f64) -> (f64, [f64; 2]) {
        let (s, ds) = smirni_grad(p[0], sh, n);
        (s, [ds, 0.0])
    }
    /// r = 0, 0.1, …, 0.9, then 1 − 10⁻¹ … 1 − 10⁻⁹ by quarter decades, and 1.
    fn grid() -> Vec<[f64; 4]> {
        (0..=43)
            .map(|i| {
                let r = match i {
                    0..=9 => f64::from(i) / 10.0,
                    43 => 1.0,
                    _ => 1.0 - exp10(-1.0 - 0.25 * f64::from(i - 10)),
                };
                [r, 0.0, 0.0, 0.0]
            })
            .collect()
    }
}

/// Gunther's universal scalability law, n/(1 + σ(n − 1) + κn(n − 1)), whose speed-up can fall.
pub struct Usl;

impl Family for Usl {
    const NAME: &'static str = "usl";
    const LABEL: &'static str = "USL (Gunther)";
    const HELP: &'static str = "S = n/(1 + sigma(n−1) + kappa·n(n−1)), sigma, kappa ≥ 0";
    const PARAMS: &'static [&'static str] = &["sigma", "kappa"];
    const BOUNDS: ([f64; 2], [f64; 2]) = ([0.0, 0.0], [100.0, 100.0]);
    const CAN_DECLINE: bool = true;
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn shape(p: &[f64; 4], _: f64, n: f64) -> f64 {
        n / (1.0 + p[0] * (n - 1.0) + p[1] * n * (n - 1.0))
    }
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn shape_grad(p: &[f64; 4], sh: f64, n: f64) -> (f64, [f64; 2]) {
        let den = 1.0 + p[0] * (n - 1.0) + p[1] * n * (n - 1.0);
        let f = -n * (n - 1.0) / (den * den);
        (Self::shape(p, sh, n), [f, f * n])
    }
    /// σ = 0 and 10⁻⁴ … 10², κ = 0 and 10⁻⁸ … 10², by half decades.
    fn grid() -> Vec<[f64; 4]> {
        let axis = |from: f64, count: u32| {
            (0..=count).map(move |i| if i == 0 { 0.0 } else { exp10(from + 0.5 * f64::from(i - 1)) })
        };
        let kappas: Vec<f64> = axis(-8.0, 21).collect();
        let mut grid = Vec::new();
        for sg in axis(-4.0, 13) {
            for &kappa in &kappas {
                grid.push([sg, kappa, 0.0, 0.0]);
            }
        }
        grid
    }
}

/// 10ˣ as eˣ ˡⁿ ¹⁰ (`powf` would add libm's pow to the page).
fn exp10(x: f64) -> f64 {
    (x * std::f64::consts::LN_10).exp()
}

/// Downey's low-variance speed-up (σ ≤ 1), eq. 3.5. Requires A ≥ 1, σ ≥ 0, n ≥ 1.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub fn downey_low(a: f64, sigma: f64, n: f64) -> f64 {
    if n <= a {
        a * n / (a + sigma / 2.0 * (n - 1.0))
    } else if n <= 2.0 * a - 1.0 {
        a * n / (sigma * (a - 0.5) + n * (1.0 - sigma / 2.0))
    } else {
        a
    }
}

/// Downey's high-variance speed-up (σ ≥ 1), eq. 3.7. Requires A ≥ 1, σ ≥ 0, n ≥ 1.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub fn downey_high(a: f64, sigma: f64, n: f64) -> f64 {
    if n <= a + a * sigma - sigma {
        n * a * (sigma + 1.0) / (sigma * (n + a - 1.0) + a)
    } else {
        a
    }
}

/// Downey's speed-up, the variant chosen by σ.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub fn downey(a: f64, sigma: f64, n: f64) -> f64 {
    if sigma <= 1.0 {
        downey_low(a, sigma, n)
    } else {
        downey_high(a, sigma, n)
    }
}

/// Smirni's (1 − rⁿ)/(1 − r), computed without cancellation near r = 1 (where it is n).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub fn smirni(r: f64, n: f64) -> f64 {
    smirni_at(r, smirni_log(r), n)
}

/// ln r for [`smirni_at`] (as ln(1 − d), d = 1 − r, without cancellation near r = 1); zero
/// where Smirni's curve does not use it (r ≤ 0, or r within 10⁻¹² of 1).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn smirni_log(r: f64) -> f64 {
    let d = 1.0 - r;
    if d < 1e-12 || r <= 0.0 {
        0.0
    } else {
        (-d).ln_1p()
    }
}

/// [`smirni`] with its ln r, `l`, given: rⁿ = e^(n·l).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn smirni_at(r: f64, l: f64, n: f64) -> f64 {
    let d = 1.0 - r;
    if d < 1e-12 {
        n
    } else if r <= 0.0 {
        1.0
    } else {
        -(n * l).exp_m1() / d
    }
}

/// Smirni's speed-up at n (as [`smirni`], to the bit) and its derivative by r, from the one
/// rⁿ (its ln r, `l`, from [`smirni_log`]). S′ = (S − n·rⁿ⁻¹)/(1 − r) cancels where rⁿ is near
/// 1; there (n(1 − r) < 10⁻⁴) its series in d = 1 − r is used: C(n,2) − 2·C(n,3)·d +
/// 3·C(n,4)·d², within 10⁻¹³ of it.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn smirni_grad(r: f64, l: f64, n: f64) -> (f64, f64) {
    let d = 1.0 - r;
    let series = || {
        let c2 = n * (n - 1.0) / 2.0;
        c2 - d * c2 * (n - 2.0) * (2.0 / 3.0) + d * d * c2 * (n - 2.0) * (n - 3.0) / 4.0
    };
    if d < 1e-12 {
        (n, series())
    } else if r <= 0.0 {
        // (1 − rⁿ)/(1 − r) = 1 + r + … for n > 1: slope 1 at r = 0.
        (1.0, if n > 1.0 { 1.0 } else { 0.0 })
    } else {
        let e = (n * l).exp_m1();
        let s = -e / d;
        (s, if n * d < 1e-4 { series() } else { (s - n * (1.0 + e) / r) / d })
    }
}

/// What every point's value of one curve shares, worked out once per parameter set by
/// [`shared`]: Smirni's ln r (a logarithm per point saved); nothing for the other models.
#[derive(Clone, Copy)]
pub(super) struct Shared(f64);

/// The model's speed-up shape at n for shape parameters `p` (Amdahl: 1/(c1 + c2/n)).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn shape(model: Model, p: &[f64; 4], n: f64) -> f64 {
    shape_at(model, p, shared(model, p), n)
}

/// What the residuals are measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// Speed-ups (given, or T(1)/T(n) from times with an n = 1 run).
    Speedup,
    /// Times in seconds, without an n = 1 run: T1 is a fitted parameter.
    Time,
}

/// The kind of values the user gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    Speedup,
    TimeS,
}

/// The fitted value of a model at n: speed-up in [`Space::Speedup`], time in [`Space::Time`].
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn value(model: Model, space: Space, p: &[f64; 4], n: f64) -> f64 {
    match (space, model) {
        (Space::Speedup, _) => shape(model, p, n),
        (Space::Time, m) if m.start() == Start::Line => p[0] + p[1] / n,
        (Space::Time, _) => p[model.param_names().len()] / shape(model, p, n),
    }
}

/// Speed-up at n of a model with parameters p fitted in `space`.
pub(super) fn speedup_of(model: Model, space: Space, p: &[f64; 4], n: f64) -> f64 {
    match (space, model) {
        (Space::Time, m) if m.start() == Start::Line => (p[0] + p[1]) / (p[0] + p[1] / n).max(1e-300),
        _ => shape(model, p, n),
    }
}

/// The fitted value at n (as [`value`]) and its derivatives by the first `k` parameters: one
/// row of the Jacobian, in closed form (see [`shape_grad`]); `sh` is [`shared`]`(model, p)`.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn value_grad(model: Model, space: Space, p: &[f64; 4], sh: Shared, k: usize, n: f64) -> (f64, [f64; 4]) {
    let mut out = [0.0; 4];
    match (space, model) {
        (Space::Time, m) if m.start() == Start::Line => {
            out[0] = 1.0;
            out[1] = 1.0 / n;
            (p[0] + p[1] / n, out)
        }
        (Space::Speedup, _) => {
            let (s, d) = shape_grad(model, p, sh, n);
            out[..k.min(2)].copy_from_slice(&d[..k.min(2)]);
            (s, out)
        }
        (Space::Time, _) => {
            // T = T1/S: dT/dθ = −T1/S² · dS/dθ, dT/dT1 = 1/S.
            let (s, d) = shape_grad(model, p, sh, n);
            let t1 = k - 1;
            let t = p[t1] / s;
            for j in 0..t1 {
                out[j] = -t / s * d[j];
            }
            out[t1] = 1.0 / s;
            (t, out)
        }
    }
}

/// The gradient of `f` at the first `k` parameters of `p` by central differences, one-sided
/// where a step would cross a bound of [`lo`, `hi`]; zero along a parameter pinned between
/// equal bounds. The delta method of the fits' bands uses it; tests check the closed-form
/// Jacobian rows against it.
pub(super) fn gradient(p: &[f64; 4], lo: &[f64; 4], hi: &[f64; 4], k: usize, f: &dyn Fn(&[f64; 4]) -> f64) -> [f64; 4] {
    let mut out = [0.0; 4];
    for j in 0..k {
        let h = 1e-6 * p[j].abs().max(1e-6);
        let (mut a, mut b) = (*p, *p);
        a[j] = (p[j] + h).min(hi[j]);
        b[j] = (p[j] - h).max(lo[j]);
        let d = a[j] - b[j];
        out[j] = if d > 0.0 { (f(&a) - f(&b)) / d } else { 0.0 };
    }
    out
}

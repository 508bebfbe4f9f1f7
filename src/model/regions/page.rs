//! Everything the two-regions page shows: speed-up curves for one and two regions per problem
//! size, the optimum and n½, sweeps over the bandwidth between the regions, and the
//! required-bandwidth verdicts. [`parse`] reads every field once into typed [`Inputs`],
//! [`evaluate`] computes; the page renders what [`view`] returns, so every number on screen is
//! tested here, natively.
//!
//! Inputs (field names, also the keys of share links and workspace files):
//! - `form`: `application` (#op, #b, #x as formulas of N) or `balance` (x', z, z' directly);
//!   only the chosen form's fields are read;
//! - application: `ops`, `bytes`, `exchanged` (formulas of N), `sizes` (problem sizes N,
//!   one curve each);
//! - balance: `x_prime` (one or more values, one curve each), `z`, `z_prime`, and `zp_bw`,
//!   the B_E (GB/s) at which that z' holds (z' scales linearly with B_E);
//! - system: `peak` (l_th, GFlop/s per core), `node_bw` (b_l, GB/s), `ref_bw` (b0_l, GB/s),
//!   `region_bw` (B_E, GB/s: the bandwidth the slider moves), `alpha` (p(n) = α·n);
//! - `n_max` (curves run from 1 to n_max cores per region), `two_region_x` (`scaled` or
//!   `slides`, see `regions`), `overlap` (`1` also draws the overlapping variants);
//! - sweep: `sweep_min`, `sweep_max` (GB/s), `sweep_points`;
//! - required bandwidth: `req_n` (cores per region), `req_fraction` (%), and a planned link
//!   `planned_min`, `planned_max` (GB/s; empty: no planned link).

use std::collections::BTreeMap;

use crate::model::catalog::Catalog;
use crate::model::error::{fmt_num, InputError};
use crate::model::input::list::{self, clip, ListSpec};
use crate::model::input::table::parse_number;
use crate::model::regions::{
    bandwidth_warning, check_cores, Application, Balance, Formula, LoadFactor, NHalf, Optimum, ParsedApplication,
    Point, Regions, RequiredBandwidth, Requirement, System, SystemPreset, TwoRegionX, Warning, SYSTEM_PRESETS,
};
use crate::model::workspace::{text, FieldErrors, FieldSet, PageField, PageInputs, Preset};

pub const PAGE: &str = crate::model::calculators::REGIONS.key;
/// Most problem sizes (or x' values) drawn at once.
pub const MAX_CASES: usize = 8;
/// Most bandwidths in a sweep.
pub const MAX_SWEEP_POINTS: usize = 5000;
/// Points on each speed-up curve.
const CURVE_POINTS: usize = 160;
/// GB per MB of the catalog (MB = 2^20 bytes, GB = 10^9 bytes).
const GB_PER_MB: f64 = 1_048_576.0 / 1e9;

/// The page's input fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Form,
    Ops,
    Bytes,
    Exchanged,
    Sizes,
    XPrime,
    Z,
    ZPrime,
    ZpBw,
    Peak,
    NodeBw,
    RefBw,
    RegionBw,
    Alpha,
    NMax,
    TwoRegionX,
    Overlap,
    SweepMin,
    SweepMax,
    SweepPoints,
    ReqN,
    ReqFraction,
    PlannedMin,
    PlannedMax,
}

impl PageField for Field {
    const ALL: &'static [Field] = &[
        Field::Form,
        Field::Ops,
        Field::Bytes,
        Field::Exchanged,
        Field::Sizes,
        Field::XPrime,
        Field::Z,
        Field::ZPrime,
        Field::ZpBw,
        Field::Peak,
        Field::NodeBw,
        Field::RefBw,
        Field::RegionBw,
        Field::Alpha,
        Field::NMax,
        Field::TwoRegionX,
        Field::Overlap,
        Field::SweepMin,
        Field::SweepMax,
        Field::SweepPoints,
        Field::ReqN,
        Field::ReqFraction,
        Field::PlannedMin,
        Field::PlannedMax,
    ];

    fn key(self) -> &'static str {
        match self {
            Field::Form => "form",
            Field::Ops => "ops",
            Field::Bytes => "bytes",
            Field::Exchanged => "exchanged",
            Field::Sizes => "sizes",
            Field::XPrime => "x_prime",
            Field::Z => "z",
            Field::ZPrime => "z_prime",
            Field::ZpBw => "zp_bw",
            Field::Peak => "peak",
            Field::NodeBw => "node_bw",
            Field::RefBw => "ref_bw",
            Field::RegionBw => "region_bw",
            Field::Alpha => "alpha",
            Field::NMax => "n_max",
            Field::TwoRegionX => "two_region_x",
            Field::Overlap => "overlap",
            Field::SweepMin => "sweep_min",
            Field::SweepMax => "sweep_max",
            Field::SweepPoints => "sweep_points",
            Field::ReqN => "req_n",
            Field::ReqFraction => "req_fraction",
            Field::PlannedMin => "planned_min",
            Field::PlannedMax => "planned_max",
        }
    }
}

/// How the application is given, with the fields of that form (None: the field has an error).
#[derive(Debug, Clone, PartialEq)]
pub enum Form {
    /// #op, #b, #x as formulas of N at the problem sizes, on a system.
    Application {
        sizes: Option<Vec<f64>>,
        /// Boxed: its formulas (or their errors) make it far larger than the other form.
        application: Box<ParsedApplication>,
        peak_gflops_per_core: Option<f64>,
        node_bandwidth_gb_s: Option<f64>,
        reference_bandwidth_gb_s: Option<f64>,
    },
    /// The balance factors themselves, one curve per x'; z' holds at B_E = `z_prime_at_gb_s`.
    Balance { x_primes: Option<Vec<f64>>, z: Option<f64>, z_prime: Option<f64>, z_prime_at_gb_s: Option<f64> },
}

/// The bandwidths of the sweep: `points` of them, log-spaced from `min_gb_s` to `max_gb_s`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sweep {
    pub min_gb_s: f64,
    pub max_gb_s: f64,
    pub points: usize,
}

/// The page's inputs, each read once; None where the field has an error (the error is in the
/// [`FieldErrors`] that [`parse`] returns).
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    pub form: Form,
    pub two_region_x: Option<TwoRegionX>,
    pub overlap: bool,
    /// B_E now, GB/s.
    pub region_bw: Option<f64>,
    pub alpha: Option<f64>,
    pub n_max: Option<f64>,
    /// None also while the lowest bandwidth is not below the highest.
    pub sweep: Option<Sweep>,
    pub req_n: Option<f64>,
    /// A fraction (the field is in per cent).
    pub req_fraction: Option<f64>,
    /// The planned link's range, GB/s; None when not given.
    pub planned: Option<(f64, f64)>,
}

/// The values a system preset puts in the system fields.
fn system_fields(p: &SystemPreset) -> FieldSet {
    let s = p.system();
    let num = |x: f64| fmt_num(x, 6);
    FieldSet {
        label: p.name.into(),
        fields: vec![
            (Field::Peak.key(), num(s.peak_gflops_per_core)),
            (Field::NodeBw.key(), num(s.node_bandwidth_gb_s)),
            (Field::RefBw.key(), num(s.reference_bandwidth_gb_s)),
            (Field::RegionBw.key(), num(s.region_bandwidth_gb_s)),
            (Field::Alpha.key(), num(s.alpha)),
        ],
    }
}

/// The seed's systems as values of the system fields: the page's system buttons set these and
/// leave the application as it is.
pub fn system_presets() -> Vec<FieldSet> {
    SYSTEM_PRESETS.iter().map(system_fields).collect()
}

/// The default application on each of the seed's systems.
pub fn presets() -> Vec<Preset> {
    SYSTEM_PRESETS
        .iter()
        .map(|p| {
            let mut inputs = default_inputs();
            inputs.extend(system_fields(p).fields.into_iter().map(|(k, v)| (k.to_string(), v)));
            Preset { key: p.key, name: p.name, description: p.description, inputs }
        })
        .collect()
}

/// LinPack at the slides' four problem sizes on bwGRiD 1, with bwGRiD 2's 15–45 GB/s as the
/// planned link.
pub fn default_inputs() -> PageInputs {
    let app = Application::linpack();
    let mut m: PageInputs = [
        (Field::Form, "application"),
        (Field::Sizes, "10000 20000 30000 40000"),
        (Field::XPrime, "196.08"),
        (Field::Z, "1.5"),
        (Field::ZPrime, "2.667"),
        (Field::ZpBw, "1"),
        (Field::NMax, "1120"),
        (Field::TwoRegionX, "scaled"),
        (Field::Overlap, ""),
        (Field::SweepMin, "0.1"),
        (Field::SweepMax, "100"),
        (Field::SweepPoints, "1000"),
        (Field::ReqN, "256"),
        (Field::ReqFraction, "90"),
        (Field::PlannedMin, "15"),
        (Field::PlannedMax, "45"),
    ]
    .iter()
    .map(|(f, v)| (f.key().to_string(), v.to_string()))
    .collect();
    for (f, v) in [(Field::Ops, app.ops), (Field::Bytes, app.bytes), (Field::Exchanged, app.exchanged_bytes)] {
        m.insert(f.key().into(), v);
    }
    m.extend(system_fields(&SYSTEM_PRESETS[0]).fields.into_iter().map(|(k, v)| (k.to_string(), v)));
    m
}

/// Every catalog link between two clusters whose core peak is known: l_th from the first
/// cluster, b_l its fastest fabric, B_E the link.
pub fn link_systems(catalog: &Catalog) -> Vec<FieldSet> {
    catalog
        .links
        .iter()
        .filter_map(|l| {
            let a = catalog.cluster(&l.a)?;
            let b = catalog.cluster(&l.b)?;
            let node = a.fabrics.iter().map(|f| f.bandwidth_mb_s).fold(0.0, f64::max);
            if a.core_gflops <= 0.0 || node <= 0.0 || l.fabric.bandwidth_mb_s <= 0.0 {
                return None;
            }
            let gb = |mb: f64| fmt_num(mb * GB_PER_MB, 4);
            Some(FieldSet {
                label: format!("{} – {} ({})", a.name, b.name, l.fabric.name),
                fields: vec![
                    (Field::Peak.key(), fmt_num(a.core_gflops, 6)),
                    (Field::NodeBw.key(), gb(node)),
                    (Field::RefBw.key(), "1".into()),
                    (Field::RegionBw.key(), gb(l.fabric.bandwidth_mb_s)),
                ],
            })
        })
        .collect()
}

/// Sp2 at the required-bandwidth n and the optimum, at one B_E.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepRow {
    pub bandwidth_gb_s: f64,
    pub z_prime: f64,
    /// Sp2(req_n); None while req_n has an error.
    pub sp2_at_n: Option<f64>,
    /// Sp2_max, or the limit when α = 0.
    pub sp2_best: f64,
    /// n*; None when α = 0.
    pub n_star: Option<f64>,
}

/// What the required bandwidth means for the current and the planned link.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub required: RequiredBandwidth,
    /// Sp2(req_n)/Sp(req_n) at the current B_E.
    pub reached_now: f64,
    pub met_now: bool,
    /// Whether the planned link meets it at its low and its high end.
    pub planned: Option<(bool, bool)>,
    /// In plain words.
    pub text: String,
}

/// One problem size (or one x').
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub label: String,
    /// The model at the current B_E.
    pub model: Regions,
    pub curve: Vec<Point>,
    pub optimum: Optimum,
    pub n_half: NHalf,
    pub verdict: Option<Result<Verdict, InputError>>,
    pub sweep: Vec<SweepRow>,
}

/// Everything on the page.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PageView {
    /// Errors of single fields, keyed by field name.
    pub errors: BTreeMap<String, InputError>,
    pub warnings: Vec<Warning>,
    /// The current bandwidth between the regions, GB/s.
    pub bandwidth_gb_s: Option<f64>,
    pub choice: TwoRegionX,
    pub overlap: bool,
    pub req_n: Option<f64>,
    pub planned: Option<(f64, f64)>,
    /// Empty while an input the curves need has an error.
    pub cases: Vec<Case>,
}

impl PageView {
    /// Whether any input the curves depend on has an error (then `cases` is empty).
    pub fn broken(&self) -> bool {
        self.cases.is_empty()
    }
}

/// Reads fields, recording each one's error under its key.
struct Reader<'a> {
    texts: &'a PageInputs,
    errors: FieldErrors,
}

impl Reader<'_> {
    fn fail(&mut self, field: Field, e: InputError) {
        self.errors.push(InputError { field: field.key().to_string(), ..e });
    }

    /// A number accepted by `check`, which says what is wrong.
    fn number(&mut self, field: Field, check: impl Fn(f64) -> Result<f64, InputError>) -> Option<f64> {
        let key = field.key();
        let t = text(self.texts, field).trim();
        let parsed = match parse_number(t) {
            Some(v) => check(v),
            None if t.is_empty() => Err(InputError::new(key, "a value is needed")),
            None => Err(InputError::new(key, format!("expected a number, found \"{}\"", clip(t)))),
        };
        parsed.map_err(|e| self.fail(field, e)).ok()
    }

    /// A positive number in (0, 1e12].
    fn positive(&mut self, field: Field) -> Option<f64> {
        self.number(field, positive_check(field))
    }

    /// A list of positive numbers separated by spaces, commas or semicolons; errors name the
    /// column of the bad entry.
    fn positive_list(&mut self, field: Field) -> Option<Vec<f64>> {
        let spec = ListSpec { max_items: MAX_CASES, required: true };
        let check = positive_check(field);
        list::numbers(field.key(), text(self.texts, field), spec, check).map_err(|e| self.fail(field, e)).ok()
    }

    /// A formula of N.
    fn formula(&mut self, field: Field) -> Result<Formula, InputError> {
        Formula::parse(field.key(), text(self.texts, field)).inspect_err(|e| self.fail(field, e.clone()))
    }
}

fn positive_check(field: Field) -> impl Fn(f64) -> Result<f64, InputError> {
    move |v| {
        if v > 0.0 && v <= 1e12 {
            Ok(v)
        } else {
            Err(InputError::new(
                field.key(),
                format!("must be greater than 0 and at most 1e12, found {}", fmt_num(v, 6)),
            ))
        }
    }
}

/// `count` bandwidths spaced evenly on a log scale from `lo` to `hi`.
pub fn log_grid(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    if count < 2 {
        return vec![lo];
    }
    let (a, b) = (lo.ln(), hi.ln());
    let last = count - 1;
    (0..count)
        .map(|i| match i {
            0 => lo,
            _ if i == last => hi,
            _ => (a + (b - a) * i as f64 / last as f64).exp(),
        })
        .collect()
}

/// Whether the texts choose the balance form; anything else is the application form.
pub fn is_balance_form(texts: &PageInputs) -> bool {
    text(texts, Field::Form) == "balance"
}

/// Reads every field once (of the two forms, only the chosen one's fields).
pub fn parse(texts: &PageInputs) -> (Inputs, FieldErrors) {
    let mut r = Reader { texts, errors: FieldErrors::new() };
    let two_region_x = TwoRegionX::parse(Field::TwoRegionX.key(), text(texts, Field::TwoRegionX))
        .map_err(|e| r.fail(Field::TwoRegionX, e))
        .ok();
    let region_bw = r.positive(Field::RegionBw);
    let alpha = r.number(Field::Alpha, |a| LoadFactor::new(a).map(|l| l.alpha));
    let n_max = r.number(Field::NMax, |n| check_cores(Field::NMax.key(), n));
    let form = if is_balance_form(texts) {
        Form::Balance {
            x_primes: r.positive_list(Field::XPrime),
            z: r.positive(Field::Z),
            z_prime: r.positive(Field::ZPrime),
            z_prime_at_gb_s: r.positive(Field::ZpBw),
        }
    } else {
        Form::Application {
            sizes: r.positive_list(Field::Sizes),
            application: Box::new(ParsedApplication {
                ops: r.formula(Field::Ops),
                bytes: r.formula(Field::Bytes),
                exchanged_bytes: r.formula(Field::Exchanged),
            }),
            peak_gflops_per_core: r.positive(Field::Peak),
            node_bandwidth_gb_s: r.positive(Field::NodeBw),
            reference_bandwidth_gb_s: r.positive(Field::RefBw),
        }
    };
    let sweep = parse_sweep(&mut r);
    let req_n = r.number(Field::ReqN, |n| check_cores(Field::ReqN.key(), n));
    let req_fraction = r.number(Field::ReqFraction, |f| {
        if f > 0.0 && f <= 100.0 {
            Ok(f / 100.0)
        } else {
            let message = format!("must be a percentage above 0 and at most 100, found {}", fmt_num(f, 6));
            Err(InputError::new(Field::ReqFraction.key(), message))
        }
    });
    let planned = parse_planned(&mut r);
    let overlap = !text(texts, Field::Overlap).trim().is_empty();
    let inputs = Inputs { form, two_region_x, overlap, region_bw, alpha, n_max, sweep, req_n, req_fraction, planned };
    (inputs, r.errors)
}

fn parse_sweep(r: &mut Reader) -> Option<Sweep> {
    let min = r.positive(Field::SweepMin);
    let max = r.positive(Field::SweepMax);
    let points = r.number(Field::SweepPoints, |v| {
        if v.fract() == 0.0 && (2.0..=MAX_SWEEP_POINTS as f64).contains(&v) {
            Ok(v)
        } else {
            Err(InputError::new(
                Field::SweepPoints.key(),
                format!("must be a whole number from 2 to {MAX_SWEEP_POINTS}"),
            ))
        }
    });
    match (min, max, points) {
        (Some(lo), Some(hi), Some(k)) if lo < hi => Some(Sweep { min_gb_s: lo, max_gb_s: hi, points: k as usize }),
        (Some(_), Some(_), Some(_)) => {
            r.fail(
                Field::SweepMax,
                InputError::new(Field::SweepMax.key(), "must be above the sweep's lowest bandwidth"),
            );
            None
        }
        _ => None,
    }
}

/// The planned link; none when both ends are empty.
fn parse_planned(r: &mut Reader) -> Option<(f64, f64)> {
    let empty = |f: Field| text(r.texts, f).trim().is_empty();
    if empty(Field::PlannedMin) && empty(Field::PlannedMax) {
        return None;
    }
    match (r.positive(Field::PlannedMin), r.positive(Field::PlannedMax)) {
        (Some(lo), Some(hi)) if lo <= hi => Some((lo, hi)),
        (Some(_), Some(_)) => {
            let e = InputError::new(Field::PlannedMax.key(), "must be at least the planned link's low end");
            r.fail(Field::PlannedMax, e);
            None
        }
        _ => None,
    }
}

/// A case's label ("N = 40000", "x' = 196.08") and its model, or why there is none.
type CaseModel = (String, Result<Regions, InputError>);

/// One model per case (problem size or x'), each at B_E = 1 GB/s in the application form, so
/// that the sweep (from the same reference) does not depend on where the slider is; and the
/// warnings about the inputs' magnitudes.
fn case_models(inputs: &Inputs) -> (Vec<CaseModel>, Vec<Warning>) {
    match &inputs.form {
        Form::Application {
            sizes,
            application,
            peak_gflops_per_core,
            node_bandwidth_gb_s,
            reference_bandwidth_gb_s,
        } => {
            let (Some(sizes), Some(peak), Some(node), Some(reference), Some(region), Some(alpha)) = (
                sizes,
                *peak_gflops_per_core,
                *node_bandwidth_gb_s,
                *reference_bandwidth_gb_s,
                inputs.region_bw,
                inputs.alpha,
            ) else {
                return (Vec::new(), Vec::new());
            };
            let system = System {
                name: String::new(),
                peak_gflops_per_core: peak,
                node_bandwidth_gb_s: node,
                reference_bandwidth_gb_s: reference,
                region_bandwidth_gb_s: region,
                alpha,
            };
            let warnings = system
                .warnings()
                .into_iter()
                .map(|w| Warning { field: field_of(&w.field, true).key().into(), ..w })
                .collect();
            let reference = System { region_bandwidth_gb_s: 1.0, ..system };
            let models = sizes
                .iter()
                .map(|&n| {
                    (
                        format!("N = {}", fmt_num(n, 6)),
                        application.workload(n).and_then(|w| Regions::from_workload(&w, &reference)),
                    )
                })
                .collect();
            (models, warnings)
        }
        Form::Balance { x_primes, z, z_prime, z_prime_at_gb_s } => {
            let mut warnings = Vec::new();
            warnings.extend(z_prime_at_gb_s.and_then(|b| bandwidth_warning(Field::ZpBw.key(), b)));
            warnings.extend(inputs.region_bw.and_then(|b| bandwidth_warning(Field::RegionBw.key(), b)));
            let (Some(xs), Some(z), Some(zp), Some(zp_bw), Some(_), Some(alpha)) =
                (x_primes, *z, *z_prime, *z_prime_at_gb_s, inputs.region_bw, inputs.alpha)
            else {
                return (Vec::new(), warnings);
            };
            let models = xs
                .iter()
                .map(|&x| {
                    let m = Regions::new(Balance { x_prime: x, z, z_prime: zp }, LoadFactor { alpha })
                        .and_then(|m| m.with_region_bandwidth(zp_bw));
                    (format!("x' = {}", fmt_num(x, 6)), m)
                })
                .collect();
            (models, warnings)
        }
    }
}

/// Sp2 at the required-bandwidth n and the optimum, with the reference model moved to `b`.
fn sweep_row(reference: &Regions, b: f64, req_n: Option<f64>) -> Option<SweepRow> {
    let m = reference.at_bandwidth(b).ok()?;
    let o = m.optimum();
    Some(SweepRow {
        bandwidth_gb_s: b,
        z_prime: m.balance().z_prime,
        sp2_at_n: req_n.and_then(|n| m.speedup_two(n).ok()),
        sp2_best: match o {
            Optimum::Peak { sp2_max, .. } => sp2_max,
            Optimum::NoOptimum { limit } => limit,
        },
        n_star: o.n_star(),
    })
}

/// Computes the page from its inputs: a reference model per case, moved to the current B_E for
/// the curves and the verdict and to every swept B_E for the sweep. The catalog is not used
/// (every page's `evaluate` takes it). `errors` holds the problems the models find (a derived
/// balance factor out of range), under the field that made them.
pub fn evaluate(inputs: &Inputs, _catalog: &Catalog) -> PageView {
    let choice = inputs.two_region_x.unwrap_or_default();
    let (models, warnings) = case_models(inputs);
    let mut view = PageView {
        warnings,
        bandwidth_gb_s: inputs.region_bw,
        choice,
        overlap: inputs.overlap,
        req_n: inputs.req_n,
        planned: inputs.planned,
        ..PageView::default()
    };
    let application = matches!(inputs.form, Form::Application { .. });
    let mut pairs = Vec::new();
    for (label, m) in models {
        // (reference model, model at the current B_E)
        let pair = m.and_then(|m| {
            let m = m.with_two_region_x(choice);
            let now = m.at_bandwidth(inputs.region_bw.unwrap_or(1.0))?;
            Ok((m, now))
        });
        match pair {
            Ok(pair) => pairs.push((label, pair)),
            Err(e) => {
                let key = field_of(&e.field, application).key();
                let e = InputError { field: key.into(), message: format!("{label}: {}", e.message), ..e };
                view.errors.entry(key.into()).or_insert(e);
            }
        }
    }
    let broken = pairs.is_empty() || !view.errors.is_empty() || inputs.two_region_x.is_none();
    let (Some(n_max), Some(b_now), false) = (inputs.n_max, inputs.region_bw, broken) else { return view };
    let ns = log_grid(1.0, n_max.max(2.0), CURVE_POINTS);
    let grid = inputs.sweep.map(|s| log_grid(s.min_gb_s, s.max_gb_s, s.points)).unwrap_or_default();
    for (label, (reference, model)) in pairs {
        let Ok(curve) = model.curve(&ns) else { continue };
        let verdict = match (inputs.req_n, inputs.req_fraction) {
            (Some(n), Some(f)) => Some(verdict(&model, n, f, b_now, inputs.planned)),
            _ => None,
        };
        let sweep = grid.iter().filter_map(|&b| sweep_row(&reference, b, inputs.req_n)).collect();
        view.cases.push(Case { label, optimum: model.optimum(), n_half: model.n_half(), curve, verdict, sweep, model });
    }
    view
}

crate::model::calculators::usual_contract!(
    /// The two-region page's row in the table of calculators.
    RegionsPage
);

/// The page for its input texts: [`parse`], then [`evaluate`]; a field's own error takes the
/// place of one the models derived from it.
pub fn view(texts: &PageInputs, catalog: &Catalog) -> PageView {
    let (inputs, errors) = parse(texts);
    let mut view = evaluate(&inputs, catalog);
    view.errors.extend(errors.into_iter().map(|e| (e.field.clone(), e)));
    view
}

/// The page field a model's error (or warning) belongs to. In the application form the
/// balance factors are derived: x' from the formulas at one N, z from b_l/b0_l, z' from the
/// link. Any other problem of a case belongs to the field that made the case.
fn field_of(model_field: &str, application: bool) -> Field {
    match model_field {
        "ops" => Field::Ops,
        "bytes" => Field::Bytes,
        "exchanged" | "exchanged_bytes" => Field::Exchanged,
        "peak_gflops_per_core" => Field::Peak,
        "node_bandwidth_gb_s" => Field::NodeBw,
        "reference_bandwidth_gb_s" => Field::RefBw,
        "region_bandwidth_gb_s" | "bandwidth_gb_s" => Field::RegionBw,
        "alpha" => Field::Alpha,
        "N" => Field::Sizes,
        "z" if application => Field::NodeBw,
        "z_prime" if application => Field::RegionBw,
        "z" => Field::Z,
        "z_prime" => Field::ZPrime,
        _ if application => Field::Sizes,
        _ => Field::XPrime,
    }
}

fn pct(x: f64) -> String {
    format!("{} %", fmt_num(x * 100.0, 3))
}

fn gbs(x: f64) -> String {
    format!("{} GB/s", fmt_num(x, 3))
}

/// The required bandwidth at n cores per region and what it means for the current and the
/// planned link.
pub fn verdict(
    model: &Regions,
    n: f64,
    fraction: f64,
    now_gb_s: f64,
    planned: Option<(f64, f64)>,
) -> Result<Verdict, InputError> {
    let required = model.required_bandwidth(n, fraction)?;
    let sp2 = model.speedup_two(n)?;
    let reached_now = sp2 / required.one_region_speedup;
    let met_now = required.met_at(model.balance().z_prime);
    let meets = |b: f64| match &required.requirement {
        Requirement::Bandwidth { bandwidth_gb_s: Some(need), .. } => b >= *need,
        Requirement::Bandwidth { bandwidth_gb_s: None, .. } => false,
        Requirement::AnyBandwidth => true,
        Requirement::Unreachable { .. } => false,
    };
    let planned_met = planned.map(|(lo, hi)| (meets(lo), meets(hi)));
    let goal = format!("{} of the one-region speed-up at n = {}", pct(fraction), fmt_num(n, 6));
    let mut text = match &required.requirement {
        Requirement::Bandwidth { bandwidth_gb_s: Some(need), .. } => {
            format!("Needs at least {} for {goal}.", gbs(*need))
        }
        Requirement::Bandwidth { z_prime, .. } => format!("Needs z' ≥ {} for {goal}.", fmt_num(*z_prime, 4)),
        Requirement::AnyBandwidth => format!("Any bandwidth reaches {goal}: the load on the link is light at this n."),
        Requirement::Unreachable { limit } => format!(
            "No bandwidth reaches {goal}: even an unlimited link gives only {} of {}.",
            fmt_num(*limit, 4),
            fmt_num(required.target_speedup, 4)
        ),
    };
    text.push_str(&format!(
        " The current {} {}: two regions reach {} of the one-region speed-up.",
        gbs(now_gb_s),
        if met_now { "meets it" } else { "falls short" },
        pct(reached_now)
    ));
    if let (Some((lo, hi)), Some((at_lo, at_hi))) = (planned, planned_met) {
        let range = format!("{}–{}", fmt_num(lo, 3), gbs(hi));
        text.push_str(&match (at_lo, at_hi) {
            (true, _) => format!(" The planned {range} meets it across its range."),
            (false, true) => format!(" The planned {range} meets it only at its upper end."),
            (false, false) => format!(" The planned {range} does not meet it."),
        });
    }
    Ok(Verdict { required, reached_now, met_now, planned: planned_met, text })
}

/// The sweep of every case as CSV: one row per (case, bandwidth).
pub fn sweep_csv(view: &PageView) -> String {
    let mut s = String::from("case,bandwidth_gb_s,z_prime,sp2_at_req_n,sp2_max,n_star\n");
    for c in &view.cases {
        for row in &c.sweep {
            let opt = |v: Option<f64>| v.map(|x| format!("{x}")).unwrap_or_default();
            s.push_str(&format!(
                "\"{}\",{},{},{},{},{}\n",
                c.label,
                row.bandwidth_gb_s,
                row.z_prime,
                opt(row.sp2_at_n),
                row.sp2_best,
                opt(row.n_star)
            ));
        }
    }
    s
}

/// The speed-up curves of every case as CSV.
pub fn curves_csv(view: &PageView) -> String {
    let mut s = String::from("case,n,one_region,one_region_overlapping,two_regions,two_regions_overlapping\n");
    for c in &view.cases {
        for p in &c.curve {
            s.push_str(&format!(
                "\"{}\",{},{},{},{},{}\n",
                c.label, p.n, p.one_region, p.one_region_overlapping, p.two_regions, p.two_regions_overlapping
            ));
        }
    }
    s
}

#[cfg(test)]
mod tests;

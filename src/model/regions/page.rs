//! Everything the two-regions page shows, computed from the texts in its inputs: speed-up
//! curves for one and two regions per problem size, the optimum and n½, sweeps over the
//! bandwidth between the regions, and the required-bandwidth verdicts. The page renders
//! what [`evaluate`] returns, so every number on screen is tested here, natively.
//!
//! Inputs (field names, also the keys of share links and workspace files):
//! - `form`: `application` (#op, #b, #x as formulas of N) or `balance` (x', z, z' directly);
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

use crate::model::workspace::catalog::Catalog;
use crate::model::error::{fmt_num, InputError};
use crate::model::regions::{
    bandwidth_warning, check_cores, Application, Balance, LoadFactor, NHalf, Optimum, Point, Regions,
    RequiredBandwidth, Requirement, System, TwoRegionX, Warning,
};
use crate::model::input::list::{self, ListSpec};
use crate::model::input::table::parse_number;
use crate::model::workspace::{FieldSet, PageInputs};

pub const PAGE: &str = "regions";
/// Most problem sizes (or x' values) drawn at once.
pub const MAX_CASES: usize = 8;
/// Most bandwidths in a sweep.
pub const MAX_SWEEP_POINTS: usize = 5000;
/// Points on each speed-up curve.
const CURVE_POINTS: usize = 160;
/// GB per MB of the catalog (MB = 2^20 bytes, GB = 10^9 bytes).
const GB_PER_MB: f64 = 1_048_576.0 / 1e9;

/// A system preset: its name and the field values it sets.
pub struct SystemPreset {
    pub key: &'static str,
    pub name: &'static str,
    pub fields: [(&'static str, &'static str); 5],
}

/// bwGRiD 1 and the planned bwGRiD 2 at both ends of its 15–45 GB/s (seed 003).
pub const SYSTEM_PRESETS: [SystemPreset; 3] = [
    SystemPreset {
        key: "bwgrid1",
        name: "bwGRiD 1",
        fields: [("peak", "8.5"), ("node_bw", "1.5"), ("ref_bw", "1"), ("region_bw", "1"), ("alpha", "0.05")],
    },
    SystemPreset {
        key: "bwgrid2-15",
        name: "bwGRiD 2 (planned, 15 GB/s)",
        fields: [("peak", "10"), ("node_bw", "6"), ("ref_bw", "1"), ("region_bw", "15"), ("alpha", "0.05")],
    },
    SystemPreset {
        key: "bwgrid2-45",
        name: "bwGRiD 2 (planned, 45 GB/s)",
        fields: [("peak", "10"), ("node_bw", "6"), ("ref_bw", "1"), ("region_bw", "45"), ("alpha", "0.05")],
    },
];

/// LinPack at the slides' four problem sizes on bwGRiD 1, with bwGRiD 2's 15–45 GB/s as the
/// planned link.
pub fn default_inputs() -> PageInputs {
    let app = Application::linpack();
    let mut m: PageInputs = [
        ("form", "application"),
        ("sizes", "10000 20000 30000 40000"),
        ("x_prime", "196.08"),
        ("z", "1.5"),
        ("z_prime", "2.667"),
        ("zp_bw", "1"),
        ("n_max", "1120"),
        ("two_region_x", "scaled"),
        ("overlap", ""),
        ("sweep_min", "0.1"),
        ("sweep_max", "100"),
        ("sweep_points", "1000"),
        ("req_n", "256"),
        ("req_fraction", "90"),
        ("planned_min", "15"),
        ("planned_max", "45"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    m.insert("ops".into(), app.ops);
    m.insert("bytes".into(), app.bytes);
    m.insert("exchanged".into(), app.exchanged_bytes);
    for (k, v) in SYSTEM_PRESETS[0].fields {
        m.insert(k.into(), v.into());
    }
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
                    ("peak", fmt_num(a.core_gflops, 6)),
                    ("node_bw", gb(node)),
                    ("ref_bw", "1".into()),
                    ("region_bw", gb(l.fabric.bandwidth_mb_s)),
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

fn get<'a>(inputs: &'a PageInputs, key: &str) -> &'a str {
    inputs.get(key).map(String::as_str).unwrap_or("")
}

/// Reads one number field, recording an error under its key.
struct Reader<'a> {
    inputs: &'a PageInputs,
    errors: BTreeMap<String, InputError>,
}

impl Reader<'_> {
    fn fail(&mut self, key: &str, e: InputError) {
        self.errors.entry(key.to_string()).or_insert(InputError { field: key.to_string(), ..e });
    }

    /// A number accepted by `check`, which says what is wrong.
    fn number(&mut self, key: &str, check: impl Fn(f64) -> Result<f64, InputError>) -> Option<f64> {
        let text = get(self.inputs, key).trim();
        let parsed = match parse_number(text) {
            Some(v) => check(v),
            None if text.is_empty() => Err(InputError::new(key, "a value is needed")),
            None => Err(InputError::new(key, format!("expected a number, found \"{}\"", clip(text)))),
        };
        parsed.map_err(|e| self.fail(key, e)).ok()
    }

    /// A positive number in (0, 1e12].
    fn positive(&mut self, key: &str) -> Option<f64> {
        self.number(key, |v| {
            if v > 0.0 && v <= 1e12 {
                Ok(v)
            } else {
                Err(InputError::new(key, format!("must be greater than 0 and at most 1e12, found {}", fmt_num(v, 6))))
            }
        })
    }

    /// A list of numbers separated by spaces, commas or semicolons, each checked; errors
    /// name the column of the bad entry.
    fn list(&mut self, key: &str, check: impl Fn(f64) -> Result<f64, InputError>) -> Option<Vec<f64>> {
        let spec = ListSpec { max_items: MAX_CASES, required: true };
        list::numbers(key, get(self.inputs, key), spec, |v| check(v).map_err(|e| e.message)).map_err(|e| self.fail(key, e)).ok()
    }
}


fn clip(s: &str) -> String {
    s.chars().take(24).collect()
}

fn positive_check(key: &'static str) -> impl Fn(f64) -> Result<f64, InputError> {
    move |v| {
        if v > 0.0 && v <= 1e12 {
            Ok(v)
        } else {
            Err(InputError::new(key, format!("must be greater than 0 and at most 1e12, found {}", fmt_num(v, 6))))
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

pub fn evaluate(inputs: &PageInputs) -> PageView {
    let mut r = Reader { inputs, errors: BTreeMap::new() };
    let application = get(inputs, "form") != "balance";
    let choice = match TwoRegionX::parse("two_region_x", get(inputs, "two_region_x")) {
        Ok(c) => c,
        Err(e) => {
            r.fail("two_region_x", e);
            TwoRegionX::Scaled
        }
    };
    let overlap = !get(inputs, "overlap").trim().is_empty();
    let region_bw = r.positive("region_bw");
    let alpha = r.number("alpha", |a| LoadFactor::new(a).map(|l| l.alpha));
    let n_max = r.number("n_max", |n| check_cores("n_max", n));
    let mut warnings: Vec<Warning> = Vec::new();

    // One model per case, at B_E = region_bw, labelled.
    let mut models: Vec<(String, Result<Regions, InputError>)> = Vec::new();
    if application {
        let sizes = r.list("sizes", positive_check("sizes"));
        let app = Application {
            name: String::new(),
            ops: get(inputs, "ops").into(),
            bytes: get(inputs, "bytes").into(),
            exchanged_bytes: get(inputs, "exchanged").into(),
        };
        // Formula errors first, at any N, so they show under their field.
        for (key, text) in [("ops", &app.ops), ("bytes", &app.bytes), ("exchanged", &app.exchanged_bytes)] {
            if let Err(e) = crate::model::regions::Formula::parse(key, text) {
                r.fail(key, e);
            }
        }
        let peak = r.positive("peak");
        let node_bw = r.positive("node_bw");
        let ref_bw = r.positive("ref_bw");
        if let (Some(sizes), Some(peak), Some(node), Some(reference), Some(region), Some(alpha)) =
            (sizes, peak, node_bw, ref_bw, region_bw, alpha)
        {
            let system = System {
                name: String::new(),
                peak_gflops_per_core: peak,
                node_bandwidth_gb_s: node,
                reference_bandwidth_gb_s: reference,
                region_bandwidth_gb_s: region,
                alpha,
            };
            warnings.extend(system.warnings().into_iter().map(|mut w| {
                w.field = field_of(&w.field, true).into();
                w
            }));
            // Each model is built at B_E = 1 GB/s and moved to the current B_E, so the sweep
            // (from the same reference) does not depend on where the slider is.
            let reference = System { region_bandwidth_gb_s: 1.0, ..system };
            for n in sizes {
                let m = Regions::from_application(&app, n, &reference).map(|(m, _)| m);
                models.push((format!("N = {}", fmt_num(n, 6)), m));
            }
        }
    } else {
        let xs = r.list("x_prime", positive_check("x_prime"));
        let z = r.positive("z");
        let zp = r.positive("z_prime");
        let zp_bw = r.positive("zp_bw");
        if let Some(b) = zp_bw {
            warnings.extend(bandwidth_warning("zp_bw", b));
        }
        if let Some(b) = region_bw {
            warnings.extend(bandwidth_warning("region_bw", b));
        }
        if let (Some(xs), Some(z), Some(zp), Some(zp_bw), Some(_), Some(alpha)) = (xs, z, zp, zp_bw, region_bw, alpha) {
            for x in xs {
                let m = Regions::new(Balance { x_prime: x, z, z_prime: zp }, LoadFactor { alpha })
                    .and_then(|m| m.with_region_bandwidth(zp_bw));
                models.push((format!("x' = {}", fmt_num(x, 6)), m));
            }
        }
    }
    // A derived balance factor out of range: the error belongs to the inputs that made it.
    let mut ok_models = Vec::new();
    for (label, m) in models {
        // (reference model, model at the current B_E)
        let pair = m.and_then(|m| {
            let m = m.with_two_region_x(choice);
            let now = m.at_bandwidth(region_bw.unwrap_or(1.0))?;
            Ok((m, now))
        });
        match pair {
            Ok(pair) => ok_models.push((label, pair)),
            Err(e) => {
                let key = field_of(&e.field, application).to_string();
                r.fail(&key, InputError { message: format!("{label}: {}", e.message), ..e });
            }
        }
    }

    // The sweep's bandwidths.
    let sweep_min = r.positive("sweep_min");
    let sweep_max = r.positive("sweep_max");
    let sweep_points = r.number("sweep_points", |v| {
        if v.fract() == 0.0 && (2.0..=MAX_SWEEP_POINTS as f64).contains(&v) {
            Ok(v)
        } else {
            Err(InputError::new("sweep_points", format!("must be a whole number from 2 to {MAX_SWEEP_POINTS}")))
        }
    });
    let grid = match (sweep_min, sweep_max, sweep_points) {
        (Some(lo), Some(hi), Some(k)) if lo < hi => log_grid(lo, hi, k as usize),
        (Some(_), Some(_), Some(_)) => {
            r.fail("sweep_max", InputError::new("sweep_max", "must be above the sweep's lowest bandwidth"));
            Vec::new()
        }
        _ => Vec::new(),
    };

    // Required bandwidth.
    let req_n = r.number("req_n", |n| check_cores("req_n", n));
    let fraction = r.number("req_fraction", |f| {
        if f > 0.0 && f <= 100.0 {
            Ok(f / 100.0)
        } else {
            Err(InputError::new("req_fraction", format!("must be a percentage above 0 and at most 100, found {}", fmt_num(f, 6))))
        }
    });
    let planned = match (get(inputs, "planned_min").trim().is_empty(), get(inputs, "planned_max").trim().is_empty()) {
        (true, true) => None,
        _ => match (r.positive("planned_min"), r.positive("planned_max")) {
            (Some(lo), Some(hi)) if lo <= hi => Some((lo, hi)),
            (Some(_), Some(_)) => {
                r.fail("planned_max", InputError::new("planned_max", "must be at least the planned link's low end"));
                None
            }
            _ => None,
        },
    };

    let errors = r.errors;
    let curve_broken = ["n_max", "region_bw", "alpha", "two_region_x"].iter().any(|k| errors.contains_key(*k))
        || ok_models.is_empty();
    let mut view = PageView {
        warnings,
        bandwidth_gb_s: region_bw,
        choice,
        overlap,
        req_n,
        planned,
        ..PageView::default()
    };
    if curve_broken || errors.keys().any(|k| MODEL_KEYS.contains(&k.as_str())) {
        view.errors = errors;
        return view;
    }
    let (Some(n_max), Some(b_now)) = (n_max, region_bw) else {
        view.errors = errors;
        return view;
    };
    let ns = log_grid(1.0, n_max.max(2.0), CURVE_POINTS);
    for (label, (reference, model)) in ok_models {
        let Ok(curve) = model.curve(&ns) else { continue };
        let verdict = match (req_n, fraction) {
            (Some(n), Some(f)) => Some(verdict(&model, n, f, b_now, planned)),
            _ => None,
        };
        let sweep = grid
            .iter()
            .filter_map(|&b| {
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
            })
            .collect();
        view.cases.push(Case { label, optimum: model.optimum(), n_half: model.n_half(), curve, verdict, sweep, model });
    }
    view.errors = errors;
    view
}

/// Fields whose errors leave no model to draw.
const MODEL_KEYS: [&str; 11] =
    ["sizes", "ops", "bytes", "exchanged", "peak", "node_bw", "ref_bw", "x_prime", "z", "z_prime", "zp_bw"];

/// The page field a model error belongs to. In the application form the balance factors are
/// derived: x' from the formulas at one N, z from b_l/b0_l, z' from the link.
fn field_of(model_field: &str, application: bool) -> &str {
    match model_field {
        "exchanged_bytes" => "exchanged",
        "peak_gflops_per_core" => "peak",
        "node_bandwidth_gb_s" => "node_bw",
        "reference_bandwidth_gb_s" => "ref_bw",
        "region_bandwidth_gb_s" | "bandwidth_gb_s" => "region_bw",
        "N" => "sizes",
        "x_prime" if application => "sizes",
        "z" if application => "node_bw",
        "z_prime" if application => "region_bw",
        other => other,
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
        Requirement::Bandwidth { bandwidth_gb_s: Some(need), .. } => format!("Needs at least {} for {goal}.", gbs(*need)),
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
mod tests {
    use super::*;
    use crate::model::workspace::catalog::presets;
    use crate::model::regions::Application;
    use proptest::prelude::*;

    fn with(edits: &[(&str, &str)]) -> PageView {
        let mut m = default_inputs();
        for (k, v) in edits {
            m.insert(k.to_string(), v.to_string());
        }
        evaluate(&m)
    }

    fn close(name: &str, got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol * want.abs().max(1.0), "{name}: got {got}, want {want}");
    }

    #[test]
    fn default_page_is_linpack_on_bwgrid1() {
        let v = evaluate(&default_inputs());
        assert!(v.errors.is_empty(), "{:?}", v.errors);
        assert!(v.warnings.is_empty(), "{:?}", v.warnings);
        let labels: Vec<&str> = v.cases.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, ["N = 10000", "N = 20000", "N = 30000", "N = 40000"]);
        let sys = System::preset("bwgrid1").expect("preset");
        let (direct, _) = Regions::from_application(&Application::linpack(), 40000.0, &sys).expect("valid");
        let c = &v.cases[3];
        close("x'", c.model.balance().x_prime, direct.balance().x_prime, 1e-15);
        close("z'", c.model.balance().z_prime, direct.balance().z_prime, 1e-15);
        assert_eq!(c.model.region_bandwidth_gb_s().map(|b| (b * 1e9).round() / 1e9), Some(1.0));
        assert_eq!(c.curve.len(), CURVE_POINTS);
        close("curve starts at 1", c.curve[0].n, 1.0, 1e-12);
        close("curve ends at n_max", c.curve[CURVE_POINTS - 1].n, 1120.0, 1e-9);
        close("Sp(1120), spec", c.curve[CURVE_POINTS - 1].one_region, 233.74, 1e-4);
        close("n*", c.optimum.n_star().expect("peak"), direct.optimum().n_star().expect("peak"), 1e-12);
        // The sweep: 1000 bandwidths from 0.1 to 100 GB/s, each the model at that B_E.
        assert_eq!(c.sweep.len(), 1000);
        close("sweep start", c.sweep[0].bandwidth_gb_s, 0.1, 1e-12);
        close("sweep end", c.sweep[999].bandwidth_gb_s, 100.0, 1e-9);
        let row = &c.sweep[500];
        let at = direct.at_bandwidth(row.bandwidth_gb_s).expect("valid");
        close("Sp2(256) in the sweep", row.sp2_at_n.expect("req_n"), at.speedup_two(256.0).expect("n"), 1e-12);
        close("n* in the sweep", row.n_star.expect("α > 0"), at.optimum().n_star().expect("peak"), 1e-12);
        assert!(c.sweep.windows(2).all(|w| w[0].sp2_best < w[1].sp2_best), "Sp2_max rises with B_E");
        // bwGRiD 1's 1 GB/s link is far from 90 % of one region at 256 cores per region.
        let verdict = c.verdict.as_ref().expect("req inputs").as_ref().expect("valid");
        assert!(!verdict.met_now);
        let Requirement::Bandwidth { bandwidth_gb_s: Some(need), .. } = verdict.required.requirement else {
            panic!("reachable: {verdict:?}")
        };
        assert!(need > 1.0, "{need}");
        assert!(verdict.text.starts_with(&format!("Needs at least {} for 90 %", gbs(need))), "{}", verdict.text);
        assert!(verdict.text.contains("The current 1 GB/s falls short"), "{}", verdict.text);
    }

    #[test]
    fn moving_the_bandwidth_changes_the_verdict() {
        let v = evaluate(&default_inputs());
        let need = match v.cases[3].verdict.as_ref().and_then(|r| r.as_ref().ok()).map(|v| &v.required.requirement) {
            Some(Requirement::Bandwidth { bandwidth_gb_s: Some(b), .. }) => *b,
            other => panic!("{other:?}"),
        };
        let above = with(&[("region_bw", &fmt_num(need * 1.01, 6))]);
        let v40 = above.cases[3].verdict.as_ref().and_then(|r| r.as_ref().ok()).expect("verdict");
        assert!(v40.met_now, "{}", v40.text);
        assert!(v40.reached_now >= 0.9, "{}", v40.reached_now);
        // The requirement itself does not depend on where the slider is.
        let Requirement::Bandwidth { bandwidth_gb_s: Some(b), .. } = v40.required.requirement else { panic!() };
        close("same requirement", b, need, 1e-9);
        // A planned link over the requirement meets it; one below does not.
        let lo = fmt_num(need * 0.5, 6);
        let hi = fmt_num(need * 2.0, 6);
        let v = with(&[("planned_min", lo.as_str()), ("planned_max", hi.as_str())]);
        let verdict = v.cases[3].verdict.as_ref().and_then(|r| r.as_ref().ok()).expect("verdict");
        assert_eq!(verdict.planned, Some((false, true)));
        assert!(verdict.text.ends_with("meets it only at its upper end."), "{}", verdict.text);
        let v = with(&[("planned_min", ""), ("planned_max", "")]);
        assert_eq!(v.planned, None);
    }

    #[test]
    fn balance_form_is_the_cli_example() {
        let v = with(&[("form", "balance"), ("x_prime", "196.08"), ("z", "1.5"), ("z_prime", "10"), ("zp_bw", "1")]);
        assert!(v.errors.is_empty(), "{:?}", v.errors);
        assert_eq!(v.cases.len(), 1);
        close("n*", v.cases[0].optimum.n_star().expect("peak"), 171.5, 0.05 / 171.5);
        let v = with(&[("form", "balance"), ("z_prime", "10"), ("two_region_x", "slides")]);
        close("slides n*", v.cases[0].optimum.n_star().expect("peak"), 140.0, 0.05 / 140.0);
        // z' holds at zp_bw: at twice the bandwidth it doubles.
        let v = with(&[("form", "balance"), ("z_prime", "10"), ("zp_bw", "1"), ("region_bw", "2")]);
        close("z' at 2 GB/s", v.cases[0].model.balance().z_prime, 20.0, 1e-12);
        let v = with(&[("form", "balance"), ("x_prime", "50 100 200")]);
        assert_eq!(v.cases.len(), 3);
        assert_eq!(v.cases[1].label, "x' = 100");
    }

    #[test]
    fn no_contention_has_no_optimum() {
        let v = with(&[("alpha", "0")]);
        assert!(v.errors.is_empty(), "{:?}", v.errors);
        assert!(matches!(v.cases[0].optimum, Optimum::NoOptimum { .. }));
        assert!(v.cases[0].sweep.iter().all(|r| r.n_star.is_none()));
        assert!(v.cases[0].optimum.text().starts_with("no optimum"));
    }

    #[test]
    fn errors_name_field_and_column() {
        let v = with(&[("sizes", "10000 abc")]);
        let e = &v.errors["sizes"];
        assert_eq!((e.line, e.column), (Some(1), Some(7)));
        assert!(e.message.contains("expected a number, found \"abc\""), "{e}");
        assert!(v.broken());
        let v = with(&[("ops", "2/3*N^")]);
        assert_eq!(v.errors["ops"].column, Some(7));
        assert!(v.broken());
        let v = with(&[("region_bw", "0")]);
        assert!(v.errors["region_bw"].message.contains("greater than 0"));
        assert!(v.broken());
        // Errors in the required-bandwidth inputs leave the curves standing.
        let v = with(&[("req_n", "0.5"), ("req_fraction", "120")]);
        assert!(!v.broken());
        assert!(v.cases[0].verdict.is_none());
        assert!(v.errors.contains_key("req_n") && v.errors.contains_key("req_fraction"));
        let v = with(&[("sweep_min", "10"), ("sweep_max", "1")]);
        assert!(v.errors.contains_key("sweep_max"));
        assert!(v.cases[0].sweep.is_empty());
        let v = with(&[("sizes", "1 2 3 4 5 6 7 8 9")]);
        assert!(v.errors["sizes"].message.contains("at most 8"));
        let v = with(&[("two_region_x", "maybe")]);
        assert!(v.errors.contains_key("two_region_x"));
    }

    #[test]
    fn unit_mistakes_are_warned() {
        let v = with(&[("node_bw", "1500")]);
        assert_eq!(v.warnings.len(), 1);
        assert_eq!(v.warnings[0].field, "node_bw");
        assert!(v.warnings[0].message.contains("MB/s"), "{:?}", v.warnings);
    }

    #[test]
    fn catalog_links_become_systems() {
        let links = link_systems(&presets());
        let ma_hd = links.iter().find(|l| l.label.starts_with("bwGRiD Mannheim – bwGRiD Heidelberg")).expect("link");
        let get = |k: &str| ma_hd.fields.iter().find(|(f, _)| *f == k).map(|(_, v)| v.as_str());
        assert_eq!(get("peak"), Some("8.5"));
        assert_eq!(get("node_bw"), Some("1.5"));
        // 930 MB/s of 2^20 bytes.
        assert_eq!(get("region_bw"), Some("0.9752"));
        // Grid'5000 sites have no known peak: no system.
        assert!(links.iter().all(|l| !l.label.contains("Grid'5000")));
    }

    #[test]
    fn csv_has_a_row_per_point() {
        let v = evaluate(&default_inputs());
        let sweep = sweep_csv(&v);
        assert_eq!(sweep.lines().count(), 1 + 4 * 1000);
        assert!(sweep.starts_with("case,bandwidth_gb_s,z_prime,sp2_at_req_n,sp2_max,n_star\n\"N = 10000\",0.1,"));
        assert_eq!(curves_csv(&v).lines().count(), 1 + 4 * CURVE_POINTS);
    }

    #[test]
    fn list_tokens_have_columns() {
        assert_eq!(list::tokens(" 10, 20;µ 3"), vec![(2, "10"), (6, "20"), (9, "µ"), (11, "3")]);
        assert!(list::tokens(" , ").is_empty());
    }

    /// Every number the page could show.
    fn numbers(v: &PageView) -> Vec<f64> {
        let mut out: Vec<f64> = v.bandwidth_gb_s.into_iter().chain(v.req_n).collect();
        for c in &v.cases {
            for p in &c.curve {
                out.extend([p.n, p.one_region, p.one_region_overlapping, p.two_regions, p.two_regions_overlapping]);
            }
            out.extend([c.n_half.one_region, c.n_half.two_regions]);
            out.extend(c.n_half.two_regions_upper);
            out.extend(c.optimum.n_star());
            out.extend(c.optimum.sp2_max());
            for r in &c.sweep {
                out.extend([r.bandwidth_gb_s, r.z_prime, r.sp2_best]);
                out.extend(r.sp2_at_n);
                out.extend(r.n_star);
            }
            if let Some(Ok(vd)) = &c.verdict {
                out.extend([vd.reached_now, vd.required.one_region_speedup, vd.required.target_speedup]);
            }
        }
        out
    }

    const KEYS: [&str; 22] = [
        "form", "ops", "bytes", "exchanged", "sizes", "x_prime", "z", "z_prime", "zp_bw", "peak", "node_bw",
        "ref_bw", "region_bw", "alpha", "n_max", "two_region_x", "sweep_min", "sweep_max", "req_n",
        "req_fraction", "planned_min", "planned_max",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// Any text in any field, in either form: no panic, and only finite numbers to show.
        #[test]
        fn any_text_any_field(k in 0..KEYS.len(), text in "\\PC{0,12}|[-0-9.eE]{1,8}|1e[0-9]{2,3}",
                              balance: bool) {
            let mut m = default_inputs();
            m.insert("sweep_points".into(), "50".into());
            if balance { m.insert("form".into(), "balance".into()); }
            m.insert(KEYS[k].into(), text);
            let v = evaluate(&m);
            for x in numbers(&v) {
                prop_assert!(x.is_finite());
            }
        }
    }
}

//! `scalewise regions`: speed-up on one cluster region or two interconnected ones, the optimal
//! region size, n½, bandwidth sweeps and the bandwidth between regions a job needs (seed 003).
//! The model is `model::regions`; this file only reads the JSON, names the key of every
//! problem, and writes the answer.

use schemars::JsonSchema;
use serde::Serialize;

use crate::model::regions::{
    Application, Balance, LoadFactor, NHalf, Optimum, Regions, Requirement, System, TwoRegionX, Warning, SYSTEM_PRESETS,
};
use crate::model::InputError;

use super::request::RegionsRequest;
use super::Subcommand;
use crate::model::input::request::TextOr;
use crate::model::regions::request::{ApplicationRequest, SystemRequest};

pub const COMMAND: Subcommand = Subcommand {
    name: "regions",
    summary: "speed-up on one or two cluster regions, optimal region size, link bandwidth (seed 003)",
    help: HELP,
    run: super::run_command::<RegionsCommand>,
    reads_input: true,
    each: None,
    schema: super::schemas_of::<RegionsCommand>(),
};

const HELP: &str = r#"scalewise regions — speed-up of a job on one cluster region or on two regions joined by a
shared link, from the roofline-type model of seed 003 (Kredel et al., ISC'12, bwGRiD):
    Sp(n)  = (1 + X)/(1 + X/n),  X = x'·z                         one region of n cores
    Sp2(n) = (2 + (1 + X)z')/(2p(n) + (1 + X/n)z'),  p(n) = α·n    two regions of n cores each
n is the number of cores of ONE region; a two-region job runs on 2n cores. Sp2 is relative to
two one-core regions. In the two-region formulas X = x'·z by default ("two_region_x":
"scaled"): the balance of a core at the node bandwidth, which the slides' time model gives, so
that Sp2 → Sp as B_E → ∞. "slides" puts x' there whatever z is, as the slides print the
formulas. With z = 1 the two agree (and give the spec's n* = 44.3, 140.0, 442.8).

USAGE:
    scalewise regions [FILE|-] [--compact]

INPUT (one JSON object), either the balance factors directly:
    x_prime           x' = (#op/#b)·(b0_l/l_th), balance of one core at the reference
                      bandwidth (> 0; LinPack at N = 40000 on bwGRiD 1: N/204 = 196.08)
    z                 z = b_l/b0_l, node bandwidth over the reference bandwidth (> 0)
    z_prime           z' = (#b/#x)·(B_E/b_l), between-region over within-region balance (> 0)
    alpha             load factor slope, p(n) = α·n (≥ 0; the slides: 1/20; 0 = no contention)
    region_bandwidth_gb_s  optional: the B_E (GB/s) z_prime holds at; needed for a sweep and
                      to answer the required bandwidth in GB/s
or an application on a system:
    application       "linpack" (#op = 2/3*N^3, #b = 2*N^2*8, #x = N^2*8/2 bytes), or
                      {"name", "ops", "bytes", "exchanged_bytes"}: #op (flop), #b (bytes
                      moved inside a region), #x (bytes exchanged between the regions) as
                      formulas of N: numbers (2/3, 1e9), + - * / ^, parentheses, N
    N                 problem size the formulas are evaluated at (the slides: 10000–40000)
    system            "bwgrid1" (l_th 8.5 GFlop/s, b_l 1.5 GB/s, B_E 1 GB/s), "bwgrid2-15" or
                      "bwgrid2-45" (planned: l_th 10, b_l 6, B_E 15 or 45), all with b0_l = 1
                      and α = 1/20; or {"name", "peak_gflops_per_core" (l_th, GFlop/s),
                      "node_bandwidth_gb_s" (b_l), "reference_bandwidth_gb_s" (b0_l, default
                      1), "region_bandwidth_gb_s" (B_E), "alpha"}
    alpha             optional: replaces the system's α
and in both forms:
    n                 list of region sizes, cores per region (each ≥ 1)
    two_region_x      optional: "scaled" (default: x'·z in Sp2, n*, Sp2_max, two-region n½)
                      or "slides" (x' there, whatever z is)
    sweep             optional {"bandwidth_gb_s": [B_E, ...]} (GB/s, e.g. 0.1 to 100)
    required_bandwidth  optional {"n": cores per region, "fraction": 0.9 (default; 0 < f ≤ 1)}:
                      the smallest B_E at which Sp2(n) ≥ fraction·Sp(n)

OUTPUT:
    one_region        [{n, speedup, speedup_overlapping}]: Sp(n) additive and overlapping
                      (Sp_ov = min(n, X)/min(1, X))
    two_regions       [{n, speedup, speedup_overlapping}]: Sp2(n), additive and overlapping
                      (t = max of computation, traffic in a region, traffic between them)
    n_star            optimal cores per region √(X·z'/(2α)); null when α = 0
    sp2_max           (2 + (1 + X)z')/(z' + 2√(2αXz')); null when α = 0
    optimum           {kind: "peak", n_star, sp2_max, text} or, for α = 0, {kind:
                      "no_optimum", limit: (2 + (1 + X)z')/z', text}: Sp2 rises toward it
    n_half            {one_region: X, two_regions, two_regions_upper}: the region sizes at
                      half the largest speed-up (lower bounds on a useful region; the upper
                      one is where Sp2 has fallen back to half, null for α = 0)
    balance           {x_prime, z, z_prime, x_in_region (x'·z), x_two_regions (the X of the
                      two-region formulas)}, two_region_x, alpha, and region_bandwidth_gb_s
                      when known
    workload          application form: {N, ops, bytes, exchanged_bytes}
    sweep             [{bandwidth_gb_s, z_prime, two_regions [{n, speedup}], n_star,
                      sp2_max, optimum}]
    required_bandwidth  {n, fraction, one_region_speedup, target_speedup, kind, text,
                      met_by_current (does the current B_E or z' reach it)} with kind
                      "bandwidth" (z_prime, bandwidth_gb_s when known), "any_bandwidth"
                      (even B_E → 0 reaches it) or "unreachable" (limit: what Sp2
                      approaches as B_E → ∞, (1 + X)/(1 + X/n))
    warnings          [{field, message}]: magnitudes that look like a unit mistake (a
                      bandwidth above 1000 GB/s, perhaps MB/s; below 1 MB/s)
    warnings_at       the same as [{path, message}], path = field: every calculator's shape

EXAMPLE:
    {"x_prime": 196.08, "z": 1.5, "z_prime": 10, "alpha": 0.05, "n": [64, 256]}
    answers one_region speedup 52.74 at n = 64 and 137.33 at 256, two_regions 47.36 and
    62.72, n_star 171.5, sp2_max 66.66; with "two_region_x": "slides" (x' = 196.08 in the
    two-region formulas) n_star 140.0 and sp2_max 51.91, the spec's numbers.
    {"application": "linpack", "N": 40000, "system": "bwgrid2-15", "n": [64, 1120],
     "required_bandwidth": {"n": 1120}} says whether 15 GB/s lets two regions of 1120 cores
    reach 90 % of one region's speed-up.

ERRORS:
    One line naming the key, e.g. "n[1]: must be a number of cores from 1 to 1e12, found 0"
    or "application.ops: column 4: expected a number, N or '(', found the end". Exit status 1.
"#;

/// A list that must not be empty.
fn not_empty<'a>(list: &'a [f64], path: &str) -> Result<&'a [f64], InputError> {
    if list.is_empty() {
        return Err(InputError::new(path, "the list is empty"));
    }
    Ok(list)
}

/// The model's error `e` at the request's key `path`: "path: column C: message", the column
/// being one of a formula (a one-line text, so no line is named).
fn error_at(path: &str, e: &InputError) -> InputError {
    let message = match e.column {
        Some(c) => format!("column {c}: {}", e.message),
        None => e.message.clone(),
    };
    InputError { field: path.to_string(), line: None, column: e.column, message }
}

fn application(a: &ApplicationRequest) -> Result<Application, InputError> {
    match a {
        TextOr::Text(s) if s.eq_ignore_ascii_case("linpack") => Ok(Application::linpack()),
        TextOr::Text(s) => {
            Err(InputError::new("application", format!("unknown preset \"{s}\"; expected \"linpack\" or an object")))
        }
        TextOr::Value(f) => Ok(Application {
            name: f.name.clone().unwrap_or_default(),
            ops: f.ops.clone(),
            bytes: f.bytes.clone(),
            exchanged_bytes: f.exchanged_bytes.clone(),
        }),
    }
}

fn system(s: &SystemRequest) -> Result<System, InputError> {
    match s {
        TextOr::Text(s) => System::preset(s).ok_or_else(|| {
            let keys: Vec<&str> = SYSTEM_PRESETS.iter().map(|p| p.key).collect();
            InputError::new("system", format!("unknown preset \"{s}\"; expected {} or an object", keys.join(", ")))
        }),
        TextOr::Value(f) => Ok(System {
            name: f.name.clone().unwrap_or_default(),
            peak_gflops_per_core: f.peak_gflops_per_core,
            node_bandwidth_gb_s: f.node_bandwidth_gb_s,
            reference_bandwidth_gb_s: f.reference_bandwidth_gb_s.unwrap_or(1.0),
            region_bandwidth_gb_s: f.region_bandwidth_gb_s,
            alpha: f.alpha,
        }),
    }
}

/// The model from either input form, its warnings, and the workload of the application form.
fn build(r: &RegionsRequest) -> Result<(Regions, Vec<Warning>, Option<WorkloadOut>), InputError> {
    let direct = [
        ("x_prime", r.x_prime.is_some()),
        ("z", r.z.is_some()),
        ("z_prime", r.z_prime.is_some()),
        ("region_bandwidth_gb_s", r.region_bandwidth_gb_s.is_some()),
    ]
    .into_iter()
    .find(|k| k.1)
    .map(|k| k.0);
    let app = [("application", r.application.is_some()), ("N", r.big_n.is_some()), ("system", r.system.is_some())]
        .into_iter()
        .find(|k| k.1)
        .map(|k| k.0);
    let missing = |key: &str| InputError::new("input", format!("missing key \"{key}\""));
    match (direct, app) {
        (Some(d), Some(a)) => Err(InputError::new(
            a,
            format!("give x_prime, z, z_prime or application, N, system, not both ({d} is also given)"),
        )),
        (None, None) => Err(InputError::new(
            "input",
            "give x_prime, z, z_prime and alpha, or application, N and system; see 'scalewise regions --help'",
        )),
        (Some(_), None) => {
            let balance = Balance {
                x_prime: r.x_prime.ok_or_else(|| missing("x_prime"))?,
                z: r.z.ok_or_else(|| missing("z"))?,
                z_prime: r.z_prime.ok_or_else(|| missing("z_prime"))?,
            };
            let alpha = r.alpha.ok_or_else(|| missing("alpha"))?;
            let mut m = Regions::new(balance, LoadFactor { alpha }).map_err(|e| error_at(&e.field, &e))?;
            let mut warnings = Vec::new();
            if let Some(b) = r.region_bandwidth_gb_s {
                m = m.with_region_bandwidth(b).map_err(|e| error_at(&e.field, &e))?;
                warnings.extend(crate::model::regions::bandwidth_warning("region_bandwidth_gb_s", b));
            }
            Ok((m, warnings, None))
        }
        (None, Some(_)) => {
            let app = application(r.application.as_ref().ok_or_else(|| missing("application"))?)?;
            let big_n = r.big_n.ok_or_else(|| missing("N"))?;
            let mut sys = system(r.system.as_ref().ok_or_else(|| missing("system"))?)?;
            let alpha_path = if let Some(a) = r.alpha {
                sys.alpha = a;
                "alpha"
            } else {
                "system.alpha"
            };
            let (m, w) = Regions::from_application(&app, big_n, &sys).map_err(|e| {
                let path = match e.field.as_str() {
                    "N" | "x_prime" | "z" | "z_prime" => e.field.clone(),
                    "ops" | "bytes" | "exchanged_bytes" => format!("application.{}", e.field),
                    "alpha" => alpha_path.to_string(),
                    other => format!("system.{other}"),
                };
                error_at(&path, &e)
            })?;
            let warnings = sys
                .warnings()
                .into_iter()
                .map(|mut w| {
                    w.field = format!("system.{}", w.field);
                    w
                })
                .collect();
            let workload =
                WorkloadOut { big_n: w.problem_size_n, ops: w.ops, bytes: w.bytes, exchanged_bytes: w.exchanged_bytes };
            Ok((m, warnings, Some(workload)))
        }
    }
}

super::answered_command!(RegionsCommand, RegionsRequest, RegionsAnswer, answer);

fn answer(r: RegionsRequest) -> Result<RegionsAnswer, InputError> {
    let ns = not_empty(&r.n, "n")?;
    let (model, warnings, workload) = build(&r)?;
    let choice = match &r.two_region_x {
        None => TwoRegionX::Scaled,
        Some(s) => TwoRegionX::parse("two_region_x", s).map_err(|e| error_at(&e.field, &e))?,
    };
    let model = model.with_two_region_x(choice);
    let curve = model.curve(ns).map_err(|e| error_at(&e.field, &e))?;
    let b = model.balance();
    let optimum = model.optimum();
    let sweep = match &r.sweep {
        None => None,
        Some(sw) => {
            let bws = not_empty(&sw.bandwidth_gb_s, "sweep.bandwidth_gb_s")?;
            let points = model.sweep(ns, bws).map_err(|e| error_at(&format!("sweep.{}", e.field), &e))?;
            Some(
                points
                    .into_iter()
                    .map(|p| SweepOut {
                        bandwidth_gb_s: p.bandwidth_gb_s,
                        z_prime: p.z_prime,
                        two_regions: p.speedups.iter().map(|s| NSpeedupOut { n: s.n, speedup: s.speedup }).collect(),
                        n_star: p.optimum.n_star(),
                        sp2_max: p.optimum.sp2_max(),
                        optimum: OptimumOut::new(p.optimum),
                    })
                    .collect(),
            )
        }
    };
    let required_bandwidth = match &r.required_bandwidth {
        None => None,
        Some(q) => {
            let path = "required_bandwidth";
            let r = model
                .required_bandwidth(q.n, q.fraction.unwrap_or(0.9))
                .map_err(|e| error_at(&format!("{path}.{}", e.field), &e))?;
            Some(RequiredOut {
                n: r.n,
                fraction: r.fraction,
                one_region_speedup: r.one_region_speedup,
                target_speedup: r.target_speedup,
                text: r.text(),
                met_by_current: r.met_at(b.z_prime),
                requirement: r.requirement,
            })
        }
    };
    Ok(RegionsAnswer {
        one_region: curve
            .iter()
            .map(|p| CurveOut { n: p.n, speedup: p.one_region, speedup_overlapping: p.one_region_overlapping })
            .collect(),
        two_regions: curve
            .iter()
            .map(|p| CurveOut { n: p.n, speedup: p.two_regions, speedup_overlapping: p.two_regions_overlapping })
            .collect(),
        n_star: optimum.n_star(),
        sp2_max: optimum.sp2_max(),
        optimum: OptimumOut::new(optimum),
        n_half: model.n_half(),
        balance: BalanceOut {
            x_prime: b.x_prime,
            z: b.z,
            z_prime: b.z_prime,
            x_in_region: b.in_region(),
            x_two_regions: model.two_region_balance(),
        },
        two_region_x: choice.key(),
        alpha: model.load().alpha,
        region_bandwidth_gb_s: model.region_bandwidth_gb_s(),
        workload,
        sweep,
        required_bandwidth,
        warnings_at: warnings.iter().map(|w| crate::model::Warning::at(&w.field, w.message.clone())).collect(),
        warnings,
    })
}

/// `scalewise regions`' answer.
#[derive(Serialize, JsonSchema)]
pub struct RegionsAnswer {
    /// Speed-up of one region of n cores.
    one_region: Vec<CurveOut>,
    /// Speed-up of two regions of n cores each.
    two_regions: Vec<CurveOut>,
    n_star: Option<f64>,
    sp2_max: Option<f64>,
    optimum: OptimumOut,
    n_half: NHalf,
    balance: BalanceOut,
    /// "scaled" or "slides".
    two_region_x: &'static str,
    alpha: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    region_bandwidth_gb_s: Option<f64>,
    /// With an application: the workload at N.
    #[serde(skip_serializing_if = "Option::is_none")]
    workload: Option<WorkloadOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sweep: Option<Vec<SweepOut>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    required_bandwidth: Option<RequiredOut>,
    warnings: Vec<Warning>,
    /// The same warnings in every calculator's shape: `path` is `field`.
    warnings_at: Vec<crate::model::Warning>,
}

#[derive(Serialize, JsonSchema)]
struct CurveOut {
    /// Cores per region (an integer when whole).
    #[serde(serialize_with = "crate::model::finite::whole")]
    n: f64,
    speedup: f64,
    speedup_overlapping: f64,
}

#[derive(Serialize, JsonSchema)]
struct NSpeedupOut {
    #[serde(serialize_with = "crate::model::finite::whole")]
    n: f64,
    speedup: f64,
}

/// Where Sp2 peaks ("kind": "peak") or the limit it rises to ("no_optimum"), and a sentence.
#[derive(Serialize, JsonSchema)]
struct OptimumOut {
    #[serde(flatten)]
    optimum: Optimum,
    text: String,
}

impl OptimumOut {
    fn new(optimum: Optimum) -> Self {
        OptimumOut { text: optimum.text(), optimum }
    }
}

#[derive(Serialize, JsonSchema)]
struct BalanceOut {
    x_prime: f64,
    z: f64,
    z_prime: f64,
    x_in_region: f64,
    x_two_regions: f64,
}

#[derive(Serialize, JsonSchema)]
struct WorkloadOut {
    #[serde(rename = "N", serialize_with = "crate::model::finite::whole")]
    big_n: f64,
    ops: f64,
    bytes: f64,
    exchanged_bytes: f64,
}

#[derive(Serialize, JsonSchema)]
struct SweepOut {
    bandwidth_gb_s: f64,
    z_prime: f64,
    two_regions: Vec<NSpeedupOut>,
    n_star: Option<f64>,
    sp2_max: Option<f64>,
    optimum: OptimumOut,
}

/// The smallest B_E ("kind": "bandwidth"), any ("any_bandwidth") or none ("unreachable").
#[derive(Serialize, JsonSchema)]
struct RequiredOut {
    #[serde(serialize_with = "crate::model::finite::whole")]
    n: f64,
    fraction: f64,
    one_region_speedup: f64,
    target_speedup: f64,
    text: String,
    met_by_current: bool,
    #[serde(flatten)]
    requirement: Requirement,
}

#[cfg(test)]
mod tests {
    use super::super::request::input_schema;
    use super::*;
    use serde_json::{json, Value};

    fn num(v: &Value) -> f64 {
        v.as_f64().unwrap_or(f64::NAN)
    }

    fn close(name: &str, got: &Value, want: f64, tol: f64) {
        assert!((num(got) - want).abs() <= tol, "{name}: got {got}, want {want}");
    }

    #[test]
    fn contract_example() {
        let out = super::super::run_json(
            &COMMAND,
            json!({"x_prime": 196.08, "z": 1.5, "z_prime": 10, "alpha": 0.05, "n": [64, 256]}),
            &[],
        )
        .expect("valid");
        for key in ["one_region", "two_regions", "n_star", "sp2_max", "optimum", "n_half", "warnings", "warnings_at"] {
            assert!(out.get(key).is_some(), "answer lacks {key}: {out}");
        }
        assert_eq!(out["one_region"][0]["n"], json!(64));
        assert_eq!(out["two_regions"][1]["n"], json!(256));
        // Spec: Sp(64) ≈ 52.74, Sp(256) ≈ 137.33 (x' = 196.08, z = 1.5).
        close("Sp(64)", &out["one_region"][0]["speedup"], 52.74, 0.005);
        close("Sp(256)", &out["one_region"][1]["speedup"], 137.33, 0.005);
        // By default two regions hold X = x'·z = 294.12: n* = √(294.12·10/0.1), Sp2_max by the
        // closed form, as in the help.
        let x = 196.08 * 1.5;
        close("n*", &out["n_star"], (x * 10.0 / 0.1f64).sqrt(), 1e-9);
        close("Sp2_max", &out["sp2_max"], (2.0 + (1.0 + x) * 10.0) / (10.0 + 2.0 * (0.1 * x * 10.0f64).sqrt()), 1e-9);
        close(
            "Sp2(64)",
            &out["two_regions"][0]["speedup"],
            (2.0 + (1.0 + x) * 10.0) / (6.4 + (1.0 + x / 64.0) * 10.0),
            1e-9,
        );
        close("n*, as in the help", &out["n_star"], 171.5, 0.05);
        close("Sp2(64), as in the help", &out["two_regions"][0]["speedup"], 47.36, 0.005);
        close("Sp2(256), as in the help", &out["two_regions"][1]["speedup"], 62.72, 0.005);
        close("x_two_regions", &out["balance"]["x_two_regions"], x, 1e-9);
        assert_eq!(out["two_region_x"], json!("scaled"));
        // Read literally, the slides' formula holds x': the spec's z' = 10 row.
        let out = super::super::run_json(
            &COMMAND,
            json!({"x_prime": 196.08, "z": 1.5, "z_prime": 10, "alpha": 0.05, "n": [64, 256],
                                       "two_region_x": "slides"}),
            &[],
        )
        .expect("valid");
        close("slides n*", &out["n_star"], 140.0, 0.05);
        close("slides Sp2_max", &out["sp2_max"], 51.91, 0.005);
        assert_eq!(out["two_region_x"], json!("slides"));
        let e = super::super::run_json(
            &COMMAND,
            json!({"x_prime": 1, "z": 1, "z_prime": 1, "alpha": 0, "n": [4], "two_region_x": 3}),
            &[],
        )
        .map_err(|e| crate::cli::said(&e))
        .expect_err("bad choice");
        assert!(e.starts_with("two_region_x: expected"), "{e}");
        assert_eq!(out["optimum"]["kind"], json!("peak"));
        assert_eq!(out["warnings"], json!([]));
    }

    #[test]
    fn spec_optimum_table() {
        for (zp, n_star, sp2_max) in [(1.0, 44.3, 20.20), (10.0, 140.0, 51.91), (100.0, 442.8, 104.53)] {
            let out = super::super::run_json(
                &COMMAND,
                json!({"x_prime": 196.08, "z": 1, "z_prime": zp, "alpha": 0.05, "n": [64]}),
                &[],
            )
            .expect("valid");
            close(&format!("n*(z'={zp})"), &out["n_star"], n_star, 0.05);
            close(&format!("Sp2_max(z'={zp})"), &out["sp2_max"], sp2_max, 0.005);
        }
    }

    #[test]
    fn no_contention() {
        let out = super::super::run_json(
            &COMMAND,
            json!({"x_prime": 196.08, "z": 1, "z_prime": 10, "alpha": 0, "n": [64]}),
            &[],
        )
        .expect("valid");
        assert_eq!((&out["n_star"], &out["sp2_max"]), (&Value::Null, &Value::Null));
        assert_eq!(out["optimum"]["kind"], json!("no_optimum"));
        close("limit", &out["optimum"]["limit"], (2.0 + 197.08 * 10.0) / 10.0, 1e-9);
        assert!(out["optimum"]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("no optimum: Sp2 rises toward its limit")));
        close("n½ = X", &out["n_half"]["two_regions"], 196.08, 1e-9);
        assert_eq!(out["n_half"]["two_regions_upper"], Value::Null);
    }

    #[test]
    fn linpack_on_bwgrid() {
        let input = json!({"application": "linpack", "N": 40000, "system": "bwgrid1", "n": [64, 256, 1120],
                           "sweep": {"bandwidth_gb_s": [1, 15, 45]}, "required_bandwidth": {"n": 64}});
        let out = super::super::run_json(&COMMAND, input, &[]).expect("valid");
        close("x' = N/204", &out["balance"]["x_prime"], 40000.0 / 204.0, 1e-9);
        close("z' = 4/1.5", &out["balance"]["z_prime"], 4.0 / 1.5, 1e-12);
        close("Sp(1120)", &out["one_region"][2]["speedup"], 233.74, 0.005);
        assert_eq!(out["workload"]["N"], json!(40000));
        close("sweep z' at 45 GB/s", &out["sweep"][2]["z_prime"], 4.0 * 45.0 / 1.5, 1e-9);
        assert_eq!(out["sweep"][0]["two_regions"][1]["speedup"], out["two_regions"][1]["speedup"]);
        let r = &out["required_bandwidth"];
        assert_eq!(r["kind"], json!("bandwidth"));
        close("B_E = z'·1.5/4", &r["bandwidth_gb_s"], num(&r["z_prime"]) * 1.5 / 4.0, 1e-9);
        assert_eq!(r["met_by_current"], json!(num(&r["bandwidth_gb_s"]) <= 1.0));

        let custom = json!({"application": {"ops": "2/3*N^3", "bytes": "2*N^2*8", "exchanged_bytes": "N^2*4"},
                            "N": 40000, "n": [64], "alpha": 0,
                            "system": {"peak_gflops_per_core": 8.5, "node_bandwidth_gb_s": 1500,
                                       "region_bandwidth_gb_s": 1.0, "alpha": 0.05}});
        let out = super::super::run_json(&COMMAND, custom, &[]).expect("valid");
        assert_eq!(out["alpha"], json!(0.0));
        assert_eq!(out["warnings"][0]["field"], json!("system.node_bandwidth_gb_s"));
        assert_eq!(out["warnings_at"][0]["path"], json!("system.node_bandwidth_gb_s"));
        assert_eq!(out["warnings_at"][0]["message"], out["warnings"][0]["message"]);
        assert!(out["warnings"][0]["message"].as_str().is_some_and(|m| m.contains("MB/s")));
    }

    #[test]
    fn required_bandwidth_outcomes() {
        let base = json!({"x_prime": 196.08, "z": 1.5, "z_prime": 10, "alpha": 0.05, "n": [64]});
        let with = |r: Value| {
            let mut v = base.clone();
            v["required_bandwidth"] = r;
            super::super::run_json(&COMMAND, v, &[]).expect("valid")
        };
        let out = with(json!({"n": 256, "fraction": 1}));
        assert_eq!(out["required_bandwidth"]["kind"], json!("unreachable"));
        assert_eq!(out["required_bandwidth"]["met_by_current"], json!(false));
        let out = with(json!({"n": 4}));
        assert_eq!(out["required_bandwidth"]["kind"], json!("any_bandwidth"));
        let out = with(json!({"n": 256}));
        assert_eq!(out["required_bandwidth"]["kind"], json!("bandwidth"));
        assert_eq!(out["required_bandwidth"]["bandwidth_gb_s"], Value::Null, "no B_E given");
        close("fraction default", &out["required_bandwidth"]["fraction"], 0.9, 0.0);
        // Read literally (x' in Sp2 with z = 1.5), 90 % of Sp(256) is out of reach.
        let mut v = base.clone();
        v["two_region_x"] = json!("slides");
        v["required_bandwidth"] = json!({"n": 256});
        let out = super::super::run_json(&COMMAND, v, &[]).expect("valid");
        assert_eq!(out["required_bandwidth"]["kind"], json!("unreachable"));
        close("limit", &out["required_bandwidth"]["limit"], 197.08 / (1.0 + 196.08 / 256.0), 1e-9);
    }

    #[test]
    fn errors_name_the_key() {
        let base = json!({"x_prime": 196.08, "z": 1.5, "z_prime": 10, "alpha": 0.05, "n": [64, 256]});
        let edit = |key: &str, v: Value| {
            let mut b = base.clone();
            b[key] = v;
            b
        };
        let app = |ops: &str| {
            json!({"application": {"ops": ops, "bytes": "16*N^2", "exchanged_bytes": "4*N^2"},
                                      "N": 1000, "system": "bwgrid1", "n": [8]})
        };
        let cases = [
            ("bad n", edit("n", json!([64, 0])), "n[1]: must be a number of cores from 1 to 1e12, found 0"),
            ("n text", edit("n", json!([64, "a"])), "n[1]: expected a number, found a string"),
            ("n empty", edit("n", json!([])), "n: the list is empty"),
            ("zero x'", edit("x_prime", json!(0)), "x_prime: must be greater than 0, found 0"),
            ("negative z'", edit("z_prime", json!(-1)), "z_prime: must be greater than 0, found -1"),
            ("negative alpha", edit("alpha", json!(-0.1)), "alpha: must be 0 or from 1e-12 to 1e6"),
            ("unknown key", edit("xprime", json!(1)), "input: unknown key \"xprime\""),
            ("both forms", edit("system", json!("bwgrid1")), "system: give x_prime, z, z_prime or application"),
            ("formula", app("2/3*N^"), "application.ops: column 7: expected a number, N or '(', found the end"),
            ("formula name", app("2*n^3"), "application.ops: column 3: unknown name 'n'"),
            ("no system", json!({"application": "linpack", "N": 1000, "n": [8]}), "input: missing key \"system\""),
            (
                "system field",
                json!({"application": "linpack", "N": 1000, "n": [8], "system": {"peak_gflops_per_core": 8.5,
                       "node_bandwidth_gb_s": 0, "region_bandwidth_gb_s": 1, "alpha": 0.05}}),
                "system.node_bandwidth_gb_s: must be greater than 0, found 0",
            ),
            (
                "system missing",
                json!({"application": "linpack", "N": 1000, "n": [8], "system": {"peak_gflops_per_core": 8.5}}),
                "system: missing key \"node_bandwidth_gb_s\"",
            ),
            (
                "preset",
                json!({"application": "hpcg", "N": 1000, "n": [8], "system": "bwgrid1"}),
                "application: unknown preset",
            ),
            (
                "bad N",
                json!({"application": "linpack", "N": -1, "n": [8], "system": "bwgrid1"}),
                "N: must be greater than 0",
            ),
            ("sweep without B_E", edit("sweep", json!({"bandwidth_gb_s": [1]})), "sweep.bandwidth_gb_s: needs the B_E"),
            (
                "required n",
                edit("required_bandwidth", json!({"n": 0.5})),
                "required_bandwidth.n: must be a number of cores",
            ),
            (
                "fraction",
                edit("required_bandwidth", json!({"n": 64, "fraction": 2})),
                "required_bandwidth.fraction: must be",
            ),
            ("nothing", json!({"n": [8]}), "input: give x_prime, z, z_prime and alpha"),
            ("no n", json!({"x_prime": 1}), "input: missing key \"n\""),
        ];
        for (name, input, want) in cases {
            let err = super::super::run_json(&COMMAND, input, &[]).map_err(|e| crate::cli::said(&e)).expect_err(name);
            assert!(err.contains(want), "{name}: {err}");
            assert!(!err.contains('\n'), "{name}: one line: {err}");
        }
        let mut swept = edit("region_bandwidth_gb_s", json!(1.0));
        swept["sweep"] = json!({"bandwidth_gb_s": [1, -2]});
        let err =
            super::super::run_json(&COMMAND, swept, &[]).map_err(|e| crate::cli::said(&e)).expect_err("negative B_E");
        assert!(err.starts_with("sweep.bandwidth_gb_s[1]: must be greater than 0"), "{err}");
    }

    #[test]
    fn help_documents_every_key() {
        // Every key of the request, as the schema lists them, and of the answer.
        let schema = input_schema::<RegionsRequest>().to_value();
        let keys: Vec<String> =
            schema["properties"].as_object().map(|p| p.keys().cloned().collect()).unwrap_or_default();
        assert!(keys.len() >= 12, "{keys:?}");
        for key in keys.iter().map(String::as_str).chain([
            "one_region",
            "two_regions",
            "n_star",
            "sp2_max",
            "no_optimum",
            "n_half",
            "required_bandwidth",
            "fraction",
            "bandwidth_gb_s",
            "ops",
            "exchanged_bytes",
            "peak_gflops_per_core",
            "node_bandwidth_gb_s",
            "reference_bandwidth_gb_s",
            "unreachable",
            "any_bandwidth",
            "warnings",
            "speedup_overlapping",
        ]) {
            assert!(COMMAND.help.contains(key), "help lacks {key}");
        }
    }
}

//! `scalewise bottlenecks PATH` on Score-P runs (Cube 4 profiles): Extra-P's own cube sets open
//! as Extra-P 4.2.5 opens them, the values are Extra-P's, generated runs with known laws are
//! predicted and ranked right, and a profile past a limit is refused.

use serde_json::Value;
use std::path::{Path, PathBuf};

use scalewise::model::cube::{write, DType, Kind, Spec, SpecCnode, SpecMetric, WriteOptions};

mod common;

fn cubeset(name: &str) -> String {
    format!("{}/tests/data/extrap-upstream/cubeset/{name}", env!("CARGO_MANIFEST_DIR"))
}

use common::{answer, refused};

fn callpaths(v: &Value) -> Vec<String> {
    v["regions"].as_array().unwrap().iter().map(|r| r["callpath"].as_str().unwrap().to_string()).collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// Every point of every region, as the parameter values in the answer's parameter order.
fn points(v: &Value) -> Vec<Vec<f64>> {
    let params: Vec<&str> = v["parameters"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    let mut all: Vec<Vec<f64>> = Vec::new();
    for r in v["regions"].as_array().unwrap() {
        let mut mine: Vec<Vec<f64>> = r["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| params.iter().map(|k| p["point"][*k].as_f64().unwrap()).collect())
            .collect();
        mine.sort_by(|a, b| a.partial_cmp(b).unwrap());
        if all.is_empty() {
            all = mine;
        } else {
            assert_eq!(all, mine, "every region has the same points: {}", r["callpath"]);
        }
    }
    all
}

fn grid(axes: &[&[f64]]) -> Vec<Vec<f64>> {
    let mut out: Vec<Vec<f64>> = vec![vec![]];
    for axis in axes {
        out = out.iter().flat_map(|prefix| axis.iter().map(move |x| [prefix.clone(), vec![*x]].concat())).collect();
    }
    out.sort_by(|a, b| a.partial_cmp(b).unwrap());
    out
}

const MATMUL_CALLPATHS: [&str; 4] = ["main", "main->init_mat", "main->zero_mat", "main->mat_mul"];
/// Extra-P's test_load_cube_files.py asserts exactly these (the metrics with data).
const MATMUL_METRICS: [&str; 7] =
    ["visits", "time", "min_time", "max_time", "PAPI_FP_OPS", "PAPI_L3_TCM", "PAPI_L2_TCM"];

/// runs.metrics holds Extra-P's seven. It also lists bytes_put and bytes_get, which these
/// profiles declare without data (no 4.index/4.data): Extra-P skips them with a warning, and
/// asking for one here is refused naming the missing data (checked below).
fn check_matmul_metrics(v: &Value) {
    let metrics: Vec<&str> = v["runs"]["metrics"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    for m in MATMUL_METRICS {
        assert!(metrics.contains(&m), "{m} in {metrics:?}");
    }
}

#[test]
fn a_metric_declared_without_data_is_refused_when_asked_for() {
    let e = refused(&["bottlenecks", &cubeset("single_parameter"), "--metric", "bytes_put"]);
    assert!(e.contains("bytes_put") && e.contains("no data"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// 1. Extra-P's cube sets open as Extra-P 4.2.5 opens them (its tests/test_load_cube_files.py).
// ---------------------------------------------------------------------------------------------

#[test]
fn multi_parameter_has_three_parameters_27_points_four_call_paths_and_the_metrics() {
    for aggregate in ["mean", "sum"] {
        let v = answer(&["bottlenecks", &cubeset("multi_parameter"), "--aggregate", aggregate, "--compact"]);
        assert_eq!(v["format"], "cube");
        assert_eq!(v["parameters"], serde_json::json!(["x", "y", "z"]));
        let axis: &[f64] = &[1.0, 10.0, 25.0];
        assert_eq!(points(&v), grid(&[axis, axis, axis]));
        assert_eq!(sorted(callpaths(&v)), sorted(MATMUL_CALLPATHS.map(String::from).to_vec()));
        check_matmul_metrics(&v);
        assert_eq!(v["runs"]["count"], 27);
        assert_eq!(v["runs"]["aggregate"], aggregate);
        assert_eq!(v["runs"]["merged"], serde_json::json!([]));
    }
}

#[test]
fn single_parameter_has_nine_points_exclusive_and_inclusive() {
    let xs = [1.0, 10.0, 25.0, 50.0, 100.0, 250.0, 500.0, 1000.0, 2000.0];
    for extra in
        [&[][..], &["--aggregate", "sum"][..], &["--inclusive"][..], &["--inclusive", "--aggregate", "sum"][..]]
    {
        let path = cubeset("single_parameter");
        let args = [&["bottlenecks", path.as_str(), "--compact"][..], extra].concat();
        let v = answer(&args);
        assert_eq!(v["parameters"], serde_json::json!(["x"]), "{extra:?}");
        assert_eq!(points(&v), xs.iter().map(|x| vec![*x]).collect::<Vec<_>>(), "{extra:?}");
        assert_eq!(sorted(callpaths(&v)), sorted(MATMUL_CALLPATHS.map(String::from).to_vec()), "{extra:?}");
        check_matmul_metrics(&v);
        assert_eq!(v["runs"]["inclusive"], extra.contains(&"--inclusive"));
    }
}

#[test]
fn extra_files_and_folders_and_every_allowed_name_form_open() {
    for (set, count) in [("extra_file", 2), ("extra_folder", 2)] {
        let v = answer(&["bottlenecks", &cubeset(set), "--compact"]);
        assert_eq!(v["runs"]["count"], count, "{set}");
        assert_eq!(v["parameters"], serde_json::json!(["x"]), "{set}: y and z have one value and are dropped");
        assert_eq!(points(&v), vec![vec![1.0], vec![10.0]], "{set}");
        assert!(v["runs"]["passed_over"].as_u64().unwrap() >= 1, "{set}: the extra file or folder is passed over");
    }
    for aggregate in ["mean", "sum"] {
        let v = answer(&["bottlenecks", &cubeset("allowed_formats"), "--aggregate", aggregate, "--compact"]);
        assert_eq!(v["parameters"], serde_json::json!(["x", "y", "z"]));
        assert_eq!(v["runs"]["count"], 10, "two folders hold two profiles each (repetitions)");
        assert_eq!(sorted(callpaths(&v)), sorted(MATMUL_CALLPATHS.map(String::from).to_vec()));
        // mm.x20,5.y20,5.z1,5.r1: a comma is a decimal point.
        assert!(points(&v).contains(&vec![20.5, 20.5, 1.5]), "{:?}", points(&v));
    }
}

#[test]
fn threaded_set_opens_with_its_parameter_and_call_paths() {
    let v = answer(&["bottlenecks", &cubeset("simple_threaded"), "--compact"]);
    assert_eq!(v["parameters"], serde_json::json!(["f"]));
    assert_eq!(points(&v), (1..=5).map(|f| vec![f as f64]).collect::<Vec<_>>());
    let cps = callpaths(&v);
    for cp in ["main", "main->foo", "main->bar", "main->omp parallel"] {
        assert!(cps.iter().any(|c| c == cp), "{cp} in {cps:?}");
    }
    let metrics = &v["runs"]["metrics"];
    assert!(
        metrics.as_array().unwrap().iter().any(|m| m == "visits")
            && metrics.as_array().unwrap().iter().any(|m| m == "time"),
        "{metrics}"
    );
}

#[test]
fn wrong_parameters_and_a_folder_without_runs_are_refused_naming_the_folder() {
    for aggregate in ["mean", "sum"] {
        // mm.x1y1wrong1 names x, y, wrong; x10y1z1 names x, y, z.
        let e = refused(&["bottlenecks", &cubeset("negative_example"), "--aggregate", aggregate]);
        assert!(e.contains("mm.x1y1wrong1") && e.contains("x10y1z1"), "{e}");
        // mm.y1x1z1 names y, x, z: the same names in another order.
        let e = refused(&["bottlenecks", &cubeset("negative_example2"), "--aggregate", aggregate]);
        assert!(e.contains("mm.y1x1z1") && e.contains("x10y1z1"), "{e}");
        // The cube sets are two levels below `cubeset`: no run one level below it.
        let e = refused(&["bottlenecks", &cubeset(""), "--aggregate", aggregate]);
        assert!(e.contains("folder") && e.contains(".cubex"), "{e}");
    }
}

// ---------------------------------------------------------------------------------------------
// 2. The values are Extra-P's.
// ---------------------------------------------------------------------------------------------

/// (set, Extra-P scaling, call path, the first parameter's value, Extra-P's Measurement.mean of
/// metric time). Printed by `.venv-extrap/bin/python scripts/extrap-cube-reference.py` (Extra-P
/// 4.2.5's CubeFileReader2: "weak" is read_cube_file(path, 'weak'), every location's value,
/// whose mean is ours with --aggregate mean; "strong" is read_cube_file(path, 'strong'), the sum
/// over locations, ours with --aggregate sum; "weak-incl" is weak with
/// use_inclusive_measurements = True, ours with --inclusive). Every run there is one
/// repetition, so Extra-P's mean is also the median of repetitions that time_s is.
/// single_parameter has one location per run (weak = strong); simple_threaded has four.
const EXTRAP: &[(&str, &str, &str, f64, f64)] = &[
    ("single_parameter", "weak", "main", 1.0, 3.1883e-05),
    ("single_parameter", "weak", "main", 25.0, 1.1930999999999998e-05),
    ("single_parameter", "weak", "main", 2000.0, 1.3075000000000001e-05),
    ("single_parameter", "weak", "main->init_mat", 2000.0, 2.2166e-05),
    ("single_parameter", "weak", "main->mat_mul", 250.0, 1.718e-06),
    ("single_parameter", "weak", "main->zero_mat", 1.0, 1.266e-06),
    ("single_parameter", "strong", "main->init_mat", 2000.0, 2.2166e-05),
    ("single_parameter", "strong", "main->zero_mat", 500.0, 1.648e-06),
    ("single_parameter", "weak-incl", "main", 1.0, 3.8177e-05),
    ("single_parameter", "weak-incl", "main", 10.0, 1.7147e-05),
    ("single_parameter", "weak-incl", "main", 2000.0, 4.5265e-05),
    ("single_parameter", "weak-incl", "main->mat_mul", 1000.0, 3.829e-06),
    ("simple_threaded", "weak", "main", 3.0, 2.1),
    ("simple_threaded", "weak", "main->foo", 1.0, 2.475),
    ("simple_threaded", "weak", "main->foo", 3.0, 7.425000000000001),
    ("simple_threaded", "weak", "main->bar", 5.0, 10.375),
    ("simple_threaded", "weak", "main->omp parallel", 4.0, 13.2),
    ("simple_threaded", "strong", "main", 2.0, 5.6000000000000005),
    ("simple_threaded", "strong", "main->foo", 2.0, 19.8),
    ("simple_threaded", "strong", "main->bar", 5.0, 41.5),
    ("simple_threaded", "strong", "main->omp parallel", 3.0, 39.6),
    ("simple_threaded", "weak-incl", "main", 1.0, 8.55),
    ("simple_threaded", "weak-incl", "main", 3.0, 25.650000000000002),
    ("simple_threaded", "weak-incl", "main->foo", 4.0, 9.9),
];

#[test]
fn point_values_are_extrap_weak_strong_and_inclusive_measurements() {
    let mut answers: std::collections::HashMap<(&str, &str), Value> = Default::default();
    for &(set, scaling, callpath, x, expected) in EXTRAP {
        let v = answers.entry((set, scaling)).or_insert_with(|| {
            let path = cubeset(set);
            let extra: &[&str] = match scaling {
                "weak" => &["--aggregate", "mean"],
                "strong" => &["--aggregate", "sum"],
                _ => &["--inclusive"],
            };
            answer(&[&["bottlenecks", path.as_str(), "--metric", "time", "--compact"][..], extra].concat())
        });
        let param = v["parameters"][0].as_str().unwrap().to_string();
        let own = |cp: &str| -> f64 {
            let region = v["regions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["callpath"] == cp)
                .unwrap_or_else(|| panic!("{set} {scaling}: no {cp}"));
            let point = region["points"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["point"][&param] == x)
                .unwrap_or_else(|| panic!("{set} {scaling} {cp}: no point {x}"));
            point["time_s"].as_f64().unwrap()
        };
        let got = if scaling == "weak-incl" {
            // With --inclusive the points hold own time (the answer's help: "points hold own
            // time when inclusive values were turned into it"); a region's inclusive time is
            // its own plus that of every call path below it.
            assert_eq!(v["times"]["kind"], "inclusive", "{set}: {}", v["times"]);
            let prefix = format!("{callpath}->");
            let below: Vec<String> = v["regions"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|r| r["callpath"].as_str())
                .filter(|c| c.starts_with(&prefix))
                .map(String::from)
                .collect();
            own(callpath) + below.iter().map(|c| own(c)).sum::<f64>()
        } else {
            own(callpath)
        };
        assert!(
            (got - expected).abs() <= 1e-9 * expected.abs(),
            "{set} {scaling} {callpath} at {x}: {got} where Extra-P reads {expected}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Generated runs from known laws.
// ---------------------------------------------------------------------------------------------

/// A folder under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let p = std::env::temp_dir().join(format!("scalewise-cli-cube-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&p).expect("temp dir");
        TempDir(p)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Deterministic noise in [-1 %, +1 %] (xorshift64).
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        let unit = (self.0 >> 11) as f64 / (1u64 << 53) as f64;
        1.0 + 0.02 * (unit - 0.5)
    }
}

const PACK: &str = "pack&unpack<T>";

/// Rank 0's slowdown in `pack&unpack<T>` at p processes: grows with p.
fn pack_slowdown(p: f64) -> f64 {
    1.0 + 0.25 * p.log2()
}

/// The true exclusive time (seconds) of one location of rank `rank` at p processes, per region.
fn law(region: &str, p: f64, rank: usize) -> f64 {
    match region {
        "main" => 0.1,
        "compute" => 200.0 / p,
        "extra" => 0.01,
        "comm" => 0.5 * p.log2(),
        "io" => 0.02 * p,
        PACK => 0.05 * p.sqrt() * if rank == 0 { pack_slowdown(p) } else { 1.0 },
        _ => unreachable!(),
    }
}

/// The true mean over locations, as the answer's call paths hold them: `extra` (present at
/// p ≥ 8 only) is merged into `compute`.
fn truth(callpath: &str, p: f64) -> f64 {
    match callpath {
        "main" => law("main", p, 1),
        "main->compute" => law("compute", p, 1) + if p >= 8.0 { law("extra", p, 1) } else { 0.0 },
        "main->comm" => law("comm", p, 1),
        "main->io" => law("io", p, 1),
        "main->pack&unpack<T>" => 0.05 * p.sqrt() * (p - 1.0 + pack_slowdown(p)) / p,
        c => panic!("unexpected call path {c}"),
    }
}

const THREADS: usize = 2;
const COUNTS: [usize; 5] = [2, 4, 8, 16, 32];

/// One run's profile: main -> {compute [-> extra at p ≥ 8], comm, io, pack&unpack<T>}, p ranks
/// of two threads, metrics time (DOUBLE) and visits (UINT64).
fn profile(p: usize, noise: &mut Noise) -> Spec {
    let regions: Vec<String> = ["main", "compute", "extra", "comm", "io", PACK].map(String::from).to_vec();
    let mut tree: Vec<(usize, Option<usize>)> = vec![(0, None), (1, Some(0))];
    if p >= 8 {
        tree.push((2, Some(1)));
    }
    for r in [3, 4, 5] {
        tree.push((r, Some(0)));
    }
    let locations = p * THREADS;
    let time: Vec<Vec<f64>> = tree
        .iter()
        .map(|&(r, _)| (0..locations).map(|l| law(&regions[r], p as f64, l / THREADS) * noise.next()).collect())
        .collect();
    let visits: Vec<Vec<f64>> = tree.iter().map(|&(r, _)| vec![1.0 + r as f64; locations]).collect();
    let metric = |name: &str, dtype: DType, units: &str, values: Vec<Vec<f64>>| SpecMetric {
        uniq_name: name.into(),
        disp_name: name.into(),
        units: units.into(),
        kind: Kind::Exclusive,
        dtype,
        values,
    };
    Spec {
        metrics: vec![metric("visits", DType::Uint64, "occ", visits), metric("time", DType::Double, "sec", time)],
        regions,
        cnodes: tree.iter().map(|&(region, parent)| SpecCnode { region, parent }).collect(),
        ranks: p,
        threads: THREADS,
    }
}

/// Writes app.p{p}.r{1,2}/profile.cubex for every count; run k's encoding is bit by bit of k
/// (big-endian, zlib data, gzipped anchor, gzipped archive), so each choice is taken both ways.
fn write_runs(dir: &Path) {
    let mut noise = Noise(0x9E37_79B9_7F4A_7C15);
    let mut k = 0usize;
    for p in COUNTS {
        for rep in 1..=2 {
            let opts = WriteOptions {
                big_endian: k & 1 != 0,
                zlib: k & 2 != 0,
                gzip_anchor: k & 4 != 0,
                gzip_archive: k & 8 != 0,
            };
            let run = dir.join(format!("app.p{p}.r{rep}"));
            std::fs::create_dir_all(&run).unwrap();
            std::fs::write(run.join("profile.cubex"), write(&profile(p, &mut noise), &opts)).unwrap();
            k += 1;
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

#[test]
fn generated_runs_rank_and_predict_by_their_laws() {
    let dir = TempDir::new("laws");
    write_runs(dir.path());
    let v = answer(&["bottlenecks", dir.path().to_str().unwrap(), "--predict", "128,512", "--compact"]);
    assert_eq!(v["format"], "cube");
    assert_eq!(v["parameters"], serde_json::json!(["p"]));
    assert_eq!(v["runs"]["count"], 10);
    assert_eq!(v["runs"]["locations"], serde_json::json!([4, 64]), "2 ranks × 2 threads to 32 × 2");
    let metrics = &v["runs"]["metrics"];
    assert!(
        metrics.as_array().unwrap().iter().any(|m| m == "visits")
            && metrics.as_array().unwrap().iter().any(|m| m == "time"),
        "{metrics}"
    );

    // The region name with '&' and '<' comes through as written; extra, present from p = 8
    // only, is merged into its parent and the answer says so.
    let expected =
        ["main", "main->compute", "main->comm", "main->io", "main->pack&unpack<T>"].map(String::from).to_vec();
    assert_eq!(sorted(callpaths(&v)), sorted(expected.clone()));
    let merged = v["runs"]["merged"].to_string();
    assert!(merged.contains("main->compute->extra") && merged.contains("\"main->compute\""), "{merged}");

    // The measured points are the laws (mean over 2p locations, median of two repetitions,
    // ±1 % noise).
    for r in v["regions"].as_array().unwrap() {
        let cp = r["callpath"].as_str().unwrap();
        for pt in r["points"].as_array().unwrap() {
            let p = pt["n"].as_f64().unwrap();
            assert_eq!(pt["repetitions"], 2, "{cp} at {p}");
            let (got, want) = (pt["time_s"].as_f64().unwrap(), truth(cp, p));
            assert!((got / want - 1.0).abs() < 0.01, "{cp} at p = {p}: measured {got}, law {want}");
        }
    }

    // The dominant call path at 128 and 512 is the one the laws make largest.
    for (i, p) in [128.0, 512.0].into_iter().enumerate() {
        let want = expected.iter().max_by(|a, b| truth(a, p).partial_cmp(&truth(b, p)).unwrap()).unwrap();
        assert_eq!(v["dominant"][i]["n"].as_f64(), Some(p));
        assert_eq!(v["dominant"][i]["callpath"].as_str(), Some(want.as_str()), "dominant at p = {p}");
    }
    assert_eq!(v["dominant"][0]["callpath"], "main->comm", "the laws: comm 3.5 s, io 2.56 s, compute 1.57 s at 128");
    assert_eq!(v["dominant"][1]["callpath"], "main->io", "the laws: io 10.24 s, comm 4.5 s at 512");

    // The median relative error of the regions' predicted times against the laws.
    for (i, p) in [128.0, 512.0].into_iter().enumerate() {
        let errors: Vec<f64> = v["regions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let pred = &r["predictions"][i];
                assert_eq!(pred["n"].as_f64(), Some(p));
                let want = truth(r["callpath"].as_str().unwrap(), p);
                (pred["time_s"].as_f64().unwrap() / want - 1.0).abs()
            })
            .collect();
        let m = median(errors.clone());
        eprintln!("# generated laws: relative prediction errors at p = {p}: {errors:?}, median {m:.4}");
        assert!(m <= 0.10, "median relative error at p = {p}: {m} ({errors:?})");
    }
}

#[test]
fn generated_runs_show_the_imbalance_of_rank_zero() {
    let dir = TempDir::new("imbalance");
    write_runs(dir.path());
    let v = answer(&["bottlenecks", dir.path().to_str().unwrap(), "--predict", "128,512", "--compact"]);
    let region = |cp: &str| {
        v["regions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["callpath"] == cp)
            .unwrap_or_else(|| panic!("no {cp}"))
            .clone()
    };
    let pack = region("main->pack&unpack<T>");
    // The region objects carry each point's imbalance (largest over mean across locations)
    // since the call-tree merge; skipped where an answer has none.
    let Some(series) = pack["imbalance"].as_array() else {
        eprintln!("# no imbalance key in the region objects: the imbalance check is skipped");
        return;
    };
    assert_eq!(series.len(), COUNTS.len(), "{}", pack["imbalance"]);
    let mut last = 0.0;
    for (pt, p) in series.iter().zip(COUNTS) {
        let p = p as f64;
        assert_eq!(pt["n"].as_f64(), Some(p));
        let got = pt["imbalance"].as_f64().unwrap();
        // Rank 0's two threads are pack_slowdown(p) times slower than the other 2(p − 1).
        let want = pack_slowdown(p) * p / (p - 1.0 + pack_slowdown(p));
        assert!((got / want - 1.0).abs() < 0.03, "imbalance of pack at p = {p}: {got}, law {want}");
        assert!(got > last, "the imbalance grows with p: {}", pack["imbalance"]);
        last = got;
    }
    assert_eq!(pack["imbalance_grows"], true, "{pack}");
    // Balanced regions: largest over mean within the ±1 % noise, and not growing.
    for cp in ["main->io", "main->comm", "main->compute"] {
        let r = region(cp);
        for pt in r["imbalance"].as_array().unwrap() {
            let got = pt["imbalance"].as_f64().unwrap();
            assert!((1.0..1.021).contains(&got), "{cp} is balanced: {got}");
        }
        assert_eq!(r["imbalance_grows"], false, "{cp}");
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Bounded: a profile past a limit is refused, naming it.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_profile_with_more_call_paths_than_the_limit_is_refused() {
    let dir = TempDir::new("limit");
    let limit = scalewise::model::bottlenecks::runs::LIMITS.callpaths;
    // main with limit children (limit + 1 call-tree nodes), every value zero: about 6 MB of
    // anchor, no data rows.
    let cnodes: Vec<SpecCnode> = std::iter::once(SpecCnode { region: 0, parent: None })
        .chain((0..limit).map(|_| SpecCnode { region: 1, parent: Some(0) }))
        .collect();
    let spec = Spec {
        metrics: vec![SpecMetric {
            uniq_name: "time".into(),
            disp_name: "time".into(),
            units: "sec".into(),
            kind: Kind::Exclusive,
            dtype: DType::Double,
            values: vec![vec![0.0]; cnodes.len()],
        }],
        regions: vec!["main".into(), "f".into()],
        cnodes,
        ranks: 1,
        threads: 1,
    };
    let file = dir.path().join("big.cubex");
    std::fs::write(&file, write(&spec, &WriteOptions { gzip_archive: true, ..Default::default() })).unwrap();
    let started = std::time::Instant::now();
    let e = refused(&["bottlenecks", file.to_str().unwrap()]);
    eprintln!("# {} call paths refused in {:.2?}: {e}", limit + 1, started.elapsed());
    assert!(e.contains("big.cubex") && e.contains("call paths") && e.contains("limit"), "{e}");
}

//! `scalewise bottlenecks DIR` on a folder of Caliper profiles: Thicket's LULESH runs
//! (tests/data/cali/mpi_scaling_cali) are five runs whose process counts come from their
//! globals, not their names; `--parameters` names the globals; bad input is refused in one line.

use serde_json::Value;

mod common;

fn folder() -> String {
    format!("{}/tests/data/cali/mpi_scaling_cali", env!("CARGO_MANIFEST_DIR"))
}

use common::{answer, refused};

/// The process counts of a region's points, in order.
fn counts(v: &Value, region: usize) -> Vec<f64> {
    v["regions"][region]["points"].as_array().unwrap().iter().map(|p| p["n"].as_f64().unwrap()).collect()
}

#[test]
fn the_lulesh_folder_is_five_runs_with_p_from_the_globals_and_every_region_modelled() {
    let dir = folder();
    let v = answer(&["bottlenecks", &dir]);
    assert_eq!(v["format"], "cali");
    assert_eq!(v["parameters"], serde_json::json!(["p"]));
    let runs = &v["runs"];
    assert_eq!(runs["count"], 5);
    assert_eq!(runs["locations"], serde_json::json!([27, 343]));
    assert_eq!(runs["inclusive"], true, "the files hold inclusive times");
    assert_eq!(runs["parameters_from"], serde_json::json!([{"parameter": "p", "global": "mpi.world.size"}]));
    assert_eq!(v["times"]["kind"], "inclusive");
    // Other globals that vary are offered, but not jobsize, which is p again.
    let offered = runs["globals_offered"].as_array().unwrap();
    assert!(offered.contains(&"elapsed_time".into()) && !offered.contains(&"jobsize".into()), "{offered:?}");
    let regions = v["regions"].as_array().unwrap();
    assert_eq!(regions.len(), 45, "every region of the profiles");
    for (i, r) in regions.iter().enumerate() {
        assert_eq!(counts(&v, i), [27.0, 64.0, 125.0, 216.0, 343.0], "{}", r["callpath"]);
        assert!(r["error"].is_null(), "{}: {}", r["callpath"], r["error"]);
    }
    // The default targets are 4× and 16× the largest count.
    assert_eq!(v["predict"], serde_json::json!([1372, 5488]));
}

#[test]
fn parameters_name_the_globals_and_a_constant_one_is_dropped() {
    let dir = folder();
    let v = answer(&["bottlenecks", &dir, "--parameters", "jobsize,problem_size", "--compact"]);
    assert_eq!(v["parameters"], serde_json::json!(["jobsize"]));
    assert_eq!(v["process_parameter"], "jobsize");
    assert_eq!(counts(&v, 0), [27.0, 64.0, 125.0, 216.0, 343.0]);
    // One file is one run at its own count.
    let one = format!("{dir}/64_cores.cali");
    let v = answer(&["bottlenecks", &one]);
    assert_eq!(counts(&v, 0), [64.0]);
    let e = refused(&["bottlenecks", &dir, "--parameters", "nope"]);
    assert!(e.contains("no numeric global \"nope\""), "{e}");
    // A bad list is a usage error, said before anything is read.
    let o = common::run(&["bottlenecks", &dir, "--parameters", "a,,b"], "");
    assert_eq!(o.status, 2, "{}", o.stderr);
    assert!(o.stderr.contains("--parameters") && o.stderr.contains("names of globals"), "{}", o.stderr);
}

#[test]
fn a_bad_profile_is_refused_naming_its_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("scalewise-cli-cali-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let good = std::fs::read(format!("{}/27_cores.cali", folder())).unwrap();
    std::fs::write(dir.join("a.cali"), &good).unwrap();
    let text = String::from_utf8(good).unwrap().replacen("data=0.001615", "data=0.0016x5", 1);
    std::fs::write(dir.join("b.cali"), text).unwrap();
    let e = refused(&["bottlenecks", dir.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(e.contains("line 23, column 47: b.cali: expected a number"), "{e}");
}

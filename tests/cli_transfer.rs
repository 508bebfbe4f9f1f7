//! `scalewise transfer` as a person runs it: a series from ARCHER moved to Cirrus (the pair
//! `gromacs-01` of `validation/transfer_pairs.csv`, figures from
//! `validation/transfer_machines.json`), bad input with one line naming the key, its help,
//! and `validate --transfer` on the committed pairs.

mod common;
use common::run;

const ARCHER_TO_CIRRUS: &str = r#"{
  "points": [{"n": 24, "time_s": 1647.418}, {"n": 48, "time_s": 853.2}, {"n": 96, "time_s": 449.7}],
  "from": {"cores_per_node": 24, "core_gflops": 21.6, "memory_bandwidth_gb_s": 119.4},
  "to": {"cores_per_node": 36, "core_gflops": 33.6, "memory_bandwidth_gb_s": 153.6},
  "bound": "compute",
  "predict": [36, 144]
}"#;

#[test]
fn a_transfer_answers_ranges_wider_than_the_same_machine() {
    let o = run(&["transfer"], ARCHER_TO_CIRRUS);
    assert_eq!(o.status, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).expect("JSON");
    assert_eq!(v["transfer"], true);
    assert_eq!(v["bound"], "compute");
    // Compute bound: A's 21.6 GFLOP/s per core over B's 33.6 (by hand: 0.642857…).
    assert!((v["ratios"]["compute"].as_f64().unwrap_or(0.0) - 21.6 / 33.6).abs() < 1e-12);
    for p in v["predictions"].as_array().expect("predictions") {
        let f = |k: &str| p[k].as_f64().unwrap_or(f64::NAN);
        assert!(f("low_s") < f("time_s") && f("time_s") < f("high_s"), "{p}");
        let (mine, same) = ((f("high_s") / f("low_s")).ln(), (f("same_machine_high_s") / f("same_machine_low_s")).ln());
        assert!(mine > same, "{p}");
        assert!((f("widening") - mine / same).abs() < 1e-9, "{p}");
    }
}

#[test]
fn bad_input_exits_1_with_one_line_naming_the_key() {
    let cases = [
        (
            r#"{"points": [{"n": 4, "time_s": 1}, {"n": 8, "time_s": 0.6}], "from": {"core_gflops": 10}, "to": {}, "bound": "compute"}"#,
            "to: the compute ratio could not be formed",
        ),
        (r#"{"points": [{"n": -1, "time_s": 1}, {"n": 8, "time_s": 0.6}], "from": {}, "to": {}}"#, "points[0].n"),
        (r#"{"points": [], "from": {}, "to": {}, "bound": "cache"}"#, "bound: expected compute or memory"),
        (r#"{"points": [{"n": 4, "time_s": 1}], "from": {}, "to": {}, "speed": 1}"#, "unknown key \"speed\""),
    ];
    for (input, words) in cases {
        let o = run(&["transfer"], input);
        assert_eq!(o.status, 1, "{input}: {}", o.stdout);
        assert_eq!(o.stderr.lines().count(), 1, "{}", o.stderr);
        assert!(o.stderr.contains(words), "{input}: {}", o.stderr);
    }
}

#[test]
fn help_says_the_model_and_the_default_bound() {
    let o = run(&["transfer", "--help"], "");
    assert_eq!(o.status, 0);
    assert!(
        o.stdout.contains("T_A(n) = s + p/n + c·log2 n") && o.stdout.contains("\"compute\" is the\n         default"),
        "{}",
        o.stdout
    );
}

#[test]
fn validate_transfer_reports_both_bounds_on_the_committed_pairs() {
    let o = run(&["validate", "--transfer"], "");
    assert_eq!(o.status, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).expect("JSON");
    assert!(v["pairs"].as_u64().is_some_and(|n| n >= 10), "{}", v["pairs"]);
    let overall = v["overall"].as_array().expect("overall");
    assert_eq!(overall.len(), 2);
    for f in overall {
        assert!(f["coverage"].as_f64().is_some_and(|c| (0.0..=1.0).contains(&c)), "{f}");
        assert!(
            f["median_rel_width"].as_f64().unwrap_or(0.0) > f["median_same_machine_rel_width"].as_f64().unwrap_or(1.0),
            "{f}"
        );
    }
    let md = run(&["validate", "--transfer", "--markdown"], "");
    assert!(md.stdout.contains("## The same job on another machine"), "{}", md.stdout);
}

//! `scalewise comm`, `broadcast`, `clusters` and `grid-broadcast` as a script sees them.

use serde_json::{json, Value};

mod common;
use common::run;

fn answer(args: &[&str], stdin: &str) -> Value {
    let o = run(args, stdin);
    assert_eq!(o.status, 0, "{args:?}: {}", o.stderr);
    serde_json::from_str(&o.stdout).expect("JSON out")
}

fn close(got: &Value, want: f64) {
    let x = got.as_f64().unwrap_or(f64::NAN);
    assert!((x - want).abs() <= 1e-9 * want.abs().max(1.0), "got {got}, want {want}");
}

#[test]
fn comm_contract() {
    // T = 20 + 0.01 m exactly: Hockney recovers it; every model predicts 1330.72 at 131072.
    let points: Vec<Value> = [1.0, 64.0, 1024.0, 8192.0, 65536.0]
        .iter()
        .map(|&m: &f64| json!({"size_bytes": m, "time_us": 20.0 + 0.01 * m}))
        .collect();
    let out = answer(&["comm", "--compact"], &json!({"points": points, "predict": [131072]}).to_string());
    let models = out["models"].as_array().expect("models");
    let names: Vec<&str> = models.iter().filter_map(|m| m["model"].as_str()).collect();
    assert_eq!(names, vec!["hockney", "logp", "loggp", "plogp"]);
    close(&models[0]["params"]["alpha_us"], 20.0);
    close(&models[0]["params"]["beta_us_per_byte"], 0.01);
    for m in models {
        close(&m["predictions"][0]["time_us"], 20.0 + 0.01 * 131072.0);
        assert_eq!(m["predictions"][0]["size_bytes"], json!(131072), "a size is written as an integer");
        assert!(m["rel_error"].as_f64().is_some_and(|e| e < 1e-9));
    }
    assert!(out["best"].is_string());
    assert_eq!(out["knee"], Value::Null);
}

#[test]
fn comm_reads_raw_osu_and_imb() {
    let osu =
        "# OSU MPI Latency Test v5.9\n# Size          Latency (us)\n0 1.50\n1 1.52\n2 1.53\n4 1.55\n8 1.60\n16 1.70\n";
    let out = answer(&["comm", "--format", "osu"], osu);
    assert_eq!(out["format"], json!("osu_latency"));
    assert_eq!(out["models"][0]["predictions"].as_array().map(Vec::len), Some(6));
    assert_eq!(out["warnings"], json!([]));
    // Cut off mid-table, or a typo in the middle: exit 1 naming the line, nothing fitted (the
    // page says the same; issue 33: a typo dropped the 8 good rows below it in silence).
    let o = run(&["comm", "--format=osu"], &format!("{osu}32"));
    assert_eq!(o.status, 1);
    // Columns count characters (issue 45, item 21): past the end of "32", where the time is missing.
    assert!(o.stderr.starts_with("scalewise comm: line 9, column 3:"), "{}", o.stderr);
    assert!(o.stdout.is_empty());
    let o = run(&["comm", "--format=osu"], &osu.replace("2 1.53", "2 1.5g"));
    assert_eq!(o.status, 1);
    assert!(o.stderr.contains("line 5, column 3: expected a number, found \"1.5g\""), "{}", o.stderr);
    let imb = "# Benchmarking PingPong\n       #bytes #repetitions      t[usec]   Mbytes/sec\n 0 1000 0.23 0\n 1 1000 0.24 4.17\n 8 1000 0.30 26.7\n";
    let out = answer(&["comm", "--format", "imb", "--compact"], imb);
    close(&out["models"][3]["predictions"][2]["time_us"], 0.30);
}

#[test]
fn broadcast_by_hand() {
    let out = answer(
        &["broadcast"],
        r#"{"model": "hockney", "params": {"alpha_us": 10, "beta_us_per_byte": 0.01}, "procs": 8, "size_bytes": 1000}"#,
    );
    // Each algorithm found by its name, not its place in the list.
    let of = |out: &Value, name: &str| -> Value {
        out["algorithms"]
            .as_array()
            .expect("list")
            .iter()
            .find(|a| a["algorithm"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} in {out}"))
    };
    for (name, want) in [("linear", 110.0), ("binomial", 60.0), ("binary", 105.0), ("pipeline", 110.6)] {
        let got = of(&out, name)["time_us"].as_f64().expect("a time");
        assert!((got - want).abs() < 1e-9, "{name}: {got}");
    }
    assert_eq!(of(&out, "pipeline")["segment_bytes"], json!(256));
    assert_eq!(out["best"], json!("binomial"));
    // From points: pLogP through the measurements.
    let out = answer(
        &["broadcast"],
        r#"{"model": "plogp", "points": [{"size_bytes": 0, "time_us": 10}, {"size_bytes": 1000, "time_us": 20}, {"size_bytes": 2000, "time_us": 30}], "procs": 2, "size_bytes": 1000, "latency_share": 1}"#,
    );
    // L = 10, g(1000) = 10: every algorithm sends once; binary is 2g + L = 30.
    assert_eq!(of(&out, "binary")["time_us"], json!(30.0));
    assert_eq!(out["best"], json!("linear"));
}

#[test]
fn clusters_and_grid_broadcast() {
    let out = answer(
        &["clusters", "--compact"],
        r#"{"latency_us": [[0, 10, 12, 12], [10, 0, 12, 12], [12, 12, 0, 11], [12, 12, 11, 0]], "rho": 0.1}"#,
    );
    assert_eq!(out["groups"], json!([[0, 1], [2, 3]]));
    let out = answer(&["clusters"], r#"{"latency_us": [[0, 1, 2], [1, 0, 3], [2, 4, 0]], "symmetrise": true}"#);
    // Mean of 3 and 4 is 3.5 > 1.2 × 1: node 2 stays alone.
    assert_eq!(out["groups"], json!([[0, 1], [2]]));
    let input = r#"{"latency_us": [[0, 10, 30], [10, 0, 5], [30, 5, 0]], "gap_us": [[0, 2, 2], [2, 0, 2], [2, 2, 0]],
                    "local_us": [5, 1, 50], "root": 0, "procs": [1, 1, 1], "intra_latency_us": [1, 1, 1], "intra_gap_us": [1, 1, 1]}"#;
    let out = answer(&["grid-broadcast"], input);
    assert_eq!(out["ecef"]["completion_us"], json!(69.0));
    assert_eq!(
        out["ecef"]["transfers"][1],
        json!({"from": 1, "to": 2, "start_us": 12.0, "arrival_us": 19.0, "local_end_us": 69.0})
    );
    assert_eq!(out["ecef_lat"]["completion_us"], json!(82.0));
    assert_eq!(out["binomial_us"], json!(32.0));
    assert_eq!(out["best"], json!("ecef"));
}

#[test]
fn errors_are_one_line_naming_the_key() {
    let cases: &[(&[&str], &str, i32, &str)] = &[
        (
            &["comm"],
            r#"{"points": [{"size_bytes": 8, "time_us": 0}]}"#,
            1,
            "points[0].time_us: must be from 1e-6 to 1e12 µs, found 0",
        ),
        (
            &["comm"],
            r#"{"points": [{"size_bytes": 8, "time_us": 1}], "predict": [-1]}"#,
            1,
            "predict[0]: must be from 0",
        ),
        (&["comm"], r#"{"pts": []}"#, 1, "input: unknown key \"pts\""),
        (&["comm", "--format", "csv"], "", 2, "unknown format 'csv'; expected osu, osu_bw, imb, table"),
        (&["clusters", "--format", "osu"], "", 2, "reads JSON only"),
        (&["comm", "--format"], "", 2, "--format needs a name"),
        (
            &["comm", "--format", "osu"],
            "# OSU MPI Latency Test\n# Size Latency (us)\n8 x\n",
            1,
            "line 3, column 3: expected a number",
        ),
        (
            &["broadcast"],
            r#"{"model": "plogp", "params": {}, "procs": 4, "size_bytes": 8}"#,
            1,
            "params: pLogP has no closed form",
        ),
        (
            &["broadcast"],
            r#"{"model": "hockney", "params": {"alpha_us": 1, "beta_us_per_byte": 0}, "procs": 0, "size_bytes": 8}"#,
            1,
            "procs: must be from 1",
        ),
        (&["clusters"], r#"{"latency_us": [[0, 1], [1]]}"#, 1, "latency_us[1]: 1 values in this row but 2 rows"),
        (
            &["clusters"],
            r#"{"latency_us": [[0, -1], [-1, 0]]}"#,
            1,
            "latency_us[0][1]: a latency is a number of µs, 0 or more",
        ),
        (&["clusters"], r#"{"latency_us": [[0, 1, 2], [1, 0, 3], [2, 4, 0]]}"#, 1, "latency_us[1][2]: not symmetric"),
        (
            &["grid-broadcast"],
            r#"{"latency_us": [[0]], "gap_us": [[0, 1]], "local_us": [1]}"#,
            1,
            "gap_us[0]: 2 values but 1 clusters",
        ),
        (
            &["grid-broadcast"],
            r#"{"latency_us": [[0]], "gap_us": [[0]], "local_us": [1], "root": 3}"#,
            1,
            "root: must be from 0 to 0",
        ),
    ];
    for (args, stdin, status, want) in cases {
        let o = run(args, stdin);
        assert_eq!(o.status, *status, "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains(want), "{args:?}: stderr {:?} lacks {want:?}", o.stderr);
        assert_eq!(o.stderr.trim_end().lines().count(), 1, "{args:?}: one line: {:?}", o.stderr);
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn help_for_every_subcommand() {
    for (cmd, key) in [
        ("comm", "--format osu"),
        ("broadcast", "segment_bytes"),
        ("clusters", "group_latency_us"),
        ("grid-broadcast", "ecef_lat"),
    ] {
        let o = run(&[cmd, "--help"], "");
        assert_eq!(o.status, 0);
        assert!(o.stdout.contains(key), "{cmd} --help lacks {key}");
    }
    let o = run(&["--help"], "");
    for cmd in ["comm", "broadcast", "clusters", "grid-broadcast", "--format"] {
        assert!(o.stdout.contains(cmd), "--help lacks {cmd}");
    }
}

#[test]
fn comm_exports_for_other_tools() {
    // Eager 5 + m/1000 µs, rendezvous from 64 KiB at 45 + m/2000 µs (a jump up at the knee).
    let points: Vec<Value> = (0..=22)
        .map(|j| {
            let m = f64::from(1u32 << j);
            json!({"size_bytes": m, "time_us": if m >= 65536.0 { 45.0 + m / 2000.0 } else { 5.0 + m / 1000.0 }})
        })
        .collect();
    let input = json!({"points": points, "export": "all", "procs": 64}).to_string();
    let out = answer(&["comm", "--compact"], &input);
    let ex = out["exports"].as_object().expect("exports");
    assert_eq!(ex.keys().collect::<Vec<_>>(), vec!["loggopsim", "ompi-rules", "simgrid", "sstmacro"]);
    // Existing keys stay.
    assert!(out["models"].is_array() && out["knee"].is_object());
    // --export writes the text alone, the same text.
    let o = run(&["comm", "--export", "ompi-rules"], &input);
    assert_eq!(o.status, 0, "{}", o.stderr);
    assert_eq!(o.stdout, ex["ompi-rules"].as_str().expect("text"));
    assert!(o.stdout.contains("\n7 # collective id (bcast)\n"));
    assert!(o.stdout.contains("\n64 # comm size\n"));
    // With raw OSU output too.
    let osu = "# OSU MPI Latency Test v7.0\n# Size          Latency (us)\n0 1.5\n1 1.6\n64 1.8\n4096 5.0\n65536 45\n1048576 420\n";
    let o = run(&["comm", "--format", "osu", "--export", "simgrid"], osu);
    assert_eq!(o.status, 0, "{}", o.stderr);
    assert!(o.stdout.contains("--cfg=smpi/bw-factor:"), "{}", o.stdout);
    // Bad names are usage errors; a bad key is an input error naming it.
    assert_eq!(run(&["comm", "--export", "ns3"], &input).status, 2);
    assert_eq!(run(&["broadcast", "--export", "simgrid"], "{}").status, 2);
    let bad = run(&["comm"], &json!({"points": points, "export": ["ns3"]}).to_string());
    assert_eq!(bad.status, 1);
    assert!(bad.stderr.contains("export[0]: expected loggopsim, simgrid, sstmacro or ompi-rules"), "{}", bad.stderr);
    let bad = run(&["comm"], &json!({"points": points, "export": "ns3"}).to_string());
    assert_eq!((bad.status, bad.stderr.trim()), (1, "scalewise comm: export: expected a list, found a string"));
}

#[test]
fn broadcast_params_hold_only_their_models_keys() {
    // Read through the typed request, as every input is: another model's key is named.
    let o = run(
        &["broadcast"],
        r#"{"model": "hockney", "params": {"alpha_us": 1, "gap_us": 2}, "procs": 4, "size_bytes": 8}"#,
    );
    assert_eq!(o.status, 1);
    assert!(
        o.stderr.contains("params: unknown key \"gap_us\"; expected alpha_us, beta_us_per_byte, bandwidth_mb_s"),
        "{}",
        o.stderr
    );
    let o = run(
        &["broadcast"],
        r#"{"model": "logp", "params": {"l_plus_2o_us": 1, "gap_us": 2}, "procs": 4, "size_bytes": 8}"#,
    );
    assert!(o.stderr.contains("params: missing key \"w_bytes\""), "{}", o.stderr);
    let o = run(
        &["broadcast"],
        r#"{"model": "hockney", "params": {"alpha_us": 1, "beta_us_per_byte": -1}, "procs": 4, "size_bytes": 8}"#,
    );
    assert!(o.stderr.contains("params.beta_us_per_byte: must be from 0 to 1000000000000, found -1"), "{}", o.stderr);
}

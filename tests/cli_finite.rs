//! NaN and infinity never reach an answer: numbers that validation once let through (tiny,
//! huge, zero) are refused with the field named, or answered with finite numbers. serde_json
//! writes a non-finite number as `null`, so "no NaN" here means: where the answer to sound
//! inputs has a number, the answer to extreme inputs never has `null`.

use serde_json::{json, Value};

mod common;
use common::run;

fn input(cmd: &str, v: &Value) -> common::Outcome {
    run(&[cmd, "--compact"], &v.to_string())
}

/// The cases of the report, each refused with exit status 1 and the field named.
#[test]
fn extreme_numbers_are_refused_naming_the_field() {
    let regions = |k: &str, x: f64| {
        let mut v = json!({"x_prime": 196.08, "z": 1.5, "z_prime": 10, "alpha": 0.05, "n": [64, 256]});
        v[k] = json!(x);
        v
    };
    let mut sweep = regions("alpha", 0.0);
    sweep["region_bandwidth_gb_s"] = json!(1);
    sweep["sweep"] = json!({"bandwidth_gb_s": [1e-320]});
    let planner = |bpp: f64, price: f64| {
        let runs = json!([{"np": 4, "work_mb": 2048, "time_s": 1580}, {"np": 4, "work_mb": 1024, "time_s": 800},
                          {"np": 8, "work_mb": 2048, "time_s": 1610}, {"np": 8, "work_mb": 1024, "time_s": 825}]);
        let seq = json!([{"work_mb": 2048, "time_s": 1500}, {"work_mb": 1024, "time_s": 740}]);
        json!({"planner": {"n": 65536, "bytes_per_point": bpp, "clusters": [
            {"name": "A", "free_procs": 64, "procs_per_node": 1, "memory_per_node_mb": 2048, "price_per_cpu_hour": price,
             "fabrics": [{"fabric": "Myrinet", "sequential": seq, "parallel": runs}]}]}})
    };
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "speedup",
            json!({"points": [{"n": 1, "time_s": 1e-320}, {"n": 2, "time_s": 0.6}, {"n": 4, "time_s": 0.4}]}),
            "points[0].time_s",
        ),
        (
            "speedup",
            json!({"points": [{"n": 1, "speedup": 1}, {"n": 2, "speedup": 1e300}, {"n": 4, "speedup": 3}]}),
            "points[1].speedup",
        ),
        (
            "comm",
            json!({"points": [{"size_bytes": 1, "time_us": 1e-320}, {"size_bytes": 100, "time_us": 2}, {"size_bytes": 1000, "time_us": 5}]}),
            "points[0].time_us",
        ),
        ("regions", regions("x_prime", 1e-320), "x_prime"),
        ("regions", regions("z_prime", 5e-324), "z_prime"),
        ("regions", sweep, "bandwidth_gb_s"),
        ("multigrid", planner(1e308, 1.0), "bytes per grid point"),
        ("multigrid", planner(32.0, 1e308), "price per CPU-hour"),
    ];
    for (cmd, v, field) in cases {
        let o = input(cmd, &v);
        assert_eq!(o.status, 1, "{cmd} {v}: {}", o.stdout);
        assert!(o.stderr.contains(field), "{cmd}: {:?} does not name {field}", o.stderr);
        assert_eq!(o.stderr.trim_end().lines().count(), 1, "{cmd}: one line");
    }
    // At the edges of the ranges the answers are finite numbers.
    let o = input("regions", &regions("z_prime", 1e-9));
    assert_eq!(o.status, 0, "{}", o.stderr);
    assert_no_null_numbers(
        &serde_json::from_str(&o.stdout).unwrap(),
        &serde_json::from_str(&input("regions", &regions("z_prime", 10.0)).stdout).unwrap(),
        "regions z' = 1e-9",
    );
}

/// Paths (`a.b[2].c`) of every number and null in a JSON value.
fn leaves(v: &Value, path: String, out: &mut Vec<(String, bool)>) {
    match v {
        Value::Number(_) => out.push((path, true)),
        Value::Null => out.push((path, false)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| leaves(x, format!("{path}[{i}]"), out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| leaves(x, format!("{path}.{k}"), out)),
        _ => {}
    }
}

/// Keys that `--help` documents as null in some cases, with the reason: (calculator, key).
const DOCUMENTED_NULLS: &[(&str, &str)] = &[
    // α = 0: no optimum ("null when α = 0"; the upper n½ "null for α = 0").
    ("regions", "n_star"),
    ("regions", "sp2_max"),
    ("regions", "two_regions_upper"),
    // "leave-one-out, null with too few sizes": a model fitted on one side of a knee may have
    // two sizes there.
    ("comm", "loo_rel_error"),
];

/// Every path that holds a number in `sound` and exists in `extreme` holds a number there too,
/// but for the keys `--help` documents as null in some cases.
fn assert_no_null_numbers(extreme: &Value, sound: &Value, what: &str) {
    let cmd = what.split(' ').next().unwrap_or("");
    let documented = |p: &str| DOCUMENTED_NULLS.iter().any(|(c, k)| *c == cmd && p.rsplit('.').next() == Some(k));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    leaves(extreme, String::new(), &mut a);
    leaves(sound, String::new(), &mut b);
    let numbers: std::collections::BTreeSet<&str> = b.iter().filter(|(_, n)| *n).map(|(p, _)| p.as_str()).collect();
    // A region or element that says why it has no model ("error": "... line 7, column 6")
    // has null in its model's numbers, as its --help says.
    let refused = |p: &str| {
        let parent = p.rsplit_once('.').map_or("", |(head, _)| head);
        let at = parent.replace(['.', '['], "/").replace(']', "");
        extreme.pointer(&at).and_then(|o| o.get("error")).is_some_and(|e| e.is_string())
    };
    for (p, is_number) in &a {
        assert!(
            *is_number || documented(p) || refused(p) || !numbers.contains(p.as_str()),
            "{what}: {p} is null where sound inputs give a number"
        );
    }
}

/// Every number of each calculator's example input replaced in turn by an extreme value: the
/// command refuses it (exit 1) or answers with numbers wherever the example's answer has them.
#[test]
fn extreme_variants_of_the_examples_never_answer_null_for_a_number() {
    let examples: Vec<(&str, Value)> = vec![
        (
            "speedup",
            json!({"points": [{"n": 1, "time_s": 100}, {"n": 2, "time_s": 52}, {"n": 4, "time_s": 28}, {"n": 8, "time_s": 16}], "predict": [16, 64]}),
        ),
        (
            "comm",
            json!({"points": [{"size_bytes": 1, "time_us": 2}, {"size_bytes": 1024, "time_us": 4}, {"size_bytes": 65536, "time_us": 30}, {"size_bytes": 1048576, "time_us": 400}], "predict": [4096]}),
        ),
        (
            "regions",
            json!({"x_prime": 196.08, "z": 1.5, "z_prime": 10, "alpha": 0.05, "n": [64, 256], "region_bandwidth_gb_s": 1,
                           "sweep": {"bandwidth_gb_s": [0.5, 2]}, "required_bandwidth": {"n": 64, "fraction": 0.9}}),
        ),
        (
            "broadcast",
            json!({"model": "hockney", "params": {"alpha_us": 5, "beta_us_per_byte": 0.01}, "procs": 16, "size_bytes": 65536}),
        ),
        ("clusters", json!({"latency_us": [[0, 1, 50], [1, 0, 50], [50, 50, 0]], "rho": 0.2})),
        (
            "grid-broadcast",
            json!({"latency_us": [[0, 100], [100, 0]], "gap_us": [[0, 10], [10, 0]], "local_us": [5, 5], "root": 0}),
        ),
        (
            "multigrid",
            json!({"sequential": [{"work_mb": 2048, "time_s": 1500}, {"work_mb": 1024, "time_s": 740}],
                             "parallel": [{"np": 4, "work_mb": 2048, "time_s": 1580}, {"np": 4, "work_mb": 1024, "time_s": 800},
                                          {"np": 8, "work_mb": 2048, "time_s": 1610}, {"np": 8, "work_mb": 1024, "time_s": 825}],
                             "predict": [{"np": 64, "work_mb": 2048}]}),
        ),
    ];
    let extremes = [1e-320, 5e-324, 1e-300, 1e308, -1e308, 0.0];
    let mut runs = 0;
    for (cmd, base) in &examples {
        let sound = input(cmd, base);
        assert_eq!(sound.status, 0, "{cmd}: {}", sound.stderr);
        let sound: Value = serde_json::from_str(&sound.stdout).unwrap();
        let mut paths = Vec::new();
        leaves(base, String::new(), &mut paths);
        for (path, _) in paths.iter().filter(|(_, n)| *n) {
            for x in extremes {
                let mut v = base.clone();
                *pointer(&mut v, path) = json!(x);
                let o = input(cmd, &v);
                runs += 1;
                match o.status {
                    0 => assert_no_null_numbers(
                        &serde_json::from_str(&o.stdout).unwrap(),
                        &sound,
                        &format!("{cmd} with {path} = {x:e}"),
                    ),
                    1 => assert_eq!(o.stderr.trim_end().lines().count(), 1, "{cmd} {path} = {x:e}"),
                    s => panic!("{cmd} with {path} = {x:e}: exit status {s}: {}", o.stderr),
                }
            }
        }
    }
    assert!(runs > 200, "{runs} variants");
}

/// The value at a path made by `leaves`.
fn pointer<'a>(v: &'a mut Value, path: &str) -> &'a mut Value {
    let p: String = path.replace(['.', '['], "/").replace(']', "");
    v.pointer_mut(&p).unwrap_or_else(|| panic!("no {p}"))
}

/// Every subcommand, each golden case's input (tests/golden/cli-cases.json) with one of its
/// numbers at a time pushed to the edge of f64 (the largest, its negative, the smallest
/// subnormal): the command refuses it with exit status 1 and one line, or answers with a
/// number wherever the case's own answer has one. Every answer leaves through `cli::emit`,
/// which refuses a NaN or an infinity in the typed answer; a path that skipped it would
/// write `null` here. Raw texts (benchmark output, node reports, experiments) have their
/// numeric tokens pushed the same way. `catalog` reads no input.
#[test]
fn every_subcommand_refuses_or_answers_numbers_at_the_edges_of_f64() {
    let text = std::fs::read_to_string("tests/golden/cli-cases.json").expect("cases");
    let cases: Vec<Value> = serde_json::from_str(&text).expect("JSON cases");
    let mut seen = std::collections::BTreeSet::new();
    let mut runs = 0;
    for case in &cases {
        let args: Vec<&str> = case["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
        let name = case["name"].as_str().unwrap();
        let run_with = |input: &str| {
            let mut a = args.clone();
            a.push("--compact");
            run(&a, input)
        };
        let base = match &case["input"] {
            Value::String(s) => s.clone(),
            Value::Null => continue,
            v => v.to_string(),
        };
        let sound = run_with(&base);
        // A case that shows an error message (exit 1) has no answer to compare with.
        if sound.status != 0 {
            continue;
        }
        let sound: Value = serde_json::from_str(&sound.stdout).unwrap();
        // The inputs with one number replaced: in JSON by its path, in text by its token.
        let variants: Vec<(String, String)> = match &case["input"] {
            Value::String(s) => numeric_tokens(s)
                .into_iter()
                .flat_map(|(at, len)| {
                    EDGES.iter().map(move |x| {
                        (format!("the number at byte {at}"), format!("{}{x:e}{}", &s[..at], &s[at + len..]))
                    })
                })
                .collect(),
            v => {
                let mut paths = Vec::new();
                leaves(v, String::new(), &mut paths);
                paths
                    .into_iter()
                    .filter(|(_, n)| *n)
                    .flat_map(|(path, _)| {
                        EDGES.iter().map(move |&x| {
                            let mut w = v.clone();
                            *pointer(&mut w, &path) = json!(x);
                            (path.clone(), w.to_string())
                        })
                    })
                    .collect()
            }
        };
        for (what, input) in spread(variants, 45) {
            let o = run_with(&input);
            runs += 1;
            let what = format!("{} ({name}) with {what} at an edge", args[0]);
            match o.status {
                0 => assert_no_null_numbers(&serde_json::from_str(&o.stdout).unwrap(), &sound, &what),
                1 => assert_eq!(o.stderr.trim_end().lines().count(), 1, "{what}: {}", o.stderr),
                s => panic!("{what}: exit status {s}: {}", o.stderr),
            }
        }
        seen.insert(args[0].to_string());
    }
    let every: Vec<String> = run(&["--help"], "")
        .stdout
        .split("CALCULATORS:")
        .nth(1)
        .and_then(|s| s.split("\n\n").next())
        .unwrap_or("")
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "catalog")
        .collect();
    assert!(every.len() >= 10, "{every:?}");
    for c in &every {
        assert!(seen.contains(c), "{c}: no golden case pushes its numbers to the edge");
    }
    assert!(runs > 500, "{runs} variants");
}

/// The largest f64, its negative, and the smallest subnormal.
const EDGES: [f64; 3] = [f64::MAX, f64::MIN, 5e-324];

/// At most `most` of `items`, spread evenly over them (the first and the last kept).
fn spread<T>(items: Vec<T>, most: usize) -> Vec<T> {
    let n = items.len();
    if n <= most {
        return items;
    }
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i * (most - 1) % (n - 1) < most - 1 || *i == n - 1)
        .map(|(_, x)| x)
        .take(most)
        .collect()
}

/// (byte offset, length) of every decimal number in a text that stands alone (not part of a
/// name such as `MPI_Send2` or a version).
fn numeric_tokens(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_digit()
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
            j += 1;
        }
        if j == b.len() || !(b[j].is_ascii_alphabetic() || b[j] == b'_') {
            out.push((i, j - i));
        }
        i = j;
    }
    out
}

//! `scalewise schema`: the committed copy under `schema/` is what the command prints, and the
//! golden inputs and answers follow it; an input of the wrong type is refused by the schema
//! and by the command alike, naming the key's path.

use std::path::PathBuf;

use serde_json::{json, Value};

mod common;
use common::run;

fn committed() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema/scalewise.schema.json")
}

fn printed() -> Value {
    let o = run(&["schema"], "");
    assert_eq!(o.status, 0, "{}", o.stderr);
    serde_json::from_str(&o.stdout).expect("the schema is JSON")
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::new(schema).expect("a valid draft 2020-12 schema")
}

/// The problems `validator` finds in `instance`, one line each (empty: it is valid).
fn problems(v: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance).map(|e| format!("{}: {e}", e.instance_path())).collect()
}

#[test]
fn the_committed_schema_is_what_the_command_prints() {
    let now = printed();
    let text = serde_json::to_string_pretty(&now).expect("text") + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(committed(), &text).expect("schema written");
        return;
    }
    let kept =
        std::fs::read_to_string(committed()).expect("schema/scalewise.schema.json (run with UPDATE_GOLDEN=1 once)");
    assert!(kept == text, "schema/scalewise.schema.json differs from `scalewise schema`: rewrite it with UPDATE_GOLDEN=1 cargo test --test schema");
    // Every calculator is there, each with an answer; all but three read JSON.
    let all = now.as_object().expect("an object");
    for name in [
        "multigrid",
        "regions",
        "speedup",
        "bottlenecks",
        "simulate",
        "comm",
        "broadcast",
        "clusters",
        "grid-broadcast",
        "catalog",
        "cluster",
    ] {
        assert!(all.get(name).is_some_and(|s| s.get("output").is_some()), "{name}");
    }
    let without: Vec<&String> = all.iter().filter(|(_, s)| s.get("input").is_none()).map(|(k, _)| k).collect();
    assert_eq!(without, ["bottlenecks", "catalog", "cluster"]);
}

#[test]
fn golden_inputs_and_answers_follow_the_schema() {
    let schema = printed();
    let cases: Value = serde_json::from_str(
        &std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/cli-cases.json"))
            .expect("cases"),
    )
    .expect("JSON cases");
    let (mut inputs, mut answers, mut bad) = (0, 0, Vec::new());
    for case in cases.as_array().expect("a list") {
        let name = case["name"].as_str().expect("name");
        let args: Vec<&str> = case["args"].as_array().expect("args").iter().map(|a| a.as_str().expect("arg")).collect();
        let command = args[0];
        let Some(s) = schema.get(command) else { continue };
        let raw = args
            .iter()
            .any(|a| a.starts_with("--format") || a.starts_with("--export") || a.starts_with("--allocation"));
        let input = &case["input"];
        if let (Some(input_schema), false, false) = (s.get("input"), raw, input.is_string()) {
            let p = problems(&validator(input_schema), input);
            bad.extend(p.into_iter().map(|p| format!("{name} input {p}")));
            inputs += 1;
        }
        let text = match input {
            Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        let o = run(&args, &text);
        if o.status != 0 || args.iter().any(|a| a.starts_with("--export")) {
            continue;
        }
        let answer: Value =
            serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{name}: the answer is JSON: {e}"));
        let p = problems(&validator(&s["output"]), &answer);
        bad.extend(p.into_iter().map(|p| format!("{name} answer {p}")));
        answers += 1;
    }
    assert!(bad.is_empty(), "{} problems:\n{}", bad.len(), bad.join("\n"));
    assert!(inputs >= 15 && answers >= 20, "{inputs} inputs and {answers} answers checked");
}

#[test]
fn a_key_of_the_wrong_type_is_refused_by_the_schema_and_the_command() {
    let schema = printed();
    let cases = [
        ("speedup", json!({"points": [{"n": 1, "time_s": 10}, {"n": 2, "time_s": "5"}]}), "points[1].time_s"),
        (
            "multigrid",
            json!({"sequential": [{"work_mb": 2048, "time_s": 1500}], "parallel": [{"np": "4", "work_mb": 2048, "time_s": 1}]}),
            "parallel[0].np",
        ),
        ("comm", json!({"points": [{"size_bytes": 8, "time_us": 1}], "predict": [true]}), "predict[0]"),
        (
            "regions",
            json!({"x_prime": 1, "z": 1, "z_prime": 1, "alpha": 0, "n": [4], "sweep": {"bandwidth_gb_s": "fast"}}),
            "sweep.bandwidth_gb_s",
        ),
        ("simulate", json!({"skeleton": "Serial time = 1", "numprocs": [2], "compare": "yes"}), "compare"),
        (
            "broadcast",
            json!({"model": "hockney", "params": {"alpha_us": [1]}, "procs": 4, "size_bytes": 8}),
            "params.alpha_us",
        ),
        ("clusters", json!({"latency_us": [[0, 1], [1, "0"]]}), "latency_us[1][1]"),
        ("grid-broadcast", json!({"latency_us": [[0]], "gap_us": [[0]], "local_us": [1], "root": "0"}), "root"),
        ("speedup", json!({"points": [{"n": 1, "time_s": 10}], "leave_one_out": null}), "leave_one_out"),
    ];
    for (command, input, path) in cases {
        let v = validator(&schema[command]["input"]);
        assert!(!problems(&v, &input).is_empty(), "{command}: the schema takes {input}");
        let o = run(&[command], &input.to_string());
        assert_eq!(o.status, 1, "{command} {input}: {}", o.stderr);
        assert!(o.stderr.contains(&format!("{path}: ")), "{command}: {} does not name {path}", o.stderr.trim());
        assert!(o.stdout.is_empty(), "{command}: {}", o.stdout);
    }
}

#[test]
fn schema_follows_the_command_line_conventions() {
    // --compact writes one line; a stray argument is a usage error (exit 2, nothing written);
    // --help says how to use it for editors and pipelines.
    let o = run(&["schema", "--compact"], "");
    assert_eq!((o.status, o.stdout.lines().count()), (0, 1), "{}", o.stderr);
    assert_eq!(serde_json::from_str::<Value>(&o.stdout).ok(), Some(printed()));
    let o = run(&["schema", "--bogus"], "");
    assert_eq!(o.status, 2, "{}", o.stderr);
    assert!(o.stdout.is_empty() && o.stderr.contains("--bogus"), "{}", o.stderr);
    let o = run(&["schema", "--help"], "");
    assert_eq!(o.status, 0);
    assert!(o.stdout.contains("draft") && o.stdout.contains("editor"), "{}", o.stdout);
    assert!(run(&["--help"], "").stdout.contains("schema"), "the main help lists it");
}

//! `scalewise speedup` as a script sees it: the contract keys, arrays of jobs, errors.

use serde_json::{json, Value};

mod common;

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let o = common::run(args, stdin);
    (o.status, o.stdout, o.stderr)
}

fn answer(input: &Value) -> Value {
    let (status, out, err) = run(&["speedup", "--compact"], &input.to_string());
    assert_eq!(status, 0, "{err}");
    serde_json::from_str(&out).expect("JSON out")
}

fn example() -> Value {
    let pts: Vec<Value> = [(2, 2.00), (4, 3.92), (8, 7.25), (16, 13.29), (32, 20.23), (64, 24.95)]
        .iter()
        .map(|(n, s)| json!({"n": n, "speedup": s}))
        .collect();
    json!({"points": pts, "predict": [32, 64]})
}

fn fit<'a>(v: &'a Value, model: &str) -> &'a Value {
    v["fits"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["model"] == model))
        .unwrap_or_else(|| panic!("no {model} fit in {v}"))
}

#[test]
fn example_5_1_contract_keys() {
    let v = answer(&example());
    let d = fit(&v, "downey");
    let a = d["params"]["A"].as_f64().expect("A");
    let s = d["params"]["sigma"].as_f64().expect("sigma");
    assert!((a - 24.87).abs() < 0.01 && (s - 0.806).abs() < 0.002, "A {a}, sigma {s}");
    assert!(d["sse"].as_f64().is_some_and(|e| e < 0.407 && e > 0.29));
    let p = &d["predictions"][0];
    assert_eq!(p["n"], 32);
    for k in ["speedup", "low", "high"] {
        assert!(p[k].as_f64().is_some(), "{k} in {p}");
    }
    assert!(p.get("time_s").is_none(), "no times given, no time_s");
    assert!(v["best"].as_str().is_some() && v["best_reason"].as_str().is_some_and(|r| r.contains("AICc")));
    assert_eq!(v["fits"].as_array().map(Vec::len), Some(scalewise::model::speedup::MODELS.len()));
    for k in ["aicc", "loo", "uncertainty"] {
        assert!(!d[k].is_null(), "{k}");
    }
    assert_eq!(v["karp_flatt"].as_array().map(Vec::len), Some(6));
    assert!(v["advice"]["text"].as_str().is_some_and(|t| t.contains("n = ")));
}

#[test]
fn times_give_time_predictions() {
    let pts: Vec<Value> =
        [(4, 169.6), (8, 90.1), (16, 51.0), (32, 31.9)].iter().map(|(n, t)| json!({"n": n, "time_s": t})).collect();
    let v = answer(&json!({"points": pts, "predict": [64], "models": ["amdahl", "downey"]}));
    assert_eq!(v["fitted_space"], "time");
    let am = fit(&v, "amdahl");
    let p = &am["predictions"][0];
    let t = p["time_s"].as_f64().expect("time_s with times");
    assert!(p["time_low_s"].as_f64().is_some_and(|l| l <= t) && p["time_high_s"].as_f64().is_some_and(|h| h >= t));
    assert!(fit(&v, "downey")["params"]["T1"].as_f64().is_some_and(|t1| t1 > 169.6), "T1 fitted");
}

#[test]
fn an_array_is_answered_in_order_with_errors_in_place() {
    let bad_n = json!({"points": [{"n": 2.5, "speedup": 2.0}]});
    let input = json!([example(), bad_n, {"points": []}, 7, {"points": [{"n": 1, "speedup": 1}, {"n": 4, "speedup": 3.5}], "models": ["chiang"]}]);
    let v = answer(&input);
    let list = v.as_array().expect("an array");
    assert_eq!(list.len(), 5);
    assert!(list[0]["fits"].is_array());
    assert!(
        list[1]["error"].as_str().is_some_and(|e| e.starts_with("points[0].n:") && e.contains("whole number")),
        "{}",
        list[1]
    );
    assert!(list[2]["error"].as_str().is_some_and(|e| e.contains("no points")), "{}", list[2]);
    assert!(list[3]["error"].as_str().is_some_and(|e| e.contains("expected an object")), "{}", list[3]);
    assert_eq!(list[4]["best"], "chiang");
}

#[test]
fn a_list_is_serde_json_s_text_of_each_element_s_answer_given_alone() {
    // A list is answered element by element on every core (`cli::batch`); its text must be
    // the elements' own answers as the command writes each alone, keys in the same order,
    // in serde_json's list layout, pretty and compact, with the allocation table per element.
    let times = json!({"points": [{"n": 1, "time_s": 100.0}, {"n": 4, "time_s": 27.0}, {"n": 16, "time_s": 9.1}], "predict": [64]});
    let items = vec![example(), json!({"points": []}), times.clone(), example(), times];
    for args in [&["speedup"][..], &["speedup", "--compact"], &["speedup", "--allocation", "md"]] {
        let (status, out, err) = run(args, &Value::Array(items.clone()).to_string());
        assert_eq!(status, 0, "{err}");
        let compact = args.contains(&"--compact");
        // Each element's own text, as the command writes it alone (its keys in the order it
        // writes them), or its error as the list's `{"error"}` element.
        let alone: Vec<String> = items
            .iter()
            .map(|v| {
                let (status, out, err) = run(args, &v.to_string());
                assert!(status == 0 || out.is_empty(), "{err}");
                if status == 0 {
                    return out.trim_end().to_string();
                }
                let e = json!({"error": err.trim().trim_start_matches("scalewise speedup: ")});
                if compact { serde_json::to_string(&e) } else { serde_json::to_string_pretty(&e) }.expect("text")
            })
            .collect();
        let want = if compact {
            format!("[{}]", alone.join(","))
        } else {
            let indented: Vec<String> = alone.iter().map(|t| format!("  {}", t.replace('\n', "\n  "))).collect();
            format!("[\n{}\n]", indented.join(",\n"))
        };
        assert_eq!(out, format!("{want}\n"), "{args:?}");
    }
    // A bad option is one usage error for the whole list, not one per element.
    let (status, out, err) = run(&["speedup", "--allocation", "pdf"], &Value::Array(items).to_string());
    assert_eq!((status, out.as_str()), (2, ""));
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn an_element_is_read_from_its_text_alone_and_in_a_list_alike() {
    // Each element is read straight from its text into its request: a key given twice is
    // refused (a tree of the JSON would keep the last value silently), and of two wrong keys
    // the first written is named, whether the element is alone or in a list.
    let twice = r#"{"points": [{"n": 4, "n": 2, "time_s": 3}, {"n": 8, "time_s": 2}]}"#;
    let two_wrong = r#"{"points": [{"time_s": "x", "n": "y"}]}"#;
    let good = example().to_string();
    for (element, want) in [
        (twice, "points[0]: the key \"n\" is given twice"),
        (two_wrong, "points[0].time_s: expected a number, found a string"),
    ] {
        let (status, out, err) = run(&["speedup"], element);
        assert_eq!((status, out.as_str(), err.trim_end()), (1, "", format!("scalewise speedup: {want}").as_str()));
        let (status, out, err) = run(&["speedup", "--compact"], &format!("[{good}, {element}]"));
        assert_eq!(status, 0, "{err}");
        let list: Value = serde_json::from_str(&out).expect("JSON out");
        assert_eq!(list[1], json!({"error": want}));
        assert!(list[0]["fits"].is_array());
    }
}

#[test]
fn skipped_models_duplicates_and_past_peak_are_reported() {
    // One count, even run twice, cannot tell how a program scales: refused, naming why.
    let (status, _, stderr) = run(
        &["speedup"],
        &json!({"points": [{"n": 4, "speedup": 3.5}, {"n": 4, "speedup": 3.7}], "predict": [8]}).to_string(),
    );
    assert_eq!(status, 1);
    assert!(stderr.contains("one process count (n = 4) cannot tell how the program scales"), "{stderr}");
    // Two counts, one of them run twice: averaged, said, and every model fitted.
    let v = answer(
        &json!({"points": [{"n": 4, "speedup": 3.5}, {"n": 4, "speedup": 3.7}, {"n": 8, "speedup": 6.1}], "predict": [16]}),
    );
    assert_eq!(v["skipped"], json!([]));
    assert!(v["warnings"].as_array().expect("list").iter().any(|w| w.as_str().is_some_and(|w| w.contains("averaged"))));

    let pts: Vec<Value> = [(1, 1.0), (2, 1.9), (4, 3.6), (8, 6.0), (16, 7.1), (32, 6.2)]
        .iter()
        .map(|(n, s)| json!({"n": n, "speedup": s}))
        .collect();
    let v = answer(&json!({"points": pts}));
    assert_eq!(fit(&v, "downey")["points_used"], 5);
    assert_eq!(fit(&v, "usl")["points_used"], 6);
    assert_eq!(v["points"][5]["past_peak"], true);
    let v = answer(&json!({"points": pts, "include_past_peak": true}));
    assert_eq!(fit(&v, "downey")["points_used"], 6);
}

#[test]
fn nodes_say_which_predictions_leave_the_one_node_of_the_runs() {
    // Runs on 8, 16 and 32 cores of one 32-core node; 64 and 256 need 2 and 8 nodes.
    let pts: Vec<Value> =
        [(8, 100.0), (16, 52.0), (32, 28.0)].iter().map(|(n, t)| json!({"n": n, "time_s": t, "nodes": 1})).collect();
    let one = answer(&json!({"points": pts, "predict": [24, 64, 256], "cores_per_node": 32}));
    let f = one["forecast"]["predictions"].as_array().unwrap();
    assert_eq!(f.iter().map(|p| p["crosses_nodes"].as_bool().unwrap()).collect::<Vec<_>>(), [false, true, true]);
    assert_eq!(f.iter().map(|p| p["nodes"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2, 8]);
    assert!(f.iter().all(|p| p["held_out_width"].as_f64().is_some_and(|w| w > 0.0)));
    assert_eq!(one["points"][0]["nodes"], 1);
    for k in ["trend_exponent", "amdahl_weight", "serial", "parallel"] {
        assert!(one["forecast"][k].as_f64().is_some(), "forecast.{k}");
    }
    // The node size can come from the points: 64 on 2 nodes is 32 per node, and the runs
    // already spread over nodes leave none.
    let spread: Vec<Value> = [(16, 1), (32, 1), (64, 2)]
        .iter()
        .map(|(n, d)| json!({"n": n, "time_s": 800.0 / f64::from(*n), "nodes": d}))
        .collect();
    let v = answer(&json!({"points": spread, "predict": [256]}));
    assert_eq!(
        (v["forecast"]["predictions"][0]["nodes"].as_u64(), v["forecast"]["predictions"][0]["crosses_nodes"].as_bool()),
        (Some(8), Some(false))
    );
    // Every run on one node, its size not said: nothing is claimed, and the warning asks for it.
    let v = answer(
        &json!({"points": [{"n": 8, "time_s": 10.0, "nodes": 1}, {"n": 16, "time_s": 5.5, "nodes": 1}], "predict": [64]}),
    );
    assert_eq!(v["forecast"]["predictions"][0]["crosses_nodes"], false);
    assert!(v["forecast"]["predictions"][0].get("nodes").is_none());
    assert!(v["warnings"].as_array().unwrap().iter().any(|w| w.as_str().is_some_and(|w| w.contains("cores per node"))));
}

#[test]
fn errors_exit_1_with_one_line_naming_the_key() {
    let cases: &[(&str, &str)] = &[
        (r#"{"points": [{"n": 0, "speedup": 1}]}"#, "points[0].n:"),
        (r#"{"points": [{"n": 2, "time_s": -1}]}"#, "points[0].time_s:"),
        (r#"{"points": [{"n": 2, "speedup": 1, "weight": "x"}]}"#, "points[0].weight: expected a number"),
        (r#"{"points": [{"n": 2, "speedup": 1}, {"n": 4, "time_s": 1}]}"#, "points[1]: every point"),
        (r#"{"points": [{"n": 2, "speedup": 1}], "models": ["gauss"]}"#, "models[0]"),
        (r#"{"points": [{"n": 2, "speedup": 1}], "predict": [0]}"#, "predict[0]"),
        (r#"{"points": [], "colour": 1}"#, "unknown key \"colour\""),
        (
            r#"{"points": [{"n": 2, "speedup": 1, "nodes": 3}, {"n": 4, "speedup": 2}]}"#,
            "points[0].nodes: nodes must be a whole number from 1 to n",
        ),
        (
            r#"{"points": [{"n": 2, "speedup": 1, "nodes": 1}, {"n": 2, "speedup": 1.1, "nodes": 2}]}"#,
            "points[1].nodes: n = 2 is given on 1 and on 2 nodes",
        ),
        (
            r#"{"points": [{"n": 2, "speedup": 1}, {"n": 4, "speedup": 2}], "cores_per_node": 0}"#,
            "cores_per_node: expected a whole number",
        ),
        (r#""text""#, "expected an object or a list"),
    ];
    for (input, want) in cases {
        let (status, out, err) = run(&["speedup"], input);
        assert_eq!(status, 1, "{input}: {err}");
        assert!(err.contains(want), "{input}: {err:?} lacks {want:?}");
        assert_eq!(err.trim_end().lines().count(), 1);
        assert!(out.is_empty());
    }
}

#[test]
fn help_documents_the_keys() {
    let (status, out, _) = run(&["speedup", "--help"], "");
    assert_eq!(status, 0);
    for k in [
        "points",
        "predict",
        "models",
        "include_past_peak",
        "best_reason",
        "karp_flatt",
        "time_s",
        "EXAMPLE",
        "error",
        "nodes",
        "cores_per_node",
        "crosses_nodes",
    ] {
        assert!(out.contains(k), "--help lacks {k}");
    }
    // Each model family has its line among the models, and its parameters are named: a family
    // added to the list without its help fails here.
    let models = out.split("Models").nth(1).and_then(|m| m.split("\n\n").next()).unwrap_or("");
    for m in scalewise::model::speedup::MODELS {
        let line = models
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{} ", m.name())))
            .unwrap_or_else(|| panic!("--help has no line for {}", m.name()));
        for p in m.param_names() {
            assert!(line.contains(p), "--help's line for {} lacks {p}", m.name());
        }
    }
    assert!(out.contains("default every model above"));
}

#[test]
fn a_weak_scaling_series_gets_time_and_efficiency_with_ranges() {
    // T(n) = 10 + 0.5·log2 n: a weak-scaling code whose reduction grows with n.
    let input = r#"{"scaling": "weak", "points": [{"n": 1, "time_s": 10}, {"n": 2, "time_s": 10.5}, {"n": 4, "time_s": 11.0},
        {"n": 8, "time_s": 11.5}, {"n": 16, "time_s": 12.0}], "predict": [64, 1024]}"#;
    let o = common::run(&["speedup", "--compact"], input);
    assert_eq!(o.status, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["scaling"], "weak");
    assert_eq!(v["model"]["formula"], "10 + 0.5·log₂ n");
    assert_eq!((v["efficiency_base_n"].as_u64(), v["t1_s"].as_f64()), (Some(1), Some(10.0)));
    let p = &v["predictions"][1];
    assert_eq!(p["n"], 1024);
    assert!((p["time_s"].as_f64().unwrap() - 15.0).abs() < 1e-9, "{p}");
    assert!((p["efficiency"].as_f64().unwrap() - 10.0 / 15.0).abs() < 1e-9);
    let (lo, hi) = (p["efficiency_low"].as_f64().unwrap(), p["efficiency_high"].as_f64().unwrap());
    assert!(lo < 10.0 / 15.0 && 10.0 / 15.0 < hi && hi < 1.0 + 1e-9, "{p}");
    assert!(p["time_low_s"].as_f64().unwrap() < 15.0 && 15.0 < p["time_high_s"].as_f64().unwrap());
    // Speed-ups, a misspelt scaling and strong-only keys are refused by name.
    let o = common::run(
        &["speedup"],
        r#"{"scaling": "weak", "points": [{"n": 1, "speedup": 1}, {"n": 2, "speedup": 1.9}]}"#,
    );
    assert_eq!(o.status, 1);
    assert!(o.stderr.contains("weak scaling needs times"), "{}", o.stderr);
    let o = common::run(&["speedup"], r#"{"scaling": "weakly", "points": [{"n": 1, "time_s": 1}]}"#);
    assert!(o.stderr.contains("scaling: expected \"strong\" or \"weak\", found \"weakly\""), "{}", o.stderr);
    let o = common::run(&["speedup"], r#"{"scaling": "weak", "models": ["usl"], "points": [{"n": 1, "time_s": 1}]}"#);
    assert!(o.stderr.contains("models: not read for weak scaling"), "{}", o.stderr);
    // In a list, a weak element is answered as such, next to a strong one.
    let o = common::run(&["speedup", "--compact"], &format!("[{input}, {{\"points\": [{{\"n\": 1, \"time_s\": 10}}, {{\"n\": 2, \"time_s\": 5.5}}, {{\"n\": 4, \"time_s\": 3.2}}]}}]"));
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v[0]["scaling"], "weak");
    assert!(v[1]["fits"].is_array());
}

/// A pasted table of timings piped to `--format table` is read by the page's own reader and
/// gives the page's answer: the same best model, forecast, ranges, advice and warnings, for a
/// table with a header (units in brackets) and one without.
#[test]
fn a_table_on_the_command_gives_the_pages_answer() {
    use scalewise::model::speedup::page::{self, Field};
    use scalewise::model::workspace::PageField;
    for table in ["n,time (s)\n1,100\n2,52.5\n4,27.9\n8,15.6\n16,9.9\n", "1\t100\n2\t52.5\n4\t27.9\n8\t15.6\n16\t9.9\n"]
    {
        let (status, out, err) = run(&["speedup", "--format", "table", "--predict", "64, 256", "--compact"], table);
        assert_eq!(status, 0, "{err}");
        let cli: Value = serde_json::from_str(&out).unwrap();
        let mut texts = page::default_inputs();
        texts.insert(Field::Points.key().into(), table.into());
        texts.insert(Field::Target.key().into(), "64, 256".into());
        let view = page::view(&texts, &Default::default());
        assert_eq!(view.points_error, None);
        assert_eq!(cli["best"], json!(view.best.unwrap().name()));
        assert_eq!(cli["advice"]["text"], json!(view.advice_text));
        // The same warnings, the reading of the table in the command's words.
        let words =
            |w: &scalewise::model::Warning| w.message.replace("choose \"speed-up\"", "give --second-column speedup");
        assert_eq!(cli["warnings"], json!(view.warnings.iter().map(words).collect::<Vec<_>>()));
        // And in the one shape, with the page's paths.
        let at: Vec<Value> = view.warnings.iter().map(|w| json!({"path": w.path, "message": words(w)})).collect();
        assert_eq!(cli["warnings_at"], json!(at));
        let forecast = cli["forecast"]["predictions"].as_array().unwrap();
        assert_eq!(forecast.len(), 2);
        for (c, p) in forecast.iter().zip(&view.forecast) {
            let p = &p.prediction;
            assert_eq!(
                (c["n"].as_u64(), c["speedup"].as_f64(), c["low"].as_f64(), c["high"].as_f64()),
                (Some(u64::from(p.n)), Some(p.speedup), Some(p.speedup_low), Some(p.speedup_high))
            );
        }
        // Without a header the reading taken is said, with the option that changes it.
        assert_eq!(cli["table_reading"].is_string(), !table.starts_with('n'), "{}", cli["table_reading"]);
    }
    let none = run(&["speedup", "--format", "table"], "1 100\n2 52\n").1;
    assert!(none.contains("--second-column speedup"), "{none}");
    // A bad line is named; the page's limits hold (8 counts to predict); options of the other
    // format are usage errors.
    let (status, _, err) = run(&["speedup", "--format", "table"], "n,time (s)\n1,100\n2,5x\n");
    assert_eq!(status, 1);
    // Column 3: the character where "5x" starts (issue 45, item 21: columns count characters).
    assert!(err.contains("points: line 3, column 3: expected a number for time (s)"), "{err}");
    let (status, _, err) = run(&["speedup", "--format", "table", "--predict", "1 2 3 4 5 6 7 8 9"], "1 100\n2 52\n");
    assert_eq!(status, 2, "{err}");
    assert_eq!(run(&["speedup", "--format", "table", "--hold", "5"], "1 100\n2 52\n").0, 2);
    assert_eq!(run(&["speedup", "--format", "extrap", "--second-column", "time"], "").0, 2);
    assert_eq!(run(&["speedup", "--format", "table", "--second-column", "sideways"], "").0, 2);
}

//! `scalewise speedup --format extrap`: Extra-P experiments from the command line, the
//! contract keys, the format sniffing and the errors.

use serde_json::{json, Value};

mod common;

fn data(name: &str) -> String {
    format!("{}/tests/data/extrap/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn answer(args: &[&str]) -> Value {
    let o = common::run(args, "");
    assert_eq!(o.status, 0, "{}", o.stderr);
    serde_json::from_str(&o.stdout).expect("JSON out")
}

#[test]
fn text_file_gives_the_ranked_dominant_table_with_the_contract_keys() {
    let v = answer(&["speedup", "--format", "extrap", &data("app.txt"), "--predict", "256,1024", "--compact"]);
    let regions = v["regions"].as_array().unwrap();
    assert_eq!(regions.len(), 24);
    for r in regions {
        assert!(r["callpath"].is_string() && r["metric"] == "time" && r["best"].is_string(), "{r}");
        let p = r["predictions"].as_array().unwrap();
        assert_eq!(p.iter().map(|p| p["n"].as_u64().unwrap()).collect::<Vec<_>>(), [256, 1024]);
        for p in p {
            let (t, lo, hi) =
                (p["time_s"].as_f64().unwrap(), p["time_low_s"].as_f64().unwrap(), p["time_high_s"].as_f64().unwrap());
            assert!(lo <= t && t <= hi, "{p}");
        }
    }
    let dominant = v["dominant"].as_array().unwrap();
    assert_eq!(dominant.len(), 2);
    for (d, t) in dominant.iter().zip(v["ranking"].as_array().unwrap()) {
        assert_eq!(d["n"], t["n"]);
        assert_eq!(d["callpath"], t["regions"][0]["callpath"]);
        assert_eq!(d["share"], t["regions"][0]["share"]);
        let shares: Vec<f64> = t["regions"].as_array().unwrap().iter().map(|r| r["share"].as_f64().unwrap()).collect();
        assert!(shares.windows(2).all(|w| w[0] >= w[1]));
        assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
    // The dominant region at 256 is the one the generator's true laws make largest.
    assert_eq!(dominant[0]["callpath"], "main->solve->dot");
    // Every region has its model written out and says whether it grows; one whose time
    // grows with p (a cost that rises as p) is modelled rising, not dropped.
    for r in regions {
        assert!(r["formula"].as_str().is_some_and(|f| f.contains('p')), "{r}");
        assert!(r["grows"].is_boolean() && r["loo_rel_error"].is_number(), "{r}");
    }
    let dot = regions.iter().find(|r| r["callpath"] == "main->solve->dot").unwrap();
    assert_eq!(dot["grows"], true);
    let t = |i: usize| dot["predictions"][i]["time_s"].as_f64().unwrap();
    assert!(t(1) > 2.0 * t(0), "{dot}");
}

#[test]
fn json_lines_and_json_are_recognised_without_format() {
    let v = answer(&["speedup", &data("app.jsonl"), "--predict", "512", "--hold", "1000"]);
    assert_eq!(v["format"], "jsonl");
    assert_eq!(v["regions"].as_array().unwrap().len(), 22);
    assert_eq!(v["side_parameter"], "size");
    assert_eq!(v["side_values"], json!([1000.0]));
    assert_eq!(v["metrics"], json!(["time", "visits"]));
    assert!(v["dominant"][0]["callpath"].is_string());
    let per = answer(&["speedup", &data("app.jsonl"), "--predict", "512", "--hold", "per-value"]);
    assert_eq!(per["dominant"].as_array().unwrap().len(), 2);
    let j = answer(&["speedup", &data("app.json")]);
    assert_eq!(j["format"], "json");
    assert_eq!(j["regions"].as_array().unwrap().len(), 6);
    // Default targets: 4x and 16x the largest measured count (64).
    assert_eq!(j["predict"], json!([256, 1024]));
    // The JSON form of the ordinary input is unchanged.
    let o = common::run(
        &["speedup", "--compact"],
        r#"{"points": [{"n": 1, "time_s": 10}, {"n": 2, "time_s": 5.2}, {"n": 4, "time_s": 2.9}]}"#,
    );
    assert_eq!(o.status, 0, "{}", o.stderr);
    assert!(o.stdout.contains("\"fits\""));
}

#[test]
fn malformed_experiments_name_the_line_and_column() {
    let o = common::run(&["speedup", "--format", "extrap"], "PARAMETER p\nPOINTS 2 4\nREGION r\nDATA 1 x\n");
    assert_eq!(o.status, 1);
    assert_eq!(
        o.stderr.trim(),
        "scalewise speedup: Extra-P experiment: line 4, column 8: expected a measured value (a number), found \"x\""
    );
    let o = common::run(
        &["speedup", "--format", "extrap"],
        "{\"params\": {\"p\": 2}, \"value\": 1}\n{\"params\": {\"p\": 4}, \"value\": []}\n",
    );
    assert_eq!(o.status, 1);
    assert!(o.stderr.contains("line 2, column 22: value: expected a non-empty list"), "{}", o.stderr);
    // A bad option value is a usage error, found before the input is read.
    let o = common::run(&["speedup", "--format", "extrap", &data("app.txt"), "--hold", "big"], "");
    assert_eq!(o.status, 2);
    assert!(o.stderr.contains("--hold: expected a value of the second parameter"), "{}", o.stderr);
    let o = common::run(&["speedup", "--predict", "4"], "{\"points\": []}");
    assert_eq!(o.status, 2, "{}", o.stderr);
    let o = common::run(&["speedup", "--help"], "");
    assert!(o.stdout.contains("--format extrap") && o.stdout.contains("--hold"));
}

fn planner_input() -> String {
    let cases: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{}/tests/golden/cli-cases.json", env!("CARGO_MANIFEST_DIR"))).unwrap(),
    )
    .unwrap();
    cases.as_array().unwrap().iter().find(|c| c["name"] == "multigrid-planner").unwrap()["input"].to_string()
}

#[test]
fn allocation_tables_from_speedup_and_the_multigrid_planner() {
    let input = r#"{"points":[{"n":2,"time_s":100},{"n":4,"time_s":52},{"n":8,"time_s":28},{"n":16,"time_s":16}],"predict":[16,32,64]}"#;
    let o = common::run(
        &["speedup", "--compact", "--allocation", "csv", "--cores-per-node", "8", "--price-per-core-hour", "0.5"],
        input,
    );
    assert_eq!(o.status, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let a = &v["allocation"];
    // The rows are the measured counts, then the forecast's predictions beyond them (a count
    // both measured and predicted keeps its measurement), and the CSV holds the same numbers.
    let text = a["text"].as_str().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("processes,nodes,time (s),time low (s),time high (s),efficiency (%),core-hours,node-hours,cost (EUR),recommended,basis"), "{}", lines[0]);
    let points = v["points"].as_array().unwrap();
    let forecast: Vec<&Value> =
        v["forecast"]["predictions"].as_array().unwrap().iter().filter(|p| p["n"].as_u64() > Some(16)).collect();
    let want: Vec<(&Value, f64, &str)> = points
        .iter()
        .map(|p| (&p["n"], p["time_s"].as_f64().unwrap(), "measured"))
        .chain(forecast.iter().map(|p| (&p["n"], p["time_s"].as_f64().unwrap(), "predicted")))
        .collect();
    assert_eq!(a["rows"].as_array().unwrap().len(), want.len());
    for (k, (n, t, basis)) in want.into_iter().enumerate() {
        let row = &a["rows"][k];
        assert_eq!((&row["procs"], row["basis"].as_str()), (n, Some(basis)));
        assert_eq!(row["time_s"].as_f64(), Some(t));
        assert_eq!(row["nodes"].as_u64().unwrap(), n.as_u64().unwrap().div_ceil(8));
        // Whole nodes are billed: every core of the nodes held.
        let hours = (n.as_u64().unwrap().div_ceil(8) * 8) as f64 * t / 3600.0;
        assert!((row["core_hours"].as_f64().unwrap() - hours).abs() < 1e-9 * hours.max(1.0));
        assert!((row["cost"].as_f64().unwrap() - hours * 0.5).abs() < 1e-9);
        let cells: Vec<f64> = lines[k + 1].split(',').take(3).map(|c| c.parse().unwrap()).collect();
        assert!((cells[2] - t).abs() <= 5e-4 * t, "{} vs {t}", cells[2]);
        assert_eq!(row["time_low_s"].is_null(), basis == "measured", "a measured time has no range");
    }
    assert!(a["reason"].is_string() && a["recommended"].is_u64());
    // The multigrid planner's ranking, as LaTeX.
    let o = common::run(&["multigrid", "--compact", "--allocation", "latex"], &planner_input());
    assert_eq!(o.status, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let a = &v["allocation"];
    assert!(a["text"].as_str().unwrap().starts_with("\\begin{tabular}"), "{a}");
    assert!(!a["rows"].as_array().unwrap().is_empty());
    assert_eq!(a["rows"][0]["efficiency"], json!(1.0));
    // Bad values are named, as usage errors (exit 2); without --allocation the answer has no
    // such key.
    let o = common::run(&["speedup", "--allocation", "pdf"], input);
    assert_eq!(o.status, 2);
    assert!(o.stderr.contains("--allocation: expected md, csv or latex, found \"pdf\""), "{}", o.stderr);
    let o = common::run(&["speedup", "--compact"], input);
    assert!(!o.stdout.contains("\"allocation\""));
    assert!(common::run(&["speedup", "--help"], "").stdout.contains("--allocation md|csv|latex"));
    assert!(common::run(&["multigrid", "--help"], "").stdout.contains("--allocation md|csv|latex"));
}

/// `--machine ID` bills a catalog machine's whole nodes: its cores per node, its price in its
/// currency and unit, and the energy and carbon of its node power, PUE and grid by hand; an
/// explicit option overrides the machine's figure; an unknown id is a usage error.
#[test]
fn allocation_on_a_catalog_machine_by_hand() {
    let all = scalewise::model::workspace::machines::full();
    let m = all.cluster("azure-hbv3").expect("azure-hbv3");
    let (w, pue, g) = (m.node_power_w.unwrap(), m.pue.unwrap(), m.carbon_g_per_kwh.unwrap());
    let price = m.price.clone().expect("a price");
    assert_eq!(price.unit, "node-hour");
    let input = r#"{"points":[{"n":120,"time_s":100},{"n":240,"time_s":52},{"n":480,"time_s":28},{"n":960,"time_s":16}],"predict":[1920]}"#;
    let o = common::run(&["speedup", "--compact", "--allocation", "md", "--machine", "azure-hbv3"], input);
    assert_eq!(o.status, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let rows = v["allocation"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    for row in rows {
        let (n, t) = (row["procs"].as_u64().unwrap(), row["time_s"].as_f64().unwrap());
        let nodes = n.div_ceil(u64::from(m.cores_per_node));
        let node_hours = nodes as f64 * t / 3600.0;
        let close = |x: &Value, y: f64| (x.as_f64().unwrap() - y).abs() <= 1e-9 * y.max(1e-9);
        assert_eq!(row["nodes"].as_u64(), Some(nodes));
        assert!(close(&row["node_hours"], node_hours), "{row}");
        assert!(close(&row["energy_kwh"], node_hours * w * pue / 1000.0), "{row}");
        assert!(close(&row["co2e_kg"], node_hours * w * pue / 1000.0 * g / 1000.0), "{row}");
        assert!(close(&row["price"]["amount"], node_hours * price.amount), "{row}");
        assert_eq!(row["price"]["currency"], json!(price.currency));
    }
    let text = v["allocation"]["text"].as_str().unwrap();
    assert!(text.lines().next().unwrap().contains("| energy (kWh) | CO2e (kg) |"), "{text}");
    // An explicit PUE overrides the machine's.
    let o =
        common::run(&["speedup", "--compact", "--allocation", "md", "--pue", "2", "--machine", "azure-hbv3"], input);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let r0 = &v["allocation"]["rows"][0];
    let kwh = r0["node_hours"].as_f64().unwrap() * w * 2.0 / 1000.0;
    assert!((r0["energy_kwh"].as_f64().unwrap() - kwh).abs() < 1e-12, "{r0}");
    let o = common::run(&["speedup", "--allocation", "md", "--machine", "no-such"], input);
    assert_eq!(o.status, 2, "{}", o.stderr);
    assert!(o.stderr.contains("--machine: no machine \"no-such\" in the catalog"), "{}", o.stderr);
    let o = common::run(&["speedup", "--pue", "1.2"], input);
    assert_eq!(o.status, 2, "{}", o.stderr);
    assert!(o.stderr.contains("--pue applies only to the allocation table"), "{}", o.stderr);
}

/// The planner page's "Allocation request" (model::allocation::page_table over the page's
/// ranking and its fields) gives what `scalewise multigrid --allocation` gives for the same
/// ranking and options: the same rows, recommendation and text.
#[test]
fn planner_page_allocation_matches_the_cli() {
    use scalewise::model::allocation::{page_table, KEY_CORES, KEY_FORMAT, KEY_PRICE, KEY_THRESHOLD};
    use scalewise::model::multigrid::Plan;
    let input = planner_input();
    for (format, threshold) in [("csv", "60"), ("md", ""), ("latex", "90")] {
        let mut args = vec![
            "multigrid",
            "--compact",
            "--allocation",
            format,
            "--cores-per-node",
            "8",
            "--price-per-core-hour",
            "0.5",
        ];
        let th = threshold.parse::<f64>().map(|t| (t / 100.0).to_string());
        if let Ok(t) = &th {
            args.extend(["--efficiency-threshold", t.as_str()]);
        }
        let o = common::run(&args, &input);
        assert_eq!(o.status, 0, "{}", o.stderr);
        let v: Value = serde_json::from_str(&o.stdout).unwrap();
        let plans: Vec<Plan> = serde_json::from_value(v["planner"]["ranking"].clone()).unwrap();
        assert!(plans.len() > 1);
        let texts = [(KEY_CORES, "8"), (KEY_PRICE, "0.5"), (KEY_THRESHOLD, threshold), (KEY_FORMAT, format)];
        let page =
            page_table(|k| texts.iter().find(|t| t.0 == k).map(|t| t.1.to_string()).unwrap_or_default(), &plans[..]);
        assert!(page.errors.is_empty());
        let a = &v["allocation"];
        assert_eq!(page.text, a["text"].as_str().unwrap(), "{format}");
        assert_eq!(page.allocation.reason, a["reason"].as_str().unwrap());
        let rows = a["rows"].as_array().unwrap();
        assert_eq!(page.allocation.rows.len(), rows.len());
        for (r, j) in page.allocation.rows.iter().zip(rows) {
            assert_eq!(json!(r.procs), j["procs"]);
            assert_eq!(json!(r.nodes), j["nodes"]);
            assert_eq!(json!(r.time_s), j["time_s"]);
            assert_eq!(json!(r.time_range_s.map(|x| x.0)), j["time_low_s"]);
            assert_eq!(json!(r.efficiency), j["efficiency"]);
            assert_eq!(json!(r.core_hours), j["core_hours"]);
            assert_eq!(json!(r.cost), j["cost"]);
        }
        assert_eq!(json!(page.allocation.recommended.map(|i| page.allocation.rows[i].procs)), a["recommended"]);
    }
}

#[test]
fn the_command_fits_more_regions_than_the_page_on_every_core_with_the_one_thread_answer() {
    use scalewise::model::bottlenecks::{parse, rank, RankOptions, MAX_REGIONS};
    let text = common::extrap_experiment(450);
    let o = common::run(&["speedup", "--format", "extrap", "-", "--predict", "256", "--compact"], &text);
    assert_eq!(o.status, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let regions = v["regions"].as_array().unwrap();
    assert_eq!(regions.len(), 450);
    // The model on one thread gives the same fits in the same order.
    let opts = RankOptions { targets: vec![256], ..RankOptions::default() };
    let one = rank(&parse(&text).unwrap(), &opts).unwrap();
    for (r, m) in regions.iter().zip(&one.regions) {
        assert_eq!(r["callpath"], json!(m.callpath));
        assert_eq!(r["predictions"][0]["time_s"], json!(m.predictions[0].time_s.unwrap().0));
    }
    assert_eq!(v["dominant"][0]["callpath"], json!(one.dominant[0].callpath));
    // The page's limit holds where it applies (before anything is fitted); the command's is
    // higher.
    let text = common::extrap_experiment(MAX_REGIONS + 1);
    let page = rank(&parse(&text).unwrap(), &RankOptions::default()).unwrap_err();
    assert!(page.to_string().contains(&format!("more than the {MAX_REGIONS}")), "{page}");
    let batch = RankOptions {
        max_regions: scalewise::model::bottlenecks::MAX_REGIONS_BATCH,
        targets: vec![256],
        ..RankOptions::default()
    };
    assert_eq!(scalewise::model::bottlenecks::plan(&parse(&text).unwrap(), &batch).unwrap().len(), MAX_REGIONS + 1);
}

#[test]
fn whole_points_are_predicted_with_the_parameters_named() {
    let v = answer(&["bottlenecks", &data("app.jsonl"), "--predict", "256:8000,1024:16000", "--compact"]);
    assert_eq!(v["points"], json!([{"p": 256.0, "size": 8000.0}, {"p": 1024.0, "size": 16000.0}]));
    assert_eq!(v["predict"], json!([256, 1024]));
    let regions = v["regions"].as_array().unwrap();
    assert_eq!(regions.len(), 22);
    for r in regions {
        assert_eq!(r["side"], Value::Null);
        assert!(r["formula"].as_str().unwrap().contains("size"), "{r}");
        let p = r["predictions"].as_array().unwrap();
        assert_eq!(p[1]["point"], json!({"p": 1024.0, "size": 16000.0}));
        for p in p {
            let (t, lo, hi) =
                (p["time_s"].as_f64().unwrap(), p["time_low_s"].as_f64().unwrap(), p["time_high_s"].as_f64().unwrap());
            assert!(0.0 < lo && lo < t && t < hi, "{p}");
        }
        assert_eq!(r["points"][0]["point"]["p"], json!(2.0));
    }
    assert_eq!(v["dominant"][1]["point"], json!({"p": 1024.0, "size": 16000.0}));
    assert_eq!(v["ranking"][0]["side"], json!(8000.0));
    // A point of the wrong size names what the file's parameters are.
    let o = common::run(&["bottlenecks", &data("app.jsonl"), "--predict", "256:8000:3"], "");
    assert_eq!(o.status, 1);
    assert!(o.stderr.contains("a point to predict at needs 2 values (p, size), found 3"), "{}", o.stderr);
    let o = common::run(&["bottlenecks", &data("app.jsonl"), "--predict", "256:x"], "");
    assert!(
        o.stderr.contains("--predict: line 1, column 1: expected a process count or values joined by ':'"),
        "{}",
        o.stderr
    );
}

#[test]
fn a_call_tree_is_ranked_by_own_time_and_the_answer_says_how_it_was_read() {
    // calltree.txt: main (inclusive) = 0.1 + main->compute (1200/p) + main->io (2 + 0.05·p);
    // at p = 256 main->io's own share is 14.8/19.5875 = 75.6 % (before: main 50 %).
    let v = answer(&["bottlenecks", &data("calltree.txt"), "--predict", "256", "--compact"]);
    assert_eq!(
        (&v["nesting"], &v["times"], &v["left_out"], &v["non_additive"]),
        (&json!("callpaths"), &json!({"kind": "inclusive", "decided": "data"}), &Value::Null, &json!([]))
    );
    assert_eq!(v["dominant"][0]["callpath"], "main->io");
    assert!((v["dominant"][0]["share"].as_f64().unwrap() - 14.8 / 19.5875).abs() < 0.01, "{}", v["dominant"]);
    let regions = v["regions"].as_array().unwrap();
    let by = |name: &str| regions.iter().find(|r| r["callpath"] == name).unwrap();
    assert_eq!((&by("main")["parent"], &by("main")["depth"]), (&Value::Null, &json!(0)));
    assert_eq!((&by("main->io")["parent"], &by("main->io")["depth"]), (&json!("main"), &json!(1)));
    let main_share = &by("main")["shares"][0];
    assert!(
        (main_share["inclusive"].as_f64().unwrap() - 1.0).abs() < 1e-9 && main_share["own"].as_f64().unwrap() < 0.01,
        "{main_share}"
    );
    let rows = v["ranking"][0]["regions"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r["own"] == r["share"] && r["inclusive"].is_number()));
    assert!(v["warnings_at"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["path"] == "input" && w["message"].as_str().unwrap().contains("inclusive")));
}

#[test]
fn relearn_is_read_as_an_indented_tree_whose_deepest_holder_dominates() {
    let file = format!("{}/tests/data/extrap-upstream/text/mpa/relearn_data.txt", env!("CARGO_MANIFEST_DIR"));
    let v = answer(&["bottlenecks", &file, "--predict", "2048", "--compact"]);
    assert_eq!(
        (&v["nesting"], &v["times"]["kind"], &v["left_out"]),
        (&json!("indentation"), &json!("inclusive"), &json!("main()"))
    );
    // One of Connectivity update's two leaves, within 8 % of each other at p = 512: which of
    // them leads at 2048 is the models' call.
    let dominant = v["dominant"][0]["callpath"].as_str().unwrap();
    assert!(["Find target neurons (w/ RMA)", "Create synapses (w/ Alltoall)"].contains(&dominant), "{dominant}");
    let na = v["non_additive"].as_array().unwrap();
    assert_eq!(na.len(), 1);
    assert_eq!(na[0]["parent"], "Connectivity update");
    assert!(na[0]["children"].as_array().unwrap().contains(&json!("Create synapses (w/ Alltoall)")));
    assert!(na[0]["point"]["p"].is_number() && na[0]["children_s"].as_f64() > na[0]["parent_s"].as_f64());
    let warned = |s: &str| {
        v["warnings_at"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["path"] == "input" && w["message"].as_str().unwrap().contains(s))
    };
    assert!(warned("indented") && warned("add up to more") && warned("left out"));
    // One row per region ranked (main() left out), by inclusive share.
    let rows = v["ranking"][0]["regions"].as_array().unwrap();
    assert_eq!(rows.len(), v["regions"].as_array().unwrap().len() - 1);
    assert!(rows.iter().all(|r| r["share"] == r["inclusive"] && r["callpath"] != "main()"));
}

fn upstream(name: &str) -> String {
    format!("{}/tests/data/extrap-upstream/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Issue 45, item 3: with n listed before p, p is still the process count (the names decide,
/// not their order), so the answer is the one for the file as Extra-P wrote it; --parameter
/// still picks another.
#[test]
fn a_parameter_named_p_is_the_process_count_whatever_its_place() {
    let swapped = answer(&["bottlenecks", &data("relearn_n_first.txt"), "--predict", "2048", "--compact"]);
    let original = answer(&["bottlenecks", &upstream("text/mpa/relearn_data.txt"), "--predict", "2048", "--compact"]);
    assert_eq!(swapped["process_parameter"], "p");
    assert_eq!(swapped["side_parameter"], "n");
    assert_eq!(swapped["points"][0], json!({"n": 9000.0, "p": 2048.0}));
    assert_eq!(swapped["dominant"][0]["callpath"], original["dominant"][0]["callpath"]);
    for (a, b) in swapped["regions"].as_array().unwrap().iter().zip(original["regions"].as_array().unwrap()) {
        let (ta, tb) =
            (a["predictions"][0]["time_s"].as_f64().unwrap(), b["predictions"][0]["time_s"].as_f64().unwrap());
        assert!((ta - tb).abs() <= 1e-6 * tb.abs(), "{}: {ta} vs {tb}", a["callpath"]);
    }
    let by_n =
        answer(&["bottlenecks", &data("relearn_n_first.txt"), "--parameter", "n", "--predict", "20000", "--compact"]);
    assert_eq!((by_n["process_parameter"].as_str(), by_n["side_parameter"].as_str()), (Some("n"), Some("p")));
}

/// Issue 45, item 11: a count cut to the largest reported is said, and so is a target far
/// beyond the measured counts (relearn measures p up to 512: 100,000,000 is 195,313× that).
#[test]
fn a_target_far_beyond_the_data_or_cut_to_the_largest_count_is_said_so() {
    let v = answer(&[
        "bottlenecks",
        &upstream("text/mpa/relearn_data.txt"),
        "--predict",
        "100000000:9000,2048:9000,4000000000:9000",
        "--compact",
    ]);
    assert_eq!(v["predict"], json!([100000000, 2048, 1000000000]));
    let predict: Vec<&str> = v["warnings_at"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["path"] == "predict")
        .map(|w| w["message"].as_str().unwrap())
        .collect();
    assert_eq!(predict[..3], [
        "p = 4.00000e9 is beyond the largest process count reported, 1.00000e9: the time is predicted at 4.00000e9, its count shown as 1.00000e9",
        "p = 100000000 is 195313× the largest measured count, 512: a prediction that far beyond the data rests on the model's form alone",
        "p = 4.00000e9 is 7812500× the largest measured count, 512: a prediction that far beyond the data rests on the model's form alone",
    ]);
    // 4× and 16× the largest measured (the defaults) are not far.
    let v = answer(&["bottlenecks", &upstream("text/mpa/relearn_data.txt"), "--compact"]);
    assert!(
        v["warnings"].as_array().unwrap().iter().all(|w| !w.as_str().unwrap().contains("the largest measured count")),
        "{}",
        v["warnings"]
    );
}

/// Issue 45, item 4: Extra-P's 2_param_add2 holds its points on a cross (p = 32 or n = 5000),
/// with no point off the axes. blast() rises by about 10 s a doubling of p (25, 35, 45, 55 s
/// from 64 to 512) and 5 s a thousand of n: some 105 s at 8192:5000. It was modelled as
/// 43.74 − 0.3521·p^(3/2) − 0.2494·p^−1·n + 7.067e-5·p^(3/2)·n, 945 s there and 210,534 s at
/// 8192:9000. The answer now adds the parameters' terms and says the design cannot tell.
#[test]
fn a_cross_design_gets_no_products_and_says_it_cannot_tell_sums_from_products() {
    let v = answer(&[
        "bottlenecks",
        &upstream("text/mpa/2_param_add2.txt"),
        "--predict",
        "8192:5000,8192:9000",
        "--compact",
    ]);
    let blast = v["regions"].as_array().unwrap().iter().find(|r| r["callpath"] == "blast()").unwrap();
    let t = |i: usize| blast["predictions"][i]["time_s"].as_f64().unwrap();
    assert!(
        (50.0..=250.0).contains(&t(0)) && (50.0..=250.0).contains(&t(1)),
        "{} {}: {}",
        t(0),
        t(1),
        blast["formula"]
    );
    for r in v["regions"].as_array().unwrap() {
        let f = r["formula"].as_str().unwrap();
        assert!(!f.split([' ']).any(|term| term.contains('p') && term.contains('n') && term.contains('·')), "{f}");
    }
    let input: Vec<&str> = v["warnings_at"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["path"] == "input")
        .map(|w| w["message"].as_str().unwrap())
        .collect();
    assert!(input.iter().any(|m| m.contains("cannot separate additive from multiplicative")), "{input:?}");
    // A full grid (relearn: every p with every n) is not a cross.
    let v = answer(&["bottlenecks", &upstream("text/mpa/relearn_data.txt"), "--compact"]);
    assert!(
        v["warnings"].as_array().unwrap().iter().all(|w| !w.as_str().unwrap().contains("additive")),
        "{}",
        v["warnings"]
    );
}

/// Issue 45, item 14: a range such as 1.6e-22 to 1.2e24 s (strong_scaling/one_parameter_1.txt
/// at 960) carries no information: each prediction says whether its range is uninformative
/// (low not above 0, or high over low above 1000), the numbers are kept, and a warning counts
/// them. The contract's keys stay.
#[test]
fn ranges_that_span_orders_of_magnitude_are_flagged_uninformative() {
    let v = answer(&["bottlenecks", &upstream("text/strong_scaling/one_parameter_1.txt"), "--compact"]);
    let p = &v["regions"][0]["predictions"];
    let (lo, hi) = (p[1]["time_low_s"].as_f64().unwrap(), p[1]["time_high_s"].as_f64().unwrap());
    assert!(hi / lo > 1e40, "{lo} {hi}");
    assert_eq!((p[0]["uninformative"].as_bool(), p[1]["uninformative"].as_bool()), (Some(true), Some(true)));
    let said: Vec<&str> = v["warnings_at"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["path"] == "predict")
        .map(|w| w["message"].as_str().unwrap())
        .collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with(
            "2 of 2 predicted times have a range wider than a factor 1000 (the widest: compute at x = 960, "
        ),
        "{}",
        said[0]
    );
    // app.txt's ranges at 256 and 1024 (4× and 16× its counts) are informative.
    let v = answer(&["bottlenecks", &data("app.txt"), "--predict", "256,1024", "--compact"]);
    for r in v["regions"].as_array().unwrap() {
        for p in r["predictions"].as_array().unwrap() {
            let span = p["time_high_s"].as_f64().unwrap() / p["time_low_s"].as_f64().unwrap();
            assert_eq!(p["uninformative"].as_bool(), Some(span > 1000.0), "{p}");
        }
    }
}

/// Issue 45, item 7: a value below 0 leaves its region out of the ranking, naming where it
/// was read, whether it is a point's only value or one repetition among others (before, a
/// repetition of -1e300 beside 5 and 5.1 was read, its median 5 ranked and its noise 0.0), in
/// every format: line and column in text, JSON Lines and Talpas, the path in JSON.
#[test]
fn a_value_below_0_is_refused_at_its_place_even_among_repetitions() {
    let cases: [(&str, &str, &str); 6] = [
        ("text", "PARAMETER p\nPOINTS 2 4 8\nREGION r\nDATA -1e300 5 5.1\nDATA 2\nDATA 1\n", "line 4, column 6"),
        ("text", "PARAMETER p\nPOINTS 2 4 8\nREGION r\nDATA 5 -2\nDATA 2\nDATA 1\n", "line 4, column 8"),
        ("text", "PARAMETER p\nPOINTS 2 4 8\nREGION r\nDATA 4\nDATA -1\nDATA 1\n", "line 5, column 6"),
        ("jsonl", "{\"params\": {\"p\": 2}, \"value\": [5, -1]}\n{\"params\": {\"p\": 4}, \"value\": 3}\n{\"params\": {\"p\": 8}, \"value\": 2}\n", "line 1, column 22, value[1]"),
        ("talpas", "{\"parameters\": {\"p\": 2}; \"metric\": \"time\"; \"callpath\": \"r\"; \"value\": [5, -1]}\n{\"parameters\": {\"p\": 4}; \"metric\": \"time\"; \"callpath\": \"r\"; \"value\": 3}\n{\"parameters\": {\"p\": 8}; \"metric\": \"time\"; \"callpath\": \"r\"; \"value\": 2}\n", "line 1, column 61, value[1]"),
        ("json", "{\"parameters\": [\"p\"], \"measurements\": {\"r\": {\"time\": [{\"point\": [2], \"values\": [5, -1]}, {\"point\": [4], \"values\": [3]}, {\"point\": [8], \"values\": [2]}]}}}", "measurements.\"r\".\"time\"[0].values[1]"),
    ];
    for (format, text, place) in cases {
        let o = common::run(&["bottlenecks", "-", "--compact"], text);
        assert_eq!(o.status, 0, "{format}: {}", o.stderr);
        let v: Value = serde_json::from_str(&o.stdout).unwrap();
        assert_eq!(v["format"], format);
        let n = if place.starts_with("line 5") { 4 } else { 2 };
        assert_eq!(
            v["regions"][0]["error"],
            format!("a value below 0 at {n} processes ({place}): the region is left out of the ranking"),
            "{format}"
        );
        assert_eq!(v["dominant"], json!([]), "{format}");
    }
}

/// The speed-up page's "Allocation request" of a weak-scaling series (model::allocation over
/// `SpeedupRows::of_weak`, the rows the page tabulates) is what `scalewise speedup
/// --allocation` gives for the same points: the measured counts and the predictions. The
/// command once read its rows back from the answer's keys and found no predictions in a weak
/// answer (no "forecast"), so its table stopped at the largest count measured.
#[test]
fn weak_scaling_allocation_matches_the_page_with_its_predictions() {
    use scalewise::model::allocation::{page_table, SpeedupRows, KEY_CORES, KEY_FORMAT, KEY_PRICE, KEY_THRESHOLD};
    use scalewise::model::speedup::{weak, Measure, RawPoint};
    let times = [(1.0, 10.0), (2.0, 10.4), (4.0, 10.9), (8.0, 11.8)];
    let input = json!({"scaling": "weak", "predict": [64, 256], "points": times.iter().map(|&(n, t)| json!({"n": n, "time_s": t})).collect::<Vec<_>>()});
    let o = common::run(&["speedup", "--compact", "--allocation", "md", "--cores-per-node", "4"], &input.to_string());
    assert_eq!(o.status, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let raw: Vec<RawPoint> =
        times.iter().map(|&(n, value)| RawPoint { n, value, weight: None, nodes: None, line: None }).collect();
    let w = weak::analyse_weak("points", &raw, Measure::TimeS, &[64, 256]).expect("a weak-scaling fit");
    let texts = [(KEY_CORES, "4"), (KEY_PRICE, ""), (KEY_THRESHOLD, ""), (KEY_FORMAT, "md")];
    let page = page_table(
        |k| texts.iter().find(|t| t.0 == k).map(|t| t.1.to_string()).unwrap_or_default(),
        &SpeedupRows::of_weak(&w),
    );
    let a = &v["allocation"];
    assert_eq!(page.text, a["text"].as_str().unwrap());
    let rows = a["rows"].as_array().unwrap();
    let predicted: Vec<&Value> = rows.iter().filter(|r| r["basis"] == "predicted").collect();
    assert_eq!(predicted.len(), 2, "{}", a["text"]);
    // Each predicted row is the answer's own prediction at that count.
    for (r, p) in predicted.iter().zip(v["predictions"].as_array().unwrap()) {
        assert_eq!((&r["procs"], &r["time_s"]), (&p["n"], &p["time_s"]));
    }
}

/// `speedup --format table` takes the allocation options as JSON input does (it once refused
/// them as options of another format), with the table of the same points.
#[test]
fn a_pasted_table_takes_the_allocation_options() {
    let table = "n time_s\n1 10\n2 5.2\n4 2.9\n8 1.8\n";
    let points = json!({"points": [{"n": 1, "time_s": 10}, {"n": 2, "time_s": 5.2}, {"n": 4, "time_s": 2.9}, {"n": 8, "time_s": 1.8}]});
    let from_table = common::run(&["speedup", "--format", "table", "--allocation", "csv", "--runs", "10"], table);
    assert_eq!(from_table.status, 0, "{}", from_table.stderr);
    let from_json = common::run(&["speedup", "--allocation", "csv", "--runs", "10"], &points.to_string());
    let (t, j): (Value, Value) =
        (serde_json::from_str(&from_table.stdout).unwrap(), serde_json::from_str(&from_json.stdout).unwrap());
    assert_eq!(t["allocation"], j["allocation"]);
    assert_eq!(t["allocation"]["rows"].as_array().map(Vec::len), Some(4));
}

/// Children that add up to more than their parent are fitted apart and ranked by inclusive
/// share of the top level; where a child's model then passes its parent's (main measured at
/// p = 1 and 4 only, read_mesh up to 64), the top level is taken to last at least as long as
/// the child: no share passes 100 % and every share lies in its range. Found by the extrap
/// fuzz target (its input is committed under fuzz/regressions/extrap): read_mesh showed
/// 138.6 % of main at p = 64, between a low and a high of 100 %.
#[test]
fn no_inclusive_share_passes_the_whole_run() {
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/regressions/extrap/crash-364615539377796776f91f4495adb80125b053f2");
    let o = common::run(&["bottlenecks", path, "--predict", "64,4096", "--compact"], "");
    assert_eq!(o.status, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["times"]["kind"], "inclusive");
    assert!(!v["non_additive"].as_array().unwrap().is_empty());
    for t in v["ranking"].as_array().unwrap() {
        for r in t["regions"].as_array().unwrap() {
            let (share, low, high) =
                (r["share"].as_f64().unwrap(), r["low"].as_f64().unwrap(), r["high"].as_f64().unwrap());
            assert!((0.0..=1.0).contains(&share) && low <= share + 1e-12 && share <= high + 1e-12, "{r}");
        }
    }
    // At 64 the longest region, read_mesh, is the whole run and the dominant one.
    let at64 = &v["ranking"][0]["regions"][0];
    assert_eq!((at64["callpath"].as_str(), at64["share"].as_f64()), (Some("main->init->read_mesh"), Some(1.0)));
    assert_eq!(v["dominant"][0]["callpath"], "main->init->read_mesh");
}

/// A region whose model overflows at the point asked for (a power law of exponent 144 through
/// two counts, found by the extrap fuzz target) takes the largest finite time, never
/// infinity (null in the answer); two of them split the run in halves, as two equal times
/// do, rather than each being the largest number over an infinite total (0 %).
#[test]
fn times_past_f64s_range_keep_their_shares() {
    for (name, halves) in
        [("crash-bea6c795122fb68ff32f420b7b1d0e3cef4315e3", false), ("two-overflowing-regions.jsonl", true)]
    {
        let path = format!("{}/fuzz/regressions/extrap/{name}", env!("CARGO_MANIFEST_DIR"));
        let o = common::run(&["bottlenecks", &path, "--predict", "4096", "--compact"], "");
        assert_eq!(o.status, 0, "{}", o.stderr);
        let v: Value = serde_json::from_str(&o.stdout).unwrap();
        let rows = v["ranking"][0]["regions"].as_array().unwrap();
        let total: f64 = rows.iter().map(|r| r["share"].as_f64().unwrap()).sum();
        assert!((total - 1.0).abs() < 1e-12, "{name}: shares add up to {total}");
        assert_eq!(rows[0]["time_s"].as_f64(), Some(f64::MAX), "{name}");
        if halves {
            assert_eq!((rows[0]["share"].as_f64(), rows[1]["share"].as_f64()), (Some(0.5), Some(0.5)), "{name}");
        }
        for r in v["regions"].as_array().unwrap() {
            for p in r["predictions"].as_array().unwrap() {
                assert!(p["time_s"].is_number() && p["time_high_s"].is_number(), "{name}: {p}");
            }
        }
    }
}

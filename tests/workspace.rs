//! Saved workspaces of every format keep opening: what real builds wrote (tests/data/workspace/,
//! by scripts/workspace-fixtures.mjs) is read by this build with every input intact. The
//! expected inputs are read from the fixtures' JSON as plain values, not through the
//! workspace's own reader.

use std::collections::BTreeMap;

use scalewise::model::workspace::records::{self, Meta};
use scalewise::model::workspace::{migrate, Workspace};

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/workspace").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The communication page's inputs that format 2 moved to the "Broadcast across sites" page.
const GRID_INPUTS: [&str; 6] = ["matrix", "symmetrise", "rho", "root", "grid_size", "bandwidth_mb_s"];

/// Every (page, input) → text of a format-1 workspace's JSON, with the moves every later
/// format made (format 2: the Extra-P texts to the bottlenecks page; the latency matrix and
/// grid broadcast to the sites page, with a copy of the latency share both read).
fn expected_from_v1(text: &str) -> BTreeMap<(String, String), String> {
    let v: serde_json::Value = serde_json::from_str(text).expect("the fixture is JSON");
    assert_eq!(v["version"], 1, "a format-1 fixture");
    let mut out = BTreeMap::new();
    for (page, inputs) in v["pages"].as_object().expect("pages") {
        for (name, text) in inputs.as_object().expect("inputs") {
            let text = text.as_str().expect("a text").to_string();
            let page = match (page.as_str(), name.as_str()) {
                ("speedup", n) if n.starts_with("extrap_") => "bottlenecks",
                ("comm", n) if GRID_INPUTS.contains(&n) => "sites",
                ("comm", "latency_share") => {
                    out.insert(("sites".to_string(), name.clone()), text.clone());
                    "comm"
                }
                (p, _) => p,
            };
            out.insert((page.to_string(), name.clone()), text);
        }
    }
    assert!(out.len() > 50, "the fixture holds inputs of every page ({} found)", out.len());
    out
}

fn inputs_of(ws: &Workspace) -> BTreeMap<(String, String), String> {
    ws.pages.iter().flat_map(|(p, i)| i.iter().map(move |(k, v)| ((p.clone(), k.clone()), v.clone()))).collect()
}

/// Every input of `want` is in `got` with its text, and `got` has no other: the inputs that
/// differ are named (the texts are long).
fn same_inputs(got: &BTreeMap<(String, String), String>, want: &BTreeMap<(String, String), String>) {
    let differ: Vec<_> = want.keys().chain(got.keys()).filter(|k| got.get(*k) != want.get(*k)).collect();
    assert!(differ.is_empty(), "inputs lost or changed: {differ:?}");
}

fn catalog_of(text: &str) -> serde_json::Value {
    serde_json::from_str::<serde_json::Value>(text).expect("JSON")["catalog"].clone()
}

/// The keys clusters and fabrics gained after format 1 (a seed, an origin, a price, power,
/// carbon, sources): a saved preset of the papers now says its seed, every other new key
/// holds its default. Returns the catalog without them, to compare with what was saved.
fn without_new_keys(mut catalog: serde_json::Value) -> serde_json::Value {
    let seeds = scalewise::model::catalog::presets();
    for c in catalog["clusters"].as_array_mut().expect("clusters") {
        let o = c.as_object_mut().expect("a cluster");
        let is_seed = seeds.clusters.iter().any(|s| Some(s.id.as_str()) == o["id"].as_str()) && o["preset"] == true;
        assert_eq!(
            o.remove("origin").and_then(|v| v.as_str().map(String::from)).as_deref(),
            Some(if is_seed { "paper" } else { "own" })
        );
        assert_eq!(o.remove("seed").is_some_and(|s| s.is_u64()), is_seed, "{o:?}");
        for k in ["price", "node_power_w", "pue", "carbon_g_per_kwh", "memory_bandwidth_gb_s"] {
            assert_eq!(o.remove(k), Some(serde_json::Value::Null), "{k}");
        }
        assert_eq!(o.remove("sources"), Some(serde_json::json!({})));
    }
    catalog
}

#[test]
fn a_format_1_exported_file_opens_with_every_input() {
    let text = fixture("v1-export.json");
    let ws = Workspace::from_json("imported file", &text).expect("a format-1 file opens");
    assert_eq!(ws.version, migrate::CURRENT);
    same_inputs(&inputs_of(&ws), &expected_from_v1(&text));
    assert_eq!(
        without_new_keys(serde_json::to_value(&ws.catalog).unwrap()),
        catalog_of(&text),
        "the catalog, its edited price included"
    );
    // Written again in the current format, it reads back the same.
    assert_eq!(Workspace::from_json("file", &ws.to_json()).expect("reads back"), ws);
}

#[test]
fn format_1_browser_storage_opens_with_every_input() {
    let storage: BTreeMap<String, String> = serde_json::from_str(&fixture("v1-storage.json")).expect("JSON");
    let v1 = &storage["scalewise.workspace"];
    // The browser's first load: the format-1 text becomes records, then the records are read.
    let (changes, problem) = records::from_v1(v1, &Meta::default());
    assert_eq!(problem, None);
    let saved: Vec<(String, String)> = changes.into_iter().map(|(k, v)| (k, v.expect("a text"))).collect();
    let (ws, meta, problems) = records::read(&saved).expect("the records read");
    assert_eq!((meta.format, problems), (migrate::CURRENT, Vec::<String>::new()));
    same_inputs(&inputs_of(&ws), &expected_from_v1(v1));
    assert_eq!(without_new_keys(serde_json::to_value(&ws.catalog).unwrap()), catalog_of(v1));
    // The theme switch's own key, if the build wrote one, is not the workspace's.
    assert!(storage.keys().all(|k| k == "scalewise.workspace" || k == "scalewise-theme"), "{:?}", storage.keys());
}

#[test]
fn a_file_of_a_newer_format_is_refused_and_says_so() {
    let text = fixture("v1-export.json").replacen("\"version\": 1", "\"version\": 3", 1);
    let e = Workspace::from_json("imported file x.json", &text).expect_err("newer");
    assert_eq!(e.field, "imported file x.json");
    assert!(e.message.contains("written by a newer scalewise (format 3)"), "{e}");
}

//! Golden outputs: what the command answers for the examples and presets of every calculator
//! (and its `--help`), and what every page computes for its presets, compared byte for byte
//! with the files under `tests/golden/`. They pin behaviour while code moves: a difference is
//! either a bug or a change made on purpose, in a commit that says so and rewrites the files
//! with `UPDATE_GOLDEN=1 cargo test --test golden`.

use std::path::PathBuf;

use scalewise::model::workspace::catalog::presets as catalog;
use scalewise::model::workspace::PageInputs;
use scalewise::model::comm::page as comm_page;
use scalewise::model::multigrid::page as multigrid_page;
use scalewise::model::pevpm::page as simulate_page;
use scalewise::model::regions::page as regions_page;
use scalewise::model::speedup::page as speedup_page;

mod common;
use common::run;

fn dir(sub: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(sub)
}

/// Texts above this size are kept as their length, a hash and their first lines (a regions
/// view with its 1,000-point sweeps is 1.8 MB).
const FULL_TEXT_BYTES: usize = 100_000;

/// FNV-1a, 64 bits: enough to tell two long texts apart, with no crate for it.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// What is kept of a text: itself, or for a long one its length, hash and first 200 lines.
fn kept(text: &str) -> String {
    if text.len() <= FULL_TEXT_BYTES {
        return text.to_string();
    }
    let head: Vec<&str> = text.lines().take(200).collect();
    format!("{} bytes, FNV-1a {:016x}; the first 200 lines:\n{}\n", text.len(), fnv(text), head.join("\n"))
}

/// Compares `text` with the golden file `sub/name` (or writes it, with UPDATE_GOLDEN set);
/// returns a line describing a difference.
fn check(sub: &str, name: &str, text: &str) -> Option<String> {
    let kept = kept(text);
    let text = kept.as_str();
    let path = dir(sub).join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(dir(sub)).expect("golden folder");
        std::fs::write(&path, text).expect("golden file written");
        return None;
    }
    match std::fs::read_to_string(&path) {
        Ok(want) if want.as_str() == text => None,
        Ok(want) => {
            let line = want.lines().zip(text.lines()).position(|(a, b)| a != b).map_or(want.lines().count().min(text.lines().count()), |i| i);
            Some(format!("{sub}/{name}: differs from line {} on:\n  golden: {:?}\n  now:    {:?}", line + 1, want.lines().nth(line), text.lines().nth(line)))
        }
        Err(_) => Some(format!("{sub}/{name}: no golden file (run with UPDATE_GOLDEN=1 once)")),
    }
}

fn assert_all(diffs: Vec<String>) {
    assert!(diffs.is_empty(), "{} golden outputs differ:\n{}", diffs.len(), diffs.join("\n"));
}

#[test]
fn command_answers_match_the_golden_files() {
    let cases: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir("cli-cases.json")).expect("cases")).expect("JSON cases");
    let mut diffs = Vec::new();
    let mut helps = std::collections::BTreeSet::new();
    for case in cases.as_array().expect("a list") {
        let name = case["name"].as_str().expect("name");
        let args: Vec<&str> = case["args"].as_array().expect("args").iter().map(|a| a.as_str().expect("arg")).collect();
        let input = match &case["input"] {
            serde_json::Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        let o = run(&args, &input);
        let text = format!("exit {}\n{}{}", o.status, o.stderr, o.stdout);
        diffs.extend(check("cli", &format!("{name}.txt"), &text));
        helps.insert(args[0].to_string());
    }
    for c in helps {
        let o = run(&[&c, "--help"], "");
        diffs.extend(check("cli", &format!("help-{c}.txt"), &o.stdout));
    }
    diffs.extend(check("cli", "help.txt", &run(&["--help"], "").stdout));
    assert_all(diffs);
}

/// Each page's inputs to check: its defaults and every preset, and a few edits that reach the
/// error and stale paths.
fn page_inputs() -> Vec<(String, &'static str, PageInputs)> {
    let mut out: Vec<(String, &'static str, PageInputs)> = Vec::new();
    let edit = |mut i: PageInputs, k: &str, v: &str| {
        i.insert(k.into(), v.into());
        i
    };
    out.push(("multigrid-default".into(), "multigrid", multigrid_page::default_inputs()));
    for (i, p) in multigrid_page::presets().into_iter().enumerate() {
        out.push((format!("multigrid-preset{i}"), "multigrid", p.inputs));
    }
    let mg = multigrid_page::default_inputs();
    out.push(("multigrid-bad-np".into(), "multigrid", edit(mg.clone(), "np", "1")));
    out.push(("multigrid-bad-runs".into(), "multigrid", edit(mg, "cal1_seq", "work (MB)\ttime (s)\n2048\tx")));
    for p in speedup_page::presets() {
        out.push((format!("speedup-{}", p.key), "speedup", p.inputs));
    }
    out.push(("speedup-default".into(), "speedup", speedup_page::default_inputs()));
    out.push(("speedup-bad".into(), "speedup", edit(speedup_page::default_inputs(), "points", "n speedup\n2 x")));
    out.push(("regions-default".into(), "regions", regions_page::default_inputs()));
    for (i, p) in regions_page::presets().into_iter().enumerate() {
        out.push((format!("regions-system{i}"), "regions", p.inputs));
    }
    out.push(("regions-bad".into(), "regions", edit(regions_page::default_inputs(), "alpha", "-1")));
    out.push(("comm-default".into(), "comm", comm_page::default_inputs()));
    for (i, preset) in comm_page::presets().into_iter().enumerate() {
        out.push((format!("comm-preset{i}"), "comm", preset.inputs));
    }
    out.push(("comm-bad".into(), "comm", edit(comm_page::default_inputs(), "p2p", "size time\n8 -1")));
    for e in simulate_page::presets() {
        let mut inputs = e.inputs;
        inputs.insert("replications".into(), "3".into());
        inputs.insert("numprocs".into(), "2 4".into());
        inputs.insert("params".into(), format!("{}\niterations = 10", inputs.get("params").cloned().unwrap_or_default()));
        out.push((format!("simulate-{}", e.key), "simulate", inputs));
    }
    out.push(("simulate-bad".into(), "simulate", edit(simulate_page::default_inputs(), "numprocs", "0 x")));
    out
}

#[test]
fn page_views_match_the_golden_files() {
    let cat = catalog();
    let mut diffs = Vec::new();
    for (name, page, inputs) in page_inputs() {
        let text = match page {
            "multigrid" => format!("{:#?}", multigrid_page::view(&inputs, &cat)),
            "speedup" => format!("{:#?}", speedup_page::view(&inputs, &cat)),
            "regions" => format!("{:#?}", regions_page::view(&inputs, &cat)),
            "comm" => format!("{:#?}", comm_page::view(&inputs, &cat)),
            _ => match simulate_page::prepare(&inputs, &cat) {
                Err(e) => format!("{e:#?}"),
                Ok((job, _)) => {
                    let report = scalewise::model::pevpm::job::Simulation::new(job).and_then(|s| s.run_to_end());
                    match report {
                        Ok(r) => format!("{:#?}", simulate_page::view(&r)),
                        Err(e) => format!("{e:#?}"),
                    }
                }
            },
        };
        diffs.extend(check("pages", &format!("{name}.txt"), &text));
    }
    assert_all(diffs);
}

//! Golden outputs: what the command answers for the examples and presets of every calculator
//! (and its `--help`), and what every page computes for its presets, compared byte for byte
//! with the files under `tests/golden/`. They pin behaviour while code moves: a difference is
//! either a bug or a change made on purpose, in a commit that says so and rewrites the files
//! with `UPDATE_GOLDEN=1 cargo test --test golden`.

use std::path::PathBuf;

use scalewise::model::calculators::Checks;
use scalewise::model::catalog::presets as catalog;
use scalewise::model::contracts::CONTRACTS;
use scalewise::model::workspace::PageInputs;

mod common;
use common::run;

fn dir(sub: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(sub)
}

/// Widest line [`readable`] makes by joining a block (a struct of a few numbers), and by
/// joining a run of values.
const BLOCK_WIDTH: usize = 240;
const RUN_WIDTH: usize = 120;

/// A line that opens a block of `{:#?}` output (`Point {`, `[`, `(`, `Some(`).
fn opens(line: &str) -> bool {
    line.ends_with('{') || line.ends_with('[') || line.ends_with('(')
}

/// A line that closes one (`}`, `],`, `)`).
fn closes(line: &str) -> bool {
    matches!(line.trim().trim_end_matches(','), "}" | "]" | ")")
}

/// `{:#?}` output made short enough to keep whole and still read in a diff: a block whose lines
/// are all single values joins into one line (`Point { n: 2.0, one_region: 1.9, … },`) when
/// that fits in [`BLOCK_WIDTH`], from the innermost out; then a run of short values at one indent
/// (the numbers of a long list) is joined, a few to a line. Every value stays, so every changed
/// number shows in a diff.
fn readable(text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    loop {
        let mut out: Vec<String> = Vec::with_capacity(lines.len());
        let mut changed = false;
        let mut i = 0;
        while i < lines.len() {
            let line = &lines[i];
            if opens(line.trim_end()) {
                // The block's lines up to its close, if none of them opens another.
                let indent = line.len() - line.trim_start().len();
                let mut j = i + 1;
                while j < lines.len() && !opens(lines[j].trim_end()) && !closes(&lines[j]) {
                    j += 1;
                }
                let closed =
                    j < lines.len() && closes(&lines[j]) && lines[j].len() - lines[j].trim_start().len() == indent;
                if closed {
                    let inner: Vec<&str> = lines[i + 1..j].iter().map(|l| l.trim()).collect();
                    let body = inner.join(" ");
                    let body = body.strip_suffix(',').unwrap_or(&body);
                    let (open, close) = (line.trim(), lines[j].trim());
                    let joined = if open.ends_with('{') {
                        format!("{open} {body} {close}")
                    } else {
                        format!("{open}{body}{close}")
                    };
                    if indent + joined.len() <= BLOCK_WIDTH {
                        out.push(format!("{}{joined}", " ".repeat(indent)));
                        i = j + 1;
                        changed = true;
                        continue;
                    }
                }
            }
            out.push(line.clone());
            i += 1;
        }
        lines = out;
        if !changed {
            break;
        }
    }
    // Runs of short values at one indent, a few to a line.
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    for line in lines {
        let short = line.trim().len() <= 40 && !opens(line.trim_end()) && !closes(&line) && !line.trim().contains(": ");
        if let Some(last) = out.last_mut() {
            let same = last.len() - last.trim_start().len() == line.len() - line.trim_start().len();
            let last_short = !opens(last.trim_end()) && !closes(last) && !last.trim().contains(": ");
            if short && same && last_short && last.len() + 1 + line.trim().len() <= RUN_WIDTH {
                last.push(' ');
                last.push_str(line.trim());
                continue;
            }
        }
        out.push(line);
    }
    out.join("\n") + "\n"
}

/// Texts above this size (once [`readable`]) are kept as one file per part of the view, in a
/// folder of the text's name: a regions view with its 1,000-point sweeps is 1.8 MB of
/// `{:#?}`.
const ONE_FILE_BYTES: usize = 200_000;

/// A view's text in parts, for [`ONE_FILE_BYTES`]: (name, text) of each top-level field of
/// the `{:#?}` struct, in order.
fn parts(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let field =
            line.strip_prefix("    ").filter(|l| !l.starts_with(' ')).and_then(|l| l.split_once(':')).map(|(k, _)| k);
        match field {
            Some(k) if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                out.push((k.to_string(), format!("{line}\n")))
            }
            _ => match out.last_mut() {
                Some((_, t)) => {
                    t.push_str(line);
                    t.push('\n');
                }
                None => out.push(("head".into(), format!("{line}\n"))),
            },
        }
    }
    out
}

/// Compares a page view's `{:#?}` text with the golden file `sub/name` (or writes it, with
/// UPDATE_GOLDEN set), made [`readable`]; a long one goes to the folder `sub/name` (its ".txt"
/// off), a file per part. Returns lines describing differences.
fn check_view(sub: &str, name: &str, text: &str) -> Vec<String> {
    let text = readable(text);
    if text.len() <= ONE_FILE_BYTES {
        return check_one(sub, name, &text).into_iter().collect();
    }
    let folder = format!("{sub}/{}", name.trim_end_matches(".txt"));
    let parts = parts(&text);
    let mut diffs: Vec<String> =
        parts.iter().enumerate().filter_map(|(i, (k, t))| check_one(&folder, &format!("{i:02}-{k}.txt"), t)).collect();
    // A part that is no longer there.
    let names: Vec<String> = parts.iter().enumerate().map(|(i, (k, _))| format!("{i:02}-{k}.txt")).collect();
    if let Ok(entries) = std::fs::read_dir(dir(&folder)) {
        for e in entries.flatten() {
            let f = e.file_name().to_string_lossy().into_owned();
            if !names.contains(&f) {
                if std::env::var_os("UPDATE_GOLDEN").is_some() {
                    let _ = std::fs::remove_file(e.path());
                } else {
                    diffs.push(format!("{folder}/{f}: no longer made"));
                }
            }
        }
    }
    diffs
}

/// Compares `text` with the golden file `sub/name` (or writes it, with UPDATE_GOLDEN set);
/// returns a line describing a difference.
fn check_one(sub: &str, name: &str, text: &str) -> Option<String> {
    let path = dir(sub).join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(dir(sub)).expect("golden folder");
        std::fs::write(&path, text).expect("golden file written");
        return None;
    }
    match std::fs::read_to_string(&path) {
        Ok(want) if want.as_str() == text => None,
        Ok(want) => {
            let line = want
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .map_or(want.lines().count().min(text.lines().count()), |i| i);
            Some(format!(
                "{sub}/{name}: differs from line {} on:\n  golden: {:?}\n  now:    {:?}",
                line + 1,
                want.lines().nth(line),
                text.lines().nth(line)
            ))
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
        helps.insert(args[0].to_string());
        // A case whose answer is data (`catalog`: data/machines.json, where a price changes in
        // one line) is checked against the schema (tests/schema.rs), not kept as a golden file.
        if case["golden"] == false {
            continue;
        }
        let input = match &case["input"] {
            serde_json::Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        let o = run(&args, &input);
        let text = format!("exit {}\n{}{}", o.status, o.stderr, o.stdout);
        diffs.extend(check_one("cli", &format!("{name}.txt"), &text));
        helps.insert(args[0].to_string());
    }
    for c in helps {
        let o = run(&[&c, "--help"], "");
        diffs.extend(check_one("cli", &format!("help-{c}.txt"), &o.stdout));
    }
    diffs.extend(check_one("cli", "help.txt", &run(&["--help"], "").stdout));
    assert_all(diffs);
}

/// Each page's inputs to check: every calculator's examples (its defaults and presets, from
/// the table of calculators), and a few edits that reach the error and stale paths.
fn page_inputs() -> Vec<(String, &'static Checks, PageInputs)> {
    let mut out: Vec<(String, &'static Checks, PageInputs)> = Vec::new();
    for c in CONTRACTS {
        for (name, inputs) in (c.examples)() {
            out.push((format!("{}-{name}", c.calculator.key), c, inputs));
        }
    }
    let edits = [
        ("multigrid", "bad-np", "np", "1"),
        ("multigrid", "bad-runs", "cal1_seq", "work (MB)\ttime (s)\n2048\tx"),
        ("speedup", "bad", "points", "n speedup\n2 x"),
        ("regions", "bad", "alpha", "-1"),
        ("comm", "bad", "p2p", "size time\n8 -1"),
        ("simulate", "bad", "numprocs", "0 x"),
        ("sites", "bad", "rho", "x"),
        ("bottlenecks", "bad", "extrap_text", "PARAMETER p\nPOINTS 1 2\nREGION main\nDATA 1\nDATA x\n"),
    ];
    for (key, name, field, text) in edits {
        let c = CONTRACTS.iter().find(|c| c.calculator.key == key).expect("a calculator of the table");
        let mut inputs = (c.default_inputs)();
        inputs.insert(field.into(), text.into());
        out.push((format!("{key}-{name}"), c, inputs));
    }
    out
}

#[test]
fn page_views_match_the_golden_files() {
    let cat = catalog();
    let mut diffs = Vec::new();
    let mut made = Vec::new();
    for (name, c, inputs) in page_inputs() {
        diffs.extend(check_view("pages", &format!("{name}.txt"), &(c.results)(&inputs, &cat)));
        made.push(name);
    }
    // A file or folder no case makes any more.
    for e in std::fs::read_dir(dir("pages")).expect("tests/golden/pages").flatten() {
        let f = e.file_name().to_string_lossy().into_owned();
        if !made.iter().any(|m| *m == f.trim_end_matches(".txt")) {
            if std::env::var_os("UPDATE_GOLDEN").is_some() {
                let _ = std::fs::remove_dir_all(e.path()).or_else(|_| std::fs::remove_file(e.path()));
            } else {
                diffs.push(format!("pages/{f}: no longer made"));
            }
        }
    }
    assert_all(diffs);
}

//! The import graph of `src/`, read from the code's own paths (`use crate::…`, `super::…`,
//! `scalewise::…` in `src/bin`), tests left out: no two files import each other through a
//! loop (a file cycle; a folder's `mod.rs`, which hands its files' names on, is left out of
//! it), and no two of `src/model`'s parts (its folders and top-level files) import each
//! other through a loop. The loops that stand today are listed in [`KNOWN`]; a new one fails,
//! and a listed one that is gone fails too, so the list only shrinks.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Loops that stand today, each as its files (or `src/model` parts) in order of their names.
const KNOWN: &[&[&str]] = &[];

/// Every `.rs` file under `dir`, but tests.
fn files(dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = fs::read_dir(dir).expect("a folder").map(|e| e.expect("an entry").path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
        if p.is_dir() {
            if name != "tests" {
                files(&p, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(p.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// A file's module path from the crate's root (`["model", "speedup", "forecast"]`).
fn module_of(file: &str) -> Vec<String> {
    let rest = file.strip_prefix("src/").unwrap_or(file).strip_suffix(".rs").unwrap_or(file);
    let mut parts: Vec<String> = rest.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The code of a file without comments, strings and characters, and without its
/// `#[cfg(test)]` module.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    let b = text.as_bytes();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
        } else if rest.starts_with("r#\"") || rest.starts_with("r\"") || rest.starts_with("br\"") {
            let open = rest.find('"').unwrap_or(0);
            let hashes = &rest[rest.find('r').unwrap_or(0) + 1..open];
            let close = format!("\"{hashes}");
            i += open + 1 + rest[open + 1..].find(&close).map_or(rest.len() - open - 1, |e| e + close.len());
            out.push(' ');
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            out.push(' ');
        } else if b[i] == b'\'' && (rest[1..].starts_with('\\') || rest[1..].chars().nth(1) == Some('\'')) {
            // A character ('x', '\n', '\''), not a lifetime.
            let skip = if rest[1..].starts_with('\\') {
                rest[3..].find('\'').map_or(2, |e| e + 4)
            } else {
                1 + rest[1..].chars().next().map_or(1, char::len_utf8) + 1
            };
            i += skip;
            out.push(' ');
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The paths written from `at` on: `a::b::{c, d::e}` gives [a b c], [a b d e].
fn paths_at(s: &[u8], mut at: usize) -> Vec<Vec<String>> {
    let mut prefix: Vec<String> = Vec::new();
    loop {
        while at < s.len() && s[at].is_ascii_whitespace() {
            at += 1;
        }
        if at < s.len() && s[at] == b'{' {
            // A group: each of its items after the prefix.
            let mut depth = 0;
            let mut start = at + 1;
            let mut out = Vec::new();
            let mut j = at;
            while j < s.len() {
                match s[j] {
                    b'{' => depth += 1,
                    b'}' | b',' if depth == 1 => {
                        for p in paths_at(&s[..j], start) {
                            out.push(prefix.iter().cloned().chain(p).collect());
                        }
                        start = j + 1;
                        if s[j] == b'}' {
                            break;
                        }
                    }
                    b'}' => depth -= 1,
                    _ => {}
                }
                j += 1;
            }
            return out;
        }
        let start = at;
        while at < s.len() && (s[at].is_ascii_alphanumeric() || s[at] == b'_') {
            at += 1;
        }
        if at == start {
            return vec![prefix];
        }
        prefix.push(String::from_utf8_lossy(&s[start..at]).into_owned());
        if s[at..].starts_with(b"::") {
            at += 2;
        } else {
            return vec![prefix];
        }
    }
}

/// The files `file` imports (its own module's file left out).
fn imports(file: &str, text: &str, modules: &BTreeMap<Vec<String>, String>) -> BTreeSet<String> {
    let here = module_of(file);
    let binary = file.starts_with("src/bin/") || file == "src/main.rs";
    let code = code(text);
    let s = code.as_bytes();
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("::") {
        // The path's first segment, just before this "::".
        let mut start = i;
        while start > 0 && (s[start - 1].is_ascii_alphanumeric() || s[start - 1] == b'_') {
            start -= 1;
        }
        if start > 0 && (s[start - 1] == b':' || s[start - 1].is_ascii_alphanumeric()) {
            continue;
        }
        let first = &code[start..i];
        let mut module: Vec<String> = match first {
            "crate" if !binary => Vec::new(),
            "scalewise" if binary => Vec::new(),
            "super" | "self" if !binary => here.clone(),
            _ => continue,
        };
        if first == "super" {
            module.pop();
        }
        for path in paths_at(s, start) {
            let mut m = module.clone();
            for seg in path.iter().skip(1) {
                match seg.as_str() {
                    "super" => {
                        m.pop();
                    }
                    "self" => {}
                    name => {
                        let mut next = m.clone();
                        next.push(name.to_string());
                        if modules.contains_key(&next) {
                            m = next;
                        } else {
                            break;
                        }
                    }
                }
            }
            if let Some(f) = modules.get(&m) {
                if f != file {
                    out.insert(f.clone());
                }
            }
        }
    }
    out
}

/// The strongly connected parts of more than one node (Tarjan), each sorted.
fn loops(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(v: &'a str, st: &mut State<'a>) {
        let n = st.index.len();
        st.index.insert(v, n);
        st.low.insert(v, n);
        st.stack.push(v);
        st.on.insert(v);
        for w in st.graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !st.index.contains_key(w) {
                visit(w, st);
                let l = st.low[w].min(st.low[v]);
                st.low.insert(v, l);
            } else if st.on.contains(w) {
                let l = st.index[w].min(st.low[v]);
                st.low.insert(v, l);
            }
        }
        if st.low[v] == st.index[v] {
            let mut part = Vec::new();
            while let Some(w) = st.stack.pop() {
                st.on.remove(w);
                part.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if part.len() > 1 {
                part.sort();
                st.out.push(part);
            }
        }
    }
    let mut st = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !st.index.contains_key(v.as_str()) {
            visit(v, &mut st);
        }
    }
    st.out.sort();
    st.out
}

/// The file graph of `src/`.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut all = Vec::new();
    files(Path::new("src"), &mut all);
    let modules: BTreeMap<Vec<String>, String> = all
        .iter()
        .filter(|f| !f.starts_with("src/bin/") && f.as_str() != "src/main.rs")
        .map(|f| (module_of(f), f.clone()))
        .collect();
    all.iter().map(|f| (f.clone(), imports(f, &fs::read_to_string(f).expect("a source file"), &modules))).collect()
}

/// A folder's `mod.rs` (and the crate's `lib.rs`) hands names on: left out of file loops.
fn is_face(f: &str) -> bool {
    f.ends_with("/mod.rs") || f == "src/lib.rs"
}

/// The part of `src/model` a file is in: its folder there, or itself.
fn model_part(f: &str) -> Option<String> {
    let rest = f.strip_prefix("src/model/")?;
    Some(match rest.split_once('/') {
        Some((folder, _)) => format!("src/model/{folder}/"),
        None if rest == "mod.rs" => return None,
        None => f.to_string(),
    })
}

#[test]
fn the_import_graph_has_no_new_loop_and_the_known_ones_only_go() {
    let g = graph();
    // The reader finds what it must: a path in a group, one through super, one of a binary.
    assert!(
        g["src/model/fit/forecast.rs"].contains("src/model/fit/calibration.rs"),
        "{:?}",
        g["src/model/fit/forecast.rs"]
    );
    assert!(g["src/model/fit/calibration.rs"].contains("src/model/fit/quantiles.rs"));
    assert!(g["src/bin/sw-speedup.rs"].iter().any(|f| f.starts_with("src/ui/")), "{:?}", g["src/bin/sw-speedup.rs"]);
    let files: BTreeMap<String, BTreeSet<String>> = g
        .iter()
        .filter(|(f, _)| !is_face(f))
        .map(|(f, to)| (f.clone(), to.iter().filter(|t| !is_face(t)).cloned().collect()))
        .collect();
    let mut parts: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (f, to) in &g {
        let Some(from) = model_part(f) else { continue };
        let entry = parts.entry(from.clone()).or_default();
        entry.extend(to.iter().filter_map(|t| model_part(t)).filter(|t| *t != from));
    }
    let mut found = loops(&files);
    found.extend(loops(&parts));
    found.sort();
    let known: Vec<Vec<String>> = KNOWN.iter().map(|l| l.iter().map(|s| s.to_string()).collect()).collect();
    let new: Vec<&Vec<String>> = found.iter().filter(|l| !known.contains(l)).collect();
    let gone: Vec<&Vec<String>> = known.iter().filter(|l| !found.contains(l)).collect();
    assert!(new.is_empty(), "import loops not known before (break them, never list them): {new:#?}");
    assert!(gone.is_empty(), "known loops that are gone: take them out of KNOWN: {gone:#?}");
}

/// The calculators' keys, read from the table of calculators (`key: "…"`).
fn calculator_keys() -> Vec<String> {
    let table = fs::read_to_string("src/model/calculators.rs").expect("the table of calculators");
    table.split("key: \"").skip(1).filter_map(|rest| rest.split_once('"').map(|(k, _)| k.to_string())).collect()
}

#[test]
fn the_fitting_engine_imports_no_calculator() {
    let keys = calculator_keys();
    assert!(keys.len() >= 7 && keys.iter().any(|k| k == "bottlenecks"), "{keys:?}");
    let g = graph();
    let mut wrong: Vec<(String, String)> = Vec::new();
    for (f, to) in g.iter().filter(|(f, _)| f.starts_with("src/model/fit/")) {
        for t in to {
            let part = model_part(t).unwrap_or_default();
            let folder = part.strip_prefix("src/model/").unwrap_or("").trim_end_matches('/');
            if keys.iter().any(|k| k == folder) || part == "src/model/calculators.rs" || part == "src/model/workspace/"
            {
                wrong.push((f.clone(), t.clone()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "src/model/fit/ is the engine the calculators share and imports none of them: {wrong:#?}"
    );
    // The calculators that fit with it do import it.
    for user in ["src/model/speedup/weak.rs", "src/model/bottlenecks/ranking.rs"] {
        assert!(g[user].iter().any(|t| t.starts_with("src/model/fit/")), "{user}: {:?}", g[user]);
    }
}

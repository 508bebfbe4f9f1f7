//! ARCHITECTURE.md's code map against the tree: every `.rs` file under `src/` is named in it,
//! and every `.rs` path it names exists.
//!
//! How the code map names a file: a bullet whose text starts with a folder (`` `input/` ``)
//! is that folder, inside the folder of the bullet it is nested in (the repository's root for
//! a top-level bullet); any other bullet stays in its parent's folder. Every `` `….rs` `` in a
//! bullet (continuation lines included) is a path from the bullet's folder, or from the
//! repository's root when it starts with one of [`ROOTS`]. `<name>` and `*` stand for any
//! part of a file name, `{a,b}` for either; a name with a `<name>` may match no file yet
//! (it says where such files go).

use std::fs;
use std::path::Path;

/// The repository's top-level folders: a path starting with one of them is from the root.
const ROOTS: &[&str] = &["src/", "tests/", "examples/", "scripts/", "static/", "fuzz/"];

/// The `.rs` paths the code map names, each from the repository's root (perhaps a pattern).
fn named_paths(doc: &str) -> Vec<String> {
    let section = doc.split("\n## Code map\n").nth(1).expect("ARCHITECTURE.md has a \"## Code map\" section");
    let section = section.split("\n## ").next().unwrap_or(section);
    // Bullets and paragraphs, each with its continuation lines: (indent, is a bullet, text).
    let mut blocks: Vec<(usize, bool, String)> = Vec::new();
    for line in section.lines().filter(|l| !l.trim().is_empty()) {
        let indent = line.len() - line.trim_start().len();
        let text = line.trim_start();
        match text.strip_prefix("- ") {
            Some(bullet) => blocks.push((indent, true, bullet.to_string())),
            None => match blocks.last_mut() {
                Some(last) if indent > 0 => {
                    last.2.push(' ');
                    last.2.push_str(text);
                }
                _ => blocks.push((indent, false, text.to_string())),
            },
        }
    }
    // The open bullets, outermost first: (indent, folder).
    let mut open: Vec<(usize, String)> = Vec::new();
    let mut out = Vec::new();
    for (indent, is_bullet, text) in blocks {
        while open.last().is_some_and(|&(i, _)| i >= indent) {
            open.pop();
        }
        let parent = open.last().map_or(String::new(), |(_, f)| f.clone());
        let folder = match code_spans(&text).first() {
            Some(head) if is_bullet && text.starts_with('`') && head.ends_with('/') && is_path(head) => {
                resolve(head, &parent)
            }
            _ => parent,
        };
        out.extend(
            code_spans(&text).into_iter().filter(|s| s.ends_with(".rs") && is_path(s)).map(|s| resolve(s, &folder)),
        );
        if is_bullet {
            open.push((indent, folder));
        }
    }
    out
}

/// The text between backticks.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

fn is_path(s: &str) -> bool {
    !s.is_empty() && !s.contains(char::is_whitespace) && !s.contains("::")
}

fn resolve(path: &str, folder: &str) -> String {
    if ROOTS.iter().any(|r| path.starts_with(r)) {
        path.to_string()
    } else {
        format!("{folder}{path}")
    }
}

/// `{a,b}` expanded (one pair of braces at most).
fn expand(pattern: &str) -> Vec<String> {
    match (pattern.find('{'), pattern.find('}')) {
        (Some(open), Some(close)) if open < close => pattern[open + 1..close]
            .split(',')
            .map(|alt| format!("{}{alt}{}", &pattern[..open], &pattern[close + 1..]))
            .collect(),
        _ => vec![pattern.to_string()],
    }
}

/// Whether `path` matches `pattern`, where `<name>` and `*` match any characters but `/`.
fn matches(pattern: &str, path: &str) -> bool {
    let mut plain = String::new();
    let mut in_name = false;
    for c in pattern.chars() {
        match c {
            '<' => in_name = true,
            '>' if in_name => {
                in_name = false;
                plain.push('*');
            }
            _ if in_name => {}
            c => plain.push(c),
        }
    }
    expand(&plain).iter().any(|p| wildcard(p.as_bytes(), path.as_bytes()))
}

fn wildcard(p: &[u8], s: &[u8]) -> bool {
    match p.split_first() {
        None => s.is_empty(),
        Some((b'*', rest)) => {
            (0..=s.len()).take_while(|&i| i == 0 || s[i - 1] != b'/').any(|i| wildcard(rest, &s[i..]))
        }
        Some((c, rest)) => s.first() == Some(c) && wildcard(rest, &s[1..]),
    }
}

/// Every `.rs` file under `dir`, from the repository's root.
fn rust_files(root: &Path, dir: &str, out: &mut Vec<String>) {
    for entry in fs::read_dir(root.join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}")) {
        let entry = entry.unwrap();
        let name = format!("{dir}/{}", entry.file_name().to_string_lossy());
        if entry.file_type().unwrap().is_dir() {
            // Build output (fuzz/target) holds no sources.
            if entry.file_name() != "target" {
                rust_files(root, &name, out);
            }
        } else if name.ends_with(".rs") {
            out.push(name);
        }
    }
}

#[test]
fn the_code_map_names_every_source_file_and_only_files_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let named = named_paths(&doc);
    let mut files = Vec::new();
    for dir in ["src", "tests", "examples", "fuzz"] {
        if root.join(dir).is_dir() {
            rust_files(root, dir, &mut files);
        }
    }
    files.sort();
    let missing: Vec<&String> =
        files.iter().filter(|f| f.starts_with("src/") && !named.iter().any(|n| matches(n, f))).collect();
    // A name with a `<placeholder>` says where such files go (`formats/<name>.rs`), and may
    // name none yet.
    let dangling: Vec<&String> =
        named.iter().filter(|n| !n.contains('<') && !files.iter().any(|f| matches(n, f))).collect();
    assert!(
        missing.is_empty() && dangling.is_empty(),
        "ARCHITECTURE.md's code map (see tests/architecture.rs for how it names files)\n\
         does not name: {missing:#?}\nnames files that do not exist: {dangling:#?}"
    );
}

#[test]
fn paths_resolve_by_the_bullets_folders() {
    let doc = "# A\n\n## Code map\n\nSee `tests/z.rs`.\n\n- `src/main.rs` — x; `src/bin/sw-<key>.rs` y.\n- `src/model/` — core.\n  - `a.rs` — `b.rs`, `split\n    across.rs`,\n    `c/d.rs`, `tests/e.rs`, `model::x`, `not a.rs`.\n  - `input/` — `table.rs`.\n    - `deep/` — `x.rs`.\n  - `f.rs`.\n- `tests/` — `cli*.rs`, `bench_{a,b}.rs`.\n\n## Next\n\n- `src/other.rs`\n";
    assert_eq!(
        named_paths(doc),
        [
            "tests/z.rs",
            "src/main.rs",
            "src/bin/sw-<key>.rs",
            "src/model/a.rs",
            "src/model/b.rs",
            "src/model/c/d.rs",
            "tests/e.rs",
            "src/model/input/table.rs",
            "src/model/input/deep/x.rs",
            "src/model/f.rs",
            "tests/cli*.rs",
            "tests/bench_{a,b}.rs",
        ]
    );
    assert!(matches("src/bin/sw-<key>.rs", "src/bin/sw-comm.rs"));
    assert!(!matches("src/bin/sw-<key>.rs", "src/bin/x/sw-comm.rs"));
    assert!(matches("tests/bench_{a,b}.rs", "tests/bench_b.rs"));
    assert!(!matches("tests/bench_{a,b}.rs", "tests/bench_c.rs"));
    assert!(matches("tests/cli*.rs", "tests/cli.rs") && matches("tests/cli*.rs", "tests/cli_comm.rs"));
}

/// What each file of the bottom layer may name of the model (outside its tests): the table of
/// calculators stands on what a page's inputs are and the catalog, and these on nothing of the
/// model but its error type; the workspace's format upgrades name no page. Every page model
/// names its key from the table, so a page named here would close a cycle (issue 46).
const BOTTOM: &[(&str, &[&str])] = &[
    ("src/model/calculators.rs", &["crate::model::input::page", "crate::model::catalog", "crate::model::calculators"]),
    ("src/model/input/page.rs", &["crate::model::InputError"]),
    ("src/model/catalog.rs", &["crate::model::InputError"]),
    ("src/model/workspace/migrate.rs", &["crate::model::InputError"]),
];

#[test]
fn the_table_of_calculators_and_what_it_stands_on_name_no_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (file, allowed) in BOTTOM {
        let text = fs::read_to_string(root.join(file)).expect(file);
        let code = text.split("#[cfg(test)]").next().unwrap_or(&text);
        let mut named: Vec<&str> = Vec::new();
        for (at, _) in code.match_indices("crate::model::") {
            let rest = &code[at..];
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
            named.push(rest[..end].trim_end_matches(':'));
        }
        for path in named {
            assert!(
                allowed.iter().any(|a| path == "crate::model" || path.starts_with(a)),
                "{file} names {path}, above it (allowed: {allowed:?})"
            );
        }
        // Nothing through `super` but its own folder's bottom files and the workspace's types.
        assert!(!code.contains("super::super"), "{file}");
    }
    // The contracts, which name every page model, are above them, in their own file.
    let table = fs::read_to_string(root.join("src/model/calculators.rs")).expect("table");
    assert!(!table.contains("Checks::of::<crate::model::"), "the contracts list is in model/contracts.rs");
}

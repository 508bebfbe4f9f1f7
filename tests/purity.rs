//! The model is the pure core: it must not import UI crates, run threads nor do I/O. This test reads
//! every file under src/model and fails on the first forbidden use it finds.

use std::path::Path;

const FORBIDDEN: &[&str] = &[
    "yew",
    "web_sys",
    "gloo",
    "plotters",
    "wasm_bindgen",
    "js_sys",
    "std::fs",
    "std::net",
    "std::process",
    "std::io::stdin",
    "std::io::stdout",
    "println!",
    "eprintln!",
    "print!(",
    "std::env",
    "std::thread",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn model_imports_no_ui_crate_and_does_no_io() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/model"), &mut files);
    assert!(files.len() >= 4, "src/model looks empty: {files:?}");
    let mut hits = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in FORBIDDEN {
                let found = code.match_indices(word).any(|(pos, _)| {
                    // A whole path segment: not part of a longer identifier.
                    let before = code[..pos].chars().next_back();
                    !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                });
                if found {
                    hits.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(hits.is_empty(), "src/model must stay pure:\n{}", hits.join("\n"));
}

/// proptest keeps the failures it found under `proptest-regressions/`, one file per source file
/// (`src/model/x/tests.rs` → `proptest-regressions/model/x/tests.txt`), and replays them only
/// while that source file exists and holds the properties: a file left behind by a move stops
/// replaying without a word. Each must name a source file with a `proptest!` block.
#[test]
fn every_proptest_regression_file_replays() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    fn txt(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                txt(&p, out);
            } else if p.extension().is_some_and(|x| x == "txt") {
                out.push(p);
            }
        }
    }
    txt(&root.join("proptest-regressions"), &mut files);
    assert!(!files.is_empty(), "no proptest regression files found");
    let orphans: Vec<String> = files
        .iter()
        .filter(|f| {
            let rel = f.strip_prefix(root.join("proptest-regressions")).unwrap_or(f);
            let source = root.join("src").join(rel).with_extension("rs");
            !std::fs::read_to_string(&source).is_ok_and(|s| s.contains("proptest!"))
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        orphans.is_empty(),
        "regression files that match no source file with properties (move their `cc` lines): {orphans:?}"
    );
}

//! The docs against the tree (issue 62, "Docs that stay true"): README.md, ARCHITECTURE.md,
//! CONTRIBUTING.md and docs/*.md.
//!
//! - README.md is at most 15,000 bytes and ARCHITECTURE.md at most 20,000;
//! - every repository path they name exists: a link target, or a code span that starts with a
//!   top-level folder ([`ROOTS`]), or has a folder and ends in a file type of the repository
//!   ([`EXTENSIONS`]), or is a bare `.md` or `.html` name (`*` matches any part of a name);
//! - `docs/cli.md`'s table of subcommands has one row for each subcommand `scalewise --help`
//!   lists, and no other;
//! - every `make TARGET` they mention is a target of the Makefile;
//! - every Rust path in a code span (`runs::LIMITS`, `model::workspace::migrate`) names an item
//!   defined in `src/` and mentioned by a file of that module (its definition or its
//!   re-export); a bare constant (`MAX_PAIRS`) takes the module of the path before it on its
//!   line; in a table row of docs/limits.md, a constant whose value is a plain number is that
//!   number in the row (`4_096` as 4096 or 4,096, `64 << 20` as 64 MB);
//! - no date in the docs but the one of README's measured set-up time (dates belong in
//!   generated files such as VALIDATION.md);
//! - no list of speed-up models or broadcast algorithms, in the docs, VALIDATION.md or `src/`,
//!   names some and not all (the closed lists are made from their definitions), and the
//!   definitions' own `//!` describe every member;
//! - `scalewise bottlenecks --help` names every input format.
//!
//! Code spans are read outside fenced code blocks; indented code blocks are not read for paths.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A code span starting with one of these is a path from the repository's root.
const ROOTS: &[&str] =
    &["src/", "tests/", "scripts/", "data/", "docs/", "validation/", "schema/", "static/", "fuzz/", "examples/"];

/// A code span with a `/` ending in one of these is a path from the repository's root. Bare
/// `.json` and `.csv` names are not read: they name files a user makes (`speedup.schema.json`)
/// or the site serves (`machines.json`).
const EXTENSIONS: &[&str] = &[".md", ".rs", ".py", ".mjs", ".json", ".csv", ".html", ".toml", ".sh"];

/// The docs this test reads: README.md, ARCHITECTURE.md, CONTRIBUTING.md and every docs/*.md, as
/// (path from the root, text).
fn docs() -> Vec<(String, String)> {
    let mut out = vec![
        ("README.md".to_string(), read("README.md")),
        ("ARCHITECTURE.md".to_string(), architecture()),
        ("CONTRIBUTING.md".to_string(), read("CONTRIBUTING.md")),
    ];
    let mut names: Vec<String> = fs::read_dir(Path::new(ROOT).join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("docs/ is readable").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .collect();
    names.sort();
    out.extend(names.into_iter().map(|n| {
        let path = format!("docs/{n}");
        let text = read(&path);
        (path, text)
    }));
    out
}

/// ARCHITECTURE.md with its code map's lines left empty (so line numbers hold): the code map
/// names files from its bullets' folders, and `tests/architecture.rs` checks it.
fn architecture() -> String {
    let text = read("ARCHITECTURE.md");
    let mut in_map = false;
    let lines: Vec<&str> = text
        .lines()
        .map(|l| {
            if l.starts_with("## ") {
                in_map = l == "## Code map";
            }
            if in_map {
                ""
            } else {
                l
            }
        })
        .collect();
    lines.join("\n")
}

fn read(path: &str) -> String {
    fs::read_to_string(Path::new(ROOT).join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The text outside code blocks, line by line: a line of a fenced block, or indented by four
/// spaces (and not a nested bullet), is left empty, so line numbers hold.
fn prose(text: &str) -> Vec<String> {
    let mut fenced = false;
    text.lines()
        .map(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
                return String::new();
            }
            let indented = l.starts_with("    ") && !l.trim_start().starts_with("- ");
            if fenced || indented {
                String::new()
            } else {
                l.to_string()
            }
        })
        .collect()
}

/// The code spans of one line.
fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// The targets of a line's Markdown links, `[text](target)`.
fn link_targets(line: &str) -> Vec<&str> {
    line.match_indices("](").filter_map(|(i, _)| line[i + 2..].split(')').next()).collect()
}

/// Whether a repository path (perhaps with `*`) exists.
fn exists(path: &str) -> bool {
    let path = path.trim_end_matches('/');
    if !path.contains('*') {
        return Path::new(ROOT).join(path).exists();
    }
    let (dir, pattern) = path.rsplit_once('/').unwrap_or(("", path));
    let (head, tail) = pattern.split_once('*').expect("a pattern has a '*'");
    fs::read_dir(Path::new(ROOT).join(dir)).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.len() >= head.len() + tail.len() && name.starts_with(head) && name.ends_with(tail)
        })
    })
}

/// The repository paths one doc names that do not exist: "doc:line: path".
fn missing_paths(doc: &str, text: &str) -> Vec<String> {
    let folder = Path::new(doc).parent().map_or(String::new(), |p| p.to_string_lossy().into_owned());
    let mut missing = Vec::new();
    for (i, line) in prose(text).iter().enumerate() {
        for target in link_targets(line) {
            let target = target.split(['#', '?']).next().unwrap_or("");
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let joined = normalise(&Path::new(&folder).join(target));
            if !exists(&joined) {
                missing.push(format!("{doc}:{}: link to {target} ({joined} is not there)", i + 1));
            }
        }
        // A span with spaces (a command line) is read word by word, for its paths.
        let words = code_spans(line).into_iter().flat_map(|s| {
            let several = s.contains(char::is_whitespace);
            s.split_whitespace().map(move |w| (w, several))
        });
        for (span, in_command) in words {
            let path = span.split(['#', '?']).next().unwrap_or("");
            if in_command && !path.contains('/') {
                continue; // a command's bare words are its arguments, not the repository's files
            }
            if path.is_empty() || path.contains("::") || path.contains("://") {
                continue;
            }
            if path.starts_with("../") || path.starts_with('~') || path.contains(['<', '{', '$']) {
                continue; // outside the repository, or a placeholder
            }
            let rooted = ROOTS.iter().any(|r| path.starts_with(r));
            let filed = path.contains('/') && EXTENSIONS.iter().any(|e| path.ends_with(e));
            let bare = !path.contains('/') && (path.ends_with(".md") || path.ends_with(".html"));
            if bare {
                let here = normalise(&Path::new(&folder).join(path));
                if !exists(path) && !exists(&here) {
                    missing.push(format!("{doc}:{}: `{span}` is neither {path} nor {here}", i + 1));
                }
            } else if (rooted || filed) && !exists(path) {
                missing.push(format!("{doc}:{}: `{span}` is not there", i + 1));
            }
        }
    }
    missing
}

/// `docs/../README.md` → `README.md`.
fn normalise(path: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in path.components() {
        match c.as_os_str().to_string_lossy().as_ref() {
            "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part.to_string()),
        }
    }
    parts.join("/")
}

#[test]
fn readme_is_at_most_15_kb() {
    let len = read("README.md").len();
    assert!(len <= 15_000, "README.md is {len} bytes, over 15,000: move reference text into docs/");
}

#[test]
fn architecture_is_at_most_20_kb() {
    let len = read("ARCHITECTURE.md").len();
    assert!(len <= 20_000, "ARCHITECTURE.md is {len} bytes, over 20,000");
}

#[test]
fn every_path_the_docs_name_exists() {
    let missing: Vec<String> = docs().iter().flat_map(|(doc, text)| missing_paths(doc, text)).collect();
    assert!(missing.is_empty(), "paths named in the docs that are not in the repository:\n{}", missing.join("\n"));
}

/// The subcommands `scalewise --help` lists: the first word of each entry (a line indented by
/// four spaces) under its CALCULATORS, CHECKS and CONTRACT headings.
fn help_subcommands() -> BTreeSet<String> {
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_scalewise")).arg("--help").output().expect("scalewise runs");
    assert!(out.status.success(), "scalewise --help failed: {}", String::from_utf8_lossy(&out.stderr));
    let help = String::from_utf8(out.stdout).expect("the help is UTF-8");
    let listing = help.split("\nCALCULATORS:\n").nth(1).expect("scalewise --help has a CALCULATORS: heading");
    let names: BTreeSet<String> = listing
        .lines()
        .filter(|l| l.starts_with("    ") && !l.starts_with("     "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        .map(str::to_string)
        .collect();
    for expected in ["catalog", "speedup", "validate", "schema"] {
        assert!(names.contains(expected), "no `{expected}` read from scalewise --help:\n{help}");
    }
    names
}

/// The first code span of each row of docs/cli.md's table under "## Subcommands".
fn documented_subcommands() -> BTreeSet<String> {
    let doc = read("docs/cli.md");
    let section = doc.split("\n## Subcommands\n").nth(1).expect("docs/cli.md has a \"## Subcommands\" section");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| code_spans(l.split('|').nth(1).unwrap_or("")).first().map(|s| s.to_string()))
        .collect()
}

#[test]
fn docs_cli_has_a_row_for_every_subcommand_and_no_other() {
    let listed = help_subcommands();
    let documented = documented_subcommands();
    let undocumented: Vec<&String> = listed.difference(&documented).collect();
    let unknown: Vec<&String> = documented.difference(&listed).collect();
    assert!(
        undocumented.is_empty() && unknown.is_empty(),
        "subcommands of scalewise --help with no row in docs/cli.md: {undocumented:?}; \
         rows of docs/cli.md naming no subcommand of scalewise --help: {unknown:?}"
    );
}

/// The Makefile's targets: every `name:` at the start of a line that is not a variable.
fn make_targets() -> BTreeSet<String> {
    read("Makefile")
        .lines()
        .filter(|l| !l.starts_with(['\t', '#', '.', ' ']) && !l.contains(":=") && !l.contains("?="))
        .filter_map(|l| l.split_once(':').map(|(t, _)| t.trim().to_string()))
        .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .collect()
}

#[test]
fn every_make_target_the_docs_mention_exists() {
    let targets = make_targets();
    assert!(targets.contains("test") && targets.contains("serve"), "read no test or serve target from the Makefile");
    let mut missing = Vec::new();
    for (doc, text) in docs() {
        for (i, line) in text.lines().enumerate() {
            // `make TARGET` in a code span, or a code block's line starting with it.
            let mut commands: Vec<&str> = code_spans(line).into_iter().filter(|s| s.starts_with("make ")).collect();
            if line.starts_with("    ") && line.trim_start().starts_with("make ") {
                commands.push(line.trim_start());
            }
            for command in commands {
                let word: String =
                    command[5..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
                if !word.is_empty() && !targets.contains(&word) {
                    missing.push(format!("{doc}:{}: make {word}", i + 1));
                }
            }
        }
    }
    assert!(missing.is_empty(), "make targets the docs mention that the Makefile lacks:\n{}", missing.join("\n"));
}

/// The two commands CI and a new user run, each on a line of its own in a code block.
#[test]
fn readme_quick_start_has_make_serve_and_make_test() {
    let readme = read("README.md");
    let quick_start = readme.split("\n## Quick start\n").nth(1).expect("README.md has a \"## Quick start\" section");
    let quick_start = quick_start.split("\n## ").next().unwrap_or(quick_start);
    for command in ["make serve", "make test"] {
        assert!(
            quick_start.lines().any(|l| l.starts_with("    ") && l.split('#').next().map(str::trim) == Some(command)),
            "README.md's Quick start lacks the line `{command}`"
        );
    }
}

/// Every `.rs` file under `src/`: (its module path, e.g. ["model", "speedup", "analysis"], text).
fn sources() -> Vec<(Vec<String>, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = Path::new(ROOT).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&src).expect("under src/").with_extension("");
            let mut module: Vec<String> =
                rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            if module.last().is_some_and(|m| m == "mod" || m == "lib" || m == "main") {
                module.pop();
            }
            let text = fs::read_to_string(&p).expect("a source file reads");
            (module, text)
        })
        .collect()
}

fn is_ident(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `word` occurs in `text` as a whole identifier, after `before` (e.g. "const ").
fn has_word(text: &str, before: &str, word: &str) -> bool {
    let needle = format!("{before}{word}");
    text.match_indices(&needle).any(|(i, _)| {
        let prev = text[..i].chars().next_back();
        let next = text[i + needle.len()..].chars().next();
        !prev.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            && !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Whether `inner` occurs in `outer` as consecutive elements.
fn contains_run(outer: &[String], inner: &[String]) -> bool {
    inner.is_empty() || outer.windows(inner.len()).any(|w| w == inner)
}

/// The value of `const NAME: T = VALUE;` in `text` as the docs would write it, when VALUE is
/// a plain number or `N << 20` / `N << 30`: the forms it may take ("4096", "4,096", "64 MB").
fn const_value_forms(text: &str, name: &str) -> Option<Vec<String>> {
    let start = text.find(&format!("const {name}:"))?;
    let value = text[start..].split_once('=')?.1.split(';').next()?.trim().replace('_', "");
    let (number, unit) = match value.split_once("<<") {
        Some((n, s)) => (n.trim().to_string(), [("20", " MB"), ("30", " GB")].iter().find(|(k, _)| s.trim() == *k)?.1),
        None => (value, ""),
    };
    let n: u64 = number.parse().ok()?;
    let plain = n.to_string();
    let digits: Vec<char> = plain.chars().collect();
    let mut grouped = String::new();
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(*c);
    }
    Some(vec![format!("{plain}{unit}"), format!("{grouped}{unit}")])
}

/// Whether `form` occurs in `line` as a whole number (not inside 14096, 4096.5 or 4096,000).
fn has_number(line: &str, form: &str) -> bool {
    line.match_indices(form).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let mut after = line[i + form.len()..].chars();
        let (next, then) = (after.next(), after.next());
        let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
        let joined = |c: Option<char>| c.is_some_and(|c| c == ',' || c == '.');
        let first = line[..i].chars().rev().nth(1);
        let inside = digit(before) || joined(before) && digit(first) || digit(next) || joined(next) && digit(then);
        !inside
    })
}

#[test]
fn every_rust_path_the_docs_cite_is_defined_in_its_module() {
    let sources = sources();
    let definers = ["const ", "static ", "struct ", "enum ", "type ", "trait ", "fn ", "mod "];
    let mut wrong = Vec::new();
    for (doc, text) in docs() {
        for (i, line) in prose(&text).iter().enumerate() {
            let at = format!("{doc}:{}", i + 1);
            let mut module: Vec<String> = Vec::new();
            for span in code_spans(line) {
                let segments: Vec<String> = span.split("::").filter(|s| *s != "crate").map(str::to_string).collect();
                let constant = segments.len() == 1
                    && span.contains('_')
                    && span.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
                if !(span.contains("::") || constant) || !segments.iter().all(|s| is_ident(s)) {
                    continue;
                }
                let name = segments.last().expect("a path has a name").clone();
                if segments.len() > 1 {
                    module = segments[..segments.len() - 1].to_vec();
                }
                // Defined somewhere: an item, or a module (its file or folder).
                let defined = sources.iter().any(|(m, t)| {
                    definers.iter().any(|d| has_word(t, d, &name)) || m.last().is_some_and(|l| *l == name)
                });
                if !defined {
                    wrong.push(format!("{at}: `{span}`: no `{name}` is defined in src/"));
                    continue;
                }
                // Mentioned by its module: a file of it defines or re-exports it, or it is that
                // module's own submodule.
                let mut full = module.clone();
                full.push(name.clone());
                let in_module: Vec<&(Vec<String>, String)> = sources
                    .iter()
                    .filter(|(m, t)| contains_run(m, &module) && (has_word(t, "", &name) || contains_run(m, &full)))
                    .collect();
                if in_module.is_empty() {
                    wrong.push(format!("{at}: `{span}`: no file of module `{}` has `{name}`", module.join("::")));
                    continue;
                }
                // A limit's value, in its table row.
                if doc == "docs/limits.md" && line.starts_with('|') {
                    let values: Vec<Vec<String>> =
                        in_module.iter().filter_map(|(_, t)| const_value_forms(t, &name)).collect();
                    if let [forms] = values.as_slice() {
                        if !forms.iter().any(|f| has_number(line, f)) {
                            wrong.push(format!("{at}: `{span}` is {} in src/, not in this row", forms[0]));
                        }
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "Rust paths in the docs that the source does not bear out:\n{}", wrong.join("\n"));
}

#[test]
fn no_dates_but_the_measured_set_up_time() {
    // (doc, line number, line, dates on it)
    let mut dated = Vec::new();
    for (doc, text) in docs() {
        for (i, line) in prose(&text).iter().enumerate() {
            let b = line.as_bytes();
            let is_date = |j: usize| {
                b.len() >= j + 10
                    && b[j..j + 4].iter().all(u8::is_ascii_digit)
                    && b[j + 4] == b'-'
                    && b[j + 5..j + 7].iter().all(u8::is_ascii_digit)
                    && b[j + 7] == b'-'
                    && b[j + 8..j + 10].iter().all(u8::is_ascii_digit)
            };
            let dates = (0..b.len()).filter(|&j| is_date(j)).count();
            if dates > 0 {
                dated.push((doc.clone(), i + 1, line.clone(), dates));
            }
        }
    }
    let set_up = |(doc, _, line, _): &(String, usize, String, usize)| doc == "README.md" && line.contains("measured");
    let others: Vec<String> =
        dated.iter().filter(|d| !set_up(d)).map(|(doc, n, line, _)| format!("{doc}:{n}: {line}")).collect();
    assert!(others.is_empty(), "dates in the docs (say them in a generated file instead):\n{}", others.join("\n"));
    let measured: usize = dated.iter().filter(|d| set_up(d)).map(|d| d.3).sum();
    assert!(measured <= 1, "README.md gives {measured} dated measurements: one, the cold set-up time, may stay");
}

/// One closed list: its name, each member's names (the first is the one reported), the
/// subsets that may be named alone, and the files that list other things' names for its
/// members, each with why.
struct ClosedList {
    name: &'static str,
    members: Vec<Vec<String>>,
    subsets: &'static [(&'static [&'static str], &'static str)],
    foreign: &'static [(&'static str, &'static str)],
}

fn closed_lists() -> Vec<ClosedList> {
    use scalewise::model::comm::collectives::Algorithm;
    use scalewise::model::speedup::MODELS;
    let models = MODELS
        .iter()
        .map(|m| {
            let first = m.label().split(['/', ' ']).next().unwrap_or("");
            vec![m.name().to_string(), m.label().to_string(), first.to_string()]
        })
        .collect();
    let algorithms = Algorithm::all()
        .map(|a| {
            let mut names =
                vec![a.key().to_string(), a.label().to_string(), a.name().to_string(), a.ompi_name().to_string()];
            names.extend(a.names().iter().map(|n| n.to_string()));
            names
        })
        .collect();
    vec![
        ClosedList {
            name: "speed-up models (`model::fit::models`, `with_families!`)",
            members: models,
            subsets: &[(
                &["downey", "smirni"],
                "the speed-up models a region's search tries (`src/model/fit/search.rs`)",
            )],
            foreign: &[],
        },
        ClosedList {
            name: "broadcast algorithms (`Algorithm`)",
            members: algorithms,
            subsets: &[],
            foreign: &[("src/model/comm/export.rs", "Open MPI's ids of its own algorithms")],
        },
    ]
}

/// Where a name of a member stands in `text` (lower case), as (start, end, member), in order:
/// whole words only, the longest name where names overlap.
fn mentions(text: &str, list: &ClosedList) -> Vec<(usize, usize, usize)> {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut found: Vec<(usize, usize, usize)> = Vec::new();
    for (m, names) in list.members.iter().enumerate() {
        for name in names {
            let name = name.to_lowercase();
            for (at, _) in text.match_indices(&name) {
                let end = at + name.len();
                if !word(text[..at].chars().next_back()) && !word(text[end..].chars().next()) {
                    found.push((at, end, m));
                }
            }
        }
    }
    found.sort_by_key(|&(at, end, _)| (at, std::cmp::Reverse(end)));
    let mut kept: Vec<(usize, usize, usize)> = Vec::new();
    for f in found {
        if kept.last().is_none_or(|k| f.0 >= k.1) {
            kept.push(f);
        }
    }
    kept
}

/// Whether the text between two names only separates items of a list: commas, "and", "or",
/// '/' or '|', with quotes, parentheses, possessives, numbers and spaces around them.
fn separates(gap: &str) -> bool {
    let gap = gap.strip_prefix("'s").unwrap_or(gap);
    let rest: String = gap.chars().filter(|c| !c.is_whitespace() && !"\"'`*()[]0123456789".contains(*c)).collect();
    matches!(rest.as_str(), "," | "and" | ",and" | "or" | ",or" | "/" | "|")
}

/// The lists of a closed list's members in one file that name some members but not all: a
/// list of two or more names, one after another with only separators between them.
fn partial_lists(file: &str, text: &str, list: &ClosedList) -> Vec<String> {
    let lower = text.to_lowercase();
    let found = mentions(&lower, list);
    let mut runs: Vec<Vec<(usize, usize, usize)>> = Vec::new();
    for f in found {
        match runs.last_mut() {
            Some(run) if separates(&lower[run.last().map_or(0, |l| l.1)..f.0]) => run.push(f),
            _ => runs.push(vec![f]),
        }
    }
    let mut out = Vec::new();
    for run in runs {
        let named: BTreeSet<usize> = run.iter().map(|r| r.2).collect();
        if named.len() < 2 || named.len() == list.members.len() {
            continue;
        }
        // An example, not a list: followed by "…", after "e.g.", or a code span of its own.
        let (start, end) = (run[0].0, run[run.len() - 1].1);
        let after = lower[end..].trim_start_matches(|c: char| c.is_whitespace() || "\"'`,|".contains(c));
        let before = &lower[lower[..start].char_indices().rev().nth(11).map_or(0, |(i, _)| i)..start];
        let span = lower[..start].ends_with('`') && lower[end..].starts_with('`');
        if after.starts_with('…') || after.starts_with("...") || before.contains("e.g.") || span {
            continue;
        }
        if list.foreign.iter().any(|(f, _)| *f == file) {
            continue;
        }
        let names: BTreeSet<&str> = named.iter().map(|&m| list.members[m][0].as_str()).collect();
        if list.subsets.iter().any(|(subset, _)| subset.iter().copied().collect::<BTreeSet<_>>() == names) {
            continue;
        }
        let missing: Vec<&str> =
            (0..list.members.len()).filter(|m| !named.contains(m)).map(|m| list.members[m][0].as_str()).collect();
        let line = lower[..start].lines().count().max(1);
        let said = &lower[start..end];
        out.push(format!("{file}:{line}: \"{said}\" lacks {}", missing.join(", ")));
    }
    out
}

/// Every Rust file under `src/`, as (path from the root, text).
fn rust_sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in fs::read_dir(dir).expect("readable").filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut paths = Vec::new();
    walk(&Path::new(ROOT).join("src"), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(ROOT).expect("under the root").to_string_lossy().into_owned();
            let text = fs::read_to_string(&p).expect("readable");
            (rel, text)
        })
        .collect()
}

#[test]
fn every_list_of_models_or_algorithms_names_them_all() {
    // The docs, VALIDATION.md (which `make validate` writes) and every source file: a list of
    // speed-up models or broadcast algorithms written out by hand goes stale when one is added,
    // so each list names them all (or is made from the definition, or names none).
    let mut files = docs();
    files.push(("VALIDATION.md".to_string(), read("VALIDATION.md")));
    files.extend(rust_sources());
    let mut partial = Vec::new();
    for list in closed_lists() {
        for (file, text) in &files {
            partial.extend(partial_lists(file, text, &list).into_iter().map(|p| format!("{p} (of the {})", list.name)));
        }
    }
    assert!(
        partial.is_empty(),
        "lists that name some but not all (make them from the definition, or name them all):\n{}",
        partial.join("\n")
    );
}

#[test]
fn the_definitions_own_docs_name_every_member() {
    // The `//!` of the file that defines a list describes each member: one added without its
    // line fails here.
    for (file, list) in [("src/model/fit/models.rs", 0), ("src/model/comm/collectives.rs", 1)] {
        let list = &closed_lists()[list];
        let header: String = read(file).lines().take_while(|l| l.starts_with("//!")).collect::<Vec<_>>().join("\n");
        let named: BTreeSet<usize> = mentions(&header.to_lowercase(), list).into_iter().map(|m| m.2).collect();
        let missing: Vec<&str> =
            (0..list.members.len()).filter(|m| !named.contains(m)).map(|m| list.members[m][0].as_str()).collect();
        assert!(missing.is_empty(), "{file}'s //! does not describe {}", missing.join(", "));
    }
}

#[test]
fn the_bottlenecks_help_names_every_input_format() {
    // The answer's "format" is one of these names; the help's OUTPUT lists them by hand.
    use scalewise::model::bottlenecks::Format;
    use strum::IntoEnumIterator;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_scalewise"))
        .args(["bottlenecks", "--help"])
        .output()
        .expect("scalewise runs");
    let help = String::from_utf8(out.stdout).expect("the help is UTF-8");
    let word = |text: &str, name: &str| {
        text.match_indices(name).any(|(at, _)| {
            let ok = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_');
            ok(text[..at].chars().next_back()) && ok(text[at + name.len()..].chars().next())
        })
    };
    for f in Format::iter() {
        assert!(
            word(&help, f.name()),
            "scalewise bottlenecks --help does not name the format {} (src/cli/bottlenecks.rs)",
            f.name()
        );
    }
}

#[test]
fn formats_md_lists_every_profiler_from_its_row() {
    // A profiler is defined once (bottlenecks::formats::PROFILERS); its line in
    // docs/formats.md is written from that row, not by hand.
    use scalewise::model::bottlenecks::formats::PROFILERS;
    let path = "docs/formats.md";
    let doc = read(path);
    let (open, close) = ("<!-- profilers:", "<!-- /profilers -->");
    let start = doc
        .find(open)
        .and_then(|a| doc[a..].find('\n').map(|n| a + n + 1))
        .expect("docs/formats.md has its profilers block");
    let end = doc.find(close).expect("docs/formats.md closes its profilers block");
    let lines: String = PROFILERS.iter().map(|p| format!("- `{}`: {}\n", p.format.name(), p.help)).collect();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, format!("{}{lines}{}", &doc[..start], &doc[end..])).expect("docs/formats.md written");
        return;
    }
    assert_eq!(
        &doc[start..end],
        lines,
        "docs/formats.md's list of profilers is not PROFILERS' (run UPDATE_GOLDEN=1 cargo test --test docs)"
    );
}

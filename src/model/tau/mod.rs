//! Reader of TAU profile folders (TAU 2.x, www.cs.uoregon.edu/research/tau, `TAU_PROFILE=1`
//! output): one text file per thread, reduced to a [`RunProfile`].
//!
//! # The format (facts from TAU's own profile writer, `Profiler::StoreData` of TAU 2.x, and
//! from Hatchet's `hatchet/readers/tau_reader.py`, github.com/LLNL/hatchet at commit
//! 79c009bd; the code is our own)
//! - A run folder holds one file per thread, `profile.N.C.T`: node N (the MPI rank), context C,
//!   thread T. With several metrics measured, each metric's files are in a folder
//!   `MULTI__<METRIC>` (`MULTI__TIME`, `MULTI__PAPI_TOT_CYC`, ...).
//! - Line 1 is `<count> templated_functions_MULTI_<METRIC>`, or `<count> templated_functions`
//!   in files of the default metric TIME.
//! - Line 2 is `# Name Calls Subrs Excl Incl ProfileCalls`, in newer TAU followed by
//!   ` # <metadata>` and the run's metadata, one `<attribute><name>..</name><value>..</value>
//!   </attribute>` each, XML-escaped (`&lt;`, `&amp;`, ...): TAU's own (`CPU Cores`,
//!   `TAU_CALLPATH_DEPTH`, ...) and the user's (`TAU_METADATA`).
//! - Then `<count>` function lines, `"name" calls subrs excl incl profilecalls GROUP="..."`,
//!   the values written with `%.16G` (so `1.5E+07` may occur). With callpath profiling
//!   (`TAU_CALLPATH=1`), a line whose name holds `=>` is one call path, its regions separated
//!   by ` => ` (`".TAU application => MPI_Init()  "`: TAU writes a region's name and its type,
//!   often blank, so names end in spaces); the lines without `=>` are then each function
//!   summed over all its call paths, the same time a second time.
//! - After the functions come `<n> aggregates` and, when there are any, `<n> userevents`
//!   with a `# eventname numevents max min mean sumsqr` line and one line per event.
//! - TIME values are microseconds; a hardware counter's (`PAPI_*`) are counts.
//!
//! # Choices
//! - Files are found by name: `profile.N.C.T` (digits), directly in the folder given or in
//!   a `MULTI__<METRIC>` folder (the folder names the metric, whatever the file's line 1
//!   says). Any other folder is taken as the run's own (a path may start with the run's
//!   folder name); other files (`events.*.edf`, ...) are passed over. Files directly in the
//!   folder whose line 1 name different metrics are refused: TAU writes a run's metrics in
//!   `MULTI__` folders. One node, context and thread given twice for a metric is refused.
//! - Only the files of the metric asked for are read past line 1. Every function line's five
//!   values must be finite numbers ≥ 0, and there must be as many function lines as line 1
//!   says; aggregates and user events are passed over unread.
//! - Call paths: where a file holds callpath lines, they are its tree, and of its other
//!   lines only the roots are kept (a function that is no call path's last region, such as
//!   `.TAU application`): the rest repeat the callpath lines' values (Hatchet likewise keeps
//!   the first function and the callpath lines). A file without callpath lines gives each
//!   function as a path of one region. Names are trimmed and kept as TAU writes them (file
//!   and line included, as in `[SAMPLE] f [{a.c} {12}]`). With `TAU_CALLPATH_DEPTH` below the
//!   tree's depth TAU writes only each path's last regions: such paths are read as written.
//! - Metrics are listed by name in alphabetical order; the one asked for is matched exactly,
//!   else in any case; by default TIME, else the first whose name holds TIME, else the first.
//! - Figures: per call path (regions joined with `->`), the sum over the files of the
//!   exclusive (or inclusive) value and the largest file's value (a file without the path
//!   counts 0). A time metric (TIME, or any name holding TIME in any case) is given in
//!   seconds; any other metric, PAPI counters included, as written (counts).
//! - Globals: `tau.ranks` (distinct nodes N), `tau.threads` (the most files, context and
//!   thread pairs, of one node), then every metadata attribute of the first file (the lowest
//!   node, context and thread: `profile.0.0.0` as a rule) whose value reads as a finite number,
//!   in the order written (the first of a name kept).
//!
//! Text in, data out: no I/O here.

use std::collections::{HashMap, HashSet};

use crate::model::input::list::clip;
use crate::model::profile::{Limits, PathValue, RunProfile, Want};
use crate::model::{one_of, InputError};

#[cfg(test)]
mod tests;

/// The field named in errors.
pub const FIELD: &str = "TAU profile";

/// The five values of a function line, by the names of line 2.
const COLUMNS: [&str; 5] = ["Calls", "Subrs", "Excl", "Incl", "ProfileCalls"];

/// Whether a file name is a TAU profile file: `profile.N.C.T`, each of N, C and T digits (a
/// number below 2^64).
pub fn is_profile_name(name: &str) -> bool {
    location(name).is_some()
}

fn location(name: &str) -> Option<[u64; 3]> {
    let mut parts = name.strip_prefix("profile.")?.split('.');
    let mut out = [0; 3];
    for o in &mut out {
        let p = parts.next().filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))?;
        *o = p.parse().ok()?;
    }
    parts.next().is_none().then_some(out)
}

/// An error in a file, at a line and column (1-based).
fn fail(path: &str, line: usize, column: usize, message: impl std::fmt::Display) -> InputError {
    InputError::new(FIELD, format!("{path}: {message}")).at(line, Some(column))
}

/// The column (1-based, in characters) of byte `at` of `line`.
fn col(line: &str, at: usize) -> usize {
    line.get(..at).map_or(0, |s| s.chars().count()) + 1
}

/// A profile file found: where, its metric and its text.
struct File<'a> {
    path: &'a str,
    loc: [u64; 3],
    metric: String,
    /// Whether it is in a `MULTI__` folder.
    multi: bool,
    text: &'a str,
}

fn utf8<'a>(path: &str, bytes: &'a [u8]) -> Result<&'a str, InputError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let before = &bytes[..e.valid_up_to()];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
        fail(path, line, column, "a byte that is not UTF-8 text: not a TAU profile")
    })
}

fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// Line 1: the count of function lines and the metric named.
fn header<'a>(path: &str, text: &'a str) -> Result<(u64, &'a str), InputError> {
    let first = lines(text).next().unwrap_or("");
    let bad = || {
        let found = clip(first);
        fail(
            path,
            1,
            1,
            format!("expected a TAU profile: the first line `N templated_functions...`, found \"{found}\""),
        )
    };
    let (written, kind) = first.trim_start().split_once(char::is_whitespace).ok_or_else(bad)?;
    let rest = kind.trim().strip_prefix("templated_functions").ok_or_else(bad)?;
    let metric = match rest.strip_prefix("_MULTI_") {
        Some(m) if !m.is_empty() => m,
        _ if rest.is_empty() => "TIME",
        _ => return Err(bad()),
    };
    let at = col(first, first.len() - first.trim_start().len());
    let count = Some(written).filter(|c| c.bytes().all(|b| b.is_ascii_digit())).and_then(|c| c.parse().ok());
    let count = count.ok_or_else(|| {
        let m = format!("the count of functions: expected a whole number ≥ 0, found \"{}\"", clip(written));
        fail(path, 1, at, m)
    })?;
    Ok((count, metric))
}

/// A function line: its name and its values of Calls, Subrs, Excl and Incl; or the byte where
/// it is wrong and what is.
fn function(line: &str) -> Result<(&str, [f64; 4]), (usize, String)> {
    let head = line.rfind(" GROUP=\"").map_or(line, |i| &line[..i]);
    let close = match head.rfind('"') {
        Some(c) if c > 0 && line.starts_with('"') => c,
        _ => {
            let m = format!(
                "expected a function line `\"name\" calls subrs excl incl profilecalls GROUP=\"...\"`, found \"{}\"",
                clip(line)
            );
            return Err((0, m));
        }
    };
    let mut values = [0.0; 4];
    let mut n = 0;
    for word in head[close + 1..].split_whitespace() {
        let at = word.as_ptr() as usize - line.as_ptr() as usize;
        let Some(&name) = COLUMNS.get(n) else {
            return Err((at, format!("expected GROUP=\"...\" after the five values, found \"{}\"", clip(word))));
        };
        let v: f64 = word.parse().map_err(|_| (at, format!("{name}: expected a number, found \"{}\"", clip(word))))?;
        if !v.is_finite() {
            return Err((at, format!("{name}: expected a finite number, found \"{}\"", clip(word))));
        }
        if v < 0.0 {
            return Err((at, format!("{name}: expected a number ≥ 0, found \"{}\"", clip(word))));
        }
        if let Some(slot) = values.get_mut(n) {
            *slot = v;
        }
        n += 1;
    }
    if n < 4 {
        return Err((line.len(), format!("expected the values Calls Subrs Excl Incl, found {n} of them")));
    }
    Ok((&head[1..close], values))
}

/// The metadata attributes of line 2, (name, value), unescaped.
fn metadata(line: &str) -> Vec<(String, String)> {
    fn between<'a>(s: &'a str, open: &str, close: &str) -> Option<&'a str> {
        let a = s.find(open)? + open.len();
        Some(&s[a..a + s[a..].find(close)?])
    }
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("<attribute>") {
        rest = &rest[i + "<attribute>".len()..];
        let end = rest.find("</attribute>").unwrap_or(rest.len());
        let attr = &rest[..end];
        if let (Some(n), Some(v)) = (between(attr, "<name>", "</name>"), between(attr, "<value>", "</value>")) {
            out.push((unescape(n), unescape(v)));
        }
        rest = &rest[end..];
    }
    out
}

/// XML text with its entities (`&lt;`, `&#60;`, `&#x3C;`, ...) replaced; an `&` that starts
/// none is kept.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest.find(';').filter(|&j| j <= 10);
        let c = end.and_then(|j| match &rest[1..j] {
            "lt" => Some('<'),
            "gt" => Some('>'),
            "amp" => Some('&'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            e => {
                let e = e.strip_prefix('#')?;
                let code = match e.strip_prefix(['x', 'X']) {
                    Some(h) => u32::from_str_radix(h, 16),
                    None => e.parse(),
                };
                code.ok().and_then(char::from_u32)
            }
        });
        match (c, end) {
            (Some(c), Some(j)) => {
                out.push(c);
                rest = &rest[j + 1..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether a metric is a time (in microseconds).
fn is_time(metric: &str) -> bool {
    metric.to_ascii_uppercase().contains("TIME")
}

/// The figures of a run being read.
struct Sums<'a> {
    limits: &'a Limits,
    index: HashMap<String, usize>,
    paths: Vec<PathValue>,
    /// Per path: the last file that had it, and its value there.
    file: Vec<(usize, f64)>,
}

impl Sums<'_> {
    fn add(&mut self, k: usize, path: String, v: f64) -> Result<(), String> {
        let i = match self.index.get(&path) {
            Some(&i) => i,
            None => {
                if self.paths.len() >= self.limits.max_paths {
                    return Err(format!("more than {} call paths (the limit of paths a run)", self.limits.max_paths));
                }
                self.index.insert(path.clone(), self.paths.len());
                self.paths.push(PathValue { path, total: 0.0, max: 0.0 });
                self.file.push((k, 0.0));
                self.paths.len() - 1
            }
        };
        let (p, f) = (&mut self.paths[i], &mut self.file[i]);
        if f.0 != k {
            *f = (k, 0.0);
        }
        f.1 += v;
        p.total += v;
        p.max = p.max.max(f.1);
        if !p.total.is_finite() {
            return Err(format!("the values of {} add up past the largest number", clip(&p.path)));
        }
        Ok(())
    }
}

/// Reads one file's functions into `sums` (file number `k`); gives its metadata line.
fn read_file<'a>(k: usize, f: &File<'a>, column: usize, per_unit: f64, sums: &mut Sums) -> Result<&'a str, InputError> {
    let (count, _) = header(f.path, f.text)?;
    // The file's lines, without the blank ones at its end.
    let mut all: Vec<&str> = lines(f.text).collect();
    while all.last().is_some_and(|l| l.trim().is_empty()) {
        all.pop();
    }
    let mut ls = all.iter().copied().enumerate().skip(1);
    let meta = match ls.next() {
        Some((_, l)) if l.starts_with('#') => l,
        other => {
            let found = clip(other.map_or("", |o| o.1));
            let m = format!("expected the column line `# Name Calls Subrs Excl Incl ProfileCalls`, found \"{found}\"");
            return Err(fail(f.path, 2, 1, m));
        }
    };
    let mut entries: Vec<(usize, &str, f64)> = Vec::new();
    for (i, line) in ls.by_ref() {
        if entries.len() as u64 == count {
            if line.starts_with('"') {
                let m = format!("a function line past the {count} that the first line counts");
                return Err(fail(f.path, i + 1, 1, m));
            }
            break;
        }
        if !line.starts_with('"') {
            let m =
                format!("the first line counts {count} functions, found {} (then \"{}\")", entries.len(), clip(line));
            return Err(fail(f.path, i + 1, 1, m));
        }
        let (name, values) = function(line).map_err(|(at, m)| fail(f.path, i + 1, col(line, at), m))?;
        entries.push((i + 1, name, values[column]));
    }
    if (entries.len() as u64) < count {
        let m = format!("the file ends after {} of the {count} functions that the first line counts", entries.len());
        return Err(fail(f.path, all.len() + 1, 1, m));
    }
    let callpath = entries.iter().any(|e| e.1.contains("=>"));
    let callees: HashSet<&str> =
        entries.iter().filter_map(|e| e.1.rsplit_once("=>")).map(|(_, last)| last.trim()).collect();
    for (line, name, v) in entries {
        let regions: Vec<&str> = name.split("=>").map(str::trim).collect();
        if callpath && regions.len() == 1 && callees.contains(regions[0]) {
            continue;
        }
        sums.add(k, regions.join("->"), v / per_unit).map_err(|m| fail(f.path, line, 1, m))?;
    }
    Ok(meta)
}

/// Reads one run: the folder's files, as (path inside the run folder, `profile.0.0.0` or
/// `MULTI__TIME/profile.0.0.0`, bytes), for the metric and kind of value `want` asks for.
pub fn read(files: &[(&str, &[u8])], want: &Want, limits: &Limits) -> Result<RunProfile, InputError> {
    let mut found: Vec<File> = Vec::new();
    for &(path, bytes) in files {
        let (dir, name) = path.rsplit_once(['/', '\\']).unwrap_or(("", path));
        let Some(loc) = location(name) else { continue };
        let folder = dir.rsplit(['/', '\\']).next().and_then(|d| d.strip_prefix("MULTI__")).filter(|m| !m.is_empty());
        let text = utf8(path, bytes)?;
        let (_, named) = header(path, text)?;
        found.push(File { path, loc, metric: folder.unwrap_or(named).to_string(), multi: folder.is_some(), text });
    }
    if found.is_empty() {
        let m = format!(
            "no TAU profile files (profile.N.C.T, or MULTI__<METRIC>/profile.N.C.T) among the {} files given",
            files.len()
        );
        return Err(InputError::new(FIELD, m));
    }
    // Files of different metrics directly in the folder.
    let top: Vec<&File> = found.iter().filter(|f| !f.multi).collect();
    if let Some(other) = top.iter().find(|f| f.metric != top[0].metric) {
        let m = format!(
            "a file of the metric {} beside {} of {}: TAU writes each metric of a run in a folder MULTI__<METRIC>",
            clip(&other.metric),
            top[0].path,
            clip(&top[0].metric)
        );
        return Err(fail(other.path, 1, 1, m));
    }
    let mut metrics: Vec<String> = found.iter().map(|f| f.metric.clone()).collect();
    metrics.sort();
    metrics.dedup();
    let metric = match &want.metric {
        Some(m) => metrics.iter().find(|x| *x == m).or_else(|| metrics.iter().find(|x| x.eq_ignore_ascii_case(m))),
        None => {
            metrics.iter().find(|x| *x == "TIME").or_else(|| metrics.iter().find(|x| is_time(x))).or(metrics.first())
        }
    };
    let Some(metric) = metric.cloned() else {
        let m = format!(
            "no metric \"{}\" in this profile; it holds {}",
            clip(want.metric.as_deref().unwrap_or("")),
            one_of(metrics.iter().map(String::as_str))
        );
        return Err(InputError::new(FIELD, m));
    };
    let mut run: Vec<&File> = found.iter().filter(|f| f.metric == metric).collect();
    run.sort_by_key(|f| f.loc);
    if let Some(w) = run.windows(2).find(|w| w[0].loc == w[1].loc) {
        let [n, c, t] = w[0].loc;
        let m =
            format!("{} and {} are both node {n}, context {c}, thread {t} of {}", w[0].path, w[1].path, clip(&metric));
        return Err(InputError::new(FIELD, m));
    }
    if run.len() > limits.max_locations {
        let m = format!(
            "{} profile files of {}: more than {} locations (the limit of locations a run)",
            run.len(),
            clip(&metric),
            limits.max_locations
        );
        return Err(InputError::new(FIELD, m));
    }
    let column = if want.inclusive { 3 } else { 2 };
    let per_unit = if is_time(&metric) { 1e6 } else { 1.0 };
    let mut sums = Sums { limits, index: HashMap::new(), paths: Vec::new(), file: Vec::new() };
    let mut meta = "";
    for (k, f) in run.iter().enumerate() {
        let m = read_file(k, f, column, per_unit, &mut sums)?;
        if k == 0 {
            meta = m;
        }
    }
    // The files are in node order: count the nodes and the longest stretch of one.
    let (mut ranks, mut threads, mut stretch) = (0, 0, 0);
    for (i, f) in run.iter().enumerate() {
        stretch = if i > 0 && run[i - 1].loc[0] == f.loc[0] { stretch + 1 } else { 1 };
        ranks += usize::from(stretch == 1);
        threads = threads.max(stretch);
    }
    let mut globals = vec![("tau.ranks".to_string(), ranks as f64), ("tau.threads".to_string(), threads as f64)];
    for (name, value) in metadata(meta) {
        let Some(v) = value.trim().parse::<f64>().ok().filter(|v| v.is_finite()) else { continue };
        if !globals.iter().any(|g| g.0 == name) {
            globals.push((name, v));
        }
    }
    Ok(RunProfile { metrics, metric, inclusive: want.inclusive, paths: sums.paths, locations: run.len(), globals })
}

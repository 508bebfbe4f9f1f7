//! Reader of an HPCToolkit database directory as HPCToolkit's `hpcprof-mpi --metric-db yes`
//! writes it (the `experiment.xml` format, its DTD's version 2.0, before HPCToolkit's newer
//! `meta.db` format): the call tree with its names, and one binary `.metric-db` file per
//! rank-thread, reduced to a [`RunProfile`].
//!
//! # The format (facts from the DTD inside `experiment.xml`, Hatchet's
//! `hatchet/readers/hpctoolkit_reader.py` and the databases in Hatchet's tests,
//! github.com/LLNL/hatchet at 79c009bd; the code is our own)
//! - `experiment.xml`: `<SecHeader>` holds the tables: `<ProcedureTable>` (`<Procedure i n>`:
//!   a procedure's id and name), `<MetricDBTable>` (`<MetricDB i n t db-id>`: a metric of the
//!   metric-db files, its column `db-id`, its name with ` (I)` or ` (E)` after it and its type
//!   `t`, `inclusive` or `exclusive`), besides the load modules and files. `<Header>` may hold
//!   `<Info><NV n v>` name-value pairs.
//! - `<SecCallPathProfileData>` is the calling context tree: `PF` (a procedure frame, a call:
//!   `n` is an id in the procedure table, or the name itself), `C` (a call site), `Pr` (a
//!   static procedure inside a frame, as inlined code), `L` (a loop), `S` (a statement), each with its
//!   node id `i`; `M` elements carry summaries and are no nodes. Node 1 is the tree's implicit
//!   root; the elements number 2 up.
//! - A `.metric-db` file: 18 bytes `HPCPROF-metricdb__`, 5 of version (`00.10`), 1 of
//!   endianness (`b`: big-endian), the number of nodes and of metrics (big-endian u32 each),
//!   32 bytes in all (the XML's `db-header-sz="24"` leaves out the two counts); then per node,
//!   from node 1, its value of each metric as a big-endian f64. The file name gives the rank
//!   and the thread: `1.cpi-000002-000-a8c00270-160445-0.metric-db` is rank 2, thread 0.
//! - A frame's exclusive value holds its own statements' and loops' (in Hatchet's databases a
//!   frame's or loop's exclusive time is the sum of its statements' and loops'), not its
//!   callees'; its inclusive value holds everything below it.
//!
//! # Choices
//! - A call path is the names of the procedure frames (`PF`) from the root, joined with `->`.
//!   Loops, statements, call sites and static procedures (`Pr`) fold into their frame, whose
//!   values hold theirs (taken to hold a `Pr`'s too, as they do a loop's: no test database has
//!   one). Frames of one path (calls from different call sites) add up. Hatchet
//!   makes statements and loops nodes of their own and names a callee `line:name`; the sum
//!   over a frame's node and its statement nodes there is this reader's exclusive value
//!   (`scripts/hpctoolkit-reference.py`; `Pr` nodes, which Hatchet shows as functions, are in
//!   neither test database).
//! - The metric asked for is named without its ` (I)`/` (E)`; by default the first whose name
//!   holds `TIME` (`CPUTIME (usec)`, `REALTIME (sec)`), else the first. A unit in the name,
//!   `(usec)`, `(msec)`, `(nsec)` or `(sec)`, converts to seconds, and the metric is then
//!   named with `(s)` (`CPUTIME (s)`; asked for by either name); other metrics (counters:
//!   `PAPI_TOT_CYC`, ...) and a time without a unit stay as written.
//! - Every value read must be finite and not negative; a metric-db file must have exactly the
//!   size its header gives and as many nodes as the XML's largest node id; one rank-thread
//!   appears once. No allocation follows a header's counts: values are read in place.
//! - Globals: the header's numeric `NV` pairs by name, then `hpctoolkit.ranks` and
//!   `hpctoolkit.threads` (the distinct rank and thread numbers of the file names).
//! - The newer format (HPCToolkit 2023 on: `meta.db`, `profile.db`, `cct.db`) is told apart
//!   and refused with a message saying so ([`newer_format`]).
//!
//! Text in, data out: no I/O here.

use std::collections::HashMap;

use quick_xml::events::{BytesStart, Event};
use quick_xml::XmlVersion;

use crate::model::input::list::clip;
use crate::model::profile::{Limits, PathValue, RunProfile, Want};
use crate::model::InputError;

#[cfg(test)]
pub(crate) mod tests;

/// The field named in errors.
pub const FIELD: &str = "HPCToolkit database";

const MAGIC: &[u8] = b"HPCPROF-metricdb__";
const HEADER: usize = 32;
/// Most bytes of all the call paths' names together.
const MAX_PATH_TEXT: usize = 64 << 20;
const NEWER: &str = "a file of the newer HPCToolkit database format (meta.db, profile.db, cct.db: \
     HPCToolkit 2023 and later), which this reader does not read: it reads the older format's \
     experiment.xml and .metric-db files, as hpcprof-mpi --metric-db yes writes them";

fn base(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// Whether a file name is part of such a database (`experiment.xml`, `*.metric-db`).
pub fn is_database_file(name: &str) -> bool {
    let b = base(name);
    b == "experiment.xml" || b.ends_with(".metric-db")
}

/// Whether these first bytes (or, with none, the name) are of the newer HPCToolkit database
/// format (2023 on: `HPCTOOLKIT` and a format name, as `meta.db`, `profile.db`, `cct.db` start),
/// which this reader does not read: the message says so.
pub fn newer_format(name: &str, head: &[u8]) -> Option<&'static str> {
    let named = matches!(base(name), "meta.db" | "profile.db" | "cct.db" | "trace.db");
    (head.starts_with(b"HPCTOOLKIT") || head.is_empty() && named).then_some(NEWER)
}

/// A metric of the metric-db files.
struct Column {
    name: String,
    inclusive: bool,
    index: usize,
}

/// What `experiment.xml` gives.
#[derive(Default)]
struct Tree {
    columns: Vec<Column>,
    paths: Vec<String>,
    /// Per procedure frame: its path and its node id.
    frames: Vec<(usize, usize)>,
    max_id: usize,
    globals: Vec<(String, f64)>,
}

#[derive(Clone, Copy, PartialEq)]
enum Ctx {
    Other,
    Header,
    Procedures,
    MetricDbs,
    /// Inside the call tree: the enclosing frame's path.
    Node(Option<usize>),
}

fn line_col(bytes: &[u8], pos: usize) -> (usize, usize) {
    let before = &bytes[..pos.min(bytes.len())];
    let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    (line, before[start..].iter().filter(|&&b| b & 0xC0 != 0x80).count() + 1)
}

fn xml_err(bytes: &[u8], pos: u64, m: impl std::fmt::Display) -> InputError {
    let (line, col) = line_col(bytes, usize::try_from(pos).unwrap_or(usize::MAX));
    InputError::new(FIELD, format!("experiment.xml: {m}")).at(line, Some(col))
}

fn attr(e: &BytesStart<'_>, key: &str) -> Result<Option<String>, String> {
    for a in e.attributes() {
        let a = a.map_err(|x| format!("bad attribute in <{}>: {x}", e.name().as_ref()))?;
        if a.key.as_ref() == key {
            let v = a.normalized_value(XmlVersion::Implicit1_0);
            return v.map(|v| Some(v.into_owned())).map_err(|x| format!("bad attribute {key}: {x}"));
        }
    }
    Ok(None)
}

fn need(e: &BytesStart<'_>, key: &str) -> Result<String, String> {
    attr(e, key)?.ok_or_else(|| format!("<{}> without {key}", e.name().as_ref()))
}

fn id(e: &BytesStart<'_>, key: &str, v: &str) -> Result<usize, String> {
    v.trim()
        .parse::<usize>()
        .map_err(|_| format!("<{}> {key}=\"{}\": expected a non-negative integer", e.name().as_ref(), clip(v)))
}

/// Reads `experiment.xml`.
fn tree(bytes: &[u8], limits: &Limits) -> Result<Tree, InputError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| xml_err(bytes, e.valid_up_to() as u64, "a byte that is not UTF-8 text"))?;
    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().expand_empty_elements = true;
    let mut t = Tree::default();
    let mut procs: HashMap<String, String> = HashMap::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut stack: Vec<(Ctx, String)> = Vec::new();
    let (mut data_seen, mut path_text) = (false, 0usize);
    loop {
        let pos = reader.buffer_position();
        let ev =
            reader.read_event().map_err(|e| xml_err(bytes, reader.error_position(), format!("malformed XML: {e}")))?;
        let e = match ev {
            Event::Start(e) => e,
            Event::End(_) => {
                stack.pop();
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let fail = |m: String| xml_err(bytes, pos, m);
        let name = e.name().as_ref().to_string();
        let parent = stack.last().map_or(Ctx::Other, |s| s.0);
        let ctx = match (parent, name.as_str()) {
            (Ctx::Node(_), "M") => Ctx::Other,
            (Ctx::Node(frame), _) => {
                let i = match attr(&e, "i").map_err(fail)? {
                    Some(v) => id(&e, "i", &v).map_err(fail)?,
                    None if name == "PF" => return Err(fail("<PF> without i".into())),
                    None => 0,
                };
                t.max_id = t.max_id.max(i);
                if name != "PF" {
                    Ctx::Node(frame)
                } else {
                    if i < 2 {
                        return Err(fail(format!("<PF> i=\"{i}\": node ids start at 2")));
                    }
                    let n = need(&e, "n").map_err(fail)?;
                    let proc = procs.get(&n).unwrap_or(&n);
                    let path = match frame {
                        Some(p) => format!("{}->{proc}", t.paths[p]),
                        None => proc.clone(),
                    };
                    let k = match seen.get(&path) {
                        Some(&k) => k,
                        None => {
                            if t.paths.len() >= limits.max_paths {
                                return Err(fail(format!("more than {} call paths (the limit)", limits.max_paths)));
                            }
                            path_text += path.len();
                            if path_text > MAX_PATH_TEXT {
                                return Err(fail(format!(
                                    "the call paths' names come to more than {} MiB (the limit)",
                                    MAX_PATH_TEXT >> 20
                                )));
                            }
                            t.paths.push(path.clone());
                            seen.insert(path, t.paths.len() - 1);
                            t.paths.len() - 1
                        }
                    };
                    t.frames.push((k, i));
                    Ctx::Node(Some(k))
                }
            }
            (_, "SecCallPathProfileData") if !data_seen => {
                data_seen = true;
                Ctx::Node(None)
            }
            (_, "Header") => Ctx::Header,
            (_, "ProcedureTable") => Ctx::Procedures,
            (_, "MetricDBTable") => Ctx::MetricDbs,
            (Ctx::Procedures, "Procedure") => {
                procs.insert(need(&e, "i").map_err(fail)?, need(&e, "n").map_err(fail)?);
                Ctx::Other
            }
            (Ctx::MetricDbs, "MetricDB") => {
                let n = need(&e, "n").map_err(fail)?;
                let index = match attr(&e, "db-id").map_err(fail)? {
                    Some(v) => id(&e, "db-id", &v),
                    None => id(&e, "i", &need(&e, "i").map_err(fail)?),
                }
                .map_err(fail)?;
                let kind = attr(&e, "t").map_err(fail)?;
                let (bare, inclusive) = match n.trim_end().strip_suffix("(I)") {
                    Some(b) => (b, true),
                    None => (n.trim_end().strip_suffix("(E)").unwrap_or(&n), kind.as_deref() == Some("inclusive")),
                };
                t.columns.push(Column { name: bare.trim_end().to_string(), inclusive, index });
                Ctx::Other
            }
            (_, "NV") if stack.iter().any(|s| s.0 == Ctx::Header) => {
                let v = attr(&e, "v").map_err(fail)?.and_then(|v| v.trim().parse::<f64>().ok());
                if let (Some(n), Some(v)) = (attr(&e, "n").map_err(fail)?, v.filter(|v| v.is_finite())) {
                    t.globals.push((n, v));
                }
                Ctx::Header
            }
            (Ctx::Header, _) => Ctx::Header,
            _ => Ctx::Other,
        };
        stack.push((ctx, name));
    }
    if let Some((_, open)) = stack.last() {
        return Err(xml_err(bytes, bytes.len() as u64, format!("the file ends inside <{open}> (cut short?)")));
    }
    if !data_seen {
        return Err(InputError::new(FIELD, "experiment.xml: no <SecCallPathProfileData> (the call tree)"));
    }
    if t.frames.is_empty() {
        return Err(InputError::new(FIELD, "experiment.xml: the call tree has no procedure frames (<PF>)"));
    }
    if t.columns.is_empty() {
        return Err(InputError::new(
            FIELD,
            "experiment.xml: no <MetricDB> in a <MetricDBTable>: write the database with hpcprof-mpi --metric-db yes",
        ));
    }
    Ok(t)
}

/// Rank and thread from a metric-db file's name (`...-RANK-THREAD-HOST-PID-N.metric-db`).
fn rank_thread(name: &str) -> Option<(u64, u64)> {
    let stem = base(name).strip_suffix(".metric-db")?;
    let parts: Vec<&str> = stem.rsplitn(6, '-').collect();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match parts[..] {
        [n, pid, _host, thread, rank, _] if digits(n) && digits(pid) => {
            Some((rank.parse().ok()?, thread.parse().ok()?))
        }
        _ => None,
    }
}

fn be_u32(b: &[u8], at: usize) -> usize {
    b.get(at..at + 4).and_then(|s| s.try_into().ok()).map_or(0, u32::from_be_bytes) as usize
}

/// Adds one metric-db file's values of `col` into `sums`, per path.
fn values(name: &str, b: &[u8], t: &Tree, col: &Column, sums: &mut [f64]) -> Result<(), InputError> {
    let fail = |at: usize, m: String| InputError::new(FIELD, format!("{name}: byte {at}: {m}"));
    if b.len() < HEADER {
        return Err(fail(b.len(), format!("the file ends after {} bytes, inside the {HEADER}-byte header", b.len())));
    }
    if !b.starts_with(MAGIC) {
        return Err(fail(0, "expected \"HPCPROF-metricdb__\": not a metric-db file".into()));
    }
    if b[23] != b'b' {
        return Err(fail(23, format!("endianness {:?}, expected 'b' (big-endian)", b[23] as char)));
    }
    let (nodes, metrics) = (be_u32(b, 24), be_u32(b, 28));
    if nodes != t.max_id {
        return Err(fail(
            24,
            format!("{nodes} call-tree nodes, but experiment.xml numbers {} (another run's?)", t.max_id),
        ));
    }
    if col.index >= metrics {
        return Err(fail(
            28,
            format!("{metrics} metrics, but experiment.xml puts {} in column {}", col.name, col.index),
        ));
    }
    let size = nodes.checked_mul(metrics).and_then(|v| v.checked_mul(8)).and_then(|v| v.checked_add(HEADER));
    if size != Some(b.len()) {
        let what = if size.is_none_or(|s| b.len() < s) { "cut short" } else { "too long" };
        return Err(fail(
            b.len(),
            format!(
                "{} bytes where {nodes} nodes × {metrics} metrics take {HEADER} + {nodes}·{metrics}·8: {what}",
                b.len()
            ),
        ));
    }
    for &(path, i) in &t.frames {
        let at = HEADER + ((i - 1) * metrics + col.index) * 8;
        let v = b.get(at..at + 8).and_then(|s| s.try_into().ok()).map_or(f64::NAN, f64::from_be_bytes);
        if !v.is_finite() || v < 0.0 {
            return Err(fail(at, format!("{v} (node {i}, {}): expected a finite value, not negative", col.name)));
        }
        sums[path] += v;
    }
    Ok(())
}

/// Seconds per unit of a metric named with its unit; 1 for others.
fn scale(name: &str) -> f64 {
    let n = name.to_ascii_lowercase();
    [("(usec)", 1e-6), ("(msec)", 1e-3), ("(nsec)", 1e-9)].iter().find(|u| n.contains(u.0)).map_or(1.0, |u| u.1)
}

/// One run: the database folder's files as (path inside the folder, bytes). Files that are
/// neither `experiment.xml` nor `*.metric-db` are passed over.
pub fn read(files: &[(&str, &[u8])], want: &Want, limits: &Limits) -> Result<RunProfile, InputError> {
    let xmls: Vec<&(&str, &[u8])> = files.iter().filter(|f| base(f.0) == "experiment.xml").collect();
    let xml = match xmls[..] {
        [x] => x.1,
        [] => {
            let msg = files.iter().find_map(|f| newer_format(f.0, f.1.get(..16).unwrap_or(f.1)));
            return Err(InputError::new(FIELD, msg.unwrap_or("no experiment.xml: not an HPCToolkit database")));
        }
        _ => {
            return Err(InputError::new(
                FIELD,
                format!("{} files named experiment.xml: one database at a time", xmls.len()),
            ))
        }
    };
    let mut dbs: Vec<(u64, u64, &str, &[u8])> = Vec::new();
    for &(name, bytes) in files.iter().filter(|f| base(f.0).ends_with(".metric-db")) {
        let (r, th) = rank_thread(name).ok_or_else(|| {
            InputError::new(
                FIELD,
                format!(
                    "{}: expected a metric-db name like 1.cpi-000002-000-a8c00270-160445-0.metric-db (rank 2, thread 0)",
                    clip(base(name))
                ),
            )
        })?;
        if dbs.len() >= limits.max_locations {
            return Err(InputError::new(
                FIELD,
                format!("more than {} metric-db files (rank-threads, the limit of locations)", limits.max_locations),
            ));
        }
        dbs.push((r, th, name, bytes));
    }
    if dbs.is_empty() {
        return Err(InputError::new(FIELD, "no .metric-db files: write the database with hpcprof-mpi --metric-db yes"));
    }
    dbs.sort_by_key(|d| (d.0, d.1));
    if let Some(w) = dbs.windows(2).find(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1)) {
        return Err(InputError::new(
            FIELD,
            format!("{} and {} are both rank {}, thread {}", base(w[0].2), base(w[1].2), w[0].0, w[0].1),
        ));
    }
    let t = tree(xml, limits)?;
    // Names as shown: a time converted to seconds says so ("CPUTIME (s)", not "(usec)").
    let mut metrics: Vec<String> = Vec::new();
    for c in &t.columns {
        if !metrics.contains(&c.name) {
            metrics.push(c.name.clone());
        }
    }
    let shown = |n: &str| match ["(usec)", "(msec)", "(nsec)"].iter().find(|u| n.contains(*u)) {
        Some(u) => n.replace(u, "(s)"),
        None => n.to_string(),
    };
    let metric = match &want.metric {
        Some(m) => {
            let m = m.trim();
            let bare = m.strip_suffix("(I)").or_else(|| m.strip_suffix("(E)")).unwrap_or(m).trim_end();
            metrics.iter().find(|n| *n == bare || shown(n) == bare).ok_or_else(|| {
                let names: Vec<String> = metrics.iter().map(|n| format!("\"{}\"", shown(n))).collect();
                InputError::new(FIELD, format!("no metric \"{}\": the database holds {}", clip(m), names.join(", ")))
            })?
        }
        None => metrics.iter().find(|n| n.to_ascii_uppercase().contains("TIME")).unwrap_or(&metrics[0]),
    };
    let col = t.columns.iter().find(|c| &c.name == metric && c.inclusive == want.inclusive).ok_or_else(|| {
        let kind = if want.inclusive { "inclusive" } else { "exclusive" };
        InputError::new(FIELD, format!("metric \"{metric}\" has no {kind} values in this database"))
    })?;
    let k = scale(metric);
    let mut paths: Vec<PathValue> =
        t.paths.iter().map(|p| PathValue { path: p.clone(), total: 0.0, max: 0.0 }).collect();
    let mut sums = vec![0.0; paths.len()];
    for &(_, _, name, bytes) in &dbs {
        sums.fill(0.0);
        values(base(name), bytes, &t, col, &mut sums)?;
        for (p, s) in paths.iter_mut().zip(&sums) {
            p.total += s * k;
            p.max = p.max.max(s * k);
        }
    }
    let distinct = |mut v: Vec<u64>| {
        v.sort_unstable();
        v.dedup();
        v.len() as f64
    };
    let mut globals = t.globals.clone();
    globals.push(("hpctoolkit.ranks".into(), distinct(dbs.iter().map(|d| d.0).collect())));
    globals.push(("hpctoolkit.threads".into(), distinct(dbs.iter().map(|d| d.1).collect())));
    Ok(RunProfile {
        metric: shown(metric),
        metrics: metrics.iter().map(|n| shown(n)).collect(),
        inclusive: want.inclusive,
        paths,
        locations: dbs.len(),
        globals,
    })
}

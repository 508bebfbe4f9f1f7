//! Reader of Caliper's JSON output in the "json-split" layout (what `cali-query -q "... format
//! json-split"` and Caliper's `hatchet-region-profile` write, and Hatchet's `from_caliper`
//! reads), reduced to a [`RunProfile`]: one figure per call path of one metric.
//!
//! # The format (facts from Hatchet's `hatchet/readers/caliper_reader.py`, commit 79c009bd,
//! and the files of its tests; the code is our own)
//! One JSON object:
//! - `"columns"`: the column names; `"column_metadata"`: per column an object whose
//!   `"is_value"` says whether its cells are values (metrics, and `mpi.rank`) or indices into
//!   `"nodes"`, with Caliper's attribute metadata beside it (`"attribute.unit": "sec"`,
//!   `"attribute.alias"`).
//! - `"data"`: the rows, each a list with one cell per column; a cell may be `null`.
//! - `"nodes"`: the trees the non-value columns point into, each node
//!   `{"label": ..., "column": ..., "parent": index}` (no `"parent"`: a root).
//! - The call path of a row is its cell of the column `source.function#callpath.address` (a
//!   sampled call stack) if there is one, else of `path` (annotated regions): a node, whose
//!   labels up to its root are the path. Rows whose path cell is `null` lie outside every
//!   region (Hatchet drops them).
//! - `mpi.rank`, where present, is the row's process; several rows may share a path and a
//!   rank (one per source line or module of a sampled stack) and add up.
//! - Metrics: `sum#time.duration` (exclusive time; Hatchet calls it `time`),
//!   `inclusive#sum#time.duration` (`time (inc)`), a region profile's `time` (with
//!   `"attribute.unit": "sec"`), `count`, and any `min#`, `max#`, `avg#` statistic.
//! - Every other top-level key is the run's metadata (Adiak's `mpi.world.size`, `jobsize`,
//!   `problem_size`, `cali.caliper.version`, ...), numbers often written as text.
//!
//! # Choices
//! - Time in seconds: a column's `"attribute.unit"` (sec, msec, usec, nsec and their short
//!   forms) decides; without one, `time.duration` is in microseconds (Caliper's timer before
//!   its nanosecond `time.duration.ns`, Caliper issue 530; in the CPI test file a row of one
//!   sample, `count` 1, holds about 5000: 5 ms of a 200 Hz sampler, not 5000 s),
//!   `time.duration.ns` in nanoseconds, and any other metric is taken as written. A time
//!   metric of another unit is refused.
//! - The metrics are the value columns other than `mpi.rank` and Hatchet's `Node order`, by
//!   their exclusive name: `inclusive#X` and `X (inc)` are the inclusive values of `X`
//!   (`time.inclusive.duration` of `time.duration`). [`Want::metric`] names one of them (or a
//!   column); `time` also finds the time metric under its Caliper name. By default: `time`,
//!   else `sum#time.duration`, else `sum#avg#sum#time.duration`, else the first metric whose
//!   name holds `time.duration`, else the first.
//! - Inclusive values asked of a metric the file holds only exclusively are summed up the
//!   tree: each row counts for its node and every ancestor, rank by rank (ancestors without
//!   rows of their own then appear as paths). Exclusive values of a metric held only
//!   inclusively are refused (subtracting children is not done).
//! - `min#`, `max#` and `avg#` columns are metrics like any other (their values add up over
//!   rows as well): a file aggregated across ranks has no `mpi.rank` and counts as one
//!   location.
//! - A metric cell that is `null` adds nothing; a negative value, text or `true`/`false` is
//!   refused naming its row and column (JSON has no NaN: Python's `NaN` is a syntax error,
//!   said so). Paths of equal labels merge; an empty label reads `(no label)`.
//! - `globals`: every top-level value that is a finite number or text reading as one, in
//!   order, and `caliper.ranks`, the distinct ranks of the rows, where the file has an
//!   `mpi.rank` column (and no global of that name).
//!
//! Text in, data out: no I/O here.

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::model::input::list::clip;
use crate::model::profile::{Limits, PathValue, RunProfile, Want};
use crate::model::InputError;

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;

/// The field named in errors.
pub const FIELD: &str = "Caliper JSON";

/// The name under which the distinct ranks of the rows join the globals.
pub const RANKS_GLOBAL: &str = "caliper.ranks";

/// The call-path columns, preferred first.
const PATH_COLUMNS: [&str; 2] = ["source.function#callpath.address", "path"];

/// Whether these first bytes look like Caliper's json-split: a JSON object whose first key is
/// `"data"` holding a list of lists (Caliper writes it first), or `"columns"`,
/// `"column_metadata"` or `"nodes"`, or one naming all three of `"data"`, `"columns"` and
/// `"nodes"`. It could also be any JSON table whose first key is `"data"`, a list of rows:
/// [`read`] tells.
pub fn sniff(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let mut i = 0;
    let skip = |i: &mut usize| {
        while head.get(*i).is_some_and(|b| b.is_ascii_whitespace()) {
            *i += 1;
        }
    };
    skip(&mut i);
    if head.get(i) != Some(&b'{') {
        return false;
    }
    i += 1;
    skip(&mut i);
    let rest = &head[i.min(head.len())..];
    let key_is = |k: &[u8]| rest.starts_with(k);
    if key_is(b"\"columns\"") || key_is(b"\"column_metadata\"") || key_is(b"\"nodes\"") {
        return true;
    }
    if key_is(b"\"data\"") {
        let mut j = i + 6;
        skip(&mut j);
        if head.get(j) == Some(&b':') {
            j += 1;
            skip(&mut j);
            if head.get(j) == Some(&b'[') {
                j += 1;
                skip(&mut j);
                return matches!(head.get(j), Some(b'[') | Some(b']') | None);
            }
        }
        return false;
    }
    let has = |k: &[u8]| head.windows(k.len()).any(|w| w == k);
    has(b"\"data\"") && has(b"\"columns\"") && has(b"\"nodes\"")
}

/// One cell of a row, as lean as it can be: what kind, and a number's value.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Cell {
    Null,
    Num(f64),
    Text,
    Bool,
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Cell;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, a node index or null (a cell of a row)")
            }
            fn visit_f64<E>(self, v: f64) -> Result<Cell, E> {
                Ok(Cell::Num(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Cell, E> {
                Ok(Cell::Num(v as f64))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Cell, E> {
                Ok(Cell::Num(v as f64))
            }
            fn visit_str<E>(self, _: &str) -> Result<Cell, E> {
                Ok(Cell::Text)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Cell, E> {
                Ok(Cell::Bool)
            }
            fn visit_unit<E>(self) -> Result<Cell, E> {
                Ok(Cell::Null)
            }
            fn visit_none<E>(self) -> Result<Cell, E> {
                Ok(Cell::Null)
            }
        }
        d.deserialize_any(V)
    }
}

/// A node's label: text, or a number or truth value written as text.
#[derive(Debug, Clone, Default, PartialEq)]
struct Label(String);

impl<'de> Deserialize<'de> for Label {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Label, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Label;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a node's label (text or a number)")
            }
            fn visit_str<E>(self, v: &str) -> Result<Label, E> {
                Ok(Label(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Label, E> {
                Ok(Label(v))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Label, E> {
                Ok(Label(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Label, E> {
                Ok(Label(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Label, E> {
                Ok(Label(v.to_string()))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Label, E> {
                Ok(Label(v.to_string()))
            }
            fn visit_unit<E>(self) -> Result<Label, E> {
                Ok(Label::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// A top-level value: kept when it is a finite number or text reading as one.
struct Global(Option<f64>);

impl<'de> Deserialize<'de> for Global {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Global, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Global;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_f64<E>(self, v: f64) -> Result<Global, E> {
                Ok(Global(Some(v).filter(|v| v.is_finite())))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Global, E> {
                Ok(Global(Some(v as f64)))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Global, E> {
                Ok(Global(Some(v as f64)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Global, E> {
                Ok(Global(v.trim().parse::<f64>().ok().filter(|v| v.is_finite())))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Global, E> {
                Ok(Global(None))
            }
            fn visit_unit<E>(self) -> Result<Global, E> {
                Ok(Global(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Global, A::Error> {
                while s.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Global(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Global, A::Error> {
                while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Global(None))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Debug, serde::Deserialize)]
struct ColumnMeta {
    #[serde(default)]
    is_value: bool,
    #[serde(default, rename = "attribute.unit")]
    unit: Option<String>,
}

#[derive(Debug, serde::Deserialize)]
struct NodeIn {
    #[serde(default)]
    label: Label,
    #[serde(default)]
    column: String,
    #[serde(default)]
    parent: Option<u64>,
}

/// The file as read: its four sections (where given), its numeric globals, and for telling
/// what a file of another kind is, whether it was a list and some of its other keys.
#[derive(Default)]
struct Top {
    data: Option<Vec<Vec<Cell>>>,
    columns: Option<Vec<String>>,
    meta: Option<Vec<ColumnMeta>>,
    nodes: Option<Vec<NodeIn>>,
    globals: Vec<(String, f64)>,
    other_keys: Vec<String>,
    list: bool,
}

impl<'de> Deserialize<'de> for Top {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Top, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Top;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object (Caliper's json-split)")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Top, A::Error> {
                while s.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Top { list: true, ..Top::default() })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Top, A::Error> {
                let mut top = Top::default();
                while let Some(key) = m.next_key::<String>()? {
                    match key.as_str() {
                        "data" => top.data = Some(m.next_value()?),
                        "columns" => top.columns = Some(m.next_value()?),
                        "column_metadata" => top.meta = Some(m.next_value()?),
                        "nodes" => top.nodes = Some(m.next_value()?),
                        _ => {
                            let Global(v) = m.next_value()?;
                            if top.other_keys.len() < 8 {
                                top.other_keys.push(key.clone());
                            }
                            if let Some(v) = v {
                                match top.globals.iter_mut().find(|g| g.0 == key) {
                                    Some(g) => g.1 = v,
                                    None => top.globals.push((key, v)),
                                }
                            }
                        }
                    }
                }
                Ok(top)
            }
        }
        d.deserialize_any(V)
    }
}

/// serde_json's error as ours, at its line and column; a NaN or Infinity (which Python's
/// `json` writes) said so.
fn syntax_error(bytes: &[u8], e: &serde_json::Error) -> InputError {
    let text = e.to_string();
    let message = text.rsplit_once(" at line ").map_or(text.as_str(), |(m, _)| m);
    let (line, column) = (e.line(), e.column());
    let message = if e.is_eof() {
        "the JSON ends early (a file cut short?)".to_string()
    } else if e.is_syntax() && line >= 1 && column >= 1 {
        // The byte serde_json stopped at, and the word there.
        let start: usize = bytes.split(|&b| b == b'\n').take(line - 1).map(|l| l.len() + 1).sum();
        let at = (start + column - 1).min(bytes.len());
        let from = bytes[..at].iter().rposition(|b| !b.is_ascii_alphanumeric() && *b != b'-').map_or(0, |i| i + 1);
        let word = &bytes[from..bytes.len().min(at + 9)];
        if [&b"NaN"[..], b"Infinity", b"-Infinity"].iter().any(|w| word.starts_with(w)) {
            "NaN and Infinity are not JSON numbers (Python's json writes them): expected a number or null".to_string()
        } else {
            format!("{message}: not JSON, or JSON cut or broken here")
        }
    } else {
        message.to_string()
    };
    let e = InputError::new(FIELD, message);
    if line >= 1 {
        e.at(line, Some(column))
    } else {
        e
    }
}

/// What a JSON value that is not json-split looks like.
fn not_split(top: &Top) -> InputError {
    let has = |k: &str| top.other_keys.iter().any(|o| o == k);
    let message = if top.list {
        "a JSON list: Caliper's \"json\" layout (one object per record), not json-split; \
         write it with cali-query's format json-split"
            .to_string()
    } else if has("graph") {
        "an object with a \"graph\": Hatchet's or Thicket's own JSON (GraphFrame.to_json), \
         not Caliper's json-split"
            .to_string()
    } else if has("records") {
        "an object with \"records\": Caliper's \"json\" layout written as an object, not \
         json-split; write it with cali-query's format json-split"
            .to_string()
    } else {
        let missing: Vec<&str> = [
            ("data", top.data.is_none()),
            ("columns", top.columns.is_none()),
            ("column_metadata", top.meta.is_none()),
            ("nodes", top.nodes.is_none()),
        ]
        .iter()
        .filter(|m| m.1)
        .map(|m| m.0)
        .collect();
        let keys: Vec<String> = top.other_keys.iter().take(5).map(|k| format!("\"{}\"", clip(k))).collect();
        format!(
            "no {} key: a Caliper JSON file of a layout this reader does not know, or not \
             Caliper's (json-split has \"data\", \"columns\", \"column_metadata\" and \
             \"nodes\"){}",
            missing.join(", "),
            if keys.is_empty() { String::new() } else { format!("; its keys include {}", keys.join(", ")) }
        )
    };
    InputError::new(FIELD, message)
}

/// `X` for `inclusive#X`, `X (inc)` and `time.inclusive.duration`, with whether it was
/// inclusive; any other name as it is.
fn exclusive_name(column: &str) -> (String, bool) {
    if column.contains("inclusive#") {
        (column.replace("inclusive#", ""), true)
    } else if let Some(base) = column.strip_suffix(" (inc)") {
        (base.to_string(), true)
    } else if column.contains("time.inclusive.duration") {
        (column.replace("time.inclusive.duration", "time.duration"), true)
    } else {
        (column.to_string(), false)
    }
}

fn is_time(metric: &str) -> bool {
    metric == "time" || metric.contains("time.duration")
}

/// Seconds per unit of a column's values, for a time metric (others: 1).
fn seconds_per_unit(column: &str, metric: &str, unit: Option<&str>) -> Result<f64, InputError> {
    let factor = match unit.map(|u| u.trim().to_ascii_lowercase()) {
        Some(u) => match u.as_str() {
            "s" | "sec" | "secs" | "second" | "seconds" => Some(1.0),
            "ms" | "msec" | "millisecond" | "milliseconds" => Some(1e-3),
            "us" | "usec" | "µs" | "μs" | "microsecond" | "microseconds" => Some(1e-6),
            "ns" | "nsec" | "nanosecond" | "nanoseconds" => Some(1e-9),
            _ if is_time(metric) => {
                return Err(InputError::new(
                    FIELD,
                    format!(
                        "the column \"{}\" is in \"{}\", not a time unit this reader knows (sec, msec, usec, nsec)",
                        clip(column),
                        clip(&u)
                    ),
                ))
            }
            _ => None,
        },
        None if column.contains("time.duration.ns") => Some(1e-9),
        None if column.contains("time.duration") || column.contains("time.inclusive.duration") => Some(1e-6),
        None => None,
    };
    Ok(factor.unwrap_or(1.0))
}

/// Reads a json-split file into one figure per call path of the metric `want` names.
pub fn read(bytes: &[u8], want: &Want, limits: &Limits) -> Result<RunProfile, InputError> {
    let top: Top = serde_json::from_slice(bytes).map_err(|e| syntax_error(bytes, &e))?;
    let (Some(data), Some(columns), Some(meta), Some(nodes)) = (&top.data, &top.columns, &top.meta, &top.nodes) else {
        return Err(not_split(&top));
    };
    if columns.len() != meta.len() {
        return Err(InputError::new(
            FIELD,
            format!("{} columns but {} entries of column_metadata: one each", columns.len(), meta.len()),
        ));
    }
    let column = |name: &str| columns.iter().position(|c| c == name);
    let Some(path_col) = PATH_COLUMNS.iter().find_map(|c| column(c)) else {
        let names: Vec<String> = columns.iter().take(8).map(|c| format!("\"{}\"", clip(c))).collect();
        return Err(InputError::new(
            FIELD,
            format!(
                "no call-path column (\"path\" or \"source.function#callpath.address\") among the columns {}",
                names.join(", ")
            ),
        ));
    };
    let rank_col = column("mpi.rank");

    // The metrics: (exclusive name, exclusive column, inclusive column), in order.
    let mut metrics: Vec<(String, Option<usize>, Option<usize>)> = Vec::new();
    for (i, (c, m)) in columns.iter().zip(meta).enumerate() {
        if !m.is_value || Some(i) == rank_col || c == "Node order" {
            continue;
        }
        let (name, inclusive) = exclusive_name(c);
        let k = match metrics.iter().position(|m| m.0 == name) {
            Some(k) => k,
            None => {
                metrics.push((name, None, None));
                metrics.len() - 1
            }
        };
        let slot = if inclusive { &mut metrics[k].2 } else { &mut metrics[k].1 };
        slot.get_or_insert(i);
    }
    let names: Vec<String> = metrics.iter().map(|m| m.0.clone()).collect();
    if metrics.is_empty() {
        return Err(InputError::new(FIELD, "no metric: no column is a value (is_value) other than mpi.rank"));
    }
    let find = |n: &str| metrics.iter().position(|m| m.0 == n);
    let default = || {
        ["time", "sum#time.duration", "sum#avg#sum#time.duration"]
            .iter()
            .find_map(|n| find(n))
            .or_else(|| metrics.iter().position(|m| m.0.contains("time.duration")))
    };
    let k = match want.metric.as_deref() {
        None => default().unwrap_or(0),
        Some(asked) => {
            let by_column = || column(asked).and_then(|c| find(&exclusive_name(&columns[c]).0));
            match find(asked).or_else(by_column).or_else(|| if asked == "time" { default() } else { None }) {
                Some(k) => k,
                None => {
                    let list: Vec<String> = names.iter().map(|n| format!("\"{}\"", clip(n))).collect();
                    return Err(InputError::new(
                        FIELD,
                        format!("no metric \"{}\" in this file; it holds {}", clip(asked), list.join(", ")),
                    ));
                }
            }
        }
    };
    let (name, exclusive, inclusive) = &metrics[k];
    // The column read, and whether its values are summed up the tree.
    let (col, up_the_tree) = match (want.inclusive, exclusive, inclusive) {
        (true, _, Some(c)) => (*c, false),
        (true, Some(c), None) => (*c, true),
        (false, Some(c), _) => (*c, false),
        (_, None, _) => {
            return Err(InputError::new(
                FIELD,
                format!("the metric \"{}\" is only inclusive here: ask for inclusive values", clip(name)),
            ))
        }
    };
    let factor = seconds_per_unit(&columns[col], name, meta[col].unit.as_deref())?;

    // Parents in range and no cycle.
    let n = nodes.len();
    let mut parent: Vec<Option<usize>> = Vec::with_capacity(n);
    for (i, node) in nodes.iter().enumerate() {
        match node.parent {
            None => parent.push(None),
            // Compared as u64: on wasm32 a usize would cut a large index short.
            Some(p) if p < n as u64 => parent.push(Some(p as usize)),
            Some(p) => {
                return Err(InputError::new(
                    FIELD,
                    format!("node {i}: its parent {p} is not a node (there are {n}, from 0)"),
                ))
            }
        }
    }
    let mut state = vec![0u8; n]; // 0 not seen, 1 on the chain being walked, 2 fine
    let mut chain: Vec<usize> = Vec::new();
    for i in 0..n {
        let mut at = Some(i);
        while let Some(a) = at {
            match state[a] {
                2 => break,
                1 => return Err(InputError::new(FIELD, format!("node {a}: its parents lead back to it (a cycle)"))),
                _ => {
                    state[a] = 1;
                    chain.push(a);
                    at = parent[a];
                }
            }
        }
        for a in chain.drain(..) {
            state[a] = 2;
        }
    }

    let cell_name = |c: usize| clip(&columns[c]);
    let found = |cell: Cell| match cell {
        Cell::Null => "null".to_string(),
        Cell::Num(v) => v.to_string(),
        Cell::Text => "text".to_string(),
        Cell::Bool => "true or false".to_string(),
    };
    let mut out =
        RunProfile { metrics: names.clone(), metric: name.clone(), inclusive: want.inclusive, ..Default::default() };
    let mut slot_of_path: HashMap<String, usize> = HashMap::new();
    let mut slot_of_node: Vec<Option<usize>> = vec![None; n];
    let mut per_rank: HashMap<(usize, u64), f64> = HashMap::new();
    let mut ranks: HashSet<u64> = HashSet::new();
    let mut up: Vec<usize> = Vec::new();
    for (r, row) in data.iter().enumerate() {
        let bad =
            |c: usize, m: String| InputError::new(FIELD, format!("row {}, column \"{}\": {m}", r + 1, cell_name(c)));
        if row.len() != columns.len() {
            return Err(InputError::new(
                FIELD,
                format!("row {} has {} cells but there are {} columns", r + 1, row.len(), columns.len()),
            ));
        }
        let node = match row[path_col] {
            Cell::Null => continue,
            Cell::Num(v) if v >= 0.0 && v.fract() == 0.0 && v < n as f64 => v as usize,
            c => {
                return Err(bad(path_col, format!("expected a node index, 0 to {}, found {}", n as i64 - 1, found(c))))
            }
        };
        if nodes[node].column != columns[path_col] {
            return Err(bad(
                path_col,
                format!("node {node} is a node of the column \"{}\", not of this one", clip(&nodes[node].column)),
            ));
        }
        let rank = match rank_col.map(|c| (c, row[c])) {
            None => 0,
            Some((_, Cell::Num(v))) if v >= 0.0 && v.fract() == 0.0 && v < 1e15 => v as u64,
            Some((c, cell)) => {
                return Err(bad(c, format!("expected a rank (a whole number from 0), found {}", found(cell))))
            }
        };
        let value = match row[col] {
            Cell::Null => continue,
            Cell::Num(v) if v >= 0.0 => v * factor,
            Cell::Num(v) => return Err(bad(col, format!("a negative value, {v}: expected one from 0"))),
            c => return Err(bad(col, format!("expected a number or null, found {}", found(c)))),
        };
        if ranks.insert(rank) && ranks.len() > limits.max_locations {
            return Err(InputError::new(
                FIELD,
                format!("more than {} ranks (the limit of locations of one run)", limits.max_locations),
            ));
        }
        // The nodes the value counts for: its own, and up the tree its ancestors, root first.
        up.clear();
        up.push(node);
        if up_the_tree {
            let mut a = parent[node];
            while let Some(p) = a {
                up.push(p);
                a = parent[p];
            }
        }
        for &x in up.iter().rev() {
            let slot = match slot_of_node[x] {
                Some(s) => s,
                None => {
                    let path = path_of(nodes, &parent, x);
                    let s = match slot_of_path.get(&path) {
                        Some(&s) => s,
                        None => {
                            if out.paths.len() >= limits.max_paths {
                                return Err(InputError::new(
                                    FIELD,
                                    format!(
                                        "more than {} call paths (the limit of paths of one run)",
                                        limits.max_paths
                                    ),
                                ));
                            }
                            slot_of_path.insert(path.clone(), out.paths.len());
                            out.paths.push(PathValue { path, total: 0.0, max: 0.0 });
                            out.paths.len() - 1
                        }
                    };
                    slot_of_node[x] = Some(s);
                    s
                }
            };
            let p = &mut out.paths[slot];
            p.total += value;
            let t = per_rank.entry((slot, rank)).or_insert(0.0);
            *t += value;
            p.max = p.max.max(*t);
        }
    }
    if out.paths.is_empty() {
        return Err(InputError::new(
            FIELD,
            format!("no row holds a value of \"{}\" on a call path (of {} rows)", clip(name), data.len()),
        ));
    }
    if let Some(p) = out.paths.iter().find(|p| !p.total.is_finite()) {
        return Err(InputError::new(
            FIELD,
            format!("the values of \"{}\" on {} add up past the largest number", clip(name), clip(&p.path)),
        ));
    }
    out.locations = ranks.len().max(1);
    out.globals = top.globals.clone();
    if rank_col.is_some() && !out.globals.iter().any(|g| g.0 == RANKS_GLOBAL) {
        out.globals.push((RANKS_GLOBAL.to_string(), ranks.len() as f64));
    }
    Ok(out)
}

/// A node's labels from its root, joined with `->` (the parents are known to end).
fn path_of(nodes: &[NodeIn], parent: &[Option<usize>], node: usize) -> String {
    let mut labels: Vec<&str> = Vec::new();
    let mut at = Some(node);
    while let Some(a) = at {
        let l = nodes[a].label.0.as_str();
        labels.push(if l.is_empty() { "(no label)" } else { l });
        at = parent[a];
    }
    labels.reverse();
    labels.join("->")
}

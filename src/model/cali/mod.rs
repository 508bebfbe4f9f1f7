//! Reader of Caliper's `.cali` text format (Caliper 2.x, github.com/LLNL/Caliper), as its
//! aggregated profiles are written (`spot`, `runtime-report` and `cali-query -q "... format
//! cali"` output): the region tree, each region's metrics and the run's globals (Adiak's
//! metadata: `mpi.world.size`, `jobsize`, `problem_size`, ...).
//!
//! # The format (facts from Caliper's `CaliReader` and its Python `caliper-reader`; the code is
//! our own)
//! A file is a list of records, one a line: comma-separated entries `key=value=value...`, with
//! `\` escaping the next character (`\,`, `\=`, `\\`; `\n` is a newline).
//! - `__rec=node,id=N,attr=A,data=TEXT[,parent=P]` adds node N of the metadata tree: the value
//!   TEXT of attribute A, below node P. A node whose attribute is `cali.attribute.name` (id 8)
//!   defines an attribute named TEXT; its ancestors give the attribute's type (a node of
//!   `cali.attribute.type`, id 9: the bootstrap nodes 0–7 and 11 are the types), its properties
//!   (`cali.attribute.prop`, id 10: a bit set, 128 hidden, 256 nested, 512 global) and any
//!   other metadata (`attribute.alias`, `attribute.unit`). Nodes 0–11 are defined by the format
//!   and are not in the file.
//! - `__rec=ctx,ref=N=M...,attr=A=B...,data=X=Y...` is a snapshot (here: one aggregated entry):
//!   its context is the nodes N, M with their ancestors; its values are X of attribute A, Y of
//!   B, .... A region's path is the values of the nested attributes (`region`, `function`,
//!   `loop`, `mpi.function`, ...) on its context's chain, from the root.
//! - `__rec=globals,ref=...[,attr=...,data=...]`: the run's metadata, as a context.
//!
//! # Choices
//! - A parent must be defined before its child and a node id only once (Caliper writes them
//!   so): a chain is then never a cycle. Records of other kinds are passed over.
//! - A value of a numeric attribute (int, uint, double, addr) is read as a finite number, or
//!   refused naming its line and column; a value of another type is kept as text, among the
//!   record's keys.
//! - [`Profile::regions`] reduces the records of a metric to one figure per call path: the
//!   total over processes and the largest process (see there). Records of a `spot.channel`
//!   other than `regionprofile` (Spot's time series) and records outside every region are
//!   left out.
//!
//! Text in, data out: no I/O here.

use std::collections::HashMap;

use crate::model::input::list::clip;
use crate::model::InputError;

pub mod json;

#[cfg(test)]
pub(crate) mod tests;

/// The field named in errors.
pub const FIELD: &str = "Caliper profile";

/// What one profile may hold; past a limit the reading stops naming it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    pub max_bytes: usize,
    pub max_nodes: usize,
    pub max_records: usize,
}

/// The limits a profile is read within by default.
pub const LIMITS: Limits = Limits { max_bytes: 1 << 30, max_nodes: 4_000_000, max_records: 4_000_000 };

/// Property bits of an attribute (Caliper's `cali_attr_properties`).
const HIDDEN: u64 = 128;
const NESTED: u64 = 256;
const GLOBAL: u64 = 512;

/// An attribute of the profile.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    pub name: String,
    /// Caliper's type name: int, uint, double, string, bool, addr, ...
    pub type_name: String,
    pub prop: u64,
    pub alias: Option<String>,
    pub unit: Option<String>,
}

impl Attribute {
    pub fn nested(&self) -> bool {
        self.prop & NESTED != 0
    }
    pub fn hidden(&self) -> bool {
        self.prop & HIDDEN != 0
    }
    pub fn global(&self) -> bool {
        self.prop & GLOBAL != 0
    }
    /// Whether its values are numbers.
    pub fn numeric(&self) -> bool {
        matches!(self.type_name.as_str(), "int" | "uint" | "double" | "addr")
    }
}

/// One snapshot record (`__rec=ctx`).
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Its line in the file (1-based).
    pub line: usize,
    /// The values of the nested attributes of its context, from the root.
    pub path: Vec<String>,
    /// The other attributes of its context and its values of non-numeric attributes:
    /// (attribute index, text).
    pub keys: Vec<(usize, String)>,
    /// Its values of numeric attributes: (attribute index, value).
    pub values: Vec<(usize, f64)>,
}

/// A `.cali` file read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Profile {
    pub attributes: Vec<Attribute>,
    pub records: Vec<Record>,
    /// The globals (attribute name, value as written), from the root of their chain; hidden
    /// attributes left out.
    pub globals: Vec<(String, String)>,
}

impl Profile {
    pub fn attribute(&self, name: &str) -> Option<usize> {
        self.attributes.iter().position(|a| a.name == name)
    }

    /// A global's value as written (the last, if it is given twice).
    pub fn global(&self, name: &str) -> Option<&str> {
        self.globals.iter().rev().find(|g| g.0 == name).map(|g| g.1.as_str())
    }

    /// A global that reads as a finite number.
    pub fn global_number(&self, name: &str) -> Option<f64> {
        self.global(name).and_then(|v| v.trim().parse::<f64>().ok()).filter(|v| v.is_finite())
    }

    /// The globals that read as finite numbers, in order (those a run's parameters may come
    /// from).
    pub fn numeric_globals(&self) -> Vec<(String, f64)> {
        let mut out: Vec<(String, f64)> = Vec::new();
        for (k, _) in &self.globals {
            if out.iter().any(|o| &o.0 == k) {
                continue;
            }
            if let Some(v) = self.global_number(k) {
                out.push((k.clone(), v));
            }
        }
        out
    }

    /// The number of processes: the global `mpi.world.size`, else `jobsize`, else the ranks
    /// seen in the records (`mpi.rank`), else 1.
    pub fn processes(&self) -> usize {
        for g in ["mpi.world.size", "jobsize"] {
            if let Some(v) = self.global_number(g).filter(|v| *v >= 1.0 && *v <= u32::MAX as f64) {
                return v as usize;
            }
        }
        match self.attribute("mpi.rank") {
            Some(a) => {
                let mut ranks: Vec<String> = self.records.iter().filter_map(|r| rank_of(r, a)).collect();
                ranks.sort();
                ranks.dedup();
                ranks.len().max(1)
            }
            None => 1,
        }
    }

    /// The metrics of the records, as [`Metric`]s: each numeric attribute's name with its
    /// cross-process statistic (`min#`, `max#`, `avg#`, `sum#`, ...) taken off, and `inclusive`
    /// apart, in the order first seen.
    pub fn metrics(&self) -> Vec<Metric> {
        let mut out: Vec<Metric> = Vec::new();
        let mut seen = vec![false; self.attributes.len()];
        for r in &self.records {
            for &(a, _) in &r.values {
                if std::mem::replace(&mut seen[a], true) {
                    continue;
                }
                let attr = &self.attributes[a];
                if attr.hidden() || attr.name == "mpi.rank" {
                    continue;
                }
                let (_, base) = split_statistic(&attr.name);
                let (name, inclusive) = kind_of(base);
                match out.iter_mut().find(|m| m.name == name) {
                    Some(m) => {
                        m.inclusive |= inclusive;
                        m.exclusive |= !inclusive;
                    }
                    None => out.push(Metric { name, inclusive, exclusive: !inclusive }),
                }
            }
        }
        out
    }

    /// Per call path (region names joined with `->`, in the order first seen): the total of
    /// `metric` over processes and its largest value on one process, inclusive or exclusive
    /// as asked (the file must hold that kind: see [`Profile::metrics`]).
    ///
    /// A record's total is its `sum#` value, else `avg.sum#`, else `avg#` × `avg.count#`, else
    /// its value of the bare metric; its largest is its `max#` value, else its total. Records of
    /// one call path add up their totals; their largest is the largest record's, or, where the
    /// records carry `mpi.rank` (one record per rank), the largest of the ranks' totals.
    pub fn regions(&self, metric: &str, inclusive: bool) -> Result<Vec<RegionValue>, InputError> {
        // Which attribute holds which statistic of the metric.
        let mut slots: [Option<usize>; 6] = [None; 6];
        for (i, a) in self.attributes.iter().enumerate() {
            let (stat, base) = split_statistic(&a.name);
            let (name, inc) = kind_of(base);
            if name == metric && inc == inclusive {
                let slot = match stat {
                    Some("sum") => 0,
                    Some("avg.sum") => 1,
                    Some("avg") => 2,
                    Some("avg.count") => 3,
                    Some("max") => 4,
                    None => 5,
                    Some(_) => continue,
                };
                slots[slot].get_or_insert(i);
            }
        }
        let [sum, avg_sum, avg, avg_count, max, bare] = slots;
        if [sum, avg_sum, avg, bare].iter().all(Option::is_none) {
            return Err(InputError::new(
                FIELD,
                format!(
                    "no {} values of the metric \"{}\" (a sum#, avg# or plain value)",
                    if inclusive { "inclusive" } else { "exclusive" },
                    clip(metric)
                ),
            ));
        }
        let channel = self.attribute("spot.channel");
        let rank = self.attribute("mpi.rank");
        let value = |r: &Record, a: Option<usize>| a.and_then(|a| r.values.iter().find(|v| v.0 == a).map(|v| v.1));
        let mut out: Vec<RegionValue> = Vec::new();
        let mut at: HashMap<String, usize> = HashMap::new();
        // Per (call path, rank): the rank's total so far.
        let mut per_rank: HashMap<(usize, String), f64> = HashMap::new();
        for r in &self.records {
            if r.path.is_empty() {
                continue;
            }
            if let Some(c) = channel {
                if r.keys.iter().any(|k| k.0 == c && k.1 != "regionprofile") {
                    continue;
                }
            }
            let total =
                value(r, sum).or_else(|| value(r, avg_sum)).or_else(|| match (value(r, avg), value(r, avg_count)) {
                    (Some(a), Some(n)) => Some(a * n),
                    _ => value(r, bare),
                });
            let Some(total) = total else { continue };
            let largest = value(r, max).unwrap_or(total);
            let path = r.path.join("->");
            let k = match at.get(&path) {
                Some(&k) => k,
                None => {
                    at.insert(path.clone(), out.len());
                    out.push(RegionValue { path, total: 0.0, max: 0.0 });
                    out.len() - 1
                }
            };
            let e = &mut out[k];
            e.total += total;
            match rank.and_then(|a| rank_of(r, a)) {
                Some(rk) => {
                    let t = per_rank.entry((k, rk)).or_insert(0.0);
                    *t += total;
                    e.max = e.max.max(*t);
                }
                None => e.max = e.max.max(largest),
            }
        }
        Ok(out)
    }
}

/// A record's rank, as text (an `mpi.rank` key or value).
fn rank_of(r: &Record, a: usize) -> Option<String> {
    r.keys
        .iter()
        .find(|k| k.0 == a)
        .map(|k| k.1.clone())
        .or_else(|| r.values.iter().find(|v| v.0 == a).map(|v| v.1.to_string()))
}

/// A metric of a profile: its name without the cross-process statistic, and which kinds the
/// file holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    pub name: String,
    pub inclusive: bool,
    pub exclusive: bool,
}

/// One call path's figures in a profile.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionValue {
    pub path: String,
    /// The total over processes.
    pub total: f64,
    /// The largest value on one process.
    pub max: f64,
}

/// "max#inclusive#sum#time.duration" → (Some("max"), "inclusive#sum#time.duration");
/// "sum#time.duration" → (Some("sum"), "time.duration"); a name without a known statistic
/// is given whole.
fn split_statistic(name: &str) -> (Option<&str>, &str) {
    match name.split_once('#') {
        Some((s, rest)) if matches!(s, "min" | "max" | "avg" | "sum" | "avg.sum" | "avg.count" | "count") => {
            (Some(s), rest)
        }
        _ => (None, name),
    }
}

/// "inclusive#sum#time.duration" → ("sum#time.duration", true); Caliper's older
/// "time.inclusive.duration" → ("time.duration", true).
fn kind_of(base: &str) -> (String, bool) {
    if let Some(rest) = base.strip_prefix("inclusive#") {
        (rest.to_string(), true)
    } else if base.contains("time.inclusive.duration") {
        (base.replace("time.inclusive.duration", "time.duration"), true)
    } else {
        (base.to_string(), false)
    }
}

/// A node of the metadata tree.
struct Node {
    /// Its attribute (index into the attributes).
    attr: usize,
    data: String,
    parent: Option<usize>,
    /// The nearest ancestor whose attribute is nested.
    path_up: Option<usize>,
    /// The nearest ancestor whose attribute is neither nested nor hidden.
    key_up: Option<usize>,
    /// The attribute this node defines, if its attribute is `cali.attribute.name`.
    defines: Option<usize>,
    /// What the chain from this node up says of an attribute defined below it.
    prop: Option<u64>,
    type_node: Option<usize>,
    alias: Option<usize>,
    unit: Option<usize>,
}

/// The bootstrap attributes' indices.
const NAME_ATTR: usize = 0;
const TYPE_ATTR: usize = 1;
const PROP_ATTR: usize = 2;

struct Reader {
    nodes: Vec<Node>,
    ids: HashMap<u64, usize>,
    attributes: Vec<Attribute>,
    alias_attr: Option<usize>,
    unit_attr: Option<usize>,
}

/// A value of a record's entry, unescaped, with the byte of the line where it starts.
type Token = (String, usize);

/// One entry of a record: its key and its values.
struct Entry {
    key: String,
    values: Vec<Token>,
}

/// Splits a line into its entries, unescaping; a `\` at the end of the line is refused (its
/// byte).
fn entries(line: &str) -> Result<Vec<Entry>, usize> {
    let mut out: Vec<Entry> = Vec::new();
    let mut parts: Vec<(String, usize)> = Vec::new();
    let mut cur = String::new();
    let mut start = 0;
    let mut chars = line.char_indices();
    let close = |parts: &mut Vec<(String, usize)>, out: &mut Vec<Entry>| {
        let mut it = std::mem::take(parts).into_iter();
        if let Some((key, _)) = it.next() {
            out.push(Entry { key, values: it.collect() });
        }
    };
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, 'n')) => cur.push('\n'),
                Some((_, e)) => cur.push(e),
                None => return Err(i),
            },
            '=' => {
                parts.push((std::mem::take(&mut cur), start));
                start = i + 1;
            }
            ',' => {
                parts.push((std::mem::take(&mut cur), start));
                close(&mut parts, &mut out);
                start = i + 1;
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() || !parts.is_empty() {
        parts.push((cur, start));
        close(&mut parts, &mut out);
    }
    Ok(out)
}

/// Reads a `.cali` file as one run of the Bottlenecks calculator: the metric asked (else the
/// first whose name holds "time", else the first), inclusive where asked or where the file
/// holds inclusive values only, a figure per call path, the processes, and the numeric
/// globals (where the run's parameters come from).
pub fn read_run(
    bytes: &[u8],
    want: &crate::model::profile::Want,
    limits: &Limits,
) -> Result<crate::model::profile::RunProfile, InputError> {
    use crate::model::profile::{PathValue, RunProfile};
    let p = read(bytes, limits)?;
    let metrics = p.metrics();
    let names = || metrics.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", ");
    let found = match &want.metric {
        Some(w) => metrics.iter().find(|m| &m.name == w),
        None => metrics.iter().find(|m| m.name.contains("time")).or(metrics.first()),
    };
    let m = found.ok_or_else(|| match &want.metric {
        Some(w) => InputError::new(FIELD, format!("no metric \"{}\"; the profile has {}", clip(w), names())),
        None => InputError::new(FIELD, "the profile has no metric (no numeric values in its records)"),
    })?;
    // The kind the file holds decides when it holds one: Caliper's aggregated profiles hold
    // inclusive or exclusive times, and the other cannot be read off the slowest process.
    if want.inclusive && !m.inclusive {
        return Err(InputError::new(
            FIELD,
            format!("the metric \"{}\" holds exclusive values only, so --inclusive cannot be read", clip(&m.name)),
        ));
    }
    let inclusive = m.inclusive && (want.inclusive || !m.exclusive);
    let paths = p
        .regions(&m.name, inclusive)?
        .into_iter()
        .map(|r| PathValue { path: r.path, total: r.total, max: r.max })
        .collect();
    Ok(RunProfile {
        metrics: metrics.iter().map(|m| m.name.clone()).collect(),
        metric: m.name.clone(),
        inclusive,
        paths,
        locations: p.processes(),
        globals: p.numeric_globals(),
    })
}

/// Reads a `.cali` file.
pub fn read(bytes: &[u8], limits: &Limits) -> Result<Profile, InputError> {
    if bytes.len() > limits.max_bytes {
        return Err(InputError::new(
            FIELD,
            format!("{} bytes is more than the {} MB of one profile read", bytes.len(), limits.max_bytes >> 20),
        ));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let before = &bytes[..e.valid_up_to()];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
            return Err(
                InputError::new(FIELD, "a byte that is not UTF-8 text: not a .cali file").at(line, Some(column))
            );
        }
    };
    let mut r = Reader::new();
    let mut profile = Profile::default();
    for (k, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            continue;
        }
        let n = k + 1;
        let col = |byte: usize| line[..byte.min(line.len())].chars().count() + 1;
        let fail = |byte: usize, m: String| InputError::new(FIELD, m).at(n, Some(col(byte)));
        let es = entries(line)
            .map_err(|b| fail(b, "a '\\' at the end of the line escapes nothing (a record cut short?)".into()))?;
        let kind = es.iter().find(|e| e.key == "__rec").and_then(|e| e.values.first());
        let Some((kind, _)) = kind else {
            return Err(fail(0, format!("expected a record starting __rec=, found \"{}\"", clip(line))));
        };
        match kind.as_str() {
            "node" => {
                if r.nodes.len() >= limits.max_nodes {
                    return Err(fail(
                        0,
                        format!("more than {} nodes (the limit of nodes a profile)", limits.max_nodes),
                    ));
                }
                r.node(&es).map_err(|(b, m)| fail(b, m))?;
            }
            "ctx" => {
                if profile.records.len() >= limits.max_records {
                    return Err(fail(
                        0,
                        format!("more than {} records (the limit of records a profile)", limits.max_records),
                    ));
                }
                let rec = r.record(&es, n).map_err(|(b, m)| fail(b, m))?;
                profile.records.push(rec);
            }
            "globals" => profile.globals = r.globals(&es).map_err(|(b, m)| fail(b, m))?,
            _ => {}
        }
    }
    if r.nodes.len() == 12 && profile.records.is_empty() && profile.globals.is_empty() {
        return Err(InputError::new(FIELD, "no Caliper records (__rec=node, ctx or globals) found"));
    }
    profile.attributes = r.attributes;
    Ok(profile)
}

/// A reader's error: the byte in the line where the problem is, and what it is.
type At = (usize, String);

fn one<'a>(es: &'a [Entry], key: &str) -> Option<&'a (String, usize)> {
    es.iter().find(|e| e.key == key).and_then(|e| e.values.first())
}

fn list<'a>(es: &'a [Entry], key: &str) -> &'a [(String, usize)] {
    es.iter().find(|e| e.key == key).map_or(&[], |e| e.values.as_slice())
}

fn id_of((text, at): &(String, usize), what: &str) -> Result<u64, At> {
    text.parse::<u64>().map_err(|_| (*at, format!("expected {what} (a whole number), found \"{}\"", clip(text))))
}

impl Reader {
    fn new() -> Reader {
        let mut r = Reader {
            nodes: Vec::new(),
            ids: HashMap::new(),
            attributes: Vec::new(),
            alias_attr: None,
            unit_attr: None,
        };
        let types = ["usr", "int", "uint", "string", "addr", "double", "bool", "type"];
        let attr = |name: &str, type_name: &str| Attribute {
            name: name.into(),
            type_name: type_name.into(),
            prop: 0,
            alias: None,
            unit: None,
        };
        r.attributes = vec![
            attr("cali.attribute.name", "string"),
            attr("cali.attribute.type", "type"),
            attr("cali.attribute.prop", "int"),
        ];
        let bare = |attr: usize, data: &str, parent: Option<usize>| Node {
            attr,
            data: data.into(),
            parent,
            path_up: None,
            key_up: None,
            defines: None,
            prop: None,
            type_node: None,
            alias: None,
            unit: None,
        };
        // Nodes 0–7: the types; 8–10: the three attributes above; 11: the type ptr.
        for (i, t) in types.iter().enumerate() {
            r.nodes.push(Node { type_node: Some(i), ..bare(TYPE_ATTR, t, None) });
        }
        for (k, parent) in [(NAME_ATTR, 3), (TYPE_ATTR, 7), (PROP_ATTR, 1)] {
            let name = r.attributes[k].name.clone();
            r.nodes.push(Node { defines: Some(k), type_node: Some(parent), ..bare(NAME_ATTR, &name, Some(parent)) });
        }
        r.nodes.push(Node { type_node: Some(11), ..bare(TYPE_ATTR, "ptr", None) });
        for i in 0..12 {
            r.ids.insert(i as u64, i);
        }
        r
    }

    fn node_at(&self, v: &(String, usize), what: &str) -> Result<usize, At> {
        let id = id_of(v, what)?;
        self.ids.get(&id).copied().ok_or_else(|| (v.1, format!("{what} {id} is not a node defined above")))
    }

    fn attribute_at(&self, v: &(String, usize)) -> Result<usize, At> {
        let n = self.node_at(v, "attribute")?;
        self.nodes[n].defines.ok_or_else(|| (v.1, format!("node {} is not an attribute", v.0)))
    }

    fn node(&mut self, es: &[Entry]) -> Result<(), At> {
        let id_v = one(es, "id").ok_or((0, "a node record without id=".to_string()))?;
        let id = id_of(id_v, "a node id")?;
        if self.ids.contains_key(&id) {
            return Err((id_v.1, format!("node {id} is defined twice")));
        }
        let attr_v = one(es, "attr").ok_or((0, "a node record without attr=".to_string()))?;
        let attr = self.attribute_at(attr_v)?;
        let data = one(es, "data").map(|d| d.0.clone()).unwrap_or_default();
        let parent = one(es, "parent").map(|p| self.node_at(p, "parent")).transpose()?;
        let k = self.nodes.len();
        let (mut path_up, mut key_up, mut prop, mut type_node, mut alias, mut unit) =
            (None, None, None, None, None, None);
        if let Some(p) = parent {
            let pn = &self.nodes[p];
            let pa = &self.attributes[pn.attr];
            path_up = if pa.nested() { Some(p) } else { pn.path_up };
            key_up = if !pa.nested() && !pa.hidden() { Some(p) } else { pn.key_up };
            (prop, type_node, alias, unit) = (pn.prop, pn.type_node, pn.alias, pn.unit);
        }
        match attr {
            PROP_ATTR => {
                let (text, at) = one(es, "data").cloned().unwrap_or_default();
                prop = Some(text.parse::<u64>().map_err(|_| {
                    (at, format!("expected an attribute's properties (a whole number), found \"{}\"", clip(&text)))
                })?);
            }
            TYPE_ATTR => type_node = Some(k),
            a if Some(a) == self.alias_attr => alias = Some(k),
            a if Some(a) == self.unit_attr => unit = Some(k),
            _ => {}
        }
        let defines = if attr == NAME_ATTR {
            let node_text = |n: Option<usize>| n.map(|n: usize| self.nodes[n].data.clone());
            let a = Attribute {
                name: data.clone(),
                type_name: node_text(type_node).unwrap_or_else(|| "inv".into()),
                prop: prop.unwrap_or(0),
                alias: node_text(alias),
                unit: node_text(unit),
            };
            let i = self.attributes.len();
            match data.as_str() {
                "attribute.alias" => self.alias_attr = Some(i),
                "attribute.unit" => self.unit_attr = Some(i),
                _ => {}
            }
            self.attributes.push(a);
            Some(i)
        } else {
            None
        };
        self.ids.insert(id, k);
        self.nodes.push(Node { attr, data, parent, path_up, key_up, defines, prop, type_node, alias, unit });
        Ok(())
    }

    /// The record's immediate values: (attribute, value text with its byte).
    fn immediates<'a>(&self, es: &'a [Entry]) -> Result<Vec<(usize, &'a Token)>, At> {
        let attrs = list(es, "attr");
        let data = list(es, "data");
        if attrs.len() != data.len() {
            let at = es.iter().find(|e| e.key == "data").and_then(|e| e.values.first()).map_or(0, |d| d.1);
            return Err((at, format!("{} attributes but {} values: a record cut short?", attrs.len(), data.len())));
        }
        attrs.iter().zip(data).map(|(a, d)| Ok((self.attribute_at(a)?, d))).collect()
    }

    fn record(&self, es: &[Entry], line: usize) -> Result<Record, At> {
        let mut rec = Record { line, path: Vec::new(), keys: Vec::new(), values: Vec::new() };
        for v in list(es, "ref") {
            let n = self.node_at(v, "the context node")?;
            let node = &self.nodes[n];
            let a = &self.attributes[node.attr];
            let mut up = if a.nested() { Some(n) } else { node.path_up };
            let mut path = Vec::new();
            while let Some(p) = up {
                path.push(self.nodes[p].data.clone());
                up = self.nodes[p].path_up;
            }
            if !path.is_empty() {
                path.reverse();
                rec.path = path;
            }
            let mut up = if !a.nested() && !a.hidden() { Some(n) } else { node.key_up };
            let first = rec.keys.len();
            while let Some(p) = up {
                rec.keys.push((self.nodes[p].attr, self.nodes[p].data.clone()));
                up = self.nodes[p].key_up;
            }
            rec.keys[first..].reverse();
        }
        for (a, (text, at)) in self.immediates(es)? {
            let attr = &self.attributes[a];
            if attr.numeric() {
                let v = text.trim().parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| {
                    (*at, format!("expected a number for {}, found \"{}\"", clip(&attr.name), clip(text)))
                })?;
                rec.values.push((a, v));
            } else {
                rec.keys.push((a, text.clone()));
            }
        }
        Ok(rec)
    }

    fn globals(&self, es: &[Entry]) -> Result<Vec<(String, String)>, At> {
        let mut out = Vec::new();
        for v in list(es, "ref") {
            let mut up = Some(self.node_at(v, "the globals' node")?);
            let first = out.len();
            while let Some(p) = up {
                let node = &self.nodes[p];
                let a = &self.attributes[node.attr];
                if !a.hidden() {
                    out.push((a.name.clone(), node.data.clone()));
                }
                up = node.parent;
            }
            out[first..].reverse();
        }
        for (a, (text, _)) in self.immediates(es)? {
            if !self.attributes[a].hidden() {
                out.push((self.attributes[a].name.clone(), text.clone()));
            }
        }
        Ok(out)
    }
}

//! A cluster for the catalog from what a machine says about its nodes, pasted as printed:
//! Slurm's `scontrol show node` (records of `Key=Value` pairs, each opening with `NodeName=`,
//! several lines each and a blank line between, or `scontrol -o show node`'s one line each),
//! `sinfo -N -l` (one row per node and partition under its header) or Linux's `lscpu` (one
//! node).
//!
//! Read per node (units as the catalog's, `catalog`):
//! - cores: physical cores. scontrol: CoresPerSocket × Sockets (Sockets counts the node's
//!   sockets; where Boards > 1 and only Boards × Sockets × CoresPerSocket × ThreadsPerCore
//!   gives CPUTot, Sockets was one board's, as slurm.conf reads Sockets beside Boards);
//!   sinfo: S × C of its S:C:T column; lscpu: Core(s) per socket × Socket(s). CPUTot, CPUS
//!   and CPU(s) count hardware threads: they serve only when the layout is missing, divided
//!   by the threads per core;
//! - threads per core: ThreadsPerCore, T of S:C:T, Thread(s) per core (1 when not given);
//! - memory per node, GB (1 GB = 1024 MiB): scontrol's RealMemory and sinfo's MEMORY are MiB;
//!   1 MiB is Slurm's RealMemory when none is configured and, like lscpu (which gives none),
//!   reads as 0, unknown;
//! - GPUs per node: the counts of the `gpu` entries of scontrol's Gres (`gpu:a100:4(S:0-1)`)
//!   or sinfo's GRES column, when it has one;
//! - the CPU model: lscpu's Model name (Slurm's reports name none).
//!
//! Partitions: scontrol's `Partitions=a,b`, sinfo's PARTITION (the default partition's `*`
//! dropped); a node in several partitions counts in each, a node named twice in one partition
//! once. A node of no partition is put in [`NO_PARTITION`].
//!
//! Limits: [`MAX_REPORT_BYTES`] of text and [`MAX_NODES`] nodes. Every error names the line
//! and the column (1-based, in characters) where the key, cell or value that is wrong starts.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::model::catalog::{Cluster, MAX_CORES_PER_NODE, MAX_VALUE};
use crate::model::error::digits_to_tell_apart;
use crate::model::{fmt_num, one_of, InputError};

/// The field errors name: the pasted report.
pub const FIELD: &str = "node report";
/// Most text read, bytes (1 MB): `scontrol show node` prints about 1 KB a node.
pub const MAX_REPORT_BYTES: usize = 1 << 20;
/// Most nodes read (records, or sinfo's rows times their NODES).
pub const MAX_NODES: u32 = 100_000;
/// The partition of a node that names none (scontrol prints no `Partitions=` for it).
pub const NO_PARTITION: &str = "no partition";
/// Most memory of one node, MiB: the catalog's largest number of GB.
const MAX_MEMORY_MIB: u64 = (MAX_VALUE as u64) * 1024;

/// The reports read, each defined once: its key (`--format`) and the command that prints it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, strum::EnumIter, strum::IntoStaticStr, strum::EnumString, strum::EnumMessage,
)]
pub enum ReportFormat {
    #[strum(to_string = "scontrol", message = "scontrol show node")]
    Scontrol,
    #[strum(to_string = "sinfo", message = "sinfo -N -l")]
    Sinfo,
    #[strum(to_string = "lscpu", message = "lscpu")]
    Lscpu,
}

impl ReportFormat {
    /// Every format, in the order they are listed.
    pub fn all() -> impl Iterator<Item = ReportFormat> {
        <ReportFormat as strum::IntoEnumIterator>::iter()
    }

    pub fn key(self) -> &'static str {
        self.into()
    }

    /// The command whose output this is ("scontrol show node").
    pub fn command(self) -> &'static str {
        strum::EnumMessage::get_message(&self).unwrap_or_else(|| self.key())
    }

    pub fn from_key(key: &str) -> Option<ReportFormat> {
        key.trim().parse().ok()
    }

    /// "scontrol, sinfo or lscpu", for messages.
    pub fn expected() -> String {
        one_of(ReportFormat::all().map(ReportFormat::key))
    }

    /// The report `text` is, from its content: a `NodeName=` record (scontrol), a header
    /// naming NODELIST, CPUS and MEMORY (sinfo), an `Architecture:`, `CPU(s):` or `Socket(s):`
    /// line (lscpu); None for anything else.
    pub fn sniff(text: &str) -> Option<ReportFormat> {
        let lines = || text.lines().map(str::trim_start);
        if lines().any(|l| l.starts_with("NodeName=")) {
            Some(ReportFormat::Scontrol)
        } else if lines().any(is_sinfo_header) {
            Some(ReportFormat::Sinfo)
        } else if lines().any(|l| ["Architecture:", "CPU(s):", "Socket(s):"].iter().any(|k| l.starts_with(k))) {
            Some(ReportFormat::Lscpu)
        } else {
            None
        }
    }
}

/// One kind of node of one partition, as the catalog takes a cluster. Fields in the order of
/// their names, as the command writes them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Partition {
    /// Physical cores of one node.
    pub cores_per_node: u32,
    /// The CPU's model where the report names it (lscpu), else empty.
    pub cpu_model: String,
    pub gpus_per_node: u32,
    /// GB (1024 MiB); 0 when unknown.
    pub memory_per_node_gb: f64,
    /// The partition's name, followed by what sets this kind of node apart when the partition
    /// holds several ("cpu (64 cores)").
    pub name: String,
    /// The nodes' names as the report gives them (sinfo without -N: its NODELIST expressions);
    /// empty for lscpu, which names none.
    pub node_names: Vec<String>,
    pub nodes: u32,
    /// Slurm's name of the partition; for lscpu, the name of the one group.
    pub partition: String,
    pub threads_per_core: u32,
}

/// What a report says: its partitions, each split into groups of identical nodes.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeReport {
    pub format: ReportFormat,
    pub partitions: Vec<Partition>,
}

/// What a node is made of: nodes of one partition that agree on all of it form one cluster.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Kind {
    cores: u32,
    threads: u32,
    memory_mib: u64,
    gpus: u32,
    cpu_model: String,
}

/// One node (or, from sinfo without -N, `count` alike) as read.
struct Node {
    name: String,
    count: u32,
    partitions: Vec<String>,
    kind: Kind,
}

/// Reads `text` as a report of `format`: every node, all of the text or none of it.
pub fn read(format: ReportFormat, text: &str) -> Result<NodeReport, InputError> {
    check_size(text)?;
    if text.trim().is_empty() {
        return Err(unplaced(format!("the report is empty: paste the output of {}", format.command())));
    }
    let nodes = match format {
        ReportFormat::Scontrol => scontrol(text)?,
        ReportFormat::Sinfo => sinfo(text)?,
        ReportFormat::Lscpu => vec![lscpu(text)?],
    };
    Ok(NodeReport { format, partitions: group(&nodes) })
}

/// What the Clusters page's worker (`ui::cluster_worker`) answers for a pasted report: its
/// format and clusters, or the error, said with its line and column.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub enum Pasted {
    Read { format: String, clusters: Vec<Cluster> },
    Failed(String),
}

impl Pasted {
    /// A pasted text read as the report it is found to be ([`read_sniffed`]).
    pub fn of(text: &str) -> Pasted {
        match read_sniffed(text) {
            Ok(r) => Pasted::Read { format: r.format.command().to_string(), clusters: r.clusters() },
            Err(e) => Pasted::Failed(e.local_text()),
        }
    }
}

/// Reads `text` as the report [`ReportFormat::sniff`] finds it to be.
pub fn read_sniffed(text: &str) -> Result<NodeReport, InputError> {
    check_size(text)?;
    if text.trim().is_empty() {
        return Err(unplaced(format!("the report is empty: paste the output of {}", commands())));
    }
    match ReportFormat::sniff(text) {
        Some(format) => read(format, text),
        None => Err(unplaced(format!(
            "cannot tell which report this is: expected the output of {} (NodeName= records, a header \
             naming NODELIST, CPUS and MEMORY, or Architecture: and CPU(s): lines)",
            commands()
        ))),
    }
}

fn commands() -> String {
    one_of(ReportFormat::all().map(ReportFormat::command))
}

fn check_size(text: &str) -> Result<(), InputError> {
    if text.len() > MAX_REPORT_BYTES {
        return Err(unplaced(format!(
            "the report is {} bytes; at most {MAX_REPORT_BYTES} (1 MB) are read",
            text.len()
        )));
    }
    Ok(())
}

fn unplaced(message: String) -> InputError {
    InputError::new(FIELD, message)
}

fn at(line: usize, column: usize, message: String) -> InputError {
    InputError::new(FIELD, message).at(line, Some(column))
}

/// The first characters of what was found, for messages.
fn shorten(s: &str) -> String {
    if s.chars().count() > 24 {
        format!("{}…", s.chars().take(24).collect::<String>())
    } else {
        s.to_string()
    }
}

/// The whitespace-separated words of `line`, each with the 1-based character column where it
/// starts.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (column, (i, c)) in line.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((b, col)) = start.take() {
                out.push((col, &line[b..i]));
            }
        } else if start.is_none() {
            start = Some((i, column + 1));
        }
    }
    if let Some((b, col)) = start {
        out.push((col, &line[b..]));
    }
    out
}

/// A whole number from `min` to `max` (a `+` after it, as sinfo marks the smallest of a
/// group, read past), or an error at (line, column) naming `key` and saying `what` was
/// expected.
fn whole(
    key: &str,
    value: &str,
    (line, column): (usize, usize),
    what: &str,
    (min, max): (u64, u64),
) -> Result<u64, InputError> {
    let digits = value.strip_suffix('+').unwrap_or(value);
    match digits.parse::<u64>() {
        Ok(x) if digits.bytes().all(|b| b.is_ascii_digit()) && (min..=max).contains(&x) => Ok(x),
        Ok(x) if digits.bytes().all(|b| b.is_ascii_digit()) => {
            Err(at(line, column, format!("{key}: expected {what} from {min} to {max}, found {x}")))
        }
        _ => Err(at(line, column, format!("{key}: expected {what}, found \"{}\"", shorten(value)))),
    }
}

/// A count of cores, sockets or threads: 1 to the catalog's most cores per node.
const COUNT: (u64, u64) = (1, MAX_CORES_PER_NODE as u64);

fn count(key: &str, value: &str, place: (usize, usize)) -> Result<u32, InputError> {
    // ok: COUNT's top fits in u32.
    whole(key, value, place, "a whole number", COUNT).map(|x| u32::try_from(x).unwrap_or(u32::MAX))
}

fn memory_mib(key: &str, value: &str, place: (usize, usize)) -> Result<u64, InputError> {
    let mib = whole(key, value, place, "a whole number of MiB", (0, MAX_MEMORY_MIB))?;
    // RealMemory=1 is Slurm's default where slurm.conf gives none: not a measure.
    Ok(if mib <= 1 { 0 } else { mib })
}

/// Physical cores from a layout's product, at most the catalog's most cores per node.
fn cores_of(product: u64, place: (usize, usize)) -> Result<u32, InputError> {
    u32::try_from(product).ok().filter(|c| (1..=MAX_CORES_PER_NODE).contains(c)).ok_or_else(|| {
        at(place.0, place.1, format!("{product} cores in one node; at most {MAX_CORES_PER_NODE} are read"))
    })
}

/// The GPUs of a Gres value (`gpu:a100:4(S:0-1),gpu:v100:2`, `gpu:2`, `(null)`): the sum of
/// the `gpu` entries' counts (an entry with no count is one GPU).
fn gpus(key: &str, value: &str, place: (usize, usize)) -> Result<u32, InputError> {
    // Parenthesised parts (sockets, indices) may hold commas: cut them out first.
    let mut plain = String::with_capacity(value.len());
    let mut depth = 0usize;
    for c in value.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let mut total: u64 = 0;
    for entry in plain.split(',') {
        let mut parts = entry.trim().split(':');
        if parts.next() != Some("gpu") {
            continue;
        }
        let n = match parts.next_back() {
            Some(last) if last.bytes().all(|b| b.is_ascii_digit()) && !last.is_empty() => {
                whole(key, last, place, "a GPU count", (0, u64::from(MAX_CORES_PER_NODE)))?
            }
            _ => 1,
        };
        total = total.saturating_add(n);
    }
    u32::try_from(total).ok().filter(|g| *g <= MAX_CORES_PER_NODE).ok_or_else(|| {
        at(place.0, place.1, format!("{key}: {total} GPUs in one node; at most {MAX_CORES_PER_NODE} are read"))
    })
}

/// The error for one node past [`MAX_NODES`].
fn too_many(line: usize, column: usize) -> InputError {
    at(line, column, format!("more than {MAX_NODES} nodes; at most {MAX_NODES} are read"))
}

/// One `Key=Value` of a record, where its key starts.
struct Pair<'a> {
    key: &'a str,
    value: &'a str,
    line: usize,
    column: usize,
}

impl Pair<'_> {
    fn place(&self) -> (usize, usize) {
        (self.line, self.column)
    }
}

/// The keys of `scontrol show node` read; the others (CPUAlloc, OS=…, Reason=…) are passed
/// over, with any words of their values that hold no `=`.
const SCONTROL_KEYS: &[&str] = &[
    "NodeName",
    "CoresPerSocket",
    "CPUTot",
    "Sockets",
    "Boards",
    "ThreadsPerCore",
    "RealMemory",
    "Gres",
    "Partitions",
];

/// `Key=Value`, a key being a letter then letters, digits or `_`.
fn pair(word: &str) -> Option<(&str, &str)> {
    let (key, value) = word.split_once('=')?;
    let mut chars = key.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    (first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')).then_some((key, value))
}

/// `scontrol show node`: a record opens at each `NodeName=` and ends at a blank line or the
/// next record; lines outside a record (a shell prompt) are passed over.
fn scontrol(text: &str) -> Result<Vec<Node>, InputError> {
    let mut records: Vec<Vec<Pair>> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            open = false;
            continue;
        }
        for (column, word) in words(line) {
            let Some((key, value)) = pair(word) else { continue };
            if key == "NodeName" {
                if records.len() >= MAX_NODES as usize {
                    return Err(too_many(i + 1, column));
                }
                records.push(Vec::new());
                open = true;
            }
            if let (true, Some(record), true) = (open, records.last_mut(), SCONTROL_KEYS.contains(&key)) {
                record.push(Pair { key, value, line: i + 1, column });
            }
        }
    }
    if records.is_empty() {
        return Err(unplaced("no NodeName= record: expected the output of scontrol show node".to_string()));
    }
    records.iter().map(|r| scontrol_node(r)).collect()
}

/// One record of `scontrol show node` (its first pair is its NodeName).
fn scontrol_node(record: &[Pair]) -> Result<Node, InputError> {
    let name_pair = record.first().ok_or_else(|| unplaced("an empty record".to_string()))?;
    if name_pair.value.is_empty() {
        return Err(at(name_pair.line, name_pair.column, "NodeName: expected a node name".to_string()));
    }
    let get = |key: &str| record.iter().find(|p| p.key == key);
    let counted = |key: &str| get(key).map(|p| count(p.key, p.value, p.place()).map(u64::from)).transpose();
    let cores_per_socket = counted("CoresPerSocket")?;
    let sockets = counted("Sockets")?;
    let boards = counted("Boards")?.unwrap_or(1);
    let threads = counted("ThreadsPerCore")?.unwrap_or(1);
    let cpu_tot = counted("CPUTot")?;
    let cores = match (cores_per_socket, sockets, cpu_tot) {
        (Some(c), Some(s), _) => {
            let per_node = s * c;
            let per_board = boards > 1
                && cpu_tot.is_some_and(|t| {
                    t != per_node * threads && t == boards.saturating_mul(per_node).saturating_mul(threads)
                });
            let place = get("CoresPerSocket").map_or(name_pair.place(), Pair::place);
            cores_of(if per_board { boards * per_node } else { per_node }, place)?
        }
        (_, _, Some(t)) => cores_of((t / threads).max(1), get("CPUTot").map_or(name_pair.place(), Pair::place))?,
        _ => {
            return Err(at(
                name_pair.line,
                name_pair.column,
                format!(
                    "node {}: no CoresPerSocket and Sockets, nor CPUTot, to count its cores",
                    shorten(name_pair.value)
                ),
            ))
        }
    };
    let memory_mib = get("RealMemory").map(|p| memory_mib(p.key, p.value, p.place())).transpose()?.unwrap_or(0);
    let gpus = get("Gres").map(|p| gpus(p.key, p.value, p.place())).transpose()?.unwrap_or(0);
    let partitions = get("Partitions")
        .map(|p| p.value.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect())
        .unwrap_or_default();
    let kind = Kind { cores, threads: u32::try_from(threads).unwrap_or(1), memory_mib, gpus, cpu_model: String::new() };
    Ok(Node { name: name_pair.value.to_string(), count: 1, partitions, kind })
}

/// sinfo's header: a line whose words include NODELIST, CPUS and MEMORY.
fn is_sinfo_header(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    ["NODELIST", "CPUS", "MEMORY"].iter().all(|h| words.contains(h))
}

/// The date `sinfo -l` prints above its header ("Tue Dec  1 21:50:23 2026"), again before
/// each repeated header with `-i`.
fn is_date(words: &[(usize, &str)]) -> bool {
    words.len() == 5 && ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].contains(&words[0].1)
}

/// `sinfo -N -l`: the rows under the header, each read by the header's columns (NODELIST,
/// CPUS, MEMORY; NODES, PARTITION, S:C:T and GRES where the header has them). The columns
/// after them (REASON may hold spaces) are not read.
fn sinfo(text: &str) -> Result<Vec<Node>, InputError> {
    let lines: Vec<&str> = text.lines().collect();
    let no_header = || {
        unplaced(
            "no header line naming NODELIST, CPUS and MEMORY: paste sinfo -N -l's output with its header \
             (-h and --noheader leave it out)"
                .to_string(),
        )
    };
    let h = lines.iter().position(|l| is_sinfo_header(l)).ok_or_else(no_header)?;
    let header: Vec<&str> = lines[h].split_whitespace().collect();
    let column = |name: &str| header.iter().position(|c| *c == name);
    let (Some(list), Some(cpus), Some(memory)) = (column("NODELIST"), column("CPUS"), column("MEMORY")) else {
        return Err(no_header());
    };
    let (nodes_at, partition_at, layout_at, gres_at) =
        (column("NODES"), column("PARTITION"), column("S:C:T"), column("GRES"));
    let mut out = Vec::new();
    let mut total: u64 = 0;
    for (i, line) in lines.iter().enumerate().skip(h + 1) {
        let n = i + 1;
        let cells = words(line);
        if cells.is_empty() || is_date(&cells) || cells.iter().map(|c| c.1).eq(header.iter().copied()) {
            continue;
        }
        let end = line.chars().count() + 1;
        let cell = |k: usize| {
            cells
                .get(k)
                .map(|&(c, v)| (v, (n, c)))
                .ok_or_else(|| at(n, end, format!("expected a value under {}, the line ends first", header[k])))
        };
        let (name, _) = cell(list)?;
        let (cpu_text, cpu_place) = cell(cpus)?;
        let cpus_n = whole("CPUS", cpu_text, cpu_place, "a whole number", (1, u64::from(u32::MAX)))?;
        let (threads, cores) = match layout_at {
            Some(k) => {
                let (v, place) = cell(k)?;
                let parts: Vec<&str> = v.split(':').collect();
                let bad = || {
                    at(
                        place.0,
                        place.1,
                        format!("S:C:T: expected sockets:cores:threads such as 2:16:2, found \"{}\"", shorten(v)),
                    )
                };
                let [s, c, t] = parts[..] else { return Err(bad()) };
                let (s, c, t) = (count("S:C:T", s, place)?, count("S:C:T", c, place)?, count("S:C:T", t, place)?);
                (t, cores_of(u64::from(s) * u64::from(c), place)?)
            }
            None => (1, cores_of(cpus_n, cpu_place)?),
        };
        let (mem_text, mem_place) = cell(memory)?;
        let memory_mib = memory_mib("MEMORY", mem_text, mem_place)?;
        let count_n = match nodes_at {
            Some(k) => {
                let (v, place) = cell(k)?;
                whole("NODES", v, place, "a whole number", (1, u64::from(MAX_NODES)))?
            }
            None => 1,
        };
        total += count_n;
        if total > u64::from(MAX_NODES) {
            return Err(too_many(n, 1));
        }
        let partitions = match partition_at {
            Some(k) => vec![cell(k)?.0.trim_end_matches('*').to_string()],
            None => Vec::new(),
        };
        let gpus = match gres_at {
            Some(k) => {
                let (v, place) = cell(k)?;
                gpus("GRES", v, place)?
            }
            None => 0,
        };
        let kind = Kind { cores, threads, memory_mib, gpus, cpu_model: String::new() };
        out.push(Node { name: name.to_string(), count: u32::try_from(count_n).unwrap_or(MAX_NODES), partitions, kind });
    }
    if out.is_empty() {
        return Err(at(h + 1, 1, "no node under the header: sinfo -N -l prints a row per node".to_string()));
    }
    Ok(out)
}

/// One CPU model's part of an lscpu report: hybrid processors list each model with its own
/// cores per socket and sockets.
#[derive(Default)]
struct CpuBlock {
    model: Option<String>,
    threads: Option<u32>,
    cores_per_socket: Option<u32>,
    sockets: Option<u32>,
}

/// `lscpu`: `Key: value` lines (indented in recent versions). A new CPU model block opens at
/// a second "Model name"; older versions print the layout before the model name, recent ones
/// after it, so a block takes both.
fn lscpu(text: &str) -> Result<Node, InputError> {
    let mut blocks = vec![CpuBlock::default()];
    let mut cpus: Option<(u32, (usize, usize))> = None;
    let mut layout_place = None;
    for (i, line) in text.lines().enumerate() {
        let Some((key, rest)) = line.split_once(':') else { continue };
        let key = key.trim();
        let value = rest.trim();
        let column = line.chars().count() - rest.trim_start().chars().count() + 1;
        let place = (i + 1, column);
        // "-": not known (some ARM systems say so of sockets).
        let known = |v: &str| v != "-" && !v.is_empty();
        let Some(block) = blocks.last_mut() else { continue };
        match key {
            "CPU(s)" if cpus.is_none() => cpus = Some((count(key, value, place)?, place)),
            "Model name" => {
                if block.model.is_some() {
                    blocks.push(CpuBlock { model: Some(value.to_string()), ..CpuBlock::default() });
                } else {
                    block.model = Some(value.to_string());
                }
            }
            "Thread(s) per core" if known(value) && block.threads.is_none() => {
                block.threads = Some(count(key, value, place)?)
            }
            "Core(s) per socket" | "Core(s) per cluster" if known(value) && block.cores_per_socket.is_none() => {
                block.cores_per_socket = Some(count(key, value, place)?);
                layout_place.get_or_insert(place);
            }
            "Socket(s)" | "Cluster(s)" if known(value) && block.sockets.is_none() => {
                block.sockets = Some(count(key, value, place)?)
            }
            _ => {}
        }
    }
    let threads = blocks.iter().find_map(|b| b.threads).unwrap_or(1);
    let laid_out: u64 =
        blocks.iter().filter_map(|b| Some(u64::from(b.cores_per_socket?) * u64::from(b.sockets?))).sum();
    let cores = match (laid_out, cpus) {
        (c, _) if c > 0 => cores_of(c, layout_place.unwrap_or((1, 1)))?,
        (_, Some((c, place))) => cores_of(u64::from((c / threads).max(1)), place)?,
        _ => {
            return Err(unplaced(
                "no Core(s) per socket and Socket(s), nor CPU(s): expected the output of lscpu (in English)"
                    .to_string(),
            ))
        }
    };
    let mut models: Vec<&str> = Vec::new();
    for m in blocks.iter().filter_map(|b| b.model.as_deref()).filter(|m| !m.is_empty()) {
        if !models.contains(&m) {
            models.push(m);
        }
    }
    let cpu_model = models.join(" + ");
    let partition = if cpu_model.is_empty() { "node".to_string() } else { cpu_model.clone() };
    let kind = Kind { cores, threads, memory_mib: 0, gpus: 0, cpu_model };
    Ok(Node { name: String::new(), count: 1, partitions: vec![partition], kind })
}

fn gb(memory_mib: u64) -> f64 {
    memory_mib as f64 / 1024.0
}

/// The nodes by partition, in the order partitions first appear, and within each by kind.
///
/// A partition whose nodes differ (in cores, threads per core, memory, GPUs or CPU model) is
/// split into one group per kind of node, each named after the partition and what sets it
/// apart ("cpu (64 cores)", "cpu (128 cores)"), rather than reported as its smallest node.
/// A cluster of the catalog is one size of node: the calculators place processes per node and
/// check memory per node. The smallest node would count the larger ones as small, and a
/// plan made for them (their cores, their memory) would be wrong without saying so; groups
/// keep every number true, and a group not wanted is one cluster to delete.
fn group(nodes: &[Node]) -> Vec<Partition> {
    struct Part<'a> {
        name: &'a str,
        seen: HashSet<&'a str>,
        /// Each kind's place in `groups` (a paste may hold thousands of kinds).
        kinds: HashMap<&'a Kind, usize>,
        groups: Vec<(&'a Kind, Vec<String>, u32)>,
    }
    let mut parts: Vec<Part> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for node in nodes {
        let names: Vec<&str> = if node.partitions.is_empty() {
            vec![NO_PARTITION]
        } else {
            node.partitions.iter().map(String::as_str).collect()
        };
        for p in names {
            let k = *index.entry(p).or_insert_with(|| {
                parts.push(Part { name: p, seen: HashSet::new(), kinds: HashMap::new(), groups: Vec::new() });
                parts.len() - 1
            });
            let Some(part) = parts.get_mut(k) else { continue };
            if !node.name.is_empty() && !part.seen.insert(&node.name) {
                continue;
            }
            let groups = &mut part.groups;
            let g = *part.kinds.entry(&node.kind).or_insert_with(|| {
                groups.push((&node.kind, Vec::new(), 0));
                groups.len() - 1
            });
            if let Some((_, names, count)) = part.groups.get_mut(g) {
                if !node.name.is_empty() {
                    names.push(node.name.clone());
                }
                *count = count.saturating_add(node.count);
            }
        }
    }
    let mut out = Vec::new();
    for part in &parts {
        let kinds: Vec<&Kind> = part.groups.iter().map(|g| g.0).collect();
        for ((kind, names, count), apart) in part.groups.iter().zip(labels(&kinds)) {
            let name = if apart.is_empty() { part.name.to_string() } else { format!("{} ({apart})", part.name) };
            out.push(Partition {
                cores_per_node: kind.cores,
                cpu_model: kind.cpu_model.clone(),
                gpus_per_node: kind.gpus,
                memory_per_node_gb: gb(kind.memory_mib),
                name,
                node_names: names.clone(),
                nodes: *count,
                partition: part.name.to_string(),
                threads_per_core: kind.threads,
            });
        }
    }
    out
}

/// What sets each kind of a partition's nodes apart from the others, in words ("64 cores",
/// "64 cores, 251 GB"): the attributes in which kinds differ, in the order cores, memory,
/// GPUs, threads per core, CPU model, as many as it takes to tell every kind apart, with as
/// many digits of memory as that takes; empty for a partition of one kind.
fn labels(kinds: &[&Kind]) -> Vec<String> {
    let mut gbs: Vec<f64> = kinds.iter().map(|k| gb(k.memory_mib)).collect();
    gbs.sort_by(f64::total_cmp);
    gbs.dedup();
    let digits = digits_to_tell_apart(&gbs, 3);
    let cores = |k: &Kind| plural(k.cores, "core");
    let memory = |k: &Kind| {
        if k.memory_mib == 0 {
            "memory unknown".to_string()
        } else {
            format!("{} GB", fmt_num(gb(k.memory_mib), digits))
        }
    };
    let gpus = |k: &Kind| plural(k.gpus, "GPU");
    let threads = |k: &Kind| format!("{} per core", plural(k.threads, "thread"));
    let model = |k: &Kind| k.cpu_model.clone();
    let words: [&dyn Fn(&Kind) -> String; 5] = [&cores, &memory, &gpus, &threads, &model];
    let texts = |shown: &[&dyn Fn(&Kind) -> String]| -> Vec<String> {
        kinds
            .iter()
            .map(|k| shown.iter().map(|f| f(k)).filter(|w| !w.is_empty()).collect::<Vec<_>>().join(", "))
            .collect()
    };
    let mut shown: Vec<&dyn Fn(&Kind) -> String> = Vec::new();
    for f in words {
        if kinds.first().is_some_and(|first| kinds.iter().any(|k| f(k) != f(first))) {
            shown.push(f);
            let now = texts(&shown);
            if now.iter().collect::<HashSet<_>>().len() == now.len() {
                break;
            }
        }
    }
    texts(&shown)
}

fn plural(n: u32, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// A catalog id from a name: lowercase ASCII letters and digits, every other run of
/// characters one `-` ("gpu (4 GPUs)" → "gpu-4-gpus"); "cluster" when nothing is left.
fn slug(name: &str) -> String {
    let mut id = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            id.push(c);
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
        if id.len() >= 48 {
            break;
        }
    }
    let id = id.trim_end_matches('-');
    if id.is_empty() {
        "cluster".to_string()
    } else {
        id.to_string()
    }
}

impl NodeReport {
    /// One catalog cluster per partition (per group of a split partition), its id made from
    /// its name and unique among them; an lscpu report is one node, whose count the user sets.
    pub fn clusters(&self) -> Vec<Cluster> {
        let mut ids: HashSet<String> = HashSet::new();
        self.partitions
            .iter()
            .map(|p| {
                let id = crate::model::catalog::free_id(&slug(&p.name), |id| ids.contains(id));
                ids.insert(id.clone());
                Cluster {
                    id,
                    name: p.name.clone(),
                    nodes: p.nodes,
                    cores_per_node: p.cores_per_node,
                    memory_per_node_gb: p.memory_per_node_gb,
                    notes: self.notes(p),
                    ..Default::default()
                }
            })
            .collect()
    }

    /// Where a cluster came from and what the report left to fill in.
    fn notes(&self, p: &Partition) -> String {
        let mut facts = vec![format!("{} per core", plural(p.threads_per_core, "hardware thread"))];
        if p.gpus_per_node > 0 {
            facts.push(format!("{} per node", plural(p.gpus_per_node, "GPU")));
        }
        if p.memory_per_node_gb == 0.0 {
            facts.push("memory unknown".to_string());
        }
        let command = self.format.command();
        match self.format {
            ReportFormat::Lscpu => format!(
                "From lscpu: one node{}, {}. Set the number of nodes, the memory, fabrics, core peak and price.",
                if p.cpu_model.is_empty() { String::new() } else { format!(" ({})", p.cpu_model) },
                facts.join(", ")
            ),
            _ => format!(
                "From {command}: Slurm partition \"{}\", {}. Add its fabrics, core peak and price.",
                p.partition,
                facts.join(", ")
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::catalog::Catalog;
    use proptest::prelude::*;

    const SCONTROL: &str = include_str!("../../../tests/data/node_reports/scontrol.txt");
    const SCONTROL_ONE_LINE: &str = include_str!("../../../tests/data/node_reports/scontrol-oneline.txt");
    const SINFO: &str = include_str!("../../../tests/data/node_reports/sinfo.txt");
    const LSCPU: &str = include_str!("../../../tests/data/node_reports/lscpu.txt");

    #[test]
    fn a_pasted_report_is_what_the_page_s_worker_answers() {
        let Pasted::Read { format, clusters } = Pasted::of(SCONTROL) else { panic!("read") };
        assert_eq!(format, "scontrol show node");
        assert_eq!(clusters, read_sniffed(SCONTROL).expect("read").clusters());
        let bad = SCONTROL.replacen("RealMemory=257000", "RealMemory=lots", 1);
        let Pasted::Failed(why) = Pasted::of(&bad) else { panic!("refused") };
        assert!(why.starts_with("line 9, column 4: RealMemory:"), "{why}");
        // What the worker posts reads back as it was.
        let text = serde_json::to_string(&Pasted::of(LSCPU)).expect("text");
        assert_eq!(serde_json::from_str::<Pasted>(&text).expect("read back"), Pasted::of(LSCPU));
    }

    /// 257000 MiB and 515000 MiB, as GB (÷ 1024).
    const GB_257000: f64 = 250.9765625;
    const GB_515000: f64 = 502.9296875;

    /// A partition as the tests expect it: (name, nodes, cores per node, threads per core,
    /// memory GB, GPUs per node).
    type Want<'a> = (&'a str, u32, u32, u32, f64, u32);

    fn check(format: ReportFormat, text: &str, want: &[Want]) -> NodeReport {
        let report = read(format, text).unwrap_or_else(|e| panic!("{format:?}: {e}"));
        let got: Vec<Want> = report
            .partitions
            .iter()
            .map(|p| {
                (p.name.as_str(), p.nodes, p.cores_per_node, p.threads_per_core, p.memory_per_node_gb, p.gpus_per_node)
            })
            .collect();
        assert_eq!(got, want, "{format:?}");
        let catalog = Catalog { clusters: report.clusters(), links: Vec::new() };
        assert_eq!(catalog.validate(), Ok(()), "{format:?}: the clusters go into the catalog");
        report
    }

    #[test]
    fn scontrol_show_node_of_a_two_partition_cluster() {
        // n001–n003: 2 sockets × 32 cores (CPUTot 128 counts 2 threads a core), 257000 MiB;
        // n004 likewise with 515000 MiB; g001–g002: 2 × 24 cores, 515000 MiB, 4 A100s, in
        // both partitions. batch holds three kinds of node: cores alone do not tell them
        // apart, cores and memory do.
        let report = check(
            ReportFormat::Scontrol,
            SCONTROL,
            &[
                ("batch (64 cores, 251 GB)", 3, 64, 2, GB_257000, 0),
                ("batch (64 cores, 503 GB)", 1, 64, 2, GB_515000, 0),
                ("batch (48 cores, 503 GB)", 2, 48, 1, GB_515000, 4),
                ("gpu", 2, 48, 1, GB_515000, 4),
            ],
        );
        assert_eq!(report.partitions[0].node_names, ["n001", "n002", "n003"]);
        assert_eq!(report.partitions[3].node_names, ["g001", "g002"]);
        assert_eq!(report.partitions[3].partition, "gpu");
        let clusters = report.clusters();
        let ids: Vec<&str> = clusters.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["batch-64-cores-251-gb", "batch-64-cores-503-gb", "batch-48-cores-503-gb", "gpu"]);
        let gpu = &clusters[3];
        assert_eq!(
            (gpu.name.as_str(), gpu.nodes, gpu.cores_per_node, gpu.memory_per_node_gb),
            ("gpu", 2, 48, GB_515000)
        );
        assert_eq!(
            gpu.notes,
            "From scontrol show node: Slurm partition \"gpu\", 1 hardware thread per core, 4 GPUs per node. \
             Add its fabrics, core peak and price."
        );
        // `scontrol -o show node`: the same records, one line each.
        assert_eq!(read(ReportFormat::Scontrol, SCONTROL_ONE_LINE), Ok(report));
    }

    #[test]
    fn sinfo_long_by_node_of_the_same_cluster() {
        // The same nodes, a row per node and partition; sinfo -N -l shows no GRES.
        let report = check(
            ReportFormat::Sinfo,
            SINFO,
            &[
                ("batch (48 cores, 503 GB)", 2, 48, 1, GB_515000, 0),
                ("batch (64 cores, 251 GB)", 3, 64, 2, GB_257000, 0),
                ("batch (64 cores, 503 GB)", 1, 64, 2, GB_515000, 0),
                ("gpu", 2, 48, 1, GB_515000, 0),
            ],
        );
        assert_eq!(report.partitions[2].node_names, ["n004"]);
        // Without -N: a row per partition and state, NODES alike nodes under a host list.
        let grouped = "PARTITION AVAIL  TIMELIMIT   JOB_SIZE ROOT OVERSUBS     GROUPS  NODES       STATE NODELIST \
                       CPUS MEMORY\n\
                       batch*       up   infinite 1-infinite   no       NO        all     12        idle n[01-12]     \
                       128 257000+\n";
        check(ReportFormat::Sinfo, grouped, &[("batch", 12, 128, 1, GB_257000, 0)]);
        let with_gres = "NODELIST PARTITION CPUS S:C:T MEMORY GRES\ng1 gpu 64 2:16:2 1024 gpu:h100:8(S:0-1)\n";
        check(ReportFormat::Sinfo, with_gres, &[("gpu", 1, 32, 2, 1.0, 8)]);
    }

    #[test]
    fn lscpu_of_one_node() {
        let report = check(ReportFormat::Lscpu, LSCPU, &[("AMD EPYC 7763 64-Core Processor", 1, 128, 2, 0.0, 0)]);
        assert_eq!(report.partitions[0].cpu_model, "AMD EPYC 7763 64-Core Processor");
        let c = &report.clusters()[0];
        assert_eq!(c.id, "amd-epyc-7763-64-core-processor");
        assert!(
            c.notes.starts_with(
                "From lscpu: one node (AMD EPYC 7763 64-Core Processor), 2 hardware threads per core, memory unknown."
            ),
            "{}",
            c.notes
        );
        // Older lscpu: the layout before the model name; "-" sockets (ARM) leave CPU(s).
        let older = "Architecture: x86_64\nCPU(s): 16\nThread(s) per core: 2\nCore(s) per socket: 4\nSocket(s): 2\n\
             Model name: Xeon\n";
        check(ReportFormat::Lscpu, older, &[("Xeon", 1, 8, 2, 0.0, 0)]);
        let arm = "Architecture: aarch64\nCPU(s): 80\nModel name: Neoverse-N1\nThread(s) per core: 1\n\
                   Core(s) per socket: 80\nSocket(s): -\n";
        check(ReportFormat::Lscpu, arm, &[("Neoverse-N1", 1, 80, 1, 0.0, 0)]);
        // A hybrid processor: each model with its own cores.
        let hybrid = "Architecture: aarch64\nCPU(s): 6\nModel name: Cortex-A53\nThread(s) per core: 1\n\
                      Core(s) per socket: 4\nSocket(s): 1\nModel name: Cortex-A72\nThread(s) per core: 1\n\
                      Core(s) per socket: 2\nSocket(s): 1\n";
        check(ReportFormat::Lscpu, hybrid, &[("Cortex-A53 + Cortex-A72", 1, 6, 1, 0.0, 0)]);
    }

    #[test]
    fn scontrol_layouts_memory_and_partitions() {
        let cases: &[(&str, Want)] = &[
            // Sockets is the node's: CPUTot = 4 × 8 × 1.
            (
                "NodeName=a CoresPerSocket=8 Sockets=4 Boards=2 ThreadsPerCore=1 CPUTot=32",
                (NO_PARTITION, 1, 32, 1, 0.0, 0),
            ),
            // Sockets is one board's: only Boards × Sockets × CoresPerSocket gives CPUTot.
            (
                "NodeName=a CoresPerSocket=8 Sockets=2 Boards=2 ThreadsPerCore=1 CPUTot=32",
                (NO_PARTITION, 1, 32, 1, 0.0, 0),
            ),
            // No layout: CPUTot counts threads.
            ("NodeName=a CPUTot=64 ThreadsPerCore=2 RealMemory=2048", (NO_PARTITION, 1, 32, 2, 2.0, 0)),
            // RealMemory=1 is Slurm's default, not a measure.
            ("NodeName=a CPUTot=4 RealMemory=1 Partitions=x", ("x", 1, 4, 1, 0.0, 0)),
            ("NodeName=a CPUTot=4 Gres=gpu:2,gpu:v100:1(S:0,1),mps:400 Partitions=,x,", ("x", 1, 4, 1, 0.0, 3)),
            // The same node pasted twice counts once.
            ("NodeName=a CPUTot=4\n\nNodeName=a CPUTot=4", (NO_PARTITION, 1, 4, 1, 0.0, 0)),
        ];
        for (text, want) in cases {
            check(ReportFormat::Scontrol, text, &[*want]);
        }
    }

    #[test]
    fn errors_name_the_line_and_column() {
        let cases: &[(ReportFormat, &str, &str)] = &[
            (
                ReportFormat::Scontrol,
                concat!(
                    "NodeName=a Arch=x86_64 CoresPerSocket=4\n",
                    "   CPUAlloc=0 CPUTot=8\n",
                    "   RealMemory=abc AllocMem=0 Sockets=1"
                ),
                "line 3, column 4: RealMemory: expected a whole number of MiB, found \"abc\"",
            ),
            (
                ReportFormat::Scontrol,
                "NodeName=a CoresPerSocket=0 Sockets=2",
                "line 1, column 12: CoresPerSocket: expected a whole number from 1 to 1000000, found 0",
            ),
            (
                ReportFormat::Scontrol,
                "NodeName=a CPUTot=-4",
                "line 1, column 12: CPUTot: expected a whole number, found \"-4\"",
            ),
            (
                ReportFormat::Scontrol,
                "x\nNodeName=n7 Arch=x86_64",
                "line 2, column 1: node n7: no CoresPerSocket and Sockets, nor CPUTot, to count its cores",
            ),
            (ReportFormat::Scontrol, "NodeName= CPUTot=4", "line 1, column 1: NodeName: expected a node name"),
            (
                ReportFormat::Scontrol,
                "NodeName=a CPUTot=4 Gres=gpu:a100:99999999",
                "line 1, column 21: Gres: expected a GPU count from 0 to 1000000, found 99999999",
            ),
            (
                ReportFormat::Scontrol,
                "NodeName=a CoresPerSocket=1000000 Sockets=2",
                "line 1, column 12: 2000000 cores in one node; at most 1000000 are read",
            ),
            (
                ReportFormat::Scontrol,
                "Architecture: x86_64",
                "no NodeName= record: expected the output of scontrol show node",
            ),
            (
                ReportFormat::Sinfo,
                "n001 1 batch* idle 128 2:32:2 257000 0 1 epyc none",
                "no header line naming NODELIST, CPUS and MEMORY",
            ),
            (
                ReportFormat::Sinfo,
                "NODELIST NODES PARTITION STATE CPUS S:C:T MEMORY\nn001 1 batch* idle 128 2:32:2 25x000",
                "line 2, column 31: MEMORY: expected a whole number of MiB, found \"25x000\"",
            ),
            (
                ReportFormat::Sinfo,
                "NODELIST NODES PARTITION STATE CPUS S:C:T MEMORY\nn001 1 batch*",
                "line 2, column 14: expected a value under CPUS, the line ends first",
            ),
            (
                ReportFormat::Sinfo,
                "NODELIST CPUS S:C:T MEMORY\nn1 8 2:4 100",
                "line 2, column 6: S:C:T: expected sockets:cores:threads such as 2:16:2, found \"2:4\"",
            ),
            (ReportFormat::Sinfo, "NODELIST CPUS MEMORY\n", "line 1, column 1: no node under the header"),
            (
                ReportFormat::Sinfo,
                "NODELIST NODES CPUS MEMORY\nn[1-9] 60000 8 1\nm[1-9] 60000 8 1",
                "line 3, column 1: more than 100000 nodes; at most 100000 are read",
            ),
            (
                ReportFormat::Lscpu,
                "Architecture:  x86_64\nCPU(s):        many",
                "line 2, column 16: CPU(s): expected a whole number, found \"many\"",
            ),
            (
                ReportFormat::Lscpu,
                "Architecture: x86_64\n",
                "no Core(s) per socket and Socket(s), nor CPU(s): expected the output of lscpu (in English)",
            ),
            (ReportFormat::Lscpu, " \n\t\n", "the report is empty: paste the output of lscpu"),
        ];
        for (format, text, want) in cases {
            let e = read(*format, text).expect_err(text);
            assert_eq!(e.field, FIELD);
            assert!(e.local_text().starts_with(want), "{format:?} {text:?}:\n got {:?}\nwant {want:?}", e.local_text());
        }
        let huge = "x".repeat(MAX_REPORT_BYTES + 1);
        assert!(read(ReportFormat::Lscpu, &huge).expect_err("too long").message.contains("at most 1048576 (1 MB)"));
        // 100,001 records in less than 1 MB.
        let many = "NodeName= ".repeat(MAX_NODES as usize + 1);
        let e = read(ReportFormat::Scontrol, &many).expect_err("too many");
        assert_eq!((e.line, e.column), (Some(1), Some(10 * MAX_NODES as usize + 1)));
        assert!(e.message.contains("at most 100000"), "{e}");
    }

    #[test]
    fn formats_by_key_and_by_content() {
        assert_eq!(ReportFormat::expected(), "scontrol, sinfo or lscpu");
        for f in ReportFormat::all() {
            assert_eq!(ReportFormat::from_key(f.key()), Some(f));
        }
        assert_eq!(ReportFormat::from_key("slurm"), None);
        let cases = [
            (SCONTROL, Some(ReportFormat::Scontrol)),
            (SCONTROL_ONE_LINE, Some(ReportFormat::Scontrol)),
            (SINFO, Some(ReportFormat::Sinfo)),
            (LSCPU, Some(ReportFormat::Lscpu)),
            ("Socket(s): 2\n", Some(ReportFormat::Lscpu)),
            ("{\"clusters\": []}", None),
            ("", None),
        ];
        for (text, want) in cases {
            assert_eq!(ReportFormat::sniff(text), want, "{}", &text[..text.len().min(40)]);
        }
        assert_eq!(read_sniffed(SINFO).map(|r| r.format), Ok(ReportFormat::Sinfo));
        assert!(read_sniffed("hello").expect_err("unknown").message.starts_with("cannot tell which report this is"));
        assert!(read_sniffed("").expect_err("empty").message.starts_with("the report is empty"));
    }

    fn fragments() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            prop::sample::select(vec![
                "NodeName=",
                "CoresPerSocket=",
                "Sockets=",
                "Boards=",
                "CPUTot=",
                "ThreadsPerCore=",
                "RealMemory=",
                "Gres=gpu:",
                "Partitions=",
                "NODELIST",
                "NODES",
                "PARTITION",
                "CPUS",
                "S:C:T",
                "MEMORY",
                "GRES",
                "CPU(s):",
                "Socket(s):",
                "Core(s) per socket:",
                "Thread(s) per core:",
                "Model name:",
                "Tue",
                "(S:0-1)",
            ])
            .prop_map(str::to_string),
            "[0-9]{1,21}",
            "[a-z,:()*+-]{1,4}",
            "[ \\n\\t=:]",
        ];
        prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// No text panics any reader, and a report read gives clusters the catalog takes.
        #[test]
        fn any_text_is_read_or_refused(text in prop_oneof![fragments(), "\\PC{0,200}"]) {
            for format in ReportFormat::all() {
                if let Ok(report) = read(format, &text) {
                    prop_assert!(!report.partitions.is_empty());
                    for p in &report.partitions {
                        prop_assert!(p.nodes >= 1 && p.cores_per_node >= 1 && p.threads_per_core >= 1);
                        prop_assert!(p.memory_per_node_gb.is_finite() && p.memory_per_node_gb >= 0.0);
                    }
                    let catalog = Catalog { clusters: report.clusters(), links: Vec::new() };
                    prop_assert_eq!(catalog.validate(), Ok(()));
                }
            }
            let _ = read_sniffed(&text);
        }
    }
}

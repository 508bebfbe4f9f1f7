//! Logical homogeneous clusters from a latency matrix, and the inter-cluster broadcast
//! schedules ECEF and ECEF-LAt against a grid-unaware binomial tree (seed 002, §3.1, §4.2,
//! §4.3, Table 2; spec `collectives.md`).
//!
//! Clusters: node pairs are taken by increasing latency; the groups of the two nodes merge
//! when every latency inside the merged group stays within (1 + ρ) × its smallest latency
//! (ρ ≥ 0, default 0.2). Once two groups fail that test they fail it for good (a bigger group
//! only has a larger largest and a smaller smallest latency), so two groups are tested once,
//! reading the latencies across them until one breaks the bound; each pair of nodes is read
//! at most once: O(n² log n) time with the sort, and one bit per pair of groups for n nodes.
//! Groups come as node indices (0-based), each sorted,
//! ordered by their smallest index.
//!
//! ECEF (Early Completion Edge First): A = coordinators holding the message (the root's at
//! first), B = the rest, RT_i their ready times. Repeatedly the pair i ∈ A, j ∈ B with the
//! smallest RT_i + g_ij + L_ij is chosen: j receives then, and i is busy for g_ij. ECEF-LAt
//! also weighs each cluster's local broadcast time T_j: of the clusters still waiting, it
//! serves first the one that would finish last (largest earliest-arrival + T_j), from its
//! earliest sender. The completion of either is the largest arrival + T_j (the root's
//! arrival is 0). The grid-unaware binomial tree is MPICH's over every process, ranks
//! numbered cluster by cluster, with the intra- or inter-cluster L and g of each message.

use serde::Serialize;

use crate::model::input::table::parse_number;
use crate::model::InputError;

pub const MATRIX_FIELD: &str = "latency matrix";
/// Most nodes a matrix may have.
pub const MAX_NODES: usize = 4096;
/// Most processes the binomial simulation takes.
pub const MAX_TOTAL_PROCS: u64 = 1 << 20;
pub const DEFAULT_RHO: f64 = 0.2;

/// Seed 002, Table 2: the six logical clusters of Grid'5000, their machines and latencies (µs).
pub const TABLE2_NAMES: [&str; 6] =
    ["C1 Orsay", "C21 Grenoble", "C22 Grenoble", "C23 Grenoble", "C3 Toulouse", "C4 Sophia"];
pub const TABLE2_MACHINES: [usize; 6] = [20, 11, 7, 1, 20, 19];
pub const TABLE2_US: [[f64; 6]; 6] = [
    [48.39, 6577.49, 6586.49, 6592.51, 5211.94, 8602.73],
    [6577.49, 35.52, 59.96, 59.96, 5387.48, 2736.56],
    [6586.49, 59.96, 60.08, 79.51, 5393.98, 2740.26],
    [6592.51, 59.96, 79.51, 0.0, 5405.78, 2745.98],
    [5211.94, 5387.48, 5393.98, 5405.78, 26.94, 3630.51],
    [8602.73, 2736.56, 2740.26, 2745.98, 3630.51, 35.04],
];

/// A square matrix of node-to-node latencies, µs, row-major. The diagonal is not used.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyMatrix {
    pub n: usize,
    pub values: Vec<f64>,
    /// Line in the pasted text of each row (empty when the matrix did not come from a text).
    pub row_lines: Vec<usize>,
    /// Character column (1-based) in the pasted text of each latency, row-major (empty when
    /// the matrix did not come from a text), as every parse error of the project counts; u32
    /// (a line of the largest text allowed fits), half the memory of usize at 16 M latencies.
    pub columns: Vec<u32>,
}

impl LatencyMatrix {
    pub fn get(&self, i: usize, j: usize) -> f64 {
        self.values.get(i * self.n + j).copied().unwrap_or(0.0)
    }

    /// Builds a matrix from rows (the CLI's JSON, key `field`); errors name `field[i][j]`
    /// (0-based).
    pub fn from_rows(field: &str, rows: &[Vec<f64>]) -> Result<LatencyMatrix, InputError> {
        let n = rows.len();
        if n == 0 || n > MAX_NODES {
            return Err(InputError::new(field, format!("expected 1 to {MAX_NODES} rows, found {n}")));
        }
        let mut values = Vec::with_capacity(n * n);
        for (i, r) in rows.iter().enumerate() {
            if r.len() != n {
                return Err(InputError::new(
                    format!("{field}[{i}]"),
                    format!("{} values in this row but {n} rows: a latency matrix is square", r.len()),
                ));
            }
            for (j, &x) in r.iter().enumerate() {
                if !(x.is_finite() && x >= 0.0) {
                    return Err(InputError::new(
                        format!("{field}[{i}][{j}]"),
                        "a latency is a number of µs, 0 or more",
                    ));
                }
            }
            values.extend_from_slice(r);
        }
        Ok(LatencyMatrix { n, values, row_lines: Vec::new(), columns: Vec::new() })
    }

    /// The first pair (i < j) whose two latencies differ by more than 1e-9 relative.
    pub fn asymmetry(&self) -> Option<(usize, usize)> {
        (0..self.n).flat_map(|i| (i + 1..self.n).map(move |j| (i, j))).find(|&(i, j)| {
            let (a, b) = (self.get(i, j), self.get(j, i));
            (a - b).abs() > 1e-9 * a.abs().max(b.abs()).max(1.0)
        })
    }

    /// The error for an asymmetric matrix, at the first asymmetric entry of the text.
    pub fn symmetry_error(&self) -> Option<InputError> {
        let (i, j) = self.asymmetry()?;
        let e = InputError::new(
            MATRIX_FIELD,
            format!(
                "not symmetric: node {i} to {j} is {} µs but {j} to {i} is {} µs (symmetrise to use the mean of each pair)",
                crate::model::fmt_num(self.get(i, j), 6),
                crate::model::fmt_num(self.get(j, i), 6)
            ),
        );
        Some(match self.row_lines.get(i) {
            Some(&line) => e.at(line, self.columns.get(i * self.n + j).map(|&c| c as usize)),
            None => e,
        })
    }

    /// Each pair replaced by the mean of its two directions.
    pub fn symmetrise(&self) -> LatencyMatrix {
        let mut m = self.clone();
        for i in 0..self.n {
            for j in 0..self.n {
                m.values[i * self.n + j] = 0.5 * (self.get(i, j) + self.get(j, i));
                // ok: i, j < n
            }
        }
        m
    }
}

/// One row of a pasted matrix, split like a spreadsheet paste: tabs, else commas, else
/// semicolons, else whitespace; each cell with the character column (1-based) where its text
/// starts (past leading blanks).
fn cells(l: &str) -> Vec<(usize, &str)> {
    let parts: Vec<&str> = match ['\t', ',', ';'].into_iter().find(|c| l.contains(*c)) {
        Some(sep) => l.split(sep).collect(),
        None => l.split_whitespace().collect(),
    };
    // Characters are counted once along the line (from the last cell on), not from its start
    // for every cell: a 4,096-node row has 4,096 cells.
    let (mut byte, mut chars) = (0, 0);
    parts
        .into_iter()
        .map(|part| {
            let at = part.as_ptr() as usize - l.as_ptr() as usize + (part.len() - part.trim_start().len());
            chars += l[byte..at].chars().count();
            byte = at;
            (chars + 1, part)
        })
        .collect()
}

/// Reads a pasted latency matrix: one row per node, optional header lines and row labels.
/// Checks that it is square, complete and not negative; symmetry is checked separately
/// ([`LatencyMatrix::symmetry_error`]) so the page can offer to symmetrise.
pub fn parse_matrix(text: &str) -> Result<LatencyMatrix, InputError> {
    let err = |line: usize, col: usize, msg: String| InputError::new(MATRIX_FIELD, msg).at(line, Some(col));
    let mut values = Vec::new();
    let mut columns = Vec::new();
    let mut row_lines = Vec::new();
    let mut n = 0;
    let mut labelled = None;
    for (i, l) in text.lines().enumerate() {
        let line = i + 1;
        let t = l.trim_end();
        if t.trim().is_empty() || t.trim_start().starts_with('#') {
            continue;
        }
        let mut c = cells(t);
        // Header lines (no number in them) come before the first row.
        if row_lines.is_empty() && !c.iter().any(|x| parse_number(x.1).is_some()) {
            continue;
        }
        let label = *labelled
            .get_or_insert_with(|| c.first().is_some_and(|x| parse_number(x.1).is_none() && !x.1.trim().is_empty()));
        if label {
            c.remove(0);
        }
        // A trailing separator leaves an empty last cell, not a missing latency.
        if c.len() > 1 && c.last().is_some_and(|x| x.1.trim().is_empty()) {
            c.pop();
        }
        // The column of cell k of this line, or just past its end.
        let at = |k: usize| c.get(k).map_or(t.chars().count() + 1, |x| x.0);
        if row_lines.is_empty() {
            n = c.len();
            if n > MAX_NODES {
                return Err(err(line, at(MAX_NODES), format!("more than {MAX_NODES} nodes")));
            }
        } else if c.len() != n {
            return Err(err(
                line,
                at(c.len().min(n)),
                format!(
                    "{} latencies on this line but {n} on the first row: one row per node, one column per node",
                    c.len()
                ),
            ));
        }
        for &(col, x) in &c {
            let x = x.trim();
            let v = if x.is_empty() || ["-", "na", "n/a", "nan", "?"].contains(&x.to_ascii_lowercase().as_str()) {
                return Err(err(line, col, "missing latency".into()));
            } else {
                parse_number(x).ok_or_else(|| {
                    err(
                        line,
                        col,
                        format!("expected a latency in µs, found \"{}\"", x.chars().take(24).collect::<String>()),
                    )
                })?
            };
            if v < 0.0 {
                return Err(err(line, col, format!("a latency cannot be negative ({})", crate::model::fmt_num(v, 6))));
            }
            values.push(v);
            columns.push(u32::try_from(col).unwrap_or(u32::MAX));
        }
        row_lines.push(line);
        if row_lines.len() > n {
            return Err(err(line, at(0), format!("more rows than the {n} columns: a latency matrix is square")));
        }
    }
    if row_lines.is_empty() {
        return Err(InputError::new(MATRIX_FIELD, "no matrix yet: paste one row of latencies (µs) per node"));
    }
    if row_lines.len() < n {
        let last = row_lines.last().copied().unwrap_or(1);
        return Err(InputError::new(
            MATRIX_FIELD,
            format!("{} rows but {n} columns: a latency matrix is square (one row per node)", row_lines.len()),
        )
        .at(last, None));
    }
    Ok(LatencyMatrix { n, values, row_lines, columns })
}

/// Mean latency between the nodes of each group, µs (0 for a group of one node).
pub fn group_latency_us(m: &LatencyMatrix, groups: &[Vec<usize>]) -> Vec<f64> {
    groups
        .iter()
        .map(|g| {
            let pairs = g.len() * g.len().saturating_sub(1) / 2;
            let sum: f64 = g
                .iter()
                .enumerate()
                .flat_map(|(a, &i)| g[a + 1..].iter().map(move |&j| (i, j)))
                .map(|(i, j)| m.get(i, j))
                .sum();
            if pairs == 0 {
                0.0
            } else {
                sum / pairs as f64
            }
        })
        .collect()
}

/// The logical homogeneous clusters (see the module docs). ρ must be finite and ≥ 0.
pub fn clusters(m: &LatencyMatrix, rho: f64) -> Vec<Vec<usize>> {
    clusters_of_edges(m, &sorted_edges(m), rho)
}

/// A pair of nodes (latency, i, j), i < j.
pub type Edge = (f64, u32, u32);

/// Every pair of nodes (latency, i, j), i < j, by latency: what [`clusters_of_edges`] merges in
/// order. It does not depend on ρ, so a page keeps it while ρ is typed (for 1,000 nodes the
/// sort is most of the clustering's time).
pub fn sorted_edges(m: &LatencyMatrix) -> Vec<Edge> {
    let n = m.n;
    let mut edges: Vec<Edge> = Vec::with_capacity(n * n.saturating_sub(1) / 2);
    for i in 0..n {
        for j in i + 1..n {
            edges.push((m.get(i, j), i as u32, j as u32));
        }
    }
    // A total order (latency, then nodes), so the result does not depend on the sort used.
    edges.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    edges
}

/// [`clusters`] with the pairs already sorted by [`sorted_edges`] of `m` (symmetric).
///
/// Two groups are tested once, at the first pair across them, when their latency is the
/// smallest across (any earlier pair would have merged them or set them apart for good). The
/// test reads the latencies across until one breaks the bound, so each pair of nodes is read
/// at most once over the whole run: O(n²) after the sort, with one bit per pair of groups.
pub fn clusters_of_edges(m: &LatencyMatrix, edges: &[Edge], rho: f64) -> Vec<Vec<usize>> {
    let n = m.n;
    let bound = 1.0 + if rho.is_finite() { rho.max(0.0) } else { DEFAULT_RHO };
    // Per group (indexed by its root): members, smallest and largest latency inside.
    let mut root: Vec<usize> = (0..n).collect();
    let mut members: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    let (mut in_min, mut in_max) = (vec![f64::INFINITY; n], vec![0.0f64; n]);
    // The pairs of groups found apart; each root's list of the roots it was set apart from
    // (some of which have merged into others since).
    let mut apart = Apart::new(n);
    let mut apart_from: Vec<Vec<usize>> = vec![Vec::new(); n];
    // Groups, and pairs of them apart: once every pair is apart, no later pair can merge.
    let (mut alive, mut pairs_apart) = (n, 0usize);
    for &(e, i, j) in edges {
        if pairs_apart == alive * alive.saturating_sub(1) / 2 {
            break;
        }
        let (a, b) = (root[i as usize], root[j as usize]);
        if a == b || apart.get(a, b) {
            continue;
        }
        let lo = in_min[a].min(in_min[b]).min(e);
        let limit = bound * lo;
        let across =
            if in_max[a].max(in_max[b]) > limit { None } else { largest_within(m, &members[a], &members[b], limit) };
        let Some(across) = across else {
            apart.set(a, b);
            apart_from[a].push(b);
            apart_from[b].push(a);
            pairs_apart += 1;
            continue;
        };
        // Merge the smaller group into the larger one.
        let (keep, gone) = if members[a].len() >= members[b].len() { (a, b) } else { (b, a) };
        let moved = std::mem::take(&mut members[gone]);
        for &v in &moved {
            root[v] = keep;
        }
        members[keep].extend(moved);
        in_min[keep] = lo;
        in_max[keep] = in_max[a].max(in_max[b]).max(across);
        alive -= 1;
        // Whatever was apart from `gone` is apart from the merged group. (The list may name a
        // group twice, by two nodes since merged; its bit, cleared here, counts it once.)
        for t in std::mem::take(&mut apart_from[gone]) {
            let t = root[t];
            if !apart.get(gone, t) {
                continue;
            }
            apart.clear(gone, t);
            pairs_apart -= 1;
            if t != keep && !apart.get(keep, t) {
                apart.set(keep, t);
                apart_from[keep].push(t);
                apart_from[t].push(keep);
                pairs_apart += 1;
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = members.into_iter().filter(|g| !g.is_empty()).collect();
    for g in &mut groups {
        g.sort_unstable();
    }
    groups.sort_unstable_by_key(|g| g.first().copied().unwrap_or(usize::MAX));
    groups
}

/// The largest latency between a node of `a` and one of `b`, or None once one exceeds `limit`.
fn largest_within(m: &LatencyMatrix, a: &[usize], b: &[usize], limit: f64) -> Option<f64> {
    let mut hi = 0.0f64;
    for &u in a {
        for &v in b {
            let x = m.get(u, v);
            if x > limit {
                return None;
            }
            hi = hi.max(x);
        }
    }
    Some(hi)
}

/// One bit per ordered pair of groups (by root), set both ways.
struct Apart {
    n: usize,
    words: Vec<u64>,
}

impl Apart {
    fn new(n: usize) -> Self {
        Apart { n, words: vec![0; (n * n).div_ceil(64)] }
    }
    fn get(&self, a: usize, b: usize) -> bool {
        let k = a * self.n + b;
        self.words.get(k / 64).is_some_and(|w| w >> (k % 64) & 1 == 1)
    }
    fn set(&mut self, a: usize, b: usize) {
        for k in [a * self.n + b, b * self.n + a] {
            if let Some(w) = self.words.get_mut(k / 64) {
                *w |= 1 << (k % 64);
            }
        }
    }
    fn clear(&mut self, a: usize, b: usize) {
        for k in [a * self.n + b, b * self.n + a] {
            if let Some(w) = self.words.get_mut(k / 64) {
                *w &= !(1 << (k % 64));
            }
        }
    }
}

/// SplitMix64: a tiny deterministic generator, the same natively and in wasm.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A per-node matrix from seed Table 2: `machines[c]` nodes for logical cluster c, each pair
/// the latency of its two clusters times (1 ± `noise`) uniformly (the same both ways).
pub fn table2_nodes(machines: [usize; 6], noise: f64, seed: u64) -> LatencyMatrix {
    let cluster: Vec<usize> = machines.iter().enumerate().flat_map(|(c, &k)| std::iter::repeat_n(c, k)).collect();
    let n = cluster.len();
    let mut rng = SplitMix64(seed);
    let mut values = vec![0.0; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let base = TABLE2_US[cluster[i]][cluster[j]]; // ok: cluster ids < 6
            let v = base * (1.0 + noise * (2.0 * rng.unit() - 1.0));
            values[i * n + j] = v;
            values[j * n + i] = v;
        }
    }
    LatencyMatrix { n, values, row_lines: Vec::new(), columns: Vec::new() }
}

/// The clustering benchmark: Table 2's six clusters scaled to `n` nodes, 3 % noise. Native
/// tests and the browser time `clusters(&benchmark_matrix(1000), 0.2)` alike.
pub fn benchmark_matrix(n: usize) -> LatencyMatrix {
    let total: usize = TABLE2_MACHINES.iter().sum();
    let mut machines = TABLE2_MACHINES.map(|k| k * n / total);
    machines[0] += n - machines.iter().sum::<usize>();
    table2_nodes(machines, 0.03, 2006)
}

/// The Grid'5000 preset as text: one row per machine, Table 2's latencies without noise.
pub fn table2_text() -> String {
    let m = table2_nodes(TABLE2_MACHINES, 0.0, 0);
    let mut s = String::from("# Grid'5000 after Nasri et al., Table 2: latency (µs) between machines; rows 1-20 Orsay,\n# 21-31, 32-38 and 39 Grenoble, 40-59 Toulouse, 60-78 Sophia\n");
    for i in 0..m.n {
        let row: Vec<String> = (0..m.n).map(|j| format!("{}", m.get(i, j))).collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s
}

/// Coordinators of the logical clusters: n × n latency and gap (for the message size) between
/// them, µs, and each cluster's local broadcast time, µs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Coordinators {
    pub latency_us: Vec<Vec<f64>>,
    pub gap_us: Vec<Vec<f64>>,
    pub local_us: Vec<f64>,
}

impl Coordinators {
    /// Checks shapes and values; errors name the key as the CLI spells it.
    pub fn validate(&self) -> Result<(), InputError> {
        let k = self.local_us.len();
        if k == 0 || k > MAX_NODES {
            return Err(InputError::new("local_us", format!("expected 1 to {MAX_NODES} clusters, found {k}")));
        }
        for (name, m) in [("latency_us", &self.latency_us), ("gap_us", &self.gap_us)] {
            if m.len() != k {
                return Err(InputError::new(name, format!("{} rows but {k} clusters in local_us", m.len())));
            }
            for (i, r) in m.iter().enumerate() {
                if r.len() != k {
                    return Err(InputError::new(
                        format!("{name}[{i}]"),
                        format!("{} values but {k} clusters", r.len()),
                    ));
                }
                if let Some(j) = r.iter().position(|x| !(x.is_finite() && (0.0..=1e12).contains(x))) {
                    return Err(InputError::new(format!("{name}[{i}][{j}]"), "expected µs from 0 to 1e12"));
                }
            }
        }
        if let Some(j) = self.local_us.iter().position(|x| !(x.is_finite() && (0.0..=1e12).contains(x))) {
            return Err(InputError::new(format!("local_us[{j}]"), "expected µs from 0 to 1e12"));
        }
        Ok(())
    }
}

/// One inter-cluster message of a schedule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Transfer {
    pub from: usize,
    pub to: usize,
    /// When the sender starts (its ready time), µs.
    pub start_us: f64,
    /// When the receiving coordinator has the message, µs.
    pub arrival_us: f64,
    /// When the receiving cluster's local broadcast ends, µs.
    pub local_end_us: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Schedule {
    pub transfers: Vec<Transfer>,
    /// Last arrival at a coordinator, µs.
    pub inter_us: f64,
    /// Largest arrival + local broadcast over every cluster (the root's arrival is 0), µs.
    pub completion_us: f64,
}

/// ECEF (`look_ahead` false) or ECEF-LAt (true) from coordinator `root` (validated input;
/// a root out of range is taken as 0).
pub fn ecef(c: &Coordinators, root: usize, look_ahead: bool) -> Schedule {
    let k = c.local_us.len();
    let root = if root < k { root } else { 0 };
    let at = |m: &Vec<Vec<f64>>, i: usize, j: usize| m.get(i).and_then(|r| r.get(j)).copied().unwrap_or(0.0);
    let mut ready = vec![0.0; k];
    let mut has = vec![false; k];
    if let Some(h) = has.get_mut(root) {
        *h = true;
    }
    let mut transfers = Vec::with_capacity(k.saturating_sub(1));
    for _ in 1..k {
        // Each waiting cluster's earliest arrival and its sender.
        let mut pick: Option<(usize, usize, f64, f64)> = None; // (i, j, arrival, key)
        for j in (0..k).filter(|&j| !has[j]) {
            let Some((i, arr)) = (0..k)
                .filter(|&i| has[i])
                .map(|i| (i, ready[i] + at(&c.gap_us, i, j) + at(&c.latency_us, i, j)))
                .reduce(|a, b| if b.1 < a.1 { b } else { a })
            else {
                continue;
            };
            let local = c.local_us.get(j).copied().unwrap_or(0.0);
            let better = match pick {
                None => true,
                Some((_, _, parr, pkey)) if look_ahead => arr + local > pkey || (arr + local == pkey && arr < parr),
                Some((_, _, parr, _)) => arr < parr,
            };
            if better {
                pick = Some((i, j, arr, arr + local));
            }
        }
        let Some((i, j, arrival, local_end)) = pick else { break };
        transfers.push(Transfer { from: i, to: j, start_us: ready[i], arrival_us: arrival, local_end_us: local_end });
        ready[i] += at(&c.gap_us, i, j);
        ready[j] = arrival;
        has[j] = true;
    }
    let root_local = c.local_us.get(root).copied().unwrap_or(0.0);
    Schedule {
        inter_us: transfers.iter().map(|t| t.arrival_us).fold(0.0, f64::max),
        completion_us: transfers.iter().map(|t| t.local_end_us).fold(root_local, f64::max),
        transfers,
    }
}

/// Processes of each cluster and the latency and gap of a message inside it, µs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClusterProcs {
    pub procs: Vec<u32>,
    pub latency_us: Vec<f64>,
    pub gap_us: Vec<f64>,
}

/// Completion of MPICH's binomial broadcast over every process, ranks numbered cluster by
/// cluster, rooted at the first process of `root` cluster: each message takes the intra-
/// or inter-cluster L and g; a sender sends to its children one after another (largest
/// subtree first), busy g for each. None when the shapes disagree or there are too many
/// processes.
pub fn binomial_all(c: &Coordinators, p: &ClusterProcs, root: usize) -> Option<f64> {
    let k = c.local_us.len();
    if p.procs.len() != k || p.latency_us.len() != k || p.gap_us.len() != k || root >= k {
        return None;
    }
    let total: u64 = p.procs.iter().map(|&x| u64::from(x)).sum();
    if total == 0 || total > MAX_TOTAL_PROCS {
        return None;
    }
    let total = total as usize;
    let cluster_of: Vec<usize> =
        p.procs.iter().enumerate().flat_map(|(c, &n)| std::iter::repeat_n(c, n as usize)).collect();
    let first: usize = p.procs.iter().take(root).map(|&x| x as usize).sum();
    let rank = |v: usize| (v + first) % total;
    let mut arrival = vec![0.0f64; total];
    for v in 0..total {
        let mut ready = arrival[v];
        let low = if v == 0 { total.next_power_of_two() } else { 1 << v.trailing_zeros() };
        let mut mask = low >> 1;
        while mask > 0 {
            if v + mask < total {
                let (a, b) = (cluster_of[rank(v)], cluster_of[rank(v + mask)]); // ok: ranks < total
                let (l, g) = if a == b {
                    (p.latency_us[a], p.gap_us[a])
                } else {
                    (c.latency_us[a][b], c.gap_us[a][b]) // ok: validated k × k
                };
                arrival[v + mask] = ready + g + l;
                ready += g;
            }
            mask >>= 1;
        }
    }
    Some(arrival.into_iter().fold(0.0, f64::max))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expected_groups(machines: &[usize]) -> Vec<Vec<usize>> {
        let mut start = 0;
        machines
            .iter()
            .map(|&k| {
                start += k;
                (start - k..start).collect()
            })
            .collect()
    }

    #[test]
    fn table2_with_noise_gives_its_six_groups() {
        for seed in [1, 2, 3, 2006] {
            let m = table2_nodes(TABLE2_MACHINES, 0.03, seed);
            assert_eq!(m.n, 78);
            assert_eq!(m.asymmetry(), None);
            assert_eq!(clusters(&m, DEFAULT_RHO), expected_groups(&TABLE2_MACHINES), "seed {seed}");
        }
    }

    #[test]
    fn shuffled_nodes_give_the_same_groups() {
        let m = table2_nodes(TABLE2_MACHINES, 0.03, 7);
        let n = m.n;
        // A seeded Fisher–Yates permutation: new node p[i] is old node i.
        let mut p: Vec<usize> = (0..n).collect();
        let mut rng = SplitMix64(99);
        for i in (1..n).rev() {
            p.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        let mut values = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                values[p[i] * n + p[j]] = m.get(i, j);
            }
        }
        let shuffled = LatencyMatrix { n, values, row_lines: vec![], columns: vec![] };
        let mut want: Vec<Vec<usize>> =
            expected_groups(&TABLE2_MACHINES).iter().map(|g| g.iter().map(|&i| p[i]).collect()).collect();
        for g in &mut want {
            g.sort_unstable();
        }
        want.sort();
        assert_eq!(clusters(&shuffled, 0.2), want);
    }

    #[test]
    fn rho_decides_small_cases_by_hand() {
        // 0-1: 10, 2-3: 11, 0-2 etc: 12. With ρ = 0.1: {0,1} (10), {2,3} (11); merging them
        // would hold 10..12 > 11. With ρ = 0.25 all four merge (12 ≤ 12.5).
        let m = LatencyMatrix::from_rows(
            "latency_us",
            &[
                vec![0.0, 10.0, 12.0, 12.0],
                vec![10.0, 0.0, 12.0, 12.0],
                vec![12.0, 12.0, 0.0, 11.0],
                vec![12.0, 12.0, 11.0, 0.0],
            ],
        )
        .expect("valid");
        assert_eq!(clusters(&m, 0.1), vec![vec![0, 1], vec![2, 3]]);
        assert_eq!(clusters(&m, 0.25), vec![vec![0, 1, 2, 3]]);
        assert_eq!(clusters(&m, 0.0), vec![vec![0, 1], vec![2, 3]]);
        // A group's largest latency inside counts when it meets another: {0, 1, 2} forms at
        // 0-2 (11) holding 1-2 (12); {3, 4} at 9. At their first pair across (11.5) the union's
        // smallest is 9, and 12 > 1.3 × 9 although every latency across is within it.
        let m = LatencyMatrix::from_rows(
            "latency_us",
            &[
                vec![0.0, 10.0, 11.0, 11.5, 11.5],
                vec![10.0, 0.0, 12.0, 11.5, 11.5],
                vec![11.0, 12.0, 0.0, 11.5, 11.5],
                vec![11.5, 11.5, 11.5, 0.0, 9.0],
                vec![11.5, 11.5, 11.5, 9.0, 0.0],
            ],
        )
        .expect("valid");
        assert_eq!(clusters(&m, 0.3), vec![vec![0, 1, 2], vec![3, 4]]);
        assert_eq!(clusters(&m, 0.35), vec![vec![0, 1, 2, 3, 4]]);
        let one = LatencyMatrix::from_rows("latency_us", &[vec![0.0]]).expect("valid");
        assert_eq!(clusters(&one, 0.2), vec![vec![0]]);
    }

    #[test]
    fn pasted_matrices_and_their_errors() {
        let table2 = "\tC1\tC21\n\t20 x Orsay\t11 x Grenoble\nC1\t48.39\t6577.49\nC21\t6577.49\t35.52\n";
        let m = parse_matrix(table2).expect("labels and headers");
        // Columns count characters, as every other parse error does (issue 45, item 21): the
        // label "C1" and a tab come before 48.39 in column 4.
        assert_eq!(
            (m.n, m.get(0, 1), m.row_lines.clone(), m.columns.clone()),
            (2, 6577.49, vec![3, 4], vec![4, 10, 5, 13])
        );
        let cases: &[(&str, usize, Option<usize>, &str)] = &[
            ("0 1 2\n1 0 2", 2, None, "2 rows but 3 columns"),
            ("0 1\n1 0 5", 2, Some(5), "3 latencies on this line but 2"),
            ("0,1,2\n1,,0\n2,0,0", 2, Some(3), "missing latency"),
            ("0 -1\n1 0", 1, Some(3), "cannot be negative"),
            ("0   x\n1 0", 1, Some(5), "expected a latency"),
            ("0 1\n1 0\n1 1", 3, Some(1), "more rows than"),
            ("a\tb\nn1\t0\t-\nn2\t1\t0", 2, Some(6), "missing latency"),
            ("0 1\n1 0 µ", 2, Some(5), "3 latencies on this line but 2"),
            ("0, 1\n2", 2, Some(2), "1 latencies on this line but 2"),
        ];
        for (text, line, col, msg) in cases {
            let e = parse_matrix(text).expect_err(text);
            assert_eq!((e.line, e.column), (Some(*line), *col), "{text:?}: {e}");
            assert!(e.message.contains(msg), "{text:?}: {e}");
        }
        let asym = parse_matrix("x a b c\nn0 0 1 2\nn1 1 0 3\nn2 2 4 0").expect("square");
        let e = asym.symmetry_error().expect("asymmetric");
        assert_eq!((e.line, e.column), (Some(3), Some(8)), "{e}");
        assert!(e.message.contains("node 1 to 2 is 3 µs but 2 to 1 is 4 µs"), "{e}");
        let s = asym.symmetrise();
        assert_eq!((s.get(1, 2), s.get(2, 1), s.symmetry_error()), (3.5, 3.5, None));
        assert!(parse_matrix("# nothing\n").is_err());
    }

    #[test]
    fn preset_text_reads_back() {
        let m = parse_matrix(&table2_text()).expect("preset parses");
        assert_eq!(m.n, 78);
        assert_eq!(clusters(&m, 0.2), expected_groups(&TABLE2_MACHINES));
    }

    #[test]
    fn benchmark_matrix_clusters_quickly() {
        let m = benchmark_matrix(1000);
        assert_eq!(m.n, 1000);
        let t = std::time::Instant::now();
        let g = clusters(&m, 0.2);
        let elapsed = t.elapsed();
        assert_eq!(g.len(), 6);
        // Generous: the measured figure is in the report; this only catches a quadratic blow-up.
        assert!(elapsed.as_secs_f64() < 5.0, "{elapsed:?}");
    }

    fn small() -> Coordinators {
        // Three coordinators; every gap 2 µs; latencies 0-1: 10, 0-2: 30, 1-2: 5.
        let l = vec![vec![0.0, 10.0, 30.0], vec![10.0, 0.0, 5.0], vec![30.0, 5.0, 0.0]];
        let g = vec![vec![0.0, 2.0, 2.0], vec![2.0, 0.0, 2.0], vec![2.0, 2.0, 0.0]];
        Coordinators { latency_us: l, gap_us: g, local_us: vec![5.0, 1.0, 50.0] }
    }

    #[test]
    fn ecef_by_hand() {
        let c = small();
        assert_eq!(c.validate(), Ok(()));
        // Step 1: 0→1 ends at 0 + 2 + 10 = 12, 0→2 at 32: 0→1; RT0 = 2, RT1 = 12.
        // Step 2: 0→2 ends at 2 + 2 + 30 = 34, 1→2 at 12 + 2 + 5 = 19: 1→2.
        // Completion: max(5, 12 + 1, 19 + 50) = 69.
        let s = ecef(&c, 0, false);
        let got: Vec<(usize, usize, f64, f64)> =
            s.transfers.iter().map(|t| (t.from, t.to, t.start_us, t.arrival_us)).collect();
        assert_eq!(got, vec![(0, 1, 0.0, 12.0), (1, 2, 12.0, 19.0)]);
        assert_eq!((s.inter_us, s.completion_us), (19.0, 69.0));
        // ECEF-LAt: earliest arrivals 12 (cluster 1) and 32 (cluster 2); 32 + 50 > 12 + 1, so
        // 2 first (0→2 at 32, RT0 = 2); then 1: from 0 at 2 + 2 + 10 = 14, from 2 at 39: 0→1.
        let s = ecef(&c, 0, true);
        let got: Vec<(usize, usize, f64, f64)> =
            s.transfers.iter().map(|t| (t.from, t.to, t.start_us, t.arrival_us)).collect();
        assert_eq!(got, vec![(0, 2, 0.0, 32.0), (0, 1, 2.0, 14.0)]);
        assert_eq!((s.inter_us, s.completion_us), (32.0, 82.0));
        // From root 2: 2→1 at 7, then 1→0 at 7 + 2 + 10 = 19 beats 2→0 at 2 + 2 + 30.
        let s = ecef(&c, 2, false);
        assert_eq!(s.transfers.iter().map(|t| (t.from, t.to)).collect::<Vec<_>>(), vec![(2, 1), (1, 0)]);
    }

    #[test]
    fn binomial_over_all_processes_by_hand() {
        let c = small();
        // One process per cluster, ranks 0, 1, 2: rank 0 sends to 2 (mask 2) then to 1 (mask 1):
        // arrival at 2 = 2 + 30 = 32, at 1 = 2 + 2 + 10 = 14. Completion 32.
        let p = ClusterProcs { procs: vec![1, 1, 1], latency_us: vec![1.0; 3], gap_us: vec![1.0; 3] };
        assert_eq!(binomial_all(&c, &p, 0), Some(32.0));
        // Two processes in cluster 0 only: one intra message, g + L = 2.
        let p = ClusterProcs { procs: vec![2, 0, 0], latency_us: vec![1.0; 3], gap_us: vec![1.0; 3] };
        assert_eq!(binomial_all(&c, &p, 0), Some(2.0));
        // Four processes, two in cluster 0 and two in 1, rooted at cluster 1 (ranks 2, 3, 0, 1):
        // v0 = rank 2 sends to v2 = rank 0 (inter, 12) then v1 = rank 3 (intra, 2 + 2 = 4);
        // v2 sends to v3 = rank 1 (intra): 12 + 2 = 14.
        let p = ClusterProcs { procs: vec![2, 2, 0], latency_us: vec![1.0; 3], gap_us: vec![1.0; 3] };
        assert_eq!(binomial_all(&c, &p, 1), Some(14.0));
        assert_eq!(binomial_all(&c, &ClusterProcs { procs: vec![1], latency_us: vec![], gap_us: vec![] }, 0), None);
    }

    /// The clustering as the module docs define it, by brute force: pairs by increasing
    /// latency (ties by node), and two groups merge when every latency inside their union,
    /// read afresh, is within (1 + ρ) × the smallest.
    fn clusters_by_definition(m: &LatencyMatrix, rho: f64) -> Vec<Vec<usize>> {
        let n = m.n;
        let mut group: Vec<usize> = (0..n).collect();
        let mut pairs: Vec<(f64, usize, usize)> =
            (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).map(|(i, j)| (m.get(i, j), i, j)).collect();
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        for (_, i, j) in pairs {
            let (a, b) = (group[i], group[j]);
            if a == b {
                continue;
            }
            let union: Vec<usize> = (0..n).filter(|&v| group[v] == a || group[v] == b).collect();
            let lat: Vec<f64> =
                union.iter().flat_map(|&u| union.iter().filter(move |&&v| v > u).map(move |&v| m.get(u, v))).collect();
            let (lo, hi) = (lat.iter().copied().fold(f64::INFINITY, f64::min), lat.iter().copied().fold(0.0, f64::max));
            if hi <= (1.0 + rho) * lo {
                for g in &mut group {
                    if *g == b {
                        *g = a;
                    }
                }
            }
        }
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for v in 0..n {
            match groups.iter_mut().find(|g| group[g[0]] == group[v]) {
                Some(g) => g.push(v),
                None => groups.push(vec![v]),
            }
        }
        groups
    }

    proptest::proptest! {
        /// Up to 12 nodes whose latencies take few values (so ties and near-ties are common): the
        /// same groups as the definition read afresh at every pair.
        #[test]
        fn groups_follow_the_definition(n in 1usize..12, vals in proptest::collection::vec(1u8..8, 66), rho in 0.0f64..0.8) {
            let mut rows = vec![vec![0.0; n]; n];
            let pairs = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j)));
            for ((i, j), &v) in pairs.zip(&vals) {
                rows[i][j] = f64::from(v) * 10.0;
                rows[j][i] = rows[i][j];
            }
            let m = LatencyMatrix::from_rows("latency_us", &rows).expect("valid");
            proptest::prop_assert_eq!(clusters(&m, rho), clusters_by_definition(&m, rho));
        }

        /// Groups partition the nodes, and inside each group every latency is within the bound.
        #[test]
        fn groups_partition_and_respect_the_bound(vals in proptest::collection::vec(0.0f64..100.0, 36), rho in 0.0f64..1.0) {
            let n = 6;
            let mut rows = vec![vec![0.0; n]; n];
            for i in 0..n {
                for j in i + 1..n {
                    rows[i][j] = vals[i * n + j];
                    rows[j][i] = vals[i * n + j];
                }
            }
            let m = LatencyMatrix::from_rows("latency_us", &rows).expect("valid");
            let groups = clusters(&m, rho);
            proptest::prop_assert_eq!(&groups, &clusters_by_definition(&m, rho));
            let mut all: Vec<usize> = groups.iter().flatten().copied().collect();
            all.sort_unstable();
            proptest::prop_assert_eq!(all, (0..n).collect::<Vec<_>>());
            for g in &groups {
                let rows = &rows;
                let lat: Vec<f64> = g.iter().flat_map(|&i| g.iter().filter(move |&&j| j > i).map(move |&j| rows[i][j])).collect();
                if let (Some(lo), Some(hi)) = (lat.iter().copied().reduce(f64::min), lat.iter().copied().reduce(f64::max)) {
                    proptest::prop_assert!(hi <= (1.0 + rho) * lo, "{g:?}: {lo}..{hi}");
                }
            }
        }
    }
}

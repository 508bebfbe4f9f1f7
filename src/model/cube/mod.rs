//! Reader (and a small writer) for Cube 4 profiles (`.cubex`, as Score-P writes them).
//!
//! A `.cubex` file is a POSIX tar archive (optionally gzipped) holding `anchor.xml` (metrics, regions, the call
//! tree and the system tree; itself optionally gzipped), and per metric with stored data `{id}.index` and
//! `{id}.data`. Other members (e.g. `remapping.spec`) are ignored. [`read`] takes the file's bytes and returns a
//! [`Cube`]; [`Cube::values`] decodes one metric into a `[cnode][location]` table of `f64`, converting between
//! exclusive and inclusive values when asked.
//!
//! # Sources (format facts only; the code is our own)
//! - pycubexr, <https://github.com/extra-p/pycubexr> (BSD-3-Clause, Copyright (c) 2020-2022 Technical University
//!   of Darmstadt): `docs/cube_file_format.md`, `pycubexr/parsers/*.py` (index and data layout, the two tree
//!   enumerations), `pycubexr/utils/metric_formats.py` (dtype sizes), `pycubexr/classes/metric_values.py`
//!   (exclusive/inclusive conversion and its unsigned rule), `pycubexr/classes/values.py` (UINT64 cut-off,
//!   MIN/MAXDOUBLE aggregation).
//! - Extra-P 4.2.5, <https://github.com/extra-p/extrap> (BSD-3-Clause, Copyright (c) 2020-2023 Technical
//!   University of Darmstadt): `extrap/fileio/file_reader/cube_file_reader2.py` (call-path names, skipping
//!   metrics without data).
//! - CubeLib (BSD-style, Forschungszentrum Juelich): the index formats (NONE=0, SPARSE=1, DENSE=3) and
//!   `TauAtomicValue::getDouble` (default pivot: average = sum / n).
//!
//! # Choices
//! - **Call paths**: region names joined with `->` from the root, exactly as Extra-P's `_make_callpath_mapping`.
//!   Siblings with the same region name get the *same* call-path string (Extra-P adds no suffix; it merges their
//!   measurements under one key). [`Cube::callpath`] does the same; callers that need unique keys use the cnode
//!   index.
//! - **Locations** (the columns of a value table) are ordered by their `Id` attribute (CubeLib indexes rows by the
//!   location id); for Score-P files this is also document order. Old Cube 4.0 `<process>`/`<thread>` elements are
//!   read like `<locationgroup>`/`<location>`.
//! - **Metrics without data** (no `{id}.index`, e.g. derived metrics): [`Cube::values`] returns an `Err` naming
//!   the metric, and [`Metric::has_data`] says so up front, so a caller can skip them like Extra-P does (Extra-P
//!   skips them with a warning). Silent zeros would hide a derived metric's real values.
//! - **Metric `type`**: `EXCLUSIVE`/`INCLUSIVE` as stored; a missing type attribute is taken as EXCLUSIVE;
//!   `SIMPLE` is read as EXCLUSIVE; `POSTDERIVED`, `PREDERIVED_INCLUSIVE`, `PREDERIVED_EXCLUSIVE` have no stored
//!   data (their raw name is kept in [`Metric::type_name`]).
//! - **Unsigned counters** (UINT8..UINT64, CHAR): converting inclusive to exclusive clamps at zero, as pycubexr
//!   does for CubeLib (a child's inclusive value larger than what is left of the parent's is cut to it, so
//!   `exclusive = max(0, inclusive - children...)`, applied child by child). UINT64 values above
//!   `0xFFFF_FFFF_FFFF_FBFF` read as 0 (CubeLib's uint64 → double → uint64 round trip; pycubexr's default).
//! - **MINDOUBLE/MAXDOUBLE**: inclusive = min/max of the node's and the children's inclusive values, a child row
//!   that is all zeros being skipped (pycubexr's rule); exclusive from inclusive applies the same aggregation.
//! - **Composite dtypes**: TAU_ATOMIC → its average `sum / n` (CubeLib's default pivot TAU_AVG; n = 0 gives
//!   `sum / 1e-256`, as CubeLib); RATE (main, duration) → `main / duration` (0 when duration is 0); COMPLEX →
//!   its modulus (pycubexr). These are returned in their stored kind only: asking for the other kind is an `Err`
//!   (their sums are not sums of the scalars). NDOUBLES, HISTOGRAM, SCALE_FUNC and unknown dtypes → `Err`.
//! - Checksums of tar headers are not verified (CubeWriter 4.8 writes wrong ones); the gzip CRC is not checked.
//!
//! # Memory
//! [`read`] keeps a copy of the `.index`/`.data` members only (zlib data stays compressed until
//! [`Cube::values`]). Peak while reading a gzipped 40 MB profile: the 40 MB input (the caller's) + the inflated
//! tar (limited by [`Limits::max_bytes`]) + the copied index/data members (< inflated size) + the anchor's
//! parsed tree (the anchor is streamed with quick-xml, no DOM). After `read` only the members remain.
//! [`Cube::values`] allocates `cnodes × locations × 8` bytes for its result (checked against `max_bytes`) plus,
//! for ZCUBEX data, the inflated rows.

mod anchor;
mod tar;
mod values;
mod write;

#[cfg(test)]
mod tests;

pub use self::write::{write, Spec, SpecCnode, SpecMetric, WriteOptions};

use std::fmt;

/// Bounds on what one file may make [`read`] and [`Cube::values`] allocate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most bytes decompressed from one file (archive, anchor and data members together), and most bytes of one
    /// value table.
    pub max_bytes: usize,
    /// Most call-tree nodes (call paths).
    pub max_cnodes: usize,
    /// Most locations (threads/processes).
    pub max_locations: usize,
    /// Most metrics.
    pub max_metrics: usize,
}

impl Limits {
    /// 512 MiB, 1,000,000 call paths, 1,000,000 locations, 10,000 metrics.
    pub const DEFAULT: Limits =
        Limits { max_bytes: 512 << 20, max_cnodes: 1_000_000, max_locations: 1_000_000, max_metrics: 10_000 };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// What went wrong, naming the archive member and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub message: String,
}

impl Error {
    pub(crate) fn new(message: impl Into<String>) -> Error {
        Error { message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// A metric's stored kind, and what a caller asks [`Cube::values`] for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Exclusive,
    Inclusive,
}

/// Every data type Cube defines. Aliases map to one variant: INTEGER and SIGNED INTEGER → `Int64`, INT and
/// SIGNED INT → `Int32`, SHORT INT and SIGNED SHORT INT → `Int16`, UNSIGNED INTEGER → `Uint64`, UNSIGNED INT →
/// `Uint32`, UNSIGNED SHORT INT → `Uint16`. FLOAT is stored as 8 bytes (as pycubexr reads it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DType {
    Double,
    Float,
    MinDouble,
    MaxDouble,
    Char,
    Int8,
    Uint8,
    Int16,
    Uint16,
    Int32,
    Uint32,
    Int64,
    Uint64,
    Complex,
    Rate,
    TauAtomic,
    NDoubles(u32),
    Histogram(u32),
    ScaleFunc,
    /// A dtype this reader does not know, as written.
    Unknown(String),
}

impl DType {
    /// Parses a `<dtype>` text (trimmed, case-sensitive as Cube writes it, e.g. `UINT64`, `NDOUBLES(10)`).
    pub fn parse(s: &str) -> DType {
        let s = s.trim();
        let with_arg = |prefix: &str| -> Option<u32> {
            let rest = s.strip_prefix(prefix)?.trim_start();
            let inner = rest.strip_prefix('(')?.strip_suffix(')')?;
            inner.trim().parse::<u32>().ok()
        };
        match s {
            "DOUBLE" => DType::Double,
            "FLOAT" => DType::Float,
            "MINDOUBLE" => DType::MinDouble,
            "MAXDOUBLE" => DType::MaxDouble,
            "CHAR" => DType::Char,
            "INT8" => DType::Int8,
            "UINT8" => DType::Uint8,
            "INT16" | "SHORT INT" | "SIGNED SHORT INT" => DType::Int16,
            "UINT16" | "UNSIGNED SHORT INT" => DType::Uint16,
            "INT32" | "INT" | "SIGNED INT" => DType::Int32,
            "UINT32" | "UNSIGNED INT" => DType::Uint32,
            "INT64" | "INTEGER" | "SIGNED INTEGER" => DType::Int64,
            "UINT64" | "UNSIGNED INTEGER" => DType::Uint64,
            "COMPLEX" => DType::Complex,
            "RATE" => DType::Rate,
            "TAU_ATOMIC" => DType::TauAtomic,
            "SCALE_FUNC" => DType::ScaleFunc,
            _ => {
                if let Some(n) = with_arg("NDOUBLES") {
                    DType::NDoubles(n)
                } else if let Some(n) = with_arg("HISTOGRAM") {
                    DType::Histogram(n)
                } else {
                    DType::Unknown(s.to_string())
                }
            }
        }
    }

    /// The canonical Cube name of this dtype.
    pub fn name(&self) -> String {
        match self {
            DType::Double => "DOUBLE".into(),
            DType::Float => "FLOAT".into(),
            DType::MinDouble => "MINDOUBLE".into(),
            DType::MaxDouble => "MAXDOUBLE".into(),
            DType::Char => "CHAR".into(),
            DType::Int8 => "INT8".into(),
            DType::Uint8 => "UINT8".into(),
            DType::Int16 => "INT16".into(),
            DType::Uint16 => "UINT16".into(),
            DType::Int32 => "INT32".into(),
            DType::Uint32 => "UINT32".into(),
            DType::Int64 => "INT64".into(),
            DType::Uint64 => "UINT64".into(),
            DType::Complex => "COMPLEX".into(),
            DType::Rate => "RATE".into(),
            DType::TauAtomic => "TAU_ATOMIC".into(),
            DType::NDoubles(n) => format!("NDOUBLES({n})"),
            DType::Histogram(n) => format!("HISTOGRAM({n})"),
            DType::ScaleFunc => "SCALE_FUNC".into(),
            DType::Unknown(s) => s.clone(),
        }
    }

    /// Whether the values are unsigned integers (conversion to exclusive clamps at zero).
    pub fn is_unsigned(&self) -> bool {
        matches!(self, DType::Char | DType::Uint8 | DType::Uint16 | DType::Uint32 | DType::Uint64)
    }
}

/// One metric of the anchor's metric tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    pub id: u32,
    pub uniq_name: String,
    pub disp_name: String,
    /// The `<uom>` text, e.g. `sec`, `occ`, `bytes`.
    pub units: String,
    pub kind: Kind,
    pub dtype: DType,
    /// Index into [`Cube::metrics`] of the parent in the metric tree.
    pub parent: Option<usize>,
    /// The raw `type` attribute (`EXCLUSIVE`, `INCLUSIVE`, `POSTDERIVED`, ...; empty when absent).
    pub type_name: String,
    /// Whether the archive holds `{id}.index` and `{id}.data` for this metric.
    pub has_data: bool,
}

/// One call-tree node. `region` indexes [`Cube::regions`]; `parent` and `children` index [`Cube::cnodes`], which
/// is in pre-order (document order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cnode {
    pub id: u32,
    pub region: usize,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
}

/// One location (a column of a value table).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The `Id` attribute.
    pub id: i64,
    pub name: String,
    /// The `<rank>` of the enclosing location group (the process rank).
    pub rank: i64,
    /// The location's own `<rank>` (the thread number within its process).
    pub thread: i64,
    /// The `<type>` text, e.g. `thread`, `gpu`.
    pub kind: String,
}

/// Where a metric's index and data members sit in [`Cube`]'s private store.
#[derive(Debug, Clone)]
pub(crate) struct Members {
    index: std::ops::Range<usize>,
    data: std::ops::Range<usize>,
}

/// A read profile: the anchor's structure, plus the members' bytes needed for [`Cube::values`].
#[derive(Debug, Clone)]
pub struct Cube {
    pub metrics: Vec<Metric>,
    /// Region names (entities resolved), in document order; [`Cnode::region`] indexes this.
    pub regions: Vec<String>,
    pub cnodes: Vec<Cnode>,
    pub locations: Vec<Location>,
    members: Vec<Option<Members>>,
    store: Vec<u8>,
    limits: Limits,
}

/// A metric's values: `rows() == cnodes.len()` rows (in [`Cube::cnodes`] order) of `locations` values each.
#[derive(Debug, Clone, PartialEq)]
pub struct Values {
    pub locations: usize,
    data: Vec<f64>,
}

impl Values {
    /// The values of one cnode (index into [`Cube::cnodes`]), one per location; empty if out of range.
    pub fn row(&self, cnode: usize) -> &[f64] {
        let start = cnode.saturating_mul(self.locations);
        self.data.get(start..start.saturating_add(self.locations)).unwrap_or(&[])
    }

    /// Number of rows (cnodes).
    pub fn rows(&self) -> usize {
        self.data.len().checked_div(self.locations).unwrap_or(0)
    }

    /// All values, row-major (`[cnode][location]`).
    pub fn as_slice(&self) -> &[f64] {
        &self.data
    }
}

/// Reads a `.cubex` file's bytes.
pub fn read(bytes: &[u8], limits: &Limits) -> Result<Cube, Error> {
    let mut budget = limits.max_bytes;
    let inflated;
    let archive: &[u8] = if tar::is_gzip(bytes) {
        inflated = tar::gunzip(bytes, &mut budget).map_err(|e| Error::new(format!("archive: {e}")))?;
        &inflated
    } else {
        bytes
    };
    let entries = tar::entries(archive)?;
    let anchor_raw = entries.iter().find(|e| e.name == "anchor.xml").map(|e| e.data).ok_or_else(|| {
        Error::new(
            "not a Cube file: expected a tar archive (optionally gzipped) holding anchor.xml; found no anchor.xml",
        )
    })?;
    let anchor_inflated;
    let anchor_bytes: &[u8] = if tar::is_gzip(anchor_raw) {
        anchor_inflated = tar::gunzip(anchor_raw, &mut budget).map_err(|e| Error::new(format!("anchor.xml: {e}")))?;
        &anchor_inflated
    } else {
        anchor_raw
    };
    let parsed = anchor::parse(anchor_bytes, limits)?;

    let mut store = Vec::new();
    let mut members = Vec::with_capacity(parsed.metrics.len());
    let mut metrics = parsed.metrics;
    for m in metrics.iter_mut() {
        let index_name = format!("{}.index", m.id);
        let data_name = format!("{}.data", m.id);
        let index = entries.iter().find(|e| e.name == index_name);
        let data = entries.iter().find(|e| e.name == data_name);
        match (index, data) {
            (Some(i), Some(d)) => {
                let a = store.len();
                store.extend_from_slice(i.data);
                let b = store.len();
                store.extend_from_slice(d.data);
                let c = store.len();
                m.has_data = true;
                members.push(Some(Members { index: a..b, data: b..c }));
            }
            (Some(_), None) => {
                return Err(Error::new(format!("{index_name}: found without {data_name} (metric {})", m.uniq_name)))
            }
            _ => {
                m.has_data = false;
                members.push(None);
            }
        }
    }
    Ok(Cube {
        metrics,
        regions: parsed.regions,
        cnodes: parsed.cnodes,
        locations: parsed.locations,
        members,
        store,
        limits: *limits,
    })
}

impl Cube {
    /// The call path of a cnode: region names from the root joined with `->` (Extra-P's naming); empty if the
    /// index is out of range.
    pub fn callpath(&self, cnode: usize) -> String {
        let mut names = Vec::new();
        let mut cur = Some(cnode);
        let mut steps = 0usize;
        while let Some(i) = cur {
            let Some(node) = self.cnodes.get(i) else {
                break;
            };
            names.push(self.regions.get(node.region).map(String::as_str).unwrap_or(""));
            cur = node.parent;
            steps += 1;
            if steps > self.cnodes.len() {
                break;
            }
        }
        names.reverse();
        names.join("->")
    }

    /// The index into [`Cube::metrics`] of the metric with this unique name.
    pub fn metric(&self, uniq_name: &str) -> Option<usize> {
        self.metrics.iter().position(|m| m.uniq_name == uniq_name)
    }

    /// The values of a metric (index into [`Cube::metrics`]) for every cnode and location, as `want`
    /// (converted when the stored kind differs). A metric without data is an `Err` (see the module doc).
    pub fn values(&self, metric: usize, want: Kind) -> Result<Values, Error> {
        let m = self
            .metrics
            .get(metric)
            .ok_or_else(|| Error::new(format!("no metric with index {metric} (there are {})", self.metrics.len())))?;
        let members = match self.members.get(metric) {
            Some(Some(x)) => x,
            _ => {
                return Err(Error::new(format!(
                    "metric {} (id {}, type {}) has no data: the archive holds no {}.index/{}.data",
                    m.uniq_name,
                    m.id,
                    if m.type_name.is_empty() { "EXCLUSIVE" } else { &m.type_name },
                    m.id,
                    m.id
                )))
            }
        };
        let index = self.store.get(members.index.clone()).unwrap_or(&[]);
        let data = self.store.get(members.data.clone()).unwrap_or(&[]);
        values::decode(self, m, index, data, want)
    }
}

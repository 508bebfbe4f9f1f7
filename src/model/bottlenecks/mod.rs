//! Extra-P experiments (Extra-P 4, the performance-modelling tool of TU Darmstadt and JSC:
//! <https://github.com/extra-p/extrap>, `docs/file-formats.md`). An experiment holds many call
//! paths (regions) and metrics, measured at a few points of one to four parameters (process
//! count, problem size, …), each point with its repetitions.
//!
//! Four of Extra-P's input formats are read here, every one in which Extra-P's own test data
//! holds experiments as text (`tests/data/extrap-upstream/`, `tests/extrap_upstream.rs`; not
//! its Cube directories nor Extra-P 3's binary files):
//! - the text format (`extrap --text`, `text.rs`): `PARAMETER`, `POINTS`, then
//!   `REGION`/`METRIC` sections with one `DATA` line of repetitions per point, in the order of
//!   the points;
//! - the JSON format (`extrap --json`, `json.rs`), the newer layout `{"parameters": [..],
//!   "measurements": {callpath: {metric: [{"point": [..], "values": [..]}]}}}` and the older
//!   one with ids (`json_ids.rs`: tables of `parameters`, `callpaths`, `metrics`,
//!   `coordinates`, and `measurements` of one value that refer to them by id), told apart by
//!   its `"callpaths"` key as Extra-P tells them; both are [`Format::Json`];
//! - JSON Lines (`extrap --json` on a `.jsonl` file, `json.rs`): one object per line,
//!   `{"params": {name: value}, "value": v or [v, ..], "callpath": .., "metric": ..}`; a
//!   missing callpath is Extra-P's `<root>`, a missing metric `<default>`;
//! - Talpas (`extrap --talpas`, `talpas.rs`): one record per line, `{"parameters": {name:
//!   value}; "metric": ..; "callpath": ..; "value": v or [v, ..]}`, with `;` between fields.
//!
//! One to four parameters in each; a line's parameters keep the order written. [`parse`] tells
//! the formats apart by the first non-blank line (see [`sniff`]). Errors name the line and,
//! where meaningful, the column (the JSON path in a JSON file), and say what was expected.
//! Reading takes time and memory about in proportion to the text: at most [`MAX_BYTES`], and a
//! point keeps at most [`MAX_REPETITIONS`] values. [`rank`] (in `ranking.rs`)
//! fits every region's strong-scaling curve with the speed-up calculator and ranks the regions
//! by their predicted share of the run time, from each one's own time in the call tree
//! (`tree.rs`; [`Experiment::times`] says whether the file's values are exclusive or
//! inclusive, when it knows).

pub mod formats;
mod json;
mod json_ids;
pub mod page;
mod ranking;
mod region_fit;
pub mod runs;
pub mod saved;
mod talpas;
mod text;
mod tree;
pub mod worker;

pub use crate::model::fit::region::{region_model, with_n, PointSummary};
pub use formats::Format;
pub use json::kind as json_kind;
pub use ranking::{
    finish, fit_regions, parse_targets, plan, process_index, rank, retarget, Dominant, Plan, RankOptions, Ranking,
    Share, SideChoice, Table, Target, FAR_BEYOND, HOLD, INPUT, MAX_REGIONS, MAX_REGIONS_BATCH, MAX_TARGETS, PREDICT,
};
pub use region_fit::{uninformative, RegionFit, UNINFORMATIVE_SPAN};
pub use tree::{Decided, Nesting, NonAdditive, Split, Times, Tree, HELD_AT_LEAST, HOLDS_AT_MOST, NOISE_FLOOR};

use std::collections::HashMap;

use crate::model::input::list::clip;
use crate::model::InputError;

/// The field name errors carry.
pub const FIELD: &str = "Extra-P experiment";
/// Most bytes of an experiment the command reads (the page's inputs keep at most
/// `workspace::MAX_FIELD_BYTES`): 100,000 regions of a few points take about 6 MB.
pub const MAX_BYTES: usize = 64 << 20;
/// Most parameters (Extra-P's text format allows four).
pub const MAX_PARAMETERS: usize = 4;
/// Most repetitions kept per point.
pub const MAX_REPETITIONS: usize = 10_000;

/// One point of one series: the parameter values and the repetitions measured there.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    pub coords: Vec<f64>,
    pub values: Vec<f64>,
    /// 1-based line where the point's data starts (text and JSON Lines).
    pub line: Option<usize>,
    /// Where the first value below 0 or above [`MAX_VALUE`] was read ("line 4, column 6", or
    /// a JSON path), when one was: no time is either, so the ranking leaves the region out,
    /// naming this place.
    pub refused: Option<String>,
}

/// The largest value a region's model takes: beyond it no time, count or byte total is a
/// measurement (1e100 s is about 3·10^92 years), and the least squares' sums would overflow.
pub const MAX_VALUE: f64 = 1e100;

/// Whether a measured value is one no model takes: below 0 or above [`MAX_VALUE`] (or NaN).
pub fn refused(v: f64) -> bool {
    !(0.0..=MAX_VALUE).contains(&v)
}

/// One call path and metric, at each point measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub callpath: String,
    pub metric: String,
    pub points: Vec<Measurement>,
    /// The region this one is nested in, when the file nests regions by indentation (the
    /// text format's REGION names indented under the one above); None otherwise, and for a
    /// region at the top. Call paths joined with `->` need none: their parents are read from
    /// the paths themselves (`tree.rs`).
    pub parent: Option<String>,
}

/// What an experiment's values are, when the file says: each region's own time (exclusive)
/// or its time with that of the regions nested in it (inclusive). Extra-P's text, JSON, JSON
/// Lines and Talpas formats do not say (`Unknown`): the ranking decides from the data
/// (`tree.rs`). A Cube profile says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum TimeKind {
    Unknown,
    Exclusive,
    Inclusive,
}

/// A whole experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct Experiment {
    pub format: Format,
    pub parameters: Vec<String>,
    pub series: Vec<Series>,
    /// Whether the values are exclusive or inclusive times, as far as the file says.
    pub times: TimeKind,
}

impl Default for Experiment {
    fn default() -> Self {
        Experiment { format: Format::Text, parameters: Vec::new(), series: Vec::new(), times: TimeKind::Unknown }
    }
}

impl Experiment {
    /// The metrics, in the order first seen.
    pub fn metrics(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        self.series.iter().map(|s| s.metric.as_str()).filter(|m| seen.insert(*m)).collect()
    }

    /// The values of parameter `i`, sorted, each once.
    pub fn values_of(&self, i: usize) -> Vec<f64> {
        let mut v: Vec<f64> =
            self.series.iter().flat_map(|s| s.points.iter().filter_map(|p| p.coords.get(i).copied())).collect();
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    }
}

/// Collects the series and points a reader finds: a series is looked up by call path and
/// metric, a point by its coordinates, each in a hash map, so reading takes time in
/// proportion to the text however many series and points it holds (a list search made a
/// 4 MB text of distinct points quadratic).
struct Builder {
    e: Experiment,
    series: HashMap<(String, String), usize>,
    /// Per series, the index of each point by its coordinates' bits.
    points: Vec<HashMap<Vec<u64>, usize>>,
}

impl Builder {
    fn new(format: Format, parameters: Vec<String>) -> Self {
        Builder {
            e: Experiment { format, parameters, series: Vec::new(), times: TimeKind::Unknown },
            series: HashMap::new(),
            points: Vec::new(),
        }
    }

    /// Adds repetitions to (callpath, metric) at `coords`, merging with a point already there;
    /// a point keeps at most [`MAX_REPETITIONS`] values. `place(k)` says where `values[k]` was
    /// read, kept for the first value [`refused`].
    fn add(
        &mut self,
        callpath: &str,
        metric: &str,
        coords: Vec<f64>,
        values: &[f64],
        line: Option<usize>,
        place: &dyn Fn(usize) -> String,
    ) -> Result<(), TooManyRepetitions> {
        let refused_at = values.iter().position(|v| refused(*v)).map(place);
        let key = (callpath.to_string(), metric.to_string());
        let i = match self.series.get(&key) {
            Some(&i) => i,
            None => {
                self.e.series.push(Series {
                    callpath: key.0.clone(),
                    metric: key.1.clone(),
                    points: Vec::new(),
                    parent: None,
                });
                self.points.push(HashMap::new());
                self.series.insert(key, self.e.series.len() - 1);
                self.e.series.len() - 1
            }
        };
        // 0.0 and -0.0 are one coordinate, as they compare equal.
        let bits: Vec<u64> = coords.iter().map(|c| (c + 0.0).to_bits()).collect();
        let s = &mut self.e.series[i];
        match self.points[i].get(&bits) {
            Some(&j) => {
                let p = &mut s.points[j];
                if p.values.len() + values.len() > MAX_REPETITIONS {
                    return Err(TooManyRepetitions { callpath: callpath.to_string(), coords });
                }
                p.values.extend_from_slice(values);
                p.refused = p.refused.take().or(refused_at);
            }
            None => {
                self.points[i].insert(bits, s.points.len());
                s.points.push(Measurement { coords, values: values.to_vec(), line, refused: refused_at });
            }
        }
        Ok(())
    }

    fn finish(self) -> Experiment {
        self.e
    }
}

/// A point as messages show it: "(2, 64)".
fn coords_text(coords: &[f64]) -> String {
    format!("({})", coords.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", "))
}

/// The format of a text, by its first non-blank line: not opening with `{`, text; a `;` outside
/// strings (as no JSON has), Talpas; one whole JSON object followed by more lines, or holding
/// `"params"`, JSON Lines; otherwise JSON.
pub fn sniff(text: &str) -> Format {
    let Some(first) = text.lines().map(str::trim).find(|l| !l.is_empty()) else { return Format::Text };
    if !first.starts_with('{') {
        return Format::Text;
    }
    if talpas::separates_with_semicolons(first) {
        return Format::Talpas;
    }
    let whole = serde_json::from_str::<serde_json::Value>(first).is_ok();
    let more = text.lines().map(str::trim).filter(|l| !l.is_empty()).nth(1).is_some();
    if whole && (more || first.contains("\"params\"")) {
        Format::JsonLines
    } else {
        Format::Json
    }
}

/// Reads an experiment in any of the four formats (see [`sniff`]).
pub fn parse(text: &str) -> Result<Experiment, InputError> {
    parse_as(text, sniff(text))
}

/// Reads an experiment in the format given.
pub fn parse_as(text: &str, format: Format) -> Result<Experiment, InputError> {
    if text.len() > MAX_BYTES {
        return Err(InputError::new(
            FIELD,
            format!("{} bytes is more than the {} MB read", text.len(), MAX_BYTES >> 20),
        ));
    }
    if let Some(what) = binary(text) {
        return Err(InputError::new(FIELD, what));
    }
    let e = match format {
        Format::Text => text::parse(text)?,
        Format::Json => json::parse_json(text)?,
        Format::JsonLines => json::parse_lines(text)?,
        Format::Talpas => talpas::parse(text)?,
        _ => {
            return Err(InputError::new(
                FIELD,
                "profiles and saved Extra-P experiments are files, not text: choose or drop them",
            ))
        }
    };
    if e.series.is_empty() {
        return Err(InputError::new(FIELD, "no measurements found; expected REGION and DATA lines (text), \"measurements\" (JSON), one {\"params\", \"value\"} object per line (JSON Lines) or one {\"parameters\"; \"metric\"; \"callpath\"; \"value\"} record per line (Talpas)"));
    }
    Ok(e)
}

/// What a text that is no text is, said so: a saved Extra-P experiment (a zip), a Cube
/// profile (a tar archive, perhaps gzipped), or Extra-P 3's binary format, which is not read.
fn binary(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let how =
        "choose the file or drop it on the page (the command: scalewise bottlenecks FILE), rather than pasting it";
    let what = match formats::by_magic(b) {
        Some(Format::Saved) => "a zip archive, as a saved Extra-P experiment (.extra-p) is".to_string(),
        Some(Format::Cube) => "a tar archive, as a Cube profile (.cubex) is".to_string(),
        Some(f) => f.profiler().map_or(f.name(), |p| p.one).to_string(),
        None if b.windows(17).take(32).any(|w| w == b"EXTRAP_EXPERIMENT") => {
            return Some("this is Extra-P 3's binary experiment format, which is not read: open it in Extra-P and save it as an .extra-p experiment, or export it as text".into())
        }
        None => return None,
    };
    Some(format!("this is {what}; it is read as a file: {how}"))
}

/// A value as Extra-P would take it, or what is wrong with it.
fn check_value(v: f64) -> Result<f64, NotFinite> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(NotFinite)
    }
}

/// A measured value or coordinate that is infinite or not a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct NotFinite;

impl std::fmt::Display for NotFinite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("expected a finite number")
    }
}

/// A point given more than [`MAX_REPETITIONS`] values in all: its region and coordinates.
#[derive(Debug, Clone, PartialEq)]
struct TooManyRepetitions {
    callpath: String,
    coords: Vec<f64>,
}

impl std::fmt::Display for TooManyRepetitions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "at most {MAX_REPETITIONS} repetitions per point; \"{}\", {} has more",
            clip(&self.callpath),
            coords_text(&self.coords)
        )
    }
}

#[cfg(test)]
mod tests;

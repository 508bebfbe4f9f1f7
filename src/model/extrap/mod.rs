//! Extra-P experiments (Extra-P 4, the performance-modelling tool of TU Darmstadt and JSC:
//! <https://github.com/extra-p/extrap>, `docs/file-formats.md`). An experiment holds many call
//! paths (regions) and metrics, measured at a few points of one to four parameters (process
//! count, problem size, …), each point with its repetitions.
//!
//! Three of Extra-P's input formats are read here:
//! - the text format (`extrap --text`): `PARAMETER`, `POINTS`, then `REGION`/`METRIC`
//!   sections with one `DATA` line of repetitions per point, in the order of the points;
//! - the JSON format (`extrap --json`, the newer one): `{"parameters": [..], "measurements":
//!   {callpath: {metric: [{"point": [..], "values": [..]}]}}}`;
//! - JSON Lines (`extrap --json` on a `.jsonl` file): one object per line, `{"params": {name:
//!   value}, "value": v or [v, ..], "callpath": .., "metric": ..}`; a missing callpath is
//!   Extra-P's `<root>`, a missing metric `<default>`.
//!
//! [`parse`] tells them apart by their first non-blank character (`{` on a line holding one
//! whole object: JSON Lines; `{` otherwise: JSON; anything else: text). Errors name the line
//! and, where meaningful, the column, and say what was expected. [`rank`] (in `ranking.rs`)
//! fits every region's strong-scaling curve with the speed-up calculator and ranks the regions
//! by their predicted share of the run time.

mod json;
pub mod page;
mod ranking;
pub mod search;
mod text;

pub use json::kind as json_kind;
pub use ranking::{finish, fit_regions, parse_targets, plan, process_index, rank, Dominant, Plan, PointSummary, RankOptions, Ranking, RegionFit, Share, SideChoice, Table, Target, MAX_REGIONS, MAX_REGIONS_BATCH, MAX_TARGETS};

use crate::model::InputError;

/// The field name errors carry.
pub const FIELD: &str = "Extra-P experiment";
/// Most bytes of an experiment (the workspace keeps at most 256 KB per input).
pub const MAX_BYTES: usize = 4 << 20;
/// Most parameters (Extra-P's text format allows four).
pub const MAX_PARAMETERS: usize = 4;
/// Most repetitions kept per point.
pub const MAX_REPETITIONS: usize = 10_000;

/// Which of Extra-P's formats a text is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Format {
    Text,
    Json,
    JsonLines,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::JsonLines => "jsonl",
        }
    }
}

/// One point of one series: the parameter values and the repetitions measured there.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    pub coords: Vec<f64>,
    pub values: Vec<f64>,
    /// 1-based line where the point's data starts (text and JSON Lines).
    pub line: Option<usize>,
}

/// One call path and metric, at each point measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub callpath: String,
    pub metric: String,
    pub points: Vec<Measurement>,
}

/// A whole experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct Experiment {
    pub format: Format,
    pub parameters: Vec<String>,
    pub series: Vec<Series>,
}

impl Experiment {
    /// The metrics, in the order first seen.
    pub fn metrics(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for s in &self.series {
            if !out.contains(&s.metric.as_str()) {
                out.push(&s.metric);
            }
        }
        out
    }

    /// The values of parameter `i`, sorted, each once.
    pub fn values_of(&self, i: usize) -> Vec<f64> {
        let mut v: Vec<f64> =
            self.series.iter().flat_map(|s| s.points.iter().filter_map(|p| p.coords.get(i).copied())).collect();
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    }

    /// Adds repetitions to (callpath, metric) at `coords`, merging with a point already there.
    fn add(&mut self, callpath: &str, metric: &str, coords: Vec<f64>, values: &[f64], line: Option<usize>) {
        let i = match self.series.iter().position(|s| s.callpath == callpath && s.metric == metric) {
            Some(i) => i,
            None => {
                self.series.push(Series { callpath: callpath.into(), metric: metric.into(), points: Vec::new() });
                self.series.len() - 1
            }
        };
        let s = &mut self.series[i];
        match s.points.iter_mut().find(|p| p.coords == coords) {
            Some(p) => p.values.extend_from_slice(values),
            None => s.points.push(Measurement { coords, values: values.to_vec(), line }),
        }
    }
}

/// The format of a text, by its first non-blank character and line.
pub fn sniff(text: &str) -> Format {
    let Some(first) = text.lines().map(str::trim).find(|l| !l.is_empty()) else { return Format::Text };
    if !first.starts_with('{') {
        return Format::Text;
    }
    let whole = serde_json::from_str::<serde_json::Value>(first).is_ok();
    let more = text.lines().map(str::trim).filter(|l| !l.is_empty()).nth(1).is_some();
    if whole && (more || first.contains("\"params\"")) {
        Format::JsonLines
    } else {
        Format::Json
    }
}

/// Reads an experiment in any of the three formats (see [`sniff`]).
pub fn parse(text: &str) -> Result<Experiment, InputError> {
    parse_as(text, sniff(text))
}

/// Reads an experiment in the format given.
pub fn parse_as(text: &str, format: Format) -> Result<Experiment, InputError> {
    if text.len() > MAX_BYTES {
        return Err(InputError::new(FIELD, format!("{} bytes is more than the {} MB read", text.len(), MAX_BYTES >> 20)));
    }
    let e = match format {
        Format::Text => text::parse(text)?,
        Format::Json => json::parse_json(text)?,
        Format::JsonLines => json::parse_lines(text)?,
    };
    if e.series.is_empty() {
        return Err(InputError::new(FIELD, "no measurements found; expected REGION and DATA lines (text), \"measurements\" (JSON) or one {\"params\", \"value\"} object per line (JSON Lines)"));
    }
    Ok(e)
}

/// A value as Extra-P would take it, or what is wrong with it.
fn check_value(v: f64) -> Result<f64, String> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err("expected a finite number".into())
    }
}

#[cfg(test)]
mod tests;

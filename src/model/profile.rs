//! What every profile reader hands the Bottlenecks calculator's run set
//! ([`crate::model::bottlenecks::runs`]): one run of a program, reduced to one figure per call
//! path of the metric asked for, with the run's numeric metadata (where its parameters may come
//! from). The Cube and `.cali` readers keep their own richer types; the readers of TAU profile
//! folders, HPCToolkit databases and Caliper's JSON give this.
//!
//! Text in, data out: no I/O here.

/// Which metric to read, and which kind of value.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Want {
    /// The metric's name as the profile gives it; `None`: the profile's time metric, else its
    /// first.
    pub metric: Option<String>,
    /// Inclusive values (a region's time with its callees') rather than exclusive.
    pub inclusive: bool,
}

/// What one run may hold; past a limit the reader stops with a message naming it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Distinct call paths of one run.
    pub max_paths: usize,
    /// Locations (processes, or process and thread pairs) of one run.
    pub max_locations: usize,
}

/// One call path's figures in a run.
#[derive(Debug, Clone, PartialEq)]
pub struct PathValue {
    /// The regions from the root, joined with `->` (the Cube reader's and Extra-P's naming).
    pub path: String,
    /// The sum over the run's locations.
    pub total: f64,
    /// The largest location's value.
    pub max: f64,
}

/// One run, reduced.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunProfile {
    /// The metrics the profile holds, by name as given, for choosing another.
    pub metrics: Vec<String>,
    /// The metric read.
    pub metric: String,
    /// Whether its values are inclusive.
    pub inclusive: bool,
    /// Per call path, in the order first seen; a time metric in seconds.
    pub paths: Vec<PathValue>,
    /// The locations the values are over.
    pub locations: usize,
    /// The run's numeric metadata, (name, value), in the order given.
    pub globals: Vec<(String, f64)>,
}

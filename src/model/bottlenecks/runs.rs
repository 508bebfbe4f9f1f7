//! A folder of Score-P runs (Cube 4 profiles, [`crate::model::cube`]) as an experiment, the
//! way Extra-P 4.2.5 reads one (`extrap --cube DIR`, its `cube_file_reader2.py` and
//! `abstract_directory_reader.py`, github.com/extra-p/extrap, BSD-3):
//!
//! - A run is a `.cubex` file (its name not starting with `.`) in a folder one level below
//!   the folder given; the folder's name gives the point: `app.p64.r2` is p = 64, repetition
//!   2; `mm.x10y1z1.r1` is x = 10, y = 1, z = 1; `mm.x20,5.y20,5.z1,5.r1` is x = 20.5 (a comma
//!   is a decimal point). Several files in one folder, and several folders of one point, are
//!   repetitions. Files and folders that hold no run are passed over.
//! - The parameters are read after the program's name: Extra-P takes everything after the
//!   first `.` up to the first `.r`; here the repetition is a trailing `.r` and digits only,
//!   and when the part after the first `.` does not read as names and numbers the next `.` is
//!   tried, so `lulesh.run.p8.r1` is p = 8 and `lulesh2.0.p64.r1` is p = 64 (Extra-P refuses
//!   the first and misreads the second). Where Extra-P reads a name, the same is read here.
//! - Every run must name the same parameters in the same order; a parameter with one value
//!   over all runs is dropped, as Extra-P drops it.
//! - A run is read and reduced to one figure per call path (and its imbalance) before the
//!   next is read ([`RunSet::add`]), so memory follows the largest run.
//! - A call path missing at some points is merged into its nearest ancestor present at every
//!   point (exclusive values; with inclusive values it is dropped, as its ancestor holds it
//!   already), and the experiment says which were.
//!
//! A region's figure in a run is, by default, its exclusive time averaged over the run's
//! locations (seconds per process); [`Aggregate::Sum`] gives Extra-P's "strong" numbers (the
//! sum over locations) and [`Aggregate::Max`] the slowest location. Its imbalance is the
//! maximum over the mean across locations. Repetitions are kept as such: the ranking takes
//! their median.

use std::collections::HashMap;

use super::{Experiment, Format, Measurement, Series, TimeKind, FIELD, MAX_PARAMETERS, MAX_REPETITIONS};
use crate::model::cali;
use crate::model::cube::{self, Cube, Kind};
use crate::model::input::list::clip;
use crate::model::InputError;

/// The limits of a set of runs, defined once: the command and the page read within them, and
/// past one the reading stops with a message naming it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Most runs (profiles) in a set.
    pub runs: usize,
    /// Most bytes of one file as stored.
    pub file_bytes: usize,
    /// Most bytes one profile inflates to (its members together).
    pub inflated_bytes: usize,
    /// Most call paths of one profile.
    pub callpaths: usize,
    /// Most locations (processes × threads) of one profile.
    pub locations: usize,
}

/// The limits the command and the page read within.
pub const LIMITS: Limits =
    Limits { runs: 4_096, file_bytes: 1 << 30, inflated_bytes: 2 << 30, callpaths: 100_000, locations: 1 << 20 };

impl Limits {
    /// The Caliper reader's limits for one profile.
    pub fn cali(&self) -> cali::Limits {
        cali::Limits {
            max_bytes: self.file_bytes,
            max_nodes: self.callpaths.saturating_mul(40),
            max_records: self.callpaths.saturating_mul(40),
        }
    }

    /// The Cube reader's limits for one profile.
    pub fn cube(&self) -> cube::Limits {
        cube::Limits {
            max_bytes: self.inflated_bytes,
            max_cnodes: self.callpaths,
            max_locations: self.locations,
            max_metrics: 4_096,
        }
    }
}

/// How a region's values over the locations of a run become one figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aggregate {
    /// The mean over locations: seconds per process.
    #[default]
    Mean,
    /// The sum over locations (Extra-P's strong-scaling numbers).
    Sum,
    /// The largest over locations: the slowest process.
    Max,
}

impl Aggregate {
    pub const ALL: [Aggregate; 3] = [Aggregate::Mean, Aggregate::Sum, Aggregate::Max];

    pub fn key(self) -> &'static str {
        match self {
            Aggregate::Mean => "mean",
            Aggregate::Sum => "sum",
            Aggregate::Max => "max",
        }
    }

    pub fn from_key(k: &str) -> Option<Aggregate> {
        Aggregate::ALL.into_iter().find(|a| a.key() == k)
    }

    /// As the page and the command's answer say it.
    pub fn words(self) -> &'static str {
        match self {
            Aggregate::Mean => "mean over locations (per process)",
            Aggregate::Sum => "sum over locations (Extra-P's strong scaling)",
            Aggregate::Max => "maximum over locations (the slowest process)",
        }
    }
}

/// What is read of each run.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct RunOptions {
    /// The metric (its unique name or display name); None: "time", else the first.
    pub metric: Option<String>,
    pub aggregate: Aggregate,
    /// Inclusive values (a node with everything it calls) instead of exclusive (its own).
    pub inclusive: bool,
    /// Caliper profiles: the globals that are the parameters, the first the process count
    /// (empty: the process count alone, from `mpi.world.size` or `jobsize`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<String>,
}

/// The metric series of each region's imbalance (maximum over mean across locations) is
/// named this for metric `m`: a metric of its own in the experiment, which the ranking shows
/// beside the region.
pub fn imbalance_metric(m: &str) -> String {
    format!("imbalance({m})")
}

/// The metric whose imbalance a metric name holds, if it is one.
pub fn imbalance_of(name: &str) -> Option<&str> {
    name.strip_prefix("imbalance(")?.strip_suffix(')')
}

/// A run's folder name, read: the parameters in order with their values, and the repetition.
#[derive(Debug, Clone, PartialEq)]
pub struct RunName {
    pub parameters: Vec<(String, f64)>,
    pub repetition: Option<u32>,
}

/// A folder name that gives no parameters (see the module's text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoParameters {
    pub folder: String,
}

impl std::fmt::Display for NoParameters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the folder name \"{}\" gives no parameters; expected the program's name, then names and values such as app.p64.r1 or mm.x10y1z1.r2",
            clip(&self.folder)
        )
    }
}

/// Reads the parameters of a run's folder name (see the module's text).
pub fn run_name(folder: &str) -> Result<RunName, NoParameters> {
    let (stem, repetition) = match folder.rfind(".r") {
        Some(i) if i + 2 < folder.len() && folder[i + 2..].bytes().all(|b| b.is_ascii_digit()) => {
            (&folder[..i], folder[i + 2..].parse::<u32>().ok())
        }
        _ => (folder, None),
    };
    let mut starts: Vec<usize> = stem.match_indices('.').map(|(i, _)| i + 1).collect();
    if starts.is_empty() {
        starts.push(0);
    }
    for s in starts {
        if let Some(parameters) = name_values(&stem[s..]) {
            return Ok(RunName { parameters, repetition });
        }
    }
    Err(NoParameters { folder: folder.to_string() })
}

/// "x20,5.y20,5.z1,5" → x = 20.5, y = 20.5, z = 1.5: names (letters, '_' or '-') each
/// followed by a number (digits with '.' or ',' as the decimal point; a '.' after it
/// separates); None when the text is not that.
fn name_values(text: &str) -> Option<Vec<(String, f64)>> {
    let numeric = |c: char| c.is_ascii_digit() || c == '.' || c == ',';
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let name_end = rest.find(numeric)?;
        let name = &rest[..name_end];
        if name.is_empty() || !name.chars().all(|c| c.is_alphabetic() || c == '_' || c == '-') {
            return None;
        }
        let after = &rest[name_end..];
        let value_end = after.find(|c: char| !numeric(c)).unwrap_or(after.len());
        let raw = after[..value_end].replace(',', ".");
        let value: f64 = raw.trim_end_matches('.').parse().ok()?;
        if !value.is_finite() {
            return None;
        }
        out.push((name.to_string(), value));
        rest = &after[value_end..];
    }
    (!out.is_empty() && out.len() <= 16).then_some(out)
}

/// One file of a set, as listed: its path from the folder given ("app.p64.r1/profile.cubex").
/// The runs of a list of paths: for each path that is a run, its index into `paths`, the
/// point and the repetition, in the order given; the experiment's parameters (those that
/// vary). A single run (one `.cubex` given, or a folder holding one) is a point of its own
/// with no parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub parameters: Vec<String>,
    /// (index into the paths, point).
    pub runs: Vec<(usize, Vec<f64>)>,
    /// The folders that name a run but hold other files only, and the files passed over.
    pub passed_over: usize,
}

/// Whether a path (its last component) is a Cube profile as Extra-P finds one, or a Caliper
/// profile (`.cali`).
fn is_profile(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    (file.ends_with(".cubex") || is_cali(file)) && !file.starts_with('.')
}

/// Whether a path names a Caliper profile.
fn is_cali(path: &str) -> bool {
    path.ends_with(".cali")
}

/// Whether a file's first bytes are a Caliper profile's (its first record).
pub fn is_cali_text(head: &[u8]) -> bool {
    head.starts_with(b"__rec=")
}

/// The runs of a set of files (paths relative to the folder given, '/' between components).
pub fn layout(paths: &[String], limits: &Limits) -> Result<Layout, InputError> {
    let err = |m: String| InputError::new(FIELD, m);
    let profiles: Vec<(usize, Vec<&str>)> = paths
        .iter()
        .enumerate()
        .filter(|(_, p)| is_profile(p))
        .map(|(i, p)| (i, p.split('/').filter(|c| !c.is_empty()).collect::<Vec<_>>()))
        .collect();
    let passed_over = paths.len() - profiles.len();
    // Caliper profiles, in the folder given or one level down: each a run, its point read from
    // its globals (RunSet::add).
    if profiles.iter().any(|(i, _)| is_cali(&paths[*i])) {
        if let Some((i, _)) = profiles.iter().find(|(i, _)| !is_cali(&paths[*i])) {
            return Err(err(format!(
                "\"{}\" is a Cube profile among Caliper profiles (.cali): give one kind of profile",
                clip(&paths[*i])
            )));
        }
        let runs: Vec<(usize, Vec<f64>)> =
            profiles.iter().filter(|(_, c)| c.len() <= 2).map(|(i, _)| (*i, Vec::new())).collect();
        if runs.len() > limits.runs {
            return Err(err(format!(
                "{} runs is more than the {} read at once (the limit of runs)",
                runs.len(),
                limits.runs
            )));
        }
        let deeper = profiles.len() - runs.len();
        return Ok(Layout { parameters: Vec::new(), runs, passed_over: passed_over + deeper });
    }
    // A profile given alone, or the folder of one run.
    if profiles.iter().all(|(_, c)| c.len() == 1) {
        return match profiles.as_slice() {
            [] => Err(err("no Cube profile (.cubex) found; expected a folder of runs, each a folder such as app.p64.r1 holding profile.cubex".into())),
            [(i, _)] => Ok(Layout { parameters: Vec::new(), runs: vec![(*i, Vec::new())], passed_over }),
            _ => Ok(Layout { parameters: Vec::new(), runs: profiles.iter().map(|(i, _)| (*i, Vec::new())).collect(), passed_over }),
        };
    }
    // Runs one level down, as Extra-P's `*/[!.]*.cubex`.
    let runs: Vec<(usize, &str)> = profiles.iter().filter(|(_, c)| c.len() == 2).map(|(i, c)| (*i, c[0])).collect();
    if runs.is_empty() {
        return Err(err("no run found: expected folders such as app.p64.r1 directly in the folder given, each holding a .cubex profile".into()));
    }
    if runs.len() > limits.runs {
        return Err(err(format!(
            "{} runs is more than the {} read at once (the limit of runs)",
            runs.len(),
            limits.runs
        )));
    }
    let mut names: Vec<Vec<(String, f64)>> = Vec::with_capacity(runs.len());
    let mut first: Option<(&str, Vec<String>)> = None;
    for &(_, folder) in &runs {
        let n = run_name(folder).map_err(|e| err(e.to_string()))?;
        let keys: Vec<String> = n.parameters.iter().map(|p| p.0.clone()).collect();
        match &first {
            None => first = Some((folder, keys)),
            Some((f0, k0)) if *k0 != keys => {
                return Err(err(format!(
                    "the run \"{}\" names the parameters {} where \"{}\" names {}: every run must name the same parameters in the same order",
                    clip(folder),
                    keys.join(", "),
                    clip(f0),
                    k0.join(", ")
                )))
            }
            Some(_) => {}
        }
        names.push(n.parameters);
    }
    let all: Vec<String> = first.map(|f| f.1).unwrap_or_default();
    // Parameters with more than one value, as Extra-P keeps.
    let varying: Vec<usize> = (0..all.len())
        .filter(|&j| {
            let v0 = names[0][j].1;
            names.iter().any(|n| n[j].1 != v0)
        })
        .collect();
    if varying.len() > MAX_PARAMETERS {
        return Err(err(format!(
            "the runs vary {} parameters ({}); at most {MAX_PARAMETERS} are modelled",
            varying.len(),
            varying.iter().map(|&j| all[j].as_str()).collect::<Vec<_>>().join(", ")
        )));
    }
    let parameters: Vec<String> = varying.iter().map(|&j| all[j].clone()).collect();
    let runs = runs.iter().zip(&names).map(|(&(i, _), n)| (i, varying.iter().map(|&j| n[j].1).collect())).collect();
    Ok(Layout { parameters, runs, passed_over: passed_over + profiles.iter().filter(|(_, c)| c.len() > 2).count() })
}

/// One run reduced: per call path, the figure and the imbalance.
#[derive(Debug, Clone, PartialEq)]
struct Reduced {
    /// Per call path: (sum over locations, largest over locations).
    paths: HashMap<String, (f64, f64)>,
    locations: usize,
}

/// The runs of a set as they are read, each reduced to per-call-path figures.
#[derive(Debug, Clone)]
pub struct RunSet {
    layout: Layout,
    options: RunOptions,
    /// The metric's unique name, once the first run is read.
    metric: Option<String>,
    /// The metrics of the first run (unique names), for the choice of one.
    metrics: Vec<String>,
    /// Per point (in the order first seen), its coordinates and its runs.
    points: Vec<(Vec<f64>, Vec<Reduced>)>,
    at: HashMap<Vec<u64>, usize>,
    /// Call paths in the order first seen, with their depth (for the order written).
    order: Vec<String>,
    seen: HashMap<String, usize>,
    /// Locations of the runs read (fewest, most).
    locations: (usize, usize),
    /// Caliper runs, whose points are read from their globals once all are in.
    cali_runs: Vec<CaliRun>,
}

/// A Caliper run read: its file's name, its numeric globals and its figures.
#[derive(Debug, Clone)]
struct CaliRun {
    name: String,
    globals: Vec<(String, f64)>,
    reduced: Reduced,
}

/// What a set of runs became: the experiment and what the reading says about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub experiment: Experiment,
    /// The profile's metrics (unique names), for choosing another.
    pub metrics: Vec<String>,
    /// The metric read.
    pub metric: String,
    pub options: RunOptions,
    pub runs: usize,
    /// Call paths missing at some points, each merged into (or, inclusive, dropped in favour
    /// of) the ancestor named.
    pub merged: Vec<(String, Option<String>)>,
    /// Fewest and most locations in a run.
    pub locations: (usize, usize),
    pub passed_over: usize,
    /// Caliper runs: where each parameter came from, and the other numeric globals that vary
    /// over the runs (which `parameters` may name).
    pub caliper: Option<CaliperParameters>,
}

/// Where the parameters of Caliper runs came from.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct CaliperParameters {
    /// (parameter, the global it was read from).
    pub sources: Vec<(String, String)>,
    /// Numeric globals that vary over the runs and are not parameters.
    pub offered: Vec<String>,
}

impl RunSet {
    pub fn new(layout: Layout, options: RunOptions) -> RunSet {
        RunSet {
            layout,
            options,
            metric: None,
            metrics: Vec::new(),
            points: Vec::new(),
            at: HashMap::new(),
            order: Vec::new(),
            seen: HashMap::new(),
            locations: (usize::MAX, 0),
            cali_runs: Vec::new(),
        }
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Reads run `k` of the layout from its file's bytes (`name` is its path, for messages)
    /// and keeps its per-call-path figures only.
    pub fn add(&mut self, k: usize, name: &str, bytes: &[u8], limits: &Limits) -> Result<(), InputError> {
        let at = |m: String| InputError::new(FIELD, format!("{}: {m}", clip_path(name)));
        if bytes.len() > limits.file_bytes {
            return Err(at(format!(
                "{} bytes is more than the {} MB of one file read (the limit of file bytes)",
                bytes.len(),
                limits.file_bytes >> 20
            )));
        }
        if is_cali(name) || is_cali_text(bytes) {
            return self.add_cali(name, bytes, limits);
        }
        if !self.cali_runs.is_empty() {
            return Err(at("a Cube profile among Caliper profiles: give one kind of profile".into()));
        }
        let c = cube::read(bytes, &limits.cube()).map_err(|e| at(e.message))?;
        let point = self.layout.runs.get(k).map(|r| r.1.clone()).unwrap_or_default();
        let reduced = self.reduce(&c).map_err(|e| at(e.message))?;
        let key: Vec<u64> = point.iter().map(|v| (v + 0.0).to_bits()).collect();
        let i = *self.at.entry(key).or_insert_with(|| {
            self.points.push((point, Vec::new()));
            self.points.len() - 1
        });
        if self.points[i].1.len() >= MAX_REPETITIONS {
            return Err(at(format!("more than {MAX_REPETITIONS} repetitions of one point")));
        }
        self.locations = (self.locations.0.min(reduced.locations), self.locations.1.max(reduced.locations));
        self.points[i].1.push(reduced);
        Ok(())
    }

    /// Reads a Caliper profile and keeps its per-call-path figures and its numeric globals; its
    /// point is decided in [`RunSet::finish`], from every run's globals.
    fn add_cali(&mut self, name: &str, bytes: &[u8], limits: &Limits) -> Result<(), InputError> {
        let at = |e: InputError| InputError { message: format!("{}: {}", clip_path(name), e.message), ..e };
        let plain = |m: String| at(InputError::new(FIELD, m));
        if !self.points.is_empty() {
            return Err(plain("a Caliper profile among Cube profiles: give one kind of profile".into()));
        }
        let p = cali::read(bytes, &limits.cali()).map_err(|e| at(InputError { field: FIELD.into(), ..e }))?;
        let metrics = p.metrics();
        if self.metrics.is_empty() {
            self.metrics = metrics.iter().map(|m| m.name.clone()).collect();
        }
        let names = || metrics.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", ");
        let wanted = self.metric.clone().or_else(|| self.options.metric.clone());
        let found = match &wanted {
            Some(w) => metrics.iter().find(|m| &m.name == w),
            None => metrics.iter().find(|m| m.name.contains("time")).or(metrics.first()),
        };
        let m = found.ok_or_else(|| match &wanted {
            Some(w) => plain(format!("no metric \"{}\"; the profile has {}", clip(w), names())),
            None => plain("the profile has no metric (no numeric values in its records)".into()),
        })?;
        if self.metric.is_none() {
            // The kind the file holds decides when it holds one: Caliper's aggregated profiles
            // hold inclusive or exclusive times, and the other cannot be read off the slowest
            // process.
            if self.options.inclusive && !m.inclusive {
                return Err(plain(format!(
                    "the metric \"{}\" holds exclusive values only, so --inclusive cannot be read",
                    clip(&m.name)
                )));
            }
            self.options.inclusive = m.inclusive && (self.options.inclusive || !m.exclusive);
            self.metric = Some(m.name.clone());
        }
        let regions = p.regions(&m.name, self.options.inclusive).map_err(at)?;
        if regions.len() > limits.callpaths {
            return Err(plain(format!(
                "{} call paths is more than the {} of one profile (the limit of call paths)",
                regions.len(),
                limits.callpaths
            )));
        }
        let mut paths = HashMap::with_capacity(regions.len());
        for r in regions {
            if !self.seen.contains_key(&r.path) {
                self.seen.insert(r.path.clone(), self.order.len());
                self.order.push(r.path.clone());
            }
            paths.insert(r.path, (r.total, r.max));
        }
        let locations = p.processes().min(limits.locations);
        self.locations = (self.locations.0.min(locations), self.locations.1.max(locations));
        self.cali_runs.push(CaliRun {
            name: name.to_string(),
            globals: p.numeric_globals(),
            reduced: Reduced { paths, locations },
        });
        Ok(())
    }

    /// The points of the Caliper runs read, from their globals: the parameters named in the
    /// options (the first the process count), else the process count alone (`mpi.world.size`,
    /// else `jobsize`, else the ranks seen); a parameter with one value over all runs dropped,
    /// unless it is the only one.
    fn cali_points(&mut self) -> Result<(Vec<String>, CaliperParameters), InputError> {
        let runs = std::mem::take(&mut self.cali_runs);
        let named = !self.options.parameters.is_empty();
        let (parameters, sources): (Vec<String>, Vec<String>) = if named {
            (self.options.parameters.clone(), self.options.parameters.clone())
        } else {
            let from = ["mpi.world.size", "jobsize"]
                .into_iter()
                .find(|g| runs.iter().all(|r| r.globals.iter().any(|(k, _)| k == g)))
                .unwrap_or("the ranks");
            (vec!["p".to_string()], vec![from.to_string()])
        };
        let mut coords: Vec<Vec<f64>> = Vec::with_capacity(runs.len());
        for CaliRun { name, globals, reduced } in &runs {
            let mut point = Vec::with_capacity(sources.len());
            for g in &sources {
                match globals.iter().find(|(k, _)| k == g) {
                    Some(&(_, v)) => point.push(v),
                    None if !named && g == "the ranks" => point.push(reduced.locations as f64),
                    None => {
                        let have: Vec<&str> = globals.iter().map(|(k, _)| k.as_str()).collect();
                        return Err(InputError::new(
                            FIELD,
                            format!(
                                "{}: no numeric global \"{}\"; the profile's numeric globals are {}",
                                clip_path(name),
                                clip(g),
                                have.join(", ")
                            ),
                        ));
                    }
                }
            }
            coords.push(point);
        }
        let varies = |j: usize| coords.iter().any(|c| c[j] != coords[0][j]);
        let mut keep: Vec<usize> = (0..parameters.len()).filter(|&j| varies(j)).collect();
        if keep.is_empty() {
            keep.push(0);
        }
        if keep.len() > MAX_PARAMETERS {
            return Err(InputError::new(
                FIELD,
                format!("the runs vary {} parameters; at most {MAX_PARAMETERS} are modelled", keep.len()),
            ));
        }
        // Other numeric globals that vary, and not as a parameter does (jobsize beside
        // mpi.world.size): offered to be parameters.
        let mut offered: Vec<String> = Vec::new();
        if let Some(first) = runs.first() {
            for (k, v) in &first.globals {
                let in_all: Option<Vec<f64>> =
                    runs.iter().map(|r| r.globals.iter().find(|g| &g.0 == k).map(|g| g.1)).collect();
                let Some(vs) = in_all else { continue };
                let as_parameter = (0..sources.len()).any(|j| coords.iter().zip(&vs).all(|(c, x)| c[j] == *x));
                if vs.iter().any(|x| x != v) && !sources.contains(k) && !as_parameter {
                    offered.push(k.clone());
                }
            }
        }
        for (CaliRun { reduced, .. }, c) in runs.into_iter().zip(coords) {
            let point: Vec<f64> = keep.iter().map(|&j| c[j]).collect();
            let key: Vec<u64> = point.iter().map(|v| (v + 0.0).to_bits()).collect();
            let i = *self.at.entry(key).or_insert_with(|| {
                self.points.push((point, Vec::new()));
                self.points.len() - 1
            });
            if self.points[i].1.len() >= MAX_REPETITIONS {
                return Err(InputError::new(FIELD, format!("more than {MAX_REPETITIONS} repetitions of one point")));
            }
            self.points[i].1.push(reduced);
        }
        let parameters: Vec<String> = keep.iter().map(|&j| parameters[j].clone()).collect();
        let sources = parameters.iter().zip(&keep).map(|(p, &j)| (p.clone(), sources[j].clone())).collect();
        Ok((parameters, CaliperParameters { sources, offered }))
    }

    /// The metric to read in `c`: the one asked, else "time", else the first.
    fn pick_metric(&mut self, c: &Cube) -> Result<usize, cube::Error> {
        // Metrics declared without data (derived ones) are not offered, as Extra-P skips them.
        let names: Vec<String> = c.metrics.iter().filter(|m| m.has_data).map(|m| m.uniq_name.clone()).collect();
        if self.metrics.is_empty() {
            self.metrics = names.clone();
        }
        let wanted = self.metric.clone().or_else(|| self.options.metric.clone());
        let found = match &wanted {
            Some(w) => c
                .metrics
                .iter()
                .position(|m| &m.uniq_name == w)
                .or_else(|| c.metrics.iter().position(|m| &m.disp_name == w)),
            None => c.metric("time").or(if c.metrics.is_empty() { None } else { Some(0) }),
        };
        let i = found.ok_or_else(|| match &wanted {
            Some(w) => cube::Error::new(format!("no metric \"{}\"; the profile has {}", clip(w), names.join(", "))),
            None => cube::Error::new("the profile has no metric"),
        })?;
        if self.metric.is_none() {
            self.metric = Some(c.metrics[i].uniq_name.clone());
        }
        Ok(i)
    }

    fn reduce(&mut self, c: &Cube) -> Result<Reduced, cube::Error> {
        let m = self.pick_metric(c)?;
        let want = if self.options.inclusive { Kind::Inclusive } else { Kind::Exclusive };
        let values = c.values(m, want)?;
        let locations = values.locations;
        let mut paths: HashMap<String, (f64, f64)> = HashMap::with_capacity(c.cnodes.len());
        for k in 0..c.cnodes.len() {
            let row = values.row(k);
            let sum: f64 = row.iter().sum();
            let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let max = if max.is_finite() { max } else { 0.0 };
            let path = c.callpath(k);
            if !self.seen.contains_key(&path) {
                self.seen.insert(path.clone(), self.order.len());
                self.order.push(path.clone());
            }
            // A call path reached twice (two call sites of one region under one parent) is one
            // region: its values add up.
            let e = paths.entry(path).or_insert((0.0, 0.0));
            e.0 += sum;
            e.1 += max;
        }
        Ok(Reduced { paths, locations })
    }

    /// The experiment of the runs read.
    pub fn finish(mut self) -> Result<Loaded, InputError> {
        let caliper = if self.cali_runs.is_empty() {
            if !self.options.parameters.is_empty() {
                return Err(InputError::new(
                    "--parameters",
                    "applies to Caliper profiles (.cali), whose globals hold the parameters; Score-P runs take theirs from folder names",
                ));
            }
            None
        } else {
            let (parameters, c) = self.cali_points()?;
            self.layout.parameters = parameters;
            Some(c)
        };
        let RunSet { layout, options, metric, metrics, mut points, order, locations, .. } = self;
        let metric = metric.ok_or_else(|| InputError::new(FIELD, "no run was read"))?;
        points.sort_by(|a, b| a.0.iter().zip(&b.0).fold(std::cmp::Ordering::Equal, |o, (x, y)| o.then(x.total_cmp(y))));
        let everywhere = |p: &str| points.iter().all(|(_, runs)| runs.iter().any(|r| r.paths.contains_key(p)));
        // Nearest ancestor present at every point, for each path that is not.
        let mut merged: Vec<(String, Option<String>)> = Vec::new();
        let mut into: HashMap<&str, Option<String>> = HashMap::new();
        for p in &order {
            if everywhere(p) {
                continue;
            }
            let mut anc: &str = p;
            let target = loop {
                match anc.rfind("->") {
                    Some(i) => {
                        anc = &anc[..i];
                        if everywhere(anc) {
                            break Some(anc.to_string());
                        }
                    }
                    None => break None,
                }
            };
            into.insert(p.as_str(), target.clone());
            merged.push((p.clone(), target));
        }
        // Each run's figures with the merged paths added to their ancestors (exclusive values
        // add up; an inclusive ancestor holds them already).
        let runs_of: Vec<(Vec<f64>, Vec<Reduced>)> = points
            .into_iter()
            .map(|(coords, runs)| {
                let runs = runs
                    .into_iter()
                    .map(|r| {
                        let mut paths = HashMap::with_capacity(r.paths.len());
                        let mut extra: Vec<(String, (f64, f64))> = Vec::new();
                        for (q, v) in r.paths {
                            match into.get(q.as_str()) {
                                None => {
                                    paths.insert(q, v);
                                }
                                Some(Some(t)) if !options.inclusive => extra.push((t.clone(), v)),
                                Some(_) => {}
                            }
                        }
                        for (t, (s, m)) in extra {
                            let e = paths.entry(t).or_insert((0.0, 0.0));
                            e.0 += s;
                            e.1 += m;
                        }
                        Reduced { paths, locations: r.locations }
                    })
                    .collect();
                (coords, runs)
            })
            .collect();
        let kept: Vec<&String> = order.iter().filter(|p| !into.contains_key(p.as_str())).collect();
        let imbalance_name = imbalance_metric(&metric);
        let mut series: Vec<Series> = Vec::with_capacity(kept.len() * 2);
        let mut imbalance: Vec<Series> = Vec::with_capacity(kept.len());
        for p in &kept {
            let mut values_series =
                Series { callpath: (*p).clone(), metric: metric.clone(), points: Vec::new(), parent: None };
            let mut imb_series =
                Series { callpath: (*p).clone(), metric: imbalance_name.clone(), points: Vec::new(), parent: None };
            for (coords, runs) in &runs_of {
                let mut values = Vec::with_capacity(runs.len());
                let mut imbs = Vec::with_capacity(runs.len());
                for Reduced { paths, locations } in runs {
                    let Some(&(sum, max)) = paths.get(p.as_str()) else { continue };
                    let mean = sum / (*locations).max(1) as f64;
                    values.push(match options.aggregate {
                        Aggregate::Mean => mean,
                        Aggregate::Sum => sum,
                        Aggregate::Max => max,
                    });
                    imbs.push(if mean > 0.0 { max / mean } else { 1.0 });
                }
                if values.iter().chain(&imbs).any(|v| !v.is_finite()) {
                    return Err(InputError::new(
                        FIELD,
                        format!("\"{}\": a value that is not a finite number", clip(p)),
                    ));
                }
                values_series.points.push(Measurement { coords: coords.clone(), values, line: None, negative: None });
                imb_series.points.push(Measurement {
                    coords: coords.clone(),
                    values: imbs,
                    line: None,
                    negative: None,
                });
            }
            series.push(values_series);
            imbalance.push(imb_series);
        }
        series.extend(imbalance);
        let runs = runs_of.iter().map(|p| p.1.len()).sum();
        let parameters = if layout.parameters.is_empty() { vec!["p".to_string()] } else { layout.parameters.clone() };
        if layout.parameters.is_empty() {
            // One point with no parameter: its count of processes is the number of locations.
            for s in &mut series {
                for m in &mut s.points {
                    m.coords = vec![locations.1.max(1) as f64];
                }
            }
        }
        let times = if options.inclusive { TimeKind::Inclusive } else { TimeKind::Exclusive };
        let format = if caliper.is_some() { Format::Cali } else { Format::Cube };
        let experiment = Experiment { format, parameters, series, times };
        Ok(Loaded {
            experiment,
            metrics,
            metric,
            options,
            runs,
            merged,
            locations: (locations.0.min(locations.1), locations.1),
            passed_over: layout.passed_over,
            caliper,
        })
    }
}

/// A path for messages: its last two components ("app.p64.r1/profile.cubex").
fn clip_path(path: &str) -> String {
    let parts: Vec<&str> = path.rsplit('/').take(2).collect();
    parts.into_iter().rev().collect::<Vec<_>>().join("/")
}

/// The loaded runs as Extra-P's text format, for the page to keep as its experiment: the
/// metric and its imbalance per region and point (every repetition), after `#` lines that say
/// what was read, and the `#scalewise times=` line the text reader takes as what the values
/// are (exclusive or inclusive).
pub fn to_text(e: &Experiment, l: &RunsSummary) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "# {}", l.sentence());
    for (p, into) in &l.merged {
        let _ = match into {
            Some(t) if !l.options.inclusive => writeln!(s, "# merged (missing at some points): {p} into {t}"),
            _ => writeln!(s, "# left out (missing at some points): {p}"),
        };
    }
    match e.times {
        TimeKind::Exclusive => _ = writeln!(s, "{TIMES_LINE}exclusive"),
        TimeKind::Inclusive => _ = writeln!(s, "{TIMES_LINE}inclusive"),
        TimeKind::Unknown => {}
    }
    for p in &e.parameters {
        let _ = writeln!(s, "PARAMETER {p}");
    }
    let coords: Vec<&Vec<f64>> =
        e.series.first().map(|s| s.points.iter().map(|m| &m.coords).collect()).unwrap_or_default();
    for c in &coords {
        let _ = writeln!(s, "POINTS ( {} )", c.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" "));
    }
    for series in &e.series {
        let _ = writeln!(s, "\nREGION {}\nMETRIC {}", series.callpath, series.metric);
        for m in &series.points {
            let _ = writeln!(s, "DATA {}", m.values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" "));
        }
    }
    s
}

/// The comment line of a text written by [`to_text`] that says what its values are:
/// `#scalewise times=exclusive` or `=inclusive`.
pub const TIMES_LINE: &str = "#scalewise times=";

/// What the page says of files it read: how many runs, the metric and how it was read, the
/// profile's metrics to choose from, and the call paths merged.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct RunsSummary {
    /// "cube" (Score-P runs), "cali" (Caliper profiles) or "saved" (a saved Extra-P
    /// experiment).
    pub source: String,
    pub runs: usize,
    pub metric: String,
    pub metrics: Vec<String>,
    pub options: RunOptions,
    pub merged: Vec<(String, Option<String>)>,
    pub locations: (usize, usize),
    pub passed_over: usize,
    /// Caliper profiles: where the parameters came from, as the page says it ("p from
    /// mpi.world.size"); empty for Cube profiles. A sentence rather than
    /// [`CaliperParameters`]: the page reads this type, and a string costs its wasm least.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub parameters_from: String,
    /// The same as data, with the other numeric globals that vary, for the command; not
    /// passed to the page.
    #[serde(skip)]
    pub caliper: Option<Box<CaliperParameters>>,
}

impl RunsSummary {
    pub fn of(l: &Loaded) -> RunsSummary {
        RunsSummary {
            source: if l.caliper.is_some() { "cali" } else { "cube" }.into(),
            parameters_from: l
                .caliper
                .iter()
                .flat_map(|c| &c.sources)
                .map(|(p, g)| format!("{p} from {g}"))
                .collect::<Vec<_>>()
                .join(", "),
            caliper: l.caliper.clone().map(Box::new),
            runs: l.runs,
            metric: l.metric.clone(),
            metrics: l.metrics.clone(),
            options: l.options.clone(),
            merged: l.merged.clone(),
            locations: l.locations,
            passed_over: l.passed_over,
        }
    }

    /// One sentence for the page: "40 runs read (Cube 4 profiles, 64 locations each): time,
    /// exclusive, mean over locations (per process)."
    pub fn sentence(&self) -> String {
        if self.source == "saved" {
            return "A saved Extra-P experiment, read with every repetition.".into();
        }
        let (kind, one, many) = match self.source.as_str() {
            "cali" => ("Caliper", "process", "processes"),
            _ => ("Cube 4", "location", "locations"),
        };
        let locs = match self.locations {
            (1, 1) => format!("1 {one} each"),
            (a, b) if a == b => format!("{a} {many} each"),
            (a, b) => format!("{a} to {b} {many}"),
        };
        let mut s = format!(
            "{} run{} read ({kind} profiles, {locs}): {}, {} values, {}.",
            self.runs,
            if self.runs == 1 { "" } else { "s" },
            self.metric,
            if self.options.inclusive { "inclusive" } else { "exclusive" },
            self.options.aggregate.words()
        );
        if !self.parameters_from.is_empty() {
            s += &format!(" Parameters: {}.", self.parameters_from);
        }
        s
    }
}

/// Reads a set of files, each as its path from the folder given and a way to get its bytes
/// (called once per run, in order, so one run is in memory at a time): Score-P runs, or one
/// saved Extra-P experiment. `progress` hears (files read, files to read). The page's worker
/// and the tests read through this; the command reads the same way from disk.
pub fn read_set(
    paths: &[String],
    options: &RunOptions,
    limits: &Limits,
    bytes_of: &mut dyn FnMut(usize) -> Result<Vec<u8>, String>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Experiment, RunsSummary), InputError> {
    let err = |m: String| InputError::new(FIELD, m);
    // One file given (not one found in a folder) that is no profile by its name: a saved
    // experiment, or a profile of another name, told by its first bytes.
    if let [one] = paths {
        if !is_profile(one) && !one.contains('/') {
            let bytes = bytes_of(0).map_err(|m| err(format!("{}: {m}", clip_path(one))))?;
            if bytes.starts_with(b"PK") {
                let e = super::saved::read(&bytes, &super::saved::Limits::DEFAULT)
                    .map_err(|e| err(format!("{}: {}", clip_path(one), e.message)))?;
                return Ok((e, RunsSummary { source: "saved".into(), runs: 1, ..RunsSummary::default() }));
            }
            let l = Layout { parameters: Vec::new(), runs: vec![(0, Vec::new())], passed_over: 0 };
            let mut set = RunSet::new(l, options.clone());
            set.add(0, one, &bytes, limits)?;
            let loaded = set.finish()?;
            let summary = RunsSummary::of(&loaded);
            return Ok((loaded.experiment, summary));
        }
    }
    let l = layout(paths, limits)?;
    let runs: Vec<usize> = l.runs.iter().map(|r| r.0).collect();
    let mut set = RunSet::new(l, options.clone());
    for (k, &i) in runs.iter().enumerate() {
        progress(k, runs.len());
        let bytes = bytes_of(i).map_err(|m| err(format!("{}: {m}", clip_path(&paths[i]))))?;
        set.add(k, &paths[i], &bytes, limits)?;
    }
    progress(runs.len(), runs.len());
    let loaded = set.finish()?;
    let summary = RunsSummary::of(&loaded);
    Ok((loaded.experiment, summary))
}

/// An experiment as Extra-P's JSON format (the newer layout: parameters, then measurements by
/// call path and metric, each point with its values), for a saved experiment whose call paths
/// need not share their points, which the text format requires.
pub fn to_json_text(e: &Experiment) -> String {
    let mut by_path: serde_json::Map<String, serde_json::Value> = serde_json::Map::new();
    for s in &e.series {
        let points: Vec<serde_json::Value> =
            s.points.iter().map(|m| serde_json::json!({"point": m.coords, "values": m.values})).collect();
        let entry =
            by_path.entry(s.callpath.clone()).or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()));
        if let Some(o) = entry.as_object_mut() {
            o.insert(s.metric.clone(), serde_json::Value::Array(points));
        }
    }
    serde_json::json!({"parameters": e.parameters, "measurements": by_path}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(folder: &str) -> Vec<(String, f64)> {
        run_name(folder).unwrap_or_else(|e| panic!("{folder}: {e}")).parameters
    }

    fn p(pairs: &[(&str, f64)]) -> Vec<(String, f64)> {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn folder_names_read_as_extrap_reads_them_and_where_it_trips() {
        // Extra-P's own allowed formats (tests/data/cubeset/allowed_formats).
        assert_eq!(names("mm.x10y1z1.r1"), p(&[("x", 10.0), ("y", 1.0), ("z", 1.0)]));
        assert_eq!(names("mm.x1.1y1.1z1.1"), p(&[("x", 1.1), ("y", 1.1), ("z", 1.1)]));
        assert_eq!(names("mm.x20,5.y20,5.z1,5.r1"), p(&[("x", 20.5), ("y", 20.5), ("z", 1.5)]));
        assert_eq!(names("mm.x21.5,y21,5,z1.15.r1"), p(&[("x", 21.5), ("y", 21.5), ("z", 1.15)]));
        assert_eq!(names("mm.x22.5.y22.5.z1.25.r1"), p(&[("x", 22.5), ("y", 22.5), ("z", 1.25)]));
        assert_eq!(names("mm.x25.y25.z1.r1"), p(&[("x", 25.0), ("y", 25.0), ("z", 1.0)]));
        assert_eq!(names("x10y1z1"), p(&[("x", 10.0), ("y", 1.0), ("z", 1.0)]));
        assert_eq!(names("example.f3"), p(&[("f", 3.0)]));
        assert_eq!(run_name("app.p64.r2").unwrap(), RunName { parameters: p(&[("p", 64.0)]), repetition: Some(2) });
        // Where Extra-P trips: a ".r" in the program's name, a version number before the
        // parameters.
        assert_eq!(names("lulesh.run.p8.r1"), p(&[("p", 8.0)]));
        assert_eq!(names("lulesh2.0.p64.r1"), p(&[("p", 64.0)]));
        assert_eq!(names("app.res4.p8"), p(&[("res", 4.0), ("p", 8.0)]));
        // No parameters: refused, naming the folder.
        for bad in ["profile", "app.run", "app.r1", ""] {
            let e = run_name(bad).unwrap_err();
            assert_eq!(e.folder, bad);
            assert!(e.to_string().contains(&format!("\"{bad}\"")), "{e}");
        }
    }

    fn paths(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_layout_finds_the_runs_drops_constant_parameters_and_refuses_disagreeing_names() {
        let l = layout(
            &paths(&[
                "mm.x1y1z1.r1/profile.cubex",
                "mm.x10y1z1.r1/profile.cubex",
                "mm.x10y1z1.r1/scorep.cfg",
                "notes.txt",
                "_x/.keep",
            ]),
            &LIMITS,
        )
        .unwrap();
        assert_eq!(l.parameters, ["x"]);
        assert_eq!(l.runs, vec![(0, vec![1.0]), (1, vec![10.0])]);
        assert_eq!(l.passed_over, 3);
        // Extra-P's negative examples: the names disagree, and the message names both folders.
        let e =
            layout(&paths(&["mm.x1y1wrong1/profile.cubex", "x10y1z1/profile.cubex"]), &LIMITS).unwrap_err().to_string();
        assert!(e.contains("\"x10y1z1\"") && e.contains("\"mm.x1y1wrong1\"") && e.contains("x, y, wrong"), "{e}");
        let e = layout(&paths(&["mm.y1x1z1/profile.cubex", "x10y1z1/profile.cubex"]), &LIMITS).unwrap_err().to_string();
        assert!(e.contains("same order"), "{e}");
        // Runs deeper down are not runs (Extra-P's `*/[!.]*.cubex`), and a hidden file is none.
        let e = layout(&paths(&["single_parameter/mm.x1y1z1.r1/profile.cubex"]), &LIMITS).unwrap_err().to_string();
        assert!(e.contains("no run found"), "{e}");
        assert!(layout(&paths(&["a.p1/.profile.cubex"]), &LIMITS).is_err());
        // A profile given alone is one run, and the limit of runs is named past it.
        assert_eq!(layout(&paths(&["profile.cubex"]), &LIMITS).unwrap().runs, vec![(0, vec![])]);
        let many: Vec<String> = (0..5).map(|i| format!("a.p{i}/profile.cubex")).collect();
        let e = layout(&many, &Limits { runs: 4, ..LIMITS }).unwrap_err().to_string();
        assert!(e.contains("the limit of runs"), "{e}");
    }

    #[test]
    fn an_imbalance_is_flagged_when_it_grows_with_p_and_not_when_it_is_flat_or_noisy() {
        use crate::model::bottlenecks::ranking::imbalance_grows;
        use crate::model::bottlenecks::PointSummary;
        let points = |ns: &[f64]| -> Vec<PointSummary> {
            ns.iter().map(|&n| PointSummary { n, median: 1.0, noise: 0.0, repetitions: 1, coords: vec![n] }).collect()
        };
        let ns = [2.0, 4.0, 8.0, 16.0, 32.0];
        let grows: Vec<Option<f64>> = ns.iter().map(|n: &f64| Some(1.0 + n / 16.0)).collect();
        assert!(imbalance_grows(&points(&ns), &grows));
        let flat: Vec<Option<f64>> = [1.05, 1.02, 1.06, 1.03, 1.05].iter().map(|&v| Some(v)).collect();
        assert!(!imbalance_grows(&points(&ns), &flat));
        // Up by 10 % but falling back: the trend, not one point, decides; one count is no trend.
        let falls: Vec<Option<f64>> = [1.5, 1.2, 1.1, 1.0, 1.0].iter().map(|&v| Some(v)).collect();
        assert!(!imbalance_grows(&points(&ns), &falls));
        assert!(!imbalance_grows(&points(&[8.0]), &[Some(3.0)]));
        assert!(!imbalance_grows(&points(&ns), &[None, None, None, None, None]));
    }

    /// Thicket's LULESH folder as read by `read_set`: the file at each index.
    fn lulesh(options: &RunOptions) -> Result<(Experiment, RunsSummary), InputError> {
        let files: [(&str, &[u8]); 5] = [
            ("125_cores.cali", include_bytes!("../../../tests/data/cali/mpi_scaling_cali/125_cores.cali")),
            ("216_cores.cali", include_bytes!("../../../tests/data/cali/mpi_scaling_cali/216_cores.cali")),
            ("27_cores.cali", include_bytes!("../../../tests/data/cali/mpi_scaling_cali/27_cores.cali")),
            ("343_cores.cali", include_bytes!("../../../tests/data/cali/mpi_scaling_cali/343_cores.cali")),
            ("64_cores.cali", include_bytes!("../../../tests/data/cali/mpi_scaling_cali/64_cores.cali")),
        ];
        let paths: Vec<String> = files.iter().map(|f| f.0.to_string()).collect();
        let mut bytes_of = |i: usize| Ok(files[i].1.to_vec());
        read_set(&paths, options, &LIMITS, &mut bytes_of, &mut |_, _| {})
    }

    #[test]
    fn a_folder_of_caliper_profiles_is_five_runs_with_p_from_the_globals_and_caliper_readers_values() {
        let (e, s) = lulesh(&RunOptions::default()).unwrap();
        assert_eq!(
            (e.format, e.parameters.clone(), e.times),
            (Format::Cali, vec!["p".to_string()], TimeKind::Inclusive)
        );
        assert_eq!((s.source.as_str(), s.runs, s.locations, s.options.inclusive), ("cali", 5, (27, 343), true));
        assert_eq!(s.parameters_from, "p from mpi.world.size");
        assert!(s.sentence().starts_with("5 runs read (Caliper profiles, 27 to 343 processes)"), "{}", s.sentence());
        assert!(s.sentence().ends_with(" Parameters: p from mpi.world.size."), "{}", s.sentence());
        // Each region's value at p is caliper-reader's sum over ranks divided by p, and its
        // imbalance caliper-reader's max over that mean (cali::tests::CALIPER_READER, from
        // scripts/cali-reference.py).
        let mut p = 0.0;
        let mut checked = 0;
        for line in crate::model::cali::tests::CALIPER_READER.lines().filter(|l| !l.is_empty()) {
            let w: Vec<&str> = line.split(' ').collect();
            if w[0] == "file" {
                p = w[2].parse().unwrap();
                continue;
            }
            let (sum, max): (f64, f64) = (w[1].parse().unwrap(), w[2].parse().unwrap());
            let at = |metric: &str| {
                let series = e.series.iter().find(|x| x.callpath == w[0] && x.metric == metric).unwrap();
                let m = series.points.iter().find(|m| m.coords == [p]).unwrap();
                assert_eq!(m.values.len(), 1);
                m.values[0]
            };
            let mean = sum / p;
            let got = at("sum#time.duration");
            assert!((got - mean).abs() <= 1e-3 * mean.abs(), "{} at p = {p}: {got} against {mean}", w[0]);
            let imbalance = if mean > 0.0 { max / mean } else { 1.0 };
            let got = at("imbalance(sum#time.duration)");
            assert!(
                (got - imbalance).abs() <= 1e-3 * imbalance,
                "{} at p = {p}: imbalance {got} against {imbalance}",
                w[0]
            );
            checked += 1;
        }
        assert_eq!(checked, 225);
        // Named globals: jobsize is the process count; problem_size has one value, dropped.
        let o = RunOptions { parameters: vec!["jobsize".into(), "problem_size".into()], ..RunOptions::default() };
        let (e, s) = lulesh(&o).unwrap();
        assert_eq!(e.parameters, ["jobsize"]);
        assert_eq!(s.parameters_from, "jobsize from jobsize");
        let e = lulesh(&RunOptions { parameters: vec!["nope".into()], ..RunOptions::default() }).unwrap_err();
        assert!(e.message.contains("no numeric global \"nope\""), "{e}");
        // The files hold inclusive times only: exclusive cannot be asked by name.
        let e = lulesh(&RunOptions { metric: Some("time".into()), ..RunOptions::default() }).unwrap_err();
        assert!(e.message.contains("no metric \"time\"; the profile has sum#time.duration"), "{e}");
    }

    #[test]
    fn a_bad_caliper_run_names_its_file_line_and_column() {
        let paths = vec!["a.cali".to_string(), "b.cali".to_string()];
        let good = include_bytes!("../../../tests/data/cali/mpi_scaling_cali/27_cores.cali").to_vec();
        let mut bad = good.clone();
        // Line 23's first value (0.001615) made "x.001615".
        let text = String::from_utf8(bad.clone()).unwrap();
        let at = text.find("data=0.001615").unwrap() + 5;
        bad[at] = b'x';
        let mut bytes_of = |i: usize| Ok(if i == 0 { good.clone() } else { bad.clone() });
        let e = read_set(&paths, &RunOptions::default(), &LIMITS, &mut bytes_of, &mut |_, _| {}).unwrap_err();
        assert_eq!((e.line, e.column), (Some(23), Some(47)), "{e}");
        assert!(
            e.message.starts_with("b.cali: expected a number for min#inclusive")
                && e.message.ends_with("found \"x.001615\""),
            "{e}"
        );
        // Cube and Caliper profiles together are refused.
        let mixed = vec!["a.cali".to_string(), "x.p1/profile.cubex".to_string()];
        let e = layout(&mixed, &LIMITS).unwrap_err();
        assert!(e.message.contains("give one kind of profile"), "{e}");
    }
}

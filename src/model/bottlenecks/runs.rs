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

use super::formats::{self, by_name, Profiler, Reader, Runs, PROFILERS};
use super::{Experiment, Format, Measurement, Series, TimeKind, FIELD, MAX_PARAMETERS, MAX_REPETITIONS};
use crate::model::cube::{self, Cube, Kind};
use crate::model::input::list::clip;
use crate::model::profile::{RunProfile, Want};
use crate::model::InputError;

pub use super::formats::{Limits, LIMITS};

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
/// with no parameter. A run of a TAU profile or an HPCToolkit database is a folder of files:
/// `files` lists each run's files (one for the other formats).
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub parameters: Vec<String>,
    /// (index into the paths, point).
    pub runs: Vec<(usize, Vec<f64>)>,
    /// Per run, the indices into the paths of its files.
    pub files: Vec<Vec<usize>>,
    /// The folders that name a run but hold other files only, and the files passed over.
    pub passed_over: usize,
}

impl Layout {
    /// Runs of one file each, with no parameter (their points are read from the files).
    fn of_files(runs: Vec<usize>, passed_over: usize) -> Layout {
        Layout {
            parameters: Vec::new(),
            files: runs.iter().map(|&i| vec![i]).collect(),
            runs: runs.into_iter().map(|i| (i, Vec::new())).collect(),
            passed_over,
        }
    }
}

/// How a message names profiles of a format: one, and several.
fn profile_words(f: Format) -> (&'static str, &'static str) {
    f.profiler().map_or(("a file", "files"), |p| (p.one, p.many))
}

/// The folder of the run a file of a folder-per-run profiler belongs to: its own folder, or
/// for a file of one of several metrics (TAU's `MULTI__TIME/profile.0.0.0`), the folder above.
fn run_folder(parts: &[&str], metric_folder: Option<&str>) -> String {
    let mut dir = &parts[..parts.len().saturating_sub(1)];
    if let (Some(prefix), Some((last, rest))) = (metric_folder, dir.split_last()) {
        if last.starts_with(prefix) {
            dir = rest;
        }
    }
    dir.join("/")
}

/// The runs of a set of files (paths relative to the folder given, '/' between components).
pub fn layout(paths: &[String], limits: &Limits) -> Result<Layout, InputError> {
    let err = |m: String| InputError::new(FIELD, m);
    let kinds: Vec<Option<Format>> = paths.iter().map(|p| by_name(p).filter(|f| *f != Format::Saved)).collect();
    let mut present: Vec<(usize, Format)> = Vec::new();
    for (i, k) in kinds.iter().enumerate() {
        if let Some(k) = *k {
            if !present.iter().any(|p| p.1 == k) {
                present.push((i, k));
            }
        }
    }
    if let [(_, a), (j, b), ..] = present[..] {
        return Err(err(format!(
            "\"{}\" is {} among {}: give one kind of profile",
            clip(&paths[j]),
            profile_words(b).0,
            profile_words(a).1
        )));
    }
    let too_many =
        |n: usize| err(format!("{n} runs is more than the {} read at once (the limit of runs)", limits.runs));
    let parts = |i: usize| paths[i].split('/').filter(|c| !c.is_empty()).collect::<Vec<_>>();
    let kind = present.first().map(|p| p.1);
    // With no file named as a profiler's, the files of a name some profiler's may have (JSON
    // files, which may be Caliper's).
    let maybe = match kind {
        None => PROFILERS.iter().find_map(|p| p.maybe.filter(|m| paths.iter().any(|x| x.ends_with(m))).map(|m| (p, m))),
        Some(_) => None,
    };
    let runs_of = kind.and_then(Format::profiler).or(maybe.map(|m| m.0)).map(|p| p.runs);
    // A run is a folder of files: grouped by their run's folder, in the order first seen.
    if let Some(Runs::Folder { metric_folder }) = runs_of {
        let mut folders: Vec<String> = Vec::new();
        let mut files: Vec<Vec<usize>> = Vec::new();
        let mut passed_over = 0;
        for (i, k) in kinds.iter().enumerate() {
            let c = parts(i);
            if k.is_none() || c.len() > 3 {
                passed_over += 1;
                continue;
            }
            let folder = run_folder(&c, metric_folder);
            match folders.iter().position(|f| *f == folder) {
                Some(r) => files[r].push(i),
                None => {
                    folders.push(folder);
                    files.push(vec![i]);
                }
            }
        }
        if files.len() > limits.runs {
            return Err(too_many(files.len()));
        }
        let runs = files.iter().map(|f| (f[0], Vec::new())).collect();
        return Ok(Layout { parameters: Vec::new(), runs, files, passed_over });
    }
    // A file a run (Caliper profiles), in the folder given or one level down, its point read
    // from its metadata (RunSet::finish).
    if runs_of == Some(Runs::File) {
        let runs: Vec<usize> = (0..paths.len())
            .filter(|&i| {
                let ours = kind.is_some_and(|k| kinds[i] == Some(k)) || maybe.is_some_and(|m| paths[i].ends_with(m.1));
                parts(i).len() <= 2 && ours
            })
            .collect();
        if runs.len() > limits.runs {
            return Err(too_many(runs.len()));
        }
        let passed_over = paths.len() - runs.len();
        return Ok(Layout::of_files(runs, passed_over));
    }
    let profiles: Vec<(usize, Vec<&str>)> =
        (0..paths.len()).filter(|&i| kinds[i] == Some(Format::Cube)).map(|i| (i, parts(i))).collect();
    let passed_over = paths.len() - profiles.len();
    // A profile given alone, or the folder of one run.
    if profiles.iter().all(|(_, c)| c.len() == 1) {
        if profiles.is_empty() {
            return Err(err("no profile found: expected a folder of runs, each a folder such as app.p64.r1 holding profile.cubex (or Caliper, TAU or HPCToolkit profiles)".into()));
        }
        return Ok(Layout::of_files(profiles.iter().map(|p| p.0).collect(), passed_over));
    }
    // Runs one level down, as Extra-P's `*/[!.]*.cubex`.
    let runs: Vec<(usize, &str)> = profiles.iter().filter(|(_, c)| c.len() == 2).map(|(i, c)| (*i, c[0])).collect();
    if runs.is_empty() {
        return Err(err("no run found: expected folders such as app.p64.r1 directly in the folder given, each holding a .cubex profile".into()));
    }
    if runs.len() > limits.runs {
        return Err(too_many(runs.len()));
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
    let files = runs.iter().map(|r| vec![r.0]).collect();
    let runs = runs.iter().zip(&names).map(|(&(i, _), n)| (i, varying.iter().map(|&j| n[j].1).collect())).collect();
    Ok(Layout {
        parameters,
        runs,
        files,
        passed_over: passed_over + profiles.iter().filter(|(_, c)| c.len() > 2).count(),
    })
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
    /// Runs whose points are read from their metadata once all are in (every format but
    /// Cube).
    cali_runs: Vec<CaliRun>,
    /// The format of the runs read.
    format: Option<Format>,
    /// Per run read: its name and a fingerprint of its figures, to find runs read twice.
    prints: Vec<(String, u64)>,
    /// Runs whose figures equal an earlier run's in every call path: (earlier, this).
    identical: Vec<(String, String)>,
}

/// A fingerprint of a run's figures: equal for two runs of the same call paths with the same
/// values (a profile copied, or given twice).
fn fingerprint(r: &Reduced) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut keys: Vec<(&String, &(f64, f64))> = r.paths.iter().collect();
    keys.sort_by(|a, b| a.0.cmp(b.0));
    // std's SipHash with its fixed keys: the same on every platform.
    let mut h = std::hash::DefaultHasher::new();
    r.locations.hash(&mut h);
    for (k, (sum, max)) in keys {
        k.hash(&mut h);
        sum.to_bits().hash(&mut h);
        max.to_bits().hash(&mut h);
    }
    h.finish()
}

/// A run whose point comes from its metadata: its file's (or folder's) name, its numeric
/// globals, the parameters its folder's name gives (TAU and HPCToolkit runs) and its figures.
#[derive(Debug, Clone)]
struct CaliRun {
    name: String,
    globals: Vec<(String, f64)>,
    named: Vec<(String, f64)>,
    reduced: Reduced,
}

/// The globals that give a run's count of processes when no parameter is named, the first
/// found in every run: Adiak's, then each profiler's count of the ranks its reader saw
/// ([`Profiler::ranks_global`]).
fn process_counts() -> impl Iterator<Item = &'static str> {
    ["mpi.world.size", "jobsize"].into_iter().chain(PROFILERS.iter().filter_map(|p| p.ranks_global))
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
    /// Runs whose figures equal an earlier run's in every call path: (earlier, this).
    pub identical: Vec<(String, String)>,
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
            format: None,
            prints: Vec::new(),
            identical: Vec::new(),
        }
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Reads run `k` of the layout from its file's bytes (`name` is its path, for messages)
    /// and keeps its per-call-path figures only.
    pub fn add(&mut self, k: usize, name: &str, bytes: &[u8], limits: &Limits) -> Result<(), InputError> {
        self.add_run(k, &[(name, bytes)], limits)
    }

    /// Reads run `k` of the layout from its files, (path, bytes), one for every format but a
    /// TAU profile folder or an HPCToolkit database, and keeps its per-call-path figures only.
    pub fn add_run(&mut self, k: usize, files: &[(&str, &[u8])], limits: &Limits) -> Result<(), InputError> {
        let at = |name: &str, m: String| InputError::new(FIELD, format!("{}: {m}", clip_path(name)));
        let Some(&(name, bytes)) = files.first() else { return Err(InputError::new(FIELD, "a run with no file")) };
        for &(n, b) in files {
            if b.len() > limits.file_bytes {
                return Err(at(
                    n,
                    format!(
                        "{} bytes is more than the {} MB of one file read (the limit of file bytes)",
                        b.len(),
                        limits.file_bytes >> 20
                    ),
                ));
            }
        }
        let format = formats::detect(name, &bytes[..bytes.len().min(formats::HEAD)]).map_err(|m| at(name, m))?;
        let Some(row) = format.profiler() else {
            return Err(at(
                name,
                if format == Format::Saved {
                    "a saved Extra-P experiment among runs: give it alone".into()
                } else {
                    "not a profile (its text would be an experiment of its own): give it alone, or leave it out of the folder".into()
                },
            ));
        };
        match self.format {
            Some(f) if f != format => {
                return Err(at(
                    name,
                    format!("{} among {}: give one kind of profile", profile_words(format).0, profile_words(f).1),
                ))
            }
            _ => self.format = Some(format),
        }
        if let Some(read) = row.read {
            return self.add_profile(row, read, files, limits);
        }
        let c = cube::read(bytes, &limits.cube()).map_err(|e| at(name, e.message))?;
        let point = self.layout.runs.get(k).map(|r| r.1.clone()).unwrap_or_default();
        let reduced = self.reduce(&c).map_err(|e| at(name, e.message))?;
        let key: Vec<u64> = point.iter().map(|v| (v + 0.0).to_bits()).collect();
        let i = *self.at.entry(key).or_insert_with(|| {
            self.points.push((point, Vec::new()));
            self.points.len() - 1
        });
        if self.points[i].1.len() >= MAX_REPETITIONS {
            return Err(at(name, format!("more than {MAX_REPETITIONS} repetitions of one point")));
        }
        self.locations = (self.locations.0.min(reduced.locations), self.locations.1.max(reduced.locations));
        self.note(name, &reduced);
        self.points[i].1.push(reduced);
        Ok(())
    }

    /// Keeps a run's fingerprint, noting a run whose figures equal an earlier one's.
    fn note(&mut self, name: &str, r: &Reduced) {
        if r.paths.is_empty() {
            return;
        }
        let f = fingerprint(r);
        if let Some((first, _)) = self.prints.iter().find(|p| p.1 == f) {
            self.identical.push((first.clone(), name.to_string()));
        }
        self.prints.push((name.to_string(), f));
    }

    /// Reads a run of a profiler whose reader gives a [`RunProfile`] (every one but Cube) and
    /// keeps its figures: its point is decided in [`RunSet::finish`].
    fn add_profile(
        &mut self,
        row: &Profiler,
        read: Reader,
        files: &[(&str, &[u8])],
        limits: &Limits,
    ) -> Result<(), InputError> {
        let name = files[0].0;
        let parts: Vec<&str> = name.split('/').filter(|c| !c.is_empty()).collect();
        let folder = match row.runs {
            Runs::Folder { metric_folder } => run_folder(&parts, metric_folder),
            Runs::File | Runs::NamedFolders => String::new(),
        };
        let inner: Vec<(&str, &[u8])> = files
            .iter()
            .map(|&(n, b)| (n.trim_start_matches('/').strip_prefix(&format!("{folder}/")).unwrap_or(n), b))
            .collect();
        let want = Want {
            metric: self.metric.clone().or_else(|| self.options.metric.clone()),
            inclusive: self.options.inclusive,
        };
        let read = read(&inner, &want, limits);
        let shown = if folder.is_empty() { name.to_string() } else { folder.clone() };
        let p: RunProfile =
            read.map_err(|e| InputError { message: format!("{}: {}", clip_path(&shown), e.message), ..e })?;
        if self.metric.is_none() {
            self.metrics = p.metrics.clone();
            self.metric = Some(p.metric.clone());
            self.options.inclusive = p.inclusive;
        }
        if p.paths.len() > limits.callpaths {
            return Err(InputError::new(
                FIELD,
                format!(
                    "{}: {} call paths is more than the {} of one profile (the limit of call paths)",
                    clip_path(&shown),
                    p.paths.len(),
                    limits.callpaths
                ),
            ));
        }
        let mut paths = HashMap::with_capacity(p.paths.len());
        for v in p.paths {
            if !self.seen.contains_key(&v.path) {
                self.seen.insert(v.path.clone(), self.order.len());
                self.order.push(v.path.clone());
            }
            let e = paths.entry(v.path).or_insert((0.0, 0.0));
            e.0 += v.total;
            e.1 = f64::max(e.1, v.max);
        }
        let locations = p.locations.min(limits.locations);
        self.locations = (self.locations.0.min(locations), self.locations.1.max(locations));
        let last = folder.rsplit('/').next().unwrap_or("");
        let named = run_name(last).map(|n| n.parameters).unwrap_or_default();
        let reduced = Reduced { paths, locations };
        self.note(&shown, &reduced);
        self.cali_runs.push(CaliRun { name: shown, globals: p.globals, named, reduced });
        Ok(())
    }

    /// The points of the runs read from their metadata: the parameters named in the options
    /// (globals, or parameters of the runs' folder names; the first the process count), else
    /// the parameters every run's folder name gives (TAU and HPCToolkit runs named as Score-P
    /// runs are: `lulesh.p64.s30`), else the process count alone (the first of
    /// [`process_counts`] every run has, else the ranks seen); a parameter with one value over
    /// all runs dropped, unless it is the only one.
    fn cali_points(&mut self) -> Result<(Vec<String>, CaliperParameters), InputError> {
        let runs = std::mem::take(&mut self.cali_runs);
        let named = !self.options.parameters.is_empty();
        let keys = |r: &CaliRun| r.named.iter().map(|n| n.0.clone()).collect::<Vec<_>>();
        let by_folder =
            !named && !runs.is_empty() && !runs[0].named.is_empty() && runs.iter().all(|r| keys(r) == keys(&runs[0]));
        let (parameters, sources): (Vec<String>, Vec<String>) = if named {
            (self.options.parameters.clone(), self.options.parameters.clone())
        } else if by_folder {
            (keys(&runs[0]), vec!["the folder name".to_string(); runs[0].named.len()])
        } else {
            let from = process_counts()
                .find(|g| runs.iter().all(|r| r.globals.iter().any(|(k, _)| k == g)))
                .unwrap_or("the ranks");
            (vec!["p".to_string()], vec![from.to_string()])
        };
        let mut coords: Vec<Vec<f64>> = Vec::with_capacity(runs.len());
        for CaliRun { name, globals, named: folder, reduced } in &runs {
            let mut point = Vec::with_capacity(sources.len());
            for (j, g) in sources.iter().enumerate() {
                let found = if by_folder {
                    folder.get(j).map(|n| n.1)
                } else {
                    globals.iter().chain(folder).find(|(k, _)| k == g).map(|n| n.1)
                };
                match found {
                    Some(v) => point.push(v),
                    None if !named && g == "the ranks" => point.push(reduced.locations as f64),
                    None => {
                        let have: Vec<&str> = globals.iter().chain(folder).map(|(k, _)| k.as_str()).collect();
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
            for (k, v) in first.globals.iter().chain(&first.named) {
                let in_all: Option<Vec<f64>> =
                    runs.iter().map(|r| r.globals.iter().chain(&r.named).find(|g| &g.0 == k).map(|g| g.1)).collect();
                let Some(vs) = in_all else { continue };
                let as_parameter = (0..sources.len()).any(|j| coords.iter().zip(&vs).all(|(c, x)| c[j] == *x));
                if vs.iter().any(|x| x != v) && !sources.contains(k) && !parameters.contains(k) && !as_parameter {
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
                    "applies to runs whose metadata hold the parameters (Caliper, TAU and HPCToolkit profiles); Score-P runs take theirs from folder names",
                ));
            }
            None
        } else {
            let (parameters, c) = self.cali_points()?;
            self.layout.parameters = parameters;
            Some(c)
        };
        let RunSet { layout, options, metric, metrics, mut points, order, locations, format, identical, .. } = self;
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
        if kept.is_empty() {
            let first = order.first().map(|p| format!(" (\"{}\" among them)", clip(p))).unwrap_or_default();
            return Err(InputError::new(
                FIELD,
                format!("no call path is in every run{first}: the runs share no region to model; are they profiles of one program?"),
            ));
        }
        let imbalance_name = imbalance_metric(&metric);
        let mut series: Vec<Series> = Vec::with_capacity(kept.len() * 2);
        let mut imbalance: Vec<Series> = Vec::with_capacity(kept.len());
        for p in &kept {
            let callpath = shown_path(p);
            let mut values_series =
                Series { callpath: callpath.clone(), metric: metric.clone(), points: Vec::new(), parent: None };
            let mut imb_series = Series { callpath, metric: imbalance_name.clone(), points: Vec::new(), parent: None };
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
                values_series.points.push(Measurement { coords: coords.clone(), values, line: None, refused: None });
                imb_series.points.push(Measurement { coords: coords.clone(), values: imbs, line: None, refused: None });
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
        let format = format.unwrap_or(Format::Cube);
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
            identical,
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

/// A profile's call path as a region's name: on one line (a line break or other control
/// character becomes a space) and never blank, since a profile may hold a region without a
/// name (a Caliper node without `data=`, a TAU timer named `""`), and the text form
/// ([`to_text`]) needs one to read back.
fn shown_path(p: &str) -> String {
    let one_line: String = p.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    if one_line.trim().is_empty() {
        "(no name)".to_string()
    } else {
        one_line
    }
}

/// The comment line of a text written by [`to_text`] that says what its values are:
/// `#scalewise times=exclusive` or `=inclusive`.
pub const TIMES_LINE: &str = "#scalewise times=";

/// What the page says of files it read: how many runs, the metric and how it was read, the
/// profile's metrics to choose from, and the call paths merged.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct RunsSummary {
    /// The format's name ([`Format::name`]): "cube" (Score-P runs), "cali" (Caliper profiles),
    /// "cali-json", "tau", "hpctoolkit", or "saved" (a saved Extra-P experiment).
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
    /// Runs whose figures equal an earlier run's in every call path, (earlier, this): a
    /// profile given twice, or copied; for the command and the sentence, not passed to the page.
    #[serde(skip)]
    pub identical: Vec<(String, String)>,
    /// [`RunsSummary::sentence`], written by the worker so that the page shows it without the
    /// code that words it.
    #[serde(default)]
    pub said: String,
}

impl RunsSummary {
    pub fn of(l: &Loaded) -> RunsSummary {
        RunsSummary {
            source: l.experiment.format.name().into(),
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
            identical: l.identical.clone(),
            said: String::new(),
        }
        .worded()
    }

    /// The summary with its sentence written into [`RunsSummary::said`].
    pub fn worded(mut self) -> RunsSummary {
        self.said = self.sentence();
        self
    }

    /// One sentence for the page: "40 runs read (Cube 4 profiles, 64 locations each): time,
    /// exclusive, mean over locations (per process)."
    pub fn sentence(&self) -> String {
        if self.source == "saved" {
            return "A saved Extra-P experiment, read with every repetition.".into();
        }
        let row = PROFILERS.iter().find(|p| p.format.name() == self.source).unwrap_or(&PROFILERS[0]);
        let (kind, (one, many)) = (row.kind, row.location);
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
        if let Some((a, b)) = self.identical.first() {
            let more = match self.identical.len() {
                1 => String::new(),
                n => format!(" (and {} more such pairs)", n - 1),
            };
            s += &format!(
                " {} and {} hold the same figures in every call path{more}: the same profile twice? Each counts as a repetition.",
                clip_path(a),
                clip_path(b)
            );
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
        if by_name(one).is_none_or(|f| f == Format::Saved) && !one.contains('/') {
            let bytes = bytes_of(0).map_err(|m| err(format!("{}: {m}", clip_path(one))))?;
            if formats::detect(one, &bytes[..bytes.len().min(formats::HEAD)]) == Ok(Format::Saved) {
                let e = super::saved::read(&bytes, &super::saved::Limits::DEFAULT)
                    .map_err(|e| err(format!("{}: {}", clip_path(one), e.message)))?;
                return Ok((e, RunsSummary { source: "saved".into(), runs: 1, ..RunsSummary::default() }.worded()));
            }
            let mut set = RunSet::new(Layout::of_files(vec![0], 0), options.clone());
            set.add(0, one, &bytes, limits)?;
            let loaded = set.finish()?;
            let summary = RunsSummary::of(&loaded);
            return Ok((loaded.experiment, summary));
        }
    }
    let l = layout(paths, limits)?;
    let runs: Vec<Vec<usize>> = l.files.clone();
    let mut set = RunSet::new(l, options.clone());
    for (k, files) in runs.iter().enumerate() {
        progress(k, runs.len());
        let mut read: Vec<(&str, Vec<u8>)> = Vec::with_capacity(files.len());
        for &i in files {
            let bytes = bytes_of(i).map_err(|m| err(format!("{}: {m}", clip_path(&paths[i]))))?;
            read.push((paths[i].as_str(), bytes));
        }
        let view: Vec<(&str, &[u8])> = read.iter().map(|(n, b)| (*n, b.as_slice())).collect();
        set.add_run(k, &view, limits)?;
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

    /// Hatchet's four TAU profiles of a cpi run (tests/data/tau-cpi-mpi), by rank.
    const TAU_CPI: [&[u8]; 4] = [
        include_bytes!("../../../tests/data/tau-cpi-mpi/profile.0.0.0"),
        include_bytes!("../../../tests/data/tau-cpi-mpi/profile.1.0.0"),
        include_bytes!("../../../tests/data/tau-cpi-mpi/profile.2.0.0"),
        include_bytes!("../../../tests/data/tau-cpi-mpi/profile.3.0.0"),
    ];
    const LULESH_JSON: &[u8] = include_bytes!("../../../tests/data/caliper-json/lulesh-annotation-profile.json");

    fn named(name: &str, bytes: &[u8]) -> (String, Vec<u8>) {
        (name.to_string(), bytes.to_vec())
    }

    fn read_files(f: &[(String, Vec<u8>)], o: &RunOptions) -> Result<(Experiment, RunsSummary), InputError> {
        let paths: Vec<String> = f.iter().map(|p| p.0.clone()).collect();
        read_set(&paths, o, &LIMITS, &mut |i| Ok(f[i].1.clone()), &mut |_, _| {})
    }

    /// Hatchet's four TAU profiles of one cpi run, as two runs: ranks 0 and 1 in a folder `p2`,
    /// all four in `p4` (so a region's figure at 2 is the mean of the first two files').
    fn tau_study(p2: &str, p4: &str) -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<(String, Vec<u8>)> =
            (0..2).map(|r| named(&format!("{p2}/profile.{r}.0.0"), TAU_CPI[r])).collect();
        v.extend((0..4).map(|r| named(&format!("{p4}/profile.{r}.0.0"), TAU_CPI[r])));
        v.push(named(&format!("{p4}/README.md"), b"Hatchet's test data"));
        v
    }

    /// The values of a call path at each point, in the order of the points.
    fn values_of(e: &Experiment, path: &str) -> Vec<(Vec<f64>, Vec<f64>)> {
        let s = e.series.iter().find(|s| s.callpath == path && imbalance_of(&s.metric).is_none()).unwrap();
        s.points.iter().map(|m| (m.coords.clone(), m.values.clone())).collect()
    }

    #[test]
    fn a_tau_study_is_one_run_a_folder_with_p_from_the_folder_names_or_else_the_ranks() {
        let f = tau_study("cpi.p2", "cpi.p4");
        let (e, s) = read_files(&f, &RunOptions::default()).unwrap();
        assert_eq!(
            (e.format, e.parameters.clone(), e.times),
            (Format::Tau, vec!["p".to_string()], TimeKind::Exclusive)
        );
        assert_eq!((s.source.as_str(), s.runs, s.locations, s.passed_over), ("tau", 2, (2, 4), 1));
        assert_eq!(s.parameters_from, "p from the folder name");
        // Each point's figure is the mean over its files of what the TAU reader gives for them.
        let want = Want { metric: None, inclusive: false };
        let lim = LIMITS.profile();
        let one = |n: usize| {
            let run: Vec<(String, &[u8])> =
                (0..n).map(|r| (format!("profile.{r}.0.0"), f[if n == 2 { r } else { 2 + r }].1.as_slice())).collect();
            let view: Vec<(&str, &[u8])> = run.iter().map(|(a, b)| (a.as_str(), *b)).collect();
            crate::model::tau::read(&view, &want, &lim).unwrap()
        };
        let path = ".TAU application->MPI_Init()";
        let expect: Vec<(Vec<f64>, Vec<f64>)> = [2usize, 4]
            .iter()
            .map(|&n| {
                let p = one(n);
                let v = p.paths.iter().find(|v| v.path == path).unwrap();
                (vec![n as f64], vec![v.total / n as f64])
            })
            .collect();
        assert_eq!(values_of(&e, path), expect);
        assert!(expect[1].1[0] > 0.01, "MPI_Init takes about 20 ms a rank: {expect:?}");
        // Folders whose names give no parameter: p is the ranks counted by the reader.
        let (e, s) = read_files(&tau_study("first", "second"), &RunOptions::default()).unwrap();
        assert_eq!(s.parameters_from, "p from tau.ranks");
        assert_eq!(values_of(&e, path).iter().map(|v| v.0[0]).collect::<Vec<_>>(), [2.0, 4.0]);
        // A global named as the parameter; one the runs lack is named in the message.
        let o = RunOptions { parameters: vec!["tau.ranks".into()], ..RunOptions::default() };
        assert_eq!(read_files(&f, &o).unwrap().1.parameters_from, "tau.ranks from tau.ranks");
        let o = RunOptions { parameters: vec!["jobsize".into()], ..RunOptions::default() };
        let m = read_files(&f, &o).unwrap_err().message;
        assert!(
            m.contains("no numeric global \"jobsize\"") && m.contains("tau.ranks") && m.contains("CPU Cores"),
            "{m}"
        );
        // Inclusive values, and the sum over locations.
        let o = RunOptions { inclusive: true, aggregate: Aggregate::Sum, ..RunOptions::default() };
        let (e, _) = read_files(&f, &o).unwrap();
        assert_eq!(e.times, TimeKind::Inclusive);
        let root = values_of(&e, ".TAU application");
        assert!((root[1].1[0] - 0.214047).abs() < 1e-6, "Hatchet's inclusive sum over the four ranks: {root:?}");
    }

    #[test]
    fn runs_of_folders_group_their_files_and_several_metrics_are_one_run() {
        let l = layout(
            &paths(&[
                "a.p2/MULTI__TIME/profile.0.0.0",
                "a.p2/MULTI__PAPI_TOT_CYC/profile.0.0.0",
                "a.p2/MULTI__TIME/profile.1.0.0",
                "a.p4/profile.0.0.0",
                "a.p4/events.0.edf",
                "notes.txt",
            ]),
            &LIMITS,
        )
        .unwrap();
        assert_eq!(l.files, vec![vec![0, 1, 2], vec![3]]);
        assert_eq!(l.passed_over, 2);
        let l = layout(&paths(&["db/experiment.xml", "db/1.x-000000-000-a-1-0.metric-db", "db/src/cpi.c"]), &LIMITS)
            .unwrap();
        assert_eq!(l.files, vec![vec![0, 1]]);
        // Two kinds of profile in one set are refused, naming one of the second kind.
        let e = layout(&paths(&["a.cali", "t.p2/profile.0.0.0"]), &LIMITS).unwrap_err();
        assert_eq!(
            e.message,
            "\"t.p2/profile.0.0.0\" is a TAU profile among Caliper profiles (.cali): give one kind of profile"
        );
        let e = layout(&paths(&["t.p2/profile.0.0.0", "db/experiment.xml"]), &LIMITS).unwrap_err();
        assert!(e.message.contains("is a part of an HPCToolkit database among TAU profiles"), "{e}");
    }

    #[test]
    fn an_hpctoolkit_database_and_caliper_json_are_runs_with_p_from_their_ranks() {
        let db = crate::model::hpctoolkit::tests::database(crate::model::hpctoolkit::tests::CPI);
        let (e, s) = read_files(&db, &RunOptions::default()).unwrap();
        assert_eq!((e.format, s.runs, s.locations, s.metric.as_str()), (Format::Hpctoolkit, 1, (4, 4), "CPUTIME (s)"));
        assert_eq!(s.parameters_from, "p from hpctoolkit.ranks");
        let o = RunOptions { inclusive: true, ..RunOptions::default() };
        let (e, _) = read_files(&db, &o).unwrap();
        // The root's inclusive CPU time over the four ranks is 3.998242 s (Hatchet's), 0.9996 s a rank.
        let root = values_of(&e, "<program root>");
        assert_eq!(root[0].0, [4.0]);
        assert!((root[0].1[0] - 3.998242 / 4.0).abs() < 1e-6, "{root:?}");
        // A Caliper JSON file given alone: its ranks are its p.
        let f = vec![named("lulesh.json", LULESH_JSON)];
        let (e, s) = read_files(&f, &RunOptions::default()).unwrap();
        assert_eq!(
            (e.format, s.runs, s.locations, s.parameters_from.as_str()),
            (Format::CaliJson, 1, (8, 8), "p from caliper.ranks")
        );
        assert!(s.sentence().starts_with("1 run read (Caliper JSON profiles, 8 processes each)"), "{}", s.sentence());
        // An experiment's text among Caliper JSON runs is no run.
        let mut two = vec![named("a.json", LULESH_JSON)];
        two.push(("b.json".into(), br#"{"parameters": ["p"], "measurements": {}}"#.to_vec()));
        let m = read_files(&two, &RunOptions::default()).unwrap_err().message;
        assert!(m.starts_with("b.json: not a profile"), "{m}");
    }

    #[test]
    fn a_file_of_no_format_read_is_named_as_what_it_looks_like() {
        for (name, bytes, says) in [
            ("report.pdf", b"%PDF-1.7\n".to_vec(), "report.pdf: a PDF document, not a profile"),
            (
                "meta.db",
                b"HPCTOOLKITmeta\x00\x01".to_vec(),
                "meta.db: a file of the newer HPCToolkit database format (meta.db, profile.db, cct.db: HPCToolkit 2023 and later)",
            ),
            ("x.profile.cubex", b"not a tar".to_vec(), "x.profile.cubex: "),
        ] {
            let m = read_files(&[(name.to_string(), bytes)], &RunOptions::default()).unwrap_err().message;
            assert!(m.starts_with(says), "{m}");
        }
    }

    #[test]
    fn runs_of_the_same_figures_are_said_to_be_the_same_profile_twice() {
        // The four TAU ranks of cpi as two runs of identical files, and a third that differs.
        let mut f: Vec<(String, Vec<u8>)> = Vec::new();
        for run in ["a", "b"] {
            f.extend((0..2).map(|r| named(&format!("{run}/profile.{r}.0.0"), TAU_CPI[r])));
        }
        f.extend((0..2).map(|r| named(&format!("c/profile.{r}.0.0"), TAU_CPI[r + 2])));
        let (_, s) = read_files(&f, &RunOptions::default()).unwrap();
        assert_eq!(s.identical, vec![("a".to_string(), "b".to_string())]);
        assert!(
            s.said.contains(" a and b hold the same figures in every call path: the same profile twice?"),
            "{}",
            s.said
        );
        let (_, s) = read_files(&f[..2], &RunOptions::default()).unwrap();
        assert!(s.identical.is_empty() && !s.said.contains("same figures"), "{}", s.said);
    }

    #[test]
    fn a_region_without_a_name_is_named_so_and_its_text_reads_back() {
        // Found by fuzzing: a Caliper node record without data= gave the call path "", and
        // to_text wrote "REGION " with no name, which does not read back.
        let cali = "__rec=node,id=12,attr=10,data=268,parent=3\n__rec=node,id=13,attr=8,data=region,parent=12\n\
                    __rec=node,id=14,attr=10,data=1,parent=5\n__rec=node,id=15,attr=8,data=sum#time.duration,parent=14\n\
                    __rec=node,id=16,attr=13\n__rec=ctx,ref=16,attr=15,data=1.5\n";
        let tau = |name: &str| {
            format!("1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n\"{name}\" 1 0 100 100 0 GROUP=\"TAU_DEFAULT\" \n0 aggregates\n").into_bytes()
        };
        let sets = [
            vec![named("p2.cali", cali.as_bytes()), named("p4.cali", cali.as_bytes())],
            vec![named("a.p1/profile.0.0.0", &tau("")), named("a.p2/profile.0.0.0", &tau(""))],
            vec![named("a.p1/profile.0.0.0", &tau(" \t")), named("a.p2/profile.0.0.0", &tau(" \t"))],
        ];
        for f in &sets {
            let (e, s) = read_files(f, &RunOptions::default()).unwrap();
            assert_eq!(e.series[0].callpath, "(no name)", "{}", f[0].0);
            let back = crate::model::bottlenecks::parse(&to_text(&e, &s)).unwrap();
            assert_eq!(back.series[0].callpath, "(no name)");
        }
        assert_eq!(shown_path("a\nb"), "a b");
    }

    #[test]
    fn runs_that_share_no_call_path_are_refused_saying_so() {
        let tau = |name: &str| {
            format!("1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n\"{name}\" 1 0 100 100 0 GROUP=\"TAU_DEFAULT\" \n0 aggregates\n").into_bytes()
        };
        let f = vec![named("a.p1/profile.0.0.0", &tau("main")), named("a.p2/profile.0.0.0", &tau("other"))];
        let m = read_files(&f, &RunOptions::default()).unwrap_err().message;
        assert_eq!(m, "no call path is in every run (\"main\" among them): the runs share no region to model; are they profiles of one program?");
    }
}

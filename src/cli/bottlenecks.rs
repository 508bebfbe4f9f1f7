//! `scalewise bottlenecks FILE`, also `scalewise speedup --format extrap FILE`: an Extra-P
//! experiment (text, JSON, JSON Lines or Talpas, told apart by `model::bottlenecks::sniff`) ranked by each
//! region's predicted share of the run time (`model::bottlenecks::rank`). The answer's keys are
//! documented in `speedup --help` and `bottlenecks --help`.

use super::unplaced;
use crate::model::InputError;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::model::bottlenecks::{self, RankOptions, Ranking, SideChoice};

use super::answer::WithTable;
use super::request::output_schema;
use super::{RawInput, Reply, Schemas, Subcommand};

/// The calculator of the "Bottlenecks at scale" page: every input is an Extra-P experiment.
pub const COMMAND: Subcommand = Subcommand {
    name: "bottlenecks",
    summary: "rank the regions of an Extra-P experiment by predicted share of the run time at n",
    help: HELP,
    // Never called: every text is read as an experiment (`BOTTLENECKS`).
    run: |_, _| Err(unplaced("an Extra-P experiment is read as text")),
    reads_input: true,
    each: None,
    schema: Schemas { input: None, output: output_schema::<BottlenecksAnswer<'static>> },
};

/// `bottlenecks` reads every text as an Extra-P experiment, JSON or not.
pub const BOTTLENECKS: RawInput = RawInput {
    command: "bottlenecks",
    formats: &["extrap"],
    run,
    options: &["--predict", "--metric", "--parameter", "--hold", "--aggregate", "--parameters"],
    sniff: Some(|_| Some("extrap")),
    check: Some(|_, opts| options(opts, Vec::new).and_then(|_| run_options(opts)).map(|_| ())),
};

const HELP: &str = r#"scalewise bottlenecks — which region of a program dominates at the process count you plan
to book, and which stops scaling first, from an Extra-P experiment (the "Bottlenecks at scale"
page). The same as 'scalewise speedup --format extrap'.

USAGE:
    scalewise bottlenecks [FILE|DIR|-] [--compact] [--predict 256,1024|256:8000,...]
                          [--metric NAME] [--parameter NAME] [--hold VALUE|largest|per-value]
                          [--aggregate mean|sum|max] [--inclusive]
                          [--parameters GLOBAL,...]

SCORE-P RUNS: DIR is a folder of Score-P runs as Extra-P reads them: one folder per run
directly in DIR, named after the program and its parameters (app.p64.r2 is p = 64,
repetition 2; mm.x10y1z1.r1 is x = 10, y = 1, z = 1; a comma is a decimal point), each
holding a Cube 4 profile (profile.cubex). Several runs of one point are repetitions; a
parameter with one value over all runs is dropped; runs that name other parameters are
refused, naming the folder. FILE may also be one .cubex profile (one point) or a saved Extra-P
experiment (.extra-p), told apart from text by their first bytes. A run is read and reduced
to one figure per call path before the next: its exclusive value (--inclusive: with its
callees) of the metric (--metric, default time) averaged over the run's locations, i.e.
seconds per process (--aggregate sum: the sum over locations, Extra-P's strong-scaling
numbers; max: the slowest location), and its imbalance, the largest over the mean. A call
path missing at some points is merged into its nearest ancestor present at every point
(with --inclusive, dropped). Limits: 4,096 runs, 1 GB a file, 2 GB inflated, 100,000 call
paths and 1,048,576 locations a profile; past one, exit 1 naming it.

CALIPER PROFILES: DIR may instead hold Caliper .cali files (in it or one folder down), one
run each, such as a Spot or runtime-report region profile (github.com/LLNL/Caliper). A run's
parameters come from its globals (Adiak's metadata), not from its name: the process count p
from mpi.world.size, else jobsize, else the ranks seen; --parameters jobsize,problem_size
names the globals that are the parameters instead, the first the process count. Runs equal
in every parameter are repetitions; a parameter with one value over all runs is dropped. A
region is a call path of the nested attributes (region, function, loop, mpi.function, ...);
its figure is the total of the metric over processes (its sum# value, the records of one path
added) divided by the process count (--aggregate sum: the total; max: its max# value), and
its imbalance the max# over that mean. The metrics are named without their statistic and
"inclusive#" (sum#time.duration); a metric the files hold as inclusive values only is read
inclusive (and said in runs.inclusive). The answer's runs say which global each parameter
came from and which other numeric globals vary (elapsed_time and the like are results, not
parameters: name them only if they are).

PROFILES READ (the name is the answer's format and runs.source):
{profiler_lines}

TAU, HPCTOOLKIT AND CALIPER JSON: DIR may instead hold TAU profile folders (one folder a run,
its profile.N.C.T files, one a thread, or MULTI__<METRIC> folders of them), HPCToolkit
databases (one folder a run: experiment.xml with its .metric-db files, as written by
`hpcprof-mpi --metric-db yes`; the newer .db format is refused, named) or Caliper json-split
files (one file a run); FILE may be one such folder or file. A run's parameters are those its folder's name
gives when every run's does (as Score-P folder names), else p from its metadata
(mpi.world.size or jobsize where given, else the ranks read: caliper.ranks, tau.ranks,
hpctoolkit.ranks); --parameters names any numeric global or folder-name parameter instead.
Times are read in seconds (TAU's microseconds and HPCToolkit's usec converted), counters as
counts. What a file is, is decided from its name and first bytes; a file of no format read is
named as what it looks like.

INPUT: an Extra-P experiment (github.com/extra-p/extrap, docs/file-formats.md) of one to four
parameters in its text format (PARAMETER, POINTS, REGION, METRIC, DATA lines), its JSON
format ({"parameters", "measurements": {callpath: {metric: [{point, values}]}}}, or the older
layout with ids: "callpaths", "coordinates", "measurements"), JSON Lines (one {"params",
"value", "callpath", "metric"} per line) or Talpas (the same fields separated by ';'), told
apart by their first line. Every region (call path) of the metric gets a
model of its time against the process count p, each point the median of its repetitions,
whichever way it moves: a constant; c0 + c1·p^i·log2(p)^j over Extra-P's exponents (i from
1/4 to 3, j 0 to 2) and falling ones (i from -2 to -1/4); c0 + c1/p + c2·p^i·log2(p)^j
(strong scaling with a growing overhead, five points or more); a power law c·p^e; and, for
a falling time the others leave unexplained, Downey's and Smirni's speed-up models. Each is
fitted on relative errors and scored by leave-one-out; of those within the noise (or 10 %)
of the best, the one with fewest coefficients wins. Ranges at 90 % widen with the doublings
beyond the largest count, by the error the model makes at the largest count when fitted
without it. With two to four parameters (process count, problem size, …) a region's model
is a sum of products of each parameter's terms (found along lines of points where only that
parameter varies), chosen by the mean of its leave-one-out error and its error at each
parameter's largest value when fitted without it; where no point is off two
parameters' axes (a cross design) their terms are added, not multiplied, one term each, as
the design cannot tell a sum from a product (said in a warning); a range adds each parameter's
width beyond its data in quadrature. The regions are ranked by predicted share of the run
time at each point asked. Regions are fitted on every core, up to 100,000 of them (the
page: 2,000).

CALL TREE: regions nest by call path (a->b->c inside the longest prefix present, a->b or
else a) or, in the text format, by REGION names indented under the one above (said in a
warning). When the file does not say whether its values are exclusive (each region's own
time) or inclusive (with the regions nested in it), the data decides: a child above its
parent beyond the noise (max(5 %, twice the repetitions' relative spread)) somewhere means
exclusive; every child within its parent means inclusive only when some parent's children
also make up 90 % of it at every point (a main holding them), else exclusive, as Extra-P
reads Score-P data. A text file can say which with a line #scalewise times=exclusive or
#scalewise times=inclusive. Shares come from own time, never a
parent added to its children: with inclusive values a region's own time at each point is
its time less its children's (never below 0), and that is what is fitted. Where children add
up to more than their parent beyond the noise, own time cannot be read off: every region's
inclusive time is fitted as given and ranked by its share of the top level's, and the
dominant region is found by going down from the largest top-level region to its largest
child while that child holds all of it (within the noise). A top-level region (of three or
more) that is at least the sum of the others and at most twice it at every point is read as
holding them and left out of the shares.
    --predict N,..     process counts to rank at, the other parameters held (default 4× and
                       16× the largest measured); or whole points, values in the file's
                       parameter order joined by ':' (P:N, P:N:M); both may be mixed; at
                       most 64
    --metric NAME      the metric (default "time" if there is one, else the first)
    --parameter NAME   the parameter that is the process count (default: one named p, np,
                       procs, ranks, … else the first)
    --aggregate A      Score-P runs: mean (default), sum or max over a run's locations
    --inclusive        Score-P runs: inclusive values instead of exclusive
    --parameters G,..  Caliper, TAU, HPCToolkit runs: the numeric globals (or folder-name
                       parameters) that are the parameters, the first the process count
                       (default: mpi.world.size, else jobsize, else the ranks read)
    --hold V           where counts given alone hold the second parameter: at V (measured
                       or not), at its largest value (largest, the default), or at each
                       measured value in turn (per-value); further parameters at their
                       largest

OUTPUT:
    regions           [{callpath, metric, side (the second parameter's value or null), best
                      (the model's family: constant, normal form, power law, downey, smirni),
                      formula (the model written out, e.g. "1.3 + 164·p^−1 + 0.093·p", with
                      the digits, at least four, that make it give the times shown), grows
                      (the time grows beyond the largest count), loo_rel_error (mean relative
                      error at each point left out), note (what a model of one or two counts
                      rests on), error (why it could not be modelled: a value below 0, a
                      point's only value or one repetition, with its line and column or
                      JSON path; or null), points [{n, point, time_s (median),
                      noise (relative standard deviation of the repetitions), repetitions}],
                      predictions [{n, point, time_s, time_low_s, time_high_s (90 %), speedup,
                      low, high, efficiency, horizon, uninformative (the range says
                      nothing: time_low_s not above 0, or time_high_s over time_low_s more
                      than 1000; the numbers are kept, and a warning counts them)}],
                      stops_scaling_n (first n where doubling n cuts the predicted time by
                      less than 5 %), shares [{n, point, share, low, high, own,
                      inclusive}]}], parent (the call path
                      of the region it is nested in, or null), depth (0 at the top); points
                      hold own time when inclusive values were turned into it; side is null
                      (one model per region)
    dominant          [{n, point, callpath, share, side}]: the largest region at each point
    ranking           [{n, point, side, regions [{callpath, time_s, share, low, high, own,
                      inclusive}]}]: one row per region ranked, largest share first; share
                      = own (t_i / sum of t_j over own times), or inclusive when ranked by
                      inclusive share (see non_additive); own: own time over the total;
                      inclusive: with the regions nested in it; low/high from the time ranges
    nesting           "flat", "callpaths" or "indentation": how the regions nest
    times             {kind: "exclusive" or "inclusive", decided: "file", "data" or
                      "default" (nothing nests: read as own times)}
    left_out          the top-level region read as holding the others, left out of the
                      shares, or null
    non_additive      [{parent, children, point, parent_s, children_s}]: parents whose
                      children add up to more than them beyond the noise (the point where
                      they exceed it most); not empty: regions ranked by inclusive share
    first_to_stop     [{callpath, n, side, point}]: the region that stops scaling first (the
                      other parameters held as for the first point)
    predict, points   each point's process count, and each point keyed by the file's
                      parameter names ({"p": 256, "size": 4000})
    runs              Score-P runs only: {count, metric, metrics (the profiles'), aggregate,
                      inclusive, locations [fewest, most], merged [{callpath, into}],
                      passed_over (files and folders that hold no run), identical [[run,
                      run]] (runs of the same figures in every call path); Caliper, TAU and
                      HPCToolkit runs also parameters_from [{parameter, global}] and
                      globals_offered (other numeric globals that vary)}; and per region
                      imbalance [{n, point, imbalance}] (median over repetitions of max/mean
                      over locations) and imbalance_grows (up 10 % or more from the smallest
                      count to the largest, over 0.02 per doubling)
    format (text, json, jsonl, talpas; a profiler's name of PROFILES READ for its runs;
    extra-p for a saved experiment), parameters, process_parameter, side_parameter (the second parameter),
    side_values (its values held), metric, metrics, warnings; warnings_at: the same as
    [{path, message}], path "hold" (values held, --hold), "input" (the experiment) or
    "predict" (the points asked, --predict: a count beyond 1,000,000,000 is reported as
    that, though predicted where asked; a count over 64× the largest measured is said so,
    with how far)

ERRORS:
    Exit status 1 and one line naming the line (and column) or the JSON path, e.g.
    "Extra-P experiment: line 4, column 8: expected a measured value (a number), found "x"".

EXAMPLES:
    scalewise bottlenecks tests/data/extrap/app.txt --predict 256,1024
    scalewise bottlenecks tests/data/extrap/app.jsonl --predict 256:8000,1024:16000
    scalewise bottlenecks tests/data/extrap-upstream/cubeset/single_parameter --aggregate sum
    scalewise bottlenecks tests/data/cali/mpi_scaling_cali --parameters jobsize,problem_size
"#;

/// The help with its list of the profilers read, from their one definition
/// ([`bottlenecks::formats::PROFILERS`]).
pub fn help_words(text: &str) -> String {
    text.replace("{profiler_lines}", &bottlenecks::formats::profiler_lines("    "))
}

/// `speedup --format extrap` (also recognised without it) and `speedup --format table`
/// ([`super::speedup::run_table`]).
pub const RAW: RawInput = RawInput {
    command: "speedup",
    formats: &["extrap", "table"],
    run: |format, text, opts| match format {
        "table" => super::speedup::run_table(text, opts),
        // An experiment's answer holds no measured times to tabulate: with --allocation, an
        // empty table that says so.
        _ => {
            let (e, r) = ranking(text, opts)?;
            let allocation = super::allocation::table(opts, |o| super::allocation::of_speedup(&Default::default(), o))?;
            Ok(Reply::new(WithTable { answer: Ranked { e, r, runs: None }, allocation }))
        }
    },
    options: &["--predict", "--metric", "--parameter", "--hold", "--second-column", "--scaling"],
    sniff: Some(sniff),
    check: Some(check),
};

/// The options' values, checked before the input is read; an option of the other format is a
/// usage error too.
fn check(format: Option<&str>, opts: &[(String, String)]) -> Result<(), InputError> {
    if format == Some("table") {
        return super::speedup::table_options(opts).map(|_| ());
    }
    if let Some((k, _)) = opts.iter().find(|(k, _)| k == "--second-column" || k == "--scaling") {
        return Err(unplaced(format!("{k} applies to --format table only")));
    }
    options(opts, Vec::new).map(|_| ())
}

/// An Extra-P experiment given without `--format`: JSON Lines, Talpas, JSON with
/// "measurements", or text opening with a PARAMETER line (after # comments).
fn sniff(text: &str) -> Option<&'static str> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'))?;
    if first.starts_with("PARAMETER") {
        return Some("extrap");
    }
    match bottlenecks::sniff(text) {
        bottlenecks::Format::JsonLines | bottlenecks::Format::Talpas => Some("extrap"),
        bottlenecks::Format::Json => {
            let v: Value = serde_json::from_str(text).ok()?;
            (v.get("measurements").is_some() && v.get("parameters").is_some()).then_some("extrap")
        }
        _ => None,
    }
}

/// The command's options to the ranking's.
pub fn options(
    opts: &[(String, String)],
    default_targets: impl FnOnce() -> Vec<u32>,
) -> Result<RankOptions, InputError> {
    let mut o = RankOptions::default();
    let mut targets = None;
    for (k, v) in opts {
        match k.as_str() {
            "--predict" => {
                let (ns, points) = bottlenecks::parse_targets("--predict", v)?;
                if ns.is_empty() && points.is_empty() {
                    return Err(InputError::new("--predict", "at least one process count or point is needed"));
                }
                o.points = points;
                targets = Some(ns);
            }
            "--metric" => o.metric = Some(v.clone()),
            "--parameter" => o.process_parameter = Some(v.clone()),
            "--hold" => {
                o.side = match v.as_str() {
                    "largest" => SideChoice::Largest,
                    "per-value" => SideChoice::PerValue,
                    x => SideChoice::Value(x.parse::<f64>().ok().filter(|f| f.is_finite()).ok_or_else(|| {
                        InputError::new(
                            "--hold",
                            format!("expected a value of the second parameter, largest or per-value, found \"{x}\""),
                        )
                    })?),
                }
            }
            _ => {}
        }
    }
    o.targets = match targets {
        Some(t) => t,
        None => default_targets(),
    };
    Ok(o)
}

/// 4× and 16× the largest process count measured.
pub fn default_targets(e: &bottlenecks::Experiment, o: &RankOptions) -> Vec<u32> {
    let pi = bottlenecks::process_index(&e.parameters, o.process_parameter.as_deref()).unwrap_or(0);
    let top = e.values_of(pi).last().copied().unwrap_or(1.0).clamp(1.0, 1e7) as u32;
    vec![top * 4, top * 16]
}

// The answer of `bottlenecks` (and `speedup --format extrap`), written as it is serialised: a
// region's record is made when it is written and dropped after, so 100,000 regions never stand
// as one JSON tree in memory. Fields are in the order of their names, as serde_json writes an
// object's keys, here and in every record below. Doc comments are the schema's descriptions.

/// The regions of an Extra-P experiment ranked by predicted share of the run time.
#[derive(Serialize, JsonSchema)]
pub struct BottlenecksAnswer<'a> {
    /// The top region at each point asked.
    dominant: Vec<DominantOut<'a>>,
    /// The region that stops scaling first, if any does.
    first_to_stop: Vec<FirstToStopOut<'a>>,
    /// The input format read.
    format: &'static str,
    /// The top-level region held to hold all the others (at least their sum, at most twice
    /// it, at every point), left out of the shares; or null.
    left_out: Option<&'a str>,
    metric: &'a str,
    metrics: &'a [String],
    /// How the regions nest: "flat", "callpaths" (a->b->c under the longest prefix present)
    /// or "indentation" (text format: REGION names indented under the one above).
    nesting: bottlenecks::Nesting,
    /// Parents whose children add up to more than them beyond the noise (inclusive times):
    /// the regions are then ranked by inclusive share of the top level.
    non_additive: Vec<NonAdditiveOut<'a>>,
    parameters: &'a [String],
    /// The points ranked at, keyed by parameter.
    points: Vec<Point<'a>>,
    /// Their process counts.
    predict: Vec<u32>,
    process_parameter: &'a str,
    /// One table per point: the regions, largest share first.
    ranking: Vec<TableOut<'a>>,
    /// Every region's model, points and predictions.
    regions: Lazy<'a, RegionOut<'a>>,
    /// Present when Score-P runs were read: what was read and how.
    #[serde(skip_serializing_if = "Option::is_none")]
    runs: Option<RunsOut>,
    side_parameter: Option<&'a str>,
    side_values: &'a [f64],
    /// Whether the values were read as exclusive (own) or inclusive times, and whether the
    /// file said so, the data showed it, or nothing nests (default: exclusive).
    times: TimesOut,
    /// The sentences of `warnings_at`, kept as they always were.
    warnings: Vec<&'a str>,
    /// Each warning with what it concerns: "hold" (the values other parameters are held at),
    /// "input" (the experiment) or "predict" (the points asked).
    warnings_at: &'a [crate::model::Warning],
}

/// A point keyed by the experiment's parameter names ({"p": 256, "size": 4000}), written with
/// its keys in the order of their names.
#[derive(Clone, Copy)]
pub struct Point<'a>(&'a [String], &'a [f64]);

impl Serialize for Point<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut pairs: Vec<(&String, &f64)> = self.0.iter().zip(self.1).collect();
        pairs.sort_by(|a, b| a.0.cmp(b.0));
        let mut m = s.serialize_map(Some(pairs.len()))?;
        for (k, v) in pairs {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl JsonSchema for Point<'_> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <BTreeMap<String, f64>>::schema_name()
    }

    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <BTreeMap<String, f64>>::json_schema(g)
    }

    fn inline_schema() -> bool {
        true
    }
}

/// A list whose items are made one at a time as they are written (a list of `T` in the
/// schema).
pub struct Lazy<'a, T>(usize, Box<dyn Fn(usize) -> T + 'a>);

impl<T: Serialize> Serialize for Lazy<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0))?;
        for i in 0..self.0 {
            seq.serialize_element(&(self.1)(i))?;
        }
        seq.end()
    }
}

impl<T: JsonSchema> JsonSchema for Lazy<'_, T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <Vec<T>>::schema_name()
    }

    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<T>>::json_schema(g)
    }

    fn inline_schema() -> bool {
        true
    }
}

#[derive(Serialize, JsonSchema)]
struct DominantOut<'a> {
    callpath: &'a str,
    n: u32,
    point: Point<'a>,
    share: f64,
    side: Option<f64>,
}

#[derive(Serialize, JsonSchema)]
struct FirstToStopOut<'a> {
    callpath: &'a str,
    n: Option<u32>,
    point: Point<'a>,
    side: Option<f64>,
}

#[derive(Serialize, JsonSchema)]
struct NonAdditiveOut<'a> {
    children: Vec<&'a str>,
    children_s: f64,
    parent: &'a str,
    /// The parent's median there, and its children's summed.
    parent_s: f64,
    /// The point where the children exceed the parent most.
    point: Point<'a>,
}

#[derive(Serialize, JsonSchema)]
struct TableOut<'a> {
    n: u32,
    point: Point<'a>,
    regions: Lazy<'a, TableRowOut<'a>>,
    side: Option<f64>,
}

#[derive(Serialize, JsonSchema)]
struct TableRowOut<'a> {
    callpath: &'a str,
    high: f64,
    /// Time with every region nested in it, over the total.
    inclusive: f64,
    low: f64,
    /// Own (exclusive) time over the total.
    own: f64,
    /// The ranking's share: own, or inclusive when regions are ranked by inclusive share.
    share: f64,
    time_s: f64,
}

/// What the values were read as, and how that was decided.
// `bottlenecks::Times` with its keys in the order of their names.
#[derive(Serialize, JsonSchema)]
struct TimesOut {
    decided: bottlenecks::Decided,
    /// Exclusive or inclusive (never unknown once decided).
    kind: bottlenecks::TimeKind,
}

#[derive(Serialize, JsonSchema)]
struct RegionOut<'a> {
    /// The model's family.
    best: Option<&'a str>,
    callpath: &'a str,
    /// 0 at the top.
    depth: usize,
    /// Why the region could not be modelled.
    error: Option<&'a str>,
    formula: Option<&'a str>,
    grows: bool,
    /// Score-P runs only: the region's imbalance at each measured point.
    #[serde(skip_serializing_if = "Option::is_none")]
    imbalance: Option<Vec<ImbalanceOut<'a>>>,
    /// Score-P runs only: the imbalance grows with the process count (up by 10 % or more from
    /// the smallest count to the largest, rising by over 0.02 per doubling).
    #[serde(skip_serializing_if = "Option::is_none")]
    imbalance_grows: Option<bool>,
    loo_rel_error: Option<f64>,
    metric: &'a str,
    note: Option<&'a str>,
    /// The call path of the region this one is nested in, or null at the top.
    parent: Option<&'a str>,
    points: Vec<RegionPointOut<'a>>,
    predictions: Vec<RegionPredictionOut<'a>>,
    shares: Vec<RegionShareOut<'a>>,
    side: Option<f64>,
    stops_scaling_n: Option<u32>,
}

/// A region's imbalance at a measured point (Score-P runs).
#[derive(Serialize, JsonSchema)]
struct ImbalanceOut<'a> {
    /// The median over repetitions of the largest value over the mean across a run's locations.
    imbalance: f64,
    n: super::Whole,
    point: Point<'a>,
}

#[derive(Serialize, JsonSchema)]
struct RegionPointOut<'a> {
    n: super::Whole,
    noise: f64,
    point: Point<'a>,
    repetitions: usize,
    /// Median of the repetitions.
    time_s: f64,
}

/// A region's predicted time (90 % range) and speed-up at a point asked.
#[derive(Serialize, JsonSchema)]
struct RegionPredictionOut<'a> {
    efficiency: f64,
    high: f64,
    horizon: f64,
    low: f64,
    n: u32,
    point: Point<'a>,
    speedup: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_high_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_low_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_s: Option<f64>,
    /// The range carries no information: time_low_s not above 0, or time_high_s over
    /// time_low_s more than 1000 (a time of 0 to 0 is not). The numbers are kept.
    uninformative: bool,
}

#[derive(Serialize, JsonSchema)]
struct RegionShareOut<'a> {
    high: f64,
    /// Time with every region nested in it, over the total.
    inclusive: f64,
    low: f64,
    n: u32,
    /// Own (exclusive) time over the total.
    own: f64,
    point: Point<'a>,
    share: f64,
}

impl<'a> BottlenecksAnswer<'a> {
    /// The answer for the ranking `r` of the experiment `e`, with what reading Score-P runs
    /// found (None for an experiment read as text or saved).
    pub fn new(e: &'a bottlenecks::Experiment, r: &'a Ranking, runs: Option<&bottlenecks::runs::RunsSummary>) -> Self {
        let point = |x: &'a [f64]| Point(&r.parameters, x);
        let name = |i: usize| r.regions[i].callpath.as_str();
        // Per table, each region's row in it (an index, so a region's shares are found at once).
        let rows: Vec<Vec<Option<usize>>> = r
            .tables
            .iter()
            .map(|t| {
                let mut at = vec![None; r.regions.len()];
                for (k, s) in t.rows.iter().enumerate() {
                    if let Some(slot) = at.get_mut(s.region) {
                        *slot = Some(k);
                    }
                }
                at
            })
            .collect();
        BottlenecksAnswer {
            dominant: r
                .dominant
                .iter()
                .map(|d| DominantOut {
                    callpath: &d.callpath,
                    n: d.n,
                    point: point(&d.point),
                    share: d.share,
                    side: d.side,
                })
                .collect(),
            first_to_stop: r
                .first_to_stop
                .iter()
                .map(|&i| FirstToStopOut {
                    callpath: name(i),
                    n: r.regions[i].stops_scaling_n,
                    point: point(&r.base),
                    side: r.targets.first().and_then(|t| t.side),
                })
                .collect(),
            format: e.format.name(),
            left_out: r.tree.left_out.map(name),
            metric: &r.metric,
            metrics: &r.metrics,
            nesting: r.tree.nesting,
            non_additive: r
                .tree
                .non_additive
                .iter()
                .map(|n| NonAdditiveOut {
                    children: n.children.iter().map(|&c| name(c)).collect(),
                    children_s: n.children_s,
                    parent: name(n.parent),
                    parent_s: n.parent_s,
                    point: point(&n.point),
                })
                .collect(),
            parameters: &e.parameters,
            points: r.targets.iter().map(|t| point(&t.point)).collect(),
            predict: r.targets.iter().map(|t| t.n).collect(),
            process_parameter: &r.process_parameter,
            ranking: r
                .tables
                .iter()
                .map(|t| TableOut {
                    n: t.n,
                    point: point(&t.point),
                    regions: Lazy(
                        t.rows.len(),
                        Box::new(move |j| {
                            let s = &t.rows[j];
                            TableRowOut {
                                callpath: name(s.region),
                                high: s.high,
                                inclusive: s.inclusive,
                                low: s.low,
                                own: s.own,
                                share: s.share,
                                time_s: s.time_s,
                            }
                        }),
                    ),
                    side: t.side,
                })
                .collect(),
            regions: Lazy(r.regions.len(), Box::new(move |i| region(r, &rows, i))),
            runs: runs.map(RunsOut::of),
            side_parameter: r.side_parameter.as_deref(),
            side_values: &r.side_values,
            times: TimesOut { decided: r.tree.times.decided, kind: r.tree.times.kind },
            warnings: r.warnings.iter().map(|w| w.message.as_str()).collect(),
            warnings_at: &r.warnings,
        }
    }
}

/// The record of region `i`; `rows` holds, per table, each region's row in it.
fn region<'a>(r: &'a Ranking, rows: &[Vec<Option<usize>>], i: usize) -> RegionOut<'a> {
    let f = &r.regions[i];
    let point = |x: &'a [f64]| Point(&r.parameters, x);
    let shares = r
        .tables
        .iter()
        .zip(rows)
        .filter_map(|(t, at)| {
            let s = &t.rows[at[i]?];
            Some(RegionShareOut {
                high: s.high,
                inclusive: s.inclusive,
                low: s.low,
                n: t.n,
                own: s.own,
                point: point(&t.point),
                share: s.share,
            })
        })
        .collect();
    let predictions = f
        .predictions
        .iter()
        .zip(&r.targets)
        .enumerate()
        .map(|(ti, (p, t))| RegionPredictionOut {
            efficiency: p.efficiency,
            high: p.speedup_high,
            horizon: p.horizon,
            low: p.speedup_low,
            n: p.n,
            point: point(&t.point),
            speedup: p.speedup,
            time_high_s: p.time_s.map(|t| t.2),
            time_low_s: p.time_s.map(|t| t.1),
            time_s: p.time_s.map(|t| t.0),
            uninformative: f.uninformative_at(ti),
        })
        .collect();
    // Score-P runs: each point's imbalance (largest over mean across locations), and whether
    // it grows with the process count.
    let imbalance = (!f.imbalance.is_empty()).then(|| {
        f.points
            .iter()
            .zip(&f.imbalance)
            .filter_map(|(p, x)| Some(ImbalanceOut { imbalance: (*x)?, n: super::Whole(p.n), point: point(&p.coords) }))
            .collect()
    });
    RegionOut {
        best: f.best_name(),
        callpath: &f.callpath,
        depth: r.tree.depth.get(i).copied().unwrap_or(0),
        error: f.error.as_deref(),
        formula: f.formula.as_deref(),
        grows: f.grows,
        imbalance,
        imbalance_grows: (!f.imbalance.is_empty()).then_some(f.imbalance_grows),
        loo_rel_error: f.model.as_ref().and_then(|m| m.loo),
        metric: &f.metric,
        note: f.note.as_deref(),
        parent: r.tree.parent.get(i).copied().flatten().map(|p| r.regions[p].callpath.as_str()),
        points: f
            .points
            .iter()
            .map(|p| RegionPointOut {
                n: super::Whole(p.n),
                noise: p.noise,
                point: point(&p.coords),
                repetitions: p.repetitions,
                time_s: p.median,
            })
            .collect(),
        predictions,
        shares,
        side: None,
        stops_scaling_n: f.stops_scaling_n,
    }
}

/// What reading a set of Score-P runs found (the answer's "runs").
#[derive(serde::Serialize, JsonSchema)]
pub struct RunsOut {
    /// Profiles read (every repetition).
    count: usize,
    /// The metric read (its unique name in the profiles).
    metric: String,
    /// The profiles' metrics, any of which --metric reads.
    metrics: Vec<String>,
    /// "mean" (per process, the default), "sum" or "max" over a run's locations.
    aggregate: String,
    /// Inclusive values (a node with what it calls) rather than exclusive (its own).
    inclusive: bool,
    /// Fewest and most locations (processes × threads) in a run.
    locations: [usize; 2],
    /// Call paths missing at some points, with the ancestor they were merged into (null: left
    /// out, or with --inclusive dropped, as the ancestor holds them).
    merged: Vec<MergedOut>,
    /// Files and folders that hold no run, passed over.
    passed_over: usize,
    /// Caliper profiles: each parameter and the global it was read from.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    parameters_from: Vec<ParameterFromOut>,
    /// Caliper profiles: the other numeric globals that vary over the runs, which --parameters
    /// may name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    globals_offered: Vec<String>,
    /// Runs whose figures equal an earlier run's in every call path (the same profile twice?),
    /// each [earlier, this].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    identical: Vec<[String; 2]>,
}

#[derive(serde::Serialize, JsonSchema)]
pub struct ParameterFromOut {
    parameter: String,
    global: String,
}

#[derive(serde::Serialize, JsonSchema)]
pub struct MergedOut {
    callpath: String,
    into: Option<String>,
}

impl RunsOut {
    fn of(l: &bottlenecks::runs::RunsSummary) -> RunsOut {
        RunsOut {
            count: l.runs,
            metric: l.metric.clone(),
            metrics: l.metrics.clone(),
            aggregate: l.options.aggregate.key().to_string(),
            inclusive: l.options.inclusive,
            locations: [l.locations.0, l.locations.1],
            merged: l
                .merged
                .iter()
                .map(|(c, into)| MergedOut {
                    callpath: c.clone(),
                    into: if l.options.inclusive { None } else { into.clone() },
                })
                .collect(),
            passed_over: l.passed_over,
            parameters_from: l
                .caliper
                .iter()
                .flat_map(|c| &c.sources)
                .map(|(p, g)| ParameterFromOut { parameter: p.clone(), global: g.clone() })
                .collect(),
            globals_offered: l.caliper.iter().flat_map(|c| c.offered.clone()).collect(),
            identical: l.identical.iter().map(|(a, b)| [a.clone(), b.clone()]).collect(),
        }
    }
}

/// An experiment ranked, written as its [`BottlenecksAnswer`] (with what its runs were, when
/// it was read from Score-P runs).
pub struct Ranked {
    e: bottlenecks::Experiment,
    r: Ranking,
    runs: Option<bottlenecks::runs::RunsSummary>,
}

impl serde::Serialize for Ranked {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        BottlenecksAnswer::new(&self.e, &self.r, self.runs.as_ref()).serialize(s)
    }
}

/// Reads, plans and fits the experiment (regions on every core).
fn ranking(text: &str, opts: &[(String, String)]) -> Result<(bottlenecks::Experiment, Ranking), InputError> {
    if let Some((k, _)) = opts.iter().find(|(k, _)| RUN_OPTIONS.contains(&k.as_str())) {
        return Err(unplaced(format!(
            "{k} applies to Score-P runs (a folder of runs or a .cubex file), not to an experiment read as text"
        )));
    }
    let e = bottlenecks::parse(text)?;
    rank_experiment(e, opts)
}

/// Plans and fits an experiment read (regions on every core).
fn rank_experiment(
    e: bottlenecks::Experiment,
    opts: &[(String, String)],
) -> Result<(bottlenecks::Experiment, Ranking), InputError> {
    if e.parameters.len() < 2 && opts.iter().any(|(k, _)| k == "--hold") {
        return Err(InputError::new(
            "--hold",
            format!(
                "this experiment has one parameter ({}); --hold picks the value of a second one, so it does not apply",
                e.parameters.join(", ")
            ),
        ));
    }
    let mut o = options(opts, Vec::new)?;
    if o.targets.is_empty() && o.points.is_empty() {
        o.targets = default_targets(&e, &o);
    }
    o.max_regions = bottlenecks::MAX_REGIONS_BATCH;
    // The regions are fitted on every core, one at a time, and ranked in the plan's order: the
    // same answer as bottlenecks::rank on one thread.
    let plan = bottlenecks::plan(&e, &o)?;
    let ids: Vec<usize> = (0..plan.len()).collect();
    let fits = crate::parallel::map(&ids, &|&i| bottlenecks::fit_regions(&plan, i..i + 1))
        .ok_or_else(|| unplaced(crate::parallel::STOPPED))?;
    let r = bottlenecks::finish(plan, fits.into_iter().flatten().collect())?;
    Ok((e, r))
}

fn run(_format: &str, text: &str, opts: &[(String, String)]) -> Result<Reply, InputError> {
    let (e, r) = ranking(text, opts)?;
    Ok(Reply::new(Ranked { e, r, runs: None }))
}

/// Options that only Score-P runs read: `--aggregate mean|sum|max`, and the flag `--inclusive`
/// (kept as an option with an empty value).
pub const RUN_OPTIONS: &[&str] = &["--aggregate", "--inclusive", "--parameters"];

/// Whether `path` is read by [`run_path`] rather than as text: a folder, or a file that is
/// not an experiment as text by `bottlenecks::formats` (a profile, a saved Extra-P experiment,
/// or a file that detector names as unreadable, so that its message is the one given).
pub fn is_binary_path(path: &str) -> bool {
    use bottlenecks::formats::{detect, HEAD};
    let p = std::path::Path::new(path);
    if p.is_dir() {
        return true;
    }
    let mut head = [0u8; HEAD];
    let n = std::fs::File::open(p).and_then(|mut f| {
        use std::io::Read;
        let mut n = 0;
        while n < head.len() {
            match f.read(&mut head[n..])? {
                0 => break,
                k => n += k,
            }
        }
        Ok(n)
    });
    n.is_ok_and(|n| detect(path, &head[..n]) != Ok(bottlenecks::Format::Text))
}

/// The run options of the command's options.
fn run_options(opts: &[(String, String)]) -> Result<bottlenecks::runs::RunOptions, InputError> {
    let mut o = bottlenecks::runs::RunOptions::default();
    for (k, v) in opts {
        match k.as_str() {
            "--aggregate" => {
                o.aggregate = bottlenecks::runs::Aggregate::from_key(v).ok_or_else(|| {
                    InputError::new("--aggregate", format!("expected mean, sum or max, found \"{v}\""))
                })?;
            }
            "--inclusive" => o.inclusive = true,
            "--metric" => o.metric = Some(v.clone()),
            "--parameters" => {
                let names: Vec<String> = v.split(',').map(|n| n.trim().to_string()).collect();
                if names.iter().any(String::is_empty) || names.len() > bottlenecks::MAX_PARAMETERS {
                    return Err(InputError::new(
                        "--parameters",
                        format!(
                            "expected one to {} names of globals joined by ',' (jobsize,problem_size), found \"{v}\"",
                            bottlenecks::MAX_PARAMETERS
                        ),
                    ));
                }
                o.parameters = names;
            }
            _ => {}
        }
    }
    Ok(o)
}

/// Reads a folder of Score-P runs, one `.cubex` profile or a saved Extra-P experiment: the
/// experiment, and what reading the runs found (None for a saved experiment). The files are
/// listed here and read one at a time by `bottlenecks::runs::read_set`, as the page's worker reads
/// them.
fn read_path(
    path: &str,
    opts: &[(String, String)],
) -> Result<(bottlenecks::Experiment, Option<bottlenecks::runs::RunsSummary>), InputError> {
    use bottlenecks::runs::{read_set, LIMITS};
    let root = std::path::Path::new(path);
    let cannot = |p: &std::path::Path, e: std::io::Error| format!("cannot read '{}': {e}", p.display());
    let ro = run_options(opts)?;
    // The file given, or the folder's files and its folders' files (runs are one level down).
    let (base, paths) = if root.is_dir() {
        let entries = |d: &std::path::Path| -> Result<Vec<(String, bool)>, InputError> {
            let mut v: Vec<(String, bool)> = std::fs::read_dir(d)
                .map_err(|e| unplaced(cannot(d, e)))?
                .filter_map(Result::ok)
                .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path().is_dir()))
                .collect();
            v.sort();
            Ok(v)
        };
        let mut paths: Vec<String> = Vec::new();
        for (name, dir) in entries(root)? {
            if dir {
                for (inner, inner_dir) in entries(&root.join(&name))? {
                    if !inner_dir {
                        paths.push(format!("{name}/{inner}"));
                    } else if inner.starts_with("MULTI__") {
                        // A TAU run of several metrics: one folder of profiles per metric.
                        for (file, file_dir) in entries(&root.join(&name).join(&inner))? {
                            if !file_dir {
                                paths.push(format!("{name}/{inner}/{file}"));
                            }
                        }
                    }
                }
            } else {
                paths.push(name);
            }
            if paths.len() > 4 * LIMITS.runs + 1024 {
                return Err(unplaced(format!(
                    "'{path}' holds more files than a set of at most {} runs (the limit of runs)",
                    LIMITS.runs
                )));
            }
        }
        (root.to_path_buf(), paths)
    } else {
        let name = root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        (root.parent().map(std::path::Path::to_path_buf).unwrap_or_default(), vec![name])
    };
    // The model's edge: a file's bytes, or why the host could not read them.
    let mut bytes_of = |i: usize| -> Result<Vec<u8>, String> {
        let p = base.join(&paths[i]);
        let size = std::fs::metadata(&p).map_err(|e| cannot(&p, e))?.len();
        if size > LIMITS.file_bytes as u64 {
            return Err(format!(
                "{size} bytes is more than the {} MB of one file read (the limit of file bytes)",
                LIMITS.file_bytes >> 20
            ));
        }
        std::fs::read(&p).map_err(|e| cannot(&p, e))
    };
    let (e, summary) = read_set(&paths, &ro, &LIMITS, &mut bytes_of, &mut |_, _| {})?;
    if summary.source == "saved" {
        if let Some((k, _)) = opts.iter().find(|(k, _)| RUN_OPTIONS.contains(&k.as_str())) {
            return Err(unplaced(format!(
                "{k} applies to Score-P runs; a saved Extra-P experiment holds its values already aggregated"
            )));
        }
        return Ok((e, None));
    }
    Ok((e, Some(summary)))
}

/// `scalewise bottlenecks PATH` for a folder of runs, a `.cubex` profile or a saved Extra-P
/// experiment: the answer, with what the runs were.
pub fn run_path(path: &str, opts: &[(String, String)]) -> Result<Reply, InputError> {
    let (e, runs) = read_path(path, opts)?;
    let (e, r) = rank_experiment(e, opts)?;
    Ok(Reply::new(Ranked { e, r, runs }))
}

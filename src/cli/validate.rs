//! `scalewise validate [CORPUS.csv …] [--groups FILE] [--markdown | --calibration]`: how right
//! the speed-up calculator's predictions are on measured strong-scaling series (see
//! `model::validation`), next to two baselines, for K = 3 and K = 4 fitted counts; and which
//! forecast the corpora choose (`model::validation::candidates`). JSON by default;
//! `--markdown` writes the report that `make validate` commits as VALIDATION.md,
//! `--calibration` the ranges' quantiles (`src/model/fit/calibration.rs`).

use super::unplaced;
use crate::model::InputError;

use serde::Serialize;

use crate::model::fit::calibration;
use crate::model::fit::forecast::{self, Quantiles};
use crate::model::fmt_num;
use crate::model::speedup::MODELS;
use crate::model::validation::candidates::{self, Selection};
use crate::model::validation::twins::{self, least_error};
use crate::model::validation::{self, corpus, Bands, Cut, Outcome, Predictor, Summary, Weighting};

pub const HELP: &str = "\
scalewise validate — measured accuracy of the speed-up predictions on real strong-scaling series

USAGE:
    scalewise validate [CORPUS.csv ...] [--groups FILE] [--markdown | --calibration]
    scalewise validate --transfer [CORPUS.csv ...] [--markdown | --calibration]

Each CORPUS is a CSV with the columns series_id,application,problem,machine,source,np,nodes,
time_s,rep (one row per run; repetitions at one np are averaged; nodes may be empty). Without
files it reads validation/corpus.csv, validation/corpus_wide.csv and, when present,
../shared/validation/strong_scaling_dev.csv and strong_scaling_more.csv, relative to the
repository: the working directory or the nearest folder above it that holds
validation/corpus.csv, else the source tree the command was built from (an error names where
it looked). --groups names a CSV (repository,group,reason) of repositories held out together
as one source (default validation/source_groups.csv when present).

--transfer measures `scalewise transfer` instead: on the pairs of series of one code and
problem on two machines in validation/transfer_pairs.csv, with the machines' figures and their
sources in validation/transfer_machines.json, each series given whole and the other machine's
counts predicted both ways, under both bounds; per pair, per code and pooled: the median and
90th-percentile error, the share inside the 90 % range set on the other codes (each code held
out in turn), its median width, the same-machine range's width and the widening. --markdown
writes the section `make validate` appends to VALIDATION.md; --calibration writes
src/model/transfer/calibration.rs (the ranges' quantiles, from every pair).

PROTOCOL:
    For K = 3 and K = 4: fit the times at the K smallest process counts of each series and
    predict every larger measured count. By horizon (n over the largest fitted n: <= 2, <= 4,
    <= 16, all): the median and 90th-percentile |predicted - measured| / measured, the share of
    measurements inside the predicted range, and the range's median width over the prediction.
    Baselines on the same split: ideal scaling from the largest fitted count, T(k)·k/n, and
    Amdahl's law T = a + b/n by least squares. Every range is set on the other sources than
    the one it is checked on. The forecast's rule is chosen among candidates by the pooled
    median error plus the 80th percentile of the sources' median errors, each source held
    out in turn.

LIMITS:
    at most 600 series over every corpus read and 32 MB a file (validation::corpus::MAX_SERIES,
    MAX_BYTES); more is refused at once, naming the file (and the line of the series too many).

OUTPUT (JSON):
    corpora [{file, series, runs: [{k, predictor, missed, horizons: [{horizon, predictions,
    median_rel_error, p90_rel_error, coverage, median_rel_width}]}]}]
    pooled {series, runs}: the same over every corpus together
    held_out [{predictor, coverage, predictions, by_horizon [{up_to, coverage, predictions}]}]
    by_count [{counts (\"3 or fewer\", \"4 or more\"), by_horizon [{up_to, coverage,
    predictions, median_rel_width}]}]: the forecast's ranges on held-out sources
    node_crossing {factor, coverage, predictions}: ranges of predictions that leave the one node
    of the measured runs
    held_out_by_horizon [{split, by_count [{counts, by_horizon [{horizon (\"≤ 2\", \"2–4\",
    \"4–16\", \"> 16\", \"all\"), coverage, coverage_sources_alike, predictions, sources,
    median_rel_width}]}]}]: the forecast's ranges per horizon band on sources held out of the
    calibration, pooled and with each source alike; splits: each source held out in turn, and
    each fifth of the sources (by a hash of the name) held out whole
    sources [{source, series, predictions, median_rel_error}]: the forecast's, worst first
    candidates [{name, predictions, missed, median_rel_error, p90_rel_error, source_p80,
    worst_source, score, folds_won}]
    selection {winner, calculators (the candidate the calculator's forecast is), nested
    {predictions, median_rel_error, p90_rel_error, source_p80, worst_source, score}}
    twins [{k, pairs, apart, widest {series, n, ratio, least_rel_error}}]: pairs of
    predictions from series of different sources whose measured runs agree in shape within
    twin_tolerance (ln of each time over the largest count's), and how many of them part by
    more than twin_apart times, where one prediction for both misses one by over
    (twin_apart - 1)/(twin_apart + 1)
    level
    coverage and median_rel_width are null for predictors without ranges.
";

const DEFAULT_CORPORA: [&str; 4] = [
    "validation/corpus.csv",
    "validation/corpus_wide.csv",
    "../shared/validation/strong_scaling_dev.csv",
    "../shared/validation/strong_scaling_more.csv",
];
const DEFAULT_GROUPS: &str = "validation/source_groups.csv";

/// The predictors reported, the calculator's first; `true` where the range is calibrated.
fn predictors() -> Vec<(Box<dyn Predictor>, bool)> {
    vec![
        (Box::new(validation::Forecast), true),
        (Box::new(validation::BestModel), true),
        (Box::new(validation::IdealScaling), false),
        (Box::new(validation::AmdahlLeastSquares), false),
    ]
}

struct Run {
    k: usize,
    predictor: String,
    missed: usize,
    summary: Vec<Summary>,
}

struct Corpus {
    file: String,
    series: usize,
    runs: Vec<Run>,
}

/// Everything measured.
struct Report {
    corpora: Vec<Corpus>,
    /// Every corpus together.
    pooled: Corpus,
    /// (name, held-out outcomes pooled over corpora and K) for the forecast, each model and
    /// the planner's horizon-only ranges.
    held: Vec<(String, Vec<Outcome>)>,
    /// Bands of the forecast and of each model, on every source.
    bands: Vec<(String, Option<Bands>)>,
    horizon_only: Option<Quantiles>,
    selection: Selection,
    /// The source groups: (group, repositories in it).
    groups: Vec<(String, usize)>,
    /// The forecast's outcomes with ranges set under each weighting.
    weightings: Vec<(Weighting, Vec<Outcome>)>,
    /// Coverage and width per cell of the forecast's ranges under other scales.
    scales: Vec<(String, validation::CellCoverage)>,
    /// Pairs of series alike in their measured runs that part further out, per K.
    twins: Vec<twins::Summary>,
    /// The forecast's outcomes with ranges set on the other four fifths of the sources
    /// (`validation::hold_out_fifths`).
    fifths: Vec<Outcome>,
}

/// How closely two series' measured runs must agree in shape (ln of each time over the time
/// at the largest count) to count as twins: about run-to-run noise.
const TWIN_TOLERANCE: f64 = 0.05;
/// Twins further apart than this (R) leave more than 60 % error on one of them,
/// (R − 1)/(R + 1), whatever one prediction is made for both.
const TWIN_APART: f64 = 4.0;

const KS: [usize; 2] = [3, 4];
/// The pooled predictions with a scale from the horizon alone (the planner's ranges).
const HORIZON_ONLY: &str = "any of the above, scale from the horizon only";
const FORECAST: &str = "scalewise forecast";

fn runs(cuts: &[Cut], files: usize, p: &dyn Predictor, calibrated: bool) -> (Vec<Outcome>, Vec<usize>) {
    let (mut all, _) = validation::run(cuts, p);
    if calibrated {
        validation::hold_out_ranges(&mut all);
    }
    // Cuts missed, per file and K.
    let mut missed = vec![0; files * KS.len()];
    for c in cuts {
        let answered = all.iter().any(|o| o.series == c.series && o.k == c.k && o.file == c.file);
        if !answered {
            if let Some(ki) = KS.iter().position(|&k| k == c.k) {
                missed[c.file * KS.len() + ki] += 1;
            }
        }
    }
    (all, missed)
}

fn summaries(
    all: &[Outcome],
    name: &str,
    keep: &dyn Fn(&Outcome) -> bool,
    missed: &dyn Fn(usize) -> usize,
) -> Vec<Run> {
    KS.iter()
        .enumerate()
        .map(|(ki, &k)| {
            let mine: Vec<Outcome> = all.iter().filter(|o| o.k == k && keep(o)).cloned().collect();
            Run { k, predictor: name.to_string(), missed: missed(ki), summary: validation::summarize(&mine) }
        })
        .collect()
}

fn evaluate(files: &[(String, String)], groups: &[(String, String)]) -> Result<Report, InputError> {
    let mut cuts: Vec<Cut> = Vec::new();
    let mut corpora = Vec::new();
    let mut total_series = 0;
    for (i, (file, text)) in files.iter().enumerate() {
        let mut series = corpus::read(file, text)?;
        if total_series + series.len() > corpus::MAX_SERIES {
            return Err(InputError::new(
                file,
                format!(
                    "the corpora hold {} series with this file; validate reads at most {} (corpus::MAX_SERIES)",
                    total_series + series.len(),
                    corpus::MAX_SERIES
                ),
            ));
        }
        corpus::regroup(&mut series, groups);
        for k in KS {
            cuts.extend(validation::cuts(&series, k, i));
        }
        total_series += series.len();
        corpora.push(Corpus { file: file.clone(), series: series.len(), runs: Vec::new() });
    }
    let mut pooled = Corpus { file: "every corpus".into(), series: total_series, runs: Vec::new() };
    let mut held = Vec::new();
    for (p, calibrated) in predictors() {
        let (all, missed) = runs(&cuts, files.len(), p.as_ref(), calibrated);
        for (ci, c) in corpora.iter_mut().enumerate() {
            c.runs.extend(summaries(&all, &p.name(), &|o| o.file == ci, &|ki| missed[ci * KS.len() + ki]));
        }
        pooled.runs.extend(summaries(&all, &p.name(), &|_| true, &|ki| {
            (0..files.len()).map(|ci| missed[ci * KS.len() + ki]).sum()
        }));
        if p.name() == FORECAST {
            held.push((p.name(), all));
        }
    }
    for m in MODELS {
        let (all, _) = runs(&cuts, files.len(), &validation::ModelFit(m), true);
        held.push((m.name().to_string(), all));
    }
    let bands = held.iter().map(|(name, all)| (name.clone(), validation::calibrate_bands(all))).collect();
    // Predictions whose own disagreement term is unknown (the multigrid planner's): every
    // predictor's outcomes above, the scale from the horizon alone.
    let mut any: Vec<Outcome> = held.iter().flat_map(|(_, all)| all.iter().cloned()).collect();
    for o in &mut any {
        o.predicted.scale = Some(forecast::horizon_scale(o.horizon));
        o.predicted.crosses_nodes = false;
    }
    validation::hold_out_horizon_only(&mut any);
    let horizon_only = validation::calibrate_horizon_only(&any);
    held.push((HORIZON_ONLY.to_string(), any));
    let selection = candidates::select(&cuts, candidates::grid());
    let mut group_sizes: Vec<(String, usize)> = Vec::new();
    for (_, g) in groups {
        match group_sizes.iter_mut().find(|x| x.0 == *g) {
            Some(x) => x.1 += 1,
            None => group_sizes.push((g.clone(), 1)),
        }
    }
    let fc = held.iter().find(|(n, _)| n == FORECAST).map(|(_, o)| o.clone()).unwrap_or_default();
    let weightings = [Weighting::Prediction, Weighting::SqrtSource, Weighting::Source]
        .into_iter()
        .map(|w| {
            let mut o = fc.clone();
            validation::hold_out_ranges_by(&mut o, w);
            (w, o)
        })
        .collect();
    // The forecast's ranges under other scales; d is read back from its own, 1 + w·d.
    let rescale = |f: &dyn Fn(f64, f64) -> f64| -> validation::CellCoverage {
        let mut o = fc.clone();
        for x in &mut o {
            let d = x.predicted.scale.map_or(0.0, |u| (u - 1.0) / forecast::DISAGREEMENT_WEIGHT);
            x.predicted.scale = Some(f(d, x.horizon));
        }
        validation::hold_out_ranges(&mut o);
        validation::coverage_by_cell(&o)
    };
    let mut scales: Vec<(String, validation::CellCoverage)> = [1.0, 0.5]
        .into_iter()
        .map(|w: f64| {
            let name = format!("1 + {}·d", fmt_num(w, 2));
            let name = if w == forecast::DISAGREEMENT_WEIGHT { format!("**{name}** (the calculator's)") } else { name };
            (name, rescale(&|d, _| 1.0 + w * d))
        })
        .collect();
    scales.push(("1 (the band alone)".into(), rescale(&|_, _| 1.0)));
    scales.push(("ln(max(h, 1)) + 0.3 (the horizon, as round 1)".into(), rescale(&|_, h| forecast::horizon_scale(h))));
    let twins = twins::summaries(&cuts, TWIN_TOLERANCE, TWIN_APART);
    let mut fifths = fc.clone();
    validation::hold_out_fifths(&mut fifths);
    Ok(Report {
        corpora,
        pooled,
        held,
        bands,
        horizon_only,
        selection,
        groups: group_sizes,
        weightings,
        scales,
        twins,
        fifths,
    })
}

fn forecast_outcomes(r: &Report) -> &[Outcome] {
    r.held.iter().find(|(n, _)| n == FORECAST).map(|(_, o)| o.as_slice()).unwrap_or(&[])
}

/// `src/model/fit/calibration.rs` as measured.
fn calibration_source(r: &Report) -> Result<String, InputError> {
    let bands = |name: &str| -> Result<Bands, InputError> {
        r.bands
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, b)| *b)
            .ok_or_else(|| unplaced(format!("no calibration for {name}: the corpora gave it no prediction")))
    };
    let lit = |q: Quantiles| format!("Quantiles {{ low: {:.4}, high: {:.4} }}", q.low, q.high);
    let table = |b: &Bands, indent: &str| -> String {
        let rows: Vec<String> = b
            .quantiles
            .iter()
            .map(|row| format!("{indent}    [{}],\n", row.iter().map(|q| lit(*q)).collect::<Vec<_>>().join(", ")))
            .collect();
        format!("[\n{}{indent}]", rows.concat())
    };
    let fc = forecast_outcomes(r);
    let f = bands(FORECAST)?;
    let mut s = String::from(
        "//! Written by `make validate` (`scalewise validate --calibration`) from the validation\n\
         //! corpora; do not edit by hand. See `forecast.rs` for what these numbers mean.\n\n\
         use super::quantiles::Quantiles;\n\n",
    );
    s.push_str("/// Quantiles of the forecast's scores, per count class (3 or fewer measured counts, 4 or\n/// more) and horizon band (`HORIZON_TOPS`).\n");
    s.push_str(&format!("pub const FORECAST: [[Quantiles; 4]; 2] = {};\n", table(&f, "")));
    s.push_str(
        "/// The share of the scores left out each side for `FORECAST`'s quantiles, per cell: the largest\n\
         /// tail, 5 % at most, whose ranges held 90 % on sources held out in turn, each source alike.\n",
    );
    let tails: Vec<String> = f
        .tails
        .iter()
        .map(|row| format!("    [{}],\n", row.iter().map(|t| format!("{t:.4}")).collect::<Vec<_>>().join(", ")))
        .collect();
    s.push_str(&format!("pub const TAILS: [[f64; 4]; 2] = [\n{}];\n", tails.concat()));
    s.push_str("/// Quantiles of each fitted model's scores, by the model's name, as `FORECAST`.\npub const MODELS: &[(&str, [[Quantiles; 4]; 2])] = &[\n");
    for m in MODELS {
        s.push_str(&format!("    (\"{}\", {}),\n", m.name(), table(&bands(m.name())?, "    ")));
    }
    s.push_str("];\n/// The factor on the forecast's scale when every measured run is inside one node and the\n/// prediction needs more.\n");
    s.push_str(&format!("pub const NODE_FACTOR: f64 = {:.4};\n", f.node_factor));
    s.push_str("/// Quantiles for predictions scaled by the horizon alone (the multigrid planner's).\n");
    s.push_str(&format!(
        "pub const HORIZON_ONLY: Quantiles = {};\n",
        lit(r
            .horizon_only
            .ok_or_else(|| unplaced("no calibration for the horizon-only ranges: the corpora gave no prediction"))?)
    ));
    let any = r.held.iter().find(|(n, _)| n == HORIZON_ONLY).map(|(_, o)| o.as_slice()).unwrap_or(&[]);
    let inside: Vec<bool> = any.iter().filter_map(Outcome::inside).collect();
    s.push_str(&format!(
        "/// Their ranges on held-out sources: (share inside, predictions).\npub const HORIZON_ONLY_HELD_OUT: (f64, usize) = ({:.4}, {});\n",
        inside.iter().filter(|&&b| b).count() as f64 / inside.len().max(1) as f64,
        inside.len()
    ));
    s.push_str("/// The horizons of the track record: up to this many times the largest measured count.\n");
    s.push_str("pub const HORIZON_TOPS: [f64; 4] = [2.0, 4.0, 16.0, f64::INFINITY];\n");
    s.push_str(
        "/// The forecast's ranges on held-out sources, per count class and horizon band (above the\n/// one before, up to this one): (share inside, measurements, median width over the\n/// prediction).\npub const HELD_OUT: [[(f64, usize, f64); 4]; 2] = [\n",
    );
    for row in validation::coverage_by_cell(fc) {
        s.push_str(&format!(
            "    [{}],\n",
            row.iter().map(|(c, n, w)| format!("({c:.4}, {n}, {w:.4})")).collect::<Vec<_>>().join(", ")
        ));
    }
    let (nc, nn) = validation::node_coverage(fc);
    s.push_str(&format!(
        "];\n/// The forecast's ranges that left the one node of the runs, on held-out sources: (share\n/// inside, measurements).\npub const NODE_HELD_OUT: (f64, usize) = ({nc:.4}, {nn});\n"
    ));
    s.push_str(&format!(
        "/// What the calibration was measured on: sources, and predictions (K = 3 and 4 pooled).\npub const SOURCES: usize = {};\npub const MEASUREMENTS: usize = {};\n",
        validation::sources(fc).len(),
        fc.len()
    ));
    Ok(s)
}

fn pct(x: f64) -> String {
    format!("{} %", fmt_num(100.0 * x, 3))
}

/// A row of the held-out table: (predictor, (share inside, count) per horizon band, share
/// inside overall, count).
type HeldOutRow = (String, Vec<(f64, usize)>, f64, usize);

fn held_out_rows(r: &Report) -> Vec<HeldOutRow> {
    r.held
        .iter()
        .map(|(name, all)| {
            let by = validation::coverage_by_horizon(all);
            let inside: Vec<bool> = all.iter().filter_map(Outcome::inside).collect();
            let share = if inside.is_empty() {
                0.0
            } else {
                inside.iter().filter(|&&b| b).count() as f64 / inside.len() as f64
            };
            (name.clone(), by, share, inside.len())
        })
        .collect()
}

const CLASSES: [&str; 2] = ["3 or fewer", "4 or more"];
const BANDS: [&str; 4] = ["≤ 2", "2–4", "4–16", "> 16"];

fn corpus_tables(c: &Corpus) -> String {
    let mut s = String::new();
    for k in KS {
        s.push_str(&format!("\n### K = {k} fitted counts\n\n"));
        s.push_str("| predictor | horizon | predictions | median error | 90th percentile | inside range | width |\n|---|---|---|---|---|---|---|\n");
        for run in c.runs.iter().filter(|run| run.k == k) {
            for h in &run.summary {
                s.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} | {} |\n",
                    run.predictor,
                    h.horizon,
                    h.predictions,
                    pct(h.median_rel_error),
                    pct(h.p90_rel_error),
                    h.coverage.map_or("—".into(), pct),
                    h.median_rel_width.map_or("—".into(), pct)
                ));
            }
        }
        let missed: usize = c.runs.iter().filter(|run| run.k == k).map(|run| run.missed).sum();
        if missed > 0 {
            s.push_str(&format!("\n{missed} series could not be predicted by one of the predictors.\n"));
        }
    }
    s
}

/// The targets on one corpus (or all) and K: the cells that miss them, said in words.
fn misses(c: &Corpus, k: usize) -> Vec<String> {
    let get = |name: &str| c.runs.iter().find(|r| r.k == k && r.predictor == name);
    let (Some(f), Some(ideal), Some(ls)) =
        (get(FORECAST), get(&validation::IdealScaling.name()), get(&validation::AmdahlLeastSquares.name()))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for ((h, i), l) in f.summary.iter().zip(&ideal.summary).zip(&ls.summary) {
        if h.predictions == 0 {
            continue;
        }
        if h.median_rel_error >= i.median_rel_error.min(l.median_rel_error) {
            out.push(format!(
                "{}: median {} not below the baselines' {} and {}",
                h.horizon,
                pct(h.median_rel_error),
                pct(i.median_rel_error),
                pct(l.median_rel_error)
            ));
        }
        if h.p90_rel_error > 0.6 {
            out.push(format!("{}: 90th percentile {}", h.horizon, pct(h.p90_rel_error)));
        }
        if let Some(cov) = h.coverage.filter(|c| !(0.85..=0.95).contains(c)) {
            out.push(format!("{}: ranges hold {}", h.horizon, pct(cov)));
        }
    }
    if let Some(all) = f.summary.last().filter(|h| h.median_rel_error > 0.15) {
        out.push(format!("all: median {} above 15 %", pct(all.median_rel_error)));
    }
    out
}

fn headline_cells(h: &validation::Headline) -> String {
    format!(
        "{} | {} | {} | {} | {} | {}",
        h.predictions,
        pct(h.median_rel_error),
        pct(h.p90_rel_error),
        pct(h.source_p80),
        pct(h.worst_source),
        fmt_num(h.score, 3)
    )
}

fn markdown(r: &Report) -> String {
    let fc = forecast_outcomes(r);
    let node_leavers: Vec<Outcome> = fc.iter().filter(|o| o.predicted.crosses_nodes).cloned().collect();
    let mut s = String::new();
    method_markdown(r, fc, &mut s);
    pooled_markdown(r, &mut s);
    choice_markdown(r, &node_leavers, &mut s);
    sources_markdown(fc, &mut s);
    ranges_markdown(r, fc, &node_leavers, &mut s);
    for c in &r.corpora {
        s.push_str(&format!("\n## {} ({} series)\n", c.file, c.series));
        s.push_str(&corpus_tables(c));
    }
    limits_markdown(r, fc, &mut s);
    s
}

/// The report's title, its method, the corpora and the source groups.
fn method_markdown(r: &Report, fc: &[Outcome], s: &mut String) {
    let n_sources = validation::sources(fc).len();
    s.push_str(
        "# How right are the speed-up predictions?\n\n\
         Regenerated by `make validate` (`scalewise validate --markdown`); do not edit by hand.\n\n\
         ## Method\n\n\
         Real strong-scaling series (one fixed problem at several process counts, copied from public\n\
         benchmark tables, result files and logs; `validation/README.md`, `validation/README_wide.md` and\n\
         `shared/validation/README.md` cite each one) are cut as a user would have them: the times at\n\
         the K smallest counts are given to the calculator, and every larger measured count is\n\
         predicted. Repetitions at one count are averaged first. Errors are |predicted − measured| /\n\
         measured, grouped by horizon, the predicted count over the largest fitted count. The\n\
         baselines use the same split.\n\n\
         A **source** is a repository (or a vendor's page), held out whole; repositories that are not\n\
         independent are one source (`validation/source_groups.csv`, listed below).\n\n\
         The **scalewise forecast** blends two readings of the measured runs, both through the time at\n\
         the largest count k: Amdahl's law with its serial part fitted to every point (at least 0),\n\
         and the trend of the last two runs, T(k)·(k/n)^α with α their log–log slope (0 ≤ α ≤ 1); the\n\
         weight on Amdahl's reading falls as the runs' local slope rises from the first pair to the\n\
         last, since a code that scales better the further it goes has no serial part to read.\n\
         Where every measured run sat inside one node and the predicted count needs more nodes, the\n\
         forecast is carried to the node's size r and scaled from there as (r/n)^γ\n\
         (`src/model/fit/forecast.rs`). How it was chosen is below.",
    );
    let models: Vec<&str> = MODELS.iter().map(|m| m.label().split(['/', ' ']).next().unwrap_or("")).collect();
    s.push_str(&format!(
        " The **best-fitting model** is the one of the fitted curves\n({}) that the calculator ranks first.\n\n",
        models.join(", ")
    ));
    s.push_str(
        "**Ranges** are stated at 90 %. Each is the prediction times e^(q·u), with u = 1 + d (d the\n\
         disagreement of ideal scaling and of Amdahl through the two largest points with the forecast)\n\
         and q the 5th and 95th percentiles of ln(measured / predicted) / u, per horizon band and per\n\
         number of measured counts (3 or fewer, 4 or more), each source's predictions weighted by one\n\
         over the square root of their number in that cell (below: why). Where every measured run sits\n\
         inside one node and the prediction needs more (the corpus gives nodes for most series), u is\n\
         multiplied by a factor: the 90th percentile of what such predictions needed to be held, at\n\
         least 1. \"Inside range\" is measured on **held-out sources**: for every source, the\n\
         percentiles are taken from the other sources' predictions only and applied to it. \"Width\" is\n\
         the range's median width over the prediction. The weight 1 on d and the weighting were chosen\n\
         looking at these held-out figures (tables below), so they are not wholly independent of them.\n",
    );
    s.push_str(&format!(
        "\nThe corpora hold {} series from {n_sources} sources; the forecast made {} predictions (K = 3 and\n4 pooled) on them.",
        r.pooled.series,
        fc.len()
    ));
    if let Some(top) = validation::per_source(fc).into_iter().max_by_key(|f| f.predictions) {
        s.push_str(&format!(
            "\nThe source with the most, {}, made {} of them ({} series): pooled figures per\nprediction lean on it, the per-source figures and the score below do not.\n",
            top.source,
            pct(top.predictions as f64 / fc.len().max(1) as f64),
            top.series
        ));
    }
    s.push_str("\nSource groups:\n\n");
    for (g, n) in &r.groups {
        s.push_str(&format!("- {g}: {n} repositories\n"));
    }
}

/// Every corpus pooled, and the cells that miss issue 31's targets.
fn pooled_markdown(r: &Report, s: &mut String) {
    s.push_str("\n## Every corpus pooled\n");
    s.push_str(&corpus_tables(&r.pooled));

    s.push_str("\n## Against the targets of issue 31\n\n");
    s.push_str(
        "Per corpus and pooled, for K = 3 and 4 at every horizon: the median error below both baselines,\n\
         the 90th percentile at most 60 %, ranges holding 85–95 %, and a median of at most 15 % over all\n\
         horizons. Cells that miss:\n\n",
    );
    for c in std::iter::once(&r.pooled).chain(&r.corpora) {
        for k in KS {
            let m = misses(c, k);
            let said = if m.is_empty() { "every target met".to_string() } else { m.join("; ") };
            s.push_str(&format!("- {}, K = {k}: {said}.\n", c.file));
        }
    }
}

/// How the forecast was chosen: the candidates' scores.
fn choice_markdown(r: &Report, node_leavers: &[Outcome], s: &mut String) {
    let sel = &r.selection;
    let winner = &sel.scored[sel.winner];
    let n_sources = validation::sources(forecast_outcomes(r)).len();
    s.push_str("\n## How the forecast was chosen\n\n");
    s.push_str(&format!(
        "Each candidate below is judged on the predictions it could make (a fitted model that fails\n\
         on a cut makes none there) by its **score**: the pooled median\n\
         error plus the 80th percentile of the {n_sources} sources' median errors (lower is better), so that\n\
         neither the sources with the most predictions nor the average source alone decide. The winner\n\
         on every source is **{}**. Chosen in turn on all sources but one and applied to the one held\n\
         out, the choice (\"folds won\" says which candidate each fold chose) gives a median of {}, a 90th\n\
         percentile of {}, an 80th percentile of source medians of {} and a score of {}: what the\n\
         choice itself is worth on sources it never saw. The node-aware variants change only the\n\
         {} predictions (from {} sources) whose runs all sat in one node while the predicted count\n\
         needs more; so few that their scores differ from their rule's by little.\n\n",
        winner.name,
        pct(sel.nested.median_rel_error),
        pct(sel.nested.p90_rel_error),
        pct(sel.nested.source_p80),
        fmt_num(sel.nested.score, 3),
        node_leavers.len(),
        validation::sources(node_leavers).len()
    ));
    if winner.law != candidates::calculators() {
        s.push_str(&format!(
            "**The calculator's forecast ({}) is not the winner: run `make validate` after setting `forecast::RULE` and `forecast::ACROSS_NODES` to it.**\n\n",
            candidates::calculators().name()
        ));
    }
    s.push_str("| candidate | predictions | median error | 90th percentile | 80th pct. of source medians | worst source | score | folds won |\n|---|---|---|---|---|---|---|---|\n");
    let mut order: Vec<usize> = (0..sel.scored.len()).collect();
    order.sort_by(|&a, &b| sel.scored[a].headline.score.total_cmp(&sel.scored[b].headline.score));
    for i in order {
        let c = &sel.scored[i];
        let name = if i == sel.winner { format!("**{}**", c.name) } else { c.name.clone() };
        s.push_str(&format!("| {name} | {} | {} |\n", headline_cells(&c.headline), c.folds_won));
    }
}

/// The forecast's median error per source.
fn sources_markdown(fc: &[Outcome], s: &mut String) {
    s.push_str("\n## Sources\n\n");
    s.push_str("The forecast's median error per source, over all its predictions (K = 3 and 4, every horizon), the worst first.\n\n");
    s.push_str("| source | series | predictions | median error |\n|---|---|---|---|\n");
    for f in validation::per_source(fc) {
        s.push_str(&format!("| {} | {} | {} | {} |\n", f.source, f.series, f.predictions, pct(f.median_rel_error)));
    }
}

/// Ranges on held-out sources: per cell, per weighting, per scale, per predictor.
fn ranges_markdown(r: &Report, fc: &[Outcome], node_leavers: &[Outcome], s: &mut String) {
    s.push_str("\n## Ranges on held-out sources\n\n");
    s.push_str(
        "The forecast's, per number of measured counts and horizon band: inside range (predictions), median width.\n\n",
    );
    s.push_str("| measured counts | ≤ 2 | 2–4 | 4–16 | > 16 |\n|---|---|---|---|---|\n");
    for (class, row) in validation::coverage_by_cell(fc).iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|(c, n, w)| format!("{} ({n}), {}", pct(*c), pct(*w))).collect();
        s.push_str(&format!("| {} | {} |\n", CLASSES[class], cells.join(" | ")));
    }
    s.push_str(&held_markdown(r));
    let (nc, nn) = validation::node_coverage(fc);
    let factor = r.bands.iter().find(|(n, _)| n == FORECAST).and_then(|(_, b)| *b).map_or(1.0, |b| b.node_factor);
    s.push_str(&format!(
        "\nPredictions that leave the one node of their runs: {} of {nn} inside their ranges, widened by\n\
         a factor {} on the scale (set on all sources; each source's own is set on the others). Too few\n\
         (from {} sources) for a firm figure.\n",
        pct(nc),
        fmt_num(factor, 3),
        validation::sources(node_leavers).len()
    ));
    s.push_str(
        "\nHow the predictions are weighted when the percentiles are taken decides where the ranges hold.\n\
         Inside range on held-out sources, pooled per cell (K = 3, then 4; bands ≤ 2, 2–4, 4–16, > 16) and\n\
         per corpus (all horizons, K = 3 / 4); the calculator's weighting in bold:\n\n",
    );
    s.push_str("| weighting | pooled, K = 3 | pooled, K = 4 |");
    for c in &r.corpora {
        s.push_str(&format!(" {} |", c.file.rsplit('/').next().unwrap_or(&c.file)));
    }
    s.push_str(&format!("\n|---|---|---|{}\n", "---|".repeat(r.corpora.len())));
    for (w, o) in &r.weightings {
        let name = match w {
            Weighting::Prediction => "each prediction alike",
            Weighting::SqrtSource => "each source by the root of its predictions",
            Weighting::Source => "each source alike",
        };
        let name = if *w == validation::WEIGHTING { format!("**{name}**") } else { name.to_string() };
        let cells = validation::coverage_by_cell(o);
        let row = |class: usize| cells[class].iter().map(|c| fmt_num(100.0 * c.0, 3)).collect::<Vec<_>>().join(", ");
        s.push_str(&format!("| {name} | {} | {} |", row(0), row(1)));
        for ci in 0..r.corpora.len() {
            let share = |k: usize| {
                let inside: Vec<bool> =
                    o.iter().filter(|x| x.file == ci && x.k == k).filter_map(Outcome::inside).collect();
                fmt_num(100.0 * inside.iter().filter(|&&b| b).count() as f64 / inside.len().max(1) as f64, 3)
            };
            s.push_str(&format!(" {} / {} |", share(3), share(4)));
        }
        s.push('\n');
    }
    s.push_str(
        "\nThe scale u decides how ranges differ between predictions at one horizon. Median width on\n\
         held-out sources per cell (K = 3, then 4; inside range in brackets), for other scales:\n\n",
    );
    s.push_str("| scale u | K = 3: ≤ 2, 2–4, 4–16, > 16 | K = 4 |\n|---|---|---|\n");
    for (name, cells) in &r.scales {
        let row = |class: usize| {
            cells[class]
                .iter()
                .map(|c| format!("{} ({})", fmt_num(100.0 * c.2, 3), fmt_num(100.0 * c.0, 3)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        s.push_str(&format!("| {name} | {} | {} |\n", row(0), row(1)));
    }
    s.push_str("\nEvery predictor, per horizon band (both values of K):\n\n");
    s.push_str(&format!("| predictor | {} | all |\n|---|---|---|---|---|---|\n", BANDS.join(" | ")));
    for (name, by, share, n) in held_out_rows(r) {
        let cells: Vec<String> = by.iter().map(|(c, k)| format!("{} ({k})", pct(*c))).collect();
        s.push_str(&format!("| {name} | {} | {} ({n}) |\n", cells.join(" | "), pct(share)));
    }
}

/// The limits: what the figures cannot say.
fn limits_markdown(r: &Report, fc: &[Outcome], s: &mut String) {
    let sel = &r.selection;
    let best_p90 = sel.scored.iter().map(|c| c.headline.p90_rel_error).fold(f64::INFINITY, f64::min);
    let best_median = sel.scored.iter().map(|c| c.headline.median_rel_error).fold(f64::INFINITY, f64::min);
    let far: Vec<&Outcome> = fc.iter().filter(|o| o.horizon > 16.0).collect();
    let slower = far.iter().filter(|o| o.measured_s > o.predicted.time_s).count();
    s.push_str(&format!(
        "\n## Limits\n\n\
         - Over all horizons pooled, the lowest median error of any candidate is {} and the lowest\n\
           90th percentile {} (the issue's targets: 15 % and 60 %). Beyond 16 times the largest\n\
           measured count, {} of the forecast's {} measured times are slower than it predicted: most\n\
           series there have stopped scaling, often past a peak, and three or four small runs do not\n\
           say where.\n",
        pct(best_median),
        pct(best_p90),
        pct(slower as f64 / far.len().max(1) as f64),
        far.len()
    ));
    s.push_str(&twins_markdown(&r.twins));
    s.push_str(
        "\
         - Most predictions come from thread sweeps that run every count up to a whole node (one\n\
           course's student repositories): pooled figures per prediction lean on them; the\n\
           per-source figures and the score do not.\n\
         - `strong_scaling_more.csv` holds the series chosen because simple laws fail on them; its\n\
           node counts are not given (WAVETRISK), so the node-aware range cannot help there.\n\
         - Node-leaving predictions are few, so their factor and its track record are rough.\n\
         - Beyond 16 times the largest measured count, eleven sources (3 measured counts) and ten\n\
           (4) reach that far, seven of the eleven in one fifth of the sources: set on the other\n\
           four, that band would rest on four sources. A band's range is never narrower than the\n\
           nearer band's (`validation::Held`), which is what holds it on the fifth left out.\n\
         - Only strong scaling of whole runs or time steps: no weak scaling, no I/O-bound runs.\n\
         - A median hides the failures: the 90th percentile is the figure to read for risk.\n\
         - Ranges were measured on predictions from 3 or 4 points; with more points they are\n\
           likely wider than they need to be.\n",
    );
}

/// The splits the forecast's held-out coverage is reported on: (name, outcomes).
fn held_splits(r: &Report) -> [(&'static str, &[Outcome]); 2] {
    [("each source held out in turn", forecast_outcomes(r)), ("a fifth of the sources never seen", &r.fifths)]
}

/// The forecast's coverage per horizon band on sources held out of the calibration, each
/// source alike and pooled, on both splits; and the tails the calibration chose.
fn held_markdown(r: &Report) -> String {
    let mut s = format!(
        "\nThe same ranges per horizon band, with each held-out source counted alike (its share inside, averaged\n\
         over sources) and pooled over predictions: sources alike / pooled (predictions, sources). Two splits:\n\
         each source held out in turn, and each of {} fixed parts of the sources (by a hash of the source's\n\
         name, `validation::fifth`) held out whole, the ranges set on the other parts alone.\n\n",
        validation::FIFTHS
    );
    s.push_str(&format!("| split | measured counts | {} | all |\n|---|---|---|---|---|---|---|\n", BANDS.join(" | ")));
    for (name, o) in held_splits(r) {
        for (class, row) in validation::held_coverage(o).iter().enumerate() {
            let cells: Vec<String> = row
                .iter()
                .map(|c| {
                    format!(
                        "{} / {} ({}, {})",
                        pct(c.coverage_sources_alike),
                        pct(c.coverage),
                        c.predictions,
                        c.sources
                    )
                })
                .collect();
            s.push_str(&format!("| {name} | {} | {} |\n", CLASSES[class], cells.join(" | ")));
        }
    }
    if let Some(b) = r.bands.iter().find(|(n, _)| n == FORECAST).and_then(|(_, b)| *b) {
        let row = |class: usize| b.tails[class].iter().map(|t| pct(*t)).collect::<Vec<_>>().join(", ");
        s.push_str(&format!(
            "\nEach cell's quantiles leave out the largest tail each side, {} at most and {} at least, at\n\
             which the cell's sources, each held out in turn from the others' quantiles, hold {} on average\n\
             (`validation::held_tail`): K = 3: {}; K = 4: {}.\n",
            pct(forecast::TAIL),
            pct(validation::MIN_TAIL),
            pct(forecast::LEVEL),
            row(0),
            row(1)
        ));
    }
    s
}

/// The Limits bullet on series the measured runs cannot tell apart.
fn twins_markdown(t: &[twins::Summary]) -> String {
    let of = |k: usize| t.iter().find(|s| s.k == k);
    let count = |k: usize, apart: bool| of(k).map_or(0, |s| if apart { s.apart } else { s.pairs });
    let mut s = format!(
        "- The measured runs do not always tell. Take pairs of series from different sources, measured\n\
           at the same counts, whose first K times agree in shape within {} (each time over the time at\n\
           the largest count; `validation::twins`), and compare them at each larger count both measured:\n\
           {} such pairs of predictions for K = 3, {} for K = 4. In {} and {} of them the two times part\n\
           by more than {}×: one prediction made for both is then more than {} off on one of them,\n\
           whatever the rule.",
        pct(TWIN_TOLERANCE),
        count(3, false),
        count(4, false),
        count(3, true),
        count(4, true),
        fmt_num(TWIN_APART, 2),
        pct(least_error(TWIN_APART)),
    );
    for k in KS {
        if let Some(w) = of(k).and_then(|s| s.widest.as_ref()) {
            s.push_str(&format!(
                "\n  Widest for K = {k}: `{}` and `{}` at n = {}, {}× apart (at least {} off on one).",
                w.series.0,
                w.series.1,
                w.n,
                fmt_num(w.ratio, 3),
                pct(w.least_error())
            ));
        }
    }
    s.push('\n');
    s
}

// The answer of `scalewise validate` as records. It is written through a JSON value, so its
// keys come sorted whatever the order of the fields here.

#[derive(Serialize)]
struct ValidateAnswer<'a> {
    by_count: Vec<CountRow>,
    candidates: Vec<CandidateOut<'a>>,
    corpora: Vec<CorpusOut<'a>>,
    held_out: Vec<HeldOutOut<'a>>,
    held_out_by_horizon: Vec<HeldSplitOut>,
    level: f64,
    node_crossing: NodeCrossing,
    pooled: PooledOut<'a>,
    selection: SelectionOut<'a>,
    sources: Vec<validation::SourceFigures>,
    twin_apart: f64,
    twin_tolerance: f64,
    twins: Vec<TwinsOut<'a>>,
}

#[derive(Serialize)]
struct RunOut<'a> {
    horizons: &'a [Summary],
    k: usize,
    missed: usize,
    predictor: &'a str,
}

#[derive(Serialize)]
struct CorpusOut<'a> {
    file: &'a str,
    runs: Vec<RunOut<'a>>,
    series: usize,
}

#[derive(Serialize)]
struct PooledOut<'a> {
    runs: Vec<RunOut<'a>>,
    series: usize,
}

/// Coverage up to a horizon (`up_to` null: every horizon).
#[derive(Serialize)]
struct UpTo {
    coverage: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    median_rel_width: Option<f64>,
    predictions: usize,
    up_to: Option<f64>,
}

#[derive(Serialize)]
struct HeldOutOut<'a> {
    by_horizon: Vec<UpTo>,
    coverage: f64,
    predictions: usize,
    predictor: &'a str,
}

#[derive(Serialize)]
struct CountRow {
    by_horizon: Vec<UpTo>,
    counts: &'static str,
}

#[derive(Serialize)]
struct BandOut {
    coverage: f64,
    coverage_sources_alike: f64,
    horizon: &'static str,
    median_rel_width: f64,
    predictions: usize,
    sources: usize,
}

#[derive(Serialize)]
struct HeldCountOut {
    by_horizon: Vec<BandOut>,
    counts: &'static str,
}

#[derive(Serialize)]
struct HeldSplitOut {
    by_count: Vec<HeldCountOut>,
    split: &'static str,
}

#[derive(Serialize)]
struct NodeCrossing {
    coverage: f64,
    factor: f64,
    predictions: usize,
}

#[derive(Serialize)]
struct CandidateOut<'a> {
    folds_won: usize,
    median_rel_error: f64,
    missed: usize,
    name: &'a str,
    p90_rel_error: f64,
    predictions: usize,
    score: f64,
    source_p80: f64,
    worst_source: f64,
}

#[derive(Serialize)]
struct SelectionOut<'a> {
    calculators: String,
    nested: validation::Headline,
    winner: &'a str,
}

#[derive(Serialize)]
struct WidestOut<'a> {
    least_rel_error: f64,
    n: u32,
    ratio: f64,
    series: [&'a str; 2],
}

#[derive(Serialize)]
struct TwinsOut<'a> {
    apart: usize,
    k: usize,
    pairs: usize,
    widest: Option<WidestOut<'a>>,
}

fn runs_out(c: &Corpus) -> Vec<RunOut<'_>> {
    c.runs
        .iter()
        .map(|run| RunOut { horizons: &run.summary, k: run.k, missed: run.missed, predictor: &run.predictor })
        .collect()
}

/// The report's answer, written ([`super::emit`]).
fn emit_answer(r: &Report) -> Result<(), super::WriteError> {
    let fc = forecast_outcomes(r);
    let sel = &r.selection;
    let (nc, nn) = validation::node_coverage(fc);
    let factor = r.bands.iter().find(|(n, _)| n == FORECAST).and_then(|(_, b)| *b).map_or(1.0, |b| b.node_factor);
    let up_to = |top: f64| top.is_finite().then_some(top);
    let held_out = held_out_rows(r);
    let answer = ValidateAnswer {
        by_count: validation::coverage_by_cell(fc)
            .iter()
            .zip(CLASSES)
            .map(|(row, counts)| CountRow {
                by_horizon: row
                    .iter()
                    .zip(calibration::HORIZON_TOPS)
                    .map(|(&(coverage, predictions, w), top)| UpTo {
                        coverage,
                        median_rel_width: Some(w),
                        predictions,
                        up_to: up_to(top),
                    })
                    .collect(),
                counts,
            })
            .collect(),
        candidates: sel
            .scored
            .iter()
            .map(|c| CandidateOut {
                folds_won: c.folds_won,
                median_rel_error: c.headline.median_rel_error,
                missed: c.missed,
                name: &c.name,
                p90_rel_error: c.headline.p90_rel_error,
                predictions: c.headline.predictions,
                score: c.headline.score,
                source_p80: c.headline.source_p80,
                worst_source: c.headline.worst_source,
            })
            .collect(),
        corpora: r.corpora.iter().map(|c| CorpusOut { file: &c.file, runs: runs_out(c), series: c.series }).collect(),
        held_out: held_out
            .iter()
            .map(|(name, by, coverage, predictions)| HeldOutOut {
                by_horizon: by
                    .iter()
                    .zip(calibration::HORIZON_TOPS)
                    .map(|(&(coverage, predictions), top)| UpTo {
                        coverage,
                        median_rel_width: None,
                        predictions,
                        up_to: up_to(top),
                    })
                    .collect(),
                coverage: *coverage,
                predictions: *predictions,
                predictor: name,
            })
            .collect(),
        held_out_by_horizon: held_splits(r)
            .iter()
            .map(|(split, o)| HeldSplitOut {
                by_count: validation::held_coverage(o)
                    .iter()
                    .zip(CLASSES)
                    .map(|(row, counts)| HeldCountOut {
                        by_horizon: row
                            .iter()
                            .zip(BANDS.iter().chain(&["all"]))
                            .map(|(c, horizon)| BandOut {
                                coverage: c.coverage,
                                coverage_sources_alike: c.coverage_sources_alike,
                                horizon,
                                median_rel_width: c.median_rel_width,
                                predictions: c.predictions,
                                sources: c.sources,
                            })
                            .collect(),
                        counts,
                    })
                    .collect(),
                split,
            })
            .collect(),
        level: forecast::LEVEL,
        node_crossing: NodeCrossing { coverage: nc, factor, predictions: nn },
        pooled: PooledOut { runs: runs_out(&r.pooled), series: r.pooled.series },
        selection: SelectionOut {
            calculators: candidates::calculators().name(),
            nested: sel.nested,
            winner: &sel.scored[sel.winner].name,
        },
        sources: validation::per_source(fc),
        twin_apart: TWIN_APART,
        twin_tolerance: TWIN_TOLERANCE,
        twins: KS
            .iter()
            .map(|&k| {
                let of_k = r.twins.iter().find(|s| s.k == k);
                TwinsOut {
                    apart: of_k.map_or(0, |s| s.apart),
                    k,
                    pairs: of_k.map_or(0, |s| s.pairs),
                    widest: of_k.and_then(|s| s.widest.as_ref()).map(|w| WidestOut {
                        least_rel_error: w.least_error(),
                        n: w.n,
                        ratio: w.ratio,
                        series: [&w.series.0, &w.series.1],
                    }),
                }
            })
            .collect(),
    };
    super::emit(&mut super::Out, &answer, false)
}

/// Runs the subcommand with the arguments after `validate`; returns the exit status.
pub fn run(args: &[String]) -> i32 {
    let mut files: Vec<&str> = Vec::new();
    let mut groups_file: Option<&str> = None;
    let mut md = false;
    let mut cal = false;
    let mut transfer = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--help" | "-h" => {
                return super::written("validate", super::write_out(HELP));
            }
            "--markdown" => md = true,
            "--calibration" => cal = true,
            "--transfer" => transfer = true,
            "--compact" => {}
            "--groups" => match it.next() {
                Some(f) => groups_file = Some(f),
                None => {
                    eprintln!("scalewise validate: --groups needs a file; see 'scalewise validate --help'");
                    return 2;
                }
            },
            other if other.starts_with("--") => {
                eprintln!("scalewise validate: unknown option '{other}'; see 'scalewise validate --help'");
                return 2;
            }
            other => files.push(other),
        }
    }
    // The default corpora are named relative to the repository, found from any directory.
    let mut root = std::path::PathBuf::new();
    if transfer {
        // The pairs and machines files are the repository's; corpora named are read as given.
        let found = match repository_root() {
            Ok(r) => r,
            Err(e) => {
                eprintln!("scalewise validate: {}", super::said(&e));
                return 1;
            }
        };
        let corpora: Vec<String> = if files.is_empty() {
            DEFAULT_CORPORA
                .iter()
                .filter(|f| found.join(f).exists())
                .map(|f| found.join(f).display().to_string())
                .collect()
        } else {
            files.iter().map(|f| f.to_string()).collect()
        };
        let corpora: Vec<&str> = corpora.iter().map(String::as_str).collect();
        return super::transfer_validate::run(&found, &corpora, md, cal);
    }
    if files.is_empty() {
        root = match repository_root() {
            Ok(r) => r,
            Err(e) => {
                eprintln!("scalewise validate: {}", super::said(&e));
                return 1;
            }
        };
        files =
            DEFAULT_CORPORA.iter().copied().filter(|f| f.starts_with("validation/") || root.join(f).exists()).collect();
    }
    if groups_file.is_none() && root.join(DEFAULT_GROUPS).exists() {
        groups_file = Some(DEFAULT_GROUPS);
    }
    let read = |f: &str| {
        let path = root.join(f);
        let cannot = |e: &dyn std::fmt::Display| unplaced(format!("cannot read '{}': {e}", path.display()));
        // A file larger than a corpus may be is refused before it is read.
        match std::fs::metadata(&path) {
            Ok(m) if m.len() > corpus::MAX_BYTES as u64 => {
                return Err(InputError::new(
                    f,
                    format!("{} bytes is more than the {} a corpus may hold", m.len(), corpus::MAX_BYTES),
                ))
            }
            Err(e) => return Err(cannot(&e)),
            Ok(_) => {}
        }
        std::fs::read_to_string(&path).map_err(|e| cannot(&e))
    };
    let mut texts = Vec::new();
    for f in files {
        match read(f) {
            Ok(t) => texts.push((f.to_string(), t)),
            Err(e) => {
                eprintln!("scalewise validate: {}", super::said(&e));
                return 1;
            }
        }
    }
    let groups = match groups_file {
        None => Vec::new(),
        Some(f) => match read(f).and_then(|t| corpus::read_groups(f, &t)) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("scalewise validate: {}", super::said(&e));
                return 1;
            }
        },
    };
    let report = match evaluate(&texts, &groups) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("scalewise validate: {}", super::said(&e));
            return 1;
        }
    };
    if cal {
        return match calibration_source(&report) {
            Ok(s) => super::written("validate", super::write_out(&s)),
            Err(e) => {
                eprintln!("scalewise validate: {}", super::said(&e));
                1
            }
        };
    }
    if md {
        super::written("validate", super::write_out(&markdown(&report)))
    } else {
        super::written("validate", emit_answer(&report))
    }
}

/// The repository whose `validation/corpus.csv` the default corpora are relative to: the
/// working directory or the nearest folder above it holding one, else the source tree this
/// command was built from; or an error naming every place looked in.
fn repository_root() -> Result<std::path::PathBuf, InputError> {
    let marker = DEFAULT_CORPORA[0];
    let mut looked = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        for dir in cwd.ancestors() {
            if dir.join(marker).is_file() {
                return Ok(dir.to_path_buf());
            }
        }
        looked.push(format!("{} and the folders above it", cwd.display()));
    }
    let built = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if built.join(marker).is_file() {
        return Ok(built);
    }
    looked.push(built.display().to_string());
    Err(unplaced(format!("no corpus given, and no {marker} in {}; name the corpus files", looked.join(" or in "))))
}

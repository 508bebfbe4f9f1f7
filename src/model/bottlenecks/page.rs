//! The "Bottlenecks at scale" page (`bottlenecks.html`): its input texts (saved under the
//! keys below; before workspace format 2 they were the speed-up page's) to what it shows. The experiment is
//! read by [`super::parse`] and planned by [`super::plan`] ([`prepare`]); the regions are
//! fitted by [`super::fit_regions`], in any split (the page's Web Workers fit a share each),
//! and [`complete`] ranks them; the chart's curves are each region's predicted share against
//! n, from the same fits. [`view`] is the three on one thread.

use super::{
    fit_regions, parse, parse_targets, plan, process_index, Experiment, Format, Plan, RankOptions, Ranking, RegionFit,
    SideChoice, MAX_TARGETS,
};
use crate::model::chart::Series;
use crate::model::input::list::clip;
use crate::model::speedup::weak;
use crate::model::workspace::PageInputs;
use crate::model::{fmt_num, InputError};

/// The page's name in the workspace (`model::calculators::BOTTLENECKS`).
pub const PAGE: &str = "bottlenecks";

/// The page's saved inputs' keys (kept from the speed-up page, where they were before
/// workspace format 2).
pub const KEY_TEXT: &str = "extrap_text";
pub const KEY_PREDICT: &str = "extrap_predict";
pub const KEY_HOLD: &str = "extrap_hold";
pub const KEY_METRIC: &str = "extrap_metric";
/// The parameter that is the process count (empty: guessed from the names).
pub const KEY_PROCESS: &str = "extrap_process";
/// The chart shows this many regions by name; the rest are summed.
pub const CHART_REGIONS: usize = 7;

/// Each shown region's share against n (and "other regions"), one series each.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ShareCurves {
    pub process_parameter: String,
    pub curves: Vec<Series>,
}

#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct ExtrapView {
    /// Nothing pasted yet.
    pub empty: bool,
    pub format: Option<Format>,
    pub parameters: Vec<String>,
    /// The file's metrics, in the order first seen, for the choice of one.
    #[serde(default)]
    pub metrics: Vec<String>,
    /// The parameter the ranking takes as the process count (named, or guessed).
    #[serde(default)]
    pub process_parameter: Option<String>,
    /// The second parameter's values, for the choice of one.
    pub side_values: Vec<f64>,
    /// Errors by key (the experiment's with line and column).
    pub errors: Vec<(String, InputError)>,
    pub ranking: Option<Ranking>,
    pub chart: Option<ShareCurves>,
}

/// The page's examples: (key, name, description, the experiment's text). The solver is
/// tests/data/extrap/app.txt (written by scripts/extrap-fixtures.py), the call tree
/// tests/data/extrap/calltree.txt (scripts/extrap-calltree.py).
/// (RELeARN's two parameters, 8.7 KB, would take the page over its size budget.)
const EXAMPLES: [(&str, &str, &str, &str); 2] = [
    (
        "solver",
        "a solver of 24 regions",
        "An invented solver's regions at p = 2 to 64, five repetitions each, generated from known laws with noise (not a measurement)",
        include_str!("../../../tests/data/extrap/app.txt"),
    ),
    (
        "calltree",
        "a call tree",
        "A call tree of known laws with inclusive times, generated (not a measurement)",
        include_str!("../../../tests/data/extrap/calltree.txt"),
    ),
];

/// The page's examples, each an experiment to rank as loaded.
pub fn presets() -> Vec<crate::model::workspace::Preset> {
    EXAMPLES
        .iter()
        .map(|&(key, name, description, text)| crate::model::workspace::Preset {
            key,
            name,
            description,
            inputs: [(KEY_TEXT.to_string(), text.to_string())].into_iter().collect(),
        })
        .collect()
}

/// The page's inputs before the user types: the first example, ranked at 4× and 16× its
/// largest count.
pub fn default_inputs() -> PageInputs {
    [(KEY_TEXT.to_string(), EXAMPLES[0].3.to_string())].into_iter().collect()
}

fn get<'a>(t: &'a PageInputs, k: &str) -> &'a str {
    t.get(k).map(String::as_str).unwrap_or("")
}

/// Each shown region's share against n, by the ranking's own rule (`tree.rs`: own time, or
/// inclusive share of the top level where children add up to more than their parent; a
/// parent never added to its children), and the rest as "other regions" when the shares are
/// of own time (inclusive shares nest, so they have no rest).
fn curves(r: &Ranking) -> Option<ShareCurves> {
    let side = r.targets.first()?.side;
    let counted = |i: usize| r.regions[i].error.is_none() && Some(i) != r.tree.left_out;
    let ids: Vec<usize> = (0..r.regions.len()).filter(|&i| counted(i)).collect();
    let table = r.tables.iter().rev().find(|t| t.side == side)?;
    let shown: Vec<usize> = table.rows.iter().map(|s| s.region).take(CHART_REGIONS).collect();
    let mut out: Vec<Series> =
        shown.iter().map(|&i| Series { label: r.regions[i].callpath.clone(), points: Vec::new() }).collect();
    let mut other = Vec::new();
    for &n in &r.chart_ns {
        let times: Vec<Option<f64>> = (0..r.regions.len())
            .map(|i| if r.regions[i].error.is_none() { r.regions[i].curve_at(n).map(|c| c.0) } else { None })
            .collect();
        let Some(split) = r.shares_of(&times) else { continue };
        if !split.total.is_finite() {
            continue;
        }
        let x = f64::from(n);
        for (k, &i) in shown.iter().enumerate() {
            if let Some(s) = split.share.get(i).copied().flatten() {
                out[k].points.push((x, s));
            }
        }
        let rest: f64 =
            ids.iter().filter(|i| !shown.contains(i)).filter_map(|&i| times[i]).map(|t| t * split.scale).sum();
        other.push((x, rest / split.total));
    }
    if ids.len() > shown.len() && !r.tree.by_inclusive() {
        out.push(Series { label: format!("{} other regions", ids.len() - shown.len()), points: other });
    }
    Some(ShareCurves { process_parameter: r.process_parameter.clone(), curves: out })
}

/// What the section shows for its texts, on this thread.
pub fn view(texts: &PageInputs) -> ExtrapView {
    match prepare(texts) {
        (v, Some(p)) => {
            let fits = fit_regions(&p, 0..p.len());
            complete(v, p, fits)
        }
        (v, None) => v,
    }
}

/// Reads the texts and plans the ranking: the view so far (format, parameters, metrics,
/// errors) and the plan, None when there is nothing to fit (no text, or an error).
pub fn prepare(texts: &PageInputs) -> (ExtrapView, Option<Plan>) {
    let text = get(texts, KEY_TEXT);
    if text.trim().is_empty() {
        return (ExtrapView { empty: true, ..ExtrapView::default() }, None);
    }
    match parse(text) {
        Ok(e) => prepare_parsed(texts, &e),
        Err(err) => (ExtrapView { errors: vec![(KEY_TEXT.into(), err)], ..ExtrapView::default() }, None),
    }
}

/// [`prepare`] of an experiment already read from the texts' experiment (the page's worker
/// keeps it while only the other texts change). Each error goes to the field it concerns
/// (a metric or parameter not in the file, a point of the wrong length, a hold value of 0);
/// with any error there is no plan, so nothing is ranked at what was not asked.
pub fn prepare_parsed(texts: &PageInputs, e: &Experiment) -> (ExtrapView, Option<Plan>) {
    let mut v = ExtrapView { format: Some(e.format), parameters: e.parameters.clone(), ..ExtrapView::default() };
    v.metrics = e.metrics().into_iter().map(String::from).collect();
    let mut opts = RankOptions::default();
    let metric = get(texts, KEY_METRIC).trim();
    if !metric.is_empty() {
        if v.metrics.iter().any(|m| m == metric) {
            opts.metric = Some(metric.to_string());
        } else {
            let message = format!("no metric \"{}\" in this experiment; it has {}", clip(metric), v.metrics.join(", "));
            v.errors.push((KEY_METRIC.into(), InputError::new("metric", message)));
        }
    }
    let named = get(texts, KEY_PROCESS).trim();
    let pi = match process_index(&e.parameters, (!named.is_empty()).then_some(named)) {
        Ok(pi) => {
            opts.process_parameter = (!named.is_empty()).then(|| named.to_string());
            pi
        }
        Err(_) => {
            let message =
                format!("no parameter \"{}\" in this experiment; it has {}", clip(named), e.parameters.join(", "));
            v.errors.push((KEY_PROCESS.into(), InputError::new("process count", message)));
            process_index(&e.parameters, None).unwrap_or(0)
        }
    };
    v.process_parameter = e.parameters.get(pi).cloned();
    let si = (0..e.parameters.len()).find(|&i| i != pi);
    match parse_targets("rank at", get(texts, KEY_PREDICT)) {
        Ok((ns, points)) if !(ns.is_empty() && points.is_empty()) => {
            if let Some(p) = points.iter().find(|p| p.len() != e.parameters.len()) {
                let message = format!(
                    "a whole point needs {} values, one per parameter ({}), found {}",
                    e.parameters.len(),
                    e.parameters.join(":"),
                    p.len()
                );
                v.errors.push((KEY_PREDICT.into(), InputError::new("rank at", message)));
            }
            (opts.targets, opts.points) = (ns, points)
        }
        Ok(_) => {
            let top = e.values_of(pi).last().copied().unwrap_or(1.0).clamp(1.0, 1e7) as u32;
            opts.targets = vec![top * 4, top * 16];
        }
        Err(err) => v.errors.push((KEY_PREDICT.into(), err)),
    }
    opts.side = match get(texts, KEY_HOLD).trim() {
        "" | "largest" => SideChoice::Largest,
        "per-value" => SideChoice::PerValue,
        x => match x.parse::<f64>() {
            Ok(f) if f.is_finite() && f > 0.0 => SideChoice::Value(f),
            _ => {
                v.errors.push((
                    KEY_HOLD.into(),
                    InputError::new(
                        "hold",
                        format!("expected a value above 0, largest or per-value, found \"{}\"", clip(x)),
                    ),
                ));
                SideChoice::Largest
            }
        },
    };
    let sides = match (&opts.side, si) {
        (SideChoice::PerValue, Some(si)) => e.values_of(si).len(),
        _ => 1,
    };
    let asked = opts.targets.len() * sides + opts.points.len();
    if asked > MAX_TARGETS {
        let message = format!("{asked} points to rank at (with each value of the second parameter) is more than the {MAX_TARGETS} ranked at once");
        v.errors.push((KEY_PREDICT.into(), InputError::new("rank at", message)));
    }
    if !v.errors.is_empty() {
        return (v, None);
    }
    match plan(e, &opts) {
        Ok(p) => {
            v.side_values = si.map(|si| e.values_of(si)).unwrap_or_default();
            (v, Some(p))
        }
        Err(err) => {
            v.errors.push((KEY_TEXT.into(), err));
            (v, None)
        }
    }
}

/// The texts a ranking's fits depend on: the experiment, the metric and the process count.
/// Between two rankings whose texts differ only in the others ("rank at", the value held),
/// the fits are evaluated again ([`super::retarget`]), not searched again.
pub fn fit_key(texts: &PageInputs) -> PageInputs {
    [KEY_TEXT, KEY_METRIC, KEY_PROCESS]
        .iter()
        .filter_map(|k| texts.get(*k).map(|v| (k.to_string(), v.clone())))
        .collect()
}

/// The view of [`prepare`] with the plan's regions fitted (`fits`: every region of the plan,
/// in its order, however the fits were split).
pub fn complete(mut v: ExtrapView, p: Plan, fits: Vec<RegionFit>) -> ExtrapView {
    match super::finish(p, fits) {
        Ok(r) => {
            v.chart = curves(&r);
            v.ranking = Some(r);
        }
        Err(err) => v.errors.push((KEY_TEXT.into(), err)),
    }
    v
}

/// A region's points as the speed-up calculator's table ("n time (s)" rows), to load there:
/// with several parameters, those at the other values the chart holds.
pub fn points_table(r: &Ranking, region: usize) -> Option<String> {
    let f = r.regions.get(region)?;
    let mut s = String::from("n\ttime (s)\n");
    let held = |c: &[f64]| c.iter().zip(&r.base).enumerate().all(|(j, (a, b))| j == r.process_index || a == b);
    for p in f.points.iter().filter(|p| held(&p.coords)) {
        s.push_str(&format!("{}\t{}\n", p.n, p.median));
    }
    Some(s)
}

/// The speed-up page's inputs for region `i`: its points ([`points_table`]) as times, the
/// ranking's process counts as targets; a region whose time grows (which none of the speed-up
/// models can follow: they fall or level off) opens as a series whose time is modelled, with
/// the region sent along ([`weak::region_text`]) so that page models it as this one does.
pub fn speedup_inputs(r: &Ranking, i: usize) -> Option<PageInputs> {
    use crate::model::speedup::page::{default_inputs, Field};
    use crate::model::workspace::PageField;
    let table = points_table(r, i)?;
    let mut ns: Vec<u32> = r.targets.iter().map(|t| t.n).collect();
    ns.sort_unstable();
    ns.dedup();
    let targets: Vec<String> = ns.iter().map(u32::to_string).collect();
    let mut inputs = default_inputs();
    inputs.insert(Field::Points.key().into(), table);
    inputs.insert(Field::SecondColumn.key().into(), "time".into());
    inputs.insert(Field::Target.key().into(), targets.join(", "));
    if let Some(sent) = r
        .regions
        .get(i)
        .filter(|f| f.grows)
        .map(|f| weak::region_text(&f.callpath, &r.parameters, r.process_index, &r.base, &f.points))
    {
        inputs.insert(Field::Scaling.key().into(), "weak".into());
        inputs.insert(weak::REGION_KEY.into(), sent);
    }
    Some(inputs)
}

/// Most rows and columns of the heat map.
pub const HEAT_ROWS: usize = 8;
pub const HEAT_COLUMNS: usize = 10;

/// One cell of the heat map: the predicted time, the region that takes the most of it and
/// that region's share (or, for one region's map, that region's share).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Cell {
    pub time_s: f64,
    pub top: usize,
    pub share: f64,
}

/// Predicted time over the process count (columns) and the second parameter (rows), any
/// further parameters held as for the first target.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HeatMap {
    pub x_name: String,
    pub y_name: String,
    pub xs: Vec<f64>,
    pub ys: Vec<f64>,
    /// Row by row, one per y; None where no region has a prediction.
    pub cells: Vec<Vec<Option<Cell>>>,
    /// Said when rows leave out measured values of y (more than [`HEAT_ROWS`] of them):
    /// how many are shown of how many, and which are left out.
    #[serde(default)]
    pub note: Option<String>,
}

/// At most `most` of `v`, evenly picked, the first and last kept.
fn thin(v: Vec<f64>, most: usize) -> Vec<f64> {
    if v.len() <= most || most < 2 {
        return v;
    }
    (0..most).map(|i| v[i * (v.len() - 1) / (most - 1)]).collect()
}

/// The heat map of all regions' time (`region` None: the total the ranking's shares are of,
/// its dominant region and that one's share) or of one region's, for an experiment of two
/// parameters or more; None for one parameter.
pub fn heat_map(r: &Ranking, region: Option<usize>) -> Option<HeatMap> {
    let (pi, d) = (r.process_index, r.parameters.len());
    let si = (0..d).find(|&j| j != pi)?;
    let mut measured: Vec<f64> =
        r.regions.iter().flat_map(|f| f.points.iter().filter_map(|p| p.coords.get(si).copied())).collect();
    measured.sort_by(f64::total_cmp);
    measured.dedup();
    // Every measured value when they fit (a measured row is never dropped unsaid), then
    // doublings up to the largest the targets ask; more than fit are thinned, leaving half
    // the rows to the doublings when the targets ask beyond them, and the map says so.
    let asked = r.targets.iter().filter_map(|t| t.point.get(si).copied()).fold(0.0, f64::max);
    let beyond = measured.last().is_some_and(|&m| asked > m);
    let room = if measured.len() <= HEAT_ROWS {
        HEAT_ROWS
    } else if beyond {
        HEAT_ROWS / 2
    } else {
        HEAT_ROWS
    };
    let mut ys = thin(measured.clone(), room);
    let dropped: Vec<String> = measured.iter().filter(|v| !ys.contains(v)).map(|&v| fmt_num(v, 6)).collect();
    let note = (!dropped.is_empty()).then(|| {
        format!(
            "{} of the {} measured values of {} shown as rows; left out: {}",
            measured.len() - dropped.len(),
            measured.len(),
            r.parameters[si],
            dropped.join(", ")
        )
    });
    while let Some(&last) = ys.last() {
        if last >= asked || ys.len() >= HEAT_ROWS {
            break;
        }
        ys.push((last * 2.0).min(asked));
    }
    let xs = thin(r.chart_ns.iter().map(|&n| f64::from(n)).collect(), HEAT_COLUMNS);
    let cells = ys
        .iter()
        .map(|&y| {
            xs.iter()
                .map(|&x| {
                    let mut point = r.base.clone();
                    point[pi] = x;
                    point[si] = y;
                    let times: Vec<Option<f64>> = (0..r.regions.len())
                        .map(|i| {
                            r.regions[i]
                                .model
                                .as_ref()
                                .map(|m| m.at_point(&point).0)
                                .filter(|t| t.is_finite() && *t >= 0.0)
                        })
                        .collect();
                    // The ranking's shares there: own time, never a parent added to its children.
                    let split = r.shares_of(&times)?;
                    let top = split.dominant?;
                    let (i, t) = match region {
                        Some(i) => (i, times.get(i).copied().flatten()?),
                        None => (top, split.whole()),
                    };
                    Some(Cell { time_s: t, top: i, share: split.share.get(i).copied().flatten()? })
                })
                .collect()
        })
        .collect();
    Some(HeatMap { x_name: r.process_parameter.clone(), y_name: r.parameters[si].clone(), xs, ys, cells, note })
}

/// The "Bottlenecks at scale" page's row in the table of calculators. Its view is computed in
/// the page's Web Workers, never on a keystroke on the page's thread.
pub struct BottlenecksPage;

impl crate::model::calculators::Contract for BottlenecksPage {
    type Inputs = (ExtrapView, Option<Plan>);
    type View = ExtrapView;
    const ON_KEYSTROKE: bool = false;
    fn fields() -> Vec<&'static str> {
        vec![KEY_TEXT, KEY_PREDICT, KEY_HOLD, KEY_METRIC, KEY_PROCESS]
    }
    fn default_inputs() -> PageInputs {
        default_inputs()
    }
    /// The page opens on an example, as every page does.
    fn presets() -> Vec<crate::model::workspace::Preset> {
        presets()
    }
    fn parse(texts: &PageInputs) -> Self::Inputs {
        prepare(texts)
    }
    fn view(texts: &PageInputs, _catalog: &crate::model::catalog::Catalog) -> ExtrapView {
        view(texts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(pairs: &[(&str, &str)]) -> PageInputs {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn the_section_ranks_a_pasted_experiment_and_draws_shares() {
        let app = include_str!("../../../tests/data/extrap/app.txt");
        let v = view(&texts(&[(KEY_TEXT, app), (KEY_PREDICT, "256, 1024")]));
        assert!(v.errors.is_empty(), "{:?}", v.errors);
        let r = v.ranking.as_ref().unwrap();
        assert_eq!(r.targets.iter().map(|t| t.n).collect::<Vec<_>>(), [256, 1024]);
        let c = v.chart.unwrap();
        assert_eq!(c.curves.len(), CHART_REGIONS + 1);
        // At each n the shown shares and "other regions" add up to one.
        let n = c.curves[0].points.len();
        for k in 0..n {
            let total: f64 = c.curves.iter().map(|s| s.points[k].1).sum();
            assert!((total - 1.0).abs() < 1e-9, "{total}");
        }
        // The chart's last point is the ranking's share at the largest target.
        let top = &r.tables[1].rows[0];
        assert_eq!(c.curves[0].points.last().unwrap(), &(1024.0, top.share));
        // A region's points load into the speed-up table as medians.
        let table = points_table(r, top.region).unwrap();
        assert!(table.starts_with("n\ttime (s)\n2\t"), "{table}");
        assert_eq!(table.lines().count(), 7);
    }

    #[test]
    fn errors_go_to_their_field_and_empty_is_not_an_error() {
        assert!(view(&texts(&[])).empty);
        let v = view(&texts(&[(KEY_TEXT, "PARAMETER p\nPOINTS 2 4\nREGION r\nDATA 1 x\n")]));
        assert_eq!(v.errors[0].0, KEY_TEXT);
        assert_eq!(v.errors[0].1.local_text(), "line 4, column 8: expected a measured value (a number), found \"x\"");
        let v = view(&texts(&[
            (KEY_TEXT, "PARAMETER p\nPOINTS 2 4 8\nREGION r\nDATA 4\nDATA 2\nDATA 1\n"),
            (KEY_PREDICT, "16, abc"),
            (KEY_HOLD, "big"),
        ]));
        let keys: Vec<&str> = v.errors.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(keys, [KEY_PREDICT, KEY_HOLD]);
    }

    #[test]
    fn fits_split_between_workers_and_passed_as_json_give_the_one_thread_view() {
        // The page's workers: each prepares the same texts, fits its share, and sends the fits
        // as JSON to worker 0, which completes the view and sends it to the page as JSON.
        let app = include_str!("../../../tests/data/extrap/app.txt");
        let t = texts(&[(KEY_TEXT, app), (KEY_PREDICT, "256, 1024")]);
        let one = view(&t);
        let want = serde_json::to_string(&one).unwrap();
        for k in [1, 2, 3, 4] {
            let (v, p) = prepare(&t);
            let p = p.unwrap();
            let mut fits = Vec::new();
            for share in p.shares(k) {
                let text = serde_json::to_string(&fit_regions(&p, share)).unwrap();
                fits.extend(serde_json::from_str::<Vec<RegionFit>>(&text).unwrap());
            }
            let done = serde_json::to_string(&complete(v, p, fits)).unwrap();
            assert_eq!(done, want, "{k} workers");
            // What the page reads back is what it renders: the same ranking and chart.
            let back: ExtrapView = serde_json::from_str(&done).unwrap();
            let r = back.ranking.as_ref().unwrap();
            assert_eq!(r.tables, one.ranking.as_ref().unwrap().tables);
            assert_eq!(back.chart, one.chart);
            assert_eq!(r.regions[0].best_name(), one.ranking.as_ref().unwrap().regions[0].best_name());
        }
        // An error view goes to the page the same way.
        let bad = view(&texts(&[(KEY_TEXT, "PARAMETER p\nPOINTS 2 4\nREGION r\nDATA 1 x\n")]));
        let back: ExtrapView = serde_json::from_str(&serde_json::to_string(&bad).unwrap()).unwrap();
        assert_eq!(back.errors, bad.errors);
    }

    #[test]
    fn the_heat_map_spans_both_parameters_and_names_the_top_region() {
        let jsonl = include_str!("../../../tests/data/extrap/app.jsonl");
        let v = view(&texts(&[(KEY_TEXT, jsonl), (KEY_PREDICT, "256:16000, 1024:16000")]));
        assert!(v.errors.is_empty(), "{:?}", v.errors);
        let r = v.ranking.as_ref().unwrap();
        let h = heat_map(r, None).unwrap();
        assert_eq!((h.x_name.as_str(), h.y_name.as_str()), ("p", "size"));
        // The measured sizes, then doublings up to the largest asked.
        assert_eq!(h.ys, [1000.0, 4000.0, 8000.0, 16000.0]);
        assert_eq!((h.xs.first(), h.xs.last()), (Some(&2.0), Some(&1024.0)));
        assert!(h.xs.len() <= HEAT_COLUMNS && h.cells.len() == h.ys.len());
        // The cell at a target is the sum of the regions' predictions there, and its top
        // region the ranking's dominant one.
        let col = h.xs.iter().position(|&x| x == 1024.0).unwrap();
        let cell = h.cells[3][col].unwrap();
        let sum: f64 = r.regions.iter().filter_map(|f| f.time_at(1)).map(|t| t.0).sum();
        assert!((cell.time_s / sum - 1.0).abs() < 1e-9, "{} {sum}", cell.time_s);
        assert_eq!(r.regions[cell.top].callpath, r.dominant[1].callpath);
        // One region's map: its own time and share.
        let one = heat_map(r, Some(cell.top)).unwrap();
        let mine = one.cells[3][col].unwrap();
        assert_eq!(mine.top, cell.top);
        assert!((mine.share - r.dominant[1].share).abs() < 1e-9);
        // One parameter: no heat map.
        let app = include_str!("../../../tests/data/extrap/app.txt");
        assert!(heat_map(view(&texts(&[(KEY_TEXT, app)])).ranking.as_ref().unwrap(), None).is_none());
    }

    #[test]
    fn the_share_chart_never_adds_a_parent_to_its_children() {
        // calltree.txt: main holds main->compute and main->io (inclusive times); at p = 256
        // main->io's own share is 14.8/19.5875 = 75.6 %.
        let text = include_str!("../../../tests/data/extrap/calltree.txt");
        let v = view(&texts(&[(KEY_TEXT, text), (KEY_PREDICT, "256")]));
        let (r, c) = (v.ranking.as_ref().unwrap(), v.chart.as_ref().unwrap());
        assert_eq!(c.curves[0].label, "main->io");
        let last = c.curves[0].points.last().unwrap();
        assert_eq!(last, &(256.0, r.tables[0].rows[0].share));
        assert!((last.1 - 14.8 / 19.5875).abs() < 0.01);
        // Three regions, all shown: their shares add up to one at every n.
        assert_eq!(c.curves.len(), 3);
        for k in 0..c.curves[0].points.len() {
            let sum: f64 = c.curves.iter().map(|s| s.points[k].1).sum();
            assert!((sum - 1.0).abs() < 1e-9, "{sum}");
        }
        // relearn: main() left out, shares by inclusive share (nested, so no "other regions").
        let text = include_str!("../../../tests/data/extrap-upstream/text/mpa/relearn_data.txt");
        let v = view(&texts(&[(KEY_TEXT, text), (KEY_PREDICT, "2048")]));
        let c = v.chart.as_ref().unwrap();
        assert!(
            c.curves.iter().all(|s| s.label != "main()" && !s.label.contains("other regions")),
            "{:?}",
            c.curves.iter().map(|s| &s.label).collect::<Vec<_>>()
        );
        let r = v.ranking.as_ref().unwrap();
        let map = heat_map(r, None).unwrap();
        // The top of every cell is one of Connectivity update's two large leaves (which of
        // them leads beyond p = 512 is the models' call; they are within 8 % there).
        let leaves = ["Find target neurons (w/ RMA)", "Create synapses (w/ Alltoall)"];
        assert!(map
            .cells
            .iter()
            .flatten()
            .flatten()
            .all(|cell| leaves.contains(&r.regions[cell.top].callpath.as_str())));
    }

    #[test]
    fn the_heat_map_keeps_every_measured_row_or_says_which_it_leaves_out() {
        // Issue 45, item 13: relearn measures n = 5000, 6000, 7000, 8000 and 9000; all five
        // fit in HEAT_ROWS and each is a row (8000 was thinned out unsaid).
        let text = include_str!("../../../tests/data/extrap-upstream/text/mpa/relearn_data.txt");
        let v = view(&texts(&[(KEY_TEXT, text), (KEY_PREDICT, "2048:9000")]));
        let map = heat_map(v.ranking.as_ref().unwrap(), None).unwrap();
        assert_eq!(map.ys, [5000.0, 6000.0, 7000.0, 8000.0, 9000.0]);
        assert_eq!(map.note, None);
        // Twelve measured values of the second parameter, asked beyond them: four rows kept,
        // the map names the eight left out.
        let mut t = String::from("PARAMETER p\nPARAMETER n\n");
        for n in 1..=12 {
            t.push_str(&format!("POINTS ( 2 {n} ) ( 4 {n} ) ( 8 {n} )\n"));
        }
        t.push_str("REGION r\n");
        for n in 1..=12 {
            for p in [2.0, 4.0, 8.0] {
                t.push_str(&format!("DATA {}\n", f64::from(n) * 10.0 / p));
            }
        }
        let v = view(&texts(&[(KEY_TEXT, &t), (KEY_PREDICT, "64:48")]));
        assert!(v.errors.is_empty(), "{:?}", v.errors);
        let map = heat_map(v.ranking.as_ref().unwrap(), None).unwrap();
        assert!(map.ys.len() <= HEAT_ROWS && map.ys.starts_with(&[1.0]) && map.ys.contains(&12.0), "{:?}", map.ys);
        assert_eq!(
            map.note.as_deref(),
            Some("4 of the 12 measured values of n shown as rows; left out: 2, 3, 5, 6, 7, 9, 10, 11")
        );
    }

    #[test]
    fn a_metric_or_parameter_not_in_the_file_is_its_fields_error_and_the_choices_stay() {
        // Issue 45, item 1: "v" typed in 'metric' for input2.json (metrics time and visits).
        let json = include_str!("../../../tests/data/extrap-upstream/json/new/input2.json");
        let v = view(&texts(&[(KEY_TEXT, json), (KEY_METRIC, "v")]));
        assert_eq!(v.errors.len(), 1, "{:?}", v.errors);
        assert_eq!(v.errors[0].0, KEY_METRIC);
        assert_eq!(v.errors[0].1.local_text(), "no metric \"v\" in this experiment; it has time, visits");
        // The choices the page offers stay: the file's metrics and parameters.
        assert_eq!(v.metrics, ["time", "visits"]);
        assert_eq!(v.parameters, ["x", "y"]);
        assert!(v.ranking.is_none());
        let v = view(&texts(&[(KEY_TEXT, json), (KEY_METRIC, "visits")]));
        assert!(v.errors.is_empty(), "{:?}", v.errors);
        assert_eq!(v.ranking.unwrap().metric, "visits");
        // Item 3: the process count chosen (else guessed: here the first), or an error under it.
        let v = view(&texts(&[(KEY_TEXT, json), (KEY_PROCESS, "y"), (KEY_PREDICT, "60")]));
        assert!(v.errors.is_empty(), "{:?}", v.errors);
        assert_eq!(v.process_parameter.as_deref(), Some("y"));
        let r = v.ranking.unwrap();
        assert_eq!((r.process_parameter.as_str(), r.side_parameter.as_deref()), ("y", Some("x")));
        assert_eq!(r.targets[0].point, [64.0, 60.0]);
        let v = view(&texts(&[(KEY_TEXT, json), (KEY_PROCESS, "q")]));
        assert_eq!(v.errors.iter().map(|e| e.0.as_str()).collect::<Vec<_>>(), [KEY_PROCESS]);
        assert!(v.ranking.is_none());
    }

    #[test]
    fn a_bad_rank_at_ranks_nothing() {
        // Issue 45, item 6: "1024:abc" and "0:9000" are errors under 'rank at', and nothing is
        // ranked (before, the ranking went on with no target: one column at p = 1); a whole
        // point of the wrong length is also that field's error, not the experiment's.
        let text = include_str!("../../../tests/data/extrap-upstream/text/mpa/relearn_data.txt");
        for (asked, message) in [
            ("1024:abc", "line 1, column 1: expected a process count or values joined by ':' (256:4000), each above 0, found \"1024:abc\""),
            ("0:9000", "line 1, column 1: expected a process count or values joined by ':' (256:4000), each above 0, found \"0:9000\""),
            ("1024:9000:3", "a whole point needs 2 values, one per parameter (p:n), found 3"),
        ] {
            let v = view(&texts(&[(KEY_TEXT, text), (KEY_PREDICT, asked)]));
            assert_eq!(v.errors.iter().map(|e| (e.0.as_str(), e.1.local_text())).collect::<Vec<_>>(), [(KEY_PREDICT, message.to_string())], "{asked}");
            assert!(v.ranking.is_none() && v.chart.is_none(), "{asked}");
            assert_eq!(v.parameters, ["p", "n"]);
        }
        let v = view(&texts(&[(KEY_TEXT, text), (KEY_HOLD, "0")]));
        assert_eq!(v.errors.iter().map(|e| e.0.as_str()).collect::<Vec<_>>(), [KEY_HOLD]);
        assert!(v.ranking.is_none());
    }

    #[test]
    fn whole_points_off_the_held_value_get_their_table_and_no_word_of_holding() {
        // Issue 45, item 9: relearn measures n up to 9000; 2048:18000 is a whole point.
        let text = include_str!("../../../tests/data/extrap-upstream/text/mpa/relearn_data.txt");
        let v = view(&texts(&[(KEY_TEXT, text), (KEY_PREDICT, "1024:9000, 2048:18000")]));
        assert!(v.errors.is_empty(), "{:?}", v.errors);
        let r = v.ranking.unwrap();
        assert_eq!(r.tables.iter().map(|t| t.side).collect::<Vec<_>>(), [Some(9000.0), Some(18000.0)]);
        assert!(r.warnings.iter().all(|w| !w.message.contains("held at its largest")), "{:?}", r.warnings);
        // A process count is held as before, and said so.
        let v = view(&texts(&[(KEY_TEXT, text), (KEY_PREDICT, "1024")]));
        assert!(v.ranking.unwrap().warnings.iter().any(|w| w.message == "n held at its largest value, 9000"));
    }

    #[test]
    fn a_change_of_targets_evaluates_the_fits_again_and_gives_a_new_fits_view() {
        // Issue 45, item 22: the fits of one ranking, evaluated at other targets (and another
        // value held), are the fits made afresh there; so is the whole view.
        let cases = [
            (include_str!("../../../tests/data/extrap/app.txt"), "256, 1024", ["8", "64, 100000", "3, 1000000000", ""]),
            (
                include_str!("../../../tests/data/extrap/app.jsonl"),
                "256:16000, 1024:16000",
                ["64", "2048:1000", "1024:64000, 8", ""],
            ),
            (
                include_str!("../../../tests/data/extrap-upstream/text/mpa/relearn_data.txt"),
                "2048",
                ["1024:9000, 2048:18000", "64", "100000:1000", "4"],
            ),
            (include_str!("../../../tests/data/extrap/calltree.txt"), "256", ["2", "1000000", "64, 128", "512"]),
        ];
        for (text, first, nexts) in cases {
            let t = texts(&[(KEY_TEXT, text), (KEY_PREDICT, first)]);
            let (_, p) = prepare(&t);
            let p = p.unwrap();
            let kept = fit_regions(&p, 0..p.len());
            for next in nexts {
                for hold in ["", "per-value"] {
                    let t = texts(&[(KEY_TEXT, text), (KEY_PREDICT, next), (KEY_HOLD, hold)]);
                    assert_eq!(fit_key(&t), fit_key(&texts(&[(KEY_TEXT, text), (KEY_PREDICT, first)])));
                    let (v, p) = prepare(&t);
                    let p = p.unwrap();
                    let again = super::super::retarget(&p, &kept);
                    assert_eq!(again, fit_regions(&p, 0..p.len()), "{next} {hold}");
                    assert_eq!(complete(v, p, again), view(&t), "{next} {hold}");
                }
            }
        }
    }

    #[test]
    fn the_page_opens_on_an_example_and_every_example_ranks() {
        // Issue 45, item 16: the page opened empty.
        let v = view(&default_inputs());
        assert!(!v.empty && v.errors.is_empty(), "{:?}", v.errors);
        assert_eq!(v.ranking.as_ref().map(|r| r.regions.len()), Some(24));
        let all = presets();
        assert_eq!(all[0].inputs, default_inputs());
        for p in &all {
            let v = view(&p.inputs);
            assert!(v.errors.is_empty() && v.ranking.is_some(), "{}: {:?}", p.key, v.errors);
        }
        let keys: Vec<&str> = all.iter().map(|p| p.key).collect();
        assert_eq!(keys, ["solver", "calltree"]);
    }
}

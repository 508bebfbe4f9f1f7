//! The "Bottlenecks at scale" page (`bottlenecks.html`): its input texts (saved under the
//! keys below; before workspace format 2 they were the speed-up page's) to what it shows. The experiment is
//! read by [`super::parse`] and planned by [`super::plan`] ([`prepare`]); the regions are
//! fitted by [`super::fit_regions`], in any split (the page's Web Workers fit a share each),
//! and [`complete`] ranks them; the chart's curves are each region's predicted share against
//! n, from the same fits. [`view`] is the three on one thread.

use super::{fit_regions, parse, parse_targets, plan, process_index, Format, Plan, RankOptions, Ranking, RegionFit, SideChoice};
use crate::model::chart::Series;
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
    /// The second parameter's values, for the choice of one.
    pub side_values: Vec<f64>,
    /// Errors by key (the experiment's with line and column).
    pub errors: Vec<(String, InputError)>,
    pub ranking: Option<Ranking>,
    pub chart: Option<ShareCurves>,
}

/// The page's inputs before the user types: no experiment.
pub fn default_inputs() -> PageInputs {
    PageInputs::new()
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
    let mut out: Vec<Series> = shown.iter().map(|&i| Series { label: r.regions[i].callpath.clone(), points: Vec::new() }).collect();
    let mut other = Vec::new();
    for &n in &r.chart_ns {
        let times: Vec<Option<f64>> = (0..r.regions.len()).map(|i| if r.regions[i].error.is_none() { r.regions[i].curve_at(n).map(|c| c.0) } else { None }).collect();
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
        let rest: f64 = ids.iter().filter(|i| !shown.contains(i)).filter_map(|&i| times[i]).sum();
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

/// Reads the texts and plans the ranking: the view so far (format, parameters, errors) and
/// the plan, None when there is nothing to fit (no text, or an error).
pub fn prepare(texts: &PageInputs) -> (ExtrapView, Option<Plan>) {
    let text = get(texts, KEY_TEXT);
    if text.trim().is_empty() {
        return (ExtrapView { empty: true, ..ExtrapView::default() }, None);
    }
    let mut v = ExtrapView::default();
    let e = match parse(text) {
        Ok(e) => e,
        Err(err) => {
            v.errors.push((KEY_TEXT.into(), err));
            return (v, None);
        }
    };
    v.format = Some(e.format);
    v.parameters = e.parameters.clone();
    let mut opts = RankOptions::default();
    let metric = get(texts, KEY_METRIC).trim();
    opts.metric = (!metric.is_empty()).then(|| metric.to_string());
    match parse_targets("predict at", get(texts, KEY_PREDICT)) {
        Ok((ns, points)) if !(ns.is_empty() && points.is_empty()) => (opts.targets, opts.points) = (ns, points),
        Ok(_) => {
            let pi = process_index(&e.parameters, None).unwrap_or(0);
            let top = e.values_of(pi).last().copied().unwrap_or(1.0).clamp(1.0, 1e7) as u32;
            opts.targets = vec![top * 4, top * 16];
        }
        Err(err) => v.errors.push((KEY_PREDICT.into(), err)),
    }
    opts.side = match get(texts, KEY_HOLD).trim() {
        "" | "largest" => SideChoice::Largest,
        "per-value" => SideChoice::PerValue,
        x => match x.parse::<f64>() {
            Ok(f) if f.is_finite() => SideChoice::Value(f),
            _ => {
                v.errors.push((KEY_HOLD.into(), InputError::new("hold", format!("expected a value, largest or per-value, found \"{}\"", x.chars().take(24).collect::<String>()))));
                SideChoice::Largest
            }
        },
    };
    match plan(&e, &opts) {
        Ok(p) => {
            v.side_values = p.side_parameter().map(|side| {
                let si = e.parameters.iter().position(|p| p == side).unwrap_or(1);
                e.values_of(si)
            }).unwrap_or_default();
            (v, Some(p))
        }
        Err(err) => {
            v.errors.push((KEY_TEXT.into(), err));
            (v, None)
        }
    }
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
    let mut measured: Vec<f64> = r.regions.iter().flat_map(|f| f.points.iter().filter_map(|p| p.coords.get(si).copied())).collect();
    measured.sort_by(f64::total_cmp);
    measured.dedup();
    // Every measured value when they fit (a measured row is never dropped unsaid), then
    // doublings up to the largest the targets ask; more than fit are thinned, leaving half
    // the rows to the doublings when the targets ask beyond them, and the map says so.
    let asked = r.targets.iter().filter_map(|t| t.point.get(si).copied()).fold(0.0, f64::max);
    let beyond = measured.last().is_some_and(|&m| asked > m);
    let room = if measured.len() <= HEAT_ROWS { HEAT_ROWS } else if beyond { HEAT_ROWS / 2 } else { HEAT_ROWS };
    let mut ys = thin(measured.clone(), room);
    let dropped: Vec<String> = measured.iter().filter(|v| !ys.contains(v)).map(|&v| fmt_num(v, 6)).collect();
    let note = (!dropped.is_empty()).then(|| {
        format!("{} of the {} measured values of {} shown as rows; left out: {}", measured.len() - dropped.len(), measured.len(), r.parameters[si], dropped.join(", "))
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
                        .map(|i| r.regions[i].model.as_ref().map(|m| m.at_point(&point).0).filter(|t| t.is_finite() && *t >= 0.0))
                        .collect();
                    // The ranking's shares there: own time, never a parent added to its children.
                    let split = r.shares_of(&times)?;
                    let top = split.dominant?;
                    let (i, t) = match region {
                        Some(i) => (i, times.get(i).copied().flatten()?),
                        None => (top, split.total),
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
        vec![KEY_TEXT, KEY_PREDICT, KEY_HOLD, KEY_METRIC]
    }
    fn default_inputs() -> PageInputs {
        default_inputs()
    }
    /// The page opens empty, for the user's experiment.
    fn presets() -> Vec<crate::model::workspace::Preset> {
        Vec::new()
    }
    fn parse(texts: &PageInputs) -> Self::Inputs {
        prepare(texts)
    }
    fn view(texts: &PageInputs, _catalog: &crate::model::workspace::catalog::Catalog) -> ExtrapView {
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
        let v = view(&texts(&[(KEY_TEXT, "PARAMETER p\nPOINTS 2 4 8\nREGION r\nDATA 4\nDATA 2\nDATA 1\n"), (KEY_PREDICT, "16, abc"), (KEY_HOLD, "big")]));
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
        assert!(c.curves.iter().all(|s| s.label != "main()" && !s.label.contains("other regions")), "{:?}", c.curves.iter().map(|s| &s.label).collect::<Vec<_>>());
        let r = v.ranking.as_ref().unwrap();
        let map = heat_map(r, None).unwrap();
        assert!(map.cells.iter().flatten().flatten().all(|cell| r.regions[cell.top].callpath == "Find target neurons (w/ RMA)"));
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
        assert_eq!(map.note.as_deref(), Some("4 of the 12 measured values of n shown as rows; left out: 2, 3, 5, 6, 7, 9, 10, 11"));
    }
}

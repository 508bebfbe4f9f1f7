//! The "Bottlenecks at scale" page: paste or upload an Extra-P experiment, see its regions
//! ranked by predicted share of the run time at the target n, with a chart of the shares
//! against n. A region's name opens its points in the speed-up calculator, as a share link
//! would (in that tab only, so the table saved there is not replaced unasked); one whose time
//! grows opens as a series whose time is modelled, by this page's model of it (with its points
//! at every value of every parameter, `speedup::weak::region_text`). The experiment
//! is read and fitted in Web Workers (`ui::bottlenecks_worker`, one per core), never on the page's
//! thread: the page stays responsive while thousands of regions are fitted, shows progress
//! once a ranking takes over 200 ms, and cancels it on Cancel or when the texts change.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use gloo::file::callbacks::FileReader;
use yew::prelude::*;

use super::bottlenecks_files::RunsFiles;

use crate::charts::bottlenecks::shares;
use crate::model::bottlenecks::page::{
    self as page, fit_key, heat_map, speedup_inputs, ExtrapView, HeatMap, KEY_HOLD, KEY_METRIC, KEY_PREDICT,
    KEY_PROCESS, KEY_TEXT, PAGE,
};
use crate::model::bottlenecks::worker::{FromWorker, ToWorker};
use crate::model::bottlenecks::{Nesting, Ranking};
use crate::model::calculators;
use crate::model::fmt_num;
use crate::model::speedup::page as speedup;
use crate::model::workspace::{share, PageInputs, MAX_FIELD_BYTES};
use crate::ui::bench::now_ms;
use crate::ui::components::chart::{drawing, Chart};
use crate::ui::components::number_field::{page_field, TextField};
use crate::ui::components::share_panel::SharePanel;
use crate::ui::components::table_csv::csv_button;
use crate::ui::store::{text, use_page, Action, Page, PageSetup, Setter, StoreHandle};
use crate::ui::worker_pool::{self, stop, Job, PoolSlot};
use crate::ui::{compress, url};

use crate::ui::bottlenecks_worker::LOADER as WORKER;

/// This page in the store.
const STORE_PAGE: Page = Page { calculator: &calculators::BOTTLENECKS, defaults: page::default_inputs };
/// A ranking shows its progress (and Cancel) once it has taken this long.
const SHOW_PROGRESS_MS: f64 = 200.0;

/// A text longer than this (bytes) is kept and saved but not put in the text box until asked:
/// laying out 800 KB in a text area took the browser 300 ms a frame (40 Score-P runs of 500
/// call paths), and no one edits that much by hand.
const TEXT_SHOWN_UP_TO: usize = 256 << 10;

/// Where the ranking of the current texts stands.
#[derive(Clone, PartialEq)]
enum Status {
    /// The view shown is that of the current texts.
    Current,
    /// The workers are ranking job `job` (started at `started`, `fraction` done).
    Running {
        job: u64,
        started: f64,
        fraction: f64,
    },
    /// Worker 0 is evaluating the kept fits at new targets (a change of "rank at" or of the
    /// value held): a few milliseconds, so the results shown are not marked stale meanwhile
    /// (a repaint of the whole ranking, twice per keystroke) and no progress is reported.
    Evaluating,
    Cancelled,
    Failed(String),
}

/// One ranking on the workers.
struct Ranker {
    job: u64,
    started: f64,
    progress: Vec<f64>,
    status: UseStateHandle<Status>,
    /// The view of the latest texts ranked (perhaps only their errors).
    view: UseStateHandle<Shown>,
    /// The last view with a ranking (or of no experiment), shown while the texts have errors.
    good: UseStateHandle<Shown>,
    /// The texts the job's fits depend on ([`fit_key`]), and where to note them once ranked:
    /// worker 0 then holds those fits, and a change of the other texts only evaluates them.
    key: PageInputs,
    kept: Rc<RefCell<Option<PageInputs>>>,
    /// Whether the job evaluates kept fits ([`Status::Evaluating`]).
    quick: bool,
}

use crate::model::bottlenecks::worker::PageMessage as Message;

impl Job for Ranker {
    fn on_message(&mut self, i: usize, text: &str) -> Option<bool> {
        let msg = match serde_json::from_str::<Message>(text) {
            Ok(m) => m,
            Err(e) => {
                self.status.set(Status::Failed(format!("the worker's ranking could not be read: {e}")));
                return Some(false);
            }
        };
        match msg {
            FromWorker::Error(e) => {
                self.status.set(Status::Failed(e));
                Some(false)
            }
            FromWorker::Progress { fraction, job } if job == self.job && !self.quick => {
                if let Some(mine) = self.progress.get_mut(i) {
                    *mine = fraction;
                }
                let fraction = self.progress.iter().sum::<f64>() / self.progress.len().max(1) as f64;
                self.status.set(Status::Running { job: self.job, started: self.started, fraction });
                None
            }
            FromWorker::Done { mut view, job } if job == self.job => {
                if self.quick {
                    with_points(&mut view, &self.good);
                }
                let shown = Shown(Rc::new(view));
                if shown.ranking.is_some() || shown.empty {
                    *self.kept.borrow_mut() = shown.ranking.is_some().then(|| self.key.clone());
                    self.good.set(shown.clone());
                }
                self.view.set(shown);
                self.status.set(Status::Current);
                Some(true)
            }
            _ => None,
        }
    }

    fn on_error(&mut self) {
        self.status.set(Status::Failed("the Extra-P worker failed to load or stopped".into()));
    }
}

/// The regions' points of `from`, the ranking whose kept fits `v` evaluates at new targets,
/// put back into `v`, which comes without them (`ui::bottlenecks_worker`).
fn with_points(v: &mut ExtrapView, from: &ExtrapView) {
    if let (Some(r), Some(old)) = (v.ranking.as_mut(), from.ranking.as_ref()) {
        for (f, o) in r.regions.iter_mut().zip(&old.regions) {
            if f.callpath == o.callpath {
                f.points.clone_from(&o.points);
            }
        }
    }
}

/// A view, compared by pointer: the same view or not (comparing thousands of regions field by
/// field would cost time on every render, and code on the page).
#[derive(Clone)]
struct Shown(Rc<ExtrapView>);

impl PartialEq for Shown {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Shown {
    fn empty() -> Shown {
        Shown(Rc::new(ExtrapView { empty: true, ..ExtrapView::default() }))
    }
}

impl std::ops::Deref for Shown {
    type Target = ExtrapView;
    fn deref(&self) -> &ExtrapView {
        &self.0
    }
}

/// The page's states a ranking sets.
#[derive(Clone)]
struct Views {
    status: UseStateHandle<Status>,
    view: UseStateHandle<Shown>,
    good: UseStateHandle<Shown>,
    kept: Rc<RefCell<Option<PageInputs>>>,
}

/// Ranks `own` (the section's texts) on the workers, ending a ranking under way. When only
/// the texts that do not change the fits changed since the last ranking ("rank at", the value
/// held), worker 0, which keeps that ranking's fits, evaluates them at the new targets alone.
fn rank(slot: &PoolSlot, own: &PageInputs, views: &Views, job: u64) {
    let Views { status, view, good, kept } = views;
    if slot.borrow().busy() {
        // Ending the workers ends what they kept.
        stop(slot);
        *kept.borrow_mut() = None;
    }
    let started = now_ms();
    let key = fit_key(own);
    let retarget = kept.borrow().as_ref() == Some(&key);
    let none = PageInputs::new();
    let part = |i: usize, k: usize| {
        // Evaluating kept fits is worker 0's alone: the others get no texts to read.
        let (texts, workers) = if retarget { (if i == 0 { own } else { &none }, 1) } else { (own, k) };
        serde_json::to_string(&ToWorker::Start { texts, job, worker: i, workers }).unwrap_or_default()
    };
    let ranker = Ranker {
        job,
        started,
        progress: vec![0.0; worker_pool::worker_count()],
        status: status.clone(),
        view: view.clone(),
        good: good.clone(),
        key,
        kept: kept.clone(),
        quick: retarget,
    };
    if worker_pool::start(slot, WORKER, &part, Box::new(ranker)) {
        status.set(if retarget { Status::Evaluating } else { Status::Running { job, started, fraction: 0.0 } });
    } else {
        status.set(Status::Failed("this browser could not start a Web Worker, which reads the experiment".into()));
    }
}

/// A number for the CSV: six significant digits, empty where there is none.
fn csv_num(x: f64) -> String {
    if x.is_finite() {
        fmt_num(x, 6)
    } else {
        String::new()
    }
}

/// Several CSV fields in one cell (`data-csv-fields`, a JSON list that static/site.js spreads
/// over as many columns).
fn csv_fields<S: serde::Serialize>(fields: &[S]) -> String {
    serde_json::to_string(fields).unwrap_or_default()
}

fn pct(x: f64) -> String {
    format!("{} %", fmt_num(x * 100.0, 3))
}

/// "p = 256" (the file's name of the process count), or with more than two parameters the
/// whole point: "p = 256, n = 4000, x = 3" (with two, the second is the table's title).
fn point_label(r: &Ranking, n: u32, point: &[f64]) -> String {
    if r.parameters.len() <= 2 {
        return format!("{} = {n}", r.process_parameter);
    }
    r.parameters.iter().zip(point).map(|(k, v)| format!("{k} = {}", fmt_num(*v, 6))).collect::<Vec<_>>().join(", ")
}

/// A call tree of more regions than this opens along the path to each dominant region only,
/// and a flat list of more lists this many, the largest first.
const TREE_OPEN_UP_TO: usize = 60;

/// Which nodes of the call tree are open: by default all of a small tree, or in a larger one
/// (TREE_OPEN_UP_TO) those along the path to a dominant region (a table of 500 rows took
/// the browser 400 ms to draw); `toggled` are the call paths the reader opened or closed
/// against that, `all` opens every node of a large tree (or lists every region of a long
/// flat list).
#[derive(Clone, Default, PartialEq)]
struct Opened {
    toggled: HashSet<String>,
    all: bool,
    along: HashSet<usize>,
}

impl Opened {
    fn large(r: &Ranking) -> bool {
        r.regions.len() > TREE_OPEN_UP_TO
    }

    /// The ancestors of the dominant regions of ranking `r` (open by default when large).
    fn along(r: &Ranking) -> HashSet<usize> {
        let mut out = HashSet::new();
        for d in &r.dominant {
            let mut at = r
                .regions
                .iter()
                .position(|f| f.callpath == d.callpath)
                .and_then(|i| r.tree.parent.get(i).copied().flatten());
            while let Some(p) = at.filter(|p| out.insert(*p)) {
                at = r.tree.parent.get(p).copied().flatten();
            }
        }
        out
    }

    fn is_open(&self, r: &Ranking, i: usize) -> bool {
        let default = self.all || !Opened::large(r) || self.along.contains(&i);
        default != r.regions.get(i).is_some_and(|f| self.toggled.contains(&f.callpath))
    }
}

/// The order a table lists its regions in: by share at the last target, largest first; or, for
/// a call tree, depth first from the top, each node's children by inclusive share, a node's
/// descendants hidden while it is closed. Each with its rank by share.
fn table_order(r: &Ranking, last: &crate::model::bottlenecks::Table, open: &Opened) -> Vec<(usize, usize)> {
    let rank: HashMap<usize, usize> = last.rows.iter().enumerate().map(|(k, s)| (s.region, k)).collect();
    if r.tree.nesting == Nesting::Flat {
        let most = if open.all || !Opened::large(r) { usize::MAX } else { TREE_OPEN_UP_TO };
        return last.rows.iter().enumerate().take(most).map(|(k, s)| (s.region, k)).collect();
    }
    let incl: HashMap<usize, f64> = last.rows.iter().map(|s| (s.region, s.inclusive)).collect();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); r.regions.len()];
    let mut roots = Vec::new();
    for i in 0..r.regions.len() {
        match r.tree.parent.get(i).copied().flatten() {
            Some(p) if p < children.len() => children[p].push(i),
            _ => roots.push(i),
        }
    }
    let by_share =
        |v: &mut Vec<usize>| v.sort_by(|a, b| incl.get(b).unwrap_or(&-1.0).total_cmp(incl.get(a).unwrap_or(&-1.0)));
    by_share(&mut roots);
    children.iter_mut().for_each(by_share);
    let mut out = Vec::new();
    let mut stack: Vec<usize> = roots.into_iter().rev().collect();
    while let Some(i) = stack.pop() {
        out.push((i, rank.get(&i).copied().unwrap_or(usize::MAX)));
        if open.is_open(r, i) {
            stack.extend(children[i].iter().rev());
        }
    }
    out
}

/// The ranked table of one side value: shares at every target, largest at the last first (or
/// the call tree, its nodes opening and closing); each region's model written out, flagged
/// where its time grows; its inclusive share and its imbalance where there are such.
fn ranking_table(
    r: &Ranking,
    side: Option<f64>,
    on_load: &Callback<usize>,
    opened: &Opened,
    on_toggle: &Callback<String>,
) -> Html {
    let tables: Vec<_> = r.tables.iter().filter(|t| t.side == side).collect();
    let Some(last) = tables.last() else { return html! {} };
    let last_target = r.targets.iter().position(|t| t.point == last.point).unwrap_or(0);
    let title = match (&r.side_parameter, side) {
        (Some(p), Some(v)) => format!("{p} = {}", fmt_num(v, 6)),
        _ => String::new(),
    };
    let tree = r.tree.nesting != Nesting::Flat;
    let imbalance = r.regions.iter().any(|f| !f.imbalance.is_empty());
    let has_children: HashSet<usize> = r.tree.parent.iter().flatten().copied().collect();
    let rows = table_order(r, last, opened).into_iter().map(|(i, rank)| {
        let f = &r.regions[i];
        // In a call tree, the last share's cell also gives the node's inclusive share.
        // A share on one line and its range under it (so that the columns fit 1280 px); the
        // CSV has them as numbers, one column each.
        let cells = tables.iter().map(|t| {
            let with = tree && std::ptr::eq(*t, *last);
            match t.rows.iter().find(|x| x.region == i) {
                Some(x) => {
                    let other = if r.tree.by_inclusive() { x.own } else { x.inclusive };
                    let mut fields = vec![csv_num(x.share * 100.0), csv_num(x.low * 100.0), csv_num(x.high * 100.0)];
                    if with {
                        fields.push(csv_num(other * 100.0));
                    }
                    html! { <td class="num" data-csv-fields={csv_fields(&fields)}>{ pct(x.share) }<div class="hint">{ format!("{}–{}", pct(x.low), pct(x.high)) }</div>
                        if with { <div class="hint incl">{ format!("{} {}", if r.tree.by_inclusive() { "own" } else { "with callees" }, pct(other)) }</div> }
                    </td> }
                }
                None => html! { <td class="num" data-csv-fields={csv_fields(&vec![String::new(); if with { 4 } else { 3 }])}>{ "—" }</td> },
            }
        });
        let onclick = on_load.reform(move |_| i);
        let depth = r.tree.depth.get(i).copied().unwrap_or(0);
        let open = opened.is_open(r, i);
        let toggle = if tree && has_children.contains(&i) {
            let path = f.callpath.clone();
            let label = format!("{} {}", if open { "close" } else { "open" }, f.callpath);
            html! { <button class="link tree-toggle" aria-expanded={open.to_string()} aria-label={label} onclick={on_toggle.reform(move |_| path.clone())}>{ if open { "▾" } else { "▸" } }</button> }
        } else if tree {
            html! { <span class="tree-leaf" aria-hidden="true">{ "·" }</span> }
        } else {
            html! {}
        };
        let name = if tree { short(&f.callpath).to_string() } else { f.callpath.clone() };
        let style = tree.then(|| format!("padding-left:{:.1}em", 0.3 + 1.1 * depth as f64));
        let imb = imbalance.then(|| {
            let at = f.points.iter().zip(&f.imbalance).filter_map(|(p, v)| Some((p.n, (*v)?))).max_by(|a, b| a.0.total_cmp(&b.0));
            let fields = csv_fields(&[at.map_or(String::new(), |a| csv_num(a.1)), f.imbalance_grows.to_string()]);
            html! { <td class="num" data-csv-fields={fields} title={at.map(|(n, _)| format!("at {} = {}", r.process_parameter, fmt_num(n, 6))).unwrap_or_default()}>{ match at { Some((_, v)) => fmt_num(v, 3), None => "—".into() } }
                if f.imbalance_grows { <span class="grows">{ " grows ↑" }</span> }</td> }
        });
        html! {
            <tr class={classes!((rank == 0).then_some("best"))}>
                <td class="num">{ if rank == usize::MAX { "—".to_string() } else { (rank + 1).to_string() } }</td>
                <td {style} data-csv={f.callpath.clone()}>{ toggle }<button class="link" title={format!("{}: open its points in the speed-up calculator", f.callpath)} {onclick}>{ name }</button></td>
                { for cells }
                { match f.time_at(last_target) {
                    Some((t, lo, hi)) => html! { <td class="num" data-csv-fields={csv_fields(&[csv_num(t), csv_num(lo), csv_num(hi)])}>{ fmt_num(t, 4) }<div class="hint">{ format!("{}–{}", fmt_num(lo, 3), fmt_num(hi, 3)) }</div></td> },
                    None => html! { <td class="num" data-csv-fields={csv_fields(&[String::new(), String::new(), String::new()])}>{ "—" }</td> },
                } }
                <td class="formula" title={f.best_name().unwrap_or_default().to_string()}>{ formula(f.formula.as_deref()) }
                    if let Some(note) = &f.note { <div class="hint">{ note.clone() }</div> }
                </td>
                <td data-csv={f.grows.to_string()}>{ if f.grows { html! { <span class="grows">{ "grows ↑" }</span> } } else { html! { "—" } } }</td>
                <td class="num" data-csv={f.stops_scaling_n.map(|n| n.to_string()).unwrap_or_default()}>{ f.stops_scaling_n.map(|n| n.to_string()).unwrap_or_else(|| "—".into()) }</td>
                { for imb }
            </tr>
        }
    });
    let heads = tables.iter().map(|t| {
        let at = point_label(r, t.n, &t.point);
        let kind = if r.tree.by_inclusive() { "inclusive" } else { "own" };
        let mut fields = vec![format!("{kind} share at {at} (%)"), "low (%)".to_string(), "high (%)".to_string()];
        if tree && std::ptr::eq(*t, *last) {
            fields.push(format!("{} share at {at} (%)", if r.tree.by_inclusive() { "own" } else { "inclusive" }));
        }
        html! { <th class="num" data-csv-fields={csv_fields(&fields)}>{ format!("{kind} share at {at} (90 % range)") }</th> }
    });
    let at_last = point_label(r, last.n, &last.point);
    let time_fields = csv_fields(&[format!("time at {at_last} (s)"), "time low (s)".into(), "time high (s)".into()]);
    html! {
        <>
            if !title.is_empty() { <h4>{ title }</h4> }
            <table class={classes!("results", "extrap-ranking", tree.then_some("tree"))}>
                <thead><tr>
                    <th class="num">{ "#" }</th><th>{ if tree { "region (call tree)" } else { "region" } }</th>{ for heads }
                    <th class="num" data-csv-fields={time_fields}>{ format!("time at {at_last}, s (90 % range)") }</th>
                    <th>{ "model" }</th><th data-csv={format!("grows with {}", r.process_parameter)}>{ format!("with {}", r.process_parameter) }</th><th class="num">{ format!("stops scaling at {}", r.process_parameter) }</th>
                    if imbalance { <th class="num" data-csv-fields={csv_fields(&["imbalance".to_string(), "imbalance grows".to_string()])} title="the region's largest time over its mean across a run's locations, at the largest count measured">{ "imbalance" }</th> }
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            { csv_button("bottlenecks-ranking.csv") }
        </>
    }
}

fn summary(r: &Ranking) -> Html {
    let dom = r.dominant.iter().map(|d| {
        let side = match (&r.side_parameter, d.side) {
            (Some(p), Some(v)) if r.parameters.len() == 2 => format!(" ({p} = {})", fmt_num(v, 6)),
            _ => String::new(),
        };
        html! { <li>{ format!("At {}{side}: ", point_label(r, d.n, &d.point)) }<b>{ d.callpath.clone() }</b>{ format!(" dominates with {} of the run time.", pct(d.share)) }</li> }
    });
    let stop = r.first_to_stop.iter().map(|&i| {
        let f = &r.regions[i];
        html! { <li>{ "First to stop scaling: " }<b>{ f.callpath.clone() }</b>{ format!(" (doubling beyond {} = {} gains under 5 %).", r.process_parameter, f.stops_scaling_n.unwrap_or(0)) }</li> }
    });
    html! { <ul id="extrap-dominant">{ for dom }{ for stop }</ul> }
}

/// Opens a region's points on the speed-up page, in a new tab, as a share link: the speed-up
/// page keeps them in that tab until the user keeps them, so nothing saved there is replaced.
fn open_in_speedup(inputs: PageInputs, store: crate::ui::store::StoreHandle) {
    wasm_bindgen_futures::spawn_local(async move {
        let json = share::pack(speedup::PAGE, &inputs, &Default::default());
        let link = match compress::deflate(&json).await {
            Ok(bytes) => url::link_to(&crate::model::calculators::SPEEDUP, &share::to_param(&bytes)),
            Err(e) => return store.dispatch(Action::Notice(Some(e))),
        };
        let Some(w) = web_sys::window() else { return };
        // A blocked pop-up: open it here instead (the ranking's texts are saved).
        if !matches!(w.open_with_url_and_target(&link, "_blank"), Ok(Some(_))) {
            let _ = w.location().assign(&link);
        }
    });
}

/// The line under the options while a ranking runs (after [`SHOW_PROGRESS_MS`]: its progress
/// and Cancel), after it was cancelled (Rank), or when it failed.
fn progress_line(status: &Status, cancel: Callback<MouseEvent>, restart: &Callback<()>) -> Html {
    match status {
        Status::Current => html! {},
        Status::Running { started, fraction, .. } if now_ms() - started >= SHOW_PROGRESS_MS => html! {
            <p id="extrap-progress" class="hint" role="status">
                <progress max="1" value={fraction.to_string()} />
                if *fraction < 1.0 { { format!(" Fitting the regions: {} % ", fmt_num(fraction * 100.0, 3)) } }
                else { { " Every region fitted; ranking them. " } }
                <button class="secondary" onclick={cancel}>{ "Cancel" }</button>
            </p>
        },
        Status::Running { .. } | Status::Evaluating => html! {},
        Status::Cancelled => html! {
            <p id="extrap-progress" class="hint" role="status">
                { "Ranking cancelled: what is shown is for the texts before. " }
                <button class="secondary" onclick={restart.reform(|_| ())}>{ "Rank" }</button>
            </p>
        },
        Status::Failed(m) => html! { <p id="extrap-progress" class="field-error" role="alert">{ m.clone() }</p> },
    }
}

/// Reads one text file chosen or dropped as the experiment's text (a file is asked to be
/// ranked, even one whose text is the example's); `reader` keeps the read going.
fn text_loader(
    setter: &Setter,
    store: &StoreHandle,
    waiting: &UseStateHandle<bool>,
    reader: Rc<RefCell<Option<FileReader>>>,
) -> Callback<web_sys::File> {
    let (setter, store, waiting) = (setter.clone(), store.clone(), waiting.clone());
    Callback::from(move |file: web_sys::File| {
        waiting.set(false);
        let (setter, store, name) = (setter.clone(), store.clone(), file.name());
        let task = gloo::file::callbacks::read_as_text(&file.into(), move |result| {
            match result {
            // The saved workspace keeps at most MAX_FIELD_BYTES per input.
            Ok(text) if text.len() > MAX_FIELD_BYTES => store.dispatch(Action::Notice(Some(format!(
                "{name}: {} KB is more than the {} KB an input keeps; nothing changed. Use `scalewise bottlenecks` for larger files.",
                text.len() >> 10, MAX_FIELD_BYTES >> 10)))),
            Ok(text) => setter.fill(format!("Loaded {name}"), vec![(KEY_TEXT, text)]),
            Err(e) => store.dispatch(Action::Notice(Some(format!("Cannot read {name}: {e}")))),
        }
        });
        *reader.borrow_mut() = Some(task);
    })
}

#[component(Bottlenecks)]
pub fn bottlenecks() -> Html {
    let PageSetup { store, inputs, setter } = use_page(STORE_PAGE);
    // Only this section's texts: typing in the calculator above does not rank again.
    let own = restrict(&inputs);
    let view = use_state(Shown::empty);
    let good = use_state(Shown::empty);
    let status = use_state(|| Status::Current);
    let kept = use_mut_ref(|| None::<PageInputs>);
    let views = Views { status: status.clone(), view: view.clone(), good: good.clone(), kept: kept.clone() };
    let slot: PoolSlot = use_mut_ref(Default::default);
    let jobs = use_mut_ref(|| 0u64);
    {
        let slot = slot.clone();
        use_effect_with((), move |_| move || stop(&slot));
    }
    let restart = {
        let (slot, views, jobs, own) = (slot.clone(), views.clone(), jobs.clone(), own.clone());
        Callback::from(move |_: ()| {
            *jobs.borrow_mut() += 1;
            if text(&own, KEY_TEXT).trim().is_empty() {
                stop(&slot);
                *views.kept.borrow_mut() = None;
                views.view.set(Shown::empty());
                views.good.set(Shown::empty());
                return views.status.set(Status::Current);
            }
            rank(&slot, &own, &views, *jobs.borrow());
        })
    };
    // The page opens on an example, which is ranked when asked (or once any text changes):
    // ranking loads the workers' wasm, more than the page's budget, which a visit that only
    // reads should not pay.
    let example = use_memo((), |_| restrict(&page::default_inputs()));
    // Only while nothing is saved for the page does it wait: saved texts (a file loaded, even
    // the example's own) rank.
    let saved = !store.page_inputs(PAGE).is_empty();
    let waiting = use_state(|| true);
    {
        let (restart, waiting, example) = (restart.clone(), waiting.clone(), example.clone());
        use_effect_with((own.clone(), saved, *waiting), move |(own, saved, wait)| {
            if *wait && !*saved && *own == *example {
                return;
            }
            if *wait {
                // Set once: the effect runs again for it, and then ranks.
                return waiting.set(false);
            }
            restart.emit(());
        });
    }
    let rank_example = {
        let waiting = waiting.clone();
        Callback::from(move |_: MouseEvent| waiting.set(false))
    };
    let prompt = (*waiting && !saved && own == *example).then(|| {
        html! {
            <p id="extrap-example-prompt" class="hint">
                { "An example experiment (24 regions) is loaded. " }
                <button onclick={rank_example}>{ "Rank it" }</button>
                { " (fits in this browser's Web Workers), or paste or choose your own." }
            </p>
        }
    });
    let cancel = {
        let (slot, status, kept) = (slot.clone(), status.clone(), kept.clone());
        Callback::from(move |_: MouseEvent| {
            stop(&slot);
            *kept.borrow_mut() = None;
            status.set(Status::Cancelled);
        })
    };
    let v = (*view).clone();
    let g = (*good).clone();
    let progress = progress_line(&status, cancel, &restart);
    // The results shown are of other texts while a ranking runs, failed or was cancelled, and
    // while the texts have an error (the last good ranking stays, marked stale); not while the
    // kept fits are evaluated at new targets, which takes less than a frame or two.
    let running = !matches!(*status, Status::Current);
    let stale = (running && *status != Status::Evaluating) || !v.errors.is_empty();
    let reader: Rc<RefCell<Option<FileReader>>> = use_mut_ref(|| None);

    // One text file chosen or dropped: read as the experiment's text.
    let on_text = text_loader(&setter, &store, &waiting, reader);
    let on_load = {
        let store = store.clone();
        use_callback(g.clone(), move |i: usize, v| {
            let Some(r) = &v.ranking else { return };
            let Some(inputs) = speedup_inputs(r, i) else { return };
            open_in_speedup(inputs, store.clone());
        })
    };
    let error =
        |key: &str| (!running).then(|| v.errors.iter().find(|e| e.0 == key).map(|e| e.1.local_text())).flatten();
    let text_error = error(KEY_TEXT);
    // A long text is held back from the text box until asked for (TEXT_SHOWN_UP_TO).
    let shown = use_state_eq(|| false);
    let text_len = text(&inputs, KEY_TEXT).len();
    let held = text_len > TEXT_SHOWN_UP_TO && !*shown;
    let show_text = {
        let shown = shown.clone();
        Callback::from(move |_: MouseEvent| shown.set(true))
    };
    let oninput = setter.on(KEY_TEXT);
    let oninput = Callback::from(move |e: InputEvent| {
        let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
        oninput.emit(area.value());
    });

    html! {
        <section id="extrap" class="extrap">
            <h1>{ "Bottlenecks at scale" }</h1>
            <p class="lead">
                { "An experiment of " }<a href="https://github.com/extra-p/extrap">{ "Extra-P" }</a>
                { " (text, JSON, JSON Lines or Talpas, one to four parameters) with many regions: each region's median \
                   times get a model whichever way they move (Extra-P's terms growing or falling, a power law, the speed-up \
                   calculator's models; sums and products of terms over several parameters), chosen by points held out, and \
                   the regions are ranked by predicted share of the run time. Which region dominates at the count you plan \
                   to book, and which stops scaling first? Click a region to open its points in the speed-up calculator." }
            </p>
            <div class="grid-2">
                <div class={classes!("table-input", text_error.is_some().then_some("invalid"))}>
                    <RunsFiles setter={setter.clone()} {on_text} />
                    if held {
                        <p id="extrap-text-held" class="hint">
                            { format!("The experiment is {} KB of text: kept and saved, not shown, so that the page stays quick. ", text_len >> 10) }
                            <button class="secondary" id="extrap-text-show" onclick={show_text}>{ "Show the text" }</button>
                        </p>
                    } else {
                        <label for="extrap-text">{ "Extra-P experiment (paste, or choose or drop files above)" }</label>
                        <textarea id="extrap-text" rows="8" spellcheck="false" value={text(&inputs, KEY_TEXT)} {oninput}
                            aria-invalid={text_error.is_some().to_string()} aria-describedby="extrap-text-error" />
                    }
                    <ul id="extrap-text-error" class="field-errors" role="alert">
                        { for text_error.iter().map(|e| html! { <li>{ e.clone() }</li> }) }
                    </ul>
                </div>
                <div>
                    { options_fields(&inputs, &setter, &v, &g, &error) }
                </div>
            </div>
            { for prompt }
            { progress }
            <ExtrapResults view={g} {stale} {on_load} />
            <SharePanel page={PAGE} />
        </section>
    }
}

/// The section's texts of a page's inputs.
fn restrict(inputs: &PageInputs) -> PageInputs {
    [KEY_TEXT, KEY_PREDICT, KEY_HOLD, KEY_METRIC, KEY_PROCESS]
        .iter()
        .filter_map(|k| inputs.get(*k).map(|v| (k.to_string(), v.clone())))
        .collect()
}

/// A select of one of the page's inputs: `options` (value, label), the first the default;
/// a saved value not among them stays, said so, until another is chosen.
fn choice(
    inputs: &PageInputs,
    setter: &Setter,
    key: &'static str,
    label: String,
    options: Vec<(String, String)>,
    error: Option<String>,
) -> Html {
    let current = text(inputs, key).to_string();
    let mut options = options;
    if !options.iter().any(|(v, _)| *v == current) {
        options.push((current.clone(), format!("{current} (not in this experiment)")));
    }
    let setter = setter.clone();
    let onchange = Callback::from(move |e: Event| {
        let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
        setter.set(key, sel.value());
    });
    let invalid = error.is_some();
    html! {
        <div class={classes!("field", invalid.then_some("invalid"))}>
            <label for={key}>{ label }</label>
            <select id={key} {onchange} aria-invalid={invalid.to_string()}>
                { for options.into_iter().map(|(v, l)| html! { <option selected={v == current} value={v.clone()}>{ l }</option> }) }
            </select>
            if let Some(e) = error { <div class="field-error" role="alert">{ e }</div> }
        </div>
    }
}

/// The ranking's options: where to rank, the metric, the process count, the value held. They
/// stay while their value is wrong (its error under it), from the experiment of the texts,
/// or while that has an error, of the last one ranked.
fn options_fields(
    inputs: &PageInputs,
    setter: &Setter,
    v: &ExtrapView,
    good: &ExtrapView,
    error: &dyn Fn(&str) -> Option<String>,
) -> Html {
    let of = if v.parameters.is_empty() { good } else { v };
    let params = &of.parameters;
    let pp = of.process_parameter.clone().or_else(|| params.first().cloned()).unwrap_or_else(|| "n".into());
    let rank_label = if params.len() >= 2 {
        format!("rank at {pp}, or at whole points {} (empty: 4× and 16× the largest {pp} measured)", params.join(":"))
    } else {
        format!("rank at {pp} (empty: 4× and 16× the largest {pp} measured)")
    };
    let predict = html! {
        <TextField id={KEY_PREDICT} label={rank_label} value={text(inputs, KEY_PREDICT)} on_input={setter.on(KEY_PREDICT)} error={error(KEY_PREDICT)} />
    };
    if params.is_empty() {
        return html! { <div class="form-row">{ predict }</div> };
    }
    let metric_default = if of.metrics.iter().any(|m| m.eq_ignore_ascii_case("time")) {
        "time".to_string()
    } else {
        of.metrics.first().cloned().unwrap_or_default()
    };
    let mut metrics = vec![(String::new(), format!("{metric_default} (the default)"))];
    metrics.extend(of.metrics.iter().map(|m| (m.clone(), m.clone())));
    let guessed = good
        .ranking
        .as_ref()
        .map(|r| r.process_parameter.clone())
        .filter(|_| text(inputs, KEY_PROCESS).is_empty())
        .unwrap_or_else(|| pp.clone());
    let mut processes = vec![(String::new(), format!("{guessed} (guessed from the names)"))];
    processes.extend(params.iter().map(|p| (p.clone(), p.clone())));
    let ranking = good.ranking.as_ref();
    html! {
        <>
            <div class="form-row">{ predict }
                { choice(inputs, setter, KEY_METRIC, "metric".into(), metrics, error(KEY_METRIC)) }
            </div>
            if params.len() >= 2 {
                <div class="form-row">
                    { choice(inputs, setter, KEY_PROCESS, "process count".into(), processes, error(KEY_PROCESS)) }
                    { page_field(inputs, setter, KEY_HOLD, "the other parameter: largest, a value, or per-value", None, error(KEY_HOLD)) }
                </div>
            }
            if let Some(r) = ranking {
                <p class="hint">{ format!("{} format, {} region(s) of metric \"{}\", process count: {}.", of.format.map_or("", |f| f.name()), r.regions.len(), r.metric, r.process_parameter) }</p>
                if !r.warnings.is_empty() {
                    <ul class="warnings">{ for r.warnings.iter().map(|w| html! { <li>{ w.message.clone() }</li> }) }</ul>
                }
            }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct ResultsProps {
    view: Shown,
    /// The texts have changed since (a ranking is under way, was cancelled or failed).
    stale: bool,
    on_load: Callback<usize>,
}

/// The ranking, its summary and chart: a component of its own, so that the progress of the
/// next ranking does not render a table of thousands of rows again.
#[component(ExtrapResults)]
fn extrap_results(props: &ResultsProps) -> Html {
    let chart = use_memo(props.view.clone(), |v| v.chart.as_ref().map(|c| Rc::new(shares(c))));
    // The call tree's nodes opened or closed, by call path (kept while the ranking is redrawn).
    let toggled = use_state(HashSet::<String>::new);
    let all = use_state_eq(|| false);
    let along = use_memo(props.view.clone(), |v| v.ranking.as_ref().map(Opened::along).unwrap_or_default());
    let opened = Opened { toggled: (*toggled).clone(), all: *all, along: (*along).clone() };
    let on_toggle = {
        let toggled = toggled.clone();
        Callback::from(move |path: String| {
            let mut c = (*toggled).clone();
            if !c.remove(&path) {
                c.insert(path);
            }
            toggled.set(c);
        })
    };
    let open_all = {
        let (toggled, all) = (toggled.clone(), all.clone());
        Callback::from(move |_: MouseEvent| {
            toggled.set(HashSet::new());
            all.set(!*all);
        })
    };
    let Some(r) = &props.view.ranking else { return html! {} };
    let on_load = &props.on_load;
    html! {
        <div class={classes!("extrap-results", props.stale.then_some("is-stale"))} aria-busy={props.stale.to_string()}>
            { summary(r) }
            if Opened::large(r) {
                <p id="extrap-tree-opened" class="hint">
                    { match (r.tree.nesting == Nesting::Flat, *all) {
                        (true, true) => format!("All {} regions are listed. ", r.regions.len()),
                        (true, false) => format!("The {TREE_OPEN_UP_TO} largest of {} regions at the last target are listed. ", r.regions.len()),
                        (false, true) => format!("Every node of the {} regions' call tree is open. ", r.regions.len()),
                        (false, false) => format!("The call tree of {} regions is open along the path to the dominant region; open a node for its callees. ", r.regions.len()),
                    } }
                    <button class="secondary" id="extrap-tree-all" onclick={open_all}>{ match (r.tree.nesting == Nesting::Flat, *all) {
                        (true, true) => "List the largest only",
                        (true, false) => "List every region",
                        (false, true) => "Close to the dominant path",
                        (false, false) => "Open every node",
                    } }</button>
                </p>
            }
            <div id="extrap-ranking">
                { for sides(r).into_iter().map(|s| ranking_table(r, s, on_load, &opened, &on_toggle)) }
            </div>
            <p class="hint">{ format!("Share: the region's time over all regions' (exclusive times). Ranges at 90 %, wider the further \
                beyond the data. Grows: the region's time rises with {p} beyond the largest count measured. Stops scaling: \
                doubling {p} gains under 5 %.", p = r.process_parameter) }</p>
            if let Some(c) = (*chart).clone() { <Chart id="chart-extrap-shares" chart={drawing(c)} /> }
            if r.parameters.len() >= 2 { <HeatMapView view={props.view.clone()} /> }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct HeatProps {
    view: Shown,
}

/// Most regions offered one by one for the heat map (the largest at the last target).
const HEAT_CHOICES: usize = 40;

/// Predicted time over the process count and the second parameter, of all regions or one.
#[component(HeatMapView)]
fn heat_map_view(props: &HeatProps) -> Html {
    let region = use_state(|| None::<usize>);
    let map =
        use_memo((props.view.clone(), *region), |(v, region)| v.ranking.as_ref().and_then(|r| heat_map(r, *region)));
    let Some(r) = &props.view.ranking else { return html! {} };
    let Some(h) = (*map).clone() else { return html! {} };
    let onchange = {
        let region = region.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            region.set(sel.value().parse::<usize>().ok());
        })
    };
    let choices: Vec<usize> =
        r.tables.last().map(|t| t.rows.iter().take(HEAT_CHOICES).map(|s| s.region).collect()).unwrap_or_default();
    let options = choices.iter().map(|&i| html! { <option value={i.to_string()} selected={*region == Some(i)}>{ r.regions[i].callpath.clone() }</option> });
    html! {
        <div class="heat">
            <label for="extrap-heat-region">{ "Heat map of the predicted time: " }</label>
            <select id="extrap-heat-region" {onchange}>
                <option value="" selected={region.is_none()}>{ "all regions (their sum)" }</option>
                { for options }
            </select>
            { heat_table(r, &h, region.is_none()) }
            { csv_button("bottlenecks-heat-map.csv") }
        </div>
    }
}

/// The second parameter's values the ranking has tables of: those held, then those of whole
/// points asked elsewhere (None: one parameter).
fn sides(r: &Ranking) -> Vec<Option<f64>> {
    let mut out: Vec<Option<f64>> = r.side_values.iter().copied().map(Some).collect();
    for t in &r.tables {
        if !out.contains(&t.side) {
            out.push(t.side);
        }
    }
    if out.is_empty() {
        out.push(None);
    }
    out
}

/// A model's formula, each term kept on one line (a line breaks only between terms, never
/// inside a number such as 6.627e-5).
fn formula(text: Option<&str>) -> Html {
    let Some(text) = text else { return html! { "—" } };
    let terms = text
        .split(" + ")
        .enumerate()
        .map(|(k, t)| html! { <>{ if k > 0 { " + " } else { "" } }<span class="term">{ t.to_string() }</span></> });
    html! { <>{ for terms }</> }
}

/// Short name of a call path: its last part.
fn short(callpath: &str) -> &str {
    callpath.rsplit("->").next().unwrap_or(callpath)
}

fn heat_table(r: &Ranking, h: &HeatMap, all: bool) -> Html {
    let times = h.cells.iter().flatten().flatten().map(|c| c.time_s).filter(|t| *t > 0.0);
    let (lo, hi) = times.fold((f64::INFINITY, 0.0f64), |(a, b), t| (a.min(t), b.max(t)));
    let span = (hi / lo).ln().max(1e-9);
    let held: Vec<String> = r
        .parameters
        .iter()
        .enumerate()
        .filter(|(j, p)| *j != r.process_index && **p != h.y_name)
        .map(|(j, p)| format!("{p} = {}", fmt_num(r.base[j], 6)))
        .collect();
    let caption = format!(
        "Predicted time in s{}{}; rows {}, columns {}. Darker is longer.",
        if all { " (all regions) and the region that takes most of it" } else { " of the region and its share" },
        if held.is_empty() { String::new() } else { format!(", {} held", held.join(", ")) },
        h.y_name,
        h.x_name
    );
    let rows = h.ys.iter().zip(&h.cells).map(|(y, row)| {
        let cells = row.iter().map(|c| match c {
            Some(c) => {
                let light = 96.0 - 52.0 * ((c.time_s.max(lo) / lo).ln() / span);
                let style = format!("background:hsl(210 60% {light:.0}%);color:{}", if light < 62.0 { "#fff" } else { "#111" });
                let note = if all { short(&r.regions[c.top].callpath).to_string() } else { pct(c.share) };
                let title = format!("{}: {} of the time", r.regions[c.top].callpath, pct(c.share));
                let second = if all { r.regions[c.top].callpath.clone() } else { csv_num(c.share * 100.0) };
                let fields = csv_fields(&[csv_num(c.time_s), second]);
                html! { <td class="num" {style} {title} data-csv-fields={fields}>{ fmt_num(c.time_s, 3) }<br /><small>{ note }</small></td> }
            }
            None => html! { <td class="num" data-csv-fields={csv_fields(&[String::new(), String::new()])}>{ "—" }</td> },
        });
        html! { <tr><th scope="row" class="num">{ fmt_num(*y, 6) }</th>{ for cells }</tr> }
    });
    html! {
        <table id="extrap-heat" class="results heat-map">
            <caption>{ caption }</caption>
            <thead><tr><th scope="col" data-csv={h.y_name.clone()}>{ format!("{} \\ {}", h.y_name, h.x_name) }</th>
                { for h.xs.iter().map(|x| {
                    let at = format!("{} = {}", h.x_name, fmt_num(*x, 6));
                    let fields = csv_fields(&[format!("time at {at} (s)"), if all { format!("top region at {at}") } else { format!("share at {at} (%)") }]);
                    html! { <th scope="col" class="num" data-csv-fields={fields}>{ fmt_num(*x, 6) }</th> }
                }) }</tr></thead>
            <tbody>{ for rows }</tbody>
        </table>
    }
}

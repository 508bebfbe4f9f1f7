//! The speed-up curve page (seed 004). It reads its input texts from the store, calls
//! `model::speedup::page::view_deferred`, and renders what comes back. While the points table
//! has an error, the results are the last good ones, marked stale. A weak-scaling series is
//! modelled by the Bottlenecks search, which runs in one Web Worker (`ui::bottlenecks_worker`,
//! `page::weak_of`): its code is not in this page's wasm, which has no room for it.

use std::rc::Rc;

use yew::prelude::*;

use crate::charts::speedup::{fits, weak_times};
use crate::charts::XyChart;
use crate::model::allocation::SpeedupRows;
use crate::model::calculators;
use crate::model::fmt_num;
use crate::model::speedup::page::{
    self as page, Field, ForecastRow, ModelRow, PageView, TrackRow, PAGE, POINT_COLUMNS,
};
use crate::model::speedup::weak::{unflatten, Weak};
use crate::model::speedup::{PointView, Prediction};
use crate::model::workspace::PageField;
use crate::model::workspace::PageInputs;
use crate::model::InputError;
use crate::ui::components::chart::{drawing, Chart};
use crate::ui::components::number_field::{page_check, page_field, page_select};
use crate::ui::components::share_panel::SharePanel;
use crate::ui::components::stale::{keep_own, stale_note, Shown};
use crate::ui::components::table_csv::csv_button;
use crate::ui::components::table_input::TableInput;
use crate::ui::store::{text, use_page, Action, Page, PageSetup, Setter};
use crate::ui::worker_pool::{self, stop, Job, Pool, PoolSlot};

use super::allocation::AllocationTable;

fn n(x: f64) -> String {
    fmt_num(x, 4)
}

fn opt(x: Option<f64>) -> String {
    x.map(n).unwrap_or_default()
}

fn model_row(m: &ModelRow) -> Html {
    let id = format!("model-{}", m.model.name());
    if let Some(reason) = &m.skipped_reason {
        return html! { <tr {id} class="skipped"><td>{ m.label }</td><td colspan="6" class="hint">{ format!("skipped: {reason}") }</td></tr> };
    }
    let params = m.params.iter().map(|p| {
        let shown = match p.name {
            "sigma" => "σ",
            "kappa" => "κ",
            "beta" => "β",
            other => other,
        };
        html! { <span id={format!("param-{}-{}", m.model.name(), p.name)} class="param">{ format!("{shown} = {}", p.text) }</span> }
    });
    let mut notes = m.notes.clone();
    if !m.ranked {
        notes.push("not ranked (fitted to other points)".into());
    }
    html! {
        <tr {id} class={classes!(m.is_best.then_some("best"))}>
            <td>{ m.label }{ if m.is_best { " ★" } else { "" } }</td>
            <td>{ for params }</td>
            <td class="num">{ opt(m.sse) }</td>
            <td class="num">{ opt(m.aicc) }</td>
            <td class="num">{ opt(m.loo) }</td>
            <td class="num">{ m.points_used }</td>
            <td class="hint">{ notes.join("; ") }</td>
        </tr>
    }
}

fn range(v: f64, lo: f64, hi: f64) -> String {
    format!("{} ({}–{})", n(v), n(lo), n(hi))
}

/// n, speed-up, efficiency and time of a prediction, each with its range.
fn prediction_cells(p: &Prediction) -> Html {
    html! {
        <>
            <td class="num">{ p.n }</td>
            <td class="num"><b>{ range(p.speedup, p.speedup_low, p.speedup_high) }</b></td>
            <td class="num">{ format!("{} %", fmt_num(p.efficiency * 100.0, 3)) }</td>
            <td class="num">{ p.time_s.map(|(t, lo, hi)| range(t, lo, hi)).unwrap_or_else(|| "—".into()) }</td>
        </>
    }
}

fn prediction_row(p: &Prediction) -> Html {
    html! { <tr>{ prediction_cells(p) }</tr> }
}

fn forecast_row(f: &ForecastRow) -> Html {
    html! {
        <tr class={classes!(f.node_note.is_some().then_some("flagged"))}>
            { prediction_cells(&f.prediction) }
            <td class="hint">
                if let Some(note) = &f.node_note { <b class="node-note">{ format!("Leaves the node: {note}.") }</b><br /> }
                { f.track_record.clone() }
            </td>
        </tr>
    }
}

fn track_row(t: &TrackRow) -> Html {
    html! {
        <tr>
            <td>{ t.label.clone() }</td>
            <td class="num">{ format!("{} %", fmt_num(100.0 * t.coverage, 3)) }</td>
            <td class="num">{ t.predictions }</td>
            <td class="num">{ t.width.map(|w| format!("{} %", fmt_num(100.0 * w, 3))).unwrap_or_else(|| "—".into()) }</td>
        </tr>
    }
}

fn point_row(p: &PointView) -> Html {
    let mut flags = Vec::new();
    if p.past_peak {
        flags.push(if p.in_monotone_fits {
            "past the peak (included)".to_string()
        } else {
            "past the peak: left out".to_string()
        });
    }
    if p.super_linear {
        flags.push("super-linear".into());
    }
    if p.merged_rows > 1 {
        flags.push(format!("mean of {} rows", p.merged_rows));
    }
    html! {
        <tr class={classes!(p.past_peak.then_some("flagged"))}>
            <td class="num">{ p.n }</td>
            <td class="num">{ opt(p.speedup) }</td>
            <td class="num">{ opt(p.time_s) }</td>
            <td class="num">{ p.efficiency.map(|e| format!("{} %", fmt_num(e * 100.0, 3))).unwrap_or_default() }</td>
            <td class="num">{ opt(p.karp_flatt) }</td>
            <td class="num">{ n(p.weight) }</td>
            <td class="num">{ p.nodes.map(|d| d.to_string()).unwrap_or_default() }</td>
            <td class="hint">{ flags.join("; ") }</td>
        </tr>
    }
}

/// A table head; cells starting with '#' are numeric columns (right-aligned), the '#' dropped.
fn head(cells: &[&str]) -> Html {
    html! { <thead><tr>{ for cells.iter().map(|c| match c.strip_prefix('#') {
        Some(c) => html! { <th class="num">{ c }</th> },
        None => html! { <th>{ *c }</th> },
    }) }</tr></thead> }
}

/// The weak-scaling results: the time's model, its predictions with the efficiency, the points.
fn weak_results(w: &Weak, stale: bool) -> Html {
    let pct = |e: f64| format!("{} %", fmt_num(e * 100.0, 3));
    let rows = w.predictions.iter().map(|p| html! {
        <tr>
            <td class="num">{ p.n }</td>
            <td class="num"><b>{ range(p.time_s.0, p.time_s.1, p.time_s.2) }</b></td>
            <td class="num">{ format!("{} ({}–{})", pct(p.efficiency.0), pct(p.efficiency.1), pct(p.efficiency.2)) }</td>
        </tr>
    });
    let points = w.points.iter().map(|p| html! {
        <tr>
            <td class="num">{ p.n }</td>
            <td class="num">{ n(p.time_s) }</td>
            <td class="num">{ pct(p.efficiency) }</td>
            <td class="hint">{ if p.merged_rows > 1 { format!("mean of {} rows", p.merged_rows) } else { String::new() } }</td>
        </tr>
    });
    html! {
        <>
            <h2>{ "Weak scaling" }</h2>
            { stale_note(stale, "Stale: the points have an error; these are the last good results.") }
            <p id="weak-model">
                { "The time's model: " }<code>{ w.formula.clone() }</code>
                { format!(" ({}, chosen by leave-one-out{}). Efficiency: T({})/T(n), the time at the smallest count measured over the time at n.",
                    w.family,
                    w.loo.map(|e| format!(", error {} at a point left out", pct(e))).unwrap_or_default(),
                    w.base_n) }
            </p>
            <table id="weak-predictions" class="results">
                { head(&["#n", "#time, s (90 % range)", "#efficiency (90 % range)"]) }
                <tbody>{ for rows }</tbody>
            </table>
            { csv_button("speedup-weak.csv") }
            <p class="hint">{ "Modelled as the Bottlenecks page models a region; the 90 % range widens with each doubling beyond the data (VALIDATION.md)." }</p>
            <h3>{ "Points" }</h3>
            <table id="weak-points" class="results">
                { head(&["#n", "#time (s)", "#efficiency", "flags"]) }
                <tbody>{ for points }</tbody>
            </table>
        </>
    }
}

use crate::model::bottlenecks::worker::{self as bottlenecks_worker, ToWorker};
use crate::ui::bottlenecks_worker::LOADER as WORKER;

/// This page in the store.
const STORE_PAGE: Page = Page { calculator: &calculators::SPEEDUP, defaults: page::default_inputs };

/// The weak-scaling analysis of some inputs, from the worker.
type WeakAnswer = Option<(Rc<PageInputs>, Rc<Result<Weak, InputError>>)>;

/// One weak-scaling analysis on the worker.
struct WeakJob {
    job: u64,
    inputs: Rc<PageInputs>,
    answer: UseStateHandle<WeakAnswer>,
    failed: UseStateHandle<Option<String>>,
}

/// An answer compared by pointer: the same one or not.
#[derive(Clone)]
struct ByPtr(Rc<Result<Weak, InputError>>);

impl PartialEq for ByPtr {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl WeakJob {
    /// A message that cannot be read ends the job, saying so.
    fn unreadable(&self) -> Option<bool> {
        self.failed.set(Some("the weak-scaling analysis could not be read from its worker".into()));
        Some(false)
    }
}

impl Job for WeakJob {
    fn on_message(&mut self, _: usize, text: &str) -> Option<bool> {
        let Ok(bottlenecks_worker::WeakAnswer { weak: flat, job }) =
            serde_json::from_str::<bottlenecks_worker::WeakAnswer>(text)
        else {
            return self.unreadable();
        };
        if job != self.job {
            return None;
        }
        // Empty: nothing to model.
        if flat.nums.is_empty() {
            return Some(true);
        }
        let Some(r) = unflatten(&flat) else { return self.unreadable() };
        self.answer.set(Some((self.inputs.clone(), Rc::new(r))));
        Some(true)
    }

    fn on_error(&mut self) {
        self.failed.set(Some("the worker that models weak scaling failed to load or stopped".into()));
    }
}

/// A strong-scaling series' results: the fits, the forecast and its track record, the best
/// model's predictions, the allocation table, the chart, the points and where to measure next.
fn strong_results(
    shown: &PageView,
    stale: bool,
    inputs: &Rc<PageInputs>,
    setter: &Setter,
    allocation_rows: Rc<SpeedupRows>,
    chart: Option<Rc<XyChart>>,
) -> Html {
    let best_label = shown.models.iter().find(|m| m.is_best).map(|m| m.label);
    html! {
        <>
        <h2>{ "Fits" }</h2>
        { stale_note(stale, "Stale: the points have an error; these are the last good fits.") }
        <table id="fits" class="results">
            { head(&["model", "parameters (± standard error)", "#squared error", "#AICc", "#leave-one-out error", "#points", "notes"]) }
            <tbody>{ for shown.models.iter().map(model_row) }</tbody>
        </table>
        { csv_button("speedup-fits.csv") }
        <p id="best-reason">
            if let Some(l) = best_label { <b>{ format!("Best: {l}. ") }</b> }
            { shown.best_reason.clone() }
        </p>

        <h3 id="forecast-heading">{ "Forecast: the prediction to quote" }</h3>
        <table id="forecast" class="results">
            { head(&["#n", "#speed-up (90 % range)", "#efficiency", "#time, s (90 % range)", "track record"]) }
            <tbody>{ for shown.forecast.iter().map(forecast_row) }</tbody>
        </table>
        { csv_button("speedup-forecast.csv") }
        <p class="hint">
            { "Amdahl's law read from every point, blended with the trend of the last two, both through the largest \
               measured n; chosen on real scaling series, each source held out in turn (VALIDATION.md). Its 90 % range \
               widens with the distance beyond the data and with how much simple laws disagree. A prediction that needs \
               more nodes than every measured run used is said, and scaled from the node's size on." }
        </p>
        <table id="track-record" class="results">
            { head(&["how far beyond the largest measured n", "#ranges held", "#predictions", "#median width"]) }
            <tbody>{ for shown.track_record.iter().map(track_row) }</tbody>
        </table>
        { csv_button("speedup-track-record.csv") }
        <p class="hint">{ "Track record: how often the forecast's ranges held on sources left out of their setting, for as many measured counts as yours." }</p>
        <h3 id="predictions-heading">{ "An alternative: the best-fitting model alone" }</h3>
        <p class="hint">{ "For comparison: quote the forecast above. Alone, the best fit errs more beyond the data \
            (VALIDATION.md)." }</p>
        <table id="predictions" class="results">
            { head(&["#n", "#speed-up (90 % range)", "#efficiency", "#time, s (90 % range)"]) }
            <tbody>{ for shown.best_predictions.iter().map(prediction_row) }</tbody>
        </table>
        { csv_button("speedup-predictions.csv") }
        <p class="hint">{ "Ranges: how far this model's predictions fell from measured times at such horizons, 90 % of the time, on the validation series." }</p>
        <AllocationTable<SpeedupRows> inputs={inputs.clone()} setter={setter.clone()} rows={allocation_rows} empty="Needs run times." file="speedup" />

        <div class="form-row">
            { page_select(inputs, setter, Field::ChartY.key(), "chart shows", &[("speedup", "speed-up"), ("time", "run time")]) }
            { page_select(inputs, setter, Field::ChartAxes.key(), "axes", &[("log", "log–log"), ("linear", "linear")]) }
        </div>
        if let Some(c) = chart { <Chart id="chart-speedup-fits" chart={drawing(c)} /> }

        <h2>{ "Points" }</h2>
        <table id="points-table" class="results">
            { head(&["#n", "#speed-up", "#time (s)", "#efficiency", "#Karp–Flatt e", "#weight", "#nodes", "flags"]) }
            <tbody>{ for shown.points.iter().map(point_row) }</tbody>
        </table>
        { csv_button("speedup-points.csv") }
        <p class="hint">{ "Karp–Flatt e(n) = (1/S − 1/n)/(1 − 1/n): a serial fraction that grows with n points to overhead, not to a serial part." }</p>

        <h2>{ "Where to measure next" }</h2>
        <p id="advice">{ shown.advice_text.clone() }</p>
        <ul>{ for shown.advice.iter().map(|s| html! { <li class={classes!(s.already_measured.then_some("hint"))}>{ s.text.clone() }</li> }) }</ul>
        </>
    }
}

#[component(Speedup)]
pub fn speedup() -> Html {
    let PageSetup { store, inputs, setter } = use_page(STORE_PAGE);
    let last = use_mut_ref(|| None::<Rc<PageView>>);

    // Weak scaling: the worker models the series of these inputs; its answer is put in the
    // view while the inputs stay those it was for.
    let answer = use_state(|| None as WeakAnswer);
    let failed = use_state(|| None::<String>);
    let pool: PoolSlot = use_mut_ref(Pool::default);
    // The view is computed again only when the inputs change (it does not depend on the
    // catalog) or the worker's answer for them comes in.
    let answered = (*answer).as_ref().filter(|(for_inputs, _)| **for_inputs == *inputs).map(|(_, r)| ByPtr(r.clone()));
    let view: Rc<PageView> = use_memo((inputs.clone(), answered), |(i, answered)| {
        let mut v = page::view_deferred(i);
        if let (Some(ByPtr(r)), true) = (answered, v.weak_pending) {
            page::apply_weak(&mut v, (**r).clone());
        }
        v
    });
    let jobs = use_mut_ref(|| 0u64);
    {
        let (pending, answer, failed, pool) = (view.weak_pending, answer.clone(), failed.clone(), pool.clone());
        use_effect_with(inputs.clone(), move |i| {
            if pending {
                if pool.borrow().busy() {
                    stop(&pool);
                }
                *jobs.borrow_mut() += 1;
                let job = *jobs.borrow();
                let text = serde_json::to_string(&ToWorker::Weak { inputs: &**i, job }).unwrap_or_default();
                failed.set(None);
                let run = WeakJob { job, inputs: i.clone(), answer, failed: failed.clone() };
                if !worker_pool::start_on(&pool, WORKER, 1, &|_, _| text.clone(), Box::new(run)) {
                    failed.set(Some("this browser could not start a Web Worker, which models weak scaling".into()));
                }
            }
        });
    }

    // The results: the current evaluation, or the last good one (stale) while the points
    // have an error; while the worker models a weak-scaling series, its last one.
    let broken = view.points_error.is_some() || (view.models.is_empty() && view.weak.is_none());
    // The page's example is not kept to show under the user's first error.
    let example =
        use_memo(inputs.clone(), |i| <page::SpeedupPage as crate::model::calculators::Contract>::is_example(i));
    let Shown { value: shown, stale } = if view.weak_pending {
        let held = last.borrow().clone().filter(|l| l.weak.is_some());
        Shown { value: held.unwrap_or_else(|| view.clone()), stale: false }
    } else {
        keep_own(&mut last.borrow_mut(), view.clone(), broken, *example)
    };
    let chart = use_memo(shown.clone(), |v| match &v.weak {
        Some(w) => Some(Rc::new(weak_times(w))),
        None => v.chart.as_ref().map(|c| Rc::new(fits(c, v.best))),
    });
    let f = |field: Field, label: &'static str| {
        page_field(&inputs, &setter, field.key(), label, None, view.field_errors.get(field.key()).cloned())
    };

    let presets = page::presets().into_iter().map(|p| {
        let store = store.clone();
        let (inputs, label) = (p.inputs, format!("Loaded the preset {}", p.name));
        let onclick = Callback::from(move |_| {
            store.dispatch(Action::SetPage { page: STORE_PAGE, inputs: inputs.clone(), label: label.clone() })
        });
        html! { <button class="secondary" title={p.description} {onclick}>{ format!("Load: {}", p.name) }</button> }
    });
    let points_errors = view.points_error.clone().into_iter().collect::<Vec<_>>();
    // The allocation table ranks the measured counts with the forecast the page leads with.
    let allocation_rows = Rc::new(match &shown.weak {
        Some(w) => SpeedupRows::of_weak(w),
        None => SpeedupRows {
            measured: shown.points.iter().filter_map(|p| Some((p.n, p.time_s?, p.efficiency?))).collect(),
            forecast: shown.forecast.iter().map(|f| f.prediction.clone()).collect(),
        },
    });

    html! {
        <section class="speedup">
            <h1>{ "Speed-up curve" }</h1>
            <p class="lead">
                { page::LEAD }
            </p>
            <div class="toolbar">{ for presets }</div>

            <h2>{ "Measurements" }</h2>
            <div class="grid-2">
                <TableInput id="points" label="n and time (or speed-up), optional weight" columns={POINT_COLUMNS}
                    value={text(&inputs, Field::Points.key())} on_input={setter.on(Field::Points.key())} errors={points_errors} rows={9}
                    hint="A header row names the columns: n, time (s, ms, µs…) or speedup, weight, nodes. Without one: n, then what the next field says." />
                <div>
                    <div class="form-row">
                        { page_select(&inputs, &setter, Field::SecondColumn.key(), "second column without a header", &[("auto", "guess from the data"), ("speedup", "speed-up"), ("time", "time (s)")]) }
                        { f(Field::Target, "predict at n (comma separated)") }
                        { page_select(&inputs, &setter, Field::Scaling.key(), "scaling", &[("strong", "strong: a fixed problem"), ("weak", "weak: the work grows with n")]) }
                    </div>
                    if text(&inputs, Field::Scaling.key()).trim() != "weak" {
                        <div class="form-row">
                            { f(Field::Models, "models (empty: all)") }
                            { page_check(&inputs, &setter, Field::IncludePastPeak.key(), " fit the points past the peak too") }
                        </div>
                        <div class="form-row">
                            { f(Field::CoresPerNode, "cores per node (optional)") }
                        </div>
                    }
                    if !view.warnings.is_empty() {
                        <ul id="warnings" class="warnings">{ for view.warnings.iter().map(|w| html! { <li>{ w.message.clone() }</li> }) }</ul>
                    }
                </div>
            </div>

            if let Some(w) = &shown.weak {
                { weak_results(w, stale) }
                <AllocationTable<SpeedupRows> inputs={inputs.clone()} setter={setter.clone()} rows={allocation_rows.clone()} empty="Needs run times." file="speedup" />
                if let Some(c) = (*chart).clone() { <Chart id="chart-speedup-weak" chart={drawing(c)} /> }
            } else if view.weak_pending {
                if let Some(e) = &*failed {
                    <p id="weak-pending" class="error" role="alert">{ format!("Weak scaling could not be modelled: {e}.") }</p>
                } else {
                    <p id="weak-pending" class="hint">{ "Modelling the weak-scaling series…" }</p>
                }
            } else {
                { strong_results(&shown, stale, &inputs, &setter, allocation_rows, (*chart).clone()) }
            }

            <p class="hint">{ "An Extra-P experiment of many regions? " }<a href="bottlenecks.html">{ "Bottlenecks at scale" }</a>{ " fits every region and ranks them by their share of the run time." }</p>

            <SharePanel page={PAGE} />
        </section>
    }
}

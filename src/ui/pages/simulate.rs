//! The virtual parallel machine page (seed 001). The inputs are checked as they are typed
//! (`model::simulate::page::prepare`); Run hands them to Web Workers (`ui::simulate_worker`, one per core,
//! kept for the next run), which post back progress and the finished results; Cancel
//! terminates them. The page's own thread only renders.

use std::rc::Rc;

use serde::de::IgnoredAny;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use super::simulate_timeline::RunTimeline;
use crate::charts::simulate::{run_times, speedup};
use crate::model::calculators;
use crate::model::fmt_num;
use crate::model::simulate::page::{self as page, Field, ResultView, RowView, PAGE};
use crate::model::simulate::worker::{FromWorker, ToWorker};
use crate::model::workspace::{PageField, PageInputs};
use crate::model::InputError;
use crate::ui::bench::now_ms;
use crate::ui::components::chart::{drawing, Chart};
use crate::ui::components::number_field::{field_set_select, page_check, page_field, page_select};
use crate::ui::components::share_panel::SharePanel;
use crate::ui::components::table_csv::csv_button;
use crate::ui::store::{text, use_page, Action, Page, PageSetup, Setter};
use crate::ui::worker_pool::{self, stop, warm, worker_count, Job, Pool, PoolSlot};

/// This page in the store.
const STORE_PAGE: Page = Page { calculator: &calculators::SIMULATE, defaults: page::default_inputs };

/// The worker script trunk writes next to the page (`data-loader-shim`).
const WORKER: &str = "sw-simulate-worker_loader.js";

#[derive(Clone, PartialEq)]
enum RunState {
    Idle,
    /// The fraction done and the messages simulated a second so far ([`pace`]).
    Running(f64, f64),
    Done {
        view: Rc<ResultView>,
        ms: f64,
        inputs: Rc<PageInputs>,
    },
    Failed(String),
    Cancelled,
}

/// The run in progress, hearing from the page's workers (`ui::worker_pool`, kept for the next
/// run).
struct JobCtx {
    started: f64,
    /// Each worker's fraction done and messages simulated so far.
    progress: Vec<(f64, u64)>,
    inputs: Rc<PageInputs>,
    state: UseStateHandle<RunState>,
}

/// A message of `ui::simulate_worker` as the page reads it: the view, and no reader for the partial
/// results, which only pass through the page.
type Message = FromWorker<ResultView, IgnoredAny>;

impl Job for JobCtx {
    fn on_message(&mut self, i: usize, text: &str) -> Option<bool> {
        let msg = match serde_json::from_str::<Message>(text) {
            Ok(m) => m,
            Err(e) => FromWorker::Error(format!("the worker's results could not be read: {e}")),
        };
        if let FromWorker::Progress { fraction, messages } = msg {
            if let Some(mine) = self.progress.get_mut(i) {
                *mine = (fraction, messages);
            }
            let done = self.progress.iter().map(|p| p.0).sum::<f64>() / self.progress.len().max(1) as f64;
            let sent: u64 = self.progress.iter().map(|p| p.1).sum();
            self.state.set(RunState::Running(done, sent as f64 / (now_ms() - self.started).max(10.0)));
            return None;
        }
        let next = on_message(msg, self.started, &self.inputs)?;
        // A finished run leaves every worker idle and worker 0 with nothing collected: they
        // serve the next run. After a failure some may still be busy or hold a share: they go.
        let finished = matches!(next, RunState::Done { .. });
        self.state.set(next);
        Some(finished)
    }

    fn on_error(&mut self) {
        self.state.set(RunState::Failed("the simulation worker failed to load or stopped".into()));
    }
}

/// What a message from a worker means for the page.
fn on_message(msg: Message, started: f64, inputs: &Rc<PageInputs>) -> Option<RunState> {
    match msg {
        FromWorker::Done(v) => {
            Some(RunState::Done { view: Rc::new(v), ms: now_ms() - started, inputs: inputs.clone() })
        }
        FromWorker::Errors(list) => Some(RunState::Failed(list.join("; "))),
        FromWorker::Error(e) => Some(RunState::Failed(e)),
        FromWorker::Progress { .. } | FromWorker::Partials(_) | FromWorker::BenchMs(_) => None,
    }
}

/// Runs `inputs` on the workers, reporting into `state`. Each worker runs its share of the
/// job; the others' results are handed to worker 0, which answers with the whole.
fn start(slot: &PoolSlot, state: &UseStateHandle<RunState>, inputs: Rc<PageInputs>) {
    let started = now_ms();
    // Run is disabled while a run is on; a second start would mix two jobs' shares.
    if slot.borrow().busy() {
        return;
    }
    let k = worker_count();
    let part = |i: usize, k: usize| {
        serde_json::to_string(&ToWorker::Start { inputs: &*inputs, worker: i, workers: k }).unwrap_or_default()
    };
    let job = JobCtx { started, progress: vec![(0.0, 0); k], inputs: inputs.clone(), state: state.clone() };
    if !worker_pool::start(slot, WORKER, &part, Box::new(job)) {
        return state.set(RunState::Failed("this browser could not start a Web Worker".into()));
    }
    state.set(RunState::Running(0.0, 0.0));
}

/// The engine's pace, from messages a millisecond.
fn pace(per_ms: f64) -> String {
    format!("{} million messages a second", fmt_num(per_ms / 1000.0, 3))
}

/// The skeleton editor: line numbers beside the text, the error's line marked and its column
/// pointed at under the box.
fn code_editor(value: &AttrValue, on_input: Callback<String>, error: Option<&InputError>) -> Html {
    let lines = value.lines().count().max(1) + 1;
    let bad = error.and_then(|e| e.line);
    let gutter = (1..=lines).map(|i| {
        let class = classes!((Some(i) == bad).then_some("err-line"));
        html! { <span {class}>{ format!("{i}\n") }</span> }
    });
    let oninput = Callback::from(move |e: InputEvent| {
        let el: HtmlTextAreaElement = e.target_unchecked_into();
        on_input.emit(el.value());
    });
    let snippet = error.map(|e| {
        let line = e.line.and_then(|l| value.lines().nth(l.saturating_sub(1))).unwrap_or("");
        let caret = e.column.map(|c| format!("{}^", " ".repeat(c.saturating_sub(1)))).unwrap_or_default();
        html! {
            <div class="field-error" role="alert">
                { e.local_text() }
                if !line.is_empty() { <pre class="err-snippet">{ format!("{line}\n") }<span class="caret">{ caret }</span></pre> }
            </div>
        }
    });
    html! {
        <div class={classes!("field", "code-editor", error.is_some().then_some("invalid"))}>
            <label for={Field::Skeleton.key()}>{ "program skeleton (directives, or C with // PEVPM comments)" }</label>
            <div class="code">
                <pre class="gutter" aria-hidden="true">{ for gutter }</pre>
                <textarea id={Field::Skeleton.key()} spellcheck="false" rows={lines.max(12).to_string()} value={value.clone()} {oninput} />
            </div>
            { for snippet }
        </div>
    }
}

/// A text box bound to one input of the page, with its error (line and column) under it.
fn text_area(
    inputs: &PageInputs,
    setter: &Setter,
    field: Field,
    label: &'static str,
    rows: u32,
    error: Option<&InputError>,
) -> Html {
    let (key, setter) = (field.key(), setter.clone());
    let oninput = Callback::from(move |e: InputEvent| {
        let el: HtmlTextAreaElement = e.target_unchecked_into();
        setter.set(key, el.value());
    });
    html! {
        <div class={classes!("field", error.is_some().then_some("invalid"))}>
            <label for={key}>{ label }</label>
            <textarea id={key} rows={rows.to_string()} spellcheck="false" value={text(inputs, key)} {oninput} />
            if let Some(e) = error { <div class="field-error" role="alert">{ e.local_text() }</div> }
        </div>
    }
}

/// A results row; `speedups` is false when the skeleton computes nothing (no time to compare
/// with).
fn row(r: &RowView, speedups: bool) -> Html {
    html! {
        <tr>
            <td class="num">{ r.numprocs }</td>
            <td class="num">{ r.nodes }</td>
            <td class="num"><b>{ fmt_num(r.mean_s, 4) }</b></td>
            <td class="num">{ format!("{} – {}", fmt_num(r.ci95_s[0], 4), fmt_num(r.ci95_s[1], 4)) }</td>
            <td class="num">{ fmt_num(r.sd_s, 3) }</td>
            <td class="num"><b>{ if speedups { fmt_num(r.speedup, 3) } else { "—".into() } }</b></td>
            <td class="num">{ fmt_num(r.messages_per_run, 4) }</td>
        </tr>
    }
}

fn results(v: &Rc<ResultView>, detail: &UseStateHandle<usize>) -> Html {
    let deadlock = v.deadlock.as_ref().map(|d| html! {
        <div id="deadlock" class="infeasible">
            <b>{ format!("Deadlock on {} processes at {} s:", d.numprocs, fmt_num(d.time_s, 4)) }</b>
            <ul>{ for d.blocked.iter().map(|(p, what, line)| html! { <li>{ format!("process {p} waits for {what} (skeleton line {line})") }</li> }) }</ul>
        </div>
    });
    let k = (**detail).min(v.rows.len().saturating_sub(1));
    let on_detail = {
        let detail = detail.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            detail.set(sel.value().parse().unwrap_or(0));
        })
    };
    // A row per process (up to 16,384): written as one text the browser parses, not built node by
    // node (a thousand rows took 67 ms of wasm on the page's thread), and past 64 processes
    // folded until asked for (laying out a thousand rows held a frame for 75 ms); its tabindex
    // spares it site.js's measuring.
    let procs = v.rows.get(k).map(|r| {
        let cell = |x: f64| format!("<td class=num>{}</td>", fmt_num(x, 4));
        let body: String = r.procs.iter().enumerate().map(|(p, t)| format!("<tr><td class=num>{p}</td>{}{}{}</tr>", cell(t[0]), cell(t[1]), cell(t[2]))).collect();
        let table = format!(
            "<details{}><summary>Each process's computing, sending and waiting ({} processes)</summary><table id=per-process class=results tabindex=0><thead><tr><th class=num>process</th>\
             <th class=num>computing (s)</th><th class=num>sending (s)</th><th class=num>waiting (s)</th></tr></thead><tbody>{body}</tbody></table></details>",
            if r.procs.len() > 64 { "" } else { " open" },
            r.procs.len()
        );
        html! { <>{ Html::from_html_unchecked(table.into()) }{ csv_button("simulate-per-process.csv") }</> }
    });
    if v.rows.is_empty() {
        return html! { <><p id="sim-summary"><b>{ v.summary.clone() }</b></p>{ for deadlock }</> };
    }
    let speedups = v.sequential_s > 0.0;
    html! {
        <>
            <p id="sim-summary"><b>{ v.summary.clone() }</b>
                if speedups {
                    { format!(" Speed-ups are relative to the computing time alone: {} s, all processes' computing at {} processes added up, \
                               what one process would take sending nothing (no run on one process is simulated).", fmt_num(v.sequential_s, 4), v.rows[0].numprocs) }
                }
            </p>
            { for deadlock }
            <table id="sim-results" class="results">
                <thead><tr><th class="num">{ "processes" }</th><th class="num">{ "nodes" }</th><th class="num">{ "mean run time (s)" }</th>
                    <th class="num">{ "95 % confidence (s)" }</th><th class="num">{ "std. dev. (s)" }</th><th class="num">{ "speed-up" }</th><th class="num">{ "messages a run" }</th></tr></thead>
                <tbody>{ for v.rows.iter().map(|r| row(r, speedups)) }</tbody>
            </table>
            { csv_button("simulate-results.csv") }
            if speedups { <Chart id="chart-sim-speedup" chart={drawing(Rc::new(speedup(v)))} /> }
            <RunTimeline view={v.clone()} />
            <h3>{ "Run times and where the time goes, per process count" }</h3>
            <div class="form-row"><div class="field">
                <label for="detail">{ "process count" }</label>
                <select id="detail" onchange={on_detail}>
                    { for v.rows.iter().enumerate().map(|(i, r)| html! { <option value={i.to_string()} selected={i == k}>{ r.numprocs }</option> }) }
                </select>
            </div></div>
            if let Some(r) = v.rows.get(k) { <Chart id="chart-sim-times" chart={drawing(Rc::new(run_times(r)))} /> }
            { for procs }
        </>
    }
}

#[component(Simulate)]
pub fn simulate() -> Html {
    let PageSetup { store, inputs, setter } = use_page(STORE_PAGE);
    // The inputs' errors, or the job's work (shown beside Run).
    let checked: Rc<Result<String, Vec<InputError>>> =
        use_memo(inputs.clone(), |i| page::prepare(i, &store.ws.catalog).map(|(_, e)| page::work_text(&e)));
    let no_errors = Vec::new();
    let errors = checked.as_ref().as_ref().err().unwrap_or(&no_errors);
    let state = use_state(|| RunState::Idle);
    let detail = use_state(|| 0usize);
    let slot: PoolSlot = use_mut_ref(Pool::default);
    {
        let slot = slot.clone();
        use_effect_with((), move |_| move || stop(&slot));
    }
    let err = |field: Field| errors.iter().find(|e| e.field == field.key());
    let f = |field: Field, label: &'static str| {
        page_field(&inputs, &setter, field.key(), label, None, err(field).map(|e| e.local_text()))
    };

    let presets = page::presets().into_iter().map(|p| {
        let (store, inputs, label) = (store.clone(), p.inputs, format!("Loaded the example {}", p.name));
        let onclick = Callback::from(move |_| {
            store.dispatch(Action::SetPage { page: STORE_PAGE, inputs: inputs.clone(), label: label.clone() })
        });
        html! { <button class="secondary" title={p.description} {onclick}>{ format!("Load: {}", p.name) }</button> }
    });
    let run = {
        let (slot, state, inputs) = (slot.clone(), state.clone(), inputs.clone());
        Callback::from(move |_| start(&slot, &state, inputs.clone()))
    };
    // Workers start as the pointer reaches Run or it takes the focus, so they are ready
    // (their wasm compiled) by the click. Not on page load: most visits never run.
    let warm_up = {
        let slot = slot.clone();
        let able = errors.is_empty();
        Callback::from(move |_: ()| {
            if able && !slot.borrow().busy() {
                let _ = warm(&slot, WORKER);
            }
        })
    };
    let (onpointerenter, onfocus) = (warm_up.reform(|_: PointerEvent| ()), warm_up.reform(|_: FocusEvent| ()));
    let cancel = {
        let (slot, state) = (slot.clone(), state.clone());
        Callback::from(move |_| {
            stop(&slot);
            state.set(RunState::Cancelled);
        })
    };
    let running = matches!(*state, RunState::Running(..));
    let machines = Rc::new(page::catalog_machines(&store.ws.catalog));
    let machine = text(&inputs, Field::Machine.key());
    let status = match &*state {
        RunState::Idle => html! { <span class="hint">{ "Not run yet." }</span> },
        RunState::Running(f, rate) => html! {
            <span id="sim-progress"><progress max="1" value={f.to_string()} />{ format!(" {} %; {}", fmt_num(f * 100.0, 3), pace(*rate)) }</span>
        },
        RunState::Done { view, ms, inputs: ran } => html! {
            <span id="sim-status" class="hint">
                { format!("Finished in {} s; {}.", fmt_num(ms / 1000.0, 3), pace(view.messages as f64 / ms.max(10.0))) }
                if **ran != *inputs { <b>{ " The inputs have changed since: run again to update." }</b> }
            </span>
        },
        RunState::Failed(m) => html! { <span id="sim-status" class="field-error" role="alert">{ m.clone() }</span> },
        RunState::Cancelled => html! { <span id="sim-status" class="hint">{ "Cancelled." }</span> },
    };

    html! {
        <section class="simulate">
            <h1>{ "Virtual parallel machine" }</h1>
            <p class="lead">
                { "Describe your program's skeleton — its loops, messages and computation times — pick a machine, and see \
                   its run time and speed-up simulated with message times drawn from measured distributions under the \
                   contention of the moment, against the same simulation fed with averages or minimums (Grove & Coddington: \
                   MPIBench and PEVPM)." }
            </p>
            <div class="toolbar">{ for presets }</div>

            <h2>{ "Program" }</h2>
            <div class="grid-2">
                { code_editor(&text(&inputs, Field::Skeleton.key()), setter.on(Field::Skeleton.key()), err(Field::Skeleton)) }
                <div>
                    { text_area(&inputs, &setter, Field::Params, "parameters (name = value, one a line)", 4, err(Field::Params)) }
                    <div class="form-row">
                        { f(Field::Numprocs, "process counts") }
                        { f(Field::ProcsPerNode, "processes per node") }
                    </div>
                </div>
            </div>

            <h2>{ "Machine" }</h2>
            <div class="toolbar">
                { field_set_select("from-catalog", "A cluster and fabric from the Clusters page…", machines, &setter) }
            </div>
            <div class="form-row">
                { page_select(&inputs, &setter, Field::Machine.key(), "message times", &[("perseus", "Perseus-like preset (Grove & Coddington)"), ("fitted", "latency + size/bandwidth"), ("histograms", "pasted MPIBench histograms")]) }
                { page_select(&inputs, &setter, Field::Mode.key(), "mode", &[("distribution", "sample the distributions"), ("average", "averages"), ("minimum", "minimums (ping-pong)")]) }
                { page_select(&inputs, &setter, Field::Contention.key(), "contention", &[("moment", "of the moment"), ("configuration", "of the configuration"), ("none", "none")]) }
                if machine.as_str() == "fitted" {
                    { f(Field::LatencyUs, "latency (µs)") }
                    { f(Field::BandwidthMbitS, "bandwidth (Mbit/s)") }
                }
            </div>
            if machine.as_str() == "histograms" {
                { text_area(&inputs, &setter, Field::Histograms, "MPIBench histograms: message size (B), n, p, bin low (s), bin high (s), count — one bin a line", 8, err(Field::Histograms)) }
            }
            if let Some(e) = err(Field::Machine) { <div class="field-error" role="alert">{ e.local_text() }</div> }

            <h2>{ "Run" }</h2>
            <div class="form-row">
                { f(Field::Replications, "replications") }
                { f(Field::Seed, "random seed") }
                { page_check(&inputs, &setter, Field::Compare.key(), " also with averages and minimums (Figure 6)") }
            </div>
            <div class="toolbar run-bar">
                <button id="run" onclick={run} {onpointerenter} {onfocus} disabled={running || !errors.is_empty()}>{ "Run" }</button>
                <button id="cancel" class="secondary" onclick={cancel} disabled={!running}>{ "Cancel" }</button>
                { status }
            </div>
            if let Ok(work) = &*checked { <p id="sim-work" class="hint">{ work.clone() }</p> }
            if !errors.is_empty() {
                <ul class="field-errors" role="alert">{ for errors.iter().map(|e| html! { <li>{ e.to_string() }</li> }) }</ul>
            }
            if let RunState::Done { view, .. } = &*state { { results(view, &detail) } }

            <SharePanel page={PAGE} />
        </section>
    }
}

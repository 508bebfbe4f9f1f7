//! The problem, the predictions at the target np, the two-cluster split, the planner
//! ranking and resolution, and the charts.

use std::rc::Rc;

use yew::prelude::*;

use super::ViewRef;
use crate::charts::multigrid::{cost_vs_time, time_vs_np};
use crate::model::catalog::Catalog;
use crate::model::multigrid::page::{lowest_carbon_on_front, Field, RankBy, TargetRow};
use crate::model::multigrid::{EvenSplit, Fit, Outcome, Plan, PlannerReport};
use crate::model::workspace::{PageField, PageInputs};
use crate::model::InputError;
use crate::model::{cost, fmt_num};
use crate::ui::components::chart::{drawing, Chart};
use crate::ui::components::number_field::page_field;
use crate::ui::components::stale::Shown;
use crate::ui::components::table_csv::csv_button;
use crate::ui::components::table_input::TableInput;
use crate::ui::pages::allocation::AllocationTable;
use crate::ui::store::{text, Setter};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: ViewRef,
    pub inputs: Rc<PageInputs>,
    pub setter: Setter,
    pub catalog: Rc<Catalog>,
    /// The evaluations each section shows (the current one, or the last good one, stale).
    pub target: Shown<Option<ViewRef>>,
    pub split: Shown<Option<ViewRef>>,
    pub split_errors: Vec<InputError>,
    pub planner: Shown<Option<ViewRef>>,
    pub planner_errors: Vec<InputError>,
    /// (label, fit) per calibration for the chart of T against np.
    pub fits: Rc<Vec<(String, Fit)>>,
}

fn n(x: f64) -> String {
    fmt_num(x, 4)
}

/// A plan's time with its 90 % range.
fn t(plan: &Plan) -> String {
    format!("{} ({}–{})", n(plan.time_s), n(plan.time_low_s), n(plan.time_high_s))
}

/// Where the planner's ranges come from.
const RANGE_NOTE: &str = "T (s): the prediction and its 90 % range, how far scaling predictions from a few small runs \
    fell from measured times at the same multiple of the largest calibrated np, on real scaling series (VALIDATION.md). \
    This method itself could not be checked there: those series give no work sizes.";

fn stale_note(stale: bool) -> Html {
    crate::ui::components::stale::stale_note(stale, "Stale: an input above has an error; this is the last good result.")
}

fn errors(list: &[InputError]) -> Html {
    html! { <ul class="field-errors" role="alert">{ for list.iter().map(|e| html! { <li>{ e.to_string() }</li> }) }</ul> }
}

fn field(p: &Props, field: Field, label: &'static str, unit: Option<&'static str>) -> Html {
    let key = field.key();
    page_field(&p.inputs, &p.setter, key, label, unit, p.view.0.field_errors.get(key).cloned())
}

fn cluster_select(p: &Props, field: Field, label: &'static str, allow_none: bool) -> Html {
    let key = field.key();
    let setter = p.setter.clone();
    let current = text(&p.inputs, key);
    let onchange = Callback::from(move |e: Event| {
        let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
        setter.set(key, sel.value());
    });
    html! {
        <div class="field">
            <label for={key}>{ label }</label>
            <select id={key} {onchange}>
                if allow_none { <option value="" selected={current.is_empty()}>{ "(none)" }</option> }
                { for p.catalog.clusters.iter().map(|c| html! {
                    <option value={c.id.clone()} selected={c.id.as_str() == current.as_str()}>{ c.name.clone() }</option>
                }) }
            </select>
        </div>
    }
}

#[component(Results)]
pub fn results(p: &Props) -> Html {
    let v = &p.view.0;
    let target: Option<&Vec<TargetRow>> = p.target.value.as_ref().map(|t| &t.0.target);
    let split: Option<&Outcome> = p.split.value.as_ref().and_then(|s| match &s.0.split {
        Some(Ok(o)) => Some(o),
        _ => None,
    });
    let planner: Option<&PlannerReport> = p.planner.value.as_ref().and_then(|s| match &s.0.planner {
        Some(Ok(r)) => Some(r),
        _ => None,
    });
    let work = match (&v.problem, v.np) {
        (Some(pr), Some(np)) => {
            format!("{} rows per process, {} MB per process at np = {np}", pr.rows_per_process(np), n(pr.work_mb(np)))
        }
        _ => String::new(),
    };
    let fabric_setter = p.setter.clone();
    let on_fabric = Callback::from(move |e: Event| {
        let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
        fabric_setter.set(Field::PairFabric.key(), sel.value());
    });
    let chosen_fabric = text(&p.inputs, Field::PairFabric.key());
    let fits: Vec<(String, &Fit)> = p.fits.iter().map(|(l, f)| (l.clone(), f)).collect();
    let time_chart = Rc::new(time_vs_np(&fits, v.np.unwrap_or(64).clamp(64, 4096)));
    let cost_chart = planner.map(|r| Rc::new(cost_vs_time(&r.ranking)));

    html! {
        <>
            <h2>{ "Problem" }</h2>
            <div class="form-row">
                { field(p, Field::GridN, "grid side N", None) }
                { field(p, Field::BytesPerPoint, "bytes per grid point", Some("B")) }
                { field(p, Field::Np, "target np", None) }
            </div>
            <p class="hint" id="work-per-process">{ work }</p>
            { derive_form(p) }

            <h3>{ "Predicted at the target np, each calibrated cluster and fabric alone" }</h3>
            { stale_note(p.target.stale) }
            <table id="target-table" class="results">
                <thead><tr><th>{ "cluster" }</th><th>{ "fabric" }</th><th class="num">{ "work (MB/process)" }</th>
                    <th class="num">{ "Tcomp (s)" }</th><th class="num">{ "Tcomm (s)" }</th><th class="num" title={RANGE_NOTE}>{ "T (s), 90 % range" }</th>
                    <th class="num">{ "CPU-hours" }</th><th class="num">{ "cost (catalog currency)" }</th>{ bill_heads() }<th>{ "notes" }</th></tr></thead>
                <tbody>{ for target.into_iter().flatten().map(target_row) }</tbody>
            </table>
            { csv_button("multigrid-target.csv") }

            <h2>{ "One job over two clusters" }</h2>
            <div class="form-row">
                { cluster_select(p, Field::PairA, "cluster A", false) }
                { cluster_select(p, Field::PairB, "cluster B", true) }
                <div class="field">
                    <label for={Field::PairFabric.key()}>{ "fabric joining them" }</label>
                    <select id={Field::PairFabric.key()} onchange={on_fabric} disabled={v.pair_fabrics.is_empty()}>
                        { for v.pair_fabrics.iter().map(|f| html! { <option value={f.clone()} selected={f.as_str() == chosen_fabric.as_str()}>{ f.clone() }</option> }) }
                    </select>
                </div>
                { field(p, Field::NpA, "processes on A", None) }
                { field(p, Field::NpB, "processes on B", None) }
                { field(p, Field::PpnA, "processes per node on A", None) }
                { field(p, Field::PpnB, "processes per node on B", None) }
            </div>
            if v.pair_fabrics.is_empty() && !text(&p.inputs, Field::PairB.key()).is_empty() {
                <p class="hint">{ "No fabric both joins these clusters (see Clusters → links) and is calibrated on both." }</p>
            }
            { stale_note(p.split.stale) }
            { errors(&p.split_errors) }
            if let Some(o) = split { { split_view(o) } }

            <h2>{ "Planner" }</h2>
            <div class="form-row">
                { field(p, Field::FreeA, "free processes on A", None) }
                { field(p, Field::FreeB, "free processes on B", None) }
                { rank_select(p) }
            </div>
            { costs_input(p) }
            { stale_note(p.planner.stale) }
            { errors(&p.planner_errors) }
            if let Some(r) = planner {
                { planner_view(r, &text(&p.inputs, Field::RankBy.key())) }
                <AllocationTable<[Plan]> inputs={p.inputs.clone()} setter={p.setter.clone()} rows={Rc::<[Plan]>::from(r.ranking.as_slice())} empty="Needs a feasible option in the ranking." file="multigrid" />
            }

            <h2>{ "Charts" }</h2>
            <div class="grid-2">
                <Chart id="chart-time-np" chart={drawing(time_chart)} />
                if let Some(c) = cost_chart { <Chart id="chart-cost-time" chart={drawing(c)} /> }
            </div>
        </>
    }
}

/// Bytes per grid point from a run the user knows the size of.
fn derive_form(p: &Props) -> Html {
    let derived = p.view.0.derived_bytes_per_point.clone();
    let use_it = derived.as_ref().and_then(|d| d.as_ref().ok()).map(|b| {
        let setter = p.setter.clone();
        let text = fmt_num(*b, 6);
        let label = format!("Use {text} B per point");
        let onclick = Callback::from(move |_| setter.set(Field::BytesPerPoint.key(), text.clone()));
        html! { <button id="use-derived" class="secondary small" {onclick}>{ label }</button> }
    });
    html! {
        <details class="derive" open={derived.is_some()}>
            <summary>{ "Derive bytes per grid point from a run" }</summary>
            <div class="form-row">
                { field(p, Field::DeriveRows, "rows per process", None) }
                { field(p, Field::DeriveCols, "columns (N)", None) }
                { field(p, Field::DeriveMb, "work per process", Some("MB")) }
                { for use_it }
            </div>
            if let Some(Err(m)) = &derived { <div class="field-error" role="alert">{ m.to_string() }</div> }
        </details>
    }
}

fn target_row(r: &TargetRow) -> Html {
    match &r.outcome {
        Ok(Outcome::Feasible(plan)) => {
            let part = plan.parts.first();
            let pred = part.map(|x| &x.prediction);
            let notes: Vec<&str> = pred.map(|p| p.notes.iter().map(|n| n.text()).collect()).unwrap_or_default();
            html! {
                <tr>
                    <td>{ r.cluster.clone() }</td><td>{ r.fabric.clone() }</td>
                    <td class="num">{ pred.map(|p| n(p.work_mb)).unwrap_or_default() }</td>
                    <td class="num">{ pred.map(|p| n(p.tcomp_s)).unwrap_or_default() }</td>
                    <td class="num">{ pred.map(|p| n(p.tcomm_s)).unwrap_or_default() }</td>
                    <td class="num time"><b>{ t(plan) }</b></td>
                    <td class="num">{ n(plan.cpu_hours) }</td><td class="num">{ fmt_num(plan.cost, 4) }</td>{ bill_cells(plan) }
                    <td class="hint">{ notes.join("; ") }</td>
                </tr>
            }
        }
        Ok(Outcome::Infeasible(inf)) => html! {
            <tr class="infeasible"><td>{ r.cluster.clone() }</td><td>{ r.fabric.clone() }</td>
                <td colspan="12"><b>{ "infeasible: " }</b>{ inf.reason.text() }</td></tr>
        },
        Err(errs) => html! {
            <tr class="infeasible"><td>{ r.cluster.clone() }</td><td>{ r.fabric.clone() }</td>
                <td colspan="12" class="field-error">{ errs.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ") }</td></tr>
        },
    }
}

/// The columns every table of options gains: whole nodes held, node-hours, price, energy, carbon.
fn bill_heads() -> Html {
    html! { <>
        <th>{ "nodes held" }</th><th class="num">{ "node-hours" }</th>
        <th class="num">{ "price" }</th><th class="num">{ "energy (kWh)" }</th><th class="num">{ "CO2e (kg)" }</th>
    </> }
}

fn bill_cells(plan: &Plan) -> Html {
    let nodes: u64 = plan.parts.iter().map(|p| p.placement.nodes).sum();
    let idle: u64 = plan.parts.iter().map(|p| p.placement.idle_cores).sum();
    let ppn: Vec<String> = plan.parts.iter().map(|p| p.placement.procs_per_node.to_string()).collect();
    let price = plan.price.as_ref().map(|m| {
        let units = if matches!(m.unit.as_str(), "node-hour" | "core-hour") {
            String::new()
        } else {
            format!(" ({} {})", n(m.units), m.unit)
        };
        format!("{} {}{units}", fmt_num(m.amount, 4), m.currency)
    });
    let opt = |x: Option<f64>| x.map(n).unwrap_or_else(|| "—".into());
    html! { <>
        <td class="nodes">{ format!("{nodes} ({} a node, {idle} cores idle)", ppn.join(" / ")) }</td><td class="num">{ n(plan.node_hours) }</td>
        <td class="num price">{ price.unwrap_or_else(|| "—".into()) }</td><td class="num energy">{ opt(plan.energy_kwh) }</td><td class="num co2e">{ opt(plan.co2e_kg) }</td>
    </> }
}

const NO_COLUMNS: &[crate::model::input::table::ColumnSpec] = &[];

/// The clusters' prices, power and carbon, and how energy and carbon follow from them.
fn costs_input(p: &Props) -> Html {
    let key = Field::Costs.key();
    let errors: Vec<InputError> =
        p.view.0.field_errors.get(key).map(|m| InputError::new(key, m.clone())).into_iter().collect();
    html! {
        <>
        <TableInput id={key} label="Prices, node power and carbon of the clusters (one line each; Clusters → \"Use in my clusters\" writes a catalog machine's)"
            columns={NO_COLUMNS} value={text(&p.inputs, key)} on_input={p.setter.on(key)} {errors} rows={3}
            hint={format!("Cells: {}. An empty cell: not known. The price counts every node held, busy or idle. {}.", cost::COST_COLUMNS.join(", "), cost::FORMULA)} />
        </>
    }
}

fn describe(plan: &Plan) -> String {
    plan.parts.iter().map(|p| format!("{} × {}", p.np, p.cluster)).collect::<Vec<_>>().join(" + ")
}

fn split_view(o: &Outcome) -> Html {
    match o {
        Outcome::Infeasible(inf) => {
            html! { <p class="infeasible" id="split-result"><b>{ "Infeasible: " }</b>{ inf.reason.text() }</p> }
        }
        Outcome::Feasible(plan) => {
            let even = match &plan.even_split {
                Some(EvenSplit::Feasible { rows_per_process, time_s, cpu_hours, cost }) => html! {
                    <tr><td>{ "even split" }</td><td class="num">{ format!("{rows_per_process} / {rows_per_process}") }</td>
                        <td class="num">{ "" }</td><td class="num">{ n(*time_s) }</td><td class="num">{ n(*cpu_hours) }</td><td class="num">{ n(*cost) }</td></tr>
                },
                Some(EvenSplit::Infeasible { rows_per_process, reason }) => html! {
                    <tr class="infeasible"><td>{ "even split" }</td><td class="num">{ format!("{rows_per_process} / {rows_per_process}") }</td>
                        <td colspan="4">{ format!("infeasible: {}", reason.text()) }</td></tr>
                },
                None => html! {},
            };
            let rows: Vec<String> = plan.parts.iter().map(|p| p.rows_per_process.to_string()).collect();
            let times: Vec<String> = plan.parts.iter().map(|p| n(p.prediction.time_s)).collect();
            html! {
                <>
                <table id="split-result" class="results">
                    <thead><tr><th>{ format!("{} over {}", describe(plan), plan.fabric) }</th><th class="num">{ "rows per process (A / B)" }</th>
                        <th class="num">{ "T_A / T_B (s)" }</th><th class="num">{ "T (s)" }</th><th class="num">{ "CPU-hours" }</th><th class="num">{ "cost (catalog currency)" }</th>{ bill_heads() }</tr></thead>
                    <tbody>
                        <tr class="best"><td>{ "best split" }</td><td class="num">{ rows.join(" / ") }</td><td class="num">{ times.join(" / ") }</td>
                            <td class="num"><b>{ t(plan) }</b></td><td class="num">{ n(plan.cpu_hours) }</td><td class="num">{ n(plan.cost) }</td>{ bill_cells(plan) }</tr>
                        { even }
                    </tbody>
                </table>
                { csv_button("multigrid-split.csv") }
                </>
            }
        }
    }
}

/// What the ranking orders by.
fn rank_select(p: &Props) -> Html {
    let key = Field::RankBy.key();
    let current = text(&p.inputs, key);
    let setter = p.setter.clone();
    let onchange = Callback::from(move |e: Event| {
        let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
        setter.set(key, sel.value());
    });
    html! {
        <div class="field">
            <label for={key}>{ "rank options by" }</label>
            <select id={key} {onchange}>
                { for RankBy::ALL.iter().map(|b| html! {
                    <option value={b.key()} selected={b.key() == current.as_str() || (current.is_empty() && *b == RankBy::Time)}>{ b.key() }</option>
                }) }
            </select>
        </div>
    }
}

fn planner_view(r: &PlannerReport, rank_by: &str) -> Html {
    const SHOWN: usize = 12;
    let greenest = lowest_carbon_on_front(&r.ranking);
    let resolution = r.resolution.as_ref().map(|res| {
        let smaller = res.smaller.as_ref().map(|s| html! {
            <li>{ format!("Best at N = {}: {} over {}, {} s, cost {} (catalog currency)", s.n, describe(&s.best), s.best.fabric, n(s.best.time_s), n(s.best.cost)) }</li>
        });
        let ratios = match (res.time_ratio, res.cost_ratio) {
            (Some(t), Some(c)) => format!("The larger grid takes {}× the time and {}× the cost.", fmt_num(t, 3), fmt_num(c, 3)),
            (Some(t), None) => format!("The larger grid takes {}× the time.", fmt_num(t, 3)),
            _ => String::new(),
        };
        html! {
            <div id="resolution">
                <h3>{ "Largest grid that fits the free processes (scenario 2)" }</h3>
                <ul>
                    <li><b>{ format!("N = {}: {} over {}, {} s, cost {} (catalog currency)", res.largest.n, describe(&res.largest.best), res.largest.best.fabric, n(res.largest.best.time_s), n(res.largest.best.cost)) }</b></li>
                    { for smaller }
                </ul>
                <p>{ ratios }</p>
            </div>
        }
    });
    html! {
        <>
            { for r.notes.iter().map(|t| html! { <p class="hint">{ t.clone() }</p> }) }
            <h3>{ format!("Options for N = {} by {} ({} feasible, {} infeasible)", r.n, if rank_by.is_empty() { "time" } else { rank_by }, r.ranking.len(), r.infeasible.len()) }</h3>
            <table id="ranking" class="results">
                <thead><tr><th class="num">{ "#" }</th><th>{ "processes" }</th><th>{ "fabric" }</th><th class="num">{ "T (s)" }</th>
                    <th class="num">{ "CPU-hours" }</th><th class="num">{ "cost (catalog currency)" }</th>{ bill_heads() }</tr></thead>
                <tbody>{ for r.ranking.iter().take(SHOWN).enumerate().map(|(k, plan)| html! {
                    <tr class={classes!((k == 0).then_some("best"), (Some(k) == greenest).then_some("lowest-carbon"))}>
                        <td class="num">{ k + 1 }</td><td>{ describe(plan) }
                            if Some(k) == greenest { <div class="badge hint" title="of the options no other is both faster and cheaper than, the one of least CO2e">{ "lowest CO2e on the time–price front" }</div> }</td>
                        <td>{ plan.fabric.clone() }</td>
                        <td class="num">{ t(plan) }</td><td class="num">{ n(plan.cpu_hours) }</td><td class="num">{ n(plan.cost) }</td>{ bill_cells(plan) }
                    </tr>
                }) }</tbody>
            </table>
            { csv_button("multigrid-ranking.csv") }
            <p class="hint">{ RANGE_NOTE }</p>
            if r.ranking.len() > SHOWN { <p class="hint">{ format!("{} more options, slower.", r.ranking.len() - SHOWN) }</p> }
            if !r.infeasible.is_empty() {
                <details><summary>{ format!("{} infeasible options and why", r.infeasible.len()) }</summary>
                    <ul>{ for r.infeasible.iter().take(50).map(|o| html! {
                        <li>{ format!("{} over {}: {}", o.assignments.iter().map(|a| format!("{} × {}", a.np, a.cluster)).collect::<Vec<_>>().join(" + "), o.fabric, o.reason.text()) }</li>
                    }) }</ul>
                </details>
            }
            { for resolution }
        </>
    }
}

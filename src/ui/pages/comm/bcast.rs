//! Broadcasts: every algorithm predicted in a chosen model per message size, the chart against
//! size, and measured broadcasts driving Poly-adapt-1 (a model per algorithm) and Poly-adapt-2
//! (the fastest algorithm per size: the seed's Table 4 for the user's platform).

use std::rc::Rc;

use yew::prelude::*;

use super::{keep, pct, stale_note, table, Ctx, View};
use crate::charts::comm::{broadcast_chart, size_text, time_text};
use crate::model::comm::collectives::Algorithm;
use crate::model::comm::page::{broadcast_basis, BroadcastRow, Field, PageView, MEASURED_COLUMNS};
use crate::model::comm::{ModelKind, MODEL_KINDS};
use crate::model::workspace::PageField;
use crate::ui::components::chart::{drawing, Chart};
use crate::ui::components::table_input::TableInput;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Ctx,
    pub current: View,
}

/// The view a section shows, with the process count it was computed at.
#[derive(Clone, PartialEq)]
struct Basis {
    view: View,
    procs: u32,
}

fn time_cell(t: f64, best: bool, segment: Option<f64>) -> Html {
    let body = time_text(t);
    html! {
        <td class="num">
            if best { <b>{ body }</b> } else { { body } }
            if let Some(s) = segment { <div class="muted">{ format!("segments of {}", size_text(s)) }</div> }
        </td>
    }
}

fn broadcast_row(r: &BroadcastRow) -> Html {
    html! {
        <tr>
            <td>{ size_text(r.size_bytes) }</td>
            { for r.times.iter().map(|t| time_cell(t.time_us, t.algorithm == r.best, t.segment_bytes.filter(|_| t.algorithm.segmented()))) }
            <td class="best-alg"><b>{ r.best.key() }</b></td>
        </tr>
    }
}

#[component(Bcast)]
pub fn bcast(p: &Props) -> Html {
    let ctx = &p.ctx;
    let cur = &p.current;
    let broken =
        cur.fit.is_none() || [Field::Procs, Field::Sizes, Field::LatencyShare].into_iter().any(|f| ctx.has_error(f));
    // When a field is wrong the section keeps its last good basis, so the fallback is not shown.
    let (procs, _) = broadcast_basis(&ctx.inputs);
    let basis = Basis { view: cur.clone(), procs: procs.unwrap_or(1) };
    let slot = use_mut_ref(|| None);
    let shown = keep(&mut slot.borrow_mut(), basis, broken);
    let b = &shown.value;
    let fit = b.view.fit.as_ref();
    let chosen = ctx.text(Field::BcastModel);
    let kind =
        ModelKind::from_key(&chosen).filter(|k| fit.and_then(|f| f.model(*k)).is_some()).or(fit.and_then(|f| f.best));
    // The model's curves, in the model the view was computed for (the one chosen, or the best).
    let chart = use_memo(b.clone(), |b| {
        let name = b.view.broadcast_chart_model.map_or("", |k| k.name());
        Rc::new(broadcast_chart(&b.view.broadcast_chart, name, b.procs))
    });
    let best = fit.and_then(|f| f.best);
    let labelled: Vec<(&str, String)> = MODEL_KINDS
        .iter()
        .filter(|k| fit.and_then(|f| f.model(**k)).is_some())
        .map(|k| (k.key(), if best == Some(*k) { format!("{} (best)", k.name()) } else { k.name().to_string() }))
        .collect();
    let opts: Vec<(&str, &str)> = labelled.iter().map(|(k, l)| (*k, l.as_str())).collect();
    let rows = b.view.broadcast.iter().filter(|r| Some(r.model) == kind).map(broadcast_row);
    let measured_errors: Vec<_> = cur.measured_error.iter().cloned().collect();
    let heads: Vec<&str> =
        std::iter::once("size").chain(Algorithm::all().map(Algorithm::label)).chain(["fastest"]).collect();
    html! {
        <>
            <h2>{ "Broadcast" }</h2>
            <div class="form-row">
                { ctx.field(Field::Procs, "processes P", None) }
                { ctx.field(Field::Sizes, "message sizes", Some("e.g. 8KB 512KB")) }
                { ctx.select(Field::BcastModel, "in the model", &opts, kind.map_or("", |k| k.key())) }
            </div>
            { stale_note(shown.stale) }
            <div class="grid-2">
                <div>{ table("broadcast", &heads, rows) }</div>
                <Chart id="chart-broadcast" chart={drawing((*chart).clone())} />
            </div>
            <h3>{ "Measured broadcasts: Poly-adapt" }</h3>
            <TableInput id={Field::Measured.key()} label="Measured broadcasts (optional)" columns={MEASURED_COLUMNS}
                value={ctx.text(Field::Measured)} on_input={ctx.setter.on(Field::Measured.key())} errors={measured_errors} rows={5}
                hint={AttrValue::from(format!("algorithm: {}. E.g. size (KB), procs, algorithm, time (ms) / 8, 20, binomial, 0.61", Algorithm::expected()))} />
            if !b.view.adapt1.is_empty() && !b.view.measured.is_empty() {
                <div class="grid-2">
                    <div>
                        <p class="hint">{ "Poly-adapt-1: for each algorithm, the model whose prediction is closest to its measurements (mean relative error)." }</p>
                        { adapt1(&b.view) }
                    </div>
                    <div>
                        <p class="hint">{ "Poly-adapt-2: at each size, the fastest algorithm, each predicted in its own model (Nasri et al.'s Table 4)." }</p>
                        { adapt2(&b.view) }
                    </div>
                </div>
            }
        </>
    }
}

fn adapt1(v: &PageView) -> Html {
    let mut heads = vec!["algorithm", "measured", "model chosen"];
    heads.extend(MODEL_KINDS.iter().map(|k| k.name()));
    let rows = v.adapt1.iter().map(|c| {
        let err = |k: &ModelKind| c.errors.iter().find(|e| e.0 == *k).map(|e| e.1);
        html! {
            <tr>
                <td>{ c.algorithm.key() }</td>
                <td class="num">{ c.measurements }</td>
                <td class="num"><b>{ c.model.name() }</b>{ if c.measurements == 0 { " (no measurements)" } else { "" } }</td>
                { for MODEL_KINDS.iter().map(|k| match err(k) {
                    Some(e) if *k == c.model => html! { <td class="num"><b>{ pct(e) }</b></td> },
                    Some(e) => html! { <td class="num">{ pct(e) }</td> },
                    None => html! { <td class="num">{ "—" }</td> },
                }) }
            </tr>
        }
    });
    table("adapt1", &heads, rows)
}

fn adapt2(v: &PageView) -> Html {
    let rows = v.adapt2.iter().map(|r| {
        html! {
            <tr>
                <td>{ size_text(r.size_bytes) }</td>
                <td class="num">{ r.procs }</td>
                <td class="num"><b>{ r.algorithm.key() }</b></td>
                <td class="num">{ r.model.name() }</td>
                <td class="num">{ time_text(r.time_us) }</td>
            </tr>
        }
    });
    table("adapt2", &["size", "procs", "fastest", "its model", "predicted"], rows)
}

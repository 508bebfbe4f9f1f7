//! Point-to-point measurements: the pasted text, the four models' fits and errors, the knee,
//! the chart, and saving a fitted model as a fabric of a catalog cluster.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::{pct, stale_note, table, Ctx, Shown, View};
use crate::charts::comm::{p2p_chart, size_text, time_text};
use crate::model::comm::page::{fitted_fabric, Field};
use crate::model::comm::{CommFit, Format, ModelFit, ModelKind, P2P_COLUMNS};
use crate::model::fmt_num;
use crate::model::workspace::PageField;
use crate::ui::components::chart::{drawing, Chart};
use crate::ui::components::table_input::TableInput;
use crate::ui::route::{Link, Route};
use crate::ui::store::{use_store, Action};

const FORMATS: &[(&str, &str)] = &[
    ("auto", "recognise from the headers"),
    ("table", "a (size, time) table"),
    ("osu", "OSU latency (osu_latency)"),
    ("osu_bw", "OSU bandwidth (osu_bw)"),
    ("imb", "IMB PingPong"),
];

#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Ctx,
    pub current: View,
    pub shown: Shown<View>,
}

fn param_text(key: &str, v: f64) -> String {
    let name = match key {
        "alpha_us" => "α = {} µs",
        "beta_us_per_byte" => "β = {} µs/B",
        "bandwidth_mb_s" => "{} MiB/s",
        "l_plus_2o_us" => "L + 2o = {} µs",
        "gap_us" => "g = {} µs",
        "w_bytes" => "w = {} B",
        "big_g_us_per_byte" => "G = {} µs/B",
        "t_smallest_us" => "T(0) = {} µs",
        "knots" => "{} knots",
        _ => "{}",
    };
    name.replace("{}", &fmt_num(v, 4))
}

fn model_row(f: &ModelFit, best: Option<ModelKind>) -> Html {
    let kind = f.model.kind();
    let params: Vec<String> = f.model.params().iter().map(|(k, v)| param_text(k, *v)).collect();
    html! {
        <tr class={classes!((best == Some(kind)).then_some("best"))} id={format!("model-{}", kind.key())}>
            <td><b>{ kind.name() }</b></td>
            <td>{ params.join(", ") }</td>
            <td class="num">{ pct(f.mean_rel_error) }</td>
            <td class="num">{ f.loo_rel_error.map(pct).unwrap_or_else(|| "—".into()) }</td>
        </tr>
    }
}

fn errors_table(fit: &CommFit) -> Html {
    let mut heads = vec!["size", "measured"];
    heads.extend(fit.models.iter().map(|m| m.model.kind().name()));
    let rows = fit.sizes_bytes.iter().zip(&fit.times_us).enumerate().map(|(i, (m, t))| {
        html! {
            <tr>
                <td>{ size_text(*m) }</td>
                <td class="num">{ time_text(*t) }</td>
                { for fit.models.iter().map(|f| html! { <td class="num">{ f.rel_errors.get(i).map(|e| pct(*e)).unwrap_or_default() }</td> }) }
            </tr>
        }
    });
    table("errors-per-size", &heads, rows)
}

#[component(P2p)]
pub fn p2p(p: &Props) -> Html {
    let view = &p.shown.value;
    let chart = use_memo(view.clone(), |v| {
        let fit = v.fit.as_ref();
        Rc::new(p2p_chart(
            &v.chart,
            fit.and_then(|f| f.best).map(|k| k.name()),
            fit.and_then(|f| f.knee).map(|k| k.size_bytes),
        ))
    });
    let format = p.ctx.text(Field::P2pFormat);
    let errors: Vec<_> = p.current.p2p_error.iter().cloned().collect();
    html! {
        <>
            <h2>{ "Point-to-point measurements" }</h2>
            <div class="grid-2">
                <div>
                    <TableInput id={Field::P2p.key()} label="Message size and one-way time, or benchmark output" columns={P2P_COLUMNS}
                        value={p.ctx.text(Field::P2p)} on_input={p.ctx.setter.on(Field::P2p.key())} {errors} rows={12}
                        hint={AttrValue::from("Or paste the raw output of osu_latency, osu_bw or Intel MPI Benchmarks PingPong: it is recognised from its header.")} />
                    <div class="form-row">
                        { p.ctx.select(Field::P2pFormat, "read as", FORMATS, if format.is_empty() { "auto" } else { &format }) }
                        { p.ctx.field(Field::LatencyShare, "share of a small message that is wire latency L", Some("0 to 1")) }
                    </div>
                    <p id="p2p-format-read" class="hint">
                        if p.current.p2p_error.is_some() {
                            { format!("Read as {}: it has an error (under the box), so none of it is fitted.", p.current.format.text()) }
                        } else {
                            { format!("Read as {}; {} sizes.", p.current.format.text(), p.current.fit.as_ref().map_or(0, |f| f.sizes_bytes.len())) }
                        }
                    </p>
                </div>
                <Chart id="chart-p2p" chart={drawing((*chart).clone())} height={460} />
            </div>
            { stale_note(p.shown.stale) }
            if let Some(fit) = &view.fit { { fit_results(fit, view, &p.ctx, p.shown.stale) } }
        </>
    }
}

/// The fits shown; `stale` while the measurements have an error (then nothing is saved or
/// exported from these last good fits).
fn fit_results(fit: &CommFit, view: &View, ctx: &Ctx, stale: bool) -> Html {
    let best = fit.best.map(|k| html! { <p id="best-model" class="verdict">{ format!("Best: {}. ", k.name()) }<span class="muted">{ format!("{}.", fit.best_reason) }</span></p> });
    let knee = match &fit.knee {
        Some(k) => format!(
            "Protocol knee (eager → rendezvous) between {} and {}: the time jumps by {} there.",
            size_text(k.last_eager_bytes),
            size_text(k.size_bytes),
            time_text(k.jump_us)
        ),
        None => "No protocol knee found: one straight line fits every size.".into(),
    };
    html! {
        <>
            { for best }
            { table("models", &["model", "parameters", "mean error", "leave-one-out error"], fit.models.iter().map(|f| model_row(f, fit.best))) }
            if !fit.skipped.is_empty() {
                <ul id="skipped" class="warnings">{ for fit.skipped.iter().map(|(k, why)| html! { <li>{ format!("{} not fitted: {why}", k.name()) }</li> }) }</ul>
            }
            <p id="knee">{ knee }</p>
            <details>
                <summary>{ "Error of each model at each measured size" }</summary>
                { errors_table(fit) }
            </details>
            if stale {
                <p id="save-stale" class="field-error">{ "The measurements have an error: fix it to save or export a fit; these are the last good ones." }</p>
            } else {
                <SaveFabric view={view.clone()} />
                <super::export::Export view={view.clone()} inputs={ctx.inputs.clone()} />
            }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct SaveProps {
    view: View,
}

/// Adds a fitted model to a cluster of the catalog, as a fabric the other pages can use.
#[component(SaveFabric)]
fn save_fabric(p: &SaveProps) -> Html {
    let store = use_store();
    let cluster = use_state(String::new);
    let model = use_state(String::new);
    let saved = use_state(|| None::<Result<String, String>>);
    let Some(fit) = &p.view.fit else { return Html::default() };
    let catalog = &store.ws.catalog;
    let cluster_id = if catalog.cluster(&cluster).is_some() {
        (*cluster).clone()
    } else {
        catalog.clusters.first().map(|c| c.id.clone()).unwrap_or_default()
    };
    let kind = ModelKind::from_key(&model).filter(|k| fit.model(*k).is_some()).or(fit.best);
    let on_select = |state: &UseStateHandle<String>| {
        let (state, saved) = (state.clone(), saved.clone());
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            state.set(sel.value());
            saved.set(None);
        })
    };
    let onclick = {
        let (store, view, saved, cluster_id) = (store.clone(), p.view.clone(), saved.clone(), cluster_id.clone());
        Callback::from(move |_| {
            let Some(kind) = kind else { return };
            let mut catalog = store.ws.catalog.clone();
            let Some(c) = catalog.cluster_mut(&cluster_id) else { return };
            let source = match view.format {
                Format::Table => "table",
                Format::OsuLatency => "OSU latency",
                Format::OsuBandwidth => "OSU bandwidth",
                Format::ImbPingPong => "IMB PingPong",
            };
            let base = format!("fitted {} ({source})", kind.name());
            let name = (1..)
                .map(|k| if k == 1 { base.clone() } else { format!("{base} {k}") })
                .find(|n| c.fabric(n).is_none())
                .unwrap_or(base);
            let Some(fabric) = fitted_fabric(&view, kind, &name) else { return };
            let what = format!(
                "Added fabric \"{name}\" to {}: latency {} µs, bandwidth {} MiB/s.",
                c.name,
                fmt_num(fabric.latency_us, 4),
                fmt_num(fabric.bandwidth_mb_s, 4)
            );
            c.fabrics.push(fabric);
            // The autosaved catalog must always load again: commit only a valid one.
            match catalog.validate() {
                Ok(()) => {
                    store.dispatch(Action::SetCatalog(catalog));
                    saved.set(Some(Ok(what)));
                }
                Err(errs) => saved.set(Some(Err(errs.first().map(|e| e.to_string()).unwrap_or_default()))),
            }
        })
    };
    html! {
        <div class="save-fabric">
            <h3>{ "Save as a fabric" }</h3>
            <p class="hint">{ "Adds the model's latency (its time for an empty message) and long-message bandwidth to a cluster's fabrics, for the other calculators." }</p>
            <div class="form-row">
                <div class="field">
                    <label for="fabric-cluster">{ "cluster" }</label>
                    <select id="fabric-cluster" onchange={on_select(&cluster)}>
                        { for catalog.clusters.iter().map(|c| html! { <option value={c.id.clone()} selected={c.id == cluster_id}>{ c.name.clone() }</option> }) }
                    </select>
                </div>
                <div class="field">
                    <label for="fabric-model">{ "model" }</label>
                    <select id="fabric-model" onchange={on_select(&model)}>
                        { for fit.models.iter().map(|f| f.model.kind()).map(|k| html! { <option value={k.key()} selected={Some(k) == kind}>{ k.name() }</option> }) }
                    </select>
                </div>
                <button id="save-fabric" {onclick} disabled={kind.is_none() || cluster_id.is_empty()}>{ "Add to the cluster" }</button>
            </div>
            { for saved.as_ref().map(|r| match r {
                Ok(msg) => html! { <p id="fabric-saved" class="verdict">{ msg.clone() }{ " " }<Link to={Route::Clusters}>{ "See it on the Clusters page." }</Link></p> },
                Err(e) => html! { <p id="fabric-saved" class="field-error">{ format!("Not saved: {e}") }</p> },
            }) }
        </div>
    }
}

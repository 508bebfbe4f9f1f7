//! One calibration: cluster and fabric, the two run tables, and the fit with its residuals.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::catalog::Catalog;
use crate::model::fmt_num;
use crate::model::multigrid::page::{
    self as page, CalPart, CalibrationView, Field, PARALLEL_COLUMNS, SEQUENTIAL_COLUMNS,
};
use crate::model::multigrid::Fit;
use crate::model::workspace::{Edit, PageField};
use crate::ui::components::stale::Shown;
use crate::ui::components::table_csv::csv_button;
use crate::ui::components::table_input::TableInput;
use crate::ui::store::Setter;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: CalibrationView,
    /// The texts of the two tables.
    pub seq: AttrValue,
    pub par: AttrValue,
    /// The current fit, or the last good one (stale) while the tables have an error.
    pub fit: Shown<Option<Fit>>,
    pub catalog: Rc<Catalog>,
    pub setter: Setter,
    /// How many calibrations the page holds (one is never removed).
    pub count: usize,
}

fn n(x: f64) -> String {
    fmt_num(x, 4)
}

/// A residual in seconds: rounding noise from the least-squares arithmetic (1e-14 s) is
/// shown as the 0 it is.
fn residual(x: f64) -> String {
    n(if x.abs() < 1e-6 { 0.0 } else { x })
}

#[component(CalibrationCard)]
pub fn calibration_card(p: &Props) -> Html {
    let i = p.view.index;
    let key = move |part| Field::Cal(i, part).key();
    let cluster = p.catalog.cluster(&p.view.cluster_id);
    let on_cluster = {
        let setter = p.setter.clone();
        let catalog = p.catalog.clone();
        let current = p.view.fabric.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let id = sel.value();
            // Keep the fabric when the new cluster has one of that name, else take its first.
            let fabric = catalog
                .cluster(&id)
                .map(|c| {
                    if c.fabric(&current).is_some() {
                        current.clone()
                    } else {
                        c.fabrics.first().map(|f| f.name.clone()).unwrap_or_default()
                    }
                })
                .unwrap_or_default();
            setter.edit(Edit {
                set: vec![(key(CalPart::Cluster).to_string(), id), (key(CalPart::Fabric).to_string(), fabric)],
                ..Edit::default()
            });
        })
    };
    let on_fabric = {
        let set = p.setter.on(key(CalPart::Fabric));
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            set.emit(sel.value());
        })
    };
    let remove = {
        let setter = p.setter.clone();
        let count = p.count;
        Callback::from(move |_| setter.edit(page::remove_calibration(count, i)))
    };
    let (fit, stale) = (p.fit.value.as_ref(), p.fit.stale);
    let notes = cluster.map(|c| c.notes.clone()).unwrap_or_default();
    html! {
        <article class="card calibration" id={format!("calibration-{i}")}>
            <header class="card-head">
                <h3>{ format!("Calibration {i}") }</h3>
                <label>{ "cluster " }
                    <select id={key(CalPart::Cluster)} onchange={on_cluster}>
                        { for p.catalog.clusters.iter().map(|c| html! {
                            <option value={c.id.clone()} selected={c.id == p.view.cluster_id}>{ c.name.clone() }</option>
                        }) }
                    </select>
                </label>
                <label>{ "fabric " }
                    <select id={key(CalPart::Fabric)} onchange={on_fabric}>
                        { for cluster.into_iter().flat_map(|c| c.fabrics.iter()).map(|f| html! {
                            <option value={f.name.clone()} selected={f.name == p.view.fabric}>{ f.name.clone() }</option>
                        }) }
                    </select>
                </label>
                if p.count > 1 { <button class="link danger" onclick={remove}>{ "Remove" }</button> }
            </header>
            { for p.view.choice_errors.iter().map(|e| html! { <div class="field-error" role="alert">{ e.to_string() }</div> }) }
            if !notes.is_empty() { <p class="notes">{ notes }</p> }
            <div class="grid-2">
                <TableInput id={key(CalPart::Sequential)} label="Sequential runs (one processor)" columns={SEQUENTIAL_COLUMNS}
                    value={p.seq.clone()} on_input={p.setter.on(key(CalPart::Sequential))}
                    errors={p.view.sequential_errors.clone()} rows={4} />
                <TableInput id={key(CalPart::Parallel)} label="Parallel runs (np0 processes, same per-process sizes)" columns={PARALLEL_COLUMNS}
                    value={p.par.clone()} on_input={p.setter.on(key(CalPart::Parallel))}
                    errors={p.view.parallel_errors.clone()} rows={6} />
            </div>
            if let Some(f) = fit { { fit_summary(i, f, stale) } }
        </article>
    }
}

fn fit_summary(i: usize, f: &Fit, stale: bool) -> Html {
    html! {
        <div class={classes!("fit", stale.then_some("is-stale"))} id={format!("fit-{i}")}>
            if stale { <div class="stale">{ "Stale: the tables above have an error; this is the last good fit." }</div> }
            <p class="fit-params">
                { "c = " }<b class="c">{ n(f.alpha.c_s) }</b>{ " s, d = " }<b class="d">{ n(f.alpha.d_s) }</b>
                { " s per doubling of np, γ = γ(" }{ f.gamma_np0 }{ ") = " }<b class="gamma">{ fmt_num(f.gamma_s_per_mb, 5) }</b>{ " s/MB; " }
                { "Tcomp(work) = " }{ n(f.tcomp.intercept_s) }{ " + " }{ fmt_num(f.tcomp.slope_s_per_mb, 5) }{ " · work s (the straight line through the sequential runs, used for sizes not measured)" }
            </p>
            <div class="grid-2">
                <div><table class="runs">
                    <thead><tr><th class="num">{ "np0" }</th><th class="num">{ "work (MB)" }</th><th class="num">{ "T (s)" }</th><th class="num">{ "Tcomp (s)" }</th><th class="num">{ "Tcomm (s)" }</th></tr></thead>
                    <tbody>{ for f.runs.iter().map(|r| html! {
                        <tr><td class="num">{ r.np }</td><td class="num">{ n(r.work_mb) }</td><td class="num">{ n(r.time_s) }</td>
                            <td class="num">{ n(r.tcomp_s) }</td><td class="num">{ n(r.tcomm_s) }</td></tr>
                    }) }</tbody>
                </table>{ csv_button(format!("multigrid-calibration-{}-runs.csv", i + 1)) }</div>
                <div><table class="np0">
                    <thead><tr><th class="num">{ "np0" }</th><th class="num">{ "α(np0) (s)" }</th><th class="num">{ "γ(np0) (s/MB)" }</th><th class="num">{ "α residual (s)" }</th><th class="num">{ "Tcomm residuals (s)" }</th></tr></thead>
                    <tbody>{ for f.per_np0.iter().map(|q| {
                        let res = f.alpha.points.iter().find(|a| a.np0 == q.np0).map(|a| residual(a.residual_s)).unwrap_or_default();
                        let tres: Vec<String> = q.points.iter().map(|pt| residual(pt.residual_s)).collect();
                        html! { <tr><td class="num">{ q.np0 }</td><td class="num">{ n(q.alpha_s) }</td><td class="num">{ fmt_num(q.gamma_s_per_mb, 5) }</td>
                            <td class="num">{ res }</td><td class="num">{ tres.join(", ") }</td></tr> }
                    }) }</tbody>
                </table>{ csv_button(format!("multigrid-calibration-{}-np0.csv", i + 1)) }</div>
            </div>
        </div>
    }
}

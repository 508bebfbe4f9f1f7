//! "Measured message times" on the Clusters page: raw per-message timings (a SimGrid
//! calibration CSV or a (size, time) sample table) made into the simulator's histograms by
//! `model::simulate::calibration`, shown as a table and as a chart of one chosen size's histogram
//! (`charts::calibration`), and saved as a cluster's message times, which the simulation page
//! then offers as a machine.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::charts::calibration::message_times;
use crate::model::fmt_num;
use crate::model::simulate::calibration::{calibration_table, SampleFormat, SAMPLE_COLUMNS};
use crate::ui::components::chart::{drawing, Chart};
use crate::ui::components::table_csv::csv_button;
use crate::ui::components::table_input::TableInput;
use crate::ui::store::{use_store, Action};

#[component(MeasuredTimes)]
pub fn measured_times() -> Html {
    let store = use_store();
    let text = use_state(String::new);
    let cluster = use_state(String::new);
    let saved = use_state(|| None::<Result<String, String>>);
    // The size charted, as its index among the sizes read (the first when out of range).
    let charted = use_state(|| 0usize);
    let result = (!text.trim().is_empty()).then(|| calibration_table("calibration samples", &text));
    let on_input = {
        let (text, saved) = (text.clone(), saved.clone());
        Callback::from(move |t: String| {
            text.set(t);
            saved.set(None);
        })
    };
    let errors: Vec<_> = match &result {
        Some(Err(e)) => vec![e.clone()],
        _ => Vec::new(),
    };
    let catalog = &store.ws.catalog;
    let cluster_id = if catalog.cluster(&cluster).is_some() {
        (*cluster).clone()
    } else {
        catalog.clusters.first().map(|c| c.id.clone()).unwrap_or_default()
    };
    let body = match &result {
        Some(Ok((format, hists, table))) => {
            let rows = hists.iter().map(|h| {
                let lo = h.bins.first().map_or(0.0, |b| b.0);
                let hi = h.bins.last().map_or(0.0, |b| b.1);
                html! {
                    <tr>
                        <td class="num">{ fmt_num(h.size_bytes, 8) }</td>
                        <td class="num">{ h.samples }</td>
                        <td class="num">{ h.bins.len() }</td>
                        <td class="num">{ fmt_num(lo, 4) }</td>
                        <td class="num">{ fmt_num(hi, 4) }</td>
                    </tr>
                }
            });
            let onclick = {
                let (store, saved, table, cluster_id) =
                    (store.clone(), saved.clone(), table.clone(), cluster_id.clone());
                Callback::from(move |_| {
                    let mut catalog = store.ws.catalog.clone();
                    let Some(c) = catalog.cluster_mut(&cluster_id) else { return };
                    c.message_histograms = table.clone();
                    let what = format!("Saved as the message times of {}: the simulation page offers \"{} — measured message times\" as a machine.", c.name, c.name);
                    match catalog.validate() {
                        Ok(()) => {
                            store.dispatch(Action::SetCatalog(catalog));
                            saved.set(Some(Ok(what)));
                        }
                        Err(errs) => saved.set(Some(Err(errs.first().map(|e| e.to_string()).unwrap_or_default()))),
                    }
                })
            };
            let on_cluster = {
                let (cluster, saved) = (cluster.clone(), saved.clone());
                Callback::from(move |e: Event| {
                    let sel: HtmlSelectElement = e.target_unchecked_into();
                    cluster.set(sel.value());
                    saved.set(None);
                })
            };
            let on_size = {
                let charted = charted.clone();
                Callback::from(move |e: Event| {
                    let sel: HtmlSelectElement = e.target_unchecked_into();
                    charted.set(sel.value().parse().unwrap_or(0));
                })
            };
            let k = if *charted < hists.len() { *charted } else { 0 };
            html! {
                <>
                    <p id="calibration-read" class="hint">{ format!(
                        "Read as {}; {} sizes, {} samples.",
                        if *format == SampleFormat::SimGrid { "a SimGrid calibration CSV (send + receive of a round trip, halved)" } else { "a (size, time) sample table" },
                        hists.len(),
                        hists.iter().map(|h| h.samples).sum::<usize>()
                    ) }</p>
                    <table id="calibration-histograms">
                            <thead><tr><th>{ "size (B)" }</th><th>{ "samples" }</th><th>{ "bins" }</th><th>{ "fastest (µs)" }</th><th>{ "slowest (µs)" }</th></tr></thead>
                            <tbody>{ for rows }</tbody>
                    </table>
                    { csv_button("calibration-histograms.csv") }
                    <div class="form-row"><div class="field">
                        <label for="calibration-size">{ "message size charted (B)" }</label>
                        <select id="calibration-size" onchange={on_size}>
                            { for hists.iter().enumerate().map(|(i, h)| html! { <option value={i.to_string()} selected={i == k}>{ fmt_num(h.size_bytes, 8) }</option> }) }
                        </select>
                    </div></div>
                    if let Some(h) = hists.get(k) { <Chart id="chart-calibration" chart={drawing(Rc::new(message_times(h)))} /> }
                    <div class="form-row">
                        <div class="field">
                            <label for="calibration-cluster">{ "cluster" }</label>
                            <select id="calibration-cluster" onchange={on_cluster}>
                                { for catalog.clusters.iter().map(|c| html! { <option value={c.id.clone()} selected={c.id == cluster_id}>{ c.name.clone() }</option> }) }
                            </select>
                        </div>
                        <button id="save-calibration" {onclick} disabled={cluster_id.is_empty()}>{ "Save as the cluster's message times" }</button>
                    </div>
                </>
            }
        }
        _ => Html::default(),
    };
    html! {
        <div class="calibration">
            <h2>{ "Measured message times" }</h2>
            <p class="hint">{ "Paste a SimGrid calibration CSV (operation,size,start,duration; e.g. the ping-pong file of SimGrid's platform calibration) or a table of repeated (size, time) samples: each size becomes a histogram of one-way times that the simulation page samples from." }</p>
            <TableInput id="calibration-samples" label="Per-message timings" columns={SAMPLE_COLUMNS} value={(*text).clone()} {on_input} {errors} rows={8} />
            { body }
            { for saved.as_ref().map(|r| match r {
                Ok(msg) => html! { <p id="calibration-saved" class="verdict">{ msg.clone() }</p> },
                Err(e) => html! { <p id="calibration-saved" class="field-error">{ format!("Not saved: {e}") }</p> },
            }) }
        </div>
    }
}

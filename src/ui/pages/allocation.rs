//! "Allocation request" on the speed-up and planner pages: the best model's predictions, or
//! the planner's ranking, as the strong-scaling table a compute centre asks for
//! (`model::allocation`), in Markdown, CSV or LaTeX, with copy and download buttons. Its
//! inputs are saved with the page's (`model::allocation::KEY_*`).

use std::rc::Rc;

use yew::prelude::*;

use crate::model::allocation::{
    page_table, AllocationSource, TableFormat, KEY_CARBON, KEY_CORES, KEY_FORMAT, KEY_POWER, KEY_PRICE, KEY_PUE,
};
use crate::model::workspace::PageInputs;
use crate::ui::components::number_field::{page_field, page_select};
use crate::ui::components::workspace_file::download;
use crate::ui::store::{text, Setter};

/// The rows the table is made from: the speed-up page's predictions or the planner's ranking
/// (generic, so each page's wasm holds only its own kind).
#[derive(Properties, PartialEq)]
pub struct AllocationProps<S: AllocationSource + ?Sized + PartialEq + 'static> {
    /// The page's texts and setter (the section's fields live among the page's).
    pub inputs: Rc<PageInputs>,
    pub setter: Setter,
    pub rows: Rc<S>,
    /// What the section says when there is nothing to tabulate.
    pub empty: &'static str,
    /// Start of the download's file name, e.g. "speedup" for speedup-allocation.md.
    pub file: &'static str,
}

#[component(AllocationTable)]
pub fn allocation_table<S: AllocationSource + ?Sized + PartialEq + 'static>(p: &AllocationProps<S>) -> Html {
    let (inputs, setter) = (&p.inputs, &p.setter);
    let t = page_table(|k| text(inputs, k).to_string(), &*p.rows);
    let a = &t.allocation;
    let error = |key: &str| t.errors.iter().find(|e| e.0 == key).map(|e| e.1.message.clone());
    let copy = {
        let table = t.text.clone();
        Callback::from(move |_| {
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&table);
            }
        })
    };
    let save = {
        let (table, format, file) = (t.text.clone(), t.format, p.file);
        Callback::from(move |_| {
            let (ext, mime) = match format {
                TableFormat::Markdown => ("md", "text/markdown"),
                TableFormat::Csv => ("csv", "text/csv"),
                TableFormat::Latex => ("tex", "application/x-tex"),
            };
            let _ = download(&format!("{file}-allocation.{ext}"), mime, &table);
        })
    };
    html! {
        <section id="allocation" class="allocation">
            <h3>{ "Allocation request" }</h3>
            <div class="form-row">
                { page_field(inputs, setter, KEY_CORES, "cores per node", None, error(KEY_CORES)) }
                { page_field(inputs, setter, KEY_PRICE, "price per core-hour (EUR, optional)", None, error(KEY_PRICE)) }
                { page_select(inputs, setter, KEY_FORMAT, "format", &[("md", "Markdown"), ("csv", "CSV"), ("latex", "LaTeX")]) }
            </div>
            if S::ENERGY_FIELDS {
                <div class="form-row">
                    { page_field(inputs, setter, KEY_POWER, "node power (W, optional)", None, error(KEY_POWER)) }
                    { page_field(inputs, setter, KEY_PUE, "PUE of the site", None, error(KEY_PUE)) }
                    { page_field(inputs, setter, KEY_CARBON, "grid carbon (g CO2e/kWh)", None, error(KEY_CARBON)) }
                </div>
                <p class="hint">{ "Whole nodes billed. kWh = node-hours × power × PUE / 1000; kg CO2e = kWh × grid carbon / 1000 (Green Algorithms, full load). The Clusters page gives these figures per machine." }</p>
            }
            if a.rows.is_empty() {
                <p id="allocation-empty" class="hint">{ p.empty }</p>
            } else {
                <p id="allocation-reason"><b>{ "Recommended: " }</b>{ a.reason.clone() }</p>
                <pre id="allocation-text">{ t.text.clone() }</pre>
                <button id="allocation-copy" class="secondary" onclick={copy}>{ "Copy table" }</button>
                <button id="allocation-download" class="secondary" onclick={save}>{ "Download" }</button>
            }
        </section>
    }
}

//! "Allocation request" on the speed-up page: the best model's predictions as the
//! strong-scaling table a compute centre asks for (`model::allocation`), in Markdown, CSV or
//! LaTeX, with a copy button. Its inputs are saved with the page's (`model::allocation::KEY_*`).

use yew::prelude::*;

use crate::model::allocation::{from_speedup, options_from_texts, render, TableFormat, KEY_CORES, KEY_FORMAT, KEY_PRICE, KEY_THRESHOLD};
use crate::model::speedup::page::{self as page, PAGE};
use crate::model::speedup::Prediction;
use crate::ui::components::number_field::{page_field, page_select};
use crate::ui::store::{text, use_store, Setter};

#[derive(Properties, PartialEq)]
pub struct AllocationProps {
    /// The best model's predictions, as the page shows them.
    pub predictions: Vec<Prediction>,
}

#[component(AllocationTable)]
pub fn allocation_table(p: &AllocationProps) -> Html {
    let store = use_store();
    let inputs = store.inputs_or(PAGE, page::default_inputs);
    let setter = Setter::new(store.dispatcher(), PAGE, page::default_inputs);
    let (opts, errors) = options_from_texts(&text(&inputs, KEY_CORES), &text(&inputs, KEY_PRICE), &text(&inputs, KEY_THRESHOLD));
    let format = TableFormat::from_name(&text(&inputs, KEY_FORMAT)).unwrap_or(TableFormat::Markdown);
    let a = from_speedup(&p.predictions, &opts);
    let table = render(&a, format);
    let error = |key: &str| errors.iter().find(|e| e.0 == key).map(|e| e.1.message.clone());
    let copy = {
        let table = table.clone();
        Callback::from(move |_| {
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&table);
            }
        })
    };
    html! {
        <section id="allocation" class="allocation">
            <h3>{ "Allocation request" }</h3>
            <div class="form-row">
                { page_field(&inputs, &setter, KEY_CORES, "cores per node", None, error(KEY_CORES)) }
                { page_field(&inputs, &setter, KEY_PRICE, "price per core-hour (EUR, optional)", None, error(KEY_PRICE)) }
                { page_select(&inputs, &setter, KEY_FORMAT, "format", &[("md", "Markdown"), ("csv", "CSV"), ("latex", "LaTeX")]) }
            </div>
            if a.rows.is_empty() {
                <p id="allocation-empty" class="hint">{ "Needs run times and n to predict at." }</p>
            } else {
                <p id="allocation-reason"><b>{ "Recommended: " }</b>{ a.reason.clone() }</p>
                <pre id="allocation-text">{ table }</pre>
                <button id="allocation-copy" class="secondary" onclick={copy}>{ "Copy table" }</button>
            }
        </section>
    }
}

//! The communication page (`comm.html`): point-to-point model fits, broadcast algorithms and
//! Poly-adapt, rendered from `model::comm::page::view`. Each section whose input has an error
//! keeps its last good result, marked stale. The helpers its sections share ([`Ctx`], [`View`],
//! [`table`], [`stale_note`], [`keep`]) are also those of the "Broadcast across sites" page
//! (`ui::pages::sites`), seed 002's other page.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::model::calculators;
use crate::model::comm::page::{self as page, Field, PageView, PAGE};
use crate::model::workspace::{PageField, PageInputs};
use crate::ui::components::number_field::TextField;
use crate::ui::components::share_panel::SharePanel;
use crate::ui::components::table_csv::csv_button;
use crate::ui::store::{text, use_page, Action, Page, PageSetup, Setter};

/// This page in the store.
const STORE_PAGE: Page = Page { calculator: &calculators::COMM, defaults: page::default_inputs };

mod bcast;
mod export;
mod p2p;

/// The texts of a page's fields that pass `keep` (what a page's view is computed from, so
/// that a memo of it compares only those).
pub fn fields_of<F: PageField>(inputs: &PageInputs, keep: impl Fn(F) -> bool) -> PageInputs {
    F::ALL
        .iter()
        .copied()
        .filter(|f| keep(*f))
        .filter_map(|f| Some((f.key().to_string(), inputs.get(f.key())?.clone())))
        .collect()
}

/// A view shared between sections (this page's, or another's: `View<T>`), compared by
/// identity: a view is evaluated again only when its inputs change, so the same `Rc` is the
/// same view, while comparing by value would walk every entry of a large matrix on each
/// render.
pub struct View<T = PageView>(pub Rc<T>);

impl<T> Clone for View<T> {
    fn clone(&self) -> Self {
        View(self.0.clone())
    }
}

impl<T> PartialEq for View<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for View<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

pub use crate::ui::components::stale::{keep, Shown};

/// What every section needs to draw its fields.
#[derive(Clone, PartialEq)]
pub struct Ctx {
    pub inputs: Rc<PageInputs>,
    pub setter: Setter,
    /// Errors of the page's single-value fields.
    pub errors: Rc<std::collections::BTreeMap<String, String>>,
}

impl Ctx {
    /// A single-value field with its error under it.
    pub fn field<F: PageField>(&self, field: F, label: &'static str, unit: Option<&'static str>) -> Html {
        let key = field.key();
        html! {
            <TextField id={key} label={label} unit={unit.map(AttrValue::from)} value={text(&self.inputs, key)}
                on_input={self.setter.on(key)} error={self.errors.get(key).cloned()} />
        }
    }

    /// A select whose choice is kept in the page's inputs.
    pub fn select<F: PageField>(&self, field: F, label: &str, options: &[(&str, &str)], current: &str) -> Html {
        let (key, setter) = (field.key(), self.setter.clone());
        let onchange = Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            setter.set(key, sel.value());
        });
        html! {
            <div class="field">
                <label for={key}>{ label.to_string() }</label>
                <select id={key} {onchange}>
                    { for options.iter().map(|(v, t)| html! { <option value={v.to_string()} selected={*v == current}>{ t.to_string() }</option> }) }
                </select>
            </div>
        }
    }

    /// Whether a single-value field has an error.
    pub fn has_error<F: PageField>(&self, field: F) -> bool {
        self.errors.contains_key(field.key())
    }

    /// The text in a field.
    pub fn text<F: PageField>(&self, field: F) -> AttrValue {
        text(&self.inputs, field.key())
    }
}

/// A results table: header cells, then rows; its CSV button below it.
pub fn table(id: &str, heads: &[&str], rows: impl IntoIterator<Item = Html>) -> Html {
    html! {
        <>
        <table id={id.to_string()} class="results">
            <thead><tr>{ for heads.iter().enumerate().map(|(k, h)| html! {
                <th class={classes!((k > 0).then_some("num"))}>{ h.to_string() }</th>
            }) }</tr></thead>
            <tbody>{ for rows }</tbody>
        </table>
        { csv_button(format!("comm-{id}.csv")) }
        </>
    }
}

pub fn stale_note(stale: bool) -> Html {
    crate::ui::components::stale::stale_note(
        stale,
        "Stale: an input of this section has an error; this is the last good result.",
    )
}

/// A percentage of a relative error.
pub fn pct(e: f64) -> String {
    format!("{} %", crate::model::fmt_num(100.0 * e, 3))
}

#[component(Comm)]
pub fn comm() -> Html {
    let PageSetup { store, inputs, setter } = use_page(STORE_PAGE);
    let catalog = store.ws.catalog.clone();
    let a = View(use_memo(fields_of(&inputs, |_: Field| true), move |i| page::view(i, &catalog)));
    let ctx = Ctx { inputs: inputs.clone(), setter: setter.clone(), errors: Rc::new(a.field_errors.clone()) };
    let slot = use_mut_ref(|| None);
    let p2p_shown = keep(&mut slot.borrow_mut(), a.clone(), a.fit.is_none());

    let presets = page::presets().into_iter().map(|preset| {
        let store = store.clone();
        let (inputs, label) = (preset.inputs, format!("Loaded the preset {}", preset.name));
        let onclick = Callback::from(move |_| store.dispatch(Action::SetPage { page: STORE_PAGE, inputs: inputs.clone(), label: label.clone() }));
        html! { <button id={format!("preset-{}", preset.key)} class="secondary" title={preset.description} {onclick}>{ preset.name }</button> }
    });

    html! {
        <section class="comm">
            <h1>{ "Communication & broadcast" }</h1>
            <p class="lead">
                { "Which communication model fits your benchmark output (Hockney, LogP, LogGP, pLogP), and which broadcast \
                   algorithm is fastest for your message sizes. Adaptive poly-models of Nasri et al. (Grid'5000). Across sites with \
                   a measured latency matrix: " }
                <a href="sites.html">{ "Broadcast across sites" }</a>{ "." }
            </p>
            <div class="toolbar">{ for presets }</div>
            if !a.warnings.is_empty() {
                <ul class="warnings" id="warnings">{ for a.warnings.iter().map(|w| html! { <li>{ w.to_string() }</li> }) }</ul>
            }
            <p2p::P2p ctx={ctx.clone()} current={a.clone()} shown={p2p_shown} />
            <bcast::Bcast ctx={ctx} current={a} />
            <SharePanel page={PAGE} />
        </section>
    }
}

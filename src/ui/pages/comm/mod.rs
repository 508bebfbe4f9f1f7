//! The two pages of seed 002. The communication page (`comm.html`): point-to-point model fits,
//! broadcast algorithms and Poly-adapt. The "Broadcast across sites" page (`sites.html`):
//! logical clusters of a latency matrix, and the grid broadcast. Each renders its half of what
//! `model::comm::page::view_half` returns, computed from only the inputs that half reads
//! ([`Field::read_by`]). Each section whose input has an error keeps its last good result,
//! marked stale.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::model::calculators;
use crate::model::comm::page::{self as page, Field, Half, PageView, PAGE};
use crate::model::workspace::{PageField, PageInputs, MAX_FIELD_BYTES};
use crate::ui::components::number_field::TextField;
use crate::ui::components::share_panel::SharePanel;
use crate::ui::components::table_csv::csv_button;
use crate::ui::store::{text, use_page, Action, Page, PageSetup, Setter};

/// This page in the store.
const STORE_PAGE: Page = Page { calculator: &calculators::COMM, defaults: page::p2p_defaults };
/// The Sites page in the store.
const SITES_STORE_PAGE: Page = Page { calculator: &calculators::SITES, defaults: page::sites_defaults };

mod bcast;
mod export;
mod grid;
mod p2p;

/// The texts of the fields `half` reads, but the matrix (which the grid half's stages read
/// apart).
fn subset(inputs: &PageInputs, half: Half) -> PageInputs {
    half.fields()
        .filter(|f| *f != Field::Matrix)
        .filter_map(|f| Some((f.key().to_string(), inputs.get(f.key())?.clone())))
        .collect()
}

/// A view shared between sections, compared by identity: a view is evaluated again only when
/// its inputs change, so the same `Rc` is the same view, while comparing by value would walk
/// every entry of a large matrix on each render.
#[derive(Clone)]
pub struct View(pub Rc<PageView>);

impl PartialEq for View {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for View {
    type Target = PageView;
    fn deref(&self) -> &PageView {
        &self.0
    }
}

pub use crate::ui::components::stale::{keep, Shown};

/// What every section needs to draw its fields.
#[derive(Clone, PartialEq)]
pub struct Ctx {
    pub inputs: Rc<PageInputs>,
    pub setter: Setter,
    /// Errors of single-value fields, from both halves.
    pub errors: Rc<std::collections::BTreeMap<String, String>>,
}

impl Ctx {
    /// A single-value field with its error under it.
    pub fn field(&self, field: Field, label: &'static str, unit: Option<&'static str>) -> Html {
        let key = field.key();
        html! {
            <TextField id={key} label={label} unit={unit.map(AttrValue::from)} value={text(&self.inputs, key)}
                on_input={self.setter.on(key)} error={self.errors.get(key).cloned()} />
        }
    }

    /// A select whose choice is kept in the page's inputs.
    pub fn select(&self, field: Field, label: &str, options: &[(&str, &str)], current: &str) -> Html {
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
    pub fn has_error(&self, field: Field) -> bool {
        self.errors.contains_key(field.key())
    }

    /// The text in a field.
    pub fn text(&self, field: Field) -> AttrValue {
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
    let a =
        View(use_memo(subset(&inputs, Half::PointToPoint), move |i| page::view_half(i, Half::PointToPoint, &catalog)));
    let ctx = Ctx { inputs: inputs.clone(), setter: setter.clone(), errors: Rc::new(a.field_errors.clone()) };
    let slot = use_mut_ref(|| None);
    let p2p_shown = keep(&mut slot.borrow_mut(), a.clone(), a.fit.is_none());

    let presets = page::presets().into_iter().map(|preset| {
        let store = store.clone();
        let (inputs, label) = (Half::PointToPoint.inputs_of(&preset.inputs), format!("Loaded the preset {}", preset.name));
        let onclick = Callback::from(move |_| store.dispatch(Action::SetPage { page: STORE_PAGE, inputs: inputs.clone(), label: label.clone() }));
        html! { <button id={format!("preset-{}", preset.key)} class="secondary" title={preset.description} {onclick}>{ preset.name }</button> }
    });

    html! {
        <section class="comm">
            <h1>{ "Communication & broadcast" }</h1>
            <p class="lead">
                { "Which communication model fits your benchmark output (Hockney, LogP, LogGP, pLogP), and which broadcast \
                   algorithm is fastest for your message sizes. Adaptive poly-models of seed 002 (Grid'5000). Across sites with \
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

/// The "Broadcast across sites" page (`sites.html`): the latency matrix, its logical clusters
/// with the reordered heat map, and the grid broadcast; the second half of seed 002, evaluated
/// by the same model ([`Half::Grid`]).
#[component(Sites)]
pub fn sites() -> Html {
    let PageSetup { inputs, setter, .. } = use_page(SITES_STORE_PAGE);
    // A matrix larger than a saved input may be (an uploaded 1,000-node CSV) is used in this
    // tab only; the workspace keeps the last one that fits.
    let big_matrix = use_state(|| None::<Rc<String>>);
    // Two stages: the matrix read and clustered again only when it, ρ or symmetrise changes
    // (tens of milliseconds for 1,000 nodes); the broadcast for every keystroke in its fields.
    let matrix = match big_matrix.as_ref() {
        Some(m) => m.clone(),
        None => Rc::new(inputs.get(Field::Matrix.key()).cloned().unwrap_or_default()),
    };
    let key = MatrixKey { matrix, symmetrise: text(&inputs, Field::Symmetrise.key()) };
    let read = use_memo(key, |k| {
        let texts: PageInputs = [(Field::Matrix, k.matrix.to_string()), (Field::Symmetrise, k.symmetrise.to_string())]
            .into_iter()
            .map(|(f, t)| (f.key().to_string(), t))
            .collect();
        page::read_matrix(&texts)
    });
    let rest = subset(&inputs, Half::Grid);
    let stage = use_memo((Same(read), text(&inputs, Field::Rho.key())), |(read, rho)| {
        page::cluster_stage(&read.0, &[(Field::Rho.key().to_string(), rho.to_string())].into_iter().collect())
    });
    let b = View(use_memo((Same(stage), rest), |(stage, rest)| page::grid_half(&stage.0, rest)));
    let ctx = Ctx { inputs: inputs.clone(), setter, errors: Rc::new(b.field_errors.clone()) };
    let slots = use_mut_ref(|| (None, None));
    let (clusters_shown, grid_shown) = {
        let mut s = slots.borrow_mut();
        (keep(&mut s.0, b.clone(), b.clusters.is_none()), keep(&mut s.1, b.clone(), b.grid.is_none()))
    };
    html! {
        <section class="comm">
            <h1>{ "Broadcast across sites" }</h1>
            <p class="lead">
                { "How a grid of machines splits into logical clusters of like latency, and how to broadcast across the \
                   sites: ECEF and ECEF-LAt schedules against a grid-unaware binomial tree, from a measured latency matrix \
                   (seed 002, Grid'5000). Point-to-point models and broadcasts inside one network: " }
                <a href="comm.html">{ "Communication & broadcast" }</a>{ "." }
            </p>
            if !b.warnings.is_empty() {
                <ul class="warnings" id="warnings">{ for b.warnings.iter().map(|w| html! { <li>{ w.to_string() }</li> }) }</ul>
            }
            <grid::Clusters ctx={ctx.clone()} current={b.clone()} shown={clusters_shown} big={big_matrix.clone()} />
            <div class="form-row">{ ctx.field(Field::LatencyShare, "share of a small message that is wire latency L", Some("0 to 1")) }</div>
            <grid::GridCast ctx={ctx} shown={grid_shown} />
            <SharePanel page={page::SITES_PAGE} />
        </section>
    }
}

/// What the matrix is read from (an uploaded one is the same `Rc` until another is loaded,
/// and `Rc`'s equality looks at the pointer first).
#[derive(PartialEq)]
struct MatrixKey {
    matrix: Rc<String>,
    symmetrise: AttrValue,
}

/// A stage of the grid half compared by identity: a memo makes a new one only when its own
/// inputs change.
struct Same<T>(Rc<T>);

impl<T> PartialEq for Same<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Sets the matrix: in the workspace when it fits there, else for this tab only.
pub fn set_matrix(setter: &Setter, big: &UseStateHandle<Option<Rc<String>>>, text: String) {
    if text.len() > MAX_FIELD_BYTES {
        big.set(Some(Rc::new(text)));
    } else {
        big.set(None);
        setter.set(Field::Matrix.key(), text);
    }
}

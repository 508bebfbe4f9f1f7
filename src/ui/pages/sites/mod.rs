//! The "Broadcast across sites" page (`sites.html`, seed 002): logical clusters of a latency
//! matrix with the reordered heat map, and the grid broadcast ([`grid`]'s sections), rendered
//! from `model::sites::page`'s stages: the matrix read and clustered apart from the broadcast's
//! fields. Each section whose input has an error keeps its last good result, marked stale. It
//! shares the communication page's helpers (`ui::pages::comm`: [`Ctx`], [`View`], the tables).

use std::rc::Rc;

use yew::prelude::*;

use super::comm::{fields_of, keep, Ctx, View};
use crate::model::calculators;
use crate::model::sites::page::{self as page, Field, PAGE};
use crate::model::workspace::{PageField, PageInputs, MAX_FIELD_BYTES};
use crate::ui::components::share_panel::SharePanel;
use crate::ui::store::{text, use_page, Page, PageSetup, Setter};

/// This page in the store.
const STORE_PAGE: Page = Page { calculator: &calculators::SITES, defaults: page::default_inputs };

mod grid;

/// The "Broadcast across sites" page (`sites.html`): the latency matrix, its logical clusters
/// with the reordered heat map, and the grid broadcast.
#[component(Sites)]
pub fn sites() -> Html {
    let PageSetup { inputs, setter, .. } = use_page(STORE_PAGE);
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
    // The texts of every other field (the stages read the matrix apart).
    let rest = fields_of(&inputs, |f: Field| f != Field::Matrix);
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
                   (Nasri et al., Grid'5000). Point-to-point models and broadcasts inside one network: " }
                <a href="comm.html">{ "Communication & broadcast" }</a>{ "." }
            </p>
            if !b.warnings.is_empty() {
                <ul class="warnings" id="warnings">{ for b.warnings.iter().map(|w| html! { <li>{ w.to_string() }</li> }) }</ul>
            }
            <grid::Clusters ctx={ctx.clone()} current={b.clone()} shown={clusters_shown} big={big_matrix.clone()} />
            <div class="form-row">{ ctx.field(Field::LatencyShare, "share of a small message that is wire latency L", Some("0 to 1")) }</div>
            <grid::GridCast ctx={ctx} shown={grid_shown} />
            <SharePanel page={PAGE} />
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

/// A stage of the page compared by identity: a memo makes a new one only when its own
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

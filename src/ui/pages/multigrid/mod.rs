//! The multi-cluster planner page (seed 000). It reads its input texts from the store,
//! calls `model::multigrid::page::view`, and renders what comes back. A section whose
//! inputs have an error keeps showing its last good result, marked stale.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::model::calculators;
use crate::model::multigrid::page::{self as page, CalPart, Field, PageView, MAX_CALIBRATIONS, PAGE};
use crate::model::multigrid::Fit;
use crate::model::workspace::PageField;
use crate::model::InputError;
use crate::ui::components::share_panel::SharePanel;
use crate::ui::components::stale::{keep_optional, Shown};
use crate::ui::store::{text, use_page, Action, Page, PageSetup};

/// This page in the store.
const STORE_PAGE: Page = Page { calculator: &calculators::MULTIGRID, defaults: page::default_inputs };

mod calibration;
mod results;

/// A computed page shared between sections without copying; props compare it by identity
/// (a new evaluation is a new value), which keeps each keystroke's render cheap.
#[derive(Clone)]
pub struct ViewRef(pub Rc<PageView>);

impl PartialEq for ViewRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Last good evaluation per section, to show (marked stale) while an input has an error.
#[derive(Default)]
pub struct LastGood {
    /// The last good fit of each calibration, by index − 1.
    pub fits: Vec<Option<Fit>>,
    pub target: Option<ViewRef>,
    pub split: Option<ViewRef>,
    pub planner: Option<ViewRef>,
}

/// What a section with a result of its own shows: the current evaluation when the result is
/// good, the last good one (stale) when the result or an input it depends on is broken, and
/// nothing when there is no result and nothing is wrong (e.g. no second cluster chosen).
fn section<T, E>(
    slot: &mut Option<ViewRef>,
    current: &ViewRef,
    result: &Option<Result<T, E>>,
    broken: bool,
) -> Shown<Option<ViewRef>> {
    let broken = broken || matches!(result, Some(Err(_)));
    let good = !broken && result.is_some();
    keep_optional(slot, good.then(|| current.clone()), broken)
}

/// The errors of a section's result.
fn errors_of<T>(result: &Option<Result<T, Vec<InputError>>>) -> Vec<InputError> {
    match result {
        Some(Err(e)) => e.clone(),
        _ => Vec::new(),
    }
}

#[component(Multigrid)]
pub fn multigrid() -> Html {
    let PageSetup { store, inputs, setter } = use_page(STORE_PAGE);
    let catalog = Rc::new(store.ws.catalog.clone());
    let view: Rc<PageView> = use_memo((inputs.clone(), catalog.clone()), |(i, c)| page::view(i, c));
    let presets = use_memo((), |_| page::presets());
    let last: Rc<RefCell<LastGood>> = use_mut_ref(LastGood::default);

    let cal_broken = view.calibrations.iter().any(|c| c.fit.is_none());
    let field_broken = |fields: &[Field]| fields.iter().any(|f| view.field_errors.contains_key(f.key()));
    let problem_broken = field_broken(&[Field::GridN, Field::BytesPerPoint]);

    let mut lg = last.borrow_mut();
    lg.fits.resize(view.calibrations.len(), None);
    // Each calibration's current fit, or its last good one (stale).
    let fits: Vec<Shown<Option<Fit>>> = view
        .calibrations
        .iter()
        .zip(lg.fits.iter_mut())
        .map(|(c, slot)| keep_optional(slot, c.fit.clone(), c.fit.is_none()))
        .collect();
    let current = ViewRef(view.clone());
    let target_broken = cal_broken || problem_broken || field_broken(&[Field::Np]);
    let target = keep_optional(&mut lg.target, (!target_broken).then(|| current.clone()), target_broken);
    let split_broken =
        cal_broken || problem_broken || field_broken(&[Field::NpA, Field::NpB, Field::PpnA, Field::PpnB]);
    let split = section(&mut lg.split, &current, &view.split, split_broken);
    let planner_broken =
        cal_broken || problem_broken || field_broken(&[Field::FreeA, Field::FreeB, Field::PpnA, Field::PpnB]);
    let planner = section(&mut lg.planner, &current, &view.planner, planner_broken);
    drop(lg);
    // The chart of T against np shows each calibration's current fit, or its last good one.
    let chart_fits: Vec<(String, Fit)> = view
        .calibrations
        .iter()
        .zip(&fits)
        .filter_map(|(c, shown)| {
            let fit = shown.value.clone()?;
            let name = catalog.cluster(&c.cluster_id).map(|cl| cl.name.clone()).unwrap_or_default();
            Some((format!("{name}, {}", c.fabric), fit))
        })
        .collect();

    let preset_buttons = presets.iter().map(|p| {
        let store = store.clone();
        let (inputs, label) = (p.inputs.clone(), format!("Loaded the preset {}", p.name));
        let onclick = Callback::from(move |_| {
            store.dispatch(Action::SetPage { page: STORE_PAGE, inputs: inputs.clone(), label: label.clone() })
        });
        html! { <button class="secondary" title={p.description} {onclick}>{ format!("Load: {}", p.name) }</button> }
    });
    let add = {
        let setter = setter.clone();
        let count = view.calibrations.len();
        let first_cluster = catalog
            .clusters
            .first()
            .map(|c| (c.id.clone(), c.fabrics.first().map(|f| f.name.clone()).unwrap_or_default()));
        Callback::from(move |_| {
            let Some((cid, fab)) = first_cluster.clone() else { return };
            setter.edit(page::add_calibration(count, &cid, &fab))
        })
    };

    html! {
        <section class="multigrid">
            <h1>{ "Multi-cluster planner" }</h1>
            <p class="lead">
                { "Paste a few runs on one processor and on 4 and 8 processes for each cluster and switching fabric; \
                   see predicted run time and cost for large jobs on one cluster or split over two. \
                   Method: T = Tcomp + α(np) + γ·work, α(np) = c + d·log2 np (the White Rose Grid paper)." }
            </p>
            <div class="toolbar">{ for preset_buttons }</div>

            <h2>{ "Calibration runs" }</h2>
            <p class="hint">
                { "One calibration per cluster and fabric. Sequential runs at two per-process sizes (work = memory one \
                   process needs, MB); parallel runs on at least two process counts at the same sizes. \
                   Include at least one slower node in calibration runs on a mixed cluster, and run sequential copies \
                   together on one full node, so memory contention is measured (the paper's advice)." }
            </p>
            { for view.calibrations.iter().zip(fits).map(|(c, fit)| html! {
                <calibration::CalibrationCard
                    view={c.clone()}
                    seq={text(&inputs, Field::Cal(c.index, CalPart::Sequential).key())}
                    par={text(&inputs, Field::Cal(c.index, CalPart::Parallel).key())}
                    {fit}
                    catalog={catalog.clone()}
                    setter={setter.clone()}
                    count={view.calibrations.len()} />
            }) }
            if view.calibrations.len() < MAX_CALIBRATIONS {
                <button id="add-calibration" class="secondary" onclick={add}>{ "Add a calibration" }</button>
            }

            <results::Results
                view={current}
                inputs={inputs.clone()}
                setter={setter.clone()}
                catalog={catalog.clone()}
                {target}
                {split} split_errors={errors_of(&view.split)}
                {planner} planner_errors={errors_of(&view.planner)}
                fits={Rc::new(chart_fits)} />

            <SharePanel page={PAGE} />
        </section>
    }
}

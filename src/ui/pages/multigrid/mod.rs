//! The multi-cluster planner page (seed 000). It reads its input texts from the store,
//! calls `model::multigrid_page::evaluate`, and renders what comes back. A section whose
//! inputs have an error keeps showing its last good result, marked stale.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

use crate::model::multigrid::{Fit, Outcome, PlannerReport};
use crate::model::multigrid_page::{self as page, PageView, TargetRow, MAX_CALIBRATIONS, PAGE};
use crate::model::multigrid_presets::PRESETS;
use crate::model::workspace::PageInputs;
use crate::model::InputError;
use crate::ui::components::share_panel::SharePanel;
use crate::ui::store::{use_store, Action};

mod calibration;
mod results;

/// Sets one input; the first edit of an untouched page stores the defaults with it.
#[derive(Clone, PartialEq)]
pub struct Setter {
    inputs: Rc<PageInputs>,
    dispatch: Callback<PageInputs>,
}

impl Setter {
    pub fn get(&self, key: &str) -> String {
        self.inputs.get(key).cloned().unwrap_or_default()
    }
    pub fn set(&self, key: &str, value: String) {
        let mut m = (*self.inputs).clone();
        m.insert(key.to_string(), value);
        self.dispatch.emit(m);
    }
    pub fn update(&self, f: impl FnOnce(&mut PageInputs)) {
        let mut m = (*self.inputs).clone();
        f(&mut m);
        self.dispatch.emit(m);
    }
    /// A callback that sets `key` to whatever text it is given.
    pub fn on(&self, key: &str) -> Callback<String> {
        let this = self.clone();
        let key = key.to_string();
        Callback::from(move |v: String| this.set(&key, v))
    }
}

/// Last good results per section, to show (marked stale) while an input has an error.
#[derive(Default)]
pub struct LastGood {
    pub fits: BTreeMap<usize, Fit>,
    pub target: Option<Vec<TargetRow>>,
    pub split: Option<Outcome>,
    pub planner: Option<PlannerReport>,
}

/// What a section shows: the current result, or the last good one marked stale.
pub struct Shown<T> {
    pub value: Option<T>,
    pub stale: bool,
}

fn remember<T: Clone>(slot: &mut Option<T>, current: Option<T>) -> Shown<T> {
    match current {
        Some(v) => {
            *slot = Some(v.clone());
            Shown { value: Some(v), stale: false }
        }
        None => Shown { value: slot.clone(), stale: slot.is_some() },
    }
}

#[component(Multigrid)]
pub fn multigrid() -> Html {
    let store = use_store();
    let inputs = Rc::new(store.ws.pages.get(PAGE).filter(|m| !m.is_empty()).cloned().unwrap_or_else(page::default_inputs));
    let catalog = Rc::new(store.ws.catalog.clone());
    let view: Rc<PageView> = use_memo((inputs.clone(), catalog.clone()), |(i, c)| page::evaluate(i, c));
    let last: Rc<RefCell<LastGood>> = use_mut_ref(LastGood::default);

    let setter = Setter {
        inputs: inputs.clone(),
        dispatch: {
            let store = store.clone();
            Callback::from(move |m: PageInputs| store.dispatch(Action::SetPage { page: PAGE, inputs: m }))
        },
    };

    let cal_broken = view.calibrations.iter().any(|c| c.fit.is_none());
    let field_broken = |keys: &[&str]| keys.iter().any(|k| view.field_errors.contains_key(*k));
    let problem_broken = field_broken(&["grid_n", "bytes_per_point"]);

    let mut lg = last.borrow_mut();
    for c in &view.calibrations {
        if let Some(f) = &c.fit {
            lg.fits.insert(c.index, f.clone());
        }
    }
    let target_ok = !(cal_broken || problem_broken || field_broken(&["np"]));
    let target = remember(&mut lg.target, target_ok.then(|| view.target.clone()));
    let split_now = match &view.split {
        Some(Ok(o)) if !(cal_broken || problem_broken || field_broken(&["np_a", "np_b", "ppn_a", "ppn_b"])) => Some(o.clone()),
        _ => None,
    };
    let split_errors: Vec<InputError> = match &view.split {
        Some(Err(e)) => e.clone(),
        _ => Vec::new(),
    };
    let split = remember(&mut lg.split, split_now);
    let planner_now = match &view.planner {
        Some(Ok(r)) if !(cal_broken || problem_broken || field_broken(&["free_a", "free_b", "ppn_a", "ppn_b"])) => Some(r.clone()),
        _ => None,
    };
    let planner_errors: Vec<InputError> = match &view.planner {
        Some(Err(e)) => e.clone(),
        _ => Vec::new(),
    };
    let planner = remember(&mut lg.planner, planner_now);
    let stale_fits = lg.fits.clone();
    drop(lg);

    let presets = PRESETS.iter().map(|p| {
        let store = store.clone();
        let onclick = Callback::from(move |_| store.dispatch(Action::SetPage { page: PAGE, inputs: page::preset_inputs(p) }));
        html! { <button class="secondary" title={p.description} {onclick}>{ format!("Load: {}", p.name) }</button> }
    });
    let add = {
        let setter = setter.clone();
        let count = view.calibrations.len();
        let first_cluster = catalog.clusters.first().map(|c| (c.id.clone(), c.fabrics.first().map(|f| f.name.clone()).unwrap_or_default()));
        Callback::from(move |_| {
            let Some((cid, fab)) = first_cluster.clone() else { return };
            setter.update(|m| {
                let i = count + 1;
                m.insert("cal_count".into(), i.to_string());
                m.insert(format!("cal{i}_cluster"), cid);
                m.insert(format!("cal{i}_fabric"), fab);
                m.insert(format!("cal{i}_seq"), "work (MB)\ttime (s)\n".into());
                m.insert(format!("cal{i}_par"), "np\twork (MB)\ttime (s)\n".into());
            })
        })
    };

    html! {
        <section class="multigrid">
            <h1>{ "Multi-cluster planner" }</h1>
            <p class="lead">
                { "Paste a few runs on one processor and on 4 and 8 processes for each cluster and switching fabric; \
                   see predicted run time and cost for large jobs on one cluster or split over two. \
                   Method: T = Tcomp + α(np) + γ·work, α(np) = c + d·log2 np (seed 000)." }
            </p>
            <div class="toolbar">{ for presets }</div>

            <h2>{ "Calibration runs" }</h2>
            <p class="hint">
                { "One calibration per cluster and fabric. Sequential runs at two per-process sizes (work = memory one \
                   process needs, MB); parallel runs on at least two process counts at the same sizes. \
                   Include at least one slower node in calibration runs on a mixed cluster, and run sequential copies \
                   together on one full node, so memory contention is measured (the paper's advice)." }
            </p>
            { for view.calibrations.iter().map(|c| html! {
                <calibration::CalibrationCard
                    view={c.clone()}
                    stale_fit={stale_fits.get(&c.index).cloned()}
                    catalog={catalog.clone()}
                    setter={setter.clone()}
                    removable={view.calibrations.len() > 1} />
            }) }
            if view.calibrations.len() < MAX_CALIBRATIONS {
                <button id="add-calibration" class="secondary" onclick={add}>{ "Add a calibration" }</button>
            }

            <results::Results
                view={view.clone()}
                setter={setter.clone()}
                catalog={catalog.clone()}
                target={target.value.clone()} target_stale={target.stale}
                split={split.value.clone()} split_stale={split.stale} split_errors={split_errors}
                planner={planner.value.map(Rc::new)} planner_stale={planner.stale} planner_errors={planner_errors} />

            <SharePanel page={PAGE} />
        </section>
    }
}

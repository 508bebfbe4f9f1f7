//! The multi-cluster planner page (seed 000). It reads its input texts from the store,
//! calls `model::multigrid::page::evaluate`, and renders what comes back. A section whose
//! inputs have an error keeps showing its last good result, marked stale.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

use crate::model::multigrid::Fit;
use crate::model::multigrid::page::{self as page, PageView, MAX_CALIBRATIONS, PAGE};
use crate::model::multigrid::presets::PRESETS;
use crate::model::InputError;
use crate::ui::components::share_panel::SharePanel;
use crate::ui::store::{text, use_store, Action, Setter};

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
    pub fits: BTreeMap<usize, Fit>,
    pub target: Option<ViewRef>,
    pub split: Option<ViewRef>,
    pub planner: Option<ViewRef>,
}

/// What a section shows: the evaluation it comes from (current or last good), and whether
/// that is stale.
pub struct Shown {
    pub view: Option<ViewRef>,
    pub stale: bool,
}

/// How a section's inputs stand in the current evaluation.
#[derive(Clone, Copy, PartialEq)]
enum Section {
    /// It has a result.
    Good,
    /// Nothing to show, and nothing wrong (e.g. no second cluster chosen).
    Absent,
    /// An input it depends on has an error.
    Broken,
}

fn remember(slot: &mut Option<ViewRef>, current: &ViewRef, section: Section) -> Shown {
    match section {
        Section::Good => {
            *slot = Some(current.clone());
            Shown { view: Some(current.clone()), stale: false }
        }
        Section::Absent => {
            *slot = None;
            Shown { view: None, stale: false }
        }
        Section::Broken => Shown { view: slot.clone(), stale: slot.is_some() },
    }
}

/// How a section stands, from its result and whether an input it depends on is broken.
fn section<T, E>(result: &Option<Result<T, E>>, broken: bool) -> Section {
    match result {
        _ if broken => Section::Broken,
        Some(Ok(_)) => Section::Good,
        Some(Err(_)) => Section::Broken,
        None => Section::Absent,
    }
}

#[component(Multigrid)]
pub fn multigrid() -> Html {
    let store = use_store();
    let inputs = Rc::new(store.inputs_or(PAGE, page::default_inputs));
    let catalog = Rc::new(store.ws.catalog.clone());
    let view: Rc<PageView> = use_memo((inputs.clone(), catalog.clone()), |(i, c)| page::evaluate(i, c));
    let last: Rc<RefCell<LastGood>> = use_mut_ref(LastGood::default);

    let setter = Setter::new(store.dispatcher(), PAGE, page::default_inputs);

    let cal_broken = view.calibrations.iter().any(|c| c.fit.is_none());
    let field_broken = |keys: &[&str]| keys.iter().any(|k| view.field_errors.contains_key(*k));
    let problem_broken = field_broken(&["grid_n", "bytes_per_point"]);

    let mut lg = last.borrow_mut();
    lg.fits.retain(|i, _| *i <= view.calibrations.len());
    for c in &view.calibrations {
        if let Some(f) = &c.fit {
            lg.fits.insert(c.index, f.clone());
        }
    }
    let current = ViewRef(view.clone());
    let target_broken = cal_broken || problem_broken || field_broken(&["np"]);
    let target = remember(&mut lg.target, &current, if target_broken { Section::Broken } else { Section::Good });
    let split_broken = cal_broken || problem_broken || field_broken(&["np_a", "np_b", "ppn_a", "ppn_b"]);
    let split = remember(&mut lg.split, &current, section(&view.split, split_broken));
    let split_errors: Vec<InputError> = match &view.split {
        Some(Err(e)) => e.clone(),
        _ => Vec::new(),
    };
    let planner_broken = cal_broken || problem_broken || field_broken(&["free_a", "free_b", "ppn_a", "ppn_b"]);
    let planner = remember(&mut lg.planner, &current, section(&view.planner, planner_broken));
    let planner_errors: Vec<InputError> = match &view.planner {
        Some(Err(e)) => e.clone(),
        _ => Vec::new(),
    };
    let stale_fits = lg.fits.clone();
    // The chart of T against np shows each calibration's current fit, or its last good one.
    let chart_fits: Vec<(String, Fit)> = view
        .calibrations
        .iter()
        .filter_map(|c| {
            let fit = c.fit.clone().or_else(|| stale_fits.get(&c.index).cloned())?;
            let name = catalog.cluster(&c.cluster_id).map(|cl| cl.name.clone()).unwrap_or_default();
            Some((format!("{name}, {}", c.fabric), fit))
        })
        .collect();
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
            setter.update(move |m| {
                let i = count + 1;
                m.insert("cal_count".into(), i.to_string());
                m.insert(format!("cal{i}_cluster"), cid.clone());
                m.insert(format!("cal{i}_fabric"), fab.clone());
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
                    seq={text(&inputs, &format!("cal{}_seq", c.index))}
                    par={text(&inputs, &format!("cal{}_par", c.index))}
                    stale_fit={stale_fits.get(&c.index).cloned()}
                    catalog={catalog.clone()}
                    setter={setter.clone()}
                    removable={view.calibrations.len() > 1} />
            }) }
            if view.calibrations.len() < MAX_CALIBRATIONS {
                <button id="add-calibration" class="secondary" onclick={add}>{ "Add a calibration" }</button>
            }

            <results::Results
                view={current}
                inputs={inputs.clone()}
                setter={setter.clone()}
                catalog={catalog.clone()}
                target={target.view} target_stale={target.stale}
                split={split.view} split_stale={split.stale} split_errors={split_errors}
                planner={planner.view} planner_stale={planner.stale} planner_errors={planner_errors}
                fits={Rc::new(chart_fits)} />

            <SharePanel page={PAGE} />
        </section>
    }
}

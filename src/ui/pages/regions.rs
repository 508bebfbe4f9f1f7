//! The two-regions page (seed 003). It reads its input texts from the store, calls
//! `model::regions::page::view`, and renders what comes back. While an input the curves
//! need has an error, it keeps showing the last good result, marked stale.

use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::charts::regions::{speedup_vs_n, sweep_n_star, sweep_speedup};
use crate::model::calculators;
use crate::model::fmt_num;
use crate::model::regions::page::{self as page, curves_csv, link_systems, sweep_csv, Case, Field, PageView, PAGE};
use crate::model::workspace::{PageField, PageInputs};
use crate::ui::components::chart::{drawing, Chart};
use crate::ui::components::number_field::{field_set_select, page_check, page_field, page_select};
use crate::ui::components::share_panel::SharePanel;
use crate::ui::components::stale::{keep_own, stale_note, Shown};
use crate::ui::components::table_csv::csv_button as table_csv;
use crate::ui::components::workspace_file::download;
use crate::ui::store::{use_page, Page, PageSetup, Setter};

/// This page in the store.
const STORE_PAGE: Page = Page { calculator: &calculators::REGIONS, defaults: page::default_inputs };

/// Positions of the bandwidth slider (log scale between the sweep's ends).
const SLIDER_STEPS: f64 = 1000.0;

fn field(
    inputs: &PageInputs,
    view: &PageView,
    setter: &Setter,
    field: Field,
    label: &'static str,
    unit: Option<&'static str>,
) -> Html {
    page_field(inputs, setter, field.key(), label, unit, view.errors.get(field.key()).map(|e| e.local_text()))
}

fn n(x: f64) -> String {
    fmt_num(x, 4)
}

fn csv_button(id: &'static str, label: &'static str, file: &'static str, csv: impl Fn() -> String + 'static) -> Html {
    let onclick = Callback::from(move |_| {
        let _ = download(file, "text/csv", &csv());
    });
    html! { <button {id} class="secondary small" {onclick}>{ label }</button> }
}

fn case_row(c: &Case) -> Html {
    let upper = c.n_half.two_regions_upper.map(|u| format!(" … {}", n(u))).unwrap_or_default();
    let last = c.curve.last();
    html! {
        <tr>
            <td>{ c.label.clone() }</td>
            <td class="num">{ n(c.model.balance().x_prime) }</td>
            <td class="num">{ n(c.model.balance().z_prime) }</td>
            <td class="num">{ last.map(|p| n(p.one_region)).unwrap_or_default() }</td>
            <td class="num">{ last.map(|p| n(p.two_regions)).unwrap_or_default() }</td>
            <td class="num"><b>{ c.optimum.n_star().map(n).unwrap_or_else(|| "none".into()) }</b></td>
            <td class="num"><b>{ c.optimum.sp2_max().map(n).unwrap_or_else(|| "—".into()) }</b></td>
            <td class="num">{ n(c.n_half.one_region) }</td>
            <td class="num">{ format!("{}{upper}", n(c.n_half.two_regions)) }</td>
        </tr>
    }
}

fn verdict(k: usize, c: &Case) -> Html {
    let (class, body) = match &c.verdict {
        Some(Ok(v)) => (if v.met_now { "verdict met" } else { "verdict unmet" }, v.text.clone()),
        Some(Err(e)) => ("verdict", e.to_string()),
        None => ("verdict", "Fix the inputs above to see the required bandwidth.".to_string()),
    };
    html! { <li id={format!("verdict-{k}")} class={class}><b>{ format!("{}: ", c.label) }</b>{ body }</li> }
}

/// The bandwidth slider: its ends, its position, and what moving it writes.
struct Slider {
    lo: f64,
    hi: f64,
    pos: f64,
    on_slide: Callback<InputEvent>,
}

/// The slider on a log scale between the shown sweep's ends (or 0.1–100 GB/s), at the
/// bandwidth typed; moving it writes the bandwidth field.
fn slider(shown: &PageView, view: &PageView, setter: &Setter) -> Slider {
    let (lo, hi) = match shown.cases.first().map(|c| &c.sweep) {
        Some(s) if s.len() > 1 => (s[0].bandwidth_gb_s, s[s.len() - 1].bandwidth_gb_s),
        _ => (0.1, 100.0),
    };
    let pos =
        view.bandwidth_gb_s.map_or(0.0, |b| (SLIDER_STEPS * (b / lo).ln() / (hi / lo).ln()).clamp(0.0, SLIDER_STEPS));
    let setter = setter.clone();
    let on_slide = Callback::from(move |e: InputEvent| {
        let el: HtmlInputElement = e.target_unchecked_into();
        let Ok(p) = el.value().parse::<f64>() else { return };
        let b = lo * (hi / lo).powf(p / SLIDER_STEPS);
        setter.set(Field::RegionBw.key(), fmt_num(b, 3));
    });
    Slider { lo, hi, pos, on_slide }
}

#[component(Regions)]
pub fn regions() -> Html {
    let PageSetup { store, inputs, setter } = use_page(STORE_PAGE);
    // The view does not depend on the catalog: it is computed again only when the inputs change.
    let ws = store.ws.clone();
    let view: Rc<PageView> = use_memo(inputs.clone(), move |i| page::view(i, &ws.catalog));
    let last = use_mut_ref(|| None::<Rc<PageView>>);

    // What the results show: the current evaluation, or the last good one (stale).
    // (Not the page's example: an error in the user's first input shows no example answer.)
    let example =
        use_memo(inputs.clone(), |i| <page::RegionsPage as crate::model::calculators::Contract>::is_example(i));
    let Shown { value: shown, stale } = keep_own(&mut last.borrow_mut(), view.clone(), view.broken(), *example);
    let charts = use_memo(shown.clone(), |v| {
        (
            Rc::new(speedup_vs_n(v, false)),
            Rc::new(speedup_vs_n(v, true)),
            Rc::new(sweep_speedup(v)),
            Rc::new(sweep_n_star(v)),
        )
    });
    let application = !page::is_balance_form(&inputs);
    let f =
        |key: Field, label: &'static str, unit: Option<&'static str>| field(&inputs, &view, &setter, key, label, unit);

    // The system buttons set the system's fields only, keeping the application.
    let presets = page::system_presets().into_iter().map(|p| {
        let setter = setter.clone();
        let label = format!("System: {}", p.label);
        let done = format!("Loaded the system {}", p.label);
        let onclick = Callback::from(move |_| setter.fill(done.clone(), p.fields.clone()));
        html! { <button class="secondary" {onclick}>{ label }</button> }
    });
    let links = Rc::new(link_systems(&store.ws.catalog));

    let Slider { lo, hi, pos, on_slide } = slider(&shown, &view, &setter);
    let (c1, c1ov, c2, c3) = (*charts).clone();
    let sweep_view = shown.clone();
    let sweep_range = match shown.cases.first().map(|c| &c.sweep) {
        Some(s) if s.len() > 1 => format!(
            "{} bandwidths from {} to {} GB/s, on a log scale.",
            s.len(),
            fmt_num(s[0].bandwidth_gb_s, 4),
            fmt_num(s[s.len() - 1].bandwidth_gb_s, 4)
        ),
        _ => String::new(),
    };
    // The current bandwidth, marked over the sweep charts.
    let marker = view.bandwidth_gb_s.map(|b| (b, AttrValue::from(format!("B_E = {} GB/s", fmt_num(b, 3)))));
    let curve_view = shown.clone();

    html! {
        <section class="regions">
            <h1>{ "Two regions" }</h1>
            <p class="lead">
                { "Can one parallel job span two computing centres joined by a long link, what bandwidth between them \
                   makes it worthwhile, and how large should a region be? Roofline-type model of Kredel et al. 2012 \
                   (bwGRiD Mannheim–Heidelberg): Sp(n) = (1 + x'z)/(1 + x'z/n) for one region of n cores; \
                   Sp2(n) = (2 + (1 + X)z')/(2p(n) + (1 + X/n)z') for two regions of n cores each, p(n) = α·n." }
            </p>
            <div class="toolbar">
                { for presets }
                { field_set_select("from-link", "System from a Clusters link…", links, &setter) }
            </div>

            <h2>{ "Application" }</h2>
            <div class="form-row">
                { page_select(&inputs, &setter, Field::Form.key(), "described by", &[("application", "counts #op, #b, #x as formulas of N"), ("balance", "balance factors x', z, z'")]) }
            </div>
            if application {
                <div class="form-row">
                    { f(Field::Ops, "#op, operations", Some("flop")) }
                    { f(Field::Bytes, "#b, bytes moved inside a region", Some("B")) }
                    { f(Field::Exchanged, "#x, bytes exchanged between regions", Some("B")) }
                    { f(Field::Sizes, "problem sizes N (one curve each)", None) }
                </div>
            } else {
                <div class="form-row">
                    { f(Field::XPrime, "x' (one curve each)", None) }
                    { f(Field::Z, "z = b_l/b0_l", None) }
                    { f(Field::ZPrime, "z'", None) }
                    { f(Field::ZpBw, "B_E at which z' holds", Some("GB/s")) }
                </div>
            }

            <h2>{ "System" }</h2>
            <div class="form-row">
                if application {
                    { f(Field::Peak, "peak of one core l_th", Some("GFlop/s")) }
                    { f(Field::NodeBw, "bandwidth between nodes b_l", Some("GB/s")) }
                    { f(Field::RefBw, "reference bandwidth b0_l", Some("GB/s")) }
                }
                { f(Field::Alpha, "load factor α, p(n) = α·n", None) }
            </div>
            <div class="form-row bandwidth">
                { f(Field::RegionBw, "bandwidth between the regions B_E", Some("GB/s")) }
                <div class="field slider">
                    <label for="bw-slider">{ format!("drag: {}–{} GB/s, log scale", fmt_num(lo, 3), fmt_num(hi, 3)) }</label>
                    <input id="bw-slider" type="range" min="0" max={SLIDER_STEPS.to_string()} step="1"
                        value={format!("{pos:.0}")} oninput={on_slide} />
                </div>
            </div>
            if !view.warnings.is_empty() {
                <ul class="warnings" id="warnings">{ for view.warnings.iter().map(|w| html! { <li>{ format!("{}: {}", w.field, w.message) }</li> }) }</ul>
            }

            <h2>{ "Speed-up, one region and two" }</h2>
            <div class="form-row">
                { f(Field::NMax, "curves up to n cores per region", None) }
                { page_select(&inputs, &setter, Field::TwoRegionX.key(), "two-region balance X", &[("scaled", "x'·z (Sp2 → Sp as B_E → ∞)"), ("slides", "x' (the slides' formula as printed)")]) }
                { page_check(&inputs, &setter, Field::Overlap.key(), " also overlapping (t = max)") }
            </div>
            if let Some(e) = view.errors.get(Field::TwoRegionX.key()) { <div class="field-error">{ e.local_text() }</div> }
            { stale_note(stale, "Stale: an input above has an error; this is the last good result.") }
            <table id="cases" class="results">
                <thead><tr><th>{ "case" }</th><th class="num">{ "x'" }</th><th class="num">{ "z' now" }</th>
                    <th class="num">{ "Sp(n max)" }</th><th class="num">{ "Sp2(n max)" }</th><th class="num">{ "n*" }</th>
                    <th class="num">{ "Sp2_max" }</th><th class="num">{ "n½, one region" }</th><th class="num">{ "n½, two regions" }</th></tr></thead>
                <tbody>{ for shown.cases.iter().map(case_row) }</tbody>
            </table>
            { table_csv("regions-cases.csv") }
            <p class="hint">{ "n* maximises Sp2 (α = 0: no optimum, Sp2 rises toward its limit). n½: the region size at half \
                the largest speed-up, a lower bound on a useful region; for two regions, up to where Sp2 falls back to half." }</p>
            { for shown.cases.iter().filter(|c| c.optimum.n_star().is_none()).take(1).map(|c| html! { <p class="hint">{ c.optimum.text() }</p> }) }
            <div class="grid-2">
                <Chart id="chart-speedup" chart={drawing(c1)} />
                if view.overlap { <Chart id="chart-speedup-overlapping" chart={drawing(c1ov)} /> }
            </div>
            { csv_button("csv-curves", "Curves as CSV", "regions-curves.csv", move || curves_csv(&curve_view)) }

            <h2>{ "Required bandwidth" }</h2>
            <div class="form-row">
                { f(Field::ReqN, "cores per region n", None) }
                { f(Field::ReqFraction, "of the one-region speed-up", Some("%")) }
                { f(Field::PlannedMin, "planned link from", Some("GB/s")) }
                { f(Field::PlannedMax, "to", Some("GB/s")) }
            </div>
            <ul id="verdicts" class="verdicts">{ for shown.cases.iter().enumerate().map(|(k, c)| verdict(k, c)) }</ul>

            <h2>{ "Bandwidth sweep" }</h2>
            <div class="form-row">
                { f(Field::SweepMin, "from", Some("GB/s")) }
                { f(Field::SweepMax, "to", Some("GB/s")) }
                { f(Field::SweepPoints, "bandwidths", None) }
            </div>
            <div class="grid-2">
                <Chart id="chart-sweep" chart={drawing(c2)} marker={marker.clone()} />
                <Chart id="chart-nstar" chart={drawing(c3)} {marker} />
            </div>
            <p class="hint" id="csv-sweep-range">{ sweep_range }</p>
            { csv_button("csv-sweep", "Sweep as CSV", "regions-sweep.csv", move || sweep_csv(&sweep_view)) }

            <SharePanel page={PAGE} />
        </section>
    }
}

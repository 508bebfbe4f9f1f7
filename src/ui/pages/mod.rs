//! One page per route. Each calculator page reads its input texts from the store, parses
//! them through the model, and shows results and charts.

use yew::prelude::*;

use super::route::Route;
use crate::model::calculators::Calculator;

mod calibration;
mod clusters;
pub(super) mod comm;
mod home;
pub(super) mod multigrid;
pub(super) mod regions;
pub(super) mod simulate;
mod simulate_timeline;
pub(super) mod speedup;
mod allocation;
pub(super) mod bottlenecks;

/// The pages of `index.html`.
pub fn index(route: Route) -> Html {
    match route {
        Route::Home => html! { <home::Home /> },
        Route::Clusters => html! { <clusters::Clusters /> },
        _ => not_found(),
    }
}

/// The page of a calculator's entry: `page` on its route, "not found" elsewhere.
pub(super) fn only(route: Route, calc: &Calculator, page: impl FnOnce() -> Html) -> Html {
    match route {
        Route::Calculator(c) if c.key == calc.key => page(),
        _ => not_found(),
    }
}

fn not_found() -> Html {
    html! {
        <section>
            <h1>{ "Page not found" }</h1>
            <p>{ "This address names no page of scalewise. " }
               <super::route::Link to={Route::Home}>{ "Go to the home page." }</super::route::Link></p>
        </section>
    }
}

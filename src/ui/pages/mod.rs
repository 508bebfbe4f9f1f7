//! One page per route. Each calculator page reads its input texts from the store, parses
//! them through the model, and shows results and charts.

use yew::prelude::*;

use super::route::Route;
use crate::model::calculators::{self, Calculator};

mod calibration;
mod clusters;
mod comm;
mod home;
mod multigrid;
mod regions;
mod simulate;
mod simulate_timeline;
mod speedup;
mod allocation;
mod bottlenecks;

/// The pages of `index.html`.
pub fn index(route: Route) -> Html {
    match route {
        Route::Home => html! { <home::Home /> },
        Route::Clusters => html! { <clusters::Clusters /> },
        _ => not_found(),
    }
}

/// The page of a calculator's entry: `page` on its route, "not found" elsewhere.
fn only(route: Route, calc: &Calculator, page: impl FnOnce() -> Html) -> Html {
    match route {
        Route::Calculator(c) if c.key == calc.key => page(),
        _ => not_found(),
    }
}

pub fn multigrid(route: Route) -> Html {
    only(route, &calculators::MULTIGRID, || html! { <multigrid::Multigrid /> })
}

pub fn bottlenecks(route: Route) -> Html {
    only(route, &calculators::BOTTLENECKS, || html! { <bottlenecks::Bottlenecks /> })
}

pub fn regions(route: Route) -> Html {
    only(route, &calculators::REGIONS, || html! { <regions::Regions /> })
}

pub fn speedup(route: Route) -> Html {
    only(route, &calculators::SPEEDUP, || html! { <speedup::Speedup /> })
}

pub fn simulate(route: Route) -> Html {
    only(route, &calculators::SIMULATE, || html! { <simulate::Simulate /> })
}

pub fn comm(route: Route) -> Html {
    only(route, &calculators::COMM, || html! { <comm::Comm /> })
}

pub fn sites(route: Route) -> Html {
    only(route, &calculators::SITES, || html! { <comm::Sites /> })
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

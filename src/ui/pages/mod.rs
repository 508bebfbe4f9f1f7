//! One page per route. Each calculator page reads its input texts from the store, parses
//! them through the model, and shows results and charts.

use yew::prelude::*;

use super::route::Route;

mod clusters;
mod comm;
mod home;
mod multigrid;
mod regions;
mod simulate;
mod speedup;

/// The pages of `index.html`.
pub fn index(route: Route) -> Html {
    match route {
        Route::Home => html! { <home::Home /> },
        Route::Clusters => html! { <clusters::Clusters /> },
        _ => not_found(),
    }
}

/// The page of `multigrid.html`.
pub fn multigrid(route: Route) -> Html {
    match route {
        Route::Multigrid => html! { <multigrid::Multigrid /> },
        _ => not_found(),
    }
}

/// The page of `regions.html`.
pub fn regions(route: Route) -> Html {
    match route {
        Route::Regions => html! { <regions::Regions /> },
        _ => not_found(),
    }
}

/// The page of `speedup.html`.
pub fn speedup(route: Route) -> Html {
    match route {
        Route::Speedup => html! { <speedup::Speedup /> },
        _ => not_found(),
    }
}

/// The page of `simulate.html`.
pub fn simulate(route: Route) -> Html {
    match route {
        Route::Simulate => html! { <simulate::Simulate /> },
        _ => not_found(),
    }
}

/// The page of `comm.html`.
pub fn comm(route: Route) -> Html {
    match route {
        Route::Comm => html! { <comm::Comm /> },
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

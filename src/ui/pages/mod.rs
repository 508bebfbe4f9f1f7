//! One page per route. Each calculator page reads its input texts from the store, parses
//! them through the model, and shows results and charts.

use yew::prelude::*;

use super::route::Route;
use crate::model::calculators::{self, Calculator};

mod allocation;
mod bottlenecks;
mod bottlenecks_files;
mod calibration;
mod clusters;
mod comm;
mod home;
mod machines;
mod multigrid;
mod regions;
mod simulate;
mod simulate_timeline;
mod sites;
mod speedup;

/// The pages of `index.html`.
pub fn index(route: Route) -> Html {
    match route {
        Route::Home => html! { <home::Home /> },
        Route::Clusters => html! { <clusters::Clusters /> },
        _ => not_found(),
    }
}

/// Builds each calculator's render function (its row's name: `pages::MULTIGRID`, …) from the
/// table of calculators (`crate::calculator_table!`): its page on its route, "not found"
/// elsewhere.
macro_rules! renders {
    ($($row:ident $key:literal $title:literal $answers:literal $seed:literal [$($model:tt)*] [$($page:tt)*] [$($commands:tt)*])*) => {
        $(#[allow(non_snake_case)]
        pub fn $row(route: Route) -> Html {
            only(route, &calculators::$row, || html! { <$($page)* /> })
        })*
    };
}

crate::calculator_table!(renders);

/// The page of a calculator's entry: `page` on its route, "not found" elsewhere.
fn only(route: Route, calc: &Calculator, page: impl FnOnce() -> Html) -> Html {
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

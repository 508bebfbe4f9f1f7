//! One page per route. Each calculator page reads its input texts from the store, parses
//! them through the model, and shows results and charts.

use yew::prelude::*;

use super::route::Route;

mod clusters;
mod home;
mod multigrid;
mod planned;

pub fn switch(route: Route) -> Html {
    match route {
        Route::Home => html! { <home::Home /> },
        Route::Clusters => html! { <clusters::Clusters /> },
        Route::Multigrid => html! { <multigrid::Multigrid /> },
        Route::Speedup | Route::Regions | Route::Comm | Route::Simulate => {
            html! { <planned::Planned {route} /> }
        }
        Route::NotFound => html! {
            <section>
                <h1>{ "Page not found" }</h1>
                <p>{ "This address names no page of scalewise. " }
                   <super::route::Link to={Route::Home}>{ "Go to the home page." }</super::route::Link></p>
            </section>
        },
    }
}

//! The browser app: Yew function components, pages and the workspace store. Only built for
//! wasm32. Pages turn the text in their inputs into model types through `crate::model`,
//! and draw through `crate::charts`.

mod app;
pub mod bench;
pub mod bottlenecks_worker;
pub mod cluster_worker;
mod components;
mod compress;
mod pages;
pub mod route;
pub mod simulate_worker;
mod storage;
mod store;
mod url;
mod worker_main;
mod worker_pool;

use crate::model::calculators;
use route::Route;

/// One HTML entry of the site: its file, the route an empty fragment shows there, and the
/// pages it renders. Each entry's binary names one `Site`, so only its pages are linked in.
#[derive(Clone, Copy)]
pub struct Site {
    pub file: &'static str,
    pub home: Route,
    pub render: fn(Route) -> yew::Html,
}

/// `index.html`: the home page and the Clusters page.
pub const INDEX: Site = Site { file: "index.html", home: Route::Home, render: pages::index };

/// Builds each calculator's `Site` (its row's name: `ui::MULTIGRID`, …) from the table of
/// calculators (`crate::calculator_table!`), rendering with `pages::<ROW>`. Each is its own
/// constant, so an entry's binary links in its own page only.
macro_rules! sites {
    ($($row:ident $key:literal $title:literal $answers:literal $seed:literal [$($model:tt)*] [$($page:tt)*] [$($commands:tt)*])*) => {
        $(pub const $row: Site = Site {
            file: calculators::$row.file,
            home: Route::Calculator(&calculators::$row),
            render: pages::$row,
        };)*
    };
}

crate::calculator_table!(sites);

/// Mounts the app of one entry on the document body.
pub fn start(site: Site) {
    route::set_entry(site.file, site.home);
    yew::Renderer::<app::App>::with_props(app::AppProps { render: site.render }).render();
}

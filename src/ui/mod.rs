//! The browser app: Yew function components, pages and the workspace store. Only built for
//! wasm32. Pages turn the text in their inputs into model types through `crate::model`,
//! and draw through `crate::charts`.

mod app;
pub mod bench;
mod compress;
mod components;
mod pages;
pub mod route;
pub mod extrap_worker;
pub mod sim_worker;
mod storage;
mod store;
mod url;
mod worker_main;
mod worker_pool;

use crate::model::calculators::{self, Calculator};
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

/// The entry of one calculator, showing `render`'s page.
const fn calculator(c: &'static Calculator, render: fn(Route) -> yew::Html) -> Site {
    Site { file: c.file, home: Route::Calculator(c), render }
}

pub const MULTIGRID: Site = calculator(&calculators::MULTIGRID, pages::multigrid);
pub const SPEEDUP: Site = calculator(&calculators::SPEEDUP, pages::speedup);
pub const BOTTLENECKS: Site = calculator(&calculators::BOTTLENECKS, pages::bottlenecks);
pub const REGIONS: Site = calculator(&calculators::REGIONS, pages::regions);
pub const COMM: Site = calculator(&calculators::COMM, pages::comm);
pub const SITES: Site = calculator(&calculators::SITES, pages::sites);
/// Its runs happen in `sw-simulate-worker`.
pub const SIMULATE: Site = calculator(&calculators::SIMULATE, pages::simulate);

/// Mounts the app of one entry on the document body.
pub fn start(site: Site) {
    route::set_entry(site.file, site.home);
    yew::Renderer::<app::App>::with_props(app::AppProps { render: site.render }).render();
}

//! The browser app: Yew function components, pages and the workspace store. Only built for
//! wasm32. Pages turn the text in their inputs into model types through `crate::model`,
//! and draw through `crate::charts`.

mod app;
pub mod bench;
mod compress;
mod components;
mod pages;
pub mod route;
pub mod sim_worker;
mod storage;
mod store;
mod url;

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
/// `multigrid.html`: the multi-cluster planner.
pub const MULTIGRID: Site = Site { file: "multigrid.html", home: Route::Multigrid, render: pages::multigrid };
/// `regions.html`: two regions.
pub const REGIONS: Site = Site { file: "regions.html", home: Route::Regions, render: pages::regions };
/// `comm.html`: communication models, broadcasts, logical clusters and grid broadcast.
pub const COMM: Site = Site { file: "comm.html", home: Route::Comm, render: pages::comm };

/// `speedup.html`: the speed-up curve.
pub const SPEEDUP: Site = Site { file: "speedup.html", home: Route::Speedup, render: pages::speedup };

/// `simulate.html`: the virtual parallel machine (its runs in `sw-simulate-worker`).
pub const SIMULATE: Site = Site { file: "simulate.html", home: Route::Simulate, render: pages::simulate };

/// Mounts the app of one entry on the document body.
pub fn start(site: Site) {
    route::set_entry(site.file, site.home);
    yew::Renderer::<app::App>::with_props(app::AppProps { render: site.render }).render();
}

//! Routes, carried in the URL fragment (`#/multigrid`) so any static file server, under any
//! sub-path, serves every page. Each calculator (`model::calculators`) is its own HTML entry
//! with its own wasm (`multigrid.html`, `regions.html`, …), so a page loads only its own
//! calculator; the home page and the Clusters page live in `index.html`. A route opened in
//! the wrong entry (an old `index.html#/regions` link) is sent on to its own.

use std::cell::Cell;

use gloo::events::EventListener;
use yew::prelude::*;

use crate::model::calculators::{self, Calculator};

/// A page of the app. The route lives in the fragment, so any static server under any
/// sub-path serves every page from its entry, and links keep the query (`?embed=1`).
/// Hand-written rather than yew-router: a handful of fixed paths do not need a router
/// library (see ARCHITECTURE.md for what dropping it saved).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Home,
    Clusters,
    /// `#/key` of a calculator (`model::calculators`).
    Calculator(&'static Calculator),
    NotFound,
}

thread_local! {
    /// The HTML entry this wasm was loaded by, and the route of an empty fragment there.
    static ENTRY: Cell<(&'static str, Route)> = const { Cell::new(("index.html", Route::Home)) };
}

/// Says which entry is running (called once at start).
pub fn set_entry(file: &'static str, home: Route) {
    ENTRY.with(|e| e.set((file, home)));
}

/// The HTML entry this wasm runs in.
pub fn entry() -> &'static str {
    ENTRY.with(|e| e.get().0)
}

impl Route {
    /// The route of a location fragment ("#/multigrid"); an empty fragment is the entry's own
    /// page (the home page in index.html).
    pub fn from_hash(hash: &str) -> Route {
        let path = hash.trim_start_matches('#');
        let path = path.split(['?', '&']).next().unwrap_or("");
        let trimmed = path.trim_end_matches('/');
        match trimmed.strip_prefix('/') {
            None if trimmed.is_empty() => ENTRY.with(|e| e.get().1),
            Some("clusters") => Route::Clusters,
            Some(key) => calculators::find(key).map_or(Route::NotFound, Route::Calculator),
            None => Route::NotFound,
        }
    }

    /// The HTML entry that shows this route.
    pub fn file(self) -> &'static str {
        match self {
            Route::Calculator(c) => c.file,
            _ => "index.html",
        }
    }

    /// The link to this route: a fragment within this entry, or the other entry's file.
    pub fn href(self) -> String {
        let path = match self {
            Route::Home => "/".to_string(),
            Route::Clusters => "/clusters".to_string(),
            Route::Calculator(c) => format!("/{}", c.key),
            Route::NotFound => "/404".to_string(),
        };
        if self.file() == entry() {
            format!("#{path}")
        } else {
            format!("{}#{path}", self.file())
        }
    }
}

fn current_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// The route of the address bar, following every change of the fragment.
#[hook]
pub fn use_hash_route() -> Route {
    let route = use_state(|| Route::from_hash(&current_hash()));
    {
        let route = route.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window()
                .map(|w| EventListener::new(&w, "hashchange", move |_| route.set(Route::from_hash(&current_hash()))));
            move || drop(listener)
        });
    }
    *route
}

#[derive(Properties, PartialEq)]
pub struct LinkProps {
    pub to: Route,
    #[prop_or_default]
    pub children: Html,
}

/// A link to a page of the app.
#[component(Link)]
pub fn link(p: &LinkProps) -> Html {
    html! { <a href={p.to.href()}>{ p.children.clone() }</a> }
}

//! Routes, carried in the URL fragment (`#/multigrid`) so any static file server, under any
//! sub-path, serves every page. Each calculator is its own HTML entry with its own wasm
//! (`multigrid.html`, `regions.html`, …), so a page loads only its own calculator; the home
//! page and the Clusters page live in `index.html`. A route opened
//! in the wrong entry (an old `index.html#/regions` link) is sent on to its own.

use std::cell::Cell;

use gloo::events::EventListener;
use yew::prelude::*;

/// A page of the app. The route lives in the fragment, so any static server under any
/// sub-path serves every page from index.html, and links keep the query (`?embed=1`).
/// Hand-written rather than yew-router: seven fixed paths do not need a router library, and
/// this saves about 9 KB gzipped of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Home,
    Clusters,
    Multigrid,
    Speedup,
    Regions,
    Comm,
    Simulate,
    NotFound,
}

const PATHS: &[(Route, &str)] = &[
    (Route::Home, "/"),
    (Route::Clusters, "/clusters"),
    (Route::Multigrid, "/multigrid"),
    (Route::Speedup, "/speedup"),
    (Route::Regions, "/regions"),
    (Route::Comm, "/comm"),
    (Route::Simulate, "/simulate"),
];

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
        if trimmed.is_empty() {
            return ENTRY.with(|e| e.get().1);
        }
        PATHS.iter().find(|(_, p)| *p == trimmed).map(|(r, _)| *r).unwrap_or(Route::NotFound)
    }

    /// The HTML entry that shows this route.
    pub fn file(self) -> &'static str {
        match self {
            Route::Multigrid => "multigrid.html",
            Route::Regions => "regions.html",
            Route::Speedup => "speedup.html",
            Route::Simulate => "simulate.html",
            Route::Comm => "comm.html",
            _ => "index.html",
        }
    }

    /// The link to this route: a fragment within this entry, or the other entry's file.
    pub fn href(self) -> String {
        let path = PATHS.iter().find(|(r, _)| *r == self).map(|(_, p)| *p).unwrap_or("/404");
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
            let listener = web_sys::window().map(|w| {
                EventListener::new(&w, "hashchange", move |_| route.set(Route::from_hash(&current_hash())))
            });
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

/// What the navigation and the home page say about each calculator.
pub struct Calculator {
    pub route: Route,
    pub title: &'static str,
    pub answers: &'static str,
    pub seed: &'static str,
}

pub const CALCULATORS: &[Calculator] = &[
    Calculator {
        route: Route::Multigrid,
        title: "Multi-cluster planner",
        answers: "How long will my job take, and what will it cost, on one cluster or split over two, \
                  with which switching fabric? Calibrated from a few runs on 4 and 8 processes.",
        seed: "seed 000: multigrid on the White Rose Grid",
    },
    Calculator {
        route: Route::Speedup,
        title: "Speed-up curve",
        answers: "From speed-ups measured at a few process counts: the whole curve, where it stops \
                  paying, and how sure we are (Downey's model and its rivals).",
        seed: "seed 004: Downey's model tuned by Levenberg–Marquardt",
    },
    Calculator {
        route: Route::Regions,
        title: "Two regions",
        answers: "Can one job span two computing centres joined by a long link; what bandwidth \
                  between them makes it worthwhile; how large should each region be?",
        seed: "seed 003: bwGRiD Mannheim–Heidelberg",
    },
    Calculator {
        route: Route::Comm,
        title: "Communication & broadcast",
        answers: "Which communication model fits my benchmark output, which broadcast algorithm is \
                  fastest for my message sizes, and how to broadcast across sites.",
        seed: "seed 002: adaptive poly-models on Grid'5000",
    },
    Calculator {
        route: Route::Simulate,
        title: "Virtual parallel machine",
        answers: "Run time and speed-up of my program's skeleton, simulated with message times drawn \
                  from measured distributions under contention.",
        seed: "seed 001: MPIBench and PEVPM",
    },
];

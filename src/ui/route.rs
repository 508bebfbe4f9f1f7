//! Routes, carried in the URL fragment (`#/multigrid`) so any static file server, under any
//! sub-path, serves every page from the one index.html.

use yew_router::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Routable)]
pub enum Route {
    #[at("/")]
    Home,
    #[at("/clusters")]
    Clusters,
    #[at("/multigrid")]
    Multigrid,
    #[at("/speedup")]
    Speedup,
    #[at("/regions")]
    Regions,
    #[at("/comm")]
    Comm,
    #[at("/simulate")]
    Simulate,
    #[not_found]
    #[at("/404")]
    NotFound,
}

/// What the navigation and the home page say about each calculator.
pub struct Calculator {
    pub route: Route,
    /// Page id in the workspace and in share links (also the CLI subcommand where one exists).
    pub page: &'static str,
    pub title: &'static str,
    pub answers: &'static str,
    pub seed: &'static str,
}

pub const CALCULATORS: &[Calculator] = &[
    Calculator {
        route: Route::Multigrid,
        page: "multigrid",
        title: "Multi-cluster planner",
        answers: "How long will my job take, and what will it cost, on one cluster or split over two, \
                  with which switching fabric? Calibrated from a few runs on 4 and 8 processes.",
        seed: "seed 000: multigrid on the White Rose Grid",
    },
    Calculator {
        route: Route::Speedup,
        page: "speedup",
        title: "Speed-up curve",
        answers: "From speed-ups measured at a few process counts: the whole curve, where it stops \
                  paying, and how sure we are (Downey's model and its rivals).",
        seed: "seed 004: Downey's model tuned by Levenberg–Marquardt",
    },
    Calculator {
        route: Route::Regions,
        page: "regions",
        title: "Two regions",
        answers: "Can one job span two computing centres joined by a long link; what bandwidth \
                  between them makes it worthwhile; how large should each region be?",
        seed: "seed 003: bwGRiD Mannheim–Heidelberg",
    },
    Calculator {
        route: Route::Comm,
        page: "comm",
        title: "Communication & broadcast",
        answers: "Which communication model fits my benchmark output, which broadcast algorithm is \
                  fastest for my message sizes, and how to broadcast across sites.",
        seed: "seed 002: adaptive poly-models on Grid'5000",
    },
    Calculator {
        route: Route::Simulate,
        page: "simulate",
        title: "Virtual parallel machine",
        answers: "Run time and speed-up of my program's skeleton, simulated with message times drawn \
                  from measured distributions under contention.",
        seed: "seed 001: MPIBench and PEVPM",
    },
];

pub fn calculator(route: Route) -> Option<&'static Calculator> {
    CALCULATORS.iter().find(|c| c.route == route)
}

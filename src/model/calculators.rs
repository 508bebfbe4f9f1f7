//! The one list of calculators. Routes, navigation, the home page, the pages a workspace may
//! hold, the HTML entries the site build finds and the command line's subcommands all read
//! it; a native test (`tests/calculators.rs`) checks that every row has its binary, its HTML
//! entry and its subcommands.
//!
//! A calculator's `key` is its page's name in the workspace and in share links, its route
//! (`#/key`), its HTML entry (`key.html`) and its wasm binary (`sw-key`).

/// One calculator of scalewise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Calculator {
    pub key: &'static str,
    /// Its HTML entry: `key` + ".html".
    pub file: &'static str,
    pub title: &'static str,
    /// The questions it answers, for the home page.
    pub answers: &'static str,
    /// The seed it implements.
    pub seed: &'static str,
    /// Its subcommands of the `scalewise` command.
    pub commands: &'static [&'static str],
}

pub const MULTIGRID: Calculator = Calculator {
    key: "multigrid",
    file: "multigrid.html",
    title: "Multi-cluster planner",
    answers: "How long will my job take, and what will it cost, on one cluster or split over two, \
              with which switching fabric? Calibrated from a few runs on 4 and 8 processes.",
    seed: "seed 000: multigrid on the White Rose Grid",
    commands: &["multigrid"],
};

pub const SPEEDUP: Calculator = Calculator {
    key: "speedup",
    file: "speedup.html",
    title: "Speed-up curve",
    answers: "From speed-ups measured at a few process counts: the whole curve, where it stops \
              paying, and how sure we are (Downey's model and its rivals).",
    seed: "seed 004: Downey's model tuned by Levenberg–Marquardt",
    commands: &["speedup"],
};

pub const BOTTLENECKS: Calculator = Calculator {
    key: "bottlenecks",
    file: "bottlenecks.html",
    title: "Bottlenecks at scale",
    answers: "Which region of my program will dominate at the process count I am about to book, \
              and which stops scaling first? From an Extra-P experiment of many regions.",
    seed: "Extra-P experiments, each region fitted as on the speed-up page (seed 004)",
    commands: &["bottlenecks"],
};

pub const REGIONS: Calculator = Calculator {
    key: "regions",
    file: "regions.html",
    title: "Two regions",
    answers: "Can one job span two computing centres joined by a long link; what bandwidth \
              between them makes it worthwhile; how large should each region be?",
    seed: "seed 003: bwGRiD Mannheim–Heidelberg",
    commands: &["regions"],
};

pub const COMM: Calculator = Calculator {
    key: "comm",
    file: "comm.html",
    title: "Communication & broadcast",
    answers: "Which communication model fits my benchmark output, and which broadcast \
              algorithm is fastest for my message sizes and process count?",
    seed: "seed 002: adaptive poly-models on Grid'5000",
    commands: &["comm", "broadcast"],
};

pub const SITES: Calculator = Calculator {
    key: "sites",
    file: "sites.html",
    title: "Broadcast across sites",
    answers: "Which of my machines form clusters of like latency, and how should a broadcast cross \
              the sites? From a measured latency matrix.",
    seed: "seed 002: logical clusters and grid broadcasts on Grid'5000",
    commands: &["clusters", "grid-broadcast"],
};

pub const SIMULATE: Calculator = Calculator {
    key: "simulate",
    file: "simulate.html",
    title: "Virtual parallel machine",
    answers: "Run time and speed-up of my program's skeleton, simulated with message times drawn \
              from measured distributions under contention.",
    seed: "seed 001: MPIBench and PEVPM",
    commands: &["simulate"],
};

/// Every calculator, in the order the navigation lists them.
pub const CALCULATORS: &[Calculator] = &[MULTIGRID, SPEEDUP, BOTTLENECKS, REGIONS, COMM, SITES, SIMULATE];

/// The calculator of a key.
pub fn find(key: &str) -> Option<&'static Calculator> {
    CALCULATORS.iter().find(|c| c.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_name_their_files_and_are_unique() {
        for (i, c) in CALCULATORS.iter().enumerate() {
            assert_eq!(c.file, format!("{}.html", c.key));
            assert!(c.key.chars().all(|ch| ch.is_ascii_lowercase()), "{}", c.key);
            assert!(CALCULATORS[..i].iter().all(|d| d.key != c.key), "{} twice", c.key);
            assert_eq!(find(c.key), Some(c));
        }
        assert_eq!(find("clusters"), None);
    }
}

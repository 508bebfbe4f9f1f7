//! The one table of calculators ([`calculator_table!`]). Routes, navigation, the home page,
//! the pages a workspace may hold, each HTML entry's site, the command line's subcommands, the
//! fuzz targets and the golden page views are all made from it; a native test
//! (`tests/calculators.rs`) checks that every row has its binary and its HTML entry.
//!
//! A calculator's `key` is its page's name in the workspace and in share links, its route
//! (`#/key`), its HTML entry (`key.html`) and its wasm binary (`sw-key`).

use crate::model::catalog::Catalog;
use crate::model::input::page::{PageField, PageInputs, Preset};

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
}

/// **The table of calculators**, one row each, in the order the navigation lists them. Every
/// list of calculators is made from it, by a macro given to this one
/// (`calculator_table!(callback)` expands to `callback! { rows }`, each row as
/// `ROW "key" "title" "answers" "seed" [model] [page] [commands]`):
/// - here, each row's `Calculator` constant and [`CALCULATORS`];
/// - in `model::contracts`, above the page models, the native `CONTRACTS`;
/// - `cli::SUBCOMMANDS` (the row's `commands`, in `crate::cli`), so the command's help too;
/// - `ui::<ROW>`, each HTML entry's `Site` (the row's `page`, a component in
///   `crate::ui::pages`);
/// - through `CONTRACTS`: the fuzz target `pages`, the golden page views and the replay
///   test; the browser tests take the pages from the built site's home page.
///
/// A row's `model` names its page model's [`Contract`] (in `crate::model`). A calculator is
/// its model folder, its UI page, its subcommand file, its `sw-<key>` binary and HTML entry,
/// and one row here (ARCHITECTURE.md, "Adding a calculator").
#[macro_export]
macro_rules! calculator_table {
    ($then:ident) => {
        $crate::calculator_table! { @rows $then
            MULTIGRID {
                key: "multigrid",
                title: "Multi-cluster planner",
                answers: "How long will my job take, and what will it cost, on one cluster or split over two, \
                          with which switching fabric? Calibrated from a few runs on 4 and 8 processes.",
                seed: "White Rose Grid paper: multigrid run times across clusters",
                model: multigrid::page::MultigridPage,
                page: multigrid::Multigrid,
                commands: [multigrid::COMMAND],
            },
            SPEEDUP {
                key: "speedup",
                title: "Speed-up curve",
                answers: "From speed-ups measured at a few process counts: the whole curve, where it stops \
                          paying, and how sure we are (Downey's model and its rivals).",
                seed: "Lan 2007: Downey's model tuned by Levenberg–Marquardt",
                model: speedup::page::SpeedupPage,
                page: speedup::Speedup,
                commands: [speedup::COMMAND, transfer::COMMAND],
            },
            BOTTLENECKS {
                key: "bottlenecks",
                title: "Bottlenecks at scale",
                answers: "Which region of my program will dominate at the process count I am about to book, \
                          and which stops scaling first? From an Extra-P experiment of many regions.",
                seed: "Extra-P experiments, each region fitted as on the speed-up page (Lan 2007)",
                model: bottlenecks::page::BottlenecksPage,
                page: bottlenecks::Bottlenecks,
                commands: [bottlenecks::COMMAND],
            },
            REGIONS {
                key: "regions",
                title: "Two regions",
                answers: "Can one job span two computing centres joined by a long link; what bandwidth \
                          between them makes it worthwhile; how large should each region be?",
                seed: "Kredel et al. 2012: bwGRiD Mannheim–Heidelberg",
                model: regions::page::RegionsPage,
                page: regions::Regions,
                commands: [regions::COMMAND],
            },
            COMM {
                key: "comm",
                title: "Communication & broadcast",
                answers: "Which communication model fits my benchmark output, and which broadcast \
                          algorithm is fastest for my message sizes and process count?",
                seed: "Nasri et al.: adaptive poly-models on Grid'5000",
                model: comm::page::CommPage,
                page: comm::Comm,
                commands: [comm::COMMAND, comm::BROADCAST],
            },
            SITES {
                key: "sites",
                title: "Broadcast across sites",
                answers: "Which of my machines form clusters of like latency, and how should a broadcast cross \
                          the sites? From a measured latency matrix.",
                seed: "Nasri et al.: logical clusters and grid broadcasts on Grid'5000",
                model: sites::page::SitesPage,
                page: sites::Sites,
                commands: [sites::CLUSTERS, sites::GRID_BROADCAST],
            },
            SIMULATE {
                key: "simulate",
                title: "Virtual parallel machine",
                answers: "Run time and speed-up of my program's skeleton, simulated with message times drawn \
                          from measured distributions under contention.",
                seed: "Grove & Coddington: MPIBench and PEVPM",
                model: simulate::page::SimulatePage,
                page: simulate::Simulate,
                commands: [simulate::COMMAND],
            },
        }
    };
    // Each row handed on as `ROW "key" "title" "answers" "seed" [model] [page] [commands]`, so
    // a consumer matches it in one line and splices the bracketed paths.
    (@rows $then:ident $($row:ident {
        key: $key:literal,
        title: $title:literal,
        answers: $answers:literal,
        seed: $seed:literal,
        model: $($model:ident)::+,
        page: $($page:ident)::+,
        commands: [$($($command:ident)::+),*],
    },)*) => {
        $then! { $($row $key $title $answers $seed [$($model)::+] [$($page)::+] [$($($command)::+),*])* }
    };
}

macro_rules! define_calculators {
    ($($row:ident $key:literal $title:literal $answers:literal $seed:literal [$($model:tt)*] [$($page:tt)*] [$($commands:tt)*])*) => {
        $(pub const $row: Calculator = Calculator { key: $key, file: concat!($key, ".html"), title: $title, answers: $answers, seed: $seed };)*

        /// Every calculator, in the order the navigation lists them.
        pub const CALCULATORS: &[Calculator] = &[$($row),*];
    };
}

calculator_table!(define_calculators);

/// What every calculator's page model offers, the same way: its fields, its typed inputs,
/// its presets, and what the page shows for its texts. (Its subcommands' request and answer
/// types are the command's `Subcommand::schema`, a calculator may have several.)
pub trait Contract {
    /// What [`Contract::parse`] makes of the texts: the typed inputs, with each field's error.
    type Inputs;
    /// Everything the page shows.
    type View: std::fmt::Debug;
    /// Whether [`Contract::view`] runs on a keystroke on the page's own thread (the fuzz
    /// target holds it to 100 ms); false when the page computes it in Web Workers.
    const ON_KEYSTROKE: bool = true;
    /// The keys of its fields in the workspace.
    fn fields() -> Vec<&'static str>;
    fn default_inputs() -> PageInputs;
    fn presets() -> Vec<Preset>;
    fn parse(texts: &PageInputs) -> Self::Inputs;
    /// The page for its texts: parsed, evaluated, each field's error where the page shows it.
    fn view(texts: &PageInputs, catalog: &Catalog) -> Self::View;
    /// What the golden files keep of a page: its view, or more (the simulation's run).
    fn results(texts: &PageInputs, catalog: &Catalog) -> String {
        format!("{:#?}", Self::view(texts, catalog))
    }
    /// The inputs the golden files keep a view of, by name: the defaults and every preset.
    fn examples() -> Vec<(String, PageInputs)> {
        let mut out = vec![("default".to_string(), Self::default_inputs())];
        out.extend(Self::presets().into_iter().map(|p| (p.key.to_string(), p.inputs)));
        out
    }
    /// Whether `texts` are one of [`Contract::examples`] in every field of the page: the
    /// page's own example, not the user's input. A page keeps no such result to show, marked
    /// stale, under the user's first error: the user never asked for it.
    fn is_example(texts: &PageInputs) -> bool {
        let of = |t: &PageInputs, k: &str| t.get(k).map(|s| s.trim().to_string()).unwrap_or_default();
        let fields = Self::fields();
        Self::examples().iter().any(|(_, e)| fields.iter().all(|k| of(texts, k) == of(e, k)))
    }
}

/// The [`Contract`] of a page model whose module has the usual functions and types:
/// `Field`, `default_inputs()`, `presets()`, `parse(texts)` and `view(texts, catalog)`, with
/// `Inputs` and `PageView` by default; the second form names other types and view function,
/// and adds trait items of its own.
macro_rules! usual_contract {
    ($(#[$doc:meta])* $name:ident) => {
        $crate::model::calculators::usual_contract!($(#[$doc])* $name, (Inputs, FieldErrors), PageView, view, {});
    };
    ($(#[$doc:meta])* $name:ident, $inputs:ty, $view:ty, $view_fn:ident, { $($extra:item)* }) => {
        $(#[$doc])*
        pub struct $name;

        impl $crate::model::calculators::Contract for $name {
            type Inputs = $inputs;
            type View = $view;
            fn fields() -> Vec<&'static str> {
                $crate::model::calculators::keys::<Field>()
            }
            fn default_inputs() -> PageInputs {
                default_inputs()
            }
            fn presets() -> Vec<Preset> {
                presets()
            }
            fn parse(texts: &PageInputs) -> Self::Inputs {
                parse(texts)
            }
            fn view(texts: &PageInputs, catalog: &Catalog) -> Self::View {
                $view_fn(texts, catalog)
            }
            $($extra)*
        }
    };
}
pub(crate) use usual_contract;

/// The keys of a page's [`PageField`]s.
pub fn keys<F: PageField>() -> Vec<&'static str> {
    F::ALL.iter().map(|f| f.key()).collect()
}

/// One calculator's [`Contract`] as plain functions, for lists of every calculator.
#[derive(Clone, Copy)]
pub struct Checks {
    pub calculator: &'static Calculator,
    pub on_keystroke: bool,
    pub fields: fn() -> Vec<&'static str>,
    pub default_inputs: fn() -> PageInputs,
    pub examples: fn() -> Vec<(String, PageInputs)>,
    pub view: fn(&PageInputs, &Catalog) -> Box<dyn std::fmt::Debug>,
    pub results: fn(&PageInputs, &Catalog) -> String,
}

impl Checks {
    pub const fn of<C: Contract>(calculator: &'static Calculator) -> Checks
    where
        C::View: 'static,
    {
        Checks {
            calculator,
            on_keystroke: C::ON_KEYSTROKE,
            fields: C::fields,
            default_inputs: C::default_inputs,
            examples: C::examples,
            view: boxed_view::<C>,
            results: C::results,
        }
    }
}

fn boxed_view<C: Contract>(texts: &PageInputs, catalog: &Catalog) -> Box<dyn std::fmt::Debug>
where
    C::View: 'static,
{
    Box::new(C::view(texts, catalog))
}

/// The calculator of a key.
pub fn find(key: &str) -> Option<&'static Calculator> {
    CALCULATORS.iter().find(|c| c.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults and every preset are the page's example; a field the user changed, or
    /// left empty, is not (issue 63: the example's forecast under the user's first error).
    #[test]
    fn examples_are_told_from_the_users_inputs() {
        use crate::model::speedup::page::SpeedupPage;
        let defaults = SpeedupPage::default_inputs();
        assert!(SpeedupPage::is_example(&defaults));
        for p in SpeedupPage::presets() {
            assert!(SpeedupPage::is_example(&p.inputs), "{}", p.key);
        }
        let mut own = defaults.clone();
        own.insert("points".into(), "n speedup\n2 x".into());
        assert!(!SpeedupPage::is_example(&own));
        // A key that is not a field of the page (the allocation table's) changes nothing.
        let mut alloc = defaults.clone();
        alloc.insert("alloc_cores_per_node".into(), "48".into());
        assert!(SpeedupPage::is_example(&alloc));
        let mut empty = defaults;
        empty.remove("points");
        assert!(!SpeedupPage::is_example(&empty));
    }

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

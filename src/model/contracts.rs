//! Every calculator's page model as its [`Contract`]'s functions, in the order of the table
//! of calculators (native only: no page needs another's model). It sits above the page models
//! it lists, so that the table itself (`model::calculators`), which every page names its key
//! from, depends on none of them.

use crate::calculator_table;
use crate::model::calculators::*;

macro_rules! define_contracts {
    ($($row:ident $key:literal $title:literal $answers:literal $seed:literal [$($model:tt)*] [$($page:tt)*] [$($commands:tt)*])*) => {
        /// Every calculator's [`Contract`] as functions, in the order of [`CALCULATORS`]: the
        /// fuzz target `pages`, the golden page views and the replay test go through it.
        pub const CONTRACTS: &[Checks] = &[$(Checks::of::<crate::model::$($model)*>(&$row)),*];
    };
}

calculator_table!(define_contracts);

//! The pure core: every formula, fit and simulator, and the parsing of user input into
//! validated types. Nothing here touches the DOM, yew, gloo or plotters, or does I/O; it is
//! tested natively with `cargo test`.

pub mod catalog;
pub mod collectives;
pub mod comm;
pub mod comm_page;
pub mod error;
pub mod finite;
pub mod gridcast;
pub mod multigrid;
pub mod multigrid_page;
pub mod multigrid_presets;
pub mod pevpm;
pub mod regions;
pub mod regions_page;
pub mod share;
pub mod simulate_page;
pub mod speedup;
pub mod speedup_page;
pub mod table;
pub mod workspace;

pub use error::{fmt_num, InputError};

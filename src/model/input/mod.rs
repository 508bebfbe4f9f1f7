//! Text the user typed, read into numbers: the one table reader (spreadsheet, CSV or
//! whitespace tables with units in their headers), the one list reader ("64, 128 256"), and
//! the conventions every page's input texts follow ([`page`]).

pub mod list;
pub mod page;
pub mod request;
pub mod table;

//! Text the user typed, read into numbers: the one table reader (spreadsheet, CSV or
//! whitespace tables with units in their headers) and the one list reader ("64, 128 256").

pub mod list;
pub mod request;
pub mod table;

//! Text the user typed, read into numbers: the one table reader (spreadsheet, CSV or
//! whitespace tables with units in their headers).

pub mod table;

//! Reusable components: the chrome around pages, the table input every calculator uses,
//! number fields, the share/embed panel, the chart canvas, stale results and the tables' CSV button.

pub mod chart;
pub mod chrome;
mod measured_canvas;
pub mod number_field;
pub mod share_panel;
pub mod stale;
pub mod table_csv;
pub mod table_input;
pub mod workspace_file;

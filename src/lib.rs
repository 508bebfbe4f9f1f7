//! scalewise: predicts how parallel message-passing programs perform from a few cheap runs.
//!
//! `model` is the pure core (no DOM, no I/O); `ui` and `charts` exist only in the browser
//! build, except that chart drawing is backend-generic and also renders SVG natively.
pub mod charts;
/// The `scalewise` command (native only).
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
/// What the fuzz targets check (native only).
#[cfg(not(target_arch = "wasm32"))]
pub mod fuzzing;
pub mod model;
/// Native threads for the simulator (the model runs none).
#[cfg(not(target_arch = "wasm32"))]
pub mod parallel;

#[cfg(target_arch = "wasm32")]
pub mod ui;

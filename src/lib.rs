//! scalewise: predicts how parallel message-passing programs perform from a few cheap runs.
//!
//! `model` is the pure core (no DOM, no I/O); `ui` and `charts` exist only in the browser
//! build, except that chart drawing is backend-generic and also renders SVG natively.
pub mod charts;
pub mod model;
/// Native threads for the simulator (the model runs none).
#[cfg(not(target_arch = "wasm32"))]
pub mod parallel;

#[cfg(target_arch = "wasm32")]
pub mod ui;

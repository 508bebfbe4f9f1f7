//! The Clusters page's Web Worker: reads a pasted `scontrol show node`, `sinfo -N -l` or
//! `lscpu` report into catalog clusters (`model::workspace::node_report::Pasted`). The reader
//! is built into this worker, not into the page, so the page loads it only when a report is
//! pasted (`src/bin/sw-cluster-worker.rs`).

use crate::model::workspace::node_report::Pasted;

/// The script trunk writes next to `index.html` for this worker (`data-loader-shim`).
pub const LOADER: &str = "sw-cluster-worker_loader.js";

/// Answers every text the page posts with what it reads.
pub fn start() {
    super::worker_main::listen(|text, post| super::worker_main::send(post, &Pasted::of(text)));
}

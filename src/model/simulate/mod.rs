//! PEVPM, the Performance Evaluating Virtual Parallel Machine (seed 001: Grove and
//! Coddington, MPIBench and PEVPM; spec `shared/spec/pevpm.md`): predict a message-passing
//! program's run time by simulating its skeleton on a virtual machine whose message times are
//! sampled from measured distributions, under the contention of the moment.
//!
//! - [`lang`] — the skeleton language (and the seed's `// PEVPM` comments in C).
//! - [`program`] — a skeleton specialised into one flat program per process; collectives.
//! - [`calibration`] — raw per-message timings (SimGrid calibration CSV, sample tables)
//!   turned into the machine's histograms.
//! - [`machine`] — message-time histograms, the fitted line, the Perseus-like preset, modes.
//! - [`engine`] — the discrete-event engine: one replication of one process count.
//! - [`mailbox`] — a process's queued messages, posted receives and channels, by peer.
//! - [`job`] — a job: its replications in parts, run in slices, merged into a report with
//!   statistics and the Figure 6 series.
//! - [`rng`] — the seeded generator (identical natively and in wasm).
//! - [`examples`] — the shipped skeletons: Jacobi (Figure 5), FFT, bag of tasks.
//! - [`page`] — the simulation page: input texts to a job, a report to what the page shows.
//!
//! Units: Serial times in milliseconds in skeletons, seconds everywhere else; sizes in bytes.

pub mod calibration;
pub mod engine;
pub mod examples;
pub mod job;
pub mod lang;
pub mod machine;
pub mod mailbox;
pub mod page;
pub mod program;
pub mod request;
pub mod rng;
pub mod worker;

#[cfg(test)]
mod tests;

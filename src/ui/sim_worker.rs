//! The simulation page's Web Worker. The page starts one or more (one per core, up to
//! [`super::worker_pool::MAX_WORKERS`]) and keeps them for the next run; each receives the page's inputs as JSON,
//! prepares the job and runs its share of the job's parts
//! ([`crate::model::pevpm::job::Simulation::shares`]) in slices. Worker 0 also collects: the
//! page hands it the other workers' results, and it merges them with its own, so the report
//! does not depend on how many workers ran it. The page cancels a run by terminating the
//! workers. Built as its own binary (`src/bin/sw-simulate-worker.rs`), so the page's main
//! thread never freezes.
//!
//! Messages from the page, all JSON text: `{"inputs": PageInputs, "worker": w, "workers": k}`
//! starts a job; `{"partials": [Partial]}` (to worker 0) is another worker's result; `"bench"`
//! runs the Jacobi study of `ui::bench::jacobi_study` on one worker and answers
//! `{"bench_ms": ms}`, so browser benchmarks time the engine where the page runs it.
//!
//! Messages to the page: `{"ready": true}` once listening, then per job `{"progress": f}`
//! (this worker's share, about every 100 ms); from workers other than 0, `{"partials": …}`
//! when their share is done; from worker 0, `{"done": ResultView}` once every share is in.
//! Any worker may instead answer `{"errors": [text]}` (the inputs do not prepare) or
//! `{"error": text}` (the run stopped on an error).

use std::cell::RefCell;

use serde_json::{json, Value};

use crate::model::pevpm::job::{Partial, Progress, Simulation, Stepper};
use crate::model::pevpm::page::{prepare, view};
use crate::model::workspace::catalog::Catalog;
use crate::model::workspace::PageInputs;

/// Ops a slice runs before the worker looks at the clock (about 10 ms).
const SLICE: u64 = 100_000;

/// What worker 0 has collected: the other workers' results (which may come before its own
/// share is done, or even before its job arrives), and its own stepper once its share is done.
#[derive(Default)]
struct Collected {
    partials: Vec<Partial>,
    received: usize,
    mine: Option<(Stepper, usize)>,
}

thread_local! {
    static COLLECTED: RefCell<Collected> = RefCell::new(Collected::default());
}

#[derive(serde::Deserialize)]
struct Start {
    inputs: PageInputs,
    worker: usize,
    workers: usize,
}

fn run(start: Start, reply: &dyn Fn(Value)) {
    // A job reads nothing of the catalog (a machine from it arrives as the fitted line's
    // fields), and the worker has none.
    let catalog = Catalog::default();
    let job = match prepare(&start.inputs, &catalog) {
        Ok((job, _)) => job,
        Err(errors) => return reply(json!({ "errors": errors.iter().map(|e| e.to_string()).collect::<Vec<_>>() })),
    };
    let sim = match Simulation::new(job) {
        Ok(s) => s,
        Err(e) => return reply(json!({ "error": e.to_string() })),
    };
    let k = start.workers.clamp(1, super::worker_pool::MAX_WORKERS);
    // Shares as even in replications as whole parts allow; every worker computes the same.
    let mine = sim.shares(k).into_iter().nth(start.worker).unwrap_or_default();
    let mut stepper = Stepper::for_parts(sim, mine);
    let mut last = js_sys::Date::now();
    loop {
        match stepper.step(SLICE) {
            Ok(Progress::Running { fraction }) => {
                let now = js_sys::Date::now();
                if now - last >= 100.0 {
                    last = now;
                    reply(json!({ "progress": fraction }));
                }
            }
            Ok(Progress::Done) => break,
            Err(e) => return reply(json!({ "error": e.to_string() })),
        }
    }
    if start.worker != 0 {
        return reply(json!({ "partials": stepper.take_partials() }));
    }
    COLLECTED.with(|c| c.borrow_mut().mine = Some((stepper, k - 1)));
    finish_if_complete(reply);
}

/// Worker 0: merges and answers once its own share and every other worker's are in.
fn finish_if_complete(reply: &dyn Fn(Value)) {
    let done = COLLECTED.with(|c| {
        let mut c = c.borrow_mut();
        match &c.mine {
            Some((_, others)) if c.received >= *others => Some(std::mem::take(&mut *c)),
            _ => None,
        }
    });
    let Some(Collected { mut partials, mine: Some((mut stepper, _)), .. }) = done else { return };
    partials.append(&mut stepper.take_partials());
    reply(json!({ "done": view(&stepper.simulation().merge(partials)) }));
}

fn collect(partials: Vec<Partial>, reply: &dyn Fn(Value)) {
    COLLECTED.with(|c| {
        let mut c = c.borrow_mut();
        c.partials.extend(partials);
        c.received += 1;
    });
    finish_if_complete(reply);
}

/// The worker's entry point: listen for jobs.
pub fn start() {
    super::worker_main::listen(|text, reply, _| {
        if text == "bench" {
            return reply(json!({ "bench_ms": super::bench::jacobi_study() }));
        }
        #[derive(serde::Deserialize)]
        struct Partials {
            partials: Vec<Partial>,
        }
        if let Ok(p) = serde_json::from_str::<Partials>(text) {
            return collect(p.partials, reply);
        }
        match serde_json::from_str::<Start>(text) {
            Ok(start) => run(start, reply),
            Err(e) => reply(json!({ "error": format!("the page sent an unreadable message: {e}") })),
        }
    });
}

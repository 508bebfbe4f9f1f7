//! The simulation page's Web Worker. The page starts one or more (one per core, up to
//! [`super::worker_pool::MAX_WORKERS`]) and keeps them for the next run; each receives the page's inputs as JSON,
//! prepares the job and runs its share of the job's parts
//! ([`crate::model::simulate::job::Simulation::shares`]) in slices. Worker 0 also collects: the
//! page hands it the other workers' results, and it merges them with its own, so the report
//! does not depend on how many workers ran it. The page cancels a run by terminating the
//! workers. Built as its own binary (`src/bin/sw-simulate-worker.rs`), so the page's main
//! thread never freezes.
//!
//! Messages: [`crate::model::simulate::worker`] (`ToWorker` from the page, `FromWorker` back), as
//! JSON text; a worker other than 0 sends its share's results to worker 0 through the page.

use std::cell::RefCell;

use crate::model::catalog::Catalog;
use crate::model::simulate::job::{Partial, Progress, Simulation, Stepper};
use crate::model::simulate::page::{prepare, view};
use crate::model::simulate::worker::{FromWorker, ToWorker};
use crate::model::workspace::PageInputs;

use super::worker_main::send;

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

/// Runs worker `worker`'s share (of `workers`) of the job of `inputs`.
fn run(inputs: &PageInputs, worker: usize, workers: usize, post: &dyn Fn(&str)) {
    let reply = |m: FromWorker| send(post, &m);
    // A job reads nothing of the catalog (a machine from it arrives as the fitted line's
    // fields), and the worker has none.
    let catalog = Catalog::default();
    let job = match prepare(inputs, &catalog) {
        Ok((job, _)) => job,
        Err(errors) => return reply(FromWorker::Errors(errors.iter().map(|e| e.to_string()).collect())),
    };
    let sim = match Simulation::new(job) {
        Ok(s) => s,
        Err(e) => return reply(FromWorker::Error(e.to_string())),
    };
    let k = workers.clamp(1, super::worker_pool::MAX_WORKERS);
    // Shares as even in replications as whole parts allow; every worker computes the same.
    let mine = sim.shares(k).into_iter().nth(worker).unwrap_or_default();
    let mut stepper = Stepper::for_parts(sim, mine);
    let mut last = js_sys::Date::now();
    loop {
        match stepper.step(SLICE) {
            Ok(Progress::Running { fraction }) => {
                let now = js_sys::Date::now();
                if now - last >= 100.0 {
                    last = now;
                    reply(FromWorker::Progress { fraction, messages: stepper.messages() });
                }
            }
            Ok(Progress::Done) => break,
            Err(e) => return reply(FromWorker::Error(e.to_string())),
        }
    }
    if worker != 0 {
        return reply(FromWorker::Partials(stepper.take_partials()));
    }
    COLLECTED.with(|c| c.borrow_mut().mine = Some((stepper, k - 1)));
    finish_if_complete(post);
}

/// Worker 0: merges and answers once its own share and every other worker's are in.
fn finish_if_complete(post: &dyn Fn(&str)) {
    let done = COLLECTED.with(|c| {
        let mut c = c.borrow_mut();
        match &c.mine {
            Some((_, others)) if c.received >= *others => Some(std::mem::take(&mut *c)),
            _ => None,
        }
    });
    let Some(Collected { mut partials, mine: Some((mut stepper, _)), .. }) = done else { return };
    partials.append(&mut stepper.take_partials());
    send(post, &FromWorker::<_, Vec<Partial>>::Done(view(&stepper.simulation().merge(partials))));
}

fn collect(partials: Vec<Partial>, post: &dyn Fn(&str)) {
    COLLECTED.with(|c| {
        let mut c = c.borrow_mut();
        c.partials.extend(partials);
        c.received += 1;
    });
    finish_if_complete(post);
}

/// The worker's entry point: listen for jobs.
pub fn start() {
    super::worker_main::listen(|text, post| {
        // Another worker's share (passed on by the page) or the page's message.
        if text.starts_with(crate::model::workers::PASS_ON) {
            if let Ok(FromWorker::Partials(p)) = serde_json::from_str::<FromWorker>(text) {
                return collect(p, post);
            }
        }
        match serde_json::from_str::<ToWorker<PageInputs>>(text) {
            Ok(ToWorker::Start { inputs, worker, workers }) => run(&inputs, worker, workers, post),
            Ok(ToWorker::Bench) => send(post, &FromWorker::<(), ()>::BenchMs(super::bench::jacobi_study())),
            Err(e) => send(post, &FromWorker::<(), ()>::Error(format!("the page sent an unreadable message: {e}"))),
        }
    });
}

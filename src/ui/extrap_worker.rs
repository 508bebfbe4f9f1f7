//! The "Bottlenecks at scale" page's Web Worker for Extra-P experiments (`bottlenecks.html`, built as the binary
//! `sw-extrap-worker`): the page never parses or fits an experiment on its own thread. Each of
//! the page's workers (`ui::worker_pool`) receives the section's texts, reads and plans them
//! ([`crate::model::extrap::page::prepare`], the same in every worker) and fits its share of
//! the regions ([`crate::model::extrap::Plan::shares`]); worker 0 collects the others' fits and
//! ranks them all ([`crate::model::extrap::page::complete`]), so the view is the one a single
//! thread computes.
//!
//! Messages from the page, JSON text: `{"texts": PageInputs, "job": j, "worker": w,
//! "workers": k}` starts job j; `{"partials": [RegionFit], "job": j, "worker": w}` (to worker 0)
//! is worker w's share of job j.
//!
//! `{"weak": PageInputs, "job": j}` (from the speed-up page) answers `{"weak": Flat, "job": j}`
//! (`model::speedup::weak::flatten`, empty when there is nothing to model): the page's
//! weak-scaling analysis
//! ([`crate::model::speedup::page::weak_of`]), whose search is in this worker's wasm rather
//! than the page's, which has no room for it under the page's budget.
//!
//! `{"bench": {"full": f, "runs": r}}` runs the speed-up benchmark here
//! ([`crate::ui::bench::speedup_fits`]) and answers `{"bench": fits per second}`: the browser
//! tests measure the fits in this worker, whose wasm has the page's model code, rather than
//! in the page's own wasm, which has no room for the benchmark under the page's budget.
//!
//! Messages to the page: `{"ready": true}` once listening; per job `{"progress": f, "job": j}`
//! (this worker's share: 0 once the texts are read, about every 100 ms while it fits, and 1
//! when it is fitted); from workers other than 0,
//! `{"partials": …}` when their share is fitted; from worker 0 `{"done": ExtrapView, "job": j}`
//! once every share is in (at once when the texts have an error: every worker finds the same).

use std::cell::RefCell;

use serde_json::json;

use crate::model::extrap::page::{complete, prepare, ExtrapView};
use crate::model::extrap::{fit_regions, Plan, RegionFit};
use crate::model::workspace::PageInputs;

/// The script trunk writes next to a page that loads this worker (`data-loader-shim`): the
/// Bottlenecks page and the speed-up page.
pub const LOADER: &str = "sw-extrap-worker_loader.js";

/// What worker 0 holds of the job it collects.
#[derive(Default)]
struct Collected {
    job: u64,
    /// The other workers' shares, by worker.
    shares: Vec<(usize, Vec<RegionFit>)>,
    /// Its own view, plan and fits, and how many shares the others send, once fitted.
    mine: Option<(ExtrapView, Plan, Vec<RegionFit>, usize)>,
}

thread_local! {
    static COLLECTED: RefCell<Collected> = RefCell::new(Collected::default());
}

#[derive(serde::Deserialize)]
struct Start {
    texts: PageInputs,
    job: u64,
    worker: usize,
    workers: usize,
}

#[derive(serde::Deserialize)]
struct WeakStart {
    weak: PageInputs,
    job: u64,
}

#[derive(serde::Deserialize)]
struct Bench {
    bench: BenchRun,
}

#[derive(serde::Deserialize)]
struct BenchRun {
    full: bool,
    runs: u32,
}

#[derive(serde::Deserialize)]
struct Partials {
    partials: Vec<RegionFit>,
    job: u64,
    worker: usize,
}

/// Worker 0 turns to job `job`: what it held of an older one goes.
fn turn_to(c: &mut Collected, job: u64) {
    if c.job != job {
        *c = Collected { job, ..Collected::default() };
    }
}

fn run(start: Start, reply: &dyn Fn(serde_json::Value), post: &dyn Fn(&str)) {
    let (view, plan) = prepare(&start.texts);
    let Some(plan) = plan else {
        if start.worker == 0 {
            reply(json!({ "done": view, "job": start.job }));
        }
        return;
    };
    let k = start.workers.clamp(1, super::worker_pool::MAX_WORKERS);
    let mine = plan.shares(k).into_iter().nth(start.worker).unwrap_or_default();
    // Read and planned (a large text takes a few hundred ms): the page may show its progress.
    reply(json!({ "progress": 0.0, "job": start.job }));
    let total = mine.len().max(1) as f64;
    let mut fits = Vec::with_capacity(mine.len());
    let mut last = js_sys::Date::now();
    for i in mine.clone() {
        fits.extend(fit_regions(&plan, i..i + 1));
        let now = js_sys::Date::now();
        if now - last >= 100.0 {
            last = now;
            reply(json!({ "progress": (i + 1 - mine.start) as f64 / total, "job": start.job }));
        }
    }
    // Its share is fitted: what is left is the ranking (worker 0) and the page's table.
    reply(json!({ "progress": 1.0, "job": start.job }));
    if start.worker != 0 {
        // "partials" first: the page passes such a message to worker 0 without reading it.
        let text = format!("{{\"partials\":{},\"job\":{},\"worker\":{}}}", serde_json::to_string(&fits).unwrap_or_else(|_| "[]".into()), start.job, start.worker);
        return post(&text);
    }
    COLLECTED.with(|c| {
        let mut c = c.borrow_mut();
        turn_to(&mut c, start.job);
        c.mine = Some((view, plan, fits, k - 1));
    });
    finish_if_complete(reply);
}

fn collect(p: Partials, reply: &dyn Fn(serde_json::Value)) {
    let stale = COLLECTED.with(|c| {
        let mut c = c.borrow_mut();
        if p.job < c.job {
            return true;
        }
        turn_to(&mut c, p.job);
        c.shares.push((p.worker, p.partials));
        false
    });
    if !stale {
        finish_if_complete(reply);
    }
}

/// Worker 0: ranks and answers once its own share and every other worker's are in.
fn finish_if_complete(reply: &dyn Fn(serde_json::Value)) {
    let done = COLLECTED.with(|c| {
        let mut c = c.borrow_mut();
        match &c.mine {
            Some((.., others)) if c.shares.len() >= *others => {
                let job = c.job;
                Some((job, std::mem::take(&mut *c)))
            }
            _ => None,
        }
    });
    let Some((job, Collected { mut shares, mine: Some((view, plan, mut fits, _)), .. })) = done else { return };
    COLLECTED.with(|c| c.borrow_mut().job = job);
    // Worker 0's share comes first; the others' in worker order, as the plan split them.
    shares.sort_by_key(|s| s.0);
    fits.extend(shares.into_iter().flat_map(|s| s.1));
    reply(json!({ "done": complete(view, plan, fits), "job": job }));
}

/// The worker's entry point: listen for jobs.
pub fn start() {
    super::worker_main::listen(|text, reply, post| {
        if let Ok(p) = serde_json::from_str::<Partials>(text) {
            return collect(p, reply);
        }
        // A job's texts (up to megabytes) are read once; the rare benchmark message after.
        match serde_json::from_str::<Start>(text) {
            Ok(start) => run(start, reply, post),
            Err(e) => {
                if let Ok(w) = serde_json::from_str::<WeakStart>(text) {
                    let weak = crate::model::speedup::page::weak_of(&w.weak).map(|r| crate::model::speedup::weak::flatten(&r)).unwrap_or_default();
                    return reply(json!({ "weak": weak, "job": w.job }));
                }
                match serde_json::from_str::<Bench>(text) {
                    Ok(b) => reply(json!({ "bench": super::bench::speedup_fits(b.bench.full, b.bench.runs) })),
                    Err(_) => reply(json!({ "error": format!("the page sent an unreadable message: {e}") })),
                }
            }
        }
    });
}

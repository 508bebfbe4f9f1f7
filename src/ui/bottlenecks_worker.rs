//! The "Bottlenecks at scale" page's Web Worker for Extra-P experiments (`bottlenecks.html`, built as the binary
//! `sw-bottlenecks-worker`): the page never parses or fits an experiment on its own thread. Each of
//! the page's workers (`ui::worker_pool`) receives the section's texts, reads and plans them
//! ([`crate::model::bottlenecks::page::prepare`], the same in every worker) and fits its share of
//! the regions ([`crate::model::bottlenecks::Plan::shares`]); worker 0 collects the others' fits and
//! ranks them all ([`crate::model::bottlenecks::page::complete`]), so the view is the one a single
//! thread computes.
//!
//! The speed-up page also runs its weak-scaling analysis here
//! ([`crate::model::speedup::page::weak_of`]), whose search is in this worker's wasm rather
//! than the page's, which has no room for it under the page's budget; and the browser tests
//! measure the speed-up fits here ([`crate::ui::bench::speedup_fits`]), in a wasm that has the
//! page's model code.
//!
//! Messages: [`crate::model::bottlenecks::worker`] (`ToWorker` from a page, `FromWorker` back), as
//! JSON text.

use std::cell::RefCell;

use wasm_bindgen::JsCast;

use crate::model::bottlenecks::page::{complete, fit_key, prepare_parsed, ExtrapView, KEY_TEXT};
use crate::model::bottlenecks::runs::{RunOptions, RunsSummary};
use crate::model::bottlenecks::worker::{FromWorker, ToWorker, WeakAnswer};
use crate::model::bottlenecks::{fit_regions, parse, retarget, Experiment, Plan, RegionFit};
use crate::model::workspace::PageInputs;

use super::worker_main::send;

/// The script trunk writes next to a page that loads this worker (`data-loader-shim`): the
/// Bottlenecks page and the speed-up page.
pub const LOADER: &str = "sw-bottlenecks-worker_loader.js";

/// What worker 0 holds of the job it collects.
#[derive(Default)]
struct Collected {
    job: u64,
    /// The other workers' shares, by worker.
    shares: Vec<(usize, Vec<RegionFit>)>,
    /// Its own view, plan and fits, how many shares the others send, and the texts the fits
    /// depend on ([`fit_key`]), once fitted.
    mine: Option<(ExtrapView, Plan, Vec<RegionFit>, usize, PageInputs)>,
}

/// What a worker keeps between jobs: the experiment it read last (by its text), so that a
/// change of the other texts does not read it again; worker 0 also the fits of the last
/// ranking (by [`fit_key`]), so that a change of "rank at" or of the value held evaluates
/// them at the new targets rather than fitting again.
#[derive(Default)]
struct Kept {
    text: String,
    experiment: Option<Result<Experiment, crate::model::InputError>>,
    fits: Option<(PageInputs, Vec<RegionFit>)>,
}

thread_local! {
    static COLLECTED: RefCell<Collected> = RefCell::new(Collected::default());
    static KEPT: RefCell<Kept> = RefCell::new(Kept::default());
}

/// The view so far and the plan of `texts` ([`crate::model::bottlenecks::page::prepare`]), the
/// experiment read once per text.
fn prepare_kept(texts: &PageInputs) -> (ExtrapView, Option<Plan>) {
    let text = texts.get(KEY_TEXT).map(String::as_str).unwrap_or("");
    if text.trim().is_empty() {
        return (ExtrapView { empty: true, ..ExtrapView::default() }, None);
    }
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        if k.experiment.is_none() || k.text != text {
            k.experiment = None;
            k.text = text.to_string();
            k.experiment = Some(parse(text));
        }
        match k.experiment.as_ref() {
            Some(Ok(e)) => prepare_parsed(texts, e),
            Some(Err(err)) => {
                (ExtrapView { errors: vec![(KEY_TEXT.into(), err.clone())], ..ExtrapView::default() }, None)
            }
            None => (ExtrapView::default(), None),
        }
    })
}

/// The view as the page gets it: without each region's curve, which only the share chart
/// (made here, in the view) reads: about a third of the JSON that crosses to the page (some
/// 0.6 of 1.8 KB a region; 4.1 MB in all for 2,000 regions). A view of kept fits evaluated
/// at new targets (`retargeted`) also comes without the regions' points, the same as those
/// of the ranking the page shows, which it puts back (`ui::pages::bottlenecks`): two thirds
/// of what is left (34 of 50 KB for Extra-P's relearn experiment, 14 regions), which the
/// page would read at every keystroke in "rank at".
fn for_page(mut v: ExtrapView, retargeted: bool) -> ExtrapView {
    if let Some(r) = v.ranking.as_mut() {
        for f in &mut r.regions {
            f.curve = Vec::new();
            if retargeted {
                f.points = Vec::new();
            }
        }
    }
    v
}

/// Worker 0 turns to job `job`: what it held of an older one goes.
fn turn_to(c: &mut Collected, job: u64) {
    if c.job != job {
        *c = Collected { job, ..Collected::default() };
    }
}

/// Worker `worker` (of `workers`) fits its share of job `job`, the experiment of `texts`.
fn run(texts: &PageInputs, job: u64, worker: usize, workers: usize, post: &dyn Fn(&str)) {
    // A job for fewer workers than the page has (a change of "rank at"): the others sit out.
    if worker >= workers {
        return;
    }
    let progress = |fraction: f64| send(post, &FromWorker::<(), ()>::Progress { fraction, job });
    let (view, plan) = prepare_kept(texts);
    let Some(plan) = plan else {
        if worker == 0 {
            send(post, &FromWorker::<_, ()>::Done { view, job });
        }
        return;
    };
    let k = workers.clamp(1, super::worker_pool::MAX_WORKERS);
    // The same experiment, metric and process count as the last ranking: its fits evaluated
    // at the new targets (worker 0 alone; the page sends such a job to one worker).
    let key = fit_key(texts);
    if worker == 0 && k == 1 {
        let kept = KEPT.with(|c| c.borrow_mut().fits.take()).filter(|(k, _)| *k == key);
        if let Some((_, old)) = kept {
            let fits = retarget(&plan, &old);
            KEPT.with(|c| c.borrow_mut().fits = Some((key, fits.clone())));
            // No progress: the page shows none for such a job (a message less per keystroke).
            return send(post, &FromWorker::<_, ()>::Done { view: for_page(complete(view, plan, fits), true), job });
        }
    }
    let mine = plan.shares(k).into_iter().nth(worker).unwrap_or_default();
    // Read and planned (a large text takes a few hundred ms): the page may show its progress.
    progress(0.0);
    let total = mine.len().max(1) as f64;
    let mut fits = Vec::with_capacity(mine.len());
    let mut last = js_sys::Date::now();
    for i in mine.clone() {
        fits.extend(fit_regions(&plan, i..i + 1));
        let now = js_sys::Date::now();
        if now - last >= 100.0 {
            last = now;
            progress((i + 1 - mine.start) as f64 / total);
        }
    }
    // Its share is fitted: what is left is the ranking (worker 0) and the page's table.
    progress(1.0);
    if worker != 0 {
        // The page passes it to worker 0 without reading it.
        return send(post, &FromWorker::<(), _>::Partials { fits, job, worker });
    }
    COLLECTED.with(|c| {
        let mut c = c.borrow_mut();
        turn_to(&mut c, job);
        c.mine = Some((view, plan, fits, k - 1, key));
    });
    finish_if_complete(post);
}

/// Worker 0 takes worker `worker`'s share `fits` of job `job`.
fn collect(fits: Vec<RegionFit>, job: u64, worker: usize, post: &dyn Fn(&str)) {
    let stale = COLLECTED.with(|c| {
        let mut c = c.borrow_mut();
        if job < c.job {
            return true;
        }
        turn_to(&mut c, job);
        c.shares.push((worker, fits));
        false
    });
    if !stale {
        finish_if_complete(post);
    }
}

/// Worker 0: ranks and answers once its own share and every other worker's are in.
fn finish_if_complete(post: &dyn Fn(&str)) {
    let done = COLLECTED.with(|c| {
        let mut c = c.borrow_mut();
        match &c.mine {
            Some((.., others, _)) if c.shares.len() >= *others => {
                let job = c.job;
                Some((job, std::mem::take(&mut *c)))
            }
            _ => None,
        }
    });
    let Some((job, Collected { mut shares, mine: Some((view, plan, mut fits, _, key)), .. })) = done else { return };
    COLLECTED.with(|c| c.borrow_mut().job = job);
    // Worker 0's share comes first; the others' in worker order, as the plan split them.
    shares.sort_by_key(|s| s.0);
    fits.extend(shares.into_iter().flat_map(|s| s.1));
    KEPT.with(|c| c.borrow_mut().fits = Some((key, fits.clone())));
    send(post, &FromWorker::<_, ()>::Done { view: for_page(complete(view, plan, fits), false), job });
}

/// Reads the files the page posted (Score-P runs, or a saved Extra-P experiment) one at a time
/// ([`crate::model::bottlenecks::runs::read_set`]), each dropped once reduced, and answers with the
/// experiment as text: `progress` after each file, then `loaded` (or `unreadable`).
fn read_files(options: &RunOptions, paths: &[String], files: &js_sys::Array, job: u64, post: &dyn Fn(&str)) {
    use crate::model::bottlenecks::runs::{read_set, to_json_text, to_text, LIMITS};
    let reader = web_sys::FileReaderSync::new().ok();
    let bytes_of = |i: usize| -> Result<Vec<u8>, String> {
        let file: web_sys::File =
            files.get(i as u32).dyn_into().map_err(|_| "the page did not pass this file".to_string())?;
        if file.size() > LIMITS.file_bytes as f64 {
            return Err(format!(
                "{} bytes is more than the {} MB of one file read (the limit of file bytes)",
                file.size(),
                LIMITS.file_bytes >> 20
            ));
        }
        let reader = reader.as_ref().ok_or("this browser cannot read files in a worker")?;
        let buffer =
            reader.read_as_array_buffer(&file).map_err(|_| "the browser could not read the file".to_string())?;
        Ok(js_sys::Uint8Array::new(&buffer).to_vec())
    };
    let mut last = js_sys::Date::now();
    let mut progress = |done: usize, total: usize| {
        let now = js_sys::Date::now();
        if now - last >= 100.0 || done == total {
            last = now;
            send(post, &FromWorker::<(), ()>::Progress { fraction: done as f64 / total.max(1) as f64, job });
        }
    };
    // One file of no profile's name: a profile of another name read as runs (from the bytes
    // read here: `kept`), or an experiment's text (JSON, say), given back as it is.
    let mut kept: Option<Vec<u8>> = None;
    if let [one] = paths {
        use crate::model::bottlenecks::{formats, Format};
        if formats::by_name(one).is_none() {
            let text = match bytes_of(0) {
                Ok(b) if formats::detect(one, &b[..b.len().min(formats::HEAD)]) == Ok(Format::Text) => {
                    String::from_utf8(b).map_err(|_| format!("{one}: not UTF-8 text"))
                }
                Ok(b) => {
                    kept = Some(b);
                    Err(String::new())
                }
                Err(m) => Err(format!("{one}: {m}")),
            };
            let max = crate::model::workspace::MAX_FIELD_BYTES;
            let unreadable = |message: String| send(post, &FromWorker::<(), ()>::Unreadable { message, job });
            match text {
                Ok(t) if t.len() > max => {
                    return unreadable(format!(
                        "{one}: {} KB is more than the {} KB an input keeps; nothing changed. Use `scalewise bottlenecks` for larger files.",
                        t.len() >> 10,
                        max >> 10
                    ))
                }
                Ok(text) => {
                    let summary = Box::new(RunsSummary { source: "text".into(), runs: 1, ..RunsSummary::default() });
                    return send(post, &FromWorker::<(), ()>::Loaded { text, summary, job });
                }
                Err(m) if !m.is_empty() => return unreadable(m),
                Err(_) => {}
            }
        }
    }
    let mut bytes_of = |i: usize| match kept.take() {
        Some(b) if i == 0 => Ok(b),
        _ => bytes_of(i),
    };
    match read_set(paths, options, &LIMITS, &mut bytes_of, &mut progress) {
        Ok((e, summary)) => {
            let text = if summary.source == "saved" { to_json_text(&e) } else { to_text(&e, &summary) };
            send(post, &FromWorker::<(), ()>::Loaded { text, summary: Box::new(summary), job });
        }
        Err(err) => send(post, &FromWorker::<(), ()>::Unreadable { message: err.to_string(), job }),
    }
}

/// The worker's entry point: listen for jobs.
pub fn start() {
    super::worker_main::listen_with_files(|text, files, post| {
        // Another worker's share (passed on by the page) or a page's message; a job's texts
        // (up to megabytes) are read once.
        if text.starts_with(crate::model::workers::PASS_ON) {
            if let Ok(FromWorker::Partials { fits, job, worker }) = serde_json::from_str::<FromWorker>(text) {
                return collect(fits, job, worker, post);
            }
        }
        match serde_json::from_str::<ToWorker<PageInputs>>(text) {
            Ok(ToWorker::Start { texts, job, worker, workers }) => run(&texts, job, worker, workers, post),
            Ok(ToWorker::Weak { inputs, job }) => {
                let flat = crate::model::speedup::page::weak_of(&inputs)
                    .map(|r| crate::model::speedup::weak::flatten(&r))
                    .unwrap_or_default();
                send(post, &WeakAnswer { weak: flat, job });
            }
            Ok(ToWorker::Bench { full, runs }) => {
                send(post, &FromWorker::<(), ()>::Bench(super::bench::speedup_fits(full, runs)))
            }
            Ok(ToWorker::Read { options, paths, job }) => read_files(&options, &paths, files, job, post),
            Err(e) => send(post, &FromWorker::<(), ()>::Error(format!("the page sent an unreadable message: {e}"))),
        }
    });
}

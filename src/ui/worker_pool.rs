//! A page's Web Workers (one per core, at most [`MAX_WORKERS`]), kept between jobs: starting
//! one and compiling its wasm takes 50 to 150 ms. The simulation page runs its simulations on
//! them (`ui::simulate_worker`), the Bottlenecks page its Extra-P rankings (`ui::bottlenecks_worker`),
//! and the speed-up page its weak-scaling analysis (one worker of `ui::bottlenecks_worker`).
//!
//! The page posts each worker its part of a job as JSON text. A worker answers with JSON
//! text: `{"ready": true}` once it listens (messages for it are held until then, since a
//! message that arrives before its wasm has set its handler is lost); `{"partials": …}`, a
//! share of the work, which the pool passes unread to worker 0, the one that collects; or any
//! other message, which goes to the page's [`Job`]. A job that fails, is cancelled or is
//! replaced ends the workers (a busy worker cannot be interrupted); the next job starts new
//! ones.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{BroadcastChannel, MessageEvent, Worker, WorkerOptions};

/// Most workers a page starts for one job.
pub const MAX_WORKERS: usize = 4;
/// What a worker says once it listens (`ui::worker_main::listen`).
pub const READY: &str = "{\"ready\":true}";

/// What a page does with its workers' messages during one job.
pub trait Job {
    /// A message (JSON text) from worker `i`. Some(true): the job is finished and the workers
    /// are idle (they serve the next job); Some(false): it failed, and the workers go; None: it
    /// goes on.
    fn on_message(&mut self, i: usize, text: &str) -> Option<bool>;
    /// A worker failed to load or stopped: the job is over.
    fn on_error(&mut self);
}

/// A worker's message and error handlers.
type Handlers = (Closure<dyn FnMut(MessageEvent)>, Closure<dyn FnMut(web_sys::Event)>);

#[derive(Default)]
pub struct Pool {
    workers: Vec<Worker>,
    /// The channel each worker answers on, named after it (see [`warm`]).
    channels: Vec<Option<BroadcastChannel>>,
    /// Which workers have said they listen.
    ready: Vec<bool>,
    /// Messages for each worker, held until it is ready: a text, or a list of a text and files.
    pending: Vec<Vec<JsValue>>,
    job: Option<Box<dyn Job>>,
    /// The workers were terminated (from inside a handler, which cannot drop itself): the next
    /// job replaces them.
    ended: bool,
    /// The workers' handlers, kept alive as long as the workers may call them.
    _handlers: Vec<Handlers>,
}

pub type PoolSlot = Rc<RefCell<Pool>>;

impl Pool {
    /// Whether a job is under way.
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    fn terminate(&mut self) {
        // A message a worker posted before it ended may still be queued on this thread: with
        // the handlers unset first, it reaches none, so the handlers can be dropped (`stop`,
        // a new pool) without the browser calling a dropped closure.
        for w in &self.workers {
            w.set_onmessage(None);
            w.set_onerror(None);
            w.terminate();
        }
        for c in self.channels.iter().flatten() {
            c.set_onmessage(None);
            c.close();
        }
        self.ended = true;
        self.job = None;
    }

    /// Posts `text` to worker `i` now if it listens, else once it does.
    fn send(&mut self, i: usize, text: String) {
        self.post(i, JsValue::from_str(&text));
    }

    /// Posts `message` (a text, or a list of a text and files) to worker `i` now if it
    /// listens, else once it does.
    fn post(&mut self, i: usize, message: JsValue) {
        match (self.ready.get(i), self.workers.get(i), self.pending.get_mut(i)) {
            (Some(true), Some(w), _) => {
                let _ = w.post_message(&message);
            }
            (_, _, Some(queue)) => queue.push(message),
            _ => {}
        }
    }

    /// What worker `i` said.
    fn on_message(&mut self, i: usize, text: String) {
        if text.starts_with(crate::model::workers::PASS_ON) {
            return self.send(0, text);
        }
        if text == READY {
            if let Some(r) = self.ready.get_mut(i) {
                *r = true;
            }
            let held = self.pending.get_mut(i).map(std::mem::take).unwrap_or_default();
            for message in held {
                self.post(i, message);
            }
            return;
        }
        let Some(job) = &mut self.job else { return };
        match job.on_message(i, &text) {
            Some(true) => self.job = None,
            Some(false) => self.terminate(),
            None => {}
        }
    }

    fn on_error(&mut self) {
        let job = self.job.take();
        self.terminate();
        if let Some(mut job) = job {
            job.on_error();
        }
    }
}

/// Ends the workers and any job (whose page hears nothing more).
pub fn stop(slot: &PoolSlot) {
    let mut pool = slot.borrow_mut();
    pool.terminate();
    *pool = Pool::default();
}

/// How many workers share a job: one per core the browser reports, at most [`MAX_WORKERS`].
pub fn worker_count() -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (cores as usize).clamp(1, MAX_WORKERS)
}

/// Starts the workers of `script` (trunk's loader of the worker binary), unless they are
/// there: false when the browser cannot. Each worker is named after a channel of its own
/// (a BroadcastChannel, the name unique to this pool) and answers there
/// (`ui::worker_main::listen`): after a keystroke Chrome holds a worker's own messages back
/// until the page has drawn the next frame, which put every answer, however quick, a frame
/// (16.7 ms) behind the key; a channel's messages come as they are posted. Where the browser
/// has no such channel, the worker answers on its own port.
pub fn warm(slot: &PoolSlot, script: &str) -> bool {
    warm_k(slot, script, worker_count())
}

/// [`warm`] with `k` workers.
fn warm_k(slot: &PoolSlot, script: &str, k: usize) -> bool {
    if !slot.borrow().workers.is_empty() && !slot.borrow().ended {
        return true;
    }
    stop(slot);
    let mut workers = Vec::with_capacity(k);
    let mut channels = Vec::with_capacity(k);
    let pool_name = format!("{script}#{}", js_sys::Math::random());
    for i in 0..k {
        let name = format!("{pool_name}.{i}");
        let options = WorkerOptions::new();
        let channel = BroadcastChannel::new(&name).ok();
        if channel.is_some() {
            options.set_name(&name);
        }
        channels.push(channel);
        match Worker::new_with_options(script, &options) {
            Ok(w) => workers.push(w),
            Err(_) => {
                workers.iter().for_each(Worker::terminate);
                return false;
            }
        }
    }
    let mut handlers = Vec::with_capacity(k);
    for (i, worker) in workers.iter().enumerate() {
        let pool = Rc::downgrade(slot);
        let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            if let (Some(text), Some(pool)) = (e.data().as_string(), pool.upgrade()) {
                pool.borrow_mut().on_message(i, text);
            }
        });
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        if let Some(Some(c)) = channels.get(i) {
            c.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        }
        let pool = Rc::downgrade(slot);
        let onerror = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
            if let Some(pool) = pool.upgrade() {
                pool.borrow_mut().on_error();
            }
        });
        worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        handlers.push((onmessage, onerror));
    }
    *slot.borrow_mut() = Pool {
        ready: vec![false; k],
        pending: vec![Vec::new(); k],
        workers,
        channels,
        _handlers: handlers,
        ..Pool::default()
    };
    true
}

/// Starts `job` on the workers of `script` (started now unless they are there): worker `i` of
/// `k` is sent `part(i, k)`. False, and nothing started, when a job is under way or the
/// browser cannot start workers.
pub fn start(slot: &PoolSlot, script: &str, part: &dyn Fn(usize, usize) -> String, job: Box<dyn Job>) -> bool {
    start_on(slot, script, worker_count(), part, job)
}

/// [`start`] on `k` workers (the first job's `k` stays while the workers do).
pub fn start_on(
    slot: &PoolSlot,
    script: &str,
    k: usize,
    part: &dyn Fn(usize, usize) -> String,
    job: Box<dyn Job>,
) -> bool {
    if slot.borrow().busy() || !warm_k(slot, script, k) {
        return false;
    }
    let mut pool = slot.borrow_mut();
    let k = pool.workers.len();
    for i in 0..k {
        pool.send(i, part(i, k));
    }
    pool.job = Some(job);
    true
}

/// Starts `job` on one worker of `script`, posting it `text` with `files` (`web_sys::File`s,
/// which the browser hands the worker without copying their bytes): false, and nothing
/// started, when a job is under way or the browser cannot start a worker.
pub fn start_with_files(slot: &PoolSlot, script: &str, text: &str, files: &js_sys::Array, job: Box<dyn Job>) -> bool {
    if slot.borrow().busy() || !warm_k(slot, script, 1) {
        return false;
    }
    let message = js_sys::Array::of1(&JsValue::from_str(text));
    for f in files.iter() {
        message.push(&f);
    }
    let mut pool = slot.borrow_mut();
    pool.post(0, message.into());
    pool.job = Some(job);
    true
}

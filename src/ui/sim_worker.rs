//! The simulation page's Web Worker: it receives the page's inputs as JSON, prepares the job,
//! runs it in slices and posts back progress and the finished `ResultView`, all as JSON
//! strings. The page cancels a run by terminating the worker. Built as its own binary
//! (`src/bin/sw-simulate-worker.rs`), so the page's main thread never freezes.
//!
//! Messages to the page: `{"ready": true}` once listening, then per job `{"progress": f}`
//! (about every 100 ms), and one of `{"done": ResultView}`, `{"errors": [text]}` (the inputs
//! do not prepare) or `{"error": text}` (the run stopped on an error). The message `"bench"`
//! instead of inputs runs the Jacobi study of `ui::bench::jacobi_study` and answers
//! `{"bench_ms": ms}`, so browser benchmarks time the engine where the page runs it.

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::model::pevpm::sim::{Progress, Simulation};
use crate::model::simulate_page::{prepare, view};
use crate::model::workspace::PageInputs;

/// Ops a slice runs before the worker looks at the clock (about 10 ms).
const SLICE: u64 = 100_000;

fn run(text: &str, reply: &dyn Fn(Value)) {
    let inputs: PageInputs = match serde_json::from_str(text) {
        Ok(i) => i,
        Err(e) => return reply(json!({ "error": format!("the page sent unreadable inputs: {e}") })),
    };
    let job = match prepare(&inputs) {
        Ok(job) => job,
        Err(errors) => return reply(json!({ "errors": errors.iter().map(|e| e.to_string()).collect::<Vec<_>>() })),
    };
    let mut sim = match Simulation::new(job) {
        Ok(s) => s,
        Err(e) => return reply(json!({ "error": e.to_string() })),
    };
    let mut last = js_sys::Date::now();
    loop {
        match sim.step(SLICE) {
            Ok(Progress::Running { fraction }) => {
                let now = js_sys::Date::now();
                if now - last >= 100.0 {
                    last = now;
                    reply(json!({ "progress": fraction }));
                }
            }
            Ok(Progress::Done(report)) => return reply(json!({ "done": view(&report) })),
            Err(e) => return reply(json!({ "error": e.to_string() })),
        }
    }
}

/// The worker's entry point: listen for jobs, then say it is ready.
pub fn start() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post = scope.clone();
    let onmessage = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
        let Some(text) = e.data().as_string() else { return };
        let reply = |v: Value| {
            let _ = post.post_message(&JsValue::from_str(&v.to_string()));
        };
        if text == "bench" {
            reply(json!({ "bench_ms": super::bench::jacobi_study() }));
        } else {
            run(&text, &reply);
        }
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    let _ = scope.post_message(&JsValue::from_str("{\"ready\":true}"));
}

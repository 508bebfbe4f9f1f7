//! The worker side of `ui::worker_pool`: a worker binary's entry point listens for the page's
//! messages (JSON text), answers through the reply it is handed, and says it is ready.

use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Calls `handle` with every text the page posts and a reply that posts a text back, then
/// tells the page this worker listens.
pub fn listen(handle: impl Fn(&str, &dyn Fn(&str)) + 'static) {
    listen_with_files(move |text, _files, post| handle(text, post));
}

/// [`listen`] for a worker that is also posted files: a message that is a list holds its text
/// first and the files (`web_sys::File`) after it, which `handle` is given (an empty list
/// for a text alone).
pub fn listen_with_files(handle: impl Fn(&str, &js_sys::Array, &dyn Fn(&str)) + 'static) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    // The page names a worker after the channel it hears this worker on (`worker_pool`): the
    // answers go there rather than to the worker's own port, whose messages Chrome holds back
    // after a keystroke until the page has drawn the next frame, a frame late (16.7 ms).
    let name = scope.name();
    let channel = (!name.is_empty()).then(|| web_sys::BroadcastChannel::new(&name).ok()).flatten();
    let post = move |t: &str| {
        let t = JsValue::from_str(t);
        let _ = match &channel {
            Some(c) => c.post_message(&t),
            None => scope.post_message(&t),
        };
    };
    let ready = post.clone();
    let onmessage = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
        let data = e.data();
        let (text, files) = match data.dyn_ref::<js_sys::Array>() {
            Some(list) => (list.get(0).as_string(), list.slice(1, list.length())),
            None => (data.as_string(), js_sys::Array::new()),
        };
        let Some(text) = text else { return };
        handle(&text, &files, &post);
    });
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    ready(super::worker_pool::READY);
}

/// `message` as JSON text, posted through `post`.
pub fn send(post: &dyn Fn(&str), message: &impl Serialize) {
    match serde_json::to_string(message) {
        Ok(text) => post(&text),
        Err(e) => {
            let why =
                serde_json::to_string(&format!("this worker could not write its answer: {e}")).unwrap_or_default();
            post(&format!("{{\"error\":{why}}}"));
        }
    }
}

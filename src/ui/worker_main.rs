//! The worker side of `ui::worker_pool`: a worker binary's entry point listens for the page's
//! messages (JSON text), answers through the reply it is handed, and says it is ready.

use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Calls `handle` with every text the page posts, a reply that posts a JSON value back and
/// one that posts a text as it is, then tells the page this worker listens.
pub fn listen(handle: impl Fn(&str, &dyn Fn(Value), &dyn Fn(&str)) + 'static) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post = scope.clone();
    let onmessage = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
        let Some(text) = e.data().as_string() else { return };
        let text_back = |t: &str| {
            let _ = post.post_message(&JsValue::from_str(t));
        };
        handle(&text, &|v: Value| text_back(&v.to_string()), &text_back);
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    let _ = scope.post_message(&JsValue::from_str(super::worker_pool::READY));
}

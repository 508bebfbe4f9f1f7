//! The workspace in the browser (format 2, `model::workspace::records`): one record per input
//! in IndexedDB, through `window.scalewiseStore` (static/site.js), which also posts every
//! write to the site's other tabs. A save writes only the records that changed since this tab
//! last saw them, so a tab never writes an old copy of anything back; the other tabs' writes
//! are applied as they come ([`listen`]). Two tabs that edit the same input at once: the later
//! keystroke wins, in storage and in both tabs (site.js compares time stamps).
//!
//! A tab's own page (a share link's, an embed's) is kept in its sessionStorage instead, and
//! never written over the site's. A format-1 workspace (the localStorage key of earlier
//! builds) is taken in on load, and what a tab of an earlier build changes there later is
//! taken in on the next load ([`records::from_v1`]).

use std::cell::{Cell, RefCell};

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use yew::UseReducerDispatcher;

use super::store::{Action, Store};
use crate::model::workspace::records::{self, Change};
use crate::model::workspace::share::{self, SharedPage};
use crate::model::workspace::{too_much, Workspace, MAX_FIELD_BYTES, MAX_SAVED_BYTES};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = scalewiseStore, js_name = load)]
    fn js_load() -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = scalewiseStore, js_name = put)]
    fn js_put(key: &str, text: Option<String>) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = scalewiseStore, js_name = listen)]
    fn js_listen(f: &Closure<dyn FnMut(String, Option<String>)>) -> Result<(), JsValue>;
}

/// Where builds of workspace format 1 kept the whole workspace.
const V1_KEY: &str = "scalewise.workspace";
/// sessionStorage: a tab's own inputs of a page.
const OWN_PREFIX: &str = "scalewise.own/";

thread_local! {
    /// What storage holds, as far as this tab knows.
    static SAVED: RefCell<Workspace> = RefCell::new(Workspace::default());
    /// Records whose last write failed: written again with the next save.
    static UNSAVED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    /// A write failed and none has succeeded since.
    static FAILED: Cell<bool> = const { Cell::new(false) };
    /// The storage holds a newer format: this tab never writes to it.
    static READ_ONLY: Cell<bool> = const { Cell::new(false) };
    /// The page last kept in sessionStorage as the tab's own.
    static OWN: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// localStorage (or sessionStorage), when the browser lets this page have it. An embed on
/// another site with third-party storage blocked, or a window that keeps no data, may not:
/// then None, and the inputs stay in the tab (reaching for it must not throw: a panic here
/// would stop the page at "Opening your inputs…").
fn web_storage(session: bool) -> Option<web_sys::Storage> {
    let w = web_sys::window()?;
    if session { w.session_storage() } else { w.local_storage() }.ok().flatten()
}

/// Why the browser refused, from the error's name (site.js passes it on).
fn explain(e: JsValue) -> String {
    let why = match e.as_string().as_deref() {
        Some("QuotaExceededError") => "the browser's storage for this site is full".into(),
        // Chromium names no error when it denies an embed on another site its storage.
        Some("SecurityError" | "InvalidStateError" | "NotAllowedError" | "UnknownError") => {
            "this browser does not let this page keep data (storage is turned off or blocked for pages embedded in \
             another site, or this private window keeps none)"
                .into()
        }
        Some(other) => format!("the browser refused ({other})"),
        None => "the browser's storage could not be reached".into(),
    };
    format!(
        "Your inputs could not be saved in this browser: {why}. They stay on this page while it is open; \
         export the workspace to keep them."
    )
}

/// Reads the saved workspace (taking in a format-1 one), and a sentence on anything that could
/// not be read or written.
pub async fn load(dispatch: &UseReducerDispatcher<Store>) -> (Workspace, Option<String>) {
    let text = match js_load() {
        Ok(p) => JsFuture::from(p).await,
        Err(e) => Err(e),
    };
    let (ws, changes, notes) = take_in(text);
    write(changes, dispatch);
    (ws, notes)
}

/// [`load`]'s work once the records are read (or could not be): apart, so that it is not
/// copied into the async code that waits for them.
#[inline(never)]
fn take_in(text: Result<JsValue, JsValue>) -> (Workspace, Vec<Change>, Option<String>) {
    let mut notes = Vec::new();
    let rows: Vec<(String, String)> = match text {
        Ok(t) => serde_json::from_str(&t.as_string().unwrap_or_default()).unwrap_or_default(),
        Err(e) => {
            notes.push(explain(e));
            Vec::new()
        }
    };
    let mut changes = Vec::new();
    let ws = match records::read(&rows) {
        Ok((mut ws, meta, problems)) => {
            if let Some(first) = problems.first() {
                notes.push(format!(
                    "{} saved input(s) could not be read and are not shown; the first: {first}.",
                    problems.len()
                ));
            }
            let v1 = web_storage(false).and_then(|s| s.get_item(V1_KEY).ok().flatten()).unwrap_or_default();
            let (taken, problem) = records::from_v1(&v1, &meta);
            if let Some(p) = problem {
                notes.push(format!(
                    "Your inputs saved by an earlier version could not be read ({p}); they are left as they were."
                ));
            }
            for (key, text) in &taken {
                let _ = records::apply(&mut ws, key, text.as_deref());
            }
            changes = taken;
            SAVED.set(ws.clone());
            ws
        }
        Err(e) => {
            READ_ONLY.set(true);
            notes.push(format!(
                "Your saved inputs are not shown, and nothing is saved from this page: they were {}.",
                e.message
            ));
            Workspace::default()
        }
    };
    (ws, changes, (!notes.is_empty()).then(|| notes.join(" ")))
}

/// Writes records, each on its own; a failure is said (and the record written again with the
/// next save), and the first success after failures clears it.
#[inline(never)]
fn write(changes: Vec<Change>, dispatch: &UseReducerDispatcher<Store>) {
    for (key, text) in changes {
        let dispatch = dispatch.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let done = match js_put(&key, text) {
                Ok(p) => JsFuture::from(p).await.map(|_| ()),
                Err(e) => Err(e),
            };
            match done {
                Ok(()) => {
                    let all_saved = UNSAVED.with(|u| {
                        let mut u = u.borrow_mut();
                        u.retain(|k| *k != key);
                        u.is_empty()
                    });
                    if all_saved && FAILED.replace(false) {
                        dispatch.dispatch(Action::SaveResult(None));
                    }
                }
                Err(e) => {
                    // An input or the catalog is written again with the next save (the format
                    // records, with the next load).
                    if matches!(records::parse_key(&key), Some(records::Key::Input { .. } | records::Key::Catalog)) {
                        UNSAVED.with(|u| {
                            let mut u = u.borrow_mut();
                            if !u.contains(&key) {
                                u.push(key);
                            }
                        });
                    }
                    FAILED.set(true);
                    dispatch.dispatch(Action::SaveResult(Some(explain(e))));
                }
            }
        });
    }
}

/// Saves what changed: the site's records, or the tab's own page in its sessionStorage.
#[inline(never)]
pub fn save(store: &Store, dispatch: &UseReducerDispatcher<Store>) {
    if !store.loaded {
        return;
    }
    let own = store.own.clone();
    if let Some(page) = &own {
        // The page as a share link holds it: its inputs now, and the clusters it carried.
        let inputs = store.ws.pages.get(page).cloned().unwrap_or_default();
        let (clusters, links) =
            store.shared.as_ref().map(|s| (s.clusters.clone(), s.links.clone())).unwrap_or_default();
        let kept = SharedPage { v: 1, page: page.clone(), inputs, clusters, links };
        if let Some(s) = web_storage(true) {
            let _ = s.set_item(&format!("{OWN_PREFIX}{page}"), &serde_json::to_string(&kept).unwrap_or_default());
        }
    }
    let last = OWN.with(|o| o.replace(own.clone()));
    if let (Some(page), Some(s)) = (last.filter(|p| Some(p) != own.as_ref()), web_storage(true)) {
        let _ = s.remove_item(&format!("{OWN_PREFIX}{page}"));
    }
    if store.embed || READ_ONLY.get() {
        return;
    }
    let ws = &store.ws;
    let mut refused = None;
    let bytes = ws.text_bytes();
    let mut changes: Vec<Change> = if bytes > MAX_SAVED_BYTES {
        refused = Some(too_much(bytes));
        Vec::new()
    } else {
        SAVED.with(|s| records::changes(&s.borrow(), ws, &|p| store.is_own(p)))
    };
    changes.retain(|(key, text)| {
        let big = text.as_ref().is_some_and(|t| t.len() > MAX_FIELD_BYTES);
        if big {
            refused = Some(format!(
                "{key}: {} bytes is more than the {MAX_FIELD_BYTES} an input keeps",
                text.as_ref().map_or(0, String::len)
            ));
        }
        !big
    });
    // Records that failed before are written again, as they are now.
    let retry: Vec<String> =
        UNSAVED.with(|u| u.borrow().iter().filter(|k| !changes.iter().any(|c| &c.0 == *k)).cloned().collect());
    for key in retry {
        let text = match records::parse_key(&key) {
            Some(records::Key::Input { page, name }) => ws.pages.get(page).and_then(|i| i.get(name)).cloned(),
            Some(records::Key::Catalog) => serde_json::to_string(&ws.catalog).ok(),
            _ => continue,
        };
        if text.as_ref().is_none_or(|t| t.len() <= MAX_FIELD_BYTES) {
            changes.push((key, text));
        }
    }
    SAVED.with(|s| {
        let mut s = s.borrow_mut();
        for (key, text) in &changes {
            let _ = records::apply(&mut s, key, text.as_deref());
        }
    });
    let said = match refused {
        Some(why) => Some(format!(
            "Not saved in this browser: {why}. It stays on this page while it is open; export the workspace to keep it."
        )),
        // A refusal is over once nothing is refused; a failed write once a write succeeds.
        None if !FAILED.get() => None,
        None => store.save_error.clone(),
    };
    if said != store.save_error {
        dispatch.dispatch(Action::SaveResult(said));
    }
    write(changes, dispatch);
}

/// Applies the records other tabs write, from now on.
pub fn listen(dispatch: UseReducerDispatcher<Store>) {
    let f = Closure::<dyn FnMut(String, Option<String>)>::new(move |key: String, text: Option<String>| {
        SAVED.with(|s| {
            let _ = records::apply(&mut s.borrow_mut(), &key, text.as_deref());
        });
        dispatch.dispatch(Action::Remote { key, text });
    });
    if js_listen(&f).is_ok() {
        f.forget();
    }
}

/// The tab's own inputs of `page` kept in its sessionStorage (a share link opened in this
/// tab, then reloaded), read as a link is.
pub fn own_inputs(page: &str) -> Option<SharedPage> {
    let text = web_storage(true)?.get_item(&format!("{OWN_PREFIX}{page}")).ok().flatten()?;
    share::unpack(text.as_bytes()).ok().filter(|s| s.page == page)
}

//! Export and import of the whole workspace as a JSON file. An import is validated in full
//! before anything changes; a failed one says why and leaves the workspace as it was, and a
//! good one can be undone.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::file::callbacks::FileReader;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::model::workspace::Workspace;
use crate::ui::store::{use_store, Action, StoreHandle};

/// Downloads the workspace as it stands in this tab.
pub fn export(store: &StoreHandle) -> Callback<MouseEvent> {
    let store = store.clone();
    Callback::from(move |_| {
        if let Err(msg) = download("scalewise-workspace.json", "application/json", &store.ws.to_json()) {
            store.dispatch(Action::Notice(Some(msg)));
        }
    })
}

#[component(WorkspaceFile)]
pub fn workspace_file() -> Html {
    let store = use_store();
    let reader: Rc<RefCell<Option<FileReader>>> = use_mut_ref(|| None);
    let export = export(&store);

    let import = {
        let store = store.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) else { return };
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            let name = file.name();
            let store = store.clone();
            let task = gloo::file::callbacks::read_as_text(&file.into(), move |result| match result {
                Ok(text) => match Workspace::from_json(&format!("imported file {name}"), &text) {
                    Ok(ws) => store.dispatch(Action::Replace(ws)),
                    Err(e) => store.dispatch(Action::Notice(Some(format!("Import failed, nothing changed. {e}")))),
                },
                Err(e) => store.dispatch(Action::Notice(Some(format!("Import failed: cannot read {name}: {e}")))),
            });
            *reader.borrow_mut() = Some(task);
            input.set_value("");
        })
    };

    html! {
        <div class="workspace-file">
            <button id="export-workspace" onclick={export}>{ "Export workspace" }</button>
            <label class="button">
                { "Import workspace" }
                <input id="import-workspace" type="file" accept=".json,application/json" onchange={import} />
            </label>
        </div>
    }
}

/// Offers `content` as a file download.
pub fn download(filename: &str, mime: &str, content: &str) -> Result<(), String> {
    let fail = |what: &str| format!("Could not prepare the download ({what}).");
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(content));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(|_| fail("blob"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| fail("object URL"))?;
    let doc = gloo::utils::document();
    let a = doc
        .create_element("a")
        .ok()
        .and_then(|el| el.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        .ok_or_else(|| fail("link"))?;
    a.set_href(&url);
    a.set_download(filename);
    a.click();
    // The browser fetches the object URL after this returns: revoking it at once can cancel
    // the download. Let it go after a while instead.
    gloo::timers::callback::Timeout::new(60_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    Ok(())
}

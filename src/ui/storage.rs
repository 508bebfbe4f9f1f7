//! Autosave in the browser's local storage. A saved workspace that cannot be read (damaged,
//! or written by a newer scalewise) is moved aside, never silently overwritten.

use gloo::storage::{LocalStorage, Storage};

use crate::model::workspace::{validate_page, PageInputs, Workspace, MAX_WORKSPACE_BYTES};

const KEY: &str = "scalewise.workspace";
const UNREADABLE_KEY: &str = "scalewise.workspace.unreadable";
const BACKUP_KEY: &str = "scalewise.before-share";

/// The saved workspace, or the default one and a sentence saying why the saved one was set aside.
pub fn load() -> (Workspace, Option<String>) {
    let raw = LocalStorage::raw().get_item(KEY).ok().flatten();
    let Some(text) = raw else { return (Workspace::default(), None) };
    match Workspace::from_json("saved workspace", &text) {
        Ok(ws) => (ws, None),
        Err(e) => {
            let _ = LocalStorage::raw().set_item(UNREADABLE_KEY, &text);
            let _ = LocalStorage::raw().remove_item(KEY);
            (
                Workspace::default(),
                Some(format!(
                    "Your saved workspace could not be read ({e}). It is kept in local storage under \
                     \"{UNREADABLE_KEY}\"; the presets are shown instead."
                )),
            )
        }
    }
}

/// Saves; returns a message when the browser refuses (storage full or disabled), or when the
/// workspace would not read back (an input or the whole beyond the sizes a saved workspace
/// may have): then the last save stays, and the inputs live on in this tab.
pub fn save(ws: &Workspace) -> Option<String> {
    for (page, inputs) in &ws.pages {
        if let Err(e) = validate_page("saved workspace", page, inputs) {
            return Some(format!("Not saved in this browser: {}. It is used in this tab; export the workspace to keep it.", e.message));
        }
    }
    let json = ws.to_json();
    if json.len() > MAX_WORKSPACE_BYTES {
        return Some(format!(
            "Not saved in this browser: the workspace is {} KB, more than the {} KB a saved one may be. It is used in this tab; export the workspace to keep it.",
            json.len() / 1024,
            MAX_WORKSPACE_BYTES / 1024
        ));
    }
    match LocalStorage::raw().set_item(KEY, &json) {
        Ok(()) => None,
        Err(_) => Some("The browser refused to save your inputs (storage full or disabled): export the \
                        workspace to keep them."
            .into()),
    }
}

/// Keeps a page's inputs that a share link is about to replace.
pub fn save_backup(page: &str, inputs: &PageInputs) {
    let value = crate::model::workspace::share::SharedPage { v: 1, page: page.to_string(), inputs: inputs.clone() };
    if let Ok(text) = serde_json::to_string(&value) {
        let _ = LocalStorage::raw().set_item(BACKUP_KEY, &text);
    }
}

//! The workspace store: one reducer at the top of the app, handed to every page through a
//! context. Pages read their input texts from it and dispatch edits; the app autosaves it.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::workspace::catalog::{self, Catalog};
use crate::model::workspace::share::SharedPage;
use crate::model::workspace::{PageInputs, Workspace};

#[derive(Debug, Clone, PartialEq)]
pub struct Store {
    pub ws: Rc<Workspace>,
    /// A page's inputs as they were before a share link replaced them, for "restore".
    pub before_share: Option<(String, PageInputs)>,
    /// A message for the whole app (a failed import, an unreadable saved workspace).
    pub notice: Option<String>,
}

pub enum Action {
    /// Replaces one page's inputs (a preset, a reset).
    SetPage { page: &'static str, inputs: PageInputs },
    /// Edits one page's inputs; an untouched page starts from its defaults.
    EditPage { page: &'static str, defaults: fn() -> PageInputs, edit: Rc<dyn Fn(&mut PageInputs)> },
    LoadShared(SharedPage),
    RestoreBeforeShare,
    DismissBeforeShare,
    /// A validated import.
    Replace(Workspace),
    SetCatalog(Catalog),
    ResetCatalog,
    Notice(Option<String>),
}

impl Store {
    pub fn new(ws: Workspace, notice: Option<String>) -> Self {
        Store { ws: Rc::new(ws), before_share: None, notice }
    }

    pub fn page_inputs(&self, page: &str) -> PageInputs {
        self.ws.pages.get(page).cloned().unwrap_or_default()
    }

    /// A page's inputs, or its defaults while the user has not touched it.
    pub fn inputs_or(&self, page: &str, defaults: fn() -> PageInputs) -> PageInputs {
        self.ws.pages.get(page).filter(|m| !m.is_empty()).cloned().unwrap_or_else(defaults)
    }
}

impl Reducible for Store {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::SetPage { page, inputs } => {
                Rc::make_mut(&mut next.ws).pages.insert(page.to_string(), inputs);
            }
            Action::EditPage { page, defaults, edit } => {
                let mut inputs = self.inputs_or(page, defaults);
                edit(&mut inputs);
                Rc::make_mut(&mut next.ws).pages.insert(page.to_string(), inputs);
            }
            Action::LoadShared(shared) => {
                let previous = self.page_inputs(&shared.page);
                if !previous.is_empty() && previous != shared.inputs {
                    super::storage::save_backup(&shared.page, &previous);
                    next.before_share = Some((shared.page.clone(), previous));
                }
                Rc::make_mut(&mut next.ws).pages.insert(shared.page, shared.inputs);
            }
            Action::RestoreBeforeShare => {
                if let Some((page, inputs)) = next.before_share.take() {
                    Rc::make_mut(&mut next.ws).pages.insert(page, inputs);
                }
            }
            Action::DismissBeforeShare => next.before_share = None,
            Action::Replace(ws) => {
                next.ws = Rc::new(ws);
                next.notice = Some("Workspace imported.".into());
            }
            Action::SetCatalog(catalog) => Rc::make_mut(&mut next.ws).catalog = catalog,
            Action::ResetCatalog => Rc::make_mut(&mut next.ws).catalog = catalog::presets(),
            Action::Notice(n) => next.notice = n,
        }
        Rc::new(next)
    }
}

pub type StoreHandle = UseReducerHandle<Store>;

/// The store from the app's context. The app always provides it, so its absence is a bug in
/// the app's structure, not something a user can cause.
#[hook]
pub fn use_store() -> StoreHandle {
    use_context::<StoreHandle>().expect("App provides the store") // ok: not user-reachable
}

/// Edits one page's inputs through the store. It holds no input values, so it stays equal
/// from render to render and components that receive it re-render only when their own
/// inputs change.
#[derive(Clone)]
pub struct Setter {
    dispatch: UseReducerDispatcher<Store>,
    page: &'static str,
    defaults: fn() -> PageInputs,
}

impl PartialEq for Setter {
    /// The same page of the same store (each page has one `defaults`).
    fn eq(&self, other: &Self) -> bool {
        self.page == other.page && self.dispatch == other.dispatch
    }
}

impl Setter {
    pub fn new(dispatch: UseReducerDispatcher<Store>, page: &'static str, defaults: fn() -> PageInputs) -> Self {
        Setter { dispatch, page, defaults }
    }
    pub fn set(&self, key: &str, value: String) {
        let key = key.to_string();
        self.update(move |m| {
            m.insert(key.clone(), value.clone());
        });
    }
    pub fn update(&self, f: impl Fn(&mut PageInputs) + 'static) {
        self.dispatch.dispatch(Action::EditPage { page: self.page, defaults: self.defaults, edit: Rc::new(f) });
    }
    /// Sets several inputs at once (one edit, one autosave).
    pub fn set_many(&self, fields: Vec<(&'static str, String)>) {
        self.update(move |m| {
            for (k, v) in &fields {
                m.insert(k.to_string(), v.clone());
            }
        });
    }
    /// A callback that sets `key` to whatever text it is given.
    pub fn on(&self, key: &str) -> Callback<String> {
        let this = self.clone();
        let key = key.to_string();
        Callback::from(move |v: String| this.set(&key, v))
    }
}

/// The text of one input.
pub fn text(inputs: &PageInputs, key: &str) -> AttrValue {
    AttrValue::from(inputs.get(key).cloned().unwrap_or_default())
}

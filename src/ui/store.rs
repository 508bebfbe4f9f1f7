//! The app's hold on the workspace store (`model::workspace::store`): the reducer at the top
//! of the app, handed to every page through a context. Pages read their input texts from it
//! and dispatch edits; the app saves what changed (`ui::storage`) and applies the other tabs'
//! edits ([`Action::Remote`]).

use std::rc::Rc;

use yew::prelude::*;

pub use crate::model::workspace::store::{Action, Page, Store};
use crate::model::workspace::{Edit, PageInputs};

impl Reducible for Store {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Store::reduce(self, action)
    }
}

pub type StoreHandle = UseReducerHandle<Store>;

/// The store from the app's context. The app always provides it, so its absence is a bug in
/// the app's structure, not something a user can cause.
#[hook]
pub fn use_store() -> StoreHandle {
    use_context::<StoreHandle>().expect("App provides the store") // ok: not user-reachable
}

/// What every calculator page starts from: the store, the page's input texts (those the
/// workspace holds for it, or its defaults) and the [`Setter`] that writes them back.
pub struct PageSetup {
    pub store: StoreHandle,
    pub inputs: Rc<PageInputs>,
    pub setter: Setter,
}

/// The one setup of a calculator page.
#[hook]
pub fn use_page(page: Page) -> PageSetup {
    let store = use_store();
    let inputs = Rc::new(store.inputs_or(page.key(), page.defaults));
    let setter = Setter::new(store.dispatcher(), page);
    PageSetup { store, inputs, setter }
}

/// Edits one page's inputs through the store. It holds no input values, so it stays equal
/// from render to render and components that receive it re-render only when their own
/// inputs change.
#[derive(Clone, PartialEq)]
pub struct Setter {
    dispatch: UseReducerDispatcher<Store>,
    page: Page,
}

impl Setter {
    pub fn new(dispatch: UseReducerDispatcher<Store>, page: Page) -> Self {
        Setter { dispatch, page }
    }
    pub fn set(&self, key: &str, value: String) {
        self.edit(Edit::set(key, value));
    }
    /// Applies `edit` to the page's texts as they are when the store takes it.
    pub fn edit(&self, edit: Edit) {
        self.dispatch.dispatch(Action::EditPage { page: self.page, edit });
    }
    /// Replaces several inputs at once (a system, a file), one edit that Undo takes back;
    /// `label` says what was done.
    pub fn fill(&self, label: String, fields: Vec<(&'static str, String)>) {
        self.dispatch.dispatch(Action::Fill { page: self.page, fields, label });
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

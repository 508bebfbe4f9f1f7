//! The workspace store, as plain data: what one tab holds (the workspace, the page it holds
//! as its own, notices, the failed save, Undo), every [`Action`] that changes it, and
//! [`Store::reduce`], the one place they take effect. The app keeps it in a reducer
//! (`ui::store`); here it is compiled and tested natively (`store/tests.rs`: edits, presets
//! and Undo, two tabs' edits through the saved records, share links).
//!
//! A tab may hold one page's inputs as its own ([`Store::own`]): those of a share link it
//! opened, or every input of an embed. They are kept in the tab (sessionStorage) and never
//! written over what the visitor saved on the site, until the visitor keeps them.
//!
//! An action that replaces what the user typed (a preset, a system, an uploaded file, an
//! import, a catalog reset, keeping a shared page) keeps what it replaced, for Undo.

use std::rc::Rc;

use crate::model::calculators::Calculator;
use crate::model::catalog::{self, Catalog};
use crate::model::workspace::share::SharedPage;
use crate::model::workspace::{records, Edit, PageInputs, Workspace};

#[derive(Debug, Clone, PartialEq)]
pub struct Store {
    pub ws: Rc<Workspace>,
    /// False until the saved workspace has been read: the pages wait for it, so nothing is
    /// typed into inputs about to be replaced.
    pub loaded: bool,
    /// An embed (`?embed=1`): nothing is saved, and other tabs' edits are not followed.
    pub embed: bool,
    /// The page whose inputs are this tab's own (a share link's, an embed's), not the site's.
    pub own: Option<String>,
    /// The site's saved inputs of the `own` page, kept up to date, for "Show my inputs".
    pub mine: Option<PageInputs>,
    /// The share link of the `own` page: the clusters it carries are in `ws.catalog` for this
    /// tab (`mine_catalog` holds the site's), until kept or closed.
    pub shared: Option<Rc<SharedPage>>,
    pub mine_catalog: Option<Catalog>,
    /// A message for the whole app (a failed import, a record that could not be read).
    pub notice: Option<String>,
    /// Why the last save failed, until one succeeds.
    pub save_error: Option<String>,
    pub undo: Option<Rc<Undo>>,
}

/// What an action replaced, for Undo.
#[derive(Debug, PartialEq)]
pub struct Undo {
    /// What happened, for the notice ("Loaded the preset Example 5.1").
    pub label: String,
    scope: Scope,
    before: Rc<Workspace>,
    own: Option<String>,
    mine: Option<PageInputs>,
    shared: Option<Rc<SharedPage>>,
    mine_catalog: Option<Catalog>,
}

/// What an Undo puts back.
#[derive(Debug, PartialEq)]
enum Scope {
    /// One page's inputs, and the catalog too when true (a share link kept with its clusters).
    Page(String, bool),
    Catalog,
    /// Everything (an import).
    All,
}

/// A calculator's page in the store: its row of the table of calculators, and its inputs
/// before the user has touched it (also what a cleared page goes back to). Two are the same
/// page when their rows are.
#[derive(Clone, Copy)]
pub struct Page {
    pub calculator: &'static Calculator,
    pub defaults: fn() -> PageInputs,
}

impl Page {
    /// The page's name in the workspace.
    pub fn key(&self) -> &'static str {
        self.calculator.key
    }
}

impl PartialEq for Page {
    fn eq(&self, other: &Self) -> bool {
        self.calculator == other.calculator
    }
}

impl std::fmt::Debug for Page {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Page({})", self.calculator.key)
    }
}

/// What can happen to the store, as data: the app and every page dispatch these, and
/// [`Store::reduce`] is the one place they take effect.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// The saved workspace, read; a sentence for anything that could not be; the page this
    /// tab holds as its own (a share link's, an embed's).
    Loaded {
        ws: Workspace,
        notice: Option<String>,
        own: Option<SharedPage>,
        embed: bool,
    },
    /// Replaces one page's inputs (a preset); `label` says what, for Undo.
    SetPage {
        page: Page,
        inputs: PageInputs,
        label: String,
    },
    /// Edits one page's inputs as they are when applied; an untouched page starts from its
    /// defaults.
    EditPage {
        page: Page,
        edit: Edit,
    },
    /// Sets some of a page's inputs at once, replacing what they held (a system, a file);
    /// `label` says what, for Undo.
    Fill {
        page: Page,
        fields: Vec<(&'static str, String)>,
        label: String,
    },
    /// The shared inputs become the site's, and the clusters the link carries join the
    /// catalog (Undo brings the site's back).
    KeepShared,
    /// The clusters the link carries join the site's catalog.
    AddSharedClusters,
    /// Back to the site's inputs (Undo brings the shared ones back).
    CloseShared,
    /// A record another tab wrote (its key and text; none when it was deleted).
    Remote {
        key: String,
        text: Option<String>,
    },
    /// A validated import.
    Replace(Workspace),
    SetCatalog(Catalog),
    ResetCatalog,
    Undo,
    DismissUndo,
    Notice(Option<String>),
    /// A save failed (why), or every save since succeeded (None).
    SaveResult(Option<String>),
}

impl Store {
    pub fn new() -> Self {
        Store {
            ws: Rc::new(Workspace::default()),
            loaded: false,
            embed: false,
            own: None,
            mine: None,
            shared: None,
            mine_catalog: None,
            notice: None,
            save_error: None,
            undo: None,
        }
    }

    pub fn page_inputs(&self, page: &str) -> PageInputs {
        self.ws.pages.get(page).cloned().unwrap_or_default()
    }

    /// A page's inputs, or its defaults while the user has not touched it.
    pub fn inputs_or(&self, page: &str, defaults: fn() -> PageInputs) -> PageInputs {
        self.ws.pages.get(page).filter(|m| !m.is_empty()).cloned().unwrap_or_else(defaults)
    }

    /// Whether `page`'s inputs (or, for [`records::CATALOG`], the catalog) are this tab's
    /// own: never saved over the site's.
    pub fn is_own(&self, page: &str) -> bool {
        self.embed || self.own.as_deref() == Some(page) || (page == records::CATALOG && self.mine_catalog.is_some())
    }

    /// Keeps the state before an action that replaces what `scope` covers.
    fn keep_for_undo(&self, next: &mut Store, label: String, scope: Scope) {
        next.undo = Some(Rc::new(Undo {
            label,
            scope,
            before: self.ws.clone(),
            own: self.own.clone(),
            mine: self.mine.clone(),
            shared: self.shared.clone(),
            mine_catalog: self.mine_catalog.clone(),
        }));
    }
}

impl Default for Store {
    fn default() -> Self {
        Store::new()
    }
}

/// Sets a page's inputs; none is an empty page, which shows its defaults.
fn set_page(ws: &mut Rc<Workspace>, page: &str, inputs: Option<PageInputs>) {
    Rc::make_mut(ws).pages.insert(page.to_string(), inputs.unwrap_or_default());
}

impl Store {
    /// The store after `action`: the one place an action takes effect (the app's reducer).
    pub fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::Loaded { ws, notice, own, embed } => {
                next.ws = Rc::new(ws);
                next.loaded = true;
                next.embed = embed;
                next.notice = notice;
                if let Some(shared) = own {
                    next.mine = Some(next.page_inputs(&shared.page));
                    set_page(&mut next.ws, &shared.page, Some(shared.inputs.clone()));
                    if !shared.clusters.is_empty() {
                        next.mine_catalog = Some(next.ws.catalog.clone());
                        Rc::make_mut(&mut next.ws).catalog = shared.overlay(&next.ws.catalog);
                    }
                    next.own = Some(shared.page.clone());
                    next.shared = Some(Rc::new(shared));
                }
            }
            Action::SetPage { page, inputs, label } => {
                self.keep_for_undo(&mut next, label, Scope::Page(page.key().into(), false));
                set_page(&mut next.ws, page.key(), Some(inputs));
            }
            Action::EditPage { page, edit } => {
                let mut inputs = self.inputs_or(page.key(), page.defaults);
                edit.apply(&mut inputs);
                set_page(&mut next.ws, page.key(), Some(inputs));
            }
            Action::Fill { page, fields, label } => {
                self.keep_for_undo(&mut next, label, Scope::Page(page.key().into(), false));
                let mut inputs = self.inputs_or(page.key(), page.defaults);
                inputs.extend(fields.into_iter().map(|(k, v)| (k.to_string(), v)));
                set_page(&mut next.ws, page.key(), Some(inputs));
            }
            Action::KeepShared => {
                if let (Some(page), false) = (self.own.clone(), self.embed) {
                    let mut before = self.ws.clone();
                    set_page(&mut before, &page, self.mine.clone());
                    if let Some(c) = &self.mine_catalog {
                        Rc::make_mut(&mut before).catalog = c.clone();
                    }
                    next.undo = Some(Rc::new(Undo {
                        label: "The shared inputs are now your saved inputs of this page".into(),
                        scope: Scope::Page(page, self.mine_catalog.is_some()),
                        before,
                        own: None,
                        mine: None,
                        shared: None,
                        mine_catalog: None,
                    }));
                    next.own = None;
                    next.mine = None;
                    next.shared = None;
                    next.mine_catalog = None;
                }
            }
            Action::AddSharedClusters => {
                if self.mine_catalog.is_some() && !self.embed {
                    self.keep_for_undo(&mut next, "The link's clusters are in your catalog".into(), Scope::Catalog);
                    next.mine_catalog = None;
                }
            }
            Action::CloseShared => {
                if let (Some(page), false) = (self.own.clone(), self.embed) {
                    self.keep_for_undo(
                        &mut next,
                        "Your own inputs are shown; the shared ones are closed".into(),
                        Scope::Page(page.clone(), self.mine_catalog.is_some()),
                    );
                    set_page(&mut next.ws, &page, self.mine.clone());
                    if let Some(c) = next.mine_catalog.take() {
                        Rc::make_mut(&mut next.ws).catalog = c;
                    }
                    next.own = None;
                    next.mine = None;
                    next.shared = None;
                }
            }
            Action::Remote { key, text } => return self.remote(next, key, text),
            Action::Replace(ws) => {
                self.keep_for_undo(&mut next, "Workspace imported".into(), Scope::All);
                next.ws = Rc::new(ws);
                next.own = None;
                next.mine = None;
                next.shared = None;
                next.mine_catalog = None;
            }
            Action::SetCatalog(catalog) => Rc::make_mut(&mut next.ws).catalog = catalog,
            Action::ResetCatalog => {
                self.keep_for_undo(&mut next, "The catalog is back to the presets".into(), Scope::Catalog);
                Rc::make_mut(&mut next.ws).catalog = catalog::presets();
            }
            Action::Undo => return self.undo(next),
            Action::DismissUndo => next.undo = None,
            Action::Notice(n) => next.notice = n,
            Action::SaveResult(e) => next.save_error = e,
        }
        Rc::new(next)
    }

    /// Another tab's change of one record (`None`: removed): into the site's inputs, which this
    /// tab may be holding aside while a share link's page or clusters are shown.
    fn remote(self: Rc<Self>, mut next: Store, key: String, text: Option<String>) -> Rc<Self> {
        if self.embed {
            return self;
        }
        // The site's catalog, while a share link's clusters are shown over it.
        if let (Some(records::Key::Catalog), Some(mine), Some(shared)) =
            (records::parse_key(&key), &self.mine_catalog, &self.shared)
        {
            let mut site = Workspace { catalog: mine.clone(), ..Workspace::default() };
            if records::apply(&mut site, &key, text.as_deref()).is_ok() {
                Rc::make_mut(&mut next.ws).catalog = shared.overlay(&site.catalog);
                next.mine_catalog = Some(site.catalog);
            }
            return Rc::new(next);
        }
        let own_page = match (records::parse_key(&key), &self.own) {
            (Some(records::Key::Input { page, .. }), Some(own)) => page == own,
            _ => false,
        };
        if own_page {
            // The site's inputs of a page this tab holds as its own: kept for "Show my inputs".
            let mut site = Workspace::default();
            if let (Some(mine), Some(own)) = (&self.mine, &self.own) {
                site.pages.insert(own.clone(), mine.clone());
            }
            if records::apply(&mut site, &key, text.as_deref()).is_ok() {
                next.mine = self.own.as_ref().map(|p| site.pages.get(p).cloned().unwrap_or_default());
            }
        } else {
            let mut ws = (*self.ws).clone();
            if records::apply(&mut ws, &key, text.as_deref()).is_ok() {
                next.ws = Rc::new(ws);
            }
        }
        Rc::new(next)
    }

    /// Puts back what the last undoable action replaced (its scope: one page, the catalog, or all).
    fn undo(self: Rc<Self>, mut next: Store) -> Rc<Self> {
        let Some(u) = next.undo.take() else { return self };
        let catalog = match &u.scope {
            Scope::Page(page, catalog) => {
                set_page(&mut next.ws, page, u.before.pages.get(page).cloned());
                if u.own.as_deref() == Some(page.as_str()) || self.own.as_deref() == Some(page.as_str()) {
                    next.own = u.own.clone();
                    next.mine = u.mine.clone();
                    next.shared = u.shared.clone();
                }
                *catalog
            }
            Scope::Catalog => true,
            Scope::All => {
                next.ws = u.before.clone();
                next.own = u.own.clone();
                next.mine = u.mine.clone();
                next.shared = u.shared.clone();
                true
            }
        };
        if catalog {
            Rc::make_mut(&mut next.ws).catalog = u.before.catalog.clone();
            next.mine_catalog = u.mine_catalog.clone();
        }
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests;

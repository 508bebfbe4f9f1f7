//! What a page's inputs are, below everything that reads them: the texts of one page
//! ([`PageInputs`]), a page's fields ([`PageField`]), their errors and a page's presets. The
//! table of calculators (`model::calculators`) and every page model build on these; this file
//! uses nothing of the model but its error type.

use std::collections::BTreeMap;

use crate::model::InputError;

/// One page's inputs: field name → the text in it.
pub type PageInputs = BTreeMap<String, String>;

/// One input field of a page. Each page has an enum of its fields; the key is the field's
/// name in the saved workspace, share links, the command line's error messages and the page's
/// element ids, written once, in the enum's `key`.
pub trait PageField: Copy + Eq + std::fmt::Debug + 'static {
    /// Every field of the page.
    const ALL: &'static [Self];
    fn key(self) -> &'static str;
}

/// The text a page's field holds ("" when it holds none).
pub fn text<F: PageField>(inputs: &PageInputs, field: F) -> &str {
    inputs.get(field.key()).map_or("", |t| without_bom(t))
}

/// `t` without the byte-order mark some editors put first (Windows Notepad among them), which
/// a paste or a file read carries along: it is no part of any text a page reads, and lines and
/// columns in errors then count from what the editor shows.
pub fn without_bom(t: &str) -> &str {
    t.strip_prefix('\u{feff}').unwrap_or(t)
}

/// One edit of a page's inputs, as data (the store applies it to the page's texts of the
/// moment, so an edit from another tab in between is kept): copies from one key to another
/// (an absent key copies as ""), in order; then the texts set. A field is cleared by setting
/// it to "", as a removed record is kept (`records::apply`); the map's own removal would add
/// 3 KB of node balancing to every page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Edit {
    pub copy: Vec<(String, String)>,
    pub set: Vec<(String, String)>,
}

impl Edit {
    /// Sets one field's text.
    pub fn set(key: &str, text: String) -> Edit {
        Edit { set: vec![(key.to_string(), text)], ..Edit::default() }
    }
    pub fn apply(&self, inputs: &mut PageInputs) {
        for (from, to) in &self.copy {
            let text = inputs.get(from).cloned().unwrap_or_default();
            inputs.insert(to.clone(), text);
        }
        inputs.extend(self.set.iter().cloned());
    }
}

/// Errors of a page's fields, found when its texts are parsed; each names its field's key.
pub type FieldErrors = Vec<InputError>;

/// A preset of a page: what the page's button says and loads.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// A short stable name (tests, links).
    pub key: &'static str,
    /// The button's label.
    pub name: &'static str,
    /// One sentence: where the numbers come from.
    pub description: &'static str,
    pub inputs: PageInputs,
}

//! The whole workspace a user builds: the cluster catalog and the raw text of every input of
//! every page. Inputs are kept as the text the user typed, valid or not, so nothing typed is
//! ever lost; each page parses its own text into validated types.
//!
//! The same structure is autosaved in the browser (one record per input, [`records`]),
//! exported and imported as a JSON file, and (one page at a time) carried in share links.
//! Everything arriving from outside goes through [`Workspace::from_json`],
//! [`records::read`] or [`crate::model::workspace::share::decode`], which validate it and cap
//! its size; a failed import changes nothing. Every format ever written is read, through the
//! upgrades in [`migrate`]; a newer one is refused.

pub mod machines;
pub mod migrate;
pub mod node_report;
pub mod records;
pub mod share;
pub mod store;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::calculators;
use crate::model::catalog::Catalog;
pub use crate::model::input::page::{text, without_bom, Edit, FieldErrors, PageField, PageInputs, Preset};
use crate::model::InputError;

/// Marks a JSON file as ours, so importing some other JSON says so plainly.
pub const FORMAT: &str = "scalewise-workspace";
/// The workspace format this build writes (files and browser storage); [`migrate`] lists them
/// all and reads every older one.
pub const VERSION: u32 = migrate::CURRENT;

/// Largest single input text kept, bytes: an Extra-P experiment of 2,000 regions (six counts,
/// three repetitions each) takes about 800 KB as text.
pub const MAX_FIELD_BYTES: usize = 1 << 20;
/// Most text a workspace keeps, bytes: every input of every page and the catalog (as JSON)
/// together. The browser saves at most this much (about twice that in its storage, see
/// docs/data.md, "Saved as you type"), and an exported file of it reads back.
pub const MAX_SAVED_BYTES: usize = 8 << 20;
/// Largest workspace file accepted, bytes: [`MAX_SAVED_BYTES`] of text with room for JSON's
/// escapes (a control character takes six bytes) and indentation.
pub const MAX_WORKSPACE_BYTES: usize = 6 * MAX_SAVED_BYTES + (1 << 20);

/// Values for some of a page's inputs under one name, e.g. a system or a machine taken from
/// the cluster catalog, which the page fills in when the user picks it.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSet {
    pub label: String,
    pub fields: Vec<(&'static str, String)>,
}

/// The two keys read before the rest; any other keys are left for the second read.
#[derive(Deserialize)]
struct Header {
    format: Option<String>,
    version: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Workspace {
    pub format: String,
    pub version: u32,
    pub catalog: Catalog,
    #[serde(default)]
    pub pages: BTreeMap<String, PageInputs>,
}

impl Default for Workspace {
    fn default() -> Self {
        Workspace {
            format: FORMAT.into(),
            version: VERSION,
            catalog: crate::model::catalog::presets(),
            pages: BTreeMap::new(),
        }
    }
}

impl Workspace {
    /// The bytes of text it holds: every input and the catalog's JSON (see [`MAX_SAVED_BYTES`]).
    pub fn text_bytes(&self) -> usize {
        self.catalog_bytes() + self.pages.iter().map(|(p, i)| p.len() + page_bytes(i)).sum::<usize>()
    }

    pub fn catalog_bytes(&self) -> usize {
        serde_json::to_string(&self.catalog).map_or(0, |s| s.len())
    }

    #[inline(never)]
    pub fn to_json(&self) -> String {
        // A workspace holds only strings, integers and finite floats (validated on the way
        // in), which serde_json always encodes; the fallback is unreachable in practice.
        serde_json::to_string_pretty(self).unwrap_or_else(|_| String::from("{}"))
    }

    /// Parses and validates a workspace file. `field` names the source in messages
    /// ("imported file", "saved workspace").
    #[inline(never)]
    pub fn from_json(field: &str, text: &str) -> Result<Workspace, InputError> {
        let text = without_bom(text);
        if text.len() > MAX_WORKSPACE_BYTES {
            return Err(InputError::new(
                field,
                format!("{} bytes is more than the {} a workspace may have", text.len(), MAX_WORKSPACE_BYTES),
            ));
        }
        // The header first, so another program's JSON is named as such rather than reported
        // as a missing field deep inside. Both reads go through the same deserializer (no
        // intermediate `Value`), which keeps the page small.
        serde_json::from_str::<serde::de::IgnoredAny>(text)
            .map_err(|e| InputError::new(field, format!("not valid JSON: {e}")).at(e.line(), Some(e.column())))?;
        let header: Header = serde_json::from_str(text).map_err(|_| {
            InputError::new(field, format!("not a scalewise workspace (expected \"format\": \"{FORMAT}\")"))
        })?;
        if header.format.as_deref() != Some(FORMAT) {
            return Err(InputError::new(
                field,
                format!("not a scalewise workspace (expected \"format\": \"{FORMAT}\")"),
            ));
        }
        let from = match header.version {
            Some(v) => migrate::readable(field, v)?,
            None => return Err(InputError::new(field, "the workspace has no \"version\"")),
        };
        let mut ws: Workspace =
            serde_json::from_str(text).map_err(|e| InputError::new(field, format!("unexpected content: {e}")))?;
        migrate::upgrade(&mut ws, from);
        ws.catalog.mark_seed_presets();
        if let Err(errs) = ws.catalog.validate() {
            let first = errs.first().map(|e| e.to_string()).unwrap_or_default();
            return Err(InputError::new(
                field,
                format!("the cluster catalog has {} problem(s), the first: {first}", errs.len()),
            ));
        }
        for (page, inputs) in &ws.pages {
            validate_page(field, page, inputs)?;
        }
        if ws.text_bytes() > MAX_SAVED_BYTES {
            return Err(InputError::new(field, too_much(ws.text_bytes())));
        }
        Ok(ws)
    }
}

/// The bytes of a page's inputs: names and texts.
pub fn page_bytes(inputs: &PageInputs) -> usize {
    inputs.iter().map(|(k, v)| k.len() + v.len()).sum()
}

/// Says that a workspace of `bytes` is more than one keeps.
pub fn too_much(bytes: usize) -> String {
    // Whole kilobytes: a float with a precision would bring its formatting code into every page.
    format!("the inputs hold {} KB of text, more than the {} KB a workspace keeps", bytes >> 10, MAX_SAVED_BYTES >> 10)
}

/// Checks that a page is one we have, and that its field names and texts are sane.
pub fn validate_page(field: &str, page: &str, inputs: &PageInputs) -> Result<(), InputError> {
    if inputs.is_empty() {
        return check_input(field, page, None);
    }
    inputs.iter().try_for_each(|(name, text)| check_input(field, page, Some((name, text))))
}

/// Checks one input of a page (or, with none, the page's name alone).
pub fn check_input(field: &str, page: &str, input: Option<(&str, &str)>) -> Result<(), InputError> {
    // The pages a workspace may hold: one per calculator.
    if calculators::find(page).is_none() {
        let known: Vec<&str> = calculators::CALCULATORS.iter().map(|c| c.key).collect();
        return Err(InputError::new(field, format!("unknown page \"{}\"; known: {}", clip(page), known.join(", "))));
    }
    let Some((name, text)) = input else { return Ok(()) };
    let ok_name = !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !ok_name {
        return Err(InputError::new(field, format!("page {page}: \"{}\" is not an input name", clip(name))));
    }
    if text.len() > MAX_FIELD_BYTES {
        return Err(InputError::new(
            field,
            format!("page {page}, input {name}: {} bytes is more than the {MAX_FIELD_BYTES} allowed", text.len()),
        ));
    }
    Ok(())
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut ws = Workspace::default();
        ws.catalog.clusters[0].price_per_cpu_hour = 3.5;
        ws.pages.entry("multigrid".into()).or_default().insert("sequential".into(), "2048 1500\n1024 abc".into());
        let back = Workspace::from_json("file", &ws.to_json()).expect("own output reads back");
        assert_eq!(back, ws);
        // Saved by an editor that puts a byte-order mark first.
        assert_eq!(Workspace::from_json("file", &format!("\u{feff}{}", ws.to_json())), Ok(ws));
    }

    /// Every page reads its texts through `text`: a byte-order mark pasted or read with a file
    /// is not part of the text, so the page's view is the one without it.
    #[test]
    fn a_byte_order_mark_is_no_part_of_a_page_text() {
        use crate::model::speedup::page::{default_inputs, view, Field};
        let catalog = crate::model::catalog::presets();
        let mut plain = default_inputs();
        plain.insert(Field::Points.key().into(), "n time (s)\n1 100\n2 52\n4 28\n".into());
        let mut marked = plain.clone();
        marked.insert(Field::Points.key().into(), format!("\u{feff}{}", plain[Field::Points.key()]));
        let v = view(&marked, &catalog);
        assert!(v.points_error.is_none(), "{:?}", v.points_error);
        assert_eq!(v, view(&plain, &catalog));
        // An error's column counts from what the editor shows.
        marked.insert(Field::Points.key().into(), "\u{feff}1 x\n".into());
        // The mark is dropped: "x" starts at the third character of "1 x", as the editor shows it.
        assert_eq!(view(&marked, &catalog).points_error.map(|e| (e.line, e.column)), Some((Some(1), Some(3))));
    }

    #[test]
    fn bad_files_say_why() {
        let ws = Workspace::default();
        let mut bad_catalog = ws.clone();
        bad_catalog.catalog.clusters[0].nodes = 0;
        let mut bad_page = ws.clone();
        bad_page.pages.insert("nonsense".into(), PageInputs::new());
        // A price that made a job's cost infinite and a cost ratio NaN.
        let mut huge_price = ws.clone();
        huge_price.catalog.clusters[0].price_per_cpu_hour = 1e308;
        let mut bad_field = ws.clone();
        bad_field.pages.entry("regions".into()).or_default().insert("Bad Name!".into(), String::new());
        let cases = [
            ("{\"format\": ", "not valid JSON".to_string()),
            ("{\"format\": 3", "not valid JSON".to_string()),
            ("{\"format\": 3}", "not a scalewise workspace".to_string()),
            ("[1, 2]", "not a scalewise workspace".to_string()),
            (
                &ws.to_json().replace(&format!("\"version\": {VERSION}"), "\"version\": 99"),
                "written by a newer scalewise (format 99)".to_string(),
            ),
            (&bad_catalog.to_json(), "nodes must be at least 1".to_string()),
            (&huge_price.to_json(), "price per CPU-hour must be a number from 0 to 1e9".to_string()),
            (&bad_page.to_json(), "unknown page \"nonsense\"".to_string()),
            (&bad_field.to_json(), "\"Bad Name!\" is not an input name".to_string()),
            (&ws.to_json().replace("\"nodes\": 128", "\"nodes\": -1"), "unexpected content".to_string()),
        ];
        for (text, want) in cases {
            let e = Workspace::from_json("imported file", text).expect_err("must fail");
            assert!(e.to_string().contains(&want), "{e} does not contain {want}");
            assert_eq!(e.field, "imported file");
        }
    }
}

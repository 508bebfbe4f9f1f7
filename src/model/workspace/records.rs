//! The workspace as the browser keeps it since format 2: one record per input, so that a save
//! writes only what changed, and two tabs that edit different inputs never write over each
//! other (`ui::storage` keeps the records in IndexedDB and tells the other tabs). This module
//! is the pure part: record keys, the records that differ between two workspaces, a workspace
//! read back from records, one record applied to a workspace, and format 1 taken in.
//!
//! Keys: `p/<page>/<input>` holds the text of one input; `catalog` the catalog as JSON;
//! `meta` the workspace format of the records (its number as text); `v1` the format-1 text
//! last taken in (see [`from_v1`]).

use super::migrate::{self, CURRENT};
use super::{check_input, PageInputs, Workspace};
use crate::model::catalog::Catalog;
use crate::model::InputError;

pub const CATALOG: &str = "catalog";
pub const META: &str = "meta";
pub const V1: &str = "v1";
const FIELD_PREFIX: &str = "p/";

/// Where the browser's storage says it stands.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Meta {
    /// The workspace format of the records (0: no records written yet).
    pub format: u32,
    /// The format-1 workspace (the localStorage key `scalewise.workspace`) as last taken in.
    /// A tab of an older build left open after an upgrade keeps writing there; the next load
    /// takes in what it changed since ([`from_v1`]).
    pub v1: String,
}

/// What a record's key names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key<'a> {
    Input {
        page: &'a str,
        name: &'a str,
    },
    Catalog,
    /// `meta` and `v1`.
    Meta,
}

/// The key of one page's input.
pub fn input_key(page: &str, name: &str) -> String {
    format!("{FIELD_PREFIX}{page}/{name}")
}

pub fn parse_key(key: &str) -> Option<Key<'_>> {
    match key {
        CATALOG => Some(Key::Catalog),
        META | V1 => Some(Key::Meta),
        _ => {
            let (page, name) = key.strip_prefix(FIELD_PREFIX)?.split_once('/')?;
            Some(Key::Input { page, name })
        }
    }
}

/// One record to write: its key and its text, `None` to remove it.
pub type Change = (String, Option<String>);

/// The records that turn `before` into `after`, leaving out the pages `skip` names (a tab's
/// own inputs: an embed's, a share link's), and the catalog when it names [`CATALOG`].
#[inline(never)]
pub fn changes(before: &Workspace, after: &Workspace, skip: &dyn Fn(&str) -> bool) -> Vec<Change> {
    let mut out = Vec::new();
    if before.catalog != after.catalog && !skip(CATALOG) {
        out.push((CATALOG.to_string(), Some(serde_json::to_string(&after.catalog).unwrap_or_default())));
    }
    let empty = PageInputs::new();
    // Every page of either, in order (both maps are sorted: a merge, not a sort).
    let (mut a, mut b) = (before.pages.keys().peekable(), after.pages.keys().peekable());
    let pages = std::iter::from_fn(|| match (a.peek(), b.peek()) {
        (Some(x), Some(y)) if x == y => {
            b.next();
            a.next()
        }
        (Some(x), Some(y)) if x > y => b.next(),
        (Some(_), _) => a.next(),
        (None, _) => b.next(),
    });
    for page in pages.filter(|p| !skip(p)) {
        let (old, new) = (before.pages.get(page).unwrap_or(&empty), after.pages.get(page).unwrap_or(&empty));
        for (name, text) in new {
            if old.get(name) != Some(text) {
                out.push((input_key(page, name), Some(text.clone())));
            }
        }
        // A removed input is kept as an empty one ([`apply`]): removed once, not again. When
        // the page goes back to untouched (no input), its empty records go too: left in
        // storage, they made it a page of empty boxes rather than its defaults.
        let untouched = new.is_empty();
        for (name, _) in old.iter().filter(|(n, t)| (untouched || !t.is_empty()) && !new.contains_key(*n)) {
            out.push((input_key(page, name), None));
        }
    }
    out
}

/// Every record of a workspace, as written to empty storage.
#[inline(never)]
pub fn all(ws: &Workspace) -> Vec<Change> {
    let empty = Workspace {
        catalog: Catalog { clusters: Vec::new(), links: Vec::new() },
        pages: Default::default(),
        ..Workspace::default()
    };
    changes(&empty, ws, &|_| false)
}

/// The workspace the records hold, its [`Meta`], and a sentence per record that could not be
/// read (left as it is in storage, and not shown). Records of a newer format are refused:
/// this build must neither show nor overwrite what it does not understand.
#[inline(never)]
pub fn read(records: &[(String, String)]) -> Result<(Workspace, Meta, Vec<String>), InputError> {
    let field = "saved workspace";
    let text = |key: &str| records.iter().find(|(k, _)| k == key).map(|(_, t)| t.as_str());
    let format = match text(META) {
        // A number this build cannot read is a newer format's.
        Some(t) => t.trim().parse::<u32>().unwrap_or(u32::MAX),
        None => 0,
    };
    if format > CURRENT {
        migrate::readable(field, u64::from(format))?;
    }
    let meta = Meta { format, v1: text(V1).unwrap_or_default().to_string() };
    let mut ws = Workspace::default();
    let mut problems = Vec::new();
    for (key, text) in records {
        if let Err(p) = apply(&mut ws, key, Some(text)) {
            problems.push(p.message);
        }
    }
    Ok((ws, meta, problems))
}

/// Applies one record (`None`: removed) to a workspace; says why when it cannot be read (the
/// error's message is the sentence), and then changes nothing. The meta record and keys of no
/// known kind change nothing.
#[inline(never)]
pub fn apply(ws: &mut Workspace, key: &str, text: Option<&str>) -> Result<(), InputError> {
    match (parse_key(key), text) {
        (Some(Key::Input { page, name }), Some(text)) => {
            check_input("saved input", page, Some((name, text)))?;
            match ws.pages.get_mut(page) {
                Some(inputs) => {
                    inputs.insert(name.to_string(), text.to_string());
                }
                None => {
                    let mut inputs = PageInputs::new();
                    inputs.insert(name.to_string(), text.to_string());
                    ws.pages.insert(page.to_string(), inputs);
                }
            }
        }
        // Removed: empty, which every page reads as absent (and which spares the pages the
        // code of a map's removal). A page left with nothing but empty inputs is an untouched
        // one, which shows its defaults, as a reload reads it: kept as empty inputs, another
        // tab showed a page of empty boxes (Undo of a share link kept where nothing was
        // saved, issue "Honest, round 2", 19).
        (Some(Key::Input { page, name }), None) => {
            if let Some(inputs) = ws.pages.get_mut(page) {
                if let Some(text) = inputs.get_mut(name) {
                    text.clear();
                }
                if inputs.values().all(String::is_empty) {
                    inputs.clear();
                }
            }
        }
        (Some(Key::Catalog), Some(text)) => {
            let mut catalog: Catalog = serde_json::from_str(text)
                .map_err(|e| InputError::new(key, format!("the saved cluster catalog could not be read: {e}")))?;
            if let Err(errs) = catalog.validate() {
                return Err(InputError::new(
                    key,
                    format!("the saved cluster catalog has {} problem(s), the first: {}", errs.len(), errs[0]),
                ));
            }
            catalog.mark_seed_presets();
            ws.catalog = catalog;
        }
        (Some(Key::Catalog), None) => ws.catalog = crate::model::catalog::presets(),
        (Some(Key::Meta), _) | (None, _) => {}
    }
    Ok(())
}

/// Takes in a format-1 workspace (`v1`, the text under the old localStorage key) when it
/// differs from the one taken in last (`meta.v1`): the records to write (what the old text
/// changed since, or all of it the first time, with the `meta` and `v1` records), and why the
/// text could not be read (it is then left as it is, and not read again until it changes).
/// No format-1 text (`""`) has nothing to take in.
#[inline(never)]
pub fn from_v1(v1: &str, meta: &Meta) -> (Vec<Change>, Option<String>) {
    let mut out = Vec::new();
    let mut problem = None;
    if v1 != meta.v1 && !v1.is_empty() {
        match Workspace::from_json("saved workspace of an earlier version", v1) {
            Ok(new) => {
                out = match Workspace::from_json("", &meta.v1) {
                    Ok(old) if !meta.v1.is_empty() => changes(&old, &new, &|_| false),
                    _ => all(&new),
                };
            }
            Err(e) => problem = Some(e.to_string()),
        }
        out.push((V1.to_string(), Some(v1.to_string())));
    }
    if meta.format != CURRENT {
        out.push((META.to_string(), Some(CURRENT.to_string())));
    }
    (out, problem)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws_with(page: &str, pairs: &[(&str, &str)]) -> Workspace {
        let mut ws = Workspace::default();
        ws.pages.insert(page.into(), pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect());
        ws
    }

    fn keys(c: &[Change]) -> Vec<&str> {
        c.iter().map(|(k, _)| k.as_str()).collect()
    }

    #[test]
    fn only_what_changed_is_written() {
        let a = ws_with("speedup", &[("points", "1 2"), ("target", "128")]);
        let mut b = a.clone();
        b.pages.get_mut("speedup").unwrap().insert("target".into(), "555".into());
        assert_eq!(changes(&a, &b, &|_| false), vec![("p/speedup/target".to_string(), Some("555".to_string()))]);
        // A removed input is a removal; another page and the catalog are untouched.
        let mut c = b.clone();
        c.pages.get_mut("speedup").unwrap().remove("points");
        c.pages.insert("regions".into(), [("alpha".to_string(), "0.1".to_string())].into());
        assert_eq!(
            changes(&b, &c, &|_| false),
            vec![("p/regions/alpha".to_string(), Some("0.1".to_string())), ("p/speedup/points".to_string(), None)]
        );
        // A skipped page (a tab's own) is never written.
        assert_eq!(keys(&changes(&b, &c, &|p| p == "speedup")), ["p/regions/alpha"]);
        let mut d = c.clone();
        d.catalog.clusters[0].price_per_cpu_hour = 9.0;
        assert_eq!(keys(&changes(&c, &d, &|_| false)), [CATALOG]);
        assert!(changes(&c, &d, &|k| k == CATALOG).is_empty(), "a tab's own catalog is not written");
    }

    #[test]
    fn records_read_back_and_bad_ones_are_left_out() {
        let mut ws = ws_with("multigrid", &[("np", "48"), ("cal1_seq", "work (MB)\ttime (s)\n2048\t1500")]);
        ws.catalog.clusters[0].price_per_cpu_hour = 3.25;
        let mut records: Vec<(String, String)> = all(&ws).into_iter().map(|(k, v)| (k, v.unwrap())).collect();
        records.push((META.into(), CURRENT.to_string()));
        records.push((V1.into(), "{\"format\": …}".into()));
        let (back, meta, problems) = read(&records).expect("reads");
        assert_eq!((back, meta.format, meta.v1.as_str(), problems.len()), (ws.clone(), CURRENT, "{\"format\": …}", 0));
        // A record of an unknown page, a bad input name, a damaged catalog: each is left out.
        records.push(("p/nonsense/x".into(), "1".into()));
        records.push(("p/speedup/Bad Name".into(), "1".into()));
        records.push((CATALOG.into(), "{".into()));
        records.push(("something else".into(), "1".into()));
        let (back, _, problems) = read(&records).expect("reads");
        assert_eq!(back.pages, ws.pages);
        assert_eq!(back.catalog, ws.catalog, "the last good catalog record stands");
        assert_eq!(problems.len(), 3, "{problems:?}");
        // Records of a newer format are refused as a whole.
        for newer in [(CURRENT + 1).to_string(), "two".to_string()] {
            let e = read(&[(META.to_string(), newer)]).unwrap_err();
            assert!(e.to_string().contains("newer scalewise"), "{e}");
        }
    }

    #[test]
    fn a_record_from_another_tab_applies_or_is_refused() {
        let mut ws = Workspace::default();
        apply(&mut ws, "p/speedup/target", Some("555")).unwrap();
        assert_eq!(ws.pages["speedup"]["target"], "555");
        apply(&mut ws, "p/speedup/points", Some("n time\n1 5")).unwrap();
        apply(&mut ws, "p/speedup/target", None).unwrap();
        assert_eq!(ws.pages["speedup"]["target"], "", "removed reads as empty");
        assert!(changes(&ws, &ws.clone(), &|_| false).is_empty());
        apply(&mut ws, "p/speedup/points", None).unwrap();
        assert!(ws.pages["speedup"].is_empty(), "nothing but empty inputs: its defaults, as after a reload");
        assert!(changes(&ws, &Workspace::default(), &|_| false).is_empty(), "and is not removed again");
        let before = ws.clone();
        assert!(apply(&mut ws, "p/speedup/target", Some(&"x".repeat(super::super::MAX_FIELD_BYTES + 1))).is_err());
        assert!(apply(&mut ws, CATALOG, Some("{\"clusters\": 3}")).is_err());
        assert_eq!(ws, before);
    }

    #[test]
    fn removals_leave_another_tab_with_what_a_reload_reads() {
        // Issue "Honest, round 2", 19: a share link kept in a browser that had saved nothing
        // for the page, then undone. The records kept must all go: the empty ones stayed, and
        // the other tabs emptied the rest; both showed a page of empty boxes, not its defaults.
        let kept = ws_with("speedup", &[("points", "n time\n2 5\n4 3"), ("models", ""), ("target", "128")]);
        let mut undone = Workspace::default();
        undone.pages.insert("speedup".into(), PageInputs::new());
        let undo = changes(&kept, &undone, &|_| false);
        assert_eq!(keys(&undo), ["p/speedup/models", "p/speedup/points", "p/speedup/target"]);
        assert!(undo.iter().all(|c| c.1.is_none()));
        let mut other = kept.clone();
        for (key, text) in &undo {
            apply(&mut other, key, text.as_deref()).unwrap();
        }
        let mut stored: std::collections::BTreeMap<String, Option<String>> = all(&kept).into_iter().collect();
        stored.extend(undo);
        let rows: Vec<(String, String)> = stored.into_iter().filter_map(|(k, t)| Some((k, t?))).collect();
        let (reloaded, _, _) = read(&rows).expect("reads");
        // What a page shows: its inputs, or its defaults when it has none.
        let shown = |ws: &Workspace| ws.pages.get("speedup").filter(|p| !p.is_empty()).cloned();
        assert_eq!(shown(&reloaded), None, "a reload shows the defaults");
        assert_eq!(shown(&other), None, "so does the other tab");
        // A removal of one input leaves the others.
        let mut other = kept.clone();
        apply(&mut other, "p/speedup/target", None).unwrap();
        assert_eq!(shown(&other).map(|p| p["points"].clone()), Some("n time\n2 5\n4 3".to_string()));
        // Removed once: the emptied input is not removed again with the next save.
        let mut next = other.clone();
        next.pages.get_mut("speedup").unwrap().retain(|_, t| !t.is_empty());
        assert!(changes(&other, &next, &|_| false).is_empty());
    }

    #[test]
    fn format_1_is_taken_in_once_then_only_what_an_old_tab_changes() {
        let mut v1 = ws_with("speedup", &[("target", "555"), ("extrap_text", "PARAMETER p")]);
        v1.version = 1;
        let text = v1.to_json().replace(&format!("\"version\": {CURRENT}"), "\"version\": 1");
        let (first, problem) = from_v1(&text, &Meta::default());
        assert_eq!(problem, None);
        assert!(keys(&first).contains(&"p/speedup/target"));
        assert!(
            keys(&first).contains(&"p/bottlenecks/extrap_text"),
            "format 1's Extra-P text moves: {:?}",
            keys(&first)
        );
        assert!(keys(&first).contains(&CATALOG));
        assert_eq!(
            &first[first.len() - 2..],
            [(V1.to_string(), Some(text.clone())), (META.to_string(), Some(CURRENT.to_string()))]
        );
        // The same text again: nothing to write.
        let meta = Meta { format: CURRENT, v1: text.clone() };
        assert!(from_v1(&text, &meta).0.is_empty());
        // An old tab typed 640 in the target: only that is taken in.
        let later = text.replace("\"555\"", "\"640\"");
        assert_eq!(
            from_v1(&later, &meta).0,
            vec![("p/speedup/target".to_string(), Some("640".to_string())), (V1.to_string(), Some(later.clone()))]
        );
        // Damaged: said, nothing written but the text (so it is not said again until it changes).
        let (written, problem) = from_v1("{", &meta);
        assert!(problem.is_some());
        assert_eq!(keys(&written), [V1]);
        // No format-1 text at all (a browser that never ran a format-1 build): the format alone.
        assert_eq!(from_v1("", &Meta::default()), (vec![(META.to_string(), Some(CURRENT.to_string()))], None));
    }
}

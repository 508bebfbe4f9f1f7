//! Every workspace format scalewise has written, and the code that brings each one to the
//! current format. A file or a browser's storage of any format below opens with every input
//! intact (`tests/workspace.rs` checks it on what real builds wrote, kept in
//! `tests/data/workspace/`); one of a newer format is refused and nothing changes.
//!
//! | format | written by | what it changed |
//! |---|---|---|
//! | 1 | builds up to commit b5045d6 | the first. The browser kept the whole workspace, this JSON, under the localStorage key `scalewise.workspace` |
//! | 2 | builds since | the Extra-P texts (`extrap_*`) move from the speed-up page to the "Bottlenecks at scale" page, the latency matrix and grid broadcast from the communication page to the "Broadcast across sites" page. The browser keeps one record per input in IndexedDB ([`super::records`]) |
//!
//! A new format gets a row here, a step in [`upgrade`], and fixtures written by the last
//! build of the format before it (`scripts/workspace-fixtures.mjs`).

use super::{PageInputs, Workspace};
use crate::model::InputError;

/// The format this build writes.
pub const CURRENT: u32 = 2;

/// The Extra-P texts' prefix; in format 1 they were the speed-up page's.
const EXTRAP_PREFIX: &str = "extrap_";
/// The inputs of the communication page that format 2 moved to the "Broadcast across sites"
/// page, and the one it copied there (read by both). Written out, not taken from the pages'
/// fields: what a format was does not change with the pages (and the workspace, below the
/// pages, does not depend on them; `sites::page`'s tests check these are the pages' fields).
pub const FORMAT1_GRID_KEYS: &[&str] = &["matrix", "symmetrise", "rho", "root", "grid_size", "bandwidth_mb_s"];
pub const FORMAT1_SHARED_KEY: &str = "latency_share";
/// The pages format 2 moved inputs to (their keys in the table of calculators).
pub const FORMAT2_SITES_PAGE: &str = "sites";
pub const FORMAT2_EXTRAP_PAGE: &str = "bottlenecks";

/// Of a communication page's inputs, those that stay there: all but [`FORMAT1_GRID_KEYS`].
fn point_to_point(inputs: &PageInputs) -> PageInputs {
    inputs_where(inputs, |k| !FORMAT1_GRID_KEYS.contains(&k))
}

/// The inputs whose names pass `keep`. Inserted one by one: collecting into a map sorts, and
/// a retain or a sort brings code of its own into every page (each reads the workspace through
/// these upgrades), 2.4 KB gzipped of the Bottlenecks page's.
fn inputs_where(inputs: &PageInputs, keep: impl Fn(&str) -> bool) -> PageInputs {
    let mut out = PageInputs::new();
    for (k, v) in inputs {
        if keep(k) {
            out.insert(k.clone(), v.clone());
        }
    }
    out
}

/// The format of a file, storage or link that says it is `version`, when this build reads
/// it; `field` names the source in the refusal.
pub fn readable(field: &str, version: u64) -> Result<u32, InputError> {
    match u32::try_from(version) {
        Ok(v @ 1..=CURRENT) => Ok(v),
        Ok(0) => Err(InputError::new(field, "workspace format 0 does not exist (the first is 1)")),
        _ => Err(InputError::new(
            field,
            format!(
                "written by a newer scalewise (format {version}); this one reads formats 1 to {CURRENT}. \
                 Open it with the newer scalewise, or reload this page to get it"
            ),
        )),
    }
}

/// Brings a workspace read as format `from` to the current format, step by step.
pub fn upgrade(ws: &mut Workspace, from: u32) {
    if from < 2 {
        extrap_to_its_page(&mut ws.pages);
        grid_to_its_page(&mut ws.pages);
    }
    ws.version = CURRENT;
}

/// Format 1 → 2: the latency matrix and grid broadcast leave the communication page for the
/// "Broadcast across sites" page; the latency share, read by both, is copied.
fn grid_to_its_page(pages: &mut std::collections::BTreeMap<String, PageInputs>) {
    let Some(comm) = pages.get("comm") else { return };
    let grid = |k: &str| FORMAT1_GRID_KEYS.contains(&k) || k == FORMAT1_SHARED_KEY;
    let moved = inputs_where(comm, grid);
    if moved.is_empty() {
        return;
    }
    let kept = point_to_point(comm);
    pages.insert("comm".into(), kept);
    let mut own = moved;
    if let Some(before) = pages.get(FORMAT2_SITES_PAGE) {
        for (k, v) in before {
            own.insert(k.clone(), v.clone());
        }
    }
    // A page of only the shared latency share would hide the page's defaults: not moved alone.
    if own.len() > 1 || !own.contains_key(FORMAT1_SHARED_KEY) {
        pages.insert(FORMAT2_SITES_PAGE.into(), own);
    }
}

/// Format 1 → 2: the Extra-P texts leave the speed-up page for the bottlenecks page.
fn extrap_to_its_page(pages: &mut std::collections::BTreeMap<String, PageInputs>) {
    let Some(speedup) = pages.get("speedup") else { return };
    let (mut moved, mut kept) = (PageInputs::new(), PageInputs::new());
    for (k, v) in speedup {
        let to = if k.starts_with(EXTRAP_PREFIX) { &mut moved } else { &mut kept };
        to.insert(k.clone(), v.clone());
    }
    if moved.is_empty() {
        return;
    }
    // Left empty, the page shows its defaults, as an absent one would.
    pages.insert("speedup".into(), kept);
    let page = FORMAT2_EXTRAP_PAGE;
    if let Some(own) = pages.get(page) {
        for (k, v) in own {
            moved.insert(k.clone(), v.clone());
        }
    }
    pages.insert(page.into(), moved);
}

/// A page of a share link (every link so far has link format 1, whatever the workspace's):
/// a speed-up or communication link made before format 2 may carry the inputs of a page that
/// is now another (the Extra-P texts, the latency matrix), which a link of one page cannot
/// take there; they are left out.
pub fn shared_page(page: &str, inputs: &mut PageInputs) {
    if page == "comm" {
        *inputs = point_to_point(inputs);
    }
    if page == "speedup" {
        let mut kept = PageInputs::new();
        for (k, v) in std::mem::take(inputs) {
            if !k.starts_with(EXTRAP_PREFIX) {
                kept.insert(k, v);
            }
        }
        *inputs = kept;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(pairs: &[(&str, &str)]) -> PageInputs {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn format_1_moves_the_extrap_texts_to_their_page() {
        let mut ws = Workspace { version: 1, ..Workspace::default() };
        ws.pages.insert(
            "speedup".into(),
            inputs(&[("points", "n time\n1 5"), ("extrap_text", "PARAMETER p"), ("extrap_predict", "64")]),
        );
        upgrade(&mut ws, 1);
        assert_eq!(ws.version, CURRENT);
        assert_eq!(ws.pages["speedup"], inputs(&[("points", "n time\n1 5")]));
        assert_eq!(ws.pages["bottlenecks"], inputs(&[("extrap_predict", "64"), ("extrap_text", "PARAMETER p")]));
        // Only Extra-P texts: the speed-up page is left empty (it shows its defaults).
        let mut ws = Workspace::default();
        ws.pages.insert("speedup".into(), inputs(&[("extrap_text", "x")]));
        upgrade(&mut ws, 1);
        assert!(ws.pages["speedup"].is_empty());
        // Format 2 is not moved again: a speed-up input that starts with the prefix stays.
        let mut ws = Workspace::default();
        ws.pages.insert("speedup".into(), inputs(&[("extrap_text", "x")]));
        upgrade(&mut ws, 2);
        assert_eq!(ws.pages["speedup"], inputs(&[("extrap_text", "x")]));
    }

    #[test]
    fn format_1_moves_the_grid_inputs_to_their_page() {
        let mut ws = Workspace::default();
        ws.pages.insert(
            "comm".into(),
            inputs(&[("p2p", "size time\n8 1"), ("latency_share", "0.4"), ("matrix", "0 1\n1 0"), ("rho", "0.3")]),
        );
        upgrade(&mut ws, 1);
        assert_eq!(ws.pages["comm"], inputs(&[("p2p", "size time\n8 1"), ("latency_share", "0.4")]));
        assert_eq!(ws.pages["sites"], inputs(&[("latency_share", "0.4"), ("matrix", "0 1\n1 0"), ("rho", "0.3")]));
        // The point-to-point inputs alone: no page of the latency share alone.
        let mut ws = Workspace::default();
        ws.pages.insert("comm".into(), inputs(&[("p2p", "x"), ("latency_share", "0.4")]));
        upgrade(&mut ws, 1);
        assert!(!ws.pages.contains_key("sites"));
        // A communication link made before: its grid inputs are left out.
        let mut link = inputs(&[("procs", "20"), ("matrix", "0 1\n1 0")]);
        shared_page("comm", &mut link);
        assert_eq!(link, inputs(&[("procs", "20")]));
    }

    #[test]
    fn newer_and_impossible_formats_are_refused() {
        assert_eq!(readable("f", 1), Ok(1));
        assert_eq!(readable("f", u64::from(CURRENT)), Ok(CURRENT));
        for v in [u64::from(CURRENT) + 1, 1 << 40] {
            let e = readable("imported file", v).expect_err("newer");
            assert!(e.to_string().contains(&format!("written by a newer scalewise (format {v})")), "{e}");
        }
        assert!(readable("f", 0).is_err());
    }
}

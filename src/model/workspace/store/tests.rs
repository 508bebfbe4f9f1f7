use std::rc::Rc;

use super::*;
use crate::model::calculators::{MULTIGRID, SPEEDUP};
use crate::model::workspace::share;

fn speedup_defaults() -> PageInputs {
    [("points", "1 1\n2 1.9\n"), ("target", "16")].iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

const SPEEDUP_PAGE: Page = Page { calculator: &SPEEDUP, defaults: speedup_defaults };

fn inputs(pairs: &[(&str, &str)]) -> PageInputs {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// A tab that has read `ws` (none of it its own).
fn tab(ws: &Workspace) -> Rc<Store> {
    Rc::new(Store::new()).reduce(Action::Loaded { ws: ws.clone(), notice: None, own: None, embed: false })
}

fn set(key: &str, text: &str) -> Action {
    Action::EditPage { page: SPEEDUP_PAGE, edit: Edit::set(key, text.to_string()) }
}

/// What a tab saves between `before` and `after` (the records `ui::storage` writes), sent to
/// `other` as the records another tab wrote.
fn sync(before: &Store, after: &Store, other: Rc<Store>) -> Rc<Store> {
    records::changes(&before.ws, &after.ws, &|p| after.is_own(p))
        .into_iter()
        .fold(other, |s, (key, text)| s.reduce(Action::Remote { key, text }))
}

#[test]
fn an_edit_of_an_untouched_page_starts_from_its_defaults() {
    let s = tab(&Workspace::default()).reduce(set("target", "64"));
    let mut want = speedup_defaults();
    want.insert("target".into(), "64".into());
    assert_eq!(s.page_inputs("speedup"), want);
    assert!(s.undo.is_none(), "a keystroke is not kept for Undo");
}

#[test]
fn a_preset_and_a_fill_are_taken_back_by_undo() {
    let typed = tab(&Workspace::default()).reduce(set("target", "64"));
    let preset = typed.clone().reduce(Action::SetPage {
        page: SPEEDUP_PAGE,
        inputs: inputs(&[("target", "8")]),
        label: "Loaded a preset".into(),
    });
    assert_eq!(preset.page_inputs("speedup"), inputs(&[("target", "8")]));
    assert_eq!(preset.undo.as_ref().map(|u| u.label.as_str()), Some("Loaded a preset"));
    let back = preset.reduce(Action::Undo);
    assert_eq!(back.page_inputs("speedup"), typed.page_inputs("speedup"), "what the user typed comes back");
    assert!(back.undo.is_none());
    let filled = back.clone().reduce(Action::Fill {
        page: SPEEDUP_PAGE,
        fields: vec![("points", "4 3.5\n".into())],
        label: "Loaded runs.csv".into(),
    });
    assert_eq!(filled.page_inputs("speedup")["points"], "4 3.5\n");
    assert_eq!(filled.page_inputs("speedup")["target"], "64", "a fill keeps the other fields");
    assert_eq!(filled.reduce(Action::Undo).page_inputs("speedup"), back.page_inputs("speedup"));
}

#[test]
fn two_tabs_edits_of_different_fields_both_survive() {
    // A page both tabs have open, saved once (edits of an untouched page write its defaults
    // too, so two first edits in the same instant would each write the other's field).
    let mut saved = Workspace::default();
    saved.pages.insert("speedup".into(), speedup_defaults());
    let (a, b) = (tab(&saved), tab(&saved));
    let a2 = a.clone().reduce(set("target", "64"));
    let b2 = b.clone().reduce(set("points", "1 1\n"));
    // Each tab saves its edit; each hears the other's.
    let b3 = sync(&a, &a2, b2.clone());
    let a3 = sync(&b, &b2, a2.clone());
    let both = inputs(&[("points", "1 1\n"), ("target", "64")]);
    assert_eq!(records::changes(&a.ws, &a2.ws, &|_| false).len(), 1, "a keystroke writes its field alone");
    assert_eq!(a3.page_inputs("speedup"), both);
    assert_eq!(b3.page_inputs("speedup"), both);
    // What both saved, read by a third tab that opens later: the same.
    let journal: Vec<(String, String)> = records::all(&saved)
        .into_iter()
        .chain(records::changes(&saved, &a2.ws, &|_| false))
        .chain(records::changes(&saved, &b2.ws, &|_| false))
        .filter_map(|(k, t)| Some((k, t?)))
        .collect();
    let (read, _, problems) = records::read(&journal).expect("readable");
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(read.pages["speedup"], both);
}

#[test]
fn a_remote_edit_then_an_edit_here_keeps_both() {
    // The remove applies to the texts of the moment: calibration 3's text, edited in the other
    // tab after this tab's view was drawn, moves down to 2 rather than being lost.
    let mg = |texts: &[(&str, &str)]| inputs(texts);
    let start = mg(&[("cal_count", "3"), ("cal1_seq", "one"), ("cal2_seq", "two"), ("cal3_seq", "three")]);
    fn no_defaults() -> PageInputs {
        PageInputs::new()
    }
    let page = Page { calculator: &MULTIGRID, defaults: no_defaults };
    let s = tab(&Workspace::default()).reduce(Action::SetPage { page, inputs: start, label: "start".into() });
    let s = s.reduce(Action::Remote {
        key: records::input_key("multigrid", "cal3_seq"),
        text: Some("three, edited elsewhere".into()),
    });
    let s = s.reduce(Action::EditPage { page, edit: crate::model::multigrid::page::remove_calibration(3, 2) });
    let got = s.page_inputs("multigrid");
    assert_eq!((got["cal_count"].as_str(), got["cal2_seq"].as_str()), ("2", "three, edited elsewhere"));
    assert_eq!(got["cal3_seq"], "");
}

#[test]
fn a_share_link_is_the_tabs_own_until_kept_and_never_saved_over_the_site() {
    let mut site = Workspace::default();
    site.pages.insert("speedup".into(), inputs(&[("target", "32")]));
    let shared = share::unpack(&share::pack("speedup", &inputs(&[("target", "999")]), &site.catalog)).expect("a link");
    let s = Rc::new(Store::new()).reduce(Action::Loaded {
        ws: site.clone(),
        notice: None,
        own: Some(shared),
        embed: false,
    });
    assert_eq!(s.page_inputs("speedup")["target"], "999");
    assert!(s.is_own("speedup") && !s.is_own("regions"));
    // Edited here: nothing of the page is written to the site's records.
    let edited = s.clone().reduce(set("target", "1000"));
    assert!(records::changes(&s.ws, &edited.ws, &|p| edited.is_own(p)).is_empty());
    // The site's inputs, edited in another tab, are followed for "Show my inputs".
    let remote =
        edited.reduce(Action::Remote { key: records::input_key("speedup", "target"), text: Some("48".into()) });
    assert_eq!(remote.page_inputs("speedup")["target"], "1000", "the shared page stays on screen");
    let mine = remote.clone().reduce(Action::CloseShared);
    assert_eq!(mine.page_inputs("speedup")["target"], "48");
    assert!(mine.own.is_none());
    // Undo brings the shared inputs back, still the tab's own.
    let again = mine.reduce(Action::Undo);
    assert_eq!(again.page_inputs("speedup")["target"], "1000");
    assert!(again.is_own("speedup"));
    // Kept: now the site's, saved like any edit.
    let kept = again.clone().reduce(Action::KeepShared);
    assert!(!kept.is_own("speedup"));
    let written = records::changes(&site, &kept.ws, &|p| kept.is_own(p));
    assert_eq!(written, vec![(records::input_key("speedup", "target"), Some("1000".into()))]);
}

#[test]
fn an_embed_saves_nothing_and_follows_no_other_tab() {
    let s =
        Rc::new(Store::new()).reduce(Action::Loaded { ws: Workspace::default(), notice: None, own: None, embed: true });
    let edited = s.clone().reduce(set("target", "64"));
    assert!(records::changes(&s.ws, &edited.ws, &|p| edited.is_own(p)).is_empty());
    let after =
        edited.clone().reduce(Action::Remote { key: records::input_key("speedup", "target"), text: Some("2".into()) });
    assert!(Rc::ptr_eq(&after, &edited), "an embed ignores other tabs");
}

#[test]
fn an_import_and_a_catalog_reset_are_taken_back_by_undo() {
    let typed = tab(&Workspace::default()).reduce(set("target", "64"));
    let mut other = Workspace::default();
    other.pages.insert("regions".into(), inputs(&[("a", "b")]));
    let imported = typed.clone().reduce(Action::Replace(other.clone()));
    assert_eq!(*imported.ws, other);
    assert_eq!(imported.clone().reduce(Action::Undo).ws, typed.ws);
    let emptied = typed.clone().reduce(Action::SetCatalog(Catalog { clusters: Vec::new(), links: Vec::new() }));
    let reset = emptied.clone().reduce(Action::ResetCatalog);
    assert_eq!(reset.ws.catalog, catalog::presets());
    assert_eq!(reset.reduce(Action::Undo).ws.catalog, emptied.ws.catalog);
}

//! The one place that decides what a file given to the Bottlenecks calculator is, from its
//! name and its first bytes: the page's file picker and drop zone, its worker and the command
//! all ask here. Adding a format is its reader plus a line in [`by_name`] or [`detect`].
//!
//! A file is a profile of a run (Cube, `.cali`, Caliper JSON, a TAU profile file, a part of an
//! HPCToolkit database), a saved Extra-P experiment, or an experiment as text (whose layout
//! [`super::sniff`] tells). What is none of these is named, as far as its first bytes tell.

use super::Format;
use crate::model::{hpctoolkit, tau};

/// How many first bytes [`detect`] looks at (fewer when the file is shorter).
pub const HEAD: usize = 512;

/// What a file is by its name alone: a profile format, a saved experiment, or None (its bytes
/// decide). `path` is its path from the folder given, `/` between parts.
pub fn by_name(path: &str) -> Option<Format> {
    let file = path.rsplit('/').next().unwrap_or(path);
    if file.starts_with('.') {
        return None;
    }
    if file.ends_with(".cubex") {
        Some(Format::Cube)
    } else if file.ends_with(".cali") {
        Some(Format::Cali)
    } else if file.ends_with(".extra-p") {
        Some(Format::Saved)
    } else if tau::is_profile_name(file) {
        Some(Format::Tau)
    } else if hpctoolkit::is_database_file(file) {
        Some(Format::Hpctoolkit)
    } else {
        None
    }
}

/// The format a file's first bytes alone say it is, by their magic numbers or first record
/// (a saved experiment's zip, a Cube profile's tar or gzip, a `.cali` record, an HPCToolkit
/// metric-db header, a TAU profile's first line); None when they do not. Cheap, for the pages
/// that only name what was pasted.
pub fn by_magic(head: &[u8]) -> Option<Format> {
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        Some(Format::Saved)
    } else if head.get(257..262) == Some(b"ustar".as_slice()) || head.starts_with(&[0x1f, 0x8b]) {
        Some(Format::Cube)
    } else if head.starts_with(b"__rec=") {
        Some(Format::Cali)
    } else if head.starts_with(b"HPCPROF-") {
        Some(Format::Hpctoolkit)
    } else if tau_first_line(head) {
        Some(Format::Tau)
    } else {
        None
    }
}

/// What a file is, from its name and first bytes ([`HEAD`] of them): a format read here, or
/// a sentence naming what it looks like and why it is not read.
pub fn detect(path: &str, head: &[u8]) -> Result<Format, String> {
    if let Some(f) = by_magic(head) {
        return Ok(f);
    }
    if let Some(newer) = hpctoolkit::newer_format(path, head) {
        return Err(newer.into());
    }
    if let Some(what) = known_other(head) {
        return Err(what.into());
    }
    if let Some(f) = by_name(path) {
        return Ok(f);
    }
    let text = std::str::from_utf8(&head[..utf8_prefix(head)]).ok().unwrap_or("");
    let first = text.trim_start_matches('\u{feff}').trim_start();
    if first.starts_with('<') {
        if first.contains("<HPCToolkitExperiment") || first.contains("HPCToolkitExperiment") {
            return Ok(Format::Hpctoolkit);
        }
        return Err(
            "an XML file that is no HPCToolkit experiment.xml (its first element is not HPCToolkitExperiment)".into()
        );
    }
    if crate::model::cali::json::sniff(head) {
        return Ok(Format::CaliJson);
    }
    if first.starts_with('[') {
        return Err("a JSON list: Caliper's \"json\" layout (a list of records) is not read; write the profile with cali-query's format json-split, or give the .cali file".into());
    }
    if head.iter().take(HEAD).any(|&b| b == 0) {
        return Err("a binary file of no format read here (a Cube profile, a saved Extra-P experiment, a .cali, Caliper JSON, TAU or HPCToolkit profile)".into());
    }
    Ok(Format::Text)
}

/// Files often dropped by mistake, by their magic numbers.
fn known_other(head: &[u8]) -> Option<&'static str> {
    const MAGIC: &[(&[u8], &str)] = &[
        (b"%PDF", "a PDF document, not a profile"),
        (b"\x89PNG", "a PNG image, not a profile"),
        (b"\xff\xd8\xff", "a JPEG image, not a profile"),
        (b"\x7fELF", "a program (an ELF binary), not a profile"),
        (b"\x28\xb5\x2f\xfd", "a Zstandard archive: unpack it first"),
        (b"BZh", "a bzip2 archive: unpack it first"),
        (b"\xfd7zXZ", "an xz archive: unpack it first"),
        (b"\x89HDF", "an HDF5 file (a Thicket or Hatchet dump?), which is not read"),
        (b"SQLite format 3", "an SQLite database, which is not read"),
    ];
    MAGIC.iter().find(|(m, _)| head.starts_with(m)).map(|(_, w)| *w)
}

/// How many bytes of `head` are whole UTF-8 characters (a head may cut one in two).
fn utf8_prefix(head: &[u8]) -> usize {
    match std::str::from_utf8(head) {
        Ok(_) => head.len(),
        Err(e) if e.error_len().is_none() => e.valid_up_to(),
        Err(_) => 0,
    }
}

/// Whether bytes open with a TAU profile's first line: `N templated_functions...`.
fn tau_first_line(head: &[u8]) -> bool {
    let digits = head.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && head[digits..].strip_prefix(b" ").is_some_and(|r| r.starts_with(b"templated_functions"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_tell_the_profiles() {
        assert_eq!(by_name("app.p64.r1/profile.cubex"), Some(Format::Cube));
        assert_eq!(by_name("run/lulesh.cali"), Some(Format::Cali));
        assert_eq!(by_name("study.extra-p"), Some(Format::Saved));
        assert_eq!(by_name("tau.p8/profile.3.0.12"), Some(Format::Tau));
        assert_eq!(by_name("MULTI__TIME/profile.0.0.0"), Some(Format::Tau));
        assert_eq!(by_name("db/experiment.xml"), Some(Format::Hpctoolkit));
        assert_eq!(by_name("db/1.cpi-000002-000-a8c00270-160445-0.metric-db"), Some(Format::Hpctoolkit));
        for none in ["profile.0.0", "profile.a.0.0", "profile.0.0.0.0", ".profile.cubex", "run.json", "notes.txt"] {
            assert_eq!(by_name(none), None, "{none}");
        }
    }

    #[test]
    fn first_bytes_tell_the_rest() {
        let mut tar = vec![0u8; 512];
        tar[257..262].copy_from_slice(b"ustar");
        assert_eq!(detect("x", &tar), Ok(Format::Cube));
        assert_eq!(detect("x", b"PK\x03\x04rest"), Ok(Format::Saved));
        assert_eq!(detect("x", b"__rec=node,id=12"), Ok(Format::Cali));
        assert_eq!(detect("x", b"23 templated_functions_MULTI_TIME\n# Name"), Ok(Format::Tau));
        assert_eq!(detect("x", b"<?xml version=\"1.0\"?>\n<!DOCTYPE HPCToolkitExperiment ["), Ok(Format::Hpctoolkit));
        assert_eq!(
            detect("x.json", br#"{"data": [[1, 2]], "columns": ["time", "path"], "nodes": []}"#),
            Ok(Format::CaliJson)
        );
        assert_eq!(detect("x.json", br#"{"parameters": ["p"], "measurements": {}}"#), Ok(Format::Text));
        assert_eq!(detect("x.txt", b"PARAMETER p\nPOINTS 1 2\n"), Ok(Format::Text));
    }

    #[test]
    fn what_is_not_read_is_named() {
        let cases: [(&[u8], &str); 6] = [
            (b"HPCTOOLKITmeta", "newer HPCToolkit database format"),
            (b"%PDF-1.7", "PDF"),
            (b"\x89HDF\r\n", "HDF5"),
            (b"[{\"path\": \"main\"}]", "json-split"),
            (b"<html><body>", "no HPCToolkit"),
            (b"\x00\x01\x02\x03", "binary"),
        ];
        for (head, says) in cases {
            let m = detect("f", head).unwrap_err();
            assert!(m.contains(says), "{m}");
        }
    }

    #[test]
    fn a_profile_pasted_as_text_is_named_and_sent_to_be_read_as_a_file() {
        for (text, says) in [
            ("__rec=node,id=12,attr=8,data=163", "this is a Caliper profile (.cali); it is read as a file"),
            ("23 templated_functions_MULTI_TIME\n# Name Calls", "this is a TAU profile"),
            ("HPCPROF-metricdb__1.0", "HPCToolkit database"),
        ] {
            let m = super::super::parse(text).unwrap_err().message;
            assert!(m.contains(says), "{m}");
        }
    }

    #[test]
    fn a_head_cut_inside_a_character_is_still_text() {
        let mut head = b"PARAMETER p\n# caf".to_vec();
        head.push(0xc3); // the first byte of "é", its second past the head
        assert_eq!(detect("e.txt", &head), Ok(Format::Text));
    }
}

//! The Bottlenecks calculator's input formats, each defined once: its name ([`Format`]), how
//! a file of it is recognised from its name and first bytes, and, for a profiler's runs, how
//! its files make runs, its reader and the words messages use ([`PROFILERS`]). The page's file
//! picker and drop zone, its worker and the command all ask [`detect`] here, and the run set
//! (`runs.rs`), the help and the docs read the rows. A new profiler is its reader (a file of its
//! own, which may be `formats/<name>.rs` declared here) and its variant and row in this file.
//!
//! A file is a profile of a run (Cube, `.cali`, Caliper JSON, a TAU profile file, a part of an
//! HPCToolkit database), a saved Extra-P experiment, or an experiment as text (whose layout
//! [`super::sniff`] tells). What is none of these is named, as far as its first bytes tell.

use crate::model::profile::{self, RunProfile, Want};
use crate::model::{cali, cube, hpctoolkit, tau, InputError};

/// Which of Extra-P's formats a text is in, or which profiler's runs a folder holds. Every
/// variant is listed by `Format::iter()` (`strum::IntoEnumIterator`): `tests/docs.rs` checks
/// that `scalewise bottlenecks --help` names each one's [`Format::name`], and the tests below
/// that every profile format has its row in [`PROFILERS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, strum::EnumIter)]
pub enum Format {
    Text,
    /// Either JSON layout, the newer or the older with ids.
    Json,
    JsonLines,
    Talpas,
    /// A saved Extra-P experiment (`.extra-p`, `saved.rs`).
    Saved,
    /// Score-P runs: Cube 4 profiles (`model::cube`).
    Cube,
    /// Caliper runs: `.cali` profiles (`model::cali`).
    Cali,
    /// Caliper's JSON (json-split) runs (`model::cali::json`).
    CaliJson,
    /// TAU profile folders (`model::tau`).
    Tau,
    /// HPCToolkit databases (`model::hpctoolkit`).
    Hpctoolkit,
}

impl Format {
    /// Its name in the command's answer (`format`, `runs.source`) and help.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::JsonLines => "jsonl",
            Format::Talpas => "talpas",
            Format::Saved => "extra-p",
            Format::Cube => "cube",
            Format::Cali => "cali",
            Format::CaliJson => "cali-json",
            Format::Tau => "tau",
            Format::Hpctoolkit => "hpctoolkit",
        }
    }

    /// Its row, when it is a profiler's runs.
    pub fn profiler(self) -> Option<&'static Profiler> {
        PROFILERS.iter().find(|p| p.format == self)
    }

    /// Whether it is read from files (a profile or a saved experiment), not from text.
    pub fn is_file(self) -> bool {
        self == Format::Saved || self.profiler().is_some()
    }
}

/// One run's files (each its path inside the run's folder, and its bytes) read into a figure
/// per call path of the metric wanted, within the limits.
pub type Reader = fn(&[(&str, &[u8])], &Want, &Limits) -> Result<RunProfile, InputError>;

/// How a profiler's files make runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runs {
    /// Extra-P's layout: a folder per run named by its point (`app.p64.r1`), each holding a
    /// profile; or profiles given alone, one point each.
    NamedFolders,
    /// Each file is a run, in the folder given or one level down; its point comes from its
    /// metadata.
    File,
    /// Each folder is a run, its files in it (or, for a folder whose name starts with
    /// `metric_folder`, in such folders of it, one per metric); its point comes from the
    /// folder's name where every run's gives one, else from its metadata.
    Folder { metric_folder: Option<&'static str> },
}

/// A profiler whose runs the Bottlenecks calculator reads.
pub struct Profiler {
    pub format: Format,
    /// The profiler's name as a sentence names the runs ("40 runs read (TAU profiles, …)").
    pub kind: &'static str,
    /// One file of it, and several, as messages name them.
    pub one: &'static str,
    pub many: &'static str,
    /// What a location of its runs is, one and several ("process", "processes").
    pub location: (&'static str, &'static str),
    /// Its files by their name alone (a file name, without its folder).
    pub name: fn(&str) -> bool,
    /// Its files by their first bytes, asked before the name (a magic number).
    pub magic: fn(&[u8]) -> bool,
    /// Its files by their first bytes when neither a magic number nor the name told (a weaker
    /// sign: an XML element, JSON keys).
    pub content: fn(&[u8]) -> bool,
    /// A name a file of it may have when its bytes are asked (`.json`): such files are taken
    /// as runs when no file of another profiler is named.
    pub maybe: Option<&'static str>,
    pub runs: Runs,
    /// The global its reader gives the run's count of ranks in, a process count the run's
    /// point may come from.
    pub ranks_global: Option<&'static str>,
    /// Its reader (None: Cube, reduced in `runs.rs` with the points of its folders' names).
    pub read: Option<Reader>,
    /// One line for `scalewise bottlenecks --help` and docs/formats.md: what it reads.
    pub help: &'static str,
}

const fn never_name(_: &str) -> bool {
    false
}

const fn never_bytes(_: &[u8]) -> bool {
    false
}

/// Every profiler whose runs are read, in the order the help lists them.
pub const PROFILERS: &[Profiler] = &[
    Profiler {
        format: Format::Cube,
        kind: "Cube 4",
        one: "a Cube profile",
        many: "Cube profiles (.cubex)",
        location: ("location", "locations"),
        name: |f| f.ends_with(".cubex"),
        magic: |h| h.get(257..262) == Some(b"ustar".as_slice()) || h.starts_with(&[0x1f, 0x8b]),
        content: never_bytes,
        maybe: None,
        runs: Runs::NamedFolders,
        ranks_global: None,
        read: None,
        help: "Score-P runs: Cube 4 profiles (profile.cubex), a folder per run named by its point (app.p64.r2)",
    },
    Profiler {
        format: Format::Cali,
        kind: "Caliper",
        one: "a Caliper profile",
        many: "Caliper profiles (.cali)",
        location: ("process", "processes"),
        name: |f| f.ends_with(".cali"),
        magic: |h| h.starts_with(b"__rec="),
        content: never_bytes,
        maybe: None,
        runs: Runs::File,
        ranks_global: None,
        read: Some(|files, want, limits| {
            cali::read_run(files[0].1, want, &limits.cali())
                .map_err(|e| InputError { field: super::FIELD.into(), ..e })
        }),
        help: "Caliper profiles (.cali), one file a run, its point from its globals",
    },
    Profiler {
        format: Format::CaliJson,
        kind: "Caliper JSON",
        one: "a Caliper JSON file",
        many: "Caliper JSON files",
        location: ("process", "processes"),
        name: never_name,
        magic: never_bytes,
        content: cali::json::sniff,
        maybe: Some(".json"),
        runs: Runs::File,
        ranks_global: Some(cali::json::RANKS_GLOBAL),
        read: Some(|files, want, limits| cali::json::read(files[0].1, want, &limits.profile())),
        help: "Caliper json-split files (cali-query's format json-split), one file a run",
    },
    Profiler {
        format: Format::Tau,
        kind: "TAU",
        one: "a TAU profile",
        many: "TAU profiles (profile.N.C.T)",
        location: ("location", "locations"),
        name: tau::is_profile_name,
        magic: tau_first_line,
        content: never_bytes,
        maybe: None,
        runs: Runs::Folder { metric_folder: Some("MULTI__") },
        ranks_global: Some("tau.ranks"),
        read: Some(|files, want, limits| tau::read(files, want, &limits.profile())),
        help: "TAU profile folders (profile.N.C.T files, one a thread, or MULTI__<METRIC> folders of them), one folder a run",
    },
    Profiler {
        format: Format::Hpctoolkit,
        kind: "HPCToolkit",
        one: "a part of an HPCToolkit database",
        many: "HPCToolkit databases (experiment.xml)",
        location: ("location", "locations"),
        name: hpctoolkit::is_database_file,
        magic: |h| h.starts_with(b"HPCPROF-"),
        content: |h| {
            let text = std::str::from_utf8(&h[..utf8_prefix(h)]).unwrap_or("");
            text.trim_start_matches('\u{feff}').trim_start().starts_with('<') && text.contains("HPCToolkitExperiment")
        },
        maybe: None,
        runs: Runs::Folder { metric_folder: None },
        ranks_global: Some("hpctoolkit.ranks"),
        read: Some(|files, want, limits| hpctoolkit::read(files, want, &limits.profile())),
        help: "HPCToolkit databases (experiment.xml with its .metric-db files, hpcprof-mpi --metric-db yes), one folder a run",
    },
];

/// One line per profiler, its name and what it reads ([`Profiler::help`]), as the command's
/// help lists them, wrapped at 92 columns under the text.
pub fn profiler_lines(indent: &str) -> String {
    let width = PROFILERS.iter().map(|p| p.format.name().len() + 2).max().unwrap_or(0);
    let under = " ".repeat(indent.len() + width);
    let mut out: Vec<String> = Vec::new();
    for p in PROFILERS {
        let mut line = format!("{indent}{:<width$}", p.format.name());
        let mut fresh = true;
        for word in p.help.split(' ') {
            if !fresh && line.len() + 1 + word.len() > 92 {
                out.push(std::mem::replace(&mut line, under.clone()));
                fresh = true;
            }
            if !fresh {
                line.push(' ');
            }
            line.push_str(word);
            fresh = false;
        }
        out.push(line);
    }
    out.join("\n")
}

/// The limits of a set of runs, defined once: the command and the page read within them, and
/// past one the reading stops with a message naming it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Most runs (profiles) in a set.
    pub runs: usize,
    /// Most bytes of one file as stored.
    pub file_bytes: usize,
    /// Most bytes one profile inflates to (its members together).
    pub inflated_bytes: usize,
    /// Most call paths of one profile.
    pub callpaths: usize,
    /// Most locations (processes × threads) of one profile.
    pub locations: usize,
}

/// The limits the command and the page read within.
pub const LIMITS: Limits =
    Limits { runs: 4_096, file_bytes: 1 << 30, inflated_bytes: 2 << 30, callpaths: 100_000, locations: 1 << 20 };

impl Limits {
    /// The Caliper reader's limits for one profile.
    pub fn cali(&self) -> cali::Limits {
        cali::Limits {
            max_bytes: self.file_bytes,
            max_nodes: self.callpaths.saturating_mul(40),
            max_records: self.callpaths.saturating_mul(40),
        }
    }

    /// The limits of one run for the readers of [`RunProfile`]s.
    pub fn profile(&self) -> profile::Limits {
        profile::Limits { max_paths: self.callpaths, max_locations: self.locations }
    }

    /// The Cube reader's limits for one profile.
    pub fn cube(&self) -> cube::Limits {
        cube::Limits {
            max_bytes: self.inflated_bytes,
            max_cnodes: self.callpaths,
            max_locations: self.locations,
            max_metrics: 4_096,
        }
    }
}

/// How many first bytes [`detect`] looks at (fewer when the file is shorter).
pub const HEAD: usize = 512;

/// What a file is by its name alone: a profile format, a saved experiment, or None (its bytes
/// decide). `path` is its path from the folder given, `/` between parts.
pub fn by_name(path: &str) -> Option<Format> {
    let file = path.rsplit('/').next().unwrap_or(path);
    if file.starts_with('.') {
        return None;
    }
    if file.ends_with(".extra-p") {
        return Some(Format::Saved);
    }
    PROFILERS.iter().find(|p| (p.name)(file)).map(|p| p.format)
}

/// The format a file's first bytes alone say it is, by their magic numbers or first record
/// (a saved experiment's zip, a Cube profile's tar or gzip, a `.cali` record, an HPCToolkit
/// metric-db header, a TAU profile's first line); None when they do not. Cheap, for the pages
/// that only name what was pasted.
pub fn by_magic(head: &[u8]) -> Option<Format> {
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Some(Format::Saved);
    }
    PROFILERS.iter().find(|p| (p.magic)(head)).map(|p| p.format)
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
    if let Some(p) = PROFILERS.iter().find(|p| (p.content)(head)) {
        return Ok(p.format);
    }
    let text = std::str::from_utf8(&head[..utf8_prefix(head)]).ok().unwrap_or("");
    let first = text.trim_start_matches('\u{feff}').trim_start();
    if first.starts_with('<') {
        return Err(
            "an XML file that is no HPCToolkit experiment.xml (its first element is not HPCToolkitExperiment)".into()
        );
    }
    if first.starts_with('[') {
        return Err("a JSON list: Caliper's \"json\" layout (a list of records) is not read; write the profile with cali-query's format json-split, or give the .cali file".into());
    }
    if head.iter().take(HEAD).any(|&b| b == 0) {
        let ones: Vec<&str> = PROFILERS.iter().map(|p| p.one).collect();
        let (last, rest) = ones.split_last().unwrap_or((&"a profile", &[]));
        return Err(format!(
            "a binary file of no format read here (a saved Extra-P experiment, {} or {last})",
            rest.join(", ")
        ));
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
    fn every_profile_format_has_one_row_and_the_rows_are_told_apart() {
        use strum::IntoEnumIterator;
        for f in Format::iter() {
            let rows = PROFILERS.iter().filter(|p| p.format == f).count();
            let text = matches!(f, Format::Text | Format::Json | Format::JsonLines | Format::Talpas | Format::Saved);
            assert_eq!(rows, usize::from(!text), "{f:?} needs {} row in PROFILERS", if text { "no" } else { "one" });
        }
        for p in PROFILERS {
            assert!(!p.help.is_empty() && p.one.starts_with('a') && !p.kind.is_empty(), "{:?}", p.format);
            assert_eq!(p.read.is_none(), p.runs == Runs::NamedFolders, "{:?}: only Cube is read in runs.rs", p.format);
            // Another row's file is not taken for this one's, by its name or its magic number.
            for (name, head) in
                [("profile.cubex", &b"x"[..]), ("x.cali", b"__rec=node"), ("profile.0.0.0", b"1 templated_functions")]
            {
                let by = PROFILERS.iter().filter(|q| (q.name)(name)).count();
                let magic = PROFILERS.iter().filter(|q| (q.magic)(head)).count();
                assert!(by <= 1 && magic <= 1, "{name}");
            }
        }
    }

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
            ("__rec=node,id=12,attr=8,data=163", "this is a Caliper profile; it is read as a file"),
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

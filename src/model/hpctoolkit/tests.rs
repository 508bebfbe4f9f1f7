use super::*;

const LIMITS: Limits = Limits { max_paths: 100_000, max_locations: 10_000 };
pub(crate) const CPI: &str = "hpctoolkit-cpi-database";
const ALLGATHER: &str = "hpctoolkit-allgather-database";

/// Hatchet's figures for the two databases (tests/data/hpctoolkit/, copied from Hatchet's
/// tests), printed by `/work/venv/bin/python scripts/hpctoolkit-reference.py >
/// tests/data/hpctoolkit/hatchet-reference.txt` with llnl-hatchet 2026.2.0 from PyPI: per
/// database, per path, the inclusive total and max and the exclusive total and max, seconds.
const HATCHET: &str = include_str!("../../../tests/data/hpctoolkit/hatchet-reference.txt");

/// Builds a database's files from their names under tests/data/hpctoolkit/ (included at
/// build time: the model's tests do no I/O).
macro_rules! files {
    ($dir:literal: $($f:literal),* $(,)?) => {
        vec![$(($f.to_string(), include_bytes!(concat!("../../../tests/data/hpctoolkit/", $dir, "/", $f)).to_vec())),*]
    };
}

/// A database's files, sorted by name.
pub(crate) fn database(name: &str) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = if name == CPI {
        files!("hpctoolkit-cpi-database": "1.cpi-000000-000-a8c00270-160443-0.metric-db", "1.cpi-000001-000-a8c00270-160444-0.metric-db", "1.cpi-000002-000-a8c00270-160445-0.metric-db", "1.cpi-000003-000-a8c00270-160446-0.metric-db", "experiment.xml")
    } else {
        files!("hpctoolkit-allgather-database": "1.osu_allgather-000000-000-a8c00471-152577-0.metric-db", "1.osu_allgather-000000-001-a8c00471-152577-0.metric-db", "1.osu_allgather-000001-000-a8c00471-152578-0.metric-db", "1.osu_allgather-000001-001-a8c00471-152578-0.metric-db", "1.osu_allgather-000002-000-a8c00471-152579-0.metric-db", "1.osu_allgather-000002-001-a8c00471-152579-0.metric-db", "1.osu_allgather-000003-000-a8c00471-152580-0.metric-db", "1.osu_allgather-000003-001-a8c00471-152580-0.metric-db", "1.osu_allgather-000004-000-a8c00471-152581-0.metric-db", "1.osu_allgather-000004-001-a8c00471-152581-0.metric-db", "1.osu_allgather-000005-000-a8c00471-152582-0.metric-db", "1.osu_allgather-000005-001-a8c00471-152582-0.metric-db", "1.osu_allgather-000006-000-a8c00471-152583-0.metric-db", "1.osu_allgather-000006-001-a8c00471-152583-0.metric-db", "1.osu_allgather-000007-000-a8c00471-152584-0.metric-db", "1.osu_allgather-000007-001-a8c00471-152584-0.metric-db", "1.osu_allgather-000008-000-a8c00471-152585-0.metric-db", "1.osu_allgather-000008-001-a8c00471-152585-0.metric-db", "1.osu_allgather-000009-000-a8c00471-152586-0.metric-db", "1.osu_allgather-000009-001-a8c00471-152586-0.metric-db", "experiment.xml")
    };
    files.sort();
    files
}

fn run(files: &[(String, Vec<u8>)], want: &Want, limits: &Limits) -> Result<RunProfile, InputError> {
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    read(&refs, want, limits)
}

fn want(inclusive: bool) -> Want {
    Want { metric: None, inclusive }
}

fn err(files: &[(String, Vec<u8>)]) -> String {
    run(files, &want(true), &LIMITS).expect_err("a refusal").to_string() // ok: a test
}

/// Hatchet's lines of one database: path → [inclusive total, max, exclusive total, max]. A
/// line is a path's last name after a space per caller, its callers the lines above.
fn hatchet(db: &str) -> HashMap<String, [f64; 4]> {
    let mut out = HashMap::new();
    let (mut on, mut callers) = (false, Vec::<String>::new());
    for line in HATCHET.lines() {
        if let Some(name) = line.strip_prefix("database ") {
            on = name == db;
        } else if on {
            let (name, figures) = line.split_once('\t').expect("name, tab, figures"); // ok: a test
            let last = name.trim_start_matches(' ');
            callers.truncate(name.len() - last.len());
            callers.push(last.to_string());
            let f: Vec<f64> = figures.split(' ').map(|x| x.parse().expect("a number")).collect(); // ok: a test
            out.insert(callers.join("->"), [f[0], f[1], f[2], f[3]]);
        }
    }
    out
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

#[test]
fn hpctoolkit_figures_are_hatchets() {
    for db in [CPI, ALLGATHER] {
        let reference = hatchet(db);
        let files = database(db);
        for (k, inclusive) in [(0, true), (2, false)] {
            let p = run(&files, &want(inclusive), &LIMITS).expect("the database reads"); // ok: a test
            assert_eq!(p.metric, "CPUTIME (s)");
            assert_eq!(p.paths.len(), reference.len(), "{db}: paths");
            for v in &p.paths {
                let r = reference.get(&v.path).unwrap_or_else(|| panic!("{db}: {} not in Hatchet's", v.path)); // ok: a test
                assert!(close(v.total, r[k]) && close(v.max, r[k + 1]), "{db} {}: {v:?}, Hatchet {r:?}", v.path);
            }
        }
    }
}

#[test]
fn hpctoolkit_cpi_run() {
    let files = database(CPI);
    let p = run(&files, &want(true), &LIMITS).expect("reads"); // ok: a test
    assert_eq!(p.metrics, ["CPUTIME (s)"]);
    assert!(p.inclusive);
    assert_eq!(p.locations, 4);
    assert_eq!(p.globals, [("hpctoolkit.ranks".to_string(), 4.0), ("hpctoolkit.threads".to_string(), 1.0)]);
    assert_eq!(p.paths[0].path, "<program root>");
    assert!(close(p.paths[0].total, 3.998242) && close(p.paths[0].max, 1.000306));
    // The metric by its name, with or without its kind.
    for m in ["CPUTIME (usec)", "CPUTIME (usec) (I)", "CPUTIME (s)"] {
        let q = run(&files, &Want { metric: Some(m.into()), inclusive: true }, &LIMITS).expect("reads"); // ok: a test
        assert_eq!(q, p);
    }
}

#[test]
fn hpctoolkit_exclusive_values_add_up_to_the_root() {
    for (db, threads) in [(CPI, 1.0), (ALLGATHER, 2.0)] {
        let files = database(db);
        let inc = run(&files, &want(true), &LIMITS).expect("reads"); // ok: a test
        let exc = run(&files, &want(false), &LIMITS).expect("reads"); // ok: a test
        let root: f64 = inc.paths.iter().filter(|p| !p.path.contains("->")).map(|p| p.total).sum();
        let sum: f64 = exc.paths.iter().map(|p| p.total).sum();
        assert!(close(root, sum), "{db}: {root} {sum}");
        assert_eq!(exc.globals.last(), Some(&("hpctoolkit.threads".to_string(), threads)));
    }
}

fn with(files: &[(String, Vec<u8>)], name: &str, f: impl Fn(&mut Vec<u8>)) -> Vec<(String, Vec<u8>)> {
    let mut out = files.to_vec();
    for (n, b) in out.iter_mut() {
        if n.as_str() == name {
            f(b);
        }
    }
    out
}

const DB2: &str = "1.cpi-000002-000-a8c00270-160445-0.metric-db";

#[test]
fn hpctoolkit_refuses_what_it_cannot_read() {
    let files = database(CPI);
    let no_xml: Vec<_> = files.iter().filter(|f| f.0 != "experiment.xml").cloned().collect();
    assert!(err(&no_xml).contains("no experiment.xml"));
    let no_db: Vec<_> = files.iter().filter(|f| f.0 == "experiment.xml").cloned().collect();
    assert!(err(&no_db).contains("no .metric-db files"));

    let nodes = with(&files, DB2, |b| b[27] = 61);
    let e = err(&nodes);
    assert!(e.contains(DB2) && e.contains("byte 24") && e.contains("61 call-tree nodes") && e.contains("60"), "{e}");
    let cut = with(&files, DB2, |b| b.truncate(900));
    let e = err(&cut);
    assert!(e.contains(DB2) && e.contains("900 bytes") && e.contains("cut short"), "{e}");
    let header = with(&files, DB2, |b| b.truncate(20));
    assert!(err(&header).contains("inside the 32-byte header"));
    let magic = with(&files, DB2, |b| b[0] = b'X');
    assert!(err(&magic).contains("not a metric-db file"));

    // Node 4 (main), inclusive: byte 32 + (3·2 + 0)·8 = 80.
    for (v, what) in [(f64::NAN, "NaN"), (f64::INFINITY, "inf"), (-1.0, "-1")] {
        let bad = with(&files, DB2, |b| b[80..88].copy_from_slice(&v.to_be_bytes()));
        let e = err(&bad);
        assert!(e.contains(&format!("{DB2}: byte 80: {what} (node 4")), "{e}");
    }

    let e = run(&files, &Want { metric: Some("PAPI_TOT_CYC".into()), inclusive: false }, &LIMITS).unwrap_err(); // ok: a test
    assert!(e.message.contains("no metric \"PAPI_TOT_CYC\": the database holds \"CPUTIME (s)\""), "{e}");

    let renamed = files.iter().map(|(n, b)| (n.replace("-000-a8c", "-x-a8c"), b.clone())).collect::<Vec<_>>();
    assert!(err(&renamed).contains("expected a metric-db name like"));
    let mut twice = files.clone();
    twice.push((DB2.replace("160445", "999"), twice[2].1.clone()));
    assert!(err(&twice).contains("are both rank 2, thread 0"), "{}", err(&twice));
}

#[test]
fn hpctoolkit_xml_errors_name_line_and_column() {
    let files = database(CPI);
    let text = |f: &dyn Fn(&str) -> String| {
        with(&files, "experiment.xml", |b| *b = f(std::str::from_utf8(b).unwrap()).into_bytes())
    }; // ok: a test
    let line = |needle: &str| {
        let xml = std::str::from_utf8(&files[4].1).unwrap(); // ok: a test
        let at = xml.find(needle).unwrap(); // ok: a test
        (xml[..at].matches('\n').count() + 1, at - xml[..at].rfind('\n').map_or(0, |i| i + 1) + 1)
    };
    assert_eq!(files[4].0, "experiment.xml");
    let (l, c) = line("<PF i=\"4\"");
    let e = run(&text(&|x| x.replace("<PF i=\"4\"", "<PF i=\"four\"")), &want(true), &LIMITS).unwrap_err(); // ok: a test
    assert_eq!((e.line, e.column), (Some(l), Some(c)), "{e}");
    assert!(e.message.contains("<PF> i=\"four\": expected a non-negative integer"), "{e}");
    let e = run(&text(&|x| x.replace("<PF i=\"4\" s=\"7\"", "<PF i=\"4\" s=\"7 ")), &want(true), &LIMITS).unwrap_err(); // ok: a test
    assert!(e.message.starts_with("experiment.xml: malformed XML") && e.line.is_some(), "{e}");
    let e =
        run(&text(&|x| x[..=x[..x.len() * 9 / 10].rfind('>').unwrap()].to_string()), &want(true), &LIMITS).unwrap_err(); // ok: a test
    assert!(e.message.contains("the file ends inside <"), "{e}");
    let e = run(&text(&|x| x.replace("<MetricDB ", "<Other ")), &want(true), &LIMITS).unwrap_err(); // ok: a test
    assert!(e.message.contains("--metric-db yes"), "{e}");
    // Exclusive values only: the inclusive metric is missing.
    let e = run(
        &text(&|x| x.replace("(usec) (I)\"", "(usec) (E)\"").replace("\"inclusive\"", "\"exclusive\"")),
        &want(true),
        &LIMITS,
    );
    assert!(e.unwrap_err().message.contains("has no inclusive values"));
}

#[test]
fn hpctoolkit_limits() {
    let files = database(CPI);
    let e = run(&files, &want(true), &Limits { max_paths: 3, ..LIMITS }).unwrap_err(); // ok: a test
    assert!(e.message.contains("more than 3 call paths (the limit)") && e.line.is_some(), "{e}");
    let e = run(&files, &want(true), &Limits { max_locations: 3, ..LIMITS }).unwrap_err(); // ok: a test
    assert!(e.message.contains("more than 3 metric-db files"), "{e}");
    // A header that claims 2^31 nodes of 2^31 metrics allocates nothing: its file's size is wrong.
    let xml = files[4].1.clone();
    let xml = String::from_utf8(xml).unwrap().replace("<S i=\"25\"", "<S i=\"2147483648\""); // ok: a test
    let mut huge = files.clone();
    for (_, b) in &mut huge[..4] {
        b[24..32].copy_from_slice(&[128, 0, 0, 0, 128, 0, 0, 0]);
    }
    huge[4].1 = xml.into_bytes();
    let e = err(&huge);
    assert!(e.contains("-000000-000-") && e.contains("cut short"), "{e}");
}

#[test]
fn hpctoolkit_newer_format() {
    assert_eq!(newer_format("db/meta.db", b"HPCTOOLKITmeta\x04\x00"), Some(NEWER));
    assert_eq!(newer_format("cct.db", b""), Some(NEWER));
    assert_eq!(newer_format("experiment.xml", b"<?xml"), None);
    let e = run(&[("meta.db".into(), b"HPCTOOLKITmeta\x04\x00....".to_vec())], &want(true), &LIMITS).unwrap_err(); // ok: a test
    assert!(e.message.contains("newer HPCToolkit database format") && e.message.contains("does not read"), "{e}");
    assert!(is_database_file("x/experiment.xml") && is_database_file(DB2) && !is_database_file("src/cpi.c"));
}

#[test]
fn hpctoolkit_arbitrary_bytes_never_panic() {
    let files = database(CPI);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..300 {
        let mut f = files.clone();
        let k = (next() % 5) as usize;
        let b = &mut f[k].1;
        for _ in 0..1 + next() % 4 {
            let at = (next() as usize) % b.len().max(1);
            match next() % 3 {
                0 if !b.is_empty() => b[at] = next() as u8,
                1 => b.truncate(at),
                _ => b.insert(at.min(b.len()), b"<>\"=/&\0\xff"[(next() % 8) as usize]),
            }
        }
        let _ = run(&f, &want(next() % 2 == 0), &LIMITS);
    }
    for junk in [&b""[..], b"\0", b"<", b"<PF", b"\xff\xfe", MAGIC] {
        let _ = run(&[("experiment.xml".into(), junk.to_vec()), (DB2.into(), junk.to_vec())], &want(true), &LIMITS);
    }
}

#[test]
fn hpctoolkit_fuzz_seed_is_the_cpi_database() {
    let seed = include_bytes!("../../../fuzz/corpus/hpctoolkit/seed-cpi-database");
    let files = crate::fuzzing::hpctoolkit_files(seed);
    let p = run(&files, &want(true), &LIMITS).expect("the seed reads"); // ok: a test
    assert_eq!(p, run(&database(CPI), &want(true), &LIMITS).expect("reads")); // ok: a test
    crate::fuzzing::hpctoolkit(seed);
}

#[test]
fn hpctoolkit_counters_units_and_header_globals() {
    let files = database(CPI);
    let edit = |f: &dyn Fn(&str) -> String| {
        with(&files, "experiment.xml", |b| *b = f(std::str::from_utf8(b).unwrap()).into_bytes())
        // ok: a test
    };
    let counter = edit(&|x| x.replace("n=\"CPUTIME (usec) (", "n=\"PAPI_TOT_CYC ("));
    let p = run(&counter, &want(true), &LIMITS).expect("reads"); // ok: a test
    assert_eq!((p.metric.as_str(), p.paths[0].total, p.paths[0].max), ("PAPI_TOT_CYC", 3998242.0, 1000306.0));
    let header = edit(&|x| {
        x.replace(
            "<Header n=\"cpi\">\n  <Info/>",
            "<Header n=\"cpi\"><Info><NV n=\"p\" v=\" 64\"/><NV n=\"x\" v=\"abc\"/></Info>",
        )
    });
    let p = run(&header, &want(true), &LIMITS).expect("reads"); // ok: a test
    assert_eq!(p.globals[0], ("p".to_string(), 64.0));
    assert_eq!(p.globals.len(), 3);
    assert_eq!(
        [scale("REALTIME (sec)"), scale("CPUTIME (usec)"), scale("x (msec)"), scale("GPU (nsec)")],
        [1.0, 1e-6, 1e-3, 1e-9]
    );
}

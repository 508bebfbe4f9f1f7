//! The reader against Hatchet (PyPI llnl-hatchet), on Hatchet's TAU profiles of an MPI cpi
//! run, on small folders written here and on bad input.

use super::*;

const LIMITS: Limits = Limits { max_paths: 1000, max_locations: 1000 };

fn fixture() -> Vec<(&'static str, &'static [u8])> {
    vec![
        ("profile.0.0.0", include_bytes!("../../../tests/data/tau-cpi-mpi/profile.0.0.0")),
        ("profile.1.0.0", include_bytes!("../../../tests/data/tau-cpi-mpi/profile.1.0.0")),
        ("profile.2.0.0", include_bytes!("../../../tests/data/tau-cpi-mpi/profile.2.0.0")),
        ("profile.3.0.0", include_bytes!("../../../tests/data/tau-cpi-mpi/profile.3.0.0")),
    ]
}

/// What `scripts/tau-reference.py` prints (`/work/venv/bin/python -W ignore
/// scripts/tau-reference.py`, Hatchet 2026.2.0): Hatchet's reading of the four files, per
/// call path the sum over ranks and the largest rank of the exclusive time, then the same of
/// the inclusive time, in seconds. Written by running the script once.
const HATCHET: &str = "
.TAU application	0.001706	0.00044899999999999996	0.214047	0.055328999999999996
.TAU application->MPI_Bcast()	0.001375	0.00041799999999999997	0.001375	0.00041799999999999997
.TAU application->MPI_Comm_rank()	9.199999999999999e-05	2.4999999999999998e-05	9.199999999999999e-05	2.4999999999999998e-05
.TAU application->MPI_Comm_size()	0.000116	3.1e-05	0.000116	3.1e-05
.TAU application->MPI_Finalize()	0.019160999999999997	0.004906	0.13056700000000002	0.032755
.TAU application->MPI_Finalize()->MPI_Comm_get_attr()	9.7e-05	2.7e-05	9.7e-05	2.7e-05
.TAU application->MPI_Finalize()->MPI_File_open()	0.10847399999999999	0.027489999999999997	0.10847399999999999	0.027489999999999997
.TAU application->MPI_Finalize()->MPI_Info_create()	0.002715	0.0009019999999999999	0.002715	0.0009019999999999999
.TAU application->MPI_Finalize()->MPI_Info_free()	0.00011999999999999999	3.2999999999999996e-05	0.00011999999999999999	3.2999999999999996e-05
.TAU application->MPI_Get_processor_name()	0.0011149999999999999	0.000298	0.0011149999999999999	0.000298
.TAU application->MPI_Init()	0.078474	0.021440999999999998	0.078474	0.021440999999999998
.TAU application->MPI_Reduce()	0.0006019999999999999	0.000473	0.0006019999999999999	0.000473
";

fn want(metric: Option<&str>, inclusive: bool) -> Want {
    Want { metric: metric.map(str::to_string), inclusive }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

#[test]
fn cpi_figures_equal_hatchets() {
    let files = fixture();
    let exclusive = read(&files, &want(None, false), &LIMITS).unwrap();
    let inclusive = read(&files, &want(None, true), &LIMITS).unwrap();
    let rows: Vec<Vec<&str>> = HATCHET.lines().filter(|l| !l.is_empty()).map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 12);
    assert_eq!(exclusive.paths.len(), rows.len(), "{:?}", exclusive.paths);
    assert_eq!(inclusive.paths.len(), rows.len());
    for row in &rows {
        let v: Vec<f64> = row[1..].iter().map(|x| x.parse().unwrap()).collect();
        for (run, total, max) in [(&exclusive, v[0], v[1]), (&inclusive, v[2], v[3])] {
            let p = run.paths.iter().find(|p| p.path == row[0]).unwrap_or_else(|| panic!("no path {}", row[0]));
            assert!(close(p.total, total) && close(p.max, max), "{p:?}: Hatchet {total} {max}");
        }
    }
    assert_eq!(exclusive.paths[0].path, ".TAU application");
    assert_eq!(exclusive.paths[1].path, ".TAU application->MPI_Init()");
    // The exclusive times add up to the root's inclusive time, rank by rank: no flat line is
    // counted a second time.
    let sum: f64 = exclusive.paths.iter().map(|p| p.total).sum();
    assert!(close(sum, inclusive.paths[0].total), "{sum}");
}

#[test]
fn cpi_run_facts_and_metadata() {
    let run = read(&fixture(), &Want::default(), &LIMITS).unwrap();
    assert_eq!(
        (run.metric.as_str(), run.metrics.clone(), run.locations, run.inclusive),
        ("TIME", vec!["TIME".into()], 4, false)
    );
    let g = |name: &str| run.globals.iter().find(|g| g.0 == name).map(|g| g.1);
    assert_eq!(&run.globals[..2], &[("tau.ranks".to_string(), 4.0), ("tau.threads".to_string(), 1.0)]);
    assert_eq!(g("CPU Cores"), Some(16.0));
    assert_eq!(g("CPU MHz"), Some(2301.0));
    assert_eq!(g("TAU_CALLPATH_DEPTH"), Some(100.0));
    assert_eq!(g("pid"), Some(17214.0));
    // Text, units and blanks are not numbers.
    for name in ["CPU Type", "Cache Size", "TAU_EBS_INCLUSIVE", "TAU_CUDA_BINARY_EXE", "Metric Name"] {
        assert_eq!(g(name), None, "{name}");
    }
    // Asked by name, in any case; the order of the files given does not matter.
    let mut files = fixture();
    files.reverse();
    assert_eq!(read(&files, &want(Some("time"), false), &LIMITS).unwrap(), run);
}

#[test]
fn profile_names() {
    for ok in ["profile.0.0.0", "profile.12.0.3", "profile.007.1.2"] {
        assert!(is_profile_name(ok), "{ok}");
    }
    for bad in [
        "profile.0.0",
        "profile.0.0.0.0",
        "profile.a.0.0",
        "profile..0.0",
        "profile.0.0.0 ",
        "events.0.edf",
        "profile.1.0.99999999999999999999999",
        "",
    ] {
        assert!(!is_profile_name(bad), "{bad}");
    }
}

/// A profile file: the metric on line 1 (None: the default `templated_functions`), the
/// metadata attributes, the function lines.
fn file(metric: Option<&str>, meta: &[(&str, &str)], functions: &[&str]) -> Vec<u8> {
    let kind = metric.map_or("templated_functions".to_string(), |m| format!("templated_functions_MULTI_{m}"));
    let attrs: String =
        meta.iter().map(|(n, v)| format!("<attribute><name>{n}</name><value>{v}</value></attribute>")).collect();
    let mut out = format!(
        "{} {kind}\n# Name Calls Subrs Excl Incl ProfileCalls # <metadata>{attrs}</metadata>\n",
        functions.len()
    );
    for f in functions {
        out.push_str(f);
        out.push('\n');
    }
    out.push_str(
        "0 aggregates\n1 userevents\n# eventname numevents max min mean sumsqr\n\"Message size\" 1 4 4 4 16\n",
    );
    out.into_bytes()
}

const MAIN: &str = "\"main\" 1 1 100 300 0 GROUP=\"TAU_DEFAULT\" ";
const SOLVE: &str = "\"solve()  \" 2 0 200 200 0 GROUP=\"TAU_USER\" ";
const MAIN_SOLVE: &str = "\"main => solve()  \" 2 0 200 200 0 GROUP=\"TAU_CALLPATH|TAU_USER\" ";

fn one(bytes: &[u8]) -> Result<RunProfile, InputError> {
    read(&[("profile.0.0.0", bytes)], &Want::default(), &LIMITS)
}

/// Asserts a run's figures: (path, total, max) each, within 1e-12 relative.
fn figures(run: &RunProfile, want: &[(&str, f64, f64)]) {
    let same = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(b.abs());
    let ok = run.paths.len() == want.len()
        && run.paths.iter().zip(want).all(|(p, w)| p.path == w.0 && same(p.total, w.1) && same(p.max, w.2));
    assert!(ok, "{:?}\nexpected {want:?}", run.paths);
}

#[test]
fn two_metric_folder_in_multi_folders() {
    let time0 = file(Some("TIME"), &[("CPU Cores", "8")], &[MAIN, SOLVE, MAIN_SOLVE]);
    let time1 = file(
        Some("TIME"),
        &[("CPU Cores", "9")],
        &[MAIN, "\"solve()\" 1 0 50 50 0 GROUP=\"U\"", "\"main => solve()\" 1 0 50 50 0 GROUP=\"U\""],
    );
    let cyc0 = file(
        Some("PAPI_TOT_CYC"),
        &[],
        &["\"main\" 1 1 1.5E+06 4.5E+06 0 GROUP=\"D\"", "\"main => solve()\" 2 0 3E+06 3E+06 0 GROUP=\"U\""],
    );
    let cyc1 = file(Some("PAPI_TOT_CYC"), &[], &["\"main\" 1 1 1000 1000 0 GROUP=\"D\""]);
    let files: Vec<(&str, &[u8])> = vec![
        ("MULTI__PAPI_TOT_CYC/profile.1.0.0", &cyc1),
        ("MULTI__TIME/profile.1.0.0", &time1),
        ("MULTI__PAPI_TOT_CYC/profile.0.0.0", &cyc0),
        ("MULTI__TIME/profile.0.0.0", &time0),
        ("MULTI__TIME/events.0.edf", b"not a profile"),
    ];
    let time = read(&files, &Want::default(), &LIMITS).unwrap();
    assert_eq!(time.metrics, ["PAPI_TOT_CYC", "TIME"]);
    assert_eq!((time.metric.as_str(), time.locations), ("TIME", 2));
    figures(&time, &[("main", 200e-6, 100e-6), ("main->solve()", 250e-6, 200e-6)]);
    assert_eq!(
        time.globals,
        [("tau.ranks".to_string(), 2.0), ("tau.threads".to_string(), 1.0), ("CPU Cores".to_string(), 8.0)]
    );
    // A counter is kept as counts.
    let cyc = read(&files, &want(Some("PAPI_TOT_CYC"), true), &LIMITS).unwrap();
    figures(&cyc, &[("main", 4.501e6, 4.5e6), ("main->solve()", 3e6, 3e6)]);
    assert!(cyc.inclusive);
    // A path may start with the run's folder; threads of a rank count as locations.
    let t = file(None, &[], &[MAIN]);
    let files: Vec<(&str, &[u8])> = vec![
        ("run/profile.0.0.0", &t),
        ("run/profile.0.0.1", &t),
        ("run\\profile.0.1.0", &t),
        ("run/profile.1.0.0", &t),
    ];
    let run = read(&files, &Want::default(), &LIMITS).unwrap();
    assert_eq!(
        (run.locations, &run.globals[..2]),
        (4, &[("tau.ranks".to_string(), 2.0), ("tau.threads".to_string(), 3.0)][..])
    );
    figures(&run, &[("main", 400e-6, 100e-6)]);
}

#[test]
fn a_flat_profile_gives_each_function() {
    let run = one(&file(None, &[], &[MAIN, SOLVE])).unwrap();
    figures(&run, &[("main", 100e-6, 100e-6), ("solve()", 200e-6, 200e-6)]);
    // Without ProfileCalls and GROUP, too.
    let run = one(&file(None, &[], &["\"main\" 1 0 7 7"])).unwrap();
    figures(&run, &[("main", 7e-6, 7e-6)]);
}

#[test]
fn paths_cut_to_the_callpath_depth_are_read_as_written() {
    // TAU_CALLPATH_DEPTH=2: each callpath line holds a region and its caller only.
    let lines = [
        "\"a\" 1 1 10 100 0 GROUP=\"D\"",
        "\"b\" 1 1 20 90 0 GROUP=\"D\"",
        "\"c\" 1 0 70 70 0 GROUP=\"D\"",
        "\"a => b\" 1 1 20 90 0 GROUP=\"TAU_CALLPATH\"",
        "\"b => c\" 1 0 70 70 0 GROUP=\"TAU_CALLPATH\"",
    ];
    let run = one(&file(None, &[], &lines)).unwrap();
    figures(&run, &[("a", 10e-6, 10e-6), ("a->b", 20e-6, 20e-6), ("b->c", 70e-6, 70e-6)]);
}

#[test]
fn metadata_is_unescaped() {
    let meta =
        [("a &lt;b&gt; &amp; &quot;c&quot;", "1&#48;"), ("hex", "&#x32;.5"), ("bad &zz; &", "3"), ("text", "&lt;5")];
    let run = one(&file(None, &meta, &[MAIN])).unwrap();
    assert_eq!(
        &run.globals[2..],
        &[("a <b> & \"c\"".to_string(), 10.0), ("hex".to_string(), 2.5), ("bad &zz; &".to_string(), 3.0)]
    );
}

/// The error's text (field, line, column and message).
fn error(files: &[(&str, &[u8])], w: &Want) -> String {
    read(files, w, &LIMITS).unwrap_err().to_string()
}

#[test]
fn refusals_name_file_line_and_column() {
    let bad = |functions: &[&str]| error(&[("profile.0.0.0", &file(None, &[], functions))], &Want::default());
    let cases = [
        (
            bad(&["\"main\" 1 1 abc 300 0 GROUP=\"D\""]),
            "line 3, column 12: profile.0.0.0: Excl: expected a number, found \"abc\"",
        ),
        (
            bad(&[MAIN, "\"s\" 1 -2 1 1 0 GROUP=\"D\""]),
            "line 4, column 7: profile.0.0.0: Subrs: expected a number ≥ 0, found \"-2\"",
        ),
        (
            bad(&["\"main\" 1 1 100 inf 0 GROUP=\"D\""]),
            "line 3, column 16: profile.0.0.0: Incl: expected a finite number, found \"inf\"",
        ),
        (
            bad(&["\"main\" 1 1 100 1e999 0 GROUP=\"D\""]),
            "line 3, column 16: profile.0.0.0: Incl: expected a finite number",
        ),
        (
            bad(&["\"main\" 1 1 100 NaN 0 GROUP=\"D\""]),
            "line 3, column 16: profile.0.0.0: Incl: expected a finite number",
        ),
        (
            bad(&["\"main\" 1 1 100"]),
            "line 3, column 15: profile.0.0.0: expected the values Calls Subrs Excl Incl, found 3",
        ),
        (
            bad(&["\"main\" 1 1 1 1 0 7 GROUP=\"D\""]),
            "line 3, column 18: profile.0.0.0: expected GROUP=\"...\" after the five values",
        ),
        (bad(&["\"main 1 1 1 1 0"]), "line 3, column 1: profile.0.0.0: expected a function line"),
        (
            bad(&["main 1 1 1 1 0"]),
            "line 3, column 1: profile.0.0.0: the first line counts 1 functions, found 0 (then \"main",
        ),
    ];
    for (got, want) in cases {
        assert!(got.starts_with(&format!("{FIELD}: {want}")), "{got}\nexpected {want}");
    }
}

#[test]
fn refusals_of_files_that_are_not_tau_profiles() {
    let at = |name: &str, bytes: &[u8]| error(&[(name, bytes)], &Want::default());
    let not_tau = "TAU profile: line 1, column 1: MULTI__TIME/profile.0.0.0: expected a TAU profile: the first line `N templated_functions...`";
    for text in ["", "hello", "3 functions", "x templated_functions", "2 templated_functions_MULTI_"] {
        let got = at("MULTI__TIME/profile.0.0.0", text.as_bytes());
        assert!(got.starts_with(not_tau) || got.contains("expected a whole number"), "{text}: {got}");
    }
    assert!(at("profile.0.0.0", b"-1 templated_functions\n").contains(
        "line 1, column 1: profile.0.0.0: the count of functions: expected a whole number ≥ 0, found \"-1\""
    ));
    assert!(at("profile.0.0.0", b"1 templated_functions\n\"main\" 1 1 1 1 0\n")
        .contains("line 2, column 1: profile.0.0.0: expected the column line"));
    assert!(at("profile.0.0.0", b"0 templated_functions\n# Name\n\xff\n")
        .contains("line 3, column 1: profile.0.0.0: a byte that is not UTF-8 text"));
    let none = error(&[("notes.txt", b"x"), ("profile.0.0", b"x")], &Want::default());
    assert!(
        none.contains("no TAU profile files (profile.N.C.T, or MULTI__<METRIC>/profile.N.C.T) among the 2 files given"),
        "{none}"
    );
}

#[test]
fn refusals_of_counts_that_do_not_match_the_lines() {
    let mut short = file(None, &[], &[MAIN, SOLVE]);
    short[0] = b'3';
    let got = one(&short).unwrap_err().to_string();
    assert!(
        got.contains(
            "line 5, column 1: profile.0.0.0: the first line counts 3 functions, found 2 (then \"0 aggregates\")"
        ),
        "{got}"
    );
    let mut long = file(None, &[], &[MAIN, SOLVE]);
    long[0] = b'1';
    let got = one(&long).unwrap_err().to_string();
    assert!(
        got.contains("line 4, column 1: profile.0.0.0: a function line past the 1 that the first line counts"),
        "{got}"
    );
    let cut = b"5 templated_functions\n# Name\n\"main\" 1 0 1 1 0 GROUP=\"D\"\n";
    let got = one(cut).unwrap_err().to_string();
    assert!(got.contains("line 4, column 1: profile.0.0.0: the file ends after 1 of the 5 functions"), "{got}");
    let huge = b"99999999999999999999 templated_functions\n# Name\n";
    assert!(one(huge).unwrap_err().to_string().contains("the count of functions: expected a whole number"));
}

#[test]
fn refusals_of_metrics() {
    let t = file(Some("TIME"), &[], &[MAIN]);
    let c = file(Some("PAPI_L2_TCM"), &[], &[MAIN]);
    let files: Vec<(&str, &[u8])> = vec![("MULTI__TIME/profile.0.0.0", &t), ("MULTI__PAPI_L2_TCM/profile.0.0.0", &c)];
    let got = error(&files, &want(Some("PAPI_TOT_CYC"), false));
    assert_eq!(got, "TAU profile: no metric \"PAPI_TOT_CYC\" in this profile; it holds PAPI_L2_TCM or TIME");
    // Two metrics side by side without MULTI__ folders.
    let files: Vec<(&str, &[u8])> = vec![("profile.0.0.0", &t), ("profile.1.0.0", &c)];
    let got = error(&files, &Want::default());
    assert_eq!(got, "TAU profile: line 1, column 1: profile.1.0.0: a file of the metric PAPI_L2_TCM beside profile.0.0.0 of TIME: TAU writes each metric of a run in a folder MULTI__<METRIC>");
    // One thread twice.
    let files: Vec<(&str, &[u8])> = vec![("a/profile.0.0.0", &t), ("b/profile.0.0.0", &t)];
    assert_eq!(
        error(&files, &Want::default()),
        "TAU profile: a/profile.0.0.0 and b/profile.0.0.0 are both node 0, context 0, thread 0 of TIME"
    );
}

#[test]
fn limits_are_named() {
    let files = fixture();
    let got = read(&files, &Want::default(), &Limits { max_paths: 1000, max_locations: 3 }).unwrap_err().to_string();
    assert_eq!(got, "TAU profile: 4 profile files of TIME: more than 3 locations (the limit of locations a run)");
    let got = read(&files, &Want::default(), &Limits { max_paths: 5, max_locations: 4 }).unwrap_err().to_string();
    assert!(
        got.contains("line 13, column 1: profile.0.0.0: more than 5 call paths (the limit of paths a run)"),
        "{got}"
    );
    assert!(read(&files, &Want::default(), &Limits { max_paths: 12, max_locations: 4 }).is_ok());
}

#[test]
fn sums_past_the_largest_number_are_refused() {
    let big = file(Some("PAPI_FP_OPS"), &[], &["\"main\" 1 0 1.7E+308 1.7E+308 0 GROUP=\"D\""]);
    let files: Vec<(&str, &[u8])> = vec![("profile.0.0.0", &big), ("profile.1.0.0", &big)];
    let got = error(&files, &Want::default());
    assert!(
        got.contains("line 3, column 1: profile.1.0.0: the values of main add up past the largest number"),
        "{got}"
    );
}

#[test]
fn the_fuzz_seeds_pass_the_fuzz_check() {
    for seed in [
        &include_bytes!("../../../fuzz/corpus/tau/seed-cpi")[..],
        include_bytes!("../../../fuzz/corpus/tau/seed-cpi-inclusive"),
        include_bytes!("../../../fuzz/corpus/tau/seed-multi"),
    ] {
        crate::fuzzing::tau(seed);
        // Each is a folder that reads.
        let files: Vec<(&str, &[u8])> = seed[1..]
            .split(|&b| b == 0)
            .filter_map(|r| r.split_first())
            .map(|(&k, text)| (crate::fuzzing::TAU_PATHS[k as usize % 8], text))
            .collect();
        let w = want((seed[0] & 2 != 0).then_some("PAPI_TOT_CYC"), seed[0] & 1 != 0);
        let run = read(&files, &w, &LIMITS).unwrap();
        assert_eq!(run.locations, 2);
    }
}

use crate::model::TestRng as Rng;

#[test]
fn arbitrary_bytes_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let seeds = [fixture()[0].1.to_vec(), file(Some("TIME"), &[("n", "&#x31;")], &[MAIN, SOLVE, MAIN_SOLVE])];
    let alphabet = b"0123456789 .-+eE\"=>#\n\r&;<>/_GROUPtemplated_functions_MULTI_\xff\xc3";
    let small = Limits { max_paths: 8, max_locations: 3 };
    for case in 0..4000 {
        let mut bytes = seeds[case % 2].clone();
        if case % 7 == 0 {
            bytes.truncate((rng.next() % 200) as usize);
        }
        for _ in 0..(1 + rng.next() % 8) {
            let i = (rng.next() as usize) % (bytes.len() + 1);
            let b = alphabet[(rng.next() as usize) % alphabet.len()];
            match rng.next() % 3 {
                0 if i < bytes.len() => bytes[i] = b,
                1 if i < bytes.len() => {
                    bytes.remove(i);
                }
                _ => bytes.insert(i, b),
            }
        }
        // The fuzz target's check, on the same bytes as one file of each of its paths.
        let mut data = vec![case as u8];
        for k in 1..=(case % 9) as u8 {
            data.push(k);
            data.extend_from_slice(&bytes);
            data.push(0);
        }
        crate::fuzzing::tau(&data);
        let names = ["profile.0.0.0", "MULTI__TIME/profile.1.0.0", "MULTI__X/profile.0.0.0", "profile.0.0.1"];
        let files: Vec<(&str, &[u8])> = names.iter().take(1 + case % 4).map(|n| (*n, bytes.as_slice())).collect();
        for w in [Want::default(), want(Some("X"), true)] {
            if let Ok(run) = read(&files, &w, &small) {
                assert!(run.paths.len() <= 8 && run.locations <= 3);
                assert!(run.paths.iter().all(|p| p.total.is_finite() && p.max <= p.total * (1.0 + 1e-12)));
                assert!(run.globals.iter().all(|g| g.1.is_finite()));
            }
        }
    }
}

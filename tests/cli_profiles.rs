//! `scalewise bottlenecks PATH` on the profiles of TAU, HPCToolkit and Caliper's JSON
//! (Hatchet's test data, tests/data/tau-cpi-mpi, tests/data/hpctoolkit,
//! tests/data/caliper-json): each read as runs with p from the folder names or the ranks, the
//! values Hatchet's; a file of no format read is named as what it looks like.

use serde_json::Value;

mod common;

use common::{answer, refused};

fn data(p: &str) -> String {
    format!("{}/tests/data/{p}", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh folder in the temporary directory, removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("scalewise-cli-profiles-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A region's point values, by call path.
fn region<'a>(v: &'a Value, path: &str) -> &'a Value {
    v["regions"].as_array().unwrap().iter().find(|r| r["callpath"] == path).unwrap_or_else(|| panic!("no {path}"))
}

fn times(r: &Value) -> Vec<(f64, f64)> {
    r["points"].as_array().unwrap().iter().map(|p| (p["n"].as_f64().unwrap(), p["time_s"].as_f64().unwrap())).collect()
}

#[test]
fn a_tau_folder_is_a_run_and_a_study_of_tau_folders_gives_p_from_their_names() {
    let v = answer(&["bottlenecks", &data("tau-cpi-mpi"), "--compact"]);
    assert_eq!(v["format"], "tau");
    assert_eq!(v["runs"]["count"], 1);
    assert_eq!(v["runs"]["locations"], serde_json::json!([4, 4]));
    assert_eq!(v["runs"]["parameters_from"], serde_json::json!([{"parameter": "p", "global": "tau.ranks"}]));
    assert_eq!(v["regions"].as_array().unwrap().len(), 12);
    // Hatchet's sum of .TAU application's exclusive time over the four ranks: 0.001706 s.
    let root = times(region(&v, ".TAU application"));
    assert_eq!(root[0].0, 4.0);
    assert!((root[0].1 * 4.0 - 0.001706).abs() < 1e-6, "{root:?}");
    // Two runs made of the four ranks' files: cpi.p2 (ranks 0 and 1) and cpi.p4 (all four).
    let study = Scratch::new("tau");
    for (run, ranks) in [("cpi.p2", 2), ("cpi.p4", 4)] {
        let dir = study.0.join(run);
        std::fs::create_dir_all(&dir).unwrap();
        for r in 0..ranks {
            std::fs::copy(data(&format!("tau-cpi-mpi/profile.{r}.0.0")), dir.join(format!("profile.{r}.0.0"))).unwrap();
        }
    }
    let v = answer(&["bottlenecks", study.path(), "--compact"]);
    assert_eq!(v["runs"]["count"], 2);
    assert_eq!(v["runs"]["parameters_from"], serde_json::json!([{"parameter": "p", "global": "the folder name"}]));
    let init = times(region(&v, ".TAU application->MPI_Init()"));
    assert_eq!(init.iter().map(|t| t.0).collect::<Vec<_>>(), [2.0, 4.0]);
    // A run given twice is said to be.
    let twice = Scratch::new("tau-twice");
    for run in ["a", "b"] {
        let dir = twice.0.join(run);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(data("tau-cpi-mpi/profile.0.0.0"), dir.join("profile.0.0.0")).unwrap();
    }
    let v = answer(&["bottlenecks", twice.path(), "--compact"]);
    assert_eq!(v["runs"]["identical"], serde_json::json!([["a", "b"]]));
    // --parameters names a global of the metadata.
    let v = answer(&["bottlenecks", study.path(), "--parameters", "tau.ranks", "--compact"]);
    assert_eq!(v["runs"]["parameters_from"], serde_json::json!([{"parameter": "tau.ranks", "global": "tau.ranks"}]));
}

#[test]
fn an_hpctoolkit_database_and_caliper_json_files_are_read_as_runs() {
    let v = answer(&["bottlenecks", &data("hpctoolkit/hpctoolkit-cpi-database"), "--compact"]);
    assert_eq!(v["format"], "hpctoolkit");
    assert_eq!(v["runs"]["metric"], "CPUTIME (s)");
    assert_eq!(v["runs"]["parameters_from"], serde_json::json!([{"parameter": "p", "global": "hpctoolkit.ranks"}]));
    // Hatchet: the root's inclusive CPU time over the four ranks is 3.998242 s, which the
    // regions' own times add up to.
    let own: f64 = v["regions"].as_array().unwrap().iter().map(|r| times(r)[0].1).sum();
    assert!((own * 4.0 - 3.998242).abs() < 1e-5, "{own}");
    let v = answer(&["bottlenecks", &data("hpctoolkit/hpctoolkit-cpi-database"), "--inclusive", "--compact"]);
    assert_eq!(v["runs"]["inclusive"], true);
    assert_eq!(v["times"]["kind"], "inclusive");
    let v = answer(&["bottlenecks", &data("caliper-json/lulesh-annotation-profile.json"), "--compact"]);
    assert_eq!(v["format"], "cali-json");
    assert_eq!(v["runs"]["locations"], serde_json::json!([8, 8]));
    // main's exclusive time summed over the 8 ranks is 0.954988 s (scripts/cali-json-reference.py).
    let main = times(region(&v, "main"));
    assert!((main[0].1 * 8.0 - 0.954988).abs() < 1e-6, "{main:?}");
}

#[test]
fn a_file_of_no_format_read_is_one_line_naming_what_it_looks_like() {
    let d = Scratch::new("unknown");
    for (name, bytes, says) in [
        ("report.pdf", b"%PDF-1.7\n%more".to_vec(), "a PDF document, not a profile"),
        ("meta.db", b"HPCTOOLKITmeta.db\x00\x00\x00".to_vec(), "newer HPCToolkit database format"),
        ("records.json", br#"[{"path": "main", "time": 1.5}]"#.to_vec(), "json-split"),
    ] {
        let f = d.0.join(name);
        std::fs::write(&f, bytes).unwrap();
        let e = refused(&["bottlenecks", f.to_str().unwrap()]);
        assert!(e.contains(says) && e.contains(name), "{name}: {e}");
    }
    // Two kinds in one folder.
    std::fs::create_dir_all(d.0.join("t.p2")).unwrap();
    std::fs::copy(data("tau-cpi-mpi/profile.0.0.0"), d.0.join("t.p2/profile.0.0.0")).unwrap();
    std::fs::copy(data("cali/mpi_scaling_cali/27_cores.cali"), d.0.join("a.cali")).unwrap();
    let e = refused(&["bottlenecks", d.path()]);
    assert!(e.contains("give one kind of profile"), "{e}");
}

//! `scalewise validate` runs on the committed corpus (its figures are VALIDATION.md's, not this
//! test's) and names the line and column of a malformed corpus.

mod common;
use common::run;

#[test]
fn validate_runs_on_the_corpus_and_reports_every_horizon() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/validation/corpus.csv");
    let o = run(&["validate", path], "");
    assert_eq!(o.status, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).expect("JSON");
    let runs = v["corpora"][0]["runs"].as_array().expect("runs");
    // Three predictors for K = 3 and K = 4, four horizons each.
    assert_eq!(runs.len(), 6);
    assert!(v["corpora"][0]["series"].as_u64().is_some_and(|n| n >= 25));
    for r in runs {
        let h = r["horizons"].as_array().expect("horizons");
        assert_eq!(h.iter().map(|x| x["horizon"].as_str().unwrap_or("")).collect::<Vec<_>>(), ["≤ 2", "≤ 4", "≤ 16", "all"]);
        assert!(h.iter().all(|x| x["median_rel_error"].as_f64().is_some_and(f64::is_finite)));
    }
    // The calculator's own predictions carry ranges; the baselines do not.
    assert!(runs[0]["horizons"][3]["coverage"].is_number());
    assert!(runs[1]["horizons"][3]["coverage"].is_null());
    let md = run(&["validate", path, "--markdown"], "");
    assert!(md.stdout.contains("| predictor | horizon |"), "{}", md.stdout);
}

#[test]
fn a_malformed_corpus_names_its_line_and_column() {
    let dir = std::env::temp_dir().join(format!("sw-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "series_id,application,problem,machine,source,np,nodes,time_s,rep\na,A,p,M,s,4,1,x,1\n").unwrap();
    let o = run(&["validate", bad.to_str().unwrap()], "");
    assert_eq!(o.status, 1);
    assert!(o.stderr.contains("line 2, column 8: time_s"), "{}", o.stderr);
    assert_eq!(run(&["validate", "--bogus"], "").status, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

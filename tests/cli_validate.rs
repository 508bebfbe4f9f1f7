//! `scalewise validate` runs on the committed corpus (its figures are VALIDATION.md's, not this
//! test's) and names the line and column of a malformed corpus.

mod common;
use common::{run, run_in};

#[test]
fn validate_runs_on_the_corpus_and_reports_every_horizon() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/validation/corpus.csv");
    let o = run(&["validate", path], "");
    assert_eq!(o.status, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).expect("JSON");
    let runs = v["corpora"][0]["runs"].as_array().expect("runs");
    // Four predictors for K = 3 and K = 4, four horizons each.
    assert_eq!(runs.len(), 8);
    assert!(v["corpora"][0]["series"].as_u64().is_some_and(|n| n >= 25));
    for r in runs {
        let h = r["horizons"].as_array().expect("horizons");
        assert_eq!(
            h.iter().map(|x| x["horizon"].as_str().unwrap_or("")).collect::<Vec<_>>(),
            ["≤ 2", "≤ 4", "≤ 16", "all"]
        );
        assert!(h.iter().all(|x| x["median_rel_error"].as_f64().is_some_and(f64::is_finite)));
    }
    // The calculator's own predictions carry ranges (set on held-out sources); the baselines
    // do not.
    assert!(runs[0]["horizons"][3]["coverage"].is_number());
    assert!(runs
        .iter()
        .any(|r| r["predictor"] == "ideal scaling from the largest fitted count"
            && r["horizons"][3]["coverage"].is_null()));
    assert_eq!(v["level"], 0.9);
    // The forecast, each model, and the horizon alone.
    let predictors = scalewise::model::speedup::MODELS.len() + 2;
    assert!(v["held_out"].as_array().is_some_and(|h| h.len() == predictors), "{}", v["held_out"]);
    let md = run(&["validate", path, "--markdown"], "");
    assert!(md.stdout.contains("| predictor | horizon |"), "{}", md.stdout);
}

#[test]
fn a_malformed_corpus_names_its_line_and_column() {
    let dir = std::env::temp_dir().join(format!("sw-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "series_id,application,problem,machine,source,np,nodes,time_s,rep\na,A,p,M,s,4,1,x,1\n")
        .unwrap();
    let o = run(&["validate", bad.to_str().unwrap()], "");
    assert_eq!(o.status, 1);
    assert!(o.stderr.contains("line 2, column 8: time_s"), "{}", o.stderr);
    // A subnormal time is refused where it stands (it gave null errors in the answer).
    std::fs::write(&bad, "series_id,application,problem,machine,source,np,nodes,time_s,rep\na,A,p,M,s,4,1,10,1\na,A,p,M,s,8,1,10,1\na,A,p,M,s,16,1,1e-310,1\n").unwrap();
    let o = run(&["validate", bad.to_str().unwrap()], "");
    assert_eq!(o.status, 1);
    assert!(o.stderr.contains("line 4, column 8: time_s: expected a time from 1e-9 to 1e9 s"), "{}", o.stderr);
    assert!(o.stdout.is_empty());
    assert_eq!(run(&["validate", "--bogus"], "").status, 2);
    // More series than validate reads, or a file larger than a corpus may be: refused at once,
    // naming the file and the limit.
    let head = "series_id,application,problem,machine,source,np,nodes,time_s,rep\n";
    let rows: String = (0..=scalewise::model::validation::corpus::MAX_SERIES)
        .map(|i| format!("s{i},A,p,M,src{i},4,1,10,1\ns{i},A,p,M,src{i},8,1,6,1\n"))
        .collect();
    std::fs::write(&bad, format!("{head}{rows}")).unwrap();
    let o = run(&["validate", bad.to_str().unwrap()], "");
    assert_eq!(o.status, 1);
    assert!(o.stderr.contains("validate reads at most 600 (corpus::MAX_SERIES)"), "{}", o.stderr);
    let big = std::fs::File::create(&bad).unwrap();
    big.set_len(scalewise::model::validation::corpus::MAX_BYTES as u64 + 1).unwrap();
    let o = run(&["validate", bad.to_str().unwrap()], "");
    assert_eq!(o.status, 1);
    assert!(o.stderr.contains("bytes is more than the 33554432 a corpus may hold"), "{}", o.stderr);
    // The help states the limits the code holds.
    let help = run(&["validate", "--help"], "").stdout;
    assert!(help.contains(&format!("at most {} series", scalewise::model::validation::corpus::MAX_SERIES)), "{help}");
    assert!(help.contains(&format!("{} MB a file", scalewise::model::validation::corpus::MAX_BYTES >> 20)), "{help}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every corpus `make validate` reads, when the shared ones are beside the project (cargo runs
/// the tests in the project's folder, as `make validate` runs the command).
fn shared_present() -> bool {
    let shared = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/validation/strong_scaling_dev.csv");
    let there = std::path::Path::new(shared).exists();
    if !there {
        eprintln!("skipped: {shared} is not there");
    }
    there
}

/// The committed calibration (the ranges' quantiles and their track record) is what the
/// corpora give: after a change to the forecast or the corpora, `make validate` rewrites it.
/// Run from a folder inside the repository: the default corpora are found from there.
/// `scalewise validate` over every corpus, run once for the tests that read it (a debug run
/// takes a minute or more).
fn full_validate() -> &'static serde_json::Value {
    static RUN: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        let o = run(&["validate"], "");
        assert_eq!(o.status, 0, "{}", o.stderr);
        serde_json::from_str(&o.stdout).expect("JSON")
    })
}

#[test]
fn the_committed_calibration_is_what_the_corpora_give() {
    if !shared_present() {
        return;
    }
    let o = run_in(concat!(env!("CARGO_MANIFEST_DIR"), "/src/model"), &["validate", "--calibration"], "");
    assert_eq!(o.status, 0, "{}", o.stderr);
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/model/fit/calibration.rs")).unwrap();
    assert_eq!(o.stdout, committed, "run `make validate` to rewrite src/model/fit/calibration.rs");
}

/// The calculator's forecast is the candidate the corpora choose, held out source by source,
/// and every corpus is read by default.
#[test]
fn the_forecast_is_the_candidate_the_corpora_choose() {
    if !shared_present() {
        return;
    }
    let v = full_validate();
    let files: Vec<&str> = v["corpora"].as_array().unwrap().iter().map(|c| c["file"].as_str().unwrap()).collect();
    assert_eq!(
        files,
        [
            "validation/corpus.csv",
            "validation/corpus_wide.csv",
            "../shared/validation/strong_scaling_dev.csv",
            "../shared/validation/strong_scaling_more.csv"
        ]
    );
    let sel = &v["selection"];
    assert_eq!(sel["winner"], sel["calculators"], "set forecast::RULE and ACROSS_NODES to the winner");
    // Judged by the worse sources too: the winner's score is the lowest of every candidate.
    let scores: Vec<f64> = v["candidates"].as_array().unwrap().iter().map(|c| c["score"].as_f64().unwrap()).collect();
    let winner = v["candidates"].as_array().unwrap().iter().find(|c| c["name"] == sel["winner"]).unwrap();
    assert!(scores.iter().all(|s| *s >= winner["score"].as_f64().unwrap()));
    // The course's repositories are one source: fewer sources than repositories.
    let sources = v["sources"].as_array().unwrap();
    assert!(sources.iter().any(|s| s["source"] == "course:FHPC Trieste on ORFEO"));
    assert!(!sources.iter().any(|s| s["source"] == "github:leonardomusini/FHPC"));
    assert!(sel["nested"]["median_rel_error"].as_f64().is_some_and(|m| m > 0.0 && m < 1.0));
    assert_eq!(v["by_count"].as_array().map(Vec::len), Some(2));
    assert!(v["node_crossing"]["predictions"].as_u64().is_some_and(|n| n > 0));
    // The corpora hold series alike in their first runs that part further out.
    let twins = v["twins"].as_array().unwrap();
    assert_eq!(twins.iter().map(|t| t["k"].as_u64().unwrap()).collect::<Vec<_>>(), [3, 4]);
    for t in twins {
        let (pairs, apart) = (t["pairs"].as_u64().unwrap(), t["apart"].as_u64().unwrap());
        assert!(pairs > 0 && apart <= pairs, "{t}");
        let r = t["widest"]["ratio"].as_f64().unwrap();
        assert!(
            r > 1.0 && (t["widest"]["least_rel_error"].as_f64().unwrap() - (r - 1.0) / (r + 1.0)).abs() < 1e-12,
            "{t}"
        );
    }
}

/// The forecast's 90 % ranges hold 85–95 % in every horizon band on sources held out of the
/// calibration, each source counted alike (a new user's program is one more source), for
/// K = 3 and K = 4: with each source held out in turn, and with each fixed fifth of the sources
/// (by a hash of the name) never seen by the calibration. Today's main held 82–84 % at up to
/// 4× for K = 4; on the fifths, beyond 16× for K = 3 the ranges held 75.5 % until a band's
/// range was made never narrower than the nearer band's (seven of the eleven sources that reach
/// that far are in one fifth).
#[test]
fn ranges_hold_their_level_per_horizon_band_on_held_out_sources() {
    if !shared_present() {
        return;
    }
    let v = full_validate();
    let splits = v["held_out_by_horizon"].as_array().expect("held_out_by_horizon");
    assert_eq!(splits.len(), 2);
    for split in splits {
        let name = split["split"].as_str().unwrap();
        let by_count = split["by_count"].as_array().unwrap();
        assert_eq!(by_count.len(), 2);
        for row in by_count {
            let cells = row["by_horizon"].as_array().unwrap();
            let horizons: Vec<&str> = cells.iter().map(|c| c["horizon"].as_str().unwrap()).collect();
            assert_eq!(horizons, ["≤ 2", "2–4", "4–16", "> 16", "all"]);
            for c in cells {
                let share = c["coverage_sources_alike"].as_f64().unwrap();
                let pooled = c["coverage"].as_f64().unwrap();
                assert!(c["predictions"].as_u64().unwrap() > 0 && c["sources"].as_u64().unwrap() >= 3, "{name}: {c}");
                assert!(pooled > 0.0 && pooled <= 1.0 && c["median_rel_width"].as_f64().unwrap() > 0.0, "{name}: {c}");
                assert!((0.85..=0.95).contains(&share), "{name}, counts {}: {c}", row["counts"]);
            }
        }
    }
}

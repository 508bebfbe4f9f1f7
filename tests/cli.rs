//! The `scalewise` command as a script sees it: exit statuses, one-line errors, JSON out.

use std::io::Write;
use std::process::{Command, Stdio};

mod common;
use common::run;

#[test]
fn help_lists_every_calculator() {
    let o = run(&["--help"], "");
    assert_eq!(o.status, 0);
    for name in ["catalog", "multigrid"] {
        assert!(o.stdout.contains(name), "--help lacks {name}:\n{}", o.stdout);
    }
    let o = run(&["multigrid", "--help"], "");
    assert_eq!(o.status, 0);
    assert!(o.stdout.contains("gamma_s_per_mb"), "multigrid --help documents its output keys");
}

/// An Extra-P experiment of one parameter.
const EXTRAP_ONE: &str = "PARAMETER p\nPOINTS 2 4 8\nREGION r\nMETRIC time\nDATA 1\nDATA 0.6\nDATA 0.4\n";

#[test]
fn usage_errors_exit_2_input_errors_exit_1_with_one_line() {
    let cases: &[(&[&str], &str, i32, &str)] = &[
        (&["frobnicate"], "{}", 2, "unknown calculator 'frobnicate'"),
        (&["multigrid", "--bogus"], "{}", 2, "unknown option '--bogus'"),
        (&["multigrid"], "{not json", 1, "input is not valid JSON"),
        // A list's elements are read on the workers; the place is still the input's.
        (
            &["speedup"],
            "[{\"points\": 1},\n {\"points\": [{\"n\": 2, \"speedup\": 1e400}]}]",
            1,
            "number out of range at line 2 column 38",
        ),
        (&["multigrid", "/no/such/file.json"], "", 1, "cannot read '/no/such/file.json'"),
        (&["multigrid"], "{\"sequential\": [], \"parallel\": []}", 1, "multigrid"),
        // A short option the command lacks is no file name; a bad option value and an option
        // that does not apply are usage errors, found before the input is read.
        (&["speedup", "-q"], "{}", 2, "unknown option '-q'"),
        (&["speedup", "--allocation", "xml"], "{}", 2, "--allocation: expected md, csv or latex, found \"xml\""),
        (&["multigrid", "--cores-per-node", "4"], "{}", 2, "--cores-per-node applies only to the allocation table"),
        (&["bottlenecks", "--predict", "abc"], EXTRAP_ONE, 2, "--predict: line 1, column 1: expected a process count"),
        (&["bottlenecks", "--hold", "sideways"], EXTRAP_ONE, 2, "--hold: expected a value of the second parameter"),
        // An option or a format that does not apply to the input read: said, exit 1.
        (&["bottlenecks", "--hold", "5"], EXTRAP_ONE, 1, "--hold: this experiment has one parameter (p)"),
        (
            &["comm", "--format", "osu_bw"],
            "# OSU MPI Latency Test v5.9\n# Size Latency (us)\n0 1.5\n8 1.6\n",
            1,
            "this is osu_latency output",
        ),
    ];
    for (args, stdin, status, want) in cases {
        let o = run(args, stdin);
        assert_eq!(o.status, *status, "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains(want), "{args:?}: stderr {:?} lacks {want:?}", o.stderr);
        assert_eq!(o.stderr.trim_end().lines().count(), 1, "{args:?}: one line: {:?}", o.stderr);
        assert!(o.stdout.is_empty(), "{args:?}: nothing on stdout");
    }
}

/// A byte-order mark first (Windows editors save one) is no error, on standard input or from a
/// file, and an error's column still counts from what the editor shows.
#[test]
fn a_byte_order_mark_is_read_past() {
    let input = "\u{feff}{\"points\": [{\"n\": 1, \"speedup\": 1}, {\"n\": 2, \"speedup\": 1.9}, {\"n\": 4, \"speedup\": 3.5}]}";
    let plain = run(&["speedup", "--compact"], &input[3..]);
    assert_eq!(plain.status, 0, "{}", plain.stderr);
    let o = run(&["speedup", "--compact"], input);
    assert_eq!(o.status, 0, "{}", o.stderr);
    assert_eq!(o.stdout, plain.stdout);
    let path = std::env::temp_dir().join(format!("scalewise-bom-{}.json", std::process::id()));
    std::fs::write(&path, input).unwrap();
    let f = run(&["speedup", "--compact", path.to_str().unwrap()], "");
    std::fs::remove_file(&path).ok();
    assert_eq!((f.status, f.stdout), (0, plain.stdout));
    let bad = run(&["multigrid"], "\u{feff}{not json");
    assert_eq!(bad.status, 1);
    assert!(bad.stderr.contains("line 1 column 2"), "{}", bad.stderr);
}

/// One limit of the command: the arguments, the input with `k` items of the capped list, the
/// cap, and words of the refusal besides the counts.
struct Limit {
    args: &'static [&'static str],
    input: Box<dyn Fn(usize) -> String>,
    most: usize,
    /// The cap the refusal names (`most`, or for pairs of counts, `most`²).
    named: usize,
    want: &'static str,
}

/// Every list a script may make long, with the cap the model defines for it.
fn limits() -> Vec<Limit> {
    let golden: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("tests/golden/cli-cases.json").unwrap()).unwrap();
    let planner =
        golden.as_array().unwrap().iter().find(|c| c["name"] == "multigrid-planner").unwrap()["input"].clone();
    let pairs = planner.clone();
    let sequential = "\"sequential\": [{\"work_mb\": 2048, \"time_s\": 1500}, {\"work_mb\": 1024, \"time_s\": 740}], \"parallel\": [{\"np\": 4, \"work_mb\": 2048, \"time_s\": 1580}, {\"np\": 4, \"work_mb\": 1024, \"time_s\": 800}, {\"np\": 8, \"work_mb\": 2048, \"time_s\": 1610}, {\"np\": 8, \"work_mb\": 1024, \"time_s\": 825}]";
    vec![
        Limit {
            args: &["speedup"],
            input: Box::new(|k| {
                format!("{{\"points\": [{{\"n\": 1, \"speedup\": 1}}, {{\"n\": 2, \"speedup\": 1.9}}, {{\"n\": 4, \"speedup\": 3.5}}], \"predict\": [{}]}}", vec!["64"; k].join(","))
            }),
            most: scalewise::model::speedup::MAX_PREDICT,
            named: scalewise::model::speedup::MAX_PREDICT,
            want: "predict: ",
        },
        Limit {
            args: &["speedup"],
            input: Box::new(|k| {
                format!(
                    "{{\"points\": [{}]}}",
                    (0..k)
                        .map(|i| format!("{{\"n\": {}, \"speedup\": {}}}", 1 + i % 64, 1.0 + (i % 64) as f64 * 0.9))
                        .collect::<Vec<_>>()
                        .join(",")
                )
            }),
            most: scalewise::model::speedup::MAX_POINTS,
            named: scalewise::model::speedup::MAX_POINTS,
            want: "points: ",
        },
        Limit {
            args: &["comm"],
            input: Box::new(|k| {
                format!("{{\"points\": [{{\"size_bytes\": 1, \"time_us\": 50.01}}, {{\"size_bytes\": 1024, \"time_us\": 60.24}}, {{\"size_bytes\": 65536, \"time_us\": 705.4}}], \"predict\": [{}]}}", vec!["131072"; k].join(","))
            }),
            most: scalewise::model::comm::MAX_PREDICT,
            named: scalewise::model::comm::MAX_PREDICT,
            want: "predict: ",
        },
        Limit {
            args: &["comm"],
            input: Box::new(|k| {
                format!(
                    "{{\"points\": [{}]}}",
                    (0..k)
                        .map(|i| format!("{{\"size_bytes\": {i}, \"time_us\": {}}}", 50.0 + i as f64 * 0.01))
                        .collect::<Vec<_>>()
                        .join(",")
                )
            }),
            most: scalewise::model::comm::MAX_POINTS,
            named: scalewise::model::comm::MAX_POINTS,
            want: "points: ",
        },
        Limit {
            args: &["multigrid"],
            input: Box::new(move |k| {
                format!("{{{sequential}, \"predict\": [{}]}}", vec!["{\"np\": 64, \"work_mb\": 2048}"; k].join(","))
            }),
            most: scalewise::model::multigrid::MAX_PREDICT,
            named: scalewise::model::multigrid::MAX_PREDICT,
            want: "predict: ",
        },
        Limit {
            args: &["multigrid"],
            input: Box::new(move |k| {
                let mut input = planner.clone();
                input["planner"]["candidate_np"] = (2..2 + k as u64).collect();
                input.to_string()
            }),
            most: scalewise::model::multigrid::MAX_CANDIDATES,
            named: scalewise::model::multigrid::MAX_CANDIDATES,
            want: "tried at once",
        },
        Limit {
            args: &["multigrid"],
            input: Box::new(move |k| {
                let mut input = pairs.clone();
                input["planner"]["pair_candidate_np"] = (2..2 + k as u64).collect();
                input.to_string()
            }),
            most: (scalewise::model::multigrid::MAX_PAIRS as f64).sqrt() as usize,
            named: scalewise::model::multigrid::MAX_PAIRS,
            want: "pairs of process counts per shared fabric",
        },
        Limit {
            args: &["bottlenecks", "--predict", "256"],
            input: Box::new(|k| {
                let mut s = String::from("PARAMETER p\nPOINTS 2 4 8\n");
                for r in 0..k {
                    s.push_str(&format!("REGION r{r}\nMETRIC time\nDATA 1\nDATA 0.6\nDATA 0.4\n"));
                }
                s
            }),
            most: scalewise::model::bottlenecks::MAX_REGIONS_BATCH,
            named: scalewise::model::bottlenecks::MAX_REGIONS_BATCH,
            want: "regions to fit",
        },
    ]
}

/// Every list a script may make long is capped once, in the model, and a list past its cap is
/// refused up front with exit 1 and one line naming the key and the cap (it was read: a
/// speed-up predict list of 400,000 took 12.8 s and 3.6 GB); a list at the cap is answered.
#[test]
fn lists_past_their_limit_are_refused_up_front() {
    for l in limits() {
        // (100,000 regions fitted in a debug build: half a minute; tests/cli_bottlenecks.rs plans them.)
        if l.args[0] == "bottlenecks" {
            refused(&l, l.most + 1);
            continue;
        }
        let o = run(&[l.args, &["--compact"]].concat(), &(l.input)(l.most));
        assert_eq!(o.status, 0, "{:?} at its cap: {}", l.args, o.stderr);
        refused(&l, l.most + 1);
    }
}

/// `l`'s input of `k` > cap items: exit 1, one line naming the key, the count and the cap,
/// nothing on standard output.
fn refused(l: &Limit, k: usize) {
    let o = run(&[l.args, &["--compact"]].concat(), &(l.input)(k));
    let line = o.stderr.trim_end();
    assert_eq!(o.status, 1, "{:?} with {k}: {line}", l.args);
    assert_eq!(line.lines().count(), 1, "{line}");
    for want in [l.want, &format!("{k} "), &format!("than the {} ", l.named)] {
        assert!(line.contains(want), "{:?} with {k}: {line:?} lacks {want:?}", l.args);
    }
    assert!(o.stdout.is_empty());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 16, failure_persistence: None, ..Default::default() })]

    /// Any length past a cap, up to twice it, takes the refusal path of that cap.
    #[test]
    fn any_length_past_a_cap_is_refused(which: proptest::sample::Index, excess in 1usize..=4096) {
        let mut all = limits();
        let l = all.swap_remove(which.index(all.len()));
        refused(&l, l.most + excess.min(l.most));
    }
}

/// "--" ends the options: a file whose name starts with "-" is read after it, and "-" alone
/// is standard input.
#[test]
fn a_double_dash_ends_the_options() {
    let dir = std::env::temp_dir().join(format!("sw-dashes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("-q.json"),
        "{\"points\": [{\"n\": 1, \"speedup\": 1}, {\"n\": 2, \"speedup\": 1.9}, {\"n\": 4, \"speedup\": 3.5}]}",
    )
    .unwrap();
    let go = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_scalewise"))
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let o = go(&["speedup", "--compact", "--", "-q.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("\"best\""));
    assert_eq!(go(&["speedup", "-q.json"]).status.code(), Some(2));
    assert_eq!(go(&["speedup", "--", "-q.json", "other.json"]).status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn catalog_prints_json() {
    let o = run(&["catalog", "--compact"], "{}");
    assert_eq!(o.status, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).expect("JSON out");
    assert!(v["clusters"].as_array().is_some_and(|c| c.len() >= 12));
}

#[test]
fn catalog_needs_no_input() {
    let out = Command::new(env!("CARGO_BIN_EXE_scalewise"))
        .args(["catalog", "--compact"])
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON out");
    assert_eq!(v["links"][0]["a"], "wrg-a");
}

#[test]
fn a_reader_that_stops_early_is_no_error() {
    // A sweep over 20,000 bandwidths answers with far more than a pipe holds; the reader takes
    // 100 bytes and goes away, as `scalewise regions | head -c 100` would.
    let bandwidths: Vec<String> = (1..=20_000).map(|i| format!("{}", f64::from(i) / 100.0)).collect();
    let job = format!(
        r#"{{"x_prime": 196.08, "z": 1.5, "z_prime": 10, "alpha": 0.05, "n": [64, 256], "region_bandwidth_gb_s": 1, "sweep": {{"bandwidth_gb_s": [{}]}}}}"#,
        bandwidths.join(",")
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_scalewise"))
        .arg("regions")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child.stdin.take().expect("stdin").write_all(job.as_bytes()).expect("writes");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 100];
    std::io::Read::read_exact(&mut stdout, &mut first).expect("some output");
    drop(stdout);
    let out = child.wait_with_output().expect("ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

/// Runs `scalewise ARGS` on `stdin` with its standard output sent to `/dev/full` (every write
/// fails: no space left on the device).
fn to_full_disk(args: &[&str], stdin: &str) -> (i32, String) {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    let mut child = Command::new(env!("CARGO_BIN_EXE_scalewise"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(mut pipe) = child.stdin.take() {
        let _ = pipe.write_all(stdin.as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_failed_write_is_an_error_and_a_closed_reader_is_not() {
    let one = r#"{"points": [{"n": 1, "time_s": 10}, {"n": 2, "time_s": 5.5}, {"n": 4, "time_s": 3.1}]}"#;
    let app = format!("{}/tests/data/extrap/app.txt", env!("CARGO_MANIFEST_DIR"));
    // One answer, a list answered element by element, a streamed ranking, the catalog, help.
    for (args, stdin) in [
        (vec!["speedup"], one.to_string()),
        (vec!["speedup", "--compact"], format!("[{one}, {one}]")),
        (vec!["bottlenecks", app.as_str()], String::new()),
        (vec!["catalog"], String::new()),
        (vec!["--help"], String::new()),
    ] {
        if std::path::Path::new("/dev/full").exists() {
            let (status, err) = to_full_disk(&args, &stdin);
            assert_eq!(status, 1, "{args:?}: {err}");
            assert!(err.contains("could not write the answer: No space left on device"), "{args:?}: {err}");
        }
    }
    // A reader that stops early (`| head -c 1`) ends the command quietly, status 0.
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_scalewise"))
        .args(["bottlenecks", &app])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!((out.status.code(), String::from_utf8_lossy(&out.stderr).as_ref()), (Some(0), ""));
}

/// `-o FILE` writes the answer through a temporary file renamed over FILE: the same bytes as
/// standard output when it succeeds; on bad input FILE keeps what it held and no partial or
/// temporary file is left.
#[test]
fn an_output_file_is_whole_or_untouched() {
    let dir = std::env::temp_dir().join(format!("sw-output-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("answer.json");
    let out_s = out.to_str().unwrap();
    let good = "{\"points\": [{\"n\": 1, \"speedup\": 1}, {\"n\": 2, \"speedup\": 1.9}, {\"n\": 4, \"speedup\": 3.5}]}";
    let plain = run(&["speedup"], good);
    for args in [&["speedup", "-o", out_s][..], &["speedup", &format!("--output={out_s}")], &["-o", out_s, "speedup"]] {
        let o = run(args, good);
        assert_eq!((o.status, o.stdout.as_str()), (0, ""), "{args:?}: {}", o.stderr);
        assert_eq!(std::fs::read_to_string(&out).unwrap(), plain.stdout);
    }
    // Bad input: exit 1, and the file holds the earlier answer.
    let o = run(&["speedup", "-o", out_s], "{\"points\": [{\"n\": 1, \"speedup\": 1}]");
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), plain.stdout);
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["answer.json"], "no temporary file is left");
    // A folder that does not exist: exit 1, naming the file; no value: usage, exit 2.
    let missing = dir.join("no/such/answer.json");
    let o = run(&["speedup", "-o", missing.to_str().unwrap()], good);
    assert_eq!(o.status, 1);
    assert!(o.stderr.contains("cannot write") && o.stderr.contains("answer.json"), "{}", o.stderr);
    assert_eq!(run(&["speedup", "-o"], good).status, 2);
    assert_eq!(run(&["speedup", "-o", out_s, "-o", out_s], good).status, 2);
    // `-o -` is standard output.
    assert_eq!(run(&["speedup", "-o", "-"], good).stdout, plain.stdout);
    std::fs::remove_dir_all(&dir).ok();
}

/// The multigrid runs may be given as the page's pasted tables (a header with units, or none;
/// commas, tabs or spaces), read by the page's reader: the same answer as the JSON lists, with
/// each residual's table line added; a bad cell is named by key, line and column.
#[test]
fn multigrid_runs_as_pasted_tables_give_the_lists_answer() {
    let lists = r#"{"sequential": [{"work_mb": 2048, "time_s": 1500}, {"work_mb": 1024, "time_s": 740}], "parallel": [{"np": 4, "work_mb": 2048, "time_s": 1580}, {"np": 4, "work_mb": 1024, "time_s": 800}, {"np": 8, "work_mb": 2048, "time_s": 1610}, {"np": 8, "work_mb": 1024, "time_s": 825}], "predict": [{"np": 64, "work_mb": 2048}]}"#;
    let tables = r#"{"sequential": "work (MB), time (s)\n2048, 1500\n1024, 740", "parallel": "4\t2048\t1580\n4\t1024\t800\n8\t2048\t1610\n8\t1024\t825", "predict": [{"np": 64, "work_mb": 2048}]}"#;
    let answer = |input: &str| -> serde_json::Value {
        let o = run(&["multigrid", "--compact"], input);
        assert_eq!(o.status, 0, "{}", o.stderr);
        serde_json::from_str(&o.stdout).unwrap()
    };
    let (want, mut got) = (answer(lists), answer(tables));
    let tcomm = got["tcomm"].as_array().unwrap();
    assert_eq!(tcomm.iter().map(|r| r["line"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2, 3, 4]);
    fn without_lines(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(o) => {
                o.remove("line");
                o.values_mut().for_each(without_lines);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(without_lines),
            _ => {}
        }
    }
    without_lines(&mut got);
    assert_eq!(got, want);
    let o = run(&["multigrid"], r#"{"sequential": "work (MB), time (s)\n2048, 15x0\n1024, 740", "parallel": []}"#);
    assert_eq!(o.status, 1);
    // Column 7: the character where "15x0" starts (issue 45, item 21: columns count characters).
    assert!(
        o.stderr.contains("sequential: line 2, column 7: expected a number for time (s), found \"15x0\""),
        "{}",
        o.stderr
    );
}

/// Every calculator's answer says its warnings in one shape, `warnings_at`: [{path, message}],
/// the path naming the input key (or option) the warning concerns. (`warnings` keeps the
/// shape each always had.)
#[test]
fn every_answer_says_its_warnings_as_path_and_message() {
    let cases: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/cli-cases.json")).unwrap(),
    )
    .unwrap();
    let case = |name: &str| {
        cases.as_array().unwrap().iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("no case {name}")).clone()
    };
    let answer = |args: &[&str], input: &str| -> serde_json::Value {
        let o = run(args, input);
        assert_eq!(o.status, 0, "{args:?}: {}", o.stderr);
        serde_json::from_str(&o.stdout).unwrap()
    };
    let paths = |a: &serde_json::Value| -> Vec<(String, String)> {
        let list = a["warnings_at"].as_array().unwrap_or_else(|| panic!("no warnings_at in {a}"));
        list.iter()
            .map(|w| {
                assert_eq!(w.as_object().map(|o| o.len()), Some(2), "{w}");
                (w["path"].as_str().unwrap().to_string(), w["message"].as_str().unwrap().to_string())
            })
            .collect()
    };
    // Speed-up: repeated n is about the points; every run on one node names cores_per_node.
    let s = answer(
        &["speedup"],
        r#"{"points": [{"n": 2, "speedup": 1.9}, {"n": 2, "speedup": 2.0}, {"n": 4, "speedup": 3.5}, {"n": 8, "speedup": 6.1}, {"n": 16, "speedup": 9.8}]}"#,
    );
    let w = paths(&s);
    assert!(w.iter().any(|(p, m)| p == "points" && m.contains("n = 2 is given 2 times")), "{w:?}");
    let messages: Vec<&str> = w.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(s["warnings"], serde_json::json!(messages), "warnings keeps the same sentences as strings");
    // A pasted table without a header: how it was read, first, about the points.
    let t = answer(&["speedup", "--format", "table"], "2 1.9\n4 3.5\n8 6.1\n");
    assert!(paths(&t)[0].0 == "points" && paths(&t)[0].1.contains("No header"), "{:?}", paths(&t));
    // Two regions: the key's path.
    let r = answer(
        &["regions"],
        r#"{"x_prime": 196.08, "z": 1, "z_prime": 5, "alpha": 0.001, "n": [64], "region_bandwidth_gb_s": 5000}"#,
    );
    assert_eq!(paths(&r).first().map(|w| w.0.as_str()), Some("region_bandwidth_gb_s"), "{r}");
    // Bottlenecks: a second parameter held at its largest value names the option.
    let b = answer(&["bottlenecks"], "PARAMETER p\nPARAMETER size\nPOINTS (2 10) (4 10) (8 10) (2 20) (4 20) (8 20)\nREGION main\nDATA 8\nDATA 4.1\nDATA 2.2\nDATA 16\nDATA 8.1\nDATA 4.3\n");
    assert!(
        paths(&b).iter().any(|(p, m)| p == "hold" && m.contains("size held at its largest value")),
        "{:?}",
        paths(&b)
    );
    // The planner and the point-to-point fit: present and empty on the examples.
    for name in ["multigrid-example", "multigrid-planner", "comm-example"] {
        let c = case(name);
        let args: Vec<&str> = c["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
        let a = answer(&args, &c["input"].to_string());
        assert_eq!(paths(&a), Vec::<(String, String)>::new(), "{name}");
    }
}

/// `scalewise cluster`: a node report (named by --format or told by its content) in, catalog
/// clusters out; a value that cannot be read is an input error at its line and column, an
/// unknown format a usage error.
#[test]
fn cluster_reads_a_pasted_node_report() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/node_reports/");
    let scontrol = format!("{data}scontrol.txt");
    let sinfo = std::fs::read_to_string(format!("{data}sinfo.txt")).unwrap();
    let runs: [(&[&str], &str, &str); 3] = [
        (&["cluster", &scontrol], "", "scontrol"),
        (&["cluster", "--format", "sinfo"], &sinfo, "sinfo"),
        (&["cluster"], &sinfo, "sinfo"),
    ];
    for (args, input, format) in runs {
        let o = run(args, input);
        assert_eq!(o.status, 0, "{args:?}: {}", o.stderr);
        let v: serde_json::Value = serde_json::from_str(&o.stdout).expect("JSON out");
        assert_eq!(v["format"], format);
        let clusters = v["clusters"].as_array().unwrap();
        let nodes: Vec<(&str, u64, u64)> = clusters
            .iter()
            .map(|c| (c["id"].as_str().unwrap(), c["nodes"].as_u64().unwrap(), c["cores_per_node"].as_u64().unwrap()))
            .collect();
        assert_eq!(nodes.len(), 4, "{nodes:?}");
        assert!(nodes.contains(&("batch-64-cores-251-gb", 3, 64)) && nodes.contains(&("gpu", 2, 48)), "{nodes:?}");
        assert_eq!(v["partitions"].as_array().map(Vec::len), Some(4));
    }
    let cases: &[(&[&str], &str, i32, &str)] = &[
        (
            &["cluster"],
            "NodeName=a CoresPerSocket=4 Sockets=1\n   RealMemory=abc AllocMem=0",
            1,
            "scalewise cluster: line 2, column 4: RealMemory: expected a whole number of MiB, found \"abc\"",
        ),
        (
            &["cluster", "--format", "sinfo"],
            "n001 1 batch* idle 128 2:32:2 257000",
            1,
            "scalewise cluster: no header line naming NODELIST, CPUS and MEMORY",
        ),
        (&["cluster"], "{\"clusters\": []}", 1, "scalewise cluster: cannot tell which report this is"),
        (&["cluster"], "", 1, "scalewise cluster: the report is empty"),
        (
            &["cluster", "--format", "pbsnodes"],
            "NodeName=a CPUTot=4",
            2,
            "scalewise cluster: unknown format 'pbsnodes'; expected scontrol, sinfo, lscpu",
        ),
    ];
    for (args, stdin, status, want) in cases {
        let o = run(args, stdin);
        assert_eq!(o.status, *status, "{args:?}: {}", o.stderr);
        assert!(o.stderr.starts_with(want), "{args:?}: stderr {:?} lacks {want:?}", o.stderr);
        assert_eq!(o.stderr.trim_end().lines().count(), 1, "{args:?}: one line: {:?}", o.stderr);
        assert!(o.stdout.is_empty(), "{args:?}: nothing on stdout");
    }
    let help = run(&["cluster", "--help"], "");
    assert_eq!(help.status, 0);
    for words in ["INPUT", "OUTPUT", "EXAMPLE", "--format scontrol|sinfo|lscpu", "memory_per_node_gb", "node_names"] {
        assert!(help.stdout.contains(words), "cluster --help lacks {words}");
    }
}

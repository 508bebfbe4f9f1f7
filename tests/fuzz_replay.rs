//! Every committed fuzz input (`fuzz/corpus/<target>/`: the seeds and what the campaigns kept;
//! `fuzz/regressions/<target>/`: every finding, fixed) replayed through the same checks the
//! nightly fuzz targets run (`scalewise::fuzzing`), on stable, in `cargo test`.

use std::path::Path;

use scalewise::fuzzing::TARGETS;

fn inputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<(String, Vec<u8>)> = entries
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| (e.path().display().to_string(), std::fs::read(e.path()).unwrap_or_default()))
        .collect();
    out.sort();
    out
}

#[test]
fn every_committed_fuzz_input_passes_its_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut replayed = 0;
    for (name, check) in TARGETS {
        assert!(root.join("fuzz_targets").join(format!("{name}.rs")).exists(), "no fuzz target for {name}");
        let seeds = inputs(&root.join("corpus").join(name));
        assert!(!seeds.is_empty(), "{name}: no seed corpus");
        for (path, data) in seeds.iter().chain(&inputs(&root.join("regressions").join(name))) {
            let result = std::panic::catch_unwind(|| check(data));
            assert!(result.is_ok(), "{path} fails its check");
            replayed += 1;
        }
    }
    println!("{replayed} fuzz inputs replayed");
}

/// The seed corpora, from the presets, examples and test inputs of every calculator:
/// `cargo test --test fuzz_replay -- --ignored --exact write_seeds` (re)writes
/// `fuzz/corpus/<target>/seed-*`. Campaigns add their own files beside them.
#[test]
#[ignore]
fn write_seeds() {
    use scalewise::model::contracts::CONTRACTS;
    use scalewise::model::simulate;
    use scalewise::model::workspace::{share, PageInputs, Workspace};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let write = |target: &str, name: &str, data: &[u8]| {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("seed-{name}")), data).unwrap();
    };
    // A page's texts as `pages` records: its key and a 0 byte, then per text its field's
    // index byte, the text and a 0 byte.
    fn records(key: &str, fields: &[&str], inputs: &PageInputs) -> Vec<u8> {
        let mut out = key.as_bytes().to_vec();
        out.push(0);
        for (i, f) in fields.iter().enumerate() {
            if let Some(t) = inputs.get(*f) {
                out.push(i as u8);
                out.extend_from_slice(t.as_bytes());
                out.push(0);
            }
        }
        out
    }
    let mut ws = Workspace::default();
    for c in CONTRACTS {
        let page = c.calculator.key;
        for (key, inputs) in (c.examples)() {
            write("pages", &format!("{page}-{key}"), &records(page, &(c.fields)(), &inputs));
            write("share", &format!("{page}-{key}"), share::encode(page, &inputs, &ws.catalog).as_bytes());
            // Every text of every page is also a table, a list and a matrix to try (named by
            // its field: the same text under several presets is written once).
            for (field, text) in &inputs {
                for target in ["table", "list", "p2p", "matrix", "histograms"] {
                    if text.trim().len() > 2 {
                        write(target, &format!("{page}-{field}-{:08x}", text.len()), text.as_bytes());
                    }
                }
            }
            ws.pages.insert(page.to_string(), inputs.clone());
        }
    }
    write("workspace", "all-pages", ws.to_json().as_bytes());
    write("workspace", "default", Workspace::default().to_json().as_bytes());
    for (i, f) in ["2/3*N^3", "2*N^2*8", "N^2*8/2", "-N^2 + 2^3^2", "(N+1)*(N-1)", "2 · N × 3 − 1"].iter().enumerate()
    {
        write("formula", &i.to_string(), f.as_bytes());
    }
    for (name, sk) in [
        ("jacobi", simulate::examples::JACOBI),
        ("fft", simulate::examples::FFT),
        ("bag", simulate::examples::BAG_OF_TASKS),
    ] {
        write("skeleton", name, sk.as_bytes());
    }
    write(
        "p2p",
        "osu",
        b"# OSU MPI Latency Test v5.9\n# Size          Latency (us)\n0 1.50\n1 1.52\n2 1.53\n4 1.55\n8 1.60\n16 1.70\n",
    );
    // Extra-P experiments: the test files (the JSON Lines one cut to its first 40 lines).
    let extrap = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/extrap");
    for name in ["app.txt", "app.json"] {
        write("extrap", name, &std::fs::read(extrap.join(name)).unwrap());
    }
    let lines = std::fs::read_to_string(extrap.join("app.jsonl")).unwrap();
    write("extrap", "app-head.jsonl", lines.lines().take(40).collect::<Vec<_>>().join("\n").as_bytes());
    // Talpas, Extra-P's older JSON format (ids) and four parameters, small.
    write("extrap", "talpas.txt", b"{\"parameters\":{\"p\":4,\"n\":10};\"metric\":\"time\";\"callpath\":\"main\";\"value\":8.2}\n{\"parameters\":{\"p\":8,\"n\":10};\"metric\":\"time\";\"callpath\":\"main\";\"value\":[4.3,4.1]}\n{\"parameters\":{\"p\":16,\"n\":10};\"metric\":\"time\";\"callpath\":\"main\";\"value\":2.2}\n{\"parameters\":{\"p\":32,\"n\":10};\"metric\":\"time\";\"callpath\":\"main\";\"value\":1.2}\n");
    write("extrap", "ids.json", br#"{"parameters": [{"id": 1, "name": "p"}], "callpaths": [{"id": 1, "name": "main"}], "metrics": [{"id": 1, "name": "time"}],
 "coordinates": [{"id": 1, "parameter_value_pairs": [{"parameter_id": 1, "parameter_value": 4}]}, {"id": 2, "parameter_value_pairs": [{"parameter_id": 1, "parameter_value": 8}]}, {"id": 3, "parameter_value_pairs": [{"parameter_id": 1, "parameter_value": 16}]}],
 "measurements": [{"coordinate_id": 1, "callpath_id": 1, "metric_id": 1, "value": 8.1}, {"coordinate_id": 1, "callpath_id": 1, "metric_id": 1, "value": 8.3}, {"coordinate_id": 2, "callpath_id": 1, "metric_id": 1, "value": 4.2}, {"coordinate_id": 3, "callpath_id": 1, "metric_id": 1, "value": 2.3}]}
"#);
    write("extrap", "four-params.txt", b"PARAMETER p n s o\nPOINTS (2 1 1 1) (4 1 1 1) (8 1 1 1) (2 2 1 1) (2 1 2 1) (2 1 1 2)\nREGION main\nDATA 4 4.1\nDATA 2.1\nDATA 1.1\nDATA 8\nDATA 8.2\nDATA 4\n");
    // Node reports: the test files (the one-line scontrol cut to its first two nodes).
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/node_reports");
    for name in ["scontrol.txt", "sinfo.txt", "lscpu.txt"] {
        write("node_report", name, &std::fs::read(reports.join(name)).unwrap());
    }
    let one_line = std::fs::read_to_string(reports.join("scontrol-oneline.txt")).unwrap();
    write(
        "node_report",
        "scontrol-oneline-head.txt",
        one_line.lines().take(2).collect::<Vec<_>>().join("\n").as_bytes(),
    );
    // An HPCToolkit database: Hatchet's cpi test database, its files in one input.
    let cpi = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hpctoolkit/hpctoolkit-cpi-database");
    let mut names: Vec<String> =
        std::fs::read_dir(&cpi).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names.sort_by_key(|n| n.as_str() != "experiment.xml");
    let parts: Vec<Vec<u8>> = names.iter().map(|n| std::fs::read(cpi.join(n)).unwrap()).collect();
    write("hpctoolkit", "cpi-database", &parts.join(scalewise::fuzzing::HPCTOOLKIT_PART));
    // Caliper json-split: Hatchet's region profile whole, the other two cut to their first
    // 2 KB (a file cut short is a seed too).
    let caliper = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/caliper-json");
    write(
        "cali_json",
        "region-node-order.json",
        &std::fs::read(caliper.join("caliper-region-node-order.json")).unwrap(),
    );
    for name in ["cpi-callpath-profile.json", "lulesh-annotation-profile.json"] {
        let bytes = std::fs::read(caliper.join(name)).unwrap();
        write("cali_json", &format!("head-{name}"), &bytes[..2048]);
    }
    write("cali_json", "small.json", br#"{"data": [[1, 0, 2.0], [1, 1, 3.0], [0, 0, 1.0], [null, 0, 9.0]], "columns": ["path", "mpi.rank", "sum#time.duration"], "column_metadata": [{"is_value": false}, {"is_value": true}, {"is_value": true, "attribute.unit": "sec"}], "nodes": [{"label": "main", "column": "path"}, {"label": "solve", "column": "path", "parent": 0}], "jobsize": "2"}"#);
    // TAU folders (`fuzzing::tau`): ranks 0 and 1 of Hatchet's cpi run, exclusive and
    // inclusive; a small two-metric folder in MULTI__ folders, the counter asked for. (Path 0
    // is picked by 8: a 0 byte ends a file.)
    let tau = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tau-cpi-mpi");
    for (ask, name) in [(0u8, "cpi"), (1, "cpi-inclusive")] {
        let mut data = vec![ask];
        for (k, file) in [(8u8, "profile.0.0.0"), (1, "profile.1.0.0")] {
            data.push(k);
            data.extend(std::fs::read(tau.join(file)).unwrap());
            data.push(0);
        }
        write("tau", name, &data);
    }
    let head = "# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>CPU Cores</name><value>8</value></attribute></metadata>";
    let lines = "\"main\" 1 1 100 300 0 GROUP=\"TAU_DEFAULT\" \n\"main => solve()  \" 2 0 200 200 0 GROUP=\"TAU_CALLPATH\" \n0 aggregates\n";
    let mut data = vec![2u8];
    for (k, metric) in [(3u8, "TIME"), (4, "TIME"), (5, "PAPI_TOT_CYC"), (6, "PAPI_TOT_CYC")] {
        data.push(k);
        data.extend(format!("2 templated_functions_MULTI_{metric}\n{head}\n{lines}").bytes());
        data.push(0);
    }
    write("tau", "multi", &data);
    // Sets of files (`fuzzing::runs`): two small TAU runs, two of Thicket's LULESH .cali runs,
    // a Caliper JSON run, Hatchet's cpi HPCToolkit database (its first two ranks), a Cube
    // profile among text; each file its path's index (of RUNS_PATHS) and its bytes.
    let set = |ask: u8, files: &[(u8, Vec<u8>)]| {
        let mut data = vec![ask];
        for (i, (k, bytes)) in files.iter().enumerate() {
            if i > 0 {
                data.extend_from_slice(scalewise::fuzzing::RUNS_PART);
            }
            data.push(*k);
            data.extend_from_slice(bytes);
        }
        data
    };
    let tau_file = |excl: u32| {
        format!("2 templated_functions_MULTI_TIME\n{head}\n\"main\" 1 1 100 {} 0 GROUP=\"TAU_DEFAULT\" \n\"main => solve()  \" 2 0 {excl} {excl} 0 GROUP=\"TAU_CALLPATH\" \n0 aggregates\n", 100 + excl).into_bytes()
    };
    write("runs", "tau", &set(0, &[(5, tau_file(200)), (6, tau_file(210)), (7, tau_file(120))]));
    let cali = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cali/mpi_scaling_cali");
    let lulesh = |f: &str| std::fs::read(cali.join(f)).unwrap();
    write("runs", "cali", &set(8, &[(2, lulesh("27_cores.cali")), (3, lulesh("64_cores.cali"))]));
    write("runs", "cali-json", &set(1, &[(4, std::fs::read(caliper.join("caliper-region-node-order.json")).unwrap())]));
    let cpi = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hpctoolkit/hpctoolkit-cpi-database");
    let db = |f: &str| std::fs::read(cpi.join(f)).unwrap();
    write(
        "runs",
        "hpctoolkit",
        &set(
            2,
            &[
                (8, db("experiment.xml")),
                (9, db("1.cpi-000000-000-a8c00270-160443-0.metric-db")),
                (10, db("1.cpi-000001-000-a8c00270-160444-0.metric-db")),
            ],
        ),
    );
    write("runs", "mixed", &set(4, &[(0, b"not a tar".to_vec()), (11, b"PARAMETER p".to_vec())]));
    // The command: each golden case, its subcommand's index first.
    let cases: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/cli-cases.json")).unwrap(),
    )
    .unwrap();
    let names: Vec<&str> = scalewise::cli::SUBCOMMANDS.iter().map(|c| c.name).collect();
    for case in cases.as_array().unwrap() {
        let cmd = case["args"][0].as_str().unwrap();
        let Some(i) = names.iter().position(|n| *n == cmd) else { continue };
        if case["input"].is_string() {
            continue;
        }
        let mut data = vec![i as u8];
        data.extend_from_slice(case["input"].to_string().as_bytes());
        write("cli", case["name"].as_str().unwrap(), &data);
    }
}

/// The `runs` target's seeds are sets the run set reads (a seed refused at once would only
/// exercise the first check), but for the one made to be refused.
#[test]
fn the_runs_seeds_are_read_as_their_formats() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/runs");
    for (seed, want) in [
        ("tau", Some(("tau", 2))),
        ("cali", Some(("cali", 2))),
        ("cali-json", Some(("cali-json", 1))),
        ("hpctoolkit", Some(("hpctoolkit", 1))),
        ("mixed", None),
    ] {
        let data = std::fs::read(dir.join(format!("seed-{seed}"))).unwrap();
        let got = scalewise::fuzzing::runs_read(&data);
        assert_eq!(got.as_ref().map(|(f, n)| (f.as_str(), *n)), want, "seed-{seed}");
    }
}

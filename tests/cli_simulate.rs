//! `scalewise simulate` as a script sees it: the contract's keys, hand-computed answers,
//! deadlocks as results, one-line errors naming the key.

use serde_json::{json, Value};

mod common;
use common::run;

fn simulate(input: Value) -> Value {
    let o = run(&["simulate", "--compact"], &input.to_string());
    assert_eq!(o.status, 0, "stderr: {}", o.stderr);
    serde_json::from_str(&o.stdout).expect("JSON out")
}

fn error(input: Value) -> String {
    let o = run(&["simulate"], &input.to_string());
    assert_eq!(o.status, 1, "stdout: {}", o.stdout);
    assert_eq!(o.stderr.lines().count(), 1, "{}", o.stderr);
    o.stderr
}

const EXCHANGE: &str = "Loop iterations = 100 {\n Message type = MPI_Send, size = 1024, to = 1 - procnum\n Message type = MPI_Recv, from = 1 - procnum\n Serial time = 1\n}";

#[test]
fn help_is_full_and_listed() {
    let o = run(&["simulate", "--help"], "");
    assert_eq!(o.status, 0);
    for key in [
        "skeleton",
        "params",
        "numprocs",
        "procs_per_node",
        "machine",
        "mode",
        "replications",
        "seed",
        "ci95_s",
        "deadlock",
        "waiting_for",
    ] {
        assert!(o.stdout.contains(key), "help lacks {key}");
    }
    assert!(run(&["--help"], "").stdout.contains("simulate"));
}

#[test]
fn the_helps_example_is_right() {
    // 100 × (1 ms + 100 µs + 1024·8 bits / 80 Mbit/s) = 0.12024 s, exactly (a fixed machine).
    let out = simulate(
        json!({"skeleton": EXCHANGE, "numprocs": [2], "machine": {"latency_us": 100, "bandwidth_mbit_s": 80}}),
    );
    let r = &out["results"][0];
    assert_eq!(r["numprocs"], 2);
    assert!((r["mean_s"].as_f64().unwrap() - 0.12024).abs() < 1e-12, "{r}");
    let ci = r["ci95_s"].as_array().unwrap();
    assert_eq!(ci.len(), 2);
    // Speed-up relative to the total computing time at 2 processes: 0.2 s / 0.12024 s.
    assert!((r["speedup"].as_f64().unwrap() - 0.2 / 0.12024).abs() < 1e-9);
    assert_eq!(r["run_times_s"].as_array().unwrap().len(), 20);
    assert_eq!(r["procs"].as_array().unwrap().len(), 2);
}

#[test]
fn the_contract_example_on_perseus() {
    let input = json!({"skeleton": scalewise::model::simulate::examples::JACOBI, "params": {"xsize": 256, "iterations": 100},
        "numprocs": [2, 4, 8], "procs_per_node": 1, "machine": "perseus", "mode": "distribution", "replications": 5, "seed": 1});
    let a = simulate(input.clone());
    let results = a["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    for (r, n) in results.iter().zip([2, 4, 8]) {
        assert_eq!(r["numprocs"], n);
        let (mean, lo, hi) =
            (r["mean_s"].as_f64().unwrap(), r["ci95_s"][0].as_f64().unwrap(), r["ci95_s"][1].as_f64().unwrap());
        assert!(lo <= mean && mean <= hi && mean > 0.0);
        assert!(r["speedup"].as_f64().unwrap() > 1.0);
    }
    // Same seed, same answer.
    assert_eq!(a, simulate(input));
}

#[test]
fn modes_and_the_figure6_comparison() {
    let base = json!({"skeleton": scalewise::model::simulate::examples::JACOBI, "params": {"iterations": 50}, "numprocs": [16], "replications": 3, "compare": true});
    let out = simulate(base);
    let labels: Vec<&str> =
        out["comparison"].as_array().unwrap().iter().map(|s| s["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["distribution", "average n × p", "average 2 × 1", "minimum 2 × 1"]);
    let mean = |i: usize| out["comparison"][i]["results"][0]["mean_s"].as_f64().unwrap();
    assert!(mean(3) <= mean(0));
}

#[test]
fn deadlock_is_an_answer() {
    let out = simulate(
        json!({"skeleton": "Message type = MPI_Recv, from = 1 - procnum\nMessage type = MPI_Send, to = 1 - procnum", "numprocs": [2]}),
    );
    let blocked = out["deadlock"]["blocked"].as_array().unwrap();
    assert_eq!(blocked.len(), 2);
    assert_eq!(blocked[0]["proc"], 0);
    assert!(blocked[0]["waiting_for"].as_str().unwrap().contains("process 1"));
    assert_eq!(out["deadlock"]["numprocs"], 2);
}

#[test]
fn histograms_machine() {
    let h = "size,n,p,low (us),high (us),count\n1024,2,1,100,110,3\n1024,2,1,110,200,1\n";
    let out = simulate(
        json!({"skeleton": EXCHANGE, "numprocs": [2], "machine": {"histograms": h}, "mode": "minimum", "replications": 2}),
    );
    // Minimum mode: every message 100 µs: 100 × 1.1 ms.
    assert!((out["results"][0]["mean_s"].as_f64().unwrap() - 0.11).abs() < 1e-9, "{out}");
}

#[test]
fn bad_input_names_the_key() {
    let cases = [
        (json!({"numprocs": [2]}), "missing key \"skeleton\""),
        (json!({"skeleton": "Loop iterations = 3 {", "numprocs": [2]}), "skeleton: line 1, column 22: expected \"}\""),
        (
            json!({"skeleton": EXCHANGE, "numprocs": [2, 0]}),
            "numprocs[1]: expected a process count from 1 to 16384, found 0",
        ),
        (json!({"skeleton": EXCHANGE, "numprocs": [2, -1]}), "numprocs[1]"),
        (json!({"skeleton": EXCHANGE, "numprocs": [3]}), "process 2: to = -1 is not a process"),
        (json!({"skeleton": EXCHANGE, "numprocs": [2], "mode": "median"}), "mode:"),
        (
            json!({"skeleton": EXCHANGE, "numprocs": [2], "machine": {"latency_us": -1, "bandwidth_mbit_s": 10}}),
            "machine.latency_us",
        ),
        (
            json!({"skeleton": EXCHANGE, "numprocs": [2], "machine": {"histograms": "1024 2 1 10 20 5\n1024 2 1 15 30 5"}}),
            "machine.histograms: line 2",
        ),
        (json!({"skeleton": EXCHANGE, "numprocs": [2], "colour": 1}), "unknown key \"colour\""),
        (json!({"skeleton": EXCHANGE, "numprocs": [2], "params": {"x y": 1}}), "params:"),
        (
            json!({"skeleton": "Loop iterations = 1e9 { Loop iterations = 1e9 { Serial time = 1 } }", "numprocs": [2]}),
            "would take about",
        ),
        (
            json!({"skeleton": "Loop i iterations = 2 { Loop iterations = 1e9 * (i + 1) { Serial time = 0 } }", "numprocs": [1], "max_steps": 100000}),
            "more than 100000 steps",
        ),
        (json!({"skeleton": "Serial time = -2", "numprocs": [1]}), "time = -2"),
        // A parameter's text is one expression, named by its key.
        (
            json!({"skeleton": EXCHANGE, "numprocs": [2], "params": {"t": "1 2"}}),
            "params.t: line 1, column 3: expected the end of the expression",
        ),
        (
            json!({"skeleton": EXCHANGE, "numprocs": [2], "machine": {"latency_us": 1, "bandwidth_mbit_s": 0}}),
            "machine.bandwidth_mbit_s: expected a number above 0",
        ),
        (json!({"skeleton": EXCHANGE, "numprocs": [2], "machine": "fitted"}), "machine: unknown machine \"fitted\""),
        (
            json!({"skeleton": EXCHANGE, "numprocs": [], "seed": -1}),
            "numprocs: expected 1 to 64 process counts, found 0; seed: expected a whole number from 0 to",
        ),
        (
            json!({"skeleton": EXCHANGE, "numprocs": [2], "procs_per_node": 65}),
            "procs_per_node: expected a whole number from 1 to 64, found \"65\"",
        ),
    ];
    for (input, want) in cases {
        let e = error(input.clone());
        assert!(e.contains(want), "{input}: {e}");
    }
}

/// Runs of more than 1,024 processes (up to 16,384; the event queue then keeps more bits of
/// each key for the process): a nearest-neighbour ring of 10,000 processes runs, every message
/// is received, and it takes about the time of 1,000; 16,385 is refused.
#[test]
fn a_ring_of_ten_thousand_processes_runs() {
    let skeleton = "Loop iterations = 3 {\n Message type = MPI_Isend, size = 1024, to = (procnum + 1) % numprocs\n \
                    Message type = MPI_Irecv, from = (procnum + numprocs - 1) % numprocs\n Message type = MPI_Wait\n Serial time = 0.001\n}";
    let o = run(
        &["simulate", "--compact"],
        &json!({"skeleton": skeleton, "numprocs": [1000, 10000], "replications": 1}).to_string(),
    );
    assert_eq!(o.status, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["messages"], json!(3 * (1000 + 10000)));
    let r = v["results"].as_array().unwrap();
    assert_eq!(r[1]["numprocs"], 10000);
    // Every process does the same: the larger count takes about as long (the slowest of more
    // processes' drawn message times, so no less).
    let (a, b) = (r[0]["mean_s"].as_f64().unwrap(), r[1]["mean_s"].as_f64().unwrap());
    assert!(a > 0.0 && b >= a && b < 1.5 * a, "{a} {b}");
    assert!(v["deadlock"].is_null(), "{}", v["deadlock"]);
    let e = error(json!({"skeleton": skeleton, "numprocs": [16385]}));
    assert!(e.contains("numprocs[0]: expected a process count from 1 to 16384, found 16385"), "{e}");
}

#[test]
fn a_chain_of_17000_operators_is_an_error_with_its_position_not_a_crash() {
    // Compiling such a chain once recursed per operator and overflowed the stack (SIGABRT).
    let chain = format!("Serial time = 1{}", "+0".repeat(17_000));
    let e = error(json!({"skeleton": chain, "numprocs": [2]}));
    assert!(e.contains("skeleton: line 1, column 526") && e.contains("chained more than 256"), "{e}");
    let e = error(json!({"skeleton": EXCHANGE, "params": {"t": format!("1{}", "*1".repeat(17_000))}, "numprocs": [2]}));
    assert!(e.contains("chained more than 256"), "{e}");
}

/// A SimGrid calibration CSV (operation,size,start,duration) as the machine: one-way times
/// of (send + recv) / 2, here 10 µs or 1000 µs for 1 KiB.
fn calibration(one_way_s: f64) -> String {
    (0..20)
        .map(|r| {
            let start = 18.0 + f64::from(r) * 0.01;
            let jitter = 1.0 + 0.01 * f64::from(r % 3);
            format!(
                "MPI_Send,1024,{start},{:e}\nMPI_Recv,1024,{start},{:e}\n",
                0.2 * one_way_s * jitter,
                1.8 * one_way_s * jitter
            )
        })
        .collect()
}

#[test]
fn a_simgrid_calibration_is_a_machine() {
    let run_on = |one_way_s: f64| {
        let out = simulate(json!({"skeleton": EXCHANGE, "numprocs": [2], "replications": 3,
                                   "machine": {"calibration": calibration(one_way_s)}}));
        out["results"][0]["mean_s"].as_f64().expect("mean_s")
    };
    let (fast, slow) = (run_on(10e-6), run_on(1000e-6));
    assert!(fast.is_finite() && fast > 0.1, "100 × 1 ms of serial time at least: {fast}");
    // 100 exchanges, each about 990 µs (+ up to 2 % jitter) slower.
    let extra = slow - fast;
    assert!((extra - 0.099).abs() < 0.099 * 0.05, "{fast} {slow}");
    let e = error(json!({"skeleton": EXCHANGE, "numprocs": [2], "machine": {"calibration": "MPI_Send,1024,1.0\n"}}));
    assert!(e.contains("machine.calibration") && e.contains("line 1"), "{e}");
}

/// The answer says what was run, not what the input said: the kind of machine read (a
/// calibration was reported as "fitted"), and the replications and seed as numbers of the job.
#[test]
fn the_answer_reports_what_ran() {
    let cases = [
        (json!({"calibration": calibration(10e-6)}), "calibration"),
        (json!({"histograms": "1024 2 1 100 200 3\n1024 2 1 200 300 1"}), "histograms"),
        (json!({"latency_us": 100, "bandwidth_mbit_s": 80}), "fitted"),
        (json!(" PERSEUS "), "perseus"),
        (Value::Null, "perseus"),
    ];
    for (machine, kind) in cases {
        let mut input = json!({"skeleton": EXCHANGE, "numprocs": [2], "replications": 3.0, "seed": 7.0});
        if !machine.is_null() {
            input["machine"] = machine;
        }
        let out = simulate(input);
        assert_eq!(
            (&out["machine"], &out["replications"], &out["seed"]),
            (&json!(kind), &json!(3), &json!(7)),
            "{kind}"
        );
    }
}

/// A skeleton that computes nothing has no time to compare with: its speed-ups are null, not
/// 0 (issue 33), while a computing one keeps them.
#[test]
fn no_computing_no_speedup() {
    let skeleton = "Loop iterations = 100 {\n Message type = MPI_Send, size = 1024, to = 1 - procnum\n Message type = MPI_Recv, from = 1 - procnum\n}";
    let out = simulate(
        json!({"skeleton": skeleton, "numprocs": [2], "machine": {"latency_us": 100, "bandwidth_mbit_s": 80}, "replications": 3, "compare": true}),
    );
    assert_eq!(out["sequential_s"], json!(0.0));
    assert!(out["results"][0]["mean_s"].as_f64().is_some_and(|t| t > 0.0));
    assert_eq!(out["results"][0]["speedup"], Value::Null);
    assert!(out["comparison"].as_array().is_some_and(|c| c.iter().all(|s| s["results"][0]["speedup"].is_null())));
    let computing = skeleton.replace("\n}", "\n Serial time = 1\n}");
    let out = simulate(
        json!({"skeleton": computing, "numprocs": [2], "machine": {"latency_us": 100, "bandwidth_mbit_s": 80}, "replications": 3}),
    );
    assert!(out["results"][0]["speedup"].as_f64().is_some_and(|s| s > 0.0));
}

/// A loop whose count is drawn at run time escapes the check before the start; the job's ops
/// are counted as it runs, and one past its limit stops with an error saying how far it got
/// (it ran to the end: 20 replications of a loop that could be as long as any).
#[test]
fn a_loop_counted_at_run_time_is_held_to_the_jobs_limit() {
    let job = |limit: u64| {
        json!({
            "skeleton": "Loop iterations = floor(uniform(20000, 20001)) {\n Serial time = 1\n}",
            "numprocs": [2], "replications": 20, "machine": {"latency_us": 100, "bandwidth_mbit_s": 80},
            "max_job_steps": limit,
        })
    };
    // About 20 × 2 × 20,000 loop steps: within 10 million, past 100,000.
    let answer = simulate(job(10_000_000));
    assert!(answer["steps"].as_f64().unwrap() > 100_000.0, "{}", answer["steps"]);
    let e = error(job(100_000));
    assert!(e.contains("stopped after") && e.contains("the job would pass its limit of 100000 steps"), "{e}");
    // The same loop with its count known before the start is refused before it: as before.
    let mut known = job(100_000);
    known["skeleton"] = json!("Loop iterations = 20000 {\n Serial time = 1\n}");
    let e = error(known);
    assert!(e.contains("this job would take about"), "{e}");
    assert!(error(job(10)).contains("max_job_steps: expected a whole number from 1000 to 1e12"));
    // Limits written as the help writes them (2e9 is a float in JSON): whole numbers all the same.
    let mut e_notation = job(0);
    e_notation["max_job_steps"] = json!(1e7);
    e_notation["max_steps"] = json!(1e8);
    assert_eq!(simulate(e_notation)["steps"], answer["steps"]);
    for bad in [json!(1e13), json!(1234.5), json!(-1e4)] {
        let mut j = job(0);
        j["max_job_steps"] = bad.clone();
        assert!(error(j).contains("max_job_steps: expected a whole number from 1000 to 1e12"), "{bad}");
    }
}

/// An all-to-all is held by what it holds while it runs, not by its steps written out: 2,000
/// processes run by default (refused before: the programs' 2,000,000 ops counted its
/// 2 (p − 1) steps a process, so about 1,000 was the most), 3,024 are refused before the start
/// with the memory that run would hold, and `max_run_mb` raises the limit.
#[test]
fn an_all_to_all_is_held_to_the_memory_its_run_holds() {
    let job = |n: u32| json!({"skeleton": "Message type = MPI_Alltoall, size = 8", "numprocs": [n], "replications": 1});
    let answer = simulate(job(2000));
    assert_eq!(answer["messages"], json!(2000 * 1999));
    assert_eq!(answer["results"][0]["messages_per_run"], json!(2000.0 * 1999.0));
    let e = error(job(3024));
    assert!(e.contains("numprocs: an all-to-all of 3024 processes holds about 512 MB of messages at once (56 bytes × 3024²), more than the 512 MB a run may hold"), "{e}");
    let mut raised = job(3024);
    raised["max_run_mb"] = json!(600);
    assert_eq!(simulate(raised)["messages"], json!(3024 * 3023));
    // A lower limit refuses what the default lets through.
    let mut lowered = job(1000);
    lowered["max_run_mb"] = json!(50);
    assert!(error(lowered).contains("all-to-all of 1000 processes holds about 56 MB"));
    for bad in [json!(0), json!(0.5), json!(2e6), json!(-1), json!("600")] {
        let mut j = job(10);
        j["max_run_mb"] = bad.clone();
        let e = error(j);
        assert!(e.contains("max_run_mb: expected"), "{bad}: {e}");
    }
}

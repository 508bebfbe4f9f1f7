//! Native timings of the PEVPM simulator (not timed tests; ignored by `cargo test`):
//!     cargo test --release --test bench_simulate -- --ignored --nocapture
//! Prints the median of five runs, on one thread and on every core: simulated message events
//! per second, and the seed's Jacobi study (2–64 nodes × 1–2 processes per node, 1000
//! iterations, 20 replications); and, as whole processes of the release `scalewise simulate`
//! (start-up, reading, the run on every core, the answer written), the all-to-all's messages
//! per second and the time a ring whose loop count is drawn at run time takes to its limit's
//! error.

use std::time::Instant;

// The allocator of the `scalewise` command (src/main.rs), so that these timings are its.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use scalewise::model::simulate::examples::JACOBI;
use scalewise::model::simulate::job::{Job, Limits, Report, Simulation};
use scalewise::model::simulate::lang;
use scalewise::model::simulate::machine::{perseus, Contention, Mode};

fn jacobi(ppn: u32, numprocs: Vec<u32>, replications: u32) -> Job {
    job(JACOBI, "iterations = 1000", ppn, numprocs, replications)
}

/// A job of `skeleton` on the Perseus-like machine, sampled under the contention of the moment.
fn job(skeleton: &str, params: &str, ppn: u32, numprocs: Vec<u32>, replications: u32) -> Job {
    Job {
        skeleton: lang::parse(skeleton).unwrap(),
        params: lang::parse_params("parameters", params).unwrap(),
        numprocs,
        procs_per_node: ppn,
        machine: perseus(),
        mode: Mode::Distribution,
        contention: Contention::Moment,
        replications,
        seed: 1,
        compare: false,
        sequential_s: None,
        limits: Limits::default(),
    }
}

fn run(job: Job) -> Report {
    Simulation::new(job).unwrap().run_to_end().unwrap()
}

fn run_on(job: Job, threads: usize) -> Report {
    scalewise::parallel::run_on(&Simulation::new(job).unwrap(), threads).unwrap()
}

/// What any run of the Jacobi job must show whatever path ran it: no deadlock, one result per
/// process count, in order, each of `ppn` processes per node, with 20 replications timed; and
/// the message events of 1000 iterations in which each process sends a row to each neighbour
/// (2 (P − 1) messages an iteration on P processes), 20 times over.
fn assert_jacobi(r: &Report, ppn: u32, numprocs: &[u32]) {
    assert!(r.deadlock.is_none(), "{:?}", r.deadlock);
    let counts: Vec<(u32, u32)> = r.main.results.iter().map(|c| (c.numprocs, c.nodes)).collect();
    assert_eq!(counts, numprocs.iter().map(|&p| (p, p / ppn)).collect::<Vec<_>>(), "process counts and nodes");
    for c in &r.main.results {
        assert_eq!(c.run_times_s.len(), 20, "{} processes: one time per replication", c.numprocs);
        assert!(
            c.mean_s > 0.0 && c.speedup.is_finite() && c.speedup > 0.0,
            "{} processes: {} s, speed-up {}",
            c.numprocs,
            c.mean_s,
            c.speedup
        );
        assert_eq!(
            c.messages_per_run,
            2000.0 * f64::from(c.numprocs - 1),
            "{} processes: messages per run",
            c.numprocs
        );
    }
    let sent: u64 = numprocs.iter().map(|&p| 20 * 2000 * u64::from(p - 1)).sum();
    assert_eq!(r.messages, sent, "message events");
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

#[test]
#[ignore]
fn bench_simulate() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // The references, untimed: each job run to its end on this thread, without the parallel
    // runner's parts and merge (whose answers are the same to the bit, `scalewise::parallel`).
    let nodes = [2u32, 4, 8, 16, 32, 64];
    let nodes2: Vec<u32> = nodes.iter().map(|n| 2 * n).collect();
    let want64 = run(jacobi(1, vec![64], 20));
    let (want_a, want_b) = (run(jacobi(1, nodes.to_vec(), 20)), run(jacobi(2, nodes2.clone(), 20)));
    assert_jacobi(&want64, 1, &[64]);
    assert_jacobi(&want_a, 1, &nodes);
    assert_jacobi(&want_b, 2, &nodes2);
    for threads in [1, cores] {
        println!("-- {threads} thread(s)");
        // Message events per second: Jacobi on 64 processes, 20 replications.
        let mut rates = Vec::new();
        let mut last = None;
        for _ in 0..5 {
            let t = Instant::now();
            let r = std::hint::black_box(run_on(jacobi(1, vec![64], 20), threads));
            rates.push(r.messages as f64 / t.elapsed().as_secs_f64());
            last = Some(r);
        }
        assert_eq!(last.as_ref(), Some(&want64), "64 processes on {threads} thread(s)");
        println!("message events per second (Jacobi, 64 processes): median {:.1} million", median(rates) / 1e6);

        // The seed's study: 2–64 nodes × 1–2 processes per node.
        let mut times = Vec::new();
        let mut messages = 0;
        let mut last = None;
        for _ in 0..5 {
            let t = Instant::now();
            let a = std::hint::black_box(run_on(jacobi(1, nodes.to_vec(), 20), threads));
            let b = std::hint::black_box(run_on(jacobi(2, nodes2.clone(), 20), threads));
            times.push(t.elapsed().as_secs_f64());
            messages = a.messages + b.messages;
            if times.len() == 1 && threads == 1 {
                for (r, label) in [(&a, "× 1"), (&b, "× 2")] {
                    let s: Vec<String> =
                        r.main.results.iter().map(|c| format!("{}:{:.2}", c.nodes, c.speedup)).collect();
                    println!("speed-up, nodes {label}: {}", s.join(" "));
                }
            }
            last = Some((a, b));
        }
        let (a, b) = last.expect("timed");
        assert_eq!(a, want_a, "nodes × 1 on {threads} thread(s)");
        assert_eq!(b, want_b, "nodes × 2 on {threads} thread(s)");
        println!("Jacobi study ({} message events): median {:.3} s", messages, median(times));
    }
}

/// Issue 47's case: an all-to-all of 8 bytes on 983 to 1,000 processes, one replication each
/// (17.7 M messages), on one thread and on every core: median of five runs, messages per second
/// and ns per message, with the report the same to the bit on every thread count.
#[test]
#[ignore]
fn bench_all_to_all() {
    let all_to_all = || job("Message type = MPI_Alltoall, size = 8", "", 1, (983..=1000).collect(), 1);
    let want = run(all_to_all());
    assert!(want.deadlock.is_none());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for threads in [1, cores] {
        let mut times = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            // The check and compile of every count (Simulation::new) are timed with the run.
            let r = std::hint::black_box(run_on(all_to_all(), threads));
            times.push(t.elapsed().as_secs_f64());
            assert_eq!(r, want, "{threads} thread(s)");
        }
        let s = median(times);
        println!(
            "all-to-all, 983-1000 processes, 1 replication ({} messages), {threads} thread(s): median {s:.3} s, {:.1} M messages/s, {:.1} ns a message",
            want.messages,
            want.messages as f64 / s / 1e6,
            s / want.messages as f64 * 1e9
        );
    }
}

#[test]
#[ignore]
fn bench_by_count() {
    let only: Vec<u32> = std::env::var("ONLY").ok().and_then(|s| s.parse().ok()).into_iter().collect();
    for (ppn, n) in [(1u32, 2u32), (1, 16), (1, 64), (2, 4), (2, 32), (2, 128)] {
        if !only.is_empty() && !only.contains(&n) {
            continue;
        }
        let t = Instant::now();
        let r = std::hint::black_box(run(jacobi(ppn, vec![n], 20)));
        let s = t.elapsed().as_secs_f64();
        // Against the same job on the parallel runner (its parts and merge), untimed.
        assert_jacobi(&r, ppn, &[n]);
        assert_eq!(
            r,
            scalewise::parallel::run(&Simulation::new(jacobi(ppn, vec![n], 20)).unwrap()).unwrap(),
            "{n} procs ({ppn}/node)"
        );
        println!(
            "{n} procs ({ppn}/node): {:.3} s, {:.1} M messages/s, {:.1} M steps/s",
            s,
            r.messages as f64 / s / 1e6,
            r.steps as f64 / s / 1e6
        );
    }
}

/// What a simulation worker does with the page's texts before it runs: `page::prepare` (read,
/// checked, the work estimated), per preset, median of 51 calls.
#[test]
#[ignore]
fn bench_worker_prepare() {
    use scalewise::model::catalog::Catalog;
    use scalewise::model::simulate::page::{parse, prepare, presets};
    let catalog = Catalog::default();
    for p in presets() {
        let mut last = None;
        let us = median(
            (0..51)
                .map(|_| {
                    let t = Instant::now();
                    last = Some(std::hint::black_box(prepare(&p.inputs, &catalog)));
                    t.elapsed().as_secs_f64() * 1e6
                })
                .collect(),
        );
        // The preset read, checked and its work counted, as the page's parser and the
        // simulator's check make them one after the other, untimed.
        let (job, estimate) = last.expect("timed").unwrap_or_else(|e| panic!("preset {}: {e:?}", p.key));
        let want_job = parse(&p.inputs).unwrap_or_else(|e| panic!("preset {}: {e:?}", p.key));
        assert_eq!(format!("{job:?}"), format!("{want_job:?}"), "preset {}: the job", p.key);
        assert_eq!(Ok(estimate.clone()), Simulation::check(&want_job), "preset {}: its work", p.key);
        assert_eq!(estimate.of_counts, job.numprocs.len(), "preset {}: process counts", p.key);
        assert!(
            estimate.counts <= estimate.of_counts && estimate.steps > 0.0 && estimate.steps <= estimate.limit,
            "preset {}: {estimate:?}",
            p.key
        );
        println!("prepare {}: median {us:.0} µs of 51", p.key);
    }
}

/// `scalewise simulate FILE` as a user runs it, a whole process (start-up, reading, checking,
/// the run on every core, the answer written): its wall time in seconds and its answer (or its
/// error, with the exit status).
fn whole_process(file: &str) -> (f64, std::process::Output) {
    let path = format!("{}/tests/data/simulate/{file}", env!("CARGO_MANIFEST_DIR"));
    let t = Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_scalewise"))
        .args(["simulate", "--compact", &path])
        .output()
        .expect("the scalewise command runs");
    (t.elapsed().as_secs_f64(), out)
}

/// Issue 47's all-to-all (tests/data/simulate/alltoall-983-1000.json, 17.7 M messages) as a
/// whole process of the release command: median of seven runs after a warm-up, messages per
/// second (the goal: at least 20 M, 0.9 s).
#[test]
#[ignore]
fn bench_all_to_all_whole_process() {
    let file = "alltoall-983-1000.json";
    let (_, warm) = whole_process(file);
    assert!(warm.status.success(), "{}", String::from_utf8_lossy(&warm.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&warm.stdout).expect("JSON");
    let messages = answer["messages"].as_u64().expect("messages");
    let times: Vec<f64> = (0..7)
        .map(|_| {
            let (s, out) = whole_process(file);
            assert_eq!(out.stdout, warm.stdout, "the same answer every run");
            s
        })
        .collect();
    let s = median(times.clone());
    println!(
        "all-to-all, whole process (scalewise simulate {file}, {messages} messages): median {s:.3} s of 7 ({:.3} to {:.3}), {:.1} M messages/s",
        times.iter().copied().fold(f64::INFINITY, f64::min),
        times.iter().copied().fold(0.0, f64::max),
        messages as f64 / s / 1e6
    );
}

/// Issue 63's ring (1,024 processes, a loop count drawn at run time of 30,000 iterations,
/// 10,000 replications; tests/data/simulate/ring-1024-drawn.json with MPI_Isend, MPI_Irecv and
/// MPI_Wait, ring-1024-drawn-blocking.json with MPI_Send and MPI_Recv, which ran to the job's
/// limit when it counted one step an op) as a whole process: the time until the simulator's
/// limits stop it with its error (the goal: within 25 s; the limits' steps are
/// checked, untimed, by `the_job_limit_counts_steps_at_their_costs`).
#[test]
#[ignore]
fn bench_ring_to_its_limit() {
    for file in ["ring-1024-drawn.json", "ring-1024-drawn-blocking.json"] {
        let times: Vec<f64> = (0..7)
            .map(|_| {
                let (s, out) = whole_process(file);
                let err = String::from_utf8_lossy(&out.stderr);
                assert_eq!(out.status.code(), Some(1), "{err}");
                assert!(err.contains("steps"), "{err}");
                s
            })
            .collect();
        println!(
            "ring of 1024 processes ({file}), loop count drawn at run time, to its error (whole process): median {:.2} s of 7 ({:.2} to {:.2})",
            median(times.clone()),
            times.iter().copied().fold(f64::INFINITY, f64::min),
            times.iter().copied().fold(0.0, f64::max),
        );
    }
}

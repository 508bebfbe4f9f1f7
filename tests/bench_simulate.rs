//! Native timings of the PEVPM simulator (not timed tests; ignored by `cargo test`):
//!     cargo test --release --test bench_simulate -- --ignored --nocapture
//! Prints the median of five runs, on one thread and on every core: simulated message events
//! per second, and the seed's Jacobi study (2–64 nodes × 1–2 processes per node, 1000
//! iterations, 20 replications).

use std::time::Instant;

use scalewise::model::pevpm::examples::JACOBI;
use scalewise::model::pevpm::lang;
use scalewise::model::pevpm::machine::{perseus, Contention, Mode};
use scalewise::model::pevpm::job::{Job, Limits, Report, Simulation};

fn jacobi(ppn: u32, numprocs: Vec<u32>, replications: u32) -> Job {
    Job {
        skeleton: lang::parse(JACOBI).unwrap(),
        params: lang::parse_params("parameters", "iterations = 1000").unwrap(),
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

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

#[test]
#[ignore]
fn bench_simulate() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for threads in [1, cores] {
        println!("-- {threads} thread(s)");
        // Message events per second: Jacobi on 64 processes, 20 replications.
        let mut rates = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            let r = run_on(jacobi(1, vec![64], 20), threads);
            rates.push(r.messages as f64 / t.elapsed().as_secs_f64());
        }
        println!("message events per second (Jacobi, 64 processes): median {:.1} million", median(rates) / 1e6);

        // The seed's study: 2–64 nodes × 1–2 processes per node.
        let nodes = [2u32, 4, 8, 16, 32, 64];
        let mut times = Vec::new();
        let mut messages = 0;
        for _ in 0..5 {
            let t = Instant::now();
            let a = run_on(jacobi(1, nodes.to_vec(), 20), threads);
            let b = run_on(jacobi(2, nodes.iter().map(|n| 2 * n).collect(), 20), threads);
            times.push(t.elapsed().as_secs_f64());
            messages = a.messages + b.messages;
            if times.len() == 1 && threads == 1 {
                for (r, label) in [(&a, "× 1"), (&b, "× 2")] {
                    let s: Vec<String> = r.main.results.iter().map(|c| format!("{}:{:.2}", c.nodes, c.speedup)).collect();
                    println!("speed-up, nodes {label}: {}", s.join(" "));
                }
            }
        }
        println!("Jacobi study ({} message events): median {:.3} s", messages, median(times));
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
        let r = run(jacobi(ppn, vec![n], 20));
        let s = t.elapsed().as_secs_f64();
        println!("{n} procs ({ppn}/node): {:.3} s, {:.1} M messages/s, {:.1} M steps/s", s, r.messages as f64 / s / 1e6, r.steps as f64 / s / 1e6);
    }
}

/// What a simulation worker does with the page's texts before it runs: `page::prepare` (read,
/// checked, the work estimated), per preset, median of 51 calls.
#[test]
#[ignore]
fn bench_worker_prepare() {
    use scalewise::model::pevpm::page::{prepare, presets};
    use scalewise::model::workspace::catalog::Catalog;
    let catalog = Catalog::default();
    for p in presets() {
        let us = median(
            (0..51)
                .map(|_| {
                    let t = Instant::now();
                    std::hint::black_box(prepare(&p.inputs, &catalog).is_ok());
                    t.elapsed().as_secs_f64() * 1e6
                })
                .collect(),
        );
        println!("prepare {}: median {us:.0} µs of 51", p.key);
    }
}

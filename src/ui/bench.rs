//! Benchmarks for the browser, so speed targets are measured there on the same code and
//! input as natively. Each entry's binary exports the ones of its page to
//! `window.wasmBindings` (an export here would link the model into every entry).

use crate::model::sites::gridcast::{benchmark_matrix, clusters as cluster_nodes, DEFAULT_RHO, MAX_NODES};

/// Milliseconds from the page's clock; in a worker (no window), the date's.
pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or_else(js_sys::Date::now)
}

fn median(mut ms: Vec<f64>) -> f64 {
    ms.sort_by(f64::total_cmp);
    ms.get(ms.len() / 2).copied().unwrap_or(-1.0)
}

/// Median milliseconds of `runs` clusterings (ρ = 0.2) of the `n`-node benchmark matrix
/// (`gridcast::benchmark_matrix`, as natively), or -1 when n is 0 or above the page's limit.
/// The matrix is built once, outside the timing.
pub fn clusters(n: u32, runs: u32) -> f64 {
    let n = n as usize;
    if n == 0 || n > MAX_NODES {
        return -1.0;
    }
    let m = benchmark_matrix(n);
    let ms = (0..runs.max(1))
        .map(|_| {
            let t = now_ms();
            let groups = cluster_nodes(&m, DEFAULT_RHO).len();
            let dt = now_ms() - t;
            if groups == 0 {
                f64::NAN
            } else {
                dt
            }
        })
        .collect();
    median(ms)
}

/// Median over `runs` of the 6-point speed-up data sets (`benchmark_datasets`) fitted per
/// second, each run fitting for at least 100 ms: the Downey fit alone, or (`full`) the page's
/// whole analysis (every model, with leave-one-out).
pub fn speedup_fits(full: bool, runs: u32) -> f64 {
    use crate::model::speedup::{benchmark_datasets, benchmark_run, fit_speedups, Model, MODELS};
    let sets: Vec<(Vec<f64>, Vec<f64>)> = benchmark_datasets()
        .iter()
        .map(|d| (d.iter().map(|p| p.n).collect(), d.iter().map(|p| p.value).collect()))
        .collect();
    let mut rates: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let t = now_ms();
            let mut done = 0usize;
            while now_ms() - t < 100.0 {
                done += if full {
                    benchmark_run(&MODELS)
                } else {
                    sets.iter().filter(|(n, s)| fit_speedups(Model::Downey, n, s).is_some()).count()
                };
            }
            done as f64 * 1000.0 / (now_ms() - t)
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}

/// Milliseconds to run the Jacobi study of issue 7 on the calling thread: the Jacobi example
/// on the Perseus-like machine, 2–64 nodes with 1 and with 2 processes per node, 1,000
/// iterations, 20 replications, distribution mode; -1 if a job does not prepare or run.
pub fn jacobi_study() -> f64 {
    use crate::model::simulate::job::Simulation;
    use crate::model::simulate::page::{default_inputs, prepare, Field};
    use crate::model::workspace::PageField;
    let t = now_ms();
    for (ppn, counts) in [("1", "2 4 8 16 32 64"), ("2", "4 8 16 32 64 128")] {
        let mut inputs = default_inputs();
        for (f, v) in [
            (Field::Numprocs, counts),
            (Field::ProcsPerNode, ppn),
            (Field::Params, "xsize = 256\niterations = 1000"),
            (Field::Compare, ""),
            (Field::Replications, "20"),
            (Field::Mode, "distribution"),
        ] {
            inputs.insert(f.key().into(), v.into());
        }
        let Ok((job, _)) = prepare(&inputs, &crate::model::catalog::presets()) else { return -1.0 };
        if Simulation::new(job).and_then(|s| s.run_to_end()).is_err() {
            return -1.0;
        }
    }
    now_ms() - t
}

//! Speed-up fitting benchmark: fits per second for 6-point data sets, natively (the browser
//! runs the same `benchmark_datasets`). Ignored in the normal test run; run with
//! `cargo test --release --test bench_speedup -- --ignored --nocapture`.

mod common;

use scalewise::model::speedup::{analyse, benchmark_datasets, fit_speedups, Measure, Model, Options, MODELS};

/// Median of `runs` timings of `work`, each repeated until it takes ≥ 50 ms; per call in µs.
fn median_us(runs: usize, work: &dyn Fn() -> usize) -> f64 {
    let mut per_call: Vec<f64> = (0..runs)
        .map(|_| {
            let t = std::time::Instant::now();
            let mut calls = 0;
            while t.elapsed().as_secs_f64() < 0.05 {
                calls += std::hint::black_box(work());
            }
            t.elapsed().as_secs_f64() * 1e6 / calls as f64
        })
        .collect();
    per_call.sort_by(f64::total_cmp);
    per_call[runs / 2]
}

#[test]
#[ignore]
fn bench_fits_per_second() {
    let sets = benchmark_datasets();
    let xy: Vec<(Vec<f64>, Vec<f64>)> = sets.iter().map(|d| (d.iter().map(|p| p.n).collect(), d.iter().map(|p| p.value).collect())).collect();
    let analysis = |models: &[Model], loo: bool| {
        let opts = Options { models: models.to_vec(), targets: vec![128, 256], leave_one_out: loo, ..Options::default() };
        sets.iter().filter(|d| analyse("points", d, Measure::Speedup, &opts).is_ok()).count()
    };
    let rows: [(&str, &dyn Fn() -> usize); 5] = [
        ("Downey fit alone (8 LM starts and the ridge search)", &|| xy.iter().filter(|(n, s)| fit_speedups(Model::Downey, n, s).is_some()).count()),
        ("all five model fits (LM only)", &|| xy.iter().filter(|(n, s)| MODELS.iter().all(|m| fit_speedups(*m, n, s).is_some())).count()),
        ("full analysis, Downey only, with leave-one-out", &|| analysis(&[Model::Downey], true)),
        ("full analysis, all five models, without leave-one-out", &|| analysis(&MODELS, false)),
        ("full analysis, all five models, with leave-one-out (the page)", &|| analysis(&MODELS, true)),
    ];
    for m in MODELS {
        let us = median_us(11, &|| xy.iter().filter(|(n, s)| fit_speedups(m, n, s).is_some()).count());
        println!("speedup bench, 6-point data sets, {} fit alone: median {us:.1} µs per data set (native, 11 runs)", m.label());
    }
    for (label, work) in rows {
        let us = median_us(11, work);
        println!("speedup bench, 6-point data sets, {label}: median {us:.1} µs per data set, {:.0} per second (native, 11 runs)", 1e6 / us);
    }
}


#[test]
#[ignore]
fn bench_extrap_regions_per_second() {
    use scalewise::model::extrap::{finish, fit_regions, parse, plan, RankOptions, MAX_REGIONS};
    let e = parse(&common::extrap_experiment(MAX_REGIONS)).unwrap();
    let opts = RankOptions { targets: vec![256, 1024], ..RankOptions::default() };
    let p = plan(&e, &opts).unwrap();
    let mut ms: Vec<f64> = (0..3)
        .map(|_| {
            let t = std::time::Instant::now();
            let fits = fit_regions(&p, 0..p.len());
            std::hint::black_box(finish(p.clone(), fits).unwrap());
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    let med = ms[1];
    println!("extrap bench, {} regions × 6 process counts: median {med:.0} ms, {:.0} regions per second (native, one thread, 3 runs)", p.len(), p.len() as f64 * 1e3 / med);
}

/// Reading the points table as a keystroke does (`page::parse_points`, second column guessed):
/// a pasted table of 2,000 rows, with and without a header.
#[test]
#[ignore]
fn bench_points_table_reading() {
    use scalewise::model::speedup::page::parse_points;
    let rows: String = (1..=2000).map(|n| format!("{n}\t{:.6}\n", 1000.0 / f64::from(n) + 3.0)).collect();
    for (name, text) in [("header-less", rows.clone()), ("with a header", format!("n\ttime (s)\n{rows}"))] {
        let us = median_us(15, &|| parse_points(&text, None).map_or(0, |t| t.raw.len().min(1)));
        println!("points table of 2,000 rows, {name}: {us:.0} µs per reading (median of 15)");
    }
}

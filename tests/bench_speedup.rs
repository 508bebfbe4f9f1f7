//! Speed-up fitting benchmark: fits per second for 6-point data sets, natively (the browser
//! runs the same `benchmark_datasets`). Ignored in the normal test run; run with
//! `cargo test --release --test bench_speedup -- --ignored --nocapture`.

mod common;

use scalewise::model::speedup::{
    analyse, benchmark_datasets, downey, fit_speedups, smirni, Analysis, Measure, Model, Options, MODELS,
};

/// Median of `runs` timings of `work` (which handles `items` data sets), each repeated until it
/// takes ≥ 50 ms; per data set in µs; with what the last call returned.
fn median_us<R>(runs: usize, items: usize, work: &dyn Fn() -> R) -> (f64, R) {
    let mut last = None;
    let mut per_call: Vec<f64> = (0..runs)
        .map(|_| {
            let t = std::time::Instant::now();
            let mut calls = 0;
            while t.elapsed().as_secs_f64() < 0.05 {
                last = Some(std::hint::black_box(work()));
                calls += items;
            }
            t.elapsed().as_secs_f64() * 1e6 / calls as f64
        })
        .collect();
    per_call.sort_by(f64::total_cmp);
    (per_call[runs / 2], last.expect("at least one call"))
}

type Xy = (Vec<f64>, Vec<f64>);
type FitOut = Option<(Vec<f64>, f64)>;

/// The curves `benchmark_datasets` draws data sets 1 to 5 from (±1.5 % wobble on top), by the
/// model that has that shape and its parameters (set 0 is measured data, Example 5.1).
fn generating_params(set: usize, m: Model) -> Option<Vec<f64>> {
    match (set, m) {
        (1, Model::Downey) => Some(vec![40.0, 0.3]),
        (2, Model::Downey) => Some(vec![25.0, 1.8]),
        (4, Model::Usl) => Some(vec![0.03, 0.0005]),
        (5, Model::Smirni) => Some(vec![0.97]),
        _ => None,
    }
}

/// Model `m`'s fits of every data set against the data: one per set, each with its squared
/// error Σ (s − S(n))² recomputed from its parameters, no worse than the curve the set was drawn
/// from, and the same as fitting that set alone, untimed.
fn assert_fits(m: Model, xy: &[Xy], fits: &[FitOut]) {
    assert_eq!(fits.len(), xy.len(), "{}: one fit per data set", m.label());
    for (i, ((n, s), fit)) in xy.iter().zip(fits).enumerate() {
        let (p, sse) = fit.as_ref().unwrap_or_else(|| panic!("{}: data set {i} not fitted", m.label()));
        let sse_of = |p: &[f64]| n.iter().zip(s).map(|(&n, &s)| (s - m.speedup(p, n)).powi(2)).sum::<f64>();
        assert!(
            (sse - sse_of(p)).abs() <= 1e-9 * (1.0 + sse),
            "{}: data set {i}: sse {sse} but the parameters give {}",
            m.label(),
            sse_of(p)
        );
        if let Some(truth) = generating_params(i, m) {
            assert!(
                *sse <= sse_of(&truth) * (1.0 + 1e-9),
                "{}: data set {i}: sse {sse} above the generating curve's {}",
                m.label(),
                sse_of(&truth)
            );
        }
        assert_eq!(fit, &fit_speedups(m, n, s), "{}: data set {i}", m.label());
    }
}

#[test]
#[ignore]
fn bench_fits_per_second() {
    let sets = benchmark_datasets();
    let xy: Vec<Xy> =
        sets.iter().map(|d| (d.iter().map(|p| p.n).collect(), d.iter().map(|p| p.value).collect())).collect();
    // The generating curves are what `benchmark_datasets` says (checked without the wobble's
    // zero at set c, point i where (7i + 3c) % 5 == 2).
    for (c, i) in [(1, 2), (2, 3), (4, 0), (5, 1)] {
        let n = xy[c].0[i];
        let want = [
            0.0,
            downey(40.0, 0.3, n),
            downey(25.0, 1.8, n),
            0.0,
            n / (1.0 + 0.03 * (n - 1.0) + 0.0005 * n * (n - 1.0)),
            smirni(0.97, n),
        ][c];
        let m = [Model::Downey, Model::Downey, Model::Downey, Model::Downey, Model::Usl, Model::Smirni][c];
        assert!(
            (xy[c].1[i] - want).abs() <= 1e-12 * want
                && (m.speedup(&generating_params(c, m).unwrap(), n) - want).abs() <= 1e-9 * want,
            "set {c}"
        );
    }
    let analysis = |models: &[Model], loo: bool| -> Vec<Option<Analysis>> {
        let opts =
            Options { models: models.to_vec(), targets: vec![128, 256], leave_one_out: loo, ..Options::default() };
        sets.iter().map(|d| analyse("points", d, Measure::Speedup, &opts).ok()).collect()
    };
    // Each analysis: every data set analysed, each of the models fitted or said why not, and
    // the same as analysing the sets again, untimed.
    let check_analyses = |label: &str, models: &[Model], loo: bool, got: Vec<Option<Analysis>>| {
        assert_eq!(got.len(), sets.len(), "{label}: one analysis per data set");
        for (i, a) in got.iter().enumerate() {
            let a = a.as_ref().unwrap_or_else(|| panic!("{label}: data set {i} not analysed"));
            assert_eq!(a.fits.len() + a.skipped.len(), models.len(), "{label}: data set {i}: models");
            assert!(a.fits.iter().all(|f| models.contains(&f.model) && f.points == 6), "{label}: data set {i}");
        }
        assert_eq!(got, analysis(models, loo), "{label}");
    };
    for m in MODELS {
        let (us, fits) = median_us(11, xy.len(), &|| xy.iter().map(|(n, s)| fit_speedups(m, n, s)).collect::<Vec<_>>());
        assert_fits(m, &xy, &fits);
        println!(
            "speedup bench, 6-point data sets, {} fit alone: median {us:.1} µs per data set (native, 11 runs)",
            m.label()
        );
    }
    let row = |label: &str, us: f64| {
        println!("speedup bench, 6-point data sets, {label}: median {us:.1} µs per data set, {:.0} per second (native, 11 runs)", 1e6 / us);
    };
    let (us, fits) =
        median_us(11, xy.len(), &|| xy.iter().map(|(n, s)| fit_speedups(Model::Downey, n, s)).collect::<Vec<_>>());
    assert_fits(Model::Downey, &xy, &fits);
    row("Downey fit alone (8 LM starts and the ridge search)", us);
    let (us, fits) =
        median_us(11, xy.len(), &|| MODELS.map(|m| xy.iter().map(|(n, s)| fit_speedups(m, n, s)).collect::<Vec<_>>()));
    for (m, f) in MODELS.iter().zip(&fits) {
        assert_fits(*m, &xy, f);
    }
    row("all five model fits (LM only)", us);
    for (label, models, loo) in [
        ("full analysis, Downey only, with leave-one-out", &[Model::Downey][..], true),
        ("full analysis, all five models, without leave-one-out", &MODELS[..], false),
        ("full analysis, all five models, with leave-one-out (the page)", &MODELS[..], true),
    ] {
        let (us, got) = median_us(11, sets.len(), &|| analysis(models, loo));
        check_analyses(label, models, loo, got);
        row(label, us);
    }
}

#[test]
#[ignore]
fn bench_extrap_regions_per_second() {
    use scalewise::model::bottlenecks::{finish, fit_regions, parse, plan, rank, RankOptions, MAX_REGIONS};
    const WORST_FIT: f64 = 0.02; // the worst region is 1.1 % off
    let e = parse(&common::extrap_experiment(MAX_REGIONS)).unwrap();
    let opts = RankOptions { targets: vec![256, 1024], ..RankOptions::default() };
    let p = plan(&e, &opts).unwrap();
    let mut last = None;
    let mut ms: Vec<f64> = (0..3)
        .map(|_| {
            let t = std::time::Instant::now();
            let fits = fit_regions(&p, 0..p.len());
            last = Some(std::hint::black_box(finish(p.clone(), fits).unwrap()));
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    // Every region modelled, with a prediction at each target, and close to the curve its
    // points were drawn from (`common::extrap_experiment`: a/p + b + c·log₂ p, repetitions
    // 0.99, 1 and 1.02 times it) at the measured counts; and the same ranking as `rank` makes
    // in one call, untimed.
    let got = last.expect("timed");
    assert_eq!(got.regions.len(), MAX_REGIONS, "one fit per region");
    let mut worst: f64 = 0.0;
    for f in &got.regions {
        let r: usize = f.callpath.trim_start_matches('r').parse().unwrap_or_else(|_| panic!("region {}", f.callpath));
        let (a, b, c) = (1.0 + (r % 7) as f64, 0.01 * (r % 5) as f64, 0.001 * (r % 3) as f64);
        assert!(f.error.is_none() && f.predictions.len() == 2, "{}: {:?}", f.callpath, f.error);
        let model = f.model.as_ref().unwrap_or_else(|| panic!("{}: no model", f.callpath));
        for q in [2.0f64, 4.0, 8.0, 16.0, 32.0, 64.0] {
            let t = a / q + b + c * q.log2();
            worst = worst.max((model.form.eval(q) / t - 1.0).abs());
        }
    }
    assert!(worst < WORST_FIT, "a region's model is {:.1} % off the curve its points were drawn from", worst * 100.0);
    assert_eq!(got, rank(&e, &opts).unwrap(), "the same ranking as `rank`");
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
        let (us, table) = median_us(15, 1, &|| parse_points(&text, None));
        // Every row read, each n and value as written (the value to six decimals).
        let table = table.expect("the table reads");
        assert_eq!(
            (table.raw.len(), table.had_header, table.measure),
            (2000, name == "with a header", Measure::TimeS),
            "{name}"
        );
        for (k, p) in table.raw.iter().enumerate() {
            let n = (k + 1) as f64;
            assert_eq!(
                (p.n, p.value),
                (n, format!("{:.6}", 1000.0 / n + 3.0).parse::<f64>().unwrap()),
                "{name}: row {}",
                k + 1
            );
        }
        println!("points table of 2,000 rows, {name}: {us:.0} µs per reading (median of 15)");
    }
}

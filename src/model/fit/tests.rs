use super::analysis::{aicc, fit_model};
use super::models::{gradient, shape, shared, value, value_grad, Space};
use super::*;

#[test]
fn too_many_points_are_refused_not_fitted() {
    let raw: Vec<RawPoint> = (1..=MAX_POINTS + 1)
        .map(|n| RawPoint { n: n as f64, value: 1.0, weight: None, nodes: None, line: None })
        .collect();
    let e = analyse("points", &raw, Measure::Speedup, &Options::default()).expect_err("too many");
    assert!(e.message.contains("more than the 500"), "{e}");
    let ok = analyse("points", &raw[..MAX_POINTS], Measure::Speedup, &Options::default()).expect("fits");
    assert!(
        ok.warnings
            .iter()
            .any(|w| w.path == "points" && w.message.contains("leave-one-out errors are not computed above 16")),
        "{:?}",
        ok.warnings
    );
    assert!(ok.fits.iter().all(|f| f.loo.is_none()));
}

fn pts(ns: &[f64], ys: &[f64]) -> Vec<RawPoint> {
    ns.iter().zip(ys).map(|(&n, &value)| RawPoint { n, value, weight: None, nodes: None, line: None }).collect()
}

fn run(ns: &[f64], ys: &[f64], measure: Measure) -> Analysis {
    analyse("points", &pts(ns, ys), measure, &Options { targets: vec![128], ..Options::default() }).expect("valid")
}

const EX_N: [f64; 6] = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
const EX_S: [f64; 6] = [2.00, 3.92, 7.25, 13.29, 20.23, 24.95];

#[test]
fn example_5_1_beats_the_thesis() {
    let a = run(&EX_N, &EX_S, Measure::Speedup);
    let d = a.fit(Model::Downey).expect("downey fits");
    // The thesis's A = 24.70, σ = 0.74 reproduce its prediction row and SSE ≈ 0.407.
    let thesis_row = [1.97, 3.83, 7.24, 13.07, 20.77, 24.70];
    for (n, want) in EX_N.iter().zip(thesis_row) {
        assert!((downey(24.70, 0.74, *n) - want).abs() < 0.01, "n = {n}");
    }
    let sse_thesis: f64 = EX_N.iter().zip(&EX_S).map(|(n, s)| (s - downey(24.70, 0.74, *n)).powi(2)).sum();
    assert!((sse_thesis - 0.4067).abs() < 1e-3, "thesis SSE {sse_thesis}");
    // Independent brute force (a 0.01 grid over A 20–40, σ 0–3, then a 0.0002 grid around
    // the best cell, in Python): SSE 0.29394 at A = 24.8706, σ = 0.8056.
    assert!(d.sse < 0.29395 && d.sse > 0.2938, "SSE {}", d.sse);
    assert!(
        (d.params[0].value - 24.870).abs() < 0.002 && (d.params[1].value - 0.8056).abs() < 0.0005,
        "{:?}",
        d.params
    );
    assert!(d.termination.was_successful() && d.params.iter().all(|p| p.std_err.is_some_and(|e| e > 0.0)));
    // Every model fitted, a best one with its reason.
    assert_eq!(a.fits.len(), MODELS.len());
    assert!(a.best.is_some() && a.best_reason.contains("AICc"), "{}", a.best_reason);
    assert!(!a.advice.is_empty() && a.advice_text.contains("n = "), "{}", a.advice_text);
}

/// Brute force over a 2-D box: a 120×120 grid, then four zooms of 41×41 around the best
/// cell. Independent of the solver: it only evaluates the SSE.
fn grid2(sse: &dyn Fn(f64, f64) -> f64, a: (f64, f64), b: (f64, f64)) -> f64 {
    // One scan of a box: returns (best SSE, its a, its b).
    let scan = |lo_a: f64, hi_a: f64, lo_b: f64, hi_b: f64, steps: usize, best: (f64, f64, f64)| {
        let mut best = best;
        for i in 0..=steps {
            for j in 0..=steps {
                let x = lo_a + (hi_a - lo_a) * i as f64 / steps as f64;
                let y = lo_b + (hi_b - lo_b) * j as f64 / steps as f64;
                let e = sse(x, y);
                if e < best.0 {
                    best = (e, x, y);
                }
            }
        }
        best
    };
    let mut best = scan(a.0, a.1, b.0, b.1, 120, (f64::INFINITY, a.0, b.0));
    let (mut wa, mut wb) = ((a.1 - a.0) / 120.0, (b.1 - b.0) / 120.0);
    for _ in 0..4 {
        let (ca, cb) = (best.1, best.2);
        best = scan(
            (ca - 2.0 * wa).max(a.0),
            (ca + 2.0 * wa).min(a.1),
            (cb - 2.0 * wb).max(b.0),
            (cb + 2.0 * wb).min(b.1),
            40,
            best,
        );
        wa /= 10.0;
        wb /= 10.0;
    }
    best.0
}

/// The SSE of a shape S(n) fitted to speed-ups, or to times with T1 profiled out
/// (T1 = Σ y u / Σ u² with u = 1/S, the exact optimum for fixed shape).
fn sse_of(space: Space, ns: &[f64], ys: &[f64], s: &dyn Fn(f64) -> f64) -> f64 {
    match space {
        Space::Speedup => ns.iter().zip(ys).map(|(n, y)| (y - s(*n)).powi(2)).sum(),
        Space::Time => {
            let u: Vec<f64> = ns.iter().map(|n| 1.0 / s(*n)).collect();
            let t1 = ys.iter().zip(&u).map(|(y, u)| y * u).sum::<f64>() / u.iter().map(|u| u * u).sum::<f64>();
            ys.iter().zip(&u).map(|(y, u)| (y - t1 * u).powi(2)).sum()
        }
    }
}

fn brute_force(model: Model, space: Space, ns: &[f64], ys: &[f64]) -> f64 {
    let smax = match space {
        Space::Speedup => ys.iter().copied().fold(1.0, f64::max),
        Space::Time => 200.0,
    };
    let f = |s: &dyn Fn(f64) -> f64| sse_of(space, ns, ys, s);
    match model {
        Model::Downey => grid2(&|a, sg| f(&|n| downey(a, sg, n)), (1.0, 4.0 * smax), (0.0, 12.0)),
        Model::Usl => grid2(&|sg, k| f(&|n| n / (1.0 + sg * (n - 1.0) + k * n * (n - 1.0))), (0.0, 0.5), (0.0, 0.01)),
        // β on a log scale 1e-3 … 1e6.
        Model::Chiang => {
            grid2(&|lb, _| f(&|n| (1.0 + 10f64.powf(lb)) * n / (n + 10f64.powf(lb))), (-3.0, 6.0), (0.0, 0.0))
        }
        // r = 1 − 10^x covers r near 1 finely, plus r in [0, 0.9] linearly.
        Model::Smirni => grid2(&|x, _| f(&|n| smirni(1.0 - 10f64.powf(x), n)), (-8.0, 0.0), (0.0, 0.0)).min(grid2(
            &|r, _| f(&|n| smirni(r, n)),
            (0.0, 0.999),
            (0.0, 0.0),
        )),
        Model::Amdahl => match space {
            Space::Speedup => {
                let g = |c1: f64, c2: f64| f(&|n| 1.0 / (c1 + c2 / n));
                grid2(&g, (0.0, 0.5), (0.0, 1.5)).min(grid2(&g, (0.0, 0.1), (0.5, 1.5)))
            }
            // Times: T = c1 + c2/n, both in seconds.
            Space::Time => {
                let t = ys.iter().copied().fold(0.0, f64::max) * ns[0];
                grid2(
                    &|c1, c2| ns.iter().zip(ys).map(|(n, y)| (y - c1 - c2 / n).powi(2)).sum(),
                    (0.0, t / 4.0),
                    (0.0, 2.0 * t),
                )
            }
        },
    }
}

#[test]
fn every_fit_matches_a_brute_force_search() {
    let mut sets: Vec<(Space, Vec<f64>, Vec<f64>)> = vec![(Space::Speedup, EX_N.to_vec(), EX_S.to_vec())];
    for d in benchmark_datasets() {
        sets.push((Space::Speedup, d.iter().map(|p| p.n).collect(), d.iter().map(|p| p.value).collect()));
    }
    // Times without an n = 1 run: T1 = 1000 s with Downey A = 30, σ = 1.4 and a wobble.
    let ns = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0];
    let ts: Vec<f64> = ns
        .iter()
        .enumerate()
        .map(|(i, n)| 1000.0 / downey(30.0, 1.4, *n) * (1.0 + 0.01 * ((i % 3) as f64 - 1.0)))
        .collect();
    sets.push((Space::Time, ns.to_vec(), ts));
    for (space, ns, ys) in &sets {
        let ws = vec![1.0; ns.len()];
        for model in MODELS {
            let fit = fit_model(model, *space, ns, ys, &ws, None, false).expect("fits");
            let bf = brute_force(model, *space, ns, ys);
            assert!(
                fit.sse <= bf * (1.0 + 1e-6) + 1e-12,
                "{model:?} {space:?} on {ys:?}: LM {} > brute force {bf} at {:?}",
                fit.sse,
                fit.params
            );
            // And the brute force is no fluke: it comes close to the solver's optimum.
            assert!(
                bf <= fit.sse * 1.05 + 1e-9,
                "{model:?}: brute force {bf} far above LM {} at {:?}",
                fit.sse,
                fit.params
            );
        }
    }
}

#[test]
fn times_without_n1_fit_t1() {
    // Exact Amdahl times, T(n) = 20 + 980/n seconds: T1 = 1000 s, linear least squares exact.
    let ns = [2.0, 4.0, 8.0, 16.0, 32.0];
    let ts: Vec<f64> = ns.iter().map(|n| 20.0 + 980.0 / n).collect();
    let a = run(&ns, &ts, Measure::TimeS);
    assert_eq!(a.space, Space::Time);
    let am = a.fit(Model::Amdahl).expect("amdahl");
    assert!((am.params[0].value - 20.0).abs() < 1e-6 && (am.params[1].value - 980.0).abs() < 1e-5, "{:?}", am.params);
    assert!((am.t1_s().unwrap_or(0.0) - 1000.0).abs() < 1e-5);
    // Chiang is Amdahl with S(1) = 1: β = c2/c1 = 49, T1 = 1000.
    let ch = a.fit(Model::Chiang).expect("chiang");
    assert!((ch.params[0].value - 49.0).abs() < 1e-3 && (ch.params[1].value - 1000.0).abs() < 1e-2, "{:?}", ch.params);
    assert_eq!(ch.params[1].name, "T1");
    let p = &am.predictions[0];
    let (t, lo, hi) = p.time_s.expect("times given");
    assert!((t - (20.0 + 980.0 / 128.0)).abs() < 1e-6 && lo <= t && t <= hi);
    assert!((p.speedup - 1000.0 / t).abs() < 1e-6);
    assert!(a.warnings.iter().any(|w| w.path == "points" && w.message.contains("no run at n = 1")), "{:?}", a.warnings);
    // Karp–Flatt of exact Amdahl data is the serial fraction 0.02 at every n.
    for pt in &a.points {
        let kf = pt.karp_flatt.expect("n > 1");
        assert!((kf - 0.02).abs() < 1e-6, "n = {}: {kf}", pt.n);
    }
}

#[test]
fn times_with_n1_become_speedups() {
    let ns = [1.0, 2.0, 4.0, 8.0];
    let ts = [100.0, 50.0, 25.0, 12.5];
    let a = run(&ns, &ts, Measure::TimeS);
    assert_eq!((a.space, a.t1_measured), (Space::Speedup, Some(100.0)));
    let s: Vec<f64> = a.points.iter().filter_map(|p| p.speedup).collect();
    assert_eq!(s, vec![1.0, 2.0, 4.0, 8.0]);
    let f = a.best_fit().expect("a best fit");
    let (t, _, _) = f.predictions[0].time_s.expect("times");
    assert!((t - 100.0 / f.predictions[0].speedup).abs() < 1e-9);
}

#[test]
fn bad_points_name_the_row() {
    let cases: &[(f64, f64, Option<f64>, &str, &str)] = &[
        (0.0, 1.0, None, "points[1].n", "whole number"),
        (-4.0, 1.0, None, "points[1].n", "whole number"),
        (2.5, 1.0, None, "points[1].n", "whole number"),
        (4.0, 0.0, None, "points[1].time_s", "greater than 0"),
        (4.0, -3.0, None, "points[1].time_s", "greater than 0"),
        (4.0, 3.0, Some(0.0), "points[1].weight", "greater than 0"),
    ];
    for (n, v, w, field, msg) in cases {
        let raw = [
            RawPoint { n: 2.0, value: 5.0, weight: None, nodes: None, line: None },
            RawPoint { n: *n, value: *v, weight: *w, nodes: None, line: None },
        ];
        let e = analyse("points", &raw, Measure::TimeS, &Options::default()).expect_err("bad input");
        assert_eq!(e.field, *field, "{e}");
        assert!(e.message.contains(msg), "{e}");
    }
    let raw = [RawPoint { n: 2.5, value: 5.0, weight: None, nodes: None, line: Some(3) }];
    let e = analyse("points", &raw, Measure::Speedup, &Options::default()).expect_err("bad n");
    assert_eq!((e.field.as_str(), e.line, e.column), ("points", Some(3), Some(1)));
    assert!(analyse("points", &[], Measure::Speedup, &Options::default()).is_err());
}

#[test]
fn duplicates_are_averaged_and_said() {
    let raw = [
        RawPoint { n: 2.0, value: 1.9, weight: None, nodes: None, line: None },
        RawPoint { n: 4.0, value: 3.0, weight: None, nodes: None, line: None },
        RawPoint { n: 2.0, value: 2.1, weight: Some(3.0), nodes: None, line: None },
        RawPoint { n: 8.0, value: 5.0, weight: None, nodes: None, line: None },
    ];
    let a = analyse("points", &raw, Measure::Speedup, &Options::default()).expect("valid");
    let p2 = &a.points[0];
    // Weighted mean (1.9·1 + 2.1·3)/4 = 2.05, weights added.
    assert_eq!((p2.n, p2.merged_rows, p2.weight), (2, 2, 4.0));
    assert!((p2.value - 2.05).abs() < 1e-12);
    assert!(
        a.warnings.iter().any(|w| w.path == "points"
            && w.message.contains("n = 2 is given 2 times with different")
            && w.message.contains("2.05")),
        "{:?}",
        a.warnings
    );
    assert_eq!(a.points.len(), 3);
}

#[test]
fn one_point_is_refused_and_few_points_say_why() {
    // One count cannot tell how a program scales (issue 33: the forecast said 128 at 128
    // processes, range 50–806, from one run).
    let one = RawPoint { n: 1.0, value: 100.0, weight: None, nodes: None, line: Some(2) };
    let e = analyse("points", &[one], Measure::TimeS, &Options::default()).expect_err("refused");
    assert!(
        e.message.contains(
            "one process count (n = 1) cannot tell how the program scales: measure at a second count, e.g. n = 2"
        ),
        "{e}"
    );
    assert_eq!(e.line, Some(2));
    // Repeated runs at one count are still one count.
    let twice = pts(&[4.0, 4.0], &[3.5, 3.6]);
    assert!(analyse("points", &twice, Measure::Speedup, &Options::default()).is_err());
    // As many points as parameters: fitted; the standard error assumes the corpus's run-to-run
    // noise, and says so; the prediction still has its range.
    let a = run(&[4.0, 8.0], &[3.5, 6.1], Measure::Speedup);
    let f = a.fits.iter().find(|f| f.model == Model::Downey).expect("downey fitted");
    assert!(f.params[0].std_err.is_some_and(|e| e > 0.0), "{:?}", f.params);
    assert!(f.notes.iter().any(|n| n.contains("run-to-run noise measured on the corpus")), "{:?}", f.notes);
    let p = &f.predictions[0];
    assert!(p.speedup_low < p.speedup && p.speedup < p.speedup_high, "{p:?}");
    assert!(a.best_reason.contains("so few points cannot tell the models apart"), "{}", a.best_reason);
}

/// "a, b and c" of the models' labels' first words, made at run time.
fn and_list<'a>(models: impl Iterator<Item = &'a Model>) -> String {
    let words: Vec<&str> = models.map(|m| m.label().split(['/', ' ']).next().unwrap_or("")).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.concat(),
    }
}

#[test]
fn the_lists_made_when_compiling_are_the_lists_made_at_run_time() {
    use super::models::{CANNOT_FALL, CAN_FALL, RIVALS};
    assert_eq!(CANNOT_FALL, and_list(MODELS.iter().filter(|m| !m.can_decline())));
    assert_eq!(CAN_FALL, and_list(MODELS.iter().filter(|m| m.can_decline())));
    assert_eq!(RIVALS, and_list(MODELS.iter().skip(1)));
}

#[test]
fn past_peak_points_are_flagged_left_out_and_can_come_back() {
    let ns = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
    let ss = [1.0, 1.95, 3.7, 6.6, 9.8, 9.1, 6.2];
    let a = run(&ns, &ss, Measure::Speedup);
    let flagged: Vec<u32> = a.points.iter().filter(|p| p.past_peak).map(|p| p.n).collect();
    assert_eq!(flagged, vec![32, 64]);
    assert_eq!(a.fit(Model::Downey).map(|f| f.points), Some(5));
    let usl = a.fit(Model::Usl).expect("usl");
    assert_eq!(usl.points, 7);
    assert!(!usl.ranked && a.best != Some(Model::Usl));
    // The sentence names the families that cannot fall and those that can, as the list has them.
    let named = |fall: bool| and_list(MODELS.iter().filter(|m| m.can_decline() == fall));
    let said = |a: &Analysis, text: &str| a.warnings.iter().any(|w| w.path == "points" && w.message.contains(text));
    let (cannot, can) = (named(false), named(true));
    assert!(said(&a, &format!("n = 32, 64 lie past the speed-up peak at n = 16: left out of the {cannot} fits (which cannot fall); {can} fits every point")));
    let opts = Options { include_past_peak: true, ..Options::default() };
    let b = analyse("points", &pts(&ns, &ss), Measure::Speedup, &opts).expect("valid");
    assert_eq!(b.fit(Model::Downey).map(|f| f.points), Some(7));
    assert!(b.fits.iter().all(|f| f.ranked));
    assert!(said(&b, &format!("they are included in every fit as asked, though only {can} can follow a decline")));
    // Only USL follows the decline, and with every point in, it is the best.
    assert_eq!(b.best, Some(Model::Usl), "{}", b.best_reason);
}

#[test]
fn super_linear_points_are_kept_and_flagged() {
    let a = run(&[2.0, 4.0, 8.0, 16.0], &[2.1, 4.3, 7.5, 12.0], Measure::Speedup);
    let flagged: Vec<u32> = a.points.iter().filter(|p| p.super_linear).map(|p| p.n).collect();
    assert_eq!(flagged, vec![2, 4]);
    assert!(a.warnings.iter().any(|w| w.path == "points" && w.message.contains("super-linear")));
    assert!(a.points[0].efficiency.is_some_and(|e| (e - 1.05).abs() < 1e-12));
}

#[test]
fn aicc_by_hand() {
    // m = 6, k = 2 → K = 3: 6·ln(0.6/6) + 6 + 2·3·4/(6 − 3 − 1) = −13.8155 + 6 + 12.
    let v = aicc(0.6, &[1.0; 6], &[1.0; 6], 2).expect("enough points");
    assert!((v - (6.0 * (0.1f64).ln() + 18.0)).abs() < 1e-12, "{v}");
    assert_eq!(aicc(0.6, &[1.0; 4], &[1.0; 4], 2), None);
}

#[test]
fn leave_one_out_of_exact_data_is_zero() {
    let ns = [2.0, 4.0, 8.0, 16.0, 32.0];
    let ss: Vec<f64> = ns.iter().map(|n| 1.0 / (0.05 + 0.95 / n)).collect();
    let a = run(&ns, &ss, Measure::Speedup);
    let am = a.fit(Model::Amdahl).expect("amdahl");
    assert!(am.loo.is_some_and(|l| l < 1e-6), "{:?}", am.loo);
    assert!(am.sse < 1e-12);
}

#[test]
fn band_contains_the_curve_and_widens_away_from_data() {
    let a = run(&EX_N, &EX_S, Measure::Speedup);
    let d = a.fit(Model::Downey).expect("downey");
    let b = d.band(&[2.0, 16.0, 1000.0]);
    for (n, s, lo, hi) in &b {
        assert!(lo <= s && s <= hi, "n = {n}");
    }
    assert!(b[2].3 - b[2].2 > b[0].3 - b[0].2, "{b:?}");
}

#[test]
fn advice_spans_linear_transition_and_peak() {
    let a = analyse(
        "points",
        &pts(&EX_N, &EX_S),
        Measure::Speedup,
        &Options { models: vec![Model::Downey], ..Options::default() },
    )
    .expect("valid");
    let roles: Vec<&str> = a.advice.iter().map(|s| s.role).collect();
    assert_eq!(roles, vec!["linear", "transition", "peak"]);
    let ns: Vec<u32> = a.advice.iter().map(|s| s.n).collect();
    assert!(ns.windows(2).all(|w| w[0] < w[1]), "{ns:?}");
    // Downey A = 24.87, σ = 0.81 reaches A at 2A − 1 ≈ 49: the peak suggestion is below.
    assert!(ns[2] <= 49 && ns[2] > 16, "{ns:?}");
}

#[test]
fn benchmark_data_analyse() {
    assert_eq!(benchmark_datasets().len(), 6);
    assert_eq!(benchmark_run(&MODELS), 6);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..proptest::prelude::ProptestConfig::default() })]

    /// Downey fits of noisy Downey curves, either variant, are never beaten by brute force.
    #[test]
    fn downey_fit_matches_brute_force_on_random_curves(
        a in 2.0f64..120.0, sigma in 0.0f64..4.0,
        noise in proptest::collection::vec(-0.05f64..0.05, 6),
        top in 4u32..8,
        time in proptest::bool::ANY,
    ) {
        let ns: Vec<f64> = (1..=6).map(|i| (f64::from(i) * f64::from(top) / 6.0).exp2().round()).collect();
        let mut ns2 = ns.clone();
        ns2.dedup();
        proptest::prop_assume!(ns2.len() == 6);
        // Times: T1 = 500 s, fitted as a parameter (profiled out exactly by the brute force).
        let space = if time { Space::Time } else { Space::Speedup };
        let ys: Vec<f64> = ns
            .iter()
            .zip(&noise)
            .map(|(n, e)| if time { 500.0 / downey(a, sigma, *n) * (1.0 + e) } else { downey(a, sigma, *n) * (1.0 + e) })
            .collect();
        let fit = fit_model(Model::Downey, space, &ns, &ys, &[1.0; 6], None, false).expect("fits");
        let bf = brute_force(Model::Downey, space, &ns, &ys);
        proptest::prop_assert!(fit.sse <= bf * (1.0 + 1e-6) + 1e-12, "LM {} > brute force {bf} at {:?} for {ns:?} {ys:?}", fit.sse, fit.params);
    }
}

proptest::proptest! {
    #[test]
    fn downey_bounded_by_n_and_a(a in 1.0f64..500.0, sigma in 0.0f64..50.0, n in 1u32..5000) {
        let n = f64::from(n);
        let s = downey(a, sigma, n);
        proptest::prop_assert!(s.is_finite() && s > 0.0);
        proptest::prop_assert!(s <= n.min(a) * (1.0 + 1e-12), "S = {s}");
    }

    #[test]
    fn variants_agree_at_sigma_one(a in 1.0f64..500.0, n in 1u32..5000) {
        let n = f64::from(n);
        let (l, h) = (downey_low(a, 1.0, n), downey_high(a, 1.0, n));
        proptest::prop_assert!((l - h).abs() <= 1e-12 * l, "{l} vs {h}");
    }

    #[test]
    fn limits_of_sigma(a in 1.0f64..500.0, n in 1u32..5000) {
        let n = f64::from(n);
        proptest::prop_assert!((downey(a, 0.0, n) - n.min(a)).abs() <= 1e-12 * n);
        let lower = a * n / (a + n - 1.0);
        proptest::prop_assert!((downey(a, 1e9, n) - lower).abs() <= 1e-6 * lower);
    }

    /// Any points analyse to finite numbers or a named error, never a panic.
    #[test]
    fn any_points_give_finite_results(
        raw in proptest::collection::vec((0.0f64..300.0, -1.0f64..1e4, proptest::option::of(0.0f64..5.0)), 0..8),
        time in proptest::bool::ANY,
        past in proptest::bool::ANY,
    ) {
        let raw: Vec<RawPoint> = raw.iter().map(|&(n, value, weight)| RawPoint { n: n.round(), value, weight, nodes: None, line: None }).collect();
        let measure = if time { Measure::TimeS } else { Measure::Speedup };
        let opts = Options { include_past_peak: past, targets: vec![1, 64, 100000], ..Options::default() };
        if let Ok(a) = analyse("points", &raw, measure, &opts) {
            for f in &a.fits {
                let mut xs = vec![f.sse];
                xs.extend(f.aicc);
                xs.extend(f.loo);
                xs.extend(f.params.iter().flat_map(|p| [Some(p.value), p.std_err]).flatten());
                xs.extend(f.residuals.iter().map(|r| r.1));
                for p in &f.predictions {
                    xs.extend([p.speedup, p.speedup_low, p.speedup_high, p.efficiency]);
                    if let Some((t, lo, hi)) = p.time_s { xs.extend([t, lo, hi]); }
                }
                for x in xs { proptest::prop_assert!(x.is_finite(), "{:?}: {x}", f.model); }
            }
            for p in &a.points {
                for x in [p.speedup, p.efficiency, p.karp_flatt].into_iter().flatten() {
                    proptest::prop_assert!(x.is_finite());
                }
            }
        }
    }
}

#[test]
fn gradient_matches_the_derivatives() {
    // USL S = n/D, D = 1 + σ(n−1) + κn(n−1): ∂S/∂σ = −n(n−1)/D², ∂S/∂κ = −n²(n−1)/D².
    let (lo, hi) = ([0.0; 4], [100.0, 100.0, 0.0, 0.0]);
    for (sigma, kappa, n) in [(0.03, 0.0005, 16.0), (0.2, 0.01, 3.0), (0.0, 0.0, 64.0)] {
        let p = [sigma, kappa, 0.0, 0.0];
        let d = 1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0);
        let want = [-n * (n - 1.0) / (d * d), -n * n * (n - 1.0) / (d * d)];
        let got = gradient(&p, &lo, &hi, 2, &|q| shape(Model::Usl, q, n));
        for j in 0..2 {
            assert!((got[j] - want[j]).abs() <= 1e-6 * want[j].abs(), "n = {n}, p = {p:?}: {got:?} vs {want:?}");
        }
    }
    // At a bound the difference is one-sided; between equal bounds the parameter is fixed.
    let at_top = gradient(&[1.0, 0.0, 0.0, 0.0], &[0.0; 4], &[1.0, 0.0, 0.0, 0.0], 2, &|q| smirni(q[0], 8.0));
    // d/dr (1 − r⁸)/(1 − r) at r = 1 is 8·7/2 = 28.
    assert!((at_top[0] - 28.0).abs() < 1e-4 && at_top[1] == 0.0, "{at_top:?}");
}

#[test]
fn smirni_s_derivative_holds_up_to_r_equal_one() {
    // dS/dr = Σ i·r^(i−1) over i < n, summed term by term for whole n, against the closed form
    // and, where rⁿ is near 1 and the closed form cancels, its series; S itself is `smirni`'s.
    for n in [1.0f64, 2.0, 7.0, 64.0, 1024.0] {
        for r in [0.0f64, 0.3, 0.9, 0.99, 1.0 - 1e-3, 1.0 - 1e-5, 1.0 - 1e-7, 1.0 - 1e-9, 1.0 - 1e-11, 1.0 - 1e-13, 1.0]
        {
            let want: f64 = (1..n as u32).map(|i| f64::from(i) * r.powi(i as i32 - 1)).sum();
            let p = [r, 0.0, 0.0, 0.0];
            let (s, d) = value_grad(Model::Smirni, Space::Speedup, &p, shared(Model::Smirni, &p), 1, n);
            assert_eq!(s, smirni(r, n), "n = {n}, r = {r}");
            assert!((d[0] - want).abs() <= 1e-9 * want.max(1.0), "n = {n}, r = {r}: {} vs {want}", d[0]);
        }
    }
}

#[test]
fn closed_form_jacobian_rows_match_central_differences() {
    // Every model, both spaces, away from Downey's breaks (where the pieces' derivatives differ).
    let cases: [(Model, [f64; 2]); 7] = [
        (Model::Downey, [40.0, 0.3]),
        (Model::Downey, [25.0, 1.8]),
        (Model::Downey, [3.0, 0.5]),
        (Model::Amdahl, [0.02, 0.98]),
        (Model::Chiang, [30.0, 0.0]),
        (Model::Smirni, [0.97, 0.0]),
        (Model::Usl, [0.03, 0.0005]),
    ];
    for (model, shape_p) in cases {
        for space in [Space::Speedup, Space::Time] {
            let shape_k = model.param_names().len();
            let k = shape_k + usize::from(space == Space::Time && model != Model::Amdahl);
            let mut p = [shape_p[0], shape_p[1], 0.0, 0.0];
            if k > shape_k {
                p[shape_k] = 170.0;
            }
            let (lo, hi) = ([0.0; 4], [1e9; 4]);
            for n in [2.0, 4.0, 7.0, 16.0, 64.0] {
                let (v, got) = value_grad(model, space, &p, shared(model, &p), k, n);
                assert_eq!(v, value(model, space, &p, n), "{model:?} {space:?} n = {n}");
                let want = gradient(&p, &lo, &hi, k, &|q| value(model, space, q, n));
                for j in 0..k {
                    let tol = 1e-5 * want[j].abs().max(1e-9 * v.abs());
                    assert!(
                        (got[j] - want[j]).abs() <= tol,
                        "{model:?} {space:?} n = {n}: ∂/∂p{j} {} vs {}",
                        got[j],
                        want[j]
                    );
                }
            }
        }
    }
}

#[test]
fn every_fit_says_why_it_stopped() {
    let a = run(&EX_N, &EX_S, Measure::Speedup);
    assert!(
        a.fits.iter().all(|f| f.termination.was_successful()),
        "{:?}",
        a.fits.iter().map(|f| f.termination).collect::<Vec<_>>()
    );
    // Exact Amdahl data: the error reaches zero or stops falling.
    let ss: Vec<f64> = EX_N.iter().map(|n| 1.0 / (0.05 + 0.95 / n)).collect();
    let am = run(&EX_N, &ss, Measure::Speedup).fit(Model::Amdahl).expect("amdahl").termination;
    assert!(am.was_successful(), "{am:?}");
    // The runs that give up are the ones not counted as converged; the note says why.
    for t in [Termination::NotFinite, Termination::MaxIterations, Termination::Outrun] {
        assert!(!t.was_successful());
    }
    assert_eq!(Termination::MaxIterations.text(), format!("did not converge in {MAX_ITERATIONS} iterations"));
    let all = [
        Termination::ResidualsZero,
        Termination::SmallGradient,
        Termination::SmallStep,
        Termination::SmallGain,
        Termination::NoDescent,
    ];
    assert!(all.iter().all(|t| t.was_successful() && t.text().starts_with("converged")));
}

#[test]
fn times_and_speed_ups_outside_their_ranges_are_refused_naming_the_point() {
    // A time of 1e-320 s once gave an infinite speed-up and efficiency.
    let raw = pts(&[1.0, 2.0, 4.0], &[1e-320, 0.6, 0.4]);
    let e = analyse("points", &raw, Measure::TimeS, &Options::default()).unwrap_err();
    assert!(e.to_string().contains("points[0].time_s") && e.message.contains("from 1e-9 s to 1e12 s"), "{e}");
    let raw = pts(&[1.0, 2.0, 4.0], &[1.0, 1e300, 3.0]);
    let e = analyse("points", &raw, Measure::Speedup, &Options::default()).unwrap_err();
    assert!(e.to_string().contains("points[1].speedup"), "{e}");
    // At the edges every number of the analysis is finite.
    let raw = pts(&[1.0, 2.0, 4.0, 8.0], &[MAX_TIME_S, 0.6 * MAX_TIME_S, 0.4 * MAX_TIME_S, MIN_TIME_S * 1e3]);
    let a =
        analyse("points", &raw, Measure::TimeS, &Options { targets: vec![16, 1_000_000_000], ..Options::default() })
            .unwrap();
    assert!(!crate::model::finite::debug_has_non_finite(&a.fits), "{:?}", a.fits);
}

/// Issue 16: speed-ups on Downey's smooth first branch (every n below the plateau) pin only
/// σ/(A(σ+1)); the fit still has standard errors and ranges, and says what is pinned.
#[test]
fn points_below_the_plateau_get_uncertainty_and_say_what_they_pin() {
    let ns = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
    let ss = [1.98, 3.72, 7.34, 13.07, 21.30, 32.56];
    let raw: Vec<RawPoint> =
        ns.iter().zip(ss).map(|(&n, s)| RawPoint { n, value: s, weight: None, nodes: None, line: None }).collect();
    let opts = Options { models: vec![Model::Downey], targets: vec![128, 1024], ..Options::default() };
    let a = analyse("points", &raw, Measure::Speedup, &opts).unwrap();
    let f = a.fit(Model::Downey).unwrap();
    assert!(f.params.iter().all(|p| p.std_err.is_some_and(f64::is_finite)), "{:?}", f.params);
    assert!(!f.notes.iter().any(|n| n.contains("singular")), "{:?}", f.notes);
    assert!(f.notes.iter().any(|n| n.contains("pin σ/(A(σ+1))")), "{:?}", f.notes);
    // The range is wider further out.
    let [near, far] = [&f.predictions[0], &f.predictions[1]];
    assert!(far.speedup_high / far.speedup_low > near.speedup_high / near.speedup_low);
}

/// Every prediction, the forecast's and each fit's, carries a range around it, never a point.
#[test]
fn every_prediction_has_a_range_around_it() {
    for d in benchmark_datasets() {
        let opts = Options { targets: vec![3, 64, 128, 4096], ..Options::default() };
        let a = analyse("points", &d, Measure::Speedup, &opts).unwrap();
        assert_eq!(a.forecast.len(), 4);
        for p in a.forecast.iter().chain(a.fits.iter().flat_map(|f| &f.predictions)) {
            assert!(p.speedup_low < p.speedup && p.speedup < p.speedup_high, "{p:?}");
            assert!(p.scale > 0.0 && p.scale.is_finite());
        }
    }
}

#[test]
fn downey_time_fit_on_a_plateau_reaches_the_brute_force_minimum() {
    // Found by the proptest above (A = 3.355, σ = 0, times, noise on the first two points):
    // the fit stopped at σ = 1 with 38× the squared error brute force finds.
    let ns = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
    let ys = [
        239.72975572632842,
        150.64634778241773,
        149.01915353374602,
        149.01915353374602,
        149.01915353374602,
        149.01915353374602,
    ];
    let fit = fit_model(Model::Downey, Space::Time, &ns, &ys, &[1.0; 6], None, false).unwrap();
    let bf = brute_force(Model::Downey, Space::Time, &ns, &ys);
    assert!(fit.sse <= bf * (1.0 + 1e-6) + 1e-12, "LM {} > brute force {bf} at {:?}", fit.sse, fit.params);
}

#[test]
fn leave_one_out_refits_searched_together_match_refits_searched_alone() {
    // `lm::fit_all` ranks the candidates of every subset from one table; run i + 1 must be the
    // fit of the points without point i (a wrong index there would fit another subset).
    use super::lm::fit_all;
    let mut sets: Vec<(Space, Vec<f64>, Vec<f64>)> = vec![(Space::Speedup, EX_N.to_vec(), EX_S.to_vec())];
    for d in benchmark_datasets() {
        sets.push((Space::Speedup, d.iter().map(|p| p.n).collect(), d.iter().map(|p| p.value).collect()));
        sets.push((Space::Time, d.iter().map(|p| p.n).collect(), d.iter().map(|p| 100.0 / p.value).collect()));
    }
    for (space, ns, ys) in &sets {
        let ws = vec![1.0; ns.len()];
        for model in MODELS {
            let together = fit_all(model, *space, ns, ys, &ws, true);
            assert_eq!(together.len(), ns.len() + 1);
            for i in 0..ns.len() {
                let pick = |v: &[f64]| -> Vec<f64> {
                    v.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, x)| *x).collect()
                };
                let alone = fit_all(model, *space, &pick(ns), &pick(ys), &pick(&ws), false);
                let (a, b) = (together[i + 1].sse, alone[0].sse);
                assert!(
                    (a - b).abs() <= 1e-6 * a.max(b) + 1e-12,
                    "{model:?} {space:?} without n = {}: together {a}, alone {b}",
                    ns[i]
                );
            }
        }
    }
}

#[test]
fn every_family_is_calibrated_and_one_not_yet_measured_takes_the_widest_range() {
    // A family added to the list needs `make validate` to measure its ranges; until then this
    // fails, and the page gives it the widest of the measured ones (no panic, no narrow range).
    let names: Vec<&str> = calibration::MODELS.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, MODELS.map(Model::name), "run `make validate` to measure every family's ranges");
    for (h, counts) in [(1.5, 3), (3.0, 5), (8.0, 3), (100.0, 6)] {
        let wide = super::analysis::quantiles_named("not yet measured", h, counts);
        for m in MODELS {
            let q = super::analysis::quantiles(m, h, counts);
            assert!(wide.low <= q.low && wide.high >= q.high, "{} at {h}: {q:?} outside {wide:?}", m.name());
        }
        assert!(MODELS.iter().any(|&m| super::analysis::quantiles(m, h, counts).low == wide.low));
    }
}

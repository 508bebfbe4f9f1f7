//! The transfer on a synthetic pair whose truth is known, and on bad input.

use super::*;

/// Machine A and B of the synthetic pair: B has twice A's FP64 peak per core, four times
/// its memory bandwidth per core, half its latency and twice its bandwidth.
fn machines() -> (Machine, Machine) {
    let a = Machine {
        cores_per_node: Some(20.0),
        core_gflops: Some(20.0),
        memory_bandwidth_gb_s: Some(100.0),
        latency_us: Some(2.0),
        bandwidth_mb_s: Some(5000.0),
    };
    let b = Machine {
        cores_per_node: Some(20.0),
        core_gflops: Some(40.0),
        memory_bandwidth_gb_s: Some(400.0),
        latency_us: Some(1.0),
        bandwidth_mb_s: Some(10000.0),
    };
    (a, b)
}

/// T_A(n) = 2 + 100/n + 0.5·log2 n.
fn truth_a(n: f64) -> f64 {
    2.0 + 100.0 / n + 0.5 * n.log2()
}

fn runs() -> Vec<(f64, f64)> {
    [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0].iter().map(|&n| (n, truth_a(n))).collect()
}

#[test]
fn the_decomposition_recovers_the_parts() {
    let d = decompose(&runs()).expect("a fit");
    for (got, want) in [(d.serial_s, 2.0), (d.parallel_s, 100.0), (d.comm_s, 0.5)] {
        assert!((got - want).abs() <= 1e-6 * want, "{d:?}");
    }
    assert!(d.rms_rel_residual < 1e-8, "{d:?}");
}

#[test]
fn a_synthetic_pair_is_recovered_for_both_bounds() {
    let (a, b) = machines();
    // Reference message time: A 2 + 65536/5000 = 15.1072 µs, B 1 + 65536/10000 = 7.5536 µs,
    // so the fabric ratio is exactly 1/2 (by hand).
    let (f, basis) = fabric_ratio(&a, &b);
    assert!((f - 0.5).abs() < 1e-12 && basis == FabricBasis::LatencyAndBandwidth);
    for (bound, r) in [(Bound::Compute, 0.5), (Bound::Memory, 0.25)] {
        let t = transfer(&runs(), &a, &b, bound, &[16.0, 128.0, 512.0]).expect("a transfer");
        assert!(t.transfer);
        assert!((t.ratios.compute - r).abs() < 1e-12, "{bound:?}: {:?}", t.ratios);
        for p in &t.predictions {
            let want = r * (2.0 + 100.0 / p.n) + 0.5 * 0.5 * p.n.log2();
            assert!((p.time_s - want).abs() <= 1e-6 * want, "{bound:?} at {}: {} against {want}", p.n, p.time_s);
            assert!(p.low_s < p.time_s && p.time_s < p.high_s);
            assert!(p.same_machine_low_s < p.time_s && p.time_s < p.same_machine_high_s);
        }
        assert!(t.predictions.iter().all(|p| p.widening.is_finite() && p.widening > 0.0));
        assert_eq!(t.level, 0.9);
    }
}

#[test]
fn the_same_machine_gives_the_runs_back() {
    let (a, _) = machines();
    let t = transfer(&runs(), &a, &a, Bound::Memory, &[4.0, 64.0]).expect("a transfer");
    for p in &t.predictions {
        assert!((p.time_s - truth_a(p.n)).abs() <= 1e-6 * truth_a(p.n));
    }
}

#[test]
fn an_unknown_fabric_is_said_and_taken_as_the_same() {
    let (a, b) = machines();
    let b = Machine { latency_us: None, bandwidth_mb_s: None, ..b };
    let t = transfer(&runs(), &a, &b, Bound::Compute, &[8.0]).expect("a transfer");
    assert_eq!(t.ratios.fabric_basis, FabricBasis::NotFormed);
    assert_eq!(t.ratios.fabric, 1.0);
    assert!(t.notes.iter().any(|n| n.contains("fabric ratio could not be formed")), "{:?}", t.notes);
    // Only the bandwidths: their ratio alone.
    let (a2, b2) = machines();
    let (f, basis) = fabric_ratio(&Machine { latency_us: None, ..a2 }, &b2);
    assert_eq!((f, basis), (0.5, FabricBasis::Bandwidth));
}

/// A bad-input case: points, from, to, bound, targets, the error's field and words it holds.
type BadCase = (Vec<(f64, f64)>, Machine, Machine, Bound, Vec<f64>, &'static str, &'static str);

/// Bad input: each case and the words its message must hold.
#[test]
fn bad_input_is_refused_with_its_key() {
    let (a, b) = machines();
    let no_memory = Machine { memory_bandwidth_gb_s: None, ..b };
    let no_peak = Machine { core_gflops: None, ..a };
    let cases: Vec<BadCase> = vec![
        (runs(), a, no_memory, Bound::Memory, vec![8.0], "to", "memory ratio could not be formed"),
        (runs(), no_peak, no_peak, Bound::Compute, vec![8.0], "from and to", "both machines"),
        (vec![(0.0, 1.0), (2.0, 1.0)], a, b, Bound::Memory, vec![8.0], "points[0].n", "from 1 to 1e8, found 0"),
        (vec![(-4.0, 1.0), (2.0, 1.0)], a, b, Bound::Memory, vec![8.0], "points[0].n", "found -4"),
        (vec![(1.0, f64::NAN), (2.0, 1.0)], a, b, Bound::Memory, vec![8.0], "points[0].time_s", "found NaN"),
        (vec![(1.0, 2.0), (2.0, 1.0)], a, b, Bound::Memory, vec![f64::NAN], "predict[0]", "found NaN"),
        (vec![(1.0, 2.0), (2.0, 1.0)], a, b, Bound::Memory, vec![0.0], "predict[0]", "found 0"),
        (vec![(4.0, 2.0), (4.0, 1.0)], a, b, Bound::Memory, vec![8.0], "points", "two or more different"),
        (
            runs(),
            Machine { core_gflops: Some(f64::INFINITY), ..a },
            b,
            Bound::Compute,
            vec![8.0],
            "from.core_gflops",
            "infinity",
        ),
        (
            runs(),
            a,
            Machine { cores_per_node: Some(0.5), ..b },
            Bound::Memory,
            vec![8.0],
            "to.cores_per_node",
            "at least 1",
        ),
    ];
    for (points, from, to, bound, targets, field, words) in cases {
        match transfer(&points, &from, &to, bound, &targets) {
            Ok(t) => panic!("{points:?} {targets:?}: expected an error, got {t:?}"),
            Err(e) => {
                assert_eq!(e.field, field, "{e}");
                assert!(e.message.contains(words), "{e}: lacks '{words}'");
            }
        }
    }
}

#[test]
fn answers_are_finite_on_extreme_but_valid_input() {
    let (a, b) = machines();
    let pts = vec![(1.0, 1e-9), (1e8, 1e12), (3.0, 5.0)];
    if let Ok(t) = transfer(&pts, &a, &b, Bound::Memory, &[1.0, 1e8]) {
        assert!(crate::model::finite::first_non_finite(&t).is_none(), "{t:?}");
    }
}

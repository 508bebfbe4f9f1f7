use super::formula::MAX_OPERATORS;
use super::*;
use proptest::prelude::*;

/// |got − want| ≤ tol · max(1, |want|).
fn check(name: &str, got: f64, want: f64, tol: f64) {
    assert!((got - want).abs() <= tol * want.abs().max(1.0), "{name}: got {got}, want {want}");
}

/// The model with X = x'·z in the two-region formulas (the default).
fn model(x_prime: f64, z: f64, z_prime: f64, alpha: f64) -> Regions {
    Regions::new(Balance { x_prime, z, z_prime }, LoadFactor { alpha }).expect("valid model")
}

/// The model as the slides print it, x' in the two-region formulas whatever z is.
fn slides(x_prime: f64, z: f64, z_prime: f64, alpha: f64) -> Regions {
    model(x_prime, z, z_prime, alpha).with_two_region_x(TwoRegionX::Slides)
}

/// x' of LinPack at N = 40000 on bwGRiD 1: N/204.
const X40K: f64 = 40000.0 / 204.0;

#[test]
fn spec_one_region() {
    // Spec: x' = N/204, z = 1.5; the printed values are rounded to two decimals.
    let m = model(X40K, 1.5, 10.0, 0.05);
    for (n, want) in [(64.0, 52.74), (256.0, 137.33), (1120.0, 233.74)] {
        check(&format!("Sp({n})"), m.speedup_one(n).expect("n ≥ 1"), want, 0.005 / want);
    }
    check("Sp(1)", m.speedup_one(1.0).expect("n = 1"), 1.0, 1e-15);
}

#[test]
fn linpack_on_bwgrid1() {
    let sys = System::preset("bwgrid1").expect("preset");
    let (m, w) = Regions::from_application(&Application::linpack(), 40000.0, &sys).expect("valid");
    let b = m.balance();
    check("#op", w.ops, 2.0 / 3.0 * 40000f64.powi(3), 1e-15);
    check("#b", w.bytes, 16.0 * 40000f64.powi(2), 1e-15);
    check("x' = N/204", b.x_prime, X40K, 1e-12);
    check("z = 1.5", b.z, 1.5, 1e-15);
    // r = #b/#x = 16N²/(4N²) = 4; z' = 4 · 1.0/1.5.
    check("z'", b.z_prime, 4.0 / 1.5, 1e-12);
    check("Sp(64)", m.speedup_one(64.0).expect("n"), 52.74, 1e-4);
    assert_eq!(m.region_bandwidth_gb_s().map(|b| (b * 1e9).round() / 1e9), Some(1.0));
    assert!(sys.warnings().is_empty());
}

#[test]
fn spec_optimum_and_scan() {
    // Spec: x' = 196.08, α = 1/20 (z = 1, so X = x'): z' → (n*, Sp2_max) as printed.
    for (zp, n_star, sp2_max) in [(1.0, 44.3, 20.20), (10.0, 140.0, 51.91), (100.0, 442.8, 104.53)] {
        let m = model(196.08, 1.0, zp, 0.05);
        let Optimum::Peak { n_star: got_n, sp2_max: got_max } = m.optimum() else { panic!("α > 0 has a peak") };
        check(&format!("n*(z'={zp})"), got_n, n_star, 0.05 / n_star);
        check(&format!("Sp2_max(z'={zp})"), got_max, sp2_max, 0.005 / sp2_max);
        // Independent check: a log-spaced scan of Sp2 over 1 ≤ n ≤ 1e5.
        let (scan_n, scan_max) = (0..=200_000)
            .map(|i| 10f64.powf(f64::from(i) * 5.0 / 200_000.0))
            .map(|n| (n, m.speedup_two(n).expect("n ≥ 1")))
            .fold((0.0, 0.0), |best, (n, s)| if s > best.1 { (n, s) } else { best });
        check("scan max", scan_max, got_max, 1e-9);
        check("scan argmax", scan_n, got_n, 1e-3);
    }
}

#[test]
fn two_readings_of_the_slides() {
    // The issue's example: x' = 196.08, z = 1.5, z' = 10, α = 0.05. Read literally, the
    // two-region formulas hold x', so n* and Sp2_max are the spec's z' = 10 row while the
    // one-region Sp(64) uses x'z.
    assert_eq!(model(1.0, 1.0, 1.0, 0.0).two_region_choice(), TwoRegionX::Scaled, "the default");
    let m = slides(196.08, 1.5, 10.0, 0.05);
    assert_eq!(m.two_region_choice(), TwoRegionX::Slides);
    check("Sp(64)", m.speedup_one(64.0).expect("n"), 52.74, 1e-4);
    check("n*", m.optimum().n_star().expect("peak"), 140.0, 0.05 / 140.0);
    check("Sp2_max", m.optimum().sp2_max().expect("peak"), 51.91, 0.005 / 51.91);
    check("two-region n½ uses x'", m.n_half().two_regions, slides(196.08, 1.0, 10.0, 0.05).n_half().two_regions, 1e-15);
    check("one-region n½ = x'z", m.n_half().one_region, 196.08 * 1.5, 1e-15);
    // Scaled: X = x'·z = 294.12, n* = √(294.12·10/0.1).
    let s = m.clone().with_two_region_x(TwoRegionX::Scaled);
    check("scaled n*", s.optimum().n_star().expect("peak"), (294.12f64 * 100.0).sqrt(), 1e-12);
    // With z = 1.5 the slides' Sp2 tends to (1 + x')/(1 + x'/n) < Sp(n): 90 % of Sp(256)
    // is out of reach at any bandwidth, while the scaled reading reaches it.
    let r = m.clone().with_region_bandwidth(1.0).expect("valid").required_bandwidth(256.0, 0.9).expect("valid");
    let Requirement::Unreachable { limit } = r.requirement else { panic!("unreachable: {r:?}") };
    check("limit", limit, 197.08 / (1.0 + 196.08 / 256.0), 1e-12);
    let r = s.with_region_bandwidth(1.0).expect("valid").required_bandwidth(256.0, 0.9).expect("valid");
    assert!(matches!(r.requirement, Requirement::Bandwidth { .. }), "{r:?}");
    // At n = 64 the slides' reading reaches 90 %, at a finite bandwidth.
    let r = m.with_region_bandwidth(1.0).expect("valid").required_bandwidth(64.0, 0.9).expect("valid");
    let Requirement::Bandwidth { z_prime, .. } = r.requirement else { panic!("reachable: {r:?}") };
    let at = slides(196.08, 1.5, z_prime, 0.05).speedup_two(64.0).expect("n");
    check("Sp2 at the required z'", at, r.target_speedup, 1e-12);
    assert_eq!(TwoRegionX::parse("f", "slides"), Ok(TwoRegionX::Slides));
    assert_eq!(TwoRegionX::parse("f", "").map(TwoRegionX::key), Ok("scaled"));
    assert_eq!(TwoRegionX::parse("two_region_x", "x").expect_err("bad").field, "two_region_x");
}

#[test]
fn no_contention_has_no_optimum() {
    let m = model(196.08, 1.5, 10.0, 0.0);
    let x = 196.08 * 1.5;
    let Optimum::NoOptimum { limit } = m.optimum() else { panic!("α = 0 has no peak") };
    check("limit", limit, (2.0 + (1.0 + x) * 10.0) / 10.0, 1e-15);
    let s: Vec<f64> = [1.0, 10.0, 1e3, 1e6, 1e12].iter().map(|&n| m.speedup_two(n).expect("n")).collect();
    assert!(s.windows(2).all(|w| w[0] < w[1]), "Sp2 rises with n: {s:?}");
    check("Sp2(1e12) near the limit", s[4], limit, 1e-9);
    assert!(m.optimum().text().starts_with("no optimum: Sp2 rises toward its limit"));
    assert_eq!((m.optimum().n_star(), m.optimum().sp2_max()), (None, None));
}

#[test]
fn n_half_is_half_the_best() {
    for (xp, z, zp, a) in [(196.08, 1.5, 10.0, 0.05), (100.0, 1.0, 1.0, 0.05), (50.0, 2.0, 100.0, 0.001)] {
        let m = model(xp, z, zp, a);
        let h = m.n_half();
        let x = xp * z;
        check("one region n½ = X", h.one_region, x, 1e-15);
        check("Sp(n½)", m.speedup_one(h.one_region).expect("n"), (1.0 + x) / 2.0, 1e-12);
        let best = m.optimum().sp2_max().expect("α > 0");
        check("Sp2(n½)", m.speedup_two(h.two_regions).expect("n"), best / 2.0, 1e-9);
        let upper = h.two_regions_upper.expect("α > 0");
        check("Sp2(upper n½)", m.speedup_two(upper).expect("n"), best / 2.0, 1e-9);
        assert!(h.two_regions < m.optimum().n_star().expect("peak") && upper > h.two_regions);
    }
    let h = model(80.0, 1.5, 3.0, 0.0).n_half();
    check("α = 0: n½ = X", h.two_regions, 120.0, 1e-12);
    assert_eq!(h.two_regions_upper, None);
}

#[test]
fn overlapping_by_hand() {
    // X = 100, z' = 2 (X·z' = 200), α = 1/20: Sp2_ov(n) = n·1/max(1, n/100, n²/2000).
    let m = model(50.0, 2.0, 2.0, 0.05);
    let cases = [
        ("Sp_ov(10)", m.speedup_one_overlapping(10.0), 10.0),
        ("Sp_ov(500)", m.speedup_one_overlapping(500.0), 100.0),
        ("Sp2_ov(10)", m.speedup_two_overlapping(10.0), 10.0),
        ("Sp2_ov(40)", m.speedup_two_overlapping(40.0), 40.0),
        ("Sp2_ov(60)", m.speedup_two_overlapping(60.0), 60.0 / 1.8),
        ("Sp2_ov(44.72)", m.speedup_two_overlapping(2000f64.sqrt()), 2000f64.sqrt()),
        ("Sp2_ov(100)", m.speedup_two_overlapping(100.0), 20.0),
        // X < 1: the baseline is communication-bound too.
        ("Sp_ov, X = 0.5", model(0.5, 1.0, 1.0, 0.05).speedup_one_overlapping(8.0), 1.0),
    ];
    for (name, got, want) in cases {
        check(name, got.expect("valid"), want, 1e-12);
    }
}

#[test]
fn sweep_rescales_z_prime() {
    let sys = System::preset("bwgrid1").expect("preset");
    let (m, _) = Regions::from_application(&Application::linpack(), 40000.0, &sys).expect("valid");
    let pts = m.sweep(&[64.0, 256.0], &[1.0, 15.0, 45.0]).expect("valid");
    for (p, b) in pts.iter().zip([1.0, 15.0, 45.0]) {
        check("z' = 4·B_E/1.5", p.z_prime, 4.0 * b / 1.5, 1e-12);
        let direct = model(X40K, 1.5, 4.0 * b / 1.5, 0.05);
        check("Sp2(256)", p.speedups[1].speedup, direct.speedup_two(256.0).expect("n"), 1e-12);
        let (got, want) = (&p.optimum, direct.optimum());
        check("n*", got.n_star().expect("peak"), want.n_star().expect("peak"), 1e-12);
        check("Sp2_max", got.sp2_max().expect("peak"), want.sp2_max().expect("peak"), 1e-12);
    }
    let e = m.sweep(&[64.0], &[1.0, -2.0]).expect_err("negative bandwidth");
    assert_eq!(e.field, "bandwidth_gb_s[1]");
    let e = model(1.0, 1.0, 1.0, 0.05).sweep(&[64.0], &[1.0]).expect_err("no B_E known");
    assert!(e.message.contains("region_bandwidth_gb_s"), "{e}");
}

#[test]
fn required_bandwidth_outcomes() {
    let m = model(X40K, 1.5, 4.0 / 1.5, 0.05).with_region_bandwidth(1.0).expect("valid");
    let r = m.required_bandwidth(64.0, 0.9).expect("valid");
    let Requirement::Bandwidth { z_prime, bandwidth_gb_s: Some(b) } = r.requirement else { panic!("reachable: {r:?}") };
    check("B_E = z'·b_l/r", b, z_prime * 1.5 / 4.0, 1e-12);
    assert!(!r.met_at(4.0 / 1.5), "bwGRiD 1's 1 GB/s is not enough: {}", r.text());
    // Any bandwidth: p(4) = 0.2, so Sp2 ≥ 1/0.2 = 5 > 0.9·Sp(4).
    assert_eq!(m.required_bandwidth(4.0, 0.9).expect("valid").requirement, Requirement::AnyBandwidth);
    assert_eq!(
        model(5.0, 1.0, 1.0, 0.0).required_bandwidth(1000.0, 1.0).expect("v").requirement,
        Requirement::AnyBandwidth
    );
    let r = m.required_bandwidth(64.0, 1.0).expect("valid");
    assert_eq!(r.requirement, Requirement::Unreachable { limit: r.one_region_speedup });
    assert!(r.text().contains("unreachable"), "{}", r.text());
    for bad in [0.0, -0.5, 1.5, f64::NAN] {
        assert_eq!(m.required_bandwidth(64.0, bad).expect_err("bad fraction").field, "fraction");
    }
}

#[test]
fn validation_names_the_field() {
    let cases: [(Result<Regions, InputError>, &str); 7] = [
        (Regions::new(Balance { x_prime: 0.0, z: 1.0, z_prime: 1.0 }, LoadFactor { alpha: 0.05 }), "x_prime"),
        (Regions::new(Balance { x_prime: 1.0, z: -1.0, z_prime: 1.0 }, LoadFactor { alpha: 0.05 }), "z"),
        (Regions::new(Balance { x_prime: 1.0, z: 1.0, z_prime: f64::INFINITY }, LoadFactor { alpha: 0.05 }), "z_prime"),
        (Regions::new(Balance { x_prime: 1.0, z: 1.0, z_prime: 1.0 }, LoadFactor { alpha: -0.05 }), "alpha"),
        (Regions::new(Balance { x_prime: 1.0, z: 1.0, z_prime: 1.0 }, LoadFactor { alpha: 1e-300 }), "alpha"),
        (model(1.0, 1.0, 1.0, 0.0).with_region_bandwidth(0.0), "region_bandwidth_gb_s"),
        (model(1.0, 1.0, 1.0, 0.0).with_region_bandwidth(1e13), "region_bandwidth_gb_s"),
    ];
    for (got, field) in cases {
        assert_eq!(got.expect_err(field).field, field);
    }
    let m = model(1.0, 1.0, 1.0, 0.05);
    assert_eq!(m.speedup_one(0.5).expect_err("n < 1").field, "n");
    assert_eq!(m.curve(&[4.0, -3.0]).expect_err("n < 1").field, "n[1]");
    let sys = System::preset("bwgrid1").expect("preset");
    for (patch, field) in [
        (System { peak_gflops_per_core: 0.0, ..sys.clone() }, "peak_gflops_per_core"),
        (System { node_bandwidth_gb_s: -1.0, ..sys.clone() }, "node_bandwidth_gb_s"),
        (System { reference_bandwidth_gb_s: 0.0, ..sys.clone() }, "reference_bandwidth_gb_s"),
        (System { region_bandwidth_gb_s: f64::NAN, ..sys.clone() }, "region_bandwidth_gb_s"),
    ] {
        let e = Regions::from_application(&Application::linpack(), 40000.0, &patch).expect_err(field);
        assert_eq!(e.field, field);
    }
    let e = Regions::from_application(&Application::linpack(), 0.0, &sys).expect_err("N = 0");
    assert_eq!(e.field, "N");
    let neg = Application { bytes: "N - 50000".into(), ..Application::linpack() };
    let e = Regions::from_application(&neg, 40000.0, &sys).expect_err("#b < 0");
    assert_eq!(e.to_string(), "bytes: must be positive at N = 40000, found -10000");
}

#[test]
fn unit_warnings() {
    let sys =
        System { node_bandwidth_gb_s: 1500.0, region_bandwidth_gb_s: 0.0005, ..System::preset("bwgrid1").expect("p") };
    let w = sys.warnings();
    let fields: Vec<&str> = w.iter().map(|w| w.field.as_str()).collect();
    assert_eq!(fields, ["node_bandwidth_gb_s", "region_bandwidth_gb_s"]);
    assert!(w[0].message.contains("MB/s"), "{}", w[0].message);
    let sys = System { peak_gflops_per_core: 8500.0 * 1000.0, ..System::preset("bwgrid2-15").expect("p") };
    assert_eq!(sys.warnings().len(), 1);
    assert!(SYSTEM_PRESETS.iter().all(|p| System::preset(p.key).is_some_and(|s| s.warnings().is_empty())));
}

#[test]
fn formulas_evaluate() {
    let cases = [
        ("2/3*N^3", 3.0, 18.0),
        ("2*N^2*8", 10.0, 1600.0),
        ("N^2*8/2", 10.0, 400.0),
        ("1e9", 1.0, 1e9),
        ("1.5E-3*N", 2.0, 3e-3),
        ("-N^2 + 2^3^2", 3.0, 512.0 - 9.0),
        ("(N+1)*(N-1)", 4.0, 15.0),
        ("  2 · N × 3 − 1 ", 2.0, 11.0),
        ("2^-1", 0.0, 0.5),
        ("--N", 7.0, 7.0),
        ("N/2/2", 8.0, 2.0),
        (".5*N", 4.0, 2.0),
    ];
    for (text, n, want) in cases {
        let got = Formula::parse("ops", text).and_then(|f| f.eval(n));
        check(text, got.expect(text), want, 1e-15);
    }
}

#[test]
fn formula_errors_have_columns() {
    let cases = [
        ("", 1, "empty"),
        ("2*N^", 5, "expected a number, N or '(', found the end"),
        ("2N", 2, "expected an operator"),
        ("(N+1", 5, "expected ')' to close the '(' at column 1"),
        ("N+1)", 4, "without a matching '('"),
        ("2*n^3", 3, "unknown name 'n'; the only variable is N"),
        ("N $ 2", 3, "expected an operator"),
        ("1e999", 1, "too large"),
        ("1..2", 1, "not a number"),
        ("N/(N-N)", 2, "division by zero"),
        ("(0-N)^0.5", 6, "not a finite number"),
        ("10^N", 3, "not a finite number"),
        ("2·(·3)", 4, "expected a number"),
    ];
    for (text, column, want) in cases {
        let e = Formula::parse("ops", text).and_then(|f| f.eval(4000.0)).expect_err(text);
        assert_eq!((e.field.as_str(), e.line, e.column), ("ops", Some(1), Some(column)), "{text}: {e}");
        assert!(e.message.contains(want), "{text}: {e}");
    }
    let deep = format!("{}N{}", "(".repeat(100), ")".repeat(100));
    assert!(Formula::parse("ops", &deep).expect_err("deep").message.contains("nested"));
    assert!(Formula::parse("ops", &"-".repeat(5000)).is_err());
    assert!(Formula::parse("ops", &"N+".repeat(600)).is_err());
    // A chain is as deep as it is long: bounded by its operators, with the column of the
    // first one past the bound.
    let chain = format!("N{}", "+1".repeat(MAX_OPERATORS + 1));
    let e = Formula::parse("ops", &chain).expect_err("long chain");
    assert_eq!(e.column, Some(2 * MAX_OPERATORS + 2), "{e}");
    assert!(e.message.contains("operators"), "{e}");
    let fine = format!("N{}", "+1".repeat(MAX_OPERATORS));
    assert_eq!(
        Formula::parse("ops", &fine).and_then(|f| f.eval(1.0)).map_err(|e| e.to_string()),
        Ok(1.0 + MAX_OPERATORS as f64)
    );
}

/// Throughput from the time model itself, in units of l_th: two regions of n cores,
/// additive, with bandwidths scaled so that b0_l = 1.
fn throughput_two(xp: f64, z: f64, r: f64, b_e: f64, p: f64, n: f64) -> f64 {
    // #op = x'·#b·l_th/b0_l with #b = 1, l_th = 1: #op = x'; b_l = z; #x = 1/r.
    let t = (xp / 2.0) / n + 0.5 / z + p * (1.0 / r) / b_e;
    xp / t
}

fn throughput_one(xp: f64, z: f64, n: f64) -> f64 {
    xp / (xp / n + 1.0 / z)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn speedup_at_most_n(xp in 1e-3f64..1e5, z in 1e-2f64..1e2, n in 1.0f64..1e6) {
        let m = model(xp, z, 1.0, 0.05);
        prop_assert!(m.speedup_one(n).unwrap() <= n * (1.0 + 1e-12));
        prop_assert!(m.speedup_one_overlapping(n).unwrap() <= n * (1.0 + 1e-12));
    }

    /// Sp2 is the time model's throughput over its own n = 1, p = 1 baseline, with
    /// X = x'·z and z' = r·B_E/b_l; and the exact throughput comparison with one region.
    #[test]
    fn sp2_is_the_time_model(xp in 0.1f64..1e4, z in 0.1f64..10.0, r in 0.01f64..100.0,
                             b_e in 0.01f64..100.0, a in 1e-3f64..1.0, n in 1.0f64..1e5) {
        let zp = r * b_e / z;
        let m = model(xp, z, zp, a);
        let p = a * n;
        let want = throughput_two(xp, z, r, b_e, p, n) / throughput_two(xp, z, r, b_e, 1.0, 1.0);
        let got = m.speedup_two(n).unwrap();
        prop_assert!((got - want).abs() <= 1e-9 * want, "{} vs {}", got, want);
        // Two regions of n cores vs one region of 2n cores: not faster iff z' ≤ 2p(n).
        let (two, one) = (throughput_two(xp, z, r, b_e, p, n), throughput_one(xp, z, 2.0 * n));
        if zp < 2.0 * p * (1.0 - 1e-9) { prop_assert!(two < one); }
        if zp > 2.0 * p * (1.0 + 1e-9) { prop_assert!(two > one); }
    }

    /// Same n = cores per region (2n in all): Sp2(n) ≤ Sp(n) ⇔ p(n)(1 + X) ≥ 1 + X/n,
    /// at any bandwidth; with p(n) ≥ 1 also Sp2(n) ≤ Sp(2n) and Sp2 ≤ n.
    #[test]
    fn sp2_against_one_region(xp in 1e-2f64..1e4, z in 0.1f64..10.0, zp in 1e-3f64..1e4,
                              a in 1e-3f64..1.0, n in 1.0f64..1e5) {
        let m = model(xp, z, zp, a);
        let (x, p) = (xp * z, a * n);
        let (two, one) = (m.speedup_two(n).unwrap(), m.speedup_one(n).unwrap());
        let margin = p * (1.0 + x) - (1.0 + x / n);
        if margin > 1e-9 * (1.0 + x) { prop_assert!(two <= one * (1.0 + 1e-12)); }
        if margin < -1e-9 * (1.0 + x) { prop_assert!(two >= one * (1.0 - 1e-12)); }
        if p >= 1.0 {
            prop_assert!(two <= m.speedup_one(2.0 * n).unwrap() * (1.0 + 1e-12));
            prop_assert!(two <= n * (1.0 + 1e-12));
        }
        // Between its two ends: 1/p (B_E → 0) and Sp(n) (B_E → ∞).
        let (lo, hi) = if one < 1.0 / p { (one, 1.0 / p) } else { (1.0 / p, one) };
        prop_assert!(two >= lo * (1.0 - 1e-12) && two <= hi * (1.0 + 1e-12));
    }

    #[test]
    fn required_bandwidth_is_the_smallest(xp in 1.0f64..1e4, z in 0.1f64..10.0, a in 1e-3f64..1.0,
                                          n in 1.0f64..1e4, f in 0.05f64..0.999, scaled: bool) {
        let m = if scaled { model(xp, z, 1.0, a) } else { slides(xp, z, 1.0, a) };
        let m = m.with_region_bandwidth(2.0).unwrap();
        let r = m.required_bandwidth(n, f).unwrap();
        match r.requirement {
            Requirement::Bandwidth { z_prime, bandwidth_gb_s } => {
                let b = bandwidth_gb_s.unwrap();
                prop_assert!((b - 2.0 * z_prime).abs() <= 1e-12 * b);
                let reach = |b: f64| m.at_bandwidth(b).and_then(|m| m.speedup_two(n)).unwrap();
                prop_assert!(reach(b) >= r.target_speedup, "{} < {}", reach(b), r.target_speedup);
                prop_assert!(reach(b * 0.999) < r.target_speedup);
            }
            Requirement::AnyBandwidth => prop_assert!(r.target_speedup * a * n <= 1.0),
            // Only the slides' reading with z > 1 can fall short, and then only because its
            // limit (1 + x')/(1 + x'/n) is below the target.
            Requirement::Unreachable { limit } => {
                prop_assert!(!scaled && z > 1.0, "f < 1 is reachable when X = x'z");
                prop_assert!(limit <= r.target_speedup * (1.0 + 1e-9));
                prop_assert!(m.at_bandwidth(1e9).and_then(|m| m.speedup_two(n)).unwrap() < r.target_speedup);
            }
        }
    }

    #[test]
    fn polynomials_parse(c in proptest::collection::vec(-1e3f64..1e3, 1..5), n in 0.5f64..1e3) {
        let text: Vec<String> = c.iter().enumerate().map(|(k, ck)| format!("({ck})*N^{k}")).collect();
        let got = Formula::parse("bytes", &text.join(" + ")).and_then(|f| f.eval(n)).unwrap();
        let want: f64 = c.iter().enumerate().map(|(k, ck)| ck * n.powi(k as i32)).sum();
        let scale: f64 = c.iter().enumerate().map(|(k, ck)| (ck * n.powi(k as i32)).abs()).sum();
        prop_assert!((got - want).abs() <= 1e-12 * scale.max(1.0));
    }
}

#[test]
fn application_errors_come_in_order() {
    // The first problem in the order N, #op, #b, #x, whether a formula fails to parse or to
    // give a positive value; a parsed application gives the same answers as its texts.
    let app = |ops: &str, bytes: &str| Application {
        name: String::new(),
        ops: ops.into(),
        bytes: bytes.into(),
        exchanged_bytes: "4*N^2".into(),
    };
    let cases = [
        (app("-N", "2*N^"), 100.0, "ops", "must be positive"),
        (app("N", "2*N^"), 100.0, "bytes", "expected a number"),
        (app("N^", "2*N^"), 1e-10, "N", "at least 1e-9"),
        (app("N", "N-100"), 100.0, "bytes", "must be positive"),
    ];
    for (a, n, field, want) in cases {
        let e = a.evaluate(n).expect_err(field);
        assert_eq!(e.field, field, "{e}");
        assert!(e.message.contains(want), "{e}");
        assert_eq!(a.parse().workload(n), Err(e));
    }
    let w = Application::linpack().parse().workload(1000.0).expect("valid");
    assert_eq!(Ok(w), Application::linpack().evaluate(1000.0));
}

#[test]
fn tiny_and_huge_inputs_are_refused_not_answered_with_nan_or_infinity() {
    // x' = 1e-320 once gave NaN overlapping speed-ups, z' = 5e-324 an infinite Sp2_max, a swept
    // B_E of 1e-320 (with α = 0, an infinite limit) infinite sweep values.
    assert_eq!(Balance::new(1e-320, 1.5, 10.0).unwrap_err().field, "x_prime");
    assert_eq!(Balance::new(196.0, 1.5, 5e-324).unwrap_err().field, "z_prime");
    let m = model(196.08, 1.5, 10.0, 0.0).with_region_bandwidth(1.0).unwrap();
    assert_eq!(m.at_bandwidth(1e-320).unwrap_err().field, "bandwidth_gb_s");
    assert!(m.sweep(&[64.0], &[1e-320]).is_err());
    // At the edges of the ranges every answer is a finite number.
    for (x, z, zp, a) in
        [(1e-9, 1e-9, 1e-9, 0.0), (1e12, 1e12, 1e12, 1e6), (1e-9, 1e12, 1e-9, 1e-12), (1e12, 1e-9, 1e12, 0.0)]
    {
        let m = model(x, z, zp, a).with_region_bandwidth(1e-9).unwrap();
        for n in [1.0, 64.0, 1e12] {
            for v in [m.speedup_one(n), m.speedup_one_overlapping(n), m.speedup_two(n), m.speedup_two_overlapping(n)] {
                let v = v.unwrap();
                assert!(v.is_finite(), "{x} {z} {zp} {a} at {n}: {v}");
            }
        }
        assert!(!crate::model::finite::debug_has_non_finite(&m.optimum()));
        if let Ok(sweep) = m.sweep(&[1.0, 1e6], &[1e-9, 1e12]) {
            assert!(!crate::model::finite::debug_has_non_finite(&sweep));
        }
    }
}
/// A case proptest found: the closed form for z' said "unreachable" although the limit lies
/// above the target; the answer is now the smallest z' that reaches it.
#[test]
fn a_reachable_target_is_never_called_unreachable() {
    let m = slides(8261.022995498504, 3.436810960039268, 1.0, 0.7671272917688273).with_region_bandwidth(2.0).unwrap();
    let n = 744.3368599349941;
    let r = m.required_bandwidth(n, 0.9354965548459377).unwrap();
    let Requirement::Bandwidth { bandwidth_gb_s: Some(b), .. } = r.requirement else { panic!("{r:?}") };
    let reach = |b: f64| m.at_bandwidth(b).and_then(|m| m.speedup_two(n)).unwrap();
    assert!(reach(b) >= r.target_speedup && reach(b * 0.999) < r.target_speedup);
}

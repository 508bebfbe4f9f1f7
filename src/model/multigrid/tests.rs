//! Tests of the multigrid model: the worked example and the paper's costs, calibration errors,
//! memory feasibility, the two-cluster split against a brute-force search, and the planner.

use super::calibration::least_squares;
use super::planner::Planner;
use super::split::{even_split, split_exact, Cand, SideCtx};
use super::*;
use crate::model::error::fmt_num;
use proptest::prelude::*;

/// |got − want| ≤ tol · max(1, |want|).
fn check(name: &str, got: f64, want: f64, tol: f64) {
    assert!((got - want).abs() <= tol * want.abs().max(1.0), "{name}: got {got}, want {want}");
}

/// The spec's worked example (seed recipe with made-up but consistent numbers).
fn paper_cal() -> Calibration {
    Calibration {
        sequential: vec![SequentialRun::new(2048.0, 1500.0), SequentialRun::new(1024.0, 740.0)],
        parallel: vec![
            ParallelRun::new(4, 2048.0, 1580.0),
            ParallelRun::new(4, 1024.0, 800.0),
            ParallelRun::new(8, 2048.0, 1610.0),
            ParallelRun::new(8, 1024.0, 825.0),
        ],
    }
}

fn paper_fit() -> Fit {
    fit(&paper_cal()).expect("the worked example fits")
}

#[test]
fn worked_example() {
    let f = paper_fit();
    let tcomm: Vec<f64> = f.runs.iter().map(|r| r.tcomm_s).collect();
    assert_eq!(tcomm, vec![80.0, 60.0, 110.0, 85.0]);
    let p = f.predict(64, 2048.0).expect("valid");
    // Hand derivation in the spec: α(64) = 0 + 20·6 = 120, Tcomm = 120 + 25/1024·2048 = 170.
    let cases = [
        ("gamma(4)", f.per_np0[0].gamma_s_per_mb, 20.0 / 1024.0),
        ("alpha(4)", f.per_np0[0].alpha_s, 40.0),
        ("gamma(8)", f.per_np0[1].gamma_s_per_mb, 25.0 / 1024.0),
        ("alpha(8)", f.per_np0[1].alpha_s, 60.0),
        ("c", f.alpha.c_s, 0.0),
        ("d", f.alpha.d_s, 20.0),
        ("gamma", f.gamma_s_per_mb, 25.0 / 1024.0),
        ("tcomp(64)", p.tcomp_s, 1500.0),
        ("tcomm(64)", p.tcomm_s, 170.0),
        ("T(64)", p.time_s, 1670.0),
    ];
    for (name, got, want) in cases {
        check(name, got, want, 1e-9);
    }
    assert_eq!((f.per_np0[0].np0, f.per_np0[1].np0, f.gamma_np0), (4, 8, 8));
    assert!(p.notes.is_empty(), "2048 MB was measured: {:?}", p.notes);
    for r in f
        .per_np0
        .iter()
        .flat_map(|n| &n.points)
        .map(|p| p.residual_s)
        .chain(f.alpha.points.iter().map(|p| p.residual_s))
    {
        check("residual of a two-point line", r, 0.0, 1e-12);
    }
}

#[test]
fn ranges_widen_what_is_extrapolated_only() {
    // Issue 33: T(64) = 1670 s had the range 308–2,844 s, below the 1,500 s of compute that
    // was measured for that work on one process.
    let f = paper_fit();
    for np in [64, 1024] {
        let p = f.predict(np, 2048.0).expect("valid");
        assert!(p.time_low_s >= 1500.0 && p.time_low_s < p.time_s && p.time_s < p.time_high_s, "{np}: {p:?}");
        // The communication part carries the whole width.
        let (lo, hi) = crate::model::fit::forecast::horizon_range(p.tcomm_s, f64::from(np) / 8.0);
        check("low", p.time_low_s, 1500.0 + lo, 1e-12);
        check("high", p.time_high_s, 1500.0 + hi, 1e-12);
    }
    // Compute extrapolated beyond the measured work sizes is widened too.
    let p = f.predict(64, 8192.0).expect("valid");
    assert!(p.notes.contains(&PredictionNote::TcompExtrapolated));
    let (lo, _) = crate::model::fit::forecast::horizon_range(p.time_s, 8.0);
    check("low, all extrapolated", p.time_low_s, lo, 1e-12);
}

#[test]
fn a_slope_of_round_off_is_zero() {
    // Overheads on one line 0.1 s + 0.03 s/MB at np0 = 4 and 8 (np0 = 8 with three work
    // sizes): α does not grow with np, yet least squares leaves a slope of round-off (issue
    // 33: d shown as 1.776e-15). It is 0.
    let seq = [(1024.0, 740.3), (1536.0, 1117.9), (2048.0, 1500.7)];
    let mut cal =
        Calibration { sequential: seq.iter().map(|&(w, t)| SequentialRun::new(w, t)).collect(), parallel: Vec::new() };
    for (np, works) in [(4, &[1024.0, 2048.0][..]), (8, &[1024.0, 1536.0, 2048.0][..])] {
        for &w in works {
            let t = seq.iter().find(|s| s.0 == w).map(|s| s.1).unwrap_or_default();
            cal.parallel.push(ParallelRun::new(np, w, t + 0.1 + 0.03 * w));
        }
    }
    let f = fit(&cal).expect("fits");
    let raw =
        least_squares(&f.alpha.points.iter().map(|p| (p.log2_np0, p.alpha_s)).collect::<Vec<_>>()).expect("line").1;
    assert!(raw != 0.0 && raw.abs() < 1e-9, "the arithmetic leaves round-off: {raw}");
    assert_eq!(f.alpha.d_s, 0.0);
    assert_eq!(fmt_num(f.alpha.d_s, 4), "0");
}

#[test]
fn paper_costs() {
    // Scenario 2 (Table II): A at 1, B at 2 units per CPU-hour.
    let both = cost(&[CpuUse { np: 32, price_per_cpu_hour: 1.0 }, CpuUse { np: 32, price_per_cpu_hour: 2.0 }], 1645.5);
    let a = cost(&[CpuUse { np: 32, price_per_cpu_hour: 1.0 }], 1645.5);
    let b_alone = cost(&[CpuUse { np: 32, price_per_cpu_hour: 2.0 }], 281.0);
    // 32 · 1645.5 / 3600 = 14.62666… CPU-hours on each cluster.
    let cases = [
        ("A part", a.cost, 14.626_666_666_666_667),
        ("A+B", both.cost, 3.0 * 14.626_666_666_666_667),
        ("A+B CPU-hours", both.cpu_hours, 64.0 * 1645.5 / 3600.0),
        ("B alone", b_alone.cost, 32.0 * 281.0 / 3600.0 * 2.0),
    ];
    for (name, got, want) in cases {
        check(name, got, want, 1e-12);
    }
    // The paper's figures, as printed: 14.63 + 29.25 = 43.88 against 5.00, ratio 8.8.
    assert_eq!(fmt_num(a.cost, 4), "14.63");
    assert_eq!(fmt_num(both.cost - a.cost, 4), "29.25");
    assert_eq!(fmt_num(both.cost, 4), "43.88");
    assert_eq!(fmt_num(b_alone.cost, 3), "5");
    assert_eq!(fmt_num(both.cost / b_alone.cost, 2), "8.8");
}

#[test]
fn least_squares_through_two_points_is_the_recipe() {
    let pairs = [
        [(2048.0, 80.0), (1024.0, 60.0)],
        [(3.0, 60.0), (2.0, 40.0)],
        [(0.1, 1e-3), (1e4, 7.0)],
        [(512.0, 200.0), (513.0, 150.5)],
    ];
    for [(x1, y1), (x2, y2)] in pairs {
        let slope = (y2 - y1) / (x2 - x1);
        let intercept = y1 - slope * x1;
        let (i, s) = least_squares(&[(x1, y1), (x2, y2)]).expect("two distinct x");
        check("slope", s, slope, 1e-12);
        check("intercept", i, intercept, 1e-9);
    }
    assert_eq!(least_squares(&[(1.0, 1.0), (1.0, 2.0)]), None);
    assert_eq!(least_squares(&[(1.0, 1.0)]), None);
    // Three points off a line, by hand: x̄ = 2, ȳ = 2, Sxx = 2, Sxy = 1.
    let (i, s) = least_squares(&[(1.0, 1.0), (2.0, 3.0), (3.0, 2.0)]).expect("three points");
    check("slope of three", s, 0.5, 1e-15);
    check("intercept of three", i, 1.0, 1e-15);
}

/// Runs generated from chosen parameters, so the fit must give them back.
fn synthetic(sizes: &[f64], np0s: &[u32], tcomp: (f64, f64), c: f64, d: f64, gammas: &[f64]) -> Calibration {
    let t = |w: f64| tcomp.0 + tcomp.1 * w;
    Calibration {
        sequential: sizes.iter().map(|&w| SequentialRun::new(w, t(w))).collect(),
        parallel: np0s
            .iter()
            .zip(gammas)
            .flat_map(|(&np, &g)| sizes.iter().map(move |&w| (np, w, g)))
            .map(|(np, w, g)| ParallelRun::new(np, w, t(w) + c + d * f64::from(np).log2() + g * w))
            .collect(),
    }
}

#[test]
fn three_np0_on_an_exact_line() {
    let cal = synthetic(&[500.0, 1000.0, 1500.0], &[4, 8, 16], (10.0, 0.7), 5.0, 12.5, &[0.01, 0.02, 0.03]);
    let f = fit(&cal).expect("valid");
    let cases = [
        ("c", f.alpha.c_s, 5.0),
        ("d", f.alpha.d_s, 12.5),
        ("gamma = gamma(16)", f.gamma_s_per_mb, 0.03),
        ("alpha(8)", f.per_np0[1].alpha_s, 5.0 + 12.5 * 3.0),
        ("Tcomp slope", f.tcomp.slope_s_per_mb, 0.7),
        ("Tcomp intercept", f.tcomp.intercept_s, 10.0),
        (
            "T(128, 750 MB)",
            f.predict(128, 750.0).expect("valid").time_s,
            10.0 + 0.7 * 750.0 + 5.0 + 12.5 * 7.0 + 0.03 * 750.0,
        ),
    ];
    for (name, got, want) in cases {
        check(name, got, want, 1e-9);
    }
    assert_eq!(f.gamma_np0, 16);
    assert_eq!(f.alpha.points.len(), 3);
    for p in &f.alpha.points {
        check("alpha residual", p.residual_s, 0.0, 1e-9);
    }
}

#[test]
fn residuals_are_shown_and_measured_sizes_are_exact() {
    let mut cal = paper_cal();
    // A third sequential size off the line through the other two (which has slope 0.740234…).
    cal.sequential.push(SequentialRun::new(1536.0, 1100.0));
    cal.parallel.push(ParallelRun::new(8, 1536.0, 1200.0));
    let f = fit(&cal).expect("valid");
    // Least squares through (1024, 740), (1536, 1100), (2048, 1500): x̄ = 1536, ȳ = 1113⅓,
    // Sxx = 2·512², Sxy = 512·(1500 − 740) → slope 760/1024, intercept ȳ − slope·1536.
    let slope = 760.0 / 1024.0;
    let intercept = 3340.0 / 3.0 - slope * 1536.0;
    check("slope", f.tcomp.slope_s_per_mb, slope, 1e-12);
    check("intercept", f.tcomp.intercept_s, intercept, 1e-9);
    let r: f64 = f.tcomp.points.iter().map(|p| p.residual_s).sum();
    check("residuals sum to zero", r, 0.0, 1e-9);
    let mid = f.tcomp.points.iter().find(|p| p.work_mb == 1536.0).expect("measured");
    check("residual at 1536", mid.residual_s, 1100.0 - (intercept + slope * 1536.0), 1e-9);
    // At a measured size the measured time is used, elsewhere the line.
    let at = f.predict(8, 1536.0).expect("valid");
    check("Tcomp at a measured size", at.tcomp_s, 1100.0, 0.0);
    assert!(!at.notes.contains(&PredictionNote::TcompFromLine));
    let off = f.predict(8, 1800.0).expect("valid");
    check("Tcomp from the line", off.tcomp_s, intercept + slope * 1800.0, 1e-12);
    assert_eq!(off.notes, vec![PredictionNote::TcompFromLine]);
    let far = f.predict(8, 4096.0).expect("valid");
    assert_eq!(far.notes, vec![PredictionNote::TcompFromLine, PredictionNote::TcompExtrapolated]);
}

#[test]
fn exact_duplicates_are_fine() {
    let mut cal = paper_cal();
    cal.sequential.push(SequentialRun::new(1024.0, 740.0));
    cal.parallel.push(ParallelRun::new(8, 2048.0, 1610.0));
    let f = fit(&cal).expect("repeats that agree are averaged");
    let base = paper_fit();
    assert_eq!((f.alpha.c_s, f.alpha.d_s, f.gamma_s_per_mb), (base.alpha.c_s, base.alpha.d_s, base.gamma_s_per_mb));
    assert_eq!(f.runs.len(), 5);
    assert_eq!(f.tcomp.points.len(), 2);
}

/// An expected error: field, line, column, and pieces of its text.
struct Want {
    field: &'static str,
    line: Option<usize>,
    column: Option<usize>,
    text: &'static [&'static str],
}

fn want(field: &'static str, line: Option<usize>, column: Option<usize>, text: &'static [&'static str]) -> Want {
    Want { field, line, column, text }
}

#[test]
fn bad_inputs_name_the_row() {
    let p = paper_cal;
    let with = |f: &dyn Fn(&mut Calibration)| {
        let mut c = p();
        f(&mut c);
        c
    };
    let cases: Vec<(&str, Calibration, Want)> = vec![
        (
            "non-finite work",
            with(&|c| c.sequential[1].work_mb = f64::NAN),
            want(SEQUENTIAL_FIELD, None, Some(1), &["row 2:", "work", "not a finite number"]),
        ),
        (
            "non-finite time",
            with(&|c| c.parallel[2].time_s = f64::INFINITY),
            want(PARALLEL_FIELD, None, Some(3), &["row 3:", "time", "not a finite number"]),
        ),
        (
            "negative time at a known line",
            with(&|c| {
                c.parallel[1].time_s = -3.0;
                c.parallel[1].line = Some(7);
            }),
            want(PARALLEL_FIELD, Some(7), Some(3), &["line 7", "time (s) must be greater than 0, found -3"]),
        ),
        (
            "zero time",
            with(&|c| c.sequential[0].time_s = 0.0),
            want(SEQUENTIAL_FIELD, None, Some(2), &["row 1:", "greater than 0"]),
        ),
        (
            "zero work",
            with(&|c| c.parallel[0].work_mb = 0.0),
            want(PARALLEL_FIELD, None, Some(2), &["row 1:", "work (MB per process)"]),
        ),
        (
            "np below 2",
            with(&|c| c.parallel[3].np = 1),
            want(PARALLEL_FIELD, None, Some(1), &["row 4:", "np must be at least 2", "found 1"]),
        ),
        (
            "one sequential size",
            with(&|c| {
                c.sequential.remove(1);
            }),
            want(
                SEQUENTIAL_FIELD,
                None,
                None,
                &["only one work size (2048 MB)", "a second per-process size is needed", "1024 MB"],
            ),
        ),
        (
            "one np0",
            with(&|c| c.parallel.truncate(2)),
            want(PARALLEL_FIELD, None, None, &["only one process count (np0 = 4)"]),
        ),
        (
            "no sequential run at that size",
            with(&|c| c.parallel.push(ParallelRun::new(8, 512.0, 300.0))),
            want(PARALLEL_FIELD, None, Some(2), &["row 5:", "no sequential run at 512 MB", "not interpolated"]),
        ),
        (
            "sequential repeat with another time",
            with(&|c| c.sequential.push(SequentialRun::new(2048.0, 1510.0))),
            want(
                SEQUENTIAL_FIELD,
                None,
                None,
                &["row 3:", "same work size (2048 MB) as row 1", "1500 s there, 1510 s here"],
            ),
        ),
        (
            "parallel repeat with another time",
            with(&|c| {
                c.parallel[0].line = Some(10);
                let mut r = ParallelRun::new(4, 2048.0, 1590.0);
                r.line = Some(14);
                c.parallel.push(r);
            }),
            want(PARALLEL_FIELD, Some(14), None, &["same np and work size (4, 2048 MB) as line 10", "different time"]),
        ),
        (
            "parallel faster than its sequential part",
            with(&|c| c.parallel[2].time_s = 1400.0),
            want(
                PARALLEL_FIELD,
                None,
                Some(3),
                &["row 3:", "faster than its sequential part", "Tcomp = 1500 s", "-100"],
            ),
        ),
        (
            "np0 with one work size",
            with(&|c| {
                c.parallel.remove(3);
            }),
            want(PARALLEL_FIELD, None, None, &["np0 = 8 has runs at only one work size (2048 MB)", "1024 MB"]),
        ),
        ("no runs", Calibration::default(), want(SEQUENTIAL_FIELD, None, None, &["no sequential runs"])),
        ("no runs (parallel)", Calibration::default(), want(PARALLEL_FIELD, None, None, &["no parallel runs"])),
    ];
    for (name, cal, w) in cases {
        let errors = fit(&cal).expect_err(name);
        let hit = errors.iter().any(|e| {
            let text = e.to_string();
            e.field == w.field && e.line == w.line && e.column == w.column && w.text.iter().all(|t| text.contains(t))
        });
        assert!(hit, "{name}: no error like {:?} {:?} {:?} in {errors:#?}", w.field, w.line, w.text);
    }
}

#[test]
fn every_problem_is_reported_at_once() {
    let mut cal = paper_cal();
    cal.sequential[0].time_s = -1.0;
    cal.parallel[1].np = 0;
    cal.parallel[3].time_s = 1.0;
    let errors = fit(&cal).expect_err("three bad rows");
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    for piece in
        ["sequential runs: row 1:", "parallel runs: row 2: np", "parallel runs: row 4: faster", "only one work size"]
    {
        assert!(text.iter().any(|t| t.contains(piece)), "{piece} missing from {text:#?}");
    }
}

#[test]
fn predictions_at_the_edges() {
    let f = paper_fit();
    assert!(f.predict(0, 2048.0).is_err());
    for w in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(f.predict(8, w).is_err(), "work {w}");
    }
    let one = f.predict(1, 2048.0).expect("valid");
    assert_eq!((one.tcomm_s, one.time_s, one.notes.clone()), (0.0, 1500.0, vec![PredictionNote::SingleProcess]));

    let mut neg = paper_fit();
    neg.alpha.c_s = -1000.0;
    let p = neg.predict(64, 2048.0).expect("clamped, not an error");
    assert_eq!((p.tcomm_s, p.time_s), (0.0, 1500.0));
    assert!(p.notes.contains(&PredictionNote::TcommClampedAtZero));
    neg.tcomp.intercept_s = -1.0e6;
    let q = neg.predict(64, 100.0).expect("clamped, not an error");
    assert_eq!(q.tcomp_s, 0.0);
    assert!(q.notes.contains(&PredictionNote::TcompClampedAtZero));

    let mut huge = paper_fit();
    huge.gamma_s_per_mb = 1e300;
    assert!(huge.predict(8, 1e300).is_err(), "overflow is an error, not infinity");
}

#[test]
fn problem_sizes_and_bytes_per_point() {
    let p = Problem { n: 65536, bytes_per_point: 32.0 };
    let cases = [
        ("64 processes on 65536²", p.work_mb(64), 2048.0),
        ("32 processes on 65536²", p.work_mb(32), 4096.0),
        ("32 processes on 32768²", Problem { n: 32768, bytes_per_point: 32.0 }.work_mb(32), 1024.0),
        (
            "3 processes on 10 rows: 4 rows on the fullest",
            Problem { n: 10, bytes_per_point: 1.0 }.work_mb(3),
            40.0 / BYTES_PER_MB,
        ),
        ("bytes per point, paper", bytes_per_point(2048.0, 1024, 65536).expect("valid"), 32.0),
        ("bytes per point, sequential N̄/2", bytes_per_point(1024.0, 512, 65536).expect("valid"), 32.0),
    ];
    for (name, got, want) in cases {
        check(name, got, want, 1e-12);
    }
    assert!(bytes_per_point(2048.0, 0, 65536).is_err());
    assert!(bytes_per_point(-1.0, 1, 1).is_err());
    assert!(bytes_per_point(1.0, 1, 0).is_err());
    assert_eq!(Problem { n: 1, bytes_per_point: 32.0 }.check().len(), 1);
    assert_eq!(Problem { n: 8, bytes_per_point: f64::NAN }.check().len(), 1);
}

fn cluster_a(fabric: &str) -> ClusterSide {
    ClusterSide {
        name: "A".into(),
        fabric: fabric.into(),
        free_procs: 64,
        procs_per_node: 1,
        memory_per_node_mb: 2048.0,
        price_per_cpu_hour: 1.0,
        economics: Default::default(),
    }
}

fn cluster_b(fabric: &str) -> ClusterSide {
    ClusterSide {
        name: "B".into(),
        fabric: fabric.into(),
        free_procs: 32,
        procs_per_node: 4,
        memory_per_node_mb: 8192.0,
        price_per_cpu_hour: 2.0,
        economics: Default::default(),
    }
}

/// The worked example's calibration with every time scaled (a faster or slower machine).
fn scaled_fit(k: f64) -> Fit {
    let mut cal = paper_cal();
    cal.sequential.iter_mut().for_each(|r| r.time_s *= k);
    cal.parallel.iter_mut().for_each(|r| r.time_s *= k);
    fit(&cal).expect("valid")
}

#[test]
fn memory_feasibility_is_data() {
    let f = paper_fit();
    let big = Problem { n: 65536, bytes_per_point: 32.0 };
    let b = cluster_b("Myrinet");
    // Paper, Table I: 65536² on 32 cores of B needs 4 GB per core, B has 2 GB.
    match plan_alone(Side { cluster: &b, fit: &f }, 32, &big).expect("valid input") {
        Outcome::Infeasible(o) => {
            assert_eq!(
                o.reason,
                Infeasibility::MemoryPerProcess { cluster: "B".into(), need_mb: 4096.0, have_mb: 2048.0 }
            );
            assert!(o.reason.text().contains("4096 MB per process on B"), "{}", o.reason.text());
        }
        Outcome::Feasible(p) => panic!("B alone cannot hold 65536²: {p:?}"),
    }
    let a = cluster_a("Fast Ethernet");
    match plan_alone(Side { cluster: &a, fit: &f }, 64, &big).expect("valid input") {
        Outcome::Feasible(p) => {
            check("2048 MB fits exactly", p.parts[0].prediction.work_mb, 2048.0, 0.0);
            check("T(64) of the worked example", p.time_s, 1670.0, 1e-9);
            check("cost", p.cost, 64.0 * 1670.0 / 3600.0, 1e-12);
        }
        Outcome::Infeasible(o) => panic!("A on 64 holds 65536²: {o:?}"),
    }
    match plan_alone(Side { cluster: &a, fit: &f }, 128, &big).expect("valid input") {
        Outcome::Infeasible(o) => {
            assert!(matches!(o.reason, Infeasibility::NotEnoughFreeProcs { np: 128, free_procs: 64, .. }))
        }
        Outcome::Feasible(_) => panic!("only 64 free"),
    }
    assert_eq!(cluster_a("x").max_rows_per_process(&big), 1024);
    assert_eq!(cluster_b("x").max_rows_per_process(&big), 1024);
    let mut bad = cluster_a("x");
    bad.procs_per_node = 0;
    assert!(plan_alone(Side { cluster: &bad, fit: &f }, 2, &big).is_err());
}

#[test]
fn split_gives_the_faster_cluster_more_rows() {
    let (fa, fb) = (scaled_fit(1.0), scaled_fit(0.5));
    let (a, b) = (cluster_a("Fast Ethernet"), cluster_b("Fast Ethernet"));
    let problem = Problem { n: 32768, bytes_per_point: 32.0 };
    let out =
        plan_pair(Side { cluster: &a, fit: &fa }, 32, Side { cluster: &b, fit: &fb }, 32, &problem).expect("valid");
    let Outcome::Feasible(p) = out else { panic!("32 + 32 hold 32768²: {out:?}") };
    assert_eq!(p.parts[0].rows + p.parts[1].rows, 32768);
    assert!(p.parts[1].rows_per_process > p.parts[0].rows_per_process, "{p:#?}");
    let Some(EvenSplit::Feasible { rows_per_process, time_s, .. }) = p.even_split else { panic!("even split fits") };
    assert_eq!(rows_per_process, 512);
    assert!(p.time_s < time_s, "best {} vs even {}", p.time_s, time_s);
    check("T = max(T_A, T_B)", p.time_s, p.parts[0].prediction.time_s.max(p.parts[1].prediction.time_s), 0.0);
    // A fabric that only one side names does not join them.
    let b_myri = cluster_b("Myrinet");
    let out = plan_pair(Side { cluster: &a, fit: &fa }, 32, Side { cluster: &b_myri, fit: &fb }, 32, &problem)
        .expect("valid");
    assert!(matches!(out, Outcome::Infeasible(InfeasibleOption { reason: Infeasibility::FabricNotShared { .. }, .. })));
}

/// The best integer split by trying every number of rows on A.
fn brute_force_split(a: &SideCtx, ca: &Cand, b: &SideCtx, cb: &Cand) -> Option<f64> {
    let (n, pa, pb) = (a.n, u64::from(ca.np), u64::from(cb.np));
    if pa + pb > n {
        return None;
    }
    (pa..=n - pb)
        .filter_map(|rows_a| {
            let (ra, rb) = (ceil_div(rows_a, pa), ceil_div(n - rows_a, pb));
            (ra <= a.max_rows && rb <= b.max_rows).then(|| a.time(ca, ra).max(b.time(cb, rb)))
        })
        .min_by(f64::total_cmp)
}

/// A calibration from chosen parameters: sizes w1 and k·w1, Tcomp = i + s·work,
/// Tcomm = a4 + g4·work on 4 processes and a8 + g8·work on 8.
#[allow(clippy::too_many_arguments)]
fn make_fit(w1: f64, k: f64, i: f64, s: f64, a4: f64, a8: f64, g4: f64, g8: f64) -> Fit {
    let w2 = w1 * k;
    let t = |w: f64| i + s * w;
    let cal = Calibration {
        sequential: vec![SequentialRun::new(w1, t(w1)), SequentialRun::new(w2, t(w2))],
        parallel: vec![
            ParallelRun::new(4, w1, t(w1) + a4 + g4 * w1),
            ParallelRun::new(4, w2, t(w2) + a4 + g4 * w2),
            ParallelRun::new(8, w1, t(w1) + a8 + g8 * w1),
            ParallelRun::new(8, w2, t(w2) + a8 + g8 * w2),
        ],
    };
    fit(&cal).unwrap_or_else(|e| panic!("generated calibrations are valid: {e:?}"))
}

prop_compose! {
    /// A valid calibration whose time grows with work (c and d of any sign).
    fn arb_fit()(w1 in 1.0f64..1000.0, k in 1.1f64..4.0, i in 0.0f64..100.0, s in 0.01f64..2.0,
                 a4 in 0.0f64..200.0, a8 in 0.0f64..200.0, g4 in 0.0f64..0.1, g8 in 0.0f64..0.1) -> Fit {
        make_fit(w1, k, i, s, a4, a8, g4, g8)
    }
}

prop_compose! {
    /// As `arb_fit`, with c ≥ 0 and d ≥ 0: α(8) = α(4)·(1 + u/2) gives d = α(8) − α(4) ≥ 0
    /// and c = 3·α(4) − 2·α(8) ≥ 0.
    fn arb_growing_alpha_fit()(w1 in 1.0f64..1000.0, k in 1.1f64..4.0, i in 0.0f64..100.0, s in 0.01f64..2.0,
                               a4 in 0.0f64..200.0, u in 0.0f64..1.0, g4 in 0.0f64..0.1, g8 in 0.0f64..0.1) -> Fit {
        make_fit(w1, k, i, s, a4, a4 * (1.0 + u / 2.0), g4, g8)
    }
}

fn side(name: &str, free: u32, mem_mb: f64, price: f64) -> ClusterSide {
    ClusterSide {
        name: name.into(),
        fabric: "Fast Ethernet".into(),
        free_procs: free,
        procs_per_node: 1,
        memory_per_node_mb: mem_mb,
        price_per_cpu_hour: price,
        economics: Default::default(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn split_is_the_brute_force_optimum_and_never_worse_than_even(
        fa in arb_fit(), fb in arb_fit(), n in 2u32..1500, pa in 1u32..40, pb in 1u32..40,
        mem_a in 0.3f64..3.0, mem_b in 0.3f64..3.0, bpp in 100.0f64..1e5,
    ) {
        // Rows heavy enough that the balance point, not α alone, decides; memory a multiple
        // of what the even split needs, so both limits sometimes bind and sometimes not.
        let problem = Problem { n, bytes_per_point: bpp };
        let even_mb = problem.work_mb_for_rows(ceil_div(u64::from(n), u64::from(pa + pb)));
        let (mem_a, mem_b) = (mem_a * even_mb, mem_b * even_mb);
        let (sa, sb) = (side("A", 64, mem_a, 1.0), side("B", 64, mem_b, 2.0));
        let (a, b) = (SideCtx::new(&sa, &fa, &problem), SideCtx::new(&sb, &fb, &problem));
        let (ca, cb) = (a.cand(pa), b.cand(pb));
        let got = split_exact(&a, &ca, &b, &cb);
        match (got, brute_force_split(&a, &ca, &b, &cb)) {
            (Ok(s), Some(t)) => {
                prop_assert!((s.time_s - t).abs() <= 1e-9 * t.max(1.0), "split {} vs brute force {}", s.time_s, t);
                prop_assert_eq!(s.rows_a + s.rows_b, u64::from(n));
                prop_assert!(s.r_a <= a.max_rows && s.r_b <= b.max_rows);
                if let EvenSplit::Feasible { time_s, .. } = even_split(&a, &ca, &b, &cb) {
                    prop_assert!(s.time_s <= time_s + 1e-9 * time_s, "best {} worse than even {}", s.time_s, time_s);
                }
            }
            (Err(_), None) => {}
            (g, t) => prop_assert!(false, "split {:?} but brute force {:?}", g, t),
        }
    }

    #[test]
    fn cost_grows_with_np_and_price(np in 1u32..10_000, extra in 1u32..1000, price in 0.0f64..100.0,
                                    more in 0.001f64..10.0, t in 0.001f64..1e6) {
        let c = |np: u32, price: f64| cost(&[CpuUse { np, price_per_cpu_hour: price }], t);
        prop_assert!(c(np + extra, price).cpu_hours > c(np, price).cpu_hours);
        prop_assert!(c(np + extra, price).cost >= c(np, price).cost);
        prop_assert!(c(np, price + more).cost > c(np, price).cost);
    }

    #[test]
    fn cpu_hours_of_a_fixed_problem_grow_with_np(f in arb_growing_alpha_fit(), k in 1u32..8, log_n in 12u32..16) {
        // With Tcomp intercept, c + d·log2(np) and γ all ≥ 0, np·T(np) grows with np.
        prop_assert!(f.alpha.c_s >= -1e-9 && f.alpha.d_s >= -1e-9 && f.tcomp.intercept_s >= -1e-9);
        let problem = Problem { n: 1 << log_n, bytes_per_point: 32.0 };
        let s = side("A", 1 << 12, 1e9, 1.0);
        let hours = |np: u32| match plan_alone(Side { cluster: &s, fit: &f }, np, &problem) {
            Ok(Outcome::Feasible(p)) => Some(p.cpu_hours),
            _ => None,
        };
        let (small, large) = (hours(1 << k), hours(1 << (k + 1)));
        prop_assert!(small.is_some() && large.is_some());
        if let (Some(small), Some(large)) = (small, large) {
            prop_assert!(large >= small * (1.0 - 1e-12), "np {}: {} CPU-hours, twice as many: {}", 1 << k, small, large);
        }
    }

    #[test]
    fn predictions_are_finite(f in arb_fit(), np in 1u32..=u32::MAX, work in 1e-6f64..1e9) {
        let p = f.predict(np, work);
        prop_assert!(p.is_ok());
        if let Ok(p) = p {
            for x in [p.tcomp_s, p.tcomm_s, p.time_s] {
                prop_assert!(x.is_finite() && x >= 0.0);
            }
        }
    }
}

fn planner_cluster(name: &str, free: u32, ppn: u32, mem: f64, price: f64, fits: &[(&str, f64)]) -> Cluster {
    Cluster {
        name: name.into(),
        free_procs: free,
        procs_per_node: ppn,
        memory_per_node_mb: mem,
        price_per_cpu_hour: price,
        fabrics: fits.iter().map(|&(f, k)| FabricFit { fabric: f.into(), fit: scaled_fit(k) }).collect(),
        economics: Default::default(),
    }
}

/// Table II's setting: 32 free on each, A one process per 2 GB node, B four per 8 GB node.
fn scenario2() -> PlannerInput {
    PlannerInput {
        clusters: vec![
            planner_cluster("A", 32, 1, 2048.0, 1.0, &[("Fast Ethernet", 1.0), ("Myrinet", 0.7)]),
            planner_cluster("B", 32, 4, 8192.0, 2.0, &[("Fast Ethernet", 0.6), ("Myrinet", 0.4)]),
        ],
        shared_fabrics: vec!["Fast Ethernet".into()],
        problem: Problem { n: 65536, bytes_per_point: 32.0 },
        candidate_np: None,
        pair_candidate_np: None,
    }
}

#[test]
fn planner_scenarios() {
    let report = plan(&scenario2()).expect("valid");
    assert!(report.ranking.windows(2).all(|w| w[0].time_s <= w[1].time_s), "ranked by time");
    // 65536² needs 4 GB per process on 32 of either cluster alone: only A+B runs it.
    assert!(!report.ranking.is_empty());
    for p in &report.ranking {
        assert_eq!(p.parts.len(), 2, "only A+B holds 65536² with 32 + 32: {p:#?}");
        assert_eq!(p.fabric, "Fast Ethernet", "A+B only over the shared fabric");
        assert_eq!(p.parts.iter().map(|q| q.rows).sum::<u64>(), 65536);
    }
    assert!(report.infeasible.iter().any(|o| o.fabric == "Myrinet"
        && o.assignments == vec![Assignment { cluster: "B".into(), np: 32 }]
        && matches!(o.reason, Infeasibility::MemoryPerProcess { need_mb, have_mb, .. } if need_mb == 4096.0 && have_mb == 2048.0)));
    let top = &report.ranking[0];
    assert_eq!((top.parts[0].np, top.parts[1].np), (32, 32));
    let sum: f64 = top.parts.iter().map(|q| q.cost).sum();
    check("cost is the sum of the parts", top.cost, sum, 1e-12);
    check("cost by the formula", top.cost, (32.0 * 1.0 + 32.0 * 2.0) * top.time_s / 3600.0, 1e-12);

    let r = report.resolution.expect("something fits");
    assert_eq!(r.largest.n, 65536);
    assert_eq!(r.largest.best, report.ranking[0], "the fastest option at the largest N");
    let smaller = r.smaller.expect("32768 fits");
    assert_eq!(smaller.n, 32768);
    // At 32768² the fastest is B alone over Myrinet (the fastest fit, 1 GB per process fits).
    let rank_small = Planner::new(&scenario2()).rank(32768).0;
    assert_eq!(smaller.best, rank_small[0]);
    check("cost ratio", r.cost_ratio.expect("priced"), r.largest.best.cost / smaller.best.cost, 1e-12);
}

#[test]
fn planner_rejects_bad_input() {
    let cases: Vec<(&str, PlannerInput, &str)> = vec![
        ("no clusters", PlannerInput { clusters: vec![], ..scenario2() }, "one or two clusters"),
        (
            "shared fabric not calibrated",
            PlannerInput { shared_fabrics: vec!["Myrinet".into(), "InfiniBand".into()], ..scenario2() },
            "InfiniBand has no calibration on cluster A",
        ),
        ("candidate 0", PlannerInput { candidate_np: Some(vec![0, 4]), ..scenario2() }, "0 processes"),
        (
            "too many pairs",
            PlannerInput { pair_candidate_np: Some((1..=200).collect()), ..scenario2() },
            "200 × 200 = 40000 pairs",
        ),
        ("bad N", PlannerInput { problem: Problem { n: 0, bytes_per_point: 32.0 }, ..scenario2() }, "grid side"),
        (
            "zero procs per node",
            {
                let mut p = scenario2();
                p.clusters[1].procs_per_node = 0;
                p
            },
            "cluster B: processes per node",
        ),
        (
            "non-finite fit",
            {
                let mut p = scenario2();
                p.clusters[0].fabrics[0].fit.gamma_s_per_mb = f64::NAN;
                p
            },
            "cluster A: calibration over Fast Ethernet",
        ),
    ];
    for (name, input, piece) in cases {
        let errors = plan(&input).expect_err(name);
        assert!(errors.iter().any(|e| e.to_string().contains(piece)), "{name}: {errors:#?}");
    }
}

#[test]
fn planner_best_at_agrees_with_the_ranking() {
    let mut input = scenario2();
    input.clusters[0].free_procs = 64;
    input.shared_fabrics = vec!["Fast Ethernet".into(), "Myrinet".into()];
    input.candidate_np = Some((1..=64).collect());
    input.pair_candidate_np = Some((1..=64).step_by(3).collect());
    let planner = Planner::new(&input);
    for n in [256, 4096, 32768, 65536] {
        let (ranking, _) = planner.rank(n);
        assert_eq!(planner.best_at(n).as_ref(), ranking.first(), "N = {n}");
    }
}

#[test]
fn huge_bytes_per_point_and_prices_are_refused() {
    // 1e308 bytes per point made the memory need infinite; a price of 1e308 an infinite cost
    // and a NaN cost ratio.
    let p = Problem { n: 65536, bytes_per_point: 1e308 };
    assert!(p.check().iter().any(|e| e.field == "bytes per grid point" && e.message.contains("at most 1e9")));
    let mut a = cluster_a("Myrinet");
    a.price_per_cpu_hour = 1e308;
    assert!(a.check().iter().any(|e| e.field.contains("price per CPU-hour")));
    // At the bounds, memory and costs are finite.
    let p = Problem { n: u32::MAX, bytes_per_point: MAX_BYTES_PER_POINT };
    assert!(p.check().is_empty());
    assert!((p.row_mb() * f64::from(p.n)).is_finite());
}

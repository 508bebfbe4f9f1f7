//! `make bench`: times the full multigrid planner natively (`benchmark_planner_input`).
//! Ignored in the normal test run; prints its figures.

mod common;

use scalewise::model::multigrid::page::benchmark_planner_input;
use scalewise::model::multigrid::{
    default_candidates, plan, plan_alone, plan_pair, Cluster, Fit, Outcome, PlannerInput, PlannerReport, Side,
};

/// The report against every option planned on its own, untimed (`plan_alone` for each cluster,
/// fabric and np; `plan_pair` for each shared fabric and pair of the default candidates): the
/// same options, feasible or not, each the same plan, and the ranking fastest first.
fn assert_matches_options_one_by_one(input: &PlannerInput, report: &PlannerReport) {
    let mut outcomes: Vec<Outcome> = Vec::new();
    for c in &input.clusters {
        for f in &c.fabrics {
            let side = c.side(&f.fabric);
            for &np in input.candidate_np.as_ref().expect("the benchmark lists its np") {
                outcomes.push(plan_alone(Side { cluster: &side, fit: &f.fit }, np, &input.problem).expect("an option"));
            }
        }
    }
    let [a, b] = &input.clusters[..] else { panic!("two clusters") };
    for fabric in &input.shared_fabrics {
        fn fit<'a>(c: &'a Cluster, fabric: &str) -> &'a Fit {
            &c.fabrics.iter().find(|f| f.fabric == fabric).expect("calibrated on the shared fabric").fit
        }
        let (side_a, side_b) = (a.side(fabric), b.side(fabric));
        for &np_a in &default_candidates(a.free_procs) {
            for &np_b in &default_candidates(b.free_procs) {
                let (sa, sb) =
                    (Side { cluster: &side_a, fit: fit(a, fabric) }, Side { cluster: &side_b, fit: fit(b, fabric) });
                outcomes.push(plan_pair(sa, np_a, sb, np_b, &input.problem).expect("an option"));
            }
        }
    }
    let (feasible, infeasible): (Vec<_>, Vec<_>) =
        outcomes.into_iter().partition(|o| matches!(o, Outcome::Feasible(_)));
    assert_eq!(
        (report.ranking.len(), report.infeasible.len()),
        (feasible.len(), infeasible.len()),
        "options ranked and infeasible"
    );
    let key = |fabric: &str, parts: Vec<(String, u32)>| (fabric.to_string(), parts);
    let ranked: std::collections::HashMap<_, _> = report
        .ranking
        .iter()
        .map(|p| (key(&p.fabric, p.parts.iter().map(|x| (x.cluster.clone(), x.np)).collect()), p))
        .collect();
    assert_eq!(ranked.len(), report.ranking.len(), "each option once");
    for o in &feasible {
        let Outcome::Feasible(p) = o else { unreachable!() };
        let k = key(&p.fabric, p.parts.iter().map(|x| (x.cluster.clone(), x.np)).collect());
        assert_eq!(ranked.get(&k).copied(), Some(p), "option {k:?}");
    }
    for o in &infeasible {
        let Outcome::Infeasible(i) = o else { unreachable!() };
        assert!(report.infeasible.contains(i), "infeasible option {i:?}");
    }
    assert!(report.ranking.windows(2).all(|w| w[0].time_s <= w[1].time_s), "fastest first");
}

#[test]
#[ignore]
fn bench_planner_all_np() {
    let input = benchmark_planner_input().expect("benchmark input");
    let mut last = None;
    let mut ms: Vec<f64> = (0..21)
        .map(|_| {
            let t = std::time::Instant::now();
            last = Some(std::hint::black_box(plan(&input).expect("plans")));
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    assert_matches_options_one_by_one(&input, &last.expect("timed"));
    ms.sort_by(f64::total_cmp);
    println!(
        "multigrid planner (2 clusters × 2 fabrics, np 2..=1024, N = 65536), native: median {:.2} ms, min {:.2}, max {:.2} of 21 runs",
        ms[10], ms[0], ms[20]
    );
}

/// The planner page's whole computation for the White Rose preset, as on every keystroke.
#[test]
#[ignore]
fn bench_page_evaluate() {
    use scalewise::model::catalog::presets;
    use scalewise::model::multigrid::page::{presets as page_presets, view};
    let inputs = page_presets().into_iter().find(|p| p.key == "white-rose").expect("the White Rose preset").inputs;
    let catalog = presets();
    let mut last = None;
    let mut ms: Vec<f64> = (0..21)
        .map(|_| {
            let t = std::time::Instant::now();
            last = Some(std::hint::black_box(view(&inputs, &catalog)));
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    // The White Rose preset is the golden file's `multigrid-white-rose` case (tests/golden.rs).
    common::assert_matches_golden_page("multigrid-white-rose", &format!("{:#?}", last.expect("timed")));
    ms.sort_by(f64::total_cmp);
    println!("multigrid page evaluate (White Rose preset), native: median {:.3} ms of 21 runs", ms[10]);
}

//! `make bench`: times the full multigrid planner natively (the same input the browser's
//! `bench_planner` export times). Ignored in the normal test run; prints its figures.

use scalewise::model::multigrid::plan;
use scalewise::model::multigrid::page::benchmark_planner_input;

#[test]
#[ignore]
fn bench_planner_all_np() {
    let input = benchmark_planner_input().expect("benchmark input");
    let mut ms: Vec<f64> = (0..21)
        .map(|_| {
            let t = std::time::Instant::now();
            let report = plan(&input).expect("plans");
            std::hint::black_box(report.ranking.len());
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
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
    use scalewise::model::workspace::catalog::presets;
    use scalewise::model::multigrid::page::{presets as page_presets, view};
    let inputs = page_presets().into_iter().find(|p| p.key == "white-rose").expect("the White Rose preset").inputs;
    let catalog = presets();
    let mut ms: Vec<f64> = (0..21)
        .map(|_| {
            let t = std::time::Instant::now();
            std::hint::black_box(view(&inputs, &catalog));
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    println!("multigrid page evaluate (White Rose preset), native: median {:.3} ms of 21 runs", ms[10]);
}

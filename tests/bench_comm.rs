//! Native timings for the communication page (ignored in the normal test run; prints its
//! figures): clustering the 1000-node benchmark matrix (`gridcast::benchmark_matrix`, the same
//! input a browser benchmark would time) and the page's whole `view` (parse and evaluate) on its default inputs.

use scalewise::model::comm::gridcast::{benchmark_matrix, clusters};

fn median_ms(runs: usize, mut f: impl FnMut()) -> (f64, f64, f64) {
    let mut ms: Vec<f64> = (0..runs)
        .map(|_| {
            let t = std::time::Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    (ms[runs / 2], ms[0], ms[runs - 1])
}

#[test]
#[ignore]
fn bench_clusters_1000() {
    let m = benchmark_matrix(1000);
    let (med, lo, hi) = median_ms(11, || {
        std::hint::black_box(clusters(&m, 0.2).len());
    });
    println!("clusters of a 1000-node matrix, native: median {med:.1} ms, min {lo:.1}, max {hi:.1} of 11 runs");
}

#[test]
#[ignore]
fn bench_comm_page_evaluate() {
    use scalewise::model::workspace::catalog::presets;
    use scalewise::model::comm::page::{default_inputs, view};
    let (inputs, catalog) = (default_inputs(), presets());
    let (med, lo, hi) = median_ms(11, || {
        std::hint::black_box(view(&inputs, &catalog));
    });
    println!("comm page view (OSU sample, 78-node Grid'5000 matrix), native: median {med:.2} ms, min {lo:.2}, max {hi:.2} of 11 runs");
}

#[test]
#[ignore]
fn bench_clusters_of_sorted_edges_1000() {
    // What a keystroke in ρ runs on the sites page: the pairs are sorted once per matrix.
    use scalewise::model::comm::gridcast::{clusters_of_edges, sorted_edges};
    let m = benchmark_matrix(1000);
    let edges = sorted_edges(&m);
    let (med, lo, hi) = median_ms(21, || {
        std::hint::black_box(clusters_of_edges(&m, &edges, 0.2).len());
    });
    println!("clusters of a 1000-node matrix from its sorted pairs, native: median {med:.2} ms, min {lo:.2}, max {hi:.2} of 21 runs");
}

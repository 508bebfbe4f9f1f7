//! Native timings for seed 002's two pages, communication and "Broadcast across sites"
//! (ignored in the normal test run; prints its figures): clustering the 1000-node benchmark
//! matrix (`gridcast::benchmark_matrix`, the same input a browser benchmark would time) and
//! each page's whole `view` (parse and evaluate) on its default inputs.

mod common;

use scalewise::model::sites::gridcast::{benchmark_matrix, clusters, LatencyMatrix, TABLE2_MACHINES};

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

/// The groups `benchmark_matrix(n)` is built of: Table 2's six clusters scaled to n nodes (the
/// first takes what rounding leaves), numbered one cluster after another.
fn table2_groups(n: usize) -> Vec<Vec<usize>> {
    let total: usize = TABLE2_MACHINES.iter().sum();
    let mut sizes = TABLE2_MACHINES.map(|k| k * n / total);
    sizes[0] += n - sizes.iter().sum::<usize>();
    let mut start = 0;
    sizes
        .iter()
        .map(|&k| {
            start += k;
            (start - k..start).collect()
        })
        .collect()
}

/// The clustering of the 1000-node benchmark matrix at ρ = 0.2 is Table 2's six clusters,
/// and each group holds its latencies within 1 + ρ of its smallest (the definition).
fn assert_table2_clusters(m: &LatencyMatrix, groups: &[Vec<usize>]) {
    assert_eq!(groups, table2_groups(m.n).as_slice(), "clusters of the benchmark matrix");
    for g in groups {
        let inside: Vec<f64> =
            g.iter().enumerate().flat_map(|(a, &i)| g[a + 1..].iter().map(move |&j| m.get(i, j))).collect();
        let (lo, hi) = inside.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        assert!(inside.is_empty() || hi <= 1.2 * lo, "a group's latencies {lo}..{hi} are beyond 1 + ρ");
    }
}

#[test]
#[ignore]
fn bench_clusters_1000() {
    let m = benchmark_matrix(1000);
    let mut last = Vec::new();
    let (med, lo, hi) = median_ms(11, || {
        last = std::hint::black_box(clusters(&m, 0.2));
    });
    assert_table2_clusters(&m, &last);
    println!("clusters of a 1000-node matrix, native: median {med:.1} ms, min {lo:.1}, max {hi:.1} of 11 runs");
}

#[test]
#[ignore]
fn bench_comm_page_evaluate() {
    use scalewise::model::catalog::presets;
    use scalewise::model::comm::page::{default_inputs, view};
    let (inputs, catalog) = (default_inputs(), presets());
    let mut last = None;
    let (med, lo, hi) = median_ms(11, || {
        last = Some(std::hint::black_box(view(&inputs, &catalog)));
    });
    // The default inputs are the golden file's `comm-default` case (tests/golden.rs).
    common::assert_matches_golden_page("comm-default", &format!("{:#?}", last.expect("timed")));
    println!("comm page view (OSU sample), native: median {med:.2} ms, min {lo:.2}, max {hi:.2} of 11 runs");
}

#[test]
#[ignore]
fn bench_sites_page_evaluate() {
    use scalewise::model::catalog::presets;
    use scalewise::model::sites::page::{default_inputs, view};
    let (inputs, catalog) = (default_inputs(), presets());
    let mut last = None;
    let (med, lo, hi) = median_ms(11, || {
        last = Some(std::hint::black_box(view(&inputs, &catalog)));
    });
    // The default inputs are the golden file's `sites-default` case (tests/golden.rs).
    common::assert_matches_golden_page("sites-default", &format!("{:#?}", last.expect("timed")));
    println!(
        "sites page view (78-node Grid'5000 matrix), native: median {med:.2} ms, min {lo:.2}, max {hi:.2} of 11 runs"
    );
}

#[test]
#[ignore]
fn bench_clusters_of_sorted_edges_1000() {
    // What a keystroke in ρ runs on the sites page: the pairs are sorted once per matrix.
    use scalewise::model::sites::gridcast::{clusters_of_edges, sorted_edges};
    let m = benchmark_matrix(1000);
    let edges = sorted_edges(&m);
    let mut last = Vec::new();
    let (med, lo, hi) = median_ms(21, || {
        last = std::hint::black_box(clusters_of_edges(&m, &edges, 0.2));
    });
    assert_table2_clusters(&m, &last);
    assert_eq!(last, clusters(&m, 0.2), "the same groups as clustering the matrix itself");
    println!("clusters of a 1000-node matrix from its sorted pairs, native: median {med:.2} ms, min {lo:.2}, max {hi:.2} of 21 runs");
}

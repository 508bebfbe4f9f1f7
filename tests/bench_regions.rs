//! `cargo test --release --test bench_regions -- --ignored --nocapture`: how long the
//! two-regions page takes to evaluate and to draw its charts (to SVG) natively, for the
//! default 4 problem sizes × 1,000 bandwidths.

use std::time::Instant;

use scalewise::charts::regions::{speedup_vs_n, sweep_n_star, sweep_speedup};
use scalewise::charts::to_svg;
use scalewise::model::catalog::presets;
use scalewise::model::regions::page::{default_inputs, parse, view, Field};
use scalewise::model::workspace::PageField;

fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut ms: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    ms[runs / 2]
}

#[test]
#[ignore]
fn regions_page_speed() {
    let catalog = presets();
    let mut inputs = default_inputs();
    let mut k = 0;
    let eval = median_ms(41, || {
        k += 1;
        inputs.insert(Field::RegionBw.key().into(), format!("{}", 1.0 + k as f64 / 10.0));
        assert_eq!(view(&inputs, &catalog).cases.len(), 4);
    });
    let parsing = median_ms(41, || assert!(parse(&inputs).1.is_empty()));
    let view = view(&default_inputs(), &catalog);
    let charts = median_ms(21, || {
        for c in [speedup_vs_n(&view, false), sweep_speedup(&view), sweep_n_star(&view)] {
            assert!(to_svg(&c, 640, 400).is_ok());
        }
    });
    println!("regions page, 4 sizes × 1000 bandwidths: view (parse and evaluate) median {eval:.2} ms of 41, of which parsing {parsing:.3} ms; three charts to SVG median {charts:.2} ms of 21");
}

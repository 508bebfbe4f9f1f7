//! Writes a set of Score-P runs (Cube 4 profiles, `model::cube::write`) from known laws, for
//! the browser's timing of the Bottlenecks page and for trying the page by hand:
//!
//!     cargo run --example cube_set -- DIR [RUNS] [LOCATIONS] [CALLPATHS]
//!
//! DIR gets RUNS folders (default 40: five process counts 4 to 64, repetitions `.r1`…), each
//! `app.pN.rK/profile.cubex` with LOCATIONS locations (default 64) and CALLPATHS call paths
//! (default 500: `main`, then regions under it, each with children, three levels deep). A
//! region's exclusive time per location is its own law of p (falling as 1/p, rising as log₂ p
//! or as p, or flat) with ±1 % of deterministic noise; rank 0 is slower in a tenth of them.

use scalewise::model::cube::{write, DType, Kind, Spec, SpecCnode, SpecMetric, WriteOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: cube_set DIR [RUNS] [LOCATIONS] [CALLPATHS]");
        std::process::exit(2);
    };
    let num = |i: usize, default: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (runs, locations, callpaths) = (num(1, 40), num(2, 64), num(3, 500).max(1));
    // The call tree: main, then each new node under one of the first ones, so three levels.
    let mut cnodes = vec![SpecCnode { region: 0, parent: None }];
    let mut regions = vec!["main".to_string()];
    for k in 1..callpaths {
        let parent = if k <= 20 { 0 } else { 1 + (k - 21) % 20 + if k > 420 { 20 } else { 0 } }.min(k - 1);
        regions.push(format!("region_{k}"));
        cnodes.push(SpecCnode { region: k, parent: Some(parent) });
    }
    // Cube wants the call tree in pre-order: children follow their parent's subtree order.
    let order = preorder(&cnodes);
    let cnodes: Vec<SpecCnode> = order
        .iter()
        .map(|&k| SpecCnode {
            region: cnodes[k].region,
            parent: cnodes[k].parent.map(|p| order.iter().position(|&o| o == p).unwrap_or(0)),
        })
        .collect();
    let counts = [4.0f64, 8.0, 16.0, 32.0, 64.0];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut noise = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        1.0 + 0.02 * ((seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5)
    };
    for run in 0..runs {
        let p = counts[run % counts.len()];
        let rep = run / counts.len() + 1;
        let values: Vec<Vec<f64>> = cnodes
            .iter()
            .map(|c| {
                let k = c.region as f64;
                let law = match c.region % 4 {
                    0 => 50.0 / p * (1.0 + k / 100.0),
                    1 => 0.2 * p.log2() * (1.0 + k / 300.0),
                    2 => 0.001 * p * (1.0 + k / 200.0),
                    _ => 0.5 + k / 1000.0,
                };
                (0..locations)
                    .map(|l| law * noise() * if l == 0 && c.region % 10 == 3 { 1.0 + p / 16.0 } else { 1.0 })
                    .collect()
            })
            .collect();
        let spec = Spec {
            metrics: vec![SpecMetric {
                uniq_name: "time".into(),
                disp_name: "Time".into(),
                units: "sec".into(),
                kind: Kind::Exclusive,
                dtype: DType::Double,
                values,
            }],
            regions: regions.clone(),
            cnodes: cnodes.clone(),
            ranks: locations,
            threads: 1,
        };
        let folder = format!("{dir}/app.p{p}.r{rep}");
        let bytes = write(&spec, &WriteOptions { zlib: true, gzip_archive: run % 2 == 0, ..WriteOptions::default() });
        if let Err(e) =
            std::fs::create_dir_all(&folder).and_then(|_| std::fs::write(format!("{folder}/profile.cubex"), bytes))
        {
            eprintln!("cube_set: cannot write {folder}: {e}");
            std::process::exit(1);
        }
    }
}

/// The nodes in pre-order (each node, then its children's subtrees in index order).
fn preorder(cnodes: &[SpecCnode]) -> Vec<usize> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); cnodes.len()];
    let mut roots = Vec::new();
    for (k, c) in cnodes.iter().enumerate() {
        match c.parent {
            Some(p) => children[p].push(k),
            None => roots.push(k),
        }
    }
    let mut out = Vec::with_capacity(cnodes.len());
    let mut stack: Vec<usize> = roots.into_iter().rev().collect();
    while let Some(k) = stack.pop() {
        out.push(k);
        stack.extend(children[k].iter().rev());
    }
    out
}

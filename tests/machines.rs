//! The machine file `data/machines.json` (docs/catalog-data.md): every machine reads into the
//! catalog, every figure names a document of the file with a known kind and a value in range,
//! estimates say their basis, and the count of machines carrying every figure does not fall.

mod common;

use scalewise::model::catalog::{self, Origin};
use scalewise::model::workspace::machines::{self, Figure, FIGURES};

fn file() -> machines::File {
    machines::parse(machines::DATA).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_figure_is_sourced_and_in_range() {
    let f = file();
    let docs: std::collections::BTreeSet<&str> = f.documents.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(docs.len(), f.documents.len(), "a document id is used twice");
    for d in &f.documents {
        assert!(!d.title.trim().is_empty(), "document {} has no title", d.id);
        assert!(!d.date.trim().is_empty(), "document {} has no date", d.id);
    }
    let seeds = catalog::presets();
    let mut ids = std::collections::BTreeSet::new();
    for m in &f.machines {
        assert!(ids.insert(m.id.as_str()), "machine id {} twice", m.id);
        assert!(seeds.clusters.iter().all(|c| c.id != m.id), "{} takes a seed machine's id", m.id);
        assert!(m.kind == "cloud" || m.kind == "centre", "{}: kind {}", m.id, m.kind);
        assert!(!m.name.trim().is_empty() && !m.continent.trim().is_empty(), "{}: name and continent", m.id);
        let check = |key: &str, fig: &Figure| {
            assert!(
                docs.contains(fig.source.as_str()),
                "{}: {key} cites {}, not a document of the file",
                m.id,
                fig.source
            );
            assert!(
                ["measured", "vendor", "estimated"].contains(&fig.kind.as_str()),
                "{}: {key} kind {}",
                m.id,
                fig.kind
            );
            assert!(
                fig.kind != "estimated" || !fig.basis.trim().is_empty(),
                "{}: the estimate {key} says no basis",
                m.id
            );
            let key = key.rsplit(": ").next().unwrap_or(key);
            let range = match key {
                "cores_per_node" => 1.0..=100_000.0,
                "memory_per_node_gb" => 1.0..=100_000.0,
                "core_gflops" => 0.1..=1000.0,
                "memory_bandwidth_gb_s" => 1.0..=100_000.0,
                "node_power_w" => 10.0..=100_000.0,
                "pue" => 1.0..=3.0,
                "carbon_g_per_kwh" => 0.0..=1500.0,
                "gpu_fp64_tflops" => 0.1..=1000.0,
                "latency_us" => 0.05..=10_000.0,
                "bandwidth_mb_s" => 1.0..=10_000_000.0,
                other => panic!("{}: unknown figure {other}", m.id),
            };
            assert!(range.contains(&fig.value), "{}: {key} = {} is outside {range:?}", m.id, fig.value);
        };
        for (key, fig) in m.figures() {
            check(&key, fig);
        }
        if let Some(p) = &m.price {
            assert!(docs.contains(p.source.as_str()), "{}: price cites {}", m.id, p.source);
            assert!(p.amount > 0.0 && p.amount.is_finite(), "{}: price {}", m.id, p.amount);
            assert!(
                p.currency.len() == 3 && p.currency.chars().all(|c| c.is_ascii_uppercase()),
                "{}: currency {}",
                m.id,
                p.currency
            );
            let known = ["node-hour", "core-hour", "gpu-hour"].contains(&p.unit.as_str());
            assert!(
                known || p.unit_node_hours.is_some_and(|h| h > 0.0),
                "{}: the unit {} says not what it buys",
                m.id,
                p.unit
            );
        }
        if !m.nodes.on_demand {
            if let Some(n) = m.nodes.value {
                assert!(docs.contains(m.nodes.source.as_str()), "{}: nodes cite {}", m.id, m.nodes.source);
                assert!(n >= 1.0 && n.fract() == 0.0, "{}: {n} nodes", m.id);
            }
        }
    }
}

#[test]
fn every_machine_reads_into_the_catalog() {
    let f = file();
    let read = machines::clusters(&f);
    let with_cores = f.machines.iter().filter(|m| m.cores_per_node.is_some()).count();
    assert_eq!(read.len(), with_cores, "a machine with a core count was not read");
    let mut all = catalog::presets();
    all.clusters.extend(read.iter().cloned());
    assert_eq!(all.validate(), Ok(()));
    for c in &read {
        assert!(c.seed.is_none() && matches!(c.origin, Origin::Cloud | Origin::Centre), "{}", c.id);
        assert!(c.sources.contains_key("cores_per_node"), "{}", c.id);
    }
    // The seed papers' machines stay, with their seed's number.
    let wrg = all.cluster("wrg-a").expect("wrg-a");
    assert_eq!((wrg.seed, wrg.origin), (Some(0), Origin::Paper));
}

/// How many machines carry every figure (FIGURES and a fabric's latency and bandwidth), and
/// at least how many must: the file may only gain.
#[test]
fn complete_machines_do_not_fall() {
    let f = file();
    let complete: Vec<&str> = f.machines.iter().filter(|m| m.missing().is_empty()).map(|m| m.id.as_str()).collect();
    for m in &f.machines {
        println!("{}: missing {:?}", m.id, m.missing());
    }
    println!(
        "{} of {} machines carry all {} figures and a fabric's: {complete:?}",
        complete.len(),
        f.machines.len(),
        FIGURES.len()
    );
    assert!(f.machines.len() >= 30, "{} machines", f.machines.len());
    assert!(
        complete.len() >= COMPLETE_AT_LEAST,
        "{} complete machines, fewer than {COMPLETE_AT_LEAST}",
        complete.len()
    );
    let gpus = f.machines.iter().filter(|m| m.gpus_per_node.unwrap_or(0) > 0).count();
    assert!(gpus >= 2, "{gpus} GPU partitions");
}

const COMPLETE_AT_LEAST: usize = 24;

/// What the site's pages load (`scalewise catalog --machines`, `machines.json`) reads back as
/// the same clusters: the pages' reader is the catalog's own.
#[test]
fn the_pages_file_reads_back_the_same_machines() {
    let text = serde_json::to_string(machines::machines()).expect("JSON");
    let back: Vec<catalog::Cluster> = serde_json::from_str(&text).expect("reads back");
    assert_eq!(back.as_slice(), machines::machines());
    assert!(back.len() >= 30);
}

/// The planner on a catalog machine by its id (issue 60): every ranked option's node-hours,
/// price, energy and carbon equal a hand calculation from the machine's own figures, for a
/// cloud instance and a centre's system.
#[test]
fn the_planner_bills_catalog_machines_by_hand() {
    let all = machines::full();
    for id in ["azure-hbv3", "archer2"] {
        let m = all.cluster(id).unwrap_or_else(|| panic!("{id} in the catalog"));
        let input = serde_json::json!({"planner": {"n": 8192, "bytes_per_point": 32, "clusters": [{
            "catalog": id, "nodes": 4,
            "fabrics": [{"fabric": m.fabrics[0].name,
                "sequential": [{"work_mb": 512, "time_s": 100}, {"work_mb": 1024, "time_s": 200}],
                "parallel": [{"np": 4, "work_mb": 512, "time_s": 104}, {"np": 4, "work_mb": 1024, "time_s": 206},
                             {"np": 8, "work_mb": 512, "time_s": 106}, {"np": 8, "work_mb": 1024, "time_s": 209}]}]}]}});
        let o = common::run(&["multigrid", "--compact"], &input.to_string());
        assert_eq!(o.status, 0, "{id}: {}", o.stderr);
        let v: serde_json::Value = serde_json::from_str(&o.stdout).expect("JSON");
        let ranking = v["planner"]["ranking"].as_array().expect("a ranking");
        assert!(!ranking.is_empty(), "{id}");
        let (w, pue, g) = (m.node_power_w.expect("power"), m.pue.expect("PUE"), m.carbon_g_per_kwh.expect("carbon"));
        let price = m.price.as_ref().expect("a price");
        let per_unit = price.unit_node_hours(m.cores_per_node, m.gpus_per_node).expect("a unit that says what it buys");
        for p in ranking {
            let np = p["parts"][0]["np"].as_u64().expect("np");
            let nodes = np.div_ceil(u64::from(m.cores_per_node));
            assert_eq!(p["parts"][0]["placement"]["nodes"].as_u64(), Some(nodes), "{id}: whole nodes");
            let hours = p["time_s"].as_f64().expect("time") / 3600.0 * nodes as f64;
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
            assert!(close(p["node_hours"].as_f64().expect("node-hours"), hours), "{id}: {p}");
            let kwh = hours * w * pue / 1000.0;
            assert!(close(p["energy_kwh"].as_f64().expect("energy"), kwh), "{id}: {p}");
            assert!(close(p["co2e_kg"].as_f64().expect("carbon"), kwh * g / 1000.0), "{id}: {p}");
            assert!(close(p["price"]["amount"].as_f64().expect("price"), hours / per_unit * price.amount), "{id}: {p}");
            assert_eq!(p["price"]["currency"], price.currency.as_str());
        }
    }
}

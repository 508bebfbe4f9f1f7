//! `scalewise catalog`: every machine of the catalog as JSON (or `--csv`, a row per machine and
//! fabric): the seed papers' clusters, fabrics and links the Clusters page starts from, and the
//! current machines of `data/machines.json` with each figure's source. A script can edit it and
//! feed clusters to other calculators.

use super::request::output_schema;
use super::{Reply, Schemas, Subcommand};
use crate::model::catalog::{self, Catalog, Cluster, Fabric};
use crate::model::workspace::machines;

pub const COMMAND: Subcommand = Subcommand {
    name: "catalog",
    summary: "print every machine: the seed papers' and today's, each figure with its source (JSON, or --csv)",
    help: "scalewise catalog — every machine of the catalog, with its fabrics, links and sources

USAGE:
    scalewise catalog [FILE|-] [--compact]
    scalewise catalog --csv        (one row per machine and fabric)
    scalewise catalog --machines   (today's machines only, a JSON list of clusters: the file
                                    the site's pages load, machines.json)
    (takes no input; a FILE, if given, must hold JSON and is ignored)

OUTPUT:
    {\"clusters\": [{\"id\", \"name\", \"nodes\", \"cores_per_node\", \"memory_per_node_gb\" (0 = unknown),
                   \"core_gflops\" (FP64 peak of one core; 0 = unknown), \"price_per_cpu_hour\" (in the
                   price's currency per core-hour; 0 = unknown),
                   \"fabrics\": [{\"name\", \"latency_us\", \"bandwidth_mb_s\", \"source\", \"sources\"}],
                   \"notes\", \"preset\",
                   \"seed\" (the seed paper's number for the papers' machines, else null),
                   \"origin\" (paper, cloud, centre or own), \"operator\", \"site\", \"country\", \"continent\",
                   \"on_demand\" (cloud instances: as many nodes as asked, `nodes` is a planning bound),
                   \"gpus_per_node\", \"gpu\",
                   \"price\": {\"amount\", \"currency\" (ISO 4217), \"unit\" (node-hour, core-hour, gpu-hour or the
                             operator's allocation unit), \"date\", \"unit_node_hours\"} or null,
                   \"node_power_w\", \"pue\", \"carbon_g_per_kwh\" (g CO2e per kWh of the site's grid),
                   \"memory_bandwidth_gb_s\" (one node, 10^9 bytes/s), each null when not known,
                   \"sources\": {\"<figure's key>\": {\"source\", \"date\", \"kind\" (measured, vendor or
                                estimated), \"basis\", \"address\"}}}],
     \"links\": [{\"a\", \"b\", \"fabric\": {\"name\", \"latency_us\", \"bandwidth_mb_s\", \"source\"}}]}
    bandwidth_mb_s is in MiB/s (2^20 bytes); a fabric's \"sources\" gives its latency's and
    bandwidth's documents. \"source\" of a seed machine's fabric says which seed a figure comes
    from, or that it is nominal.

EXAMPLE:
    echo '{}' | scalewise catalog --compact
    scalewise catalog --csv > machines.csv
",
    run: |_, _| Ok(Reply::new(machines::full())),
    reads_input: false,
    each: None,
    schema: Schemas { input: None, output: output_schema::<catalog::Catalog> },
};

/// The columns of `--csv`, in order.
pub const CSV_COLUMNS: [&str; 28] = [
    "id",
    "name",
    "origin",
    "seed",
    "operator",
    "site",
    "country",
    "continent",
    "nodes",
    "on_demand",
    "cores_per_node",
    "memory_per_node_gb",
    "core_gflops",
    "memory_bandwidth_gb_s",
    "gpus_per_node",
    "gpu",
    "price_amount",
    "price_currency",
    "price_unit",
    "price_date",
    "price_per_cpu_hour",
    "node_power_w",
    "pue",
    "carbon_g_per_kwh",
    "fabric",
    "latency_us",
    "bandwidth_mib_s",
    "fabric_source",
];

fn opt(x: Option<f64>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

fn row(c: &Cluster, f: Option<&Fabric>) -> Vec<String> {
    let p = c.price.as_ref();
    vec![
        c.id.clone(),
        c.name.clone(),
        c.origin.label().to_string(),
        c.seed.map(|s| s.to_string()).unwrap_or_default(),
        c.operator.clone(),
        c.site.clone(),
        c.country.clone(),
        c.continent.clone(),
        c.nodes.to_string(),
        c.on_demand.to_string(),
        c.cores_per_node.to_string(),
        c.memory_per_node_gb.to_string(),
        c.core_gflops.to_string(),
        opt(c.memory_bandwidth_gb_s),
        c.gpus_per_node.to_string(),
        c.gpu.clone(),
        opt(p.map(|p| p.amount)),
        p.map(|p| p.currency.clone()).unwrap_or_default(),
        p.map(|p| p.unit.clone()).unwrap_or_default(),
        p.map(|p| p.date.clone()).unwrap_or_default(),
        c.price_per_cpu_hour.to_string(),
        opt(c.node_power_w),
        opt(c.pue),
        opt(c.carbon_g_per_kwh),
        f.map(|f| f.name.clone()).unwrap_or_default(),
        opt(f.map(|f| f.latency_us)),
        opt(f.map(|f| f.bandwidth_mb_s)),
        f.map(|f| f.source.clone()).unwrap_or_default(),
    ]
}

/// The catalog as CSV: one row per machine and fabric (a machine without fabrics: one row).
pub fn csv(catalog: &Catalog) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut rows = vec![CSV_COLUMNS.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
    for c in &catalog.clusters {
        if c.fabrics.is_empty() {
            rows.push(row(c, None));
        }
        rows.extend(c.fabrics.iter().map(|f| row(c, Some(f))));
    }
    for r in rows {
        // Writing to a Vec cannot fail.
        let _ = w.write_record(&r);
    }
    w.into_inner().ok().and_then(|b| String::from_utf8(b).ok()).unwrap_or_default()
}

/// `scalewise catalog --csv` or `--machines` (the args after the subcommand's name): status 0,
/// or 2 for anything else given with it.
pub fn run_csv(args: &[String]) -> i32 {
    let [only] = args else {
        eprintln!("scalewise catalog: --csv and --machines take no other argument");
        return 2;
    };
    let text = match only.as_str() {
        "--csv" => csv(&machines::full()),
        "--machines" => match serde_json::to_string(crate::model::workspace::machines::machines()) {
            Ok(t) => t + "\n",
            Err(e) => {
                eprintln!("scalewise catalog: {e}");
                return 1;
            }
        },
        other => {
            eprintln!("scalewise catalog: --csv and --machines take no other argument, found '{other}'");
            return 2;
        }
    };
    super::written("catalog", super::write_out(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_the_presets_and_the_machines() {
        let out = super::super::run_json(&COMMAND, serde_json::json!({}), &[]).expect("runs");
        let clusters = out["clusters"].as_array().cloned().unwrap_or_default();
        let ids: Vec<&str> = clusters.iter().filter_map(|c| c["id"].as_str()).collect();
        assert!(ids.contains(&"wrg-a") && ids.contains(&"narwhal"), "{ids:?}");
        assert_eq!(out["links"][0]["fabric"]["name"], "Fast Ethernet");
        let wrg = clusters.iter().find(|c| c["id"] == "wrg-a").cloned().unwrap_or_default();
        assert_eq!((wrg["seed"].as_u64(), wrg["origin"].as_str()), (Some(0), Some("paper")));
        assert!(wrg["price"].is_null() && wrg["node_power_w"].is_null(), "{wrg}");
        let machines = crate::model::workspace::machines::machines();
        assert_eq!(clusters.len(), catalog::presets().clusters.len() + machines.len());
        for m in machines {
            let c = clusters.iter().find(|c| c["id"] == m.id.as_str()).cloned().unwrap_or_default();
            assert!(c["seed"].is_null(), "{c}");
            assert!(c["sources"].as_object().is_some_and(|s| s.contains_key("cores_per_node")), "{c}");
        }
    }

    #[test]
    fn csv_has_a_row_per_machine_and_fabric() {
        let all = machines::full();
        let text = csv(&all);
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let header: Vec<String> = r.headers().map(|h| h.iter().map(String::from).collect()).unwrap_or_default();
        assert_eq!(header, CSV_COLUMNS);
        let rows: Vec<csv::StringRecord> = r.records().filter_map(Result::ok).collect();
        let want: usize = all.clusters.iter().map(|c| c.fabrics.len().max(1)).sum();
        assert_eq!(rows.len(), want);
        assert!(rows.iter().any(|r| &r[0] == "wrg-a" && &r[24] == "Myrinet" && &r[3] == "0"));
    }
}

//! `scalewise catalog`: the preset clusters, fabrics and links as JSON, the same catalog the
//! Clusters page starts from. A script can edit it and feed clusters to other calculators.

use super::request::output_schema;
use super::{to_json, Schemas, Subcommand};
use crate::model::workspace::catalog;

pub const COMMAND: Subcommand = Subcommand {
    name: "catalog",
    summary: "print the preset clusters, fabrics and links (from the seeds) as JSON",
    help: "scalewise catalog — the preset catalog of clusters, fabrics and links

USAGE:
    scalewise catalog [FILE|-] [--compact]
    (takes no input; a FILE, if given, must hold JSON and is ignored)

OUTPUT:
    {\"clusters\": [{\"id\", \"name\", \"nodes\", \"cores_per_node\", \"memory_per_node_gb\" (0 = unknown),
                   \"core_gflops\" (0 = unknown), \"price_per_cpu_hour\",
                   \"fabrics\": [{\"name\", \"latency_us\", \"bandwidth_mb_s\", \"source\"}],
                   \"notes\", \"preset\"}],
     \"links\": [{\"a\", \"b\", \"fabric\": {\"name\", \"latency_us\", \"bandwidth_mb_s\", \"source\"}}]}
    MB = 2^20 bytes. \"source\" says which seed a figure comes from, or that it is nominal.

EXAMPLE:
    echo '{}' | scalewise catalog --compact
",
    run: |_, _| to_json(&catalog::presets()),
    reads_input: false,
    each: None,
    schema: Schemas { input: None, output: output_schema::<catalog::Catalog> },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_the_presets() {
        let out = super::super::run_json(&COMMAND, serde_json::json!({}), &[]).expect("runs");
        let ids: Vec<&str> = out["clusters"].as_array().map(|a| a.iter().filter_map(|c| c["id"].as_str()).collect()).unwrap_or_default();
        assert!(ids.contains(&"wrg-a") && ids.contains(&"narwhal"), "{ids:?}");
        assert_eq!(out["links"][0]["fabric"]["name"], "Fast Ethernet");
    }
}

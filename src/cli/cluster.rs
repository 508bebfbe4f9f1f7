//! `scalewise cluster [FILE] [--format scontrol|sinfo|lscpu]`: your own cluster for the
//! catalog from what Slurm or Linux print about its nodes (`model::workspace::node_report`),
//! the report told apart by its content when `--format` is absent. The answer holds catalog
//! clusters, as `scalewise catalog` writes them, and the partitions they were made from.

use schemars::JsonSchema;
use serde::Serialize;

use crate::model::catalog::Cluster;
use crate::model::workspace::node_report::{self, NodeReport, Partition, ReportFormat};
use crate::model::InputError;

use super::request::output_schema;
use super::{unplaced, RawInput, Reply, Schemas, Subcommand};

pub const COMMAND: Subcommand = Subcommand {
    name: "cluster",
    summary: "catalog clusters from the output of scontrol show node, sinfo -N -l or lscpu",
    help: HELP,
    // Never called: every text is read as a node report (`RAW`).
    run: |_, _| Err(unplaced("a node report is read as text")),
    reads_input: true,
    each: None,
    schema: Schemas { input: None, output: output_schema::<ClusterAnswer<'static>> },
};

/// `--format`'s names, `ReportFormat`'s keys (a test holds the two lists equal).
const FORMATS: &[&str] = &["scontrol", "sinfo", "lscpu"];

/// The format `run` is handed for a text given without `--format`: none, so the report is told
/// by its content ([`node_report::read_sniffed`]), which says so when it is none of them.
const TOLD_BY_CONTENT: &str = "";

/// Every text is a node report, JSON or not: the one `--format` names, or the one it reads as.
pub const RAW: RawInput = RawInput {
    command: "cluster",
    formats: FORMATS,
    run,
    options: &[],
    sniff: Some(|_| Some(TOLD_BY_CONTENT)),
    check: None,
};

const HELP: &str = r#"scalewise cluster — your own cluster for the catalog, from what Slurm or Linux print about
its nodes: one paste, every partition a cluster

USAGE:
    scalewise cluster [FILE|-] [--format scontrol|sinfo|lscpu] [--compact]

INPUT: the output of one of these, as printed (without --format, told apart by its content):
    scontrol   scontrol show node (all nodes or some; or scontrol -o show node, a line a
               node): its NodeName= records
    sinfo      sinfo -N -l: a row per node and partition under its header (NODELIST ...
               CPUS S:C:T MEMORY ...; without -N, a row's NODES nodes alike)
    lscpu      lscpu on one node, in English (LANG=C lscpu)
Cores are physical cores: CoresPerSocket × Sockets (scontrol), S × C of S:C:T (sinfo),
Core(s) per socket × Socket(s) (lscpu); CPUTot, CPUS and CPU(s) count hardware threads and
serve only when the layout is missing. Memory: RealMemory and MEMORY are MiB (GB = 1024
MiB); RealMemory=1 (Slurm's default) and lscpu, which gives none, are 0: unknown. GPUs: the
gpu entries of Gres. A node in several partitions counts in each. A partition whose nodes
differ is split into one cluster per kind of node, named after what sets it apart
("batch (64 cores)", "batch (128 cores)"): a catalog cluster has one size of node. Limits:
1 MB of text, 100000 nodes. A value that cannot be read is refused (exit 1) naming its line
and column.

OUTPUT:
    clusters     [{"id", "name", "nodes", "cores_per_node", "memory_per_node_gb" (0 =
                 unknown), "core_gflops" (0), "price_per_cpu_hour" (0), "fabrics" ([]),
                 "notes", "preset" (false)}]: catalog clusters as 'scalewise catalog' writes
                 them, one per partition (or kind of node), ids from their names; fabrics,
                 core peak and price are yours to add; from lscpu, one node: set the count
    format       the report read: "scontrol", "sinfo" or "lscpu"
    partitions   [{"name", "partition" (Slurm's name; lscpu: the CPU model), "nodes",
                 "node_names", "cores_per_node", "threads_per_core", "memory_per_node_gb",
                 "gpus_per_node", "cpu_model" ("" unless lscpu names it)}]

EXAMPLE:
    scontrol show node | scalewise cluster
    scalewise cluster tests/data/node_reports/sinfo.txt --format sinfo --compact
"#;

/// `scalewise cluster`'s answer: the partitions read, and a catalog cluster made from each.
#[derive(Serialize, JsonSchema)]
pub struct ClusterAnswer<'a> {
    /// One catalog cluster per partition, or per kind of node of a partition whose nodes differ.
    clusters: Vec<Cluster>,
    /// The report read: "scontrol", "sinfo" or "lscpu".
    format: &'static str,
    /// What each cluster was made from.
    partitions: &'a [Partition],
}

fn answer(report: &NodeReport) -> ClusterAnswer<'_> {
    ClusterAnswer { clusters: report.clusters(), format: report.format.key(), partitions: &report.partitions }
}

/// The report of `format` (none: told by its content) in `text`; its errors said without the
/// field, as every raw text's are ("line 3, column 4: RealMemory: ...").
fn run(format: &str, text: &str, _options: &[(String, String)]) -> Result<Reply, InputError> {
    let report = match ReportFormat::from_key(format) {
        Some(f) => node_report::read(f, text),
        None => node_report::read_sniffed(text),
    }
    .map_err(|e| InputError { field: String::new(), ..e })?;
    Ok(Reply::new(Read(report)))
}

/// A report read, written as its [`ClusterAnswer`].
struct Read(NodeReport);

impl serde::Serialize for Read {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        answer(&self.0).serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCONTROL: &str = include_str!("../../tests/data/node_reports/scontrol.txt");

    #[test]
    fn formats_are_the_model_s_keys() {
        assert_eq!(FORMATS, ReportFormat::all().map(ReportFormat::key).collect::<Vec<_>>());
        assert!(HELP.contains(&format!("{} nodes", node_report::MAX_NODES)), "the help states the node limit");
        assert_eq!(node_report::MAX_REPORT_BYTES, 1 << 20, "the help says 1 MB");
    }

    #[test]
    fn a_report_told_by_its_content_or_named() {
        for format in [TOLD_BY_CONTENT, "scontrol"] {
            let out = run(format, SCONTROL, &[]).expect("read").value();
            assert_eq!(out["format"], "scontrol");
            assert_eq!(out["clusters"].as_array().map(Vec::len), Some(4));
            assert_eq!(out["partitions"][3]["name"], "gpu");
            assert_eq!(out["partitions"][3]["gpus_per_node"], 4);
        }
        let e = run("sinfo", SCONTROL, &[]).map(|r| r.value()).expect_err("no sinfo header");
        assert!(e.field.is_empty() && e.message.starts_with("no header line"), "{e:?}");
    }
}

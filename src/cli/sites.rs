//! `scalewise clusters` and `grid-broadcast` (seed 002, the "Broadcast across sites"
//! calculator): logical clusters from a latency matrix, and the ECEF inter-cluster schedules.
//! The model is `model::sites::gridcast`; this file reads the JSON, names the key of every
//! problem, and writes the answer.

use crate::model::InputError;

use schemars::JsonSchema;
use serde::Serialize;

use crate::model::sites::gridcast::{self, binomial_all, ClusterProcs, Coordinators, LatencyMatrix, Schedule};

use super::comm::within;
use super::request::{ClustersRequest, GridBroadcastRequest};
use super::Subcommand;

pub const CLUSTERS: Subcommand = Subcommand {
    name: "clusters",
    summary: "logical homogeneous clusters from a latency matrix (seed 002)",
    help: CLUSTERS_HELP,
    run: super::run_command::<ClustersCommand>,
    reads_input: true,
    each: None,
    schema: super::schemas_of::<ClustersCommand>(),
};

pub const GRID_BROADCAST: Subcommand = Subcommand {
    name: "grid-broadcast",
    summary: "ECEF and ECEF-LAt inter-cluster broadcast schedules, against a binomial tree",
    help: GRID_HELP,
    run: super::run_command::<GridCommand>,
    reads_input: true,
    each: None,
    schema: super::schemas_of::<GridCommand>(),
};

const CLUSTERS_HELP: &str = r#"scalewise clusters — logical homogeneous clusters from node-to-node latencies (seed 002):
node pairs are taken by increasing latency; two groups merge when every latency inside the
merged group stays within (1 + rho) × its smallest latency.

USAGE:
    scalewise clusters [FILE|-] [--compact]

INPUT (one JSON object):
    latency_us   square matrix, one row per node, µs (≥ 0; the diagonal is not used)
    rho          optional bound, 0 to 10 (default 0.2)
    symmetrise   optional boolean: use the mean of each pair when the matrix is not
                 symmetric (otherwise that is an error naming the entry)

OUTPUT:
    groups            [[node, ...], ...]: node indices from 0, each group sorted, groups
                      in order of their smallest index
    order             the nodes group after group (a heat map's order)
    group_latency_us  mean latency inside each group (0 for a single node)

EXAMPLE:
    {"latency_us": [[0, 10, 12, 12], [10, 0, 12, 12], [12, 12, 0, 11], [12, 12, 11, 0]],
     "rho": 0.1}   answers {"groups": [[0, 1], [2, 3]], ...}
"#;

const GRID_HELP: &str = r#"scalewise grid-broadcast — inter-cluster broadcast schedules (seed 002, §4.3):
ECEF repeatedly sends from a coordinator i that has the message to one j that has not,
choosing the pair with the smallest RT_i + g_ij + L_ij; the sender is then busy g_ij.
ECEF-LAt serves first the waiting cluster that would finish last (its earliest arrival +
local broadcast time T_j). Completion = max over clusters of arrival + T_j.

USAGE:
    scalewise grid-broadcast [FILE|-] [--compact]

INPUT (one JSON object), k clusters, times in µs for the message being broadcast:
    latency_us         k × k latency between coordinators (L_ij)
    gap_us             k × k gap of the message between coordinators (g_ij(m))
    local_us           k local broadcast times T_j
    root               the root's cluster (0-based, default 0)
    procs              optional: processes per cluster, with intra_latency_us and
    intra_latency_us   intra_gap_us (per cluster, µs) for the grid-unaware binomial tree
    intra_gap_us       over every process (ranks numbered cluster by cluster)

OUTPUT:
    ecef, ecef_lat     {transfers [{from, to, start_us, arrival_us, local_end_us}],
                       inter_us (last arrival), completion_us}
    binomial_us        the grid-unaware binomial tree, or null without procs
    best               "ecef" or "ecef_lat", the earlier completion

EXAMPLE:
    {"latency_us": [[0, 10, 30], [10, 0, 5], [30, 5, 0]],
     "gap_us": [[0, 2, 2], [2, 0, 2], [2, 2, 0]], "local_us": [5, 1, 50], "root": 0}
    answers ecef 0→1 (arrival 12), 1→2 (19), completion 69; ecef_lat 0→2, 0→1, 82.
"#;

super::answered_command!(ClustersCommand, ClustersRequest, ClustersAnswer, run_clusters);

fn run_clusters(r: ClustersRequest) -> Result<ClustersAnswer, InputError> {
    let mut lat = LatencyMatrix::from_rows("latency_us", &r.latency_us)?;
    let rho = r.rho.map_or(Ok(gridcast::DEFAULT_RHO), |x| within(x, "rho", 0.0, 10.0))?;
    let symmetrise = r.symmetrise.unwrap_or(false);
    if let Some((i, j)) = lat.asymmetry() {
        if !symmetrise {
            return Err(InputError::new(
                format!("latency_us[{i}][{j}]"),
                format!(
                    "not symmetric ({} vs {} at [{j}][{i}]); set \"symmetrise\": true to use the mean of each pair",
                    lat.get(i, j),
                    lat.get(j, i)
                ),
            ));
        }
        lat = lat.symmetrise();
    }
    let groups = gridcast::clusters(&lat, rho);
    let group_latency = gridcast::group_latency_us(&lat, &groups);
    Ok(ClustersAnswer { order: groups.iter().flatten().copied().collect(), groups, group_latency_us: group_latency })
}

/// `scalewise clusters`' answer.
#[derive(Serialize, JsonSchema)]
pub struct ClustersAnswer {
    /// Every node, cluster by cluster.
    order: Vec<usize>,
    /// The clusters, as lists of node indices.
    groups: Vec<Vec<usize>>,
    /// Each cluster's latency, µs.
    group_latency_us: Vec<f64>,
}

super::answered_command!(GridCommand, GridBroadcastRequest, GridAnswer, run_grid);

fn run_grid(r: GridBroadcastRequest) -> Result<GridAnswer, InputError> {
    let c = Coordinators { latency_us: r.latency_us, gap_us: r.gap_us, local_us: r.local_us };
    c.validate()?;
    let k = c.local_us.len();
    if k > 256 {
        return Err(InputError::new("local_us", format!("at most 256 clusters, found {k}")));
    }
    let root = r.root.map_or(Ok(0.0), |x| within(x, "root", 0.0, (k - 1) as f64))?;
    if root.fract() != 0.0 {
        return Err(InputError::new("root", format!("expected a cluster index, found {root}")));
    }
    let root = root as usize;
    let binomial = match r.procs {
        None => None,
        Some(procs) => {
            let intra = |key: &str, given: Option<Vec<f64>>| -> Result<Vec<f64>, InputError> {
                let v = given.ok_or_else(|| InputError::new("input", format!("\"{key}\" is needed with procs")))?;
                match v.iter().position(|x| !(x.is_finite() && (0.0..=1e12).contains(x))) {
                    Some(i) => Err(InputError::new(format!("{key}[{i}]"), "expected µs from 0 to 1e12")),
                    None if v.len() != k => Err(InputError::new(key, format!("{} values but {k} clusters", v.len()))),
                    None => Ok(v),
                }
            };
            if procs.len() != k {
                return Err(InputError::new("procs", format!("{} values but {k} clusters", procs.len())));
            }
            if let Some(i) = procs.iter().position(|x| !(x.fract() == 0.0 && (0.0..=1048576.0).contains(x))) {
                return Err(InputError::new(
                    format!("procs[{i}]"),
                    "expected a whole number of processes up to 1048576",
                ));
            }
            let cp = ClusterProcs {
                procs: procs.iter().map(|&x| x as u32).collect(),
                latency_us: intra("intra_latency_us", r.intra_latency_us)?,
                gap_us: intra("intra_gap_us", r.intra_gap_us)?,
            };
            Some(
                binomial_all(&c, &cp, root)
                    .ok_or_else(|| InputError::new("procs", "between 1 and 1048576 processes in all"))?,
            )
        }
    };
    let e = gridcast::ecef(&c, root, false);
    let lat = gridcast::ecef(&c, root, true);
    let best = if lat.completion_us < e.completion_us { "ecef_lat" } else { "ecef" };
    Ok(GridAnswer { ecef: e, ecef_lat: lat, binomial_us: binomial, best })
}

/// `scalewise grid-broadcast`'s answer.
#[derive(Serialize, JsonSchema)]
pub struct GridAnswer {
    /// ECEF's schedule.
    ecef: Schedule,
    /// ECEF with look-ahead's schedule.
    ecef_lat: Schedule,
    /// The grid-unaware binomial tree over every process, µs (with procs).
    binomial_us: Option<f64>,
    /// "ecef" or "ecef_lat".
    best: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_documents_every_key() {
        for (help, keys) in [
            (CLUSTERS_HELP, &["latency_us", "rho", "symmetrise", "groups", "order", "group_latency_us"][..]),
            (
                GRID_HELP,
                &[
                    "latency_us",
                    "gap_us",
                    "local_us",
                    "root",
                    "procs",
                    "intra_latency_us",
                    "intra_gap_us",
                    "ecef_lat",
                    "binomial_us",
                    "completion_us",
                ],
            ),
        ] {
            for k in keys {
                assert!(help.contains(k), "help lacks {k}");
            }
        }
    }
}

//! The catalog of clusters, switching fabrics and links between clusters that every
//! calculator draws on, with presets taken from the seeds.
//!
//! Units: memory in GB per node, core peak in GFlop/s, latency in µs, bandwidth in MB/s
//! (MB = 2^20 bytes), price in any currency unit per CPU-hour. Where a seed gives no figure
//! for a fabric, the preset carries a nominal one and says so in `source`, so a user knows
//! which numbers to replace with their own measurements.

#[cfg(not(target_arch = "wasm32"))]
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::InputError;

#[cfg(not(target_arch = "wasm32"))]
fn is_zero(x: &u32) -> bool {
    *x == 0
}

/// A switching technology available on a cluster.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Fabric {
    /// "Fast Ethernet", "Myrinet", "InfiniBand 4x DDR"…; unique within its cluster.
    pub name: String,
    /// One-way small-message latency between two nodes, µs.
    pub latency_us: f64,
    /// Point-to-point bandwidth between two nodes, MiB/s (2^20 bytes a second).
    pub bandwidth_mb_s: f64,
    /// Where the numbers come from ("seed 003, slide 9" or "nominal").
    #[serde(default)]
    pub source: String,
    /// For a catalog machine: each figure's key (`latency_us`, `bandwidth_mb_s`) and its source.
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sources: BTreeMap<String, FigureSource>,
}

/// Where one figure of a catalog machine comes from.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct FigureSource {
    /// The document: its title and publisher.
    pub source: String,
    /// The document's date (YYYY-MM-DD, or as precise as it says).
    pub date: String,
    /// `measured`, `vendor` or `estimated`.
    pub kind: String,
    /// How the figure follows from the document (the table, the arithmetic, the parts).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub basis: String,
    /// The document's address.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub address: String,
}

/// What a run on a machine is billed: `amount` of `currency` per `unit`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Price {
    pub amount: f64,
    /// ISO 4217 code ("USD", "EUR", "GBP", "JPY"…).
    pub currency: String,
    /// `node-hour`, `core-hour`, `gpu-hour`, or an allocation unit as its operator names it.
    pub unit: String,
    /// When the price was published.
    #[serde(default)]
    pub date: String,
    /// For an allocation unit: the node-hours one unit buys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_node_hours: Option<f64>,
}

impl Price {
    /// Node-hours one `unit` buys, on a node of `cores` cores and `gpus` GPUs; None when the
    /// unit is an allocation unit that does not say.
    pub fn unit_node_hours(&self, cores: u32, gpus: u32) -> Option<f64> {
        match self.unit.as_str() {
            "node-hour" => Some(1.0),
            "core-hour" => Some(1.0 / f64::from(cores.max(1))),
            "gpu-hour" if gpus > 0 => Some(1.0 / f64::from(gpus)),
            _ => self.unit_node_hours.filter(|h| h.is_finite() && *h > 0.0),
        }
    }
}

/// Where a cluster of the catalog comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// One of the seed papers' machines (2001–2012), kept so their worked examples reproduce.
    Paper,
    /// A cloud provider's instance, billed per instance-hour.
    Cloud,
    /// A national or academic centre's system.
    Centre,
    /// Typed, pasted or copied by the user.
    #[default]
    Own,
}

impl Origin {
    pub fn label(self) -> &'static str {
        match self {
            Origin::Paper => "seed paper",
            Origin::Cloud => "cloud",
            Origin::Centre => "centre",
            Origin::Own => "your own",
        }
    }
}

/// A cluster (a site, a machine room, a region).
///
/// In the browser (wasm32) a cluster has only the fields it had before today's machines came
/// (cores, memory, peak, price per core-hour, fabrics): the figures added for those machines
/// (price, power, PUE, carbon, origin, sources…) exist natively only, for the command and its
/// tests, since every page's wasm would carry their code (measured: 2–8 KB gzipped a page,
/// more than the pages' size budget leaves). The pages show them once they are kept apart.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Cluster {
    /// Stable identifier, used by links and by calculators' inputs ("wrg-a").
    pub id: String,
    pub name: String,
    pub nodes: u32,
    pub cores_per_node: u32,
    /// Memory of one node, GB; 0 when unknown (then no memory limit can be checked).
    pub memory_per_node_gb: f64,
    /// Peak of one core, GFlop/s; 0 when unknown.
    #[serde(default)]
    pub core_gflops: f64,
    pub price_per_cpu_hour: f64,
    pub fabrics: Vec<Fabric>,
    /// Facts and advice from the seeds, shown next to the cluster.
    #[serde(default)]
    pub notes: String,
    /// True for the shipped presets (the user may still edit them; "reset" restores them).
    #[serde(default)]
    pub preset: bool,
    /// The seed paper's number (0–4) for the papers' machines, else None.
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default)]
    pub seed: Option<u32>,
    /// Where this cluster comes from.
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default)]
    pub origin: Origin,
    /// Who runs it ("Amazon Web Services", "EPCC").
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub operator: String,
    /// Where it runs ("us-east-2 (Ohio)", "Kajaani, Finland"), its country and continent.
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub site: String,
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub country: String,
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub continent: String,
    /// Cloud instances: as many nodes as are asked for (`nodes` is then a planning bound).
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_demand: bool,
    /// GPUs of one node (0 for a CPU machine) and their model.
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default, skip_serializing_if = "is_zero")]
    pub gpus_per_node: u32,
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub gpu: String,
    /// The price of a run: amount, currency, unit, date (None when not known).
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default)]
    pub price: Option<Price>,
    /// Electrical power of one node in use, W (None when not known).
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default)]
    pub node_power_w: Option<f64>,
    /// The site's power usage effectiveness.
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default)]
    pub pue: Option<f64>,
    /// Carbon intensity of the site's electricity, g CO2e per kWh.
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default)]
    pub carbon_g_per_kwh: Option<f64>,
    /// Memory bandwidth of one node, 10^9 bytes/s (STREAM where published).
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default)]
    pub memory_bandwidth_gb_s: Option<f64>,
    /// Each figure's key and its source (catalog machines; empty for the user's own).
    #[cfg(not(target_arch = "wasm32"))]
    #[serde(default)]
    pub sources: BTreeMap<String, FigureSource>,
    /// Measured message-time histograms of this cluster, as the simulation page's histogram
    /// table (size, n, p, low µs, high µs, count), e.g. made from a SimGrid calibration CSV
    /// (`simulate::calibration`); empty when none. The simulation page offers them as a machine.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message_histograms: String,
}

/// Longest message-histogram table a cluster keeps (about 40,000 bins).
pub const MAX_HISTOGRAM_BYTES: usize = 1 << 20;

/// A connection between two clusters over which one job may span both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Link {
    pub a: String,
    pub b: String,
    pub fabric: Fabric,
}

/// Everything the Clusters page edits. `Catalog::default()` is an empty one.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Catalog {
    pub clusters: Vec<Cluster>,
    pub links: Vec<Link>,
}

impl Cluster {
    pub fn cores(&self) -> u64 {
        u64::from(self.nodes) * u64::from(self.cores_per_node)
    }

    /// Memory one process has when every core runs one process, MB.
    pub fn memory_per_core_mb(&self) -> f64 {
        self.memory_per_node_gb * 1024.0 / f64::from(self.cores_per_node.max(1))
    }

    pub fn fabric(&self, name: &str) -> Option<&Fabric> {
        self.fabrics.iter().find(|f| f.name == name)
    }
}

/// `base` when `taken` says it is free, else the first free of `base-2`, `base-3`, …: the id a
/// new cluster gets among others (a machine used, a pasted report's partitions).
pub fn free_id(base: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_string();
    }
    (2u64..).map(|n| format!("{base}-{n}")).find(|id| !taken(id)).unwrap_or_default()
}

impl Catalog {
    /// The cluster of this id. Today's machines (`workspace::machines`) are in a catalog only
    /// when put there: `machines::full` holds them all, and a machine used on a page is copied
    /// in.
    pub fn cluster(&self, id: &str) -> Option<&Cluster> {
        self.clusters.iter().find(|c| c.id == id)
    }

    pub fn cluster_mut(&mut self, id: &str) -> Option<&mut Cluster> {
        self.clusters.iter_mut().find(|c| c.id == id)
    }

    /// A catalog saved before clusters said where they come from: the seed papers' presets in
    /// it (a preset with a seed preset's id) marked as the papers' machines, with their seed.
    pub fn mark_seed_presets(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        self.mark_seeds_natively();
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn mark_seeds_natively(&mut self) {
        let seeds = presets();
        for c in &mut self.clusters {
            if c.preset && c.seed.is_none() && c.origin == Origin::Own && seeds.clusters.iter().any(|s| s.id == c.id) {
                c.seed = Some(seed_of(&c.id));
                c.origin = Origin::Paper;
            }
        }
    }

    /// Fabrics that join clusters `a` and `b` (in either order).
    pub fn links_between<'a>(&'a self, a: &'a str, b: &'a str) -> impl Iterator<Item = &'a Link> + 'a {
        self.links.iter().filter(move |l| (l.a == a && l.b == b) || (l.a == b && l.b == a))
    }

    /// Checks everything a calculator relies on; returns every problem, each naming the
    /// cluster or link and the field.
    pub fn validate(&self) -> Result<(), Vec<InputError>> {
        let mut errs = Vec::new();
        let mut ids = std::collections::BTreeSet::new();
        for (i, c) in self.clusters.iter().enumerate() {
            let field = format!("cluster {} ({})", i + 1, if c.name.is_empty() { "unnamed" } else { &c.name });
            if c.id.trim().is_empty() {
                errs.push(InputError::new(&field, "id is empty"));
            } else if !ids.insert(c.id.as_str()) {
                errs.push(InputError::new(&field, format!("id \"{}\" is used twice", c.id)));
            }
            if c.name.trim().is_empty() {
                errs.push(InputError::new(&field, "name is empty"));
            }
            if c.nodes == 0 {
                errs.push(InputError::new(&field, "nodes must be at least 1"));
            }
            if c.cores_per_node == 0 {
                errs.push(InputError::new(&field, "cores per node must be at least 1"));
            }
            check_non_negative(&mut errs, &field, "memory per node (GB)", c.memory_per_node_gb);
            check_non_negative(&mut errs, &field, "core peak (GFlop/s)", c.core_gflops);
            check_non_negative(&mut errs, &field, "price per CPU-hour", c.price_per_cpu_hour);
            if c.nodes > MAX_NODES {
                errs.push(InputError::new(&field, format!("nodes must be at most {MAX_NODES}")));
            }
            if c.cores_per_node > MAX_CORES_PER_NODE {
                errs.push(InputError::new(&field, format!("cores per node must be at most {MAX_CORES_PER_NODE}")));
            }
            let mut names = std::collections::BTreeSet::new();
            for f in &c.fabrics {
                let ff = format!("{field}, fabric \"{}\"", f.name);
                if f.name.trim().is_empty() {
                    errs.push(InputError::new(&field, "a fabric has no name"));
                } else if !names.insert(f.name.as_str()) {
                    errs.push(InputError::new(&ff, "fabric name is used twice on this cluster"));
                }
                check_fabric(&mut errs, &ff, f);
            }
            // Only its length: parsing the table here would put the histogram reader into every
            // page that loads the catalog (+4 KB gzipped each); the simulation page reads it
            // and names any problem's line and column.
            if c.message_histograms.len() > MAX_HISTOGRAM_BYTES {
                errs.push(InputError::new(
                    &field,
                    format!("message histograms: more than {MAX_HISTOGRAM_BYTES} bytes"),
                ));
            }
        }
        for (i, l) in self.links.iter().enumerate() {
            let field = format!("link {} ({} – {})", i + 1, l.a, l.b);
            for end in [&l.a, &l.b] {
                if !ids.contains(end.as_str()) {
                    errs.push(InputError::new(&field, format!("no cluster with id \"{end}\"")));
                }
            }
            if l.a == l.b {
                errs.push(InputError::new(&field, "a link joins two different clusters"));
            }
            check_fabric(&mut errs, &field, &l.fabric);
        }
        if errs.is_empty() {
            Ok(())
        } else {
            Err(errs)
        }
    }
}

fn check_fabric(errs: &mut Vec<InputError>, field: &str, f: &Fabric) {
    check_non_negative(errs, field, "latency (µs)", f.latency_us);
    check_positive(errs, field, "bandwidth (MiB/s)", f.bandwidth_mb_s);
}

/// Largest value of any number of the catalog (memory in GB, GFlop/s, prices, latencies in
/// µs, bandwidths in MB/s): far above any machine, and low enough that the calculators'
/// products of them (costs of a whole job, memory of a whole grid) stay finite numbers.
pub const MAX_VALUE: f64 = 1e9;
/// Smallest bandwidth, MB/s (a byte per second).
pub const MIN_BANDWIDTH_MB_S: f64 = 1e-6;
pub const MAX_NODES: u32 = 10_000_000;
pub const MAX_CORES_PER_NODE: u32 = 1_000_000;

fn check_positive(errs: &mut Vec<InputError>, field: &str, what: &str, x: f64) {
    if !(x.is_finite() && (MIN_BANDWIDTH_MB_S..=MAX_VALUE).contains(&x)) {
        errs.push(InputError::new(field, format!("{what} must be a number from 1e-6 to 1e9")));
    }
}

fn check_non_negative(errs: &mut Vec<InputError>, field: &str, what: &str, x: f64) {
    if !(x.is_finite() && (0.0..=MAX_VALUE).contains(&x)) {
        errs.push(InputError::new(field, format!("{what} must be a number from 0 to 1e9")));
    }
}

#[allow(clippy::needless_update)] // natively a fabric has its `sources` too
fn fabric(name: &str, latency_us: f64, bandwidth_mb_s: f64, source: &str) -> Fabric {
    Fabric { name: name.into(), latency_us, bandwidth_mb_s, source: source.into(), ..Fabric::default() }
}

// Nominal figures for fabrics the seeds name without measuring: 100 Mbit/s is 11.9 MB/s on the
// wire; MPI over TCP on Fast Ethernet of that era saw latencies near 100 µs; Myrinet 2000
// delivered about 230 MB/s at under 10 µs.
fn fast_ethernet() -> Fabric {
    fabric("Fast Ethernet", 100.0, 11.9, "nominal: 100 Mbit/s; replace with your measurements")
}

fn myrinet() -> Fabric {
    fabric("Myrinet", 7.0, 230.0, "nominal Myrinet 2000; replace with your measurements")
}

#[allow(clippy::too_many_arguments)]
fn cluster(
    id: &str,
    name: &str,
    nodes: u32,
    cores_per_node: u32,
    memory_per_node_gb: f64,
    core_gflops: f64,
    price_per_cpu_hour: f64,
    fabrics: Vec<Fabric>,
    notes: &str,
) -> Cluster {
    Cluster {
        id: id.into(),
        name: name.into(),
        nodes,
        cores_per_node,
        memory_per_node_gb,
        core_gflops,
        price_per_cpu_hour,
        fabrics,
        notes: notes.into(),
        preset: true,
        #[cfg(not(target_arch = "wasm32"))]
        seed: Some(seed_of(id)),
        #[cfg(not(target_arch = "wasm32"))]
        origin: Origin::Paper,
        ..Cluster::default()
    }
}

/// The seed paper a preset of [`presets`] comes from, by its id.
#[cfg(not(target_arch = "wasm32"))]
fn seed_of(id: &str) -> u32 {
    match id {
        "wrg-a" | "wrg-b" => 0,
        "perseus" => 1,
        _ if id.starts_with("g5k-") => 2,
        _ if id.starts_with("bwgrid") => 3,
        _ => 4,
    }
}

/// A bwGRiD site (seed 003): 140 blades of 8 cores and 16 GB each.
fn bwgrid(id: &str, name: &str, core_gflops: f64, fabrics: Vec<Fabric>, notes: &str) -> Cluster {
    cluster(id, name, 140, 8, 16.0, core_gflops, 1.0, fabrics, notes)
}

fn bwgrid1_fabrics() -> Vec<Fabric> {
    vec![
        fabric(
            "InfiniBand 20 Gbit/s",
            2.0,
            1430.5,
            "Kredel et al. 2012: b_l = 1.5 GB/s (1430.5 MiB/s); latency nominal",
        ),
        fabric("Gigabit Ethernet", 50.0, 119.0, "nominal: 1 Gbit/s"),
    ]
}

fn bwgrid2_fabrics() -> Vec<Fabric> {
    vec![fabric("InfiniBand (planned)", 2.0, 5722.0, "Kredel et al. 2012: planned b_l = 6 GB/s")]
}

fn link(a: &str, b: &str, f: Fabric) -> Link {
    Link { a: a.into(), b: b.into(), fabric: f }
}

/// The catalog a new workspace starts from: every cluster, fabric and link the seeds
/// describe. The current machines are not copied into a workspace: [`Catalog::cluster`]
/// finds them.
pub fn presets() -> Catalog {
    let bwgrid_note = "bwGRiD: 140 blades, each two quad-core Xeon 2.8 GHz; 16 GB per blade; \
                       Gigabit Ethernet and 20 Gbit/s InfiniBand (Kredel et al. 2012).";
    let bwgrid2_note = "Planned bwGRiD 2 (Kredel et al. 2012): 6 GB/s between nodes, 10–16 GFlop/s per core \
                        (the low end is used here); node count and memory not given, bwGRiD 1's kept.";
    let g5k_note = "Grid'5000 site of Nasri et al. (Table 2). The paper counts machines, not cores, and gives \
                    no node hardware: one process per machine, memory and peak unknown (set your own).";
    let clusters = vec![
        cluster(
            "wrg-a",
            "White Rose Grid Node 2 (cluster A)",
            128,
            2,
            2.0,
            0.0,
            1.0,
            vec![fast_ethernet(), myrinet()],
            "128 dual-processor nodes: 75 at 2.4 GHz and 53 at 2.2 GHz (Xeon), 2 GB per node, 512 KB L2 \
             (the White Rose Grid paper). Include at least one slower 2.2 GHz node in every calibration run, or the \
             prediction is optimistic. Price 1 unit per CPU-hour as in the paper's scenario 2.",
        ),
        cluster(
            "wrg-b",
            "White Rose Grid Node 3 (cluster B)",
            87,
            4,
            8.0,
            0.0,
            2.0,
            vec![fast_ethernet(), myrinet()],
            "87 nodes of two dual-core 2.0 GHz AMD processors (348 cores), 8 GB per node (the White Rose Grid paper). Run \
             sequential calibration as four copies on one node so node-level memory contention is \
             included. Price 2 units per CPU-hour as in the paper's scenario 2.",
        ),
        cluster(
            "perseus",
            "Perseus (Adelaide)",
            116,
            2,
            0.25,
            0.5,
            1.0,
            vec![fabric(
                "Fast Ethernet",
                100.0,
                9.66,
                "Grove & Coddington: 81 Mbit/s (9.66 MiB/s) achieved for 16 KB messages; latency nominal",
            )],
            "116 dual-processor nodes, 500 MHz Pentium III, 256 MB; switched 100 Mbit/s Ethernet over five \
             24-port switches joined by 2.1 Gbit/s backplane cards; MPICH 1.2.0 (Grove & Coddington). Message times \
             have a knee at 16 KB; the backplane saturates from about 16 KB with 64 × 1 processes.",
        ),
        bwgrid("bwgrid-ma", "bwGRiD Mannheim", 8.5, bwgrid1_fabrics(), bwgrid_note),
        bwgrid("bwgrid-hd", "bwGRiD Heidelberg", 8.5, bwgrid1_fabrics(), bwgrid_note),
        bwgrid("bwgrid2-ma", "bwGRiD 2 Mannheim (planned)", 10.0, bwgrid2_fabrics(), bwgrid2_note),
        bwgrid("bwgrid2-hd", "bwGRiD 2 Heidelberg (planned)", 10.0, bwgrid2_fabrics(), bwgrid2_note),
        cluster(
            "narwhal",
            "SHARCNET narwhal",
            267,
            2,
            8.0,
            0.0,
            1.0,
            vec![fabric("Myrinet G2", 3.0, 240.0, "nominal Myrinet 2G; replace with your measurements")],
            "HP cluster of 267 nodes, each one AMD 2.2 GHz dual-core CPU with 8 GB; Myrinet G2; the thesis \
             used one core per node (Lan 2007).",
        ),
        cluster("g5k-orsay", "Grid'5000 Orsay", 20, 1, 0.0, 0.0, 1.0, vec![g5k(48.39)], g5k_note),
        cluster(
            "g5k-grenoble",
            "Grid'5000 Grenoble",
            19,
            1,
            0.0,
            0.0,
            1.0,
            vec![g5k(35.52)],
            "Grid'5000 site of Nasri et al.: splits into logical clusters of 11 machines (35.52 µs inside), \
             7 machines (60.08 µs) and 1 machine. The seed gives no node hardware: one process per machine, \
             memory and peak unknown (set your own).",
        ),
        cluster("g5k-toulouse", "Grid'5000 Toulouse", 20, 1, 0.0, 0.0, 1.0, vec![g5k(26.94)], g5k_note),
        cluster("g5k-sophia", "Grid'5000 Sophia-Antipolis", 19, 1, 0.0, 0.0, 1.0, vec![g5k(35.04)], g5k_note),
    ];
    let wan = |us: f64| fabric("WAN", us, 119.0, "Nasri et al. Table 2: latency; bandwidth nominal 1 Gbit/s");
    let links = vec![
        link("wrg-a", "wrg-b", fast_ethernet()),
        link(
            "bwgrid-ma",
            "bwgrid-hd",
            fabric(
                "InfiniBand over 28 km fibre",
                145.0,
                930.0,
                "Kredel et al. 2012: MPI 145 µs, 930 MB/s (B_E ≈ 1 GB/s)",
            ),
        ),
        link(
            "bwgrid2-ma",
            "bwgrid2-hd",
            fabric(
                "Planned link",
                145.0,
                14305.1,
                "Kredel et al. 2012: planned B_E 15–45 GB/s (the low end is used here)",
            ),
        ),
        link("g5k-orsay", "g5k-grenoble", wan(6577.49)),
        link("g5k-orsay", "g5k-toulouse", wan(5211.94)),
        link("g5k-orsay", "g5k-sophia", wan(8602.73)),
        link("g5k-grenoble", "g5k-toulouse", wan(5387.48)),
        link("g5k-grenoble", "g5k-sophia", wan(2736.56)),
        link("g5k-toulouse", "g5k-sophia", wan(3630.51)),
    ];
    Catalog { clusters, links }
}

fn g5k(latency_us: f64) -> Fabric {
    fabric("Site network", latency_us, 119.0, "Nasri et al. Table 2: latency; bandwidth nominal 1 Gbit/s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_id_is_the_base_or_the_first_free_numbered_one() {
        let taken = ["gpu", "gpu-2", "gpu-4"];
        assert_eq!(free_id("batch", |id| taken.contains(&id)), "batch");
        assert_eq!(free_id("gpu", |id| taken.contains(&id)), "gpu-3");
    }

    #[test]
    fn presets_are_valid_and_complete() {
        let c = presets();
        assert_eq!(c.validate(), Ok(()));
        for id in [
            "wrg-a",
            "wrg-b",
            "perseus",
            "bwgrid-ma",
            "bwgrid-hd",
            "bwgrid2-ma",
            "bwgrid2-hd",
            "narwhal",
            "g5k-orsay",
            "g5k-grenoble",
            "g5k-toulouse",
            "g5k-sophia",
        ] {
            assert!(c.cluster(id).is_some(), "missing preset {id}");
        }
        // Seed 000: A and B are joined over Fast Ethernet only.
        let ab: Vec<&str> = c.links_between("wrg-b", "wrg-a").map(|l| l.fabric.name.as_str()).collect();
        assert_eq!(ab, vec!["Fast Ethernet"]);
        assert_eq!(c.cluster("wrg-b").map(|b| b.cores()), Some(348));
        // Seed 000: a process on cluster A has 1 GB (2 GB per dual-processor node).
        assert_eq!(c.cluster("wrg-a").map(|a| a.memory_per_core_mb()), Some(1024.0));
    }

    #[test]
    fn validation_names_what_is_wrong() {
        let mut c = presets();
        c.clusters[0].cores_per_node = 0;
        c.clusters[1].id = "wrg-a".into();
        c.clusters[2].fabrics[0].bandwidth_mb_s = -1.0;
        c.links.push(Link { a: "wrg-a".into(), b: "nowhere".into(), fabric: fast_ethernet() });
        let errs = c.validate().expect_err("broken catalog");
        let text: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        let want = [
            "cluster 1 (White Rose Grid Node 2 (cluster A)): cores per node must be at least 1",
            "cluster 2 (White Rose Grid Node 3 (cluster B)): id \"wrg-a\" is used twice",
            "cluster 3 (Perseus (Adelaide)), fabric \"Fast Ethernet\": bandwidth (MiB/s) must be a number from 1e-6 to 1e9",
            "no cluster with id \"nowhere\"",
        ];
        for w in want {
            assert!(text.iter().any(|t| t.contains(w)), "no error containing {w:?} in {text:#?}");
        }
    }
}

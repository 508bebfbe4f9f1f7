//! The current machines of the catalog: `data/machines.json` (its shape: `docs/catalog-data.md`),
//! read into the catalog's clusters with each figure's source. The file is part of the native
//! build (`include_str!`): the command and the tests. The pages do not compile this module yet
//! (their size budget has no room for the data and its figures' code); `scalewise catalog
//! --machines` writes the machines as a JSON list of catalog clusters, the file a page would load.
//! `tests/machines.rs` checks that every machine reads, that every figure names a document of
//! the file, and how many machines carry every figure.
//!
//! Units of the file are those its sources use: fabric bandwidth in 10^6 bytes/s (as OSU's
//! benchmarks print it); the catalog's `bandwidth_mb_s` is in MiB/s (2^20 bytes), converted
//! here.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::catalog::{Cluster, Fabric, FigureSource, Origin, Price};

/// The data file, as committed.
pub const DATA: &str = include_str!("../../../data/machines.json");

/// ISO 4217's code for "no currency": a price in an operator's allocation units only.
pub const NO_CURRENCY: &str = "XXX";

/// Nodes a cloud instance type is planned with when the user gives no count: as many as are
/// asked for, up to this.
pub const ON_DEMAND_NODES: u32 = 1024;

#[derive(Debug, Deserialize)]
pub struct File {
    pub documents: Vec<Document>,
    pub machines: Vec<Machine>,
}

#[derive(Debug, Deserialize)]
pub struct Document {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub publisher: String,
    #[serde(default)]
    pub address: String,
    #[serde(default)]
    pub date: String,
    #[serde(default)]
    pub date_kind: String,
}

/// One sourced number.
#[derive(Debug, Clone, Deserialize)]
pub struct Figure {
    pub value: f64,
    pub source: String,
    pub kind: String,
    #[serde(default)]
    pub basis: String,
}

#[derive(Debug, Deserialize)]
pub struct Nodes {
    #[serde(default)]
    pub on_demand: bool,
    #[serde(default)]
    pub value: Option<f64>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub basis: String,
}

#[derive(Debug, Deserialize)]
pub struct PriceFigure {
    pub amount: f64,
    pub currency: String,
    pub unit: String,
    #[serde(default)]
    pub unit_node_hours: Option<f64>,
    /// When the price was published, if not the document's date.
    #[serde(default)]
    pub date: String,
    pub source: String,
    pub kind: String,
    #[serde(default)]
    pub basis: String,
}

#[derive(Debug, Deserialize)]
pub struct FabricFigures {
    pub name: String,
    #[serde(default)]
    pub latency_us: Option<Figure>,
    #[serde(default)]
    pub bandwidth_mb_s: Option<Figure>,
}

#[derive(Debug, Deserialize)]
pub struct Machine {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub operator: String,
    /// `cloud` or `centre`.
    pub kind: String,
    /// `cpu` or `gpu`.
    #[serde(default)]
    pub accelerator: String,
    #[serde(default)]
    pub gpus_per_node: Option<u32>,
    #[serde(default)]
    pub gpu: String,
    #[serde(default)]
    pub gpu_fp64_tflops: Option<Figure>,
    #[serde(default)]
    pub site: String,
    #[serde(default)]
    pub country: String,
    #[serde(default)]
    pub continent: String,
    pub nodes: Nodes,
    #[serde(default)]
    pub cores_per_node: Option<Figure>,
    #[serde(default)]
    pub memory_per_node_gb: Option<Figure>,
    #[serde(default)]
    pub core_gflops: Option<Figure>,
    #[serde(default)]
    pub memory_bandwidth_gb_s: Option<Figure>,
    #[serde(default)]
    pub node_power_w: Option<Figure>,
    #[serde(default)]
    pub pue: Option<Figure>,
    #[serde(default)]
    pub carbon_g_per_kwh: Option<Figure>,
    #[serde(default)]
    pub price: Option<PriceFigure>,
    #[serde(default)]
    pub fabrics: Vec<FabricFigures>,
    #[serde(default)]
    pub notes: String,
}

/// The figures every complete machine carries (`Machine::missing`); the fabric's latency
/// and bandwidth count too.
pub const FIGURES: [&str; 9] = [
    "nodes",
    "cores_per_node",
    "memory_per_node_gb",
    "core_gflops",
    "memory_bandwidth_gb_s",
    "node_power_w",
    "pue",
    "carbon_g_per_kwh",
    "price",
];

impl Machine {
    /// The figures of [`FIGURES`] (and a fabric's) this machine does not carry.
    pub fn missing(&self) -> Vec<&'static str> {
        let have = [
            self.nodes.on_demand || self.nodes.value.is_some(),
            self.cores_per_node.is_some(),
            self.memory_per_node_gb.is_some(),
            self.core_gflops.is_some(),
            self.memory_bandwidth_gb_s.is_some(),
            self.node_power_w.is_some(),
            self.pue.is_some(),
            self.carbon_g_per_kwh.is_some(),
            // An allocation unit with no money price (ISO 4217's "XXX") is no price.
            self.price.as_ref().is_some_and(|p| p.currency != NO_CURRENCY),
        ];
        let mut out: Vec<&'static str> = FIGURES.iter().zip(have).filter(|(_, h)| !h).map(|(f, _)| *f).collect();
        if !self.fabrics.iter().any(|f| f.latency_us.is_some() && f.bandwidth_mb_s.is_some()) {
            out.push("fabric latency and bandwidth");
        }
        out
    }

    /// Every figure of the machine with its key, for checks.
    pub fn figures(&self) -> Vec<(String, &Figure)> {
        let mut out: Vec<(String, &Figure)> = [
            ("cores_per_node", &self.cores_per_node),
            ("memory_per_node_gb", &self.memory_per_node_gb),
            ("core_gflops", &self.core_gflops),
            ("memory_bandwidth_gb_s", &self.memory_bandwidth_gb_s),
            ("node_power_w", &self.node_power_w),
            ("pue", &self.pue),
            ("carbon_g_per_kwh", &self.carbon_g_per_kwh),
            ("gpu_fp64_tflops", &self.gpu_fp64_tflops),
        ]
        .into_iter()
        .filter_map(|(k, f)| f.as_ref().map(|f| (k.to_string(), f)))
        .collect();
        for fab in &self.fabrics {
            for (k, f) in [("latency_us", &fab.latency_us), ("bandwidth_mb_s", &fab.bandwidth_mb_s)] {
                if let Some(f) = f {
                    out.push((format!("{}: {k}", fab.name), f));
                }
            }
        }
        out
    }
}

/// The file read; an error names what could not be read.
pub fn parse(text: &str) -> Result<File, String> {
    serde_json::from_str(text).map_err(|e| format!("data/machines.json: {e}"))
}

/// The current machines as catalog clusters (read once). A machine without a core count is
/// left out (it cannot be planned on); `tests/machines.rs` refuses such a file.
pub fn machines() -> &'static [Cluster] {
    static MACHINES: OnceLock<Vec<Cluster>> = OnceLock::new();
    MACHINES.get_or_init(|| parse(DATA).map(|f| clusters(&f)).unwrap_or_default())
}

/// The file's machines as catalog clusters.
pub fn clusters(file: &File) -> Vec<Cluster> {
    let docs: BTreeMap<&str, &Document> = file.documents.iter().map(|d| (d.id.as_str(), d)).collect();
    file.machines.iter().filter_map(|m| cluster(m, &docs)).collect()
}

fn source_of(docs: &BTreeMap<&str, &Document>, id: &str, kind: &str, basis: &str) -> FigureSource {
    let doc = docs.get(id);
    let title = doc.map_or_else(|| id.to_string(), |d| {
        if d.publisher.is_empty() {
            d.title.clone()
        } else {
            format!("{} ({})", d.title, d.publisher)
        }
    });
    FigureSource {
        source: title,
        date: doc.map(|d| d.date.clone()).unwrap_or_default(),
        kind: kind.to_string(),
        basis: basis.to_string(),
        address: doc.map(|d| d.address.clone()).unwrap_or_default(),
    }
}

/// 10^6 bytes/s as the catalog's MiB/s.
pub fn mb_to_mib(mb_s: f64) -> f64 {
    mb_s * 1e6 / 1_048_576.0
}

fn cluster(m: &Machine, docs: &BTreeMap<&str, &Document>) -> Option<Cluster> {
    let cores = m.cores_per_node.as_ref().map(|f| f.value).filter(|c| *c >= 1.0 && *c <= 1e6)? as u32;
    let mut sources = BTreeMap::new();
    let mut note = |key: &str, f: &Option<Figure>| {
        if let Some(f) = f {
            sources.insert(key.to_string(), source_of(docs, &f.source, &f.kind, &f.basis));
        }
        f.as_ref().map(|f| f.value)
    };
    note("cores_per_node", &m.cores_per_node);
    let memory = note("memory_per_node_gb", &m.memory_per_node_gb);
    let gflops = note("core_gflops", &m.core_gflops);
    let bandwidth = note("memory_bandwidth_gb_s", &m.memory_bandwidth_gb_s);
    let power = note("node_power_w", &m.node_power_w);
    let pue = note("pue", &m.pue);
    let carbon = note("carbon_g_per_kwh", &m.carbon_g_per_kwh);
    note("gpu_fp64_tflops", &m.gpu_fp64_tflops);
    if !m.nodes.on_demand && m.nodes.value.is_some() {
        sources.insert("nodes".into(), source_of(docs, &m.nodes.source, &m.nodes.kind, &m.nodes.basis));
    }
    let gpus = m.gpus_per_node.unwrap_or(0);
    let price = m.price.as_ref().map(|p| {
        sources.insert("price".into(), source_of(docs, &p.source, &p.kind, &p.basis));
        let date = if p.date.is_empty() {
            docs.get(p.source.as_str()).map(|d| d.date.clone()).unwrap_or_default()
        } else {
            p.date.clone()
        };
        Price {
            amount: p.amount,
            currency: p.currency.clone(),
            unit: p.unit.clone(),
            date,
            unit_node_hours: p.unit_node_hours,
        }
    });
    let price_per_cpu_hour = price
        .as_ref()
        .and_then(|p| p.unit_node_hours(cores, gpus).map(|h| p.amount / h / f64::from(cores)))
        .filter(|x| x.is_finite())
        .unwrap_or(0.0);
    let fabrics = m
        .fabrics
        .iter()
        .filter_map(|f| {
            // A fabric needs its bandwidth; an unpublished latency is kept as 0 and said so
            // (its `sources` then has no `latency_us`).
            let bw = f.bandwidth_mb_s.as_ref()?;
            let mut fs = BTreeMap::new();
            if let Some(lat) = &f.latency_us {
                fs.insert("latency_us".to_string(), source_of(docs, &lat.source, &lat.kind, &lat.basis));
            }
            fs.insert("bandwidth_mb_s".to_string(), source_of(docs, &bw.source, &bw.kind, &bw.basis));
            let said = |what: &str, x: &FigureSource| format!("{what}: {}, {} ({})", x.source, x.date, x.kind);
            let latency = fs.get("latency_us").map_or_else(|| "latency: not published (0 here)".to_string(), |s| said("latency", s));
            let source = format!("{latency}; {}", said("bandwidth", &fs["bandwidth_mb_s"]));
            Some(Fabric {
                name: f.name.clone(),
                latency_us: f.latency_us.as_ref().map_or(0.0, |l| l.value),
                bandwidth_mb_s: mb_to_mib(bw.value),
                source,
                sources: fs,
            })
        })
        .collect();
    let nodes = if m.nodes.on_demand {
        ON_DEMAND_NODES
    } else {
        m.nodes.value.filter(|n| *n >= 1.0 && *n <= 1e7).map_or(1, |n| n as u32)
    };
    Some(Cluster {
        id: m.id.clone(),
        name: m.name.clone(),
        nodes,
        cores_per_node: cores,
        memory_per_node_gb: memory.unwrap_or(0.0),
        core_gflops: gflops.unwrap_or(0.0),
        price_per_cpu_hour,
        fabrics,
        notes: m.notes.clone(),
        preset: true,
        seed: None,
        origin: if m.kind == "cloud" { Origin::Cloud } else { Origin::Centre },
        operator: m.operator.clone(),
        site: m.site.clone(),
        country: m.country.clone(),
        continent: m.continent.clone(),
        on_demand: m.nodes.on_demand,
        gpus_per_node: gpus,
        gpu: m.gpu.clone(),
        price,
        node_power_w: power,
        pue,
        carbon_g_per_kwh: carbon,
        memory_bandwidth_gb_s: bandwidth,
        sources,
        message_histograms: String::new(),
    })
}

/// How the Clusters page's table orders its machines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortKey {
    #[default]
    Name,
    /// Price of one core-hour, lowest first (amounts are compared as they are: a table of
    /// several currencies is not converted).
    PricePerCoreHour,
    /// Memory per core, most first.
    MemoryPerCore,
    /// The fastest fabric's bandwidth, most first.
    FabricBandwidth,
    /// The grid's carbon intensity, lowest first.
    Carbon,
}

impl SortKey {
    pub const ALL: [SortKey; 5] =
        [SortKey::Name, SortKey::PricePerCoreHour, SortKey::MemoryPerCore, SortKey::FabricBandwidth, SortKey::Carbon];

    pub fn key(self) -> &'static str {
        match self {
            SortKey::Name => "name",
            SortKey::PricePerCoreHour => "price",
            SortKey::MemoryPerCore => "memory",
            SortKey::FabricBandwidth => "bandwidth",
            SortKey::Carbon => "carbon",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            SortKey::Name => "name",
            SortKey::PricePerCoreHour => "price per core-hour (lowest first)",
            SortKey::MemoryPerCore => "memory per core (most first)",
            SortKey::FabricBandwidth => "fabric bandwidth (most first)",
            SortKey::Carbon => "carbon intensity (lowest first)",
        }
    }

    pub fn from_key(key: &str) -> Option<SortKey> {
        SortKey::ALL.into_iter().find(|k| k.key() == key)
    }
}

/// What the Clusters page's table shows: a text searched in every machine's words, filters
/// (empty or None: any) and an order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Query {
    pub text: String,
    pub origin: Option<Origin>,
    /// Some(true): GPU partitions only; Some(false): CPU machines only.
    pub gpu: Option<bool>,
    /// A word of a fabric's name ("InfiniBand", "Slingshot", "EFA").
    pub fabric: String,
    pub continent: String,
    pub sort: SortKey,
}

/// The price of one core-hour in the machine's currency, when it has a price whose unit says
/// what it buys.
pub fn price_per_core_hour(c: &Cluster) -> Option<(f64, &str)> {
    let p = c.price.as_ref()?;
    let h = p.unit_node_hours(c.cores_per_node, c.gpus_per_node)?;
    let x = p.amount / h / f64::from(c.cores_per_node.max(1));
    x.is_finite().then_some((x, p.currency.as_str()))
}

/// The fastest fabric of a cluster (by bandwidth).
pub fn fastest_fabric(c: &Cluster) -> Option<&Fabric> {
    c.fabrics.iter().max_by(|a, b| a.bandwidth_mb_s.total_cmp(&b.bandwidth_mb_s))
}

fn words(c: &Cluster) -> String {
    let fabrics: Vec<&str> = c.fabrics.iter().map(|f| f.name.as_str()).collect();
    [c.id.as_str(), &c.name, &c.operator, &c.site, &c.country, &c.continent, &c.gpu, &c.notes, &fabrics.join(" ")]
        .join(" ")
        .to_lowercase()
}

/// The machines of `all` that `q` keeps, in its order (unknown figures last; ties by name).
pub fn select<'a>(all: impl Iterator<Item = &'a Cluster>, q: &Query) -> Vec<&'a Cluster> {
    let text: Vec<String> = q.text.split_whitespace().map(str::to_lowercase).collect();
    let fabric = q.fabric.trim().to_lowercase();
    let continent = q.continent.trim().to_lowercase();
    let mut out: Vec<&Cluster> = all
        .filter(|c| {
            let w = words(c);
            text.iter().all(|t| w.contains(t.as_str()))
                && q.origin.is_none_or(|o| c.origin == o)
                && q.gpu.is_none_or(|g| (c.gpus_per_node > 0) == g)
                && (fabric.is_empty() || c.fabrics.iter().any(|f| f.name.to_lowercase().contains(&fabric)))
                && (continent.is_empty() || c.continent.to_lowercase() == continent)
        })
        .collect();
    // Lower first; None last. Figures where more is better are negated.
    let value = |c: &Cluster| -> Option<f64> {
        match q.sort {
            SortKey::Name => Some(0.0),
            SortKey::PricePerCoreHour => price_per_core_hour(c).filter(|(_, cur)| *cur != NO_CURRENCY).map(|(x, _)| x),
            SortKey::MemoryPerCore => (c.memory_per_node_gb > 0.0).then(|| -c.memory_per_core_mb()),
            SortKey::FabricBandwidth => fastest_fabric(c).map(|f| -f.bandwidth_mb_s),
            SortKey::Carbon => c.carbon_g_per_kwh,
        }
    };
    out.sort_by(|a, b| match (value(a), value(b)) {
        (Some(x), Some(y)) => x.total_cmp(&y).then_with(|| a.name.cmp(&b.name)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.name.cmp(&b.name),
    });
    out
}

/// A catalog machine as an editable cluster of the user's own: the same figures and sources,
/// a new id not taken in `catalog`.
pub fn own_copy(c: &Cluster, catalog: &super::catalog::Catalog) -> Cluster {
    let id = (1..)
        .map(|i| if i == 1 { format!("{}-mine", c.id) } else { format!("{}-mine-{i}", c.id) })
        .find(|id| catalog.cluster(id).is_none())
        .unwrap_or_default();
    Cluster { id, name: format!("{} (my copy)", c.name), origin: Origin::Own, preset: false, ..c.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::workspace::catalog::presets;

    fn machine(id: &str, origin: Origin, gpus: u32, price: Option<(f64, &str)>, carbon: Option<f64>) -> Cluster {
        Cluster {
            id: id.into(),
            name: id.to_uppercase(),
            nodes: 10,
            cores_per_node: 100,
            memory_per_node_gb: 200.0,
            origin,
            gpus_per_node: gpus,
            continent: "Europe".into(),
            price: price.map(|(amount, unit)| Price { amount, currency: "EUR".into(), unit: unit.into(), ..Price::default() }),
            carbon_g_per_kwh: carbon,
            fabrics: vec![Fabric { name: "Slingshot-11".into(), latency_us: 2.0, bandwidth_mb_s: 20000.0, ..Fabric::default() }],
            ..Cluster::default()
        }
    }

    #[test]
    fn search_filter_and_sort() {
        let all = [
            machine("a", Origin::Cloud, 0, Some((100.0, "node-hour")), Some(300.0)),
            machine("b", Origin::Centre, 4, Some((0.5, "core-hour")), Some(30.0)),
            machine("c", Origin::Centre, 0, None, None),
        ];
        let ids = |q: &Query| select(all.iter(), q).iter().map(|c| c.id.clone()).collect::<Vec<_>>();
        // Price per core-hour: b 0.5, a 1.0, c unknown last.
        assert_eq!(ids(&Query { sort: SortKey::PricePerCoreHour, ..Query::default() }), ["b", "a", "c"]);
        assert_eq!(ids(&Query { sort: SortKey::Carbon, ..Query::default() }), ["b", "a", "c"]);
        assert_eq!(ids(&Query { origin: Some(Origin::Centre), gpu: Some(false), ..Query::default() }), ["c"]);
        assert_eq!(ids(&Query { text: "B".into(), ..Query::default() }), ["b"]);
        assert_eq!(ids(&Query { fabric: "slingshot".into(), continent: "europe".into(), ..Query::default() }).len(), 3);
        assert!(ids(&Query { fabric: "EFA".into(), ..Query::default() }).is_empty());
    }

    #[test]
    fn a_copy_is_the_users_own_under_a_new_id() {
        let cat = presets();
        let m = machine("lumi", Origin::Centre, 0, None, None);
        let copy = own_copy(&m, &cat);
        assert_eq!((copy.id.as_str(), copy.origin, copy.preset), ("lumi-mine", Origin::Own, false));
        assert_eq!(copy.cores_per_node, m.cores_per_node);
    }

    #[test]
    fn file_units_are_converted() {
        // 25,000 MB/s (10^6) from OSU is 23,841.9 MiB/s in the catalog.
        assert!((mb_to_mib(25_000.0) - 23_841.857_910_156_25).abs() < 1e-9);
    }
}

//! The current machines of the catalog: `data/machines.json` (its shape: `docs/catalog-data.md`),
//! read at build time natively (`include_str!`): catalog clusters with each figure's source
//! ([`machines`]: the command and the tests). The Clusters page fetches the same file
//! (`machines.json` of the site, only when it is opened), shows its machines as a table
//! ([`select`]) and copies one into the user's workspace ([`own_copy`]),
//! its price, power and carbon as a line of the planner's costs table
//! ([`crate::model::cost::CostLine`]).
//! `tests/machines.rs` checks that every machine reads, that every figure names a document of
//! the file, and how many machines carry every figure.
//!
//! Units of the file are those its sources use: fabric bandwidth in 10^6 bytes/s (as OSU's
//! benchmarks print it); the catalog's `bandwidth_mb_s` is in MiB/s (2^20 bytes), converted
//! here.

use std::collections::BTreeMap;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::OnceLock;

use serde::Deserialize;

use crate::model::catalog::{Catalog, Cluster, Fabric, FigureSource, Origin, Price};
use crate::model::cost::CostLine;

/// The data file, as committed (natively; the Clusters page fetches it as `machines.json`, a
/// file of the site: `index.html` copies it).
#[cfg(not(target_arch = "wasm32"))]
pub const DATA: &str = include_str!("../../../data/machines.json");

/// ISO 4217's code for "no currency": a price in an operator's allocation units only.
pub const NO_CURRENCY: &str = "XXX";

/// Nodes a cloud instance type is planned with when the user gives no count: as many as are
/// asked for, up to this.
pub const ON_DEMAND_NODES: u32 = 1024;

#[derive(Debug, Default, Deserialize)]
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

/// The data file, read once (empty if it did not read: `tests/machines.rs` refuses such a file).
#[cfg(not(target_arch = "wasm32"))]
pub fn file() -> &'static File {
    static FILE: OnceLock<File> = OnceLock::new();
    FILE.get_or_init(|| parse(DATA).unwrap_or_default())
}

/// The current machines as catalog clusters (read once). A machine without a core count is
/// left out (it cannot be planned on); `tests/machines.rs` refuses such a file.
#[cfg(not(target_arch = "wasm32"))]
pub fn machines() -> &'static [Cluster] {
    static MACHINES: OnceLock<Vec<Cluster>> = OnceLock::new();
    MACHINES.get_or_init(|| clusters(file()))
}

/// Every machine: the seed papers' ([`crate::model::catalog::presets`]) and today's.
#[cfg(not(target_arch = "wasm32"))]
pub fn full() -> Catalog {
    let mut c = crate::model::catalog::presets();
    c.clusters.extend(machines().iter().cloned());
    c
}

/// The file's machines as catalog clusters.
pub fn clusters(file: &File) -> Vec<Cluster> {
    let docs = file.docs();
    file.machines.iter().filter_map(|m| cluster(m, &docs)).collect()
}

impl File {
    /// The documents by id.
    pub fn docs(&self) -> BTreeMap<&str, &Document> {
        self.documents.iter().map(|d| (d.id.as_str(), d)).collect()
    }
}

pub fn source_of(docs: &BTreeMap<&str, &Document>, id: &str, kind: &str, basis: &str) -> FigureSource {
    let doc = docs.get(id);
    let title = doc.map_or_else(
        || id.to_string(),
        |d| {
            if d.publisher.is_empty() {
                d.title.clone()
            } else {
                format!("{} ({})", d.title, d.publisher)
            }
        },
    );
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
    // Each figure's source, natively (in the browser the page shows them from the file).
    #[cfg(not(target_arch = "wasm32"))]
    let mut sources = BTreeMap::new();
    #[cfg_attr(target_arch = "wasm32", allow(unused_mut))]
    let mut note = |key: &str, f: &Option<Figure>| {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(f) = f {
            sources.insert(key.to_string(), source_of(docs, &f.source, &f.kind, &f.basis));
        }
        let _ = key;
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
    #[cfg(not(target_arch = "wasm32"))]
    if !m.nodes.on_demand && m.nodes.value.is_some() {
        sources.insert("nodes".into(), source_of(docs, &m.nodes.source, &m.nodes.kind, &m.nodes.basis));
    }
    let gpus = m.gpus_per_node.unwrap_or(0);
    let price = m.price.as_ref().map(|p| {
        #[cfg(not(target_arch = "wasm32"))]
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
            let latency = fs
                .get("latency_us")
                .map_or_else(|| "latency: not published (0 here)".to_string(), |s| said("latency", s));
            let source = format!("{latency}; {}", said("bandwidth", &fs["bandwidth_mb_s"]));
            Some(Fabric {
                name: f.name.clone(),
                latency_us: f.latency_us.as_ref().map_or(0.0, |l| l.value),
                bandwidth_mb_s: mb_to_mib(bw.value),
                source,
                #[cfg(not(target_arch = "wasm32"))]
                sources: fs,
            })
        })
        .collect();
    let nodes = if m.nodes.on_demand {
        ON_DEMAND_NODES
    } else {
        m.nodes.value.filter(|n| *n >= 1.0 && *n <= 1e7).map_or(1, |n| n as u32)
    };
    let c = Cluster {
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
        ..Cluster::default()
    };
    // In the browser a cluster has none of the figures below (`catalog::Cluster`): the
    // Clusters page shows them from the file, and a copy's price, power and carbon go to the
    // planner's costs table.
    #[cfg(target_arch = "wasm32")]
    let _ = (bandwidth, power, pue, carbon, gpus, price);
    #[cfg(not(target_arch = "wasm32"))]
    let c = Cluster {
        origin: m.origin(),
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
        ..c
    };
    Some(c)
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
    /// Some(true): cloud instances only; Some(false): centres' systems only.
    pub cloud: Option<bool>,
    /// Some(true): GPU partitions only; Some(false): CPU machines only.
    pub gpu: Option<bool>,
    /// A word of a fabric's name ("InfiniBand", "Slingshot", "EFA").
    pub fabric: String,
    pub continent: String,
    pub sort: SortKey,
}

impl Machine {
    pub fn origin(&self) -> Origin {
        if self.kind == "cloud" {
            Origin::Cloud
        } else {
            Origin::Centre
        }
    }

    pub fn is_gpu(&self) -> bool {
        self.accelerator == "gpu" || self.gpus_per_node.unwrap_or(0) > 0
    }

    pub fn cores(&self) -> Option<u32> {
        self.cores_per_node.as_ref().map(|f| f.value).filter(|c| *c >= 1.0 && *c <= 1e6).map(|c| c as u32)
    }

    /// The price of one core-hour in the machine's currency, when it has a money price whose
    /// unit says what it buys.
    pub fn price_per_core_hour(&self) -> Option<(f64, &str)> {
        let p = self.price.as_ref().filter(|p| p.currency != NO_CURRENCY)?;
        let cores = self.cores()?;
        let price = Price { unit: p.unit.clone(), unit_node_hours: p.unit_node_hours, ..Price::default() };
        let h = price.unit_node_hours(cores, self.gpus_per_node.unwrap_or(0))?;
        let x = p.amount / h / f64::from(cores);
        x.is_finite().then_some((x, p.currency.as_str()))
    }

    pub fn memory_per_core_gb(&self) -> Option<f64> {
        Some(self.memory_per_node_gb.as_ref()?.value / f64::from(self.cores()?))
    }

    /// The fastest fabric's bandwidth, 10^6 bytes/s.
    pub fn fabric_bandwidth(&self) -> Option<f64> {
        self.fabrics.iter().filter_map(|f| f.bandwidth_mb_s.as_ref().map(|b| b.value)).max_by(f64::total_cmp)
    }

    fn words(&self) -> String {
        let fabrics: Vec<&str> = self.fabrics.iter().map(|f| f.name.as_str()).collect();
        [
            self.id.as_str(),
            &self.name,
            &self.operator,
            &self.site,
            &self.country,
            &self.continent,
            &self.gpu,
            &self.notes,
            &fabrics.join(" "),
        ]
        .join(" ")
        .to_lowercase()
    }
}

/// The machines of `all` that `q` keeps, in its order (unknown figures last; ties by name).
pub fn select<'a>(all: impl Iterator<Item = &'a Machine>, q: &Query) -> Vec<&'a Machine> {
    let text: Vec<String> = q.text.split_whitespace().map(str::to_lowercase).collect();
    let fabric = q.fabric.trim().to_lowercase();
    let continent = q.continent.trim().to_lowercase();
    let mut out: Vec<&Machine> = all
        .filter(|m| {
            let w = m.words();
            text.iter().all(|t| w.contains(t.as_str()))
                && q.cloud.is_none_or(|c| (m.kind == "cloud") == c)
                && q.gpu.is_none_or(|g| m.is_gpu() == g)
                && (fabric.is_empty() || m.fabrics.iter().any(|f| f.name.to_lowercase().contains(&fabric)))
                && (continent.is_empty() || m.continent.to_lowercase() == continent)
        })
        .collect();
    // Lower first; None last. Figures where more is better are negated.
    let value = |m: &Machine| -> Option<f64> {
        match q.sort {
            SortKey::Name => Some(0.0),
            SortKey::PricePerCoreHour => m.price_per_core_hour().map(|(x, _)| x),
            SortKey::MemoryPerCore => m.memory_per_core_gb().map(|x| -x),
            SortKey::FabricBandwidth => m.fabric_bandwidth().map(|x| -x),
            SortKey::Carbon => m.carbon_g_per_kwh.as_ref().map(|f| f.value),
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

/// A catalog machine as an editable cluster of the user's workspace, under its own id when
/// the workspace has no cluster of that id (else `id-2`, `id-3`…), and its price, power, PUE
/// and carbon as a line of the planner's costs table. None for a machine without a core count.
pub fn own_copy(m: &Machine, file: &File, catalog: &Catalog) -> Option<(Cluster, CostLine)> {
    let mut c = cluster(m, &file.docs())?;
    c.id = crate::model::catalog::free_id(&m.id, |id| catalog.clusters.iter().any(|c| c.id == id));
    c.preset = false;
    #[cfg(not(target_arch = "wasm32"))]
    {
        c.origin = Origin::Own;
    }
    let gpus = m.gpus_per_node.unwrap_or(0);
    let price = m.price.as_ref().filter(|p| p.currency != NO_CURRENCY).map(|p| match p.unit.as_str() {
        // A GPU-hour price as the node-hour's: the costs table bills whole nodes.
        "gpu-hour" if gpus > 0 => Price {
            amount: p.amount * f64::from(gpus),
            currency: p.currency.clone(),
            unit: "node-hour".into(),
            ..Price::default()
        },
        _ => Price {
            amount: p.amount,
            currency: p.currency.clone(),
            unit: p.unit.clone(),
            unit_node_hours: p.unit_node_hours,
            ..Price::default()
        },
    });
    let value = |f: &Option<Figure>| f.as_ref().map(|f| f.value);
    let line = CostLine {
        cluster: c.id.clone(),
        price,
        node_power_w: value(&m.node_power_w),
        pue: value(&m.pue),
        carbon_g_per_kwh: value(&m.carbon_g_per_kwh),
    };
    Some((c, line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::catalog::presets;

    fn figure(value: f64) -> Option<Figure> {
        Some(Figure { value, source: "doc".into(), kind: "vendor".into(), basis: String::new() })
    }

    fn machine(id: &str, kind: &str, gpus: u32, price: Option<(f64, &str)>, carbon: Option<f64>) -> Machine {
        let text = format!(
            r#"{{"id": "{id}", "name": "{}", "kind": "{kind}", "continent": "Europe", "nodes": {{"value": 10, "source": "doc", "kind": "vendor"}},
               "fabrics": [{{"name": "Slingshot-11", "bandwidth_mb_s": {{"value": 20000, "source": "doc", "kind": "vendor"}}}}]}}"#,
            id.to_uppercase()
        );
        let mut m: Machine = serde_json::from_str(&text).expect("machine");
        m.cores_per_node = figure(100.0);
        m.memory_per_node_gb = figure(200.0);
        m.gpus_per_node = Some(gpus).filter(|g| *g > 0);
        m.carbon_g_per_kwh = carbon.and_then(figure);
        m.price = price.map(|(amount, unit)| PriceFigure {
            amount,
            currency: "EUR".into(),
            unit: unit.into(),
            unit_node_hours: None,
            date: String::new(),
            source: "doc".into(),
            kind: "vendor".into(),
            basis: String::new(),
        });
        m
    }

    #[test]
    fn search_filter_and_sort() {
        let all = [
            machine("a", "cloud", 0, Some((100.0, "node-hour")), Some(300.0)),
            machine("b", "centre", 4, Some((0.5, "core-hour")), Some(30.0)),
            machine("c", "centre", 0, None, None),
        ];
        let ids = |q: &Query| select(all.iter(), q).iter().map(|m| m.id.clone()).collect::<Vec<_>>();
        // Price per core-hour: b 0.5, a 1.0, c unknown last.
        assert_eq!(ids(&Query { sort: SortKey::PricePerCoreHour, ..Query::default() }), ["b", "a", "c"]);
        assert_eq!(ids(&Query { sort: SortKey::Carbon, ..Query::default() }), ["b", "a", "c"]);
        assert_eq!(ids(&Query { cloud: Some(false), gpu: Some(false), ..Query::default() }), ["c"]);
        assert_eq!(ids(&Query { text: "B".into(), ..Query::default() }), ["b"]);
        assert_eq!(ids(&Query { fabric: "slingshot".into(), continent: "europe".into(), ..Query::default() }).len(), 3);
        assert!(ids(&Query { fabric: "EFA".into(), ..Query::default() }).is_empty());
        assert_eq!(all[0].price_per_core_hour(), Some((1.0, "EUR")));
    }

    #[test]
    fn a_copy_is_the_users_own_with_its_costs_line() {
        let mut cat = presets();
        let file = File::default();
        let m = machine("lumi", "centre", 4, Some((2.0, "gpu-hour")), Some(30.0));
        let (copy, line) = own_copy(&m, &file, &cat).expect("a copy");
        assert_eq!((copy.id.as_str(), copy.preset, copy.cores_per_node, copy.nodes), ("lumi", false, 100, 10));
        // A GPU-hour price is billed as the node's: 4 GPUs × 2 EUR.
        assert_eq!(line.price.as_ref().map(|p| (p.amount, p.unit.as_str())), Some((8.0, "node-hour")));
        assert_eq!((line.cluster.as_str(), line.carbon_g_per_kwh), ("lumi", Some(30.0)));
        // The same machine copied again takes a new id.
        cat.clusters.push(copy);
        assert_eq!(own_copy(&m, &file, &cat).map(|(c, _)| c.id), Some("lumi-2".to_string()));
    }

    #[test]
    fn file_units_are_converted() {
        // 25,000 MB/s (10^6) from OSU is 23,841.9 MiB/s in the catalog.
        assert!((mb_to_mib(25_000.0) - 23_841.857_910_156_25).abs() < 1e-9);
    }
}

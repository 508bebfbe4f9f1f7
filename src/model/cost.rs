//! What a run on a machine is billed, and what it uses: whole nodes held for the whole run,
//! their node-hours, the price in the machine's currency and unit, the energy and the carbon.
//!
//! Energy follows Lannelongue, Grealey and Inouye, "Green Algorithms: Quantifying the Carbon
//! Footprint of Computation", Advanced Science 8 (2021) 2100707:
//!
//! ```text
//! energy (kWh)  = hours × nodes × (P_compute × load + P_memory) × PUE / 1000
//! P_memory (W)  = 0.3725 W/GB × memory of a node (GB)        (the paper's memory power)
//! P_compute (W) = node power − P_memory                       (the rest of the node)
//! carbon (kg)   = energy × carbon intensity (g CO2e/kWh) / 1000
//! ```
//!
//! A node's power in the catalog is the whole node in use, so at load 1 the energy is hours ×
//! nodes × node power × PUE. Every core of every node held counts, busy or idle: a centre bills
//! them and they draw power.

use serde::{Deserialize, Serialize};

use super::workspace::catalog::{Cluster, Price};

/// Power of memory per GB, W: Green Algorithms' figure (Lannelongue et al. 2021).
pub const MEMORY_W_PER_GB: f64 = 0.3725;

/// What a machine's runs cost and use, per node.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Economics {
    /// Cores of one node (0: as many as the processes placed on it).
    #[serde(default)]
    pub cores_per_node: u32,
    #[serde(default)]
    pub gpus_per_node: u32,
    /// Memory of one node, GB (0 when unknown).
    #[serde(default)]
    pub memory_per_node_gb: f64,
    #[serde(default)]
    pub price: Option<Price>,
    #[serde(default)]
    pub node_power_w: Option<f64>,
    #[serde(default)]
    pub pue: Option<f64>,
    #[serde(default)]
    pub carbon_g_per_kwh: Option<f64>,
}

impl Economics {
    /// A catalog cluster's economics. In the browser a cluster carries none of these figures
    /// yet (`catalog::Cluster`): only its cores and memory.
    #[cfg(target_arch = "wasm32")]
    pub fn of(c: &Cluster) -> Economics {
        Economics { cores_per_node: c.cores_per_node, memory_per_node_gb: c.memory_per_node_gb, ..Economics::default() }
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn of(c: &Cluster) -> Economics {
        Economics {
            cores_per_node: c.cores_per_node,
            gpus_per_node: c.gpus_per_node,
            memory_per_node_gb: c.memory_per_node_gb,
            price: c.price.clone(),
            node_power_w: c.node_power_w,
            pue: c.pue,
            carbon_g_per_kwh: c.carbon_g_per_kwh,
        }
    }
}

/// How `processes` are placed: `procs_per_node` on each node held (the last may hold fewer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Placement {
    pub processes: u64,
    pub procs_per_node: u32,
    /// Cores of one node.
    pub cores_per_node: u32,
    /// Nodes held: ceil(processes / procs_per_node).
    pub nodes: u64,
    /// Cores held but running no process: nodes × cores_per_node − processes.
    pub idle_cores: u64,
}

/// `processes` at `procs_per_node` a node on nodes of `cores_per_node` cores (0: the nodes
/// have as many cores as processes placed on them).
pub fn place(processes: u64, procs_per_node: u32, cores_per_node: u32) -> Placement {
    let ppn = procs_per_node.max(1);
    let cores = if cores_per_node == 0 { ppn } else { cores_per_node.max(ppn) };
    let nodes = processes.div_ceil(u64::from(ppn));
    Placement {
        processes,
        procs_per_node: ppn,
        cores_per_node: cores,
        nodes,
        idle_cores: (nodes * u64::from(cores)).saturating_sub(processes),
    }
}

/// An amount of money: `amount` of `currency`, billed in `unit`s (`units` of them).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Money {
    pub amount: f64,
    pub currency: String,
    /// The unit the machine bills in (`node-hour`, `core-hour`, `CU`…).
    pub unit: String,
    /// How many of those units the run takes.
    pub units: f64,
}

/// What one run is billed and uses.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Bill {
    /// Nodes held × hours.
    pub node_hours: f64,
    /// Every core of every node held × hours.
    pub core_hours: f64,
    /// None when the machine has no price (or its unit does not say what it buys).
    pub price: Option<Money>,
    /// None when the machine's node power or PUE is not known.
    pub energy_kwh: Option<f64>,
    /// None when the energy or the grid's carbon intensity is not known.
    pub co2e_kg: Option<f64>,
}

/// The bill of holding `placement`'s nodes of a machine for `time_s` seconds, its cores busy at
/// `load` (0 to 1; 1 for an MPI job that keeps every process running).
pub fn bill(e: &Economics, placement: &Placement, time_s: f64, load: f64) -> Bill {
    let hours = time_s / 3600.0;
    let node_hours = placement.nodes as f64 * hours;
    let core_hours = node_hours * f64::from(placement.cores_per_node);
    let price = e.price.as_ref().and_then(|p| {
        let per_unit = p.unit_node_hours(placement.cores_per_node, e.gpus_per_node)?;
        let units = node_hours / per_unit;
        let amount = units * p.amount;
        amount.is_finite().then(|| Money { amount, currency: p.currency.clone(), unit: p.unit.clone(), units })
    });
    let energy_kwh = match (e.node_power_w, e.pue) {
        (Some(w), Some(pue)) => {
            let memory_w = (MEMORY_W_PER_GB * e.memory_per_node_gb).min(w);
            let node_w = (w - memory_w) * load.clamp(0.0, 1.0) + memory_w;
            Some(node_hours * node_w * pue / 1000.0).filter(|x| x.is_finite())
        }
        _ => None,
    };
    let co2e_kg = energy_kwh.zip(e.carbon_g_per_kwh).map(|(kwh, g)| kwh * g / 1000.0).filter(|x| x.is_finite());
    Bill { node_hours, core_hours, price, energy_kwh, co2e_kg }
}

/// The bills of several machines' parts of one job added up: the price only when every part
/// has one in the same currency and unit.
pub fn total(bills: &[Bill]) -> Bill {
    let sum = |f: fn(&Bill) -> Option<f64>| bills.iter().map(f).sum::<Option<f64>>();
    let price = bills.iter().map(|b| b.price.clone()).collect::<Option<Vec<Money>>>().and_then(|ms| {
        let first = ms.first()?.clone();
        ms.iter().all(|m| m.currency == first.currency && m.unit == first.unit).then(|| Money {
            amount: ms.iter().map(|m| m.amount).sum(),
            units: ms.iter().map(|m| m.units).sum(),
            ..first
        })
    });
    Bill {
        node_hours: bills.iter().map(|b| b.node_hours).sum(),
        core_hours: bills.iter().map(|b| b.core_hours).sum(),
        price,
        energy_kwh: sum(|b| b.energy_kwh),
        co2e_kg: sum(|b| b.co2e_kg),
    }
}

/// The formula a page shows next to energy and carbon.
pub const FORMULA: &str = "energy = hours × nodes held × ((node power − 0.3725 W/GB × node memory) × load + \
                           0.3725 W/GB × node memory) × PUE; carbon = energy × the grid's carbon intensity \
                           (Green Algorithms, Lannelongue et al., Advanced Science 2021)";

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(unit: &str) -> Economics {
        Economics {
            cores_per_node: 128,
            gpus_per_node: 0,
            memory_per_node_gb: 256.0,
            price: Some(Price { amount: 2.0, currency: "EUR".into(), unit: unit.into(), date: String::new(), unit_node_hours: Some(0.5) }),
            node_power_w: Some(600.0),
            pue: Some(1.2),
            carbon_g_per_kwh: Some(100.0),
        }
    }

    #[test]
    fn whole_nodes_are_billed() {
        // 64 processes at one a node on 2-core nodes: 64 nodes, 64 idle cores (issue 60).
        let p = place(64, 1, 2);
        assert_eq!((p.nodes, p.idle_cores), (64, 64));
        let b = bill(&Economics { cores_per_node: 2, ..Economics::default() }, &p, 983.9, 1.0);
        assert!((b.core_hours - 64.0 * 2.0 * 983.9 / 3600.0).abs() < 1e-9, "{}", b.core_hours);
        assert_eq!(b.price, None);
        // 130 processes at 128 a node: 2 nodes, 126 cores idle.
        assert_eq!(place(130, 128, 128).idle_cores, 126);
    }

    #[test]
    fn energy_and_carbon_by_hand() {
        // 4 nodes, 1.5 h, 600 W a node of which 256 GB × 0.3725 W/GB = 95.36 W memory.
        let p = place(512, 128, 128);
        let b = bill(&machine("node-hour"), &p, 5400.0, 1.0);
        assert!((b.node_hours - 6.0).abs() < 1e-12);
        let kwh = 6.0 * 600.0 * 1.2 / 1000.0; // 4.32 kWh
        assert!((b.energy_kwh.unwrap() - kwh).abs() < 1e-9);
        assert!((b.co2e_kg.unwrap() - kwh * 100.0 / 1000.0).abs() < 1e-9);
        // At half load the memory still draws its whole power.
        let half = bill(&machine("node-hour"), &p, 5400.0, 0.5);
        let w = (600.0 - 95.36) * 0.5 + 95.36;
        assert!((half.energy_kwh.unwrap() - 6.0 * w * 1.2 / 1000.0).abs() < 1e-9);
    }

    #[test]
    fn prices_in_each_unit() {
        let p = place(256, 128, 128);
        let hour = |unit: &str| bill(&machine(unit), &p, 3600.0, 1.0).price.unwrap();
        assert_eq!(hour("node-hour").amount, 4.0);
        assert_eq!(hour("core-hour").amount, 2.0 * 256.0);
        // An allocation unit of half a node-hour: 4 units for 2 node-hours.
        let cu = hour("CU");
        assert_eq!((cu.units, cu.amount, cu.unit.as_str()), (4.0, 8.0, "CU"));
        let unknown = Economics { price: Some(Price { unit: "SU".into(), ..Price::default() }), ..machine("SU") };
        assert_eq!(bill(&unknown, &p, 3600.0, 1.0).price, None);
    }

    #[test]
    fn totals_need_one_currency() {
        let p = place(128, 128, 128);
        let a = bill(&machine("node-hour"), &p, 3600.0, 1.0);
        let mut usd = machine("node-hour");
        usd.price.as_mut().unwrap().currency = "USD".into();
        let b = bill(&usd, &p, 3600.0, 1.0);
        assert_eq!(total(&[a.clone(), a.clone()]).price.map(|m| m.amount), Some(4.0));
        let mixed = total(&[a, b]);
        assert_eq!(mixed.price, None);
        assert_eq!(mixed.node_hours, 2.0);
        assert!(mixed.energy_kwh.is_some());
    }
}

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

use super::catalog::{Cluster, Price};
use super::InputError;

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

/// A cluster's figures as the planner page's "costs" table gives them: one line a cluster,
/// [`COST_COLUMNS`] separated by commas, an empty cell for a figure not known; `#` starts a
/// comment. The Clusters page writes a catalog machine's line when it copies the machine.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CostLine {
    pub cluster: String,
    pub price: Option<Price>,
    pub node_power_w: Option<f64>,
    pub pue: Option<f64>,
    pub carbon_g_per_kwh: Option<f64>,
}

/// The columns of a costs line, in order.
pub const COST_COLUMNS: [&str; 8] =
    ["cluster", "price", "currency", "unit", "node-hours per unit", "node power (W)", "PUE", "carbon (g CO2e/kWh)"];

impl CostLine {
    /// The line as the table holds it.
    pub fn text(&self) -> String {
        let num = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_default();
        let p = self.price.as_ref();
        [
            self.cluster.clone(),
            num(p.map(|p| p.amount)),
            p.map(|p| p.currency.clone()).unwrap_or_default(),
            p.map(|p| p.unit.clone()).unwrap_or_default(),
            num(p.and_then(|p| p.unit_node_hours)),
            num(self.node_power_w),
            num(self.pue),
            num(self.carbon_g_per_kwh),
        ]
        .join(", ")
    }

    /// `e` with the figures this line gives.
    pub fn apply(&self, mut e: Economics) -> Economics {
        if self.price.is_some() {
            e.price = self.price.clone();
        }
        e.node_power_w = self.node_power_w.or(e.node_power_w);
        e.pue = self.pue.or(e.pue);
        e.carbon_g_per_kwh = self.carbon_g_per_kwh.or(e.carbon_g_per_kwh);
        e
    }
}

/// The lines of a costs table; an error names `field`, the line and the column.
pub fn parse_costs(field: &str, text: &str) -> Result<Vec<CostLine>, InputError> {
    let mut out: Vec<CostLine> = Vec::new();
    // The clusters with a line already (a set: a long table is not searched line by line).
    let mut seen = std::collections::BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or_default();
        if content.trim().is_empty() {
            continue;
        }
        let at = |col: usize, m: String| InputError::new(field, m).at(i + 1, Some(col));
        let cells: Vec<&str> = content.split([',', '\t']).map(str::trim).collect();
        if cells.len() > COST_COLUMNS.len() {
            return Err(at(
                COST_COLUMNS.len() + 1,
                format!("expected at most {} cells: {}", COST_COLUMNS.len(), COST_COLUMNS.join(", ")),
            ));
        }
        let cell = |k: usize| cells.get(k).copied().unwrap_or_default();
        let number = |k: usize, max: f64| -> Result<Option<f64>, InputError> {
            let t = cell(k);
            if t.is_empty() {
                return Ok(None);
            }
            match crate::model::input::table::parse_number(t) {
                Some(x) if (0.0..=max).contains(&x) => Ok(Some(x)),
                _ => Err(at(
                    k + 1,
                    format!(
                        "{}: expected a number from 0 to {max}, found \"{}\"",
                        COST_COLUMNS[k],
                        t.chars().take(20).collect::<String>()
                    ),
                )),
            }
        };
        let cluster = cell(0).to_string();
        if cluster.is_empty() {
            return Err(at(1, "a cluster's id is needed".into()));
        }
        if !seen.insert(cluster.clone()) {
            return Err(at(1, format!("cluster \"{cluster}\" has a line already")));
        }
        let amount = number(1, 1e9)?;
        let price = match amount {
            None => None,
            Some(amount) => {
                let (currency, unit) = (cell(2), cell(3));
                if currency.is_empty() || unit.is_empty() {
                    return Err(at(
                        if currency.is_empty() { 3 } else { 4 },
                        "a price needs its currency and unit".into(),
                    ));
                }
                let per_unit = number(4, 1e6)?;
                if !matches!(unit, "node-hour" | "core-hour") && per_unit.is_none_or(|h| h <= 0.0) {
                    return Err(at(
                        5,
                        format!(
                            "unit \"{unit}\": say how many node-hours one unit buys (or use node-hour or core-hour)"
                        ),
                    ));
                }
                Some(Price {
                    amount,
                    currency: currency.into(),
                    unit: unit.into(),
                    date: String::new(),
                    unit_node_hours: per_unit,
                })
            }
        };
        let node_power_w = number(5, 1e7)?;
        let pue = number(6, 10.0)?;
        if pue.is_some_and(|p| p < 1.0) {
            return Err(at(7, "PUE: at least 1 (the facility's power over the computers')".into()));
        }
        out.push(CostLine { cluster, price, node_power_w, pue, carbon_g_per_kwh: number(7, 1e4)? });
    }
    Ok(out)
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
            price: Some(Price {
                amount: 2.0,
                currency: "EUR".into(),
                unit: unit.into(),
                date: String::new(),
                unit_node_hours: Some(0.5),
            }),
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
    fn a_costs_table_reads_and_names_its_errors() {
        let text = "# cluster, price, currency, unit, node-hours per unit, W, PUE, g/kWh\n\
                    azure-hbv3, 3.6, USD, node-hour, , 560, 1.18, 343.48\n\n\
                    archer2, 1, GBP, CU, 1, 750, , 150  # a comment\n\
                    mine, , , , , 400";
        let lines = parse_costs("costs", text).expect("reads");
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].price.as_ref().map(|p| (p.amount, p.currency.as_str())), Some((3.6, "USD")));
        assert_eq!((lines[1].pue, lines[1].carbon_g_per_kwh), (None, Some(150.0)));
        assert_eq!((lines[2].price.clone(), lines[2].node_power_w), (None, Some(400.0)));
        // A line written by text() reads back.
        assert_eq!(parse_costs("costs", &lines[0].text()).unwrap()[0], lines[0]);
        let e = parse_costs("costs", "a, 1, USD, node-hour\nb, x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "costs: line 2, column 2: price: expected a number from 0 to 1000000000, found \"x\""
        );
        assert_eq!(parse_costs("costs", "a, 1, USD, SU").unwrap_err().column, Some(5));
        assert_eq!(parse_costs("costs", "a, 1").unwrap_err().column, Some(3));
        assert_eq!(parse_costs("costs", "a,,,,,,0.5").unwrap_err().column, Some(7));
        assert_eq!(parse_costs("costs", "a\na").unwrap_err().line, Some(2));
        // A line's figures replace the catalog's; its empty cells keep them.
        let e = lines[1].apply(machine("node-hour"));
        assert_eq!((e.pue, e.node_power_w, e.price.map(|p| p.unit)), (Some(1.2), Some(750.0), Some("CU".to_string())));
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

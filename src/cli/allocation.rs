//! `--allocation md|csv|latex` on `speedup` and `multigrid`: the answer gains an "allocation"
//! key holding the strong-scaling table of an allocation request (`model::allocation`) in that
//! format, its rows as numbers, and the recommended size with its reason. The rows come from
//! what the command computed (the analysis, the planner's ranking), as on the pages, never
//! from the answer's JSON.

use super::unplaced;
use crate::model::InputError;

/// The help text of the allocation options, the same for every command that takes them
/// (a macro, so that `concat!` can put it inside a command's help).
macro_rules! allocation_help {
    () => {
        "ALLOCATION REQUESTS:
    --allocation md|csv|latex   adds \"allocation\": {format, text (the table in that format,
                      the recommendation below it), rows [{procs, nodes, time_s, time_low_s,
                      time_high_s, efficiency, core_hours, core_hours_low, core_hours_high,
                      cost, basis (\"measured\" or \"predicted\"), node_hours (whole nodes),
                      price {amount, currency, unit, units}, energy_kwh, co2e_kg (the last
                      three from the planner's catalog machines, else null)}], recommended (processes),
                      reason, note}: the strong-scaling table a compute centre asks for. The
                      recommended size is the largest count whose efficiency reaches the
                      threshold (else the smallest). speedup: the measured counts with times
                      and the forecast's predictions (weak scaling: its predictions), JSON or
                      --format table; multigrid: the planner's ranking, its costs in the
                      catalog's currency unless a price is given.
    --cores-per-node C          nodes = processes / C rounded up (default 1); whole nodes
                                are billed: core-hours = nodes × C × time × runs
    --price-per-core-hour P     cost = core-hours × P (EUR)
    --efficiency-threshold E    0 to 1 (default 0.5)
    --runs R                    core-hours for R production runs (default 1)
    --machine ID                a catalog machine (`scalewise catalog`): its cores per node,
                                price in its currency and unit, node power, PUE and carbon
                                intensity; the options below and --cores-per-node override
    --node-power-w W            one node's power at full load, W
    --pue P                     the site's power usage effectiveness, 1 to 10
    --carbon-g-per-kwh G        the grid's carbon intensity: energy_kwh = node-hours × W ×
                                PUE / 1000 and co2e_kg = energy_kwh × G / 1000 (Green
                                Algorithms, Lannelongue et al. 2021, at full load)
"
    };
}
pub(super) use allocation_help;

use crate::model::allocation::{
    from_plans, from_speedup, render, Allocation, AllocationOptions, SpeedupRows, TableFormat,
};
use crate::model::multigrid::split::Plan;

/// The commands that take these options, and the options.
pub const COMMANDS: &[&str] = &["speedup", "multigrid"];
pub const OPTIONS: &[&str] = &[
    "--allocation",
    "--cores-per-node",
    "--price-per-core-hour",
    "--efficiency-threshold",
    "--runs",
    "--machine",
    "--node-power-w",
    "--pue",
    "--carbon-g-per-kwh",
];

fn number(key: &str, v: &str, lo: f64, hi: f64) -> Result<f64, InputError> {
    v.parse::<f64>()
        .ok()
        .filter(|x| (lo..=hi).contains(x))
        .ok_or_else(|| InputError::new(key, format!("expected a number from {lo} to {hi}, found \"{v}\"")))
}

/// The table's format and options from the command line's options; an option without
/// `--allocation`, which would be taken without a word, is an error saying so.
fn parse(opts: &[(String, String)]) -> Result<(Option<TableFormat>, AllocationOptions), InputError> {
    let mut format = None;
    let mut o = AllocationOptions::default();
    // A machine first, whatever the options' order, so that the other options override it.
    if let Some((k, id)) = opts.iter().rev().find(|(k, _)| k == "--machine") {
        let all = crate::model::workspace::machines::full();
        let c = all.cluster(id).ok_or_else(|| {
            InputError::new(k, format!("no machine \"{id}\" in the catalog: `scalewise catalog` lists their ids"))
        })?;
        o.cores_per_node = c.cores_per_node.max(1);
        o.economics = crate::model::cost::Economics::of(c);
    }
    for (k, v) in opts {
        match k.as_str() {
            "--allocation" => {
                format = Some(TableFormat::from_name(v).ok_or_else(|| {
                    InputError::new("--allocation", format!("expected md, csv or latex, found \"{v}\""))
                })?)
            }
            "--cores-per-node" => o.cores_per_node = number(k, v, 1.0, 1e6)? as u32,
            "--price-per-core-hour" => o.price_per_core_hour = Some(number(k, v, 0.0, 1e6)?),
            "--efficiency-threshold" => o.efficiency_threshold = number(k, v, 0.0, 1.0)?,
            "--runs" => o.runs = number(k, v, 1e-6, 1e9)?,
            "--node-power-w" => o.economics.node_power_w = Some(number(k, v, 1.0, 1e6)?),
            "--pue" => o.economics.pue = Some(number(k, v, 1.0, 10.0)?),
            "--carbon-g-per-kwh" => o.economics.carbon_g_per_kwh = Some(number(k, v, 0.0, 1e4)?),
            _ => {}
        }
    }
    if format.is_none() {
        if let Some((k, _)) = opts.iter().find(|(k, _)| OPTIONS.contains(&k.as_str())) {
            return Err(unplaced(format!(
                "{k} applies only to the allocation table: add --allocation md, csv or latex"
            )));
        }
    }
    Ok((format, o))
}

/// Checks the allocation options before any input is read: a bad value or an option that does
/// not apply is a usage error (exit status 2).
pub fn check(opts: &[(String, String)]) -> Result<(), InputError> {
    parse(opts).map(|_| ())
}

/// The answer's "allocation" when `--allocation` was given: the table `source` makes with the
/// options from what the command computed, the same rows the pages tabulate, and with no rows
/// the note it gives (None: no `--allocation`, or the command keeps no table). An element
/// answered `{"error"}` gets none: its caller asks for none.
pub fn table(
    opts: &[(String, String)],
    source: impl FnOnce(&AllocationOptions) -> Table,
) -> Result<Option<AllocationOut>, InputError> {
    let (format, o) = parse(opts)?;
    let Some(format) = format else { return Ok(None) };
    Ok(source(&o).map(|(a, empty)| answer(&a, format, a.rows.is_empty().then_some(empty))))
}

/// A command's allocation table and what it says when the table has no rows (None: the command
/// keeps no table).
pub type Table = Option<(Allocation, &'static str)>;

/// What `multigrid` says when its table has no rows.
pub const NO_PLANNER: &str = "no planner ranking to tabulate: give a planner";
/// What `speedup` says when its table has no rows.
pub const NO_TIMES: &str = "no times to tabulate: give times (time_s)";

/// `speedup`'s table: the rows of [`SpeedupRows`], the measured counts and the forecast.
pub fn of_speedup(rows: &SpeedupRows, o: &AllocationOptions) -> Table {
    Some((from_speedup(rows, o), NO_TIMES))
}

/// `multigrid`'s table: the planner's ranking (none without a planner).
pub fn of_plans(plans: &[Plan], o: &AllocationOptions) -> Table {
    Some((from_plans(plans, o), NO_PLANNER))
}

/// The answer's "allocation": the table as text in its format, its rows, and the count
/// recommended.
#[derive(serde::Serialize)]
pub struct AllocationOut {
    format: &'static str,
    note: Option<&'static str>,
    reason: String,
    recommended: Option<u32>,
    rows: Vec<RowOut>,
    text: String,
}

/// One process count of the table.
#[derive(serde::Serialize)]
struct RowOut {
    basis: &'static str,
    core_hours: f64,
    core_hours_high: Option<f64>,
    core_hours_low: Option<f64>,
    cost: Option<f64>,
    efficiency: f64,
    nodes: u32,
    procs: u32,
    time_high_s: Option<f64>,
    time_low_s: Option<f64>,
    time_s: f64,
    node_hours: f64,
    price: Option<crate::model::cost::Money>,
    energy_kwh: Option<f64>,
    co2e_kg: Option<f64>,
}

fn answer(a: &Allocation, format: TableFormat, note: Option<&'static str>) -> AllocationOut {
    let rows = a
        .rows
        .iter()
        .map(|r| RowOut {
            basis: if r.measured { "measured" } else { "predicted" },
            core_hours: r.core_hours,
            core_hours_high: r.core_hours_range.map(|x| x.1),
            core_hours_low: r.core_hours_range.map(|x| x.0),
            cost: r.cost,
            efficiency: r.efficiency,
            nodes: r.nodes,
            procs: r.procs,
            time_high_s: r.time_range_s.map(|x| x.1),
            time_low_s: r.time_range_s.map(|x| x.0),
            time_s: r.time_s,
            node_hours: r.node_hours,
            price: r.price.clone(),
            energy_kwh: r.energy_kwh,
            co2e_kg: r.co2e_kg,
        })
        .collect();
    AllocationOut {
        format: format.name(),
        note,
        reason: a.reason.clone(),
        recommended: a.recommended.map(|i| a.rows[i].procs),
        rows,
        text: render(a, format),
    }
}

//! `--allocation md|csv|latex` on `speedup` and `multigrid`: the answer gains an "allocation"
//! key holding the strong-scaling table of an allocation request (`model::allocation`) in that
//! format, its rows as numbers, and the recommended size with its reason.

/// The help text of the allocation options, the same for every command that takes them
/// (a macro, so that `concat!` can put it inside a command's help).
macro_rules! allocation_help {
    () => {
        "ALLOCATION REQUESTS:
    --allocation md|csv|latex   adds \"allocation\": {format, text (the table in that format,
                      the recommendation below it), rows [{procs, nodes, time_s, time_low_s,
                      time_high_s, efficiency, core_hours, core_hours_low, core_hours_high,
                      cost, basis (\"measured\" or \"predicted\")}], recommended (processes),
                      reason, note}: the strong-scaling table a compute centre asks for. The
                      recommended size is the largest count whose efficiency reaches the
                      threshold (else the smallest). speedup: the measured counts with times
                      and the forecast's predictions; multigrid: the planner's ranking, its
                      costs in the catalog's currency unless a price is given.
    --cores-per-node C          nodes = processes / C rounded up (default 1)
    --price-per-core-hour P     cost = core-hours × P (EUR)
    --efficiency-threshold E    0 to 1 (default 0.5)
    --runs R                    core-hours for R production runs (default 1)
"
    };
}
pub(super) use allocation_help;

use serde_json::Value;

use crate::model::allocation::{from_plans, from_speedup, render, Allocation, AllocationOptions, SpeedupRows, TableFormat};
use crate::model::multigrid::split::Plan;
use crate::model::speedup::Prediction;

/// The commands that take these options, and the options.
pub const COMMANDS: &[&str] = &["speedup", "multigrid"];
pub const OPTIONS: &[&str] = &["--allocation", "--cores-per-node", "--price-per-core-hour", "--efficiency-threshold", "--runs"];

fn number(key: &str, v: &str, lo: f64, hi: f64) -> Result<f64, String> {
    v.parse::<f64>()
        .ok()
        .filter(|x| (lo..=hi).contains(x))
        .ok_or_else(|| format!("{key}: expected a number from {lo} to {hi}, found \"{v}\""))
}

/// The table's format and options from the command line's options; an option without
/// `--allocation`, which would be taken without a word, is an error saying so.
fn parse(opts: &[(String, String)]) -> Result<(Option<TableFormat>, AllocationOptions), String> {
    let mut format = None;
    let mut o = AllocationOptions::default();
    for (k, v) in opts {
        match k.as_str() {
            "--allocation" => {
                format = Some(TableFormat::from_name(v).ok_or_else(|| format!("--allocation: expected md, csv or latex, found \"{v}\""))?)
            }
            "--cores-per-node" => o.cores_per_node = number(k, v, 1.0, 1e6)? as u32,
            "--price-per-core-hour" => o.price_per_core_hour = Some(number(k, v, 0.0, 1e6)?),
            "--efficiency-threshold" => o.efficiency_threshold = number(k, v, 0.0, 1.0)?,
            "--runs" => o.runs = number(k, v, 1e-6, 1e9)?,
            _ => {}
        }
    }
    if format.is_none() {
        if let Some((k, _)) = opts.iter().find(|(k, _)| OPTIONS.contains(&k.as_str())) {
            return Err(format!("{k} applies only to the allocation table: add --allocation md, csv or latex"));
        }
    }
    Ok((format, o))
}

/// Checks the allocation options before any input is read: a bad value or an option that does
/// not apply is a usage error (exit status 2).
pub fn check(opts: &[(String, String)]) -> Result<(), String> {
    parse(opts).map(|_| ())
}

/// The answer with "allocation" added when `--allocation` was given (unchanged otherwise).
pub fn add(command: &str, out: Value, opts: &[(String, String)]) -> Result<Value, String> {
    let (format, o) = parse(opts)?;
    let Some(format) = format else { return Ok(out) };
    match out {
        Value::Array(list) => Ok(Value::Array(list.into_iter().map(|v| one(command, v, format, &o)).collect())),
        v => Ok(one(command, v, format, &o)),
    }
}

fn one(command: &str, mut out: Value, format: TableFormat, o: &AllocationOptions) -> Value {
    if out.get("error").is_some() {
        return out;
    }
    let a = match command {
        "multigrid" => {
            let plans: Vec<Plan> = out.pointer("/planner/ranking").and_then(|r| serde_json::from_value(r.clone()).ok()).unwrap_or_default();
            from_plans(&plans, o)
        }
        _ => from_speedup(&speedup_rows(&out), o),
    };
    let note = if a.rows.is_empty() {
        Some(match command {
            "multigrid" => "no planner ranking to tabulate: give a planner",
            _ => "no times to tabulate: give times (time_s)",
        })
    } else {
        None
    };
    out["allocation"] = answer(&a, format, note);
    out
}

/// The measured counts with times and the forecast's predictions with times, read back from
/// the speed-up answer (the page tabulates the same).
fn speedup_rows(out: &Value) -> SpeedupRows {
    let measured = out["points"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|p| Some((u32::try_from(p["n"].as_u64()?).ok()?, p["time_s"].as_f64()?, p["efficiency"].as_f64()?)))
                .collect()
        })
        .unwrap_or_default();
    let list = out.pointer("/forecast/predictions").and_then(Value::as_array).cloned().unwrap_or_default();
    let forecast = list
        .iter()
        .filter_map(|p| {
            let f = |k: &str| p.get(k).and_then(Value::as_f64);
            Some(Prediction {
                n: u32::try_from(p.get("n")?.as_u64()?).ok()?,
                speedup: f("speedup")?,
                speedup_low: f("low")?,
                speedup_high: f("high")?,
                efficiency: f("efficiency")?,
                time_s: Some((f("time_s")?, f("time_low_s")?, f("time_high_s")?)),
                horizon: f("horizon").unwrap_or(1.0),
                scale: 0.0,
                nodes: p.get("nodes").and_then(Value::as_u64).and_then(|d| u32::try_from(d).ok()),
                crosses_nodes: p.get("crosses_nodes").and_then(Value::as_bool).unwrap_or(false),
            })
        })
        .collect();
    SpeedupRows { measured, forecast }
}

/// The answer's "allocation": the table as text in its format, its rows, and the count
/// recommended. Fields are in the order of their names, as serde_json writes an object's keys.
#[derive(serde::Serialize)]
struct AllocationOut<'a> {
    format: &'static str,
    note: Option<&'a str>,
    reason: &'a str,
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
}

fn answer(a: &Allocation, format: TableFormat, note: Option<&str>) -> Value {
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
        })
        .collect();
    let out = AllocationOut { format: format.name(), note, reason: &a.reason, recommended: a.recommended.map(|i| a.rows[i].procs), rows, text: render(a, format) };
    serde_json::to_value(out).unwrap_or(Value::Null)
}

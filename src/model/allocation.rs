//! Allocation requests: the strong-scaling table a compute centre asks for in a proposal —
//! process and node counts, the predicted time with its range, parallel efficiency,
//! core-hours, node-hours, cost, energy and carbon — with the recommended size and why, as
//! Markdown, CSV or LaTeX. The speed-up calculator's table ranks its measured counts with the
//! forecast's predictions.
//!
//! Whole nodes are billed: nodes = processes / cores per node rounded up, node-hours = nodes ×
//! time (h) × runs, and core-hours count every core of every node held (nodes × cores per
//! node × time × runs), with the range from the time's range. The recommended size is the
//! largest count whose efficiency is at least the threshold (default 50 %, a common bar in
//! allocation calls); when none reaches it, the smallest count. Cost = core-hours × price per
//! core-hour, when a price is given. Energy and carbon are `cost::bill`'s (Green Algorithms)
//! of the nodes held at full load, when a node's power and the site's PUE are given (and the
//! grid's carbon intensity, for carbon); so is the price in a machine's own currency and unit.
//!
//! Rows come from the speed-up calculator's measured counts and forecast ([`from_speedup`]:
//! efficiency S(n)/n as the calculator gives it) or from the multigrid planner's ranking ([`from_plans`]:
//! efficiency relative to the smallest count ranked, E = n₀·t₀/(n·t), its cost, price, energy
//! and carbon as the planner's catalog bills them unless the options give their own).

use crate::model::cost::{bill, place, Economics, Money};
use crate::model::fmt_num;
use crate::model::multigrid::split::Plan;
use crate::model::speedup::Prediction;

/// What the table is computed with.
#[derive(Debug, Clone, PartialEq)]
pub struct AllocationOptions {
    pub cores_per_node: u32,
    /// Price per core-hour (None: no cost column).
    pub price_per_core_hour: Option<f64>,
    pub currency: String,
    /// Lowest acceptable efficiency, 0..1.
    pub efficiency_threshold: f64,
    /// Production runs the request covers.
    pub runs: f64,
    /// A machine's price, node power, PUE and carbon intensity (and memory, for the energy's
    /// memory part), for the rows' price, energy and carbon; its `cores_per_node` is not read
    /// (the field above is).
    pub economics: Economics,
}

impl Default for AllocationOptions {
    fn default() -> Self {
        AllocationOptions {
            cores_per_node: 1,
            price_per_core_hour: None,
            currency: "EUR".into(),
            efficiency_threshold: 0.5,
            runs: 1.0,
            economics: Economics::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub procs: u32,
    pub nodes: u32,
    pub time_s: f64,
    /// The time's range, when the model gives one.
    pub time_range_s: Option<(f64, f64)>,
    pub efficiency: f64,
    pub core_hours: f64,
    pub core_hours_range: Option<(f64, f64)>,
    pub cost: Option<f64>,
    /// Measured (then it has no range), not predicted.
    pub measured: bool,
    /// Whole nodes held × hours × runs.
    pub node_hours: f64,
    /// What the nodes held are billed in the machine's currency and unit (planner rows whose
    /// clusters have a price).
    pub price: Option<crate::model::cost::Money>,
    pub energy_kwh: Option<f64>,
    pub co2e_kg: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Allocation {
    pub rows: Vec<Row>,
    /// Index of the recommended row.
    pub recommended: Option<usize>,
    pub reason: String,
    pub currency: String,
}

/// Table formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    Markdown,
    Csv,
    Latex,
}

impl TableFormat {
    pub const ALL: [TableFormat; 3] = [TableFormat::Markdown, TableFormat::Csv, TableFormat::Latex];

    pub fn from_name(s: &str) -> Option<TableFormat> {
        match s {
            "md" | "markdown" => Some(TableFormat::Markdown),
            "csv" => Some(TableFormat::Csv),
            "latex" | "tex" => Some(TableFormat::Latex),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TableFormat::Markdown => "md",
            TableFormat::Csv => "csv",
            TableFormat::Latex => "latex",
        }
    }
}

fn row(procs: u32, time_s: f64, range: Option<(f64, f64)>, efficiency: f64, opts: &AllocationOptions) -> Row {
    let cores = opts.cores_per_node.max(1);
    let nodes = procs.div_ceil(cores);
    // Every core of every node held is billed, busy or idle.
    let hours = |t: f64| f64::from(nodes) * f64::from(cores) * t / 3600.0 * opts.runs;
    let core_hours = hours(time_s);
    // (`bill` takes the cores of a node from the placement.)
    let b = bill(&opts.economics, &place(u64::from(procs), cores, cores), time_s, 1.0);
    Row {
        procs,
        nodes,
        node_hours: f64::from(nodes) * time_s / 3600.0 * opts.runs,
        price: b.price.map(|m| Money { amount: m.amount * opts.runs, units: m.units * opts.runs, ..m }),
        energy_kwh: b.energy_kwh.map(|e| e * opts.runs),
        co2e_kg: b.co2e_kg.map(|c| c * opts.runs),
        time_s,
        time_range_s: range,
        efficiency,
        core_hours,
        core_hours_range: range.map(|(lo, hi)| (hours(lo), hours(hi))),
        cost: opts.price_per_core_hour.map(|p| core_hours * p),
        measured: false,
    }
}

fn finish(mut rows: Vec<Row>, opts: &AllocationOptions) -> Allocation {
    rows.retain(|r| r.time_s.is_finite() && r.efficiency.is_finite() && r.time_s > 0.0);
    // A count both measured and predicted keeps the measurement (the sort is stable and the
    // measured rows come first).
    rows.sort_by_key(|r| (r.procs, !r.measured));
    rows.dedup_by_key(|r| r.procs);
    let th = opts.efficiency_threshold;
    let ok = rows.iter().rposition(|r| r.efficiency >= th);
    let pct = |e: f64| format!("{} %", fmt_num(e * 100.0, 3));
    let (recommended, reason) = match ok {
        Some(i) => {
            let r = &rows[i];
            let mut why = format!(
                "{} processes ({} nodes): the largest count whose {} efficiency, {}, reaches the {} threshold",
                r.procs,
                r.nodes,
                if r.measured { "measured" } else { "predicted" },
                pct(r.efficiency),
                pct(th)
            );
            if let Some(next) = rows.get(i + 1) {
                why.push_str(&format!(
                    "; {} processes would run {}× faster for {}× the core-hours at {} efficiency",
                    next.procs,
                    fmt_num(r.time_s / next.time_s, 3),
                    fmt_num(next.core_hours / r.core_hours, 3),
                    pct(next.efficiency)
                ));
            }
            (Some(i), why)
        }
        None if !rows.is_empty() => (
            Some(0),
            format!("{} processes: no count reaches the {} efficiency threshold, so the smallest, which costs the fewest core-hours", rows[0].procs, pct(th)),
        ),
        None => (None, "no prediction to recommend from".into()),
    };
    Allocation { rows, recommended, reason, currency: opts.currency.clone() }
}

/// What the speed-up calculator tabulates: the measured counts (n, time, efficiency) and the
/// forecast's predictions (those with a time), ranked together.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpeedupRows {
    pub measured: Vec<(u32, f64, f64)>,
    pub forecast: Vec<Prediction>,
}

/// From the speed-up calculator's measurements and forecast: a count measured is recommended
/// on its measured efficiency, a larger one on the forecast's.
pub fn from_speedup(s: &SpeedupRows, opts: &AllocationOptions) -> Allocation {
    let measured = s.measured.iter().map(|&(n, t, e)| Row { measured: true, ..row(n, t, None, e, opts) });
    let predicted = s.forecast.iter().filter_map(|p| {
        let (t, lo, hi) = p.time_s?;
        Some(row(p.n, t, Some((lo, hi)), p.efficiency, opts))
    });
    finish(measured.chain(predicted).collect(), opts)
}

/// What costs priced by the cluster catalog are in: its prices are per CPU-hour in the
/// user's own currency, whatever that is.
pub const CATALOG_CURRENCY: &str = "catalog currency";

/// From the multigrid planner's ranked plans: the fastest plan per process count; the cost is
/// the planner's own (its catalog's prices, in [`CATALOG_CURRENCY`]) unless a price is given.
pub fn from_plans(plans: &[Plan], opts: &AllocationOptions) -> Allocation {
    let mut best: Vec<&Plan> = Vec::new();
    for p in plans {
        let np = p.total_np();
        match best.iter_mut().find(|b| b.total_np() == np) {
            Some(b) if p.time_s < b.time_s => *b = p,
            Some(_) => {}
            None => best.push(p),
        }
    }
    best.sort_by_key(|p| p.total_np());
    let Some(base) = best.first() else { return finish(Vec::new(), opts) };
    let (n0, t0) = (base.total_np() as f64, base.time_s);
    let rows = best
        .iter()
        .map(|p| {
            let np = u32::try_from(p.total_np()).unwrap_or(u32::MAX);
            let mut r = row(np, p.time_s, Some((p.time_low_s, p.time_high_s)), n0 * t0 / (np as f64 * p.time_s), opts);
            if opts.price_per_core_hour.is_none() {
                r.cost = Some(p.cost * opts.runs);
            }
            // Nodes and node-hours as the table's own cores per node place them (as before);
            // the price, energy and carbon are the plan's, of the nodes it holds, unless the
            // options give a machine's own.
            if opts.economics.price.is_none() {
                r.price =
                    p.price.clone().map(|m| Money { amount: m.amount * opts.runs, units: m.units * opts.runs, ..m });
            }
            if opts.economics.node_power_w.is_none() {
                r.energy_kwh = p.energy_kwh.map(|e| e * opts.runs);
                r.co2e_kg = p.co2e_kg.map(|c| c * opts.runs);
            }
            r
        })
        .collect();
    let mut a = finish(rows, opts);
    if opts.price_per_core_hour.is_none() {
        a.currency = CATALOG_CURRENCY.into();
    }
    a
}

/// Numbers in tables: 4 significant digits, no thousands separators (CSV reads them back).
fn num(x: f64) -> String {
    fmt_num(x, 4)
}

fn cells(a: &Allocation, r: &Row, i: usize, f: TableFormat) -> Vec<String> {
    let range = |v: Option<(f64, f64)>| v.map(|(lo, hi)| format!("{}–{}", num(lo), num(hi))).unwrap_or_default();
    let mut c = vec![r.procs.to_string(), r.nodes.to_string(), num(r.time_s)];
    match f {
        // CSV: low and high in their own columns, so a spreadsheet reads numbers.
        TableFormat::Csv => {
            c.push(r.time_range_s.map(|x| num(x.0)).unwrap_or_default());
            c.push(r.time_range_s.map(|x| num(x.1)).unwrap_or_default());
        }
        _ => c.push(range(r.time_range_s)),
    }
    c.push(num(r.efficiency * 100.0));
    c.push(num(r.core_hours));
    c.push(num(r.node_hours));
    if a.rows.iter().any(|r| r.energy_kwh.is_some()) {
        c.push(r.energy_kwh.map(num).unwrap_or_default());
    }
    if a.rows.iter().any(|r| r.co2e_kg.is_some()) {
        c.push(r.co2e_kg.map(num).unwrap_or_default());
    }
    if a.rows.iter().any(|r| r.cost.is_some()) {
        c.push(r.cost.map(num).unwrap_or_default());
    }
    c.push(if a.recommended == Some(i) { "yes".into() } else { String::new() });
    if a.rows.iter().any(|r| r.measured) {
        c.push(if r.measured { "measured" } else { "forecast" }.into());
    }
    c
}

fn header(a: &Allocation, f: TableFormat) -> Vec<String> {
    let mut h: Vec<String> = vec!["processes".into(), "nodes".into(), "time (s)".into()];
    match f {
        TableFormat::Csv => {
            h.push("time low (s)".into());
            h.push("time high (s)".into());
        }
        _ => h.push("time range (s)".into()),
    }
    h.push("efficiency (%)".into());
    h.push("core-hours".into());
    h.push("node-hours".into());
    if a.rows.iter().any(|r| r.energy_kwh.is_some()) {
        h.push("energy (kWh)".into());
    }
    if a.rows.iter().any(|r| r.co2e_kg.is_some()) {
        h.push("CO2e (kg)".into());
    }
    if a.rows.iter().any(|r| r.cost.is_some()) {
        h.push(format!("cost ({})", a.currency));
    }
    h.push("recommended".into());
    if a.rows.iter().any(|r| r.measured) {
        h.push("basis".into());
    }
    h
}

fn latex_escape(s: &str) -> String {
    let mut out = String::new();
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '–' => out.push_str("--"),
            '×' => out.push_str("$\\times$"),
            _ => out.push(ch),
        }
    }
    out
}

/// The table in a format, with the recommendation below it (a comment line in CSV).
pub fn render(a: &Allocation, f: TableFormat) -> String {
    let head = header(a, f);
    let body: Vec<Vec<String>> = a.rows.iter().enumerate().map(|(i, r)| cells(a, r, i, f)).collect();
    let mut s = String::new();
    match f {
        TableFormat::Markdown => {
            let widths: Vec<usize> = (0..head.len())
                .map(|k| {
                    body.iter().map(|r| r[k].chars().count()).chain([head[k].chars().count(), 3]).max().unwrap_or(3)
                })
                .collect();
            let line = |cells: &[String]| -> String {
                let padded: Vec<String> = cells
                    .iter()
                    .zip(&widths)
                    .map(|(c, &w)| format!("{}{c}", " ".repeat(w - c.chars().count())))
                    .collect();
                format!("| {} |\n", padded.join(" | "))
            };
            s.push_str(&line(&head));
            s.push_str(&format!(
                "|{}|\n",
                widths.iter().map(|&w| format!("{}:", "-".repeat(w + 1))).collect::<Vec<_>>().join("|")
            ));
            for r in &body {
                s.push_str(&line(r));
            }
            s.push_str(&format!("\nRecommended: {}.\n", a.reason));
        }
        TableFormat::Csv => {
            for r in std::iter::once(&head).chain(&body) {
                s.push_str(&super::csv::record(r));
                s.push('\n');
            }
        }
        TableFormat::Latex => {
            s.push_str(&format!("\\begin{{tabular}}{{{}}}\n\\hline\n", "r".repeat(head.len())));
            s.push_str(&head.iter().map(|c| latex_escape(c)).collect::<Vec<_>>().join(" & "));
            s.push_str(" \\\\\n\\hline\n");
            for r in &body {
                s.push_str(&r.iter().map(|c| latex_escape(c)).collect::<Vec<_>>().join(" & "));
                s.push_str(" \\\\\n");
            }
            s.push_str("\\hline\n\\end{tabular}\n");
            s.push_str(&format!("% Recommended: {}.\n", a.reason.replace('\n', " ")));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pred(n: u32, t: f64, e: f64) -> Prediction {
        Prediction {
            n,
            speedup: e * f64::from(n),
            speedup_low: 0.0,
            speedup_high: 0.0,
            efficiency: e,
            horizon: 1.0,
            scale: 0.3,
            nodes: None,
            crosses_nodes: false,
            time_s: Some((t, t * 0.9, t * 1.1)),
        }
    }

    fn forecast(p: Vec<Prediction>) -> SpeedupRows {
        SpeedupRows { measured: Vec::new(), forecast: p }
    }

    fn example() -> Allocation {
        let opts =
            AllocationOptions { cores_per_node: 48, price_per_core_hour: Some(0.02), ..AllocationOptions::default() };
        // 100 s on 64 processes at 90 %; 60 s on 128 at 75 %; 45 s on 256 at 50 %; 40 on 512 at 28 %.
        from_speedup(
            &forecast(vec![pred(128, 60.0, 0.75), pred(64, 100.0, 0.9), pred(256, 45.0, 0.5), pred(512, 40.0, 0.28)]),
            &opts,
        )
    }

    #[test]
    fn rows_core_hours_cost_and_the_recommendation() {
        let a = example();
        assert_eq!(a.rows.iter().map(|r| r.procs).collect::<Vec<_>>(), [64, 128, 256, 512]);
        assert_eq!(a.rows[2].nodes, 6); // 256 / 48 rounded up
                                        // Whole nodes are billed: 64 processes hold 2 nodes, 96 cores; 128 hold 3, 144 cores.
        assert!((a.rows[0].core_hours - 96.0 * 100.0 / 3600.0).abs() < 1e-12);
        assert!((a.rows[0].core_hours_range.unwrap().1 - 96.0 * 110.0 / 3600.0).abs() < 1e-12);
        assert!((a.rows[1].cost.unwrap() - 144.0 * 60.0 / 3600.0 * 0.02).abs() < 1e-12);
        assert!((a.rows[1].node_hours - 3.0 * 60.0 / 3600.0).abs() < 1e-12);
        // 256 is the largest at 50 % or more.
        assert_eq!(a.recommended, Some(2));
        assert!(a.reason.starts_with("256 processes (6 nodes): the largest count whose predicted efficiency, 50 %, reaches the 50 % threshold"), "{}", a.reason);
        assert!(
            // 512 processes hold 11 nodes (528 cores) × 40 s against 6 (288) × 45 s.
            a.reason.contains("512 processes would run 1.12× faster for 1.63× the core-hours at 28 % efficiency"),
            "{}",
            a.reason
        );
        let none = from_speedup(&forecast(vec![pred(64, 100.0, 0.3)]), &AllocationOptions::default());
        assert_eq!(none.recommended, Some(0));
        assert!(none.reason.contains("no count reaches the 50 % efficiency threshold"));
        assert_eq!(from_speedup(&SpeedupRows::default(), &AllocationOptions::default()).recommended, None);
    }

    /// Energy and carbon of a row by hand (Green Algorithms at full load): a 560 W node of
    /// 448 GB at PUE 1.18 on a 343.48 g/kWh grid (the catalog's azure-hbv3), and the machine's
    /// price per node-hour, for 130 processes on 120-core nodes over 100 s and 3 runs.
    #[test]
    fn energy_carbon_and_price_of_the_nodes_held_by_hand() {
        let economics = Economics {
            memory_per_node_gb: 448.0,
            price: Some(crate::model::catalog::Price {
                amount: 3.6,
                currency: "USD".into(),
                unit: "node-hour".into(),
                ..Default::default()
            }),
            node_power_w: Some(560.0),
            pue: Some(1.18),
            carbon_g_per_kwh: Some(343.48),
            ..Economics::default()
        };
        let opts = AllocationOptions { cores_per_node: 120, runs: 3.0, economics, ..AllocationOptions::default() };
        let a = from_speedup(&forecast(vec![pred(130, 100.0, 0.8)]), &opts);
        let r = &a.rows[0];
        // 2 nodes held for 100 s, 3 times: 1/6 node-hour; at load 1 the whole node's 560 W.
        let node_hours = 2.0 * 100.0 / 3600.0 * 3.0;
        assert_eq!(r.nodes, 2);
        assert!((r.node_hours - node_hours).abs() < 1e-12);
        assert!((r.core_hours - 240.0 * 100.0 / 3600.0 * 3.0).abs() < 1e-12, "every core held");
        let kwh = node_hours * 560.0 * 1.18 / 1000.0;
        assert!((r.energy_kwh.unwrap() - kwh).abs() < 1e-12, "{:?} against {kwh}", r.energy_kwh);
        assert!((r.co2e_kg.unwrap() - kwh * 343.48 / 1000.0).abs() < 1e-12);
        let price = r.price.as_ref().expect("a price");
        assert!((price.amount - node_hours * 3.6).abs() < 1e-12 && price.currency == "USD");
        let md = render(&a, TableFormat::Markdown);
        let head = md.lines().next().unwrap_or_default();
        assert!(head.contains("| energy (kWh) | CO2e (kg) |"), "{head}");
        // Without a PUE there is no energy (and no carbon), and no column for them.
        let mut no_pue = opts.clone();
        no_pue.economics.pue = None;
        let b = from_speedup(&forecast(vec![pred(130, 100.0, 0.8)]), &no_pue);
        assert_eq!((b.rows[0].energy_kwh, b.rows[0].co2e_kg), (None, None));
        assert!(!render(&b, TableFormat::Csv).contains("energy"));
    }

    #[test]
    fn measured_counts_are_ranked_with_the_forecast() {
        // Issue 33: 1: 100 s, 2: 52.4, 4: 28.9, 8: 17.1, 16: 11.8, predicted at 32…1,024; the
        // table said "no count reaches the 50 % efficiency threshold" and chose 32, though 16
        // was measured at 53 %.
        let measured: Vec<(u32, f64, f64)> = [(1, 100.0), (2, 52.4), (4, 28.9), (8, 17.1), (16, 11.8)]
            .iter()
            .map(|&(n, t)| (n, t, 100.0 / (f64::from(n) * t)))
            .collect();
        let rows =
            SpeedupRows { measured, forecast: vec![pred(16, 11.0, 0.57), pred(32, 8.6, 0.36), pred(64, 7.2, 0.22)] };
        let a = from_speedup(&rows, &AllocationOptions::default());
        assert_eq!(
            a.rows.iter().map(|r| (r.procs, r.measured)).collect::<Vec<_>>(),
            [(1, true), (2, true), (4, true), (8, true), (16, true), (32, false), (64, false)]
        );
        assert_eq!(a.rows[4].time_s, 11.8, "a count measured keeps its measurement");
        assert_eq!(a.recommended, Some(4));
        assert!(
            a.reason.starts_with("16 processes (16 nodes): the largest count whose measured efficiency, 53 %"),
            "{}",
            a.reason
        );
        let md = render(&a, TableFormat::Markdown);
        assert!(md.lines().next().is_some_and(|h| h.ends_with(" basis |")), "{md}");
        assert!(md.contains("| measured |") && md.contains("| forecast |"), "{md}");
    }

    #[test]
    fn csv_parses_back_to_the_same_numbers() {
        let a = example();
        let text = render(&a, TableFormat::Csv);
        let mut rd = csv::ReaderBuilder::new().from_reader(text.as_bytes());
        let head: Vec<String> = rd.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(
            head,
            [
                "processes",
                "nodes",
                "time (s)",
                "time low (s)",
                "time high (s)",
                "efficiency (%)",
                "core-hours",
                "node-hours",
                "cost (EUR)",
                "recommended"
            ]
        );
        let rows: Vec<csv::StringRecord> = rd.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 4);
        for (rec, r) in rows.iter().zip(&a.rows) {
            let f = |k: usize| rec[k].parse::<f64>().unwrap();
            let close = |x: f64, y: f64| (x - y).abs() <= 5e-4 * y.abs();
            assert_eq!(f(0) as u32, r.procs);
            assert_eq!(f(1) as u32, r.nodes);
            assert!(
                close(f(2), r.time_s)
                    && close(f(3), r.time_range_s.unwrap().0)
                    && close(f(4), r.time_range_s.unwrap().1)
            );
            assert!(close(f(5), r.efficiency * 100.0) && close(f(6), r.core_hours) && close(f(8), r.cost.unwrap()));
            assert!(close(f(7), r.node_hours) && close(r.node_hours, f64::from(r.nodes) * r.time_s / 3600.0));
        }
        assert_eq!(&rows[2][9], "yes");
    }

    #[test]
    fn markdown_header_and_separator_line_up() {
        let text = render(&example(), TableFormat::Markdown);
        let lines: Vec<&str> = text.lines().collect();
        let bars =
            |l: &str| l.char_indices().filter(|c| c.1 == '|').map(|c| l[..c.0].chars().count()).collect::<Vec<_>>();
        assert!(lines[1].chars().all(|c| c == '|' || c == '-' || c == ':'), "{}", lines[1]);
        for l in &lines[..6] {
            assert_eq!(bars(l), bars(lines[0]), "{l}");
        }
        assert!(lines[2].starts_with("|        64 |"), "{}", lines[2]);
        assert!(text.contains("\nRecommended: 256 processes"));
    }

    #[test]
    fn latex_is_a_tabular_with_specials_escaped() {
        let text = render(&example(), TableFormat::Latex);
        assert!(text.starts_with("\\begin{tabular}{rrrrrrrrr}\n\\hline\n"));
        assert!(text.contains("efficiency (\\%) & core-hours & node-hours & cost (EUR)"));
        assert!(text.contains("90--110"));
        let body: Vec<&str> = text.lines().filter(|l| l.ends_with("\\\\")).collect();
        assert_eq!(body.len(), 5);
        assert!(body.iter().all(|l| l.matches(" & ").count() == 8));
        // Every special character of the reason is escaped or in a comment.
        assert!(text.lines().filter(|l| !l.starts_with('%')).all(|l| !l.contains(" % ")));
        assert_eq!(
            latex_escape("a_b & 50% #1 {x} ~ ^ \\"),
            "a\\_b \\& 50\\% \\#1 \\{x\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}"
        );
        assert!(text.trim_end().ends_with('.') && text.contains("\\end{tabular}\n% Recommended:"));
    }
}

/// The page's allocation inputs (saved with the page's other inputs under these keys).
pub const KEY_CORES: &str = "alloc_cores_per_node";
pub const KEY_PRICE: &str = "alloc_price";
pub const KEY_THRESHOLD: &str = "alloc_threshold";
pub const KEY_FORMAT: &str = "alloc_format";
/// A node's power (W), the site's PUE and the grid's carbon intensity (g CO2e/kWh), for the
/// energy and carbon columns (the speed-up page's; the planner's come from its clusters).
pub const KEY_POWER: &str = "alloc_node_power_w";
pub const KEY_PUE: &str = "alloc_pue";
pub const KEY_CARBON: &str = "alloc_carbon_g_per_kwh";

/// Options from the page's texts (`text(key)` reads one of the `KEY_*` fields; empty: the
/// default), with an error per bad field.
pub fn options_from_texts(
    text: impl Fn(&str) -> String,
    energy: bool,
) -> (AllocationOptions, Vec<(&'static str, crate::model::InputError)>) {
    use crate::model::InputError;
    let mut o = AllocationOptions::default();
    let mut errors = Vec::new();
    let mut read = |key: &'static str, label: &str, lo: f64, hi: f64| -> Option<f64> {
        let t = text(key);
        let t = t.trim();
        if t.is_empty() {
            return None;
        }
        match t.parse::<f64>() {
            Ok(x) if (lo..=hi).contains(&x) => Some(x),
            _ => {
                errors.push((
                    key,
                    InputError::new(
                        label,
                        format!(
                            "expected a number from {lo} to {hi}, found \"{}\"",
                            t.chars().take(24).collect::<String>()
                        ),
                    ),
                ));
                None
            }
        }
    };
    if let Some(c) = read(KEY_CORES, "cores per node", 1.0, 1e6) {
        o.cores_per_node = c as u32;
    }
    o.price_per_core_hour = read(KEY_PRICE, "price per core-hour", 0.0, 1e6);
    if let Some(t) = read(KEY_THRESHOLD, "efficiency threshold", 0.0, 100.0) {
        o.efficiency_threshold = t / 100.0;
    }
    // Only a page with the fields reads them (a constant: the planner's carries none of it).
    if energy {
        o.economics.node_power_w = read(KEY_POWER, "node power", 1.0, 1e6);
        o.economics.pue = read(KEY_PUE, "PUE", 1.0, 10.0);
        o.economics.carbon_g_per_kwh = read(KEY_CARBON, "carbon intensity", 0.0, 1e4);
    }
    (o, errors)
}

impl SpeedupRows {
    /// A strong-scaling analysis' rows: the measured counts with a time, then the forecast.
    pub fn of_analysis(a: &crate::model::speedup::Analysis) -> SpeedupRows {
        SpeedupRows {
            measured: a.points.iter().filter_map(|p| Some((p.n, p.time_s?, p.efficiency?))).collect(),
            forecast: a.forecast.clone(),
        }
    }

    /// A weak-scaling series' rows: the measured counts, then the predictions (speed-up n·E,
    /// the scaled speed-up).
    pub fn of_weak(w: &crate::model::speedup::weak::Weak) -> SpeedupRows {
        SpeedupRows {
            measured: w.points.iter().map(|p| (p.n, p.time_s, p.efficiency)).collect(),
            forecast: w
                .predictions
                .iter()
                .map(|p| {
                    let n = f64::from(p.n);
                    Prediction {
                        n: p.n,
                        speedup: n * p.efficiency.0,
                        speedup_low: n * p.efficiency.1,
                        speedup_high: n * p.efficiency.2,
                        efficiency: p.efficiency.0,
                        time_s: Some(p.time_s),
                        horizon: p.horizon,
                        scale: 0.0,
                        nodes: None,
                        crosses_nodes: false,
                    }
                })
                .collect(),
        }
    }
}

/// What a page's table is made from: the speed-up page's predictions or the planner's ranking.
pub trait AllocationSource {
    /// Whether the page asks for a node's power, the PUE and the grid's carbon intensity (the
    /// speed-up page; the planner's come from its clusters). A constant, so that a page
    /// without the fields carries none of their code.
    const ENERGY_FIELDS: bool = false;
    fn allocation(&self, opts: &AllocationOptions) -> Allocation;
}

impl AllocationSource for SpeedupRows {
    const ENERGY_FIELDS: bool = true;
    fn allocation(&self, opts: &AllocationOptions) -> Allocation {
        from_speedup(self, opts)
    }
}

impl AllocationSource for [Plan] {
    fn allocation(&self, opts: &AllocationOptions) -> Allocation {
        from_plans(self, opts)
    }
}

/// What a page's "Allocation request" section shows: the table, its text in the chosen format
/// and an error per bad field.
#[derive(Debug, Clone, PartialEq)]
pub struct PageTable {
    pub allocation: Allocation,
    pub format: TableFormat,
    pub text: String,
    pub errors: Vec<(&'static str, crate::model::InputError)>,
}

/// The section from the page's texts (`text(key)` reads one of the `KEY_*` fields).
pub fn page_table<S: AllocationSource + ?Sized>(text: impl Fn(&str) -> String, source: &S) -> PageTable {
    let (opts, errors) = options_from_texts(&text, S::ENERGY_FIELDS);
    let format = TableFormat::from_name(&text(KEY_FORMAT)).unwrap_or(TableFormat::Markdown);
    let allocation = source.allocation(&opts);
    let text = render(&allocation, format);
    PageTable { allocation, format, text, errors }
}

#[cfg(test)]
mod page_tests {
    use super::*;

    #[test]
    fn page_texts_to_options() {
        let texts = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|p| p.0 == k).map(|p| p.1.to_string()).unwrap_or_default()
        };
        let (o, e) = options_from_texts(texts(&[(KEY_CORES, "48"), (KEY_PRICE, "0.02"), (KEY_THRESHOLD, "60")]), true);
        assert!(e.is_empty());
        assert_eq!((o.cores_per_node, o.price_per_core_hour, o.efficiency_threshold), (48, Some(0.02), 0.6));
        let (o, e) = options_from_texts(texts(&[]), true);
        assert_eq!(o, AllocationOptions::default());
        assert!(e.is_empty());
        let (_, e) = options_from_texts(
            texts(&[
                (KEY_CORES, "0"),
                (KEY_PRICE, "x"),
                (KEY_THRESHOLD, "150"),
                (KEY_POWER, "-3"),
                (KEY_PUE, "0.5"),
                (KEY_CARBON, "inf"),
            ]),
            true,
        );
        assert_eq!(
            e.iter().map(|e| e.0).collect::<Vec<_>>(),
            [KEY_CORES, KEY_PRICE, KEY_THRESHOLD, KEY_POWER, KEY_PUE, KEY_CARBON]
        );
        assert_eq!(e[1].1.message, "expected a number from 0 to 1000000, found \"x\"");
        let (o, e) = options_from_texts(texts(&[(KEY_POWER, "560"), (KEY_PUE, "1.18"), (KEY_CARBON, "343.48")]), true);
        assert!(e.is_empty());
        assert_eq!(
            (o.economics.node_power_w, o.economics.pue, o.economics.carbon_g_per_kwh),
            (Some(560.0), Some(1.18), Some(343.48))
        );
    }
}

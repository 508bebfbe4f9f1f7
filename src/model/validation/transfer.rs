//! How right are transfers (`model::transfer`)? Pairs of measured series of one code and one
//! problem on two machines (`validation/transfer_pairs.csv`), with each machine's figures and
//! their sources (`validation/transfer_machines.json`): every series of a pair is given whole
//! to the transfer, and the other machine's every measured count is predicted, both ways (A→B
//! and B→A; a pair is counted once). Each prediction is made under both bounds.
//!
//! Errors are |predicted − measured| / measured. The range's quantiles are those of
//! ln(measured / predicted) / u (u = `transfer::scale` at the horizon), at 5 % and 95 %, each transfer weighted alike; its coverage is measured on codes
//! held out whole: for each code, the quantiles come from the other codes' pairs only. The
//! committed quantiles (`transfer/calibration.rs`) are those of every pair.
//!
//! The processes per node of a series are what its runs used (`Series::cores_per_node`,
//! from the corpus' node counts) where it tells, else the machine's cores: a half-populated
//! node gives each process twice the bandwidth.

use std::collections::BTreeMap;

use super::corpus::{self, Series};
use super::{quantile, tail_quantiles};
use crate::model::fit::forecast::{self, Quantiles, TAIL};
use crate::model::transfer::{self, Bound, Machine};
use crate::model::InputError;

/// Where a figure comes from.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Source {
    pub title: String,
    pub address: String,
    pub date: String,
}

/// One figure of a machine, with its source and where in it the number is.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Figure {
    pub value: f64,
    pub source: Source,
    #[serde(rename = "where")]
    pub place: String,
    /// A second document the figure also rests on.
    #[serde(default)]
    pub also: Option<Source>,
}

/// A machine of the validation pairs; a figure left out is unknown.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct MachineEntry {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub cores_per_node: Option<Figure>,
    #[serde(default)]
    pub core_gflops: Option<Figure>,
    #[serde(default)]
    pub memory_bandwidth_gb_s: Option<Figure>,
    #[serde(default)]
    pub latency_us: Option<Figure>,
    #[serde(default)]
    pub bandwidth_mb_s: Option<Figure>,
}

impl MachineEntry {
    pub fn machine(&self) -> Machine {
        let v = |f: &Option<Figure>| f.as_ref().map(|f| f.value);
        Machine {
            cores_per_node: v(&self.cores_per_node),
            core_gflops: v(&self.core_gflops),
            memory_bandwidth_gb_s: v(&self.memory_bandwidth_gb_s),
            latency_us: v(&self.latency_us),
            bandwidth_mb_s: v(&self.bandwidth_mb_s),
        }
    }

    fn figures(&self) -> [(&'static str, &Option<Figure>); 5] {
        [
            ("cores_per_node", &self.cores_per_node),
            ("core_gflops", &self.core_gflops),
            ("memory_bandwidth_gb_s", &self.memory_bandwidth_gb_s),
            ("latency_us", &self.latency_us),
            ("bandwidth_mb_s", &self.bandwidth_mb_s),
        ]
    }
}

#[derive(serde::Deserialize)]
struct MachineFile {
    machines: Vec<MachineEntry>,
}

/// Reads the machines file: every figure given must name its source (title, address, date)
/// and be a number the transfer takes. `field` names the file in errors.
pub fn read_machines(field: &str, text: &str) -> Result<Vec<MachineEntry>, InputError> {
    let file: MachineFile =
        serde_json::from_str(text).map_err(|e| InputError::new(field, format!("not a machines file: {e}")))?;
    for (i, m) in file.machines.iter().enumerate() {
        for (key, f) in m.figures() {
            let Some(f) = f else { continue };
            let s = &f.source;
            if [&s.title, &s.address, &s.date, &f.place].iter().any(|t| t.trim().is_empty()) {
                return Err(InputError::new(field, format!("machines[{i}] ({}).{key}: a figure needs its source's title, address and date, and where in it", m.id)));
            }
        }
        m.machine().check(&format!("{field}: machines[{i}] ({})", m.id))?;
        if file.machines[..i].iter().any(|o| o.id == m.id) {
            return Err(InputError::new(field, format!("machines[{i}]: the id \"{}\" is given twice", m.id)));
        }
    }
    Ok(file.machines)
}

/// One row of the pairs file: two series of one code and problem on two machines.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    pub id: String,
    /// The code, which is also the unit held out.
    pub code: String,
    pub problem: String,
    pub series: [String; 2],
    pub machines: [String; 2],
}

const PAIR_COLUMNS: [&str; 9] =
    ["pair", "code", "problem", "series_a", "machine_a", "series_b", "machine_b", "source_a", "source_b"];

/// Reads the pairs file (the columns `PAIR_COLUMNS`, a header row first; every cell given).
pub fn read_pairs(field: &str, text: &str) -> Result<Vec<Pair>, InputError> {
    let (mut reader, header) = corpus::with_header(field, text)?;
    if header != PAIR_COLUMNS {
        return Err(InputError::new(field, format!("expected the columns {}", PAIR_COLUMNS.join(","))).at(1, None));
    }
    let mut out = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = record.map_err(|e| InputError::new(field, format!("unreadable row: {e}")).at(line, None))?;
        let cell = |c: usize| record.get(c).unwrap_or("").trim().to_string();
        if let Some(c) = (0..PAIR_COLUMNS.len()).find(|&c| cell(c).is_empty()) {
            return Err(InputError::new(field, format!("{} is empty", PAIR_COLUMNS[c])).at(line, Some(c + 1)));
        }
        if cell(4) == cell(6) {
            return Err(InputError::new(field, "a pair needs two different machines").at(line, Some(7)));
        }
        out.push(Pair {
            id: cell(0),
            code: cell(1),
            problem: cell(2),
            series: [cell(3), cell(5)],
            machines: [cell(4), cell(6)],
        });
    }
    Ok(out)
}

/// One transferred time checked against the measured one.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// Index of the pair, and the direction: 0 for A→B, 1 for B→A.
    pub pair: usize,
    pub direction: usize,
    pub bound: Bound,
    pub n: f64,
    pub horizon: f64,
    pub predicted: f64,
    pub measured: f64,
}

impl Sample {
    pub fn rel_error(&self) -> f64 {
        (self.predicted - self.measured).abs() / self.measured
    }

    /// ln(measured / predicted) over the transfer's scale at its horizon.
    pub fn score(&self) -> f64 {
        (self.measured / self.predicted).ln() / transfer::scale(self.horizon)
    }

    /// The range under quantiles `q`.
    pub fn range(&self, q: Quantiles) -> (f64, f64) {
        transfer::range(self.predicted, self.horizon, q)
    }

    /// The same-machine range at this horizon.
    pub fn same_machine(&self) -> (f64, f64) {
        forecast::horizon_range(self.predicted, self.horizon)
    }
}

/// Every transfer of every pair, both ways, under both bounds. An error names a series or a
/// machine the pairs name but the corpora or the machines file lack, or a ratio that cannot
/// be formed (a figure left out).
pub fn samples(pairs: &[Pair], machines: &[MachineEntry], series: &[Series]) -> Result<Vec<Sample>, InputError> {
    let machine = |id: &str| {
        machines
            .iter()
            .find(|m| m.id == id)
            .ok_or_else(|| InputError::new("transfer pairs", format!("no machine \"{id}\" in the machines file")))
    };
    let find = |id: &str| {
        series
            .iter()
            .find(|s| s.id == id)
            .ok_or_else(|| InputError::new("transfer pairs", format!("no series \"{id}\" in the corpora")))
    };
    let mut out = Vec::new();
    for (pi, p) in pairs.iter().enumerate() {
        let s = [find(&p.series[0])?, find(&p.series[1])?];
        let m = [machine(&p.machines[0])?, machine(&p.machines[1])?];
        for direction in 0..2 {
            let (from, to) = (direction, 1 - direction);
            let placed = |i: usize| Machine {
                cores_per_node: s[i].cores_per_node().map(f64::from).or(m[i].machine().cores_per_node),
                ..m[i].machine()
            };
            let points: Vec<(f64, f64)> = s[from].points.iter().map(|&(n, t)| (f64::from(n), t)).collect();
            let targets: Vec<f64> = s[to].points.iter().map(|&(n, _)| f64::from(n)).collect();
            for bound in <Bound as strum::IntoEnumIterator>::iter() {
                let t = transfer::transfer(&points, &placed(from), &placed(to), bound, &targets)
                    .map_err(|e| InputError::new(format!("transfer pair {}", p.id), e.to_string()))?;
                for (pr, &(_, measured)) in t.predictions.iter().zip(&s[to].points) {
                    out.push(Sample {
                        pair: pi,
                        direction,
                        bound,
                        n: pr.n,
                        horizon: pr.horizon,
                        predicted: pr.time_s,
                        measured,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// The quantiles of the samples' scores, each transfer (pair and direction) weighted alike.
/// None without samples.
pub fn calibrate<'a>(samples: impl IntoIterator<Item = &'a Sample>) -> Option<Quantiles> {
    let samples: Vec<&Sample> = samples.into_iter().collect();
    let mut counts: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for s in &samples {
        *counts.entry((s.pair, s.direction)).or_default() += 1;
    }
    let mut scored: Vec<(f64, usize, f64)> = samples
        .iter()
        .map(|s| (s.score(), s.pair, 1.0 / counts.get(&(s.pair, s.direction)).copied().unwrap_or(1) as f64))
        .filter(|x| x.0.is_finite())
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    tail_quantiles(&scored, TAIL, None)
}

/// The figures of some samples under one bound.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Figures {
    pub bound: Bound,
    pub predictions: usize,
    pub median_rel_error: f64,
    pub p90_rel_error: f64,
    /// Predictions with a range set on the other codes.
    pub ranged: usize,
    /// The share of those measurements inside the 90 % range.
    pub coverage: f64,
    /// The median of (high − low) / predicted, transfer and same-machine ranges.
    pub median_rel_width: f64,
    pub median_same_machine_rel_width: f64,
    /// The median of the ranges' widening (`transfer::widening_at`).
    pub median_widening: f64,
}

/// `samples` (of one bound) summed up: errors over all, coverage and widths over those
/// with a held-out range (a code is alone when no other code sets its quantiles).
fn figures(bound: Bound, samples: &[(&Sample, Option<Quantiles>)]) -> Figures {
    let sorted = |mut xs: Vec<f64>| {
        xs.sort_by(f64::total_cmp);
        xs
    };
    let errors = sorted(samples.iter().map(|(s, _)| s.rel_error()).collect());
    let ranged: Vec<(&Sample, (f64, f64))> = samples.iter().filter_map(|(s, q)| Some((*s, s.range((*q)?)))).collect();
    let inside = ranged.iter().filter(|(s, (lo, hi))| (*lo..=*hi).contains(&s.measured)).count();
    let widths = sorted(ranged.iter().map(|(s, (lo, hi))| (hi - lo) / s.predicted).collect());
    let same = sorted(
        ranged
            .iter()
            .map(|(s, _)| {
                let (lo, hi) = s.same_machine();
                (hi - lo) / s.predicted
            })
            .collect(),
    );
    let widening = sorted(samples.iter().filter_map(|(s, q)| Some(transfer::widening_at(s.horizon, (*q)?))).collect());
    Figures {
        bound,
        predictions: samples.len(),
        median_rel_error: quantile(&errors, 0.5),
        p90_rel_error: quantile(&errors, 0.9),
        ranged: ranged.len(),
        coverage: inside as f64 / ranged.len().max(1) as f64,
        median_rel_width: quantile(&widths, 0.5),
        median_same_machine_rel_width: quantile(&same, 0.5),
        median_widening: quantile(&widening, 0.5),
    }
}

/// One pair's figures.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct PairFigures {
    pub pair: String,
    pub code: String,
    pub problem: String,
    pub machines: [String; 2],
    pub by_bound: Vec<Figures>,
}

/// One code's figures, its pairs pooled.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct CodeFigures {
    pub code: String,
    pub by_bound: Vec<Figures>,
}

/// A bound's quantiles, set on every pair.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct BoundQuantiles {
    pub bound: Bound,
    pub low: f64,
    pub high: f64,
}

/// The validation of transfers: overall, per code and per pair, under each bound.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Report {
    /// Unordered pairs of machines for one code and problem.
    pub pairs: usize,
    /// Transfers made: each pair both ways.
    pub transfers: usize,
    pub machines: usize,
    /// The codes, each held out in turn when its ranges are set.
    pub codes: Vec<String>,
    pub overall: Vec<Figures>,
    pub by_code: Vec<CodeFigures>,
    pub by_pair: Vec<PairFigures>,
    /// The bound a default should be: of those whose ranges held at least their level on codes
    /// held out, the one of the smaller median error; when none held, the one that held most.
    pub better_bound: Bound,
    /// Quantiles from every pair, per bound (what `transfer/calibration.rs` holds).
    pub quantiles: Vec<BoundQuantiles>,
}

/// Measures the transfers of `pairs`.
pub fn report(pairs: &[Pair], machines: &[MachineEntry], series: &[Series]) -> Result<Report, InputError> {
    let all = samples(pairs, machines, series)?;
    let mut codes: Vec<String> = pairs.iter().map(|p| p.code.clone()).collect();
    codes.sort();
    codes.dedup();
    let bounds: Vec<Bound> = <Bound as strum::IntoEnumIterator>::iter().collect();
    // Each sample with the quantiles set without its code.
    let mut held: Vec<(&Sample, Option<Quantiles>)> = Vec::new();
    for &bound in &bounds {
        for code in &codes {
            let q = calibrate(all.iter().filter(|s| s.bound == bound && pairs[s.pair].code != *code));
            held.extend(all.iter().filter(|s| s.bound == bound && pairs[s.pair].code == *code).map(|s| (s, q)));
        }
    }
    let figures_where = |keep: &dyn Fn(&Sample) -> bool| -> Vec<Figures> {
        bounds
            .iter()
            .map(|&b| figures(b, &held.iter().filter(|(s, _)| s.bound == b && keep(s)).copied().collect::<Vec<_>>()))
            .collect()
    };
    let overall = figures_where(&|_| true);
    let by_code = codes
        .iter()
        .map(|c| CodeFigures { code: c.clone(), by_bound: figures_where(&|s| pairs[s.pair].code == *c) })
        .collect();
    let by_pair = pairs
        .iter()
        .enumerate()
        .map(|(i, p)| PairFigures {
            pair: p.id.clone(),
            code: p.code.clone(),
            problem: p.problem.clone(),
            machines: p.machines.clone(),
            by_bound: figures_where(&|s| s.pair == i),
        })
        .collect();
    let held: Vec<&Figures> = overall.iter().filter(|f| f.coverage >= forecast::LEVEL).collect();
    let better_bound = if held.is_empty() {
        overall.iter().max_by(|a, b| a.coverage.total_cmp(&b.coverage)).map_or(Bound::DEFAULT, |f| f.bound)
    } else {
        held.into_iter()
            .min_by(|a, b| a.median_rel_error.total_cmp(&b.median_rel_error))
            .map_or(Bound::DEFAULT, |f| f.bound)
    };
    let quantiles = bounds
        .iter()
        .filter_map(|&b| {
            calibrate(all.iter().filter(|s| s.bound == b)).map(|q| BoundQuantiles {
                bound: b,
                low: q.low,
                high: q.high,
            })
        })
        .collect();
    let mut used: Vec<&String> = pairs.iter().flat_map(|p| p.machines.iter()).collect();
    used.sort();
    used.dedup();
    Ok(Report {
        pairs: pairs.len(),
        transfers: 2 * pairs.len(),
        machines: used.len(),
        codes,
        overall,
        by_code,
        by_pair,
        better_bound,
        quantiles,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two machines and a code whose truth is the model's: the transfers recover the
    /// measured times (errors ~0) under the bound the truth used.
    #[test]
    fn a_constructed_pair_is_recovered() {
        let fig = |v: f64| {
            Some(Figure {
                value: v,
                source: Source { title: "t".into(), address: "a".into(), date: "d".into() },
                place: "p".into(),
                also: None,
            })
        };
        let m = |id: &str, gflops: f64, bw: f64| MachineEntry {
            id: id.into(),
            name: id.into(),
            cores_per_node: fig(16.0),
            core_gflops: fig(gflops),
            memory_bandwidth_gb_s: fig(bw),
            latency_us: None,
            bandwidth_mb_s: None,
        };
        let machines = vec![m("a", 10.0, 100.0), m("b", 20.0, 400.0)];
        // Memory-bound truth: B's compute part is a quarter of A's; no communication term.
        let t = |n: f64, r: f64| r * (1.0 + 64.0 / n);
        let series = |id: &str, r: f64| Series {
            id: id.into(),
            source: "s".into(),
            application: "x".into(),
            machine: id.into(),
            points: [1u32, 2, 4, 8, 16].iter().map(|&n| (n, t(f64::from(n), r))).collect(),
            nodes: vec![Some(1); 5],
        };
        let corpus = vec![series("sa", 1.0), series("sb", 0.25)];
        let pairs = vec![Pair {
            id: "p".into(),
            code: "c".into(),
            problem: "q".into(),
            series: ["sa".into(), "sb".into()],
            machines: ["a".into(), "b".into()],
        }];
        let all = samples(&pairs, &machines, &corpus).expect("samples");
        assert_eq!(all.len(), 2 * 2 * 5);
        for s in all.iter().filter(|s| s.bound == Bound::Memory) {
            assert!(s.rel_error() < 1e-6, "{s:?}");
        }
        // Compute-bound, the ratio is 1/2: off by a factor 2 either way.
        for s in all.iter().filter(|s| s.bound == Bound::Compute) {
            assert!((s.predicted / s.measured - if s.direction == 0 { 2.0 } else { 0.5 }).abs() < 1e-6, "{s:?}");
        }
        let r = report(&pairs, &machines, &corpus).expect("a report");
        assert_eq!(r.better_bound, Bound::Memory);
        assert_eq!((r.pairs, r.transfers, r.machines), (1, 2, 2));
    }

    #[test]
    fn unsourced_figures_and_bad_rows_are_refused() {
        let text = r#"{"machines": [{"id": "a", "name": "A", "core_gflops": {"value": 1, "source": {"title": "", "address": "x", "date": "y"}, "where": "z"}}]}"#;
        let e = read_machines("m.json", text).expect_err("no title");
        assert!(e.message.contains("needs its source"), "{e}");
        let text = r#"{"machines": [{"id": "a", "name": "A", "core_gflops": {"value": -1, "source": {"title": "t", "address": "x", "date": "y"}, "where": "z"}}]}"#;
        let e = read_machines("m.json", text).expect_err("negative");
        assert!(e.to_string().contains("core_gflops"), "{e}");
        let e = read_pairs("p.csv", "pair,code\nx,y\n").expect_err("columns");
        assert!(e.message.contains("expected the columns"), "{e}");
        let head = PAIR_COLUMNS.join(",");
        let e = read_pairs("p.csv", &format!("{head}\np,c,q,s1,m,s2,m,a,b\n")).expect_err("same machine");
        assert_eq!(e.line, Some(2));
    }
}

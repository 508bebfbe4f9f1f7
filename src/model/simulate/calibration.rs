//! Raw per-message timings turned into the message-time histograms the virtual parallel
//! machine samples (seed 001, sections 2–3: measure once, MPIBench-style, then simulate any
//! skeleton on those distributions; spec "Communication time distributions").
//!
//! Two inputs are read:
//! - A SimGrid/SMPI calibration CSV, as the `calibrate` program of SimGrid's platform
//!   calibration project writes it (github.com/Ezibenroc/platform-calibration, e.g.
//!   `data/*/calibration/*_PingPong.csv`): no header, one row per timed call,
//!   `operation,size,start,duration` with the MPI function (`MPI_Send`, `MPI_Recv`,
//!   `MPI_Isend`…), the message size in bytes, the start and the duration in seconds. In the
//!   ping-pong file each round trip is an `MPI_Send` and an `MPI_Recv` with the same size and
//!   start; that project's README says the round trip is the sum of the two durations, so
//!   one sample is half of it (a one-way time). Rows without such a partner (a receive or
//!   send file) are one sample each.
//! - Any table of (size, time) samples with repetitions (through `table.rs`: header
//!   optional, units in the header, times in µs by default): each row is one sample.
//!
//! Per message size, the samples become a histogram of ⌈log₂ n⌉ + 1 equal-width bins
//! (Sturges' rule, at most 40) from the fastest to the slowest sample; one value repeated
//! gives one narrow bin. The histograms are written as the machine's histogram table
//! (size, n, p, low µs, high µs, count) for the least loaded configuration, a ping-pong:
//! n = 2 nodes, p = 1 process per node.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::model::input::table::{parse_number, parse_table, ColumnSpec, Quantity, BYTES, MICROSECONDS};
use crate::model::InputError;

/// Most samples read (a calibration of 50 sizes × 1,000 repetitions is 100,000 rows).
pub const MAX_SAMPLES: usize = 500_000;
/// Most bins per size.
pub const MAX_BINS: usize = 40;

pub const SAMPLE_COLUMNS: &[ColumnSpec] = &[
    ColumnSpec::new("size", Quantity::Size, BYTES).aliases(&["bytes", "message size", "msg_size", "m"]),
    ColumnSpec::new("time", Quantity::Time, MICROSECONDS).aliases(&["t", "latency", "duration"]),
];

/// What the text was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SampleFormat {
    SimGrid,
    Table,
}

/// The samples of one message size, one-way times in µs.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeSamples {
    pub size_bytes: f64,
    pub times_us: Vec<f64>,
}

/// One histogram: a message size and its bins (low µs, high µs, count).
#[derive(Debug, Clone, PartialEq)]
pub struct SizeHistogram {
    pub size_bytes: f64,
    pub samples: usize,
    pub bins: Vec<(f64, f64, u32)>,
}

fn simgrid_like(text: &str) -> bool {
    text.lines().map(str::trim).find(|l| !l.is_empty()).is_some_and(|l| {
        let cells: Vec<&str> = l.split(',').collect();
        cells.len() == 4
            && parse_number(cells[0].trim()).is_none()
            && cells[1..].iter().all(|c| parse_number(c.trim()).is_some())
    })
}

/// Reads the samples, grouped by size (ascending). `field` names the input in errors.
pub fn parse_samples(field: &str, text: &str) -> Result<(SampleFormat, Vec<SizeSamples>), InputError> {
    let mut by_size: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    let format = if simgrid_like(text) { SampleFormat::SimGrid } else { SampleFormat::Table };
    let check = |line: usize, size: f64, time_us: f64, time_col: usize| -> Result<(), InputError> {
        if !(0.0..=1e12).contains(&size) || size.fract() != 0.0 {
            return Err(InputError::new(field, "a message size is a whole number of bytes from 0 to 1e12")
                .at(line, Some(time_col - 1)));
        }
        if !(time_us > 0.0 && time_us <= 1e9) {
            return Err(
                InputError::new(field, "a time must be greater than 0 and at most 1000 s").at(line, Some(time_col))
            );
        }
        Ok(())
    };
    let mut count = 0usize;
    match format {
        SampleFormat::SimGrid => {
            // (size bits, start text) → (durations s, operations seen: send, recv, line).
            type Calls = BTreeMap<(u64, String), (Vec<f64>, bool, bool, usize)>;
            let mut calls = Calls::new();
            for (i, l) in text.lines().enumerate() {
                let line = i + 1;
                let l = l.trim();
                if l.is_empty() {
                    continue;
                }
                let cells: Vec<&str> = l.split(',').map(str::trim).collect();
                if cells.len() != 4 {
                    return Err(InputError::new(
                        field,
                        format!("expected operation,size,start,duration; found {} values", cells.len()),
                    )
                    .at(line, Some(cells.len().min(4) + 1)));
                }
                let num = |c: usize| {
                    parse_number(cells[c]).ok_or_else(|| {
                        InputError::new(
                            field,
                            format!("expected a number, found \"{}\"", cells[c].chars().take(24).collect::<String>()),
                        )
                        .at(line, Some(c + 1))
                    })
                };
                let (size, _start, duration) = (num(1)?, num(2)?, num(3)?);
                check(line, size, duration * 1e6, 4)?;
                count += 1;
                if count > MAX_SAMPLES {
                    return Err(InputError::new(field, format!("more than {MAX_SAMPLES} rows")).at(line, None));
                }
                let op = cells[0].to_ascii_lowercase();
                let e = calls.entry((size.to_bits(), cells[2].to_string())).or_insert((Vec::new(), false, false, line));
                e.0.push(duration);
                e.1 |= op.contains("send");
                e.2 |= op.contains("recv");
            }
            for ((size_bits, _), (durations, send, recv, _)) in calls {
                let times = by_size.entry(size_bits).or_default();
                if send && recv && durations.len() == 2 {
                    times.push((durations[0] + durations[1]) / 2.0 * 1e6);
                } else {
                    times.extend(durations.iter().map(|d| d * 1e6));
                }
            }
        }
        SampleFormat::Table => {
            let table = parse_table(field, text, SAMPLE_COLUMNS)?;
            if table.rows.len() > MAX_SAMPLES {
                return Err(InputError::new(field, format!("more than {MAX_SAMPLES} rows")));
            }
            for r in &table.rows {
                let [Some(size), Some(time)] = r.values[..] else { continue };
                check(r.line, size, time, 2)?;
                by_size.entry(size.to_bits()).or_default().push(time);
            }
        }
    }
    if by_size.is_empty() {
        return Err(InputError::new(
            field,
            "no samples yet: paste a SimGrid calibration CSV (operation,size,start,duration) or a (size, time) table",
        ));
    }
    let mut out: Vec<SizeSamples> = by_size
        .into_iter()
        .map(|(bits, times_us)| SizeSamples { size_bytes: f64::from_bits(bits), times_us })
        .collect();
    out.sort_by(|a, b| a.size_bytes.total_cmp(&b.size_bytes));
    Ok((format, out))
}

/// Sturges' equal-width histogram of one size's samples.
pub fn histogram(s: &SizeSamples) -> SizeHistogram {
    let n = s.times_us.len();
    let lo = s.times_us.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = s.times_us.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let k = ((n.max(1) as f64).log2().ceil() as usize + 1).min(MAX_BINS);
    // One value repeated (or a range too narrow to split) is one narrow bin around it.
    let span = hi - lo;
    let (k, width) = if span > lo * 1e-9 && span > 1e-9 { (k, span / k as f64) } else { (1, (lo * 1e-6).max(1e-6)) };
    let mut counts = vec![0u32; k];
    for &t in &s.times_us {
        let i = (((t - lo) / width) as usize).min(k - 1);
        counts[i] += 1;
    }
    let bins = counts
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let a = lo + width * i as f64;
            let b = if i + 1 == k && k > 1 { hi } else { lo + width * (i + 1) as f64 };
            (a, b, c)
        })
        .collect();
    SizeHistogram { size_bytes: s.size_bytes, samples: n, bins }
}

/// The histograms as the machine's histogram table (ping-pong: n = 2, p = 1; times in µs).
pub fn histogram_table(hists: &[SizeHistogram]) -> String {
    let mut s = String::from("size\tn\tp\tlow\thigh\tcount\n");
    for h in hists {
        for &(a, b, c) in &h.bins {
            let _ = writeln!(s, "{}\t2\t1\t{a}\t{b}\t{c}", h.size_bytes);
        }
    }
    s
}

/// Samples → the histogram table, in one step.
pub fn calibration_table(field: &str, text: &str) -> Result<(SampleFormat, Vec<SizeHistogram>, String), InputError> {
    let (format, samples) = parse_samples(field, text)?;
    let hists: Vec<SizeHistogram> = samples.iter().map(histogram).collect();
    let table = histogram_table(&hists);
    Ok((format, hists, table))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::simulate::job::Simulation;
    use crate::model::simulate::machine::Machine;
    use crate::model::simulate::page::{self, Field};
    use crate::model::workspace::PageField;

    /// In the shape of platform-calibration's `*_PingPong.csv` (sizes, starts and durations
    /// are our own): a send and a receive per round trip, the same start, ten repetitions
    /// per size, sizes in no order.
    fn pingpong(scale: f64) -> String {
        let mut s = String::new();
        let mut start = 18.0;
        for (size, send, recv) in
            [(765921.0, 3.9e-4, 1.01e-3), (26.0, 2.9e-6, 1.8e-5), (8504.0, 4.6e-6, 4.2e-5), (1.0, 2.6e-6, 1.65e-5)]
        {
            for r in 0..10 {
                let jitter = 1.0 + 0.02 * f64::from(r % 5);
                let _ = writeln!(s, "MPI_Send,{size},{start:.6},{:e}", send * jitter * scale);
                let _ = writeln!(s, "MPI_Recv,{size},{start:.6},{:e}", recv * jitter * scale);
                start += 0.0015;
            }
        }
        s
    }

    #[test]
    fn pingpong_pairs_become_one_way_times() {
        let (format, samples) = parse_samples("calibration", &pingpong(1.0)).expect("reads");
        assert_eq!(format, SampleFormat::SimGrid);
        assert_eq!(samples.iter().map(|s| s.size_bytes).collect::<Vec<_>>(), vec![1.0, 26.0, 8504.0, 765921.0]);
        assert!(samples.iter().all(|s| s.times_us.len() == 10));
        // Size 1, first repetition: (2.6 + 16.5) / 2 = 9.55 µs.
        assert!(samples[0].times_us.iter().any(|&t| (t - 9.55).abs() < 1e-9), "{:?}", samples[0].times_us);
        let h = histogram(&samples[3]);
        // Sturges for 10 samples: 5 bins, every sample counted, from min to max.
        assert_eq!(h.bins.len(), 5);
        assert_eq!(h.bins.iter().map(|b| b.2).sum::<u32>(), 10);
        assert!((h.bins[0].0 - 700.0).abs() < 1e-6 && (h.bins[4].1 - 700.0 * 1.08).abs() < 1e-6, "{:?}", h.bins);
    }

    #[test]
    fn a_plain_table_of_samples_and_errors() {
        let (format, samples) =
            parse_samples("f", "size (B)\ttime (ms)\n8\t0.010\n8\t0.012\n8\t0.010\n1024\t0.02\n").expect("reads");
        assert_eq!(format, SampleFormat::Table);
        assert_eq!(samples[0].times_us.len(), 3);
        assert!((samples[1].times_us[0] - 20.0).abs() < 1e-9);
        // One repeated value: one narrow bin.
        let h = histogram(&SizeSamples { size_bytes: 4.0, times_us: vec![5.0; 7] });
        assert_eq!(h.bins.len(), 1);
        assert!(h.bins[0].1 > h.bins[0].0);
        let e = parse_samples("f", "MPI_Send,8,1.0,2e-6\nMPI_Recv,8,1.0,-1\n").unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(4)));
        let e = parse_samples("f", "MPI_Send,8,1.0,2e-6\nMPI_Recv,8,1.0\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        let e = parse_samples("f", "MPI_Send,8,1.0,2e-6\nMPI_Recv,eight,1.0,2e-6\n").unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(2)));
        assert!(parse_samples("f", "").is_err());
    }

    /// The loop of seed 001: measured timings → histograms → a skeleton simulated on them,
    /// through the page's own parse (the CLI's `{"histograms"}` reads the same table).
    #[test]
    fn calibration_drives_the_simulator() {
        let mean_run = |scale: f64| -> f64 {
            let (_, hists, table) = calibration_table("calibration", &pingpong(scale)).expect("table");
            assert_eq!(hists.len(), 4);
            let machine = Machine::from_histograms("histograms", "calibration", &table).expect("machine");
            let Machine::Histograms { configs, .. } = &machine else { panic!("histograms") };
            assert_eq!((configs[0].nodes, configs[0].per_node, configs[0].sizes.len()), (2, 1, 4));
            let mut texts = page::default_inputs();
            texts.insert(Field::Machine.key().to_string(), "histograms".into());
            texts.insert(Field::Histograms.key().to_string(), table);
            texts.insert(Field::Replications.key().to_string(), "4".into());
            let job = page::parse(&texts).expect("a job");
            let report = Simulation::new(job).expect("simulation").run_to_end().expect("runs");
            let r = &report.main.results[0];
            assert!(r.mean_s.is_finite() && r.mean_s > 0.0);
            r.mean_s
        };
        // Slower measured messages make a slower program: the results depend on the data.
        let (fast, slow) = (mean_run(1.0), mean_run(30.0));
        assert!(slow > fast * 1.2, "{fast} vs {slow}");
    }

    /// Saved as a catalog cluster's machine, the histograms come back as a simulation
    /// machine of that cluster, and the catalog still validates.
    #[test]
    fn saved_on_a_cluster_they_are_a_machine_of_the_catalog() {
        let (_, _, table) = calibration_table("calibration", &pingpong(1.0)).expect("table");
        let mut catalog = crate::model::catalog::presets();
        catalog.clusters[0].message_histograms = table.clone();
        catalog.validate().expect("valid");
        let json = serde_json::to_string(&catalog).expect("json");
        let back: crate::model::catalog::Catalog = serde_json::from_str(&json).expect("reads");
        assert_eq!(back.clusters[0].message_histograms, table);
        let sets = page::catalog_machines(&catalog);
        let set = sets.iter().find(|s| s.label.ends_with("measured message times")).expect("the cluster's machine");
        let mut texts = page::default_inputs();
        texts.insert(Field::Replications.key().to_string(), "2".into());
        for (k, v) in &set.fields {
            texts.insert(k.to_string(), v.clone());
        }
        assert!(matches!(page::parse(&texts).expect("job").machine, Machine::Histograms { .. }));
        // A broken table is named, with its line, where it is used.
        texts.insert(Field::Histograms.key().to_string(), "size n p low high count\n8 2 1 5 4 1\n".into());
        let errs = page::parse(&texts).expect_err("refused");
        assert!(errs.iter().any(|e| e.line == Some(2)), "{errs:?}");
        catalog.clusters[0].message_histograms = "x".repeat(crate::model::catalog::MAX_HISTOGRAM_BYTES + 1);
        assert!(catalog.validate().is_err(), "too long a table is refused");
    }
}

//! What other tools read, written from a point-to-point fit (seed 002's models): parameters
//! for three network simulators and a broadcast rules file for Open MPI. Each function is
//! pure and returns the text to save; each text states its units.
//!
//! - LogGOPSim (Hoefler, Schneider, Lumsdaine; the `LogGOPSim` command of its toolchain):
//!   the options `-L -o -g -G -O -S`, whole numbers. Its options file gives the defaults
//!   L 2500, o 1500, g 1000, G 6, which are nanoseconds (and ns per byte for G); S is the
//!   size in bytes from which messages go by rendezvous. A ping-pong measures L + 2o, not L
//!   and o apart: they are split by the page's latency share (L = share · (L + 2o)), the same
//!   assumption the broadcast calculator makes. g is LogP's gap when LogP is fitted, else o;
//!   G is LogGP's G (else the best model's time per byte); O (overhead per byte) is not
//!   measured by a ping-pong and is written as 0.
//! - SimGrid/SMPI (`--cfg=smpi/lat-factor` and `smpi/bw-factor`, syntax
//!   `size:factor;size:factor`, a factor applying from its size upwards, as in SimGrid's
//!   own tests and defaults, written largest size first): a link latency and bandwidth for
//!   the platform file, and per protocol segment (eager below the fitted knee, rendezvous
//!   from it) the factors that turn them into that segment's line T = a + b·m: latency
//!   factor a / latency, bandwidth factor (1/b) / bandwidth. Segment lines are relative
//!   (1/T²-weighted) least squares, as the knee search uses.
//! - SST/macro (its manual's parameter-file syntax: `name = value`, nested `ns { }`
//!   blocks, `#` comments): the NIC injection latency and bandwidth and the `logp` switch
//!   model's `out_in_latency` and `bandwidth`, from the fitted one-way time.
//! - Open MPI `coll_tuned` dynamic rules (classic format of Open MPI's "Tuning Collectives"
//!   documentation: number of collectives, collective id, number of communicator sizes,
//!   then per communicator size: the size, the number of message-size rules, and rules
//!   `msg_size algorithm topo segsize`, the first at 0): for MPI_Bcast (id 7), per process
//!   count and message-size range, the broadcast calculator's fastest algorithm, mapped to
//!   Open MPI's bcast algorithm ids (`coll_tuned_bcast_algorithm`: 1 basic_linear,
//!   2 chain, 3 pipeline, 4 split_binary_tree, 5 binary_tree, 6 binomial, 7 knomial,
//!   8 scatter_allgather, 9 scatter_allgather_ring; Open MPI
//!   `ompi/mca/coll/tuned/coll_tuned_bcast_decision.c`). [`parse_rules`] reads that format
//!   back.

use std::fmt::Write;

use crate::model::comm::collectives::{all_algorithms, Algorithm, Split};
use crate::model::comm::{line_fit, CommFit, Model, ModelKind};
use crate::model::fmt_num;

/// The export formats (keys of the command's `--export`), each defined once on its variant:
/// its key (`to_string`), its tool's name (`message`) and a file name to save it under.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    strum::EnumIter,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::EnumMessage,
    strum::EnumProperty,
)]
pub enum ExportFormat {
    #[strum(to_string = "loggopsim", message = "LogGOPSim", props(file = "loggopsim.sh"))]
    LogGopSim,
    #[strum(to_string = "simgrid", message = "SimGrid/SMPI", props(file = "simgrid.txt"))]
    SimGrid,
    #[strum(to_string = "sstmacro", message = "SST/macro", props(file = "sstmacro.ini"))]
    SstMacro,
    #[strum(to_string = "ompi-rules", message = "Open MPI rules", props(file = "ompi-bcast-rules.conf"))]
    OmpiRules,
}

impl ExportFormat {
    /// Every format, in the order they are listed and written.
    pub fn all() -> impl Iterator<Item = ExportFormat> {
        <ExportFormat as strum::IntoEnumIterator>::iter()
    }
    pub fn key(self) -> &'static str {
        self.into()
    }
    pub fn name(self) -> &'static str {
        strum::EnumMessage::get_message(&self).unwrap_or_else(|| self.key())
    }
    /// A file name to save it under.
    pub fn file_name(self) -> &'static str {
        strum::EnumProperty::get_str(&self, "file").unwrap_or_else(|| self.key())
    }
    pub fn from_key(s: &str) -> Option<ExportFormat> {
        s.trim().parse().ok()
    }
    /// "loggopsim, simgrid, sstmacro or ompi-rules", for messages.
    pub fn expected() -> String {
        crate::model::one_of(ExportFormat::all().map(ExportFormat::key))
    }
}

/// The text of one export: `share` is the latency share of the broadcast calculator,
/// `procs` its process count (the rules cover communicators of 2 to `procs` processes).
pub fn export(format: ExportFormat, fit: &CommFit, share: f64, procs: u32) -> Option<String> {
    match format {
        ExportFormat::LogGopSim => loggopsim(fit, share),
        ExportFormat::SimGrid => simgrid(fit),
        ExportFormat::SstMacro => sstmacro(fit),
        ExportFormat::OmpiRules => ompi_rules(fit, share, procs),
    }
}

/// LogGOPSim's parameters, ns (G and O in ns per byte), before rounding.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogGops {
    pub l_ns: f64,
    pub o_ns: f64,
    pub g_ns: f64,
    pub big_g_ns_per_byte: f64,
    pub big_o_ns_per_byte: f64,
    /// Rendezvous from this size (bytes), when a knee was found.
    pub s_bytes: Option<f64>,
}

pub fn loggops(fit: &CommFit, share: f64) -> Option<LogGops> {
    let best = fit.best_model()?;
    let l_2o_us = match fit.model(ModelKind::LogGP) {
        Some(Model::LogGP { l_2o_us, .. }) => *l_2o_us,
        _ => best.time_us(0.0),
    };
    let big_g = match fit.model(ModelKind::LogGP) {
        Some(Model::LogGP { g_us_per_byte, .. }) => *g_us_per_byte,
        _ => best.asymptotic_us_per_byte(),
    };
    let share = share.clamp(0.0, 1.0);
    let o_us = (1.0 - share) * l_2o_us / 2.0;
    let g_us = match fit.model(ModelKind::LogP) {
        Some(Model::LogP { gap_us, .. }) => gap_us.max(o_us),
        _ => o_us,
    };
    Some(LogGops {
        l_ns: share * l_2o_us * 1e3,
        o_ns: o_us * 1e3,
        g_ns: g_us * 1e3,
        big_g_ns_per_byte: big_g * 1e3,
        big_o_ns_per_byte: 0.0,
        s_bytes: fit.knee.map(|k| k.size_bytes),
    })
}

fn whole(x: f64) -> String {
    format!("{:.0}", x.round().max(0.0))
}

/// LogGOPSim's options are whole numbers in one time unit of the user's choosing: ns when
/// G keeps three digits in ns per byte, else ps (a fast network's G is below 1 ns/B), unless
/// a value would pass a C int in ps.
pub fn loggopsim_unit(p: &LogGops) -> (&'static str, f64) {
    let largest = p.l_ns.max(p.o_ns).max(p.g_ns);
    if p.big_g_ns_per_byte >= 100.0 || p.big_g_ns_per_byte == 0.0 || largest * 1e3 > f64::from(i32::MAX) {
        ("ns", 1.0)
    } else {
        ("ps", 1e3)
    }
}

pub fn loggopsim(fit: &CommFit, share: f64) -> Option<String> {
    let p = loggops(fit, share)?;
    let (unit, k) = loggopsim_unit(&p);
    let mut s = String::from("# LogGOPSim parameters from the fitted point-to-point models (scalewise).\n");
    let _ = writeln!(
        s,
        "# Units: L, o, g in {unit}; G, O in {unit} per byte; S in bytes (simulated times come out in {unit}).\n\
         # Before rounding: L {} ns, o {} ns, g {} ns, G {} ns/B.",
        fmt_num(p.l_ns, 6),
        fmt_num(p.o_ns, 6),
        fmt_num(p.g_ns, 6),
        fmt_num(p.big_g_ns_per_byte, 6)
    );
    let _ = writeln!(
        s,
        "# L and o split the measured L + 2o by the latency share {}; O is not measured (0).",
        fmt_num(share, 3)
    );
    let _ = write!(
        s,
        "LogGOPSim -f schedule.bin -L {} -o {} -g {} -G {} -O 0",
        whole(p.l_ns * k),
        whole(p.o_ns * k),
        whole(p.g_ns * k),
        whole(p.big_g_ns_per_byte * k)
    );
    match p.s_bytes {
        Some(b) => {
            let _ = writeln!(s, " -S {}", whole(b - 1.0));
        }
        None => s.push_str("\n# No protocol knee was found, so -S (rendezvous threshold) keeps its default.\n"),
    }
    Some(s)
}

/// One protocol segment: from `from_bytes`, T(m) = a + b·m (µs, µs per byte).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    pub from_bytes: f64,
    pub a_us: f64,
    pub b_us_per_byte: f64,
}

/// The fitted lines below and from the knee (one line when there is none).
pub fn segments(fit: &CommFit) -> Vec<Segment> {
    let pts: Vec<(f64, f64, f64)> =
        fit.sizes_bytes.iter().zip(&fit.times_us).map(|(&m, &t)| (m, t, 1.0 / (t * t))).collect();
    let line = |from: f64, p: &[(f64, f64, f64)]| -> Option<Segment> {
        let (a, b) = line_fit(p).unwrap_or((p.first()?.1, 0.0));
        // A time does not fall as messages grow, and a latency is not negative.
        let b = b.max(0.0);
        let a = if a > 0.0 { a } else { p.iter().map(|q| q.1 - b * q.0).fold(f64::INFINITY, f64::min).max(1e-6) };
        Some(Segment { from_bytes: from, a_us: a, b_us_per_byte: b })
    };
    let split = fit.knee.map_or(pts.len(), |k| pts.partition_point(|p| p.0 < k.size_bytes));
    let mut out: Vec<Segment> = line(0.0, &pts[..split]).into_iter().collect();
    if split < pts.len() {
        out.extend(line(pts[split].0, &pts[split..]));
    }
    out
}

pub fn simgrid(fit: &CommFit) -> Option<String> {
    let segs = segments(fit);
    let base = segs.first()?;
    // The platform link carries the eager segment; its bandwidth is 1/b (bytes per µs → B/s).
    let bw_bytes_s = if base.b_us_per_byte > 0.0 { 1e6 / base.b_us_per_byte } else { 1e15 };
    let latency_us = base.a_us;
    let factors = |f: &dyn Fn(&Segment) -> f64| -> String {
        segs.iter().rev().map(|g| format!("{}:{}", whole(g.from_bytes), fmt_num(f(g), 6))).collect::<Vec<_>>().join(";")
    };
    let lat = factors(&|g| g.a_us / latency_us);
    let bw = factors(&|g| if g.b_us_per_byte > 0.0 { 1e6 / g.b_us_per_byte / bw_bytes_s } else { 1.0 });
    let mut s = String::from("# SimGrid/SMPI network from the fitted point-to-point segments (scalewise).\n");
    s.push_str("# Units: latency in µs (us), bandwidth in bytes per second (Bps); factors have none and\n");
    s.push_str("# apply from their message size (bytes) upwards. One link per route is assumed.\n");
    for g in &segs {
        let _ = writeln!(
            s,
            "# from {} B: T(m) = {} us + m x {} us/B",
            whole(g.from_bytes),
            fmt_num(g.a_us, 6),
            fmt_num(g.b_us_per_byte, 6)
        );
    }
    let _ = writeln!(
        s,
        "<link id=\"fitted\" bandwidth=\"{}Bps\" latency=\"{}us\"/>",
        fmt_num(bw_bytes_s, 8),
        fmt_num(latency_us, 8)
    );
    let _ = writeln!(s, "--cfg=network/model:SMPI --cfg=smpi/lat-factor:{lat} --cfg=smpi/bw-factor:{bw}");
    Some(s)
}

pub fn sstmacro(fit: &CommFit) -> Option<String> {
    let best = fit.best_model()?;
    let latency_us = best.time_us(0.0);
    let per_byte = best.asymptotic_us_per_byte();
    // GB/s with GB = 10^9 bytes: bytes per µs / 1000.
    let bw_gb_s = if per_byte > 0.0 { 1e-3 / per_byte } else { 1e6 };
    let (lat, bw) = (fmt_num(latency_us, 6), fmt_num(bw_gb_s, 6));
    Some(format!(
        "# SST/macro network parameters from the fitted {} model (scalewise).\n\
         # Units: latency in us, bandwidth in GB/s (10^9 bytes per second).\n\
         node {{\n  nic {{\n    injection {{\n      bandwidth = {bw}GB/s\n      latency = {lat}us\n    }}\n  }}\n}}\n\
         switch {{\n  logp {{\n    bandwidth = {bw}GB/s\n    out_in_latency = {lat}us\n  }}\n}}\n",
        best.kind().name()
    ))
}

/// Open MPI's collective id of MPI_Bcast in the rules file.
pub const OMPI_BCAST_ID: u32 = 7;

/// Message sizes at which a rule may start: 0, then powers of two to 64 MiB.
fn rule_sizes() -> impl Iterator<Item = f64> {
    std::iter::once(0.0).chain((0..=26).map(|j| f64::from(1u32 << j)))
}

/// Communicator sizes of the rules: powers of two from 2 below `procs`, then `procs`.
pub fn rule_procs(procs: u32) -> Vec<u32> {
    let procs = procs.clamp(2, 1 << 24);
    let mut out: Vec<u32> = (1..24).map(|j| 1u32 << j).take_while(|&p| p < procs).collect();
    out.push(procs);
    out
}

/// One of Open MPI's rules: (from size, algorithm id, segment size).
pub type Rule = (f64, u32, f64);

/// Per communicator size, the rules (from size, algorithm id, segment size): a rule where
/// the fastest algorithm (at the rule's own size) changes. The best model's broadcasts.
pub fn bcast_rules(fit: &CommFit, share: f64, procs: u32) -> Option<Vec<(u32, Vec<Rule>)>> {
    let split = Split::new(fit.best_model()?, share);
    Some(
        rule_procs(procs)
            .into_iter()
            .map(|p| {
                let mut rules: Vec<Rule> = Vec::new();
                for m in rule_sizes() {
                    let (all, best) = all_algorithms(&split, p, m);
                    let seg = all
                        .iter()
                        .find(|b| b.algorithm == best)
                        .and_then(|b| b.segment_bytes)
                        .filter(|&s| best.segmented() && s < m)
                        .unwrap_or(0.0);
                    let rule = (m, best.ompi_id(), seg);
                    if rules.last().is_none_or(|r| (r.1, r.2) != (rule.1, rule.2)) {
                        rules.push(rule);
                    }
                }
                (p, rules)
            })
            .collect(),
    )
}

pub fn ompi_rules(fit: &CommFit, share: f64, procs: u32) -> Option<String> {
    let rules = bcast_rules(fit, share, procs)?;
    let mut s = format!(
        "# Open MPI coll_tuned dynamic rules for MPI_Bcast from the broadcast calculator (scalewise).\n\
         # Units: communicator size in processes, message and segment sizes in bytes.\n\
         # Use: mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename FILE ...\n\
         # Algorithms: {}.\n",
        Algorithm::ompi_list(|a| format!("{} {}", a.ompi_id(), a.ompi_name()), ", ", ", ")
    );
    let _ = writeln!(
        s,
        "1 # number of collectives\n{OMPI_BCAST_ID} # collective id (bcast)\n{} # number of comm sizes",
        rules.len()
    );
    for (p, r) in &rules {
        let _ = writeln!(s, "{p} # comm size\n{} # number of message sizes", r.len());
        for (m, a, seg) in r {
            let _ = writeln!(s, "{} {a} 0 {}", whole(*m), whole(*seg));
        }
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `size:factor;size:factor` (SimGrid's syntax) into (size, factor), sizes ascending.
    fn parse_factors(text: &str) -> Result<Vec<(f64, f64)>, String> {
        let mut out = Vec::new();
        for part in text.split(';').filter(|p| !p.trim().is_empty()) {
            let (m, f) = part.split_once(':').ok_or_else(|| format!("\"{part}\" is not size:factor"))?;
            let m: f64 = m.trim().parse().map_err(|_| format!("bad size in \"{part}\""))?;
            let f: f64 = f.trim().parse().map_err(|_| format!("bad factor in \"{part}\""))?;
            out.push((m, f));
        }
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        Ok(out)
    }

    /// One collective of a rules file: its id and, per communicator size, the rules
    /// (message size, algorithm, topo, segment size).
    type Rules = Vec<(u32, Vec<(u64, Vec<(u64, u32, u64, u64)>)>)>;

    /// Reads Open MPI's classic rules format (comments after `#`, an optional
    /// `rule-file-version-N` first line, and an optional fifth number per rule).
    fn parse_rules(text: &str) -> Result<Rules, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with("rule-file-version"));
        let mut next = |what: &str, n: usize| -> Result<Vec<u64>, String> {
            let (line, l) = lines.next().ok_or_else(|| format!("the file ends where {what} was expected"))?;
            let v: Vec<u64> = l
                .split_whitespace()
                .map(|w| w.parse::<u64>())
                .collect::<Result<_, _>>()
                .map_err(|_| format!("line {line}: {what} is not a whole number"))?;
            if v.len() < n {
                return Err(format!("line {line}: {what} needs {n} numbers"));
            }
            Ok(v)
        };
        let mut out = Vec::new();
        for _ in 0..next("the number of collectives", 1)?[0] {
            let id = next("a collective id", 1)?[0] as u32;
            let mut comms = Vec::new();
            for _ in 0..next("the number of comm sizes", 1)?[0] {
                let size = next("a comm size", 1)?[0];
                let mut rules = Vec::new();
                for _ in 0..next("the number of message sizes", 1)?[0] {
                    let v = next("a rule (msg_size algorithm topo segsize)", 4)?;
                    rules.push((v[0], v[1] as u32, v[2], v[3]));
                }
                comms.push((size, rules));
            }
            out.push((id, comms));
        }
        Ok(out)
    }

    /// The algorithm Open MPI picks from parsed rules: the largest comm size ≤ `procs` (else
    /// the smallest), then the last rule whose message size ≤ `size_bytes`.
    fn rules_choice(rules: &Rules, collective: u32, procs: u64, size_bytes: u64) -> Option<(u32, u64)> {
        let (_, comms) = rules.iter().find(|c| c.0 == collective)?;
        let comm = comms.iter().rev().find(|c| c.0 <= procs).or(comms.first())?;
        comm.1.iter().rev().find(|r| r.0 <= size_bytes).map(|r| (r.1, r.3))
    }

    #[test]
    fn every_format_and_model_is_named_once_and_read_back() {
        let formats: Vec<ExportFormat> = ExportFormat::all().collect();
        for f in &formats {
            assert_eq!(ExportFormat::from_key(&format!(" {} ", f.key())), Some(*f));
            assert!(ExportFormat::expected().contains(f.key()) && !f.name().is_empty());
            assert_eq!(
                formats.iter().filter(|g| g.file_name() == f.file_name() || g.key() == f.key()).count(),
                1,
                "{f:?}"
            );
        }
        for k in crate::model::comm::MODEL_KINDS {
            assert_eq!(crate::model::comm::ModelKind::from_key(&k.key().to_uppercase()), Some(k));
            assert_eq!(serde_json::to_value(k).ok(), Some(serde_json::Value::from(k.key())));
            assert!(crate::model::comm::ModelKind::expected().contains(k.key()));
        }
        assert_eq!(crate::model::comm::ModelKind::expected(), "hockney, logp, loggp or plogp");
    }
    use crate::model::comm::{fit_all, Point};

    /// Eager 5 µs + m / 1000 µs (1 GB/s); from 64 KiB rendezvous runs at 2 GB/s after a
    /// handshake of 40 µs: 45 + m / 2000, a jump up of about 7 µs at the knee.
    fn fitted() -> CommFit {
        let points: Vec<Point> = (0..=22)
            .map(|j| {
                let m = f64::from(1u32 << j);
                let t = if m >= 65536.0 { 45.0 + m / 2000.0 } else { 5.0 + m / 1000.0 };
                Point { size_bytes: m, time_us: t, line: None }
            })
            .collect();
        fit_all(&points).expect("fits")
    }

    /// `-X value` pairs of a command line.
    fn options(cmd: &str) -> Vec<(String, f64)> {
        let w: Vec<&str> = cmd.split_whitespace().collect();
        w.windows(2)
            .filter(|p| p[0].starts_with('-') && p[0].len() == 2)
            .filter_map(|p| Some((p[0][1..].to_string(), p[1].parse().ok()?)))
            .collect()
    }

    #[test]
    fn loggopsim_reads_back_the_fit() {
        let fit = fitted();
        let text = loggopsim(&fit, 0.5).expect("text");
        let cmd = text.lines().find(|l| l.starts_with("LogGOPSim ")).expect("command line");
        let o = options(cmd);
        let get = |k: &str| o.iter().find(|p| p.0 == k).map(|p| p.1).unwrap_or_else(|| panic!("-{k} in {cmd}"));
        let Some(Model::LogGP { l_2o_us, g_us_per_byte }) = fit.model(ModelKind::LogGP) else { panic!("LogGP fitted") };
        // G = 0.5 ns/B would round to 0 or 1 in ns: the text is in ps.
        assert!(text.contains("L, o, g in ps"), "{text}");
        let ps = 1e6;
        // L + 2o is the fitted L + 2o (whole ps), half of it L with the share ½.
        assert!((get("L") + 2.0 * get("o") - l_2o_us * ps).abs() <= 1.5, "{cmd}");
        assert!((get("L") - 0.5 * l_2o_us * ps).abs() <= 0.5);
        assert_eq!(get("G"), (g_us_per_byte * ps).round());
        // LogGP's G is pinned at the smallest message, so a little above 2 GB/s's 500 ps/B.
        assert!((500.0..550.0).contains(&get("G")), "{cmd}");
        assert_eq!(get("O"), 0.0);
        // The knee is at 64 KiB: messages of 65536 bytes and more go by rendezvous.
        assert_eq!(fit.knee.map(|k| k.size_bytes), Some(65536.0));
        assert_eq!(get("S"), 65535.0);
        assert!(get("g") >= get("o"));
    }

    #[test]
    fn simgrid_factors_rebuild_each_segment() {
        let fit = fitted();
        let text = simgrid(&fit).expect("text");
        let cfg = text.lines().find(|l| l.starts_with("--cfg=network/model:SMPI")).expect("cfg line");
        let value =
            |key: &str| cfg.split_whitespace().find_map(|w| w.strip_prefix(&format!("--cfg=smpi/{key}:"))).expect(key);
        let (lat, bw) =
            (parse_factors(value("lat-factor")).expect("lat"), parse_factors(value("bw-factor")).expect("bw"));
        assert_eq!(lat.iter().map(|f| f.0).collect::<Vec<_>>(), vec![0.0, 65536.0]);
        assert_eq!(bw.iter().map(|f| f.0).collect::<Vec<_>>(), vec![0.0, 65536.0]);
        let link = text.lines().find(|l| l.starts_with("<link")).expect("link");
        let attr = |name: &str, unit: &str| -> f64 {
            let v = link.split(&format!("{name}=\"")).nth(1).and_then(|r| r.split(unit).next()).expect(name);
            v.parse().expect("number")
        };
        let (lat_us, bw_bps) = (attr("latency", "us"), attr("bandwidth", "Bps"));
        // SMPI's time of an m-byte message: lat_factor·latency + m / (bw_factor·bandwidth).
        let smpi = |m: f64| {
            let seg = |f: &[(f64, f64)]| f.iter().rev().find(|x| x.0 <= m).expect("segment").1;
            seg(&lat) * lat_us + m / (seg(&bw) * bw_bps) * 1e6
        };
        for (m, want) in
            [(1024.0, 5.0 + 1.024), (8192.0, 5.0 + 8.192), (1048576.0, 45.0 + 524.288), (4194304.0, 45.0 + 2097.152)]
        {
            assert!((smpi(m) - want).abs() / want < 1e-4, "m={m}: {} vs {want}", smpi(m));
        }
        assert!(parse_factors("65536:2;x").is_err());
    }

    #[test]
    fn sstmacro_block_has_the_documented_shape() {
        let fit = fitted();
        let text = sstmacro(&fit).expect("text");
        // Balanced blocks, every other line `name = value`, values with their units.
        let mut depth = 0i32;
        let mut values = Vec::new();
        for l in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            if l.ends_with('{') {
                depth += 1;
            } else if l == "}" {
                depth -= 1;
            } else {
                let (k, v) = l.split_once(" = ").expect("name = value");
                values.push((k.to_string(), v.to_string()));
            }
            assert!(depth >= 0);
        }
        assert_eq!(depth, 0);
        let best = fit.best_model().expect("best");
        let lat: f64 = values
            .iter()
            .find(|v| v.0 == "out_in_latency")
            .and_then(|v| v.1.strip_suffix("us"))
            .expect("latency")
            .parse()
            .expect("n");
        assert!((lat - best.time_us(0.0)).abs() < 1e-4 * lat);
        let bw: f64 = values
            .iter()
            .find(|v| v.0 == "bandwidth")
            .and_then(|v| v.1.strip_suffix("GB/s"))
            .expect("bw")
            .parse()
            .expect("n");
        assert!((bw - 1e-3 / best.asymptotic_us_per_byte()).abs() < 1e-4 * bw);
    }

    #[test]
    fn ompi_rules_parse_back_to_the_same_choices() {
        let fit = fitted();
        let text = ompi_rules(&fit, 0.5, 48).expect("text");
        let rules = parse_rules(&text).expect("parses");
        assert_eq!(rules.len(), 1);
        assert_eq!(rules[0].0, 7);
        assert_eq!(rules[0].1.iter().map(|c| c.0).collect::<Vec<_>>(), vec![2, 4, 8, 16, 32, 48]);
        let split = Split::new(fit.best_model().expect("best"), 0.5);
        for p in rule_procs(48) {
            for m in rule_sizes() {
                let (all, best) = all_algorithms(&split, p, m);
                let (alg, seg) = rules_choice(&rules, 7, u64::from(p), m as u64).expect("a rule");
                assert_eq!(alg, best.ompi_id(), "P={p} m={m}");
                if best.segmented() {
                    let s = all.iter().find(|b| b.algorithm == best).and_then(|b| b.segment_bytes).expect("segment");
                    assert_eq!(seg, if s < m { s as u64 } else { 0 });
                }
            }
            assert_eq!(rules[0].1.iter().find(|c| c.0 == u64::from(p)).expect("comm").1[0].0, 0, "first rule at 0");
        }
        // Large messages on many processes pipeline; a lone pair sends once.
        assert_eq!(rules_choice(&rules, 7, 48, 1 << 24).map(|r| r.0), Some(Algorithm::Pipeline.ompi_id()));
        // A file in the documented shape (version line, comments, a fifth number) reads too.
        let doc =
            "rule-file-version-2\n1 # collectives\n7\n1\n#===\n16\n3\n0 6 0 0\n8192 5 0 0 0\n524288 3 0 65536 4\n";
        let r = parse_rules(doc).expect("doc");
        assert_eq!(rules_choice(&r, 7, 32, 1 << 20), Some((3, 65536)));
        assert_eq!(rules_choice(&r, 7, 16, 100), Some((6, 0)));
        assert!(parse_rules("1\n7\n1\n16\n2\n0 6 0 0\n").unwrap_err().contains("ends"));
    }
}

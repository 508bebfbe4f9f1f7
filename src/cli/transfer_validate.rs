//! `scalewise validate --transfer [--markdown | --calibration]`: how right transfers to
//! another machine are (`model::validation::transfer`), on the pairs of
//! `validation/transfer_pairs.csv` with the machines of `validation/transfer_machines.json`
//! and the series of the default corpora. JSON by default; `--markdown` writes the section
//! `make validate` appends to VALIDATION.md, `--calibration` the ranges' quantiles
//! (`src/model/transfer/calibration.rs`).

use std::path::Path;

use crate::model::fit::forecast;
use crate::model::fmt_num;
use crate::model::transfer::Bound;
use crate::model::validation::corpus;
use crate::model::validation::transfer::{self as tv, Figures, MachineEntry, Report};
use crate::model::InputError;

use super::unplaced;

pub const PAIRS: &str = "validation/transfer_pairs.csv";
pub const MACHINES: &str = "validation/transfer_machines.json";

/// What was read and measured.
pub struct Measured {
    pub report: Report,
    pub machines: Vec<MachineEntry>,
}

/// Reads the pairs, the machines and the corpora below `root`, and measures.
pub fn measure(root: &Path, corpora: &[&str]) -> Result<Measured, InputError> {
    let read = |f: &str| {
        let path = root.join(f);
        std::fs::read_to_string(&path).map_err(|e| unplaced(format!("cannot read '{}': {e}", path.display())))
    };
    let pairs = tv::read_pairs(PAIRS, &read(PAIRS)?)?;
    let machines = tv::read_machines(MACHINES, &read(MACHINES)?)?;
    let mut series = Vec::new();
    for f in corpora {
        series.extend(corpus::read(f, &read(f)?)?);
    }
    let report = tv::report(&pairs, &machines, &series)?;
    Ok(Measured { report, machines })
}

fn pct(x: f64) -> String {
    format!("{} %", fmt_num(100.0 * x, 3))
}

fn of(figures: &[Figures], b: Bound) -> Option<&Figures> {
    figures.iter().find(|f| f.bound == b)
}

/// `src/model/transfer/calibration.rs` as measured.
pub fn calibration_source(r: &Report) -> Result<String, InputError> {
    let q = |b: Bound| -> Result<[f64; 2], InputError> {
        r.quantiles.iter().find(|q| q.bound == b).map(|q| [q.low, q.high]).ok_or_else(|| {
            unplaced(format!("no transfer calibration for the {} bound: the pairs gave it no prediction", b.key()))
        })
    };
    let lit = |q: [f64; 2]| format!("Quantiles {{ low: {:.4}, high: {:.4} }}", q[0], q[1]);
    let predictions = of(&r.overall, Bound::Memory).map_or(0, |f| f.predictions);
    let held =
        |b: Bound| of(&r.overall, b).map_or("(0.0, 0)".to_string(), |f| format!("({:.4}, {})", f.coverage, f.ranged));
    Ok(format!(
        "//! Written by `make validate` (`scalewise validate --transfer --calibration`) from\n\
         //! `validation/transfer_pairs.csv`; do not edit by hand. See `transfer.rs` for what these\n\
         //! numbers mean.\n\n\
         use crate::model::fit::forecast::Quantiles;\n\n\
         /// Quantiles of ln(measured / transferred) / u with the compute ratio (FP64 peak per core).\n\
         pub const COMPUTE: Quantiles = {};\n\
         /// The same with the memory ratio (memory bandwidth per core).\n\
         pub const MEMORY: Quantiles = {};\n\
         /// What they were measured on: pairs, predictions (per bound).\n\
         pub const PAIRS: usize = {};\n\
         pub const PREDICTIONS: usize = {};\n\
         /// How often such ranges held on codes held out whole: (share inside, predictions).\n\
         pub const COMPUTE_HELD_OUT: (f64, usize) = {};\n\
         pub const MEMORY_HELD_OUT: (f64, usize) = {};\n",
        lit(q(Bound::Compute)?),
        lit(q(Bound::Memory)?),
        r.pairs,
        predictions,
        held(Bound::Compute),
        held(Bound::Memory)
    ))
}

fn figures_row(label: &str, f: &Figures) -> String {
    format!(
        "| {label} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
        f.bound.key(),
        f.predictions,
        pct(f.median_rel_error),
        pct(f.p90_rel_error),
        if f.ranged > 0 { pct(f.coverage) } else { "—".into() },
        if f.ranged > 0 { pct(f.median_rel_width) } else { "—".into() },
        if f.ranged > 0 { pct(f.median_same_machine_rel_width) } else { "—".into() },
        if f.ranged > 0 { format!("{}×", fmt_num(f.median_widening, 3)) } else { "—".into() },
    )
}

const FIGURES_HEAD: &str = "| | bound | predictions | median error | 90th percentile | inside range (held out) | width | same-machine width | widening |\n|---|---|---|---|---|---|---|---|---|\n";

/// The Markdown section.
pub fn markdown(m: &Measured) -> String {
    let r = &m.report;
    let mut s = String::from("\n## The same job on another machine\n\n");
    s.push_str(&format!(
        "`scalewise transfer` predicts a code's times on machine B from a strong-scaling series measured on machine A \
         (`src/model/transfer.rs`): the times are read as T(n) = s + p/n + c·log2 n, the compute part s + p/n is scaled by \
         A's over B's FP64 peak per core (**compute** bound) or memory bandwidth per core (**memory** bound), and the \
         communication c·log2 n by the fabrics' message times. Here: {} pairs of series of one code and one problem on two \
         machines ({} machines, {} codes; `validation/transfer_pairs.csv`), each pair's every series given whole and the \
         other machine's every measured count predicted, both ways ({} transfers; a pair is counted once, A→B and B→A \
         being the same code and problem). The machines' figures and their sources are in `validation/transfer_machines.json` \
         (below); no fabric figures are sourced there, so every transfer here takes the communication as on the measured \
         machine. Errors are |predicted − measured| / measured over every prediction. **Ranges** are stated at {}: the \
         transfer times e^(q·u), u = 1 + ln(max(h, 1)) with h the predicted count over A's largest, q the 5th and 95th \
         percentiles of ln(measured / predicted) / u, each transfer weighted alike. \"Inside range\" is measured on **codes \
         held out whole**: each code's ranges are set on the other codes' pairs only. \"Width\" is the range's median \
         (high − low) / predicted; \"same-machine width\" that of the range a same-machine prediction at the same horizon \
         gets (`forecast::horizon_range`, scale ln(max(h, 1)) + 0.3); \"widening\" the median ratio of the two ranges' \
         widths in ln(high / low). The committed quantiles (`src/model/transfer/calibration.rs`) are those of every pair.\n\n",
        r.pairs,
        r.machines,
        r.codes.len(),
        r.transfers,
        pct(forecast::LEVEL)
    ));
    s.push_str("### Every pair pooled\n\n");
    s.push_str(FIGURES_HEAD);
    for f in &r.overall {
        s.push_str(&figures_row("all", f));
    }
    let better = r.better_bound;
    s.push_str(&format!(
        "\nThe bound a default should be (of those whose ranges held their level on held-out codes, the smaller median \
         error) is **{}**; `transfer`'s default is **{}**{}.\n\n",
        better.key(),
        Bound::DEFAULT.key(),
        if better == Bound::DEFAULT { "" } else { " (**not** the better one here: the default is out of date)" }
    ));
    s.push_str("### By code (each held out in turn)\n\n");
    s.push_str(FIGURES_HEAD);
    for c in &r.by_code {
        for f in &c.by_bound {
            s.push_str(&figures_row(&c.code, f));
        }
    }
    s.push_str("\n### By pair\n\nEach cell gives the compute bound's figure, then the memory bound's.\n\n| pair | code | problem | A | B | predictions | median error | 90th percentile | inside range (held out) | width | same-machine width |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for p in &r.by_pair {
        let both = |f: &dyn Fn(&Figures) -> String| -> String {
            [Bound::Compute, Bound::Memory]
                .iter()
                .map(|&b| of(&p.by_bound, b).map_or("—".into(), f))
                .collect::<Vec<_>>()
                .join(" / ")
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            p.pair,
            p.code,
            p.problem,
            p.machines[0],
            p.machines[1],
            of(&p.by_bound, Bound::Memory).map_or(0, |f| f.predictions),
            both(&|f| pct(f.median_rel_error)),
            both(&|f| pct(f.p90_rel_error)),
            both(&|f| if f.ranged > 0 { pct(f.coverage) } else { "—".into() }),
            both(&|f| if f.ranged > 0 { pct(f.median_rel_width) } else { "—".into() }),
            of(&p.by_bound, Bound::Memory)
                .filter(|f| f.ranged > 0)
                .map_or("—".into(), |f| pct(f.median_same_machine_rel_width)),
        ));
    }
    s.push_str("\n### Machines\n\n| machine | cores per node | FP64 GFLOP/s per core | memory GB/s per node | sources |\n|---|---|---|---|---|\n");
    for mach in &m.machines {
        let v = |f: &Option<tv::Figure>| f.as_ref().map_or("—".into(), |f| fmt_num(f.value, 4));
        let mut sources: Vec<String> = [&mach.cores_per_node, &mach.core_gflops, &mach.memory_bandwidth_gb_s]
            .iter()
            .filter_map(|f| f.as_ref())
            .flat_map(|f| std::iter::once(&f.source).chain(f.also.as_ref()))
            .map(|src| format!("{} ({}, {})", src.title, src.address, src.date))
            .collect();
        let mut seen = Vec::new();
        sources.retain(|x| {
            if seen.contains(x) {
                false
            } else {
                seen.push(x.clone());
                true
            }
        });
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            mach.name,
            v(&mach.cores_per_node),
            v(&mach.core_gflops),
            v(&mach.memory_bandwidth_gb_s),
            sources.join("; ")
        ));
    }
    s.push_str(
        "\nProcesses per node are those the series' runs used where the corpus gives nodes (half-populated nodes \
         give each process more bandwidth), else the machine's cores.\n\n\
         **Limits.** The pairs come from few repositories (most from one benchmark campaign), the codes are three, and the \
         figures are peak figures from documents, not measurements: a code between the two bounds, or one whose \
         communication dominates, is read only as well as its compute part's ratio allows. Machines of the corpora whose \
         figures no document opened here gives (Grace, the AMD Naples and EPCC Cascade Lake test systems, Mahti's memory \
         bandwidth, MeluXina, MareNostrum 5, Discoverer) are left out with their pairs.\n",
    );
    s
}

/// Runs `validate --transfer` with the mode asked: 0 on success.
pub fn run(root: &Path, corpora: &[&str], md: bool, cal: bool) -> i32 {
    let measured = match measure(root, corpora) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("scalewise validate: {}", super::said(&e));
            return 1;
        }
    };
    if cal {
        return match calibration_source(&measured.report) {
            Ok(s) => super::written("validate", super::write_out(&s)),
            Err(e) => {
                eprintln!("scalewise validate: {}", super::said(&e));
                1
            }
        };
    }
    if md {
        super::written("validate", super::write_out(&markdown(&measured)))
    } else {
        super::written("validate", super::emit(&mut super::Out, &measured.report, false))
    }
}

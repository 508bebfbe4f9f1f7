//! Ready-made calibrations for the multigrid planner ([`crate::model::multigrid`]): the spec's worked
//! example, and the White Rose Grid clusters A and B of the seed paper
//! (`seeds/000_36e595e86e3acfcd.txt`, sections IV–V, Tables I and II).
//!
//! # The White Rose Grid runs are constructed, not measured
//!
//! The paper publishes its predictions and the measured times of the large runs, but not the
//! calibration runs (sequential, np0 = 4 and np0 = 8) the predictions came from. The runs in
//! [`PRESETS`] are therefore made up so that the model, fitted from them by
//! [`crate::model::multigrid::fit`], gives back the paper's PREDICTED column. They are plausible, not
//! real: use them to explore the planner, and replace them with your own measurements.
//!
//! How they were built. First the per-process work sizes were read off the paper: at 32 bytes
//! per grid point, 65536² on 64 processes is 1024 rows × 65536 = 2048 MB per process (Table I,
//! "2GB"), 32768² on 32 processes is 1024 rows × 32768 = 1024 MB (Table II, "1GB"), the 64 + 32
//! job gives each cluster half the rows, 512 rows (1024 MB) per process on A and 1024 rows
//! (2048 MB) on B (Table I, "(1GB, 2GB)"), and the 32 + 32 job gives 1024 rows (2048 MB) per
//! process on both (Table II, "(2GB, 2GB)"). Each calibration is taken at the two sizes its
//! targets need, N̄ × N and N̄/2 × N: 2048 and 1024 MB for A over either fabric and for B over
//! Fast Ethernet (which also serves the two-cluster jobs), 1024 and 512 MB for B over Myrinet
//! (whose only target is 32768² on 32 processes). Then sequential times were chosen per cluster,
//! the same for both fabrics since a one-processor run does not use the network, growing
//! slightly faster than the work (A: 304.7 s at 1024 MB, 626.2 s at 2048 MB; B: 93.8, 190.3
//! and 411.6 s at 512, 1024 and 2048 MB, four copies on a node filling its memory). With
//! Tcomp fixed, each target T = Tcomp(work) + c + d·log2(np) + γ(8)·work is linear in c, d and
//! γ(8), and the two-cluster rows pin two more numbers: T_A(64, 1024 MB) and T_B(32, 2048 MB)
//! on Fast Ethernet must give max = 1044.4 s and T_A(32, 2048 MB), T_B(32, 2048 MB) must give
//! max = 1686.0 s, which is only possible with B the slower side of the 64 + 32 job
//! (T_B = 1044.4 s) and A the slower side of the 32 + 32 job, so A over Fast Ethernet must have
//! d = T_A(64, 2048) − T_A(32, 2048) = 1715.7 − 1686.0 = 29.7 s. The remaining freedom (d for
//! the other three, γ(8) for B over Myrinet) was set to values like the worked example's, the
//! equations were solved for c and γ(8), α(4) = c + 2d and α(8) = c + 3d were formed, γ(4) was
//! set a little below γ(8) as in the worked example, and the calibration times were backed out
//! as T = Tcomp(work) + α(np0) + γ(np0)·work. All parameters were chosen on a 0.1 s grid, so the
//! times come out at 0.1 s resolution with no rounding left over.
//!
//! What they reproduce (the tests below check it to 0.01 s):
//!
//! | paper row (predicted) | model | error |
//! |---|---|---|
//! | A, 64 procs, Fast Ethernet, 65536² (1715.7 s) | 1715.7 s | 0.00 % |
//! | A, 64 procs, Myrinet, 65536² (983.9 s) | 983.9 s | 0.00 % |
//! | A, 32 procs, Fast Ethernet, 32768² (739.2 s) | 739.2 s | 0.00 % |
//! | A, 32 procs, Myrinet, 32768² (628.6 s) | 628.6 s | 0.00 % |
//! | B, 32 procs, Fast Ethernet, 32768² (451.9 s) | 451.9 s | 0.00 % |
//! | B, 32 procs, Myrinet, 32768² (259.5 s) | 259.5 s | 0.00 % |
//! | A 64 + B 32, Fast Ethernet, 65536², paper's split (1044.4 s) | max(768.9, 1044.4) = 1044.4 s | 0.00 % |
//! | A 32 + B 32, Fast Ethernet, 65536², paper's split (1686.0 s) | max(1686.0, 1044.4) = 1686.0 s | 0.00 % |
//!
//! The two-cluster rows hold for the paper's splits. The planner ([`crate::model::multigrid::plan_pair`])
//! reports two others: the split it finds best, and the even split (the same rows per process
//! everywhere). For 32 + 32 all three coincide: 64 processes of at most 2048 MB hold 65536 rows
//! only at 1024 rows each, so the planner also gives 1686.0 s. For 64 + 32 the paper gave each
//! cluster half the rows; the even split, 683 rows (1366 MB, Tcomp read from the straight line)
//! per process, gives max(1085.1, 649.8) = 1085.1 s (+3.9 % against 1044.4 s), and the best
//! split, 578 rows per process on A and 892 on B, gives max(890.9, 891.6) = 891.6 s (−14.6 %).
//! Both lie between the calibrated sizes, so Tcomp comes from the straight line there.
//!
//! Consequences to know. The paper calibrated each target separately, with messages of that
//! target's length N; here one calibration per cluster and fabric serves both N = 32768 and
//! N = 65536. Over Fast Ethernet the paper's predictions grow much faster than the work between
//! the 32768² and the 65536² rows, so the constructed overhead more than doubles when work
//! doubles: its straight line (2) has a large slope γ(8) (0.61 s/MB on A, 0.36 s/MB on B) and a
//! negative intercept α (A: α(4) = −279.9 s, α(8) = −250.2 s; B: α(4) = −151.6 s,
//! α(8) = −137.6 s). Every overhead in the calibration runs is positive, but well below the
//! calibrated sizes the line crosses zero and the model clamps Tcomm at 0 (on 64 A processes
//! below about 264 MB per process). Over Myrinet on A the paper's rows force a large fixed overhead
//! (α(4) = 261.7 s, α(8) = 275.9 s, γ(8) = 0.019 s/MB): the 65536² row on 64 processes is only
//! 355.3 s slower than the 32768² row on 32, so Tcomp(2048) − Tcomp(1024) has to stay below
//! that.
//!
//! # Processes per node
//!
//! The preset places one process per node on A (two processors and 2 GB per node) and four on
//! B (four cores and 8 GB per node), so a process has 2048 MB on either cluster. The paper's rows
//! need this: 65536² on 64 A processes takes 2048 MB each, the whole memory of an A node, so
//! those runs (Ethernet and Myrinet) used one process per node, and so did the A side of the
//! 32 + 32 job (2048 MB); 65536² on 32 B cores (4096 MB each) is infeasible, as the paper says,
//! only when B runs four per node. The 32768² runs on A (1024 MB) and the A side of the 64 + 32
//! job (1024 MB) would also fit two per node; the paper does not say, and one setting per
//! cluster covers every row with one per node. All B rows (1024 or 2048 MB) run four per node,
//! like the paper's sequential B runs (four copies on one node) and its np0 = 8 runs (two full
//! nodes).

/// The calibration runs of one cluster over one fabric, as tab-separated table texts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CalibrationPreset {
    /// Catalog id of the cluster ("wrg-a").
    pub cluster_id: &'static str,
    /// Fabric name as in the catalog ("Fast Ethernet", "Myrinet").
    pub fabric: &'static str,
    /// Header `work (MB)\ttime (s)`, then one run per line.
    pub sequential: &'static str,
    /// Header `np\twork (MB)\ttime (s)`, then one run per line.
    pub parallel: &'static str,
}

/// A ready-made planner input: calibrations, problem and the clusters' processes. Prices are
/// not here: they come from the catalog (A at 1, B at 2 units per CPU-hour).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MultigridPreset {
    /// A short stable name (tests, links).
    pub key: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub calibrations: &'static [CalibrationPreset],
    /// Grid side N.
    pub grid_n: u64,
    /// Memory per grid point over all levels, bytes.
    pub bytes_per_point: f64,
    /// Processes for a single-cluster prediction on `cluster_a`.
    pub np: u32,
    /// Catalog id of the first cluster.
    pub cluster_a: &'static str,
    /// Catalog id of the second cluster; empty when the preset has one cluster (then `np_b`,
    /// `procs_per_node_b` and `free_b` are 0 and unused).
    pub cluster_b: &'static str,
    /// Processes on each cluster for the two-cluster job.
    pub np_a: u32,
    pub np_b: u32,
    pub procs_per_node_a: u32,
    pub procs_per_node_b: u32,
    /// Free processes on each cluster (the planner's upper bounds).
    pub free_a: u32,
    pub free_b: u32,
}

const WORKED_EXAMPLE: &[CalibrationPreset] = &[CalibrationPreset {
    cluster_id: "wrg-b",
    fabric: "Myrinet",
    sequential: "work (MB)\ttime (s)\n2048\t1500\n1024\t740",
    parallel: "np\twork (MB)\ttime (s)\n4\t2048\t1580\n4\t1024\t800\n8\t2048\t1610\n8\t1024\t825",
}];

/// Sequential runs on A: one copy per node, the same for both fabrics.
const WRG_A_SEQUENTIAL: &str = "work (MB)\ttime (s)\n2048\t626.2\n1024\t304.7";

const WHITE_ROSE: &[CalibrationPreset] = &[
    CalibrationPreset {
        cluster_id: "wrg-a",
        fabric: "Fast Ethernet",
        sequential: WRG_A_SEQUENTIAL,
        parallel: "np\twork (MB)\ttime (s)\n4\t2048\t1546.3\n4\t1024\t624.8\n8\t2048\t1626.6\n8\t1024\t679.8",
    },
    CalibrationPreset {
        cluster_id: "wrg-a",
        fabric: "Myrinet",
        sequential: WRG_A_SEQUENTIAL,
        parallel: "np\twork (MB)\ttime (s)\n4\t2048\t922.9\n4\t1024\t583.9\n8\t2048\t941.3\n8\t1024\t600.2",
    },
    CalibrationPreset {
        cluster_id: "wrg-b",
        fabric: "Fast Ethernet",
        sequential: "work (MB)\ttime (s)\n2048\t411.6\n1024\t190.3",
        parallel: "np\twork (MB)\ttime (s)\n4\t2048\t960.0\n4\t1024\t388.7\n8\t2048\t1016.4\n8\t1024\t423.9",
    },
    CalibrationPreset {
        cluster_id: "wrg-b",
        fabric: "Myrinet",
        sequential: "work (MB)\ttime (s)\n1024\t190.3\n512\t93.8",
        parallel: "np\twork (MB)\ttime (s)\n4\t1024\t232.0\n4\t512\t125.5\n8\t1024\t242.5\n8\t512\t135.0",
    },
];

/// The shipped presets; the page offers them through [`crate::model::multigrid::page::presets`].
pub(super) const PRESETS: &[MultigridPreset] = &[
    MultigridPreset {
        key: "worked-example",
        name: "Worked example (spec)",
        description: "The spec's worked example: runs of 2048 and 1024 MB per process on 1, 4 and 8 \
                      processes, read as cluster B over Myrinet. 65536² on 64 processes is 2048 MB \
                      per process and T(64) = 1670 s.",
        calibrations: WORKED_EXAMPLE,
        grid_n: 65536,
        bytes_per_point: 32.0,
        np: 64,
        cluster_a: "wrg-b",
        cluster_b: "",
        np_a: 64,
        np_b: 0,
        procs_per_node_a: 4,
        procs_per_node_b: 0,
        free_a: 64,
        free_b: 0,
    },
    MultigridPreset {
        key: "white-rose",
        name: "White Rose Grid A and B",
        description: "Clusters A and B of the White Rose Grid, each over Fast Ethernet and Myrinet \
                      (together over Fast Ethernet only), 64 processes free on A and 32 on B, as \
                      in the paper's scenarios. The calibration runs are CONSTRUCTED, not \
                      measured: the paper did not publish its own, so these were made up to \
                      reproduce its predicted times (Tables I and II). One process per node on A, \
                      four on B (2 GB per process on both). Replace them with your measurements.",
        calibrations: WHITE_ROSE,
        grid_n: 65536,
        bytes_per_point: 32.0,
        np: 64,
        cluster_a: "wrg-a",
        cluster_b: "wrg-b",
        np_a: 32,
        np_b: 32,
        procs_per_node_a: 1,
        procs_per_node_b: 4,
        free_a: 64,
        free_b: 32,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::multigrid::{
        fit, plan_alone, plan_pair, Calibration, ClusterSide, EvenSplit, Fit, Infeasibility, Outcome, ParallelRun,
        Problem, SequentialRun, Side,
    };

    /// Data rows of a tab-separated table text, header skipped.
    fn rows(text: &str, header: &str) -> Vec<Vec<f64>> {
        let mut lines = text.split('\n');
        assert_eq!(lines.next(), Some(header));
        lines.map(|l| l.split('\t').map(|c| c.trim().parse::<f64>().expect("a number")).collect()).collect()
    }

    fn calibration(p: &CalibrationPreset) -> Calibration {
        let sequential = rows(p.sequential, "work (MB)\ttime (s)")
            .iter()
            .map(|r| {
                assert_eq!(r.len(), 2);
                SequentialRun::new(r[0], r[1])
            })
            .collect();
        let parallel = rows(p.parallel, "np\twork (MB)\ttime (s)")
            .iter()
            .map(|r| {
                assert_eq!(r.len(), 3);
                ParallelRun::new(r[0] as u32, r[1], r[2])
            })
            .collect();
        Calibration { sequential, parallel }
    }

    fn preset(name: &str) -> &'static MultigridPreset {
        PRESETS.iter().find(|p| p.name == name).expect("preset exists")
    }

    fn fit_of(p: &MultigridPreset, cluster: &str, fabric: &str) -> Fit {
        let c = p.calibrations.iter().find(|c| c.cluster_id == cluster && c.fabric == fabric).expect("calibrated");
        fit(&calibration(c)).unwrap_or_else(|e| panic!("{cluster} over {fabric} fits: {e:?}"))
    }

    fn wrg() -> &'static MultigridPreset {
        preset("White Rose Grid A and B")
    }

    fn problem(n: u32) -> Problem {
        Problem { n, bytes_per_point: wrg().bytes_per_point }
    }

    /// Largest error allowed against the paper's predictions, s (achieved: below 1e-9 s).
    const TOL_S: f64 = 0.01;

    fn close(what: &str, got: f64, want: f64) {
        assert!((got - want).abs() <= TOL_S, "{what}: model {got:.4} s, paper {want} s");
    }

    /// T_A(np_a, rows_a per process) and T_B(np_b, rows_b) at N = 65536 over Fast Ethernet.
    fn pair(np_a: u32, rows_a: u64, np_b: u32, rows_b: u64) -> (f64, f64) {
        let (fa, fb) = (fit_of(wrg(), "wrg-a", "Fast Ethernet"), fit_of(wrg(), "wrg-b", "Fast Ethernet"));
        let pb = problem(65536);
        assert_eq!(u64::from(np_a) * rows_a + u64::from(np_b) * rows_b, 65536);
        let ta = fa.predict(np_a, pb.work_mb_for_rows(rows_a)).expect("A").time_s;
        let tb = fb.predict(np_b, pb.work_mb_for_rows(rows_b)).expect("B").time_s;
        (ta, tb)
    }

    fn side(name: &str, fabric: &str, free: u32, ppn: u32, node_mb: f64, price: f64) -> ClusterSide {
        ClusterSide {
            name: name.into(),
            fabric: fabric.into(),
            free_procs: free,
            procs_per_node: ppn,
            memory_per_node_mb: node_mb,
            price_per_cpu_hour: price,
            economics: Default::default(),
        }
    }

    #[test]
    fn every_preset_parses_and_fits() {
        for p in PRESETS {
            assert!(!p.calibrations.is_empty(), "{}", p.name);
            for c in p.calibrations {
                let cal = calibration(c);
                assert!(cal.sequential.len() >= 2 && cal.parallel.len() >= 4, "{} {}", c.cluster_id, c.fabric);
                let f = fit(&cal).unwrap_or_else(|e| panic!("{} {} {}: {e:?}", p.name, c.cluster_id, c.fabric));
                assert!(f.is_finite());
                assert_eq!(f.gamma_np0, 8);
                assert!(
                    f.runs.iter().all(|r| r.tcomm_s > 0.0),
                    "{} {}: every overhead measured positive",
                    c.cluster_id,
                    c.fabric
                );
                // γ(4) a little below γ(8), α(4) below α(8): d > 0.
                assert!(f.per_np0[0].gamma_s_per_mb < f.per_np0[1].gamma_s_per_mb);
                assert!(f.alpha.d_s > 0.0);
            }
        }
    }

    #[test]
    fn worked_example_gives_1670() {
        let p = preset("Worked example (spec)");
        let f = fit_of(p, "wrg-b", "Myrinet");
        let pb = Problem { n: p.grid_n as u32, bytes_per_point: p.bytes_per_point };
        assert_eq!(pb.work_mb(p.np), 2048.0);
        let t = f.predict(p.np, pb.work_mb(p.np)).expect("predicts").time_s;
        assert!((t - 1670.0).abs() < 1e-9, "{t}");
        let b = side("B", "Myrinet", p.free_a, p.procs_per_node_a, 8192.0, 2.0);
        match plan_alone(Side { cluster: &b, fit: &f }, p.np, &pb).expect("valid") {
            Outcome::Feasible(plan) => assert!((plan.time_s - 1670.0).abs() < 1e-9),
            Outcome::Infeasible(o) => panic!("{o:?}"),
        }
    }

    #[test]
    fn white_rose_fields() {
        let p = wrg();
        assert_eq!((p.grid_n, p.np, p.np_a, p.np_b, p.free_a, p.free_b), (65536, 64, 32, 32, 64, 32));
        assert_eq!((p.cluster_a, p.cluster_b, p.procs_per_node_a, p.procs_per_node_b), ("wrg-a", "wrg-b", 1, 4));
        for cl in ["wrg-a", "wrg-b"] {
            for fab in ["Fast Ethernet", "Myrinet"] {
                assert_eq!(p.calibrations.iter().filter(|c| c.cluster_id == cl && c.fabric == fab).count(), 1);
            }
        }
        // A one-processor run does not depend on the fabric: the same sequential times.
        let seq = |cl, fab| {
            calibration(p.calibrations.iter().find(|c| c.cluster_id == cl && c.fabric == fab).unwrap()).sequential
        };
        assert_eq!(seq("wrg-a", "Fast Ethernet"), seq("wrg-a", "Myrinet"));
        let (be, bm) = (seq("wrg-b", "Fast Ethernet"), seq("wrg-b", "Myrinet"));
        let at = |s: &[SequentialRun], w: f64| s.iter().find(|r| r.work_mb == w).map(|r| r.time_s);
        assert_eq!(at(&be, 1024.0), at(&bm, 1024.0));
    }

    #[test]
    fn single_cluster_rows_reproduce_the_paper() {
        // (cluster, fabric, np, N, paper's predicted time)
        let table = [
            ("wrg-a", "Fast Ethernet", 64, 65536, 1715.7),
            ("wrg-a", "Myrinet", 64, 65536, 983.9),
            ("wrg-a", "Fast Ethernet", 32, 32768, 739.2),
            ("wrg-a", "Myrinet", 32, 32768, 628.6),
            ("wrg-b", "Fast Ethernet", 32, 32768, 451.9),
            ("wrg-b", "Myrinet", 32, 32768, 259.5),
        ];
        for (cl, fab, np, n, want) in table {
            let f = fit_of(wrg(), cl, fab);
            let work = problem(n).work_mb(np);
            let p = f.predict(np, work).expect("predicts");
            assert!(p.notes.is_empty(), "{cl} {fab}: work {work} MB is a measured size: {:?}", p.notes);
            close(&format!("{cl} {fab} np={np} N={n}"), p.time_s, want);
            // The same through the planner, with the preset's processes per node.
            let (ppn, node_mb) =
                if cl == "wrg-a" { (wrg().procs_per_node_a, 2048.0) } else { (wrg().procs_per_node_b, 8192.0) };
            let c = side(cl, fab, 64, ppn, node_mb, 1.0);
            match plan_alone(Side { cluster: &c, fit: &f }, np, &problem(n)).expect("valid") {
                Outcome::Feasible(plan) => close(&format!("plan {cl} {fab} np={np} N={n}"), plan.time_s, want),
                Outcome::Infeasible(o) => panic!("{cl} {fab} np={np} N={n}: {o:?}"),
            }
        }
    }

    #[test]
    fn two_cluster_rows_reproduce_the_paper_with_its_splits() {
        // Table I: 64 + 32, (1 GB, 2 GB) per process: 512 rows on each A process, 1024 on B.
        let (ta, tb) = pair(64, 512, 32, 1024);
        close("64 + 32, A side", ta, 768.9);
        close("64 + 32, B side", tb, 1044.4);
        close("64 + 32", ta.max(tb), 1044.4);
        // Table II: 32 + 32, (2 GB, 2 GB): 1024 rows everywhere.
        let (ta, tb) = pair(32, 1024, 32, 1024);
        close("32 + 32, A side", ta, 1686.0);
        close("32 + 32", ta.max(tb), 1686.0);
    }

    #[test]
    fn planner_splits_and_memory() {
        let p = wrg();
        let (fa, fb) = (fit_of(p, "wrg-a", "Fast Ethernet"), fit_of(p, "wrg-b", "Fast Ethernet"));
        let a = side("A", "Fast Ethernet", p.free_a, p.procs_per_node_a, 2048.0, 1.0);
        let b = side("B", "Fast Ethernet", p.free_b, p.procs_per_node_b, 8192.0, 2.0);
        let big = problem(65536);
        // Paper: 65536² on 32 cores of B needs 4 GB per core: infeasible at four per node.
        let fbm = fit_of(p, "wrg-b", "Myrinet");
        let bm = side("B", "Myrinet", p.free_b, p.procs_per_node_b, 8192.0, 2.0);
        match plan_alone(Side { cluster: &bm, fit: &fbm }, 32, &big).expect("valid") {
            Outcome::Infeasible(o) => {
                assert!(matches!(o.reason, Infeasibility::MemoryPerProcess { need_mb, .. } if need_mb == 4096.0))
            }
            Outcome::Feasible(plan) => panic!("{plan:?}"),
        }
        // 32 + 32: the even split is the paper's; the best split is no slower.
        let out = plan_pair(Side { cluster: &a, fit: &fa }, p.np_a, Side { cluster: &b, fit: &fb }, p.np_b, &big)
            .expect("valid");
        let Outcome::Feasible(plan) = out else { panic!("{out:?}") };
        let Some(EvenSplit::Feasible { rows_per_process, time_s, .. }) = plan.even_split else { panic!("{plan:?}") };
        assert_eq!(rows_per_process, 1024);
        close("32 + 32 even split", time_s, 1686.0);
        // Memory allows no other split: 64 processes of 2048 MB hold exactly 65536 rows.
        close("32 + 32 best split", plan.time_s, 1686.0);
        // 64 + 32: the paper's split is neither the even nor the best one.
        let out =
            plan_pair(Side { cluster: &a, fit: &fa }, 64, Side { cluster: &b, fit: &fb }, 32, &big).expect("valid");
        let Outcome::Feasible(plan) = out else { panic!("{out:?}") };
        let Some(EvenSplit::Feasible { rows_per_process, time_s: even_64, .. }) = plan.even_split else {
            panic!("{plan:?}")
        };
        assert_eq!(rows_per_process, 683);
        close("64 + 32 even split (A side)", even_64, 1085.12);
        assert!(plan.time_s <= 891.7 && plan.time_s <= even_64, "{plan:?}");
    }
}

//! What a simulation's run holds at its peak, counted by the allocator, against what the job
//! was told before it started ([`Programs::peak_message_bytes`], which the limit
//! `max_run_bytes` is checked against). An all-to-all is the case that grows as p²: if the
//! engine's lists grew a byte a pair more than the estimate allows, a page's worker or the
//! command would take more memory than the limit says. (With lists that kept their longest
//! length after emptying, as the engine's did until they gave their memory back, the loops
//! below held 78.5 and 71.5 bytes a pair, over today's 56.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use scalewise::model::simulate::job::{Job, Limits, Simulation};
use scalewise::model::simulate::lang;
use scalewise::model::simulate::machine::{perseus, Contention, Mode};
use scalewise::model::simulate::program::compile;

/// The system allocator, counting the bytes live and the most live since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Counted as the change in size: a large block grows in place or is remapped, not
        // copied (what the process's resident memory shows).
        if new_size >= layout.size() {
            let live = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size - layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn job(skeleton: &str, numprocs: u32) -> Job {
    Job {
        skeleton: lang::parse(skeleton).unwrap(),
        params: Vec::new(),
        numprocs: vec![numprocs],
        procs_per_node: 1,
        machine: perseus(),
        mode: Mode::Distribution,
        contention: Contention::Moment,
        replications: 1,
        seed: 1,
        compare: false,
        sequential_s: None,
        limits: Limits::default(),
    }
}

/// Bytes the run of `job` took at its peak beyond what was live before it (its programs and
/// the engine's fixed state included).
fn peak_of(job: Job) -> usize {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let report = Simulation::new(job).unwrap().run_to_end().unwrap();
    assert!(report.deadlock.is_none());
    PEAK.load(Ordering::Relaxed) - before
}

#[test]
fn an_all_to_alls_peak_stays_within_its_estimate() {
    // Held as one op (a size known before the run), once and in loops whose processes drift
    // apart (the later ones start their next all-to-all while others still finish this one).
    // One written out (a size drawn at run time) holds the same messages, and its programs'
    // 2 (p − 1) ops a process besides, which the programs' own limit bounds (MAX_PROGRAM_OPS:
    // about 1,000 processes).
    let cases = [
        ("Message type = MPI_Alltoall, size = 8", 300u32),
        ("Message type = MPI_Alltoall, size = 8", 900),
        ("Loop iterations = 24 {\n Serial time = 1e-5 * procnum / numprocs\n Message type = MPI_Alltoall, size = 4096\n}", 600),
        ("Loop iterations = 100 {\n Serial time = uniform(0, 1e-3)\n Message type = MPI_Alltoall, size = 4096\n}", 200),
    ];
    let mut most = 0.0f64;
    for (skeleton, p) in cases {
        let estimate = compile(&lang::parse(skeleton).unwrap(), &[], p).unwrap().peak_message_bytes();
        let pairs = f64::from(p) * f64::from(p);
        let peak = peak_of(job(skeleton, p)) as f64;
        println!(
            "{p} processes, {:?}: peak {:.1} bytes a pair, estimate {:.1}",
            skeleton.lines().next(),
            peak / pairs,
            estimate / pairs
        );
        assert!(peak <= estimate, "{p} processes: {peak} bytes at the peak, above the estimate {estimate}: {skeleton}");
        most = most.max(peak / estimate);
    }
    // Not so loose that the limit refuses what would fit in much less: the loops' drift comes
    // near it.
    assert!(most >= 0.7, "the largest peak is {:.0} % of its estimate", 100.0 * most);
    // Programs without an all-to-all are bounded by their steps, and told as holding nothing.
    let ring = "Message type = MPI_Isend, to = (procnum + 1) % numprocs\nMessage type = MPI_Irecv, from = (procnum + numprocs - 1) % numprocs\nMessage type = MPI_Wait";
    assert_eq!(compile(&lang::parse(ring).unwrap(), &[], 1000).unwrap().peak_message_bytes(), 0.0);
}

#[test]
fn a_run_that_would_hold_more_than_its_limit_is_refused_before_it_starts() {
    let skeleton = "Message type = MPI_Alltoall, size = 8";
    // 56 × 3,024² bytes is just over 512 MB; 3,023 processes fit.
    let e = Simulation::new(job(skeleton, 3024)).err().expect("refused");
    assert_eq!(e.field, "numprocs");
    assert!(
        e.message.contains("3024 processes holds about 512 MB") && e.message.contains("512 MB a run may hold"),
        "{e}"
    );
    // The check the page makes on each keystroke says the same, without running anything.
    assert_eq!(Simulation::check(&job(skeleton, 3024)).expect_err("refused").message, e.message);
    assert!(Simulation::check(&job(skeleton, 3023)).is_ok());
    // A limit raised for the job lets it through (10,000 processes: 5.6 GB).
    let mut big = job(skeleton, 10_000);
    assert!(Simulation::check(&big).is_err());
    big.limits.max_run_bytes = 5.6e9;
    // (And its steps: 3.4e9 at their costs, past the default job limit.)
    big.limits.max_steps_per_job = 1e10;
    assert!(Simulation::check(&big).is_ok());
}

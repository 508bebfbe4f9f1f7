//! Engine tests: deterministic machines with answers worked out by hand, deadlocks, modes,
//! sampling against the histogram, reproducibility.

use super::engine::*;
use super::examples::{BAG_OF_TASKS, FFT, JACOBI};
use super::job::*;
use super::lang;
use super::machine::{perseus, Contention, Machine, Mode, RunMachine};
use super::program::{compile, parameters};

fn job(text: &str, numprocs: &[u32], machine: Machine, mode: Mode) -> Job {
    Job {
        skeleton: lang::parse(text).unwrap(),
        params: Vec::new(),
        numprocs: numprocs.to_vec(),
        procs_per_node: 1,
        machine,
        mode,
        contention: Contention::Moment,
        replications: 3,
        seed: 1,
        compare: false,
        sequential_s: None,
        limits: Limits::default(),
    }
}

/// A machine where every message takes `t` seconds.
fn fixed(t: f64) -> Machine {
    Machine::fitted(t, 1e15).unwrap()
}

fn run(j: Job) -> Report {
    Simulation::new(j).unwrap().run_to_end().unwrap()
}

fn time(text: &str, np: u32, machine: Machine) -> f64 {
    let r = run(job(text, &[np], machine, Mode::Distribution));
    assert!(r.deadlock.is_none(), "{:?}", r.deadlock);
    r.main.results[0].mean_s
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1.0)
}

#[test]
fn two_processes_exchanging() {
    // Both send at 0 (blocking: each sender holds until its message arrives at T = 1 ms), then
    // receive the other's, which arrived at 1 ms; then 2 ms of work: 3 ms.
    let text =
        "Message type = MPI_Send, to = 1 - procnum\nMessage type = MPI_Recv, from = 1 - procnum\nSerial time = 2";
    let r = run(job(text, &[2], fixed(1e-3), Mode::Distribution));
    let c = &r.main.results[0];
    assert!(close(c.mean_s, 3e-3), "{}", c.mean_s);
    assert!(
        close(c.procs[0].sending_s, 1e-3) && close(c.procs[0].waiting_s, 0.0) && close(c.procs[1].computing_s, 2e-3)
    );
    assert_eq!(c.messages_per_run, 2.0);
    assert!(close(c.ci95_s[0], c.mean_s) && close(c.ci95_s[1], c.mean_s));
    // A ping-pong, 10 round trips of 0.5 ms each way: 10 ms; the receiver waits 0.5 ms first.
    let pp = "Loop iterations = 10 {\n Runon procnum == 0 { Message type = MPI_Send, to = 1\n Message type = MPI_Recv, from = 1 }\n { Message type = MPI_Recv, from = 0\n Message type = MPI_Send, to = 0 } }";
    assert!(close(time(pp, 2, fixed(0.5e-3)), 10e-3));
}

#[test]
fn a_ring() {
    // Process 0 starts a token round a ring of P processes; each hop takes 1 ms and each holder
    // works 2 ms before passing it on: P hops and P − 1 work steps, then 0 works 2 ms: 3P ms.
    let text = "Loop iterations = 3 {\nRunon procnum == 0 {\n Serial time = 2\n Message type = MPI_Send, to = 1 % numprocs\n Message type = MPI_Recv, from = numprocs - 1\n} {\n Message type = MPI_Recv, from = procnum - 1\n Serial time = 2\n Message type = MPI_Send, to = (procnum + 1) % numprocs\n}\n}";
    // 100 and 300: the event tree's other shapes (see sim::Events).
    for p in [2u32, 3, 5, 8, 100, 300] {
        // Per round: 0 works 2, then P hops of 1 ms and P − 1 works of 2 ms: 3P ms per round.
        let want = 3.0 * (3 * p) as f64 * 1e-3;
        assert!(close(time(text, p, fixed(1e-3)), want), "P = {p}: {}", time(text, p, fixed(1e-3)));
    }
}

#[test]
fn a_pipeline() {
    // k items through P stages; each stage works w = 2 ms per item and passes it on (m = 1 ms,
    // non-blocking so a stage does not wait for delivery). Stage i finishes item j at
    // (i + j + 1)·w + i·m for w ≥ m: the last stage ends at (P + k − 1)·w + (P − 1)·m.
    let text = "Loop j iterations = 5 {\n Runon procnum > 0 { Message type = MPI_Recv, from = procnum - 1 }\n Serial time = 2\n Runon procnum < numprocs - 1 { Message type = MPI_Isend, to = procnum + 1 }\n}\nMessage type = MPI_Wait";
    for p in [1u32, 2, 4, 7] {
        let want = ((p + 5 - 1) as f64 * 2.0 + (p - 1) as f64 * 1.0) * 1e-3;
        assert!(close(time(text, p, fixed(1e-3)), want), "P = {p}: {}", time(text, p, fixed(1e-3)));
    }
}

#[test]
fn collectives_on_a_fixed_machine() {
    // A binomial broadcast over 8 processes: 3 rounds of 1 ms each along the longest path, but
    // the root's sends are blocking, one after the other: 0→4 (1 ms), 0→2 (2 ms), 0→1 (3 ms);
    // 4→6 at 2, 4→5 at 3; 2→3 at 3; 6→7 at 3. All done at 3 ms.
    assert!(close(time("Message type = MPI_Bcast, size = 100", 8, fixed(1e-3)), 3e-3));
    // Barrier = reduce + broadcast: 3 + 3 rounds.
    assert!(close(time("Message type = MPI_Barrier", 8, fixed(1e-3)), 6e-3));
    // Alltoall: every message leaves at 0 and arrives at 1 ms.
    assert!(close(time("Message type = MPI_Alltoall, size = 10", 5, fixed(1e-3)), 1e-3));
}

#[test]
fn deadlock_is_a_result() {
    let text =
        "Serial time = 1\nMessage type = MPI_Recv, from = 1 - procnum\nMessage type = MPI_Send, to = 1 - procnum";
    let r = run(job(text, &[2], fixed(1e-3), Mode::Distribution));
    // No count finished: no computing time to compare with (0, not the -0 of an empty sum).
    assert!(r.sequential_s == 0.0 && r.sequential_s.is_sign_positive(), "{}", r.sequential_s);
    let d = r.deadlock.expect("deadlock");
    assert_eq!(d.numprocs, 2);
    assert_eq!(d.blocked.len(), 2);
    assert_eq!(d.blocked[0].proc, 0);
    assert!(d.blocked[0].waiting_for.contains("from process 1"), "{}", d.blocked[0].waiting_for);
    assert_eq!(d.blocked[1].line, 2);
    assert!(close(d.time_s, 1e-3));
    // A wait on a receive nobody sends, and an any-source receive with no senders.
    let r =
        run(job("Message type = MPI_Irecv, from = 0\nMessage type = MPI_Wait", &[1], fixed(1e-3), Mode::Distribution));
    assert!(r.deadlock.unwrap().blocked[0].waiting_for.contains("MPI_Wait"));
    let r = run(job(BAG_OF_TASKS, &[1], fixed(1e-3), Mode::Distribution));
    assert!(r.deadlock.unwrap().blocked[0].waiting_for.contains("any process"));
}

#[test]
fn runaway_loops_are_stopped_with_a_clear_error() {
    // Known before the run: refused at once.
    let j = job(
        "Loop iterations = 1e9 { Loop iterations = 1e9 { Serial time = 1 } }",
        &[2],
        fixed(1e-3),
        Mode::Distribution,
    );
    let e = Simulation::new(j).err().expect("refused");
    assert!(e.message.contains("would take about"), "{e}");
    // Known only while running (a counter-dependent count): stopped at the step limit.
    let mut j = job(
        "Loop i iterations = 3 { Loop iterations = 1e9 * (i + 1) { Serial time = 0 } }",
        &[1],
        fixed(1e-3),
        Mode::Distribution,
    );
    j.limits.max_steps_per_run = 1_000_000;
    let e = Simulation::new(j).unwrap().run_to_end().unwrap_err();
    assert!(e.message.contains("more than 1000000 steps"), "{e}");
    // A send to a process computed at run time that does not exist.
    let j = job("Loop i iterations = 3 { Message type = MPI_Isend, to = i }", &[2], fixed(1e-3), Mode::Distribution);
    let e = Simulation::new(j).unwrap().run_to_end().unwrap_err();
    assert!(e.message.contains("process 0 sends to 2") && e.line == Some(1), "{e}");
}

/// The work the page shows before a run: exact when every loop count is known, a lower bound
/// said as such when one is drawn at run time, and the counts it covers.
#[test]
fn the_work_shown_before_a_run_counts_what_it_can() {
    // 3 processes in all × (10 + the loop + 10 × (a Serial, 1 + 3, and the loop's end)) × 3
    // replications: what the run then charges (each process's end besides).
    let j = job("Loop iterations = 10 { Serial time = 1e-6 }", &[1, 2], fixed(1e-3), Mode::Distribution);
    let e = Simulation::check(&j).unwrap();
    assert_eq!((e.counts, e.of_counts, e.dynamic, e.limit), (2, 2, false, 2e9));
    let spent = Simulation::new(j).unwrap().run_to_end().unwrap().charged as f64;
    assert!(e.steps > 0.0 && (e.steps - spent).abs() <= 0.25 * spent, "estimate {} against {spent} spent", e.steps);
    let text = super::page::work_text(&e);
    assert!(
        text.contains("about 549 steps, of the limit of 2e9 a job may take.") && !text.contains("lower bound"),
        "{text}"
    );
    // Large counts in three digits and a power of ten.
    let big = Estimate { steps: 58_570_080.0, ..e.clone() };
    assert!(super::page::work_text(&big).starts_with("Work: about 5.86e7 steps"), "{}", super::page::work_text(&big));
    // A count drawn at run time: the estimate takes the loop once and says it is a lower bound.
    let j =
        job("Loop iterations = floor(uniform(100, 101)) { Serial time = 1e-6 }", &[2], fixed(1e-3), Mode::Distribution);
    let e = Simulation::check(&j).unwrap();
    assert!(e.dynamic);
    let spent = Simulation::new(j).unwrap().run_to_end().unwrap().charged as f64;
    assert!(e.steps < spent / 10.0, "{} against {spent}", e.steps);
    assert!(super::page::work_text(&e).contains("lower bound"));
    // Counts past the keystroke's compile budget are not counted, and the text says so: an
    // all-to-all whose size is drawn at run time is written out, 2 (p − 1) ops a process.
    let mut counts: Vec<u32> = (983..=1000).collect();
    counts.insert(0, 2);
    let j = job("Message type = MPI_Alltoall, size = 8 + 0 * uniform(0, 1)", &counts, perseus(), Mode::Minimum);
    let e = Simulation::check(&j).unwrap();
    assert!(e.counts >= 1 && e.counts < e.of_counts && e.of_counts == 19, "{e:?}");
    assert!(super::page::work_text(&e).contains(&format!("smallest {} of 19 process counts", e.counts)));
    // One of a size known before the run is one op a process: every count is counted.
    let j = job("Message type = MPI_Alltoall, size = 8", &counts, perseus(), Mode::Minimum);
    let e = Simulation::check(&j).unwrap();
    assert_eq!((e.counts, e.of_counts), (19, 19), "{e:?}");
    assert!(!super::page::work_text(&e).contains("smallest"));
}

/// The ring exchange (a loop count drawn at run time), smaller: its steps are charged at
/// their costs (an op's step and what `program::Costs` adds), the run and the estimate of a
/// known loop count alike, and the job's limit stops it after its part's share of them, the
/// same count whatever the machine (the time to that error is `tests/bench_simulate.rs`'s).
#[test]
fn the_job_limit_counts_steps_at_their_costs() {
    use super::program::Costs;
    let ring = |count: &str| {
        format!(
            "Loop iterations = {count} {{\n Message type = MPI_Isend, size = 8, to = (procnum + 1) % numprocs\n Message type = MPI_Irecv, size = 8, from = (procnum + numprocs - 1) % numprocs\n Message type = MPI_Wait\n}}"
        )
    };
    let c = Costs::of(64);
    assert_eq!(c, Costs { compute: 3, eval: 3, send: 5, recv: 3, wait: 3, process: 10 });
    // A process: its start, the loop, 300 × (Isend, Irecv, Wait, the loop's end), its end.
    let ops = 1 + 300 * 4 + 1;
    let charged = c.process + ops + 300 * (c.send + c.recv + c.wait);
    let mut j = job(&ring("floor(uniform(300, 301))"), &[64], fixed(1e-3), Mode::Distribution);
    j.replications = 10;
    let r = run(j.clone());
    assert_eq!((r.steps, r.charged), (10 * 64 * ops, 10 * 64 * charged));
    // Known before the run: the estimate is what the run charges, but for each process's end.
    let mut known = job(&ring("300"), &[64], fixed(1e-3), Mode::Distribution);
    known.replications = 10;
    let e = Simulation::check(&known).unwrap();
    assert_eq!(e.steps, (10 * 64 * (charged - 1)) as f64);
    assert_eq!(run(known).charged, r.charged);
    // 10 replications in 8 parts: the first holds one, so its share of a limit of 1e6 is
    // 1e5 steps, which its first run passes (288,768 steps); the error says so.
    j.limits.max_steps_per_job = 1e6;
    let err = Simulation::new(j.clone()).unwrap().run_to_end().unwrap_err();
    assert!(err.message.starts_with("stopped after 100001 steps, 0 of this part's 1 runs done"), "{err}");
    // The per-run limit counts the same steps.
    j.limits = Limits { max_steps_per_run: 200_000, ..Limits::default() };
    let err = Simulation::new(j.clone()).unwrap().run_to_end().unwrap_err();
    assert!(err.message.contains("took more than 200000 steps"), "{err}");
    j.limits.max_steps_per_run = 64 * charged;
    assert_eq!(run(j).charged, r.charged);
}

#[test]
fn steps_in_slices_give_the_same_answer_as_one_go() {
    let mut j = job(JACOBI, &[4, 8], perseus(), Mode::Distribution);
    j.params = lang::parse_params("parameters", "iterations = 50").unwrap();
    let whole = run(j.clone());
    let mut sim = Stepper::new(Simulation::new(j).unwrap());
    let mut fractions = Vec::new();
    // The messages simulated so far, as the page shows them a second at a time.
    let mut sent = Vec::new();
    let report = loop {
        match sim.step(199).unwrap() {
            Progress::Running { fraction } => fractions.push(fraction),
            Progress::Done => break sim.report(),
        }
        sent.push(sim.messages());
    };
    assert!(fractions.len() > 10 && fractions.windows(2).all(|w| w[0] <= w[1]));
    assert!(sent.windows(2).all(|w| w[0] <= w[1]) && sent[0] < sent[sent.len() / 2], "{sent:?}");
    assert_eq!(sim.messages(), whole.messages);
    assert_eq!(report, whole);
}

#[test]
fn same_seed_same_answer_other_seed_other_answer() {
    let mut j = job(JACOBI, &[8], perseus(), Mode::Distribution);
    j.params = lang::parse_params("parameters", "iterations = 100").unwrap();
    let a = run(j.clone());
    assert_eq!(a, run(j.clone()));
    // A result for 8 processes does not depend on the other counts in the list.
    let mut both = j.clone();
    both.numprocs = vec![4, 8];
    assert_eq!(run(both).main.results[1].run_times_s, a.main.results[0].run_times_s);
    j.seed = 2;
    assert_ne!(a.main.results[0].run_times_s, run(j).main.results[0].run_times_s);
}

#[test]
fn golden_values_pin_the_random_stream() {
    // Pins the whole chain (seeding, sampling, event order) so a platform difference shows.
    let mut j = job(JACOBI, &[4], perseus(), Mode::Distribution);
    j.params = lang::parse_params("parameters", "iterations = 20").unwrap();
    j.replications = 2;
    let t = run(j).main.results[0].run_times_s.clone();
    let bits: Vec<String> = t.iter().map(|x| format!("{x:.12}")).collect();
    assert_eq!(bits, GOLDEN_JACOBI4, "update only for a deliberate change of the engine");
}

const GOLDEN_JACOBI4: [&str; 2] = ["0.026211899842", "0.026211533898"];

#[test]
fn minimum_never_slower_than_distribution() {
    for (text, np) in [(JACOBI, 16u32), (FFT, 8), (JACOBI, 6)] {
        let mut j = job(text, &[np], perseus(), Mode::Distribution);
        j.params = lang::parse_params("parameters", "iterations = 30\ntransforms = 3").unwrap_or_default();
        j.params.retain(|(n, _)| text.contains(n.as_str()));
        j.compare = true;
        let r = run(j);
        let get =
            |label: &str| r.comparison.iter().find(|s| s.series.label == label).unwrap().results[0].run_times_s.clone();
        let (dist, min) = (get("distribution"), get("minimum 2 × 1"));
        for (d, m) in dist.iter().zip(&min) {
            assert!(m <= d, "{np}: min {m} > distribution {d}");
        }
    }
}

#[test]
fn sampled_times_match_the_histogram() {
    // Chi-square test of 40 000 draws against a three-bin histogram (weights 1 : 2 : 5), and
    // uniformity inside the widest bin. 1 % critical values: 2 dof 9.21, 3 dof 11.34 (the seed
    // is fixed, so the test is deterministic; a broken sampler gives values in the hundreds).
    let m = Machine::from_histograms("h", "t", "64 2 1 100 110 1\n64 2 1 120 130 2\n64 2 1 200 400 5\n").unwrap();
    let mut rm = RunMachine::new(&m, 2, 1, Mode::Distribution, Contention::Moment);
    let mut rng = super::rng::Rng::new(2024);
    let n = 40_000;
    let (mut counts, mut sub) = ([0f64; 3], [0f64; 4]);
    for _ in 0..n {
        let t = rm.sampler(&m, 64.0, 1).sample(rng.unit()) * 1e6;
        let bin = if t < 110.0 {
            0
        } else if t < 130.0 {
            1
        } else {
            2
        };
        assert!((100.0..110.0).contains(&t) || (120.0..130.0).contains(&t) || (200.0..400.0).contains(&t), "{t}");
        counts[bin] += 1.0;
        if bin == 2 {
            sub[(((t - 200.0) / 50.0) as usize).min(3)] += 1.0;
        }
    }
    let expected = [n as f64 / 8.0, n as f64 * 2.0 / 8.0, n as f64 * 5.0 / 8.0];
    let chi: f64 = counts.iter().zip(expected).map(|(o, e)| (o - e) * (o - e) / e).sum();
    assert!(chi < 9.21, "chi-square {chi}: {counts:?}");
    let e = counts[2] / 4.0;
    let chi: f64 = sub.iter().map(|o| (o - e) * (o - e) / e).sum();
    assert!(chi < 11.34, "chi-square inside the bin {chi}: {sub:?}");
    // The modes: the mean and the minimum of the histogram.
    let mut avg = RunMachine::new(&m, 2, 1, Mode::Average, Contention::Moment);
    let want = (105.0 + 2.0 * 125.0 + 5.0 * 300.0) / 8.0 * 1e-6;
    assert!((avg.sampler(&m, 64.0, 1).sample(0.3) - want).abs() < 1e-15);
    let mut min = RunMachine::new(&m, 2, 1, Mode::Minimum, Contention::Moment);
    assert!((min.sampler(&m, 64.0, 1).sample(0.9) - 100e-6).abs() < 1e-18);
}

#[test]
fn contention_of_the_moment_counts_messages_in_flight() {
    // 1 message in flight costs 1 ms (config 1 × 1), 2–4 cost 5 ms (config 4 × 1). Process 0
    // sends one message alone, then all four processes send at once.
    let m = Machine::from_histograms("h", "t", "0 1 1 1000 1000.001 1\n0 4 1 5000 5000.001 1\n").unwrap();
    let text = "Runon procnum == 0 { Message type = MPI_Send, to = 1 } { Runon procnum == 1 { Message type = MPI_Recv, from = 0 } }\n\
                Serial time = 10\nMessage type = MPI_Isend, to = (procnum + 1) % numprocs\nMessage type = MPI_Recv, from = (procnum + 3) % numprocs\nMessage type = MPI_Wait";
    let r = run(job(text, &[4], m.clone(), Mode::Minimum));
    // 1 ms, then 10 ms of work (processes 0 and 1 start it at 1 ms, the others at 0), then the
    // four sends: 2's at 10 ms alone (1 ms), 3's at 10 ms with 2's in flight (5 ms, arrives at
    // 15), 0's at 11 ms (2's has arrived; 2 in flight: 5 ms) and 1's (3 in flight: 5 ms), both
    // arriving at 16 ms. With no contention every message takes 1 ms: 12 ms.
    assert!(close(r.main.results[0].mean_s, 16e-3), "{}", r.main.results[0].mean_s);
    let mut j = job(text, &[4], m, Mode::Minimum);
    j.contention = Contention::None;
    assert!(close(run(j).main.results[0].mean_s, 12e-3));
}

#[test]
fn any_source_takes_the_first_arrival_not_the_first_departure() {
    // Process 1 sends at 0 on a slow path (size 1000: 100 ms); process 2 sends at 1 ms a small
    // message (size 0: 1 ms), arriving at 2 ms. Process 0 gets 2's first.
    let m = Machine::fitted(1e-3, 1e4).unwrap();
    let text = "Runon procnum == 0 {\n Message type = MPI_Recv, from = any\n Runon source == 2 { Serial time = 1000 }\n Message type = MPI_Recv, from = any\n}\n\
                Runon procnum == 1 { Message type = MPI_Send, size = 990, to = 0 }\n\
                Runon procnum == 2 { Serial time = 1\n Message type = MPI_Send, size = 0, to = 0 }";
    // 0 receives from 2 at 2 ms, works 1 s, then takes 1's message (arrived at 100 ms).
    let t = time(text, 3, m);
    assert!(close(t, 1.002), "{t}");
}

#[test]
fn examples_run_and_jacobi_speeds_up_then_saturates() {
    let mut j = job(JACOBI, &[2, 8, 32, 64], perseus(), Mode::Distribution);
    j.params = lang::parse_params("parameters", "iterations = 200").unwrap();
    j.compare = true;
    let r = run(j);
    let s: Vec<f64> = r.main.results.iter().map(|c| c.speedup).collect();
    assert!(s[0] > 1.2 && s[1] > s[0], "{s:?}");
    assert!(s.iter().zip([2.0, 8.0, 32.0, 64.0]).all(|(x, n)| x.is_finite() && *x < n), "{s:?}");
    // Figure 6: at 64 processes the ping-pong minimum predicts the most optimistic speed-up,
    // and the full distributions the least (contention and outliers slow the slowest).
    let at64 = |label: &str| r.comparison.iter().find(|x| x.series.label == label).unwrap().results[3].speedup;
    assert!(at64("minimum 2 × 1") > at64("average 2 × 1"));
    assert!(at64("average 2 × 1") > at64("distribution"), "{} {}", at64("average 2 × 1"), at64("distribution"));
    assert!(r.main.results[0].timeline.is_some());
    for text in [FFT, BAG_OF_TASKS] {
        let mut j = job(text, &[2, 4, 16], perseus(), Mode::Distribution);
        j.params = lang::parse_params("parameters", "transforms = 2\ntasks = 50").unwrap();
        j.params.retain(|(n, _)| text.contains(n.as_str()));
        let r = run(j);
        assert!(r.deadlock.is_none(), "{:?}", r.deadlock);
        for c in &r.main.results {
            assert!(c.mean_s > 0.0 && c.speedup.is_finite(), "{c:?}");
            assert_eq!(c.unreceived_per_run, 0.0);
        }
    }
}

#[test]
fn programs_of_the_seeds_annotated_c_match_the_native_jacobi() {
    // The seed's Figure 5 (abridged to its directives and some C), pasted as is.
    let c = "int i;\n// PEVPM Loop iterations = 1000\n// PEVPM {\nfor (i = 0; i < iterations; i++){\n\
// PEVPM Runon c1 = procnum%2 == 0\n// PEVPM &      c2 = procnum%2 != 0\n// PEVPM {\n    if (procnum%2 == 0){\n\
// PEVPM Runon c1 = procnum != 0\n// PEVPM {\n// PEVPM Message type = MPI_Send\n// PEVPM &      size = xsize*sizeof(float)\n\
// PEVPM &      from = procnum\n// PEVPM &      to = procnum-1\n        MPI_Send(grid[1], xsize, ... , procnum-1, ... );\n// PEVPM }\n\
// PEVPM Message type = MPI_Send\n// PEVPM &      size = xsize*sizeof(float)\n// PEVPM &      from = procnum\n// PEVPM &      to = procnum+1\n\
// PEVPM Message type = MPI_Recv\n// PEVPM &      size = xsize*sizeof(float)\n// PEVPM &      from = procnum+1\n// PEVPM &      to = procnum\n\
// PEVPM Runon c1 = procnum != 0\n// PEVPM {\n// PEVPM Message type = MPI_Recv\n// PEVPM &      size = xsize*sizeof(float)\n\
// PEVPM &      from = procnum-1\n// PEVPM &      to = procnum\n// PEVPM }\n    }\n// PEVPM }\n// PEVPM {\n  else{\n\
// PEVPM Runon c1 = procnum != numprocs-1\n// PEVPM {\n// PEVPM Message type = MPI_Recv\n// PEVPM &      size = xsize*sizeof(float)\n\
// PEVPM &      from = procnum+1\n// PEVPM &      to = procnum\n// PEVPM }\n// PEVPM Message type = MPI_Recv\n// PEVPM &      size = xsize*sizeof(float)\n\
// PEVPM &      from = procnum-1\n// PEVPM &      to = procnum\n// PEVPM Message type = MPI_Send\n// PEVPM &      size = xsize*sizeof(float)\n\
// PEVPM &      from = procnum\n// PEVPM &      to = procnum-1\n// PEVPM Runon c1 = procnum != numprocs-1\n// PEVPM {\n\
// PEVPM Message type = MPI_Send\n// PEVPM &      size = xsize*sizeof(float)\n// PEVPM &      from = procnum\n// PEVPM &      to = procnum+1\n\
// PEVPM }\n  }\n// PEVPM }\n// PEVPM Serial on perseus time = 3.24/numprocs\n  for(j = 1; j < ysize-1; j++){ }\n}\n// PEVPM }\n";
    let a = lang::parse(c).unwrap();
    assert!(a.from_annotated_c);
    let b = lang::parse(JACOBI).unwrap();
    let given = lang::parse_params("parameters", "xsize = 256").unwrap();
    for np in [2u32, 4, 6] {
        let pa = compile(&a, &parameters(&a, &given, np).unwrap(), np).unwrap();
        let pb = compile(&b, &parameters(&b, &given, np).unwrap(), np).unwrap();
        let strip = |ops: &[super::program::Op]| -> Vec<String> {
            ops.iter().map(|o| format!("{o:?}")).map(|s| s.split(", line").next().unwrap_or("").to_string()).collect()
        };
        for p in 0..np as usize {
            assert_eq!(strip(&pa.procs[p]), strip(&pb.procs[p]), "process {p} of {np}");
        }
    }
}

#[test]
fn the_report_does_not_depend_on_how_the_parts_are_run() {
    // 11 replications in 8 blocks of 1 or 2 per count; the Figure 6 series too, and two
    // process counts.
    let mut j = job(JACOBI, &[4, 6], perseus(), Mode::Distribution);
    j.params = lang::parse_params("parameters", "iterations = 30").unwrap();
    j.replications = 11;
    j.compare = true;
    let sim = Simulation::new(j).unwrap();
    // 8 blocks of replications for each of the two counts.
    assert_eq!(sim.parts(), 2 * PARTS);
    let one = sim.run_to_end().unwrap();
    assert_eq!(one.main.results[0].run_times_s.len(), 11);
    // Threads: `crate::parallel`'s tests.
    // As the page's workers do: worker w of 3 steps through its share of the parts; their
    // results pass as JSON (floats must come back to the same bits) and merge in any order.
    let mut partials = Vec::new();
    for share in sim.shares(3) {
        let sim = Simulation::new(sim.job().clone()).unwrap();
        let mut stepper = Stepper::for_parts(sim, share);
        while stepper.step(5_000).unwrap() != Progress::Done {}
        let text = serde_json::to_string(&stepper.take_partials()).unwrap();
        partials.extend(serde_json::from_str::<Vec<Partial>>(&text).unwrap());
    }
    partials.reverse();
    assert_eq!(sim.merge(partials), one);
}

#[test]
fn threads_take_the_parts_with_more_replications_first() {
    // 20 replications in 8 parts of 2 and 3: the four 3s go first, so two threads taking
    // parts as they free up get 10 replications each (in part order: 11 and 9).
    let mut j = job(JACOBI, &[4], perseus(), Mode::Distribution);
    j.replications = 20;
    let sim = Simulation::new(j).unwrap();
    let order = sim.longest_first();
    let sizes: Vec<usize> = order.iter().map(|&p| sim.part_range(p).1).collect();
    assert_eq!(sizes, vec![3, 3, 3, 3, 2, 2, 2, 2]);
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, (0..PARTS).collect::<Vec<_>>());
    // Two threads taking parts in that order as they free up get what `shares` gives two.
    let threads: Vec<usize> = sim.shares(2).iter().map(|s| s.iter().map(|&p| sim.part_range(p).1).sum()).collect();
    assert_eq!(threads, [10, 10]);
}

#[test]
fn page_workers_get_even_shares_of_the_replications() {
    // 20 replications in parts of 2 and 3: every part exactly once, and the replications
    // per worker as even as whole parts allow (3 workers: 6, 7, 7 — not 5, 7, 8).
    let mut j = job(JACOBI, &[4], perseus(), Mode::Distribution);
    j.replications = 20;
    let sim = Simulation::new(j).unwrap();
    for (k, want) in [(1, vec![20]), (2, vec![10, 10]), (3, vec![6, 7, 7]), (4, vec![5, 5, 5, 5])] {
        let shares = sim.shares(k);
        let reps: Vec<usize> = shares.iter().map(|s| s.iter().map(|&p| sim.part_range(p).1).sum()).collect();
        assert_eq!(reps, want, "{k} workers");
        let mut all: Vec<usize> = shares.concat();
        all.sort();
        assert_eq!(all, (0..PARTS).collect::<Vec<_>>(), "{k} workers");
    }
    // More workers than parts: the extra ones get none.
    let mut j = job(JACOBI, &[4], perseus(), Mode::Distribution);
    j.replications = 2;
    let sim = Simulation::new(j).unwrap();
    assert_eq!(sim.shares(4).iter().map(Vec::len).collect::<Vec<_>>(), vec![1, 1, 0, 0]);
}

#[test]
fn a_deadlock_ends_the_report_where_it_happened_in_every_part() {
    // 4 processes run; 3 deadlock (1 receives from 2, which receives from 1). With 5
    // replications in 5 parts, every part meets the deadlock; the counts before it report.
    let text = "Runon numprocs == 3 { Message type = MPI_Recv, from = (procnum + 1) % numprocs }\nSerial time = 1";
    let mut j = job(text, &[4, 3, 2], fixed(1e-3), Mode::Distribution);
    j.replications = 5;
    let sim = Simulation::new(j).unwrap();
    let r = sim.run_to_end().unwrap();
    assert_eq!(r.deadlock.as_ref().map(|d| d.numprocs), Some(3));
    let counts: Vec<u32> = r.main.results.iter().map(|c| c.numprocs).collect();
    assert_eq!(counts, vec![4]);
    assert_eq!(r.main.results[0].run_times_s.len(), 5);
}

#[test]
fn waking_after_the_computations_that_follow_changes_no_result() {
    // A run without a timeline does at once, after a blocking send or a wait, the constant
    // computations, loop ends and a blocking receive that follow; a run with one takes every op
    // as its own event. Both must agree to the bit, on every process, for skeletons with
    // blocking sends followed by work (Jacobi's odd processes), non-blocking ones and waits,
    // random and constant times, a reply that arrives before its receiver has finished the
    // work it did ahead (late), and a deadlock met ahead.
    let isend = "Loop iterations = 30 {\n Message type = MPI_Isend, size = 4096, to = (procnum + 1) % numprocs\n Message type = MPI_Irecv, size = 4096, from = (procnum + numprocs - 1) % numprocs\n Message type = MPI_Wait\n Serial time = 0.5\n Serial time = 0.25\n}";
    let late = "Loop iterations = 5 {\n Runon c1 = procnum == 0 {\n  Message type = MPI_Send, size = 1024, to = 1\n  Serial time = 10\n  Message type = MPI_Recv, from = 1\n } {\n  Message type = MPI_Recv, from = 0\n  Message type = MPI_Send, size = 1024, to = 0\n }\n Serial time = 1\n}";
    let stuck = "Message type = MPI_Send, size = 8, to = (procnum + 1) % numprocs\nSerial time = 1\nMessage type = MPI_Recv, from = (procnum + 1) % numprocs\nMessage type = MPI_Recv, from = (procnum + 1) % numprocs";
    // Process 0's receives find their messages queued when done ahead: one arrived before,
    // one (a megabyte) arrives after.
    let queued = "Loop iterations = 3 {\n Runon c1 = procnum == 0 {\n  Serial time = 1\n  Message type = MPI_Send, size = 64, to = 2\n  Message type = MPI_Recv, from = 1\n  Message type = MPI_Send, size = 64, to = 2\n  Message type = MPI_Recv, from = 1\n }\n Runon c1 = procnum == 1 {\n  Message type = MPI_Send, size = 100, to = 0\n  Message type = MPI_Send, size = 1000000, to = 0\n }\n Runon c1 = procnum == 2 {\n  Message type = MPI_Recv, from = 0\n  Message type = MPI_Recv, from = 0\n }\n}";
    for (text, np) in
        [(JACOBI, 6u32), (JACOBI, 16), (FFT, 8), (BAG_OF_TASKS, 5), (isend, 7), (late, 2), (queued, 3), (stuck, 3)]
    {
        let sk = lang::parse(text).unwrap();
        let given = lang::parse_params("parameters", "iterations = 40\ntransforms = 2").unwrap();
        let given: Vec<_> = given.into_iter().filter(|(n, _)| text.contains(n.as_str())).collect();
        let programs = compile(&sk, &parameters(&sk, &given, np).unwrap(), np).unwrap();
        let outcome = |timeline: bool| {
            let rm = RunMachine::new(&perseus(), np, 1, Mode::Distribution, Contention::Moment);
            let mut run = Run::new(&programs, rm, (5, &[np as u64, 0]), 10_000_000, timeline);
            let out = run.advance(&programs, &perseus(), u64::MAX).unwrap().unwrap();
            (out, run.steps())
        };
        let (with, steps_with) = outcome(true);
        let (without, steps_without) = outcome(false);
        assert_eq!(steps_with, steps_without, "{np} processes");
        match (with, without) {
            (
                RunOutcome::Finished { time_s: a, procs: pa, messages: ma, .. },
                RunOutcome::Finished { time_s: b, procs: pb, messages: mb, .. },
            ) => {
                assert!(text != stuck, "the stuck ring must deadlock");
                assert_eq!((a, &pa, ma), (b, &pb, mb), "{np} processes");
                if text == late {
                    // Process 0 waits only for its own work: the reply came in meanwhile.
                    let p0 = pa[0];
                    assert!(close(p0.computing_s, 0.055) && p0.waiting_s == 0.0, "{p0:?}");
                }
                if text == queued {
                    // A megabyte takes about 0.1 s at 100 Mbit/s: process 0 waits for it.
                    assert!(pa[0].waiting_s > 0.2, "{:?}", pa[0]);
                }
            }
            (RunOutcome::Deadlock(a), RunOutcome::Deadlock(b)) => {
                assert!(text == stuck, "{np} processes: no deadlock expected");
                assert_eq!(a.blocked.len(), 3);
                assert_eq!(a, b);
            }
            _ => panic!("{np} processes: one run deadlocked, the other not"),
        }
    }
}

#[test]
fn counts_past_the_kept_ops_compile_as_the_run_reaches_them_with_the_same_results() {
    // Kept: every count's programs; none kept: each part compiles each count as it gets there.
    // The report must be the same to the bit, deadlocks included (on threads: `crate::parallel`).
    let stuck = "Runon procnum == 0 { Message type = MPI_Recv, from = 1 }\nSerial time = 1";
    for (text, counts) in [(JACOBI, &[2u32, 4, 8][..]), (FFT, &[2, 4, 8]), (stuck, &[2, 4, 8])] {
        let mut j = job(text, counts, perseus(), Mode::Distribution);
        j.params = lang::parse_params("parameters", "iterations = 20").unwrap();
        j.replications = 5;
        j.compare = true;
        let kept = Simulation::new(j.clone()).unwrap();
        assert_eq!(kept.kept_ops(), kept.counts_ops(), "{text}");
        j.limits.kept_ops = 0;
        let lazy = Simulation::new(j).unwrap();
        assert_eq!(lazy.kept_ops(), 0);
        let want = kept.run_to_end().unwrap();
        assert_eq!(lazy.run_to_end().unwrap(), want, "{text}");
        let mut stepper = Stepper::new(lazy);
        while stepper.step(1000).unwrap() != Progress::Done {}
        assert_eq!(stepper.report(), want, "{text}");
    }
}

#[test]
fn a_job_of_many_large_counts_keeps_at_most_its_kept_ops() {
    // Counts of an all-to-all whose size is known only at run time: written out, 2 (p − 1) ops
    // a process, about 500,000 a count here (1.9 M near 1,000 processes, where 18 counts
    // compiled and kept at once took 1.15 GB). Under a budget of one count's ops, at most one
    // count's programs are kept. (One of a size known before the run is held as one op a
    // process.)
    let text = "Message type = MPI_Alltoall, size = 8 + 0 * uniform(0, 1)";
    let counts: Vec<u32> = (500..=505).collect();
    let mut j = job(text, &counts, perseus(), Mode::Minimum);
    j.replications = 1;
    j.limits.kept_ops = 600_000;
    // The check a page makes per keystroke compiles no count this large: within its budget.
    Simulation::check(&j).unwrap();
    let sim = Simulation::new(j.clone()).unwrap();
    assert!(sim.kept_ops() <= j.limits.kept_ops);
    assert!(sim.kept_ops() > 0 && sim.counts_ops() > 5 * sim.kept_ops());
    j.limits = Limits::default();
    // A budget that the first counts fill: an error in a later count is found by the run's
    // check (`new`), not by the keystroke's.
    j.numprocs = vec![2, 600];
    j.skeleton = lang::parse("Message type = MPI_Alltoall, size = 8 + 0 * uniform(0, 1)\nRunon procnum == 599 { Message type = MPI_Send, to = 600 }").unwrap();
    Simulation::check(&j).unwrap();
    let e = Simulation::new(j).err().unwrap();
    assert!(e.message.contains("600"), "{e}");
}

#[test]
fn an_all_to_all_held_as_one_op_runs_as_its_steps_written_out() {
    // A size known before the run: one op a process, run step by step by the engine. A size
    // known only at run time (a random term of weight 0, which draws from each process's own
    // stream, not the network's): the steps written out, as the compile always made them.
    // The same report to the bit, and the same work counted before the run; also in slices of
    // a few ops, which pause within the all-to-all.
    use super::program::Op;
    let known = "Message type = MPI_Alltoall, size = 1024\nSerial time = 1\nMessage type = MPI_Alltoall, size = 8";
    let drawn = "Message type = MPI_Alltoall, size = 1024 + 0 * uniform(0, 1)\nSerial time = 1\nMessage type = MPI_Alltoall, size = 8 + 0 * uniform(0, 1)";
    let counts = [1u32, 2, 3, 7, 40];
    let ops = |text: &str, np: u32| compile(&lang::parse(text).unwrap(), &[], np).unwrap();
    let held = ops(known, 7);
    assert_eq!(held.procs[3].iter().filter(|o| matches!(o, Op::Alltoall { .. })).count(), 2, "{:?}", held.procs[3]);
    let written = ops(drawn, 7);
    assert!(written.procs.iter().flatten().all(|o| !matches!(o, Op::Alltoall { .. })));
    // The same work; far fewer ops held (7 processes: 2 + 1 + 2 against 2 × 12 + 1 + 2).
    assert_eq!(held.estimated_steps, written.estimated_steps);
    assert_eq!((held.ops(), written.ops()), (7 * 5, 7 * 27));
    // Slices of a few ops once changed the answer: a process resumed after a pause released
    // the messages it had taken to the scoreboard early. Messages that take no time as well:
    // a process woken at the very moment of a pause must not go before the one paused.
    for machine in [perseus(), fixed(0.0)] {
        let mut a = job(known, &counts, machine, Mode::Distribution);
        a.compare = true;
        let mut b = a.clone();
        b.skeleton = lang::parse(drawn).unwrap();
        assert_eq!(Simulation::check(&a).unwrap(), Simulation::check(&b).unwrap());
        let want = run(b.clone());
        assert!(want.deadlock.is_none() && want.messages > 0);
        let mut stepper = Stepper::new(Simulation::new(b).unwrap());
        while stepper.step(5).unwrap() != Progress::Done {}
        assert_eq!(stepper.report(), want, "written out, in slices");
        assert_eq!(run(a.clone()), want);
        let mut stepper = Stepper::new(Simulation::new(a).unwrap());
        while stepper.step(5).unwrap() != Progress::Done {}
        assert_eq!(stepper.report(), want);
    }
}

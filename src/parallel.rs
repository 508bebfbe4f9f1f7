//! Native threads for the simulator (the `scalewise` command and the benchmarks). The model
//! runs no threads: it offers a job's fixed parts ([`Simulation::run_part`]) and their merge
//! ([`Simulation::merge`]); here threads take the parts as they free up, longest first, as the
//! page's Web Workers take their shares (`ui::sim_worker`). Parts merge in part order, so the
//! report is the same to the bit however many threads ran them.

use crate::model::pevpm::engine::RunError;
use crate::model::pevpm::job::{Partial, Report, Simulation};
use crate::model::InputError;

/// Runs the job's parts on as many threads as the machine has.
pub fn run(sim: &Simulation) -> Result<Report, RunError> {
    run_on(sim, std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Runs the job's parts on `threads` threads (one: on this thread).
pub fn run_on(sim: &Simulation, threads: usize) -> Result<Report, RunError> {
    let parts = sim.parts();
    if threads <= 1 || parts <= 1 {
        return sim.run_to_end();
    }
    let order = sim.longest_first();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(&j) = order.get(i) else { return mine };
            mine.push((j, sim.run_part(j)));
        }
    };
    let mut done: Vec<(usize, Result<Partial, RunError>)> = Vec::with_capacity(parts);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.min(parts)).map(|_| s.spawn(work)).collect();
        for h in handles {
            match h.join() {
                Ok(mine) => done.extend(mine),
                Err(_) => done.push((0, Err(InputError::new("skeleton", "a simulation thread stopped unexpectedly")))),
            }
        }
    });
    // The first error in part order, whatever finished first.
    done.sort_by_key(|d| d.0);
    let partials = done.into_iter().map(|(_, r)| r).collect::<Result<Vec<_>, _>>()?;
    Ok(sim.merge(partials))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::pevpm::job::{Job, Limits};
    use crate::model::pevpm::examples::{FFT, JACOBI};
    use crate::model::pevpm::lang;
    use crate::model::pevpm::machine::{perseus, Contention, Mode};

    fn job(text: &str, numprocs: &[u32], replications: u32) -> Job {
        Job {
            skeleton: lang::parse(text).unwrap(),
            params: lang::parse_params("parameters", "iterations = 30").unwrap(),
            numprocs: numprocs.to_vec(),
            procs_per_node: 1,
            machine: perseus(),
            mode: Mode::Distribution,
            contention: Contention::Moment,
            replications,
            seed: 1,
            compare: true,
            sequential_s: None,
            limits: Limits::default(),
        }
    }

    #[test]
    fn the_report_does_not_depend_on_how_many_threads_run_the_parts() {
        // 11 replications in 8 parts of 1 or 2; the Figure 6 series too; a deadlock at 3
        // processes ends the report there in every part; programs recompiled per part.
        let stuck = "Runon numprocs == 3 { Message type = MPI_Recv, from = (procnum + 1) % numprocs }\nSerial time = 1";
        let mut lazy = job(FFT, &[2, 4], 5);
        lazy.limits.kept_ops = 0;
        for j in [job(JACOBI, &[4, 6], 11), job(stuck, &[4, 3, 2], 5), lazy] {
            let sim = Simulation::new(j).unwrap();
            let one = sim.run_to_end().unwrap();
            for threads in [1, 2, 3, 8] {
                assert_eq!(run_on(&sim, threads).unwrap(), one, "{threads} threads");
            }
            assert_eq!(run(&sim).unwrap(), one);
        }
    }
}

//! Native threads for the `scalewise` command and the benchmarks. The model runs no threads:
//! it offers independent pieces of work — a simulation's fixed parts ([`Simulation::run_part`])
//! and their merge ([`Simulation::merge`]), the data sets of a batch, the regions of an
//! experiment — and [`map`] runs them on every core, threads taking the next piece as they free
//! up, as the pages' Web Workers take their shares (`ui::sim_worker`). Answers come back in the
//! pieces' order, so output is the same to the bit however many threads ran it.

use crate::model::pevpm::engine::RunError;
use crate::model::pevpm::job::{Report, Simulation};
use crate::model::InputError;

/// How many threads the machine runs at once.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `f` applied to every item, on up to `threads` threads (one: on this thread), in the items'
/// order whatever finished first. Items are taken one at a time, in `order` when given (the
/// longest first, say), so a slow item does not hold up a whole share.
pub fn map_on<T: Sync, R: Send>(items: &[T], order: Option<&[usize]>, threads: usize, f: &(dyn Fn(&T) -> R + Sync)) -> Vec<R> {
    if threads <= 1 || items.len() <= 1 {
        return items.iter().map(f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let j = match order {
                Some(o) => match o.get(i) {
                    Some(&j) => j,
                    None => return mine,
                },
                None if i < items.len() => i,
                None => return mine,
            };
            if let Some(item) = items.get(j) {
                mine.push((j, f(item)));
            }
        }
    };
    let mut done: Vec<(usize, R)> = Vec::with_capacity(items.len());
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.min(items.len())).map(|_| s.spawn(work)).collect();
        for h in handles {
            // A thread only stops early by panicking, which the release build aborts on.
            if let Ok(mine) = h.join() {
                done.extend(mine);
            }
        }
    });
    done.sort_by_key(|d| d.0);
    done.into_iter().map(|(_, r)| r).collect()
}

/// [`map_on`] with as many threads as the machine has, in the items' order.
pub fn map<T: Sync, R: Send>(items: &[T], f: &(dyn Fn(&T) -> R + Sync)) -> Vec<R> {
    map_on(items, None, cores(), f)
}

/// Runs the job's parts on as many threads as the machine has.
pub fn run(sim: &Simulation) -> Result<Report, RunError> {
    run_on(sim, cores())
}

/// Runs the job's parts on `threads` threads (one: on this thread).
pub fn run_on(sim: &Simulation, threads: usize) -> Result<Report, RunError> {
    let parts = sim.parts();
    if threads <= 1 || parts <= 1 {
        return sim.run_to_end();
    }
    let order = sim.longest_first();
    let ids: Vec<usize> = (0..parts).collect();
    let done = map_on(&ids, Some(&order), threads, &|&j| sim.run_part(j));
    if done.len() < parts {
        return Err(InputError::new("skeleton", "a simulation thread stopped unexpectedly"));
    }
    // The first error in part order, whatever finished first.
    let partials = done.into_iter().collect::<Result<Vec<_>, _>>()?;
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

//! Native threads for the `scalewise` command and the benchmarks. The model runs no threads:
//! it offers independent pieces of work — a simulation's fixed parts ([`Simulation::run_part`])
//! and their merge ([`Simulation::merge`]), the data sets of a batch, the regions of an
//! experiment — and [`map`] runs them on every core, threads taking the next piece as they free
//! up, as the pages' Web Workers take their shares (`ui::simulate_worker`). Answers come back in the
//! pieces' order, so output is the same to the bit however many threads ran it.

use crate::model::simulate::engine::RunError;
use crate::model::simulate::job::{Report, Simulation};
use crate::model::InputError;

/// How many threads the machine runs at once.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `f` applied to every item, on up to `threads` threads (one: on this thread), in the items'
/// order whatever finished first. Items are taken one at a time, in `order` when given (the
/// longest first, say), so a slow item does not hold up a whole share. None if a thread
/// stopped before its items were done (a panic; the release build aborts instead).
pub fn map_on<T: Sync, R: Send>(
    items: &[T],
    order: Option<&[usize]>,
    threads: usize,
    f: &(dyn Fn(&T) -> R + Sync),
) -> Option<Vec<R>> {
    if threads <= 1 || items.len() <= 1 {
        return Some(items.iter().map(f).collect());
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let j = match order {
                Some(o) => o.get(i).copied(),
                None => Some(i),
            };
            match j.and_then(|j| Some((j, items.get(j)?))) {
                Some((j, item)) => mine.push((j, f(item))),
                None => return mine,
            }
        }
    };
    let mut done: Vec<(usize, R)> = Vec::with_capacity(items.len());
    let mut stopped = false;
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.min(items.len())).map(|_| s.spawn(work)).collect();
        for h in handles {
            match h.join() {
                Ok(mine) => done.extend(mine),
                Err(_) => stopped = true,
            }
        }
    });
    if stopped {
        return None;
    }
    done.sort_by_key(|d| d.0);
    Some(done.into_iter().map(|(_, r)| r).collect())
}

/// `f` applied to every item on up to `threads` threads, this one among them, each answer
/// handed to `sink` in the items' order as soon as it and every answer before it are done:
/// only answers waiting for an earlier one are held, however many items there are. `first`
/// runs on this thread before it takes any item, while the others already answer, and
/// nothing reaches `sink` before it is done. An error of `first` or of `sink` stops the work
/// (the other threads finish the item they hold) and is returned; Ok(false) if a thread
/// stopped before its items were done (a panic; the release build aborts instead).
pub fn stream<T: Sync, R: Send, E>(
    items: &[T],
    threads: usize,
    first: impl FnOnce() -> Result<(), E>,
    f: &(dyn Fn(&T) -> R + Sync),
    sink: &mut dyn FnMut(R) -> Result<(), E>,
) -> Result<bool, E> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
    first()?;
    if threads <= 1 || items.len() <= 1 {
        return items.iter().try_for_each(|x| sink(f(x))).map(|()| true);
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let take = || {
        if stop.load(Relaxed) {
            None
        } else {
            Some(next.fetch_add(1, Relaxed)).and_then(|i| Some((i, items.get(i)?)))
        }
    };
    let (tx, rx) = std::sync::mpsc::channel::<(usize, R)>();
    std::thread::scope(|s| {
        let others: Vec<_> = (1..threads.min(items.len()))
            .map(|_| {
                let tx = tx.clone();
                let take = &take;
                s.spawn(move || {
                    while let Some((i, x)) = take() {
                        if tx.send((i, f(x))).is_err() {
                            return;
                        }
                    }
                })
            })
            .collect();
        // Answers done out of turn, from the next one `sink` takes on.
        let mut waiting: std::collections::VecDeque<Option<R>> = std::collections::VecDeque::new();
        let mut handed = 0;
        let mut place = |i: usize, r: R, waiting: &mut std::collections::VecDeque<Option<R>>| -> Result<(), E> {
            let k = i - handed;
            if waiting.len() <= k {
                waiting.resize_with(k + 1, || None);
            }
            waiting[k] = Some(r);
            while let Some(Some(_)) = waiting.front() {
                if let Some(Some(r)) = waiting.pop_front() {
                    handed += 1;
                    sink(r)?;
                }
            }
            Ok(())
        };
        let mut stopped = false;
        let mine = || -> Result<(), E> {
            loop {
                while let Ok((i, r)) = rx.try_recv() {
                    place(i, r, &mut waiting)?;
                }
                let Some((i, x)) = take() else { break };
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(x))) {
                    Ok(r) => place(i, r, &mut waiting)?,
                    Err(_) => {
                        stopped = true;
                        stop.store(true, Relaxed);
                        break;
                    }
                }
            }
            // This thread's sender goes, so that the channel ends with the others' last answer.
            drop(tx);
            while let Ok((i, r)) = rx.recv() {
                place(i, r, &mut waiting)?;
            }
            Ok(())
        };
        let done = mine();
        if done.is_err() {
            stop.store(true, Relaxed);
        }
        // Every thread joined (one that panicked and is not joined would panic the scope).
        let joined = others.into_iter().map(|h| h.join().is_ok()).filter(|ok| !ok).count() == 0;
        done.map(|()| joined && !stopped && handed == items.len())
    })
}

/// [`map_on`] with as many threads as the machine has, in the items' order.
pub fn map<T: Sync, R: Send>(items: &[T], f: &(dyn Fn(&T) -> R + Sync)) -> Option<Vec<R>> {
    map_on(items, None, cores(), f)
}

/// What the command says when [`map`] answers None.
pub const STOPPED: &str = "a thread stopped unexpectedly";

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
    let Some(done) = map_on(&ids, Some(&order), threads, &|&j| sim.run_part(j)) else {
        return Err(InputError::new("skeleton", "a simulation thread stopped unexpectedly"));
    };
    // The first error in part order, whatever finished first.
    let partials = done.into_iter().collect::<Result<Vec<_>, _>>()?;
    Ok(sim.merge(partials))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::simulate::examples::{FFT, JACOBI};
    use crate::model::simulate::job::{Job, Limits};
    use crate::model::simulate::lang;
    use crate::model::simulate::machine::{perseus, Contention, Mode};

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
        // The all-to-all shape, smaller: one replication of many counts, so the
        // counts are what the threads share; and a deadlock at a middle count of one
        // replication, where later counts run in other parts and are left out.
        let alltoall = job("Message type = MPI_Alltoall, size = 8", &(40..=57).collect::<Vec<_>>(), 1);
        let stuck_middle = "Message type = MPI_Alltoall, size = 8\nRunon c = numprocs == 45 && procnum == 3 { Message type = MPI_Recv, from = 5 }";
        let mut middle = job(stuck_middle, &(40..=50).collect::<Vec<_>>(), 3);
        middle.limits.kept_ops = 5_000;
        for j in [job(JACOBI, &[4, 6], 11), job(stuck, &[4, 3, 2], 5), lazy, alltoall, middle] {
            let sim = Simulation::new(j).unwrap();
            let one = sim.run_to_end().unwrap();
            assert!(one.steps > 0);
            for threads in [1, 2, 3, 8] {
                assert_eq!(run_on(&sim, threads).unwrap(), one, "{threads} threads");
            }
            assert_eq!(run(&sim).unwrap(), one);
        }
    }

    #[test]
    fn stream_hands_answers_in_order_stops_on_an_error_and_reports_a_thread_that_stopped() {
        let items: Vec<u64> = (0..300).collect();
        let want: Vec<u64> = items.iter().map(|x| x * x).collect();
        for threads in [1, 2, 5] {
            // Slow items early, so that later ones finish first and wait their turn.
            let slow = |&x: &u64| {
                if x % 50 == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                x * x
            };
            let mut got = Vec::new();
            let whole = stream(&items, threads, || Ok::<(), String>(()), &slow, &mut |r| {
                got.push(r);
                Ok(())
            });
            assert_eq!(whole, Ok(true), "{threads} threads");
            assert_eq!(got, want, "{threads} threads");
            // An error of `first`: nothing handed on.
            let mut handed = 0;
            let r = stream(&items, threads, || Err("first".to_string()), &slow, &mut |_| {
                handed += 1;
                Ok(())
            });
            assert_eq!((r, handed), (Err("first".to_string()), 0), "{threads} threads");
            // An error of the sink at the 10th answer ends the work there.
            let mut handed = 0;
            let r = stream(&items, threads, || Ok(()), &slow, &mut |x| {
                handed += 1;
                if x == 81 {
                    Err(format!("sink at {x}"))
                } else {
                    Ok(())
                }
            });
            assert_eq!((r, handed), (Err("sink at 81".to_string()), 10), "{threads} threads");
        }
        // A panic on one item (on this thread or another) must not pass for a shorter answer.
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        for threads in [2, 3] {
            let mut got = 0;
            let r = stream(
                &items,
                threads,
                || Ok::<(), ()>(()),
                &|&x| if x == 150 { panic!("item {x}") } else { x },
                &mut |_| {
                    got += 1;
                    Ok(())
                },
            );
            assert_eq!(r, Ok(false), "{threads} threads");
            assert!(got <= 150);
        }
        std::panic::set_hook(quiet);
    }

    #[test]
    fn map_keeps_the_items_order_and_reports_a_thread_that_stopped() {
        let items: Vec<u64> = (0..200).collect();
        let order: Vec<usize> = (0..200).rev().collect();
        let want: Vec<u64> = items.iter().map(|x| x * x).collect();
        for threads in [1, 2, 5] {
            assert_eq!(map_on(&items, None, threads, &|x| x * x).as_ref(), Some(&want), "{threads} threads");
            assert_eq!(
                map_on(&items, Some(&order), threads, &|x| x * x).as_ref(),
                Some(&want),
                "{threads} threads, reversed"
            );
        }
        // A panic on one item must not pass for a shorter answer.
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let stopped = map_on(&items, None, 3, &|&x| if x == 150 { panic!("item {x}") } else { x });
        std::panic::set_hook(quiet);
        assert!(stopped.is_none());
    }
}

//! The virtual parallel machine: a discrete-event simulation of every process of a program
//! skeleton, in virtual time (seed 001, section 5; spec "The virtual machine").
//!
//! # Semantics
//!
//! Events are taken in order of virtual time (ties: lower process first), so the contention a
//! message meets is the traffic of that moment. A process runs its ops until one takes time or
//! waits; then it is scheduled again at the time it can go on.
//!
//! - `Serial`: the process computes for the given time.
//! - A send leaves at the sender's current time. Its transfer time T is drawn from the machine
//!   for its size and the contention level when it leaves: the number of messages on the
//!   seed's contention scoreboard, itself included. As in the seed, a message stays on the
//!   scoreboard from its departure until its receiver has taken it (a blocking receive that
//!   completes, an any-source receive, a matched `MPI_Irecv` once its process goes on). It
//!   arrives at departure + T — never before an earlier message on the same (sender,
//!   receiver) channel (MPI's non-overtaking rule). A blocking send (`MPI_Send`) holds the sender until the message has
//!   arrived (time *sending*); it does not wait for the receive to be posted (MPICH's eager
//!   protocol), so sends never deadlock. `MPI_Isend` goes on at once; `MPI_Wait` waits for it.
//! - A receive matches the first message from its source in sending order (tags are carried,
//!   not matched). A blocking receive waits until that message has arrived (time *waiting*).
//!   `from = any` takes the message that arrives first, whatever its source, and sets
//!   `source` and `tag`. `MPI_Irecv` posts a receive; `MPI_Wait` waits until every posted
//!   receive has been matched and arrived and every `MPI_Isend` has arrived.
//! - A process ends at the end of its program; the run time is the last process's end.
//! - When no process can go on and some have not ended, the run is deadlocked: each blocked
//!   process and what it waits for is reported, as a result.
//!
//! This is the paper's sweep/match algorithm in event order: a message's arrival time is
//! fixed when it leaves (from the contention scoreboard of that moment), and matching
//! happens when the receiver asks for it.
//!
//! # Reproducibility and bounds
//!
//! Each replication of each process count draws message times from its own xoshiro256**
//! stream, and each process its random computation times from its own, all derived from the
//! seed, the process count and the replication — so a result does not depend on the other
//! process counts in the list, and the three modes share their computation times. A run stops
//! with an error after `max_steps_per_run` ops (a loop that would run for hours). Memory does
//! not grow with iterations: only per-process state, messages in flight and, when asked for,
//! a bounded timeline are kept.

use super::machine::{Machine, RunMachine};
use super::mailbox::{Channels, PeerList};
use super::program::{CExpr, Costs, Env, Op, Programs, SendExprs};
use super::rng::{derive, Rng};
use crate::model::InputError;

/// Most timeline entries kept for one replication.
pub const MAX_TIMELINE: usize = 20_000;
/// Largest process count whose first replication gets a timeline.
pub const TIMELINE_MAX_PROCS: u32 = 32;

/// What one process did in one replication, seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct ProcTimes {
    pub computing_s: f64,
    pub sending_s: f64,
    pub waiting_s: f64,
    pub end_s: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activity {
    Computing,
    Sending,
    Waiting,
}

/// A bounded record of one replication, for a chart.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Timeline {
    /// (process, activity, start s, end s).
    pub segments: Vec<(u32, Activity, f64, f64)>,
    /// (from, to, departure s, arrival s).
    pub messages: Vec<(u32, u32, f64, f64)>,
    /// Entries were dropped after [`MAX_TIMELINE`].
    pub truncated: bool,
}

/// One blocked process of a deadlocked run.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Blocked {
    pub proc: u32,
    pub waiting_for: String,
    /// Line of the directive it is blocked in.
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Deadlock {
    pub numprocs: u32,
    pub time_s: f64,
    pub blocked: Vec<Blocked>,
}

/// The outcome of one replication.
#[derive(Debug, Clone, PartialEq)]
pub enum RunOutcome {
    Finished { time_s: f64, procs: Vec<ProcTimes>, messages: u64, unreceived: u64, timeline: Option<Timeline> },
    Deadlock(Deadlock),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    Ready,
    Recv(u32),
    RecvAny,
    Wait,
    Done,
}

/// A message in its receiver's queue (its sender is its peer there).
#[derive(Debug, Clone, Copy)]
struct Msg {
    arrival: f64,
    tag: f64,
}

struct Proc {
    pc: u32,
    /// The next step of the [`Op::Alltoall`] at `pc` (0 when not within one).
    sub: u32,
    clock: f64,
    state: State,
    block_start: f64,
    block_line: u32,
    /// Time of this process's pending wake-up (its key is in [`Events`]).
    wake: f64,
    /// Messages taken that leave the contention scoreboard when the process next goes on.
    release: u64,
    /// Earliest arrival an any-source receive is waiting for.
    any_timer: f64,
    vars: Vec<f64>,
    source: f64,
    tag: f64,
    /// Sources of posted, unmatched non-blocking receives, in posting order.
    posted: PeerList<()>,
    /// Latest completion of outstanding non-blocking operations.
    req_done: f64,
    /// Messages addressed here and not yet matched (in flight or arrived).
    queue: PeerList<Msg>,
    /// Last arrival per receiver this process sent to.
    sent: Channels,
    rng: Rng,
    times: ProcTimes,
}

/// What the processes of a run share: the pending wake-ups, the network and the records. Kept
/// apart from the processes so that the running one is borrowed once, not looked up per use.
struct Net {
    machine: RunMachine,
    events: Events,
    /// Messages sent and not yet taken by their receiver (the seed's contention scoreboard).
    scoreboard: u64,
    rng: Rng,
    messages: u64,
    timeline: Option<Timeline>,
}

/// One replication in progress; `advance` runs it in slices.
pub struct Run {
    procs: Vec<Proc>,
    net: Net,
    /// Steps charged: one an op, and what [`Costs`] adds (the limits count these).
    steps: u64,
    /// What [`Costs`] added to `steps` (the ops run are the rest).
    extra: u64,
    costs: Costs,
    max_steps: u64,
    /// The process that was running when [`Run::advance`] last paused.
    resume: Option<usize>,
}

/// A run's steps and the part of them [`Costs`] added, and its costs: what a process that
/// runs ahead ([`runs_ahead`]) charges.
type Charged<'a> = (&'a mut u64, &'a mut u64, &'a Costs);

/// Why a run stopped early: bad values found while running, or too many steps.
pub type RunError = InputError;

/// An event's place in the queue: the time's bits (monotone for times ≥ 0) with the lowest
/// ones (`mask`: 10 bits up to 1,024 processes, else as many as the count needs, at most 14)
/// replaced by the process number, so events within 2^-42 of each other (relatively; 2^-38 at
/// 16,384 processes) count as simultaneous and go in process order. The exact time is kept in
/// the process. Runs of up to 1,024 processes order their events as they always have.
#[inline(always)]
fn key(t: f64, p: u32, mask: u64) -> u64 {
    (t.to_bits() & !mask) | p as u64
}

fn line_error(line: u32, msg: String) -> InputError {
    InputError::new(super::lang::FIELD, msg).at(line as usize, None)
}

impl Run {
    pub fn new(programs: &Programs, machine: RunMachine, seeds: (u64, &[u64]), max_steps: u64, timeline: bool) -> Self {
        let (seed, parts) = seeds;
        let procs = (0..programs.numprocs)
            .map(|p| {
                let mut path = parts.to_vec();
                path.push(1 + p as u64);
                Proc {
                    pc: 0,
                    sub: 0,
                    clock: 0.0,
                    state: State::Ready,
                    block_start: 0.0,
                    block_line: 0,
                    wake: 0.0,
                    release: 0,
                    any_timer: f64::INFINITY,
                    vars: vec![0.0; programs.slots],
                    source: -1.0,
                    tag: 0.0,
                    posted: PeerList::new(programs.numprocs),
                    req_done: 0.0,
                    queue: PeerList::new(programs.numprocs),
                    sent: Channels::new(programs.numprocs),
                    rng: Rng::new(derive(seed, &path)),
                    times: ProcTimes::default(),
                }
            })
            .collect();
        let mut events = Events::new(programs.numprocs);
        for p in 0..programs.numprocs {
            events.set(p as usize, key(0.0, p, events.mask));
        }
        let net = Net {
            machine,
            events,
            scoreboard: 0,
            rng: Rng::new(derive(seed, parts)),
            messages: 0,
            timeline: timeline.then(Timeline::default),
        };
        let costs = Costs::of(programs.numprocs);
        let start = u64::from(programs.numprocs) * costs.process;
        Run { procs, net, steps: start, extra: start, costs, max_steps, resume: None }
    }

    /// Runs until `budget` more ops have executed (returns `None`) or the run ends.
    /// `programs` and `machine` must be the ones the run was made for.
    pub fn advance(
        &mut self,
        programs: &Programs,
        machine: &Machine,
        budget: u64,
    ) -> Result<Option<RunOutcome>, RunError> {
        let pause_at = self.steps.saturating_add(budget);
        // The timeline's bookkeeping is compiled out of the run without one.
        let ended = if self.net.timeline.is_some() {
            self.run_events::<true>(programs, machine, pause_at)?
        } else {
            self.run_events::<false>(programs, machine, pause_at)?
        };
        Ok(ended.then(|| self.outcome(programs.numprocs)))
    }

    /// Takes events in order: the process at the root of the tree runs its ops until it
    /// waits or ends, then the next. Returns whether the run has ended (nothing pending), or
    /// `false` when paused after `pause_at` steps (the running process scheduled again).
    fn run_events<const TL: bool>(
        &mut self,
        programs: &Programs,
        machine: &Machine,
        pause_at: u64,
    ) -> Result<bool, RunError> {
        let numprocs = programs.numprocs;
        // One compare per op for both the pause and the runaway bound; pausing wins a tie.
        let limit = pause_at.min(self.max_steps);
        let Run { procs, net, steps, extra, costs, max_steps, resume } = self;
        let costs = *costs;
        // The least key: read here, then carried from each walk of the tree that ends a slice.
        let mut first = net.events.first();
        'pop: loop {
            // A process paused in its slice goes on where it stopped, as if no pause had
            // happened (before any other, whatever the tree holds now); else the next event.
            let (p, paused) = match resume.take() {
                Some(p) => (p, true),
                None => ((first & net.events.mask) as usize, false),
            };
            let Some(mut pr) = procs.get_mut(p).filter(|_| paused || first != u64::MAX) else { return Ok(true) };
            let Some(ops) = programs.procs.get(p) else { return Ok(true) };
            // The process keeps its key in the tree while it runs (the least of all); every
            // way out of its slice replaces it: one walk up the tree per slice.
            if !paused {
                let t = pr.wake;
                if pr.state == State::RecvAny {
                    net.take_any(pr, p, t);
                }
                pr.clock = t;
                net.release(pr);
            }
            loop {
                if *steps >= limit {
                    if *steps >= pause_at {
                        // Its key stays in the tree, as while it runs.
                        *resume = Some(p);
                        return Ok(false);
                    }
                    return Err(InputError::new(
                        super::lang::FIELD,
                        format!("a run of {numprocs} processes took more than {max_steps} steps; lower the loop counts (or raise the limit)"),
                    ));
                }
                *steps += 1;
                let Some(op) = ops.get(pr.pc as usize) else {
                    pr.state = State::Done;
                    pr.times.end_s = pr.clock;
                    first = net.events.set(p, u64::MAX);
                    continue 'pop;
                };
                pr.pc += 1;
                // An all-to-all runs its steps one at a time: the process stays on the op until
                // its last step (a pause keeps the step reached).
                let step;
                let op = match op {
                    &Op::Alltoall { bytes, line } => {
                        step = pr.alltoall_step(p, numprocs, bytes, line);
                        &step
                    }
                    op => op,
                };
                // Expressions known before the run were folded to constants and checked then; only
                // the others are evaluated and checked here.
                match op {
                    Op::Compute { time, line } => {
                        *steps += costs.compute;
                        *extra += costs.compute;
                        let d = match time {
                            CExpr::Num(d) => *d,
                            e => {
                                *steps += costs.eval;
                                *extra += costs.eval;
                                pr.serial_time(e, p, *line)?
                            }
                        };
                        if let Some(next) = net.compute::<TL>(pr, p, d) {
                            first = next;
                            continue 'pop;
                        }
                    }
                    Op::Loop { count, slot, end, line } => {
                        let n = pr.iterations(count, p, *line)?;
                        pr.enter_loop(n, *slot, *end);
                    }
                    Op::Next { slot, body } => {
                        let s = *slot as usize;
                        if let Some([c, k]) = pr.vars.get_mut(s..s + 2) {
                            *c += 1.0;
                            if *c < *k {
                                pr.pc = *body;
                            }
                        }
                    }
                    Op::Branch { cond, target } => {
                        if cond.eval(&Env { vars: &pr.vars, source: pr.source, tag: pr.tag }, &mut pr.rng) == 0.0 {
                            pr.pc = *target;
                        }
                    }
                    Op::Jump { target } => pr.pc = *target,
                    // Made into its steps above.
                    Op::Alltoall { .. } => {}
                    op @ (Op::SendTo { .. } | Op::Send { .. }) => {
                        *steps += costs.send;
                        *extra += costs.send;
                        let (dst, bytes, tag, blocking) = match op {
                            // Checked when the program was compiled.
                            Op::SendTo { dst, bytes, tag, blocking, .. } => (*dst as usize, *bytes, *tag, blocking),
                            Op::Send { exprs, blocking, line } => {
                                let (dst, bytes, tag) = pr.send_of(exprs, p, numprocs, *line)?;
                                (dst, bytes, tag, blocking)
                            }
                            _ => continue,
                        };
                        let now = pr.clock;
                        let arrival = net.depart::<TL>(machine, pr, p, dst, bytes, now);
                        let Some(d) = procs.get_mut(dst) else { return Ok(true) };
                        net.deliver::<TL>(d, dst, p as u32, arrival, tag);
                        let Some(back) = procs.get_mut(p) else { return Ok(true) };
                        pr = back;
                        if *blocking {
                            pr.times.sending_s += arrival - now;
                            pr.clock = arrival;
                            net.record::<TL>(p, Activity::Sending, now, arrival);
                            if let Some(next) = net.wait_until::<TL>(pr, p, ops, arrival, (steps, extra, &costs), limit)
                            {
                                first = next;
                                continue 'pop;
                            }
                        } else {
                            pr.req_done = pr.req_done.max(arrival);
                        }
                    }
                    op @ (Op::RecvFrom { .. } | Op::Recv { .. }) => {
                        *steps += costs.recv;
                        *extra += costs.recv;
                        let (src, blocking, line) = match op {
                            // Checked when the program was compiled.
                            Op::RecvFrom { src, blocking, line } => (*src, *blocking, *line),
                            Op::Recv { from: Some(from), blocking, line } => {
                                (pr.source_of(from, p, numprocs, *line)?, *blocking, *line)
                            }
                            // Any source: blocking only.
                            Op::Recv { from: None, line, .. } => {
                                // Its scans of the queue (here, and when it wakes).
                                let scans = pr.queue.len() as u64 / 2;
                                *steps += scans;
                                *extra += scans;
                                match net.receive_any(pr, p, *line) {
                                    Some(next) => {
                                        first = next;
                                        continue 'pop;
                                    }
                                    None => continue,
                                }
                            }
                            _ => continue,
                        };
                        if let Some(next) = net.receive::<TL>(pr, p, src, blocking, line) {
                            first = next;
                            continue 'pop;
                        }
                    }
                    Op::Wait { line } => {
                        *steps += costs.wait;
                        *extra += costs.wait;
                        if let Some(next) = net.wait::<TL>(pr, p, ops, *line, (steps, extra, &costs), limit) {
                            first = next;
                            continue 'pop;
                        }
                    }
                }
            }
        }
    }

    fn outcome(&mut self, numprocs: u32) -> RunOutcome {
        let time_s = self.procs.iter().map(|p| p.clock).fold(0.0, f64::max);
        let blocked: Vec<Blocked> = self
            .procs
            .iter()
            .enumerate()
            .filter(|(_, p)| p.state != State::Done)
            .map(|(i, p)| {
                let waiting_for = match p.state {
                    State::Recv(s) => format!("a message from process {s} (MPI_Recv)"),
                    State::RecvAny => "a message from any process (MPI_Recv from = any)".to_string(),
                    _ => {
                        let list: Vec<String> = p.posted.iter().map(|(s, _)| s.to_string()).collect();
                        format!(
                            "messages from process{} {} (MPI_Wait on MPI_Irecv)",
                            if list.len() == 1 { "" } else { "es" },
                            list.join(", ")
                        )
                    }
                };
                Blocked { proc: i as u32, waiting_for, line: p.block_line }
            })
            .collect();
        if !blocked.is_empty() {
            return RunOutcome::Deadlock(Deadlock { numprocs, time_s, blocked });
        }
        RunOutcome::Finished {
            time_s,
            procs: self.procs.iter().map(|p| p.times).collect(),
            messages: self.net.messages,
            unreceived: self.procs.iter().map(|p| p.queue.len() as u64).sum(),
            timeline: self.net.timeline.take(),
        }
    }

    /// Steps charged so far (what the limits count: [`Costs`]).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Ops run so far (the answer's steps).
    pub fn ops(&self) -> u64 {
        self.steps - self.extra
    }

    pub fn messages(&self) -> u64 {
        self.net.messages
    }
}

impl Net {
    /// `d` seconds of computing; Some(least key) when the process's slice ends there.
    #[inline(always)]
    fn compute<const TL: bool>(&mut self, pr: &mut Proc, p: usize, d: f64) -> Option<u64> {
        if d <= 0.0 {
            return None;
        }
        let start = pr.clock;
        pr.times.computing_s += d;
        pr.clock += d;
        let t = pr.clock;
        self.record::<TL>(p, Activity::Computing, start, t);
        self.go_on::<TL>(pr, p, t)
    }

    /// A receive from `src` at the process's clock: a message there is taken (a blocking
    /// receive waits for its arrival), else a blocking receive blocks and a non-blocking one is
    /// posted. Some(least key) when the process's slice ends here.
    #[inline(always)]
    fn receive<const TL: bool>(&mut self, pr: &mut Proc, p: usize, src: u32, blocking: bool, line: u32) -> Option<u64> {
        let now = pr.clock;
        match (pr.queue.take(src), blocking) {
            (Some(m), true) => {
                pr.source = src as f64;
                pr.tag = m.tag;
                pr.release += 1;
                if m.arrival > now {
                    pr.times.waiting_s += m.arrival - now;
                    pr.clock = m.arrival;
                    self.record::<TL>(p, Activity::Waiting, now, m.arrival);
                    return self.go_on::<TL>(pr, p, m.arrival);
                }
                self.release(pr);
            }
            (Some(m), false) => {
                pr.req_done = pr.req_done.max(m.arrival);
                pr.release += 1;
            }
            (None, true) => {
                pr.state = State::Recv(src);
                pr.block_start = now;
                pr.block_line = line;
                return Some(self.events.set(p, u64::MAX));
            }
            (None, false) => pr.posted.push(src, ()),
        }
        None
    }

    /// A receive from any source: the earliest message already there is taken (None: the
    /// slice goes on), else the process sleeps until the earliest arrival (Some(least key)).
    fn receive_any(&mut self, pr: &mut Proc, p: usize, line: u32) -> Option<u64> {
        let now = pr.clock;
        pr.block_start = now;
        pr.block_line = line;
        let arrives = pr.queue.iter().map(|(_, m)| m.arrival).fold(f64::INFINITY, f64::min);
        if arrives <= now {
            self.take_any(pr, p, now);
            return None;
        }
        pr.state = State::RecvAny;
        pr.any_timer = arrives;
        Some(if arrives.is_finite() { self.schedule(pr, p, arrives) } else { self.events.set(p, u64::MAX) })
    }

    /// MPI_Wait: with nothing posted, the process waits for its sends and received messages
    /// to complete; with receives posted, it blocks until they are matched. Some(least key)
    /// when the process's slice ends here.
    #[inline(always)]
    fn wait<const TL: bool>(
        &mut self,
        pr: &mut Proc,
        p: usize,
        ops: &[Op],
        line: u32,
        steps: Charged,
        limit: u64,
    ) -> Option<u64> {
        let now = pr.clock;
        if !pr.posted.is_empty() {
            pr.state = State::Wait;
            pr.block_start = now;
            pr.block_line = line;
            return Some(self.events.set(p, u64::MAX));
        }
        if pr.req_done > now {
            let t = pr.req_done;
            pr.times.waiting_s += t - now;
            pr.clock = t;
            self.record::<TL>(p, Activity::Waiting, now, t);
            return self.wait_until::<TL>(pr, p, ops, t, steps, limit);
        }
        None
    }

    #[inline(always)]
    fn schedule(&mut self, pr: &mut Proc, p: usize, t: f64) -> u64 {
        pr.wake = t;
        self.events.set(p, key(t, p as u32, self.events.mask))
    }

    /// Schedules a waiting process (no wake-up, or a later one) at `t`.
    #[inline(always)]
    fn wake(&mut self, pr: &mut Proc, p: usize, t: f64) {
        pr.wake = t;
        self.events.lower(p, key(t, p as u32, self.events.mask));
    }

    /// The running process `p` can go on at `t`: at once when no other process comes first,
    /// else it waits for its turn. Returns `None` when it goes on now, else the next event's
    /// key.
    #[inline(always)]
    fn go_on<const TL: bool>(&mut self, pr: &mut Proc, p: usize, t: f64) -> Option<u64> {
        let k = key(t, p as u32, self.events.mask);
        pr.wake = t;
        let first = self.events.set(p, k);
        if first == k {
            pr.clock = t;
            self.release(pr);
            None
        } else {
            Some(first)
        }
    }

    /// The running process `p` waits until `t`: it first does ahead what it would do alone
    /// ([`runs_ahead`]; runs with a timeline keep one event per op), then goes on as
    /// [`Net::go_on`] says. Returns `None` when it goes on now, else the next event's key (it
    /// waits for its turn, or now blocks on a receive it reached ahead).
    #[inline(always)]
    fn wait_until<const TL: bool>(
        &mut self,
        pr: &mut Proc,
        p: usize,
        ops: &[Op],
        t: f64,
        steps: Charged,
        limit: u64,
    ) -> Option<u64> {
        let t = if TL {
            t
        } else {
            let Some(t) = runs_ahead(pr, ops, t, steps, limit) else { return Some(self.events.set(p, u64::MAX)) };
            t
        };
        self.go_on::<TL>(pr, p, t)
    }

    #[inline(always)]
    fn release(&mut self, pr: &mut Proc) {
        self.scoreboard = self.scoreboard.saturating_sub(pr.release);
        pr.release = 0;
    }

    #[inline(always)]
    fn record<const TL: bool>(&mut self, p: usize, what: Activity, start: f64, end: f64) {
        if !TL {
            return;
        }
        if let Some(tl) = &mut self.timeline {
            if end > start {
                if tl.segments.len() + tl.messages.len() < MAX_TIMELINE {
                    tl.segments.push((p as u32, what, start, end));
                } else {
                    tl.truncated = true;
                }
            }
        }
    }

    /// An any-source receive resumes at `t`: it takes the message that arrived first.
    fn take_any(&mut self, pr: &mut Proc, p: usize, t: f64) {
        if let Some((src, m)) = pr.queue.take_least(|m| m.arrival) {
            pr.source = src as f64;
            pr.tag = m.tag;
            self.scoreboard = self.scoreboard.saturating_sub(1);
        }
        pr.times.waiting_s += t - pr.block_start;
        pr.state = State::Ready;
        pr.any_timer = f64::INFINITY;
        self.record::<true>(p, Activity::Waiting, pr.block_start, t);
    }

    /// A message leaves `src` (the running process, `pr`) for `dst` at `now`: it joins the
    /// scoreboard and gets its arrival time.
    #[inline(always)]
    fn depart<const TL: bool>(
        &mut self,
        machine: &Machine,
        pr: &mut Proc,
        src: usize,
        dst: usize,
        bytes: f64,
        now: f64,
    ) -> f64 {
        self.messages += 1;
        self.scoreboard += 1;
        let arrival = now + self.machine.draw(machine, bytes, self.scoreboard as usize, &mut self.rng);
        // Non-overtaking on the channel.
        let arrival = pr.sent.not_before(dst as u32, arrival);
        if !TL {
            return arrival;
        }
        if let Some(tl) = &mut self.timeline {
            if tl.segments.len() + tl.messages.len() < MAX_TIMELINE {
                tl.messages.push((src as u32, dst as u32, now, arrival));
            } else {
                tl.truncated = true;
            }
        }
        arrival
    }

    /// The message from `src` reaches `d` (process `dst`) at `arrival`: it completes a posted
    /// or blocked receive, or waits in `d`'s queue.
    #[inline(always)]
    fn deliver<const TL: bool>(&mut self, d: &mut Proc, dst: usize, src: u32, arrival: f64, tag: f64) {
        if d.posted.take(src).is_some() {
            d.req_done = d.req_done.max(arrival);
            d.release += 1;
            if d.state == State::Wait && d.posted.is_empty() {
                let t = d.req_done.max(d.block_start);
                d.times.waiting_s += t - d.block_start;
                d.clock = t;
                d.state = State::Ready;
                self.record::<TL>(dst, Activity::Waiting, d.block_start, t);
                self.wake(d, dst, t);
            }
        } else if d.state == State::Recv(src) {
            d.release += 1;
            d.source = src as f64;
            d.tag = tag;
            // A receive done ahead ([`runs_ahead`]) can start waiting after the message arrives.
            let t = arrival.max(d.block_start);
            d.times.waiting_s += t - d.block_start;
            d.state = State::Ready;
            self.record::<TL>(dst, Activity::Waiting, d.block_start, t);
            self.wake(d, dst, t);
        } else {
            d.queue.push(src, Msg { arrival, tag });
            if d.state == State::RecvAny && arrival < d.any_timer {
                d.any_timer = arrival;
                self.wake(d, dst, arrival);
            }
        }
    }
}

/// A process about to wait until `t` with no message to release then (its wake-up would change
/// nothing shared) does at once what it would do alone on waking: the constant computations,
/// loop ends and jumps that follow, and then a blocking receive from a known source. It wakes
/// once, where there were two or more events:
/// - at the end of the computations, when the next op is anything else;
/// - when the receive's message arrives (or at once), when that message is already queued:
///   messages from one source are taken in sending order, so no later send can come first;
/// - not at all when the message is not queued: it blocks on the receive from then on, and the
///   message's sender wakes it ([`Net::deliver`] waits for the later of the two times).
///
/// The order of everything processes share — the scoreboard, the queues, the random streams —
/// stays the same, and so does every result; the steps are counted as before. Runs with a
/// timeline keep one event per op (its entries stay in the same order). Returns the time the
/// process goes on, or `None` when it now waits on a receive.
#[inline(always)]
fn runs_ahead(pr: &mut Proc, ops: &[Op], t: f64, charged: Charged, limit: u64) -> Option<f64> {
    let (steps, extra, costs) = charged;
    let mut t = t;
    if pr.release != 0 {
        return Some(t);
    }
    while *steps < limit {
        match ops.get(pr.pc as usize) {
            // Constant times were checked when the program was compiled.
            Some(Op::Compute { time: CExpr::Num(d), .. }) => {
                *steps += costs.compute;
                *extra += costs.compute;
                pr.pc += 1;
                pr.times.computing_s += d;
                t += d;
            }
            Some(Op::Next { slot, body }) => {
                pr.pc += 1;
                let s = *slot as usize;
                if let Some([c, k]) = pr.vars.get_mut(s..s + 2) {
                    *c += 1.0;
                    if *c < *k {
                        pr.pc = *body;
                    }
                }
            }
            Some(Op::Jump { target }) => pr.pc = *target,
            Some(&Op::RecvFrom { src, blocking: true, line }) => {
                *steps += 1 + costs.recv;
                *extra += costs.recv;
                pr.pc += 1;
                let Some(m) = pr.queue.take(src) else {
                    pr.state = State::Recv(src);
                    pr.clock = t;
                    pr.block_start = t;
                    pr.block_line = line;
                    return None;
                };
                pr.source = src as f64;
                pr.tag = m.tag;
                pr.release += 1;
                if m.arrival > t {
                    pr.times.waiting_s += m.arrival - t;
                    t = m.arrival;
                }
                return Some(t);
            }
            _ => break,
        }
        *steps += 1;
    }
    Some(t)
}

/// A process's part of an op: an all-to-all's next step, a loop's start, and the expressions
/// evaluated in its environment and checked as the run goes (their errors name the process
/// and the line). Sizes, peers and times known before the run were folded to constants when
/// the programs were compiled, so those helpers are #[cold]; a loop's count, constant or
/// not, is evaluated at every loop's start.
impl Proc {
    /// The next step of the all-to-all the process is on; it stays on the op (its pc back
    /// by one) until its last step (a pause keeps the step reached).
    #[inline(always)]
    fn alltoall_step(&mut self, p: usize, numprocs: u32, bytes: f64, line: u32) -> Op {
        let step = Op::alltoall_step(self.sub, p as u32, numprocs, bytes, line);
        self.sub += 1;
        if self.sub < 2 * (numprocs - 1) {
            self.pc -= 1;
        } else {
            self.sub = 0;
        }
        step
    }

    /// A loop of `n` iterations begins (none: it is passed over to `end`).
    #[inline(always)]
    fn enter_loop(&mut self, n: f64, slot: u16, end: u32) {
        let s = slot as usize;
        if n == 0.0 {
            self.pc = end;
        } else if let Some([c, k]) = self.vars.get_mut(s..s + 2) {
            *c = 0.0;
            *k = n;
        }
    }

    #[cold]
    fn serial_time(&mut self, e: &CExpr, p: usize, line: u32) -> Result<f64, RunError> {
        let d = e.eval(&Env { vars: &self.vars, source: self.source, tag: self.tag }, &mut self.rng);
        if !within(d, 0.0, 1e6) {
            return Err(line_error(
                line,
                format!("process {p}: a Serial time of {} s; expected 0 to 1e6 s", crate::model::fmt_num(d, 4)),
            ));
        }
        Ok(d)
    }

    fn iterations(&mut self, count: &CExpr, p: usize, line: u32) -> Result<f64, RunError> {
        let n = count.eval(&Env { vars: &self.vars, source: self.source, tag: self.tag }, &mut self.rng);
        if !(n.fract() == 0.0 && (0.0..=super::program::MAX_LOOP).contains(&n)) {
            return Err(line_error(
                line,
                format!(
                    "process {p}: iterations = {}; expected a whole number from 0 to 1e9",
                    crate::model::fmt_num(n, 6)
                ),
            ));
        }
        Ok(n)
    }

    /// A send's destination, size and tag.
    #[cold]
    fn send_of(
        &mut self,
        exprs: &SendExprs,
        p: usize,
        numprocs: u32,
        line: u32,
    ) -> Result<(usize, f64, f64), RunError> {
        let SendExprs { to, size, tag } = exprs;
        let env = Env { vars: &self.vars, source: self.source, tag: self.tag };
        let dst = peer(to, &env, &mut self.rng, numprocs).map_err(|r| rank_error(r, numprocs, p, "sends to", line))?;
        let bytes = size.eval(&env, &mut self.rng);
        if !within(bytes, 0.0, 1e12) {
            return Err(line_error(
                line,
                format!("process {p}: message size {}; expected 0 to 1e12 bytes", crate::model::fmt_num(bytes, 4)),
            ));
        }
        Ok((dst, bytes, tag.eval(&env, &mut self.rng)))
    }

    /// A receive's source.
    #[cold]
    fn source_of(&mut self, from: &CExpr, p: usize, numprocs: u32, line: u32) -> Result<u32, RunError> {
        let env = Env { vars: &self.vars, source: self.source, tag: self.tag };
        peer(from, &env, &mut self.rng, numprocs)
            .map(|s| s as u32)
            .map_err(|r| rank_error(r, numprocs, p, "receives from", line))
    }
}

/// `lo ≤ x ≤ hi`, false for NaN. `RangeInclusive::contains` stays an out-of-line call at
/// opt-level "z" (measured), and these checks are on every op's path.
#[inline(always)]
#[allow(clippy::manual_range_contains)]
fn within(x: f64, lo: f64, hi: f64) -> bool {
    x >= lo && x <= hi
}

/// The process a message goes to or comes from, or the value that is not one.
#[inline(always)]
fn peer(e: &CExpr, env: &Env, rng: &mut Rng, numprocs: u32) -> Result<usize, f64> {
    // A constant was checked when the program was compiled (`program::Ctx::rank`).
    if let CExpr::Num(r) = e {
        return Ok(*r as u32 as usize);
    }
    let r = e.eval(env, rng);
    // A cast and a compare instead of fract().
    if r >= 0.0 && r < numprocs as f64 && (r as u32) as f64 == r {
        Ok(r as u32 as usize)
    } else {
        Err(r)
    }
}

#[cold]
#[inline(never)]
fn rank_error(r: f64, numprocs: u32, p: usize, what: &str, line: u32) -> RunError {
    line_error(
        line,
        format!("process {p} {what} {}, which is not a process (numprocs = {numprocs})", crate::model::fmt_num(r, 6)),
    )
}

/// Most leaves of the event tree: one per possible process (the low bits of a key, [`key`]).
const LEAVES: usize = super::program::MAX_PROCS as usize;
/// Fewest leaves: up to 64 processes share one tree shape, so their walks are all one
/// unrolled walk of 6 levels.
const MIN_LEAVES: usize = 64;

/// The pending wake-up of every process, as a tournament (winner) tree: leaf p holds process
/// p's event key (`u64::MAX`: none) and every inner node the least key below it, so the next
/// event is at the root. A process has at most one pending wake-up, so changing it is one walk
/// from its leaf towards the root, which stops at the first node whose value stays the same —
/// instead of a binary heap with an entry per wake-up and stale entries left behind.
struct Events {
    /// Node 1 is the root; node i has children 2i and 2i + 1; leaves start at `leaves`: 2 ×
    /// `leaves` nodes, sized to the run (a run of a few processes fills 1 KB, not the 256 KB
    /// the largest count needs).
    tree: Box<[u64]>,
    leaves: usize,
    /// The bits of a key that hold the process ([`key`]): 10 up to 1,024 processes, else
    /// log2 of `leaves`.
    mask: u64,
}

impl Events {
    fn new(numprocs: u32) -> Events {
        let leaves = (numprocs as usize).next_power_of_two().clamp(MIN_LEAVES, LEAVES);
        Events { tree: vec![u64::MAX; 2 * leaves].into_boxed_slice(), leaves, mask: (leaves.max(1024) - 1) as u64 }
    }

    /// The least key (`u64::MAX`: nothing pending).
    #[inline(always)]
    fn first(&self) -> u64 {
        self.tree[1]
    }

    /// Sets process p's key to `k`, whatever it was; returns the new least key.
    #[inline(always)]
    fn set(&mut self, p: usize, k: u64) -> u64 {
        // The common sizes walk a tree of a size known at compile time: the walk is unrolled
        // and its indices, masked, need no bounds checks.
        let (leaves, t) = (self.leaves, &mut *self.tree);
        match t.len() {
            128 => walk::<128>(t, leaves, p, k),
            256 => walk::<256>(t, leaves, p, k),
            2048 => walk::<2048>(t, leaves, p, k),
            _ => walk_any(t, leaves, p, k),
        }
    }

    /// Sets process p's key to `k`, no greater than it was: only the nodes above that held
    /// more than `k` change, and the walk stops at the first that does not.
    #[inline(always)]
    fn lower(&mut self, p: usize, k: u64) {
        let (leaves, t) = (self.leaves, &mut *self.tree);
        match t.len() {
            128 => lower::<128>(t, leaves, p, k),
            256 => lower::<256>(t, leaves, p, k),
            2048 => lower::<2048>(t, leaves, p, k),
            _ => lower_any(t, leaves, p, k),
        }
    }
}

/// [`Events::set`] in a tree of N nodes (`t` must have N).
#[inline(always)]
fn walk<const N: usize>(t: &mut [u64], leaves: usize, p: usize, k: u64) -> u64 {
    let Ok(t) = <&mut [u64; N]>::try_from(t) else { return u64::MAX };
    let mut i = (leaves + p) & (N - 1);
    t[i] = k;
    let mut m = k;
    for _ in 0..N.trailing_zeros() - 1 {
        m = m.min(t[(i ^ 1) & (N - 1)]);
        i >>= 1;
        t[i & (N - 1)] = m;
    }
    m
}

/// [`Events::set`] in a tree of any size.
#[inline(always)]
fn walk_any(t: &mut [u64], leaves: usize, p: usize, k: u64) -> u64 {
    let mut i = leaves + p;
    t[i] = k;
    let mut m = k;
    while i > 1 {
        m = m.min(t[i ^ 1]);
        i >>= 1;
        t[i] = m;
    }
    m
}

/// [`Events::lower`] in a tree of N nodes (`t` must have N).
#[inline(always)]
fn lower<const N: usize>(t: &mut [u64], leaves: usize, p: usize, k: u64) {
    let Ok(t) = <&mut [u64; N]>::try_from(t) else { return };
    let mut i = (leaves + p) & (N - 1);
    t[i] = k;
    while i > 1 {
        i >>= 1;
        let node = &mut t[i & (N - 1)];
        if *node <= k {
            break;
        }
        *node = k;
    }
}

/// [`Events::lower`] in a tree of any size.
#[inline(always)]
fn lower_any(t: &mut [u64], leaves: usize, p: usize, k: u64) {
    let mut i = leaves + p;
    t[i] = k;
    while i > 1 {
        i >>= 1;
        let node = &mut t[i];
        if *node <= k {
            break;
        }
        *node = k;
    }
}

#[cfg(test)]
mod tests {
    use super::super::program::MAX_PROCS;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The tree's root is the least key, checked against a plain scan after every change
        /// (raises, lowers, removals, process counts that are not powers of two; the trees of
        /// a size known at compile time, 128, 256 and 2,048 nodes, and the others).
        #[test]
        fn event_tree_root_is_the_least_key(
            np in prop_oneof![1u32..70, 120u32..140, 250u32..300, 1000u32..1030, 2000u32..2100, 16000u32..=MAX_PROCS],
            changes in prop::collection::vec((0usize..20000, 0u64..=1000, any::<bool>()), 1..300),
        ) {
            let mut events = Events::new(np);
            let mut keys = vec![u64::MAX; np as usize];
            // Up to 1,024 processes a key's low 10 bits are the process, else 14 bits at most.
            prop_assert_eq!(events.mask, if np <= 1024 { 0x3FF } else { u64::from(np.next_power_of_two()) - 1 });
            for (p, t, lower) in changes {
                let p = p % np as usize;
                // Keys as the engine makes them: distinct low bits per process; 1000 is "none".
                let k = if t == 1000 { u64::MAX } else { key(f64::from(t as u32), p as u32, events.mask) };
                let first = if lower && k <= keys[p] {
                    events.lower(p, k);
                    events.first()
                } else {
                    events.set(p, k)
                };
                keys[p] = k;
                let least = *keys.iter().min().unwrap();
                prop_assert_eq!(events.first(), least);
                // The engine takes its next event from what `set` returns.
                prop_assert_eq!(first, least);
            }
        }
    }
}

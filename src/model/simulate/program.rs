//! From a skeleton to one flat program per process, for one process count.
//!
//! Every process runs the same skeleton with its own `procnum`, so before a run the skeleton is
//! specialised per process: parameters, `procnum` and `numprocs` are folded into constants,
//! `Runon` conditions that are then known drop their dead blocks, and collectives become
//! point-to-point messages. What remains dynamic (loop counters, `source`, `tag`, random
//! times) is kept as a small expression tree evaluated when the op runs.
//!
//! Collectives (primitives of the language, expanded here; sends are blocking):
//! `MPI_Bcast` and `MPI_Reduce` follow a binomial tree rooted at `root` (default 0);
//! `MPI_Allreduce` is a reduce to 0 then a broadcast from 0; `MPI_Barrier` an allreduce of
//! 0 bytes; `MPI_Gather`/`MPI_Scatter` are linear (the root receives from / sends to every
//! other process in rank order, `size` bytes each); `MPI_Alltoall` posts a non-blocking send
//! to procnum + k and a receive from procnum − k for k = 1 … numprocs − 1, then waits.

use super::lang::{self, BinOp, Expr, Func, Message, MsgOp, Pos, Skeleton, Stmt, StmtKind};
use crate::model::InputError;

/// Largest process count a run may have (the event queue's keys hold 14 bits of process).
pub const MAX_PROCS: u32 = 16384;
/// Largest loop count.
pub const MAX_LOOP: f64 = 1e9;
/// Most ops all programs of one process count may hold together (bounds memory).
pub const MAX_PROGRAM_OPS: usize = 2_000_000;

/// What a run charges against its limits beyond one step an op, in steps: a step is about
/// the time of the cheapest op (a loop's end, a jump), and the ops that wake another process,
/// draw a message time or match one take several times that, more on larger process counts
/// (the processes' state no longer fits the caches). The engine adds them as it runs
/// (`engine::Run`) and the compile where it counts a program's steps
/// ([`Programs::estimated_steps`]), so a job's limit of steps is a limit of time, whatever
/// its shape: measured on a machine of this project, 2e9 steps of every shape tried (ring
/// exchanges, all-to-alls, computations of one or 1,024 processes, replications of 16,384
/// processes, any-source receives) took 3 to 15 s of one core (docs/limits.md), where they
/// took about 7 to 220 s counted one step an op.
/// The answer's `steps` counts ops alone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Costs {
    /// A `Serial` time (the process usually yields to the next event).
    pub compute: u64,
    /// A `Serial` time evaluated as the run goes (drawn at random, or of a loop counter),
    /// besides `compute`.
    pub eval: u64,
    /// A send: its time drawn, its delivery.
    pub send: u64,
    /// A receive (it may block: an event).
    pub recv: u64,
    /// An `MPI_Wait`.
    pub wait: u64,
    /// Each process of a run, at its start (its state made and dropped).
    pub process: u64,
}

impl Costs {
    /// The charges of a run of `numprocs` processes.
    pub fn of(numprocs: u32) -> Costs {
        let s = if numprocs <= 4096 {
            1
        } else if numprocs <= 8192 {
            2
        } else {
            4
        };
        Costs { compute: 3 * s, eval: 3, send: 5 * s, recv: 3 * s, wait: 3 * s, process: 10 }
    }

    /// What `op` charges beyond its one step (an all-to-all: each of its steps).
    pub fn of_op(&self, op: &Op, numprocs: u32) -> u64 {
        match op {
            Op::Compute { time: CExpr::Num(_), .. } => self.compute,
            Op::Compute { .. } => self.compute + self.eval,
            Op::Send { .. } | Op::SendTo { .. } => self.send,
            Op::Recv { .. } | Op::RecvFrom { .. } => self.recv,
            Op::Wait { .. } => self.wait,
            Op::Alltoall { .. } => u64::from(numprocs.saturating_sub(1)) * (self.send + self.recv),
            Op::Loop { .. } | Op::Next { .. } | Op::Branch { .. } | Op::Jump { .. } => 0,
        }
    }
}

/// An expression with everything known before the run folded away.
#[derive(Debug, Clone, PartialEq)]
pub enum CExpr {
    Num(f64),
    /// A loop counter, by slot.
    Slot(u16),
    Source,
    Tag,
    Neg(Box<CExpr>),
    Not(Box<CExpr>),
    Bin(BinOp, Box<CExpr>, Box<CExpr>),
    Call(Func, Box<[CExpr]>),
}

/// What a process's expression may read while it runs.
pub struct Env<'a> {
    pub vars: &'a [f64],
    pub source: f64,
    pub tag: f64,
}

impl CExpr {
    #[inline(always)]
    pub fn eval(&self, env: &Env, rng: &mut super::rng::Rng) -> f64 {
        match self {
            CExpr::Num(x) => *x,
            _ => self.eval_slow(env, rng),
        }
    }

    fn eval_slow(&self, env: &Env, rng: &mut super::rng::Rng) -> f64 {
        match self {
            CExpr::Num(x) => *x,
            CExpr::Slot(s) => env.vars.get(*s as usize).copied().unwrap_or(0.0),
            CExpr::Source => env.source,
            CExpr::Tag => env.tag,
            CExpr::Neg(a) => -a.eval(env, rng),
            CExpr::Not(a) => f64::from(a.eval(env, rng) == 0.0),
            CExpr::Bin(op, a, b) => lang::apply(*op, a.eval(env, rng), b.eval(env, rng)),
            CExpr::Call(f, args) => {
                let a = args.first().map_or(0.0, |e| e.eval(env, rng));
                let b = args.get(1).map_or(0.0, |e| e.eval(env, rng));
                match f {
                    Func::Uniform => a + (b - a) * rng.unit(),
                    Func::Exponential => -a * (1.0 - rng.unit()).ln(),
                    _ => lang::call(*f, a, b),
                }
            }
        }
    }
}

/// One step of a process's program.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// Computation, seconds.
    Compute {
        time: CExpr,
        line: u32,
    },
    /// A send with a peer, size or tag known only at run time (boxed: ops stay 32 bytes).
    Send {
        exprs: Box<SendExprs>,
        blocking: bool,
        line: u32,
    },
    /// A send whose peer, size and tag are known before the run (checked then).
    SendTo {
        dst: u32,
        line: u32,
        bytes: f64,
        tag: f64,
        blocking: bool,
    },
    /// `from = None`: any source (blocking receives only).
    Recv {
        from: Option<CExpr>,
        blocking: bool,
        line: u32,
    },
    /// A receive from a source known before the run (checked then).
    RecvFrom {
        src: u32,
        blocking: bool,
        line: u32,
    },
    /// Waits for every outstanding non-blocking send and receive of the process.
    Wait {
        line: u32,
    },
    /// An all-to-all's 2 (numprocs − 1) non-blocking steps with a size known before the run,
    /// held as one op (an all-to-all of 1,000 processes is 2 M ops when written out): the
    /// engine runs them one step at a time, in the order [`Op::alltoall_step`] gives, as if
    /// they were written out. Counted as one op where programs' sizes are counted and as its
    /// steps where work is (a run's and a job's steps).
    Alltoall {
        bytes: f64,
        line: u32,
    },
    /// Evaluates the count into slot `slot + 1`, sets the counter (slot) to 0; jumps to `end`
    /// when the count is 0.
    Loop {
        count: Box<CExpr>,
        slot: u16,
        end: u32,
        line: u32,
    },
    /// Counter + 1; back to `body` while below the count.
    Next {
        slot: u16,
        body: u32,
    },
    /// Jumps to `target` when `cond` is 0.
    Branch {
        cond: CExpr,
        target: u32,
    },
    Jump {
        target: u32,
    },
}

impl Op {
    /// Step `i` (0 ≤ i < 2 (n − 1)) of process `me`'s all-to-all on `n` processes: for
    /// k = 1 … n − 1, a non-blocking send to me + k, then a non-blocking receive from me − k
    /// (mod n). The engine runs [`Op::Alltoall`] through it; the compile wrote these ops out.
    #[inline(always)]
    pub fn alltoall_step(i: u32, me: u32, n: u32, bytes: f64, line: u32) -> Op {
        // me + k and me + n − k are below 2n: a subtraction instead of a division.
        let wrap = |r: u32| if r >= n { r - n } else { r };
        let k = i / 2 + 1;
        if i % 2 == 0 {
            Op::SendTo { dst: wrap(me + k), line, bytes, tag: 0.0, blocking: false }
        } else {
            Op::RecvFrom { src: wrap(me + n - k), blocking: false, line }
        }
    }
}

/// The peer, size (bytes) and tag of a send, as evaluated at run time.
#[derive(Debug, Clone, PartialEq)]
pub struct SendExprs {
    pub to: CExpr,
    pub size: CExpr,
    pub tag: CExpr,
}

/// The programs of every process for one process count.
#[derive(Debug, Clone)]
pub struct Programs {
    pub numprocs: u32,
    pub procs: Vec<Vec<Op>>,
    /// Slots each process needs (two per loop: counter and count).
    pub slots: usize,
    /// Ops a run executes when every loop count is known before it starts; a lower bound
    /// otherwise (loops with unknown counts taken once).
    pub estimated_steps: f64,
    /// Whether a loop's count is known only as the run goes (drawn at random, or read from a
    /// message's source or tag), so that `estimated_steps` is a lower bound.
    pub dynamic: bool,
    /// Ops of every process together (also when [`check_only`] kept none of them), an
    /// [`Op::Alltoall`] as the one op it is: the limits on programs ([`MAX_PROGRAM_OPS`], the
    /// job's kept ops, the page's check) bound the memory programs take. What an all-to-all
    /// holds while it runs is [`Programs::peak_message_bytes`].
    total_ops: usize,
    /// Some process runs an all-to-all (held or written out).
    alltoall: bool,
}

/// Bytes a run holds per pair of processes at the peak of an all-to-all, an estimate with a
/// margin: every process posts its sends before its receives, so half the p (p − 1) messages
/// wait in their receivers' queues (24 bytes each with their link) and the other half are
/// posted receives (8 bytes); each process keeps the last arrival on every channel it sent on
/// (8 bytes a receiver) and an index by peer of its queue and of its posted receives (8 bytes
/// a peer each), and a list gives its memory back when it empties. Lists grow by doubling and
/// keep their gaps until they are half gaps, and in a loop of all-to-alls processes drift apart
/// so that a queue holds the next one's messages while its own receives are still posted.
/// Counted by the allocator (`an_all_to_alls_peak_stays_within_its_estimate`): one all-to-all
/// holds 30–40 bytes a pair from 300 to 900 processes; 168 loops of 1 to 100 all-to-alls of
/// 200, 600 and 1,000 processes, drifting or not, 44.8 at most (200 processes, where the
/// engine's own state counts most).
pub const ALLTOALL_PAIR_BYTES: f64 = 56.0;

struct Ctx<'a> {
    procnum: Option<u32>,
    numprocs: u32,
    params: &'a [(String, f64)],
    /// Loop counters in scope, innermost last: (name, slot).
    scope: Vec<(String, u16)>,
    next_slot: u16,
    max_slot: u16,
    ops: Vec<Op>,
    /// An all-to-all was compiled.
    alltoall: bool,
    /// Open loops' pending `Break` jumps to patch.
    breaks: Vec<Vec<usize>>,
    steps: f64,
    weight: f64,
    /// What ops charge beyond their step ([`Costs`]).
    costs: Costs,
    /// A loop count not known before the run was met.
    dynamic: bool,
    /// Ops this process may hold; past it the compile gives up (`over`), or, at
    /// [`MAX_PROGRAM_OPS`], fails with the position.
    cap: usize,
    over: bool,
}

fn expr_error(pos: Pos, name: &str) -> InputError {
    pos.error(format!(
        "unknown name \"{name}\"; expected a parameter, a loop counter, procnum, numprocs, source or tag"
    ))
}

impl<'a> Ctx<'a> {
    /// A context for one process (`procnum`), or for parameters (None), holding at most `cap`
    /// ops.
    fn new(procnum: Option<u32>, numprocs: u32, params: &'a [(String, f64)], cap: usize) -> Self {
        Ctx {
            procnum,
            numprocs,
            params,
            scope: Vec::new(),
            next_slot: 0,
            max_slot: 0,
            ops: Vec::new(),
            alltoall: false,
            breaks: Vec::new(),
            steps: 0.0,
            weight: 1.0,
            costs: Costs::of(numprocs),
            dynamic: false,
            cap,
            over: false,
        }
    }

    fn fold(&self, e: &Expr) -> Result<CExpr, InputError> {
        Ok(match e {
            Expr::Num(x) => CExpr::Num(*x),
            Expr::Var(name, pos) => {
                let low = name.to_ascii_lowercase();
                if let Some((_, s)) = self.scope.iter().rev().find(|(n, _)| n == name) {
                    CExpr::Slot(*s)
                } else if low == "procnum" {
                    match self.procnum {
                        Some(p) => CExpr::Num(p as f64),
                        None => {
                            return Err(pos.error("parameters cannot use procnum (they are the same on every process)"))
                        }
                    }
                } else if low == "numprocs" {
                    CExpr::Num(self.numprocs as f64)
                } else if low == "source" && self.procnum.is_some() {
                    CExpr::Source
                } else if low == "tag" && self.procnum.is_some() {
                    CExpr::Tag
                } else if let Some((_, v)) = self.params.iter().rev().find(|(n, _)| n == name) {
                    CExpr::Num(*v)
                } else {
                    return Err(expr_error(*pos, name));
                }
            }
            Expr::Neg(a) => match self.fold(a)? {
                CExpr::Num(x) => CExpr::Num(-x),
                a => CExpr::Neg(Box::new(a)),
            },
            Expr::Not(a) => match self.fold(a)? {
                CExpr::Num(x) => CExpr::Num(f64::from(x == 0.0)),
                a => CExpr::Not(Box::new(a)),
            },
            Expr::Bin(op, a, b) => match (self.fold(a)?, self.fold(b)?) {
                (CExpr::Num(x), CExpr::Num(y)) => CExpr::Num(lang::apply(*op, x, y)),
                (a, b) => CExpr::Bin(*op, Box::new(a), Box::new(b)),
            },
            Expr::Call(f, args, pos) => {
                let args: Vec<CExpr> = args.iter().map(|a| self.fold(a)).collect::<Result<_, _>>()?;
                let random = matches!(f, Func::Uniform | Func::Exponential);
                if random && self.procnum.is_none() {
                    return Err(
                        pos.error("parameters cannot be random; use uniform() or exponential() in Serial times")
                    );
                }
                match args[..] {
                    [CExpr::Num(a)] if !random => CExpr::Num(lang::call(*f, a, 0.0)),
                    [CExpr::Num(a), CExpr::Num(b)] if !random => CExpr::Num(lang::call(*f, a, b)),
                    _ => CExpr::Call(*f, args.into_boxed_slice()),
                }
            }
        })
    }

    fn push(&mut self, op: Op) {
        self.steps += self.weight * (1 + self.costs.of_op(&op, self.numprocs)) as f64;
        // A receive from a source known before the run takes one match at run time, not two.
        // The source was checked before it came here (`rank`).
        let op = match op {
            Op::Recv { from: Some(CExpr::Num(s)), blocking, line } => Op::RecvFrom { src: s as u32, blocking, line },
            op => op,
        };
        self.ops.push(op);
    }

    /// Pushes a send: one whose peer, size and tag are known before the run (checked before it
    /// came here: `rank`, `check`) needs no evaluation at run time.
    fn push_send(&mut self, to: CExpr, size: CExpr, tag: CExpr, blocking: bool, line: u32) {
        self.push(match (to, size, tag) {
            (CExpr::Num(d), CExpr::Num(bytes), CExpr::Num(tag)) => {
                Op::SendTo { dst: d as u32, line, bytes, tag, blocking }
            }
            (to, size, tag) => Op::Send { exprs: Box::new(SendExprs { to, size, tag }), blocking, line },
        });
    }

    fn here(&self) -> u32 {
        self.ops.len() as u32
    }

    /// Ops of the program (a held all-to-all is one).
    fn len(&self) -> usize {
        self.ops.len()
    }

    fn block(&mut self, body: &[Stmt]) -> Result<(), InputError> {
        for s in body {
            self.stmt(s)?;
            if self.len() > self.cap {
                if self.cap >= MAX_PROGRAM_OPS {
                    return Err(s.pos.error(format!(
                        "the programs grow past {MAX_PROGRAM_OPS} steps; fewer processes or collectives"
                    )));
                }
                // The enclosing blocks return at their next statement as well.
                self.over = true;
                return Ok(());
            }
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), InputError> {
        let line = s.pos.line;
        match &s.kind {
            StmtKind::Param { .. } => Ok(()),
            StmtKind::Serial { time } => {
                let ms = self.fold(time)?;
                if let CExpr::Num(t) = ms {
                    check(s.pos, "time", t, 0.0, 1e9, "milliseconds")?;
                }
                let time = scaled(ms, 1e-3);
                self.push(Op::Compute { time, line });
                Ok(())
            }
            StmtKind::Break => {
                let Some(open) = self.breaks.last_mut() else {
                    return Err(s.pos.error("Break outside a Loop"));
                };
                open.push(self.ops.len());
                self.push(Op::Jump { target: 0 });
                Ok(())
            }
            StmtKind::Runon { branches, otherwise } => {
                let mut exits = Vec::new();
                for (cond, body) in branches {
                    match self.fold(cond)? {
                        CExpr::Num(c) if c != 0.0 => {
                            self.block(body)?;
                            return self.patch_exits(exits);
                        }
                        CExpr::Num(_) => {}
                        cond => {
                            let at = self.ops.len();
                            self.push(Op::Branch { cond, target: 0 });
                            self.block(body)?;
                            exits.push(self.ops.len());
                            self.push(Op::Jump { target: 0 });
                            let next = self.here();
                            if let Some(Op::Branch { target, .. }) = self.ops.get_mut(at) {
                                *target = next;
                            }
                        }
                    }
                }
                if let Some(body) = otherwise {
                    self.block(body)?;
                }
                self.patch_exits(exits)
            }
            StmtKind::Loop { count, var, body } => {
                let count = self.fold(count)?;
                let known = match count {
                    CExpr::Num(n) => {
                        if !(n.fract() == 0.0 && (0.0..=MAX_LOOP).contains(&n)) {
                            return Err(s.pos.error(format!(
                                "iterations = {} on process {}: expected a whole number from 0 to 1e9",
                                crate::model::fmt_num(n, 6),
                                self.procnum.unwrap_or(0)
                            )));
                        }
                        if n == 0.0 {
                            return Ok(());
                        }
                        n
                    }
                    _ => {
                        self.dynamic = true;
                        1.0
                    }
                };
                let slot = self.next_slot;
                self.next_slot = self.next_slot.checked_add(2).ok_or_else(|| s.pos.error("too many loops"))?;
                self.max_slot = self.max_slot.max(self.next_slot);
                if let Some(v) = var {
                    self.scope.push((v.clone(), slot));
                }
                let start = self.ops.len();
                self.push(Op::Loop { count: Box::new(count), slot, end: 0, line });
                self.breaks.push(Vec::new());
                let outer = self.weight;
                self.weight *= known;
                self.block(body)?;
                // `Next` runs once an iteration, so it counts with the body.
                self.push(Op::Next { slot, body: start as u32 + 1 });
                self.weight = outer;
                let end = self.here();
                if let Some(Op::Loop { end: e, .. }) = self.ops.get_mut(start) {
                    *e = end;
                }
                let breaks = self.breaks.pop().unwrap_or_default();
                self.patch(breaks, end);
                if var.is_some() {
                    self.scope.pop();
                }
                self.next_slot -= 2;
                Ok(())
            }
            StmtKind::Message(m) => self.message(s.pos, m),
        }
    }

    fn patch(&mut self, at: Vec<usize>, to: u32) {
        for i in at {
            if let Some(Op::Jump { target }) = self.ops.get_mut(i) {
                *target = to;
            }
        }
    }

    fn patch_exits(&mut self, exits: Vec<usize>) -> Result<(), InputError> {
        let end = self.here();
        self.patch(exits, end);
        Ok(())
    }

    /// A rank known before the run, checked against numprocs.
    fn rank(&self, pos: Pos, what: &str, e: &CExpr) -> Result<Option<u32>, InputError> {
        match e {
            CExpr::Num(r) => {
                if r.fract() != 0.0 || *r < 0.0 || *r >= self.numprocs as f64 {
                    return Err(pos.error(format!(
                        "process {}: {what} = {} is not a process (numprocs = {}, processes 0 to {})",
                        self.procnum.unwrap_or(0),
                        crate::model::fmt_num(*r, 6),
                        self.numprocs,
                        self.numprocs - 1
                    )));
                }
                Ok(Some(*r as u32))
            }
            _ => Ok(None),
        }
    }

    fn message(&mut self, pos: Pos, m: &Message) -> Result<(), InputError> {
        let me = self.procnum.unwrap_or(0);
        let line = pos.line;
        let size = match &m.size {
            Some(e) => self.fold(e)?,
            None => CExpr::Num(0.0),
        };
        if let CExpr::Num(b) = size {
            check(pos, "size", b, 0.0, 1e12, "bytes")?;
        }
        let tag = match &m.tag {
            Some(e) => self.fold(e)?,
            None => CExpr::Num(0.0),
        };
        let is_any = |e: &Expr| matches!(e, Expr::Var(v, _) if v.eq_ignore_ascii_case("any") || v.eq_ignore_ascii_case("MPI_ANY_SOURCE"));
        // Guard: the directive is carried out by the process it names (`from` for sends, `to` for
        // receives), by default the one running it.
        let me_expr = CExpr::Num(me as f64);
        let participant = |ctx: &mut Ctx, who: &Option<Expr>| -> Result<Option<usize>, InputError> {
            let Some(w) = who else { return Ok(None) };
            match ctx.fold(w)? {
                CExpr::Num(x) if x == me as f64 => Ok(None),
                CExpr::Num(_) => Ok(Some(usize::MAX)),
                dynamic => {
                    let at = ctx.ops.len();
                    ctx.push(Op::Branch {
                        cond: CExpr::Bin(BinOp::Eq, Box::new(dynamic), Box::new(me_expr.clone())),
                        target: 0,
                    });
                    Ok(Some(at))
                }
            }
        };
        match m.op {
            MsgOp::Send | MsgOp::Isend => {
                let guard = participant(self, &m.from)?;
                if guard == Some(usize::MAX) {
                    return Ok(());
                }
                let Some(to) = &m.to else { return Err(pos.error("a send needs to = …")) };
                let to = self.fold(to)?;
                self.rank(pos, "to", &to)?;
                self.push_send(to, size, tag, m.op == MsgOp::Send, line);
                self.close_guard(guard);
            }
            MsgOp::Recv | MsgOp::Irecv => {
                let guard = participant(self, &m.to)?;
                if guard == Some(usize::MAX) {
                    return Ok(());
                }
                let Some(from) = &m.from else {
                    return Err(pos.error("a receive needs from = … (a process or any)"));
                };
                let from = if is_any(from) {
                    if m.op == MsgOp::Irecv {
                        return Err(pos.error("from = any is for MPI_Recv only (a blocking receive)"));
                    }
                    None
                } else {
                    let f = self.fold(from)?;
                    self.rank(pos, "from", &f)?;
                    Some(f)
                };
                self.push(Op::Recv { from, blocking: m.op == MsgOp::Recv, line });
                self.close_guard(guard);
            }
            MsgOp::Wait => self.push(Op::Wait { line }),
            op => {
                let root = match &m.root {
                    Some(e) => match self.fold(e)? {
                        r @ CExpr::Num(_) => self.rank(pos, "root", &r)?.unwrap_or(0),
                        _ => {
                            return Err(pos.error("root must be known before the run (no loop counters, source or tag)"))
                        }
                    },
                    None => 0,
                };
                self.collective(op, root, size, line);
            }
        }
        Ok(())
    }

    fn close_guard(&mut self, guard: Option<usize>) {
        if let Some(at) = guard {
            let next = self.here();
            if let Some(Op::Branch { target, .. }) = self.ops.get_mut(at) {
                *target = next;
            }
        }
    }

    fn send(&mut self, to: u32, size: &CExpr, blocking: bool, line: u32) {
        self.push_send(CExpr::Num(to as f64), size.clone(), CExpr::Num(0.0), blocking, line);
    }

    fn recv(&mut self, from: u32, blocking: bool, line: u32) {
        // What `push` makes of a receive from a known source, without the detour.
        self.push(Op::RecvFrom { src: from, blocking, line });
    }

    fn collective(&mut self, op: MsgOp, root: u32, size: CExpr, line: u32) {
        let (p, me) = (self.numprocs, self.procnum.unwrap_or(0));
        let rel = (me + p - root) % p;
        let abs = |r: u32| (r + root) % p;
        match op {
            MsgOp::Bcast => self.bcast(rel, p, root, &size, line),
            MsgOp::Reduce => self.reduce(rel, p, root, &size, line),
            MsgOp::Allreduce | MsgOp::Barrier => {
                let size = if op == MsgOp::Barrier { CExpr::Num(0.0) } else { size };
                self.reduce(me, p, 0, &size, line);
                self.bcast(me, p, 0, &size, line);
            }
            MsgOp::Gather | MsgOp::Scatter => {
                let gather = op == MsgOp::Gather;
                if me == root {
                    for r in (1..p).map(abs) {
                        if gather {
                            self.recv(r, true, line);
                        } else {
                            self.send(r, &size, true, line);
                        }
                    }
                } else if gather {
                    self.send(root, &size, true, line);
                } else {
                    self.recv(root, true, line);
                }
            }
            MsgOp::Alltoall => {
                self.alltoall |= p > 1;
                match size {
                    CExpr::Num(bytes) if p > 1 => {
                        let op = Op::Alltoall { bytes, line };
                        let steps = 2 * u64::from(p - 1) + self.costs.of_op(&op, p);
                        // As `push` counts each of them (whole numbers: the sum is exact).
                        self.steps += self.weight * steps as f64;
                        self.ops.push(op);
                    }
                    size => {
                        for k in 1..p {
                            self.send((me + k) % p, &size, false, line);
                            self.recv((me + p - k) % p, false, line);
                        }
                    }
                }
                self.push(Op::Wait { line });
            }
            MsgOp::Send | MsgOp::Isend | MsgOp::Recv | MsgOp::Irecv | MsgOp::Wait => {}
        }
    }

    fn bcast(&mut self, rel: u32, p: u32, root: u32, size: &CExpr, line: u32) {
        let mut mask = 1u32;
        while mask < p {
            if rel & mask != 0 {
                self.recv((rel - mask + root) % p, true, line);
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while mask > 0 {
            if rel + mask < p {
                self.send((rel + mask + root) % p, size, true, line);
            }
            mask >>= 1;
        }
    }

    fn reduce(&mut self, rel: u32, p: u32, root: u32, size: &CExpr, line: u32) {
        let mut mask = 1u32;
        while mask < p {
            if rel & mask == 0 {
                if (rel | mask) < p {
                    self.recv(((rel | mask) + root) % p, true, line);
                }
            } else {
                self.send(((rel & !mask) + root) % p, size, true, line);
                break;
            }
            mask <<= 1;
        }
    }
}

fn scaled(e: CExpr, k: f64) -> CExpr {
    match e {
        CExpr::Num(x) => CExpr::Num(x * k),
        e => CExpr::Bin(BinOp::Mul, Box::new(e), Box::new(CExpr::Num(k))),
    }
}

fn check(pos: Pos, what: &str, x: f64, lo: f64, hi: f64, unit: &str) -> Result<(), InputError> {
    if x.is_finite() && (lo..=hi).contains(&x) {
        return Ok(());
    }
    let shown = if x.is_finite() { crate::model::fmt_num(x, 6) } else { "not a finite number".into() };
    Err(pos.error(format!(
        "{what} = {shown}; expected {} to {} {unit}",
        crate::model::fmt_num(lo, 3),
        crate::model::fmt_num(hi, 3)
    )))
}

/// Evaluates the parameters: the skeleton's `Param` defaults, overridden by `given` (the
/// page's or the command's parameters, evaluated first, in order).
pub fn parameters(
    skeleton: &Skeleton,
    given: &[(String, Expr)],
    numprocs: u32,
) -> Result<Vec<(String, f64)>, InputError> {
    let mut out: Vec<(String, f64)> = Vec::new();
    let eval = |out: &Vec<(String, f64)>, e: &Expr| -> Result<f64, InputError> {
        let ctx = Ctx::new(None, numprocs, out, 0);
        match ctx.fold(e)? {
            CExpr::Num(x) if x.is_finite() => Ok(x),
            CExpr::Num(_) => Err(InputError::new(lang::FIELD, "a parameter is not a finite number")),
            _ => Err(InputError::new(lang::FIELD, "a parameter must be a number known before the run")),
        }
    };
    for (name, e) in given {
        let x = eval(&out, e).map_err(|mut err| {
            err.field = "params".into();
            err.message = format!("{name}: {}", err.message);
            err
        })?;
        out.push((name.clone(), x));
    }
    let given_names: Vec<&str> = given.iter().map(|(n, _)| n.as_str()).collect();
    for s in &skeleton.body {
        if let StmtKind::Param { name, value } = &s.kind {
            if !given_names.contains(&name.as_str()) {
                let x = eval(&out, value).map_err(|e| if e.line.is_none() { s.pos.error(e.message) } else { e })?;
                out.push((name.clone(), x));
            }
        }
    }
    Ok(out)
}

/// Specialises the skeleton for every process of a run of `numprocs` processes.
pub fn compile(skeleton: &Skeleton, params: &[(String, f64)], numprocs: u32) -> Result<Programs, InputError> {
    compile_within(skeleton, params, numprocs, MAX_PROGRAM_OPS)?.ok_or_else(|| {
        InputError::new(lang::FIELD, format!("the programs of {numprocs} processes grow past {MAX_PROGRAM_OPS} steps"))
    })
}

/// Like [`compile`], but stops as soon as the programs hold more than `max_ops` ops
/// together and answers `None` (a check that must stay cheap gives up there).
pub fn compile_within(
    skeleton: &Skeleton,
    params: &[(String, f64)],
    numprocs: u32,
    max_ops: usize,
) -> Result<Option<Programs>, InputError> {
    specialise(skeleton, params, numprocs, max_ops, true)
}

/// What [`compile`] answers — its errors, steps and ops — without keeping the programs (`check_only`): each
/// process's ops are dropped before the next one's are made, so checking a count of 1,000
/// processes of an all-to-all whose size is known only at run time (written out: 2 M ops,
/// 64 MB kept) touches 64 KB.
pub fn check_only(skeleton: &Skeleton, params: &[(String, f64)], numprocs: u32) -> Result<Programs, InputError> {
    specialise(skeleton, params, numprocs, MAX_PROGRAM_OPS, false)?.ok_or_else(|| {
        InputError::new(lang::FIELD, format!("the programs of {numprocs} processes grow past {MAX_PROGRAM_OPS} steps"))
    })
}

fn specialise(
    skeleton: &Skeleton,
    params: &[(String, f64)],
    numprocs: u32,
    max_ops: usize,
    keep: bool,
) -> Result<Option<Programs>, InputError> {
    if numprocs == 0 || numprocs > MAX_PROCS {
        return Err(InputError::new(
            "numprocs",
            format!("process counts must be from 1 to {MAX_PROCS}, found {numprocs}"),
        ));
    }
    let mut procs = Vec::with_capacity(if keep { numprocs as usize } else { 0 });
    let (mut slots, mut steps, mut total_ops, mut dynamic, mut alltoall) = (0usize, 0.0, 0usize, false, false);
    // Processes of one count have programs of about one length: the last one's is the next
    // one's capacity (no regrowth), or, when nothing is kept, its buffer.
    let (mut buffer, mut hint): (Vec<Op>, usize) = (Vec::new(), 0);
    for procnum in 0..numprocs {
        let mut ctx = Ctx::new(Some(procnum), numprocs, params, MAX_PROGRAM_OPS.min(max_ops - total_ops));
        if keep {
            ctx.ops.reserve_exact(hint);
        } else {
            buffer.clear();
            ctx.ops = std::mem::take(&mut buffer);
        }
        ctx.block(&skeleton.body)?;
        total_ops += ctx.len();
        if ctx.over || total_ops > max_ops {
            return Ok(None);
        }
        slots = slots.max(ctx.max_slot as usize);
        steps += ctx.steps;
        dynamic |= ctx.dynamic;
        alltoall |= ctx.alltoall;
        if keep {
            hint = ctx.ops.len();
            procs.push(ctx.ops);
        } else {
            buffer = ctx.ops;
        }
    }
    // Every process's start ([`Costs::process`]).
    steps += f64::from(numprocs) * Costs::of(numprocs).process as f64;
    Ok(Some(Programs { numprocs, procs, slots, estimated_steps: steps, dynamic, total_ops, alltoall }))
}

impl Programs {
    /// Ops of every process together.
    pub fn ops(&self) -> usize {
        self.total_ops
    }

    /// What a run of these programs holds at once in messages and receives waiting to be
    /// matched, bytes, as far as it can be told before the run: an all-to-all's peak
    /// ([`ALLTOALL_PAIR_BYTES`] a pair of processes); 0 for programs without one (their
    /// messages are bounded by the run's steps).
    pub fn peak_message_bytes(&self) -> f64 {
        if self.alltoall {
            ALLTOALL_PAIR_BYTES * self.numprocs as f64 * self.numprocs as f64
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn programs(text: &str, np: u32) -> Programs {
        let sk = lang::parse(text).unwrap();
        let params = parameters(&sk, &[], np).unwrap();
        compile(&sk, &params, np).unwrap()
    }

    #[test]
    fn known_conditions_are_folded_away() {
        let p =
            programs("Runon c1 = procnum % 2 == 0 & c2 = procnum % 2 != 0 { Serial time = 1 } { Serial time = 2 }", 2);
        assert_eq!(p.procs[0], vec![Op::Compute { time: CExpr::Num(1e-3), line: 1 }]);
        assert_eq!(p.procs[1], vec![Op::Compute { time: CExpr::Num(2e-3), line: 1 }]);
    }

    #[test]
    fn params_default_and_override() {
        let sk = lang::parse("Param xsize = 256\nParam bytes = xsize * sizeof(float)\nSerial time = bytes").unwrap();
        let p = parameters(&sk, &[], 4).unwrap();
        assert_eq!(p, vec![("xsize".into(), 256.0), ("bytes".into(), 1024.0)]);
        let given = lang::parse_params("parameters", "xsize = numprocs * 2").unwrap();
        let p = parameters(&sk, &given, 4).unwrap();
        assert_eq!(p, vec![("xsize".into(), 8.0), ("bytes".into(), 32.0)]);
        let bad = lang::parse_params("parameters", "xsize = procnum").unwrap();
        assert_eq!(parameters(&sk, &bad, 4).unwrap_err().field, "params", "the field the page and the command call it");
    }

    #[test]
    fn bad_ranks_and_counts_point_at_the_directive() {
        let cases = [
            ("Serial time = 1\nMessage type = MPI_Send, to = procnum + 1", 2, "to = 3 is not a process"),
            ("Loop iterations = log2(numprocs) { }", 1, "expected a whole number"),
            ("Serial time = -1", 1, "time = -1"),
            ("Message type = MPI_Send, size = 1/0, to = 0", 1, "not a finite number"),
            ("Message type = MPI_Irecv, from = any", 1, "MPI_Recv only"),
            ("Break", 1, "outside a Loop"),
            ("Serial time = xsize", 1, "unknown name \"xsize\""),
        ];
        for (text, line, msg) in cases {
            let sk = lang::parse(text).unwrap();
            let e = compile(&sk, &[], 3).unwrap_err();
            assert_eq!(e.line, Some(line), "{text}: {e}");
            assert!(e.to_string().contains(msg), "{text}: {e}");
        }
    }

    #[test]
    fn ops_stay_small() {
        // The run loop reads every process's ops: 64 processes' Jacobi programs (7 ops each)
        // take 14 KB at 32 bytes an op, 36 KB at 80 (before the rarely used expressions were
        // boxed), most of a core's first-level data cache.
        assert!(std::mem::size_of::<Op>() <= 32, "{}", std::mem::size_of::<Op>());
    }

    #[test]
    fn collectives_expand_into_matching_point_to_point() {
        // Every send op on process a to b must be matched by a receive op on b from a.
        for np in [1u32, 2, 3, 5, 8, 13] {
            for op in [
                "MPI_Bcast, root = 2",
                "MPI_Reduce, root = 1",
                "MPI_Allreduce",
                "MPI_Barrier",
                "MPI_Gather, root = 1",
                "MPI_Scatter",
                "MPI_Alltoall",
            ] {
                let text = format!("Message type = {op}, size = 8");
                let sk = lang::parse(&text).unwrap();
                let progs = match compile(&sk, &[], np) {
                    Ok(p) => p,
                    Err(e) => {
                        assert!(np < 3 && e.message.contains("root"), "{op} {np}: {e}");
                        continue;
                    }
                };
                let mut pairs = std::collections::BTreeMap::new();
                for (me, ops) in progs.procs.iter().enumerate() {
                    // An all-to-all held as one op, as the engine runs it.
                    let steps = |o: &Op| match *o {
                        Op::Alltoall { bytes, line } => {
                            (0..2 * (np - 1)).map(|i| Op::alltoall_step(i, me as u32, np, bytes, line)).collect()
                        }
                        ref o => vec![o.clone()],
                    };
                    for o in ops.iter().flat_map(steps) {
                        match &o {
                            Op::SendTo { dst, .. } => *pairs.entry((me, *dst as usize)).or_insert(0) += 1,
                            Op::RecvFrom { src, .. } => *pairs.entry((*src as usize, me)).or_insert(0) -= 1,
                            Op::Send { .. } | Op::Recv { .. } => panic!("{op} on {np}: a collective's send or receive with a constant peer and size was not compiled to SendTo or RecvFrom"),
                            _ => {}
                        }
                    }
                }
                assert!(pairs.values().all(|&v| v == 0), "{op} on {np}: {pairs:?}");
            }
        }
    }
}

//! Servers of event loops: `loops` loops, each running one CPU step at a
//! time to its end (no preemption), for many connections; waits are
//! non-blocking. New connections are spread over the loops by the accept
//! rule. A loop runs its steps in batches, as an NGINX worker runs the
//! events one `epoll_wait` returned: the steps queued when it last looked,
//! then it looks again (and may accept a waiting connection). With
//! workers, read steps that are slow (or of the heavy class) are handed to
//! a pool of worker threads, at a hand-off cost on the loop.

use super::cores::{TellerId, TellerKind, TellerState};
use super::ctx::{Ctx, Server};
use super::queue::Time;
use super::request::{Caller, Owner, Phase, ReqId};
use crate::histogram::Histogram;
use crate::scenario::{Accept, Model};
use std::collections::VecDeque;

/// Event loops, with or without a worker pool.
#[derive(Clone, Debug)]
pub struct LoopServer {
    accept: Accept,
    /// Hand steps to workers (event loop + workers).
    workers: bool,
    /// Offload by class (heavy) rather than by cost.
    offload_heavy: bool,
    /// Read steps of at least this many ns go to the workers.
    offload_at: Time,
    /// Half the hand-off cost, ns: paid on the loop on the way out and back.
    handoff_half: Time,
    /// Longest listen line (the idle loop accepts more) before the door
    /// refuses.
    limit: Option<u64>,
    /// Loop teller ids; loop `i` is teller `i` (loops are created first).
    loops: Vec<TellerId>,
    /// Each loop's own steps, in order, and where its batch ends.
    loop_q: Vec<LoopLine>,
    /// Steps any loop may take (the shared accept rule).
    shared_q: VecDeque<ReqId>,
    /// Connections waiting for a loop to accept them (the idle loop accepts
    /// more): an idle loop takes one at once, a busy one when its batch is
    /// done.
    listen: VecDeque<ReqId>,
    /// Idle loops; the last one became idle last.
    idle: Vec<u32>,
    /// Connections each loop accepted.
    conns: Vec<u64>,
    /// The next loop in turn (round robin).
    next_loop: u32,
    /// Requests each loop served (took the first step of).
    served: Vec<u64>,
    /// Loops inside [`LoopServer::pump_loop`]: a nested call for the same
    /// loop leaves the work to it.
    pumping: Vec<bool>,
    /// The worker pools: one shared, or one per loop.
    pools: Vec<WorkerPool>,
    /// Each worker's pool, by teller id minus the first worker's.
    worker_pool: Vec<u32>,
    /// The first worker's teller id.
    first_worker: TellerId,
    /// How long the measured requests' steps waited for a worker, ns;
    /// `None` without workers.
    worker_wait: Option<Box<Histogram>>,
}

/// One loop's own steps, in order, and how many of them are its batch.
#[derive(Clone, Debug, Default)]
struct LoopLine {
    steps: VecDeque<ReqId>,
    /// Steps still to run of the batch the loop took at its last look for
    /// ready connections (its last `epoll_wait`); at 0 it looks again, and
    /// a loop that accepts when it can takes a waiting connection then,
    /// busy or not.
    batch_left: u32,
}

/// A pool of worker threads and the steps waiting for one.
#[derive(Clone, Debug, Default)]
struct WorkerPool {
    /// Idle workers (popped from the end).
    free: Vec<TellerId>,
    /// Steps waiting for a worker, with when each was handed over, ns.
    queue: VecDeque<(ReqId, Time)>,
}

impl LoopServer {
    /// The server for `ctx`'s scenario, with its loops and workers created.
    pub fn new(ctx: &mut Ctx) -> LoopServer {
        let s = &ctx.s;
        let n = s.loop_count();
        let mut server = LoopServer {
            accept: s.accept,
            workers: s.model == Model::EventLoopWorkers,
            offload_heavy: s.offload_heavy,
            offload_at: ctx.ms(s.offload_above_ms),
            handoff_half: ctx.ms(s.handoff_ms / 2.0),
            limit: s.queue_limit.map(u64::from),
            loops: Vec::new(),
            loop_q: Vec::new(),
            shared_q: VecDeque::new(),
            listen: VecDeque::new(),
            idle: Vec::new(),
            conns: vec![0; n as usize],
            next_loop: 0,
            served: vec![0; n as usize],
            pumping: vec![false; n as usize],
            pools: Vec::new(),
            worker_pool: Vec::new(),
            first_worker: 0,
            worker_wait: None,
        };
        ctx.loop_held = vec![0; n as usize];
        for i in 0..n {
            let t = ctx.tellers.spawn(TellerKind::Loop);
            server.loops.push(t);
            server.loop_q.push(LoopLine::default());
            server.idle.push(n - 1 - i);
        }
        if server.workers {
            let pools = if ctx.s.pool_per_loop { n } else { 1 };
            for p in 0..pools {
                let mut pool = WorkerPool::default();
                for _ in 0..ctx.s.workers {
                    let w = ctx.tellers.spawn(TellerKind::Worker);
                    if server.worker_pool.is_empty() {
                        server.first_worker = w;
                    }
                    server.worker_pool.push(p);
                    pool.free.push(w);
                }
                server.pools.push(pool);
            }
            server.worker_wait = Some(Box::new(Histogram::new()));
        }
        server
    }

    /// How long the longest step still running has held its loop so far,
    /// ns (0 with every loop between steps). Steps enter `loop_block` as
    /// they end: an 8 s step under way would otherwise show as nothing
    /// until it ends.
    pub fn longest_open_step(&self, ctx: &Ctx) -> Time {
        self.loops
            .iter()
            .map(|&t| ctx.tellers.get(t))
            .filter(|tl| tl.req.is_some())
            .map(|tl| ctx.now - tl.step_start)
            .max()
            .unwrap_or(0)
    }

    /// The loop index of loop teller `t` (loops are created first).
    fn loop_index(&self, t: TellerId) -> u32 {
        debug_assert_eq!(self.loops[t as usize], t);
        t
    }

    fn set_idle(&mut self, l: u32, idle: bool) {
        let pos = self.idle.iter().position(|&x| x == l);
        match (idle, pos) {
            (true, None) => self.idle.push(l),
            (false, Some(p)) => {
                self.idle.remove(p);
            }
            _ => {}
        }
    }

    /// Puts the next loop step of `r` on its loop (or the shared line) and wakes a loop.
    fn enqueue_step(&mut self, ctx: &mut Ctx, r: ReqId) {
        match ctx.reqs.get(r).owner {
            Owner::Loop(l) => {
                self.loop_q[l as usize].steps.push_back(r);
                self.pump_loop(ctx, self.loops[l as usize]);
            }
            _ => {
                self.shared_q.push_back(r);
                if let Some(&idle) = self.idle.last() {
                    self.pump_loop(ctx, self.loops[idle as usize]);
                }
            }
        }
    }

    /// Does the read step of `r` go to the workers? By class when
    /// `offload_heavy`, else by its cost against `offload_above_ms`.
    fn offloads(&self, ctx: &Ctx, r: ReqId) -> bool {
        let q = ctx.reqs.get(r);
        self.workers
            && if self.offload_heavy {
                q.heavy
            } else {
                q.read >= self.offload_at
            }
    }

    /// If loop teller `t` is free, starts its next step; zero-cost steps
    /// finish at once. A step that finishes at once may queue another on
    /// this loop and pump it again: that call returns at once and this loop
    /// goes on, so the stack does not grow by one call per free step.
    fn pump_loop(&mut self, ctx: &mut Ctx, t: TellerId) {
        let l = self.loop_index(t) as usize;
        if self.pumping[l] {
            return;
        }
        self.pumping[l] = true;
        self.pump_steps(ctx, t);
        self.pumping[l] = false;
    }

    #[inline(always)]
    fn pump_steps(&mut self, ctx: &mut Ctx, t: TellerId) {
        let l = self.loop_index(t);
        loop {
            let tl = ctx.tellers.get(t);
            if tl.state != TellerState::Idle || tl.req.is_some() {
                return;
            }
            if self.loop_q[l as usize].batch_left == 0 {
                // The loop looks for ready connections again (`epoll_wait`):
                // the listen socket is ready to it too, busy or not, so it
                // accepts one waiting connection (one per look, as NGINX
                // without `multi_accept`); the steps now queued are its batch.
                if self.accept == Accept::Idlest {
                    if let Some(r) = self.listen.pop_front() {
                        ctx.pin_to_loop(r, l);
                        let caller = ctx.reqs.get(r).caller;
                        // A connection is counted and pinned once: a
                        // closed client whose request waited here past its
                        // timeout has reset that connection (it is
                        // accepted, but the client is not pinned to it),
                        // and its new one may have been accepted already.
                        if ctx.conn_loop(caller).is_none() {
                            self.conns[l as usize] += 1;
                            if !ctx.reqs.get(r).abandoned {
                                ctx.pin_conn(caller, l);
                            }
                        }
                        self.loop_q[l as usize].steps.push_back(r);
                    }
                }
                let line = &mut self.loop_q[l as usize];
                line.batch_left = line.steps.len() as u32;
            }
            let line = &mut self.loop_q[l as usize];
            let next = match line.steps.pop_front() {
                Some(r) => {
                    line.batch_left -= 1;
                    Some(r)
                }
                None => self.shared_q.pop_front(),
            };
            let Some(r) = next else {
                self.set_idle(l, true);
                return;
            };
            self.set_idle(l, false);
            let cost = match ctx.reqs.get(r).phase {
                Phase::Read => {
                    if ctx.reqs.get(r).first_start == Time::MAX {
                        if !ctx.admit(r) {
                            continue;
                        }
                        ctx.first_start(r);
                        self.served[l as usize] += 1;
                    }
                    if self.offloads(ctx, r) {
                        self.handoff_half
                    } else {
                        ctx.reqs.get(r).read
                    }
                }
                Phase::Resume => self.handoff_half,
                Phase::Write => ctx.reqs.get(r).write,
                Phase::Worker | Phase::Wait => unreachable!("not a loop step"),
            };
            let tl = ctx.tellers.get_mut(t);
            tl.req = Some(r);
            tl.step_start = ctx.now;
            ctx.stats.busy_tellers += 1;
            if cost > 0 {
                ctx.want_cpu(t, cost);
                return;
            }
            self.loop_step_done(ctx, t);
        }
    }

    fn loop_step_done(&mut self, ctx: &mut Ctx, t: TellerId) {
        let tl = ctx.tellers.get_mut(t);
        let r = tl.req.take().expect("a loop in a step runs a request");
        tl.state = TellerState::Idle;
        ctx.stats.busy_tellers -= 1;
        let held = ctx.now - tl.step_start;
        ctx.stats.loop_block.record(held);
        match ctx.reqs.get(r).phase {
            Phase::Read if self.offloads(ctx, r) => {
                // To this loop's own pool, or the one shared pool.
                let p = if self.pools.len() > 1 {
                    self.loop_index(t)
                } else {
                    0
                };
                let q = ctx.reqs.get_mut(r);
                q.phase = Phase::Worker;
                q.pool = p;
                self.pools[p as usize].queue.push_back((r, ctx.now));
                self.pump_workers(ctx, p);
            }
            Phase::Read | Phase::Resume => self.after_compute(ctx, r),
            Phase::Write => ctx.finish(r),
            _ => unreachable!("not a loop step"),
        }
    }

    /// Read and compute are done: wait off the CPU, or write.
    fn after_compute(&mut self, ctx: &mut Ctx, r: ReqId) {
        let q = ctx.reqs.get_mut(r);
        if q.wait > 0 {
            q.phase = Phase::Wait;
            ctx.begin_wait(r);
        } else if q.write > 0 {
            q.phase = Phase::Write;
            self.enqueue_step(ctx, r);
        } else {
            ctx.finish(r);
        }
    }

    /// Hands waiting steps of pool `p` to its idle workers.
    fn pump_workers(&mut self, ctx: &mut Ctx, p: u32) {
        loop {
            let pool = &mut self.pools[p as usize];
            if pool.queue.is_empty() {
                return;
            }
            let Some(w) = pool.free.pop() else {
                return;
            };
            let (r, since) = pool.queue.pop_front().expect("not empty");
            let q = ctx.reqs.get(r);
            let read = q.read;
            if q.measured {
                if let Some(h) = &mut self.worker_wait {
                    h.record(ctx.now - since);
                }
            }
            ctx.tellers.get_mut(w).req = Some(r);
            ctx.stats.busy_tellers += 1;
            ctx.stats.busy_workers += 1;
            if read > 0 {
                ctx.want_cpu(w, read);
            } else {
                self.worker_step_done(ctx, w);
            }
        }
    }

    fn worker_step_done(&mut self, ctx: &mut Ctx, w: TellerId) {
        let tl = ctx.tellers.get_mut(w);
        let r = tl.req.take().expect("a worker in a step runs a request");
        tl.state = TellerState::Idle;
        ctx.stats.busy_tellers -= 1;
        ctx.stats.busy_workers -= 1;
        let p = self.worker_pool[(w - self.first_worker) as usize];
        self.pools[p as usize].free.push(w);
        ctx.reqs.get_mut(r).phase = Phase::Resume;
        if self.handoff_half > 0 {
            self.enqueue_step(ctx, r);
        } else {
            self.after_compute(ctx, r);
        }
        self.pump_workers(ctx, p);
    }
}

impl Server for LoopServer {
    /// Only loops where the idle loop accepts more have a line at the door:
    /// the listen line of connections not yet accepted. A request on a
    /// keep-alive connection already on a loop does not wait in it.
    fn line_is_full(&self, ctx: &Ctx, caller: Caller) -> bool {
        self.limit.is_some_and(|limit| {
            self.accept == Accept::Idlest
                && ctx.conn_loop(caller).is_none()
                && self.idle.is_empty()
                && self.listen.len() as u64 >= limit
        })
    }

    fn line_holds_connections(&self) -> bool {
        self.accept == Accept::Idlest
    }

    fn accept(&mut self, ctx: &mut Ctx, r: ReqId) {
        let caller = ctx.reqs.get(r).caller;
        // A keep-alive connection's later requests stay on its loop.
        if let (Some(l), false) = (ctx.conn_loop(caller), self.accept == Accept::Shared) {
            ctx.pin_to_loop(r, l);
            self.enqueue_step(ctx, r);
            return;
        }
        let n = self.loops.len() as u32;
        let owner = match self.accept {
            Accept::Shared => Owner::SharedLoops,
            Accept::RoundRobin => {
                let l = self.next_loop;
                self.next_loop = (self.next_loop + 1) % n;
                Owner::Loop(l)
            }
            Accept::Random => Owner::Loop(crate::rng::below(&mut ctx.rng, u64::from(n)) as u32),
            Accept::Idlest => match self.idle.last() {
                Some(&l) => Owner::Loop(l),
                None => {
                    self.listen.push_back(r); // the listen line: no loop is free to accept
                    return;
                }
            },
        };
        if let Owner::Loop(l) = owner {
            self.conns[l as usize] += 1;
            ctx.pin_conn(caller, l);
            ctx.pin_to_loop(r, l);
        } else {
            ctx.reqs.get_mut(r).owner = owner;
        }
        self.enqueue_step(ctx, r);
    }

    fn cpu_step_done(&mut self, ctx: &mut Ctx, t: TellerId) {
        match ctx.tellers.get(t).kind {
            TellerKind::Loop => {
                self.loop_step_done(ctx, t);
                self.pump_loop(ctx, t);
            }
            TellerKind::Worker => self.worker_step_done(ctx, t),
            TellerKind::Thread => unreachable!("a loop server has no threads"),
        }
    }

    fn wait_done(&mut self, ctx: &mut Ctx, r: ReqId) {
        let q = ctx.reqs.get_mut(r);
        q.phase = Phase::Write;
        if q.write == 0 {
            ctx.finish(r);
        } else {
            self.enqueue_step(ctx, r);
        }
    }

    /// A loop's requests besides the one it runs: those pinned to it,
    /// queued or waiting off the CPU (with the shared line, none is pinned).
    fn teller_load(&self, ctx: &Ctx, t: TellerId) -> u32 {
        let tl = ctx.tellers.get(t);
        match tl.kind {
            TellerKind::Loop if self.accept == Accept::Shared => 0,
            TellerKind::Loop => {
                ctx.loop_held[self.loop_index(t) as usize] - u32::from(tl.req.is_some())
            }
            _ => 0,
        }
    }

    fn loop_connections(&self) -> Vec<u64> {
        self.conns.clone()
    }

    fn loop_requests(&self) -> Vec<u64> {
        self.served.clone()
    }

    fn worker_wait(&self) -> Option<&Histogram> {
        self.worker_wait.as_deref()
    }

    fn worker_line(&self) -> u64 {
        self.pools.iter().map(|p| p.queue.len() as u64).sum()
    }
}

//! Servers that give each request a thread: a pool of `threads` threads
//! with a FIFO line in front, or a new thread per request (up to an
//! optional cap). A thread holds its request from its first step to the
//! answer, waits included.

use super::cores::{TellerId, TellerKind, TellerState};
use super::ctx::{Ctx, Server};
use super::queue::Time;
use super::request::{Caller, Owner, Phase, ReqId};
use crate::scenario::{Discipline, Model};
use std::collections::VecDeque;

/// A thread pool, or a thread per request.
#[derive(Clone, Debug)]
pub struct ThreadServer {
    /// A fixed pool (true) or a new thread per request (false).
    pool: bool,
    /// Most threads at once (thread per request); `None` = no cap.
    cap: Option<u64>,
    /// CPU to create a thread, ns (thread per request).
    spawn: Time,
    /// Longest line before the door refuses; `None` = no limit.
    limit: Option<u64>,
    /// Requests waiting for a thread.
    line: VecDeque<ReqId>,
    /// Idle pool threads (popped from the end: the first created goes first).
    free: Vec<TellerId>,
    /// Which waiting request a free thread takes.
    discipline: Discipline,
    /// Adaptive LIFO: newest first once the oldest has waited this long, ns.
    lifo_above: Time,
    /// Inside [`ThreadServer::pump`]: a nested call leaves the work to it.
    pumping: bool,
}

impl ThreadServer {
    /// The server for `ctx`'s scenario, with its pool's threads created.
    pub fn new(ctx: &mut Ctx) -> ThreadServer {
        let s = &ctx.s;
        let pool = s.model == Model::ThreadPool;
        let mut server = ThreadServer {
            pool,
            cap: s.thread_cap.map(u64::from),
            spawn: ctx.ms(s.spawn_ms),
            limit: s.queue_limit.map(u64::from),
            line: VecDeque::new(),
            free: Vec::new(),
            discipline: s.discipline,
            lifo_above: ctx.ms(s.lifo_above_ms),
            pumping: false,
        };
        if pool {
            for _ in 0..ctx.s.threads {
                server.free.push(ctx.tellers.spawn(TellerKind::Thread));
            }
            server.free.reverse();
        }
        server
    }

    fn at_cap(&self, ctx: &Ctx) -> bool {
        self.cap.is_some_and(|cap| ctx.tellers.alive >= cap)
    }

    /// Hands waiting requests to free threads (or new ones, thread per
    /// request), each taken from the line in the discipline's order.
    /// A request with no work finishes inside `start`, and the thread it
    /// frees pumps again: that call returns at once and this loop serves
    /// the next request, so the stack does not grow by one call per request.
    fn pump(&mut self, ctx: &mut Ctx) {
        if self.pumping {
            return;
        }
        self.pumping = true;
        self.pump_line(ctx);
        self.pumping = false;
    }

    #[inline(always)]
    fn pump_line(&mut self, ctx: &mut Ctx) {
        while !self.line.is_empty() {
            // A pool thread, or (thread per request) room for a new thread.
            let pooled = if self.pool {
                match self.free.pop() {
                    Some(t) => Some(t),
                    None => return,
                }
            } else if self.at_cap(ctx) {
                return;
            } else {
                None
            };
            let r = self.take(ctx);
            if !ctx.admit(r) {
                if let Some(t) = pooled {
                    self.free.push(t);
                }
                continue;
            }
            let (t, extra) = match pooled {
                Some(t) => (t, 0),
                None => (ctx.tellers.spawn(TellerKind::Thread), self.spawn),
            };
            self.start(ctx, t, r, extra);
        }
    }

    /// Takes the next request from the (non-empty) line: the oldest (FIFO),
    /// the newest (LIFO), or — adaptive LIFO — the oldest while it has
    /// waited less than the bound, else the newest.
    #[inline(always)]
    fn take(&mut self, ctx: &Ctx) -> ReqId {
        if self.discipline == Discipline::Fifo {
            return self.line.pop_front().expect("a line to take from");
        }
        let newest_first = match self.discipline {
            Discipline::Fifo => false,
            Discipline::Lifo => true,
            Discipline::AdaptiveLifo => {
                let oldest = *self.line.front().expect("a line to take from");
                ctx.now - ctx.reqs.get(oldest).arrival >= self.lifo_above
            }
        };
        let r = if newest_first {
            self.line.pop_back()
        } else {
            self.line.pop_front()
        };
        r.expect("a line to take from")
    }

    fn start(&mut self, ctx: &mut Ctx, t: TellerId, r: ReqId, extra: Time) {
        ctx.first_start(r);
        ctx.stats.busy_tellers += 1;
        ctx.tellers.get_mut(t).req = Some(r);
        let q = ctx.reqs.get_mut(r);
        q.owner = Owner::Thread(t);
        let read = q.read + extra;
        self.cpu(ctx, t, read);
    }

    fn cpu(&mut self, ctx: &mut Ctx, t: TellerId, ns: Time) {
        if ns == 0 {
            self.step_done(ctx, t);
        } else {
            ctx.want_cpu(t, ns);
        }
    }

    fn step_done(&mut self, ctx: &mut Ctx, t: TellerId) {
        let r = ctx
            .tellers
            .get(t)
            .req
            .expect("a thread in a step holds a request");
        let q = ctx.reqs.get_mut(r);
        match q.phase {
            Phase::Read => {
                if q.wait > 0 {
                    q.phase = Phase::Wait;
                    ctx.tellers.get_mut(t).state = TellerState::Blocked;
                    ctx.begin_wait(r);
                } else {
                    q.phase = Phase::Write;
                    let w = q.write;
                    self.cpu(ctx, t, w);
                }
            }
            Phase::Write => {
                ctx.finish(r);
                self.release(ctx, t);
            }
            _ => unreachable!("a thread runs only read and write steps"),
        }
    }

    fn release(&mut self, ctx: &mut Ctx, t: TellerId) {
        ctx.stats.busy_tellers -= 1;
        let tl = ctx.tellers.get_mut(t);
        tl.req = None;
        tl.state = TellerState::Idle;
        if self.pool {
            self.free.push(t);
        } else {
            ctx.tellers.end(t);
        }
        self.pump(ctx);
    }
}

impl Server for ThreadServer {
    fn line_is_full(&self, ctx: &Ctx, _caller: Caller) -> bool {
        let Some(limit) = self.limit else {
            return false;
        };
        let no_thread = if self.pool {
            self.free.is_empty()
        } else {
            self.at_cap(ctx)
        };
        no_thread && self.line.len() as u64 >= limit
    }

    fn accept(&mut self, ctx: &mut Ctx, r: ReqId) {
        self.line.push_back(r);
        self.pump(ctx);
    }

    fn cpu_step_done(&mut self, ctx: &mut Ctx, t: TellerId) {
        self.step_done(ctx, t);
    }

    fn wait_done(&mut self, ctx: &mut Ctx, r: ReqId) {
        let q = ctx.reqs.get_mut(r);
        q.phase = Phase::Write;
        let (owner, write) = (q.owner, q.write);
        let Owner::Thread(t) = owner else {
            unreachable!("a waiting request on a thread server is held by a thread")
        };
        ctx.tellers.get_mut(t).state = TellerState::Idle;
        self.cpu(ctx, t, write);
    }
}

//! What sits behind the wait step: a dependency (a database, another
//! service) with a limit on the calls it serves at once, the pool of
//! connections the server holds to it, fan-out (several calls per request)
//! and hedging (a slow call sent again; the first answer wins).
//!
//! A call first takes a connection from the pool (waiting in line for one
//! if none is free), then a slot at the dependency (waiting there in line
//! if all are busy), then holds both for its service time — the request's
//! wait time. A hedge is a second copy of a call; the slower copy is not
//! cancelled: it still finishes and holds its connection and slot.
//!
//! With no limits, one call and no hedging, the engine keeps its plain
//! delay and never comes here.

use super::queue::Time;
use crate::histogram::Histogram;
use std::collections::VecDeque;

/// A call's id: one of a request's `fan_out` calls.
pub type CallId = u32;
/// A copy's id: the call itself, or its hedge.
pub type CopyId = u32;

/// One of a request's calls.
#[derive(Clone, Debug)]
pub struct Call {
    /// The request that made it (its slot).
    pub req: u32,
    /// That request's arrival number, so a late event for a reused slot is stale.
    pub req_id: u32,
    /// It has answered (one of its copies finished).
    pub answered: bool,
    /// Copies still out (the call's slot is freed when none are).
    pub copies_out: u32,
}

/// One copy of a call on its way through pool and dependency.
#[derive(Clone, Debug)]
pub struct Copy {
    /// The call it answers.
    pub call: CallId,
    /// Its service time at the dependency, ns.
    pub service: Time,
    /// When it started waiting for its current stage, ns.
    pub since: Time,
    /// Its request is measured (after the warm-up).
    pub measured: bool,
}

/// A slab of values with reused slots.
#[derive(Clone, Debug)]
pub struct Slab<T> {
    items: Vec<T>,
    free: Vec<u32>,
}

impl<T> Default for Slab<T> {
    fn default() -> Self {
        Slab {
            items: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl<T> Slab<T> {
    /// Stores `v`, returning its id.
    pub fn insert(&mut self, v: T) -> u32 {
        if let Some(i) = self.free.pop() {
            self.items[i as usize] = v;
            i
        } else {
            self.items.push(v);
            (self.items.len() - 1) as u32
        }
    }
    /// Values stored (slots in use).
    pub fn len(&self) -> usize {
        self.items.len() - self.free.len()
    }
    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Frees slot `i`.
    pub fn remove(&mut self, i: u32) {
        self.free.push(i);
    }
    /// The value in slot `i`.
    pub fn get(&self, i: u32) -> &T {
        &self.items[i as usize]
    }
    /// The value in slot `i`, to change.
    pub fn get_mut(&mut self, i: u32) -> &mut T {
        &mut self.items[i as usize]
    }
}

/// The dependency, its connection pool, and the calls in flight.
#[derive(Clone, Debug)]
pub struct Dependency {
    /// Connections the server holds; `None` = no limit.
    pool: Option<u32>,
    /// Connections in use.
    pub conns_busy: u32,
    /// Copies waiting for a connection.
    conn_line: VecDeque<CopyId>,
    /// Calls the dependency serves at once; `None` = no limit.
    slots: Option<u32>,
    /// Slots in use (calls being served).
    pub slots_busy: u32,
    /// Copies waiting for a slot.
    slot_line: VecDeque<CopyId>,
    /// Calls per request.
    pub fan_out: u32,
    /// Send a copy again after this long, ns.
    pub hedge_after: Option<Time>,
    /// Calls in flight.
    pub calls: Slab<Call>,
    /// Copies in flight.
    pub copies: Slab<Copy>,
    /// Copies sent (calls and hedges).
    pub sent: u64,
    /// Hedges sent.
    pub hedges: u64,
    /// Time a copy waited for a connection, ns (measured requests).
    pub pool_wait: Histogram,
    /// Time a copy waited for a slot at the dependency, ns (measured requests).
    pub queue_wait: Histogram,
}

/// What a copy does next, for the engine to schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Started {
    /// Nothing yet: it waits in a line.
    Waiting,
    /// It is served now: it ends after its service time.
    Served(CopyId),
}

impl Dependency {
    /// A dependency with `pool` connections, `slots` slots (`None` = no
    /// limit), `fan_out` calls per request and hedging after `hedge_after` ns.
    pub fn new(
        pool: Option<u32>,
        slots: Option<u32>,
        fan_out: u32,
        hedge_after: Option<Time>,
    ) -> Self {
        Dependency {
            pool,
            conns_busy: 0,
            conn_line: VecDeque::new(),
            slots,
            slots_busy: 0,
            slot_line: VecDeque::new(),
            fan_out: fan_out.max(1),
            hedge_after,
            calls: Slab::default(),
            copies: Slab::default(),
            sent: 0,
            hedges: 0,
            pool_wait: Histogram::new(),
            queue_wait: Histogram::new(),
        }
    }

    /// Copies waiting for a connection.
    pub fn waiting_for_connection(&self) -> u64 {
        self.conn_line.len() as u64
    }

    /// Copies waiting for a slot at the dependency.
    pub fn waiting_for_slot(&self) -> u64 {
        self.slot_line.len() as u64
    }

    /// True when the wait step is a plain delay (no limit, one call, no hedge).
    pub fn is_plain(&self) -> bool {
        self.pool.is_none()
            && self.slots.is_none()
            && self.fan_out == 1
            && self.hedge_after.is_none()
    }

    /// Sends a copy of `call` with `service` ns of work at `now`: it takes a
    /// connection and a slot if free, else waits in line for them.
    pub fn send(&mut self, call: CallId, service: Time, measured: bool, now: Time) -> Started {
        self.sent += 1;
        self.calls.get_mut(call).copies_out += 1;
        let c = self.copies.insert(Copy {
            call,
            service,
            since: now,
            measured,
        });
        if self.pool.is_some_and(|p| self.conns_busy >= p) {
            self.conn_line.push_back(c);
            return Started::Waiting;
        }
        self.conns_busy += 1;
        self.take_slot(c, now)
    }

    /// Copy `c`, holding a connection, asks for a slot.
    fn take_slot(&mut self, c: CopyId, now: Time) -> Started {
        let cp = self.copies.get_mut(c);
        if cp.measured {
            self.pool_wait.record(now - cp.since);
        }
        cp.since = now;
        if self.slots.is_some_and(|k| self.slots_busy >= k) {
            self.slot_line.push_back(c);
            return Started::Waiting;
        }
        self.serve(c, now)
    }

    fn serve(&mut self, c: CopyId, now: Time) -> Started {
        let cp = self.copies.get(c);
        if cp.measured {
            self.queue_wait.record(now - cp.since);
        }
        self.slots_busy += 1;
        Started::Served(c)
    }

    /// Copy `c` is served: it frees its slot and connection, and the
    /// copies that can now go on are pushed onto `next` (to schedule).
    /// Returns the call's request and whether this copy answered the call
    /// (the first copy to finish does).
    pub fn done(&mut self, c: CopyId, now: Time, next: &mut Vec<CopyId>) -> (u32, bool) {
        let call = self.copies.get(c).call;
        self.copies.remove(c);
        self.slots_busy -= 1;
        // The freed slot goes to the next copy waiting for one.
        if let Some(w) = self.slot_line.pop_front() {
            if let Started::Served(s) = self.serve(w, now) {
                next.push(s);
            }
        }
        // The freed connection goes to the next copy waiting for one.
        self.conns_busy -= 1;
        if let Some(w) = self.conn_line.pop_front() {
            self.conns_busy += 1;
            if let Started::Served(s) = self.take_slot(w, now) {
                next.push(s);
            }
        }
        let cl = self.calls.get_mut(call);
        cl.copies_out -= 1;
        let first = !cl.answered;
        // A freed call stays marked answered, so a hedge due for it is stale.
        cl.answered = true;
        let req = cl.req;
        if cl.copies_out == 0 {
            self.calls.remove(call);
        }
        (req, first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_of_one_queues_the_second_call_then_hands_it_the_connection() {
        let mut d = Dependency::new(Some(1), None, 1, None);
        let a = d.calls.insert(Call {
            req: 0,
            req_id: 0,
            answered: false,
            copies_out: 0,
        });
        let b = d.calls.insert(Call {
            req: 1,
            req_id: 1,
            answered: false,
            copies_out: 0,
        });
        let Started::Served(ca) = d.send(a, 10, true, 0) else {
            panic!()
        };
        assert_eq!(d.send(b, 10, true, 0), Started::Waiting);
        let mut next = Vec::new();
        assert_eq!(d.done(ca, 10, &mut next), (0, true));
        assert_eq!(next.len(), 1, "the waiting call got the connection");
        assert_eq!(d.pool_wait.max(), 10);
    }

    #[test]
    fn the_slower_copy_of_a_hedged_call_answers_nothing() {
        let mut d = Dependency::new(None, None, 1, Some(5));
        let a = d.calls.insert(Call {
            req: 0,
            req_id: 0,
            answered: false,
            copies_out: 0,
        });
        let Started::Served(first) = d.send(a, 100, false, 0) else {
            panic!()
        };
        let Started::Served(hedge) = d.send(a, 3, false, 5) else {
            panic!()
        };
        let mut next = Vec::new();
        assert_eq!(d.done(hedge, 8, &mut next), (0, true));
        assert_eq!(d.done(first, 100, &mut next), (0, false));
        assert_eq!(d.slots_busy, 0);
    }
}

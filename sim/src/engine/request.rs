//! Requests in flight: what each one is doing, who holds it and who waits
//! for its answer. Slots are reused, so the engine allocates nothing per
//! request once it is warm.

use super::queue::Time;

/// A request's slot.
pub type ReqId = u32;

/// What a request is doing now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// In the line, or its read step queued on a loop.
    Read,
    /// Its read step is with the worker pool.
    Worker,
    /// Back from a worker, the loop takes the result.
    Resume,
    /// Waiting off the CPU.
    Wait,
    /// Writing the answer.
    Write,
}

/// Who holds a request: nobody yet, a thread, or an event loop (pinned, or
/// any loop through the shared line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// Not yet taken by a thread or pinned to a loop.
    Nobody,
    /// The thread (teller) that holds it.
    Thread(u32),
    /// The loop it is pinned to (loop index, which is also its teller id).
    Loop(u32),
    /// The loops' shared line: whichever loop is free runs its next step.
    SharedLoops,
}

/// Who is waiting for the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    /// An open arrival: nobody sends again after it.
    Open,
    /// A closed-loop client, who sends its next request after this one.
    Client(u32),
    /// A keep-alive connection, which sends its next request after this one
    /// until it has sent its share.
    Conn(u32),
}

/// One request in flight. Times in ns.
#[derive(Clone, Debug)]
pub struct Req {
    /// Arrival number (for timeouts and the circuit breaker's trial;
    /// wraps harmlessly).
    pub id: u32,
    /// When it arrived, ns.
    pub arrival: Time,
    /// When it left the line, ns (`Time::MAX` until then).
    pub first_start: Time,
    /// CPU to read and compute, ns.
    pub read: Time,
    /// Wait off the CPU, ns.
    pub wait: Time,
    /// CPU to write, ns.
    pub write: Time,
    /// What it is doing.
    pub phase: Phase,
    /// Who holds it.
    pub owner: Owner,
    /// Who waits for it.
    pub caller: Caller,
    /// Which try of its call this is: 0 the first, 1 the first retry, …
    pub attempt: u32,
    /// Calls of its wait step still unanswered (fan-out).
    pub calls_left: u32,
    /// The worker pool its offloaded step goes to (a pool per loop).
    pub pool: u32,
    /// Its caller has given up on it (timed out, or told it was shed or
    /// dropped); the call's failure has been handled.
    pub abandoned: bool,
    /// Arrived after the warm-up: its latency counts.
    pub measured: bool,
    /// In the heavy class.
    pub heavy: bool,
    /// Still inside: false once it has left and its slot is free (a
    /// timeout event for it is then stale, even if the slot was not reused).
    pub live: bool,
}

/// Request slots, reused once a request has left.
#[derive(Clone, Debug, Default)]
pub struct Requests {
    slots: Vec<Req>,
    free: Vec<ReqId>,
}

impl Requests {
    /// Stores `req` in a free slot.
    #[inline]
    pub fn insert(&mut self, req: Req) -> ReqId {
        if let Some(i) = self.free.pop() {
            self.slots[i as usize] = req;
            i
        } else {
            self.slots.push(req);
            (self.slots.len() - 1) as ReqId
        }
    }

    /// Frees `r`'s slot (the request has left).
    #[inline]
    pub fn remove(&mut self, r: ReqId) {
        self.slots[r as usize].live = false;
        self.free.push(r);
    }

    /// The request in slot `r`.
    #[inline]
    pub fn get(&self, r: ReqId) -> &Req {
        &self.slots[r as usize]
    }

    /// The request in slot `r`, to change.
    #[inline]
    pub fn get_mut(&mut self, r: ReqId) -> &mut Req {
        &mut self.slots[r as usize]
    }

    /// Requests still inside (slots in use).
    pub fn live(&self) -> impl Iterator<Item = &Req> {
        self.slots.iter().filter(|q| q.live)
    }
}

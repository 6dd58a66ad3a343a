//! The cores and the tellers that compete for them.
//!
//! A teller (a thread, an event loop or a worker) that has CPU work asks
//! for a core. A free core takes it at once; otherwise it joins the ready
//! line, and while anyone waits there, each running teller is sent to the
//! back of it at the end of its time slice. A teller that wants more CPU the
//! moment its step ends (a loop with more in its line) runs on in the slice
//! it has, as a thread does on a real kernel. A core that switches to another
//! teller first pays the switch cost. This is the only place that knows
//! about slices and switches: the servers only say "teller t wants n ns".

use super::event::Event;
use super::queue::{EventQueue, Time};
use super::request::ReqId;
use std::collections::VecDeque;

/// A teller's id: its index among all tellers.
pub type TellerId = u32;

/// A teller: something that runs CPU steps on a core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TellerKind {
    /// A thread (pool or per request): holds its request through the wait.
    Thread,
    /// An event loop: runs one step at a time for many connections.
    Loop,
    /// A worker thread beside event loops.
    Worker,
}

/// What a teller is doing right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TellerState {
    /// Nothing to do.
    Idle,
    /// Has CPU work, waits for a core.
    Ready,
    /// Running on a core.
    OnCore,
    /// Holds a request that waits off the CPU (a thread only): idle but taken.
    Blocked,
}

/// One teller's state.
#[derive(Clone, Debug)]
pub struct Teller {
    /// Thread, loop or worker.
    pub kind: TellerKind,
    /// False once a thread-per-request thread has ended (its slot is free).
    pub alive: bool,
    /// CPU still to run in the current step, ns.
    pub cpu_left: Time,
    /// The request of the current step (a thread: the one it holds).
    pub req: Option<ReqId>,
    /// What it is doing.
    pub state: TellerState,
    /// When its current loop step started, ns.
    pub step_start: Time,
    /// Which teller this is of those that had its id: an ended thread's id
    /// is reused by a new thread, which is still another thread to switch to.
    pub born: u32,
}

/// Every teller, with reuse of ended threads' slots.
#[derive(Clone, Debug, Default)]
pub struct Tellers {
    /// All tellers by id (dead ones included until reused).
    pub all: Vec<Teller>,
    free: Vec<TellerId>,
    /// Tellers alive now.
    pub alive: u64,
    /// Most tellers alive at once.
    pub peak: u64,
    /// Tellers spawned so far (each one's [`Teller::born`]).
    spawned: u32,
}

impl Tellers {
    /// A new idle teller of `kind`.
    pub fn spawn(&mut self, kind: TellerKind) -> TellerId {
        let t = Teller {
            kind,
            alive: true,
            cpu_left: 0,
            req: None,
            state: TellerState::Idle,
            step_start: 0,
            born: self.spawned,
        };
        self.spawned = self.spawned.wrapping_add(1);
        self.alive += 1;
        self.peak = self.peak.max(self.alive);
        if let Some(i) = self.free.pop() {
            self.all[i as usize] = t;
            i
        } else {
            self.all.push(t);
            (self.all.len() - 1) as TellerId
        }
    }

    /// Ends teller `t` (a thread per request whose request is done).
    pub fn end(&mut self, t: TellerId) {
        self.all[t as usize].alive = false;
        self.alive -= 1;
        self.free.push(t);
    }

    /// Teller `t`.
    #[inline]
    pub fn get(&self, t: TellerId) -> &Teller {
        &self.all[t as usize]
    }

    /// Teller `t`, to change.
    #[inline]
    pub fn get_mut(&mut self, t: TellerId) -> &mut Teller {
        &mut self.all[t as usize]
    }
}

/// One core's current run.
#[derive(Clone, Debug)]
struct Core {
    /// The teller running, if any.
    teller: Option<TellerId>,
    /// The teller that ran last, with its [`Teller::born`] (no switch cost
    /// to run that same teller again).
    last: Option<(TellerId, u32)>,
    /// When progress on the current burst started (after any switch
    /// cost), ns.
    start: Time,
    /// When the teller running took this core (after any switch cost), ns:
    /// its slices count from here, through the steps it runs back to back.
    run_start: Time,
    /// When the current burst ends, ns.
    end: Time,
    /// Generation: events of an older run are stale.
    gen: u32,
    /// A slice end is scheduled for this run.
    slice_pending: bool,
}

/// The cores, the ready line and the costs of sharing them.
#[derive(Clone, Debug)]
pub struct Cores {
    cores: Vec<Core>,
    free: Vec<u32>,
    ready: VecDeque<TellerId>,
    /// The core whose teller just finished a step, with that teller, while
    /// the engine asks the teller what it does next: if it wants more CPU
    /// at once, it keeps the core for the rest of its slice.
    held: Option<(u32, TellerId)>,
    /// Cores running a teller now.
    pub busy: u32,
    /// Time slice, ns (at least 1).
    slice: Time,
    /// Cost of switching a core to another teller, ns.
    switch: Time,
}

impl Cores {
    /// `n` idle cores with time slice `slice` ns and switch cost `switch` ns.
    pub fn new(n: u32, slice: Time, switch: Time) -> Cores {
        Cores {
            cores: (0..n)
                .map(|_| Core {
                    teller: None,
                    last: None,
                    start: 0,
                    run_start: 0,
                    end: 0,
                    gen: 0,
                    slice_pending: false,
                })
                .collect(),
            // Popped from the end: core 0 is taken first.
            free: (0..n).rev().collect(),
            ready: VecDeque::new(),
            held: None,
            busy: 0,
            slice: slice.max(1),
            switch,
        }
    }

    /// Teller `t` wants `ns` of CPU: a free core takes it now, or it waits
    /// in the ready line (and running tellers get slice ends).
    #[inline]
    pub fn want(
        &mut self,
        tellers: &mut Tellers,
        q: &mut EventQueue<Event>,
        now: Time,
        t: TellerId,
        ns: Time,
    ) {
        tellers.get_mut(t).cpu_left = ns;
        if let Some((core, _)) = self.held.filter(|(_, h)| *h == t) {
            self.held = None;
            self.run(tellers, q, now, core, t);
            return;
        }
        if let Some(core) = self.free.pop() {
            self.dispatch(tellers, q, now, core, t);
            return;
        }
        tellers.get_mut(t).state = TellerState::Ready;
        let was_empty = self.ready.is_empty();
        self.ready.push_back(t);
        if was_empty {
            // Someone now waits: every running core gets a slice end.
            for (i, c) in self.cores.iter_mut().enumerate() {
                if c.slice_pending || c.teller.is_none() {
                    continue;
                }
                let boundary = slice_end(c.run_start, now, self.slice);
                if boundary < c.end {
                    c.slice_pending = true;
                    q.push(
                        boundary,
                        Event::SliceEnd {
                            core: i as u32,
                            gen: c.gen,
                        },
                    );
                }
            }
        }
    }

    /// Teller `t` takes `core` now, after the switch cost if the core ran
    /// another last; its slices count from when it starts.
    #[inline]
    fn dispatch(
        &mut self,
        tellers: &mut Tellers,
        q: &mut EventQueue<Event>,
        now: Time,
        core: u32,
        t: TellerId,
    ) {
        let c = &mut self.cores[core as usize];
        let me = Some((t, tellers.get(t).born));
        let start = now + if c.last != me { self.switch } else { 0 };
        c.last = me;
        c.run_start = start;
        self.run(tellers, q, start, core, t);
    }

    /// Teller `t` runs its step on `core` from `start`, in the slice it
    /// took the core for (a teller whose step just ended there runs on
    /// with no switch: [`Cores::want`]); a slice end is set if others wait
    /// and the step outlasts the slice.
    #[inline]
    fn run(
        &mut self,
        tellers: &mut Tellers,
        q: &mut EventQueue<Event>,
        start: Time,
        core: u32,
        t: TellerId,
    ) {
        let c = &mut self.cores[core as usize];
        let tl = tellers.get_mut(t);
        let end = start + tl.cpu_left;
        tl.state = TellerState::OnCore;
        c.teller = Some(t);
        c.start = start;
        c.end = end;
        c.gen = c.gen.wrapping_add(1);
        c.slice_pending = false;
        let gen = c.gen;
        self.busy += 1;
        q.push(end, Event::CpuDone { core, gen });
        if !self.ready.is_empty() {
            let boundary = slice_end(c.run_start, start, self.slice);
            if boundary < end {
                c.slice_pending = true;
                q.push(boundary, Event::SliceEnd { core, gen });
            }
        }
    }

    /// A slice ended: if someone waits, the running teller goes to the back
    /// of the ready line and the next one runs.
    pub fn on_slice_end(
        &mut self,
        tellers: &mut Tellers,
        q: &mut EventQueue<Event>,
        now: Time,
        core: u32,
        gen: u32,
    ) {
        let c = &mut self.cores[core as usize];
        if c.gen != gen {
            return;
        }
        c.slice_pending = false;
        let Some(next) = self.ready.pop_front() else {
            return;
        };
        let t = c.teller.expect("a core with a pending slice runs a teller");
        let progress = now.saturating_sub(c.start);
        self.busy -= 1;
        let tl = tellers.get_mut(t);
        tl.cpu_left = tl.cpu_left.saturating_sub(progress);
        tl.state = TellerState::Ready;
        self.ready.push_back(t);
        self.dispatch(tellers, q, now, core, next);
    }

    /// A core finished its burst: the teller whose step is done is returned
    /// (`None` for a stale event), and the core is held for it until
    /// [`Cores::release`].
    #[inline]
    pub fn on_cpu_done(&mut self, tellers: &mut Tellers, core: u32, gen: u32) -> Option<TellerId> {
        let c = &mut self.cores[core as usize];
        if c.gen != gen {
            return None;
        }
        let t = c.teller.take().expect("a core with a burst runs a teller");
        c.slice_pending = false;
        self.busy -= 1;
        tellers.get_mut(t).cpu_left = 0;
        tellers.get_mut(t).state = TellerState::Idle;
        // Held until the engine has asked `t` what it does next
        // ([`Cores::release`]).
        self.held = Some((core, t));
        Some(t)
    }

    /// After a finished step: the held core, unless its teller took it for
    /// its next step, goes to the first in the ready line, or is free.
    #[inline]
    pub fn release(&mut self, tellers: &mut Tellers, q: &mut EventQueue<Event>, now: Time) {
        let Some((core, _)) = self.held.take() else {
            return;
        };
        match self.ready.pop_front() {
            Some(next) => self.dispatch(tellers, q, now, core, next),
            None => self.free.push(core),
        }
    }

    /// The tellers on a core, in the cores' order, then those in the ready
    /// line, in its order.
    pub fn wanting(&self) -> impl Iterator<Item = TellerId> + '_ {
        self.cores
            .iter()
            .filter_map(|c| c.teller)
            .chain(self.ready.iter().copied())
    }

    /// Cores in all.
    pub fn count(&self) -> u32 {
        self.cores.len() as u32
    }
}

/// The first end of a `slice`-long slice after `now`, for a run that took
/// its core at `run_start` (ns).
#[inline]
fn slice_end(run_start: Time, now: Time, slice: Time) -> Time {
    run_start + (now.saturating_sub(run_start) / slice + 1) * slice
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A teller that wants more CPU the moment its step ends (a loop with
    /// more in its line) runs on in the slice it has, with no switch, while
    /// another waits; at the slice's end the waiting one gets the core. A
    /// teller with nothing more to do gives its core to the first waiting.
    #[test]
    fn a_teller_with_more_to_do_keeps_its_core_for_its_slice() {
        let ms = 1_000_000;
        let mut tellers = Tellers::default();
        let (a, b) = (
            tellers.spawn(TellerKind::Loop),
            tellers.spawn(TellerKind::Worker),
        );
        let mut q = EventQueue::new();
        let mut cores = Cores::new(1, 4 * ms, 0);
        cores.want(&mut tellers, &mut q, 0, a, ms);
        cores.want(&mut tellers, &mut q, 0, b, 10 * ms);
        let next = |q: &mut EventQueue<Event>| loop {
            if let (at, super::super::queue::Next::Event(ev)) = q.pop().unwrap() {
                return (at, ev);
            }
        };
        // a's first step ends at 1 ms; it wants 1 ms more at once.
        let (at, ev) = next(&mut q);
        let Event::CpuDone { core, gen } = ev else {
            panic!("{ev:?}")
        };
        assert_eq!(
            (at, cores.on_cpu_done(&mut tellers, core, gen)),
            (ms, Some(a))
        );
        cores.want(&mut tellers, &mut q, at, a, ms);
        cores.release(&mut tellers, &mut q, at);
        assert_eq!(tellers.get(a).state, TellerState::OnCore);
        assert_eq!(tellers.get(b).state, TellerState::Ready);
        // Its second step ends at 2 ms; now it has nothing more to do.
        let (at, ev) = next(&mut q);
        let Event::CpuDone { core, gen } = ev else {
            panic!("{ev:?}")
        };
        assert_eq!(
            (at, cores.on_cpu_done(&mut tellers, core, gen)),
            (2 * ms, Some(a))
        );
        cores.release(&mut tellers, &mut q, at);
        assert_eq!(tellers.get(b).state, TellerState::OnCore);
        // A step longer than what is left of the slice: the slice end
        // (4 ms from when a took the core) hands it over.
        let mut q = EventQueue::new();
        let mut cores = Cores::new(1, 4 * ms, 0);
        cores.want(&mut tellers, &mut q, 0, a, ms);
        cores.want(&mut tellers, &mut q, 0, b, 10 * ms);
        let (at, ev) = next(&mut q);
        let Event::CpuDone { core, gen } = ev else {
            panic!("{ev:?}")
        };
        cores.on_cpu_done(&mut tellers, core, gen);
        cores.want(&mut tellers, &mut q, at, a, 5 * ms);
        cores.release(&mut tellers, &mut q, at);
        let (at, ev) = next(&mut q);
        assert!(matches!(ev, Event::SliceEnd { .. }), "{ev:?}");
        assert_eq!(at, 4 * ms);
        let Event::SliceEnd { core, gen } = ev else {
            unreachable!()
        };
        cores.on_slice_end(&mut tellers, &mut q, at, core, gen);
        assert_eq!(tellers.get(b).state, TellerState::OnCore);
        assert_eq!(tellers.get(a).state, TellerState::Ready);
        assert_eq!(tellers.get(a).cpu_left, 2 * ms, "3 of its 5 ms ran");
    }
}

//! The events of the heap: what can happen next to a server.

use super::dependency::{CallId, CopyId};
use super::request::{Caller, ReqId};

/// An event in the heap. The open arrival stream and the sampler have
/// their own slots in the [`EventQueue`](super::queue::EventQueue).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A closed-loop client sends its next request.
    ClientSends {
        /// The client.
        client: u32,
    },
    /// A core finishes the CPU burst it started (stale if `gen` moved on).
    CpuDone {
        /// The core.
        core: u32,
        /// The core's run when scheduled.
        gen: u32,
    },
    /// A core's time slice ends: if others wait, the teller goes to the back.
    SliceEnd {
        /// The core.
        core: u32,
        /// The core's run when scheduled.
        gen: u32,
    },
    /// A request's wait off the CPU is over.
    WaitDone {
        /// The request.
        req: ReqId,
    },
    /// A caller's timeout for request number `id` in slot `req`.
    Timeout {
        /// The request's slot.
        req: ReqId,
        /// Its arrival number (the slot may have been reused).
        id: u32,
    },
    /// A keep-alive connection sends its next request.
    ConnSends {
        /// The connection.
        conn: u32,
    },
    /// A copy of a dependency call has been served.
    DepDone {
        /// The copy.
        copy: CopyId,
    },
    /// A dependency call may be hedged now.
    HedgeDue {
        /// The call.
        call: CallId,
        /// Its request's arrival number (the call's slot may be reused).
        req_id: u32,
    },
    /// More calls to the dependency are in flight than the engine keeps
    /// ([`MAX_CALLS_IN_FLIGHT`](crate::engine::MAX_CALLS_IN_FLIGHT)): the run stops. Scheduled by the send that
    /// crosses the limit, so the loop of events pays nothing for the check.
    CallLimit,
    /// A caller tries its call again.
    Retry {
        /// Who calls.
        caller: Caller,
        /// Which try this is (1 = the first retry).
        attempt: u32,
        /// The call's class, once a try of it was let in and drawn one
        /// (true = heavy): a retry is the same call, so it is as heavy.
        heavy: Option<bool>,
    },
}

//! The event queue: a binary heap ordered by (time, sequence), plus two
//! single-event slots beside it — the next open arrival and the next
//! time-series sample — which are the most frequent events and never need
//! a heap operation.
//!
//! The guarantee: events leave in order of time, and events at equal times
//! leave in the order they were scheduled, whether they sit in the heap or
//! in a slot. Every `push` and every slot setting takes the next sequence
//! number, so the three sources merge exactly as if they were one heap.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Simulated time, ns.
pub type Time = u64;

/// Order key: (time ns, sequence number).
type Key = (Time, u64);

/// A heap entry, compared by its key only (keys are unique).
#[derive(Clone, Copy, Debug)]
struct Entry<E> {
    key: Key,
    ev: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Entry<E> {
    /// Reversed, so the std max-heap pops the earliest key.
    fn cmp(&self, o: &Self) -> Ordering {
        o.key.cmp(&self.key)
    }
}

/// What [`EventQueue::pop`] takes out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next<E> {
    /// An event from the heap.
    Event(E),
    /// The open arrival slot.
    Arrival,
    /// The sample slot.
    Sample,
}

/// Pending events in (time, sequence) order.
#[derive(Clone, Debug)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    arrival: Option<Key>,
    sample: Option<Key>,
    seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            arrival: None,
            sample: None,
            seq: 0,
        }
    }
}

impl<E: Copy> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn next_key(&mut self, at: Time) -> Key {
        self.seq += 1;
        (at, self.seq)
    }

    /// Schedules `ev` at `at` ns.
    #[inline]
    pub fn push(&mut self, at: Time, ev: E) {
        let key = self.next_key(at);
        self.heap.push(Entry { key, ev });
    }

    /// Sets the next open arrival to `at` ns (replacing any pending one).
    #[inline]
    pub fn set_arrival(&mut self, at: Time) {
        self.arrival = Some(self.next_key(at));
    }

    /// Sets the next sample to `at` ns (replacing any pending one).
    #[inline]
    pub fn set_sample(&mut self, at: Time) {
        self.sample = Some(self.next_key(at));
    }

    /// The earliest key and where it is: 0 heap, 1 arrival, 2 sample.
    #[inline]
    fn earliest(&self) -> Option<(Key, u8)> {
        let mut best = self.heap.peek().map(|e| (e.key, 0u8));
        for (slot, which) in [(self.arrival, 1u8), (self.sample, 2u8)] {
            if let Some(key) = slot {
                if best.is_none_or(|(b, _)| key < b) {
                    best = Some((key, which));
                }
            }
        }
        best
    }

    /// Time of the earliest pending event, ns.
    #[inline]
    pub fn peek_time(&self) -> Option<Time> {
        self.earliest().map(|(k, _)| k.0)
    }

    /// Takes the earliest pending event.
    #[inline]
    pub fn pop(&mut self) -> Option<(Time, Next<E>)> {
        let ((t, _), which) = self.earliest()?;
        Some(match which {
            0 => {
                let e = self.heap.pop().expect("peeked");
                (t, Next::Event(e.ev))
            }
            1 => {
                self.arrival = None;
                (t, Next::Arrival)
            }
            _ => {
                self.sample = None;
                (t, Next::Sample)
            }
        })
    }

    /// Events in the heap (the slots not counted).
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// True when nothing at all is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty() && self.arrival.is_none() && self.sample.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(q: &mut EventQueue<u32>) -> Vec<(Time, Next<u32>)> {
        std::iter::from_fn(|| q.pop()).collect()
    }

    #[test]
    fn events_leave_in_time_order() {
        let mut q = EventQueue::new();
        for (t, e) in [(30, 3), (10, 1), (20, 2)] {
            q.push(t, e);
        }
        let times: Vec<Time> = drain(&mut q).iter().map(|x| x.0).collect();
        assert_eq!(times, [10, 20, 30]);
    }

    #[test]
    fn equal_times_leave_in_the_order_scheduled_across_heap_and_slots() {
        let mut q = EventQueue::new();
        q.push(5, 1);
        q.set_sample(5);
        q.push(5, 2);
        q.set_arrival(5);
        q.push(5, 3);
        assert_eq!(
            drain(&mut q),
            [
                (5, Next::Event(1)),
                (5, Next::Sample),
                (5, Next::Event(2)),
                (5, Next::Arrival),
                (5, Next::Event(3)),
            ]
        );
    }

    #[test]
    fn a_slot_holds_one_event_and_a_new_setting_replaces_it() {
        let mut q: EventQueue<u32> = EventQueue::new();
        q.set_arrival(10);
        q.set_arrival(7);
        assert_eq!(drain(&mut q), [(7, Next::Arrival)]);
        assert!(q.is_empty());
    }

    #[test]
    fn many_equal_keys_keep_insertion_order() {
        // A heap alone is not stable: the sequence number makes it so.
        let mut q = EventQueue::new();
        for e in 0..1000u32 {
            q.push(42, e);
        }
        let out: Vec<u32> = drain(&mut q)
            .into_iter()
            .map(|(_, n)| match n {
                Next::Event(e) => e,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(out, (0..1000).collect::<Vec<_>>());
    }
}

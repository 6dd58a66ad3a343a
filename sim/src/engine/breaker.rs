//! The callers' circuit breaker (`breaker_after`, `breaker_open_ms`): after
//! that many tries in a row fail, calls fail at once for a while, without
//! reaching the server; then one call goes through as a trial, and its
//! fate alone closes the breaker or opens it again. One breaker for all
//! callers, as a client library in one calling service keeps one per
//! service it calls. Counting failures in a row (not a failure rate over a
//! window) is the simplest kind, as Nygard's *Release It!* first drew it.
//! Tries are known by their arrival number (a request's `id`).

use super::queue::Time;

/// Where the breaker is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Breaker {
    /// Calls go through; `failures` tries in a row have failed.
    Closed {
        /// Tries failed since the last answer, or since the breaker closed.
        failures: u32,
    },
    /// Calls fail at once until `until`, ns.
    Open {
        /// When the next call may go through as a trial, ns.
        until: Time,
    },
    /// Try `trial` has gone through; its answer in time closes the
    /// breaker, its failure opens it again, and calls fail at once
    /// meanwhile.
    HalfOpen {
        /// The trial's arrival number.
        trial: u32,
    },
}

impl Default for Breaker {
    fn default() -> Self {
        Breaker::Closed { failures: 0 }
    }
}

impl Breaker {
    /// Whether try `id`, arriving at `now` (ns), may go to the server. An
    /// open breaker whose time is up lets it through as its trial and is
    /// half-open from then on.
    pub fn lets_through(&mut self, now: Time, id: u32) -> bool {
        match *self {
            Breaker::Closed { .. } => true,
            Breaker::Open { until } if now >= until => {
                *self = Breaker::HalfOpen { trial: id };
                true
            }
            Breaker::Open { .. } | Breaker::HalfOpen { .. } => false,
        }
    }

    /// Try `id` failed at `now` (ns): timed out, refused, shed or dropped.
    /// The `after`-th failure in a row opens the breaker for `open_for` ns,
    /// and so does the trial's failure. Other tries failing while it is
    /// open or half-open change nothing: they were sent before it opened.
    pub fn failed(&mut self, now: Time, id: u32, after: u32, open_for: Time) {
        let open = Breaker::Open {
            until: now + open_for,
        };
        match self {
            Breaker::Closed { failures } => {
                *failures += 1;
                if *failures >= after {
                    *self = open;
                }
            }
            Breaker::HalfOpen { trial } if *trial == id => *self = open,
            Breaker::HalfOpen { .. } | Breaker::Open { .. } => {}
        }
    }

    /// Try `id` was answered in time: the count of failures in a row starts
    /// again, and the trial's answer closes a half-open breaker. Other
    /// answers while it is open or half-open change nothing.
    pub fn answered(&mut self, id: u32) {
        match *self {
            Breaker::Closed { .. } => *self = Breaker::default(),
            Breaker::HalfOpen { trial } if trial == id => *self = Breaker::default(),
            Breaker::HalfOpen { .. } | Breaker::Open { .. } => {}
        }
    }
}

/// The breaker as the animation shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BreakerView {
    /// Where it is.
    pub state: BreakerState,
    /// Failures in a row that open it (`breaker_after`).
    pub after: u32,
    /// Tries it has failed at once so far.
    pub broken: u64,
}

/// Where a breaker is, as the animation shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BreakerState {
    /// Calls go through; `failures` tries in a row have failed.
    Closed {
        /// Tries failed in a row so far.
        failures: u32,
    },
    /// Calls fail at once for `left_s` s more (0: the next call is the trial).
    Open {
        /// Time left before the next call goes through as a trial, s.
        left_s: f64,
    },
    /// The trial is out; other calls fail at once.
    HalfOpen,
}

impl Breaker {
    /// This breaker at `now` (ns), opening after `after` failures in a row,
    /// having failed `broken` tries at once.
    pub fn view(&self, now: Time, after: u32, broken: u64) -> BreakerView {
        let state = match *self {
            Breaker::Closed { failures } => BreakerState::Closed { failures },
            Breaker::Open { until } => BreakerState::Open {
                left_s: until.saturating_sub(now) as f64 / 1e9,
            },
            Breaker::HalfOpen { .. } => BreakerState::HalfOpen,
        };
        BreakerView {
            state,
            after,
            broken,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Breaker, BreakerState};

    #[test]
    fn its_view_says_where_it_is_and_how_long_it_stays_open() {
        let view = |b: Breaker, now| b.view(now, 20, 7).state;
        assert_eq!(
            view(Breaker::Closed { failures: 3 }, 0),
            BreakerState::Closed { failures: 3 }
        );
        assert_eq!(
            view(
                Breaker::Open {
                    until: 1_500_000_000
                },
                1_000_000_000
            ),
            BreakerState::Open { left_s: 0.5 }
        );
        // Its time is up, and no call has come yet to be its trial.
        assert_eq!(
            view(Breaker::Open { until: 10 }, 20),
            BreakerState::Open { left_s: 0.0 }
        );
        assert_eq!(
            view(Breaker::HalfOpen { trial: 4 }, 0),
            BreakerState::HalfOpen
        );
        let v = Breaker::default().view(0, 20, 7);
        assert_eq!((v.after, v.broken), (20, 7));
    }

    #[test]
    fn opens_after_failures_in_a_row_and_an_answer_starts_the_count_again() {
        let mut b = Breaker::default();
        b.failed(10, 1, 3, 100);
        b.failed(20, 2, 3, 100);
        b.answered(3);
        b.failed(30, 4, 3, 100);
        b.failed(40, 5, 3, 100);
        assert_eq!(b, Breaker::Closed { failures: 2 });
        assert!(b.lets_through(45, 6));
        b.failed(50, 6, 3, 100);
        assert_eq!(b, Breaker::Open { until: 150 });
    }

    #[test]
    fn open_fails_calls_until_its_time_then_lets_one_trial_through() {
        let mut b = Breaker::Open { until: 150 };
        assert!(!b.lets_through(149, 7));
        // Failures and answers of tries sent before it opened change nothing.
        b.failed(149, 5, 3, 100);
        b.answered(6);
        assert_eq!(b, Breaker::Open { until: 150 });
        assert!(b.lets_through(150, 8), "the trial");
        assert!(!b.lets_through(151, 9), "others wait for the trial");
        assert_eq!(b, Breaker::HalfOpen { trial: 8 });
        // Only the trial decides: an older try's failure or answer does not.
        b.failed(200, 5, 3, 100);
        b.answered(6);
        assert_eq!(b, Breaker::HalfOpen { trial: 8 });
        let mut reopened = b;
        reopened.failed(300, 8, 3, 100);
        assert_eq!(reopened, Breaker::Open { until: 400 });
        b.answered(8);
        assert_eq!(b, Breaker::Closed { failures: 0 });
    }
}

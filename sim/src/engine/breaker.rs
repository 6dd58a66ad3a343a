//! The callers' circuit breaker (`breaker_after`, `breaker_open_ms`): after
//! that many tries in a row fail, calls fail at once for a while, without
//! reaching the server; then one call goes through as a trial, and what
//! happens to it closes the breaker or opens it again. One breaker for all
//! callers, as a client library in one calling service keeps one per
//! service it calls. Counting failures in a row (not a failure rate over a
//! window) is the simplest kind, as Nygard's *Release It!* first drew it.

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
    /// One trial has gone through; the next try to fail or be answered
    /// decides, and calls fail at once meanwhile.
    HalfOpen,
}

impl Default for Breaker {
    fn default() -> Self {
        Breaker::Closed { failures: 0 }
    }
}

impl Breaker {
    /// Whether a try arriving at `now` (ns) may go to the server. An open
    /// breaker whose time is up lets this one through as its trial and is
    /// half-open from then on.
    pub fn lets_through(&mut self, now: Time) -> bool {
        match *self {
            Breaker::Closed { .. } => true,
            Breaker::Open { until } if now >= until => {
                *self = Breaker::HalfOpen;
                true
            }
            Breaker::Open { .. } | Breaker::HalfOpen => false,
        }
    }

    /// A try failed at `now` (ns): timed out, refused, shed or dropped. The
    /// `after`-th failure in a row opens the breaker for `open_for` ns, and
    /// so does any failure while half-open; failures while open change
    /// nothing (they are tries sent before it opened).
    pub fn failed(&mut self, now: Time, after: u32, open_for: Time) {
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
            Breaker::HalfOpen => *self = open,
            Breaker::Open { .. } => {}
        }
    }

    /// A try was answered in time: the count of failures in a row starts
    /// again, and a half-open breaker closes. An answer while open changes
    /// nothing (a try sent before it opened), so the breaker stays open
    /// for its whole time.
    pub fn answered(&mut self) {
        if !matches!(self, Breaker::Open { .. }) {
            *self = Breaker::Closed { failures: 0 };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Breaker;

    #[test]
    fn opens_after_failures_in_a_row_and_an_answer_starts_the_count_again() {
        let mut b = Breaker::default();
        b.failed(10, 3, 100);
        b.failed(20, 3, 100);
        b.answered();
        b.failed(30, 3, 100);
        b.failed(40, 3, 100);
        assert_eq!(b, Breaker::Closed { failures: 2 });
        assert!(b.lets_through(45));
        b.failed(50, 3, 100);
        assert_eq!(b, Breaker::Open { until: 150 });
    }

    #[test]
    fn open_fails_calls_until_its_time_then_lets_one_trial_through() {
        let mut b = Breaker::Open { until: 150 };
        assert!(!b.lets_through(149));
        // Failures and answers of tries sent before it opened change nothing.
        b.failed(149, 3, 100);
        b.answered();
        assert_eq!(b, Breaker::Open { until: 150 });
        assert!(b.lets_through(150), "the trial");
        assert!(!b.lets_through(151), "others wait for the trial");
        assert_eq!(b, Breaker::HalfOpen);
        let mut reopened = b;
        reopened.failed(300, 3, 100);
        assert_eq!(reopened, Breaker::Open { until: 400 });
        b.answered();
        assert_eq!(b, Breaker::Closed { failures: 0 });
    }
}

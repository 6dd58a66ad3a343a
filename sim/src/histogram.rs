//! A log-linear histogram of durations in nanoseconds: bounded memory
//! whatever the number of samples, and quantiles within 0.4 % of the truth,
//! exact where the samples near the quantile are all alike (fixed times).

/// Sub-buckets per power of two: 2^SUB_BITS. Bucket width ≤ value / 2^SUB_BITS.
const SUB_BITS: u32 = 8;
const SUB: u64 = 1 << SUB_BITS;
const BUCKETS: usize = ((64 - SUB_BITS + 1) as usize) * SUB as usize;

/// One bucket: how many samples fell in it and their sum, ns.
#[derive(Clone, Copy, Debug, Default)]
struct Bucket {
    count: u32,
    sum: f64,
}

/// Counts and sums of durations (ns) in log-linear buckets, plus the exact
/// sum and max.
#[derive(Clone, Debug)]
pub struct Histogram {
    buckets: Vec<Bucket>,
    n: u64,
    sum: f64,
    max: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram::new()
    }
}

fn index(v: u64) -> usize {
    if v < SUB {
        return v as usize;
    }
    let e = 63 - v.leading_zeros(); // ≥ SUB_BITS
    let shift = e - SUB_BITS;
    let block = (shift + 1) as usize;
    block * SUB as usize + ((v >> shift) - SUB) as usize
}

/// The smallest and one-past-largest value that land in bucket `i`.
#[cfg(test)]
fn bounds(i: usize) -> (u64, u64) {
    let block = i / SUB as usize;
    let off = (i % SUB as usize) as u64;
    if block == 0 {
        return (off, off + 1);
    }
    let shift = (block - 1) as u32;
    let lo = (SUB + off) << shift;
    (lo, lo.saturating_add(1u64 << shift))
}

impl Histogram {
    /// An empty histogram (about 230 KB).
    pub fn new() -> Histogram {
        Histogram {
            buckets: vec![Bucket::default(); BUCKETS],
            n: 0,
            sum: 0.0,
            max: 0,
        }
    }

    /// Record one duration, ns.
    #[inline]
    pub fn record(&mut self, v: u64) {
        // Through i64: one instruction on x86-64, the same value below 2^63.
        let x = v as i64 as f64;
        let b = &mut self.buckets[index(v)];
        b.count += 1;
        b.sum += x;
        self.n += 1;
        self.sum += x;
        if v > self.max {
            self.max = v;
        }
    }

    /// Number of samples.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// Exact mean, ns; 0 when empty.
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum / self.n as f64
        }
    }

    /// Exact maximum, ns.
    pub fn max(&self) -> u64 {
        self.max
    }

    /// The q-quantile (0 < q ≤ 1), ns: the mean of the samples in the
    /// bucket holding the sample of rank ⌈q·n⌉, so within the bucket's
    /// width of the truth, and exact when that bucket's samples are all one
    /// value (the middle of the bucket said 2,504 ms for requests that all
    /// took 2,500 ms). 0 when empty.
    pub fn quantile(&self, q: f64) -> f64 {
        self.quantiles([q])[0]
    }

    /// Several quantiles (each 0 < q ≤ 1, in rising order) in one pass
    /// over the buckets, ns, as [`Histogram::quantile`] gives each.
    pub fn quantiles<const N: usize>(&self, qs: [f64; N]) -> [f64; N] {
        let mut out = [0.0; N];
        if self.n == 0 {
            return out;
        }
        let ranks = qs.map(|q| ((q * self.n as f64).ceil() as u64).clamp(1, self.n));
        let mut k = 0;
        let mut seen = 0u64;
        for b in &self.buckets {
            seen += u64::from(b.count);
            while k < N && seen >= ranks[k] {
                out[k] = (b.sum / f64::from(b.count)).min(self.max as f64);
                k += 1;
            }
            if k == N {
                return out;
            }
        }
        out[k..].fill(self.max as f64);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_every_value_once() {
        for v in [
            0u64,
            1,
            255,
            256,
            257,
            511,
            512,
            1_000_000,
            10_000_000_000,
            u64::MAX,
        ] {
            let (lo, hi) = bounds(index(v));
            assert!(
                lo <= v && (v < hi || hi == u64::MAX),
                "{v} not in [{lo}, {hi})"
            );
        }
    }

    #[test]
    fn quantiles_are_within_half_a_percent() {
        let mut h = Histogram::new();
        for v in 1..=100_000u64 {
            h.record(v * 1000);
        }
        for q in [0.5, 0.9, 0.99, 0.999] {
            let truth = q * 100_000.0 * 1000.0;
            let got = h.quantile(q);
            assert!(
                (got - truth).abs() / truth < 0.004,
                "q={q}: {got} vs {truth}"
            );
        }
        assert_eq!(h.max(), 100_000_000);
        assert!((h.mean() - 50_000_500.0).abs() < 1e-6);
    }

    #[test]
    fn quantiles_of_one_repeated_value_are_that_value() {
        let mut h = Histogram::new();
        for _ in 0..1_000 {
            h.record(2_500_000_000);
        }
        for _ in 0..1_000 {
            h.record(4_500_000_000);
        }
        assert_eq!(h.quantile(0.5), 2.5e9);
        assert_eq!(h.quantile(0.9), 4.5e9);
        assert_eq!(h.quantiles([0.5, 0.5, 0.9]), [2.5e9, 2.5e9, 4.5e9]);
        // Two values in one bucket: their mean, inside the bucket.
        let mut h = Histogram::new();
        h.record(2_500_000_000);
        h.record(2_500_000_002);
        assert_eq!(h.quantile(1.0), 2_500_000_001.0);
    }

    #[test]
    fn empty_histogram_reports_zero_not_nan() {
        let h = Histogram::new();
        assert_eq!(h.quantile(0.99), 0.0);
        assert_eq!(h.mean(), 0.0);
    }
}

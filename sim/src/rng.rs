//! Randomness through `rand`: the generator is xoshiro256** from the rand
//! family (`rand_xoshiro`), seeded through SplitMix64 as its authors
//! recommend; its algorithm is fixed, so a seed gives the same stream on
//! every platform. (`rand`'s `SmallRng` is not used: it is a different
//! algorithm on 32-bit targets such as wasm32.)
//!
//! Distributions are `rand::distr::Distribution`s. The exponential is ours
//! only because it needs a logarithm: it takes `libm`'s pure-Rust `log`,
//! never the platform's, whose last bits differ between native code and
//! WebAssembly — the price of bit-identical runs everywhere.

use rand::distr::{Distribution, OpenClosed01};
use rand::{Rng as _, SeedableRng};

/// The simulator's generator.
pub type Rng = rand_xoshiro::Xoshiro256StarStar;

/// A generator for `seed`; any seed, including 0, is fine.
pub fn seeded(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// Exponential times with a given mean, by inverse transform on a uniform
/// in (0, 1] (never 0, so the logarithm is finite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exponential {
    /// The mean, in whatever unit the caller uses.
    pub mean: f64,
}

impl Distribution<f64> for Exponential {
    #[inline]
    fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        let u: f64 = rng.sample(OpenClosed01);
        -self.mean * libm::log(u)
    }
}

/// An exponential draw with mean `mean` (a shorthand for the engine's hot path).
#[inline]
pub fn exp(rng: &mut Rng, mean: f64) -> f64 {
    Exponential { mean }.sample(rng)
}

/// A uniform time in `[0, hi]` (hi ≥ 0), in the caller's unit.
#[inline]
pub fn uniform_upto(rng: &mut Rng, hi: f64) -> f64 {
    rng.random_range(0.0..=hi)
}

/// A uniform whole number in `0..n` (n > 0), unbiased.
#[inline]
pub fn below(rng: &mut Rng, n: u64) -> u64 {
    rng.random_range(0..n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngCore;

    #[test]
    fn the_stream_is_xoshiro256starstar_seeded_by_splitmix64() {
        // The reference algorithm, written out: if `rand_xoshiro` ever
        // changed its seeding or its output, every saved link would change.
        let mut x = 1u64;
        let mut split = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut s = [split(), split(), split(), split()];
        let mut next = || {
            let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
            let t = s[1] << 17;
            s[2] ^= s[0];
            s[3] ^= s[1];
            s[1] ^= s[2];
            s[0] ^= s[3];
            s[2] ^= t;
            s[3] = s[3].rotate_left(45);
            result
        };
        let mut r = seeded(1);
        for _ in 0..100 {
            assert_eq!(r.next_u64(), next());
        }
    }

    #[test]
    fn exponential_mean_is_close() {
        // 200,000 draws: the sample mean's standard error is mean/447, so 1 % is over 4 sigma.
        let mut r = seeded(7);
        let n = 200_000;
        let mean = (0..n).map(|_| exp(&mut r, 10.0)).sum::<f64>() / n as f64;
        assert!((mean - 10.0).abs() < 0.1, "{mean}");
    }

    #[test]
    fn uniform_draws_stay_in_range_and_logs_stay_finite() {
        let mut r = seeded(3);
        for _ in 0..100_000 {
            let u: f64 = r.sample(OpenClosed01);
            assert!(u > 0.0 && u <= 1.0);
            assert!(exp(&mut r, 1.0).is_finite());
            assert!(below(&mut r, 7) < 7);
        }
    }
}

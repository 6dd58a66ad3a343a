//! One event loop with its own pool of worker threads, fed by keep-alive
//! connections: the slow WAF checks handed to each loop's pool. Theory's
//! open line over the cores (M/G/c) put the mean at 85 % of the offload
//! presets at 54.5 ms where runs take about 28; this model gives 27.6.
//!
//! The model, in three parts:
//!
//! * **With N connections on the loop**, the loop and its pool are a closed
//!   network of two lines and a delay. A light request takes one step on
//!   the loop; a heavy one a hand-off on the loop, its step on a worker and
//!   the hand-off back. Between requests a connection is away (its wait and
//!   think time). Taken as a product-form network (each step random,
//!   exponential, of its line's mean; a pool of c workers serving
//!   min(j, c) of the j there at once), its normalising constants give the
//!   throughput X(N), the mean number inside, and, by the arrival theorem,
//!   the number a returning request finds at each line.
//! * **How many connections**: a birth–death process, as for one loop
//!   ([`crate::closed_loop`]): the chance of N is proportional to the
//!   product of λ ÷ X(k) for k = 1..N.
//! * **The cores** the loops and the workers share. A worker's step (tens
//!   of ms) is cut into time slices and shares a core with every other
//!   thread that wants one, so it is stretched by the mean of
//!   max(1, threads wanting a core ÷ cores), the other threads taken busy
//!   independently at their utilisations (a fixed point: the stretch makes
//!   the workers busier). A loop's step, shorter than a slice, runs to its
//!   end once on a core; its wait for a core is left out.
//!
//! The p99: a light request waits for the steps it finds at the loop and
//! its own; a heavy one for those it finds at the loop twice (taken as
//! independent draws), the hand-offs, those it finds at the pool and its
//! own. That transform is inverted as Pollaczek–Khinchine's is.
//!
//! Against ten seeds of the round-robin offload preset at 30, 50, 70, 85,
//! 90 and 95 % of the cores: means 23.6, 24.3, 25.5, 27.6, 29.0, 31.4 ms
//! where runs took 23.5, 24.2, 25.7, 28.9, 31.1, 33.2.
//!
//! Units: times in ms, rates per ms inside this module.

use crate::analytic::Cx;
use crate::closed_loop::connection_weights;

/// Most connections solved one by one: past them a request's chance of
/// coming is taken as nothing (the model is refused when it is not).
const MAX_CONNECTIONS: usize = 600;

/// A loop and its pool, as theory's model of one loop's keep-alive
/// connections where slow steps go to the loop's own workers.
#[derive(Clone, Debug, PartialEq)]
pub struct ClosedPair {
    /// A light request's step on the loop, ms.
    pub light_ms: f64,
    /// The share of heavy requests (0 < share < 1).
    pub heavy_share: f64,
    /// A heavy request's step on a worker, ms (before the cores stretch it).
    pub heavy_ms: f64,
    /// A hand-off on the loop, each way, ms.
    pub handoff_ms: f64,
    /// Workers in each loop's pool.
    pub workers: u32,
    /// Loops, each with its pool, all alike.
    pub loops: u32,
    /// Cores the loops and workers share.
    pub cores: u32,
    /// Time a connection is away from the loop between requests, ms.
    pub away_ms: f64,
    /// One loop's request rate, per ms, when the cores are fully busy.
    pub rate_at_full: f64,
}

/// The network solved at one load.
struct Solved {
    /// The time unit: the larger of the loop's and one worker's demand, ms.
    unit: f64,
    /// The loop's demand a request, in units.
    a: f64,
    /// The pool's factor for j there, in units: demand^j ÷ Π min(i, c).
    pool: Vec<f64>,
    /// Normalising constant of the loop and the delay, by population.
    g_loop: Vec<f64>,
    /// Of the pool and the delay.
    g_pool: Vec<f64>,
    /// Of the whole network.
    g: Vec<f64>,
    /// Each population's weight among returning requests: chance × X.
    arrivals: Vec<f64>,
    /// The workers' stretch by the cores.
    stretch: f64,
    /// Mean number inside (at the loop or the pool), over the populations.
    inside: f64,
    /// A loop's request rate, per ms.
    lam: f64,
}

impl ClosedPair {
    /// `None` for input that makes no sense.
    pub fn checked(self) -> Option<Self> {
        let ok = |v: f64| v.is_finite() && v > 0.0;
        (ok(self.light_ms)
            && ok(self.heavy_ms)
            && self.handoff_ms.is_finite()
            && self.handoff_ms >= 0.0
            && ok(self.away_ms)
            && ok(self.rate_at_full)
            && self.heavy_share > 0.0
            && self.heavy_share < 1.0
            && self.workers >= 1
            && self.loops >= 1
            && self.cores >= 1)
            .then_some(self)
    }

    /// The loop's demand a request, ms: light steps and two hand-offs.
    fn loop_demand(&self) -> f64 {
        let h = self.heavy_share;
        (1.0 - h) * self.light_ms + h * 2.0 * self.handoff_ms
    }

    /// How much the cores stretch a worker's step at a loop's rate `lam`,
    /// or `None` where the stretched pool cannot keep up.
    fn stretch(&self, lam: f64) -> Option<f64> {
        let c = f64::from(self.workers);
        let loops = f64::from(self.loops);
        let others = self.loops * self.workers - 1;
        // Threads that never outnumber the cores run unstretched.
        if self.loops + others < self.cores {
            return (lam * self.heavy_share * self.heavy_ms < c).then_some(1.0);
        }
        let loop_busy = (lam * self.loop_demand()).min(1.0);
        let cores = f64::from(self.cores);
        let mut s = 1.0_f64;
        for _ in 0..100 {
            let worker_busy = lam * self.heavy_share * self.heavy_ms * s / c;
            if worker_busy >= 1.0 {
                return None;
            }
            // R, the other threads wanting a core, each busy at random:
            // E[max(1, (1 + R) ÷ cores)] is (1 + E[R]) ÷ cores plus what
            // the max adds where 1 + R < cores, which needs the chance of
            // only the first cores − 1 values of R.
            let mut low = vec![0.0; self.cores as usize - 1];
            if let Some(first) = low.first_mut() {
                *first = 1.0;
            }
            let busy = std::iter::repeat_n(loop_busy, self.loops as usize)
                .chain(std::iter::repeat_n(worker_busy, others as usize));
            for u in busy {
                for i in (0..low.len()).rev() {
                    let below = if i > 0 { low[i - 1] } else { 0.0 };
                    low[i] = low[i] * (1.0 - u) + below * u;
                }
            }
            let mean_r = loops * loop_busy + f64::from(others) * worker_busy;
            let new = (1.0 + mean_r) / cores
                + low
                    .iter()
                    .enumerate()
                    .map(|(r, p)| p * (1.0 - (r + 1) as f64 / cores))
                    .sum::<f64>();
            if (new - s).abs() < 1e-12 {
                return Some(new);
            }
            s = 0.5 * (s + new);
        }
        Some(s)
    }

    fn solve(&self, rho: f64) -> Option<Solved> {
        if !(rho > 0.0 && rho < 1.0) {
            return None;
        }
        let lam = rho * self.rate_at_full;
        let stretch = self.stretch(lam)?;
        let c = self.workers as usize;
        let loop_ms = self.loop_demand();
        let pool_ms = self.heavy_share * self.heavy_ms * stretch;
        let unit = loop_ms.max(pool_ms / c as f64);
        let (a, b) = (loop_ms / unit, pool_ms / unit);
        let z = self.away_ms / unit;
        let n = MAX_CONNECTIONS;
        // Connections away so long that a quarter of the table cannot
        // keep the loop or the pool busy: refused at once, as for one loop
        // (and the delay's factors would overflow).
        if z > n as f64 / 4.0 {
            return None;
        }
        let mut delay = vec![1.0; n + 1];
        let mut pool = vec![1.0; n + 1];
        for m in 1..=n {
            delay[m] = delay[m - 1] * z / m as f64;
            pool[m] = pool[m - 1] * b / m.min(c) as f64;
        }
        let mut g_loop = vec![1.0; n + 1];
        for m in 1..=n {
            g_loop[m] = delay[m] + a * g_loop[m - 1];
        }
        // The pool convolved with `x`: Σ_j pool[j] x[m − j], where past c
        // workers each factor is the last times b ÷ c (so a running sum).
        let conv = |x: &[f64]| -> Vec<f64> {
            let mut past_c = 0.0;
            (0..=n)
                .map(|m| {
                    if m >= c {
                        past_c = pool[c] * x[m - c] + b / c as f64 * past_c;
                    }
                    (0..c.min(m + 1)).map(|j| pool[j] * x[m - j]).sum::<f64>() + past_c
                })
                .collect()
        };
        let g = conv(&g_loop);
        let g_pool = conv(&delay);
        // Throughput with k + 1 connections, per ms.
        let x: Vec<f64> = (1..=n).map(|k| g[k - 1] / g[k] / unit).collect();
        let w = connection_weights(lam, &x);
        // Refuse where connections past the table still count.
        let top = w.iter().copied().fold(0.0, f64::max);
        if top.is_nan() || top <= 0.0 || w[n] > 1e-12 * top {
            return None;
        }
        let total: f64 = w.iter().sum();
        let mut inside = 0.0;
        let mut arrivals = vec![0.0; n + 1];
        for k in 1..=n {
            inside += w[k] / total * (k as f64 - x[k - 1] * self.away_ms);
            arrivals[k] = w[k] * x[k - 1];
        }
        let sum: f64 = arrivals.iter().sum();
        if !(inside.is_finite() && sum.is_finite() && sum > 0.0) {
            return None;
        }
        arrivals.iter_mut().for_each(|v| *v /= sum);
        Some(Solved {
            unit,
            a,
            pool,
            g_loop,
            g_pool,
            g,
            arrivals,
            stretch,
            inside,
            lam,
        })
    }

    /// Mean time at the loop and the pool, ms, at `rho` (the cores'
    /// utilisation, 0 < ρ < 1): the mean number inside ÷ the rate
    /// (Little's law). `None` where the model has no answer.
    pub fn mean_inside_ms(&self, rho: f64) -> Option<f64> {
        let sv = self.solve(rho)?;
        Some(sv.inside / sv.lam)
    }

    /// The transform of a request's time at the loop and the pool at
    /// `rho`, and its mean, ms.
    pub(crate) fn time_inside_lst(&self, rho: f64) -> Option<(impl Fn(Cx) -> Cx, f64)> {
        let sv = self.solve(rho)?;
        let n = MAX_CONNECTIONS;
        // What a returning request finds, over the populations it comes
        // from (the network with one fewer: the arrival theorem).
        let mut at_loop = vec![0.0; n + 1];
        let mut at_pool = vec![0.0; n + 1];
        for (k, &p) in sv.arrivals.iter().enumerate().skip(1) {
            if p < 1e-15 {
                continue;
            }
            let m = k - 1;
            let mut ak = 1.0;
            for j in 0..=m {
                at_loop[j] += p * ak * sv.g_pool[m - j] / sv.g[m];
                at_pool[j] += p * sv.pool[j] * sv.g_loop[m - j] / sv.g[m];
                ak *= sv.a;
            }
        }
        // The far tails hold nothing the p99 can see: each transform is
        // evaluated hundreds of times, so its sums end where they do.
        for dist in [&mut at_loop, &mut at_pool] {
            let keep = dist.iter().rposition(|&p| p > 1e-16).map_or(1, |j| j + 1);
            dist.truncate(keep);
        }
        let h = self.heavy_share;
        let visits = 1.0 + h;
        let loop_step = sv.a * sv.unit / visits;
        let worker = self.heavy_ms * sv.stretch;
        let c = self.workers as usize;
        let (light, handoff) = (self.light_ms, self.handoff_ms);
        let mean = sv.inside / sv.lam;
        let lst = move |s: Cx| {
            let exp_step = |mean_ms: f64| Cx::ONE / (Cx::ONE + s.scale(mean_ms));
            // With j found: j loop steps (the one served has its whole
            // step to go, being random), or at the pool, once j ≥ c, the
            // j − c + 1 ends of a worker's step among c busy ones.
            let found = |dist: &[f64], step: Cx, free: usize| {
                let mut acc = Cx::new(0.0, 0.0);
                for (j, &p) in dist.iter().enumerate().rev() {
                    acc = acc * if j >= free { step } else { Cx::ONE } + Cx::new(p, 0.0);
                }
                acc
            };
            let at_l = found(&at_loop, exp_step(loop_step), 0);
            let at_p = found(&at_pool, exp_step(worker / c as f64), c - 1);
            let light_t = at_l * exp_step(light);
            let heavy_t = at_l * at_l * (s.scale(-2.0 * handoff)).exp() * at_p * exp_step(worker);
            light_t.scale(1.0 - h) + heavy_t.scale(h)
        };
        Some((lst, mean))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The WAF offload presets' loop: 1 ms light steps, one in twenty
    /// requests 40 ms on a worker, 0.025 ms hand-offs each way, 70 ms away.
    fn waf(workers: u32, cores: u32) -> ClosedPair {
        ClosedPair {
            light_ms: 1.0,
            heavy_share: 0.05,
            heavy_ms: 40.0,
            handoff_ms: 0.025,
            workers,
            loops: 4,
            cores,
            away_ms: 70.0,
            rate_at_full: 1.0 / 2.9525,
        }
        .checked()
        .unwrap()
    }

    /// Mean value analysis of two lines of one server each and a delay
    /// (exact for a product-form network): throughput with `n`.
    fn mva(d: [f64; 2], z: f64, n: usize) -> f64 {
        let (mut q, mut x) = ([0.0; 2], 0.0);
        for k in 1..=n {
            let r = [d[0] * (1.0 + q[0]), d[1] * (1.0 + q[1])];
            x = k as f64 / (z + r[0] + r[1]);
            q = [x * r[0], x * r[1]];
        }
        x
    }

    #[test]
    fn with_a_core_each_the_network_is_mean_value_analysis() {
        // Eight cores for four loops and four workers: nothing stretched.
        let p = waf(1, 8);
        let sv = p.solve(0.5).unwrap();
        assert!((sv.stretch - 1.0).abs() < 1e-12);
        for n in [1, 2, 10, 40, 100] {
            let x = sv.g[n - 1] / sv.g[n] / sv.unit;
            let m = mva([p.loop_demand(), 2.0], 70.0, n);
            assert!((x - m).abs() < 1e-9 * m, "{n}: {x} {m}");
        }
    }

    #[test]
    fn a_pool_of_several_workers_sums_every_state() {
        // The running sum past c workers against each state added up.
        let p = waf(3, 64);
        let sv = p.solve(0.6).unwrap();
        let c = 3usize;
        let b = sv.pool[1];
        for n in [1usize, 2, 5, 12, 30] {
            let z = p.away_ms / sv.unit;
            let mut g = 0.0;
            for i in 0..=n {
                for j in 0..=n - i {
                    let mut pool = 1.0;
                    for k in 1..=j {
                        pool *= b / k.min(c) as f64;
                    }
                    let rest = n - i - j;
                    let delay = (1..=rest).fold(1.0, |f, k| f * z / k as f64);
                    g += sv.a.powi(i as i32) * pool * delay;
                }
            }
            assert!((g - sv.g[n]).abs() < 1e-9 * g, "{n}: {g} {}", sv.g[n]);
        }
    }

    #[test]
    fn the_transforms_slope_is_the_mean() {
        for (workers, rho) in [(1, 0.3), (1, 0.85), (2, 0.9)] {
            let p = waf(workers, 4);
            let (lst, mean) = p.time_inside_lst(rho).unwrap();
            let h = 1e-5;
            let slope = (lst(Cx::new(-h, 0.0)) - lst(Cx::new(h, 0.0))).re / (2.0 * h);
            assert!(
                (slope - mean).abs() < 1e-3 * mean,
                "{workers} {rho}: {slope} {mean}"
            );
            assert!((lst(Cx::new(0.0, 0.0)).re - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn shared_cores_stretch_the_workers_steps_more_near_full_load() {
        let p = waf(1, 4);
        let s = |rho: f64| p.stretch(rho * p.rate_at_full).unwrap();
        assert!(s(0.1) < 1.001 && s(0.5) > 1.0 && s(0.85) > s(0.5) && s(0.95) > s(0.85));
        // And the mean grows with the load.
        let m = |rho| p.mean_inside_ms(rho).unwrap();
        assert!(m(0.3) < m(0.7) && m(0.7) < m(0.95));
    }

    #[test]
    fn the_stretch_needs_only_the_few_threads_below_the_cores() {
        // The stretch's mean against one over R's whole distribution.
        let p = waf(2, 4);
        let lam = 0.8 * p.rate_at_full;
        let s = p.stretch(lam).unwrap();
        let loop_busy = lam * p.loop_demand();
        let worker_busy = lam * 0.05 * 40.0 * s / 2.0;
        let mut dist = vec![1.0];
        for u in [loop_busy; 4].into_iter().chain([worker_busy; 7]) {
            let mut next = vec![0.0; dist.len() + 1];
            for (i, q) in dist.iter().enumerate() {
                next[i] += q * (1.0 - u);
                next[i + 1] += q * u;
            }
            dist = next;
        }
        let whole: f64 = dist
            .iter()
            .enumerate()
            .map(|(r, q)| q * ((r + 1) as f64 / 4.0).max(1.0))
            .sum();
        assert!((s - whole).abs() < 1e-9, "{s} {whole}");
        // A thousand workers a loop: still quick, and a long wait for cores.
        let many = ClosedPair {
            workers: 1000,
            ..waf(1, 4)
        };
        assert!(many.stretch(lam).unwrap() > 1.0);
    }

    #[test]
    fn nonsense_is_refused() {
        let ok = waf(1, 4);
        for bad in [
            ClosedPair {
                heavy_share: 0.0,
                ..ok.clone()
            },
            ClosedPair {
                heavy_share: 1.0,
                ..ok.clone()
            },
            ClosedPair {
                light_ms: f64::NAN,
                ..ok.clone()
            },
            ClosedPair {
                away_ms: 0.0,
                ..ok.clone()
            },
            ClosedPair {
                workers: 0,
                ..ok.clone()
            },
            ClosedPair {
                handoff_ms: -1.0,
                ..ok.clone()
            },
        ] {
            assert!(bad.checked().is_none());
        }
        assert!(ok.mean_inside_ms(0.0).is_none() && ok.mean_inside_ms(1.0).is_none());
        // Connections away for minutes: no table holds them, so no answer
        // (theory keeps the open line), never an overflow.
        let away = ClosedPair {
            away_ms: 600_000.0,
            ..ok
        };
        assert!(away.mean_inside_ms(0.5).is_none() && away.time_inside_lst(0.5).is_none());
    }
}

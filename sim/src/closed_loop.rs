//! One event loop fed by keep-alive connections: each connection sends its
//! next request only after the answer to its last, so a loop whose line is
//! long hears from fewer of them. An open line at the same rate (M/G/1)
//! overstates the wait the more the load and the service's spread are:
//! at 85 % of a loop of WAF checks (1 ms, one in twenty 40 ms) it says
//! 178 ms where runs take about 70.
//!
//! The model, in two layers (a decomposition in the manner of Courtois):
//!
//! * **With N connections on the loop** the loop is a closed line: each
//!   connection is at the loop (in line or served) or away (its wait step
//!   and think time, taken as one random, exponential time of their mean).
//!   The step on the loop is a mix of two random (exponential) classes.
//!   That is a small Markov chain (how many are at the loop, and the class
//!   of the one served), solved level by level, exactly: its throughput
//!   `X(N)` and the mean number at the loop `Q(N)`.
//! * **How many connections** the loop has: they come at random and each
//!   leaves once it has sent all its requests, so the number is a
//!   birth–death process whose death rate is `X(N)` ÷ requests a
//!   connection; its chance of N is proportional to the product of
//!   λ ÷ `X(k)` for k = 1..N, where λ is the loop's request rate
//!   (connections a second × requests each). The mean response at the loop
//!   is then `E[Q]` ÷ λ (Little's law).
//! * **The p99**: a request coming back finds each state with the chance
//!   of that state times the connections away, and waits for the rest of
//!   the step served, the steps in line and its own. The transform of
//!   that time, over all N, is inverted as Pollaczek–Khinchine's is
//!   ([`crate::analytic::line_then_delay_percentile_ms`]).
//!
//! Units: times in ms, rates per ms inside this module.

use crate::analytic::Cx;

/// Most connections solved one by one; beyond them a loop that is always
/// busy is taken as that (the model is refused when it is not).
const MAX_CONNECTIONS: usize = 600;

/// One loop's closed line for every number of connections up to where it
/// never rests: the table the mean response time is read from.
#[derive(Clone, Debug, PartialEq)]
pub struct ClosedLoop {
    /// Rates of the two classes' steps, per ms.
    mu: [f64; 2],
    /// The classes' shares (adding up to 1).
    share: [f64; 2],
    /// Mean time a connection is away from the loop between steps, ms.
    away_ms: f64,
    /// Throughput with k + 1 connections, steps per ms. (The mean number
    /// at the loop follows from it: [`ClosedLoop::at_loop`].)
    x: Vec<f64>,
}

impl ClosedLoop {
    /// The loop for steps of `light_ms` (a share 1 − `heavy_share`) and
    /// `heavy_ms` (the rest), both random (exponential), and connections
    /// away `away_ms` between steps. `None` for input that makes no sense
    /// or when the loop still rests now and then with
    /// [`MAX_CONNECTIONS`] connections (very long times away).
    pub fn new(light_ms: f64, heavy_ms: f64, heavy_share: f64, away_ms: f64) -> Option<Self> {
        let ok = |v: f64| v.is_finite() && v > 0.0;
        if !(ok(light_ms) && ok(heavy_ms) && ok(away_ms) && (0.0..=1.0).contains(&heavy_share)) {
            return None;
        }
        let mut lp = ClosedLoop {
            mu: [1.0 / light_ms, 1.0 / heavy_ms],
            share: [1.0 - heavy_share, heavy_share],
            away_ms,
            x: Vec::new(),
        };
        let x_max = lp.x_max();
        // The loop rests little only once the connections away cannot
        // keep it busy: well past x_max × away_ms of them (about 2 to 4
        // times that in the presets); refuse at once where that is out of
        // reach rather than solve 600 chains for nothing (4 ms).
        if x_max * away_ms > MAX_CONNECTIONS as f64 / 4.0 {
            return None;
        }
        for n in 1..=MAX_CONNECTIONS {
            let x = lp.throughput(n);
            lp.x.push(x);
            if x >= x_max * (1.0 - 1e-12) {
                return Some(lp);
            }
        }
        None
    }

    /// The loop's limit: steps per ms when it never rests.
    pub fn x_max(&self) -> f64 {
        1.0 / (self.share[0] / self.mu[0] + self.share[1] / self.mu[1])
    }

    /// Throughput, steps per ms, with `n` ≥ 1 connections.
    fn throughput(&self, n: usize) -> f64 {
        self.levels(n)
            .iter()
            .skip(1)
            .map(|l| l[0] * self.mu[0] + l[1] * self.mu[1])
            .sum()
    }

    /// Mean number at the loop (in line or served) with `n` connections
    /// whose throughput is `x` per ms: those not away, as the away ones
    /// number `x` × `away_ms` (Little's law).
    fn at_loop(&self, n: usize, x: f64) -> f64 {
        n as f64 - x * self.away_ms
    }

    /// The loop's request rate per ms at utilisation `rho` (0 < ρ < 1).
    fn rate(&self, rho: f64) -> Option<f64> {
        (rho > 0.0 && rho < 1.0).then(|| rho * self.x_max())
    }

    /// The chance of each level with `n` connections: element k holds the
    /// chances of k at the loop with each class served (level 0, empty,
    /// holds its chance in its first place and 0 in its second).
    ///
    /// The chain's levels are the number at the loop, each
    /// with the class being served: a connection away comes back at rate
    /// 1 ÷ `away_ms` (keeping the class served), a step ends at its class's
    /// rate and the next starts with a class drawn by the shares. Level
    /// k + 1 is level k times R_k = α_k M_{k+1}⁻¹, where α_k = (n − k) ÷
    /// `away_ms` and M_k = diag(α_k + μ) − α_k 1 qᵀ: the flow down from
    /// level k + 1 equals the flow up from level k (R_k μ = α_k 1), which
    /// puts each level's balance in that closed form, exactly.
    fn levels(&self, n: usize) -> Vec<[f64; 2]> {
        let (mu, q) = (self.mu, self.share);
        let away = |k: usize| (n - k) as f64 / self.away_ms;
        // α M_k⁻¹ for level k, with α = `scale`.
        let step = |k: usize, scale: f64| -> [[f64; 2]; 2] {
            let a = away(k);
            let m = inverse([
                [a * (1.0 - q[0]) + mu[0], -a * q[1]],
                [-a * q[0], a * (1.0 - q[1]) + mu[1]],
            ]);
            [
                [scale * m[0][0], scale * m[0][1]],
                [scale * m[1][0], scale * m[1][1]],
            ]
        };
        // Level 1 from the empty level: α_0 qᵀ M_1⁻¹.
        let r0 = step(1, away(0));
        let mut pi = [
            q[0] * r0[0][0] + q[1] * r0[1][0],
            q[0] * r0[0][1] + q[1] * r0[1][1],
        ];
        let mut levels = Vec::with_capacity(n + 1);
        levels.push([1.0, 0.0]);
        let mut total = 1.0;
        for k in 1..=n {
            levels.push(pi);
            total += pi[0] + pi[1];
            if k < n {
                let r = step(k + 1, away(k));
                pi = [
                    pi[0] * r[0][0] + pi[1] * r[1][0],
                    pi[0] * r[0][1] + pi[1] * r[1][1],
                ];
            }
            // Rescaled as they grow (at most about 1e7 a level).
            if total > 1e200 {
                total *= 1e-200;
                pi = [pi[0] * 1e-200, pi[1] * 1e-200];
                for l in &mut levels {
                    *l = [l[0] * 1e-200, l[1] * 1e-200];
                }
            }
        }
        for l in &mut levels {
            *l = [l[0] / total, l[1] / total];
        }
        levels
    }

    /// The transform E[e^(−sT)] of a request's time T at the loop (in line
    /// and served), at utilisation `rho` of the loop: a request that comes
    /// back finds k at the loop and the class served with the chance of
    /// that state times the connections away, and waits for the rest of
    /// the step served (random: the class's own time), k − 1 steps and
    /// its own. Past the table each more connection is one more step
    /// ahead. `None` at or past the limit.
    pub(crate) fn time_at_loop_lst(&self, rho: f64) -> Option<impl Fn(Cx) -> Cx> {
        let lam = self.rate(rho)?;
        let x_max = self.x_max();
        let w = connection_weights(lam, &self.x);
        let last = self.x.len();
        // Arrivals in each state, summed over N: (N − k) ÷ away a state.
        let mut sum = vec![[0.0; 2]; last + 1];
        let mut last_n = vec![[0.0; 2]; last + 1];
        let mut total = 0.0;
        for (n, &wn) in w.iter().enumerate().skip(1) {
            let levels = self.levels(n);
            for (k, l) in levels.iter().enumerate() {
                let back = wn * (n - k) as f64 / self.away_ms;
                sum[k] = [sum[k][0] + back * l[0], sum[k][1] + back * l[1]];
                if n == last {
                    last_n[k] = [back * l[0], back * l[1]];
                }
            }
            total += wn * self.x[n - 1];
        }
        // Past the table: N = last + j comes with weight w_last r^j and
        // its requests find j more steps ahead (`last_n` holds w_last).
        let tail_weight = rho / (1.0 - rho);
        total += w[last] * x_max * tail_weight;
        let tail_scale = x_max / self.x[last - 1];
        let (mu, q) = (self.mu, self.share);
        Some(move |s: Cx| {
            let class = |i: usize| Cx::new(mu[i], 0.0) / (Cx::new(mu[i], 0.0) + s);
            let step = class(0).scale(q[0]) + class(1).scale(q[1]);
            // Σ over k of the state's weight × its time's transform.
            let times = |weights: &[[f64; 2]]| {
                let mut poly = [Cx::new(0.0, 0.0); 2];
                for l in weights.iter().skip(1).rev() {
                    for (i, p) in poly.iter_mut().enumerate() {
                        *p = (*p + Cx::new(l[i], 0.0)) * step;
                    }
                }
                // k ≥ 1 at the loop: the rest of the step served (its
                // class's time), k − 1 steps in line and its own: the
                // class's transform × step^(k − 1) × step.
                let busy = poly[0] * class(0) + poly[1] * class(1);
                step.scale(weights[0][0] + weights[0][1]) + busy
            };
            let own = times(&sum);
            let beyond = times(&last_n).scale(tail_scale);
            let rs = step.scale(rho);
            let tail = beyond * rs / (Cx::ONE - rs);
            (own + tail).scale(1.0 / total)
        })
    }

    /// Mean time at the loop (in line and served), ms, at utilisation
    /// `rho` of the loop (a fraction); `None` at or past its limit.
    pub fn mean_at_loop_ms(&self, rho: f64) -> Option<f64> {
        if rho == 0.0 {
            return Some(1.0 / self.x_max());
        }
        let lam = self.rate(rho)?;
        let w = connection_weights(lam, &self.x);
        let (mut weight, mut queued) = (0.0, 0.0);
        for (n, &p) in w.iter().enumerate() {
            weight += p;
            if n > 0 {
                queued += p * self.at_loop(n, self.x[n - 1]);
            }
        }
        // Past the table the loop never rests: each more connection adds
        // one at the loop, and the chance falls by λ ÷ X_max = ρ a
        // connection.
        let last = self.x.len();
        let p_last = w[last];
        let q_last = self.at_loop(last, self.x[last - 1]);
        let (r, s) = (rho, 1.0 - rho);
        weight += p_last * r / s;
        queued += p_last * (q_last * r / s + r / (s * s));
        Some(queued / weight / lam)
    }
}

/// The chance of each number of connections 0..=len(x) on a loop, up to
/// a common factor (the largest is 1): connections come at random, each
/// sending requests at the loop's rate `lam` per ms in all, and leave at
/// the throughput `x[k − 1]` with k of them, so the chance of N is the
/// product of `lam` ÷ `x[k − 1]` for k up to N (a birth–death process).
pub(crate) fn connection_weights(lam: f64, x: &[f64]) -> Vec<f64> {
    let mut logs = Vec::with_capacity(x.len() + 1);
    logs.push(0.0);
    for &xk in x {
        logs.push(logs.last().copied().unwrap_or(0.0) + (lam / xk).ln());
    }
    let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    logs.iter().map(|lg| (lg - top).exp()).collect()
}

/// The inverse of a 2 × 2 matrix (the chain's are never singular: their
/// diagonals outweigh the rest).
fn inverse(m: [[f64; 2]; 2]) -> [[f64; 2]; 2] {
    let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    [
        [m[1][1] / det, -m[0][1] / det],
        [-m[1][0] / det, m[0][0] / det],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mean value analysis, exact for one random (exponential) server and
    /// an infinite-server delay: throughput and number at the server with
    /// n customers.
    fn mva(service_ms: f64, away_ms: f64, n: usize) -> (f64, f64) {
        let mut q = 0.0;
        let mut x = 0.0;
        for k in 1..=n {
            let r = service_ms * (1.0 + q);
            x = k as f64 / (away_ms + r);
            q = x * r;
        }
        (x, q)
    }

    #[test]
    fn with_one_class_the_chain_is_mean_value_analysis() {
        // Two classes of the same time are one random class: the closed
        // line is then product-form, and MVA is exact.
        let lp = ClosedLoop::new(3.0, 3.0, 0.3, 70.0).unwrap();
        for n in [1, 2, 5, 20, 40] {
            let x = lp.throughput(n);
            let q = lp.at_loop(n, x);
            let (xm, qm) = mva(3.0, 70.0, n);
            assert!((x - xm).abs() < 1e-12 * xm.max(1.0), "{n}: {x} {xm}");
            assert!((q - qm).abs() < 1e-9 * qm.max(1.0), "{n}: {q} {qm}");
        }
    }

    #[test]
    fn one_connection_never_waits() {
        let lp = ClosedLoop::new(1.0, 40.0, 0.05, 70.0).unwrap();
        let x = lp.throughput(1);
        let q = lp.at_loop(1, x);
        let s = 0.95 + 0.05 * 40.0;
        assert!((x - 1.0 / (70.0 + s)).abs() < 1e-12);
        assert!((q - s / (70.0 + s)).abs() < 1e-12);
    }

    #[test]
    fn many_connections_on_random_steps_approach_the_open_line() {
        // Each connection sends once in a long while (100 ms away, 1 ms
        // steps): about fifty of them, each rarely, are nearly the open
        // line's random arrivals, and M/M/1 at 50 % is 2 ms.
        let lp = ClosedLoop::new(1.0, 1.0, 0.0, 100.0).unwrap();
        let r = lp.mean_at_loop_ms(0.5).unwrap();
        assert!((r / 2.0 - 1.0).abs() < 0.02, "{r}");
    }

    #[test]
    fn a_mix_with_rare_long_steps_waits_far_less_than_the_open_line() {
        // WAF checks on one loop at 85 %: M/G/1 says 158 ms at the loop.
        let lp = ClosedLoop::new(1.0, 40.0, 0.05, 70.0).unwrap();
        let r = lp.mean_at_loop_ms(0.85).unwrap();
        assert!(r > 30.0 && r < 60.0, "{r}");
        // Past the limit there is no mean; no load, a step's time.
        assert_eq!(lp.mean_at_loop_ms(1.0), None);
        assert!((lp.mean_at_loop_ms(0.0).unwrap() - 2.95).abs() < 1e-9);
    }

    #[test]
    fn the_time_at_the_loop_has_the_mean_and_the_tail_it_should() {
        // Its transform is 1 at 0, and its slope there is the mean.
        let lp = ClosedLoop::new(1.0, 40.0, 0.05, 70.0).unwrap();
        for rho in [0.3, 0.85, 0.95] {
            let lst = lp.time_at_loop_lst(rho).unwrap();
            let eps = 1e-7;
            let slope = (1.0 - lst(Cx::new(eps, 0.0)).re) / eps;
            let mean = lp.mean_at_loop_ms(rho).unwrap();
            assert!((slope / mean - 1.0).abs() < 1e-3, "{rho}: {slope} {mean}");
        }
        // Many rare senders on random 1 ms steps: M/M/1 at 50 %, whose
        // time is random of mean 2 ms, so its p99 is 2 ms × ln 100.
        let lp = ClosedLoop::new(1.0, 1.0, 0.0, 100.0).unwrap();
        let lst = lp.time_at_loop_lst(0.5).unwrap();
        let none = crate::analytic::Delay::default();
        let p99 = crate::analytic::line_then_delay_percentile_ms(lst, 2.0, &none, 0.99).unwrap();
        let mm1 = 2.0 * 100f64.ln();
        assert!((p99 / mm1 - 1.0).abs() < 0.03, "{p99} {mm1}");
        assert!(lp.time_at_loop_lst(1.0).is_none(), "at the limit");
    }

    #[test]
    fn nonsense_is_refused() {
        assert!(ClosedLoop::new(0.0, 1.0, 0.1, 10.0).is_none());
        assert!(ClosedLoop::new(1.0, f64::NAN, 0.1, 10.0).is_none());
        assert!(ClosedLoop::new(1.0, 1.0, 1.5, 10.0).is_none());
        assert!(ClosedLoop::new(1.0, 1.0, 0.1, 0.0).is_none());
        // So long away that 600 connections still leave the loop resting.
        assert!(ClosedLoop::new(1.0, 1.0, 0.0, 1e6).is_none());
    }
}

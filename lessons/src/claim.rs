//! Claims: what a lesson says a scenario shows, as a check a test can run.
//!
//! A lesson states a claim in a `claim` block (TOML) and cites it where the
//! text says what the simulator shows: in a sim block's `claims` list (for
//! its caption) or with `{claim: id}` at the end of a paragraph. The build
//! checks that every such place cites a claim and that every claim is well
//! formed; `tests/claims.rs` runs every claim on each of the [`SEEDS`].
//!
//! ```toml
//! id = "cap-600-goodput"          # kebab-case, unique in the course
//! preset = "sale-day"             # optional; the default scenario otherwise
//! set = { timeout_ms = 3000, queue_limit = 600, duration_s = 60 }
//! figure = "goodput_rps"          # one of exercise::figures()
//! at_most = 60                    # and/or at_least
//! why = "24,000 requests a run; measured 34–36 rps; the bound leaves room"
//! ```
//!
//! A claim about the signs under a run's figures names one instead of a
//! figure, and says whether the run shows it (`shown` is true unless
//! given):
//!
//! ```toml
//! id = "closed-10-healthy"
//! preset = "sale-day"
//! set = { arrivals = "closed", clients = 10 }
//! sign = "healthy"                # a name from SignKind::name
//! shown = true
//! why = "10 requests inside at most, 20 threads: nothing waits"
//! ```
//!
//! Optional: `sweep_rho = 0.9` (the point of the block's curve at that
//! utilisation, as the app runs it); `ratio_to = { heavy_share = 0 }` (the
//! figure divided by the same figure of the scenario with these changes);
//! `ratio_to_theory = true` (divided by what theory predicts).

use crate::exercise::{figures_list, is_figure, report_value, scenario_from_fields};
use serde::Deserialize;
use serde_json::{Map, Value};
use tellers_sim::presets::{preset, preset_names};
use tellers_sim::signs::{read_signs, SignKind};
use tellers_sim::sweep::sweep_scenario;
use tellers_sim::theory::theory;
use tellers_sim::{simulate, Arrivals, Scenario};

/// The seeds every claim must hold on, all twenty of them. A bound that
/// holds on three seeds may still be luck: checked on seeds 1 to 20, 26 of
/// the course's 252 claims failed on at least one, and their bounds or
/// sentences were mended. So a claim states what runs show, not what one
/// run showed.
pub const SEEDS: std::ops::RangeInclusive<u64> = 1..=20;

/// Most requests one claim's run may simulate, so the claims stay quick.
pub const MAX_REQUESTS_PER_RUN: f64 = 2_000_000.0;

/// `f` of each of `items`, worked out on every core (claims run for
/// minutes on one), in the items' order.
pub fn map_on_cores<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut out: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let f = &f;
                scope.spawn(move || {
                    (w..items.len())
                        .step_by(workers)
                        .map(|i| (i, f(&items[i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a claim run panicked"))
            .collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

/// One checked statement about what a scenario shows.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// Kebab-case id, unique in the course; cited as `{claim: id}`.
    pub id: String,
    /// The preset the scenario starts from; the default scenario when `None`.
    #[serde(default)]
    pub preset: Option<String>,
    /// Scenario fields laid over the preset (snake_case, as in sim blocks).
    #[serde(default)]
    pub set: Map<String, Value>,
    /// Run the point of the curve at this utilisation instead, a share of
    /// the capacity (0–1).
    #[serde(default)]
    pub sweep_rho: Option<f64>,
    /// The report figure, one of [`figures`](crate::exercise::figures);
    /// give this or `sign`.
    #[serde(default)]
    pub figure: Option<String>,
    /// A sign the run's signs show (or, with `shown = false`, do not show),
    /// by its kebab-case name ([`SignKind::name`]): what the signs under a
    /// `stats` view read once the run has ended.
    #[serde(default)]
    pub sign: Option<String>,
    /// With `sign`: whether the run shows it (true unless given).
    #[serde(default)]
    pub shown: Option<bool>,
    /// The figure (or ratio) is at least this.
    #[serde(default)]
    pub at_least: Option<f64>,
    /// The figure (or ratio) is at most this.
    #[serde(default)]
    pub at_most: Option<f64>,
    /// Compare with a second run: the scenario with these fields changed.
    /// The claim is then about figure ÷ the second run's figure.
    #[serde(default)]
    pub ratio_to: Option<Map<String, Value>>,
    /// The claim is about figure ÷ what theory predicts for the scenario.
    #[serde(default)]
    pub ratio_to_theory: bool,
    /// Why the bound holds with room to spare for this run length.
    pub why: String,
}

/// What theory predicts for `figure` in `s`, where it predicts anything.
fn theory_figure(s: &Scenario, figure: &str) -> Option<f64> {
    let t = theory(s);
    match figure {
        "latency_mean_ms" => t.mean_ms,
        "latency_p99_ms" => t.p99_ms,
        "throughput_rps" => t.expected_rps,
        "cpu_utilisation" => t.cpu_utilisation,
        "queue_growth_per_s" => t.growth_per_s,
        "mean_busy" => t.threads_needed,
        _ => None,
    }
}

/// `fields` laid over the preset called `preset_name` (or the default
/// scenario), validated: the one way sim blocks and claims build scenarios.
pub fn scenario_with(
    preset_name: Option<&str>,
    fields: &Map<String, Value>,
) -> Result<Scenario, String> {
    let base = match preset_name {
        Some(p) => preset(p)
            .ok_or_else(|| format!("no preset '{p}'; allowed: {}", preset_names().join(", ")))?,
        None => Scenario::default(),
    };
    let mut all = serde_json::to_value(&base)
        .expect("a scenario serialises")
        .as_object()
        .cloned()
        .expect("an object");
    all.extend(fields.clone());
    scenario_from_fields(all)
}

/// Requests a run of `s` simulates, about.
fn requests_in_run(s: &Scenario) -> f64 {
    match s.arrivals {
        Arrivals::Poisson | Arrivals::Uniform => s.rps * s.duration_s,
        Arrivals::Batch => f64::from(s.count),
        Arrivals::Closed => {
            let per_client = s.mean_service_ms() + s.think_ms;
            f64::from(s.clients) * s.duration_s * 1000.0 / per_client.max(0.01)
        }
    }
    .min(s.requests.map_or(f64::INFINITY, |n| n as f64))
}

impl Claim {
    /// The scenario as stated, before any seed or sweep: what a sim block
    /// that cites this claim must show.
    pub fn base_scenario(&self) -> Result<Scenario, String> {
        scenario_with(self.preset.as_deref(), &self.set)
    }

    /// The scenario run for `seed` (the curve's point when `sweep_rho` is set).
    pub fn scenario(&self, seed: u64) -> Result<Scenario, String> {
        let s = Scenario {
            seed,
            ..self.base_scenario()?
        };
        match self.sweep_rho {
            None => Ok(s),
            Some(rho) => sweep_scenario(&s, &theory(&s), rho)
                .ok_or_else(|| "sweep_rho: this scenario has no finite capacity to sweep".into()),
        }
    }

    fn comparison(&self, seed: u64) -> Result<Option<Scenario>, String> {
        let Some(changes) = &self.ratio_to else {
            return Ok(None);
        };
        let mut fields = self.set.clone();
        fields.extend(changes.clone());
        let s = Scenario {
            seed,
            ..scenario_with(self.preset.as_deref(), &fields)?
        };
        match self.sweep_rho {
            None => Ok(Some(s)),
            Some(rho) => Ok(sweep_scenario(&s, &theory(&s), rho)),
        }
    }

    /// Everything the build can check without running: the id, the figure,
    /// the bounds, the seeds, the reason, and scenarios that are valid and
    /// quick enough to run.
    pub fn validate(&self) -> Result<(), String> {
        let at = |msg: String| format!("claim '{}': {msg}", self.id);
        let kebab = !self.id.is_empty()
            && self
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !kebab {
            return Err(at("the id must be kebab-case (a-z, 0-9, -)".into()));
        }
        match (&self.figure, &self.sign) {
            (Some(_), Some(_)) => return Err(at("give a figure or a sign, not both".into())),
            (None, None) => return Err(at("give a figure or a sign".into())),
            (Some(f), None) if !is_figure(f) => {
                return Err(at(format!(
                    "unknown figure '{f}'; allowed: {}",
                    figures_list()
                )))
            }
            (None, Some(name)) if SignKind::from_name(name).is_none() => {
                let names: Vec<&str> = SignKind::ALL.iter().map(|k| k.name()).collect();
                return Err(at(format!(
                    "unknown sign '{name}'; allowed: {}",
                    names.join(", ")
                )));
            }
            _ => {}
        }
        if self.sign.is_some() {
            if self.at_least.is_some() || self.at_most.is_some() {
                return Err(at(
                    "a sign is shown or not (shown = true or false); it has no at_least or at_most"
                        .into(),
                ));
            }
            if self.ratio_to.is_some() || self.ratio_to_theory || self.sweep_rho.is_some() {
                return Err(at(
                    "a sign is read from one run: no ratio_to, ratio_to_theory or sweep_rho".into(),
                ));
            }
        } else if self.shown.is_some() {
            return Err(at("shown goes with a sign, not a figure".into()));
        } else {
            match (self.at_least, self.at_most) {
                (None, None) => return Err(at("give at_least, at_most or both".into())),
                (Some(lo), Some(hi)) if lo > hi => {
                    return Err(at(format!("at_least {lo} is above at_most {hi}")))
                }
                _ => {}
            }
        }
        if self.why.trim().len() < 20 {
            return Err(at(
                "say in 'why' how the bound follows from the run length and what was measured"
                    .into(),
            ));
        }
        if self.ratio_to.is_some() && self.ratio_to_theory {
            return Err(at(
                "compare with another run or with theory, not both".into()
            ));
        }
        if self.sweep_rho.is_some_and(|r| !(r > 0.0 && r < 1.0)) {
            return Err(at("sweep_rho must be between 0 and 1".into()));
        }
        let s = self.scenario(*SEEDS.start()).map_err(&at)?;
        if let Some(other) = self.comparison(*SEEDS.start()).map_err(&at)? {
            if requests_in_run(&other) > MAX_REQUESTS_PER_RUN {
                return Err(at("the comparison run is too long for a quick check".into()));
            }
        }
        if requests_in_run(&s) > MAX_REQUESTS_PER_RUN {
            return Err(at(format!(
                "about {} requests a run; keep it under {MAX_REQUESTS_PER_RUN}",
                requests_in_run(&s)
            )));
        }
        if self.ratio_to_theory && theory_figure(&s, self.figure_name()).is_none() {
            return Err(at(format!(
                "theory predicts no '{}' for this scenario",
                self.figure_name()
            )));
        }
        Ok(())
    }

    /// With a sign: whether the claim is that the run shows it (`shown`,
    /// true unless given).
    fn sign_shown(&self) -> bool {
        self.shown.unwrap_or(true)
    }

    /// The figure, or the sign's name, this claim is about.
    pub fn figure_name(&self) -> &str {
        self.figure
            .as_deref()
            .or(self.sign.as_deref())
            .unwrap_or("")
    }

    /// The figure (or ratio) for `seed`; for a sign, 1 when the run shows
    /// it and 0 when not.
    pub fn measure(&self, seed: u64) -> Result<f64, String> {
        let s = self.scenario(seed)?;
        let read = |s: &Scenario| -> Result<f64, String> {
            let r = simulate(s).map_err(|e| format!("{e:?}"))?;
            if let Some(name) = &self.sign {
                let shown = read_signs(s, &r, &theory(s))
                    .iter()
                    .any(|g| g.kind.name() == name);
                return Ok(if shown { 1.0 } else { 0.0 });
            }
            report_value(&r, self.figure_name())
                .ok_or_else(|| format!("this run has no figure '{}'", self.figure_name()))
        };
        let value = read(&s)?;
        if let Some(other) = self.comparison(seed)? {
            return Ok(value / read(&other)?);
        }
        if self.ratio_to_theory {
            let t = theory_figure(&s, self.figure_name())
                .ok_or_else(|| format!("theory predicts no '{}'", self.figure_name()))?;
            return Ok(value / t);
        }
        Ok(value)
    }

    /// True when `value` is within the bounds.
    pub fn holds(&self, value: f64) -> bool {
        if self.sign.is_some() {
            return value == if self.sign_shown() { 1.0 } else { 0.0 };
        }
        value.is_finite()
            && self.at_least.is_none_or(|lo| value >= lo)
            && self.at_most.is_none_or(|hi| value <= hi)
    }

    /// The bounds as a phrase: "at least 3", "between 1 and 2".
    pub fn bounds(&self) -> String {
        if self.sign.is_some() {
            return if self.sign_shown() {
                "shown (1)"
            } else {
                "not shown (0)"
            }
            .into();
        }
        match (self.at_least, self.at_most) {
            (Some(lo), Some(hi)) => format!("between {lo} and {hi}"),
            (Some(lo), None) => format!("at least {lo}"),
            (None, Some(hi)) => format!("at most {hi}"),
            (None, None) => "unbounded".into(),
        }
    }

    /// Run the claim on every seed: the values, or what failed.
    pub fn check(&self) -> Result<Vec<f64>, String> {
        let mut values = Vec::new();
        for seed in SEEDS {
            let v = self
                .measure(seed)
                .map_err(|e| format!("claim '{}' seed {seed}: {e}", self.id))?;
            values.push(v);
        }
        if values.iter().all(|&v| self.holds(v)) {
            Ok(values)
        } else {
            Err(format!(
                "claim '{}': {} should be {} on seeds {} to {}, measured {:?}",
                self.id,
                self.figure_name(),
                self.bounds(),
                SEEDS.start(),
                SEEDS.end(),
                values
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(toml_text: &str) -> Claim {
        toml::from_str(toml_text).unwrap()
    }

    const SALE_DAY: &str = "id = \"growth\"\npreset = \"sale-day\"\nfigure = \"queue_growth_per_s\"\nat_least = 150\nat_most = 250\nwhy = \"20 s at 400 rps; measured 190 to 210 per second\"\n";

    #[test]
    fn a_true_claim_holds_on_every_seed() {
        let c = claim(SALE_DAY);
        c.validate().unwrap();
        let values = c.check().unwrap();
        assert_eq!(values.len(), 20);
    }

    #[test]
    fn a_false_claim_fails_and_says_what_was_measured() {
        let c = claim(&SALE_DAY.replace("at_least = 150", "at_least = 240"));
        let e = c.check().unwrap_err();
        assert!(
            e.contains("between 240 and 250") && e.contains("measured"),
            "{e}"
        );
    }

    #[test]
    fn ratios_compare_with_a_second_run_or_with_theory() {
        let c = claim("id = \"more-threads\"\npreset = \"sale-day\"\nfigure = \"throughput_rps\"\nratio_to = { threads = 10 }\nat_least = 1.8\nat_most = 2.2\nwhy = \"twice the threads, twice the finished rate; 8,000 requests a run\"\n");
        c.validate().unwrap();
        c.check().unwrap();
        let t = claim("id = \"mm1\"\npreset = \"mm1\"\nset = { duration_s = 300 }\nfigure = \"latency_mean_ms\"\nratio_to_theory = true\nat_least = 0.85\nat_most = 1.15\nwhy = \"24,000 requests at 80 %; the mean settles within about 10 %\"\n");
        t.validate().unwrap();
        t.check().unwrap();
    }

    #[test]
    fn a_sign_claim_reads_the_signs_under_the_figures() {
        // The sale day's pool of 20 is full while the CPU has room: the
        // signs name the pool, and the server is not healthy.
        let pool = claim("id = \"pool\"\npreset = \"sale-day\"\nsign = \"pool-limit\"\nwhy = \"400 rps for a pool that finishes 200 a second\"\n");
        pool.validate().unwrap();
        assert_eq!(pool.check().unwrap(), vec![1.0; 20]);
        assert_eq!(pool.bounds(), "shown (1)");
        let healthy = claim("id = \"healthy\"\npreset = \"sale-day\"\nsign = \"healthy\"\nshown = false\nwhy = \"400 rps for a pool that finishes 200 a second\"\n");
        healthy.validate().unwrap();
        healthy.check().unwrap();
        // Said the other way round, each fails and says what it read.
        let wrong = Claim {
            shown: Some(false),
            ..pool.clone()
        };
        let e = wrong.check().unwrap_err();
        assert!(e.contains("pool-limit should be not shown (0)"), "{e}");
        let wrong = Claim {
            shown: None,
            ..healthy.clone()
        };
        assert!(wrong.check().is_err());
    }

    #[test]
    fn bad_claims_are_refused_at_build_time() {
        let bad = |from: &str, to: &str, says: &str| {
            let e = claim(&SALE_DAY.replace(from, to)).validate().unwrap_err();
            assert!(e.contains(says), "{e}");
        };
        bad("queue_growth_per_s", "growth", "unknown figure");
        bad("at_least = 150\nat_most = 250\n", "", "give at_least");
        bad("at_least = 150", "at_least = 300", "above at_most");
        bad("sale-day", "sail-day", "no preset");
        bad(
            "why = \"20 s at 400 rps; measured 190 to 210 per second\"",
            "why = \"ok\"",
            "why",
        );
        bad("id = \"growth\"", "id = \"Growth\"", "kebab-case");
        bad(
            "figure = \"queue_growth_per_s\"",
            "",
            "give a figure or a sign",
        );
        bad(
            "figure = \"queue_growth_per_s\"",
            "figure = \"queue_growth_per_s\"\nsign = \"pool-limit\"",
            "not both",
        );
        bad(
            "figure = \"queue_growth_per_s\"\nat_least = 150\nat_most = 250",
            "sign = \"pool-full\"",
            "unknown sign 'pool-full'; allowed: pool-limit,",
        );
        bad(
            "figure = \"queue_growth_per_s\"",
            "sign = \"pool-limit\"",
            "no at_least or at_most",
        );
        bad(
            "at_least = 150",
            "at_least = 150\nshown = true",
            "shown goes with a sign",
        );
        bad(
            "figure",
            "set = { duration_s = 86000 }\nfigure",
            "requests a run",
        );
    }
}

//! The loop: a population of measured variants, children made by operators, every child
//! screened by the forecaster, only the promising and the uncertain ones timed on the GPU.
//!
//! Each generation makes [`CHILDREN`] new, valid children from parents picked by
//! tournament (measured variants, and with the surrogate the two best-forecast pending
//! ones). With the surrogate, children join a pending pool; the one with the best corrected
//! forecast is measured, and every other generation also the most uncertain one that may
//! still beat the best; a child the corrected forecaster is confident cannot beat the best
//! is dropped unmeasured (once it has been checked against two measurements). Without the
//! surrogate (the baseline), [`UNFILTERED_CHILDREN`] children a generation are measured in
//! order. Nothing depends on the budget except when to stop, so a run with budget 8 is the
//! first 8 GPU runs of one with budget 16.
//!
//! Operators that are expensive to ask (an LLM rewrite) say how many parents they take
//! each generation ([`Operator::per_generation`]): they get the best measured variants
//! they have not had yet, best first, all at once, before the knob children are made.
//! Their children go through the same checks, screening, policy and measurement. The
//! parents they get depend only on the measurements, so a search stays reproducible
//! under its seed whenever the operator's answers are.

mod mutation;
mod outcome;

use mutation::single_steps;
pub use mutation::KnobMutation;
pub use outcome::{Best, Outcome, Progress, Step, Stop};

use super::knobs::KnobSpace;
use super::surrogate::{key_of, Correction, Prediction};
use super::validate::Original;
use crate::forecast::Forecaster;
use crate::hash::ContentHash;
use crate::kernel::Kernel;
use crate::measure::protocol::{short_device, Measurement, Status};
use crate::rng::Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

/// Children made each generation with the surrogate (all screened by the forecaster).
pub const CHILDREN: usize = 8;
/// Children made (and measured) each generation without it.
pub const UNFILTERED_CHILDREN: usize = 2;
/// Measured variants kept as parents.
const POPULATION: usize = 4;
/// Generations before the search gives up finding anything new.
const MAX_GENERATIONS: u32 = 250;
/// Tries at making one new valid child before the space counts as exhausted.
const ATTEMPTS_PER_CHILD: usize = 25;
/// A child with less chance than this of beating the best is not measured (once the
/// corrected forecaster has been checked against two measurements).
const REJECT_BELOW: f64 = 0.05;
/// An uncertain child is measured only with at least this chance of beating the best.
const EXPLORE_ABOVE: f64 = 0.2;
/// With the surrogate, the first picks of the best corrected forecast are each a single
/// knob step from the original, of a knob not stepped yet (at most this many): the
/// correction learns each knob's direction before knobs are combined.
const SINGLE_STEPS: usize = 4;

/// How a search runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchConfig {
    /// GPU runs (measurements actually launched; stored results are free).
    pub budget: u32,
    pub seed: u64,
    /// Screen children with the forecaster (false: measure every child, the baseline).
    pub surrogate: bool,
}

/// What a measurer answers.
#[derive(Clone, Debug)]
pub struct Measured {
    pub measurement: Measurement,
    /// A job was launched on a GPU (false: answered from the store, or refused before running).
    pub gpu_run: bool,
    /// No GPU could take the job (none there, no worker answering): the search stops.
    pub unavailable: bool,
}

/// Times a variant (a whole file text) against the original on a GPU and checks that it
/// computes the same outputs (`wrong_result` otherwise).
pub trait Measurer {
    fn measure(&mut self, candidate: &str) -> Measured;

    /// Several variants, answered in their order (measured side by side where the
    /// measurer has several GPUs; one after the other by default).
    fn measure_many(&mut self, candidates: &[&str]) -> Vec<Measured> {
        candidates.iter().map(|c| self.measure(c)).collect()
    }
}

/// A variant to make children from.
pub struct Parent<'a> {
    pub text: &'a str,
    pub kernel: &'a Kernel,
    /// Its point in the knob space, if it is one.
    pub values: Option<&'a [i64]>,
    /// Measured speedup over the original, if measured.
    pub speedup: Option<f64>,
    /// What it is: `original`, `TILE_DIM 32→64`, `LLM rewrite: …`.
    pub description: &'a str,
}

/// A child an operator proposes.
pub struct Proposal {
    pub text: String,
    pub description: String,
    pub values: Option<Vec<i64>>,
}

/// Makes children. The knob mutations are one; a rewrite by a language model (same
/// settings as the LLM forecaster) plugs in here.
pub trait Operator {
    fn name(&self) -> &str;
    fn propose(&mut self, parent: &Parent<'_>, rng: &mut Rng) -> Option<Proposal>;

    /// `Some(n)`: an expensive operator, given at most `n` parents a generation (the best
    /// measured variants it has not had yet) through [`Operator::propose_many`]. `None`
    /// (the default): picked at random, like the knob mutations, for any child.
    fn per_generation(&self) -> Option<usize> {
        None
    }

    /// Children of several parents, in their order (worked on side by side where the
    /// operator can).
    fn propose_many(&mut self, parents: &[Parent<'_>], rng: &mut Rng) -> Vec<Option<Proposal>> {
        parents.iter().map(|p| self.propose(p, rng)).collect()
    }
}

/// A variant met during the search.
struct Child {
    text: String,
    kernel: Kernel,
    values: Option<Vec<i64>>,
    description: String,
    forecast: Option<(f64, f64)>,
    speedup: Option<f64>,
}

impl Child {
    fn view(&self) -> Parent<'_> {
        Parent {
            text: &self.text,
            kernel: &self.kernel,
            values: self.values.as_deref(),
            speedup: self.speedup,
            description: &self.description,
        }
    }
}

/// The hooks a search runs with.
pub struct Searcher<'a> {
    pub forecaster: &'a dyn Forecaster,
    pub measurer: &'a mut dyn Measurer,
    /// Operators besides the knob mutations (an LLM rewrite, say).
    pub operators: Vec<Box<dyn Operator + 'a>>,
    pub cancel: &'a AtomicBool,
    pub progress: &'a mut dyn FnMut(&Progress),
}

struct State {
    config: SearchConfig,
    rng: Rng,
    correction: Correction,
    /// Measured correct variants, best first (the original is one, at 1.0×).
    population: Vec<Child>,
    /// Screened, not yet measured (surrogate).
    pending: Vec<(Child, Prediction)>,
    seen: HashSet<ContentHash>,
    /// Parents each per-generation operator has had (its index, the parent's text).
    asked: HashSet<(usize, ContentHash)>,
    outcome: Outcome,
    generation: u32,
    /// The original's knob values, and the knobs a single step of which was measured.
    origin: Vec<i64>,
    stepped: HashSet<usize>,
}

impl Searcher<'_> {
    /// Searches for a faster variant of `original`'s kernel.
    pub fn run(mut self, original: &Original, config: &SearchConfig) -> Result<Outcome, String> {
        let space = KnobSpace::of(&original.text, &original.kernel);
        if space.knobs.is_empty() && self.operators.is_empty() {
            return Err(format!(
                "`{}` has nothing to tune: no block size, tile or other constant, unroll factor, launch bounds or Triton meta-parameter written as a literal",
                original.kernel.name
            ));
        }
        let knob_names: Vec<String> = space.knobs.iter().map(|k| k.name.clone()).collect();
        let root = Child {
            text: original.text.clone(),
            kernel: original.kernel.clone(),
            values: Some(space.original()),
            description: "original".to_string(),
            forecast: None,
            speedup: Some(1.0),
        };
        let mut st = State {
            config: config.clone(),
            rng: Rng::new(config.seed),
            correction: Correction::anchored(key_of(&space.original())),
            seen: HashSet::from([ContentHash::of(original.text.as_bytes())]),
            asked: HashSet::new(),
            population: vec![root],
            pending: Vec::new(),
            outcome: Outcome {
                kernel: original.kernel.name.clone(),
                config: config.clone(),
                forecaster: self.forecaster.id().to_string(),
                knobs: knob_names,
                steps: Vec::new(),
                runs: 0,
                cache_hits: 0,
                considered: 0,
                invalid: 0,
                rejected: 0,
                best: None,
                stop: Stop::Budget,
                note: String::new(),
            },
            generation: 0,
            origin: space.original(),
            stepped: HashSet::new(),
        };
        // Every knob one step of its domain up and down from the original: screened with
        // the first generation's children (the single steps the first picks choose from).
        let mut singles: Vec<Proposal> = if config.surrogate { single_steps(&space) } else { Vec::new() };
        let mut operators: Vec<Box<dyn Operator + '_>> = vec![Box::new(KnobMutation::new(space))];
        let (mut batched, random): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.operators).into_iter().partition(|o| o.per_generation().is_some());
        operators.extend(random);
        self.report(&st, "starting".to_string());
        st.outcome.stop = loop {
            if self.cancel.load(Ordering::SeqCst) {
                break Stop::Cancelled;
            }
            if st.outcome.runs >= config.budget || st.outcome.cache_hits >= 4 * config.budget.max(1) {
                break Stop::Budget;
            }
            st.generation += 1;
            if st.generation > MAX_GENERATIONS {
                break Stop::Exhausted;
            }
            let want = if config.surrogate { CHILDREN } else { UNFILTERED_CHILDREN };
            let mut children = self.batched_children(&mut st, &mut batched, original);
            // The single steps join the first generation (taken once).
            for p in std::mem::take(&mut singles) {
                Self::admit(&mut st, original, p, &mut children);
            }
            children.extend(self.children(&mut st, &mut operators, original, want));
            if children.is_empty() && st.pending.is_empty() {
                break Stop::Exhausted;
            }
            if config.surrogate {
                let exhausted = children.is_empty();
                self.screen(&mut st, original, children);
                if let Some(stop) = self.measure_selected(&mut st, exhausted) {
                    break stop;
                }
            } else {
                if let Some(s) = self.measure_in_order(&mut st, children) {
                    break s;
                }
            }
        };
        self.report(&st, format!("done ({})", st.outcome.stop.reason()));
        Ok(st.outcome)
    }

    fn report(&mut self, st: &State, message: String) {
        (self.progress)(&Progress {
            runs: st.outcome.runs,
            budget: st.config.budget,
            considered: st.outcome.considered,
            best: st.outcome.best_speedup(),
            message,
        });
    }

    /// Up to `want` new valid children.
    fn children(
        &mut self,
        st: &mut State,
        operators: &mut [Box<dyn Operator + '_>],
        original: &Original,
        want: usize,
    ) -> Vec<Child> {
        let mut out = Vec::new();
        let mut attempts = 0;
        while out.len() < want && attempts < want * ATTEMPTS_PER_CHILD {
            attempts += 1;
            if attempts % 16 == 0 && self.cancel.load(Ordering::SeqCst) {
                break;
            }
            // Parents: measured variants, and with the surrogate the two best-forecast pending.
            let mut parents: Vec<&Child> = st.population.iter().take(POPULATION).collect();
            let mut ranked: Vec<&(Child, Prediction)> = st.pending.iter().collect();
            ranked.sort_by(|a, b| b.1.mu.total_cmp(&a.1.mu));
            parents.extend(ranked.iter().take(2).map(|(c, _)| c));
            let n = parents.len();
            let parent = parents[st.rng.below(n).min(st.rng.below(n))];
            let op = st.rng.below(operators.len());
            let Some(p) = operators[op].propose(&parent.view(), &mut st.rng) else { continue };
            Self::admit(st, original, p, &mut out);
        }
        out
    }

    /// A proposal joins `out` if it is new and valid (else it is counted as invalid).
    fn admit(st: &mut State, original: &Original, p: Proposal, out: &mut Vec<Child>) {
        if !st.seen.insert(ContentHash::of(p.text.as_bytes())) {
            return;
        }
        match original.check(&p.text) {
            Ok(kernel) => out.push(Child {
                text: p.text,
                kernel,
                values: p.values,
                description: p.description,
                forecast: None,
                speedup: None,
            }),
            Err(why) => {
                tracing::debug!("search: discarded {}: {why}", p.description);
                st.outcome.invalid += 1;
            }
        }
    }

    /// The children of the per-generation operators: each gets the best measured variants
    /// it has not had yet, up to its number, all at once.
    fn batched_children(
        &mut self,
        st: &mut State,
        operators: &mut [Box<dyn Operator + '_>],
        original: &Original,
    ) -> Vec<Child> {
        let mut out = Vec::new();
        for (i, op) in operators.iter_mut().enumerate() {
            let n = op.per_generation().unwrap_or(0);
            if n == 0 || self.cancel.load(Ordering::SeqCst) {
                continue;
            }
            let picks: Vec<usize> = (0..st.population.len())
                .filter(|&j| st.asked.insert((i, ContentHash::of(st.population[j].text.as_bytes()))))
                .take(n)
                .collect();
            if picks.is_empty() {
                continue;
            }
            self.report(st, format!("asking {} about {} variant(s)", op.name(), picks.len()));
            let views: Vec<Parent<'_>> = picks.iter().map(|&j| st.population[j].view()).collect();
            let proposals = op.propose_many(&views, &mut st.rng);
            for p in proposals.into_iter().flatten() {
                Self::admit(st, original, p, &mut out);
            }
        }
        out
    }

    /// Forecasts every child and adds it to the pending pool, at the forecast as it is
    /// until [`Self::refresh`] corrects it (before any pick).
    fn screen(&mut self, st: &mut State, original: &Original, children: Vec<Child>) {
        for mut child in children {
            let f = self.forecaster.forecast(&original.kernel, &child.kernel);
            let x = f.speedup.max(1e-6).log2();
            let x = if x.is_finite() { x } else { 0.0 };
            let sigma = if f.sigma.is_finite() && f.sigma > 0.0 { f.sigma } else { 0.5 };
            child.forecast = Some((x, sigma));
            st.outcome.considered += 1;
            st.pending.push((child, Prediction { mu: x, sigma, p_fail: 0.0 }));
        }
    }

    /// Corrected forecasts of the pending children under the latest measurements.
    fn refresh(st: &mut State) {
        let model = st.correction.model();
        for (child, p) in st.pending.iter_mut() {
            if let Some((x, sigma)) = child.forecast {
                *p = model.predict(x, sigma, child.values.as_deref().map(key_of).as_deref());
            }
        }
    }

    /// Whether the corrected forecaster, checked against at least two measurements, is
    /// confident that this child cannot beat the best: it is not measured.
    fn rejected(st: &State, p: &Prediction) -> bool {
        st.correction.measured() >= 2 && p.p_improve(st.outcome.best_speedup().log2()) < REJECT_BELOW
    }

    /// The selective policy: measure the best corrected forecast, and every other
    /// generation the most uncertain child that may still beat the best; trust confident
    /// rejections (they stay pending, in case later measurements change the picture).
    /// Once nothing new can be made (`exhausted`), the rejected are measured after all,
    /// the likeliest to beat the best first: the budget is there to be spent.
    fn measure_selected(&mut self, st: &mut State, exhausted: bool) -> Option<Stop> {
        for pick in 0..2 {
            if pick == 1 && st.generation % 2 == 1 && st.stepped.len() >= SINGLE_STEPS {
                break;
            }
            Self::refresh(st);
            let best = st.outcome.best_speedup().log2();
            let open = |(i, (_, p)): (usize, &(Child, Prediction))| (!Self::rejected(st, p)).then_some((i, *p));
            let score = |p: &Prediction| p.mu - 2.0 * p.p_fail;
            let promising = st
                .pending
                .iter()
                .enumerate()
                .filter_map(open)
                .max_by(|a, b| score(&a.1).total_cmp(&score(&b.1)))
                .map(|(i, _)| i);
            // While knobs are left to step: a single knob step from the original, of a knob
            // not stepped yet, the best (in both picks); a rewrite that is the best goes first.
            let rewrite = promising.filter(|&i| pick == 0 && st.pending[i].0.values.is_none());
            let single = (st.stepped.len() < SINGLE_STEPS && rewrite.is_none())
                .then(|| {
                    st.pending
                        .iter()
                        .enumerate()
                        .filter(|(_, (c, _))| Self::single_knob(st, c).is_some_and(|k| !st.stepped.contains(&k)))
                        .filter_map(open)
                        .max_by(|a, b| score(&a.1).total_cmp(&score(&b.1)))
                        .map(|(i, _)| i)
                })
                .flatten();
            let choice = if single.is_some() {
                single
            } else if pick == 0 {
                promising.or_else(|| {
                    let likeliest = st.pending.iter().enumerate().max_by(|a, b| {
                        a.1 .1.p_improve(best).total_cmp(&b.1 .1.p_improve(best)).then(a.1 .1.mu.total_cmp(&b.1 .1.mu))
                    });
                    likeliest.filter(|_| exhausted).map(|(i, _)| i)
                })
            } else {
                st.pending
                    .iter()
                    .enumerate()
                    .filter_map(open)
                    .filter(|(_, p)| p.p_improve(best) >= EXPLORE_ABOVE)
                    .max_by(|a, b| a.1.sigma.total_cmp(&b.1.sigma))
                    .map(|(i, _)| i)
            };
            let Some(i) = choice else { break };
            let (child, p) = st.pending.remove(i);
            if let Some(stop) = self.measure(st, child, Some(p)) {
                return Some(stop);
            }
        }
        st.outcome.rejected = st.pending.iter().filter(|(_, p)| Self::rejected(st, p)).count() as u32;
        None
    }

    /// The knob a child changes, if it changes exactly one from the original.
    fn single_knob(st: &State, child: &Child) -> Option<usize> {
        let values = child.values.as_deref()?;
        let mut changed = values.iter().zip(&st.origin).enumerate().filter(|(_, (a, b))| a != b).map(|(i, _)| i);
        let knob = changed.next()?;
        changed.next().is_none().then_some(knob)
    }

    /// Measures children in their order until the budget is spent: as many at once as
    /// the budget left allows (each costs at most one run, so none is measured that the
    /// one-by-one loop would not have measured), their results taken in order.
    fn measure_in_order(&mut self, st: &mut State, children: Vec<Child>) -> Option<Stop> {
        let mut children = children.into_iter().peekable();
        while children.peek().is_some() {
            if st.outcome.runs >= st.config.budget {
                return Some(Stop::Budget);
            }
            if self.cancel.load(Ordering::SeqCst) {
                return Some(Stop::Cancelled);
            }
            // The first run alone: it also proves the base builds and runs, and a base that
            // does not stops the search after that one run.
            let room = if st.outcome.runs == 0 { 1 } else { st.config.budget - st.outcome.runs };
            let batch: Vec<Child> = children.by_ref().take(room as usize).collect();
            self.report(st, format!("measuring {} variant(s)", batch.len()));
            let texts: Vec<&str> = batch.iter().map(|c| c.text.as_str()).collect();
            let results = self.measurer.measure_many(&texts);
            for (child, measured) in batch.into_iter().zip(results) {
                if self.cancel.load(Ordering::SeqCst) {
                    return Some(Stop::Cancelled);
                }
                st.outcome.considered += 1;
                if let Some(stop) = self.apply(st, child, None, measured) {
                    return Some(stop);
                }
            }
        }
        None
    }

    /// Measures one child (unless the budget is spent or the search cancelled).
    fn measure(&mut self, st: &mut State, child: Child, predicted: Option<Prediction>) -> Option<Stop> {
        if self.cancel.load(Ordering::SeqCst) {
            return Some(Stop::Cancelled);
        }
        if st.outcome.runs >= st.config.budget {
            return Some(Stop::Budget);
        }
        self.report(st, format!("measuring {}", child.description));
        let measured = self.measurer.measure(&child.text);
        self.apply(st, child, predicted, measured)
    }

    /// Takes a child's measurement into the search.
    fn apply(
        &mut self,
        st: &mut State,
        mut child: Child,
        predicted: Option<Prediction>,
        measured: Measured,
    ) -> Option<Stop> {
        let Measured { measurement: m, gpu_run, unavailable } = measured;
        if unavailable {
            st.outcome.note = m.headline();
            return Some(Stop::Unavailable);
        }
        let cached = !gpu_run;
        if cached {
            st.outcome.cache_hits += 1;
        } else {
            st.outcome.runs += 1;
        }
        let speedup = m.speedup.filter(|s| m.status == Status::Ok && s.is_finite() && *s > 0.0);
        if let Some(k) = Self::single_knob(st, &child) {
            st.stepped.insert(k);
        }
        if let Some((x, _)) = child.forecast {
            st.correction.observe(x, speedup.map(f64::log2), child.values.as_deref().map(key_of));
        }
        child.speedup = speedup;
        if let Some(s) = speedup {
            if s > st.outcome.best_speedup() {
                st.outcome.best = Some(Best {
                    text: child.text.clone(),
                    description: child.description.clone(),
                    speedup: s,
                    ci_low: m.ci_low,
                    ci_high: m.ci_high,
                    device: m.device.as_ref().map(|d| short_device(&d.name)),
                    headline: m.headline(),
                });
            }
        }
        st.outcome.steps.push(Step {
            run: (!cached).then_some(st.outcome.runs),
            generation: st.generation,
            description: child.description.clone(),
            forecast: child.forecast.map(|(x, _)| x.exp2()),
            predicted: predicted.map(|p| p.mu.exp2()),
            status: m.status,
            speedup,
            headline: m.headline(),
            considered: st.outcome.considered,
            best: st.outcome.best_speedup(),
        });
        // Every job runs the original too: if it does not build or run, nothing can be
        // compared with it, and every further run would fail the same way.
        let base_failed = m.which.as_deref() == Some("base")
            && matches!(m.status, Status::CompileError | Status::Fault | Status::Error);
        let detail = m.message.lines().filter(|l| !l.trim().is_empty()).take(6).collect::<Vec<_>>().join("\n");
        if base_failed {
            st.outcome.note = format!("{}: {detail}", m.headline().replace("base", "the original"));
            self.report(st, st.outcome.note.clone());
            return Some(Stop::BaseFailed);
        }
        let message = match m.status {
            Status::Ok => format!("{}: {}", child.description, m.headline()),
            _ => format!("{}: {} ({})", child.description, m.headline(), detail.lines().next().unwrap_or("")),
        };
        if speedup.is_some() {
            st.population.push(child);
            st.population.sort_by(|a, b| b.speedup.unwrap_or(0.0).total_cmp(&a.speedup.unwrap_or(0.0)));
            st.population.truncate(POPULATION);
        }
        self.report(st, message);
        None
    }
}

#[cfg(test)]
mod tests;

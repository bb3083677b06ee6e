//! The knob operator: children that change one to three knobs of a parent; and the single
//! knob steps from the original that the first picks of a screened search choose from.

use super::{Operator, Parent, Proposal};
use crate::rng::Rng;
use crate::search::knobs::KnobSpace;

/// Changes one to three knobs of a parent, mostly by one or two steps of their domains.
pub struct KnobMutation {
    space: KnobSpace,
}

impl KnobMutation {
    pub fn new(space: KnobSpace) -> Self {
        Self { space }
    }
}

impl Operator for KnobMutation {
    fn name(&self) -> &str {
        "knobs"
    }

    fn propose(&mut self, parent: &Parent<'_>, rng: &mut Rng) -> Option<Proposal> {
        let Some(values) = parent.values else {
            // A rewrite (by the LLM): the knobs of its own text, from its own values.
            let space = KnobSpace::of(parent.text, parent.kernel);
            let values = mutate(&space, space.original(), rng)?;
            let what = parent.description.split(':').next().unwrap_or(parent.description);
            return Some(Proposal {
                text: space.render(&values),
                description: format!("{what} + {}", space.describe(&values)),
                values: None,
            });
        };
        let values = mutate(&self.space, values.to_vec(), rng)?;
        Some(Proposal {
            text: self.space.render(&values),
            description: self.space.describe(&values),
            values: Some(values),
        })
    }
}

/// One to three knobs of `values` changed, mostly by one or two steps of their domains.
fn mutate(space: &KnobSpace, mut values: Vec<i64>, rng: &mut Rng) -> Option<Vec<i64>> {
    let knobs = &space.knobs;
    if knobs.is_empty() || values.len() != knobs.len() {
        return None;
    }
    let roll = rng.unit();
    let changes = if roll < 0.6 {
        1
    } else if roll < 0.9 {
        2
    } else {
        3
    }
    .min(knobs.len());
    let mut touched = Vec::new();
    while touched.len() < changes {
        let i = rng.below(knobs.len());
        if touched.contains(&i) || knobs[i].domain.len() < 2 {
            if knobs.iter().all(|k| k.domain.len() < 2) {
                return None;
            }
            continue;
        }
        touched.push(i);
        let domain = &knobs[i].domain;
        let at = domain.iter().position(|v| *v == values[i]).unwrap_or(0) as i64;
        let next = if rng.chance(0.8) {
            let step = if rng.chance(0.75) { 1 } else { 2 };
            let dir = if rng.chance(0.5) { 1 } else { -1 };
            let mut j = at + dir * step;
            if j < 0 || j >= domain.len() as i64 {
                j = at - dir * step;
            }
            j.clamp(0, domain.len() as i64 - 1)
        } else {
            rng.below(domain.len()) as i64
        };
        values[i] = domain[if next == at { (at as usize + 1) % domain.len() } else { next as usize }];
    }
    Some(values)
}

/// Every knob one step of its domain up and down from the original, knob by knob.
pub(super) fn single_steps(space: &KnobSpace) -> Vec<Proposal> {
    let origin = space.original();
    let mut out = Vec::new();
    for (i, knob) in space.knobs.iter().enumerate() {
        let Some(at) = knob.domain.iter().position(|v| *v == knob.value) else { continue };
        let near = [at.checked_sub(1), (at + 1 < knob.domain.len()).then_some(at + 1)];
        for j in near.into_iter().flatten() {
            let mut values = origin.clone();
            values[i] = knob.domain[j];
            out.push(Proposal {
                text: space.render(&values),
                description: space.describe(&values),
                values: Some(values),
            });
        }
    }
    out
}

//! The LLM surrogate as a pair forecaster: prompt → chat → parsed bins → `Forecast`,
//! cached by content hash, and its ensemble with the embedded forecast. Any failure
//! leaves the embedded forecast, with the reason among its reasons.

use super::client::{ChatClient, ChatOptions, LlmError};
use super::LlmConfig;
use kforecast_core::cache::ForecastCache;
use kforecast_core::forecast::llm_prompt::{self, PairContext, PROMPT_VERSION};
use kforecast_core::forecast::{ensemble, Forecast, Member, Pool};
use std::sync::Arc;

pub struct LlmForecaster {
    client: ChatClient,
    cache: Arc<ForecastCache>,
    weight: f64,
    id: String,
}

/// Threads one [`LlmForecaster::ensemble_pairs`] uses at most (the client's own limit on
/// requests in flight still holds).
const MAX_THREADS: usize = 16;

impl LlmForecaster {
    /// A surrogate for `config`, caching its forecasts in `cache` (memory and store).
    pub fn new(config: &LlmConfig, cache: Arc<ForecastCache>) -> Result<Self, LlmError> {
        let client = ChatClient::new(config)?;
        let id = format!("llm:{}/{PROMPT_VERSION}", client.model());
        Ok(Self { client, cache, weight: config.weight, id })
    }

    /// Name, model and prompt version; part of every cache key.
    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn client(&self) -> &ChatClient {
        &self.client
    }

    pub fn weight(&self) -> f64 {
        self.weight
    }

    /// The LLM's forecast of one pair, from the cache or from the endpoint. Only good
    /// answers are cached.
    pub fn forecast(&self, ctx: &PairContext) -> Result<Forecast, LlmError> {
        let key = ctx.key(&self.id);
        if let Some(f) = self.cache.get(&key) {
            return Ok(f);
        }
        let options = ChatOptions { json: true, ..ChatOptions::default() };
        let text = self.client.chat(&llm_prompt::messages(ctx), &options)?;
        let answer = llm_prompt::parse_reply(&text)?;
        let reasons = answer.why.map(|w| format!("LLM: {w}")).into_iter().collect();
        let f = Forecast::from_bins(answer.bins, &self.id, reasons);
        self.cache.put(key, &f);
        Ok(f)
    }

    /// The embedded forecast ensembled with the LLM's forecast of the pair (see
    /// [`combine`]); a pair the embedded forecaster knows to be the same kernel is not sent.
    pub fn ensemble(&self, embedded: Forecast, ctx: &PairContext) -> Forecast {
        if embedded.identical {
            return embedded;
        }
        combine(embedded, &self.forecast(ctx), self.weight)
    }

    /// [`LlmForecaster::ensemble`] of several pairs, requested side by side (at most the
    /// client's concurrency in flight), in the order given.
    pub fn ensemble_pairs(&self, pairs: &[(Forecast, PairContext)]) -> Vec<Forecast> {
        let per_thread = pairs.len().div_ceil(MAX_THREADS).max(1);
        std::thread::scope(|s| {
            let threads: Vec<_> = pairs
                .chunks(per_thread)
                .map(|chunk| {
                    s.spawn(move || chunk.iter().map(|(f, ctx)| self.ensemble(f.clone(), ctx)).collect::<Vec<_>>())
                })
                .collect();
            threads.into_iter().flat_map(|t| t.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
        })
    }
}

/// The embedded forecast ensembled with the LLM's (linear pool, the LLM weighted
/// `weight`), or, if the LLM failed, the embedded forecast with the reason.
pub fn combine<E: std::fmt::Display>(embedded: Forecast, llm: &Result<Forecast, E>, weight: f64) -> Forecast {
    match llm {
        Ok(l) => {
            let members = [Member { forecast: &embedded, weight: 1.0 - weight }, Member { forecast: l, weight }];
            ensemble(&members, Pool::Linear).unwrap_or(embedded)
        }
        Err(e) => {
            let mut f = embedded;
            f.reasons.push(format!("LLM surrogate unavailable ({e}); embedded forecast only"));
            f
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kforecast_core::bins::BinProbs;

    #[test]
    fn a_failure_leaves_the_embedded_forecast_with_the_reason() {
        let embedded = Forecast::from_log2_normal(0.5, 0.3, "embedded", vec!["fewer passes".into()]);
        let f = combine(embedded.clone(), &Err(LlmError::Timeout(std::time::Duration::from_secs(2))), 0.5);
        assert_eq!(f.bins, embedded.bins);
        assert_eq!(f.forecaster, "embedded");
        assert_eq!(f.reasons[0], "fewer passes", "the model's reason stays first");
        assert!(f.reasons[1].contains("LLM surrogate unavailable (no answer within 2.0 s)"), "{:?}", f.reasons);
        let llm = Forecast::from_bins(BinProbs([0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]), "llm:m/p1", Vec::new());
        let g = combine(embedded.clone(), &Ok::<_, LlmError>(llm), 0.25);
        assert_eq!(g.forecaster, "ensemble(embedded ×0.75, llm:m/p1 ×0.25)");
        assert!((g.bins.0[5] - (0.75 * embedded.bins.0[5] + 0.25)).abs() < 1e-9);
        // Weight 0: the LLM is asked but does not count.
        let h = combine(embedded.clone(), &Ok::<_, LlmError>(Forecast::same_kernel("llm")), 0.0);
        assert_eq!(h, embedded);
    }
}

//! The search's LLM rewrite operator: asks the chat endpoint of the LLM surrogate's
//! settings for a faster version of a parent variant's kernel (the prompt and the reading
//! of the answer are the core's, `search::rewrite`), and proposes the file with it spliced
//! in. The search then treats the proposal like a knob child: the validity checks, the
//! forecaster's screening, the selective policy and, once measured, the correctness check.
//!
//! At most `rewrites` parents a generation (`kforecast.llm.rewrites`, `--llm-rewrites`,
//! default 2) are asked about, side by side, and the answers are taken in the parents'
//! order, so the search does not depend on which answer comes first. Every answer the
//! model gives is kept, in memory and in the store, by the content hash of what the prompt
//! is made of (the parent's file text, the kernel, the device), the model and the prompt
//! version: the same search again asks nothing. Failed requests (timeouts, HTTP errors)
//! are not kept. An unusable answer is refused (logged at debug level, with the reason).

use super::client::{ChatClient, ChatOptions, LlmError};
use super::LlmConfig;
use kforecast_core::forecast::llm_prompt::one_line;
use kforecast_core::hash::ContentHash;
use kforecast_core::rng::Rng;
use kforecast_core::search::rewrite::{self, PROMPT_VERSION};
use kforecast_core::search::{Operator, Parent, Proposal};
use kforecast_core::store::{Store, Table};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Parents asked about per generation unless set otherwise.
pub const DEFAULT_REWRITES: usize = 2;
/// The most that may be set.
pub const MAX_REWRITES: usize = 8;

/// How often a wait for answers looks at the search's cancel flag.
const POLL: Duration = Duration::from_millis(50);

/// What identifies the operator's answers and its share of a search (for outcome keys).
pub fn id(config: &LlmConfig) -> String {
    format!("llm-rewrite:{}/{PROMPT_VERSION}x{}", config.model.trim(), config.rewrites)
}

pub struct LlmRewrite<'a> {
    client: Arc<ChatClient>,
    device: String,
    per_generation: usize,
    store: Option<Arc<Store>>,
    /// Answers had during this search, by key.
    memo: HashMap<ContentHash, String>,
    cancel: &'a AtomicBool,
    name: String,
}

impl<'a> LlmRewrite<'a> {
    /// The operator for `config` (its endpoint must be set), prompting for `device`,
    /// keeping answers in `store`; a wait for answers ends when `cancel` is set.
    pub fn new(
        config: &LlmConfig,
        device: &str,
        store: Option<Arc<Store>>,
        cancel: &'a AtomicBool,
    ) -> Result<Self, LlmError> {
        let client = ChatClient::new(config)?;
        let name = format!("LLM rewrite ({})", client.model());
        Ok(Self {
            client: Arc::new(client),
            device: device.to_string(),
            per_generation: config.rewrites.min(MAX_REWRITES),
            store,
            memo: HashMap::new(),
            cancel,
            name,
        })
    }

    fn stored(&self, key: &ContentHash) -> Option<String> {
        if let Some(text) = self.memo.get(key) {
            return Some(text.clone());
        }
        let bytes = self.store.as_ref()?.get(Table::Searches, key).ok()??;
        String::from_utf8(bytes).ok()
    }

    fn keep(&mut self, key: ContentHash, text: &str) {
        if let Some(store) = &self.store {
            if let Err(e) = store.put_many(Table::Searches, &[(key, text.as_bytes().to_vec())]) {
                tracing::debug!("LLM rewrite: could not store an answer: {e}");
            }
        }
        self.memo.insert(key, text.to_string());
    }

    /// The answers for `parents` (kept ones, the rest asked side by side), in their order;
    /// `None` where the request failed or the search was cancelled while waiting.
    fn answers(&mut self, parents: &[Parent<'_>]) -> Vec<Option<String>> {
        let keys: Vec<ContentHash> =
            parents.iter().map(|p| rewrite::key(self.client.model(), p, &self.device)).collect();
        let mut out: Vec<Option<String>> = keys.iter().map(|k| self.stored(k)).collect();
        let (tx, rx) = mpsc::channel();
        let mut waiting = 0;
        for (i, p) in parents.iter().enumerate().filter(|(i, _)| out[*i].is_none()) {
            let messages = rewrite::messages(p, &self.device);
            let (client, tx) = (self.client.clone(), tx.clone());
            waiting += 1;
            // A thread of its own, so that a cancelled search need not wait for the answer.
            std::thread::spawn(move || {
                let _ = tx.send((i, client.chat(&messages, &ChatOptions::default())));
            });
        }
        drop(tx);
        let deadline = Instant::now() + self.client.budget() + Duration::from_secs(1);
        while waiting > 0 {
            if self.cancel.load(Ordering::SeqCst) {
                tracing::debug!("LLM rewrite: cancelled while waiting for {waiting} answer(s)");
                break;
            }
            match rx.recv_timeout(POLL) {
                Ok((i, answer)) => {
                    waiting -= 1;
                    match answer {
                        Ok(text) => {
                            self.keep(keys[i], &text);
                            out[i] = Some(text);
                        }
                        Err(e) => tracing::debug!(
                            "LLM rewrite of `{}` ({}): no answer: {e}",
                            parents[i].kernel.name,
                            parents[i].description
                        ),
                    }
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(_) => break,
            }
        }
        out
    }
}

impl Operator for LlmRewrite<'_> {
    fn name(&self) -> &str {
        &self.name
    }

    fn propose(&mut self, parent: &Parent<'_>, rng: &mut Rng) -> Option<Proposal> {
        self.propose_many(std::slice::from_ref(parent), rng).pop().flatten()
    }

    fn per_generation(&self) -> Option<usize> {
        Some(self.per_generation)
    }

    fn propose_many(&mut self, parents: &[Parent<'_>], _rng: &mut Rng) -> Vec<Option<Proposal>> {
        let answers = self.answers(parents);
        parents
            .iter()
            .zip(answers)
            .map(|(parent, answer)| {
                let answer = answer?;
                match rewrite::apply(parent, &answer) {
                    Ok(r) => Some(Proposal { description: describe(parent, &r.summary), text: r.text, values: None }),
                    Err(e) => {
                        tracing::debug!(
                            "LLM rewrite of `{}` ({}) refused: {e}",
                            parent.kernel.name,
                            parent.description
                        );
                        None
                    }
                }
            })
            .collect()
    }
}

/// `LLM rewrite: shared-memory tiles`, `LLM rewrite of [BLOCK_X 32→64]: …`.
fn describe(parent: &Parent<'_>, summary: &str) -> String {
    let what = if parent.description == "original" {
        "LLM rewrite".to_string()
    } else {
        format!("LLM rewrite of [{}]", one_line(parent.description, 80))
    };
    if summary.trim().is_empty() {
        what
    } else {
        format!("{what}: {}", one_line(summary, 100))
    }
}

/// The settings when they turn rewrites on: an endpoint, and `rewrites` above 0.
pub fn active(config: Option<&LlmConfig>) -> Option<&LlmConfig> {
    config.filter(|c| c.enabled() && c.rewrites > 0)
}

/// The search's LLM operators for these settings: none unless [`active`].
pub fn operators<'a>(
    config: Option<&LlmConfig>,
    device: &str,
    store: Option<Arc<Store>>,
    cancel: &'a AtomicBool,
) -> Result<Vec<Box<dyn Operator + 'a>>, LlmError> {
    match active(config) {
        None => Ok(Vec::new()),
        Some(c) => Ok(vec![Box::new(LlmRewrite::new(c, device, store, cancel)?)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_endpoint_or_no_rewrites_means_no_operator() {
        let cancel = AtomicBool::new(false);
        assert!(operators(None, "H100", None, &cancel).expect("none").is_empty());
        let off = LlmConfig::default();
        assert!(!off.enabled());
        assert!(operators(Some(&off), "H100", None, &cancel).expect("off").is_empty());
        let on = LlmConfig { endpoint: "http://127.0.0.1:9/v1".into(), model: "m".into(), ..LlmConfig::default() };
        let ops = operators(Some(&on), "H100", None, &cancel).expect("on");
        assert_eq!(ops.len(), 1);
        assert_eq!(ops[0].per_generation(), Some(DEFAULT_REWRITES));
        assert_eq!(ops[0].name(), "LLM rewrite (m)");
        let zero = LlmConfig { rewrites: 0, ..on.clone() };
        assert!(operators(Some(&zero), "H100", None, &cancel).expect("zero").is_empty());
        assert!(id(&on).starts_with("llm-rewrite:m/") && id(&on) != id(&zero));
    }
}

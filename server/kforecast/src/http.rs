//! The blocking HTTP client the GPU worker pool and the LLM surrogate share.

use std::sync::OnceLock;
use std::time::Duration;

/// A blocking HTTP client made on first use and dropped on a thread of its own: reqwest's
/// blocking client may be neither built nor dropped on the server's async threads (where
/// settings are applied), only where requests run.
pub struct HttpClient {
    connect_timeout: Duration,
    /// Time limit of a whole request (a request may set a shorter one).
    timeout: Duration,
    client: OnceLock<reqwest::blocking::Client>,
}

impl HttpClient {
    pub fn new(connect_timeout: Duration, timeout: Duration) -> Self {
        Self { connect_timeout, timeout, client: OnceLock::new() }
    }

    pub fn get(&self) -> Result<&reqwest::blocking::Client, String> {
        if let Some(c) = self.client.get() {
            return Ok(c);
        }
        let c = reqwest::blocking::Client::builder()
            .connect_timeout(self.connect_timeout)
            .timeout(self.timeout)
            .build()
            .map_err(|e| e.to_string())?;
        Ok(self.client.get_or_init(|| c))
    }
}

impl Drop for HttpClient {
    fn drop(&mut self) {
        if let Some(c) = self.client.take() {
            std::thread::spawn(move || drop(c));
        }
    }
}

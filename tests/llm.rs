//! The LLM surrogate against a fake OpenAI-compatible endpoint on loopback: good,
//! malformed, partial, slow and rate-limited replies, the API key, the cache and the
//! limit on requests in flight, through the real `kforecast` command line.

mod common;

use common::binary;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const KEY: &str = "sk-test-5ecret-key-4242";

/// What the fake endpoint does with one request.
enum Reply {
    /// A chat completion whose message content is this text.
    Answer(String),
    /// This HTTP status, an optional `Retry-After`, and a body.
    Status(u16, Option<&'static str>, String),
    /// Headers promising a long body, part of it, then the connection is dropped.
    CutOff,
    /// Waits, then answers.
    Slow(Duration, String),
    /// Sends the headers, then the body one byte every 100 ms.
    Trickle(String),
}

/// One request the endpoint saw.
#[derive(Clone, Debug)]
struct Seen {
    authorization: Option<String>,
    body: Value,
}

/// A fake chat-completions endpoint: one thread per connection, each answer chosen by
/// a script from the request's number (0-based) and body.
struct Fake {
    url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    max_in_flight: Arc<AtomicUsize>,
}

impl Fake {
    fn start(script: impl Fn(usize, &Value) -> Reply + Send + Sync + 'static) -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("addr");
        let seen = Arc::new(Mutex::new(Vec::new()));
        let in_flight = Arc::new(AtomicUsize::new(0));
        let max_in_flight = Arc::new(AtomicUsize::new(0));
        let script = Arc::new(script);
        let (s, inf, max) = (seen.clone(), in_flight.clone(), max_in_flight.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (s, inf, max, script) = (s.clone(), inf.clone(), max.clone(), script.clone());
                std::thread::spawn(move || serve(stream, &s, &inf, &max, script.as_ref()));
            }
        });
        Fake { url: format!("http://{addr}/v1"), seen, max_in_flight }
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("seen").clone()
    }

    fn requests(&self) -> usize {
        self.seen.lock().expect("seen").len()
    }
}

fn serve(
    mut stream: TcpStream,
    seen: &Mutex<Vec<Seen>>,
    in_flight: &AtomicUsize,
    max: &AtomicUsize,
    script: &(dyn Fn(usize, &Value) -> Reply + Send + Sync),
) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let (mut length, mut authorization) = (0usize, None);
    let mut first = String::new();
    if reader.read_line(&mut first).unwrap_or(0) == 0 {
        return;
    }
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').unwrap_or((line, ""));
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().unwrap_or(0),
            "authorization" => authorization = Some(value.trim().to_string()),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let n = {
        let mut s = seen.lock().expect("seen");
        s.push(Seen { authorization, body: body.clone() });
        s.len() - 1
    };
    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    max.fetch_max(now, Ordering::SeqCst);
    // A request stops counting when its answer starts: the client may send its next one as
    // soon as it has read this answer, before this thread would get to count it out.
    let answered = || {
        in_flight.fetch_sub(1, Ordering::SeqCst);
    };
    let respond = |stream: &mut TcpStream, status: u16, extra: &str, body: &str| {
        answered();
        let head = format!(
            "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n",
            body.len()
        );
        let _ = stream.write_all(head.as_bytes());
        let _ = stream.write_all(body.as_bytes());
    };
    match script(n, &body) {
        Reply::Answer(content) => respond(&mut stream, 200, "", &completion(&content)),
        Reply::Status(code, retry_after, body) => {
            let extra = retry_after.map(|r| format!("Retry-After: {r}\r\n")).unwrap_or_default();
            respond(&mut stream, code, &extra, &body)
        }
        Reply::CutOff => {
            answered();
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n";
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(br#"{"choices": [{"message": {"role": "assistant", "content": "{\"bi"#);
            let _ = stream.flush();
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
        Reply::Slow(wait, content) => {
            std::thread::sleep(wait);
            respond(&mut stream, 200, "", &completion(&content))
        }
        Reply::Trickle(content) => {
            answered();
            let body = completion(&content);
            let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
            let _ = stream.write_all(head.as_bytes());
            for b in body.bytes() {
                if stream.write_all(&[b]).and_then(|_| stream.flush()).is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

fn completion(content: &str) -> String {
    json!({"id": "x", "object": "chat.completion", "model": "test-model",
           "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]})
    .to_string()
}

const GOOD: &str = r#"{"bins": [0, 0, 0, 0, 10, 30, 40, 20], "why": "vectorised loads halve the transactions"}"#;

/// A CUDA file with `count` small kernels; `variant` changes every kernel's arithmetic.
fn cuda_file(count: usize, variant: &str) -> String {
    let mut s = String::new();
    for i in 0..count {
        s += &format!(
            "// kforecast: n = 1 << 20; x: f32[n] randn\n__global__ void k{i}(float* x, int n) {{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) x[i] = x[i] * {}.0f{variant};\n}}\n\n",
            i + 2
        );
    }
    s + "void run(float* x, int n) { k0<<<(n + 255) / 256, 256>>>(x, n); }\n"
}

/// `prev/k.cu` and `cur/k.cu` with `count` kernels, each changed.
fn files(dir: &Path, count: usize) {
    for (sub, variant) in [("prev", ""), ("cur", " + 1.0f")] {
        std::fs::create_dir_all(dir.join(sub)).expect("mkdir");
        std::fs::write(dir.join(sub).join("k.cu"), cuda_file(count, variant)).expect("write");
    }
}

fn kforecast(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(binary());
    cmd.args(args).current_dir(dir).env("KFORECAST_CACHE_DIR", dir.join("cache")).env_remove("KFORECAST_LLM_API_KEY");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run kforecast")
}

fn forecast_json(dir: &Path, fake: &Fake, extra: &[&str], env: &[(&str, &str)]) -> (Value, Output) {
    let mut args = vec!["forecast", "prev/k.cu", "cur/k.cu", "--kernel", "k0", "--json"];
    args.extend(["--llm-endpoint", &fake.url, "--llm-model", "test-model"]);
    args.extend(extra);
    let out = kforecast(dir, &args, env);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    (serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}")), out)
}

fn bins(v: &Value) -> Vec<f64> {
    v["bins"].as_array().expect("bins").iter().map(|b| b.as_f64().expect("number")).collect()
}

fn reasons(v: &Value) -> String {
    v["reasons"].as_array().expect("reasons").iter().filter_map(Value::as_str).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_good_answer_is_renormalised_and_ensembled() {
    let dir = tempfile::tempdir().expect("tempdir");
    files(dir.path(), 1);
    let fake = Fake::start(|_, _| Reply::Answer(format!("Here you go:\n```json\n{GOOD}\n```")));
    let (v, _) = forecast_json(dir.path(), &fake, &[], &[]);
    let plain = kforecast(dir.path(), &["forecast", "prev/k.cu", "cur/k.cu", "--kernel", "k0", "--json"], &[]);
    let embedded: Value = serde_json::from_slice(&plain.stdout).expect("embedded json");
    let forecaster = v["forecaster"].as_str().expect("forecaster");
    assert!(forecaster.starts_with("ensemble(embedded") && forecaster.contains("llm:test-model/p1 ×0.50"), "{v}");
    let llm = [0.0, 0.0, 0.0, 0.0, 0.1, 0.3, 0.4, 0.2];
    for (i, (got, e)) in bins(&v).iter().zip(bins(&embedded)).enumerate() {
        assert!((got - (0.5 * e + 0.5 * llm[i])).abs() < 1e-4, "bin {i}: {v} vs {embedded}");
    }
    assert!((bins(&v).iter().sum::<f64>() - 1.0).abs() < 1e-4);
    assert!(reasons(&v).contains("LLM: vectorised loads halve the transactions"), "{v}");
    // What was asked: the model, both versions, the sizes, the hardware, JSON.
    let seen = fake.seen();
    assert_eq!(seen.len(), 1);
    let body = &seen[0].body;
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["temperature"], 0.0);
    assert_eq!(body["response_format"]["type"], "json_object");
    let user = body["messages"][1]["content"].as_str().expect("user message");
    assert!(user.contains("x[i] * 2.0f;") && user.contains("x[i] * 2.0f + 1.0f;"), "{user}");
    assert!(user.contains("n = 1 << 20") && user.contains("132 SMs"), "{user}");
    assert_eq!(seen[0].authorization, None, "no key configured, none sent");
}

#[test]
fn unusable_answers_fall_back_to_the_embedded_forecast() {
    for (answer, why) in [
        ("{bins: [0.1, oops", "no JSON with 8 bin probabilities"),
        (r#"{"bins": [0.5, 0.3, 0.2]}"#, "expected 8 bin probabilities, got 3"),
        (r#"{"bins": [0.5, -0.1, 0.2, 0.1, 0.1, 0.1, 0.05, 0.05]}"#, "bin 2 (0.25–0.5×) is negative"),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        files(dir.path(), 1);
        let fake = Fake::start(move |_, _| Reply::Answer(answer.to_string()));
        let (v, _) = forecast_json(dir.path(), &fake, &[], &[]);
        assert!(v["forecaster"].as_str().expect("forecaster").starts_with("embedded"), "{v}");
        let r = reasons(&v);
        assert!(r.contains("LLM surrogate unavailable") && r.contains(why), "{why}: {r}");
        assert_eq!(fake.requests(), 1, "a wrong answer is not asked again");
    }
}

#[test]
fn a_cut_off_reply_is_retried_then_falls_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    files(dir.path(), 1);
    let fake = Fake::start(|_, _| Reply::CutOff);
    let (v, _) = forecast_json(dir.path(), &fake, &["--llm-retries", "2"], &[]);
    assert_eq!(fake.requests(), 3, "one request and two retries");
    let r = reasons(&v);
    assert!(r.contains("LLM surrogate unavailable") && r.contains("cut off"), "{r}");
    // A cut-off reply once, then a good one: used.
    let dir = tempfile::tempdir().expect("tempdir");
    files(dir.path(), 1);
    let fake = Fake::start(|n, _| if n == 0 { Reply::CutOff } else { Reply::Answer(GOOD.to_string()) });
    let (v, _) = forecast_json(dir.path(), &fake, &[], &[]);
    assert_eq!(fake.requests(), 2);
    assert!(v["forecaster"].as_str().expect("forecaster").starts_with("ensemble("), "{v}");
}

#[test]
fn a_slow_endpoint_is_given_up_on_within_the_time_limit() {
    let dir = tempfile::tempdir().expect("tempdir");
    files(dir.path(), 1);
    let fake = Fake::start(|_, _| Reply::Slow(Duration::from_secs(20), GOOD.to_string()));
    let start = Instant::now();
    let (v, _) = forecast_json(dir.path(), &fake, &["--llm-timeout-ms", "300", "--llm-retries", "1"], &[]);
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
    let r = reasons(&v);
    assert!(r.contains("no answer within 0.3 s"), "{r}");
    assert!(v["forecaster"].as_str().expect("forecaster").starts_with("embedded"));
    // A body that trickles in counts against the limit too.
    let dir = tempfile::tempdir().expect("tempdir");
    files(dir.path(), 1);
    let fake = Fake::start(|_, _| Reply::Trickle(GOOD.to_string()));
    let start = Instant::now();
    let (v, _) = forecast_json(dir.path(), &fake, &["--llm-timeout-ms", "300", "--llm-retries", "0"], &[]);
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
    assert!(reasons(&v).contains("no answer within 0.3 s"), "{v}");
}

#[test]
fn rate_limits_and_server_errors_are_retried() {
    let dir = tempfile::tempdir().expect("tempdir");
    files(dir.path(), 1);
    let fake = Fake::start(|n, _| match n {
        0 => Reply::Status(429, Some("1"), r#"{"error": {"message": "slow down"}}"#.to_string()),
        1 => Reply::Status(503, None, "overloaded".to_string()),
        _ => Reply::Answer(GOOD.to_string()),
    });
    let start = Instant::now();
    let (v, _) = forecast_json(dir.path(), &fake, &[], &[]);
    assert_eq!(fake.requests(), 3);
    assert!(start.elapsed() >= Duration::from_millis(900), "Retry-After: 1 was honoured");
    assert!(v["forecaster"].as_str().expect("forecaster").starts_with("ensemble("), "{v}");
    // A client error is not retried.
    let dir = tempfile::tempdir().expect("tempdir");
    files(dir.path(), 1);
    let fake = Fake::start(|_, _| Reply::Status(404, None, r#"{"error": "no such model"}"#.to_string()));
    let (v, _) = forecast_json(dir.path(), &fake, &[], &[]);
    assert_eq!(fake.requests(), 1);
    assert!(reasons(&v).contains("HTTP 404"), "{v}");
}

#[test]
fn an_endpoint_without_response_format_is_asked_again_without_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    files(dir.path(), 1);
    let fake = Fake::start(|_, body| {
        if body.get("response_format").is_some() {
            Reply::Status(400, None, r#"{"error": "unknown field response_format"}"#.to_string())
        } else {
            Reply::Answer(GOOD.to_string())
        }
    });
    let (v, _) = forecast_json(dir.path(), &fake, &["--llm-retries", "0"], &[]);
    assert!(v["forecaster"].as_str().expect("forecaster").starts_with("ensemble("), "{v}");
    assert_eq!(fake.requests(), 2);
}

#[test]
fn the_key_is_sent_as_a_bearer_token_and_never_shown() {
    let dir = tempfile::tempdir().expect("tempdir");
    files(dir.path(), 1);
    let env = [("KFORECAST_LLM_API_KEY", KEY), ("KFORECAST_LOG", "trace")];
    let fake = Fake::start(|_, _| Reply::Answer(GOOD.to_string()));
    let (v, out) = forecast_json(dir.path(), &fake, &[], &env);
    assert_eq!(fake.seen()[0].authorization.as_deref(), Some(format!("Bearer {KEY}").as_str()));
    assert!(v["forecaster"].as_str().expect("forecaster").starts_with("ensemble("));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("LLM request to"), "trace logs were written: {stderr}");
    assert!(!stderr.contains(KEY) && !String::from_utf8_lossy(&out.stdout).contains(KEY));
    // Endpoints that echo the key back in errors: the key is cut out of every message.
    for (status, body) in [(401, format!("invalid key {KEY}")), (500, format!("internal error for {KEY}"))] {
        let dir = tempfile::tempdir().expect("tempdir");
        files(dir.path(), 1);
        let fake = Fake::start(move |_, _| Reply::Status(status, None, body.clone()));
        let (v, out) = forecast_json(dir.path(), &fake, &["--llm-retries", "1"], &env);
        let all = format!("{v}\n{}", String::from_utf8_lossy(&out.stderr));
        assert!(!all.contains(KEY), "{all}");
        let r = reasons(&v);
        if status == 401 {
            assert!(r.contains("rejected the API key") && r.contains("$KFORECAST_LLM_API_KEY"), "{r}");
        } else {
            assert!(r.contains("HTTP 500") && r.contains("***"), "{r}");
        }
    }
    // A key variable that is named but unset is an error that names it.
    let out = kforecast(
        dir.path(),
        &[
            "forecast",
            "prev/k.cu",
            "cur/k.cu",
            "--llm-endpoint",
            &fake.url,
            "--llm-model",
            "m",
            "--llm-api-key-env",
            "NOPE_UNSET_VAR",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("NOPE_UNSET_VAR"));
}

#[test]
fn answers_are_cached_in_memory_and_on_disk() {
    let dir = tempfile::tempdir().expect("tempdir");
    files(dir.path(), 1);
    let fake = Fake::start(|_, _| Reply::Answer(GOOD.to_string()));
    let (first, _) = forecast_json(dir.path(), &fake, &[], &[]);
    assert_eq!(fake.requests(), 1);
    let (second, _) = forecast_json(dir.path(), &fake, &[], &[]);
    assert_eq!(fake.requests(), 1, "the second run reads the store");
    assert_eq!(first, second);
    // Within one run: the same pair twice is asked once.
    let pairs = dir.path().join("pairs.jsonl");
    let line = r#"{"base": "prev/k.cu", "candidate": "cur/k.cu", "kernel": "k0"}"#;
    std::fs::write(&pairs, format!("{line}\n{line}\n")).expect("write");
    let fake = Fake::start(|_, _| Reply::Answer(GOOD.to_string()));
    let out = kforecast(
        dir.path(),
        &["--no-cache", "forecast", "--pairs", "pairs.jsonl", "--llm-endpoint", &fake.url, "--llm-model", "test-model"],
        &[],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
    assert_eq!(fake.requests(), 1);
}

#[test]
fn requests_in_flight_are_bounded() {
    let dir = tempfile::tempdir().expect("tempdir");
    files(dir.path(), 6);
    let fake = Fake::start(|_, _| Reply::Slow(Duration::from_millis(300), GOOD.to_string()));
    let out = kforecast(
        dir.path(),
        &[
            "check",
            "--json",
            "--base",
            "prev",
            "cur",
            "--llm-endpoint",
            &fake.url,
            "--llm-model",
            "test-model",
            "--llm-max-concurrency",
            "2",
        ],
        &[],
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("json line")).collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines.iter().all(|l| l["forecaster"].as_str().is_some_and(|f| f.starts_with("ensemble("))), "{text}");
    assert_eq!(fake.requests(), 6);
    assert_eq!(fake.max_in_flight.load(Ordering::SeqCst), 2, "side by side, but never more than 2");
}

fn hover_text(c: &mut common::Client, uri: &str, at: (u32, u32)) -> String {
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": at.0, "character": at.1 + 1}}),
    );
    hover["result"]["contents"]["value"].as_str().unwrap_or("").to_string()
}

/// Polls the hover until it holds `needle` (the LLM answers in the background).
fn hover_until(c: &mut common::Client, uri: &str, at: (u32, u32), needle: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let md = hover_text(c, uri, at);
        if md.contains(needle) {
            return md;
        }
        assert!(Instant::now() < deadline, "the hover never showed `{needle}`:\n{md}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_server_shows_the_ensemble_when_the_llm_answers() {
    let fake = Fake::start(|_, _| Reply::Slow(Duration::from_millis(200), GOOD.to_string()));
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("k.cu");
    let text = cuda_file(1, "");
    std::fs::write(&path, &text).expect("write");
    let uri = common::uri_of(&path);
    let mut c = common::Client::start();
    c.initialize(json!({"kforecast": {
        "baselineMode": "open",
        "llm": {"endpoint": fake.url, "model": "test-model", "weight": 0.5, "timeoutMs": 50}
    }}));
    c.wait_notification(|n| n["params"]["message"].as_str().unwrap_or("").contains("kforecast.llm.timeoutMs"));
    c.open(&uri, "cuda", &text);
    let (line, col) = common::position_of(&text, "x[i] * 2.0f;");
    c.change(&uri, 2, (line, col + 11), (line, col + 11), " + 1.0f");
    // At once: the embedded forecaster's hint.
    let hints = c.inlay_hints(&uri);
    assert_eq!(hints.len(), 1, "{hints:?}");
    let at = common::position_of(&text, "k0(float");
    assert!(hover_text(&mut c, &uri, at).contains("forecaster embedded"));
    // Then the ensemble, once the LLM has answered.
    let md = hover_until(&mut c, &uri, at, "ensemble(");
    assert!(md.contains("llm:test-model/p1 ×0.50") && md.contains("LLM: vectorised loads"), "{md}");
    assert_eq!(fake.requests(), 1);
    let status = c.request("kforecast/status", Value::Null);
    assert_eq!(status["result"]["llm"]["model"], "test-model", "{status}");
    // Undo the edit: an unchanged kernel, and nothing more is asked.
    c.change(&uri, 3, (line, col + 11), (line, col + 18), "");
    assert!(hover_text(&mut c, &uri, at).contains("unchanged"));

    // An endpoint that fails: the embedded forecast, with the reason, and the server lives on.
    let down = Fake::start(|_, _| Reply::Status(503, None, "down".to_string()));
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"kforecast": {"llm": {"endpoint": down.url, "model": "test-model", "retries": 0}}}}),
    );
    c.change(&uri, 4, (line, col + 11), (line, col + 11), " + 3.0f");
    let md = hover_until(&mut c, &uri, at, "LLM surrogate unavailable");
    assert!(md.contains("HTTP 503") && md.contains("forecaster embedded"), "{md}");
    assert!(c.alive());
    assert!(c.shutdown().success());
}

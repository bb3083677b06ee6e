//! The LLM rewrite operator: a fake chat endpoint on loopback proposes rewrites, the fake
//! worker measures them by what their source holds.

use super::*;

/// What the fake chat endpoint does with one rewrite request.
enum Chat {
    Answer(String),
    /// Waits, then answers (past the client's time limit: a timeout).
    Slow(Duration, String),
}

/// A fake OpenAI-compatible chat endpoint: rewrite requests are answered by a script
/// from the prompt's user message; forecast requests (the LLM surrogate's) with fixed bins.
struct FakeLlm {
    url: String,
    /// User messages of the rewrite requests received.
    asked: Arc<std::sync::Mutex<Vec<String>>>,
    _server: Loopback,
}

impl FakeLlm {
    fn start(script: impl Fn(&str) -> Chat + Send + Sync + 'static) -> Self {
        let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (seen, script) = (asked.clone(), Arc::new(script));
        let (server, addr) = Loopback::start(move |mut rq| {
            let (seen, script) = (seen.clone(), script.clone());
            // A thread per request: a slow answer does not hold up the others.
            std::thread::spawn(move || {
                let mut body = String::new();
                let _ = rq.as_reader().read_to_string(&mut body);
                let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                let system = body["messages"][0]["content"].as_str().unwrap_or("");
                let user = body["messages"][1]["content"].as_str().unwrap_or("").to_string();
                let reply = if system.contains("\"bins\"") {
                    Chat::Answer(r#"{"bins": [0, 0, 0, 0.2, 0.6, 0.2, 0, 0], "why": "about the same"}"#.into())
                } else {
                    seen.lock().expect("asked").push(user.clone());
                    script(&user)
                };
                let content = match reply {
                    Chat::Answer(c) => c,
                    Chat::Slow(wait, c) => {
                        std::thread::sleep(wait);
                        c
                    }
                };
                let completion = json!({"id": "x", "object": "chat.completion", "model": "test-model",
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]});
                let _ = rq.respond(tiny_http::Response::from_string(completion.to_string()));
            });
        });
        FakeLlm { url: format!("http://{addr}/v1"), asked, _server: server }
    }

    fn asked(&self) -> Vec<String> {
        self.asked.lock().expect("asked").clone()
    }
}

/// The transpose through shared-memory tiles: the rewrite an LLM would propose. `marker`
/// (a comment in the kernel) tells the fake worker how it measures.
fn tiled_transpose(marker: &str) -> String {
    format!(
        r#"__global__ void __launch_bounds__(BLOCK_X * BLOCK_Y)
transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{{
    // {marker}
    __shared__ float tile[BLOCK_X][BLOCK_X + 1];
    const int x = blockIdx.x * BLOCK_X + threadIdx.x;
    for (int j = threadIdx.y; j < BLOCK_X; j += BLOCK_Y) {{
        const int y = blockIdx.y * BLOCK_X + j;
        if (x < cols && y < rows) tile[j][threadIdx.x] = in[(size_t)y * cols + x];
    }}
    __syncthreads();
    const int ox = blockIdx.y * BLOCK_X + threadIdx.x;
    for (int j = threadIdx.y; j < BLOCK_X; j += BLOCK_Y) {{
        const int oy = blockIdx.x * BLOCK_X + j;
        if (ox < rows && oy < cols) out[(size_t)oy * rows + ox] = tile[threadIdx.x][j];
    }}
}}"#
    )
}

/// The launch of the tiled version: a grid of square tiles.
const TILED_LAUNCH: &str = r#"extern "C" void launch_transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    if (rows <= 0 || cols <= 0) return;
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(ceil_div(cols, BLOCK_X), ceil_div(rows, BLOCK_X));
    transpose<<<grid, block, 0, stream>>>(in, out, rows, cols);
}"#;

/// The prompt is about the file as it is (not a variant of it).
fn about_the_original(user: &str) -> bool {
    // Its block sizes, its store, and no minBlocksPerSM in its launch bounds.
    user.contains("#define BLOCK_X 32\n#define BLOCK_Y 8")
        && user.contains("out[(size_t)x * rows + y]")
        && user.contains("__launch_bounds__(BLOCK_X * BLOCK_Y)\n")
}

/// A measurement on the (fake) H100.
fn h100(status: Status, speedup: f64) -> Measurement {
    let mut m = Measurement::failure(status, "");
    m.speedup = Some(speedup);
    m.ci_low = Some(speedup * 0.98);
    m.ci_high = Some(speedup * 1.02);
    m.device = Some(DeviceInfo { name: "NVIDIA H100 80GB HBM3".into(), ..DeviceInfo::default() });
    m
}

/// The fake worker for `transpose.cu`: recorded variants from the sweep; a kernel marked
/// `good rewrite` runs 6× faster, one marked `wrong rewrite` 8× faster with a wrong result.
fn rewrite_worker(t: &Table) -> FakeWorker {
    fake_worker_answering(&[t], Duration::ZERO, |job| {
        let source = match job {
            Job::Cuda(j) => &j.candidate.source,
            Job::Triton(j) => &j.candidate.source,
        };
        if source.contains("good rewrite") {
            Some(h100(Status::Ok, 6.0))
        } else if source.contains("wrong rewrite") {
            let mut m = h100(Status::WrongResult, 8.0);
            m.message = "`out` differs from the baseline at 16777216 elements".into();
            Some(m)
        } else {
            None
        }
    })
}

fn llm_args<'a>(llm: &'a FakeLlm, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["--llm-endpoint", llm.url.as_str(), "--llm-model", "test-model"];
    args.extend(extra);
    args
}

/// `kforecast search transpose.cu --json` (with these extra arguments) in its own cache.
fn search_json(worker: &FakeWorker, extra: &[&str], env: &[(&str, &str)]) -> (Value, String) {
    let cache = tempfile::tempdir().expect("cache");
    search_json_in(cache.path(), worker, extra, env)
}

fn search_json_in(
    cache: &std::path::Path,
    worker: &FakeWorker,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (Value, String) {
    let mut args = vec!["search", "transpose.cu", "--budget", "6", "--seed", "1", "--json"];
    args.extend(extra);
    let (out, stdout) = cli_in(cache, &args, worker, env);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{stdout}\n{stderr}");
    let v = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    (v, stderr)
}

/// The budget holds and every GPU run is counted, in order.
fn assert_budget_kept(o: &Value, budget: u64, worker_jobs: usize) {
    let runs = o["runs"].as_u64().expect("runs");
    assert!(runs <= budget, "{o}");
    let numbered: Vec<u64> = o["steps"].as_array().expect("steps").iter().filter_map(|s| s["run"].as_u64()).collect();
    assert_eq!(numbered, (1..=runs).collect::<Vec<_>>(), "{o}");
    assert_eq!(o["cache_hits"], 0, "{o}");
    assert_eq!(worker_jobs as u64, runs, "every job sent is a counted GPU run: {o}");
    assert_eq!(o["stop"] == "budget", runs == budget, "{o}");
}

/// The steps that are the LLM's rewrites themselves (not knob children of one).
fn llm_steps(o: &Value) -> Vec<Value> {
    let steps = o["steps"].as_array().expect("steps");
    steps.iter().filter(|s| s["description"].as_str().is_some_and(|d| d.starts_with("LLM rewrite:"))).cloned().collect()
}

#[test]
fn a_good_llm_rewrite_is_screened_measured_and_can_win() {
    let t = table("transpose.cu", "transpose");
    let worker = rewrite_worker(&t);
    let llm = FakeLlm::start(|user| {
        if about_the_original(user) {
            let kernel = tiled_transpose("good rewrite");
            Chat::Answer(format!(
                "Stage tiles in shared memory so that reads and writes are both coalesced.\n```cuda\n{kernel}\n```\n```launch\n{TILED_LAUNCH}\n```\n"
            ))
        } else {
            Chat::Answer("This version is already as fast as I can make it.".into())
        }
    });
    let (o, stderr) = search_json(&worker, &llm_args(&llm, &[]), &[]);
    // Asked once for the original, then for the measured variants it had not had, two a
    // generation at most; never twice about the same variant.
    let asked = llm.asked();
    assert!(asked.iter().filter(|u| about_the_original(u)).count() == 1, "{asked:?}");
    let unique: HashSet<&String> = asked.iter().collect();
    assert_eq!(unique.len(), asked.len(), "a variant asked about twice");
    assert!(asked[0].contains("rows = 4096; cols = 4096") && asked[0].contains("132 SMs"), "{}", asked[0]);
    // Screened like a knob child, measured, and the best.
    let rewrites = llm_steps(&o);
    assert_eq!(rewrites.len(), 1, "{o}");
    let step = &rewrites[0];
    assert!(step["forecast"].is_f64() && step["run"].is_u64(), "screened, then measured on the GPU: {step}");
    assert_eq!(step["status"], "ok");
    assert_eq!(step["speedup"], 6.0);
    let best = &o["best"];
    assert_eq!(best["speedup"], 6.0, "{o}");
    let description = best["description"].as_str().expect("description");
    assert_eq!(description, "LLM rewrite: Stage tiles in shared memory so that reads and writes are both coalesced.");
    let text = best["text"].as_str().expect("text");
    assert!(text.contains("__shared__ float tile[BLOCK_X][BLOCK_X + 1];"), "{text}");
    assert!(text.contains("dim3 grid(ceil_div(cols, BLOCK_X), ceil_div(rows, BLOCK_X));"), "{text}");
    assert!(text.starts_with(&t.text[..t.text.find("__global__").expect("kernel")]), "the rest of the file stays");
    // Then the rewrite's own knobs are tuned, like the original's.
    let tuned: Vec<&str> = o["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["description"].as_str())
        .filter(|d| d.starts_with("LLM rewrite + "))
        .collect();
    assert!(!tuned.is_empty(), "knob children of the rewrite: {o}");
    assert_budget_kept(&o, 6, worker.requests.load(Ordering::SeqCst));
    assert!(!stderr.contains("error"), "{stderr}");
    // The same search again (a fresh store): the same outcome.
    let (again, _) = search_json(&worker, &llm_args(&llm, &[]), &[]);
    assert_eq!(again, o, "deterministic when the LLM is");
    // In the same store: the answers are kept; a search again asks nothing it asked before
    // (its stored measurements are free, so it goes on to variants the first did not reach).
    let cache = tempfile::tempdir().expect("cache");
    let before = llm.asked().len();
    let (first, _) = search_json_in(cache.path(), &worker, &llm_args(&llm, &[]), &[]);
    let asked_first: HashSet<String> = llm.asked()[before..].iter().cloned().collect();
    assert!(asked_first.iter().any(|u| about_the_original(u)));
    let before = llm.asked().len();
    let (second, _) = search_json_in(cache.path(), &worker, &llm_args(&llm, &[]), &[]);
    let asked_again: Vec<String> = llm.asked()[before..].to_vec();
    assert!(asked_again.iter().all(|u| !asked_first.contains(u)), "answers come from the store");
    assert_eq!(second["best"]["speedup"], 6.0, "{second}");
    assert_eq!(first["best"], o["best"]);
}

#[test]
fn a_wrong_llm_rewrite_is_measured_fails_the_correctness_check_and_is_not_offered() {
    let t = table("transpose.cu", "transpose");
    let worker = rewrite_worker(&t);
    // The rewrite forgets the bounds checks and the barrier: fast, and wrong.
    let wrong = tiled_transpose("wrong rewrite").replace("    __syncthreads();\n", "");
    let llm = FakeLlm::start(move |user| {
        if about_the_original(user) {
            Chat::Answer(format!("Tiles, no barrier.\n```cuda\n{wrong}\n```\n```launch\n{TILED_LAUNCH}\n```"))
        } else {
            Chat::Answer("No further improvement.".into())
        }
    });
    for surrogate in [true, false] {
        let extra = if surrogate { vec![] } else { vec!["--no-surrogate"] };
        let before = worker.requests.load(Ordering::SeqCst);
        let (o, _) = search_json(&worker, &llm_args(&llm, &extra), &[]);
        let rewrites = llm_steps(&o);
        assert_eq!(rewrites.len(), 1, "measured: {o}");
        assert_eq!(rewrites[0]["status"], "wrong_result", "{o}");
        assert!(rewrites[0]["speedup"].is_null(), "a wrong result has no speedup: {o}");
        assert!(rewrites[0]["headline"].as_str().unwrap_or("").contains("WRONG RESULT"), "{o}");
        // Not the best, though it ran 8× faster: the best is a correct, recorded variant.
        let best = &o["best"];
        let text = best["text"].as_str().expect("a correct faster variant");
        assert!(!text.contains("wrong rewrite"), "{best}");
        assert_eq!(best["speedup"].as_f64(), Some(recorded_speedup(&t, text)));
        assert!(o["steps"].as_array().expect("steps").iter().all(|s| s["best"].as_f64() < Some(8.0)));
        assert_budget_kept(&o, 6, worker.requests.load(Ordering::SeqCst) - before);
    }
}

/// Replies an LLM may give that are no use, and the reason each is refused for.
fn unusable_replies() -> Vec<(&'static str, Chat, &'static str)> {
    let good = tiled_transpose("good rewrite");
    let renamed = good.replace("\ntranspose(", "\ntranspose_tiled(");
    let signature = good.replace("int rows, int cols)", "int rows, int cols, int ld)");
    vec![
        (
            "malformed",
            Chat::Answer("Sure! Use shared memory tiles and it will be faster.".into()),
            "no definition of `transpose`",
        ),
        ("empty", Chat::Answer("   ".into()), "no answer"),
        ("partial", Chat::Answer(format!("Tiles.\n```cuda\n{}", &good[..good.len() / 2])), "ends inside a code block"),
        ("renamed", Chat::Answer(format!("```cuda\n{renamed}\n```")), "renames the kernel"),
        ("signature", Chat::Answer(format!("```cuda\n{signature}\n```")), "changes the signature of `transpose`"),
        ("slow", Chat::Slow(Duration::from_secs(5), format!("```cuda\n{good}\n```")), "no answer within 0.3 s"),
    ]
}

#[test]
fn unusable_llm_replies_are_refused_and_the_budget_goes_to_knob_children() {
    let t = table("transpose.cu", "transpose");
    let worker = rewrite_worker(&t);
    let before = worker.requests.load(Ordering::SeqCst);
    let (plain, _) = search_json(&worker, &[], &[]);
    assert_budget_kept(&plain, 6, worker.requests.load(Ordering::SeqCst) - before);
    for (what, reply, why) in unusable_replies() {
        let reply = Arc::new(std::sync::Mutex::new(Some(reply)));
        // The first request gets the unusable reply, later ones a plain refusal.
        let llm = FakeLlm::start(move |_| {
            reply.lock().expect("reply").take().unwrap_or_else(|| Chat::Answer("No improvement.".into()))
        });
        let start = std::time::Instant::now();
        let before = worker.requests.load(Ordering::SeqCst);
        let extra = llm_args(&llm, &["--llm-timeout-ms", "300", "--llm-retries", "0"]);
        let (o, stderr) = search_json(&worker, &extra, &[("KFORECAST_LOG", "kforecast=debug")]);
        assert!(start.elapsed() < Duration::from_secs(30), "{what}: took {:?}", start.elapsed());
        assert!(!llm.asked().is_empty(), "{what}: the LLM was asked");
        assert!(stderr.contains(why), "{what}: `{why}` not among the logged reasons:\n{stderr}");
        // Nothing came of the LLM: the same search, knob children only, budget spent.
        assert!(llm_steps(&o).is_empty(), "{what}: {o}");
        assert_eq!(o, plain, "{what}");
        assert_budget_kept(&o, 6, worker.requests.load(Ordering::SeqCst) - before);
        assert_eq!(o["stop"], "budget", "{what}");
    }
}

#[test]
fn without_an_endpoint_or_with_no_rewrites_the_search_is_the_same_and_asks_nothing() {
    let t = table("transpose.cu", "transpose");
    let worker = rewrite_worker(&t);
    let llm = FakeLlm::start(|_| Chat::Answer(format!("```cuda\n{}\n```", tiled_transpose("good rewrite"))));
    let (plain, _) = search_json(&worker, &[], &[]);
    let (zero, _) = search_json(&worker, &llm_args(&llm, &["--llm-rewrites", "0"]), &[]);
    assert_eq!(zero, plain);
    assert!(llm.asked().is_empty());
    assert!(llm_steps(&plain).is_empty());
    let (out, _) = cli(&["search", "transpose.cu", "--llm-rewrites", "9"], &worker);
    assert_eq!(out.status.code(), Some(2), "at most 8 a generation");
}

#[test]
fn the_editor_search_asks_the_servers_llm_for_rewrites() {
    let t = table("transpose.cu", "transpose");
    let worker = rewrite_worker(&t);
    let llm = FakeLlm::start(|user| {
        if about_the_original(user) {
            let kernel = tiled_transpose("good rewrite");
            Chat::Answer(format!("Shared-memory tiles.\n```cuda\n{kernel}\n```\n```launch\n{TILED_LAUNCH}\n```"))
        } else {
            Chat::Answer("No further improvement.".into())
        }
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("transpose.cu");
    std::fs::write(&path, &t.text).expect("write");
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.initialize(json!({
        "gpuWorkers": [{"url": worker.url, "token": "t"}],
        "search": {"budget": 4, "seed": 1},
        "baselineMode": "open",
        "llm": {"endpoint": llm.url, "model": "test-model", "rewrites": 1}
    }));
    c.open(&uri, "cuda", &t.text);
    assert_eq!(execute(&mut c, "kforecast.search", &uri, "transpose")["result"]["started"], true);
    let end = c.wait_notification(|n| {
        n["method"] == "$/progress"
            && n["params"]["value"]["kind"] == "end"
            && n["params"]["value"]["message"].as_str().is_some_and(|m| m.contains("LLM rewrite"))
    });
    let message = end["params"]["value"]["message"].as_str().expect("message");
    assert!(message.contains("best 6.0× faster: LLM rewrite: Shared-memory tiles."), "{message}");
    assert!(llm.asked().iter().any(|u| about_the_original(u)));
    c.wait_notification(|n| {
        n["method"] == "$/progress"
            && n["params"]["value"]["message"].as_str().is_some_and(|m| m.ends_with("asking the LLM for rewrites"))
    });
    // Apply: the file becomes the rewrite.
    let applied = execute(&mut c, "kforecast.applySearch", &uri, "transpose");
    assert_eq!(applied["result"]["applied"], true, "{applied}");
    let request = c.server_requests.iter().find(|r| r["method"] == "workspace/applyEdit").expect("applyEdit").clone();
    let edits = request["params"]["edit"]["changes"][&uri].as_array().expect("edits").clone();
    let result = apply_edits(&t.text, &edits);
    assert!(result.contains("// good rewrite") && result.contains("ceil_div(rows, BLOCK_X)"), "{result}");
    // The LLM turned off: a different search (not the stored one), knob children only.
    c.notify("workspace/didChangeConfiguration", json!({"settings": {"kforecast": {"llm": null}}}));
    let asked = llm.asked().len();
    let again = execute(&mut c, "kforecast.search", &uri, "transpose");
    assert_eq!(again["result"]["started"], true, "{again}");
    let end = c.wait_notification(|n| {
        n["method"] == "$/progress"
            && n["params"]["value"]["kind"] == "end"
            && n["params"]["value"]["message"].as_str().is_some_and(|m| !m.contains("LLM rewrite"))
    });
    assert!(end["params"]["value"]["message"].as_str().unwrap_or("").contains("4 GPU run(s)"), "{end}");
    assert_eq!(llm.asked().len(), asked, "not asked with the LLM off");
    assert!(c.shutdown().success());
}

/// A per-generation operator in process: records the parents it is given, and proposes
/// the table's best variant for the original (or nothing).
struct Batched {
    n: usize,
    /// The table's best variant and its knob values (a point of the original's space, so
    /// that its children stay in the recorded sweep).
    best: Option<(String, Vec<i64>)>,
    calls: Arc<std::sync::Mutex<Vec<Vec<String>>>>,
}

impl kforecast_core::search::Operator for Batched {
    fn name(&self) -> &str {
        "batched"
    }

    fn propose(
        &mut self,
        _: &kforecast_core::search::Parent<'_>,
        _: &mut kforecast_core::rng::Rng,
    ) -> Option<kforecast_core::search::Proposal> {
        unreachable!("a per-generation operator is asked through propose_many")
    }

    fn per_generation(&self) -> Option<usize> {
        Some(self.n)
    }

    fn propose_many(
        &mut self,
        parents: &[kforecast_core::search::Parent<'_>],
        _: &mut kforecast_core::rng::Rng,
    ) -> Vec<Option<kforecast_core::search::Proposal>> {
        self.calls.lock().expect("calls").push(parents.iter().map(|p| p.text.to_string()).collect());
        parents
            .iter()
            .map(|p| {
                let (text, values) = self.best.clone().filter(|_| p.description == "original")?;
                Some(kforecast_core::search::Proposal { text, description: "scripted".into(), values: Some(values) })
            })
            .collect()
    }
}

#[test]
fn per_generation_operators_get_new_measured_parents_a_few_at_a_time() {
    for t in tables() {
        let best =
            t.rows.values().max_by(|a, b| a["speedup"].as_f64().partial_cmp(&b["speedup"].as_f64()).expect("cmp"));
        let space = KnobSpace::discover(&t.text, t.language, t.kernel).expect("space");
        let best = best.map(|r| {
            let values: Vec<i64> = space.knobs.iter().map(|k| r["knobs"][&k.name].as_i64().expect("v")).collect();
            (space.render(&values), values)
        });
        for (proposes, surrogate) in [(false, true), (true, true), (true, false)] {
            let calls = Arc::new(std::sync::Mutex::new(Vec::new()));
            let op = Batched { n: 2, best: best.clone().filter(|_| proposes), calls: calls.clone() };
            let original = Original::new(&t.text, t.language, t.kernel).expect("original");
            let forecaster = EmbeddedForecaster::new();
            let mut replay = Replay::new(&t);
            let config = SearchConfig { budget: 8, seed: 3, surrogate };
            let o = Searcher {
                forecaster: &forecaster,
                measurer: &mut replay,
                operators: vec![Box::new(op)],
                cancel: &AtomicBool::new(false),
                progress: &mut |_| {},
            }
            .run(&original, &config)
            .expect("search");
            let calls = calls.lock().expect("calls").clone();
            let what = format!("{} proposes {proposes} surrogate {surrogate}", t.kernel);
            assert!(calls.iter().all(|c| !c.is_empty() && c.len() <= 2), "{what}: {calls:?}");
            let all: Vec<&String> = calls.iter().flatten().collect();
            assert_eq!(all.iter().collect::<HashSet<_>>().len(), all.len(), "{what}: a parent given twice");
            assert_eq!(all.first().map(|s| s.as_str()), Some(t.text.as_str()), "{what}: the original first");
            assert!(calls.len() as u32 <= o.steps.iter().map(|s| s.generation).max().unwrap_or(0), "{what}");
            assert!(o.runs <= 8 && replay.calls.len() as u32 == o.runs + o.cache_hits, "{what}");
            if proposes && !surrogate {
                // Unscreened, the operator's children come first; this one is the table's best.
                assert_eq!(o.steps[0].description, "scripted", "{what}: measured first");
                assert_eq!(o.best.as_ref().map(|b| b.description.as_str()), Some("scripted"), "{what}");
            } else if !proposes {
                // Proposing nothing leaves the search as it is without the operator.
                assert_eq!(o, search(&t, 8, 3, true).0, "{what}");
            }
        }
    }
}

use super::*;
use crate::extract::extract_text;

fn close(a: &BinProbs, b: [f64; NUM_BINS]) -> bool {
    a.0.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
}

#[test]
fn plain_object_is_renormalised() {
    let a = parse_reply(r#"{"bins": [0, 0, 0, 10, 20, 40, 20, 10], "why": "coalesced loads"}"#).expect("parse");
    assert!(close(&a.bins, [0.0, 0.0, 0.0, 0.1, 0.2, 0.4, 0.2, 0.1]));
    assert_eq!(a.why.as_deref(), Some("coalesced loads"));
}

#[test]
fn json_in_fences_and_prose_is_found() {
    let text = "Let me think.\nThe loads coalesce.\n```json\n{\"bins\": [0,0,0,0,0.5,0.5,0,0]}\n```\nDone.";
    let a = parse_reply(text).expect("fenced");
    assert!(close(&a.bins, [0.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0]));
    let prose = "I estimate {\"bins\": [0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.3], \"why\": \"a {brace} in text\"} overall.";
    let a = parse_reply(prose).expect("inline");
    assert!((a.bins.0[7] - 0.3).abs() < 1e-9);
    assert_eq!(a.why.as_deref(), Some("a {brace} in text"));
}

#[test]
fn maps_keyed_by_labels_are_accepted() {
    let a = parse_reply(
        r#"{"≤0.25×": 0, "0.25–0.5×": 0, "0.5–0.71×": 0, "0.71–1×": 0.1, "1–1.41×": 0.2,
                "1.41–2×": 0.4, "2–4×": 0.2, ">4×": 0.1, "why": "x"}"#,
    )
    .expect("ranges");
    assert!(close(&a.bins, [0.0, 0.0, 0.0, 0.1, 0.2, 0.4, 0.2, 0.1]));
    let b = parse_reply(
        r#"{"bins": {"severe slowdown": 1, "significant slowdown": 1, "moderate slowdown": 1,
                "minor slowdown": 1, "minor speedup": 1, "significant speedup": 1,
                "high speedup": 1, "extreme speedup": 4}}"#,
    )
    .expect("names");
    assert!((b.bins.0[7] - 4.0 / 11.0).abs() < 1e-9);
    let c =
        parse_reply(r#"{"1": 0, "2": 0, "3": 0, "4": "50%", "5": "50%", "6": 0, "7": 0, "bin8": 0}"#).expect("numbers");
    assert!(close(&c.bins, [0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0]));
    let d = parse_reply(
        r#"{"<=0.25": 0, "0.25-0.5": 0, "0.5-0.707": 0, "0.707-1.0": 1, "1.0-1.414": 1,
                "1.414-2.0": 0, "2-4": 0, ">4": 0}"#,
    )
    .expect("ascii ranges");
    assert!(close(&d.bins, [0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0]));
    let e = parse_reply("[1, 1, 1, 1, 1, 1, 1, 1]").expect("bare array");
    assert!((e.bins.0[0] - 0.125).abs() < 1e-12);
}

#[test]
fn bad_answers_are_clear_errors() {
    assert_eq!(parse_reply("   "), Err(ReplyError::Empty));
    assert_eq!(parse_reply("I think it is faster."), Err(ReplyError::NoJson));
    assert_eq!(parse_reply(r#"{"answer": "faster"}"#), Err(ReplyError::NoJson));
    assert_eq!(parse_reply(r#"{"bins": [0.5, 0.5]}"#), Err(ReplyError::WrongCount(2)));
    assert_eq!(parse_reply(r#"{"bins": [0,0,0,0,0,0,0,0,1]}"#), Err(ReplyError::WrongCount(9)));
    assert!(matches!(
        parse_reply(r#"{"bins": [0.1,0.1,-0.2,0.1,0.1,0.1,0.1,0.1]}"#),
        Err(ReplyError::Negative { bin: 3, .. })
    ));
    assert!(matches!(
        parse_reply(r#"{"bins": [0.1,0.1,"NaN",0.1,0.1,0.1,0.1,0.1]}"#),
        Err(ReplyError::NotFinite { bin: 3, .. })
    ));
    assert!(matches!(
        parse_reply(r#"{"bins": [0.1,0.1,null,0.1,0.1,0.1,0.1,0.1]}"#),
        Err(ReplyError::NotNumber { bin: 3, .. })
    ));
    assert_eq!(parse_reply(r#"{"bins": [0,0,0,0,0,0,0,0]}"#), Err(ReplyError::AllZero));
    assert!(matches!(parse_reply(r#"{"1": 0.5, "2": 0.5}"#), Err(ReplyError::MissingBin { bin: 3, .. })));
    assert_eq!(
        parse_reply(r#"{"bins": {"1": 0.5, "2": 0.5, "huge": 1}}"#),
        Err(ReplyError::UnknownBin("huge".to_string()))
    );
    // A cut-off reply: no complete JSON value.
    assert_eq!(parse_reply(r#"{"bins": [0.1, 0.2, 0.3"#), Err(ReplyError::NoJson));
    // The error names the bin.
    let e = parse_reply(r#"{"bins": [0.1,0.1,-0.2,0.1,0.1,0.1,0.1,0.1]}"#).expect_err("negative");
    assert!(e.to_string().contains("bin 3 (0.5–0.71×) is negative"), "{e}");
}

#[test]
fn a_later_valid_value_wins_over_an_earlier_invalid_one() {
    let text = "Draft: {\"bins\": [1, 2]}\nFinal: {\"bins\": [0,0,0,0,1,0,0,0]}";
    let a = parse_reply(text).expect("final");
    assert_eq!(a.bins.argmax(), 4);
}

#[test]
fn prompt_carries_both_versions_sizes_and_hardware() {
    let base_text = "// kforecast: n = 1 << 24; x: f32[n] randn\n__global__ void scale(float* x, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] *= 2.0f;\n}\nvoid run(float* x, int n) { scale<<<(n + 255) / 256, 256>>>(x, n); }\n";
    let cand_text = base_text.replace("x[i] *= 2.0f", "x[i] = x[i] * 2.0f + 0.0f").replace("256", "512");
    let b = extract_text(Language::Cuda, base_text).kernels.remove(0);
    let c = extract_text(Language::Cuda, &cand_text).kernels.remove(0);
    let ctx = PairContext::new(&b, base_text, &c, &cand_text, "NVIDIA H100");
    assert_eq!(ctx.base_sizes, "n = 1 << 24; x: f32[n] randn");
    let msgs = messages(&ctx);
    assert_eq!(msgs.len(), 2);
    assert!(msgs[0].content.contains("S = t_base / t_candidate") && msgs[0].content.contains("\"bins\""));
    let user = &msgs[1].content;
    assert!(user.contains("132 SMs") && user.contains("50 MB L2") && user.contains("228 KB"), "{user}");
    assert!(user.contains("x[i] *= 2.0f") && user.contains("x[i] = x[i] * 2.0f + 0.0f"), "{user}");
    assert!(user.contains("n = 1 << 24"), "{user}");
    assert!(user.contains("block 512"), "{user}");
    // The key follows what the answer depends on.
    assert_eq!(ctx.key("m"), PairContext::new(&b, base_text, &c, &cand_text, "NVIDIA H100").key("m"));
    assert_ne!(ctx.key("m"), ctx.key("other-model"));
    assert_ne!(ctx.key("m"), PairContext::new(&b, base_text, &c, &cand_text, "NVIDIA A100").key("m"));
    let resized = cand_text.replace("1 << 24", "1 << 20");
    assert_ne!(ctx.key("m"), PairContext::new(&b, base_text, &c, &resized, "NVIDIA H100").key("m"));
}

#[test]
fn helpers_read_as_in_the_file() {
    let text = "#define TILE 32\n__global__ void k(float* x) { x[threadIdx.x] *= TILE; }\n";
    let k = extract_text(Language::Cuda, text).kernels.remove(0);
    let ctx = PairContext::new(&k, text, &k, text, "NVIDIA H100");
    assert!(messages(&ctx)[1].content.contains("#define TILE 32"), "{}", messages(&ctx)[1].content);
}

#[test]
fn long_sources_are_cut_at_a_char_boundary() {
    let s = "é".repeat(MAX_SOURCE_BYTES);
    let cut = bounded(&s, MAX_SOURCE_BYTES);
    assert!(cut.contains("more bytes left out"));
    assert!(Hardware::for_device("Some GPU").rates.is_empty());
}

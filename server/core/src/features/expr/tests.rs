use super::*;

#[test]
fn evaluates_launch_arithmetic() {
    let mut env = Env::default();
    env.define("threads", "256");
    env.set("n", 1_000_000.0);
    assert_eq!(env.eval("(n + threads - 1) / threads").map(|e| e.value), Some(3907.0));
    assert_eq!(env.eval("triton.cdiv(n, meta['BLOCK'])").map(|e| e.guesses), Some(1));
    assert_eq!(env.eval("1 << 10").map(|e| e.value), Some(1024.0));
    // The ceiling division idiom under the names headers give it.
    for idiom in ["CEIL(n, threads)", "iDivUp(n, threads)", "cuda::ceil_div(n, threads)", "DIVUP(n, threads)"] {
        assert_eq!(env.eval(idiom).map(|e| e.value), Some(3907.0), "{idiom}");
    }
    assert_eq!(env.eval("lambda meta: (triton.cdiv(n, 1024),)").map(|e| e.value), Some(977.0));
    assert_eq!(env.eval("256u").map(|e| e.value), Some(256.0));
    assert_eq!(env.eval("1e-8 * 1e8").map(|e| e.value), Some(1.0));
    assert_eq!(env.eval("0xE0").map(|e| e.value), Some(224.0));
    assert_eq!(env.eval("0xffffffffu").map(|e| e.value), Some(4_294_967_295.0));
    assert_eq!(env.eval("32 * sizeof(float4)").map(|e| e.value), Some(512.0));
    // C casts bind tighter than `*`; integer casts truncate; `(n)` alone is no cast.
    let exact = |t: &str| env.eval(t).filter(|e| e.guesses == 0).map(|e| e.value);
    assert_eq!(exact("(size_t)n * 4"), Some(4_000_000.0));
    assert_eq!(exact("(unsigned int)((n + 255) / 256)"), Some(3907.0));
    assert_eq!(exact("static_cast<int>(n / 3.0)"), Some(333_333.0));
    assert_eq!(exact("(int)(2.5) + (float)(1)"), Some(3.0));
    assert_eq!(exact("(threads) * 2"), Some(512.0));
    assert_eq!(exact("std::min((n + 255) / 256, 1056)"), Some(1056.0));
    // `std::size_t` is `size_t`; a call's C-type template argument (`std::min<int>`) is no size.
    assert_eq!(exact("static_cast<std::size_t>(threads) * 2"), Some(512.0));
    assert_eq!(exact("std::min<int>((n + 255) / 256, 1056)"), Some(1056.0));
    // Bitwise operators, with C's precedence: `&` binds tighter than `|`, looser than `==`.
    assert_eq!(exact("(threads + 37) & 31"), Some(5.0));
    assert_eq!(exact("n & 0xFF | 1 << 12"), Some(64.0 + 4096.0));
    assert_eq!(exact("6 ^ 3"), Some(5.0));
    // C's logic, as 1 or 0 (a launch's `if (n <= 4096 && !fast)`).
    assert_eq!(exact("n && threads"), Some(1.0));
    assert_eq!(exact("!(n > 0) || threads == 128"), Some(0.0));
    assert_eq!(exact("(threads == 256 && n > 0) ? 2 : 3"), Some(2.0));
    assert!(env.eval("a +* b").is_none());
    assert!(env.eval("x[").is_none());
}

#[test]
fn expands_function_like_macros() {
    let mut env = Env::default();
    env.define_macro("#define DIV_ROUND_UP(a, b) (((a) + (b) - 1) / (b))");
    env.define("n", "1000");
    assert_eq!(env.eval("DIV_ROUND_UP(n, 256)").map(|e| (e.value, e.guesses)), Some((4.0, 0)));
    // Another arity is not this macro: an unknown call, guessed.
    assert_eq!(env.eval("DIV_ROUND_UP(n)").map(|e| e.guesses), Some(1));
}

#[test]
fn reads_declared_tensor_sizes() {
    let mut env = Env::default();
    let d = crate::declaration::Declared {
        values: [("rows".to_string(), "4096".to_string())].into(),
        shapes: [("x".to_string(), vec!["rows".to_string(), "512".to_string()])].into(),
        ..Default::default()
    };
    for (k, v) in d.definitions() {
        env.define(&k, &v);
    }
    let value = |t: &str| env.eval(t).filter(|e| e.guesses == 0).map(|e| e.value);
    assert_eq!(value("x.shape[0] * x.shape[-1]"), Some(4096.0 * 512.0));
    assert_eq!(value("x.numel() // 2"), Some(4096.0 * 256.0));
    assert_eq!(value("x.stride(0)"), Some(512.0));
    assert_eq!(env.eval("y.numel()").map(|e| e.guesses), Some(1));
}

#[test]
fn splits_components() {
    assert_eq!(components("dim3(32, 8)"), Some(vec!["32".to_string(), "8".to_string()]));
    assert_eq!(components("(triton.cdiv(n, B), M)").map(|c| c.len()), Some(2));
    assert_eq!(components("(n,)"), Some(vec!["n".to_string()]));
    assert_eq!(components("(n + 1)"), None);
}

#[test]
fn a_binding_cycle_is_one_unknown_size() {
    // A kernel's `n` bound to its launcher's `size`, which the caller binds to its own `n`.
    let mut env = Env::default();
    env.define("size", "n");
    env.define("n", "(size)");
    let e = env.eval("(size + 255) / 256 * n").expect("evaluates");
    assert_eq!(e.guesses, 2);
    assert_eq!(e.value, ((ASSUMED_SIZE + 255.0) / 256.0).floor() * ASSUMED_SIZE);
    assert_eq!(env.missing.borrow().iter().collect::<Vec<_>>(), ["n"], "one size, not two");
    // A name bound to itself, or through several names, is unbound; an expression of itself
    // (a loop-carried value) is not a binding.
    env.define("a", "b");
    env.define("b", "c");
    env.define("c", "a");
    env.define("m", "m");
    assert_eq!(env.eval("m + b").map(|e| (e.value, e.guesses)), Some((2.0 * ASSUMED_SIZE, 2)));
    assert!(env.missing.borrow().contains("a") && env.missing.borrow().contains("m"));
}

#[test]
fn a_size_along_an_unknown_dimension_is_a_size_of_its_own() {
    // `input.size(dim)` of a `dim` the module's caller gives: one run-time size named by the
    // dimension, never the size along a guessed index (`input.shape[724]`).
    let env = Env::default();
    let e = env.eval("input.size(dim) * 2").expect("evaluates");
    assert_eq!(e.value, 2.0 * ASSUMED_SIZE);
    let missing = env.missing.borrow();
    assert!(missing.contains("input.shape[dim]"), "{missing:?}");
    assert!(!missing.iter().any(|m| m.starts_with("input.shape[") && m != "input.shape[dim]"), "{missing:?}");
}

#[test]
fn python_strings_none_and_platform_queries_decide_a_wrapper_s_choices() {
    let mut env = Env::default();
    env.define("reduction", "\"mean\"");
    env.define("softcap", "None");
    let exact = |env: &Env, t: &str| env.eval(t).filter(|e| e.guesses == 0).map(|e| e.value);
    // `reduction == "mean"`: a string equals itself only.
    assert_eq!(exact(&env, "1 if reduction == 'mean' else 2"), Some(1.0));
    assert_eq!(exact(&env, "1 if reduction == \"sum\" else 2"), Some(2.0));
    // `softcap is not None` where the caller left the default `None`.
    assert_eq!(exact(&env, "True if softcap is not None else False"), Some(0.0));
    assert_eq!(exact(&env, "softcap is None"), Some(1.0));
    // Forecasts are for an NVIDIA GPU: Liger's `MAX_FUSED_SIZE`, `num_warps` off ROCm.
    assert_eq!(exact(&env, "4096 if infer_device() == \"xpu\" else 65536 // 2"), Some(32768.0));
    assert_eq!(exact(&env, "32 if not is_hip() else 16"), Some(32.0));
    // A tensor nothing marks is made without gradients.
    assert_eq!(exact(&env, "x.requires_grad"), Some(0.0));
    // An unknown helper still rests on a guess.
    assert_eq!(env.eval("4096 if pick_device() == \"xpu\" else 2048").map(|e| e.guesses), Some(1));
}

//! The Triton job: the wrapper a declaration names (or a GPU MODE `custom_kernel(data)`
//! with the tuple `generate_input` makes) called in both versions with the declared inputs.

use super::*;

/// The declaration a GPU MODE-style program implies where it has none: the launching
/// function takes one tuple it unpacks (`x, w = data`) that `generate_input` makes, so
/// `wrapper = custom_kernel((x, w))`, each part's shape and dtype, and the sizes the call of
/// `generate_input` (or its defaults) gives. Anchored at the kernel's name.
pub(super) fn data_call_items(k: &Kernel, text: &str) -> Vec<Item> {
    let Some(host) = k.launches.first().map(|l| l.host_name.as_str()).filter(|h| !h.is_empty()) else {
        return Vec::new();
    };
    let Some(call) = crate::extract::gpumode::data_call(text, host) else { return Vec::new() };
    let item = |key: &str, value: String, typed: bool| Item { key: key.to_string(), value, typed, range: k.name_range };
    let mut out = Vec::new();
    let mut used = std::collections::BTreeSet::new();
    for part in &call.parts {
        let Some((dims, dtype)) = call.tensors.get(part) else { return Vec::new() };
        used.extend(dims.iter().flat_map(|d| crate::extract::words(d).map(str::to_string)));
        out.push(item(part, format!("{dtype}[{}] randn", dims.join(", ")), true));
    }
    for (name, value) in &call.sizes {
        if used.contains(name) {
            out.push(item(name, value.clone(), false));
        }
    }
    out.push(item("wrapper", format!("{}(({}))", call.wrapper, call.parts.join(", ")), false));
    out
}

/// The function added to a Triton file whose wrapper takes a tuple of inputs.
pub(super) const TUPLE_ADAPTER: &str = "_kforecast_call";

/// Builds the Triton job: the wrapper named by `wrapper = f(a, b)` is called in both
/// versions of the file with the declared inputs.
pub fn triton_job(
    kernel: &str,
    base: (&str, &str),
    candidate: (&str, &str),
    items: &[Item],
    decl_anchor: TextRange,
) -> Result<TritonJob, Vec<SpecError>> {
    let mut errors = Vec::new();
    let err = SpecError::new;
    let env = declared_env(items);
    let Some(wrapper) = items.iter().find(|i| i.key == "wrapper") else {
        return Err(vec![err(
            decl_anchor,
            format!("`{kernel}`: name the launch wrapper to call, e.g. `# kforecast: wrapper = softmax(x)`"),
        )]);
    };
    let (mut name, mut args) = declaration::call(&wrapper.value);
    // `custom_kernel((x, w))`: one tuple of inputs, passed by an adapter added to the file.
    let mut adapter = String::new();
    if let [tuple] = &args[..] {
        if let Some(inner) = tuple.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
            let parts = declaration::list(inner);
            adapter = format!("\n\ndef {TUPLE_ADAPTER}({0}):\n    return {name}(({0},))\n", parts.join(", "));
            name = TUPLE_ADAPTER.to_string();
            args = parts;
        }
    }
    let mut inputs = Vec::new();
    for arg in &args {
        let Some(it) = items.iter().find(|i| &i.key == arg) else {
            errors.push(err(
                wrapper.range,
                format!("`{arg}` is passed to `{name}` but not declared (e.g. `# kforecast: {arg}: f32[4096] randn`)"),
            ));
            continue;
        };
        if it.typed {
            match parse_buffer(&it.value) {
                Ok(b) => {
                    let mut shape = Vec::new();
                    for dim in &b.shape {
                        match eval_exact(&env, dim) {
                            Some(v) if v >= 1.0 => shape.push(v as u64),
                            _ => errors.push(err(it.range, format!("`{arg}`: cannot evaluate the size `{dim}`"))),
                        }
                    }
                    inputs.push(TritonInput::Tensor {
                        name: arg.clone(),
                        dtype: b.dtype,
                        shape,
                        init: b.init.unwrap_or(if b.dtype.is_float() {
                            Init::Randn
                        } else {
                            Init::Randint { lo: 0, hi: 100 }
                        }),
                    });
                }
                Err(e) => errors.push(err(it.range, format!("`{arg}`: {e}"))),
            }
        } else {
            match eval_exact(&env, &it.value) {
                Some(v) => inputs.push(TritonInput::Scalar { name: arg.clone(), value: v }),
                None => errors.push(err(it.range, format!("cannot evaluate `{}`", it.value))),
            }
        }
    }
    let outputs = items
        .iter()
        .find(|i| i.key == "outputs")
        .map(|i| i.value.split(',').map(|s| s.trim().to_string()).collect())
        .unwrap_or_default();
    if !errors.is_empty() {
        return Err(errors);
    }
    let version = |(file_name, source): (&str, &str)| TritonVersion {
        file_name: file_name.to_string(),
        source: format!("{source}{adapter}"),
        wrapper: name.clone(),
    };
    Ok(TritonJob {
        kernel: kernel.to_string(),
        base: version(base),
        candidate: version(candidate),
        inputs,
        args,
        outputs,
    })
}

//! CUDA kernels written as strings inside a Python file: the `cuda_sources` of
//! `torch.utils.cpp_extension.load_inline` and the code of `cupy.RawKernel` /
//! `cupy.RawModule`.
//!
//! Each string (a literal, an implicit concatenation, or a module-level variable holding
//! one) is decoded, parsed as CUDA with the CUDA extraction, and every range of its
//! kernels is mapped back into the Python file ([`super::pystring::OffsetMap`]). What the
//! Python says about the problem is attached where it can be followed: a `load_inline`
//! module's functions called from `forward` with the tensors `get_inputs()` makes give the
//! host wrapper's tensor parameters their shapes (so `int size = x.numel();` has a value),
//! and a CuPy launch `k((grid,), (block,), (args…))` becomes the kernel's launch site.

use super::pycall::{
    arguments, assignment, callee_name, cupy_launches, host_call, module, module_functions, names, string_value,
    Module, PyValue,
};
use super::pystring::Decoded;
use super::{node_text, squash, walk, words, Extraction};
use crate::declaration::Declared;
use crate::hash::ContentHash;
use crate::kernel::{Kernel, Language, LaunchSite};
use crate::source::SourceText;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use tree_sitter::Node;

/// Words that mark a Python file as possibly holding CUDA strings.
pub const MARKERS: [&str; 3] = ["load_inline", "RawKernel", "RawModule"];

/// One CUDA string's parse: its kernels (offsets in the string) and the parameter names
/// of its other functions (the host wrappers Python calls).
pub(super) struct Parsed {
    extraction: Extraction,
    hosts: HashMap<String, Vec<String>>,
}

/// The parses of a document's CUDA strings, by content hash.
pub(super) type Cache = HashMap<ContentHash, Arc<Parsed>>;

/// One CUDA string found in the file.
struct Source {
    decoded: Decoded,
    /// `load_inline`: the host functions Python calls, each with what it passes.
    calls: Vec<(String, Vec<PyValue>)>,
    /// CuPy: each kernel name this string is launched under, with its Python launch sites.
    launches: Vec<(String, LaunchSite)>,
}

/// The CUDA strings of the file.
fn sources(root: Node, src: &SourceText, m: &Module) -> Vec<Source> {
    let mut calls = Vec::new();
    walk::preorder(root, |n| {
        if n.kind() == "call" {
            if let Some(name) = callee_name(n, src) {
                if MARKERS.contains(&name.as_ref()) {
                    calls.push((name.into_owned(), n));
                }
            }
        }
        true
    });
    let mut out = Vec::new();
    for (kind, call) in calls {
        let (positional, keywords) = arguments(call, src);
        let arg = |key: &str, index: usize| keywords.get(key).copied().or_else(|| positional.get(index).copied());
        match kind.as_str() {
            "load_inline" => {
                let Some(decoded) = arg("cuda_sources", 2).and_then(|n| string_value(n, src, m, 0)) else { continue };
                let functions = arg("functions", 3).map(|n| names(n, src, m)).unwrap_or_default();
                let calls = functions.iter().filter_map(|f| host_call(root, src, m, f)).collect();
                out.push(Source { decoded, calls, launches: Vec::new() });
            }
            _ => {
                let Some(decoded) = arg("code", 0).and_then(|n| string_value(n, src, m, 0)) else { continue };
                let target = call.parent().and_then(|p| assignment(p)).map(|(l, _)| squash(&node_text(l, src)));
                let mut launchers: Vec<(String, String)> = Vec::new();
                if kind == "RawKernel" {
                    let name = arg("name", 1).map(|n| names(n, src, m)).unwrap_or_default();
                    if let (Some(t), Some(name)) = (&target, name.into_iter().next()) {
                        launchers.push((t.clone(), name));
                    }
                } else if let Some(t) = &target {
                    launchers.extend(module_functions(root, src, m, t));
                }
                let launches = cupy_launches(root, src, m, &launchers);
                out.push(Source { decoded, calls: Vec::new(), launches });
            }
        }
    }
    out
}

/// The CUDA kernels in the file's strings, with their ranges in the file. `taken` are
/// the names already used (a repeated name gets `#2`, as in a CUDA file).
pub(super) fn kernels(root: Node, src: &SourceText, cache: &mut Cache, taken: &[Kernel]) -> Vec<Kernel> {
    if !mentions_markers(src) {
        cache.clear();
        return Vec::new();
    }
    let m = module(root, src);
    let sources = sources(root, src, &m);
    let mut live = Cache::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for k in taken {
        *seen.entry(k.name.clone()).or_insert(0) += 1;
    }
    let mut out = Vec::new();
    for s in sources {
        let key = ContentHash::of(s.decoded.text.as_bytes());
        let parsed = cache.get(&key).cloned().unwrap_or_else(|| Arc::new(parse(&s.decoded.text)));
        live.insert(key, parsed.clone());
        let declared = inferred(&s, &parsed, &m.constants);
        for k in &parsed.extraction.kernels {
            let mut k = k.clone();
            let map = &s.decoded.map;
            k.range = map.range(k.range);
            k.name_range = map.range(k.name_range);
            k.signature_end = map.to_file(k.signature_end);
            for l in &mut k.launches {
                l.range = map.range(l.range);
            }
            let base = k.name.split('#').next().unwrap_or_default().to_string();
            k.launches.extend(s.launches.iter().filter(|(n, _)| *n == base).map(|(_, l)| {
                let mut l = l.clone();
                // Template arguments from the name the module was asked for, under the
                // kernel's own parameter names.
                for (i, param) in k.constexpr_params.iter().enumerate() {
                    if let Some(arg) = l.meta.remove(&format!("T{i}")) {
                        l.meta.insert(param.clone(), arg);
                    }
                }
                l
            }));
            for (key, v) in &declared.values {
                k.declared.values.entry(key.clone()).or_insert_with(|| v.clone());
            }
            for (key, v) in &declared.shapes {
                k.declared.shapes.entry(key.clone()).or_insert_with(|| v.clone());
            }
            let count = seen.entry(base.clone()).or_insert(0);
            *count += 1;
            if *count > 1 {
                k.name = format!("{base}#{count}");
            }
            k.identity = k.compute_identity();
            out.push(k);
        }
    }
    *cache = live;
    out
}

/// Whether the text names `load_inline`, `RawKernel` or `RawModule` anywhere (read from
/// the rope's chunks, so most Python files cost one pass over their bytes and no walk).
fn mentions_markers(src: &SourceText) -> bool {
    let boundary = |chunk: &str, mut at: usize| {
        while !chunk.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let mut tail = String::new();
    for chunk in src.rope().chunks() {
        let joined = format!("{tail}{}", &chunk[..boundary(chunk, chunk.len().min(16))]);
        if MARKERS.iter().any(|m| chunk.contains(m) || joined.contains(m)) {
            return true;
        }
        tail = chunk[boundary(chunk, chunk.len().saturating_sub(16))..].to_string();
    }
    false
}

fn parse(text: &str) -> Parsed {
    let src = SourceText::new(Language::Cuda, text);
    let extraction = super::extract(&src);
    let mut hosts = HashMap::new();
    if let Some(tree) = src.tree() {
        walk::preorder(tree.root_node(), |n| {
            if n.kind() != "function_definition" {
                return true;
            }
            if let Some(d) = super::cuda::function_declarator(n) {
                let name = d.child_by_field_name("declarator").map(|x| node_text(x, &src).into_owned());
                let params = d.child_by_field_name("parameters").map(|list| {
                    let mut c = list.walk();
                    list.named_children(&mut c)
                        .filter_map(|p| p.child_by_field_name("declarator"))
                        .filter_map(super::declarator_name)
                        .map(|x| node_text(x, &src).into_owned())
                        .collect::<Vec<_>>()
                });
                if let (Some(name), Some(params)) = (name, params) {
                    hosts.entry(name).or_insert(params);
                }
            }
            false
        });
    }
    Parsed { extraction, hosts }
}

/// The sizes the Python gives the string's host wrappers: each tensor parameter's shape
/// and each scalar's value, with the module constants they are written with put in (the
/// CUDA has names of its own: `int M = A.size(0);` beside Python's `M = 1024`).
fn inferred(s: &Source, parsed: &Parsed, constants: &BTreeMap<String, String>) -> Declared {
    let mut d = Declared::default();
    for (function, values) in &s.calls {
        let Some(params) = parsed.hosts.get(function) else { continue };
        for (p, v) in params.iter().zip(values) {
            match v {
                PyValue::Shape(dims) if dims.iter().all(|x| x != "?") => {
                    let dims = dims.iter().map(|x| inline_constants(x, constants)).collect();
                    d.shapes.entry(p.clone()).or_insert(dims);
                }
                PyValue::Value(v) => {
                    d.values.entry(p.clone()).or_insert_with(|| inline_constants(v, constants));
                }
                _ => {}
            }
        }
    }
    d
}

/// `text` with the module constants it names replaced by their values (in parentheses),
/// those values' names too.
fn inline_constants(text: &str, constants: &BTreeMap<String, String>) -> String {
    let mut out = text.to_string();
    for _ in 0..8 {
        let found: Vec<&str> = words(&out).filter(|w| constants.contains_key(*w)).collect();
        if found.is_empty() {
            break;
        }
        let found: HashSet<String> = found.into_iter().map(str::to_string).collect();
        for w in found {
            out = super::substitute(&out, &w, &format!("({})", constants[&w]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::extract::extract_text;
    use crate::kernel::{Kernel, Language};
    use crate::measure::protocol::{Arg, Job};
    use crate::measure::spec;

    const RELU_PREVIOUS: &str = include_str!("../../../../test-workspaces/foreign/kernelbench_relu/previous.py");
    const RELU_CURRENT: &str = include_str!("../../../../test-workspaces/foreign/kernelbench_relu/current.py");
    const SAXPY: &str = include_str!("../../../../test-workspaces/foreign/cupy_saxpy/previous.py");

    fn line_of(text: &str, at: usize) -> usize {
        text[..at].matches('\n').count()
    }

    fn only(text: &str) -> Kernel {
        let mut ks = extract_text(Language::Triton, text).kernels;
        assert_eq!(ks.len(), 1, "{:?}", ks.iter().map(|k| &k.name).collect::<Vec<_>>());
        ks.remove(0)
    }

    fn job(base: &str, cand: &str) -> Result<crate::measure::protocol::CudaJob, Vec<spec::SpecError>> {
        let (b, c) = (only(base), only(cand));
        match spec::job(("a.py", &b, base), ("b.py", &c, cand)) {
            Ok((Job::Cuda(j), _)) => Ok(j),
            Ok(_) => panic!("not a CUDA job"),
            Err(e) => Err(e),
        }
    }

    fn scalar(j: &crate::measure::protocol::CudaJob, name: &str) -> Option<f64> {
        j.args.iter().find_map(|a| match a {
            Arg::Scalar { name: n, value, .. } if n == name => Some(*value),
            _ => None,
        })
    }

    #[test]
    fn load_inline_kernels_are_cuda_at_their_lines_in_the_python_file() {
        for text in [RELU_PREVIOUS, RELU_CURRENT] {
            let k = only(text);
            assert_eq!(k.name, "relu_kernel");
            assert_eq!(k.language, Language::Cuda);
            assert_eq!(&text[k.name_range.start..k.name_range.end], "relu_kernel");
            let line = text.find("__global__ void relu_kernel").map(|at| line_of(text, at));
            assert_eq!(Some(line_of(text, k.name_range.start)), line);
            assert!(text[k.range.start..].starts_with("__global__ void relu_kernel"));
            assert_eq!(&text[k.signature_end - 1..k.signature_end], ")");
            let l = &k.launches[0];
            assert!(text[l.range.start..l.range.end].starts_with("relu_kernel<<<num_blocks, block_size>>>"));
            // Sizes followed from `get_inputs()` through `forward` into the host wrapper.
            assert_eq!(k.declared.shapes.get("x"), Some(&vec!["(16)".to_string(), "(16384)".to_string()]));
            assert_eq!(crate::features::profile(&k).guesses, 0, "every size is known");
        }
    }

    #[test]
    fn a_verify_job_is_built_from_the_strings_and_get_inputs() {
        let j = job(RELU_PREVIOUS, RELU_CURRENT).expect("job");
        assert_eq!(scalar(&j, "size"), Some(16.0 * 16384.0));
        assert_eq!(j.base.grid, [1024, 1, 1]);
        assert_eq!(j.candidate.grid, [256, 1, 1]);
        assert_eq!(j.candidate.block, [256, 1, 1]);
        // Device code only: the torch wrapper and its headers stay out.
        assert!(j.candidate.source.contains("__global__ void relu_kernel"));
        assert!(!j.candidate.source.contains("torch"));
        // Without `get_inputs()` the size is not known: the usual request for a value.
        let blind = RELU_CURRENT.replace("def get_inputs():", "def inputs():");
        let errors = job(RELU_PREVIOUS, &blind).expect_err("no size");
        assert!(errors.iter().any(|e| e.message.contains("`size` needs a value")), "{errors:?}");
    }

    #[test]
    fn several_inputs_size_every_buffer_and_python_names_do_not_clash_with_the_wrappers() {
        let previous = include_str!("../../../../test-workspaces/foreign/kernelbench_matmul/previous.py");
        let current = include_str!("../../../../test-workspaces/foreign/kernelbench_matmul/current.py");
        for text in [previous, current] {
            // Python's `M = 1024` and the wrapper's `int M = A.size(0);` are different names.
            assert_eq!(crate::features::profile(&only(text)).guesses, 0);
        }
        let j = job(previous, current).expect("job");
        assert_eq!((scalar(&j, "M"), scalar(&j, "N"), scalar(&j, "K")), (Some(1024.0), Some(1024.0), Some(2048.0)));
        let len = |name: &str| {
            j.args.iter().find_map(|a| match a {
                Arg::Buffer { name: n, len, output, .. } if n == name => Some((*len, *output)),
                _ => None,
            })
        };
        assert_eq!(len("A"), Some((1024 * 2048, false)));
        assert_eq!(len("B"), Some((2048 * 1024, false)));
        assert_eq!(len("C"), Some((1024 * 1024, true)), "torch::zeros({{M, N}}, …) in the wrapper");
        assert_eq!((j.base.grid, j.base.block), ([64, 64, 1], [16, 16, 1]));
        assert_eq!((j.candidate.grid, j.candidate.block), ([64, 64, 1], [16, 16, 1]));
        assert!(j.candidate.source.contains("#define TILE 16"));
    }

    #[test]
    fn a_declaration_in_the_string_wins_over_get_inputs() {
        let declared = RELU_CURRENT.replace(
            "__global__ void relu_kernel",
            "// kforecast: size = 1000; x: f32[size]; out: f32[size]\n__global__ void relu_kernel",
        );
        let k = only(&declared);
        assert_eq!(k.declared.values.get("size").map(String::as_str), Some("1000"));
        let j = job(RELU_PREVIOUS, &declared).expect("job");
        assert_eq!(scalar(&j, "size"), Some(1000.0));
    }

    #[test]
    fn cupy_raw_kernels_launch_from_python() {
        let k = only(SAXPY);
        assert_eq!((k.name.as_str(), k.language), ("saxpy", Language::Cuda));
        assert_eq!(&SAXPY[k.name_range.start..k.name_range.end], "saxpy");
        let l = &k.launches[0];
        assert_eq!((l.grid.as_deref(), l.block.as_deref()), (Some("(BLOCKS,)"), Some("(THREADS,)")));
        assert_eq!(l.args.last().map(String::as_str), Some("N"));
        assert!(SAXPY[l.range.start..l.range.end].starts_with("saxpy_kernel((BLOCKS,)"));
        let j = job(SAXPY, SAXPY).expect("job");
        assert_eq!(scalar(&j, "n"), Some((1u64 << 24) as f64));
        assert_eq!(scalar(&j, "a"), Some(2.0));
        assert_eq!((j.base.grid, j.base.block), ([131072, 1, 1], [128, 1, 1]));
    }

    #[test]
    fn raw_modules_fstrings_escapes_and_variables_are_followed() {
        let text = "import cupy\n\
            HEAD = '#define SCALE 2.0f\\n'\n\
            BODY = f'''\n\
            __global__ void twice(float* y, int n) {{\n\
            \x20   int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
            \x20   if (i < n) y[i] *= SCALE;\n\
            }}\n'''\n\
            mod = cupy.RawModule(code=HEAD + BODY)\n\
            k = mod.get_function('twice')\n\
            n = 4096\n\
            k((n // 256,), (256,), (y, numpy.int32(n)))\n";
        let k = only(text);
        assert_eq!(&text[k.name_range.start..k.name_range.end], "twice");
        // After the `{{` escapes of the f-string the text maps to their start.
        assert!(text[k.range.start..].starts_with("__global__ void twice"));
        assert!(k.helpers.iter().any(|h| h.name == "SCALE"));
        assert_eq!(k.launches[0].locals.get("n").map(String::as_str), Some("4096"));
        let j = job(text, text).expect("job");
        assert_eq!(j.base.grid, [16, 1, 1]);
    }

    #[test]
    fn a_templated_raw_module_function_is_launched_with_its_template_arguments() {
        let text = "import cupy\n\
            CODE = r'''\n\
            template <int THREADS>\n\
            __global__ void scale_rows(float* y, int n) {\n\
            \x20   int i = blockIdx.x * THREADS + threadIdx.x;\n\
            \x20   if (i < n) y[i] *= 2.0f;\n\
            }\n'''\n\
            mod = cupy.RawModule(code=CODE, name_expressions=['scale_rows<256>'])\n\
            k = mod.get_function('scale_rows<256>')\n\
            n = 1 << 20\n\
            k((n // 256,), (256,), (y, cupy.int32(n)))\n";
        let k = only(text);
        assert_eq!(k.name, "scale_rows");
        assert_eq!(k.launches.len(), 1, "the launch of `scale_rows<256>` is the kernel's");
        assert_eq!(k.launches[0].meta.get("THREADS").map(String::as_str), Some("256"));
        assert_eq!(
            crate::measure::nvcc::name_expression_parts("f< a, b<c, d> >"),
            ("f".into(), vec!["a".into(), "b<c,d>".into()])
        );
    }

    #[test]
    fn implicitly_concatenated_strings_in_a_list_variable_map_part_by_part() {
        let text = "from torch.utils.cpp_extension import load_inline\n\
            src = (\"__global__ void first(float* y) { y[0] = 0; }\\n\"\n\
            \x20      '__global__ void second(float* y) { y[1] = 1; }')\n\
            m = load_inline(name='m', cpp_sources='', cuda_sources=[src], functions=[])\n";
        let ks = extract_text(Language::Triton, text).kernels;
        let names: Vec<&str> = ks.iter().map(|k| &text[k.name_range.start..k.name_range.end]).collect();
        assert_eq!(names, ["first", "second"]);
        assert!(text[ks[1].range.start..ks[1].range.end].starts_with("__global__ void second"));
    }

    #[test]
    fn search_refuses_cuda_strings_clearly() {
        let e = crate::search::validate::Original::new(RELU_CURRENT, Language::Triton, "relu_kernel").err();
        assert!(e.is_some_and(|e| e.contains("CUDA written in a Python string")));
    }

    #[test]
    fn python_without_cuda_strings_and_unreadable_strings_give_no_cuda_kernels() {
        assert!(extract_text(Language::Triton, "import torch\nx = torch.randn(4)\n").kernels.is_empty());
        let substituted = "from torch.utils.cpp_extension import load_inline\nB = 4\n\
            m = load_inline(name='m', cpp_sources='', cuda_sources=f'__global__ void k(float* x) {{ x[{B}] = 0; }}')\n";
        assert!(extract_text(Language::Triton, substituted).kernels.is_empty());
        // Half-typed text does not panic.
        for cut in [
            "m = load_inline(name='m', cuda_sources='__global__ void k(float* x) { x[0] = ",
            "k = cupy.RawKernel(",
            "k((1,), ",
        ] {
            let _ = extract_text(Language::Triton, cut);
        }
    }

    #[test]
    fn an_edit_inside_the_string_moves_only_what_follows() {
        let edited = RELU_PREVIOUS.replace("#include <cuda_runtime.h>\n", "#include <cuda_runtime.h>\n// more\n");
        let (a, b) = (only(RELU_PREVIOUS), only(&edited));
        assert_eq!(b.name_range.start, a.name_range.start + "// more\n".len());
        assert_eq!(a.identity(), b.identity());
    }
}

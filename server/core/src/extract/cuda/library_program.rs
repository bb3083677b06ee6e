//! A CUDA program whose work is GPU library calls, not kernels of its own: a ladder's
//! cuBLAS, Thrust or CUB step (`extern "C" void run(…) { cublasSgemm(h, …, N, N, N, …); }`),
//! read as one `Kernel` flagged `torch_program`, as a PyTorch-only program is. Its launch
//! holds the calls with their arguments and the locals those use, and a program forecast
//! costs the calls (see `features::torch_ops::library`) against the other version's
//! kernels, so "is my SGEMM faster than cuBLAS" has an answer.

use super::*;
use crate::kernel::{Helper, Kernel, Language};

/// The library program of a CUDA text: the host functions the program runs (those its
/// entry points reach, `main` or an `extern "C"` function; every one where it has none and
/// no kernel) that make library calls and launch no kernel themselves (a launching
/// function's calls are costed with its kernels). `None` where there are none, or the text
/// has kernels and no entry point (a library's file: its kernels are the program).
pub fn library_program(text: &str, has_kernels: bool) -> Option<Kernel> {
    let src = SourceText::new(Language::Cuda, text);
    let tree = src.tree()?;
    let root = tree.root_node();
    let mut helpers: Vec<Helper> = Vec::new();
    let mut defs = Vec::new();
    // The items inside namespaces and `extern "C"` blocks too (`namespace ckl { void
    // gemm_cublas(…) { cublasSgemm(…); } }` called as `ckl::gemm_cublas(…)` from `kf_run`).
    let mut items = Vec::new();
    crate::extract::collect_items(Language::Cuda, root, &src, &mut items);
    let mut facts: Vec<ItemFacts> = items.iter().map(|(item, _)| item_facts(*item, &src)).collect();
    for f in &mut facts {
        let drafts = std::mem::take(&mut f.helpers);
        helpers.extend(drafts.into_iter().filter(|h| h.kind != HelperKind::DeviceFunction).map(|h| Helper {
            name: h.name,
            kind: h.kind,
            text: h.text,
            hash: h.normalized,
        }));
        defs.append(&mut f.host_defs);
    }
    let reached = crate::extract::reach::reached(&defs.iter().collect::<Vec<_>>());
    // The file's own functions are no library's, whatever their names (`cublas_status_string`).
    let own: std::collections::BTreeSet<&str> =
        defs.iter().map(|d| d.name.rsplit("::").next().unwrap_or(&d.name)).collect();
    if reached.is_none() && has_kernels {
        return None;
    }
    // Each host function that calls a library and launches nothing, in file order.
    let mut callers: Vec<(Node, String, Vec<LibraryCall>)> = Vec::new();
    walk::preorder(root, |n| {
        if n.kind() != "function_definition" {
            return true;
        }
        if has_child_kind(n, "__global__") || has_child_kind(n, "__device__") {
            return false;
        }
        let Some(name) = crate::extract::reach::qualified_name(n, &src) else { return false };
        if reached.as_ref().is_some_and(|r| !r.contains(&name)) {
            return false;
        }
        let (mut calls, mut launches) = (Vec::new(), false);
        walk::preorder(n, |c| {
            if c.kind() == "kernel_call_syntax" {
                launches = true;
            }
            if c.kind() == "call_expression" {
                calls.extend(
                    library_call_at(c, &src).filter(|call| !calls.contains(call) && !own.contains(call.name.as_str())),
                );
            }
            !launches
        });
        // A function that only allocates, copies or waits runs no library's work.
        let work = calls.iter().any(|c: &LibraryCall| !crate::kernel::is_host_sync(&c.name));
        if !launches && work {
            callers.push((n, name, calls));
        }
        false
    });
    let (def, name, _) = callers.first()?.clone();
    let mut site = LaunchSite {
        range: node_range(def),
        locals: host_locals(def, &src, def.end_byte()),
        host_params: crate::extract::callers::signature(def, &src).map(|s| s.1).unwrap_or_default(),
        host_name: name,
        reached: reached.is_some(),
        ..LaunchSite::default()
    };
    // A parameter takes what the file's calls pass (`gemm_ex(…, CUDA_R_16F)`: the type a
    // `cublasGemmEx` is called with).
    let mut file_calls = crate::extract::callers::Callers::default();
    for (at, f) in facts.iter().enumerate() {
        file_calls.add(at, &f.calls, &f.out_params);
    }
    file_calls.prefer(reached.as_ref());
    let params = site.host_params.clone();
    crate::extract::callers::bind(&mut site, &params, &file_calls);
    for (other, _, calls) in &callers {
        if *other != def {
            for (k, v) in host_locals(*other, &src, other.end_byte()) {
                site.locals.entry(k).or_insert(v);
            }
        }
        site.library_calls.extend(calls.iter().cloned());
    }
    let source: String =
        callers.iter().map(|(d, _, _)| node_text(*d, &src).into_owned()).collect::<Vec<_>>().join("\n");
    let name_node = function_declarator(def).and_then(|d| d.child_by_field_name("declarator")).unwrap_or(def);
    let mut k = Kernel {
        // Named for what it runs (`cublasSgemm`, `thrust::sort + thrust::reduce`).
        name: site
            .library_names()
            .into_iter()
            .filter(|n| !crate::kernel::is_host_sync(n))
            .collect::<Vec<_>>()
            .join(" + "),
        language: Language::Cuda,
        range: node_range(def),
        name_range: node_range(name_node),
        signature_end: def.child_by_field_name("body").map_or(def.start_byte(), |b| b.start_byte()),
        raw_hash: ContentHash::of(source.as_bytes()),
        normalized_hash: ContentHash::of(squash(&source).as_bytes()),
        source: source.into(),
        identity: ContentHash::default(),
        helpers,
        launch_bounds: Vec::new(),
        constexpr_params: Vec::new(),
        launches: vec![site],
        autotune: Vec::new(),
        has_errors: def.has_error(),
        declared: Default::default(),
        companions: Vec::new(),
        torch_program: true,
        torch_loops: false,
    };
    k.identity = k.compute_identity();
    Some(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CUBLAS: &str = "#include <cublas_v2.h>\n#define N 4096\n\
        static void helper(float* x) { }\n\
        extern \"C\" void kf_run(float* a, float* b, float* c) {\n\
          static cublasHandle_t h; cublasCreate(&h);\n\
          float alpha = 1.0f, beta = 0.0f;\n\
          cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &alpha, b, N, a, N, &beta, c, N);\n\
        }\n";

    #[test]
    fn a_cublas_step_is_a_program_of_its_calls() {
        let k = library_program(CUBLAS, false).expect("a library program");
        assert_eq!(k.name, "cublasSgemm");
        assert!(k.torch_program);
        let site = &k.launches[0];
        assert_eq!(site.library_calls.len(), 1);
        assert_eq!(site.library_calls[0].args[3], "N");
        assert!(k.helpers.iter().any(|h| h.name == "N"));
    }

    #[test]
    fn a_thrust_functor_in_the_arguments_is_no_call_of_its_own() {
        let text = "#include <thrust/reduce.h>\n\
            extern \"C\" void kf_run(float* in, float* out, int n) {\n\
              thrust::device_ptr<float> b(in), e(in + n);\n\
              float s = thrust::reduce(b, e, 0.0f, thrust::plus<float>());\n\
              cudaMemcpy(out, &s, sizeof(float), cudaMemcpyHostToDevice);\n\
            }\n";
        let k = library_program(text, false).expect("a library program");
        assert_eq!(k.name, "thrust::reduce");
        let calls: Vec<&str> = k.launches[0].library_calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(calls, ["thrust::reduce", "cudaMemcpy"]);
    }

    #[test]
    fn cubs_two_call_pattern_is_one_call_and_unreached_functions_are_left_out() {
        let text = "#include <cub/cub.cuh>\n\
            void unused(float* a, int n) { thrust::sort(thrust::device, a, a + n); }\n\
            extern \"C\" void kf_run(float* in, float* out, int n) {\n\
              void* t = nullptr; size_t bytes = 0;\n\
              cub::DeviceReduce::Sum(t, bytes, in, out, n);\n\
              cudaMalloc(&t, bytes);\n\
              cub::DeviceReduce::Sum(t, bytes, in, out, n);\n\
            }\n";
        let k = library_program(text, false).expect("a library program");
        assert_eq!(k.name, "cub::DeviceReduce::Sum");
        let calls: Vec<&str> = k.launches[0].library_calls.iter().map(|c| c.name.as_str()).collect();
        // The scratch's allocation is a wait of its own.
        assert_eq!(calls, ["cub::DeviceReduce::Sum", "cudaMalloc"]);
        // A `main` beside `kf_run` (the author's driver: a reference check through another
        // library call) is not what verify times.
        let driver = format!(
            "{text}void check(float* a, int n) {{ thrust::sort(thrust::device, a, a + n); }}\n\
             int main() {{ float* a; cudaMalloc(&a, 4); check(a, 1); kf_run(a, a, 1); return 0; }}\n"
        );
        let k = library_program(&driver, false).expect("a library program");
        assert_eq!(k.name, "cub::DeviceReduce::Sum");
        // A file of kernels and no entry point is its kernels' program, not its calls'.
        assert!(library_program(&text.replace("extern \"C\" ", ""), true).is_none());
    }
    #[test]
    fn a_library_s_wrapper_in_a_namespace_is_reached_and_its_own_functions_are_no_calls() {
        // A library's cuBLAS oracle: a handle cached in an anonymous namespace, each status
        // checked by the file's own `check_cublas(…)` naming it with `cublas_status_string`.
        let text = "#include <cublas_v2.h>\n\
            namespace ckl {\n\
            namespace {\n\
            const char* cublas_status_string(cublasStatus_t s) { return \"?\"; }\n\
            void check_cublas(cublasStatus_t s) { if (s) throw cublas_status_string(s); }\n\
            }  // namespace\n\
            void gemm_cublas(const float* a, const float* b, float* c, int m, int n, int k) {\n\
              cublasHandle_t h; float alpha = 1.0f, beta = 0.0f;\n\
              check_cublas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n, a, k, &beta, c, n));\n\
            }\n\
            }  // namespace ckl\n\
            extern \"C\" void kf_run(const float* a, const float* b, float* c, int m, int n, int k) {\n\
              ckl::gemm_cublas(a, b, c, m, n, k);\n\
            }\n";
        let k = library_program(text, false).expect("a library program");
        assert_eq!(k.name, "cublasSgemm");
        assert_eq!(k.launches[0].host_name, "gemm_cublas");
    }
    #[test]
    fn a_gemm_ex_s_type_passed_by_its_caller_is_its_element_size() {
        // The author's 16-bit oracle: `gemm_ex` takes its input type from the caller.
        let text = "#include <cublas_v2.h>\n\
            static void gemm_ex(const void* a, const void* b, float* c, int m, int n, int k, cudaDataType_t in_type) {\n\
              cublasHandle_t h; float alpha = 1.0f, beta = 0.0f;\n\
              if (k <= 0) { cublasSscal(h, m * n, &beta, c, 1); return; }\n\
              cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, in_type, n, a, in_type, k, &beta, c,\n\
                           CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);\n\
            }\n\
            void gemm_fp16(const __half* a, const __half* b, float* c, int m, int n, int k) {\n\
              gemm_ex(a, b, c, m, n, k, CUDA_R_16F);\n\
            }\n\
            extern \"C\" void kf_run(const __half* a, const __half* b, float* c, int m, int n, int k) {\n\
              gemm_fp16(a, b, c, m, n, k);\n\
            }\n";
        let k = library_program(text, false).expect("a library program");
        let site = &k.launches[0];
        assert_eq!(site.locals.get("in_type").map(String::as_str), Some("CUDA_R_16F"));
        assert_eq!(crate::features::torch_ops::library::element_size(site), Some(2.0), "tensor cores' 16-bit rate");
    }
}

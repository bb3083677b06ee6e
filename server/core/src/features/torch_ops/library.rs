//! The work of a GPU library call (cuBLAS, Thrust, CUB) read from its arguments, as a
//! torch operation's is: `cublasSgemm(h, …, m, n, k, …)` is a matrix product of m×k by k×n,
//! `thrust::sort(first, first + n)` a sort of n elements, `cub::DeviceReduce::Sum(…, n)` one
//! pass over n. So a version that hands its work to a library (a ladder's cuBLAS or CUB
//! step) is costed against one that writes the kernel, at the library's efficiency. A call
//! whose work is not known here (cuFFT, cuDNN, a batched GEMM) is an operation of unknown
//! work: its launch counts, and a pair that differs by it is not claimed surely.

use super::{Size, TorchOp, Work};
use crate::kernel::{is_host_sync, LaunchSite, LibraryCall};
use std::collections::BTreeMap;

/// The library calls of a launch's function as operations, in the order written (a Thrust
/// algorithm's own waits after it, see [`thrust_waits`]); with the host syncs it makes
/// (`cudaDeviceSynchronize()`, `x.item<float>()`, `cudaMalloc`), each a wait of
/// [`super::HOST_SYNC`], except in a `main`, whose timing is the author's own (around its
/// kernels, not its allocations and copies).
pub fn library_ops(site: &LaunchSite) -> Vec<TorchOp> {
    let mut out: Vec<TorchOp> = Vec::new();
    let main = site.host_name == "main";
    let counted = |c: &&LibraryCall| !(size_query(c) || (main && is_host_sync(&c.name)));
    // A call made again with other arguments is a launch of its own: `name #2`.
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for call in site.library_calls.iter().filter(counted) {
        let mut op = op(call);
        let count = seen.entry(call.name.as_str()).or_insert(0);
        *count += 1;
        if *count > 1 {
            op.name = format!("{} #{}", call.name, count);
        }
        // Thrust's own waits: its scratch allocated and freed in the call, and a result
        // copied back to the host.
        let waits = thrust_waits(&call.name).filter(|_| op.work != Work::Unknown && !main).unwrap_or(0);
        let name = op.name.clone();
        out.push(op);
        for k in 1..=waits {
            out.push(TorchOp {
                name: format!("{name} wait {k}"),
                reads: Vec::new(),
                writes: Size::One,
                work: Work::HostSync,
            });
        }
    }
    out
}

/// The host waits a Thrust algorithm makes by itself (its default allocator's scratch,
/// `cudaMalloc` and `cudaFree` in the call; a value returned to the host): two for a
/// reduction, one for a scan, a sort or a compaction, none for a plain transform or copy.
fn thrust_waits(name: &str) -> Option<u32> {
    let f = name.strip_prefix("thrust::")?;
    Some(match f {
        "reduce" | "count" | "count_if" | "transform_reduce" | "inner_product" | "min_element" | "max_element"
        | "minmax_element" | "find" | "find_if" | "all_of" | "any_of" | "none_of" | "is_sorted" | "equal" => 2,
        "inclusive_scan"
        | "exclusive_scan"
        | "transform_inclusive_scan"
        | "transform_exclusive_scan"
        | "inclusive_scan_by_key"
        | "exclusive_scan_by_key"
        | "reduce_by_key"
        | "sort"
        | "stable_sort"
        | "sort_by_key"
        | "stable_sort_by_key"
        | "copy_if"
        | "remove_if"
        | "remove_copy_if"
        | "unique"
        | "unique_copy"
        | "partition" => 1,
        _ => 0,
    })
}

/// A CUB call passed no scratch (`nullptr`): the two-call pattern's first call, which only
/// asks how much scratch the second needs and does no work.
fn size_query(call: &LibraryCall) -> bool {
    let null =
        |a: &str| matches!(a.trim_start_matches("(void*)").trim_start_matches("(void *)"), "nullptr" | "NULL" | "0");
    call.name.contains("cub::") && call.args.first().is_some_and(|a| null(a.trim()))
}

/// Whether kforecast knows the work of the library call `name` (see [`library_ops`]).
pub fn costed(name: &str) -> bool {
    op(&LibraryCall { name: name.to_string(), args: vec!["n".to_string(); 12] }).work != Work::Unknown
}

/// The element size the library calls of `site` name (`cublasHgemm`: 2 bytes,
/// `cublasDgemm`: 8, `cublasGemmEx(…, CUDA_R_16F, …)`: 2); `None` where they do not. A
/// matrix product's, where there is one: it is the work (a `cublasSscal` of C on an
/// empty-contraction path beside a 16-bit `cublasGemmEx` does not make the product fp32).
pub fn element_size(site: &LaunchSite) -> Option<f64> {
    let product = |call: &LibraryCall| call.name.to_ascii_lowercase().contains("gemm");
    let any_product = site.library_calls.iter().any(product);
    let sizes = site.library_calls.iter().filter(|call| !any_product || product(call)).filter_map(|call| {
        let f = call.name.strip_prefix("cublas")?.trim_end_matches("_v2");
        if f.ends_with("Ex") {
            // The first type named is the inputs' (`Atype`), which the rate is for; a
            // parameter's, as the call of its function passes it.
            let types = [("CUDA_R_8I", 1.0), ("CUDA_R_16F", 2.0), ("CUDA_R_16BF", 2.0), ("CUDA_R_32F", 4.0)];
            return call.args.iter().find_map(|a| {
                let a = site.locals.get(a.trim()).map_or(a.as_str(), String::as_str);
                types.iter().find(|(t, _)| a.trim() == *t).map(|(_, s)| *s)
            });
        }
        match f.chars().next()? {
            'S' => Some(4.0),
            'D' | 'C' => Some(8.0),
            'H' => Some(2.0),
            'Z' => Some(16.0),
            _ => None,
        }
    });
    crate::extract::agreed_element_size(sizes)
}

/// The operation one library call is.
fn op(call: &LibraryCall) -> TorchOp {
    let name = call.name.as_str();
    let unknown = || TorchOp { name: name.to_string(), reads: Vec::new(), writes: Size::Unknown, work: Work::Unknown };
    if is_host_sync(name) {
        return TorchOp { name: name.to_string(), reads: Vec::new(), writes: Size::One, work: Work::HostSync };
    }
    let read = if let Some(f) = name.strip_prefix("cublas") {
        cublas(f.trim_end_matches("_v2"), &call.args)
    } else if let Some(f) = name.strip_prefix("thrust::") {
        thrust(f, &call.args)
    } else if let Some(f) = name.strip_prefix("cub::").or_else(|| name.strip_prefix("hipcub::")) {
        cub(f, &call.args)
    } else {
        None
    };
    match read {
        Some((reads, writes, work)) => TorchOp { name: name.to_string(), reads, writes, work },
        None => unknown(),
    }
}

type Read = (Vec<Size>, Size, Work);

fn fill(text: &str) -> Size {
    Size::Fill(format!("({})", text.trim()))
}

fn product(a: &str, b: &str) -> Size {
    Size::Fill(format!("({}) * ({})", a.trim(), b.trim()))
}

/// cuBLAS (`f` without its `cublas` prefix): the GEMMs, GEMV, GEAM and the level-1 calls.
fn cublas(f: &str, args: &[String]) -> Option<Read> {
    let a = |i: usize| args.get(i).map(String::as_str);
    // `Sgemm`, `Hgemm`, `GemmEx`, `SgemmEx`: (handle, opA, opB, m, n, k, …).
    let gemm = (f.len() == 5 && f.get(1..) == Some("gemm")) || f == "GemmEx" || f == "SgemmEx";
    if gemm {
        let (m, n, k) = (a(3)?, a(4)?, a(5)?);
        return Some((vec![product(m, k), product(k, n)], product(m, n), Work::Gemm));
    }
    let level = f.get(1..).unwrap_or_default();
    // The precision letter first (`Sgemv`), or after `I` (`Isamax`).
    let level = if f.starts_with('I') { f.get(2..).unwrap_or_default() } else { level };
    match level {
        // (handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy): y = A x.
        "gemv" => {
            let (m, n) = (a(2)?, a(3)?);
            let transposed = a(1).is_some_and(|t| t.ends_with("_T") || t.ends_with("_C"));
            let (into, from) = if transposed { (n, m) } else { (m, n) };
            Some((vec![product(m, n), fill(from)], fill(into), Work::PerElement(2.0)))
        }
        // (handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc): C = αA + βB.
        "geam" => {
            let (m, n) = (a(3)?, a(4)?);
            Some((vec![product(m, n), product(m, n)], product(m, n), Work::PerElement(3.0)))
        }
        // (handle, n, alpha, x, incx, y, incy)
        "axpy" => Some((vec![fill(a(1)?), fill(a(1)?)], fill(a(1)?), Work::PerElement(2.0))),
        // (handle, n, x, incx, y, incy, result)
        "dot" | "dotu" | "dotc" => Some((vec![fill(a(1)?), fill(a(1)?)], Size::One, Work::PerElement(2.0))),
        // (handle, n, alpha, x, incx)
        "scal" => Some((vec![fill(a(1)?)], fill(a(1)?), Work::PerElement(1.0))),
        // (handle, n, x, incx, result)
        "asum" | "nrm2" | "amax" | "amin" => Some((vec![fill(a(1)?)], Size::One, Work::PerElement(2.0))),
        // (handle, n, x, incx, y, incy)
        "copy" => Some((vec![fill(a(1)?)], fill(a(1)?), Work::PerElement(0.0))),
        "swap" => {
            Some((vec![fill(a(1)?), fill(a(1)?)], Size::Sum(vec![fill(a(1)?), fill(a(1)?)]), Work::PerElement(0.0)))
        }
        _ => None,
    }
}

/// Thrust's algorithms over `[first, last)` (after an execution policy, `thrust::device`);
/// one on the host (`thrust::host`) runs no kernel: its work is not the GPU's.
fn thrust(f: &str, args: &[String]) -> Option<Read> {
    let policy = |a: &str| a.starts_with("thrust::") && !a.contains('(') || a.contains("::par") || a == "exec";
    let args: &[String] = match args.first() {
        Some(p) if p.starts_with("thrust::host") || p.starts_with("thrust::seq") => return None,
        Some(p) if policy(p) => &args[1..],
        _ => args,
    };
    let a = |i: usize| args.get(i).map(String::as_str);
    // `fill_n(first, n, value)`, `copy_n(first, n, result)`: a count, not a range.
    if let Some(base) = f.strip_suffix("_n") {
        let n = fill(a(1)?);
        return match base {
            "fill" | "uninitialized_fill" | "generate" => Some((Vec::new(), n, Work::PerElement(0.0))),
            "copy" | "uninitialized_copy" | "for_each" | "transform" => {
                Some((vec![n.clone()], n, Work::PerElement(1.0)))
            }
            _ => None,
        };
    }
    let n = distance(a(0)?, a(1)?);
    let one = || vec![n.clone()];
    let two = || vec![n.clone(), n.clone()];
    Some(match f {
        "reduce" | "count" | "count_if" | "find" | "find_if" | "min_element" | "max_element" | "minmax_element"
        | "all_of" | "any_of" | "none_of" | "is_sorted" => (one(), Size::One, Work::PerElement(1.0)),
        "transform_reduce" => (one(), Size::One, Work::PerElement(2.0)),
        "inner_product" | "equal" | "mismatch" => (two(), Size::One, Work::PerElement(2.0)),
        // (first1, last1, first2, result, op): two operands; (first, last, result, op): one.
        "transform" | "transform_if" if args.len() >= 5 => (two(), n, Work::PerElement(1.0)),
        "transform" | "transform_if" | "for_each" | "adjacent_difference" => (one(), n, Work::PerElement(1.0)),
        "inclusive_scan" | "exclusive_scan" | "transform_inclusive_scan" | "transform_exclusive_scan" => {
            (one(), n, Work::PerElement(1.0))
        }
        "inclusive_scan_by_key" | "exclusive_scan_by_key" | "reduce_by_key" => (two(), n, Work::PerElement(1.0)),
        "sort" | "stable_sort" => (one(), n, Work::Sort),
        "sort_by_key" | "stable_sort_by_key" => (two(), Size::Sum(two()), Work::Sort),
        "fill" | "sequence" | "uninitialized_fill" | "tabulate" | "generate" => (Vec::new(), n, Work::PerElement(0.0)),
        "copy" | "copy_if" | "gather" | "scatter" | "remove" | "remove_if" | "remove_copy_if" | "unique"
        | "unique_copy" | "reverse" | "replace" | "replace_if" | "partition" | "uninitialized_copy" => {
            (one(), n, Work::PerElement(0.0))
        }
        _ => return None,
    })
}

/// The elements of Thrust's range `[first, last)`: `first + n` or `p + n` from `p`, a
/// container's `v.begin()` to `v.end()`; else the size assumed.
fn distance(first: &str, last: &str) -> Size {
    let (first, last) = (first.trim(), last.trim());
    if let Some(rest) = last.strip_prefix(first).map(str::trim_start) {
        if let Some(n) = rest.strip_prefix('+') {
            return fill(n);
        }
    }
    match (first.strip_suffix(".begin()"), last.strip_suffix(".end()")) {
        (Some(a), Some(b)) if a == b => Size::Fill(format!("{a}.size()")),
        _ => Size::Unknown,
    }
}

/// CUB's device-wide algorithms (`f` without its `cub::` prefix): the item count is the
/// argument after the scratch, the pointers and the operator, where each takes it.
fn cub(f: &str, args: &[String]) -> Option<Read> {
    let (class, method) = f.split_once("::")?;
    let a = |i: usize| args.get(i).map(String::as_str);
    let items = |i: usize| a(i).map(fill);
    Some(match (class, method) {
        ("DeviceReduce", "Sum" | "Max" | "Min" | "ArgMax" | "ArgMin" | "Reduce") => {
            (vec![items(4)?], Size::One, Work::PerElement(1.0))
        }
        ("DeviceScan", "InclusiveSum" | "ExclusiveSum") => (vec![items(4)?], items(4)?, Work::PerElement(1.0)),
        ("DeviceScan", "InclusiveScan") => (vec![items(5)?], items(5)?, Work::PerElement(1.0)),
        ("DeviceScan", "ExclusiveScan") => (vec![items(6)?], items(6)?, Work::PerElement(1.0)),
        // (temp, bytes, keys_in, keys_out, n, …); a `DoubleBuffer`'s (temp, bytes, keys, n).
        ("DeviceRadixSort", "SortKeys" | "SortKeysDescending") => {
            let n = if args.len() >= 5 { items(4)? } else { items(3)? };
            (vec![n.clone()], n, Work::Sort)
        }
        // (temp, bytes, keys_in, keys_out, values_in, values_out, n, …).
        ("DeviceRadixSort", "SortPairs" | "SortPairsDescending") => {
            let n = if args.len() >= 7 { items(6)? } else { items(4)? };
            (vec![n.clone(), n.clone()], Size::Sum(vec![n.clone(), n]), Work::Sort)
        }
        // (temp, bytes, samples, histogram, levels, lower, upper, n).
        ("DeviceHistogram", "HistogramEven") => (vec![items(7)?], items(4)?, Work::PerElement(1.0)),
        // (temp, bytes, in, out, selected, n, …); `Flagged` has the flags before out.
        ("DeviceSelect", "If" | "Unique") => (vec![items(5)?], items(5)?, Work::PerElement(1.0)),
        ("DeviceSelect", "Flagged") => (vec![items(6)?, items(6)?], items(6)?, Work::PerElement(1.0)),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: &[&str]) -> LibraryCall {
        LibraryCall { name: name.into(), args: args.iter().map(|a| a.to_string()).collect() }
    }

    #[test]
    fn a_gemm_reads_its_operands_from_m_n_and_k() {
        let sgemm = call(
            "cublasSgemm",
            &["h", "CUBLAS_OP_N", "CUBLAS_OP_N", "M", "N", "K", "&a", "B", "N", "A", "K", "&b", "C", "N"],
        );
        let o = op(&sgemm);
        assert_eq!(o.work, Work::Gemm);
        assert_eq!(o.reads, vec![Size::Fill("(M) * (K)".into()), Size::Fill("(K) * (N)".into())]);
        assert_eq!(o.writes, Size::Fill("(M) * (N)".into()));
        let site = LaunchSite {
            library_calls: vec![call("cublasHgemm", &sgemm.args.iter().map(String::as_str).collect::<Vec<_>>())],
            ..LaunchSite::default()
        };
        assert_eq!(element_size(&site), Some(2.0));
        // A 16-bit `cublasGemmEx` beside the fp32 `cublasSscal` of an empty-contraction path
        // (`if (k <= 0)`) runs at the tensor cores' 16-bit rate: the product is the work.
        let ex =
            ["h", "CUBLAS_OP_N", "CUBLAS_OP_N", "n", "m", "k", "&a", "b", "CUDA_R_16F", "n", "a", "CUDA_R_16F", "k"];
        let site = LaunchSite {
            library_calls: vec![call("cublasSscal", &["h", "m * n", "&beta", "c", "1"]), call("cublasGemmEx", &ex)],
            ..LaunchSite::default()
        };
        assert_eq!(element_size(&site), Some(2.0));
    }

    #[test]
    fn thrust_and_cub_count_their_ranges() {
        let o = op(&call("thrust::inclusive_scan", &["thrust::device", "t_in", "t_in + n", "t_out"]));
        assert_eq!((o.reads, o.writes), (vec![Size::Fill("(n)".into())], Size::Fill("(n)".into())));
        let o = op(&call("thrust::sort", &["v.begin()", "v.end()"]));
        assert_eq!((o.work, o.writes), (Work::Sort, Size::Fill("v.size()".into())));
        let o = op(&call("cub::DeviceReduce::Sum", &["d_temp", "temp_bytes", "d_in", "d_out", "n"]));
        assert_eq!((o.reads, o.writes), (vec![Size::Fill("(n)".into())], Size::One));
        // The two-call pattern's query (no scratch yet) does no work.
        let query = call("cub::DeviceRadixSort::SortKeys", &["nullptr", "bytes", "in", "out", "n"]);
        let sort = call("cub::DeviceRadixSort::SortKeys", &["temp", "bytes", "in", "out", "n"]);
        let site = LaunchSite { library_calls: vec![query, sort], ..LaunchSite::default() };
        assert_eq!(library_ops(&site).len(), 1);
        // On the host, or a library call nothing here knows: work unknown.
        assert_eq!(op(&call("thrust::reduce", &["thrust::host", "a", "a + n"])).work, Work::Unknown);
        assert_eq!(op(&call("cufftExecC2C", &["plan", "a", "b", "CUFFT_FORWARD"])).work, Work::Unknown);
        assert!(costed("cublasSgemm") && costed("thrust::reduce") && !costed("cufftExecC2C"));
        // Thrust waits for its own scratch, and a reduction for its value on the host.
        let waits = |name: &str| {
            let site = LaunchSite { library_calls: vec![call(name, &["a", "a + n"])], ..LaunchSite::default() };
            library_ops(&site).iter().filter(|o| o.work == Work::HostSync).count()
        };
        assert_eq!((waits("thrust::reduce"), waits("thrust::sort"), waits("thrust::transform")), (2, 1, 0));
    }

    #[test]
    fn a_launchers_waits_for_the_gpu_are_costed_outside_main() {
        // An LLM-written torch extension's `cudaDeviceSynchronize()` and `total.item<float>()`.
        let src = "__global__ void k(float* x) { x[threadIdx.x] = 0.0f; }\n\
                   torch::Tensor run(torch::Tensor x) {\n\
                     k<<<1, 256>>>(x.data_ptr<float>());\n\
                     cudaDeviceSynchronize();\n\
                     float total = x.item<float>();\n\
                     return x;\n}\n";
        let ex = crate::extract::extract_text(crate::kernel::Language::Cuda, src);
        let site = &ex.kernels[0].launches[0];
        let ops = library_ops(site);
        assert_eq!(ops.iter().map(|o| o.name.as_str()).collect::<Vec<_>>(), ["cudaDeviceSynchronize", ".item"]);
        assert!(ops.iter().all(|o| o.work == Work::HostSync));
        // A `main` times its kernels itself: its allocations and copies are not the run's.
        let in_main = LaunchSite { host_name: "main".into(), ..site.clone() };
        assert!(library_ops(&in_main).is_empty());
    }
}

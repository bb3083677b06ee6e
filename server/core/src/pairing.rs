//! Which kernel of one version of a program is which kernel of the other.
//!
//! Other people's code renames kernels between versions (`sgemm_naive` → `sgemm_tiled`,
//! `layernorm_kernel1` → `layernorm_kernel4`), fuses two kernels into one or splits one
//! in two. Kernels are matched by name first; what is left is matched by role: the only
//! kernel left on each side, the same place in the launch order of the same launching
//! function, or a close signature and body. Each pair records how it was matched, so a
//! forecast can say so and claim no more than the match supports.

use crate::kernel::Kernel;
use std::collections::{BTreeMap, BTreeSet};

/// How two kernels were matched.
#[derive(Clone, Debug, PartialEq)]
pub enum Match {
    /// The same name in both versions.
    Name,
    /// The only kernel of each version (or the only one left unmatched on each side).
    Sole,
    /// The same place in the launch order of the launching function `host`.
    LaunchOrder { host: String, index: usize },
    /// Similar signature and body (a score in 0..1).
    Similar(f64),
}

impl Match {
    /// Whether the match rests on a guess rather than on the kernels' names.
    pub fn guessed(&self) -> bool {
        !matches!(self, Match::Name)
    }

    /// How sure the match is, 0..1 (1 for a name).
    pub fn strength(&self) -> f64 {
        match self {
            Match::Name => 1.0,
            Match::Sole => 0.9,
            Match::LaunchOrder { .. } => 0.8,
            Match::Similar(s) => s.clamp(0.0, 1.0) * 0.8,
        }
    }

    /// For a hover: "paired by name", "paired as the only kernel", ….
    pub fn describe(&self) -> String {
        match self {
            Match::Name => "paired by name".to_string(),
            Match::Sole => "paired by role: the only kernel of each version".to_string(),
            Match::LaunchOrder { host, index } => {
                format!("paired by role: launch #{} of `{host}` in both versions", index + 1)
            }
            Match::Similar(s) => format!("paired by likeness of signature and body ({:.0}%)", s * 100.0),
        }
    }
}

/// One matched pair, as indices into the two versions' kernel lists.
#[derive(Clone, Debug, PartialEq)]
pub struct Paired {
    pub base: usize,
    pub candidate: usize,
    pub how: Match,
}

/// The matching of two versions' kernels.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pairing {
    pub pairs: Vec<Paired>,
    /// Kernels of the base with no counterpart (removed, or fused into another).
    pub base_only: Vec<usize>,
    /// Kernels of the candidate with no counterpart (added, or split off).
    pub candidate_only: Vec<usize>,
}

impl Pairing {
    /// The pair a candidate kernel belongs to.
    pub fn of_candidate(&self, candidate: usize) -> Option<&Paired> {
        self.pairs.iter().find(|p| p.candidate == candidate)
    }

    /// Whether every kernel was matched by name.
    pub fn all_by_name(&self) -> bool {
        self.base_only.is_empty() && self.candidate_only.is_empty() && self.pairs.iter().all(|p| !p.how.guessed())
    }

    /// Counts of pairs matched by name and by role, and kernels left unmatched.
    pub fn counts(&self) -> (usize, usize, usize) {
        let by_name = self.pairs.iter().filter(|p| !p.how.guessed()).count();
        (by_name, self.pairs.len() - by_name, self.base_only.len() + self.candidate_only.len())
    }
}

/// Likeness under which two kernels are not paired by their text alone.
pub const MIN_LIKENESS: f64 = 0.45;

/// Matches the kernels of two versions (see the module's documentation).
pub fn pair(base: &[Kernel], candidate: &[Kernel]) -> Pairing {
    let (b, c): (Vec<&Kernel>, Vec<&Kernel>) = (base.iter().collect(), candidate.iter().collect());
    pair_refs(&b, &c)
}

/// [`pair`] over borrowed kernels.
pub fn pair_refs(base: &[&Kernel], candidate: &[&Kernel]) -> Pairing {
    let mut out = Pairing::default();
    let mut free_b: BTreeSet<usize> = (0..base.len()).collect();
    let mut free_c: BTreeSet<usize> = (0..candidate.len()).collect();
    let take =
        |b: usize, c: usize, how: Match, out: &mut Pairing, fb: &mut BTreeSet<usize>, fc: &mut BTreeSet<usize>| {
            fb.remove(&b);
            fc.remove(&c);
            out.pairs.push(Paired { base: b, candidate: c, how });
        };

    // 1. By name.
    let mut by_name: std::collections::HashMap<&str, Vec<usize>> = std::collections::HashMap::new();
    for (bi, b) in base.iter().enumerate().rev() {
        by_name.entry(b.name.as_str()).or_default().push(bi);
    }
    for (ci, c) in candidate.iter().enumerate() {
        if let Some(bi) = by_name.get_mut(c.name.as_str()).and_then(Vec::pop) {
            take(bi, ci, Match::Name, &mut out, &mut free_b, &mut free_c);
        }
    }
    if free_b.is_empty() || free_c.is_empty() {
        out.base_only = free_b.into_iter().collect();
        out.candidate_only = free_c.into_iter().collect();
        return out;
    }
    // 2. The only kernel left on each side.
    if free_b.len() == 1 && free_c.len() == 1 {
        let (b, c) = (*free_b.iter().next().unwrap_or(&0), *free_c.iter().next().unwrap_or(&0));
        take(b, c, Match::Sole, &mut out, &mut free_b, &mut free_c);
    }
    // 3. The same place in the launch order of a launching function both versions have.
    if !free_b.is_empty() && !free_c.is_empty() {
        let (ob, oc) = (launch_orders(base), launch_orders(candidate));
        for (host, b_order) in &ob {
            let Some(c_order) = oc.get(host) else { continue };
            if b_order.len() != c_order.len() {
                continue;
            }
            for (index, (&b, &c)) in b_order.iter().zip(c_order).enumerate() {
                if free_b.contains(&b) && free_c.contains(&c) {
                    take(b, c, Match::LaunchOrder { host: host.clone(), index }, &mut out, &mut free_b, &mut free_c);
                }
            }
        }
        // One launching function on each side, named differently (`run_v1` → `run_v2`).
        fn sole_host(o: &BTreeMap<String, Vec<usize>>) -> Option<(&String, &Vec<usize>)> {
            if o.len() == 1 {
                o.iter().next()
            } else {
                None
            }
        }
        if let (Some((hb, b_order)), Some((_, c_order))) = (sole_host(&ob), sole_host(&oc)) {
            if b_order.len() == c_order.len() {
                for (index, (&b, &c)) in b_order.iter().zip(c_order).enumerate() {
                    if free_b.contains(&b) && free_c.contains(&c) {
                        let how = Match::LaunchOrder { host: hb.clone(), index };
                        take(b, c, how, &mut out, &mut free_b, &mut free_c);
                    }
                }
            }
        }
    }
    // 4. Likeness, best first.
    if !free_b.is_empty() && !free_c.is_empty() {
        let bags_b: BTreeMap<usize, Bag> = free_b.iter().take(64).map(|&i| (i, Bag::of(base[i]))).collect();
        let bags_c: BTreeMap<usize, Bag> = free_c.iter().take(64).map(|&i| (i, Bag::of(candidate[i]))).collect();
        let mut scored: Vec<(f64, usize, usize)> = Vec::new();
        for (&b, bb) in &bags_b {
            for (&c, bc) in &bags_c {
                scored.push((bb.likeness(bc), b, c));
            }
        }
        scored.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
        for (score, b, c) in scored {
            if score < MIN_LIKENESS {
                break;
            }
            if free_b.contains(&b) && free_c.contains(&c) {
                take(b, c, Match::Similar(score), &mut out, &mut free_b, &mut free_c);
            }
        }
    }
    out.base_only = free_b.into_iter().collect();
    out.candidate_only = free_c.into_iter().collect();
    out.pairs.sort_by_key(|p| p.candidate);
    out
}

/// Each launching function's kernels (indices), in launch order, each kernel once.
fn launch_orders(kernels: &[&Kernel]) -> BTreeMap<String, Vec<usize>> {
    let mut sites: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
    for (i, k) in kernels.iter().enumerate() {
        for l in &k.launches {
            if !l.host_name.is_empty() {
                sites.entry(l.host_name.clone()).or_default().push((l.range.start, i));
            }
        }
    }
    sites
        .into_iter()
        .map(|(host, mut at)| {
            at.sort();
            let mut seen = BTreeSet::new();
            let order = at.into_iter().map(|(_, i)| i).filter(|i| seen.insert(*i)).collect();
            (host, order)
        })
        .collect()
}

/// What a kernel's text is made of, for likeness: its parameter types and its tokens.
struct Bag {
    params: Vec<String>,
    tokens: BTreeMap<String, u32>,
}

impl Bag {
    fn of(k: &Kernel) -> Self {
        let sig_end = k.signature_end.saturating_sub(k.range.start).min(k.source.len());
        let sig = k.source.get(..sig_end).unwrap_or(&k.source);
        let params = sig
            .rsplit_once('(')
            .map(|(_, p)| p)
            .unwrap_or_default()
            .trim_end_matches(')')
            .split(',')
            .map(|p| {
                // The type without the parameter's name: `const float* __restrict__ x` → `const float*`.
                let p = p.split('=').next().unwrap_or_default().trim();
                let cut = p.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map(|i| i + 1).unwrap_or(0);
                let ty = p[..cut].replace("__restrict__", "").replace(' ', "");
                if ty.is_empty() {
                    // Python: `x_ptr`, `n_elements`, `BLOCK: tl.constexpr`.
                    if p.contains("constexpr") {
                        "constexpr".to_string()
                    } else {
                        "arg".to_string()
                    }
                } else {
                    ty
                }
            })
            .filter(|t| !t.is_empty())
            .collect();
        let mut tokens = BTreeMap::new();
        let body = k.source.get(sig_end..).unwrap_or_default();
        for t in tokens_of(body) {
            *tokens.entry(t).or_insert(0) += 1;
        }
        Self { params, tokens }
    }

    /// 0..1: the parameter types in common and the weighted Jaccard of the tokens.
    fn likeness(&self, other: &Bag) -> f64 {
        let (mut common, mut all) = (0u32, 0u32);
        for (t, &n) in &self.tokens {
            let m = other.tokens.get(t).copied().unwrap_or(0);
            common += n.min(m);
            all += n.max(m);
        }
        for (t, &m) in &other.tokens {
            if !self.tokens.contains_key(t) {
                all += m;
            }
        }
        let body = if all == 0 { 0.0 } else { f64::from(common) / f64::from(all) };
        let n = self.params.len().max(other.params.len());
        let same = self.params.iter().zip(&other.params).filter(|(a, b)| a == b).count();
        let params = if n == 0 { 1.0 } else { same as f64 / n as f64 };
        0.4 * params + 0.6 * body.sqrt()
    }
}

/// Identifiers, numbers and operators of a text, without comments.
fn tokens_of(text: &str) -> impl Iterator<Item = String> + '_ {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '/' && chars.peek() == Some(&'/') || c == '#' {
            // A line comment (CUDA `//`, Python `#`; a `#pragma` goes too, which is fine here).
            for d in chars.by_ref() {
                if d == '\n' {
                    break;
                }
            }
            continue;
        }
        if c.is_alphanumeric() || c == '_' || c == '.' && !word.is_empty() {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::extract_text;
    use crate::kernel::Language;

    fn kernels(src: &str) -> Vec<Kernel> {
        extract_text(Language::Cuda, src).kernels
    }

    const NAIVE: &str = "__global__ void sgemm_naive(int M, int N, int K, const float* A, const float* B, float* C) {\n\
        int r = blockIdx.y * blockDim.y + threadIdx.y; int c = blockIdx.x * blockDim.x + threadIdx.x;\n\
        if (r < M && c < N) { float s = 0; for (int k = 0; k < K; ++k) s += A[r * K + k] * B[k * N + c]; C[r * N + c] = s; } }\n";
    const TILED: &str = "#define T 32\n__global__ void sgemm_tiled(int M, int N, int K, const float* A, const float* B, float* C) {\n\
        __shared__ float a[T][T]; __shared__ float b[T][T]; int r = blockIdx.y * T + threadIdx.y; int c = blockIdx.x * T + threadIdx.x;\n\
        float s = 0; for (int t = 0; t < K; t += T) { a[threadIdx.y][threadIdx.x] = A[r * K + t + threadIdx.x];\n\
        b[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * N + c]; __syncthreads();\n\
        for (int k = 0; k < T; ++k) s += a[threadIdx.y][k] * b[k][threadIdx.x]; __syncthreads(); }\n\
        if (r < M && c < N) C[r * N + c] = s; }\n";

    #[test]
    fn a_renamed_sole_kernel_pairs_with_the_sole_kernel() {
        let (b, c) = (kernels(NAIVE), kernels(TILED));
        let p = pair(&b, &c);
        assert_eq!(p.pairs.len(), 1);
        assert_eq!(p.pairs[0].how, Match::Sole);
        assert!(p.pairs[0].how.describe().contains("only kernel"));
        assert_eq!(p.counts(), (0, 1, 0));
    }

    #[test]
    fn kernels_pair_by_launch_order_in_the_same_launcher() {
        let base = "__global__ void reduce_a(float* x, float* p, int n) { p[blockIdx.x] = x[threadIdx.x]; }\n\
            __global__ void finish_a(float* p, float* out, int m) { out[0] = p[threadIdx.x]; }\n\
            void run(float* x, float* p, float* out, int n) { reduce_a<<<n / 256, 256>>>(x, p, n); finish_a<<<1, 256>>>(p, out, n / 256); }\n";
        let cand = "__global__ void stage1(float* x, float* p, int n) { float s = 0; for (int i = threadIdx.x; i < n; i += 256) s += x[i]; p[blockIdx.x] = s; }\n\
            __global__ void stage2(float* p, float* out, int m) { float s = 0; for (int i = threadIdx.x; i < m; i += 32) s += p[i]; out[0] = s; }\n\
            void run(float* x, float* p, float* out, int n) { stage1<<<264, 256>>>(x, p, n); stage2<<<1, 32>>>(p, out, 264); }\n";
        let (b, c) = (kernels(base), kernels(cand));
        let p = pair(&b, &c);
        assert_eq!(p.pairs.len(), 2, "{p:?}");
        for pr in &p.pairs {
            assert!(matches!(pr.how, Match::LaunchOrder { ref host, .. } if host == "run"), "{pr:?}");
            assert_eq!(b[pr.base].name.replace("reduce_a", "1").replace("finish_a", "2"), {
                c[pr.candidate].name.replace("stage", "")
            });
        }
    }

    #[test]
    fn a_fused_kernel_leaves_the_rest_unmatched_and_names_win() {
        let base = format!("{NAIVE}__global__ void bias(float* C, const float* b, int N) {{ C[threadIdx.x] += b[threadIdx.x % N]; }}\n");
        let (b, c) = (kernels(&base), kernels(NAIVE));
        let p = pair(&b, &c);
        assert_eq!(p.pairs, vec![Paired { base: 0, candidate: 0, how: Match::Name }]);
        assert_eq!(p.base_only, vec![1]);
        assert!(p.candidate_only.is_empty());
        assert!(!p.all_by_name());
    }

    #[test]
    fn unlike_kernels_are_not_paired_by_likeness() {
        let a = "__global__ void k1(float* x, int n) { x[threadIdx.x] = 1; }\n__global__ void k2(double* y) { y[0] = 2; }\n";
        let b = "__global__ void j1(int* h, const unsigned char* d, int n) { atomicAdd(&h[d[blockIdx.x * 256 + threadIdx.x]], 1); }\n\
                 __global__ void j2(float* x, int n) { x[threadIdx.x] = 1; }\n";
        let p = pair(&kernels(a), &kernels(b));
        // k1 and j2 are alike; k2 and j1 are not.
        assert_eq!(p.pairs.len(), 1, "{p:?}");
        assert!(matches!(p.pairs[0].how, Match::Similar(s) if s > 0.9));
        assert_eq!((p.base_only.len(), p.candidate_only.len()), (1, 1));
    }
}

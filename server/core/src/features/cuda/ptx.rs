//! Inline PTX a kernel writes (`asm volatile("…" : outputs : inputs)`, often through a
//! macro such as `HMMA16816(…)` or `CP_ASYNC_CG(dst, src, 16)`): the work of a tensor-core
//! instruction, the global bytes an asynchronous copy or a vector load moves, and the
//! shared-memory reads of `ldmatrix`; and the tiles WMMA's `load_matrix_sync` and
//! `store_matrix_sync` move.
//!
//! A tensor-core instruction's work is counted per lane of the warp (or warpgroup) that
//! issues it: `mma.sync.aligned.m16n8k16` is 2·16·8·16 flops over a warp's 32 lanes,
//! `wgmma.mma_async…m64n128k16` 2·64·128·16 over a warpgroup's 128, and a WMMA
//! `mma_sync` on the usual 16 × 16 × 16 fragments 8,192 over 32.

use super::access::unparenthesized;
use super::Walker;
use tree_sitter::Node;

impl Walker<'_> {
    /// One `asm` statement run `weight` times (lane executions).
    pub(super) fn inline_ptx(&mut self, node: Node, weight: f64) {
        let code = node.child_by_field_name("assembly_code").map(|c| self.text(c).to_string()).unwrap_or_default();
        if code.contains("mma") {
            self.acc.tensor_flops += flops_per_lane(&code) * weight;
        } else if code.contains("cp.async") && code.contains("global") {
            // `cp.async.cg.shared.global [%0], [%1], 16`: a global load into shared memory.
            let bytes =
                self.operand(node, "n").and_then(|n| self.env.eval_quiet(self.text(n))).map_or(16.0, |e| e.value);
            if let Some(src) = self.operand(node, "l") {
                self.global_operand(src, (bytes / 4.0).max(1.0), weight, true, false);
            }
            self.acc.shared_accesses += weight;
        } else if code.contains("ld.global") || code.contains("st.global") {
            // `ld.global.nc.v4.f32 {%0, …}, [%4]`: a vector load (or store) through `%4`.
            let store = code.contains("st.global");
            if let Some(at) = self.operand(node, "l") {
                self.global_operand(at, vector_words(&code), weight, !store, store);
            }
        } else if code.contains("ldmatrix") {
            self.acc.shared_accesses += weight;
        }
    }

    /// `wmma::load_matrix_sync(frag, p, ldm)` / `wmma::store_matrix_sync(p, frag, ldm, layout)`
    /// through a global pointer: a 16 × 16 tile of its elements moved by the warp, 8 a lane,
    /// rows of consecutive elements (through shared memory: one shared access a lane).
    pub(super) fn fragment_access(&mut self, call: Node, store: bool, weight: f64) {
        let args: Vec<Node> = call.child_by_field_name("arguments").map(crate::extract::list_items).unwrap_or_default();
        let Some(pointer) = args.get(if store { 0 } else { 1 }) else { return };
        match self.global_base(*pointer) {
            Some((base, own)) => {
                self.global_access(base, FRAGMENT_PER_LANE * own, super::Coef::Lin(1.0), weight, !store, store)
            }
            None => self.acc.shared_accesses += weight,
        }
    }

    /// The value of the first operand whose constraint is `constraint` (`"l"`: a 64-bit
    /// register, the address of a global access; `"n"`: an immediate).
    fn operand<'t>(&self, node: Node<'t>, constraint: &str) -> Option<Node<'t>> {
        let mut found = None;
        crate::extract::walk_preorder(node, |n| {
            if found.is_some() {
                return false;
            }
            if matches!(n.kind(), "gnu_asm_input_operand" | "gnu_asm_output_operand")
                && n.child_by_field_name("constraint")
                    .is_some_and(|c| self.text(c).trim_matches('"').trim_start_matches(['=', '+']) == constraint)
            {
                found = n.child_by_field_name("value");
                return false;
            }
            true
        });
        found
    }

    /// A global access of `width` words through the address operand `value`: `&a[i]`,
    /// `a + i`, a pointer, each maybe cast (`(const void*)p`).
    fn global_operand(&mut self, value: Node, width: f64, weight: f64, load: bool, store: bool) {
        let mut at = value;
        // Through the casts to the address: `(const void *)(a + i)`.
        let at = loop {
            let Some(v) = unparenthesized(at) else { return };
            match (v.kind() == "cast_expression").then(|| v.child_by_field_name("value")).flatten() {
                Some(inner) => at = inner,
                None => break v,
            }
        };
        self.address_access(at, width, weight, store, load);
    }
}

/// Elements of a 16 × 16 WMMA fragment each lane of the warp loads or stores.
const FRAGMENT_PER_LANE: f64 = 16.0 * 16.0 / 32.0;

/// Words (of 4 bytes) one lane moves in a PTX load or store: `.v4.f32` 4, `.v2.f16` 1,
/// `.b64` 2.
fn vector_words(code: &str) -> f64 {
    let lanes = if code.contains(".v4") {
        4.0
    } else if code.contains(".v2") {
        2.0
    } else {
        1.0
    };
    let bits = [("64", 64.0), ("32", 32.0), ("16", 16.0), ("8", 8.0)]
        .iter()
        .find(|(b, _)| [".f", ".b", ".u", ".s"].iter().any(|p| code.contains(&format!("{p}{b}"))))
        .map_or(32.0, |(_, v)| *v);
    lanes * bits / 32.0
}

/// Flops per lane of the tensor-core instruction in `text` (inline PTX or a call).
pub(super) fn flops_per_lane(text: &str) -> f64 {
    let lanes = if text.contains("wgmma") { 128.0 } else { 32.0 };
    match shape(text) {
        Some((m, n, k)) => 2.0 * m * n * k / lanes,
        None => 2.0 * 16.0 * 16.0 * 16.0 / 32.0,
    }
}

/// The first `mMnNkK` shape written in `text` (`m16n8k16`), as numbers.
fn shape(text: &str) -> Option<(f64, f64, f64)> {
    let bytes = text.as_bytes();
    (0..bytes.len()).find_map(|i| {
        let word_start = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if !word_start || bytes[i] != b'm' {
            return None;
        }
        let (m, rest) = number(&text[i + 1..])?;
        let (n, rest) = number(rest.strip_prefix('n')?)?;
        let (k, _) = number(rest.strip_prefix('k')?)?;
        Some((m, n, k))
    })
}

/// A leading decimal number and what follows it.
fn number(text: &str) -> Option<(f64, &str)> {
    let end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let value: f64 = text[..end].parse().ok()?;
    (value > 0.0).then_some((value, &text[end..]))
}

#[cfg(test)]
mod tests {
    use super::flops_per_lane;

    #[test]
    fn ptx_shapes_set_the_work_of_one_instruction() {
        assert_eq!(flops_per_lane(r#"asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0}")"#), 128.0);
        assert_eq!(flops_per_lane(r#"asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")"#), 64.0);
        assert_eq!(flops_per_lane("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16"), 2048.0);
        // WMMA fragments (and shapes the text does not give) are 16 × 16 × 16.
        assert_eq!(flops_per_lane("wmma::mma_sync(acc, a, b, acc)"), 256.0);
    }
}

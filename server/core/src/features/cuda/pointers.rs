//! Global accesses through pointers rather than subscripts: `*(x + i)`, `__ldg(p)`, and the
//! casts that make them vector accesses (`*reinterpret_cast<float4*>(x + i)`,
//! `reinterpret_cast<float4*>(&a[i])[0]`).

use super::access::unparenthesized;
use super::{vector_width, Coef, Walker};
use tree_sitter::Node;

impl Walker<'_> {
    /// A vector of `width` words read or written at the element `array[index]`.
    pub(super) fn vector_element(
        &mut self,
        array: String,
        index: Node,
        width: f64,
        weight: f64,
        load: bool,
        store: bool,
    ) {
        let Some(&own) = self.global.get(array.as_str()) else { return };
        let elems = width / own;
        let (coef, group) = match self.coef(index, 0) {
            // The group moves the lane's whole stride, as one access that wide would.
            Coef::Lin(a) if self.covers_gap(&array, index, a.abs(), elems) => {
                (Coef::Lin(1.0), (a.abs() * own).min(4.0))
            }
            Coef::Lin(a) => (Coef::Lin(a * own / width), width),
            c => (c, width),
        };
        self.acc.vector_width = self.acc.vector_width.max(group);
        self.global_access(array, width.max(own), coef, weight, load, store);
    }

    /// `reinterpret_cast<float4*>(P)`, `(float4*)P`: the pointer type's text and `P`.
    fn pointer_cast<'t>(&self, node: Node<'t>) -> Option<(String, Node<'t>)> {
        let cast = unparenthesized(node)?;
        match cast.kind() {
            "call_expression" => {
                let ty = self.text(cast.child_by_field_name("function")?);
                ty.starts_with("reinterpret_cast")
                    .then_some(())
                    .and_then(|_| Some((ty.to_string(), cast.child_by_field_name("arguments")?.named_child(0)?)))
            }
            "cast_expression" => {
                Some((self.text(cast.child_by_field_name("type")?).to_string(), cast.child_by_field_name("value")?))
            }
            _ => None,
        }
    }

    /// `reinterpret_cast<float4*>(&(a[i]))`, `(float4*)&a[i]`: the array, the element's
    /// index and the vector's width (in floats).
    pub(super) fn element_cast<'t>(&self, node: Node<'t>) -> Option<(String, Node<'t>, f64)> {
        let (ty, operand) = self.pointer_cast(node)?;
        let (array, index) = self.element_address(operand)?;
        Some((array, index, vector_width(&ty)))
    }

    /// `&a[i]` (parentheses aside): the array and the element's index.
    fn element_address<'t>(&self, operand: Node<'t>) -> Option<(String, Node<'t>)> {
        let address = unparenthesized(operand)?;
        if address.kind() != "pointer_expression" || !self.text(address).trim_start().starts_with('&') {
            return None;
        }
        let element = unparenthesized(address.child_by_field_name("argument")?)?;
        if element.kind() != "subscript_expression" {
            return None;
        }
        let array = element.child_by_field_name("argument").filter(|a| a.kind() == "identifier")?;
        let index = element.child_by_field_name("indices").and_then(|i| i.named_child(0))?;
        Some((self.text(array).to_string(), index))
    }

    /// A load through a pointer expression rather than a subscript: `__ldg(row + j)`,
    /// `__ldg(p)`, `*(x + i)`. Ignored unless it points into a global buffer.
    pub(super) fn pointer_load(&mut self, arg: Node, weight: f64, store: bool, load: bool) {
        let Some(a) = unparenthesized(arg) else { return };
        let Some((ty, operand)) = self.pointer_cast(a) else {
            self.pointer_access(a, 1.0, weight, store, load);
            return;
        };
        self.address_access(operand, vector_width(&ty), weight, store, load);
    }

    /// A vector of `width` words read or written at `address`: `&x[i]` (as in
    /// `*reinterpret_cast<const float4*>(&x[i])`) the vector at `x[i]`; `y + i`, `p` (as in
    /// `*(float4*)(x + 4 * i)`) through the pointer.
    pub(super) fn address_access(&mut self, address: Node, width: f64, weight: f64, store: bool, load: bool) {
        match self.element_address(address) {
            Some((array, index)) => self.vector_element(array, index, width, weight, load, store),
            None => {
                if let Some(p) = unparenthesized(address) {
                    self.pointer_access(p, width, weight, store, load);
                }
            }
        }
    }

    /// An access through the address `a` into a global buffer, of vectors `vector` words
    /// wide (1: the buffer's own elements).
    fn pointer_access(&mut self, a: Node, vector: f64, weight: f64, store: bool, load: bool) {
        // The global pointer among the terms of `base + yy * W + xx`; the address's stride
        // across the lanes is the whole sum's (a derived pointer's own included). A term
        // may be a cast of one (`(int4 *)(p + row * N) + lane`, `(int4 *)(&A[i]) + j`),
        // whose type then sets the access's width.
        let mut base = None;
        let mut vector = vector;
        let mut terms = vec![a];
        while let Some(t) = terms.pop() {
            match t.kind() {
                "identifier" if self.global.contains_key(self.text(t)) => {
                    base = Some(t);
                    break;
                }
                "parenthesized_expression" => terms.extend(t.named_child(0)),
                "cast_expression" => {
                    if let Some(ty) = t.child_by_field_name("type") {
                        vector = vector.max(vector_width(self.text(ty)));
                    }
                    terms.extend(t.child_by_field_name("value"));
                }
                "pointer_expression" if self.text(t).trim_start().starts_with('&') => {
                    terms.extend(t.child_by_field_name("argument").and_then(unparenthesized).and_then(|e| {
                        (e.kind() == "subscript_expression").then(|| e.child_by_field_name("argument")).flatten()
                    }));
                }
                "binary_expression" if t.child_by_field_name("operator").is_some_and(|o| o.kind() == "+") => {
                    terms.extend(t.child_by_field_name("right"));
                    terms.extend(t.child_by_field_name("left"));
                }
                _ => {}
            }
        }
        let Some(base) = base else { return };
        let coef = self.coef(a, 0);
        let base_text = self.text(base).to_string();
        let Some(own) = self.global.get(base_text.as_str()).copied() else { return };
        if vector > own {
            // The address steps in the buffer's elements; the access moves a whole vector.
            let coef = match coef {
                Coef::Lin(s) => Coef::Lin(s * own / vector),
                c => c,
            };
            self.global_access(base_text, vector, coef, weight, load, store);
        } else {
            self.global_access(base_text, own, coef, weight, load, store);
        }
    }
}

//! A call to one of the file's `__device__` functions walked as its body: the helper's
//! parameters bound to the call's arguments (a global or shared pointer stays one, with
//! the argument's stride across the lanes; a scalar takes the argument's value), so that
//! the loads, stores, shuffles and loops written in helpers count where they are called.
//! Depth-limited and recursion-safe.

use super::{declared_width, parameter_declarations, Walker};
use crate::kernel::{HelperKind, Language};
use crate::source::parse_snippet;
use tree_sitter::Node;

/// Calls followed inside one another at most.
const MAX_DEPTH: usize = 3;

impl Walker<'_> {
    /// Walks the body of the `__device__` function `name` called by `call` (run `weight`
    /// times per thread); false when `name` is not one of the file's device functions, or
    /// is already being walked (recursion) or too deep.
    pub(super) fn inline_call(&mut self, call: Node, name: &str, weight: f64) -> bool {
        let helpers = self.helpers;
        let device =
            |n: &str| helpers.iter().find(|h| h.kind == HelperKind::DeviceFunction && h.name.replace(' ', "") == n);
        // `AtomicAdd<T, 2>(…)` with `T` a `half`: the explicit specialisation
        // `AtomicAdd<half, 2>` where the file has one, else the template.
        let special = self.specialised(name).and_then(|n| device(&n).map(|h| (h, n)));
        let name = name.split('<').next().unwrap_or(name).trim();
        let Some((helper, defined)) = special.or_else(|| device(name).map(|h| (h, name.to_string()))) else {
            return false;
        };
        if self.inlining.len() >= MAX_DEPTH || self.inlining.iter().any(|n| n == name) {
            return true;
        }
        let Some(tree) = parse_snippet(Language::Cuda, &helper.text) else { return true };
        let Some(def) = function_named(tree.root_node(), &helper.text, &defined) else { return true };
        let Some(body) = def.child_by_field_name("body") else { return true };
        let args: Vec<Node> = call.child_by_field_name("arguments").map(crate::extract::list_items).unwrap_or_default();
        // What each argument is in the caller's terms.
        struct Bound {
            name: String,
            global: Option<f64>,
            shared: Option<super::Shared>,
            coef: super::Coef,
            value: Option<f64>,
        }
        let params = parameter_declarations(def);
        let mut bound = Vec::new();
        for (p, arg) in params.iter().zip(&args) {
            let Some(pname) = p.child_by_field_name("declarator").and_then(crate::extract::declarator_name) else {
                continue;
            };
            let decl = helper.text.get(p.byte_range()).unwrap_or_default();
            let pointer = decl.contains('*') || decl.contains('[');
            let base = array_base(*arg);
            bound.push(Bound {
                name: helper.text.get(pname.byte_range()).unwrap_or_default().to_string(),
                global: self.global_in(*arg).filter(|_| pointer).map(|w| declared_width(decl).map_or(w, |d| d.max(w))),
                shared: base.and_then(|b| self.shared.get(self.text(b)).cloned()).filter(|_| pointer),
                coef: self.coef(*arg, 0),
                value: if pointer { None } else { self.env.eval_quiet(self.text(*arg)).map(|e| e.value) },
            });
        }
        // The caller's names, restored after the walk.
        let saved = (
            self.src,
            self.vars.clone(),
            self.global.clone(),
            self.shared.clone(),
            self.env.values.clone(),
            self.env.texts.clone(),
        );
        for b in bound {
            self.vars.insert(b.name.clone(), b.coef);
            self.global.remove(&b.name);
            self.shared.remove(&b.name);
            self.env.values.remove(&b.name);
            self.env.texts.remove(&b.name);
            if let Some(w) = b.global {
                self.global.insert(b.name.clone(), w);
            }
            if let Some(s) = b.shared {
                self.shared.insert(b.name.clone(), s);
            }
            if let Some(v) = b.value {
                self.env.set(&b.name, v);
            }
        }
        self.src = &helper.text;
        self.inlining.push(name.to_string());
        // Run as often, by as many threads, as the call.
        let (mult, frac) = (self.mult_now, self.frac_now);
        debug_assert!((mult * frac - weight).abs() <= 1e-9 * weight.abs().max(1.0));
        self.statement(body, mult, frac, 1);
        (self.mult_now, self.frac_now) = (mult, frac);
        self.inlining.pop();
        (self.src, self.vars, self.global, self.shared, self.env.values, self.env.texts) = saved;
        true
    }
}

impl Walker<'_> {
    /// `f<T, N>` with its template arguments as the launch binds them (`f<half,2>`, no
    /// spaces); `None` without template arguments.
    fn specialised(&self, name: &str) -> Option<String> {
        let (base, args) = name.split_once('<')?;
        let args = args.trim_end().strip_suffix('>')?;
        let bound: Vec<String> = super::super::expr::components(&format!("({args})"))
            .unwrap_or_else(|| vec![args.to_string()])
            .iter()
            .map(|a| {
                let a = a.trim();
                match self.env.eval_quiet(a).filter(|e| e.guesses == 0) {
                    Some(e) => format!("{}", e.value),
                    None => self.env.resolve(a).replace(' ', ""),
                }
            })
            .collect();
        Some(format!("{}<{}>", base.trim(), bound.join(",")))
    }
}

/// The function `name` defined in a helper's text (`f`, or a specialisation `f<half,2>`,
/// spaces aside).
fn function_named<'t>(root: Node<'t>, src: &str, name: &str) -> Option<Node<'t>> {
    let mut found = None;
    crate::extract::walk_preorder(root, |n| {
        if found.is_some() {
            return false;
        }
        if n.kind() == "function_definition" {
            let mut d = n.child_by_field_name("declarator");
            while let Some(x) = d.filter(|x| x.kind().ends_with("declarator")) {
                d = x.child_by_field_name("declarator");
            }
            if d.and_then(|d| src.get(d.byte_range())).is_some_and(|d| d.replace(' ', "") == name) {
                found = Some(n);
            }
            return false;
        }
        true
    });
    found
}

/// The array an argument passes: `tile` in `tile`, `&tile[0][0]`, `tile + k`.
fn array_base(mut node: Node) -> Option<Node> {
    loop {
        match node.kind() {
            "identifier" => return Some(node),
            "pointer_expression" | "parenthesized_expression" | "cast_expression" => {
                node =
                    node.child_by_field_name("argument").or(node.child_by_field_name("value")).or(node.named_child(0))?
            }
            "subscript_expression" => node = node.child_by_field_name("argument")?,
            "binary_expression" => node = node.child_by_field_name("left")?,
            _ => return None,
        }
    }
}

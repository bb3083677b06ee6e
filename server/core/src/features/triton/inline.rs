//! `@triton.jit` helpers a kernel calls (`x, idx, mask = _load_x(x_ptr=x_ptr, h=h, …)`),
//! walked in place: their loads, stores, `tl.dot`s and loops count where the call is, at
//! the call's trips, with the call's arguments bound to their parameters; what they return
//! keeps its tile shape and its strides in the caller.

use super::{Shape, Strides, Walker};
use std::collections::HashMap;
use tree_sitter::Node;

/// How deep helpers that call helpers are followed.
const MAX_DEPTH: usize = 4;

/// One value a helper returns, as the caller sees it.
#[derive(Clone, Debug, Default)]
pub(super) struct Returned {
    shape: Shape,
    strides: Strides,
    /// Its value where it evaluates without a guess (a size the helper computes).
    value: Option<f64>,
}

/// The `@triton.jit` functions (other than the kernel) defined in the tree at `root`, by
/// name.
pub(super) fn helper_defs<'t>(root: Node<'t>, kernel: Option<Node<'t>>, src: &str) -> HashMap<String, Node<'t>> {
    let mut defs = HashMap::new();
    crate::extract::walk_preorder(root, |n| {
        if n.kind() != "function_definition" {
            return true;
        }
        if kernel.is_none_or(|k| k.id() != n.id()) {
            if let Some(name) = n.child_by_field_name("name") {
                let name = src.get(name.byte_range()).unwrap_or_default();
                defs.entry(name.to_string()).or_insert(n);
            }
        }
        false
    });
    defs
}

impl<'a> Walker<'a> {
    /// Walks the helper `def` a call at `call` runs, `mult` times; what it returns is kept
    /// for the assignment the call sits in (see [`Walker::returned_by`]).
    pub(super) fn inline(&mut self, call: Node, def: Node<'a>, mult: f64, depth: usize) {
        let name = def.child_by_field_name("name").map(|n| self.text(n).to_string()).unwrap_or_default();
        if self.inlining.len() >= MAX_DEPTH || self.inlining.contains(&name) {
            return;
        }
        let bindings = self.bindings(call, def);
        // A helper's name for what the caller passes it, as the caller writes it.
        let passed: HashMap<String, String> =
            bindings.iter().filter_map(|b| Some((b.param.clone(), b.passed.as_ref()?.2.clone()))).collect();
        let saved = (self.env.clone(), self.shapes.clone(), self.strides.clone());
        for Bound { param, binding, passed: tiles } in bindings {
            match binding {
                Binding::Value(v) => self.env.set(&param, v),
                Binding::Text(t) => {
                    self.env.values.remove(&param);
                    self.env.define(&param, &t);
                }
                Binding::Same => {}
                Binding::Default(t) => {
                    if !self.env.texts.contains_key(&param) && !self.env.values.contains_key(&param) {
                        self.env.define(&param, &t);
                    }
                }
            }
            if let Some((shape, strides, _)) = tiles {
                self.shapes.insert(param.clone(), shape);
                self.strides.insert(param, strides);
            }
        }
        self.inlining.push(name);
        if let Some(body) = def.child_by_field_name("body") {
            self.block(body, mult, depth + 1);
        }
        let returned = self.returns(def, &passed);
        // The helper's tiles sized in its own names (`tl.arange(0, BLOCK_SIZE_H)`), in the
        // caller's: what it passed, else the value they took here.
        let numeric: Vec<(usize, String)> = self
            .axes
            .iter()
            .filter(|(at, _)| def.byte_range().contains(*at))
            .map(|(at, t)| (*at, self.in_caller(t, &passed)))
            .collect();
        self.inlining.pop();
        let missing = self.env.missing.borrow().clone();
        (self.env, self.shapes, self.strides) = saved;
        self.env.missing.borrow_mut().extend(missing);
        self.axes.extend(numeric);
        self.returned.insert(call.start_byte(), returned);
    }

    /// What the helper called at `call` returned, one entry per value of its tuple.
    pub(super) fn returned_by(&mut self, call: Node) -> Option<Vec<Returned>> {
        self.returned.remove(&call.start_byte())
    }

    /// Each parameter of `def` and what the call gives it (positional arguments in order,
    /// keyword arguments by name, defaults where it gives none).
    fn bindings(&self, call: Node, def: Node) -> Vec<Bound> {
        let params: Vec<(Node, String)> = crate::extract::python_parameters(def)
            .into_iter()
            .map(|(p, name)| (p, self.text(name).to_string()))
            .collect();
        let mut given: HashMap<String, Node> = HashMap::new();
        let mut position = 0;
        if let Some(args) = call.child_by_field_name("arguments") {
            let mut cursor = args.walk();
            let list: Vec<Node> = args.named_children(&mut cursor).collect();
            for arg in list {
                if arg.kind() == "keyword_argument" {
                    if let (Some(n), Some(v)) = (arg.child_by_field_name("name"), arg.child_by_field_name("value")) {
                        given.insert(self.text(n).to_string(), v);
                    }
                } else if let Some((_, name)) = params.get(position) {
                    given.insert(name.clone(), arg);
                    position += 1;
                }
            }
        }
        let mut out = Vec::new();
        for (p, name) in &params {
            match given.get(name) {
                Some(arg) => {
                    let text = self.text(*arg).to_string();
                    let binding = if text == *name {
                        Binding::Same
                    } else if let Some(v) = self.known(&text) {
                        Binding::Value(v)
                    } else {
                        Binding::Text(self.env.resolve(&text))
                    };
                    let passed = Some((self.shape_of(*arg), self.strides_of(*arg, 0), text));
                    out.push(Bound { param: name.clone(), binding, passed });
                }
                None => {
                    if let Some(v) = p.child_by_field_name("value") {
                        let binding = Binding::Default(self.text(v).to_string());
                        out.push(Bound { param: name.clone(), binding, passed: None });
                    }
                }
            }
        }
        out
    }

    /// The values of the helper's last `return` (a tuple's each), in the helper's terms.
    fn returns(&self, def: Node, passed: &HashMap<String, String>) -> Vec<Returned> {
        let mut last = None;
        crate::extract::walk_preorder(def, |n| {
            if n.kind() == "return_statement" {
                last = Some(n);
            }
            !matches!(n.kind(), "function_definition" | "lambda") || n.id() == def.id()
        });
        let Some(value) = last.and_then(|r| r.named_child(0)) else {
            return Vec::new();
        };
        let items: Vec<Node> = if matches!(value.kind(), "expression_list" | "tuple") {
            let mut c = value.walk();
            value.named_children(&mut c).collect()
        } else {
            vec![value]
        };
        items
            .into_iter()
            .map(|item| Returned {
                shape: self
                    .shape_of(item)
                    .into_iter()
                    .map(|dim| match dim.split_once('@') {
                        Some((size, slot)) => format!("{}@{slot}", self.in_caller(size, passed)),
                        None => self.in_caller(&dim, passed),
                    })
                    .collect(),
                strides: self.strides_of(item, 0),
                value: self.known(self.text(item)),
            })
            .collect()
    }

    /// A size the helper writes (`BLOCK_SIZE_H`) as the caller writes it: the argument it
    /// passed for that parameter, else its value here, else as written.
    fn in_caller(&self, size: &str, passed: &HashMap<String, String>) -> String {
        match passed.get(size) {
            Some(text) => text.clone(),
            None => self.known(size).map_or_else(|| size.to_string(), |v| v.to_string()),
        }
    }

    /// `text`'s value where it evaluates without a guess.
    fn known(&self, text: &str) -> Option<f64> {
        self.env.eval_quiet(text).filter(|e| e.guesses == 0).map(|e| e.value)
    }

    /// Gives the assignment's `targets` what the helper called on its right returned.
    pub(super) fn assign_returned(&mut self, targets: &[String], returned: Vec<Returned>) {
        let whole = targets.len() == 1 && returned.len() > 1;
        for (i, t) in targets.iter().enumerate() {
            let r = if whole { None } else { returned.get(i) };
            match r {
                Some(r) => {
                    self.shapes.insert(t.clone(), r.shape.clone());
                    self.strides.insert(t.clone(), r.strides.clone());
                    self.env.texts.remove(t);
                    match r.value {
                        Some(v) => self.env.set(t, v),
                        None => drop(self.env.values.remove(t)),
                    }
                }
                None => {
                    self.shapes.remove(t);
                    self.strides.remove(t);
                }
            }
        }
    }
}

/// A helper's parameter as a call binds it, with the argument's tile shape, strides and
/// text where the call passes one.
struct Bound {
    param: String,
    binding: Binding,
    passed: Option<(Shape, Strides, String)>,
}

/// What a call gives a helper's parameter.
enum Binding {
    /// A value known here.
    Value(f64),
    /// An expression of the caller's names (as far as they resolve).
    Text(String),
    /// The caller's own name for it (`h=h`): nothing to bind.
    Same,
    /// The parameter's default (`BLOCK: tl.constexpr = 128`), where nothing defines it.
    Default(String),
}

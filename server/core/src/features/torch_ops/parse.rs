//! A Python expression as a small tree, enough to find the torch operations in it: names,
//! numbers, strings, calls (with keyword arguments), attributes, subscripts, tuples and
//! lists, unary and binary arithmetic, read from tree-sitter's Python tree of its text.
//! Anything else (a lambda, a comparison, a conditional) is not read: such an expression
//! is no torch operation.

use crate::kernel::Language;
use std::collections::HashMap;
use tree_sitter::{Node, Parser};

/// One node of an expression.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Expr {
    Name(String),
    Number,
    Str,
    /// `base.name`.
    Attr(Box<Expr>, String),
    /// `callee(args…, key=value…)`, with the text between its parentheses.
    Call(Box<Expr>, Vec<Expr>, Keywords, String),
    /// `base[…]`: a view of `base` (what is inside is not read), and whether it is a part
    /// of it a slice bounds (`x[:, :k]`, `w[:, a:b]`; not `x[:, None]`, not `t[0]`).
    Index(Box<Expr>, bool),
    /// A tuple or a list.
    Seq(Vec<Expr>),
    Unary(Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
}

/// A call's keyword arguments, in order.
pub(super) type Keywords = Vec<(String, Expr)>;

impl Expr {
    /// The dotted text of a name or attribute chain (`torch.nn.functional.silu`, `self.w`).
    pub(super) fn dotted(&self) -> Option<String> {
        match self {
            Expr::Name(n) => Some(n.clone()),
            Expr::Attr(base, name) => Some(format!("{}.{name}", base.dotted()?)),
            _ => None,
        }
    }
}

/// Deepest expression read: a deeper one is no torch operation this reader takes.
const MAX_DEPTH: usize = 64;

/// Expressions read lately on this thread (a launch's locals are read once per size a
/// program is profiled at), dropped all at once when there are this many.
const MEMO: usize = 4096;

thread_local! {
    static PARSER: std::cell::RefCell<Option<Parser>> = const { std::cell::RefCell::new(None) };
    static READ: std::cell::RefCell<HashMap<String, Option<Expr>>> = std::cell::RefCell::new(HashMap::new());
}

/// `text` as an expression, read from the tree-sitter Python tree of it; None when it is
/// not one this reader takes (a statement, a lambda, a comparison, a syntax error).
pub(super) fn parse(text: &str) -> Option<Expr> {
    if let Some(e) = READ.with(|m| m.borrow().get(text).cloned()) {
        return e;
    }
    let e = read(text);
    READ.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MEMO {
            m.clear();
        }
        m.insert(text.to_string(), e.clone());
    });
    e
}

fn read(text: &str) -> Option<Expr> {
    let tree = PARSER.with(|p| {
        p.borrow_mut().get_or_insert_with(|| crate::source::parser_for(Language::Triton)).parse(text, None)
    })?;
    let root = tree.root_node();
    if root.has_error() || root.named_child_count() != 1 {
        return None;
    }
    let statement = root.named_child(0).filter(|s| s.kind() == "expression_statement")?;
    if statement.named_child_count() != 1 {
        return None;
    }
    expr(statement.named_child(0)?, text, 0)
}

fn expr(n: Node, text: &str, depth: usize) -> Option<Expr> {
    if depth > MAX_DEPTH {
        return None;
    }
    let sub = |field: &str| n.child_by_field_name(field).and_then(|c| expr(c, text, depth + 1));
    let items = |n: Node| -> Option<Vec<Expr>> {
        let mut cursor = n.walk();
        let children: Vec<Node> = n.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect();
        children.into_iter().map(|c| expr(c, text, depth + 1)).collect()
    };
    Some(match n.kind() {
        "identifier" | "true" | "false" | "none" => Expr::Name(text.get(n.byte_range())?.to_string()),
        "integer" | "float" => Expr::Number,
        "string" | "concatenated_string" => Expr::Str,
        "attribute" => {
            let name = n.child_by_field_name("attribute")?;
            Expr::Attr(Box::new(sub("object")?), text.get(name.byte_range())?.to_string())
        }
        // What a subscript selects is not read: `x_max[:, None]` is x_max.
        "subscript" => {
            let mut cursor = n.walk();
            let bounded = n
                .children_by_field_name("subscript", &mut cursor)
                .any(|s| s.kind() == "slice" && s.named_child_count() > 0);
            Expr::Index(Box::new(sub("value")?), bounded)
        }
        "call" => {
            let list = n.child_by_field_name("arguments")?;
            let (args, keywords) = arguments(list, text, depth)?;
            let inside = text.get(list.start_byte() + 1..list.end_byte().saturating_sub(1)).unwrap_or_default();
            Expr::Call(Box::new(sub("function")?), args, keywords, inside.trim().to_string())
        }
        "parenthesized_expression" => expr(n.named_child(0)?, text, depth + 1)?,
        "tuple" | "list" | "expression_list" => Expr::Seq(items(n)?),
        // `[e.reshape(-1) for e in xs]`: the item stands for them all.
        "list_comprehension" | "generator_expression" => Expr::Seq(vec![sub("body")?]),
        "unary_operator" => {
            let operand = sub("argument")?;
            match text.get(n.child_by_field_name("operator")?.byte_range())? {
                "+" => operand,
                "-" | "~" => Expr::Unary(Box::new(operand)),
                _ => return None,
            }
        }
        "binary_operator" => {
            let op = text.get(n.child_by_field_name("operator")?.byte_range())?;
            let op = ["+", "-", "*", "/", "//", "%", "@", "**"].into_iter().find(|o| *o == op)?;
            Expr::Binary(op, Box::new(sub("left")?), Box::new(sub("right")?))
        }
        _ => return None,
    })
}

/// A call's positional arguments (a spread `*args` read as its value, a generator's item
/// for it) and keyword arguments, in order.
fn arguments(list: Node, text: &str, depth: usize) -> Option<(Vec<Expr>, Keywords)> {
    if list.kind() == "generator_expression" {
        return Some((vec![expr(list.child_by_field_name("body")?, text, depth + 1)?], Vec::new()));
    }
    let (mut args, mut keywords) = (Vec::new(), Vec::new());
    let mut cursor = list.walk();
    for a in list.named_children(&mut cursor) {
        match a.kind() {
            "comment" => {}
            "keyword_argument" => {
                let name = text.get(a.child_by_field_name("name")?.byte_range())?.to_string();
                keywords.push((name, expr(a.child_by_field_name("value")?, text, depth + 1)?));
            }
            "list_splat" | "dictionary_splat" => args.push(expr(a.named_child(0)?, text, depth + 1)?),
            _ => args.push(expr(a, text, depth + 1)?),
        }
    }
    Some((args, keywords))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torch_expressions_parse_and_others_do_not() {
        let e = parse("x - x_max[:, None]").expect("parses");
        assert!(matches!(e, Expr::Binary("-", _, _)), "{e:?}");
        let e = parse("x.max(dim=1)[0]").expect("parses");
        assert!(matches!(e, Expr::Index(_, false)), "{e:?}");
        let e = parse("w[:, start:end]").expect("parses");
        assert!(matches!(e, Expr::Index(_, true)), "{e:?}");
        let e = parse("torch.nn.functional.silu(a) * b + c").expect("parses");
        assert!(matches!(e, Expr::Binary("+", _, _)), "{e:?}");
        assert!(parse("lambda meta: (triton.cdiv(n, meta['BLOCK']),)").is_none());
        let e = parse("torch.cat([e.reshape(-1) for e in xs if e.numel() > 0])").expect("parses");
        assert!(
            matches!(&e, Expr::Call(_, args, ..) if matches!(&args[0], Expr::Seq(items) if items.len() == 1)),
            "{e:?}"
        );
        assert!(parse("8 if n >= 2048 else 4").is_none());
        assert_eq!(parse("x.shape").and_then(|e| e.dotted()).as_deref(), Some("x.shape"));
    }
}

//! A Python expression as a small tree, enough to find the torch operations in it: names,
//! numbers, strings, calls (with keyword arguments), attributes, subscripts, tuples and
//! lists, unary and binary arithmetic. Anything else (a lambda, a comparison, a
//! conditional) does not parse: such an expression is no torch operation.

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
    /// `base[…]`: a view of `base` (what is inside is not read).
    Index(Box<Expr>),
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

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Name(String),
    Number,
    Str,
    Op(&'static str),
}

const OPS: [&str; 20] =
    ["**", "//", "+", "-", "*", "/", "%", "@", "(", ")", "[", "]", ",", ".", "=", ":", "<", ">", "!", "~"];

fn tokenize(text: &str) -> Option<Vec<(Tok, usize)>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'_') {
                if matches!(bytes[i], b'e' | b'E') && matches!(bytes.get(i + 1), Some(b'+' | b'-')) {
                    i += 1;
                }
                i += 1;
            }
            out.push((Tok::Number, start));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            // A string prefix (`f'…'`, `r"…"`) is part of the string.
            if matches!(bytes.get(i), Some(b'\'' | b'"')) && i - start <= 2 {
                continue;
            }
            out.push((Tok::Name(text[start..i].to_string()), start));
        } else if c == b'\'' || c == b'"' {
            let end = text[i + 1..].find(c as char)?;
            i += end + 2;
            out.push((Tok::Str, i - end - 2));
        } else {
            let op = OPS.iter().find(|op| text[i..].starts_with(**op))?;
            out.push((Tok::Op(op), i));
            i += op.len();
        }
    }
    Some(out)
}

/// `text` as an expression; None when it is not one this reader takes.
pub(super) fn parse(text: &str) -> Option<Expr> {
    let spans = tokenize(text)?;
    let tokens: Vec<Tok> = spans.iter().map(|(t, _)| t.clone()).collect();
    let starts: Vec<usize> = spans.iter().map(|(_, s)| *s).collect();
    let mut p = Parser { tokens: &tokens, starts: &starts, text, pos: 0, depth: 0 };
    let e = p.tuple()?;
    (p.pos == tokens.len()).then_some(e)
}

struct Parser<'a> {
    tokens: &'a [Tok],
    /// Each token's byte offset in `text`.
    starts: &'a [usize],
    text: &'a str,
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos)
    }

    fn eat(&mut self, op: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Op(o)) if *o == op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn at(&self, op: &str) -> bool {
        matches!(self.peek(), Some(Tok::Op(o)) if *o == op)
    }

    /// `a, b` (a tuple without parentheses) or one expression.
    fn tuple(&mut self) -> Option<Expr> {
        let first = self.sum()?;
        if !self.at(",") {
            return Some(first);
        }
        let mut items = vec![first];
        while self.eat(",") {
            if self.pos == self.tokens.len() {
                break;
            }
            items.push(self.sum()?);
        }
        Some(Expr::Seq(items))
    }

    fn sum(&mut self) -> Option<Expr> {
        self.depth += 1;
        if self.depth > 64 {
            return None;
        }
        let mut left = self.product()?;
        loop {
            let op = if self.eat("+") {
                "+"
            } else if self.eat("-") {
                "-"
            } else {
                break;
            };
            left = Expr::Binary(op, Box::new(left), Box::new(self.product()?));
        }
        self.depth -= 1;
        Some(left)
    }

    fn product(&mut self) -> Option<Expr> {
        let mut left = self.unary()?;
        loop {
            let op = ["*", "//", "/", "%", "@"].into_iter().find(|op| self.at(op));
            let Some(op) = op else { break };
            self.pos += 1;
            left = Expr::Binary(op, Box::new(left), Box::new(self.unary()?));
        }
        Some(left)
    }

    fn unary(&mut self) -> Option<Expr> {
        if self.eat("-") || self.eat("~") {
            return Some(Expr::Unary(Box::new(self.unary()?)));
        }
        if self.eat("+") {
            return self.unary();
        }
        let base = self.postfix()?;
        if self.eat("**") {
            return Some(Expr::Binary("**", Box::new(base), Box::new(self.unary()?)));
        }
        Some(base)
    }

    fn postfix(&mut self) -> Option<Expr> {
        let mut e = self.atom()?;
        loop {
            if self.eat(".") {
                let Some(Tok::Name(n)) = self.peek().cloned() else { return None };
                self.pos += 1;
                e = Expr::Attr(Box::new(e), n);
            } else if self.eat("(") {
                let from = self.starts.get(self.pos).copied().unwrap_or(self.text.len());
                let (args, keywords) = self.arguments()?;
                let to = self.starts.get(self.pos - 1).copied().unwrap_or(from).max(from);
                let inside = self.text.get(from..to).unwrap_or_default().to_string();
                e = Expr::Call(Box::new(e), args, keywords, inside);
            } else if self.eat("[") {
                // What a subscript selects is not read: `x_max[:, None]` is x_max.
                let mut depth = 1;
                while depth > 0 {
                    match self.peek()? {
                        Tok::Op("[") => depth += 1,
                        Tok::Op("]") => depth -= 1,
                        _ => {}
                    }
                    self.pos += 1;
                }
                e = Expr::Index(Box::new(e));
            } else {
                return Some(e);
            }
        }
    }

    /// Skips a comprehension's `for … in …` (and `if …`) clauses, up to the bracket that
    /// closes it.
    fn skip_comprehension(&mut self) {
        if !matches!(self.peek(), Some(Tok::Name(n)) if n == "for") {
            return;
        }
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            match t {
                Tok::Op("(" | "[") => depth += 1,
                Tok::Op(")" | "]") if depth == 0 => return,
                Tok::Op(")" | "]") => depth -= 1,
                _ => {}
            }
            self.pos += 1;
        }
    }

    /// A call's arguments after its `(`, through its `)`.
    fn arguments(&mut self) -> Option<(Vec<Expr>, Keywords)> {
        let (mut args, mut keywords) = (Vec::new(), Vec::new());
        while !self.eat(")") {
            if let (Some(Tok::Name(n)), Some(Tok::Op("="))) = (self.peek().cloned(), self.tokens.get(self.pos + 1)) {
                self.pos += 2;
                keywords.push((n, self.sum()?));
            } else {
                // `*args`, `**kw`: spread, read as the value.
                while self.eat("*") || self.eat("**") {}
                args.push(self.sum()?);
                self.skip_comprehension();
            }
            if !self.eat(",") && !self.at(")") {
                return None;
            }
        }
        Some((args, keywords))
    }

    fn atom(&mut self) -> Option<Expr> {
        match self.peek()?.clone() {
            Tok::Name(n) => {
                self.pos += 1;
                Some(Expr::Name(n))
            }
            Tok::Number => {
                self.pos += 1;
                Some(Expr::Number)
            }
            Tok::Str => {
                self.pos += 1;
                while matches!(self.peek(), Some(Tok::Str)) {
                    self.pos += 1;
                }
                Some(Expr::Str)
            }
            Tok::Op("(") => {
                self.pos += 1;
                if self.eat(")") {
                    return Some(Expr::Seq(Vec::new()));
                }
                let inner = self.sum()?;
                if self.eat(")") {
                    return Some(inner);
                }
                let mut items = vec![inner];
                while self.eat(",") {
                    if self.eat(")") {
                        return Some(Expr::Seq(items));
                    }
                    items.push(self.sum()?);
                }
                self.eat(")").then_some(Expr::Seq(items))
            }
            Tok::Op("[") => {
                self.pos += 1;
                let mut items = Vec::new();
                while !self.eat("]") {
                    items.push(self.sum()?);
                    // `[e.reshape(-1) for e in xs]`: the item stands for them all.
                    self.skip_comprehension();
                    if !self.eat(",") && !self.at("]") {
                        return None;
                    }
                }
                Some(Expr::Seq(items))
            }
            Tok::Op(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torch_expressions_parse_and_others_do_not() {
        let e = parse("x - x_max[:, None]").expect("parses");
        assert!(matches!(e, Expr::Binary("-", _, _)), "{e:?}");
        let e = parse("x.max(dim=1)[0]").expect("parses");
        assert!(matches!(e, Expr::Index(_)), "{e:?}");
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

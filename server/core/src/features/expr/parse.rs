//! Expression texts to values: tokens, then a precedence-climbing parser over an
//! [`Env`] (names, calls, C's and Python's operators and conditionals).

use super::*;

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    Num(f64),
    Name(String),
    Op(&'static str),
}

pub(super) fn tokenize(text: &str) -> Option<Vec<Tok>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    const OPS: [&str; 27] = [
        "//", "<<", ">>", "**", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "(", ")", ",", "?", ":",
        "<", ">", "[", "&", "|", "^", "!",
    ];
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || (c == '.' && bytes.get(i + 1).is_some_and(|b| b.is_ascii_digit())) {
            let start = i;
            let hex = bytes.get(i + 1).is_some_and(|b| *b == b'x' || *b == b'X');
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'_') {
                // An exponent sign: `1e-8`, `2.5E+3`.
                if !hex && (bytes[i] == b'e' || bytes[i] == b'E') && matches!(bytes.get(i + 1), Some(b'+' | b'-')) {
                    i += 1;
                }
                i += 1;
            }
            // Suffixes: `256u`, `1.5f`; a hex literal's `f` is a digit (`0xff`).
            let suffixes: &[char] = if hex { &['u', 'U', 'l', 'L'] } else { &['u', 'U', 'l', 'L', 'f', 'F'] };
            let lit = text[start..i].trim_end_matches(suffixes);
            let lit = lit.replace('_', "");
            let value = if let Some(hex) = lit.strip_prefix("0x").or_else(|| lit.strip_prefix("0X")) {
                u64::from_str_radix(hex, 16).ok()? as f64
            } else {
                lit.parse::<f64>().ok()?
            };
            out.push(Tok::Num(value));
        } else if c == '"' || c == '\'' {
            // A Python string (`reduction == "mean"`): a value only equal to the same string.
            let end = text[i + 1..].find(c)? + i + 1;
            out.push(Tok::Num(string_value(&text[i + 1..end])));
            i = end + 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.') {
                i += 1;
                // `std::min`: a C++ qualified name is one name.
                if text[i..].starts_with("::")
                    && bytes.get(i + 2).is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
                {
                    i += 2;
                }
            }
            // `meta['BLOCK']` names the meta-parameter BLOCK.
            let mut name = text[start..i].trim_end_matches('.').to_string();
            if bytes.get(i) == Some(&b'[') {
                let rest = &text[i + 1..];
                if let Some(end) = rest.find(']') {
                    let inside = rest[..end].trim();
                    let ints: Option<Vec<i64>> = inside.split(',').map(|t| t.trim().parse().ok()).collect();
                    if inside.starts_with(['\'', '"']) {
                        name = inside.trim_matches(|c| c == '\'' || c == '"').to_string();
                        i += end + 2;
                    } else if let Some(ints) = ints {
                        if rest[end + 1..].starts_with(".numel()") {
                            // `x[0, 0].numel()`: the elements after k indices, x's stride k − 1.
                            name = format!("{name}.stride({})", ints.len() - 1);
                            i += end + 2 + ".numel()".len();
                        } else if let [index] = ints[..] {
                            // `x.shape[0]`, `x.shape[-1]`: one name, defined by a declaration.
                            name = format!("{name}[{index}]");
                            i += end + 2;
                        }
                    }
                }
            }
            out.push(Tok::Name(name));
        } else {
            let rest = &text[i..];
            let op = OPS.iter().find(|op| rest.starts_with(**op))?;
            out.push(Tok::Op(op));
            i += op.len();
        }
    }
    Some(out)
}

pub(super) struct ExprParser<'a> {
    pub(super) tokens: &'a [Tok],
    pub(super) pos: usize,
    pub(super) env: &'a Env,
    pub(super) guesses: u32,
    pub(super) device_queries: u32,
    pub(super) depth: usize,
}

impl ExprParser<'_> {
    fn peek_op(&self) -> Option<&'static str> {
        match self.tokens.get(self.pos) {
            Some(Tok::Op(op)) => Some(op),
            _ => None,
        }
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek_op() == Some(op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn expr(&mut self) -> Option<f64> {
        let value = self.ternary()?;
        if !self.eat_word("if") {
            return Some(value);
        }
        // Python's `a if c else b` (`BLOCK = 128 if not TESLA else 64`): `c` decides where it
        // has a value; where it has none or rests on a guess (a device's name, `x in {16,
        // 32}`, a size known at run time), `a`, the value as written first, is taken as a guess.
        let (start, guesses) = (self.pos, self.guesses);
        let missing = self.env.missing.borrow().clone();
        let cond = self.logical_or().filter(|_| self.word_at(self.pos, "else") && self.guesses == guesses);
        if cond.is_none() {
            self.guesses = guesses;
            *self.env.missing.borrow_mut() = missing;
            self.guesses += 1;
            self.pos = self.else_after(start)?;
        }
        if !self.eat_word("else") {
            return None;
        }
        let other = self.expr()?;
        Some(if cond.unwrap_or(1.0) != 0.0 { value } else { other })
    }

    fn word_at(&self, at: usize, word: &str) -> bool {
        matches!(self.tokens.get(at), Some(Tok::Name(n)) if n == word)
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let found = self.word_at(self.pos, word);
        self.pos += usize::from(found);
        found
    }

    /// Where the `else` of a conditional expression whose condition starts at `start` is,
    /// outside brackets.
    fn else_after(&self, start: usize) -> Option<usize> {
        let mut depth = 0i32;
        for at in start..self.tokens.len() {
            match &self.tokens[at] {
                Tok::Op("(" | "[") => depth += 1,
                Tok::Op(")" | "]") => depth -= 1,
                Tok::Name(n) if n == "else" && depth == 0 => return Some(at),
                _ => {}
            }
        }
        None
    }

    /// Python's `or`, `and` and `not` (C's `||`, `&&` and `!`) over comparisons, as 1 or 0.
    pub(super) fn logical_or(&mut self) -> Option<f64> {
        let mut v = self.logical_and()?;
        while self.eat_word("or") || self.eat("||") {
            let r = self.logical_and()?;
            v = f64::from(v != 0.0 || r != 0.0);
        }
        Some(v)
    }

    fn logical_and(&mut self) -> Option<f64> {
        let mut v = self.logical_not()?;
        while self.eat_word("and") || self.eat("&&") {
            let r = self.logical_not()?;
            v = f64::from(v != 0.0 && r != 0.0);
        }
        Some(v)
    }

    fn logical_not(&mut self) -> Option<f64> {
        if self.eat_word("not") || self.eat("!") {
            return Some(f64::from(self.logical_not()? == 0.0));
        }
        self.bitwise(0)
    }

    fn ternary(&mut self) -> Option<f64> {
        let cond = self.logical_or()?;
        if self.eat("?") {
            let a = self.expr()?;
            if !self.eat(":") {
                return None;
            }
            let b = self.expr()?;
            return Some(if cond != 0.0 { a } else { b });
        }
        Some(cond)
    }

    /// `|`, `^` and `&` (C's precedence, loosest first), on the integer parts:
    /// `threadIdx.x & 31`, `n | 1`.
    fn bitwise(&mut self, level: usize) -> Option<f64> {
        const OPS: [&str; 3] = ["|", "^", "&"];
        let Some(&op) = OPS.get(level) else { return self.comparison() };
        let mut v = self.bitwise(level + 1)?;
        while self.eat(op) {
            let r = self.bitwise(level + 1)?;
            let (a, b) = (v.trunc() as i64, r.trunc() as i64);
            v = match op {
                "|" => a | b,
                "^" => a ^ b,
                _ => a & b,
            } as f64;
        }
        Some(v)
    }

    fn comparison(&mut self) -> Option<f64> {
        let mut v = self.shift()?;
        loop {
            let op = match self.peek_op() {
                Some(op @ ("<" | ">" | "<=" | ">=" | "==" | "!=")) => {
                    self.pos += 1;
                    op
                }
                // Python's `softcap is None`, `weight is not None`.
                _ if self.eat_word("is") => match self.eat_word("not") {
                    true => "!=",
                    false => "==",
                },
                _ => break,
            };
            let r = self.shift()?;
            let t = match op {
                "<" => v < r,
                ">" => v > r,
                "<=" => v <= r,
                ">=" => v >= r,
                "==" => v == r,
                _ => v != r,
            };
            v = if t { 1.0 } else { 0.0 };
        }
        Some(v)
    }

    fn shift(&mut self) -> Option<f64> {
        let mut v = self.sum()?;
        while let Some(op @ ("<<" | ">>")) = self.peek_op() {
            self.pos += 1;
            let r = self.sum()?.clamp(0.0, 62.0);
            v = if op == "<<" { v * 2f64.powf(r) } else { (v / 2f64.powf(r)).floor() };
        }
        Some(v)
    }

    fn sum(&mut self) -> Option<f64> {
        let mut v = self.product()?;
        while let Some(op @ ("+" | "-")) = self.peek_op() {
            self.pos += 1;
            let r = self.product()?;
            v = if op == "+" { v + r } else { v - r };
        }
        Some(v)
    }

    fn product(&mut self) -> Option<f64> {
        let mut v = self.unary()?;
        while let Some(op @ ("*" | "/" | "//" | "%")) = self.peek_op() {
            self.pos += 1;
            let r = self.unary()?;
            v = match op {
                "*" => v * r,
                // C integer division and Python floor division agree for the sizes seen here.
                "/" | "//" if r != 0.0 => (v / r).floor(),
                "%" if r != 0.0 => v % r,
                _ => return None,
            };
        }
        Some(v)
    }

    fn unary(&mut self) -> Option<f64> {
        if self.eat("-") {
            return Some(-self.unary()?);
        }
        if self.eat("+") {
            return self.unary();
        }
        let base = self.atom()?;
        if self.eat("**") {
            let e = self.unary()?;
            return Some(base.powf(e));
        }
        Some(base)
    }

    fn atom(&mut self) -> Option<f64> {
        match self.tokens.get(self.pos)?.clone() {
            Tok::Num(v) => {
                self.pos += 1;
                Some(v)
            }
            Tok::Op("(") => {
                if let Some((integer, after)) = self.cast_at(self.pos + 1, ")") {
                    // `(size_t)rows * cols`, `(unsigned int)((n + 255) / 256)`: a C cast.
                    self.pos = after;
                    return self.unary().map(|v| if integer { v.trunc() } else { v });
                }
                self.pos += 1;
                // A tuple `(a, b)` is a grid: its size is the product.
                let mut v = self.expr()?;
                while self.eat(",") {
                    if self.peek_op() == Some(")") {
                        break;
                    }
                    v *= self.expr()?;
                }
                if !self.eat(")") {
                    return None;
                }
                Some(v)
            }
            Tok::Name(name) => {
                self.pos += 1;
                if name == "static_cast" && self.eat("<") {
                    // `static_cast<int>(n / 2.0)`.
                    let (integer, after) = self.cast_at(self.pos, ">")?;
                    self.pos = after;
                    return self.atom().map(|v| if integer { v.trunc() } else { v });
                }
                // `std::min<int>(a, b)`: a call's template arguments of a C type are not sizes.
                if self.peek_op() == Some("<") {
                    if let Some((_, after)) = self.cast_at(self.pos + 1, ">") {
                        if matches!(self.tokens.get(after), Some(Tok::Op("("))) {
                            self.pos = after;
                        }
                    }
                }
                if name == "sizeof" && self.eat("(") {
                    // `sizeof(float)`, `sizeof(float4)`: the size of a type.
                    let mut ty = Vec::new();
                    while let Some(Tok::Name(n)) = self.tokens.get(self.pos) {
                        ty.push(n.clone());
                        self.pos += 1;
                    }
                    if !self.eat(")") {
                        return None;
                    }
                    // `sizeof(T)` in a template whose `T` the launch gives.
                    let ty = ty.join(" ");
                    return type_size(&ty).or_else(|| type_size(&self.env.resolve(&ty)));
                }
                if self.eat("(") {
                    let mut args = Vec::new();
                    // Whether the first argument rested on a guess (`tl.where`'s condition).
                    let mut first_guessed = false;
                    // `x.size(dim)` of a `dim` nothing gives: the name, never a guessed index.
                    let first_name = match (self.tokens.get(self.pos), self.tokens.get(self.pos + 1)) {
                        (Some(Tok::Name(n)), Some(Tok::Op(")"))) => Some(n.clone()),
                        _ => None,
                    };
                    if !self.eat(")") {
                        loop {
                            let guesses = self.guesses;
                            args.push(self.expr()?);
                            first_guessed |= args.len() == 1 && self.guesses > guesses;
                            if self.eat(")") {
                                break;
                            }
                            if !self.eat(",") {
                                return None;
                            }
                        }
                    }
                    if let ("tl.where" | "torch.where", [cond, a, b]) = (name.as_str(), &args[..]) {
                        // `block_mask = tl.where(start < seq_len, 1, 0)`: the condition decides
                        // where it has a value, else the value it picks when true.
                        return Some(if first_guessed || *cond != 0.0 { *a } else { *b });
                    }
                    if let Some(body) = self.env.expand(&name, &args) {
                        let e = self.env.eval_depth(&body, self.depth + 1)?;
                        self.guesses += e.guesses;
                        self.device_queries += e.device_queries;
                        return Some(e.value);
                    }
                    if (name.ends_with(".size") || name.ends_with(".num_threads")) && args.is_empty() {
                        // A cooperative group's size: a warp tile's 32, a block's threads.
                        if let Some(v) = self.group_size(&name) {
                            return Some(v);
                        }
                    }
                    if name.ends_with(".thread_rank") && args.is_empty() {
                        // A cooperative group's `block.thread_rank()`: the thread's index.
                        return Some(self.env.values.get("threadIdx.x").copied().unwrap_or(0.0));
                    }
                    return match call(&name, &args) {
                        Some(v) => Some(v),
                        // `x.numel()`, `x.stride(0)`: defined by a declaration.
                        None if self.env.defines(&call_key(&name, &args)) => {
                            let e = self.env.lookup(&call_key(&name, &args), self.depth);
                            self.guesses += e.guesses;
                            self.device_queries += e.device_queries;
                            Some(e.value)
                        }
                        // `x.element_size()`: a float's bytes, whatever the tensor.
                        None if name.ends_with(".element_size") && args.is_empty() => Some(4.0),
                        // `x.size(0)`, `x.numel()` that nothing gives: a size known only at
                        // run time, named as `x.shape[0]` is (one name for both spellings),
                        // so the sizes a program reads are taken together (`spread`).
                        None if tensor_size_key(&name, &args).is_some() => {
                            let key = match (&first_name, first_guessed) {
                                // `input.size(dim)`: one size of its own, `input.shape[dim]`.
                                (Some(dim), true) if name.ends_with(".size") => {
                                    format!("{}.shape[{dim}]", name.trim_end_matches(".size"))
                                }
                                _ => tensor_size_key(&name, &args)?,
                            };
                            let e = self.env.lookup(&key, self.depth);
                            self.guesses += e.guesses;
                            self.device_queries += e.device_queries;
                            Some(e.value)
                        }
                        // `is_hip()`, `infer_device() == "xpu"`: forecasts are for an NVIDIA GPU.
                        None => platform_query(&name).or_else(|| {
                            // An unknown function (a helper, a device query): a guess.
                            self.guesses += 1;
                            let device = device_query(&name);
                            self.device_queries += u32::from(device.is_some());
                            Some(device.unwrap_or(self.env.unknown))
                        }),
                    };
                }
                let e = self.env.lookup(&name, self.depth);
                self.guesses += e.guesses;
                self.device_queries += e.device_queries;
                Some(e.value)
            }
            Tok::Op(_) => None,
        }
    }

    /// `tile.size()`, `cta.size()`, `block.num_threads()`: 32 for a tile or warp, else the
    /// block's threads (where the launch gives them).
    fn group_size(&self, name: &str) -> Option<f64> {
        let group = name.rsplit_once('.').map(|(g, _)| g.to_ascii_lowercase())?;
        if group.contains("tile") || group.contains("warp") {
            return Some(32.0);
        }
        let dim = |a: &str| self.env.values.get(&format!("blockDim.{a}")).copied();
        Some(dim("x")? * dim("y").unwrap_or(1.0) * dim("z").unwrap_or(1.0))
    }

    /// A type name from token `at` to the `close` token (`unsigned int)`, `size_t>`):
    /// whether it is an integer type and the token after `close`. None if the tokens are
    /// not a known scalar type, or (after a `(`) nothing castable follows.
    fn cast_at(&self, at: usize, close: &str) -> Option<(bool, usize)> {
        let mut words = Vec::new();
        let mut i = at;
        while let Some(Tok::Name(n)) = self.tokens.get(i) {
            words.push(n.as_str());
            i += 1;
        }
        if words.is_empty() || !matches!(self.tokens.get(i), Some(Tok::Op(op)) if *op == close) {
            return None;
        }
        // `std::size_t`, `std::int64_t`: the C type of the same name.
        let words: Vec<&str> = words.iter().map(|w| w.strip_prefix("std::").unwrap_or(w)).collect();
        let integer = words.iter().all(|w| INTEGER_WORDS.contains(w));
        let float = matches!(words[..], ["float"] | ["double"]);
        if !(integer || float) {
            return None;
        }
        let operand = matches!(self.tokens.get(i + 1), Some(Tok::Num(_) | Tok::Name(_) | Tok::Op("(" | "-" | "+")));
        (close != ")" || operand).then_some((integer, i + 1))
    }
}

/// Words of a C integer type in a cast.
const INTEGER_WORDS: [&str; 16] = [
    "int", "unsigned", "signed", "long", "short", "char", "const", "size_t", "int32_t", "uint32_t", "int64_t",
    "uint64_t", "int16_t", "uint16_t", "int8_t", "uint8_t",
];

/// The name a tensor's size read by a call goes by: `x.size(1)` is `x.shape[1]`,
/// `x.numel()` itself; `None` for other calls (`x.size()` is a tuple, `x.stride(0)` a
/// stride, not a size of the problem).
fn tensor_size_key(name: &str, args: &[f64]) -> Option<String> {
    let integral = args.iter().all(|a| a.fract() == 0.0);
    match (name.rsplit_once('.'), args) {
        (Some((tensor, "size")), [dim]) if integral && !tensor.is_empty() => {
            Some(format!("{tensor}.shape[{}]", *dim as i64))
        }
        (Some((tensor, "numel")), []) if !tensor.is_empty() => Some(format!("{tensor}.numel()")),
        _ => None,
    }
}

/// The name a call with constant arguments is defined under: `x.stride(0)`, `x.numel()`.
fn call_key(name: &str, args: &[f64]) -> String {
    let args: Vec<String> = args.iter().map(|a| format!("{}", *a as i64)).collect();
    format!("{name}({})", args.join(", "))
}

/// Bytes of a C type named in `sizeof(…)`.
fn type_size(ty: &str) -> Option<f64> {
    let lanes = |t: &str| t.chars().last().and_then(|c| c.to_digit(10)).map(f64::from).unwrap_or(1.0);
    Some(match ty.trim() {
        "char" | "unsigned char" | "int8_t" | "uint8_t" | "bool" => 1.0,
        "short" | "half" | "__half" | "__nv_bfloat16" | "int16_t" | "uint16_t" => 2.0,
        "float" | "int" | "unsigned" | "unsigned int" | "int32_t" | "uint32_t" | "half2" | "__half2" => 4.0,
        "double" | "long" | "long long" | "size_t" | "int64_t" | "uint64_t" => 8.0,
        t if t.starts_with("float") || t.starts_with("int") || t.starts_with("uint") => 4.0 * lanes(t),
        t if t.starts_with("double") => 8.0 * lanes(t),
        _ => return None,
    })
}

/// A Python string's value: equal only to the same string's (a number no size takes).
fn string_value(s: &str) -> f64 {
    let hash = s.bytes().fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    -1e12 - f64::from(hash)
}

/// What a call asking which platform runs the code returns on the NVIDIA GPU kforecast
/// forecasts for: `is_hip()`, `is_xpu()` false, `is_cuda()` true, `infer_device()` "cuda".
fn platform_query(name: &str) -> Option<f64> {
    let short = name.rsplit('.').next().unwrap_or(name).to_ascii_lowercase();
    match short.as_str() {
        "is_hip" | "is_rocm" | "is_xpu" | "is_npu" | "is_mps" | "is_amd" | "is_mlu" | "is_musa" => Some(0.0),
        "is_cuda" | "is_nvidia" | "is_cuda_available" => Some(1.0),
        "infer_device" | "get_device_type" | "device_type" => Some(string_value("cuda")),
        _ => None,
    }
}

/// Names that ask for the number of SMs (`num_sms()`, `sm_count`, `multiProcessorCount`).
pub(super) fn device_query(name: &str) -> Option<f64> {
    let lower = name.to_ascii_lowercase();
    (lower.contains("sms")
        || lower.contains("sm_count")
        || lower.contains("multiprocessor")
        || lower.contains("multi_processor"))
    .then_some(SM_COUNT)
}

/// Whether a two-argument function or macro is the ceiling division idiom (`cdiv`,
/// `CEIL_DIV`, `DIV_UP`, `iDivUp`, `CEIL(a, b)`, `div_ceil`), whatever its case and
/// underscores.
fn is_ceil_div(name: &str) -> bool {
    let key: String = name.chars().filter(|c| *c != '_').collect::<String>().to_ascii_lowercase();
    matches!(key.as_str(), "cdiv" | "ceildiv" | "divup" | "idivup" | "divceil" | "ceil" | "divroundup" | "ceilingdiv")
}

fn call(name: &str, args: &[f64]) -> Option<f64> {
    let short = name.rsplit(['.', ':']).next().unwrap_or(name);
    match (short, args) {
        (f, [a, b]) if is_ceil_div(f) && *b != 0.0 => Some((a / b).ceil()),
        ("min" | "fmin" | "std::min" | "minimum", [a, b]) => Some(a.min(*b)),
        ("max" | "fmax" | "std::max" | "maximum", [a, b]) => Some(a.max(*b)),
        ("next_power_of_2" | "nextPow2" | "next_pow2" | "nextPowerOf2" | "next_power_of_two", [a]) => {
            Some(2f64.powf(a.max(1.0).log2().ceil()))
        }
        ("dim3", args) if !args.is_empty() => Some(args.iter().product()),
        // `tl.constexpr(1024)`: a Triton module constant's value.
        ("int" | "float" | "ceil" | "floor" | "abs" | "constexpr", [a]) => Some(*a),
        ("sqrt" | "sqrtf", [a]) => Some(a.sqrt()),
        ("log2" | "log2f", [a]) if *a > 0.0 => Some(a.log2()),
        _ => None,
    }
}

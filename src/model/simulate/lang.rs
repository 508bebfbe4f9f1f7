//! The skeleton language: what a program does, not how. A skeleton lists directives in the
//! spirit of the seed's Figure 5 (seed 001, section 6), one after another, with blocks in
//! braces. Keywords and message types are case-insensitive; `#` starts a comment.
//!
//! ```text
//! Param xsize = 256                            # a default; the page's parameters override it
//! Loop iterations = 1000 { … }                 # repeat a block
//! Loop stage iterations = log2(numprocs) { … } # … with a counter `stage` = 0, 1, …
//! Runon c1 = procnum % 2 == 0 & c2 = procnum % 2 != 0 { … } { … } [{ … else … }]
//! Runon procnum == 0 { … }                     # one unnamed condition
//! Message type = MPI_Send, size = xsize * sizeof(float), to = procnum + 1
//! Message type = MPI_Recv, size = 1024, from = any          # any source; sets `source`, `tag`
//! Message type = MPI_Isend | MPI_Irecv | MPI_Wait | MPI_Barrier | MPI_Bcast | MPI_Reduce
//!              | MPI_Allreduce | MPI_Gather | MPI_Scatter | MPI_Alltoall  (size, root)
//! Serial [on perseus] time = 3.24 / numprocs   # computation, milliseconds
//! Break                                        # leave the innermost loop
//! ```
//!
//! Attributes are `name = expression`, separated by spaces, commas or `&` (the seed's
//! continuation mark). A `Runon` with k conditions takes k blocks and optionally one more for
//! "none of them": the first block whose condition holds runs (if / else if / else).
//! Expressions: numbers, `+ - * / %`, comparisons, `&& || !`, parentheses, parameters,
//! `procnum`, `numprocs`, loop counters, `source` and `tag` (of the last blocking receive),
//! and the functions `min max floor ceil abs sqrt log2 pow xor`, `sizeof(float|int|double|…)`,
//! `uniform(a, b)` and `exponential(mean)` (random, from the run's seed).
//!
//! The seed's own form — C source with `// PEVPM` comments — is accepted pasted as is: when
//! any line holds `// PEVPM`, only the text after those marks is read (at the same line and
//! column, so errors point into the pasted text) and the C is ignored.

use crate::model::InputError;

/// The input field every skeleton error names.
pub const FIELD: &str = "skeleton";
/// Deepest nesting of blocks or parentheses accepted (keeps the recursive parser's stack small).
const MAX_DEPTH: usize = 64;
/// Deepest expression tree accepted, counting every operator of a chain such as `a + b + c`
/// as one level: compiling and evaluating an expression walk its tree recursively, so its depth
/// must be bounded (a 263-character share link once inflated to `1+0+0+…` with 17,000 terms).
pub const MAX_EXPR_DEPTH: usize = 256;
/// Most numbers, names and calls in one expression.
pub const MAX_EXPR_TERMS: usize = 2000;

/// A 1-based line and column (in characters) in the text the user typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

impl Pos {
    pub fn error(self, msg: impl Into<String>) -> InputError {
        InputError::new(FIELD, msg).at(self.line as usize, Some(self.col as usize))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Min,
    Max,
    Floor,
    Ceil,
    Abs,
    Sqrt,
    Log2,
    Pow,
    Xor,
    Uniform,
    Exponential,
}

const FUNCS: &[(&str, Func, usize)] = &[
    ("min", Func::Min, 2),
    ("max", Func::Max, 2),
    ("floor", Func::Floor, 1),
    ("ceil", Func::Ceil, 1),
    ("abs", Func::Abs, 1),
    ("sqrt", Func::Sqrt, 1),
    ("log2", Func::Log2, 1),
    ("pow", Func::Pow, 2),
    ("xor", Func::Xor, 2),
    ("uniform", Func::Uniform, 2),
    ("exponential", Func::Exponential, 1),
];

const SIZEOF: &[(&str, f64)] =
    &[("char", 1.0), ("short", 2.0), ("int", 4.0), ("float", 4.0), ("long", 8.0), ("double", 8.0), ("complex", 16.0)];

/// An expression as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Num(f64),
    Var(String, Pos),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>, Pos),
}

/// Message types. Collectives are primitives of the language and are expanded into
/// point-to-point messages when a run starts (see `sim`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MsgOp {
    Send,
    Isend,
    Recv,
    Irecv,
    Wait,
    Barrier,
    Bcast,
    Reduce,
    Allreduce,
    Gather,
    Scatter,
    Alltoall,
}

const MSG_OPS: &[(&str, MsgOp)] = &[
    ("send", MsgOp::Send),
    ("ssend", MsgOp::Send),
    ("isend", MsgOp::Isend),
    ("recv", MsgOp::Recv),
    ("irecv", MsgOp::Irecv),
    ("wait", MsgOp::Wait),
    ("waitall", MsgOp::Wait),
    ("barrier", MsgOp::Barrier),
    ("bcast", MsgOp::Bcast),
    ("reduce", MsgOp::Reduce),
    ("allreduce", MsgOp::Allreduce),
    ("gather", MsgOp::Gather),
    ("scatter", MsgOp::Scatter),
    ("alltoall", MsgOp::Alltoall),
];

#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub op: MsgOp,
    pub size: Option<Expr>,
    /// `None` when not given; `Some(Var("any"))` for any source.
    pub from: Option<Expr>,
    pub to: Option<Expr>,
    pub root: Option<Expr>,
    pub tag: Option<Expr>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    Param {
        name: String,
        value: Expr,
    },
    Loop {
        count: Expr,
        var: Option<String>,
        body: Vec<Stmt>,
    },
    /// (condition, block) pairs and the optional block for none of them.
    Runon {
        branches: Vec<(Expr, Vec<Stmt>)>,
        otherwise: Option<Vec<Stmt>>,
    },
    Message(Message),
    /// Milliseconds.
    Serial {
        time: Expr,
    },
    Break,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub pos: Pos,
    pub kind: StmtKind,
}

/// A parsed skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct Skeleton {
    pub body: Vec<Stmt>,
    /// Whether the text was C source with `// PEVPM` comments.
    pub from_annotated_c: bool,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    Ident(String),
    Sym(&'static str),
    End,
}

const SYMBOLS: &[&str] = &[
    "==", "!=", "<=", ">=", "&&", "||", "=", "<", ">", "+", "-", "*", "/", "%", "(", ")", "{", "}", "&", "!", ",", ";",
];

fn describe(t: &Tok) -> String {
    match t {
        Tok::Num(x) => format!("the number {}", crate::model::fmt_num(*x, 6)),
        Tok::Ident(s) => format!("\"{s}\""),
        Tok::Sym(s) => format!("\"{s}\""),
        Tok::End => "the end of the skeleton".into(),
    }
}

/// Keeps only the text after `// PEVPM` marks, in place, when the text has any.
fn extract_annotations(text: &str) -> Option<String> {
    let mark = |l: &str| -> Option<usize> {
        let i = l.find("//")?;
        let rest = l[i + 2..].trim_start();
        rest.starts_with("PEVPM").then(|| l.len() - rest.len() + "PEVPM".len())
    };
    if !text.lines().any(|l| mark(l).is_some()) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    for l in text.lines() {
        if let Some(at) = mark(l) {
            // Blank out the C and the mark character by character so columns stay put.
            out.extend(l[..at].chars().map(|_| ' '));
            out.push_str(&l[at..]);
        }
        out.push('\n');
    }
    Some(out)
}

fn lex(text: &str) -> Result<Vec<(Tok, Pos)>, InputError> {
    let mut toks = Vec::new();
    for (li, line) in text.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let pos = Pos { line: li as u32 + 1, col: i as u32 + 1 };
            if c.is_whitespace() {
                i += 1;
            } else if c == '#' || (c == '/' && chars.get(i + 1) == Some(&'/')) {
                break;
            } else if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                    // An exponent sign belongs to the number: 1e-3.
                    if matches!(chars[i], 'e' | 'E') && matches!(chars.get(i + 1), Some('+' | '-')) {
                        i += 1;
                    }
                    i += 1;
                }
                let s: String = chars[start..i].iter().collect();
                match s.parse::<f64>() {
                    Ok(x) if x.is_finite() => toks.push((Tok::Num(x), pos)),
                    _ => return Err(pos.error(format!("\"{s}\" is not a number"))),
                }
            } else if c.is_alphabetic() || c == '_' {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                toks.push((Tok::Ident(chars[start..i].iter().collect()), pos));
            } else {
                let two: String = chars[i..chars.len().min(i + 2)].iter().collect();
                let Some(sym) = SYMBOLS.iter().find(|s| two.starts_with(**s)) else {
                    return Err(pos.error(format!("unexpected character '{c}'")));
                };
                toks.push((Tok::Sym(sym), pos));
                i += sym.len();
            }
        }
    }
    let end = Pos {
        line: text.lines().count().max(1) as u32,
        col: text.lines().last().map_or(1, |l| l.chars().count() as u32 + 1),
    };
    toks.push((Tok::End, end));
    Ok(toks)
}

struct Parser {
    toks: Vec<(Tok, Pos)>,
    i: usize,
    /// Nesting of blocks, parentheses and signs.
    depth: usize,
    /// Terms of the expression being parsed.
    terms: usize,
}

impl Parser {
    fn peek(&self) -> &Tok {
        // The token list always ends with Tok::End and `i` never passes it.
        &self.toks[self.i.min(self.toks.len() - 1)].0 // ok: toks is never empty
    }
    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.i + k).min(self.toks.len() - 1)].0 // ok: toks is never empty
    }
    fn pos(&self) -> Pos {
        self.toks[self.i.min(self.toks.len() - 1)].1 // ok: toks is never empty
    }
    fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.i + 1 < self.toks.len() {
            self.i += 1;
        }
        t
    }
    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(x) if *x == s)
    }
    fn eat_sym(&mut self, s: &str) -> bool {
        let yes = self.is_sym(s);
        if yes {
            self.bump();
        }
        yes
    }
    fn expected(&self, what: &str) -> InputError {
        self.pos().error(format!("expected {what}, found {}", describe(self.peek())))
    }
    fn expect_sym(&mut self, s: &str, what: &str) -> Result<(), InputError> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }
    fn ident(&mut self, what: &str) -> Result<(String, Pos), InputError> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.bump();
                Ok((s, pos))
            }
            _ => Err(self.expected(what)),
        }
    }
    fn deeper(&mut self) -> Result<(), InputError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.pos().error(format!("nested more than {MAX_DEPTH} deep")));
        }
        Ok(())
    }

    fn block(&mut self) -> Result<Vec<Stmt>, InputError> {
        self.expect_sym("{", "\"{\" to open a block")?;
        self.deeper()?;
        let mut body = Vec::new();
        while !self.is_sym("}") {
            if *self.peek() == Tok::End {
                return Err(self.expected("\"}\" to close the block"));
            }
            body.push(self.statement()?);
        }
        self.bump();
        self.depth -= 1;
        Ok(body)
    }

    /// Attributes `name = expr`, separated by spaces, commas or `&`, while the next tokens are
    /// an identifier and a single `=`.
    fn attributes(&mut self) -> Result<Vec<(String, Pos, Expr)>, InputError> {
        let mut out = Vec::new();
        loop {
            while self.eat_sym("&") || self.eat_sym(",") {}
            let is_attr = matches!(self.peek(), Tok::Ident(_)) && matches!(self.peek_at(1), Tok::Sym("="));
            if !is_attr {
                return Ok(out);
            }
            let (name, pos) = self.ident("an attribute")?;
            self.bump();
            let value = self.expr()?;
            out.push((name.to_ascii_lowercase(), pos, value));
        }
    }

    fn statement(&mut self) -> Result<Stmt, InputError> {
        let pos = self.pos();
        let (word, _) = self.ident("a directive (Loop, Runon, Message, Serial, Param or Break)")?;
        let kind = match word.to_ascii_lowercase().as_str() {
            "param" => {
                let (name, _) = self.ident("a parameter name")?;
                self.expect_sym("=", "\"=\" after the parameter's name")?;
                StmtKind::Param { name, value: self.expr()? }
            }
            "loop" => {
                let var = match (self.peek().clone(), self.peek_at(1)) {
                    (Tok::Ident(v), Tok::Ident(_)) => {
                        self.bump();
                        Some(v)
                    }
                    _ => None,
                };
                let mut attrs = self.attributes()?;
                let count = take(&mut attrs, "iterations", pos, "Loop needs iterations = …")?;
                let var = match take_opt(&mut attrs, "var") {
                    Some(Expr::Var(v, _)) => Some(v),
                    Some(_) => return Err(pos.error("var = must name a counter")),
                    None => var,
                };
                no_more(&attrs, "Loop takes iterations and var")?;
                StmtKind::Loop { count, var, body: self.block()? }
            }
            "runon" => {
                let mut conds = Vec::new();
                let attrs = self.attributes()?;
                if attrs.is_empty() {
                    conds.push(self.expr()?);
                } else {
                    conds.extend(attrs.into_iter().map(|(_, _, e)| e));
                }
                let mut branches = Vec::new();
                for c in conds {
                    branches.push((c, self.block()?));
                }
                let otherwise = if self.is_sym("{") { Some(self.block()?) } else { None };
                StmtKind::Runon { branches, otherwise }
            }
            "message" => {
                let mut attrs = self.attributes()?;
                let op = match take_opt(&mut attrs, "type") {
                    Some(Expr::Var(t, tpos)) => {
                        let low = t.to_ascii_lowercase();
                        let name = low.strip_prefix("mpi_").unwrap_or(&low);
                        match MSG_OPS.iter().find(|(n, _)| *n == name) {
                            Some((_, op)) => *op,
                            None => {
                                return Err(tpos.error(format!(
                                    "unknown message type \"{t}\"; expected MPI_Send, MPI_Isend, MPI_Recv, MPI_Irecv, MPI_Wait or a collective (MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Gather, MPI_Scatter, MPI_Alltoall)"
                                )))
                            }
                        }
                    }
                    _ => return Err(pos.error("Message needs type = MPI_Send, MPI_Recv, …")),
                };
                let m = Message {
                    op,
                    size: take_opt(&mut attrs, "size"),
                    from: take_opt(&mut attrs, "from"),
                    to: take_opt(&mut attrs, "to"),
                    root: take_opt(&mut attrs, "root"),
                    tag: take_opt(&mut attrs, "tag"),
                };
                no_more(&attrs, "Message takes type, size, from, to, root and tag")?;
                StmtKind::Message(m)
            }
            "serial" => {
                if matches!(self.peek(), Tok::Ident(w) if w.eq_ignore_ascii_case("on")) {
                    self.bump();
                    self.ident("a machine name after \"on\"")?;
                }
                let mut attrs = self.attributes()?;
                let time = take(&mut attrs, "time", pos, "Serial needs time = … (milliseconds)")?;
                no_more(&attrs, "Serial takes time")?;
                StmtKind::Serial { time }
            }
            "break" => StmtKind::Break,
            _ => {
                return Err(pos.error(format!(
                    "expected a directive (Loop, Runon, Message, Serial, Param or Break), found \"{word}\""
                )))
            }
        };
        while self.eat_sym(";") {}
        Ok(Stmt { pos, kind })
    }

    /// A whole expression (of an attribute, a condition or a parameter).
    fn expr(&mut self) -> Result<Expr, InputError> {
        self.terms = 0;
        self.sub_expr().map(|(e, _)| e)
    }

    /// An expression and the depth of its tree.
    fn sub_expr(&mut self) -> Result<(Expr, usize), InputError> {
        self.deeper()?;
        let e = self.binary(0);
        self.depth -= 1;
        e
    }

    /// The depth of a node over subtrees of depth `below`, within [`MAX_EXPR_DEPTH`]; `at` is
    /// where an error points.
    fn node_depth(&self, below: usize, at: Pos) -> Result<usize, InputError> {
        if below >= MAX_EXPR_DEPTH {
            return Err(at.error(format!(
                "this expression is nested or chained more than {MAX_EXPR_DEPTH} operators deep; split it over several Param lines"
            )));
        }
        Ok(below + 1)
    }

    /// Precedence climbing over the binary operators, loosest first. A chain `a + b + c`
    /// builds a left-deep tree, one level per operator.
    fn binary(&mut self, level: usize) -> Result<(Expr, usize), InputError> {
        const LEVELS: &[&[(&str, BinOp)]] = &[
            &[("||", BinOp::Or)],
            &[("&&", BinOp::And)],
            &[("==", BinOp::Eq), ("!=", BinOp::Ne)],
            &[("<=", BinOp::Le), (">=", BinOp::Ge), ("<", BinOp::Lt), (">", BinOp::Gt)],
            &[("+", BinOp::Add), ("-", BinOp::Sub)],
            &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Rem)],
        ];
        let Some(ops) = LEVELS.get(level) else { return self.unary() };
        let (mut lhs, mut depth) = self.binary(level + 1)?;
        while let Some((_, op)) = ops.iter().find(|(s, _)| self.is_sym(s)) {
            let at = self.pos();
            self.bump();
            let (rhs, rhs_depth) = self.binary(level + 1)?;
            depth = self.node_depth(depth.max(rhs_depth), at)?;
            lhs = Expr::Bin(*op, Box::new(lhs), Box::new(rhs));
        }
        Ok((lhs, depth))
    }

    fn unary(&mut self) -> Result<(Expr, usize), InputError> {
        let pos = self.pos();
        for (sym, node) in [("-", Expr::Neg as fn(Box<Expr>) -> Expr), ("!", Expr::Not), ("+", |e: Box<Expr>| *e)] {
            if self.eat_sym(sym) {
                self.deeper()?;
                let (e, d) = self.unary()?;
                self.depth -= 1;
                // A plus sign adds no node.
                let d = if sym == "+" { d } else { self.node_depth(d, pos)? };
                return Ok((node(Box::new(e)), d));
            }
        }
        self.terms += 1;
        if self.terms > MAX_EXPR_TERMS {
            return Err(pos.error(format!(
                "this expression has more than {MAX_EXPR_TERMS} terms; split it over several Param lines"
            )));
        }
        match self.peek().clone() {
            Tok::Num(x) => {
                self.bump();
                Ok((Expr::Num(x), 1))
            }
            Tok::Sym("(") => {
                self.bump();
                let e = self.sub_expr()?;
                self.expect_sym(")", "\")\"")?;
                Ok(e)
            }
            Tok::Ident(name) => {
                self.bump();
                if !self.is_sym("(") {
                    return Ok((Expr::Var(name, pos), 1));
                }
                self.bump();
                let low = name.to_ascii_lowercase();
                if low == "sizeof" {
                    let (ty, tpos) = self.ident("a C type")?;
                    let Some((_, bytes)) = SIZEOF.iter().find(|(t, _)| t.eq_ignore_ascii_case(&ty)) else {
                        return Err(tpos.error(format!(
                            "unknown type \"{ty}\"; expected char, short, int, float, long, double or complex"
                        )));
                    };
                    self.expect_sym(")", "\")\"")?;
                    return Ok((Expr::Num(*bytes), 1));
                }
                let Some((_, f, arity)) = FUNCS.iter().find(|(n, _, _)| *n == low) else {
                    return Err(pos.error(format!(
                        "unknown function \"{name}\"; expected min, max, floor, ceil, abs, sqrt, log2, pow, xor, sizeof, uniform or exponential"
                    )));
                };
                let (first, mut below) = self.sub_expr()?;
                let mut args = vec![first];
                while self.eat_sym(",") {
                    let (a, d) = self.sub_expr()?;
                    below = below.max(d);
                    args.push(a);
                }
                self.expect_sym(")", "\")\" or \",\"")?;
                if args.len() != *arity {
                    return Err(pos.error(format!(
                        "{low} takes {arity} argument{}, found {}",
                        if *arity == 1 { "" } else { "s" },
                        args.len()
                    )));
                }
                Ok((Expr::Call(*f, args, pos), self.node_depth(below, pos)?))
            }
            _ => Err(self.expected("a number, a name, \"(\", \"-\" or \"!\"")),
        }
    }
}

fn take_opt(attrs: &mut Vec<(String, Pos, Expr)>, name: &str) -> Option<Expr> {
    let i = attrs.iter().position(|(n, _, _)| n == name)?;
    Some(attrs.remove(i).2)
}

fn take(attrs: &mut Vec<(String, Pos, Expr)>, name: &str, pos: Pos, msg: &str) -> Result<Expr, InputError> {
    take_opt(attrs, name).ok_or_else(|| pos.error(msg))
}

fn no_more(attrs: &[(String, Pos, Expr)], msg: &str) -> Result<(), InputError> {
    match attrs.first() {
        Some((n, p, _)) => Err(p.error(format!("unknown or repeated attribute \"{n}\"; {msg}"))),
        None => Ok(()),
    }
}

/// Parses a skeleton (or C source annotated with `// PEVPM` comments).
pub fn parse(text: &str) -> Result<Skeleton, InputError> {
    let extracted = extract_annotations(text);
    let toks = lex(extracted.as_deref().unwrap_or(text))?;
    let mut p = Parser { toks, i: 0, depth: 0, terms: 0 };
    let mut body = Vec::new();
    while *p.peek() != Tok::End {
        if p.is_sym("}") {
            return Err(p.pos().error("\"}\" without a block to close"));
        }
        body.push(p.statement()?);
    }
    if body.is_empty() {
        return Err(InputError::new(FIELD, "the skeleton is empty; expected directives such as Loop, Message, Serial"));
    }
    Ok(Skeleton { body, from_annotated_c: extracted.is_some() })
}

/// Moves an error of the skeleton's language to the input `field` (the parameters, say).
fn in_field(field: &str) -> impl Fn(InputError) -> InputError + '_ {
    move |mut e| {
        e.field = field.to_string();
        e
    }
}

/// Parses the parameters text: `name = expression` per line (or separated by `,` / `;`);
/// expressions may use earlier parameters. `field` names the input in errors.
pub fn parse_params(field: &str, text: &str) -> Result<Vec<(String, Expr)>, InputError> {
    let relabel = in_field(field);
    let toks = lex(text).map_err(&relabel)?;
    let mut p = Parser { toks, i: 0, depth: 0, terms: 0 };
    let mut out = Vec::new();
    loop {
        while p.eat_sym(",") || p.eat_sym(";") {}
        if *p.peek() == Tok::End {
            return Ok(out);
        }
        let (name, _) = p.ident("a parameter name").map_err(&relabel)?;
        p.expect_sym("=", "\"=\" after the parameter's name").map_err(&relabel)?;
        out.push((name, p.expr().map_err(&relabel)?));
    }
}

/// Parses one parameter's value on its own (the command's `params` give each apart):
/// a whole expression, nothing after it. `field` names the input in errors.
pub fn parse_expr(field: &str, text: &str) -> Result<Expr, InputError> {
    let relabel = in_field(field);
    let toks = lex(text).map_err(&relabel)?;
    let mut p = Parser { toks, i: 0, depth: 0, terms: 0 };
    let e = p.expr().map_err(&relabel)?;
    if *p.peek() != Tok::End {
        return Err(relabel(p.expected("the end of the expression")));
    }
    Ok(e)
}

/// Whether `s` is a name (a parameter's, say): a letter or `_`, then letters, digits, `_`.
pub fn is_name(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Applies a binary operator; comparisons and logic give 1 or 0.
pub fn apply(op: BinOp, a: f64, b: f64) -> f64 {
    let t = |c: bool| if c { 1.0 } else { 0.0 };
    match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => a / b,
        BinOp::Rem => a % b,
        BinOp::Eq => t(a == b),
        BinOp::Ne => t(a != b),
        BinOp::Lt => t(a < b),
        BinOp::Le => t(a <= b),
        BinOp::Gt => t(a > b),
        BinOp::Ge => t(a >= b),
        BinOp::And => t(a != 0.0 && b != 0.0),
        BinOp::Or => t(a != 0.0 || b != 0.0),
    }
}

/// Applies a deterministic function (the random ones are drawn by the engine).
pub fn call(f: Func, a: f64, b: f64) -> f64 {
    match f {
        Func::Min => a.min(b),
        Func::Max => a.max(b),
        Func::Floor => a.floor(),
        Func::Ceil => a.ceil(),
        Func::Abs => a.abs(),
        Func::Sqrt => a.sqrt(),
        Func::Log2 => a.log2(),
        Func::Pow => a.powf(b),
        Func::Xor if a.fract() == 0.0 && b.fract() == 0.0 && a.abs() < 9e15 && b.abs() < 9e15 => {
            ((a as i64) ^ (b as i64)) as f64
        }
        Func::Xor => f64::NAN,
        Func::Uniform | Func::Exponential => f64::NAN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn err(text: &str) -> InputError {
        match parse(text) {
            Err(e) => e,
            Ok(s) => panic!("expected an error for {text:?}, got {s:?}"),
        }
    }

    #[test]
    fn parses_a_loop_with_messages() {
        let s = parse("Loop iterations = 10 {\n Message type = MPI_Send, size = 8 * sizeof(float), to = procnum + 1\n Serial time = 3.24 / numprocs\n}").unwrap();
        let StmtKind::Loop { count, body, var } = &s.body[0].kind else { panic!() };
        assert_eq!(*count, Expr::Num(10.0));
        assert_eq!(*var, None);
        assert_eq!(body.len(), 2);
        let StmtKind::Message(m) = &body[0].kind else { panic!() };
        assert_eq!(m.op, MsgOp::Send);
        assert_eq!(m.size, Some(Expr::Bin(BinOp::Mul, Box::new(Expr::Num(8.0)), Box::new(Expr::Num(4.0)))));
        assert_eq!(body[1].pos, Pos { line: 3, col: 2 });
    }

    #[test]
    fn runon_takes_one_block_per_condition_and_an_else() {
        let s = parse("Runon c1 = procnum == 0 & c2 = procnum == 1 { Break } { } { Break }").unwrap();
        let StmtKind::Runon { branches, otherwise } = &s.body[0].kind else { panic!() };
        assert_eq!(branches.len(), 2);
        assert!(otherwise.is_some());
        let s = parse("Runon procnum > 0 && !(numprocs < 4) { }").unwrap();
        assert!(matches!(&s.body[0].kind, StmtKind::Runon { branches, otherwise: None } if branches.len() == 1));
    }

    #[test]
    fn precedence_follows_c() {
        let s = parse("Param a = 1 + 2 * 3 - 4 % 3 == 6 || 0").unwrap();
        let StmtKind::Param { value, .. } = &s.body[0].kind else { panic!() };
        fn ev(e: &Expr) -> f64 {
            match e {
                Expr::Num(x) => *x,
                Expr::Bin(op, a, b) => apply(*op, ev(a), ev(b)),
                _ => panic!(),
            }
        }
        assert_eq!(ev(value), 1.0);
    }

    #[test]
    fn annotated_c_keeps_lines_and_columns() {
        let c = "int x;\n// PEVPM Loop iterations = 5\n// PEVPM {\nfor(;;){}\n// PEVPM Message type = MPI_Bogus\n// PEVPM }\n";
        let e = err(c);
        assert_eq!((e.line, e.column), (Some(5), Some(25)), "{e}");
        assert!(e.message.contains("unknown message type"));
        let ok = parse(&c.replace("MPI_Bogus", "MPI_Barrier")).unwrap();
        assert!(ok.from_annotated_c);
    }

    #[test]
    fn errors_name_line_column_and_what_was_expected() {
        let cases = [
            ("Loop iterations = 3 {", 1, 22, "expected \"}\""),
            ("Loop { }", 1, 1, "Loop needs iterations"),
            ("Serial time = 3 +", 1, 18, "expected a number"),
            ("Message type = MPI_Send size = 1 color = 3", 1, 34, "unknown or repeated attribute \"color\""),
            ("Serial time = foo(1)", 1, 15, "unknown function"),
            ("\n  Jump", 2, 3, "expected a directive"),
            ("Serial time = 1 $", 1, 17, "unexpected character"),
            ("}", 1, 1, "without a block"),
            ("Serial time = min(1)", 1, 15, "min takes 2 arguments"),
        ];
        for (text, line, col, msg) in cases {
            let e = err(text);
            assert_eq!((e.line, e.column), (Some(line), Some(col)), "{text:?}: {e}");
            assert!(e.message.contains(msg), "{text:?}: {e}");
            assert_eq!(e.field, FIELD);
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let text = format!("Serial time = {}1{}", "(".repeat(5000), ")".repeat(5000));
        assert!(err(&text).message.contains("nested"));
        let text = format!("Serial time = {}1", "-".repeat(5000));
        assert!(err(&text).message.contains("nested"));
        let text = "Loop iterations = 1 {".repeat(200);
        assert!(err(&text).message.contains("nested"));
        let text = format!("Serial time = {}1", "+".repeat(50_000));
        assert!(err(&text).message.contains("nested"));
    }

    #[test]
    fn long_chains_are_bounded_with_a_position() {
        // What a 263-character share link inflated to: 17,000 terms on one line.
        let text = format!("Loop iterations = 2 {{\nSerial time = 1{}\n}}", "+0".repeat(17_000));
        let e = err(&text);
        assert!(e.message.contains("chained more than 256"), "{e}");
        // It points at the operator that goes past the bound: the 256th (the expression itself
        // is the first level), at column 16 + 2·255.
        assert_eq!((e.line, e.column), (Some(2), Some(16 + 2 * 255)), "{e}");
        // Chains inside parentheses inside chains: the tree's whole depth counts.
        let nested = format!("Serial time = {}1{}", "(".repeat(60), ")+1".repeat(60));
        assert!(parse(&nested).is_ok());
        let nested = format!("Serial time = {}1{}", "(".repeat(60), format!("{})", "+1".repeat(10)).repeat(60));
        let e = err(&nested);
        assert!(e.message.contains("chained"), "{e}");
        // Every level of precedence chains the same way.
        for op in ["*", "/", "%", "-", "==", "<", "&&", "||"] {
            let text = format!("Serial time = 1{}", format!("{op}1").repeat(300));
            assert!(err(&text).message.contains("chained"), "{op}");
        }
        // Below the bounds a chain parses and compiles.
        let text = format!("Serial time = 1{}", "+1".repeat(200));
        assert!(parse(&text).is_ok());
        let terms = format!("Serial time = {}", vec!["(1+1+1+1+1+1+1+1+1+1)"; 250].join("*"));
        let e = err(&terms);
        assert!(e.message.contains("more than 2000 terms"), "{e}");
        let e = parse_params("parameters", &format!("x = 1{}", "-1".repeat(300))).unwrap_err();
        assert_eq!(e.field, "parameters");
        assert!(e.message.contains("chained"), "{e}");
    }

    #[test]
    fn params_text() {
        let p = parse_params("parameters", "xsize = 256\niterations = 10 * 100, t = 1").unwrap();
        assert_eq!(p.len(), 3);
        let e = parse_params("parameters", "xsize 256").unwrap_err();
        assert_eq!((e.field.as_str(), e.line, e.column), ("parameters", Some(1), Some(7)));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

        /// Any text parses or fails with a position inside the text, never a panic.
        #[test]
        fn any_text_never_panics(text in "(\\PC|\\n){0,80}") {
            check_position(&text);
        }

        /// Near-miss skeletons (directive words, symbols, numbers shuffled) as well.
        #[test]
        fn near_misses_never_panic(parts in prop::collection::vec(prop::sample::select(vec![
            "Loop", "iterations", "=", "{", "}", "Runon", "c1", "procnum", "%", "2", "==", "0", "&",
            "Message", "type", "MPI_Send", "MPI_Recv", "size", "to", "from", "Serial", "time", "3.24",
            "/", "numprocs", "(", ")", "\n", "// PEVPM", "sizeof", "float", "any", "1e999", "-", "Break",
        ]), 0..40)) {
            check_position(&parts.join(" "));
        }
    }

    fn check_position(text: &str) {
        if let Err(e) = parse(text) {
            let lines: Vec<&str> = text.lines().collect();
            if let (Some(l), Some(c)) = (e.line, e.column) {
                assert!(l >= 1 && l <= lines.len().max(1), "line {l} outside {text:?}");
                let len = lines.get(l - 1).map_or(0, |s| s.chars().count());
                assert!(c >= 1 && c <= len + 1, "column {c} outside line {l} of {text:?}");
            }
        }
    }
}

//! Formulas of the problem size N, as the two-regions calculator takes #op, #b and #x (seed
//! 003: LinPack's #op = 2/3·N³, #b = 2·N²·8): numbers (`2`, `2.5`, `1e9`), `+ - * / ^` (also
//! `· × −`), parentheses and the variable `N`. `^` binds tightest and to the right; `-N^2` is
//! −(N²). A formula is parsed once ([`Formula::parse`]) and evaluated at any N
//! ([`Formula::eval`]); errors of either name the field, line 1 and the 1-based character
//! column. Length, nesting and operators are bounded, so parsing and evaluating a pasted text
//! stays shallow.

use super::num;
use crate::model::error::InputError;

/// Longest formula accepted; keeps the parse and evaluation recursion shallow.
const MAX_FORMULA_CHARS: usize = 1000;
/// Deepest nesting of parentheses, signs and powers in a formula.
const MAX_DEPTH: usize = 64;
/// Most operators in a formula: a chain `N + N + …` is a tree as deep as it is long, and
/// evaluating it walks the tree recursively.
pub(super) const MAX_OPERATORS: usize = 200;

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Num(f64),
    N,
    Neg(Box<Node>),
    /// Operator, its 1-based column, operands.
    Bin(char, usize, Box<Node>, Box<Node>),
}

/// A formula of the problem size N: numbers (`2`, `2.5`, `1e9`), `+ - * / ^` (also `· × −`),
/// parentheses and the variable `N`; `^` binds tightest and to the right, `-N^2` is −(N²).
/// Errors name the field, line 1 and the 1-based character column.
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    field: String,
    root: Node,
}

struct Parser<'a> {
    field: &'a str,
    chars: Vec<char>,
    pos: usize,
    depth: usize,
    operators: usize,
}

fn operator(c: char) -> char {
    match c {
        '·' | '×' => '*',
        '−' => '-',
        c => c,
    }
}

impl Parser<'_> {
    fn err(&self, column: usize, message: impl Into<String>) -> InputError {
        InputError::new(self.field, message).at(1, Some(column))
    }

    /// The next non-blank character, with `· × −` read as `* * -`.
    fn peek(&mut self) -> Option<char> {
        while self.chars.get(self.pos).is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
        self.chars.get(self.pos).map(|&c| operator(c))
    }

    fn found(&self) -> String {
        self.chars.get(self.pos).map_or("the end".into(), |c| format!("'{c}'"))
    }

    fn binary(&mut self, ops: [char; 2], next: fn(&mut Self) -> Result<Node, InputError>) -> Result<Node, InputError> {
        let mut left = next(self)?;
        while let Some(op) = self.peek().filter(|c| ops.contains(c)) {
            let column = self.pos + 1;
            self.count_operator(column)?;
            self.pos += 1;
            left = Node::Bin(op, column, Box::new(left), Box::new(next(self)?));
        }
        Ok(left)
    }

    fn expr(&mut self) -> Result<Node, InputError> {
        self.binary(['+', '-'], |p| p.binary(['*', '/'], Self::unary))
    }

    fn unary(&mut self) -> Result<Node, InputError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.err(self.pos + 1, "too deeply nested"));
        }
        self.depth += 1;
        let node = match self.peek() {
            Some('-') => {
                self.pos += 1;
                self.unary().map(|n| Node::Neg(Box::new(n)))
            }
            Some('+') => {
                self.pos += 1;
                self.unary()
            }
            _ => self.power(),
        };
        self.depth -= 1;
        node
    }

    fn count_operator(&mut self, column: usize) -> Result<(), InputError> {
        self.operators += 1;
        if self.operators > MAX_OPERATORS {
            return Err(self.err(column, format!("more than {MAX_OPERATORS} operators in one formula")));
        }
        Ok(())
    }

    fn power(&mut self) -> Result<Node, InputError> {
        let base = self.atom()?;
        if self.peek() == Some('^') {
            let column = self.pos + 1;
            self.count_operator(column)?;
            self.pos += 1;
            return Ok(Node::Bin('^', column, Box::new(base), Box::new(self.unary()?)));
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<Node, InputError> {
        let c = self.peek();
        let column = self.pos + 1;
        match c {
            Some('(') => {
                self.pos += 1;
                let inner = self.expr()?;
                if self.peek() != Some(')') {
                    let msg = format!("expected ')' to close the '(' at column {column}, found {}", self.found());
                    return Err(self.err(self.pos + 1, msg));
                }
                self.pos += 1;
                Ok(inner)
            }
            Some('N') => {
                self.pos += 1;
                Ok(Node::N)
            }
            Some(c) if c.is_ascii_digit() || c == '.' => self.number(),
            Some(c) if c.is_alphabetic() => {
                let len = self.chars[self.pos..].iter().take_while(|c| c.is_alphanumeric() || **c == '_').count();
                let name: String = self.chars[self.pos..self.pos + len].iter().collect();
                Err(self.err(column, format!("unknown name '{name}'; the only variable is N")))
            }
            _ => Err(self.err(column, format!("expected a number, N or '(', found {}", self.found()))),
        }
    }

    fn number(&mut self) -> Result<Node, InputError> {
        let start = self.pos;
        let at = |p: &Self, i: usize| p.chars.get(i).copied().unwrap_or(' ');
        while at(self, self.pos).is_ascii_digit() || at(self, self.pos) == '.' {
            self.pos += 1;
        }
        if matches!(at(self, self.pos), 'e' | 'E') {
            let sign = usize::from(matches!(at(self, self.pos + 1), '+' | '-'));
            if at(self, self.pos + 1 + sign).is_ascii_digit() {
                self.pos += 1 + sign;
                while at(self, self.pos).is_ascii_digit() {
                    self.pos += 1;
                }
            }
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Node::Num(v)),
            Ok(_) => Err(self.err(start + 1, format!("the number {text} is too large"))),
            Err(_) => Err(self.err(start + 1, format!("'{text}' is not a number"))),
        }
    }
}

fn eval(node: &Node, n: f64) -> Result<f64, (usize, &'static str)> {
    match node {
        Node::Num(v) => Ok(*v),
        Node::N => Ok(n),
        Node::Neg(inner) => eval(inner, n).map(|v| -v),
        Node::Bin(op, column, l, r) => {
            let (a, b) = (eval(l, n)?, eval(r, n)?);
            let v = match op {
                '+' => a + b,
                '-' => a - b,
                '*' => a * b,
                '/' if b == 0.0 => return Err((*column, "division by zero")),
                '/' => a / b,
                _ => a.powf(b),
            };
            if v.is_finite() {
                Ok(v)
            } else {
                Err((*column, "the value is not a finite number here (overflow, or a power of a negative number)"))
            }
        }
    }
}

impl Formula {
    pub fn parse(field: &str, text: &str) -> Result<Formula, InputError> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() > MAX_FORMULA_CHARS {
            return Err(InputError::new(field, "the formula is longer than 1000 characters"));
        }
        let mut p = Parser { field, chars, pos: 0, depth: 0, operators: 0 };
        if p.peek().is_none() {
            return Err(p.err(1, "the formula is empty; expected e.g. 2/3*N^3"));
        }
        let root = p.expr()?;
        match p.peek() {
            None => Ok(Formula { field: field.into(), root }),
            Some(')') => Err(p.err(p.pos + 1, "')' without a matching '('")),
            Some(_) => {
                let msg = format!("expected an operator (+ - * / ^) or the end, found {}", p.found());
                Err(p.err(p.pos + 1, msg))
            }
        }
    }

    /// The value at N = `n`; an error names the column of the operation that failed.
    pub fn eval(&self, n: f64) -> Result<f64, InputError> {
        eval(&self.root, n).map_err(|(column, message)| {
            InputError::new(&self.field, format!("{message} at N = {}", num(n))).at(1, Some(column))
        })
    }
}

impl Formula {
    /// The field the formula was read from (errors of its values name it).
    pub fn field(&self) -> &str {
        &self.field
    }
}

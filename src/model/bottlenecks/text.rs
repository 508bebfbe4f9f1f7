//! Extra-P's text format (`docs/file-formats.md`, "Text file format"; the reader is Extra-P's
//! `text_file_reader.py`): lines `PARAMETER p [size …]`, `POINTS ( 2 ) ( 4 ) …` (parentheses
//! optional with one parameter; several POINTS lines add up), then `REGION callpath`,
//! optional `METRIC name`, and one `DATA v1 v2 …` line of repetitions per point, in the order
//! of the points. `REGION` and `METRIC` start the points again from the first, and the DATA
//! lines since the last of them must cover every point (a block one short cannot be matched to
//! its points; Extra-P refuses it too). Blank lines and lines starting with `#` are skipped.

use std::collections::{HashMap, HashSet};

use super::{check_value, Builder, Experiment, Format, TimeKind, FIELD, MAX_PARAMETERS, MAX_REPETITIONS};
use crate::model::input::list::clip;
use crate::model::InputError;

fn err(line: usize, col: Option<usize>, message: impl Into<String>) -> InputError {
    InputError::new(FIELD, message).at(line, col)
}

/// Whitespace-separated words with their 1-based character columns; '(' and ')' are words of
/// their own.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (col, (i, c)) in line.char_indices().enumerate() {
        let paren = c == '(' || c == ')';
        if c.is_whitespace() || paren {
            if let Some((s, sc)) = start.take() {
                out.push((sc, &line[s..i]));
            }
            if paren {
                out.push((col + 1, &line[i..i + 1]));
            }
        } else if start.is_none() {
            start = Some((i, col + 1));
        }
    }
    if let Some((s, sc)) = start {
        out.push((sc, &line[s..]));
    }
    out
}

fn number(line: usize, (col, w): (usize, &str), what: &str) -> Result<f64, InputError> {
    let v: f64 =
        w.parse().map_err(|_| err(line, Some(col), format!("expected {what} (a number), found \"{}\"", clip(w))))?;
    check_value(v).map_err(|m| err(line, Some(col), format!("{m} for {what}, found \"{}\"", clip(w))))
}

/// The points of one POINTS line.
fn points(line: usize, rest: &[(usize, &str)], params: usize, key_col: usize) -> Result<Vec<Vec<f64>>, InputError> {
    if params == 0 {
        return Err(err(line, Some(key_col), "expected a PARAMETER line before POINTS"));
    }
    let mut out = Vec::new();
    if !rest.iter().any(|(_, w)| *w == "(" || *w == ")") {
        if params != 1 {
            let example = ["2", "64", "8", "1"][..params.min(4)].join(" ");
            return Err(err(
                line,
                Some(key_col),
                format!("with {params} parameters every point needs parentheses, e.g. ( {example} )"),
            ));
        }
        for &w in rest {
            out.push(vec![number(line, w, "a parameter value")?]);
        }
    } else {
        let mut open: Option<(usize, Vec<f64>)> = None;
        for &(col, w) in rest {
            match (w, open.as_mut()) {
                ("(", None) => open = Some((col, Vec::new())),
                ("(", Some(_)) => return Err(err(line, Some(col), "expected a number or \")\", found \"(\"")),
                (")", Some((c0, coords))) => {
                    if coords.len() != params {
                        return Err(err(
                            line,
                            Some(*c0),
                            format!(
                                "expected {params} value{} in this point, found {}",
                                if params == 1 { "" } else { "s" },
                                coords.len()
                            ),
                        ));
                    }
                    out.push(std::mem::take(coords));
                    open = None;
                }
                (")", None) => return Err(err(line, Some(col), "expected \"(\" to open a point, found \")\"")),
                (_, Some((_, coords))) => coords.push(number(line, (col, w), "a parameter value")?),
                (_, None) => {
                    return Err(err(line, Some(col), format!("expected \"(\" to open a point, found \"{}\"", clip(w))))
                }
            }
        }
        if let Some((c0, _)) = open {
            return Err(err(line, Some(c0), "this point's \"(\" is not closed"));
        }
    }
    if out.is_empty() {
        return Err(err(line, Some(key_col), "expected at least one point after POINTS"));
    }
    Ok(out)
}

/// The DATA lines read since the last REGION or METRIC line.
struct Block {
    region: Option<String>,
    metric: String,
    /// How many DATA lines so far, so the index of the next point.
    next: usize,
    /// The line of the last of them.
    last: usize,
}

impl Block {
    /// A block ends at a REGION or METRIC line and at the end of the text: it must have given
    /// every point its DATA line, since DATA lines are matched to points by their order alone
    /// (Extra-P refuses such a file too: "the number of measurements … does not match the
    /// number of coordinates").
    fn close(&self, coords: &[Vec<f64>]) -> Result<(), InputError> {
        if self.next == 0 || self.next >= coords.len() {
            return Ok(());
        }
        let r = clip(self.region.as_deref().unwrap_or_default());
        let m = if self.metric.is_empty() { String::new() } else { format!(", metric \"{}\"", clip(&self.metric)) };
        Err(err(
            self.last,
            Some(1),
            format!(
                "region \"{r}\"{m} ends after {} DATA line{}; expected {}, one per point in the order of POINTS (the next is for {})",
                self.next,
                if self.next == 1 { "" } else { "s" },
                coords.len(),
                super::coords_text(&coords[self.next])
            ),
        ))
    }
}

pub fn parse(text: &str) -> Result<Experiment, InputError> {
    let mut e = Builder::new(Format::Text, Vec::new());
    let mut coords: Vec<Vec<f64>> = Vec::new();
    let mut seen: HashSet<Vec<u64>> = HashSet::new();
    let mut block = Block { region: None, metric: String::new(), next: 0, last: 0 };
    let mut any_data = false;
    let mut nesting = Indentation::default();
    let mut times = TimeKind::Unknown;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        // What a text written from Score-P runs says its values are (`runs::to_text`).
        match trimmed.strip_prefix(super::runs::TIMES_LINE) {
            Some("exclusive") => times = TimeKind::Exclusive,
            Some("inclusive") => times = TimeKind::Inclusive,
            _ => {}
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let ws = words(raw);
        let (key_col, key) = ws[0];
        // The rest of the line as written (names may hold spaces), from after the keyword.
        let name = || raw.trim_start()[key.len()..].trim().to_string();
        match key {
            "PARAMETER" => {
                if !coords.is_empty() {
                    return Err(err(line, Some(key_col), "expected PARAMETER lines before the first POINTS line"));
                }
                if ws.len() < 2 {
                    return Err(err(line, Some(key_col), "expected a parameter name after PARAMETER"));
                }
                for &(col, w) in &ws[1..] {
                    if e.e.parameters.iter().any(|p| p == w) {
                        return Err(err(line, Some(col), format!("parameter \"{}\" is defined twice", clip(w))));
                    }
                    if e.e.parameters.len() == MAX_PARAMETERS {
                        return Err(err(
                            line,
                            Some(col),
                            format!("at most {MAX_PARAMETERS} parameters, as in Extra-P's text format"),
                        ));
                    }
                    e.e.parameters.push(w.to_string());
                }
            }
            "POINTS" => {
                if any_data {
                    return Err(err(line, Some(key_col), "expected POINTS lines before the first DATA line"));
                }
                for p in points(line, &ws[1..], e.e.parameters.len(), key_col)? {
                    if !seen.insert(p.iter().map(|c| (c + 0.0).to_bits()).collect()) {
                        return Err(err(
                            line,
                            Some(key_col),
                            format!("the point {} is listed twice", super::coords_text(&p)),
                        ));
                    }
                    coords.push(p);
                }
            }
            "REGION" => {
                block.close(&coords)?;
                let n = name();
                if n.is_empty() {
                    return Err(err(line, Some(key_col), "expected a call path after REGION"));
                }
                nesting.read(&raw.trim_start()[key.len()..], &n);
                block = Block { region: Some(n), next: 0, ..block };
            }
            "METRIC" => {
                block.close(&coords)?;
                block = Block { metric: name(), next: 0, ..block };
            }
            "DATA" => {
                let Some(r) = &block.region else {
                    return Err(err(line, Some(key_col), "expected a REGION line before DATA"));
                };
                if coords.is_empty() {
                    return Err(err(line, Some(key_col), "expected POINTS before DATA"));
                }
                let Some(at) = coords.get(block.next) else {
                    return Err(err(
                        line,
                        Some(key_col),
                        format!("more DATA lines than the {} points for region \"{}\"", coords.len(), clip(r)),
                    ));
                };
                if ws.len() < 2 {
                    return Err(err(line, Some(key_col), "expected at least one value after DATA"));
                }
                if ws.len() - 1 > MAX_REPETITIONS {
                    return Err(err(line, Some(key_col), format!("at most {MAX_REPETITIONS} repetitions per point")));
                }
                let values =
                    ws[1..].iter().map(|&w| number(line, w, "a measured value")).collect::<Result<Vec<_>, _>>()?;
                let place = |k: usize| format!("line {line}, column {}", ws[k + 1].0);
                e.add(r, &block.metric, at.clone(), &values, Some(line), &place)
                    .map_err(|m| err(line, Some(key_col), m.to_string()))?;
                block.next += 1;
                block.last = line;
                any_data = true;
            }
            other => {
                return Err(err(
                    line,
                    Some(key_col),
                    format!(
                        "expected PARAMETER, POINTS, REGION, METRIC, DATA or a # comment, found \"{}\"",
                        clip(other)
                    ),
                ));
            }
        }
    }
    block.close(&coords)?;
    let mut e = e.finish();
    nesting.apply(&mut e);
    e.times = times;
    Ok(e)
}

/// REGION names indented under the one above, as Extra-P's `relearn_data.txt` writes its
/// call tree: a region's parent is the nearest region above it indented less (the spaces or
/// tabs between REGION and the name, each one column). Names all indented alike are no tree.
#[derive(Default)]
struct Indentation {
    /// The regions open above the current line: (indent, name), indents rising.
    open: Vec<(usize, String)>,
    /// Each region's parent, the first one read for it.
    parents: HashMap<String, String>,
    /// Whether two REGION lines were indented differently.
    nested: bool,
    first: Option<usize>,
}

impl Indentation {
    /// Reads one REGION line: `after` is the text after the keyword, `name` its trimmed name.
    fn read(&mut self, after: &str, name: &str) {
        let indent = after.chars().take_while(|c| c.is_whitespace()).count();
        self.nested |= self.first.is_some_and(|f| f != indent);
        self.first.get_or_insert(indent);
        while self.open.last().is_some_and(|(i, _)| *i >= indent) {
            self.open.pop();
        }
        if let Some((_, parent)) = self.open.last() {
            if parent != name {
                self.parents.entry(name.to_string()).or_insert_with(|| parent.clone());
            }
        }
        self.open.push((indent, name.to_string()));
    }

    /// Gives every series its parent, when the names were indented differently.
    fn apply(self, e: &mut Experiment) {
        if !self.nested {
            return;
        }
        for s in &mut e.series {
            s.parent = self.parents.get(&s.callpath).cloned();
        }
    }
}

//! Lists typed on one line: "64, 128 256", "2 4 8", "8KB 512KB". Items are separated by spaces,
//! commas or semicolons; an error names the field, line 1 and the column of the bad item.

use super::table::parse_number;
use crate::model::InputError;

/// The items of a list with their 1-based character columns.
pub fn tokens(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let sep = |c: char| c.is_whitespace() || c == ',' || c == ';';
    for (col, (i, c)) in text.char_indices().enumerate() {
        match (sep(c), start) {
            (true, Some((s, scol))) => {
                out.push((scol, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some((i, col + 1)),
            _ => {}
        }
    }
    if let Some((s, scol)) = start {
        out.push((scol, &text[s..]));
    }
    out
}

/// What a list may hold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListSpec {
    /// Most items.
    pub max_items: usize,
    /// An empty list is an error.
    pub required: bool,
}

/// The first characters of an item, for messages.
pub fn clip(s: &str) -> String {
    s.chars().take(24).collect()
}

fn at(field: &str, col: usize, message: String) -> InputError {
    InputError::new(field, message).at(1, Some(col))
}

fn count(field: &str, spec: ListSpec, n: usize) -> Result<(), InputError> {
    if n > spec.max_items {
        return Err(InputError::new(field, format!("at most {} values, found {n}", spec.max_items)));
    }
    if n == 0 && spec.required {
        return Err(InputError::new(field, "at least one value is needed"));
    }
    Ok(())
}

/// Numbers, each accepted by `check` (whose error's message is said at the number's column),
/// in the order given.
pub fn numbers(
    field: &str,
    text: &str,
    spec: ListSpec,
    check: impl Fn(f64) -> Result<f64, InputError>,
) -> Result<Vec<f64>, InputError> {
    let mut out = Vec::new();
    for (col, token) in tokens(text) {
        let v = parse_number(token)
            .ok_or_else(|| at(field, col, format!("expected a number, found \"{}\"", clip(token))))?;
        out.push(check(v).map_err(|e| at(field, col, e.message))?);
    }
    count(field, spec, out.len())?;
    Ok(out)
}

/// Whole numbers from `lo` to `hi`, in the order given, each once (repeats are dropped).
pub fn whole_numbers(field: &str, text: &str, spec: ListSpec, lo: u32, hi: u32) -> Result<Vec<u32>, InputError> {
    let mut out = Vec::new();
    for (col, token) in tokens(text) {
        match token.parse::<u32>() {
            Ok(n) if (lo..=hi).contains(&n) => {
                if !out.contains(&n) {
                    out.push(n);
                }
            }
            _ => {
                let hi = if hi >= 1_000_000 { format!("{:e}", f64::from(hi)) } else { hi.to_string() };
                return Err(at(
                    field,
                    col,
                    format!("expected whole numbers from {lo} to {hi}, found \"{}\"", clip(token)),
                ));
            }
        }
    }
    count(field, spec, out.len())?;
    Ok(out)
}

/// Factors of the size units a list of message sizes may use (KB = 1024 bytes).
const SIZE_UNITS: &[(&str, f64)] = &[
    ("", 1.0),
    ("b", 1.0),
    ("k", 1024.0),
    ("kb", 1024.0),
    ("kib", 1024.0),
    ("m", 1048576.0),
    ("mb", 1048576.0),
    ("mib", 1048576.0),
    ("g", 1073741824.0),
    ("gb", 1073741824.0),
    ("gib", 1073741824.0),
];

/// Sizes in bytes, with optional units attached or apart: "8KB 512kb, 1 MB; 65536" (KB =
/// 1024 bytes); each a whole number of bytes from 0 to `max_bytes`.
pub fn sizes(field: &str, text: &str, spec: ListSpec, max_bytes: f64) -> Result<Vec<f64>, InputError> {
    let mut out: Vec<f64> = Vec::new();
    let mut last_unitless = false;
    for (col, tok) in tokens(text) {
        let lower = tok.to_ascii_lowercase();
        let split = lower.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(lower.len());
        let (num, unit) = lower.split_at(split);
        let factor = SIZE_UNITS.iter().find(|s| s.0 == unit).map(|s| s.1);
        let (Some(factor), false) = (factor, num.is_empty() && !last_unitless) else {
            return Err(at(field, col, format!("\"{}\" is not a size (use bytes, or KB, MB, GB)", clip(tok))));
        };
        if num.is_empty() {
            // A unit after its number: "8 KB".
            if let Some(v) = out.last_mut() {
                *v *= factor;
            }
            last_unitless = false;
            continue;
        }
        let v = parse_number(num).ok_or_else(|| at(field, col, format!("\"{}\" is not a size", clip(tok))))?;
        out.push(v * factor);
        last_unitless = unit.is_empty();
    }
    count(field, spec, out.len())?;
    if out.iter().any(|&v| !(0.0..=max_bytes).contains(&v) || v.fract() != 0.0) {
        return Err(InputError::new(
            field,
            format!("a size is a whole number of bytes from 0 to {}", crate::model::fmt_num(max_bytes, 3)),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANY: ListSpec = ListSpec { max_items: 8, required: false };

    #[test]
    fn tokens_have_columns() {
        assert_eq!(tokens("  64, 128;256 "), vec![(3, "64"), (7, "128"), (11, "256")]);
        assert_eq!(tokens("µ 2"), vec![(1, "µ"), (3, "2")]);
        assert!(tokens(" ,; ").is_empty());
    }

    #[test]
    fn errors_name_field_line_and_column() {
        let e = whole_numbers("target", "64 x", ANY, 1, 1_000_000_000).unwrap_err();
        assert_eq!((e.field.as_str(), e.line, e.column), ("target", Some(1), Some(4)));
        assert!(e.message.contains("from 1 to 1e9"), "{e}");
        assert_eq!(whole_numbers("n", "8 2 8 4", ANY, 1, 10), Ok(vec![8, 2, 4]));
        let e = numbers("x", "1 2 -3", ANY, |v| {
            if v > 0.0 {
                Ok(v)
            } else {
                Err(InputError::new("x", "must be greater than 0"))
            }
        })
        .unwrap_err();
        assert_eq!((e.column, e.message.as_str()), (Some(5), "must be greater than 0"));
        let e = numbers("x", "", ListSpec { max_items: 8, required: true }, Ok).unwrap_err();
        assert_eq!(e.message, "at least one value is needed");
        let e = whole_numbers("n", "1 2 3", ListSpec { max_items: 2, required: true }, 1, 9).unwrap_err();
        assert_eq!(e.message, "at most 2 values, found 3");
    }

    #[test]
    fn sizes_take_units() {
        let max = 1_099_511_627_776.0;
        assert_eq!(
            sizes("s", "8KB 512kb, 1 MB; 65536 2 k", ANY, max),
            Ok(vec![8192.0, 524288.0, 1048576.0, 65536.0, 2048.0])
        );
        assert_eq!(sizes("s", "KB", ANY, max).unwrap_err().column, Some(1));
        assert!(sizes("s", "1.5", ANY, max).is_err());
        assert_eq!(sizes("s", "", ANY, max), Ok(vec![]));
    }
}

//! Errors about user input: every one names the field and, where the input is a table or a
//! text, the line and column, and says what was expected.

use std::fmt;

/// Something worth saying about an answer that is still given: what it concerns, as the path
/// of the input key (`points`, `system.node_bandwidth_gb_s`) or the option (`hold`), and the
/// sentence. The command's answers carry these as `warnings_at`, one shape for every
/// calculator.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Warning {
    pub path: String,
    pub message: String,
}

impl Warning {
    pub fn at(path: &str, message: impl Into<String>) -> Warning {
        Warning { path: path.to_string(), message: message.into() }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A problem with something the user typed, pasted, imported or put in a URL.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct InputError {
    /// The input field, as labelled on the page or named in the CLI's JSON ("parallel runs").
    pub field: String,
    /// 1-based line in the field's text, when the field is a text or a table.
    pub line: Option<usize>,
    /// 1-based column (table column, or character in a line of a formula or skeleton).
    pub column: Option<usize>,
    /// What is wrong and what was expected, as a sentence fragment without a final period.
    pub message: String,
}

impl InputError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        InputError { field: field.into(), line: None, column: None, message: message.into() }
    }

    pub fn at(mut self, line: usize, column: Option<usize>) -> Self {
        self.line = Some(line);
        self.column = column;
        self
    }

    /// The error without the field name, for display right under the field it belongs to.
    pub fn local_text(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!("line {l}, column {c}: {}", self.message),
            (Some(l), None) => format!("line {l}: {}", self.message),
            _ => self.message.clone(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.local_text())
    }
}

impl std::error::Error for InputError {}

/// Formats a finite number for people: never prints NaN or infinity (callers must not pass
/// them; if one slips through it shows as an em dash rather than a misleading value).
pub fn fmt_num(x: f64, significant: usize) -> String {
    if !x.is_finite() {
        return "—".to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    if !(-4..9).contains(&magnitude) {
        return format!("{:.*e}", significant.saturating_sub(1), x);
    }
    let decimals = (significant as i32 - 1 - magnitude).max(0) as usize;
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The fewest significant digits, at least `min`, with which [`fmt_num`] writes each value of
/// `values` differently from its neighbour (where the two differ at all): chart ticks and a
/// range's two ends never read the same ("1.35–1.35 s"). At most 15.
pub fn digits_to_tell_apart(values: &[f64], min: usize) -> usize {
    (min..=15)
        .find(|&d| values.windows(2).all(|w| w[0] == w[1] || fmt_num(w[0], d) != fmt_num(w[1], d))) // ok: windows of 2
        .unwrap_or(15)
}

/// A range "lo–hi" with as many digits as its ends need to differ (at least `min`).
pub fn fmt_range(lo: f64, hi: f64, min: usize) -> String {
    let d = digits_to_tell_apart(&[lo, hi], min);
    format!("{}–{}", fmt_num(lo, d), fmt_num(hi, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_and_ticks_that_differ_read_differently() {
        assert_eq!(fmt_range(1.35031, 1.35049, 4), "1.3503–1.3505");
        assert_eq!(fmt_range(1.0, 2.0, 4), "1–2");
        assert_eq!(fmt_range(3.0, 3.0, 4), "3–3");
        assert_eq!(digits_to_tell_apart(&[1.505, 1.51, 1.515, 1.52], 3), 4);
        assert_eq!(digits_to_tell_apart(&[100.0, 200.0], 3), 3);
    }

    #[test]
    fn fmt_num_cases() {
        let cases = [
            (1670.0, 4, "1670"),
            (0.0244140625, 4, "0.02441"),
            (43.875, 4, "43.88"),
            (5.0, 3, "5"),
            (1.0e12, 3, "1.00e12"),
            (f64::NAN, 3, "—"),
            (f64::INFINITY, 3, "—"),
            (-12.345, 3, "-12.3"),
        ];
        for (x, sig, want) in cases {
            assert_eq!(fmt_num(x, sig), want, "fmt_num({x}, {sig})");
        }
    }

    #[test]
    fn display_names_field_line_and_column() {
        let e = InputError::new("parallel runs", "expected a number, found \"abc\"").at(3, Some(2));
        assert_eq!(e.to_string(), "parallel runs: line 3, column 2: expected a number, found \"abc\"");
    }
}

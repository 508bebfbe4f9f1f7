//! Talpas files (Extra-P's `talpas_file_reader.py`, `extrap --talpas`): one record per line,
//! `{"parameters":{"p":4,"n":10};"metric":"time";"callpath":"main->solve";"value":3.5}`, a JSON
//! object but for the `;` between its fields. Every record gives its call path and metric; the
//! value is a number or a list of them (repetitions), and the records of one call path, metric
//! and point add up. The parameters are the first record's, in the order written, and every
//! record names the same ones. Blank lines are skipped.
//!
//! Extra-P turns every `;` of a line into `,` before reading it as JSON, inside strings too (a
//! call path "a;b" becomes "a,b"); here only a `;` outside strings separates, so names keep
//! theirs. A `,` between fields is taken too, as Extra-P takes it. Errors name the line and
//! column, and say what was expected.

use std::borrow::Cow;

use super::json::{parse_records, Records};
use super::{Experiment, Format};
use crate::model::InputError;

/// The byte offsets of the `;` outside strings in `line`.
fn separators(line: &str) -> Vec<usize> {
    let (mut out, mut in_string, mut escaped) = (Vec::new(), false, false);
    for (i, b) in line.bytes().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b';' {
            out.push(i);
        }
    }
    out
}

/// Whether `line` separates fields with `;`, as no JSON does: how `sniff` knows a Talpas file
/// by its first line.
pub fn separates_with_semicolons(line: &str) -> bool {
    !separators(line).is_empty()
}

/// The line as JSON: each `;` outside strings turned into `,`, one byte for one, so that
/// serde_json's columns are the line's.
fn as_json(line: &str) -> Cow<'_, str> {
    let at = separators(line);
    if at.is_empty() {
        return Cow::Borrowed(line);
    }
    let mut bytes = line.as_bytes().to_vec();
    for i in at {
        bytes[i] = b',';
    }
    // Only ASCII ';' became ASCII ',': still UTF-8.
    Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| line.to_string()))
}

const TALPAS: Records = Records {
    format: Format::Talpas,
    params: "parameters",
    defaults: None,
    shape: "{\"parameters\"; \"metric\"; \"callpath\"; \"value\"}",
    as_json,
    separator: ";",
};

pub fn parse(text: &str) -> Result<Experiment, InputError> {
    parse_records(text, &TALPAS)
}

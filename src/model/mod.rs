//! The pure core: every formula, fit and simulator, and the parsing of user input into
//! validated types. Nothing here touches the DOM, yew, gloo or plotters, runs threads or does
//! I/O; it is tested natively with `cargo test`.
//!
//! One folder per calculator (`multigrid`, `speedup`, `bottlenecks`, `regions`, `comm`,
//! `sites`, `simulate`), each with its model and a `page` module that turns the page's input
//! texts into what it shows; shared plumbing beside them: `calculators` (the one list of
//! them), `input` (text to numbers), `fit` (least squares), `transfer` (the same job on
//! another machine), `csv` (CSV records), `workspace` (catalog, saved inputs, share links),
//! `error`, `finite`.

pub mod allocation;
pub mod bottlenecks;
pub mod calculators;
pub mod cali;
pub mod catalog;
pub mod chart;
pub mod comm;
#[cfg(not(target_arch = "wasm32"))]
pub mod contracts;
pub mod cost;
pub mod csv;
pub mod cube;
pub mod error;
pub mod finite;
pub mod fit;
pub mod hpctoolkit;
pub mod input;
pub mod multigrid;
pub mod profile;
pub mod regions;
pub mod simulate;
pub mod sites;
pub mod speedup;
pub mod tau;
pub mod transfer;
pub mod validation;
pub mod workers;
pub mod workspace;

pub use error::{fmt_num, InputError, Warning};

/// Deterministic pseudo-random numbers for the readers' tests (xorshift64): the same damaged
/// files every run.
#[cfg(test)]
pub(crate) struct TestRng(pub u64);

#[cfg(test)]
impl TestRng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Names for a message: "a, b or c" ("a" alone, "a or b").
pub fn one_of<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    let words: Vec<&str> = words.into_iter().collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.concat(),
    }
}

/// The `&'static str` constants given, one after another, as one `&'static str` made when
/// compiling: text built from a list (`fit::models::RIVALS`) that costs a page nothing at run
/// time.
macro_rules! concat_const {
    ($($part:expr),+ $(,)?) => {{
        const PARTS: &[&str] = &[$($part),+];
        const BYTES: [u8; $crate::model::concat_len(PARTS)] = $crate::model::concat_bytes(PARTS);
        match core::str::from_utf8(&BYTES) {
            Ok(text) => text,
            Err(_) => panic!("the parts are whole strings"),
        }
    }};
}
pub(crate) use concat_const;

/// The length of [`concat_bytes`]' text.
pub const fn concat_len(parts: &[&str]) -> usize {
    let (mut len, mut i) = (0, 0);
    while i < parts.len() {
        len += parts[i].len();
        i += 1;
    }
    len
}

/// The parts' bytes one after another.
pub const fn concat_bytes<const N: usize>(parts: &[&str]) -> [u8; N] {
    let mut out = [0; N];
    let (mut at, mut i) = (0, 0);
    while i < parts.len() {
        let bytes = parts[i].as_bytes();
        let mut j = 0;
        while j < bytes.len() {
            out[at] = bytes[j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

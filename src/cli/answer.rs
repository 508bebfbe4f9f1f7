//! The one path every answer leaves by: a calculator hands its answer as a typed value
//! ([`Reply`]) to [`emit`], which looks for a non-finite number in that value and, when there
//! is none, writes it as it is serialised (no JSON tree between the calculator and the
//! output). An object's keys come in the order its type declares them.

use super::allocation::AllocationOut;
use super::{unplaced, WriteError};
use crate::model::InputError;

/// What [`emit`] writes: any answer that serde writes.
pub trait Answer {
    /// The JSON path of the first NaN or infinity in the answer (`fits[2].aicc`).
    fn non_finite(&self) -> Option<String>;
    /// The answer as JSON to `out`, pretty unless `compact`, nothing added.
    fn write_to(&self, out: &mut dyn std::io::Write, compact: bool) -> serde_json::Result<()>;
    /// The answer as a JSON value, for the subcommands' tests.
    #[cfg(test)]
    fn value(&self) -> serde_json::Value;
}

impl<T: serde::Serialize> Answer for T {
    fn non_finite(&self) -> Option<String> {
        crate::model::finite::first_non_finite(self)
    }

    fn write_to(&self, out: &mut dyn std::io::Write, compact: bool) -> serde_json::Result<()> {
        if compact {
            serde_json::to_writer(out, self)
        } else {
            serde_json::to_writer_pretty(out, self)
        }
    }

    #[cfg(test)]
    fn value(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("an answer the tests read") // ok: tests only
    }
}

/// A subcommand's answer, owned and typed, as [`super::Run`] and [`super::RawRun`] return it.
pub struct Reply(Box<dyn Answer>);

impl Reply {
    pub fn new<T: serde::Serialize + 'static>(answer: T) -> Reply {
        Reply(Box::new(answer))
    }
}

impl std::ops::Deref for Reply {
    type Target = dyn Answer + 'static;

    fn deref(&self) -> &(dyn Answer + 'static) {
        &*self.0
    }
}

/// What is said of an answer holding a NaN or an infinity. The model answers only finite
/// numbers (it checks its inputs and says "not defined here" where a result would not be
/// finite); serde_json would write a stray one as `null`, which reads as "not given".
pub const NOT_FINITE: &str =
    "the answer is not a finite number here; the inputs are outside the range this calculator can answer";

/// Every answer's way out: checked for a number that is not finite (an error naming where it
/// is, nothing written), then written to `out` as it is serialised, a line break after, and
/// flushed.
pub fn emit(out: &mut dyn std::io::Write, answer: &dyn Answer, compact: bool) -> Result<(), WriteError> {
    if let Some(path) = answer.non_finite() {
        return Err(WriteError::Input(InputError::new(path, NOT_FINITE)));
    }
    let mut w = std::io::BufWriter::with_capacity(1 << 16, out);
    answer.write_to(&mut w, compact).map_err(|e| match e.io_error_kind() {
        Some(kind) => WriteError::Output(std::io::Error::new(kind, e.to_string())),
        None => WriteError::Input(unplaced(format!("could not write the answer: {e}"))),
    })?;
    use std::io::Write;
    w.write_all(b"\n").and_then(|_| w.flush()).map_err(WriteError::Output)
}

/// An answer with the allocation table `--allocation` asked for: the answer's keys, then
/// "allocation". Without a table, the answer alone.
pub struct Tabled<'a, T> {
    pub answer: T,
    pub allocation: Option<&'a AllocationOut>,
}

impl<T: serde::Serialize> serde::Serialize for Tabled<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct With<'a, T> {
            #[serde(flatten)]
            answer: &'a T,
            allocation: &'a AllocationOut,
        }
        match self.allocation {
            None => self.answer.serialize(s),
            Some(allocation) => With { answer: &self.answer, allocation }.serialize(s),
        }
    }
}

/// An owned answer and its table, written as [`Tabled`].
pub struct WithTable<T> {
    pub answer: T,
    pub allocation: Option<AllocationOut>,
}

impl<T: serde::Serialize> serde::Serialize for WithTable<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Tabled { answer: &self.answer, allocation: self.allocation.as_ref() }.serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct Fit {
        model: &'static str,
        params: Vec<f64>,
    }

    #[test]
    fn a_nan_in_a_typed_answer_is_refused_naming_it_and_nothing_is_written() {
        let mut out = Vec::new();
        let r = emit(&mut out, &vec![Fit { model: "a", params: vec![1.0, f64::NAN] }], true);
        let Err(WriteError::Input(e)) = r else { panic!("{r:?}") };
        assert_eq!((e.field.as_str(), e.message.as_str()), ("[0].params[1]", NOT_FINITE));
        assert!(out.is_empty(), "{:?}", String::from_utf8_lossy(&out));
        let mut out = Vec::new();
        emit(&mut out, &*Reply::new(Fit { model: "a", params: vec![f64::MAX] }), true).expect("written");
        assert_eq!(String::from_utf8_lossy(&out), "{\"model\":\"a\",\"params\":[1.7976931348623157e+308]}\n");
    }

    #[test]
    fn a_table_comes_after_the_answer_s_keys_in_their_declared_order() {
        let t = Tabled { answer: Fit { model: "m", params: vec![] }, allocation: None };
        assert_eq!(serde_json::to_string(&t).expect("text"), r#"{"model":"m","params":[]}"#);
    }
}

//! The last guard on the promise that NaN and infinity never reach a person: walks anything
//! serialisable (an answer of the command line, a view of a page) and names the first number
//! that is not finite, by its path (`predictions[2].time_s`). serde_json would write such a
//! number as `null`, which a reader takes for "not given"; the command line answers an error
//! naming the path instead.

use serde::ser::{self, Serialize};

/// The path of the first NaN or infinity in `value`, if any.
pub fn first_non_finite<T: Serialize + ?Sized>(value: &T) -> Option<String> {
    let mut walk = Walk { path: Vec::new() };
    match value.serialize(&mut walk) {
        Ok(()) => None,
        Err(Found(path)) => Some(path),
    }
}

/// Whether `value`'s Debug text holds a NaN or an infinity outside its strings (Debug writes
/// them `NaN`, `inf`, `-inf`): the same guard for views that are not serialisable.
pub fn debug_has_non_finite(value: &impl std::fmt::Debug) -> bool {
    let debug = format!("{value:?}");
    let mut bare = String::with_capacity(debug.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in debug.chars() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            bare.push(' ');
        } else {
            bare.push(c);
        }
    }
    bare.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w == "NaN" || w == "inf")
}

/// A step of a path: a field or key, or an index.
enum Step {
    Key(String),
    Index(usize),
}

struct Walk {
    path: Vec<Step>,
}

impl Walk {
    fn found(&self) -> Found {
        let mut s = String::new();
        for step in &self.path {
            match step {
                Step::Key(k) if s.is_empty() => s.push_str(k),
                Step::Key(k) => {
                    s.push('.');
                    s.push_str(k);
                }
                Step::Index(i) => s.push_str(&format!("[{i}]")),
            }
        }
        Found(if s.is_empty() { "the answer".into() } else { s })
    }

    fn number(&self, x: f64) -> Result<(), Found> {
        if x.is_finite() {
            Ok(())
        } else {
            Err(self.found())
        }
    }

    fn within<T: Serialize + ?Sized>(&mut self, step: Step, value: &T) -> Result<(), Found> {
        self.path.push(step);
        value.serialize(&mut *self)?;
        self.path.pop();
        Ok(())
    }
}

/// The path of a number that is not finite (the walk's "error").
#[derive(Debug)]
struct Found(String);

impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Found {}

impl ser::Error for Found {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Found(msg.to_string())
    }
}

/// Methods of values that hold no float: nothing to check.
macro_rules! fine {
    ($($name:ident($($t:ty),*);)*) => {
        $(fn $name(self, $(_: $t),*) -> Result<(), Found> { Ok(()) })*
    };
}

impl<'a> ser::Serializer for &'a mut Walk {
    type Ok = ();
    type Error = Found;
    type SerializeSeq = Seq<'a>;
    type SerializeTuple = Seq<'a>;
    type SerializeTupleStruct = Seq<'a>;
    type SerializeTupleVariant = Seq<'a>;
    type SerializeMap = Map<'a>;
    type SerializeStruct = &'a mut Walk;
    type SerializeStructVariant = &'a mut Walk;

    fine! {
        serialize_bool(bool); serialize_i8(i8); serialize_i16(i16); serialize_i32(i32);
        serialize_i64(i64); serialize_i128(i128); serialize_u8(u8); serialize_u16(u16);
        serialize_u32(u32); serialize_u64(u64); serialize_u128(u128); serialize_char(char);
        serialize_str(&str); serialize_bytes(&[u8]); serialize_none(); serialize_unit();
        serialize_unit_struct(&'static str); serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_f32(self, v: f32) -> Result<(), Found> {
        self.number(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Found> {
        self.number(v)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Found> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Found> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Found> {
        self.within(Step::Key(variant.into()), value)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Seq<'a>, Found> {
        Ok(Seq { walk: self, i: 0 })
    }
    fn serialize_tuple(self, _: usize) -> Result<Seq<'a>, Found> {
        Ok(Seq { walk: self, i: 0 })
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Seq<'a>, Found> {
        Ok(Seq { walk: self, i: 0 })
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Seq<'a>, Found> {
        Ok(Seq { walk: self, i: 0 })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Map<'a>, Found> {
        Ok(Map { walk: self, key: None })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Found> {
        Ok(self)
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self, Found> {
        Ok(self)
    }
}

/// A sequence or tuple being walked: its elements by index.
struct Seq<'a> {
    walk: &'a mut Walk,
    i: usize,
}

impl Seq<'_> {
    fn next<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Found> {
        self.walk.within(Step::Index(self.i), value)?;
        self.i += 1;
        Ok(())
    }
}

macro_rules! seq_like {
    ($($tr:ident :: $m:ident),*) => {$(
        impl ser::$tr for Seq<'_> {
            type Ok = ();
            type Error = Found;
            fn $m<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Found> {
                self.next(value)
            }
            fn end(self) -> Result<(), Found> {
                Ok(())
            }
        }
    )*};
}
seq_like!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

macro_rules! struct_like {
    ($($tr:ident),*) => {$(
        impl ser::$tr for &mut Walk {
            type Ok = ();
            type Error = Found;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Found> {
                self.within(Step::Key(key.into()), value)
            }
            fn end(self) -> Result<(), Found> {
                Ok(())
            }
        }
    )*};
}
struct_like!(SerializeStruct, SerializeStructVariant);

/// A map being walked: keys name the steps (as JSON would write them).
struct Map<'a> {
    walk: &'a mut Walk,
    key: Option<String>,
}

impl ser::SerializeMap for Map<'_> {
    type Ok = ();
    type Error = Found;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Found> {
        // Keys are names or numbers here; JSON gives their text.
        self.key = Some(serde_json::to_string(key).map_or_else(|_| "?".into(), |s| s.trim_matches('"').to_string()));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Found> {
        let key = self.key.take().unwrap_or_default();
        self.walk.within(Step::Key(key), value)
    }
    fn end(self) -> Result<(), Found> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[derive(serde::Serialize)]
    struct Point {
        n: u32,
        time_s: f64,
        range: Option<(f64, f64)>,
    }

    #[derive(serde::Serialize)]
    enum Shape {
        Peak { at: f64 },
        Flat(f64),
    }

    #[test]
    fn names_the_path_of_the_first_number_that_is_not_finite() {
        let ok = Point { n: 1, time_s: 2.0, range: None };
        assert_eq!(first_non_finite(&ok), None);
        let pts = vec![ok, Point { n: 2, time_s: 1.0, range: Some((0.5, f64::INFINITY)) }];
        assert_eq!(first_non_finite(&pts).as_deref(), Some("[1].range[1]"));
        let mut m = BTreeMap::new();
        m.insert("predictions", vec![Point { n: 4, time_s: f64::NAN, range: None }]);
        assert_eq!(first_non_finite(&m).as_deref(), Some("predictions[0].time_s"));
        assert_eq!(first_non_finite(&Shape::Peak { at: f64::NEG_INFINITY }).as_deref(), Some("at"));
        assert_eq!(first_non_finite(&Shape::Flat(f64::NAN)).as_deref(), Some("Flat"));
        assert_eq!(first_non_finite(&f32::NAN).as_deref(), Some("the answer"));
        assert_eq!(first_non_finite(&serde_json::json!({"a": [1.0, 2.5, "x", null]})), None);
    }

    #[test]
    fn debug_text_is_searched_outside_strings() {
        assert!(debug_has_non_finite(&(1.0, f64::NAN)));
        assert!(debug_has_non_finite(&vec![f64::NEG_INFINITY]));
        assert!(!debug_has_non_finite(&("NaN inf \"quoted\" info", 1.5, "x\\")));
        assert!(!debug_has_non_finite(&Some("infinite")));
    }
}

/// Largest whole number an f64 holds exactly (2^53).
const EXACT: f64 = 9_007_199_254_740_992.0;

/// Serialises a count kept as f64 (bytes, knots) as an integer when it is whole, so that a
/// typed reader (`u64`) takes it: `1024`, not `1024.0`. Other values stay numbers.
pub fn whole<S: ser::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.fract() == 0.0 && x.abs() <= EXACT {
        s.serialize_i64(*x as i64)
    } else {
        s.serialize_f64(*x)
    }
}

#[cfg(test)]
mod whole_tests {
    #[derive(serde::Serialize)]
    struct Count(#[serde(serialize_with = "super::whole")] f64);

    #[test]
    fn whole_counts_are_integers_and_the_rest_are_not() {
        let text = |x: f64| serde_json::to_string(&Count(x)).unwrap();
        assert_eq!(text(1024.0), "1024");
        assert_eq!(text(-3.0), "-3");
        assert_eq!(text(1.5), "1.5");
        assert_eq!(text(1e300), "1e+300");
    }
}

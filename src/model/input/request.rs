//! Pieces the calculators' request types share (`<calculator>/request.rs`): a key that takes
//! text or a value.

// Many keys take text or a `T` (a list, an object, a number), such as a list of runs or the
// page's pasted table of them. Read by hand rather than as an untagged enum, so an error
// inside the `T` keeps its path (`parallel[2].np`).
/// Text, or the value itself.
#[derive(Debug)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[cfg_attr(not(target_arch = "wasm32"), schemars(untagged, rename = "TextOr{T}"))]
pub enum TextOr<T> {
    Text(String),
    Value(T),
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for TextOr<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{value, IntoDeserializer};
        struct Either<T>(std::marker::PhantomData<T>);
        impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for Either<T> {
            type Value = TextOr<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("text or a value")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(TextOr::Text(s.to_string()))
            }
            fn visit_string<E: serde::de::Error>(self, s: String) -> Result<Self::Value, E> {
                Ok(TextOr::Text(s))
            }
            fn visit_f64<E: serde::de::Error>(self, x: f64) -> Result<Self::Value, E> {
                T::deserialize(x.into_deserializer()).map(TextOr::Value)
            }
            fn visit_u64<E: serde::de::Error>(self, x: u64) -> Result<Self::Value, E> {
                T::deserialize(x.into_deserializer()).map(TextOr::Value)
            }
            fn visit_i64<E: serde::de::Error>(self, x: i64) -> Result<Self::Value, E> {
                T::deserialize(x.into_deserializer()).map(TextOr::Value)
            }
            fn visit_bool<E: serde::de::Error>(self, x: bool) -> Result<Self::Value, E> {
                T::deserialize(x.into_deserializer()).map(TextOr::Value)
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                T::deserialize(().into_deserializer()).map(TextOr::Value)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                T::deserialize(value::SeqAccessDeserializer::new(seq)).map(TextOr::Value)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(value::MapAccessDeserializer::new(map)).map(TextOr::Value)
            }
        }
        d.deserialize_any(Either(std::marker::PhantomData))
    }
}

/// Reads a key that may be left out but not given as null: `#[serde(default, deserialize_with
/// = "present")]` on an `Option` field. A null is refused as the value's type would refuse it
/// ("expected a number, found null"), as the schema refuses it.
pub fn present<'de, D: serde::Deserializer<'de>, T: serde::Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

//! Reading the command's requests: each subcommand's JSON input as its calculator's request
//! type (`model::<calculator>::request`, what the input may hold, key by key). Every input is
//! first read into its request type ([`read`]), so a key of the wrong type,
//! an unknown key or a missing one is refused with its JSON path (`points[3].time_s: expected
//! a number, found a string`); the subcommand's own reader then checks the values
//! (ranges, whole numbers, lengths) as the page does. `scalewise schema` prints the same types
//! as JSON Schema (draft 2020-12), so what the schema refuses the command refuses too.
//!
//! In the request types, numbers are `f64` where the command reads whole numbers given as
//! `4.0` too, so the range check names the limit rather than the type; where it reads them as
//! integers they are integers there as well.

use crate::model::InputError;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Reads `input` (an object) as the request `T`: an error names the JSON path of the key
/// ("input" for the top level) and says what was expected, in the words of the rest of the
/// command.
pub fn read<T: DeserializeOwned>(input: &Value) -> Result<T, InputError> {
    // serde would read a list as an object's fields in order; every request is an object.
    if !input.is_object() {
        return Err(InputError::new("input", format!("expected an object, found {}", super::kind(input))));
    }
    serde_path_to_error::deserialize(input).map_err(|e| at_path(e.path(), &e.inner().to_string()))
}

/// [`read`] of a request given as its JSON text (the command's input or an element of a
/// list, whose syntax is checked already, `check_json`): read straight into `T`, no JSON
/// tree between. A key's problem is said
/// as [`read`] says it; serde_json's place in the text ("at line 1 column 30") is left out,
/// the path naming the key. A text that is no object is read as [`read`] reads it.
pub fn read_text<T: DeserializeOwned>(text: &str) -> Result<T, InputError> {
    if !text.trim_start().starts_with('{') {
        return read(&serde_json::from_str::<Value>(text).map_err(super::not_json)?);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let inner = e.inner();
        let message = inner.to_string();
        let place = format!(" at line {} column {}", inner.line(), inner.column());
        at_path(e.path(), message.strip_suffix(&place).unwrap_or(&message))
    })
}

/// serde's `message` about the key at `path`, in the command's words and naming the key.
fn at_path(path: &serde_path_to_error::Path, message: &str) -> InputError {
    let mut path = path.to_string();
    // An unknown key is reported at its own path; the command names the object holding it.
    if let Some(key) = message.strip_prefix("unknown field `").and_then(|r| r.split('`').next()) {
        path = path.strip_suffix(key).map_or(path.clone(), |p| p.trim_end_matches('.').to_string());
    }
    let path = if path.is_empty() || path == "." { "input".to_string() } else { path };
    InputError::new(path, plain(message))
}

/// serde's wording ("invalid type: string \"x\", expected f64") in the command's ("expected a
/// number, found a string").
fn plain(message: &str) -> String {
    if let Some(rest) = message.strip_prefix("invalid type: ").or_else(|| message.strip_prefix("invalid value: ")) {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            return format!("expected {}, found {}", expected_words(expected), found_words(found));
        }
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        if let Some((key, allowed)) = rest.split_once("`, expected ") {
            let allowed = allowed.trim_start_matches("one of ").replace('`', "");
            return format!("unknown key \"{key}\"; expected {allowed}");
        }
        if let Some((key, _)) = rest.split_once("`, there are no fields") {
            return format!("unknown key \"{key}\"; expected none");
        }
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        return format!("missing key \"{}\"", rest.trim_end_matches('`'));
    }
    if let Some(rest) = message.strip_prefix("duplicate field `") {
        return format!("the key \"{}\" is given twice", rest.trim_end_matches('`'));
    }
    message.to_string()
}

fn expected_words(expected: &str) -> String {
    match expected {
        "f64" | "f32" => "a number".into(),
        "u8" | "u16" | "u32" | "u64" | "usize" | "i32" | "i64" => "a whole number".into(),
        "a sequence" => "a list".into(),
        "a map" => "an object".into(),
        "a string" => "text".into(),
        "a boolean" => "true or false".into(),
        e if e.starts_with("struct ") => "an object".into(),
        e => e.to_string(),
    }
}

fn found_words(found: &str) -> String {
    // As the readers call a JSON value (`json::kind`); a number is shown, being short.
    if found.starts_with("string ") {
        return "a string".into();
    }
    if found.starts_with("boolean ") {
        return "a boolean".into();
    }
    for prefix in ["floating point ", "integer "] {
        if let Some(v) = found.strip_prefix(prefix) {
            return v.trim_matches('`').to_string();
        }
    }
    match found {
        "sequence" => "a list".into(),
        "map" => "an object".into(),
        "unit" => "null".into(),
        other => other.to_string(),
    }
}

pub use crate::model::comm::request::{BroadcastRequest, CommRequest};
pub use crate::model::multigrid::request::MultigridRequest;
pub use crate::model::regions::request::RegionsRequest;
pub use crate::model::simulate::request::SimulateRequest;
pub use crate::model::sites::request::{ClustersRequest, GridBroadcastRequest};
pub use crate::model::speedup::request::{SpeedupInput, SpeedupRequest};

/// The JSON Schema (draft 2020-12) of `T` as it is read, standing alone (its parts under
/// `$defs`): a key of an `Option` may be left out, but not given as null (the readers refuse
/// null).
pub fn input_schema<T: JsonSchema>() -> schemars::Schema {
    schemars::generate::SchemaSettings::draft2020_12()
        .for_deserialize()
        .with_transform(no_null_options)
        .into_generator()
        .into_root_schema_for::<T>()
}

/// Takes null out of the keys an object may leave out: `{"type": ["number", "null"]}` becomes
/// `{"type": "number"}`, `{"anyOf": [X, {"type": "null"}]}` becomes X, and a default of null
/// goes.
fn no_null_options(schema: &mut schemars::Schema) {
    schemars::transform::transform_subschemas(&mut no_null_options, schema);
    let Some(object) = schema.as_object_mut() else { return };
    let required: Vec<String> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(|k| k.as_str().map(String::from)).collect())
        .unwrap_or_default();
    let Some(Value::Object(properties)) = object.get_mut("properties") else { return };
    for (key, p) in properties.iter_mut() {
        if required.contains(key) {
            continue;
        }
        let Value::Object(p) = p else { continue };
        // A key left out has no value (serde's `default` on an `Option`), not a null one.
        if p.get("default") == Some(&Value::Null) {
            p.remove("default");
        }
        if let Some(Value::Array(types)) = p.get("type") {
            let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
            let kept = if kept.len() == 1 { kept[0].clone() } else { Value::Array(kept) };
            p.insert("type".into(), kept);
        }
        let any_of = p.get("anyOf").and_then(Value::as_array).cloned();
        if let Some(list) = any_of {
            let kept: Vec<Value> = list.into_iter().filter(|s| s.get("type").is_none_or(|t| t != "null")).collect();
            if kept.len() == 1 {
                p.remove("anyOf");
                if let Value::Object(only) = &kept[0] {
                    for (k, v) in only {
                        p.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                }
            } else {
                p.insert("anyOf".into(), Value::Array(kept));
            }
        }
    }
}

/// The JSON Schema of `T` as it is written: every key is there (an `Option` as null) unless
/// it is skipped when empty.
pub fn output_schema<T: JsonSchema>() -> schemars::Schema {
    schemars::generate::SchemaSettings::draft2020_12().for_serialize().into_generator().into_root_schema_for::<T>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_wrong_type_is_named_by_its_path_in_the_commands_words() {
        let e = read::<SpeedupRequest>(&json!({"points": [{"n": 1, "time_s": 2}, {"n": 2, "time_s": "x"}]}))
            .map_err(|e| crate::cli::said(&e))
            .unwrap_err();
        assert_eq!(e, "points[1].time_s: expected a number, found a string");
        let e =
            read::<SpeedupRequest>(&json!({"points": [], "extra": 1})).map_err(|e| crate::cli::said(&e)).unwrap_err();
        assert!(e.starts_with("input: unknown key \"extra\"; expected points, predict"), "{e}");
        let e = read::<MultigridRequest>(&json!({"parallel": [{"np": 4.5, "work_mb": 1, "time_s": 1}]}))
            .map_err(|e| crate::cli::said(&e))
            .unwrap_err();
        assert_eq!(e, "parallel[0].np: expected a whole number, found 4.5");
        let e =
            read::<MultigridRequest>(&json!({"parallel": {"np": 4}})).map_err(|e| crate::cli::said(&e)).unwrap_err();
        assert_eq!(e, "parallel: expected a list, found an object");
        assert!(read::<MultigridRequest>(&json!({"parallel": "np work time\n4 1 1"})).is_ok());
        let e = read::<ClustersRequest>(&json!({"rho": 1})).map_err(|e| crate::cli::said(&e)).unwrap_err();
        assert_eq!(e, "input: missing key \"latency_us\"");
    }

    #[test]
    fn a_request_read_from_its_text_says_what_one_read_from_a_tree_says() {
        let said = |r: Result<SpeedupRequest, InputError>| r.map_err(|e| crate::cli::said(&e)).unwrap_err();
        for v in [
            json!({"points": [{"n": 1, "time_s": 2}, {"n": 2, "time_s": "x"}]}),
            json!({"points": [], "extra": 1}),
            json!({"points": [{"n": 1, "time_s": 2, "weight": [1]}]}),
            json!({"points": [{"time_s": 2}]}),
            json!({"points": {"n": 1}}),
            json!({"predict": [1, 2]}),
            json!({"points": [{"n": 1, "time_s": 2}], "models": "usl"}),
            json!([1, 2]),
            json!("points"),
        ] {
            assert_eq!(said(read_text(&v.to_string())), said(read(&v)), "{v}");
        }
        // The text is read in its order: of two wrong keys, the first written is named (a tree
        // holds its keys sorted, so `read` names "n").
        let two = r#"{"points": [{"time_s": "x", "n": "y"}]}"#;
        assert_eq!(said(read_text(two)), "points[0].time_s: expected a number, found a string");
        // A key given twice is an error, not the last value taken.
        let twice = r#"{"points": [{"n": 1, "n": 2, "time_s": 3}]}"#;
        assert_eq!(said(read_text(twice)), "points[0]: the key \"n\" is given twice");
    }
}

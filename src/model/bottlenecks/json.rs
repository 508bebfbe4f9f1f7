//! Extra-P's JSON and JSON Lines formats (`docs/file-formats.md`, "JSON format", the newer one,
//! and "JSON Lines format"; Extra-P's readers are `json_file_reader.py` and
//! `jsonlines_file_reader.py`; the older JSON format, with ids, is `json_ids.rs`). Syntax
//! errors carry serde_json's line and column; errors of structure name the JSON path (JSON) or
//! the line (JSON Lines).

use std::borrow::Cow;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

pub use super::json_ids::kind;
use super::{check_value, Builder, Experiment, Format, FIELD, MAX_PARAMETERS, MAX_REPETITIONS};
use crate::model::input::list::clip;
use crate::model::InputError;

/// The keys of the object under `key` in the JSON object `text`, in the order written, each
/// once (serde_json's `Map` sorts its keys; Extra-P keeps a line's parameters in the order
/// written). At most `MAX_PARAMETERS + 1` are kept: more is an error anyway. None when `text`
/// is not an object or `key` holds no object; the caller reports that from the `Value`.
pub(super) fn key_order(text: &str, key: &str) -> Option<Vec<String>> {
    struct Keys;
    impl<'de> Visitor<'de> for Keys {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<String>, A::Error> {
            let mut out: Vec<String> = Vec::new();
            while let Some(k) = map.next_key::<String>()? {
                map.next_value::<IgnoredAny>()?;
                if out.len() <= MAX_PARAMETERS && !out.contains(&k) {
                    out.push(k);
                }
            }
            Ok(out)
        }
    }
    impl<'de> DeserializeSeed<'de> for Keys {
        type Value = Vec<String>;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<String>, D::Error> {
            d.deserialize_map(self)
        }
    }
    struct Under<'k>(&'k str);
    impl<'de> Visitor<'de> for Under<'_> {
        type Value = Option<Vec<String>>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut found = None;
            while let Some(k) = map.next_key::<String>()? {
                if k == self.0 {
                    // A key given twice counts with its last value, as in serde_json's Value.
                    found = Some(map.next_value_seed(Keys)?);
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(found)
        }
    }
    let mut d = serde_json::Deserializer::from_str(text);
    d.deserialize_map(Under(key)).ok().flatten()
}

fn syntax(e: &serde_json::Error, line_offset: usize) -> InputError {
    // serde_json's message ends with " at line L column C"; the position goes in the fields.
    let msg = e.to_string();
    let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
    InputError::new(FIELD, format!("not valid JSON: {msg}")).at(e.line() + line_offset, Some(e.column().max(1)))
}

/// A list of finite numbers (or one number when `one_ok`).
fn numbers(v: &Value, path: &str, one_ok: bool) -> Result<Vec<f64>, InputError> {
    let one = |x: &Value, p: &str| -> Result<f64, InputError> {
        let f =
            x.as_f64().ok_or_else(|| InputError::new(FIELD, format!("{p}: expected a number, found {}", kind(x))))?;
        check_value(f).map_err(|m| InputError::new(FIELD, format!("{p}: {m}")))
    };
    match v {
        Value::Number(_) if one_ok => Ok(vec![one(v, path)?]),
        Value::Array(list) if !list.is_empty() => {
            if list.len() > MAX_REPETITIONS {
                return Err(InputError::new(FIELD, format!("{path}: at most {MAX_REPETITIONS} values")));
            }
            list.iter().enumerate().map(|(i, x)| one(x, &format!("{path}[{i}]"))).collect()
        }
        _ => Err(InputError::new(
            FIELD,
            format!(
                "{path}: expected a non-empty list of numbers{}, found {}",
                if one_ok { " or a number" } else { "" },
                kind(v)
            ),
        )),
    }
}

/// The newer JSON format: {"parameters": [names], "measurements": {callpath: {metric:
/// [{"point": [..], "values": [..]}]}}}; an object with "callpaths" is the older format, read
/// by `json_ids`.
pub fn parse_json(text: &str) -> Result<Experiment, InputError> {
    let top: Value = serde_json::from_str(text).map_err(|e| syntax(&e, 0))?;
    let e = |m: String| InputError::new(FIELD, m);
    let Value::Object(top) = top else {
        return Err(e(format!("expected an object with \"parameters\" and \"measurements\", found {}", kind(&top))));
    };
    // Extra-P tells its two JSON formats apart by this key.
    if top.contains_key("callpaths") {
        return super::json_ids::parse(&top);
    }
    let params = match top.get("parameters") {
        Some(Value::Array(l)) if !l.is_empty() && l.len() <= MAX_PARAMETERS => l
            .iter()
            .enumerate()
            .map(|(i, p)| {
                p.as_str()
                    .map(String::from)
                    .ok_or_else(|| e(format!("parameters[{i}]: expected a name, found {}", kind(p))))
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(Value::Array(l)) => {
            return Err(e(format!("parameters: expected a list of 1 to {MAX_PARAMETERS} names, found {}", l.len())))
        }
        Some(v) => {
            return Err(e(format!("parameters: expected a list of 1 to {MAX_PARAMETERS} names, found {}", kind(v))))
        }
        None => return Err(e("missing key \"parameters\"".into())),
    };
    if let Some(i) = (1..params.len()).find(|&i| params[..i].contains(&params[i])) {
        return Err(e(format!("parameters[{i}]: parameter \"{}\" is defined twice", clip(&params[i]))));
    }
    let mut x = Builder::new(Format::Json, params);
    let Some(Value::Object(cps)) = top.get("measurements") else {
        return Err(e("measurements: expected an object {callpath: {metric: [{point, values}]}}".into()));
    };
    for (cp, metrics) in cps {
        let Value::Object(metrics) = metrics else {
            return Err(e(format!(
                "measurements.\"{}\": expected an object {{metric: [..]}}, found {}",
                clip(cp),
                kind(metrics)
            )));
        };
        for (metric, list) in metrics {
            let path = format!("measurements.\"{}\".\"{}\"", clip(cp), clip(metric));
            let Value::Array(list) = list else {
                return Err(e(format!("{path}: expected a list of {{point, values}}, found {}", kind(list))));
            };
            for (i, m) in list.iter().enumerate() {
                let p = format!("{path}[{i}]");
                let Value::Object(m) = m else {
                    return Err(e(format!("{p}: expected {{point, values}}, found {}", kind(m))));
                };
                let point = numbers(m.get("point").unwrap_or(&Value::Null), &format!("{p}.point"), true)?;
                if point.len() != x.e.parameters.len() {
                    return Err(e(format!(
                        "{p}.point: expected {} value(s), one per parameter, found {}",
                        x.e.parameters.len(),
                        point.len()
                    )));
                }
                let values = numbers(m.get("values").unwrap_or(&Value::Null), &format!("{p}.values"), false)?;
                x.add(cp, metric, point, &values, None, &|k| format!("{p}.values[{k}]"))
                    .map_err(|m| e(format!("{p}: {m}")))?;
            }
        }
    }
    Ok(x.finish())
}

/// A format of one record per line: JSON Lines, or Talpas (JSON objects with `;` between the
/// fields).
pub(super) struct Records {
    pub format: Format,
    /// The key of the parameters' object.
    pub params: &'static str,
    /// The call path and metric of a record that gives none (JSON Lines: Extra-P's `<root>`
    /// and `<default>`); None where every record must give them (Talpas).
    pub defaults: Option<(&'static str, &'static str)>,
    /// A record's shape, for messages.
    pub shape: &'static str,
    /// The line as JSON, of the same length so that columns stay the line's.
    pub as_json: fn(&str) -> Cow<'_, str>,
    /// The separator between fields, as serde_json's messages should name it.
    pub separator: &'static str,
}

/// JSON Lines: one {"params": {name: value}, "value": v or [..], "callpath"?, "metric"?} per
/// line; every line names the same parameters.
const JSON_LINES: Records = Records {
    format: Format::JsonLines,
    params: "params",
    defaults: Some(("<root>", "<default>")),
    shape: "{\"params\", \"value\"}",
    as_json: unchanged,
    separator: ",",
};

fn unchanged(line: &str) -> Cow<'_, str> {
    Cow::Borrowed(line)
}

pub fn parse_lines(text: &str) -> Result<Experiment, InputError> {
    parse_records(text, &JSON_LINES)
}

/// Reads one record per line (blank lines skipped); every record names the parameters of the
/// first, which keep the order that line writes them in.
pub(super) fn parse_records(text: &str, r: &Records) -> Result<Experiment, InputError> {
    let mut x = Builder::new(r.format, Vec::new());
    let key = r.params;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let at = |col: usize, m: String| InputError::new(FIELD, m).at(line, Some(col));
        let json = (r.as_json)(raw);
        let v: Value = serde_json::from_str(&json).map_err(|e| {
            let mut err = syntax(&e, i);
            if r.separator != "," {
                err.message = err.message.replace("`,`", &format!("`{}`", r.separator));
            }
            err
        })?;
        let Value::Object(m) = v else {
            return Err(at(1, format!("expected one object {} per line, found {}", r.shape, kind(&v))));
        };
        let col = |k: &str| raw.find(&format!("\"{k}\"")).map_or(1, |b| raw[..b].chars().count() + 1);
        let name = |k: &str, default: Option<&str>| -> Result<String, InputError> {
            match (m.get(k), default) {
                (None, Some(d)) => Ok(d.into()),
                (None, None) => Err(at(1, format!("expected \"{k}\" in every record {}", r.shape))),
                (Some(Value::String(s)), _) => Ok(s.clone()),
                (Some(v), _) => Err(at(col(k), format!("{k}: expected a string, found {}", kind(v)))),
            }
        };
        let callpath = name("callpath", r.defaults.map(|d| d.0))?;
        let metric = name("metric", r.defaults.map(|d| d.1))?;
        let Some(Value::Object(params)) = m.get(key) else {
            return Err(at(col(key), format!("expected \"{key}\": {{name: value, ..}}")));
        };
        if x.e.parameters.is_empty() {
            if params.is_empty() || params.len() > MAX_PARAMETERS {
                return Err(at(
                    col(key),
                    format!("{key}: expected 1 to {MAX_PARAMETERS} parameters, found {}", params.len()),
                ));
            }
            x.e.parameters = key_order(&json, key).unwrap_or_else(|| params.keys().cloned().collect());
        }
        let coords = coords(key, params, &x.e.parameters).map_err(|err| err.at(line, Some(col(key))))?;
        let values = numbers(m.get("value").unwrap_or(&Value::Null), "value", true)
            .map_err(|err| err.at(line, Some(col("value"))))?;
        // A list's values are told apart by their index after the value's column.
        let one = !matches!(m.get("value"), Some(Value::Array(_)));
        let place = |k: usize| {
            if one {
                format!("line {line}, column {}", col("value"))
            } else {
                format!("line {line}, column {}, value[{k}]", col("value"))
            }
        };
        x.add(&callpath, &metric, coords, &values, Some(line), &place).map_err(|m| at(col("value"), m.to_string()))?;
    }
    Ok(x.finish())
}

fn coords(key: &str, params: &Map<String, Value>, names: &[String]) -> Result<Vec<f64>, InputError> {
    if params.len() != names.len() || names.iter().any(|n| !params.contains_key(n)) {
        let mut keys: Vec<String> = params.keys().take(MAX_PARAMETERS + 1).map(|k| clip(k)).collect();
        if params.len() > keys.len() {
            keys.push("…".into());
        }
        return Err(InputError::new(
            FIELD,
            format!(
                "{key}: expected the parameters of the first line ({}), found {}",
                names.join(", "),
                keys.join(", ")
            ),
        ));
    }
    names
        .iter()
        .map(|n| {
            let v = &params[n];
            let f = v.as_f64().ok_or_else(|| {
                InputError::new(FIELD, format!("{key}.{}: expected a number, found {}", clip(n), kind(v)))
            })?;
            check_value(f).map_err(|m| InputError::new(FIELD, format!("{key}.{}: {m}", clip(n))))
        })
        .collect()
}

//! Extra-P's older JSON format, the one with ids (Extra-P reads a JSON object with a
//! `"callpaths"` key this way: `json_file_reader.py`, `_read_legacy_json_file`):
//!
//! ```text
//! {"parameters":  [{"id": 1, "name": "p"}, ..],
//!  "callpaths":   [{"id": 1, "name": "main->solve"}, ..],
//!  "metrics":     [{"id": 1, "name": "time"}, ..],
//!  "coordinates": [{"id": 1, "parameter_value_pairs": [{"parameter_id": 1, "parameter_value": 4}, ..]}, ..],
//!  "measurements": [{"coordinate_id": 1, "callpath_id": 1, "metric_id": 1, "value": 3.5}, ..]}
//! ```
//!
//! One value per measurement; the measurements of one call path, metric and coordinate are
//! the point's repetitions. The parameters are taken in the order of their ids, as Extra-P
//! takes them; a coordinate gives each parameter its value by `parameter_id`. Series come in
//! the order of the call paths' and metrics' ids, points in the order of the coordinates' ids,
//! repetitions in the order written. Unlike Extra-P, which sorts each table and takes id k as
//! the k-th entry, ids are looked up as ids: any distinct integers will do, and a reference to
//! an id no entry has is an error, not another entry. A declared coordinate without
//! measurements is no point of any series (Extra-P refuses a series that lacks one: its
//! `input_11.JSON`); a call path or metric without measurements is no series. Errors name the
//! JSON path, e.g. `measurements[17].callpath_id`.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::{check_value, Builder, Experiment, Format, FIELD, MAX_PARAMETERS, MAX_REPETITIONS};
use crate::model::input::list::clip;
use crate::model::InputError;

/// How a JSON value is called in messages ("a list", "a number"); the command's readers say
/// it the same way.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn e(message: String) -> InputError {
    InputError::new(FIELD, message)
}

/// The list under `key`.
fn list<'a>(top: &'a Map<String, Value>, key: &str, what: &str) -> Result<&'a [Value], InputError> {
    match top.get(key) {
        Some(Value::Array(l)) => Ok(l),
        Some(v) => Err(e(format!("{key}: expected a list of {what}, found {}", kind(v)))),
        None => Err(e(format!("missing key \"{key}\" (Extra-P's older JSON format has parameters, callpaths, metrics, coordinates and measurements)"))),
    }
}

/// The object at `path`.
fn object<'a>(v: &'a Value, path: &str, what: &str) -> Result<&'a Map<String, Value>, InputError> {
    v.as_object().ok_or_else(|| e(format!("{path}: expected {what}, found {}", kind(v))))
}

/// The field `key` of `m` (at `path`).
fn field<'a>(m: &'a Map<String, Value>, key: &str, path: &str) -> Result<&'a Value, InputError> {
    m.get(key).ok_or_else(|| e(format!("{path}: missing key \"{key}\"")))
}

/// An id: an integer.
fn id(m: &Map<String, Value>, key: &str, path: &str) -> Result<i64, InputError> {
    let v = field(m, key, path)?;
    v.as_i64().ok_or_else(|| e(format!("{path}.{key}: expected an integer id, found {}", describe(v))))
}

/// A finite number.
fn number(m: &Map<String, Value>, key: &str, path: &str) -> Result<f64, InputError> {
    let v = field(m, key, path)?;
    let f = v.as_f64().ok_or_else(|| e(format!("{path}.{key}: expected a number, found {}", kind(v))))?;
    check_value(f).map_err(|msg| e(format!("{path}.{key}: {msg}")))
}

/// How a value that is no integer id is called: the number itself, or its kind.
fn describe(v: &Value) -> String {
    match v {
        Value::Number(n) => format!("{n}"),
        _ => kind(v).into(),
    }
}

/// A table of {"id", "name"}, as (id, name) sorted by id.
fn named(top: &Map<String, Value>, key: &str) -> Result<Vec<(i64, String)>, InputError> {
    let mut out: Vec<(i64, String, usize)> = Vec::new();
    let mut seen: HashMap<i64, usize> = HashMap::new();
    for (i, v) in list(top, key, "{\"id\", \"name\"}")?.iter().enumerate() {
        let path = format!("{key}[{i}]");
        let m = object(v, &path, "{\"id\", \"name\"}")?;
        let n = id(m, "id", &path)?;
        if let Some(j) = seen.insert(n, i) {
            return Err(e(format!("{path}.id: id {n} is used twice (also by {key}[{j}])")));
        }
        let name = match field(m, "name", &path)? {
            Value::String(s) => s.clone(),
            other => return Err(e(format!("{path}.name: expected a string, found {}", kind(other)))),
        };
        out.push((n, name, i));
    }
    out.sort_by_key(|&(n, _, _)| n);
    Ok(out.into_iter().map(|(n, name, _)| (n, name)).collect())
}

/// Each id's position in a table sorted by id.
fn positions(table: &[(i64, String)]) -> HashMap<i64, usize> {
    table.iter().enumerate().map(|(i, (n, _))| (*n, i)).collect()
}

/// The position of the entry a measurement refers to.
fn reference(
    m: &Map<String, Value>,
    key: &str,
    path: &str,
    table: &HashMap<i64, usize>,
    what: &str,
) -> Result<usize, InputError> {
    let n = id(m, key, path)?;
    table.get(&n).copied().ok_or_else(|| e(format!("{path}.{key}: no entry of \"{what}\" has id {n}")))
}

pub fn parse(top: &Map<String, Value>) -> Result<Experiment, InputError> {
    let parameters = named(top, "parameters")?;
    if parameters.is_empty() || parameters.len() > MAX_PARAMETERS {
        return Err(e(format!("parameters: expected 1 to {MAX_PARAMETERS} parameters, found {}", parameters.len())));
    }
    for (i, (_, name)) in parameters.iter().enumerate() {
        if parameters[..i].iter().any(|(_, other)| other == name) {
            return Err(e(format!("parameters: parameter \"{}\" is defined twice", clip(name))));
        }
    }
    let callpaths = named(top, "callpaths")?;
    let metrics = named(top, "metrics")?;
    let (parameter_at, callpath_at, metric_at) = (positions(&parameters), positions(&callpaths), positions(&metrics));

    // Coordinates, by id: the values in the order of the parameters.
    let mut coordinates: Vec<(i64, Vec<f64>)> = Vec::new();
    let mut seen: HashMap<i64, usize> = HashMap::new();
    for (i, v) in list(top, "coordinates", "{\"id\", \"parameter_value_pairs\"}")?.iter().enumerate() {
        let path = format!("coordinates[{i}]");
        let m = object(v, &path, "{\"id\", \"parameter_value_pairs\"}")?;
        let n = id(m, "id", &path)?;
        if let Some(j) = seen.insert(n, i) {
            return Err(e(format!("{path}.id: id {n} is used twice (also by coordinates[{j}])")));
        }
        let pairs_path = format!("{path}.parameter_value_pairs");
        let pairs = match field(m, "parameter_value_pairs", &path)? {
            Value::Array(l) => l,
            other => {
                return Err(e(format!(
                    "{pairs_path}: expected a list of {{\"parameter_id\", \"parameter_value\"}}, found {}",
                    kind(other)
                )))
            }
        };
        let mut values: Vec<Option<f64>> = vec![None; parameters.len()];
        for (j, pair) in pairs.iter().enumerate() {
            let p = format!("{pairs_path}[{j}]");
            let pair = object(pair, &p, "{\"parameter_id\", \"parameter_value\"}")?;
            let k = reference(pair, "parameter_id", &p, &parameter_at, "parameters")?;
            if values[k].is_some() {
                return Err(e(format!(
                    "{p}.parameter_id: parameter \"{}\" has a value already",
                    clip(&parameters[k].1)
                )));
            }
            values[k] = Some(number(pair, "parameter_value", &p)?);
        }
        let values = values
            .iter()
            .zip(&parameters)
            .map(|(v, (pid, name))| {
                v.ok_or_else(|| e(format!("{pairs_path}: no value for parameter \"{}\" (id {pid})", clip(name))))
            })
            .collect::<Result<Vec<f64>, _>>()?;
        coordinates.push((n, values));
    }
    coordinates.sort_by_key(|(n, _)| *n);
    let coordinate_at: HashMap<i64, usize> = coordinates.iter().enumerate().map(|(i, (n, _))| (*n, i)).collect();

    // Measurements: one value each, gathered per call path, metric and coordinate.
    let mut gathered: BTreeMap<(usize, usize, usize), Vec<f64>> = BTreeMap::new();
    // Per point, the path of its first value below 0.
    let mut refused: BTreeMap<(usize, usize, usize), String> = BTreeMap::new();
    for (i, v) in
        list(top, "measurements", "{\"coordinate_id\", \"callpath_id\", \"metric_id\", \"value\"}")?.iter().enumerate()
    {
        let path = format!("measurements[{i}]");
        let m = object(v, &path, "{\"coordinate_id\", \"callpath_id\", \"metric_id\", \"value\"}")?;
        let c = reference(m, "callpath_id", &path, &callpath_at, "callpaths")?;
        let k = reference(m, "metric_id", &path, &metric_at, "metrics")?;
        let p = reference(m, "coordinate_id", &path, &coordinate_at, "coordinates")?;
        let value = number(m, "value", &path)?;
        let values = gathered.entry((c, k, p)).or_default();
        if values.len() == MAX_REPETITIONS {
            return Err(e(format!("{path}: at most {MAX_REPETITIONS} repetitions per point")));
        }
        values.push(value);
        if super::refused(value) {
            refused.entry((c, k, p)).or_insert_with(|| format!("{path}.value"));
        }
    }

    let mut x = Builder::new(Format::Json, parameters.into_iter().map(|(_, name)| name).collect());
    for ((c, k, p), values) in gathered {
        let place = refused.get(&(c, k, p)).cloned().unwrap_or_default();
        x.add(&callpaths[c].1, &metrics[k].1, coordinates[p].1.clone(), &values, None, &|_| place.clone())
            .map_err(|m| e(m.to_string()))?;
    }
    Ok(x.finish())
}

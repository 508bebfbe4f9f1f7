//! `scalewise schema`: the JSON Schema (draft 2020-12) of every subcommand's input and answer,
//! made from the types the command reads and writes (`cli::request` and each subcommand's
//! answer type), as one object: `{"<subcommand>": {"input": {…}, "output": {…}}, …}`. A
//! subcommand that reads raw text (bottlenecks, cluster) or nothing (catalog) has no "input".

use serde_json::{Map, Value};

use super::{emit, written, Out, SUBCOMMANDS};

pub const HELP: &str = r#"scalewise schema — the JSON Schema of every subcommand's input and answer

USAGE:
    scalewise schema [--compact] [-o FILE]

OUTPUT:
    {"<subcommand>": {"input": <schema>, "output": <schema>}, ...}: one JSON Schema (draft
    2020-12) per input and per answer, each standing alone (its parts under "$defs"). They
    are made from the types the command itself reads and writes, so an input the schema
    refuses the command refuses too (exit 1, naming the key's path). Answers may carry keys
    the schema does not list (--allocation adds a table, --format table "table_reading").
    bottlenecks reads Extra-P's own formats, cluster node reports (scontrol, sinfo, lscpu) and
    catalog nothing: they have no "input".

USE:
    Editor completion for an input file: save one subcommand's input schema, e.g.
        scalewise schema | jq '.speedup.input' > speedup.schema.json
    and point the editor at it (VS Code: "json.schemas" in settings; or "$schema" in the
    file). Checking in a pipeline: validate inputs before a batch, or answers after it, with
    any draft 2020-12 validator (check-jsonschema, ajv, Python's jsonschema).
"#;

/// Every subcommand's schemas as one JSON object.
pub fn schemas() -> Value {
    let mut all = Map::new();
    for c in SUBCOMMANDS {
        let mut one = Map::new();
        if let Some(input) = c.schema.input {
            one.insert("input".into(), input().to_value());
        }
        one.insert("output".into(), (c.schema.output)().to_value());
        all.insert(c.name.to_string(), Value::Object(one));
    }
    Value::Object(all)
}

/// `scalewise schema [--compact]`.
pub fn run(args: &[String]) -> i32 {
    let mut compact = false;
    for a in args {
        match a.as_str() {
            "--help" | "-h" => return written("schema", super::write_out(HELP)),
            "--compact" => compact = true,
            other => {
                eprintln!("scalewise schema: unknown argument '{other}'; see 'scalewise schema --help'");
                return 2;
            }
        }
    }
    written("schema", emit(&mut Out, &schemas(), compact))
}

//! The native `scalewise` command: `scalewise <calculator> [FILE]` reads one JSON document
//! from FILE (or standard input when FILE is absent or `-`) and writes one JSON document to
//! standard output. Bad input: exit status 1 and one line on standard error naming what is
//! wrong; bad usage: exit status 2.

use std::io::Read;

use serde_json::{value::RawValue, Map, Value};

mod allocation;
mod catalog;
mod comm;
mod extrap;
mod multigrid;
mod regions;
mod simulate;
mod speedup;
mod validate;

/// One calculator of the command line.
pub struct Subcommand {
    pub name: &'static str,
    pub summary: &'static str,
    /// Full help: input keys, output keys, an example.
    pub help: &'static str,
    pub run: fn(serde_json::Value) -> Result<serde_json::Value, String>,
    /// False for calculators that take no input (they do not wait for standard input).
    pub reads_input: bool,
    /// For calculators that take a list of inputs: one element's answer as text (a problem
    /// as `{"error": "..."}`), written by [`Render::item`]. A list is then answered, tabled and
    /// written element by element on every core (`batch`).
    pub each: Option<fn(&Value, &Render) -> Result<String, String>>,
}

pub const SUBCOMMANDS: &[Subcommand] = &[
    catalog::COMMAND,
    multigrid::COMMAND,
    regions::COMMAND,
    speedup::COMMAND,
    extrap::COMMAND,
    simulate::COMMAND,
    comm::COMMAND,
    comm::BROADCAST,
    comm::CLUSTERS,
    comm::GRID_BROADCAST,
];

/// (format, text, options such as ("--predict", "256,1024")) → the answer.
pub type RawRun = fn(&str, &str, &[(String, String)]) -> Result<Value, String>;

/// A calculator that also reads raw text (benchmark output) instead of JSON, chosen with
/// `--format NAME`.
pub struct RawInput {
    pub command: &'static str,
    pub formats: &'static [&'static str],
    /// (format, text, options) → the answer.
    pub run: RawRun,
    /// Options taking a value (`--predict 256,1024`) this format reads, passed on to `run`.
    pub options: &'static [&'static str],
    /// The format of a text given without `--format`, when it is one of these (not JSON).
    pub sniff: Option<fn(&str) -> Option<&'static str>>,
}

const RAW_INPUTS: &[RawInput] = &[comm::RAW, extrap::RAW, extrap::BOTTLENECKS];

fn main_help() -> String {
    let mut s = String::from(
        "scalewise — predict parallel program performance from a few cheap runs\n\n\
         USAGE:\n    scalewise <calculator> [FILE|-] [--compact] [--format NAME]\n    scalewise <calculator> --help\n\n\
         Reads one JSON document from FILE, or from standard input when FILE is absent or '-',\n\
         and writes the answer as JSON to standard output (pretty-printed unless --compact).\n\
         --format NAME reads raw text of that format instead of JSON (comm: osu, osu_bw, imb, table;\n\
         speedup: extrap, an Extra-P experiment in text, JSON, JSON Lines or Talpas, also recognised without it).\n\
         speedup and multigrid: --allocation md|csv|latex adds an allocation-request table (see their --help).\n\
         --export NAME (comm) writes a file for another tool instead of JSON: loggopsim, simgrid,\n\
         sstmacro, ompi-rules.\n\
         On bad input it exits with status 1 and prints one line naming what is wrong;\n\
         on bad usage, status 2.\n\nCALCULATORS:\n",
    );
    for c in SUBCOMMANDS {
        s.push_str(&format!("    {:<16}{}\n", c.name, c.summary));
    }
    s.push_str("\nCHECKS:\n    validate        measured accuracy of the speed-up predictions on real scaling data\n");
    s.push_str("\nRun 'scalewise <calculator> --help' for its input and output keys.\n");
    s
}

/// Writes to standard output. A reader that has gone away (`scalewise … | head`) is not an
/// error of ours: the rest of the output is dropped quietly instead of panicking as
/// `print!` does.
pub fn write_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// Runs the command with the arguments after the program name; returns the exit status.
pub fn run(args: &[String]) -> i32 {
    let Some(first) = args.first() else {
        eprint!("{}", main_help());
        return 2;
    };
    if first == "--help" || first == "-h" || first == "help" {
        write_out(&main_help());
        return 0;
    }
    if first == "validate" {
        return validate::run(&args[1..]);
    }
    if first == "--version" || first == "-V" {
        write_out(&format!("scalewise {}\n", env!("CARGO_PKG_VERSION")));
        return 0;
    }
    let Some(cmd) = SUBCOMMANDS.iter().find(|c| c.name == first) else {
        eprintln!("scalewise: unknown calculator '{first}'; run 'scalewise --help' for the list");
        return 2;
    };
    let mut file: Option<&str> = None;
    let mut compact = false;
    let mut format: Option<&str> = None;
    let mut options: Vec<(String, String)> = Vec::new();
    let raw_input = RAW_INPUTS.iter().find(|r| r.command == cmd.name);
    let mut export: Option<&str> = None;
    let mut rest = args[1..].iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--help" | "-h" => {
                write_out(cmd.help);
                return 0;
            }
            "--compact" => compact = true,
            "--format" => match rest.next() {
                Some(f) => format = Some(f.as_str()),
                None => {
                    eprintln!("scalewise {}: --format needs a name; see 'scalewise {} --help'", cmd.name, cmd.name);
                    return 2;
                }
            },
            other if other.starts_with("--format=") => format = Some(&other["--format=".len()..]),
            "--export" => match rest.next() {
                Some(f) => export = Some(f.as_str()),
                None => {
                    eprintln!("scalewise {}: --export needs a name; see 'scalewise {} --help'", cmd.name, cmd.name);
                    return 2;
                }
            },
            other if other.starts_with("--export=") => export = Some(&other["--export=".len()..]),
            other
                if raw_input.is_some_and(|r| r.options.contains(&other.split('=').next().unwrap_or(other)))
                    || (allocation::COMMANDS.contains(&cmd.name) && allocation::OPTIONS.contains(&other.split('=').next().unwrap_or(other))) =>
            {
                let value = match other.split_once('=') {
                    Some((_, v)) => v.to_string(),
                    None => match rest.next() {
                        Some(v) => v.clone(),
                        None => {
                            eprintln!("scalewise {}: {other} needs a value; see 'scalewise {} --help'", cmd.name, cmd.name);
                            return 2;
                        }
                    },
                };
                options.push((other.split('=').next().unwrap_or(other).to_string(), value));
            }
            other if other.starts_with("--") => {
                eprintln!("scalewise {}: unknown option '{other}'; see 'scalewise {} --help'", cmd.name, cmd.name);
                return 2;
            }
            other => {
                if file.is_some() {
                    eprintln!("scalewise {}: more than one input file given", cmd.name);
                    return 2;
                }
                file = Some(other);
            }
        }
    }
    let mut raw = match format {
        None => None,
        Some(f) => match raw_input {
            Some(r) if r.formats.contains(&f) => Some((r, f)),
            Some(r) => {
                eprintln!("scalewise {}: unknown format '{f}'; expected {}", cmd.name, r.formats.join(", "));
                return 2;
            }
            None => {
                eprintln!("scalewise {}: this calculator reads JSON only (no --format)", cmd.name);
                return 2;
            }
        },
    };
    let export = match export {
        None => None,
        Some(_) if cmd.name != "comm" => {
            eprintln!("scalewise {}: --export is an option of 'scalewise comm' only", cmd.name);
            return 2;
        }
        Some(e) => match crate::model::comm::export::ExportFormat::from_key(e) {
            Some(f) => Some(f),
            None => {
                eprintln!("scalewise comm: unknown export '{e}'; expected loggopsim, simgrid, sstmacro, ompi-rules");
                return 2;
            }
        },
    };
    let text = if cmd.reads_input || file.is_some() {
        match read_input(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("scalewise {}: {e}", cmd.name);
                return 1;
            }
        }
    } else {
        String::from("{}")
    };
    if raw.is_none() {
        if let Some(r) = raw_input {
            if let Some(f) = r.sniff.and_then(|sniff| sniff(&text)) {
                raw = Some((r, f));
            }
        }
    }
    if let Some((k, _)) = options.iter().find(|(k, _)| raw.is_none() && !allocation::OPTIONS.contains(&k.as_str())) {
        eprintln!("scalewise {}: {k} is read only with --format {}", cmd.name, raw_input.map_or("", |r| r.formats[0]));
        return 2;
    }
    // A list of two or more, for a calculator that answers element by element: the list's text
    // is only checked here (JSON syntax), and each element is read on the core that answers it.
    if let (None, Some(each), None) = (&raw, cmd.each, export) {
        if let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(&text) {
            if items.len() > 1 {
                return match batch(cmd.name, each, &text, &items, &options, compact) {
                    Ok(()) => 0,
                    Err(msg) => {
                        eprintln!("scalewise {}: {msg}", cmd.name);
                        1
                    }
                };
            }
        }
    }
    let answer = match (raw, export) {
        (Some((_, f)), Some(e)) => {
            comm::run_comm_raw_with(f, &text, &comm::ExportRequest { formats: vec![e], ..Default::default() })
        }
        (Some((r, f)), None) => (r.run)(f, &text, &options),
        (None, _) => match serde_json::from_str::<Value>(&text) {
            Ok(mut input) => {
                if let (Some(e), Some(obj)) = (export, input.as_object_mut()) {
                    obj.insert("export".into(), Value::Array(vec![Value::String(e.key().into())]));
                }
                (cmd.run)(input)
            }
            Err(e) => {
                eprintln!("scalewise {}: input is not valid JSON: {e}", cmd.name);
                return 1;
            }
        },
    };
    if let (Some(e), Ok(out)) = (export, &answer) {
        if let Some(t) = out.get("exports").and_then(|x| x.get(e.key())).and_then(Value::as_str) {
            write_out(t);
            return 0;
        }
    }
    let answer = answer.and_then(|out| allocation::add(cmd.name, out, &options));
    match answer {
        Ok(out) => {
            match one_text(&out, compact) {
                Ok(s) => {
                    write_out(&format!("{s}\n"));
                    0
                }
                Err(e) => {
                    eprintln!("scalewise {}: could not write the answer: {e}", cmd.name);
                    1
                }
            }
        }
        Err(msg) => {
            eprintln!("scalewise {}: {}", cmd.name, msg.replace('\n', " "));
            1
        }
    }
}

/// The answer as JSON text, pretty-printed unless `compact` (a list of two or more answers is
/// written element by element by [`batch`] instead).
fn one_text<T: serde::Serialize + ?Sized>(v: &T, compact: bool) -> serde_json::Result<String> {
    if compact {
        serde_json::to_string(v)
    } else {
        serde_json::to_string_pretty(v)
    }
}

/// One item of a list as it stands in the list's text: pretty, each of its lines indented two
/// spaces (a JSON string holds no raw line break, so every line break is the printer's).
fn item_text<T: serde::Serialize + ?Sized>(v: &T, compact: bool) -> serde_json::Result<String> {
    let t = one_text(v, compact)?;
    Ok(if compact { t } else { format!("  {}", t.replace('\n', "\n  ")) })
}

/// The pieces of a list's text, its items' texts (`item_text`) between brackets and commas, as
/// serde_json writes the list.
fn list_text(items: &[String], compact: bool) -> impl Iterator<Item = &str> {
    let (open, sep, close) = if compact { ("[", ",", "]") } else { ("[\n", ",\n", "\n]") };
    let body = items.iter().enumerate().flat_map(move |(i, t)| [if i == 0 { "" } else { sep }, t.as_str()]);
    std::iter::once(open).chain(body).chain(std::iter::once(close))
}

/// How [`batch`] writes one element's answer.
pub struct Render<'a> {
    command: &'a str,
    options: &'a [(String, String)],
    compact: bool,
}

impl Render<'_> {
    /// The element's text in the list: the answer written as it is, or, with options (an
    /// allocation table), as JSON with the table added.
    pub fn item<T: serde::Serialize>(&self, answer: &T) -> Result<String, String> {
        let cannot = |e: serde_json::Error| format!("could not write the answer: {e}");
        if self.options.is_empty() {
            return item_text(answer, self.compact).map_err(cannot);
        }
        let v = serde_json::to_value(answer).map_err(cannot)?;
        item_text(&allocation::add(self.command, v, self.options)?, self.compact).map_err(cannot)
    }
}

/// A list input of a calculator with `each`: every element read, answered, given its allocation
/// table (`--allocation`) and written as text on one thread, the elements (their JSON text)
/// shared among every core; the texts are then written to standard output in the input's
/// order. Only the texts outlive their thread, so a batch of thousands holds neither its
/// inputs as values nor its answers in memory.
fn batch(command: &str, each: fn(&Value, &Render) -> Result<String, String>, text: &str, items: &[&RawValue], options: &[(String, String)], compact: bool) -> Result<(), String> {
    let how = Render { command, options, compact };
    let read = |raw: &&RawValue| match serde_json::from_str::<Value>(raw.get()) {
        Ok(v) => each(&v, &how),
        // Past the syntax check, as a number out of range: the whole text's error says where
        // (line and column in the input, not in the element).
        Err(e) => Err(format!("input is not valid JSON: {}", serde_json::from_str::<Value>(text).err().unwrap_or(e))),
    };
    let texts = crate::parallel::map(items, &read)
        .ok_or_else(|| crate::parallel::STOPPED.to_string())?
        .into_iter()
        .collect::<Result<Vec<String>, String>>()?;
    use std::io::Write;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    // A reader that has gone away is not an error of ours (see `write_out`).
    let _ = list_text(&texts, compact).chain(std::iter::once("\n")).try_for_each(|piece| out.write_all(piece.as_bytes())).and_then(|_| out.flush());
    Ok(())
}

fn read_input(file: Option<&str>) -> Result<String, String> {
    match file {
        None | Some("-") => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok(s)
        }
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}")),
    }
}

/// Serialises an answer. The model answers only finite numbers (it validates its inputs and
/// says "not defined here" where a result would not be finite); serde_json would write a
/// stray NaN as `null`, which reads as "not given", so one that slips through is an error
/// naming where it is.
pub fn to_json<T: serde::Serialize>(v: &T) -> Result<serde_json::Value, String> {
    if let Some(path) = crate::model::finite::first_non_finite(v) {
        return Err(format!("{path}: the answer is not a finite number here; the inputs are outside the range this calculator can answer"));
    }
    serde_json::to_value(v).map_err(|e| format!("could not encode the answer: {e}"))
}

/// How a JSON value is called in messages ("a list", "a number").
pub use crate::model::extrap::json_kind as kind;

/// An object whose keys are all among `allowed`; `path` names it in messages.
pub fn object(v: Value, path: &str, allowed: &[&str]) -> Result<Map<String, Value>, String> {
    let Value::Object(m) = v else {
        return Err(format!("{path}: expected an object, found {}", kind(&v)));
    };
    if let Some(k) = m.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(format!("{path}: unknown key \"{k}\"; expected {}", allowed.join(", ")));
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_list_written_item_by_item_is_serde_json_s_text() {
        // `batch` writes a list of two or more as `list_text` of its items' `item_text`s; the
        // rest goes through `one_text`.
        let item = |i: i32| json!({"n": i, "fits": [{"model": "downey", "sse": 0.1 * f64::from(i), "notes": ["a \"quoted\"\nline", ""]}], "empty": [], "none": {}});
        let lists: [Vec<Value>; 3] = [(0..40).map(item).collect(), vec![item(1), item(2)], vec![json!([1, [2, []]]), json!({"a": [{}]}), json!("x\ny"), Value::Null]];
        for items in lists {
            let v = Value::Array(items.clone());
            for compact in [true, false] {
                let texts: Vec<String> = items.iter().map(|x| item_text(x, compact).unwrap()).collect();
                let text: String = list_text(&texts, compact).collect();
                let want = if compact { serde_json::to_string(&v) } else { serde_json::to_string_pretty(&v) };
                assert_eq!(text, want.unwrap(), "{v}");
            }
        }
        for v in [json!([]), json!([item(1)]), item(3)] {
            assert_eq!(one_text(&v, true).unwrap(), serde_json::to_string(&v).unwrap());
            assert_eq!(one_text(&v, false).unwrap(), serde_json::to_string_pretty(&v).unwrap(), "{v}");
        }
    }
}

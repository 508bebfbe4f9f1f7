//! The native `scalewise` command: `scalewise <calculator> [FILE]` reads one JSON document
//! from FILE (or standard input when FILE is absent or `-`) and writes one JSON document to
//! standard output. Bad input: exit status 1 and one line on standard error naming what is
//! wrong; bad usage: exit status 2.

use std::io::Read;

use serde_json::value::RawValue;

pub use answer::{emit, Reply};

pub use crate::model::InputError;

mod allocation;
mod answer;
mod bottlenecks;
mod catalog;
mod cluster;
mod comm;
mod multigrid;
mod regions;
pub mod request;
pub mod schema;
mod simulate;
mod sites;
mod speedup;
mod transfer;
mod transfer_validate;
mod validate;

/// One calculator of the command line.
pub struct Subcommand {
    pub name: &'static str,
    pub summary: &'static str,
    /// Full help: input keys, output keys, an example.
    pub help: &'static str,
    pub run: Run,
    /// False for calculators that take no input (they do not wait for standard input).
    pub reads_input: bool,
    /// For calculators that take a list of inputs: one element's answer as text (a problem
    /// as `{"error": "..."}`), written by [`Render::item`]. A list is then answered, tabled and
    /// written element by element on every core (`batch`).
    pub each: Option<Each>,
    /// Its JSON input and answer as types, printed by `scalewise schema`.
    pub schema: Schemas,
}

/// A subcommand that reads one JSON request and writes one answer, as types: the request is
/// read once from the input ([`request::read`], which names the JSON path of a wrong key),
/// computed, and its answer written from a record that borrows what was computed. Its
/// [`Subcommand::run`] and [`Subcommand::schema`] are made from it ([`run_command`],
/// [`schemas_of`]), so the schema printed is that of the types read and written.
pub trait Command {
    /// What the JSON input holds.
    type Request: serde::de::DeserializeOwned + schemars::JsonSchema;
    /// What was computed from a request, kept while its answer is written.
    type Computed;
    /// The answer, borrowing what was computed.
    type Answer<'a>: serde::Serialize + schemars::JsonSchema;
    /// The request's values checked (the page's limits, naming the key) and computed.
    fn compute(request: Self::Request) -> Result<Self::Computed, InputError>;
    /// The answer to write.
    fn answer(computed: &Self::Computed) -> Self::Answer<'_>;
    /// `--allocation`'s table from what was computed and what to say when it has no rows
    /// ([`allocation::table`]); None for a command that takes no such option.
    fn allocation(
        _computed: &Self::Computed,
        _options: &crate::model::allocation::AllocationOptions,
    ) -> allocation::Table {
        None
    }
}

/// A [`Command`] whose computed value is its answer, owned:
/// `answered_command!(Name, Request, Answer, compute)` with `compute: fn(Request) ->
/// Result<Answer, InputError>`.
macro_rules! answered_command {
    ($name:ident, $request:ty, $answer:ty, $compute:expr) => {
        struct $name;

        impl super::Command for $name {
            type Request = $request;
            type Computed = $answer;
            type Answer<'a> = &'a $answer;

            fn compute(request: $request) -> Result<$answer, InputError> {
                $compute(request)
            }

            fn answer(answer: &$answer) -> &$answer {
                answer
            }
        }
    };
}
use answered_command;

/// [`Subcommand::run`] of a [`Command`]: the input read as its request, computed, and kept
/// with its allocation table when asked; its answer is made from it as it is written.
pub fn run_command<C: Command + 'static>(input: &str, options: &[(String, String)]) -> Result<Reply, InputError>
where
    C::Computed: 'static,
{
    let computed = C::compute(request::read_text::<C::Request>(input)?)?;
    let allocation = allocation::table(options, |o| C::allocation(&computed, o))?;
    Ok(Reply::new(Computed::<C> { computed, allocation }))
}

/// What a [`Command`] computed, written as its answer ([`Command::answer`]) with its table.
struct Computed<C: Command> {
    computed: C::Computed,
    allocation: Option<allocation::AllocationOut>,
}

impl<C: Command> serde::Serialize for Computed<C> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        answer::Tabled { answer: C::answer(&self.computed), allocation: self.allocation.as_ref() }.serialize(s)
    }
}

/// [`Subcommand::schema`] of a [`Command`]: its request's and its answer's types.
pub const fn schemas_of<C: Command>() -> Schemas {
    Schemas { input: Some(request::input_schema::<C::Request>), output: request::output_schema::<C::Answer<'static>> }
}

/// See [`Subcommand::run`]: (the input's JSON text, its syntax checked ([`check_json`]);
/// options such as ("--allocation", "md")) → the answer.
pub type Run = fn(&str, &[(String, String)]) -> Result<Reply, InputError>;

/// See [`Subcommand::each`]: (one element's JSON text, how answers are rendered) → its
/// answer as text.
pub type Each = fn(&str, &Render) -> Result<String, InputError>;

/// A subcommand's JSON Schemas (draft 2020-12), made from its request and answer types: the
/// input is None for a subcommand that reads no JSON (raw text, or nothing).
#[derive(Clone, Copy)]
pub struct Schemas {
    pub input: Option<fn() -> schemars::Schema>,
    pub output: fn() -> schemars::Schema,
}

/// Builds [`SUBCOMMANDS`] from the table of calculators (`crate::calculator_table!`).
macro_rules! subcommands {
    ($($row:ident $key:literal $title:literal $answers:literal $seed:literal [$($model:tt)*] [$($page:tt)*] [$($commands:tt)*])*) => {
        /// Every subcommand: the catalog's, then each calculator's, in the table's order, then
        /// `cluster` (the catalog's too; last, so that the fuzz seeds' subcommand indices hold).
        pub const SUBCOMMANDS: &[Subcommand] = &[catalog::COMMAND, $($($commands)*,)* cluster::COMMAND];

        /// Each calculator with its subcommands, in the table's order.
        pub const CALCULATOR_COMMANDS: &[(&crate::model::calculators::Calculator, &[Subcommand])] =
            &[$((&crate::model::calculators::$row, &[$($commands)*])),*];
    };
}

crate::calculator_table!(subcommands);

/// (format, text, options such as ("--predict", "256,1024")) → the answer.
pub type RawRun = fn(&str, &str, &[(String, String)]) -> Result<Reply, InputError>;

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
    /// Checks the options' values before the input is read, with the format named by
    /// `--format` (None: not named): a bad one is a usage error.
    pub check: Option<RawCheck>,
}

/// See [`RawInput::check`]: (format named by `--format`, options) → a usage error or none.
pub type RawCheck = fn(Option<&str>, &[(String, String)]) -> Result<(), InputError>;

/// Why an answer was not written: the input's fault (exit 1, one line), or the output's.
#[derive(Debug)]
pub enum WriteError {
    Input(InputError),
    Output(std::io::Error),
}

/// An error as the command says it, on standard error and as a list element's `{"error"}`:
/// "field: line L, column C: what is wrong", or the sentence alone for one no single key or
/// option is the subject of ([`unplaced`]).
pub fn said(e: &InputError) -> String {
    if e.field.is_empty() {
        e.local_text()
    } else {
        e.to_string()
    }
}

/// `cmd` run on `v`'s JSON text, as the command line passes it, its answer as a JSON value
/// (for the subcommands' tests).
#[cfg(test)]
fn run_json(
    cmd: &Subcommand,
    v: serde_json::Value,
    opts: &[(String, String)],
) -> Result<serde_json::Value, InputError> {
    (cmd.run)(&v.to_string(), opts).map(|r| r.value())
}

/// An error whose sentence names what it concerns itself (a file that cannot be read, an
/// option given where it does not apply): no field is put before it.
pub fn unplaced(message: impl Into<String>) -> InputError {
    InputError::new("", message)
}

/// Several errors as one: the one alone, or every one's words ([`said`]) joined by "; ".
pub fn joined(errors: &[InputError]) -> InputError {
    match errors {
        [one] => one.clone(),
        _ => unplaced(errors.iter().map(said).collect::<Vec<_>>().join("; ")),
    }
}

/// The input is no JSON: serde_json's words, with the line and column they name.
pub fn not_json(e: serde_json::Error) -> InputError {
    unplaced(format!("input is not valid JSON: {e}"))
}

/// The exit status of a write: 0 when written, or when the reader has gone away (`scalewise …
/// | head` is not an error of ours); 1 with a message when the output failed (a full disk,
/// `> /dev/full`), so a script never keeps a cut answer for a whole one.
pub(super) fn written(command: &str, r: Result<(), WriteError>) -> i32 {
    match r {
        Ok(()) => 0,
        Err(WriteError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(WriteError::Output(e)) => {
            eprintln!("scalewise {command}: could not write the answer: {e}");
            1
        }
        Err(WriteError::Input(e)) => {
            eprintln!("scalewise {command}: {}", said(&e).replace('\n', " "));
            1
        }
    }
}

const RAW_INPUTS: &[RawInput] = &[comm::RAW, bottlenecks::RAW, bottlenecks::BOTTLENECKS, cluster::RAW];

fn main_help() -> String {
    let mut s = String::from(
        "scalewise — predict parallel program performance from a few cheap runs\n\n\
         USAGE:\n    scalewise <calculator> [FILE|-] [--compact] [--format NAME] [-o OUT]\n    scalewise <calculator> --help\n\n\
         Reads one JSON document from FILE, or from standard input when FILE is absent or '-',\n\
         and writes the answer as JSON to standard output (pretty-printed unless --compact).\n\
         --format NAME reads raw text of that format instead of JSON (comm: osu, osu_bw, imb, table;\n\
         speedup: table, the page's pasted points table; extrap, an Extra-P experiment in text, JSON,\n\
         JSON Lines or Talpas, also recognised without it; cluster: scontrol, sinfo or lscpu, the\n\
         output of those commands, always read as text and recognised without it).\n\
         speedup and multigrid: --allocation md|csv|latex adds an allocation-request table (see their --help).\n\
         --export NAME (comm) writes a file for another tool instead of JSON:\n\
         {export_keys}.\n\
         -o OUT (or --output OUT) writes the answer to the file OUT instead: through a temporary\n\
         file beside it, renamed over OUT only when the whole answer is written, so a failure\n\
         leaves OUT as it was.\n\
         '--' ends the options: a FILE whose name starts with '-' goes after it.\n\
         On bad input it exits with status 1 and prints one line naming what is wrong;\n\
         on bad usage (an unknown option, a bad option value, an option that does not apply),\n\
         status 2.\n\nCALCULATORS:\n",
    );
    for c in SUBCOMMANDS {
        s.push_str(&format!("    {:<16}{}\n", c.name, c.summary));
    }
    s.push_str("\nCHECKS:\n    validate        measured accuracy of the speed-up predictions on real scaling data\n                    (--transfer: of transfers to another machine)\n");
    s.push_str("\nCONTRACT:\n    schema          the JSON Schema of every calculator's input and answer\n");
    s.push_str("\nRun 'scalewise <calculator> --help' for its input and output keys.\n");
    help_words(&s)
}

/// A help text with its lists written from their one definitions: the broadcast algorithms, the
/// speed-up models and the profilers read.
fn help_words(text: &str) -> String {
    bottlenecks::help_words(&speedup::help_words(&comm::help_words(text)))
}

/// Writes to the output (see [`written`] for what a failed write means).
pub fn write_out(text: &str) -> Result<(), WriteError> {
    use std::io::Write;
    let mut out = Out;
    out.write_all(text.as_bytes()).and_then(|_| out.flush()).map_err(WriteError::Output)
}

/// With `-o FILE`: the temporary file beside FILE that answers are written to, renamed over
/// FILE once the command has succeeded ([`run`]).
static TO_FILE: std::sync::Mutex<Option<std::fs::File>> = std::sync::Mutex::new(None);

/// Where answers go: standard output, or the temporary file of `-o FILE`.
pub struct Out;

impl std::io::Write for Out {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match TO_FILE.lock().map_err(|_| std::io::Error::other("the output was lost"))?.as_mut() {
            Some(f) => f.write(buf),
            None => std::io::stdout().write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match TO_FILE.lock().map_err(|_| std::io::Error::other("the output was lost"))?.as_mut() {
            Some(f) => f.flush(),
            None => std::io::stdout().flush(),
        }
    }
}

/// Takes `-o FILE` / `--output FILE` (before any `--`) out of `args`: the other arguments
/// and FILE (None without it, or for `-o -`), or a usage error.
fn output_option(args: &[String]) -> Result<(Vec<String>, Option<String>), InputError> {
    let (mut rest, mut path) = (Vec::with_capacity(args.len()), None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let value = match a.as_str() {
            "--" => {
                rest.push(a.clone());
                rest.extend(it.by_ref().cloned());
                break;
            }
            "-o" | "--output" => it.next().cloned().ok_or_else(|| unplaced(format!("{a} needs a file name")))?,
            other if other.starts_with("--output=") => other["--output=".len()..].to_string(),
            _ => {
                rest.push(a.clone());
                continue;
            }
        };
        if path.replace(value).is_some() {
            return Err(unplaced("-o given more than once"));
        }
    }
    Ok((rest, path.filter(|p| p != "-")))
}

/// Runs the command with the arguments after the program name; returns the exit status.
/// With `-o FILE` the answer is written to a temporary file beside FILE and renamed over it
/// only when the command succeeds, so a failure (bad input, a full disk) leaves FILE as it
/// was and no partial file.
pub fn run(args: &[String]) -> i32 {
    let (args, path) = match output_option(args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("scalewise: {}; see 'scalewise --help'", said(&e));
            return 2;
        }
    };
    let Some(path) = path else { return run_to_output(&args) };
    let target = std::path::Path::new(&path);
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temp = target.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&temp) {
        Ok(f) => *TO_FILE.lock().unwrap_or_else(|e| e.into_inner()) = Some(f),
        Err(e) => {
            eprintln!("scalewise: cannot write '{path}': {e}");
            return 1;
        }
    }
    let mut status = run_to_output(&args);
    let file = TO_FILE.lock().unwrap_or_else(|e| e.into_inner()).take();
    if status == 0 {
        let kept = file.map_or(Ok(()), |f| f.sync_all()).and_then(|()| std::fs::rename(&temp, target));
        if let Err(e) = kept {
            eprintln!("scalewise: cannot write '{path}': {e}");
            status = 1;
        }
    }
    if status != 0 {
        let _ = std::fs::remove_file(&temp);
    }
    status
}

/// A subcommand's command line, read by [`read_args`]: the input file, the options every
/// subcommand has, and the options of its raw formats and allocation tables (name, value).
struct Invocation<'a> {
    file: Option<&'a str>,
    compact: bool,
    format: Option<&'a str>,
    export: Option<&'a str>,
    options: Vec<(String, String)>,
}

/// Reads the arguments after a subcommand's name; Err(status) when they ask for its help
/// (written) or are bad usage (said on standard error, status 2).
fn read_args<'a>(cmd: &Subcommand, raw_input: Option<&RawInput>, args: &'a [String]) -> Result<Invocation<'a>, i32> {
    let mut file: Option<&str> = None;
    let mut compact = false;
    let mut format: Option<&str> = None;
    let mut options: Vec<(String, String)> = Vec::new();
    let mut export: Option<&str> = None;
    let mut rest = args.iter();
    // After "--" every argument is a file name, even one that starts with "-".
    let mut options_ended = false;
    while let Some(a) = rest.next() {
        // A file: anything after "--", "-" (standard input) and what is no option.
        if options_ended || a == "-" || !a.starts_with('-') {
            if file.is_some() {
                eprintln!("scalewise {}: more than one input file given", cmd.name);
                return Err(2);
            }
            file = Some(a.as_str());
            continue;
        }
        match a.as_str() {
            "--" => options_ended = true,
            "--help" | "-h" => {
                return Err(written(cmd.name, write_out(&help_words(cmd.help))));
            }
            "--compact" => compact = true,
            // A flag of `bottlenecks` on Score-P runs (bottlenecks::RUN_OPTIONS).
            "--inclusive" if cmd.name == "bottlenecks" => options.push(("--inclusive".into(), String::new())),
            "--format" => match rest.next() {
                Some(f) => format = Some(f.as_str()),
                None => {
                    eprintln!("scalewise {}: --format needs a name; see 'scalewise {} --help'", cmd.name, cmd.name);
                    return Err(2);
                }
            },
            other if other.starts_with("--format=") => format = Some(&other["--format=".len()..]),
            "--export" => match rest.next() {
                Some(f) => export = Some(f.as_str()),
                None => {
                    eprintln!("scalewise {}: --export needs a name; see 'scalewise {} --help'", cmd.name, cmd.name);
                    return Err(2);
                }
            },
            other if other.starts_with("--export=") => export = Some(&other["--export=".len()..]),
            other
                if raw_input.is_some_and(|r| r.options.contains(&other.split('=').next().unwrap_or(other)))
                    || (allocation::COMMANDS.contains(&cmd.name)
                        && allocation::OPTIONS.contains(&other.split('=').next().unwrap_or(other))) =>
            {
                let value = match other.split_once('=') {
                    Some((_, v)) => v.to_string(),
                    None => match rest.next() {
                        Some(v) => v.clone(),
                        None => {
                            eprintln!(
                                "scalewise {}: {other} needs a value; see 'scalewise {} --help'",
                                cmd.name, cmd.name
                            );
                            return Err(2);
                        }
                    },
                };
                options.push((other.split('=').next().unwrap_or(other).to_string(), value));
            }
            // "-q" and the like are options this command lacks (a file of that name is passed
            // after "--").
            other => {
                eprintln!("scalewise {}: unknown option '{other}'; see 'scalewise {} --help' (a file whose name starts with '-' goes after '--')", cmd.name, cmd.name);
                return Err(2);
            }
        }
    }
    Ok(Invocation { file, compact, format, export, options })
}

fn run_to_output(args: &[String]) -> i32 {
    let Some(first) = args.first() else {
        eprint!("{}", main_help());
        return 2;
    };
    if first == "--help" || first == "-h" || first == "help" {
        return written("help", write_out(&main_help()));
    }
    if first == "validate" {
        return validate::run(&args[1..]);
    }
    if first == "schema" {
        return schema::run(&args[1..]);
    }
    if first == "catalog" && args[1..].iter().any(|a| a == "--csv" || a == "--machines") {
        return catalog::run_csv(&args[1..]);
    }
    if first == "--version" || first == "-V" {
        return written("--version", write_out(&format!("scalewise {}\n", env!("CARGO_PKG_VERSION"))));
    }
    let Some(cmd) = SUBCOMMANDS.iter().find(|c| c.name == first) else {
        eprintln!("scalewise: unknown calculator '{first}'; run 'scalewise --help' for the list");
        return 2;
    };
    let raw_input = RAW_INPUTS.iter().find(|r| r.command == cmd.name);
    let Invocation { file, compact, format, export, options } = match read_args(cmd, raw_input, &args[1..]) {
        Ok(i) => i,
        Err(status) => return status,
    };
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
    if let Some(Err(e)) = raw_input.and_then(|r| r.check).map(|check| check(format, &options)) {
        eprintln!("scalewise {}: {}", cmd.name, said(&e));
        return 2;
    }
    if allocation::COMMANDS.contains(&cmd.name) {
        if let Err(e) = allocation::check(&options) {
            eprintln!("scalewise {}: {}", cmd.name, said(&e));
            return 2;
        }
    }
    let export = match export {
        None => None,
        Some(_) if cmd.name != "comm" => {
            eprintln!("scalewise {}: --export is an option of 'scalewise comm' only", cmd.name);
            return 2;
        }
        Some(e) => match crate::model::comm::export::ExportFormat::from_key(e) {
            Some(f) => Some(f),
            None => {
                eprintln!(
                    "scalewise comm: unknown export '{e}'; expected {}",
                    crate::model::comm::export::ExportFormat::expected()
                );
                return 2;
            }
        },
    };
    // A folder of Score-P runs, a Cube profile or a saved Extra-P experiment: read as such,
    // not as text.
    if let (Some(path), "bottlenecks") = (file.filter(|f| *f != "-"), cmd.name) {
        if bottlenecks::is_binary_path(path) {
            let reply = bottlenecks::run_path(path, &options).map_err(WriteError::Input);
            return written(cmd.name, reply.and_then(|r| emit(&mut Out, &*r, compact)));
        }
    }
    let text = if cmd.reads_input || file.is_some() {
        match read_input(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("scalewise {}: {}", cmd.name, said(&e));
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
                return written(cmd.name, batch(each, &text, &items, &options, compact));
            }
        }
    }
    // `comm --export NAME`: the file for the other tool, not JSON.
    if let Some(e) = export {
        return match comm::export(raw.map(|(_, f)| f), &text, e) {
            Ok(t) => written(cmd.name, write_out(&t)),
            Err(e) => {
                eprintln!("scalewise {}: {}", cmd.name, said(&e).replace('\n', " "));
                1
            }
        };
    }
    let answer = match raw {
        Some((r, f)) => (r.run)(f, &text, &options),
        None => match check_json(&text) {
            Ok(()) => (cmd.run)(&text, &options),
            Err(e) => {
                eprintln!("scalewise {}: {}", cmd.name, said(&e));
                return 1;
            }
        },
    };
    match answer {
        Ok(reply) => written(cmd.name, emit(&mut Out, &*reply, compact)),
        Err(e) => {
            eprintln!("scalewise {}: {}", cmd.name, said(&e).replace('\n', " "));
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

/// The brackets and separator of a list's text as serde_json writes it: (open, between, close).
fn list_marks(compact: bool) -> (&'static str, &'static str, &'static str) {
    if compact {
        ("[", ",", "]")
    } else {
        ("[\n", ",\n", "\n]")
    }
}

/// The pieces of a list's text, its items' texts (`item_text`) between [`list_marks`], as
/// [`batch`] writes them.
#[cfg(test)]
fn list_text(items: &[String], compact: bool) -> impl Iterator<Item = &str> {
    let (open, sep, close) = list_marks(compact);
    let body = items.iter().enumerate().flat_map(move |(i, t)| [if i == 0 { "" } else { sep }, t.as_str()]);
    std::iter::once(open).chain(body).chain(std::iter::once(close))
}

/// How [`batch`] writes one element's answer.
pub struct Render<'a> {
    options: &'a [(String, String)],
    compact: bool,
}

impl Render<'_> {
    /// The element's text in the list: the answer, with the allocation table the options ask
    /// for (`table`, [`allocation::table`]), checked finite as [`emit`] checks a whole answer
    /// (an element holding a NaN is answered `{"error"}` naming where, as a bad element is).
    pub fn item<T: serde::Serialize>(
        &self,
        answer: &T,
        table: impl FnOnce(&crate::model::allocation::AllocationOptions) -> allocation::Table,
    ) -> Result<String, InputError> {
        let allocation = allocation::table(self.options, table)?;
        let item = answer::Tabled { answer, allocation: allocation.as_ref() };
        let cannot = |e: serde_json::Error| unplaced(format!("could not write the answer: {e}"));
        match answer::Answer::non_finite(&item) {
            None => item_text(&item, self.compact).map_err(cannot),
            Some(path) => {
                let error = said(&InputError::new(path, answer::NOT_FINITE));
                item_text(&ErrorItem { error }, self.compact).map_err(cannot)
            }
        }
    }
}

// A list element that could not be answered, in the list: `{"error": "..."}` ([`said`]).
/// An element of a list that could not be answered.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct ErrorItem {
    pub error: String,
}

/// A list input of a calculator with `each`: every element read, answered, given its allocation
/// table (`--allocation`) and written as text on one thread, the elements (their JSON text)
/// shared among every core; each text goes to standard output, in the input's order, as soon
/// as it and those before it are written ([`crate::parallel::stream`]). Only the texts
/// outlive their thread, and only until written, so a batch of thousands holds neither its
/// inputs as values nor its answers in memory.
fn batch(
    each: Each,
    text: &str,
    items: &[&RawValue],
    options: &[(String, String)],
    compact: bool,
) -> Result<(), WriteError> {
    let how = Render { options, compact };
    // Every element is read once before any answer is written, so an input error (a number out
    // of range, past the syntax check) leaves no partial list; the whole text's error says
    // where (line and column in the input, not in the element). This thread reads them while
    // the others already answer.
    let scan = || match items.iter().find_map(|raw| serde_json::from_str::<Scan>(raw.get()).err()) {
        Some(e) => Err(WriteError::Input(not_json(serde_json::from_str::<Scan>(text).err().unwrap_or(e)))),
        None => Ok(()),
    };
    // Each element read once, straight into its request, on the core that answers it.
    let read = |raw: &&RawValue| each(raw.get(), &how);
    use std::io::Write;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, Out);
    let (open, sep, close) = list_marks(compact);
    // The list opens with the first answer, so an error of the options (the same for every
    // element, and so the first's) writes nothing.
    let mut written = 0usize;
    let mut write = |t: Result<String, InputError>| {
        let t = t.map_err(WriteError::Input)?;
        let mark = if written == 0 { open } else { sep };
        written += 1;
        out.write_all(mark.as_bytes()).and_then(|_| out.write_all(t.as_bytes())).map_err(WriteError::Output)
    };
    if !crate::parallel::stream(items, crate::parallel::cores(), scan, &read, &mut write)? {
        return Err(WriteError::Input(unplaced(crate::parallel::STOPPED)));
    }
    out.write_all(close.as_bytes())
        .and_then(|_| out.write_all(b"\n"))
        .and_then(|_| out.flush())
        .map_err(WriteError::Output)
}

/// Whether `text` is one JSON value serde_json reads (syntax, numbers in f64's range), found
/// without building it: the error says where in the text.
pub fn check_json(text: &str) -> Result<(), InputError> {
    serde_json::from_str::<Scan>(text).map(|_| ()).map_err(not_json)
}

/// A JSON value read and dropped as it is read, nothing kept: what serde_json finds wrong in
/// a text whose syntax is right (a number out of f64's range) without building a tree.
struct Scan;

impl<'de> serde::Deserialize<'de> for Scan {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Scan, D::Error> {
        d.deserialize_any(Scan)
    }
}

impl<'de> serde::de::Visitor<'de> for Scan {
    type Value = Scan;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Scan, E> {
        Ok(Scan)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Scan, E> {
        Ok(Scan)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Scan, E> {
        Ok(Scan)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Scan, E> {
        Ok(Scan)
    }
    fn visit_str<E>(self, _: &str) -> Result<Scan, E> {
        Ok(Scan)
    }
    fn visit_unit<E>(self) -> Result<Scan, E> {
        Ok(Scan)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Scan, A::Error> {
        while seq.next_element::<Scan>()?.is_some() {}
        Ok(Scan)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Scan, A::Error> {
        while map.next_entry::<serde::de::IgnoredAny, Scan>()?.is_some() {}
        Ok(Scan)
    }
}

/// The input's text, without the byte-order mark some editors (Windows Notepad among them)
/// put first: it is no part of JSON, CSV or Extra-P's text, and lines and columns in errors
/// then count from what the editor shows.
fn read_input(file: Option<&str>) -> Result<String, InputError> {
    let text = match file {
        None | Some("-") => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| unplaced(format!("cannot read standard input: {e}")))?;
            s
        }
        Some(path) => std::fs::read_to_string(path).map_err(|e| unplaced(format!("cannot read '{path}': {e}")))?,
    };
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// A count kept as f64, written as an integer when whole (a number in the schema).
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(transparent)]
pub struct Whole(#[serde(serialize_with = "crate::model::finite::whole")] pub f64);

/// A "predict" list of at most `most` elements (one shared message for every calculator's
/// limit on what it predicts at); `what` names the elements.
pub fn at_most<'a, T>(items: &'a [T], most: usize, what: &str) -> Result<&'a [T], InputError> {
    if items.len() > most {
        return Err(InputError::new(
            "predict",
            format!("{} {what} is more than the {most} one input predicts at", items.len()),
        ));
    }
    Ok(items)
}

/// How a JSON value is called in messages ("a list", "a number").
pub use crate::model::bottlenecks::json_kind as kind;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn a_list_written_item_by_item_is_serde_json_s_text() {
        // `batch` writes a list of two or more as `list_text` of its items' `item_text`s; the
        // rest goes through `one_text`.
        let item = |i: i32| json!({"n": i, "fits": [{"model": "downey", "sse": 0.1 * f64::from(i), "notes": ["a \"quoted\"\nline", ""]}], "empty": [], "none": {}});
        let lists: [Vec<Value>; 3] = [
            (0..40).map(item).collect(),
            vec![item(1), item(2)],
            vec![json!([1, [2, []]]), json!({"a": [{}]}), json!("x\ny"), Value::Null],
        ];
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

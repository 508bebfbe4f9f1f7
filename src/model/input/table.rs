//! The one input path for tables, used by every calculator.
//!
//! Accepts what people paste: spreadsheet cells (tab-separated), CSV (comma or semicolon, with
//! quoting), or whitespace-separated text; with or without a header row; units in headers
//! ("time (ms)", "work [GB]", "time_us", "latency µs"). Values come back converted to the
//! unit each column declares, so `time (ms)` = 1500 becomes 1.5 in a seconds column.
//! Lines that are blank or start with `#` are skipped. Every error names the field, the line
//! (1-based, as the user sees it in the text box) and the column (1-based, in characters, where
//! the cell starts: as every page counts columns), and says what was expected.

use crate::model::InputError;

/// Physical kind of a column: decides which units its header may carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// A duration. Units: s, ms, us/µs, ns, min, h.
    Time,
    /// An amount of data. Units: B, KB, MB, GB (binary: 1 MB = 2^20 bytes, as the spec says).
    Size,
    /// A plain number (a count, a ratio); a unit in its header is an error.
    Plain,
}

/// A unit a column is stored in, as a factor against the quantity's base (seconds or bytes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unit {
    pub symbol: &'static str,
    pub factor: f64,
}

pub const SECONDS: Unit = Unit { symbol: "s", factor: 1.0 };
pub const MILLISECONDS: Unit = Unit { symbol: "ms", factor: 1e-3 };
pub const MICROSECONDS: Unit = Unit { symbol: "µs", factor: 1e-6 };
pub const BYTES: Unit = Unit { symbol: "B", factor: 1.0 };
pub const MEGABYTES: Unit = Unit { symbol: "MB", factor: 1048576.0 };
pub const PLAIN: Unit = Unit { symbol: "", factor: 1.0 };

const TIME_UNITS: &[(&str, f64)] = &[
    ("s", 1.0),
    ("sec", 1.0),
    ("secs", 1.0),
    ("seconds", 1.0),
    ("ms", 1e-3),
    ("msec", 1e-3),
    ("us", 1e-6),
    ("µs", 1e-6),
    ("μs", 1e-6),
    ("usec", 1e-6),
    ("ns", 1e-9),
    ("min", 60.0),
    ("h", 3600.0),
];

const SIZE_UNITS: &[(&str, f64)] = &[
    ("b", 1.0),
    ("bytes", 1.0),
    ("byte", 1.0),
    ("kb", 1024.0),
    ("kib", 1024.0),
    ("mb", 1048576.0),
    ("mib", 1048576.0),
    ("gb", 1073741824.0),
    ("gib", 1073741824.0),
];

/// One column a calculator expects.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColumnSpec {
    /// Canonical name, shown in messages and used when there is no header ("time").
    pub name: &'static str,
    /// Other header words accepted for this column, lower case ("t", "seconds").
    pub aliases: &'static [&'static str],
    pub quantity: Quantity,
    /// The unit values are returned in, and assumed when a header gives none.
    pub unit: Unit,
    /// A missing optional column gives `None` in every row.
    pub required: bool,
    /// Values must be whole numbers (process counts).
    pub integer: bool,
}

impl ColumnSpec {
    pub const fn new(name: &'static str, quantity: Quantity, unit: Unit) -> Self {
        ColumnSpec { name, aliases: &[], quantity, unit, required: true, integer: false }
    }
    pub const fn aliases(mut self, aliases: &'static [&'static str]) -> Self {
        self.aliases = aliases;
        self
    }
    pub const fn optional(mut self) -> Self {
        self.required = false;
        self
    }
    pub const fn integer(mut self) -> Self {
        self.integer = true;
        self
    }
    /// Label for a header or a table heading: "time (s)".
    pub fn label(&self) -> String {
        if self.unit.symbol.is_empty() {
            self.name.to_string()
        } else {
            format!("{} ({})", self.name, self.unit.symbol)
        }
    }
}

/// One data row: values in the order of the `ColumnSpec`s, in each column's unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// 1-based line in the pasted text.
    pub line: usize,
    pub values: Vec<Option<f64>>,
    /// For each `ColumnSpec`, the 1-based character column where its cell starts on the line
    /// (past the line's end where the cell is missing), for errors about a value.
    pub columns: Vec<usize>,
}

/// The 1-based character columns where each whitespace-separated field of `line` starts, and
/// the column just past the line's end (where a missing field would be): the column an error
/// about a field names, on every page.
pub fn field_columns(line: &str) -> (Vec<usize>, usize) {
    let mut starts = Vec::new();
    let mut previous_blank = true;
    let mut count = 0;
    for (i, c) in line.chars().enumerate() {
        if !c.is_whitespace() && previous_blank {
            starts.push(i + 1);
        }
        previous_blank = c.is_whitespace();
        count = i + 1;
    }
    (starts, count + 1)
}

/// The 1-based character columns where each cell of a delimited line starts (a delimiter in
/// quotes is no boundary), and the column just past its end.
fn delimited_columns(line: &str, delimiter: char) -> (Vec<usize>, usize) {
    // Each cell's start, moved past the blanks it opens with (the cell is read trimmed).
    let mut starts = vec![1];
    let mut blank = true;
    let mut quoted = false;
    let mut count = 0;
    for (i, c) in line.chars().enumerate() {
        if c == delimiter && !quoted {
            starts.push(i + 2);
            blank = true;
        } else if blank && !c.is_whitespace() {
            if let Some(last) = starts.last_mut() {
                *last = i + 1;
            }
            blank = false;
        }
        if c == '"' {
            quoted = !quoted;
        }
        count = i + 1;
    }
    (starts, count + 1)
}

/// A parsed table.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub rows: Vec<Row>,
    /// Whether the first data line was read as a header.
    pub had_header: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Separator {
    Tab,
    Comma,
    Semicolon,
    Whitespace,
}

/// Parses `text` as a table with the given columns. `field` names the input in messages.
pub fn parse_table(field: &str, text: &str, columns: &[ColumnSpec]) -> Result<Table, InputError> {
    records(text).table(field, columns)
}

/// A text split into its records once, to be read under more than one set of columns (the
/// speed-up table: its header, or its guessed second column) without splitting it again.
#[derive(Debug, Clone)]
pub struct Records {
    lines: Vec<(usize, Vec<String>, Columns)>,
}

/// Where each cell of a line starts (1-based character columns) and where the line ends.
#[derive(Debug, Clone)]
struct Columns {
    starts: Vec<usize>,
    end: usize,
}

impl Columns {
    /// The column of cell `i` (0-based), or past the line's end where there is none.
    fn of(&self, i: usize) -> usize {
        self.starts.get(i).copied().unwrap_or(self.end)
    }
}

/// Splits `text` into [`Records`] (a quoted cell left open runs to the end of its line).
pub fn records(text: &str) -> Records {
    Records { lines: split_records(text) }
}

impl Records {
    /// Whether the first record is a header: a first line with no number in it (a line of
    /// numbers with one bad cell is data with a mistake, and is reported as such).
    pub fn has_header(&self) -> bool {
        self.lines.first().is_some_and(|(_, cells, _)| !cells.iter().any(|c| parse_number(c).is_some()))
    }

    /// The records read as a table with the given columns, as [`parse_table`] reads a text.
    pub fn table(&self, field: &str, columns: &[ColumnSpec]) -> Result<Table, InputError> {
        let lines = &self.lines;
        let Some((first_line, first_cells, first_columns)) = lines.first() else {
            return Ok(Table { rows: Vec::new(), had_header: false });
        };
        let had_header = self.has_header();
        // mapping[i] = (spec index, conversion factor into the spec's unit) for table column i.
        let mapping: Vec<Option<(usize, f64)>> = if had_header {
            header_mapping(field, *first_line, first_cells, first_columns, columns)?
        } else {
            positional_mapping(field, *first_line, first_cells.len(), first_columns, columns)?
        };
        let mut rows = Vec::new();
        for (line, cells, at) in lines.iter().skip(usize::from(had_header)) {
            if cells.len() > mapping.len() {
                return Err(InputError::new(
                    field,
                    format!("{} values on this line but {} columns in the table", cells.len(), mapping.len()),
                )
                .at(*line, Some(at.of(mapping.len()))));
            }
            let mut values = vec![None; columns.len()];
            let mut spec_columns = vec![at.end; columns.len()];
            for (col, map) in mapping.iter().enumerate() {
                let Some((spec_idx, factor)) = *map else { continue };
                let spec = &columns[spec_idx];
                spec_columns[spec_idx] = at.of(col);
                let cell = cells.get(col).map(|c| c.trim()).unwrap_or("");
                if cell.is_empty() {
                    if spec.required {
                        return Err(InputError::new(field, format!("missing value for {}", spec.label()))
                            .at(*line, Some(at.of(col))));
                    }
                    continue;
                }
                let Some(x) = parse_number(cell) else {
                    return Err(InputError::new(
                        field,
                        format!("expected a number for {}, found \"{}\"", spec.label(), shorten(cell)),
                    )
                    .at(*line, Some(at.of(col))));
                };
                // The unit is applied before the check: -1e306 GB is not a finite number of bytes.
                let v = x * factor;
                if !v.is_finite() {
                    return Err(InputError::new(
                        field,
                        format!("{} in {} is too large a number", shorten(cell), spec.label()),
                    )
                    .at(*line, Some(at.of(col))));
                }
                if spec.integer && (v.fract() != 0.0 || v.abs() > u32::MAX as f64) {
                    return Err(InputError::new(
                        field,
                        format!("expected a whole number for {}, found \"{}\"", spec.name, shorten(cell)),
                    )
                    .at(*line, Some(at.of(col))));
                }
                values[spec_idx] = Some(v);
            }
            rows.push(Row { line: *line, values, columns: spec_columns });
        }
        Ok(Table { rows, had_header })
    }
}

/// Splits the text into non-blank, non-comment records of cells, with their 1-based lines.
fn split_records(text: &str) -> Vec<(usize, Vec<String>, Columns)> {
    let data_lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((_, sample)) = data_lines.clone().next() else {
        return Vec::new();
    };
    let sep = if sample.contains('\t') {
        Separator::Tab
    } else if sample.contains(',') {
        Separator::Comma
    } else if sample.contains(';') {
        Separator::Semicolon
    } else {
        Separator::Whitespace
    };
    let mut out = Vec::new();
    for (line, l) in data_lines {
        let (cells, (starts, end)) = match sep {
            Separator::Whitespace => (whitespace_cells(l), whitespace_columns(l)),
            Separator::Tab => (split_delimited(l, b'\t'), delimited_columns(l, '\t')),
            Separator::Comma => (split_delimited(l, b','), delimited_columns(l, ',')),
            Separator::Semicolon => (split_delimited(l, b';'), delimited_columns(l, ';')),
        };
        out.push((line, cells, Columns { starts, end }));
    }
    out
}

/// The cells of a whitespace-separated line; a unit in brackets after a header name belongs to
/// it (`n time (s)` is the columns `n` and `time (s)`).
fn whitespace_cells(l: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for cell in l.split_whitespace() {
        match out.last_mut() {
            Some(last) if cell.starts_with(['(', '[']) => {
                last.push(' ');
                last.push_str(cell);
            }
            _ => out.push(cell.to_string()),
        }
    }
    out
}

/// The columns of [`whitespace_cells`]: a unit in brackets joins the cell before it.
fn whitespace_columns(l: &str) -> (Vec<usize>, usize) {
    let (starts, end) = field_columns(l);
    let fields: Vec<&str> = l.split_whitespace().collect();
    let kept = starts
        .iter()
        .zip(&fields)
        .enumerate()
        .filter(|(i, (_, f))| *i == 0 || !f.starts_with(['(', '[']))
        .map(|(_, (s, _))| *s)
        .collect();
    (kept, end)
}

/// One line of CSV or TSV, quoted cells ("1,5", "a ""b""") read as the `csv` crate reads
/// them (a test holds the two to the same cells). Split here rather than by the crate: a line
/// of a paste needs no reader, and the pages do not carry the crate (about 4 KB of each
/// page's wasm before compression).
fn split_delimited(l: &str, delimiter: u8) -> Vec<String> {
    let d = char::from(delimiter);
    if !l.contains('"') {
        return l.split(d).map(str::to_string).collect();
    }
    let mut cells = Vec::new();
    let mut cell = String::new();
    // In a quoted part of a cell; a quote just closed it (a second one is a quote inside).
    let (mut quoted, mut closed) = (false, false);
    let mut at_start = true;
    for ch in l.chars() {
        if quoted {
            if ch == '"' {
                quoted = false;
                closed = true;
            } else {
                cell.push(ch);
            }
            continue;
        }
        if ch == '"' && closed {
            // "" inside quotes: one quote, and the quoted part goes on.
            cell.push('"');
            quoted = true;
            closed = false;
            continue;
        }
        closed = false;
        if ch == d {
            cells.push(std::mem::take(&mut cell));
            at_start = true;
        } else if ch == '"' && at_start {
            quoted = true;
            at_start = false;
        } else {
            cell.push(ch);
            at_start = false;
        }
    }
    cells.push(cell);
    cells
}

fn positional_mapping(
    field: &str,
    line: usize,
    width: usize,
    at: &Columns,
    columns: &[ColumnSpec],
) -> Result<Vec<Option<(usize, f64)>>, InputError> {
    let required = columns.iter().filter(|c| c.required).count();
    if width < required {
        let names: Vec<String> = columns.iter().map(|c| c.label()).collect();
        return Err(InputError::new(
            field,
            format!("{width} values but at least {required} expected, in this order: {}", names.join(", ")),
        )
        .at(line, Some(at.end)));
    }
    if width > columns.len() {
        return Err(InputError::new(field, format!("{width} values but at most {} expected", columns.len()))
            .at(line, Some(at.of(columns.len()))));
    }
    Ok((0..columns.len()).map(|i| Some((i, 1.0))).collect())
}

fn header_mapping(
    field: &str,
    line: usize,
    cells: &[String],
    at: &Columns,
    columns: &[ColumnSpec],
) -> Result<Vec<Option<(usize, f64)>>, InputError> {
    let mut mapping = Vec::with_capacity(cells.len());
    for (col, cell) in cells.iter().enumerate() {
        let (name, unit) = split_header(cell);
        let Some(spec_idx) = columns.iter().position(|c| {
            c.name.eq_ignore_ascii_case(&name) || c.aliases.iter().any(|a| a.eq_ignore_ascii_case(&name))
        }) else {
            let names: Vec<&str> = columns.iter().map(|c| c.name).collect();
            return Err(InputError::new(
                field,
                format!("unknown column \"{}\"; expected one of: {}", shorten(cell.trim()), names.join(", ")),
            )
            .at(line, Some(at.of(col))));
        };
        if mapping.iter().any(|m: &Option<(usize, f64)>| m.map(|(i, _)| i) == Some(spec_idx)) {
            return Err(InputError::new(field, format!("column \"{}\" appears twice", columns[spec_idx].name))
                .at(line, Some(at.of(col))));
        }
        let spec = &columns[spec_idx];
        let factor = match unit {
            None => 1.0,
            Some(u) => unit_factor(spec, &u).ok_or_else(|| {
                InputError::new(field, format!("unit \"{u}\" does not fit {}; {}", spec.name, expected_units(spec)))
                    .at(line, Some(at.of(col)))
            })?,
        };
        mapping.push(Some((spec_idx, factor)));
    }
    if let Some(missing) =
        columns.iter().enumerate().find(|(i, c)| c.required && !mapping.iter().any(|m| m.map(|(j, _)| j) == Some(*i)))
    {
        return Err(InputError::new(field, format!("the header has no column \"{}\"", missing.1.name)).at(line, None));
    }
    Ok(mapping)
}

fn expected_units(spec: &ColumnSpec) -> String {
    match spec.quantity {
        Quantity::Time => "use s, ms, µs, ns, min or h".into(),
        Quantity::Size => "use B, KB, MB or GB".into(),
        Quantity::Plain => "this column takes no unit".into(),
    }
}

/// Factor converting a value in unit `u` into the spec's unit.
fn unit_factor(spec: &ColumnSpec, u: &str) -> Option<f64> {
    let table = match spec.quantity {
        Quantity::Time => TIME_UNITS,
        Quantity::Size => SIZE_UNITS,
        Quantity::Plain => return None,
    };
    let lower = u.to_ascii_lowercase();
    table.iter().find(|(sym, _)| *sym == lower).map(|(_, f)| f / spec.unit.factor)
}

/// "time (ms)" → ("time", Some("ms")); "time_us" → ("time", Some("us")); "np" → ("np", None).
/// A trailing `_word` is read as a unit only when it is one, so "work_mb" works and
/// "size_bytes" too, while a name like "np_total" stays whole.
fn split_header(cell: &str) -> (String, Option<String>) {
    let c = cell.trim();
    for (open, close) in [('(', ')'), ('[', ']')] {
        if let (Some(a), Some(b)) = (c.find(open), c.rfind(close)) {
            if a < b {
                let name = c[..a].trim().to_ascii_lowercase();
                let unit = c[a + open.len_utf8()..b].trim().to_string();
                return (normalise_name(&name), (!unit.is_empty()).then_some(unit));
            }
        }
    }
    let lower = c.to_ascii_lowercase();
    for sep in ['_', ' ', '/'] {
        if let Some(pos) = lower.rfind(sep) {
            let (name, unit) = (&lower[..pos], &lower[pos + sep.len_utf8()..]);
            let is_unit = TIME_UNITS.iter().chain(SIZE_UNITS).any(|(s, _)| *s == unit);
            if is_unit && !name.trim().is_empty() {
                return (normalise_name(name.trim()), Some(unit.to_string()));
            }
        }
    }
    (normalise_name(&lower), None)
}

fn normalise_name(name: &str) -> String {
    name.split(|ch: char| ch.is_whitespace() || ch == '-').filter(|s| !s.is_empty()).collect::<Vec<_>>().join("_")
}

/// A number as people write it: `1500`, `1.5e3`, `+2`, `1 500` is not accepted (ambiguous).
/// Infinity and NaN spelt out are refused: they are not measurements.
pub fn parse_number(s: &str) -> Option<f64> {
    let t = s.trim();
    if t.is_empty() || t.chars().any(|c| c.is_ascii_alphabetic() && c != 'e' && c != 'E') {
        return None;
    }
    t.parse::<f64>().ok().filter(|x| x.is_finite())
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 24 {
        format!("{}…", s.chars().take(24).collect::<String>())
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    /// The cells the `csv` crate reads from one line (the reference `split_delimited` is held to).
    fn csv_cells(l: &str, d: u8) -> Vec<String> {
        let mut reader =
            csv::ReaderBuilder::new().has_headers(false).flexible(true).delimiter(d).from_reader(l.as_bytes());
        let mut record = csv::StringRecord::new();
        match reader.read_record(&mut record) {
            Ok(true) => record.iter().map(str::to_string).collect(),
            _ => vec![String::new()],
        }
    }

    #[test]
    fn unquoted_lines_split_as_the_csv_crate_does() {
        let quoted = [
            ("\"1,5\",2", b','),
            ("a,\"b \"\"c\"\"\",d", b','),
            ("\"\",x", b','),
            ("\"a\"b,c", b','),
            ("x\"y,z", b','),
            ("\"open,ended", b','),
            ("\"1\t5\"\t2\t\"\"", b'\t'),
            ("\"\"\"\"", b','),
            ("1,\"2\",", b','),
        ];
        for (l, d) in
            [("1,2,3", b','), ("1\t\t3\t", b'\t'), ("a;b", b';'), ("", b','), (",", b',')].into_iter().chain(quoted)
        {
            assert_eq!(super::split_delimited(l, d), csv_cells(l, d), "{l:?}");
        }
    }

    use super::*;

    const COLS: &[ColumnSpec] = &[
        ColumnSpec::new("np", Quantity::Plain, PLAIN).aliases(&["procs", "p"]).integer(),
        ColumnSpec::new("work", Quantity::Size, MEGABYTES).aliases(&["mem", "memory"]),
        ColumnSpec::new("time", Quantity::Time, SECONDS).aliases(&["t"]),
    ];

    fn values(text: &str) -> Vec<Vec<Option<f64>>> {
        match parse_table("runs", text, COLS) {
            Ok(t) => t.rows.into_iter().map(|r| r.values).collect(),
            Err(e) => panic!("unexpected error for {text:?}: {e}"),
        }
    }

    fn error(text: &str) -> InputError {
        match parse_table("runs", text, COLS) {
            Ok(t) => panic!("expected an error for {text:?}, got {t:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn same_table_in_every_format() {
        let want = vec![vec![Some(4.0), Some(2048.0), Some(1580.0)], vec![Some(8.0), Some(1024.0), Some(825.0)]];
        for text in [
            "4\t2048\t1580\n8\t1024\t825\n",
            "4,2048,1580\n8,1024,825",
            "4;2048;1580\r\n8;1024;825\r\n",
            "  4   2048  1580\n\n8 1024 825\n",
            "np\twork (MB)\ttime (s)\n4\t2048\t1580\n8\t1024\t825\n",
            "np,work_mb,time_s\n4,2048,1580\n8,1024,825\n",
            "# calibration\nprocs  memory[GB]  t(ms)\n4 2 1580000\n8 1 825000\n",
            // A unit after a space, as the README shows headers (issue 33: "unknown column (s)").
            "np  work [MB]  time (s)\n4 2048 1580\n8 1024 825\n",
            "time [min], np, work (KB)\n\"26.333333333333333\",4,2097152\n13.75,8,1048576\n",
        ] {
            let got = values(text);
            let rounded: Vec<Vec<Option<f64>>> = got
                .iter()
                .map(|r| {
                    // Reorder by spec: values() already returns spec order.
                    r.iter().map(|v| v.map(|x| (x * 1e6).round() / 1e6)).collect()
                })
                .collect();
            assert_eq!(rounded, want, "for {text:?}");
        }
    }

    #[test]
    fn errors_name_line_and_column() {
        let cases: &[(&str, usize, Option<usize>, &str)] = &[
            // Columns count characters, where the cell starts (issue 45, item 21: they counted
            // cells, unlike the other pages' errors).
            ("4,2048,abc", 1, Some(8), "expected a number for time (s), found \"abc\""),
            ("np,work,time\n4,2048,1580\n4.5,1024,800", 3, Some(1), "expected a whole number for np"),
            ("np,work,time\n4,2048", 2, Some(7), "missing value for time (s)"),
            ("np,work,speed\n4,2048,1", 1, Some(9), "unknown column \"speed\""),
            ("np,work (furlongs),time\n4,2048,1", 1, Some(4), "unit \"furlongs\" does not fit work"),
            ("np,time (GB),work\n4,2048,1", 1, Some(4), "unit \"GB\" does not fit time"),
            ("np,work\n4,2048", 1, None, "the header has no column \"time\""),
            ("4 2048", 1, Some(7), "2 values but at least 3 expected"),
            ("4 2048 1\n4 2048 1 9", 2, Some(10), "4 values on this line but 3 columns"),
            ("\n\n4,2048,inf", 3, Some(8), "expected a number"),
            ("np, work, time\n4,  2048, x", 2, Some(11), "expected a number for time (s)"),
            ("np\twork (GB)\ttime (ms)\n4\t2\tnone", 2, Some(5), "expected a number for time (s)"),
            ("np work (GB) time\n4 2 none", 2, Some(5), "expected a number for time (s)"),
        ];
        for (text, line, column, msg) in cases {
            let e = error(text);
            assert_eq!((e.line, e.column), (Some(*line), *column), "position for {text:?}: {e}");
            assert!(e.message.contains(msg), "message for {text:?}: {e}");
            assert_eq!(e.field, "runs");
        }
    }

    #[test]
    fn empty_text_is_an_empty_table() {
        assert_eq!(values("\n  \n# nothing yet\n"), Vec::<Vec<Option<f64>>>::new());
    }

    #[test]
    fn optional_column_may_be_absent() {
        const OPT: &[ColumnSpec] = &[
            ColumnSpec::new("n", Quantity::Plain, PLAIN),
            ColumnSpec::new("time", Quantity::Time, SECONDS),
            ColumnSpec::new("weight", Quantity::Plain, PLAIN).optional(),
        ];
        let t = parse_table("points", "\n2 10\n4 6 2", OPT).expect("valid");
        assert_eq!(t.rows[0].values, vec![Some(2.0), Some(10.0), None]);
        assert_eq!(t.rows[1].values, vec![Some(4.0), Some(6.0), Some(2.0)]);
        assert_eq!(t.rows[1].line, 3);
    }

    #[test]
    fn microseconds_in_many_spellings() {
        for h in ["time (us)", "time (µs)", "time_usec", "time [μs]"] {
            let t = parse_table("x", &format!("np,work,{h}\n2,1,1500000"), COLS).expect("valid");
            assert_eq!(t.rows[0].values[2], Some(1.5), "{h}");
        }
    }

    #[test]
    fn units_are_applied_before_the_finiteness_check() {
        // 1e306 GB is 1.07e315 bytes: not a finite number once in the column's unit.
        const SIZE: &[ColumnSpec] = &[ColumnSpec::new("work", Quantity::Size, BYTES)];
        for text in ["work_gb\n-1e306", "work_gb\n1e306"] {
            let e = parse_table("runs", text, SIZE).expect_err(text);
            assert_eq!((e.line, e.column), (Some(2), Some(1)), "{e}");
            assert!(e.message.contains("too large"), "{e}");
        }
        assert_eq!(
            parse_table("runs", "work_gb\n2", SIZE).expect("valid").rows[0].values,
            vec![Some(2.0 * 1073741824.0)]
        );
    }

    proptest::proptest! {
        /// Any line with quotes splits into the cells the `csv` crate reads from it.
        #[test]
        fn quoted_lines_split_as_the_csv_crate_does(l in "[a1 \",;\t]{0,24}", tab in proptest::bool::ANY) {
            let d = if tab { b'\t' } else { b',' };
            proptest::prop_assert_eq!(split_delimited(&l, d), csv_cells(&l, d), "{:?}", l);
        }

        /// Any pasted text gives a table or an error with a line inside the text, never a panic.
        #[test]
        fn any_text_parses_or_names_a_line(text in "[0-9a-zµ()\\[\\]_.,;\"#eE+\t \n-]{0,80}") {
            match parse_table("runs", &text, COLS) {
                Ok(t) => for r in &t.rows {
                    proptest::prop_assert!(r.line >= 1 && r.line <= text.lines().count());
                    proptest::prop_assert!(r.values.iter().flatten().all(|v| v.is_finite()));
                },
                Err(e) => {
                    let lines = text.lines().count().max(1);
                    proptest::prop_assert!(e.line.is_none_or(|l| l >= 1 && l <= lines), "{e}");
                }
            }
        }
    }
}

//! The validation corpus format: CSV with a header row and the columns
//! `series_id,application,problem,machine,source,np,nodes,time_s,rep` (as in
//! `shared/validation/strong_scaling_dev.csv` and `validation/corpus.csv`), one row per run.

use crate::model::InputError;

/// One measured strong-scaling series: one problem, one machine, one way of running it.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub id: String,
    /// Where the numbers come from, as a unit to hold out: the repository of a
    /// `github:owner/repo@commit:path` source, else the source text up to its first space.
    pub source: String,
    pub application: String,
    pub machine: String,
    /// (np, mean time s over the repetitions), np ascending, each np once.
    pub points: Vec<(u32, f64)>,
}

/// The runs of one count: (np, sum of their times, how many).
type Runs = (u32, f64, u32);

const COLUMNS: [&str; 9] = ["series_id", "application", "problem", "machine", "source", "np", "nodes", "time_s", "rep"];

/// The source a series is held out with.
pub fn source_group(source: &str) -> String {
    let s = source.trim();
    match s.strip_prefix("github:") {
        Some(rest) => format!("github:{}", rest.split(['@', ':', ' ']).next().unwrap_or(rest)),
        None => s.split_whitespace().next().unwrap_or("").to_string(),
    }
}

/// Reads a corpus; `field` names it in errors (which give the line and column).
pub fn read(field: &str, text: &str) -> Result<Vec<Series>, InputError> {
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| InputError::new(field, format!("unreadable header: {e}")).at(1, None))?
        .iter()
        .map(str::to_string)
        .collect();
    let index = |name: &str| header.iter().position(|h| h == name);
    let cols: Vec<usize> = COLUMNS
        .iter()
        .map(|c| index(c).ok_or_else(|| InputError::new(field, format!("no column \"{c}\"; expected {}", COLUMNS.join(","))).at(1, None)))
        .collect::<Result<_, _>>()?;
    // Series in order of first appearance, with their runs summed per count.
    let mut series: Vec<(Series, Vec<Runs>)> = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = record.map_err(|e| InputError::new(field, format!("unreadable row: {e}")).at(line, None))?;
        let cell = |c: usize| record.get(cols[c]).unwrap_or("").trim();
        let np = cell(5)
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| InputError::new(field, format!("np: expected a whole number ≥ 1, found \"{}\"", cell(5))).at(line, Some(cols[5] + 1)))?;
        let t = crate::model::input::table::parse_number(cell(7))
            .filter(|t| *t > 0.0)
            .ok_or_else(|| InputError::new(field, format!("time_s: expected a time above 0, found \"{}\"", cell(7))).at(line, Some(cols[7] + 1)))?;
        let id = cell(0);
        if id.is_empty() {
            return Err(InputError::new(field, "series_id is empty").at(line, Some(cols[0] + 1)));
        }
        let pos = match series.iter().position(|s| s.0.id == id) {
            Some(p) => p,
            None => {
                let s = Series { id: id.to_string(), source: source_group(cell(4)), application: cell(1).to_string(), machine: cell(3).to_string(), points: Vec::new() };
                series.push((s, Vec::new()));
                series.len() - 1
            }
        };
        let pts = &mut series[pos].1; // ok: pos indexes series
        match pts.iter_mut().find(|p| p.0 == np) {
            Some(p) => {
                p.1 += t;
                p.2 += 1;
            }
            None => pts.push((np, t, 1)),
        }
    }
    Ok(series
        .into_iter()
        .map(|(mut s, mut pts)| {
            pts.sort_by_key(|p| p.0);
            s.points = pts.into_iter().map(|(n, sum, k)| (n, sum / f64::from(k))).collect();
            s
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "series_id,application,problem,machine,source,np,nodes,time_s,rep\n";

    #[test]
    fn reads_series_averaging_repetitions() {
        let text = format!(
            "{HEAD}a,App,\"p, q\",M,github:o/r@abc:f.md (table),4,1,10,1\na,App,\"p, q\",M,github:o/r@abc:f.md (table),2,1,18,1\n\
             a,App,\"p, q\",M,github:o/r@abc:f.md (table),4,1,12,2\nb,B,x,N,Azure guide,1,,5,1\n"
        );
        let s = read("corpus", &text).expect("valid");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].points, vec![(2, 18.0), (4, 11.0)]);
        assert_eq!((s[0].source.as_str(), s[1].source.as_str()), ("github:o/r", "Azure"));
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = read("corpus", &format!("{HEAD}a,A,p,M,s,four,1,10,1\n")).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(6)));
        let e = read("corpus", &format!("{HEAD}a,A,p,M,s,4,1,-1,1\n")).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(8)));
        assert!(read("corpus", "id,np\n").unwrap_err().message.contains("no column \"series_id\""));
    }
}

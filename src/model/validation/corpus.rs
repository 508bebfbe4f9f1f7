//! The validation corpus format: CSV with a header row and the columns
//! `series_id,application,problem,machine,source,np,nodes,time_s,rep` (as in
//! `shared/validation/strong_scaling_dev.csv` and `validation/corpus.csv`), one row per run.
//! `nodes` may be empty where the source does not say how the processes were placed.
//!
//! Sources are held out whole. A source is a repository (or a vendor's page), unless a
//! groups file (`validation/source_groups.csv`: `repository,group,reason`) puts several
//! repositories into one group, e.g. the student repositories of one course on one cluster.

use std::collections::{BTreeMap, HashMap};

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
    /// The nodes of each point, where the source gives them (the largest of its rows').
    pub nodes: Vec<Option<u32>>,
}

impl Series {
    /// The processes one node holds, as far as the series tells: the most placed on one node
    /// (np over nodes, rounded up) by any point with a node count. A series that never leaves
    /// one node holds its largest count on that node. None without node counts.
    pub fn cores_per_node(&self) -> Option<u32> {
        self.points.iter().zip(&self.nodes).filter_map(|(&(np, _), nodes)| nodes.map(|d| np.div_ceil(d.max(1)))).max()
    }
}

/// The runs of one count: (sum of their times, how many, nodes), by np.
type Runs = BTreeMap<u32, (f64, u32, Option<u32>)>;

/// The times a corpus may give, in seconds: a nanosecond to 30 years. Beyond them a ratio of
/// two times or its square leaves the numbers a double holds well (a subnormal time gave
/// `null` errors in `validate`'s answer).
const MIN_TIME_S: f64 = 1e-9;
const MAX_TIME_S: f64 = 1e9;

/// The most series `validate` reads over all its corpora together. The committed corpora hold
/// 316. The check's cost grows faster than the series (every source held out in turn, for
/// every candidate): 560 took 31 s and 0.6 GB on a 2-core machine, 976 took 102 s and 1 GB, so
/// more is refused at once rather than run for minutes.
pub const MAX_SERIES: usize = 600;
/// The largest corpus file read, in bytes (the committed ones: 10 MB at most).
pub const MAX_BYTES: usize = 32 << 20;

const COLUMNS: [&str; 9] = ["series_id", "application", "problem", "machine", "source", "np", "nodes", "time_s", "rep"];

/// The source a series is held out with.
pub fn source_group(source: &str) -> String {
    let s = source.trim();
    match s.strip_prefix("github:") {
        Some(rest) => format!("github:{}", rest.split(['@', ':', ' ']).next().unwrap_or(rest)),
        None => s.split_whitespace().next().unwrap_or("").to_string(),
    }
}

/// A CSV reader of `text` and its header row's names.
pub(crate) fn with_header<'a>(field: &str, text: &'a str) -> Result<(csv::Reader<&'a [u8]>, Vec<String>), InputError> {
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(text.as_bytes());
    let header = reader
        .headers()
        .map_err(|e| InputError::new(field, format!("unreadable header: {e}")).at(1, None))?
        .iter()
        .map(str::to_string)
        .collect();
    Ok((reader, header))
}

/// Reads a corpus; `field` names it in errors (which give the line and column).
pub fn read(field: &str, text: &str) -> Result<Vec<Series>, InputError> {
    if text.len() > MAX_BYTES {
        return Err(InputError::new(
            field,
            format!("{} bytes is more than the {MAX_BYTES} a corpus may hold", text.len()),
        ));
    }
    let (mut reader, header) = with_header(field, text)?;
    let index = |name: &str| header.iter().position(|h| h == name);
    let cols: Vec<usize> = COLUMNS
        .iter()
        .map(|c| {
            index(c).ok_or_else(|| {
                InputError::new(field, format!("no column \"{c}\"; expected {}", COLUMNS.join(","))).at(1, None)
            })
        })
        .collect::<Result<_, _>>()?;
    // Series in order of first appearance, with their runs summed per count; where each is.
    let mut series: Vec<(Series, Runs)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = record.map_err(|e| InputError::new(field, format!("unreadable row: {e}")).at(line, None))?;
        let cell = |c: usize| record.get(cols[c]).unwrap_or("").trim();
        let np = cell(5).parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| {
            InputError::new(field, format!("np: expected a whole number ≥ 1, found \"{}\"", cell(5)))
                .at(line, Some(cols[5] + 1))
        })?;
        let t = crate::model::input::table::parse_number(cell(7))
            .filter(|t| (MIN_TIME_S..=MAX_TIME_S).contains(t))
            .ok_or_else(|| {
                InputError::new(field, format!("time_s: expected a time from 1e-9 to 1e9 s, found \"{}\"", cell(7)))
                    .at(line, Some(cols[7] + 1))
            })?;
        let nodes = match cell(6) {
            "" => None,
            text => Some(text.parse::<u32>().ok().filter(|&d| d >= 1).ok_or_else(|| {
                InputError::new(field, format!("nodes: expected a whole number ≥ 1 or nothing, found \"{text}\""))
                    .at(line, Some(cols[6] + 1))
            })?),
        };
        let id = cell(0);
        if id.is_empty() {
            return Err(InputError::new(field, "series_id is empty").at(line, Some(cols[0] + 1)));
        }
        let pos = match index.get(id) {
            Some(&p) => p,
            None => {
                if series.len() == MAX_SERIES {
                    return Err(InputError::new(
                        field,
                        format!(
                            "more than {MAX_SERIES} series; validate reads at most {MAX_SERIES} (corpus::MAX_SERIES)"
                        ),
                    )
                    .at(line, Some(cols[0] + 1)));
                }
                let s = Series {
                    id: id.to_string(),
                    source: source_group(cell(4)),
                    application: cell(1).to_string(),
                    machine: cell(3).to_string(),
                    points: Vec::new(),
                    nodes: Vec::new(),
                };
                index.insert(id.to_string(), series.len());
                series.push((s, Runs::new()));
                series.len() - 1
            }
        };
        let p = series[pos].1.entry(np).or_insert((0.0, 0, None)); // ok: pos indexes series
        p.0 += t;
        p.1 += 1;
        p.2 = p.2.max(nodes);
    }
    Ok(series
        .into_iter()
        .map(|(mut s, pts)| {
            s.nodes = pts.values().map(|p| p.2).collect();
            s.points = pts.into_iter().map(|(n, (sum, k, _))| (n, sum / f64::from(k))).collect();
            s
        })
        .collect())
}

/// Reads a groups file (`repository,group,reason`, a header row first): each repository named
/// is held out with its group. `field` names it in errors.
pub fn read_groups(field: &str, text: &str) -> Result<Vec<(String, String)>, InputError> {
    let (mut reader, header) = with_header(field, text)?;
    if header.first().map(String::as_str) != Some("repository") || header.get(1).map(String::as_str) != Some("group") {
        return Err(InputError::new(field, "expected the columns repository,group,reason").at(1, None));
    }
    let mut out = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = record.map_err(|e| InputError::new(field, format!("unreadable row: {e}")).at(line, None))?;
        let (repo, group) = (record.get(0).unwrap_or("").trim(), record.get(1).unwrap_or("").trim());
        if repo.is_empty() || group.is_empty() {
            return Err(InputError::new(field, "a row needs a repository and a group").at(line, None));
        }
        out.push((source_group(repo), group.to_string()));
    }
    Ok(out)
}

/// Puts each series whose source is a grouped repository into its group.
pub fn regroup(series: &mut [Series], groups: &[(String, String)]) {
    for s in series {
        if let Some((_, g)) = groups.iter().find(|(repo, _)| *repo == s.source) {
            s.source = g.clone();
        }
    }
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
        assert_eq!(s[0].nodes, vec![Some(1), Some(1)]);
        assert_eq!(s[1].nodes, vec![None]);
        assert_eq!((s[0].source.as_str(), s[1].source.as_str()), ("github:o/r", "Azure"));
    }

    #[test]
    fn cores_per_node_from_the_points_that_give_nodes() {
        let text = format!(
            "{HEAD}a,A,p,M,s,16,1,10,1\na,A,p,M,s,32,1,6,1\na,A,p,M,s,64,2,4,1\na,A,p,M,s,96,3,3,1\nb,B,p,M,s,4,,1,1\n"
        );
        let s = read("corpus", &text).expect("valid");
        assert_eq!(s[0].cores_per_node(), Some(32));
        assert_eq!(s[1].cores_per_node(), None);
        let e = read("corpus", &format!("{HEAD}a,A,p,M,s,4,0,10,1\n")).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(7)));
        // Times a double cannot take ratios of soundly are refused where they stand.
        for t in ["1e-310", "0", "-1", "2e9", "inf"] {
            let e = read("corpus", &format!("{HEAD}a,A,p,M,s,4,1,10,1\na,A,p,M,s,8,1,{t},1\n")).unwrap_err();
            assert_eq!((e.line, e.column), (Some(3), Some(8)), "{t}");
            assert!(e.message.contains("from 1e-9 to 1e9 s"), "{t}: {}", e.message);
        }
    }

    #[test]
    fn a_text_larger_than_a_corpus_may_be_is_refused_unread() {
        let text = format!("{HEAD}{}", "x".repeat(MAX_BYTES));
        let e = read("corpus", &text).unwrap_err();
        assert!(e.message.contains("a corpus may hold"), "{}", e.message);
        assert!(read("corpus", &format!("{HEAD}a,A,p,M,s,4,1,10,1\n")).is_ok());
        // One series more than validate reads: refused at the row that starts it.
        let rows: String =
            (0..=MAX_SERIES).map(|i| format!("s{i},A,p,M,src,4,1,10,1\ns{i},A,p,M,src,8,1,6,1\n")).collect();
        let e = read("corpus", &format!("{HEAD}{rows}")).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2 * MAX_SERIES + 2), Some(1)), "{}", e.message);
        let rows: String =
            (0..MAX_SERIES).map(|i| format!("s{i},A,p,M,src,4,1,10,1\ns{i},A,p,M,src,8,1,6,1\n")).collect();
        assert_eq!(read("corpus", &format!("{HEAD}{rows}")).map(|s| s.len()), Ok(MAX_SERIES));
    }

    #[test]
    fn groups_put_repositories_together() {
        let text = format!("{HEAD}a,A,p,M,github:o/r1@c:f,4,1,10,1\nb,A,p,M,github:o/r2@c:f,4,1,10,1\nc,A,p,M,github:x/y@c:f,4,1,10,1\n");
        let mut s = read("corpus", &text).expect("valid");
        let g = read_groups(
            "groups",
            "repository,group,reason\ngithub:o/r1,course,one course\ngithub:o/r2,course,one course\n",
        )
        .expect("valid");
        regroup(&mut s, &g);
        assert_eq!(s.iter().map(|x| x.source.as_str()).collect::<Vec<_>>(), ["course", "course", "github:x/y"]);
        assert_eq!(read_groups("groups", "repo,g\n").unwrap_err().line, Some(1));
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

//! Measured broadcasts from raw benchmark output, for Poly-adapt (seed 002, §4.3): the OSU
//! Micro-Benchmarks' `osu_bcast` ("# OSU MPI Broadcast Latency Test", columns Size, Avg
//! Latency(us), then optionally Min, Max, Iterations) and the Intel MPI Benchmarks' Bcast
//! section ("# Benchmarking Bcast", "# #processes = N", columns #bytes #repetitions t_min[usec]
//! t_max[usec] t_avg[usec]). Times in µs (the average over ranks), sizes in bytes; 0-byte
//! rows are skipped (nothing is sent, so they say nothing about an algorithm).
//!
//! Neither output names the broadcast algorithm, and osu_bcast does not print the process
//! count, so a line above the table says them: any line (a `#` comment, or the `mpirun`
//! command pasted with it) holding `algorithm NAME` (a name [`Algorithm::from_key`] reads) or
//! Open MPI's `coll_tuned_bcast_algorithm N` (an [`Algorithm::ompi_id`]: the ids of
//! `coll_tuned_bcast_decision.c`), and `procs N`, `-np N`, `-n N` or
//! IMB's `#processes = N`. They hold for the rows below until another such line; several
//! runs may be pasted one after another.

use crate::model::comm::collectives::{Algorithm, MeasuredBroadcast, MAX_PROCS};
use crate::model::comm::MAX_SIZE_BYTES;
use crate::model::input::table::{field_columns, parse_number};
use crate::model::InputError;

/// The page's field of measured broadcasts, which its errors name.
pub const MEASURED_FIELD: &str = "measured broadcasts";

/// Most rows read (the same bound as a pasted table's).
const MAX_ROWS: usize = 100_000;

/// True when the text looks like osu_bcast or IMB Bcast output.
pub fn is_bcast_output(text: &str) -> bool {
    let head = text.lines().take(60).collect::<Vec<_>>().join("\n").to_ascii_lowercase();
    (head.contains("osu") && head.contains("broadcast")) || head.contains("benchmarking bcast")
}

fn err(line: usize, column: Option<usize>, message: impl Into<String>) -> InputError {
    InputError::new(MEASURED_FIELD, message).at(line, column)
}

/// The number after `key` in the words (`key N`, `key=N`, `key = N`, `key: N`).
fn after(words: &[&str], key: &str) -> Option<String> {
    for (i, w) in words.iter().enumerate() {
        let w = w.trim_start_matches('-');
        if let Some(rest) = w.strip_prefix(key).filter(|r| r.is_empty() || r.starts_with(['=', ':'])) {
            let rest = rest.trim_start_matches(['=', ':']);
            if !rest.is_empty() {
                return Some(rest.to_string());
            }
            let mut j = i + 1;
            while words.get(j).is_some_and(|x| *x == "=" || *x == ":") {
                j += 1;
            }
            return words.get(j).map(|s| s.to_string());
        }
    }
    None
}

/// The Open MPI bcast algorithm id (read on `line`) as a calculator algorithm.
fn ompi_algorithm(id: &str, line: usize) -> Result<Algorithm, InputError> {
    id.trim().parse().ok().and_then(Algorithm::from_ompi_id).ok_or_else(|| {
        let message = format!(
            "Open MPI bcast algorithm {} has no model here; the calculator has {}",
            id.trim().chars().take(8).collect::<String>(),
            Algorithm::ompi_list(|a| format!("{} ({})", a.ompi_id(), a.ompi_name()), ", ", " and ")
        );
        err(line, None, message)
    })
}

/// Reads the rows; on a problem, its error and the rows above it.
pub fn parse_bcast_output(text: &str) -> (Vec<MeasuredBroadcast>, Option<InputError>) {
    let mut out = Vec::new();
    let mut algorithm: Option<Algorithm> = None;
    let mut procs: Option<u32> = None;
    // IMB: the time column of the current table, and whether the section is Bcast.
    let mut imb_time_col: Option<usize> = None;
    let mut in_imb_section = false;
    let mut imb_bcast = true;
    for (i, l) in text.lines().enumerate() {
        let line = i + 1;
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        let lower = t.to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let first_is_number = words.first().and_then(|w| parse_number(w)).is_some();
        if !first_is_number {
            if let Some(pos) = lower.find("benchmarking") {
                in_imb_section = true;
                imb_bcast = lower[pos..].contains("bcast");
                imb_time_col = None;
            }
            if lower.contains("#bytes") {
                imb_time_col = words.iter().position(|w| w.starts_with("t_avg") || *w == "t[usec]");
            }
            if let Some(id) = after(&words, "coll_tuned_bcast_algorithm") {
                match ompi_algorithm(&id, line) {
                    Ok(a) => algorithm = Some(a),
                    Err(e) => return (out, Some(e)),
                }
            } else if let Some(name) = after(&words, "algorithm") {
                match Algorithm::from_key(&name) {
                    Some(a) => algorithm = Some(a),
                    None => {
                        return (
                            out,
                            Some(err(
                                line,
                                None,
                                format!(
                                    "unknown algorithm \"{}\"; expected {}",
                                    name.chars().take(20).collect::<String>(),
                                    Algorithm::expected()
                                ),
                            )),
                        )
                    }
                }
            }
            let p =
                ["#processes", "procs", "np", "n"].iter().find_map(|k| after(&words, k).and_then(|v| parse_number(&v)));
            if let Some(p) = p {
                if !(1.0..=f64::from(MAX_PROCS)).contains(&p) || p.fract() != 0.0 {
                    return (out, Some(err(line, None, "the process count must be a whole number from 1 to 16777216")));
                }
                procs = Some(p as u32);
            }
            continue;
        }
        if in_imb_section && !imb_bcast {
            continue; // another IMB benchmark's table
        }
        // Errors name the character column where the field starts, as on every page.
        let (at, end) = field_columns(l);
        let column = |c: usize| at.get(c).copied().unwrap_or(end);
        let mut v = Vec::with_capacity(words.len());
        for (c, w) in words.iter().enumerate() {
            match parse_number(w) {
                Some(x) => v.push(x),
                None => {
                    return (
                        out,
                        Some(err(
                            line,
                            Some(column(c)),
                            format!("expected a number, found \"{}\"", w.chars().take(24).collect::<String>()),
                        )),
                    )
                }
            }
        }
        let col = if in_imb_section { imb_time_col.unwrap_or(4) } else { 1 };
        let Some(&time) = v.get(col) else {
            return (
                out,
                Some(err(
                    line,
                    Some(column(v.len())),
                    "the output stops in the middle of this line; it looks cut off, the rows above are used",
                )),
            );
        };
        let size = v[0];
        if !(0.0..=MAX_SIZE_BYTES).contains(&size) || size.fract() != 0.0 {
            return (
                out,
                Some(err(line, Some(column(0)), "a message size is a whole number of bytes from 0 to 1 TiB")),
            );
        }
        if size == 0.0 {
            continue;
        }
        if !(time > 0.0 && time <= 1e12) {
            return (out, Some(err(line, Some(column(col)), "a time must be greater than 0 and at most 1e12 µs")));
        }
        let (Some(algorithm), Some(procs)) = (algorithm, procs) else {
            let missing = if algorithm.is_none() { "which broadcast algorithm ran" } else { "on how many processes" };
            return (
                out,
                Some(err(line, None, format!(
                    "the output does not say {missing}: add a line above it such as \"# algorithm binomial procs 16\" (or paste the mpirun line with --mca coll_tuned_bcast_algorithm 6 -np 16)"
                ))),
            );
        };
        out.push(MeasuredBroadcast { size_bytes: size, procs, algorithm, time_us: time });
        if out.len() > MAX_ROWS {
            return (out, Some(err(line, None, format!("more than {MAX_ROWS} rows"))));
        }
    }
    let error =
        out.is_empty().then(|| InputError::new(MEASURED_FIELD, "no broadcast rows found under the benchmark's header"));
    (out, error)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// osu_bcast 7.x prints this header and these columns (OSU Micro-Benchmarks,
    /// `c/mpi/collective/blocking/osu_bcast.c`); the numbers here are our own.
    const OSU: &str =
        "# mpirun -np 16 --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm 6 osu_bcast\n\
# OSU MPI Broadcast Latency Test v7.0\n\
# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n\
1                      12.50              4.10             19.80        1000\n\
2                      12.61              4.12             19.95        1000\n\
1024                   20.40              8.00             30.10        1000\n\
1048576              2400.75           2100.00           2650.00         100\n";

    /// IMB-MPI1 prints a section per benchmark; Bcast's table is "#bytes #repetitions
    /// t_min[usec] t_max[usec] t_avg[usec]" under "# #processes = N" (numbers our own).
    const IMB: &str = "#----------------------------------------------------------------\n\
# Benchmarking Barrier\n\
# #processes = 8\n\
#----------------------------------------------------------------\n\
 #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n\
         1000         5.00         5.10         5.05\n\
# algorithm pipeline\n\
#----------------------------------------------------------------\n\
# Benchmarking Bcast\n\
# #processes = 8\n\
#----------------------------------------------------------------\n\
       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n\
            0         1000         0.02         0.03         0.02\n\
            4         1000         7.00         9.00         8.00\n\
        65536          640       150.00       190.00       170.00\n";

    #[test]
    fn osu_bcast_rows_with_the_mpirun_line() {
        assert!(is_bcast_output(OSU));
        let (rows, e) = parse_bcast_output(OSU);
        assert_eq!(e, None);
        assert_eq!(rows.len(), 4);
        assert_eq!(
            rows[3],
            MeasuredBroadcast { size_bytes: 1048576.0, procs: 16, algorithm: Algorithm::Binomial, time_us: 2400.75 }
        );
    }

    #[test]
    fn imb_bcast_section_only() {
        assert!(is_bcast_output(IMB));
        let (rows, e) = parse_bcast_output(IMB);
        assert_eq!(e, None);
        // The Barrier table is skipped, the 0-byte row too; t_avg is the time.
        assert_eq!(
            rows,
            vec![
                MeasuredBroadcast { size_bytes: 4.0, procs: 8, algorithm: Algorithm::Pipeline, time_us: 8.0 },
                MeasuredBroadcast { size_bytes: 65536.0, procs: 8, algorithm: Algorithm::Pipeline, time_us: 170.0 },
            ]
        );
    }

    #[test]
    fn problems_name_the_line() {
        let no_alg = OSU.replace("--mca coll_tuned_bcast_algorithm 6 ", "");
        let (rows, e) = parse_bcast_output(&no_alg);
        let e = e.expect("error");
        assert!(rows.is_empty());
        assert_eq!(e.line, Some(4));
        assert!(e.message.contains("which broadcast algorithm"), "{}", e.message);
        let chain = OSU.replace("algorithm 6", "algorithm 2");
        assert!(parse_bcast_output(&chain).1.expect("error").message.contains("algorithm 2"));
        let cut = format!("{OSU}2097152\n");
        let (rows, e) = parse_bcast_output(&cut);
        assert_eq!(rows.len(), 4, "rows above are kept");
        assert_eq!(e.expect("error").line, Some(8));
        let word = OSU.replace("12.61", "abc");
        // The character column where the word starts (issue 45, item 21), not its field's number.
        assert_eq!(parse_bcast_output(&word).1.expect("error").column, Some(24));
    }
}

//! `make bench`: how long a pasted table with quoted CSV cells takes to read (the pages' and
//! the command's reader, `model::input::table`), at a usual size (10 rows), 100 times it
//! (1,000 rows) and at the 1 MiB an input may hold (`workspace::MAX_FIELD_BYTES`). Ignored in
//! the normal test run; prints the median of 5 runs.

use std::time::Instant;

use scalewise::model::input::table::{parse_table, ColumnSpec, Quantity, PLAIN, SECONDS};
use scalewise::model::workspace::MAX_FIELD_BYTES;

const COLS: &[ColumnSpec] =
    &[ColumnSpec::new("n", Quantity::Plain, PLAIN).integer(), ColumnSpec::new("time", Quantity::Time, SECONDS)];

fn text(rows: usize) -> String {
    let mut s = String::from("\"n\",\"time (s)\"\n");
    for i in 0..rows {
        s.push_str(&format!("\"{}\",\"{}.5\"\n", i + 1, 1000 - i % 900));
    }
    s
}

#[test]
#[ignore]
fn bench_quoted_tables() {
    // Rows of about 20 bytes: as many as fit in the limit.
    let limit_rows = MAX_FIELD_BYTES / 22;
    for rows in [10, 1000, limit_rows] {
        let t = text(rows);
        let mut ms: Vec<f64> = (0..5)
            .map(|_| {
                let start = Instant::now();
                let table = parse_table("points", &t, COLS).expect("reads");
                assert_eq!(table.rows.len(), rows);
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        println!("quoted CSV table: {rows} rows, {} bytes: median {:.3} ms of 5", t.len(), ms[2]);
    }
}

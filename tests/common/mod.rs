//! Running the `scalewise` binary as a script would, for the CLI tests.

use std::io::Write;
use std::process::{Command, Stdio};

#[allow(dead_code)] // each test binary reads some of the fields
pub struct Outcome {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `scalewise ARGS` with `stdin` as its input and waits for it.
#[allow(dead_code)] // not every test binary runs the command
pub fn run(args: &[&str], stdin: &str) -> Outcome {
    run_in(".", args, stdin)
}

/// [`run`] with `dir` as the working directory.
#[allow(dead_code)] // not every test binary runs the command
pub fn run_in(dir: &str, args: &[&str], stdin: &str) -> Outcome {
    let mut child = Command::new(env!("CARGO_BIN_EXE_scalewise"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // The command may exit before reading (bad usage): a broken pipe here is expected.
    if let Some(mut pipe) = child.stdin.take() {
        let _ = pipe.write_all(stdin.as_bytes());
    }
    let out = child.wait_with_output().expect("the binary finishes");
    Outcome {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[allow(dead_code)] // for the tests that fit many regions
/// An Extra-P experiment (text format) of `regions` regions at six process counts.
pub fn extrap_experiment(regions: usize) -> String {
    let mut s = String::from("PARAMETER p\nPOINTS 2 4 8 16 32 64\n");
    for r in 0..regions {
        s.push_str(&format!("REGION r{r}\nMETRIC time\n"));
        let (a, b, c) = (1.0 + (r % 7) as f64, 0.01 * (r % 5) as f64, 0.001 * (r % 3) as f64);
        for p in [2.0f64, 4.0, 8.0, 16.0, 32.0, 64.0] {
            let t = a / p + b + c * p.log2();
            s.push_str(&format!("DATA {} {} {}\n", t * 0.99, t, t * 1.02));
        }
    }
    s
}

/// A page view's `{:#?}` text against its golden file `tests/golden/pages/NAME.txt` (written
/// by tests/golden.rs, which only re-spaces the text: it joins short lines and drops the comma
/// before a closing bracket). Compared with all whitespace and those commas taken out of both.
#[allow(dead_code)] // for the benchmarks that time a page's view
pub fn assert_matches_golden_page(name: &str, view_debug: &str) {
    fn squeeze(s: &str) -> String {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        s.replace(",}", "}").replace(",]", "]").replace(",)", ")")
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/pages").join(format!("{name}.txt"));
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (want, got) = (squeeze(&want), squeeze(view_debug));
    if want != got {
        let at = want.chars().zip(got.chars()).position(|(a, b)| a != b).unwrap_or(want.len().min(got.len()));
        let around = |s: &str| s.chars().skip(at.saturating_sub(60)).take(160).collect::<String>();
        panic!(
            "the timed view differs from tests/golden/pages/{name}.txt at character {at}:\n  golden: {}\n  timed:  {}",
            around(&want),
            around(&got)
        );
    }
}

/// The JSON answer of `scalewise ARGS` with no input, which must succeed.
#[allow(dead_code)] // not every test binary reads answers
pub fn answer(args: &[&str]) -> serde_json::Value {
    let o = run(args, "");
    assert_eq!(o.status, 0, "{args:?}: {}", o.stderr);
    serde_json::from_str(&o.stdout).expect("JSON out")
}

/// Runs `scalewise ARGS` with no input, which must be refused: its one-line message.
#[allow(dead_code)] // not every test binary checks refusals
pub fn refused(args: &[&str]) -> String {
    let o = run(args, "");
    assert_eq!(o.status, 1, "{args:?} should be refused; stdout: {}", &o.stdout[..o.stdout.len().min(300)]);
    assert!(o.stdout.is_empty(), "{args:?}: nothing on stdout when refused");
    assert_eq!(o.stderr.trim_end().lines().count(), 1, "{args:?}: one line: {}", o.stderr);
    o.stderr
}

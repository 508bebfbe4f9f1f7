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
pub fn run(args: &[&str], stdin: &str) -> Outcome {
    let mut child = Command::new(env!("CARGO_BIN_EXE_scalewise"))
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

//! The browser app (wasm32) and the `scalewise` command (everywhere else) share one binary
//! target, so trunk and `cargo install` build the same crate.

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(cli::run(&args));
}

//! The `scalewise` command natively; compiled to wasm32 it is the site's `index.html` entry
//! (home, Clusters). Each calculator page has its own entry in `src/bin/` (see `ui::Site`).

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::start(scalewise::ui::INDEX);
}

#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(scalewise::cli::run(&args));
}

//! The Web Worker of `bottlenecks.html` that reads and fits Extra-P experiments off the page's
//! main thread (`ui::bottlenecks_worker`).

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::bottlenecks_worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}

//! The Web Worker of `index.html` that reads pasted node reports off the page
//! (`ui::cluster_worker`).

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::cluster_worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}

//! `comm.html`: the communication page (models, broadcasts, Poly-adapt), alone in its wasm.

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::start(scalewise::ui::COMM);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}

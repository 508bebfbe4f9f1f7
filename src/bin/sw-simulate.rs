//! `simulate.html`: the virtual parallel machine page, alone in its wasm (the simulations
//! run in `sw-simulate-worker`).

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::start(scalewise::ui::SIMULATE);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}

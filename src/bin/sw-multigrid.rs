//! `multigrid.html`: the multi-cluster planner page, alone in its wasm.

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::start(scalewise::ui::MULTIGRID);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}

//! The browser app: Yew function components, pages and the workspace store. Only built for
//! wasm32. Pages turn the text in their inputs into model types through `crate::model`,
//! and draw through `crate::charts`.

mod app;
mod bench;
mod compress;
mod components;
mod pages;
mod route;
mod storage;
mod store;
mod url;

/// Mounts the app on the document body.
pub fn start() {
    yew::Renderer::<app::App>::new().render();
}

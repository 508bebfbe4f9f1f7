//! "Export": the fitted models written for other tools (LogGOPSim, SimGrid/SMPI, SST/macro,
//! Open MPI's broadcast rules), each as text with copy and download buttons. The texts are
//! `model::comm::export`'s; this only shows them.

use yew::prelude::*;

use super::View;
use crate::model::comm::export::{export, ExportFormat};
use crate::model::comm::page::broadcast_basis;
use crate::model::workspace::PageInputs;
use crate::ui::components::workspace_file::download;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: View,
    pub inputs: std::rc::Rc<PageInputs>,
}

#[component(Export)]
pub fn export_section(p: &Props) -> Html {
    let Some(fit) = &p.view.fit else { return Html::default() };
    let (procs, share) = broadcast_basis(&p.inputs);
    let blocks = ExportFormat::all().filter_map(|f| {
        let text = export(f, fit, share, procs.unwrap_or(20))?;
        let (copy, save) = (text.clone(), text.clone());
        let copy = Callback::from(move |_| {
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&copy);
            }
        });
        let save = Callback::from(move |_| {
            let _ = download(f.file_name(), "text/plain", &save);
        });
        Some(html! {
            <details class="export" id={format!("export-{}", f.key())}>
                <summary>{ f.name() }</summary>
                <pre tabindex="0">{ text }</pre>
                <button class="copy" onclick={copy}>{ "Copy" }</button>
                <button class="download" onclick={save}>{ format!("Download {}", f.file_name()) }</button>
            </details>
        })
    });
    html! {
        <div class="exports">
            <h3>{ "Export for other tools" }</h3>
            <p class="hint">{ "The fitted models as simulator parameters and Open MPI broadcast rules (for the processes and latency share of the broadcast section). Each text states its units." }</p>
            { for blocks }
        </div>
    }
}

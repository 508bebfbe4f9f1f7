//! "Share & embed" under every calculator: a link that carries this page's inputs, and an
//! iframe snippet showing the calculator alone (embed mode) for documentation sites.

use yew::prelude::*;

use crate::model::workspace::share;
use crate::ui::store::use_store;
use crate::ui::{compress, url};

#[derive(Properties, PartialEq)]
pub struct SharePanelProps {
    /// Page id in the workspace.
    pub page: &'static str,
}

#[component(SharePanel)]
pub fn share_panel(p: &SharePanelProps) -> Html {
    let store = use_store();
    let inputs = store.page_inputs(p.page);
    let catalog = store.ws.catalog.clone();
    // The link is made only while the panel is open (not on every keystroke), and
    // compression is asynchronous: it appears once it is ready.
    let open = use_state(|| false);
    let encoded = use_state(String::new);
    {
        let encoded = encoded.clone();
        let page = p.page;
        use_effect_with((inputs, *open), move |(inputs, open)| {
            if !*open {
                return;
            }
            let json = share::pack(page, inputs, &catalog);
            wasm_bindgen_futures::spawn_local(async move {
                match compress::deflate(&json).await {
                    Ok(bytes) => encoded.set(share::to_param(&bytes)),
                    Err(_) => encoded.set(String::new()),
                }
            });
        });
    }
    let link = url::link(p.page, &encoded, false);
    let embed = url::link(p.page, &encoded, true);
    // embed.js (next to the pages) sizes the iframe to the height the calculator reports.
    let base = url::base();
    let dir = &base[..base.rfind('/').map_or(0, |i| i + 1)];
    let snippet = format!(
        "<iframe src=\"{}\" title=\"scalewise {}\" width=\"100%\" height=\"900\" style=\"border:0\" loading=\"lazy\"></iframe>\n<script src=\"{}embed.js\" async></script>",
        html_escape(&embed),
        p.page,
        html_escape(dir)
    );
    let copied = use_state(|| None::<&'static str>);
    let copy = |what: &'static str, text: String| {
        let copied = copied.clone();
        Callback::from(move |_| {
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&text);
            }
            copied.set(Some(what));
        })
    };
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let details: web_sys::HtmlDetailsElement = e.target_unchecked_into();
            open.set(details.open());
        })
    };
    html! {
        <details class="share-panel" {ontoggle}>
            <summary>{ "Share & embed" }</summary>
            if encoded.is_empty() {
                <div class="hint">{ "Preparing the link…" }</div>
            } else {
            <div class="field">
                <label for="share-link">{ "Link to this page with its inputs" }</label>
                <div class="copy-row">
                    <input id="share-link" type="text" readonly=true value={link.clone()} />
                    <button onclick={copy("link", link)}>{ "Copy link" }</button>
                </div>
            </div>
            <div class="field">
                <label for="embed-snippet">{ "Embed this calculator in a documentation page" }</label>
                <div class="copy-row">
                    <textarea id="embed-snippet" readonly=true rows="3" value={snippet.clone()} />
                    <button onclick={copy("snippet", snippet)}>{ "Copy snippet" }</button>
                </div>
            </div>
            }
            if let Some(what) = *copied { <div class="hint">{ format!("Copied the {what}.") }</div> }
            if !encoded.is_empty() {
                <div class="hint">
                    { format!("The link carries {} characters of compressed inputs, with the clusters of your catalog they name.", encoded.len()) }
                </div>
            }
        </details>
    }
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;")
}

//! The query part of the page URL: `embed=1` (one calculator without the site chrome) and
//! `s=…` (a share link's inputs). Both sit before the `#/route` fragment.

use web_sys::UrlSearchParams;

fn search() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

fn param(name: &str) -> Option<String> {
    UrlSearchParams::new_with_str(&search()).ok().and_then(|p| p.get(name))
}

pub fn is_embed() -> bool {
    matches!(param("embed").as_deref(), Some("1") | Some("true"))
}

pub fn share_param() -> Option<String> {
    param("s")
}

/// The page's address without query or fragment: where the app is served, under any sub-path.
pub fn base() -> String {
    let Some(loc) = web_sys::window().map(|w| w.location()) else { return String::new() };
    let origin = loc.origin().unwrap_or_default();
    let path = loc.pathname().unwrap_or_default();
    format!("{origin}{path}")
}

/// Removes `s=` from the address bar once its inputs are loaded, so a reload shows the
/// autosaved state (which then includes any edits) rather than re-applying the link.
pub fn drop_share_param() {
    let Some(w) = web_sys::window() else { return };
    let Ok(params) = UrlSearchParams::new_with_str(&search()) else { return };
    params.delete("s");
    let query: String = params.to_string().into();
    let hash = w.location().hash().unwrap_or_default();
    let path = w.location().pathname().unwrap_or_default();
    let url = if query.is_empty() { format!("{path}{hash}") } else { format!("{path}?{query}{hash}") };
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// A link that opens `page` with `encoded` inputs; `embed` adds `embed=1`.
pub fn link(page: &str, encoded: &str, embed: bool) -> String {
    let e = if embed { "embed=1&" } else { "" };
    format!("{}?{e}s={encoded}#/{page}", base())
}

/// A link that opens `calc`'s own page (beside this one) with `encoded` inputs.
pub fn link_to(calc: &crate::model::calculators::Calculator, encoded: &str) -> String {
    let base = base();
    let dir = &base[..base.rfind('/').map_or(0, |i| i + 1)];
    format!("{dir}{}?s={encoded}#/{}", calc.file, calc.key)
}

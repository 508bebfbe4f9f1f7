//! The app: store, loading and saving the workspace, share-link loading, router, and the
//! chrome around each page.

use yew::prelude::*;

use super::components::chrome::{Footer, Header, Notices};
use super::route::use_hash_route;
use super::store::{Action, Store};
use super::{compress, storage, url};
use crate::model::workspace::share;

/// Reads an `s=` parameter: text checks, native inflate, then validation of the content.
async fn load_shared(param: &str) -> Result<share::SharedPage, crate::model::InputError> {
    let packed = share::from_param(param)?;
    let json = compress::inflate(&packed).await.map_err(|m| crate::model::InputError::new(share::FIELD, m))?;
    share::unpack(&json)
}

#[derive(Properties)]
pub struct AppProps {
    /// The pages of this entry.
    pub render: fn(super::route::Route) -> Html,
}

impl PartialEq for AppProps {
    /// One entry renders one set of pages for its whole life.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The calculator page of this entry (None for index.html).
fn entry_page() -> Option<&'static str> {
    crate::model::calculators::CALCULATORS.iter().find(|c| c.file == super::route::entry()).map(|c| c.key)
}

#[component(App)]
pub fn app(p: &AppProps) -> Html {
    let store = use_reducer(Store::new);
    let embed = use_memo((), |_| url::is_embed());
    let route = use_hash_route();
    // A route of another entry (an old link, a typed fragment): go there, query included.
    let elsewhere = route.file() != super::route::entry() && route != super::route::Route::NotFound;
    use_effect_with(route, move |route| {
        if elsewhere {
            if let Some(loc) = web_sys::window().map(|w| w.location()) {
                let query = loc.search().unwrap_or_default();
                let path = route.href().trim_start_matches(route.file()).to_string();
                let _ = loc.replace(&format!("{}{query}{path}", route.file()));
            }
        }
    });

    // Once: the saved workspace, then a share link's inputs (or the ones this tab kept of
    // one), an embed's own inputs, and the other tabs' edits from then on.
    {
        let dispatch = store.dispatcher();
        let embed = *embed;
        use_effect_with((), move |_| {
            if elsewhere {
                return;
            }
            wasm_bindgen_futures::spawn_local(async move {
                let (ws, mut notice) = storage::load(&dispatch).await;
                let page = entry_page();
                let mut own = None;
                if let Some(param) = url::share_param() {
                    url::drop_share_param();
                    match load_shared(&param).await {
                        Ok(shared) => own = Some(shared),
                        Err(e) => notice = Some(format!("{e}. Your own inputs are shown.")),
                    }
                }
                if let (None, Some(page)) = (&own, page) {
                    own = storage::own_inputs(page);
                }
                // An embed starts from the page's defaults, not from what the visitor saved.
                if let (None, true, Some(page)) = (&own, embed, page) {
                    own = Some(share::SharedPage {
                        v: 1,
                        page: page.to_string(),
                        inputs: Default::default(),
                        clusters: Vec::new(),
                        links: Vec::new(),
                    });
                }
                dispatch.dispatch(Action::Loaded { ws, notice, own, embed });
                if !embed {
                    storage::listen(dispatch);
                }
            });
        });
    }

    // Saves every change.
    {
        let store = store.clone();
        let deps = (store.ws.clone(), store.own.clone(), store.mine_catalog.is_some(), store.loaded);
        use_effect_with(deps, move |_| storage::save(&store, &store.dispatcher()));
    }

    let embed = *embed;
    if elsewhere {
        return html! { <main class="page"><p>{ "Opening the page…" }</p></main> };
    }
    let page = if store.loaded {
        (p.render)(route)
    } else {
        html! { <p class="hint">{ "Opening your inputs…" }</p> }
    };
    // The first Tab stop: past the header's links to the page itself. The address's hash is
    // the route, so the link moves the focus rather than following "#main".
    let skip = Callback::from(|e: MouseEvent| {
        e.prevent_default();
        let main = gloo::utils::document().get_element_by_id("main");
        if let Some(m) = main.and_then(|m| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(m).ok()) {
            let _ = m.focus();
            m.scroll_into_view();
        }
    });
    html! {
        <ContextProvider<UseReducerHandle<Store>> context={store}>
            if !embed {
                <a class="skip-link" href="#main" onclick={skip}>{ "Skip to the calculator" }</a>
                <Header current={route} />
            }
            <main id="main" tabindex="-1" class={classes!("page", embed.then_some("embedded"))}>
                if embed {
                    <div class="embed-bar">
                        <a href={format!("{}{}", url::base(), route.href())} target="_blank" rel="noopener">{ "Open in scalewise ↗" }</a>
                    </div>
                }
                <Notices />
                { page }
            </main>
            if !embed { <Footer /> }
        </ContextProvider<UseReducerHandle<Store>>>
    }
}

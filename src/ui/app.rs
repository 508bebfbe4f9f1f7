//! The app: store, autosave, share-link loading, router, and the chrome around each page.

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

#[component(App)]
pub fn app(p: &AppProps) -> Html {
    let store = use_reducer(|| {
        let (ws, notice) = storage::load();
        Store::new(ws, notice)
    });
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

    // A share link in the address: load its inputs once, then drop it from the address.
    {
        let store = store.clone();
        use_effect_with((), move |_| {
            if elsewhere {
                return;
            }
            if let Some(param) = url::share_param() {
                url::drop_share_param();
                wasm_bindgen_futures::spawn_local(async move {
                    match load_shared(&param).await {
                        Ok(shared) => store.dispatch(Action::LoadShared(shared)),
                        Err(e) => store.dispatch(Action::Notice(Some(format!("{e}. Your own inputs are shown.")))),
                    }
                });
            }
        });
    }

    // Autosave every change.
    {
        let store = store.clone();
        use_effect_with(store.ws.clone(), move |ws| {
            if let Some(msg) = storage::save(ws) {
                store.dispatch(Action::Notice(Some(msg)));
            }
        });
    }

    let embed = *embed;
    if elsewhere {
        return html! { <main class="page"><p>{ "Opening the page…" }</p></main> };
    }
    html! {
        <ContextProvider<UseReducerHandle<Store>> context={store}>
            if !embed { <Header current={route} /> }
            <main class={classes!("page", embed.then_some("embedded"))}>
                if embed {
                    <div class="embed-bar">
                        <a href={format!("{}{}", url::base(), route.href())} target="_blank" rel="noopener">{ "Open in scalewise ↗" }</a>
                    </div>
                }
                <Notices />
                { (p.render)(route) }
            </main>
            if !embed { <Footer /> }
        </ContextProvider<UseReducerHandle<Store>>>
    }
}

//! The app: store, autosave, share-link loading, router, and the chrome around each page.

use yew::prelude::*;
use yew_router::prelude::*;

use super::components::chrome::{Footer, Header, Notices};
use super::pages;
use super::route::Route;
use super::store::{Action, Embed, Store};
use super::{storage, url};
use crate::model::share;

#[component(App)]
pub fn app() -> Html {
    let store = use_reducer(|| {
        let (ws, notice) = storage::load();
        Store::new(ws, notice)
    });
    let embed = use_memo((), |_| url::is_embed());

    // A share link in the address: load its inputs once, then drop it from the address.
    {
        let store = store.clone();
        use_effect_with((), move |_| {
            if let Some(param) = url::share_param() {
                match share::decode(&param) {
                    Ok(shared) => store.dispatch(Action::LoadShared(shared)),
                    Err(e) => store.dispatch(Action::Notice(Some(format!("{e}. Your own inputs are shown.")))),
                }
                url::drop_share_param();
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

    let embed = Embed(*embed);
    html! {
        <ContextProvider<UseReducerHandle<Store>> context={store}>
        <ContextProvider<Embed> context={embed}>
            <HashRouter>
                if !embed.0 { <Header /> }
                <main class={classes!("page", embed.0.then_some("embedded"))}>
                    <Notices />
                    <Switch<Route> render={pages::switch} />
                </main>
                if !embed.0 { <Footer /> }
            </HashRouter>
        </ContextProvider<Embed>>
        </ContextProvider<UseReducerHandle<Store>>>
    }
}

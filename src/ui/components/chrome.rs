//! Header with navigation, footer, and app-wide notices.

use yew::prelude::*;

use super::workspace_file::WorkspaceFile;
use crate::model::calculators::CALCULATORS;
use crate::ui::route::{Link, Route};
use crate::ui::store::{use_store, Action};

#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    pub current: Route,
}

#[component(Header)]
pub fn header(p: &HeaderProps) -> Html {
    let item = |route: Route, label: &'static str| {
        let active = p.current == route;
        html! {
            <li class={classes!(active.then_some("active"))}>
                <Link to={route}>{ label }</Link>
            </li>
        }
    };
    html! {
        <header class="site-header">
            <div class="brand">
                <Link to={Route::Home}>{ "scalewise" }</Link>
                <span class="tagline">{ "parallel performance from a few cheap runs" }</span>
            </div>
            <nav aria-label="calculators">
                <ul>
                    { for CALCULATORS.iter().map(|c| item(Route::Calculator(c), c.title)) }
                    { item(Route::Clusters, "Clusters") }
                </ul>
            </nav>
            <WorkspaceFile />
        </header>
    }
}

#[component(Footer)]
pub fn footer() -> Html {
    html! {
        <footer class="site-footer">
            { "Everything runs in this page: your inputs are saved in this browser only. " }
            { "Export the workspace to keep or move them." }
        </footer>
    }
}

/// App-wide messages, and the offer to undo a share link that replaced the user's inputs.
#[component(Notices)]
pub fn notices() -> Html {
    let store = use_store();
    let notice = store.notice.clone().map(|n| {
        let store = store.clone();
        let close = Callback::from(move |_| store.dispatch(Action::Notice(None)));
        html! {
            <div class="notice" role="status">
                <span>{ n }</span>
                <button class="link" onclick={close}>{ "Dismiss" }</button>
            </div>
        }
    });
    let restore = store.before_share.as_ref().map(|(page, _)| {
        let s1 = store.clone();
        let s2 = store.clone();
        html! {
            <div class="notice share-notice" role="status">
                <span>{ format!("Loaded the inputs of a shared link into {page}. Your previous inputs are kept.") }</span>
                <button onclick={Callback::from(move |_| s1.dispatch(Action::RestoreBeforeShare))}>
                    { "Restore my previous inputs" }
                </button>
                <button class="link" onclick={Callback::from(move |_| s2.dispatch(Action::DismissBeforeShare))}>
                    { "Keep the shared ones" }
                </button>
            </div>
        }
    });
    html! { <>{ for notice }{ for restore }</> }
}

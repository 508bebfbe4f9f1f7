//! Header with navigation, footer, and app-wide notices.

use yew::prelude::*;

use super::workspace_file::{export, WorkspaceFile};
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

/// App-wide messages: a notice, a failed save (with the Export button beside it), the offer
/// to undo what replaced the user's inputs, and a share link's inputs held in this tab.
#[component(Notices)]
pub fn notices() -> Html {
    let store = use_store();
    let act = |a: fn() -> Action| {
        let store = store.clone();
        Callback::from(move |_| store.dispatch(a()))
    };
    // A refusal found on load is also the first failed save's: said once.
    let notice = store.notice.clone().filter(|n| store.save_error.as_ref() != Some(n)).map(|n| {
        html! {
            <div class="notice" role="status">
                <span>{ n }</span>
                <button class="link" onclick={act(|| Action::Notice(None))}>{ "Dismiss" }</button>
            </div>
        }
    });
    let failed = store.save_error.clone().map(|e| {
        html! {
            <div id="save-error" class="notice error" role="alert">
                <span>{ e }</span>
                <button onclick={export(&store)}>{ "Export workspace" }</button>
            </div>
        }
    });
    let undo = store.undo.as_ref().map(|u| {
        html! {
            <div id="undo" class="notice" role="status">
                <span>{ format!("{}.", u.label) }</span>
                <button onclick={act(|| Action::Undo)}>{ "Undo" }</button>
                <button class="link" onclick={act(|| Action::DismissUndo)}>{ "Dismiss" }</button>
            </div>
        }
    });
    let shared = store.own.as_ref().filter(|_| !store.embed).map(|_| {
        // The clusters the link carries that the visitor's catalog lacks (or has otherwise).
        let new: Vec<String> = match (&store.shared, &store.mine_catalog) {
            (Some(s), Some(mine)) => s.new_clusters(mine).iter().map(|c| format!("{} ({})", c.name, c.id)).collect(),
            _ => Vec::new(),
        };
        html! {
            <div id="shared" class="notice share-notice" role="status">
                <span>{ "These inputs come from a shared link. They are kept in this tab only: your own inputs of this page stay saved as they were." }</span>
                <button onclick={act(|| Action::KeepShared)}>{ "Keep these as my inputs" }</button>
                <button class="link" onclick={act(|| Action::CloseShared)}>{ "Show my inputs" }</button>
                if !new.is_empty() {
                    <span id="shared-clusters">{ format!("The link brings clusters of the sender's catalog, shown here as the sender had them: {}.", new.join(", ")) }</span>
                    <button onclick={act(|| Action::AddSharedClusters)}>{ "Add them to my catalog" }</button>
                }
            </div>
        }
    });
    html! { <>{ for failed }{ for notice }{ for shared }{ for undo }</> }
}

//! The home page: what each calculator answers, in a sentence or two.

use yew::prelude::*;

use crate::model::calculators::CALCULATORS;
use crate::ui::route::{Link, Route};

#[component(Home)]
pub fn home() -> Html {
    html! {
        <section class="home">
            <h1>{ "Predict parallel performance before you book the machine" }</h1>
            <p class="lead">
                { "scalewise predicts how a message-passing program will perform on hundreds of processors, \
                   on two clusters at once or across two distant regions, from a few cheap runs you paste in. \
                   Everything is computed in this page; nothing you type leaves your browser." }
            </p>
            <div class="cards">
                { for CALCULATORS.iter().map(|c| html! {
                    <article class="card">
                        <h2><Link to={Route::Calculator(c)}>{ c.title }</Link></h2>
                        <p>{ c.answers }</p>
                        <p class="source">{ c.seed }</p>
                    </article>
                }) }
                <article class="card">
                    <h2><Link to={Route::Clusters}>{ "Clusters" }</Link></h2>
                    <p>{ "The catalog of clusters, switching fabrics, links and prices per CPU-hour that every \
                          calculator draws on: presets from the papers, and your own." }</p>
                </article>
            </div>
        </section>
    }
}

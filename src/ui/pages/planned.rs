//! Routes of calculators not yet built: an honest statement, with what they will answer.

use yew::prelude::*;

use crate::ui::route::{calculator, Route};

#[derive(Properties, PartialEq)]
pub struct PlannedProps {
    pub route: Route,
}

#[component(Planned)]
pub fn planned(p: &PlannedProps) -> Html {
    let Some(c) = calculator(p.route) else { return html! {} };
    html! {
        <section class="planned">
            <h1>{ c.title }</h1>
            <p class="lead">{ c.answers }</p>
            <p class="notice">{ "This calculator is not built yet. Its method is " }{ c.seed }{ "." }</p>
        </section>
    }
}

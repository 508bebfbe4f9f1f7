//! The simulation page's timeline of one replication: a Gantt chart of each process'
//! computing, sending and waiting, zoomed to a time window chosen with two sliders.

use std::rc::Rc;

use yew::prelude::*;

use crate::charts::simulate::{timeline, timeline_end};
use crate::model::fmt_num;
use crate::model::simulate::page::ResultView;
use crate::ui::components::chart::{drawing, Chart};

/// Slider steps over the run's length.
const STEPS: u32 = 1000;

#[derive(Properties, PartialEq)]
pub struct RunTimelineProps {
    pub view: Rc<ResultView>,
}

#[component(RunTimeline)]
pub fn run_timeline(p: &RunTimelineProps) -> Html {
    // The window in slider steps: (from, to), from < to.
    let window = use_state_eq(|| (0, STEPS));
    let chart = use_memo((p.view.clone(), *window), |(v, (a, b))| {
        v.timeline.as_ref().map(|(n, t)| {
            let end = timeline_end(t);
            let at = |s: u32| end * f64::from(s) / f64::from(STEPS);
            (timeline(*n, t, (at(*a), at(*b))), at(*a), at(*b))
        })
    });
    let Some((gantt, from_s, to_s)) = chart.as_ref() else { return html! {} };
    let slider = |id: &'static str, label: &'static str, value: u32, from_end: bool| {
        let window = window.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let el: web_sys::HtmlInputElement = e.target_unchecked_into();
            let v: u32 = el.value().parse().unwrap_or(0);
            let (a, b) = *window;
            // Keep at least one step between the ends, moving the other end if need be.
            window.set(if from_end { (v.min(STEPS - 1), b.max(v + 1)) } else { (a.min(v.max(1) - 1), v.max(1)) });
        });
        html! {
            <div class="field">
                <label for={id}>{ label }</label>
                <input type="range" {id} min="0" max={STEPS.to_string()} value={value.to_string()} {oninput} />
            </div>
        }
    };
    let reset = {
        let window = window.clone();
        Callback::from(move |_| window.set((0, STEPS)))
    };
    html! {
        <section class="chart-timeline">
            <Chart id="chart-sim-timeline" chart={drawing(Rc::new(gantt.clone()))} />
            <div class="form-row">
                { slider("timeline-from", "window from", window.0, true) }
                { slider("timeline-to", "window to", window.1, false) }
                <div class="field">
                    <span id="timeline-window">{ format!("{} s to {} s", fmt_num(*from_s, 4), fmt_num(*to_s, 4)) }</span>
                    <button class="link" onclick={reset} disabled={*window == (0, STEPS)}>{ "Show the whole run" }</button>
                </div>
            </div>
        </section>
    }
}

//! A plotters chart on a canvas, redrawn whenever its data changes, with PNG and SVG export.

use std::rc::Rc;

use plotters::prelude::*;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::measured_canvas::MeasuredCanvas;
use super::workspace_file::download;
use crate::charts::{draw_xy, to_svg, XyChart};

#[derive(Properties, PartialEq)]
pub struct ChartProps {
    pub id: AttrValue,
    pub chart: Rc<XyChart>,
    #[prop_or(640)]
    pub width: u32,
    #[prop_or(400)]
    pub height: u32,
}

#[component(Chart)]
pub fn chart(p: &ChartProps) -> Html {
    let canvas = use_node_ref();
    let error = use_state(|| None::<String>);
    {
        let canvas = canvas.clone();
        let error = error.clone();
        use_effect_with(p.chart.clone(), move |chart| {
            if let Some(el) = canvas.cast::<HtmlCanvasElement>() {
                let result = MeasuredCanvas::new(el)
                    .ok_or_else(|| "this browser gave no 2D canvas".to_string())
                    .and_then(|backend| draw_xy(&backend.into_drawing_area(), chart));
                error.set(result.err());
            }
        });
    }
    let export_svg = {
        let chart = p.chart.clone();
        let (w, h, id) = (p.width, p.height, p.id.clone());
        Callback::from(move |_| {
            if let Ok(svg) = to_svg(&chart, w, h) {
                let _ = download(&format!("{id}.svg"), "image/svg+xml", &svg);
            }
        })
    };
    let export_png = {
        let canvas = canvas.clone();
        let id = p.id.clone();
        Callback::from(move |_| {
            let Some(el) = canvas.cast::<HtmlCanvasElement>() else { return };
            let Ok(url) = el.to_data_url() else { return };
            let doc = gloo::utils::document();
            if let Some(a) = doc.create_element("a").ok().and_then(|a| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlAnchorElement>(a).ok()) {
                a.set_href(&url);
                a.set_download(&format!("{id}.png"));
                a.click();
            }
        })
    };
    html! {
        <figure class="chart-figure">
            <canvas id={p.id.clone()} class="chart" ref={canvas} width={p.width.to_string()} height={p.height.to_string()}
                role="img" aria-label={p.chart.title.clone()} />
            <figcaption>
                <button class="link" onclick={export_png}>{ "PNG" }</button>
                <button class="link" onclick={export_svg}>{ "SVG" }</button>
                if let Some(e) = &*error { <span class="field-error">{ e.clone() }</span> }
            </figcaption>
        </figure>
    }
}

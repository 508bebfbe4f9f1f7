//! A plotters chart on a canvas, redrawn whenever its data changes, with PNG and SVG export.
//! Generic over what it draws (`charts::Drawing`): x–y charts, a heat map, a timeline.

use std::rc::Rc;

use plotters::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

use super::measured_canvas::MeasuredCanvas;
use super::workspace_file::download;
use crate::charts::{to_svg, Drawing, Frame};

#[derive(Properties, PartialEq)]
pub struct ChartProps<D: Drawing> {
    pub id: AttrValue,
    pub chart: Rc<D>,
    #[prop_or(640)]
    pub width: u32,
    #[prop_or(400)]
    pub height: u32,
    /// A vertical marker at this x, labelled, drawn over the chart: moving it does not redraw
    /// the chart itself.
    #[prop_or_default]
    pub marker: Option<(f64, AttrValue)>,
}

/// Draws the marker on the overlay canvas (cleared first).
fn draw_marker(overlay: &HtmlCanvasElement, frame: Option<Frame>, marker: &Option<(f64, AttrValue)>) -> Option<()> {
    let ctx: CanvasRenderingContext2d = overlay.get_context("2d").ok()??.dyn_into().ok()?;
    ctx.clear_rect(0.0, 0.0, f64::from(overlay.width()), f64::from(overlay.height()));
    let (x, label) = marker.as_ref()?;
    let frame = frame?;
    let px = f64::from(frame.x_pixel(*x)?) + 0.5;
    ctx.set_stroke_style_str("#555");
    ctx.set_line_width(1.5);
    ctx.set_line_dash(&js_sys::Array::of2(&6.0.into(), &4.0.into())).ok()?;
    ctx.begin_path();
    ctx.move_to(px, f64::from(frame.y_px.0));
    ctx.line_to(px, f64::from(frame.y_px.1));
    ctx.stroke();
    ctx.set_fill_style_str("#333");
    ctx.set_font("12px sans-serif");
    let right = px + 120.0 > f64::from(frame.x_px.1);
    ctx.set_text_align(if right { "right" } else { "left" });
    ctx.fill_text(label, if right { px - 4.0 } else { px + 4.0 }, f64::from(frame.y_px.0) + 12.0).ok()
}

#[component(Chart)]
pub fn chart<D: Drawing>(p: &ChartProps<D>) -> Html {
    let canvas = use_node_ref();
    let overlay = use_node_ref();
    let error = use_state(|| None::<String>);
    let frame = use_mut_ref(|| None::<Frame>);
    let marker = use_mut_ref(|| None::<(f64, AttrValue)>);
    *marker.borrow_mut() = p.marker.clone();
    {
        // The chart is redrawn only when its data changed, not when the marker moved.
        let (canvas, overlay, frame, marker) = (canvas.clone(), overlay.clone(), frame.clone(), marker.clone());
        let error = error.clone();
        use_effect_with(p.chart.clone(), move |chart| {
            if let Some(el) = canvas.cast::<HtmlCanvasElement>() {
                let result = MeasuredCanvas::new(el)
                    .ok_or_else(|| "this browser gave no 2D canvas".to_string())
                    .and_then(|backend| chart.draw(&backend.into_drawing_area()));
                match result {
                    Ok(f) => {
                        *frame.borrow_mut() = f;
                        error.set(None);
                    }
                    Err(e) => error.set(Some(e)),
                }
            }
            if let Some(o) = overlay.cast::<HtmlCanvasElement>() {
                draw_marker(&o, *frame.borrow(), &marker.borrow());
            }
        });
    }
    {
        let (overlay, frame) = (overlay.clone(), frame.clone());
        use_effect_with(p.marker.clone(), move |marker| {
            if let Some(o) = overlay.cast::<HtmlCanvasElement>() {
                draw_marker(&o, *frame.borrow(), marker);
            }
        });
    }
    let export_svg = {
        let chart = p.chart.clone();
        let (w, h, id) = (p.width, p.height, p.id.clone());
        Callback::from(move |_| {
            if let Ok(svg) = to_svg(&*chart, w, h) {
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
            <div class="chart-stack">
                <canvas id={p.id.clone()} class="chart" ref={canvas} width={p.width.to_string()} height={p.height.to_string()}
                    style={format!("aspect-ratio: {} / {}", p.width, p.height)}
                    role="img" aria-label={p.chart.title().to_string()} />
                if p.marker.is_some() {
                    <canvas class="chart-overlay" ref={overlay} width={p.width.to_string()} height={p.height.to_string()} aria-hidden="true" />
                }
            </div>
            <figcaption>
                <button class="link" onclick={export_png}>{ "PNG" }</button>
                <button class="link" onclick={export_svg}>{ "SVG" }</button>
                if let Some(e) = &*error { <span class="field-error">{ e.clone() }</span> }
            </figcaption>
        </figure>
    }
}

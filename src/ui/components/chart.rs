//! A plotters chart on a canvas as wide as its container, at the screen's pixel density, in
//! the page's theme; redrawn when its data, its width or the theme change. Hovering or
//! tapping shows the nearest data point; a "Data table" disclosure under it lists the data
//! drawn; PNG and SVG export. Draws any `charts::Drawing`, through `AnyDrawing`, so that the
//! component is compiled once into a page rather than once per kind of drawing (three copies
//! of about 11 KB each on the communication page before).

use std::any::Any;
use std::rc::Rc;

use gloo::events::EventListener;
use plotters::coord::Shift;
use plotters::prelude::*;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::measured_canvas::MeasuredCanvas;
use super::table_csv::csv_button;
use super::workspace_file::download;
use crate::charts::{ChartError, Drawing, Frame, Readout, Table, Theme};

/// A drawing the page's backend can draw, as a trait object.
pub trait AnyDrawing {
    fn title(&self) -> &str;
    fn draw_on(
        &self,
        area: &DrawingArea<MeasuredCanvas<'_>, Shift>,
        theme: &Theme,
    ) -> Result<Option<Frame>, ChartError>;
    fn table(&self) -> Table;
    fn readout(&self, frame: &Frame, at: (i32, i32)) -> Option<Readout>;
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn AnyDrawing) -> bool;
}

impl<D: Drawing> AnyDrawing for D {
    fn title(&self) -> &str {
        Drawing::title(self)
    }
    fn draw_on(
        &self,
        area: &DrawingArea<MeasuredCanvas<'_>, Shift>,
        theme: &Theme,
    ) -> Result<Option<Frame>, ChartError> {
        self.draw(area, theme)
    }
    fn table(&self) -> Table {
        Drawing::table(self)
    }
    fn readout(&self, frame: &Frame, at: (i32, i32)) -> Option<Readout> {
        Drawing::readout(self, frame, at)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn AnyDrawing) -> bool {
        other.as_any().downcast_ref::<D>() == Some(self)
    }
}

impl PartialEq for dyn AnyDrawing {
    /// The same kind of drawing with the same data.
    fn eq(&self, other: &dyn AnyDrawing) -> bool {
        self.same(other)
    }
}

/// A chart's drawing for the `chart` property.
pub fn drawing<D: Drawing>(d: Rc<D>) -> Rc<dyn AnyDrawing> {
    d
}

#[derive(Properties)]
pub struct ChartProps {
    pub id: AttrValue,
    pub chart: Rc<dyn AnyDrawing>,
    /// Height at a width of 640 pixels or more; narrower charts are shorter, down to 320.
    #[prop_or(400)]
    pub height: u32,
    /// A vertical marker at this x, labelled, drawn over the chart: moving it does not redraw
    /// the chart itself.
    #[prop_or_default]
    pub marker: Option<(f64, AttrValue)>,
}

impl PartialEq for ChartProps {
    fn eq(&self, other: &ChartProps) -> bool {
        self.id == other.id && self.height == other.height && self.marker == other.marker && *self.chart == *other.chart
    }
}

/// The page's theme: `<html data-theme="dark">` or light (the theme switch's contract; it
/// fires `scalewise-theme` on window whenever the attribute changes).
fn page_is_dark() -> bool {
    gloo::utils::document().document_element().and_then(|e| e.get_attribute("data-theme")).as_deref() == Some("dark")
}

/// The drawing size for a container `width` CSS pixels wide, and the screen's density.
fn size_for(width: i32, height: u32) -> (u32, u32, f64) {
    let w = width.clamp(200, 4000) as u32;
    let h = (u64::from(w) * u64::from(height) / 640) as u32;
    let dpr = gloo::utils::window().device_pixel_ratio();
    let dpr = if dpr.is_finite() { dpr.clamp(1.0, 3.0) } else { 1.0 };
    (w, h.clamp(height.min(320), height), dpr)
}

fn rect_attr(r: (i32, i32, i32, i32)) -> String {
    format!("{} {} {} {}", r.0, r.1, r.2, r.3)
}

fn table_html(t: &Table, id: &str) -> Html {
    html! {
        <>
            <div class="chart-table-scroll" tabindex="0" role="region" aria-label="chart data">
                <table class="chart-table">
                    <thead><tr>{ for t.headers.iter().map(|h| html! { <th scope="col">{ h.clone() }</th> }) }</tr></thead>
                    <tbody>
                        { for t.rows.iter().map(|r| html! { <tr>{ for r.iter().map(|c| html! { <td>{ c.clone() }</td> }) }</tr> }) }
                    </tbody>
                </table>
            </div>
            { csv_button(format!("{id}.csv")) }
            if let Some(n) = &t.note { <p class="hint">{ n.clone() }</p> }
        </>
    }
}

#[component(Chart)]
pub fn chart(p: &ChartProps) -> Html {
    let stack = use_node_ref();
    let canvas = use_node_ref();
    let error = use_state_eq(|| None::<&'static str>);
    let frame = use_state_eq(|| None::<Frame>);
    let size = use_state_eq(|| None::<(u32, u32, f64)>);
    let dark = use_state_eq(page_is_dark);
    let hover = use_state_eq(|| None::<Readout>);
    let open = use_state_eq(|| false);
    {
        // Width from the container, again on every resize; the theme again on its event.
        let (stack, size, dark, height) = (stack.clone(), size.clone(), dark.clone(), p.height);
        use_effect_with(height, move |&height| {
            let measure = move || {
                if let Some(el) = stack.cast::<web_sys::Element>() {
                    size.set(Some(size_for(el.client_width(), height)));
                }
            };
            measure();
            let window = gloo::utils::window();
            let resize = EventListener::new(&window, "resize", move |_| measure());
            let theme = EventListener::new(&window, "scalewise-theme", move |_| dark.set(page_is_dark()));
            move || drop((resize, theme))
        });
    }
    {
        let (canvas, frame, error) = (canvas.clone(), frame.clone(), error.clone());
        use_effect_with((p.chart.clone(), *size, *dark), move |(chart, size, dark)| {
            let (Some(el), Some((_, _, dpr))) = (canvas.cast::<HtmlCanvasElement>(), size) else { return };
            let theme = if *dark { Theme::DARK } else { Theme::LIGHT };
            let result = MeasuredCanvas::new(el, *dpr).ok_or("this browser gave no 2D canvas").and_then(|backend| {
                chart.draw_on(&backend.into_drawing_area(), &theme).map_err(|_| ChartError::MESSAGE)
            });
            match result {
                Ok(f) => {
                    frame.set(f);
                    error.set(None);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    }
    let table = use_memo((p.chart.clone(), *open), |(chart, open)| open.then(|| chart.table()));
    let point = {
        let (chart, frame, hover) = (p.chart.clone(), frame.clone(), hover.clone());
        Callback::from(move |e: PointerEvent| {
            hover.set(
                frame
                    .as_ref()
                    .and_then(|f| chart.readout(f, (e.offset_x().round() as i32, e.offset_y().round() as i32))),
            );
        })
    };
    let leave = {
        let hover = hover.clone();
        Callback::from(move |_: PointerEvent| hover.set(None))
    };
    let toggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            if let Some(d) = e.target_dyn_into::<web_sys::HtmlDetailsElement>() {
                open.set(d.open());
            }
        })
    };
    let export_svg = {
        let (chart, canvas, size, dark, id) = (p.chart.clone(), canvas.clone(), *size, *dark, p.id.clone());
        Callback::from(move |_| {
            let (Some(el), Some((w, h, _))) = (canvas.cast::<HtmlCanvasElement>(), size) else { return };
            let mut svg = String::new();
            let drawn = MeasuredCanvas::svg(&mut svg, (w, h), &el).map(|b| {
                chart.draw_on(&b.into_drawing_area(), if dark { &Theme::DARK } else { &Theme::LIGHT }).is_ok()
            });
            if drawn == Some(true) {
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
            if let Some(a) = doc
                .create_element("a")
                .ok()
                .and_then(|a| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlAnchorElement>(a).ok())
            {
                a.set_href(&url);
                a.set_download(&format!("{id}.png"));
                a.click();
            }
        })
    };
    let (w, h, dpr) = size.unwrap_or((640, p.height, 1.0));
    let marker = match (&p.marker, *frame) {
        (Some((x, label)), Some(f)) => f.x_pixel(*x).map(|px| (px, f, label.clone())),
        _ => None,
    };
    let line = |x: i32, f: &Frame, class: &'static str| {
        html! { <div {class} style={format!("left:{x}px;top:{}px;height:{}px", f.y_px.0, f.y_px.1 - f.y_px.0)} /> }
    };
    // Labels sit right of their line, or left of it in the right half of the chart.
    let label_style = |x: i32, y: i32| {
        if x as u32 > w / 2 {
            format!("right:{}px;top:{y}px", w as i32 - x + 6)
        } else {
            format!("left:{}px;top:{y}px", x + 6)
        }
    };
    html! {
        <figure class="chart-figure">
            <div class="chart-stack" ref={stack} onpointermove={point.clone()} onpointerdown={point} onpointerleave={leave}>
                <canvas id={p.id.clone()} class="chart" ref={canvas}
                    width={((f64::from(w) * dpr).round() as u32).to_string()} height={((f64::from(h) * dpr).round() as u32).to_string()}
                    style={format!("width:{w}px;height:{h}px")}
                    data-plot={frame.map(|f| rect_attr((f.x_px.0, f.y_px.0, f.x_px.1, f.y_px.1)))}
                    data-legend={frame.and_then(|f| f.legend).map(rect_attr)}
                    role="img" aria-label={p.chart.title().to_string()} />
                if let Some((x, f, label)) = marker {
                    { line(x, &f, "chart-marker") }
                    <span class="chart-marker-label" style={label_style(x, f.y_px.0 + 2)}>{ label }</span>
                }
                if let (Some(r), Some(f)) = (&*hover, *frame) {
                    { line(r.x_px, &f, "chart-crosshair") }
                    <span class="chart-readout" role="status" style={label_style(r.x_px, (r.y_px - 30).max(f.y_px.0))}>{ r.text.clone() }</span>
                }
            </div>
            <figcaption>
                <button class="link" onclick={export_png}>{ "PNG" }</button>
                <button class="link" onclick={export_svg}>{ "SVG" }</button>
                if let Some(e) = &*error { <span class="field-error">{ *e }</span> }
            </figcaption>
            <details class="chart-data" ontoggle={toggle}>
                <summary>{ "Data table" }</summary>
                if let Some(t) = &*table { { table_html(t, &p.id) } }
            </details>
        </figure>
    }
}

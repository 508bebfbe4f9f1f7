//! The pages' one plotters backend: a canvas drawn at the screen's pixel density, or an SVG
//! document for export, both measuring text with the canvas' own 2D context.
//!
//! Text: plotters' own browser text measurement inserts a `<span>` into the page and reads
//! its `offsetHeight` for every label: each read forces a layout of the whole page, which
//! cost about 4 ms per keystroke on the planner page (CPU profile, 30 keystrokes).
//! `measureText` on the chart's own 2D context needs no page layout.
//!
//! Density: the canvas holds `scale` device pixels per CSS pixel (its `devicePixelRatio`),
//! and its context is scaled to match, so drawings work in CSS pixels and stay sharp.
//!
//! One backend type for both canvas and SVG means every chart's drawing function is compiled
//! once into a page's wasm rather than once per backend.

use plotters::prelude::SVGBackend;
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The one error a drawing reports (its text is the chart's, see `charts::draw_xy`).
#[derive(Debug)]
pub struct DrawError;

impl std::fmt::Display for DrawError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the chart could not be drawn")
    }
}

impl std::error::Error for DrawError {}

enum Target<'a> {
    Canvas(CanvasBackend),
    Svg(SVGBackend<'a>),
}

pub struct MeasuredCanvas<'a> {
    target: Target<'a>,
    context: CanvasRenderingContext2d,
    /// Drawing size, CSS pixels.
    size: (u32, u32),
}

fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok()
}

impl MeasuredCanvas<'static> {
    /// Draws on `canvas`, whose backing store is `scale` times its CSS size.
    pub fn new(canvas: HtmlCanvasElement, scale: f64) -> Option<Self> {
        let context = context(&canvas)?;
        let scale = if scale.is_finite() && scale >= 1.0 { scale } else { 1.0 };
        context.set_transform(scale, 0.0, 0.0, scale, 0.0, 0.0).ok()?;
        let size =
            ((f64::from(canvas.width()) / scale).round() as u32, (f64::from(canvas.height()) / scale).round() as u32);
        let target = Target::Canvas(CanvasBackend::with_canvas_object(canvas)?);
        Some(MeasuredCanvas { target, context, size })
    }
}

impl<'a> MeasuredCanvas<'a> {
    /// Writes an SVG document of `size` into `out`, measuring text with `canvas`.
    pub fn svg(out: &'a mut String, size: (u32, u32), canvas: &HtmlCanvasElement) -> Option<Self> {
        Some(MeasuredCanvas {
            target: Target::Svg(SVGBackend::with_string(out, size)),
            context: context(canvas)?,
            size,
        })
    }
}

fn cast<E: std::error::Error + Send + Sync>(
    r: Result<(), DrawingErrorKind<E>>,
) -> Result<(), DrawingErrorKind<DrawError>> {
    r.map_err(|e| match e {
        DrawingErrorKind::DrawingError(_) => DrawingErrorKind::DrawingError(DrawError),
        DrawingErrorKind::FontError(f) => DrawingErrorKind::FontError(f),
    })
}

type Res = Result<(), DrawingErrorKind<DrawError>>;

/// Calls the same method on whichever backend is the target.
macro_rules! both {
    ($self:ident, $b:ident => $call:expr) => {
        match &mut $self.target {
            Target::Canvas($b) => cast($call),
            Target::Svg($b) => cast($call),
        }
    };
}

impl DrawingBackend for MeasuredCanvas<'_> {
    type ErrorType = DrawError;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }
    fn ensure_prepared(&mut self) -> Res {
        both!(self, b => b.ensure_prepared())
    }
    fn present(&mut self) -> Res {
        both!(self, b => b.present())
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Res {
        both!(self, b => b.draw_pixel(point, color))
    }
    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Res {
        both!(self, b => b.draw_line(from, to, style))
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Res {
        both!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Res {
        both!(self, b => b.draw_path(path, style))
    }
    fn draw_circle<S: BackendStyle>(&mut self, center: BackendCoord, radius: u32, style: &S, fill: bool) -> Res {
        both!(self, b => b.draw_circle(center, radius, style, fill))
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, vert: I, style: &S) -> Res {
        both!(self, b => b.fill_polygon(vert, style))
    }
    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, pos: BackendCoord) -> Res {
        both!(self, b => b.draw_text(text, style, pos))
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<DrawError>> {
        // The same font string the canvas backend draws with.
        self.context.set_font(&format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str()));
        let width = self.context.measure_text(text).map(|m| m.width()).unwrap_or(0.0);
        // A line of text is about 1.2 font sizes tall, as the span plotters measures.
        Ok((width.ceil() as u32, (style.size() * 1.2).ceil() as u32))
    }
}

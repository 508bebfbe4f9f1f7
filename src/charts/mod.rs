//! Chart drawing with plotters, generic over the backend: the page draws on a canvas, export
//! and native tests render the same function to SVG. Charts take plain data (`XyChart`),
//! never model or UI types, so any calculator can describe what it wants drawn.

pub mod comm;
pub mod extrap;
pub mod multigrid;
pub mod regions;
pub mod simulate;
pub mod speedup;
pub mod xy;

use plotters::coord::Shift;
use plotters::prelude::*;

pub use xy::{draw_xy, Axis, Frame, Marker, Series, XyChart};

/// Anything a chart component can draw: on the page's canvas, and as SVG for export.
pub trait Drawing: PartialEq + 'static {
    fn title(&self) -> &str;
    /// Draws on any backend; answers where an x–y plot sits (None for other drawings).
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<Option<Frame>, String>;
}

impl Drawing for XyChart {
    fn title(&self) -> &str {
        &self.title
    }
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<Option<Frame>, String> {
        draw_xy(area, self)
    }
}

/// The drawing as an SVG document, for export and for native tests.
pub fn to_svg<D: Drawing>(drawing: &D, width: u32, height: u32) -> Result<String, String> {
    let mut out = String::new();
    {
        let backend = SVGBackend::with_string(&mut out, (width, height));
        drawing.draw(&backend.into_drawing_area())?;
    }
    Ok(out)
}

/// Colours for series, in order; chosen to stay distinguishable for common colour blindness.
pub const PALETTE: &[(u8, u8, u8)] = &[
    (31, 95, 191),
    (214, 96, 0),
    (30, 123, 52),
    (170, 51, 119),
    (102, 102, 102),
    (0, 153, 153),
    (153, 102, 0),
    (102, 51, 153),
];

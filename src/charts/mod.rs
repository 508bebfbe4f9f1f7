//! Chart drawing with plotters, generic over the backend: the page draws on a canvas, export
//! and native tests render the same function to SVG. Charts take plain data (`XyChart`,
//! `Gantt`, …), never model or UI types, so any calculator can describe what it wants drawn.
//!
//! Every drawing also answers a text alternative (`Drawing::table`, from the same data it
//! draws) and, given the `Frame` its drawing returned, a read-out of the point nearest a
//! pixel (`Drawing::readout`), so the page needs no knowledge of what a chart holds.

pub mod bottlenecks;
pub mod calibration;
pub mod comm;
pub mod gantt;
pub mod multigrid;
pub mod regions;
pub mod simulate;
pub mod sites;
pub mod speedup;
pub mod xy;

use plotters::coord::Shift;
use plotters::prelude::*;

pub use gantt::Gantt;
pub use xy::{draw_xy, Axis, Band, Bars, Frame, Marker, Series, XyChart};

/// Colours of a drawing's surroundings: the page's light or dark theme.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    pub background: RGBColor,
    pub text: RGBColor,
    /// Grid lines and row separators.
    pub grid: RGBColor,
    /// Axis lines, ticks and thin marks.
    pub axis: RGBColor,
}

impl Theme {
    pub const LIGHT: Theme = Theme {
        background: RGBColor(255, 255, 255),
        text: RGBColor(20, 20, 20),
        grid: RGBColor(225, 225, 225),
        axis: RGBColor(60, 60, 60),
    };
    pub const DARK: Theme = Theme {
        background: RGBColor(24, 26, 30),
        text: RGBColor(232, 232, 232),
        grid: RGBColor(62, 66, 72),
        axis: RGBColor(190, 190, 190),
    };

    /// The theme named by the page's `data-theme` attribute ("dark"; anything else is light).
    pub fn named(name: Option<&str>) -> Theme {
        if name == Some("dark") {
            Theme::DARK
        } else {
            Theme::LIGHT
        }
    }

    pub(crate) fn font(&self, size: u32) -> TextStyle<'static> {
        // The enum, not "sans-serif": parsing a family name costs the page a few KB.
        (FontFamily::SansSerif, size).into_font().color(&self.text)
    }
}

/// A chart's data as a table, the text alternative drawn under it: the same numbers the
/// chart draws, formatted for people, with units in the headers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// A sentence under the table (what was left out, and why).
    pub note: Option<String>,
}

/// What hovering a chart shows: a line at `x_px` and a label near (`x_px`, `y_px`).
#[derive(Debug, Clone, PartialEq)]
pub struct Readout {
    pub x_px: i32,
    pub y_px: i32,
    pub text: String,
}

/// A chart the backend refused to draw (a canvas call refused, text that could not be
/// measured): a backend's own error tells a person nothing more than that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChartError;

impl ChartError {
    /// What the page says under the chart.
    pub const MESSAGE: &'static str = "the chart could not be drawn";
}

/// A backend's error, of whatever type, as the chart's.
pub(crate) fn failed<E>(_: E) -> ChartError {
    ChartError
}

/// Anything a chart component can draw: on the page's canvas, and as SVG for export.
pub trait Drawing: PartialEq + 'static {
    fn title(&self) -> &str;
    /// Draws on any backend; answers where the plot sits (None when nothing could be plotted).
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
    ) -> Result<Option<Frame>, ChartError>;
    /// The drawn data as a table.
    fn table(&self) -> Table;
    /// The data nearest pixel `at` of a drawing whose frame is `frame`.
    fn readout(&self, _frame: &Frame, _at: (i32, i32)) -> Option<Readout> {
        None
    }
}

impl Drawing for XyChart {
    fn title(&self) -> &str {
        &self.title
    }
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
    ) -> Result<Option<Frame>, ChartError> {
        draw_xy(area, self, theme)
    }
    fn table(&self) -> Table {
        xy::table(self)
    }
    fn readout(&self, frame: &Frame, at: (i32, i32)) -> Option<Readout> {
        xy::readout(self, frame, at)
    }
}

/// The drawing as an SVG document, for native tests and the command. (The pages export SVG
/// through their own backend, so that each drawing function is compiled once into the wasm.)
#[cfg(not(target_arch = "wasm32"))]
pub fn to_svg<D: Drawing>(drawing: &D, width: u32, height: u32) -> Result<String, ChartError> {
    to_svg_themed(drawing, width, height, &Theme::LIGHT).map(|(svg, _)| svg)
}

/// The drawing as SVG in `theme`, with the frame its drawing answered.
#[cfg(not(target_arch = "wasm32"))]
pub fn to_svg_themed<D: Drawing>(
    drawing: &D,
    width: u32,
    height: u32,
    theme: &Theme,
) -> Result<(String, Option<Frame>), ChartError> {
    let mut out = String::new();
    let frame = {
        let backend = SVGBackend::with_string(&mut out, (width, height));
        drawing.draw(&backend.into_drawing_area(), theme)?
    };
    Ok((out, frame))
}

/// Colours for series, in order: Okabe and Ito's palette for colour-vision deficiencies
/// (M. Okabe, K. Ito, "Color Universal Design", 2008, <https://jfly.uni-koeln.de/color/>),
/// with its black replaced by a mid grey (index 4, kept for measurements and keys) that
/// reads on both the light and the dark theme.
pub const PALETTE: &[(u8, u8, u8)] = &[
    (0, 114, 178),   // blue
    (213, 94, 0),    // vermillion
    (0, 158, 115),   // bluish green
    (204, 121, 167), // reddish purple
    (128, 128, 128), // grey
    (86, 180, 233),  // sky blue
    (230, 159, 0),   // orange
    (240, 228, 66),  // yellow
];

/// Palette colour `i` (wrapping).
pub fn color(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

/// A value's name and unit from an axis label "time (s)": ("time", "s"); no unit: ("n", "").
pub(crate) fn split_unit(label: &str) -> (&str, &str) {
    match (label.rfind(" ("), label.ends_with(')')) {
        (Some(k), true) => (&label[..k], &label[k + 2..label.len() - 1]),
        _ => (label, ""),
    }
}

/// " s" after a number, or nothing when there is no unit.
pub(crate) fn unit_suffix(unit: &str) -> String {
    if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    }
}

/// A table header: "start (s)", or "start" when there is no unit.
pub(crate) fn header(name: &str, unit: &str) -> String {
    if unit.is_empty() {
        name.to_string()
    } else {
        format!("{name} ({unit})")
    }
}

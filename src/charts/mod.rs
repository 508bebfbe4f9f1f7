//! Chart drawing with plotters, generic over the backend: the page draws on a canvas, export
//! and native tests render the same function to SVG. Charts take plain data (`XyChart`),
//! never model or UI types, so any calculator can describe what it wants drawn.

pub mod multigrid;
pub mod regions;
pub mod simulate;
pub mod speedup;
pub mod xy;

pub use xy::{draw_xy, to_svg, Axis, Frame, Marker, Series, XyChart};

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

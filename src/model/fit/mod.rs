//! Fitting shared by the calculators: weighted least-squares lines.

pub mod line;

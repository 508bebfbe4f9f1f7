//! The "CSV" button every results table has. The page's script (static/site.js) answers its
//! click: it reads the table right before the button (or the table inside the element right
//! before it) from the page, one CSV record per row (RFC 4180, as `model::csv` writes), a
//! cell's `data-csv` attribute where it has one, else its text. So what downloads is what the
//! table shows, and the walk is in no page's wasm (in each, it cost about 2 KB gzipped).

use yew::prelude::*;

/// The button, offering the table before it as `file` (e.g. "speedup-forecast.csv").
pub fn csv_button(file: impl Into<AttrValue>) -> Html {
    let file: AttrValue = file.into();
    let label = format!("CSV of this table ({file})");
    html! { <button class="link csv" aria-label={label} data-csv-file={file}>{ "CSV" }</button> }
}

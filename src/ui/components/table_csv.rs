//! The "CSV" button every results table has. A click reads the table right before the button
//! (or the table inside the element right before it) from the page: one CSV record per row, a
//! cell's `data-csv` attribute where it has one, else its text. So what downloads is what the
//! table shows, and one small function serves every table on every page.

use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use super::workspace_file::download;
use crate::model::csv::record;

/// The button, offering the table before it as `file` (e.g. "speedup-forecast.csv").
pub fn csv_button(file: impl Into<AttrValue>) -> Html {
    let file: AttrValue = file.into();
    let label = format!("CSV of this table ({file})");
    let onclick = Callback::from(move |e: MouseEvent| {
        let table = e
            .target_dyn_into::<Element>()
            .and_then(|b| b.previous_element_sibling())
            .and_then(|el| if el.tag_name() == "TABLE" { Some(el) } else { el.query_selector("table").ok().flatten() });
        if let Some(t) = table {
            let _ = download(&file, "text/csv", &table_csv(&t));
        }
    });
    html! { <button class="link csv" aria-label={label} {onclick}>{ "CSV" }</button> }
}

fn table_csv(table: &Element) -> String {
    let mut out = String::new();
    let Ok(rows) = table.query_selector_all("tr") else { return out };
    for i in 0..rows.length() {
        let Some(row) = rows.item(i).and_then(|r| r.dyn_into::<Element>().ok()) else { continue };
        let cells = row.children();
        let texts = (0..cells.length())
            .filter_map(|k| cells.item(k))
            .map(|c| c.get_attribute("data-csv").or_else(|| c.text_content()).unwrap_or_default().trim().to_string());
        out.push_str(&record(texts));
        out.push_str("\r\n");
    }
    out
}

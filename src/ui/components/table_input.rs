//! The one table input every calculator uses: paste from a spreadsheet, CSV or plain text,
//! with or without a header row. The text is kept as typed; the page parses it with
//! `model::input::table::parse_table` and hands back the error, shown here under the box.

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::model::input::table::ColumnSpec;
use crate::model::InputError;

#[derive(Properties, PartialEq)]
pub struct TableInputProps {
    /// DOM id, also used by tests.
    pub id: AttrValue,
    pub label: AttrValue,
    /// The columns, named in a hint above the box (none: no hint, e.g. for a matrix).
    pub columns: &'static [ColumnSpec],
    pub value: AttrValue,
    pub on_input: Callback<String>,
    #[prop_or_default]
    pub errors: Vec<InputError>,
    #[prop_or_default]
    pub hint: Option<AttrValue>,
    #[prop_or(6)]
    pub rows: u32,
}

#[component(TableInput)]
pub fn table_input(p: &TableInputProps) -> Html {
    let oninput = {
        let cb = p.on_input.clone();
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            cb.emit(area.value());
        })
    };
    let columns: Vec<String> = p.columns.iter().map(|c| c.label()).collect();
    let error_id = format!("{}-error", p.id);
    let invalid = !p.errors.is_empty();
    html! {
        <div class={classes!("table-input", invalid.then_some("invalid"))}>
            <label for={p.id.clone()}>{ p.label.clone() }</label>
            if !columns.is_empty() {
                <div class="columns-hint">
                    { "Columns: " }<code>{ columns.join(", ") }</code>
                    { " — paste from a spreadsheet, CSV or plain text; a header row (with units such as ms, µs, GB) is optional." }
                </div>
            }
            <textarea
                id={p.id.clone()}
                rows={p.rows.to_string()}
                spellcheck="false"
                aria-invalid={invalid.to_string()}
                aria-describedby={error_id.clone()}
                value={p.value.clone()}
                {oninput}
            />
            if let Some(h) = &p.hint { <div class="hint">{ h.clone() }</div> }
            <ul id={error_id} class="field-errors" role="alert">
                { for p.errors.iter().map(|e| html! { <li>{ e.local_text() }</li> }) }
            </ul>
        </div>
    }
}

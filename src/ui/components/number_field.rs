//! Single-value inputs. `TextField` shows text the page keeps in the workspace (so nothing
//! typed is lost, valid or not). `NumberCell` edits a number held elsewhere (the catalog):
//! it keeps the text locally while it does not parse and commits only valid numbers.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::model::input::table::parse_number;
use std::rc::Rc;

use crate::model::workspace::{FieldSet, PageInputs};
use crate::ui::store::{text, Setter};

#[derive(Properties, PartialEq)]
pub struct TextFieldProps {
    pub id: AttrValue,
    pub label: AttrValue,
    pub value: AttrValue,
    pub on_input: Callback<String>,
    #[prop_or_default]
    pub error: Option<String>,
    #[prop_or_default]
    pub unit: Option<AttrValue>,
}

#[component(TextField)]
pub fn text_field(p: &TextFieldProps) -> Html {
    let oninput = {
        let cb = p.on_input.clone();
        Callback::from(move |e: InputEvent| {
            let el: HtmlInputElement = e.target_unchecked_into();
            cb.emit(el.value());
        })
    };
    let invalid = p.error.is_some();
    html! {
        <div class={classes!("field", invalid.then_some("invalid"))}>
            <label for={p.id.clone()}>{ p.label.clone() }
                if let Some(u) = &p.unit { <span class="unit">{ format!(" ({u})") }</span> }
            </label>
            <input id={p.id.clone()} type="text" inputmode="decimal" spellcheck="false"
                aria-invalid={invalid.to_string()} value={p.value.clone()} {oninput} />
            if let Some(e) = &p.error { <div class="field-error" role="alert">{ e.clone() }</div> }
        </div>
    }
}

/// Which numbers a `NumberCell` accepts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    pub min: f64,
    /// Whether `min` itself is allowed.
    pub min_inclusive: bool,
    pub integer: bool,
}

impl Bounds {
    pub const POSITIVE: Bounds = Bounds { min: 0.0, min_inclusive: false, integer: false };
    pub const NON_NEGATIVE: Bounds = Bounds { min: 0.0, min_inclusive: true, integer: false };
    pub const COUNT: Bounds = Bounds { min: 1.0, min_inclusive: true, integer: true };

    fn check(&self, text: &str) -> Result<f64, NotInBounds> {
        let x = parse_number(text).ok_or(NotInBounds::NotANumber)?;
        if self.integer && x.fract() != 0.0 {
            return Err(NotInBounds::NotWhole);
        }
        if x < self.min || (!self.min_inclusive && x == self.min) {
            return Err(NotInBounds::Below(*self));
        }
        if self.integer && x > f64::from(u32::MAX) {
            return Err(NotInBounds::TooLarge);
        }
        Ok(x)
    }
}

/// Why a cell's text is not a number its [`Bounds`] accept.
#[derive(Debug, Clone, Copy, PartialEq)]
enum NotInBounds {
    NotANumber,
    NotWhole,
    /// Below the bounds' minimum (or at it, when it is excluded).
    Below(Bounds),
    /// A whole number past u32's range.
    TooLarge,
}

impl std::fmt::Display for NotInBounds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotInBounds::NotANumber => f.write_str("expected a number"),
            NotInBounds::NotWhole => f.write_str("expected a whole number"),
            NotInBounds::Below(b) => {
                write!(f, "expected {} {}", if b.min_inclusive { "at least" } else { "more than" }, b.min)
            }
            NotInBounds::TooLarge => f.write_str("too large"),
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct NumberCellProps {
    pub id: AttrValue,
    /// Accessible name (the cell sits in a table whose header shows the unit).
    pub label: AttrValue,
    pub value: f64,
    pub bounds: Bounds,
    pub on_commit: Callback<f64>,
}

#[component(NumberCell)]
pub fn number_cell(p: &NumberCellProps) -> Html {
    let text = use_state(|| fmt_value(p.value));
    let error = use_state(|| None::<String>);
    // Follow outside changes (a reset, an import) unless the text already means that value.
    {
        let text = text.clone();
        let error = error.clone();
        use_effect_with(p.value.to_bits(), move |bits| {
            let v = f64::from_bits(*bits);
            if parse_number(&text).map(|x| x != v).unwrap_or(true) {
                text.set(fmt_value(v));
                error.set(None);
            }
        });
    }
    let oninput = {
        let text = text.clone();
        let error = error.clone();
        let bounds = p.bounds;
        let commit = p.on_commit.clone();
        Callback::from(move |e: InputEvent| {
            let el: HtmlInputElement = e.target_unchecked_into();
            let t = el.value();
            match bounds.check(&t) {
                Ok(x) => {
                    error.set(None);
                    commit.emit(x);
                }
                Err(why) => error.set(Some(why.to_string())),
            }
            text.set(t);
        })
    };
    let invalid = error.is_some();
    html! {
        <span class={classes!("cell", invalid.then_some("invalid"))}>
            <input id={p.id.clone()} type="text" inputmode="decimal" aria-label={p.label.clone()}
                aria-invalid={invalid.to_string()} value={(*text).clone()} {oninput} />
            if let Some(e) = &*error { <span class="field-error" role="alert">{ e.clone() }</span> }
        </span>
    }
}

fn fmt_value(x: f64) -> String {
    if x.is_finite() {
        // Shortest text that reads back as the same number.
        format!("{x}")
    } else {
        String::new()
    }
}

#[derive(Properties, PartialEq)]
pub struct NameCellProps {
    pub id: AttrValue,
    pub label: AttrValue,
    pub value: AttrValue,
    /// Other names this one must differ from (e.g. the cluster's other fabrics).
    #[prop_or_default]
    pub taken: Vec<String>,
    pub on_commit: Callback<String>,
}

/// A name in the catalog: must not be empty nor repeat a sibling's; kept locally until valid.
#[component(NameCell)]
pub fn name_cell(p: &NameCellProps) -> Html {
    let text = use_state(|| p.value.to_string());
    let error = use_state(|| None::<String>);
    {
        let text = text.clone();
        let error = error.clone();
        use_effect_with(p.value.clone(), move |v| {
            if text.trim() != v.as_str() {
                text.set(v.to_string());
                error.set(None);
            }
        });
    }
    let oninput = {
        let text = text.clone();
        let error = error.clone();
        let taken = p.taken.clone();
        let commit = p.on_commit.clone();
        Callback::from(move |e: InputEvent| {
            let el: HtmlInputElement = e.target_unchecked_into();
            let t = el.value();
            let trimmed = t.trim().to_string();
            if trimmed.is_empty() {
                error.set(Some("a name is needed".into()));
            } else if taken.contains(&trimmed) {
                error.set(Some("this name is already used here".into()));
            } else {
                error.set(None);
                commit.emit(trimmed);
            }
            text.set(t);
        })
    };
    let invalid = error.is_some();
    html! {
        <span class={classes!("cell", "name", invalid.then_some("invalid"))}>
            <input id={p.id.clone()} type="text" aria-label={p.label.clone()}
                aria-invalid={invalid.to_string()} value={(*text).clone()} {oninput} />
            if let Some(e) = &*error { <span class="field-error" role="alert">{ e.clone() }</span> }
        </span>
    }
}

/// A `TextField` bound to one input of a page.
pub fn page_field(
    inputs: &PageInputs,
    setter: &Setter,
    key: &'static str,
    label: &'static str,
    unit: Option<&'static str>,
    error: Option<String>,
) -> Html {
    html! {
        <TextField id={key} label={label} unit={unit.map(AttrValue::from)} value={text(inputs, key)}
            on_input={setter.on(key)} {error} />
    }
}

/// A select bound to one input of a page: (value, label) options; the first is the default.
pub fn page_select(
    inputs: &PageInputs,
    setter: &Setter,
    key: &'static str,
    label: &'static str,
    options: &[(&'static str, &'static str)],
) -> Html {
    let current = text(inputs, key);
    let chosen = options.iter().position(|(v, _)| *v == current.as_str()).unwrap_or(0);
    let setter = setter.clone();
    let onchange = Callback::from(move |e: Event| {
        let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
        setter.set(key, sel.value());
    });
    html! {
        <div class="field">
            <label for={key}>{ label }</label>
            <select id={key} {onchange}>
                { for options.iter().enumerate().map(|(i, (v, l))| html! { <option value={*v} selected={i == chosen}>{ *l }</option> }) }
            </select>
        </div>
    }
}

/// A select that fills in one of `sets` when picked, then shows `prompt` again.
pub fn field_set_select(id: &'static str, prompt: &'static str, sets: Rc<Vec<FieldSet>>, setter: &Setter) -> Html {
    let options: Vec<Html> = sets
        .iter()
        .enumerate()
        .map(|(i, s)| html! { <option value={i.to_string()}>{ s.label.clone() }</option> })
        .collect();
    let setter = setter.clone();
    let onchange = Callback::from(move |e: Event| {
        let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
        if let Some(s) = sel.value().parse::<usize>().ok().and_then(|i| sets.get(i)) {
            setter.fill(format!("Filled in {}", s.label), s.fields.clone());
        }
        sel.set_value("");
    });
    html! {
        <select {id} aria-label={prompt} {onchange}>
            <option value="" selected=true>{ prompt }</option>
            { for options }
        </select>
    }
}

/// A checkbox bound to one input of a page ("1" when ticked, empty when not).
pub fn page_check(inputs: &PageInputs, setter: &Setter, key: &'static str, label: &'static str) -> Html {
    let on = !text(inputs, key).trim().is_empty() && text(inputs, key).as_str() != "0";
    let setter = setter.clone();
    let onclick = Callback::from(move |_| setter.set(key, if on { String::new() } else { "1".into() }));
    html! {
        <div class="field check">
            <label><input id={key} type="checkbox" checked={on} {onclick} />{ label }</label>
        </div>
    }
}

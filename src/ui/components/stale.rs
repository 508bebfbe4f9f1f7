//! A section whose input has an error keeps showing its last good result, marked stale.

use yew::prelude::*;

/// What a section shows: the current result, or (while its input is broken) the last good
/// one, marked stale.
#[derive(Clone, PartialEq)]
pub struct Shown<T: Clone> {
    pub value: T,
    pub stale: bool,
}

/// Remembers `current` in `slot` while it is good; while `broken`, shows what the slot holds
/// (stale), or `current` when nothing good was seen yet.
pub fn keep<T: Clone>(slot: &mut Option<T>, current: T, broken: bool) -> Shown<T> {
    match (broken, slot.as_ref()) {
        (true, Some(old)) => Shown { value: old.clone(), stale: true },
        (true, None) => Shown { value: current, stale: false },
        (false, _) => {
            *slot = Some(current.clone());
            Shown { value: current, stale: false }
        }
    }
}

/// The note over a stale result; `text` says what is wrong and what is shown.
pub fn stale_note(stale: bool, text: &'static str) -> Html {
    if stale {
        html! { <div class="stale">{ text }</div> }
    } else {
        Html::default()
    }
}

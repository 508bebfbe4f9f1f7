//! A section whose input has an error keeps showing its last good result, marked stale: the
//! one home of "last good result" for every page ([`keep`]; [`keep_optional`] for a section
//! that may have nothing to show).

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

/// [`keep`] that does not remember a result of the page's example (`example`: `current` was
/// computed from the defaults or a preset, `Contract::is_example`): an error in the user's
/// first input then shows no answer rather than the example's, marked stale, which is easy
/// to copy as the user's own.
pub fn keep_own<T: Clone>(slot: &mut Option<T>, current: T, broken: bool, example: bool) -> Shown<T> {
    if example && !broken {
        *slot = None;
        return Shown { value: current, stale: false };
    }
    keep(slot, current, broken)
}

/// [`keep`] for a section that may have nothing to show while nothing is wrong (`current` None,
/// not `broken`): it then forgets its last result, so an error after it shows nothing rather
/// than an older result. While `broken`, `current` is shown only when nothing good was seen.
pub fn keep_optional<T: Clone>(slot: &mut Option<T>, current: Option<T>, broken: bool) -> Shown<Option<T>> {
    // `keep` over Option<T>, where the slot never holds a remembered "nothing": that is
    // remembered as nothing seen at all.
    let mut held = slot.take().map(Some);
    let shown = keep(&mut held, current, broken);
    *slot = held.flatten();
    shown
}

/// The note over a stale result; `text` says what is wrong and what is shown.
pub fn stale_note(stale: bool, text: &'static str) -> Html {
    if stale {
        html! { <div class="stale">{ text }</div> }
    } else {
        Html::default()
    }
}

//! Share links: one page's inputs as JSON, deflated (raw DEFLATE, RFC 1951) and
//! base64url-encoded into the `s=` URL parameter. A link is untrusted input: its length is
//! capped before decoding, the inflated size is capped, and the content is validated like an
//! imported workspace.
//!
//! The compression itself belongs to the platform: the browser has a native DEFLATE
//! (`CompressionStream("deflate-raw")`, see `ui::compress`), which costs the page nothing,
//! while native builds use `miniz_oxide` ([`encode`], [`decode`]). Both write the same
//! format, so links made by either read in the other. What is pure lives here: the JSON
//! ([`pack`], [`unpack`]) and the parameter text ([`to_param`], [`from_param`]).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};

use crate::model::workspace::{validate_page, PageInputs};
use crate::model::InputError;

/// Longest encoded link parameter accepted (characters). Browsers and servers handle URLs of
/// this length; typical pages encode to well under 2,000.
pub const MAX_ENCODED_CHARS: usize = 32_768;
/// Most bytes a link may inflate to.
pub const MAX_DECODED_BYTES: usize = 512 << 10;

pub const FIELD: &str = "share link";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SharedPage {
    /// Format version of the link content.
    pub v: u32,
    pub page: String,
    pub inputs: PageInputs,
}

/// The JSON a link carries, before compression.
pub fn pack(page: &str, inputs: &PageInputs) -> Vec<u8> {
    let shared = SharedPage { v: 1, page: page.to_string(), inputs: inputs.clone() };
    // Strings only: serde_json cannot fail on them.
    serde_json::to_vec(&shared).unwrap_or_default()
}

/// Reads and validates the JSON of a link, after decompression.
pub fn unpack(json: &[u8]) -> Result<SharedPage, InputError> {
    if json.len() > MAX_DECODED_BYTES {
        return Err(InputError::new(FIELD, "the link is damaged or expands beyond the size allowed"));
    }
    let mut shared: SharedPage = serde_json::from_slice(json)
        .map_err(|e| InputError::new(FIELD, format!("the link's content is not what scalewise writes: {e}")))?;
    if shared.v != 1 {
        return Err(InputError::new(FIELD, format!("link format {} is not supported", shared.v)));
    }
    validate_page(FIELD, &shared.page, &shared.inputs)?;
    super::migrate::shared_page(&shared.page, &mut shared.inputs);
    Ok(shared)
}

/// Compressed bytes → the `s=` parameter.
pub fn to_param(deflated: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(deflated)
}

/// The `s=` parameter → compressed bytes, refusing over-long or damaged text.
pub fn from_param(param: &str) -> Result<Vec<u8>, InputError> {
    if param.len() > MAX_ENCODED_CHARS {
        return Err(InputError::new(
            FIELD,
            format!("the link carries {} characters, more than the {MAX_ENCODED_CHARS} accepted", param.len()),
        ));
    }
    URL_SAFE_NO_PAD
        .decode(param.trim_end_matches('='))
        .map_err(|e| InputError::new(FIELD, format!("the link is damaged (not base64url: {e})")))
}

/// A page's inputs as an `s=` parameter (native builds).
#[cfg(not(target_arch = "wasm32"))]
pub fn encode(page: &str, inputs: &PageInputs) -> String {
    to_param(&miniz_oxide::deflate::compress_to_vec(&pack(page, inputs), 9))
}

/// An `s=` parameter read and validated (native builds).
#[cfg(not(target_arch = "wasm32"))]
pub fn decode(param: &str) -> Result<SharedPage, InputError> {
    let packed = from_param(param)?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_DECODED_BYTES)
        .map_err(|_| InputError::new(FIELD, "the link is damaged or expands beyond the size allowed"))?;
    unpack(&json)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs() -> PageInputs {
        let mut p = PageInputs::new();
        p.insert("sequential".into(), "work (MB)\ttime (s)\n2048\t1500\n1024\t740\n".into());
        p.insert("np".into(), "64".into());
        p
    }

    #[test]
    fn round_trip_is_url_safe() {
        let s = encode("multigrid", &inputs());
        assert!(s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'), "{s}");
        let back = decode(&s).expect("decodes");
        assert_eq!((back.page.as_str(), back.inputs), ("multigrid", inputs()));
    }

    #[test]
    fn hostile_links_are_refused() {
        let bomb_json = format!(
            "{{\"v\":1,\"page\":\"multigrid\",\"inputs\":{{\"a\":\"{}\"}}}}",
            "x".repeat(MAX_DECODED_BYTES + 10)
        );
        let bomb = to_param(&miniz_oxide::deflate::compress_to_vec(bomb_json.as_bytes(), 9));
        assert!(bomb.len() < 4096, "a compressible bomb is small: {}", bomb.len());
        let wrong_page = encode("admin", &inputs());
        let not_ours = to_param(&miniz_oxide::deflate::compress_to_vec(b"[1,2,3]", 9));
        let cases = [
            ("a".repeat(MAX_ENCODED_CHARS + 1), "more than the"),
            ("%%%".to_string(), "not base64url"),
            ("AAAA".to_string(), "damaged"),
            (bomb, "expands beyond"),
            (wrong_page, "unknown page \"admin\""),
            (not_ours, "not what scalewise writes"),
        ];
        for (param, want) in cases {
            let e = decode(&param).expect_err("must fail");
            assert!(e.to_string().contains(want), "{e} lacks {want}");
        }
        // The browser path checks the inflated size itself, through `unpack`.
        let e = unpack(bomb_json.as_bytes()).expect_err("too large");
        assert!(e.to_string().contains("expands beyond"));
    }
}

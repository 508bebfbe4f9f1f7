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

use crate::model::catalog::{Catalog, Cluster, Link};
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
    /// The clusters of the sender's catalog the inputs name (by id), as the sender had them,
    /// and the links between them: the recipient sees what the sender saw. (Links made
    /// before carry none; readers that know no clusters ignore them.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clusters: Vec<Cluster>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<Link>,
}

impl SharedPage {
    /// `catalog` with the link's clusters and links in it, the link's where an id (a pair)
    /// is in both.
    pub fn overlay(&self, catalog: &Catalog) -> Catalog {
        let mut out = catalog.clone();
        for c in &self.clusters {
            match out.clusters.iter_mut().find(|x| x.id == c.id) {
                Some(x) => *x = c.clone(),
                None => out.clusters.push(c.clone()),
            }
        }
        for l in &self.links {
            match out.links.iter_mut().find(|x| (&x.a, &x.b) == (&l.a, &l.b) || (&x.a, &x.b) == (&l.b, &l.a)) {
                Some(x) => *x = l.clone(),
                None => out.links.push(l.clone()),
            }
        }
        out
    }

    /// The link's clusters that `catalog` lacks or has otherwise: what the recipient is
    /// offered to add.
    pub fn new_clusters<'a>(&'a self, catalog: &Catalog) -> Vec<&'a Cluster> {
        self.clusters.iter().filter(|c| catalog.cluster(&c.id) != Some(*c)).collect()
    }
}

/// Whether an input names a cluster of the catalog by its id: the planner's calibrations'
/// `cal<i>_cluster` and its pair `pair_a`, `pair_b` (no other page refers to clusters by id:
/// the others copy a cluster's numbers into their own fields).
fn names_a_cluster(key: &str) -> bool {
    key.ends_with("_cluster") || key == "pair_a" || key == "pair_b"
}

/// The JSON a link carries, before compression: the page's inputs and the clusters of
/// `catalog` they name ([`names_a_cluster`]), with the links between those.
pub fn pack(page: &str, inputs: &PageInputs, catalog: &Catalog) -> Vec<u8> {
    let named = |id: &str| inputs.iter().any(|(k, v)| names_a_cluster(k) && v.trim() == id);
    let clusters: Vec<Cluster> = catalog.clusters.iter().filter(|c| named(&c.id)).cloned().collect();
    let links = catalog.links.iter().filter(|l| named(&l.a) && named(&l.b)).cloned().collect();
    let shared = SharedPage { v: 1, page: page.to_string(), inputs: inputs.clone(), clusters, links };
    // Strings and finite numbers only: serde_json cannot fail on them.
    serde_json::to_vec(&shared).unwrap_or_default()
}

/// Reads and validates the JSON of a link, after decompression.
pub fn unpack(json: &[u8]) -> Result<SharedPage, InputError> {
    if json.len() > MAX_DECODED_BYTES {
        return Err(InputError::new(FIELD, "the link is damaged or expands beyond the size allowed"));
    }
    // Read as text, as every other JSON of the pages is: one copy of the catalog's reader in
    // the page's wasm, not a second one for bytes.
    let text = std::str::from_utf8(json).map_err(|_| InputError::new(FIELD, "the link's content is not text"))?;
    let mut shared: SharedPage = serde_json::from_str(text)
        .map_err(|e| InputError::new(FIELD, format!("the link's content is not what scalewise writes: {e}")))?;
    if shared.v != 1 {
        return Err(InputError::new(FIELD, format!("link format {} is not supported", shared.v)));
    }
    validate_page(FIELD, &shared.page, &shared.inputs)?;
    let carried = Catalog { clusters: shared.clusters.clone(), links: Vec::new() };
    if let Err(errs) = carried.validate() {
        return Err(InputError::new(FIELD, format!("a cluster the link carries is not valid: {}", errs[0])));
    }
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

/// A page's inputs as an `s=` parameter, with the clusters of `catalog` they name (native
/// builds).
#[cfg(not(target_arch = "wasm32"))]
pub fn encode(page: &str, inputs: &PageInputs, catalog: &Catalog) -> String {
    to_param(&miniz_oxide::deflate::compress_to_vec(&pack(page, inputs, catalog), 9))
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
        let s = encode("multigrid", &inputs(), &Catalog::default());
        assert!(s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'), "{s}");
        let back = decode(&s).expect("decodes");
        assert_eq!((back.page.as_str(), back.inputs), ("multigrid", inputs()));
    }

    #[test]
    fn a_link_carries_the_clusters_its_inputs_name() {
        // Issue 33: a link naming the sender's own "custom-1" opened, for the recipient, with
        // "no cluster custom-1 in the catalog" and the wrong cluster selected.
        let mut sender = crate::model::catalog::presets();
        let mut mine = sender.clusters[0].clone();
        mine.id = "custom-1".into();
        mine.name = "My cluster 1".into();
        mine.price_per_cpu_hour = 7.5;
        sender.clusters.push(mine.clone());
        let mut i = inputs();
        i.insert("cal1_cluster".into(), "custom-1".into());
        let back = decode(&encode("multigrid", &i, &sender)).expect("decodes");
        assert_eq!(back.clusters, vec![mine.clone()], "only the clusters the inputs name");
        let recipient = crate::model::catalog::presets();
        assert_eq!(back.new_clusters(&recipient), vec![&mine]);
        let seen = back.overlay(&recipient);
        assert_eq!(seen.cluster("custom-1"), Some(&mine));
        assert_eq!(seen.clusters.len(), recipient.clusters.len() + 1);
        assert!(back.new_clusters(&seen).is_empty(), "nothing more to add once added");
        // Only inputs that name clusters: the simulation's machine "perseus" is no cluster.
        let mut sim = PageInputs::new();
        sim.insert("machine".into(), "perseus".into());
        assert!(decode(&encode("simulate", &sim, &sender)).expect("decodes").clusters.is_empty());
        // A link of an earlier build (no clusters) still reads.
        let old = br#"{"v":1,"page":"multigrid","inputs":{"np":"64"}}"#;
        assert!(unpack(old).expect("reads").clusters.is_empty());
    }

    #[test]
    fn hostile_links_are_refused() {
        let bomb_json = format!(
            "{{\"v\":1,\"page\":\"multigrid\",\"inputs\":{{\"a\":\"{}\"}}}}",
            "x".repeat(MAX_DECODED_BYTES + 10)
        );
        let bomb = to_param(&miniz_oxide::deflate::compress_to_vec(bomb_json.as_bytes(), 9));
        assert!(bomb.len() < 4096, "a compressible bomb is small: {}", bomb.len());
        let wrong_page = encode("admin", &inputs(), &Catalog::default());
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

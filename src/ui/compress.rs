//! DEFLATE in the browser, through the native `CompressionStream("deflate-raw")`, so share
//! links cost the page no compression code. The format matches `miniz_oxide`'s raw DEFLATE
//! used natively (see `model::workspace::share`).

use js_sys::{Array, Uint8Array};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, CompressionFormat, CompressionStream, DecompressionStream, ReadableWritablePair, Response};

fn fail(_: JsValue) -> String {
    String::from("this browser could not (de)compress the link")
}

/// Pushes `bytes` through a transform stream and collects what comes out.
async fn through(bytes: &[u8], pair: &ReadableWritablePair) -> Result<Vec<u8>, String> {
    let parts = Array::of1(&Uint8Array::from(bytes));
    let blob = Blob::new_with_u8_array_sequence(&parts).map_err(fail)?;
    let out = blob.stream().pipe_through(pair);
    let response = Response::new_with_opt_readable_stream(Some(&out)).map_err(fail)?;
    let buffer = JsFuture::from(response.array_buffer().map_err(fail)?).await.map_err(fail)?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

pub async fn deflate(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let cs = CompressionStream::new(CompressionFormat::DeflateRaw).map_err(fail)?;
    through(bytes, &ReadableWritablePair::new(&cs.readable(), &cs.writable())).await
}

/// Inflates; the caller checks the size (`model::workspace::share::unpack`). The input is capped at
/// `MAX_ENCODED_CHARS`, so even the worst DEFLATE ratio (about 1032:1) stays within tens of MB.
pub async fn inflate(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let ds = DecompressionStream::new(CompressionFormat::DeflateRaw).map_err(fail)?;
    let out = through(bytes, &ReadableWritablePair::new(&ds.readable(), &ds.writable())).await;
    // A damaged stream rejects the promise: say so as the model would.
    out.map_err(|_| String::from("the link is damaged"))
}

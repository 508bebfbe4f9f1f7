//! The tar archive (ustar, GNU long names, pax path records) and gzip (RFC 1952) layers.

use super::Error;

/// One regular file of the archive.
pub(crate) struct Entry<'a> {
    pub name: String,
    pub data: &'a [u8],
}

pub(crate) fn is_gzip(bytes: &[u8]) -> bool {
    bytes.len() >= 3 && bytes[0] == 0x1f && bytes[1] == 0x8b && bytes[2] == 8
}

/// Inflates one gzip member, taking at most `*budget` bytes and lowering the budget by what it produced.
pub(crate) fn gunzip(bytes: &[u8], budget: &mut usize) -> Result<Vec<u8>, Error> {
    const FHCRC: u8 = 2;
    const FEXTRA: u8 = 4;
    const FNAME: u8 = 8;
    const FCOMMENT: u8 = 16;
    if !is_gzip(bytes) || bytes.len() < 10 {
        return Err(Error::new("expected a gzip header (1f 8b 08)"));
    }
    let flags = bytes[3];
    let mut pos = 10usize;
    let short = || Error::new("gzip header is truncated");
    if flags & FEXTRA != 0 {
        let b = bytes.get(pos..pos + 2).ok_or_else(short)?;
        let xlen = u16::from_le_bytes([b[0], b[1]]) as usize;
        pos = pos.checked_add(2 + xlen).ok_or_else(short)?;
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            let rest = bytes.get(pos..).ok_or_else(short)?;
            let end = rest.iter().position(|&b| b == 0).ok_or_else(short)?;
            pos += end + 1;
        }
    }
    if flags & FHCRC != 0 {
        pos = pos.checked_add(2).ok_or_else(short)?;
    }
    let body = bytes.get(pos..).ok_or_else(short)?;
    let out = miniz_oxide::inflate::decompress_to_vec_with_limit(body, *budget).map_err(|e| {
        if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
            Error::new(format!("inflates to more than {} bytes (the limit)", group(*budget)))
        } else {
            Error::new(format!("gzip data is corrupt ({:?})", e.status))
        }
    })?;
    *budget -= out.len().min(*budget);
    Ok(out)
}

/// Formats a count with thousands separators ("1,000,000").
pub(crate) fn group(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn not_tar(what: &str) -> Error {
    Error::new(format!("not a Cube file: expected a tar archive (optionally gzipped) holding anchor.xml; {what}"))
}

/// A NUL/space-terminated text field.
fn field(b: &[u8]) -> &[u8] {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    &b[..end]
}

/// A numeric header field: octal text, or GNU base-256 (high bit of the first byte set).
fn number(b: &[u8]) -> Option<u64> {
    if let Some(&first) = b.first() {
        if first & 0x80 != 0 {
            let mut v: u64 = (first & 0x3f) as u64;
            for &c in &b[1..] {
                v = v.checked_mul(256)?.checked_add(c as u64)?;
            }
            return Some(v);
        }
    }
    let t = field(b);
    let t: Vec<u8> = t.iter().copied().filter(|c| *c != b' ').collect();
    if t.is_empty() {
        return Some(0);
    }
    let mut v: u64 = 0;
    for c in t {
        if !(b'0'..=b'7').contains(&c) {
            return None;
        }
        v = v.checked_mul(8)?.checked_add((c - b'0') as u64)?;
    }
    Some(v)
}

fn clean_name(raw: &[u8]) -> String {
    let s = String::from_utf8_lossy(raw);
    let mut s: &str = &s;
    while let Some(rest) = s.strip_prefix("./") {
        s = rest;
    }
    s.to_string()
}

/// Reads the pax records "len key=value\n" and returns the `path` value if any.
fn pax_path(data: &[u8]) -> Option<String> {
    let mut rest = data;
    let mut found = None;
    while !rest.is_empty() {
        let sp = rest.iter().position(|&c| c == b' ')?;
        let len: usize = std::str::from_utf8(&rest[..sp]).ok()?.parse().ok()?;
        if len <= sp || len > rest.len() {
            return found;
        }
        let rec = &rest[sp + 1..len];
        let rec = rec.strip_suffix(b"\n").unwrap_or(rec);
        if let Some(v) = rec.strip_prefix(b"path=") {
            found = Some(clean_name(v));
        }
        rest = &rest[len..];
    }
    found
}

/// Lists the regular files of a tar archive. Header checksums are not verified (CubeWriter 4.8 writes wrong ones).
pub(crate) fn entries(bytes: &[u8]) -> Result<Vec<Entry<'_>>, Error> {
    let mut out = Vec::new();
    let mut pos = 0usize;
    let mut long_name: Option<String> = None;
    let mut first = true;
    loop {
        let Some(h) = bytes.get(pos..pos + 512) else {
            if first {
                return Err(not_tar("found fewer than 512 bytes"));
            }
            break; // a missing end marker is tolerated
        };
        if h.iter().all(|&b| b == 0) {
            if first {
                return Err(not_tar("found an empty archive"));
            }
            break;
        }
        let size = number(&h[124..136]).ok_or_else(|| {
            if first {
                not_tar("the first header's size field is not octal")
            } else {
                Error::new(format!("archive: header at byte {pos}: size field is not octal"))
            }
        })?;
        if first && number(&h[148..156]).is_none() {
            return Err(not_tar("the first header's checksum field is not octal"));
        }
        first = false;
        let size = usize::try_from(size)
            .map_err(|_| Error::new(format!("archive: header at byte {pos}: member size {size} is too large")))?;
        let start = pos + 512;
        let end = start.checked_add(size).filter(|&e| e <= bytes.len()).ok_or_else(|| {
            Error::new(format!(
                "archive: member at byte {pos} is truncated: expected {size} bytes, found {}",
                bytes.len() - start.min(bytes.len())
            ))
        })?;
        let data = &bytes[start..end];
        let typeflag = h[156];
        match typeflag {
            b'L' => long_name = Some(clean_name(field(data))),
            b'x' => {
                if let Some(p) = pax_path(data) {
                    long_name = Some(p);
                }
            }
            b'0' | 0 | b'7' => {
                let name = match long_name.take() {
                    Some(n) => n,
                    None => {
                        let mut raw = field(&h[0..100]).to_vec();
                        if &h[257..262] == b"ustar" {
                            let prefix = field(&h[345..500]);
                            if !prefix.is_empty() {
                                let mut p = prefix.to_vec();
                                p.push(b'/');
                                p.extend_from_slice(&raw);
                                raw = p;
                            }
                        }
                        clean_name(&raw)
                    }
                };
                out.push(Entry { name, data });
            }
            _ => long_name = None,
        }
        let padded = size.div_ceil(512).checked_mul(512).ok_or_else(|| Error::new("archive: member size overflows"))?;
        pos = start.checked_add(padded).ok_or_else(|| Error::new("archive: member size overflows"))?;
    }
    Ok(out)
}

//! Extra-P's saved experiments: the `.extra-p` files that Extra-P 4 writes with "Save
//! experiment" or `extrap … --save-experiment` (Extra-P, TU Darmstadt,
//! <https://github.com/extra-p/extrap>, BSD-3; the format facts below are read from its
//! 4.2.5 sources: `extrap/fileio/experiment_io.py`, `extrap/fileio/values_io.py`,
//! `extrap/entities/experiment.py`, `measurement.py`, `named_entity.py` and
//! `extrap/util/serialization_schema.py`).
//!
//! Such a file is a zip archive. Read here:
//! - the zip's central directory (ZIP64 too), members stored or deflated (inflated with
//!   `miniz_oxide`, never past the declared size nor [`Limits::max_bytes`] in all), each
//!   member's CRC-32 checked;
//! - `experiment.json`: `"Extra-P"` (the version that wrote it: major version 4 is read,
//!   another is refused; a file without it is read like Extra-P does), `"parameters"` (a list
//!   of names, their order is the coordinates' order), and `"measurements"`: an object keyed by
//!   call path, then by metric, holding a list of points `{"coordinate": [..], "median": ..,
//!   "mean": .., "values": null or [chunk, index], ..}`. Series keep the order written. A name
//!   holding `\u{3}` carries tags the old way (`name\u{3}{json}`, Extra-P 4.0): the name is the
//!   part before it, as Extra-P takes it. Call paths keep Extra-P's `->` between regions;
//! - the repetitions a point keeps (saved with `--keep-values`): `values/<chunk>.indx`
//!   (`Extra-P INDEX\0\0\0`, a u64 count, then u64 offsets, little-endian) points into
//!   `values/<chunk>.vals` (`Extra-P VALUES\0\0`, then one NumPy `.npy` array per point,
//!   versions 1 to 3, dtype f4/f8/i1..i8/u1..u8 in either byte order). Every element goes into
//!   the point's values (a 2-D array, as Cube files give, is flattened; a masked array was
//!   saved without its mask, as NumPy saves one). A point saved without them (the usual case:
//!   Extra-P keeps only statistics unless told otherwise) gets its median as its one
//!   repetition, or its mean when no median is saved.
//!
//! Ignored: `"modelers"` (the models and their settings), `"scaling"`, the `"callpaths"` and
//! `"metrics"` tables (tags), the points' minimum, maximum, std and repetitions, and any
//! member other than those above. Not read: Extra-P 3's binary experiment files (Extra-P 4
//! opens them with `--extra-p-3`), encrypted or multi-part zips, other compression methods.
//!
//! Every value must be finite, a point keeps at most [`MAX_REPETITIONS`] values, and an
//! experiment has one to [`MAX_PARAMETERS`] parameters. Errors name the member and, in
//! `experiment.json`, the path of what is wrong.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{Experiment, Format, Measurement, Series, MAX_PARAMETERS, MAX_REPETITIONS};

/// The member holding the experiment (Extra-P's `EXPERIMENT_DATA_FILE`).
pub const EXPERIMENT_MEMBER: &str = "experiment.json";

/// How much a file may make this reader hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most bytes of the members read (`experiment.json` and the value files), unpacked, in all.
    pub max_bytes: usize,
    /// Most series (call path and metric pairs).
    pub max_series: usize,
    /// Most points, over all series.
    pub max_points: usize,
}

impl Limits {
    /// 64 MB unpacked, 100,000 series, a million points.
    pub const DEFAULT: Limits = Limits { max_bytes: 64 << 20, max_series: 100_000, max_points: 1_000_000 };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// Why a file could not be read: the Cube reader's error (one message naming the member and
/// what was expected), so that both archive readers answer alike.
pub use crate::model::cube::Error;

fn error(message: impl Into<String>) -> Error {
    Error::new(message)
}

/// Reads a saved Extra-P experiment (the bytes of an `.extra-p` file).
pub fn read(bytes: &[u8], limits: &Limits) -> Result<Experiment, Error> {
    read_checked(bytes, limits, true)
}

fn read_checked(bytes: &[u8], limits: &Limits, check_crc: bool) -> Result<Experiment, Error> {
    let entries = zip::central_directory(bytes)?;
    let mut archive = Archive {
        bytes,
        entries,
        budget: limits.max_bytes,
        max_bytes: limits.max_bytes,
        check_crc,
        chunks: HashMap::new(),
    };
    let json = archive
        .member(EXPERIMENT_MEMBER)?
        .ok_or_else(|| error(format!("not an Extra-P experiment: the zip holds no {EXPERIMENT_MEMBER}")))?;
    let doc: Doc = serde_json::from_slice(&json)
        .map_err(|e| error(format!("{EXPERIMENT_MEMBER}: not valid JSON as Extra-P writes it: {e}")))?;
    drop(json);
    build(doc, &mut archive, limits).map_err(|Failure::Json(m)| error(format!("{EXPERIMENT_MEMBER}: {m}")))
}

// ---------------------------------------------------------------------------------------------
// The zip archive.

mod zip {
    use super::{error, Error};

    const EOCD: &[u8] = b"PK\x05\x06";
    const ZIP64_LOCATOR: &[u8] = b"PK\x06\x07";
    const ZIP64_EOCD: &[u8] = b"PK\x06\x06";
    const CENTRAL: &[u8] = b"PK\x01\x02";
    pub const LOCAL: &[u8] = b"PK\x03\x04";

    pub fn u16_at(b: &[u8], at: usize) -> Option<u16> {
        b.get(at..at.checked_add(2)?)?.try_into().ok().map(u16::from_le_bytes)
    }
    pub fn u32_at(b: &[u8], at: usize) -> Option<u32> {
        b.get(at..at.checked_add(4)?)?.try_into().ok().map(u32::from_le_bytes)
    }
    pub fn u64_at(b: &[u8], at: usize) -> Option<u64> {
        b.get(at..at.checked_add(8)?)?.try_into().ok().map(u64::from_le_bytes)
    }
    fn has(b: &[u8], at: usize, sig: &[u8]) -> bool {
        at.checked_add(sig.len()).and_then(|end| b.get(at..end)) == Some(sig)
    }

    /// One member, as the central directory describes it.
    pub struct Entry {
        pub name: String,
        pub flags: u16,
        pub method: u16,
        pub crc: u32,
        pub packed: u64,
        pub size: u64,
        pub offset: u64,
    }

    fn damaged(what: &str) -> Error {
        error(format!("damaged or truncated zip archive: {what}"))
    }

    /// What a file that is no zip archive is, as far as one can tell.
    fn not_zip(bytes: &[u8]) -> Error {
        let head = bytes.get(..64).unwrap_or(bytes);
        let text = head.iter().copied().find(|b| !b.is_ascii_whitespace());
        let what = if bytes.is_empty() {
            "the file is empty".to_string()
        } else if head.windows(17).any(|w| w == b"EXTRAP_EXPERIMENT") {
            "this is an Extra-P 3 binary experiment (Extra-P 4 opens it with --extra-p-3 and can save it as .extra-p)"
                .to_string()
        } else if head.starts_with(&[0x1f, 0x8b]) {
            "this is gzip data, not a zip archive".to_string()
        } else if matches!(text, Some(b'{') | Some(b'[')) {
            "this looks like JSON text (an Extra-P JSON input?), not a zip archive".to_string()
        } else if head.windows(9).any(|w| w == b"PARAMETER") {
            "this looks like Extra-P's text format, not a zip archive".to_string()
        } else {
            "this is not a zip archive".to_string()
        };
        error(format!("not an Extra-P experiment (.extra-p, a zip archive): {what}"))
    }

    /// The members the central directory lists.
    pub fn central_directory(bytes: &[u8]) -> Result<Vec<Entry>, Error> {
        if !bytes.starts_with(b"PK") {
            return Err(not_zip(bytes));
        }
        // The end-of-central-directory record: 22 bytes and a comment of at most 65535.
        let last = bytes.len().checked_sub(22).ok_or_else(|| damaged("too short for a zip"))?;
        let first = last.saturating_sub(65535);
        let eocd = (first..=last)
            .rev()
            .find(|&at| {
                has(bytes, at, EOCD) && u16_at(bytes, at + 20).is_some_and(|c| at + 22 + c as usize <= bytes.len())
            })
            .ok_or_else(|| damaged("no end of central directory record"))?;
        let field = |at: usize| u16_at(bytes, eocd + at).unwrap_or(0);
        let (mut disk, mut cd_disk) = (field(4) as u32, field(6) as u32);
        let mut count = field(10) as u64;
        let mut cd_size = u32_at(bytes, eocd + 12).unwrap_or(0) as u64;
        let mut cd_offset = u32_at(bytes, eocd + 16).unwrap_or(0) as u64;
        if eocd >= 20 && has(bytes, eocd - 20, ZIP64_LOCATOR) {
            let z = u64_at(bytes, eocd - 12)
                .and_then(|o| usize::try_from(o).ok())
                .filter(|&o| has(bytes, o, ZIP64_EOCD))
                .ok_or_else(|| damaged("the ZIP64 end of central directory record is missing"))?;
            let read = |at: usize| u64_at(bytes, z + at).ok_or_else(|| damaged("truncated ZIP64 record"));
            disk = u32_at(bytes, z + 16).unwrap_or(0);
            cd_disk = u32_at(bytes, z + 20).unwrap_or(0);
            count = read(32)?;
            cd_size = read(40)?;
            cd_offset = read(48)?;
        }
        if disk != 0 || cd_disk != 0 {
            return Err(error("not readable: a zip archive split over several parts (disks)"));
        }
        let start = usize::try_from(cd_offset).map_err(|_| damaged("central directory out of range"))?;
        let end = usize::try_from(cd_size).ok().and_then(|s| start.checked_add(s));
        let cd = end
            .and_then(|end| bytes.get(start..end))
            .ok_or_else(|| damaged("the central directory lies outside the file"))?;
        let mut entries = Vec::with_capacity((count as usize).min(cd.len() / 46));
        let mut at = 0usize;
        for _ in 0..count {
            if !has(cd, at, CENTRAL) {
                return Err(damaged("a central directory entry is missing"));
            }
            let short = || damaged("truncated central directory entry");
            let flags = u16_at(cd, at + 8).ok_or_else(short)?;
            let method = u16_at(cd, at + 10).ok_or_else(short)?;
            let crc = u32_at(cd, at + 16).ok_or_else(short)?;
            let mut packed = u32_at(cd, at + 20).ok_or_else(short)? as u64;
            let mut size = u32_at(cd, at + 24).ok_or_else(short)? as u64;
            let name_len = u16_at(cd, at + 28).ok_or_else(short)? as usize;
            let extra_len = u16_at(cd, at + 30).ok_or_else(short)? as usize;
            let comment_len = u16_at(cd, at + 32).ok_or_else(short)? as usize;
            let mut offset = u32_at(cd, at + 42).ok_or_else(short)? as u64;
            let name = cd.get(at + 46..at + 46 + name_len).ok_or_else(short)?;
            let extra = cd.get(at + 46 + name_len..at + 46 + name_len + extra_len).ok_or_else(short)?;
            // ZIP64 extended information (header 0x0001): the 64-bit sizes and offset, each
            // present only when its 32-bit field is 0xFFFFFFFF, in this order.
            let mut e = 0usize;
            while let (Some(id), Some(len)) = (u16_at(extra, e), u16_at(extra, e + 2)) {
                let body = extra.get(e + 4..e + 4 + len as usize).ok_or_else(|| damaged("truncated extra field"))?;
                if id == 1 {
                    let mut p = 0usize;
                    for v in [&mut size, &mut packed, &mut offset] {
                        if *v == 0xFFFF_FFFF {
                            *v = u64_at(body, p).ok_or_else(|| damaged("truncated ZIP64 extra field"))?;
                            p += 8;
                        }
                    }
                }
                e += 4 + len as usize;
            }
            entries.push(Entry {
                name: String::from_utf8_lossy(name).into_owned(),
                flags,
                method,
                crc,
                packed,
                size,
                offset,
            });
            at += 46 + name_len + extra_len + comment_len;
        }
        Ok(entries)
    }

    /// The packed bytes of a member, after its local header.
    pub fn packed<'a>(bytes: &'a [u8], e: &Entry) -> Result<&'a [u8], Error> {
        let name = &e.name;
        let at = usize::try_from(e.offset).ok().filter(|&at| has(bytes, at, LOCAL));
        let at = at.ok_or_else(|| error(format!("{name}: its local header is missing (damaged zip archive)")))?;
        let lens = (u16_at(bytes, at + 26), u16_at(bytes, at + 28));
        let start = match lens {
            (Some(n), Some(x)) => at + 30 + n as usize + x as usize,
            _ => return Err(error(format!("{name}: truncated local header"))),
        };
        usize::try_from(e.packed)
            .ok()
            .and_then(|p| start.checked_add(p))
            .and_then(|end| bytes.get(start..end))
            .ok_or_else(|| {
                error(format!("{name}: truncated ({} packed bytes declared; the file ends before)", e.packed))
            })
    }

    const fn crc_table() -> [u32; 256] {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
                k += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    }
    static CRC_TABLE: [u32; 256] = crc_table();

    /// CRC-32 (ISO-HDLC, as zip uses).
    pub fn crc32(data: &[u8]) -> u32 {
        !data.iter().fold(!0u32, |c, &b| CRC_TABLE[((c ^ b as u32) & 0xFF) as usize] ^ (c >> 8))
    }
}

/// The archive being read: its members, and how many more bytes may be unpacked.
struct Archive<'a> {
    bytes: &'a [u8],
    entries: Vec<zip::Entry>,
    budget: usize,
    max_bytes: usize,
    check_crc: bool,
    /// Value chunks read so far, by number.
    chunks: HashMap<u64, Chunk<'a>>,
}

/// A chunk of values as stored: (index, values).
type Chunk<'a> = (Cow<'a, [u8]>, Cow<'a, [u8]>);

impl<'a> Archive<'a> {
    /// The unpacked bytes of member `name`, or None when the zip holds no such member (the last
    /// of that name counts, as in Python's zipfile).
    fn member(&mut self, name: &str) -> Result<Option<Cow<'a, [u8]>>, Error> {
        let Some(e) = self.entries.iter().rev().find(|e| e.name == name) else { return Ok(None) };
        if e.flags & 1 != 0 {
            return Err(error(format!("{name}: encrypted; not readable")));
        }
        let size = usize::try_from(e.size).ok().filter(|&s| s <= self.budget).ok_or_else(|| {
            error(format!("{name}: {} bytes unpacked is more than the {} bytes read in all", e.size, self.max_bytes))
        })?;
        let packed = zip::packed(self.bytes, e)?;
        let data: Cow<'a, [u8]> = match e.method {
            0 if packed.len() == size => Cow::Borrowed(packed),
            0 => return Err(error(format!("{name}: stored with {} bytes but declares {size}", packed.len()))),
            8 => match miniz_oxide::inflate::decompress_to_vec_with_limit(packed, size) {
                Ok(v) if v.len() == size => Cow::Owned(v),
                Ok(v) => return Err(error(format!("{name}: inflates to {} bytes but declares {size}", v.len()))),
                Err(x) if x.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                    return Err(error(format!("{name}: inflates to more than the {size} bytes it declares")))
                }
                Err(x) => return Err(error(format!("{name}: damaged deflate data ({x})"))),
            },
            m => return Err(error(format!("{name}: compression method {m} is not read (only stored and deflate)"))),
        };
        if self.check_crc && zip::crc32(&data) != e.crc {
            return Err(error(format!("{name}: CRC-32 mismatch (damaged file)")));
        }
        self.budget -= size;
        Ok(Some(data))
    }

    /// The repetitions saved as `[chunk, index]`, flattened to f64.
    fn values(&mut self, chunk: u64, index: u64) -> Result<Vec<f64>, Error> {
        if !self.chunks.contains_key(&chunk) {
            let indx_name = format!("values/{chunk}.indx");
            let vals_name = format!("values/{chunk}.vals");
            let get = |a: &mut Self, n: &str| -> Result<Cow<'a, [u8]>, Error> {
                a.member(n)?.ok_or_else(|| error(format!("the zip holds no {n}")))
            };
            let indx = get(self, &indx_name)?;
            if !indx.starts_with(b"Extra-P INDEX\0\0\0") {
                return Err(error(format!("{indx_name}: not an Extra-P index (it opens otherwise)")));
            }
            let vals = get(self, &vals_name)?;
            if !vals.starts_with(b"Extra-P VALUES\0\0") {
                return Err(error(format!("{vals_name}: not Extra-P values (it opens otherwise)")));
            }
            self.chunks.insert(chunk, (indx, vals));
        }
        let Some((indx, vals)) = self.chunks.get(&chunk) else { return Err(error("value chunk missing")) };
        let count = zip::u64_at(indx, 16).ok_or_else(|| error(format!("values/{chunk}.indx: truncated")))?;
        if index >= count {
            return Err(error(format!("values/{chunk}.indx: holds {count} entries, no entry {index}")));
        }
        let offset = usize::try_from(index)
            .ok()
            .and_then(|i| i.checked_mul(8))
            .and_then(|o| o.checked_add(24))
            .and_then(|o| zip::u64_at(indx, o))
            .ok_or_else(|| error(format!("values/{chunk}.indx: truncated before entry {index}")))?;
        let array = usize::try_from(offset)
            .ok()
            .and_then(|o| vals.get(o..))
            .ok_or_else(|| error(format!("values/{chunk}.vals: entry {index} starts at {offset}, past its end")))?;
        npy(array).map_err(|m| error(format!("values/{chunk}.vals: entry {index}: {m}")))
    }
}

// ---------------------------------------------------------------------------------------------
// NumPy's .npy arrays (numpy.lib.format, versions 1.0 to 3.0).

/// The elements of the `.npy` array at the start of `data`, as f64, in the order stored.
fn npy(data: &[u8]) -> Result<Vec<f64>, Error> {
    if !data.starts_with(b"\x93NUMPY") {
        return Err(error("not a NumPy array"));
    }
    let (len, start): (Option<usize>, usize) = match data.get(6) {
        Some(1) => (zip::u16_at(data, 8).map(|l| l as usize), 10),
        Some(2) | Some(3) => (zip::u32_at(data, 8).and_then(|l| usize::try_from(l).ok()), 12),
        Some(v) => return Err(error(format!("NumPy format version {v} is not read"))),
        None => return Err(error("truncated NumPy header")),
    };
    let header =
        len.and_then(|l| data.get(start..start.checked_add(l)?)).ok_or_else(|| error("truncated NumPy header"))?;
    let header = std::str::from_utf8(header).map_err(|_| error("NumPy header is not text"))?;
    let (descr, shape) =
        npy_header(header).ok_or_else(|| error(format!("NumPy header not understood: {}", clip(header.trim()))))?;
    let count = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)).unwrap_or(usize::MAX);
    if count > MAX_REPETITIONS {
        return Err(error(format!("{count} values; at most {MAX_REPETITIONS} repetitions per point are read")));
    }
    let d = descr.as_bytes();
    let (big, rest) = match d.first() {
        Some(b'>') => (true, &d[1..]),
        Some(b'<') | Some(b'|') | Some(b'=') => (false, &d[1..]),
        _ => (false, d),
    };
    let kind = rest.first().copied();
    let width: usize = std::str::from_utf8(rest.get(1..).unwrap_or(&[])).ok().and_then(|w| w.parse().ok()).unwrap_or(0);
    let known = match kind {
        Some(b'f') => width == 4 || width == 8,
        Some(b'i') | Some(b'u') => matches!(width, 1 | 2 | 4 | 8),
        _ => false,
    };
    if !known {
        return Err(error(format!("dtype '{descr}' is not one read (floats f4/f8, integers i1..i8, u1..u8)")));
    }
    let body = data.get(start + header.len()..).unwrap_or(&[]);
    let needed = count.checked_mul(width).ok_or_else(|| error("array too large"))?;
    let body =
        body.get(..needed).ok_or_else(|| error(format!("truncated: {count} values of {width} bytes declared")))?;
    let mut out = Vec::with_capacity(count);
    for chunk in body.chunks_exact(width) {
        // Little-endian in b, sign- or zero-extended to 8 bytes.
        let mut b = [0u8; 8];
        for (i, &x) in chunk.iter().enumerate() {
            if let Some(slot) = b.get_mut(if big { width - 1 - i } else { i }) {
                *slot = x;
            }
        }
        let v = match (kind, width) {
            (Some(b'f'), 8) => f64::from_le_bytes(b),
            (Some(b'f'), _) => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            (Some(b'i'), _) => {
                let shift = 64 - 8 * width as u32;
                ((i64::from_le_bytes(b) << shift) >> shift) as f64
            }
            _ => u64::from_le_bytes(b) as f64,
        };
        out.push(v);
    }
    Ok(out)
}

/// `descr` and `shape` of a header such as `{'descr': '<f8', 'fortran_order': False, 'shape':
/// (5,), }`. None when it is not of that form (a structured dtype's list, say).
fn npy_header(h: &str) -> Option<(String, Vec<usize>)> {
    let s = h.trim().strip_prefix('{')?.trim_end().strip_suffix('}')?;
    let (mut descr, mut shape) = (None, None);
    let mut rest = s.trim_start();
    while !rest.is_empty() {
        let q = rest.chars().next()?;
        if q != '\'' && q != '"' {
            return None;
        }
        let end = rest[1..].find(q)? + 1;
        let key = &rest[1..end];
        rest = rest[end + 1..].trim_start().strip_prefix(':')?.trim_start();
        match rest.chars().next()? {
            c @ ('\'' | '"') => {
                let e = rest[1..].find(c)? + 1;
                if key == "descr" {
                    descr = Some(rest[1..e].to_string());
                }
                rest = &rest[e + 1..];
            }
            '(' => {
                let e = rest.find(')')?;
                let dims: Option<Vec<usize>> = rest[1..e]
                    .split(',')
                    .map(str::trim)
                    .filter(|d| !d.is_empty())
                    .map(|d| d.trim_end_matches('L').parse().ok())
                    .collect();
                if key == "shape" {
                    shape = Some(dims?);
                }
                rest = &rest[e + 1..];
            }
            _ => {
                let e = rest.find(',').unwrap_or(rest.len());
                let word = rest[..e].trim();
                if key == "descr" || key == "shape" || !(word == "True" || word == "False") {
                    return None;
                }
                rest = &rest[e..];
            }
        }
        rest = rest.trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    Some((descr?, shape?))
}

// ---------------------------------------------------------------------------------------------
// experiment.json, as far as read: a JSON value that keeps the order of keys (serde_json's
// map sorts them), and shapes that record a wrong kind instead of failing, so that errors can
// name the path.

/// A JSON value where one is read: objects are only told apart (none is read at this level).
#[derive(Debug)]
enum J {
    Null,
    Bool,
    Num(f64),
    Str(String),
    List(Vec<J>),
    Obj,
}

impl J {
    fn kind(&self) -> &'static str {
        match self {
            J::Null => "null",
            J::Bool => "a boolean",
            J::Num(_) => "a number",
            J::Str(_) => "a string",
            J::List(_) => "a list",
            J::Obj => "an object",
        }
    }
}

/// The visitor methods of a shape that takes one kind of JSON value and records any other.
macro_rules! wrong_kinds {
    ($wrong:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($wrong("a boolean"))
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($wrong("a number"))
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($wrong("a number"))
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($wrong("a number"))
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($wrong("a string"))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($wrong("null"))
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok($wrong("null"))
        }
    };
}

impl<'de> Deserialize<'de> for J {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<J, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = J;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<J, E> {
                Ok(J::Bool)
            }
            fn visit_i64<E>(self, v: i64) -> Result<J, E> {
                Ok(J::Num(v as f64))
            }
            fn visit_u64<E>(self, v: u64) -> Result<J, E> {
                Ok(J::Num(v as f64))
            }
            fn visit_f64<E>(self, v: f64) -> Result<J, E> {
                Ok(J::Num(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<J, E> {
                Ok(J::Str(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<J, E> {
                Ok(J::Str(v))
            }
            fn visit_unit<E>(self) -> Result<J, E> {
                Ok(J::Null)
            }
            fn visit_none<E>(self) -> Result<J, E> {
                Ok(J::Null)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<J, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = seq.next_element()? {
                    v.push(x);
                }
                Ok(J::List(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<J, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(J::Obj)
            }
        }
        d.deserialize_any(V)
    }
}

/// A value of the expected kind, or the kind found.
enum Got<T> {
    Is(T),
    Wrong(&'static str),
}

/// An object, its entries in the order written.
struct Obj<T>(Got<Vec<(String, T)>>);
/// A list.
struct List<T>(Got<Vec<T>>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Obj<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            wrong_kinds!(|k| Obj(Got::Wrong(k)));
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Obj(Got::Wrong("a list")))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut v = Vec::new();
                while let Some(e) = map.next_entry::<String, T>()? {
                    v.push(e);
                }
                Ok(Obj(Got::Is(v)))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for List<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = List<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list")
            }
            wrong_kinds!(|k| List(Got::Wrong(k)));
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(List(Got::Wrong("an object")))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = seq.next_element()? {
                    v.push(x);
                }
                Ok(List(Got::Is(v)))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// One saved point: the fields read, others skipped.
#[derive(Default)]
struct Point {
    coordinate: Option<J>,
    median: Option<J>,
    mean: Option<J>,
    values: Option<J>,
}

/// A point, or the kind found instead of an object.
struct PointEntry(Got<Point>);

impl<'de> Deserialize<'de> for PointEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PointEntry;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            wrong_kinds!(|k| PointEntry(Got::Wrong(k)));
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(PointEntry(Got::Wrong("a list")))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut p = Point::default();
                while let Some(k) = map.next_key::<Cow<'de, str>>()? {
                    let slot = match &*k {
                        "coordinate" => &mut p.coordinate,
                        "median" => &mut p.median,
                        "mean" => &mut p.mean,
                        "values" => &mut p.values,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                            continue;
                        }
                    };
                    *slot = Some(map.next_value()?);
                }
                Ok(PointEntry(Got::Is(p)))
            }
        }
        d.deserialize_any(V)
    }
}

/// The top level of experiment.json: the parts read.
struct Doc {
    version: Option<J>,
    parameters: Option<J>,
    measurements: Option<Obj<Obj<List<PointEntry>>>>,
}

impl<'de> Deserialize<'de> for Doc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Doc;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object with \"parameters\" and \"measurements\"")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Doc, A::Error> {
                let mut doc = Doc { version: None, parameters: None, measurements: None };
                while let Some(k) = map.next_key::<Cow<'de, str>>()? {
                    match &*k {
                        "Extra-P" => doc.version = Some(map.next_value()?),
                        "parameters" => doc.parameters = Some(map.next_value()?),
                        "measurements" => doc.measurements = Some(map.next_value()?),
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(doc)
            }
        }
        d.deserialize_map(V)
    }
}

// ---------------------------------------------------------------------------------------------
// From the parsed JSON to an experiment.

enum Failure {
    /// A message about experiment.json (the member's name is put before it).
    Json(String),
}

fn at(path: &str, message: impl fmt::Display) -> Failure {
    Failure::Json(format!("{path}: {message}"))
}

/// A name as messages show it: quoted, at most 80 characters.
fn clip(s: &str) -> String {
    match s.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn quoted(s: &str) -> String {
    serde_json::to_string(&clip(s)).unwrap_or_default()
}

/// A name without tags encoded the old way (`name\u{3}{tags}`), as Extra-P reads it.
fn untagged(s: &str) -> &str {
    s.split('\u{3}').next().unwrap_or(s)
}

/// A number as NumberField reads it: a JSON number, or a string: "nan", "inf", a number, or a
/// fraction "a/b".
fn number(v: &J) -> Option<f64> {
    match v {
        J::Num(x) => Some(*x),
        J::Str(s) => {
            let s = s.trim();
            match s.split_once('/') {
                Some((a, b)) => Some(a.trim().parse::<f64>().ok()? / b.trim().parse::<f64>().ok()?),
                None => s.parse().ok(),
            }
        }
        _ => None,
    }
}

fn build(doc: Doc, archive: &mut Archive, limits: &Limits) -> Result<Experiment, Failure> {
    match &doc.version {
        None => {}
        Some(J::Str(v)) => {
            let major = v.trim().split('.').next().and_then(|m| m.parse::<u32>().ok());
            if major != Some(4) {
                return Err(at(
                    "\"Extra-P\"",
                    format!("saved by Extra-P {}; this reader knows the layout of Extra-P 4", clip(v)),
                ));
            }
        }
        Some(j) => return Err(at("\"Extra-P\"", format!("expected the version as a string, found {}", j.kind()))),
    }

    let parameters = match doc.parameters {
        None => return Err(Failure::Json("no \"parameters\"; not a saved Extra-P experiment".into())),
        Some(J::List(ps)) => ps,
        Some(j) => return Err(at("parameters", format!("expected a list of names, found {}", j.kind()))),
    };
    if parameters.is_empty() || parameters.len() > MAX_PARAMETERS {
        return Err(at("parameters", format!("{} parameters; one to {MAX_PARAMETERS} are read", parameters.len())));
    }
    let mut names: Vec<String> = Vec::with_capacity(parameters.len());
    for (i, p) in parameters.into_iter().enumerate() {
        match p {
            J::Str(s) if names.contains(&s) => {
                return Err(at(&format!("parameters[{i}]"), format!("{} named twice", quoted(&s))))
            }
            J::Str(s) => names.push(s),
            j => return Err(at(&format!("parameters[{i}]"), format!("expected a name, found {}", j.kind()))),
        }
    }

    let measurements = match doc.measurements {
        None => return Err(Failure::Json("no \"measurements\"".into())),
        Some(Obj(Got::Is(m))) => m,
        Some(Obj(Got::Wrong(k))) => {
            return Err(at("measurements", format!("expected an object keyed by call path, found {k}")))
        }
    };

    let mut series: Vec<Series> = Vec::new();
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    let mut points_read = 0usize;
    for (callpath, metrics) in measurements {
        let cp_path = format!("measurements[{}]", quoted(&callpath));
        let metrics = match metrics {
            Obj(Got::Is(m)) => m,
            Obj(Got::Wrong(k)) => return Err(at(&cp_path, format!("expected an object keyed by metric, found {k}"))),
        };
        for (metric, points) in metrics {
            let path = format!("{cp_path}[{}]", quoted(&metric));
            let points = match points {
                List(Got::Is(p)) => p,
                List(Got::Wrong(k)) => return Err(at(&path, format!("expected a list of points, found {k}"))),
            };
            let name = (untagged(&callpath).to_string(), untagged(&metric).to_string());
            let mut s = Series { callpath: name.0.clone(), metric: name.1.clone(), points: Vec::new(), parent: None };
            let mut seen: HashMap<Vec<u64>, usize> = HashMap::new();
            for (i, p) in points.into_iter().enumerate() {
                points_read += 1;
                if points_read > limits.max_points {
                    return Err(at(&path, format!("more than {} points in all; no more are read", limits.max_points)));
                }
                let p_path = format!("{path}[{i}]");
                let p = match p {
                    PointEntry(Got::Is(p)) => p,
                    PointEntry(Got::Wrong(k)) => {
                        return Err(at(&p_path, format!("expected a point (an object), found {k}")))
                    }
                };
                let (coords, values) = point(p, &p_path, names.len(), archive)?;
                // Equal coordinates (0 and -0 alike) make one point with all repetitions.
                let bits: Vec<u64> = coords.iter().map(|c| (c + 0.0).to_bits()).collect();
                match seen.get(&bits) {
                    Some(&j) => {
                        let Some(m) = s.points.get_mut(j) else { continue };
                        if m.values.len() + values.len() > MAX_REPETITIONS {
                            return Err(at(
                                &p_path,
                                format!(
                                    "at most {MAX_REPETITIONS} repetitions per point are read; this point has more"
                                ),
                            ));
                        }
                        if m.refused.is_none() {
                            m.refused =
                                values.iter().position(|v| super::refused(*v)).map(|k| format!("{p_path}, value {k}"));
                        }
                        m.values.extend_from_slice(&values);
                    }
                    None => {
                        seen.insert(bits, s.points.len());
                        let refused =
                            values.iter().position(|v| super::refused(*v)).map(|k| format!("{p_path}, value {k}"));
                        s.points.push(Measurement { coords, values, line: None, refused });
                    }
                }
            }
            // A key given twice (after tags are cut off) replaces the first, keeping its place,
            // as Extra-P's dictionary does.
            match index.get(&name) {
                Some(&j) => {
                    if let Some(old) = series.get_mut(j) {
                        *old = s;
                    }
                }
                None => {
                    if series.len() >= limits.max_series {
                        return Err(at(
                            &path,
                            format!(
                                "more than {} series (call path and metric pairs); no more are read",
                                limits.max_series
                            ),
                        ));
                    }
                    index.insert(name, series.len());
                    series.push(s);
                }
            }
        }
    }
    if series.is_empty() {
        return Err(Failure::Json("\"measurements\" is empty: the experiment holds no measurements".into()));
    }
    Ok(Experiment { format: Format::Saved, parameters: names, series, times: super::TimeKind::Unknown })
}

/// A point's coordinates and repetitions.
fn point(p: Point, path: &str, dims: usize, archive: &mut Archive) -> Result<(Vec<f64>, Vec<f64>), Failure> {
    let coords = match &p.coordinate {
        None => return Err(at(path, "no \"coordinate\"")),
        Some(J::List(cs)) => cs,
        Some(j) => {
            return Err(at(
                &format!("{path}.coordinate"),
                format!("expected a list of {dims} numbers, found {}", j.kind()),
            ))
        }
    };
    if coords.len() != dims {
        return Err(at(
            &format!("{path}.coordinate"),
            format!("expected {dims} numbers (one per parameter), found {}", coords.len()),
        ));
    }
    let mut xs = Vec::with_capacity(dims);
    for (k, c) in coords.iter().enumerate() {
        match c {
            J::Num(x) if x.is_finite() => xs.push(*x),
            j => {
                return Err(at(
                    &format!("{path}.coordinate[{k}]"),
                    format!("expected a finite number, found {}", j.kind()),
                ))
            }
        }
    }
    let place = format!("({})", xs.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "));
    let values = match &p.values {
        None | Some(J::Null) => {
            let (field, v) = match (&p.median, &p.mean) {
                (Some(m), _) => ("median", m),
                (None, Some(m)) => ("mean", m),
                (None, None) => return Err(at(path, "neither \"values\" nor \"median\" nor \"mean\"")),
            };
            match number(v) {
                Some(x) if x.is_finite() => vec![x],
                Some(_) => {
                    return Err(at(
                        &format!("{path}.{field}"),
                        format!(
                            "at {place}: expected a finite number, found {}",
                            match v {
                                J::Str(s) => quoted(s),
                                j => j.kind().to_string(),
                            }
                        ),
                    ))
                }
                None => return Err(at(&format!("{path}.{field}"), format!("expected a number, found {}", v.kind()))),
            }
        }
        Some(J::List(pair)) => {
            let id = |j: &J| match j {
                J::Num(x) if *x >= 0.0 && x.fract() == 0.0 && *x < 9.0e15 => Some(*x as u64),
                _ => None,
            };
            let (chunk, index) = match pair.as_slice() {
                [a, b] => match (id(a), id(b)) {
                    (Some(a), Some(b)) => (a, b),
                    _ => return Err(at(&format!("{path}.values"), "expected [chunk, index], two whole numbers")),
                },
                _ => {
                    return Err(at(
                        &format!("{path}.values"),
                        format!("expected [chunk, index], found a list of {}", pair.len()),
                    ))
                }
            };
            let v = archive.values(chunk, index).map_err(|m| at(&format!("{path}.values"), m))?;
            if v.is_empty() {
                return Err(at(&format!("{path}.values"), format!("at {place}: no values saved")));
            }
            if let Some(k) = v.iter().position(|x| !x.is_finite()) {
                return Err(at(
                    &format!("{path}.values"),
                    format!("at {place}: repetition {k} is {}; values must be finite", v[k]),
                ));
            }
            v
        }
        Some(j) => {
            return Err(at(&format!("{path}.values"), format!("expected null or [chunk, index], found {}", j.kind())))
        }
    };
    Ok((xs, values))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test files (see `testdata/README.md`), relative to the crate.
    macro_rules! data {
        ($f:literal) => {
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/saved/", $f))
        };
    }
    macro_rules! text {
        ($f:literal) => {
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/saved/", $f))
        };
    }

    /// Each file with what Extra-P 4.2.5 reads from it (`testdata/dump_extrap.py`).
    const FILES: &[(&str, &[u8], &str)] = &[
        ("exp_only_mean_median", data!("exp_only_mean_median.extra-p"), text!("exp_only_mean_median.expected.json")),
        ("two_parameter3.txt", data!("two_parameter3.txt.extra-p"), text!("two_parameter3.txt.expected.json")),
        ("lulesh_with_tags", data!("lulesh_with_tags.extra-p"), text!("lulesh_with_tags.expected.json")),
        (
            "two_parameter_3.values",
            data!("two_parameter_3.values.extra-p"),
            text!("two_parameter_3.values.expected.json"),
        ),
        (
            "one_parameter_1.values",
            data!("one_parameter_1.values.extra-p"),
            text!("one_parameter_1.values.expected.json"),
        ),
        ("matrix_4p.values", data!("matrix_4p.values.extra-p"), text!("matrix_4p.values.expected.json")),
        ("ints.values", data!("ints.values.extra-p"), text!("ints.values.expected.json")),
        ("synthetic.values", data!("synthetic.values.extra-p"), text!("synthetic.values.expected.json")),
    ];

    fn ok(bytes: &[u8]) -> Experiment {
        read(bytes, &Limits::DEFAULT).unwrap_or_else(|e| panic!("{e}"))
    }

    fn fails(bytes: &[u8]) -> String {
        match read(bytes, &Limits::DEFAULT) {
            Ok(_) => panic!("read, but should fail"),
            Err(e) => e.message,
        }
    }

    fn f(v: &serde_json::Value) -> f64 {
        v.as_f64().unwrap_or(f64::NAN)
    }

    /// Parameters, call paths, metrics, coordinates and values as Extra-P reads them: the
    /// values bit for bit where the file keeps them, else the median as one repetition.
    #[test]
    fn matches_extrap() {
        for (name, bytes, expected) in FILES {
            let e = ok(bytes);
            let x: serde_json::Value = serde_json::from_str(expected).unwrap();
            assert_eq!(e.format, Format::Saved);
            let params: Vec<&str> = x["parameters"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
            assert_eq!(e.parameters, params, "{name}");
            let xs = x["series"].as_array().unwrap();
            assert_eq!(e.series.len(), xs.len(), "{name}");
            let mut kept = 0;
            for (s, xs) in e.series.iter().zip(xs) {
                assert_eq!(s.callpath, xs["callpath"].as_str().unwrap(), "{name}");
                assert_eq!(s.metric, xs["metric"].as_str().unwrap(), "{name}");
                let xp = xs["points"].as_array().unwrap();
                assert_eq!(s.points.len(), xp.len(), "{name} {}", s.callpath);
                for (p, xp) in s.points.iter().zip(xp) {
                    let coords: Vec<f64> = xp["coords"].as_array().unwrap().iter().map(f).collect();
                    assert_eq!(p.coords, coords, "{name} {}", s.callpath);
                    assert_eq!(p.line, None);
                    match xp["values_bits"].as_array() {
                        // Read from the .npy arrays: bit for bit.
                        Some(v) => {
                            kept += 1;
                            let want: Vec<u64> = v.iter().map(|b| b.as_u64().unwrap()).collect();
                            let got: Vec<u64> = p.values.iter().map(|x| x.to_bits()).collect();
                            assert_eq!(got, want, "{name} {} {:?}", s.callpath, p.coords);
                        }
                        // The median as written in experiment.json, parsed by serde_json: without
                        // its `float_roundtrip` feature that can be one unit in the last place off
                        // Python's parse.
                        None => {
                            let want = xp["median_bits"].as_u64().unwrap();
                            assert_eq!(p.values.len(), 1, "{name}");
                            assert!(p.values[0].to_bits().abs_diff(want) <= 1, "{name} {} {:?}", s.callpath, p.coords);
                        }
                    }
                }
            }
            let with_values = ["two_parameter_3.values", "one_parameter_1.values", "synthetic.values"];
            assert_eq!(kept > 0, with_values.contains(name), "{name}");
        }
    }

    #[test]
    fn known_numbers() {
        // Saved with values (extrap --text two_parameter_3.txt --keep-values): the first DATA line.
        let e = ok(data!("two_parameter_3.values.extra-p"));
        assert_eq!(e.parameters, ["x", "y"]);
        let names: Vec<(&str, &str)> = e.series.iter().map(|s| (s.callpath.as_str(), s.metric.as_str())).collect();
        assert_eq!(names, [("merge", "time"), ("merge", "flops"), ("sort", "time"), ("sort", "flops")]);
        assert_eq!(e.series[0].points[0].coords, [20.0, 1.0]);
        assert_eq!(
            e.series[0].points[0].values,
            [1.007912824061828, 1.0003031166379763, 1.0146314163801136, 0.9888371709656842, 0.9814784961141532]
        );
        assert_eq!(e.series[0].points.len(), 25);
        // Mean and median only (Extra-P 4.0.3): the median is the one repetition.
        let e = ok(data!("exp_only_mean_median.extra-p"));
        assert_eq!(e.series[0].points[1].coords, [20.0, 2.0]);
        assert_eq!(e.series[0].points[1].values, [80.77055829825096]);
        // Made with Extra-P's classes: int64 values, a 2-D array (flattened), a point without values.
        let e = ok(data!("synthetic.values.extra-p"));
        assert_eq!(e.parameters, ["p"]);
        assert_eq!(e.series[0].callpath, "main");
        assert_eq!(e.series[0].points[0].values, [3.0, 4.0, 5.0]);
        assert_eq!(e.series[0].points[1].values, [6.0, 7.0]);
        assert_eq!(e.series[1].callpath, "main->solve");
        assert_eq!(e.series[1].points[0].values, [1.5, 2.5, 3.5, 4.5, 5.5, 6.5]);
        assert_eq!(e.series[1].points[1].values, [2.25]);
        // Four parameters, integer coordinates in the JSON.
        let e = ok(data!("matrix_4p.values.extra-p"));
        assert_eq!(e.parameters, ["a", "b", "c", "d"]);
        assert_eq!(ok(data!("ints.values.extra-p")).series[0].points[0].coords, [2.0]);
        // Tags encoded in the name (Extra-P 4.0.2) are cut off.
        let e = ok(data!("lulesh_with_tags.extra-p"));
        assert_eq!(e.series.len(), 62);
        assert_eq!(
            e.series[1].callpath,
            "_start->__libc_start_main->main->cudaDeviceSynchronize->EVENT_SYNCHRONIZE->WAIT"
        );
        assert!(e.series.iter().all(|s| !s.callpath.contains('\u{3}')));
    }

    /// The saved repetitions are the text file's DATA lines, and the median-only file (saved
    /// from the same text) holds their medians.
    #[test]
    fn agrees_with_the_text_source() {
        type Row = Vec<f64>;
        let text = text!("two_parameter_3.txt");
        // ((region, metric), each point's values)
        let mut data: Vec<((String, String), Vec<Row>)> = Vec::new();
        let mut region = String::new();
        for line in text.lines() {
            let line = line.trim();
            if let Some(r) = line.strip_prefix("REGION ") {
                region = r.to_string();
            } else if let Some(m) = line.strip_prefix("METRIC ") {
                data.push(((region.clone(), m.to_string()), Vec::new()));
            } else if let Some(d) = line.strip_prefix("DATA ") {
                data.last_mut().unwrap().1.push(d.split_whitespace().map(|v| v.parse().unwrap()).collect());
            }
        }
        let with_values = ok(data!("two_parameter_3.values.extra-p"));
        let medians = ok(data!("two_parameter3.txt.extra-p"));
        assert_eq!(with_values.series.len(), data.len());
        for (key, rows) in &data {
            let find = |e: &Experiment| {
                e.series.iter().find(|s| (&s.callpath, &s.metric) == (&key.0, &key.1)).cloned().unwrap()
            };
            let (s, m) = (find(&with_values), find(&medians));
            assert_eq!(s.points.len(), rows.len());
            for ((p, q), row) in s.points.iter().zip(&m.points).zip(rows) {
                assert_eq!(&p.values, row);
                assert_eq!(p.coords, q.coords);
                let mut v = row.clone();
                v.sort_by(f64::total_cmp);
                // One unit in the last place: see `matches_extrap`.
                assert_eq!(q.values.len(), 1);
                assert!(q.values[0].to_bits().abs_diff(v[v.len() / 2].to_bits()) <= 1, "{key:?} {:?}", p.coords);
            }
        }
    }

    // -- A small zip writer for the error tests.

    fn zip(members: &[(&str, &[u8], bool)]) -> Vec<u8> {
        let (mut out, mut cd) = (Vec::new(), Vec::new());
        for (name, data, deflate) in members {
            let packed = if *deflate { miniz_oxide::deflate::compress_to_vec(data, 6) } else { data.to_vec() };
            let header = |sig: &[u8], central: bool, offset: usize| {
                let mut h = sig.to_vec();
                if central {
                    h.extend(20u16.to_le_bytes());
                }
                h.extend(20u16.to_le_bytes());
                h.extend(0u16.to_le_bytes());
                h.extend((if *deflate { 8u16 } else { 0 }).to_le_bytes());
                h.extend([0u8; 4]);
                h.extend(zip::crc32(data).to_le_bytes());
                h.extend((packed.len() as u32).to_le_bytes());
                h.extend((data.len() as u32).to_le_bytes());
                h.extend((name.len() as u16).to_le_bytes());
                h.extend(0u16.to_le_bytes());
                if central {
                    h.extend([0u8; 6]);
                    h.extend([0u8; 4]);
                    h.extend((offset as u32).to_le_bytes());
                }
                h.extend(name.as_bytes());
                h
            };
            cd.extend(header(b"PK\x01\x02", true, out.len()));
            out.extend(header(b"PK\x03\x04", false, 0));
            out.extend(&packed);
        }
        let at = out.len();
        out.extend(&cd);
        out.extend(b"PK\x05\x06\0\0\0\0");
        out.extend((members.len() as u16).to_le_bytes());
        out.extend((members.len() as u16).to_le_bytes());
        out.extend((cd.len() as u32).to_le_bytes());
        out.extend((at as u32).to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out
    }

    fn json_zip(json: &str) -> Vec<u8> {
        zip(&[("experiment.json", json.as_bytes(), true)])
    }

    /// A values chunk holding one `<f8` array.
    fn values_zip(json: &str, values: &[f64]) -> Vec<u8> {
        let mut vals = b"Extra-P VALUES\0\0".to_vec();
        let header = format!("{{'descr': '<f8', 'fortran_order': False, 'shape': ({},), }}", values.len());
        vals.extend(b"\x93NUMPY\x01\x00");
        vals.extend((header.len() as u16 + 1).to_le_bytes());
        vals.extend(header.as_bytes());
        vals.push(b'\n');
        for v in values {
            vals.extend(v.to_le_bytes());
        }
        let mut indx = b"Extra-P INDEX\0\0\0".to_vec();
        indx.extend(1u64.to_le_bytes());
        indx.extend(16u64.to_le_bytes());
        zip(&[
            ("values/0.vals", &vals, false),
            ("values/0.indx", &indx, false),
            ("experiment.json", json.as_bytes(), true),
        ])
    }

    const ONE_POINT: &str = r#"{"Extra-P": "4.2.5", "parameters": ["p"], "measurements": {"main->a": {"time": [{"coordinate": [2], "median": 1.5, "values": [0, 0]}]}}}"#;

    #[test]
    fn reads_a_hand_made_zip() {
        let e = ok(&values_zip(ONE_POINT, &[1.0, 2.0]));
        assert_eq!(e.series[0].callpath, "main->a");
        assert_eq!(e.series[0].points[0].values, [1.0, 2.0]);
    }

    #[test]
    fn says_what_is_wrong() {
        let m = fails(b"");
        assert!(m.starts_with("not an Extra-P experiment") && m.contains("empty"), "{m}");
        let mut e3 = 17u32.to_le_bytes().to_vec();
        e3.extend(b"EXTRAP_EXPERIMENT\0\0\0\0");
        assert!(fails(&e3).contains("Extra-P 3 binary experiment"));
        assert!(fails(b"{\"parameters\": []}").contains("JSON"));
        assert!(fails(b"PARAMETER x\nPOINTS ( 1 )").contains("text format"));
        assert!(fails(b"\x89PNG....").contains("not a zip archive"));
        assert_eq!(
            fails(&zip(&[("other.txt", b"x", false)])),
            "not an Extra-P experiment: the zip holds no experiment.json"
        );
        let m = fails(&json_zip(&ONE_POINT.replace("[2]", "[\"2\"]")));
        assert_eq!(m, "experiment.json: measurements[\"main->a\"][\"time\"][0].coordinate[0]: expected a finite number, found a string");
        let m = fails(&json_zip(&ONE_POINT.replace("[2]", "[2, 3]")));
        assert!(
            m.starts_with("experiment.json: measurements[\"main->a\"][\"time\"][0].coordinate: expected 1 numbers"),
            "{m}"
        );
        let m = fails(&json_zip(&ONE_POINT.replace("[0, 0]", "null").replace("1.5", "\"nan\"")));
        assert!(m.contains("[0].median: at (2): expected a finite number, found \"nan\""), "{m}");
        let m = fails(&values_zip(ONE_POINT, &[1.0, f64::INFINITY]));
        assert!(m.contains("measurements[\"main->a\"][\"time\"][0].values: at (2): repetition 1 is inf"), "{m}");
        let m = fails(&json_zip(ONE_POINT));
        assert!(m.contains(".values: the zip holds no values/0.indx"), "{m}");
        let m = fails(&json_zip(&ONE_POINT.replace("4.2.5", "5.0.0")));
        assert!(m.contains("saved by Extra-P 5.0.0"), "{m}");
        let m = fails(&json_zip(&ONE_POINT.replace("[\"p\"]", "[\"a\", \"b\", \"c\", \"d\", \"e\"]")));
        assert!(m.contains("5 parameters; one to 4"), "{m}");
        let m = fails(&json_zip(&ONE_POINT.replace("\"measurements\"", "\"m\"")));
        assert!(m.contains("no \"measurements\""), "{m}");
        let m = fails(&json_zip(r#"{"parameters": ["p"], "measurements": {"main->a": [{"time": []}]}}"#));
        assert!(m.contains("measurements[\"main->a\"]: expected an object keyed by metric, found a list"), "{m}");
        let m = fails(&json_zip("{\"parameters\": [\"p\"], \"measurements\": {"));
        assert!(m.starts_with("experiment.json: not valid JSON"), "{m}");
        let mut bad = data!("two_parameter3.txt.extra-p").to_vec();
        bad[100] ^= 1;
        let m = fails(&bad);
        assert!(m.starts_with("experiment.json: "), "{m}");
        // Too many repetitions are refused before reading them.
        let m = fails(&values_zip(ONE_POINT, &vec![1.0; MAX_REPETITIONS + 1]));
        assert!(m.contains("at most 10000 repetitions"), "{m}");
    }

    #[test]
    fn keeps_to_the_limits() {
        let file = data!("two_parameter3.txt.extra-p");
        let limits = |max_bytes, max_series, max_points| Limits { max_bytes, max_series, max_points };
        assert!(read(file, &limits(24693, 4, 100)).is_ok());
        let m = read(file, &limits(24692, 4, 100)).unwrap_err().message;
        assert_eq!(m, "experiment.json: 24693 bytes unpacked is more than the 24692 bytes read in all");
        assert!(read(file, &limits(1 << 20, 3, 100)).unwrap_err().message.contains("more than 3 series"));
        assert!(read(file, &limits(1 << 20, 4, 99)).unwrap_err().message.contains("more than 99 points"));
        // A member that inflates past the size it declares stops there (a zip bomb).
        let zeros = vec![b' '; 1 << 20];
        let mut bomb = zip(&[("experiment.json", &zeros, true)]);
        let cd = bomb.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
        bomb[cd + 24..cd + 28].copy_from_slice(&1000u32.to_le_bytes());
        let m = read(&bomb, &Limits::DEFAULT).unwrap_err().message;
        assert_eq!(m, "experiment.json: inflates to more than the 1000 bytes it declares");
    }

    use crate::model::TestRng as Rng;

    /// Read, with the CRC checked and not (so that damage reaches the JSON and value parsers).
    fn no_panic(bytes: &[u8]) {
        let _ = read(bytes, &Limits::DEFAULT);
        let _ = read_checked(bytes, &Limits::DEFAULT, false);
    }

    #[test]
    fn never_panics_on_damaged_files() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for (_, bytes, _) in FILES {
            for end in (0..bytes.len()).step_by(7) {
                no_panic(&bytes[..end]);
            }
            for _ in 0..400 {
                let mut b = bytes.to_vec();
                for _ in 0..1 + rng.next() % 4 {
                    let i = (rng.next() % b.len() as u64) as usize;
                    b[i] = match rng.next() % 3 {
                        0 => b[i] ^ (1 << (rng.next() % 8)),
                        1 => 0xFF,
                        _ => rng.next() as u8,
                    };
                }
                no_panic(&b);
            }
        }
        // Damage inside the members, zipped again with good CRCs.
        let e = ok(data!("synthetic.values.extra-p"));
        assert_eq!(e.series.len(), 2);
        let base = data!("synthetic.values.extra-p");
        let mut archive = Archive {
            bytes: base,
            entries: zip::central_directory(base).unwrap(),
            budget: usize::MAX,
            max_bytes: usize::MAX,
            check_crc: true,
            chunks: HashMap::new(),
        };
        let json = archive.member("experiment.json").unwrap().unwrap().into_owned();
        let vals = archive.member("values/0.vals").unwrap().unwrap().into_owned();
        let indx = archive.member("values/0.indx").unwrap().unwrap().into_owned();
        for round in 0..3000 {
            let (mut j, mut v, mut x) = (json.clone(), vals.clone(), indx.clone());
            let target = match round % 3 {
                0 => &mut j,
                1 => &mut v,
                _ => &mut x,
            };
            if rng.next() % 4 == 0 {
                let end = (rng.next() % target.len() as u64) as usize;
                target.truncate(end);
            } else {
                for _ in 0..1 + rng.next() % 3 {
                    let i = (rng.next() % target.len().max(1) as u64) as usize;
                    if let Some(b) = target.get_mut(i) {
                        let alphabet = b"0123456789[]{},:\"-.eE nulltrue\x93\xff\x00'()";
                        *b = alphabet[(rng.next() % alphabet.len() as u64) as usize];
                    }
                }
            }
            no_panic(&zip(&[
                ("values/0.vals", &v, false),
                ("values/0.indx", &x, false),
                ("experiment.json", &j, round % 2 == 0),
            ]));
        }
    }

    /// The house rules: nothing here touches files, the environment, threads or the console.
    #[test]
    fn is_pure() {
        let source = include_str!("saved.rs");
        // Spelt in pieces, so that this test does not find itself.
        for b in [["std::", "fs"], ["std::", "env"], ["std::", "thread"], ["std::io::", "std"], ["print", "ln!"]] {
            let b = b.concat();
            assert!(!source.contains(&b), "{b}");
        }
    }
}

//! `{id}.index` and `{id}.data` decoding, and the exclusive/inclusive conversion.
//!
//! Index: `CUBEX.INDEX`, an i32 `1` in the writer's byte order (which also holds for the data), a u16 version,
//! a u8 format (1 sparse: an i32 count and that many i32 tree indices follow; 3 dense: every tree index, in order).
//! Data: `CUBEX.DATA` then one row of `locations` values per listed tree index; or `ZCUBEX.DATA`, an i64 count,
//! count × (uncompressed position, compressed position, compressed size) i64 triples, and the zlib segments in
//! that order, which inflate to the same rows (segments of size 0 are skipped).
//! Tree index → cnode: pre-order for EXCLUSIVE metrics; for INCLUSIVE ones, per root: the root, then for each node
//! taken depth-first its children listed together before any of their subtrees.

use super::tar::group;
use super::{Cube, DType, Error, Kind, Metric, Values};

#[derive(Clone, Copy)]
enum Order {
    Little,
    Big,
}

fn rd<const N: usize>(b: &[u8], at: usize) -> Option<[u8; N]> {
    b.get(at..at.checked_add(N)?)?.try_into().ok()
}

fn i32_at(b: &[u8], at: usize, o: Order) -> Option<i32> {
    let a = rd::<4>(b, at)?;
    Some(match o {
        Order::Little => i32::from_le_bytes(a),
        Order::Big => i32::from_be_bytes(a),
    })
}

fn i64_at(b: &[u8], at: usize, o: Order) -> Option<i64> {
    let a = rd::<8>(b, at)?;
    Some(match o {
        Order::Little => i64::from_le_bytes(a),
        Order::Big => i64::from_be_bytes(a),
    })
}

fn u64_at(b: &[u8], at: usize, o: Order) -> Option<u64> {
    i64_at(b, at, o).map(|v| v as u64)
}

fn f64_at(b: &[u8], at: usize, o: Order) -> Option<f64> {
    u64_at(b, at, o).map(f64::from_bits)
}

/// Largest UINT64 that survives CubeLib's uint64 → double → uint64 round trip (pycubexr's MAX_UINT64_DOUBLE).
const MAX_UINT64_DOUBLE: u64 = 0xFFFF_FFFF_FFFF_FBFF;

/// A dtype whose values cannot each become one f64.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NoScalar {
    SeveralDoubles,
    Histogram,
    ScaleFunction,
    Unknown,
}

impl std::fmt::Display for NoScalar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NoScalar::SeveralDoubles => "holds several doubles per value, which have no single scalar value",
            NoScalar::Histogram => "is a histogram, which has no single scalar value",
            NoScalar::ScaleFunction => "is a scale function, which has no single scalar value",
            NoScalar::Unknown => "is not a dtype this reader knows",
        })
    }
}

/// Bytes per value, or why the dtype's values cannot become one f64.
fn value_size(d: &DType) -> Result<usize, NoScalar> {
    Ok(match d {
        DType::Char | DType::Int8 | DType::Uint8 => 1,
        DType::Int16 | DType::Uint16 => 2,
        DType::Int32 | DType::Uint32 => 4,
        DType::Int64 | DType::Uint64 | DType::Double | DType::Float | DType::MinDouble | DType::MaxDouble => 8,
        DType::Complex | DType::Rate => 16,
        DType::TauAtomic => 36,
        DType::NDoubles(_) => return Err(NoScalar::SeveralDoubles),
        DType::Histogram(_) => return Err(NoScalar::Histogram),
        DType::ScaleFunc => return Err(NoScalar::ScaleFunction),
        DType::Unknown(_) => return Err(NoScalar::Unknown),
    })
}

/// Decodes the value at `at` (bounds already checked by the caller; a short read gives 0).
fn scalar(d: &DType, b: &[u8], at: usize, o: Order) -> f64 {
    let v = match d {
        DType::Char | DType::Uint8 => b.get(at).map(|&x| x as f64),
        DType::Int8 => b.get(at).map(|&x| x as i8 as f64),
        DType::Int16 | DType::Uint16 => rd::<2>(b, at).map(|a| {
            let u = match o {
                Order::Little => u16::from_le_bytes(a),
                Order::Big => u16::from_be_bytes(a),
            };
            if matches!(d, DType::Int16) {
                u as i16 as f64
            } else {
                u as f64
            }
        }),
        DType::Int32 => i32_at(b, at, o).map(|x| x as f64),
        DType::Uint32 => i32_at(b, at, o).map(|x| x as u32 as f64),
        DType::Int64 => i64_at(b, at, o).map(|x| x as f64),
        DType::Uint64 => u64_at(b, at, o).map(|x| if x > MAX_UINT64_DOUBLE { 0.0 } else { x as f64 }),
        DType::Double | DType::Float | DType::MinDouble | DType::MaxDouble => f64_at(b, at, o),
        DType::Complex => (|| Some(f64_at(b, at, o)?.hypot(f64_at(b, at + 8, o)?)))(),
        DType::Rate => (|| {
            let main = f64_at(b, at, o)?;
            let duration = f64_at(b, at + 8, o)?;
            Some(if duration == 0.0 { 0.0 } else { main / duration })
        })(),
        DType::TauAtomic => (|| {
            let n = i32_at(b, at, o)? as u32;
            let sum = f64_at(b, at + 4 + 16, o)?;
            Some(if n == 0 { sum / (0.0 + 1e-256) } else { sum / n as f64 })
        })(),
        _ => None,
    };
    v.unwrap_or(0.0)
}

/// Tree index → cnode index for INCLUSIVE metrics (CubeLib's "wide" enumeration).
pub(crate) fn wide_order(cube: &Cube) -> Vec<usize> {
    let mut out = Vec::with_capacity(cube.cnodes.len());
    let mut stack = Vec::new();
    for (i, c) in cube.cnodes.iter().enumerate() {
        if c.parent.is_some() {
            continue;
        }
        out.push(i);
        stack.push(i);
        while let Some(n) = stack.pop() {
            let Some(node) = cube.cnodes.get(n) else {
                continue;
            };
            out.extend_from_slice(&node.children);
            stack.extend(node.children.iter().rev());
        }
    }
    out
}

pub(crate) fn decode(cube: &Cube, m: &Metric, index: &[u8], data: &[u8], want: Kind) -> Result<Values, Error> {
    let id = m.id;
    let ierr = |what: String| Error::new(format!("{id}.index: {what} (metric {})", m.uniq_name));
    let derr = |what: String| Error::new(format!("{id}.data: {what} (metric {})", m.uniq_name));
    let size = value_size(&m.dtype)
        .map_err(|e| Error::new(format!("metric {}: dtype {} {e}", m.uniq_name, m.dtype.name())))?;
    let composite = matches!(m.dtype, DType::Complex | DType::Rate | DType::TauAtomic);
    if composite && want != m.kind {
        return Err(Error::new(format!(
            "metric {}: dtype {} is stored {}; converting it to {} is not supported",
            m.uniq_name,
            m.dtype.name(),
            kind_name(m.kind),
            kind_name(want)
        )));
    }

    // Index header.
    const IH: &[u8] = b"CUBEX.INDEX";
    if index.get(..IH.len()) != Some(IH) {
        let found = String::from_utf8_lossy(index.get(..IH.len().min(index.len())).unwrap_or(&[])).into_owned();
        return Err(ierr(format!("expected \"CUBEX.INDEX\", found {found:?}")));
    }
    let order = match rd::<4>(index, 11) {
        Some(a) if i32::from_le_bytes(a) == 1 => Order::Little,
        Some(a) if i32::from_be_bytes(a) == 1 => Order::Big,
        Some(a) => return Err(ierr(format!("expected the byte-order mark 1, found bytes {a:02x?}"))),
        None => return Err(ierr("truncated header: expected a byte-order mark".into())),
    };
    let format = *index.get(17).ok_or_else(|| ierr("truncated header: expected an index format byte".into()))?;
    let n_cnodes = cube.cnodes.len();
    let tree_order: Vec<usize> = match m.kind {
        Kind::Exclusive => (0..n_cnodes).collect(),
        Kind::Inclusive => wide_order(cube),
    };
    let rows: Vec<usize> = match format {
        1 => {
            let n = i32_at(index, 18, order)
                .ok_or_else(|| ierr("truncated header: expected the number of indices".into()))?;
            let n = usize::try_from(n).map_err(|_| ierr(format!("negative number of indices {n}")))?;
            let body = index.get(22..).unwrap_or(&[]);
            if Some(body.len()) != n.checked_mul(4) {
                return Err(ierr(format!(
                    "expected {n} indices ({} bytes), found {} bytes",
                    n.saturating_mul(4),
                    body.len()
                )));
            }
            if n > n_cnodes {
                return Err(ierr(format!("{n} indices for {n_cnodes} call paths")));
            }
            let mut rows = Vec::with_capacity(n);
            for k in 0..n {
                let t = i32_at(body, 4 * k, order).unwrap_or(-1);
                let cn = usize::try_from(t).ok().and_then(|t| tree_order.get(t).copied());
                rows.push(cn.ok_or_else(|| ierr(format!("tree index {t} is outside 0..{n_cnodes}")))?);
            }
            rows
        }
        3 => tree_order.clone(),
        f => return Err(ierr(format!("expected index format 1 (sparse) or 3 (dense), found {f}"))),
    };

    // Data.
    let nloc = cube.locations.len();
    let row_bytes = nloc.checked_mul(size).ok_or_else(|| derr("row size overflows".into()))?;
    let expected = rows.len().checked_mul(row_bytes).ok_or_else(|| derr("data size overflows".into()))?;
    let table_bytes = n_cnodes.checked_mul(nloc).and_then(|x| x.checked_mul(8)).filter(|&x| x <= cube.limits.max_bytes);
    let table_len = match table_bytes {
        Some(b) => b / 8,
        None => {
            return Err(Error::new(format!(
                "metric {}: a table of {} call paths × {} locations is more than {} bytes (the limit)",
                m.uniq_name,
                group(n_cnodes),
                group(nloc),
                group(cube.limits.max_bytes)
            )))
        }
    };
    let inflated;
    let raw: &[u8] = if data.starts_with(b"CUBEX.DATA") {
        &data[10..]
    } else if data.starts_with(b"ZCUBEX.DATA") {
        if expected > cube.limits.max_bytes {
            return Err(derr(format!("inflates to more than {} bytes (the limit)", group(cube.limits.max_bytes))));
        }
        inflated = inflate_segments(&data[11..], order, expected).map_err(|e| derr(e.message))?;
        &inflated
    } else {
        let found = String::from_utf8_lossy(data.get(..11.min(data.len())).unwrap_or(&[])).into_owned();
        return Err(derr(format!("expected \"CUBEX.DATA\" or \"ZCUBEX.DATA\", found {found:?}")));
    };
    if raw.len() != expected {
        return Err(derr(format!(
            "expected {expected} bytes of values ({} rows × {nloc} locations × {size} bytes of {}), found {}",
            rows.len(),
            m.dtype.name(),
            raw.len()
        )));
    }
    let mut table = vec![0.0f64; table_len];
    for (k, &cn) in rows.iter().enumerate() {
        let Some(dst) = table.get_mut(cn * nloc..cn * nloc + nloc) else {
            continue;
        };
        let base = k * row_bytes;
        for (l, v) in dst.iter_mut().enumerate() {
            *v = scalar(&m.dtype, raw, base + l * size, order);
        }
    }
    if want != m.kind {
        convert(cube, &m.dtype, &mut table, nloc, want);
    }
    Ok(Values { locations: nloc, data: table })
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Exclusive => "exclusive",
        Kind::Inclusive => "inclusive",
    }
}

fn inflate_segments(body: &[u8], order: Order, expected: usize) -> Result<Vec<u8>, Error> {
    let count = i64_at(body, 0, order).ok_or_else(|| Error::new("truncated: expected the number of segments"))?;
    let count = usize::try_from(count).map_err(|_| Error::new(format!("negative number of segments {count}")))?;
    let headers =
        count.checked_mul(24).and_then(|h| h.checked_add(8)).filter(|&h| h <= body.len()).ok_or_else(|| {
            Error::new(format!(
                "expected {count} segment headers ({} bytes), found {} bytes",
                count.saturating_mul(24),
                body.len().saturating_sub(8)
            ))
        })?;
    let mut out: Vec<u8> = Vec::with_capacity(expected);
    let mut pos = headers;
    for k in 0..count {
        let csize = i64_at(body, 8 + 24 * k + 16, order).unwrap_or(0);
        let csize = usize::try_from(csize).map_err(|_| Error::new(format!("segment {k}: negative size {csize}")))?;
        if csize == 0 {
            continue;
        }
        let end = pos
            .checked_add(csize)
            .filter(|&e| e <= body.len())
            .ok_or_else(|| Error::new(format!("segment {k}: expected {csize} bytes, the file ends first")))?;
        let room = expected - out.len();
        let part = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&body[pos..end], room).map_err(|e| {
            if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
                Error::new(format!(
                    "segment {k} inflates past the {expected} bytes of values the index and anchor give"
                ))
            } else {
                Error::new(format!("segment {k}: zlib data is corrupt ({:?})", e.status))
            }
        })?;
        out.extend_from_slice(&part);
        pos = end;
    }
    Ok(out)
}

/// Converts a table between exclusive and inclusive in place (see the module doc of the crate for the rules).
fn convert(cube: &Cube, dtype: &DType, table: &mut [f64], nloc: usize, want: Kind) {
    let minmax = match dtype {
        DType::MinDouble => Some(true),
        DType::MaxDouble => Some(false),
        _ => None,
    };
    let unsigned = dtype.is_unsigned();
    let n = cube.cnodes.len();
    let mut acc = vec![0.0f64; nloc];
    // Exclusive → inclusive needs the children's inclusive values first: walk pre-order backwards.
    // Inclusive → exclusive needs the children's stored (inclusive) values: walk pre-order forwards.
    let nodes: Box<dyn Iterator<Item = usize>> = match want {
        Kind::Inclusive => Box::new((0..n).rev()),
        Kind::Exclusive => Box::new(0..n),
    };
    for i in nodes {
        let Some(node) = cube.cnodes.get(i) else {
            continue;
        };
        let Some(own) = table.get(i * nloc..i * nloc + nloc) else {
            continue;
        };
        acc.copy_from_slice(own);
        for &c in &node.children {
            let Some(child) = table.get(c * nloc..c * nloc + nloc) else {
                continue;
            };
            match minmax {
                Some(is_min) => {
                    if child.iter().all(|&v| v == 0.0) {
                        continue;
                    }
                    for (a, &v) in acc.iter_mut().zip(child) {
                        *a = if is_min { a.min(v) } else { a.max(v) };
                    }
                }
                None => {
                    for (a, &v) in acc.iter_mut().zip(child) {
                        match want {
                            Kind::Inclusive => *a += v,
                            Kind::Exclusive => {
                                if unsigned && v > *a {
                                    *a = 0.0;
                                } else {
                                    *a -= v;
                                }
                            }
                        }
                    }
                }
            }
        }
        if let Some(dst) = table.get_mut(i * nloc..i * nloc + nloc) {
            dst.copy_from_slice(&acc);
        }
    }
}

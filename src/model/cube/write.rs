//! A small `.cubex` writer, for tests and generated test sets.

use super::{DType, Kind};

/// One metric to write: its values are `values[cnode][location]` (locations ordered rank-major: rank r, thread t
/// is column `r * threads + t`), given in the metric's own `kind`.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecMetric {
    pub uniq_name: String,
    pub disp_name: String,
    pub units: String,
    pub kind: Kind,
    /// Scalar dtypes are written as such (integers truncated from the f64 values); COMPLEX, RATE, TAU_ATOMIC,
    /// NDOUBLES, HISTOGRAM, SCALE_FUNC and unknown dtypes are written as DOUBLE.
    pub dtype: DType,
    pub values: Vec<Vec<f64>>,
}

/// One call-tree node: a region index and the parent's index. List cnodes in pre-order (each parent before its
/// children, each subtree contiguous) so that the indices read back equal the indices written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecCnode {
    pub region: usize,
    pub parent: Option<usize>,
}

/// What [`write`] writes.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    pub metrics: Vec<SpecMetric>,
    pub regions: Vec<String>,
    pub cnodes: Vec<SpecCnode>,
    pub ranks: usize,
    pub threads: usize,
}

/// How [`write`] encodes the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WriteOptions {
    pub big_endian: bool,
    /// `ZCUBEX.DATA` (one zlib segment per row) instead of `CUBEX.DATA`.
    pub zlib: bool,
    pub gzip_anchor: bool,
    pub gzip_archive: bool,
}

fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c => o.push(c),
        }
    }
    o
}

fn written_dtype(d: &DType) -> DType {
    match d {
        DType::Complex
        | DType::Rate
        | DType::TauAtomic
        | DType::NDoubles(_)
        | DType::Histogram(_)
        | DType::ScaleFunc
        | DType::Unknown(_) => DType::Double,
        d => d.clone(),
    }
}

fn encode(d: &DType, v: f64, be: bool, out: &mut Vec<u8>) {
    macro_rules! put {
        ($x:expr) => {
            if be {
                out.extend_from_slice(&$x.to_be_bytes())
            } else {
                out.extend_from_slice(&$x.to_le_bytes())
            }
        };
    }
    match d {
        DType::Char | DType::Uint8 => out.push(v as u8),
        DType::Int8 => out.push(v as i8 as u8),
        DType::Int16 => put!(v as i16),
        DType::Uint16 => put!(v as u16),
        DType::Int32 => put!(v as i32),
        DType::Uint32 => put!(v as u32),
        DType::Int64 => put!(v as i64),
        DType::Uint64 => put!(v as u64),
        _ => put!(v),
    }
}

fn children(spec: &Spec) -> Vec<Vec<usize>> {
    let mut ch = vec![Vec::new(); spec.cnodes.len()];
    for (i, c) in spec.cnodes.iter().enumerate() {
        if let Some(p) = c.parent {
            if let Some(v) = ch.get_mut(p) {
                v.push(i);
            }
        }
    }
    ch
}

fn anchor(spec: &Spec) -> String {
    use std::fmt::Write as _;
    let mut x = String::new();
    x.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n<cube version=\"4.4\">\n <attr key=\"Creator\" value=\"scalewise cube writer\"/>\n <metrics>\n");
    for (i, m) in spec.metrics.iter().enumerate() {
        let kind = if m.kind == Kind::Inclusive { "INCLUSIVE" } else { "EXCLUSIVE" };
        let _ = writeln!(
            x,
            "  <metric id=\"{i}\" type=\"{kind}\">\n   <disp_name>{}</disp_name>\n   <uniq_name>{}</uniq_name>\n   <dtype>{}</dtype>\n   <uom>{}</uom>\n   <url></url>\n   <descr></descr>\n  </metric>",
            escape(&m.disp_name),
            escape(&m.uniq_name),
            written_dtype(&m.dtype).name(),
            escape(&m.units)
        );
    }
    x.push_str(" </metrics>\n <program>\n");
    for (i, r) in spec.regions.iter().enumerate() {
        let _ = writeln!(
            x,
            "  <region id=\"{i}\" mod=\"\" begin=\"0\" end=\"0\">\n   <name>{}</name>\n   <mangled_name>{}</mangled_name>\n   <paradigm>user</paradigm>\n   <role>function</role>\n   <url></url>\n   <descr></descr>\n  </region>",
            escape(r),
            escape(r)
        );
    }
    let ch = children(spec);
    // Iterative nested output: (cnode, entering?)
    let mut stack: Vec<(usize, bool)> = Vec::new();
    for (i, c) in spec.cnodes.iter().enumerate().rev() {
        if c.parent.is_none() {
            stack.push((i, true));
        }
    }
    let mut depth = 0usize;
    while let Some((i, enter)) = stack.pop() {
        if enter {
            let region = spec.cnodes.get(i).map(|c| c.region).unwrap_or(0);
            let _ = writeln!(x, "{}<cnode id=\"{i}\" calleeId=\"{region}\">", " ".repeat(depth + 2));
            depth += 1;
            stack.push((i, false));
            for &c in ch.get(i).map(Vec::as_slice).unwrap_or(&[]).iter().rev() {
                stack.push((c, true));
            }
        } else {
            depth -= 1;
            let _ = writeln!(x, "{}</cnode>", " ".repeat(depth + 2));
        }
    }
    x.push_str(
        " </program>\n <system>\n  <systemtreenode Id=\"0\">\n   <name>machine</name>\n   <class>machine</class>\n",
    );
    x.push_str("   <systemtreenode Id=\"1\">\n    <name>node</name>\n    <class>node</class>\n");
    for r in 0..spec.ranks {
        let _ = writeln!(
            x,
            "    <locationgroup Id=\"{r}\">\n     <name>MPI Rank {r}</name>\n     <rank>{r}</rank>\n     <type>process</type>"
        );
        for t in 0..spec.threads {
            let id = r * spec.threads + t;
            let _ = writeln!(
                x,
                "     <location Id=\"{id}\">\n      <name>{}</name>\n      <rank>{t}</rank>\n      <type>thread</type>\n     </location>",
                if t == 0 { "Master thread".to_string() } else { format!("OMP thread {t}") }
            );
        }
        x.push_str("    </locationgroup>\n");
    }
    x.push_str("   </systemtreenode>\n  </systemtreenode>\n </system>\n</cube>\n");
    x
}

/// Tree-index order of the cnodes for a metric kind (pre-order; or the "wide" order for INCLUSIVE).
fn tree_order(spec: &Spec, ch: &[Vec<usize>], kind: Kind) -> Vec<usize> {
    let mut pre = Vec::new();
    let mut wide = Vec::new();
    let mut stack = Vec::new();
    for (i, c) in spec.cnodes.iter().enumerate() {
        if c.parent.is_some() {
            continue;
        }
        stack.push(i);
        while let Some(n) = stack.pop() {
            pre.push(n);
            stack.extend(ch.get(n).map(Vec::as_slice).unwrap_or(&[]).iter().rev());
        }
        wide.push(i);
        stack.push(i);
        while let Some(n) = stack.pop() {
            let kids = ch.get(n).map(Vec::as_slice).unwrap_or(&[]);
            wide.extend_from_slice(kids);
            stack.extend(kids.iter().rev());
        }
    }
    if kind == Kind::Inclusive {
        wide
    } else {
        pre
    }
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut o = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    o.extend_from_slice(&miniz_oxide::deflate::compress_to_vec(data, 6));
    o.extend_from_slice(&crc32(data).to_le_bytes());
    o.extend_from_slice(&(data.len() as u32).to_le_bytes());
    o
}

fn tar_member(out: &mut Vec<u8>, name: &str, data: &[u8]) {
    let mut h = [0u8; 512];
    let n = name.as_bytes();
    let n = &n[..n.len().min(100)];
    h[..n.len()].copy_from_slice(n);
    h[100..108].copy_from_slice(b"0000600\0");
    h[108..116].copy_from_slice(b"0000000\0");
    h[116..124].copy_from_slice(b"0000000\0");
    let size = format!("{:011o}\0", data.len());
    h[124..136].copy_from_slice(&size.as_bytes()[..12]);
    h[136..148].copy_from_slice(b"00000000000\0");
    h[156] = b'0';
    h[257..263].copy_from_slice(b"ustar\0");
    h[263..265].copy_from_slice(b"00");
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|&b| b as u32).sum();
    let sum = format!("{sum:06o}\0 ");
    h[148..156].copy_from_slice(&sum.as_bytes()[..8]);
    out.extend_from_slice(&h);
    out.extend_from_slice(data);
    let pad = (512 - data.len() % 512) % 512;
    out.extend(std::iter::repeat_n(0u8, pad));
}

/// Writes a `.cubex` file. Rows that are all zero are left out of the sparse index (as Cube writers do).
pub fn write(spec: &Spec, opts: &WriteOptions) -> Vec<u8> {
    let be = opts.big_endian;
    let ch = children(spec);
    let nloc = spec.ranks * spec.threads;
    let mut tar = Vec::new();
    let xml = anchor(spec);
    let xml_bytes = if opts.gzip_anchor { gzip(xml.as_bytes()) } else { xml.into_bytes() };
    tar_member(&mut tar, "anchor.xml", &xml_bytes);
    for (id, m) in spec.metrics.iter().enumerate() {
        let dtype = written_dtype(&m.dtype);
        let order = tree_order(spec, &ch, m.kind);
        let mut listed: Vec<i32> = Vec::new();
        let mut rows: Vec<Vec<u8>> = Vec::new();
        for (t, &cn) in order.iter().enumerate() {
            let row = m.values.get(cn).map(Vec::as_slice).unwrap_or(&[]);
            if (0..nloc).all(|l| row.get(l).copied().unwrap_or(0.0) == 0.0) {
                continue;
            }
            let mut bytes = Vec::new();
            for l in 0..nloc {
                encode(&dtype, row.get(l).copied().unwrap_or(0.0), be, &mut bytes);
            }
            listed.push(t as i32);
            rows.push(bytes);
        }
        let i32b = |v: i32| if be { v.to_be_bytes() } else { v.to_le_bytes() };
        let i64b = |v: i64| if be { v.to_be_bytes() } else { v.to_le_bytes() };
        let mut index = b"CUBEX.INDEX".to_vec();
        index.extend_from_slice(&i32b(1));
        index.extend_from_slice(&if be { 0u16.to_be_bytes() } else { 0u16.to_le_bytes() });
        index.push(1);
        index.extend_from_slice(&i32b(listed.len() as i32));
        for t in &listed {
            index.extend_from_slice(&i32b(*t));
        }
        let mut data;
        if opts.zlib {
            data = b"ZCUBEX.DATA".to_vec();
            let segs: Vec<Vec<u8>> = rows.iter().map(|r| miniz_oxide::deflate::compress_to_vec_zlib(r, 6)).collect();
            data.extend_from_slice(&i64b(segs.len() as i64));
            let (mut upos, mut cpos) = (0i64, 0i64);
            for (r, s) in rows.iter().zip(&segs) {
                data.extend_from_slice(&i64b(upos));
                data.extend_from_slice(&i64b(cpos));
                data.extend_from_slice(&i64b(s.len() as i64));
                upos += r.len() as i64;
                cpos += s.len() as i64;
            }
            for s in &segs {
                data.extend_from_slice(s);
            }
        } else {
            data = b"CUBEX.DATA".to_vec();
            for r in &rows {
                data.extend_from_slice(r);
            }
        }
        tar_member(&mut tar, &format!("{id}.index"), &index);
        tar_member(&mut tar, &format!("{id}.data"), &data);
    }
    tar.extend(std::iter::repeat_n(0u8, 1024));
    if opts.gzip_archive {
        gzip(&tar)
    } else {
        tar
    }
}

/// Test helper: one ustar member (checksummed), without the end marker.
#[cfg(test)]
pub(crate) fn tests_tar(out: &mut Vec<u8>, name: &str, data: &[u8]) {
    tar_member(out, name, data);
}

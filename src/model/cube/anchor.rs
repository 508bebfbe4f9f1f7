//! Streaming parse of `anchor.xml` (quick-xml events; time and memory linear in the anchor's size).

use super::tar::group;
use super::{Cnode, DType, Error, Kind, Limits, Location, Metric};
use quick_xml::events::{BytesStart, Event};
use quick_xml::XmlVersion;
use std::collections::HashMap;

pub(crate) struct Anchor {
    pub metrics: Vec<Metric>,
    pub regions: Vec<String>,
    pub cnodes: Vec<Cnode>,
    pub locations: Vec<Location>,
}

/// The elements whose text we keep.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    UniqName,
    DispName,
    Uom,
    Dtype,
    RegionName,
    LocName,
    LocRank,
    LocType,
    GroupRank,
}

/// What an open element is, for the elements we care about.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Metric,
    Region,
    Cnode,
    Group,
    Location,
    Other,
}

fn line_of(bytes: &[u8], pos: u64) -> usize {
    let pos = usize::try_from(pos).unwrap_or(usize::MAX).min(bytes.len());
    bytes[..pos].iter().filter(|&&b| b == b'\n').count() + 1
}

struct Parser<'a> {
    bytes: &'a [u8],
    limits: &'a Limits,
    metrics: Vec<Metric>,
    metric_stack: Vec<usize>,
    regions: Vec<String>,
    region_ids: HashMap<i64, usize>,
    cnodes: Vec<Cnode>,
    callee: Vec<i64>,
    cnode_stack: Vec<usize>,
    locations: Vec<Location>,
    group_rank: Vec<i64>,
    open: Vec<Open>,
    field: Option<Field>,
    text: String,
}

impl<'a> Parser<'a> {
    fn err(&self, pos: u64, what: impl std::fmt::Display) -> Error {
        Error::new(format!("anchor.xml: line {}: {what}", line_of(self.bytes, pos)))
    }

    fn attr(&self, e: &BytesStart<'_>, name: &str, pos: u64) -> Result<Option<String>, Error> {
        for a in e.attributes() {
            let a = a.map_err(|x| self.err(pos, format!("bad attribute: {x}")))?;
            if a.key.as_ref() == name {
                let v = a
                    .normalized_value(XmlVersion::Implicit1_0)
                    .map_err(|x| self.err(pos, format!("bad attribute {name}: {x}")))?;
                return Ok(Some(v.into_owned()));
            }
        }
        Ok(None)
    }

    fn int_attr(&self, e: &BytesStart<'_>, tag: &str, name: &str, pos: u64) -> Result<i64, Error> {
        let v = self.attr(e, name, pos)?.ok_or_else(|| self.err(pos, format!("<{tag}> without {name}")))?;
        v.trim().parse::<i64>().map_err(|_| self.err(pos, format!("<{tag}> {name}=\"{v}\": expected an integer")))
    }

    fn start(&mut self, e: &BytesStart<'_>, pos: u64) -> Result<(), Error> {
        let parent = self.open.last().copied();
        let open = match e.name().as_ref() {
            "metric" => {
                if self.metrics.len() >= self.limits.max_metrics {
                    return Err(
                        self.err(pos, format!("more than {} metrics (the limit)", group(self.limits.max_metrics)))
                    );
                }
                let id = self.int_attr(e, "metric", "id", pos)?;
                let id = u32::try_from(id).map_err(|_| {
                    self.err(pos, format!("<metric> id=\"{id}\": expected a non-negative 32-bit integer"))
                })?;
                let type_name = self.attr(e, "type", pos)?.unwrap_or_default();
                let kind = if type_name.trim().ends_with("INCLUSIVE") { Kind::Inclusive } else { Kind::Exclusive };
                self.metrics.push(Metric {
                    id,
                    uniq_name: String::new(),
                    disp_name: String::new(),
                    units: String::new(),
                    kind,
                    dtype: DType::Unknown(String::new()),
                    parent: self.metric_stack.last().copied(),
                    type_name: type_name.trim().to_string(),
                    has_data: false,
                });
                self.metric_stack.push(self.metrics.len() - 1);
                Open::Metric
            }
            "region" => {
                let id = self.int_attr(e, "region", "id", pos)?;
                if self.region_ids.insert(id, self.regions.len()).is_some() {
                    return Err(self.err(pos, format!("<region> id=\"{id}\" appears twice")));
                }
                self.regions.push(String::new());
                Open::Region
            }
            "cnode" => {
                if self.cnodes.len() >= self.limits.max_cnodes {
                    return Err(
                        self.err(pos, format!("more than {} call paths (the limit)", group(self.limits.max_cnodes)))
                    );
                }
                let id = self.int_attr(e, "cnode", "id", pos)?;
                let id = u32::try_from(id).map_err(|_| {
                    self.err(pos, format!("<cnode> id=\"{id}\": expected a non-negative 32-bit integer"))
                })?;
                let callee = self.int_attr(e, "cnode", "calleeId", pos)?;
                let index = self.cnodes.len();
                let parent = self.cnode_stack.last().copied();
                if let Some(p) = parent {
                    if let Some(pn) = self.cnodes.get_mut(p) {
                        pn.children.push(index);
                    }
                }
                self.cnodes.push(Cnode { id, region: 0, parent, children: Vec::new() });
                self.callee.push(callee);
                self.cnode_stack.push(index);
                Open::Cnode
            }
            "locationgroup" | "process" => {
                self.group_rank.push(0);
                Open::Group
            }
            "location" | "thread" => {
                if self.locations.len() >= self.limits.max_locations {
                    return Err(
                        self.err(pos, format!("more than {} locations (the limit)", group(self.limits.max_locations)))
                    );
                }
                let id = match self.attr(e, "Id", pos)? {
                    Some(v) => v
                        .trim()
                        .parse::<i64>()
                        .map_err(|_| self.err(pos, format!("<location> Id=\"{v}\": expected an integer")))?,
                    None => match self.attr(e, "id", pos)? {
                        Some(v) => v
                            .trim()
                            .parse::<i64>()
                            .map_err(|_| self.err(pos, format!("<location> id=\"{v}\": expected an integer")))?,
                        None => self.locations.len() as i64,
                    },
                };
                let rank = self.group_rank.last().copied().unwrap_or(0);
                self.locations.push(Location { id, name: String::new(), rank, thread: 0, kind: String::new() });
                Open::Location
            }
            other => {
                self.field = match (parent, other) {
                    (Some(Open::Metric), "uniq_name") => Some(Field::UniqName),
                    (Some(Open::Metric), "disp_name") => Some(Field::DispName),
                    (Some(Open::Metric), "uom") => Some(Field::Uom),
                    (Some(Open::Metric), "dtype") => Some(Field::Dtype),
                    (Some(Open::Region), "name") => Some(Field::RegionName),
                    (Some(Open::Location), "name") => Some(Field::LocName),
                    (Some(Open::Location), "rank") => Some(Field::LocRank),
                    (Some(Open::Location), "type") => Some(Field::LocType),
                    (Some(Open::Group), "rank") => Some(Field::GroupRank),
                    _ => None,
                };
                self.text.clear();
                Open::Other
            }
        };
        if open != Open::Other {
            self.field = None;
        }
        self.open.push(open);
        Ok(())
    }

    fn end(&mut self, pos: u64) -> Result<(), Error> {
        let open = self.open.pop().ok_or_else(|| self.err(pos, "end tag without a start tag"))?;
        match open {
            Open::Metric => {
                self.metric_stack.pop();
            }
            Open::Cnode => {
                self.cnode_stack.pop();
            }
            Open::Group => {
                self.group_rank.pop();
            }
            Open::Region | Open::Location => {}
            Open::Other => {
                if let Some(f) = self.field.take() {
                    let text = std::mem::take(&mut self.text);
                    let t = text.trim();
                    let int = |s: &str| {
                        s.parse::<i64>().map_err(|_| self.err(pos, format!("<rank> {s:?}: expected an integer")))
                    };
                    match f {
                        Field::UniqName | Field::DispName | Field::Uom | Field::Dtype => {
                            if let Some(m) = self.metric_stack.last().and_then(|&i| self.metrics.get_mut(i)) {
                                match f {
                                    Field::UniqName => m.uniq_name = t.to_string(),
                                    Field::DispName => m.disp_name = t.to_string(),
                                    Field::Uom => m.units = t.to_string(),
                                    _ => m.dtype = DType::parse(t),
                                }
                            }
                        }
                        Field::RegionName => {
                            if let Some(r) = self.regions.last_mut() {
                                *r = t.to_string();
                            }
                        }
                        Field::LocName => {
                            if let Some(l) = self.locations.last_mut() {
                                l.name = t.to_string();
                            }
                        }
                        Field::LocType => {
                            if let Some(l) = self.locations.last_mut() {
                                l.kind = t.to_string();
                            }
                        }
                        Field::LocRank => {
                            let v = int(t)?;
                            if let Some(l) = self.locations.last_mut() {
                                l.thread = v;
                            }
                        }
                        Field::GroupRank => {
                            let v = int(t)?;
                            if let Some(g) = self.group_rank.last_mut() {
                                *g = v;
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

pub(crate) fn parse(bytes: &[u8], limits: &Limits) -> Result<Anchor, Error> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let pos = e.valid_up_to();
        Error::new(format!("anchor.xml: line {}: expected UTF-8 text, found invalid bytes", line_of(bytes, pos as u64)))
    })?;
    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().expand_empty_elements = true;
    let mut p = Parser {
        bytes,
        limits,
        metrics: Vec::new(),
        metric_stack: Vec::new(),
        regions: Vec::new(),
        region_ids: HashMap::new(),
        cnodes: Vec::new(),
        callee: Vec::new(),
        cnode_stack: Vec::new(),
        locations: Vec::new(),
        group_rank: Vec::new(),
        open: Vec::new(),
        field: None,
        text: String::new(),
    };
    let mut saw_cube = false;
    loop {
        let pos = reader.buffer_position();
        let ev = reader.read_event().map_err(|e| p.err(reader.error_position(), format!("malformed XML: {e}")))?;
        match ev {
            Event::Start(e) => {
                if e.name().as_ref() == "cube" {
                    saw_cube = true;
                }
                p.start(&e, pos)?;
            }
            Event::End(_) => p.end(pos)?,
            Event::Text(t) if p.field.is_some() => {
                p.text.push_str(&t.xml10_content());
            }
            Event::CData(t) if p.field.is_some() => {
                p.text.push_str(&t.xml10_content());
            }
            Event::GeneralRef(r) if p.field.is_some() => {
                let resolved = r.resolve_char_ref().map_err(|e| p.err(pos, format!("bad character reference: {e}")))?;
                match resolved {
                    Some(c) => p.text.push(c),
                    None => {
                        let name = r.xml10_content();
                        match quick_xml::escape::resolve_predefined_entity(&name) {
                            Some(s) => p.text.push_str(s),
                            None => return Err(p.err(pos, format!("unknown entity &{name};"))),
                        }
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !saw_cube {
        return Err(Error::new("anchor.xml: expected a <cube> document, found none"));
    }
    if !p.open.is_empty() {
        return Err(Error::new("anchor.xml: the document ends inside an element"));
    }
    for m in &p.metrics {
        if m.uniq_name.is_empty() {
            return Err(Error::new(format!("anchor.xml: <metric id=\"{}\"> without <uniq_name>", m.id)));
        }
    }
    for (i, c) in p.cnodes.iter_mut().enumerate() {
        let callee = p.callee.get(i).copied().unwrap_or(-1);
        c.region = *p.region_ids.get(&callee).ok_or_else(|| {
            Error::new(format!("anchor.xml: <cnode id=\"{}\"> calls region {callee}, which is not defined", c.id))
        })?;
    }
    // Columns are ordered by location id (stable, so equal ids keep document order).
    p.locations.sort_by_key(|l| l.id);
    Ok(Anchor { metrics: p.metrics, regions: p.regions, cnodes: p.cnodes, locations: p.locations })
}

//! The regions' call tree, whether their values are exclusive or inclusive times, and the
//! shares that follow from both (issue 17, part 4).
//!
//! A region's parent is read from its call path, Extra-P's and Cube's convention: "a->b->c"
//! has as parent the longest proper prefix path present ("a->b", or "a" when "a->b" is not a
//! region). In the text format REGION names may instead be indented under the one above
//! (Extra-P's `relearn_data.txt`): the parent is then the nearest region above indented less
//! (`text.rs` reads it). Names are kept as the file writes them, trimmed.
//!
//! What the values are, when the file does not say ([`TimeKind::Unknown`]): if some child
//! exceeds its parent beyond the noise at some point, they are exclusive (each region's own
//! time). If every child is within its parent everywhere, they are inclusive only when some
//! parent's children also make up at least [`HELD_AT_LEAST`] of it at every point they share,
//! as a `main` holding them does; otherwise exclusive, Extra-P's own default for Score-P data
//! (its Cube reader takes exclusive values unless told). A child below its parent alone is
//! weak evidence: independent exclusive times put a child below a larger parent by chance,
//! and reading them as inclusive would cut the parent to the difference. "Beyond the noise"
//! is beyond max([`NOISE_FLOOR`], 2·s) of the parent's value, s the larger relative standard
//! deviation of the repetitions of the two points compared.
//!
//! Shares come from own (exclusive) time, so a parent is never added to its children: with
//! inclusive values a node's own time at a measured point is its median less its children's,
//! never below 0 (`own_points`), and that own series is what is fitted. share_i = own_i /
//! Σ own; a node's inclusive share is the sum of its subtree's own over Σ own.
//!
//! Real files are not always additive: where a parent's children add up to more than it beyond
//! the noise (inclusive values), own time cannot be read off. The nodes' inclusive series are
//! then fitted as given, and ranked by inclusive share of the top level, inclusive_i / Σ of
//! the top-level regions' inclusive time; the dominant region is found by descending from the
//! top-level region with the largest share to its largest child, while that child holds all
//! of its parent within the noise.
//!
//! A top level (a flat file's regions, or a tree's regions without a parent, when the values
//! are inclusive) of three or more regions in which one is at least the sum of the others,
//! within the noise, and at most [`HOLDS_AT_MOST`] times it, at every point they share (a
//! `main` that holds everything) has that one left out of the shares, and said so.

use std::collections::HashMap;

use super::region_fit::RegionFit;
use super::{Experiment, TimeKind};
use crate::model::fit::region::PointSummary;
use crate::model::{fmt_num, Warning};

/// The least relative difference read as beyond the noise (see the module's text).
pub const NOISE_FLOOR: f64 = 0.05;

/// Inclusive times are read from the data only when some parent's children make up at least
/// this share of it at every point (see the module's text).
pub const HELD_AT_LEAST: f64 = 0.9;

/// A top-level region held to hold the others is at most this many times their sum at every
/// point: the others make up most of it, as a `main` holding them would (a region merely far
/// larger than the rest, as Extra-P's `experiment_MP.txt` has, is not one).
pub const HOLDS_AT_MOST: f64 = 2.0;

/// How the regions were found to nest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Nesting {
    /// No region has a parent.
    Flat,
    /// Parents read from call paths joined with `->`.
    Callpaths,
    /// Parents read from REGION names indented under the one above (text format).
    Indentation,
}

/// Where the kind of times came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Decided {
    /// The file says (a Cube profile).
    File,
    /// From the data: whether children exceed their parents.
    Data,
    /// Nothing nests: each region's value is read as its own time.
    Default,
}

/// What the values are taken to be, and how that was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Times {
    /// Exclusive or inclusive (never unknown once decided).
    pub kind: TimeKind,
    pub decided: Decided,
}

/// A parent whose children add up to more than it beyond the noise, at the point where they
/// exceed it most.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NonAdditive {
    /// Indices into the ranking's regions.
    pub parent: usize,
    pub children: Vec<usize>,
    pub point: Vec<f64>,
    /// The parent's median there, and its children's summed.
    pub parent_s: f64,
    pub children_s: f64,
}

/// The tree over a ranking's regions and what it decided.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tree {
    pub nesting: Nesting,
    /// Each region's parent (an index into the regions), in the regions' order.
    pub parent: Vec<Option<usize>>,
    /// Each region's depth: 0 at the top.
    pub depth: Vec<usize>,
    pub times: Times,
    /// The top-level region held to hold everything, left out of the shares.
    pub left_out: Option<usize>,
    pub non_additive: Vec<NonAdditive>,
    /// Each region's largest relative spread of repetitions, for "within the noise".
    noise: Vec<f64>,
    children: Vec<Vec<usize>>,
    /// The regions deepest first (children before parents).
    order: Vec<usize>,
}

/// The shares at one point of every region given a time there (see [`Tree::shares`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    /// What the shares are of: Σ own time, or the top level's inclusive time, in seconds
    /// times `scale` (see [`Split::of`], [`Split::whole`]).
    pub total: f64,
    /// What the times were multiplied by before summing: 1, or 2^-65 where their sum passes
    /// f64's range (models that overflow at a far point; see [`sum_scale`]).
    pub scale: f64,
    /// The ranking's share: own, or inclusive when ranked by inclusive share.
    pub share: Vec<Option<f64>>,
    pub own: Vec<Option<f64>>,
    pub inclusive: Vec<Option<f64>>,
    pub dominant: Option<usize>,
}

impl Split {
    /// A time `x` (seconds) as a fraction of the total.
    pub fn of(&self, x: f64) -> f64 {
        x * self.scale / self.total
    }

    /// The total in seconds, at most the largest finite number.
    pub fn whole(&self) -> f64 {
        (self.total / self.scale).min(f64::MAX)
    }
}

/// 1 where `sum`, of numbers each at most f64::MAX, is finite; otherwise 2^-65, which brings
/// any sum of up to 2^64 such numbers below f64::MAX/2. Scaling by it is exact (save numbers
/// that become subnormal), so ratios of the scaled sums are the true ones.
pub fn sum_scale(sum: f64) -> f64 {
    if sum.is_finite() {
        1.0
    } else {
        1.0 / 36_893_488_147_419_103_232.0
    }
}

fn tolerance(a: f64, b: f64) -> f64 {
    NOISE_FLOOR.max(2.0 * a.max(b))
}

fn bits(coords: &[f64]) -> Vec<u64> {
    coords.iter().map(|c| (c + 0.0).to_bits()).collect()
}

fn point_text(parameters: &[String], coords: &[f64]) -> String {
    let parts: Vec<String> = parameters.iter().zip(coords).map(|(p, c)| format!("{p} = {}", fmt_num(*c, 6))).collect();
    parts.join(", ")
}

/// Each region's parent: by indentation when the file nests so, else by call path.
fn parents(e: &Experiment, regions: &[RegionFit]) -> (Nesting, Vec<Option<usize>>) {
    let index: HashMap<&str, usize> = regions.iter().enumerate().rev().map(|(i, r)| (r.callpath.as_str(), i)).collect();
    let indented: HashMap<&str, &str> =
        e.series.iter().filter_map(|s| Some((s.callpath.as_str(), s.parent.as_deref()?))).collect();
    let mut parent = vec![None; regions.len()];
    if !indented.is_empty() {
        for (i, r) in regions.iter().enumerate() {
            // The nearest ancestor that is a region of the metric ranked.
            let mut at = indented.get(r.callpath.as_str()).copied();
            for _ in 0..=regions.len() {
                match at {
                    Some(p) if index.contains_key(p) => break,
                    Some(p) => at = indented.get(p).copied(),
                    None => break,
                }
            }
            parent[i] = at.and_then(|p| index.get(p).copied()).filter(|&p| p != i);
        }
        return (if parent.iter().any(Option::is_some) { Nesting::Indentation } else { Nesting::Flat }, parent);
    }
    for (i, r) in regions.iter().enumerate() {
        let path = r.callpath.as_str();
        parent[i] = path.rmatch_indices("->").filter_map(|(at, _)| index.get(&path[..at]).copied()).find(|&p| p != i);
    }
    (if parent.iter().any(Option::is_some) { Nesting::Callpaths } else { Nesting::Flat }, parent)
}

/// Cuts any cycle (repeated names nested in each other) and gives each region its depth and
/// the regions deepest first; time in proportion to the regions.
fn acyclic(parent: &mut [Option<usize>]) -> (Vec<usize>, Vec<usize>) {
    const NEW: usize = usize::MAX;
    let mut depth = vec![NEW; parent.len()];
    let mut walk = Vec::new();
    for i in 0..parent.len() {
        let mut at = i;
        // Up to a region whose depth is known, or to the top.
        while depth[at] == NEW {
            depth[at] = NEW - 1;
            walk.push(at);
            match parent[at] {
                Some(p) if depth[p] == NEW - 1 => {
                    parent[at] = None;
                    break;
                }
                Some(p) => at = p,
                None => break,
            }
        }
        while let Some(j) = walk.pop() {
            depth[j] = parent[j].map_or(0, |p| if depth[p] >= NEW - 1 { 0 } else { depth[p] + 1 });
        }
    }
    let mut order: Vec<usize> = (0..parent.len()).collect();
    order.sort_by(|&a, &b| depth[b].cmp(&depth[a]));
    (depth, order)
}

/// A region's points by their coordinates.
fn by_point(r: &RegionFit) -> HashMap<Vec<u64>, &PointSummary> {
    r.points.iter().map(|p| (bits(&p.coords), p)).collect()
}

impl Tree {
    /// The tree of the plan's regions (unfitted) of experiment `e`, what its values are and
    /// what that implies, with a warning (path `INPUT`) for each thing decided.
    pub fn build(e: &Experiment, regions: &[RegionFit], warnings: &mut Vec<Warning>) -> Tree {
        let (nesting, mut parent) = parents(e, regions);
        let (depth, order) = acyclic(&mut parent);
        let mut children = vec![Vec::new(); regions.len()];
        for (i, p) in parent.iter().enumerate() {
            if let Some(p) = *p {
                children[p].push(i);
            }
        }
        let noise = regions.iter().map(|r| r.points.iter().map(|p| p.noise).fold(0.0, f64::max)).collect();
        let times = Times { kind: TimeKind::Exclusive, decided: Decided::Default };
        let mut t =
            Tree { nesting, parent, depth, times, left_out: None, non_additive: Vec::new(), noise, children, order };
        if nesting == Nesting::Indentation {
            warnings.push(Warning::at(super::INPUT, "the REGION names are indented: read as nesting, each region inside the nearest one above indented less"));
        }
        t.decide(e, regions, warnings);
        if t.times.kind == TimeKind::Inclusive {
            t.find_non_additive(e, regions, warnings);
        }
        if nesting == Nesting::Flat || t.times.kind == TimeKind::Inclusive {
            t.find_left_out(regions, warnings);
        }
        if t.own_times() {
            warnings.push(Warning::at(super::INPUT, "each region's own time is its time less its children's (never below 0): that is what is fitted and ranked"));
        }
        t
    }

    /// Ranked by inclusive share (inclusive values whose children exceed their parent).
    pub fn by_inclusive(&self) -> bool {
        self.times.kind == TimeKind::Inclusive && !self.non_additive.is_empty()
    }

    /// Regions with a parent and inclusive values that add up: fit each one's own time.
    pub fn own_times(&self) -> bool {
        self.times.kind == TimeKind::Inclusive && self.non_additive.is_empty() && self.nesting != Nesting::Flat
    }

    pub fn children(&self, i: usize) -> &[usize] {
        self.children.get(i).map_or(&[], Vec::as_slice)
    }

    /// Exclusive or inclusive, from the file or from the data.
    fn decide(&mut self, e: &Experiment, regions: &[RegionFit], warnings: &mut Vec<Warning>) {
        let say = |w: &mut Vec<Warning>, m: String| w.push(Warning::at(super::INPUT, m));
        match e.times {
            TimeKind::Exclusive | TimeKind::Inclusive => {
                self.times = Times { kind: e.times, decided: Decided::File };
                return;
            }
            TimeKind::Unknown if self.nesting == Nesting::Flat => return,
            TimeKind::Unknown => {}
        }
        for (p, kids) in self.children.iter().enumerate() {
            let at = by_point(&regions[p]);
            for &c in kids {
                for q in &regions[c].points {
                    let Some(pp) = at.get(&bits(&q.coords)) else { continue };
                    if q.median > pp.median * (1.0 + tolerance(q.noise, pp.noise)) {
                        self.times = Times { kind: TimeKind::Exclusive, decided: Decided::Data };
                        say(warnings, format!(
                            "times read as exclusive (each region's own): \"{}\" takes {} at {}, more than its parent \"{}\", {}, beyond the noise",
                            regions[c].callpath, fmt_num(q.median, 4), point_text(&e.parameters, &q.coords), regions[p].callpath, fmt_num(pp.median, 4)
                        ));
                        return;
                    }
                }
            }
        }
        if let Some(p) = self.held_parent(regions) {
            self.times = Times { kind: TimeKind::Inclusive, decided: Decided::Data };
            say(warnings, format!(
                "times read as inclusive: every region is within its parent at every point (within {} % or twice the repetitions' spread), and the children of \"{}\" make up at least {} % of it at every point",
                fmt_num(NOISE_FLOOR * 100.0, 3), regions[p].callpath, fmt_num(HELD_AT_LEAST * 100.0, 3)
            ));
        } else {
            self.times = Times { kind: TimeKind::Exclusive, decided: Decided::Data };
            say(warnings, format!(
                "times read as exclusive (each region's own): every region is within its parent, but no parent's children make up {} % of it at every point, as they would if it held them; a file of inclusive times can say so on a line \"{}inclusive\"",
                fmt_num(HELD_AT_LEAST * 100.0, 3), super::runs::TIMES_LINE
            ));
        }
    }

    /// The first parent whose children make up at least [`HELD_AT_LEAST`] of it at every
    /// point it shares with all of them (and at one point at least).
    fn held_parent(&self, regions: &[RegionFit]) -> Option<usize> {
        self.children.iter().enumerate().filter(|(_, k)| !k.is_empty()).find_map(|(p, kids)| {
            let mut shared = 0;
            for (q, at) in self.children_at(regions, p) {
                if at.len() < kids.len() {
                    continue;
                }
                shared += 1;
                if at.iter().map(|c| c.median).sum::<f64>() < HELD_AT_LEAST * q.median {
                    return None;
                }
            }
            (shared > 0).then_some(p)
        })
    }

    /// Each measured point of region `p` with the summaries of its children measured there.
    fn children_at<'a>(&self, regions: &'a [RegionFit], p: usize) -> Vec<(&'a PointSummary, Vec<&'a PointSummary>)> {
        let maps: Vec<_> = self.children(p).iter().map(|&c| by_point(&regions[c])).collect();
        regions[p]
            .points
            .iter()
            .map(|q| {
                let key = bits(&q.coords);
                (q, maps.iter().filter_map(|m| m.get(&key).copied()).collect())
            })
            .collect()
    }

    /// Parents whose children add up to more than them beyond the noise.
    fn find_non_additive(&mut self, e: &Experiment, regions: &[RegionFit], warnings: &mut Vec<Warning>) {
        for (p, kids) in self.children.iter().enumerate().filter(|(_, k)| !k.is_empty()) {
            let mut worst: Option<(f64, &PointSummary, f64)> = None;
            for (q, at) in self.children_at(regions, p) {
                let sum: f64 = at.iter().map(|c| c.median).sum();
                let noise = at.iter().map(|c| c.noise).fold(q.noise, f64::max);
                let ratio = sum / q.median;
                if sum > q.median * (1.0 + tolerance(noise, 0.0)) && worst.as_ref().is_none_or(|w| ratio > w.0) {
                    worst = Some((ratio, q, sum));
                }
            }
            if let Some((_, q, sum)) = worst {
                self.non_additive.push(NonAdditive {
                    parent: p,
                    children: kids.clone(),
                    point: q.coords.clone(),
                    parent_s: q.median,
                    children_s: sum,
                });
            }
        }
        if let Some(first) = self.non_additive.first() {
            let names: Vec<String> =
                self.non_additive.iter().map(|n| format!("\"{}\"", regions[n.parent].callpath)).collect();
            warnings.push(Warning::at(super::INPUT, format!(
                "the children of {} add up to more than their parent (e.g. \"{}\" at {}: {} against {}), so own time cannot be read off: regions ranked by their share of the top level's inclusive time, fitted as given",
                names.join(", "), regions[first.parent].callpath, point_text(&e.parameters, &first.point), fmt_num(first.children_s, 4), fmt_num(first.parent_s, 4)
            )));
        }
    }

    /// A top-level region at least the sum of the other top-level ones at every point.
    fn find_left_out(&mut self, regions: &[RegionFit], warnings: &mut Vec<Warning>) {
        let roots: Vec<usize> = (0..regions.len()).filter(|&i| self.parent[i].is_none()).collect();
        if roots.len() < 3 {
            return;
        }
        // At each point: the top level's summed medians, how many were measured there and
        // their largest spread (one pass, so a flat file of many regions takes linear time).
        let mut at: HashMap<Vec<u64>, (f64, usize, f64)> = HashMap::new();
        for &r in &roots {
            for q in &regions[r].points {
                let e = at.entry(bits(&q.coords)).or_insert((0.0, 0, 0.0));
                *e = (e.0 + q.median, e.1 + 1, e.2.max(q.noise));
            }
        }
        let holds = |k: usize| {
            let mut shared = 0;
            for q in &regions[roots[k]].points {
                let Some(&(all, count, noise)) = at.get(&bits(&q.coords)) else { continue };
                if count < roots.len() {
                    continue;
                }
                let sum = all - q.median;
                if q.median < sum * (1.0 - tolerance(noise, 0.0)) || q.median > HOLDS_AT_MOST * sum {
                    return false;
                }
                shared += 1;
            }
            shared > 0
        };
        if let Some(k) = (0..roots.len()).find(|&k| holds(k)) {
            self.left_out = Some(roots[k]);
            warnings.push(Warning::at(super::INPUT, format!(
                "\"{}\" takes at least as long as the other {} top-level regions together at every point: read as holding them, and left out of the shares",
                regions[roots[k]].callpath, roots.len() - 1
            )));
        }
    }

    /// Each parent's own series, when the values are inclusive and add up: (the index of the
    /// point, its median less the children's) at each point where every child was measured,
    /// never below 0. None for a region whose points stay as they are.
    pub fn own_series(&self, regions: &[RegionFit]) -> Vec<Option<Vec<(usize, f64)>>> {
        let mut out = vec![None; regions.len()];
        if !self.own_times() {
            return out;
        }
        for (p, kids) in self.children.iter().enumerate().filter(|(_, k)| !k.is_empty()) {
            let maps: Vec<_> = kids.iter().map(|&c| by_point(&regions[c])).collect();
            let own = regions[p]
                .points
                .iter()
                .enumerate()
                .filter_map(|(k, q)| {
                    let key = bits(&q.coords);
                    let kids: Option<Vec<f64>> = maps.iter().map(|m| m.get(&key).map(|c| c.median)).collect();
                    Some((k, (q.median - kids?.iter().sum::<f64>()).max(0.0)))
                })
                .collect();
            out[p] = Some(own);
        }
        out
    }

    /// The shares at one point, `t` each region's fitted time there (None: no prediction).
    /// None when the shares' total is not above 0.
    pub fn shares(&self, t: &[Option<f64>]) -> Option<Split> {
        let n = t.len().min(self.parent.len());
        // Times whose sum passes f64's range are scaled down first (see `sum_scale`; times
        // times 1 keep their bits).
        let scale = sum_scale(t.iter().flatten().sum());
        let counted = |i: usize| if Some(i) == self.left_out { None } else { t[i].map(|x| x * scale) };
        let mut split =
            if self.by_inclusive() { self.inclusive_split(&counted, n)? } else { self.own_split(&counted, n)? };
        split.scale = scale;
        Some(split)
    }

    /// [`Tree::shares`] by own time, `counted` each region's time counted (None: none).
    fn own_split(&self, counted: &dyn Fn(usize) -> Option<f64>, n: usize) -> Option<Split> {
        // The subtree sums, children before parents.
        let mut sub = vec![0.0; n];
        for &i in self.order.iter().filter(|&&i| i < n) {
            sub[i] += counted(i).unwrap_or(0.0);
            if let Some(p) = self.parent[i].filter(|&p| p < n) {
                let s = sub[i];
                sub[p] += s;
            }
        }
        let total: f64 = (0..n).filter_map(counted).sum();
        if total.is_nan() || total <= 0.0 {
            return None;
        }
        let share: Vec<Option<f64>> = (0..n).map(|i| counted(i).map(|x| x / total)).collect();
        let inclusive = (0..n).map(|i| counted(i).map(|_| sub[i] / total)).collect();
        let mut dominant: Option<usize> = None;
        for i in 0..n {
            if share[i].is_some_and(|s| dominant.is_none_or(|d| s > share[d].unwrap_or(f64::NEG_INFINITY))) {
                dominant = Some(i);
            }
        }
        Some(Split { total, scale: 1.0, own: share.clone(), share, inclusive, dominant })
    }

    /// [`Tree::shares`] when ranked by inclusive share of the top level. A top-level region
    /// takes at least as long as any region nested in it: where a model puts one of them above
    /// it (children that add up to more than their parent are fitted apart), or where it has no
    /// time of its own to count (left out, or not modelled) while regions nested in it have,
    /// the longest of its subtree stands for it in the total, so no share passes 1.
    fn inclusive_split(&self, counted: &dyn Fn(usize) -> Option<f64>, n: usize) -> Option<Split> {
        let roots: Vec<usize> = (0..n).filter(|&i| self.parent[i].is_none() && counted(i).is_some()).collect();
        // The longest time in each subtree, children before parents.
        let mut longest: Vec<f64> = (0..n).map(|i| counted(i).unwrap_or(0.0)).collect();
        for &i in self.order.iter().filter(|&&i| i < n) {
            if let Some(p) = self.parent[i].filter(|&p| p < n) {
                longest[p] = longest[p].max(longest[i]);
            }
        }
        let total: f64 = (0..n).filter(|&i| self.parent[i].is_none()).map(|i| longest[i]).sum();
        if total.is_nan() || total <= 0.0 {
            return None;
        }
        let share: Vec<Option<f64>> = (0..n).map(|i| counted(i).map(|x| x / total)).collect();
        let own = (0..n)
            .map(|i| {
                let kids: f64 = self.children(i).iter().filter_map(|&c| counted(c)).sum();
                counted(i).map(|x| (x - kids).max(0.0) / total)
            })
            .collect();
        let largest = |ids: &mut dyn Iterator<Item = usize>| {
            ids.filter(|&i| share[i].is_some())
                .max_by(|&a, &b| share[a].unwrap_or(0.0).total_cmp(&share[b].unwrap_or(0.0)))
        };
        let mut at = largest(&mut roots.iter().copied());
        while let Some(p) = at {
            let Some(c) = largest(&mut self.children(p).iter().copied()) else { break };
            let (tp, tc) = (share[p].unwrap_or(0.0), share[c].unwrap_or(0.0));
            if tc < tp * (1.0 - tolerance(self.noise[p], self.noise[c])) {
                break;
            }
            at = Some(c);
        }
        Some(Split { total, scale: 1.0, inclusive: share.clone(), share, own, dominant: at })
    }
}

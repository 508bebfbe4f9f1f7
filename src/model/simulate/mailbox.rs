//! What a process of the engine keeps per peer: the messages addressed to it and not yet
//! matched, its posted receives ([`PeerList`]), and the last arrival on each channel it sends
//! on ([`Channels`]). The engine's rules (seed 001, section 5; spec "The virtual machine")
//! need, per message, "the first item from this peer, in order": a scan does that for short
//! lists, and a process that talks to many peers (an all-to-all of 1,000 processes holds
//! about 1,000 of each) gets an index by peer, so a message costs O(1) instead of O(peers).
//! The answers are those of the plain ordered lists they replace, item for item.

/// No item; an item taken out.
const NONE: u32 = u32::MAX;
/// Lists up to this long are scanned; a longer one gets an index by peer until it empties.
const SCAN: usize = 16;
/// A list that empties keeps its memory up to this many items (a few peers' traffic, reused
/// at once); a longer one gives it back.
const KEEP: usize = 4 * SCAN;

#[derive(Debug, Clone, Copy)]
struct Item<T> {
    /// [`NONE`] once taken (only while indexed; a scanned list removes its items).
    peer: u32,
    /// The next item of the same peer ([`NONE`]: the last one), while indexed.
    next: u32,
    val: T,
}

/// Items in the order they were put in, each with its peer, taken out by peer (the first of
/// that peer) or by least key (the first of the least).
#[derive(Debug, Clone)]
pub struct PeerList<T> {
    items: Vec<Item<T>>,
    live: usize,
    /// Per peer, its first and last item: empty until the list first holds more than
    /// [`SCAN`] items. Taken items stay in `items` as gaps until they outnumber the rest.
    index: Vec<(u32, u32)>,
    peers: u32,
}

impl<T: Copy> PeerList<T> {
    /// A list whose peers are below `peers`.
    pub fn new(peers: u32) -> Self {
        PeerList { items: Vec::new(), live: 0, index: Vec::new(), peers }
    }

    pub fn len(&self) -> usize {
        self.live
    }

    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// The items in order, with their peers.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &T)> {
        self.items.iter().filter(|it| it.peer != NONE).map(|it| (it.peer, &it.val))
    }

    #[inline(always)]
    pub fn push(&mut self, peer: u32, val: T) {
        let i = self.items.len() as u32;
        self.items.push(Item { peer, next: NONE, val });
        self.live += 1;
        if !self.index.is_empty() {
            self.link(i);
        } else if self.items.len() > SCAN {
            self.build_index();
        }
    }

    /// Takes the first item of `peer`.
    #[inline(always)]
    pub fn take(&mut self, peer: u32) -> Option<T> {
        if self.index.is_empty() {
            let i = self.items.iter().position(|it| it.peer == peer)?;
            return self.remove_scanned(i);
        }
        let e = self.index.get_mut(peer as usize)?;
        let i = e.0;
        let it = *self.items.get(i as usize)?;
        e.0 = it.next;
        if it.next == NONE {
            e.1 = NONE;
        }
        self.remove_indexed(i as usize)
    }

    /// Takes the first item with the least `key` (by `f64::total_cmp`).
    pub fn take_least(&mut self, key: impl Fn(&T) -> f64) -> Option<(u32, T)> {
        let (i, peer) = self
            .items
            .iter()
            .enumerate()
            .filter(|(_, it)| it.peer != NONE)
            .min_by(|a, b| key(&a.1.val).total_cmp(&key(&b.1.val)))
            .map(|(i, it)| (i, it.peer))?;
        if self.index.is_empty() {
            return self.remove_scanned(i).map(|v| (peer, v));
        }
        // Unlinked from its peer's chain (the first of its peer whenever keys grow along a
        // chain, as arrivals on a channel do).
        let e = self.index.get_mut(peer as usize)?;
        if e.0 as usize == i {
            let next = self.items.get(i).map_or(NONE, |it| it.next);
            e.0 = next;
            if next == NONE {
                e.1 = NONE;
            }
        } else {
            let mut j = e.0 as usize;
            let last = e.1 as usize;
            while let Some(&Item { next, .. }) = self.items.get(j) {
                if next as usize == i {
                    let after = self.items.get(i).map_or(NONE, |it| it.next);
                    if let Some(prev) = self.items.get_mut(j) {
                        prev.next = after;
                    }
                    if last == i {
                        if let Some(e) = self.index.get_mut(peer as usize) {
                            e.1 = j as u32;
                        }
                    }
                    break;
                }
                j = next as usize;
            }
        }
        self.remove_indexed(i).map(|v| (peer, v))
    }

    fn remove_scanned(&mut self, i: usize) -> Option<T> {
        // The last one (often the only one) without moving the others.
        let it = if i + 1 == self.items.len() { self.items.pop()? } else { self.items.remove(i) };
        self.live -= 1;
        Some(it.val)
    }

    #[inline(always)]
    fn remove_indexed(&mut self, i: usize) -> Option<T> {
        let it = self.items.get_mut(i)?;
        it.peer = NONE;
        let val = it.val;
        self.live -= 1;
        if self.live == 0 {
            if self.items.capacity() > KEEP {
                // A long list (an all-to-all's) gives its memory back when it empties, index
                // too: kept, every process's lists would stay at their longest for the whole
                // run (twice the peak in a loop of all-to-alls, and slower for it).
                self.items = Vec::new();
                self.index = Vec::new();
            } else {
                // Every peer's chain is empty: the index needs no change.
                self.items.clear();
            }
        } else if self.items.len() - self.live > self.live.max(SCAN) {
            self.compact();
        }
        Some(val)
    }

    /// Drops the gaps, in order (O(items), after at least as many removals).
    fn compact(&mut self) {
        self.items.retain(|it| it.peer != NONE);
        for it in &self.items {
            if let Some(e) = self.index.get_mut(it.peer as usize) {
                *e = (NONE, NONE);
            }
        }
        for i in 0..self.items.len() {
            self.link(i as u32);
        }
    }

    fn build_index(&mut self) {
        self.index = vec![(NONE, NONE); self.peers as usize];
        for i in 0..self.items.len() {
            self.link(i as u32);
        }
    }

    /// Appends item `i` to its peer's chain.
    #[inline(always)]
    fn link(&mut self, i: u32) {
        let Some(it) = self.items.get_mut(i as usize) else { return };
        it.next = NONE;
        let peer = it.peer as usize;
        let Some(e) = self.index.get_mut(peer) else { return };
        if e.0 == NONE {
            *e = (i, i);
        } else {
            let last = e.1;
            e.1 = i;
            if let Some(prev) = self.items.get_mut(last as usize) {
                prev.next = i;
            }
        }
    }
}

/// The last arrival on each channel a process sends on, by receiver: a scanned list for a few
/// receivers, one slot per process past [`SCAN`].
#[derive(Debug, Clone)]
pub struct Channels {
    few: Vec<(u32, f64)>,
    all: Vec<f64>,
    peers: u32,
}

impl Channels {
    /// Channels to receivers below `peers`.
    pub fn new(peers: u32) -> Self {
        Channels { few: Vec::new(), all: Vec::new(), peers }
    }

    /// The arrival of a message to `dst` that would arrive at `arrival`: never before the
    /// last one sent to `dst` (MPI's non-overtaking rule); it becomes the channel's last.
    #[inline(always)]
    pub fn not_before(&mut self, dst: u32, arrival: f64) -> f64 {
        let mut arrival = arrival;
        if let Some(last) = self.all.get_mut(dst as usize) {
            if *last > arrival {
                arrival = *last;
            }
            *last = arrival;
            return arrival;
        }
        match self.few.iter_mut().find(|(d, _)| *d == dst) {
            Some((_, last)) => {
                if *last > arrival {
                    arrival = *last;
                }
                *last = arrival;
            }
            None => {
                self.few.push((dst, arrival));
                if self.few.len() > SCAN {
                    // No message yet: no bound (−∞ is below every arrival, NaN included:
                    // `−∞ > x` is false).
                    self.all = vec![f64::NEG_INFINITY; self.peers as usize];
                    for (d, a) in self.few.drain(..) {
                        if let Some(slot) = self.all.get_mut(d as usize) {
                            *slot = a;
                        }
                    }
                }
            }
        }
        arrival
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The plain list the engine used: first of a peer by scan, removed in place.
    fn plain_take(list: &mut Vec<(u32, u64)>, peer: u32) -> Option<u64> {
        let i = list.iter().position(|m| m.0 == peer)?;
        Some(list.remove(i).1)
    }

    proptest! {
        /// Pushes, takes by peer and takes of the least key, against the plain list, with few
        /// peers (scanned, long chains) and many (indexed, gaps, compaction).
        #[test]
        fn peer_list_answers_as_the_plain_list(
            peers in 1u32..60,
            ops in prop::collection::vec((0u8..4, 0u32..60, 0u64..50), 1..600),
        ) {
            let mut list = PeerList::new(peers);
            let mut plain: Vec<(u32, u64)> = Vec::new();
            for (what, peer, key) in ops {
                let peer = peer % peers;
                match what {
                    0 | 1 => {
                        list.push(peer, key);
                        plain.push((peer, key));
                    }
                    2 => prop_assert_eq!(list.take(peer), plain_take(&mut plain, peer)),
                    _ => {
                        let want = plain.iter().enumerate().min_by(|a, b| (a.1 .1 as f64).total_cmp(&(b.1 .1 as f64))).map(|(i, _)| i);
                        let want = want.map(|i| plain.remove(i));
                        prop_assert_eq!(list.take_least(|&k| k as f64), want);
                    }
                }
                prop_assert_eq!(list.len(), plain.len());
                let got: Vec<(u32, u64)> = list.iter().map(|(p, &k)| (p, k)).collect();
                prop_assert_eq!(&got, &plain);
            }
        }

        #[test]
        fn channels_keep_the_last_arrival_per_receiver(
            peers in 1u32..60,
            sends in prop::collection::vec((0u32..60, 0u32..100), 1..400),
        ) {
            let mut ch = Channels::new(peers);
            let mut plain: Vec<(u32, f64)> = Vec::new();
            for (dst, t) in sends {
                let (dst, t) = (dst % peers, t as f64);
                let want = match plain.iter_mut().find(|(d, _)| *d == dst) {
                    Some((_, last)) => {
                        let a = if *last > t { *last } else { t };
                        *last = a;
                        a
                    }
                    None => {
                        plain.push((dst, t));
                        t
                    }
                };
                prop_assert_eq!(ch.not_before(dst, t), want);
            }
        }
    }
}

//! Memoised counting: the table of sub-problem counts (the idea of Knuth's DLX6). The search
//! that fills it is [`Solver::count_memo`](crate::engine::Solver::count_memo); whether a count
//! uses it is the plan's choice (the front door, `engine::run`).
//!
//! Two nodes of a search at which the same items are still uncovered, and the same secondary
//! items carry the same colours, have the same options left and so the same number of
//! completions. The counting search describes each
//! node by a [`key`](Memo) of fixed length: one bit per item that is still open (a primary
//! item not yet covered, a secondary item not yet covered whose list is not empty), then, on
//! coloured problems, the colour each secondary item was purified to (0 for none). When a node's
//! subtree has been searched its count is stored under its key; a later node with the same key
//! adds the stored count instead of searching again.
//!
//! The table is exact: a 64-bit hash finds the slot, and the whole key is compared before a
//! count is used. Its memory is bounded: it grows by doubling up to its budget, and when it
//! is full a new entry replaces the one at the end of its probe sequence (the table forgets,
//! it never fails). Counts are `u128`.

/// The memory budget of a memo when none is given: 256 MiB.
pub const DEFAULT_MEMO_BYTES: u64 = 256 << 20;

/// Slots probed for a key before the table gives up (lookup) or replaces (store).
const PROBES: usize = 16;

/// Slots of a new table (grown by doubling).
const INITIAL_SLOTS: usize = 1 << 10;

/// The memo table. Keys are `words` u64 words each, stored flat.
pub struct Memo {
    words: usize,
    /// `tags[s]`: the hash of the key in slot `s` with its low bit set, 0 for an empty slot.
    tags: Vec<u64>,
    keys: Vec<u64>,
    counts: Vec<u128>,
    /// Nodes the stored count cost to compute (what a hit saves).
    costs: Vec<u64>,
    used: usize,
    max_slots: usize,
    stats: MemoStats,
}

/// What a memo table did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MemoStats {
    /// Lookups that found their key.
    pub hits: u64,
    /// Counts stored.
    pub stores: u64,
    /// Stored counts replaced to make room (the table was full).
    pub evictions: u64,
    /// Nodes the hits did not have to search again (the stored counts' cost: the nodes of
    /// their subtrees as the search without the table would visit them, as far as a u64
    /// holds them).
    pub nodes_saved: u64,
    /// Bytes of the table at its largest.
    pub bytes: u64,
}

impl std::ops::AddAssign for MemoStats {
    /// The work of several tables (one per thread): every figure adds up, bytes included.
    fn add_assign(&mut self, other: MemoStats) {
        self.hits += other.hits;
        self.stores += other.stores;
        self.evictions += other.evictions;
        self.nodes_saved += other.nodes_saved;
        self.bytes += other.bytes;
    }
}

impl Memo {
    /// A table for keys of `words` u64 words that uses at most about `max_bytes` bytes.
    pub fn new(words: usize, max_bytes: u64) -> Memo {
        Memo::starting_with(words, max_bytes, INITIAL_SLOTS)
    }

    /// [`Memo::new`] with `slots` slots to start with (a power of two).
    fn starting_with(words: usize, max_bytes: u64, slots: usize) -> Memo {
        let mut memo = Memo {
            words,
            tags: Vec::new(),
            keys: Vec::new(),
            counts: Vec::new(),
            costs: Vec::new(),
            used: 0,
            max_slots: Self::slots_within(words, max_bytes),
            stats: MemoStats::default(),
        };
        memo.resize(slots.min(memo.max_slots));
        memo
    }

    /// Lets the table grow up to about `max_bytes` from now on (a probe's small table kept for
    /// the count that follows); a budget below its present size only stops its growth.
    pub fn set_max_bytes(&mut self, max_bytes: u64) {
        self.max_slots = Self::slots_within(self.words, max_bytes).max(self.slots());
    }

    /// Bounds the table to about `max_bytes` from now on, shrinking it if it is larger: a
    /// smaller table keeps what fits, the entries of least cost forgotten first (a table
    /// forgets, it never fails). The portfolio's tables take back this way the memory a
    /// search took while it led.
    pub(crate) fn bound_to(&mut self, max_bytes: u64) {
        self.max_slots = Self::slots_within(self.words, max_bytes);
        if self.slots() > self.max_slots {
            self.resize(self.max_slots);
        }
    }

    /// The bytes of the table now (its slots; [`MemoStats::bytes`] is its largest so far).
    pub(crate) fn bytes(&self) -> u64 {
        self.slots() as u64 * Self::slot_bytes(self.words)
    }

    /// The largest power of two of slots of `words`-word keys within `max_bytes` (at least
    /// one probe sequence).
    fn slots_within(words: usize, max_bytes: u64) -> usize {
        let fit = (max_bytes / Self::slot_bytes(words)).max(1);
        (1usize << (usize::BITS - 1 - (fit.min(1 << 40) as usize).leading_zeros())).max(PROBES)
    }

    fn slot_bytes(words: usize) -> u64 {
        (8 + 16 + 8 + 8 * words) as u64
    }

    /// The key length in words.
    pub fn words(&self) -> usize {
        self.words
    }

    /// What the table did so far.
    pub fn stats(&self) -> MemoStats {
        self.stats
    }

    fn slots(&self) -> usize {
        self.tags.len()
    }

    /// Rebuilds the table with `slots` slots (a power of two), keeping what fits. If the
    /// memory cannot be had, the table stays as it is.
    fn resize(&mut self, slots: usize) {
        let mut tags = Vec::new();
        let mut keys = Vec::new();
        let mut counts = Vec::new();
        let mut costs = Vec::new();
        if tags.try_reserve_exact(slots).is_err()
            || keys.try_reserve_exact(slots * self.words).is_err()
            || counts.try_reserve_exact(slots).is_err()
            || costs.try_reserve_exact(slots).is_err()
        {
            self.max_slots = self.slots().max(PROBES);
            return;
        }
        tags.resize(slots, 0);
        keys.resize(slots * self.words, 0);
        counts.resize(slots, 0);
        costs.resize(slots, 0);
        let old = Memo {
            words: self.words,
            tags: std::mem::replace(&mut self.tags, tags),
            keys: std::mem::replace(&mut self.keys, keys),
            counts: std::mem::replace(&mut self.counts, counts),
            costs: std::mem::replace(&mut self.costs, costs),
            used: 0,
            max_slots: 0,
            stats: MemoStats::default(),
        };
        self.used = 0;
        for s in 0..old.slots() {
            if old.tags[s] != 0 {
                let key = &old.keys[s * self.words..(s + 1) * self.words];
                self.place(old.tags[s], key, old.counts[s], old.costs[s], true);
            }
        }
        let bytes = slots as u64 * Self::slot_bytes(self.words);
        self.stats.bytes = self.stats.bytes.max(bytes);
    }

    /// The hash of a key, with its low bit set (so that no tag is 0).
    pub fn hash(key: &[u64]) -> u64 {
        let mut h = 0x9e37_79b9_7f4a_7c15u64;
        for &w in key {
            h = (h ^ w).wrapping_mul(0xff51_afd7_ed55_8ccd).rotate_left(29);
        }
        (h ^ (h >> 32)) | 1
    }

    fn key_at(&self, slot: usize) -> &[u64] {
        &self.keys[slot * self.words..(slot + 1) * self.words]
    }

    /// The count stored for `key` (whose [`Memo::hash`] is `tag`), if any.
    #[inline]
    pub fn get(&mut self, tag: u64, key: &[u64]) -> Option<u128> {
        let mask = self.slots() - 1;
        let mut s = (tag >> 7) as usize & mask;
        for _ in 0..PROBES {
            let t = self.tags[s];
            if t == 0 {
                return None;
            }
            if t == tag && self.key_at(s) == key {
                self.stats.hits += 1;
                self.stats.nodes_saved = self.stats.nodes_saved.saturating_add(self.costs[s]);
                return Some(self.counts[s]);
            }
            s = (s + 1) & mask;
        }
        None
    }

    /// Stores the count of `key`'s sub-problem, whose `cost` is the nodes a hit on it spares
    /// (the search without the table's nodes below it).
    pub fn store(&mut self, tag: u64, key: &[u64], count: u128, cost: u64) {
        if 2 * (self.used + 1) > self.slots() && self.slots() < self.max_slots {
            self.resize(self.slots() * 2);
        }
        self.stats.stores += 1;
        // A full probe sequence grows the table while it may grow; then an entry is replaced.
        while !self.place(tag, key, count, cost, false) {
            if self.slots() >= self.max_slots {
                self.place(tag, key, count, cost, true);
                self.stats.evictions += 1;
                return;
            }
            self.resize(self.slots() * 2);
        }
    }

    /// Puts an entry in the first empty slot of its probe sequence (or the slot holding its
    /// key). When every slot of the sequence is taken, `replace` puts it in place of the
    /// entry of the sequence that spares the fewest nodes (the cheapest to find again);
    /// otherwise nothing is stored and the answer is false.
    fn place(&mut self, tag: u64, key: &[u64], count: u128, cost: u64, replace: bool) -> bool {
        let mask = self.slots() - 1;
        let start = (tag >> 7) as usize & mask;
        let mut s = start;
        let mut cheapest = start;
        for i in 0..PROBES {
            if self.tags[s] == 0 {
                self.used += 1;
                break;
            }
            if self.tags[s] == tag && self.key_at(s) == key {
                break;
            }
            if self.costs[s] < self.costs[cheapest] {
                cheapest = s;
            }
            if i == PROBES - 1 {
                if !replace {
                    return false;
                }
                s = cheapest;
                break;
            }
            s = (s + 1) & mask;
        }
        self.tags[s] = tag;
        self.keys[s * self.words..(s + 1) * self.words].copy_from_slice(key);
        self.counts[s] = count;
        self.costs[s] = cost;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys that share a hash are told apart by the key itself, and a full table replaces
    /// entries instead of failing.
    #[test]
    fn colliding_hashes_and_a_full_table_stay_exact() {
        let mut memo = Memo::new(2, 64 * Memo::slot_bytes(2));
        assert_eq!(memo.max_slots, 64);
        let tag = 0x1235;
        for i in 0..200u64 {
            memo.store(
                tag,
                &[i, i + 1],
                u128::from(i) * 1_000_000_000_000_000_000,
                i,
            );
        }
        assert!(memo.stats().evictions > 0);
        let mut found = 0;
        for i in 0..200u64 {
            if let Some(c) = memo.get(tag, &[i, i + 1]) {
                assert_eq!(c, u128::from(i) * 1_000_000_000_000_000_000);
                found += 1;
            }
        }
        assert!(found > 0 && found <= PROBES);
        assert_eq!(memo.get(tag, &[7, 7]), None);
        // Distinct hashes grow the table up to its budget, and every count comes back.
        let mut memo = Memo::new(1, 1 << 20);
        for i in 0..5000u64 {
            memo.store(Memo::hash(&[i]), &[i], u128::from(i), 1);
        }
        let back = (0..5000u64)
            .filter(|&i| memo.get(Memo::hash(&[i]), &[i]) == Some(u128::from(i)))
            .count();
        assert!(back > 4900, "{back}");
        assert!(memo.stats().bytes <= 1 << 20);
    }
}

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

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};

/// The memory budget of a memo when none is given: 256 MiB.
pub const DEFAULT_MEMO_BYTES: u64 = 256 << 20;

/// Slots probed for a key before the table gives up (lookup) or replaces (store).
const PROBES: usize = 16;

/// Slots of a new table (grown by doubling).
const INITIAL_SLOTS: usize = 1 << 10;

/// Slots of each stripe's table when a [`SharedMemo`] is made (grown by doubling): a short
/// count pays for what it allocates, and every page of a new table is a fault the first time
/// it is written (a few microseconds each where the system runs in a virtual machine). With a
/// sudoku's keys of 18 words, 16 slots a stripe would be 180 KB and 40 µs to make; 4 are
/// 45 KB and 18 µs.
const STRIPE_FIRST_SLOTS: usize = 4;

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
    /// Nodes the hits did not have to search again (the stored counts' cost).
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

    /// Stores the count of `key`'s sub-problem, found in `cost` nodes.
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
    /// entry of the sequence that cost the fewest nodes (the cheapest to find again);
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

/// Stripes of a [`SharedMemo`] (a power of two): each grows on its own, so that a growth
/// copies a sixty-fourth of the table.
const STRIPES: usize = 64;

/// The words of a slot of a [`SharedMemo`] before its key: the slot's *word of state* (the
/// sequence number and the cost, below), the tag, and the count's low and high halves.
const SLOT_HEAD: usize = 4;

/// Bits of the word of state that hold the cost (the low ones); the sequence number is above.
const COST_BITS: u32 = 40;
const COST_MASK: u64 = (1 << COST_BITS) - 1;
/// One step of the sequence number.
const SEQUENCE_STEP: u64 = 1 << COST_BITS;

/// Whether a slot whose word of state is `state` is being written (its sequence is odd).
fn being_written(state: u64) -> bool {
    (state >> COST_BITS) & 1 == 1
}

/// Whether the key words of `slot` are `key`.
fn holds_key(slot: &[AtomicU64], key: &[u64]) -> bool {
    slot[SLOT_HEAD..]
        .iter()
        .zip(key)
        .all(|(w, &k)| w.load(Ordering::Relaxed) == k)
}

/// The count stored in `slot` (its two halves).
fn count_of(slot: &[AtomicU64]) -> u128 {
    u128::from(slot[2].load(Ordering::Relaxed)) | u128::from(slot[3].load(Ordering::Relaxed)) << 64
}

/// The system's page of memory (the smallest; a larger one is written more than once).
const PAGE_BYTES: usize = 4096;

/// One table for the searches of a team, on one thread or several: a count one of them
/// stores is a hit for every other. Readers never wait and never write; a writer never
/// waits either.
///
/// # The data structure
///
/// [`STRIPES`] tables (each a [`Table`], chosen by the high bits of a key's hash; a table's
/// slot by lower ones, probed linearly as in [`Memo`]). A slot is `SLOT_HEAD + words` atomic
/// words: the *word of state*, the tag (the hash with its low bit set, 0 for an empty slot),
/// the count in two halves, the key. The word of state holds a sequence number (its high 24
/// bits) and the nodes the count cost (its low 40 bits, saturating: a cost only ranks entries
/// for replacement and adds up to `nodes_saved`).
///
/// * **Writing a slot** (a *seqlock*, one per slot): the writer moves the sequence from even
///   to odd with a compare-and-swap (if the slot is being written, or the swap fails, the
///   store is dropped: the table is a cache), writes the tag, count and key, and publishes
///   the slot with an even sequence and the new cost.
/// * **Reading a slot**: the reader reads the word of state, and when its sequence is even,
///   the tag, the key and the count; then the word of state again. The count is used only
///   when the key is the reader's and the word of state did not change: the whole entry was
///   written by one writer, so a count is a finished sub-problem's, exact. (A 24-bit sequence
///   comes back to the same value after 2^23 writes of one slot during one read, as in the
///   sequence counters of operating systems; a read lasts tens of nanoseconds.)
/// * **Growing a stripe**: the writer whose store finds the stripe over half full takes the
///   stripe's `growing` flag (a writer that finds it taken does not wait: it stores in the
///   old table), builds a table twice as large from the entries it reads consistently, and
///   publishes it. Stores made meanwhile in the old table are lost (a cache forgets).
/// * **The old tables** stay readable while a search may read them: every search is
///   *inside* ([`SharedMemo::enter`]) while it counts, and a table replaced while another
///   search is inside is freed when the last one leaves. Alone inside (a team on one
///   thread), the grower frees it at once.
///
/// Nothing is shared but the slots themselves (and a stripe's count of slots used): the
/// tallies of hits and stores are the searches' own ([`MemoStats`] added up by the caller).
pub struct SharedMemo {
    words: usize,
    stripes: Box<[Stripe]>,
    /// The most slots of one stripe's table (a power of two).
    max_slots: AtomicUsize,
    /// The searches inside, and the tables replaced while others were inside.
    inside: std::sync::Mutex<Inside>,
}

/// One stripe of a [`SharedMemo`]: its table, and what only writers touch, each on cache
/// lines of its own (a lookup reads `table` alone, and a store's count of slots used must not
/// take that line from the other cores).
struct Stripe {
    table: Lines<AtomicPtr<Table>>,
    writers: Lines<Writers>,
}

/// What only the writers of a stripe touch.
struct Writers {
    /// Slots filled (growth looks at it; a race may miss a few).
    used: AtomicUsize,
    /// Held by the search growing the stripe.
    growing: AtomicBool,
}

/// A value on cache lines of its own (two: the unit a core's prefetcher fetches).
#[repr(align(128))]
struct Lines<T>(T);

impl<T> std::ops::Deref for Lines<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The searches inside a [`SharedMemo`] and the tables they may still read.
#[derive(Default)]
struct Inside {
    searches: usize,
    /// Boxed as they were in their stripe: a reader may hold a reference to the box's
    /// contents.
    #[allow(clippy::vec_box)]
    retired: Vec<Box<Table>>,
}

/// A stripe's table: `slots` slots (a power of two) of `stride` words.
struct Table {
    slots: usize,
    stride: usize,
    cells: Box<[AtomicU64]>,
}

/// What one store did, for the storer's tallies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stored {
    /// In an empty slot, or over the same key.
    Placed,
    /// In place of another entry (the stripe was full).
    Replaced,
    /// Not at all: its slot was being written.
    Dropped,
}

impl Table {
    /// A table of `slots` zeroed slots, or `None` when the memory cannot be had.
    fn zeroed(slots: usize, stride: usize) -> Option<Box<Table>> {
        let words = slots.checked_mul(stride)?;
        let layout = std::alloc::Layout::array::<AtomicU64>(words).ok()?;
        // Zeroed memory is a table of empty slots: `AtomicU64` has the layout of `u64`, and 0
        // is an empty slot's every word. Each page is written here, by the search that
        // allocates: fresh pages of the system are zero but not yet there, and a page first
        // read maps the system's shared page of zeros, whose first write then flushes it from
        // every core's address cache (on two threads, half the count's time went there).
        let cells = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout) as *mut AtomicU64;
            if ptr.is_null() {
                return None;
            }
            for word in (0..words).step_by(PAGE_BYTES / 8) {
                std::ptr::write_volatile(ptr.add(word) as *mut u64, 0);
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, words))
        };
        Some(Box::new(Table {
            slots,
            stride,
            cells,
        }))
    }

    fn slot(&self, s: usize) -> &[AtomicU64] {
        &self.cells[s * self.stride..(s + 1) * self.stride]
    }

    fn bytes(&self) -> u64 {
        (self.cells.len() * 8) as u64
    }

    /// The entry of slot `s` if its key is `key` (`tag` its hash) and it was read whole:
    /// its count and cost.
    #[inline]
    fn read(&self, s: usize, tag: u64, key: &[u64]) -> Option<(u128, u64)> {
        let slot = self.slot(s);
        let state = slot[0].load(Ordering::Acquire);
        if being_written(state) || slot[1].load(Ordering::Relaxed) != tag {
            return None;
        }
        if !holds_key(slot, key) {
            return None;
        }
        let count = count_of(slot);
        std::sync::atomic::fence(Ordering::Acquire);
        (slot[0].load(Ordering::Relaxed) == state).then_some((count, state & COST_MASK))
    }

    /// Writes an entry in slot `s` unless another writer has it.
    fn write(&self, s: usize, tag: u64, key: &[u64], count: u128, cost: u64) -> bool {
        let slot = self.slot(s);
        let state = slot[0].load(Ordering::Relaxed);
        if being_written(state) {
            return false;
        }
        let busy = state.wrapping_add(SEQUENCE_STEP);
        if slot[0]
            .compare_exchange(state, busy, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return false;
        }
        std::sync::atomic::fence(Ordering::Release);
        slot[1].store(tag, Ordering::Relaxed);
        slot[2].store(count as u64, Ordering::Relaxed);
        slot[3].store((count >> 64) as u64, Ordering::Relaxed);
        for (w, &k) in slot[SLOT_HEAD..].iter().zip(key) {
            w.store(k, Ordering::Relaxed);
        }
        let done = (busy.wrapping_add(SEQUENCE_STEP) & !COST_MASK) | cost.min(COST_MASK);
        slot[0].store(done, Ordering::Release);
        true
    }

    /// The slot for an entry of `key` in its probe sequence, as [`Memo::place`] chooses it:
    /// the slot holding the key, or the first empty one (`true`: a slot newly filled), or,
    /// when every slot of the sequence is taken, `None` unless `replace` (then the entry of
    /// the sequence that cost the fewest nodes).
    fn place(&self, tag: u64, key: &[u64], replace: bool) -> Option<(usize, bool)> {
        let mask = self.slots - 1;
        let start = (tag >> 7) as usize & mask;
        let mut s = start;
        let (mut cheapest, mut least) = (start, u64::MAX);
        for _ in 0..PROBES {
            let slot = self.slot(s);
            let t = slot[1].load(Ordering::Relaxed);
            if t == 0 {
                return Some((s, true));
            }
            if t == tag && holds_key(slot, key) {
                return Some((s, false));
            }
            let cost = slot[0].load(Ordering::Relaxed) & COST_MASK;
            if cost < least {
                (cheapest, least) = (s, cost);
            }
            s = (s + 1) & mask;
        }
        replace.then_some((cheapest, false))
    }
}

impl SharedMemo {
    /// A table for keys of `words` words within about `max_bytes` bytes in all.
    pub fn new(words: usize, max_bytes: u64) -> SharedMemo {
        let stride = SLOT_HEAD + words;
        let max_slots = Memo::slots_within(words, max_bytes / STRIPES as u64);
        let first = STRIPE_FIRST_SLOTS.min(max_slots);
        let stripes = (0..STRIPES)
            .map(|_| Stripe {
                table: Lines(AtomicPtr::new(Box::into_raw(
                    Table::zeroed(first, stride).expect("a table of a few kilobytes"),
                ))),
                writers: Lines(Writers {
                    used: AtomicUsize::new(0),
                    growing: AtomicBool::new(false),
                }),
            })
            .collect();
        SharedMemo {
            words,
            stripes,
            max_slots: AtomicUsize::new(max_slots),
            inside: std::sync::Mutex::new(Inside::default()),
        }
    }

    /// Enters the table: its tables stay readable until the returned guard is dropped.
    pub fn enter(self: &Arc<Self>) -> SharedMemoReader {
        self.lock_inside().searches += 1;
        SharedMemoReader { memo: self.clone() }
    }

    fn lock_inside(&self) -> std::sync::MutexGuard<'_, Inside> {
        // A search that panicked while holding it left it whole (a count and a list).
        self.inside.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn stripe(&self, tag: u64) -> &Stripe {
        &self.stripes[(tag >> 58) as usize & (STRIPES - 1)]
    }

    /// The stripe's table.
    ///
    /// Safety: the caller is inside (holds a [`SharedMemoReader`]) while it uses the table.
    unsafe fn table(stripe: &Stripe) -> &Table {
        unsafe { &*stripe.table.load(Ordering::Acquire) }
    }

    /// Grows the stripe whose table is `old` to twice its slots, unless another search is
    /// growing it or has grown it. The caller is inside.
    fn grow(&self, stripe: &Stripe, old: &Table) {
        if stripe.writers.growing.swap(true, Ordering::Acquire) {
            return;
        }
        let current = stripe.table.load(Ordering::Acquire);
        if !std::ptr::eq(current, old) || old.slots >= self.max_slots.load(Ordering::Relaxed) {
            stripe.writers.growing.store(false, Ordering::Release);
            return;
        }
        let Some(new) = Table::zeroed(old.slots * 2, old.stride) else {
            // No memory: the tables grow no more.
            self.max_slots.store(old.slots, Ordering::Relaxed);
            stripe.writers.growing.store(false, Ordering::Release);
            return;
        };
        // The entries read whole, in the order of the old slots (as `Memo::resize`).
        let mut used = 0;
        let mut key = vec![0u64; self.words];
        for s in 0..old.slots {
            let slot = old.slot(s);
            let state = slot[0].load(Ordering::Acquire);
            let tag = slot[1].load(Ordering::Relaxed);
            if tag == 0 || being_written(state) {
                continue;
            }
            let count = count_of(slot);
            for (k, w) in key.iter_mut().zip(&slot[SLOT_HEAD..]) {
                *k = w.load(Ordering::Relaxed);
            }
            std::sync::atomic::fence(Ordering::Acquire);
            if slot[0].load(Ordering::Relaxed) != state {
                continue;
            }
            if let Some((t, fresh)) = new.place(tag, &key, true) {
                new.write(t, tag, &key, count, state & COST_MASK);
                used += usize::from(fresh);
            }
        }
        stripe.writers.used.store(used, Ordering::Relaxed);
        let old = stripe.table.swap(Box::into_raw(new), Ordering::AcqRel);
        stripe.writers.growing.store(false, Ordering::Release);
        // Safety: `old` came from `Box::into_raw` and left the stripe just now; only
        // searches inside may still read it, and it is freed when they have left.
        let old = unsafe { Box::from_raw(old) };
        let mut inside = self.lock_inside();
        if inside.searches <= 1 {
            drop(inside);
            drop(old);
        } else {
            inside.retired.push(old);
        }
    }

    /// Bytes of the tables now (they only grow: their largest).
    fn bytes(&self) -> u64 {
        // Safety: a table is freed only by a search that holds `inside` to decide it, after
        // it left its stripe: with `inside` held here, a table read from a stripe is not
        // freed before the lock is given back.
        let inside = self.lock_inside();
        let bytes = self
            .stripes
            .iter()
            .map(|s| unsafe { Self::table(s) }.bytes())
            .sum();
        drop(inside);
        bytes
    }

    /// The bytes of the tables at their largest ([`MemoStats::bytes`]; the other figures are
    /// the searches' own).
    pub fn stats(&self) -> MemoStats {
        MemoStats {
            bytes: self.bytes(),
            ..MemoStats::default()
        }
    }
}

impl Drop for SharedMemo {
    fn drop(&mut self) {
        for s in self.stripes.iter() {
            // Safety: every table came from `Box::into_raw`, and nothing reads it now.
            drop(unsafe { Box::from_raw(s.table.load(Ordering::Relaxed)) });
        }
    }
}

/// A search inside a [`SharedMemo`] ([`SharedMemo::enter`]): it reads and writes the table
/// through this guard.
pub struct SharedMemoReader {
    memo: Arc<SharedMemo>,
}

impl SharedMemoReader {
    /// As [`Memo::get`]: the count stored for `key` (whose [`Memo::hash`] is `tag`) and what
    /// it cost, if any.
    #[inline]
    pub fn get(&self, tag: u64, key: &[u64]) -> Option<(u128, u64)> {
        // Safety: `self` is inside.
        let table = unsafe { SharedMemo::table(self.memo.stripe(tag)) };
        let mask = table.slots - 1;
        let mut s = (tag >> 7) as usize & mask;
        for _ in 0..PROBES {
            if table.slot(s)[1].load(Ordering::Relaxed) == 0 {
                return None;
            }
            if let Some(found) = table.read(s, tag, key) {
                return Some(found);
            }
            s = (s + 1) & mask;
        }
        None
    }

    /// As [`Memo::store`]: stores the count of `key`'s sub-problem, found in `cost` nodes.
    pub fn store(&self, tag: u64, key: &[u64], count: u128, cost: u64) -> Stored {
        let memo = &*self.memo;
        let stripe = memo.stripe(tag);
        // Safety (every `table` below): `self` is inside.
        let mut table = unsafe { SharedMemo::table(stripe) };
        if 2 * (stripe.writers.used.load(Ordering::Relaxed) + 1) > table.slots
            && table.slots < memo.max_slots.load(Ordering::Relaxed)
        {
            memo.grow(stripe, table);
            table = unsafe { SharedMemo::table(stripe) };
        }
        // A full probe sequence grows the table while it may grow; then an entry is replaced.
        let (slot, fresh, replaced) = loop {
            if let Some((slot, fresh)) = table.place(tag, key, false) {
                break (slot, fresh, false);
            }
            if table.slots < memo.max_slots.load(Ordering::Relaxed) {
                memo.grow(stripe, table);
                let now = unsafe { SharedMemo::table(stripe) };
                if !std::ptr::eq(now, table) {
                    table = now;
                    continue;
                }
                // Another search is growing it: replace in this one.
            }
            let (slot, _) = table.place(tag, key, true).expect("a slot to replace");
            break (slot, false, true);
        };
        if !table.write(slot, tag, key, count, cost) {
            return Stored::Dropped;
        }
        if fresh {
            stripe.writers.used.fetch_add(1, Ordering::Relaxed);
        }
        if replaced {
            Stored::Replaced
        } else {
            Stored::Placed
        }
    }
}

impl Drop for SharedMemoReader {
    fn drop(&mut self) {
        let mut inside = self.memo.lock_inside();
        inside.searches -= 1;
        if inside.searches == 0 {
            let retired = std::mem::take(&mut inside.retired);
            drop(inside);
            drop(retired);
        }
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

    /// The shared table alone: it grows within its budget and keeps what it was given; and
    /// with writers on two threads (growing it, replacing entries) every count a reader
    /// finds is the one stored with its key.
    #[test]
    fn the_shared_table_is_exact_under_concurrent_writers() {
        let memo = Arc::new(SharedMemo::new(2, 1 << 20));
        let reader = memo.enter();
        for i in 0..5000u64 {
            let key = [i, !i];
            assert_eq!(
                reader.store(Memo::hash(&key), &key, u128::from(i) << 70, i),
                Stored::Placed
            );
        }
        let back = (0..5000u64)
            .filter(|&i| {
                let key = [i, !i];
                reader.get(Memo::hash(&key), &key) == Some((u128::from(i) << 70, i))
            })
            .count();
        assert!(back > 4900, "{back}");
        drop(reader);
        assert!(memo.stats().bytes <= 1 << 20);

        // A small table (it fills and replaces) and keys that share hashes in pairs.
        let memo = Arc::new(SharedMemo::new(3, 512 << 10));
        let count_of = |k: u64| u128::from(k).wrapping_mul(0x9e37_79b9_7f4a_7c15) << 3 | 1;
        let key_of = |k: u64| [k, k.rotate_left(17), k ^ 0x5555];
        let tag_of = |k: u64| Memo::hash(&key_of(k / 2 * 2));
        let found: u64 = std::thread::scope(|s| {
            let workers: Vec<_> = (0..2u64)
                .map(|t| {
                    let memo = &memo;
                    s.spawn(move || {
                        let reader = memo.enter();
                        let mut found = 0;
                        let mut x = 0x1234_5678 + t;
                        for _ in 0..200_000 {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            let k = x % 20_000;
                            let key = key_of(k);
                            match reader.get(tag_of(k), &key) {
                                Some((c, cost)) => {
                                    assert_eq!((c, cost), (count_of(k), k), "key {k}");
                                    found += 1;
                                }
                                None => {
                                    reader.store(tag_of(k), &key, count_of(k), k);
                                }
                            }
                        }
                        found
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().expect("a worker"))
                .sum()
        });
        assert!(found > 0);
        assert!(memo.stats().bytes <= 512 << 10 && memo.stats().bytes > 64 * 16 * 56);
    }
}

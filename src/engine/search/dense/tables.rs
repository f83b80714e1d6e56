//! What the bitset search reads and never changes, built once per problem: the conflict
//! rows, the options' primary items, the items' options (see the module documentation of
//! `dense`).

use crate::engine::problem::Problem;
use std::sync::Arc;

/// The most options [`Dense`](crate::engine::Dense) takes: 16,384 options make conflict rows
/// of 32 MiB.
pub const DENSE_MAX_OPTIONS: usize = 1 << 14;
const _: () = assert!(DENSE_MAX_OPTIONS < 1 << 16, "a size must fit in 16 bits");

/// Why a problem cannot be searched by [`Dense`](crate::engine::Dense).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DenseError {
    /// Some primary item has a multiplicity other than `1:1`.
    #[error("the bitset engine does not handle multiplicities (u:v items)")]
    Multiplicities,
    /// More options than [`DENSE_MAX_OPTIONS`], or per-level state past its memory limit.
    #[error("problem too large for the bitset engine")]
    TooLarge,
}

/// The most memory `Dense` takes for its per-level sets and sizes
/// (levels × (sets + sizes)).
const DENSE_MAX_STACK_BYTES: usize = 64 << 20;

/// From this many primary items on, the sizes go on a trail (see [`Tables::trail`]).
const TRAIL_PRIMARIES: usize = 128;

/// From this many words per set of options on (and up to 64, one bit per word), a try may walk
/// the options it removes through a mask of the words that have some (see
/// [`Tables::sparse_walk`]).
const SPARSE_WALK_WORDS: usize = 5;

/// The sparse walk is also taken when, from one option of a primary item to the next, at least
/// this fraction of the words change between holding some of the option's conflicts and
/// holding none ([`word_change`]): then whether a word has options to remove at a try is not
/// what it was at the try before, and the test per word is mispredicted.
const SPARSE_WALK_CHANGE: f64 = 0.1;

/// What the search reads and never changes, built once per problem; the engines of a count
/// on threads each have a copy (`Dense::sibling`), read directly by the hot loop (behind a
/// shared pointer they cost more instructions than the copy costs memory).
#[derive(Clone)]
pub(super) struct Tables {
    /// Words per set of options.
    pub(super) words: usize,
    /// Primary items.
    pub(super) primaries: usize,
    /// Conflict rows, `words` words per option (see the module documentation), at most
    /// 32 MiB.
    pub(super) conflicts: Arc<[u64]>,
    /// `pitems[pstart[o]..pstart[o + 1]]`: the primary items of option `o` (indices among
    /// the primary items).
    pub(super) pstart: Vec<u32>,
    pub(super) pitems: Vec<u32>,
    /// `words` words per primary item: the options that contain it.
    pub(super) item_bits: Vec<u64>,
    /// The first and one past the last word where each primary item has options.
    pub(super) item_lo: Vec<u32>,
    pub(super) item_hi: Vec<u32>,
    /// The options as built: all of them.
    pub(super) live0: Vec<u64>,
    /// How many options contain each primary item.
    pub(super) size0: Vec<u32>,
    /// Some primary item has no option at all.
    pub(super) hopeless: bool,
    /// Whether the search looks one step ahead for wipe-outs among forced moves (problems
    /// with colours; see the module documentation).
    pub(super) lookahead: bool,
    /// Whether the sizes are kept in one array, each decrement on a trail that the next try
    /// at a level gives back, instead of copied for each level: with more than
    /// [`TRAIL_PRIMARIES`] primary items, where copying them all for each try costs more
    /// than the decrements (a sudoku's 324 items).
    pub(super) trail: bool,
    /// Whether a try walks the options it removes through a mask of the words that have some,
    /// with a branch per option and per such word, rather than with a test of every word (see
    /// `Arrays::try_option`): with [`SPARSE_WALK_WORDS`] to 64 words, and conflict rows that
    /// spread over two thirds of the words or more (on average), or whose words with conflicts
    /// change from one option of an item to the next in at least [`SPARSE_WALK_CHANGE`] of the
    /// words, so that which words a try removes options from is hard to predict (a sudoku of
    /// 21 clues: 3.9 words of 5; pentominoes 6×10: 33 of 33; an open sudoku of 25 clues: 3.0
    /// of 5, changing in 0.11 of the words, against 0.06–0.09 for mixed tilings). Otherwise the test per word is well predicted and the mask costs more than
    /// it saves: with fewer words most have options removed (13- and 14-queens, Langford 12,
    /// Steiner triple systems on 13 points: 4 words, 4 to 7% more instructions for as much more
    /// time); with rows gathered in a few words (tilings by small pieces: mixed 7×7, 3.0 words
    /// of 6; dominoes 16×16, 1.7 of 8) the same words are empty try after try (15% more time on
    /// mixed 7×7).
    pub(super) sparse_walk: bool,
}

impl Tables {
    /// The words per set of options of `problem`'s tables, or why it takes none: the
    /// refusals of [`Tables::new`].
    fn words(problem: &Problem) -> Result<usize, DenseError> {
        if problem.has_multiplicities() {
            return Err(DenseError::Multiplicities);
        }
        let m = problem.option_count();
        if m > DENSE_MAX_OPTIONS {
            return Err(DenseError::TooLarge);
        }
        let words = m.div_ceil(64).max(1);
        let primaries = problem.primary_count();
        let levels = primaries + 2;
        // The choice packs a size and an item in a `u32` key, 16 bits each (sizes are at
        // most DENSE_MAX_OPTIONS; the memory limit keeps the items below 4,096).
        if levels * (words * 8 + primaries * 4) > DENSE_MAX_STACK_BYTES || primaries >= 1 << 16 {
            return Err(DenseError::TooLarge);
        }
        Ok(words)
    }

    /// The bytes [`Tables::new`] writes for `problem`, without building anything: the
    /// conflict rows, each item's options while they are built, and each primary item's;
    /// its refusals as well. The per-level sets and sizes are left out: a search touches
    /// only the levels it reaches.
    pub(super) fn bytes(problem: &Problem) -> Result<usize, DenseError> {
        let words = Tables::words(problem)?;
        let rows = problem.option_count() + problem.item_count() + problem.primary_count();
        Ok(rows * words * 8)
    }

    /// The tables of `problem`; refuses multiplicities and problems past
    /// [`DENSE_MAX_OPTIONS`] options.
    pub(super) fn new(problem: &Problem) -> Result<Tables, DenseError> {
        let (m, words) = (problem.option_count(), Tables::words(problem)?);
        // Primary items by their index among the primary items.
        let mut index = vec![u32::MAX; problem.item_count()];
        let mut primaries = 0usize;
        for i in problem.items() {
            if problem.is_primary(i) {
                index[i.0 as usize] = primaries as u32;
                primaries += 1;
            }
        }
        let mut pstart = Vec::with_capacity(m + 1);
        let mut pitems = Vec::new();
        pstart.push(0);
        for o in problem.options() {
            for e in problem.option_entries(o) {
                let x = e.item.0 as usize;
                if index[x] != u32::MAX {
                    pitems.push(index[x]);
                }
            }
            pstart.push(pitems.len() as u32);
        }
        let options = ItemOptions::new(problem, words);
        let conflicts = options.conflict_rows(problem);
        let mut item_bits = Vec::with_capacity(primaries * words);
        let mut item_lo = Vec::with_capacity(primaries);
        let mut item_hi = Vec::with_capacity(primaries);
        let mut size0 = Vec::with_capacity(primaries);
        for i in problem.items() {
            if problem.is_primary(i) {
                let (bits, (lo, hi)) = (&options.with[i.0 as usize], options.span[i.0 as usize]);
                item_bits.extend_from_slice(bits);
                item_lo.push(lo as u32);
                item_hi.push(hi as u32);
                size0.push(bits.iter().map(|b| b.count_ones()).sum());
            }
        }
        let mut live0 = vec![!0u64; words];
        if !m.is_multiple_of(64) {
            live0[words - 1] = (1u64 << (m % 64)) - 1;
        }
        if m == 0 {
            live0[0] = 0;
        }
        let hopeless = size0.contains(&0);
        let sparse_walk = (SPARSE_WALK_WORDS..=64).contains(&words)
            && (3 * conflicts.iter().filter(|&&r| r != 0).count() >= 2 * m * words
                || word_change(&conflicts, &item_bits, words) >= SPARSE_WALK_CHANGE);
        Ok(Tables {
            words,
            primaries,
            conflicts,
            pstart,
            pitems,
            item_bits,
            item_lo,
            item_hi,
            live0,
            size0,
            hopeless,
            lookahead: problem.has_colours(),
            trail: primaries > TRAIL_PRIMARIES,
            sparse_walk,
        })
    }
}

/// The fraction of words that change between holding some of an option's conflicts and holding
/// none, from one option of a primary item to the next (in the order a node tries them), over
/// every primary item; `item_bits` holds `words` words per primary item, its options. At most
/// 64 words (one bit a word); 0 without two options in an item.
pub(super) fn word_change(conflicts: &[u64], item_bits: &[u64], words: usize) -> f64 {
    debug_assert!(words <= 64);
    // Per option, the words of its conflict row that are not empty.
    let nonempty: Vec<u64> = conflicts
        .chunks_exact(words)
        .map(|row| {
            row.iter()
                .enumerate()
                .fold(0u64, |m, (k, &r)| m | u64::from(r != 0) << k)
        })
        .collect();
    let (mut changes, mut pairs) = (0u64, 0u64);
    for bits in item_bits.chunks_exact(words) {
        let mut last: Option<u64> = None;
        for (k, &word) in bits.iter().enumerate() {
            let mut b = word;
            while b != 0 {
                let o = k * 64 + b.trailing_zeros() as usize;
                b &= b - 1;
                if let Some(l) = last {
                    changes += u64::from((l ^ nonempty[o]).count_ones());
                    pairs += 1;
                }
                last = Some(nonempty[o]);
            }
        }
    }
    if pairs == 0 {
        0.0
    } else {
        changes as f64 / (pairs * words as u64) as f64
    }
}

/// Per item, the options that contain it, `words` words each, and the first and one past the
/// last word that holds some of them: a row ORs in only those words (a 25×25 sudoku's items
/// span 1 to 125 of its 125 words, 47 on average).
struct ItemOptions {
    words: usize,
    with: Vec<Vec<u64>>,
    span: Vec<(usize, usize)>,
}

impl ItemOptions {
    fn new(problem: &Problem, words: usize) -> ItemOptions {
        let mut with = vec![vec![0u64; words]; problem.item_count()];
        for o in problem.options() {
            let (w, b) = (o.0 as usize / 64, 1u64 << (o.0 % 64));
            for e in problem.option_entries(o) {
                with[e.item.0 as usize][w] |= b;
            }
        }
        let span = with
            .iter()
            .map(|bits| {
                let lo = bits.iter().position(|&b| b != 0).unwrap_or(0);
                let hi = bits.iter().rposition(|&b| b != 0).map_or(0, |k| k + 1);
                (lo, hi)
            })
            .collect();
        ItemOptions { words, with, span }
    }

    /// The conflict rows (see [`conflict_rows`]).
    fn conflict_rows(&self, problem: &Problem) -> Arc<[u64]> {
        let (m, words) = (problem.option_count(), self.words);
        // Per item and colour, the options that give the item that colour.
        let mut by_colour: Vec<std::collections::HashMap<u32, Vec<u64>>> =
            vec![Default::default(); problem.item_count()];
        for o in problem.options() {
            let (w, b) = (o.0 as usize / 64, 1u64 << (o.0 % 64));
            for e in problem.option_entries(o) {
                if !e.colour.is_none() {
                    by_colour[e.item.0 as usize]
                        .entry(e.colour.0)
                        .or_insert_with(|| vec![0u64; words])[w] |= b;
                }
            }
        }
        // Built in place in the shared allocation that the bitset search and the memoised
        // search both read (a `Vec` turned into an `Arc` would be copied: 8 MB on a 25×25
        // sudoku).
        let mut shared: Arc<[u64]> = std::iter::repeat_n(0, m * words).collect();
        let conflicts = Arc::get_mut(&mut shared).expect("a fresh allocation");
        for o in problem.options() {
            let row = &mut conflicts[o.0 as usize * words..(o.0 as usize + 1) * words];
            for e in problem.option_entries(o) {
                let x = e.item.0 as usize;
                let (lo, hi) = self.span[x];
                let with = &self.with[x][lo..hi];
                let row = &mut row[lo..hi];
                if e.colour.is_none() {
                    for (r, &b) in row.iter_mut().zip(with) {
                        *r |= b;
                    }
                } else {
                    let same = &by_colour[x][&e.colour.0][lo..hi];
                    for ((r, &b), &s) in row.iter_mut().zip(with).zip(same) {
                        *r |= b & !s;
                    }
                }
            }
        }
        shared
    }
}

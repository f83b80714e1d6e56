//! What the n-queens counters and listers share: the largest board, the mask of a board's
//! files, the check residue of a count, and a count's result and work. It names none of its
//! sibling modules, so they all import it and not each other.

/// The largest board the exact-cover model, the word-parallel counter and the listings take
/// (a rank's files are one `u32` mask).
pub const MAX_N: usize = 32;

/// The mask of the files of an `n`-file board: bits `0..n` set (`n <= 32`).
#[inline]
pub fn full_mask(n: usize) -> u32 {
    debug_assert!(n <= MAX_N, "n = {n} exceeds {MAX_N}");
    if n >= 32 { u32::MAX } else { (1u32 << n) - 1 }
}

/// The modulus of the check residue both engines keep: `solutions mod P`, accumulated task by
/// task independently of the sum, and compared with it at the end of a count.
pub const RESIDUE_MODULUS: u64 = 1_000_000_007;

/// Engine work. `updates` and `mems` are counted by the dlx engine only (`None`: not
/// counted).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Search nodes (a solution counts as a node, as in DLX2).
    pub nodes: u64,
    /// List updates (dlx engine).
    pub updates: Option<u64>,
    /// Memory accesses (dlx engine).
    pub mems: Option<u64>,
}

impl Work {
    /// No work yet, with updates and mems counted (the dlx engine's zero).
    pub const COUNTED_ZERO: Work = Work {
        nodes: 0,
        updates: Some(0),
        mems: Some(0),
    };
}

impl std::ops::AddAssign for Work {
    /// Adds the nodes, and the updates and mems counted on either side.
    fn add_assign(&mut self, o: Work) {
        fn add(a: Option<u64>, b: Option<u64>) -> Option<u64> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a + b),
                (a, b) => a.or(b),
            }
        }
        self.nodes += o.nodes;
        self.updates = add(self.updates, o.updates);
        self.mems = add(self.mems, o.mems);
    }
}

/// The result of a count (of one shard, or the whole).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    /// Solutions counted.
    pub solutions: u128,
    /// Fundamental solutions, when asked for.
    pub unique: Option<u128>,
    /// The engine's work.
    pub work: Work,
    /// Tasks counted (in this shard).
    pub tasks: usize,
    /// Tasks of the whole split.
    pub tasks_total: usize,
    /// `solutions mod RESIDUE_MODULUS`, summed task by task (a whole count checks that it
    /// equals that of `solutions`).
    pub residue: u64,
    /// A stop was requested (through the [`crate::engine::Stop`] of the count): the counts
    /// are lower bounds.
    pub interrupted: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_masks_have_n_bits() {
        for n in 0..=MAX_N {
            assert_eq!(full_mask(n).count_ones() as usize, n);
            assert_eq!(u64::from(full_mask(n)) + 1, 1u64 << n);
        }
    }

    #[test]
    fn work_adds_what_either_side_counted() {
        let dlx = Work {
            nodes: 3,
            updates: Some(5),
            mems: Some(7),
        };
        let mut w = Work::default();
        w += dlx;
        assert_eq!(w, dlx);
        w += dlx;
        assert_eq!(
            w,
            Work {
                nodes: 6,
                updates: Some(10),
                mems: Some(14)
            }
        );
        let mut bits = Work {
            nodes: 4,
            ..Work::default()
        };
        bits += Work::default();
        assert_eq!((bits.nodes, bits.updates, bits.mems), (4, None, None));
        let mut z = Work::COUNTED_ZERO;
        z += bits;
        assert_eq!((z.nodes, z.updates, z.mems), (4, Some(0), Some(0)));
    }
}

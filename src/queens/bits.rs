//! Word-parallel n-queens counter (issue 5).
//!
//! TEMPORARY STAND-IN on branch `queens` only: the real counter is written on branch `bits`
//! and replaces this file at merge. It has the agreed API and delegates to the dancing-links
//! counter of [`super::model`], so that `xcover queens count --engine bits` compiles and gives
//! correct answers meanwhile.

use std::ops::AddAssign;

use super::model::{self, CountConfig, Queens};

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BitsCount {
    pub solutions: u128,
    pub unique: u128,
    pub nodes: u64,
    pub residue: u64,
}

impl AddAssign for BitsCount {
    fn add_assign(&mut self, o: BitsCount) {
        self.solutions += o.solutions;
        self.unique += o.unique;
        self.nodes += o.nodes;
        self.residue = (self.residue + o.residue) % model::RESIDUE_MODULUS;
    }
}

/// Number of sub-problems in the deterministic split.
pub fn task_count(n: usize) -> usize {
    model::task_count(n).unwrap_or(0)
}

/// Counts on the current rayon pool; `progress(tasks_done, tasks_total, solutions_so_far)`.
pub fn count(
    n: usize,
    unique: bool,
    shard: Option<(usize, usize)>,
    progress: &(dyn Fn(usize, usize, u128) + Sync),
) -> BitsCount {
    let Ok(m) = Queens::new(n) else {
        return BitsCount::default();
    };
    let config = CountConfig {
        unique,
        mirror: true,
        shard,
    };
    match model::count(&m, &config, progress) {
        Ok(c) => BitsCount {
            solutions: c.solutions,
            unique: c.unique.unwrap_or(0),
            nodes: c.work.nodes,
            residue: c.residue,
        },
        Err(_) => BitsCount::default(),
    }
}

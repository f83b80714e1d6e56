//! A family of solutions as one value: the diagram of [`super::zdd`] with its path counts, and
//! the questions one asks of it without listing it (Knuth, TAOCP 7.1.4; Graphillion's
//! `setset`): how many, how often each option, the solutions including or excluding given
//! options, the k best under option weights, uniform samples, each solution in turn.
//!
//! ```
//! use dancelinks::engine::family::{Direction, Family};
//! use dancelinks::engine::OptionId;
//! use dancelinks::models::{Model, queens::Queens};
//!
//! let queens = Queens::new(8).unwrap();
//! let family = Family::build(queens.problem(), 64 << 20, &mut || false).unwrap();
//! assert_eq!(family.count(), Ok(92));
//! // Option 8·r + c is the queen on (r, c): 4 solutions have a queen in the corner.
//! assert_eq!(family.marginals().unwrap()[0], 4);
//! let corner = family.including(&[OptionId(0)]).unwrap();
//! assert_eq!(corner.count(), Ok(4));
//! assert_eq!(family.excluding(&[OptionId(0)]).unwrap().count(), Ok(88));
//! // The 3 solutions with the most queens on the upper half (weights 1 on ranks 0 to 3).
//! let weights: Vec<i64> = (0..64).map(|o| i64::from(o < 32)).collect();
//! let best = family.best(&weights, 3, Direction::Maximize).unwrap();
//! assert!(best.iter().all(|(v, s)| *v == 4 && s.len() == 8));
//! assert_eq!(family.sample(5, 1).unwrap().len(), 5);
//! assert_eq!(family.iter().count(), 92);
//! ```
//!
//! # Passes over the diagram
//!
//! Node ids grow bottom-up (a node's HI and LO are smaller ids), so every question is one or
//! two passes over the node array:
//!
//! - **count**: bottom-up, count(⊥) = 0, count(⊤) = 1, count(n) = count(HI) + count(LO), in
//!   `u128`, every sum checked ([`FamilyError::Overflow`] when it does not fit; the diagram is
//!   still usable for what needs no count: the best solutions, iteration, the conditional
//!   families, saving).
//! - **marginals** (the number of solutions taking each option): a top-down pass counts the
//!   paths from the root to every node, down(root) = 1, each node adding its down to its HI's
//!   and its LO's; then solutions(o) is the sum, over the nodes n naming o, of down(n) ·
//!   count(HI(n)). Both factors are at most the count, the products and sums are checked.
//! - **including / excluding** build new diagrams. Excluding a set S: bottom-up, a node naming
//!   an option of S becomes (the image of) its LO, the others keep their option with the
//!   images of HI and LO. Including an option o: each node gets two images, "o still to take"
//!   and "o taken"; the second is the node itself (any completion), the first is ⊥ at ⊤ and
//!   ⊥, and otherwise the node with HI's "taken" image when it names o, its HI's "to take"
//!   image when not, and LO's "to take" image. Including a set takes its options one after the
//!   other. Nodes are made through a table of the nodes made, so no two are equal, and a node
//!   whose HI is ⊥ is its LO: the result has the shape of a built diagram.
//! - **best**: for each node, its k best paths to ⊤ (fewer when it has fewer), bottom-up: the
//!   node's list is the merge of HI's list, each value plus the option's weight, and LO's
//!   list, cut at k. Exact: a path's value is the sum of its options' weights and the k best
//!   paths through a node are among the k best of each branch.
//! - **samples**: a rank uniform in `0..count` ([`SplitMix64::below_u128`], by rejection), then
//!   the path of that rank (at a node, ranks below count(HI) take the option). Each solution
//!   has probability exactly 1/count; a seed gives the same draws on every platform.
//! - **iteration**: depth-first, HI before LO, one solution at a time (an explicit stack of
//!   at most the diagram's depth).
//!
//! # Order
//!
//! The *rank* of a solution is its place in iteration order (HI before LO at every node, so
//! the order of [`Family::solution`]'s ranks and of [`Family::iter`]). [`Family::best`] lists
//! solutions by value (greatest first when maximising, least first when minimising), equal
//! values in rank order.
//!
//! # Memory
//!
//! A family keeps [`FAMILY_NODE_BYTES`] = 28 bytes a node (the node: option, HI and LO, 12
//! bytes; its count, 16). Building one from a problem is [`super::zdd::Zdd::build`] within the
//! budget, which counts [`BUILD_NODE_BYTES`] a node (the node, its entry in the table of nodes
//! made, its count) and the sub-problems' keys; a diagram that would outgrow the budget is
//! refused as soon as its estimate passes it. The conditional families count
//! [`BUILD_NODE_BYTES`] a node made, the best solutions 16 bytes a kept entry (checked before
//! the pass), the marginals 16 bytes a node for the pass and 16 an option for the answer.

use std::collections::HashMap;

use super::problem::{OptionId, Problem};
use super::search::dlx::Solver;
use super::zdd::{BOTTOM, TOP, Zdd, ZddError, ZddNode};
use crate::random::SplitMix64;

/// Bytes a family keeps per node: the node (12) and its count (16).
pub const FAMILY_NODE_BYTES: u64 = 12 + 16;
/// Bytes counted per node while a diagram is made: the node, its entry in the table of nodes
/// made, and its count.
pub const BUILD_NODE_BYTES: u64 = 12 + 24 + 16;
/// Bytes counted per entry of the k-best lists.
const BEST_ENTRY_BYTES: u64 = 16;

/// Why a family (or an answer from it) could not be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FamilyError {
    /// Building the diagram failed (memory budget, a stop, multiplicities).
    #[error(transparent)]
    Build(#[from] ZddError),
    /// A count does not fit in 128 bits.
    #[error("the number of solutions exceeds 2^128 - 1")]
    Overflow,
    /// A new diagram, or the lists of the best solutions, would outgrow the memory budget.
    #[error("{what} would need {needed} bytes, more than the budget of {budget} bytes")]
    Memory {
        /// What was refused.
        what: &'static str,
        /// The bytes it would need (at least).
        needed: u64,
        /// The budget.
        budget: u64,
    },
    /// An option index beyond the problem's options.
    #[error("option {option} does not exist (the family has {options} options)")]
    NoSuchOption {
        /// The index asked for.
        option: u32,
        /// The number of options.
        options: usize,
    },
    /// The weights do not give one weight per option.
    #[error("{given} weights for {options} options")]
    Weights {
        /// Weights given.
        given: usize,
        /// Options of the family.
        options: usize,
    },
    /// A solution's value does not fit in 64 bits.
    #[error("a solution's total weight does not fit in a 64-bit integer")]
    ValueOverflow,
}

/// The solutions of a problem as one value (see the module documentation).
#[derive(Clone, Debug)]
pub struct Family {
    /// Node `id` is `nodes[id - 2]`.
    nodes: Vec<ZddNode>,
    root: u32,
    /// The number of options of the problem (marginals and weights have one per option).
    options: usize,
    /// Paths to ⊤ by id, or `None` when a count overflowed.
    counts: Option<Vec<u128>>,
    /// The memory budget of the diagrams and lists made from this one.
    budget: u64,
}

/// Whether the best solutions are the greatest or the least.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Greatest total weight first.
    Maximize,
    /// Least total weight first.
    Minimize,
}

impl Family {
    /// The family of the solutions of `problem`, built within `max_bytes` (the builder's
    /// estimate, see the module documentation); `stop` is asked now and then, true ends the
    /// build with [`ZddError::Stopped`].
    pub fn build(
        problem: &Problem,
        max_bytes: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<Family, FamilyError> {
        let zdd = Zdd::build(&mut Solver::new(problem), max_bytes, stop)?;
        Ok(Family::from_zdd(zdd, problem.option_count(), max_bytes))
    }

    /// The family of a built diagram over a problem of `options` options (every node's
    /// option below it), with `max_bytes` the budget of what is made from it.
    pub fn from_zdd(zdd: Zdd, options: usize, max_bytes: u64) -> Family {
        let (nodes, root) = zdd.into_parts();
        Family::from_nodes(nodes, root, options, max_bytes)
    }

    /// The family of nodes already in the shape of a built diagram (ids from 2, HI never ⊥,
    /// children smaller ids; the caller has checked it).
    pub(crate) fn from_nodes(
        nodes: Vec<ZddNode>,
        root: u32,
        options: usize,
        budget: u64,
    ) -> Family {
        debug_assert!(nodes.iter().enumerate().all(|(i, n)| {
            let id = i as u32 + 2;
            n.hi != BOTTOM && n.hi < id && n.lo < id && (n.option.0 as usize) < options
        }));
        let mut f = Family {
            nodes,
            root,
            options,
            counts: None,
            budget,
        };
        f.counts = f.path_counts();
        f
    }

    fn path_counts(&self) -> Option<Vec<u128>> {
        let mut counts: Vec<u128> = Vec::with_capacity(self.nodes.len() + 2);
        counts.extend([0, 1]);
        for n in &self.nodes {
            let c = counts[n.hi as usize].checked_add(counts[n.lo as usize])?;
            counts.push(c);
        }
        Some(counts)
    }

    fn counts(&self) -> Result<&[u128], FamilyError> {
        self.counts.as_deref().ok_or(FamilyError::Overflow)
    }

    /// Node `id` (2 and up).
    fn node(&self, id: u32) -> ZddNode {
        self.nodes[(id - 2) as usize]
    }

    /// The root's id ([`BOTTOM`]: no solution; [`TOP`]: one solution, taking no option).
    pub fn root(&self) -> u32 {
        self.root
    }

    /// The nodes with their ids, children before parents.
    pub fn nodes(&self) -> impl Iterator<Item = (u32, ZddNode)> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .map(|(i, &n)| (i as u32 + 2, n))
    }

    /// The number of nodes (terminals not included).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the diagram is a terminal only (no solution, or one solution taking nothing).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The number of options of the problem (the length of [`Family::marginals`]).
    pub fn option_count(&self) -> usize {
        self.options
    }

    /// The memory budget of what is made from this family, in bytes.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The bytes this family keeps ([`FAMILY_NODE_BYTES`] a node).
    pub fn bytes(&self) -> u64 {
        (self.nodes.len() as u64 + 2) * FAMILY_NODE_BYTES
    }

    /// The number of solutions, or [`FamilyError::Overflow`].
    pub fn count(&self) -> Result<u128, FamilyError> {
        Ok(self.counts()?[self.root as usize])
    }

    /// For each option (by index), the number of solutions that take it.
    pub fn marginals(&self) -> Result<Vec<u128>, FamilyError> {
        let counts = self.counts()?;
        let mut down = vec![0u128; self.nodes.len() + 2];
        down[self.root as usize] = 1;
        let mut out = vec![0u128; self.options];
        for (i, n) in self.nodes.iter().enumerate().rev() {
            let d = down[i + 2];
            if d == 0 {
                continue;
            }
            let via = d
                .checked_mul(counts[n.hi as usize])
                .ok_or(FamilyError::Overflow)?;
            let o = &mut out[n.option.0 as usize];
            *o = o.checked_add(via).ok_or(FamilyError::Overflow)?;
            for child in [n.hi, n.lo] {
                let c = &mut down[child as usize];
                *c = c.checked_add(d).ok_or(FamilyError::Overflow)?;
            }
        }
        Ok(out)
    }

    /// The solution of rank `rank` (`0..count`), its options in path order, or `None` when
    /// there are fewer solutions.
    pub fn solution(&self, mut rank: u128) -> Result<Option<Vec<OptionId>>, FamilyError> {
        let counts = self.counts()?;
        if rank >= counts[self.root as usize] {
            return Ok(None);
        }
        let mut out = Vec::new();
        let mut id = self.root;
        while id > TOP {
            let n = self.node(id);
            let hi = counts[n.hi as usize];
            if rank < hi {
                out.push(n.option);
                id = n.hi;
            } else {
                rank -= hi;
                id = n.lo;
            }
        }
        Ok(Some(out))
    }

    /// `k` solutions drawn exactly uniformly and independently (with replacement) with the
    /// generator started from `seed`; none when there is no solution. The draws of
    /// `xcover solve --sample K --seed S`.
    pub fn sample(&self, k: usize, seed: u64) -> Result<Vec<Vec<OptionId>>, FamilyError> {
        let count = self.count()?;
        if count == 0 {
            return Ok(Vec::new());
        }
        let mut rng = SplitMix64::new(seed);
        (0..k)
            .map(|_| {
                let rank = rng.below_u128(count);
                Ok(self.solution(rank)?.expect("a rank below the count"))
            })
            .collect()
    }

    /// The solutions one at a time, in rank order, each its options in path order.
    pub fn iter(&self) -> Solutions<'_> {
        Solutions {
            family: self,
            cursor: Cursor::new(self),
        }
    }

    fn check_option(&self, o: OptionId) -> Result<(), FamilyError> {
        if o.0 as usize >= self.options {
            return Err(FamilyError::NoSuchOption {
                option: o.0,
                options: self.options,
            });
        }
        Ok(())
    }

    /// The solutions that take none of `options`, as a new family.
    pub fn excluding(&self, options: &[OptionId]) -> Result<Family, FamilyError> {
        let mut out_set = vec![false; self.options];
        for &o in options {
            self.check_option(o)?;
            out_set[o.0 as usize] = true;
        }
        let mut m = Maker::new(
            self.budget,
            "the family excluding the options",
            self.nodes.len(),
        );
        let mut image = vec![BOTTOM; self.nodes.len() + 2];
        image[TOP as usize] = TOP;
        for (i, n) in self.nodes.iter().enumerate() {
            image[i + 2] = if out_set[n.option.0 as usize] {
                image[n.lo as usize]
            } else {
                m.node(n.option, image[n.hi as usize], image[n.lo as usize])?
            };
        }
        Ok(
            m.family(image[self.root as usize], self.options, self.budget)
                .trimmed(),
        )
    }

    /// The solutions that take every one of `options`, as a new family.
    pub fn including(&self, options: &[OptionId]) -> Result<Family, FamilyError> {
        for &o in options {
            self.check_option(o)?;
        }
        let mut family = self.clone();
        let mut done: Vec<OptionId> = Vec::new();
        for &o in options {
            if done.contains(&o) {
                continue;
            }
            done.push(o);
            family = family.including_one(o)?;
        }
        Ok(family)
    }

    fn including_one(&self, o: OptionId) -> Result<Family, FamilyError> {
        let mut m = Maker::new(
            self.budget,
            "the family including the options",
            2 * self.nodes.len(),
        );
        // The "taken" images are the nodes themselves, copied first with their ids.
        for n in &self.nodes {
            m.node(n.option, n.hi, n.lo)?;
        }
        debug_assert_eq!(m.nodes.len(), self.nodes.len());
        let mut to_take = vec![BOTTOM; self.nodes.len() + 2];
        for (i, n) in self.nodes.iter().enumerate() {
            let hi = if n.option == o {
                n.hi
            } else {
                to_take[n.hi as usize]
            };
            to_take[i + 2] = m.node(n.option, hi, to_take[n.lo as usize])?;
        }
        let root = to_take[self.root as usize];
        Ok(m.family(root, self.options, self.budget).trimmed())
    }

    /// The family with only the nodes reachable from the root, renumbered in the same order.
    fn trimmed(self) -> Family {
        let mut reach = vec![false; self.nodes.len() + 2];
        reach[self.root as usize] = true;
        for (i, n) in self.nodes.iter().enumerate().rev() {
            if reach[i + 2] {
                reach[n.hi as usize] = true;
                reach[n.lo as usize] = true;
            }
        }
        if reach.iter().skip(2).all(|&r| r) {
            return self;
        }
        let mut new_id = vec![BOTTOM; self.nodes.len() + 2];
        new_id[TOP as usize] = TOP;
        let mut nodes = Vec::new();
        for (i, n) in self.nodes.iter().enumerate() {
            if reach[i + 2] {
                nodes.push(ZddNode {
                    option: n.option,
                    hi: new_id[n.hi as usize],
                    lo: new_id[n.lo as usize],
                });
                new_id[i + 2] = nodes.len() as u32 + 1;
            }
        }
        Family::from_nodes(nodes, new_id[self.root as usize], self.options, self.budget)
    }

    /// The `k` best solutions under `weights` (one per option; a solution's value is the sum
    /// of its options' weights): greatest first with [`Direction::Maximize`], least first with
    /// [`Direction::Minimize`], equal values in rank order. Fewer when there are fewer
    /// solutions. Exact (dynamic programming over the diagram, see the module documentation).
    pub fn best(
        &self,
        weights: &[i64],
        k: usize,
        direction: Direction,
    ) -> Result<Vec<(i64, Vec<OptionId>)>, FamilyError> {
        if weights.len() != self.options {
            return Err(FamilyError::Weights {
                given: weights.len(),
                options: self.options,
            });
        }
        if k == 0 || self.root == BOTTOM {
            return Ok(Vec::new());
        }
        // The entries to keep: min(k, paths below) a node, checked before the pass.
        let kk = k as u128;
        let entries: u128 = match &self.counts {
            Some(c) => c[2..].iter().map(|&c| c.min(kk)).sum::<u128>() + 1,
            None => kk * (self.nodes.len() as u128 + 1),
        };
        let needed = entries
            .saturating_mul(u128::from(BEST_ENTRY_BYTES))
            .min(u128::from(u64::MAX)) as u64;
        if needed > self.budget {
            return Err(FamilyError::Memory {
                what: "the lists of the best solutions",
                needed,
                budget: self.budget,
            });
        }
        let better = |a: i64, b: i64| match direction {
            Direction::Maximize => a > b,
            Direction::Minimize => a < b,
        };
        // Lists by id: ⊥ empty, ⊤ the empty path of value 0; entry = (value, child, index).
        let mut start: Vec<u32> = Vec::with_capacity(self.nodes.len() + 3);
        let mut list: Vec<Entry> = Vec::with_capacity(entries.min(1 << 24) as usize);
        start.extend([0, 0]);
        list.push(Entry {
            value: 0,
            hi: false,
            index: 0,
        });
        start.push(1);
        for n in &self.nodes {
            let w = weights[n.option.0 as usize];
            let (hs, he) = (start[n.hi as usize], start[n.hi as usize + 1]);
            let (ls, le) = (start[n.lo as usize], start[n.lo as usize + 1]);
            let (mut a, mut b) = (hs, ls);
            let mut made = 0;
            while made < k && (a < he || b < le) {
                let from_hi = if a < he {
                    let va = list[a as usize]
                        .value
                        .checked_add(w)
                        .ok_or(FamilyError::ValueOverflow)?;
                    // Equal values: HI first (rank order).
                    b >= le || !better(list[b as usize].value, va)
                } else {
                    false
                };
                let e = if from_hi {
                    let e = Entry {
                        value: list[a as usize].value + w,
                        hi: true,
                        index: a - hs,
                    };
                    a += 1;
                    e
                } else {
                    let e = Entry {
                        value: list[b as usize].value,
                        hi: false,
                        index: b - ls,
                    };
                    b += 1;
                    e
                };
                list.push(e);
                made += 1;
            }
            start.push(u32::try_from(list.len()).map_err(|_| FamilyError::Memory {
                what: "the lists of the best solutions",
                needed,
                budget: self.budget,
            })?);
        }
        let root = self.root as usize;
        let mut out = Vec::new();
        for i in start[root]..start[root + 1] {
            let value = list[i as usize].value;
            let mut path = Vec::new();
            let (mut id, mut at) = (self.root, i);
            while id > TOP {
                let e = list[at as usize];
                let n = self.node(id);
                id = if e.hi {
                    path.push(n.option);
                    n.hi
                } else {
                    n.lo
                };
                at = start[id as usize] + e.index;
            }
            out.push((value, path));
        }
        Ok(out)
    }
}

/// One entry of a k-best list: a value, the branch it came from and its place in that
/// branch's list.
#[derive(Copy, Clone, Debug)]
struct Entry {
    value: i64,
    hi: bool,
    index: u32,
}

/// The hash of the table of nodes made: a node's three words mixed by multiplication (the
/// table's keys are small integers, which SipHash spends far more time on than they need).
#[derive(Default)]
struct NodeHasher(u64);

impl std::hash::Hasher for NodeHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(26) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type NodeTable = HashMap<ZddNode, u32, std::hash::BuildHasherDefault<NodeHasher>>;

/// Makes the nodes of a new diagram: equal nodes once, HI ⊥ the LO, within a budget.
struct Maker {
    nodes: Vec<ZddNode>,
    unique: NodeTable,
    budget: u64,
    what: &'static str,
}

impl Maker {
    /// A maker for about `size` nodes (the tables are made that large at once, within the
    /// budget).
    fn new(budget: u64, what: &'static str, size: usize) -> Maker {
        let size = size.min((budget / BUILD_NODE_BYTES) as usize);
        Maker {
            nodes: Vec::with_capacity(size),
            unique: NodeTable::with_capacity_and_hasher(size, Default::default()),
            budget,
            what,
        }
    }

    fn node(&mut self, option: OptionId, hi: u32, lo: u32) -> Result<u32, FamilyError> {
        if hi == BOTTOM {
            return Ok(lo);
        }
        let node = ZddNode { option, hi, lo };
        if let Some(&id) = self.unique.get(&node) {
            return Ok(id);
        }
        let needed = (self.nodes.len() as u64 + 3) * BUILD_NODE_BYTES;
        if needed > self.budget {
            return Err(FamilyError::Memory {
                what: self.what,
                needed,
                budget: self.budget,
            });
        }
        let id = u32::try_from(self.nodes.len() + 2)
            .ok()
            .filter(|&id| id < u32::MAX)
            .ok_or(FamilyError::Build(ZddError::TooManyNodes))?;
        self.nodes.push(node);
        self.unique.insert(node, id);
        Ok(id)
    }

    fn family(self, root: u32, options: usize, budget: u64) -> Family {
        Family::from_nodes(self.nodes, root, options, budget)
    }
}

/// Where an iteration over a family's solutions stands (without a borrow of the family, for
/// an owner that keeps both, such as a binding): call [`Cursor::next`] with the same family.
#[derive(Clone, Debug)]
pub struct Cursor {
    path: Vec<OptionId>,
    /// (node, the path's length when it was reached).
    stack: Vec<(u32, usize)>,
}

impl Cursor {
    /// At the first solution of `family`.
    pub fn new(family: &Family) -> Cursor {
        Cursor {
            path: Vec::new(),
            stack: vec![(family.root, 0)],
        }
    }

    /// The next solution of `family` (the one the cursor was made for), or `None` after the
    /// last.
    pub fn next(&mut self, family: &Family) -> Option<Vec<OptionId>> {
        while let Some((id, len)) = self.stack.pop() {
            self.path.truncate(len);
            match id {
                BOTTOM => {}
                TOP => return Some(self.path.clone()),
                _ => {
                    let n = family.node(id);
                    self.stack.push((n.lo, len));
                    self.path.push(n.option);
                    self.stack.push((n.hi, len + 1));
                }
            }
        }
        None
    }
}

/// The solutions of a [`Family`], in rank order ([`Family::iter`]).
pub struct Solutions<'f> {
    family: &'f Family,
    cursor: Cursor,
}

impl Iterator for Solutions<'_> {
    type Item = Vec<OptionId>;

    fn next(&mut self) -> Option<Vec<OptionId>> {
        self.cursor.next(self.family)
    }
}

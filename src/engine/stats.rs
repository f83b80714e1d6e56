//! Statistics of a search, in Knuth's terms, and the bytes of its data structure.

use std::ops::{Add, AddAssign};

/// What a search did, in Knuth's terms. Statistics of several runs (threads, sub-problems,
/// shards) add up with `+=`; the maximum level is the maximum of both.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    pub(crate) solutions: u64,
    pub(crate) nodes: u64,
    pub(crate) updates: u64,
    pub(crate) mems: u64,
    pub(crate) cleansings: u64,
    pub(crate) max_level: u32,
}

impl Stats {
    /// Solutions found.
    pub fn solutions(&self) -> u64 {
        self.solutions
    }
    /// Nodes of the search tree; a solution counts as a node, as in DLX1/DLX2.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
    /// Link updates: one per item removed from the item ring and one per node removed from
    /// an item list.
    pub fn updates(&self) -> u64 {
        self.updates
    }
    /// Memory accesses, counted where Knuth's DLX2 counts them (search only, not input).
    pub fn mems(&self) -> u64 {
        self.mems
    }
    /// Options that kept their colour when a secondary item was purified (DLX2's cleansings).
    pub fn cleansings(&self) -> u64 {
        self.cleansings
    }
    /// The deepest level reached; a solution with k options has level k.
    pub fn max_level(&self) -> u32 {
        self.max_level
    }
    /// Mems of reading the input: Knuth's `I` in `I+M mems`. xcover counts only the mems of
    /// the search (`M`, [`Stats::mems`]), so this is 0.
    pub fn input_mems(&self) -> u64 {
        0
    }
    /// Knuth's closing line of DLX1/DLX2, with `bytes` from [`structure_bytes`]:
    /// `Altogether 73712 solutions, 0+252453315 mems, 17463157 updates, 6756 bytes, 1046319 nodes.`
    pub fn knuth_line(&self, bytes: u64) -> String {
        self.knuth_line_of(self.solutions.into(), bytes)
    }
    /// [`Stats::knuth_line`] for a search that found `solutions` in all, some of them not
    /// one by one (a memoised count remembers them).
    pub fn knuth_line_of(&self, solutions: u128, bytes: u64) -> String {
        format!(
            "Altogether {} solution{}, {}+{} mems, {} updates, {} bytes, {} nodes.",
            solutions,
            if solutions == 1 { "" } else { "s" },
            self.input_mems(),
            self.mems,
            self.updates,
            bytes,
            self.nodes
        )
    }
}

/// The bytes of the data structure of a search of `problem` that reached level `max_level`,
/// counted as Knuth's DLX2 counts them (`(last_itm+1)·sizeof(item) + last_node·sizeof(node) +
/// maxl·sizeof(int)`):
///
/// - 16 bytes per item header of the item array, as DLX2's `item` (an 8-byte name and the
///   `prev`/`next` links): the N items and the two ring heads (`cl[0]`, `cl[N+1]`);
/// - 16 bytes per node of the node array (`up`, `down`, `itm`, `color`): node 0, the N
///   headers, one node per item of each option, and a spacer before, between and after the
///   options;
/// - 4 bytes per level of the `choice` array reached.
///
/// The side arrays of this implementation (the option of each node, the forced options, the
/// names kept for output) are not counted, as Knuth counts none of his.
pub fn structure_bytes(problem: &super::Problem, max_level: u32) -> u64 {
    let items = problem.item_count() as u64;
    let nodes = 1 + items + problem.entry_count() as u64 + problem.option_count() as u64 + 1;
    16 * (items + 2) + 16 * nodes + 4 * u64::from(max_level)
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.solutions += o.solutions;
        self.nodes += o.nodes;
        self.updates += o.updates;
        self.mems += o.mems;
        self.cleansings += o.cleansings;
        self.max_level = self.max_level.max(o.max_level);
    }
}

impl Add for Stats {
    type Output = Stats;
    fn add(mut self, o: Stats) -> Stats {
        self += o;
        self
    }
}

impl std::iter::Sum for Stats {
    fn sum<I: Iterator<Item = Stats>>(iter: I) -> Stats {
        iter.fold(Stats::default(), |a, b| a + b)
    }
}

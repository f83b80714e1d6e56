//! The description of an exact-cover problem, independent of any search: items (primary and
//! secondary), colours and options (with costs). Built with [`ProblemBuilder`], read by the
//! solver, the optimiser and the output writers.
//!
//! Identifiers are 0-based `u32` newtypes; names appear only at the input/output edge.

use std::collections::HashMap;
use std::fmt;

/// An item, numbered 0-based in the order items were declared (primary and secondary mixed).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct ItemId(pub u32);

/// An option, numbered 0-based in the order options were added to the builder.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct OptionId(pub u32);

/// A colour of a secondary item. `Colour::NONE` (0) means "no colour": the option then needs the
/// item for itself alone.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Colour(pub u32);

impl Colour {
    /// No colour: the option needs the item for itself alone.
    pub const NONE: Colour = Colour(0);
    /// Whether this is [`Colour::NONE`].
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// One entry of an option: an item, and the colour the option gives it (secondary items only).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The item covered.
    pub item: ItemId,
    /// The colour given to it, [`Colour::NONE`] for none (always for primary items).
    pub colour: Colour,
}

impl Entry {
    /// An entry without a colour.
    pub fn plain(item: ItemId) -> Entry {
        Entry {
            item,
            colour: Colour::NONE,
        }
    }
    /// An entry giving a secondary item a colour.
    pub fn coloured(item: ItemId, colour: Colour) -> Entry {
        Entry { item, colour }
    }
}

/// Why a problem could not be built. The input readers add file, line and column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// An item declared twice.
    #[error("duplicate item name '{0}'")]
    DuplicateItem(String),
    /// An item name that is empty or contains whitespace, NUL, `:` or `|`.
    #[error(
        "invalid item name '{}' (names are non-empty and contain no whitespace, NUL, ':' or '|')",
        crate::quote::quote(.0)
    )]
    InvalidItemName(String),
    /// An option names an item that was not declared.
    #[error("unknown item '{0}'")]
    UnknownItem(String),
    /// An option names an [`ItemId`] that was not declared.
    #[error("unknown item number {0}")]
    UnknownItemId(u32),
    /// An option names an item twice.
    #[error("item '{0}' appears twice in one option")]
    ItemTwiceInOption(String),
    /// An option gives a primary item a colour.
    #[error("primary item '{0}' cannot have a colour")]
    ColourOnPrimary(String),
    /// A colour name that is empty or contains whitespace, `:` or `|`, or a [`Colour`] that was
    /// not interned (shown as `#n`).
    #[error("invalid colour name '{}'", crate::quote::quote(.0))]
    InvalidColour(String),
    /// An option without a primary item.
    #[error("option has no primary item, so it can never be chosen")]
    NoPrimaryItem,
    /// `build` before any item was declared.
    #[error("no items declared")]
    NoItems,
    /// A multiplicity `u:v` with `v` = 0 or `u` > `v`.
    #[error("bad multiplicity {0}:{1} (need 0 <= u <= v and v >= 1)")]
    BadMultiplicity(u32, u32),
    /// The problem would have more than this many nodes ([`MAX_NODES`]).
    #[error("problem too large: more than {0} nodes")]
    TooLarge(u64),
}

/// An immutable exact-cover problem.
#[derive(Clone, Debug, Default)]
pub struct Problem {
    item_names: Vec<String>,
    item_primary: Vec<bool>,
    /// How many times each item must be covered, `(u, v)`: `(1, 1)` for ordinary primary
    /// items, `(0, 1)` for secondary ones (DLX3's multiplicities `u:v|name`).
    item_bounds: Vec<(u32, u32)>,
    item_index: HashMap<String, ItemId>,
    colour_names: Vec<String>,
    /// `entries[option_start[k]..option_start[k+1]]` are the entries of option k.
    option_start: Vec<u32>,
    entries: Vec<Entry>,
    costs: Vec<i64>,
}

/// The largest number of nodes (items + entries + options) a problem may have: the engine's
/// `u32` links hold twice a node's index (see the engine's `STEP`), so 2^30 leaves room.
pub const MAX_NODES: u64 = 1 << 30;

impl Problem {
    /// How many times `item` must be covered, at least and at most: `(1, 1)` for an
    /// ordinary primary item, `(0, 1)` for a secondary one.
    pub fn bounds(&self, item: ItemId) -> (u32, u32) {
        self.item_bounds[item.0 as usize]
    }

    /// Whether some primary item has a multiplicity other than `1:1` (DLX3's `u:v|name`).
    pub fn has_multiplicities(&self) -> bool {
        self.items()
            .any(|i| self.is_primary(i) && self.bounds(i) != (1, 1))
    }

    /// The number of items, primary and secondary.
    pub fn item_count(&self) -> usize {
        self.item_names.len()
    }
    /// The number of primary items.
    pub fn primary_count(&self) -> usize {
        self.item_primary.iter().filter(|&&p| p).count()
    }
    /// The number of secondary items.
    pub fn secondary_count(&self) -> usize {
        self.item_count() - self.primary_count()
    }
    /// The number of options.
    pub fn option_count(&self) -> usize {
        self.costs.len()
    }
    /// Total number of entries (item occurrences) in all options.
    pub fn entry_count(&self) -> usize {
        self.entries.len()
    }
    /// Whether `item` is primary.
    pub fn is_primary(&self, item: ItemId) -> bool {
        self.item_primary[item.0 as usize]
    }
    /// The name `item` was declared with.
    pub fn item_name(&self, item: ItemId) -> &str {
        &self.item_names[item.0 as usize]
    }
    /// The item declared as `name`, if any.
    pub fn item_id(&self, name: &str) -> Option<ItemId> {
        self.item_index.get(name).copied()
    }
    /// Items in declaration order.
    pub fn items(&self) -> impl Iterator<Item = ItemId> + '_ {
        (0..self.item_names.len() as u32).map(ItemId)
    }
    /// Options in the order they were added.
    pub fn options(&self) -> impl Iterator<Item = OptionId> + '_ {
        (0..self.costs.len() as u32).map(OptionId)
    }
    /// The entries of `option`, in the order given.
    pub fn option_entries(&self, option: OptionId) -> &[Entry] {
        let k = option.0 as usize;
        &self.entries[self.option_start[k] as usize..self.option_start[k + 1] as usize]
    }
    /// The cost of `option` (0 if none was given).
    pub fn cost(&self, option: OptionId) -> i64 {
        self.costs[option.0 as usize]
    }
    /// True when some option gives some item a colour.
    pub fn has_colours(&self) -> bool {
        !self.colour_names.is_empty()
    }
    /// True when some option has a non-zero cost.
    pub fn has_costs(&self) -> bool {
        self.costs.iter().any(|&c| c != 0)
    }
    /// The name of `colour`; `None` for [`Colour::NONE`].
    pub fn colour_name(&self, colour: Colour) -> Option<&str> {
        if colour.is_none() {
            None
        } else {
            Some(&self.colour_names[colour.0 as usize - 1])
        }
    }
    /// The same problem with only `options` (in the order given, each at most once): all
    /// items, colours and names are kept, so each kept option is written as before.
    /// Option `k` of the result is `options[k]`.
    pub fn with_options_only(&self, options: &[OptionId]) -> Problem {
        let mut p = Problem {
            item_names: self.item_names.clone(),
            item_primary: self.item_primary.clone(),
            item_bounds: self.item_bounds.clone(),
            item_index: self.item_index.clone(),
            colour_names: self.colour_names.clone(),
            option_start: Vec::with_capacity(options.len() + 1),
            entries: Vec::new(),
            costs: Vec::with_capacity(options.len()),
        };
        p.option_start.push(0);
        for &o in options {
            p.entries.extend_from_slice(self.option_entries(o));
            p.option_start.push(p.entries.len() as u32);
            p.costs.push(self.cost(o));
        }
        p
    }

    /// The problem cut into the parts that no option joins (items joined when an option
    /// holds both), each a problem of its own with its items in declaration order and its
    /// options in input order, the parts ordered by their first option; `None` when there is
    /// one part, or when a primary item has no option at all (no solution: nothing to cut).
    /// The solutions are the unions of one solution of each part.
    pub(crate) fn independent_parts(&self) -> Option<Vec<Problem>> {
        let n = self.item_count();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        fn find(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                parent[x as usize] = parent[parent[x as usize] as usize];
                x = parent[x as usize];
            }
            x
        }
        let mut used = vec![false; n];
        for o in self.options() {
            let entries = self.option_entries(o);
            let first = find(&mut parent, entries[0].item.0);
            for e in entries {
                used[e.item.0 as usize] = true;
                let r = find(&mut parent, e.item.0);
                if r != first {
                    parent[r as usize] = first;
                }
            }
        }
        if (0..n).any(|i| self.item_primary[i] && !used[i]) {
            return None;
        }
        // The parts in the order of their first option.
        let mut part_of_root: HashMap<u32, usize> = HashMap::new();
        let mut options_of: Vec<Vec<OptionId>> = Vec::new();
        for o in self.options() {
            let r = find(&mut parent, self.option_entries(o)[0].item.0);
            let k = *part_of_root.entry(r).or_insert_with(|| {
                options_of.push(Vec::new());
                options_of.len() - 1
            });
            options_of[k].push(o);
        }
        if options_of.len() < 2 {
            return None;
        }
        let mut parts = Vec::with_capacity(options_of.len());
        for options in options_of {
            let root = find(&mut parent, self.option_entries(options[0])[0].item.0);
            let mut p = Problem {
                colour_names: self.colour_names.clone(),
                ..Problem::default()
            };
            let mut new_id = vec![u32::MAX; n];
            for i in 0..n {
                if used[i] && find(&mut parent, i as u32) == root {
                    new_id[i] = p.item_names.len() as u32;
                    p.item_index
                        .insert(self.item_names[i].clone(), ItemId(new_id[i]));
                    p.item_names.push(self.item_names[i].clone());
                    p.item_primary.push(self.item_primary[i]);
                    p.item_bounds.push(self.item_bounds[i]);
                }
            }
            p.option_start.push(0);
            for o in options {
                for e in self.option_entries(o) {
                    p.entries.push(Entry {
                        item: ItemId(new_id[e.item.0 as usize]),
                        colour: e.colour,
                    });
                }
                p.option_start.push(p.entries.len() as u32);
                p.costs.push(self.cost(o));
            }
            parts.push(p);
        }
        Some(parts)
    }

    /// The option as Knuth's DLX format writes it: `p r x:A y`.
    pub fn format_option(&self, option: OptionId) -> String {
        let mut s = String::new();
        for (i, e) in self.option_entries(option).iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(self.item_name(e.item));
            if let Some(c) = self.colour_name(e.colour) {
                s.push(':');
                s.push_str(c);
            }
        }
        s
    }
}

/// Builds a [`Problem`]: declare items, then add options by item id or by name.
///
/// ```
/// use dancelinks::engine::{ProblemBuilder, Solver, Budget};
/// let mut b = ProblemBuilder::new();
/// for name in ["p", "q", "r"] { b.primary(name).unwrap(); }
/// for name in ["x", "y"] { b.secondary(name).unwrap(); }
/// for opt in ["p q x y:A", "p r x:A y", "p x:B", "q x:A", "r y:B"] {
///     b.add_option_named(opt, 0).unwrap();
/// }
/// let problem = b.build().unwrap();
/// let outcome = Solver::new(&problem).count(&Budget::unlimited());
/// assert_eq!(outcome.stats.solutions(), 1);
/// ```
#[derive(Debug, Default)]
pub struct ProblemBuilder {
    p: Problem,
    colour_index: HashMap<String, Colour>,
    /// Scratch: for duplicate detection within one option, the option number + 1 that last
    /// used each item (Knuth's `aux` trick).
    last_use: Vec<u32>,
}

/// Whether an item or colour name can be written in the DLX format (and read back): non-empty,
/// without whitespace (which separates the tokens), NUL (which the readers refuse), `:` (which
/// starts a colour) or `|` (which starts the secondary items, a multiplicity or a cost).
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && !name
            .chars()
            .any(|c| c.is_whitespace() || c == '\0' || c == ':' || c == '|')
}

impl ProblemBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        let mut b = ProblemBuilder::default();
        b.p.option_start.push(0);
        b
    }

    fn declare(&mut self, name: &str, primary: bool) -> Result<ItemId, BuildError> {
        if !valid_name(name) {
            return Err(BuildError::InvalidItemName(name.to_string()));
        }
        if self.p.item_index.contains_key(name) {
            return Err(BuildError::DuplicateItem(name.to_string()));
        }
        let id = ItemId(self.p.item_names.len() as u32);
        self.p.item_names.push(name.to_string());
        self.p.item_primary.push(primary);
        self.p
            .item_bounds
            .push(if primary { (1, 1) } else { (0, 1) });
        self.p.item_index.insert(name.to_string(), id);
        self.last_use.push(0);
        Ok(id)
    }

    /// Declares a primary item: it must be covered exactly once. Primary items are branched
    /// on in declaration order on ties, so the order matters for the size of the search tree.
    pub fn primary(&mut self, name: &str) -> Result<ItemId, BuildError> {
        self.declare(name, true)
    }

    /// Declares a primary item that must be covered at least `u` and at most `v` times
    /// (DLX3's `u:v|name`; `1:1` is [`ProblemBuilder::primary`]). Options still use it at most
    /// once each.
    pub fn primary_with_bounds(
        &mut self,
        name: &str,
        u: u32,
        v: u32,
    ) -> Result<ItemId, BuildError> {
        if v == 0 || u > v {
            return Err(BuildError::BadMultiplicity(u, v));
        }
        let id = self.declare(name, true)?;
        self.p.item_bounds[id.0 as usize] = (u, v);
        Ok(id)
    }

    /// Declares a secondary item: covered at most once, or by any number of options that all
    /// give it the same colour.
    pub fn secondary(&mut self, name: &str) -> Result<ItemId, BuildError> {
        self.declare(name, false)
    }

    /// The item declared as `name`, if any.
    pub fn item_id(&self, name: &str) -> Option<ItemId> {
        self.p.item_id(name)
    }

    /// Interns a colour name.
    pub fn colour(&mut self, name: &str) -> Result<Colour, BuildError> {
        if !valid_name(name) {
            return Err(BuildError::InvalidColour(name.to_string()));
        }
        if let Some(&c) = self.colour_index.get(name) {
            return Ok(c);
        }
        self.p.colour_names.push(name.to_string());
        let c = Colour(self.p.colour_names.len() as u32);
        self.colour_index.insert(name.to_string(), c);
        Ok(c)
    }

    /// Adds an option with the given cost (0 when costs do not matter). Returns
    /// `Err(BuildError::NoPrimaryItem)` for an option without primary items, which is then not
    /// added (the DLX reader turns this into a warning, as DLX1 does).
    pub fn add_option(
        &mut self,
        entries: impl IntoIterator<Item = Entry>,
        cost: i64,
    ) -> Result<OptionId, BuildError> {
        let start = self.p.entries.len();
        let stamp = self.p.costs.len() as u32 + 1;
        let mut has_primary = false;
        let mut result = Ok(());
        for e in entries {
            let k = e.item.0 as usize;
            if k >= self.p.item_names.len() {
                result = Err(BuildError::UnknownItemId(e.item.0));
                break;
            }
            if self.last_use[k] == stamp {
                result = Err(BuildError::ItemTwiceInOption(self.p.item_names[k].clone()));
                break;
            }
            if self.p.item_primary[k] {
                if !e.colour.is_none() {
                    result = Err(BuildError::ColourOnPrimary(self.p.item_names[k].clone()));
                    break;
                }
                has_primary = true;
            } else if e.colour.0 as usize > self.p.colour_names.len() {
                result = Err(BuildError::InvalidColour(format!("#{}", e.colour.0)));
                break;
            }
            self.last_use[k] = stamp;
            self.p.entries.push(e);
        }
        if result.is_ok() && !has_primary {
            result = Err(BuildError::NoPrimaryItem);
        }
        let total = self.p.entries.len() as u64
            + self.p.costs.len() as u64
            + self.p.item_names.len() as u64;
        if result.is_ok() && total >= MAX_NODES {
            result = Err(BuildError::TooLarge(MAX_NODES));
        }
        if let Err(e) = result {
            // Undo: the option is not added; forget the stamps it set.
            for e in self.p.entries.drain(start..) {
                self.last_use[e.item.0 as usize] = 0;
            }
            return Err(e);
        }
        self.p.option_start.push(self.p.entries.len() as u32);
        self.p.costs.push(cost);
        Ok(OptionId(self.p.costs.len() as u32 - 1))
    }

    /// Adds an option written as in Knuth's DLX format, `p r x:A y`.
    pub fn add_option_named(&mut self, spec: &str, cost: i64) -> Result<OptionId, BuildError> {
        let mut entries = Vec::new();
        for token in spec.split_whitespace() {
            let (name, colour) = match token.split_once(':') {
                Some((n, c)) => (n, Some(c)),
                None => (token, None),
            };
            let item = self
                .item_id(name)
                .ok_or_else(|| BuildError::UnknownItem(name.to_string()))?;
            let colour = match colour {
                None => Colour::NONE,
                Some(c) => {
                    if self.p.is_primary(item) {
                        return Err(BuildError::ColourOnPrimary(name.to_string()));
                    }
                    self.colour(c)?
                }
            };
            entries.push(Entry { item, colour });
        }
        self.add_option(entries, cost)
    }

    /// The problem, or [`BuildError::NoItems`] if no item was declared.
    pub fn build(self) -> Result<Problem, BuildError> {
        if self.p.item_names.is_empty() {
            return Err(BuildError::NoItems);
        }
        Ok(self.p)
    }
}

impl fmt::Display for ItemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "item#{}", self.0)
    }
}

/// FNV-1a, 64 bits, over `bytes`: a hash that is the same on every machine and every version
/// of Rust (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`). Fingerprints and the
/// checks of records are made of it.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = Fnv(FNV_OFFSET);
    h.bytes(bytes);
    h.0
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a fed piece by piece.
struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= u64::from(x);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn u64(&mut self, x: u64) {
        self.bytes(&x.to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.bytes(s.as_bytes());
    }
}

impl Problem {
    /// A stable 64-bit hash of the problem as parsed: the items (names, primary or secondary,
    /// in order), the options in order with their items, colours (by name) and costs. Shards of
    /// one run have the same fingerprint; another input, or the same options in another order
    /// (which changes the split), has another. Comments, spacing and line numbers do not count.
    pub fn fingerprint(&self) -> u64 {
        let mut h = Fnv(FNV_OFFSET);
        h.bytes(b"xcover-problem-1");
        h.u64(self.item_count() as u64);
        for item in self.items() {
            h.bytes(&[u8::from(self.is_primary(item))]);
            h.str(self.item_name(item));
        }
        h.u64(self.option_count() as u64);
        for o in self.options() {
            let entries = self.option_entries(o);
            h.u64(entries.len() as u64);
            for e in entries {
                h.u64(u64::from(e.item.0));
                h.str(self.colour_name(e.colour).unwrap_or(""));
            }
            h.u64(self.cost(o) as u64);
        }
        h.0
    }

    /// [`Problem::fingerprint`] as 16 lowercase hexadecimal digits.
    pub fn fingerprint_hex(&self) -> String {
        format!("{:016x}", self.fingerprint())
    }
}

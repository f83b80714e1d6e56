//! The dance's data structure, in the style of Knuth's DLX1 and DLX2, and how it is built
//! from a [`Problem`].
//!
//! # The data structure
//!
//! One flat array `nd` of 16-byte nodes `{up, down, itm, color}`; every link is a `u32` array
//! index. For a problem with N items and options `o1, o2, ...`:
//!
//! ```text
//!  index:  0     1 .. N         N+1      N+2 .. N+1+|o1|   next     ...
//!          ---   item headers   spacer   nodes of o1       spacer   nodes of o2 ...
//!                itm = length   itm = 0                    itm = -1
//! ```
//!
//! * Nodes `1..=N` are the item headers, primary items first (in declaration order), then
//!   secondary ones. A header's `itm` slot holds the item's current length (number of options
//!   still in its list); `up`/`down` make the circular list of the options that contain it.
//! * Each option is a run of consecutive nodes, one per item, whose `itm` is the header index.
//!   Between options sit spacer nodes with `itm <= 0`: a spacer's `up` points to the first node
//!   of the option before it and its `down` to the last node of the option after it, so an
//!   option is walked circularly without left/right links.
//! * `color` is 0 for "no colour", a colour number for a coloured secondary item, and -1 for a
//!   node whose item has been purified to the node's colour (DLX2). A spacer's `color` holds
//!   the size of the option before it less one: the nodes that hiding that option removes.
//! * A second array `cl` of `{prev, next}` links holds two rings: the active primary items,
//!   headed by `cl[0]`, and the secondary items, headed by `cl[N+1]`. Only primary items are
//!   ever chosen for branching.

use crate::engine::problem::{Entry, ItemId, OptionId, Problem};

/// One node of `nd`: an item header, an option's node, or a spacer (see the module doc).
#[derive(Copy, Clone, Debug, Default)]
#[repr(C)]
pub(super) struct Node {
    pub(super) up: u32,
    pub(super) down: u32,
    /// Header index for an option node; the length for a header; `<= 0` for a spacer.
    pub(super) itm: i32,
    pub(super) color: i32,
}

/// One entry of the item rings `cl`.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Link {
    pub(super) prev: u32,
    pub(super) next: u32,
}

/// The linked structure; its operations are the dance (`dance.rs`). Kept apart
/// from the search state so that the hot functions borrow only what they touch.
pub(super) struct Links {
    pub(super) nd: Vec<Node>,
    pub(super) cl: Vec<Link>,
    /// Index of the first spacer: headers are `1..last_itm`.
    pub(super) last_itm: u32,
    /// The colour each secondary item is purified to, 0 for none, by header index (not
    /// slot): what the memo's key records of coloured items
    /// ([`Memo`](crate::engine::Memo)).
    pub(super) purified: Vec<i32>,
    /// The slot of the first secondary item's header (`last_itm` when there is none).
    pub(super) first_secondary: u32,
}

pub(super) const ROOT: u32 = 0;

// Node references are *slots*: twice the node's index in `nd`, so that a reference times 8 is
// the node's byte offset, which x86 can scale in an address without a shift (a 16-byte
// stride cannot be). Consecutive nodes are `STEP` apart. Item headers are referenced by slot
// too, and the item rings `cl` are indexed by the header's slot (odd entries unused).
//
// The hot functions index through raw pointers without bounds checks. Every reference stored
// in `nd` and `cl` is created in `Links::build` and stays within the arrays, which
// never change size after construction; `debug_assert!` checks each access in tests.
pub(super) const STEP: u32 = 2;

macro_rules! at {
    ($base:expr, $len:expr, $r:expr) => {{
        let r = $r as usize;
        debug_assert!(r % 2 == 0 && r / 2 < $len);
        unsafe {
            &mut *($base as *mut u8)
                .add(r * 8)
                .cast::<$crate::engine::search::dlx::links::Node>()
        }
    }};
}
macro_rules! nd {
    ($l:expr, $r:expr) => {{
        let len = $l.nd.len();
        let base = $l.nd.as_mut_ptr();
        $crate::engine::search::dlx::links::at!(base, len, $r)
    }};
}
macro_rules! cl {
    ($l:expr, $i:expr) => {{
        let i = $i as usize;
        debug_assert!(i < $l.cl.len());
        unsafe { $l.cl.get_unchecked_mut(i) }
    }};
}
pub(super) use {at, cl, nd};

/// The links built from a problem's options, with the maps between items, options and nodes
/// through which the solver reads them ([`Links::build`]).
pub(super) struct Built {
    pub(super) links: Links,
    /// Header slot of each item.
    pub(super) header_of_item: Vec<u32>,
    /// Item of each header index (index 0 unused).
    pub(super) item_of_header: Vec<ItemId>,
    /// Option of each node (`u32::MAX` for headers and spacers).
    pub(super) node_option: Vec<u32>,
    /// First node (slot) of each option, or 0 when the option was left out.
    pub(super) first_node: Vec<u32>,
}

/// How many options ahead [`Links::build`] prefetches their entries, and how many it
/// locates at once.
const PREFETCH_AHEAD: usize = 8;
const PREFETCH_CHUNK: usize = 4096;

/// A hint to bring the cache line at `p` into the cache (nothing on other targets).
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it never faults, whatever the address.
    #[allow(unused_unsafe)]
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

impl Links {
    /// The links of the given options of `problem`, inserted into the item lists in the order
    /// given (see `Solver::with_options`). Each option may
    /// appear once.
    pub(super) fn build(problem: &Problem, options: impl IntoIterator<Item = OptionId>) -> Built {
        let n_items = problem.item_count();
        let mut header_of_item = vec![0u32; n_items];
        let mut item_of_header = vec![ItemId(0); n_items + 1];
        let mut h = 1u32;
        for primary in [true, false] {
            for item in problem
                .items()
                .filter(|&i| problem.is_primary(i) == primary)
            {
                header_of_item[item.0 as usize] = h;
                item_of_header[h as usize] = item;
                h += 1;
            }
        }
        let second = 1 + problem.primary_count() as u32;
        let last_itm = n_items as u32 + 1;
        // Rings: 0 <-> primaries <-> 0, and last_itm <-> secondaries <-> last_itm.
        let mut cl = vec![Link::default(); last_itm as usize + 1];
        let ring = |cl: &mut Vec<Link>, head: u32, first: u32, end: u32| {
            let mut prev = head;
            for k in first..end {
                cl[prev as usize].next = k;
                cl[k as usize].prev = prev;
                prev = k;
            }
            cl[prev as usize].next = head;
            cl[head as usize].prev = prev;
        };
        ring(&mut cl, ROOT, 1, second);
        ring(&mut cl, last_itm, second, last_itm);

        let mut nd: Vec<Node> = Vec::with_capacity(
            last_itm as usize + 1 + problem.entry_count() + problem.option_count(),
        );
        nd.push(Node::default());
        for k in 1..last_itm {
            nd.push(Node {
                up: k,
                down: k,
                itm: 0,
                // Secondary items may run out of options ([`shorten`]).
                color: if k < second { 0 } else { -1 },
            });
        }
        let mut node_option = Vec::with_capacity(nd.capacity());
        node_option.resize(last_itm as usize, u32::MAX);
        let mut first_node = vec![0u32; problem.option_count()];
        // The first spacer.
        nd.push(Node::default());
        node_option.push(u32::MAX);
        let mut spacer = last_itm;
        let mut count = 0i32;
        // An order far from the problem's (best first, say) reads the options' entries all
        // over the problem (a million options at n = 1000 queens): for a chunk of options at
        // a time, a tight first loop finds where they are, many cache misses at once, and the
        // main loop fetches each option's entries a few options ahead.
        let mut options = options.into_iter();
        let mut chunk: Vec<(OptionId, &[Entry])> = Vec::with_capacity(PREFETCH_CHUNK);
        loop {
            chunk.clear();
            chunk.extend(
                options
                    .by_ref()
                    .take(PREFETCH_CHUNK)
                    .map(|o| (o, problem.option_entries(o))),
            );
            if chunk.is_empty() {
                break;
            }
            for (i, &(opt, entries)) in chunk.iter().enumerate() {
                if let Some(&(_, ahead)) = chunk.get(i + PREFETCH_AHEAD) {
                    prefetch(ahead.as_ptr());
                }
                assert!(
                    first_node[opt.0 as usize] == 0,
                    "option {} given twice to Solver::with_options",
                    opt.0
                );
                first_node[opt.0 as usize] = spacer + 1;
                for e in entries {
                    let k = header_of_item[e.item.0 as usize];
                    let x = nd.len() as u32;
                    let up = nd[k as usize].up;
                    nd[up as usize].down = x;
                    nd[k as usize].up = x;
                    nd[k as usize].itm += 1;
                    nd.push(Node {
                        up,
                        down: k,
                        itm: k as i32,
                        color: e.colour.0 as i32,
                    });
                    node_option.push(opt.0);
                }
                let last = nd.len() as u32 - 1;
                nd[spacer as usize].down = last;
                count += 1;
                spacer = nd.len() as u32;
                nd.push(Node {
                    up: first_node[opt.0 as usize],
                    down: 0,
                    itm: -count,
                    // The option's other nodes: what hiding it removes (see `hide_plain`).
                    color: entries.len() as i32 - 1,
                });
                node_option.push(u32::MAX);
            }
        }
        // Everything above is in node indices; the links store slots (see `STEP`).
        for node in nd.iter_mut() {
            node.up *= STEP;
            node.down *= STEP;
        }
        for node in nd.iter_mut().skip(last_itm as usize + 1) {
            if node.itm > 0 {
                node.itm *= STEP as i32;
            }
        }
        let mut cl_slots = vec![Link::default(); cl.len() * STEP as usize];
        for (k, link) in cl.iter().enumerate() {
            cl_slots[k * STEP as usize] = Link {
                prev: link.prev * STEP,
                next: link.next * STEP,
            };
        }
        let cl = cl_slots;
        let last_itm = last_itm * STEP;
        for h in header_of_item.iter_mut() {
            *h *= STEP;
        }
        for f in first_node.iter_mut() {
            *f *= STEP;
        }
        Built {
            links: Links {
                nd,
                cl,
                last_itm,
                purified: vec![0; n_items + 1],
                first_secondary: second * STEP,
            },
            header_of_item,
            item_of_header,
            node_option,
            first_node,
        }
    }
}

//! The frontier order of a problem's primary items: the order in which the memoised dance
//! in frontier order ([`Solver::in_frontier_order`](super::dlx::Solver::in_frontier_order))
//! branches. A breadth-first order of the graph of primary items that share an option, from
//! an end of a longest shortest path (Cuthill and McKee's idea): on a grid it sweeps the
//! board diagonal by diagonal, so the covered cells form a staircase whose edge, the only
//! part of the board a sub-problem can differ in, stays as narrow as the board.

use crate::engine::problem::Problem;

/// Each item's rank in the frontier order of the primary items (`frontier_rank`), by item
/// number; `u32::MAX` for a secondary item.
pub(crate) fn frontier_ranks(problem: &Problem) -> Vec<u32> {
    let mut declared = vec![u32::MAX; problem.item_count()];
    let mut p = 0;
    for i in problem.items().filter(|&i| problem.is_primary(i)) {
        declared[i.0 as usize] = p;
        p += 1;
    }
    let rank = frontier_rank(problem, &declared, p as usize);
    declared
        .iter()
        .map(|&d| {
            if d == u32::MAX {
                u32::MAX
            } else {
                rank[d as usize]
            }
        })
        .collect()
}

/// The branching order: for each primary item (by its index among
/// the primary items, `declared`), its rank in a breadth-first order of the graph of primary
/// items that share an option, started from an end of a longest shortest path (found by two
/// sweeps), neighbours taken in declaration order; each part of the graph in turn.
fn frontier_rank(problem: &Problem, declared: &[u32], p: usize) -> Vec<u32> {
    // The graph as one array of neighbour lists (`adjacent[start[a]..start[a + 1]]`, sorted,
    // no repeats), built in two passes over the options: a list per item would cost an
    // allocation or more per item and per option, a tenth of a millisecond on a sudoku —
    // half the memo's share of a short count.
    let primaries_of = |o| {
        problem
            .option_entries(o)
            .iter()
            .map(|e| declared[e.item.0 as usize])
            .filter(|&x| x != u32::MAX)
    };
    let mut start = vec![0usize; p + 1];
    for o in problem.options() {
        let n = primaries_of(o).count();
        for a in primaries_of(o) {
            start[a as usize + 1] += n - 1;
        }
    }
    for a in 0..p {
        start[a + 1] += start[a];
    }
    let mut adjacent = vec![0u32; start[p]];
    let mut fill = start.clone();
    for o in problem.options() {
        for a in primaries_of(o) {
            for b in primaries_of(o) {
                if a != b {
                    adjacent[fill[a as usize]] = b;
                    fill[a as usize] += 1;
                }
            }
        }
    }
    // Sorted without repeats, each list moved down to its new start.
    let mut end = 0;
    for a in 0..p {
        let (from, to) = (start[a], start[a + 1]);
        adjacent[from..to].sort_unstable();
        start[a] = end;
        let mut last = u32::MAX;
        for k in from..to {
            let b = adjacent[k];
            if b != last {
                adjacent[end] = b;
                end += 1;
                last = b;
            }
        }
    }
    start[p] = end;
    let neighbours = |x: usize| &adjacent[start[x]..start[x + 1]];
    let bfs = |start: u32, seen: &mut Vec<bool>, out: &mut Vec<u32>| {
        let from = out.len();
        seen[start as usize] = true;
        out.push(start);
        let mut k = from;
        while k < out.len() {
            let x = out[k] as usize;
            k += 1;
            for &y in neighbours(x) {
                if !seen[y as usize] {
                    seen[y as usize] = true;
                    out.push(y);
                }
            }
        }
    };
    let mut rank = vec![u32::MAX; p];
    let mut order: Vec<u32> = Vec::with_capacity(p);
    let mut placed = vec![false; p];
    for s in 0..p as u32 {
        if placed[s as usize] {
            continue;
        }
        // Two sweeps: the last item reached from `s`, then the last reached from that one.
        let mut end = s;
        for _ in 0..2 {
            let mut seen = placed.clone();
            let mut sweep = Vec::new();
            bfs(end, &mut seen, &mut sweep);
            end = *sweep.last().expect("the start itself");
        }
        bfs(end, &mut placed, &mut order);
    }
    for (r, &x) in order.iter().enumerate() {
        rank[x as usize] = r as u32;
    }
    rank
}

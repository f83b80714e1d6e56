//! The cliques of the queens graph beyond its lines, for relax-and-cut in the Lagrangian bound
//! (issue 14 §1): two families, in every size k ≥ 1,
//!
//! - **squares**: the four corners of a k×k square (k the distance between its ranks), plus
//!   its centre when k is even;
//! - **diamonds**: a centre square and the four squares at distance k along its rank and file.
//!
//! Any two squares of such a set attack each other (corners share a rank, a file or a
//! diagonal; the centre of a square lies on both of its diagonals; adjacent arms of a diamond
//! share a diagonal, opposite ones the centre's rank or file), so at most one queen stands in
//! it: `Σ x ≤ 1` is valid, and so is it for the part of a set that lies on the board. The
//! members off the board are dropped; a set whose members all lie on one line adds nothing to
//! the line's own constraint and is not made.
//!
//! The assignment of the bound is a permutation, so it can break such a constraint only
//! through two queens on a common diagonal; [`Cliques::containing`] lists the (at most five)
//! sets of the families holding a given pair of squares on a diagonal, which is all the
//! separation needs. Sets are made once and numbered ([`Cliques::members`]).

use std::collections::HashMap;

/// The most squares of one clique of the families.
pub(super) const MAX_MEMBERS: usize = 5;

/// The cliques met so far, numbered in the order they were made.
pub(super) struct Cliques {
    n: usize,
    /// Key (family, anchor, size) → number.
    ids: HashMap<u64, u32>,
    /// Members of each clique (square indices r·n + c), `len` of them.
    members: Vec<[u32; MAX_MEMBERS]>,
    len: Vec<u8>,
}

impl Cliques {
    pub(super) fn new(n: usize) -> Self {
        Cliques {
            n,
            ids: HashMap::new(),
            members: Vec::new(),
            len: Vec::new(),
        }
    }

    /// How many cliques have been made.
    pub(super) fn len(&self) -> usize {
        self.members.len()
    }

    /// The squares (r·n + c) of clique `id`.
    pub(super) fn members(&self, id: u32) -> &[u32] {
        &self.members[id as usize][..self.len[id as usize] as usize]
    }

    /// Appends to `out` the numbers of the cliques of the two families that hold both squares
    /// (r1, c1) and (r2, c2), which must be distinct and on a common diagonal.
    pub(super) fn containing(&mut self, a: (usize, usize), b: (usize, usize), out: &mut Vec<u32>) {
        let ((r1, c1), (r2, c2)) = if a.0 < b.0 { (a, b) } else { (b, a) };
        debug_assert!(r1 < r2 && r2 - r1 == c1.abs_diff(c2));
        let (r1, c1, r2, c2) = (r1 as i64, c1 as i64, r2 as i64, c2 as i64);
        let d = r2 - r1;
        // +1 when the second square lies down and to the right of the first.
        let s = (c2 - c1).signum();
        // The square with the two as opposite corners.
        self.square(r1, c1.min(c2), d, out);
        // The square of size 2d with one as a corner and the other as its centre.
        self.square(r1, c1.min(c1 + 2 * d * s), 2 * d, out);
        self.square(r2 - 2 * d, c2.min(c2 - 2 * d * s), 2 * d, out);
        // The diamonds of size d with the two as adjacent arms.
        self.diamond(r2, c1, d, out);
        self.diamond(r1, c2, d, out);
    }

    /// The square with top-left corner (r, c) (possibly off the board) and size k.
    fn square(&mut self, r: i64, c: i64, k: i64, out: &mut Vec<u32>) {
        let mut sq = vec![(r, c), (r, c + k), (r + k, c), (r + k, c + k)];
        if k % 2 == 0 {
            sq.push((r + k / 2, c + k / 2));
        }
        self.make(0, r, c, k, &sq, out);
    }

    /// The diamond with centre (r, c) (on the board) and size k.
    fn diamond(&mut self, r: i64, c: i64, k: i64, out: &mut Vec<u32>) {
        let sq = [(r, c), (r - k, c), (r + k, c), (r, c - k), (r, c + k)];
        self.make(1, r, c, k, &sq, out);
    }

    fn make(&mut self, family: u64, r: i64, c: i64, k: i64, sq: &[(i64, i64)], out: &mut Vec<u32>) {
        let n = self.n as i64;
        // Anchors lie in (−2n, 2n), sizes below 2n.
        let key =
            family | ((r + 2 * n) as u64) << 1 | ((c + 2 * n) as u64) << 22 | (k as u64) << 43;
        if let Some(&id) = self.ids.get(&key) {
            if id != u32::MAX {
                out.push(id);
            }
            return;
        }
        let on: Vec<(i64, i64)> = sq
            .iter()
            .copied()
            .filter(|&(r, c)| (0..n).contains(&r) && (0..n).contains(&c))
            .collect();
        let same = |f: fn(&(i64, i64)) -> i64| on.iter().all(|p| f(p) == f(&on[0]));
        let one_line = on.len() < 3
            || same(|p| p.0)
            || same(|p| p.1)
            || same(|p| p.0 + p.1)
            || same(|p| p.0 - p.1);
        if one_line {
            self.ids.insert(key, u32::MAX);
            return;
        }
        let id = self.members.len() as u32;
        let mut m = [0u32; MAX_MEMBERS];
        for (x, &(r, c)) in m.iter_mut().zip(&on) {
            *x = (r * n + c) as u32;
        }
        self.members.push(m);
        self.len.push(on.len() as u8);
        self.ids.insert(key, id);
        out.push(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attack(n: usize, a: u32, b: u32) -> bool {
        let (r1, c1) = (a as usize / n, a as usize % n);
        let (r2, c2) = (b as usize / n, b as usize % n);
        r1 == r2 || c1 == c2 || r1 + c2 == r2 + c1 || r1 + c1 == r2 + c2
    }

    /// Every set made is a clique holding the pair it was made for, and every pair on a
    /// diagonal lies in at most five of them.
    #[test]
    fn sets_are_cliques_holding_the_pair() {
        for n in 2..=9 {
            let mut cl = Cliques::new(n);
            let mut out = Vec::new();
            for a in 0..n * n {
                for b in 0..n * n {
                    let (r1, c1, r2, c2) = (a / n, a % n, b / n, b % n);
                    if r1 >= r2 || r2 - r1 != c1.abs_diff(c2) {
                        continue;
                    }
                    out.clear();
                    cl.containing((r1, c1), (r2, c2), &mut out);
                    assert!(out.len() <= 5);
                    for &id in &out {
                        let m = cl.members(id);
                        assert!(m.contains(&(a as u32)) && m.contains(&(b as u32)));
                        for (i, &x) in m.iter().enumerate() {
                            for &y in &m[i + 1..] {
                                assert!(x != y && attack(n, x, y), "n={n} {m:?}");
                            }
                        }
                    }
                }
            }
        }
    }
}

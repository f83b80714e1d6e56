//! The 8 symmetries of the square (the dihedral group D4) acting on n-queens solutions.
//!
//! A solution is given by its columns `q[0..n]`: the queen of rank `r` stands in file `q[r]`.
//! Every symmetry of the square maps a solution to a solution (it maps ranks, files and both
//! families of diagonals onto ranks, files and diagonals), so the solutions fall into classes,
//! the *fundamental* solutions. A class has 8, 4 or 2 members (1 only for n = 1): 8 divided by
//! the number of symmetries that fix the solution. No solution with n > 1 is fixed by a
//! reflection, so the stabiliser is {id}, {id, rot180} or the rotation group {id, rot90,
//! rot180, rot270}.
//!
//! The representative of a class is its lexicographically smallest member.

/// The symmetries, as maps of a square `(rank, file)` on an n×n board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// The identity: `(r, c) -> (r, c)`.
    Identity,
    /// Quarter turn: `(r, c) -> (c, n-1-r)`.
    Rot90,
    /// Half turn: `(r, c) -> (n-1-r, n-1-c)`.
    Rot180,
    /// Three-quarter turn: `(r, c) -> (n-1-c, r)`.
    Rot270,
    /// Left-right mirror (files reversed): `(r, c) -> (r, n-1-c)`.
    MirrorFiles,
    /// Top-bottom mirror (ranks reversed): `(r, c) -> (n-1-r, c)`.
    MirrorRanks,
    /// Reflection in the main diagonal: `(r, c) -> (c, r)`.
    Transpose,
    /// Reflection in the anti-diagonal: `(r, c) -> (n-1-c, n-1-r)`.
    AntiTranspose,
}

impl Symmetry {
    /// The eight symmetries, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rot90,
        Symmetry::Rot180,
        Symmetry::Rot270,
        Symmetry::MirrorFiles,
        Symmetry::MirrorRanks,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The image of square `(r, c)` on an n×n board.
    #[inline]
    pub fn map(self, n: usize, r: usize, c: usize) -> (usize, usize) {
        let m = n - 1;
        match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rot90 => (c, m - r),
            Symmetry::Rot180 => (m - r, m - c),
            Symmetry::Rot270 => (m - c, r),
            Symmetry::MirrorFiles => (r, m - c),
            Symmetry::MirrorRanks => (m - r, c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (m - c, m - r),
        }
    }

    /// The image of a solution (or of any permutation `q`) as columns, written into `out`.
    pub fn apply(self, q: &[u8], out: &mut [u8]) {
        let n = q.len();
        debug_assert_eq!(out.len(), n);
        for (r, &c) in q.iter().enumerate() {
            let (r2, c2) = self.map(n, r, c as usize);
            out[r2] = c2 as u8;
        }
    }
}

/// The largest board the fixed-size scratch buffers here handle.
const MAX: usize = 64;

/// All 8 images of `q` (with repetitions when `q` is symmetric), identity first.
pub fn images(q: &[u8]) -> Vec<Vec<u8>> {
    Symmetry::ALL
        .iter()
        .map(|s| {
            let mut out = vec![0u8; q.len()];
            s.apply(q, &mut out);
            out
        })
        .collect()
}

/// The lexicographically smallest image of `q`: the representative of its class.
pub fn canonical(q: &[u8]) -> Vec<u8> {
    images(q).into_iter().min().expect("8 images")
}

/// The number of distinct images of `q`: the size of its class (8, 4, 2, or 1 for n = 1).
pub fn class_size(q: &[u8]) -> u8 {
    let mut all = images(q);
    all.sort();
    all.dedup();
    all.len() as u8
}

impl Symmetry {
    /// The symmetry as `(transpose, reverse ranks, reverse files)`: the image of `q` is
    /// `img[r] = f(src[r'])` with `src` the inverse permutation of `q` when transposing (else
    /// `q`), `r' = n-1-r` when reversing ranks (else `r`), `f(x) = n-1-x` when reversing
    /// files (else `x`).
    pub const fn parts(self) -> (bool, bool, bool) {
        match self {
            Symmetry::Identity => (false, false, false),
            Symmetry::MirrorFiles => (false, false, true),
            Symmetry::MirrorRanks => (false, true, false),
            Symmetry::Rot180 => (false, true, true),
            Symmetry::Transpose => (true, false, false),
            Symmetry::Rot90 => (true, false, true),
            Symmetry::Rot270 => (true, true, false),
            Symmetry::AntiTranspose => (true, true, true),
        }
    }
}

/// When `q` is the representative of its class (no image is lexicographically smaller),
/// the size of the class (8, 4, 2, or 1 for n = 1); otherwise `None`.
///
/// Allocation-free and lazy: each image is compared with `q` rank by rank as it is computed
/// ([`Symmetry::parts`]) and dropped at the first difference, so most images cost one or two
/// steps. It runs once per solution when fundamental solutions are counted or listed (in the
/// bits counter at every leaf of the edge part).
#[inline]
pub fn representative_class(q: &[u8]) -> Option<u8> {
    let n = q.len();
    assert!(n <= MAX, "board too large for the symmetry scratch buffer");
    if n == 0 {
        return Some(1);
    }
    let m = (n - 1) as u8;
    let mut inverse = [0u8; MAX];
    for (r, &c) in q.iter().enumerate() {
        inverse[usize::from(c)] = r as u8;
    }
    let mut fixed = 1u8; // the identity
    for s in &Symmetry::ALL[1..] {
        let (inv, rr, rv) = s.parts();
        let src: &[u8] = if inv { &inverse[..n] } else { q };
        let mut ord = std::cmp::Ordering::Equal;
        for (r, &x) in q.iter().enumerate() {
            let y = src[if rr { n - 1 - r } else { r }];
            let y = if rv { m - y } else { y };
            ord = y.cmp(&x);
            if ord.is_ne() {
                break;
            }
        }
        match ord {
            std::cmp::Ordering::Less => return None,
            std::cmp::Ordering::Equal => fixed += 1,
            std::cmp::Ordering::Greater => {}
        }
    }
    Some(8 / fixed)
}

/// Whether no image of `q` accepted by `keep` is lexicographically smaller than `q`: with
/// `keep` true everywhere, whether `q` is its class's representative. Allocation-free.
pub(crate) fn is_smallest_image_where(q: &[u8], keep: impl Fn(&[u8]) -> bool) -> bool {
    let n = q.len();
    assert!(n <= MAX, "board too large for the symmetry scratch buffer");
    let mut buf = [0u8; MAX];
    let img = &mut buf[..n];
    for s in &Symmetry::ALL[1..] {
        s.apply(q, img);
        if *img < *q && keep(img) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All permutations of 0..n that are n-queens solutions, by brute force.
    fn brute(n: usize) -> Vec<Vec<u8>> {
        fn rec(n: usize, q: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            if q.len() == n {
                out.push(q.clone());
                return;
            }
            let r = q.len();
            for c in 0..n as u8 {
                if q.iter().enumerate().all(|(r2, &c2)| {
                    c2 != c && (r - r2) != (c as isize - c2 as isize).unsigned_abs()
                }) {
                    q.push(c);
                    rec(n, q, out);
                    q.pop();
                }
            }
        }
        let mut out = Vec::new();
        rec(n, &mut Vec::new(), &mut out);
        out
    }

    #[test]
    fn symmetries_form_a_group_of_8_distinct_maps() {
        let n = 5;
        let q: Vec<u8> = vec![0, 2, 4, 1, 3];
        let imgs = images(&q);
        // A solution with trivial stabiliser has 8 distinct images.
        let mut d = imgs.clone();
        d.sort();
        d.dedup();
        assert_eq!(d.len(), 8);
        // Closed under composition: the images of any image are the same set.
        for img in &imgs {
            let mut e = images(img);
            e.sort();
            e.dedup();
            assert_eq!(e, d);
        }
        let _ = n;
    }

    #[test]
    fn images_of_solutions_are_solutions_and_classes_match_a002562() {
        // A002562 for n = 1..=9.
        let fundamental = [1usize, 0, 0, 1, 2, 1, 6, 12, 46];
        for n in 1..=9 {
            let sols = brute(n);
            let mut reps = 0;
            let mut total = 0usize;
            for q in &sols {
                for img in images(q) {
                    assert!(sols.contains(&img), "image of a solution is a solution");
                }
                let size = class_size(q);
                assert_eq!(is_smallest_image_where(q, |_| true), canonical(q) == *q);
                assert_eq!(representative_class(q).is_some(), canonical(q) == *q);
                if let Some(s) = representative_class(q) {
                    assert_eq!(s, size);
                    reps += 1;
                    total += s as usize;
                }
            }
            assert_eq!(reps, fundamental[n - 1], "n = {n}");
            assert_eq!(total, sols.len(), "class sizes add up, n = {n}");
        }
    }

    #[test]
    fn parts_give_the_same_images_as_the_maps() {
        let q: Vec<u8> = vec![1, 3, 0, 2];
        let n = q.len();
        let mut inverse = vec![0u8; n];
        for (r, &c) in q.iter().enumerate() {
            inverse[c as usize] = r as u8;
        }
        for s in Symmetry::ALL {
            let mut want = vec![0u8; n];
            s.apply(&q, &mut want);
            let (inv, rr, rv) = s.parts();
            let src = if inv { &inverse } else { &q };
            let got: Vec<u8> = (0..n)
                .map(|r| {
                    let y = src[if rr { n - 1 - r } else { r }];
                    if rv { (n - 1) as u8 - y } else { y }
                })
                .collect();
            assert_eq!(got, want, "{s:?}");
        }
    }

    #[test]
    fn eight_queens_classes_are_eleven_of_8_and_one_of_4() {
        let sols = brute(8);
        let mut sizes: Vec<u8> = sols
            .iter()
            .filter_map(|q| representative_class(q))
            .collect();
        sizes.sort();
        assert_eq!(sizes, [4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8]);
    }
}

//! Reproducible random boards for `xcover queens random`, the tests and the benchmarks: a
//! generator written out here (not taken from a crate) so that a seed gives the same boards on
//! every platform and version.

/// A tiny, documented pseudo-random generator for reproducible boards: SplitMix64 (Steele,
/// Lea and Flood 2014; the constants of Vigna's reference code). Output is the same on every
/// platform and version.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }
    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..span` (span >= 1) by rejection: draws below `2^64 mod span` are redrawn,
    /// so every value is equally likely. `span` 0 means the full 2^64 range.
    pub fn below(&mut self, span: u64) -> u64 {
        if span == 0 {
            return self.next_u64();
        }
        let reject_below = span.wrapping_neg() % span; // 2^64 mod span
        loop {
            let x = self.next_u64();
            if x >= reject_below {
                return x % span;
            }
        }
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi);
        let span = (hi as i128 - lo as i128 + 1) as u128;
        let span = if span == 1u128 << 64 { 0 } else { span as u64 };
        (lo as i128 + self.below(span) as i128) as i64
    }
}

/// `k` boards of n×n numbers in `min..=max`, row by row, from SplitMix64 seeded with `seed`:
/// board after board, rank after rank, one draw of [`SplitMix64::range`] per square.
pub fn random_boards(n: usize, k: usize, seed: u64, min: i64, max: i64) -> Vec<Vec<i64>> {
    let mut g = SplitMix64::new(seed);
    (0..k)
        .map(|_| (0..n * n).map(|_| g.range(min, max)).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // Vigna's splitmix64.c with seed 1234567: first outputs.
        let mut g = SplitMix64::new(1234567);
        assert_eq!(g.next_u64(), 6457827717110365317);
        assert_eq!(g.next_u64(), 3203168211198807973);
    }
}

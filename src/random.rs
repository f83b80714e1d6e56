//! The crate's one pseudo-random generator, SplitMix64, written out here (not taken from a
//! crate) so that a seed gives the same boards, puzzles, samples and estimates on every
//! platform and version. Every room may use it (it names no other room).

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
    /// Uniform in `0..span` for a 128-bit `span >= 1`, by rejection as [`SplitMix64::below`]
    /// (two draws a try): every value equally likely.
    pub fn below_u128(&mut self, span: u128) -> u128 {
        assert!(span >= 1, "an empty range");
        if let Ok(small) = u64::try_from(span) {
            return u128::from(self.below(small));
        }
        let reject_below = span.wrapping_neg() % span; // 2^128 mod span
        loop {
            let x = (u128::from(self.next_u64()) << 64) | u128::from(self.next_u64());
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

    #[test]
    fn below_u128_stays_in_range_and_reaches_both_ends() {
        let mut g = SplitMix64::new(3);
        let span = (1u128 << 64) + 3;
        let mut seen_low = false;
        for _ in 0..2000 {
            let x = g.below_u128(span);
            assert!(x < span);
            seen_low |= x < span / 2;
        }
        assert!(seen_low);
        assert_eq!(g.below_u128(1), 0);
        let counts = (0..3000).fold([0u32; 3], |mut c, _| {
            c[g.below_u128(3) as usize] += 1;
            c
        });
        assert!(counts.iter().all(|&c| c > 900), "{counts:?}");
    }
}

//! Weighted n-queens (issue 4).

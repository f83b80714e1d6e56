//! Word-parallel n-queens counter (issue 5).

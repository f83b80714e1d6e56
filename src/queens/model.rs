//! The n-queens exact-cover model (issue 3).

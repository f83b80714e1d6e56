//! Tests: solve

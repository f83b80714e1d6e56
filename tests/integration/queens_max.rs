//! Tests: queens_max

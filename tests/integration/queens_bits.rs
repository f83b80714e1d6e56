//! Tests: queens_bits

//! Tests: queens

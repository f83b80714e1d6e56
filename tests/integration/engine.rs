//! Tests: engine

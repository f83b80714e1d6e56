//! Knuth's DLX text format (issue 2).

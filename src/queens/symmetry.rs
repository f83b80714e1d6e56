//! The 8 symmetries of the square (issue 3).

//! The optimising layer: branch and bound over the dancing-links search (issue 4).

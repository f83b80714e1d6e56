//! Weight boards for weighted N-queens (issue 4).

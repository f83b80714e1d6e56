//! Double word squares: a k×k grid of letters whose k rows and k columns are 2k distinct words
//! of a word list (Knuth, TAOCP 7.2.2.1), an exact cover with colours (XCC).
//!
//! - primary items: the rows `a1`..`a{k}` and the columns (downs) `d1`..`d{k}`;
//! - secondary items: the cells `{i}.{j}` (1-based), coloured by their letter, then one item
//!   `w.{word}` per word, uncoloured, so that no word is used twice;
//! - options: `a{i} w.{word} {i}.1:{letter} ... {i}.{k}:{letter}` for each word and row, and
//!   `d{j} w.{word} 1.{j}:{letter} ... {k}.{j}:{letter}` for each word and column.
//!
//! A square and its transpose (rows and columns swapped) are two solutions.

use std::collections::HashMap;

use crate::engine::{Entry, OptionId, Problem, ProblemBuilder};

use super::{Model, ModelError};

/// The longest word.
pub const MAX_LEN: usize = 32;

/// The most words in a list.
pub const MAX_WORDS: usize = 1_000_000;

/// Reads a word list: one word per line, letters and digits only, all of one length; blank
/// lines and lines starting with `#` are skipped. Errors give the line and column.
pub fn parse_words(text: &str) -> Result<Vec<String>, ModelError> {
    let mut words = Vec::new();
    let mut first_line: HashMap<String, usize> = HashMap::new();
    let mut len = None;
    for (i, raw) in text.lines().enumerate() {
        let at = |column: usize, message: String| ModelError::At {
            line: i + 1,
            column,
            message,
        };
        let lead = raw.chars().count() - raw.trim_start().chars().count();
        let word = raw.trim();
        if word.is_empty() || word.starts_with('#') {
            continue;
        }
        if let Some((j, ch)) = word.chars().enumerate().find(|(_, c)| !c.is_alphanumeric()) {
            return Err(at(
                lead + j + 1,
                format!(
                    "'{}' in a word (one word per line, letters and digits only)",
                    ch.escape_default()
                ),
            ));
        }
        let n = word.chars().count();
        if n > MAX_LEN {
            return Err(at(
                lead + 1,
                format!("a word has at most {MAX_LEN} letters, not {n}"),
            ));
        }
        match len {
            None => len = Some((n, i + 1)),
            Some((k, line)) if k != n => {
                return Err(at(
                    lead + 1,
                    format!("'{word}' has {n} letters, but the word on line {line} has {k}"),
                ));
            }
            Some(_) => {}
        }
        if let Some(line) = first_line.get(word) {
            return Err(at(lead + 1, format!("'{word}' is already on line {line}")));
        }
        if words.len() == MAX_WORDS {
            return Err(at(
                lead + 1,
                format!("a word list has at most {MAX_WORDS} words"),
            ));
        }
        first_line.insert(word.to_string(), i + 1);
        words.push(word.to_string());
    }
    if words.is_empty() {
        return Err(ModelError::At {
            line: text.lines().count().max(1),
            column: 1,
            message: "the word list has no word".into(),
        });
    }
    Ok(words)
}

/// The double word squares of a word list.
#[derive(Debug, Clone)]
pub struct WordSquares {
    k: usize,
    words: Vec<Vec<char>>,
    problem: Problem,
    /// For each option: whether it is a row (else a column), its index, and the word.
    placements: Vec<(bool, usize, usize)>,
}

impl WordSquares {
    /// The problem for `words` (distinct, all of one length, letters and digits: as
    /// [`parse_words`] gives them).
    pub fn new(words: &[String]) -> Result<WordSquares, ModelError> {
        let Some(k) = words.first().map(|w| w.chars().count()) else {
            return Err(ModelError::Invalid("the word list has no word".into()));
        };
        if let Some(w) = words.iter().find(|w| w.chars().count() != k) {
            return Err(ModelError::Invalid(format!(
                "'{w}' is not of the length of '{}'",
                words[0]
            )));
        }
        // Refused before anything is built: 2k·n options of k + 2 items each.
        let nodes = (2 * k as u64) * (words.len() as u64) * (k as u64 + 3);
        if nodes > crate::engine::MAX_NODES {
            return Err(ModelError::Invalid(format!(
                "{} words of {k} letters make a problem of about {nodes} nodes, more than the \
                 engine's {}",
                words.len(),
                crate::engine::MAX_NODES
            )));
        }
        let mut b = ProblemBuilder::new();
        let rows: Vec<_> = (1..=k)
            .map(|i| b.primary(&format!("a{i}")))
            .collect::<Result<_, _>>()?;
        let cols: Vec<_> = (1..=k)
            .map(|j| b.primary(&format!("d{j}")))
            .collect::<Result<_, _>>()?;
        let mut cells = Vec::with_capacity(k * k);
        for i in 1..=k {
            for j in 1..=k {
                cells.push(b.secondary(&format!("{i}.{j}"))?);
            }
        }
        let word_items: Vec<_> = words
            .iter()
            .map(|w| b.secondary(&format!("w.{w}")))
            .collect::<Result<_, _>>()?;
        let letters: Vec<Vec<char>> = words.iter().map(|w| w.chars().collect()).collect();
        let mut colour = HashMap::new();
        for w in &letters {
            for &ch in w {
                if let std::collections::hash_map::Entry::Vacant(e) = colour.entry(ch) {
                    e.insert(b.colour(&ch.to_string())?);
                }
            }
        }
        let mut placements = Vec::new();
        for (is_row, slots) in [(true, &rows), (false, &cols)] {
            for (s, &slot) in slots.iter().enumerate() {
                for (w, word) in letters.iter().enumerate() {
                    let mut entries = vec![Entry::plain(slot), Entry::plain(word_items[w])];
                    for (t, ch) in word.iter().enumerate() {
                        let cell = if is_row { s * k + t } else { t * k + s };
                        entries.push(Entry::coloured(cells[cell], colour[ch]));
                    }
                    b.add_option(entries, 0)?;
                    placements.push((is_row, s, w));
                }
            }
        }
        Ok(WordSquares {
            k,
            words: letters,
            problem: b.build()?,
            placements,
        })
    }

    /// The rows of a solution's square, as words.
    pub fn rows(&self, solution: &[OptionId]) -> Vec<String> {
        let mut rows = vec![String::new(); self.k];
        for &o in solution {
            let (is_row, s, w) = self.placements[o.0 as usize];
            if is_row {
                rows[s] = self.words[w].iter().collect();
            }
        }
        rows
    }
}

impl Model for WordSquares {
    fn problem(&self) -> &Problem {
        &self.problem
    }
    fn title(&self) -> String {
        format!(
            "double word squares of size {} from {} words",
            self.k,
            self.words.len()
        )
    }
    /// The square, one row per line.
    fn decode(&self, solution: &[OptionId]) -> String {
        self.rows(solution)
            .iter()
            .map(|r| format!("{r}\n"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Budget;
    use crate::engine::run::Dance;
    use crate::models::{for_each_solution, solve_count};
    use std::collections::{BTreeSet, HashSet};
    use std::ops::ControlFlow;

    /// Double word squares by enumeration: every k-tuple of rows whose columns are words and
    /// whose 2k words are distinct.
    fn brute_force(words: &[String]) -> BTreeSet<Vec<String>> {
        let k = words[0].len();
        let set: HashSet<&str> = words.iter().map(String::as_str).collect();
        let mut out = BTreeSet::new();
        let mut idx = vec![0usize; k];
        loop {
            let rows: Vec<&str> = idx.iter().map(|&i| words[i].as_str()).collect();
            let cols: Vec<String> = (0..k)
                .map(|j| rows.iter().map(|r| r.as_bytes()[j] as char).collect())
                .collect();
            let mut all: Vec<&str> = rows.clone();
            all.extend(cols.iter().map(String::as_str));
            let distinct: HashSet<&str> = all.iter().copied().collect();
            if cols.iter().all(|c| set.contains(c.as_str())) && distinct.len() == 2 * k {
                out.insert(rows.iter().map(|r| r.to_string()).collect());
            }
            // Next tuple.
            let mut t = 0;
            loop {
                if t == k {
                    return out;
                }
                idx[t] += 1;
                if idx[t] < words.len() {
                    break;
                }
                idx[t] = 0;
                t += 1;
            }
        }
    }

    /// Random words over a small alphabet, so that squares exist (SplitMix64 steps).
    fn random_words(seed: u64, k: usize, n: usize, alphabet: &[u8]) -> Vec<String> {
        let mut g = crate::random::SplitMix64::new(seed);
        let mut next = || g.next_u64();
        let mut set = BTreeSet::new();
        while set.len() < n {
            let w: String = (0..k)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize] as char)
                .collect();
            set.insert(w);
        }
        set.into_iter().collect()
    }

    #[test]
    fn squares_agree_with_a_brute_force() {
        let mut total = 0;
        for seed in 0..6 {
            for (k, n) in [(2, 6), (3, 14)] {
                let words = random_words(seed, k, n, b"abc");
                let expected = brute_force(&words);
                let m = WordSquares::new(&words).unwrap();
                let mut found = BTreeSet::new();
                for_each_solution(m.problem(), &Budget::unlimited(), |s| {
                    assert!(found.insert(m.rows(s)), "a square found twice");
                    ControlFlow::Continue(())
                });
                assert_eq!(found, expected, "seed {seed}, k {k}");
                assert_eq!(
                    solve_count(m.problem(), &Budget::unlimited()),
                    expected.len() as u64
                );
                total += expected.len();
            }
        }
        assert!(total > 10, "the lists should have squares: {total}");
    }

    #[test]
    fn a_square_of_real_words() {
        let words = parse_words("cat\nore\nwed\ncow\nare\nteds\n").unwrap_err();
        assert_eq!(
            words.to_string(),
            "6:1: 'teds' has 4 letters, but the word on line 1 has 3"
        );
        let words = parse_words("# rows and columns\ncat\nore\nwed\ncow\n\nore\n").unwrap_err();
        assert_eq!(words.to_string(), "7:1: 'ore' is already on line 3");
        let words = parse_words("cat\nore\nwed\ncow\nare\nted\n").unwrap();
        let m = WordSquares::new(&words).unwrap();
        assert_eq!(solve_count(m.problem(), &Budget::unlimited()), 2);
        let s = Dance::new(m.problem()).first().unwrap();
        let square = m.decode(&s);
        assert!(
            square == "cat\nore\nwed\n" || square == "cow\nare\nted\n",
            "{square}"
        );
        assert_eq!(
            parse_words("ab\na-\n").unwrap_err().to_string(),
            "2:2: '-' in a word (one word per line, letters and digits only)"
        );
        assert!(parse_words("\n# none\n").is_err());
    }
}

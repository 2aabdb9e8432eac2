//! "Did you mean ...?" for near-miss names.

/// Edit distance between two strings, in characters, case-insensitive: insertions,
/// deletions, substitutions and swaps of two neighbours (`unti` → `unit`) each count one.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[n][m]
}

/// The closest candidate to `name`, if it is close enough to be a likely typo: at most one
/// edit for short names, two for names of six characters or more, three from twelve.
pub fn did_you_mean<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let len = name.chars().count();
    let limit = match len {
        0..=2 => 0,
        3..=5 => 1,
        6..=11 => 2,
        _ => 3,
    };
    candidates
        .iter()
        .filter(|c| **c != name)
        .map(|c| (edit_distance(name, c), *c))
        .filter(|(d, _)| *d <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(b.1)))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("guard", "guard"), 0);
        assert_eq!(edit_distance("gaurd", "guard"), 1);
        assert_eq!(edit_distance("unti", "unit"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("Swift", "swift"), 0);
    }

    #[test]
    fn suggestions() {
        let kws = ["guard", "swift", "first_strike", "exile"];
        assert_eq!(did_you_mean("gaurd", &kws), Some("guard"));
        assert_eq!(did_you_mean("swit", &kws), Some("swift"));
        assert_eq!(did_you_mean("flying", &kws), None);
        assert_eq!(
            did_you_mean("mian", &["deck", "main", "hand"]),
            Some("main")
        );
        assert_eq!(did_you_mean("firststrike", &kws), Some("first_strike"));
        assert_eq!(
            did_you_mean("SET-00", &["SET-001", "SET-002"]),
            Some("SET-001")
        );
    }
}

//! "Did you mean ...?": the closest known name to a misspelt one.

/// The candidate closest to `wrong` by edit distance (ignoring case), if it is close enough to
/// be a plausible typo: at most one edit for short names, a third of the length for long ones.
pub fn closest<'a>(wrong: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wrong_lower = wrong.to_lowercase();
    let limit = (wrong.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|candidate| *candidate != wrong)
        .map(|candidate| {
            (
                edit_distance(&wrong_lower, &candidate.to_lowercase()),
                candidate,
            )
        })
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// `did you mean `X`?` for the closest candidate, if any.
pub fn did_you_mean<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    closest(wrong, candidates).map(|name| format!("did you mean `{name}`?"))
}

/// Levenshtein distance, counting a transposition of neighbours as one edit.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut before_previous: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut current = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let substitution = previous[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            current[j] = substitution.min(previous[j] + 1).min(current[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                current[j] = current[j].min(before_previous[j - 2] + 1);
            }
        }
        before_previous = std::mem::replace(&mut previous, current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("Knigt", "Knight"), 1);
        assert_eq!(edit_distance("Kngiht", "Knight"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("rook", "rook"), 0);
    }

    #[test]
    fn suggests_close_names_only() {
        let names = ["King", "Knight", "Queen"];
        assert_eq!(closest("Knigt", names), Some("Knight"));
        assert_eq!(closest("queen", names), Some("Queen"));
        assert_eq!(closest("Elephant", names), None);
    }
}

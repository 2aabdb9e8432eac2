//! Bounds on what a scenario may ask for. Every card of a setup is an object the host
//! allocates, and an expected list `ID xN` is expanded in memory, so a count is checked
//! before anything is made: `"RF01-008 x99999999"` is an error at its line, not 11 GB.

/// Most copies one line may ask for: `ID xN`, `{card: ID, count: N}`, `{ID: N}`.
pub const MAX_CARDS_PER_LINE: u32 = 1000;

/// Most cards one zone of a scenario's setup may start with, attached cards included, and
/// most cards a deck section of `validate_deck` or `start: setup` may list.
pub const MAX_CARDS_PER_ZONE: usize = 1000;

/// Most repetitions of a step (`repeat: N`).
pub const MAX_REPEAT: u64 = 10_000;

/// `ID` or `ID xN` → the id and N (1 to [`MAX_CARDS_PER_LINE`]).
pub fn split_count(s: &str) -> Result<(String, u32), String> {
    let Some((id, n)) = s.split_once(" x") else {
        return Ok((s.trim().to_string(), 1));
    };
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("'{s}': write `ID` or `ID xN` with N a number"))?;
    if n == 0 || n > u64::from(MAX_CARDS_PER_LINE) {
        return Err(format!(
            "'{s}': a line holds 1 to {MAX_CARDS_PER_LINE} cards; split it or use fewer"
        ));
    }
    Ok((id.trim().to_string(), n as u32))
}

/// Adds `n` cards to a running `total`, failing past [`MAX_CARDS_PER_ZONE`].
pub fn add_to_zone(total: &mut usize, n: u32, what: &str) -> Result<(), String> {
    *total = total.saturating_add(n as usize);
    if *total > MAX_CARDS_PER_ZONE {
        return Err(format!(
            "{what} would hold more than {MAX_CARDS_PER_ZONE} cards: a scenario needs far fewer"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_bounded_before_anything_is_made() {
        assert_eq!(split_count("A-1").unwrap(), ("A-1".into(), 1));
        assert_eq!(split_count("A-1 x4").unwrap(), ("A-1".into(), 4));
        assert!(split_count("A-1 x0").is_err());
        assert!(split_count("A-1 x1001").is_err());
        assert!(split_count("A-1 x99999999999999999999999").is_err());
        assert!(split_count("A-1 xfour").is_err());
        let mut total = 0;
        assert!(add_to_zone(&mut total, 1000, "hand").is_ok());
        assert!(add_to_zone(&mut total, 1, "hand").is_err());
    }
}

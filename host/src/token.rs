//! Seat tokens: the secret a client shows to act for its seat. 128 bits from the operating
//! system's generator (never the game's seeded RNG, which the seed determines), as hex.

/// A new secret token: 32 lowercase hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    // The operating system's generator failing is not something a host can work around.
    getrandom::fill(&mut bytes).expect("the operating system's random generator");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `given` is `secret`, compared in a time that does not depend on where they differ.
pub fn same_token(secret: &str, given: &str) -> bool {
    let (a, b) = (secret.as_bytes(), given.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_and_differ() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert!(same_token(&a, &a.clone()));
        assert!(!same_token(&a, &b));
        assert!(!same_token(&a, ""));
    }
}

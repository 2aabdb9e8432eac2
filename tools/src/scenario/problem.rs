//! A problem of one scenario: what is wrong, and where, as a JSON pointer inside the
//! scenario (`/players/1/hand/0`). The file turns the pointer into `path:line:col`, looking
//! in the scenario first and then in `defaults:`, which was merged under it.

/// What is wrong, and where inside the scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// JSON pointer relative to the scenario (`""`: the scenario itself).
    pub at: String,
    /// One line for people.
    pub message: String,
}

impl Problem {
    /// A problem at `at`.
    pub fn new(at: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            at: at.into(),
            message: message.into(),
        }
    }

    /// The same problem one level further out: `inside` is prepended to its pointer.
    pub fn within(mut self, inside: &str) -> Problem {
        self.at = format!("{inside}{}", self.at);
        self
    }
}

/// The result of a scenario part.
pub type Checked<T> = Result<T, Problem>;

/// A pointer token for a map key (RFC 6901).
pub fn token(key: &str) -> String {
    riffle_content::yaml::escape_token(key)
}

//! Cards written as a mod (`tools/tests/fixtures/modder`), run over the repository's One Piece
//! with `riffle test --mod`: the rules hold for cards the repository does not have.

use super::{riffle, stdout};
use crate::common::{fixture_dir, repo};

#[test]
fn a_mods_scenarios_pass_over_the_repository() {
    let m = fixture_dir("modder");
    let m = m.to_str().unwrap();
    let out = riffle(&repo(), &["test", "--mod", m, m]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // OP 3-6-3: MX-001 may choose the opponent's Leader, which stays where it is.
    assert!(
        stdout(&out).ends_with("2 passed, 0 failed\n"),
        "{}",
        stdout(&out)
    );
}

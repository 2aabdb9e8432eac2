#![no_main]
//! Scenario files on arbitrary text: the input is read as a `*.test.yaml` file the way
//! `riffle test` reads it (positioned YAML → scenario schema), and when it is read, every
//! scenario runs against the repository's One Piece engine (built once). Each scenario must
//! end passed or failed with `path:line:col: message` lines; none may panic.

use std::path::PathBuf;
use std::rc::Rc;

use libfuzzer_sys::fuzz_target;
use riffle_content::load_game;
use riffle::scenario::File;
use riffle_core::Engine;

struct Rig {
    engine: Rc<Engine>,
    path: PathBuf,
}

impl Rig {
    fn new() -> Rig {
        let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let loaded = load_game(&[repo], "onepiece")
            .into_result()
            .unwrap_or_else(|d| panic!("the One Piece content has errors: {d:?}"));
        let engine =
            Engine::new(&loaded.content).unwrap_or_else(|e| panic!("the One Piece engine: {e:?}"));
        let dir = std::env::temp_dir().join(format!("riffle-fuzz-scenario-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        Rig {
            engine,
            path: dir.join("s.test.yaml"),
        }
    }
}

thread_local! {
    // libFuzzer runs inputs on one thread, one after the other.
    static RIG: Rig = Rig::new();
}

fuzz_target!(|data: &[u8]| {
    RIG.with(|rig| {
        std::fs::write(&rig.path, data).expect("write the input");
        match File::read(&rig.path) {
            Err(lines) => {
                assert!(!lines.is_empty(), "a refused file says why");
                for l in &lines {
                    assert!(l.contains("s.test.yaml:"), "no position: {l}");
                }
            }
            Ok(file) => {
                for o in file.run(&rig.engine, None) {
                    for l in &o.failures {
                        assert!(l.contains("s.test.yaml:"), "no position: {l}");
                    }
                }
            }
        }
    });
});

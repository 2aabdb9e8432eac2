//! Names declared by the ruleset (zones, counters, events...), interned to small integers.
//!
//! Scripts speak in names; the kernel works with `Sym`s. A misspelt name is an error that
//! lists the declared ones, never a silent zero.

use rustc_hash::FxHashMap;
use std::fmt;
use std::rc::Rc;

/// An interned name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// The interner: every name the ruleset, cards and scripts use (every card's printed name
/// among them). Each name is held once, shared by the lookup and the list; a hot reload's
/// copy of the names shares them too.
#[derive(Clone, Debug, Default)]
pub struct Names {
    map: FxHashMap<Rc<str>, Sym>,
    names: Vec<Rc<str>>,
}

impl Names {
    /// The symbol of `name`, interning it if new.
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(s) = self.map.get(name) {
            return *s;
        }
        let s = Sym(self.names.len() as u32);
        let name: Rc<str> = name.into();
        self.names.push(name.clone());
        self.map.insert(name, s);
        s
    }

    /// The symbol of `name` if it was ever interned.
    pub fn get(&self, name: &str) -> Option<Sym> {
        self.map.get(name).copied()
    }

    /// The name of a symbol.
    pub fn name(&self, s: Sym) -> &str {
        &self.names[s.0 as usize]
    }
}

/// How a parser that runs twice names things. The first run (content loading) interns what
/// it meets; a later run of the same text (a card's script loaded when a game first meets
/// the card) only looks up: every name it meets was interned the first time, and the
/// engine's names do not change once games run.
pub enum Interning<'a> {
    /// Intern new names.
    New(&'a mut Names),
    /// Every name is known already.
    Known(&'a Names),
}

impl Interning<'_> {
    /// The names, for lookups.
    pub fn names(&self) -> &Names {
        match self {
            Interning::New(n) => n,
            Interning::Known(n) => n,
        }
    }

    /// The symbol of `name`: interned now, or known from the first run.
    pub fn intern(&mut self, name: &str) -> Result<Sym, String> {
        match self {
            Interning::New(n) => Ok(n.intern(name)),
            Interning::Known(n) => n.get(name).ok_or_else(|| {
                format!("'{name}' was not met when the content was loaded (the script reads something that changes?)")
            }),
        }
    }
}

/// A list of declared names of one kind (zones, orientations...), for lookups by name.
#[derive(Clone, Debug, Default)]
pub struct Declared {
    /// What these names are, for error messages ("zone", "counter").
    pub kind: &'static str,
    /// Symbols in declaration order.
    pub syms: Vec<Sym>,
}

impl Declared {
    /// Position of `s` in the declaration, if declared.
    pub fn index(&self, s: Sym) -> Option<usize> {
        self.syms.iter().position(|x| *x == s)
    }
}

/// "unknown zone 'hnad' (declared: deck, hand, trash)"
pub struct UnknownName<'a> {
    pub(crate) kind: &'a str,
    pub(crate) name: &'a str,
    pub(crate) declared: Vec<&'a str>,
}

impl fmt::Display for UnknownName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.declared.is_empty() {
            return write!(
                f,
                "unknown {} '{}' (the game declares none)",
                self.kind, self.name
            );
        }
        write!(
            f,
            "unknown {} '{}' (declared: {})",
            self.kind,
            self.name,
            self.declared.join(", ")
        )
    }
}

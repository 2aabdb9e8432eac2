//! The bytes the log hash covers: a compact binary form of each entry, defined here field by
//! field so that it is the same on every machine and in every build (little-endian numbers,
//! length-prefixed strings, a tag byte per variant and per optional field). It is cheaper
//! than hashing the JSON text, and changing a serde attribute cannot change it by accident.

use super::decisions::{Choice, Request, Response};
use super::events::Event;
use super::log::Entry;
use super::values::Val;
use super::{ObjId, PlayerId};

/// Appends the binary form of a value to a buffer.
pub(crate) trait Digest {
    fn digest(&self, out: &mut Vec<u8>);
}

fn int(out: &mut Vec<u8>, v: i64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn small(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn text(out: &mut Vec<u8>, s: &str) {
    small(out, s.len() as u32);
    out.extend_from_slice(s.as_bytes());
}

fn opt<T>(out: &mut Vec<u8>, v: &Option<T>, f: impl FnOnce(&mut Vec<u8>, &T)) {
    match v {
        None => out.push(0),
        Some(x) => {
            out.push(1);
            f(out, x);
        }
    }
}

fn obj(out: &mut Vec<u8>, id: &ObjId) {
    small(out, id.0);
}

fn seat(out: &mut Vec<u8>, p: &PlayerId) {
    out.push(*p);
}

fn record(out: &mut Vec<u8>, data: &[(String, Val)]) {
    small(out, data.len() as u32);
    for (k, v) in data {
        text(out, k);
        v.digest(out);
    }
}

impl Digest for Val {
    fn digest(&self, out: &mut Vec<u8>) {
        match self {
            Val::Bool(b) => out.extend_from_slice(&[0, *b as u8]),
            Val::Int(i) => {
                out.push(1);
                int(out, *i);
            }
            Val::Card(c) => {
                out.push(2);
                obj(out, &c.card);
            }
            Val::Player(p) => out.extend_from_slice(&[3, p.player]),
            Val::Str(s) => {
                out.push(4);
                text(out, s);
            }
            Val::List(l) => {
                out.push(5);
                small(out, l.len() as u32);
                for x in l {
                    x.digest(out);
                }
            }
        }
    }
}

impl Digest for Event {
    fn digest(&self, out: &mut Vec<u8>) {
        text(out, &self.name);
        opt(out, &self.card, obj);
        opt(out, &self.old, obj);
        opt(out, &self.from, |o, z| {
            o.extend_from_slice(&z.0.to_le_bytes())
        });
        opt(out, &self.to, |o, z| {
            o.extend_from_slice(&z.0.to_le_bytes())
        });
        opt(out, &self.player, seat);
        opt(out, &self.reason, |o, s| text(o, s));
        opt(out, &self.key, |o, s| text(o, s));
        int(out, self.amount);
        record(out, &self.data);
    }
}

impl Digest for Choice {
    fn digest(&self, out: &mut Vec<u8>) {
        text(out, &self.label);
        opt(out, &self.kind, |o, s| text(o, s));
        opt(out, &self.card, obj);
        opt(out, &self.target, obj);
        record(out, &self.data);
    }
}

impl Digest for Request {
    fn digest(&self, out: &mut Vec<u8>) {
        match self {
            Request::Choose {
                player,
                prompt,
                options,
                min,
                max,
            } => {
                out.push(0);
                seat(out, player);
                text(out, prompt);
                small(out, options.len() as u32);
                for o in options {
                    o.digest(out);
                }
                small(out, *min);
                small(out, *max);
            }
            Request::Number {
                player,
                prompt,
                min,
                max,
            } => {
                out.push(1);
                seat(out, player);
                text(out, prompt);
                int(out, *min);
                int(out, *max);
            }
        }
    }
}

impl Digest for Response {
    fn digest(&self, out: &mut Vec<u8>) {
        match self {
            Response::Choose { indices } => {
                out.push(0);
                small(out, indices.len() as u32);
                for i in indices {
                    small(out, *i);
                }
            }
            Response::Number { value } => {
                out.push(1);
                int(out, *value);
            }
        }
    }
}

/// A decision entry's binary form, from borrowed parts (a log that keeps no entries needs
/// no copy of the request).
pub(super) fn decision(
    out: &mut Vec<u8>,
    player: &PlayerId,
    request: &Request,
    response: &Response,
) {
    out.push(1);
    seat(out, player);
    request.digest(out);
    response.digest(out);
}

/// An event entry's binary form, from a borrowed event.
pub(super) fn event(out: &mut Vec<u8>, e: &Event) {
    out.push(0);
    e.digest(out);
}

impl Digest for Entry {
    fn digest(&self, out: &mut Vec<u8>) {
        match self {
            Entry::Event(e) => event(out, e),
            Entry::Decision {
                player,
                request,
                response,
            } => decision(out, player, request, response),
            Entry::ScriptError { message } => {
                out.push(2);
                text(out, message);
            }
            Entry::CardReloaded {
                card,
                version,
                removed,
            } => {
                out.push(3);
                text(out, card);
                text(out, version);
                out.push(*removed as u8);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(e: &Entry) -> Vec<u8> {
        let mut out = Vec::new();
        e.digest(&mut out);
        out
    }

    #[test]
    fn entries_that_differ_in_any_field_digest_differently() {
        let mut e = Event::named("moved");
        let base = bytes(&Entry::Event(e.clone()));
        e.reason = Some("draw".into());
        let with_reason = bytes(&Entry::Event(e.clone()));
        assert_ne!(base, with_reason);
        // A field's value moved into another field is a different entry.
        let mut f = Event::named("moved");
        f.key = Some("draw".into());
        assert_ne!(bytes(&Entry::Event(f)), with_reason);
        // Lengths are prefixed: ["ab", "c"] is not ["a", "bc"].
        let a = Val::List(vec![Val::Str("ab".into()), Val::Str("c".into())]);
        let b = Val::List(vec![Val::Str("a".into()), Val::Str("bc".into())]);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        a.digest(&mut x);
        b.digest(&mut y);
        assert_ne!(x, y);
    }

    #[test]
    fn the_binary_form_is_fixed() {
        // Little-endian and field by field: a change here changes every log hash.
        let mut e = Event::named("x");
        e.amount = 1;
        assert_eq!(
            bytes(&Entry::Event(e)),
            [
                0, 1, 0, 0, 0, b'x', 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
            ]
        );
    }
}

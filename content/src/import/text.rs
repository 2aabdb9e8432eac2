//! Card text as published datasets write it, made plain: HTML entities decoded, `<br>` line
//! breaks made newlines, spaces tidied.

/// `s` with HTML entities decoded (`&lt;` `&gt;` `&amp;` `&quot;` `&apos;` `&#39;` `&nbsp;`,
/// numeric ones), `<br>` made a newline, each line trimmed, blank lines at either end
/// dropped. Entities decode in one pass, so `&amp;lt;` is the text `&lt;`.
pub fn plain(s: &str) -> String {
    let with_breaks = replace_breaks(s);
    let decoded = decode_entities(&with_breaks);
    let lines: Vec<&str> = decoded.lines().map(str::trim).collect();
    lines.join("\n").trim_matches('\n').to_string()
}

/// A dataset's "no text" marks (`-`, empty) as None.
pub fn optional(s: Option<&str>) -> Option<String> {
    let t = plain(s?);
    (!t.is_empty() && t != "-").then_some(t)
}

fn replace_breaks(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let lower: String = tail
            .chars()
            .take(6)
            .collect::<String>()
            .to_ascii_lowercase();
        let len = ["<br>", "<br/>", "<br />"]
            .iter()
            .find(|b| lower.starts_with(**b))
            .map(|b| b.len());
        match len {
            Some(n) => {
                out.push('\n');
                rest = &tail[n..];
            }
            None => {
                out.push('<');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        // An entity is short and ASCII: look for its `;` among the next few characters.
        let end = tail
            .char_indices()
            .take(12)
            .find(|&(_, c)| c == ';' || !c.is_ascii())
            .filter(|&(_, c)| c == ';')
            .map(|(i, _)| i);
        let decoded = end.and_then(|e| entity(&tail[1..e]).map(|c| (c, e + 1)));
        match decoded {
            Some((c, n)) => {
                out.push(c);
                rest = &tail[n..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some(' '),
        _ => {
            let n = name.strip_prefix('#')?;
            let code = match n.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => n.parse().ok()?,
            };
            char::from_u32(code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entities_and_breaks_become_plain_text() {
        assert_eq!(
            plain("[Blocker]<br>[On Play] K.O. &lt;Navy&gt; &amp; co.&nbsp;"),
            "[Blocker]\n[On Play] K.O. <Navy> & co."
        );
        assert_eq!(plain("a &#39;b&#x27; &amp;lt;"), "a 'b' &lt;");
        assert_eq!(plain("  x <BR/>  y  "), "x\ny");
        // What is not an entity or a break stays as written.
        assert_eq!(plain("5 < 6 & 7 > 3; <b>"), "5 < 6 & 7 > 3; <b>");
        assert_eq!(plain("&amp;香吉士【ST-12】 &香;"), "&香吉士【ST-12】 &香;");
        assert_eq!(optional(Some("-")), None);
        assert_eq!(optional(Some("  ")), None);
        assert_eq!(optional(None), None);
        assert_eq!(optional(Some("Draw 1.")).as_deref(), Some("Draw 1."));
    }
}

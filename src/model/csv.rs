//! CSV records as RFC 4180 writes them: fields joined by commas, a field quoted (its quotes
//! doubled) when it holds a comma, a quote or a line break. The allocation table's CSV and the
//! pages' table downloads write through it.

/// One field, quoted when it must be.
pub fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One record (no line end) of `fields`.
pub fn record<S: AsRef<str>>(fields: impl IntoIterator<Item = S>) -> String {
    fields.into_iter().map(|f| field(f.as_ref())).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_what_needs_it() {
        assert_eq!(record(["a", "1.5", ""]), "a,1.5,");
        assert_eq!(
            record(["x, y", "say \"hi\"", "two\nlines", "cr\r"]),
            "\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\""
        );
        assert_eq!(record(Vec::<String>::new()), "");
    }
}

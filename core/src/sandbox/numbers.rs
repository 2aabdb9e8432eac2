//! Numbers from scripts. Luau numbers are doubles; the kernel counts in integers. Every
//! number a script hands the kernel goes through here: one that is not finite, not whole,
//! or beyond ±(2^53 − 1) (the last integers a double holds exactly) is an error that the
//! driver reports against the script, instead of a silent truncation, a wrap or a panic.

use mlua::{Result, Table, Value};

/// The largest magnitude of a number scripts and the kernel exchange: 2^53 − 1.
pub const MAX: i64 = (1 << 53) - 1;

/// `v` as a whole number in ±[`MAX`]; `what` names it in the error.
pub fn int(v: &Value, what: &str) -> Result<i64> {
    let n = match v {
        Value::Integer(i) => *i as f64,
        Value::Number(n) => *n,
        other => {
            return Err(mlua::Error::runtime(format!(
                "{what} should be a whole number, not a {}",
                other.type_name()
            )));
        }
    };
    if !n.is_finite() || n.fract() != 0.0 || n.abs() > MAX as f64 {
        return Err(mlua::Error::runtime(format!(
            "{what} should be a whole number from -{MAX} to {MAX}, not {}",
            display(n)
        )));
    }
    Ok(n as i64)
}

/// A required whole-number field of a table a script built.
pub fn field(t: &Table, key: &str) -> Result<i64> {
    int(&t.raw_get::<Value>(key)?, &format!("`{key}`"))
}

/// The whole numbers of a list (a sequence) a script built.
pub fn list(t: &Table, what: &str) -> Result<Vec<i64>> {
    t.clone()
        .sequence_values::<Value>()
        .map(|v| int(&v?, what))
        .collect()
}

/// `n` brought into ±[`MAX`]: what kernel arithmetic on script numbers saturates at.
pub fn saturate(n: i64) -> i64 {
    n.clamp(-MAX, MAX)
}

fn display(n: f64) -> String {
    if n.is_nan() {
        "nan".into()
    } else if n.is_infinite() {
        if n > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_in_range_pass_and_the_rest_are_named_errors() {
        assert_eq!(int(&Value::Number(3.0), "x").unwrap(), 3);
        assert_eq!(int(&Value::Integer(-7), "x").unwrap(), -7);
        assert_eq!(int(&Value::Number(MAX as f64), "x").unwrap(), MAX);
        for bad in [
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            1.5,
            2f64.powi(63),
            -1e300,
        ] {
            let e = int(&Value::Number(bad), "`amount`")
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("`amount` should be a whole number"),
                "{bad}: {e}"
            );
        }
        assert!(int(&Value::Boolean(true), "x").is_err());
        assert_eq!(saturate(i64::MAX), MAX);
        assert_eq!(saturate(i64::MIN), -MAX);
    }
}

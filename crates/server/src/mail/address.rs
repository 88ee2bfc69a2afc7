//! What an address may be: a plain `local@domain` (no display name, no comments, no quoted
//! local parts), short enough for every mail server (RFC 5321: 64 + 1 + 255, 254 in all).

use crate::error::ApiError;

pub const MAX_ADDRESS: usize = 254;
const MAX_LOCAL: usize = 64;
const MAX_LABEL: usize = 63;

/// Checks an address; the error names what is wrong with it.
pub fn check_address(address: &str) -> Result<(), ApiError> {
    let bad = |why: &str| Err(ApiError::BadRequest(format!("that email address {why}")));
    if address.is_empty() {
        return bad("is empty");
    }
    if address.len() > MAX_ADDRESS {
        return bad(&format!("is too long (at most {MAX_ADDRESS} characters)"));
    }
    if address.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return bad("contains a space or a control character");
    }
    let Some((local, domain)) = address.rsplit_once('@') else { return bad("has no '@'") };
    if local.is_empty() {
        return bad("has nothing before the '@'");
    }
    if local.len() > MAX_LOCAL {
        return bad(&format!("has more than {MAX_LOCAL} characters before the '@'"));
    }
    let atext = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c);
    if let Some(c) = local.chars().find(|&c| !(atext(c) || c == '.')) {
        return bad(&format!("has {c:?} before the '@' (letters, digits and .!#$%&'*+-/=?^_`{{|}}~ only)"));
    }
    if local.starts_with('.') || local.ends_with('.') || local.contains("..") {
        return bad("has a misplaced '.' before the '@'");
    }
    if domain.is_empty() {
        return bad("has nothing after the '@'");
    }
    if !domain.contains('.') {
        return bad("needs a domain with a dot after the '@' (like example.org)");
    }
    for label in domain.split('.') {
        if label.is_empty() || label.len() > MAX_LABEL {
            return bad("has an empty or too long part in its domain");
        }
        if let Some(c) = label.chars().find(|&c| !(c.is_ascii_alphanumeric() || c == '-')) {
            return bad(&format!("has {c:?} in its domain (letters, digits, '-' and '.' only)"));
        }
        if label.starts_with('-') || label.ends_with('-') {
            return bad("has a domain part that starts or ends with '-'");
        }
    }
    // What the mail library accepts is what can be sent.
    if address.parse::<lettre::Address>().is_err() {
        return bad("is not one mail servers accept");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_addresses_pass_and_each_fault_is_named() {
        for ok in ["a@example.org", "first.last+go@mail.example.co.uk", "x_y-z@a-b.io"] {
            assert!(check_address(ok).is_ok(), "{ok}");
        }
        let cases = [
            ("", "is empty"),
            ("nobody", "no '@'"),
            ("@example.org", "nothing before"),
            ("a@", "nothing after"),
            ("a@localhost", "dot"),
            ("a b@example.org", "space"),
            ("a..b@example.org", "misplaced '.'"),
            ("a<b@example.org", "'<'"),
            ("a@exa_mple.org", "'_'"),
            ("a@-x.org", "'-'"),
        ];
        for (address, why) in cases {
            let e = check_address(address).expect_err(address).to_string();
            assert!(e.contains(why), "{address}: {e}");
        }
        let long = format!("{}@example.org", "a".repeat(65));
        assert!(check_address(&long).expect_err("long local").to_string().contains("64"));
        let longer = format!("a@{}.org", "b".repeat(260));
        assert!(check_address(&longer).expect_err("long").to_string().contains("too long"));
    }
}

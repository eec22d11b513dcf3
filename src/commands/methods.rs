//! The host API's methods as a caller sees them (docs/API.md): the options each takes in its
//! options object, and the one text for an option it does not take (docs/TOOL.md#host-api-messages).
//! The adapter asks here before it reads an options object (`refuse_unknown`), so a misspelt
//! option is refused whole, in these words, whether the option is one the adapter reads itself
//! (`store`, `onProgress`) or one the core's call takes; and `HostCall::parse` words its own
//! refusal of an unknown argument the same way.

use crate::format::render::fill;

/// Every method's options, in the order its message names them. A method's positional
/// arguments (`memories.get(id, { store })`'s `id`) are not options.
const METHODS: &[(&str, &[&str])] = &[
    ("memories.list", &["path_prefix", "depth", "store"]),
    ("memories.get", &["store"]),
    ("memories.getByPath", &["store"]),
    (
        "memories.create",
        &["path", "content", "content_sha256", "store"],
    ),
    (
        "memories.update",
        &[
            "path",
            "content",
            "precondition",
            "content_sha256",
            "keep_version_id",
            "store",
        ],
    ),
    ("memories.delete", &["expected_content_sha256", "store"]),
    ("memories.keep", &["store"]),
    ("memories.expire", &["olderThanDays", "dryRun", "store"]),
    (
        "versions.list",
        &[
            "memory_id",
            "operation",
            "created_at_gte",
            "created_at_lte",
            "path_prefix",
            "limit",
            "page",
            "store",
        ],
    ),
    ("versions.get", &["store"]),
    ("versions.redact", &["store"]),
    ("versions.restore", &["store"]),
    ("versions.prune", &["store"]),
    ("state.get", &["store"]),
    ("state.set", &["store"]),
    ("state.delete", &["store"]),
    ("export", &["include_versions", "store"]),
    ("exportBlob", &["include_versions", "onProgress", "store"]),
    ("import", &["onConflict", "onProgress", "store"]),
    ("check", &["store"]),
    ("repair", &["store"]),
    ("usage", &["store"]),
    ("persist", &["timeoutMs"]),
    ("stores.list", &["includeArchived"]),
    ("stores.create", &["name", "description", "limits"]),
    ("stores.update", &["name", "description", "limits"]),
];

/// The options of method `method`, if it is one.
pub(crate) fn options_of(method: &str) -> Option<&'static [&'static str]> {
    METHODS
        .iter()
        .find(|(name, _)| *name == method)
        .map(|(_, options)| *options)
}

/// The refusal of option `name` given to `method`, whose options are `options`.
pub(crate) fn unknown_option_text(method: &str, name: &str, options: &[&str]) -> String {
    match options {
        [] => fill(
            "{}: unknown option `{}`; it takes no options.",
            &[method, name],
        ),
        [only] => fill(
            "{}: unknown option `{}`; the only option is {}.",
            &[method, name, only],
        ),
        [rest @ .., last] => fill(
            "{}: unknown option `{}`; the options are {} and {}.",
            &[method, name, &rest.join(", "), last],
        ),
    }
}

/// The refusal of the first of `names` that method `method` does not take, if any. A method
/// this table does not know is refused whatever it is given: the adapter asked about a method
/// that no declaration holds (a slip of ours, said at once rather than checking nothing).
pub fn refuse_unknown<'n>(
    method: &str,
    names: impl IntoIterator<Item = &'n str>,
) -> Option<String> {
    let Some(options) = options_of(method) else {
        return Some(fill(
            "{}: not a method of the host API's table (src/commands/methods.rs)",
            &[method],
        ));
    };
    names
        .into_iter()
        .find(|name| !options.contains(name))
        .map(|name| unknown_option_text(method, name, options))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_wording_for_one_two_or_many_options() {
        assert_eq!(
            refuse_unknown("usage", ["store", "x"]).as_deref(),
            Some("usage: unknown option `x`; the only option is store.")
        );
        assert_eq!(
            refuse_unknown("memories.expire", ["dry_run"]).as_deref(),
            Some(
                "memories.expire: unknown option `dry_run`; the options are olderThanDays, dryRun and store."
            )
        );
        assert_eq!(
            unknown_option_text("m", "x", &[]),
            "m: unknown option `x`; it takes no options."
        );
        assert_eq!(refuse_unknown("usage", ["store"]), None);
        assert!(refuse_unknown("not a method", []).is_some());
    }

    #[test]
    fn every_method_is_named_once() {
        for (i, (name, _)) in METHODS.iter().enumerate() {
            assert!(
                !METHODS[i + 1..].iter().any(|(other, _)| other == name),
                "{name} twice"
            );
        }
    }
}

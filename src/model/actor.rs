//! Who a change is by: the JSON object a version records as its `created_by`
//! (docs/TOOL.md#versions), read once when a task starts, with what the rules ask of it.

use crate::format::json::{write_str, write_value, Json};
use crate::format::render::cat;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    /// The object as versions record it (`null` for an actor that is not an object).
    json: String,
    /// Its `type` (`tool`, `api`, `import`, …): the source a write policy hears.
    source: String,
    /// It names a hosted memory store (`memory_store_id`): a sync pull.
    hosted_store: bool,
}

impl Actor {
    /// The actor the host gave as JSON text; one that is not a JSON object is recorded as
    /// unknown (`null`) rather than trusted. `mount_prefix`: with several mounts, the tool path
    /// of the mount it writes through, recorded as `mount_path`.
    pub fn parse(json: &str, mount_prefix: Option<&str>) -> Actor {
        let Some(Json::Object(mut members)) = Json::parse(json) else {
            return Actor {
                json: "null".to_string(),
                source: "unknown".to_string(),
                hosted_store: false,
            };
        };
        let source = members
            .iter()
            .find(|(k, _)| k == "type")
            .and_then(|(_, v)| v.as_str())
            .unwrap_or("unknown")
            .to_string();
        let hosted_store = members
            .iter()
            .any(|(k, v)| k == "memory_store_id" && v.as_str().is_some());
        let json = match mount_prefix {
            Some(prefix) => {
                if !members.iter().any(|(k, _)| k == "mount_path") {
                    members.push(("mount_path".to_string(), Json::string(&cat(&[prefix, "/"]))));
                }
                write_value(&Json::Object(members))
            }
            None => json.to_string(),
        };
        Actor {
            json,
            source,
            hosted_store,
        }
    }

    /// The object as a version's `created_by` records it.
    pub fn json(&self) -> &str {
        &self.json
    }

    /// Its `type`, `unknown` when it has none.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether the change comes from a hosted memory store (a sync pull, whose `created_by`
    /// names the store): its paths are that store's own, taken as they are.
    pub fn is_hosted_store(&self) -> bool {
        self.hosted_store
    }

    /// The same actor with the string field `name` set to `value` (`restored_from`,
    /// `memory_version_id`); an unknown actor stays unknown.
    pub fn with_field(&self, name: &str, value: &str) -> Actor {
        let Some(open) = self.json.strip_suffix('}') else {
            return self.clone();
        };
        let mut json = String::from(open);
        if !json.ends_with('{') {
            json.push(',');
        }
        write_str(&mut json, name);
        json.push(':');
        write_str(&mut json, value);
        json.push('}');
        Actor {
            json,
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Actor;

    #[test]
    fn read_once_with_what_the_rules_ask() {
        let tool = Actor::parse(r#"{"type":"tool","tool_use_id":null}"#, None);
        assert_eq!(tool.source(), "tool");
        assert!(!tool.is_hosted_store());
        assert_eq!(
            tool.with_field("restored_from", "memver_1").json(),
            r#"{"type":"tool","tool_use_id":null,"restored_from":"memver_1"}"#
        );
        let empty = Actor::parse("{}", None).with_field("a", "b");
        assert_eq!(empty.json(), r#"{"a":"b"}"#);
        let pull = Actor::parse(
            r#"{"type":"api","memory_store_id":"memstore_1"}"#,
            Some("/memories/a"),
        );
        assert!(pull.is_hosted_store());
        assert_eq!(
            pull.json(),
            r#"{"type":"api","memory_store_id":"memstore_1","mount_path":"/memories/a/"}"#
        );
        for bad in ["[1]", "not json", "\"api\""] {
            let unknown = Actor::parse(bad, None);
            assert_eq!((unknown.json(), unknown.source()), ("null", "unknown"));
            assert_eq!(unknown.with_field("a", "b").json(), "null");
        }
    }
}

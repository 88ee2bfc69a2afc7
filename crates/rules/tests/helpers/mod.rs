//! Small helpers the wire-level rule tests share.
#![allow(dead_code)]

use gobeyond_rules::{record::PlayerInfo, registry::Object};
use serde_json::Value;

/// A JSON object literal as the wire's object (tests write inputs with `json!`).
pub fn obj(v: Value) -> Object {
    match v {
        Value::Object(o) => o,
        other => panic!("not an object: {other}"),
    }
}

/// Two players named "b" and "w", for views and SGF.
pub fn players() -> Vec<PlayerInfo> {
    vec![PlayerInfo { name: "b".into() }, PlayerInfo { name: "w".into() }]
}

//! The wire form's vocabulary: inputs and settings travel as JSON objects, each system reading
//! its own (see the registry).

use serde::Serialize;
use serde_json::{Map as JsonMap, Value};

/// A JSON object: an input or settings on the wire.
pub type Object = JsonMap<String, Value>;

/// Any serialisable value as a JSON object (settings, inputs); anything else is empty.
pub fn to_object<T: Serialize + ?Sized>(value: &T) -> Object {
    match serde_json::to_value(value) {
        Ok(Value::Object(o)) => o,
        _ => Object::new(),
    }
}

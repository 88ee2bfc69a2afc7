//! The TypeScript declarations of each rule system's wire types (feature `ts`): its `View`,
//! `Move` and `Event` and every type they use, found by walking their dependencies, so that the
//! registry alone decides what the web client's types are.

use ts_rs::{Config, TS, TypeVisitor};

use crate::RuleSystem;

/// One system's types as TypeScript: the names of its three wire types and the declarations
/// they need (each `(name, declaration)`, by name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemDeclarations {
    pub state: String,
    pub input: String,
    pub event: String,
    pub declarations: Vec<(String, String)>,
}

impl SystemDeclarations {
    pub fn of<S: RuleSystem>(cfg: &Config) -> SystemDeclarations {
        let mut walk = Walk { cfg, found: Vec::new() };
        walk.visit::<S::View>();
        walk.visit::<S::Move>();
        walk.visit::<S::Event>();
        // The walk's order follows the derive's, which is not the same from one build to the
        // next; TypeScript needs no order, and the checked-in file needs one that holds.
        walk.found.sort();
        SystemDeclarations {
            state: S::View::ident(cfg),
            input: S::Move::ident(cfg),
            event: S::Event::ident(cfg),
            declarations: walk.found,
        }
    }
}

/// Collects every declarable type reachable from the visited ones, once each.
struct Walk<'a> {
    cfg: &'a Config,
    found: Vec<(String, String)>,
}

impl TypeVisitor for Walk<'_> {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // Types without a file of their own (numbers, strings, lists, JSON values) are inlined.
        if T::output_path().is_none() {
            return;
        }
        let name = T::ident(self.cfg);
        if self.found.iter().any(|(n, _)| *n == name) {
            return;
        }
        self.found.push((name, T::decl(self.cfg)));
        T::visit_dependencies(self);
    }
}

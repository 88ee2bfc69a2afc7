//! The web client's TypeScript declarations, generated from the protocol's types.

use super::*;

/// The TypeScript declarations of the protocol, as `web/src/protocol.ts` holds them: the
/// envelope's types, then every registered system's own (from the registry, never a list here)
/// and the maps that name them by system.
pub fn typescript() -> String {
    use gobeyond_rules::{EndReason, SYSTEMS, system::Preset};
    let cfg = ts_rs::Config::default().with_large_int("number");
    let mut decls: Vec<(String, String)> = Vec::new();
    // Systems share types (The Way of Go and BeSiege, the Go words): declared once. Two
    // different types under one name would give the client wrong types, so that is refused.
    let mut add = |name: String, decl: String| match decls.iter().find(|(n, _)| *n == name) {
        Some((_, known)) => assert_eq!(*known, decl, "two TypeScript types are called {name}"),
        None => decls.push((name, decl)),
    };
    macro_rules! envelope {
        ($($t:ty),* $(,)?) => { $(add(<$t>::ident(&cfg), <$t>::decl(&cfg));)* };
    }
    envelope![
        ClientMessage,
        ServerMessage,
        SeqAction,
        GameInfo,
        GameEvent,
        SeatView,
        UndoView,
        UndoNote,
        ClockView,
        ClockKind,
        TimeControl,
        SeatChoice,
        Status,
        User,
        Outcome,
        gobeyond_rules::Player,
        EndReason,
        ErrorBody,
        Health,
        InviteBody,
        UserBody,
        MeBody,
        VacationView,
        OkBody,
        BotCreated,
        BotList,
        GameCreated,
        Joined,
        GameSummary,
        SummarySeat,
        crate::rating::RatingView,
        PlayerProfile,
        SystemRating,
        SystemRecord,
        RatedGame,
        MapBrief,
        GameList,
        crate::lists::GamePage,
        crate::lists::PlayersFound,
        crate::lists::FoundPlayer,
        crate::tell::Tell,
        crate::tell::WaitingGame,
        crate::tell::EndedGame,
        ChatLine,
        crate::store::chat::Channel,
        ChatHistory,
        StateAt,
        crate::store::mail::MailPrefs,
        crate::mail::http::MailSettings,
        crate::mail::http::Confirmed,
        crate::mail::http::Unsubscribed,
        crate::mail::http::PasswordReset,
        RuleSystems,
        RuleSystemView,
        PresetView,
        SettingInfo,
        Preset,
        gobeyond_rules::record::RulesSpec,
        gobeyond_rules::record::MapSummary,
    ];
    for (name, decl) in crate::moderation::wire::declarations(&cfg) {
        add(name, decl);
    }
    for (name, decl) in crate::social::wire::declarations(&cfg) {
        add(name, decl);
    }
    let systems: Vec<_> = SYSTEMS.iter().map(|s| (s.name, (s.typescript)(&cfg))).collect();
    for (_, types) in &systems {
        for (name, decl) in &types.declarations {
            add(name.clone(), decl.clone());
        }
    }
    let mut out = String::from(
        "// Generated from crates/server/src/protocol/ by `make protocol`: do not edit.\n\
         // The envelope's types, then each rule system's own (its state, inputs and events) and\n\
         // `SystemTypes`, which names them by system, all from the rules registry. views.ts says\n\
         // what a state or an action of any system is.\n\n\
         import type { GameState, RecordedAction } from './views';\n\n",
    );
    for (_, d) in decls {
        out.push_str("export ");
        out.push_str(&d);
        out.push_str("\n\n");
    }
    let names: Vec<String> = systems.iter().map(|(name, _)| format!("'{name}'")).collect();
    out.push_str(&format!(
        "/** Every rule system's name. */\nexport type SystemName = {};\n\n",
        names.join(" | ")
    ));
    out.push_str(
        "/** Each system's state, input and event types, by name. */\nexport type SystemTypes = {\n",
    );
    for (name, t) in &systems {
        out.push_str(&format!(
            "  '{name}': {{ state: {}; move: {}; event: {} }};\n",
            t.state, t.input, t.event
        ));
    }
    out.push_str("};\n\n");
    for (union, field) in [("AnyState", "state"), ("AnyMove", "move"), ("AnyEvent", "event")] {
        out.push_str(&format!("export type {union} = SystemTypes[SystemName]['{field}'];\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    /// The checked-in TypeScript is what the Rust types say (`make protocol` rewrites it).
    #[test]
    fn web_protocol_types_are_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/src/protocol.ts");
        let fresh = super::typescript();
        if std::env::var_os("UPDATE_PROTOCOL").is_some() {
            std::fs::write(path, &fresh).unwrap_or_else(|e| panic!("writing {path}: {e}"));
            return;
        }
        let current = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            current == fresh,
            "web/src/protocol.ts is stale: run `make protocol` (UPDATE_PROTOCOL=1 cargo test -p gobeyond-server protocol)"
        );
    }
}

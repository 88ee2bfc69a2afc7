//! A table from its stored game: the settings, seats and log read back, the log replayed,
//! the clock resumed where it stood.

use super::*;

/// The rule system's own clock when it has one, else the game's time control.
fn clock_kind(setup: &GameSetup) -> ClockKind {
    match setup.rules.info().ok().and_then(|i| i.clock(&setup.rules.settings)) {
        Some(c) => ClockKind::PerTurn { turn_ms: c.turn_ms, decision_ms: c.decision_ms },
        None => ClockKind::Control { time: setup.time },
    }
}

impl Table {
    pub(super) async fn load(
        store: Store,
        id: i64,
        bots: BotPools,
        shared: Arc<Shared>,
        owner: Option<(Fence, Arc<Cluster>)>,
    ) -> Result<Table, ApiError> {
        let (fence, cluster) = owner.unzip();
        let row =
            store.game(id).await?.ok_or_else(|| ApiError::NotFound(format!("there is no game {id}")))?;
        let mut setup: GameSetup = serde_json::from_str(&row.setup)
            .map_err(|e| ApiError::Internal(format!("game {id} has unreadable settings: {e}")))?;
        drop(row.setup);
        setup.share_map()?;
        let seats = store.seats(id).await?;
        let actions: Vec<String> = store.actions(id, 0).await?.into_iter().map(|(_, text)| text).collect();
        let Replayed { game, standing, last_take_back } =
            replay(&setup, &actions).map_err(|e| ApiError::Internal(format!("game {id}: {e}")))?;
        let status = Status::parse(&row.status);
        let clock = row
            .clock
            .as_deref()
            .and_then(Clock::from_stored)
            .unwrap_or_else(|| Clock::new(clock_kind(&setup), setup.players));
        let (updates, _) = broadcast::channel(BROADCAST_BUFFER);
        let events_sent = game.event_count();
        let loaded = crate::metrics::loaded_game(game.system());
        let mut table = Table {
            id,
            store,
            setup,
            status,
            creator: row.creator,
            public: row.public,
            invite: row.invite,
            seats,
            game,
            actions,
            clock,
            updates,
            bots,
            bot_pending: None,
            shared,
            created_ms: row.created_ms,
            gone: false,
            watched_ms: now_ms(),
            chance: gobeyond_rules::Rng::new({
                let mut b = [0u8; 8];
                getrandom::fill(&mut b).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
                u64::from_le_bytes(b)
            }),
            chat_times: HashMap::new(),
            events_sent,
            ratings: Vec::new(),
            unrated: row.result.as_deref().and_then(unrated_of),
            abandoned: row.result.as_deref().is_some_and(abandon::abandoned_result),
            standing,
            last_take_back,
            undo: None,
            waits_written: None,
            undo_declined: HashSet::new(),
            bots_silent: (0, Vec::new()),
            bot_turn: None,
            _loaded: loaded,
            fence,
            cluster,
        };
        table.load_ratings().await?;
        table.measure();
        // The map's bytes, counted once for every table of it (see `Hub::bytes_in`).
        let map = table.game.map();
        let map_bytes = crate::shared_maps::map_bytes(&table.setup.map, map);
        table.shared.map.store(Arc::as_ptr(map) as usize, std::sync::atomic::Ordering::Relaxed);
        table.shared.map_bytes.store(map_bytes, std::sync::atomic::Ordering::Relaxed);
        if status == Status::Live {
            table.resume().await?;
        }
        Ok(table)
    }

    /// A live game read back: its clock runs on, and a game whose log ended it is marked over.
    async fn resume(&mut self) -> Result<(), ApiError> {
        let (player, simultaneous) = self.turn();
        // The current turn goes on from when it began (stored with the clock): the time
        // already used, the server's downtime included, is charged, never given back.
        let began =
            if self.clock.turn_started_ms > 0 { self.clock.turn_started_ms } else { self.store.now() };
        let decision = self.game.decision_ms();
        self.clock.start_decision(player, simultaneous, decision, began);
        self.clock.apply_window(self.game.window_ms());
        if self.game.outcome().is_some() {
            // Finished in the log but not marked (a crash between the two writes).
            self.finish().await?;
        }
        Ok(())
    }
}

/// Why a finished game's stored result says it changed no rating.
fn unrated_of(result: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(result).ok()?;
    v.get("unrated")?.as_str().map(str::to_string)
}

/// A game rebuilt from its log.
pub(super) struct Replayed {
    pub(super) game: AnyGame,
    /// The sequence numbers of the actions standing (take-back markers applied).
    pub(super) standing: Vec<u64>,
    /// The last take-back marker's sequence number (0: none).
    pub(super) last_take_back: u64,
}

/// Rebuilds a game from its log, `actions[i]` being action `i + 1`.
pub(super) fn replay(setup: &GameSetup, actions: &[String]) -> Result<Replayed, String> {
    let mut game = setup.new_game().map_err(|e| e.to_string())?;
    let mut log = Vec::with_capacity(actions.len());
    let mut last_take_back = 0;
    for (i, text) in actions.iter().enumerate() {
        let a: RecordedAction =
            serde_json::from_str(text).map_err(|e| format!("action {} is unreadable: {e}", i + 1))?;
        if undo::marker_from(&a).is_some() {
            last_take_back = i as u64 + 1;
        }
        log.push((i as u64 + 1, a));
    }
    let standing = undo::effective(log);
    for (seq, a) in &standing {
        game.submit(Player(a.player), &a.input).map_err(|e| format!("action {seq} does not replay: {e}"))?;
    }
    Ok(Replayed { game, standing: standing.into_iter().map(|(s, _)| s).collect(), last_take_back })
}

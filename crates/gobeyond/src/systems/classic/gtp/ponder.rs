//! Pondering: after each `genmove` the engine searches on, on the opponent's time, until the
//! controller's next command arrives; input is read on its own thread, which raises the stop
//! flag the search checks.

use std::{
    io::{BufRead, Write},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
        mpsc,
    },
    time::Duration,
};

use gobeyond_rules::Game;

use super::GtpEngine;

/// The most a ponder lasts without a command: an idle controller does not keep a core busy.
const PONDER_LIMIT: Duration = Duration::from_secs(60);

impl GtpEngine {
    /// Reads commands like [`GtpEngine::run`], and after each `genmove` searches on until the
    /// next command arrives (when pondering is on; input is read on its own thread).
    pub fn run_pondering(
        &mut self,
        input: impl BufRead + Send + 'static,
        mut output: impl Write,
    ) -> std::io::Result<()> {
        let (lines, commands) = mpsc::channel();
        let arrived = Arc::new(AtomicBool::new(false));
        let signal = arrived.clone();
        std::thread::spawn(move || {
            for line in input.lines() {
                let failed = line.is_err();
                if lines.send(line).is_err() || failed {
                    break;
                }
                signal.store(true, Ordering::SeqCst);
            }
            // End of input: the channel closes; a ponder under way stops.
            signal.store(true, Ordering::SeqCst);
        });
        let mut pending = None;
        loop {
            let line = match pending.take() {
                Some(line) => line,
                None => match commands.recv() {
                    Ok(line) => line,
                    Err(_) => break,
                },
            };
            if !self.answer(&line?, &mut output)? {
                break;
            }
            if self.ponder_for.is_some() {
                // Lowered before looking for a command: one that arrives later raises it again.
                arrived.store(false, Ordering::SeqCst);
                match commands.try_recv() {
                    Ok(line) => pending = Some(line),
                    Err(mpsc::TryRecvError::Empty) => {
                        self.ponder_until(&arrived);
                    }
                    Err(mpsc::TryRecvError::Disconnected) => break,
                }
            }
        }
        Ok(())
    }

    /// Searches the position after our last `genmove` until `stop` is raised, at most
    /// [`PONDER_LIMIT`]; returns the playouts made. The tree is kept for the next `genmove`.
    pub fn ponder_until(&mut self, stop: &AtomicBool) -> u32 {
        let Some(them) = self.ponder_for.take() else { return 0 };
        let Some(game) = self.search_game(them).filter(|g| !g.is_over()) else { return 0 };
        let Some(s) = &mut self.searcher else { return 0 };
        s.config.playouts = u32::MAX;
        s.config.time = Some(PONDER_LIMIT);
        s.search_until(&game, Some(stop)).playouts
    }
}

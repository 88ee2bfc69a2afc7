//! `gobeyond fuzz`: a mutation fuzzer on the stable toolchain (no libFuzzer, no coverage
//! feedback: seeds, structure-aware mutations and a corpus that keeps the inputs that parsed).
//!
//! Targets: map specs, custom map files, JSON records, SGF, GTP sessions, every WebSocket and
//! HTTP body the server reads, and random action sequences on every rule system and map
//! family. A panic anywhere is a failure (the input is saved under `target/fuzz-failures/`);
//! so is a broken invariant: a refused action that changed the game, a game whose record does
//! not replay to the same state, an outcome whose ranking is not the players.

use std::{
    panic::{AssertUnwindSafe, catch_unwind},
    path::PathBuf,
};

use anyhow::{Result, bail};
use clap::ValueEnum;
use gobeyond_maps::{CustomMap, generate_within};
use gobeyond_rules::{
    AnyGame, Player, Rng, SYSTEMS,
    record::{MapSource, PlayerInfo, Record},
    registry::Object,
};
use serde::Serialize;
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    MapSpec,
    CustomMap,
    Record,
    Sgf,
    Gtp,
    Messages,
    Actions,
}

impl Target {
    pub const ALL: [Target; 7] = [
        Target::MapSpec,
        Target::CustomMap,
        Target::Record,
        Target::Sgf,
        Target::Gtp,
        Target::Messages,
        Target::Actions,
    ];
}

/// What one target did.
#[derive(Debug, Clone, Serialize)]
pub struct TargetReport {
    pub target: Target,
    /// Inputs tried (for `actions`: actions submitted).
    pub inputs: u64,
    /// Inputs the code under test accepted (parsed, built, legal).
    pub accepted: u64,
    pub corpus: usize,
    pub failures: Vec<String>,
}

/// Runs `target` on `inputs` inputs from `seed`; `tick` is called with the inputs done.
pub fn run(target: Target, inputs: u64, seed: u64, mut tick: impl FnMut(u64)) -> TargetReport {
    let mut rng = Rng::new(seed ^ (target as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut corpus: Vec<Vec<u8>> = seeds(target).into_iter().map(|s| s.into_bytes()).collect();
    let seeded = corpus.len();
    let mut report = TargetReport { target, inputs: 0, accepted: 0, corpus: 0, failures: Vec::new() };
    let (mut done, mut ticked) = (0u64, 0u64);
    while done < inputs && report.failures.len() < 10 {
        if target == Target::Actions {
            let game_seed = rng.next_u64();
            let budget = (inputs - done).min(400);
            let outcome = catch_unwind(AssertUnwindSafe(|| play_random_game(game_seed, budget)));
            let (n, accepted, failure) = match outcome {
                Ok(r) => r,
                Err(p) => (1, 0, Some(format!("panic: {}", panic_text(&p)))),
            };
            done += n.max(1);
            report.accepted += accepted;
            if let Some(f) = failure {
                report.failures.push(save(
                    target,
                    &format!("seed {game_seed}: {f}"),
                    game_seed.to_string().as_bytes(),
                ));
            }
        } else {
            let input = mutate(&mut rng, &corpus, dictionary(target));
            let outcome = catch_unwind(AssertUnwindSafe(|| check(target, &input)));
            done += 1;
            match outcome {
                Ok(Ok(true)) => {
                    report.accepted += 1;
                    if corpus.len() < 2000 && input.len() < 64 * 1024 {
                        corpus.push(input);
                    } else if corpus.len() >= 2000 {
                        let i = seeded + rng.below((corpus.len() - seeded) as u32) as usize;
                        corpus[i] = input;
                    }
                }
                Ok(Ok(false)) => {}
                Ok(Err(broken)) => report.failures.push(save(target, &broken, &input)),
                Err(p) => report.failures.push(save(target, &format!("panic: {}", panic_text(&p)), &input)),
            }
        }
        if done - ticked >= 256 || done >= inputs {
            tick(done);
            ticked = done;
        }
    }
    report.inputs = done;
    report.corpus = corpus.len();
    report
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".into())
}

/// Keeps a failing input for replay (`gobeyond fuzz --replay FILE`), and describes it.
fn save(target: Target, what: &str, input: &[u8]) -> String {
    let dir = PathBuf::from("target/fuzz-failures");
    let name = format!("{target:?}-{:016x}", fnv(input)).to_lowercase();
    let path = dir.join(&name);
    let saved = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, input));
    match saved {
        Ok(()) => format!("{what} (input saved in {})", path.display()),
        Err(_) => format!("{what} (input: {:?})", String::from_utf8_lossy(input)),
    }
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// One input through one target: `Ok(accepted)`, or the invariant it broke.
pub fn check(target: Target, input: &[u8]) -> Result<bool, String> {
    let text = String::from_utf8_lossy(input);
    match target {
        // The server's limit: bigger maps are refused before generating, as the server does.
        Target::MapSpec => Ok(generate_within(&text, 4096).is_ok()),
        Target::CustomMap => match CustomMap::from_json(&text) {
            Ok(m) => Ok(m.build_with_limit(4096).is_ok()),
            Err(_) => Ok(false),
        },
        Target::Record => {
            let Ok(record) = Record::from_json(&text) else { return Ok(false) };
            if record.actions.len() > 2000 {
                return Ok(false);
            }
            if let MapSource::Spec(spec) = &record.map
                && generate_within(spec, 4096).is_err()
            {
                return Ok(false);
            }
            match record.replay() {
                Ok(game) => replays_the_same(&game, &record.map, &record.players).map(|()| true),
                Err(_) => Ok(false),
            }
        }
        Target::Sgf => match gobeyond_rules::systems::classic::sgf::import(&text) {
            Ok(record) => match record.replay() {
                Ok(game) => {
                    // What was imported exports again.
                    let _ = game.sgf(&record.players, None);
                    Ok(true)
                }
                Err(_) => Ok(false),
            },
            Err(_) => Ok(false),
        },
        Target::Gtp => {
            let bot = crate::gtp::BotOptions {
                search: None,
                timed_playouts: None,
                seconds_per_move: None,
                ponder: false,
            };
            let mut engine =
                crate::gtp::GtpEngine::with_overrides(None, None, None, 1, bot).map_err(|e| e.to_string())?;
            let mut ok = false;
            for line in text.lines().take(64) {
                // Search commands are the bots' business (fuzzed elsewhere): only the protocol here.
                let word = line.split_whitespace().find(|w| w.parse::<u32>().is_err()).unwrap_or("");
                let searches = ["genmove", "analyze", "final_score", "final_status"];
                if word.starts_with("kgs-") || searches.iter().any(|s| word.contains(s)) {
                    continue;
                }
                if let Some(reply) = engine.handle(line) {
                    ok |= reply.starts_with('=') && !line.trim().is_empty();
                    if !(reply.starts_with('=') || reply.starts_with('?')) {
                        return Err(format!("GTP reply {reply:?} is neither success nor failure"));
                    }
                }
            }
            Ok(ok)
        }
        Target::Messages => {
            use gobeyond_server::{auth, http, protocol::ClientMessage, setup::NewGame, table};
            let a = serde_json::from_str::<ClientMessage>(&text).is_ok();
            let b = match serde_json::from_str::<NewGame>(&text) {
                Ok(new) => new.validate().is_ok(),
                Err(_) => false,
            };
            let c = serde_json::from_str::<http::NewBot>(&text).is_ok()
                || serde_json::from_str::<http::TokenBody>(&text).is_ok();
            // The text checks of names, passwords and chat (Unicode folding, look-alikes,
            // controls): any text, no panic; a cleaned chat line is clean.
            let name = auth::check_name(&text).is_ok();
            let _ = auth::name_key(&text);
            let _ = auth::check_password("fuzz", &text);
            let chat = table::clean_chat(&text);
            if table::clean_chat(&chat) != chat {
                return Err(format!("chat text {text:?} is not clean once cleaned: {chat:?}"));
            }
            Ok(a || b || c || name)
        }
        Target::Actions => Ok(false),
    }
}

/// The game's record replays to the same state.
fn replays_the_same(game: &AnyGame, map: &MapSource, players: &[PlayerInfo]) -> Result<(), String> {
    let record = Record::of_any(game, map.clone(), players.to_vec());
    let again = record.replay().map_err(|e| format!("the game's own record does not replay: {e}"))?;
    if again.state_json(players) != game.state_json(players) {
        return Err("the game's own record replays to another state".into());
    }
    if let Some(o) = game.outcome() {
        let mut seen: Vec<u8> = o.ranking.iter().map(|p| p.0).collect();
        seen.sort_unstable();
        if seen != (0..game.player_count() as u8).collect::<Vec<_>>() {
            return Err(format!("the outcome's ranking {:?} is not the players", o.ranking));
        }
    }
    Ok(())
}

/// Small maps of every family, for random games.
const MAPS: &[&str] = &[
    "square:5",
    "square:7",
    "rect:4x6",
    "hex:3",
    "honeycomb:2",
    "tri:4",
    "wavy:5",
    "random:20:seed=3",
    "torus:5",
    "cylinder:5x4",
    "klein:5x5",
    "cube:3",
    "goldberg:2,0",
    "grid:3x3x3",
    "grid:2x2x2x2",
];

/// A random game: random system, map and players, actions mostly from the waiting seats,
/// some garbage; chance drawn as the server does. Returns (actions, accepted, failure).
fn play_random_game(seed: u64, budget: u64) -> (u64, u64, Option<String>) {
    let mut rng = Rng::new(seed);
    let system = &SYSTEMS[rng.below(SYSTEMS.len() as u32) as usize];
    let spec = MAPS[rng.below(MAPS.len() as u32) as usize];
    let players = 2 + rng.below(4) as usize;
    let map = MapSource::Spec(spec.into());
    let names: Vec<PlayerInfo> = (0..players).map(|i| PlayerInfo { name: format!("p{i}") }).collect();
    let mut rules = system.default_rules();
    // Short games where the system counts passes to the end: every phase gets reached.
    let mut short = rules.settings.clone();
    short.insert("passes_to_end".into(), json!(1 + rng.below(3)));
    if system.validate(&short, players).is_ok() {
        rules.settings = short;
    }
    let record = Record::new(map.clone(), rules, names.clone());
    let Ok(mut game) = record.replay() else { return (1, 0, None) };
    let n = game.map().len() as u64;
    let labels: Vec<String> = game.map().nodes().map(|v| game.map().label(v).to_string()).collect();
    let mut chance = Rng::new(seed ^ 1);
    let (mut done, mut accepted) = (0u64, 0u64);
    while done < budget && game.outcome().is_none() {
        if let Some((seat, input)) = game.draw_chance(&mut chance) {
            if let Err(e) = game.submit(seat, &input) {
                return (done, accepted, Some(format!("a drawn chance outcome was refused: {e}")));
            }
            continue;
        }
        let waiting = game.waiting_for();
        let seat = if waiting.is_empty() || rng.below(10) == 0 {
            Player(rng.below(players as u32 + 1) as u8)
        } else {
            waiting[rng.below(waiting.len() as u32) as usize]
        };
        let input = random_input(&mut rng, &game, seat, n, &labels);
        let before = game.clone();
        done += 1;
        match game.submit(seat, &input) {
            Ok(()) => accepted += 1,
            Err(refusal) => {
                if refusal.code.is_empty() || refusal.message.is_empty() {
                    return (done, accepted, Some(format!("a refusal without a reason for {input:?}")));
                }
                if game.state_json(&names) != before.state_json(&names)
                    || game.input_count() != before.input_count()
                {
                    return (done, accepted, Some(format!("the refused input {input:?} changed the game")));
                }
            }
        }
    }
    if let Err(e) = replays_the_same(&game, &map, &names) {
        return (done, accepted, Some(e));
    }
    (done, accepted, None)
}

/// An input to try: the system's own sample (a legal action in wire form, or what the clock or a
/// failed computer sends), often mutated the way a careless or hostile client would — a number
/// or a label changed to a wrong node, a field dropped, the type of another input or none. The
/// registry knows every system's inputs, so this needs no list of their words.
fn random_input(rng: &mut Rng, game: &AnyGame, seat: Player, n: u64, labels: &[String]) -> Object {
    let mut input = game.sample_input(seat, rng);
    let node = |rng: &mut Rng| -> u64 {
        match rng.below(20) {
            0 => u64::MAX,
            1 => n,
            _ => u64::from(rng.below(n as u32)),
        }
    };
    let keys: Vec<String> = input.keys().filter(|k| *k != "type").cloned().collect();
    match rng.below(12) {
        0 if !keys.is_empty() => {
            let key = &keys[rng.below(keys.len() as u32) as usize];
            let wrong = match &input[key] {
                Value::Number(_) => json!(node(rng)),
                Value::String(_) => {
                    json!(labels.get(node(rng) as usize).cloned().unwrap_or_else(|| "Z99".into()))
                }
                Value::Array(a) => json!((0..=a.len()).map(|_| node(rng)).collect::<Vec<_>>()),
                _ => json!(rng.below(4)),
            };
            input.insert(key.clone(), wrong);
        }
        1 if !keys.is_empty() => {
            input.remove(&keys[rng.below(keys.len() as u32) as usize]);
        }
        2 => {
            // Another seat's input, or the same input sent by a seat whose turn it is not.
            let other = Player(rng.below(8) as u8);
            if let Some(kind) = game.sample_input(other, rng).get("type").cloned() {
                input.insert("type".into(), kind);
            }
        }
        // Decisions that name stones (Clean-Up, dead stones) are sampled naming none.
        3 if !input.contains_key("nodes") => {
            let k = 1 + rng.below(4);
            input.insert("nodes".into(), json!((0..k).map(|_| node(rng)).collect::<Vec<_>>()));
        }
        4 => {
            let kind = ["", "x", "place", "pass", "resign", "timeout"][rng.below(6) as usize];
            input.insert("type".into(), json!(kind));
            input.insert("extra".into(), json!(1));
        }
        _ => {}
    }
    input
}

/// Starting inputs per target.
fn seeds(target: Target) -> Vec<String> {
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
    match target {
        Target::MapSpec => strings(&[
            "square:9",
            "rect:5x7",
            "hex:4",
            "honeycomb:3",
            "tri:5",
            "wavy:6x5:amp=0.3",
            "random:30:seed=7",
            "grid:3x3:wrap",
            "torus:7",
            "cylinder:6x5",
            "klein:6x6",
            "cube:4",
            "goldberg:3,1",
            "grid:3x3x3",
            "grid:2x3x2x2",
        ]),
        Target::CustomMap => strings(&[
            r#"{"name":"tri","nodes":[{"x":0,"y":0},{"x":1,"y":0},{"x":0.5,"y":0.8,"label":"top"}],"edges":[[0,1],[1,2],[2,0]]}"#,
            r#"{"nodes":[{"x":0,"y":0,"z":0},{"x":1,"y":0,"z":1}],"edges":[[0,1]],"start_points":[0,1]}"#,
            r#"{"nodes":[{},{}],"edges":[],"allow_disconnected":true}"#,
            r#"{"nodes":[{"x":0,"y":0},{"x":1,"y":0},{"x":1,"y":1},{"x":0,"y":1}],"edges":[[0,1],[1,2],[2,3],[3,0]],"lines":[[0,1,2,3,0],[1,2]]}"#,
            r#"{"nodes":[{"x":0,"y":0},{"x":1,"y":0},{"x":2,"y":0},{"x":1,"y":1},{"x":1,"y":-1}],"edges":[[0,1],[1,2],[1,3],[1,4]],"lines":"derived"}"#,
        ]),
        Target::Record => {
            let mut out = Vec::new();
            for system in SYSTEMS {
                let mut r = Record::new(
                    MapSource::Spec("square:5".into()),
                    system.default_rules(),
                    vec![PlayerInfo { name: "a".into() }, PlayerInfo { name: "b".into() }],
                );
                if let Ok(mut g) = r.replay() {
                    for node in [6u64, 18, 12, 7] {
                        let p = g.waiting_for().first().copied().unwrap_or(Player(0));
                        let mut input = Object::new();
                        input.insert("type".into(), json!("place"));
                        input.insert("node".into(), json!(node));
                        let _ = g.submit(p, &input);
                    }
                    r = Record::of_any(&g, r.map.clone(), r.players.clone());
                }
                out.push(r.to_json());
            }
            out
        }
        Target::Sgf => strings(&[
            "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese];B[ee];W[cc];B[gc];W[]C[pass];B[tt])",
            "(;GM[1]FF[4]SZ[19]HA[2]AB[dd][pp]PL[W];W[qd];B[dp])",
            "(;FF[4]SZ[5:7];B[aa](;W[bb])(;W[cc]))",
        ]),
        Target::Gtp => strings(&[
            "protocol_version\nname\nboardsize 9\nclear_board\nkomi 6.5\nplay b e5\nplay w c3\nshowboard\nfinal_score\n",
            "boardsize 19\nfixed_handicap 4\nplay w q10\nundo\nlist_commands\nknown_command play\n",
            "1 boardsize 7\n2 play black d4\n3 play white pass\n4 set_free_handicap a1 b2\nquit\n",
        ]),
        Target::Messages => strings(&[
            r#"{"type":"watch","game":1,"since":3}"#,
            r#"{"type":"act","game":1,"action":{"type":"place","at":"C3"},"seat":0,"id":7}"#,
            r#"{"type":"chat","game":2,"text":"hello"}"#,
            r#"{"type":"ping","id":"x"}"#,
            r#"{"rules":"classic","map":"square:9","players":2,"time":{"kind":"byo_yomi","main_seconds":60,"periods":3,"period_seconds":10}}"#,
            r#"{"rules":{"system":"gobeyond","settings":{"occupy_cost":10}},"map":"hex:3","players":3,"seats":[{"kind":"me"},{"kind":"bot","level":3}],"public":false}"#,
            r#"{"rules":"classic","map":"square:9","players":2,"rated":true,"time":{"kind":"fischer","main_seconds":600,"increment_seconds":10}}"#,
            r#"{"name":"my-bot","expires_days":30}"#,
            r#"{"expires_days":3650}"#,
            "\u{202e}ΑDΜΙΝ \u{200b}Вob ＡＤＭＩＮ\u{0}\u{1b}[31m",
        ]),
        Target::Actions => Vec::new(),
    }
}

/// Tokens that mean something to each target's parser.
fn dictionary(target: Target) -> &'static [&'static str] {
    match target {
        Target::MapSpec => &[
            "square",
            "rect",
            "hex",
            "honeycomb",
            "tri",
            "torus",
            "wavy",
            "random",
            "seed=",
            "amp=",
            "wrap",
            "cylinder",
            "klein",
            "cube",
            "goldberg",
            "grid",
            ":",
            "x",
            ",",
            "0",
            "1",
            "99999",
            "4294967295",
            "18446744073709551616",
            "-1",
        ],
        Target::Sgf => &[
            "(", ")", ";", "[", "]", "B", "W", "AB", "AW", "AE", "SZ", "KM", "HA", "PL", "RU", "tt", "aa",
            "zz", "\\", "19", "52", "1e308",
        ],
        Target::Gtp => &[
            "\n",
            " ",
            "play",
            "boardsize",
            "clear_board",
            "komi",
            "undo",
            "fixed_handicap",
            "place_free_handicap",
            "set_free_handicap",
            "final_score",
            "final_status_list dead",
            "showboard",
            "time_left b 10 1",
            "time_settings 0 1 1",
            "pass",
            "resign",
            "b",
            "w",
            "A1",
            "T19",
            "Z25",
            "25",
            "0",
            "-1",
            "1e308",
            "#",
        ],
        _ => &[
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "null",
            "true",
            "-1",
            "0",
            "1e308",
            "18446744073709551615",
            "\"type\"",
            "\"place\"",
            "\"node\"",
            "\"at\"",
            "\"players\"",
            "\"seats\"",
            "\"map\"",
            "\"rules\"",
            "\"settings\"",
            "\"nodes\"",
            "\"edges\"",
            "\"x\"",
            "\"y\"",
            "\"z\"",
            "\"label\"",
            "\"actions\"",
            "\"input\"",
            "\"player\"",
            "\"version\"",
        ],
    }
}

/// A mutated copy of a corpus entry (or fresh random bytes now and then).
fn mutate(rng: &mut Rng, corpus: &[Vec<u8>], dict: &[&str]) -> Vec<u8> {
    if corpus.is_empty() || rng.below(50) == 0 {
        let len = rng.below(64) as usize;
        return (0..len).map(|_| rng.below(256) as u8).collect();
    }
    let mut out = corpus[rng.below(corpus.len() as u32) as usize].clone();
    for _ in 0..1 + rng.below(4) {
        let len = out.len();
        let at = if len == 0 { 0 } else { rng.below(len as u32 + 1) as usize };
        match rng.below(8) {
            0 if len > 0 => {
                let i = at.min(len - 1);
                out[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = at.min(len - 1);
                out[i] = b"0123456789-\"{}[],:;.e\n "[rng.below(23) as usize];
            }
            2 | 3 => {
                let token = dict[rng.below(dict.len() as u32) as usize].as_bytes();
                out.splice(at..at, token.iter().copied());
            }
            4 if len > 0 => {
                let end = (at + 1 + rng.below(8) as usize).min(len);
                out.drain(at.min(end)..end);
            }
            5 if len > 0 => {
                // Replace a run of digits with an extreme number.
                let start = (0..len).map(|k| (at + k) % len).find(|&i| out[i].is_ascii_digit());
                if let Some(s) = start {
                    let e = (s..len).find(|&i| !out[i].is_ascii_digit()).unwrap_or(len);
                    let big: &[&str] =
                        &["0", "-1", "65536", "4294967296", "9223372036854775807", "1e308", "NaN"];
                    out.splice(s..e, big[rng.below(big.len() as u32) as usize].bytes());
                }
            }
            6 => {
                let other = &corpus[rng.below(corpus.len() as u32) as usize];
                if !other.is_empty() {
                    let from = rng.below(other.len() as u32) as usize;
                    let to = (from + 1 + rng.below(32) as usize).min(other.len());
                    out.splice(at..at, other[from..to].iter().copied());
                }
            }
            _ if len > 0 && len < 256 * 1024 => {
                let from = rng.below(len as u32) as usize;
                let to = (from + 1 + rng.below(16) as usize).min(len);
                let piece: Vec<u8> = out[from..to].to_vec();
                out.splice(at..at, piece);
            }
            _ => {}
        }
    }
    out
}

/// `gobeyond fuzz`: every target (or those named), `inputs` in all, split evenly.
pub fn command(
    targets: Vec<Target>,
    inputs: u64,
    seed: u64,
    replay: Option<PathBuf>,
    json: bool,
) -> Result<()> {
    if let Some(path) = replay {
        let target = *targets.first().ok_or_else(|| anyhow::anyhow!("--replay needs one --target"))?;
        let input = std::fs::read(&path)?;
        let result = catch_unwind(AssertUnwindSafe(|| check(target, &input)));
        match result {
            Ok(Ok(accepted)) => println!("no failure (accepted: {accepted})"),
            Ok(Err(e)) => bail!("{e}"),
            Err(p) => bail!("panic: {}", panic_text(&p)),
        }
        return Ok(());
    }
    let targets = if targets.is_empty() { Target::ALL.to_vec() } else { targets };
    let each = inputs.div_ceil(targets.len() as u64);
    let bar = indicatif::ProgressBar::new(each * targets.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {msg:12} [{bar:40}] {pos}/{len} ({per_sec}, {eta})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    // Panics are expected and caught: keep their messages off the terminal.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let started = std::time::Instant::now();
    let reports: Vec<TargetReport> = std::thread::scope(|scope| {
        let handles: Vec<_> = targets
            .iter()
            .map(|&t| {
                let bar = bar.clone();
                scope.spawn(move || {
                    let mut last = 0;
                    run(t, each, seed, |done| {
                        bar.inc(done - last);
                        bar.set_message(format!("{t:?}"));
                        last = done;
                    })
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    std::panic::set_hook(hook);
    bar.finish_and_clear();
    let total: u64 = reports.iter().map(|r| r.inputs).sum();
    let failures: usize = reports.iter().map(|r| r.failures.len()).sum();
    let seconds = started.elapsed().as_secs_f64();
    if json {
        println!(
            "{}",
            json!({"inputs": total, "failures": failures, "seconds": seconds, "seed": seed, "targets": reports})
        );
    } else {
        for r in &reports {
            println!(
                "{:<11} {:>10} inputs {:>9} accepted  corpus {:>5}  failures {}",
                format!("{:?}", r.target),
                r.inputs,
                r.accepted,
                r.corpus,
                r.failures.len()
            );
            for f in &r.failures {
                println!("  {f}");
            }
        }
        println!("{total} inputs in {seconds:.0} s, {failures} failures (seed {seed})");
    }
    if failures > 0 {
        bail!("{failures} fuzzing failures");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The short run of `make test`: every target, a few thousand inputs, no failure.
    #[test]
    fn every_target_survives_a_short_run() {
        for target in Target::ALL {
            let inputs = if target == Target::Actions { 3000 } else { 1500 };
            let report = run(target, inputs, 20261123, |_| {});
            assert!(report.failures.is_empty(), "{target:?}: {:?}", report.failures);
            assert!(report.inputs >= inputs, "{target:?} ran {} inputs", report.inputs);
            assert!(report.accepted > 0, "{target:?}: no input was ever accepted: the seeds are wrong");
        }
    }
}

//! Random games: every system on small maps of every family, played with legal inputs and the
//! inputs a careless or hostile client would send.

use super::*;

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
pub(super) fn play_random_game(seed: u64, budget: u64) -> (u64, u64, Option<String>) {
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

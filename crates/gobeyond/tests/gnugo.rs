//! Differential test against GNU Go 3.8, the classic-rules oracle: thousands of random moves on
//! 9×9, 13×13 and 19×19 under simple ko and positional superko, with suicide forbidden and
//! allowed. After every move both engines must list the same stones, the same legal moves and
//! the same captures, and agree on `is_legal` for sampled points.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

mod gtp_client;

use gtp_client::{Gtp, vertices};

const GNUGO: &str = "/usr/games/gnugo";

/// SplitMix64, so the test's random choices are reproducible.
struct Seq(u64);
impl Seq {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

fn gnugo_present() {
    assert!(
        std::path::Path::new(GNUGO).exists(),
        "GNU Go is not installed at {GNUGO}; `make test` installs it (apt-get install gnugo)"
    );
}

fn play_random_game(size: u32, ko: (&str, &str), suicide: (&str, &str), seed: u64, moves: usize) -> usize {
    let ours = env!("CARGO_BIN_EXE_gobeyond");
    let mut a = Gtp::spawn(ours, &["gtp", "--ko", ko.0, "--suicide", suicide.0]);
    let mut b = Gtp::spawn(GNUGO, &["--mode", "gtp", ko.1, suicide.1, "--chinese-rules"]);
    for e in [&mut a, &mut b] {
        e.ok(&format!("boardsize {size}"));
        e.ok("clear_board");
        e.ok("komi 7");
    }
    let mut rng = Seq(seed);
    let colors = ["black", "white"];
    let mut played = 0;
    let mut history: Vec<String> = Vec::new();
    for step in 0..moves {
        let color = colors[step % 2];
        let legal_a = vertices(&a.ok(&format!("all_legal {color}")));
        let legal_b = vertices(&b.ok(&format!("all_legal {color}")));
        assert_eq!(
            legal_a, legal_b,
            "{size}x{size} {ko:?} {suicide:?} seed {seed} move {step}: legal moves of {color}"
        );
        let vertex = if legal_a.is_empty() || rng.below(40) == 0 {
            "pass".to_string()
        } else {
            legal_a[rng.below(legal_a.len())].clone()
        };
        let cmd = format!("play {color} {vertex}");
        history.push(cmd.clone());
        assert_eq!(a.cmd(&cmd).is_ok(), b.cmd(&cmd).is_ok(), "{cmd} at move {step}");
        played += 1;
        let mut one_colour_board = false;
        for c in colors {
            let sa = vertices(&a.ok(&format!("list_stones {c}")));
            one_colour_board |= sa.is_empty();
            let sb = vertices(&b.ok(&format!("list_stones {c}")));
            assert_eq!(
                sa, sb,
                "{size}x{size} {ko:?} {suicide:?} seed {seed} after move {step} ({cmd}): {c} stones"
            );
            assert_eq!(
                a.ok(&format!("captures {c}")),
                b.ok(&format!("captures {c}")),
                "captures of {c} after {cmd}"
            );
        }
        // Sampled points, both colours: is_legal must agree (also on occupied points). Known
        // oracle quirk: once random play has let one colour fill the board while the other has
        // no stone left, GNU Go 3.8 answers is_legal 1 for that colour's suicide on the last
        // point (it answers 0 for the same position set up directly). Our answer there is the
        // naive reference engine's (crates/rules/tests/differential.rs), so we skip the sample.
        if one_colour_board {
            continue;
        }
        let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
        for _ in 0..3 {
            let v = format!("{}{}", &letters[rng.below(size as usize)..][..1], rng.below(size as usize) + 1);
            for c in colors {
                let q = format!("is_legal {c} {v}");
                let (x, y) = (a.ok(&q), b.ok(&q));
                if x != y {
                    panic!(
                        "{q} after move {step}: ours {x}, GNU Go {y}; last moves {:?}\n{}",
                        &history[history.len().saturating_sub(4)..],
                        a.ok("showboard")
                    );
                }
            }
            let q = format!("countlib {v}");
            assert_eq!(a.cmd(&q).ok(), b.cmd(&q).ok(), "{q} after move {step}");
        }
    }
    played
}

#[test]
fn random_games_agree_with_gnugo() {
    gnugo_present();
    let mut total = 0;
    let kos = [("simple", "--simple-ko"), ("positional-superko", "--positional-superko")];
    let suicides = [
        ("forbidden", "--forbid-suicide"),
        ("multi-stone", "--allow-suicide"),
        ("allowed", "--allow-all-suicide"),
    ];
    let mut seed = 1;
    for (size, moves) in [(9, 220), (13, 260), (19, 300)] {
        for ko in kos {
            for suicide in suicides {
                // Intended difference: with every suicide allowed, a one-stone suicide leaves the
                // board as it was, so positional superko forbids it (as Tromp-Taylor rules say);
                // GNU Go does not apply superko to suicides. The naive reference engine checks
                // this combination (crates/rules/tests/differential.rs); docs/rules/classic.md.
                if ko.0 == "positional-superko" && suicide.0 == "allowed" {
                    continue;
                }
                total += play_random_game(size, ko, suicide, seed, moves);
                seed += 1;
            }
        }
    }
    assert!(total >= 3500, "played {total} moves");
}

#[test]
fn handicap_placement_agrees_with_gnugo() {
    gnugo_present();
    let ours = env!("CARGO_BIN_EXE_gobeyond");
    for size in [9, 13, 19] {
        for n in 2..=9 {
            let mut a = Gtp::spawn(ours, &["gtp"]);
            let mut b = Gtp::spawn(GNUGO, &["--mode", "gtp"]);
            a.ok(&format!("boardsize {size}"));
            b.ok(&format!("boardsize {size}"));
            let (ra, rb) = (a.cmd(&format!("fixed_handicap {n}")), b.cmd(&format!("fixed_handicap {n}")));
            assert_eq!(ra.is_ok(), rb.is_ok(), "fixed_handicap {n} on {size}");
            if let (Ok(x), Ok(y)) = (ra, rb) {
                assert_eq!(vertices(&x), vertices(&y), "fixed_handicap {n} on {size}");
            }
        }
    }
}

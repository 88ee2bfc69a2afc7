//! What the fuzzer feeds each target: its seeds, the tokens its parser knows, and mutations of
//! the corpus.

use super::*;

/// Starting inputs per target.
pub(super) fn seeds(target: Target) -> Vec<String> {
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
pub(super) fn dictionary(target: Target) -> &'static [&'static str] {
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
pub(super) fn mutate(rng: &mut Rng, corpus: &[Vec<u8>], dict: &[&str]) -> Vec<u8> {
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

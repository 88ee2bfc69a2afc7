//! `gobeyond match`: engine matches over GTP and bot series of any rule system.

use super::*;

#[test]
fn match_runner_engines_and_bots() {
    let dir = tmp("match-sgf");
    let (ok, out, err) = run(
        &[
            "match",
            "--engine",
            "self:level=1",
            "--engine",
            "self:level=2,playouts=50",
            "--games",
            "2",
            "--size",
            "5",
            "--komi",
            "0.5",
            "--threads",
            "1",
            "--sgf-dir",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{err}");
    let s: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(s["games"], 2);
    assert_eq!(
        s["wins"][0].as_u64().unwrap() + s["wins"][1].as_u64().unwrap() + s["draws"].as_u64().unwrap(),
        2
    );
    let lo = s["interval"][0].as_f64().unwrap();
    let hi = s["interval"][1].as_f64().unwrap();
    assert!(0.0 <= lo && lo <= s["win_rate"].as_f64().unwrap() && hi <= 1.0);
    let sgf = std::fs::read_to_string(dir.join("game-001.sgf")).unwrap();
    // `--threads` reaches this program's own engines.
    assert!(sgf.contains("SZ[5]") && sgf.contains("PB[self:level=1,threads=1]"), "{sgf}");
    assert_eq!(s["engines"][1], "self:level=2,playouts=50,threads=1", "{out}");
    // Every record carries the result the summary counted (engine a is Black in game 1).
    let (mut a_wins, mut draws) = (0, 0);
    for (g, a_colour) in [(1, 'B'), (2, 'W')] {
        let sgf = std::fs::read_to_string(dir.join(format!("game-00{g}.sgf"))).unwrap();
        let re = sgf.split("RE[").nth(1).and_then(|r| r.chars().next());
        assert!(matches!(re, Some('B' | 'W' | '0')), "no result in game {g}: {sgf}");
        a_wins += usize::from(re == Some(a_colour));
        draws += usize::from(re == Some('0'));
    }
    assert_eq!(s["wins"][0].as_u64(), Some(a_wins as u64));
    assert_eq!(s["draws"].as_u64(), Some(draws as u64));

    // A series resumed at its second game plays that game alone, with engine a White as in
    // the whole series; a first game past the series' end is refused.
    let resumed = tmp("match-sgf-resumed");
    let engines = ["--engine", "self:level=1", "--engine", "self:level=2,playouts=50", "--size", "5"];
    let tail =
        ["--games", "2", "--threads", "1", "--first-game", "2", "--sgf-dir", resumed.to_str().unwrap()];
    let (ok, out, err) = run(&[&["match"][..], &engines, &tail].concat(), "");
    assert!(ok, "{err}");
    let s: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(s["games"], 1, "{out}");
    assert!(!resumed.join("game-001.sgf").exists());
    let sgf = std::fs::read_to_string(resumed.join("game-002.sgf")).unwrap();
    assert!(sgf.contains("PW[self:level=1,threads=1]"), "{sgf}");
    let (ok, _, err) = run(&[&["match"][..], &engines, &["--games", "2", "--first-game", "3"]].concat(), "");
    assert!(!ok && err.contains("--first-game 3"), "{err}");

    let (ok, out, err) = run(
        &["match", "--bot", "random", "--bot", "greedy", "--bot", "2", "--map", "hex:3", "--games", "3"],
        "",
    );
    assert!(ok, "{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    let wins: u64 = r["bots"].as_array().unwrap().iter().map(|b| b["wins"].as_u64().unwrap()).sum();
    assert_eq!(wins, 3);
    assert_eq!(r["wins_by_seat"].as_array().unwrap().len(), 3);
    let (ok, _, err) = run(&["match", "--bot", "random"], "");
    assert!(!ok && err.contains("two --engine"), "{err}");

    // Draws are counted as draws, not as a win for whoever is listed first: BeSiege without
    // the pie, stopped after White's first turn (only a drop is possible), is always 0–0.
    let args =
        ["match", "--rules", "besiege", "--map", "square:5", "--set", "pie=false", "--set", "max_turns=1"];
    let (ok, out, err) =
        run(&[&args[..], &["--bot", "random", "--bot", "greedy", "--games", "2"]].concat(), "");
    assert!(ok, "{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    for b in r["bots"].as_array().unwrap() {
        assert_eq!(
            (b["wins"].as_u64(), b["draws"].as_u64(), b["mean_place"].as_f64()),
            (Some(0), Some(2), Some(1.0)),
            "{r}"
        );
    }
    assert_eq!(r["wins_by_seat"], serde_json::json!([0, 0]));
}

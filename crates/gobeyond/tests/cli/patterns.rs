//! `gobeyond train fit`: the learned move patterns, fitted from records and reproducible.

use super::*;

/// `train fit` reads the project's own JSON records of classic games on any map (the bot's
/// games on a hex grid here) and refuses another rule system's records with a reason.
#[test]
fn the_patterns_fit_on_the_bots_own_records() {
    let dir = tmp("fit-json");
    let (ok, _, err) = run(
        &[
            "match",
            "--rules",
            "classic",
            "--bot",
            "3",
            "--bot",
            "2",
            "--map",
            "hex:3",
            "--games",
            "2",
            "--record-dir",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{err}");
    // A record that does not replay (a move on a stone) is left out and named, not fatal.
    std::fs::write(dir.join("broken.sgf"), "(;GM[1]FF[4]SZ[9];B[ee];W[ee])").unwrap();
    let out = tmp("fit-json.json");
    let (ok, report, err) = run(&["train", "fit", dir.to_str().unwrap(), "--out", out.to_str().unwrap()], "");
    assert!(ok, "{err}");
    let r: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(r["games"], 2, "{report}");
    let skipped = r["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{report}");
    assert!(skipped[0]["file"].as_str().unwrap().ends_with("broken.sgf"), "{report}");
    assert!(skipped[0]["reason"].as_str().unwrap().contains("replaying"), "{report}");
    assert!(err.contains("leaving out") && err.contains("broken.sgf"), "{err}");
    assert!(r["positions"].as_u64().unwrap() > 10, "{report}");
    let weights: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(!weights["shapes"].as_object().unwrap().is_empty(), "{weights}");

    let other = tmp("fit-way");
    let (ok, _, err) = run(
        &[
            "match",
            "--rules",
            "way-of-go",
            "--bot",
            "1",
            "--bot",
            "1",
            "--map",
            "square:5",
            "--games",
            "1",
            "--record-dir",
            other.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{err}");
    let (ok, _, err) = run(&["train", "fit", other.to_str().unwrap(), "--out", out.to_str().unwrap()], "");
    assert!(!ok && err.contains("way-of-go rules, not classic"), "{err}");
}

/// The checked-in pattern weights are what `train fit` makes of the checked-in records: the
/// small-board model (counted shapes) from GNU Go's 13×13 games, the big-board one (oriented
/// shapes) from 9-dan players' 19×19 games (one of which does not replay and is left out), each
/// then extended with the bot's own hex games for
/// the shapes of hex cells. The fitted weights predict held-out moves far better than equal
/// weights, and hex moves better than the square weights alone.
#[test]
fn the_pattern_weights_are_reproducible_from_the_records() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // `train fit RECORDS [--base FILE] [--counted] --out FILE`: its JSON report, the run
    // asserted to succeed.
    let fit = |records: &[&str], base: Option<&std::path::Path>, counted: bool, out: &std::path::Path| {
        let records: Vec<String> = records
            .iter()
            .map(|r| root.join("data/patterns").join(r).to_str().unwrap().to_string())
            .collect();
        let mut args = vec!["train", "fit"];
        args.extend(records.iter().map(String::as_str));
        args.extend(["--out", out.to_str().unwrap()]);
        if let Some(base) = base {
            args.extend(["--base", base.to_str().unwrap()]);
        }
        if counted {
            args.push("--counted");
        }
        let (ok, report, err) = run(&args, "");
        assert!(ok, "{err}");
        serde_json::from_str::<serde_json::Value>(&report).unwrap()
    };
    let models: [(&[&str], bool, &str); 2] =
        [(&["gnugo-13x13"], true, "patterns.json"), (&["tom-9d-19x19"], false, "patterns-big.json")];
    let out = tmp("patterns.json");
    for (records, counted, file) in models {
        let square = tmp(&format!("square-{file}"));
        let r = fit(records, None, counted, &square);
        let (before, after) =
            (r["before"]["top1"].as_f64().unwrap(), r["held_out"]["top1"].as_f64().unwrap());
        assert!(after > 10.0 * before, "{r}");
        // The big model weighs the 5×5 shapes played three times or more; the small one none.
        assert_eq!(r["large_shapes"].as_u64().unwrap() > 1000, !counted, "{r}");

        let r = fit(&["bot-hex7"], Some(&square), false, &out);
        let fitted = std::fs::read_to_string(&out).unwrap();
        let checked_in = std::fs::read_to_string(root.join("crates/bots/data").join(file)).unwrap();
        assert!(fitted == checked_in, "crates/bots/data/{file} is not the fit of data/patterns");
        let (base, extended) = (
            r["before"]["log_likelihood"].as_f64().unwrap(),
            r["held_out"]["log_likelihood"].as_f64().unwrap(),
        );
        assert!(extended > base + 0.1, "{r}");
        // The square model's groups are kept as they were.
        let square: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&square).unwrap()).unwrap();
        let extended: serde_json::Value = serde_json::from_str(&fitted).unwrap();
        assert_eq!(square["groups"], extended["groups"]);
        assert_eq!(extended["version"], if counted { 1 } else { 4 });
        // The big model weighs the line of moves in empty areas; the small one does not.
        assert_eq!(extended["groups"].get("line").is_some(), !counted, "{fitted}");
    }

    let (ok, _, err) =
        run(&["train", "fit", root.join("docs").to_str().unwrap(), "--out", out.to_str().unwrap()], "");
    assert!(!ok && err.contains("no game records"), "{err}");
}

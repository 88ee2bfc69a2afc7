//! Map tools, replays of records and the registry's rule systems, from the command line.

use super::*;

#[test]
fn map_list_and_show() {
    let (ok, out, _) = run(&["map", "list", "--json"], "");
    assert!(ok);
    let list: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(list.as_array().unwrap().len() >= 13);

    let svg = tmp("g.svg");
    let json = tmp("g.json");
    let (ok, out, err) = run(
        &[
            "map",
            "show",
            "goldberg:3,0",
            "--svg",
            svg.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
            "--start-points",
            "4",
        ],
        "",
    );
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["nodes"], 92);
    assert_eq!(v["degrees"]["5"], 12);
    assert_eq!(v["start_points"].as_array().unwrap().len(), 4);
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    // The exported JSON loads back as a custom map.
    let (ok, out, err) = run(&["map", "show", json.to_str().unwrap()], "");
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["nodes"], 92);
    assert_eq!(v["spec"], "custom");
}

#[test]
fn bad_maps_get_clear_errors() {
    let (ok, _, err) = run(&["map", "show", "hexx:5"], "");
    assert!(!ok && err.contains("unknown map kind"), "{err}");
    let bad = tmp("bad.json");
    std::fs::write(&bad, r#"{"nodes":[{"x":0,"y":0},{"x":1}],"edges":[[0,1],[0,0],[1,7]]}"#).unwrap();
    let (ok, _, err) = run(&["map", "show", bad.to_str().unwrap()], "");
    assert!(!ok);
    assert!(
        err.contains("node 1 has missing")
            && err.contains("edge #1 joins node 0 to itself")
            && err.contains("edge #2 names node 7"),
        "{err}"
    );
    std::fs::write(&bad, "{not json").unwrap();
    let (ok, _, err) = run(&["map", "show", bad.to_str().unwrap()], "");
    assert!(!ok && err.contains("line 1"), "{err}");
}

#[test]
fn replay_rejects_broken_records() {
    let bad = tmp("broken.json");
    std::fs::write(&bad, r#"{"format":"gobeyond-record","version":1,"map":{"spec":"square:9"},"rules":{"system":"classic","ko":"simple","suicide":"forbidden","komi":7,"scoring":"area"},"players":[{},{}],"actions":[{"player":0,"type":"place","at":"E5"},{"player":1,"type":"place","at":"E5"}]}"#).unwrap();
    let (ok, _, err) = run(&["replay", bad.to_str().unwrap()], "");
    assert!(!ok);
    assert!(err.contains("action #1") && err.contains("E5 is occupied"), "{err}");
}

#[test]
fn sgf_out_of_replay() {
    let sgf = tmp("in.sgf");
    std::fs::write(&sgf, "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc];B[gc])").unwrap();
    let out_sgf = tmp("out.sgf");
    let (ok, out, err) = run(&["replay", sgf.to_str().unwrap(), "--sgf", out_sgf.to_str().unwrap()], "");
    assert!(ok, "{err}");
    assert!(out.contains("\"moves_played\": 3"));
    let text = std::fs::read_to_string(&out_sgf).unwrap();
    assert!(text.contains(";B[ee]") && text.contains(";W[cc]") && text.contains("SZ[9]"), "{text}");
}

/// `--rules` takes what the registry has, and says so.
#[test]
fn rules_come_from_the_registry() {
    let (ok, _, err) = run(&["play", "--rules", "chess"], "");
    assert!(!ok && err.contains("gobeyond, classic") && err.contains("tromp-taylor"), "{err}");
    let (ok, out, _) = run(&["play", "--help"], "");
    assert!(ok && out.contains("gobeyond, gobeyond-untimed, classic, chinese"), "{out}");
    let (ok, out, err) = run(&["rules", "--json"], "");
    assert!(ok, "{err}");
    let systems: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = systems.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    // Every registered system, in the registry's order (no list here to keep up to date).
    let registered: Vec<&str> = gobeyond_rules::SYSTEMS.iter().map(|s| s.name).collect();
    assert_eq!(names, registered);
    assert_eq!(&names[..6], ["gobeyond", "classic", "tribal", "gengo", "way-of-go", "besiege"]);
    assert!(systems[1]["settings"].as_array().unwrap().iter().any(|s| s["name"] == "komi"));
}

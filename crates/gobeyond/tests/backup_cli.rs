//! `gobeyond backup` and `gobeyond restore` as an operator types them (docs/deploy.md,
//! "Backups"): an SQLite copy and a JSON export, each restored into a new database that holds
//! the accounts; an existing file is never written over. (The backup of a server in mid-game is
//! `crates/server/tests/integration/backup.rs`.)
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Output};

use gobeyond_server::store::Store;

fn gobeyond(args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gobeyond"));
    command.env_remove("GOBEYOND_DATABASE").args(args);
    command.output().unwrap()
}

#[tokio::test]
async fn both_kinds_of_backup_restore_into_a_new_database() {
    let dir = std::env::temp_dir().join(format!("gobeyond-backup-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).display().to_string();
    let url = format!("sqlite://{}", path("live.db"));
    let store = Store::connect(&url).await.unwrap();
    for name in ["ada", "bob", "cy"] {
        store.create_user(name, "registered", Some("not-a-hash"), None).await.unwrap();
    }

    let copy = path("copy.db");
    let out = gobeyond(&["backup", "--database", &url, "--to", &copy]);
    assert!(out.status.success(), "{out:?}");
    let export = path("export.jsonl");
    let out = gobeyond(&["backup", "--database", &url, "--format", "json", "--to", &export]);
    assert!(out.status.success(), "{out:?}");
    store.close().await;
    let out = gobeyond(&["backup", "--database", &url, "--to", &copy]);
    assert!(!out.status.success(), "written over: {out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("exists"), "{out:?}");

    for (from, into) in [(&copy, path("from-copy.db")), (&export, path("from-json.db"))] {
        let target = format!("sqlite://{into}");
        let out = gobeyond(&["restore", "--from", from, "--database", &target]);
        assert!(out.status.success(), "{from}: {out:?}");
        let restored = Store::connect(&target).await.unwrap();
        assert_eq!(restored.user_count().await.unwrap(), 3, "{from}");
        assert!(restored.user_by_name("bob").await.unwrap().is_some(), "{from}");
        restored.close().await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}

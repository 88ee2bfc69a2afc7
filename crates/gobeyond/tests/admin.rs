//! `gobeyond admin grant` (docs/moderation.md): the first admin is made on the command line,
//! in the audit log as the command line's; bad names and roles are refused with what was wrong.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use gobeyond_server::store::Store;

fn admin(args: &[&str]) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gobeyond"));
    command.env_remove("GOBEYOND_DATABASE").arg("admin").args(args);
    command.output().unwrap()
}

#[tokio::test]
async fn the_command_line_grants_roles_into_the_audit_log() {
    let dir = std::env::temp_dir().join(format!("gobeyond-admin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("g.db").display());
    let store = Store::connect(&url).await.unwrap();
    let root = store.create_user("root", "registered", Some("not-a-hash"), None).await.unwrap();
    let guest = store.create_user("guest-1", "guest", None, None).await.unwrap();

    let out = admin(&["grant", "root", "admin", "--database", &url]);
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("root is now admin"), "{out:?}");
    assert_eq!(store.standing(root.id).await.unwrap().role, "admin");
    let log = store.moderation_log(Some(root.id), 10).await.unwrap();
    assert_eq!((log[0].action.as_str(), log[0].reason.as_str()), ("grant", "admin"));
    assert_eq!(log[0].moderator, None, "the command line's line names no moderator");

    for (args, says) in [
        (["grant", "nobody", "moderator"], "nobody"),
        (["grant", "root", "king"], "king"),
        (["grant", &guest.name, "moderator"], "registered"),
    ] {
        let out = admin(&[args[0], args[1], args[2], "--database", &url]);
        assert!(!out.status.success(), "{args:?}: {out:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{args:?}: {out:?}");
    }
    let out = admin(&["grant", "root", "player"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--database"), "{out:?}");
    assert_eq!(store.standing(root.id).await.unwrap().role, "admin", "nothing changed");
    store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

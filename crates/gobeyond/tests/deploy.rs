//! What docs/deploy.md promises an operator: the settings' three sources and their precedence,
//! the container's runtime layout (the binary alone, run as the image runs it, answers its
//! health check), and deploy files that name only settings the binary knows.
//!
//! No container engine runs on the test machines, so the image itself is not built here; the
//! Dockerfile is linted by `scripts/lint-deploy` (hadolint) in `make test`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    process::{Child, Command, Output, Stdio},
    time::{Duration, Instant},
};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobeyond-deploy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The program with no `GOBEYOND_*` variable inherited from the test's environment.
fn gobeyond(binary: &Path) -> Command {
    let mut command = Command::new(binary);
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("GOBEYOND_") {
            command.env_remove(name);
        }
    }
    command
}

/// Copies a program and waits until it can run. A test on another thread that starts a process
/// while the copy is open for writing hands the child that file (until its `exec` closes it), and
/// running the copy meanwhile fails with "Text file busy" (ETXTBSY).
fn copy_executable(from: &Path, to: &Path) {
    std::fs::copy(from, to).unwrap();
    for _ in 0..100 {
        match Command::new(to).arg("--version").output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(Duration::from_millis(20));
            }
            result => {
                assert!(result.unwrap().status.success(), "the copy runs");
                return;
            }
        }
    }
    panic!("{} stayed busy for 2 s after the copy", to.display());
}

/// A server that is killed when the test ends, passing or failing.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs `gobeyond healthcheck` until it succeeds (the server is starting) or a minute passes.
fn wait_healthy(binary: &Path, url: &str, server: &mut Server) -> Output {
    let start = Instant::now();
    loop {
        let out = gobeyond(binary).args(["healthcheck", "--url", url]).output().unwrap();
        if out.status.success() {
            return out;
        }
        if let Some(status) = server.0.try_wait().unwrap() {
            panic!("the server stopped ({status}) before answering {url}");
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no healthy answer from {url}: {out:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_config_file_sets_what_flags_and_the_environment_leave_unset() {
    let binary = Path::new(env!("CARGO_BIN_EXE_gobeyond"));
    let dir = temp_dir("config");
    let (file_port, env_port) = (free_port(), free_port());
    let config = dir.join("gobeyond.toml");
    std::fs::write(
        &config,
        format!(
            "listen = \"127.0.0.1:{file_port}\"\ndatabase = \"sqlite://{}\"\ntrusted-proxy = [\"10.0.0.2\", \
             \"10.0.0.3\"]\nsecure-cookies = true\nreviews-at-once = 0\n",
            dir.join("file.db").display()
        ),
    )
    .unwrap();

    // The file alone: the server listens where the file says, on the file's database.
    let mut server = Server(
        gobeyond(binary)
            .args(["serve", "--config"])
            .arg(&config)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let out = wait_healthy(binary, &format!("http://127.0.0.1:{file_port}/api/health"), &mut server);
    assert!(String::from_utf8_lossy(&out.stdout).contains("instance"), "{out:?}");
    assert!(dir.join("file.db").exists(), "the file's database was not used");
    drop(server);

    // The environment wins over the file, and is how the config file is named too.
    let mut server = Server(
        gobeyond(binary)
            .arg("serve")
            .env("GOBEYOND_CONFIG", &config)
            .env("GOBEYOND_LISTEN", format!("127.0.0.1:{env_port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    wait_healthy(binary, &format!("http://127.0.0.1:{env_port}/api/health"), &mut server);
    drop(server);

    // A flag wins over both.
    let flag_port = free_port();
    let mut server = Server(
        gobeyond(binary)
            .args(["serve", "--config"])
            .arg(&config)
            .args(["--listen", &format!("127.0.0.1:{flag_port}")])
            .env("GOBEYOND_LISTEN", format!("127.0.0.1:{env_port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    wait_healthy(binary, &format!("http://127.0.0.1:{flag_port}/api/health"), &mut server);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_config_file_is_refused_with_what_was_wrong() {
    let binary = Path::new(env!("CARGO_BIN_EXE_gobeyond"));
    let dir = temp_dir("bad-config");
    let cases: [(&str, &str); 5] = [
        ("lisen = \"127.0.0.1:1\"\n", "unknown setting `lisen`"),
        ("listen = \"nowhere\"\n", "--listen"),
        ("listen = \n", "not valid TOML"),
        ("test-hooks = true\n", "unknown setting `test-hooks`"),
        ("secure-cookies = \"maybe\"\n", "true or false"),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let config = dir.join(format!("{i}.toml"));
        std::fs::write(&config, text).unwrap();
        let out = gobeyond(binary).args(["serve", "--config"]).arg(&config).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{text:?} was accepted");
        assert!(stderr.contains(expected), "{text:?}: {stderr}");
    }
    let out = gobeyond(binary).args(["serve", "--config", "/nonexistent/gobeyond.toml"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/gobeyond.toml"), "{out:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The image's runtime stage, without a container: the binary alone in an empty directory, run
/// as the Dockerfile runs it (its environment, a data directory as the working directory), with
/// no access to the source tree's files.
#[test]
fn the_binary_alone_serves_as_the_image_runs_it() {
    let dir = temp_dir("runtime");
    let binary = dir.join("bin/gobeyond");
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::fs::create_dir_all(dir.join("data/reports")).unwrap();
    copy_executable(Path::new(env!("CARGO_BIN_EXE_gobeyond")), &binary);
    let port = free_port();
    let mut server = Server(
        gobeyond(&binary)
            .arg("serve")
            .current_dir(dir.join("data"))
            .env_clear()
            .env("GOBEYOND_LISTEN", format!("0.0.0.0:{port}"))
            .env("GOBEYOND_DATABASE", format!("sqlite://{}", dir.join("data/gobeyond.db").display()))
            .env("GOBEYOND_REPORTS", dir.join("data/reports"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    // The Dockerfile's HEALTHCHECK runs `gobeyond healthcheck` with the image's environment.
    let start = Instant::now();
    loop {
        let out = gobeyond(&binary)
            .arg("healthcheck")
            .env_clear()
            .env("GOBEYOND_LISTEN", format!("0.0.0.0:{port}"))
            .output()
            .unwrap();
        if out.status.success() {
            break;
        }
        assert!(server.0.try_wait().unwrap().is_none(), "the server stopped");
        assert!(start.elapsed() < Duration::from_secs(60), "never healthy: {out:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(dir.join("data/gobeyond.db").exists());
    drop(server);

    // A server that does not answer fails the health check, naming where it asked.
    let out = gobeyond(&binary)
        .args(["healthcheck", "--url", &format!("http://127.0.0.1:{port}/api/health")])
        .output();
    let out = out.unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("127.0.0.1:{port}")), "{out:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The runtime image carries no libraries of its own: the binary needs only what every Debian
/// has (docs/deploy.md lists them).
#[test]
fn the_binary_needs_only_the_c_library() {
    let out = Command::new("ldd").arg(env!("CARGO_BIN_EXE_gobeyond")).output().expect("ldd runs");
    assert!(out.status.success(), "{out:?}");
    let allowed = ["linux-vdso.so.1", "libc.so.6", "libm.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2"];
    let needed: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(|lib| lib.rsplit('/').next().unwrap_or(lib).to_string())
        .collect();
    let extra: Vec<&String> = needed.iter().filter(|lib| !allowed.contains(&lib.as_str())).collect();
    assert!(
        extra.is_empty(),
        "the binary needs {extra:?} besides the C library: the runtime image lacks them"
    );
}

/// `GOBEYOND_*` names in a deploy file or docs/deploy.md that `gobeyond serve` does not read.
fn unknown_settings(text: &str, known: &BTreeSet<String>) -> Vec<String> {
    let mut unknown = Vec::new();
    for (i, _) in text.match_indices("GOBEYOND_") {
        let name: String = text[i..]
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
            .collect();
        // compose.yaml's own variable for the database password.
        if name != "GOBEYOND_DB_PASSWORD" && !known.contains(&name) {
            unknown.push(name);
        }
    }
    unknown
}

#[test]
fn deploy_files_and_the_settings_table_name_only_settings_the_binary_reads() {
    let help = Command::new(env!("CARGO_BIN_EXE_gobeyond")).args(["serve", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout).to_string();
    let known: BTreeSet<String> = help
        .match_indices("[env: ")
        .map(|(i, _)| help[i + 6..].chars().take_while(|c| *c != '=' && *c != ']').collect())
        .collect();
    assert!(known.contains("GOBEYOND_DATABASE") && known.len() > 25, "{known:?}");
    for file in ["Dockerfile", "compose.yaml", "docs/deploy.md"] {
        let text = std::fs::read_to_string(repo().join(file)).unwrap();
        assert_eq!(
            unknown_settings(&text, &known),
            Vec::<String>::new(),
            "{file} names settings serve does not read"
        );
    }
    // docs/deploy.md's settings table has a row for every setting.
    let deploy = std::fs::read_to_string(repo().join("docs/deploy.md")).unwrap();
    let missing: Vec<&String> = known.iter().filter(|name| !deploy.contains(&format!("`{name}`"))).collect();
    assert!(missing.is_empty(), "docs/deploy.md's settings table lacks {missing:?}");
    // The image's health check is a command the binary has.
    let dockerfile = std::fs::read_to_string(repo().join("Dockerfile")).unwrap();
    assert!(dockerfile.contains("CMD [\"gobeyond\", \"healthcheck\"]"));
    let out = Command::new(env!("CARGO_BIN_EXE_gobeyond")).args(["healthcheck", "--help"]).output().unwrap();
    assert!(out.status.success());
}

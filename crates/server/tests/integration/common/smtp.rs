//! A real SMTP server for the mail tests: Python's aiosmtpd (Debian python3-aiosmtpd, installed
//! by `scripts/install-test-deps`) writing every message it accepts into a Maildir.

use std::{
    net::SocketAddr,
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::Duration,
};

pub struct SmtpSink {
    pub port: u16,
    dir: PathBuf,
    child: Option<Child>,
}

/// A port free now (the sink, or a server started later, takes it).
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("address").port()
}

impl SmtpSink {
    pub async fn start() -> SmtpSink {
        SmtpSink::start_on(free_port()).await
    }

    /// A sink on `port`, answering once this returns.
    pub async fn start_on(port: u16) -> SmtpSink {
        let dir =
            std::env::temp_dir().join(format!("gobeyond-smtp-{}-{}", std::process::id(), super::unique()));
        std::fs::create_dir_all(&dir).expect("a mail directory");
        let mut sink = SmtpSink { port, dir, child: None };
        sink.run().await;
        sink
    }

    async fn run(&mut self) {
        // Debian's Python, which has the package (not a python3 of pyenv or a virtualenv).
        let python =
            if std::path::Path::new("/usr/bin/python3").exists() { "/usr/bin/python3" } else { "python3" };
        let child = Command::new(python)
            .args([
                "-m",
                "aiosmtpd",
                "-n",
                "-l",
                &format!("127.0.0.1:{}", self.port),
                "-c",
                "aiosmtpd.handlers.Mailbox",
            ])
            .arg(self.dir.join("box"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 runs (scripts/install-test-deps installs python3-aiosmtpd)");
        self.child = Some(child);
        let addr = SocketAddr::from(([127, 0, 0, 1], self.port));
        for _ in 0..200 {
            if let Some(c) = self.child.as_mut()
                && let Ok(Some(status)) = c.try_wait()
            {
                panic!(
                    "the SMTP sink stopped ({status}): is python3-aiosmtpd installed? run scripts/install-test-deps"
                );
            }
            if tokio::net::TcpStream::connect(addr).await.is_ok() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the SMTP sink did not answer on port {}", self.port);
    }

    /// Stops answering (the server's mails then wait in its queue).
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Answers again on the same port, keeping what arrived.
    pub async fn restart(&mut self) {
        self.stop();
        self.run().await;
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Every message received so far, as text (headers unfolded, quoted-printable soft breaks
    /// joined).
    pub fn messages(&self) -> Vec<String> {
        let new = self.dir.join("box").join("new");
        let mut files: Vec<_> =
            std::fs::read_dir(&new).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
        files.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
        files
            .iter()
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .map(|t| {
                let t = t.replace("\r\n", "\n");
                let (head, body) = t.split_once("\n\n").unwrap_or((&t, ""));
                format!("{}\n\n{}", head.replace("\n ", " ").replace("\n\t", " "), body.replace("=\n", ""))
            })
            .collect()
    }

    /// The messages to `to`.
    pub fn messages_to(&self, to: &str) -> Vec<String> {
        self.messages()
            .into_iter()
            .filter(|m| m.lines().any(|l| l.starts_with("To:") && l.contains(to)))
            .collect()
    }

    /// Waits (up to `secs`) for a message to `to` satisfying `pred`.
    pub async fn wait_for(&self, to: &str, secs: u64, pred: impl Fn(&str) -> bool) -> String {
        let end = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            if let Some(m) = self.messages_to(to).into_iter().find(|m| pred(m)) {
                return m;
            }
            assert!(
                tokio::time::Instant::now() < end,
                "no such mail to {to} within {secs} s; got {:#?}",
                self.messages()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The token of the first link to `#/mail/<what>/` in a message.
pub fn link_token(message: &str, what: &str) -> String {
    let marker = format!("#/mail/{what}/");
    let at = message.find(&marker).unwrap_or_else(|| panic!("no {what} link in {message}"));
    message[at + marker.len()..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

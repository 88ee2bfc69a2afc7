//! `gobeyond healthcheck`: asks a running server's `/api/health` whether it serves, for a
//! container's health check (the runtime image has no curl: docs/deploy.md, "A container image").

use std::{net::SocketAddr, time::Duration};

use anyhow::{Context, Result, bail};
use clap::Args;

#[derive(Debug, Args)]
pub struct HealthArgs {
    /// The health address to ask (default: `/api/health` at GOBEYOND_LISTEN, 127.0.0.1:8080 when
    /// unset; a wildcard listen address is asked on this machine's loopback).
    #[arg(long)]
    url: Option<String>,
    /// Seconds to wait for the answer.
    #[arg(long, default_value_t = 5.0)]
    timeout_seconds: f64,
}

/// Succeeds, printing the server's answer, when it answers 200 with its health report.
pub fn run(args: HealthArgs) -> Result<()> {
    let url = match args.url {
        Some(url) => url,
        None => default_url(std::env::var("GOBEYOND_LISTEN").ok().as_deref())?,
    };
    if !(args.timeout_seconds.is_finite() && args.timeout_seconds > 0.0) {
        bail!("--timeout-seconds must be a positive number");
    }
    let timeout = Duration::from_secs_f64(args.timeout_seconds.min(3600.0));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let body = runtime.block_on(async {
        let client = reqwest::Client::builder().timeout(timeout).build()?;
        let response = client.get(&url).send().await.with_context(|| format!("asking {url}"))?;
        let status = response.status();
        let body = response.text().await.with_context(|| format!("reading the answer of {url}"))?;
        if !status.is_success() {
            bail!("{url} answered {status}");
        }
        anyhow::Ok(body)
    })?;
    let report: serde_json::Value =
        serde_json::from_str(&body).with_context(|| format!("{url} did not answer a health report"))?;
    if report.get("instance").is_none() {
        bail!("{url} did not answer a health report (no instance named)");
    }
    println!("{report}");
    Ok(())
}

/// `/api/health` at a listen address (`HOST:PORT`).
fn default_url(listen: Option<&str>) -> Result<String> {
    let mut addr: SocketAddr = listen
        .unwrap_or("127.0.0.1:8080")
        .parse()
        .with_context(|| format!("GOBEYOND_LISTEN is not an address and port: {listen:?}"))?;
    if addr.ip().is_unspecified() {
        addr.set_ip(if addr.is_ipv4() {
            [127, 0, 0, 1].into()
        } else {
            std::net::Ipv6Addr::LOCALHOST.into()
        });
    }
    Ok(format!("http://{addr}/api/health"))
}

#[cfg(test)]
mod tests {
    use super::default_url;

    #[test]
    fn a_wildcard_listen_address_is_asked_on_loopback() {
        assert_eq!(default_url(Some("0.0.0.0:9000")).unwrap(), "http://127.0.0.1:9000/api/health");
        assert_eq!(default_url(Some("[::]:80")).unwrap(), "http://[::1]:80/api/health");
        assert_eq!(default_url(None).unwrap(), "http://127.0.0.1:8080/api/health");
        assert_eq!(default_url(Some("10.0.0.5:8080")).unwrap(), "http://10.0.0.5:8080/api/health");
        assert!(default_url(Some("nowhere")).unwrap_err().to_string().contains("GOBEYOND_LISTEN"));
    }
}

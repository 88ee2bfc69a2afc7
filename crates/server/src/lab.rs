//! The designers' lab reports (`gobeyond lab ... --html FILE`) that this server shows: the HTML
//! files of one directory, listed and served read-only. Names are checked against a strict
//! alphabet (no path ever leaves the directory), lists and files are bounded, and reports are
//! served with a sandboxing content policy so a report can never act on the site.

use std::path::{Path as FsPath, PathBuf};

use axum::{
    Json,
    extract::{Path, State},
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;

use crate::{AppState, error::ApiError};

/// At most this many reports are listed (the newest first).
pub const MAX_LISTED: usize = 500;
/// Reports larger than this are not served.
pub const MAX_BYTES: u64 = 16 << 20;

#[derive(Debug, Serialize, PartialEq)]
pub struct ReportEntry {
    pub name: String,
    pub title: String,
    pub bytes: u64,
    /// Seconds since the Unix epoch.
    pub modified: u64,
}

#[derive(Debug, Serialize)]
pub struct ReportList {
    /// Whether this server has a reports directory at all.
    pub enabled: bool,
    pub reports: Vec<ReportEntry>,
}

/// A report name: letters, digits, `-`, `_` and `.`, ending in `.html`, not hidden.
pub fn valid_name(name: &str) -> bool {
    name.len() <= 200
        && name.ends_with(".html")
        && !name.starts_with('.')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// The `<title>` of a report, from its first kilobytes.
fn title_of(head: &str) -> Option<String> {
    let start = head.find("<title>")? + "<title>".len();
    let end = head[start..].find("</title>")? + start;
    let t = head[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    Some(t.trim().chars().take(200).collect())
}

/// The reports in `dir`, newest first, at most [`MAX_LISTED`].
pub fn list(dir: &FsPath) -> std::io::Result<Vec<ReportEntry>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)?.take(20 * MAX_LISTED) {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let meta = entry.metadata()?;
        if !valid_name(&name) || !meta.is_file() {
            continue;
        }
        let mut head = vec![0u8; 4096];
        let n = std::io::Read::read(&mut std::fs::File::open(entry.path())?, &mut head)?;
        let title = title_of(&String::from_utf8_lossy(&head[..n])).unwrap_or_else(|| name.clone());
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_secs());
        out.push(ReportEntry { name, title, bytes: meta.len(), modified });
    }
    out.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.name.cmp(&b.name)));
    out.truncate(MAX_LISTED);
    Ok(out)
}

fn dir(state: &AppState) -> Option<PathBuf> {
    state.config.reports.clone()
}

/// `GET /api/lab/reports`: the reports this server has.
pub async fn reports(State(state): State<AppState>) -> Result<Json<ReportList>, ApiError> {
    let Some(dir) = dir(&state) else { return Ok(Json(ReportList { enabled: false, reports: Vec::new() })) };
    let listed = tokio::task::spawn_blocking(move || list(&dir))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    // A directory not made yet is an empty list, not an error.
    let reports = match listed {
        Ok(r) => r,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(ApiError::Internal(format!("reading the reports: {e}"))),
    };
    Ok(Json(ReportList { enabled: true, reports }))
}

/// `GET /api/lab/reports/{name}`: one report, sandboxed.
pub async fn report(State(state): State<AppState>, Path(name): Path<String>) -> Result<Response, ApiError> {
    if !valid_name(&name) {
        return Err(ApiError::BadRequest(format!(
            "{name:?} is not a report name (letters, digits, '-', '_', '.', ending in .html)"
        )));
    }
    let Some(dir) = dir(&state) else {
        return Err(ApiError::NotFound("this server keeps no lab reports".into()));
    };
    let path = dir.join(&name);
    // Streamed from the file: a client that never reads holds a file and a buffer, not the
    // whole report (reports were read into memory for every request).
    let opened = async {
        let file = tokio::fs::File::open(&path).await?;
        let meta = file.metadata().await?;
        std::io::Result::Ok((meta.is_file() && meta.len() <= MAX_BYTES).then_some((file, meta.len())))
    };
    let (file, length) = match opened.await {
        Ok(Some(f)) => f,
        Ok(None) => {
            return Err(ApiError::NotFound(format!("{name} is not a report of at most {MAX_BYTES} bytes")));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ApiError::NotFound(format!("no report named {name}")));
        }
        Err(e) => return Err(ApiError::Internal(format!("reading {name}: {e}"))),
    };
    use tokio::io::AsyncReadExt;
    let body = axum::body::Body::from_stream(tokio_util::io::ReaderStream::new(file.take(length)));
    let mut r = body.into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    // Reports draw with inline SVG and styles; they run no script and reach nothing.
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:"),
    );
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_stay_in_the_directory() {
        assert!(valid_name("komi-goldberg.html"));
        assert!(valid_name("hex5_occupy.v2.html"));
        for bad in
            ["../x.html", "a/b.html", ".hidden.html", "x.htm", "x.html\0", "x y.html", "%2e%2e.html", ""]
        {
            assert!(!valid_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn lists_reports_with_their_titles_newest_first() {
        let dir = std::env::temp_dir().join(format!("gobeyond-lab-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.html"), "<html><head><title>Seats &amp; komi</title>").unwrap();
        std::fs::write(dir.join("notes.txt"), "not a report").unwrap();
        std::fs::write(dir.join("b.html"), "no title here").unwrap();
        let listed = list(&dir).unwrap();
        let names: Vec<&str> = listed.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names.len(), 2, "{listed:?}");
        assert!(names.contains(&"a.html") && names.contains(&"b.html"));
        let a = listed.iter().find(|r| r.name == "a.html").unwrap();
        assert_eq!(a.title, "Seats & komi");
        assert_eq!(listed.iter().find(|r| r.name == "b.html").unwrap().title, "b.html");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

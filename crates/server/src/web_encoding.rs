//! Compressed copies of the web client's files: each text file is compressed once (brotli and
//! gzip), kept in memory, and sent to browsers that accept it. Compressing on every request would
//! let a loop of downloads spend the server's CPU; a copy made once costs a few hundred kB.

use axum::body::Bytes;
use std::{
    collections::HashMap,
    io::Write,
    sync::{Arc, Mutex, OnceLock},
};

/// A content coding both the server and the browser know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Coding {
    Brotli,
    Gzip,
}

impl Coding {
    pub fn header_value(self) -> &'static str {
        match self {
            Coding::Brotli => "br",
            Coding::Gzip => "gzip",
        }
    }
}

/// The coding to send for an `Accept-Encoding` header: brotli where the browser takes it (it is
/// about a fifth smaller than gzip on our scripts), gzip otherwise, none when neither is accepted
/// (including `;q=0`).
pub fn preferred(accept_encoding: &str) -> Option<Coding> {
    let mut gzip = false;
    let mut brotli = false;
    for item in accept_encoding.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let refused = parts.any(|p| {
            let p = p.trim();
            p.strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok()).is_some_and(|q| q <= 0.0)
        });
        if refused {
            continue;
        }
        match name.as_str() {
            "br" => brotli = true,
            "gzip" | "x-gzip" => gzip = true,
            "*" => {
                brotli = true;
                gzip = true;
            }
            _ => {}
        }
    }
    if brotli {
        Some(Coding::Brotli)
    } else if gzip {
        Some(Coding::Gzip)
    } else {
        None
    }
}

/// Whether a file of this MIME type is worth compressing (images and fonts already are).
pub fn compressible(mime: &str) -> bool {
    mime.starts_with("text/")
        || mime.starts_with("application/javascript")
        || mime.starts_with("application/json")
        || mime.starts_with("image/svg+xml")
        || mime.starts_with("application/wasm")
}

/// Files smaller than this go as they are: the headers would eat the saving.
const SMALLEST: usize = 1024;

/// Debug builds read files from disk, so a rebuilt client brings new digests; past this many the
/// cache starts again rather than growing.
const MOST_ENTRIES: usize = 256;

/// One file in one coding, compressed by the first request that needs it.
type Slot = Arc<OnceLock<Option<Bytes>>>;
type Cache = Mutex<HashMap<([u8; 32], Coding), Slot>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The file's bytes in `coding`, compressed on first use and kept (keyed by the file's digest).
/// `None` when the file is too small to be worth it (or could not be compressed). Call from a blocking thread: the first
/// compression of the 3-D chunk takes a moment.
pub fn encoded(digest: [u8; 32], data: &[u8], coding: Coding) -> Option<Bytes> {
    if data.len() < SMALLEST {
        return None;
    }
    let slot = {
        let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= MOST_ENTRIES && !map.contains_key(&(digest, coding)) {
            map.clear();
        }
        map.entry((digest, coding)).or_default().clone()
    };
    slot.get_or_init(|| compress(data, coding).map(Bytes::from)).clone()
}

fn compress(data: &[u8], coding: Coding) -> Option<Vec<u8>> {
    match coding {
        Coding::Brotli => {
            let mut out = Vec::with_capacity(data.len() / 4);
            // Quality 9 keeps the first request of the largest chunk well under a second; 11
            // saves a few more per cent for many times the time.
            let params = brotli::enc::BrotliEncoderParams { quality: 9, lgwin: 22, ..Default::default() };
            let mut input = data;
            brotli::BrotliCompress(&mut input, &mut out, &params).ok()?;
            Some(out)
        }
        Coding::Gzip => {
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            encoder.write_all(data).ok()?;
            encoder.finish().ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn the_browser_s_accept_encoding_picks_the_coding() {
        assert_eq!(preferred("gzip, deflate, br, zstd"), Some(Coding::Brotli));
        assert_eq!(preferred("gzip, deflate"), Some(Coding::Gzip));
        assert_eq!(preferred("br;q=0, gzip;q=0.5"), Some(Coding::Gzip));
        assert_eq!(preferred("br;q=0,gzip;q=0"), None);
        assert_eq!(preferred("identity"), None);
        assert_eq!(preferred(""), None);
        assert_eq!(preferred("*"), Some(Coding::Brotli));
    }

    #[test]
    fn compressed_copies_decode_to_the_file() {
        let data: Vec<u8> =
            (0..20_000u32).flat_map(|i| format!("let x{i} = {};\n", i % 7).into_bytes()).collect();
        let gz = encoded([1; 32], &data, Coding::Gzip).expect("large enough");
        assert!(gz.len() < data.len() / 4, "gzip: {} of {}", gz.len(), data.len());
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&gz[..]).read_to_end(&mut back).expect("gzip decodes");
        assert_eq!(back, data);

        let br = encoded([1; 32], &data, Coding::Brotli).expect("large enough");
        let mut back = Vec::new();
        brotli::BrotliDecompress(&mut &br[..], &mut back).expect("brotli decodes");
        assert_eq!(back, data);
        assert!(encoded([2; 32], b"tiny", Coding::Gzip).is_none());
    }
}

//! Release builds embed the web client (`web/dist`, by rust-embed). Cargo does not know that
//! folder: a release build made before `make web` kept serving "no web client" after the client
//! was built. Watching it makes the server crate rebuild when it appears or changes.

fn main() {
    println!("cargo:rerun-if-changed=../../web/dist");
    println!("cargo:rerun-if-changed=build.rs");
}

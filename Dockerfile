# syntax=docker/dockerfile:1
# The GoBeyond server as a container image: the web client built with Node, the release binary
# built with Rust (it embeds the client), and a slim runtime with that one binary run by a
# non-root user. docs/deploy.md ("A container image") explains the volumes and settings.

# 1. The web client: web/dist, which the server embeds.
FROM node:20-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
# The client's protocol types are generated from the server's Rust types and checked in.
RUN npm run build

# 2. The release binary. The release profile keeps line tables for profiling (141 MB); the image
#    needs none of them (29 MB). Symbols stay: a panic's backtrace still names its functions.
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock rustfmt.toml clippy.toml ./
COPY crates/ crates/
COPY --from=web /src/web/dist web/dist
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    CARGO_INCREMENTAL=0 cargo build --release --locked -p gobeyond \
    && cp target/release/gobeyond /usr/local/bin/gobeyond \
    && strip --strip-debug /usr/local/bin/gobeyond

# 3. The runtime: libc, libm and libgcc_s are the binary's only needs (TLS for mail is rustls
#    with its own roots; SQLite is compiled in).
FROM debian:bookworm-slim AS runtime
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin gobeyond \
    && mkdir -p /data/reports && chown -R gobeyond:gobeyond /data
COPY --from=build /usr/local/bin/gobeyond /usr/local/bin/gobeyond
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
ENV GOBEYOND_LISTEN=0.0.0.0:8080 \
    GOBEYOND_DATABASE=sqlite:///data/gobeyond.db \
    GOBEYOND_REPORTS=/data/reports
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["gobeyond", "healthcheck"]
ENTRYPOINT ["gobeyond"]
CMD ["serve"]

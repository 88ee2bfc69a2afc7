# The two commands of the README: `make run` and `make test`. Both install what they need.
.PHONY: run test test-deps build fmt lint bench

CARGO ?= cargo

# The game server with its web UI on http://127.0.0.1:8080, storing everything in gobeyond.db.
run:
	$(CARGO) run --release -p gobeyond -- serve --listen 127.0.0.1:8080 --database sqlite://gobeyond.db

test: test-deps
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) test --workspace

# System packages the tests use (GNU Go is the classic-rules oracle; PostgreSQL, started here,
# backs the server's storage and API tests next to SQLite).
test-deps:
	./scripts/install-test-deps

build:
	$(CARGO) build --release -p gobeyond

fmt:
	$(CARGO) fmt --all

lint:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

bench: build
	./target/release/gobeyond bench playouts --map square:9 --map square:19 --map torus:19 --map goldberg:6,0
	./target/release/gobeyond bench playouts --players 4 --map square:19
	./target/release/gobeyond bench copy

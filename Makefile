# The two commands of the README: `make run` and `make test`. Both install what they need.
.PHONY: run test test-deps build web web-test e2e screenshots fmt lint bench protocol

CARGO ?= cargo

# The game server with its web UI on http://127.0.0.1:8080, storing everything in gobeyond.db.
run: web
	$(CARGO) run --release -p gobeyond -- serve --listen 127.0.0.1:8080 --database sqlite://gobeyond.db

test: test-deps web
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) test --workspace
	CARGO=$(CARGO) ./scripts/check-web-embed
	./scripts/lint-deploy
	$(MAKE) web-test e2e

# The web client (web/): installed from the lockfile, type-checked and built into web/dist, which
# the server embeds in release builds (debug builds read it from disk).
web: web/node_modules/.installed
	cd web && npm run build --silent

web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	touch $@

# The web client's protocol types (web/src/protocol.ts), generated from the server's Rust types
# (crates/server/src/protocol/); `cargo test` fails while the checked-in copy is stale.
protocol:
	UPDATE_PROTOCOL=1 $(CARGO) test -p gobeyond-server --lib protocol

# The web client's unit tests (vitest).
web-test: web/node_modules/.installed
	cd web && npx vitest run

# End-to-end tests: the real server (debug build) and Debian's Chromium, driven by playwright-core.
# Screenshots of the main screens land in target/screenshots (`make screenshots` updates docs/).
e2e: web
	$(CARGO) build -p gobeyond
	cd web && node --test --test-concurrency=1 e2e/

screenshots: e2e
	mkdir -p docs/screenshots
	cp target/screenshots/*.png docs/screenshots/

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

# The two commands of the README: `make run` and `make test`. Both install what they need.
.PHONY: run test test-deps build fmt lint bench

CARGO ?= cargo

# For now a terminal game (pass-and-play on 9×9); it becomes the web server when the server lands.
run:
	$(CARGO) run --release -p gobeyond -- play --map square:9

test: test-deps
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) test --workspace

# System packages the tests use (GNU Go is the classic-rules oracle).
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

# Tellers: two commands. The logic lives in scripts/.
#   make serve   install what is missing, build, serve at http://127.0.0.1:8080
#   make test    everything CI checks; ends with `tests: N passed, M failed`

.PHONY: serve test tools test-tools build clean

serve:
	@scripts/serve.sh

test:
	@scripts/test.sh

# Build tools only: Rust wasm target, trunk, wasm-bindgen-cli, npm packages.
tools:
	@scripts/tools.sh

# Build tools plus Chromium for the browser tests.
test-tools:
	@scripts/test-tools.sh

# The release web app in dist/.
build: tools
	@scripts/build.sh

# Removes build output, screenshots and cargo's target/ (the next build is
# a full one: several minutes).
clean:
	rm -rf dist artifacts
	cargo clean

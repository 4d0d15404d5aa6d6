# Earshot: `make run` serves the demo podcast, `make test` runs every test.
# Both install what is missing first (scripts/setup.sh).
SHELL := /bin/bash
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PORT ?= 8080
# Audio output for `make run` (mpv's ao); empty lets mpv choose.
AUDIO ?=
# `make run LAN=1` also listens on the LAN (phones pair first; see SECURITY.md).
LAN ?=
TEST_OUTPUT ?= test-output

.PHONY: run test build release setup-run setup-test swift-test browser-test host-test baselines bench fuzz clean install deb

run: setup-run release
	.build/release/earshot serve --port $(PORT) $(if $(AUDIO),--audio-output $(AUDIO)) $(if $(LAN),--lan)

test: setup-test build
	$(MAKE) swift-test
	$(MAKE) browser-test
	$(MAKE) host-test

setup-run:
	@scripts/setup.sh run

setup-test:
	@scripts/setup.sh test

build:
	$(SWIFT) build --build-tests

release:
	$(SWIFT) build -c release --product earshot

# Serial: live-server and real-time mpv tests share 2 cores with CPU-heavy parser tests; in
# parallel those starve the servers' tasks (a few seconds late is a failed test, not a slow one).
swift-test:
	$(SWIFT) test --skip-build --no-parallel

browser-test:
	mkdir -p $(TEST_OUTPUT)
	EARSHOT_BIN=.build/debug/earshot TEST_OUTPUT=$(abspath $(TEST_OUTPUT)) .venv/bin/python -m pytest -v Tests/e2e

# Earshot on its host, for real (Tests/host): MPRIS on a private session bus driven by playerctl and
# busctl, sound recorded from a private PulseAudio's null sinks and measured, devices unplugged by
# unloading their modules, the service installed into a temporary prefix and packaged as a .deb.
# Each test starts the services it needs from the project's files and stops them.
host-test:
	mkdir -p $(TEST_OUTPUT)
	EARSHOT_BIN=.build/debug/earshot TEST_OUTPUT=$(abspath $(TEST_OUTPUT)) .venv/bin/python -m pytest -v Tests/host

# Rewrites the screenshot baselines (Tests/e2e/baselines/*.png) that are missing or no longer
# match, by running the browser tests with EARSHOT_UPDATE_BASELINES=1 (Tests/e2e/screens.py);
# look at what changed (git status, the images) before committing. One file:
# `make baselines BASELINE_TESTS=Tests/e2e/test_layout.py`.
BASELINE_TESTS ?= Tests/e2e
baselines: setup-test build
	mkdir -p $(TEST_OUTPUT)
	EARSHOT_UPDATE_BASELINES=1 EARSHOT_BIN=.build/debug/earshot TEST_OUTPUT=$(abspath $(TEST_OUTPUT)) .venv/bin/python -m pytest -v $(BASELINE_TESTS)

# Feed-parser benchmark against xmllint, podcastparser, feedparser and feedparser-rs, then the
# many-clients benchmark (latency of a change to every client, CPU of 500 clients) and the downloads
# benchmark (loopback throughput against curl), then library search (latency over 1,000 podcasts and
# 200,000 episodes, and what the index costs a 60,000-episode feed); not part of `make test`. The
# tables are also written to .build/bench/{feeds,clients,downloads,search}.md.
bench: setup-run release
	@scripts/bench-setup.sh
	$(SWIFT) build -c release --product earshot-parse
	.build/bench/venv/bin/python bench/feeds.py
	.build/bench/venv/bin/python bench/clients.py
	.build/bench/venv/bin/python bench/downloads.py
	$(SWIFT) build -c release --product earshot-bench
	mkdir -p .build/bench && .build/release/earshot-bench search | tee .build/bench/search.md

# libFuzzer on the feed parser and the show-notes sanitizer for 10 minutes (Fuzz/README.md);
# not part of `make test`. Findings land in .build/fuzz/findings/.
FUZZ_SECONDS ?= 600
fuzz: setup-run
	Fuzz/build.sh .build/fuzz
	mkdir -p .build/fuzz/corpus .build/fuzz/findings
	SWIFT_BACKTRACE=enable=no .build/fuzz/feeds-fuzz .build/fuzz/corpus \
	    ../shared/conformance/podcastparser ../shared/conformance/feeds/encoding \
	    -dict=Fuzz/feeds.dict -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
	    -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=.build/fuzz/findings/

clean:
	rm -rf .build $(TEST_OUTPUT)

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

# The tests, and what they run (Chromium, PulseAudio, the Swift toolchain), put their temporary files in
# a folder of this run's own, removed when it ends, passed or failed: a run left ~100 directories in /tmp
# (Chromium's singleton folders, PulseAudio's runtime folders, the toolchain's TemporaryDirectory.*).
test: setup-test
	@scratch=$$(mktemp -d /tmp/earshot-make-test.XXXXXX) && export TMPDIR=$$scratch && \
	    $(MAKE) build && $(MAKE) swift-test && $(MAKE) browser-test && $(MAKE) host-test; \
	    status=$$?; rm -rf "$$scratch"; exit $$status

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
	EARSHOT_BIN=.build/debug/earshot TEST_OUTPUT=$(abspath $(TEST_OUTPUT)) .venv/bin/python -m pytest -v --durations=30 Tests/e2e

# Earshot on its host, for real (Tests/host): MPRIS on a private session bus driven by playerctl and
# busctl, sound recorded from a private PulseAudio's null sinks and measured, devices unplugged by
# unloading their modules, the service installed into a temporary prefix and packaged as a .deb.
# Each test starts the services it needs from the project's files and stops them.
# The .deb test packages a build with the Swift runtime linked in (a Debian package may depend
# only on Debian's libraries): the earshot product alone, in a scratch folder of its own.
host-test:
	mkdir -p $(TEST_OUTPUT)
	$(SWIFT) build --product earshot --static-swift-stdlib --scratch-path .build/static
	EARSHOT_BIN=.build/debug/earshot EARSHOT_STATIC_BIN=.build/static/debug/earshot TEST_OUTPUT=$(abspath $(TEST_OUTPUT)) \
	    .venv/bin/python -m pytest -v --durations=30 Tests/host

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
# 200,000 episodes, and what the index costs a 60,000-episode feed), then the server's memory (idle,
# and while it subscribes a 60,000-item feed) and its JSON writing (`earshot parse --json`, the list
# endpoints), then a soak of SOAK_MINUTES minutes (default 60: 50 clients sending a command a second,
# refreshes and downloads; memory growth, dropped clients, latency first vs last); not part of
# `make test`. `SOAK_MINUTES=2 make bench` for a short soak. The tables are also written to
# .build/bench/{feeds,clients,downloads,search,memory,soak}.md. A step whose budget is missed says so
# in its table and exits 1; the steps after it run all the same (the `-`).
SOAK_MINUTES ?= 60
bench: setup-run release
	@scripts/bench-setup.sh
	$(SWIFT) build -c release --product earshot-parse
	-.build/bench/venv/bin/python bench/feeds.py
	-.build/bench/venv/bin/python bench/clients.py
	-.build/bench/venv/bin/python bench/downloads.py
	$(SWIFT) build -c release --product earshot-bench
	mkdir -p .build/bench && .build/release/earshot-bench search | tee .build/bench/search.md
	EARSHOT_BIN=.build/release/earshot .build/bench/venv/bin/python bench/memory.py
	EARSHOT_BIN=.build/release/earshot SOAK_MINUTES=$(SOAK_MINUTES) .build/bench/venv/bin/python bench/soak.py
	-EARSHOT_BIN=.build/release/earshot .build/bench/venv/bin/python bench/rooms.py
	-.build/bench/venv/bin/python bench/leveling.py | tee .build/bench/leveling.md

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

# `make install`: earshot, its web files (share/earshot/{Public,Templates}), the systemd user unit,
# the man page and the settings example under PREFIX (DESTDIR=… stages it elsewhere).
# EARSHOT_BINARY=path installs that binary instead of building the release one.
# The unit goes where systemd's user manager looks (`systemd-analyze --user unit-paths`):
# PREFIX/share/systemd/user is on that path for ~/.local ($XDG_DATA_HOME), /usr/local and /usr;
# for /usr and /usr/local it goes to PREFIX/lib/systemd/user, where packages put theirs.
PREFIX ?= $(HOME)/.local
DESTDIR ?=
EARSHOT_BINARY ?=
USER_UNIT_DIR ?= $(if $(filter /usr /usr/local,$(PREFIX)),$(PREFIX)/lib/systemd/user,$(PREFIX)/share/systemd/user)

install: $(if $(EARSHOT_BINARY),,release)
	@case '$(PREFIX)' in /*) ;; *) echo 'PREFIX must be an absolute path, not "$(PREFIX)"' >&2; exit 1;; esac
	install -D -m 755 $(or $(EARSHOT_BINARY),.build/release/earshot) '$(DESTDIR)$(PREFIX)/bin/earshot'
	rm -rf '$(DESTDIR)$(PREFIX)/share/earshot/Public' '$(DESTDIR)$(PREFIX)/share/earshot/Templates'
	install -d -m 755 '$(DESTDIR)$(PREFIX)/share/earshot'
	cp -R --no-preserve=mode,ownership Public Templates '$(DESTDIR)$(PREFIX)/share/earshot/'
	install -d -m 755 '$(DESTDIR)$(USER_UNIT_DIR)'
	sed 's|^ExecStart=/usr/bin/earshot|ExecStart=$(PREFIX)/bin/earshot|' packaging/earshot.service > '$(DESTDIR)$(USER_UNIT_DIR)/earshot.service'
	chmod 644 '$(DESTDIR)$(USER_UNIT_DIR)/earshot.service'
	install -D -m 644 packaging/earshot.1 '$(DESTDIR)$(PREFIX)/share/man/man1/earshot.1'
	install -D -m 644 packaging/earshot.conf.example '$(DESTDIR)$(PREFIX)/share/doc/earshot/earshot.conf.example'
	@echo
	@echo 'Installed $(PREFIX)/bin/earshot and $(USER_UNIT_DIR)/earshot.service. To run it at boot:'
	@echo '  systemctl --user daemon-reload'
	@echo '  systemctl --user enable --now earshot'
	@echo '  loginctl enable-linger $$USER'
	@echo 'Already running? systemctl --user restart earshot'
	@echo 'Settings: ~/.config/earshot/earshot.conf (every key: $(PREFIX)/share/doc/earshot/earshot.conf.example).'

# `make deb`: earshot_VERSION-DEB_REVISION_ARCH.deb in DEB_DIR, from a release build with the Swift
# runtime linked in (its own scratch path, so it does not rebuild .build/release), or from
# EARSHOT_BINARY=path; scripts/make-deb.sh assembles it and runs lintian.
VERSION ?= $(or $(shell sed -n 's/.*static let version = "\([^"]*\)".*/\1/p' Sources/EarshotCore/Support/Version.swift 2>/dev/null),0.1.0)
DEB_REVISION ?= 1
DEB_DIR ?= .build/deb

deb: $(if $(EARSHOT_BINARY),,setup-run)
	$(if $(EARSHOT_BINARY),,$(SWIFT) build -c release --product earshot --static-swift-stdlib --scratch-path .build/static)
	VERSION='$(VERSION)' DEB_REVISION='$(DEB_REVISION)' scripts/make-deb.sh $(or $(EARSHOT_BINARY),.build/static/release/earshot) '$(DEB_DIR)'

# ReplyKit — two commands set everything up on a fresh Debian/Ubuntu machine with the Swift toolchain:
#   make run    the main job (terminal chat demo, or a rendered example without a terminal)
#   make test   every test
# Both install missing system packages with apt-get (sudo when not root) and say what they install.

SWIFT ?= swift
SHELL := /bin/bash

# Debian packages: the C libraries the package links, and the tools the tests drive.
# libkf5syntaxhighlighting-dev brings KSyntaxHighlighting and Qt 5 (qtbase5-dev) for ReplyHighlight;
# libkf5syntaxhighlighting-tools is kate-syntax-highlighter, the reference the highlighting tests compare with.
LIB_PACKAGES  := libcmark-gfm-dev libcmark-gfm-extensions-dev libutf8proc-dev libkf5syntaxhighlighting-dev pkg-config
TEST_PACKAGES := cmark-gfm tmux chromium libkf5syntaxhighlighting-tools
BENCH_PACKAGES := cmark-gfm lowdown chromium python3-rich python3-pygments python3-venv hyperfine time libcurl4-openssl-dev libkf5syntaxhighlighting-tools

.PHONY: run test build bench fuzz fuzz-smoke deps deps-test deps-bench goldens clean lint

# Installs the Debian packages named in $(1) that are missing, or says what to install elsewhere.
define ensure_packages
	@missing=""; \
	if command -v dpkg-query >/dev/null 2>&1; then \
	  for p in $(1); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	  done; \
	  if [ -n "$$missing" ]; then \
	    echo "make: installing missing Debian packages:$$missing"; \
	    if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
	    $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null \
	      || { echo "make: apt-get failed; install by hand:$$missing" >&2; exit 1; }; \
	  fi; \
	elif [ "$$(uname)" = "Darwin" ]; then \
	  command -v brew >/dev/null && brew list cmark-gfm >/dev/null 2>&1 || \
	    echo "make: on macOS run: brew install cmark-gfm utf8proc ksyntaxhighlighting lowdown tmux hyperfine pkg-config"; \
	else \
	  echo "make: not a Debian/Ubuntu system; install the equivalents of: $(1)"; \
	fi
endef

deps:
	$(call ensure_packages,$(LIB_PACKAGES))

deps-test: deps
	$(call ensure_packages,$(TEST_PACKAGES))

deps-bench: deps
	$(call ensure_packages,$(BENCH_PACKAGES))

build: deps
	$(SWIFT) build

# The chat in the terminal (full screen); without a terminal it prints the Example and exits 0.
run: deps
	@$(SWIFT) build --product replykit 2>&1 | grep -E 'error:|warning:' || true
	@./.build/debug/replykit chat

test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel --num-workers 2 2>&1 | tee .build/test-output.txt | grep -v -E '^\[[0-9]+/[0-9]+\]|^(◇|↳)|started\.$$|passed after'; \
	  status=$${PIPESTATUS[0]}; \
	  grep -E 'HTML differential|Test run with|Executed [0-9]+ tests' .build/test-output.txt | sort -u; \
	  exit $$status
	@$(MAKE) --no-print-directory fuzz-smoke

# A short run of the libFuzzer harness (the in-process fuzzer's smoke runs inside the tests).
fuzz-smoke:
	@echo "libFuzzer smoke (20 s):"
	@rm -rf .build/libfuzzer/artifacts
	@scripts/libfuzzer.sh 20 2>&1 | grep -E '^(INFO: (fuzzed|exiting)|==[0-9]+==ERROR|SUMMARY)' || true
	@! ls .build/libfuzzer/artifacts/crash-* >/dev/null 2>&1 || { echo "libFuzzer found a crash: .build/libfuzzer/artifacts" >&2; exit 1; }

# A long libFuzzer run: make fuzz FUZZ_SECONDS=1800
FUZZ_SECONDS ?= 1800
fuzz: deps
	scripts/libfuzzer.sh $(FUZZ_SECONDS)

# Release builds link the Swift runtime and Foundation statically, with the toolchain's lld. They are
# no longer fully static (-static-executable): ReplyHighlight links KSyntaxHighlighting and Qt 5,
# which Debian ships only as shared libraries.
RELEASE_FLAGS := -c release -Xswiftc -static-stdlib -Xswiftc -use-ld=lld

bench: deps-bench
	$(SWIFT) build $(RELEASE_FLAGS) --product replykit
	$(SWIFT) build $(RELEASE_FLAGS) --product replykit-bench
	./scripts/bench.sh

goldens: deps
	REPLYKIT_REGENERATE_GOLDENS=1 $(SWIFT) test --filter Golden

lint:
	$(SWIFT) format lint -r Sources Tests

clean:
	rm -rf .build

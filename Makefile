# cardscan — the targets the README names.
PREFIX ?= /usr/local
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := libpcsclite-dev zlib1g-dev libnfc-dev libnfc-bin libusb-dev pcscd vsmartcard-vpcd pcsc-tools iproute2 python3-pyscard python3-jsonschema python3-yaml lintian man-db libnfc-examples libfreefare-bin chromium chromium-driver python3-selenium
DEMO_TRANSCRIPT := Tests/Fixtures/shanghai-transit/full-read.apdu
BIN = $(shell swift build --show-bin-path)

.PHONY: setup apt-packages build demo demo-serve soak-serve test example-consumer schema schema-check lab-stop install bench man man-check clean format lint fuzz fuzz-smoke soak deb deb-test release docs docs-check

apt-packages:
	@echo $(APT_PACKAGES)

## setup: install the Debian packages cardscan and its lab need (apt-get)
setup:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	  case " $$missing " in *" vsmartcard-vpcd "*) scripts/lab.sh system-vpcd off;; esac; \
	fi

build:
	swift build

## demo: the main job with no reader: pcscd + a virtual card holding the Shanghai transcript, then a scan
demo: setup build
	CARDSCAN_BIN=$(BIN) scripts/lab.sh start $(DEMO_TRANSCRIPT)
	$(BIN)/cardscan --profile shanghai-transit --timeout 10
	@echo "(the virtual card stays on 'Virtual PCD 00 00'; try: $(BIN)/cardscan readers, $(BIN)/cardscan --json, make lab-stop)"

## demo-serve: the page of `cardscan serve` with the virtual card on the lab's reader (Ctrl-C stops it; make lab-stop after)
demo-serve: setup build
	CARDSCAN_BIN=$(BIN) scripts/lab.sh start $(DEMO_TRANSCRIPT)
	$(BIN)/cardscan serve

## test: every test (unit, profile fixtures, the real pcscd lab, the CLI), the schema, the fixture regression and the quick soak
test: setup build
	swift build --build-tests
	scripts/background-builds.sh start
	CARDSCAN_BIN=$(BIN) scripts/swift-test.sh
	$(MAKE) --no-print-directory schema-check
	/usr/bin/python3 scripts/validate-schema.py
	/usr/bin/python3 scripts/calypso-lab-images.py --check
	/usr/bin/python3 scripts/korea-lab-images.py --check
	/usr/bin/python3 scripts/felica-lab-images.py --check
	/usr/bin/python3 scripts/desfire-lab-images.py --check
	/usr/bin/python3 scripts/emv-lab-images.py --check
	/usr/bin/python3 scripts/ultralight-lab-images.py --check
	/usr/bin/python3 scripts/classic-lab-images.py --check
	/usr/bin/python3 scripts/classic-transit-images.py --check
	$(BIN)/cardscan test Tests/Fixtures
	$(BIN)/cardscan profiles validate docs/examples/*.yaml --strict docs/examples
	$(MAKE) --no-print-directory example-consumer
	@# The README's first command, as a user runs it: it must read the virtual card. The lab is
	@# stopped whatever happened.
	@out=$$(mktemp); $(MAKE) --no-print-directory demo > $$out 2>&1; status=$$?; cat $$out; \
	  grep -q '^Shanghai Public Transportation Card' $$out || status=1; rm -f $$out; \
	  $(MAKE) --no-print-directory lab-stop; exit $$status
	SOAK_TAPS=50 CARDSCAN_BIN=$(BIN) scripts/soak.sh
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory man-check
	$(MAKE) --no-print-directory fuzz-smoke
	$(MAKE) --no-print-directory deb-test
	$(MAKE) --no-print-directory docs-check
	scripts/nothing-running.sh

## example-consumer: a package outside this one (Examples/consumer) depends on cardscan, as
## docs/library.md says, and reads a fixture by detection from another folder: the built-in
## profiles come with the library wherever its program lives
example-consumer:
	swift build --package-path Examples/consumer
	@out=$$(cd / && $(CURDIR)/Examples/consumer/.build/debug/read-transcript $(CURDIR)/Tests/Fixtures/clipper/detected.apdu); \
	  echo "$$out" | head -3; echo "$$out" | grep -q '"profile": "clipper"' || { echo "example-consumer: the fixture was not read by detection"; exit 1; }

## schema: write profiles/profile.schema.json and the key tables of docs/profile-format.md from
## the language's one list of keys (Sources/ProfileLanguage/Language/LanguageKeys.swift)
schema: build
	$(BIN)/cardscan profiles schema > profiles/profile.schema.json
	$(BIN)/cardscan profiles schema --docs < docs/profile-format.md > docs/profile-format.md.new && mv docs/profile-format.md.new docs/profile-format.md

## schema-check: fails when the committed schema or key tables are not what `make schema` writes
schema-check: build
	@$(BIN)/cardscan profiles schema | diff -u profiles/profile.schema.json - && \
	  $(BIN)/cardscan profiles schema --docs < docs/profile-format.md | diff -u docs/profile-format.md - && \
	  echo "profile.schema.json and docs/profile-format.md's key tables are current" || \
	  { echo "stale: run make schema and commit what it writes"; exit 1; }

## format: rewrite the Swift sources in the house style (.swift-format; the toolchain's `swift format`)
FORMAT_PATHS := Package.swift Sources Tests Examples/read-card Examples/consumer/Package.swift Examples/consumer/Sources Fuzz/Package.swift Fuzz/Sources
format:
	swift format format --in-place --parallel --recursive $(FORMAT_PATHS)

## lint: fail on anything `make format` would change, or a house rule it cannot fix
lint:
	swift format lint --strict --parallel --recursive $(FORMAT_PATHS)
	/usr/bin/python3 scripts/source-sizes.py

## fuzz: libFuzzer + AddressSanitizer on every parser of outside bytes, FUZZ_SECONDS each (default 60)
fuzz:
	scripts/fuzz.sh

## fuzz-smoke: every fuzz target for 3 s (part of `make test`: a target that stops building is noticed)
fuzz-smoke:
	FUZZ_SECONDS=3 scripts/fuzz.sh

## two-clients: `cardscan watch` reads 200 taps while a pyscard client SELECTs on the same reader (docs/reliability.md)
two-clients: setup build
	CARDSCAN_BIN=$(BIN) scripts/two-clients.sh

## soak: 1,000 taps on each of two virtual readers through one `cardscan watch` (about 20 minutes; SOAK_TAPS=50 is the quick form)
soak: build
	CARDSCAN_BIN=$(BIN) scripts/soak.sh

## soak-serve: `cardscan serve` over 1,000 taps with a page open (memory and descriptors flat), then
## 200 taps with serve killed (SIGKILL) halfway (no reported read lost, integrity_check ok)
soak-serve: build
	CARDSCAN_BIN=$(BIN) scripts/serve-soak.sh
	SERVE_SOAK_KILL=200 CARDSCAN_BIN=$(BIN) scripts/serve-soak.sh

lab-stop:
	scripts/lab.sh stop

## install: cardscan and cardsim into $(PREFIX)/bin, the built-in profiles into $(PREFIX)/share/cardscan/profiles
# (static Swift runtime: no dependency on /opt/swift, and a faster start). INSTALL_BIN=DIR
# installs the binaries already built in DIR instead (the test of this target uses the dev build).
INSTALL_BIN ?=
INSTALL_FROM = $(or $(INSTALL_BIN),.build-static/release)
install:
	@if [ -z "$(INSTALL_BIN)" ]; then \
	  swift build -c release --static-swift-stdlib --scratch-path .build-static --product cardscan && \
	  swift build -c release --static-swift-stdlib --scratch-path .build-static --product cardsim; fi
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/cardscan/profiles
	install -m 755 $(INSTALL_FROM)/cardscan $(INSTALL_FROM)/cardsim $(DESTDIR)$(PREFIX)/bin/
	install -m 644 profiles/*.yaml profiles/profile.schema.json $(DESTDIR)$(PREFIX)/share/cardscan/profiles/
	install -d $(DESTDIR)$(PREFIX)/share/cardscan/profiles/tables $(DESTDIR)$(PREFIX)/share/cardscan/profiles/layouts
	install -m 644 profiles/tables/*.yaml $(DESTDIR)$(PREFIX)/share/cardscan/profiles/tables/
	install -m 644 profiles/layouts/*.yaml $(DESTDIR)$(PREFIX)/share/cardscan/profiles/layouts/
	install -d $(DESTDIR)$(PREFIX)/share/cardscan/profiles/commands $(DESTDIR)$(PREFIX)/share/cardscan/profiles/types
	install -m 644 profiles/commands/*.yaml $(DESTDIR)$(PREFIX)/share/cardscan/profiles/commands/
	install -m 644 profiles/types/*.yaml $(DESTDIR)$(PREFIX)/share/cardscan/profiles/types/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 644 docs/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	@# The completions ask the installed cardscan itself (`cardscan __complete`): options, profile ids, readers.
	install -m 644 completions/cardscan.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/cardscan
	install -m 644 completions/_cardscan $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_cardscan
	install -m 644 completions/cardscan.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/cardscan.fish

## deb: cardscan_VERSION_ARCH.deb (scripts/deb.sh): the static release build, profiles, man pages,
## completions and copyright in Debian's places; lintian must find no error
deb: setup
	scripts/deb.sh

## deb-test: install the package with dpkg, use it from another folder, purge it, nothing left
deb-test: deb
	scripts/deb-install-test.sh

## release: VERSION=x.y.z sets the version, turns CHANGELOG.md's Unreleased section into x.y.z's,
## and builds the package
release:
	@test -n "$(VERSION)" || { echo "usage: make release VERSION=x.y.z"; exit 64; }
	scripts/release.sh $(VERSION)
	$(MAKE) --no-print-directory deb

## docs: the library modules' API documentation (DocC) as static HTML in .build/docs; serve it
## with `python3 -m http.server -d .build/docs` and open http://localhost:8000/documentation/cardreading
DOC_TARGETS := CardReading CardProfiles ProfileLanguage CardReports ReadEngine CardExploration APDU FeliCaCommands DESFireCommands NDEF PCSCTransport NFCTransport CardSimulator CardDumps MIFARECommands CardHistory
docs:
	swift package --allow-writing-to-directory .build/docs generate-documentation \
	  $(foreach t,$(DOC_TARGETS),--target $(t)) --enable-experimental-combined-documentation \
	  --output-path .build/docs --transform-for-static-hosting
	@echo "API documentation in .build/docs: python3 -m http.server -d .build/docs, then /documentation/cardreading"

## docs-check: every public symbol of the library modules has a doc comment (scripts/doc-coverage.py)
docs-check:
	swift package dump-symbol-graph --minimum-access-level public >/dev/null
	/usr/bin/python3 scripts/doc-coverage.py $$(swift build --show-bin-path)/../symbolgraph

## man: regenerate docs/man/*.1 from the commands' --help (swift-argument-parser's plugin)
man:
	rm -f docs/man/*.1
	swift package --allow-writing-to-directory docs/man generate-manual --multi-page --configuration debug --output-directory docs/man --authors "the cardscan developers"
	scripts/man-tidy.py docs/man

## man-check: fails when docs/man is not what `make man` writes now (a --help text changed without it);
## the pages' date line (.Dd, the day they were generated) is not compared
man-check:
	@tmp=$$(mktemp -d); \
	  swift package --allow-writing-to-directory $$tmp generate-manual --multi-page --configuration debug --output-directory $$tmp --authors "the cardscan developers" >/dev/null; \
	  scripts/man-tidy.py $$tmp; \
	  if diff -r -u -I '^\.Dd ' docs/man $$tmp; then echo "docs/man is current"; rm -rf $$tmp; \
	  else echo "docs/man is stale: run make man and commit it"; rm -rf $$tmp; exit 1; fi

## bench: the release-build benchmarks (docs/performance.md)
bench: setup
	scripts/bench.sh

clean:
	rm -rf .build

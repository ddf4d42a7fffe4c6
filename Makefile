# DesktopNotifications: build, test and demo on Debian 12.
#
#   make deps    install the Debian packages the build and the tests need (fast when present)
#   make demo-deps  install only what building and the demo need (DEMO_PACKAGES)
#   make build   swift build
#   make test    deps, build with tests, swift test (16 at a time; the real desktops and the chaos runs apart, one test at a time), a ThreadSanitizer pass, then a short fuzz pass
#   make demo    demo-deps, then build and run SaySomething (the seed 000 flow)
#   make demo-agent  demo-deps, then RemindMeLater through notify agent, in this terminal (type 1 to click)
#   make bench   bench-deps (adds libnotify-dev for the C peers), release build, the installed notify, then the peers (../shared/bench) and our rows in one run, each
#                client's instructions and waits per operation (Benchmarks/instructions.sh: callgrind, getrusage), and the ratios
#   make bench-agent  release build, then notify-bench's agent rows on a private bus with the null server: agent-idle (the agent's RSS after start and
#                after 100 adds and removals, then its waiter's RSS and context switches over 60 s holding a request due tomorrow), agent-idle-stay
#                (the same with the agent kept running by --stay: its own switches), agent-100k (100,000 pending requests over 100 apps, one
#                Add each), agent-100k-batch (the same as one AddRequests per app) and agent-100k-center (the same through 100 centers, which pack them)
#   make fuzz    release build, then 100,000 random and mutated inputs into each parser of outside input
#   make man     the notify(1) man page, from the command's own definitions
#   make install     notify (release, Swift runtime static), its manual, completions, the agent's D-Bus
#                    and systemd user service files, under PREFIX (default /usr/local; DESTDIR stages)
#   make uninstall   remove exactly what make install wrote (same PREFIX and DESTDIR)
#   make install-check  install into a temporary HOME, use it (a notification, man, bash completion), uninstall
#   make deb     a Debian package of the same install (lintian-checked); make deb-check installs, uses and removes it
#   make docs    the DocC documentation of the five library products, warnings as errors
#   make gallery deps, then seed 000's notification on each real desktop as pictures, with an index, in $(GALLERY_OUT)
#   make versions  print the versions of the toolchain and the test tools
#   make clean   remove the build directories

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

# What building and the demos need, and no more (make demo-deps): on Debian 12 with only its
# required packages and apt, these pull 14 packages (pkg-config and D-Bus's among them), where
# DEB_PACKAGES pulls 887; with the Swift toolchain's prerequisites (swift.org's list for Debian
# 12) there already, 9 and 831 (apt-get -s against those package sets).
# libdbus-1-dev: the build's one C library (CDBus, found through dbus-1.pc).
# dbus-daemon (brings dbus-bin): the private bus of the terminal presenter, used when the
# session bus has no notification server.
# libglib2.0-0: libgio, which the library opens at run time (GSettings, content types).
DEMO_PACKAGES := libdbus-1-dev dbus-daemon libglib2.0-0
# Everything else is for the tests (make deps, make test, .ci/run):
# libglib2.0-dev: GLib's headers and tools (libglib2.0-bin: gdbus, gsettings).
# gsettings-desktop-schemas: GNOME's per-app notification switch, read through GSettings.
# libgdk-pixbuf-2.0-0 (libgdk_pixbuf-2.0.so.0, dlopened): decodes images for clipped attachment thumbnails.
# shared-mime-info: the database GIO sniffs attachment types with (g_content_type_guess).
# dbus-daemon (above), dbus-bin: the private test bus, dbus-send, dbus-monitor.
# systemd: busctl, which `dunstctl history` runs.
# dunst, xvfb, libnotify-bin, python3-dbusmock, x11-utils: real peers and the display (python3-dbus, python3-gi: a D-Bus-activated test app).
# gnome-shell, gjs: headless GNOME Shell 43 and its D-Bus-activated notification service (logind comes from python3-dbusmock).
# kwin-wayland, plasma-workspace, plasma-desktop, kactivitymanagerd, qtwayland5: Plasma 5's notification server on a headless KWin.
# at-spi2-core, gir1.2-atspi-2.0 (with python3-gi): Plasma's popups pressed and typed into over AT-SPI
# (Tests/Support/PlasmaPopup/plasma_popup.py).
# xfce4-notifyd (brings xfconf, its settings daemon), xdotool: Xfce's server under Xvfb, its buttons clicked.
# mako-notifier, sway: mako on a headless Wayland compositor, driven with makoctl (setpriv from util-linux runs sway as nobody under root).
# hyperfine, strace, valgrind: measurements.
# xdg-desktop-portal: the notification portal's frontend (1.16, version 1), run with a fake backend.
# bubblewrap (bwrap; xdg-desktop-portal depends on it too): the Flatpak-like sandbox the tests run
# a process in when it is to be sandboxed (FlatpakSandbox): the product has no switch for it.
# python3-cryptography: Tests/Support/WebPush/webpush_encrypt.py, the independent Web Push
# (RFC 8291) sender the push tests encrypt their messages with.
# libcanberra0 (libcanberra.so.0, dlopened), libcanberra-pulse, sound-theme-freedesktop: the
# sounds the library plays itself where the server plays none (dunst, mako, xfce4-notifyd);
# pulseaudio, pulseaudio-utils (pactl): the private sound server with a null sink the sound
# tests count those streams on (PulseAudioServer).
# The gallery's picture tools (make gallery, and GalleryTests in make test):
# imagemagick: convert and identify crop the screenshots, reduce them to a palette, compare them.
# x11-apps: xwd, the X server's own screenshot (xfce4-notifyd, dunst, the terminal's xterm).
# grim: the screenshot of sway's output (wlr-screencopy), for mako.
# tesseract-ocr (brings tesseract-ocr-eng): reads each picture's title back in GalleryTests.
# xterm, fonts-dejavu-core: show the terminal presenter's output for its picture.
GALLERY_PACKAGES := imagemagick x11-apps grim tesseract-ocr xterm fonts-dejavu-core
DEB_PACKAGES := $(DEMO_PACKAGES) $(GALLERY_PACKAGES) libglib2.0-dev libglib2.0-bin gsettings-desktop-schemas libgdk-pixbuf-2.0-0 shared-mime-info \
	dbus-bin systemd \
	dunst xvfb libnotify-bin python3-dbusmock python3-dbus python3-gi x11-utils \
	gnome-shell gjs xfce4-notifyd xdotool mako-notifier sway \
	kwin-wayland plasma-workspace plasma-desktop kactivitymanagerd qtwayland5 at-spi2-core gir1.2-atspi-2.0 \
	hyperfine strace valgrind xdg-desktop-portal bubblewrap \
	python3-cryptography libcanberra0 libcanberra-pulse sound-theme-freedesktop pulseaudio pulseaudio-utils
# make bench also builds the C peers in ../shared/bench: libnotify's headers, a C compiler, pkg-config.
BENCH_PACKAGES := libnotify-dev build-essential pkg-config
# make deb: dpkg-dev (dpkg-shlibdeps), lintian; make install-check reads the manual with
# man-db and sources the completion with bash-completion.
PACKAGE_TOOL_PACKAGES := dpkg-dev lintian man-db bash-completion

# Tests treat a missing tool as a failure, never as a reason to skip.
export DESKTOPNOTIFICATIONS_REQUIRE_TOOLS := 1

TSAN_FILTER := SupportTests|DBusTests|FreedesktopNotificationsTests|UserNotificationsTests
# The suites that start real desktops (GNOME Shell, Plasma, xfce4-notifyd, mako): they run on their
# own, one test at a time, so that their start-up load does not starve the timing checks of
# the parallel run (2 cores), and not again under ThreadSanitizer.
# The sound suites (their private PulseAudio server is this process's PULSE_SERVER while they run)
# are among them.
REAL_DESKTOPS := GalleryTests|GnomeShellServerTests|AgentRealDesktopTests|GnomeEngineRealDesktopTests|XfceNotifyServerTests|MakoServerTests|PlasmaShellServerTests|PlasmaReplyRealDesktopTests|PersonalityCheckTests|CenterRealDesktopTests|NotifyRealDesktopTests|SoundRealDesktopTests|EventSoundPlaybackTests|AgentSoundTests|ProgressRealDesktopTests|NotifyProgressRealDesktopTests|DoNotDisturbRealDesktopTests|NotifyInfoRealDesktopTests
# Suites that measure the whole test process (its resident memory after a chaos run) or move
# tens of megabytes through a bus: beside 800 other tests their figures would be the other
# tests' (the chaos run's RSS check failed when the 28 MB signals ran beside it), so they run in
# the one-at-a-time pass with the real desktops.
ALONE := $(REAL_DESKTOPS)|ChaosRunTests|AgentChaosTests|IncomingBodyTests|HostilePeerTests|ProgressThrottleTests
# Swift Testing starts every test of the parallel pass at once unless told otherwise (its
# default width is unbounded): 800 tests, each with its own dbus-daemon, starved one another's
# deadlines on two cores. Sixteen at a time keeps the pass about as fast and the deadlines met.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH := 16

.PHONY: deps demo-deps bench-deps package-deps install-missing build test demo demo-agent bench bench-agent fuzz man versions clean \
	release install uninstall install-check deb deb-check docs gallery

deps:
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(DEB_PACKAGES)"

demo-deps:
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(DEMO_PACKAGES)"

bench-deps:
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(DEB_PACKAGES) $(BENCH_PACKAGES)"

package-deps:
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(DEB_PACKAGES) $(PACKAGE_TOOL_PACKAGES)"

# Installs the Debian packages in PACKAGES that are not installed yet (fast when all are).
install-missing:
	@command -v swift >/dev/null 2>&1 || { \
		echo "make deps: 'swift' is not on PATH. Install a Swift 6 toolchain and put its usr/bin on PATH first." >&2; \
		exit 1; }
	@missing=""; \
	for package in $(PACKAGES); do \
		status=$$(dpkg-query -W -f='$${Status}' "$$package" 2>/dev/null || true); \
		[ "$$status" = "install ok installed" ] || missing="$$missing $$package"; \
	done; \
	if [ -z "$$missing" ]; then echo "make deps: all Debian packages are installed"; exit 0; fi; \
	echo "make deps: installing$$missing"; \
	if [ "$$(id -u)" = 0 ]; then sudo=""; \
	elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; \
	else echo "make deps: need root or sudo to install:$$missing" >&2; exit 1; fi; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing

# swift build and swift package through .ci/swiftpm: once more when the SwiftPM tool itself
# crashes (a signal, never a compile error).
SWIFTPM := $(CURDIR)/.ci/swiftpm

build:
	$(SWIFTPM) build

# The sounds the library plays itself (where a test's server plays none) go nowhere in make test:
# libcanberra tries PulseAudio alone (not ALSA, which a desktop routes to its speakers), on a
# server that does not exist; the sound suites point PULSE_SERVER at their own private server.
test: export CANBERRA_DRIVER := pulse
test: export PULSE_SERVER := unix:/nonexistent/desktopnotifications-tests/pulse/native
test: deps
	$(SWIFTPM) build --build-tests
	swift test --skip-build --skip '$(ALONE)'
	swift test --skip-build --no-parallel --filter '$(ALONE)'
	$(SWIFTPM) build --build-tests --sanitize=thread --scratch-path .build-tsan
	swift test --skip-build --sanitize=thread --scratch-path .build-tsan --no-parallel --filter '$(TSAN_FILTER)' --skip '$(REAL_DESKTOPS)'
	.build/debug/notify-fuzz --cases $(FUZZ_SHORT_CASES)

demo: demo-deps
	$(SWIFTPM) build --product SaySomething
	swift run --skip-build SaySomething

# RemindMeLater through the agent, shown by the terminal presenter on a private bus: type 1.
demo-agent: demo-deps
	$(SWIFTPM) build --product notify
	$(SWIFTPM) build --product RemindMeLater
	examples/RemindMeLater/demo-agent.sh "$$(swift build --show-bin-path)"

# The peers live beside the checkout (../shared/bench); BENCH_ROUNDS, BENCH_N, BENCH_PROCS size the run.
# hf:notify is the installed notify: make install into $(BENCH_INSTALL) (DESTDIR), run from there.
# -q: bench.sh's progress output ends the run when a round's hyperfine prints nothing (its
# `grep -v '^$'` fails under pipefail); the final table has every row.
BENCH_DIR ?= ../shared/bench
BENCH_OUT ?= .build/bench-results
BENCH_ROUNDS ?= 3
BENCH_N ?= 5000
BENCH_PROCS ?= 100
BENCH_BIN := $(CURDIR)/.build/release
# bench.sh's null server answers every Notify that carries actions with a click (ActionInvoked),
# for the action rows. Ours carry `default` (the click on the notification) whatever their
# category, so the rows weighed against peers that send no actions (libdbus-seq, libdbus-pipe,
# libnotify-seq) run on a bus of their own whose null server clicks nothing, as nobody clicks
# every notification: bench.sh's bus and server CPU columns read 0 for them (another bus).
BENCH_UNCLICKED := NULL_SERVER_INVOKE_ACTION= $(abspath $(BENCH_DIR))/run-bus.sh --
BENCH_INSTALL := $(CURDIR)/.build-bench-install

bench: bench-deps
	@[ -x "$(BENCH_DIR)/bench.sh" ] || { echo "make bench: $(BENCH_DIR)/bench.sh not found (set BENCH_DIR)" >&2; exit 1; }
	$(SWIFTPM) build -c release --product notify-bench
	$(SWIFTPM) build -c release --product notify
	rm -rf $(BENCH_INSTALL)
	$(MAKE) --no-print-directory install PREFIX=/usr/local DESTDIR=$(BENCH_INSTALL) NOTIFY_SEND_LINK=0
	rm -rf $(BENCH_OUT) && mkdir -p $(BENCH_OUT)
	BENCH_EXTRA_RATE="$$(printf '%s\n' \
		'$(BENCH_BIN)/notify-bench --rows client-seq -n {N} --samples 1' \
		'$(BENCH_UNCLICKED) $(BENCH_BIN)/notify-bench --rows un-seq -n {N} --samples 1' \
		'$(BENCH_UNCLICKED) $(BENCH_BIN)/notify-bench --rows un-seq-plain -n {N} --samples 1' \
		'$(BENCH_UNCLICKED) $(BENCH_BIN)/notify-bench --rows un-seq-loop -n {N} --samples 1' \
		'$(BENCH_UNCLICKED) $(BENCH_BIN)/notify-bench --rows un-pipe -n {N} --samples 1' \
		'$(BENCH_BIN)/notify-bench --rows un-action -n {N} --samples 1' \
		'$(BENCH_UNCLICKED) $(BENCH_BIN)/notify-bench --rows agent-seq -n {N} --samples 1')" \
	BENCH_EXTRA_CLI='$(BENCH_INSTALL)/usr/local/bin/notify bench "body text"' \
		$(BENCH_DIR)/bench.sh -q -n $(BENCH_N) -p $(BENCH_PROCS) -r $(BENCH_ROUNDS) -o $(CURDIR)/$(BENCH_OUT)
	$(BENCH_DIR)/run-bus.sh -- $(BENCH_BIN)/notify-bench --rows sched-100k --samples $(BENCH_ROUNDS) | tee $(BENCH_OUT)/sched.txt
	$(BENCH_UNCLICKED) $(BENCH_BIN)/notify-bench --rows un-withdraw -n 500 --samples $(BENCH_ROUNDS) | tee $(BENCH_OUT)/withdraw.txt
	Benchmarks/instructions.sh $(BENCH_DIR) $(BENCH_BIN) $(BENCH_OUT)
	python3 Benchmarks/ratios.py $(BENCH_OUT)

# notify-bench's agent rows start the notify beside it (.build/release/notify) as the agent, and stop it by PID.
bench-agent: bench-deps
	@[ -x "$(BENCH_DIR)/run-bus.sh" ] || { echo "make bench-agent: $(BENCH_DIR)/run-bus.sh not found (set BENCH_DIR)" >&2; exit 1; }
	$(SWIFTPM) build -c release --product notify-bench
	$(SWIFTPM) build -c release --product notify
	$(MAKE) -s -C $(BENCH_DIR) null-server
	$(BENCH_DIR)/run-bus.sh -- $(BENCH_BIN)/notify-bench --rows agent-idle,agent-idle-stay,agent-100k,agent-100k-batch,agent-100k-center --samples $(BENCH_ROUNDS)

# notify-fuzz (Tests/Fuzz): payloads, localized formats, hints, command lines, D-Bus messages
# (read whole, and read as received: the header from libdbus, against the whole reader), typed
# calls, state files, desktop entries, agent records and calls, push payloads, GeoClue2
# positions, GNOME and portal action targets;
# each case under 1 s of CPU time, each target under FUZZ_MEMORY_MIB of peak RSS, no trap.
# FUZZ_SEED picks other inputs; a failure prints the notify-fuzz command that makes it again.
# make test runs FUZZ_SHORT_CASES per target with the debug build it has just made.
FUZZ_CASES ?= 100000
FUZZ_SHORT_CASES ?= 2000
FUZZ_SEED ?= 1
FUZZ_MEMORY_MIB ?= 512

fuzz: deps
	$(SWIFTPM) build -c release --product notify-fuzz
	.build/release/notify-fuzz --cases $(FUZZ_CASES) --seed $(FUZZ_SEED) --memory-limit-mib $(FUZZ_MEMORY_MIB)

# In debug: the plugin builds every product first, and make test has built them so already.
man:
	$(SWIFTPM) package generate-manual --multi-page --configuration debug
	@echo "man pages: $(MAN_OUT)/"

MAN_OUT := .build/plugins/GenerateManual/outputs/notify

# make install. PREFIX must be absolute: /usr/local by default, $$HOME/.local without root (its
# bin/ is on PATH on Debian, and man finds share/man beside it). DESTDIR stages the tree (make deb).
# NOTIFY_SEND_LINK=1 adds a notify-send symlink to notify in PREFIX/bin.
PREFIX ?= /usr/local
DESTDIR ?=
NOTIFY_SEND_LINK ?= 0
# The installed notify: release, the Swift runtime linked static (it halves start-up), no
# $$ORIGIN run path (the loader would look for each library there first), linked by lld with
# packed relative relocations (DT_RELR, glibc 2.36): the runtime's 80,000 relative relocations
# take 15 KB instead of 1.9 MB, and a run costs 4% fewer instructions. Measured and left out:
# -z now (3% more), -Osize (3% fewer, for the whole program's speed), and a non-PIE program
# (7% fewer and 150 fewer page faults, at the cost of address-space randomization).
# libdbus and libstdc++ are linked static too (packaging/static/libs.sh puts the archives and a
# dbus-1.pc pointing at them in RELEASE_STATIC): the shared libdbus loads libsystemd and six
# more libraries. And only the symbols the libraries need are exported (the runtime's
# -export-dynamic exports 12,800, which every symbol lookup of libc's and every dladdr at start
# goes through). Instructions per `notify bench "body text"` (callgrind): 11.32 million shared,
# 9.72 million with libdbus static, 7.94 with libstdc++ too, 7.54 exporting only what is needed.
# And the compiler calls each concrete generic type's metadata accessor instead of having the
# runtime decode its mangled name (-disable-concrete-type-metadata-mangled-name-accessors): the
# runtime checked each such type's conformances (Int32: Hashable for a dictionary) by reading
# all 6,800 conformance records of the program, once per type and protocol, 3.4 million
# instructions at every start; with the flag, 3.84 million in all.
RELEASE_SCRATCH ?= .build-static
RELEASE_STATIC = $(abspath $(RELEASE_SCRATCH))/static-libs
RELEASE_FLAGS = -c release --product notify --static-swift-stdlib --disable-local-rpath \
	-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
	-Xlinker --no-export-dynamic -Xlinker $(RELEASE_STATIC)/sd-activation.o \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
INSTALL_ENV = PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)' NOTIFY_SEND_LINK='$(NOTIFY_SEND_LINK)'

release:
	packaging/static/libs.sh $(RELEASE_STATIC)
	PKG_CONFIG_PATH='$(RELEASE_STATIC)' $(SWIFTPM) build $(RELEASE_FLAGS) --scratch-path $(RELEASE_SCRATCH)

install: release man
	$(INSTALL_ENV) packaging/install.sh install $(RELEASE_SCRATCH)/release/notify $(MAN_OUT)

uninstall:
	$(INSTALL_ENV) packaging/install.sh uninstall

# From this checkout: make install PREFIX=$$HOME/.local in a temporary HOME, a notification on a
# private bus with notify server, man notify, bash completion, make uninstall leaving nothing.
install-check: package-deps
	.ci/install-check

# make deb: the same install under /usr, staged in .build-deb, packaged with dpkg-deb and
# checked with lintian (packaging/deb.sh). make deb-check installs the package, uses it and
# removes it (.ci/deb-check).
DEB_DIR := .build-deb

deb: package-deps release man
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/stage
	$(MAKE) --no-print-directory install PREFIX=/usr DESTDIR=$(CURDIR)/$(DEB_DIR)/stage NOTIFY_SEND_LINK=0
	packaging/deb.sh $(DEB_DIR)/stage $(DEB_DIR)

deb-check: deb
	.ci/deb-check $(DEB_DIR)/*.deb

# The DocC documentation of the library products (swift-docc-plugin), in its own scratch path;
# a broken symbol link or any other warning fails. One archive per module lands in $(DOCS_OUT)
# (open one with `xcrun docc preview` on a Mac, or serve it with --transform-for-static-hosting).
DOCS_SCRATCH := .build-docs
DOCS_OUT := $(DOCS_SCRATCH)/plugins/Swift-DocC/outputs
DOCS_TARGETS := UserNotifications CoreLocation FreedesktopNotifications DBus UserNotificationsTesting

docs:
	$(SWIFTPM) package --scratch-path $(DOCS_SCRATCH) generate-documentation \
		$(foreach target,$(DOCS_TARGETS),--target $(target)) --warnings-as-errors
	@echo "documentation: $(DOCS_OUT)/"

# make gallery: notify-gallery (Tests/Gallery) starts each desktop the tests run (GNOME Shell,
# Plasma, xfce4-notifyd, mako, dunst, the terminal presenter) on a private bus, posts seed 000's
# notification through UNUserNotificationCenter, and captures the screen through the desktop's
# own path; the pictures (cropped, 64 colours) and README.md land in GALLERY_OUT, and copies of
# the pictures (gallery-NAME.png) in the DocC catalog's Resources, which the overview shows.
GALLERY_OUT ?= docs/gallery

gallery: deps
	$(SWIFTPM) build --product notify-gallery
	"$$(swift build --show-bin-path)/notify-gallery" $(GALLERY_OUT)
	mkdir -p Sources/UserNotifications/UserNotifications.docc/Resources
	for picture in $(GALLERY_OUT)/*.png; do cp "$$picture" "Sources/UserNotifications/UserNotifications.docc/Resources/gallery-$$(basename "$$picture")"; done

versions:
	@swift --version 2>&1
	@dpkg-query -W -f='$${Package} $${Version}\n' $(DEB_PACKAGES) 2>&1 || true
	@dunst -v 2>&1 || true
	@notify-send --version 2>&1 || true
	@/usr/bin/python3 -c 'import dbusmock; print("python-dbusmock", dbusmock.__version__)' 2>&1 || true

clean:
	rm -rf .build .build-tsan .build-static .build-deb .build-docs .build-bench-install

#!/usr/bin/env bash
# Installs what Earshot needs and is missing; does nothing when all is there.
#   scripts/setup.sh run    build + run needs (C libraries)
#   scripts/setup.sh test   also the browser-test needs (Chromium, its driver, a venv with selenium, pillow)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}
packages=(libmpv-dev libwebsockets-dev libsqlite3-dev libxml2-dev pkg-config libcurl4-openssl-dev)
# libqrencode-dev: the QR code of the pairing URL (Sources/CQRencode).
packages+=(libqrencode-dev)
# libgdk-pixbuf-2.0-dev: artwork resized into 96/256/512 px JPEGs (Sources/CGdkPixbuf); the smallest
# well-kept image library in Debian (libvips-dev and MagickWand pull in dozens of libraries).
packages+=(libgdk-pixbuf-2.0-dev)
# libglib2.0-dev: GDBus (GLib's gio) for MPRIS on the session bus (Sources/CGio), as mpv-mpris uses it.
packages+=(libglib2.0-dev)
if [ "$mode" = test ]; then
    # libxml2-utils: xmllint checks that exported OPML is well-formed.
    packages+=(chromium chromium-driver python3-venv libxml2-utils)
    # zbar-tools: tests read the pairing QR code back; iproute2: `ip netns` for the LAN tests.
    packages+=(zbar-tools iproute2)
    # python3-mygpoclient: gPodder's own sync client library talks to Earshot's sync API (Tests/e2e/test_sync.py).
    packages+=(python3-mygpoclient)
    # The host tests (Tests/host): a private session bus and what drives it (dbus-daemon,
    # dbus-run-session, playerctl), a private sound server and its tools (pulseaudio, pactl, parec),
    # and the service's package checks (dpkg-dev's dpkg-shlibdeps, lintian, systemd-analyze).
    packages+=(dbus-daemon dbus-bin playerctl pulseaudio pulseaudio-utils dpkg-dev lintian systemd)
    # Snapcast (Tests/host/test_rooms.py): Earshot starts its own snapserver; two snapclients play to files.
    packages+=(snapserver snapclient)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$mode" = test ]; then
    # Debian's own python3 has python3-venv; fall back to whatever python3 is first on PATH.
    python=/usr/bin/python3
    [ -x "$python" ] || python=$(command -v python3)
    # pillow: the screenshots are compared with their baselines (Tests/e2e/screens.py).
    if ! .venv/bin/python -c "import selenium, pytest, PIL" 2>/dev/null; then
        echo "setup: creating .venv with selenium, pytest and pillow"
        rm -rf .venv
        "$python" -m venv .venv
        .venv/bin/pip install -q --disable-pip-version-check selenium pytest pillow
    fi
fi

#!/usr/bin/env bash
# Installs what `make bench` needs and is missing; does nothing when all is there.
#   xmllint (Debian's libxml2-utils): the streaming floor the parsers are measured against
#   /usr/bin/time (Debian's time): peak memory of each measured process
#   curl: what bench/downloads.py measures Earshot's downloads against
#   .build/bench/venv: podcastparser, feedparser and feedparser-rs, pinned so numbers stay comparable;
#     websocket-client, the WebSocket client of bench/memory.py and bench/soak.py (as Tests/host's)
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
[ -x /usr/bin/time ] || missing+=(time)
command -v curl >/dev/null 2>&1 || missing+=(curl)
[ -x /usr/bin/python3 ] && ! /usr/bin/python3 -c "import ensurepip" 2>/dev/null && missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
    echo "bench-setup: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

venv=.build/bench/venv
peers=(podcastparser==0.6.11 feedparser==6.0.14 feedparser-rs==0.7.1 websocket-client==1.9.2)
if ! "$venv/bin/python" -c "import podcastparser, feedparser, feedparser_rs, websocket" 2>/dev/null; then
    if ! "$venv/bin/python" -c "import sys" 2>/dev/null; then
        echo "bench-setup: creating $venv with ${peers[*]}"
        # Debian's own python3 has venv; fall back to whatever python3 is first on PATH.
        python=/usr/bin/python3
        [ -x "$python" ] || python=$(command -v python3)
        rm -rf "$venv"
        mkdir -p "$(dirname "$venv")"
        "$python" -m venv "$venv"
    else
        echo "bench-setup: adding what $venv lacks of ${peers[*]}"
    fi
    "$venv/bin/pip" install -q --disable-pip-version-check "${peers[@]}"
fi

"""A private D-Bus session bus for the host tests, started from the project's own
Tests/host/session-bus.conf, and the real clients that drive MPRIS players: playerctl, busctl and
dbus-monitor.

    with SessionBus() as bus:
        server = launch(env=bus.env, mpris=True)
        bus.playerctl("play")
        bus.property("PlaybackStatus")      # through busctl --json
        with bus.monitor() as signals: ...  # dbus-monitor's lines, read by a thread
"""

import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

CONFIG = Path(__file__).resolve().parent / "session-bus.conf"
NAME = "org.mpris.MediaPlayer2.earshot"
PATH = "/org/mpris/MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"


class SessionBus:
    """`dbus-daemon --config-file=session-bus.conf --address=unix:path=TMP/bus`, stopped on exit."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="earshot-bus-"))
        self.address = f"unix:path={self.folder / 'bus'}"
        self.process = subprocess.Popen(
            ["dbus-daemon", f"--config-file={CONFIG}", f"--address={self.address}", "--nofork", "--print-address"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        line = self.process.stdout.readline()  # printed once it listens
        if not line.startswith("unix:"):
            self.close()
            raise RuntimeError(f"dbus-daemon did not start (printed {line!r})")
        # The bus alone: no runtime folder with another bus socket, no X11 autolaunch.
        self.env = {"DBUS_SESSION_BUS_ADDRESS": self.address, "XDG_RUNTIME_DIR": str(self.folder), "DISPLAY": ""}

    def close(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(5)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def run(self, argv, check=True, timeout=10):
        environment = dict(os.environ, **self.env)
        done = subprocess.run(argv, env=environment, capture_output=True, text=True, timeout=timeout)
        if check and done.returncode != 0:
            raise AssertionError(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()}")
        return done

    def playerctl(self, *args, player="earshot", check=True):
        """playerctl's stdout, stripped."""
        return self.run(["playerctl", "-p", player, *args], check=check).stdout.strip()

    def busctl(self, *args, check=True):
        return self.run(["busctl", "--user", "--json=short", *args], check=check)

    def property(self, name, interface=PLAYER):
        """A property's value as busctl reads it ({"type", "data"} JSON), Get on the bus."""
        out = self.busctl("get-property", NAME, PATH, interface, name).stdout
        return json.loads(out)

    def all_properties(self, interface=PLAYER):
        out = self.busctl("call", NAME, PATH, "org.freedesktop.DBus.Properties", "GetAll", "s", interface).stdout
        return json.loads(out)["data"][0]

    def names(self):
        out = self.busctl("call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                          "ListNames").stdout
        return json.loads(out)["data"][0]

    def monitor(self):
        return Monitor(self)


class Monitor:
    """dbus-monitor on the bus's signals from the MPRIS object; `lines` grows as they come, each
    with its arrival (time.monotonic())."""

    def __init__(self, bus):
        environment = dict(os.environ, **bus.env)
        self.process = subprocess.Popen(
            ["dbus-monitor", "--address", bus.address, f"type='signal',path='{PATH}'"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=environment, start_new_session=True)
        self.lines = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        time.sleep(0.3)  # its match rule is in place before the test acts

    def _read(self):
        for line in self.process.stdout:
            with self.lock:
                self.lines.append((time.monotonic(), line.rstrip("\n")))

    def text(self, after=0.0):
        with self.lock:
            return "\n".join(line for at, line in self.lines if at >= after)

    def wait_for(self, needle, after=0.0, timeout=5):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if needle in self.text(after):
                return True
            time.sleep(0.05)
        return False

    def close(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

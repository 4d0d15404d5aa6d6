"""Crash torture: the real `earshot serve` is killed with SIGKILL 30 times at random moments while
it plays, downloads, refreshes feeds and has its playlists and Up Next edited, always on the same
data folder. After every kill (the process dead) the library is opened with Python's sqlite3 and
after every restart the server is asked over HTTP:

- `PRAGMA integrity_check` is `ok` (see `integrity_problems` for SQLite 3.40.1's false positive);
- no episode is duplicated (by guid, enclosure address or title, in the file and in the API) and
  no episode appears that the feed never listed;
- every queue and playlist edit the server acknowledged before the kill is there exactly once; the
  one edit that was in flight at the kill is there whole or not at all (never doubled or half
  applied): the test keeps a model of Up Next and of every playlist and compares it with the
  library file, `/api/state`'s `queue` and `/api/playlists`;
- the playing episode's stored position is at most 5 s behind the last position the server
  reported (`state`/`time`) before the kill, and the restarted server plays it on (the settings
  row `playback.session`: a start that finds it plays on);
- every download acknowledged is still there, none failed, partial files are prefixes of the
  source, and every restart continues a partial file with `Range: bytes=<its size>-` (and
  `If-Range`) — never from 0 —; in the end every file is byte-identical to the source.

Feeds and audio come from a loopback `hostserver.FileServer` with strong validators (what a
resume needs); the downloads are sent slowly so kills land mid-transfer. The feed of the second
podcast grows between refreshes, so refreshes insert episodes while being killed.

Replay a failure with its seed: `EARSHOT_CRASH_SEED=<seed printed>`; `EARSHOT_CRASH_KILLS=N`
changes the number of kills; `EARSHOT_CRASH_KEEP=1` keeps the data folder (its path is printed).
Timing on a loaded machine differs from run to run, so a seed replays the same choices (delays,
edits, episodes), not necessarily the same interleaving.
"""

import copy
import email.utils
import html
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import tempfile
import threading
import time
import traceback
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

import audio
import hostserver

KILLS = int(os.environ.get("EARSHOT_CRASH_KILLS") or 30)
KILL_DELAY = (0.2, 2.5)        # seconds after the server announced itself
POSITION_LOSS = 5.0            # what a kill may cost the listener's place, at most
DOWNLOAD_RATE = 120_000        # bytes a second per download while the kills go on
DOWNLOADS = 8                  # episodes of the first podcast that can be downloaded
PLAY_SECONDS = 600             # the episode that plays (never reaches its end during the test)
START_AT = 120                 # where it is sought to before the kills begin
MAX_PLAYLISTS = 6
MAX_GROWN = 150                # items the growing feed may reach
ACK_TIMEOUT = 15
WORKER_JOIN = 20
FINAL_DOWNLOAD_TIMEOUT = 60
FINAL_REFRESH_TIMEOUT = 30

# SQLite 3.40.1 (Debian 12, what Python's sqlite3 links here) reports "NULL value in
# playlist_items.position" from `PRAGMA integrity_check` for rows of that WITHOUT ROWID table
# although they hold integers there (seen on every library with playlist items, crashed or not).
# Such a line is believed only when a query finds a position that really is not an integer.
KNOWN_FALSE_POSITIVE = re.compile(r"NULL value in playlist_items\.position")


# -- the library file, read while the server is dead -----------------------------------------------

def integrity_problems(db, notes):
    """The lines of `PRAGMA integrity_check` that are real problems ([] when it says `ok`).

    Debian 12's SQLite 3.40.1 wrongly reports "NULL value in playlist_items.position" for
    `playlist_items` (a WITHOUT ROWID table) although every row holds an integer there. Such a
    line is confirmed with a query before it counts as corruption: `typeof(position)` reads the
    stored value itself (a plain `position IS NULL` may be folded to false by the planner, the
    column being NOT NULL), so when no row's position is anything but an integer the line is the
    known false positive and is noted, not failed."""
    lines = [row[0] for row in db.execute("PRAGMA integrity_check")]
    if lines == ["ok"]:
        return []
    real = []
    for line in lines:
        if KNOWN_FALSE_POSITIVE.search(line):
            not_integer = db.execute(
                "SELECT count(*) FROM playlist_items WHERE typeof(position) <> 'integer' OR position IS NULL"
            ).fetchone()[0]
            if not_integer == 0:
                notes["false positives"] = notes.get("false positives", 0) + 1
                continue
        real.append(line)
    return real


def read_library(path, notes):
    """What the library file holds (the server dead): integrity, episodes, settings, playlists,
    downloads. Opened read-only, so nothing is checkpointed: the next start recovers the WAL the
    kill left, as it would after a real crash."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    try:
        library = {"problems": integrity_problems(db, notes)}
        library["episodes"] = [
            dict(zip(("id", "podcast", "guid", "title", "url", "position", "played"), row))
            for row in db.execute("SELECT id, podcast_id, guid, title, media_url, position, played FROM episodes")]
        library["settings"] = dict(db.execute("SELECT key, value FROM settings"))
        names = dict(db.execute("SELECT id, name FROM playlists"))
        playlists = {name: [] for name in names.values()}
        positions = {}
        for playlist, position, episode in db.execute(
                "SELECT playlist_id, position, episode_id FROM playlist_items ORDER BY playlist_id, position"):
            playlists[names[playlist]].append(episode)
            positions.setdefault(names[playlist], []).append(position)
        library["playlists"] = playlists
        library["playlist positions"] = positions
        library["downloads"] = {
            row[0]: dict(zip(("episode", "state", "url", "file", "etag", "last_modified", "error"), row))
            for row in db.execute("SELECT episode_id, state, url, file, etag, last_modified, error FROM downloads")}
        return library
    finally:
        db.close()


# -- feeds --------------------------------------------------------------------------------------------

def rss(title, items):
    """An RSS feed: `items` are dicts of guid, title, url, type, length, seconds, published."""
    entries = "".join(f"""<item>
<title>{html.escape(item["title"])}</title>
<guid isPermaLink="false">{html.escape(item["guid"])}</guid>
<pubDate>{email.utils.format_datetime(item["published"], usegmt=True)}</pubDate>
<enclosure url="{html.escape(item["url"])}" type="{item["type"]}" length="{item["length"]}"/>
<itunes:duration>{int(item["seconds"])}</itunes:duration>
</item>
""" for item in items)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
<channel>
<title>{html.escape(title)}</title>
<link>https://example.com/</link>
<description>Crash torture.</description>
{entries}</channel>
</rss>"""


class World:
    """The loopback web the server sees: a podcast with the episode that plays and episodes to
    download (slow), and a podcast whose feed grows. Thread-safe where the editor touches it."""

    EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)

    def __init__(self, folder, rng):
        self.files = hostserver.FileServer(validators=True)
        self.lock = threading.Lock()
        long_tone = audio.write_tone(folder / "long.wav", 440, PLAY_SECONDS, rate=8000)
        short_tone = audio.write_tone(folder / "short.wav", 660, 5, rate=8000)
        self.play_url = self.files.put_file("/long.wav", long_tone)
        self.short_url = self.files.put_file("/short.wav", short_tone)
        self.short_length = short_tone.stat().st_size
        # The downloads: random bytes (an ID3 start: never taken for a web page), sent slowly.
        self.sources = {}  # path -> bytes
        items = [dict(guid="play", title="The long tone", url=self.play_url, type="audio/wav",
                      length=long_tone.stat().st_size, seconds=PLAY_SECONDS, published=self.EPOCH)]
        for number in range(1, DOWNLOADS + 1):
            body = b"ID3" + rng.randbytes(rng.randrange(1_000_000, 2_600_000))
            path = f"/dl/{number}.mp3"
            self.sources[path] = body
            url = self.files.put(path, body, "audio/mpeg", rate=DOWNLOAD_RATE)
            items.append(dict(guid=f"dl-{number}", title=f"Download {number}", url=url, type="audio/mpeg",
                              length=len(body), seconds=60, published=self.EPOCH + timedelta(days=number)))
        self.a_feed = self.files.put("/a.xml", rss("Crash Show", items), "application/rss+xml; charset=utf-8")
        self.grown = []  # guids the growing feed lists, oldest first
        self.grow(3)
        self.b_feed = self.files.base + "/b.xml"

    def grow(self, count):
        """Adds `count` items to the growing feed (at most MAX_GROWN in all); returns how many."""
        with self.lock:
            count = max(0, min(count, MAX_GROWN - len(self.grown)))
            first = len(self.grown) + 1
            self.grown += [f"grow-{n}" for n in range(first, first + count)]
            items = [dict(guid=guid, title=f"Grown {guid[5:]}", url=f"{self.short_url}?item={guid[5:]}",
                          type="audio/wav", length=self.short_length, seconds=5,
                          published=self.EPOCH + timedelta(hours=int(guid[5:])))
                     for guid in self.grown]
            self.files.put("/b.xml", rss("Growing Show", items), "application/rss+xml; charset=utf-8")
            return count

    def published(self):
        with self.lock:
            return list(self.grown)

    def close(self):
        self.files.close()


# -- the model of what the server must keep --------------------------------------------------------

class Model:
    """Up Next (as shown: shuffle stays off), the playing episode, the playlists by name and the
    downloads asked for, as the acknowledged edits left them."""

    def __init__(self):
        self.queue = []
        self.current = None
        self.playlists = {}
        self.downloads = set()

    def apply(self, op):
        kind = op[0]
        if kind == "queue.add":
            _, episode, at = op
            if episode == self.current:  # the playing episode stays where it is
                return
            if episode in self.queue:
                self.queue.remove(episode)
            if at == "end":
                self.queue.append(episode)
            else:
                slot = self.queue.index(self.current) + 1 if self.current in self.queue else 0
                self.queue.insert(slot, episode)
        elif kind == "queue.remove":
            self.queue.remove(op[1])
        elif kind == "queue.move":
            _, start, end = op
            self.queue.insert(end, self.queue.pop(start))
        elif kind == "playlist.create":
            _, name, episodes = op
            self.playlists[name] = list(dict.fromkeys(episodes))
        elif kind == "playlist.add":
            _, name, episodes = op
            items = self.playlists[name]
            items += [e for e in dict.fromkeys(episodes) if e not in items]
        elif kind == "playlist.remove":
            self.playlists[op[1]].remove(op[2])
        elif kind == "playlist.move":
            _, name, start, end = op
            items = self.playlists[name]
            items.insert(end, items.pop(start))
        elif kind == "playlist.delete":
            del self.playlists[op[1]]
        elif kind == "download":
            self.downloads.add(op[1])
        else:
            raise ValueError(op)

    def applied(self, op):
        other = copy.deepcopy(self)
        other.apply(op)
        return other


# -- one run of the server: the edits while it lives -----------------------------------------------

class ServerGone(Exception):
    """The server died (killed) while the editor talked to it."""


class Refused(AssertionError):
    """The server refused an edit the model says is fine: the two disagree."""


def wire(op, ids):
    """The command and arguments that carry out `op` (playlists named, `ids` gives their ids)."""
    kind = op[0]
    if kind == "queue.add":
        return kind, {"episode": op[1], "at": op[2]}
    if kind == "queue.remove":
        return kind, {"episode": op[1]}
    if kind == "queue.move":
        return kind, {"from": op[1], "to": op[2]}
    if kind == "playlist.create":
        return kind, {"name": op[1], "episodes": op[2]}
    if kind == "playlist.add":
        return kind, {"playlist": ids[op[1]], "episodes": op[2]}
    if kind == "playlist.remove":
        return kind, {"playlist": ids[op[1]], "episode": op[2]}
    if kind == "playlist.move":
        return kind, {"playlist": ids[op[1]], "from": op[2], "to": op[3]}
    if kind == "playlist.delete":
        return kind, {"playlist": ids[op[1]]}
    if kind == "download":
        return kind, {"episode": op[1]}
    raise ValueError(op)


class Editor(threading.Thread):
    """Edits Up Next and the playlists, asks for downloads and refreshes, one thing at a time, until
    the server is killed. Only acknowledged edits reach the model; the one in flight at the kill is
    left in `inflight` (op, command id) for the test to judge."""

    def __init__(self, server, client, model, world, ids, episodes, rng, log):
        super().__init__(daemon=True)
        self.server, self.client, self.model, self.world = server, client, model, world
        self.ids = ids            # playlist name -> id (as learnt)
        self.episodes = episodes  # {"play": id, "downloads": [ids], "grown": [ids]}
        self.rng, self.log = rng, log
        self.halt = threading.Event()
        self.killed = threading.Event()  # set by the test just before it kills the server
        self.inflight = None
        self.error = None
        self.acked = 0
        self.refreshes = 0

    def run(self):
        try:
            while not self.halt.is_set():
                self.step()
                self.halt.wait(self.rng.uniform(0.02, 0.2))
        except ServerGone:
            pass
        except Refused:
            self.error = traceback.format_exc()
        except BaseException:  # reported by the test, unless it is the kill's doing
            if not self.killed.is_set():
                self.error = traceback.format_exc()

    # -- choosing -------------------------------------------------------------------------------

    def step(self):
        model, rng = self.model, self.rng
        queueable = self.episodes["grown"]
        known = [self.episodes["play"]] + self.episodes["downloads"] + self.episodes["grown"]
        editable = [name for name in model.playlists if name in self.ids]
        movable_queue = len(model.queue) >= 2
        removable = [e for e in model.queue if e != model.current]
        choices = [("queue.add", 3 if len(model.queue) < 12 else 0.5),
                   ("queue.remove", 2 if len(removable) > 2 else 0),
                   ("queue.move", 2 if movable_queue else 0),
                   ("playlist.create", 1 if len(model.playlists) < MAX_PLAYLISTS else 0),
                   ("playlist.add", 3 if editable else 0),
                   ("playlist.remove", 2 if any(model.playlists[n] for n in editable) else 0),
                   ("playlist.move", 2 if any(len(model.playlists[n]) >= 2 for n in editable) else 0),
                   ("playlist.delete", 0.3 if len(editable) >= 3 else 0),
                   ("download", 0.6 if set(self.episodes["downloads"]) - model.downloads else 0),
                   ("refresh", 1.0)]
        kinds, weights = zip(*choices)
        kind = rng.choices(kinds, weights)[0]
        if kind == "queue.add":
            self.edit(("queue.add", rng.choice(queueable), rng.choice(["end", "end", "next"])))
        elif kind == "queue.remove":
            self.edit(("queue.remove", rng.choice(removable)))
        elif kind == "queue.move":
            self.edit(("queue.move", rng.randrange(len(model.queue)), rng.randrange(len(model.queue))))
        elif kind == "playlist.create":
            name = f"Crash list {rng.randrange(10**9)}"
            self.edit(("playlist.create", name, rng.sample(known, rng.randrange(0, 4))))
            self.learn_playlist_ids()
        elif kind == "playlist.add":
            self.edit(("playlist.add", rng.choice(editable), rng.sample(known, rng.randrange(1, 4))))
        elif kind == "playlist.remove":
            name = rng.choice([n for n in editable if model.playlists[n]])
            self.edit(("playlist.remove", name, rng.choice(model.playlists[name])))
        elif kind == "playlist.move":
            name = rng.choice([n for n in editable if len(model.playlists[n]) >= 2])
            size = len(model.playlists[name])
            self.edit(("playlist.move", name, rng.randrange(size), rng.randrange(size)))
        elif kind == "playlist.delete":
            self.edit(("playlist.delete", rng.choice(editable)))
        elif kind == "download":
            self.edit(("download", rng.choice(sorted(set(self.episodes["downloads"]) - model.downloads))))
        else:
            added = self.world.grow(rng.randrange(0, 4))
            self.log.append(f"feed +{added}, POST /api/refresh")
            try:
                status, _ = self.server.post_json("/api/refresh", {}, timeout=10)
            except Exception as error:
                raise ServerGone() from error
            assert status == 202, f"POST /api/refresh: {status}"
            self.refreshes += 1

    # -- carrying out ---------------------------------------------------------------------------

    def edit(self, op):
        cmd, args = wire(op, self.ids)
        self.inflight = (op, None)
        try:
            ident, sent = self.client.send(cmd, **args)
        except Exception as error:
            raise ServerGone() from error
        self.inflight = (op, ident)
        try:
            _, reply = self.client.wait_for(lambda m: m.get("id") == ident and m.get("type") in ("ack", "error"),
                                            timeout=ACK_TIMEOUT, after=sent - 1, types=None,
                                            what=f"the answer to {cmd}")
        except AssertionError as error:
            if self.killed.is_set():
                raise ServerGone() from error
            raise
        if reply["type"] != "ack":
            raise Refused(f"{cmd} {args} (the model says it is fine) was refused: {reply}")
        self.model.apply(op)
        self.inflight = None
        self.acked += 1
        self.log.append(f"ack {op}")

    def learn_playlist_ids(self):
        try:
            status, body = self.server.get("/api/playlists", timeout=10)
        except Exception as error:
            raise ServerGone() from error
        if status == 200:
            for playlist in json.loads(body)["playlists"]:
                self.ids[playlist["name"]] = playlist["id"]


# -- the test ---------------------------------------------------------------------------------------

class Torture:
    def __init__(self, seed):
        self.seed = seed
        self.rng = random.Random(seed)
        self.scratch = Path(tempfile.mkdtemp(prefix="earshot-crash-"))
        self.data = self.scratch / "data"
        self.data.mkdir()
        self.db_path = self.data / "library.sqlite"
        self.world = World(self.scratch, random.Random(f"{seed}-bytes"))
        self.model = Model()
        self.ids = {}
        self.episodes = None
        self.podcasts = None
        self.server = None
        self.notes = {}
        self.log = []          # what happened, for a failure's message
        self.expect_ranges = {}  # download path -> (partial size or None, etag) at the last kill
        self.resumes = 0
        self.fresh_starts = 0
        self.reference = None  # the last position the server had for the playing episode
        self.stats = {"acked": 0, "inflight kept": 0, "inflight lost": 0, "late kills": 0, "refreshes": 0,
                      "downloads done during kills": 0, "position checks": 0}

    def fail(self, message):
        tail = "\n".join(self.log[-40:])
        server_log = self.server.log(30) if self.server else ""
        pytest.fail(f"[seed {self.seed}] {message}\n-- last steps:\n{tail}\n-- server output:\n{server_log}")

    def check(self, condition, message):
        if not condition:
            self.fail(message)

    # -- starting and killing ---------------------------------------------------------------

    def launch(self, generation):
        self.world.files.generation = generation
        self.server = hostserver.launch(data=self.data, audio_output="null")
        return time.monotonic()

    def setup(self):
        """The first run: subscribe, play, queue, a playlist, two downloads (all acknowledged)."""
        server = self.server
        a = server.subscribe(self.world.a_feed)
        b = server.subscribe(self.world.b_feed)
        self.podcasts = {"a": a["id"], "b": b["id"]}
        by_guid = {e["guid"]: e["id"] for e in server.episodes(a["id"])}
        self.episodes = {"play": by_guid["play"],
                         "downloads": [by_guid[f"dl-{n}"] for n in range(1, DOWNLOADS + 1)],
                         "grown": [e["id"] for e in server.episodes(b["id"])]}
        self.paths = {by_guid[f"dl-{n}"]: f"/dl/{n}.mp3" for n in range(1, DOWNLOADS + 1)}
        client = server.socket()
        client.command("download.settings", concurrency=3)
        play = self.episodes["play"]
        client.command("play", episode=play)
        self.model.queue, self.model.current = [play], play
        # Well into the episode (a seek is saved at once), so that a position lost is a number that shows;
        # playing for real, and the session marker written (with the first save of a tick).
        client.wait_for(lambda m: m["type"] == "time" and not m["paused"] and m["position"] >= 0.5, timeout=20,
                        what="the long tone playing")
        client.command("seek", to=START_AT)
        client.wait_for(lambda m: m["type"] == "time" and not m["paused"] and m["position"] >= START_AT + 1,
                        timeout=20, what=f"the long tone playing from {START_AT} s")
        grown = self.episodes["grown"]
        for op in [("queue.add", grown[0], "end"), ("queue.add", grown[1], "end"), ("queue.add", grown[2], "next"),
                   ("playlist.create", "Crash list first", [grown[0], self.episodes["downloads"][0]]),
                   ("download", self.episodes["downloads"][0]), ("download", self.episodes["downloads"][1])]:
            cmd, args = wire(op, self.ids)
            client.command(cmd, **args)
            self.model.apply(op)
        for playlist in server.get_json("/api/playlists")["playlists"]:
            self.ids[playlist["name"]] = playlist["id"]
        client.close()

    # -- checks with the server dead ----------------------------------------------------------

    def inspect_dead(self, generation, editor, delay):
        """After a kill: the library file against the model; resolves the edit in flight."""
        library = read_library(self.db_path, self.notes)
        self.check(not library["problems"], f"kill {generation}: PRAGMA integrity_check: {library['problems']}")
        self.check_episodes_in_file(library, f"kill {generation}")

        # The edit in flight: acknowledged after all (its ack came just before the kill), or judged
        # by what the file holds — all of it or nothing.
        if editor is not None and editor.inflight is not None:
            op, ident = editor.inflight
            acked = ident is not None and any(m.get("id") == ident and m.get("type") == "ack"
                                              for _, m in editor.client.received(types=None))
            after = self.model.applied(op)
            if acked:
                self.model = after
                self.log.append(f"ack (seen after the kill) {op}")
            elif self.stored_matches(library, after) and not self.stored_matches(library, self.model):
                self.model = after
                self.stats["inflight kept"] += 1
                self.log.append(f"in flight, kept: {op}")
            elif self.stored_matches(library, self.model):
                self.stats["inflight lost"] += 1
                self.log.append(f"in flight, not kept: {op}")
            else:
                self.fail(f"kill {generation}: the edit in flight at the kill, {op}, is neither there whole nor "
                          f"absent: {self.describe_stored(library)}; "
                          f"model before it: {self.describe_model(self.model)}")
        self.check(self.stored_matches(library, self.model),
                   f"kill {generation}: the library file does not hold the acknowledged edits: "
                   f"{self.describe_stored(library)}; model: {self.describe_model(self.model)}")
        for name, positions in library["playlist positions"].items():
            self.check(len(set(positions)) == len(positions),
                       f"kill {generation}: two items of playlist {name!r} share a position: {positions}")

        # The playing episode: what the server last reported, at most 5 s lost; it plays on at the next start.
        play = self.episodes["play"]
        stored = next(e["position"] for e in library["episodes"] if e["id"] == play)
        if self.reference is not None:
            self.check(stored >= self.reference - POSITION_LOSS,
                       f"kill {generation}: the stored position {stored:.2f} s is more than {POSITION_LOSS} s behind "
                       f"{self.reference:.2f} s, the last position the server had for the playing episode")
            self.stats["position checks"] += 1
        self.reference = stored if self.reference is None else max(self.reference, stored)
        # The settings row `playback.session` names the episode while one plays: the next start plays it on.
        marker = library["settings"].get("playback.session")
        self.check(marker == str(play),
                   f"kill {generation} ({delay:.2f} s after the server announced itself, playing episode {play}): "
                   f"the settings row playback.session is {marker!r}, so the next start would not play on")

        # Downloads: every one asked for (and acknowledged) is there, none failed, partial files are
        # prefixes of the source, finished ones whole; where the next start must continue from.
        rows = library["downloads"]
        missing = self.model.downloads - set(rows)
        self.check(not missing, f"kill {generation}: acknowledged downloads {sorted(missing)} are not in the library")
        self.model.downloads |= set(rows)  # one asked for at the kill and kept counts from now on
        self.expect_ranges = {}
        for episode, row in rows.items():
            path = self.paths[episode]
            source = self.world.sources[path]
            self.check(row["state"] != "failed", f"kill {generation}: download of {path} failed: {row['error']}")
            final = self.data / "downloads" / row["file"]
            part = Path(str(final) + ".part")
            if final.exists():
                self.check(final.read_bytes() == source, f"kill {generation}: {final} is not the file served at {path}")
            elif row["state"] == "done":
                self.fail(f"kill {generation}: the download of {path} is done but {final} is missing")
            if part.exists():
                partial = part.read_bytes()
                self.check(source.startswith(partial),
                           f"kill {generation}: {part} ({len(partial)} bytes) is not a prefix of {path}")
            if row["state"] in ("queued", "downloading") and not final.exists():
                size = part.stat().st_size if part.exists() else None
                self.expect_ranges[path] = (size, row["etag"], row["last_modified"])
        return library

    def stored_matches(self, library, model):
        queue = json.loads(library["settings"].get("playback.queue") or '{"order": []}')
        return (queue.get("order") == model.queue and library["playlists"] == model.playlists
                and model.downloads <= set(library["downloads"]))

    def describe_stored(self, library):
        queue = json.loads(library["settings"].get("playback.queue") or '{"order": []}')
        return f"queue {queue.get('order')}, playlists {library['playlists']}, downloads {sorted(library['downloads'])}"

    @staticmethod
    def describe_model(model):
        return f"queue {model.queue}, playlists {model.playlists}, downloads {sorted(model.downloads)}"

    def check_episodes_in_file(self, library, when):
        published = set(self.world.published())
        for podcast in self.podcasts.values():
            rows = [e for e in library["episodes"] if e["podcast"] == podcast]
            for key in ("guid", "url", "title"):
                values = [e[key] for e in rows]
                doubled = sorted({v for v in values if values.count(v) > 1})
                self.check(not doubled, f"{when}: podcast {podcast} has episodes duplicated by {key}: {doubled}")
        grown = {e["guid"] for e in library["episodes"] if e["podcast"] == self.podcasts["b"]}
        self.check(grown <= published, f"{when}: episodes the feed never listed: {sorted(grown - published)}")
        self.episodes["grown"] = sorted(e["id"] for e in library["episodes"] if e["podcast"] == self.podcasts["b"])
        self.file_episodes = {podcast: {e["id"]: e["guid"] for e in library["episodes"] if e["podcast"] == podcast}
                              for podcast in self.podcasts.values()}

    # -- checks with the server up again ------------------------------------------------------

    def inspect_alive(self, generation):
        """After a restart, over HTTP: the same library as the file said, playing on."""
        server = self.server
        state = server.state()
        play = self.episodes["play"]
        self.check(state["queue"] == self.model.queue,
                   f"restart {generation}: /api/state queue {state['queue']} is not the model's {self.model.queue}")
        self.check((state.get("episode") or {}).get("id") == play and not state["paused"],
                   f"restart {generation}: the server did not play on after the crash: episode "
                   f"{(state.get('episode') or {}).get('id')}, paused {state['paused']}")
        playlists = server.get_json("/api/playlists")["playlists"]
        shown = {p["name"]: p["episodeIds"] for p in playlists}
        self.check(shown == self.model.playlists,
                   f"restart {generation}: /api/playlists {shown} is not the model's {self.model.playlists}")
        self.check(len(playlists) == len(shown), f"restart {generation}: two playlists share a name: {playlists}")
        self.ids.clear()
        self.ids.update({p["name"]: p["id"] for p in playlists})
        for podcast in self.podcasts.values():
            episodes = server.episodes(podcast)
            guids = [e["guid"] for e in episodes]
            doubled = sorted({g for g in guids if guids.count(g) > 1})
            self.check(not doubled, f"restart {generation}: /api/episodes lists episodes twice: {doubled}")
            got = {e["id"]: e["guid"] for e in episodes}
            self.check(got == self.file_episodes[podcast],
                       f"restart {generation}: /api/episodes of podcast {podcast} lists {len(got)} episodes, the "
                       f"library file {len(self.file_episodes[podcast])}")
        stored = server.get_json(f"/api/episodes/{play}")["episode"]["position"]
        self.check(stored >= self.reference - POSITION_LOSS,
                   f"restart {generation}: /api/episodes/{play} position {stored:.2f} s is more than "
                   f"{POSITION_LOSS} s behind {self.reference:.2f} s")
        downloads = {d["episode"]: d for d in server.get_json("/api/downloads")["items"]}
        missing = self.model.downloads - set(downloads)
        self.check(not missing, f"restart {generation}: acknowledged downloads {sorted(missing)} are not listed")
        failed = {e: d["error"] for e, d in downloads.items() if d["state"] == "failed"}
        self.check(not failed, f"restart {generation}: downloads failed: {failed}")
        return state

    def check_resumes(self, generation):
        """Each download the last kill left partial continued from the partial file's size."""
        for path, (size, etag, last_modified) in self.expect_ranges.items():
            asked = [r for r in self.world.files.requests_for(path) if r.generation == generation]
            if not asked:
                continue  # still queued behind the others, or killed before it started
            first = asked[0]
            if size:
                self.check(first.range == f"bytes={size}-",
                           f"run {generation}: the download of {path} had {size} bytes in its partial file but "
                           f"was asked for with Range {first.range!r} (If-Range {first.if_range!r}); the library "
                           f"row held ETag {etag!r}, Last-Modified {last_modified!r}: "
                           + ("it started over instead of resuming" if first.range is None else "a wrong range"))
                self.check(first.if_range in (self.world.files.etags[path], hostserver.FileServer.LAST_MODIFIED),
                           f"run {generation}: resuming {path} with If-Range {first.if_range!r}")
                self.resumes += 1
            else:
                self.check(first.range is None,
                           f"run {generation}: {path} had no partial file but asked for {first.range}")
                self.fresh_starts += 1

    def reported_position(self, client):
        """The furthest position the server reported for the playing episode on this socket."""
        play, current, furthest = self.episodes["play"], None, None
        for _, message in client.received(types=("state", "time")):
            if message["type"] == "state":
                current = (message.get("episode") or {}).get("id")
            if current == play and message.get("position") is not None:
                furthest = message["position"] if furthest is None else max(furthest, message["position"])
        return furthest

    # -- the whole thing -------------------------------------------------------------------------

    def run(self):
        began = time.monotonic()
        delays = []
        editor = None
        for generation in range(KILLS):
            ready = self.launch(generation)
            delay = self.rng.uniform(*KILL_DELAY)
            delays.append(round(delay, 2))
            if generation == 0:
                self.setup()
                ready = time.monotonic()
            else:
                self.inspect_alive(generation)
            client = self.server.socket()
            editor = Editor(self.server, client, self.model, self.world, self.ids, self.episodes,
                            random.Random(f"{self.seed}-edits-{generation}"), self.log)
            left = ready + delay - time.monotonic()
            if left < 0:
                self.stats["late kills"] += 1
            editor.start()
            time.sleep(max(0.0, left))
            editor.killed.set()
            self.server.kill()  # SIGKILL, now; closes the editor's socket
            self.check(self.server.process.returncode == -signal.SIGKILL,
                       f"run {generation} ended by itself before the kill "
                       f"(exit status {self.server.process.returncode})")
            editor.halt.set()
            editor.join(WORKER_JOIN)
            self.check(not editor.is_alive(), f"kill {generation}: the editor did not stop")
            self.check(editor.error is None, f"kill {generation}: while editing: {editor.error}")
            self.stats["acked"] += editor.acked
            self.stats["refreshes"] += editor.refreshes
            reported = self.reported_position(client)
            if reported is not None:
                self.reference = reported if self.reference is None else max(self.reference, reported)
            self.log.append(f"-- kill {generation} after {delay:.2f} s (reported position {reported})")
            time.sleep(0.05)  # requests the dead process had sent are logged under its generation
            if generation > 0:
                self.check_resumes(generation)
            self.inspect_dead(generation, editor, delay)
        torture = time.monotonic() - began
        done_during = sum(1 for e in self.model.downloads
                          if (self.data / "downloads" / str(self.podcasts["a"]) / f"{e}.mp3").exists())
        self.stats["downloads done during kills"] = done_during
        self.finish(KILLS)
        return torture, delays

    def finish(self, generation):
        """A last run at full speed: every download completes byte for byte, a last refresh lists
        every item once; then a clean stop and a last look at the file."""
        for path in self.world.sources:
            self.world.files.set_rate(path, None)
        self.launch(generation)
        self.inspect_alive(generation)
        # Everything asked for before the last kill is finished, from where it was.
        deadline = time.monotonic() + FINAL_DOWNLOAD_TIMEOUT
        while True:
            items = self.server.get_json("/api/downloads")["items"]
            listed = {d["episode"] for d in items}
            if items and all(d["state"] == "done" for d in items) and self.model.downloads <= listed:
                break
            failed = {d["episode"]: d["error"] for d in items if d["state"] == "failed"}
            self.check(not failed, f"final run: downloads failed: {failed}")
            if time.monotonic() > deadline:
                self.fail(f"final run: downloads not done after {FINAL_DOWNLOAD_TIMEOUT} s: "
                          f"{[(d['episode'], d['state'], d['bytes'], d['total']) for d in items]}")
            time.sleep(0.2)
        self.check_resumes(generation)
        for episode in {d["episode"] for d in items}:
            path = self.paths[episode]
            final = self.data / "downloads" / str(self.podcasts["a"]) / f"{episode}.mp3"
            self.check(final.read_bytes() == self.world.sources[path], f"final run: {final} differs from {path}")
        leftovers = sorted(str(p) for p in (self.data / "downloads").rglob("*.part"))
        self.check(not leftovers, f"final run: partial files left: {leftovers}")
        # A last refresh: every item of the grown feed exactly once.
        status, _ = self.server.post_json("/api/refresh", {})
        self.check(status == 202, f"final refresh: {status}")
        deadline = time.monotonic() + FINAL_REFRESH_TIMEOUT
        while self.server.get_json("/api/refresh")["refresh"]["running"]:
            self.check(time.monotonic() < deadline, "final refresh still running")
            time.sleep(0.1)
        guids = [e["guid"] for e in self.server.episodes(self.podcasts["b"])]
        published = self.world.published()
        self.check(sorted(guids) == sorted(published),
                   f"final refresh: the grown podcast lists {len(guids)} episodes "
                   f"({len(set(guids))} distinct) for {len(published)} items in its feed")
        self.server.stop()
        library = read_library(self.db_path, self.notes)
        self.check(not library["problems"], f"after the last stop: PRAGMA integrity_check: {library['problems']}")
        self.check_episodes_in_file(library, "after the last stop")
        self.check(self.stored_matches(library, self.model), "after the last stop: the library lost edits: "
                   f"{self.describe_stored(library)}; model {self.describe_model(self.model)}")

    def close(self, keep):
        if self.server is not None and self.server.process.poll() is None:
            self.server.kill()
        self.world.close()
        if keep:
            print(f"data folder kept: {self.data}")
        else:
            shutil.rmtree(self.scratch, ignore_errors=True)


def test_sigkill_torture():
    """30 SIGKILLs at random moments while playing, downloading, refreshing and editing; after each:
    an intact library, nothing duplicated or lost, at most 5 s of position lost, downloads resumed."""
    seed = os.environ.get("EARSHOT_CRASH_SEED") or str(random.SystemRandom().randrange(10**9))
    print(f"crash torture: seed {seed} (EARSHOT_CRASH_SEED={seed} replays it), {KILLS} kills")
    torture = Torture(seed)
    try:
        started = time.monotonic()
        seconds, delays = torture.run()
        stats = dict(torture.stats, resumes=torture.resumes, **{"fresh starts": torture.fresh_starts},
                     **{"grown feed": len(torture.world.published()), "playlists": len(torture.model.playlists),
                        "queue": len(torture.model.queue), "downloads": len(torture.model.downloads),
                        "integrity false positives": torture.notes.get("false positives", 0),
                        "final position": round(torture.reference or 0, 1)})
        print(f"kills took {seconds:.1f} s, all {time.monotonic() - started:.1f} s; delays {delays}")
        print("stats:", json.dumps(stats))
        # The test itself must have exercised what it claims to.
        assert torture.resumes >= 3, \
            f"[seed {seed}] only {torture.resumes} downloads were caught mid-transfer and resumed"
        assert torture.stats["position checks"] >= KILLS - 1
    finally:
        torture.close(keep=bool(os.environ.get("EARSHOT_CRASH_KEEP")))

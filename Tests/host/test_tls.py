"""TLS verified everywhere Earshot fetches: a loopback HTTPS server whose certificates come from a
CA this test makes with openssl.

- with `--ca-file` the CA's certificate plays (streamed), downloads (and resumes a download with
  Range), subscribes, refreshes and brings artwork;
- without it, and with it on an expired or wrong-host certificate, each fails with "certificate
  not trusted", and nothing is stored: no downloaded file, no position, no podcast, no episode a
  failed refresh would have added."""

import contextlib
import shutil
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

import audio
import hostserver

OPENSSL_CA = """
[ ca ]
default_ca = test
[ test ]
dir = {dir}
database = {dir}/index.txt
new_certs_dir = {dir}
serial = {dir}/serial
default_md = sha256
policy = anything
copy_extensions = copy
[ anything ]
commonName = supplied
"""


def openssl(*args, cwd):
    done = subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, f"openssl {' '.join(args)}: {done.stderr}"


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    """A CA and three server certificates it signed: for 127.0.0.1, for another host, expired."""
    folder = tmp_path_factory.mktemp("pki")
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
            "-days", "3", "-subj", "/CN=Earshot Test CA", cwd=folder)
    (folder / "index.txt").write_text("")
    (folder / "serial").write_text("1000\n")
    (folder / "ca.cnf").write_text(OPENSSL_CA.format(dir=folder))
    certificates = {}
    for name, san, dates in [("good", "IP:127.0.0.1", None),
                             ("wrong-host", "DNS:elsewhere.example", None),
                             ("expired", "IP:127.0.0.1", ("20200101000000Z", "20200102000000Z"))]:
        (folder / f"{name}.ext").write_text(f"subjectAltName={san}\n")
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr",
                "-subj", f"/CN={name}", "-addext", f"subjectAltName={san}", cwd=folder)
        period = ["-startdate", dates[0], "-enddate", dates[1]] if dates else ["-days", "2"]
        openssl("ca", "-batch", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key", "-in", f"{name}.csr",
                "-out", f"{name}.pem", "-notext", *period, cwd=folder)
        certificates[name] = (folder / f"{name}.pem", folder / f"{name}.key")
    return folder / "ca.pem", certificates


@pytest.fixture(scope="module")
def tone(tmp_path_factory):
    return audio.write_tone(tmp_path_factory.mktemp("tone") / "tone.wav", 440, 20)


# (server certificate, --ca-file given, trusted): only the CA's certificate for this host, in date.
CASES = [("good", True, True), ("good", False, False), ("wrong-host", True, False), ("expired", True, False)]


def https_server(certificate, validators=False):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*map(str, certificate))
    return hostserver.FileServer(tls=context, validators=validators)


@contextlib.contextmanager
def secure_episode(pki, tone, certificate, with_ca):
    """Earshot (`--ca-file` the test's CA when `with_ca`) with one episode: the tone on an HTTPS
    server holding `certificate`, from a feed on plain HTTP. Yields (server, episode id, socket)."""
    ca, certificates = pki
    with https_server(certificates[certificate]) as files, hostserver.FileServer() as feeds:
        feed = hostserver.tone_feed(feeds, "Secure Tones", [("Secure tone", files.put_file("/tone.wav", tone), 20)])
        args = ["--ca-file", str(ca)] if with_ca else []
        with hostserver.launch(args=args, audio_output="null") as server:
            podcast = server.subscribe(feed)
            client = server.socket()
            try:
                yield server, server.episodes(podcast["id"])[0]["id"], client
            finally:
                client.close()


@pytest.mark.parametrize("certificate, with_ca, trusted", CASES)
def test_streamed_playback_verifies_the_certificate(pki, tone, certificate, with_ca, trusted):
    with secure_episode(pki, tone, certificate, with_ca) as (server, episode, client):
        client.command("play", episode=episode)
        if trusted:
            client.wait_for(lambda m: m.get("position", 0) > 1.0 and not m["paused"],
                            timeout=15, what="the HTTPS stream playing")
            state = server.state()
            assert state["error"] is None and state["episode"]["id"] == episode, state
        else:
            _, state = client.wait_state(lambda s: s.get("error"), timeout=15, what="the stream's error")
            assert "certificate not trusted" in state["error"], state["error"]
            assert server.state()["failures"].get(str(episode)), "the episode is marked as failed"
            stored = server.get_json(f"/api/episodes/{episode}")
            stored = stored.get("episode", stored)
            assert stored["position"] == 0, f"nothing half-stored: position {stored['position']}"


@pytest.mark.parametrize("certificate, with_ca, trusted", CASES)
def test_downloads_verify_the_certificate(pki, tone, certificate, with_ca, trusted):
    with secure_episode(pki, tone, certificate, with_ca) as (server, episode, client):
        client.command("download", episode=episode)
        _, message = client.wait_for(
            lambda m: any(i["episode"] == episode and i["state"] in ("done", "failed") for i in m["items"]),
            timeout=20, types=("downloads",), what="the download's end")
        item = next(i for i in message["items"] if i["episode"] == episode)
        folder = Path(server.data) / "downloads"
        files_on_disk = [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []
        if trusted:
            assert item["state"] == "done", item
            done = [p for p in files_on_disk if not p.name.endswith(".part")]
            assert len(done) == 1 and done[0].stat().st_size == tone.stat().st_size, files_on_disk
        else:
            assert item["state"] == "failed" and "certificate not trusted" in (item["error"] or ""), item
            assert not [p for p in files_on_disk if not p.name.endswith(".part")], \
                f"nothing stored as downloaded: {files_on_disk}"


def test_a_ca_file_that_is_not_a_certificate_stops_earshot_with_a_message(tmp_path):
    bogus = tmp_path / "not-a-ca.pem"
    bogus.write_text("hello\n")
    with pytest.raises(hostserver.ServerError) as failed:
        hostserver.launch(args=["--ca-file", str(bogus)], audio_output="null")
    assert "holds no PEM certificate" in str(failed.value), str(failed.value)


ARTWORK = hostserver.REPO / "Public" / "demo" / "artwork" / "channel.jpg"


def secure_feed(files, title, count):
    """An RSS feed at /feed.xml of `files` (HTTPS): `count` episodes and channel artwork on the same
    server. Returns (feed URL, artwork URL)."""
    artwork = files.put("/cover.jpg", ARTWORK.read_bytes(), "image/jpeg")
    items = "".join(f"""<item><title>Secure {n}</title><guid isPermaLink="false">secure-{n}</guid>
<pubDate>Mon, {n:02d} Mar 2026 10:00:00 GMT</pubDate>
<enclosure url="{files.base}/tone.wav" type="audio/wav" length="1000"/></item>""" for n in range(1, count + 1))
    feed = f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
<title>{title}</title><link>https://example.com/</link><description>Over TLS.</description>
<itunes:image href="{artwork}"/>{items}</channel></rss>"""
    return files.put("/feed.xml", feed, "application/rss+xml; charset=utf-8"), artwork


def artwork_path(url, size=96):
    """/artwork/{FNV-1a 64 of the address}/{size}.jpg (docs/protocol.md, Artwork)."""
    key = 0xcbf29ce484222325
    for byte in url.encode():
        key = ((key ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"/artwork/{key:016x}/{size}.jpg"


@pytest.mark.parametrize("certificate, with_ca, trusted", CASES)
def test_subscribing_and_artwork_verify_the_certificate(pki, certificate, with_ca, trusted):
    """Subscribing to an HTTPS feed and fetching its artwork: with the CA given and a good
    certificate both work; otherwise the subscription is refused with "certificate not trusted"
    and nothing is stored."""
    ca, certificates = pki
    with https_server(certificates[certificate]) as files:
        feed, artwork = secure_feed(files, "Secure Feed", 2)
        args = ["--ca-file", str(ca)] if with_ca else []
        with hostserver.launch(args=args, audio_output="null") as server:
            status, body = server.post_json("/api/subscriptions", {"url": feed})
            if trusted:
                assert status in (200, 201), (status, body)
                podcast = body["podcast"]
                assert podcast["artwork"] == artwork, podcast
                assert len(server.episodes(podcast["id"])) == 2
                status, picture = server.get(artwork_path(artwork))
                assert status == 200 and picture[:2] == b"\xff\xd8", (status, picture[:40])
                assert files.hits.get("/cover.jpg") == 1, files.hits
            else:
                assert status >= 400 and "certificate not trusted" in str(body), (status, body)
                assert server.get_json("/api/podcasts")["podcasts"] == [], "nothing half-stored"
                assert not files.hits.get("/cover.jpg"), "no artwork fetched for a refused feed"


def refresh(server, podcast_id):
    """POST /api/podcasts/{id}/refresh, waits for the refresh to end; the podcast as stored then."""
    status, body = server.post_json(f"/api/podcasts/{podcast_id}/refresh", {})
    assert status == 202, (status, body)
    deadline = time.monotonic() + 20
    while server.get_json("/api/refresh")["refresh"]["running"]:
        assert time.monotonic() < deadline, "the refresh never ended"
        time.sleep(0.05)
    return next(p for p in server.get_json("/api/podcasts")["podcasts"] if p["id"] == podcast_id)


def test_refreshing_verifies_the_certificate(pki):
    """A podcast subscribed over HTTPS with `--ca-file` refreshes (its new episode arrives); the same
    library started without the CA refreshes with "certificate not trusted" as the podcast's error,
    keeping every episode it had and adding none."""
    ca, certificates = pki
    data = Path(tempfile.mkdtemp(prefix="earshot-tls-"))
    try:
        with https_server(certificates["good"]) as files:
            feed, _ = secure_feed(files, "Secure Feed", 2)
            with hostserver.launch(args=["--ca-file", str(ca)], data=data, audio_output="null") as server:
                podcast = server.subscribe(feed)
                secure_feed(files, "Secure Feed", 3)
                refreshed = refresh(server, podcast["id"])
                assert refreshed["error"] is None and refreshed["status"] == "ok", refreshed
                assert len(server.episodes(podcast["id"])) == 3, "the refresh brought the third episode"
            secure_feed(files, "Secure Feed", 4)
            with hostserver.launch(data=data, audio_output="null") as server:
                stored = refresh(server, podcast["id"])
                assert "certificate not trusted" in (stored["error"] or ""), stored
                assert len(server.episodes(podcast["id"])) == 3, "episodes kept, none added"
    finally:
        shutil.rmtree(data, ignore_errors=True)


def test_a_download_over_https_resumes_with_range(pki, tone):
    """A download over HTTPS (the CA given) cancelled midway keeps its partial file; `download`
    again asks for the rest with Range on a verified connection and the file ends byte-identical."""
    ca, certificates = pki
    # Validators: Earshot resumes only with an If-Range it can send (a changed file starts over).
    with https_server(certificates["good"], validators=True) as files, hostserver.FileServer() as feeds:
        size = tone.stat().st_size
        url = files.put("/slow.wav", tone.read_bytes(), "audio/wav", rate=size // 4)
        feed = hostserver.tone_feed(feeds, "Resumed Tones", [("Resumed tone", url, 20)])
        with hostserver.launch(args=["--ca-file", str(ca)], audio_output="null") as server:
            episode = server.episodes(server.subscribe(feed)["id"])[0]["id"]
            client = server.socket()
            client.command("download", episode=episode)
            client.wait_for(lambda m: any(i["episode"] == episode and (i.get("bytes") or 0) > size // 8
                                          for i in m["items"]),
                            timeout=15, types=("downloads",), what="a part of the download")
            client.command("download.cancel", episode=episode)
            _, paused = client.wait_for(lambda m: any(i["episode"] == episode and i["state"] == "paused"
                                                      for i in m["items"]),
                                        timeout=10, types=("downloads",), what="the download paused")
            kept = next(i for i in paused["items"] if i["episode"] == episode)["bytes"]
            assert 0 < kept < size, kept
            files.rates.pop("/slow.wav")
            client.command("download", episode=episode)
            _, message = client.wait_for(
                lambda m: any(i["episode"] == episode and i["state"] in ("done", "failed") for i in m["items"]),
                timeout=20, types=("downloads",), what="the download's end")
            item = next(i for i in message["items"] if i["episode"] == episode)
            assert item["state"] == "done", item
            asked = [r for r in files.requests if r.path == "/slow.wav"]
            assert len(asked) == 2 and asked[0].range is None, asked
            assert asked[1].range == f"bytes={kept}-" and asked[1].if_range, asked
            done = [p for p in (Path(server.data) / "downloads").rglob("*") if p.is_file()]
            assert len(done) == 1 and done[0].read_bytes() == tone.read_bytes(), done

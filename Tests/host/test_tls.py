"""TLS verified everywhere Earshot streams and downloads: a loopback HTTPS server whose
certificates come from a CA this test makes with openssl. The feed itself is served over plain
HTTP (feed fetching goes through URLSession, which takes no private CA on Linux: SECURITY.md),
its enclosures over HTTPS.

- with `--ca-file` the CA's certificate plays (streamed) and downloads;
- without it, and with it on an expired or wrong-host certificate, both fail with "certificate
  not trusted", and nothing is stored: no downloaded file, no position."""

import contextlib
import ssl
import subprocess
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


def https_server(certificate):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*map(str, certificate))
    return hostserver.FileServer(tls=context)


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


def test_feeds_over_https_are_verified_against_the_system_roots(pki, tone):
    """Feed fetching verifies too (URLSession, the system's roots): a feed whose certificate only
    the test's CA vouches for is refused with "certificate not trusted", and nothing is stored.
    (`--ca-file` does not reach feed fetching yet: SECURITY.md.)"""
    ca, certificates = pki
    with https_server(certificates["good"]) as files:
        feed = hostserver.tone_feed(files, "Secure Feed", [("Secure tone", files.put_file("/tone.wav", tone), 20)])
        with hostserver.launch(args=["--ca-file", str(ca)], audio_output="null") as server:
            status, body = server.post_json("/api/subscriptions", {"url": feed})
            assert status >= 400 and "certificate not trusted" in str(body), (status, body)
            assert server.get_json("/api/podcasts")["podcasts"] == [], "nothing half-stored"

"""A LAN client for Tests/e2e/test_lan.py, run inside the test's network namespace
(`ip netns exec NS python lan_client.py …`): plain sockets and http.client, so every header is
what the test says and the server sees a real non-loopback peer. Prints one JSON object per line.

  lan_client.py http METHOD URL [--header "Name: value"]… [--body TEXT | --body-size N] [--source ADDRESS]
  lan_client.py ws URL [--header …]… [--send JSON]… [--hold SECONDS]

`ws` prints {"status": handshake status}; then, for each --send, the reply with the same id; with
--hold it prints {"open": true} and waits for the server to close the socket, then prints
{"closed": code, "reason": text, "after": seconds} (or {"closed": null} at the deadline).
"""

import base64
import http.client
import json
import os
import socket
import struct
import sys
import time
from urllib.parse import urlsplit


def emit(value):
    print(json.dumps(value), flush=True)


def parse(argv):
    options = {"header": [], "send": [], "body": None, "body-size": None, "source": None, "hold": None}
    positional = []
    it = iter(argv)
    for arg in it:
        if arg.startswith("--"):
            key = arg[2:]
            value = next(it)
            if isinstance(options[key], list):
                options[key].append(value)
            else:
                options[key] = value
        else:
            positional.append(arg)
    headers = {}
    for header in options["header"]:
        name, _, value = header.partition(":")
        headers[name.strip()] = value.strip()
    return positional, options, headers


def do_http(method, url, options, headers):
    parts = urlsplit(url)
    source = (options["source"], 0) if options["source"] else None
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10, source_address=source)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    body = options["body"].encode() if options["body"] is not None else None
    if options["body-size"] is not None:
        return declare_big_body(parts, method, path, int(options["body-size"]), headers)
    try:
        # skip_host: the test's Host header (a wrong one, say) goes out as given.
        connection.putrequest(method, path, skip_host="Host" in headers, skip_accept_encoding=True)
        for name, value in headers.items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        emit({"status": response.status, "headers": {k.lower(): v for k, v in response.getheaders()}, "body": text})
    except OSError as error:  # refused, reset, closed without an answer
        emit({"status": None, "error": str(error)})


def declare_big_body(parts, method, path, size, headers):
    """Sends only the head of a request declaring a `size`-byte body, and reads what the server
    answers before any of the body is sent (a server that checks Content-Length refuses at once)."""
    sock = socket.create_connection((parts.hostname, parts.port), timeout=5)
    headers.setdefault("Host", parts.netloc)
    lines = [f"{method} {path} HTTP/1.1", f"Content-Length: {size}"] + [f"{k}: {v}" for k, v in headers.items()]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    try:
        head = sock.recv(4096).split(b"\r\n", 1)[0].split()
        emit({"status": int(head[1]) if len(head) > 1 else None})
    except socket.timeout:
        emit({"status": None, "error": "no answer before the body"})


def read_exact(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def send_text(sock, text):
    payload = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    if len(payload) < 126:
        header += bytes([0x80 | len(payload)])
    else:
        header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def read_frame(sock):
    """(opcode, payload bytes)."""
    first, second = read_exact(sock, 2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack(">H", read_exact(sock, 2))[0]
    elif length == 127:
        length = struct.unpack(">Q", read_exact(sock, 8))[0]
    return first & 0x0F, read_exact(sock, length)


def do_ws(url, options, headers):
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {parts.path or '/'} HTTP/1.1", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    headers.setdefault("Host", parts.netloc)
    lines += [f"{name}: {value}" for name, value in headers.items()]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = b""
    try:
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(1)
            if not chunk:
                break
            head += chunk
    except (ConnectionError, socket.timeout):
        pass
    status_line = head.split(b"\r\n", 1)[0].split()
    status = int(status_line[1]) if len(status_line) > 1 else None
    emit({"status": status})
    if status != 101:
        return
    for message in options["send"]:
        sent = json.loads(message)
        send_text(sock, message)
        while True:
            opcode, payload = read_frame(sock)
            if opcode == 1:
                reply = json.loads(payload)
                if reply.get("id") == sent.get("id") and reply.get("type") in ("ack", "error"):
                    emit(reply)
                    break
            elif opcode == 8:
                emit({"closed": struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None})
                return
    if options["hold"] is None:
        return
    emit({"open": True})
    started = time.monotonic()
    deadline = started + float(options["hold"])
    sock.settimeout(0.5)
    while time.monotonic() < deadline:
        try:
            opcode, payload = read_frame(sock)
        except socket.timeout:
            continue
        except ConnectionError:
            emit({"closed": None, "reason": "connection dropped", "after": time.monotonic() - started})
            return
        if opcode == 8:
            code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
            emit({"closed": code, "reason": payload[2:].decode("utf-8", "replace"), "after": time.monotonic() - started})
            return
    emit({"closed": None, "reason": "still open at the deadline"})


def main(argv):
    positional, options, headers = parse(argv)
    if positional[0] == "http":
        do_http(positional[1], positional[2], options, headers)
    elif positional[0] == "ws":
        do_ws(positional[1], options, headers)
    else:
        sys.exit(f"unknown command {positional[0]}")


if __name__ == "__main__":
    main(sys.argv[1:])

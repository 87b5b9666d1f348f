"""
A minimal HTTP proxy for `npm run bench -- export`: CONNECT tunnels, and absolute-form requests
(`GET http://host:port/path`) rewritten to origin-form; past the head the bytes move socket to
pipe to socket with splice(2), never copied into this process. On two cores the proxy shares a
core with the sandbox, and a relay that copies (tinyproxy, or Node's stream pipes: 0.40x and
0.73x of direct, bench/README.md) made the figure measure the relay, not the app's proxy path.
One request per connection (the app's downloads send `Connection: close`), a thread per
direction. Prints `PROXY_READY <port>`, then one line per request: `REQUEST <request line>`.
Python 3.10+ on Linux (os.splice); Python is a build tool of ours already (node-gyp).
"""

import fcntl
import os
import signal
import socket
import sys
import threading
from urllib.parse import urlsplit

MAX_HEAD_BYTES = 64 * 1024
SPLICE_BYTES = 1024 * 1024
# Linux's F_SETPIPE_SZ (Python's fcntl names it only from 3.10 on some builds): a 1 MiB pipe
# moves a socket's whole receive queue per call instead of 64 KiB (the default pipe's size).
F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def pump(source, target):
    """source -> pipe -> target, in the kernel, until source ends; then half-close target."""
    read_end, write_end = os.pipe()
    try:
        fcntl.fcntl(write_end, F_SETPIPE_SZ, SPLICE_BYTES)
    except OSError:
        pass  # above /proc/sys/fs/pipe-max-size for an unprivileged user: the default works
    try:
        while True:
            moved = os.splice(source.fileno(), write_end, SPLICE_BYTES)
            if moved == 0:
                break
            while moved > 0:
                moved -= os.splice(read_end, target.fileno(), moved)
        target.shutdown(socket.SHUT_WR)
    except OSError:
        # A cut on either side ends the relay: the other side sees its connection close.
        for side in (source, target):
            try:
                side.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
    finally:
        os.close(read_end)
        os.close(write_end)


def relay(client, upstream):
    back = threading.Thread(target=pump, args=(upstream, client), daemon=True)
    back.start()
    pump(client, upstream)
    back.join()
    client.close()
    upstream.close()


def read_head(client):
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = client.recv(65536)
        if not chunk or len(head) > MAX_HEAD_BYTES:
            return None, b""
        head += chunk
    end = head.index(b"\r\n\r\n")
    return head[:end].decode("latin-1"), head[end + 4 :]


def serve(client):
    text, rest = read_head(client)
    if text is None:
        client.close()
        return
    request_line, *header_lines = text.split("\r\n")
    say(f"REQUEST {request_line}")
    method, target, version = (request_line.split(" ") + ["", "", "HTTP/1.1"])[:3]
    try:
        if method == "CONNECT":
            host, _, port = target.rpartition(":")
            upstream = socket.create_connection((host, int(port)))
            client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        else:
            url = urlsplit(target)
            upstream = socket.create_connection((url.hostname, url.port or 80))
            kept = [line for line in header_lines if not line.lower().startswith("proxy-")]
            path = (url.path or "/") + (f"?{url.query}" if url.query else "")
            upstream.sendall(
                "\r\n".join([f"{method} {path} {version}", *kept, "", ""]).encode("latin-1")
            )
    except (OSError, ValueError):
        client.sendall(b"HTTP/1.1 502 Bad Gateway\r\n\r\n")
        client.close()
        return
    if rest:
        upstream.sendall(rest)
    relay(client, upstream)


def main():
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    listener = socket.create_server(("127.0.0.1", 0))
    say(f"PROXY_READY {listener.getsockname()[1]}")
    while True:
        client, _ = listener.accept()
        threading.Thread(target=serve, args=(client,), daemon=True).start()


if __name__ == "__main__":
    main()

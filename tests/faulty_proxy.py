"""An HTTP reverse proxy on 127.0.0.1 in front of an S3 API (moto), with faults a test turns
on and off: S3's own 500 InternalError for the next N requests or for a while, every answer
late by some seconds, or the endpoint down (connections closed unanswered).

Requests pass through unchanged, headers and body, Host included: a client signs its
requests (AWS SigV4) for the host it talks to, the proxy's, and S3 checks the signature
against the Host header it receives, so the proxy must not rewrite it. Everything is bounded:
the upstream connection, an idle client connection and `stop` all have timeouts.
"""

from __future__ import annotations

import http.client
import secrets
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM_TIMEOUT_S = 30.0
IDLE_CLIENT_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 10.0
# Headers of one hop only (RFC 9110 7.6.1): the proxy speaks for itself on each side.
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "expect",
    }
)
INTERNAL_ERROR = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InternalError</Code>'
    "<Message>We encountered an internal error. Please try again.</Message>"
    "<RequestId>{request_id}</RequestId></Error>"
)


@dataclass
class Faults:
    """What the proxy does to the requests now; changed under the proxy's lock."""

    fail_next: int = 0  # answer 500 to this many more requests
    fail_until: float = 0.0  # and to every request before this time (time.monotonic)
    delay_s: float = 0.0  # hold every answer this long
    down: bool = False  # close every connection unanswered
    matching: str = ""  # only requests whose path holds this text meet the faults


@dataclass
class Seen:
    """What the proxy did, for a test to check that its faults were met."""

    forwarded: int = 0
    failed: int = 0
    dropped: int = 0
    # (seconds since the proxy started, method, path, what was done), for a failure's message
    requests: list[tuple[float, str, str, str]] = field(default_factory=list)


class FaultyProxy:
    def __init__(self, upstream: str):
        """`upstream`: host:port of the S3 API, reached over plain HTTP."""
        host, _, port = upstream.rpartition(":")
        self.upstream = (host, int(port))
        self.faults = Faults()
        self.seen = Seen()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._started = time.monotonic()
        self._server = _Server(("127.0.0.1", 0), _handler_for(self))
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.1},
            name="faulty-proxy",
            daemon=True,
        )

    @property
    def endpoint(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FaultyProxy:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # ends any delay in progress
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(STOP_TIMEOUT_S)

    def __enter__(self) -> FaultyProxy:
        return self.start()

    def __exit__(self, *_exc) -> None:
        self.stop()

    # ---- faults ---------------------------------------------------------------------------

    def fail_next(self, count: int) -> None:
        with self._lock:
            self.faults.fail_next = count

    def fail_for(self, seconds: float) -> None:
        with self._lock:
            self.faults.fail_until = time.monotonic() + seconds

    def delay(self, seconds: float) -> None:
        with self._lock:
            self.faults.delay_s = seconds

    def go_down(self, matching: str = "") -> None:
        """Close every connection unanswered; with `matching`, only those of requests whose
        path holds that text (one part of the bucket down, the rest answering)."""
        with self._lock:
            self.faults.down = True
            self.faults.matching = matching

    def heal(self) -> None:
        """Every fault off: requests pass as they came."""
        with self._lock:
            self.faults = Faults()

    # ---- for the handler ------------------------------------------------------------------

    def _decide(self, method: str, path: str) -> tuple[str, float]:
        """What to do with one request: "drop", "fail" or "forward", and the delay."""
        with self._lock:
            faults = self.faults
            if faults.matching and faults.matching not in path:
                action = "forward"
                self.seen.forwarded += 1
            elif faults.down:
                action = "drop"
                self.seen.dropped += 1
            elif faults.fail_next > 0 or time.monotonic() < faults.fail_until:
                action = "fail"
                faults.fail_next = max(faults.fail_next - 1, 0)
                self.seen.failed += 1
            else:
                action = "forward"
                self.seen.forwarded += 1
            self.seen.requests.append(
                (round(time.monotonic() - self._started, 3), method, path, action)
            )
            return action, 0.0 if action == "drop" else faults.delay_s

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self._stopping.wait(seconds)


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a client's idle keep-alive connection never holds up `stop`
    block_on_close = False

    def handle_error(self, request, client_address) -> None:
        """A client that resets its connection (a process ending, a retry giving up) is no
        error of the proxy's; anything else is printed as usual."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


def _handler_for(proxy: FaultyProxy) -> type[BaseHTTPRequestHandler]:
    class Handler(_ProxyHandler):
        pass

    Handler.proxy = proxy
    return Handler


class _ProxyHandler(BaseHTTPRequestHandler):
    proxy: FaultyProxy
    protocol_version = "HTTP/1.1"  # keep-alive, as S3 clients expect
    timeout = IDLE_CLIENT_TIMEOUT_S

    def log_message(self, format, *args) -> None:
        pass  # a test's output stays its own

    def do_GET(self) -> None:
        self._relay()

    do_PUT = do_POST = do_DELETE = do_HEAD = do_GET

    def _relay(self) -> None:
        # The body is read whatever happens next, so that the connection stays in step for
        # the client's next request.
        body = self._request_body()
        action, delay_s = self.proxy._decide(self.command, self.path)
        if action == "drop":
            self.close_connection = True
            return
        self.proxy._wait(delay_s)
        if action == "fail":
            self._answer_internal_error()
            return
        try:
            status, reason, headers, answer = self._forward(body)
        except (OSError, http.client.HTTPException):
            self.close_connection = True  # the client sees the upstream's failure as its own
            return
        self.send_response_only(status, reason)
        for name, value in headers:
            if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                self.send_header(name, value)
        # A HEAD answer carries the length of what a GET would, with no body.
        length = next((value for name, value in headers if name.lower() == "content-length"), None)
        self.send_header(
            "Content-Length", length if self.command == "HEAD" and length else str(len(answer))
        )
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(answer)

    def _request_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            return self._chunked_body()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _chunked_body(self) -> bytes:
        parts, deadline = [], time.monotonic() + UPSTREAM_TIMEOUT_S
        while time.monotonic() < deadline:
            size = int(self.rfile.readline(1024).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                for _trailer in range(100):
                    if self.rfile.readline(1024) in (b"\r\n", b"\n", b""):
                        break
                return b"".join(parts)
            parts.append(self.rfile.read(size))
            self.rfile.readline(1024)
        raise TimeoutError("a chunked request body that does not end")

    def _forward(self, body: bytes) -> tuple[int, str, list[tuple[str, str]], bytes]:
        upstream = http.client.HTTPConnection(*self.proxy.upstream, timeout=UPSTREAM_TIMEOUT_S)
        try:
            # skip_host: the Host header goes as the client sent it, signed for the proxy.
            upstream.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
            for name, value in self.headers.items():
                if name.lower() not in HOP_BY_HOP:
                    upstream.putheader(name, value)
            if "Content-Length" not in self.headers and body:  # it came in chunks
                upstream.putheader("Content-Length", str(len(body)))
            upstream.endheaders(body or None)
            response = upstream.getresponse()
            answer = response.read()
            return response.status, response.reason, response.getheaders(), answer
        finally:
            upstream.close()

    def _answer_internal_error(self) -> None:
        body = INTERNAL_ERROR.format(request_id=secrets.token_hex(8).upper()).encode()
        self.send_response_only(500, "Internal Server Error")
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

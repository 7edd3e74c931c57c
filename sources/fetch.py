"""Polite, bounded HTTP GET of vendor pages: every network or HTTP fault is an outcome.

The body is read under a byte budget in sources/fetch_body.py; whether a 2xx body is a page
worth versioning is told in sources/fetch_content.py."""

from __future__ import annotations

import email.utils
import functools
import ipaddress
import logging
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

import httpcore
import httpx

from perfledger.sources.fetch_body import read_body
from perfledger.sources.fetch_content import classify_content
from perfledger.sources.robots import (
    MAX_ROBOTS_BYTES,
    RobotsCache,
    RobotsRules,
    parse_robots,
    product_token,
)

log = logging.getLogger(__name__)

DEFAULT_USER_AGENT = "perfledger/0.1 (+https://github.com/perfledger/perfledger)"

OUTCOMES = frozenset(
    {
        "ok",
        "not_modified",
        "http_error",
        "network_error",
        "timeout",
        "too_large",
        "blocked_host",
        "blocked_address",
        "blocked_robots",
        "redirect_loop",
        "empty_body",
        "not_html",
        "error_page",
    }
)

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# 501 and 505 say the server will never do this request, so asking again only adds load.
PERMANENT_5XX = frozenset({501, 505})

# Asked for after the media types the layouts read (see `accept_header`): anything else, at
# the lowest weight.
ANY_OTHER_TYPE = "*/*;q=0.1"
# Only encodings the standard library can inflate under a byte budget are offered.
ACCEPT_ENCODING = "gzip, deflate"

# Address kinds that allow_local opens; link-local (cloud metadata), multicast, reserved and
# unspecified addresses stay closed because no test or vendor page ever needs them.
LOCAL_KINDS = frozenset({"loopback", "private"})


class FetchError(ValueError):
    """The caller asked for something the fetcher never does (bad URL, bad policy)."""


@dataclass(frozen=True)
class FetchPolicy:
    """How to fetch. Reuse one policy per run: robots.txt answers are cached on it."""

    allowed_hosts: frozenset[str]
    allow_local: bool = False
    timeout_s: float = 30.0  # whole attempt: connect, headers and body together
    max_bytes: int = 20_000_000  # counted after decompression
    max_retries: int = 3  # shared by every hop of a redirect chain
    backoff_base_s: float = 0.5
    retry_after_cap_s: float = 30.0  # a longer Retry-After ends the fetch instead of waiting
    min_interval_per_host_s: float = 1.0
    user_agent: str = DEFAULT_USER_AGENT
    respect_robots: bool = True
    max_redirects: int = 5
    robots_cache: RobotsCache = field(
        default_factory=RobotsCache, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if isinstance(self.allowed_hosts, str):
            raise FetchError("allowed_hosts must be a collection of host names, not one string")
        hosts = frozenset(normalize_host(host) for host in self.allowed_hosts)
        object.__setattr__(self, "allowed_hosts", hosts)
        check_policy_numbers(self)
        if not self.user_agent.strip() or any(c in self.user_agent for c in "\r\n"):
            raise FetchError("user_agent must be one non-empty line")


@dataclass(frozen=True)
class FetchResult:
    url: str  # as asked
    final_url: str  # URL of the last request sent (url itself when none was sent)
    status: int | None  # None when no response arrived
    headers: dict[str, str]  # lower-case names, repeated headers joined with ", "
    body: bytes  # decoded; partial when the fetch stopped midway
    elapsed_s: float
    attempts: int  # requests tried for this URL, retries and redirect hops; not robots.txt
    not_modified: bool
    outcome: str
    reason: str  # "" when ok
    fetched_at: str  # UTC ISO timestamp of when the fetch ended


@dataclass
class _Attempt:
    """One request on the wire; `kind` is "response" unless it failed before completing."""

    url: httpx.URL
    kind: str
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    reason: str = ""
    retryable: bool = False


@dataclass
class _Ending:
    outcome: str
    reason: str
    final_url: str
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


@dataclass
class _Run:
    attempts: int = 0
    retries: int = 0


class _AddressRefused(Exception):
    """A host resolved to an address the policy forbids; raised before any connect."""


class _RobotsUnavailable(Exception):
    """robots.txt could not be fetched for a passing reason, so nothing may be cached."""

    def __init__(self, outcome: str, reason: str) -> None:
        super().__init__(reason)
        self.outcome = outcome
        self.reason = reason


def fetch(
    url: str,
    policy: FetchPolicy,
    etag: str | None = None,
    last_modified: str | datetime | None = None,
) -> FetchResult:
    """GET `url` under `policy`; raises FetchError only for misuse, never for faults."""
    started = time.monotonic()
    target = parse_target(url)
    extra_headers = conditional_headers(etag, last_modified)
    run = _Run()
    ending = follow_redirects(target, policy, extra_headers, run)
    return FetchResult(
        url=url,
        final_url=ending.final_url,
        status=ending.status,
        headers=ending.headers,
        body=ending.body,
        elapsed_s=time.monotonic() - started,
        attempts=run.attempts,
        not_modified=ending.outcome == "not_modified",
        outcome=ending.outcome,
        reason=ending.reason,
        fetched_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
    )


# --- misuse checks -------------------------------------------------------------------------


def check_policy_numbers(policy: FetchPolicy) -> None:
    if policy.timeout_s <= 0 or policy.max_bytes <= 0:
        raise FetchError("timeout_s and max_bytes must be positive")
    non_negative = ("max_retries", "backoff_base_s", "retry_after_cap_s")
    non_negative += ("min_interval_per_host_s", "max_redirects")
    for name in non_negative:
        if getattr(policy, name) < 0:
            raise FetchError(f"{name} must not be negative")


def parse_target(url: str) -> httpx.URL:
    """Parse the URL a caller asked for, refusing anything but plain http(s) addresses."""
    if not isinstance(url, str):
        raise FetchError(f"url must be a string, got {type(url).__name__}")
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise FetchError(f"not a usable URL: {url!r} ({exc})") from exc
    if parsed.scheme not in ("http", "https"):
        raise FetchError(f"only http and https URLs are fetched, not {url!r}")
    if not parsed.host:
        raise FetchError(f"URL has no host: {url!r}")
    if parsed.userinfo:
        raise FetchError("URLs with credentials are not fetched")
    return parsed.copy_with(fragment=None)


def conditional_headers(
    etag: str | None, last_modified: str | datetime | None
) -> list[tuple[str, str]]:
    """Build validator headers; values are sent exactly as the server once gave them."""
    if isinstance(last_modified, datetime):
        last_modified = email.utils.format_datetime(last_modified.astimezone(UTC), usegmt=True)
    headers = []
    for name, value in (("If-None-Match", etag), ("If-Modified-Since", last_modified)):
        if value is None:
            continue
        if not isinstance(value, str) or any(c in value for c in "\r\n\x00"):
            raise FetchError(f"{name} value must be a single-line string")
        headers.append((name, value))
    return headers


def normalize_host(host: str) -> str:
    return host.strip().rstrip(".").lower()


# --- redirects and per-hop checks ----------------------------------------------------------


def follow_redirects(
    start: httpx.URL, policy: FetchPolicy, extra_headers: list[tuple[str, str]], run: _Run
) -> _Ending:
    """Walk the redirect chain by hand so that every hop passes the same checks."""
    current = start
    visited = {str(start)}
    previous: _Attempt | None = None
    hop = 0
    while True:
        refusal = check_target(current, policy)
        if refusal is not None:
            outcome, reason = refusal
            if previous is not None:
                reason = f"redirected to {current}, but {reason}"
            return end_with(previous, outcome, reason, fallback_url=current)
        attempt = request_with_retries(current, policy, extra_headers, run)
        if attempt.kind != "response" or attempt.status not in REDIRECT_STATUSES:
            return conclude(attempt, run)
        following = redirect_target(current, attempt.headers)
        if following is None:
            return end_with(attempt, "http_error", f"{attempt.status} without a usable Location")
        if str(following) in visited:
            return end_with(attempt, "redirect_loop", f"redirect loops back to {following}")
        if hop >= policy.max_redirects:
            reason = f"more than {policy.max_redirects} redirects (next: {following})"
            return end_with(attempt, "redirect_loop", reason)
        log.debug("following %s redirect from %s to %s", attempt.status, current, following)
        visited.add(str(following))
        previous, current, hop = attempt, following, hop + 1


def redirect_target(current: httpx.URL, headers: dict[str, str]) -> httpx.URL | None:
    location = headers.get("location", "").strip()
    if not location:
        return None
    try:
        return current.join(location).copy_with(fragment=None)
    except httpx.InvalidURL:
        return None


def end_with(
    attempt: _Attempt | None, outcome: str, reason: str, fallback_url: httpx.URL | None = None
) -> _Ending:
    """End the fetch, keeping whatever the last request received for the record."""
    if attempt is None:
        return _Ending(outcome, reason, str(fallback_url))
    return _Ending(outcome, reason, str(attempt.url), attempt.status, attempt.headers, attempt.body)


def check_target(url: httpx.URL, policy: FetchPolicy) -> tuple[str, str] | None:
    """Return (outcome, reason) if `url` must not be requested, checked cheapest first."""
    if url.scheme not in ("http", "https") or url.userinfo:
        return "blocked_host", f"refusing to follow to {url}: only plain http(s) URLs"
    if not host_allowed(url, policy.allowed_hosts):
        return "blocked_host", f"host {url.host!r} is not in allowed_hosts"
    host = url.raw_host.decode("ascii")  # the IDNA form, as the connection will use it
    try:
        checked_addresses(host, url.port or default_port(url), policy.allow_local)
    except _AddressRefused as exc:
        return "blocked_address", str(exc)
    except httpcore.ConnectError as exc:
        return "network_error", str(exc)
    if policy.respect_robots:
        return check_robots(url, policy)
    return None


def host_allowed(url: httpx.URL, allowed_hosts: frozenset[str]) -> bool:
    names = {normalize_host(url.host), normalize_host(url.raw_host.decode("ascii"))}
    return not names.isdisjoint(allowed_hosts)


def default_port(url: httpx.URL) -> int:
    return 443 if url.scheme == "https" else 80


# --- addresses -----------------------------------------------------------------------------

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
# Only these count as "private" for allow_local; ipaddress's is_private also covers
# documentation, benchmarking and reserved ranges that no local server lives on.
_PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(net)
    for net in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
)


def address_kind(ip: IPAddress) -> str | None:
    """Name the kind of a non-public address, or None for a public one."""
    embedded = embedded_ipv4(ip)
    if embedded is not None:
        return address_kind(embedded)
    checks = (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("private", any(ip in net for net in _PRIVATE_NETWORKS if net.version == ip.version)),
        ("reserved", ip.is_reserved),
        ("non-global", ip.is_private or not ip.is_global),
    )
    return next((kind for kind, hit in checks if hit), None)


def embedded_ipv4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    """IPv6 forms that carry an IPv4 address reach that address, so they are judged by it."""
    if ip.version != 6:
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


LOCAL_HINT = (
    "to read a server on this machine or network, register its URL with "
    "`perfledger add-source URL --local` and ingest it with "
    "`perfledger ingest --source NAME`"
)


def address_refusal(ip: IPAddress, allow_local: bool) -> str | None:
    kind = address_kind(ip)
    if kind is None or (allow_local and kind in LOCAL_KINDS):
        return None
    hint = f" ({LOCAL_HINT})" if kind in LOCAL_KINDS else ""
    return f"{ip} is a {kind} address{hint}"


def checked_addresses(host: str, port: int, allow_local: bool) -> list[str]:
    """Resolve `host` and return its addresses, refusing if any one of them is forbidden.

    Every address is checked, not just the first, so a name that mixes a public and a
    private address cannot slip through on a later connect attempt.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise httpcore.ConnectError(f"could not resolve {host!r}: {exc}") from exc
    # An IPv4 or IPv6 address is a str (typeshed also allows the int of other families).
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    for address in addresses:
        refusal = address_refusal(ipaddress.ip_address(address.split("%", 1)[0]), allow_local)
        if refusal is not None:
            raise _AddressRefused(f"{host!r} resolves to {address}: {refusal}")
    if not addresses:
        raise httpcore.ConnectError(f"{host!r} resolved to no address")
    return addresses


# --- robots.txt ----------------------------------------------------------------------------


def check_robots(url: httpx.URL, policy: FetchPolicy) -> tuple[str, str] | None:
    origin = f"{url.scheme}://{url.netloc.decode('ascii')}"
    try:
        rules = policy.robots_cache.get_or_load(origin, lambda: load_robots(origin, policy))
    except _RobotsUnavailable as exc:
        return exc.outcome, exc.reason
    path = url.raw_path.decode("ascii")
    if rules.can_fetch(policy.user_agent, path):
        return None
    token = product_token(policy.user_agent)
    detail = rules.note or "its rules disallow this path"
    return "blocked_robots", f"{origin}/robots.txt forbids {path} to {token}: {detail}"


def load_robots(origin: str, policy: FetchPolicy) -> RobotsRules:
    """Fetch and read robots.txt through the same guarded path as any page."""
    robots_policy = replace(
        policy, respect_robots=False, max_bytes=min(policy.max_bytes, MAX_ROBOTS_BYTES)
    )
    result = fetch(f"{origin}/robots.txt", robots_policy)
    return interpret_robots(result)


def interpret_robots(result: FetchResult) -> RobotsRules:
    """Turn a robots.txt fetch into rules following RFC 9309 section 2.3.1."""
    status = result.status
    if result.outcome in ("network_error", "timeout"):
        raise _RobotsUnavailable(result.outcome, f"robots.txt unreachable: {result.reason}")
    if status is not None and 200 <= status < 300:
        text = result.body.decode("utf-8", "replace")
        if result.outcome == "too_large":
            text = text.rsplit("\n", 1)[0]  # drop the line cut in half
        return parse_robots(text)
    # A 429 means "slow down", not "no rules here", so it is read like a server error.
    if status is not None and 400 <= status < 500 and status != 429:
        return RobotsRules.allowing_all(f"robots.txt answered {status}, which allows all")
    # 5xx after retries, or a robots.txt that could not be read safely: the RFC says to
    # assume everything is disallowed.
    return RobotsRules.disallowing_all(
        f"robots.txt could not be read ({result.outcome}: {result.reason}), "
        "so the whole site counts as disallowed"
    )


# --- rate limit and retries ----------------------------------------------------------------


class _HostClock:
    """Process-wide record of when each host was last sent a request."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._host_locks: dict[str, threading.Lock] = {}
        self._last_start: dict[str, float] = {}

    def wait_turn(self, host: str, interval_s: float) -> None:
        with self._lock:
            host_lock = self._host_locks.setdefault(host, threading.Lock())
        # Sleeping while holding the host's lock queues callers for that host only, and
        # stamping the start after the sleep measures the interval from real start times,
        # so a thread that wakes late cannot squeeze the next one closer.
        with host_lock:
            delay = self._last_start.get(host, float("-inf")) + interval_s - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self._last_start[host] = time.monotonic()


_HOST_CLOCK = _HostClock()


def request_with_retries(
    url: httpx.URL, policy: FetchPolicy, extra_headers: list[tuple[str, str]], run: _Run
) -> _Attempt:
    while True:
        _HOST_CLOCK.wait_turn(normalize_host(url.host), policy.min_interval_per_host_s)
        run.attempts += 1
        attempt = send_request(url, policy, extra_headers)
        delay = retry_delay(attempt, policy, run.retries)
        if delay is None:
            return attempt
        log.info("retrying %s in %.2f s: %s", url, delay, describe_attempt(attempt))
        run.retries += 1
        time.sleep(delay)


def retry_delay(attempt: _Attempt, policy: FetchPolicy, retries_done: int) -> float | None:
    """Seconds to wait before asking again, or None to stop here."""
    if not attempt.retryable or retries_done >= policy.max_retries:
        return None
    backoff = min(policy.backoff_base_s * 2**retries_done, policy.retry_after_cap_s)
    asked = parse_retry_after(attempt.headers.get("retry-after"))
    if asked is None:
        return backoff
    if asked > policy.retry_after_cap_s:
        # Retrying sooner than the server asked would be impolite; waiting longer than the
        # cap would stall the run, so the fetch ends and the caller can try another day.
        attempt.reason = (
            f"Retry-After asks for {asked:.0f} s, more than retry_after_cap_s "
            f"({policy.retry_after_cap_s:g} s)"
        )
        return None
    return max(backoff, asked)


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Read Retry-After as delta-seconds or an HTTP-date; None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def status_retryable(status: int) -> bool:
    return status in (408, 429) or (500 <= status < 600 and status not in PERMANENT_5XX)


# --- one request ---------------------------------------------------------------------------


@dataclass
class _Deadline:
    at: float

    def clip(self, timeout: float | None, error: type[Exception]) -> float:
        """Shorten a per-operation timeout so that no operation outlives the deadline."""
        remaining = self.at - time.monotonic()
        if remaining <= 0:
            raise error("timeout_s elapsed for the whole request")
        return remaining if timeout is None else min(timeout, remaining)


class _DeadlineStream(httpcore.NetworkStream):
    """A socket stream whose every read and write ends by one shared deadline."""

    def __init__(self, inner: httpcore.NetworkStream, deadline: _Deadline) -> None:
        self._inner = inner
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, self._deadline.clip(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, self._deadline.clip(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context, server_hostname=None, timeout=None) -> _DeadlineStream:
        clipped = self._deadline.clip(timeout, httpcore.ConnectTimeout)
        upgraded = self._inner.start_tls(ssl_context, server_hostname, clipped)
        return _DeadlineStream(upgraded, self._deadline)

    def get_extra_info(self, info: str):
        return self._inner.get_extra_info(info)


class _GuardedBackend(httpcore.NetworkBackend):
    """Connects only to checked addresses, so DNS cannot change between check and connect."""

    def __init__(self, allow_local: bool, deadline: _Deadline) -> None:
        self._inner = httpcore.SyncBackend()
        self._allow_local = allow_local
        self._deadline = deadline

    def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        error: Exception = httpcore.ConnectError(f"no address to connect to for {host!r}")
        for address in checked_addresses(host, port, self._allow_local):
            clipped = self._deadline.clip(timeout, httpcore.ConnectTimeout)
            try:
                stream = self._inner.connect_tcp(
                    address, port, clipped, local_address, socket_options
                )
            except httpcore.ConnectError as exc:
                error = exc
                continue
            return _DeadlineStream(stream, self._deadline)
        raise error

    def connect_unix_socket(self, path, timeout=None, socket_options=None):
        raise httpcore.ConnectError("unix sockets are never used by the fetcher")

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


def send_request(
    url: httpx.URL, policy: FetchPolicy, extra_headers: list[tuple[str, str]]
) -> _Attempt:
    """Send one GET and read its body under the policy's time and size limits."""
    deadline = _Deadline(time.monotonic() + policy.timeout_s)
    backend = _GuardedBackend(policy.allow_local, deadline)
    attempt = _Attempt(url=url, kind="response")
    body = bytearray()
    timeouts = dict.fromkeys(("connect", "read", "write", "pool"), policy.timeout_s)
    context = tls_context() if url.scheme == "https" else None
    try:
        with (
            httpcore.ConnectionPool(
                ssl_context=context, network_backend=backend, retries=0
            ) as pool,
            pool.stream(
                "GET",
                core_url(url),
                headers=request_headers(url, policy, extra_headers),
                extensions={"timeout": timeouts},
            ) as response,
        ):
            attempt.status = response.status
            attempt.headers = header_dict(response.headers)
            problem = read_body(response, attempt.headers, policy.max_bytes, body)
            if problem is not None:
                attempt.kind, attempt.reason = problem
            attempt.retryable = attempt.kind == "response" and status_retryable(response.status)
    except _AddressRefused as exc:
        attempt.kind, attempt.reason = "blocked_address", str(exc)
    except httpcore.TimeoutException as exc:
        attempt.kind = "timeout"
        attempt.reason = (
            f"no full answer within timeout_s={policy.timeout_s:g} ({describe_error(exc)})"
        )
        # Once the server has started answering, a slow reply is not a passing glitch;
        # retrying it would multiply the worst-case stall of a scheduled run.
        attempt.retryable = isinstance(exc, httpcore.ConnectTimeout)
    except (httpcore.NetworkError, httpcore.RemoteProtocolError, OSError) as exc:
        attempt.kind, attempt.reason = "network_error", describe_error(exc)
        # A certificate that fails verification will fail the same way a second later.
        attempt.retryable = not caused_by(exc, ssl.SSLCertVerificationError)
    except httpcore.ProtocolError as exc:
        attempt.kind, attempt.reason = "network_error", describe_error(exc)
    attempt.body = bytes(body)
    return attempt


@functools.cache
def tls_context() -> ssl.SSLContext:
    """One verifying TLS context for the process: loading CA certificates is slow."""
    return httpcore.default_ssl_context()


def caused_by(exc: BaseException, kind: type[BaseException]) -> bool:
    """Tell whether `kind` is anywhere under `exc`; httpcore wraps socket errors as args."""
    seen: set[int] = set()
    pending: list[object] = [exc]
    while pending:
        current = pending.pop()
        if not isinstance(current, BaseException) or id(current) in seen:
            continue
        if isinstance(current, kind):
            return True
        seen.add(id(current))
        pending += [current.__cause__, current.__context__, *current.args[:1]]
    return False


def describe_error(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def core_url(url: httpx.URL) -> httpcore.URL:
    return httpcore.URL(
        scheme=url.raw_scheme, host=url.raw_host, port=url.port, target=url.raw_path
    )


def request_headers(
    url: httpx.URL, policy: FetchPolicy, extra_headers: list[tuple[str, str]]
) -> list[tuple[str, str]]:
    return [
        ("Host", url.netloc.decode("ascii")),
        ("User-Agent", policy.user_agent),
        ("Accept", accept_header()),
        ("Accept-Encoding", ACCEPT_ENCODING),
        *extra_headers,
    ]


def accept_header() -> str:
    """The media types the layouts read, the most wanted first, each with its weight
    (sources/layouts/__init__.py), then anything else at the lowest weight."""
    # Imported here: the layouts' registry is only needed once a request is sent.
    from perfledger.sources.layouts import accepted_media_types

    asked = [
        name if weight == 1 else f"{name};q={weight:g}" for name, weight in accepted_media_types()
    ]
    return ",".join([*asked, ANY_OTHER_TYPE])


def header_dict(raw_headers: list[tuple[bytes, bytes]]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for raw_name, raw_value in raw_headers:
        name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    return headers


# --- final classification ------------------------------------------------------------------


def conclude(attempt: _Attempt, run: _Run) -> _Ending:
    """Turn the last request of a fetch into the caller-facing outcome."""
    if attempt.kind in ("network_error", "timeout", "blocked_address"):
        return end_with(attempt, attempt.kind, with_tries(attempt.reason, run))
    if attempt.kind == "too_large":
        return end_with(attempt, "too_large", attempt.reason)
    if attempt.kind == "undecodable":
        return end_with(attempt, "not_html", attempt.reason)
    status = attempt.status or 0
    if status == 304:
        return end_with(attempt, "not_modified", "304: the stored version is still current")
    if 200 <= status < 300:
        return end_with(attempt, *classify_content(attempt.headers, attempt.body))
    reason = with_tries(f"server answered {status}", run)
    if attempt.reason:
        reason += f"; {attempt.reason}"
    return end_with(attempt, "http_error", reason)


def with_tries(reason: str, run: _Run) -> str:
    return f"{reason} (after {run.attempts} attempts)" if run.retries else reason


def describe_attempt(attempt: _Attempt) -> str:
    return f"status {attempt.status}" if attempt.kind == "response" else attempt.reason

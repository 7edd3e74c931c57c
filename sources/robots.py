"""robots.txt rules read as RFC 9309 says: one group per user agent, the longest match wins."""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import quote

# RFC 9309 lets a crawler stop parsing after 500 KiB; later lines are ignored.
MAX_ROBOTS_BYTES = 500 * 1024

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Characters a path keeps as they are; everything else is percent-encoded before matching,
# so "/caf\u00e9" in robots.txt and "/caf%C3%A9" in a URL compare equal.
_PATH_SAFE = "/?&=;:@!$'()*+,%[]"


@dataclass(frozen=True)
class Rule:
    allow: bool
    pattern: str  # normalised path, may hold "*" wildcards and a final "$" anchor

    def matches(self, path: str) -> bool:
        return compile_pattern(self.pattern).match(path) is not None


@dataclass(frozen=True)
class RobotsRules:
    """What one origin's robots.txt allows; `note` says where the verdict came from."""

    groups: dict[str, tuple[Rule, ...]] = field(default_factory=dict)
    verdict: str = "parsed"  # "parsed", "allow_all" or "disallow_all"
    note: str = ""

    @classmethod
    def allowing_all(cls, note: str) -> RobotsRules:
        return cls(verdict="allow_all", note=note)

    @classmethod
    def disallowing_all(cls, note: str) -> RobotsRules:
        return cls(verdict="disallow_all", note=note)

    def can_fetch(self, user_agent: str, path: str) -> bool:
        """Tell whether `path` (path and query, as sent on the wire) may be fetched."""
        if self.verdict != "parsed":
            return self.verdict == "allow_all"
        path = normalize_path(path or "/")
        if path == "/robots.txt":
            return True
        rules = self.groups.get(product_token(user_agent)) or self.groups.get("*") or ()
        best = pick_rule(rules, path)
        return best is None or best.allow


def pick_rule(rules: tuple[Rule, ...], path: str) -> Rule | None:
    """Return the most specific matching rule; on a tie Allow wins (RFC 9309 section 2.2.2)."""
    best = None
    for rule in rules:
        if rule.matches(path) and (
            best is None or (len(rule.pattern), rule.allow) > (len(best.pattern), best.allow)
        ):
            best = rule
    return best


def product_token(user_agent: str) -> str:
    """Reduce "perfledger/0.1 (+url)" to "perfledger", the name robots.txt groups use."""
    stripped = user_agent.strip().lower()
    if stripped.startswith("*"):
        return "*"
    match = re.match(r"[a-z0-9_\-.]+", stripped)
    return match.group(0) if match else stripped


def parse_robots(text: str) -> RobotsRules:
    """Parse robots.txt text; unknown lines are skipped, as the RFC asks."""
    groups: dict[str, list[Rule]] = {}
    agents: list[str] = []
    in_rules = False
    for key, value in read_records(text):
        if key == "user-agent":
            if in_rules:
                agents, in_rules = [], False
            agent = product_token(value)
            agents.append(agent)
            groups.setdefault(agent, [])
        elif key in ("allow", "disallow") and agents:
            in_rules = True
            # An empty Disallow disallows nothing; an empty Allow adds nothing.
            if value:
                rule = Rule(allow=key == "allow", pattern=normalize_path(value))
                for agent in agents:
                    groups[agent].append(rule)
    return RobotsRules(groups={agent: tuple(rules) for agent, rules in groups.items()})


def read_records(text: str) -> list[tuple[str, str]]:
    """Split robots.txt into (lower-case key, value) pairs, comments removed."""
    records = []
    for raw in text.lstrip("\ufeff").splitlines():
        key, sep, value = raw.split("#", 1)[0].partition(":")
        if sep:
            records.append((key.strip().lower(), value.strip()))
    return records


def normalize_path(path: str) -> str:
    """Percent-encode so that equivalent spellings of one path compare equal."""
    encoded = quote(path, safe=_PATH_SAFE)
    return re.sub(r"%([0-9A-Fa-f]{2})", canonical_escape, encoded)


def canonical_escape(match: re.Match[str]) -> str:
    char = chr(int(match.group(1), 16))
    return char if char in _UNRESERVED else "%" + match.group(1).upper()


@functools.lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> re.Pattern[str]:
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    regex = ".*".join(re.escape(part) for part in body.split("*"))
    return re.compile(regex + (r"\Z" if anchored else ""), re.DOTALL)


class RobotsCache:
    """Rules per origin, loaded at most once even when several threads ask at the same time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._gates: dict[str, threading.Lock] = {}
        self._rules: dict[str, RobotsRules] = {}

    def __reduce__(self):
        # Copies and pickles (dataclasses.asdict, task runners) start empty: locks cannot be
        # copied, and cached rules are only meant to live as long as this object.
        return (RobotsCache, ())

    def get_or_load(self, origin: str, load: Callable[[], RobotsRules]) -> RobotsRules:
        """Return the cached rules, calling `load` once; if it raises, nothing is cached."""
        with self._lock:
            gate = self._gates.setdefault(origin, threading.Lock())
        with gate:
            if origin not in self._rules:
                self._rules[origin] = load()
            return self._rules[origin]

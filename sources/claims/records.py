"""The records a claim is built from, sentence by sentence: the vocabulary's mentions in a
sentence, the numbers that may carry a ratio (both in sources/claims/parts.py) and what the
words around them say, the parties once resolved, a claim before it becomes a row; and a
page's result."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import polars as pl

from perfledger.sources.claims.parts import Anchor, Mention, Mentions, Trigger

if TYPE_CHECKING:  # the discourse module reads these records: imported for annotations only
    from perfledger.sources.claims.discourse import Discourse

WINDOW = 160  # characters searched around a claim for its parts; keeps every lookup bounded
CLAUSE_REACH = WINDOW * 2


@dataclass(frozen=True)
class ClaimResult:
    claims: pl.DataFrame  # validated by ClaimSchema (schemas.claims.validate_claims)
    rejected: pl.DataFrame  # line_number, sentence, check, reason


@dataclass
class Reading:
    """What the words around an anchor say about it."""

    anchor: Anchor
    span_start: int
    span_end: int
    ratio_start: int
    ratio_end: int
    sense: str  # better | worse | up | down | quantity
    grammar: str  # adj | noun | by | noun-of | the | of-what | as
    metric: Mention | None = None
    marker_end: int | None = None  # the reading already holds its baseline marker
    marker_text: str | None = None


@dataclass
class Resolution:
    """A claim's parts once subject, baseline, metric and model are resolved."""

    subject: Mention | None = None
    baseline: Mention | None = None
    baseline_kind: str | None = None
    baseline_count: int | None = None
    metric: str | None = None
    model: str | None = None
    model_known: bool = True  # whether a vocabulary resolved the model
    task: str | None = None
    tags: list[str] = field(default_factory=list)
    penalty: float = 0.0


# A resolved baseline, the marker word that introduced it, and where that marker starts.
Baseline = tuple[Resolution, str | None, int | None]


@dataclass(frozen=True)
class Problem:
    check: str
    reason: str


class SentenceIndex:
    """What a sentence's words alone say, each part located once, when first asked for:
    its vocabulary mentions, clause breaks, numbers, conditions and comparison words. Most
    sentences that pass the cues hold no claim, and are never indexed past their numbers and
    trigger words; and a site's pages repeat their sentences, whose index is kept (see
    `sentence_index`)."""

    def __init__(self, text: str, lex) -> None:
        self.text = text
        self.lex = lex
        # The words that compare without a number, kept by qualitative.extract_qualitative.
        self.triggers: list[Trigger] | None = None

    @cached_property
    def systems(self) -> Mentions:
        return self._mentions(self.lex.system_re, self.lex.system_of)

    @cached_property
    def vendors(self) -> Mentions:
        return self._mentions(self.lex.vendor_re, self.lex.vendor_of)

    @cached_property
    def models(self) -> Mentions:
        return self._mentions(self.lex.model_re, self.lex.model_of)

    @cached_property
    def metrics(self) -> Mentions:
        return self._mentions(self.lex.metric_re, self.lex.metric_of)

    @cached_property
    def priors(self) -> Mentions:
        return Mentions(
            Mention(m.start(), m.end(), "prior_result", m.group(0))
            for m in self.lex.prior_re.finditer(self.text)
        )

    @cached_property
    def breaks(self) -> list[int]:  # clause boundaries (ends of breaker words / punctuation)
        return [m.end() for m in self.lex.breaker_re.finditer(self.text)]

    @cached_property
    def strong_breaks(self) -> list[int]:  # starts of breakers that also end a baseline
        return [m.start() for m in self.lex.strong_re.finditer(self.text)]

    @cached_property
    def anchors(self) -> list[Anchor]:
        from perfledger.sources.claims.anchors import find_anchors

        return find_anchors(self.text, self.lex)

    @cached_property
    def anchor_ends(self) -> list[int]:
        return [a.end for a in self.anchors]

    @cached_property
    def qualifiers(self) -> list[str]:  # context qualifiers, canonical, in order
        from perfledger.sources.claims.qualifiers import find_context_qualifiers

        return find_context_qualifiers(self.text, self.lex)

    @cached_property
    def conditions(self) -> str | None:
        from perfledger.sources.claims.qualifiers import find_conditions

        return find_conditions(self.text, self.lex)

    def _mentions(self, pattern, table) -> Mentions:
        from perfledger.sources.claims.mentions import find_mentions

        return find_mentions(pattern, table, self.text)


def _read_only(name: str) -> property:
    return property(lambda sentence: getattr(sentence.index, name))


class Sentence:
    """A sentence of a page, at its line: its index (see `SentenceIndex`) is its text's, shared
    by every sentence of the same words, so its parts must be read, never changed."""

    def __init__(self, text: str, line_number: int, lex) -> None:
        self.text = text
        self.line_number = line_number
        self.lex = lex
        self.index = sentence_index(text, lex)

    systems = _read_only("systems")
    vendors = _read_only("vendors")
    models = _read_only("models")
    metrics = _read_only("metrics")
    priors = _read_only("priors")
    breaks = _read_only("breaks")
    strong_breaks = _read_only("strong_breaks")
    anchors = _read_only("anchors")
    anchor_ends = _read_only("anchor_ends")
    qualifiers = _read_only("qualifiers")
    conditions = _read_only("conditions")


_INDEXES_KEPT = 8_192  # distinct sentences whose index is kept (a site repeats its prose)
_INDEXES: dict[str, SentenceIndex] = {}


def sentence_index(text: str, lex) -> SentenceIndex:
    """The index of a sentence's words, kept for the process's lexicon."""
    index = _INDEXES.get(text)
    if index is not None and index.lex is lex:
        return index
    index = SentenceIndex(text, lex)
    if len(_INDEXES) >= _INDEXES_KEPT:
        _INDEXES.clear()
    _INDEXES[text] = index
    return index


@dataclass(frozen=True)
class Context:
    """What the page says around a sentence: the current heading's model and task, and the
    page read so far (sources/claims/discourse.py), which claims take parties from."""

    heading_model: str | None = None
    heading_task: str | None = None
    discourse: Discourse | None = field(default=None, compare=False)


@dataclass
class Draft:
    """A claim before it becomes a row."""

    start: int
    end: int
    resolution: Resolution
    form: str
    qualifier: str | None
    ratio: float | None
    ratio_text: str | None
    kind: str | None
    direction: str
    confidence: float

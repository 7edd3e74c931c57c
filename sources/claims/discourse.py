"""What a page has said before a sentence, so that a claim whose words do not name its parties
can take them from where a reader would: the clause before it, the previous sentence of its
paragraph, the paragraphs of its section, the line that leads its list in, the heading above
it, and the page's own topic (its title).

Nothing here runs for a sentence that holds no claim: previous blocks are kept by reference
and read only when a claim asks for a party, so a page of prose without claims costs nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache

from perfledger.schemas.vocabulary import read_vocab
from perfledger.sources.claims.blocks import Block
from perfledger.sources.claims.lexicon import Lexicon, fold
from perfledger.sources.claims.models import PageModels
from perfledger.sources.claims.phrases import (
    Phrase,
    action_object,
    classify,
    low,
    phrase_after,
    phrase_ending,
    phrase_words,
    skip_openers,
    tokens,
)
from perfledger.sources.claims.sentences import split_sentences
from perfledger.sources.claims.short_names import ShortNames

SECTION_REACH = 6  # blocks of the section read back for a party, nearest first
RECENT_BLOCKS = 8  # blocks before a claim whose stated comparisons it may take
LEAD_IN = re.compile(r":[\"'”’)*_]*$")
LEAD_MARKERS = frozenset(
    {"compared to", "compared with", "relative to", "versus the", "over the", "than the"}
)


@dataclass(frozen=True)
class Party:
    """A party taken from the page around a claim, and where it came from."""

    text: str
    source: str  # "clause", "sentence", "section", "lead-in", "heading", "title", "action"
    change: bool = False  # the party is a change the writers made ("This improved ...")


@dataclass
class Discourse:
    """The page read so far: its title, the headings above, the section's blocks."""

    lex: Lexicon
    title: str | None = None
    headings: list[Block] = field(default_factory=list)
    section: list[Block] = field(default_factory=list)  # blocks since the last heading
    lead: Block | None = None  # the paragraph that leads the current list in
    block: Block | None = None
    sentences_so_far: list[str] = field(default_factory=list)  # of the current block
    last_subject: str | None = None
    last_baseline: str | None = None
    block_baseline: str | None = None  # the baseline of the current block's last claim
    read: list[Block] = field(default_factory=list)  # every block before the current one
    models: PageModels = field(default_factory=PageModels)
    counted: int = 0  # how many of `read` `models` has counted
    short_names: ShortNames = field(default_factory=ShortNames)
    named: int = 0  # how many of `read` `short_names` has read

    # --- reading the page in order ------------------------------------------------------

    def enter(self, block: Block) -> None:
        """A new block starts: keep the heading stack, the section and the list's lead-in."""
        previous = self.block
        if previous is not None:
            self.read.append(previous)
        if previous is not None and previous.kind != "heading":
            self.section.append(previous)
        if block.kind == "heading":
            level = block.level or 7
            self.headings = [h for h in self.headings if (h.level or 7) < level] + [block]
            self.section, self.lead = [], None
            self.last_subject = self.last_baseline = None
        elif (
            previous is not None
            and previous.kind != "heading"
            and LEAD_IN.search(previous.text)
            and gap(previous, block) <= 2
        ):
            self.lead = previous  # the first item of the list it leads in
        elif self.lead is not None and previous is not None and continues_list(previous, block):
            pass
        else:
            self.lead = None
        self.block = block
        self.sentences_so_far = []
        self.block_baseline = None

    # --- parties from context ---------------------------------------------------------------

    def subject_for(self, phrase: Phrase | None, sentence: str, start: int) -> Party | None:
        """The party a claim's subject phrase refers to, or the one its context names when
        the clause names none."""
        kind = phrase.kind if phrase is not None else "none"
        if kind == "first_person":
            # "we reduce the AllReduce time by 4x": the writers' own work, a change to it
            topic = self.topic_party()
            return Party(topic.text, topic.source, True) if topic else None
        if kind in ("pronoun", "generic"):
            demonstrative = phrase is not None and low_first(phrase.text) in (
                "this",
                "these",
                "that",
                "those",
                "such",
            )
            party = (
                self.earlier_clause(sentence, start)
                or (self.action() if demonstrative else None)
                or self.previous_subject()
            )
            if party is not None:
                # "This improved ...": what "this" stands for is a change
                return Party(party.text, party.source, demonstrative)
            return self.from_lead_in() or self.from_heading() or self.topic_party()
        if kind == "none":
            return (
                self.earlier_clause(sentence, start)
                or self.from_lead_in()
                or self.from_heading()
                or self.topic_party()
            )
        return None

    def earlier_clause(self, sentence: str, start: int) -> Party | None:
        """The subject of the sentence's own first clause ("X redefines ...: it delivers")."""
        phrase = main_subject(sentence[:start], self.lex)
        if phrase is not None and phrase.kind == "name" and phrase.end < start:
            return Party(phrase.text, "clause")
        return None

    def previous_sentences(self) -> list[str]:
        """Sentences before the current one, nearest first: its block's, then the section's.
        A news item speaks of its own release: the items before it say nothing of it."""
        if self.in_news():
            return []
        found: list[str] = []
        for block in reversed(self.section[-SECTION_REACH:]):
            found += reversed(sentences_of(block))
        return found

    def in_news(self) -> bool:
        """Whether a heading above names a list of news ("Latest News 🎉", "Unsloth News")."""
        return any(news_heading(heading.text) for heading in self.headings)

    def full_name(self, short: str) -> str | None:
        """The full name the page gave a short one: the long form of an abbreviation it
        defined, or the configuration a precision named alone stands for."""
        self.short_names.add((block.text for block in self.read[self.named :]), self.lex)
        self.named = len(self.read)
        return self.short_names.expand(short)

    def page_models(self) -> PageModels:
        """The models the page named before the current block, counted on demand."""
        self.models.add((block.text for block in self.read[self.counted :]), self.lex)
        self.counted = len(self.read)
        return self.models

    def action(self) -> Party | None:
        """The last change the writers describe before a "This improved ..."."""
        for sentence in self.current_before() + self.previous_sentences():
            phrase = action_object(sentence, self.lex)
            if phrase is not None:
                return Party(phrase.text, "action", True)
        return None

    def previous_subject(self) -> Party | None:
        for sentence in self.current_before() + self.previous_sentences():
            phrase = main_subject(sentence, self.lex)
            if phrase is not None and phrase.kind == "name":
                return Party(phrase.text, "sentence")
        if self.last_subject:
            return Party(self.last_subject, "section")
        return None

    def current_before(self) -> list[str]:
        return list(reversed(self.sentences_so_far))

    def from_lead_in(self) -> Party | None:
        if self.lead is None:
            return None
        phrase = main_subject(sentences_of(self.lead)[0], self.lex)
        if phrase is None or phrase.kind != "name":
            phrase = named_in(self.lead.text, self.lex)
        return Party(phrase.text, "lead-in") if phrase is not None else None

    def lead_baseline(self) -> str | None:
        """What the list's lead-in compares with ("Compared to other RLHF systems like
        Colossal-AI, DeepSpeed-RLHF excels ...:")."""
        if self.lead is None:
            return None
        text = sentences_of(self.lead)[0]
        found = tokens(text)
        for index, token in enumerate(found[:-1]):
            pair = f"{low(token)} {low(found[index + 1])}"
            if pair in LEAD_MARKERS:
                phrase = phrase_after(text, found[index + 1].end(), self.lex)
                if phrase is not None and phrase.kind == "name":
                    return phrase.text
        return None

    def comparisons(self, sentence: str) -> list[tuple[str, str]]:
        """Comparisons the page states around a claim, nearest first: in its own sentence
        ("0.92s wake vs 3.72s cold start"), the headings above it ("Level 2 is Still Faster
        Than No Sleep Mode", "BF16 vs FP8") and the blocks just before it ("wake mode vs cold
        start")."""
        texts = [sentence] + [h.text for h in reversed(self.headings)]
        texts += [b.text for b in reversed(self.read[-RECENT_BLOCKS:]) if b.kind != "heading"]
        found = []
        for text in texts:
            found += stated_pairs(text, self.lex)
        return found

    def from_heading(self) -> Party | None:
        for heading in reversed(self.headings):
            if (heading.level or 7) <= 1:
                continue
            phrase = heading_name(heading.text, self.lex)
            if phrase is not None:
                return Party(phrase.text, "heading")
        return None

    def topic_party(self) -> Party | None:
        # a page about what it does "with vLLM Sleep Mode" is about a change to something
        return Party(self.topic, "title", self.topic_read[1]) if self.topic else None

    @cached_property
    def topic_read(self) -> tuple[str | None, bool]:
        return read_title(self.title, self.lex) if self.title else (None, False)

    @property
    def topic(self) -> str | None:
        return self.topic_read[0]


def gap(previous: Block, block: Block) -> int:
    return block.line_number - previous.lines[-1][1]


def continues_list(previous: Block, block: Block) -> bool:
    """A list goes on with its next item: marked as one, or (where the layout kept no list
    marks) a paragraph on the very next line."""
    if block.kind == "item":
        return True
    return previous.kind != "item" and block.kind == "paragraph" and gap(previous, block) == 1


PAIR_MARKER = re.compile(
    r"(?<!\w)(?:vs\.?|versus|than|compared\s(?:to|with)|relative\sto)(?!\w)", re.IGNORECASE
)


def stated_pairs(text: str, lex: Lexicon) -> list[tuple[str, str]]:
    """(one side, the other) of each "X vs Y", "X is faster than Y" a text states, both sides
    named by phrases."""
    pairs = []
    bare = HEADING_PREFIX.sub("", text)
    for match in PAIR_MARKER.finditer(bare):
        right = phrase_after(bare, match.end(), lex)
        found = tokens(bare, 0, match.start())
        left = phrase_ending(bare, found, 0, len(found), lex) if found else None
        if left is not None and left.kind == "name" and lex.comparative_re.search(left.text):
            left = main_subject(bare[: match.start()], lex)  # "Level 2 is Still Faster Than"
        if left is not None and right is not None and left.kind == right.kind == "name":
            pairs.append((left.text, right.text))
    return pairs


def low_first(text: str) -> str:
    return fold(text.split()[0]) if text.split() else ""


@lru_cache(maxsize=256)
def news_heading(text: str) -> bool:
    words = NON_WORD_ENDS.sub("", text.casefold())
    return news_pattern().search(words) is not None


@cache
def news_pattern() -> re.Pattern[str]:
    table = read_vocab("news_headings.csv")
    words = "|".join(f"(?:{pattern})" for pattern in table["pattern"].to_list())
    return re.compile(rf"(?:^|\s)(?:{words})$")


NON_WORD_ENDS = re.compile(r"^\W+|\W+$")


def sentences_of(block: Block) -> list[str]:
    return split_sentences(block.text)


def main_subject(sentence: str, lex: Lexicon) -> Phrase | None:
    """The subject of a sentence's first clause: the words before its first verb."""
    words = phrase_words()
    found = tokens(sentence)
    begin = skip_openers(found, 0, len(found))
    for position in range(begin, min(len(found), begin + 14)):
        word = low(found[position])
        if found[position].group(0) in ";:,(":
            return None
        if word in words.predicates:
            last = position
            while last > begin and low(found[last - 1]) in words.adverbs:
                last -= 1
            return classify(sentence, found[begin:last], lex)
    return None


def named_in(text: str, lex: Lexicon) -> Phrase | None:
    """The first name a lead-in gives ("For new projects, use Inf2, Trn1 ... for:")."""
    for token in tokens(text):
        if low(token) in ("use", "choose", "with", "to"):
            phrase = phrase_after(text, token.end(), lex)
            if phrase is not None and phrase.kind == "name":
                return phrase
    return None


HEADING_PREFIX = re.compile(r"^(?:about|why|how|introducing|meet|inside|on)\s+", re.IGNORECASE)


def heading_name(text: str, lex: Lexicon) -> Phrase | None:
    """The product a heading is about ("About Nemotron 3 Super")."""
    match = HEADING_PREFIX.match(text)
    if match is None:
        return None
    words = phrase_words()
    found = tokens(text, match.end())
    # Title Case hides the verb ("Why Sleep Mode Improves Inference Speed"): cut at it
    for index, token in enumerate(found):
        if index and (low(token) in words.predicates or low(token) in words.cuts):
            found = found[:index]
            break
    phrase = classify(text, found, lex)
    return phrase if phrase is not None and phrase.kind == "name" else None


TITLE_SEPARATOR = re.compile(r"\s*[:|–—]\s+")
TITLE_INSTRUMENT = re.compile(r"(?<!\w)(?:with|using|via)\s+", re.IGNORECASE)
TITLE_VERB = re.compile(
    r"^(?:optimi[sz]ing|optimi[sz]e|accelerating|accelerate|enabling|enable|introducing|"
    r"introduce|scaling|scale|boosting|boost|running|run|serving|serve|speeding up|"
    r"deploying|deploy|benchmarking|evaluating)\s+",
    re.IGNORECASE,
)
# A title opening with a gerund ("Announcing X", "Diving into X"), a question word ("How X
# Boosts Y") or a place ("Inside X") is about what follows it; a subtitle so opened ("...:
# Pushing the Pareto Frontier") says what the page's system does
TITLE_OPENER = re.compile(
    r"^(?:(?-i:[A-Z][a-z]{2,}ing)(?:\s+(?:into|in|on|up|down|through))?|how|why|what|when|"
    r"inside|behind)\s+",
    re.IGNORECASE,
)
TITLE_OF = re.compile(
    r"(?<!\w)(?:study|analysis|evaluation|review|tour|look)\s+of\s+", re.IGNORECASE
)


def title_topic(title: str, lex: Lexicon) -> str | None:
    return read_title(title, lex)[0]


def read_title(title: str, lex: Lexicon) -> tuple[str | None, bool]:
    """The system a page is about, as its title names it: a short name before a colon
    ("DeepSpeed Chat: ..."), what it works "with"/"using" ("... with vLLM Sleep Mode"), the
    object of its verb ("Optimizing vLLM on Arm CPUs"), what it studies ("Study of X"); and
    whether the title names it as what something is done with (a change made)."""
    parts = TITLE_SEPARATOR.split(title.strip(), maxsplit=1)
    head = parts[0]
    if opener := TITLE_OPENER.match(head):
        head = head[opener.end() :]
        parts[0] = head
    # a short head names the system ("DeepSpeed Chat: ..."), as does any head whose subtitle
    # says what it does ("Shared Memory IPC Caching: Accelerating Data Transfer ...")
    opens_adverbial = fold(head.split()[0]) in phrase_words().openers if head.split() else True
    if (
        len(parts) == 2
        and not TITLE_VERB.match(head)
        and (
            len(head.split()) <= 3
            or not opens_adverbial
            and (TITLE_VERB.match(parts[1]) or TITLE_OPENER.match(parts[1]))
        )
    ):
        phrase = classify(head, tokens(head), lex)
        if phrase is not None and phrase.kind == "name":
            return phrase.text, False
    for part in parts:
        for pattern in (TITLE_INSTRUMENT, TITLE_VERB, TITLE_OF):
            match = pattern.search(part) if pattern is not TITLE_VERB else pattern.match(part)
            if match:
                phrase = phrase_after(part, match.end(), lex)
                if phrase is not None and phrase.kind == "name":
                    return phrase.text, pattern is TITLE_INSTRUMENT
    phrase = phrase_after(head, 0, lex)
    return (phrase.text if phrase is not None and phrase.kind == "name" else None), False

"""The noun phrases that name a claim's parties when no vocabulary does: the grammatical
subject of the claim's clause ("the Triton attention backend achieved ..."), the phrase after a
baseline marker ("... than HuggingFace Transformers"), the instrument of a first-person claim
("With tuning, we achieved ..."), the object of an action ("we enabled mimalloc ...").

A phrase is read by shallow grammar, with the word lists of `[phrases]` in
schemas/vocab/claim_words.toml: clause boundaries, leading adverbials ("In our experiments,"),
the first verb of the clause, and the words that end a phrase ("with", "that", "for"...). What
it finds is then told apart: a name (kept verbatim when no vocabulary knows it), a pronoun or a
generic noun ("it", "this approach") that refers to a party named before, the writers
themselves ("we", "our"), a metric, or nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache

from perfledger.schemas.claims import load_claim_vocab
from perfledger.schemas.platform_mentions import find_mentions as find_platforms
from perfledger.sources.claims.lexicon import Lexicon, fold

MAX_PHRASE_WORDS = 9
TOKEN = re.compile(r"[A-Za-z0-9~][\w.+/’'~-]*[\w+]|[A-Za-z0-9]|[^\w\s]")
HARD_BOUNDARY = frozenset(";:—–•→|")
SOFT_BOUNDARY = frozenset(",")
OPENING = frozenset("([{")
CLOSING = frozenset(")]}")
QUOTES = "\"'“”‘’*"
# A token that names something: a capital after its first letter, or digits and letters
# ("vLLM", "H100", "LoRA", "W8A8", "70B"); a capitalised word names something unless it is a
# common word that only opens a sentence ("Results", "Both").
MARKED_NAME = re.compile(r".[^\s]*[A-Z]|[A-Za-z]\d|\d[A-Za-z]")
VERSION = re.compile(r"v?\d+(?:\.\d+){1,3}[A-Za-z0-9]*|v\d+[A-Za-z0-9]*")


@dataclass(frozen=True)
class Phrase:
    """Words of a sentence that name (or refer to) a party."""

    start: int
    end: int
    text: str
    kind: str  # "name" | "pronoun" | "first_person" | "person" | "generic" | "metric"
    change: bool = False  # a thing changed ("These changes made paged attention 4x faster")


@dataclass(frozen=True)
class Words:
    predicates: frozenset[str]
    adverbs: frozenset[str]
    openers: frozenset[str]
    participles: frozenset[str]
    cuts: frozenset[str]
    pronouns: frozenset[str]
    first_person: frozenset[str]
    persons: frozenset[str]
    generic_heads: frozenset[str]
    report_heads: frozenset[str]
    change_heads: frozenset[str]
    instrument_openers: frozenset[str]
    instrument_verbs: frozenset[str]
    action_verbs: frozenset[str]
    determiners: frozenset[str]
    qualifiers: frozenset[str]


@cache
def phrase_words() -> Words:
    vocab = load_claim_vocab()
    table = vocab["phrases"]
    qualifier_words = {
        word for phrase in vocab["qualifiers"]["prefix"] for word in fold(phrase).split()
    }
    return Words(
        **{
            name: frozenset(fold(word) for word in table[name])
            for name in (
                "predicates",
                "adverbs",
                "openers",
                "participles",
                "cuts",
                "pronouns",
                "first_person",
                "persons",
                "generic_heads",
                "report_heads",
                "change_heads",
                "instrument_openers",
                "instrument_verbs",
                "action_verbs",
            )
        },
        determiners=frozenset(
            {
                "the",
                "a",
                "an",
                "our",
                "their",
                "its",
                "his",
                "her",
                "your",
                "my",
                "all",
                "each",
                "every",
                "any",
                "some",
                "same",
            }
        ),
        qualifiers=frozenset(qualifier_words | {"a", "an", "the", "of", "by", "to"}),
    )


def name_like(word: str) -> bool:
    if MARKED_NAME.search(word):
        return True
    if not word[:1].isupper():
        return False
    return fold(word) not in common_words()


@cache
def common_words() -> frozenset[str]:
    words = phrase_words()
    return frozenset().union(
        words.predicates,
        words.adverbs,
        words.openers,
        words.participles,
        words.cuts,
        words.pronouns,
        words.first_person,
        words.persons,
        words.generic_heads,
        words.determiners,
        {"and", "or", "but", "so", "not", "no", "result", "note", "see"},
    )


def tokens(text: str, start: int = 0, end: int | None = None) -> list[re.Match[str]]:
    return list(TOKEN.finditer(text, start, len(text) if end is None else end))


def low(token: re.Match[str]) -> str:
    return token.group(0).casefold()


# --- subjects ---------------------------------------------------------------------------------


def clause_subject(text: str, end: int, lex: Lexicon) -> Phrase | None:
    """The subject of the clause a claim starting at `end` belongs to: the phrase before the
    verb right before the claim ("In our experiments, vLLM achieves up to 24x"), else before
    the clause's first verb; for a claim in brackets, the clause outside them; after
    ", achieving" the clause before the comma; the thing "made N x faster"; the phrase that
    "has" the ratio ("X with up to 4x higher throughput")."""
    words = phrase_words()
    found = tokens(text, 0, end)
    inside = open_bracket(found)
    if inside is not None:  # "Level 1 is fastest (68% faster than no sleep)"
        return clause_subject(text, found[inside].start(), lex)
    stop = len(found)
    begin = skip_openers(found, segment_start(found, stop), stop)
    if starts_with_verb(text, end):  # "This improved X by 2.3x", "... that X improves ... by"
        if stop > begin and low(found[stop - 1]) in ("and", "or"):
            # "AllGather uses the SP group and improves throughput by": the verbs share one
            first = next((p for p in range(begin, stop - 1) if is_predicate(found, p)), None)
            return phrase_ending(text, found, begin, first, lex) if first is not None else None
        return phrase_ending(text, found, begin, before_infinitive(found, begin, stop), lex)
    index = stop - 1
    while index >= begin and low(found[index]) in words.qualifiers:
        index -= 1
    if index < begin:
        return None
    word = low(found[index])
    if word in words.participles and index > 0 and found[index - 1].group(0) in SOFT_BOUNDARY:
        # ", achieving 58-203x speedup": the clause before the comma says who achieves it
        return clause_subject(text, found[index - 1].start(), lex)
    if is_predicate(found, index, claim_next=True):
        last = index
        while last > begin and (
            is_predicate(found, last - 1) or low(found[last - 1]) in words.adverbs
        ):
            last -= 1
        return phrase_ending(text, found, begin, before_infinitive(found, begin, last), lex)
    if word == "with":  # "... vLLM performance on Blackwell with up to 4x higher throughput"
        phrase = phrase_ending(text, found, begin, index, lex)
        verb = next((p for p in range(begin, index) if is_predicate(found, p)), None)
        if phrase is not None and verb is not None and found[verb].end() <= phrase.start:
            # "INT8 W4A8 delivers the best results with up to 6.2x": the verb's subject
            return phrase_ending(text, found, begin, verb, lex)
        if phrase is not None and phrase.kind == "name":
            return phrase
    made = causative(found, begin, index + 1)
    if made is not None:  # "These changes made paged attention up to 4x faster"
        phrase = classify(text, found[made : index + 1], lex)
        causer = classify(text, found[begin : made - 1], lex)
        if (
            phrase is not None
            and causer is not None
            and causer.kind in ("pronoun", "generic", "first_person")
        ):
            phrase = replace(phrase, change=True)
        return phrase
    for position in range(begin, stop):
        if is_predicate(found, position):
            if (
                position + 2 < stop
                and low(found[position + 1]) == "that"
                and names_system(text, found[position + 2].start(), lex)
            ):
                # "we saw that Gaudi2 performs ... 2.2x faster": the system seen holds the
                # claim ("we see that a financial MCMC workload trains ...": the writers' run)
                begin = position + 2
                continue
            # the subject ends at the first verb; adverbs before it are no part of it
            last = position
            while last > begin and low(found[last - 1]) in words.adverbs:
                last -= 1
            return phrase_ending(text, found, begin, last, lex)
    if name_like(found[index].group(0)):
        # no verb before the claim: the name right before it holds it ("TQ overhead ranges
        # from 10% to 68%")
        return phrase_ending(text, found, begin, index + 1, lex)
    return None


def names_system(text: str, start: int, lex: Lexicon) -> bool:
    """Whether a system or chip is named at `start` ("Gaudi2 performs ...")."""
    if lex.system_re.match(text, start) is not None:
        return True
    named = find_platforms(text[start : start + 40])
    return bool(named) and named[0].start == 0 and named[0].accelerator is not None


def before_infinitive(found: list[re.Match[str]], begin: int, last: int) -> int:
    """ "Gaudi 3 is projected to deliver", "X is expected to reach": the subject stands before
    the verb that takes the infinitive."""
    if last - 1 <= begin or low(found[last - 1]) != "to":
        return last
    for index in range(last - 2, max(begin, last - 5) - 1, -1):
        if is_predicate(found, index):
            while index > begin and (
                is_predicate(found, index - 1) or low(found[index - 1]) in phrase_words().adverbs
            ):
                index -= 1
            return index
        if not found[index].group(0).isalpha() or not found[index].group(0).islower():
            break
    return last


# "adding the support for X", "the use of X": what was added is X
SUPPORT_WORDS = frozenset(
    {
        "support",
        "use",
        "usage",
        "addition",
        "integration",
        "adoption",
        "implementation",
        "introduction",
    }
)
CLAUSE_WORDS = frozenset(
    {
        "that",
        "which",
        "who",
        "while",
        "whereas",
        "but",
        "although",
        "though",
        "because",
        "since",
        "so",
        "whilst",
    }
)


def matching_open(found: list[re.Match[str]], closing: int, begin: int) -> int | None:
    depth = 0
    for index in range(closing, begin - 1, -1):
        raw = found[index].group(0)
        if raw in CLOSING:
            depth += 1
        elif raw in OPENING:
            depth -= 1
            if depth == 0:
                return index
    return None


def starts_with_verb(text: str, position: int) -> bool:
    """Whether a claim's words open with a verb ("improved ... by 2.3x")."""
    match = TOKEN.match(text, position)
    if match is None:
        return False
    word = fold(match.group(0))
    return word in phrase_words().predicates or word in verb_words()


@cache
def verb_words() -> frozenset[str]:
    vocab = load_claim_vocab()
    return frozenset(
        fold(word)
        for words in vocab["directions"]["verb"].values()
        for word in words
        if " " not in word
    )


CAUSATIVES = frozenset({"made", "makes", "make", "making", "render", "renders", "rendered"})


def causative(found: list[re.Match[str]], begin: int, stop: int) -> int | None:
    """Start of X in "made X N x faster": the object a causative verb makes better."""
    for index in range(stop - 2, max(begin, stop - 8) - 1, -1):
        if low(found[index]) in CAUSATIVES:
            return index + 1 if index + 1 < stop else None
    return None


def is_predicate(found: list[re.Match[str]], index: int, claim_next: bool = False) -> bool:
    """A verb of the vocabulary, or a lower-case word in -s or -ed that stands between a name
    and what it does ("vLLM redefines the ...", "FP8 dominates with ...", "the DMA gained up
    to 32% more")."""
    words = phrase_words()
    word = low(found[index])
    if word in words.predicates:
        return True
    raw = found[index].group(0)
    if not (
        raw.islower()
        and raw.isalpha()
        and len(raw) > 4
        and (
            raw.endswith("s")
            and not raw.endswith(("ss", "us", "is", "ous", "ics"))
            or raw.endswith("ed")
            and not raw.endswith("eed")
        )
    ):
        return False
    if word in common_words():
        return False
    before = found[index - 1].group(0) if index else ""
    after = low(found[index + 1]) if index + 1 < len(found) else ""
    # the claim's own number follows the last word before it
    following = found[index + 1].group(0) if index + 1 < len(found) else ("0" if claim_next else "")
    return name_like(before) and (
        after in words.determiners
        or after in MORPH_NEXT
        or name_like(following)
        or following[:1].isdigit()
    )


MORPH_NEXT = frozenset(
    {
        "that",
        "this",
        "these",
        "those",
        "with",
        "up",
        "to",
        "from",
        "in",
        "at",
        "on",
        "by",
        "over",
        "across",
        "for",
    }
)


def phrase_ending(
    text: str, found: list[re.Match[str]], begin: int, last: int, lex: Lexicon
) -> Phrase | None:
    """The noun phrase that ends right before token `last`: back to the clause's start, a
    comma, a verb or a "that"; "X with Y" names X."""
    words = phrase_words()
    while last > begin and low(found[last - 1]) in words.adverbs:
        last -= 1  # "torch.compile significantly enhances": the adverb is no part of it
    start = last
    while start > begin:
        token = found[start - 1]
        raw, word = token.group(0), low(token)
        if raw in CLOSING and start - 1 > begin:
            # "TurboQuant (TQ) adds": an abbreviation in brackets belongs to the name
            opening = matching_open(found, start - 1, begin)
            if opening is not None and opening > begin:
                start = opening
                continue
        gerund = word in words.participles and start - 1 <= begin + 1
        if (
            raw in SOFT_BOUNDARY
            or raw in HARD_BOUNDARY
            or raw in OPENING
            or raw in CLOSING
            or not_phrase(token)
            or is_predicate(found, start - 1)
            or (word in words.participles and not gerund)
            or word in CLAUSE_WORDS
        ):
            break
        start -= 1
    run = [t for t in found[start:last]]
    for index, token in enumerate(run):
        if index and low(token) in words.cuts and low(token) not in ("and", "or"):
            run = run[:index]
            break
    return classify(text, run, lex)


# Words that qualify a metric without naming a party ("the total time taken", "first
# inference", "P99 TTFT").
METRIC_MODIFIERS = frozenset(
    {
        "first",
        "total",
        "overall",
        "average",
        "avg",
        "mean",
        "median",
        "p50",
        "p90",
        "p95",
        "p99",
        "end-to-end",
        "e2e",
        "per-token",
        "initial",
        "final",
        "effective",
        "measured",
        "taken",
        "observed",
        "burst",
        "offline",
        "online",
        "serving",
        "peak",
        "raw",
        "absolute",
        "relative",
        "inference",
        "training",
        "generation",
        "decode",
        "prefill",
        "time",
        "times",
        "speed",
        "tail",
    }
)
QUESTION_WORDS = frozenset({"what", "how", "why", "where", "whether", "who", "whom", "when"})


def not_phrase(token: re.Match[str]) -> bool:
    """A token no subject phrase holds: punctuation other than a hyphen, a question word."""
    raw = token.group(0)
    return (not raw[:1].isalnum() and raw not in QUOTES) or fold(raw) in QUESTION_WORDS


def open_bracket(found: list[re.Match[str]]) -> int | None:
    depth = 0
    for index in range(len(found) - 1, -1, -1):
        token = found[index].group(0)
        if token in CLOSING:
            depth += 1
        elif token in OPENING:
            if depth == 0:
                return index
            depth -= 1
    return None


def segment_start(found: list[re.Match[str]], stop: int) -> int:
    """Index of the first token after the last clause boundary before `stop`: a semicolon,
    colon or dash, or a word that opens a clause of its own (", while TQ variants are")."""
    for index in range(stop - 1, -1, -1):
        if found[index].group(0) in HARD_BOUNDARY or (
            low(found[index]) in CLAUSE_WORDS - {"that", "which", "who", "so"}
            and index
            and found[index - 1].group(0) == ","
        ):
            return index + 1
    return 0


def skip_openers(found: list[re.Match[str]], begin: int, stop: int) -> int:
    """Skip clause-initial adverbials ending in a comma ("In our experiments, ")."""
    words = phrase_words()
    while begin < stop:
        first = low(found[begin])
        two = f"{first} {low(found[begin + 1])}" if begin + 1 < stop else first
        if (
            first not in words.openers
            and two not in words.openers
            and first not in ("and", "but", "so", "then", "yet")
        ):
            return begin
        if first in ("and", "but", "so", "then", "yet"):
            begin += 1
            continue
        comma = next(
            (i for i in range(begin + 1, min(stop, begin + 16)) if found[i].group(0) == ","), None
        )
        if comma is None:
            # "By using FarSkip-Collective we accelerate ...": no comma, the clause's own
            # subject, the writers, ends the adverbial
            return next(
                (
                    i
                    for i in range(begin + 2, min(stop, begin + 16))
                    if low(found[i]) in words.first_person
                ),
                begin,
            )
        begin = comma + 1
    return begin


def phrase_before(text: str, found: list[re.Match[str]], index: int, lex: Lexicon) -> Phrase | None:
    """The noun phrase right before token `index`, back to a boundary or a verb."""
    words = phrase_words()
    begin = index
    while begin > 0:
        token = found[begin - 1]
        word = low(token)
        if (
            token.group(0) in HARD_BOUNDARY
            or token.group(0) in SOFT_BOUNDARY
            or word in words.predicates
            or word in words.participles
            or token.group(0) in OPENING
            or token.group(0) in CLOSING
        ):
            break
        begin -= 1
    return classify(text, found[begin:index], lex)


# --- baselines --------------------------------------------------------------------------------


def phrase_after(text: str, start: int, lex: Lexicon, limit: int | None = None) -> Phrase | None:
    """The noun phrase a baseline marker introduces ("than HuggingFace Transformers, ...")."""
    words = phrase_words()
    end = len(text) if limit is None else limit
    found = tokens(text, start, min(end, start + 200))
    kept: list[re.Match[str]] = []
    for index, token in enumerate(found):
        word = low(token)
        raw = token.group(0)
        if (
            raw in HARD_BOUNDARY
            or raw in SOFT_BOUNDARY
            or raw in OPENING
            or raw in CLOSING
            or raw == "."
        ):
            break
        if word in ("and", "or") and kept:
            ahead = found[index + 1 : index + 4]
            if any(t.group(0)[:1].isdigit() or low(t) in words.qualifiers for t in ahead):
                break
            if kept and not any(name_like(t.group(0)) for t in ahead):
                break
        elif word == "on" and kept:
            following = found[index + 1 : index + 3]
            named = [t for t in following if low(t) not in words.determiners]
            if not named or not name_like(named[0].group(0)):
                break
        elif word in words.cuts and kept or word in words.predicates and kept:
            break
        kept.append(token)
        if len(kept) >= MAX_PHRASE_WORDS:
            break
    return classify(text, kept, lex)


# --- instruments and actions ------------------------------------------------------------------


def instrument(text: str, end: int, lex: Lexicon, trailing: bool = True) -> Phrase | None:
    """X of "With X, we ...", "By adding X, we ...", "After applying X, we ...", or of
    "... using X" after the claim: what a first-person claim credits."""
    words = phrase_words()
    found = tokens(text)
    if not found:
        return None
    # "Further, by integrating X we ...": an adverb of its own before the instrument
    start = (
        2 if len(found) > 2 and found[1].group(0) == "," and low(found[0]) in words.adverbs else 0
    )
    first = low(found[start])
    if first in words.instrument_openers:
        begin = start + 1
        if (
            begin + 1 < len(found)
            and low(found[begin]) in words.instrument_verbs
            and found[begin + 1].group(0) != ","
        ):
            begin += 1  # "By adding X," names X; "With tuning," names tuning
        comma = next(
            (i for i in range(begin, min(len(found), begin + 14)) if found[i].group(0) == ","), None
        )
        if comma is None:  # "By using X we accelerate ...": X ends where the writers begin
            comma = next(
                (
                    i
                    for i in range(begin + 1, min(len(found), begin + 14))
                    if low(found[i]) in words.first_person
                ),
                None,
            )
        if comma is not None and found[comma].start() < end:
            phrase = classify(text, found[begin:comma], lex)
            if phrase is not None and phrase.kind in ("name", "pronoun", "generic"):
                return phrase
    for token in found:
        if not trailing or token.start() < end or low(token) not in ("using", "with"):
            continue
        phrase = phrase_after(text, token.end(), lex)
        if phrase is not None and any(name_like(word) for word in phrase.text.split()):
            return phrase
        return None
    return None


def action_object(text: str, lex: Lexicon) -> Phrase | None:
    """The last thing a sentence says the writers did: X of "we enabled X", "by building X"."""
    words = phrase_words()
    found = tokens(text)
    for index, token in enumerate(found[:-1]):
        if low(token) not in words.action_verbs:
            continue
        before = low(found[index - 1]) if index else ""
        two_before = low(found[index - 2]) if index > 1 else ""
        acted = (
            before in words.first_person
            or before == "by"
            or (before in words.adverbs and two_before in words.first_person)
            or (before == "to" and any(low(t) in words.first_person for t in found[:index]))
        )
        if not acted:
            continue
        phrase = phrase_after(text, token.end(), lex)
        if phrase is not None and fold(phrase.text) in SUPPORT_WORDS:
            # "adding the support for the all_gather_into_tensor": what the support is for
            follow = re.compile(r"\s{1,3}(?:for|of)\s{1,3}").match(text, phrase.end)
            inner = phrase_after(text, follow.end(), lex) if follow else None
            phrase = inner if inner is not None and inner.kind == "name" else phrase
        if phrase is not None and phrase.kind == "name":
            return phrase  # "utilize X to accelerate Y": the first thing done is the change
    return None


# --- telling phrases apart --------------------------------------------------------------------


def classify(text: str, found: list[re.Match[str]], lex: Lexicon) -> Phrase | None:
    """What a run of tokens names, once determiners, quotes and metric words are trimmed."""
    words = phrase_words()
    found = [t for t in found if t.group(0) not in QUOTES]
    while found and (low(found[0]) in CONJUNCTIONS or low(found[0]) in words.adverbs):
        found = found[1:]  # ", and this in turn increased", "Altogether this can reduce"
    if not any(re.search("[A-Za-z]", t.group(0)) for t in found):
        return None  # "~11900": a number is no party
    head = low(found[0])
    if head in ("there", "here") or HARDWARE_COUNT.match(head):
        return None  # "4xH100", "2 GPUs instead of 1": how many chips ran, not a party
    if (
        head in words.first_person
        and (len(found) == 1 or not any(name_like(t.group(0)) for t in found[1:]))
        and not (
            head in ("our", "ours")
            and len(found) > 1
            and not all(
                is_metric(t, lex) or low(t) in words.generic_heads or low(t) in METRIC_MODIFIERS
                for t in found[1:]
            )
        )
    ):
        return Phrase(found[0].start(), found[-1].end(), found[0].group(0), "first_person")
    if head in ("our", "ours", "their", "your") and len(found) > 1:
        found = found[1:]  # "our optimized BF16 baseline": a determiner
    if head in words.persons:
        return Phrase(found[0].start(), found[-1].end(), found[0].group(0), "person")
    if head in words.pronouns and (
        len(found) == 1
        or all(
            low(t) in words.generic_heads or low(t) in words.adverbs or not name_like(t.group(0))
            for t in found[1:]
        )
    ):
        return Phrase(found[0].start(), found[-1].end(), text_of(text, found), "pronoun")
    while found and (low(found[0]) in words.determiners or low(found[0]) in words.pronouns):
        found = found[1:]
    if not found or HARDWARE_COUNT.match(low(found[0])):
        return None
    whole = text_of(text, found)
    metric = lex.metric_re.search(whole)
    if metric is not None and metric.end() == len(whole):
        rest = fold(whole[: metric.start()] + " " + whole[metric.end() :]).split()
        if all(word in METRIC_MODIFIERS or word in words.generic_heads for word in rest):
            # "First inference", "the total time taken": a metric, not a party
            return Phrase(found[0].start(), found[-1].end(), whole, "metric")
    found = trim_metrics(text, found, lex)
    if not any(re.search("[A-Za-z]", t.group(0)) for t in found):
        return None  # "100% Accuracy": a number of a metric
    if len(found) > MAX_PHRASE_WORDS:
        return None
    if not any(name_like(t.group(0)) for t in found):
        if all(low(t) in words.generic_heads or is_metric(t, lex) for t in found):
            return Phrase(found[0].start(), found[-1].end(), text_of(text, found), "generic")
        if all(is_metric(t, lex) or low(t) in words.adverbs for t in found):
            return Phrase(found[0].start(), found[-1].end(), text_of(text, found), "metric")
        if low(found[-1]) in words.report_heads:
            # "benchmarking results", "current results": what reports a claim is no party
            return Phrase(found[0].start(), found[-1].end(), text_of(text, found), "generic")
    # Leading lower-case adjectives before a name ("outstanding vLLM") describe it; a word
    # that names something itself ("torch.compile on AMD GPUs") is the phrase's head.
    first_name = (
        next(i for i, t in enumerate(found) if name_like(t.group(0)))
        if any(name_like(t.group(0)) for t in found)
        else 0
    )
    if first_name and all(
        t.group(0).isalpha()
        and t.group(0).islower()
        and low(t) not in words.cuts
        and low(t) != "on"
        for t in found[:first_name]
    ):
        found = found[first_name:]
        if HARDWARE_COUNT.match(low(found[0])):
            return None  # "the linear 2x we would expect": a number, not a party
    # "GB300's per-GPU throughput", "DeepSpeed-FastGen's speed": the party is the owner
    named = POSSESSIVE_END.sub("", text_of(text, found))
    return Phrase(found[0].start(), found[-1].end(), named, "name")


CONJUNCTIONS = frozenset({"and", "or", "but", "so", "yet", "then", "nor"})
HARDWARE_COUNT = re.compile(r"[0-9]{1,4}(?:[x×][a-z]*[0-9]*)?$")
POSSESSIVE_END = re.compile(r"(?<=\w)['’]s?$")


def trim_metrics(text: str, found: list[re.Match[str]], lex: Lexicon) -> list[re.Match[str]]:
    """Drop metric words at the phrase's ends ("the multi-LoRA TTFT" names "multi-LoRA")."""
    while found and (is_metric(found[-1], lex) or per_unit(found)):
        found = (
            found[:-2]
            if low(found[-1]) != "per" and len(found) > 1 and low(found[-2]) == "per"
            else found[:-1]
        )
    kept = [t for t in found if not (is_metric(t, lex) and t is not found[0])]
    return kept if kept else found


def per_unit(found: list[re.Match[str]]) -> bool:
    """ "per-GPU", "per GPU": a phrase ending in the unit its metric is counted in."""
    return low(found[-1]).startswith("per-") or (len(found) > 1 and low(found[-2]) == "per")


def is_metric(token: re.Match[str], lex: Lexicon) -> bool:
    return fold(token.group(0)) in lex.metric_of


def text_of(text: str, found: list[re.Match[str]]) -> str:
    return " ".join(text[found[0].start() : found[-1].end()].split())


def with_version(text: str, start: int, end: int) -> tuple[int, str]:
    """A name's span grown over the version number right after it ("vLLM 0.15.0")."""
    match = re.compile(r"[ \t]{1,2}(" + VERSION.pattern + r")(?![\w.])").match(text, end)
    if match is None:
        return end, text[start:end]
    return match.end(), text[start : match.end()]

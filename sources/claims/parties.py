"""A claim's subject or baseline read from its phrase when no vocabulary mention names it:
resolved to the identity the vocabularies give (the claim systems of claim_words.toml, then
the chips and systems of schemas/vocab/chips.csv that measurements resolve to), else kept
verbatim, never replaced by a generic word; a pronoun or generic phrase takes its party from
the page around the sentence (sources/claims/discourse.py)."""

from __future__ import annotations

from typing import overload

from perfledger.schemas.platform_mentions import find_mentions as find_platforms
from perfledger.schemas.platform_mentions import system_name
from perfledger.sources.claims.discourse import Discourse
from perfledger.sources.claims.lexicon import Lexicon, fold
from perfledger.sources.claims.mentions import lookup
from perfledger.sources.claims.phrases import (
    Phrase,
    clause_subject,
    instrument,
    name_like,
    phrase_after,
    phrase_words,
    tokens,
    with_version,
)
from perfledger.sources.claims.records import Mention, Sentence


def own_subject(
    sentence: Sentence, start: int, lex: Lexicon
) -> tuple[Mention | None, str, Phrase | None]:
    """The subject a claim starting at `start` names itself: its clause's noun phrase, or the
    instrument a first-person claim credits ("With tuning, we ..."); with the method tag and
    the phrase read (a pronoun, "we", ...) when it names none."""
    text = sentence.text
    phrase = clause_subject(text, start, lex)
    if phrase is not None and phrase.kind == "name":
        changed = without_action(text, phrase)
        if changed is not None:  # "Simply enabling tuning gave us a 22.9% speedup"
            return resolve_phrase(text, changed, lex), "+subject-phrase+subject-change", phrase
        tag = "+subject-phrase" + ("+subject-change" if phrase.change else "")
        return resolve_phrase(text, phrase, lex), tag, phrase
    if phrase is None or phrase.kind in ("first_person", "person", "pronoun", "generic"):
        # "... we see a 3x saving using the new layout": only the writers' own doing is
        # credited to what they used after the claim
        trailing = phrase is not None and phrase.kind == "first_person"
        found = instrument(text, start, lex, trailing)
        if found is not None and found.kind == "name":
            return resolve_phrase(text, found, lex), "+subject-instrument", phrase
        if found is not None and found.kind in ("pronoun", "generic"):
            phrase = found
    return None, "", phrase


def without_action(text: str, phrase: Phrase) -> Phrase | None:
    """ "enabling tuning", "Simply adding X": a subject that is a change made, named by what
    was changed."""
    words = phrase_words()
    found = tokens(text, phrase.start, phrase.end)
    for index, token in enumerate(found[:-1]):
        word = fold(token.group(0))
        if word in words.instrument_verbs:
            rest = found[index + 1 :]
            return Phrase(
                rest[0].start(), rest[-1].end(), text[rest[0].start() : rest[-1].end()], "name"
            )
        if word not in words.adverbs:
            return None
    return None


def context_subject(
    phrase: Phrase | None,
    sentence: Sentence,
    start: int,
    lex: Lexicon,
    discourse: Discourse | None,
) -> tuple[Mention | None, str]:
    """The party a pronoun, "we" or a missing subject stands for, from the page around."""
    if discourse is None or (phrase is not None and phrase.kind == "person"):
        return None, ""
    if phrase is not None and phrase.kind == "metric":
        phrase = None  # "First inference is 4-7x slower": the clause names no party
    party = discourse.subject_for(phrase, sentence.text, start)
    if party is None:
        return None, ""
    tag = f"+subject-{party.source}" + ("+subject-change" if party.change else "")
    return resolve_text(party.text, lex), tag


def phrase_baseline(
    sentence: Sentence, marker_end: int, lex: Lexicon, discourse: Discourse | None
) -> tuple[Mention | None, str]:
    """The baseline a marker introduces when no vocabulary mention follows it."""
    phrase = phrase_after(sentence.text, marker_end, lex)
    if phrase is None or phrase.kind in ("metric", "person", "first_person"):
        return None, ""
    if phrase.kind == "name":
        return resolve_phrase(sentence.text, phrase, lex), "+baseline-phrase"
    if discourse is not None and discourse.last_baseline and refers_back(phrase):
        return resolve_text(discourse.last_baseline, lex), "+baseline-previous"
    if phrase.kind == "generic":
        return resolve_phrase(sentence.text, phrase, lex), "+baseline-phrase"
    return None, ""


@overload
def with_full_name(party: Mention, context, lex: Lexicon) -> Mention: ...
@overload
def with_full_name(party: Mention | None, context, lex: Lexicon) -> Mention | None: ...
def with_full_name(party: Mention | None, context, lex: Lexicon) -> Mention | None:
    """A party kept as published takes the full name the page gave its short form ("TQ
    variants" on a page that defined "TurboQuant (TQ)")."""
    if party is None or party.known or context.discourse is None:
        return party
    full = context.discourse.full_name(party.canonical)
    if full is None or fold(full) == fold(party.canonical):
        return party
    resolved = resolve_text(full, lex)
    return Mention(party.start, party.end, resolved.canonical, party.text, resolved.known)


def names_more(found: Mention, vague: Mention) -> bool:
    """Whether a phrase names more than the vendor or kind of chip a vocabulary found in it
    ("previous-generation Hopper GPUs" names Hopper; "the latest GPU" names a GPU)."""
    words = phrase_words()
    rest = [
        word
        for word in found.text.split()
        if fold(word) != fold(vague.text)
        and fold(word) not in GENERIC_TAIL
        and fold(word).rstrip("’s'") not in VENDOR_WORDS
    ]
    return any(name_like(word) and fold(word) not in words.determiners for word in rest)


VENDOR_WORDS = frozenset(
    {"nvidia", "amd", "intel", "google", "aws", "graphcore", "habana", "nvidia’s", "nvidia's"}
)


def refers_back(phrase: Phrase) -> bool:
    """ "the baseline", "that": a phrase that only points at a party named before."""
    words = fold(phrase.text).split()
    return bool(words) and words[-1] in ("baseline", "baselines", "it", "that", "this", "one")


def resolve_phrase(text: str, phrase: Phrase, lex: Lexicon) -> Mention:
    mention = resolve_text(phrase.text, lex)
    return Mention(phrase.start, phrase.end, mention.canonical, phrase.text, mention.known)


def resolve_text(text: str, lex: Lexicon) -> Mention:
    """The identity a party's words resolve to: a claim system, a chip or system of the
    measurement vocabulary, or the words themselves (unresolved)."""
    bare = strip_generic(text)
    for match in lex.system_re.finditer(bare):
        if match.group(0) == bare:
            canonical = lookup(lex.system_of, match.group(0))
            if canonical is not None:
                return Mention(-1, -1, canonical, text, True)
    platforms = [p for p in find_platforms(bare, prose=True) if p.accelerator]
    if len(platforms) == 1 and names_only(bare, platforms[0].text):
        name = system_name(platforms[0], platforms[0].count if platforms[0].count_stated else None)
        if name:
            return Mention(-1, -1, name, text, True)
    return Mention(-1, -1, bare, text, False)


GENERIC_TAIL = frozenset(
    {
        "gpu",
        "gpus",
        "system",
        "systems",
        "platform",
        "instance",
        "instances",
        "accelerator",
        "accelerators",
        "chip",
        "chips",
    }
)


def strip_generic(text: str) -> str:
    """A party's words without the generic noun after its name ("Inf2 instances")."""
    words = text.split()
    while len(words) > 1 and fold(words[-1]) in GENERIC_TAIL:
        words = words[:-1]
    return " ".join(words)


def names_only(text: str, named: str) -> bool:
    """Whether a phrase is the platform name and nothing more that names something."""
    rest = fold(text).replace(fold(named), " ")
    words = phrase_words()
    return all(
        word in words.determiners
        or word in GENERIC_TAIL
        or word in ("nvidia", "amd", "intel", "google", "aws", "on", "an", "a")
        for word in rest.split()
    )


def distinguish(
    sentence: Sentence, subject: Mention, baseline: Mention
) -> tuple[Mention, Mention] | None:
    """Two mentions of one system told apart by the versions written after them ("vLLM
    0.15.0 vs vLLM 0.11.1rc3"): each kept as written, with its version."""
    if subject.start < 0 or baseline.start < 0:
        return None
    text = sentence.text
    subject_end, subject_text = with_version(text, subject.start, subject.end)
    baseline_end, baseline_text = with_version(text, baseline.start, baseline.end)
    if fold(subject_text) == fold(baseline_text):
        return None
    return (
        Mention(subject.start, subject_end, subject_text, subject_text, False),
        Mention(baseline.start, baseline_end, baseline_text, baseline_text, False),
    )


def first_token(text: str) -> str:
    found = tokens(text)
    return found[0].group(0) if found else ""

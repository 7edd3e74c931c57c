"""Keys a page defines in a list near its tables and uses in their headers.

A legend of hardware: "A - Intel Core i9-9000K (AVX2)", "B: Xeon 6338", then columns headed
"A, INT8", "B, INT8": a header holding such a key names the hardware its definition names.
A chip's code name in brackets after its name: "Qualcomm 888(sm8350), Dimensity 720(mt6853)
and Qualcomm 660(sdm660)", then columns headed "sm8350 (ms)", "mt6853 (ms)": a header holding
such a code names the chip it follows.
A glossary of header words: "TP: Tensor Parallel size", "GBS: Global Batch Size" under a
table headed "TP | GBS | ...": a header that is such a word reads as its definition.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from perfledger.schemas.folding import clean_text
from perfledger.schemas.platform_mentions import PlatformMention
from perfledger.schemas.unknown_chips import read_hardware

# "A - text", "B: text", "(C) text", "D = text", "GBS: text", "act ckpt: text".
_DEFINITION = re.compile(
    r"^\s*(?:[*\u2022-]\s+)?\(?(?P<key>[A-Za-z0-9][\w.+/#-]{0,15}(?: [\w.+/#-]{1,15})?"
    r"|[\w.-]{0,40}/[\w.+/-]{1,40}\.\w{1,5})\)?"
    r"\s*(?::|\s[-\u2013\u2014=]|(?<=\)))\s+(?P<text>\S.{2,120})$"
)
_HARDWARE_KEY = re.compile(r"^(?:[A-Z][A-Z0-9]{0,2}|[0-9]{1,2})$")  # "A", "B1", "3"
_LEAD = re.compile(r"[^,(;]{2,60}")  # "Intel Core i9-9000K" of "Intel Core i9-9000K (AVX2), INT8"
_TOKEN = re.compile(r"[A-Za-z0-9]+")
MIN_KEYS = 2  # one line of "A - ..." is a sentence, not a legend


@lru_cache(maxsize=16_384)
def _definition(paragraph: str) -> tuple[str, str] | None:
    match = _DEFINITION.match(clean_text(paragraph))
    if match is None:
        return None
    return match.group("key"), match.group("text").strip()


def definitions(paragraphs: Iterable[str]) -> dict[str, str]:
    """{key: definition} of each key the paragraphs define, the first definition of each
    (the paragraphs come nearest first)."""
    found: dict[str, str] = {}
    for paragraph in paragraphs:
        definition = _definition(paragraph)
        if definition is not None and definition[0] not in found:
            found[definition[0]] = definition[1]
    return found


def legend_of(defined: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """(key, definition) of the keys that define hardware: at least MIN_KEYS short keys, most
    of which name hardware (a list whose other keys name hardware defines hardware with each
    key, known or not)."""
    keys = [(key, text) for key, text in defined.items() if _HARDWARE_KEY.match(key)]
    hardware = sum(1 for _key, text in keys if names_hardware(text))
    return tuple(keys) if len(keys) >= MIN_KEYS and hardware * 2 >= len(keys) else ()


# "Qualcomm 888(sm8350)", "Dimensity 720 (mt6853)": a name, then a code in brackets, letters
# then digits (a size, "A100 (80GB)", or a form, "H100 (SXM)", is no code).
_ALIAS = re.compile(
    r"(?P<name>[A-Za-z][\w.+-]*(?: [\w.+-]+){0,3}) ?\((?P<code>[A-Za-z]{1,6}\d{2,6}[A-Za-z]{0,3})\)"
)


@lru_cache(maxsize=16_384)
def _aliases(paragraph: str) -> tuple[tuple[str, str], ...]:
    if "(" not in paragraph:
        return ()
    found = []
    for match in _ALIAS.finditer(clean_text(paragraph)):
        name = _hardware_name(match.group("name"))
        if name is not None:
            found.append((match.group("code"), name))
    return tuple(found)


def _hardware_name(words: str) -> str | None:
    """The last words before a bracket that name a chip the vocabulary knows ("Qualcomm 888"
    of "Qualcomm 888", "888" of "and 888"): the shortest run of them ending at the bracket."""
    parts = words.split(" ")
    for start in range(len(parts) - 1, -1, -1):
        name = " ".join(parts[start:])
        mention = read_hardware(name, "platform")
        if mention is not None and mention.accelerator is not None and mention.vendor:
            return name
    return None


def aliases_of(paragraphs: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """(code, name) of each chip the paragraphs name with its code in brackets, the first
    naming of each code (the paragraphs come nearest first)."""
    found: dict[str, str] = {}
    for paragraph in paragraphs:
        for code, name in _aliases(paragraph):
            found.setdefault(code, name)
    return tuple(found.items())


def glossary_of(defined: dict[str, str]) -> dict[str, str]:
    """{folded key: definition} of a list of at least MIN_KEYS definitions."""
    if len(defined) < MIN_KEYS:
        return {}
    return {key.casefold(): text for key, text in defined.items()}


_FILE_NAME = re.compile(r"^(?:.*/)?(?P<stem>[^/]+?)\.\w{1,5}$")


def named_rows_of(defined: dict[str, str]) -> dict[str, str]:
    """{name: definition} of the definitions keyed by a file or configuration's name
    ("configs/v100_x8.py : Full precision GPU training"): a row named "v100_x8" is run with
    the configuration so defined."""
    found = {}
    for key, text in defined.items():
        match = _FILE_NAME.match(key)
        if match is not None:
            found.setdefault(match.group("stem").casefold(), text)
    return found


def glossary_entry(header: str, glossary: dict[str, str]) -> str | None:
    """The definition of a header that is, whole, a word the glossary defines; none for an
    explanation of several clauses ("Activation Parallel: Built on top of weight parallel,
    amortizes the I2_S weight unpacking cost across multiple activation elements."), whose
    words say what a method does, not what its column holds."""
    if not glossary:
        return None
    defined = glossary.get(clean_text(header).strip(" *_:").casefold())
    return defined if defined is not None and len(defined) <= _DEFINITION_CHARS else None


_DEFINITION_CHARS = 80


# An input's dimensions ("32x32x3", "96x96", "224 × 224"): the size a model is defined at.
_DIMENSIONS = re.compile(r"\b\d+\s?[x\u00d7]\s?\d+(?:\s?[x\u00d7]\s?\d+)?\b")


def defines_a_sized_model(definition: str | None, kind: str | None) -> bool:
    """Whether a definition the page gives a header's word, read as a setting (`kind`), states
    the dimensions of an input ("cifar: 32x32x3 input, 32->32->64->1024->10, 5x5 conv"): the
    word names a model defined at that size, whose column holds that model's results, not a
    column of input sizes."""
    return (
        kind == "config" and definition is not None and _DIMENSIONS.search(definition) is not None
    )


@lru_cache(maxsize=16_384)
def names_hardware(text: str) -> bool:
    mention = read_hardware(text, "platform")
    return mention is not None and mention.accelerator is not None


@lru_cache(maxsize=16_384)
def _platform_of(definition: str) -> PlatformMention | None:
    """The hardware a key's definition names: as read, else its leading words (the keys
    beside it name hardware, so this one does too)."""
    mention = read_hardware(definition, "platform")
    if mention is not None and mention.accelerator is not None:
        return mention
    named = _LEAD.match(clean_text(definition))
    name = named.group(0).strip() if named else definition
    return PlatformMention(name, accelerator=name, names_device=True)


def legend_platform(header: str, legend: tuple[tuple[str, str], ...]) -> PlatformMention | None:
    """The platform a header names through a legend key it holds as a word of its own."""
    if not legend:
        return None
    words = set(_TOKEN.findall(header))
    for key, definition in legend:
        if key in words:
            return _platform_of(definition)
    return None

"""Units as vendors write them: a small grammar over the words of schemas/vocab/units.csv.

A unit is read by its parts, not looked up whole: a quantity over a time is a rate
("tokens/s", "T/s", "k items/sec", "img per second"), optionally per device, node or user
("TPS/GPU", "Tokens/sec/chip", "tok/s/user"); a time over a quantity is a time per item
("ms/token", "s/step": a latency) or per amount of work ("Hours / 1B tokens": a time to
train); a time alone is a duration; FLOP, byte and power words are other figures
("TFLOPs/sec/chip" -> TFLOP/s/chip). The words (quantities, times, scopes, scales, rates
written as one word such as TPS) are data; only the way they combine is code. A units
library (pint) was measured for this and not taken: see docs/how-a-run-works.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from itertools import accumulate

import polars as pl

from perfledger.schemas.folding import clean_text
from perfledger.schemas.measurements import RATE_SCOPES
from perfledger.schemas.vocabulary import read_vocab

# Units short enough to be ordinary letters or words ("s", "h", "x", "min") are units only
# where a page marks them as such: in brackets, after "in", or right after a number.
_SHORT = 3
_UNIT_AFTER_COMMA_CHARS = 16
_STATED_ALONE = ("duration", "rate")  # "x" or "%" after a comma is too often a setting's
_BRACKETED = re.compile(r"[(\[]\s*([^()\[\]]{1,40}?)\s*[)\]]")
_IN_UNIT = re.compile(
    r"(?:(?:^|\s)in\s+|(?:^|[\s(\[])(?i:units?)(?:\s*[:=]|\s+(?i:is|are)\b:?)\s*|单位\s*[均都皆]?\s*[:为是]?\s*)"
    r"([^\s(),;:\[\]。]{1,20}(?:\s*/\s*[^\s(),;:\[\]。]{1,20}){0,3})"
)
_NAME_THEN_UNIT = re.compile(r"^(?:[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+|[A-Z])\s+(\S{1,12})$")
# A script's column name whose last words are its unit ("first_run_memory_MB", "latency_ms",
# "throughput_tokens_per_s"): an identifier of words joined with "_", nothing else.
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+")
_IDENTIFIER_UNIT_KINDS = ("duration", "rate", "other", "energy")
_IDENTIFIER_UNIT_WORDS = 3  # "tokens_per_s": a unit is at most this many of its words
_SETTING = re.compile(r"^[\w.\- ]{1,20}\s*[=:]")  # "bs=1" beside a unit in one bracket
_ROUND_AMOUNT = re.compile(r"^10*$")  # 1, 10, 100, 1000: the amounts units are written per
_NUMBER_SCALE = re.compile(r"^(?P<amount>\d+(?:\.\d+)?)\s*(?P<scale>[^\d\s]{0,8})$")
_TOKEN = re.compile(r"/|[^\s/()\[\],;:]+")
_PLAIN_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_PER = re.compile(r"\s+per\s+|\s*/\s*")
# The period closing an abbreviated word before a slash ("inf./sec", "img./s"): no part of it.
_ABBREVIATION_DOT = re.compile(r"(?<=[a-z])\.(?=/)")
# A number sign beside a quantity's word ("Requests # / sec", "#tokens/s"): "number of",
# which a rate of that quantity already is; no part of its unit.
_NUMBER_SIGN = re.compile(r"(?<=[a-z]) ?#(?=\s|/|$)|(?<![\w#])# ?(?=[a-z])")
# "%" apart, glued to a header's last word ("MeanIoU%", "AP50%", "AP[0.5:0.95]%"), or
# before its first ("%peak").
_PERCENT = re.compile(
    r"(?:^|\s)%(?:\s|$)|(?:(?<=[a-z\])])|(?<=[a-z]\d)|(?<=[a-z]\d\d))%$|^%(?=[a-z])"
)
_COUNT_SUFFIX = "\u6570"  # 数, "the number of": "词元数" is a count of tokens
_MAX_WINDOW = 7  # tokens of a unit written out in a header: "k tokens / s / GPU" is five
# The kinds a whole unit has; the other kinds of units.csv are words of the grammar.
UNIT_KINDS = ("rate", "duration", "ratio", "percent", "other")


@dataclass(frozen=True)
class Unit:
    alias: str  # as published, folded
    kind: str  # rate, duration, ratio, percent or other
    factor: float  # to the kind's base unit: items/s for a rate, seconds for a duration
    item_kind: str | None  # what a rate counts (images, tokens...), or what a time is per
    canonical: str  # the unit values of this kind are stored in
    # What the value is per: for a rate, "accelerator", "node" or "user" ("TPS/GPU"); for a
    # time, "item" ("ms/token": a latency) or "work" ("hours / 1B tokens": a time to train).
    per: str | None = None


# The columns a unit is carried in through the frames, in `unit_fields` order.
UNIT_FIELDS = {
    "alias": pl.String,
    "kind": pl.String,
    "factor": pl.Float64,
    "item": pl.String,
    "canonical": pl.String,
    "per": pl.String,
}


def unit_fields(unit: Unit | None) -> tuple:
    if unit is None:
        return (None,) * len(UNIT_FIELDS)
    return (unit.alias, unit.kind, unit.factor, unit.item_kind, unit.canonical, unit.per)


@dataclass(frozen=True)
class _Word:
    kind: str  # a unit kind, or quantity, scope, scale
    factor: float
    item: str | None
    canonical: str


@cache
def _words() -> dict[str, dict[str, _Word]]:
    """The words of units.csv by kind, then by their folded spelling."""
    words: dict[str, dict[str, _Word]] = {}
    for row in read_vocab("units.csv").iter_rows(named=True):
        words.setdefault(row["kind"], {})[row["alias"].lower()] = _Word(
            row["kind"], float(row["factor"]), row["item_kind"] or None, row["canonical"] or ""
        )
    return words


def _word(kind: str, text: str) -> _Word | None:
    return _words().get(kind, {}).get(text)


def unit_key(text: str) -> str:
    """The form units are read in: lower case, single spaces, none around a slash, "per"
    written as a slash ("tokens per second per GPU" -> "tokens/second/gpu")."""
    # white space already single spaces; "Matom_step/s": an underscore parts words
    text = clean_text(text.replace("_", " ")).lower()
    text = _ABBREVIATION_DOT.sub("", _PER.sub("/", _NUMBER_SIGN.sub("", text)))
    return text.strip(" .")


@lru_cache(maxsize=4096)
def unit_named(text: str) -> Unit | None:
    """The unit `text` is, as a whole ("img/sec", "Hrs", "%", "T/s/GPU", "ms/token"), or
    None."""
    return _parse(unit_key(text))


@lru_cache(maxsize=8192)
def _parse(key: str) -> Unit | None:
    if not key or len(key) > 60:
        return None
    for kind in UNIT_KINDS:
        word = _word(kind, key)
        if word is not None:
            return Unit(key, kind, word.factor, word.item, word.canonical)
    parts = key.split("/")
    if any(not part for part in parts):
        return None
    return (
        _rate(key, parts)
        or _time_per(key, parts)
        or _energy_per(key, parts)
        or _memory_per(key, parts)
    )


def _amount(part: str) -> tuple[float, _Word] | None:
    """A quantity with its scale: "tokens" (1), "k items" (1,000), "1b tokens", "ktok"."""
    word = _word("quantity", part)
    if word is None and part.endswith(_COUNT_SUFFIX):
        # "词元数/秒", "帧数/秒": the number of a quantity counts that quantity
        word = _word("quantity", part[: -len(_COUNT_SUFFIX)])
    if word is not None:
        return 1.0, word
    if len(part) > 4 and part[0] in "km":  # "ktokens", "matom step": a scale letter glued on
        glued = _word("quantity", part[1:])
        if glued is not None:
            return _words()["scale"][part[0]].factor, glued
    head, _, rest = part.partition(" ")
    if rest:
        scale = _word("scale", head)
        number = _NUMBER_SCALE.match(head)
        if scale is None and number is not None:
            scale_word = _word("scale", number.group("scale")) if number.group("scale") else None
            if number.group("scale") and scale_word is None:
                return None
            if not _ROUND_AMOUNT.match(number.group("amount")):
                return None  # "1835.8 samples/s" is a figure, "1B tokens" a unit's amount
            amount = float(number.group("amount")) * (scale_word.factor if scale_word else 1.0)
            word = _word("quantity", rest)
            return (amount, word) if word is not None and amount > 0 else None
        word = _word("quantity", rest)
        if scale is not None and word is not None:
            return scale.factor, word
        return None
    if _COUNT_NOUN.fullmatch(part) and not any(part in known for known in _words().values()):
        # "outputs/s", "audio-s/s": things counted that no vocabulary names, kept as written
        return 1.0, _Word("quantity", 1.0, part, "items")
    return None


# A plural word of no other meaning: a count of things ("outputs", "rollouts", "audio-s").
_COUNT_NOUN = re.compile(r"[a-z][a-z-]{1,22}[a-rt-z]s")


def _scopes(parts: list[str]) -> tuple[str | None, str | None, bool] | None:
    """(scope class, as published, per watt) of the parts after a rate's quantity and
    time, or None when one is no scope; at most one scope."""
    found = None
    for part in parts:
        word = _word("scope", part)
        if word is None or found is not None:
            return None
        found = word
    if found is None:
        return None, None, False
    return found.item, found.canonical, found.item == "watt"


def _rate(key: str, parts: list[str]) -> Unit | None:
    """A quantity over a time, in any order with a scope: "tokens/s/gpu", "tflop/chip/s"."""
    if len(parts) < 2:
        return None
    durations = {
        index: word for index, part in enumerate(parts[1:], 1) if (word := _word("duration", part))
    }
    times = list(durations)
    first = parts[0]
    rate = _word("rate", first)
    other = _word("other", first)
    if rate is not None or other is not None:
        # A word that is a rate already ("TPS", "TFLOPS"): a time after it repeats it.
        if len(times) > 1 or (times and durations[times[0]].factor != 1.0):
            return None
        rest = [part for index, part in enumerate(parts[1:], 1) if index not in times]
        if other is not None and times and not other.canonical.endswith("/s"):
            other = replace(other, canonical=f"{other.canonical}/s")
        scopes = _scopes(rest)
        if scopes is None:
            return None
        scope, shown, _watt = scopes
        if other is not None:
            canonical = other.canonical + (f"/{shown}" if shown else "")
            return Unit(
                key, "other", other.factor, None, canonical, scope if scope in RATE_SCOPES else None
            )
        assert rate is not None  # the first word is a rate or another word: not another
        if scope == "watt":
            return Unit(key, "other", rate.factor, rate.item, f"{rate.item or 'items'}/s/W")
        return Unit(key, "rate", rate.factor, rate.item, rate.canonical, scope)
    if len(times) != 1:
        return None
    amount = _amount(first)
    if amount is None:
        return None
    scale, quantity = amount
    time = durations[times[0]]
    scopes = _scopes([part for index, part in enumerate(parts[1:], 1) if index != times[0]])
    if scopes is None:
        return None
    scope, _shown, watt = scopes
    factor = scale / time.factor
    if watt:
        return Unit(key, "other", factor, quantity.item, f"{quantity.item or 'items'}/s/W")
    return Unit(key, "rate", factor, quantity.item, "items/s", scope)


def _over_amount(kind: str, parts: list[str]) -> tuple[_Word, float, _Word] | None:
    """(word, scale, quantity) of a unit of `kind` over a quantity ("ms/token", "J/1k
    tokens"), None for any other shape."""
    if len(parts) != 2:
        return None
    word = _word(kind, parts[0])
    amount = _amount(parts[1])
    if word is None or amount is None:
        return None
    return word, *amount


def _time_per(key: str, parts: list[str]) -> Unit | None:
    """A time over a quantity: "ms/token", "s/it", "hours/1b tokens"."""
    found = _over_amount("duration", parts)
    if found is None:
        return None
    time, scale, quantity = found
    per = "work" if scale > 1 or quantity.item == "epochs" else "item"
    return Unit(key, "duration", time.factor, quantity.item, "s", per)


def _energy_per(key: str, parts: list[str]) -> Unit | None:
    """An energy over a quantity: "J/token", "mJ/frame", "Wh/1k tokens", kept in joules per
    item, the item named ("J/token", "J/frame"; "J/item" for items of no kind)."""
    found = _over_amount("energy", parts)
    if found is None:
        return None
    energy, scale, quantity = found
    item = _singular(quantity.item or "items")
    return Unit(key, "other", energy.factor / scale, quantity.item, f"{energy.canonical}/{item}")


def _memory_per(key: str, parts: list[str]) -> Unit | None:
    """A memory size over a quantity: "GB/im", "MiB/token", kept in its own size per item
    ("GB/image")."""
    found = _over_amount("other", parts)
    if found is None or not _BYTES.fullmatch(found[0].canonical):
        return None
    size, scale, quantity = found
    item = _singular(quantity.item or "items")
    return Unit(key, "other", size.factor / scale, quantity.item, f"{size.canonical}/{item}")


_BYTES = re.compile(r"[KMGTP]?i?B")


def _singular(items: str) -> str:
    """One of the items units.csv counts: "tokens" -> "token", "queries" -> "query"."""
    if items.endswith("ies"):
        return items[:-3] + "y"
    return items[:-2] if items.endswith(("ches", "xes")) else items.removesuffix("s")


# What a unit alone says of the metric it measures ("Tokens/Second", "(ms)", "Hours / 1B
# tokens"): a rate is a throughput, a time per item a latency, a time per amount of work a
# time to train, a ratio a speedup, a FLOP, byte or power figure another figure. A bare time
# tells only by its scale: below a second it is a latency, in hours or days a time to train.
_METRIC_OF_KIND = {"rate": "throughput", "ratio": "speedup", "other": "other"}
_METRIC_OF_TIME_PER = {"item": "latency", "work": "time_to_train"}
LATENCY_BELOW_SECONDS = 1.0
TRAINING_FROM_SECONDS = 3600.0


def metric_of_unit(unit: Unit | None) -> str | None:
    """The metric a unit names by its dimension, or None (a percent, a time in seconds)."""
    if unit is None:
        return None
    if unit.kind != "duration":
        return _METRIC_OF_KIND.get(unit.kind)
    if unit.per in _METRIC_OF_TIME_PER:
        return _METRIC_OF_TIME_PER[unit.per]
    if unit.factor < LATENCY_BELOW_SECONDS:
        return "latency"
    return "time_to_train" if unit.factor >= TRAINING_FROM_SECONDS else None


# ---- a unit inside a header -----------------------------------------------------------------


@lru_cache(maxsize=4096)
def unit_in_header(text: str) -> Unit | None:
    """The unit a column header (or a caption, heading or paragraph) states: the last
    bracketed unit ("Latency 99% (ms)", "[ms]", "(ms, bs=1)"), else one after "in" or 单位
    ("Latency in ms (per batch)", "耗时单位为ms"), else a unit written out in it ("bf16
    img/s", "Tokens/sec/chip", "TPS/GPU", "Hours / 1B tokens")."""
    found = None
    for match in _BRACKETED.finditer(text):
        unit = _bracketed_unit(match.group(1))
        if unit is not None:
            found = unit
    if found is not None:
        return found
    stated = stated_units(clean_text(text))
    if stated:
        return stated[-1]
    found = _unit_after_comma(text) or _unit_after_name(text) or _unit_ending_identifier(text)
    if found is not None:
        return found
    key = unit_key(text)
    found = _written_out(key)
    if found is not None:
        return found
    return _parse("%") if "%" in key and _PERCENT.search(key) else None


def stated_units(text: str) -> list[Unit]:
    """The units a sentence states after "unit:", 单位 or "in" ("统计平均时间，单位 ms", "All
    times in milliseconds"), in its order."""
    return [
        unit
        for match in _IN_UNIT.finditer(text)
        if (unit := unit_named(match.group(1))) is not None
    ]


def _unit_after_comma(text: str) -> Unit | None:
    """The unit a header states after its last comma ("Latency, ms", "Pixel 2, ms", "Time,
    s"), the way tables set a quantity's unit apart; a header that is a unit alone ("ms")
    states it too. A word after the comma that is no unit as a whole is no unit here."""
    parts = clean_text(text).rsplit(",", 1)
    last = parts[-1].strip()
    if not last or len(last) > _UNIT_AFTER_COMMA_CHARS or (len(parts) == 1 and len(last) < 2):
        return None  # a header "s" or "m" alone is a model size (YOLO's n, s, m, l, x)
    unit = unit_named(last)
    return unit if unit is not None and unit.kind in _STATED_ALONE else None


def _unit_after_name(text: str) -> Unit | None:
    """The unit after a quantity's short name, the way benchmark tools print their columns
    ("T_PP s", "S_TG t/s", "T s" of llama.cpp's batched and sweep benches): a name written
    as an identifier (with an underscore, or one capital letter), a space, a time or rate
    unit as a whole. An ordinary word before "s" ("Items s") is no such name."""
    match = _NAME_THEN_UNIT.match(clean_text(text))
    if match is None:
        return None
    unit = unit_named(match.group(1))
    return unit if unit is not None and unit.kind in _STATED_ALONE else None


def _unit_ending_identifier(text: str) -> Unit | None:
    """The unit a script's column name ends with ("first_run_memory_MB", "e2e_latency_s",
    "output_tokens_per_s"): its longest ending of whole words that is a time, rate, byte or
    energy unit, with a word before it. "latency_min" is the minimum, not minutes."""
    if "_" not in text or _IDENTIFIER.fullmatch(text) is None:
        return None
    words = text.split("_")
    for size in range(min(_IDENTIFIER_UNIT_WORDS, len(words) - 1), 0, -1):
        ending = " ".join(words[-size:])
        if ending.lower() == "min":
            continue
        unit = unit_named(ending)
        if unit is not None and unit.kind in _IDENTIFIER_UNIT_KINDS:
            return unit
    return None


def _bracketed_unit(inside: str) -> Unit | None:
    """The unit in one bracket: the whole of it or the end of an identifier ("[ttft_s]"),
    else its first part that is one beside a setting ("ms, bs=1"), else one after "in"."""
    unit = unit_named(inside) or _unit_ending_identifier(inside)
    if unit is not None:
        return unit
    for part in re.split(r"[,;]", inside):
        part = re.sub(r"^\s*(?:in\s+|per\s+|units?\s*[:=]\s*)", "", part.strip(), flags=re.I)
        if part and not _SETTING.match(part):
            unit = unit_named(part)
            if unit is not None:
                return unit
    return None


def _written_out(key: str) -> Unit | None:
    """The last unit written out in a header, the longest of those ending there; a unit of
    one short word ("s", "min") is too often an ordinary word to count."""
    tokens = _TOKEN.findall(key.replace("/", " / "))
    if not tokens:
        return None
    known = _known_words()
    whole = _whole_unit_words()
    longest_whole = _longest_whole_unit()
    # Slashes before each token: a window without one is a unit only as a whole word, so
    # one longer than every whole unit is not read (prose has dozens of unit words).
    slashes = list(accumulate((token == "/" for token in tokens), initial=0))
    figure: Unit | None = None
    for end in range(len(tokens), 0, -1):
        best: tuple[int, int, Unit] | None = None
        if tokens[end - 1] == "/" or tokens[end - 1] not in known:
            continue
        lowest = max(0, end - _MAX_WINDOW)
        if slashes[end] == slashes[lowest]:
            lowest = max(lowest, end - longest_whole)
        for start in range(lowest, end):
            if tokens[start] == "/":
                continue
            slashed = slashes[end] > slashes[start]
            if not slashed and end - start > longest_whole:
                continue
            window = tokens[start:end]
            if slashed:
                text = "".join(
                    token if token == "/" or index == 0 or window[index - 1] == "/" else " " + token
                    for index, token in enumerate(window)
                )
            else:
                text = " ".join(window)
                if text not in whole:
                    continue  # words without a slash are a unit only as one of units.csv
            unit = _parse(text)
            if (
                unit is None
                or (
                    len(window) == 1
                    and not _counts_alone(text, unit)
                    and not _closing_duration(tokens, end, unit)
                )
                or _plural_noun(tokens, start, window, unit)
            ):
                continue
            if best is None or end - start > best[1] - best[0]:
                best = (start, end, unit)
        if best is not None and _PLAIN_NUMBER.fullmatch(tokens[best[0] - 1] if best[0] else ""):
            # "H100 96 GPUs with 800 Gbps": a unit after a number is a figure of the setup
            # (the network's 800 Gbps), the column's unit only where the header has no other
            figure = figure or best[2]
        elif best is not None:
            return best[2]
    return figure


@cache
def _known_words() -> frozenset[str]:
    """Every word of units.csv, and the slash: where a unit written out may end ("real
    time factor" ends in "factor")."""
    aliases = [alias for table in _words().values() for alias in table]
    return frozenset(aliases) | {alias.rsplit(" ", 1)[-1] for alias in aliases} | {"/"}


@cache
def _longest_whole_unit() -> int:
    """The words of the longest unit of units.csv that is a unit as a whole."""
    return max((len(alias.split()) for alias in _whole_unit_words()), default=0)


@cache
def _whole_unit_words() -> frozenset[str]:
    """The words of units.csv that are a unit as a whole (`_parse` of a text without a slash
    finds a unit only among them)."""
    return frozenset(alias for kind in UNIT_KINDS for alias in _words().get(kind, {}))


def _plural_noun(tokens: list[str], start: int, window: list[str], unit: Unit) -> bool:
    """A ratio's word after another word is a noun, no unit: "inference times", "run times"
    are times; "3 times" and "times" alone are the ratio."""
    return (
        unit.kind == "ratio"
        and len(window) == 1
        and window[0].isalpha()
        and start > 0
        and tokens[start - 1].isalpha()
    )


def _closing_duration(tokens: list[str], end: int, unit: Unit) -> bool:
    """A short duration closing a header after a word ("P50 ms", "Avg ms", "TTFT ms") is the
    column's unit; after a number ("under 10 ms") it is a figure, and alone ("s") a size."""
    return (
        end == len(tokens) > 1
        and unit.kind == "duration"
        and len(tokens[end - 1]) == _SHORT - 1
        and not _NUMBER_SCALE.match(tokens[end - 2])
    )


def _counts_alone(text: str, unit: Unit) -> bool:
    return len(text) > _SHORT or (len(text) == _SHORT and unit.kind in ("rate", "other"))


# The word after a number that ends a cell ("~175 s", "40 fps", "2964tps / 154tps": the last
# of two figures parted by a spaced "/"), for `measures_time_or_rate`.
TRAILING_UNIT = (
    r"^(?:\D{0,2}\d[\d.,]*\s*[a-zA-Z][a-zA-Z/]{0,7}\s+/\s+)?"
    r"\D{0,2}\d[\d.,]*\s*([a-zA-Z][a-zA-Z/]{0,7})\s*$"
)


_BYTE_SIZES = frozenset({"B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB"})


def is_byte_size(text: str) -> bool:
    """Whether `text` is a unit of size in bytes ("GB", "MiB")."""
    unit = unit_named(text)
    return unit is not None and unit.canonical in _BYTE_SIZES


def measures_time_or_rate(text: str) -> bool:
    """Whether `text` is a unit of time or of rate ("s", "min", "fps")."""
    unit = unit_named(text)
    return unit is not None and unit.kind in ("duration", "rate")

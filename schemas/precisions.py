"""Precision labels: "16.32" (activations.weights), words ("BF16", "mixed precision", "AMP")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from perfledger.schemas.chip_vocabulary import word_start_of
from perfledger.schemas.folding import (
    MAX_READ_CHARS,
    clean_text,
    fold_words,
    folded_with_positions,
    published_span,
)
from perfledger.schemas.vocabulary import read_vocab

_PAIR = re.compile(r"^(\d{1,2})\s*[./]\s*(\d{1,2})$")
# "4.0 bpw", "4.65 bits per weight": a quantization's average bits per weight (its scales
# included), which sets the weights' precision and leaves the activations unstated.
_BITS_PER_WEIGHT = re.compile(
    r"(?<![\d.])(\d{1,2}(?:\.\d{1,3})?) ?(?:bpw|bits? per weight)(?![a-z0-9])"
)

# "W4A16", "W2A8", "A8W8", "W8A8-FP8": bits of the weights and of the activations, in either
# order, with a float type the 8-bit (or 4-bit) parts are of, if named
_WEIGHTS_ACTIVATIONS = re.compile(
    r"(?<![a-z0-9.])(?:w(?P<w>\d{1,2})a(?P<a>\d{1,2})|a(?P<a2>\d{1,2})w(?P<w2>\d{1,2}))"
    r"(?:[ _-]?(?P<float>fp8|float8|fp4|mxfp4|nvfp4))?(?![a-z0-9])"
)


@dataclass(frozen=True)
class Precision:
    text: str  # as published
    activation: str | None  # precision of activations and gradients
    weight: str | None  # precision of weights


@cache
def _words() -> dict[str, tuple[str, str]]:
    return {
        row["word"]: (row["activation_dtype"], row["weight_dtype"])
        for row in read_vocab("precisions.csv").iter_rows(named=True)
    }


@cache
def _bits() -> dict[str, str]:
    return {
        row["bits"]: row["dtype"] for row in read_vocab("precision_bits.csv").iter_rows(named=True)
    }


@cache
def _bits_per_weight() -> tuple[tuple[float, float, str], ...]:
    return tuple(
        (float(row["from_bits"]), float(row["below_bits"]), row["weight_dtype"])
        for row in read_vocab("bits_per_weight.csv").iter_rows(named=True)
    )


@cache
def _bit_widths() -> dict[str, tuple[str | None, str]]:
    """{bits: (activation dtype, weight dtype)}; below 4 bits only weights are quantized."""
    rows = read_vocab("bit_widths.csv").iter_rows(named=True)
    return {row["bits"]: (row["activation_dtype"] or None, row["dtype"]) for row in rows}


@cache
def _part_bits() -> dict[tuple[str, str], str]:
    return {
        (row["part"], row["bits"]): row["dtype"]
        for row in read_vocab("weight_activation_bits.csv").iter_rows(named=True)
    }


def _weights_and_activations(match: re.Match[str]) -> tuple[str | None, str | None] | None:
    """(activations, weights) of "W4A16"-style notation, or None for bits no dtype has."""
    weight_bits = match.group("w") or match.group("w2")
    activation_bits = match.group("a") or match.group("a2")
    weight = _part_bits().get(("weight", weight_bits))
    activation = _part_bits().get(("activation", activation_bits))
    if weight is None or activation is None:
        return None
    named = match.group("float")
    if named is not None:  # "W8A8-FP8": the parts of the float type's bits are of that type
        dtype = _words()[named][0]
        bits = dtype[2:]
        activation = dtype if activation_bits == bits else activation
        weight = dtype if weight_bits == bits else weight
    return activation, weight


def _weights_of_bits(bits: float) -> str | None:
    """The weights' dtype of an average of `bits` per weight; None between the classes
    (2.5 or 5.0 bits per weight are no 4-bit nor 8-bit weights)."""
    return next((dtype for low, high, dtype in _bits_per_weight() if low <= bits < high), None)


_GGUF_TYPE = re.compile(r"^i?q\d")  # llama.cpp's quantization types: "q4km", "q40", "iq4xs"
# A bare quantization type ("q4", "q8": 4-bit and 8-bit weights, as mistral.rs' "UQFF q4" and
# Ollama's tags write them), which a year after it makes a quarter ("Q4 2024", "Q3 FY25").
_BARE_GGUF_TYPE = re.compile(r"q\d")
_YEAR_AFTER = re.compile(r" ?(?:fy ?)?(?:'?\d\d(?!\d)|(?:19|20)\d\d(?!\d))")


@cache
def _searchable() -> tuple[re.Pattern[str], dict[str, str]]:
    """One pattern finding every precision word allowed in running text, and the word key
    of each spelling (e.g. "mixed precision" -> "mixedprecision")."""
    spellings: dict[str, str] = {}
    for row in read_vocab("precisions.csv").iter_rows(named=True):
        if row["in_text"] == "true":
            word = row["word"]
            # letters and digits may be written apart ("fp 16", "mixed precision"); a GGUF
            # type's parts are written apart by underscores, folded to spaces ("Q4_0", "q4_k_m")
            apart = (
                r"(?<=\w)(?=\w)" if _GGUF_TYPE.match(word) else r"(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])"
            )
            spelled = re.sub(apart, " ?", re.escape(word))
            spelled = re.sub(r"(?<=[a-z])precision$", " ?precision", spelled)
            spellings[spelled] = word
    ordered = sorted(spellings, key=len, reverse=True)
    return (
        re.compile(
            word_start_of(ordered) + "(" + "|".join(f"(?:{s})" for s in ordered) + r")(?![a-z0-9])"
        ),
        spellings,
    )


def _key(text: str) -> str:
    # Chinese words ("混合精度") are keys as written
    return re.sub(r"[^a-z0-9\u3400-\u9fff]", "", text)


@lru_cache(maxsize=16_384)
def find_precisions(text: str) -> tuple[Precision, ...]:
    """Every precision `text` states, in order. Words written together make one precision:
    a mixed-precision word and the dtype it runs in ("amp_bf16", "Mixed precision (BF16)")
    are that dtype; a weight-only method or phrase and a dtype ("GPTQ-Int4", "int4
    weight-only") are weights of that dtype, the activations left unstated."""
    pattern, _ = _searchable()
    cleaned = clean_text(text)[:MAX_READ_CHARS]
    folded, positions = folded_with_positions(cleaned)
    spans: list[tuple[int, int, str | None, str | None]] = []
    for match in pattern.finditer(folded):
        key = _key(match.group(1))
        if _BARE_GGUF_TYPE.fullmatch(key) and _YEAR_AFTER.match(folded, match.end()):
            continue  # "Q4 2024" is a quarter of the year, "q4" alone 4-bit weights
        activation, weight = _words()[key]
        spans.append((match.start(), match.end(), activation, weight))
    if "w" in folded:
        for match in _WEIGHTS_ACTIVATIONS.finditer(folded):
            parts = _weights_and_activations(match)
            if parts is not None:
                spans.append((match.start(), match.end(), *parts))
    for match in _BITS_PER_WEIGHT.finditer(folded):
        weight = _weights_of_bits(float(match.group(1)))
        if weight is not None:
            spans.append((match.start(), match.end(), None, weight))
    spans.sort(key=lambda span: (span[0], -span[1]))
    spans = [  # a word inside a notation found whole ("FP8" of "W8A8-FP8") is that notation's
        span for at, span in enumerate(spans) if not at or span[0] >= spans[at - 1][1]
    ]
    if "kv" in folded or "cache" in folded:
        spans = _with_cache_words(spans, folded)
    spans = _joined(
        spans,
        folded,
        [
            _gap(cleaned, positions, first[1], second[0])
            for first, second in zip(spans, spans[1:], strict=False)
        ],
    )
    stops = [span[0] for span in spans[1:]] + [len(folded)] if spans else []
    return tuple(
        Precision(
            published_span(cleaned, positions, start, _closed(folded, start, end, stop)),
            activation,
            weight,
        )
        for (start, end, activation, weight), stop in zip(spans, stops, strict=True)
    )


# The cache a dtype is of: "kv", "KV cache", and either half of it ("the V-cache is fp16",
# "K-cache quantized with Q8_0").
_CACHE_WORDS = r"(?:kv(?: ?cache)?|[kv] cache)"
_CACHE_VERB = r"(?: (?:is|are))?(?: (?:in|as|with|(?:quantized|stored|kept) (?:with|to|as|in)))?"
_CACHE_BEFORE = re.compile(
    rf"(?<![a-z0-9]){_CACHE_WORDS}(?: ?dtype)?{_CACHE_VERB}[\s=:_`-]{{0,3}}$"
)
_CACHE_AFTER = re.compile(rf"^[\s_`-]{{0,2}}{_CACHE_WORDS}(?![a-z0-9])")
_COMPARED = re.compile(r"^\s?/\s?$")


def _with_cache_words(spans: list[tuple], folded: str) -> list[tuple]:
    """`spans` with the words naming a key-value cache that their dtypes are of ("kv int8",
    "FP8 KV-cache", "INT4/INT8 KV Cache" one span): published with them, a precision says it
    is the cache's (see `names_cache_types_only`)."""
    out: list[tuple] = []
    for span in reversed(spans):
        start, end = span[0], span[1]
        before = _CACHE_BEFORE.search(folded[max(0, start - 36) : start])
        if before is not None:
            start -= len(before.group(0))
        after = _CACHE_AFTER.match(folded[end : end + 12])
        if after is not None:
            end += len(after.group(0))
        elif out and _COMPARED.match(folded[end : out[-1][0]]) and out[-1][4]:
            end = out.pop()[1]  # "INT4/INT8 KV Cache": both the cache's
        out.append((start, end, span[2], span[3], before is not None or after is not None))
    return [span[:4] for span in reversed(out)]


_CLOSING_REACH = 24  # characters after a span that may close the bracket it opened


def _closed(folded: str, start: int, end: int, stop: int) -> int:
    """The end of a span, past the bracket it opened ("Mixed precision (BF16)", "mixed-precision
    (bfloat16/float)"), when the bracket closes before `stop`, the next precision's start."""
    if folded.count("(", start, end) <= folded.count(")", start, end):
        return end
    close = folded.find(")", end, min(stop, end + _CLOSING_REACH))
    if close == -1 or "(" in folded[end:close]:
        return end
    return close + 1


# What may stand between words of one precision ("amp_bf16", "GPTQ-Int4", "FP16 (AMP)");
# " - ", " / " and "to" stand between two precisions compared.
_TOGETHER = re.compile(r"^(?:[_+-]|\s?\(|\s)?$")
# "WOQ" (weight-only quantization) names it too: "WOQ INT8", "INT4 WOQ".
_WEIGHT_ONLY = re.compile(
    r"^[\s_-]{0,2}(?:weight[\s_-]?only|woq?(?![a-z0-9]))|"
    r"(?<![a-z0-9])(?:weight[\s_-]?only|woq)[\s_-]{0,2}$"
)


def _gap(cleaned: str, positions: Sequence[int], end: int, start: int) -> str:
    """The published text between two words found at folded[..end] and folded[start..]."""
    return cleaned[positions[end - 1] + 1 : positions[start]] if start < len(positions) else ""


def _joined(
    spans: list[tuple[int, int, str | None, str | None]], folded: str, gaps: list[str]
) -> list[tuple[int, int, str | None, str | None]]:
    """Adjacent words of one precision made one (`gaps`: the text between each two)."""
    joined: list[tuple[int, int, str | None, str | None]] = []
    for index, span in enumerate(spans):
        gap = gaps[index - 1] if index else ""
        if joined and gap.strip() == "+":
            merged = _quantized_pair(joined[-1], span, gap)
            if merged is not None:
                joined[-1] = merged
                continue
        if joined and _TOGETHER.match(gap):
            merged = _one_precision(joined[-1], span) or _quantized_pair(joined[-1], span, gap)
            if merged is not None:
                joined[-1] = merged
                continue
        joined.append(span)
    joined = _parts_named(joined, folded)
    result = []
    for start, end, activation, weight in joined:
        if (
            activation is not None
            and weight is not None
            and (
                _WEIGHT_ONLY.match(folded[end : end + 14])
                or _WEIGHT_ONLY.search(folded[max(0, start - 14) : start])
            )
        ):
            activation = None  # "int8 weight-only", "weight-only int4": weights alone
        result.append((start, end, activation, weight))
    return result


_INTEGER = re.compile(r"u?int\d+$")
_PART_AFTER = re.compile(r"^[\s_-]{0,2}(weight|activation)s?(?![a-z0-9])")


def _quantized_pair(first: tuple, second: tuple, gap: str) -> tuple | None:
    """An integer dtype joined to a float one ("int8 + float16", "int8_float16"): weights
    stored as the integer, computed in the float (CTranslate2's compute types)."""
    if gap.strip() not in ("+", "_") or first[2] != first[3] or second[2] != second[3]:
        return None
    integers = [bool(span[2] and _INTEGER.match(span[2])) for span in (first, second)]
    if integers[0] == integers[1] or None in (first[2], second[2]):
        return None
    stored, computed = (first, second) if integers[0] else (second, first)
    return (first[0], second[1], computed[2], stored[3])


def _parts_named(spans: list[tuple], folded: str) -> list[tuple]:
    """Two precisions each named for its part ("INT4 Weight, FP16 Activation"): one
    precision, its weights the one and its activations the other."""
    if len(spans) != 2:
        return spans
    parts = [_PART_AFTER.match(folded[span[1] : span[1] + 16]) for span in spans]
    named = {
        match.group(1): span for match, span in zip(parts, spans, strict=True) if match is not None
    }
    if len(named) != 2:
        return spans
    weight, activation = named["weight"], named["activation"]
    return [(spans[0][0], spans[1][1], activation[2], weight[3])]


def _one_precision(first: tuple, second: tuple) -> tuple | None:
    """Two adjacent precision words that state one precision, or None."""
    start, end = first[0], second[1]
    for generic, specific in ((first, second), (second, first)):
        if generic[2] == "mixed" and specific[2] not in (None, "mixed"):
            return (start, end, specific[2], generic[3])  # "amp_bf16": bf16 with fp32 weights
        if (
            generic[2] is None
            and generic[3] is not None
            and specific[2] is not None
            and specific[2] == specific[3]
        ):
            return (start, end, None, specific[3])  # "GPTQ-Int8": int8 weights
        if generic[2] is None and specific[2] is not None and generic[3] == specific[3]:
            return (start, end, specific[2], specific[3])  # "W4A8 AWQ": AWQ's int4 weights
    return None


@lru_cache(maxsize=16_384)
def remark_precision(remark: str) -> Precision | None:
    """The precision a remark after a value is, whole ("INT8" of "30.6(INT8)"); None for a
    remark saying more than a precision ("INT8 on 2 threads") or none."""
    found = find_precisions(remark)
    if len(found) != 1 or fold_words(found[0].text) != fold_words(remark.strip(" ()[]")):
        return None
    return found[0]


def is_precision_word(token: str) -> bool:
    """Whether `token` is, whole, a word of precisions.csv ("Q4_K_M", "Q8_0", "bf16")."""
    return _key(fold_words(token)) in _words()


def states_dtype(label: str) -> bool:
    """Whether `label` reads as a precision label stating a dtype ("FP16", "Q4_K_M"), not
    only a word of one ("mixed" with no dtype named)."""
    precision = read_precision_label(label)
    return precision is not None and (precision.activation or precision.weight) is not None


@lru_cache(maxsize=16_384)
def read_precision_label(label: str) -> Precision | None:
    """A precision cell: "16.32", a vocabulary word, or the words it holds; two different
    precisions in one label ("INT8/BF16") are a mixed precision."""
    cleaned = clean_text(label)
    pair = _PAIR.match(cleaned)
    if pair and pair.group(1) in _bits() and pair.group(2) in _bits():
        return Precision(cleaned, _bits()[pair.group(1)], _bits()[pair.group(2)])
    word = _words().get(_key(fold_words(cleaned)))
    if word is not None:
        return Precision(cleaned, *word)
    found = find_precisions(cleaned)
    if not found:
        return _bit_width(cleaned)
    # "BF16 model, FP8 KV cache": the run's precision, its cache's type aside
    found = tuple(p for p in found if not names_cache_types_only(p.text)) or found
    if len({p.activation for p in found}) > 1 and not _qualifies_first(cleaned):
        return Precision(cleaned, "mixed", None)
    return Precision(cleaned, found[0].activation, found[0].weight)


def _qualifies_first(text: str) -> bool:
    """'FP16 (AMP)', 'fp8 w/ fp8 KVCache': a precision with a remark, not two of them."""
    return bool(re.search(r"\(|\bw/|\bwith\b", text))


def precision_of_header(header: str, comparison: bool) -> Precision | None:
    """The precision a column header states: for a comparison ("speedup (TF32 to mixed
    precision)") the one compared, the last, unless the last is named as the baseline
    ("MXFP6 % Gain over FP16", "INT8 speedup vs FP32"); else the first."""
    found = find_precisions(header)
    if not found:
        return _float_of_header(header) or _bit_width(header)
    if not comparison:
        return found[0]
    last = found[-1]
    if len(found) > 1 and _BASELINE_BEFORE.search(_text_before_last(header, last.text)):
        return found[-2]
    return last


# A header's (or a header level's) leading or bracketed "float" ("Float Top-1", "浮点Top-1",
# "yolov7_tiny / float Accuracy", "mAP (float)") names the unquantized model's column beside
# the quantized one's: FP32, as the word reads in a cell.
_FLOAT_QUALIFIER = re.compile(
    r"(?:^|\s/\s)\s*(?:float(?:ing[ -]?point)?(?![a-z0-9])|浮点)(?!\s*(?:ops|operations|算力))"
    r"|[(\[]\s*(?:float|fp|浮点)\s*[)\]]",
    re.I,
)


def _float_of_header(header: str) -> Precision | None:
    match = _FLOAT_QUALIFIER.search(header)
    if match is None:
        return None
    fp32 = read_precision_label("float")
    return (
        None
        if fp32 is None
        else Precision(match.group(0).strip(" /()[]"), fp32.activation, fp32.weight)
    )


# "8bit-acc", "8bits Accuracy", "32-bit", "4 bit": a width in bits that a header or a
# precision cell names the run's numbers by, alone ("8-bit Adam" is an optimizer's states,
# and running text names widths of many things: it is read in headers and labels only).
_BIT_WIDTH = re.compile(r"(?<![a-z0-9.])(\d{1,2})[ -]?bits?(?![a-z0-9])", re.I)


def _bit_width(text: str) -> Precision | None:
    """The precision of the one width in bits `text` names (see bit_widths.csv)."""
    if "bit" not in text.lower():
        return None
    found = {match.group(1): match.group(0) for match in _BIT_WIDTH.finditer(clean_text(text))}
    if len(found) != 1:
        return None  # none, or widths compared ("8-bit vs 16-bit")
    ((bits, spelled),) = found.items()
    dtypes = _bit_widths().get(bits)
    return None if dtypes is None else Precision(spelled, *dtypes)


# Words that name what follows them as the baseline of a comparison: "over FP16", "vs. FP32".
_BASELINE_BEFORE = re.compile(
    r"(?<![a-z])(?:over|vs\.?|versus|than|against|relative to|compared (?:to|with))\s*$", re.I
)


def _text_before_last(header: str, text: str) -> str:
    at = header.lower().rfind(text.lower())
    return header[:at] if at >= 0 else ""


# A dtype a key-value cache is stored in: "kv int8", "KV cache FP8", "kv_cache_dtype=fp8",
# "FP8 KV-cache", "INT4/INT8 KV Cache"
_DTYPE_WORD = r"(?:[a-z]{0,5}\d{1,2}(?:[a-z]\d)?[a-z]{0,3})"
_CACHE_TYPES = re.compile(
    rf"(?<![a-z0-9]){_CACHE_WORDS}(?: ?dtype)?{_CACHE_VERB}[\s=:_`-]{{0,3}}{_DTYPE_WORD}"
    rf"`?(?![a-z0-9])|(?<![a-z0-9]){_DTYPE_WORD}(?: ?/ ?{_DTYPE_WORD})*[\s_-]{{0,2}}"
    rf"{_CACHE_WORDS}(?![a-z0-9])"
)


@lru_cache(maxsize=4_096)
def names_cache_types_only(text: str) -> bool:
    """Whether every dtype a precision label states is a key-value cache's ("kv int8"
    beside "kv fp16", "INT4/INT8 KV Cache"): the cache's type, not the weights' nor the
    activations'. "fp8 w/ fp8 KVCache" states the run's fp8 too."""
    folded = fold_words(clean_text(text))
    if "kv" not in folded and "cache" not in folded:
        return False
    without = _CACHE_TYPES.sub(" ", folded)
    return without != folded and not find_precisions(without)

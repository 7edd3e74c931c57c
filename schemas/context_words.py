"""Words of a context text that state no label of its table: the names of files, scripts and
links it holds ("run_benchmark.sh", "https://..."), and a chip's rated compute with the
precision it is rated in ("26 TOPS INT8"), which is no precision of the runs."""

from __future__ import annotations

import re
from functools import lru_cache

from perfledger.schemas.header_reading import role_matches
from perfledger.schemas.precisions import is_precision_word
from perfledger.schemas.unknown_chips import read_hardware

# A name ends at a comma or Chinese punctuation as at a space ("input_len=2048，TPS 为...",
# its comma folded to ","): "TPS" is a word of the sentence, not of the name.
_NAME_CHARS = r"[^\s,;\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]"
_NAMES = re.compile(
    rf"{_NAME_CHARS}*[A-Za-z0-9]_[A-Za-z0-9]{_NAME_CHARS}*|(?:https?://|www\.){_NAME_CHARS}+"
    rf"|{_NAME_CHARS}+\.(?:sh|py|ipynb|ya?ml|json|txt|md|rst|cfg|toml|conf|log|csv|html?)\b"
)


@lru_cache(maxsize=65_536)
def without_names(text: str) -> str:
    # Every name holds "_", "/", "www." or a file's extension: most sentences, ending in a
    # full stop, hold none, and are not scanned for one.
    named = "_" in text or "/" in text or ("." in text and _NAMED_DOT.search(text) is not None)
    return _NAMES.sub(_unless_precision, text) if named else text


def _unless_precision(name: re.Match[str]) -> str:
    # "Q4_K_M", "Q8_0": a quantization type written as llama.cpp writes it, no file's name;
    # "nvidia_a100-sxm4-80gb": a device's name as its driver writes it, whole
    text = name.group(0)
    return text if is_precision_word(text) or _names_device_whole(text) else " "


def _names_device_whole(text: str) -> bool:
    mention = read_hardware(text, "label")
    return mention is not None and mention.accelerator is not None and mention.text == text


# A chip's rated compute with the precision it is rated in ("26 TOPS INT8", "INT8: 26 TOPS",
# "10TOPS等效int8算力", "INT8 computing power"): the precision of the rating, not of the runs a
# table under it measured.
_RATED_DTYPE = r"(?:u?int ?\d{1,2}|fp ?\d{1,2}|bf ?16|tf ?32)"
_RATING = re.compile(
    rf"\d+(?:\.\d+)?\s*[tgp]ops(?![a-z])"
    rf"(?:[^\w\n]{{0,3}}(?:equivalent\s*|等效|dense\s*|sparse\s*)?{_RATED_DTYPE}(?![a-z0-9]))?"
    rf"|(?<![a-z0-9]){_RATED_DTYPE}\s*(?:[:：]\s*)?(?:\d+(?:\.\d+)?\s*)?[tgp]ops(?![a-z])"
    rf"|(?<![a-z0-9]){_RATED_DTYPE}\s*(?:算力|compute power|computing power|peak)",
    re.I,
)


def without_ratings(text: str) -> str:
    """`text` without the rated compute of a chip stated with its precision."""
    return _RATING.sub(" ", text) if "ops" in text.lower() or "算力" in text else text


_NAMED_DOT = re.compile(
    r"www\.|\.(?:sh|py|ipynb|ya?ml|json|txt|md|rst|cfg|toml|conf|log|csv|html?)\b"
)


# Two figures a heading or caption joins ("Quality and performance", "Latency vs.
# throughput"): the section holds tables of both, so the text names neither one's metric.
_JOINING = re.compile(r"\s*(?:and|&|or|vs\.?|versus|/|,)\s*")
_AND_PERFORMANCE = re.compile(r"\s*(?:and|&|vs\.?|versus)\s+(?:performance|speed)(?![a-z])")
_PERFORMANCE_AND = re.compile(r"(?<![a-z])(?:performance|speed)\s+(?:and|&|vs\.?|versus)\s*$")


@lru_cache(maxsize=8_192)
def joins_two_figures(folded: str) -> bool:
    """Whether `folded` (a heading's or caption's folded words) joins two different figures:
    two metric words ("accuracy and latency") or one and a word for speed ("quality and
    performance")."""
    spans = sorted(
        (start, end, rule.role)
        for start, end, rule in role_matches(folded)
        if rule.kind == "metric"
    )
    for (_, end, role), (start, _, other) in zip(spans, spans[1:], strict=False):
        if role != other and _JOINING.fullmatch(folded[end:start]):
            return True
    return any(
        _AND_PERFORMANCE.match(folded, end) or _PERFORMANCE_AND.search(folded[:start])
        for start, end, _role in spans
    )

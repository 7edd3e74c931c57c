"""The dataset a table's heading or caption names: a model zoo's section per dataset
("Cityscapes", "Pascal VOC" over their tables), a caption saying what a run read ("Tested on
H200 with Qwen3-30B-A3B-Base model and ShareGPT dataset"). Its values were measured on it,
unless their rows or columns name another."""

from __future__ import annotations

import re
from functools import lru_cache

from perfledger.schemas.identities import dataset_named

_WORD = re.compile(r"[^\W_]+(?:[.-][^\W_]+)*")
_LONGEST = 3  # words of the longest name ("Oxford IIIT Pet", "Pascal VOC 2012")
# Words naming a dataset only as a kind of data, not one dataset: a heading's "Synthetic
# benchmark" or "Random inputs" says how the data was made; "Wiki" or "arXiv" are sources.
# "Arc" in a heading is more often Intel's GPUs than the reasoning challenge ("ARC-c" is read).
_KINDS_OF_DATA = frozenset(
    {
        "random",
        "synthetic",
        "fake",
        "dummy",
        "generated",
        "wiki",
        "arxiv",
        "reddit",
        "kaggle",
        "arc",
    }
)


@lru_cache(maxsize=16_384)
def dataset_in_text(text: str) -> str | None:
    """The one dataset `text` names by a known name of up to three words, as written; None
    when it names none, or several (a comparison across datasets)."""
    words = _WORD.findall(text)
    found: dict[str, str] = {}
    start = 0
    while start < len(words):
        if words[start].lower() in _KINDS_OF_DATA:
            start += 1
            continue
        for end in range(min(len(words), start + _LONGEST), start, -1):
            phrase = " ".join(words[start:end])
            dataset = dataset_named(phrase)
            if dataset is not None:
                found.setdefault(dataset, phrase)
                start = end - 1
                break
        start += 1
    return next(iter(found.values())) if len(found) == 1 else None


# A line of the prose giving the dataset by name: "**Dataset**: ILSVRC 2012" under a table,
# "数据集：COCO".
_DATASET_LINE = re.compile(
    r"(?i)^\W{0,3}(?:datasets?|data set|数据集)\W{0,3}\s*[:\uff1a]\s*(.{2,60})$"
)


# A sentence calling a name a dataset: "obtained from running test on COCO dataset in PC",
# "evaluated on the ImageNet validation set".
_CALLED_A_DATASET = re.compile(
    r"(?i)\b(?:on|using|with|from) (?:the )?(?P<name>[^\W_][\w.+-]*(?: [\w.+-]+){0,2}) "
    r"(?:data ?sets?|val(?:idation)? sets?|test sets?)\b"
)


def dataset_of_context(text: str, source: str) -> str | None:
    """The dataset a caption or heading names, or a line of the prose names by its word
    ("Dataset: ILSVRC 2012"): the name the vocabulary knows in it, else the name as written;
    or the one known dataset a paragraph names and calls a dataset."""
    if source in ("caption", "heading"):
        return dataset_in_text(text)
    if source != "paragraph":
        return None
    if ":" not in text and "\uff1a" not in text:
        return _called_a_dataset(text)
    line = _DATASET_LINE.match(text.strip())
    if line is None:
        return _called_a_dataset(text)
    named = line.group(1).strip(" *_.")
    return dataset_in_text(named) or (named if any(map(str.isalpha, named)) else None)


def _called_a_dataset(text: str) -> str | None:
    """The one dataset a paragraph names, when a sentence of it calls that name a dataset
    (a paragraph naming two, a comparison or a training set beside a test set, names none)."""
    called = {dataset_in_text(match.group("name")) for match in _CALLED_A_DATASET.finditer(text)}
    if not called - {None}:
        return None
    named = dataset_in_text(text)
    return named if named in called else None

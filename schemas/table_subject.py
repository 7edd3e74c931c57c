"""What a table is about where its rows and columns do not say: the model its caption, the
headings above it or the page title name, and whether it measures training or inference.

A model named only around the table ("ResNet50 v1.5 For PyTorch", a TensorRT-LLM table
under "#### Llama 3.3 70B", a setup line "- Model: DeepseekV3-q4km" of its section) labels
the values whose row and column name none: the nearest text that names exactly one model wins (a heading naming two models settles nothing), and
the user's `perfledger map-label table` or `map-label source` mapping comes before all.
A table's workload comes from its column headers ("ISL/OSL", "QPS", "TTFT" are inference;
"Epochs", "MFU" training, schemas/vocab/workload_cues.csv), else from the page title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from perfledger.schemas.folding import clean_text
from perfledger.schemas.label_mappings import LabelMappings
from perfledger.schemas.labels import setting_items
from perfledger.schemas.model_names import (
    family_in_text,
    models_in_text,
    size_in_text,
    sized,
    unknown_model_in_text,
)
from perfledger.schemas.table_context import ContextText, TableContext
from perfledger.schemas.vocabulary import read_vocab

MODEL_SOURCES = ("caption", "heading", "title")  # context texts that may name the model


@dataclass(frozen=True)
class TableSubject:
    model: str | None = None  # the model as the context names it
    model_source: str | None = None  # caption, heading, title or mapping
    family: str | None = None  # a family named without a size, for rows naming sizes only
    workload: str | None = None
    workload_source: str | None = None  # column or title


NOTHING = TableSubject()


def table_key(source_id: str, table_index: int) -> str:
    """How `perfledger map-label table` names a table: its source and its index."""
    return f"{source_id}#{table_index}"


def table_subject(
    context: TableContext,
    headers: tuple[str, ...],
    source_id: str | None,
    table_index: int,
    mappings: LabelMappings,
) -> TableSubject:
    model, model_source = _mapped_model(source_id, table_index, mappings)
    if model is None:
        model, model_source = _context_model(context)
    workload, workload_source = _headers_workload(headers), "column"
    if workload is None:
        title = next((text.text for text in context.texts if text.source == "title"), None)
        workload, workload_source = (_text_workload(title), "title") if title else (None, None)
    return TableSubject(
        model,
        model_source,
        _context_family(context),
        workload,
        workload_source if workload else None,
    )


def _mapped_model(
    source_id: str | None, table_index: int, mappings: LabelMappings
) -> tuple[str | None, str | None]:
    if not mappings or source_id is None:
        return None, None
    for kind, text in (("table", table_key(source_id, table_index)), ("source", source_id)):
        mapped = mappings.get(kind, text)
        if mapped and mapped.get("model"):
            return mapped["model"], "mapping"
    return None, None


# A line of the run's setup naming its model ("- Model: DeepseekV3-q4km (int4)", "模型：
# Qwen2.5-7B", a settings table's "Model | Llama 2 70B" row): the model of the tables its
# section holds, as its "CPU:" and "GPU:" lines give their platform.
_SETUP_MODEL = re.compile(
    r"^\W{0,3}(?:model(?:\s+name)?|\u6a21\u578b(?:\u540d\u79f0)?)\s*[:\uff1a]\s*"
    r"(?P<name>[^\s,;:()]{2,60}(?:\s[^\s,;:()]{1,30}){0,3}?)\s*(?:\(.*\))?\s*$",
    re.I,
)


def _setup_line(text: str) -> re.Match[str] | None:
    """The setup line naming a model that a text is, or that one item of its list of
    "Name=Value" settings is ("..., Model=Llama 3.2 3B, Batch size=2, ...")."""
    found = _SETUP_MODEL.match(text)
    if found is not None or "=" not in text:
        return found
    return next(filter(None, map(_SETUP_MODEL.match, setting_items(text))), None)


def _setup_model(text: str) -> str | None:
    """The model a setup line names: the model it names that a catalogue knows, else a name
    written as one word with a version or size in it ("DeepseekV3-q4km"), as written (a model
    no catalogue knows loads as published and is listed); words ("The draft model path",
    a parameter's description) name none."""
    found = _setup_line(text)
    if found is None:
        return None
    name = found.group("name")
    named = models_in_text(name)
    if len({reading.base for _phrase, reading in named}) == 1:
        return named[0][0]
    return name if " " not in name and any(character.isdigit() for character in name) else None


def _context_model(context: TableContext) -> tuple[str | None, str | None]:
    texts = [
        text
        for text in context.texts
        if text.source in MODEL_SOURCES or (text.source == "paragraph" and _setup_line(text.text))
    ]
    # The setup listed in the page's earlier prose (a "Settings" section beside the table's
    # own), nearest first, is nearer than the page's title, as the platform it lists is.
    earlier = [ContextText("paragraph", text) for text in context.prose if _setup_line(text)]
    if earlier:
        titles = [text for text in texts if text.source == "title"]
        texts = [text for text in texts if text.source != "title"] + earlier[:1] + titles
    for text in texts:
        if text.source == "paragraph":
            model = _setup_model(text.text)
            if model is not None:
                return model, text.source
            continue
        named = models_in_text(text.text)
        identities = {reading.base for _phrase, reading in named}
        if len(identities) == 1:
            return named[0][0], text.source
        # A model no catalogue knows, named as one ("Performance of GPT-1.3B"), loads as
        # written and is listed, as unknown hardware does.
        unknown = None if identities else unknown_model_in_text(text.text)
        # "#### Model: Nemotron_3_5_Lightning": a heading written as a setup line names its
        # tables' model as that line does
        unknown = unknown or (None if identities else _setup_model(text.text))
        if unknown is not None:
            return unknown, text.source
    # "### Llama Throughput" over "#### A10 7b, fp16": a family and, nearer, a size.
    for position, text in enumerate(texts):
        size = size_in_text(text.text)
        if size is None:
            continue
        family = next(
            (found for farther in texts[position:] if (found := family_in_text(farther.text))), None
        )
        return (sized(family, size), text.source) if family else (None, None)
    member = _member_in_prose(context) or _model_of_the_run(context)
    if member is not None:
        return member, "paragraph"
    # "# YOLOv8" over a model's own page: a heading that is a family's name and nothing else
    # names the model its tables ran, whatever size its rows leave unsaid.
    for text in texts:
        if text.source != "paragraph" and _names_family_alone(text.text):
            return clean_text(text.text), text.source
    return None, None


def _member_in_prose(context: TableContext) -> str | None:
    """The one model of the family a caption, heading or title names that the prose around
    the table names ("BitNet Inference Kernel" over "tailored for use with the
    BitNet-b1.58-2B-4T model"), nearest paragraph first. The nearest paragraph naming any model settles
    it: naming two, or one of another family (the baseline of a comparison), it names none."""
    family = _context_family(context)
    if family is None:
        return None
    paragraphs = [text.text for text in context.texts if text.source == "paragraph"]
    for paragraph in (*paragraphs, *context.prose):
        named = {reading.base: phrase for phrase, reading in models_in_text(paragraph)}
        if named:
            (model, phrase), *others = named.items()
            return phrase if not others and model and _in_family(model, family) else None
    return None


# Words naming the model a benchmark ran, right before its name: "tested on Tesla T4 with a
# model of Transformer-base", "a fr2en translation model which is a Transformer-big",
# "measured on Llama-3-8B with 4 x RTX 4090".
_RUN_MODEL = re.compile(
    r"(?i)\b(?:model (?:of|which is|that is)|(?:tested|measured|benchmarked|evaluated|run) "
    r"(?:on|with|using))\s+(?:an?\s+|the\s+)?(?P<name>[^\s,;:()]+(?:\s[^\s,;:()]+){0,3})"
)


def _model_of_the_run(context: TableContext) -> str | None:
    """The one model the nearest of the table's paragraphs naming any model says its benchmark
    ran ("... with a model of Transformer-base"); one naming it otherwise (a comparison's
    other side: "Compared with Transformer-big") names none."""
    paragraphs = [text.text for text in context.texts if text.source == "paragraph"]
    runs = [
        {
            reading.base: phrase
            for match in _RUN_MODEL.finditer(paragraph)
            for phrase, reading in models_in_text(match.group("name"))
        }
        for paragraph in paragraphs
    ]
    if not any(runs):
        return None  # whichever paragraph names a model first, it names no run's
    for paragraph, ran in zip(paragraphs, runs, strict=True):
        if models_in_text(paragraph):
            return next(iter(ran.values())) if len(ran) == 1 else None
    return None


def _in_family(model: str, family: str) -> bool:
    return model == family or model.startswith((f"{family} ", f"{family}-"))


def _names_family_alone(text: str) -> bool:
    family = family_in_text(text)
    return family is not None and _folded_name(family) == _folded_name(text)


_SEPARATORS = re.compile(r"[\s_-]+")


def _folded_name(text: str) -> str:
    return _SEPARATORS.sub("", clean_text(text)).casefold()


def _context_family(context: TableContext) -> str | None:
    for text in context.texts:
        if text.source in MODEL_SOURCES:
            family = family_in_text(text.text)
            if family is not None:
                return family
    return None


@cache
def _cues() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple(
        (re.compile(row["pattern"]), row["workload"])
        for row in read_vocab("workload_cues.csv").iter_rows(named=True)
    )


@lru_cache(maxsize=16_384)
def _text_workload(text: str) -> str | None:
    """The workload one header or title names, when it names one only."""
    folded = clean_text(text)[:500].lower()
    found = {workload for pattern, workload in _cues() if pattern.search(folded)}
    return found.pop() if len(found) == 1 else None


def _headers_workload(headers: tuple[str, ...]) -> str | None:
    found = {
        workload
        for header in headers
        if header
        for workload in (_text_workload(header),)
        if workload
    }
    return found.pop() if len(found) == 1 else None

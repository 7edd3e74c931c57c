"""Canonical labels: platforms, precisions, models, frameworks, SDK versions and workloads.

Each resolver maps the distinct labels of a frame through a vocabulary under schemas/vocab/
and returns a lookup frame to join back, so the cost grows with the number of distinct
labels, not rows. A label the vocabulary does not know resolves to nulls; the caller
decides whether that is a quarantine (platform) or a pass-through (model names).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from typing import TypeVar

import polars as pl

from perfledger.schemas.vocabulary import read_vocab

_Column = TypeVar("_Column", pl.Expr, pl.Series)


def fold_key(expr: _Column) -> _Column:
    """Label key: NFKC, lower case, letters and digits only ('ResNet-50 v1.5' -> 'resnet50v15')."""
    return expr.str.normalize("NFKC").str.to_lowercase().str.replace_all(r"[^a-z0-9+]", "")


MAX_ACCELERATORS = 10_000_000  # far above any system; a larger count is not a real one


@cache
def _platform_rules() -> tuple[tuple[re.Pattern[str], dict[str, str]], ...]:
    rules = []
    for row in read_vocab("platforms.csv").iter_rows(named=True):
        rules.append((re.compile(row.pop("pattern")), row))
    return tuple(rules)


def _expand(template: str, match: re.Match[str]) -> str:
    return re.sub(r"\$(\d)", lambda ref: match.group(int(ref.group(1))), template)


def _evaluate_count(expression: str) -> int | None:
    """The accelerator count a rule gives, or None past any real system: a label such as
    'Bow Pod' + 5,000 nines would make int() refuse it, or overflow Int64."""
    product = 1
    for factor in expression.split("*"):
        if len(factor) > len(str(MAX_ACCELERATORS)):
            return None
        product *= int(factor)
    return product if product <= MAX_ACCELERATORS else None


def resolve_platforms(labels: pl.Series) -> pl.DataFrame:
    """platform label -> vendor, system, accelerator, accelerator_count (nulls when unknown)."""
    rows = []
    distinct = labels.drop_nulls().unique()
    # One query folds every label; a query per label costs more than the folding.
    keys = pl.select(fold_key(distinct.cast(pl.String).alias("key"))).to_series().to_list()
    for label, key in zip(distinct.to_list(), keys, strict=True):
        resolved = {"platform": label}
        for pattern, values in _platform_rules():
            match = pattern.fullmatch(key)
            if match is None:
                continue
            count = _evaluate_count(_expand(values["accelerator_count"], match))
            if count is None:
                continue  # no such system: the label stays unresolved and is quarantined
            resolved |= {
                "vendor": values["vendor"],
                "system": _expand(values["system"], match),
                "accelerator": values["accelerator"],
                "accelerator_count": count,
            }
            break
        rows.append(resolved)
    schema = {
        "platform": pl.String,
        "vendor": pl.String,
        "system": pl.String,
        "accelerator": pl.String,
        "accelerator_count": pl.Int64,
    }
    return pl.DataFrame(rows, schema=schema)


def _alias_lookup(vocab: str, key_column: str = "alias") -> pl.DataFrame:
    return read_vocab(vocab).rename({key_column: "key"})


def canonical_model(label: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """Model canonical name and item kind via models.csv; unknown models keep their label."""
    models = _alias_lookup("models.csv")
    key = fold_key(label)
    name = key.replace_strict(models["key"], models["model"], default=None)
    kind = key.replace_strict(models["key"], models["item_kind"], default=None)
    cleaned = label.str.normalize("NFKC").str.strip_chars(" \u00a0")
    return pl.coalesce(name, cleaned), kind


def framework_in_brackets(text: str) -> str | None:
    """The framework a heading or caption names in brackets after what it measured ("0.5B
    (vLLM)", "Qwen3-0.6B (SGLang)"): the runs of the table under it ran on it."""
    if "(" not in text:
        return None
    return next((inner for inner in _BRACKETED.findall(text) if known_framework(inner)), None)


_BRACKETED = re.compile(r"\(\s*([^()]{1,40}?)\s*\)")


def framework_alone(text: str) -> str | None:
    """The framework a heading or caption names and nothing else ("TensorRT", "OpenVINO",
    "TFLite" over a device matrix's sections): the runs of the tables under it ran on it."""
    name = text.strip(" *_`#:")
    # the vocabulary's keys keep Latin words only: "已验证支持的 Paddle 模型" (the Paddle models
    # verified) is no heading naming Paddle alone
    return (
        name if len(name) <= _FRAMEWORK_CHARS and name.isascii() and known_framework(name) else None
    )


_FRAMEWORK_CHARS = 40


def framework_of_backend(text: str) -> str | None:
    """The framework or graphics API a heading or caption names as the backend its runs used
    ("GGUF Q4_K_M — D3D12 Backend (Projected)", "ONNX Runtime Web: WebGPU backend")."""
    if "backend" not in text.lower():
        return None
    found = _BACKEND.search(text)
    if found is None:
        return None
    before, word = found.group(1), found.group(2)
    named = [f"{before} {word}", word] if before else [word]
    return next((name for name in named if known_framework(name)), None)


# The name before "backend": one word, or two where the framework takes two ("ONNX Runtime").
_BACKEND = re.compile(r"(?i)\b(?:([a-z][\w.+-]{0,20}) )?([a-z][\w.+-]{1,20})\s+back-?ends?\b")


def canonical_framework(label: pl.Expr) -> pl.Expr:
    frameworks = _alias_lookup("frameworks.csv")
    key = fold_key(label)
    return key.replace_strict(frameworks["key"], frameworks["framework"], default=None)


def split_sdk(label: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """'SDK 3.3' -> ('3.3', False); 'Pre-SDK2.5' -> ('2.5', True)."""
    text = label.str.normalize("NFKC").str.to_lowercase().str.strip_chars()
    parts = text.str.extract_groups(
        r"^(?P<pre>pre[- ]?)?(?:poplar\s*)?(?:sdk|version|ver\.?|v)?\s*(?P<ver>\d+(?:\.\d+){0,3})"
        r"(?P<tail>[a-z0-9.+-]*)$"
    )
    version = parts.struct.field("ver") + parts.struct.field("tail").fill_null("")
    return version, parts.struct.field("pre").is_not_null()


def split_precision(label: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """'16.32' -> ('fp16', 'fp32'): X.Y is activations-and-gradients.weights; words via vocab."""
    bits = read_vocab("precision_bits.csv")
    words = read_vocab("precisions.csv")
    text = label.str.normalize("NFKC").str.to_lowercase().str.strip_chars()
    pair = text.str.extract_groups(r"^(?P<act>\d{1,2})\s*[./]\s*(?P<wt>\d{1,2})$")

    def dtype_of(field: str) -> pl.Expr:
        return pair.struct.field(field).replace_strict(bits["bits"], bits["dtype"], default=None)

    word_key = text.str.replace_all(r"[^a-z0-9]", "")
    word_act = word_key.replace_strict(words["word"], words["activation_dtype"], default=None)
    word_wt = word_key.replace_strict(words["word"], words["weight_dtype"], default=None)
    return pl.coalesce(dtype_of("act"), word_act), pl.coalesce(dtype_of("wt"), word_wt)


def workload_and_phase(*texts: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """The first of `texts` (most specific first) that names a workload or phase wins."""
    rules = read_vocab("workloads.csv")
    workload: pl.Expr = pl.lit(None, dtype=pl.String)
    phase: pl.Expr = pl.lit(None, dtype=pl.String)
    for text in reversed(texts):
        folded = text.str.to_lowercase()
        for row in reversed(list(rules.iter_rows(named=True))):
            hit = folded.str.contains(row["pattern"]).fill_null(False)
            workload = pl.when(hit).then(pl.lit(row["workload"])).otherwise(workload)
            if row["phase"]:
                phase = pl.when(hit).then(pl.lit(row["phase"])).otherwise(phase)
    return workload, phase


# ---- the same resolvers for one label at a time (the table reader works per table) --------

_KEY_DROP = re.compile(r"[^a-z0-9+]")


def label_key(text: str) -> str:
    """`fold_key` of one label: NFKC, lower case, letters, digits and '+' only."""
    return _KEY_DROP.sub("", unicodedata.normalize("NFKC", text).lower())


@cache
def _alias_table(vocab: str) -> dict[str, dict[str, str | None]]:
    return {row.pop("alias"): row for row in read_vocab(vocab).iter_rows(named=True)}


def model_name(label: str) -> tuple[str, str | None]:
    """(canonical model, what its throughput counts) of a model label, read by its structure
    (schemas/model_names.py); an unknown model keeps its label."""
    reading = _model_reading(label)
    return reading.canonical, reading.item_kind


def known_model(label: str) -> bool:
    return _model_reading(label).known


def _model_reading(label: str):
    # model_names reads keys with label_key: imported here, where it is first needed.
    from perfledger.schemas.model_names import read_model

    return read_model(label)


@lru_cache(maxsize=4096)
def framework_of_run(sentence: str) -> str | None:
    """The framework a paragraph saying where its runs ran names with its release ("tested
    on ascend 910* with mindspore 2.5.0 graph mode", "using PyTorch 2.1.0"); a framework named
    without one is more often one spoken of than the one used."""
    for match in _RUN_SOFTWARE.finditer(sentence):
        name = match.group("name")
        if known_framework(name):
            return name
        first = name.split()[0]
        if first != name and known_framework(first):  # "mindspore lite 2.5.0"
            return name
    return None


_RUN_SOFTWARE = re.compile(
    r"(?i)\b(?:with|using|under|on)\s+(?P<name>[a-z][\w.+-]*(?: [a-z][\w+-]*)?)"
    r"\s+v?(?:ersion\s*)?\d+(?:\.\d+)+"
)


def known_framework(label: str) -> bool:
    """Whether schemas/vocab/frameworks.csv names `label` ("ONNX", "PyTorch")."""
    return label_key(label) in _alias_table("frameworks.csv")


@lru_cache(maxsize=4096)
def framework_first(label: str) -> bool:
    """Whether `label` is a known framework, or starts with one and goes on in words of its
    own ("FlexLLMGen with Compression", "TensorRT w/ plugin")."""
    words = label.split()
    return any(known_framework(" ".join(words[:size])) for size in range(len(words), 0, -1))


_WORDS = re.compile(r"[^\W_]+")


@lru_cache(maxsize=4096)
def names_a_run(text: str) -> bool:
    """Whether `text` is a model the catalogue reads whole, or a word of it a framework that
    schemas/vocab/frameworks.csv names ("Keras 3 (JAX)", "Native PyTorch (compiled)")."""
    return known_model(text) or any(map(known_framework, _WORDS.findall(text)))


@lru_cache(maxsize=4096)
def names_a_framework(text: str) -> bool:
    """Whether a word of `text` is a framework schemas/vocab/frameworks.csv names ("PyTorch
    (ms)", "TensorRT FP16"): a column so headed ran on it, whatever its context names."""
    return any(map(known_framework, _WORDS.findall(text)))


@lru_cache(maxsize=4096)
def header_framework(text: str) -> str | None:
    """The framework a result column's header names: the whole header ("PyTorch", "ONNX
    Runtime"), else its one framework word ("Megatron Latency (ms)", "TensorRT FP16"); None
    when it names several ("TF/PyTorch speedup") or none."""
    alone = framework_alone(text)
    if alone is not None:
        return alone
    named = {word for word in _WORDS.findall(text) if known_framework(word)}
    return named.pop() if len(named) == 1 else None


# A bracketed part of a header: "RTX4090 (TensorRT)", "i7-12700 [OpenVINO]".
_BRACKETED_PART = re.compile(r"[(\[]\s*([^()\[\]]{1,40}?)\s*[)\]]")


@lru_cache(maxsize=4096)
def bracketed_framework(text: str) -> str | None:
    """The framework a header names in brackets after a chip ("RTX4090 (TensorRT)"): the one
    the column's runs used, or None."""
    for part in _BRACKETED_PART.findall(text):
        named = [word for word in _WORDS.findall(part) if known_framework(word)]
        if named:
            return named[0]
    return None


@lru_cache(maxsize=4096)
def framework_name(label: str) -> str | None:
    found = _alias_table("frameworks.csv").get(label_key(label))
    return found["framework"] if found else unicodedata.normalize("NFKC", label).strip()


_SDK = re.compile(
    r"^(?P<pre>pre[- ]?)?(?:poplar\s*)?(?:sdk|version|ver\.?|v)?\s*(?P<ver>\d+(?:\.\d+){0,3})"
    r"(?P<tail>[a-z0-9.+-]*)$"
)


@lru_cache(maxsize=4096)
def sdk_parts(label: str) -> tuple[str | None, bool | None]:
    """'SDK 3.3' -> ('3.3', False); 'Pre-SDK2.5' -> ('2.5', True); else (None, None)."""
    match = _SDK.match(unicodedata.normalize("NFKC", label).lower().strip())
    if match is None:
        return None, None
    return match.group("ver") + (match.group("tail") or ""), match.group("pre") is not None


@cache
def _workload_rules() -> tuple[tuple[re.Pattern[str], str, str | None], ...]:
    return tuple(
        (re.compile(row["pattern"]), row["workload"], row["phase"])
        for row in read_vocab("workloads.csv").iter_rows(named=True)
    )


@lru_cache(maxsize=16_384)
def workload_phase(text: str | None) -> tuple[str | None, str | None]:
    """(workload, phase) the first rules of schemas/vocab/workloads.csv find in `text`."""
    if not text:
        return None, None
    folded = text.lower()
    workload = phase = None
    for pattern, rule_workload, rule_phase in _workload_rules():
        if pattern.search(folded):
            if workload is not None and rule_workload != workload:
                # "Faster Training and Inference": a text naming both names neither
                return None, None
            workload = workload or rule_workload
            phase = phase or rule_phase
    return workload, phase


@lru_cache(maxsize=4096)
def platform_rule(label: str) -> tuple[str, str, str, int] | None:
    """(vendor, system, accelerator, count) of a whole platform label that a rule of
    schemas/vocab/platforms.csv names exactly ("Bow Pod16", "IPU-POD64 Classic")."""
    key = label_key(label)
    for pattern, values in _platform_rules():
        match = pattern.fullmatch(key)
        if match is None:
            continue
        count = _evaluate_count(_expand(values["accelerator_count"], match))
        if count is None:
            continue
        return (values["vendor"], _expand(values["system"], match), values["accelerator"], count)
    return None


# A batch size stated beside other labels: "Gaudi2 (BS=32)", "A100, batch=64", "RN50 BS256",
# "NGC PyTorch bsz=96".
_STATED_BATCH = re.compile(
    r"(?<![a-z0-9])(?:bsz?|batch(?:[ _-]?size)?|micro[ _-]?batch(?:[ _-]?size)?)"
    r"(?: ?[=:] ?| (?:of|is) | ?[为是] ?| ?(?=\d))(\d{1,6}(?:/\d{1,6})*)(?!\d|\.\d)"
)


# A batch written in Chinese as the images one inference takes at once: "单张推理" (one image),
# "八张并行推理" (eight images in parallel).
_CJK_IMAGES = {"单": "1", "一": "1", "双": "2", "两": "2", "二": "2", "四": "4", "八": "8"}
_IMAGES_AT_ONCE = re.compile(
    r"(?<![\u4e00-\u9fff\d])(\d{1,4}|[单一双两二四八])张(?:图片|图像)?(?:并行)?推理"
)


def stated_batch(text: str | None) -> str | None:
    """The batch size a label states among other words, as written ("32", "4/8"), or None."""
    if text and "\u5f20" in text:  # 张, the measure word of images
        found = _IMAGES_AT_ONCE.search(text)
        if found is not None:
            return _CJK_IMAGES.get(found.group(1), found.group(1))
    if not text or not ("bs" in text.lower() or "batch" in text.lower()):
        return None
    match = _STATED_BATCH.search(text.lower())
    return match.group(1) if match else None


# A batch size written "b" and its number in a result column's header ("Speed T4 trt fp16 b1
# (fps)", "... b32 (fps)"): a small "b" alone before the number, which a model's name in
# capitals ("EfficientNet B4") or joined to another word ("vit_b16", "ResNet-b2") never is.
_BATCH_SHORTHAND = re.compile(r"(?<![\w.+/-])b(\d{1,4})(?![\w.+/-])")
# ... or as "B" and its number in parentheses, after a colon or an equals sign: docTR's
# "sec/it (B: 64)".
_BATCH_LETTER = re.compile(r"\(\s*[Bb]\s*[:=]\s*(\d{1,4})\s*\)")


def header_batch_shorthand(header: str | None) -> str | None:
    """The batch size a result column's header writes as "b1", "b32", "(B: 64)", or None."""
    if not header or ("b" not in header and "B" not in header):
        return None
    found = {match.group(1) for match in _BATCH_SHORTHAND.finditer(header)}
    if "(" in header:
        found.update(match.group(1) for match in _BATCH_LETTER.finditer(header))
    return found.pop() if len(found) == 1 else None


# A sentence listing a run's settings as "Name=Value" items: "Baseline uses Recipe=full_ft,
# Model=Llama 3.2 3B, Batch size=2, Precision=bf16, Hardware=A100" (torchtune's README).
_SETTING_ITEM = re.compile(r"(?:^|[,;])[^,;=\n]{1,40}=[ \t]*[^,;=\s]")
_ITEM_SPLIT = re.compile(r"[,;]\s*")
MIN_SETTING_ITEMS = 3


@lru_cache(maxsize=16_384)
def setting_items(text: str) -> tuple[str, ...]:
    """The "Name=Value" items of a sentence made of three or more of them, each as "Name:
    Value" with the words before the first item's name left out ("Baseline uses"); none for
    any other text (a formula "M = 31 x 512", one setting in prose)."""
    if text.count("=") < MIN_SETTING_ITEMS or len(_SETTING_ITEM.findall(text)) < MIN_SETTING_ITEMS:
        return ()
    items = []
    for part in _ITEM_SPLIT.split(text.strip()):
        name, equals, value = part.partition("=")
        if not equals or not value.strip():
            continue
        # "Baseline uses Recipe": the item's name is the last words before its "="
        name = name.split(".")[-1].strip()
        items.append(f"{name}: {value.strip()}")
    return tuple(items)


@lru_cache(maxsize=16_384)
def listed_batch(text: str) -> str | None:
    """The batch size a list of "Name=Value" settings states ("BATCH_SIZE=1, HEAD=1, DIM=64",
    "Model=..., Batch size=2, ..."), its name written as a program's setting or in words."""
    if "=" not in text:
        return None
    items = (item for item in setting_items(text) if _BATCH_NAME.match(item))
    return next(filter(None, map(stated_batch, items)), None)


# An item naming the batch size ("BATCH_SIZE: 1"); "model: resnet_bs32" names a file.
_BATCH_NAME = re.compile(r"(?i)\W{0,3}(?:bsz?|(?:micro|global|local)?[ _-]?batch(?:[ _-]?size)?):")

"""What a table row's label cells say of the values in it: platform, chip count, precision,
model, batch size and the row's other settings.

Cells under a named role (Platform, GPUs, Precision, Batch size...) count first; the words
of the row's other label cells ("IPU GIN model", "Llama-2-7B (compile + INT8)", "FastPitch
AMP", "1x Max 1550 w/ 2-Stack") fill only what those left open, and a section row above it
("8 GPUs") what both left open. Each distinct cell is read once, in Python (pages repeat their
labels from table to table and version to version); the rows are put together by polars.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

import polars as pl

from perfledger.schemas.cell_reading import read_cell
from perfledger.schemas.chip_counts import count_cell, parallel_count
from perfledger.schemas.column_types import ColumnTypes
from perfledger.schemas.folding import clean_text, fold_words
from perfledger.schemas.header_reading import HeaderReading
from perfledger.schemas.identities import canonical_dataset, dataset_named
from perfledger.schemas.label_mappings import NO_MAPPINGS, LabelMappings
from perfledger.schemas.labels import (
    framework_first,
    framework_in_brackets,
    framework_name,
    known_framework,
    known_model,
    model_name,
    platform_rule,
    sdk_parts,
    stated_batch,
    workload_phase,
)
from perfledger.schemas.model_names import is_model_file
from perfledger.schemas.name_headers import BITS_HEADER
from perfledger.schemas.platform_mentions import (
    PlatformMention,
    names_device,
)
from perfledger.schemas.precisions import (
    Precision,
    find_precisions,
    is_precision_word,
    read_precision_label,
    states_dtype,
)
from perfledger.schemas.table_chips import nearby_words
from perfledger.schemas.units import UNIT_FIELDS, Unit, unit_fields, unit_named
from perfledger.schemas.unknown_chips import read_hardware, unknown_chip

# Label roles a row's cells give, each filling the measurement column of its name.
DIMENSION_ROLES = (
    "model",
    "variant",
    "platform",
    "sdk_version",
    "framework",
    "dataset",
    "batch_size",
    "division",
    "quality_target",
    "mlperf_id",
)
_UNIT_LABEL_ROLES = ("variant", "dataset", "model")  # a rate unit under these is the row's unit
_SETTING_PREFIX = re.compile(
    r"^(?:bs|batch(?: size)?|precision|dtype|e|epochs?|mode)\s*[=:]\s*", re.I
)
_YES_WORDS = r"yes|y|true|on|\u2713|\u2714|\u2705"
_FLAG = re.compile(rf"(?i)^(?:{_YES_WORDS}|no|n|false|off|\u2717|\u2718|\u274c)$")
# A precision cell that says the run has none of its own ("None" under "Quantization")
_NO_PRECISION = re.compile(r"(?i)^\s*(?:none|no|off)\s*$")
_MEMO_CELLS = 200_000  # distinct cells remembered; hostile pages must not grow it forever

PLATFORM_FIELDS = {
    "chip": pl.String,
    "vendor": pl.String,
    "system_named": pl.String,
    "implied": pl.Int64,
    "platform_text": pl.String,
    "unknown_chip": pl.Boolean,
}
# What one label cell says, as the columns of a frame: the labels its role gives (r), those
# its words give in passing (f), and its settings, unresolved labels and unit.
CONTRIBUTION_SCHEMA: ColumnTypes = {
    "text": pl.String,
    **dict.fromkeys(DIMENSION_ROLES, pl.String),
    "model_canonical": pl.String,
    "model_item": pl.String,
    "variant_workload": pl.String,
    "phase": pl.String,
    "framework_canonical": pl.String,
    "sdk": pl.String,
    "sdk_prerelease": pl.Boolean,
    "batch_size_number": pl.Float64,
    "batch_local": pl.Boolean,  # the batch of one device or one step, not the run's
    **{f"rp_{name}": dtype for name, dtype in PLATFORM_FIELDS.items()},
    "rp_source": pl.String,
    "rp_unknown": pl.Boolean,
    "rc_n": pl.Int64,
    "rc_chip": pl.String,
    "rc_source": pl.String,
    "rc_stated": pl.Boolean,
    "rn_n": pl.Int64,
    "rq_text": pl.String,
    "rq_act": pl.String,
    "rq_wt": pl.String,
    **{f"fp_{name}": dtype for name, dtype in PLATFORM_FIELDS.items()},
    "fc_n": pl.Int64,
    "fc_chip": pl.String,
    "fq_text": pl.String,
    "fq_act": pl.String,
    "fq_wt": pl.String,
    **{f"u_{name}": dtype for name, dtype in UNIT_FIELDS.items()},
    "settings": pl.String,
    "unresolved": pl.String,
    "local_batch": pl.String,  # "MicroBatchSize=8": a setting where a global batch is the row's
}
SECTION_SCHEMA: ColumnTypes = {
    **{f"sp_{name}": dtype for name, dtype in PLATFORM_FIELDS.items()},
    "sc_n": pl.Int64,
    "sc_chip": pl.String,
    "sq_text": pl.String,
    "sq_act": pl.String,
    "sq_wt": pl.String,
    "sp_unknown": pl.Boolean,
    "s_model": pl.String,
    "s_model_canonical": pl.String,
    "s_model_item": pl.String,
    "s_variant": pl.String,
    "s_dataset": pl.String,
}


@dataclass
class _Cell:
    """What one label cell says, before it meets the row's other cells."""

    dims: dict[str, str] = field(default_factory=dict)
    platform: tuple[PlatformMention, str] | None = None  # (mention, source)
    count: tuple[PlatformMention, str] | None = None
    nodes: int | None = None  # nodes the row ran on, from a Nodes column
    precision: Precision | None = None
    unit: Unit | None = None
    settings: list[tuple[str, str]] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)
    free: list[str] = field(default_factory=list)  # texts read for labels in passing
    unknown_device: bool = False  # its platform is hardware no vocabulary knows


# ---- one cell ---------------------------------------------------------------------------------


def contribution(reading: HeaderReading, raw: str, mappings: LabelMappings) -> tuple:
    """A label cell's contribution to its row, ordered as CONTRIBUTION_SCHEMA."""
    if mappings:
        return _contribution(reading, raw, mappings)
    return _contribution_memo(reading, raw)


@lru_cache(maxsize=_MEMO_CELLS)
def _contribution_memo(reading: HeaderReading, raw: str) -> tuple:
    return _contribution(reading, raw, NO_MAPPINGS)


def _contribution(reading: HeaderReading, raw: str, mappings: LabelMappings) -> tuple:
    text = clean_text(raw)
    cell = _Cell()
    if text:
        if reading.parts:
            _composite(text, reading.parts, cell, mappings)
        else:
            # Labels are kept cleaned ("Bow\u200b Pod16" is "Bow Pod16"); the cells table
            # keeps every cell verbatim.
            _label_cell(text, reading, cell, mappings)
    free_platform, free_count, free_precision = _free_labels(tuple(cell.free))
    local_batch = _local_batch(reading)
    dims = cell.dims
    if not dims.get("batch_size") and reading.role != "batch_size":
        batch = stated_batch(text)  # "A100 (BS=32)": the row's batch size among its labels
        if batch is not None:
            dims = {**dims, "batch_size": batch}
    model = dims.get("model")
    canonical, item = _model(model, mappings)
    variant_workload, phase = workload_phase(dims.get("variant"))
    sdk, prerelease = sdk_parts(dims["sdk_version"]) if dims.get("sdk_version") else (None, None)
    framework = dims.get("framework")
    precision = cell.precision
    return (
        text or None,
        *(dims.get(role) for role in DIMENSION_ROLES),
        canonical,
        item,
        variant_workload,
        phase,
        framework_name(framework) if framework else None,
        sdk,
        prerelease,
        batch_number(dims.get("batch_size")),
        local_batch or None,
        *platform_fields(cell.platform[0] if cell.platform else None),
        cell.platform[1] if cell.platform else None,
        cell.unknown_device or None,
        *_count_fields(cell.count[0] if cell.count else None),
        cell.count[1] if cell.count else None,
        (cell.count is not None and cell.count[0].count_stated) or None,
        cell.nodes,
        *precision_fields(precision),
        *platform_fields(free_platform),
        *_count_fields(free_count),
        *precision_fields(free_precision),
        *unit_fields(cell.unit),
        "; ".join(f"{name}={value}" for name, value in cell.settings) or None,
        "; ".join(cell.unresolved) or None,
        f"{setting_name(reading)}={text}" if local_batch and text else None,
    )


# A batch of one device or one step of gradient accumulation ("MicroBatchSize", "Local batch
# size", "mbs", "images/gpu"), beside which a table may state the run's global batch
_LOCAL_BATCH = re.compile(
    r"(?i)micro|local|(?<![a-z])mbs(?![a-z])|(?:/|per) ?(?:gpu|card|device|chip)"
)


def _local_batch(reading: HeaderReading) -> bool:
    return reading.role == "batch_size" and _LOCAL_BATCH.search(reading.text) is not None


# A precision column naming the weights or the activations alone ("Weight Precision",
# "Precision of Weights", "Activation dtype"): its cells give that part's dtype, not both. The
# precision of the data ("Data精度" beside "ChatGLM-6b-int4") is the activations'.
_WEIGHTS_WORD = re.compile(r"(?<![a-z])weights?(?![a-z])")
_ACTIVATIONS_WORD = re.compile(r"(?<![a-z])(?:activations?|data(?= ?(?:precision|精度)))(?![a-z])")


def _of_part_named(header: str, precision: Precision | None) -> Precision | None:
    """`precision` as the column's header says it applies: to the weights or the
    activations alone, when the header names one of them and not the other."""
    if precision is None:
        return None
    folded = header.lower()
    weights = _WEIGHTS_WORD.search(folded) is not None
    activations = _ACTIVATIONS_WORD.search(folded) is not None
    if weights and not activations and precision.weight is not None:
        return Precision(precision.text, None, precision.weight)
    if activations and not weights and precision.activation is not None:
        return Precision(precision.text, precision.activation, None)
    return precision


def _composite(
    text: str, parts: tuple[HeaderReading, ...], cell: _Cell, mappings: LabelMappings
) -> None:
    """'1-card, BS=256, bf16' under '# Gaudi cards, Batch Size, Precision'."""
    values = [piece.strip() for piece in text.split(",")]
    if len(values) != len(parts):
        cell.free.append(text)
        return
    for value, reading in zip(values, parts, strict=True):
        _label_cell(_SETTING_PREFIX.sub("", value), reading, cell, mappings)


# A header naming a key-value cache ("kv type", "KV Cache", "kv_cache_dtype").
_CACHE_HEADER = re.compile(
    r"(?i)(?<![a-z])(?:kv|key[ -]?value)(?:[ _-]?cache)?(?:[ _-]|$)|\bkv ?cache"
)
_BIT_WIDTHS = frozenset({"1", "2", "4", "8", "16", "32"})
_SHAPE = re.compile(r"\d+(?:x\d+)+")  # "8x13312x16384": a tensor's dimensions
# A setting's figure with a remark in brackets after it ("1 (onnx fp32)", "32 (onnx int8)")
_COUNT_REMARK = re.compile(r"\d[\d,.]*\s*\(([^()]+)\)")


def _label_cell(text: str, reading: HeaderReading, cell: _Cell, mappings: LabelMappings) -> None:
    role = reading.role
    if role in _UNIT_LABEL_ROLES:
        unit = unit_named(text)
        if unit is not None and unit.kind == "rate":
            cell.unit = unit
            return
    if role == "platform" and framework_first(text) and not _names_chip(text):
        # "System | DeepSpeed ZeRO-Inference", "FlexLLMGen with Compression": software
        # compared under a "System" header ran on the page's hardware; it is the row's
        # framework, not a device no vocabulary knows
        cell.dims.setdefault("framework", text)
    elif role == "platform" or (reading.kind == "reference" and _names_chip(text)):
        # "Target | ESP32-S3": a quality target names no hardware; such a column names the
        # device the row ran on.
        _platform_cell(text, cell, mappings, nearby_words([reading.text]))
        if role == "platform" and (framework := framework_in_brackets(text)) is not None:
            # "NPU (FastFlowLM)", "iGPU (LM Studio)": the device and the runtime it ran
            cell.dims.setdefault("framework", framework)
    elif role == "accelerator_count":
        _count_cell(text, reading, cell, mappings)
    elif role in ("precision", None) and _CACHE_HEADER.search(reading.text):
        # "kv type | int8": the dtype the key-value cache keeps, published as the precision
        # but neither the weights' nor the activations' (see names_cache_types_only)
        cell.settings.append((reading.text, text))
        if cell.precision is None:
            cell.precision = Precision(text, None, None)
    elif role == "nodes" and count_cell(text) is not None:
        cell.nodes = count_cell(text)  # times its system's chips per node, if it names one
        cell.settings.append((setting_name(reading), text))
    elif role == "precision" and _NO_PRECISION.match(text):
        # "None" under "Quantization": the run is not quantized, which names no precision
        cell.settings.append((setting_name(reading), text))
    elif role == "precision" and _TUNING_METHOD.fullmatch(text):
        # "LoRA", "Full Parameters" under "Scheme": how a model was fine-tuned, no precision
        cell.settings.append((setting_name(reading), text))
    elif role == "precision" and known_framework(text) and _precision_label(text, mappings) is None:
        # "Format | ONNX": a column of formats holds the framework a model comes from
        cell.dims.setdefault("framework", text)
    elif role == "precision":
        if cell.precision is None:
            # a number under "bits" is a width in bits ("16" under "bits": 16-bit), and so is
            # a power of two alone under any precision ("8" under "Quantization": 8-bit)
            width = (
                text.strip()
                if BITS_HEADER.fullmatch(reading.text) or text.strip() in _BIT_WIDTHS
                else ""
            )
            label = f"{width}-bit" if width.isdigit() else text
            if _AMP_HEADER.search(reading.text):
                # "O2" under "amp": the level of mixed precision; "Yes": mixed precision
                level = _AMP_LEVEL.fullmatch(text.strip())
                label = f"amp {text.strip()}" if level else "amp" if _YES.match(text) else label
            precision = _of_part_named(reading.text, _precision_label(label, mappings))
            if precision is not None and label.startswith("amp "):
                precision = replace(precision, text=text)  # as published: "O2"
            cell.precision = precision or Precision(text, None, None)
            if precision is None or (precision.activation is None and precision.weight is None):
                cell.unresolved.append(f"precision={text}")
    elif role == "sdk_version" and not _DIGIT.search(text):
        # "🟢GEMV" under "Version": a variant of the software, named, no release of it
        cell.settings.append((setting_name(reading), text))
    elif role in DIMENSION_ROLES and _FLAG.match(text):
        cell.settings.append((setting_name(reading), text))  # "Yes", "No": a flag, no name
    elif role == "model" and is_precision_word(text) and states_dtype(text):
        # "Model | Int8" on a model's own page: the variant of the model that ran, its
        # precision; the model is the one the page is about
        if cell.precision is None:
            cell.precision = _precision_label(text, mappings)
    elif role in DIMENSION_ROLES:
        cell.dims.setdefault(role, text)
        if role in ("model", "variant"):
            cell.free.append(_without_target_chip(text))
    elif role is not None and reading.kind in ("config", "reference"):
        cell.settings.append((setting_name(reading), text))
        world = parallel_count(fold_words(text), whole=False)  # "FSDP 8, CP 1": 8 chips
        if world is not None and cell.count is None:
            cell.count = (PlatformMention(text, count=world, count_stated=True), "parallel")
        remark = _COUNT_REMARK.fullmatch(text)
        if remark is not None:
            # "1 (onnx fp32)" under "concurrent-tasks": the run's setting, with its remark
            # naming the run's precision (and hardware) in passing
            cell.free.append(remark.group(1))
        if cell.precision is None and _SHAPE.search(text):
            # an operand shape written with its dtype ("f16_8x13312x16384" under "Shape"):
            # the precision the kernel ran in
            found = find_precisions(text)
            cell.precision = found[0] if found else None
    else:
        if reading.kind is None and reading.text:
            cell.settings.append((reading.text, text))
        cell.free.append(text)
        if reading.kind is None and not _names_chip(text):
            # "OpenNMT-py 3.0.4 (with PyTorch 1.13.1)", "CTranslate2 3.6.0" in a column no
            # header names: the engines a table compares, each the framework of its row
            release = _SOFTWARE_RELEASE.match(text)
            if release is not None:
                cell.dims.setdefault("framework", release.group("name"))
                cell.dims.setdefault("sdk_version", release.group("version"))
            elif framework_first(text):
                cell.dims.setdefault("framework", text)
            elif is_model_file(text):  # "BModel | yolov5s_v6.1_3output_fp32_1b.bmodel"
                cell.dims.setdefault("model", text)
            elif dataset_named(text) is not None:
                # "lambada_openai", "hellaswag" under a corner naming the model: the tasks
                # a table of scores ran, each its row's dataset
                cell.dims.setdefault("dataset", text)
        if role == "mode" and (framework := framework_in_brackets(text)) is not None:
            cell.dims.setdefault("framework", framework)  # "Method | NPU (FastFlowLM)"


# Apex's and MindSpore's levels of automatic mixed precision: O0 is fp32, O3 fp16 throughout.
_AMP_LEVEL = re.compile(r"[Oo][0-3]")
_YES = re.compile(rf"(?i)^\s*(?:{_YES_WORDS})\s*$")
_AMP_HEADER = re.compile(r"(?i)(?<![a-z])amp(?![a-z])|auto(?:matic)? mixed precision")


# A chip's name written as a word of a model's name, after the name's first word and joined to
# it: "EfficientNet-EdgeTPU-S", "ssdlite_mobiledet_edgetpu_320x320", "MobileNet-EdgeTPU".
_JOINED_BEFORE = re.compile(r"[A-Za-z0-9][-_]$")
# A model file compiled for one device ("yolov5s_rk3588.rknn", "resnet50_hailo8.hef"): the chip
# its name holds is the device its numbers were measured on.
_COMPILED_MODEL = re.compile(
    r"\.(?:hef|rknn|bmodel|cvimodel|axmodel|om|engine|plan|trt|tflite|dlc|xmodel|kmodel|nb)$",
    re.I,
)


def _without_target_chip(text: str) -> str:
    """A model cell without a chip its name is built for ("EfficientNet-EdgeTPU-S"): a model
    designed for a chip is no run on it; a chip the cell names apart ("Llama-2-7B on H100",
    "ResNet50 (A100)") or a model file compiled for it ("yolov5s_rk3588.rknn") stays."""
    if _COMPILED_MODEL.search(text.rstrip()):
        return text
    mention = read_hardware(text, "label")
    if mention is None or mention.accelerator is None:
        return text
    start = text.lower().find(mention.text.lower())
    if start <= 0 or not _JOINED_BEFORE.search(text[:start]):
        return text
    return f"{text[:start]} {text[start + len(mention.text) :]}"


# Software named with its release: a version of three parts ("Marian 1.11.0"), or any version
# with the framework it ran on ("FasterTransformer 5.3 (with PyTorch 1.13.1)"). Models are
# released as "3.1" or "v2", rarely in three parts.
_SOFTWARE_RELEASE = re.compile(
    r"^(?P<name>[A-Za-z][\w.+-]*(?: [A-Za-z][\w.+-]*)?) v?(?P<version>\d+\.\d+"
    r"(?:\.\d+(?=(?:\s*\([^()]+\))*$)|(?:\.\d+)?(?=\s*\(with [^()]+\)(?:\s*\([^()]+\))*$)))"
)


_DIGIT = re.compile(r"\d")
# A way of fine-tuning a model, which a column of "schemes" may hold beside or instead of
# quantization schemes.
_TUNING_METHOD = re.compile(
    r"(?i)\s*(?:q?lora|dora|full(?:[- ](?:parameters?|params?|fine[- ]?tun(?:e|ing)|ft|sft))?"
    r"|freeze|p[- ]?tuning(?: ?v2)?|prefix[- ]tuning|adapters?)\s*"
)


def _names_chip(text: str) -> bool:
    mention = read_hardware(text, "label")
    return mention is not None and mention.accelerator is not None


def _platform_cell(text: str, cell: _Cell, mappings: LabelMappings, nearby: str = "") -> None:
    cell.dims.setdefault("platform", text)
    # "310P3" under "芯片型号" (chip model): the header's words make a bare name certain
    mention = platform_label(text, mappings, nearby)
    if mention is None or mention.accelerator is None or mention.names_device:
        cell.unresolved.append(f"platform={text}")
        # "8x Zeta-9": the row ran on hardware of its own, whatever the page names elsewhere.
        cell.unknown_device = names_device(text)
    if mention is not None:
        if mention.accelerator is not None:
            cell.platform = (mention, "row")
        if mention.count is not None:
            cell.count = (mention, "row")


# "GPUs per node", "gpu_num_per_node": a count of each node's chips, times the row's nodes
_PER_NODE = re.compile(r"(?i)(?<![a-z0-9])per[ _-]nodes?(?![a-z0-9])")


def _count_cell(text: str, reading: HeaderReading, cell: _Cell, mappings: LabelMappings) -> None:
    """A GPU-count cell: "8", or a platform written out ("1x Max 1550 w/ 1-Stack")."""
    chip = reading.platform if reading.platform and reading.platform.accelerator else None
    count = count_cell(text)
    if count is not None or text.isdigit():
        if count is not None:
            cell.count = (
                PlatformMention(
                    text,
                    count=count,
                    count_stated=True,
                    accelerator=chip.accelerator if chip else None,
                ),
                "per_node" if _PER_NODE.search(reading.text) else "row",
            )
            if chip is not None:  # "Number of GAUDIs": the header names the chip
                cell.platform = (replace(chip, count=count, count_stated=True), "column")
        return
    # "4090 24GB" under "GPU": the header's word makes the bare number a chip
    mention = platform_label(text, mappings, nearby_words([reading.text]))
    if mention is None:
        cell.settings.append((setting_name(reading), text))
        return
    if mention.accelerator is None and chip is not None:
        mention = replace(chip, count=mention.count, count_stated=True, text=text)
    if mention.accelerator is not None:
        cell.platform = (mention, "row")
    if mention.count is not None:
        cell.count = (mention, "row")


@lru_cache(maxsize=_MEMO_CELLS)
def _free_labels(
    texts: tuple[str, ...],
) -> tuple[PlatformMention | None, PlatformMention | None, Precision | None]:
    """The platform, chip count and precision texts state in passing, the first of each;
    hardware no vocabulary knows counts when its name is written as one ("8x Zeta-9",
    "Ingenic T40XP", "Zeta-9 GPU")."""
    platform = count = precision = None
    for text in texts:
        mention = read_hardware(text, "label")
        if mention is not None:
            if mention.accelerator is not None and platform is None:
                platform = mention
            if mention.count is not None and count is None:
                count = mention
        if precision is None:
            found = find_precisions(text)
            precision = found[0] if found else None
    return platform, count, precision


def section_labels(text: str | None) -> tuple:
    """What a section row above a row ("8 GPUs", "FP16", "OpenNMT-py WMT14 model", "6
    experts V0.2.0") says, ordered as SECTION_SCHEMA: a model where it names one (a known
    model, or a name followed by the word "model"), a dataset the vocabulary knows ("GSM8K"),
    else, where it names no hardware nor precision but a number (a version, a count of
    experts, a size), the variant of the rows under it. A section of words alone ("Computer
    Vision", "Speech") names a category of the rows, kept in their table title."""
    platform, count, precision = _free_labels((text,)) if text else (None, None, None)
    if platform is not None and text and _names_target_chip(text):
        platform = count = None
    unknown = unknown_chip(text, "label") if text and platform is None else None
    if unknown is not None:
        platform, count = unknown, count or unknown
    model = _section_model(text)
    canonical, item = _model(model, NO_MAPPINGS)
    dataset = text if model is None and canonical_dataset(text) is not None else None
    stated = any(found is not None for found in (platform, count, precision, model, dataset))
    return (
        *platform_fields(platform),
        *_count_fields(count),
        *precision_fields(precision),
        unknown is not None or None,
        model,
        canonical,
        item,
        text if text and not stated and _DIGIT.search(text) else None,
        dataset,
    )


_DIGIT = re.compile(r"\d")
_MODEL_NOUN = re.compile(r"\s+models?$", re.I)


def _names_target_chip(text: str) -> bool:
    """Whether a section is a chip's name and the word "models" ("Edge TPU models"): the
    models built for that chip, not a run on it."""
    chip = _MODEL_NOUN.sub("", text)
    if chip == text:
        return False
    mention = read_hardware(chip, "label")
    return mention is not None and fold_words(mention.text) == fold_words(chip)


def _section_model(text: str | None) -> str | None:
    """The model a section row names: "OpenNMT-py WMT14" of "OpenNMT-py WMT14 model"."""
    if not text:
        return None
    named = _MODEL_NOUN.sub("", text).strip()
    if named != text.strip() and named and read_hardware(named, "label") is None:
        return named
    return text if known_model(text) else None


def _precision_label(text: str, mappings: LabelMappings) -> Precision | None:
    mapped = mappings.get("precision", text)
    if mapped:
        return Precision(text, mapped.get("activation"), mapped.get("weight"))
    return read_precision_label(text)


def platform_label(text: str, mappings: LabelMappings, nearby: str = "") -> PlatformMention | None:
    """A platform cell: the user's mapping of it, else a system rule of
    schemas/vocab/platforms.csv naming it whole, else the chips and counts it names, else
    the hardware it names that no vocabulary knows."""
    mapped = mappings.get("platform", text)
    if mapped:
        count = mapped.get("accelerator_count")
        return PlatformMention(
            text,
            mapped.get("vendor"),
            mapped.get("accelerator"),
            mapped.get("system"),
            count,
            count is not None,
            count,
        )
    return _platform_label(text, nearby)


@lru_cache(maxsize=4096)
def _platform_label(text: str, nearby: str = "") -> PlatformMention | None:
    rule = platform_rule(text)
    if rule is not None:
        vendor, system, accelerator, count = rule
        return PlatformMention(clean_text(text), vendor, accelerator, system, count, False, count)
    # A cell of a platform column names hardware, known or not: "Frobnitz Pod (16x Zeta-1)"
    return read_hardware(text, "platform", nearby)


def _model(model: str | None, mappings: LabelMappings) -> tuple[str | None, str | None]:
    if model is None:
        return None, None
    mapped = mappings.get("model", model)
    if mapped:
        return mapped.get("model", model), mapped.get("item_kind")
    return model_name(model)


def model_of(model: str | None, mappings: LabelMappings) -> tuple[str | None, str | None]:
    """(canonical model, what its throughput counts) of a model label."""
    return _model(model, mappings)


def batch_number(batch: str | None) -> float | None:
    if not batch:
        return None
    reading = read_cell(batch)
    if len(reading.values) == 1 and reading.values[0].number > 0:
        return reading.values[0].number
    return None


def setting_name(reading: HeaderReading) -> str:
    return reading.text or (reading.role or "setting")


def platform_fields(mention: PlatformMention | None) -> tuple:
    """The PLATFORM_FIELDS of a mention; hardware no vocabulary knows keeps its name as the
    chip, flagged unknown."""
    if mention is None or (mention.accelerator is None and not mention.names_device):
        return (None, None, None, None, None, None)
    return (
        mention.accelerator,
        mention.vendor,
        mention.system,
        mention.implied_count,
        mention.text,
        mention.names_device or None,
    )


def _count_fields(mention: PlatformMention | None) -> tuple:
    if mention is None or mention.count is None:
        return (None, None)
    return (mention.count, mention.accelerator)


def precision_fields(precision: Precision | None) -> tuple:
    if precision is None:
        return (None, None, None)
    return (precision.text, precision.activation, precision.weight)


# ---- rows -------------------------------------------------------------------------------------


TABLE_KEY = ["document", "table_index"]
ROW_KEY = [*TABLE_KEY, "vrow"]
# The labels a row takes from its first cell that states them, each group by the column
# that says whether a cell states it.
_FIRST_OF = {
    **{role: [role] for role in DIMENSION_ROLES},
    "model": ["model", "model_canonical", "model_item"],
    "variant": ["variant", "variant_workload", "phase"],
    "framework": ["framework", "framework_canonical"],
    "sdk_version": ["sdk_version", "sdk", "sdk_prerelease"],
    "batch_size": ["batch_size", "batch_size_number", "batch_local"],
    "rp_chip": [*(f"rp_{name}" for name in PLATFORM_FIELDS), "rp_source"],
    "rp_unknown": ["rp_unknown"],
    "rc_n": ["rc_n", "rc_chip", "rc_source", "rc_stated"],
    "rn_n": ["rn_n"],
    "rq_text": ["rq_text", "rq_act", "rq_wt"],
    "fp_chip": [f"fp_{name}" for name in PLATFORM_FIELDS],
    "fc_n": ["fc_n", "fc_chip"],
    "fq_text": ["fq_text", "fq_act", "fq_wt"],
    "u_alias": [f"u_{name}" for name in UNIT_FIELDS],
}
# Groups taken from the first cell that states them outright, where one does, before the first
# cell that states them at all: "DGX-GB300 | 256" under "System | #-GPUs" ran on 256 GPUs, not
# on the 72 a GB300 NVL72 system holds.
_PREFERRED = {
    # "MicroBatchSize | GradAccum | GlobalBatchSize": the run's batch is the global one
    "batch_size": pl.col("batch_size").is_not_null() & pl.col("batch_local").is_null(),
    "rc_n": pl.col("rc_stated").is_not_null(),
    # "Samsung Galaxy S24 | Snapdragon 8 Gen 3" under "Device | Chipset": the chip a vocabulary
    # knows, not the device no vocabulary does, is the row's accelerator
    "rp_chip": pl.col("rp_chip").is_not_null() & pl.col("rp_unknown").is_null(),
    "rp_unknown": pl.col("rp_chip").is_not_null() & pl.col("rp_unknown").is_null(),
}


def rows_frame(label_cells: pl.DataFrame, said: pl.DataFrame) -> pl.DataFrame:
    """One row of labels per table row. `label_cells` holds ROW_KEY and `said`, the index
    of the cell's contribution in `said` (a frame of CONTRIBUTION_SCHEMA), in column order.

    A group of fields is taken from the first cell whose flag column is set (a cell sets
    all of a group's fields or none, so a row where none does takes nulls). Rows pick
    contributions by position, with aggregations polars runs without a step per row, and
    only then gather their fields: a page has hundreds of distinct label cells but tens of
    thousands of label cells."""
    # Most pages' rows have no setting nor unresolved label: those columns are joined only
    # where some cell holds one (joining texts per row is the costliest step here).
    joined = {"settings": "; ", "unresolved": "; ", "text": " / "}
    lists = [name for name in joined if said.get_column(name).null_count() < said.height]
    index = label_cells.get_column("said")
    flags = said.select(
        *(pl.col(flag).is_not_null().alias(f"_has{bit}") for bit, flag in enumerate(_FIRST_OF)),
        *(
            _PREFERRED[flag].alias(f"_pref{bit}")
            for bit, flag in enumerate(_FIRST_OF)
            if flag in _PREFERRED
        ),
    )
    # A row's local batch is kept among its settings when a global batch is its batch.
    global_batch = f"_pref{list(_FIRST_OF).index('batch_size')}"
    local = said.get_column("local_batch").null_count() < said.height
    if local and "settings" not in lists:
        lists.append("settings")
    parts = [label_cells.select(*ROW_KEY), flags[index]]
    if lists:
        parts.append(said.select(lists)[index])
    if local:
        parts.append(said.select("local_batch")[index])
    cells = pl.concat(parts, how="horizontal").with_row_index("_position")
    rows = cells.group_by(ROW_KEY, maintain_order=True).agg(
        *(_pick(bit, flag) for bit, flag in enumerate(_FIRST_OF)),
        *(name for name in lists if not (local and name == "settings")),
        *(
            [
                pl.concat_list(
                    "settings",
                    pl.when(pl.col(global_batch).any()).then(pl.col("local_batch")),
                )
                .explode()
                .alias("settings")
            ]
            if local
            else []
        ),
    )
    # Indexed, not gathered nor selected: each of those would be a query of its own.
    picked = [
        said[fields][index[rows.get_column(f"_pick{bit}")]]
        for bit, fields in enumerate(_FIRST_OF.values())
    ]
    return pl.concat(
        [
            rows.select(
                *ROW_KEY,
                *(
                    _joined(pl.col(name).list.join(joined[name], ignore_nulls=True)).alias(name)
                    for name in lists
                ),
                *(
                    pl.lit(None, dtype=pl.String).alias(name)
                    for name in joined
                    if name not in lists
                ),
            ),
            *picked,
        ],
        how="horizontal",
    ).rename({"text": "row_label"})


def _pick(bit: int, flag: str) -> pl.Expr:
    first = pl.when(pl.col(f"_has{bit}")).then(pl.col("_position")).min()
    if flag in _PREFERRED:
        first = pl.coalesce(pl.when(pl.col(f"_pref{bit}")).then(pl.col("_position")).min(), first)
    return first.alias(f"_pick{bit}")


def _joined(text: pl.Expr) -> pl.Expr:
    return pl.when(text != "").then(text)

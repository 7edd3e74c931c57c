"""One identity per model, dataset and chip maker, so that a comparison across vendors is one
GROUP BY.

Every measurement frame (vendor pages and official MLPerf results alike) passes here once
its labels are resolved:

* `model_base` is the model's identity across pages (schemas/model_names.py): family and
  size, without version, fine-tune or decorations ("ResNet-50" for "ResNet-50 v1.5" and
  "resnet50-torch-fp32"); `model_variant` what the name adds ("v1.5", "Instruct", "LARS").
  A name in an MLPerf table is the benchmark's model (schemas/vocab/mlperf_models.csv:
  MLPerf's "bert" is BERT-Large). A size alone ("7b") takes the family its table's context
  names ("MPT Training Benchmarks"); a row name no catalogue reads that begins with the
  model its context names ("bert4torch_output_fp32_1b.bmodel" under "BERT") is that model.
  A model the catalogue does not know is kept as published and listed as unresolved.
* What a model's name states fills what the value left open: the framework ("-torch-"), the
  precision ("-fp32"); an MLPerf accuracy target it names ("llama2-70b-99") is the value's.
* `dataset_canonical` names the dataset one way (schemas/vocab/datasets.csv).
* `vendor` is the maker of the value's chip as schemas/vocab/chips.csv names it (Gaudi is
  Intel's, whoever published the page or submitted the result).

Each distinct label combination is read once, in Python; rows are joined back by polars.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache

import polars as pl

from perfledger.schemas.chip_vocabulary import AS_PUBLISHED
from perfledger.schemas.column_types import ColumnTypes, frame_of_rows
from perfledger.schemas.frame_sizes import names_frame_size
from perfledger.schemas.header_reading import read_header
from perfledger.schemas.labels import label_key
from perfledger.schemas.model_names import (
    ModelReading,
    models_in_text,
    names_a_size,
    read_model,
    size_in_text,
    sized,
)
from perfledger.schemas.precisions import read_precision_label
from perfledger.schemas.vocabulary import read_vocab

_MLPERF_TARGET = re.compile(r"[-_ ]99(?:\.9)?$")
_NOTE = re.compile(r"\s*[(\[].*?[)\]]")
_IDENTITY_INPUTS = (
    "model",
    "model_canonical",
    "variant",
    "_family",
    "_context_model",
    "_mlperf",
    "workload",
    "_size",
)
IDENTITY_OUTPUTS: ColumnTypes = {
    "model_base": pl.String,
    "model_variant": pl.String,
    "_canonical": pl.String,
    "_target": pl.String,
    "_framework": pl.String,
    "_act": pl.String,
    "_wt": pl.String,
    "_dataset": pl.String,
    "_unresolved_model": pl.String,
}


def with_identities(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` (measurement columns, and the table context's k_model and k_family where a
    page gave them) with model_base, model_variant and dataset_canonical, the chip maker as
    vendor, and what model names state filled in."""
    frame = frame.drop("model_base", "model_variant", "dataset_canonical", strict=False)
    if frame.height == 0:
        return frame.with_columns(
            model_base=pl.lit(None, dtype=pl.String),
            model_variant=pl.lit(None, dtype=pl.String),
            dataset_canonical=pl.lit(None, dtype=pl.String),
        )
    if "k_model" in frame.columns:  # a page's values: models named nearer than the context
        frame = _variants_of_context_model(_named_nearer(frame))
    if "_row_variant" not in frame.columns:
        frame = frame.with_columns(_row_variant=pl.lit(None, dtype=pl.String))
    title = pl.concat_str(
        [pl.col("table_title").fill_null(""), pl.col("document_title").fill_null("")], separator=" "
    )
    inputs = frame.select(
        pl.col("model"),
        pl.col("model_canonical"),
        pl.col("variant"),
        _optional(frame, "k_family").alias("_family"),
        _optional(frame, "k_model").alias("_context_model"),
        (pl.col("mlperf_id").is_not_null() | title.str.to_lowercase().str.contains("mlperf")).alias(
            "_mlperf"
        ),
        pl.col("workload"),
        _stated_sizes(frame).alias("_size"),
    )
    distinct = inputs.unique(maintain_order=True)
    said = frame_of_rows([_identity(*row) for row in distinct.iter_rows()], IDENTITY_OUTPUTS)
    found = pl.concat([distinct, said], how="horizontal")
    helpers = inputs.select("_family", "_context_model", "_mlperf", "_size")
    joined = pl.concat([frame, helpers], how="horizontal").join(
        found, on=list(_IDENTITY_INPUTS), how="left", nulls_equal=True, maintain_order="left"
    )
    return joined.with_columns(
        pl.coalesce("_row_variant", "model_variant").alias("model_variant"),
        pl.coalesce("_canonical", "model_canonical").alias("model_canonical"),
        # "llama2-70b-99": the benchmark's target, whatever accuracy a column beside states.
        pl.coalesce("_target", "quality_target").alias("quality_target"),
        pl.coalesce("framework_canonical", "_framework").alias("framework_canonical"),
        *_precision_filled(),
        _dataset(frame).alias("dataset_canonical"),
        _maker(frame).alias("vendor"),
        _unresolved().alias("unresolved"),
    ).drop(
        *(IDENTITY_OUTPUTS.keys() - {"model_base", "model_variant"}),
        *helpers.columns,
        "_row_variant",
    )


# ---- models a row or a column names, nearer than the table's context -------------------------

_CONTEXT_SOURCES = ("caption", "heading", "title", "mapping")
_ARCHITECTURE_SETTING = r"(?:^|; )(?i:architectures?)=([^;]+)"
_MODEL_SOURCE = r"model=(\w+)"


def _named_nearer(frame: pl.DataFrame) -> pl.DataFrame:
    """A value whose row and column gave no model, or only its table's context: the model
    one of its row's label cells names whole (a "Model ID" or "Name" column no header word
    marks as the model's: "llama3.1-70b", "torchvision.models.resnet.resnet18"), else the
    model its column header names ("Phi-4 mini-instruct")."""
    source = pl.col("label_sources").str.extract(_MODEL_SOURCE, 1)
    # A model column naming a family alone that no size column sized ("YOLOv8" beside its
    # "Scale" column) is open too: its row may name the sized model.
    with_sizes = frame.select("model", _size=_stated_sizes(frame))
    unsized = with_sizes.filter(pl.col("_size").is_null())
    families = [
        model
        for model in unsized.get_column("model").unique().to_list()
        if _names_family(read_model(model))
    ]
    # A sized family is open to its row's version only: "DeepSeek | R1 | 1.5B" under "Model |
    # Version | Param" is DeepSeek-R1 1.5B, not DeepSeek 1.5B.
    sized_families = [
        model
        for model in with_sizes.filter(pl.col("_size").is_not_null())
        .get_column("model")
        .unique()
        .to_list()
        if _names_family(read_model(model))
    ]
    # The two columns looked up, of the open rows only: filtering the whole frame would
    # copy every column of it.
    opened = frame.select(
        open_rows=pl.col("model").is_null()
        | source.is_in(list(_CONTEXT_SOURCES))
        | pl.col("model").is_in(families),
        row_label=pl.col("row_label"),
        column_name=pl.col("column_name"),
    )
    open_rows = opened.get_column("open_rows")
    looked_up = opened.filter(open_rows)
    rows = _with_unknown_model_rows(frame, looked_up, _lookup(looked_up, "row_label", _row_model))
    if sized_families:
        versioned = frame.select(
            open_rows=pl.col("model").is_in(sized_families), row_label=pl.col("row_label")
        ).filter(pl.col("open_rows"))
        rows = _merged(rows, _lookup(versioned, "row_label", _versioned_row_model))
        if rows is not None:
            open_rows = open_rows | frame.get_column("model").is_in(sized_families)
    columns = _with_unknown_model_headers(
        frame, looked_up, _lookup(looked_up, "column_name", _column_model)
    )
    # "Architecture | spatiotemporal" where no column names the model: a model zoo's
    # architecture is its row's model (beside a "Model" column it is the model's family).
    architecture = (
        pl.when(pl.col("model").is_null())
        .then(pl.col("settings").str.extract(_ARCHITECTURE_SETTING, 1).str.strip_chars())
        .otherwise(None)
    )
    architectures = frame.get_column("settings").str.contains(_ARCHITECTURE_SETTING).any()
    if rows is None and columns is None and not architectures:
        return frame
    row_model = (
        pl.col("row_label").replace_strict(*rows, default=None, return_dtype=pl.String)
        if rows
        else pl.lit(None, dtype=pl.String)
    )
    if architectures:
        row_model = pl.coalesce(row_model, architecture)
    column_model = (
        pl.col("column_name").replace_strict(*columns, default=None, return_dtype=pl.String)
        if columns
        else pl.lit(None, dtype=pl.String)
    )
    nearer = pl.when(pl.lit(open_rows)).then(pl.coalesce(row_model, column_model))
    where = pl.when(row_model.is_not_null()).then(pl.lit("row")).otherwise(pl.lit("column"))
    named = frame.with_columns(_nearer=nearer, _where=where)
    texts = named.get_column("_nearer").drop_nulls().unique().to_list()
    canonical = pl.col("_nearer").replace_strict(
        texts, [read_model(text).canonical for text in texts], default=None, return_dtype=pl.String
    )
    changed = pl.col("_nearer").is_not_null()
    return named.with_columns(
        pl.when(changed).then(pl.col("_nearer")).otherwise(pl.col("model")).alias("model"),
        pl.when(changed)
        .then(canonical)
        .otherwise(pl.col("model_canonical"))
        .alias("model_canonical"),
        pl.when(changed)
        .then(_model_source(pl.col("_where")))
        .otherwise(pl.col("label_sources"))
        .alias("label_sources"),
        *_version_of_model(named, changed),
    ).drop("_nearer", "_where")


def _version_of_model(frame: pl.DataFrame, changed: pl.Expr) -> list[pl.Expr]:
    """A "Version" cell the row's model is named with ("DeepSeek | R1 | 1.5B") is the model's
    version, not the software's: the value keeps no SDK version of it."""
    if "sdk_version" not in frame.columns:
        return []
    words = pl.concat_str([pl.lit(" "), pl.col("_nearer"), pl.lit(" ")])
    version = pl.concat_str([pl.lit(" "), pl.col("sdk_version"), pl.lit(" ")])
    held = changed & pl.col("sdk_version").is_not_null() & words.str.contains(version, literal=True)
    software = [name for name in ("sdk_version", "sdk", "sdk_prerelease") if name in frame.columns]
    return [pl.when(held).then(None).otherwise(pl.col(name)).alias(name) for name in software]


def _with_unknown_model_headers(
    frame: pl.DataFrame, looked_up: pl.DataFrame, columns: tuple[list, list] | None
) -> tuple[list, list] | None:
    """`columns` (headers naming a model, and the model) with the headers no catalogue knows
    that stand among at least two known models' in one table, kept as published: a table of
    models side by side ("Alexnet | VGG 16 | Inception-BN | Inception-v3 | Resnet 50") names
    one in each of its columns. A table whose rows each name their device ("Device | SoC |
    ResNet50-v-2-7 | YOLOv5su") crosses devices with models too: each of its headers holding
    a digit and stating nothing else (no "name=value" setting) names a model, known or not.
    A header stating anything else (a metric, unit, statistic, chip, precision, number) is
    no model."""
    return _with_unknown_models(
        frame,
        looked_up,
        "column_name",
        _column_model,
        _may_name_a_model,
        columns,
        _tables_of_device_rows(frame),
    )


_ROW_DEVICE = "accelerator=row"


def _tables_of_device_rows(frame: pl.DataFrame) -> set[tuple]:
    """The tables every value of which takes its chip from its row."""
    rows = frame.group_by("document", "table_index").agg(
        pl.col("label_sources").fill_null("").str.contains(_ROW_DEVICE, literal=True).all()
    )
    return {
        (document, table)
        for document, table, every in rows.iter_rows()
        if every and table is not None
    }


def _with_unknown_model_rows(
    frame: pl.DataFrame, looked_up: pl.DataFrame, rows: tuple[list, list] | None
) -> tuple[list, list] | None:
    """`rows` (row labels naming a model, and the model) with the labels no catalogue knows
    that stand among at least two known models' in one table, kept as published: a
    leaderboard under no "Model" header ("| | C-Eval | MMLU |") lists one model a row, known
    ("LLaMA2-7B", "GPT-4") or not ("XVERSE-13B", "GPT-3.5 Turbo"). A label stating anything
    else (a metric, statistic, chip, precision, number), holding no digit ("Average",
    "Ours"), or naming a known model among other words ("Qwen3-0.6B Wake Time": a figure of
    that model), is no model."""
    return _with_unknown_models(
        frame,
        looked_up,
        "row_label",
        _row_model,
        lambda label: (
            _may_name_a_model(label)
            and _DIGIT.search(label) is not None
            and not models_in_text(label)
        ),
        rows,
    )


def _with_unknown_models(
    frame: pl.DataFrame,
    looked_up: pl.DataFrame,
    field: str,
    model_of: Callable[[str], object],
    may_name: Callable[[str], bool],
    found: tuple[list, list] | None,
    device_tables: set[tuple] | frozenset[tuple] = frozenset(),
) -> tuple[list, list] | None:
    """`found` (texts of `field` naming a model, and the model) with the texts `model_of`
    reads no model in but `may_name` lets stand as one, where they stand in a table beside
    at least two texts naming known models, or, in one of `device_tables`, where every text
    of the table names a model or may, holding a digit, and two do."""
    unknown = [
        text
        for text in looked_up.get_column(field).drop_nulls().unique().to_list()
        if model_of(text) is None and may_name(text)
    ]
    if not unknown:
        return found
    tables: dict[tuple, set[str]] = {}
    texts = frame.select("document", "table_index", field).unique().drop_nulls()
    for document, table, text in texts.iter_rows():
        tables.setdefault((document, table), set()).add(text)
    named = dict(zip(*found, strict=True)) if found else {}
    wanted = set(unknown)
    for key, table_texts in tables.items():
        among = table_texts & wanted
        if not among:
            continue
        known = sum(1 for text in table_texts if model_of(text))
        crossed = (
            key in device_tables
            and len(table_texts) >= 2
            and all(model_of(text) or _NAME_WITH_DIGIT.match(text) for text in table_texts)
        )
        if known >= 2 or crossed:
            named.update((text, text) for text in among if text not in named)
    return (list(named), list(named.values())) if named else None


_DIGIT = re.compile(r"\d")
# A name holding a digit, no setting written "name=value" ("dataloader_num_workers=1")
_NAME_WITH_DIGIT = re.compile(r"^(?=[^=]*\d)[^=]+$")


@lru_cache(maxsize=16_384)
def _may_name_a_model(header: str) -> bool:
    reading = read_header(header)
    return (
        any(character.isalpha() for character in header)
        and " / " not in header
        and not names_frame_size(header)  # "HD (1920x1080)": the input it ran on
        and reading.kind is None
        and reading.role is None
        and reading.statistic is None
        and reading.unit is None
        and reading.platform is None
        and reading.precision is None
        and not (reading.is_number or reading.share or reading.change or reading.alternatives)
    )


def _model_source(source: pl.Expr) -> pl.Expr:
    """label_sources saying the model came from `source` instead."""
    sources = pl.col("label_sources").fill_null("")
    return (
        pl.when(sources.str.contains(_MODEL_SOURCE))
        .then(sources.str.replace(_MODEL_SOURCE, pl.format("model={}", source)))
        .otherwise(
            pl.concat_str([sources, pl.format("model={}", source)], separator="; ").str.strip_chars(
                "; "
            )
        )
    )


def _lookup(frame: pl.DataFrame, column: str, reader) -> tuple[list, list] | None:
    texts = frame.get_column(column).drop_nulls().unique().to_list()
    found = {text: model for text in texts if (model := reader(text))}
    return (list(found), list(found.values())) if found else None


@lru_cache(maxsize=65_536)
def _row_model(row_label: str) -> str | None:
    parts = row_label.split(" / ")
    named = {_with_size(parts, index) for index, part in enumerate(parts) if read_model(part).known}
    if not named:
        named = {
            _with_size(parts, index)
            for index, part in enumerate(parts)
            if _names_family(read_model(part))
        }
    return named.pop() if len(named) == 1 else None


def _merged(first: tuple[list, list] | None, second: tuple[list, list] | None):
    """Two lookups (texts, models) as one, the second's model kept for a text both hold."""
    if second is None:
        return first
    named = (dict(zip(*first, strict=True)) if first else {}) | dict(zip(*second, strict=True))
    return list(named), list(named.values())


@lru_cache(maxsize=16_384)
def _versioned_row_model(row_label: str) -> str | None:
    """The model a row names across three cells, a family, its version and its size ("Qwen |
    2.5 | 1.5B": Qwen2.5 1.5B), where the three read as a known model the family and its
    size alone are not."""
    parts = row_label.split(" / ")
    named = set()
    for index in range(len(parts) - 2):
        family = read_model(parts[index])
        # the version names no size, the cell after it does ("Qwen2 | 0.5B | w8a8" is sized)
        if (
            not _names_family(family)
            or size_in_text(parts[index + 1])
            or not size_in_text(parts[index + 2])
        ):
            continue
        joined = " ".join(parts[index : index + 3])
        reading = read_model(joined)
        sized_alone = read_model(f"{parts[index]} {parts[index + 2]}")
        if reading.known and reading.canonical != sized_alone.canonical:
            named.add(joined)
    return named.pop() if len(named) == 1 else None


def _names_family(reading: ModelReading) -> bool:
    """A family named alone, or with a task no size names ("YOLOv8", "YOLOv8-seg")."""
    return bool(reading.family) and not reading.size and not reading.known


def _with_size(parts: list[str], index: int) -> str:
    """A model zoo naming a model or family in one cell and its size in the next ("YOLOv8 |
    N", "YOLOv7 | Tiny"): the model the two read as together ("YOLOv8n", "YOLOv7-Tiny"), else
    the cell alone, as published ("YOLOv10" beside a size the catalogue does not list)."""
    part = parts[index]
    if index + 1 == len(parts):
        return part
    joined = f"{part} {parts[index + 1]}"
    reading = read_model(joined)
    return joined if reading.known and reading.canonical != read_model(part).canonical else part


@lru_cache(maxsize=16_384)
def _column_model(header: str) -> str | None:
    named = models_in_text(header)
    identities = {reading.base for _phrase, reading in named}
    if not named:
        # "8B Q4_K_M": a size run in a precision, the model of the family its page names
        reading = read_model(header)
        return header if reading.size and reading.precision and not reading.family else None
    return named[0][0] if len(identities) == 1 else None


def _variants_of_context_model(frame: pl.DataFrame) -> pl.DataFrame:
    """A table whose model column names no model a catalogue knows ("Baseline (TensorFlow)",
    "QAT (TensorRT)") under a heading naming one ("ResNet50-v2"): the column names variants
    of the heading's model, which is the values'. A table naming a known model in any row, or
    a name holding a model size, keeps its unknown rows as published."""
    known_contexts = [
        model
        for model in frame.get_column("k_model").drop_nulls().unique().to_list()
        if read_model(model).known
    ]
    if not known_contexts:  # no heading names a model the catalogue knows
        return frame
    models = frame.get_column("model").drop_nulls().unique().to_list()
    # A name holding a size is a model of its own ("ChatGLM2-6B-Base" beside "ChatGLM3-6B-Base"
    # under a paragraph naming "ChatGLM3-6B"), however unknown to the catalogue.
    known = [model for model in models if read_model(model).known or names_a_size(model)]
    row_source = pl.col("label_sources").str.extract(_MODEL_SOURCE, 1)
    context = pl.col("k_model")
    table = ["document", "table_index"]
    # The rows' flags first, then over their table: a window over an expression of several
    # columns is worked out group by group.
    taken = (
        frame.lazy()
        .select(
            *table,
            pl.col("model"),
            _from_rows=row_source.is_in(["row", "column"]),
            _context_known=context.is_in(known_contexts),
        )
        .with_columns(_known=pl.col("_from_rows") & pl.col("model").is_in(known))
        .select(
            pl.col("_from_rows")
            & pl.col("model").is_not_null()
            & ~pl.col("_known").any().over(table)
            & pl.col("_context_known")
        )
        .collect(engine="in-memory")
        .to_series()
    )
    if not taken.any():
        return frame
    taken = pl.lit(taken)
    return frame.with_columns(
        pl.when(taken).then(pl.col("model")).alias("_row_variant"),
        pl.when(taken).then(context).otherwise(pl.col("model")).alias("model"),
        pl.when(taken)
        .then(pl.col("k_model_canonical"))
        .otherwise(pl.col("model_canonical"))
        .alias("model_canonical"),
        pl.when(taken)
        .then(_model_source(pl.col("k_model_source")))
        .otherwise(pl.col("label_sources"))
        .alias("label_sources"),
    )


_SETTING = re.compile(r"(?:^|; )(?P<name>[^=;]+)=(?P<value>[^;]*)")
_PARAMETER_COUNT = re.compile(r"^\d+(?:\.\d+)?\s?[BbMm]$")


def _stated_sizes(frame: pl.DataFrame) -> pl.Expr:
    """The model size each value's row states in a column of its own ("Model Size=0.5B"):
    a count of parameters, in millions or billions."""
    if "settings" not in frame.columns:
        return pl.lit(None, dtype=pl.String)
    texts = frame.get_column("settings").drop_nulls().unique().to_list()
    sizes = [_stated_size(text) for text in texts]
    return pl.col("settings").replace_strict(texts, sizes, default=None, return_dtype=pl.String)


@lru_cache(maxsize=4096)
def _stated_size(settings: str) -> str | None:
    for match in _SETTING.finditer(settings):
        value = match.group("value").strip()
        if _PARAMETER_COUNT.match(value) and read_header(match.group("name")).role == "model_size":
            return value.replace(" ", "").upper()
    return None


def _optional(frame: pl.DataFrame, name: str) -> pl.Expr:
    return pl.col(name) if name in frame.columns else pl.lit(None, dtype=pl.String)


def _precision_filled() -> list[pl.Expr]:
    """The dtypes the model's name states where the row states none; and its weights' where
    the row states one dtype of the activations alone ("ChatGLM-6b-int4" beside "Data精度
    float32"). A mixed precision ("INT8/BF16") is the whole run's, weights included."""
    unstated = pl.col("activation_dtype").is_null() & pl.col("weight_dtype").is_null()
    activations_alone = pl.col("weight_dtype").is_null() & (pl.col("activation_dtype") != "mixed")
    # A dtype the prose around the table states ("4bits 相对 bfloat16 精度损失" under a table
    # comparing each model with its quantized twin) says less of a row than its model's name
    # ("Baichuan2-7B-Chat-4bits"): the name's dtype is the row's, its source the model's.
    sources = pl.col("label_sources")
    # Where the prose and the name agree ("Model: DeepseekV3-q4km (int4)"), the prose's
    # label stays.
    afar = (
        sources.str.extract(r"precision=(\w+)", 1).is_in(_AFAR)
        & (pl.col("_act").is_not_null() | pl.col("_wt").is_not_null())
        & (
            pl.col("_act").ne_missing(pl.col("activation_dtype"))
            | pl.col("_wt").ne_missing(pl.col("weight_dtype"))
        )
    )
    return [
        pl.when(unstated | afar)
        .then(pl.col("_act"))
        .otherwise(pl.col("activation_dtype"))
        .alias("activation_dtype"),
        pl.when(unstated | activations_alone | afar)
        .then(pl.col("_wt"))
        .otherwise(pl.col("weight_dtype"))
        .alias("weight_dtype"),
        pl.when(afar).then(None).otherwise(pl.col("precision")).alias("precision"),
        pl.when(afar)
        .then(
            sources.str.replace(
                r"precision=\w+", pl.format("precision={}", sources.str.extract(_MODEL_SOURCE, 1))
            )
        )
        .otherwise(sources)
        .alias("label_sources"),
    ]


_AFAR = ["paragraph", "note", "repeated", "title", "page"]  # prose, not a caption or heading


def _unresolved() -> pl.Expr:
    joined = pl.concat_str(
        [pl.col("unresolved"), pl.col("_unresolved_model")], separator="; ", ignore_nulls=True
    )
    return pl.when(joined != "").then(joined)


@lru_cache(maxsize=65_536)
def _identity(
    model: str | None,
    canonical: str | None,
    variant: str | None,
    family: str | None,
    context_model: str | None,
    mlperf: bool,
    workload: str | None,
    stated_size: str | None = None,
) -> tuple:
    """(model_base, model_variant, canonical, target, framework, act, wt, dataset,
    unresolved) of one combination of labels."""
    if model is None and canonical is None:
        return (None,) * len(IDENTITY_OUTPUTS)
    published = read_model(model) if model else read_model(canonical)
    mapped = read_model(canonical) if canonical and canonical != published.canonical else None
    base, new_canonical = published.identity, None
    if base is None and mapped is not None and mapped.known:
        base = mapped.base  # the user's mapping of the label
    if base is None and published.size and family:
        base = new_canonical = sized(family, published.size)
    if (
        base is None
        and stated_size
        and model
        and published.family
        and not published.size
        and label_key(published.family) == label_key(model)
    ):
        # "Qwen2 | 0.5B" under "Model | Model Size": a family named whole takes its row's
        # size ("Gemma-3n" is no family "Gemma" of that size).
        base = new_canonical = sized(published.family, stated_size)
    if base is None and context_model and model:
        context = read_model(context_model)
        if context.known and _begins_with(model, context_model, context.canonical):
            base, new_canonical = context.base, context.canonical
    benchmark = _mlperf_model(model or canonical, workload) if mlperf else None
    if benchmark is not None and benchmark[0]:
        base = benchmark[0]
    if base is not None and variant:
        named = read_model(variant)  # "GPT2" with the variant "GPT2-Medium (SL1024)"
        if (
            named.known
            and named.base is not None
            and named.base != base
            and named.base.startswith(base)
        ):
            base = named.base
    precision = read_precision_label(published.precision) if published.precision else None
    unresolved = f"model={model}" if model and base is None else None
    return (
        base,
        published.variant if published.known else None,
        new_canonical,
        published.quality_target,
        published.framework,
        precision.activation if precision else None,
        precision.weight if precision else None,
        benchmark[1] if benchmark else None,
        unresolved,
    )


def _begins_with(model: str, *names: str) -> bool:
    key = label_key(model)
    return any(label_key(name) and key.startswith(label_key(name)) for name in names)


@cache
def _mlperf_models() -> dict[tuple[str, str], tuple[str | None, str | None]]:
    return {
        (row["benchmark"], row["workload"] or ""): (row["model"], row["dataset"])
        for row in read_vocab("mlperf_models.csv").iter_rows(named=True)
    }


def _mlperf_model(name: str | None, workload: str | None) -> tuple[str | None, str | None] | None:
    """(model, dataset) an MLPerf benchmark name stands for ("bert-99" -> BERT-Large)."""
    if not name:
        return None
    key = label_key(_MLPERF_TARGET.sub("", name.strip()))
    models = _mlperf_models()
    return models.get((key, workload or "")) or models.get((key, ""))


# ---- datasets ---------------------------------------------------------------------------------


@cache
def _datasets() -> dict[str, str]:
    return {
        row["alias"]: row["dataset"] for row in read_vocab("datasets.csv").iter_rows(named=True)
    }


@cache
def _datasets_in_capitals() -> dict[str, str]:
    rows = read_vocab("datasets_in_capitals.csv").iter_rows(named=True)
    return {row["written"]: row["dataset"] for row in rows}


def dataset_named(text: str) -> str | None:
    """The dataset a whole label names by one of its aliases ("MMLU", "gsm8k"), or by a word
    that names one only written in capitals ("MATH", not "Math"); None otherwise, where
    canonical_dataset would also read a dataset from the label's first words."""
    found = _datasets().get(label_key(text))
    return found if found is not None else _datasets_in_capitals().get(text.strip())


@lru_cache(maxsize=16_384)
def canonical_dataset(text: str | None) -> str | None:
    """'ImageNet2012', 'Open Imagenet', 'COCO2017_detection_80cl', 'SQUAD_v1_1_bert_msl384'
    -> ImageNet, ImageNet, COCO, SQuAD v1.1: the longest run of leading words a dataset's
    name; None when unknown."""
    if not text:
        return None
    datasets = _datasets()
    words = [word for word in re.split(r"[\s_\-,;/:]+", _NOTE.sub(" ", text).lower()) if word]
    if len(words) > 1 and words[0] == "open":  # ByteMLPerf's "Open Imagenet", "OPEN_CIFAR"
        words = words[1:]
    for end in range(min(len(words), 6), 0, -1):
        found = datasets.get(label_key("".join(words[:end])))
        if found:
            return found
    return None


def _dataset(frame: pl.DataFrame) -> pl.Expr:
    """The published dataset's canonical name, else (none published) the benchmark's."""
    names = frame.get_column("dataset").drop_nulls().unique().to_list()
    known = {name: found for name in names if (found := canonical_dataset(name))}
    published = (
        pl.col("dataset").replace_strict(
            list(known), list(known.values()), default=None, return_dtype=pl.String
        )
        if known
        else pl.lit(None, dtype=pl.String)
    )
    return pl.when(pl.col("dataset").is_null()).then(pl.col("_dataset")).otherwise(published)


# ---- chip makers ------------------------------------------------------------------------------


_LISTED_NAMES = re.compile(r"\(([a-z0-9-]+(?:\|[a-z0-9-]+)+)\)")


@cache
def _makers() -> tuple[tuple[re.Pattern[str], str], ...]:
    """(accelerator as schemas/vocab/chips.csv names it, its vendor), a template's $1 read
    as any text ("Xeon $1" is every Xeon)."""
    exact, templates = [], []
    for row in read_vocab("chips.csv").iter_rows(named=True):
        if row["accelerator"] and row["vendor"] and row["accelerator"] != AS_PUBLISHED:
            pattern = re.sub(r"\\\$t?\d", ".+", re.escape(row["accelerator"]))
            if pattern == row["accelerator"] or re.escape(row["accelerator"]) == pattern:
                exact.append((re.compile(pattern), row["vendor"]))
            elif len(re.sub(r"\.\+|\\.", "", pattern)) >= 2:  # a name, not only a number
                templates.append((re.compile(pattern), row["vendor"]))
            else:  # "$1" alone: the names the rule's group lists ("(v70|u55c|u250)")
                listed = _LISTED_NAMES.search(row["pattern"])
                if listed is not None:
                    names = "|".join(map(re.escape, listed.group(1).split("|")))
                    exact.append((re.compile(rf"(?:{names})", re.I), row["vendor"]))
    return tuple(exact + templates)


@lru_cache(maxsize=4096)
def chip_maker(accelerator: str | None) -> str | None:
    """The vendor chips.csv gives the chip, None for a chip it does not name."""
    if not accelerator:
        return None
    return next((vendor for pattern, vendor in _makers() if pattern.fullmatch(accelerator)), None)


def _maker(frame: pl.DataFrame) -> pl.Expr:
    chips = frame.get_column("accelerator").drop_nulls().unique().to_list()
    makers = {chip: chip_maker(chip) for chip in chips}
    known = {chip: maker for chip, maker in makers.items() if maker}
    if not known:
        return pl.col("vendor")
    return (
        pl.col("accelerator")
        .replace_strict(list(known), list(known.values()), default=None, return_dtype=pl.String)
        .fill_null(pl.col("vendor"))
    )

"""Each value's labels resolved from its row, its column and its table's context.

A label comes from the row (its label cells: named roles first, then their words), then the
row's section, then the column header, then the table's context (caption, headings, section
paragraphs, page title; for the accelerator also the page's earlier prose). A label the table
states for some of its rows or columns is not taken from the context for the others, and a
chip count stated for another chip than the value's says nothing of it. Each value also gets
a readable natural key.
"""

from __future__ import annotations

import polars as pl

from perfledger.schemas.column_devices import column_device_words, names_other_device
from perfledger.schemas.context_labels import bare_device_class
from perfledger.schemas.labels import canonical_framework, fold_key, framework_first, label_key
from perfledger.schemas.precisions import names_cache_types_only
from perfledger.schemas.remark_platforms import remark_platforms, remark_precisions

# The natural key's labels, in order: (name in the key, column).
IDENTITY_PARTS = (
    ("workload", "workload"),
    ("model", "model_canonical"),
    ("variant", "variant"),
    ("platform", "system"),
    ("framework", "framework_canonical"),
    ("dataset", "dataset"),
    ("batch", "batch_size"),
    ("precision", "precision"),
    ("division", "division"),
)
_TABLE = ["document", "table_index"]
PAGE_ORDER = ("table_index", "row_number", "column_index")  # where a value sits on its page
_PLATFORM = ("chip", "vendor", "system_named", "implied", "platform_text", "unknown_chip")


def assemble(values: pl.DataFrame) -> pl.DataFrame:
    """`values` (as schemas.chunk_reading gives them) with every measurement column."""
    # A string column in several chunks (a label's source filled in pieces) makes polars 2.1
    # panic ("i < self.len()") when a when/then of it is joined by concat_str: one piece each.
    values = values.rechunk()
    values = values.hstack([*remark_platforms(values), *remark_precisions(values)])
    return _with_identities(
        values.hstack(
            [*_table_states(values), _row_device_class(values), column_device_words(values)]
        )
        .lazy()
        .with_columns(_platform_choice())
        .with_columns(_platform())
        .with_columns(_count())
        .with_columns(_precision_from())
        .with_columns(_row_names_framework(values))
        .with_columns(_labels())
        .with_columns(_derived())
        .drop("_precision_from", "_row_framework")
        .collect(engine="in-memory")
        .pipe(_without_cache_dtypes)
    )


def _without_cache_dtypes(frame: pl.DataFrame) -> pl.DataFrame:
    """A precision stating only a key-value cache's dtype ("kv int8") states neither the
    weights' nor the activations' (a model name may, see schemas/identities.py)."""
    texts = frame.get_column("precision").drop_nulls().unique().to_list()
    cache = [text for text in texts if names_cache_types_only(text)]
    if not cache:
        return frame
    only = pl.col("precision").is_in(cache)
    return frame.with_columns(
        pl.when(only).then(None).otherwise(pl.col(name)).alias(name)
        for name in ("activation_dtype", "weight_dtype")
    )


def _table_states(values: pl.DataFrame) -> list[pl.Series]:
    """Whether the table states a chip, a count, a precision for some row or column."""
    # name: (the row and column fields that state it, the header's flag)
    stated = {
        "_states_chip": (
            ("rp_chip", "fp_chip", "sp_chip", "rp_unknown", "sp_unknown", "vq_chip"),
            "header_states_chip",
        ),
        "_states_count": (("rc_n", "fc_n", "sc_n"), "header_states_count"),
        "_states_precision": (("rq_text", "fq_text", "sq_text"), "header_states_precision"),
    }
    # Whether each row states it first, then over the table: a window over an expression
    # of several columns is worked out group by group.
    return (
        values.lazy()
        .select(
            *_TABLE,
            *(header for _columns, header in stated.values()),
            *(
                pl.any_horizontal(pl.col(column).is_not_null() for column in columns).alias(name)
                for name, (columns, _header) in stated.items()
            ),
        )
        .select(
            (pl.col(name).any().over(_TABLE) | pl.col(header)).alias(name)
            for name, (_columns, header) in stated.items()
        )
        .collect(engine="in-memory")
        .get_columns()
    )


def _row_device_class(values: pl.DataFrame) -> pl.Series:
    """The class of device a row's platform cell names when it names no chip ("GPU", "CPU")."""
    platforms = values.get_column("platform")
    classes = {text: bare_device_class(text) for text in platforms.drop_nulls().unique()}
    return platforms.replace_strict(classes, default=None, return_dtype=pl.String).alias(
        "_row_class"
    )


def _platform_choice() -> pl.Expr:
    """Which platform a value takes: its row's role cells' (rp), their words' (fp), its
    section's (sp), its column header's (h), its own cell's remark's (vq: "4160 tokens/s/p 配置
    Atlas 800T A2"), the context's chip of the class of device its
    row names ("GPU" under "部署硬件" beside "GPU为Tesla T4": xa, or xc for a CPU), else its
    table context's (x)."""
    row_class = pl.col("_row_class")
    return (
        pl.when(pl.col("rp_chip").is_not_null())
        .then(pl.lit("rp"))
        # A chip the column's header names outranks one among the words of a row's other
        # cells: "mobilenet_edgetpu_224" under "AM68A_8bits_metric" is a model's name.
        .when(pl.col("fp_chip").is_not_null() & pl.col("h_chip").is_null())
        .then(pl.lit("fp"))
        .when(pl.col("fp_chip").is_not_null())
        .then(pl.lit("h"))
        .when(pl.col("sp_chip").is_not_null() | pl.col("sp_unknown").fill_null(False))
        .then(pl.lit("sp"))
        .when(pl.col("h_chip").is_not_null())
        .then(pl.lit("h"))
        .when(pl.col("vq_chip").is_not_null())
        .then(pl.lit("vq"))
        .when((row_class == "cpu") & pl.col("xc_chip").is_not_null())
        .then(pl.lit("xc"))
        .when((row_class == "accelerator") & pl.col("xa_chip").is_not_null())
        .then(pl.lit("xa"))
        # The context's platform, a known chip or hardware of its own ("NeoChip X2 (16 chips)").
        # "EN675 NPU" is not the chip of an "mAP (GPU)" column beside "mAP (NPU)"
        .when(
            ~pl.col("_states_chip")
            & pl.col("x_platform_text").is_not_null()
            & ~names_other_device(pl.col("x_platform_text"), pl.col("_column_device"))
        )
        .then(pl.lit("x"))
        .alias("_from")
    )


def _platform() -> list[pl.Expr]:
    choice = pl.col("_from")

    def chosen(field: str) -> pl.Expr:
        picked = None
        for prefix in ("rp", "fp", "sp", "h", "vq", "xc", "xa", "x"):
            branch = pl.col(f"{prefix}_{field}")
            picked = (
                pl.when(choice == prefix).then(branch)
                if picked is None
                else picked.when(choice == prefix).then(branch)
            )
        return picked.alias(f"_{field}")

    return [
        *(chosen(field) for field in _PLATFORM),
        pl.when(choice == "rp")
        .then(pl.col("rp_source"))
        .when(choice == "fp")
        .then(pl.lit("row"))
        .when(choice == "sp")
        .then(pl.lit("section"))
        .when(choice == "h")
        .then(pl.lit("column"))
        .when(choice == "vq")
        .then(pl.lit("cell"))
        .when(choice == "xc")
        .then(pl.col("xc_source"))
        .when(choice == "xa")
        .then(pl.col("xa_source"))
        .when(choice == "x")
        .then(pl.col("x_platform_source"))
        .alias("_accelerator_source"),
    ]


def _count() -> list[pl.Expr]:
    """The chip count: the row's, the section's, the column's, the row's nodes times the
    chips per node of the system the value ran on, else the context's (unless the table
    states counts elsewhere, or it is of another chip); a count stated for another chip than
    the value's is none."""
    chip = pl.col("_chip")
    context_fits = ~pl.col("_states_count") & (
        chip.is_null() | pl.col("x_count_chip").is_null() | (pl.col("x_count_chip") == chip)
    )
    # "8" under "GPUs per node" beside "2" under "Nodes": 16 chips
    per_node = (pl.col("rc_source") == "per_node") & pl.col("rn_n").is_not_null()
    row_count = pl.when(per_node).then(pl.col("rc_n") * pl.col("rn_n")).otherwise(pl.col("rc_n"))
    candidates = (
        (row_count, "rc_chip", pl.col("rc_source").replace(["parallel", "per_node"], "row")),
        (pl.col("fc_n"), "fc_chip", pl.lit("row")),
        (pl.col("sc_n"), "sc_chip", pl.lit("section")),
        (pl.col("h_count"), "h_count_chip", pl.lit("column")),
    )
    # Parallel degrees in a row ("FSDP 4, CP 2") may leave out the degrees the table's
    # context fixes ("... + TP + PP ... 512 GPUs"): a count the context states outright wins.
    context_count = pl.struct(
        n=pl.col("x_count"), chip=pl.col("x_count_chip"), source=pl.col("x_count_source")
    )
    count = pl.when(
        (pl.col("rc_source") == "parallel")
        & pl.col("x_count").is_not_null()
        & (chip.is_null() | pl.col("x_count_chip").is_null() | (pl.col("x_count_chip") == chip))
    ).then(context_count)
    # "4" under "Nodes" of a DGX H100, "4" under "Instances" of a trn1.32xlarge: the nodes
    # times the chips the named system holds, before the one system's own chips the row's
    # platform cell implies (a count the row states outright stays the count).
    chips_of_nodes = pl.col("rn_n") * pl.col("_implied")
    nodes = pl.struct(n=chips_of_nodes, chip=chip, source=pl.lit("row"))
    nodes_given = chips_of_nodes.is_not_null()
    count = count.when(nodes_given & pl.col("rc_stated").is_null()).then(nodes)
    # "H100" under "2 GPUs": the one chip a bare chip name implies gives way to the count the
    # column states outright.
    column_count = pl.struct(
        n=pl.col("h_count"), chip=pl.col("h_count_chip"), source=pl.lit("column")
    )
    implied_row = pl.col("rc_n").is_not_null() & pl.col("rc_stated").is_null()
    count = count.when(implied_row & pl.col("h_count_stated").fill_null(False)).then(column_count)
    for number, count_chip, source in candidates:
        struct = pl.struct(n=number, chip=pl.col(count_chip), source=source)
        count = count.when(number.is_not_null()).then(struct)
    count = count.when(nodes_given).then(nodes)
    count = count.when(context_fits & pl.col("x_count").is_not_null()).then(context_count)
    return [count.alias("_count")]


def _precision_from() -> pl.Expr:
    """Where a value's precision comes from: its own cell's remark (vq: "30.6(INT8)"), its
    column header where the row's columns differ in it (h), its row's role cells (rq), their
    words (fq), its section (sq), its column header (h), the context's precision of its chip
    (xp), else its table's context (x). A column of its own, which every precision field
    reads."""
    # A row whose values stand under columns of different precisions ("Accuracy | FP32 |
    # INT8" beside "Quantization Bit | INT8"): each column's precision is its values', the
    # row's cannot be both.
    split = pl.col("h_precision").is_not_null() & (
        pl.col("h_precision").drop_nulls().n_unique().over([*_TABLE, "vrow"]) > 1
    )
    return (
        pl.when(pl.col("vq_text").is_not_null())
        .then(pl.lit("vq"))
        .when(split)
        .then(pl.lit("h"))
        .when(pl.col("rq_text").is_not_null())
        .then(pl.lit("rq"))
        .when(pl.col("fq_text").is_not_null())
        .then(pl.lit("fq"))
        .when(pl.col("sq_text").is_not_null())
        .then(pl.lit("sq"))
        .when(pl.col("h_precision").is_not_null())
        .then(pl.lit("h"))
        # "FP8 H100, FP16 A100": the context's precision of the value's own chip
        .when(~pl.col("_states_precision") & pl.col("xp_text").is_not_null())
        .then(pl.lit("xp"))
        .when(
            ~pl.col("_states_precision") & ~pl.col("xp_table") & pl.col("x_precision").is_not_null()
        )
        .then(pl.lit("x"))
        .alias("_precision_from")
    )


def _row_names_framework(values: pl.DataFrame) -> pl.Expr:
    """Whether a row of the value's table names a framework's run, where a caption or heading
    names one: the table then compares frameworks, and the heading's is not every row's."""
    if "x_framework" not in values.columns or values.get_column("x_framework").is_null().all():
        return pl.lit(False).alias("_row_framework")
    labels = values.get_column("row_label").drop_nulls().unique().to_list()
    # a row named by a framework's run ("CTranslate2 3.6.0", "Transformers 4.26.1 (with
    # PyTorch 1.13.1)"), not one whose other labels mention one ("GPTQ-Int8", "onnx_opset=13")
    named = pl.col("row_label").replace_strict(
        labels, [framework_first(label.split(" / ")[0]) for label in labels], default=False
    )
    return named.any().over(_TABLE).alias("_row_framework")


def _labels() -> list[pl.Expr]:
    count = pl.col("_count").struct
    fits = (
        count.field("chip").is_null()
        | pl.col("_chip").is_null()
        | (count.field("chip") == pl.col("_chip"))
    )
    precision_from = pl.col("_precision_from")

    def precision(row_field: str, header_field: str, context_field: str) -> pl.Expr:
        return (
            pl.when(precision_from == "vq")
            .then(pl.col(f"vq_{row_field}"))
            .when(precision_from == "rq")
            .then(pl.col(f"rq_{row_field}"))
            .when(precision_from == "fq")
            .then(pl.col(f"fq_{row_field}"))
            .when(precision_from == "sq")
            .then(pl.col(f"sq_{row_field}"))
            .when(precision_from == "h")
            .then(pl.col(header_field))
            .when(precision_from == "xp")
            .then(pl.col(f"xp_{row_field}"))
            .when(precision_from == "x")
            .then(pl.col(context_field))
        )

    metric = pl.col("metric")
    # the row names none: its table's caption may, unless the row names a run of another
    # framework ("OpenNMT-tf 2.31.0 (with TensorFlow 2.11.0)" under "# CTranslate2")
    framed = pl.col("framework").is_null() & ~pl.col("_row_framework")
    return [
        pl.col("_chip").alias("accelerator"),
        pl.when(framed)
        .then(pl.col("x_framework"))
        .otherwise(pl.col("framework"))
        .alias("framework"),
        pl.when(framed)
        .then(canonical_framework(pl.col("x_framework")))
        .otherwise(pl.col("framework_canonical"))
        .alias("framework_canonical"),
        pl.col("_vendor").alias("vendor"),
        # "Acc Top1 (GPU)" beside "Acc Top1 (NPU)": the device, where no chip is named for it
        pl.coalesce("platform", "_platform_text", "_column_device").alias("platform"),
        pl.when(fits).then(count.field("n")).alias("accelerator_count"),
        pl.when(fits).then(count.field("source")).alias("_count_source"),
        precision("text", "h_precision", "x_precision").alias("precision"),
        precision("act", "h_act", "x_act").alias("activation_dtype"),
        precision("wt", "h_wt", "x_wt").alias("weight_dtype"),
        pl.when(precision_from == "vq")
        .then(pl.lit("cell"))
        .when(precision_from.is_in(["rq", "fq"]))
        .then(pl.lit("row"))
        .when(precision_from == "sq")
        .then(pl.lit("section"))
        .when(precision_from == "h")
        .then(pl.lit("column"))
        .when(precision_from == "xp")
        .then(pl.col("xp_source"))
        .when(precision_from == "x")
        .then(pl.col("x_precision_source"))
        .alias("_precision_source"),
        pl.when(pl.col("model").is_not_null())
        .then(pl.lit("row"))
        .when(pl.col("s_model").is_not_null())
        .then(pl.lit("section"))
        .when(pl.col("k_model").is_not_null())
        .then(pl.col("k_model_source"))
        .alias("_model_source"),
        pl.coalesce("model", "s_model", "k_model").alias("model"),
        pl.when(pl.col("model").is_null() & pl.col("s_model").is_not_null())
        .then(pl.col("s_model_canonical"))
        .otherwise(pl.coalesce("model_canonical", "k_model_canonical"))
        .alias("model_canonical"),
        pl.coalesce("model_item", "s_model_item", "k_model_item").alias("_model_item"),
        pl.coalesce(
            "x_workload",
            # A column header naming the workload ("MFU", "Step Time" beside a "TPS" column of
            # prime-rl's RL and SFT runs) says more than a time per step read as a latency.
            pl.when(pl.col("k_workload_source") == "column").then(pl.col("k_workload")),
            pl.when(metric == "latency")
            .then(pl.lit("inference"))
            .when(metric == "time_to_train")
            .then(pl.lit("training"))
            .otherwise(pl.col("table_workload")),
            "variant_workload",
            "k_workload",  # what the table's columns or the page title imply
        ).alias("workload"),
    ]


def _derived() -> list[pl.Expr]:
    count = pl.col("accelerator_count")
    chip = pl.col("accelerator")
    named = pl.col("_system_named")
    throughput = pl.col("metric") == "throughput"
    sources = [
        pl.when(chip.is_not_null()).then(
            pl.format("accelerator={}", pl.col("_accelerator_source"))
        ),
        pl.format("accelerator_count={}", pl.col("_count_source")),
        pl.format("metric={}", pl.col("metric_source")),
        pl.format("model={}", pl.col("_model_source")),
        pl.format("precision={}", pl.col("_precision_source")),
        pl.format("unit={}", pl.col("unit_source")),
        pl.when(pl.col("dataset").is_not_null() & (pl.col("dataset") == pl.col("x_dataset"))).then(
            pl.format("dataset={}", pl.col("x_dataset_source"))
        ),
        pl.when(pl.col("workload").is_not_null() & (pl.col("workload") == pl.col("x_workload")))
        .then(pl.format("workload={}", pl.col("x_workload_source")))
        .when(
            pl.col("workload").is_not_null()
            & (pl.col("k_workload_source") == "column")
            & (pl.col("workload") == pl.col("k_workload"))
        )
        .then(pl.lit("workload=column"))
        .when(
            pl.col("workload").is_not_null()
            & pl.col("x_workload").is_null()
            & pl.col("table_workload").is_null()
            & pl.col("variant_workload").is_null()
            & ~pl.col("metric").is_in(["latency", "time_to_train"])
            & (pl.col("workload") == pl.col("k_workload"))
        )
        .then(pl.format("workload={}", pl.col("k_workload_source"))),
    ]
    return [
        pl.when(named.is_not_null() & (count.is_null() | (count == pl.col("_implied"))))
        .then(named)
        # "4" under "Nodes" of a DGX H100: four of the system, 32 chips
        .when(named.is_not_null() & (pl.col("_implied") > 0) & (count % pl.col("_implied") == 0))
        .then(pl.format("{}x {}", count // pl.col("_implied"), named))
        .when(chip.is_null())
        .then(pl.lit(None, dtype=pl.String))
        .when(count.is_not_null())
        .then(pl.format("{}x {}", count, chip))
        .otherwise(chip)
        .alias("system"),
        pl.when(throughput)
        .then(pl.coalesce("unit_item_kind", "_model_item", pl.lit("items")))
        .alias("item_kind"),
        # A rate published per device ("TPS/GPU") is already one; one per node or per user
        # says nothing of a device's.
        pl.when(throughput & (pl.col("rate_per") == "accelerator"))
        .then(pl.col("value"))
        # "62.65*2" under "Samples per second" on 2 cards: 62.65 is each card's
        .when(throughput & pl.col("qualifier").str.starts_with("each of ").fill_null(False))
        .then(pl.col("value"))
        .when(throughput & pl.col("rate_per").is_null() & (count > 0))
        .then(pl.col("value") / count)
        .alias("value_per_accelerator"),
        pl.concat_str(sources, separator="; ", ignore_nulls=True).alias("label_sources"),
        _unresolved(),
    ]


def _unresolved() -> pl.Expr:
    """The row's unresolved labels, and the hardware no vocabulary knows that its section,
    its column header or its table's context names ("NeoChip X2 (16 chips)")."""
    unknown = pl.col("_chip").is_null() | pl.col("_unknown_chip").fill_null(False)
    around = pl.when(
        pl.col("_from").is_in(["fp", "sp", "h", "x"])
        & unknown
        & pl.col("_platform_text").is_not_null()
    ).then(pl.format("platform={}", pl.col("_platform_text")))
    joined = pl.concat_str([pl.col("unresolved"), around], separator="; ", ignore_nulls=True)
    return pl.when(joined != "").then(joined).alias("unresolved")


# ---- natural keys -----------------------------------------------------------------------------


def identity_parts() -> list[pl.Expr]:
    """The identifying labels of a measurement, folded: 'model=resnet50v15', 'platform=...'."""
    return [
        pl.format("{}={}", pl.lit(role), fold_key(pl.col(column)).fill_null(""))
        for role, column in IDENTITY_PARTS
    ]


def _identity(frame: pl.DataFrame) -> pl.Expr:
    """A value's natural key: its identifying labels (a platform not resolved to a system as
    published), its metric, and what else tells it apart on its page (statistic, remark,
    settings). Labels repeat: each distinct one is folded once."""

    def folded(column: pl.Expr, name: str) -> pl.Expr:
        distinct = frame.select(column.alias(name).unique().drop_nulls()).to_series()
        keys = [label_key(text) for text in distinct.to_list()]
        return column.replace_strict(distinct, keys, default=None, return_dtype=pl.String)

    parts = [
        pl.format(
            "{}={}",
            pl.lit(role),
            folded(
                pl.coalesce("system", "platform") if column == "system" else pl.col(column), role
            ).fill_null(""),
        )
        for role, column in IDENTITY_PARTS
    ]
    parts.append(pl.format("metric={}", pl.col("metric")))
    parts += [
        pl.when(pl.col(name).is_not_null()).then(
            pl.format("{}={}", pl.lit(name), folded(pl.col(name), name))
        )
        for name in ("statistic", "qualifier", "settings")
    ]
    return pl.concat_str(parts, separator="|", ignore_nulls=True)


def _with_identities(frame: pl.DataFrame) -> pl.DataFrame:
    """Natural keys. Of the values of one document that would share one, the first on the
    page keeps it (so that a row added beside an existing one changes nothing of it); the
    others are told apart by their column, then their row's label, then their order."""
    frame = frame.with_columns(row_identity=_identity(frame))
    shared = frame.select("document", "row_identity").is_duplicated()
    if not shared.any():
        return frame
    # A told-apart key gains a part no first key has, so only the sharing rows need work,
    # and only the columns that tell them apart.
    together = (
        frame.select("document", *PAGE_ORDER, "column_name", "row_label", "row_identity")
        .with_row_index("_row")
        .filter(shared)
        .sort("document", *PAGE_ORDER, maintain_order=True)
    )
    for extra in (
        pl.format("column={}", fold_key(pl.col("column_name"))),
        pl.format("row={}", fold_key(pl.col("row_label").fill_null(""))),
        pl.format("occurrence={}", _ordinal()),
    ):
        later = _ordinal() > 1
        if not together.select(later.any()).item():
            break
        together = together.with_columns(
            row_identity=pl.when(later)
            .then(pl.concat_str([pl.col("row_identity"), extra], separator="|"))
            .otherwise(pl.col("row_identity"))
        )
    return frame.with_columns(
        frame.get_column("row_identity").scatter(
            together.get_column("_row"), together.get_column("row_identity")
        )
    )


def _ordinal() -> pl.Expr:
    """1 for the first value of a document with its key, 2 for the second..."""
    return pl.int_range(pl.len()).over("document", "row_identity") + 1

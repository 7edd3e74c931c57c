"""Seeded synthetic results pages (HTML or text captures) with their ground truth as Parquet."""

from __future__ import annotations

import argparse
import html
import json
import os
import random
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import polars as pl

from bench.tables import HEADER_LEVEL_SEPARATOR, Table, draw_number, format_count
from bench.vendor_layouts import mix_vendor_tables

NBSP = "\u00a0"
# Every page gets this mtime (the pipeline reads it as the capture time), so two corpora
# generated with the same arguments ingest identically; an edited page is one day later.
BASE_MTIME = 1_704_067_200  # 2024-01-01T00:00:00Z
EDIT_DELAY_S = 86_400
TRUTH_SCHEMA = {
    "page": pl.String,
    "table_index": pl.Int32,
    "table_title": pl.String,
    "row_number": pl.Int32,
    "column_name": pl.String,
    "metric": pl.String,
    "value": pl.Float64,
    "unit": pl.String,
    "raw_value": pl.String,
}
_SUPERSCRIPT_ONE = "\u00b9"

TRAINING = (
    "Model",
    "Variant",
    "Platform",
    "SDK Version",
    "Framework",
    "Dataset",
    "Batch Size",
    "Precision",
    "Throughput (items/sec)",
)
INFERENCE = (*TRAINING, "Latency (ms)")
MLPERF = (
    "Division",
    "Model",
    "MLPerf Quality Target",
    "Platform",
    "SDK Version",
    "Framework",
    "MLPerf ID",
    "Dataset",
    "Precision",
    "Time to Train (mins)",
)
TIME_TO_RESULT = (*TRAINING[:-1], "Time To Result (secs)")
CHALLENGE = (
    "Dataset Challenge",
    "Model",
    "Platform",
    "SDK Version",
    "Framework",
    "Throughput (items/sec)",
    "Time to Train",
    "Evaluation Metric",
    "OGB-LSC 2022 Ranking",
)
METRIC_OF_HEADER = {
    "Throughput (items/sec)": "throughput",
    "Latency (ms)": "latency",
    "Time to Train (mins)": "time_to_train",
    "Time To Result (secs)": "time_to_result",
    "Time to Train": "time_to_train",
    "Evaluation Metric": "eval_metric",
    "OGB-LSC 2022 Ranking": "ranking",
}
UNIT_OF_METRIC = {
    "throughput": "items/s",
    "latency": "ms",
    "time_to_train": "s",
    "time_to_result": "s",
    "ranking": "place",
}

# Platform families: every label resolves through schemas/vocab/platforms.csv.
FAMILIES = {
    "Bow Platform": ("Bow Pod16", "Bow Pod64", "Bow Pod256", "Bow-2000", "Bow Pod1024"),
    "IPU-POD Classic": ("IPU-POD16", "IPU-POD64", "IPU-M2000", "IPU-POD128", "IPU-POD256"),
    "NVIDIA Reference Systems": ("DGX A100", "A100 SXM4 80GB", "DGX H100", "H100", "V100"),
    "Habana Systems": ("8x Gaudi2", "HLS-Gaudi2", "4x Gaudi2", "16x Gaudi"),
    "Google Cloud": ("TPU v4-128", "TPU v4-64", "TPU v4-256"),
}
MODELS = (
    (
        "BERT Large",
        (
            "Ph1 Pre-Training (SL128)",
            "Ph1 Pre-Training (SL128) - Packed",
            "Ph2 Pre-Training (SL512) - Packed",
            "Fine-Tuning (SQuAD)",
            "SL128",
            "",
        ),
        ("Wikipedia", "SQuAD v1.1"),
    ),
    ("BERT Base", ("Ph1 Pre-Training (SL128)", "SL384", ""), ("Wikipedia", "SQuAD v1.1")),
    ("ResNet50 v1.5", ("", "TF Keras", "Popart Fused"), ("ImageNet2012", "ImageNet")),
    ("EfficientNet-B4", ("G16-EfficientNet", "Standard", ""), ("ImageNet",)),
    (
        "GPT2",
        ("GPT2-Small", "GPT2-Medium", "GPT2-Large"),
        ("Wikipedia", "Synthetic (host-generated)"),
    ),
    ("ViT", ("Fine-Tuning", "ViT-B/16", ""), ("ImageNet1k", "CIFAR-10")),
    ("Conformer", ("Conformer-Medium", "Conformer-Small"), ("LibriSpeech", "AISHELL-1")),
    ("YOLOv4", ("P5", "P6"), ("COCO 2017",)),
    ("RNN-T", ("", "Transducer"), ("LibriSpeech",)),
    ("Swin-Base (224)", ("Fine-Tuning", ""), ("ImageNet1k",)),
    ("MCMC TFP", ("",), ("Proprietary", "")),
    ("DINO", ("ViT-S/16", ""), ("ImageNet1k",)),
    ("FastPitch", ("", "LJ Speech"), ("LJSpeech",)),
)
FRAMEWORKS = (
    "PyTorch",
    "TensorFlow2",
    "TensorFlow1",
    "PopART",
    "Poplar",
    "PaddlePaddle",
    "JAX",
    "TensorRT",
    "PyTorch Geometric",
)
SDKS = (
    "SDK 2.4.0",
    "SDK 2.5.1",
    "SDK 2.6",
    "SDK 3.0",
    "SDK 3.1",
    "SDK 3.2",
    "SDK 3.3",
    "Pre-SDK 3.4",
    "v1.13",
    "22.09",
)
PRECISIONS = ("16.16", "16.16", "16.16", "16.32", "32.32", "FP16", "BF16")
BATCH_SIZES = (
    1,
    2,
    4,
    8,
    16,
    32,
    64,
    128,
    256,
    512,
    1024,
    2048,
    4096,
    8192,
    9600,
    54784,
    56064,
    65280,
    66560,
)
QUALITY_TARGETS = (
    "75.90% classification",
    "0.72 Mask-LM accuracy",
    "0.058 WER",
    "0.377 mAP",
    "0.9 Dice",
)
WORDS = (
    "accelerator",
    "throughput",
    "results",
    "training",
    "inference",
    "model",
    "system",
    "performance",
    "benchmark",
    "configuration",
    "submission",
    "software",
    "memory",
    "scale",
    "latency",
    "precision",
    "dataset",
    "cluster",
    "compiler",
    "kernel",
    "pipeline",
    "efficiency",
    "platform",
    "customers",
    "workloads",
    "research",
)


@dataclass
class Page:
    name: str
    title: str
    published: str
    paragraphs: list[str]
    tables: list[Table] = field(default_factory=list)


# ---- the page's content ---------------------------------------------------------------------


def seed_random(seed: int, index: int, revision: int = 0) -> random.Random:
    # Seeded per page, so page i is the same whatever the corpus size.
    return random.Random(f"perfledger-bench:{seed}:{index}:{revision}")


def make_sentence(rng: random.Random, words: int = 14) -> str:
    chosen = [rng.choice(WORDS) for _ in range(words)]
    return " ".join(chosen).capitalize() + "."


def make_paragraph(rng: random.Random) -> str:
    return " ".join(make_sentence(rng, rng.randint(8, 20)) for _ in range(rng.randint(2, 4)))


def draw_throughput(rng: random.Random) -> str:
    magnitude = 10 ** rng.uniform(1.2, 6.2)
    text = draw_number(rng, magnitude * 0.9, magnitude, 1 if rng.random() < 0.15 else 0)
    # A footnote marker glued to the number, as pages print it with <sup>.
    return text + _SUPERSCRIPT_ONE if rng.random() < 0.03 else text


def draw_batch_size(rng: random.Random) -> str:
    return "" if rng.random() < 0.08 else format_count(rng.choice(BATCH_SIZES))


def draw_dimensions(rng: random.Random, family: str) -> list[str]:
    model, variants, datasets = rng.choice(MODELS)
    dataset = rng.choice(datasets)
    return [
        model,
        rng.choice(variants),
        rng.choice(FAMILIES[family]),
        rng.choice(SDKS),
        rng.choice(FRAMEWORKS),
        "" if rng.random() < 0.05 else dataset,
        draw_batch_size(rng),
        rng.choice(PRECISIONS),
    ]


def make_training_table(rng: random.Random, family: str, title: str) -> Table:
    rows = [
        [*draw_dimensions(rng, family), draw_throughput(rng)] for _ in range(rng.randint(25, 60))
    ]
    intro = (
        "The results below detail the throughput obtained for each model in the "
        "specified configuration."
    )
    return Table(title, intro, TRAINING, rows, draw_note(rng))


def make_inference_table(rng: random.Random, family: str, title: str) -> Table:
    rows = []
    for _ in range(rng.randint(20, 45)):
        latency = "" if rng.random() < 0.1 else draw_number(rng, 0.4, 250.0, 2)
        rows.append([*draw_dimensions(rng, family), draw_throughput(rng), latency])
    intro = (
        "Inference performance is measured as throughput and latency, the time taken "
        "to execute one inference."
    )
    return Table(title, intro, INFERENCE, rows, draw_note(rng))


def make_mlperf_table(rng: random.Random, family: str, title: str) -> Table:
    rows = []
    for _ in range(rng.randint(4, 12)):
        model, _variants, datasets = rng.choice(MODELS[:4])
        rows.append(
            [
                rng.choice(("Closed", "Open")),
                model,
                rng.choice(QUALITY_TARGETS),
                rng.choice(FAMILIES[family]),
                rng.choice(SDKS),
                rng.choice(FRAMEWORKS),
                f"2.0-{rng.randint(2000, 2099)}",
                rng.choice(datasets),
                rng.choice(PRECISIONS),
                draw_number(rng, 5.0, 400.0, 2),
            ]
        )
    intro = "Closed division submissions use the reference model and optimizer."
    return Table(title, intro, MLPERF, rows, "* MLPerf name and logo are trademarks of MLCommons.")


def make_time_to_result_table(rng: random.Random, family: str, title: str) -> Table:
    rows = [
        [*draw_dimensions(rng, family), format_count(rng.randint(10, 9000))]
        for _ in range(rng.randint(2, 6))
    ]
    return Table(
        title, "Time to result covers the whole workflow end to end.", TIME_TO_RESULT, rows, None
    )


def make_challenge_table(rng: random.Random, family: str, title: str) -> Table:
    rows = []
    places = ("First", "Second", "Third", "1st", "2nd")
    for dataset, model, score in (
        ("PCQM4Mv2", "GPS++", "MAE"),
        ("WikiKG90Mv2", "TransE (256)", "MRR"),
    ):
        hours, minutes = rng.randint(1, 47), rng.randint(0, 59)
        rows.append(
            [
                dataset,
                model,
                rng.choice(FAMILIES[family]),
                rng.choice(SDKS),
                rng.choice(FRAMEWORKS),
                draw_throughput(rng).rstrip(_SUPERSCRIPT_ONE),
                f"{hours}h {minutes}m",
                f"{rng.uniform(0.01, 0.9):.4f} {score}",
                rng.choice(places),
            ]
        )
    return Table(
        title,
        "These results are summarised below.",
        CHALLENGE,
        rows,
        "\u2020 Evaluation metric uses ensembled results on the test-challenge split.",
    )


def draw_note(rng: random.Random) -> str | None:
    if rng.random() < 0.5:
        return None
    return rng.choice(
        (
            "* Results obtained with the SDK's default compiler options.",
            "\u2020 Batch size is the global batch size across all accelerators.",
            "* Precision X.Y: X bits for activations and gradients, Y bits for weights.",
        )
    )


def make_tables(rng: random.Random) -> list[Table]:
    first, second = rng.sample(sorted(FAMILIES), 2)
    tables = []
    if rng.random() < 0.3:
        tables.append(make_challenge_table(rng, first, "OGB-LSC 2022 Results"))
    tables.append(make_training_table(rng, first, f"{first} - Training"))
    tables.append(make_inference_table(rng, first, f"{first} - Inference"))
    if rng.random() < 0.7:
        tables.append(make_mlperf_table(rng, first, "MLPerf v2.0 Training Results"))
    if rng.random() < 0.5:
        tables.append(make_training_table(rng, second, f"{second} - Training"))
    if rng.random() < 0.5:
        tables.append(make_inference_table(rng, second, f"{second} - Inference"))
    if rng.random() < 0.5:
        tables.append(make_time_to_result_table(rng, second, f"{second} - Time to Result"))
    return tables


def build_page(seed: int, index: int, fmt: str, revision: int = 0) -> Page:
    """Page `index` of the corpus in `fmt` ("html" or "text"); a revision > 0 republishes it
    with a few values changed."""
    rng = seed_random(seed, index)
    page = Page(
        name=name_page(index),
        title=rng.choice(("Performance Results", "Benchmark Results", "AI Performance Data")),
        published=f"{rng.choice(('January', 'March', 'July', 'October'))} "
        f"{rng.randint(1, 28)}, {rng.randint(2021, 2024)}",
        paragraphs=[make_paragraph(rng) for _ in range(rng.randint(3, 6))],
        tables=mix_vendor_tables(make_tables(rng), seed, index, fmt),
    )
    if revision:
        revise_page(page, seed_random(seed, index, revision))
    return page


def revise_page(page: Page, rng: random.Random) -> None:
    """A republished page: a few throughput numbers re-measured."""
    table = next(t for t in page.tables if t.headers[-1] == TRAINING[-1])
    for row in rng.sample(table.rows, min(3, len(table.rows))):
        row[-1] = draw_throughput(rng)


def name_page(index: int) -> str:
    return f"results-{index:05d}"


# ---- ground truth ---------------------------------------------------------------------------


def derive_value(metric: str, header: str, raw: str) -> tuple[float, str]:
    """The value and unit a correct pipeline derives from a published cell."""
    text = raw.rstrip(_SUPERSCRIPT_ONE).replace(",", "")
    if metric == "eval_metric":
        number, unit = text.split(" ", 1)
        return float(number), unit
    if metric == "ranking":
        places = {"first": 1, "second": 2, "third": 3, "1st": 1, "2nd": 2}
        return float(places[text.lower()]), "place"
    hours_minutes = re.fullmatch(r"(\d+)h (\d+)m", text)
    if hours_minutes:
        return float(int(hours_minutes[1]) * 3600 + int(hours_minutes[2]) * 60), "s"
    if header.endswith("(mins)"):
        return float(Decimal(text) * 60), "s"
    return float(Decimal(text)), UNIT_OF_METRIC[metric]


def list_expected(page: Page) -> list[tuple]:
    rows = []
    for table_index, table in enumerate(page.tables):
        if table.expected is not None:
            title = table.context or table.title
            rows += [
                (
                    page.name,
                    table_index,
                    title,
                    row_number,
                    table.headers[column],
                    expected.metric,
                    expected.value,
                    expected.unit,
                    table.rows[row_number - 1][column],
                )
                for (row_number, column), expected in table.expected.items()
            ]
            continue
        for row_number, cells in enumerate(table.rows, start=1):
            for header, raw in zip(table.headers, cells, strict=True):
                metric = METRIC_OF_HEADER.get(header)
                if metric is None or not raw:
                    continue
                value, unit = derive_value(metric, header, raw)
                rows.append(
                    (
                        page.name,
                        table_index,
                        table.title,
                        row_number,
                        header,
                        metric,
                        value,
                        unit,
                        raw,
                    )
                )
    return rows


def to_truth_frame(rows: list[tuple]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=TRUTH_SCHEMA, orient="row")


# ---- HTML -----------------------------------------------------------------------------------


def render_html(page: Page, rng: random.Random) -> str:
    """A page the size and shape of a vendor's results page: chrome, scripts and tables."""
    body = render_html_body(page)
    target = rng.randint(110_000, 290_000)
    head = render_html_head(page, rng)
    header = render_navigation(rng)
    footer = render_footer(rng)
    filler = max(0, target - len(body) - len(head) - len(header) - len(footer))
    return (
        '<!DOCTYPE html>\n<html lang="en-US">\n'
        + head
        + render_state_script(rng, filler)
        + '</head>\n<body class="page-template-default page">\n'
        + header
        + '<main id="main" class="site-main">\n<article class="entry">\n'
        + body
        + "</article>\n</main>\n"
        + footer
        + render_tracking_scripts()
        + "</body>\n</html>\n"
    )


def render_html_head(page: Page, rng: random.Random) -> str:
    rules = "\n".join(
        f".wp-block-{rng.choice(WORDS)}-{i} {{ margin: {rng.randint(0, 40)}px "
        f"{rng.randint(0, 40)}px; color: #{rng.randint(0, 0xFFFFFF):06x}; }}"
        for i in range(rng.randint(60, 160))
    )
    return (
        '<head>\n<meta charset="UTF-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(page.title)} | Example Accelerators</title>\n"
        f'<meta property="og:title" content="{html.escape(page.title)}">\n'
        '<meta property="og:site_name" content="Example Accelerators">\n'
        '<link rel="stylesheet" href="/wp-content/themes/site/style.css?ver=6.4">\n'
        '<link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>\n'
        f'<style id="global-styles-inline-css">\n{rules}\n</style>\n'
    )


def render_state_script(rng: random.Random, size: int) -> str:
    """The page builder's state as inline JSON: most of a real page's bytes, none of its data."""
    items = []
    length = 0
    while length < size:
        item = {
            "id": rng.randint(1, 10**9),
            "slug": "-".join(rng.choice(WORDS) for _ in range(4)),
            "title": make_sentence(rng, 6),
            "excerpt": make_sentence(rng, rng.randint(12, 30)),
            "tags": [rng.choice(WORDS) for _ in range(rng.randint(1, 5))],
        }
        text = json.dumps(item)
        items.append(text)
        length += len(text) + 2
    widget = (
        '"<table><tr><th>Model</th><th>Platform</th><th>Throughput (items/sec)</th></tr>'
        '<tr><td>Cached</td><td>Bow Pod16</td><td>999,999</td></tr></table>"'
    )
    return (
        '<script id="site-state">\nwindow.__SITE_STATE__ = {"posts": [\n'
        + ",\n".join(items)
        + f'\n], "cachedWidget": {widget}}};\n</script>\n'
    )


def render_navigation(rng: random.Random) -> str:
    links = "\n".join(
        f'<li class="menu-item"><a href="/{rng.choice(WORDS)}/{rng.choice(WORDS)}">'
        f"{rng.choice(WORDS).capitalize()} {rng.choice(WORDS)}</a></li>"
        for _ in range(rng.randint(40, 120))
    )
    icon = (
        '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true">'
        '<path d="M12 2L2 7l10 5 10-5-10-5zm0 7.5L4.2 6 12 2.5 19.8 6 12 9.5z"/></svg>'
    )
    return (
        '<header class="site-header">\n<a class="logo" href="/">' + icon + "</a>\n"
        '<nav class="main-navigation" aria-label="Main">\n<ul class="menu">\n'
        + links
        + "\n</ul>\n</nav>\n</header>\n"
    )


def render_footer(rng: random.Random) -> str:
    columns = "\n".join(
        '<ul class="footer-column">\n'
        + "\n".join(
            f'<li><a href="/{rng.choice(WORDS)}">{rng.choice(WORDS).capitalize()}</a></li>'
            for _ in range(rng.randint(5, 12))
        )
        + "\n</ul>"
        for _ in range(4)
    )
    return (
        '<footer class="site-footer">\n'
        + columns
        + "\n<p>&copy; Example Accelerators Ltd. All rights reserved.</p>\n</footer>\n"
    )


def render_tracking_scripts() -> str:
    return (
        "<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push("
        "arguments);} gtag('js', new Date());</script>\n"
        '<noscript><img height="1" width="1" style="display:none" '
        'src="https://www.facebook.com/tr?id=1&amp;ev=PageView&amp;noscript=1"></noscript>\n'
    )


def render_html_body(page: Page) -> str:
    parts = [
        f'<h1 class="entry-title">{html.escape(page.title)}</h1>\n',
        f'<p class="posted-on">Published {page.published}</p>\n',
    ]
    parts += [f"<p>{html.escape(text)}</p>\n" for text in page.paragraphs]
    for number, table in enumerate(page.tables, start=1):
        parts.append(render_html_table(table, number))
    return "".join(parts)


def render_cell(tag: str, column: int, text: str) -> str:
    if not text:
        content = "&nbsp;"
    elif text.endswith(_SUPERSCRIPT_ONE):
        content = html.escape(text[:-1]) + "<sup>1</sup>"
    else:
        content = html.escape(text)
    return f'\t<{tag} class="column-{column}">{content}</{tag}>\n'


def render_html_table(table: Table, number: int) -> str:
    if table.header_levels == 2:
        header = render_two_level_header(table.headers)
    else:
        header = (
            '<tr class="row-1 odd">\n'
            + "".join(render_cell("th", c, h) for c, h in enumerate(table.headers, start=1))
            + "</tr>\n"
        )
    context = f"<h3>{html.escape(table.context)}</h3>\n" if table.context else ""
    caption = f"<p>{html.escape(table.caption)}</p>\n" if table.caption else ""
    rows = []
    for row_number, cells in enumerate(table.rows, start=2):
        parity = "even" if row_number % 2 == 0 else "odd"
        rows.append(
            f'<tr class="row-{row_number} {parity}">\n'
            + "".join(render_cell("td", c, t) for c, t in enumerate(cells, start=1))
            + "</tr>\n"
        )
    note = f'<p class="table-footnote">{html.escape(table.note)}</p>\n' if table.note else ""
    return (
        f'<h2 id="section-{number}">{html.escape(table.title)}</h2>\n{context}'
        f"<p>{html.escape(table.intro)}</p>\n{caption}"
        f'<div class="table-wrapper">\n<table id="tablepress-{number}" '
        f'class="tablepress tablepress-id-{number}">\n<thead>\n'
        + header
        + '</thead>\n<tbody class="row-hover">\n'
        + "".join(rows)
        + "</tbody>\n</table>\n</div>\n"
        + note
    )


def render_two_level_header(headers: tuple[str, ...]) -> str:
    """Two header rows: a column of one level spans both, a top level shared by neighbouring
    columns spans them."""
    groups: list[tuple[str, list[str]]] = []  # (top text, the texts below it; none: one level)
    for name in headers:
        upper, _, lower = name.partition(HEADER_LEVEL_SEPARATOR)
        if lower and groups and groups[-1][1] and groups[-1][0] == upper:
            groups[-1][1].append(lower)
        else:
            groups.append((upper, [lower] if lower else []))
    top, bottom = [], []
    column = 1
    for upper, lowers in groups:
        span = f'colspan="{len(lowers)}"' if lowers else 'rowspan="2"'
        top.append(f'\t<th class="column-{column}" {span}>{html.escape(upper)}</th>\n')
        bottom += [render_cell("th", column + offset, lower) for offset, lower in enumerate(lowers)]
        column += max(1, len(lowers))
    return (
        '<tr class="row-1 odd">\n' + "".join(top) + "</tr>\n"
        '<tr class="row-2 even">\n' + "".join(bottom) + "</tr>\n"
    )


# ---- text captures --------------------------------------------------------------------------


def render_text(page: Page) -> str:
    """The page flattened as a text capture: one cell per line, U+00A0 for an empty cell."""
    blocks = [page.title, f"Published {page.published}", *page.paragraphs, NBSP]
    for table in page.tables:
        lines = [*table.headers, *(cell or NBSP for row in table.rows for cell in row)]
        blocks += [
            table.title,
            *filter(None, (table.context, table.intro, table.caption)),
            "\n".join(lines),
        ]
        if table.note:
            blocks.append(table.note)
    blocks.append("All rights reserved. Terms of use apply to every result on this page.")
    return "\n\n".join(blocks) + "\n"


# ---- the corpus on disk ---------------------------------------------------------------------


def render(page: Page, fmt: str, seed: int, index: int) -> str:
    if fmt == "html":
        return render_html(page, random.Random(f"perfledger-bench-chrome:{seed}:{index}"))
    return render_text(page)


def choose_suffix(fmt: str) -> str:
    return ".html" if fmt == "html" else ".txt"


def write_page(folder: Path, page: Page, fmt: str, seed: int, index: int, mtime: int) -> int:
    path = folder / f"{page.name}{choose_suffix(fmt)}"
    data = render(page, fmt, seed, index).encode("utf-8")
    path.write_bytes(data)
    os.utime(path, (mtime, mtime))
    return len(data)


def generate(pages: int, seed: int, out: Path, fmt: str) -> dict:
    """Write `pages` pages to out/pages/ and their ground truth to out/truth.parquet."""
    folder = out / "pages"
    folder.mkdir(parents=True, exist_ok=True)
    truth: list[tuple] = []
    size = 0
    for index in range(pages):
        page = build_page(seed, index, fmt)
        size += write_page(folder, page, fmt, seed, index, BASE_MTIME)
        truth += list_expected(page)
    frame = to_truth_frame(truth)
    frame.write_parquet(out / "truth.parquet")
    summary = {
        "pages": pages,
        "seed": seed,
        "format": fmt,
        "bytes": size,
        "measurements": frame.height,
    }
    (out / "manifest.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary


def edit_pages(out: Path, fmt: str, seed: int, indexes: list[int], revision: int = 1) -> None:
    """Republish some pages of a generated corpus with new values and a later capture time."""
    for index in indexes:
        page = build_page(seed, index, fmt, revision)
        write_page(out / "pages", page, fmt, seed, index, BASE_MTIME + revision * EDIT_DELAY_S)


def render_history_page(version: int) -> str:
    """A small text capture whose version `version` differs from the one before in one value."""
    rows = [
        [
            "BERT Large",
            "SL128",
            "Bow Pod16",
            "SDK 3.3",
            "PyTorch",
            "Wikipedia",
            format_count(64 * (i + 1)),
            "16.16",
            format_count(1000 + i * 10),
        ]
        for i in range(5)
    ]
    rows[version % 5][-1] = format_count(2000 + version)
    page = Page(
        "history",
        "Performance Results",
        "July 4, 2023",
        ["A small page."],
        [Table("Bow Platform - Training", "Throughput per model.", TRAINING, rows)],
    )
    return render_text(page)


def write_history(folder: Path, versions: int) -> None:
    """`versions` captures of one page, one minute apart, each a new version of one source."""
    folder.mkdir(parents=True, exist_ok=True)
    for version in range(versions):
        path = folder / f"history-{version:05d}.txt"
        path.write_text(render_history_page(version), encoding="utf-8")
        os.utime(path, (BASE_MTIME + 60 * version,) * 2)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.generate", description=__doc__)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--format", choices=("html", "text"), default="html")
    args = parser.parse_args(argv)
    summary = generate(args.pages, args.seed, args.out, args.format)
    print(
        f"{summary['pages']} {summary['format']} pages, {summary['bytes'] / 1e6:.1f} MB, "
        f"{summary['measurements']} expected measurements -> {args.out}"
    )


if __name__ == "__main__":
    main()

"""Fuzz the whole read of a page (decode, layout, cells, normalize, validate, claims) with atheris.

    pip install atheris
    python -m fuzz.parsers -atheris_runs=100000

Inputs start from the demo pages (sources/corpus) and the HTML and Markdown fixtures; new
inputs that reach new code are written to a scratch corpus folder (PERFLEDGER_FUZZ_CORPUS,
default <tmp>/perfledger-fuzz-corpus), and any input that crashes is saved by libFuzzer as
crash-<sha1> in the working directory. Arguments are libFuzzer's (-max_total_time=600,
-jobs=2, a corpus folder of your own, ...). A ParseFailure is an answer, not a crash; any
other exception, a cell out of place, more than -timeout seconds (10) or -rss_limit_mb (4096)
is a finding. The test suite runs `check_one_input` over the seed corpus on every run
(tests/reliability/test_fuzz_parsers.py), so the target cannot rot.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED_FOLDERS = (
    ROOT / "sources" / "corpus",
    ROOT / "tests" / "fixtures" / "html",
    ROOT / "tests" / "fixtures" / "markdown",
)
# The first byte picks how the page was served, so each layout's sniffing is exercised too.
CONTENT_TYPES = (
    "",
    "text/plain",
    "text/html",
    "text/markdown",
    "application/xhtml+xml",
    "text/html; charset=utf-16",
    "text/plain; charset=windows-1252",
)
DEFAULT_FLAGS = ("-timeout=10", "-rss_limit_mb=4096")
INSTRUMENTED = ["sources", "schemas"]


def seed_inputs() -> list[Path]:
    """Every seed file, in a stable order."""
    return sorted(path for folder in SEED_FOLDERS for path in folder.iterdir() if path.is_file())


def check_one_input(data: bytes) -> None:
    """Read `data` as a page; raise on anything a page must never cause."""
    from perfledger.schemas.normalize import DocumentContext, normalize_cells
    from perfledger.schemas.validate import validate_measurements
    from perfledger.sources.claims.extract import extract_claims
    from perfledger.sources.parse import ParseFailure, parse_document

    content_type = CONTENT_TYPES[data[0] % len(CONTENT_TYPES)] if data else ""
    try:
        parsed, layout = parse_document(data, content_type)
    except ParseFailure:
        return
    check_cells_in_place(parsed.cells)
    context = DocumentContext(
        "fuzz",
        "https://example.invalid/",
        "0" * 64,
        parsed.metadata.title,
        "2024-01-01T00:00:00Z",
        f"{layout}/fuzz",
    )
    normalized = normalize_cells(parsed.cells, context)
    validate_measurements(normalized.measurements)
    claims = extract_claims(parsed.prose, parsed.metadata.title)
    paragraphs = [text for _, text in parsed.prose]
    for sentence in claims.claims["sentence"].to_list():
        assert any(sentence in paragraph for paragraph in paragraphs), sentence


def check_cells_in_place(cells) -> None:
    """Every cell sits in a table with a header, inside that header's width, on a real line."""
    headers = cells.filter(cells["row_number"] == 0).group_by("table_index").len()
    widths = dict(zip(headers["table_index"].to_list(), headers["len"].to_list(), strict=True))
    for table_index, row_number, column_index, raw_value, line_number in cells.select(
        "table_index", "row_number", "column_index", "raw_value", "line_number"
    ).iter_rows():
        assert row_number >= 0 and line_number >= 1 and raw_value is not None
        assert table_index in widths, f"table {table_index} has no header"
        assert 0 <= column_index < widths[table_index], (table_index, column_index)


def corpus_folder() -> Path:
    folder = Path(
        os.environ.get("PERFLEDGER_FUZZ_CORPUS")
        or Path(tempfile.gettempdir()) / "perfledger-fuzz-corpus"
    )
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def fuzz_arguments(argv: list[str]) -> list[str]:
    """libFuzzer's arguments: the defaults unless given, and the corpus folders unless given
    (the writable scratch folder first, then the seed folders, which it only reads)."""
    flags = [arg for arg in argv[1:] if arg.startswith("-")]
    folders = [arg for arg in argv[1:] if not arg.startswith("-")]
    named = {flag.split("=")[0] for flag in flags}
    flags += [flag for flag in DEFAULT_FLAGS if flag.split("=")[0] not in named]
    folders = folders or [str(corpus_folder()), *map(str, SEED_FOLDERS)]
    return [argv[0], *flags, *folders]


def main(argv: list[str]) -> None:
    import atheris

    with atheris.instrument_imports(include=INSTRUMENTED):
        import perfledger.schemas.normalize  # noqa: F401 - imported here to be instrumented
        import perfledger.schemas.validate  # noqa: F401
        import perfledger.sources.claims.extract  # noqa: F401
        import perfledger.sources.parse  # noqa: F401
    atheris.Setup(fuzz_arguments(argv), check_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)

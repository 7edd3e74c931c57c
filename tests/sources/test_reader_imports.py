"""A document reader loads pandera (and with it pandas and numpy, ~90 MB per reader process)
only for a page whose cells or claims the quick checks doubt, never for a sound page."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from tests.conftest import PROJECT_ROOT


def modules_after_reading(html: str) -> tuple[dict, set[str]]:
    script = textwrap.dedent("""
        import json, sys
        from perfledger.sources.claims.extract import extract_claims, load_lexicon
        from perfledger.sources.parse import parse_document

        load_lexicon()  # as a reader does on starting
        parsed, layout = parse_document(sys.stdin.buffer.read(), "text/html", "auto")
        claims = extract_claims(parsed.prose, parsed.metadata.title)
        print(json.dumps({"cells": parsed.cells.height, "claims": claims.claims.height,
                          "modules": sorted({name.split(".")[0] for name in sys.modules})}))
    """)
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=html.encode(),
        capture_output=True,
        cwd=PROJECT_ROOT,
        check=True,
        env={"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin"},
    )
    found = json.loads(done.stdout)
    return found, set(found.pop("modules"))


GOOD_PAGE = """<html><head><title>Results</title></head><body>
<p>The IPU-M2000 is 3x faster than the A100 on BERT training.</p>
<h2>Training results</h2>
<table><tr><th>Model</th><th>Time to train</th></tr>
<tr><td>BERT</td><td>12.5 minutes</td></tr><tr><td>ResNet-50</td><td>4.1 minutes</td></tr></table>
</body></html>"""


def test_reading_a_sound_page_never_imports_pandera():
    found, modules = modules_after_reading(GOOD_PAGE)
    assert found["cells"] > 0 and found["claims"] > 0  # both quick checks ran
    assert not modules & {"pandera", "pandas", "numpy"}


def test_a_reader_process_reads_a_sound_page_without_pandera(tmp_path):
    from perfledger.flows.budget import Budget, Worker, read_archived
    from perfledger.sources import archive

    sha256, _ = archive.store(tmp_path, GOOD_PAGE.encode(), {})
    worker = Worker()
    try:
        kind, (parsed, _layout, claims, _plans) = worker.exchange(
            read_archived, (tmp_path, sha256, "text/html", "auto", False), Budget()
        )
        assert kind == "ok" and parsed.cells.height > 0 and claims.claims.height > 0
        kind, modules = worker.exchange(eval, ("sorted(__import__('sys').modules)",), Budget())
    finally:
        worker.stop()
    assert kind == "ok"
    assert not {name.split(".")[0] for name in modules} & {"pandera", "pandas", "numpy"}

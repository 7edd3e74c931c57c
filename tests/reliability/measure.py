"""`python -m tests.reliability.measure WAREHOUSE FILE ...`: ingest, print outcome and memory."""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path


def measure(warehouse: Path, files: list[str]) -> dict:
    from perfledger.flows import budget, pipeline

    started = time.monotonic()
    summary = pipeline.ingest(files, warehouse)
    seconds = time.monotonic() - started
    budget.stop_workers()  # a stopped worker counts in RUSAGE_CHILDREN
    return {
        "seconds": round(seconds, 2),
        "statuses": sorted(d.status for run in summary.runs for d in run.documents),
        "values_added": summary.total("values_added"),
        "failures": [failure.message for failure in summary.failures],
        "peak_mb": int(budget.peak_resident_mb()),
        "worker_peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024,
    }


if __name__ == "__main__":
    print(json.dumps(measure(Path(sys.argv[1]), sys.argv[2:])))

"""The ingest benchmark's memory sampler counts this process and every live descendant."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from bench.measure import ProcessTree, TreePeak

SAMPLES_WITHIN_S = 30.0
HOLD_100_MB = (
    "import time; block = b'x' * (100 * 2**20); print('ready', flush=True); time.sleep(60)"
)


def test_a_descendant_and_its_memory_are_counted():
    child = subprocess.Popen([sys.executable, "-c", HOLD_100_MB], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        assert child.pid in ProcessTree(os.getpid()).members()
        with TreePeak(interval_s=0.01) as tree:
            # one sample reads every process's memory map: on a busy machine it may take
            # longer than the interval, so wait for two, up to a bound
            deadline = time.monotonic() + SAMPLES_WITHIN_S
            while tree.samples < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
        assert tree.samples >= 2
        assert tree.peak_mb >= 100
        assert tree.descendant_peak_rss_mb >= 100
    finally:
        child.kill()
        child.wait()

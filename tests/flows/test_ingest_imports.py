"""An ingest's main process loads neither pandera nor pandas, numpy or pyarrow: together
they cost it about 100 MB, and a sound page needs none of them."""

from __future__ import annotations

import json
import subprocess
import sys

from perfledger.flows import pipeline
from tests.conftest import JULY_2023, PROJECT_ROOT

HEAVY = ("pandera", "pandas", "numpy", "pyarrow")


def output_lines(code: str, *args: str) -> list[str]:
    """The lines a fresh interpreter prints running `code` with `args`: the test process
    itself has imported every heavy module long ago."""
    finished = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin"},
    )
    return finished.stdout.strip().splitlines()


INGEST_AND_LIST = """
import json, sys
from pathlib import Path
from perfledger.flows import cli, pipeline  # cli: as `perfledger ingest` loads it
summary = pipeline.ingest([sys.argv[1]], Path(sys.argv[2]))
print(json.dumps({
    "loaded": sorted(name for name in sys.argv[3].split(",") if name in sys.modules),
    "values": sum(run.counts.values_added for run in summary.runs),
}))
"""


def test_an_ingest_loads_no_pandera_pandas_numpy_or_pyarrow(tmp_path):
    """The seed page passes validation: pandera is for a frame that fails it."""
    lines = output_lines(
        INGEST_AND_LIST, str(JULY_2023), str(tmp_path / "warehouse"), ",".join(HEAVY)
    )
    found = json.loads(lines[-1])
    assert found["values"] > 0  # the page went through validation and the load
    assert found["loaded"] == []


# `perfledger sql` checks the statement read-only, opens the warehouse and answers.
QUERY_AND_LIST = """
import json, sys
from pathlib import Path
from perfledger.warehouse import query
columns, rows = query.run_sql(Path(sys.argv[1]), "SELECT count(*) AS n FROM measurements")
print(json.dumps({
    "loaded": sorted(name for name in sys.argv[2].split(",") if name in sys.modules),
    "rows": rows,
}))
"""


def test_a_query_loads_no_pandas_numpy_or_pyarrow(tmp_path):
    """The read-only check parses the statement with DuckDB: a query parameter bound there
    would import pandas and numpy, half a second of every `perfledger sql`."""
    warehouse = tmp_path / "warehouse"
    lines = output_lines(INGEST_AND_LIST, str(JULY_2023), str(warehouse), "pandas")
    loaded = json.loads(lines[-1])["values"]
    found = json.loads(output_lines(QUERY_AND_LIST, str(warehouse), ",".join(HEAVY))[-1])
    assert loaded > 0 and found["rows"] == [[loaded]]  # the query saw every value loaded
    assert found["loaded"] == []


SQL_COMMAND_AND_LIST = """
import json, sys
from perfledger.flows.cli import main
main(["sql", "--format", "json", "--warehouse", sys.argv[1],
      "SELECT count(*) AS n FROM measurements"], standalone_mode=False)
print(json.dumps(sorted(name for name in sys.modules if name.startswith(sys.argv[2]))))
"""


def test_perfledger_sql_loads_no_other_command(tmp_path):
    """The modules of flows/commands/ are loaded when their command is run or listed."""
    loaded_values = pipeline.ingest([str(JULY_2023)], tmp_path / "warehouse").total("values_added")
    *answer, loaded = output_lines(
        SQL_COMMAND_AND_LIST, str(tmp_path / "warehouse"), "perfledger.flows.commands."
    )
    assert json.loads("\n".join(answer)) == [{"n": loaded_values}]
    assert json.loads(loaded) == []

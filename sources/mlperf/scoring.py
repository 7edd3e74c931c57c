"""Official MLPerf Training score of one system and benchmark from its runs, by the round's rules.

The rules are data, in sources/mlperf/rules/ (one row per round and benchmark, each with its
source); this module only applies them. What they encode, and where it was read:

* Runs per benchmark and the benchmarks of each round: mlcommons/logging
  mlperf_logging/benchmark_meta.py (commit e6e040b), `_ALL_RESULT_FILE_COUNTS['training']`
  (one count per benchmark, the same in every round: bert 10, dlrm 5, dlrm_dcnv2 10, gnmt 10,
  gpt3 3, maskrcnn 5, minigo 10, resnet 5, ssd 5, retinanet 5, stable_diffusion 10,
  transformer 10, ncf 10, rnnt 10, unet3d 40, gnn 10, rgat 10, llama2_70b_lora 10) and
  `_ALL_ALLOWED_BENCHMARKS['training']` for rounds 0.6 to 5.0. The package checker
  (mlperf_logging/package_checker/package_checker.py, commit 6191db6) requires exactly that
  many `result_*.txt` files ("Incorrect number of files in dir, or wrong file names").
  mlcommons/training_policies training_rules.adoc ("Version 1.0", commit decaf38, section
  "Benchmark Results") gives the same table: 5, 40, 5, 5, 10, 10, 5, 10 runs.
  Round 0.6 is left out: its summarizer checks no run count, and the counts table above was
  written for later rounds. Benchmarks added to a round after that commit (llama31_405b in
  5.0, every 5.1 and 6.0 benchmark) have no count in the stored sources, so no rule here.
* How the score is computed: mlperf_logging/result_summarizer/result_summarizer.py (commit
  d4a66d8), `_compute_strong_scaling_scores` and `_compute_olympic_average`. Every
  `result_*.txt` of the benchmark folder is a run; a run that fails the compliance check or
  has no run_start/run_stop is a dropped score. `max_dropped_scores` is 4 for unet3d and 1
  for every other benchmark; more dropped scores than that make the result "NOT correct".
  The run times, (run_stop - run_start) ms / 60 / 1000, are sorted; the `max_dropped_scores`
  fastest are dropped and as many slowest as the dropped runs have not already filled
  (`scores[max:len(scores) - (max - dropped)]`); the score is the mean of the rest, None when
  none is left. The 0.6.0/0.7.0 summarizer (`_compute_olympic_average(scores,
  dropped_scores)`) drops the fastest run, and the slowest unless a run was dropped: the same
  arithmetic with a maximum of 1.
* scaling.json: `_get_scaling_factor` (same file) reads `{"scaling_factor": f}` from the
  benchmark folder, a factor the review committee may set, and multiplies the olympic mean by
  it. The 0.6.0/0.7.0 summarizer reads no such file: training_rounds.csv says which rounds
  apply it.
* `_benchmark_alias`: a folder named `mask` is scored as maskrcnn.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TypeGuard

RULES_DIR = Path(__file__).resolve().parent / "rules"
TRAINING_RULES = RULES_DIR / "training.csv"
TRAINING_ROUNDS = RULES_DIR / "training_rounds.csv"
RULES_PATH_SHOWN = "sources/mlperf/rules/training.csv"
BENCHMARK_ALIASES = {"mask": "maskrcnn"}  # result_summarizer.py `_benchmark_alias`
SCALING_APPLIED = "applied"
SCALING_IGNORED = "ignored"


@dataclass(frozen=True)
class RoundRule:
    """What a round's summarizer does beyond the per-benchmark counts."""

    mlperf_round: str
    ruleset: str  # the checker's name for the round, e.g. "2.0.0"
    scaling_json: str  # applied | ignored
    source: str

    @property
    def applies_scaling(self) -> bool:
        return self.scaling_json == SCALING_APPLIED


@dataclass(frozen=True)
class BenchmarkRule:
    """How many runs a benchmark needs and how many are dropped at each end."""

    mlperf_round: str
    benchmark: str
    required_runs: int
    max_dropped: int  # dropped at each end; also the most non-converged runs allowed
    source: str
    round_rule: RoundRule

    @property
    def dropped_each_end(self) -> int:
        return self.max_dropped

    @property
    def rule_id(self) -> str:
        return f"training-v{self.mlperf_round}/benchmark-results/{self.benchmark}"

    @property
    def text(self) -> str:
        drop = (
            "the fastest and the slowest run"
            if self.max_dropped == 1
            else (f"the {self.max_dropped} fastest and the {self.max_dropped} slowest runs")
        )
        limit = (
            "one non-converged run"
            if self.max_dropped == 1
            else (f"up to {self.max_dropped} non-converged runs")
        )
        scaling = (
            "scaling.json's scaling_factor multiplies the score"
            if self.round_rule.applies_scaling
            else "no scaling.json is applied"
        )
        return (
            f"MLPerf Training v{self.mlperf_round}: exactly {self.required_runs} runs; drop "
            f"{drop}, mean of the rest in minutes; {limit} may count as the slowest and be "
            f"dropped, more makes the result invalid; {scaling} ({self.source}; "
            f"{self.round_rule.source})"
        )


@dataclass(frozen=True)
class Rules:
    benchmarks: dict[tuple[str, str], BenchmarkRule]
    rounds: dict[str, RoundRule]


@cache
def load_rules() -> Rules:
    """The rules in sources/mlperf/rules/; a malformed row is a mistake in the project: raise."""
    rounds: dict[str, RoundRule] = {}
    for row in _read_csv(TRAINING_ROUNDS, ["round", "ruleset", "scaling_json", "source"]):
        if row["scaling_json"] not in (SCALING_APPLIED, SCALING_IGNORED):
            raise ValueError(
                f"{TRAINING_ROUNDS.name}: scaling_json of round {row['round']} "
                f"is '{row['scaling_json']}', not applied/ignored"
            )
        rounds[row["round"]] = RoundRule(
            row["round"], row["ruleset"], row["scaling_json"], row["source"]
        )
    benchmarks: dict[tuple[str, str], BenchmarkRule] = {}
    columns = ["round", "benchmark", "required_runs", "max_dropped", "source"]
    for row in _read_csv(TRAINING_RULES, columns):
        key = (row["round"], row["benchmark"])
        required, dropped = int(row["required_runs"]), int(row["max_dropped"])
        if key in benchmarks or row["round"] not in rounds or not 0 < dropped < required:
            raise ValueError(f"{TRAINING_RULES.name}: bad or repeated rule {row}")
        benchmarks[key] = BenchmarkRule(
            row["round"], row["benchmark"], required, dropped, row["source"], rounds[row["round"]]
        )
    return Rules(benchmarks, rounds)


def _read_csv(path: Path, columns: list[str]) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames != columns:
            raise ValueError(f"{path.name}: columns {reader.fieldnames}, expected {columns}")
        return [{key: (value or "").strip() for key, value in row.items()} for row in reader]


def canonical_benchmark(name: str) -> str:
    """The benchmark a folder is scored as: 'mask' -> 'maskrcnn', as the summarizer does."""
    return BENCHMARK_ALIASES.get(name, name)


def find_rule(benchmark: str, mlperf_round: str | None) -> BenchmarkRule | None:
    if mlperf_round is None:
        return None
    return load_rules().benchmarks.get((mlperf_round, canonical_benchmark(benchmark)))


def find_round_rule(mlperf_round: str | None) -> RoundRule | None:
    return load_rules().rounds.get(mlperf_round) if mlperf_round is not None else None


def missing_rule_reason(benchmark: str, mlperf_round: str | None) -> str:
    """Why a benchmark has no rule: the round is unknown, not in the rules, or lacks it."""
    rules = load_rules()
    if mlperf_round is None:
        return (
            f"no scoring rule for benchmark '{benchmark}': the round is unknown; name it "
            "with `perfledger ingest --round 2.0` (read_results_tree(path, "
            "mlperf_round='2.0')) or read the tree from a folder named training_results_v2.0"
        )
    rounds = sorted(rules.rounds, key=round_key)
    if mlperf_round not in rules.rounds:
        return (
            f"no scoring rule for benchmark '{benchmark}' in round v{mlperf_round}: "
            f"{RULES_PATH_SHOWN} has rounds " + ", ".join(f"v{r}" for r in rounds)
        )
    names = sorted(name for (r, name) in rules.benchmarks if r == mlperf_round)
    return (
        f"no scoring rule for benchmark '{benchmark}' in round v{mlperf_round}: "
        f"{RULES_PATH_SHOWN} has for v{mlperf_round} " + ", ".join(names)
    )


def round_key(mlperf_round: str) -> tuple[int, ...]:
    """'2.0' -> (2, 0), so rounds sort as numbers ('10.0' after '9.1')."""
    return tuple(int(part) for part in mlperf_round.split(".") if part.isdigit())


@dataclass(frozen=True)
class RunTime:
    """One run as scoring sees it: its name, its time and whether it converged."""

    name: str
    minutes: float | None
    converged: bool


@dataclass
class BenchmarkScore:
    score_minutes: float | None
    valid: bool
    reason: str | None
    rule: BenchmarkRule | None
    runs_found: int
    runs_converged: int
    used: list[str] = field(default_factory=list)
    dropped: dict[str, str] = field(default_factory=dict)  # run name -> fastest/slowest/...
    scaling_factor: float = 1.0  # multiplied into score_minutes (scaling.json), 1.0 if none

    @property
    def runs_non_converged(self) -> int:
        return self.runs_found - self.runs_converged


def score_benchmark(
    runs: list[RunTime],
    benchmark: str,
    mlperf_round: str | None,
    scaling_factor: float | None = None,
) -> BenchmarkScore:
    """The olympic mean of a benchmark's runs, with the runs used and dropped and why.

    `scaling_factor` is the benchmark folder's scaling.json, if it has one; it is applied only
    in rounds whose summarizer applies it (training_rounds.csv).
    """
    rule = find_rule(benchmark, mlperf_round)
    converged = sorted(
        (run for run in runs if run.converged and run.minutes is not None),
        key=lambda run: (run.minutes, run.name),
    )
    failed = [run.name for run in runs if not (run.converged and run.minutes is not None)]
    score = BenchmarkScore(None, False, None, rule, len(runs), len(converged))
    score.dropped = {name: "not_converged" for name in failed}
    if rule is None:
        score.reason = missing_rule_reason(benchmark, mlperf_round)
        return score
    if not runs:
        score.reason = "no run: the folder holds no result_*.txt file"
        return score
    keep = rule.max_dropped
    if len(failed) > keep:
        score.reason = f"{len(failed)} runs did not converge; the rule allows {keep}"
        return score
    slow_cut = keep - len(failed)  # non-converged runs already fill the slow end
    counted = converged[keep : len(converged) - slow_cut]
    score.dropped |= {run.name: "fastest" for run in converged[:keep]}
    score.dropped |= {run.name: "slowest" for run in converged[len(converged) - slow_cut :]}
    if not counted:
        score.reason = (
            f"no run left after dropping the {keep} fastest and slowest: "
            f"{len(runs)} runs found, the rule requires {rule.required_runs}"
        )
        return score
    factor = 1.0
    if scaling_factor is not None and rule.round_rule.applies_scaling:
        factor = scaling_factor
    score.used = [run.name for run in counted]
    # The summarizer's arithmetic, in its order: sum of the sorted times, / count, * factor.
    score.score_minutes = (
        sum(run.minutes for run in counted if run.minutes is not None) * 1.0 / len(counted) * factor
    )  # every converged run has its minutes
    score.scaling_factor = factor
    score.valid = len(runs) == rule.required_runs
    if not score.valid:
        score.reason = f"{len(runs)} runs found; the rule requires exactly {rule.required_runs}"
    return score


def is_valid_scaling_factor(value) -> TypeGuard[int | float]:
    """A positive finite number (JSON may hold an int too large for a float: not one)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        number = float(value)
    except OverflowError:
        return False
    return math.isfinite(number) and number > 0

"""Official MLPerf Training score of one system and benchmark from its runs, by the round's rules.

What the rules say, and where it was read:

* mlcommons/training_policies, training_rules.adoc, section "Benchmark Results" (the copy
  read is headed "Version 0.7"; later rounds keep the rule and change the table of run
  counts): "Each benchmark result is computed by dropping the fastest and slowest runs,
  then taking the mean of the remaining times. For this purpose, a single non-converging
  run may be treated as the slowest run and dropped. A benchmark result is invalid if there
  is more than one non-converging run." A run result is the wall-clock time of the run
  (section "Run Results"), logged from run_start to run_stop.
* Runs per benchmark in round v2.0: mlcommons/logging mlperf_logging/benchmark_meta.py,
  `_ALL_RESULT_FILE_COUNTS['training']` for the v2.0 benchmark list: bert 10, dlrm 5,
  maskrcnn 5, minigo 10, resnet 5, rnnt 10, ssd 5, unet3d 40 (image segmentation went to 40
  runs in training_policies PR #439, April 2021, before v1.0). The package checker
  (mlperf_logging/package_checker/package_checker.py) requires exactly that many files.
* How MLCommons computes the published score: mlcommons/logging
  mlperf_logging/result_summarizer/result_summarizer.py (`_compute_strong_score_standalone`,
  `_compute_olympic_average`). A run that fails the compliance check (run_stop status other
  than success, or no run_start/run_stop) is a dropped score; `max_dropped_scores` is 4 for
  unet3d and 1 for every other benchmark, and more dropped runs than that make the result
  "NOT correct". The converged times are sorted, the `max_dropped_scores` fastest are
  dropped and as many slowest as the non-converged runs have not already filled; the score
  is the mean of the rest in minutes, (run_stop - run_start) ms / 60000.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RULES_SOURCE = (
    "mlcommons/training_policies training_rules.adoc 'Benchmark Results'; "
    "mlcommons/logging benchmark_meta.py and result_summarizer.py"
)


@dataclass(frozen=True)
class BenchmarkRule:
    """How many runs a benchmark needs and how many are dropped at each end."""

    mlperf_round: str
    benchmark: str
    required_runs: int
    dropped_each_end: int  # also the most non-converged runs a valid result may hold

    @property
    def rule_id(self) -> str:
        return f"training-v{self.mlperf_round}/benchmark-results/{self.benchmark}"

    @property
    def text(self) -> str:
        drop = "the fastest and the slowest run" if self.dropped_each_end == 1 else (
            f"the {self.dropped_each_end} fastest and the {self.dropped_each_end} slowest runs"
        )
        limit = "one non-converged run" if self.dropped_each_end == 1 else (
            f"up to {self.dropped_each_end} non-converged runs"
        )
        return (
            f"MLPerf Training v{self.mlperf_round}: exactly {self.required_runs} runs; drop "
            f"{drop}, mean of the rest in minutes; {limit} may count as the slowest and be "
            f"dropped, more makes the result invalid ({RULES_SOURCE})"
        )


def _build_rules(mlperf_round: str, counts: dict[str, int], wide: dict[str, int]) -> dict:
    return {
        (mlperf_round, name): BenchmarkRule(mlperf_round, name, runs, wide.get(name, 1))
        for name, runs in counts.items()
    }


RULES: dict[tuple[str, str], BenchmarkRule] = _build_rules(
    "2.0",
    {"bert": 10, "dlrm": 5, "maskrcnn": 5, "minigo": 10, "resnet": 5, "rnnt": 10, "ssd": 5,
     "unet3d": 40},
    {"unet3d": 4},
)


def find_rule(benchmark: str, mlperf_round: str | None) -> BenchmarkRule | None:
    if mlperf_round is None:
        return None
    return RULES.get((mlperf_round, benchmark))


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

    @property
    def runs_non_converged(self) -> int:
        return self.runs_found - self.runs_converged


def score_benchmark(
    runs: list[RunTime], benchmark: str, mlperf_round: str | None
) -> BenchmarkScore:
    """The olympic mean of a benchmark's runs, with the runs used and dropped and why."""
    rule = find_rule(benchmark, mlperf_round)
    converged = sorted(
        (run for run in runs if run.converged and run.minutes is not None),
        key=lambda run: (run.minutes, run.name),
    )
    failed = [run.name for run in runs if not (run.converged and run.minutes is not None)]
    score = BenchmarkScore(None, False, None, rule, len(runs), len(converged))
    score.dropped = {name: "not_converged" for name in failed}
    if rule is None:
        score.reason = f"no scoring rule for benchmark '{benchmark}' in round {mlperf_round}"
        return score
    keep = rule.dropped_each_end
    if len(failed) > keep:
        score.reason = (f"{len(failed)} runs did not converge; the rule allows {keep}")
        return score
    slow_cut = keep - len(failed)  # non-converged runs already fill the slow end
    counted = converged[keep:len(converged) - slow_cut]
    score.dropped |= {run.name: "fastest" for run in converged[:keep]}
    score.dropped |= {run.name: "slowest" for run in converged[len(converged) - slow_cut:]}
    if not counted:
        score.reason = "no run left after dropping the fastest and slowest"
        return score
    score.used = [run.name for run in counted]
    score.score_minutes = sum(run.minutes for run in counted) / len(counted)
    score.valid = len(runs) == rule.required_runs
    if not score.valid:
        score.reason = f"{len(runs)} runs found; the rule requires exactly {rule.required_runs}"
    return score

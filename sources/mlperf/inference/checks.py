"""The official value of one result and the checker's performance rules, applied to its logs.

The rules, as check_performance_dir and extra_check_llm apply them (see rules.py for where):

* LoadGen's own verdict: result_validity is VALID, and the detail log holds no error event.
* effective_performance_sample_count is at least the round's performance-sample-count.
* The three RNG seeds are the round's.
* Server, SingleStream and MultiStream use early stopping: early_stopping_met, and where the
  benchmark has a latency-constraint for the scenario, the target latency LoadGen ran with
  (effective_target_latency_ns) is within it (0 means token latencies were used instead).
* Offline: effective_min_query_count reaches the round's min-queries (not for equal-issue
  benchmarks), and effective_samples_per_query the Offline minimum.
* effective_min_duration_ms is at least 600000 (600 s).
* LLMs (llama2-70b, mixtral): token latencies requested, and outside Offline the 99th
  percentiles of time to first token and time per output token below the round's bounds.
* Equal-issue benchmarks of the closed and network divisions (v4.1):
  effective_sample_concatenate_permutation is true. A summary does not print it: unchecked.
"""

from __future__ import annotations

from perfledger.sources.mlperf.inference.loadgen import (
    SEED_KEYS,
    TPOT_P99,
    TTFT_P99,
    LoadgenLog,
)
from perfledger.sources.mlperf.inference.rules import (
    EARLY_STOPPING_SCENARIOS,
    MS_TO_NS,
    RESULT_FIELDS,
    TEST_DURATION_MS,
    RoundRules,
)


def official_value(log: LoadgenLog, field: str | None) -> float | None:
    """The result field's value in its reported unit (latencies from ns to ms)."""
    if field is None:
        return None
    value = log.number(field)
    if value is None:
        return None
    return value / MS_TO_NS if RESULT_FIELDS.get(field, ("", "", False))[2] else value


def performance_reasons(
    log: LoadgenLog, rules: RoundRules, model: str, scenario: str, division: str | None
) -> list[str]:
    """Why the run breaks the round's performance rules; empty when it keeps them all."""
    reasons: list[str] = []
    where = (log.source_file or "the log").rsplit("/", 1)[-1]

    def need(key: str) -> float | None:
        value = log.number(key)
        if value is None and key not in log.values:
            reasons.append(f"no {key} in {where}")
        return value

    validity = log.text("result_validity")
    if validity is None:
        reasons.append(f"no result_validity in {where}: the run may be cut short")
    elif validity != "VALID":
        failed = [
            name
            for key, name in (
                ("result_min_duration_met", "min duration"),
                ("result_min_queries_met", "min queries"),
                ("result_perf_constraints_met", "performance constraints"),
                ("early_stopping_met", "early stopping"),
            )
            if log.flag(key) is False
        ]
        detail = f" ({', '.join(failed)} not met)" if failed else ""
        reasons.append(f"LoadGen result is {validity}{detail}")
    if log.errors:
        reasons.append(f"LoadGen logged {len(log.errors)} error(s)")
    elif log.errors is None:
        reasons.append(f"{where} does not say whether LoadGen logged errors")
    _check_samples(need, reasons, rules, model)
    _check_seeds(log, reasons, rules, where)
    if scenario in EARLY_STOPPING_SCENARIOS:
        _check_early_stopping(log, need, reasons, rules, model, scenario, where)
    else:
        _check_offline(need, reasons, rules, model, division)
    duration = need("effective_min_duration_ms")
    if duration is not None and duration < TEST_DURATION_MS:
        reasons.append(f"min duration {duration:g} ms is under {TEST_DURATION_MS} ms")
    if model in rules.llm_latency_limits:
        _check_llm(log, need, reasons, rules, model, scenario)
    _check_equal_issue(log, reasons, rules, model, division)
    return reasons


def _check_samples(need, reasons: list[str], rules: RoundRules, model: str) -> None:
    required = rules.performance_sample_count.get(model)
    count = need("effective_performance_sample_count")
    if required is not None and count is not None and count < required:
        reasons.append(f"performance sample count {count:g} is under {required}")


def _check_seeds(log: LoadgenLog, reasons: list[str], rules: RoundRules, where: str) -> None:
    for key in SEED_KEYS:
        expected = rules.seeds[key.removeprefix("effective_")]
        found = log.values.get(key)
        if found is None:
            reasons.append(f"no {key} in {where}")
        elif found != expected:
            reasons.append(
                f"{key.removeprefix('effective_')} {found} is not the "
                f"v{rules.mlperf_round} seed {expected}"
            )


def _check_early_stopping(
    log: LoadgenLog,
    need,
    reasons: list[str],
    rules: RoundRules,
    model: str,
    scenario: str,
    where: str,
) -> None:
    met = log.flag("early_stopping_met")
    if met is None:
        reasons.append(f"no early_stopping_met in {where}")
    elif not met:
        reasons.append("early stopping was not met")
    bound = rules.latency_constraint_ns.get(model, {}).get(scenario)
    # With token latencies LoadGen runs with target 0, which a summary does not print.
    tokens = log.flag("requested_use_token_latencies") is True
    if bound and not (tokens and "effective_target_latency_ns" not in log.values):
        target = need("effective_target_latency_ns")
        if target is not None and target > bound:
            reasons.append(
                f"target latency {target / MS_TO_NS:g} ms is over the {bound / MS_TO_NS:g} ms bound"
            )


def _check_offline(
    need, reasons: list[str], rules: RoundRules, model: str, division: str | None
) -> None:
    equal_issue = model in rules.equal_issue_models and division in ("closed", "network")
    minimum = rules.min_queries.get(model, {}).get("Offline")
    if not equal_issue and minimum:
        count = need("effective_min_query_count")
        if count is not None and count < minimum:
            reasons.append(f"min query count {count:g} is under {minimum}")
    least = rules.offline_min_samples_per_query.get(model)
    applies = division == "closed" or not rules.offline_min_spq_closed_only
    if least and applies:
        per_query = need("effective_samples_per_query")
        if per_query is not None and per_query < least:
            reasons.append(f"Offline samples per query {per_query:g} is under {least}")


def _check_llm(
    log: LoadgenLog, need, reasons: list[str], rules: RoundRules, model: str, scenario: str
) -> None:
    if log.flag("requested_use_token_latencies") is not True:
        reasons.append("token latencies were not requested (use_token_latencies)")
        return
    limit = rules.llm_latency_limits[model].get(scenario)
    if scenario == "Offline" or limit is None:
        return
    for key, bound, name in (
        (TTFT_P99, limit.ttft_ns, "time to first token"),
        (TPOT_P99, limit.tpot_ns, "time per output token"),
    ):
        value = need(key)
        if value is not None and not value < bound:
            reasons.append(
                f"99th percentile {name} {value / MS_TO_NS:g} ms is not under "
                f"{bound / MS_TO_NS:g} ms"
            )


def _check_equal_issue(
    log: LoadgenLog, reasons: list[str], rules: RoundRules, model: str, division: str | None
) -> None:
    if model not in rules.equal_issue_models or division not in ("closed", "network"):
        return
    if log.flag("effective_sample_concatenate_permutation") is False:
        reasons.append("equal-issue mode (sample_concatenate_permutation) is off")

"""The claims of many publishers' prose (../shared/claims-pages): every quantified comparison of
17 documents of 9 publishers, with its subject, baseline, model and metric, read as an ingest
reads them, against the hand-written claims.csv and the look-alikes of non_claims.csv."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from perfledger.sources.claims.extract import extract_page_claims
from perfledger.sources.parse import parse_document

CLAIMS_PAGES = Path(__file__).resolve().parents[2].parent / "shared" / "claims-pages"

pytestmark = pytest.mark.skipif(
    not CLAIMS_PAGES.is_dir(), reason="the shared claims-pages corpus is not present"
)

# Words no platform or model is told apart by (those of shared/tools/score_claims.py).
GENERIC = frozenset(
    {
        "the",
        "a",
        "an",
        "of",
        "on",
        "in",
        "and",
        "or",
        "for",
        "with",
        "by",
        "to",
        "from",
        "via",
        "nvidia",
        "amd",
        "intel",
        "google",
        "aws",
        "amazon",
        "ec2",
        "gpu",
        "gpus",
        "system",
        "systems",
        "instance",
        "instances",
        "chip",
        "solution",
        "solutions",
        "cloud",
        "clouds",
        "implied",
        "previous",
        "first",
        "generation",
        "gen",
        "based",
        "comparable",
        "inference",
        "tensorrt",
        "llm",
        "fp8",
        "fp16",
        "16",
        "bit",
        "floating",
        "point",
        "tpu",
    }
)
FIELDS = ("subject", "baseline", "model", "metric")


def words(text: str | None) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", (text or "").lower()))


def holds(sentence: str | None, wanted: str) -> bool:
    """Whether a sentence holds at least 60% of the words of another."""
    need = words(wanted)
    return bool(need) and len(need & words(sentence)) / len(need) >= 0.6


def near(found: float, gold: float) -> bool:
    return abs(found - gold) <= 0.03 * gold or abs(1 / found - gold) <= 0.03 * gold


def same_party(gold: str, found: str | None) -> bool:
    """Gold and found name one platform, system or model: they share a telling word."""
    gold_keys, found_keys = words(gold) - GENERIC, words(found) - GENERIC
    if not gold_keys:
        return bool(words(gold) & words(found)) or not words(gold)
    return bool(gold_keys & found_keys)


def field_right(field: str, gold: dict, found: dict) -> bool:
    if field == "metric":
        return gold["metric"] == found["metric"]
    if field == "model" and not gold["model"]:
        return not words(found["model"]) - GENERIC
    gold_value = gold[
        "subject_platform"
        if field == "subject"
        else "baseline_platform"
        if field == "baseline"
        else "model"
    ]
    return same_party(gold_value, found[field])


def read_csv(name: str) -> list[dict]:
    with (CLAIMS_PAGES / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def found_claims() -> list[dict]:
    """Every quantified claim of every page, read as `perfledger ingest` reads it."""
    rows = []
    for path in sorted((CLAIMS_PAGES / "pages").iterdir()):
        parsed, layout = parse_document(path.read_bytes(), None, check=False)
        claims = extract_page_claims(parsed, layout).claims
        rows += [
            dict(row, doc=path.name)
            for row in claims.iter_rows(named=True)
            if row["ratio"] is not None
        ]
    return rows


@pytest.fixture(scope="module")
def matched(found_claims) -> tuple[list[tuple[dict, dict]], set[int]]:
    """Each gold claim paired with the first unused found claim of its sentence and ratio."""
    used: set[int] = set()
    pairs = []
    for gold in read_csv("claims.csv"):
        for index, found in enumerate(found_claims):
            if (
                index not in used
                and found["doc"] == gold["doc"]
                and holds(found["sentence"], gold["sentence"])
                and near(found["ratio"], float(gold["ratio"]))
            ):
                used.add(index)
                pairs.append((gold, found))
                break
    return pairs, used


def test_the_claims_of_every_publisher_are_found_with_an_f1_of_at_least_0_9(found_claims, matched):
    pairs, _ = matched
    gold = read_csv("claims.csv")
    recall, precision = len(pairs) / len(gold), len(pairs) / len(found_claims)
    f1 = 2 * recall * precision / (recall + precision)
    assert len(gold) == 122
    assert f1 >= 0.9, f"recall {recall:.2f} precision {precision:.2f}"
    assert precision >= 0.95


@pytest.mark.parametrize("field", FIELDS)
def test_found_claims_name_their_subject_baseline_model_and_metric_nine_times_in_ten(
    matched, field
):
    pairs, _ = matched
    wrong = [
        (
            gold["doc"],
            gold["line"],
            gold[
                {"subject": "subject_platform", "baseline": "baseline_platform"}.get(field, field)
            ],
            found[field],
        )
        for gold, found in pairs
        if not field_right(field, gold, found)
    ]
    assert 1 - len(wrong) / len(pairs) >= 0.9, wrong


def test_look_alikes_of_claims_are_not_claims(found_claims, matched):
    """Spec ratios, chip counts, capacities, shares, model sizes: no claim is read from a
    recorded non-claim sentence unless a gold claim stands in that same sentence."""
    _, used = matched
    look_alikes = read_csv("non_claims.csv")
    assert len(look_alikes) == 40
    taken = [
        (found["doc"], found["line_number"], found["ratio_text"])
        for index, found in enumerate(found_claims)
        if index not in used
        for look in look_alikes
        if found["doc"] == look["doc"] and holds(found["sentence"], look["sentence"])
    ]
    assert taken == []


def test_a_page_of_look_alikes_only_holds_no_claim(found_claims):
    # aws_neuron_core_v2.rst: "3x speedup relative to NeuronCore-v1" and the like are specs
    assert [f for f in found_claims if f["doc"] == "aws_neuron_core_v2.rst"] == []


def claim(found_claims: list[dict], doc: str, line: int, ratio: float) -> dict:
    hits = [
        f
        for f in found_claims
        if f["doc"] == doc and f["line_number"] == line and abs(f["ratio"] - ratio) < 1e-3
    ]
    assert len(hits) == 1, [(f["line_number"], f["ratio"]) for f in found_claims if f["doc"] == doc]
    return hits[0]


def test_a_range_states_its_upper_bound_and_its_range(found_claims):
    # vllm_pagedattention_launch.md:33 "vLLM achieves 14x - 24x higher throughput than HF"
    row = claim(found_claims, "vllm_pagedattention_launch.md", 33, 24.0)
    assert (row["subject"], row["baseline"], row["model"], row["metric"]) == (
        "vLLM",
        "Hugging Face Transformers",
        "LLaMA 7B",
        "throughput",
    )
    assert "range 14-24x" in row["qualifier"]


def test_parity_words_are_a_claim_of_ratio_one(found_claims):
    # redhat_vllm_turboquant.md:28 "FP8 matches BF16 throughput at 2x capacity."; the page
    # named FP8 as "FP8 KV-cache quantization", and the model is the one its figure names
    row = claim(found_claims, "redhat_vllm_turboquant.md", 28, 1.0)
    assert (row["subject"], row["baseline"], row["metric"], row["ratio_kind"]) == (
        "FP8 KV-cache quantization",
        "BF16",
        "throughput",
        "parity",
    )
    assert row["model"] == "Qwen3 30B-A3B Instruct"


def test_a_worse_subject_stated_in_a_list_item_under_a_heading(found_claims):
    # embeddedllm_vllm_sleep_mode.md:380, a bullet: "Without Warm-Up, Every Wake-Up Pays
    # Compilation Cost: The 5-7x slowdown happens on the first inference ..."
    row = claim(found_claims, "embeddedllm_vllm_sleep_mode.md", 380, 1 / 7)
    assert (row["subject"], row["baseline"], row["metric"], row["direction"]) == (
        "vLLM Sleep Mode",
        "with Warm-Up",
        "latency",
        "worse",
    )
    assert row["baseline_kind"] == "counterpart"


def test_a_pronoun_subject_is_the_party_its_paragraph_named(found_claims):
    # microsoft_deepspeed_chat.md:252 "On multi-GPU setup, it enables 6 – 19x speedup over
    # Colossal-AI and 1.4 – 10.5x over HuggingFace DDP"
    first = claim(found_claims, "microsoft_deepspeed_chat.md", 252, 19.0)
    second = claim(found_claims, "microsoft_deepspeed_chat.md", 252, 10.5)
    assert (first["subject"], first["baseline"]) == ("DeepSpeed", "Colossal-AI")
    assert (second["subject"], second["baseline"]) == ("DeepSpeed", "HuggingFace DDP")


def test_an_unknown_system_is_kept_as_published_never_as_a_generic_word(found_claims):
    # amd_rocm_ctranslate2.md:320 "The INT8 model was approximately 3.53x faster compared to
    # the float32 model"
    row = claim(found_claims, "amd_rocm_ctranslate2.md", 320, 3.53)
    assert (row["subject"], row["baseline"]) == ("INT8 model", "float32 model")
    assert row["unresolved"] == "system=INT8 model; system=float32 model"

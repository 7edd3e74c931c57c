"""The claim vocabularies (schemas/vocab/claim_words.toml) compiled once per process into
anchored or bounded patterns and the tables that map what they match to canonical names."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from perfledger.schemas.claims import load_claim_vocab

SPACE = r"\s{1,3}"


def fold(text: str) -> str:
    return " ".join(text.casefold().split())


def build_alternation(words: Iterable[str]) -> str:
    # Longest first so that "DGX A100 640GB" wins over "DGX A100" at the same start.
    ordered = sorted({w for w in words if w}, key=lambda w: (-len(w), w))
    return "|".join(re.escape(w).replace(r"\ ", SPACE) for w in ordered)


def compile_words(words: Iterable[str], suffix: str = "", prefix: str = "") -> re.Pattern[str]:
    return re.compile(
        rf"{prefix}(?<!\w)(?:{build_alternation(words)}){suffix}(?!\w)", re.IGNORECASE
    )


# "per-GPU throughput", "tokens per chip": a system named after "per" is a unit of measure,
# no party to a claim
NOT_AFTER_PER = r"(?<!per-)(?<!per )"


def invert(groups: Mapping[str, Iterable[str]]) -> dict[str, str]:
    return {fold(word): key for key, words in groups.items() for word in words}


@dataclass(frozen=True)
class Lexicon:
    vocab: Mapping
    system_re: re.Pattern[str]
    system_of: dict[str, str]
    vendor_re: re.Pattern[str]
    vendor_of: dict[str, str]
    model_re: re.Pattern[str]
    model_of: dict[str, str]
    metric_re: re.Pattern[str]
    metric_of: dict[str, str]
    prior_re: re.Pattern[str]
    breaker_re: re.Pattern[str]
    strong_re: re.Pattern[str]
    comparative_re: re.Pattern[str]
    comparative_at: re.Pattern[str]
    comparative_sense: dict[str, str]
    noun_at: re.Pattern[str]
    noun_sense: dict[str, str]
    modifier_metric: dict[str, str]  # a word between a number and its noun: the metric it names
    metric_noun_at: re.Pattern[str]
    metric_at: re.Pattern[str]
    quantity_at: re.Pattern[str]
    metric_marker_at: re.Pattern[str]
    noun_range_tail: re.Pattern[str]
    of_what_at: re.Pattern[str]
    equative_at: re.Pattern[str]
    equative_sense: dict[str, str]
    verb_re: re.Pattern[str]
    verb_sense: dict[str, str]
    by_tail: re.Pattern[str]
    noun_of_tail: re.Pattern[str]
    count_at: re.Pattern[str]
    multiplier_re: re.Pattern[str]
    percent_re: re.Pattern[str]
    word_number_re: re.Pattern[str]
    word_number: dict[str, tuple[float, str]]
    prefix_tail: re.Pattern[str]
    prefix_of: dict[str, str]
    suffix_at: re.Pattern[str]
    suffix_of: dict[str, str]
    context_re: re.Pattern[str]
    context_of: dict[str, str]
    intensifier_tail: re.Pattern[str]
    intensifier_of: dict[str, str]
    marker_re: re.Pattern[str]
    adjacent_marker_at: re.Pattern[str]
    leading_re: re.Pattern[str]
    negation_re: re.Pattern[str]
    negation_exception_at: re.Pattern[str]
    qual_verb_re: re.Pattern[str]
    qual_ahead_re: re.Pattern[str]
    qual_noun_re: re.Pattern[str]
    qual_marker_re: re.Pattern[str]
    than_re: re.Pattern[str]
    framework_re: re.Pattern[str]
    framework_of: dict[str, str]
    precision_re: re.Pattern[str]
    precision_of: dict[str, str]
    batch_re: re.Pattern[str]
    task_at: re.Pattern[str]
    task_re: re.Pattern[str]
    task_of: dict[str, str]
    metric_reports: dict[str, str]  # a metric whose claims are reported as another one
    not_performance: frozenset[str]  # metrics compared in prose that make no claim
    speed_metrics: frozenset[str]  # the metrics a bare speed comparative may take
    prefix_multiplier_re: re.Pattern[str]
    model_shape_re: re.Pattern[str]
    spec_figure_re: re.Pattern[str]
    parity_re: re.Pattern[str]  # the cue of a parity claim (sources/claims/parity.py)
    spec_word_re: re.Pattern[str]
    share_words: frozenset[str]
    object_verbs: frozenset[str]
    passive_re: re.Pattern[str]


def collect_aliases(table: Mapping) -> dict[str, list[str]]:
    return {name: list(entry.get("aliases", [])) + [name] for name, entry in table.items()}


def flatten(groups: Mapping[str, Iterable[str]]) -> list[str]:
    return [word for words in groups.values() for word in words]


def fold_keys(table: Mapping[str, str]) -> dict[str, str]:
    return {fold(key): value for key, value in table.items()}


def build_number_words(vocab: Mapping) -> dict[str, tuple[float, str]]:
    words: dict[str, tuple[float, str]] = {}
    for unit, table in vocab["number_words"].items():
        for word, value in table.items():
            words[fold(word)] = (float(value), unit)
    return words


def compile_at(pattern: str) -> re.Pattern[str]:
    """A pattern meant for `match` right after a position, so it never scans ahead."""
    return re.compile(pattern, re.IGNORECASE)


FROM_CONTEXT = "from_context"  # a metric word that names its metric only through the sentence
NUMBER = r"(?<![\w.,$€£])([0-9]{1,3}(?:,[0-9]{3}){1,3}|[0-9]{1,6}(?:\.[0-9]{1,4})?)"
POSSESSIVE = r"(?:'s|’s)?"


@cache
def load_lexicon() -> Lexicon:
    """Compile every vocabulary into anchored or bounded patterns, once per process."""
    vocab = load_claim_vocab()
    structure, directions = vocab["structure"], vocab["directions"]
    qualifiers, qualitative, conditions = (
        vocab["qualifiers"],
        vocab["qualitative"],
        vocab["conditions"],
    )
    systems = collect_aliases(vocab["systems"])
    models = collect_aliases(vocab["models"])
    metrics = {name: entry["words"] for name, entry in vocab["metrics"].items()}
    metrics[FROM_CONTEXT] = vocab["metric_from_context"]["words"]
    comparatives, nouns, vendors = directions["comparative"], directions["noun"], vocab["vendors"]
    metric_alt = build_alternation(flatten(metrics))
    modifiers = directions["noun_modifiers"]
    noun_alt = build_alternation(flatten(nouns))
    modifier_alt = build_alternation(modifiers)
    prefix_alt = build_alternation(qualifiers["prefix"])
    vendor_alt = build_alternation(vendors)
    equative_alt = build_alternation(flatten(directions["equative"]))
    count_alt = build_alternation(flatten(systems) + structure["count_nouns"])
    breaker_alt = build_alternation(structure["clause_breakers"])
    strong_alt = build_alternation(structure["strong_breakers"])
    negation_alt = build_alternation(structure["negations"])
    batch_alt = build_alternation(conditions["batch_size"]["modifiers"])
    task_alt = build_alternation(flatten(vocab["tasks"]))
    suffix_alt = build_alternation(vocab["system_suffixes"]["words"])
    return Lexicon(
        vocab=vocab,
        system_re=compile_words(flatten(systems), rf"(?:[ -](?:{suffix_alt}))?", NOT_AFTER_PER),
        system_of=invert(systems),
        vendor_re=compile_words(vendors, POSSESSIVE),
        vendor_of=vendor_keys(vendors),
        model_re=compile_words(flatten(models)),
        model_of=invert(models),
        metric_re=compile_words(flatten(metrics)),
        metric_of=invert(metrics),
        prior_re=compile_words(structure["prior_results"]),
        breaker_re=compile_at(rf"[,;:()\[\]–—]|(?<!\w)(?:{breaker_alt})(?!\w)"),
        strong_re=compile_at(rf"[;:]|(?<!\w)(?:{strong_alt})(?!\w)"),
        comparative_re=compile_words(flatten(comparatives)),
        comparative_at=compile_at(rf"{SPACE}({build_alternation(flatten(comparatives))})(?!\w)"),
        comparative_sense=invert(comparatives),
        # "2x reduction in the step time": the noun's metric may follow it
        # "2x reduction in the step time", "1.3x training speedup", "1.8x end-to-end speedup"
        noun_at=compile_at(
            rf"{SPACE}(?:(?P<modifier>{modifier_alt}){SPACE}(?:(?:{modifier_alt}){SPACE})?)?"
            rf"(?P<noun>{noun_alt})(?!\w)(?:{SPACE}(?:in|of|on){SPACE}(?:the{SPACE})?"
            rf"(?:[\w-]{{1,24}}{SPACE}){{0,2}}?(?P<metric>{metric_alt})(?!\w))?"
        ),
        noun_sense=invert(nouns),
        modifier_metric=fold_keys(modifiers),
        # "37% latency reduction", "3.53x actual latency reduction"
        metric_noun_at=compile_at(
            rf"{SPACE}(?:(?:{modifier_alt}){SPACE}){{0,2}}({metric_alt}){SPACE}({noun_alt})(?!\w)"
        ),
        metric_at=compile_at(rf"{SPACE}(?:the{SPACE})?({metric_alt})(?!\w)"),
        # "80% of the performance", "2.7x the serving throughput" (up to two words between)
        quantity_at=compile_at(
            rf"{SPACE}(?:of{SPACE})?the{SPACE}(?:[\w-]{{1,24}}{SPACE}){{0,2}}?({metric_alt})(?!\w)"
        ),
        # "24x throughput over HF": a multiple of a quantity named before its baseline
        metric_marker_at=compile_at(
            rf"{SPACE}({metric_alt}){SPACE}(?=(?:over|vs\.?|versus|than|compared|relative)(?!\w))"
        ),
        # "overhead ranges from 10% to 68%", "slowdowns going up to 2x", "savings: 62%"
        noun_range_tail=compile_at(
            rf"(?<!\w)({noun_alt})(?:{SPACE}(?:ranges?|ranging|is|are|was|were|of|reaches|"
            rf"reached|reaching|goes|going|went|up|to|from|at|around|about|between))"
            rf"{{0,4}}\s{{0,3}}:?\s{{0,3}}(?:(?:{prefix_alt}){SPACE})?~?$"
        ),
        of_what_at=compile_at(rf"{SPACE}of{SPACE}what(?!\w)"),
        equative_at=compile_at(rf"{SPACE}as{SPACE}({equative_alt}){SPACE}as(?!\w)"),
        equative_sense=invert(directions["equative"]),
        verb_re=compile_words(flatten(directions["verb"]) + flatten(comparatives)),
        verb_sense=invert(directions["verb"]) | invert(comparatives),
        by_tail=compile_at(rf"(?<!\w)by{SPACE}(?:(?:{prefix_alt}){SPACE})?~?$"),
        noun_of_tail=compile_at(
            rf"(?<!\w)({noun_alt}){SPACE}of{SPACE}(?:(?:{prefix_alt}){SPACE})?~?$"
        ),
        count_at=compile_at(
            rf"{SPACE}(?:(?:{vendor_alt}){POSSESSIVE}{SPACE})?(?:{count_alt})(?!\w)"
        ),
        # "3.45x times faster" says its multiplier twice
        multiplier_re=compile_at(
            NUMBER + r"(?:\s?[x×X](?:\s{1,2}times)?(?!\w)|-fold(?!\w)|\s{1,2}times(?!\w))"
        ),
        percent_re=compile_at(NUMBER + r"\s?(?:%|percent(?!\w)|per\s?cent(?!\w))"),
        word_number_re=compile_words(flatten(vocab["number_words"])),
        word_number=build_number_words(vocab),
        prefix_tail=compile_at(rf"(?<!\w)({prefix_alt})\s{{0,3}}$"),
        prefix_of=fold_keys(qualifiers["prefix"]),
        suffix_at=compile_at(rf"{SPACE}({build_alternation(qualifiers['suffix'])})(?!\w)"),
        suffix_of=fold_keys(qualifiers["suffix"]),
        context_re=compile_words(qualifiers["context"]),
        context_of=fold_keys(qualifiers["context"]),
        intensifier_tail=compile_at(
            rf"(?<!\w)({build_alternation(qualifiers['intensifier'])}){SPACE}$"
        ),
        intensifier_of=fold_keys(qualifiers["intensifier"]),
        marker_re=compile_words(structure["baseline_markers"]),
        adjacent_marker_at=compile_at(
            rf"{SPACE}({build_alternation(structure['adjacent_markers'])})(?!\w)"
        ),
        leading_re=compile_words(structure["leading_markers"]),
        negation_re=compile_at(rf"(?<![\w’'])(?:{negation_alt})(?![\w’'])"),
        negation_exception_at=compile_words(structure["negation_exceptions"]),
        qual_verb_re=compile_words(qualitative["verbs"]),
        qual_ahead_re=compile_words(qualitative["ahead"]),
        qual_noun_re=compile_words(qualitative["advantage_nouns"]),
        qual_marker_re=compile_words(qualitative["advantage_markers"]),
        than_re=compile_words(["than"]),
        framework_re=compile_words(conditions["framework"]),
        framework_of=fold_keys(conditions["framework"]),
        precision_re=compile_words(conditions["precision"]),
        precision_of=fold_keys(conditions["precision"]),
        batch_re=compile_at(
            rf"(?<!\w)(?:(?:{batch_alt}){SPACE}){{0,2}}"
            rf"batch[\s-]sizes?(?:{SPACE}(?:of{SPACE})?[0-9]{{1,6}})?(?!\w)"
        ),
        task_at=compile_at(rf"[\s-]{{1,3}}({task_alt})(?!\w)"),
        task_re=compile_words(flatten(vocab["tasks"])),
        task_of=invert(vocab["tasks"]),
        metric_reports={
            name: entry["reports"] for name, entry in vocab["metrics"].items() if "reports" in entry
        },
        not_performance=frozenset(
            name for name, entry in vocab["metrics"].items() if entry.get("performance") is False
        ),
        speed_metrics=frozenset(vocab["direction_speed"]["metrics"]),
        # "x1.35 speedup": the multiplier written before its number
        model_shape_re=model_shapes(vocab["model_shapes"]),
        spec_figure_re=re.compile(
            rf"(?<![\w.])[0-9][0-9,.]*\s?(?:{build_alternation(vocab['look_alikes']['spec_units'])})"
            rf"(?![\w/])"
        ),
        spec_word_re=compile_words(vocab["look_alikes"]["spec_words"]),
        object_verbs=frozenset(fold(word) for word in qualitative["verbs"]),
        # "was beaten by", "is outperformed by": a comparison whose agent is its subject
        passive_re=re.compile(
            rf"(?<!\w)(?:{build_alternation(vocab['passive']['auxiliaries'])})"
            rf"(?:{SPACE}\w+ly)?{SPACE}(?:{build_alternation(vocab['passive']['verbs'])})"
            rf"{SPACE}by(?!\w)",
            re.IGNORECASE,
        ),
        share_words=frozenset(fold(word) for word in vocab["look_alikes"]["share_words"]),
        parity_re=compile_words(vocab["parity"]["verbs"] + vocab["parity"]["phrases"]),
        prefix_multiplier_re=compile_at(
            r"(?<![\w.])[x×]\s?([0-9]{1,4}(?:\.[0-9]{1,3})?)(?![\w.%])"
        ),
    )


def model_shapes(table: Mapping) -> re.Pattern[str]:
    """Model names by their shape: a family, then version, size and variant parts
    ("Llama 3.1 8B", "Qwen3-30B-A3B-Instruct-2507"), or a size and "model" alone ("1.3B
    parameter model"). A bare number is no part when a ratio follows ("BERT 3x faster")."""
    family = build_alternation(table["families"])
    variant = build_alternation(table["variants"])
    number = r"v?[0-9]{1,4}(?:\.[0-9]{1,3}){0,2}(?![0-9.]*\s?(?:[x×%]|times))(?:[a-wyz](?!\w))?"
    size = r"[0-9]{1,4}(?:\.[0-9]{1,2})?[BMKTbmkt]|[0-9]{1,2}x[0-9]{1,3}[Bb]|[AaEe][0-9]{1,3}(?:\.[0-9])?[Bb]"
    part = rf"(?:{size}|{number}|(?:{variant})(?![\w])|[0-9]{{4}})"
    named = rf"(?:(?:{size})[ -])?(?:{family})(?:[-_ .]?{part})?(?:[-_ ]{part}){{0,5}}"
    sized = (
        r"[0-9]{1,4}(?:\.[0-9]{1,2})?\s?[BM](?:(?:[- ]param(?:eter)?s?)?[ -]model"
        r"|(?:[- ]base)?[ -](?:dense|MoE)(?:[ -](?:model|architecture))?)"
    )
    # a family word that opens a dotted name is a program's name ("llama.cpp", "whisper.cpp"),
    # and so is one a software word follows ("Arctic Inference", "Llama Stack")
    software = rf"(?:{family})\s(?-i:{build_alternation(table['software_heads'])})(?!\w)"
    return re.compile(
        rf"(?<![\w.])(?!{software})(?:{named}|{sized})(?![\w]|\.[a-z])", re.IGNORECASE
    )


def vendor_of(system: str) -> str | None:
    entry = load_claim_vocab()["systems"].get(system)
    return entry.get("vendor") if entry else None


def is_generic(system: str) -> bool:
    entry = load_claim_vocab()["systems"].get(system)
    return bool(entry and entry.get("generic"))


def higher_is_better(metric: str) -> bool:
    return bool(load_claim_vocab()["metrics"][metric]["higher_is_better"])


def reported_metric(metric: str, lex: Lexicon) -> str:
    return lex.metric_reports.get(metric, metric)


def vendor_keys(vendors: Mapping[str, str]) -> dict[str, str]:
    # Possessives ("NVIDIA's") fold to their own key; map them to the same generic system.
    plain = {fold(k): v for k, v in vendors.items()}
    possessive = {f"{key}{mark}s": value for key, value in plain.items() for mark in "'’"}
    return plain | possessive

"""Extract comparative performance claims ("3.4x higher throughput than the A100") from prose.

Conversion rules. `ratio` is a multiplier in the subject's *better* direction: 2.0 means twice
as good as the baseline, 0.5 half as good, whatever the metric's unit. A metric is "lower is
better" when the vocabulary says so (latency, price, time_to_train, time_to_result, power).

* "Nx faster|better", "Nx <metric> advantage|gains|speedup|improvement" -> N;
  "Nx slower|worse" -> 1/N; a multiple below one is the ratio itself ("0.79x slower" ->
  0.79), as a table's "0.79x slower" cell reads.
* "Nx higher|more|lower|less <metric>" -> N when the change is good for that metric
  ("16x lower latency" -> 16, "2.6x more images per second" -> 2.6), else 1/N
  ("3x lower throughput" -> 1/3). Without a metric the sense is unknown: rejected.
* "N% faster" -> 1 + N/100, a speed multiplier ("31% faster time-to-train" -> 1.31).
  "N% slower" -> 1/(1 + N/100), so "A is N% slower than B" == "B is N% faster than A"
  ("12% slower" -> 0.893); "N% worse" likewise. "N% improvement|better|gain",
  "improvements of N%", "beats X by N%" -> 1 + N/100.
* "N% more|higher <metric>" -> 1 + N/100 if higher is better, else 1/(1 + N/100).
* "N% less|lower <metric>", "reduced <metric> by N%": the metric is multiplied by 1 - N/100,
  so 1/(1 - N/100) when lower is better ("reduced time-to-train by 31%" -> 1.449) and
  1 - N/100 when higher is better; N >= 100 is rejected.
* Fractions or multiples of the baseline's quantity ("80% of the performance", "half the cost",
  "costs half of what X does", "2x the throughput of X"): the metric is multiplied by f, so the
  ratio is f when higher is better (0.8) and 1/f when lower is better ("half the cost" -> 2.0,
  metric price).
* "Nx <system>" ("8x A100 GPUs", "a 2x DGX A100 system") counts hardware: never a ratio; a
  counted baseline keeps its count in `baseline_count`.
* Ranges ("2-3x"), negated comparisons ("is not 2x faster", "no faster than") and claims whose
  sides cannot be told apart go to `rejected` with a reason instead of becoming rows.
* Word numbers come from the vocabulary ("twice" = 2, "an order of magnitude" = 10).
* Qualitative comparisons ("outperforms", "ahead of", "higher throughput than") have a null
  ratio and a direction. `ratio_text` always keeps the original words.

A claim's model may come from the nearest preceding heading; `method` then carries
"+model-heading". Other fallbacks are named the same way ("+subject-vendor", ...) and lower
`confidence`.

Most prose holds no claim: pages, paragraphs and sentences without any cue a claim needs (a
ratio number or word, a comparison verb, ...) are skipped before indexing; see
sources/claims/cues.py for why that never changes a result.

The work is split by step: the vocabularies compiled (sources/claims/lexicon.py), sentences
cut and indexed (sentences.py, mentions.py), the numbers read (anchors.py) and turned into
ratios (ratio.py), the parties resolved (resolution.py, qualifiers.py) for claims with numbers
(quantitative.py) and without (qualitative.py); the records they pass are in records.py. Here
a page's prose becomes claim rows and rejected sentences.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache, lru_cache

import polars as pl

from perfledger.schemas.claims import (
    CLAIM_COLUMNS,
    MAX_PARTY_CHARS,
    REJECTED_COLUMNS,
    claim_rows_hold,
    rejected_rows_hold,
    validate_claims,
    validate_rejected,
)
from perfledger.sources.claims.blocks import LINE_LAYOUTS, Block, assemble_blocks
from perfledger.sources.claims.cues import Cues, build_cues, may_hold_claim, may_hold_claim_loosely
from perfledger.sources.claims.discourse import Discourse
from perfledger.sources.claims.lexicon import Lexicon, flatten, fold, load_lexicon
from perfledger.sources.claims.mentions import find_mentions
from perfledger.sources.claims.page_baselines import fill_from_page
from perfledger.sources.claims.parity import extract_parity
from perfledger.sources.claims.qualitative import extract_qualitative
from perfledger.sources.claims.quantitative import extract_quantitative, find_counts
from perfledger.sources.claims.ratio import compute_ratio
from perfledger.sources.claims.records import (
    ClaimResult,
    Context,
    Draft,
    Mention,
    Problem,
    Resolution,
    Sentence,
)
from perfledger.sources.claims.sentences import index_sentence, split_sentences, split_sentences_at
from perfledger.sources.layouts.base import ParsedDocument

# Imported from here by the pipeline, the reader processes and the tests.
__all__ = [
    "ClaimResult",
    "compute_ratio",
    "extract_claims",
    "load_cues",
    "load_lexicon",
    "split_sentences",
]


def draft_row(sentence: Sentence, draft: Draft) -> dict:
    res = draft.resolution
    subject, baseline = res.subject, res.baseline
    is_prior = res.baseline_kind == "prior_result"
    return {
        "claim_index": 0,
        "line_number": sentence.line_number,
        "char_start": draft.start,
        "char_end": draft.end,
        "sentence": sentence.text,
        "claim_text": sentence.text[draft.start : draft.end],
        "subject": subject.canonical if subject else None,
        "subject_text": subject.text if subject else None,
        "baseline": None if is_prior or baseline is None else baseline.canonical,
        "baseline_text": baseline.text if baseline else None,
        "baseline_kind": res.baseline_kind if baseline else None,
        "baseline_count": None if is_prior else res.baseline_count,
        "model": res.model,
        "task": res.task,
        "metric": res.metric,
        "direction": draft.direction,
        "ratio": draft.ratio,
        "ratio_text": draft.ratio_text,
        "ratio_kind": draft.kind,
        "qualifier": draft.qualifier,
        "conditions": sentence.conditions,
        "is_qualitative": draft.ratio is None,
        "confidence": draft.confidence,
        "method": f"rule:{draft.form}",
        "unresolved": unresolved_labels(subject, None if is_prior else baseline, res),
    }


def unresolved_labels(
    subject: Mention | None, baseline: Mention | None, res: Resolution
) -> str | None:
    """The parties a claim keeps as published, for `perfledger labels`."""
    labels = [f"system={m.canonical}" for m in (subject, baseline) if m is not None and not m.known]
    if res.model is not None and not res.model_known:
        labels.append(f"model={res.model}")
    return "; ".join(dict.fromkeys(labels)) or None


def extract_sentence(
    sentence: Sentence, context: Context, lex: Lexicon
) -> tuple[list[dict], list[Problem]]:
    drafts, problems, numeric = extract_quantitative(sentence, context, lex)
    drafts += extract_parity(sentence, context, lex)
    if not drafts and not numeric:
        qualitative, more = extract_qualitative(sentence, context, lex)
        drafts, problems = qualitative, problems + more
    # A heading or caption naming hardware ("Training performance: NVIDIA DGX A100 (8x A100
    # 80GB)") states a setup; only a sentence's "8x" could be taken for a ratio.
    if (
        not drafts
        and not problems
        and _SENTENCE_END.search(sentence.text)
        and (counts := find_counts(sentence, lex))
    ):
        words = ", ".join(f"'{c}'" for c in counts)
        problems.append(
            Problem("system_count", f"{words} counts hardware; it is not a ratio between systems")
        )
    return [draft_row(sentence, d) for d in drafts], problems


_SENTENCE_END = re.compile(r"[.!?][”\")\]]*\s*$")
MAX_SENTENCE_CHARS = 2_000  # far longer than any sentence a person writes


def too_long(text: str, lex: Lexicon) -> list[Problem]:
    """A claim-like "sentence" too long to read is set aside with a reason, never dropped."""
    if not (
        lex.multiplier_re.search(text)
        or lex.percent_re.search(text)
        or lex.comparative_re.search(text)
    ):
        return []
    return [
        Problem(
            "sentence_too_long",
            f"a sentence of {len(text):,} characters is longer than the "
            f"{MAX_SENTENCE_CHARS:,} the extractor reads; claims in it were not read",
        )
    ]


@cache
def load_cues() -> Cues:
    """The lexicon's cue words, so that text without any is skipped (see sources.claims.cues)."""
    lex = load_lexicon()
    vocab = lex.vocab
    qualitative = vocab["qualitative"]
    return build_cues(
        singles=(
            lex.multiplier_re,
            lex.percent_re,
            lex.word_number_re,
            lex.qual_verb_re,
            lex.qual_ahead_re,
            lex.prefix_multiplier_re,
            lex.parity_re,
        ),
        pairs=((lex.qual_noun_re, lex.qual_marker_re), (lex.comparative_re, lex.than_re)),
        vocab={
            "single": flatten(vocab["number_words"])
            + qualitative["verbs"]
            + qualitative["ahead"]
            + vocab["parity"]["verbs"]
            + vocab["parity"]["phrases"],
            "nouns": qualitative["advantage_nouns"],
            "markers": qualitative["advantage_markers"],
            "comparatives": flatten(vocab["directions"]["comparative"]),
        },
        long_text=MAX_SENTENCE_CHARS,
    )


def read_heading(paragraph: str, lex: Lexicon) -> Context:
    # A site's pages repeat their headings: each distinct one is read once (the Context is
    # frozen, and shared).
    if lex is load_lexicon() and len(paragraph) <= MEMO_MAX_CHARS:
        return _read_heading_once(paragraph)
    return _read_heading(paragraph, lex)


@lru_cache(maxsize=16_384)
def _read_heading_once(paragraph: str) -> Context:
    return _read_heading(paragraph, load_lexicon())


def _read_heading(paragraph: str, lex: Lexicon) -> Context:
    models = find_mentions(lex.model_re, lex.model_of, paragraph)
    if not models:
        return Context()
    tasks = [lex.task_of.get(fold(m.group(0))) for m in lex.task_re.finditer(paragraph)]
    return Context(models[0].canonical, next((t for t in tasks if t), None))


def extract_claims(
    prose: list[tuple[int, str]], title: str | None = None, outline: pl.DataFrame | None = None
) -> ClaimResult:
    """Turn a page's prose (line_number, text), in page order, into claims and rejects.

    `outline` is the layout's outline when it read the page's structure; without it the
    prose is taken for the page's lines as captured (sources/claims/blocks.py)."""
    cues = load_cues()
    texts = [text for _, text in prose if text and text.strip()]
    # A page holding a paragraph already found to hold cues holds them: the whole page is
    # screened only when none is known.
    if _HOLDING_CUES.isdisjoint(texts) and not may_hold_claim_loosely("\n".join(texts), cues):
        # Most pages claim nothing; headings only matter to claims, so none need reading,
        # and a process that reads only such pages never compiles the lexicon (16 ms).
        return ClaimResult(build_claims_frame([]), build_rejected_frame([]))
    lex = load_lexicon()
    page = assemble_blocks(prose, outline)
    title = (
        title
        or page.title
        or next((b.text for b in page.blocks if b.kind == "heading" and b.level == 1), None)
    )
    discourse = Discourse(lex, title)
    context = read_heading(title, lex) if title else Context()
    rows: list[dict] = []
    rejected: list[dict] = []
    for block in page.blocks:
        discourse.enter(block)
        if _block_may_hold_claim(block.text):
            found, problems = read_block(block, replace(context, discourse=discourse), lex, cues)
            rows += found
            rejected += problems
        # every block, claim or not, may be the heading that names the next claims' model
        if block.kind == "heading":
            context = read_heading(block.text, lex)
    fill_from_page(rows)
    return ClaimResult(build_claims_frame(rows), build_rejected_frame(rejected))


def extract_page_claims(parsed: ParsedDocument, layout_name: str) -> ClaimResult:
    """The claims of a parsed page: its outline gives its blocks, unless its layout hands over
    the page's lines as captured (sources/claims/blocks.py)."""
    outline = None if layout_name in LINE_LAYOUTS else parsed.outline
    return extract_claims(parsed.prose, parsed.metadata.title, outline)


def read_block(
    block: Block, context: Context, lex: Lexicon, cues: Cues
) -> tuple[list[dict], list[dict]]:
    """Claim rows and reject rows of one block's sentences."""
    rows: list[dict] = []
    rejected: list[dict] = []
    discourse = context.discourse
    assert discourse is not None  # extract_claims reads each block with the page's discourse
    for offset, sentence_text, readable in _screened_sentences(block.text, cues):
        if not readable:
            discourse.sentences_so_far.append(sentence_text)
            continue
        if len(sentence_text) > MAX_SENTENCE_CHARS:
            # Every claim row repeats its sentence: thousands of claims in one endless
            # "sentence" would cost memory as their number times its length.
            found, problems = [], too_long(sentence_text, lex)
        else:
            sentence = index_sentence(sentence_text, block.line_at(offset), lex)
            found, problems = extract_sentence(sentence, context, lex)
            found, problems = _parties_that_fit(found, problems)
        discourse.sentences_so_far.append(sentence_text)
        for row in found:
            discourse.last_subject = row["subject_text"] or discourse.last_subject
            discourse.last_baseline = row["baseline_text"] or discourse.last_baseline
            if row["baseline"] and row["baseline_kind"] == "system":
                discourse.block_baseline = row["baseline_text"]
        rows += found
        rejected += [
            {
                "line_number": block.line_at(offset),
                "sentence": sentence_text,
                "check": p.check,
                "reason": p.reason,
            }
            for p in problems
        ]
    return rows, rejected


# The pages of one site repeat their paragraphs (menus, notes, boilerplate prose): each
# distinct text is screened for cues once (the cues never change within a process). A longer
# text is screened each time: it seldom repeats, and a memo of it would keep it alive.
MEMO_MAX_CHARS = 4_000


def _block_may_hold_claim(text: str) -> bool:
    if len(text) > MEMO_MAX_CHARS:
        return may_hold_claim_loosely(text, load_cues())
    return _block_may_hold_claim_once(text)


@lru_cache(maxsize=16_384)
def _block_may_hold_claim_once(text: str) -> bool:
    holds = may_hold_claim_loosely(text, load_cues())
    if holds:
        if len(_HOLDING_CUES) >= _HOLDING_CUES_KEPT:
            _HOLDING_CUES.clear()
        _HOLDING_CUES.add(text)
    return holds


_HOLDING_CUES: set[str] = set()  # paragraphs of at most MEMO_MAX_CHARS that hold cues
_HOLDING_CUES_KEPT = 16_384


def _screened_sentences(text: str, cues: Cues) -> tuple[tuple[int, str, bool], ...]:
    """(offset, sentence, whether it may hold a claim) of each sentence of a block."""
    if cues is not load_cues() or len(text) > MEMO_MAX_CHARS:
        return _screened(text, cues)
    return _screened_once(text)


@lru_cache(maxsize=16_384)
def _screened_once(text: str) -> tuple[tuple[int, str, bool], ...]:
    return _screened(text, load_cues())


def _screened(text: str, cues: Cues) -> tuple[tuple[int, str, bool], ...]:
    sentences = split_sentences_at(text)
    return tuple(
        (
            offset,
            sentence,
            len(sentence) > MAX_SENTENCE_CHARS
            or not (
                len(sentences) > 1
                and not may_hold_claim_loosely(sentence, cues)
                or not may_hold_claim(sentence, cues)
            ),
        )
        for offset, sentence in sentences
    )


def _parties_that_fit(rows: list[dict], problems: list) -> tuple[list[dict], list]:
    """The claims whose subject and baseline are names, not runs of words glued together
    past any name's length ("IPU-M2000IPU-M2000..."), which are set apart with a reason."""
    fitting = []
    for row in rows:
        long = next(
            (
                name
                for name in ("subject", "baseline")
                if row[name] is not None and len(row[name]) > MAX_PARTY_CHARS
            ),
            None,
        )
        if long is None:
            fitting.append(row)
        else:
            problems = [
                *problems,
                Problem(
                    "party_too_long",
                    f"the {long} read is {len(row[long])} characters long: no system's name",
                ),
            ]
    return fitting, problems


def build_claims_frame(rows: list[dict]) -> pl.DataFrame:
    if not rows:
        # Most pages make no claim; an empty frame of the schema's own columns cannot fail
        # the check, which costs tens of milliseconds per page.
        return empty_frame("claims")
    for index, row in enumerate(rows):
        row["claim_index"] = index
    frame = pl.DataFrame(rows, schema=CLAIM_COLUMNS)
    return frame if claim_rows_hold(rows) else validate_claims(frame)


def build_rejected_frame(rows: list[dict]) -> pl.DataFrame:
    if not rows:
        return empty_frame("rejected")
    unique = list({(r["line_number"], r["sentence"], r["check"]): r for r in rows}.values())
    frame = pl.DataFrame(unique, schema=REJECTED_COLUMNS)
    return frame if rejected_rows_hold(unique) else validate_rejected(frame)


def empty_frame(kind: str) -> pl.DataFrame:
    # Building a typed empty frame takes ~0.2 ms; a clone of a kept one ~1 µs, and is the
    # caller's own, so changing it leaves the kept frame alone.
    return empty_frames()[kind].clone()


@cache
def empty_frames() -> dict[str, pl.DataFrame]:
    return {
        "claims": pl.DataFrame(schema=CLAIM_COLUMNS),
        "rejected": pl.DataFrame(schema=REJECTED_COLUMNS),
    }

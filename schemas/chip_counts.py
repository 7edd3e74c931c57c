"""How many chips a text says a result ran on, read from the words around a chip it names
or from the text alone: "8x A100", "A100 x 8", "8 A100 GPUs", "two MI210 GPUs", "an MI210
GPU", "V100 单卡", "Xeon 8380 (2 sockets)", "4x DGX H100" (4 systems of 8), "8 DGX nodes with
8 A100 GPUs/node" (64), "8 GPUs", "1-card", "8卡", "on a single GPU", and parallel degrees
("TP2,PP2": 4) where they give the whole run.

Every text here is folded (schemas/folding.fold_words): lower case, hyphens as spaces.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

MAX_ACCELERATORS = 10_000_000  # far above any system; a larger count is not a real one
NUMBER_WORDS = {
    "one": 1,
    "single": 1,
    "two": 2,
    "dual": 2,
    "three": 3,
    "four": 4,
    "quad": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twelve": 12,
    "sixteen": 16,
    "thirty two": 32,
    "sixty four": 64,
    # Chinese card counts: 单卡 (one card), 双卡 / 两卡 (two), 四卡, 八卡
    "单": 1,
    "双": 2,
    "两": 2,
    "二": 2,
    "四": 4,
    "八": 8,
    "十六": 16,
}
_LATIN_NUMBER_WORDS = sorted(
    (word for word in NUMBER_WORDS if word.isascii()), key=len, reverse=True
)
COUNT = r"(\d{1,7}|" + "|".join(_LATIN_NUMBER_WORDS) + ")"
_CJK_COUNT = r"(\d{1,7}|" + "|".join(word for word in NUMBER_WORDS if not word.isascii()) + ")"
CHIP_NOUNS = (
    r"gpus?|cards?|chips?|accelerators?|devices?|ipus?|tpus?|hpus?|npus?|xpus?"
    r"|gaudis?|sockets?|processors?|cpus?|dies|packages?"
    # the accelerators Chinese makers name by a noun of their own: Enflame's GCU (general
    # compute unit), Cambricon's MLU, Hygon's DCU
    r"|gcus?|mlus?|dcus?"
)
_NODE_NOUNS = r"nodes?|servers?|hosts?|machines?|systems?|instances?"
_FAMILY_NOUNS = (
    r"gpus|cards|chips|accelerators|devices|ipus|tpus|hpus|npus|processors"
    r"|systems|servers|instances|nodes|platforms|products|families|series"
)

# "8x", "8 ×", "8x80GB " (a count and each chip's memory), "2 * " (a short number: "2021 * "
# is a year before a Markdown bullet)
_MEMORY = r"(?: ?\d{1,4} ?gb?)"
_COUNT_BEFORE = re.compile(
    r"(?:(?<![x×\d])" + COUNT + r" ?(?:x|×)" + _MEMORY + r"?|(?<![0-9])(\d{1,3}) ?\*) ?$"
    # a count written against the chip's name ("8H100", see GLUED_COUNT)
    r"|(?<![a-z0-9.])(\d{1,3})$"
)
# A count written against a chip's name in a table's text ("Long test - 8H100 - 70B",
# "4MI300X"): the chip's name starts after the count. Only a machine's usual count, a power of
# two, is read so: "Loongson 3A6000" is one CPU's name, not three A6000s. Not "8x" ("8xH100"
# reads as "8x H100" does).
GLUED_COUNT = re.compile(r"(?<![a-z0-9.])(?:1|2|4|8|16|32|64|128|256|512)(?=[a-wyz])")
# A machine's chips described per node ("Intra node: 8xA100", "each node: 8x H100"): the
# run's count is that times its nodes, which the text must state.
_PER_NODE_BEFORE = re.compile(
    r"(?:intra|per|each|every) ?nodes? ?: ?(?:with )?\d{1,4} ?(?:[x×*] ?)?$"
)
# Nodes times each node's chips written against the chip ("2x8xH100-SXM-80GB", "4 x 8 x A100"):
# the run's count is their product.
_NODES_TIMES_BEFORE = re.compile(r"(?<![x\u00d7\d.])(\d{1,3}) ?[x\u00d7] ?(\d{1,3}) ?[x\u00d7] ?$")
_BARE_COUNT_BEFORE = re.compile(r"(?:^|[^a-z0-9.]) ?" + COUNT + r" $")
# "A100 x 8", "910B*8" (a star written against the chip: "A100 * 8" may be a list's bullet)
_COUNT_AFTER = re.compile(r"^(?: ?(?:x|×) ?|\*)(\d{1,7})(?![a-z0-9.])")
# "A100 (8x)"; "Ascend 910(8p)", "Ascend 910*(8p)" (Ascend's model zoos: 8 processes, one per
# device; two digits at most, "(720p)" is a resolution)
_BRACKETED_AFTER = re.compile(r"^\*? ?\((?:(\d{1,7}) ?[x\u00d7]|(\d{1,2})p)\)")
# "K80 (single GPU)", "V100 (8 GPUs)", "MI250 (2 cards)": the chips counted in a bracket of their own
_COUNTED_BRACKET_AFTER = re.compile(r"^ ?\(" + COUNT + r" (?:" + CHIP_NOUNS + r")\)")
# "H100 (80GB x 8)", "Atlas 800 A3 node (64G × 16)", "server (64G × 16 NPUs)": each chip's
# memory times the chips, in a bracket after the machine (a word or two of it between).
_MEMORY_TIMES_AFTER = re.compile(
    r"^(?: [a-z]+){0,2}? ?\(\d{1,4} ?gb? ?[x\u00d7*] ?(\d{1,7})(?: (?:" + CHIP_NOUNS + r"))?\)"
)
# "A100 80G * 8": a spaced star after the chip's memory size counts its chips; after a bare
# name it may be a list's bullet.
_MEMORY_END = re.compile(r"\d ?gb?$")
_STAR_AFTER_MEMORY = re.compile(r"^ \* ?(\d{1,7})(?![a-z0-9.])")
# "3090 24GB * 2": the memory written after a name the chip's span ends before, then the star.
_MEMORY_THEN_STAR = re.compile(r"^ \d{1,4} ?gb? \* ?(\d{1,7})(?![a-z0-9.])")
# "eight-GPU A800", "16-GPU H100", "8 NPU 910B": the count and its noun before the chip's name
_COUNTED_NOUN_BEFORE = re.compile(
    r"(?:^|[^a-z0-9.]) ?" + COUNT + r" (?:gpus?|cards?|chips?|accelerators?|npus?|hpus?|xpus?) $"
)
# "A100 8卡", "A100单机8卡" (one machine, 8 cards), "H100二机16卡" (two machines, 16 cards in
# all): the cards counted are the run's, whatever machines hold them.
_MACHINES = (
    r"(?:(?:\d{1,5}|"
    + "|".join(w for w in NUMBER_WORDS if not w.isascii())
    + r") ?(?:台|个)? ?(?:机|节点) ?)?"
)
# "A100 1枚", "H100 8장": the counters of cards in Japanese and Korean
_CARDS_AFTER = re.compile(r"^ ?" + _MACHINES + _CJK_COUNT + r" ?(?:(?:张|块|片)? ?卡|枚|장)")
_CARDS_BEFORE = re.compile(_CJK_COUNT + r" ?(?:(?:张|块|片) ?卡?|卡) ?$")  # "8卡 A100", "4张V100"
# "a single A6000 GPU", "one MI210 GPU", "my 16 GB RTX-4080 GPU" (its memory before it)
_ARTICLE_BEFORE = re.compile(
    r"(?:^|[^a-z0-9])(?:a|an|one|single|my)(?: [a-z]+)?(?: \d{1,3} ?gb)? $"
)
_NOUN_AFTER = re.compile(r"^(?: \d+ ?gb?)?(?: [a-z0-9]+){0,2}? (?:" + CHIP_NOUNS + r")(?![a-z0-9])")
_NODES_AFTER = re.compile(r"^(?: [a-z0-9]+){0,2}? (?:" + _NODE_NOUNS + r")(?![a-z0-9])")
_PER_NODE_AFTER = re.compile(
    r"^(?: \d+ ?gb?)?(?: [a-z0-9]+){0,2}? (?:"
    + CHIP_NOUNS
    + r") ?(?:/ ?node|per node|each)(?![a-z0-9])"
)
# (the noun may be written against the chip's number: "a single MI250GPU")
# "Serving Llama 3.1 8B on 1 H100", "on one MI300X", "with a single H200": the chips a run
# was made on, counted before them (a bare number elsewhere may be a figure's or a list's)
_RUN_ON_BEFORE = re.compile(
    r"(?:^|[^a-z0-9])(?:on|with|using|across) (?:(?:a|an)(?: single)?|" + COUNT + r") $"
)
_SINGULAR_NOUN_AFTER = re.compile(
    r"^(?: \d+ ?gb?)? ?(?:gpu|card|chip|accelerator|device|ipu|tpu|hpu|npu|processor)(?![a-z0-9])"
)
FAMILY_AFTER = re.compile(r"^(?: [a-z0-9]+){0,2}? (?:" + _FAMILY_NOUNS + r")(?![a-z0-9])")
# "H100 96 GPUs", "A100 80G 128 GPUs" (a column header naming the chip, its memory, then
# how many of it ran): a plural noun after the number, so "A100 80 GB" is no count
_COUNTED_NOUN_AFTER = re.compile(
    r"^(?: \d{1,4} ?gb?)? (\d{1,5}) (?:gpus|cards|chips|accelerators|devices|npus|hpus|tpus|xpus)"
    r"(?![a-z0-9])"
)
_SOCKETS_AFTER = re.compile(r"^[^()]{0,40}\(" + COUNT + r" ?(?:sockets?|s)\)")
COUNT_ONLY = re.compile(
    r"(?<![a-z0-9.])"
    + COUNT
    + r" ?(?:x"
    + _MEMORY
    + r"? ?)?(?:"  # "8x GPU", "8xGCU"
    + CHIP_NOUNS
    + r")(?![a-z0-9])"
    # "three GPU architectures", "two GPU vendors": kinds of devices counted, no devices
    + r"(?! (?:micro)?architectures?(?![a-z])| generations?(?![a-z])| famil(?:y|ies)(?![a-z])"
    + r"| types?(?![a-z])| vendors?(?![a-z])| kinds?(?![a-z])| classes(?![a-z]))"
    # ... but "24GB 4090卡": a card of 24 GB whose model is 4090, no 4,090 cards
    + r"|(?<![0-9])(?<!gb )(?<!gb)"
    + _CJK_COUNT
    + r" ?(?:张|块|片)? ?卡(?!数)"
    # "8p-NPU", "1p-GPU", "8P_NPU" (Ascend's model zoo: 8 processes, one per device), and
    # "1p-竞品V" (one device of a competitor); two digits at most, "720p" is a resolution
    + r"|(?<![a-z0-9.])(\d{1,2})p[ _](?:(?:npus?|gpus?)(?![a-z])|竞品)"
    # "1n8g", "4n8g" (nodes, then devices per node: OneFlow's and LiBai's run names)
    + r"|(?<![a-z0-9.])(?P<nodes>\d{1,3})n(?P<per_node>\d{1,2})g(?![a-z0-9])"
)


# What every COUNT_ONLY match ends with: a device noun, 卡 or 竞品, or "4n8g"'s "n8g".
_COUNT_ANCHOR = re.compile(CHIP_NOUNS + r"|卡|竞品|\dn\d{1,2}g")
# How far before its anchor a match may start: the longest count word ("thirty two"), an
# "x", a memory size (" 80 gb") and the spaces between, with room to spare.
_COUNT_REACH = 32
_COUNT_AHEAD = 22  # characters after a device noun the count pattern reads: " microarchitectures"


def count_matches(folded: str) -> Iterator[re.Match[str]]:
    """The matches of COUNT_ONLY in `folded`, as its `finditer` gives them, read only around
    the words every match ends with: a paragraph names a device a few times at most, and the
    pattern costs a try at each of its characters."""
    windows: list[list[int]] = []
    for anchor in _COUNT_ANCHOR.finditer(folded):
        # past the anchor: the pattern looks ahead ("gpus", not "gpusx"; "gpu architectures")
        low, high = max(0, anchor.start() - _COUNT_REACH), anchor.end() + _COUNT_AHEAD
        if windows and low <= windows[-1][1]:
            windows[-1][1] = high
        else:
            windows.append([low, high])
    end = 0
    for low, high in windows:
        for match in COUNT_ONLY.finditer(folded, max(low, end), high):
            end = match.end()
            yield match


def counts_several(folded: str) -> bool:
    """Whether a text states several counts of devices ("on 32 cards, 64 cards, and 128
    cards", "from 8 gpus to 1024 gpus"): the runs it speaks of differ, and none of the counts
    is that of a table near it."""
    counts = {count_only(match) for match in count_matches(folded)}
    return len(counts - {None}) > 1


def counts_no_run(folded: str, before_chip: str) -> bool:
    """Whether a paragraph's count of its chip is no one run's: it states several counts
    (`counts_several`), or the most any run used ("use up to 3072 A100 GPUs for the largest
    model"; `before_chip`: the paragraph up to the chip's name)."""
    return counts_several(folded) or _AT_MOST.search(before_chip) is not None


_AT_MOST = re.compile(r"(?i)\b(?:up to|as many as|a maximum of|at most)\s+[\d,.]+\s*[x\u00d7]?\s*$")


def count_only(match: re.Match[str]) -> int | None:
    """The devices a `COUNT_ONLY` match counts: nodes times devices per node for "4n8g"."""
    if match.group("nodes"):
        return number(str(int(match.group("nodes")) * int(match.group("per_node"))))
    return number(next(group for group in match.groups() if group))


_NODES = re.compile(
    r"(?<![a-z0-9.])" + COUNT + r"(?: [a-z0-9]+){0,2}? (?:" + _NODE_NOUNS + r")(?![a-z0-9])"
)
# Parallel degrees: "tp8", "tp 4", "tp=2", "pp2", "dp 8", "cp=4", "ep64", "fsdp 8" (sharded
# data parallel).
# "FSDP2" written tight is the name of PyTorch's second FSDP API, no degree of two.
_PARALLEL = re.compile(
    r"(?<![a-z0-9])(?!fsdp2(?![a-z0-9]))(tp|pp|dp|cp|ep|fsdp|hsdp) ?[=:]? ?(\d{1,5})(?![a-z0-9])"
)
_DATA_PARALLEL = {"fsdp": "dp", "hsdp": "dp"}
_WAYS = re.compile(r"(?<![a-z0-9])(\d{1,5}) ?ways? (tp|pp|dp|ep|cp)(?![a-z0-9])")
# llama.cpp's text-generation test ("tg128"), written beside its prompt test ("pp512"); a
# prompt test's length is a power of two no pipeline is that deep.
_LLAMA_BENCH_TEST = re.compile(
    r"(?<![a-z0-9])(?:tg ?\d{1,5}|pp ?(?:128|256|512|1024|2048|4096))(?![a-z0-9])"
)


@dataclass(frozen=True)
class Stated:
    """A count written next to a chip or system."""

    number: int
    of_units: bool = False  # counts what the mention names ("4x DGX H100": 4 systems)
    per_node: bool = False  # "8 A100 GPUs/node"
    nodes: bool = False  # counts nodes of it ("32 H100 DGX nodes")


def number(text: str) -> int | None:
    value = NUMBER_WORDS.get(text) if not text.isdigit() else int(text)
    return value if value is not None and 0 < value <= MAX_ACCELERATORS else None


def stated_count(
    folded: str, start: int, end: int, prose: bool, plural: bool = False
) -> Stated | None:
    """The count written next to a chip or system named at folded[start:end]; `plural`: the
    name is written as a plural ("two Titan RTXs", "8 A100s"), which counts as a noun does."""
    before, after = folded[max(0, start - 24) : start], folded[end : end + 60]
    found = None
    nodes_times = _NODES_TIMES_BEFORE.search(before)
    match = None if nodes_times else _COUNT_BEFORE.search(before)
    if nodes_times:
        found = Stated(0, of_units=True), str(int(nodes_times.group(1)) * int(nodes_times.group(2)))
    elif match:
        found = Stated(0, of_units=True), match.group(1) or match.group(2) or match.group(3)
    if found is None:
        match = _CARDS_BEFORE.search(before)
        if match:
            found = Stated(0), match.group(1)
    if found is None:
        match = _COUNTED_NOUN_BEFORE.search(before)
        if match:
            found = Stated(0), match.group(1)
    if found is None:
        match = _BARE_COUNT_BEFORE.search(before)
        if match is None:
            pass
        elif _NOUN_AFTER.match(after):  # "8 A100 GPUs", "8 A100 GPUs/node"
            found = Stated(0, per_node=bool(_PER_NODE_AFTER.match(after))), match.group(1)
        elif _NODES_AFTER.match(after) and (each := _MEMORY_TIMES_AFTER.match(after)):
            # "one Atlas 800 A3 node (64G × 16)", "two ... nodes (80GB x 8)": the nodes times
            # the chips of each
            nodes = number(match.group(1))
            found = Stated(0), str(nodes * int(each.group(1))) if nodes else each.group(1)
        elif _NODES_AFTER.match(after):  # "4 DGX H100 nodes", "32 H100 DGX nodes"
            found = Stated(0, of_units=True, nodes=True), match.group(1)
        elif (plural and len(match.group(1)) <= 3) or start - len(match.group(1)) - 1 <= 0:
            # "with two Titan RTXs", "on 8 A100s" (a plural counts as a noun does); "2 A100",
            # "4 DGX H100" (the text's first words)
            found = Stated(0, of_units=True), match.group(1)
    if found is None and (match := _RUN_ON_BEFORE.search(before)):
        found = Stated(0, of_units=True), match.group(1) or "1"
    if found is None:
        match = (
            _COUNT_AFTER.match(after)
            or (_STAR_AFTER_MEMORY.match(after) if _MEMORY_END.search(folded[start:end]) else None)
            or _MEMORY_THEN_STAR.match(after)
            or _BRACKETED_AFTER.match(after)
            or _MEMORY_TIMES_AFTER.match(after)
            or _SOCKETS_AFTER.match(after)
            or _CARDS_AFTER.match(after)
            or _COUNTED_NOUN_AFTER.match(after)
            or _COUNTED_BRACKET_AFTER.match(after)
        )
        if match:
            units = match.re in (
                _COUNT_AFTER,
                _BRACKETED_AFTER,
                _STAR_AFTER_MEMORY,
                _MEMORY_THEN_STAR,
            )
            # "(8p)" is the bracket's second way of writing the count
            found = Stated(0, of_units=units), match.group(1) or match.group(match.lastindex or 1)
    if (
        found is None
        and prose
        and _ARTICLE_BEFORE.search(before)
        and (_SINGULAR_NOUN_AFTER.match(after))
    ):
        found = Stated(0), "1"
    if found is None:
        return None
    value = number(found[1])
    form = found[0]
    per_node = form.per_node or bool(_PER_NODE_BEFORE.search(before))
    return None if value is None else Stated(value, form.of_units, per_node, form.nodes)


_PRODUCT = re.compile(r"^(\d{1,5}) ?[x\u00d7*] ?(\d{1,5})$")


def count_cell(text: str) -> int | None:
    """The count a cell of a device-count column holds: "8", or nodes times devices "4x8"
    under "Nodes x GPUs"."""
    text = text.strip()
    if text.isdigit():
        return number(text)
    match = _PRODUCT.match(text.lower())
    if match is None:
        return None
    return number(str(int(match.group(1)) * int(match.group(2))))


def node_count(folded: str) -> int | None:
    """The nodes a text says a run used: "8 DGX nodes", "a single node", "2 servers"."""
    match = _NODES.search(folded)
    return None if match is None else number(match.group(1))


def parallel_count(folded: str, whole: bool) -> int | None:
    """The chips parallel degrees give: tensor x pipeline x context x data parallel. Expert
    parallel ranks sit within the tensor x context x data parallel ones ("EP16 @ PP4
    (TP8/PP4/DP2)" is 64 chips, not 512): they count only where no data degree is stated,
    and then as a lower bound of one pipeline stage ("TP1 EP8": 8).

    Tensor and pipeline degrees alone say how one copy of the model is split, not how many
    copies ran: they give the run's size only where the text ties them to the chips of the
    result (`whole`: "H100 TP4", "4 GPUs TP2,PP2"), or where they include the data parallel
    degree."""
    degrees: dict[str, int] = {}
    if "way" in folded:  # "8-way TP": tensor parallel of 8
        folded = _WAYS.sub(lambda ways: f"{ways.group(2)}{ways.group(1)}", folded)
    stated: list[tuple[str, str]] = _PARALLEL.findall(folded)
    if any(kind == "pp" for kind, _degree in stated) and _LLAMA_BENCH_TEST.search(folded):
        # "pp512 + tg128": llama.cpp's benchmark tests (processing a 512-token prompt,
        # generating 128 tokens), no pipeline of 512 stages
        stated = [(kind, degree) for kind, degree in stated if kind != "pp"]
    for kind, degree in stated:
        degrees.setdefault(_DATA_PARALLEL.get(kind, kind), int(degree))
    if not degrees or not (whole or "dp" in degrees):
        return None
    stage = degrees.get("tp", 1) * degrees.get("cp", 1) * degrees.get("dp", 1)
    if "dp" not in degrees:
        stage = max(stage, degrees.get("ep", 1))
    product = stage * degrees.get("pp", 1)
    return product if 0 < product <= MAX_ACCELERATORS else None

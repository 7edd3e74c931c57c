"""What a model name says: the model (its catalogue name and its identity across pages) and
what else the name states (version, fine-tune, optimizer, precision, framework, accuracy
target).

A name is read by its structure before any list: `resnet50-torch-fp32` is ResNet-50 with a
framework and a precision, `llama2-70b-99` Llama 2 70B at the 99% accuracy target,
`ResNet50 (LARS)` ResNet-50 with an optimizer, `Llama-3.1-405B-Instruct-FP8` Llama 3.1 405B
Instruct in FP8. The name's leading words up to the first word that decorates it are the
model: the longest run of them that schemas/vocab/models.csv knows, else a family of
schemas/vocab/model_families.csv with its size ("Qwen3-235B-A22B", "GPT3-1.3B"). The words
that decorate a name are schemas/vocab/model_words.csv's, precisions, accuracy targets,
versions, batch and sequence markers. A name the catalogue cannot read whole stays as
published. Each distinct name is read once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from perfledger.schemas.folding import clean_text
from perfledger.schemas.labels import label_key
from perfledger.schemas.precisions import read_precision_label, states_dtype
from perfledger.schemas.vocabulary import read_vocab

_MEMO = 65_536  # distinct names and phrases remembered
MAX_NAME_CHARS = 120  # a longer text is no model name
MAX_PHRASE_WORDS = 5  # words of running text tried as one model name

# A size in parameters: 70b, 1.3b, 125m, 8x7b, 7b1 (BLOOM's 7.1B), 235b-a22b (total, active).
_PARAMS = r"\d+(?:\.\d+)?[bmkt]|\d+x\d+(?:\.\d+)?b|\d+b\d"
_PARAMS_RE = re.compile(rf"(?:{_PARAMS})")
_ACTIVE = re.compile(r"a\d+(?:\.\d+)?b|\d+e")  # active parameters, experts: a22b, 16e
_TARGET = re.compile(r"99(?:\.9)?")  # MLPerf accuracy targets: 99% or 99.9% of the reference
_REVISION = re.compile(r"v\d+(?:\.\d+)*[a-z]?|\d+\.\d+(?:\.\d+)?|(?:19|20)?\d{2}(?:0[1-9]|1[0-2])")
_RESOLUTION = re.compile(r"\d{3,4}(?:x\d{3,4})?(?:px)?|x\d+(?:\.\d+)?")
_MARKER = re.compile(
    r"(?:bs|batch)\d+|\d+b|seq\d+|\d+k|ctx\d+|\d+(?:dev|core|cores|chip|c|n)"
    r"|n\d+|\d+(?:gpu|gpus|card|cards)"
)
# A GGUF quantization type written in parts ("Q4_K_M", "q8_0", "IQ4_XS"): one word, a
# precision of schemas/vocab/precisions.csv ("q4km"), not three words of the name.
_GGUF_TYPE = re.compile(
    r"(?:\.|(?<![a-z0-9]))(i?q\d)((?:_(?:k|\d|xxs|xs|s|m|l|nl))+)(?![a-z0-9])", re.I
)
_SPLIT = re.compile(r"[\s_\-:,/]+")
_PARENTHESES = re.compile(r"\s*[(\[]([^()\[\]]{0,60})[)\]]")
_FILE = re.compile(
    r"\.(?:bmodel|onnx|engine|plan|pt|pth|pb|tflite|rknn|hef|gguf|safetensors|xml"
    r"|mlmodel|mlpackage|trt|om|nb|mnn|param|bin|h5|ckpt)$",
    re.I,
)


def is_model_file(text: str) -> bool:
    """Whether `text` is the name of a model's file ("yolov5s_v6.1_3output_fp32_1b.bmodel")."""
    return " " not in text.strip() and _FILE.search(text.strip()) is not None


_ORG = re.compile(r"^[A-Za-z][\w.-]{1,40}/(?=\S)")
_ABBREVIATION_END = re.compile(r"(?<=[A-Za-z]{2})\.$")
# Marks after a name that call a footnote ("CNN Large INT8 *", "SESR INT8 **", "ResNet-50 †").
_FOOTNOTE_MARKS = re.compile(r"(?<=[\w)\]])\s*[*\u2020\u2021\u00a7]+$")
# reStructuredText substitutions a cell keeps for an icon ("resnet_v1_50 |rocket| |star|").
_SUBSTITUTION = re.compile(r"\s*\|[\w-]{1,20}\|")
# A run of CJK characters is a word of its own: Chinese and Japanese write no space around a
# name ("以下示例为DeepLabV3精度结果": the model is "DeepLabV3").
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_WORD = re.compile(rf"[{_CJK}]+|[^\s,;:!?()\[\]{{}}\"'“”‘’|{_CJK}]+")
_VERSUS = re.compile(r"(?i)vs\.?|versus")
_CLAUSE_END = re.compile(r"[,;](?=\s)")
# A Python path to a model ("torchvision.models.resnet.resnet18"): its last name is the model.
_DOTTED = re.compile(r"[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*){2,}", re.I)


@dataclass(frozen=True)
class ModelReading:
    canonical: str  # the catalogue's name at the grain published, else the name as published
    base: str | None = None  # the identity pages are compared on: family and size, no version
    variant: str | None = None  # what the name adds to its identity: version, fine-tune, ...
    item_kind: str | None = None  # what the model's throughput counts
    precision: str | None = None  # the precision word the name carries ("FP8")
    framework: str | None = None  # the framework the name carries ("torch" -> PyTorch)
    quality_target: str | None = None  # "99%" of "llama2-70b-99"
    family: str | None = None  # a family named without its size ("MPT")
    size: str | None = None  # a size named without its family ("7B")
    known: bool = False  # the catalogue reads the name whole

    @property
    def identity(self) -> str | None:
        return self.base if self.known else None


@dataclass(frozen=True)
class _Entry:
    model: str
    item_kind: str | None
    base: str
    prose: bool


@dataclass(frozen=True)
class _Family:
    head: str  # the letters every name of the family starts with ("" when they vary)
    pattern: str  # compiled on first use: most pages name few families
    template: str
    sizes: re.Pattern[str] | None
    size_optional: bool  # the family names a model without a size too ("DeepSeek-R1")
    joiner: str
    item_kind: str | None


@cache
def _catalogue() -> dict[str, _Entry]:
    return {
        row["alias"]: _Entry(
            row["model"], row["item_kind"], row["base"] or row["model"], row["prose"] != "no"
        )
        for row in read_vocab("models.csv").iter_rows(named=True)
    }


@cache
def _families() -> tuple[_Family, ...]:
    families = []
    for row in read_vocab("model_families.csv").iter_rows(named=True):
        sizes = row["sizes"] or ""
        optional = not sizes or sizes.endswith("?")
        sizes = sizes.rstrip("?")
        leading = re.match(r"[a-z]*", row["pattern"])
        assert leading is not None  # "[a-z]*" matches at the start of any text
        head = leading.group(0)
        families.append(
            _Family(
                head,
                row["pattern"],
                row["family"],
                _size_pattern(sizes.replace("PARAMS", _PARAMS)) if sizes else None,
                optional,
                row["joiner"] if row["joiner"] is not None else "",
                row["item_kind"],
            )
        )
    return tuple(families)


@lru_cache(maxsize=256)
def _families_starting(first: str) -> tuple[_Family, ...]:
    """The families, in their order, a text opening with `first` may name: running text
    tries every run of words, and most open with a letter no family's name does."""
    return tuple(
        family for family in _families() if not family.head or family.head.startswith(first)
    )


@cache
def _size_pattern(sizes: str) -> re.Pattern[str]:
    return re.compile(f"(?:{sizes})")


@cache
def _words() -> dict[str, tuple[str, str | None]]:
    return {
        row["word"]: (row["kind"], row["value"])
        for row in read_vocab("model_words.csv").iter_rows(named=True)
    }


def read_model(text: str | None) -> ModelReading:
    """What a model label says; a label no catalogue reads stays as published."""
    if not text:
        return ModelReading("")
    return _read(text)


@lru_cache(maxsize=_MEMO)
def _read(text: str) -> ModelReading:
    cleaned = _SUBSTITUTION.sub(" ", clean_text(text)).strip(" \u00a0")
    cleaned = _FOOTNOTE_MARKS.sub("", cleaned) or cleaned  # "swin-base_3rdparty_in1k*"
    cleaned = _ABBREVIATION_END.sub("", cleaned)  # "Qwen2.5 72B-Inst.": a word cut short
    published = ModelReading(cleaned)
    if not cleaned or len(cleaned) > MAX_NAME_CHARS:
        return published
    entry = _catalogue().get(label_key(cleaned))
    if entry is not None:
        return _known(entry)
    if _DOTTED.fullmatch(cleaned):
        last = _read(cleaned.rsplit(".", 1)[1])
        return replace(last, canonical=last.canonical) if last.known else published
    body, notes = _notes(cleaned)
    file = _FILE.search(body) is not None
    body = _FILE.sub("", body)
    reading = _structural(body, notes)
    if reading is None and file:  # "BM1684X/yolov5s_tpukernel_fp32_1b.bmodel": its folder too
        reading = _built_model(body, notes) or _built_model(_ORG.sub("", body), notes)
    if reading is None and _ORG.match(body):  # "EleutherAI/gpt-j-6b"
        reading = _structural(_ORG.sub("", body), notes)
    if reading is None:
        return _partial(body) or _precision_last(body, published)
    return replace(reading, canonical=reading.canonical or cleaned)


def _core_end(tokens: list[str]) -> int:
    """Where a name's leading words end: at its first word that decorates it."""
    return next(
        (
            index
            for index, token in enumerate(tokens)
            if index and _decoration(token, tokens[index - 1] if index > 1 else "", weak=False)
        ),
        len(tokens),
    )


def _built_model(body: str, notes: list[str]) -> ModelReading | None:
    """A model file's name with words of its build between the model and the decorations
    ("yolov5s_tpukernel_fp32_1b.bmodel", "yolov5s_v6.1_3output_int8_1b.bmodel"): the model
    its leading words name, in the precision it states."""
    tokens = _tokens(body)
    core_end = _core_end(tokens)
    for end in range(core_end - 1, 0, -1):
        reading = _structural(" ".join(tokens[:end] + tokens[core_end:]), notes)
        if reading is not None and reading.known:
            return reading
    return None


def _precision_last(body: str, published: ModelReading) -> ModelReading:
    """A name no catalogue knows ending in its precision ("chinese-alpaca-7b-q4",
    "alpaca-7b-int4"): the name as published, run in that precision."""
    tokens = _tokens(body)
    if len(tokens) < 2 or not _PARAMS_RE.fullmatch(tokens[-2]):
        return published
    decoration = _decoration(tokens[-1], tokens[-2], weak=False)
    if decoration is None or decoration[0] != "precision":
        return published
    return replace(published, precision=decoration[1])


def _known(entry: _Entry) -> ModelReading:
    variant = (
        entry.model[len(entry.base) :].strip(" ()") if entry.model.startswith(entry.base) else None
    )
    return ModelReading(entry.model, entry.base, variant or None, entry.item_kind, known=True)


def _notes(text: str) -> tuple[str, list[str]]:
    """The name without its bracketed notes ("ResNet50 (LARS)"), and the notes."""
    notes = _PARENTHESES.findall(text)
    return (_PARENTHESES.sub(" ", text).strip() if notes else text), notes


def _tokens(text: str) -> list[str]:
    joined = _GGUF_TYPE.sub(
        lambda match: " " + match.group(1) + match.group(2).replace("_", ""), text
    )
    return [token for token in _SPLIT.split(joined.lower()) if token]


def _structural(body: str, notes: list[str]) -> ModelReading | None:
    tokens = _tokens(body)
    if not tokens:
        return None
    # The model is the name's leading words, up to the first word that decorates it;
    # versions and image sizes stay with the model ("resnet 101", "inception v4").
    # The first word is the model's; a word after it is a batch marker ("1b") only after
    # another decoration ("resnet50_fp32_1b"), never after the model's name ("opt 13b").
    core_end = _core_end(tokens)
    core, rest = tokens[:core_end], tokens[core_end:]
    named = _catalogued(core) or _sized_family(core)
    if named is None:
        return None
    reading, revisions = named
    said: dict[str, list[str]] = {
        "revision": list(revisions),
        "finetune": [],
        "task": [],
        "other": [],
    }
    for index, token in enumerate(rest):
        # Once a word has decorated the name, the words after it are its settings, read
        # where a vocabulary knows them ("qwen1.5-1.8b_int4_seq512_bm1688_1dev").
        decoration = _decoration(token, rest[index - 1] if index else "", weak=True)
        if decoration is not None:
            reading = _said(reading, said, *decoration, token)
    for note in notes:
        if _unit_like(note):
            continue  # "(t/s)", "(sen/s)": the unit of the row's numbers
        words = [(_decoration(token, "", weak=True), token) for token in _tokens(note)]
        decorations = [(decoration, token) for decoration, token in words if decoration is not None]
        if not words or len(decorations) != len(words):
            said["other"].append(note.strip())
            continue
        for (kind, value), token in decorations:
            reading = _said(reading, said, kind, value, token)
    return _finished(reading, said)


def _unit_like(note: str) -> bool:
    return bool(
        re.fullmatch(
            r"[a-z]+(?:/[a-z]+)+|(?:img|images|tokens|samples)/s(?:ec)?|fps", note.strip().lower()
        )
    )


def _said(
    reading: ModelReading, said: dict[str, list[str]], kind: str, value: str | None, token: str
) -> ModelReading:
    """`reading` with what one decorating word says; versions, fine-tunes and the like are
    noted in `said`."""
    if kind in ("finetune", "revision", "task"):
        said[kind].append(value or token)
    elif kind in ("optimizer", "mode", "phase", "part"):
        said["other"].append(value or token)
    elif kind == "precision" and reading.precision is None:
        return replace(reading, precision=value)
    elif kind == "framework" and reading.framework is None:
        return replace(reading, framework=value)
    elif kind == "target" and reading.quality_target is None:
        return replace(reading, quality_target=value)
    return reading


def _decoration(token: str, before: str, weak: bool) -> tuple[str, str | None] | None:
    """(kind, value) of a word that decorates a model name, None for a word of the name.
    Versions, dates and image sizes are `weak`: they end no model's name."""
    word = _words().get(token)
    if word is not None:
        return word
    if states_dtype(token):
        return ("precision", token.upper())
    if _TARGET.fullmatch(token):
        return ("target", f"{token}%")
    if _MARKER.fullmatch(token) and (
        not _PARAMS_RE.fullmatch(token)
        or (before and _decoration(before, "", weak=False) is not None)
    ):
        return ("marker", None)  # "resnet50_fp32_1b": a batch of 1, not a size
    if not weak:
        return None
    if _REVISION.fullmatch(token):
        return ("revision", token)
    if _RESOLUTION.fullmatch(token):
        return ("marker", None)
    return None


def _catalogued(core: list[str]) -> tuple[ModelReading, list[str]] | None:
    """The longest leading run of `core` the catalogue knows whose words after it are only
    versions or image sizes of its model, and those versions."""
    catalogue = _catalogue()
    for end in range(len(core), 0, -1):
        entry = catalogue.get(label_key("".join(core[:end])))
        if entry is None:
            continue
        extra = core[end:]
        # an ONNX model zoo's opset after a version ("resnet50-v2-7", "mobilenetv2-12"), the
        # version ending the run the catalogue knows or standing after it: "MobileNet-v2 10"
        # is MobileNet v2, not MobileNet v1 of revision v2
        version = extra[-2] if len(extra) >= 2 else core[end - 1] if extra else ""
        if (
            version.startswith("v")
            and _REVISION.fullmatch(version)
            and re.fullmatch(r"\d{1,2}", extra[-1])
        ):
            extra = extra[:-1]
        if all(_REVISION.fullmatch(token) or _RESOLUTION.fullmatch(token) for token in extra):
            return _known(entry), [token for token in extra if _REVISION.fullmatch(token)]
    return None


def _sized_family(core: list[str]) -> tuple[ModelReading, list[str]] | None:
    """A family and its size: "llama 3 70b" -> Llama 3 70B, "qwen1.5 7b" -> Qwen1.5 7B."""
    text = " ".join(core)
    for family in _families_starting(text[:1]):
        if not text.startswith(family.head):
            continue
        match = re.match(family.pattern, text)
        if match is None:
            continue
        name = " ".join(_filled(family.template, match).split())
        rest = text[match.end() :].strip()
        if not rest:
            if family.size_optional:
                return ModelReading("", name, None, family.item_kind, known=True), []
            return ModelReading("", family=name, item_kind=family.item_kind), []
        size, revisions = _size(rest, family)
        if size is None:
            return None
        return ModelReading(
            "", f"{name}{family.joiner}{size}", None, family.item_kind, known=True
        ), revisions
    return None


def _filled(template: str, match: re.Match[str]) -> str:
    return re.sub(r"\$(\d)", lambda ref: match.group(int(ref.group(1))) or "", template)


def _size(rest: str, family: _Family) -> tuple[str | None, list[str]]:
    tokens = rest.split()
    if family.sizes is None or not family.sizes.fullmatch(tokens[0]):
        return None, []
    size = _size_text(tokens[0], family.joiner)
    extra = tokens[1:]
    while extra and _ACTIVE.fullmatch(extra[0]):
        size += "-" + extra.pop(0).upper()
    # "Llama 4 Scout 17B 16E": a named size's parameters say nothing more; an image model's
    # input size neither ("yolo11n_320").
    images = family.item_kind == "images"
    if not all(
        _REVISION.fullmatch(token)
        or _PARAMS_RE.fullmatch(token)
        or _ACTIVE.fullmatch(token)
        or (images and _RESOLUTION.fullmatch(token))
        for token in extra
    ):
        return None, []
    return size, [token for token in extra if _REVISION.fullmatch(token)]


def _size_text(size: str, joiner: str) -> str:
    if _PARAMS_RE.fullmatch(size):
        if re.fullmatch(r"\d+b\d", size):  # 7b1: 7.1B
            size = size.replace("b", ".") + "b"
        return size.upper().replace("X", "x")
    if not joiner:
        return size
    # "xl", "r50", "e2b" are codes; "air", "pro", "mini" are words
    return size.upper() if len(size) <= 2 or any(c.isdigit() for c in size) else size.title()


def _finished(reading: ModelReading, said: dict[str, list[str]]) -> ModelReading:
    if not reading.known:
        return reading
    base = reading.base
    assert base is not None  # every reading the catalogue or a family knows has its identity
    if said["task"]:  # "yolov8n-seg": a segmentation model of its own, YOLOv8n-seg
        base = f"{base}-{said['task'][0]}"
        reading = replace(reading, base=base, canonical=None)
    canonical = reading.canonical or base
    revision = " ".join(said["revision"])
    if revision and canonical == base:
        versioned = _catalogue().get(label_key(f"{base}{revision}"))
        canonical = versioned.model if versioned else canonical
    finetune = " ".join(dict.fromkeys(said["finetune"]))
    if finetune:
        canonical = f"{canonical} {finetune}"
    variant_parts = [
        part
        for part in (
            reading.variant,
            finetune,
            revision if revision not in canonical else "",
            *said["other"],
        )
        if part
    ]
    return replace(
        reading, canonical=canonical, variant=", ".join(dict.fromkeys(variant_parts)) or None
    )


def _partial(body: str) -> ModelReading | None:
    """A family named alone ("MPT") or a size alone ("7b"): what it says, not a model."""
    tokens = _tokens(body)
    if len(tokens) == 1 and _PARAMS_RE.fullmatch(tokens[0]):
        return ModelReading(clean_text(body), size=_size_text(tokens[0], " "))
    if len(tokens) == 2 and _PARAMS_RE.fullmatch(tokens[0]):
        # "8B Q4_K_M", "70B F16": a size run in a precision, under a page naming the family
        decoration = _decoration(tokens[1], tokens[0], weak=False)
        if decoration is not None and decoration[0] == "precision":
            size = _size_text(tokens[0], " ")
            return ModelReading(clean_text(body), precision=decoration[1], size=size)
    found = _sized_family(tokens) if tokens else None
    if found is not None and not found[0].known:
        return replace(found[0], canonical=clean_text(body))
    return None


# ---- models named in running text (captions, headings, titles) ------------------------------


@lru_cache(maxsize=_MEMO)
def models_in_text(text: str) -> tuple[tuple[str, ModelReading], ...]:
    """(phrase, reading) of each model a caption, heading or title names whole, in order:
    the longest run of words at each place that the catalogue reads with nothing left over,
    and that it lets stand in prose ("CLIP", "MAE" name models only as labels)."""
    # "Compared with Transformer-big, it has 16 layers": a name ends at a comma or a
    # semicolon, which no name holds
    words = _WORD.findall(_CLAUSE_END.sub(" \x00 ", clean_text(text)[:2000]))
    # "Qwen3-8B-FP8 FastLLM vs vLLM": a name ends where a comparison does; what follows
    # "vs" is the other side, not the model's framework.
    stops = [index for index, word in enumerate(words) if word == "\x00" or _VERSUS.fullmatch(word)]
    found = []
    start = 0
    while start < len(words):
        limit = next((stop for stop in stops if stop >= start), len(words))
        for end in range(min(limit, start + MAX_PHRASE_WORDS), start, -1):
            phrase = " ".join(words[start:end]).strip(".-")
            reading = read_model(phrase)
            if _names_model_whole(phrase, reading):
                # The fewest words that name the same model ("Llama 3.1 405B model" is "Llama
                # 3.1 405B"; "Llama-3.1-70B on 1x MI300X (FP8)" is "Llama-3.1-70B", its
                # precision and engine kept in the reading): the rest is not its name.
                named = _name_of(reading)
                stop = next(
                    stop
                    for stop in range(start + 1, end + 1)
                    if _name_of(read_model(_phrase(words, start, stop))) == named
                )
                # ... and without the words before it a name ignores ("高并发推理 Llama 2 70B":
                # high-concurrency inference, then the model)
                first = max(
                    begin
                    for begin in range(start, stop)
                    if _name_of(read_model(_phrase(words, begin, stop))) == named
                )
                found.append((_phrase(words, first, stop), reading))
                start = end
                break
        else:
            start += 1
    if not found and (named := _NAMED_AS_MODEL.match(clean_text(text))) is not None:
        return ((named.group(1), read_model(named.group(1))),)
    return tuple(found)


# A heading opening with a name joined to the word "model" in Chinese ("Wenet模型-推理指导",
# "BLIP模型-推理指导", the template of a model zoo's pages): that model, known or not.
_NAMED_AS_MODEL = re.compile(r"^\W{0,3}([A-Za-z][A-Za-z0-9_.+-]{1,40})模型")


def _phrase(words: list[str], start: int, stop: int) -> str:
    return " ".join(words[start:stop]).strip(".-")


def _name_of(reading: ModelReading) -> ModelReading:
    """What a reading says of the model itself (its version, size, variant...), without the
    precision and engine its phrase may name after it."""
    return replace(reading, precision=None, framework=None)


_SIZE_TOKEN = re.compile(r"\d+(?:\.\d+)?[bm]|\d+x\d+(?:\.\d+)?b")
_NAME_PARTS = re.compile(r"[\s_/-]+")


def names_a_size(name: str) -> bool:
    """Whether a name holds a model size as one of its parts ("ChatGLM2-6B-Base",
    "Llama-7B-int4"): the name of a model, known to the catalogue or not."""
    return any(
        _SIZE_TOKEN.fullmatch(part) for part in _NAME_PARTS.split(name[:MAX_NAME_CHARS].lower())
    )


@lru_cache(maxsize=_MEMO)
def size_in_text(text: str) -> str | None:
    """The one model size a heading names apart from any family ("A10 13b, fp16")."""
    sizes = {
        _size_text(word.lower(), " ")
        for word in _WORD.findall(clean_text(text)[:500])
        if _PARAMS_RE.fullmatch(word.lower().strip(".-"))
    }
    return sizes.pop() if len(sizes) == 1 else None


# A family's version written as a word of its own after its name: "Llama 3.1", "Gemma 2".
_VERSION_WORD = re.compile(r"v?\d{1,2}(?:\.\d{1,2})?")


@lru_cache(maxsize=_MEMO)
def family_in_text(text: str) -> str | None:
    """A model family the text names without a size ("MPT Training Benchmarks"); a version
    written apart from the name is the family's ("Llama 3.1 Models" names Llama 3.1, not
    LLaMA)."""
    words = [word.strip(".-") for word in _WORD.findall(clean_text(text)[:2000])]
    families = set()
    index = 0
    while index < len(words):
        reading = None
        if index + 1 < len(words) and _VERSION_WORD.fullmatch(words[index + 1].lower()):
            reading = read_model(f"{words[index]} {words[index + 1]}")
            if reading.family:
                index += 1  # the version is read with its name
        if reading is None or not reading.family:
            reading = read_model(words[index])
        if reading.family:
            families.add(reading.family)
        index += 1
    return families.pop() if len(families) == 1 else None


# A name no catalogue knows that is written as a model's, its size last: "GPT-1.3B",
# "Megatron-530B" (a parameter count in billions, millions or trillions; "4k" is a length).
_SIZE_LAST = re.compile(r"\d+(?:\.\d+)?[bmt]|\d+x\d+(?:\.\d+)?b")
_NAME_FIRST = re.compile(r"[a-z][a-z0-9.]*[a-z][a-z0-9.]*")
_MAX_UNKNOWN_TOKENS = 4


@lru_cache(maxsize=_MEMO)
def unknown_model_in_text(text: str) -> str | None:
    """The one word of a caption, heading or title written as a model's name and size that
    the catalogue does not know ("Performance of GPT-1.3B"), as written; None if there are
    none or two."""
    found = set()
    for word in _WORD.findall(clean_text(text)[:500]):
        word = word.strip(".-")
        tokens = _tokens(word)
        if (
            2 <= len(tokens) <= _MAX_UNKNOWN_TOKENS
            and _NAME_FIRST.fullmatch(tokens[0])
            and _SIZE_LAST.fullmatch(tokens[-1])
            and read_precision_label(tokens[0]) is None  # "fp16-2B": a precision, then a size
            and not read_model(word).known
        ):
            found.add(word)
    return found.pop() if len(found) == 1 else None


def _names_model_whole(phrase: str, reading: ModelReading) -> bool:
    if not reading.known:
        return False
    entry = _catalogue().get(label_key(phrase))
    return entry is None or entry.prose


def sized(family: str, size: str) -> str:
    """A size-only label's model, given the family its table's context names."""
    return f"{family} {size}"

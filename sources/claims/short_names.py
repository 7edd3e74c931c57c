"""Short names a page gives its parties, read from the page on demand: abbreviations it
defines ("TurboQuant (TQ)", "HuggingFace Transformers (HF)"), and the configurations it names
with a precision ("FP8 KV-cache quantization"), so that a claim saying "TQ variants" or "FP8"
names the party the page means."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from perfledger.schemas.claims import load_claim_vocab
from perfledger.sources.claims.lexicon import Lexicon, build_alternation, fold

# "Long Name (ABBR)": up to five words before a bracketed short form of capitals and digits
DEFINED = re.compile(r"((?:[A-Z][\w.+-]*\s){0,4}[A-Z][\w.+-]*)\s\(([A-Z][A-Za-z0-9]{1,7})\)")


@cache
def configuration_after() -> re.Pattern[str]:
    """A precision followed by the configuration it names ("FP8 KV-cache quantization")."""
    vocab = load_claim_vocab()
    precisions = build_alternation(vocab["conditions"]["precision"])
    heads = build_alternation(vocab["short_names"]["configurations"])
    return re.compile(
        rf"(?<![\w-])({precisions})\s((?:[\w-]+\s)?(?:{heads}))(?![\w-])", re.IGNORECASE
    )


class ShortNames:
    """The abbreviations and precision configurations of the blocks read so far."""

    def __init__(self) -> None:
        self.long: dict[str, str] = {}  # abbreviation -> long form
        self.configured: dict[str, str] = {}  # folded precision -> its first configuration

    def add(self, texts: Iterable[str], lex: Lexicon) -> None:
        pattern = configuration_after()
        for text in texts:
            for match in DEFINED.finditer(text):
                long, short = match.group(1), match.group(2)
                if initials_fit(short, long):
                    self.long.setdefault(short, trimmed(long, short))
            for match in pattern.finditer(text):
                self.configured.setdefault(fold(match.group(1)), match.group(0))
        del lex

    def expand(self, short: str) -> str | None:
        words = short.split()
        if not words:
            return None
        if words[0] in self.long:
            # as the page defined it, "TurboQuant (TQ)", so both names stay searchable
            return " ".join([f"{self.long[words[0]]} ({words[0]})", *words[1:]])
        if len(words) == 1:
            return self.configured.get(fold(words[0]))
        return None


def initials_fit(short: str, long: str) -> bool:
    """ "TQ" fits "TurboQuant", "HF" fits "HuggingFace Transformers": the short form's
    capitals are the long form's in order."""
    capitals = [c for c in long if c.isupper() or c.isdigit()]
    letters = [c for c in short if c.isupper() or c.isdigit()]
    position = 0
    for letter in letters:
        while position < len(capitals) and capitals[position] != letter:
            position += 1
        if position == len(capitals):
            return False
        position += 1
    return capitals[:1] == letters[:1]


def trimmed(long: str, short: str) -> str:
    """The long form from the word its short form's first capital starts."""
    words = long.split()
    for index, word in enumerate(words):
        if word[:1] == short[:1]:
            return " ".join(words[index:])
    return long

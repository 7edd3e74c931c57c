"""Which decimal mark a page uses: from its numbers, its declared language, or its prose.

"12.345" is twelve thousand on a German page and twelve on an English one. The mark comes
from the evidence nearest the number: numbers of its own column that can be read only one
way ("1.234,5", "0,75", "12.34"), then those of the whole page, then the language the page
declares, then the language of its prose. Without any, a number that reads two ways is not
read (see schemas.cell_reading)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from perfledger.schemas.cell_reading import COMMA, POINT, VALUE_NAME

# A number that only one decimal mark reads (a page's evidence of its mark), perhaps after
# its score's name ("mAP: 37.1745"): "1,234.5", "0.75", "12.34"; "1.234,5", "0,75", "12,34".
_NUMBER_END = r"(?:$|[^\d.,])"
_NAMED = rf"(?:{VALUE_NAME}\s?[:=\uff1a]\s*)?"
POINT_ONLY = (
    r"^\s*" + _NAMED + r"[~\u2248]?\s*(?:\d{1,3}(?:,\d{3}){2,}(?:\.\d+)?|\d{1,3}(?:,\d{3})+\.\d+"
    r"|(?:0|\d{4,})\.\d+|\d{1,3}\.(?:\d{1,2}|\d{4,}))" + _NUMBER_END
)
COMMA_ONLY = (
    r"^\s*" + _NAMED + r"[~\u2248]?\s*(?:\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}(?:\.\d{3})+,\d+"
    r"|(?:0|\d{4,}),\d+|\d{1,3},(?:\d{1,2}|\d{4,}))" + _NUMBER_END
)

# Languages whose writers put a comma before the decimals (ISO 639-1).
_COMMA_LANGUAGES = frozenset(
    [
        "de",
        "fr",
        "es",
        "it",
        "pt",
        "nl",
        "ru",
        "pl",
        "sv",
        "da",
        "fi",
        "nb",
        "nn",
        "no",
        "cs",
        "sk",
        "sl",
        "hr",
        "sr",
        "bg",
        "ro",
        "hu",
        "tr",
        "el",
        "uk",
        "be",
        "lt",
        "lv",
        "et",
        "id",
        "vi",
        "ca",
        "eu",
        "gl",
        "is",
        "az",
        "kk",
        "uz",
        "mn",
    ]
)
_POINT_LANGUAGES = frozenset(
    ["en", "ja", "zh", "ko", "he", "th", "hi", "ms", "tl", "ga", "cy", "mt"]
)
# Short words frequent in running text of one language and rare in the others'.
_FUNCTION_WORDS = {
    "en": "the and of to in is for with on that are this from by be as",
    "de": "der die und das mit für ist von auf den nicht ein eine sich des dem",
    "fr": "le la les et des pour avec est une dans sur que qui pas du au",
    "es": "el los las y para con es una del en por que se al lo como",
    "it": "il di che per con una della sono gli del nel alla questo",
    "nl": "het een van en voor met zijn dat niet op ook deze wordt",
    "pt": "os as um uma para com não que do da em por são",
}
_WORD = re.compile(r"[^\W\d_]+")
_MIN_WORDS = 8  # fewer function words of one language tell too little
_TEXT_CHARS = 20_000  # of each text: far more than the words it may give


def mark_of_language(language: str | None) -> str | None:
    """The decimal mark of a declared language ("de-DE" -> COMMA), None when unknown."""
    if not language:
        return None
    code = language.strip().lower().replace("_", "-").split("-")[0]
    if code in _COMMA_LANGUAGES:
        return COMMA
    if code in _POINT_LANGUAGES:
        return POINT
    return None


def guess_language(texts: Iterable[str], limit: int = 4000) -> str | None:
    """The language most of the prose's function words belong to, when it clearly leads.
    Each text gives at most a tenth of the words read, so that one endless paragraph (a
    list of names, a crafted run of words) cannot drown the others."""
    counts = dict.fromkeys(_FUNCTION_WORDS, 0)
    words = _function_word_languages()
    seen = 0
    for text in texts:
        for taken, match in enumerate(_WORD.finditer(text[:_TEXT_CHARS].lower())):
            if taken >= limit // 10 or seen >= limit:
                break
            language = words.get(match.group(0))
            if language is not None:
                counts[language] += 1
            seen += 1
        if seen >= limit:
            break
    ranked = sorted(counts.items(), key=lambda item: item[1], reverse=True)
    (best, found), (_, second) = ranked[0], ranked[1]
    return best if found >= _MIN_WORDS and found >= 3 * max(second, 1) else None


_LANGUAGE_OF_WORD: dict[str, str] = {}


def _function_word_languages() -> dict[str, str]:
    if not _LANGUAGE_OF_WORD:
        shared = set()
        for language, words in _FUNCTION_WORDS.items():
            for word in words.split():
                if word in _LANGUAGE_OF_WORD and _LANGUAGE_OF_WORD[word] != language:
                    shared.add(word)
                _LANGUAGE_OF_WORD[word] = language
        for word in shared:  # a word of two languages tells neither apart
            del _LANGUAGE_OF_WORD[word]
    return _LANGUAGE_OF_WORD


def page_mark(point: int, comma: int, language: str | None, prose: Iterable[str]) -> str | None:
    """The decimal mark of a page: the one its numbers show (`point` and `comma` count the
    numbers that can only be read with a decimal point, or with a decimal comma) when they
    agree, else its declared language's, else its prose's language's (also when its numbers
    show both marks)."""
    if point and not comma:
        return POINT
    if comma and not point:
        return COMMA
    declared = mark_of_language(language)
    if declared is not None:
        return declared
    # Both marks on one page ("200,80" lists two sizes on an English page): the language of
    # its prose settles it; without one, each column's own numbers do.
    prose = list(prose)
    return mark_of_language(guess_language(prose) or _script_language(prose))


# Prose written in Chinese, Japanese or Korean script: all three write "2,450" for 2450.
_EAST_ASIAN_SCRIPTS = (
    ("ko", re.compile(r"[\uac00-\ud7af]")),
    ("ja", re.compile(r"[\u3040-\u30ff]")),
    ("zh", re.compile(r"[\u4e00-\u9fff]")),
)
_MIN_SCRIPT_CHARS = 8


def _script_language(texts: list[str]) -> str | None:
    """A language of the script most of the prose's first characters are written in, for
    the scripts whose languages share one decimal mark; None for others."""
    sample = "".join(text[:_TEXT_CHARS] for text in texts[:50])[:_TEXT_CHARS]
    counts = [(len(script.findall(sample)), language) for language, script in _EAST_ASIAN_SCRIPTS]
    found, language = max(counts)
    return language if found >= _MIN_SCRIPT_CHARS else None

"""The README and docs/ hold to the code: commands and options that exist, a current SQL
reference, links that lead somewhere. Each check is also run on a broken copy of the text,
so that it is known to fail when the docs drift."""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path

import click
import pytest

from perfledger.flows.cli import main
from tests.conftest import PROJECT_ROOT

README = PROJECT_ROOT / "README.md"
DOCS = PROJECT_ROOT / "docs"
SQL_REFERENCE = DOCS / "sql.md"
GENERATOR = DOCS / "generate_sql.py"

# The first code block, which `.ci/run` reads: its second line is CI's test command.
FIRST_BLOCK = (
    "```\n"
    "python3 -m venv .venv && .venv/bin/pip install -r requirements.lock && .venv/bin/pip "
    "install --no-deps -e . && .venv/bin/python -m compileall -q -x '\\.venv' . "
    "&& .venv/bin/perfledger ingest\n"
    "python3 -m venv .venv && .venv/bin/pip install -r requirements-test.lock && .venv/bin/pip "
    "install --no-deps -e . && .venv/bin/python -m compileall -q -x '\\.venv' . "
    "&& .venv/bin/python -m pytest\n"
    "```\n"
)

CODE_BLOCK = re.compile(r"^```[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
# An inline code span: within one paragraph, as many backticks to close as to open.
CODE_SPAN = re.compile(r"(`+)((?:(?!\n\s*\n).)+?)\1", re.S)
# `perfledger` as a command word (also `.venv/bin/perfledger`), then the rest of its line.
INVOCATION = re.compile(r"(?<![\w.-])perfledger[ \t]+([^\n]*)")
# What ends a command on its line: a shell operator or a comment.
COMMAND_END = re.compile(r"\s(?:&&|\|\||\||;|#|>|2>)\s|&&|;")
QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")
PLACEHOLDER = re.compile(r"[A-Z_]+")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)


def doc_files() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# --- commands and options ------------------------------------------------------------------


def options_of(command: click.Command) -> set[str]:
    context = click.Context(command, info_name=command.name)
    return {
        option
        for parameter in command.get_params(context)
        for option in (*parameter.opts, *parameter.secondary_opts)
        if option.startswith("-")
    }


def code_texts(markdown: str) -> list[str]:
    """Every fenced code block and inline code span, as the reader sees it."""
    blocks = CODE_BLOCK.findall(markdown)
    prose = CODE_BLOCK.sub("", markdown)
    # A span may run over a line break, which reads as a space.
    spans = [
        re.sub(r"\s*\n\s*", " ", match.group(2)).replace("\\|", "|")
        for match in CODE_SPAN.finditer(prose)
    ]
    joined_blocks = [re.sub(r"\\\n", " ", block) for block in blocks]  # line continuations
    return joined_blocks + spans


def invocations(code: str) -> list[tuple[str, list[str]]]:
    """(command word, options written after it) for each `perfledger ...` in a piece of code."""
    found = []
    for match in INVOCATION.finditer(code):
        words = COMMAND_END.split(match.group(1))[0]
        words = QUOTED.sub(" ", words)
        words = re.split(r"[\"']", words)[0]  # a quote closed on a later line
        tokens = words.split()
        if not tokens:
            continue
        name = tokens[0].strip("[]`.,:;()")
        rest = " ".join(tokens[1:])
        found.append(
            (name, OPTION.findall(rest) if not name.startswith("-") else OPTION.findall(words))
        )
    return found


def table_rows(markdown: str) -> list[list[str]]:
    """The cells of every Markdown table row (a `\\|` inside a cell stays in it)."""
    rows = []
    prose = CODE_BLOCK.sub("", markdown)
    for line in prose.splitlines():
        if line.startswith("|") and not re.fullmatch(r"[|\s:-]+", line):
            rows.append([cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip("|"))])
    return rows


def command_problems(name: str, markdown: str) -> list[str]:
    """Commands that do not exist and options their commands do not take, in one document."""
    problems = []
    checked: list[tuple[str, list[str]]] = []
    for code in code_texts(markdown):
        checked.extend(invocations(code))
    # A row of a table that names a command: the options in its other code spans are that
    # command's (the README's commands table).
    for cells in table_rows(markdown):
        commands = [invocation for code in code_texts(cells[0]) for invocation in invocations(code)]
        if len(commands) != 1:
            continue
        options = [
            option
            for cell in cells[1:]
            for code in code_texts(cell)
            if code.lstrip().startswith("-")
            for option in OPTION.findall(code)
        ]
        checked.append((commands[0][0], options))
    for command_name, options in checked:
        if command_name.startswith("-"):
            command, label = main, "perfledger"
        elif PLACEHOLDER.fullmatch(command_name):
            continue  # `perfledger COMMAND --help`
        elif command_name in every_command():
            command, label = every_command()[command_name], f"perfledger {command_name}"
        else:
            problems.append(f"{name}: `perfledger {command_name}` is no command")
            continue
        known = options_of(command)
        problems += [
            f"{name}: `{label}` has no option {option}" for option in options if option not in known
        ]
    return sorted(set(problems))


@cache
def every_command() -> dict[str, click.Command]:
    """The commands `perfledger --help` lists, those of flows/commands/ loaded."""
    context = click.Context(main)
    return {name: main.get_command(context, name) for name in main.list_commands(context)}


def documented_commands(markdown: str) -> set[str]:
    return {name for code in code_texts(markdown) for name, _ in invocations(code)}


def test_every_documented_command_and_option_exists():
    problems = [
        problem for path in doc_files() for problem in command_problems(path.name, read(path))
    ]
    assert problems == []


def test_the_readme_shows_every_command():
    assert set(every_command()) - documented_commands(read(README)) == set()


@pytest.mark.parametrize(
    "original, broken, expected",
    [
        # a command renamed in the commands table
        (
            "`perfledger diff [FROM] [TO]`",
            "`perfledger diffs [FROM] [TO]`",
            "`perfledger diffs` is no command",
        ),
        # an option in the table row of its command
        ("`--round X.Y`", "`--rounds X.Y`", "`perfledger ingest` has no option --rounds"),
        # an option in a code block, after the command
        (
            "perfledger claims --check\n",
            "perfledger claims --checks\n",
            "`perfledger claims` has no option --checks",
        ),
        # an option of another command
        ("`--print-setup`", "`--print-setup`, `--all`", "`perfledger shell` has no option --all"),
    ],
)
def test_the_command_check_fails_on_a_broken_readme(original, broken, expected):
    text = read(README)
    assert original in text
    assert command_problems("README.md", text) == []
    problems = command_problems("README.md", text.replace(original, broken, 1))
    assert [problem for problem in problems if expected in problem], problems


def test_the_command_check_reads_options_after_a_command_in_prose_code():
    text = 'Run `perfledger sql --as-off 3 "SELECT 1"`, then `perfledger --verbose`.'
    assert command_problems("x.md", text) == [
        "x.md: `perfledger sql` has no option --as-off",
        "x.md: `perfledger` has no option --verbose",
    ]
    assert command_problems("x.md", "`perfledger sql --as-of 3 \"SELECT '--no-such'\"`") == []
    assert command_problems("x.md", "a span over a line break: `perfledger\nreconcile --al`") == [
        "x.md: `perfledger reconcile` has no option --al"
    ]


# --- the SQL reference ---------------------------------------------------------------------


@cache
def generator():
    spec = importlib.util.spec_from_file_location("generate_sql", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_sql_reference_is_what_perfledger_dictionary_prints():
    assert read(SQL_REFERENCE) == generator().render(), (
        f"docs/sql.md is stale: regenerate it with `{generator().COMMAND}`"
    )


def test_the_sql_reference_follows_the_code(monkeypatch):
    """A change in what the dictionary prints makes docs/sql.md stale."""
    from perfledger.warehouse import dictionary

    monkeypatch.setattr(dictionary, "view_comment", lambda sql: "Described otherwise.")
    generated = generator().render()
    assert "Described otherwise." in generated
    assert read(SQL_REFERENCE) != generated


# --- links ---------------------------------------------------------------------------------


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*]|<[^>]+>", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(CODE_BLOCK.sub("", markdown)):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def link_problems(path: Path, markdown: str) -> list[str]:
    """Relative links (and their #anchors) that lead nowhere."""
    prose = CODE_SPAN.sub("", CODE_BLOCK.sub("", markdown))
    problems = []
    for target in LINK.findall(prose):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue  # http:, https:, mailto:
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            problems.append(f"{path.name}: {target} does not exist")
        elif (
            anchor
            and linked.suffix == ".md"
            and anchor not in anchors(read_or(linked, path, markdown))
        ):
            problems.append(f"{path.name}: {target} names no heading of {linked.name}")
    return problems


def read_or(linked: Path, path: Path, markdown: str) -> str:
    """The linked file's text; the text under test when a link points into its own page."""
    return markdown if linked == path.resolve() else read(linked)


def test_every_relative_link_resolves():
    problems = [problem for path in doc_files() for problem in link_problems(path, read(path))]
    assert problems == []


def test_the_readme_links_into_docs():
    linked = {
        (README.parent / target.partition("#")[0]).resolve()
        for target in LINK.findall(read(README))
        if target.startswith("docs/")
    }
    assert {path.resolve() for path in DOCS.glob("*.md")} <= linked


@pytest.mark.parametrize(
    "original, broken",
    [
        ("(docs/mlperf.md)", "(docs/mlperf-results.md)"),
        ("(CHANGELOG.md#measured-history)", "(CHANGELOG.md#measured-histories)"),
    ],
)
def test_the_link_check_fails_on_a_broken_link(original, broken):
    text = read(README)
    assert original in text
    assert link_problems(README, text.replace(original, broken)) != []


def test_the_readme_opens_with_the_two_commands():
    assert read(README).startswith(FIRST_BLOCK)

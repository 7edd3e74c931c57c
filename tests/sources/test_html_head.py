"""The head reader gives what a BeautifulSoup tree of the same head gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from perfledger.sources.layouts.html_head import (
    HeadFacts,
    head_markup,
    read_head,
    read_head_with_soup,
)
from perfledger.sources.layouts.html_table import parse_html

_HEAD_PARTS = st.sampled_from(
    [
        "<title>",
        "</title>",
        "<TITLE>",
        "<title/>",
        "<meta name='author' content=' A  B '>",
        "<meta property=og:title content=X>",
        "<meta name=a name=b content=c>",
        "<meta content='x'>",
        "<meta itemprop=datePublished content='2023-01-02'>",
        "<meta/>",
        "</meta>",
        "<link rel='Author me' title=' Ann  Lee '>",
        "<link rel=author>",
        "<link rel=author title=''>",
        "<link rel=author title='  '>",
        "<link rel=author title=First><link rel=author title=Second>",
        "<script>",
        "</script>",
        "<style>",
        "</style>",
        "<template>",
        "</template>",
        "<rt>",
        "</rt>",
        "<!--",
        "-->",
        "<![CDATA[x]]>",
        "<!DOCTYPE html>",
        "<?pi x?>",
        "&amp;",
        "&#150;",
        "&#x41;",
        "&nosuch;",
        "&#99999999;",
        "Hello",
        " world ",
        "\n",
        "<b>",
        "</b>",
        "<br/>",
        "</br>",
        "<p>",
        "<head>",
        "</head>",
        "<svg><title>t</title></svg>",
        "<textarea>",
        "</textarea>",
        "\u00a0",
        "<a rel=author title=T>",
        "</a>",
        "<![if x]>",
        "<!x>",
        "<titlex>",
        "</titl>",
        "<",
        ">",
        "'",
        '"',
        "=",
        '<meta name=description content="a &quot;b&quot; c">',
        "<body>",
    ]
)


def test_the_head_facts_of_a_plain_head():
    text = (
        "<html><head><title> Results &amp; more </title>"
        "<meta name='Author' content=' Ann   Lee '><meta property='og:title' content='T'>"
        "<link rel='me author' title='A. Writer'></head><body><p>x</p></body></html>"
    )
    assert read_head(text) == HeadFacts(
        meta={"author": "Ann Lee", "og:title": "T"},
        title="Results & more",
        author_link="A. Writer",
    )


def test_script_and_comment_text_inside_the_title_is_not_title_text():
    text = "<title>Re<!-- no -->sults<script>var x;</script><b> page</b></title>"
    assert read_head(text).title == "Results page"


@settings(max_examples=400, deadline=None)
@given(st.lists(_HEAD_PARTS, max_size=40).map("".join))
def test_the_head_reader_agrees_with_a_beautifulsoup_tree(text):
    assert read_head(text) == read_head_with_soup(head_markup(text))


def test_a_head_no_parser_reads_states_nothing_and_never_raises():
    # html.parser gives up on '<![' followed by no name, and BeautifulSoup rejects it.
    assert read_head("0<![0") == HeadFacts()
    assert (
        parse_html(
            "<title>T</title><table><tr><th>a</th><th>b</th></tr>"
            "<tr><td>x</td><td>1</td></tr></table>0<![0"
        ).cells.height
        == 4
    )

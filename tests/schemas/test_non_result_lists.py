"""Tables that list things that are never runs (a site's cookies, a project's packages) hold
no results, whatever metric the text above them names: their durations and versions are
neither loaded nor set apart."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# A vendor page's cookie-consent list (HubSpot's cookies, as Graphcore's pages list them),
# in a section whose heading and opening paragraph name a result metric
COOKIES = """## Graphcore Platform - Time to Train

Our throughput and time to train on the new platform, for every model we benchmarked.

| Model | Platform | Time to Train |
| --- | --- | --- |
| BERT Large | Bow Pod64 | 9.4 min |

### Cookies

| Cookie | Duration | Description |
| --- | --- | --- |
| _hssc | 30 mins | Used to track visits & sessions. |
| _hssid | 1 year | Used to track visits & sessions. |
| _hsfbp | 3 months | Used to track visits & sessions. |
"""


def test_a_cookie_list_holds_no_results_under_a_heading_naming_a_metric():
    document = normalized(COOKIES)
    loaded = dict(
        zip(
            document.measurements["raw_value"].to_list(),
            document.measurements["metric"].to_list(),
            strict=True,
        )
    )
    assert loaded == {"9.4 min": "time_to_train"}
    assert document.quarantine.height == 0


# As a project's README lists what it needs (the "Package | Minimum Version" tables of many
# READMEs), under a paragraph naming a metric
PACKAGES = """## Performance

The throughput of each configuration is measured with the packages below.

| Package | Minimum Version | Tested Version | Purpose |
|---|---|---|---|
| Python | 3.10 | 3.10.12 | Runtime |
| PyTorch | 2.0 | 2.1.0 | GPU compute |
| pyarrow | 14 | 15.0.0 | Parquet I/O |
"""


def test_a_package_list_holds_no_results():
    document = normalized(PACKAGES)
    assert document.measurements.height == 0
    assert document.quarantine.height == 0


# A results table whose rows are packages still holds results: its headers name them
PACKAGE_RESULTS = """| Package | Throughput (tokens/s) |
| --- | --- |
| vllm | 1520 |
"""


def test_a_table_of_packages_with_a_result_header_holds_results():
    document = normalized(PACKAGE_RESULTS)
    assert document.measurements["value"].to_list() == [1520.0]

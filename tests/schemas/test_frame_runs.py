import polars as pl

from perfledger.schemas.frame_runs import parts_by


def _same(found: dict, expected: dict) -> bool:
    return list(found) == list(expected) and all(
        found[key].equals(expected[key]) for key in expected
    )


def test_rows_standing_together_split_as_partition_by_splits_them():
    frame = pl.DataFrame({"document": [0, 0, 2, 2, 2, 5], "value": [1.5, 2.0, 3.0, None, 4.0, 6.0]})
    found = parts_by(frame, "document")
    assert _same(found, frame.partition_by("document", as_dict=True, maintain_order=True))
    assert found[2,]["value"].to_list() == [3.0, None, 4.0]
    without_key = parts_by(frame, "document", include_key=False)
    assert without_key[5,].columns == ["value"]
    assert _same(
        without_key,
        frame.partition_by("document", as_dict=True, maintain_order=True, include_key=False),
    )


def test_rows_of_one_value_apart_are_gathered_as_partition_by_gathers_them():
    frame = pl.DataFrame({"source_id": ["a", "b", "a"], "value": [1, 2, 3]})
    found = parts_by(frame, "source_id")
    assert found["a",]["value"].to_list() == [1, 3]
    assert _same(found, frame.partition_by("source_id", as_dict=True, maintain_order=True))


def test_an_empty_frame_has_no_part():
    assert parts_by(pl.DataFrame(schema={"document": pl.Int32}), "document") == {}

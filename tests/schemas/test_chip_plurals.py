"""A chip name followed by a plural "s" ("592 V100s") against chips whose own name ends in S
("V100S", "L40S"), and names that read as more than one chip ("Jetson NX"): the count makes
the plural, a capital S the distinct chip, and a name that could be either is kept as
published, unresolved, never given the wrong chip."""

from __future__ import annotations

import pytest

from perfledger.schemas.platform_mentions import find_mentions, read_platform
from tests.schemas.page_reading import fields_by_raw_value

# As a wiki page on pre-training writes its "Training Costs" table: the hardware a count of
# chips in the plural.
TRAINING_COSTS = """### Training Costs

| Model | Parameters | Training time | Hardware | Estimated cost |
| --- | --- | --- | --- | --- |
| [GPT-3](/wiki/gpt-3) | 175B | ~34 days | 1024 A100s | $4.6 million |
| [CLIP](/index.php?title=CLIP&action=edit&redlink=1) | 400M | 12 days | 592 V100s | $600,000 |
"""


def test_a_count_before_a_chip_in_the_plural_reads_the_chip_and_the_count():
    found = fields_by_raw_value(TRAINING_COSTS, "accelerator", "accelerator_count", "unresolved")
    assert found["12 days"] == ("V100", 592, None)
    assert found["~34 days"] == ("A100", 1024, None)


# As a Jetson deployment README writes its results (a column per device): "Jetson NX" is a
# Xavier NX or an Orin NX, and the page says no more.
JETSON_NX = """### Object Detection

| Network         |  runtime precision   | Object classes       | resolution | Jetson NX |
| ----------------|--------------------  |----------------------|------------|-----------|
| YOLOV5s         | FP16   | 4 | 1920*1080 |100FPS |
"""


def test_a_name_that_reads_as_two_chips_is_kept_as_published_and_unresolved():
    found = fields_by_raw_value(JETSON_NX, "metric", "value", "accelerator", "unresolved")
    assert found["100FPS"] == ("throughput", 100.0, "Jetson NX", "platform=Jetson NX")


@pytest.mark.parametrize(
    ("text", "accelerator", "count"),
    [
        ("on 8 V100s", "V100", 8),
        ("on 4 A100s", "A100", 4),
        ("2x L40S", "L40S", 2),
        ("V100S", "V100S", None),
        ("NVIDIA Tesla V100S", "V100S", None),
        ("l40s", "L40S", None),  # no capital letter: the case says nothing of the 's'
        ("L40s", "L40s", None),  # L40S, or L40 in the plural: kept as published
        ("Jetson NX", "Jetson NX", None),  # Xavier NX or Orin NX: kept as published
        ("Jetson AGX", "Jetson AGX", None),  # AGX Xavier or AGX Orin
        ("Jetson AGX Orin", "Jetson AGX Orin", None),
        ("TPU v5", "TPU v5", None),  # v5e or v5p
        ("TPU v5e", "TPU v5e", None),
        ("Jetson Xavier NX", "Jetson Xavier NX", None),
        ("Jetson Orin NX 16GB", "Jetson Orin NX", None),
        ("iPhone 5s", "A7", None),  # the product's own small 's'
    ],
)
def test_the_chip_a_trailing_s_leaves(text, accelerator, count):
    mention = read_platform(text)
    assert mention is not None
    assert (mention.accelerator, mention.count) == (accelerator, count)


def test_prose_counting_chips_in_the_plural_names_the_chip():
    (mention,) = find_mentions("Training a ResNet50 takes ~27 hours on 8 V100s.", prose=True)
    assert (mention.accelerator, mention.count) == ("V100", 8)

"""Datasets and chip makers named one way, as pages and results name them many ways."""

from __future__ import annotations

import pytest

from perfledger.schemas.identities import canonical_dataset, chip_maker, dataset_named


@pytest.mark.parametrize(
    ("published", "dataset"),
    [
        ("ImageNet2012", "ImageNet"),
        ("Imagenet", "ImageNet"),
        ("ImageNet1k", "ImageNet"),
        ("Open Imagenet", "ImageNet"),  # ByteMLPerf
        ("COCO2017_detection_80cl_bkgr", "COCO"),
        ("COCO 2017", "COCO"),  # TensorRT, Habana
        ("SQUAD_v1_1_bert_msl384_mql64_ds128_lowercase", "SQuAD v1.1"),
        ("Open Squad 1.1", "SQuAD v1.1"),
        ("SST-2_bert_cased_padded", "GLUE SST-2"),
        ("LJ Speech", "LJSpeech"),
        ("Synthetic (host-generated)", "synthetic data"),
    ],
)
def test_a_dataset_reads_as_its_canonical_name(published, dataset):
    assert canonical_dataset(published) == dataset


def test_a_dataset_no_vocabulary_knows_has_no_canonical_name():
    assert canonical_dataset("Wikiset") is None and canonical_dataset(None) is None


def test_a_label_names_a_dataset_only_when_it_is_an_alias_whole():
    assert dataset_named("GSM8K") == "GSM8K" and dataset_named("ImageNet-1k") == "ImageNet"
    # canonical_dataset reads "ImageNet" from the first word; the whole label is no alias
    assert canonical_dataset("ImageNet top-1") == "ImageNet"
    assert dataset_named("ImageNet top-1") is None


@pytest.mark.parametrize(
    ("chip", "maker"),
    [
        ("Gaudi", "Intel"),
        ("Gaudi2", "Intel"),
        ("MI300X", "AMD"),
        ("H100", "NVIDIA"),
        ("Xeon 6980P", "Intel"),
        ("TPU v5e", "Google"),
    ],
)
def test_a_chip_is_its_makers(chip, maker):
    assert chip_maker(chip) == maker


def test_a_chip_no_vocabulary_names_has_no_maker():
    assert chip_maker("Zeta-9") is None

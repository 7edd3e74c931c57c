"""Questions a buyer asks across vendors, answered by `perfledger compare` (the view
model_comparison) over the demo, the real pages of ../shared/real-pages and
../shared/real-pages-2 and the official MLPerf subsets of ../shared/mlperf, ingested into one
warehouse as a user would. Each question spans two vendors or chip generations; each expected
row is a cell of a named page, or an official result of the named submission.

The pages and results stay in ../shared and are never copied into the project."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfledger.flows.cli import main

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CORPORA = (SHARED / "real-pages" / "pages", SHARED / "real-pages-2" / "pages")
TRAINING = SHARED / "mlperf" / "training_v2.0"
INFERENCE = SHARED / "mlperf" / "inference_v4.1"


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> str:
    if not all(path.is_dir() for path in (*CORPORA, TRAINING, INFERENCE)):
        pytest.skip(
            f"../shared ({SHARED}) does not hold the real pages and MLPerf subsets "
            "these questions are asked of"
        )
    folder = str(tmp_path_factory.mktemp("cross-vendor") / "warehouse")
    run("ingest", "--warehouse", folder, "--quiet")  # the demo corpus
    run("ingest", *map(str, CORPORA), "--warehouse", folder, "--quiet")
    run("ingest", str(TRAINING), "--round", "2.0", "--warehouse", folder, "--quiet")
    run("ingest", str(INFERENCE), "--round", "4.1", "--warehouse", folder, "--quiet")
    return folder


def compare(warehouse: str, *args: str) -> list[dict]:
    return json.loads(run("compare", *args, "--format", "json", "--warehouse", warehouse))


def page(row: dict) -> str:
    return row["source_url"].rsplit("/", 1)[-1]


def find(rows: list[dict], **wanted) -> dict:
    """The one row holding every wanted value ('page' is the source file's name)."""
    found = [
        row
        for row in rows
        if all(
            (page(row) if name == "page" else row[name]) == value for name, value in wanted.items()
        )
    ]
    assert len(found) == 1, (wanted, len(found))
    return found[0]


def vendors(rows: list[dict]) -> set[str]:
    return {row["vendor"] for row in rows if row["vendor"]}


# ---- vendor pages ---------------------------------------------------------------------------


def test_resnet50_training_throughput_per_chip_across_four_vendors_pages(warehouse):
    """ResNet-50 training, mixed precision, per chip: Intel's ITEX page (Max 1550), NVIDIA's
    MXNet ResNet-50 v1.5 page (the model named only in its title), Graphcore's results page
    (Bow Pod16, 16 IPUs) and Habana's PyTorch ResNet50 page (Gaudi)."""
    rows = compare(
        warehouse,
        "ResNet50 v1.5",
        "--workload",
        "training",
        "--metric",
        "throughput",
        "--precision",
        "fp16",
        "--best",
    )
    assert {"Intel", "NVIDIA", "Graphcore"} <= vendors(rows)
    max1550 = find(rows, accelerator="Max 1550")
    a100 = find(rows, accelerator="A100")
    bow = find(rows, accelerator="Bow IPU")
    gaudi = find(rows, accelerator="Gaudi")
    assert (page(max1550), max1550["raw_value"], max1550["compared_value"]) == (
        "intel_itex_v2.15.0.1_gpu_performance.html",
        "3461.86",
        3461.86,
    )
    assert (page(a100), a100["compared_value"]) == ("nvidia_dle_mxnet_rn50v1.5_README.md", 3410.52)
    assert "model=heading" in a100["label_sources"]  # "ResNet-50 v1.5 for MXNet"
    assert (bow["raw_value"], bow["accelerator_count"], bow["compared_value"]) == (
        "44,059",
        16,
        44059 / 16,
    )
    assert (page(gaudi), gaudi["compared_value"]) == (
        "habana_modelrefs_v0.13_pytorch_resnet50_README.md",
        679,
    )
    assert max1550["ranking"] < a100["ranking"] < bow["ranking"] < gaudi["ranking"]
    assert {row["model"] for row in rows} == {"ResNet-50"}


def test_resnet50_inference_throughput_graphcore_against_nvidia_generations(warehouse):
    """ResNet-50 inference, FP16 images/s per chip: Graphcore's IPU-M2000 (GC200) and
    Bow-2000 (4 IPUs each) against NVIDIA's A100, V100 and T4 pages of one model page."""
    rows = compare(
        warehouse,
        "resnet50",
        "--workload",
        "inference",
        "--metric",
        "throughput",
        "--precision",
        "fp16/bf16",
        "--pages",
        "--best",
    )
    images = [row for row in rows if row["item_kind"] == "images"]
    assert {"NVIDIA", "Graphcore"} <= vendors(images)
    assert {"A100", "V100", "T4", "GC200 IPU", "Bow IPU"} <= {row["accelerator"] for row in images}
    gc200 = find(images, accelerator="GC200 IPU")
    assert (gc200["raw_value"], gc200["accelerator_count"], gc200["compared_value"]) == (
        "50,883",
        4,
        50883 / 4,
    )
    a100 = find(images, accelerator="A100")
    assert (a100["raw_value"], a100["batch_size_number"]) == ("8240.8", 192)
    assert gc200["ranking"] < a100["ranking"]


def test_efficientnet_b4_training_graphcore_against_nvidia(warehouse):
    """EfficientNet-B4 training per chip: Graphcore's Bow Pod16 (9,000 images/s on 16 IPUs)
    against NVIDIA's EfficientNet v1-B4 tables, named only in their headings."""
    rows = compare(
        warehouse,
        "EfficientNet-B4",
        "--workload",
        "training",
        "--metric",
        "throughput",
        "--precision",
        "fp16/bf16",
        "--best",
    )
    bow = find(rows, accelerator="Bow IPU")
    a100 = find(rows, accelerator="A100")
    v100 = find(rows, accelerator="V100")
    assert (bow["raw_value"], bow["compared_value"]) == ("9,000", 562.5)
    assert (page(a100), a100["compared_value"]) == ("nvidia_dle_tf2_efficientnet_v1_README.md", 470)
    assert v100["compared_value"] == 211
    assert bow["ranking"] < a100["ranking"] < v100["ranking"]


def test_bert_large_training_throughput_graphcore_against_intel_max(warehouse):
    """BERT-Large pre-training per chip in 16-bit: Graphcore's Bow Pod16 against Intel's
    Max 1550 (ITEX BERT-Large Phase2, the model named in the table's heading)."""
    rows = compare(
        warehouse,
        "bert-large",
        "--workload",
        "training",
        "--metric",
        "throughput",
        "--precision",
        "fp16/bf16",
        "--best",
    )
    bow = find(rows, accelerator="Bow IPU")
    intel = find(rows, accelerator="Max 1550")
    assert (bow["raw_value"], bow["compared_value"]) == ("6,044", 6044 / 16)
    assert (intel["raw_value"], intel["compared_value"]) == ("182.57", 182.57)
    assert {row["model"] for row in rows} == {"BERT-Large"}


def test_fastpitch_training_throughput_graphcore_against_nvidia_v100(warehouse):
    """FastPitch training in FP32, frames/s per chip: Graphcore's Bow Pod16 against NVIDIA's
    FastPitch 1.1 page on V100 (one model: FastPitch, version 1.1)."""
    rows = compare(
        warehouse,
        "FastPitch",
        "--workload",
        "training",
        "--metric",
        "throughput",
        "--precision",
        "fp32",
    )
    bow = find(rows, accelerator="Bow IPU")
    v100 = find(rows, accelerator="V100", accelerator_count=1)
    assert (bow["raw_value"], bow["compared_value"]) == ("1,489,341", 1489341 / 16)
    assert (v100["raw_value"], v100["model_variant"]) == ("31,863", "1.1")
    assert bow["comparison"] == v100["comparison"] and bow["vendors_compared"] == 2


def test_llama_3_3_70b_serving_across_nvidia_generations(warehouse):
    """Llama 3.3 70B on TensorRT-LLM, ISL/OSL 128/128, tokens/s per GPU: Blackwell (B200,
    GB200) in FP4 against Hopper (H200, H100 with TP2) in FP8; the model is named only in
    the heading over the tables, and the tables are inference for their ISL/OSL column."""
    rows = [
        row
        for row in compare(warehouse, "Llama-3.3-70B-Instruct")
        if row["settings"] == "Sequence Length (ISL/OSL)=128/128"
    ]
    assert {row["workload"] for row in rows} == {"inference"}
    b200 = find(rows, accelerator="B200")
    gb200 = find(rows, accelerator="GB200")
    h200 = find(rows, accelerator="H200")
    h100 = find(rows, accelerator="H100")
    assert (b200["precision_class"], b200["compared_value"]) == ("fp4", 11147)
    assert (gb200["precision_class"], gb200["compared_value"]) == ("fp4", 12189)
    assert (h200["precision_class"], h200["compared_value"]) == ("fp8", 3803)
    assert (h100["raw_value"], h100["accelerator_count"], h100["compared_value"]) == (
        "6,378",
        2,
        3189,
    )
    assert "model=heading" in b200["label_sources"]


def test_bert_inference_throughput_on_three_bytemlperf_backends(warehouse):
    """ByteMLPerf's BERT (bert-torch-fp32) inference QPS on three vendors' accelerators:
    Graphcore C600, Intel's Gaudi and Moffett's SPU, each its own page."""
    rows = [
        row
        for row in compare(
            warehouse, "bert-torch-fp32", "--metric", "throughput", "--precision", "fp16/bf16"
        )
        if row["model"] == "BERT"
    ]
    assert vendors(rows) == {"Graphcore", "Intel", "Moffett"}
    assert find(rows, vendor="Graphcore")["raw_value"] == "3,134"
    assert find(rows, vendor="Intel")["raw_value"] == "1970"
    assert find(rows, vendor="Moffett")["raw_value"] == "7738"
    assert {row["workload"] for row in rows} == {"inference"}  # a QPS column


# ---- official MLPerf results and the pages that print them --------------------------------


def test_llama2_70b_offline_tokens_per_accelerator_mi300x_against_h100(warehouse):
    """Llama 2 70B Offline (99% target), tokens/s per accelerator in MLPerf Inference v4.1:
    AMD's 8x MI300X and HPE's 8x H100 official results; AMD's MLCommons result page prints
    the official number and is audited by it."""
    rows = compare(warehouse, "Llama 2 70B", "--scenario", "Offline", "--metric", "throughput")
    target = [row for row in rows if row["quality_target"] == "99%"]
    mi300x = find(target, official=True, accelerator="MI300X", accelerator_count=8, value=23514.8)
    h100 = find(target, official=True, system="HPE Cray XD670 (8x H100-SXM-80GB, TensorRT)")
    assert (mi300x["vendor"], mi300x["compared_value"]) == ("AMD", 23514.8 / 8)
    assert (h100["vendor"], h100["compared_value"]) == ("NVIDIA", 24528.3 / 8)
    assert h100["ranking"] < mi300x["ranking"] and mi300x["comparison"] == h100["comparison"]
    amd_page = find(target, page="mlcommons_inference_v4.1_amd_8xmi300x_summary.html")
    assert (amd_page["raw_value"], amd_page["audited"], amd_page["model_published"]) == (
        "23514.8",
        True,
        "llama2-70b-99",
    )
    assert amd_page["confirmed_by"].startswith("AMD/8xMI300X")


def test_bert_time_to_train_gaudi2_against_a100_and_bow_ipus(warehouse):
    """BERT-Large time to train, MLPerf Training v2.0: Habana's HLS-Gaudi2 (8 Gaudi2) ahead
    of NVIDIA's DGX A100 (8 A100) and Graphcore's Bow Pod16; every vendor is the chip's
    maker, Intel for Gaudi whoever submitted it."""
    rows = compare(warehouse, "BERT", "--metric", "time_to_train", "--official")
    gaudi2 = find(rows, accelerator="Gaudi2")
    a100 = find(rows, accelerator="A100")
    pod16 = [
        row for row in rows if row["accelerator"] == "Bow IPU" and row["accelerator_count"] == 16
    ]
    assert {row["model"] for row in rows} == {"BERT-Large"}  # MLPerf's "bert"
    assert (gaudi2["vendor"], gaudi2["accelerator_count"], gaudi2["submitter"]) == (
        "Intel",
        8,
        "Intel-HabanaLabs",
    )
    assert gaudi2["compared_value"] / 60 == pytest.approx(17.2086, abs=1e-3)
    assert a100["compared_value"] / 60 == pytest.approx(18.4424, abs=1e-3)
    assert pod16 and all(row["compared_value"] > a100["compared_value"] for row in pod16)
    assert gaudi2["ranking"] < a100["ranking"]


def test_resnet50_time_to_train_official_beside_the_graphcore_page(warehouse):
    """ResNet-50 time to train, MLPerf Training v2.0, 8 to 16 chips: HLS-Gaudi2, DGX A100 and
    Bow Pod16 official scores, and Graphcore's page printing its own (19.64 min), audited."""
    rows = compare(warehouse, "resnet", "--metric", "time_to_train")
    official = {
        row["accelerator"]: row
        for row in rows
        if row["official"] and row["accelerator_count"] in (8, 16)
    }
    assert set(official) == {"Gaudi2", "A100", "Bow IPU"}
    assert (
        official["Gaudi2"]["compared_value"]
        < official["Bow IPU"]["compared_value"]
        < official["A100"]["compared_value"]
    )
    page_row = find(rows, page="performance-results", accelerator_count=16)
    assert (page_row["raw_value"], page_row["audited"], page_row["comparison"]) == (
        "19.64",
        True,
        official["Bow IPU"]["comparison"],
    )


def test_resnet50_offline_per_accelerator_speedai240_h100_and_xeon_sockets(warehouse):
    """ResNet-50 Offline samples/s per accelerator, MLPerf Inference v4.1: UntetherAI's
    speedAI240, NVIDIA's H100 and L40S, and Intel's Xeon 6980P compared by its two sockets;
    UntetherAI's MLCommons page prints its 6-card result."""
    rows = compare(warehouse, "ResNet-50", "--scenario", "Offline", "--metric", "throughput")
    official = [row for row in rows if row["official"]]
    assert {"UntetherAI", "NVIDIA", "Intel"} <= vendors(official)
    xeon = find(official, accelerator="Xeon 6980P")
    assert (xeon["accelerator_count"], xeon["compared_value"]) == (2, 45617.3 / 2)
    h100 = find(official, system="HPE Cray XD670 (8x H100-SXM-80GB, TensorRT)")
    assert h100["compared_value"] == 707695 / 8
    untether = find(rows, page="mlcommons_inference_v4.1_untetherai_r760_u6_slim_summary.html")
    assert (untether["accelerator"], untether["accelerator_count"], untether["audited"]) == (
        "speedAI240",
        6,
        True,
    )
    assert untether["compared_value"] == 334462 / 6


def test_stable_diffusion_xl_tpus_against_nvidia(warehouse):
    """Stable Diffusion XL Offline, samples/s per accelerator: Google's TPU v6 and v5e (4
    chips each) against NVIDIA's H100 and GH200, official MLPerf Inference v4.1 results."""
    rows = compare(warehouse, "sdxl", "--scenario", "Offline", "--official", "--best")
    assert vendors(rows) == {"Google", "NVIDIA"}
    v6 = find(rows, accelerator="TPU v6")
    v5e = find(rows, accelerator="TPU v5e")
    assert (v6["accelerator_count"], v6["compared_value"]) == (4, 5.43896 / 4)
    assert v5e["compared_value"] == 1.75335 / 4
    assert find(rows, accelerator="GH200")["ranking"] < v6["ranking"] < v5e["ranking"]


def test_gptj_offline_xeon_against_nvidia_and_intels_page_audited(warehouse):
    """GPT-J 6B Offline tokens/s per accelerator (99% target): Intel's Xeon 6980P system (by
    its sockets) against NVIDIA's H100 and GH200; Intel's MLCommons page, which names no
    hardware in its results table, prints the official number."""
    rows = [
        row
        for row in compare(warehouse, "gpt-j", "--scenario", "Offline")
        if row["quality_target"] == "99%"
    ]
    xeon = find(rows, official=True, accelerator="Xeon 6980P")
    assert (xeon["vendor"], xeon["compared_value"]) == ("Intel", 498.316 / 2)
    assert find(rows, official=True, accelerator="GH200")["compared_value"] == 2632.76
    intel_page = find(rows, page="mlcommons_inference_v4.1_intel_xeon_gnr_summary.html")
    assert (intel_page["raw_value"], intel_page["audited"]) == ("498.316", True)


def test_3d_unet_offline_h100_l40s_and_xeon(warehouse):
    """3D U-Net Offline (99% target) per accelerator: NVIDIA H100 and L40S (two chip
    generations) against Intel's Xeons, MLPerf Inference v4.1."""
    rows = [
        row
        for row in compare(warehouse, "3d-unet-99", "--scenario", "Offline", "--official")
        if row["quality_target"] == "99%"
    ]
    l40s = find(rows, accelerator="L40S")
    xeon = find(rows, accelerator="Xeon 6980P")
    assert (l40s["accelerator_count"], l40s["compared_value"]) == (4, 15.4388 / 4)
    assert xeon["compared_value"] == 3.28548 / 2
    assert l40s["ranking"] < xeon["ranking"]


# ---- one identity per model, dataset and vendor ---------------------------------------------


def test_every_spelling_of_resnet50_is_one_model(warehouse):
    rows = json.loads(
        run(
            "sql",
            "SELECT DISTINCT model_published, model FROM model_comparison "
            "WHERE model_published IS NOT NULL",
            "--format",
            "json",
            "--warehouse",
            warehouse,
        )
    )
    spellings = {row["model_published"] for row in rows if row["model"] == "ResNet-50"}
    assert {
        "ResNet-50 v1.5",
        "ResNet50 v1.5",
        "resnet",
        "resnet50",
        "resnet50-torch-fp32",
        "ResNet-50v1.5",
    } <= spellings


def test_gaudi_is_intels_on_pages_and_in_official_results(warehouse):
    rows = json.loads(
        run(
            "sql",
            "SELECT DISTINCT vendor FROM measurements WHERE accelerator IN ('Gaudi', 'Gaudi2')",
            "--format",
            "json",
            "--warehouse",
            warehouse,
        )
    )
    assert rows == [{"vendor": "Intel"}]

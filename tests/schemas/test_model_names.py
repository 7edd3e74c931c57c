"""Model names as real pages and results write them, read by their structure into one
identity: the names below are cells, headings and folder names of ../shared's pages, the demo
and the official MLPerf results."""

from __future__ import annotations

import pytest

from perfledger.schemas.labels import known_model, model_name
from perfledger.schemas.model_names import (
    family_in_text,
    models_in_text,
    read_model,
    size_in_text,
)
from tests.schemas.page_reading import fields_by_raw_value, normalized


@pytest.mark.parametrize(
    ("name", "canonical", "base", "said"),
    [
        # ByteMLPerf's model names: model, framework, precision
        (
            "resnet50-torch-fp32",
            "ResNet-50",
            "ResNet-50",
            {"framework": "PyTorch", "precision": "FP32"},
        ),
        (
            "conformer-encoder-onnx-fp32",
            "Conformer",
            "Conformer",
            {"framework": "ONNX", "variant": "encoder"},
        ),
        ("widedeep-tf-fp32", "Wide & Deep", "Wide & Deep", {"framework": "TensorFlow"}),
        # MLPerf Inference benchmarks: the accuracy target is no part of the model
        ("llama2-70b-99", "Llama 2 70B", "Llama 2 70B", {"quality_target": "99%"}),
        ("dlrm-v2-99.9", "DLRM DCNv2", "DLRM DCNv2", {"quality_target": "99.9%"}),
        ("3d-unet-99", "3D U-Net", "3D U-Net", {"quality_target": "99%"}),
        ("stable-diffusion-xl", "Stable Diffusion XL", "Stable Diffusion XL", {}),
        # MLPerf Training benchmark folders
        ("resnet", "ResNet-50 v1.5", "ResNet-50", {"variant": "v1.5"}),
        ("llama2_70b_lora", "Llama 2 70B LoRA", "Llama 2 70B LoRA", {}),
        # a version is no part of the identity; an optimizer is a variant
        ("ResNet-50 v1.5", "ResNet-50 v1.5", "ResNet-50", {"variant": "v1.5"}),
        ("ResNet50 v1.5 MLPerf", "ResNet-50 v1.5", "ResNet-50", {"variant": "v1.5"}),
        ("ResNet50 (LARS)", "ResNet-50", "ResNet-50", {"variant": "LARS"}),
        ("FastPitch 1.1", "FastPitch", "FastPitch", {"variant": "1.1"}),
        # LLM families, sizes and fine-tunes
        (
            "Llama-3.1-405B-Instruct-FP8",
            "Llama 3.1 405B Instruct",
            "Llama 3.1 405B",
            {"variant": "Instruct", "precision": "FP8"},
        ),
        ("LLAMA3-70B", "Llama 3 70B", "Llama 3 70B", {}),
        (
            "Mixtral-8x7B-Instruct-v0.1",
            "Mixtral 8x7B Instruct",
            "Mixtral 8x7B",
            {"variant": "Instruct, v0.1"},
        ),
        ("Phi-3-mini-4k-instruct", "Phi-3 Mini Instruct", "Phi-3 Mini", {}),
        ("Qwen3-235B-A22B", "Qwen3 235B-A22B", "Qwen3 235B-A22B", {}),
        ("Llama 4 Scout", "Llama 4 Scout", "Llama 4 Scout", {}),
        ("GPT3-1.3B", "GPT-3 1.3B", "GPT-3 1.3B", {}),
        ("OPT-13B", "OPT 13B", "OPT 13B", {}),
        ("bigscience/bloom-7b1", "BLOOM 7.1B", "BLOOM 7.1B", {}),
        ("EleutherAI/gpt-j-6b", "GPT-J 6B", "GPT-J 6B", {}),
        ("Falcon7B-decode (t/s)", "Falcon 7B", "Falcon 7B", {"variant": "decode"}),
        ("llama3.1-70b", "Llama 3.1 70B", "Llama 3.1 70B", {}),
        # model files of edge model zoos: a batch of 1 ("1b") is no size
        ("resnet50_fp32_1b_2core.bmodel", "ResNet-50", "ResNet-50", {"precision": "FP32"}),
        (
            "qwen1.5-1.8b_int4_seq512_bm1688_1dev_2core.bmodel",
            "Qwen1.5 1.8B",
            "Qwen1.5 1.8B",
            {"precision": "INT4"},
        ),
        ("yolov8s_opt_int8_4b.bmodel", "YOLOv8s", "YOLOv8s", {"precision": "INT8"}),
        # model zoos' names: TF-slim depths, ONNX opsets, a segmentation head is a model of its own
        ("resnet_v1_50 |rocket| |star|", "ResNet-50", "ResNet-50", {}),
        ("resnet50-v2-7", "ResNet-50 v2", "ResNet-50", {}),
        ("yolov8n-seg", "YOLOv8n-seg", "YOLOv8n-seg", {}),
        ("yolov5s_relu", "YOLOv5s", "YOLOv5s", {"variant": "ReLU"}),
        # Python paths, image sizes, sizes of detectors
        ("torchvision.models.resnet.resnet18", "ResNet-18", "ResNet-18", {}),
        # torchvision's widths and batch-norm variants (torch2trt's Jetson benchmark pages)
        ("torchvision.models.vgg.vgg11_bn", "VGG-11", "VGG-11", {"variant": "batch norm"}),
        (
            "torch2trt.tests.torchvision.classification.shufflenet_v2_x0_5",
            "ShuffleNet v2 x0.5",
            "ShuffleNet v2",
            {"variant": "x0.5"},
        ),
        (
            "torch2trt.tests.torchvision.classification.mnasnet0_75",
            "MnasNet 0.75",
            "MnasNet",
            {"variant": "0.75"},
        ),
        ("ResNet50_224x224", "ResNet-50", "ResNet-50", {}),
        ("PicoDet-S", "PicoDet-S", "PicoDet-S", {}),
        ("RT-DETR-R18", "RT-DETR-R18", "RT-DETR-R18", {}),
    ],
)
def test_a_name_reads_as_its_model_and_what_it_adds(name, canonical, base, said):
    reading = read_model(name)
    assert (reading.canonical, reading.base, reading.known) == (canonical, base, True)
    for field, value in said.items():
        assert getattr(reading, field) == value, field


@pytest.mark.parametrize(
    "name",
    [
        "RetinaFace_resnet50_320",  # a model built on ResNet-50 is not ResNet-50
        "bert4torch_output_fp32_1b.bmodel",
        "Actor: OPT-13B, Reward: OPT-350M",  # two models
        "QAT (TensorRT)",
        "Type",
        "Iteration",
        "IPU GIN model",
    ],
)
def test_a_name_the_catalogue_cannot_read_whole_stays_as_published(name):
    reading = read_model(name)
    assert (reading.canonical, reading.base, reading.known) == (name, None, False)
    assert model_name(name) == (name, None) and not known_model(name)


def test_a_size_alone_or_a_family_alone_is_no_model():
    assert (read_model("7b").size, read_model("7b").known) == ("7B", False)
    assert (read_model("MPT").family, read_model("MPT").known) == ("MPT", False)
    assert family_in_text("MPT Training Benchmarks") == "MPT"
    assert size_in_text("A10 13b, fp16") == "13B"
    assert size_in_text("TPU v5e") is None


@pytest.mark.parametrize(
    ("text", "family"),
    [
        # ROCm/rocm-blogs, blogs/artificial-intelligence/llama2-Qlora/README.md, its title
        (
            "Enhancing LLM Accessibility: A Deep Dive into QLoRA Through Fine-tuning Llama 2 on "
            "a single AMD GPU",
            "Llama 2",
        ),
        ("Llama 3.1 Models", "Llama 3.1"),  # a model card's title over "### 70B", "### 405B"
        ("Gemma 2 scores", "Gemma 2"),
        ("Qwen 235B verification", "Qwen"),  # a size, no version (AMD-AGI/Primus, pipeline)
        ("Llama 2 and Llama 3", None),  # two families: neither
    ],
)
def test_a_version_written_apart_from_its_family_is_the_familys(text, family):
    assert family_in_text(text) == family


def test_a_size_heading_under_a_page_naming_no_family_names_no_model():
    # AI-Hypercomputer/maxtext, src/maxtext/configs/tpu/v5p/README.md: "### 32B model" under
    # a title naming no family; the size alone is no model, and none is guessed.
    page = """# High Performance Model Configs on TPU v5p

### 32B model
| Hardware    | TFLOP/sec/chip     | MFU     |
| ----------- | -----------------: | ------- |
| 1x v5p-128  | 328                | 71.47%  |
"""
    assert normalized(page).measurements["model"].to_list() == [None, None]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("ResNet-50 v1.5 for MXNet", [("ResNet-50 v1.5", "ResNet-50")]),  # a page title
        (
            "Training accuracy results for EfficientNet v1-B4",
            [("EfficientNet v1-B4", "EfficientNet-B4")],
        ),
        ("Llama 3.3 70B", [("Llama 3.3 70B", "Llama 3.3 70B")]),  # a TensorRT-LLM heading
        # the name without the precision or the setup after it, which the reading keeps
        ("LLAMA3-8B (FP8) - B200", [("LLAMA3-8B", "Llama 3 8B")]),
        (
            "Llama-3.1-70B-Instruct on 1x MI300X (FP8)",
            [("Llama-3.1-70B-Instruct", "Llama 3.1 70B")],
        ),
        ("Llama 3.1 405B model", [("Llama 3.1 405B", "Llama 3.1 405B")]),
        (
            "Deep Learning Recommendation Model for Personalization",
            [("Deep Learning Recommendation Model", "DLRM")],
        ),
        (
            "Comparing Llama 2 70B and GPT-J",
            [("Llama 2 70B", "Llama 2 70B"), ("GPT-J", "GPT-J 6B")],
        ),
        ("NVMe SSD storage and a CLIP of the run", []),  # words that name models only as labels
    ],
)
def test_models_named_in_running_text(text, named):
    assert [(phrase, reading.base) for phrase, reading in models_in_text(text)] == named


def test_a_heading_naming_model_chip_and_precision_labels_each_on_its_own():
    # the model label was the whole heading, "Llama-3.1-70B-Instruct on 1x MI300X FP8"
    page = """## Llama-3.1-70B-Instruct on 1x MI300X (FP8)

| Concurrency | Output tok/s | TTFT p50 (ms) |
|---|---|---|
| 64 | 1,250.7 | 310.2 |
"""
    found = fields_by_raw_value(
        page, "model", "model_canonical", "precision", "accelerator", "accelerator_count"
    )
    assert found["1,250.7"] == (
        "Llama-3.1-70B-Instruct",
        "Llama 3.1 70B Instruct",
        "FP8",
        "MI300X",
        1,
    )
    assert found["310.2"] == (
        "Llama-3.1-70B-Instruct",
        "Llama 3.1 70B Instruct",
        "FP8",
        "MI300X",
        1,
    )


def test_a_size_run_in_a_precision_under_a_heading_naming_the_family_is_that_model():
    # GPU-Benchmarks-on-LLM-Inference's "Model" column writes the size and the GGUF type of
    # LLaMA 3, the family its heading names: the size had been lost with the precision.
    page = """### LLaMA 3:

#### Apple Silicon (snapshots in May 2024)

| GPU                        | Model      | tg 512 | pp 512  |
|----------------------------|------------|--------|---------|
| M2 Ultra 76-Core GPU 192GB | 8B Q4_K_M  | 78.81  | 994.04  |
|                            | 70B F16    | 4.76   | 147.58  |
"""
    found = fields_by_raw_value(page, "model", "model_canonical", "model_base", "precision")
    assert found["78.81"] == ("8B Q4_K_M", "Llama 3 8B", "Llama 3 8B", "Q4_K_M")
    assert found["147.58"] == ("70B F16", "Llama 3 70B", "Llama 3 70B", "F16")
    assert read_model("8B Q4_K_M").size == "8B"


def test_a_column_headed_by_a_size_run_in_a_precision_holds_that_model():
    # GPU-Benchmarks-on-LLM-Inference's overview crosses GPUs with "8B Q4_K_M", "70B F16":
    # each column is a model of its size in its precision, which had been read as a precision
    # alone, the values loaded with no model.
    page = """### LLaMA 3:

Average speed (tokens/s) of generating 1024 tokens by GPUs on LLaMA 3. Higher speed is better.

| GPU                        | 8B Q4_K_M | 8B F16 | 70B Q4_K_M | 70B F16 |
|----------------------------|-----------|--------|------------|---------|
| M2 Ultra 76-Core GPU 192GB | 76.28     | 36.25  | 12.13      | 4.71    |
"""
    found = fields_by_raw_value(page, "model", "model_canonical", "precision", "accelerator")
    assert found["76.28"] == ("8B Q4_K_M", "Llama 3 8B", "Q4_K_M", "M2 Ultra")
    assert found["4.71"] == ("70B F16", "Llama 3 70B", "F16", "M2 Ultra")

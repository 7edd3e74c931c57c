"""The chip vocabulary (schemas/vocab/chips.csv) on names as vendors, model zoos and benchmark
pages print them: the chip each names, its maker and the chips its system holds; the words
that look like chips but are models, precisions or code; and the cost of a vocabulary of
hundreds of rules."""

from __future__ import annotations

import csv

import pytest

from perfledger.schemas.chip_vocabulary import KIND_RANK, beginnings, expanded, vocabulary
from perfledger.schemas.platform_mentions import read_platform
from perfledger.schemas.vocabulary import VOCAB_DIR


@pytest.mark.parametrize(
    ("text", "accelerator", "vendor"),
    [
        # Data center, every generation
        ("NVIDIA Tesla K80", "K80", "NVIDIA"),
        ("Tesla P40", "P40", "NVIDIA"),
        ("NVIDIA Tesla V100-PCIE-32GB", "V100", "NVIDIA"),
        ("A100-SXM4-80GB", "A100", "NVIDIA"),
        ("H100 80GB PCIe", "H100", "NVIDIA"),
        ("NVIDIA H20", "H20", "NVIDIA"),
        ("GB300 NVL72", "GB300", "NVIDIA"),
        ("L40S", "L40S", "NVIDIA"),
        ("NVIDIA RTX PRO 6000 Blackwell Server Edition", "RTX 6000 Pro", "NVIDIA"),
        ("AMD Instinct MI355X", "MI355X", "AMD"),
        ("Intel Gaudi 3 AI Accelerator", "Gaudi3", "Intel"),
        ("Intel Data Center GPU Max 1550", "Max 1550", "Intel"),
        ("Google Cloud TPU v5p", "TPU v5p", "Google"),
        ("Trillium", "TPU v6e", "Google"),
        ("Training Recipes for Ironwood TPU", "Ironwood", "Google"),  # real-pages-2 title
        ("AWS Inferentia2", "Inferentia2", "AWS"),
        ("Huawei Ascend 910B3", "Ascend 910B", "Huawei"),
        ("Ascend310P3", "Ascend 310P", "Huawei"),  # Ascend ModelZoo 芯片型号 cells
        ("Cambricon MLU370-X8", "MLU370", "Cambricon"),
        ("Kunlunxin P800", "Kunlunxin P800", "Kunlunxin"),
        ("Moore Threads MTT S4000", "MTT S4000", "Moore Threads"),
        ("Iluvatar CoreX BI-V150", "BI-V150", "Iluvatar"),
        ("Tenstorrent Wormhole n300", "Wormhole", "Tenstorrent"),
        ("Grayskull (GS) Models", "Grayskull", "Tenstorrent"),  # tt-metal README heading
        ("SambaNova SN40L", "SN40L", "SambaNova"),
        # Workstation and consumer
        ("NVIDIA Quadro RTX 8000 (TU102 SM x 72 + Tensor Core x 576)", "Quadro RTX 8000", "NVIDIA"),
        ("nVIDIA RTX2080 of Desktop", "RTX 2080", "NVIDIA"),
        ("NVIDIA GeForce RTX 3060 Ti of Desktop[2023-10-12]", "RTX 3060 Ti", "NVIDIA"),
        ("on a single commodity NVIDIA A6000 GPU with 48GB memory", "A6000", "NVIDIA"),
        ("NVIDIA RTX 4090 24GB", "RTX 4090", "NVIDIA"),
        # trtutils docs, benchmark/3080Ti.rst: a GeForce card by its number and suffix alone
        ("3080Ti in a workstation with Intel 12900K CPU", "RTX 3080 Ti", "NVIDIA"),
        ("AMD Radeon RX 6900 XT of Desktop[2023-10-12]", "Radeon RX 6900 XT", "AMD"),
        ("Intel(R) UHD Graphics 770 of Desktop[2023-10-12]", "UHD Graphics 770", "Intel"),
        ("Intel® Core™ i9-9000K (AVX2), INT8 and FP32", "Core i9-9000K", "Intel"),
        ("Intel(R) Xeon(R) Gold 6271C CPU @ 2.60GHz", "Xeon 6271C", "Intel"),
        ("Xeon Phi 3120A (1.10 GHz 57-core 228-thread)", "Xeon Phi 3120A", "Intel"),
        ("AMD Ryzen Threadripper 3970X (Zen2 3.7 GHz ~ 4.5 GHz x 32)", "Threadripper 3970X", "AMD"),
        # Embedded, boards, phones and laptops
        (
            "NVIDIA Jetson AGX Orin (Cortex-A78AE 2.2 GHz x 12 + Ampere@1.3 GHz Tensor Cores 64)",
            "Jetson AGX Orin",
            "NVIDIA",
        ),
        ("# For Jetson Xavier NX", "Jetson Xavier NX", "NVIDIA"),
        ("Jetson Xavier - torch2trt", "Jetson Xavier", "NVIDIA"),
        ("NVIDIA Jetson Orin Nano", "Jetson Orin Nano", "NVIDIA"),
        ("VEK280 / 1* C20B14CU1 @ 300MHz / E2E throughput (fps) Single Thread", "VEK280", "AMD"),
        ("V70 / 4PE DPUCVDX8H @350MHz Gen4x8 / E2E throughput (fps) Multi Thread", "V70", "AMD"),
        ("Latency in ms (per batch) on iPhone 15 Pro", "A17 Pro", "Apple"),
        ("Device: iPhone 14 Pro (A16), unless otherwise mentioned", "A16", "Apple"),
        ("MacBook Pro (13-inch, M1, 2020)", "M1", "Apple"),
        ("Apple M2 Ultra", "M2 Ultra", "Apple"),
        (
            "Qualcomm SM8550-AB Snapdragon 8 Gen 2 (Kyro 3.20 GHz + Adreno 740)",
            "Snapdragon 8 Gen 2",
            "Qualcomm",
        ),
        (
            "Qualcomm Snapdragon X Elite (X1E78100), Oryon 3.4GHz x 12 + Adreno X1-85",
            "Snapdragon X Elite",
            "Qualcomm",
        ),
        # A chipset column of a phone and laptop benchmark (Qualcomm's RF-DETR latencies)
        ("Snapdragon X2 Elite", "Snapdragon X2 Elite", "Qualcomm"),
        ("Snapdragon X2 Elite Extreme", "Snapdragon X2 Elite Extreme", "Qualcomm"),
        # "SD" for Snapdragon before a generation ("| Xiaomi 14 | SD 8 Gen 3 |" of an on-device
        # MLLM latency table)
        ("SD 8 Gen 3", "Snapdragon 8 Gen 3", "Qualcomm"),
        ("SD 8 Elite", "Snapdragon 8 Elite", "Qualcomm"),
        # Only the AGX module of the Orin generation has 32 or 64 GB ("| Jetson Orin 64GB |
        # 180ms |" of a clinical ASR pipeline's benchmarks)
        ("Jetson Orin 64GB", "Jetson AGX Orin", "NVIDIA"),
        ("Jetson Orin", "Jetson Orin", "NVIDIA"),
        (
            "MediaTek Dimensity 9300 (MT6989) (Cortex-X4 3.25 GHz + Mali-G720-Immortalis MC12)",
            "Dimensity 9300",
            "MediaTek",
        ),
        ("Samsung Exynos 2400", "Exynos 2400", "Samsung"),
        ("Google Tensor G3", "Tensor G3", "Google"),
        ("Coral Edge TPU", "Edge TPU", "Google"),
        (
            "OrangePi5, Rockchip RK3588s (Quad Core A76 2.4GHz + Quad Core A55 1.8GHz)",
            "RK3588S",
            "Rockchip",
        ),
        ("RV1106", "RV1106", "Rockchip"),
        ("Hailo-8L", "Hailo-8L", "Hailo"),
        ("Hailo-10H", "Hailo-10H", "Hailo"),
        ("SE9-8", "CV186X", "Sophgo"),  # sophon-demo: "SE9-8对应CV186X"
        ("SE7-32", "BM1684X", "Sophgo"),
        ("BM1688", "BM1688", "Sophgo"),
        ("Ambarella CV72S", "CV72S", "Ambarella"),
        ("NXP i.MX 8M Plus", "i.MX 8M Plus", "NXP"),
        ("TI TDA4VM", "TDA4VM", "Texas Instruments"),
        (
            "Raspberry Pi 4 Model B Broadcom BCM2711B0, Cortex-A72 (ARMv8) (1.8GHz x 4)",
            "BCM2711",
            "Raspberry Pi",
        ),
        (
            "Khadas VIM3, Amlogic A311D (Cortex-A73 2.2GHz x 4 + Cortex-A53 1.8GHz x 2)",
            "A311D",
            "Amlogic",
        ),
        ("Kneron KL720", "KL720", "Kneron"),
        ("AXERA AX650N", "AX650N", "Axera"),
        ("FuriosaAI RNGD", "RNGD", "FuriosaAI"),
        ("DEEPX DX-M1", "DX-M1", "DEEPX"),
        # Edge SoCs and NPU cards of makers' model zoos and docs
        ("Kendryte K230", "K230", "Canaan"),
        ("CanMV K230 board, nncase v2.9", "K230", "Canaan"),
        ("MemryX MX3 M.2", "MX3", "MemryX"),
        ("STM32N6570-DK", "STM32N6", "STMicroelectronics"),
        ("STM32H747I-DISCO", "STM32H747", "STMicroelectronics"),
        ("全志V853", "V853", "Allwinner"),
        # Chinese names of phone SoCs (Paddle-Lite's benchmark)
        ("Google Pixel 3a XL", "Snapdragon 670", "Qualcomm"),
        ("骁龙 865", "Snapdragon 865", "Qualcomm"),
        ("麒麟 990", "Kirin 990", "Huawei"),
        ("天玑 9000", "Dimensity 9000", "MediaTek"),
        # Laptop chips by their code names, the iGPU of each a row of an edge-LLM whitepaper
        # (intel-ai-benchmarking's "Cross-Platform Performance Summary": "Lunar Lake iGPU",
        # "PTL iGPU (DDR5-5600+)"), and AMD's by theirs
        ("Lunar Lake", "Lunar Lake", "Intel"),
        ("Meteor Lake (iGPU)", "Meteor Lake", "Intel"),
        ("PTL iGPU (DDR5-5600+)", "Panther Lake", "Intel"),
        ("Intel Arc 140V GPU", "Arc 140V", "Intel"),
        ("Strix Halo", "Strix Halo", "AMD"),
        ("Kraken Point", "Kraken Point", "AMD"),
        # strix-halo-testing leaves the "AI" out of the Ryzen AI Max+ 395
        ("AMD Ryzen Max+ 395", "Ryzen AI MAX+ 395", "AMD"),
    ],
)
def test_a_printed_chip_name_reads_as_its_canonical_chip(text, accelerator, vendor):
    mention = read_platform(text)
    assert (mention.accelerator, mention.vendor) == (accelerator, vendor)


@pytest.mark.parametrize(
    ("text", "accelerator"),
    [
        # The GPU ran the result, not the SoC it sits on nor the host CPU beside it ...
        ("Raspberry Pi 5 Broadcom BCM2712, VideoCore VII Graphics (Vulkan 1.2)", "VideoCore VII"),
        (
            "Hyper-V Linux Guest with GPU-PV enabled (Intel Core i7-11800H, NVIDIA GeForce RTX 3070 "
            "Laptop GPU)",
            "RTX 3070 Laptop",
        ),
        ("2x Intel Xeon Platinum 8480+ and 8x NVIDIA H100", "H100"),
        # a count glued to the chip (FasterTransformer's hardware settings)
        (
            "Intra node: 8xA100-80GBs (with mclk 1593MHz, pclk 1410MHz) with AMD EPYC 7742 64-Core "
            "Processor, linked by NVSwitch",
            "A100",
        ),
        ("4xMI300X", "MI300X"),
        # ... but a part a chip's brackets list describes that chip.
        ("Raspberry Pi 5 Broadcom BCM2712, Cortex-A76 (ARMv8) (2.4GHz x 4)", "BCM2712"),
        ("Station-M2/ROC-RK3566-PC, Rockchip RK3566 (Cortex-A55 1.8GHz x 4 + Mali-G52)", "RK3566"),
    ],
)
def test_the_chip_that_ran_the_result_outranks_the_parts_named_beside_it(text, accelerator):
    assert read_platform(text).accelerator == accelerator


@pytest.mark.parametrize(
    "text",
    [
        "T5 small",  # a model (tt-metal README)
        "PPO and A2C agents",
        "Llama 4 Scout 17B-16E",
        "W8A16 weight-only quantization",
        "W8/A16",
        "import cv2",
        "M4 is the medium model size of the family",
        "Xavier initialization of the weights",
        "Stable Diffusion v2 512",
        "YOLO v3 416",
        "a 2080 step run",  # a bare number needs a GPU word nearby; "Ti" or "Super" is one
        "Samsung Galaxy S10",
        "three generations of Pixel phones",  # a product line, not one phone's chip
        "February, 2021\n  * DGX-A100 performance results",  # a year is no count
    ],
)
def test_names_that_look_like_chips_but_are_not_name_none(text):
    mention = read_platform(text, prose=True)
    if "DGX-A100" in text:
        assert (mention.accelerator, mention.count) == ("A100", 8)
    else:
        assert mention is None or mention.accelerator is None, mention


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("4x DGX H100", 32),  # four systems of eight
        ("2x trn1.32xlarge", 32),
        ("4 g4dn.12xlarge nodes (16 workers)", 16),  # four instances of four T4s (Ray)
        ("8 DGX nodes with 8 NVIDIA A100-80G GPUs/node", 64),  # DeepSpeed-Chat, Table 5
        ("a single DGX node with 8 NVIDIA A100-40G GPUs", 8),  # DeepSpeed-Chat, Table 4
        ("32 H100 DGX nodes", None),  # GPUs per node not stated (NeMo)
        ("NVIDIA Tesla V100 单卡", 1),  # PaddleClas environment list
        ("昇腾910B 8卡", 8),
        ("单机8卡 A100", 8),
        ("4张V100", 4),
        ("昇腾910B*8", 8),
        ("A100\n* 8 nodes", None),  # a list's bullet, not a product
        ("1-card, BS=256", 1),
        ("on a single GPU", 1),
        ("H100 TP4 (FP8)", 4),
        ("**4 GPUs**<br/>TP2,PP2 (FP4)", 4),
        ("TP4 PP4 DP8", 128),
        ("FSDP 4, CP 2", 8),  # torchtitan: sharded data parallel times context parallel
        ("TP=2 SP", None),  # how one copy of the model is split: not the run's size
        ("TP4 PP4", None),
        ("A100 (8x)", 8),
        ("Llama 3.1 70B Instruct 4 x H100 80G", 4),
        ("2xH100 SXM", 2),
        ("1\u00d7RTX4090", 1),
        ("p4d.24xlarge", 8),  # the instance's eight A100s: "24x" is its size, no count
        # a node's chips: the run's count needs its nodes
        ("Intra node: 8xA100-80GBs (with mclk 1593MHz, pclk 1410MHz)", None),
        ("2 nodes, each node: 8x H100", 16),
    ],
)
def test_the_count_a_text_states(text, count):
    mention = read_platform(text, prose=True)
    assert (mention.count if mention else None) == count


def test_every_rule_is_tried_only_where_a_word_can_begin_it():
    # A rule whose beginnings cannot be told would be tried at every word of every text:
    # none is, so a longer vocabulary costs no more per word.
    vocab = vocabulary()
    assert vocab.everywhere == ()
    assert len(vocab.rules) > 300
    for source in vocab.sources:
        assert beginnings(source), source


@pytest.mark.parametrize(
    ("pattern", "starts"),
    [
        ("x{4}-?pro", {"xx"}),  # repeated past the letters looked at: its first ones begin it
        ("(?:ab){3}c", {"ab"}),
        ("[ab]{2,5}q", {"aa", "ab", "ba", "bb"}),
    ],
)
def test_a_rule_that_starts_with_a_long_repeat_is_tried_where_its_first_letters_stand(
    pattern, starts
):
    assert beginnings(pattern) == starts


def test_every_rule_names_a_maker_a_chip_and_a_known_kind():
    with (VOCAB_DIR / "chips.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        assert row["vendor"] and row["accelerator"], row
        assert row["kind"] in KIND_RANK, row
        assert beginnings(expanded(row["pattern"])), row


def test_gaudi_is_intel_in_both_vocabularies():
    with (VOCAB_DIR / "platforms.csv").open(encoding="utf-8", newline="") as handle:
        makers = {row["vendor"] for row in csv.DictReader(handle) if "Gaudi" in row["accelerator"]}
    assert makers == {"Intel"}
    assert {read_platform(text).vendor for text in ("HLS-Gaudi2", "8x Gaudi2", "HL-205")} == {
        "Intel"
    }

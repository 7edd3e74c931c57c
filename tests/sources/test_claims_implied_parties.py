"""Claims whose parties are written in ways beyond the development corpus: each sentence or
snippet is quoted as published (repository and path named), and the claim it states is
asserted whole."""

from __future__ import annotations

from perfledger.sources.claims.extract import extract_claims, extract_page_claims
from perfledger.sources.parse import parse_document

FIELDS = ("subject", "baseline", "model", "metric", "ratio")


def claims_of(*sentences: str) -> list[tuple]:
    result = extract_claims([(number, text) for number, text in enumerate(sentences, 1)])
    return [tuple(row[f] for f in FIELDS) for row in result.claims.to_dicts()]


def page_claims(markdown: str) -> list[tuple]:
    parsed, layout = parse_document(markdown.encode(), None, check=False)
    claims = extract_page_claims(parsed, layout).claims
    return [tuple(row[f] for f in FIELDS) for row in claims.to_dicts()]


def test_a_baseline_after_v_s_is_the_baseline() -> None:
    # lm-sys/lm-sys.github.io blog/2025-07-14-intel-xeon-optimization.md (Highlights)
    sentence = "SGLang achieves **6-14x** speedup for TTFT and **2-4x** for TPOT v.s. llama.cpp."
    assert claims_of(sentence)[0] == ("SGLang", "llama.cpp", None, "latency", 14.0)


def test_a_program_named_after_a_model_family_names_no_model() -> None:
    # kvcache-ai/ktransformers doc/en/DeepseekR1_V3_tutorial.md: "llama.cpp" is the baseline
    # program, not a LLaMA model
    sentence = (
        "With V0.3-preview, we achieve up to 286 tokens/s for prefill, making it up to "
        "**28× faster than llama.cpp** for local inference."
    )
    assert claims_of(sentence) == [("V0.3-preview", "llama.cpp", None, "performance", 28.0)]


def test_a_claim_crediting_what_its_subject_runs_with_compares_it_without_that() -> None:
    # lm-sys/lm-sys.github.io blog/2024-09-04-sglang-v0-3.md
    assert claims_of(
        "**SGLang w/ torch.compile yields up to a 1.5x speedup in the following benchmark.**"
    ) == [("SGLang", "SGLang without torch.compile", None, "performance", 1.5)]
    # InternLM/lmdeploy README.md
    assert claims_of(
        "LMDeploy PyTorchEngine achieves 1.3x faster on Llama3-8B inference by introducing "
        "CUDA graph"
    ) == [
        (
            "LMDeploy PyTorchEngine",
            "LMDeploy PyTorchEngine without CUDA graph",
            "Llama 3 8B",
            "performance",
            1.3,
        )
    ]


def test_a_setting_changed_is_no_thing_added() -> None:
    # "with larger batch sizes" says how the run was set, not what the subject runs with
    assert claims_of("vLLM is 2x faster with larger batch sizes.") == [
        ("vLLM", None, None, "performance", 2.0)
    ]


def test_a_multiplier_said_twice_is_one_multiplier() -> None:
    # kvcache-ai/ktransformers doc/en/DeepseekR1_V3_tutorial.md
    sentence = (
        "**The prefill of KTrans V0.3 is up to <u>3.45x</u> times faster than KTrans V0.2, and "
        "is up to <u>27.79x</u> times faster than llama.cpp.**"
    )
    assert claims_of(sentence) == [
        ("KTrans V0.3", "KTrans V0.2", None, "performance", 3.45),
        ("KTrans V0.3", "llama.cpp", None, "performance", 27.79),
    ]


def test_a_number_joined_to_a_claim_naming_only_where_it_holds_says_what_that_claim_says() -> None:
    # lm-sys/lm-sys.github.io blog/2025-07-14-intel-xeon-optimization.md, its Highlights list
    page = (
        "## Highlights\n"
        "* SGLang now supports native CPU backend on Intel® Xeon® CPUs with Intel® Advanced "
        "Matrix Extensions (AMX).\n"
        "* Achieve **6-14x** speedup for TTFT and **2-4x** for TPOT v.s. llama.cpp.\n"
    )
    assert [claim[1:] for claim in page_claims(page)] == [
        ("llama.cpp", None, "latency", 14.0),
        ("llama.cpp", None, "latency", 4.0),
    ]
    # mit-han-lab/omniserve README.md
    sentence = (
        "As a result, QServe improves the maximum achievable serving throughput of Llama-3-8B "
        "by **1.2×** on A100, **1.4×** on L40S; and Qwen1.5-72B by **2.4×** on A100, **3.5×** "
        "on L40S, compared to TensorRT-LLM."
    )
    assert {1.2, 1.4, 3.5} <= {claim[4] for claim in claims_of(sentence)}
    assert {claim[:2] for claim in claims_of(sentence)} == {("QServe", "TensorRT-LLM")}


def test_software_named_after_a_model_family_names_no_model() -> None:
    # snowflakedb/ArcticInference README.md: "Arctic Inference" is the system, no Arctic model
    page = (
        "# Arctic Inference\n\n"
        "## Optimized Embeddings\n\n"
        "For embeddings, Arctic Inference + vLLM delivers a whopping 1.4M toks/sec per GPU:\n"
        "- 16x faster than plain vLLM on short sequences and 4.2x faster on long sequences\n"
    )
    assert page_claims(page) == [
        ("Arctic Inference + vLLM", "vLLM", None, "performance", 16.0),
        ("Arctic Inference + vLLM", "vLLM", None, "performance", 4.2),
    ]
    # a family word before a software word in lower case still names the model
    assert claims_of("vLLM makes Llama inference 2x faster than TGI.")[0][2] == "Llama"


def test_a_result_of_the_baseline_opening_the_sentence_names_the_baseline() -> None:
    # kvcache-ai/ktransformers doc/en/DeepseekR1_V3_tutorial.md: llama.cpp is the baseline,
    # never the subject, of "Compared to 4.51 tokens/s in llama.cpp ..."
    sentence = (
        "Compared to 4.51 tokens/s in llama.cpp with 2×32 cores, achieving up to **3.03× speedup**."
    )
    assert claims_of(sentence) == [(None, "llama.cpp", None, "throughput", 3.03)]
    # a number after a marker in the sentence's course still quantifies ("more than 3 hours")
    assert claims_of("vLLM is 2x faster than TGI on more than 3 models.")[0][:2] == (
        "vLLM",
        "Text Generation Inference",
    )


def test_a_verb_that_doubles_its_object_states_a_ratio_of_two() -> None:
    # InternLM/lmdeploy README.md
    sentence = (
        "\\[2024/10\\] PyTorchEngine supports graph mode on ascend platform, doubling the "
        "inference speed"
    )
    assert claims_of(sentence) == [("PyTorchEngine", None, None, "performance", 2.0)]
    assert claims_of("We doubled the number of GPUs.") == []


def test_a_metric_the_clause_is_about_is_what_a_performance_speedup_measures() -> None:
    # lm-sys/lm-sys.github.io blog/2025-07-14-intel-xeon-optimization.md
    page = (
        '---\ntitle: "Cost Effective Deployment of DeepSeek R1 with Intel® Xeon® 6 CPU on '
        'SGLang"\n---\n\n'
        "### Detail Breakdown\n"
        "* TTFT achieved a **6-14x** performance speedup. MoE models have larger improvements "
        "since experts are computed sequentially in llama.cpp and we parallel among experts by "
        "realigning expert indices.\n"
        "* TPOT achieved a **2-4x** performance speedup. Since the decoding phase tends to be "
        "memory bandwidth bound, the speedup ratio in TPOT is much smaller than TTFT.\n"
    )
    assert [claim[3:] for claim in page_claims(page)] == [("latency", 14.0), ("latency", 4.0)]
    # a metric word in a system's name is no subject ("Wake mode delivers 83% faster inference")
    assert claims_of("Wake mode delivers 83% faster inference than cold starts.")[0][3] == (
        "performance"
    )


def test_a_news_item_takes_no_model_from_the_items_before_it() -> None:
    # InternLM/lmdeploy README.md, its "Latest News 🎉" list
    page = (
        "## Latest News 🎉\n\n"
        "- \\[2025/01\\] Support DeepSeek V3 and R1\n"
        "- \\[2024/11\\] Support Mono-InternVL with PyTorch engine\n"
        "- \\[2024/10\\] PyTorchEngine supports graph mode on ascend platform, doubling the "
        "inference speed\n"
    )
    assert page_claims(page) == [("PyTorchEngine", None, None, "performance", 2.0)]
    # outside news, the section's model still stands for the claim's
    page = page.replace("Latest News 🎉", "DeepSeek support")
    assert page_claims(page)[0][2] == "DeepSeek-V3"


def test_a_speedup_said_of_training_is_about_the_time_training_takes() -> None:
    # unslothai/unsloth README.md; Dao-AILab/flash-attention README.md
    assert claims_of(
        "Train **MoE LLMs 12x faster** with 35% less VRAM - DeepSeek, GLM, Qwen and gpt-oss."
    )[0][3:] == ("time_to_train", 12.0)
    assert claims_of(
        "Overall this speeds up training by 3-5x compared to the baseline implementation from "
        "Huggingface, reaching up to 225 TFLOPs/sec per A100"
    )[0][3:] == ("time_to_train", 5.0)
    # training named past the clause, or as part of a technique's name, is no metric of it
    assert (
        claims_of(
            "DeepSpeed-HE is over 15x faster than existing systems, making RLHF training both fast "
            "and affordable."
        )[0][3]
        == "performance"
    )

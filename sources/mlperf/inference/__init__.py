"""Official MLPerf Inference results read from a checkout of mlcommons/inference_results_vX.Y.

One job per module: rules (the checker's tables, by round), loadgen (the run logs),
accuracy (accuracy.txt), power (spl.txt), checks (the performance rules) and tree (the
walk and the frames).
"""

from perfledger.sources.mlperf.inference.tree import (
    InferenceResults,
    find_submitters,
    is_inference_tree,
    read_inference_tree,
    round_of_inference_tree,
)

__all__ = [
    "InferenceResults",
    "find_submitters",
    "is_inference_tree",
    "read_inference_tree",
    "round_of_inference_tree",
]

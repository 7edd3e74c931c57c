"""Official MLPerf Training results read from a checkout of the MLCommons results repository."""

from perfledger.sources.mlperf.tree import MlperfResults, is_results_tree, read_results_tree

__all__ = ["MlperfResults", "is_results_tree", "read_results_tree"]

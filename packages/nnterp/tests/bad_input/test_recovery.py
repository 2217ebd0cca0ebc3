"""A trace that fails leaves the model usable: the next trace runs as on a fresh model."""

import pytest
from bad_input_support import PROMPT, still_runs
from nnsight.intervention.interleaver import OutOfOrderError

from nnterp import StandardizedTransformer, Unavailable


def test_a_failing_trace_leaves_the_model_usable(gpt2, path):
    sdpa = StandardizedTransformer(path("gpt2"), dispatch=True)
    with pytest.raises(Unavailable):
        with sdpa.trace(PROMPT):
            sdpa.layers[0].self_attn.attention_probabilities.save()
    still_runs(sdpa)
    with pytest.raises(OutOfOrderError):
        with gpt2.trace(PROMPT):
            gpt2.layers[2].layer_output.save()
            gpt2.layers[0].layer_output.save()
    still_runs(gpt2)

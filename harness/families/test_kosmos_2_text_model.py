"""kosmos_2_text_model: its text family's suite on the `kosmos_2` wrapper checkpoint, beside the wrapper's `test_kosmos_2.py`.

No causal-LM class of the auto mapping builds `kosmos_2_text_model` alone, so the wrapper checkpoint serves its text stack.
"""

# ruff: noqa: E402  - the imports follow the skip, which must run first on a release without the type

from nnterp_harness.release import skip_unless_known

skip_unless_known("kosmos-2")

from pathlib import Path
from typing import Any

import pytest
import test_kosmos_2 as wrapper
import torch
from test_kosmos_2 import CHECKPOINT, TEXT_FAMILY, text_module

from nnterp import StandardizedTransformer
from nnterp_harness.suite import (
    FamilySuite,
    rows,
)


class TestKosmos2Text(FamilySuite):
    CHECKPOINT = CHECKPOINT
    FAMILY = TEXT_FAMILY
    NATIVE = rows(
        "model", "layers", "embed_tokens", "layer_norm", ln1="self_attn_layer_norm", ln2="final_layer_norm", mlp="ffn"
    )
    MLP_WIDTH_KEY = "ffn_dim"
    PREMIX_IS_HEAD_OUTPUTS = False
    NEURONS_FROM_ACTIVATION = False
    # Read only by the order test, since both fixtures are overridden: no auto class builds the text model
    # from a path, so its lazy and fresh loads are the wrapper's, whose text blocks are the text model's.
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": wrapper.TestKosmos2Vision.LOAD_KWARGS["processor"]}

    @pytest.fixture(scope="class")
    @classmethod
    def model(cls, checkpoint: Path) -> Any:
        from transformers import AutoTokenizer

        return StandardizedTransformer(text_module(checkpoint), tokenizer=AutoTokenizer.from_pretrained(checkpoint))

    @pytest.fixture(scope="class")
    @classmethod
    def raw_model(cls, checkpoint: Path) -> Any:
        import nnsight
        from transformers import AutoTokenizer

        return nnsight.TransformersModel(text_module(checkpoint), tokenizer=AutoTokenizer.from_pretrained(checkpoint))

    def test_the_wrapper_refuses_a_text_only_call(self, checkpoint):
        wrapper = StandardizedTransformer(str(checkpoint), dispatch=True, attn_implementation="eager")
        assert type(wrapper._module).__name__ == "Kosmos2ForConditionalGeneration"
        with pytest.raises(ValueError, match="specify either `pixel_values` or `image_embeds`"):
            with wrapper.trace("The Eiffel Tower is in"):
                wrapper.logits.save()

    def test_the_neurons_are_the_normed_activation(self, model):
        mlp = model.layers[0].mlp
        box = []
        with model.trace("The Eiffel Tower is in"):
            box.append((mlp.mlp_activation.save(), mlp.mlp_neurons.save()))
        activation, neurons = box[0]
        with torch.no_grad():
            assert torch.equal(neurons, mlp._module.ffn_layernorm(activation))

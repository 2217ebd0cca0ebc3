"""kosmos_2_5_text_model: its text family's suite on the `kosmos_2_5` wrapper checkpoint, beside the wrapper's `test_kosmos_2_5.py`.

No causal-LM class of the auto mapping builds `kosmos_2_5_text_model` alone, so the wrapper checkpoint serves its text stack.
"""

# ruff: noqa: E402  - the imports follow the skip, which must run first on a release without the type

from nnterp_harness.release import skip_unless_known

skip_unless_known("kosmos-2.5")

from pathlib import Path
from typing import Any

import pytest
import torch
from test_kosmos_2_5 import CHECKPOINT, FAMILY, PROCESSOR, TEXT_FAMILY, text_module

from nnterp import StandardizedTransformer
from nnterp_harness.suite import (
    FamilySuite,
    rows,
)
from nnterp_harness.vision import QUESTION


class TestKosmos2_5Text(FamilySuite):
    CHECKPOINT = CHECKPOINT
    FAMILY = FAMILY
    NATIVE = rows(
        "text_model.model",
        "layers",
        "embed_tokens",
        "layer_norm",
        ln1="self_attn_layer_norm",
        ln2="final_layer_norm",
        mlp="ffn",
        head="text_model.lm_head",
    )
    MLP_WIDTH_KEY = "ffn_dim"
    NEURONS_FROM_ACTIVATION = False
    # Read only by the order test, since both fixtures are overridden: the processor refuses a prompt without an
    # image, so the fixtures are the wrapper a default-task load builds (no causal-LM class maps `kosmos-2.5`),
    # with the tokenizer and no processor.
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

    @pytest.fixture(scope="class")
    @classmethod
    def model(cls, checkpoint: Path) -> Any:
        return StandardizedTransformer(str(checkpoint), dispatch=True, attn_implementation="eager")

    @pytest.fixture(scope="class")
    @classmethod
    def raw_model(cls, checkpoint: Path) -> Any:
        import nnsight
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(checkpoint)
        kwargs = {"dispatch": True, "attn_implementation": "eager", "task": "text-generation", "tokenizer": tokenizer}
        return nnsight.TransformersModel(str(checkpoint), **kwargs)

    def test_the_fixtures_are_the_wrapper_and_the_processor_needs_an_image(self, model, checkpoint):
        assert type(model._module).__name__ == "Kosmos2_5ForConditionalGeneration"
        assert model.processor is None
        with_processor = StandardizedTransformer(str(checkpoint), dispatch=True, **self.LOAD_KWARGS)
        with pytest.raises(ValueError, match="requires images to be passed"):
            with with_processor.trace(QUESTION):
                with_processor.logits.save()

    def test_the_neurons_are_the_normed_activation(self, model):
        mlp = model.layers[0].mlp
        box = []
        with model.trace(QUESTION):
            box.append((mlp.mlp_activation.save(), mlp.mlp_neurons.save()))
        activation, neurons = box[0]
        with torch.no_grad():
            assert torch.equal(neurons, mlp._module.ffn_layernorm(activation))

    def test_the_text_model_alone_is_the_wrapper_without_an_image(self, model, checkpoint):
        from transformers import AutoTokenizer

        text = StandardizedTransformer(text_module(checkpoint), tokenizer=AutoTokenizer.from_pretrained(checkpoint))
        assert text.family is TEXT_FAMILY and type(text._module).__name__ == "Kosmos2_5TextForCausalLM"
        box = []
        for run in (model, text):
            with run.trace(QUESTION):
                box.append((run.layers[-1].layer_output.save(), run.logits.save()))
        (wrapped_out, wrapped), (alone_out, alone) = box
        assert torch.equal(alone_out, wrapped_out) and torch.equal(alone, wrapped)

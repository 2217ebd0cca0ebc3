"""Emu3's text stack (`emu3_text_model`), held to `FamilySuite` on the `emu3` wrapper checkpoint; test_emu3.py holds the tower.

The checkpoint's type is the wrapper's, so its default-task load is served by `emu3`, whose
`TEXT_LOAD_KWARGS` load the text weights into `Emu3ForCausalLM`.
"""

import nnsight
import pytest
import torch
from transformers import AutoTokenizer

from nnterp import StandardizedTransformer
from nnterp_harness import locate
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import PROMPT, FamilySuite, rows, run

skip_unless_known("emu3")
FAMILY = family("emu3")
#: The image side the checkpoint's processor keeps: a 4x4 grid of codes.
SIDE = 32


def load(**kwargs):
    return StandardizedTransformer(str(locate.checkpoint_path("emu3")), dispatch=True, **kwargs)


class TestEmu3Text(FamilySuite):
    """The default task: `Emu3ForCausalLM`, its stack at `model`, loaded from the wrapper checkpoint."""

    CHECKPOINT = "emu3"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm")

    @pytest.fixture(scope="class")
    @classmethod
    def raw_model(cls, checkpoint):
        # Plain nnsight loads the wrapper's text weights only when given the mapping the family declares.
        tokenizer = AutoTokenizer.from_pretrained(str(checkpoint))
        return nnsight.TransformersModel(
            str(checkpoint),
            dispatch=True,
            attn_implementation="eager",
            task="text-generation",
            tokenizer=tokenizer,
            **FAMILY.TEXT_LOAD_KWARGS,
        )

    @pytest.fixture(scope="class")
    @classmethod
    def wrapper(cls):
        return load(task="image-text-to-text", attn_implementation="eager")

    def test_default_task_builds_the_text_model(self, model):
        assert type(model._module).__name__ == "Emu3ForCausalLM"
        assert model.processor is None
        assert not {"vision", "projector"} & set(model._aliases)
        assert not [name for name in model.support() if name.startswith("vision")]

    def test_every_text_weight_is_the_wrappers(self, model, wrapper):
        text = dict(model._module.named_parameters(remove_duplicate=False))
        inner = dict(wrapper._module.model.text_model.named_parameters())
        assert set(text) == {f"model.{name}" for name in inner} | {"lm_head.weight"}
        for name, param in inner.items():
            assert torch.equal(text[f"model.{name}"], param), name
        assert torch.equal(text["lm_head.weight"], wrapper._module.lm_head.weight)

    def test_default_task_equals_the_wrappers_text(self, model, wrapper):
        encoded = dict(wrapper.processor(text=PROMPT, return_tensors="pt"))
        count = len(model.layers)

        def body(m):
            return [m.layers[index].layer_output for index in range(count)] + [m.logits]

        ours = run(model, body, encoded)
        theirs = run(wrapper, body, encoded)
        for index, (a, b) in enumerate(zip(ours, theirs)):
            assert torch.equal(a, b), f"value {index} differs from the wrapper's"

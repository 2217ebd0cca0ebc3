"""ernie4_5_vl_moe_text: its text family's suite on the `ernie4_5_vl_moe` wrapper checkpoint, beside the wrapper's `test_ernie4_5_vl_moe.py`.

No causal-LM class of the auto mapping builds `ernie4_5_vl_moe_text` alone, so the wrapper checkpoint serves its text stack.
"""

# ruff: noqa: E402  - the imports follow the skip, which must run first on a release without the type

from nnterp_harness.release import skip_unless_known

skip_unless_known("ernie4_5_vl_moe")

import torch
from test_ernie4_5_vl_moe import FAMILY, LOAD_KWARGS, MOE, SPLIT, mixture_block

from nnterp.components import Mlp
from nnterp_harness.suite import (
    ROUTED_EXPERTS,
    FamilySuite,
    rows,
)


class TestErnie4_5VLMoeText(FamilySuite):
    CHECKPOINT = "ernie4_5_vl_moe"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, **{f"mlp.{name}": "split by modality" for name in SPLIT}}
    MOE_UNAVAILABLE = {name: "split by modality" for name in SPLIT}
    ROUTER_EXTRA_CLASSES = (Mlp,)

    def available(self, model, key):
        """The base's check, where a split value's reason is the modality split on a mixture block.

        The dense block beside the mixture lacks every mixture value ("has no"), which the
        base would read as a reason without the expected substring.
        """
        name = key.removeprefix("mlp.")
        if name not in SPLIT:
            return super().available(model, key)
        entry = model.support()[key]
        for index, layer in enumerate(model.layers):
            expected = "split by modality" if isinstance(layer.mlp, MOE) else f"has no {name}"
            assert expected in entry[index], f"{key} on block {index}: {entry[index]!r}"
        return False

    def test_a_text_only_input_routes_every_token_through_the_text_router(self, model, clean):
        index = mixture_block(model)
        box = []
        with model.trace("The Eiffel Tower is in"):
            mixture = model.layers[index].mlp
            box.append((mixture.input.save(), mixture.text_moe.gate.input.save()))
        entering, text_rows = box[0]
        assert torch.equal(text_rows, entering.reshape(-1, entering.shape[-1]))

    def test_the_vision_experts_are_narrower_and_as_many(self, model):
        mixture = model.layers[mixture_block(model)].mlp
        assert mixture.vision_intermediate_size < mixture.intermediate_size
        assert mixture.vision_moe.experts._module.num_experts == mixture.num_experts
        assert mixture.vision_moe._module.top_k == mixture.top_k

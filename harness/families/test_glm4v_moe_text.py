"""GLM-4.5V's text stack, on the wrapper checkpoint: a dense block, then a grouped sigmoid mixture with a shared expert.

transformers has no causal-LM class for `glm4v_moe_text`, so the wrapper checkpoint serves its text model.
"""

from nnterp.components import Mlp
from nnterp.families import glm4_moe
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows
from nnterp_harness.vision import processor_of

skip_unless_known("glm4v_moe")
FAMILY = family("glm4v_moe")

#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("glm4v_moe", "Glm4vProcessor")}


class TestGlm4vMoeText(FamilySuite):
    CHECKPOINT = "glm4v_moe"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (Mlp,)

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, glm4_moe.Moe)
        assert isinstance(model.layers[1].mlp, glm4_moe.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}

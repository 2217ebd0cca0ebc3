"""Qwen3.5-MoE, end to end: the packed Qwen3 ViT with per-image attention, its merger as projector, on the hybrid
text model whose blocks are mixtures."""

from nnterp.components import Mlp
from nnterp_harness.recurrent import ROUTING_NEEDED
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows, ulp_close
from nnterp_harness.towers import MergerChecks, QwenVisionSuite
from nnterp_harness.vision import QUESTION, processor_of

skip_unless_known("qwen3_5_moe")
FAMILY = family("qwen3_5_moe")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("qwen3_5_moe", "Qwen3VLProcessor")}


class TestQwen3_5MoeVision(QwenVisionSuite):
    CHECKS = (MergerChecks,)
    CHECKPOINT = "qwen3_5_moe"
    FAMILY = FAMILY
    TEXT_CLASS = "Qwen3_5MoeForCausalLM"
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def test_the_text_class_runs_the_wrappers_text_model(self, model, text_only):
        box = []
        with model.trace(QUESTION):
            box.append(model.logits.save())
        with text_only.trace(QUESTION):
            box.append(text_only.logits.save())
        assert ulp_close(box[0], box[1])


class TestQwen3_5MoeText(FamilySuite):
    CHECKPOINT = "qwen3_5_moe"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm", attn=None)
    LOAD_KWARGS = LOAD_KWARGS
    EXPECTED_UNAVAILABLE = {**ROUTING_NEEDED, **ROUTED_EXPERTS}
    ROUTER_EXTRA_CLASSES = (Mlp,)
    QUERY_GATED = True
    PREMIX_IS_HEAD_OUTPUTS = False

"""Llama 4 over its text model, end to end: the ViT with its pixel-shuffle adapter, a linear projector, the scatter
in the wrapper's own forward.

The text stack runs the text family's own suite (`test_llama4_text`), its mixture checks among it, on the
wrapper's text model. The wrapper's image processor exists only as a torchvision class, so the processor is
built with `Llama4Images`, its PIL and NumPy stand-in, in its place.
"""

import pytest
import torch

from nnterp.components import VisionAttention, VisionLayer
from nnterp.components.premultiplied_moe import PremultipliedMoe
from nnterp.components.vision import scatter_call, scatter_host
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import rows
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("llama4")
FAMILY = family("llama4")

from nnterp_harness.entries.llama4 import llama4_processor, wrapper_forward_fails  # noqa: E402 - after the skip

if reason := wrapper_forward_fails():
    pytest.skip(reason, allow_module_level=True)

import test_llama4_text as text_suite  # noqa: E402  - the text family's suite, collected here on the wrapper

PROCESSOR = llama4_processor()


class TestLlama4Vision(VisionSuite):
    CHECKPOINT = "llama4"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}
    TOWER_ENVOYS = (FAMILY.Vision, VisionLayer, VisionAttention, FAMILY.VisionMlp)
    TEXT_CLASS = "Llama4ForCausalLM"

    def test_the_root_scatters(self, model):
        assert scatter_host(model) == ("", model)
        assert scatter_call(model) == ("source.inputs_embeds_masked_scatter_0", 1)

    def test_tower_output_keeps_the_cls_row_before_the_adapter(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            patches = model.vision.patch_embeddings.save()
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            adapted = model.vision.vision_adapter.output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((patches, last, tower, adapted, received, projected, features))
        patches, last, tower, adapted, received, projected, features = box[0]
        norm = model.vision.norm._module
        side = model.vision.image_size // model.vision.patch_size
        assert patches.shape[1] == side * side and tower.shape[1] == side * side + 1
        assert torch.equal(tower, norm(last))
        # The adapter takes each 2x2 group of patches, the CLS row dropped, to one row.
        assert adapted.shape[:2] == (1, side * side // 4)
        assert torch.equal(received, adapted.reshape(-1, adapted.shape[-1]))
        assert torch.equal(projected, features)

    def test_a_tower_output_write_reaches_the_adapter(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            tower = model.vision.tower_output
            model.vision.tower_output = torch.zeros_like(tower)
            box.append(model.vision.vision_adapter.input.save())
        entering = box[0]
        side = model.vision.image_size // model.vision.patch_size
        assert entering.shape[1] == side * side
        assert float(entering.abs().max()) == 0.0

    def test_the_tower_attention_rotates_by_position(self, model):
        # The queries enter the interface rotated: each head's vector keeps its norm and changes its direction.
        attn = model.vision.layers[0].self_attn
        box = []
        # Two traces: the queries are read inside the attention's forward, instrumented on the first such read,
        # which in a trace of its own comes before the forward runs.
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append(attn.attention_queries.save())
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append(attn.q_proj.output.save())
        queries, projected = box
        heads, head_dim = attn.num_heads, attn.head_dim
        unrotated = projected.unflatten(-1, (heads, head_dim)).transpose(1, 2)
        assert queries.shape == unrotated.shape
        assert not torch.allclose(queries, unrotated)
        assert torch.allclose(queries.norm(dim=-1), unrotated.norm(dim=-1), atol=1e-5)


class TestLlama4Text(text_suite.TestLlama4Text):
    CHECKPOINT = "llama4"
    FAMILY = FAMILY
    NATIVE = {
        **rows("language_model.model", "layers", "embed_tokens", "norm", head="language_model.lm_head"),
        "layers.0.mlp": "language_model.model.layers.0.feed_forward",
    }
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

    def test_moe_layers_decide_the_mixture_blocks(self, model):
        # The wrapper's config holds the text model's as `text_config`.
        moe_layers = model.config.get_text_config().moe_layers
        kinds = [isinstance(block.mlp, PremultipliedMoe) for block in model.layers]
        assert kinds == [i in moe_layers for i in range(len(kinds))] == [False, True]

"""Mllama, end to end: Llama's blocks with a cross-attention block among them, which serves no value yet.

The default task builds `MllamaForCausalLM` from the wrapper checkpoint, a text model
whose cross-attention block never runs; the image-text-to-text load builds
`MllamaForConditionalGeneration` with its processor, the same text stack under
`model.language_model`, and runs that block on an image. Both loads are served by
`mllama`, the checkpoint's type, with the blocks of `mllama_text_model`.
`FamilySuite` assumes every block runs and serves the block values, so these checks
state the contract of the blocks that do and the truth of the one that does not.
"""

import pytest
import torch

from nnterp import StandardizedTransformer, Unavailable
from nnterp_harness import locate
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import moved, ulp_close
from nnterp_harness.vision import QUESTION, image

skip_unless_known("mllama")
FAMILY = family("mllama")
TEXT = family("mllama_text_model")
#: The cross-attention block of the checkpoint (its config's `cross_attention_layers`).
CROSS = 1


def load(**kwargs):
    path = locate.checkpoint_path("mllama")
    return StandardizedTransformer(str(path), dispatch=True, attn_implementation="eager", **kwargs)


class TestMllama:
    @pytest.fixture(scope="class")
    @classmethod
    def text(cls):
        return load()

    @pytest.fixture(scope="class")
    @classmethod
    def wrapper(cls):
        return load(task="image-text-to-text")

    def test_both_loads_resolve_the_wrapper_family(self, text, wrapper):
        assert type(text._module).__name__ == "MllamaForCausalLM" and text.processor is None
        assert type(wrapper._module).__name__ == "MllamaForConditionalGeneration"
        assert type(wrapper.processor).__name__ == "MllamaProcessor"
        for model in (text, wrapper):
            assert model.family is FAMILY
            assert [type(block) for block in model.layers] == [TEXT.Layer, TEXT.CrossAttentionLayer, TEXT.Layer]
            assert model.layers[CROSS]._module.__class__.__name__ == "MllamaCrossAttentionDecoderLayer"
        assert wrapper._aliases["layers"] == "model.language_model.layers"

    def test_support_tells_the_truth_about_the_cross_block(self, text):
        rows = text.support()
        assert not [name for name in rows if name.startswith("vision")]
        for name in ("layer_input", "layer_output", "layer_mid", "mlp.mlp_output", "mlp.mlp_neurons"):
            assert set(rows[name]) == {CROSS} and TEXT._CROSS_BLOCK in rows[name][CROSS], name
        for name in ("self_attn.attention_probabilities", "self_attn.attention_output"):
            assert rows[name] == {CROSS: "no self_attn module on this block"}, name
        with pytest.raises(Unavailable, match="cross-attention block"):
            with text.trace(QUESTION):
                text.layers[CROSS].layer_output.save()

    def test_the_cross_block_does_not_run_on_text(self, text):
        box = []
        with text.trace(QUESTION):
            box.append((text.layers[0].layer_output.save(), text.layers[2].layer_input.save()))
        before, after = box[0]
        assert torch.equal(before, after)

    def test_self_attention_blocks_hold_the_identity(self, text):
        for index in (0, 2):
            block = text.layers[index]
            box = []
            with text.trace(QUESTION):
                x = block.layer_input.save()
                attn = block.self_attn.attention_output.save()
                mlp = block.mlp.mlp_output.save()
                box.append((x, attn, mlp, block.layer_output.save()))
            x, attn, mlp, out = box[0]
            assert ulp_close(x + attn + mlp, out), f"block {index}"

    def test_pattern_is_causal(self, text):
        box = []
        with text.trace(QUESTION):
            box.append(text.layers[2].self_attn.attention_probabilities.save())
        pattern = box[0].detach()
        n = pattern.shape[-1]
        assert pattern.shape == (1, text.num_heads, n, n)
        assert float(pattern[..., torch.ones(n, n, dtype=torch.bool).triu(1)].abs().max()) == 0.0

    def test_the_wrapper_runs_the_cross_block_on_an_image(self, wrapper):
        runs = []
        handle = wrapper.layers[CROSS]._module.register_forward_hook(lambda *_: runs.append(1))
        try:
            box = []
            for seed in (0, 1):
                encoded = wrapper.processor(images=[image(seed)], text="<|image|>" + QUESTION, return_tensors="pt")
                with wrapper.trace(dict(encoded)):
                    box.append(wrapper.logits.save())
        finally:
            handle.remove()
        assert len(runs) == 2
        assert moved(box[0], box[1]), "two images give the same logits"

    def test_the_cross_block_does_not_run_on_the_wrappers_text(self, wrapper):
        box = []
        with wrapper.trace(QUESTION):
            box.append((wrapper.layers[0].layer_output.save(), wrapper.layers[2].layer_input.save()))
        before, after = box[0]
        assert torch.equal(before, after)

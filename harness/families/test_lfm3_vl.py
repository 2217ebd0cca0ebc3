"""LFM3-VL, end to end: a packed hybrid tower of gated-convolution and per-image attention blocks on LFM3."""

import pytest
import torch

from nnterp import Unavailable, axis_size
from nnterp.components import QwenVision, QwenVisionAttention
from nnterp.components.vision import PER_IMAGE
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.short_convolution import WINDOW_UNAVAILABLE
from nnterp_harness.suite import FamilySuite, rows, ulp_close
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("lfm3_vl")
FAMILY = family("lfm3_vl")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
PROCESSOR = processor_of("lfm3_vl", "Lfm3VlProcessor")


class TestLfm3VlVision(VisionSuite):
    CHECKPOINT = "lfm3_vl"
    FAMILY = FAMILY
    TOWER_ENVOYS = (QwenVision, FAMILY.VisionLayer, QwenVisionAttention, FAMILY.VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": PROCESSOR}

    def mixer(self, block):
        """The block's mixer: its attention, or its convolution where it has none."""
        return getattr(block, "self_attn", None) or block.linear_attn

    def test_tower_envoys(self, model):
        # A hybrid tower: each block holds the attention or the convolution, never both.
        assert isinstance(model.vision, QwenVision)
        assert "projector" in model._aliases
        kinds = []
        for block in model.vision.layers:
            assert isinstance(block, FAMILY.VisionLayer), type(block).__name__
            assert isinstance(block.mlp, FAMILY.VisionMlp), type(block.mlp).__name__
            attention = getattr(block, "self_attn", None)
            convolution = getattr(block, "linear_attn", None)
            assert (attention is None) != (convolution is None), block.path
            if attention is not None:
                assert isinstance(attention, QwenVisionAttention), type(attention).__name__
            else:
                assert isinstance(convolution, FAMILY.VisionConvolution), type(convolution).__name__
            kinds.append("attention" if attention is not None else "conv")
        assert kinds == ["conv", "attention"]

    def test_tower_sizes_are_its_own(self, model):
        # The heads are counted on the attention block: block 0 is a convolution.
        vision = model.vision
        assert vision.vision_hidden_size == 32 != model.hidden_size
        assert axis_size(vision, "hidden_size") == model.hidden_size
        assert axis_size(vision.layers[0], "vision_hidden_size") == vision.vision_hidden_size
        assert vision.num_heads * vision.head_dim == vision.vision_hidden_size
        assert vision.layers[1].self_attn.num_heads == vision.num_heads
        assert vision.layers[1].self_attn.num_kv_heads == 1
        assert all(block.mlp.intermediate_size == vision.intermediate_size for block in vision.layers)
        assert vision.patch_size == 8
        with pytest.raises(Unavailable, match="own resolution"):
            vision.image_size  # noqa: B018

    def test_tower_identity(self, model):
        for index, block in enumerate(model.vision.layers):
            box = []
            with model.trace(prompt_for(model), images=self.images(0)):
                box.append(
                    (
                        block.layer_input.save(),
                        self.mixer(block).attention_output.save(),
                        block.mlp.mlp_output.save(),
                        block.layer_output.save(),
                    )
                )
            x, mixed, mlp, out = box[0]
            assert mixed.shape == x.shape, f"tower block {index}"
            assert ulp_close(x + mixed + mlp, out), f"tower block {index}"

    def test_tower_pattern_is_not_causal(self, model):
        # The attention block's pattern is per image; the convolution block has no pattern at all.
        entry = model.vision.support()["self_attn.attention_probabilities"]
        assert PER_IMAGE[:40] in entry[1] and "no self_attn" in entry[0], entry
        conv = model.vision.support()["linear_attn.attention_probabilities"]
        assert "depthwise convolution" in conv[0], conv
        with pytest.raises(Unavailable, match="once per image"):
            with model.trace(prompt_for(model), images=self.images(0)):
                model.vision.layers[1].self_attn.attention_probabilities.save()

    def test_the_mlp_reads_the_stream_after_the_mixer(self, model):
        for block in model.vision.layers:
            box = []
            with model.trace(prompt_for(model), images=self.images(0)):
                box.append(
                    (
                        block.layer_input.save(),
                        self.mixer(block).attention_output.save(),
                        block.layer_mid.save(),
                        block.mlp_norm_output.save(),
                        block.mlp.input.save(),
                    )
                )
            x, mixed, mid, normed, entering = box[0]
            assert ulp_close(x + mixed, mid) and torch.equal(normed, entering[None])

    def test_the_projector_merges_2x2_groups_of_the_tower_output(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, tower, received, projected, features))
        last, tower, received, projected, features = box[0]
        assert torch.equal(tower, last) and torch.equal(received, tower[0])
        assert torch.equal(projected, features)
        assert features.shape[0] * 4 == tower.shape[1]

    def test_the_convolution_keeps_each_image_apart(self, model):
        # Zeroing the first image's convolution output leaves the second image's patches untouched.
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            box.append(model.vision.layers[0].layer_output.save())
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            conv = model.vision.layers[0].linear_attn
            half = conv.attention_output.shape[1] // 2
            conv.attention_output[:, :half] = 0
            box.append(model.vision.layers[0].layer_output.save())
        clean, edited = box
        half = clean.shape[1] // 2
        assert not torch.equal(clean[:, :half], edited[:, :half])
        assert torch.equal(clean[:, half:], edited[:, half:])


class TestLfm3VlText(FamilySuite):
    CHECKPOINT = "lfm3_vl"
    FAMILY = FAMILY
    NATIVE = rows(
        "model.language_model",
        "layers",
        "embed_tokens",
        "embedding_norm",
        attn=None,
        ln1="operator_norm",
        ln2="post_operator_norm",
        mlp="feed_forward",
    )
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    EXPECTED_UNAVAILABLE = WINDOW_UNAVAILABLE
    MLP_NORM = "pre_feedforward_layernorm"
    PREMIX_IS_HEAD_OUTPUTS = False

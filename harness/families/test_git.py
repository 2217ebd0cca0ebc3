"""GIT (`git`), end to end: BERT-style post-LN text blocks, and a CLIP tower whose projected rows are prepended."""

import pytest
import torch

from nnterp import Unavailable
from nnterp.components.vision import Vision, scatter_call
from nnterp.families import git
from nnterp_harness.entries.git import git_processor
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, moved, rows, run
from nnterp_harness.vision import VisionSuite, prompt_for

skip_unless_known("git")
FAMILY = family("git")


class TestGitVision(VisionSuite):
    CHECKPOINT = "git"
    FAMILY = FAMILY
    TOWER_ENVOYS = (git.GitVision, git.VisionLayer, git.VisionAttention, git.VisionMlp)
    LOAD_KWARGS = {"processor": git_processor()}

    def image_rows(self, model):
        side = model.vision.image_size // model.vision.patch_size
        return side * side + 1

    def test_the_image_rows_come_first(self, model):
        run_ = self.clean(model)
        mask, rows = run_["mask"], self.image_rows(model)
        assert bool(mask[:, :rows].all()) and not bool(mask[:, rows:].any())
        assert mask.shape[1] == rows + len(model.processor.tokenizer(prompt_for(model)).input_ids)

    def test_features_are_the_projected_tower_output(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            tower = model.vision.tower_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((tower, received, projected, features))
        tower, received, projected, features = box[0]
        assert scatter_call(model) == (f"git.source.{git._PREPENDED}", 0)
        assert torch.equal(received, tower) and tower.shape[1] == self.image_rows(model)
        assert torch.equal(projected.reshape(features.shape), features)

    def test_tower_output_is_after_the_final_norm(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            normed = model.vision.norm.output.save()
            tower = model.vision.tower_output.save()
            box.append((last, normed, tower))
        last, normed, tower = box[0]
        assert torch.equal(tower, normed) and not torch.equal(tower, last)

    def test_two_images_in_one_invoke(self, model):
        # GIT repeats the projected image over the batch, so each image goes with a prompt of its own.
        prompt = prompt_for(model)
        one = self.clean(model, 1)
        box = []
        with model.trace([prompt, prompt], images=self.images(0, 1)):
            mask = model.vision.image_token_mask.save()
            rows = model.vision.layers[0].layer_output.save()
            features = model.vision.image_features.save()
            first = model.layers[0].layer_input.save()
            box.append((mask, features, first, rows))
        mask, features, first, rows = box[0]
        assert int(mask.sum()) == 2 * int(one["mask"].sum())
        assert features.shape[0] == 2 * one["features"].shape[0]
        assert torch.equal(first[mask], features)
        assert rows.shape[0] == 2
        assert torch.equal(features[: one["features"].shape[0]], one["features"])

    def test_two_images_for_one_prompt_fail_in_transformers(self, model):
        # The projected pair is repeated 1 // 2 = 0 times, so the concatenation gets no image rows for the prompt.
        with pytest.raises(RuntimeError, match="Sizes of tensors must match"):
            with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
                model.logits.save()

    def test_the_mask_has_no_image_token_to_read(self, model):
        # The base mask compares the ids to the config's image token, which GIT has none of; GIT's reads the inputs.
        assert getattr(model.config, "image_token_id", None) is None
        assert "names no image_token_id" in Vision.image_token_mask.reason(model.vision)
        assert model.vision.support()["image_token_mask"] is None

    def test_an_image_value_on_the_text_load_names_the_load(self, text_only):
        with pytest.raises(Unavailable, match="text-only load"):
            with text_only.trace("The Eiffel Tower is in"):
                text_only.vision.image_token_mask.save()


class TestGitText(FamilySuite):
    CHECKPOINT = "git"
    FAMILY = FAMILY
    NATIVE = rows(
        "git",
        "encoder.layer",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="attention.self_output.LayerNorm",
        head=None,
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = "mlp.ffn_output.LayerNorm"
    PLAIN_UP_PROJ = True

    def test_blocks_regroup_their_output_modules(self, model):
        # The decision: no block module stays registered as `output`, and the block calls `mlp` as its chunk.
        for block in model.layers:
            module = block._module
            assert "output" not in module._modules and "output" not in module.attention._modules
            assert module.attention.output is block.self_attn.self_output._module
            assert set(module.mlp._modules) == {"intermediate", "ffn_output"}
            assert block.mlp.up_proj._module is module.mlp.intermediate.dense
            assert block.mlp.down_proj._module is module.mlp.ffn_output.dense
            assert block.self_attn.o_proj._module is module.attention.self_output.dense
            assert block.self_attn.self.q_proj._module is module.attention.self.query
        assert len(list(model._module.parameters())) == len(dict(model._module.named_parameters()))

    def test_the_head_is_the_roots_output_module(self, model):
        # nnsight files the root's `output` module as `E_output`, since every envoy serves `.output` itself.
        assert model.lm_head is model.get("E_output")
        assert model.lm_head._module is model._module.output
        assert model.lm_head.path == f"{model.path}.output"

    # GIT's embedding adds the position table to the word embedding's output in place
    # (`embeddings += position_embeddings`), so the tensor read there holds the sum once
    # the forward has moved on; the suite's check takes that form.

    def test_token_embeddings_are_the_embedding_output(self, model, clean):
        ids, value, raw, copy = run(
            model, lambda m: (m.input_ids, m.token_embeddings, m.embed_tokens.output, m.token_embeddings.clone())
        )
        assert torch.equal(value, raw)
        assert tuple(value.shape) == (1, ids.shape[1], model.hidden_size)
        assert torch.equal(model.embed_tokens(ids), copy), "a copy taken in the trace is not the embedding of the ids"
        positions = model._module.git.embeddings.position_embeddings.weight[: ids.shape[1]]
        assert torch.equal(copy + positions, value), "the model did not add the positions to the read tensor"

        def body(m):
            m.token_embeddings = m.token_embeddings * 0
            return m.logits

        assert moved(run(model, body), clean["logits"]), "assigning token_embeddings did not move the logits"

    def test_mlp_is_the_feed_forward_chunk(self, model):
        def body(m):
            b = m.layers[0]
            return b.mlp_norm_output, b.mlp.input, b.mlp.output, b.layer_output

        normed, entering, leaving, out = run(model, body)
        assert torch.equal(normed, entering) and torch.equal(leaving, out)

    def test_the_embedding_norms_the_token_and_position_sum(self, model):
        def body(m):
            return m.embed_tokens.output, m.git.embeddings.LayerNorm.output, m.layers[0].layer_input

        tokens, normed, first = run(model, body)
        assert torch.equal(normed, first) and not torch.equal(tokens, first)

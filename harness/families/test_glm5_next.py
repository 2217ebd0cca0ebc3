"""GLM-5.3-Flash, end to end: GLM-OCR's packed ViT under an axial rotary (per-head query and key norms, per-image
attention, no position grid, a final norm), a 2x2 downsample convolution and a gated merger as projector, on the
hyper-connection hybrid of a forget-gated Kimi delta attention block and an indexed latent attention block with a
grouped mixture.

The text stack runs the text family's suite, its hyper-connection, recurrent and mixture checks among it, on the
wrapper's text model; the image enters the one embedded stream before the model copies it into every stream.
"""

import inspect

import torch

from nnterp.components.vision import PER_IMAGE
from nnterp_harness.hyper_connections import HyperConnectionChecks, spread
from nnterp_harness.kimi_delta import KimiDeltaChecks
from nnterp_harness.mixture import MixtureChecks
from nnterp_harness.recurrent import ROUTING_NEEDED
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, moved, rows, run
from nnterp_harness.vision import VisionSuite, processor_of, prompt_for

skip_unless_known("glm5_next")
FAMILY = family("glm5_next_text")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("glm5_next", "Glm5NextProcessor")}

#: Whether this release caches the latent and decompresses the keys and values after the cache, so the values reach
#: the interface as a split view that refuses an in-place edit; a release that caches the decompressed keys and
#: values (5.17) hands the interface the cache's own tensors, which take one.
SPLIT_VALUES = ".update(k_pass, k_rot" in inspect.getsource(FAMILY.Glm5NextTextAttention.forward)

#: A prompt longer than the indexer keeps keys per query (`index_topk` plus the unfinished pool's tail).
LONG_PROMPT = "The Eiffel Tower is in Paris, and the Colosseum is in Rome."


class TestGlm5NextVision(VisionSuite):
    CHECKPOINT = "glm5_next"
    FAMILY = FAMILY
    TOWER_ENVOYS = (FAMILY.Glm5NextVision, FAMILY.VisionLayer, FAMILY.QwenVisionAttention, FAMILY.VisionMlp)
    PATTERN_REASON = PER_IMAGE[:40]
    IMAGE_SIZE_FIXED = False
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def one_stream(self, first):
        return first[:, :, 0]

    def test_the_wrapper_is_glm5_next_under_its_pil_image_processor(self, model):
        assert type(model._module).__name__ == "Glm5NextForConditionalGeneration"
        assert type(model.processor.image_processor).__name__ == "Glm5NextImageProcessorPil"

    def test_every_stream_enters_with_the_image(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append(model.layers[0].layer_input.save())
        first = box[0]
        streams = model.config.get_text_config().hc_mult
        assert first.shape[2] == streams > 1
        for stream in range(1, streams):
            assert torch.equal(first[:, :, stream], first[:, :, 0]), f"stream {stream} is not the embedded stream"

    def test_the_patches_enter_the_first_block_unchanged(self, model):
        # No position grid and no norm after the patch convolution: block 0 reads the convolution's output.
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append((model.vision.patch_embeddings.save(), model.vision.layers[0].layer_input.save()))
        patches, first = box[0]
        assert torch.equal(patches, first)

    def test_the_merger_projects_the_downsampled_final_norm(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            tower = model.vision.tower_output.save()
            merged = model.vision.downsample.output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((last, tower, merged, received, projected, features))
        last, tower, merged, received, projected, features = box[0]
        normed = model.vision.norm._module(last[0])
        assert torch.equal(tower[0], normed) and not torch.equal(tower, last)
        assert torch.equal(received, merged.flatten(1))
        assert received.shape == (tower.shape[1] // 4, model.hidden_size)
        assert torch.equal(projected, features)

    def test_the_block_mlp_is_intermediate_size_wide(self, model):
        config = model.vision.tower_config
        mlp = model.vision.layers[0].mlp
        assert model.vision.intermediate_size == config.intermediate_size != config.out_hidden_size
        assert mlp.intermediate_size == mlp.gate_proj._module.out_features == config.intermediate_size


class TestGlm5NextText(HyperConnectionChecks, KimiDeltaChecks, MixtureChecks, FamilySuite):
    CHECKPOINT = "glm5_next"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm", attn=None)
    LOAD_KWARGS = LOAD_KWARGS
    EXPECTED_UNAVAILABLE = {**ROUTING_NEEDED, **ROUTED_EXPERTS}
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    MLP_WIDTH_KEY = "intermediate_size"
    REFUSES_IN_PLACE = ("attention_values",) if SPLIT_VALUES else ()

    def _streams(self, model):
        return model.config.get_text_config().hc_mult

    def mixer_name(self, model, index):
        kind = model.config.get_text_config().layer_types[index]
        return "linear_attn" if kind == "linear_attention" else "self_attn"

    def test_contribution_identity(self, model):
        # The suite's form, each block's contribution read on the mixer it holds.
        count = len(model.layers)

        def body(m):
            read = []
            for i in range(count):
                b = m.layers[i]
                mixer = getattr(b, self.mixer_name(model, i))
                read.append(
                    (
                        b.layer_input,
                        b.attention_post,
                        b.attention_comb,
                        mixer.attention_output,
                        b.layer_mid,
                        b.mlp_post,
                        b.mlp_comb,
                        b.mlp.mlp_output,
                        b.layer_output,
                    )
                )
            return read

        for index, (x, post_a, comb_a, attn, mid, post_m, comb_m, mlp, out) in enumerate(run(model, body)):
            assert tuple(post_a.shape) == tuple(x.shape[:3]), f"block {index}: attention_post {tuple(post_a.shape)}"
            assert tuple(comb_a.shape) == (*x.shape[:3], x.shape[2]), f"block {index}: {tuple(comb_a.shape)}"
            assert torch.equal(spread(post_a, attn, x, comb_a), mid), f"block {index}: layer_mid is not the add"
            assert torch.equal(spread(post_m, mlp, mid, comb_m), out), f"block {index}: layer_output is not the add"
            assert moved(out[:, :, 0], out[:, :, 1]), f"block {index}: the streams are one"

    def test_the_checkpoint_holds_each_block_kind(self, model):
        config = model.config.get_text_config()
        assert [kind == "linear_attention" for kind in config.layer_types] == [False, False, True]
        assert config.indexer_types[:2] == ["full", "shared"]
        assert config.mlp_layer_types == ["dense", "sparse", "dense"]
        assert isinstance(model.layers[0].self_attn, FAMILY.Attention)
        assert isinstance(model.layers[1].self_attn, FAMILY.Attention)
        assert isinstance(model.layers[2].linear_attn, FAMILY.LinearAttention)
        assert isinstance(model.layers[1].mlp, FAMILY.Moe) and not isinstance(model.layers[0].mlp, FAMILY.Moe)

    def test_each_query_attends_to_at_most_the_indexed_keys(self, model):
        config = model.config.get_text_config()
        keep = config.index_topk + config.index_kpool - 1
        (pattern,) = self.read_on_blocks(model, "self_attn.attention_probabilities", [0], LONG_PROMPT)
        n = pattern.shape[-1]
        assert n > keep
        kept = (pattern[0] > 0).sum(-1)  # [heads, queries]
        assert bool((kept <= keep).all()), "a query attends to more keys than the indexer keeps"
        # Query i sees all of its i + 1 earlier keys while they fit in `index_topk`, and fewer once they pass the
        # budget with the tail.
        early = config.index_topk
        assert torch.equal(kept[:, :early], (torch.arange(early) + 1).expand(kept.shape[0], -1))
        assert bool((kept[:, keep:] < torch.arange(keep, n) + 1).all()), "a late query kept every key"
        assert float(pattern[0].triu(1).detach().abs().max()) == 0.0, "a query attends to a later key"

    def test_the_shared_block_reuses_the_first_blocks_choice(self, model):
        def body(m):
            return m.layers[0].output[1], m.layers[1].output[1], m.layers[2].output[1]

        first, second, third = run(model, body, LONG_PROMPT)
        assert first is not None and second is None and third is None, "only the block before a shared one hands on"
        assert model.layers[1].self_attn._module.indexer is None

        def patterns(m):
            return m.layers[0].self_attn.attention_probabilities, m.layers[1].self_attn.attention_probabilities

        a, b = run(model, patterns, LONG_PROMPT)
        assert torch.equal(a[0, 0] > 0, b[0, 0] > 0), "the shared block does not keep the first block's keys"

    def test_a_skipped_first_block_hands_on_every_earlier_key(self, model):
        def body(m):
            m.skip_layers(0, 0)
            return m.layers[0].output[1], m.layers[1].self_attn.attention_probabilities

        chosen, pattern = run(model, body, LONG_PROMPT)
        n = pattern.shape[-1]
        keys = torch.arange(n)
        assert torch.equal(chosen[0].long(), torch.where(keys[None, :] <= keys[:, None], keys, -1))
        kept = (pattern[0] > 0).sum(-1)
        assert torch.equal(kept, (keys + 1).expand_as(kept)), "the shared block still drops keys"

    def test_the_forget_gate_bounds_the_decays(self, model):
        config = model.config.get_text_config()
        block = model.layers[2]

        def body(m):
            b = m.layers[2]
            return b.attention_norm_output, b.linear_attn.decays

        normed, decays = run(model, body)
        with torch.no_grad():
            gate = block.linear_attn._module.forget_gate(normed)
        assert torch.equal(decays, gate), "the decays are not the forget gate on the normed stream"
        assert bool((decays > config.linear_lower_bound).all()), "a decay beyond the gate's lower bound"

    def test_weights_are_the_scaled_sigmoid_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float()).gather(-1, indices)
        expected = (
            scores / (scores.sum(-1, keepdim=True) + 1e-20) * model.config.get_text_config().routed_scaling_factor
        )
        assert torch.allclose(weights, expected, atol=1e-5)

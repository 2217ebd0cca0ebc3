"""mistral_large4_text: its text family's suite on the `mistral_large4` wrapper checkpoint, beside the wrapper's `test_mistral_large4.py`.

No causal-LM class of the auto mapping builds `mistral_large4_text` alone, so the wrapper checkpoint serves its text stack.
"""

# ruff: noqa: E402  - the imports follow the skip, which must run first on a release without the type

from nnterp_harness.release import skip_unless_known

skip_unless_known("mistral_large4")

import pytest
import torch
from test_mistral_large4 import FAMILY, LOAD_KWARGS, LONG_PROMPT

from nnterp.components import Mlp
from nnterp.families import mistral4
from nnterp_harness.suite import (
    ROUTED_EXPERTS,
    FamilySuite,
    rows,
    run,
)


class TestMistralLarge4Text(FamilySuite):
    CHECKPOINT = "mistral_large4"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (Mlp,)
    MLP_WIDTH_KEY = "intermediate_size"
    # The latent is cached and decompressed after the cache, so the values reach the interface as a split view.
    REFUSES_IN_PLACE = ("attention_values",)

    def test_first_block_is_dense(self, model):
        assert not isinstance(model.layers[0].mlp, mistral4.Moe)
        assert isinstance(model.layers[1].mlp, mistral4.Moe)
        assert model.support()["mlp.router_logits"] == {0: "the mlp on this block has no router_logits"}
        assert model.support(layer=1)["mlp.router_logits"] is None

    def test_each_query_attends_to_at_most_the_indexed_keys(self, model):
        keep = model.config.text_config.index_topk
        blocks = list(range(len(model.layers)))
        patterns = self.read_on_blocks(model, "self_attn.attention_probabilities", blocks, LONG_PROMPT)
        for pattern in patterns:
            n = pattern.shape[-1]
            assert n > keep
            kept = (pattern[0] > 0).sum(-1)  # [heads, queries]
            # Query i sees its i + 1 earlier keys until the indexer's budget runs out.
            expected = (torch.arange(n) + 1).clamp(max=keep)
            assert torch.equal(kept, expected.expand_as(kept))

    def test_a_skipped_first_block_hands_on_every_key(self, model):
        def body(m):
            m.skip_layers(0, 0)
            return m.layers[0].output[1], m.layers[1].self_attn.attention_probabilities

        chosen, pattern = run(model, body, LONG_PROMPT)
        n = pattern.shape[-1]
        assert torch.equal(chosen[0, -1].long(), torch.arange(n))
        assert bool((pattern[0, :, -1] > 0).all()), "the shared block still drops keys"

    def test_the_shared_block_reuses_the_first_blocks_choice_and_the_last_chooses_anew(self, model):
        def body(m):
            return m.layers[0].output[1], m.layers[1].output[1], m.layers[2].output[1]

        first, second, third = run(model, body, LONG_PROMPT)
        assert model.config.text_config.indexer_types == ["full", "shared", "full"]
        assert model.layers[1].self_attn._module.indexer is None
        assert model.layers[2].self_attn._module.indexer is not None
        assert torch.equal(first, second)
        assert not torch.equal(first, third)

    def test_weights_are_the_renormalized_scaled_softmax_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        assert logits.dtype == torch.float32
        scores = torch.softmax(logits.float(), dim=-1).gather(-1, indices)
        expected = scores / (scores.sum(-1, keepdim=True) + 1e-20) * model.config.text_config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)

    def test_choice_stays_within_the_groups_of_the_best_pairs(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_indices

        logits, indices = run(model, body)
        config = model.config.text_config
        groups = logits.softmax(-1).unflatten(-1, (config.n_group, -1)).topk(2, dim=-1).values.sum(-1)
        best = groups.topk(config.topk_group, dim=-1).indices
        chosen_groups = indices // (config.n_routed_experts // config.n_group)
        assert bool((chosen_groups.unsqueeze(-1) == best.unsqueeze(-2)).any(-1).all())

    def test_latent_attention_sizes(self, model):
        config = model.config.text_config
        for block in model.layers:
            attn = block.self_attn
            assert attn.qk_head_dim == config.qk_nope_head_dim + config.qk_rope_head_dim
            assert attn.head_dim == config.v_head_dim
            assert attn.num_kv_heads == attn.num_heads == config.num_attention_heads

    def test_queries_are_scaled_by_log_position(self, model):
        """`attention_queries` are the joined queries times `scale * log(position + 1) + bias`, per head."""

        def body(m):
            attn = m.layers[0].self_attn
            return attn.softmax_scaling.input, attn.attention_queries

        joined, queries = run(model, body, LONG_PROMPT)
        scaling = model.layers[0].self_attn._module.softmax_scaling
        log_pos = torch.arange(1, joined.shape[2] + 1, dtype=torch.float32).log()
        factor = scaling.scale[:, None] * log_pos[None, :] + scaling.bias[:, None]  # [heads, queries]
        assert not torch.allclose(factor, torch.ones_like(factor))
        assert torch.allclose(queries, joined * factor[None, :, :, None], atol=1e-6)

    def test_a_no_rope_block_rotates_nothing(self, model):
        """Block 0 is a NoPE block: its joined queries are the projection itself; block 1 rotates its rotary part."""
        config = model.config.text_config
        assert config.no_rope_layers == [0, 1, 1]
        heads, width = config.num_attention_heads, config.qk_nope_head_dim + config.qk_rope_head_dim

        def body(m):
            return [(m.layers[i].self_attn.q_proj.output, m.layers[i].self_attn.softmax_scaling.input) for i in (0, 1)]

        (projected_nope, joined_nope), (projected_rope, joined_rope) = run(model, body, LONG_PROMPT)

        def heads_first(projected):
            return projected.unflatten(-1, (heads, width)).transpose(1, 2)

        assert torch.equal(joined_nope, heads_first(projected_nope))
        rope, nope = heads_first(projected_rope), config.qk_nope_head_dim
        assert torch.equal(joined_rope[..., :nope], rope[..., :nope])
        # The rotation is on interleaved pairs and writes the rotated evens, then the odds; position 0 turns by zero.
        rotary = rope[..., nope:]
        unrotated = torch.cat([rotary[..., 0::2], rotary[..., 1::2]], dim=-1)
        assert torch.allclose(joined_rope[..., 0, nope:], unrotated[..., 0, :], atol=1e-6)
        assert not torch.allclose(joined_rope[..., 1:, nope:], unrotated[..., 1:, :], atol=1e-3)

    def test_a_sharing_block_decompresses_the_source_blocks_latent(self, model):
        """Block 2 reuses block 1's latent and rotary key (`kv_source_layers`), decompressed by its own `kv_b_proj`."""
        config = model.config.text_config
        assert config.kv_source_layers == [0, 1, 1]
        assert model.layers[2].self_attn._module.kv_a_proj_with_mqa is None
        nope = config.qk_nope_head_dim

        def body(m):
            source, sharer = m.layers[1].self_attn, m.layers[2].self_attn
            return (
                source.kv_a_layernorm.output,
                source.attention_keys,
                sharer.kv_b_proj.input,
                sharer.attention_keys,
            )

        latent, source_keys, received, sharer_keys = run(model, body, LONG_PROMPT)
        assert torch.equal(received.reshape(-1, config.kv_lora_rank), latent.reshape(-1, config.kv_lora_rank))
        assert torch.equal(sharer_keys[..., nope:], source_keys[..., nope:])
        assert not torch.allclose(sharer_keys[..., :nope], source_keys[..., :nope])

    def test_a_skipped_source_block_leaves_its_sharer_no_latent(self, model):
        """Skipping block 1 skips the latent block 2 reuses: transformers' forward finds none and raises."""

        def body(m):
            m.skip_layers(1, 1)
            return m.logits

        with pytest.raises(KeyError, match="rope"):
            run(model, body)

    def test_the_logits_are_softcapped(self, model):
        cap = model.config.text_config.final_logit_softcapping

        def body(m):
            return m.lm_head.output, m.logits

        raw, logits = run(model, body)
        assert torch.allclose(logits, cap * torch.tanh(raw / cap), atol=1e-6)
        assert not torch.allclose(logits, raw, atol=1e-4)

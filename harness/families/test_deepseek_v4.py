"""DeepSeek-V4, end to end: hyper-connection streams around a shared-key sink attention and a mixture."""

import pytest
import torch

from nnterp_harness.release import family
from nnterp_harness.sinks import sink_pattern
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, moved, perturbed, run

FAMILY = family("deepseek_v4")


class TestDeepseekV4(FamilySuite):
    CHECKPOINT = "deepseek_v4"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = {**ROUTED_EXPERTS, "self_attn.attention_premix": "grouped low-rank"}
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    ATTENTION_SINK = True

    def pattern_from_scores(self, scores):
        return sink_pattern(scores, self._sinks)

    @pytest.fixture(autouse=True)
    def _first_sinks(self, model):
        self._sinks = model.layers[0].self_attn._module.sinks.detach()

    def attention_blocks(self, model):
        """The sliding blocks: a compressing block's key axis runs past the sequence (held below)."""
        return [i for i, kind in enumerate(model.config.layer_types) if kind == "sliding_attention"]

    def mixture(self, model):
        """The first block routed by its logits: a `hash_moe` block looks its experts up by token id (held below)."""
        index = model.config.mlp_layer_types.index("moe")
        return index, model.layers[index].mlp

    def test_sublayer_interiors(self, model, clean):
        """Every MLP is a mixture and the heads meet no single output projection: the shared expert's interior."""
        for index in sorted({0, len(model.layers) - 1}):

            def body(m, index=index):
                shared = m.layers[index].mlp.shared_experts
                return shared.mlp_activation, shared.act_fn.output, shared.mlp_neurons, shared.down_proj.input

            activation, raw, neurons, down = run(model, body)
            assert torch.equal(activation, raw) and torch.equal(neurons, down)
            assert activation.shape[-1] == model.config.moe_intermediate_size

            def write(m, index=index):
                shared = m.layers[index].mlp.shared_experts
                shared.mlp_neurons = perturbed(shared.mlp_neurons)
                return m.logits

            assert moved(run(model, write), clean["logits"]), f"writing block {index}'s shared neurons did not land"

    def test_compressing_blocks_append_entries_to_the_key_axis(self, model, clean):
        n = clean["input_ids"].shape[1]
        rates = model.config.compress_rates
        for index, kind in enumerate(model.config.layer_types):
            if kind == "sliding_attention":
                continue
            attn = model.layers[index].self_attn

            def body(m, index=index):
                a = m.layers[index].self_attn
                return a.attention_keys, a.attention_scores, a.attention_probabilities

            keys, scores, pattern = run(model, body)
            extra = n // rates[kind]
            assert extra > 0, f"block {index}: the prompt is shorter than one window of {rates[kind]}"
            assert tuple(keys.shape) == (1, 1, n + extra, attn.qk_head_dim)
            assert tuple(pattern.shape) == (1, attn.num_heads, n, n + extra)
            sinks = attn._module.sinks.detach()
            assert torch.allclose(sink_pattern(scores, sinks), pattern, atol=1e-6)
            sums = pattern.sum(-1)
            assert bool((sums < 1).all()), f"block {index}: no row lost mass to the sink"
            # Query t sees a compressed entry w only once its window has closed: t + 1 >= (w + 1) * rate.
            for w in range(extra):
                closed = (w + 1) * rates[kind] - 1
                assert float(pattern[..., :closed, n + w].detach().abs().max()) == 0.0, (
                    f"block {index}: entry {w} seen early"
                )

    def test_hash_block_routes_by_token_id(self, model, clean):
        index = model.config.mlp_layer_types.index("hash_moe")
        experts = model.layers[index].mlp.num_experts

        def body(m):
            mixture = m.layers[index].mlp
            forced = torch.full((experts,), -10.0)
            forced[[1, 0]] = 10.0
            mixture.router_logits[:, -1] = forced
            return mixture.expert_indices

        indices = run(model, body)
        table = model.layers[index].mlp.gate._module.tid2eid
        assert torch.equal(indices[0], table[clean["input_ids"][0]]), "the hash block did not route by token id"

    def test_the_router_scores_with_sqrt_softplus(self, model):
        index, _ = self.mixture(model)

        def body(m):
            mixture = m.layers[index].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sqrt(torch.nn.functional.softplus(logits.float())).gather(-1, indices)
        expected = scores / scores.sum(-1, keepdim=True) * model.config.routed_scaling_factor
        assert torch.allclose(weights, expected, atol=1e-5)
        assert moved(weights[..., 0], weights[..., 1])

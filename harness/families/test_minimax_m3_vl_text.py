"""MiniMax-M3's text model (`MiniMaxM3VLForCausalLM`), end to end: an indexer-masked sparse-attention block, a
dense block with a clamped gated MLP, and a biased sigmoid mixture scaled before its shared expert is added."""

import torch

from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run

FAMILY = family("minimax_m3_vl_text")


class TestMinimaxM3VlText(FamilySuite):
    CHECKPOINT = "minimax_m3_vl_text"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    MLP_WIDTH_KEY = "dense_intermediate_size"
    # The gate and up projections are one module, so the neurons are held to `down_proj.input`.
    NEURONS_FROM_ACTIVATION = False

    def test_the_indexer_masks_keys_on_the_sparse_block(self, model):
        prompt = "The Eiffel Tower is in Paris, and the Colosseum is in Rome."
        patterns = self.read_on_blocks(model, "self_attn.attention_probabilities", [0, 1], prompt)
        causal = torch.ones(patterns[0].shape[-2:], dtype=torch.bool).tril()
        assert bool((patterns[0].detach()[..., causal] > 0).all()), "the full-attention block masks a key"
        assert bool((patterns[1].detach()[..., causal] == 0).any()), "the indexer kept every key"

    def test_mlp_activation_and_neurons_of_the_dense_mlp(self, model):
        def body(m):
            mlp = m.layers[0].mlp
            return mlp.gate_up_proj.output, mlp.mlp_activation, mlp.mlp_neurons

        gate_up, activation, neurons = run(model, body)
        limit, alpha = model.config.swiglu_limit, model.config.swiglu_alpha
        gate, up = gate_up.chunk(2, dim=-1)
        gate, up = gate.clamp(max=limit), up.clamp(min=-limit, max=limit)
        assert torch.allclose(activation, gate * torch.sigmoid(gate * alpha), atol=1e-6)
        assert torch.allclose(neurons, (up + 1.0) * activation, atol=1e-6)

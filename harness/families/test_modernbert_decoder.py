"""ModernBERT decoder, end to end: a prediction head before the vocabulary projection, sliding and global blocks."""

import torch

from nnterp_harness.release import family
from nnterp_harness.sliding import SlidingWindowChecks
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("modernbert-decoder")


class TestModernBertDecoder(FamilySuite):
    CHECKS = (SlidingWindowChecks,)
    CHECKPOINT = "modernbert_decoder"
    FAMILY = FAMILY
    NATIVE = rows(
        "model", "layers", "embeddings.tok_embeddings", "final_norm", attn="attn", ln1="attn_norm", ln2="mlp_norm"
    )
    VOCAB_PROJECTION = "decoder"
    NEURONS_FROM_ACTIVATION = False

    def test_the_head_transforms_before_it_projects(self, model):
        def body(m):
            return m.final_norm_output, m.lm_head.output, m.lm_head_output, m.logits

        final, transformed, projected, logits = run(model, body)
        assert transformed.shape[-1] == model.hidden_size, "the native lm_head is not the stream-wide transform"
        assert torch.equal(projected, model.decoder._module(transformed)), "lm_head_output is not decoder(lm_head(...))"
        assert torch.equal(projected, logits)
        assert not torch.equal(final, transformed)

    def test_block_0_has_no_attention_norm(self, model):
        x, normed = run(model, lambda m: (m.layers[0].layer_input, m.layers[0].attention_norm_output))
        assert torch.equal(x, normed), "block 0's attention norm is not an identity"
        assert isinstance(model.layers[0].input_layernorm._module, torch.nn.Identity)

    def test_the_neurons_are_the_gated_activation(self, model):
        def body(m):
            mlp = m.layers[1].mlp
            return mlp.source.self_Wi_0.output, mlp.mlp_activation, mlp.mlp_neurons

        fused, activation, neurons = run(model, body)
        gate = fused.chunk(2, dim=-1)[1]
        assert torch.equal(neurons, activation * gate), "mlp_neurons is not act(input) * gate"

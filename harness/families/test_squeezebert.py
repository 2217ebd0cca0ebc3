"""SqueezeBERT (`squeezebert`), end to end: post-LN blocks of grouped 1x1 convolutions on a channels-first stream."""

import torch

from nnterp.families.squeezebert import _OUTPUT_NORM
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("squeezebert")


class TestSqueezeBert(FamilySuite):
    CHECKPOINT = "squeezebert"
    FAMILY = FAMILY
    NATIVE = rows(
        "transformer",
        "encoder.layers",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="post_attention.layernorm",
        mlp=None,
        head="cls",
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = _OUTPUT_NORM
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.predictions.decoder"
    STANDARD_EMBEDDINGS = True

    def native(self, value):
        # Every block holds the stream channels-first, and the block and the attention return dicts.
        if isinstance(value, dict):
            value = next(iter(value.values()))
        return value.transpose(1, 2)

    def test_regrouping_moves_registrations_only(self, model, raw_model):
        # The block still calls `intermediate` and `output` by their old names, and every parameter is kept, once.
        block = model.layers[0]._module
        assert block.intermediate is block.mlp.intermediate and block.output is block.mlp.ffn_output
        assert not {"intermediate", "output"} & set(block._modules), "a moved module is still registered on the block"
        ours = sorted(p.numel() for p in model._module.parameters())
        assert ours == sorted(p.numel() for p in raw_model._module.parameters())
        assert len(list(model._module.parameters())) == len(dict(model._module.named_parameters()))

    def test_feed_forward_boundaries_are_its_modules(self, model):
        # The container is never called: its input is `intermediate`'s and its output `ffn_output`'s.
        def body(m):
            mlp = m.layers[0].mlp
            return mlp.input, mlp.intermediate.input, mlp.output, mlp.ffn_output.output, m.layers[0].output

        entering, first, leaving, last, block_out = run(model, body)
        assert torch.equal(entering, first) and torch.equal(leaving, last)
        assert torch.equal(leaving, block_out["feature_map"]), "the block does not return the MLP path's output"

    def test_values_are_the_channels_first_tensors_transposed(self, model):
        def body(m):
            b = m.layers[0]
            return b.input, b.layer_input, b.mlp.act_fn.output, b.mlp.mlp_activation

        held_in, served_in, held_act, served_act = run(model, body)
        assert held_in.shape[1] == model.hidden_size and served_in.shape[-1] == model.hidden_size
        assert torch.equal(served_in, held_in.transpose(1, 2))
        assert held_act.shape[1] == model.layers[0].mlp.intermediate_size == model.config.intermediate_size
        assert torch.equal(served_act, held_act.transpose(1, 2))

    def test_in_place_edits_land(self, model):
        # Each value is a transposed view of the tensor the forward holds, so an in-place edit reaches the model.
        def body(m):
            b0, b1 = m.layers[0], m.layers[1]
            b0.layer_input[:, 1] = 0
            attention_in = b0.self_attn.input[:, :, 1].clone()
            b0.self_attn.attention_premix[:, 1] = 0
            projected_in = b0.post_attention.conv1d.input[:, :, 1].clone()
            b0.mlp_norm_output[:, 2] = 0
            mlp_in = b0.mlp.input[:, :, 2].clone()
            b0.mlp.mlp_activation[:, 3] = 0
            down_in = b0.mlp.down_proj.input[:, :, 3].clone()
            b0.layer_output[:, 1] = 0
            next_in = b1.input[:, :, 1].clone()
            return attention_in, projected_in, mlp_in, down_in, next_in

        for name, tensor in zip(
            ("layer_input", "attention_premix", "mlp_norm_output", "mlp_activation", "layer_output"), run(model, body)
        ):
            assert float(tensor.abs().max()) == 0.0, f"an in-place edit of {name} did not reach the model"

    def test_stream_entering_block_zero_is_the_normed_embedding_sum(self, model):
        def body(m):
            return m.token_embeddings, m.transformer.embeddings.output, m.layers[0].layer_input

        tokens, summed, entering = run(model, body)
        assert torch.equal(summed, entering)
        assert not torch.equal(tokens, entering), "block 0 reads the normed sum, not the token table"

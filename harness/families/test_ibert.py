"""I-BERT (`ibert`), end to end: RoBERTa's post-LN encoder of quantizable modules, quantization off."""

from types import SimpleNamespace

import pytest
import torch

from nnterp import StandardizedTransformer, Unavailable
from nnterp.components.bert_block import OUTPUT_NORM
from nnterp_harness.encoder import MASKED_BATCH
from nnterp_harness.family import FamilyContract
from nnterp_harness.helpers import PROMPT
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("ibert")


class TestIBert(FamilySuite):
    CHECKPOINT = "ibert"
    FAMILY = FAMILY
    NATIVE = rows(
        "ibert",
        "encoder.layer",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="attention.self_output.LayerNorm",
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = OUTPUT_NORM
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.decoder"
    PAIRED = True

    def test_checkpoint_is_not_quantized(self, model):
        # Every module computes its float result and returns no scaling factor.
        assert model.config.quant_mode is False
        ids = model.tokenizer("hello world", return_tensors="pt")["input_ids"]
        embedded, scale = model.embed_tokens(ids)
        assert scale is None and embedded.shape == (*ids.shape, model.hidden_size)

    def test_regrouping_moves_registrations_only(self, model, raw_model):
        # The attention still calls its output module by its old name, the block its feed-forward path through mlp,
        # and every parameter is kept, once.
        block = model.layers[0]._module
        assert block.attention.output is block.attention.self_output
        assert block.feed_forward_chunk is block.mlp
        ours = sorted(p.numel() for p in model._module.parameters())
        assert ours == sorted(p.numel() for p in raw_model._module.parameters())
        assert len(list(model._module.parameters())) == len(dict(model._module.named_parameters()))

    def test_regrouped_forward_is_the_models(self, model, raw_model):
        ours = run(model, lambda m: m.logits)
        raw = run(raw_model, lambda m: m.output.logits)
        assert torch.equal(ours, raw), "the regrouped blocks compute other logits than transformers' blocks"

    def test_paired_values_serve_the_tensor(self, model):
        # The norm and the activation return (tensor, None): the values are the tensors.
        def body(m):
            block = m.layers[0]
            return (
                block.mlp_norm_output,
                block.post_attention_layernorm.output,
                block.mlp.mlp_activation,
                block.mlp.act_fn.output,
            )

        normed, norm_pair, activation, act_pair = run(model, body)
        assert norm_pair[1] is None and act_pair[1] is None
        assert torch.equal(normed, norm_pair[0]) and torch.equal(activation, act_pair[0])

    def test_quantized_mlp_input_is_unavailable(self, model, checkpoint):
        # Quantized, the MLP reads the norm's output requantized: mlp_norm_output says so, the rest is served.
        assert model.support(layer=0)["mlp_norm_output"] is None
        quantized = StandardizedTransformer(str(checkpoint), quant_mode=True)
        assert quantized.layers[0]._module.quant_mode is True
        assert "quant_mode=True" in quantized.support(layer=0)["mlp_norm_output"]
        with pytest.raises(Unavailable, match="requantized"):
            with quantized.trace(PROMPT):
                quantized.layers[0].mlp_norm_output.save()

        def body(m):
            return m.layers[0].mlp_input, m.layers[0].layer_output

        entering, leaving = run(quantized, body)
        assert entering.shape == leaving.shape == (1, entering.shape[1], quantized.hidden_size)

    def test_unpair_takes_only_pairs(self):
        # The suite compares a pair's tensor here; a tuple that is no pair fails, and other families compare as is.
        tensor, scale = torch.ones(1, 2, 3), torch.ones(1)
        assert self.unpair(tensor) is tensor
        assert self.unpair((tensor, None)) is tensor and self.unpair((tensor, scale)) is tensor
        assert self.unpair(((tensor, scale), (None, None))) is tensor
        with pytest.raises(AssertionError, match="3-tuple"):
            self.unpair((tensor, None, None))
        with pytest.raises(AssertionError, match="holds a NoneType"):
            self.unpair((None, scale))
        pair = (tensor, None)
        assert FamilyContract.unpair(SimpleNamespace(PAIRED=False), pair) is pair

    def test_stream_entering_block_zero_is_the_normed_embedding_sum(self, model):
        def body(m):
            return m.token_embeddings, m.ibert.embeddings.output, m.layers[0].layer_input

        tokens, (summed, _), entering = run(model, body)
        assert torch.equal(summed, entering)
        assert not torch.equal(tokens, entering), "block 0 reads the normed sum, not the token table"

    def test_positions_count_from_the_padding_id_plus_one(self, model):
        pad = model.config.pad_token_id

        def body(m):
            return m.attention_mask, m.ibert.embeddings.position_embeddings.input

        mask, positions = run(model, body, MASKED_BATCH)
        expected = (mask.cumsum(-1) * mask + pad).long()
        assert torch.equal(positions, expected), positions.tolist()
        assert int(positions[0, 0]) == pad + 1

"""X-MOD (`xmod`), end to end: RoBERTa's post-LN blocks with a per-language adapter after the MLP's add and norm."""

import pytest
import torch

from nnterp import StandardizedTransformer
from nnterp.components.bert_block import OUTPUT_NORM
from nnterp.families import UnsupportedFamily
from nnterp_harness import locate
from nnterp_harness.helpers import with_config
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import PROMPT, FamilySuite, rows, run

FAMILY = family("xmod")


def chain(model, prompt=PROMPT, **kwargs):
    """Per block, in forward order: the post-LN terms, then the norm's two calls and the adapter's term between them.

    The block's output norm runs twice and its feed-forward dropout twice (the MLP's
    term, then the adapter's); the second calls are read in the trace's second
    iteration over those modules.
    """
    count = len(model.layers)
    read = []
    with model.trace(prompt, **kwargs) as tracer:
        for i in range(count):
            b = model.layers[i]
            ffn = b.mlp.ffn_output
            terms = [b.layer_input, b.self_attn.attention_output, b.layer_mid, b.mlp_norm_output, b.mlp.mlp_output]
            terms += [ffn.LayerNorm.input, ffn.LayerNorm.output]
            for _ in tracer.iter[1]:
                # A copy: the adapter's add lands in place on its dropout's output.
                terms += [ffn.dropout.output.clone()]
            terms += [b.mlp.output]
            for _ in tracer.iter[1]:
                terms += [ffn.LayerNorm.input, ffn.LayerNorm.output]
            terms += [b.layer_output]
            read.append(terms)
    return read


class TestXmod(FamilySuite):
    CHECKPOINT = "xmod"
    FAMILY = FAMILY
    NATIVE = rows(
        "roberta",
        "encoder.layer",
        "embeddings.word_embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="attention.self_output.LayerNorm",
        head="lm_head",
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = OUTPUT_NORM
    PLAIN_UP_PROJ = True
    VOCAB_PROJECTION = "lm_head.decoder"

    def test_contribution_identity(self, model):
        # X-MOD's own chain, every step exact: the attention's add, the MLP's add entering the norm's first call,
        # the adapter's add on that norm, and the norm's second call giving layer_output. The post-LN form's last
        # step (layer_output is the norm of mlp_norm_output + mlp_output) does not hold here: the adapter comes
        # between.
        for index, terms in enumerate(chain(model)):
            x, attn, mid, normed, mlp, first_in, first_out, adapter, summed, last_in, last_out, out = terms
            assert torch.equal(mid, x + attn), f"block {index}: layer_mid is not layer_input + attention_output"
            assert not torch.equal(normed, mid), f"block {index}: no norm follows the attention add"
            assert torch.equal(first_in, normed + mlp), (
                f"block {index}: the norm's first call does not read mlp_norm_output + mlp_output"
            )
            assert float(adapter.abs().max()) > 0, f"block {index}: the adapter adds nothing"
            assert torch.equal(summed, first_out + adapter), (
                f"block {index}: the mlp container's output is not the first norm plus the adapter's term"
            )
            assert torch.equal(last_in, summed), f"block {index}: the norm's second call does not read the mlp's output"
            assert torch.equal(last_out, out), f"block {index}: layer_output is not the norm's second call"
            assert not torch.equal(first_out, out), f"block {index}: the norm's first call is the block's output"

    def test_lang_ids_pick_the_adapter(self, model):
        # lang_ids go to the forward with token ids; the adapter acts after mlp_output, so only what follows moves.
        ids = model.tokenizer(PROMPT, return_tensors="pt")["input_ids"]
        languages = list(model.config.languages)
        default = chain(model, ids)[0]
        english = chain(model, ids, lang_ids=torch.tensor([languages.index("en_XX")]))[0]
        german = chain(model, ids, lang_ids=torch.tensor([languages.index("de_DE")]))[0]
        assert model.config.default_language == "en_XX"
        assert all(torch.equal(a, b) for a, b in zip(default, english, strict=True))
        assert torch.equal(german[4], default[4]), "another language's adapter moved mlp_output"
        assert not torch.equal(german[7], default[7]), "another language ran the same adapter"
        assert not torch.equal(german[-1], default[-1])

    def test_regrouping_moves_registrations_only(self, model, raw_model):
        # The block reaches its output module's norm and adapters as before, and every parameter is kept, once.
        block = model.layers[0]._module
        assert block.output.LayerNorm is block.mlp.ffn_output.LayerNorm
        assert list(block.output.adapter_modules) == list(model.config.languages)
        assert block.attention.output is block.attention.self_output
        ours = sorted(p.numel() for p in model._module.parameters())
        assert ours == sorted(p.numel() for p in raw_model._module.parameters())
        assert len(list(model._module.parameters())) == len(dict(model._module.named_parameters()))

    def test_stream_entering_block_zero_is_the_normed_embedding_sum(self, model):
        def body(m):
            return m.token_embeddings, m.roberta.embeddings.output, m.layers[0].layer_input

        tokens, summed, entering = run(model, body)
        assert torch.equal(summed, entering)
        assert not torch.equal(tokens, entering), "block 0 reads the normed sum, not the token table"


def test_a_pre_norm_stack_is_refused(tmp_path_factory):
    path = with_config(locate.checkpoint_path("xmod"), tmp_path_factory.mktemp("xmod_pre_norm"), pre_norm=True)
    with pytest.raises(UnsupportedFamily, match=r"pre_norm=True"):
        StandardizedTransformer(str(path), dispatch=True, attn_implementation="eager")

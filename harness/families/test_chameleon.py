"""Chameleon, end to end: a pre-norm and a post-norm (`swin_norm`) checkpoint, each image read as code tokens."""

import pytest
import torch

from nnterp import StandardizedTransformer
from nnterp_harness import locate
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import PROMPT, FamilySuite, rows, run
from nnterp_harness.vision import IMAGE_TOKEN, QUESTION, image

skip_unless_known("chameleon")
FAMILY = family("chameleon")
#: A post-norm block's unavailable values.
POST_NORM_UNAVAILABLE = {"attention_norm_output": "post-norm block", "mlp_norm_output": "post-norm block"}


class ChameleonChecks:
    """The image enters as the embeddings of its VQ codes, at the image token positions.

    The processor may append its chat separator to a prompt: transformers 5.24 reads
    completion mode off the saved tokenizer, 5.20 always appends it, 5.17 only on a
    call argument.
    """

    def test_input_accessors(self, model):
        def body(m):
            return m.input_ids, torch.tensor(m.input_size), m.attention_mask

        ids, size, mask = run(model, body)
        processed = model.processor(text=PROMPT, return_tensors="pt")["input_ids"]
        tokens = model.tokenizer(PROMPT, return_tensors="pt")["input_ids"]
        assert torch.equal(ids.cpu(), processed), "input_ids are not the processor's tokens"
        assert torch.equal(processed[:, : tokens.shape[1]], tokens), "the prompt's tokens do not come first"
        tail = processed[0, tokens.shape[1] :].tolist()
        assert tail in ([], [model.tokenizer.sep_token_id]), tail
        assert tuple(size.tolist()) == tuple(ids.shape)
        assert tuple(mask.shape) == tuple(ids.shape)
        assert bool((mask == 1).all())

    @pytest.fixture(scope="class")
    @classmethod
    def wrapper(cls):
        path = locate.checkpoint_path(cls.CHECKPOINT)
        return StandardizedTransformer(str(path), task="image-text-to-text", dispatch=True)

    def test_image_positions_hold_code_embeddings(self, wrapper):
        box = []
        with wrapper.trace(f"{IMAGE_TOKEN}{QUESTION}", images=[image(0, 16)]):
            ids = wrapper.inputs[1]["input_ids"].save()
            first = wrapper.layers[0].layer_input.save()
            box.append((ids, first))
        ids, first = box[0]
        names = wrapper.config.vocabulary_map
        mask = ids == names[IMAGE_TOKEN]
        codes = sorted(value for name, value in names.items() if name.startswith("IMGIMG"))
        table = wrapper.embed_tokens._module.weight[codes]
        assert int(mask.sum()) == wrapper.processor.image_seq_length
        assert not {"vision", "projector"} & set(wrapper._aliases)
        for row in first[mask]:
            assert (row == table).all(-1).any(), "an image position holds no code's embedding"


#: The family suite's load: the wrapper, with its processor.
LOAD = {"task": "image-text-to-text"}


class TestChameleon(FamilySuite):
    CHECKS = (ChameleonChecks,)
    CHECKPOINT = "chameleon"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD


class TestChameleonSwin(FamilySuite):
    CHECKS = (ChameleonChecks,)
    CHECKPOINT = "chameleon_swin"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "norm", ln1=None, ln2=None)
    LOAD_KWARGS = LOAD
    EXPECTED_UNAVAILABLE = POST_NORM_UNAVAILABLE
    ATTENTION_NORM = None
    MLP_NORM = None

    def test_the_contributions_are_the_post_norms(self, model):
        def body(m):
            block = m.layers[0]
            return (
                block.self_attn.attention_output,
                block.input_layernorm.output,
                block.mlp.output,
                block.mlp.mlp_output,
                block.post_attention_layernorm.output,
            )

        attn, attn_norm, mlp_module, mlp, mlp_norm = run(model, body)
        assert torch.equal(attn, attn_norm)
        assert torch.equal(mlp, mlp_norm)
        assert not torch.equal(mlp, mlp_module), "the MLP's post-norm changes nothing on this checkpoint"

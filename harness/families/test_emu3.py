"""Emu3, end to end: each image read as VQ-VAE code tokens, under both tasks of one wrapper checkpoint.

`image-text-to-text` builds `Emu3ForConditionalGeneration` with its processor; the
default task builds `Emu3ForCausalLM`, which reads the wrapper's text weights only
through the family's `key_mapping`, so its logits are the wrapper's text-only logits.
"""

import torch

from nnterp import StandardizedTransformer
from nnterp_harness import locate
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import PROMPT, FamilySuite, rows, run
from nnterp_harness.vision import IMAGE_TOKEN, QUESTION, image

skip_unless_known("emu3")
FAMILY = family("emu3")
#: The image side the checkpoint's processor keeps: a 4x4 grid of codes.
SIDE = 32


def load(**kwargs):
    return StandardizedTransformer(str(locate.checkpoint_path("emu3")), dispatch=True, **kwargs)


class TestEmu3(FamilySuite):
    """The wrapper: the text stack under `model.text_model`, each image entering as the embeddings of its codes."""

    CHECKPOINT = "emu3"
    FAMILY = FAMILY
    NATIVE = rows("model.text_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text"}

    def test_input_accessors(self, model):
        # The processor writes the tokenizer's bos token ahead of every prompt.
        def body(m):
            return m.input_ids, torch.tensor(m.input_size), m.attention_mask

        ids, size, mask = run(model, body)
        tokens = model.tokenizer(PROMPT, return_tensors="pt")["input_ids"]
        bos = torch.tensor([[model.tokenizer.bos_token_id]])
        assert torch.equal(ids.cpu(), torch.cat([bos, tokens], dim=1)), "input_ids are not bos and the prompt's tokens"
        assert tuple(size.tolist()) == tuple(ids.shape)
        assert tuple(mask.shape) == tuple(ids.shape)
        assert bool((mask == 1).all())

    def test_image_positions_hold_code_and_row_end_embeddings(self, model):
        box = []
        with model.trace(f"{IMAGE_TOKEN}{QUESTION}", images=[image(0, SIDE)]):
            ids = model.inputs[1]["input_ids"].save()
            first = model.layers[0].layer_input.save()
            box.append((ids, first))
        ids, first = box[0]
        mapping = model._module.model.vocabulary_mapping
        mask = ids == mapping.image_token_id
        side = SIDE // model._module.model.vqmodel.vision_spatial_factor
        table = model.embed_tokens._module.weight
        grid = first[mask].reshape(side, side + 1, -1)
        assert not {"vision", "projector"} & set(model._aliases)
        assert torch.equal(grid[:, side], table[mapping.eol_token_id].expand(side, -1)), "a row does not end in eol"
        codes = table[mapping.image_tokens]
        seen = set()
        for row in grid[:, :side].reshape(side * side, -1):
            hits = (row == codes).all(-1).nonzero()
            assert len(hits) == 1, "an image position holds no code's embedding"
            seen.add(int(hits[0]))
        assert len(seen) > 1, "every image position holds one code: the VQ-VAE is degenerate"

    def test_two_images_give_two_code_runs(self, model):
        box = []
        for seed in (0, 1):
            with model.trace(f"{IMAGE_TOKEN}{QUESTION}", images=[image(seed, SIDE)]):
                box.append(model.logits.save())
        assert not torch.equal(box[0], box[1]), "two images give the same logits"

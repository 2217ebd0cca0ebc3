"""Apertus 1.5, end to end: each image read as VQ code tokens embedded by the text model, on Apertus's block.

The wrapper has no tower of blocks and no projector, so the family names no `vision`:
the text stack runs `FamilySuite` loaded with `task="image-text-to-text"`, and the image
is checked where it enters, as the embeddings of the codes the VQ tokenizer picks.
"""

import torch

from nnterp import StandardizedTransformer
from nnterp_harness import locate
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows, run
from nnterp_harness.vision import QUESTION, image, prompt_for

skip_unless_known("apertus1p5")
FAMILY = family("apertus1p5")
from nnterp_harness.entries.apertus1p5 import (  # noqa: E402 - after the skip
    DOWNSAMPLE,
    IMAGE_CODES,
    IMAGE_TOKEN_OFFSET,
    SIDE,
    apertus1p5_processor,
)

#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
PROCESSOR = apertus1p5_processor()


def image_run(model, seeds):
    """One run over the images `seeds`: the input ids, the processor's pixels and sizes, block 0's input, the logits."""
    box = []
    with model.trace(prompt_for(model, len(seeds)), images=[image(seed, SIDE) for seed in seeds]):
        inputs = model.inputs[1]
        box.append(
            (
                inputs["input_ids"].save(),
                inputs["pixel_values"].save(),
                inputs["image_sizes"].save(),
                model.layers[0].layer_input.save(),
                model.logits.save(),
            )
        )
    return box[0]


class TestApertus1p5(FamilySuite):
    """The wrapper's text stack under `model.language_model`, each image entering as the embeddings of its codes."""

    CHECKPOINT = "apertus1p5"
    FAMILY = FAMILY
    NATIVE = rows(
        "model.language_model", "layers", "embed_tokens", "norm", ln1="attention_layernorm", ln2="feedforward_layernorm"
    )
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
    # The MLP is ungated but names its input projection `up_proj`: the neurons are the activation itself.
    NEURONS_FROM_ACTIVATION = False

    def test_plain_mlp_neurons_are_the_activation(self, model):
        def body(m):
            mlp = m.layers[0].mlp
            return mlp.mlp_activation, mlp.mlp_neurons

        activation, neurons = run(model, body)
        assert torch.equal(neurons, activation), "the ungated MLP's neurons are not its activation"

    def test_no_tower_is_named(self, model):
        assert not {"vision", "projector"} & set(model._aliases)
        assert not [name for name in model.support() if name.startswith("vision")]

    def test_image_positions_hold_the_embeddings_of_the_image_codes(self, model):
        ids, pixels, sizes, first, _ = image_run(model, (0,))
        mask = ids == model.config.image_token_id
        side = SIDE // DOWNSAMPLE
        assert int(mask.sum()) == side * side
        # The codes the tokenizer picks for this image, computed apart from the trace, offset into the vocabulary.
        with torch.no_grad():
            (codes,) = model._module.model.get_image_tokens(pixels, sizes)
        assert bool(((codes >= IMAGE_TOKEN_OFFSET) & (codes < IMAGE_TOKEN_OFFSET + IMAGE_CODES)).all())
        assert len(set(codes.tolist())) > 1, "every image position holds one code: the VQ tokenizer is degenerate"
        table = model.embed_tokens._module.weight
        assert torch.equal(first[mask], table[codes])
        assert torch.equal(first[~mask], table[ids[~mask]])

    def test_the_image_codes_follow_the_image(self, model):
        one, two = image_run(model, (0,)), image_run(model, (1,))
        assert torch.equal(one[0], two[0]), "two images of one size give different placeholders"
        assert not torch.equal(one[3], two[3]), "two images give the same codes"
        assert not torch.equal(one[4], two[4]), "two images give the same logits"

    def test_two_images_in_one_invoke(self, model):
        ids, pixels, sizes, first, _ = image_run(model, (0, 1))
        mask = ids == model.config.image_token_id
        assert pixels.shape[0] == 2 and int(mask.sum()) == 2 * (SIDE // DOWNSAMPLE) ** 2
        with torch.no_grad():
            codes = torch.cat(model._module.model.get_image_tokens(pixels, sizes))
        assert torch.equal(first[mask], model.embed_tokens._module.weight[codes])

    def test_writing_the_image_positions_lands(self, model):
        clean = image_run(model, (0,))
        mask = clean[0] == model.config.image_token_id
        box = []
        with model.trace(prompt_for(model), images=[image(0, SIDE)]):
            model.layers[0].layer_input[mask] = 0
            box.append((model.layers[0].attention_norm_output.save(), model.logits.save()))
        normed, logits = box[0]
        normed = normed.detach()
        assert float(normed[mask].abs().max()) == 0.0 and bool(normed[~mask].abs().amax(-1).gt(0).all())
        assert not torch.equal(logits, clean[4])


class TestApertus1p5DefaultTask:
    """The default task: the wrapper has no text-only class, so the load builds it with no processor."""

    def test_the_default_task_builds_the_wrapper_with_no_processor(self):
        text = StandardizedTransformer(str(locate.checkpoint_path("apertus1p5")), dispatch=True)
        assert type(text._module).__name__ == "Apertus1p5ForConditionalGeneration"
        assert text.processor is None
        assert not {"vision", "projector"} & set(text._aliases)
        with text.trace(QUESTION):
            logits = text.logits.save()
        assert logits.shape[-1] == text._module.config.text_config.vocab_size

"""Image pathway: where an image enters the text model, on the pinned llava wrapper (SigLIP on Qwen2).

The recipe of the spec's "Image pathway" tutorial: the image as the text model sees
it, edits inside the tower, one image's features in another's run, the attention onto
the image, and the image rows of a text block. The tiny checkpoint is random, so each
step is held to what it must do to the logits, not to a color answer.
"""

import pytest
import torch


@pytest.fixture(scope="module")
def wrapper(path):
    from nnterp import StandardizedTransformer

    return StandardizedTransformer(path("llava"), task="image-text-to-text", dispatch=True, attn_implementation="eager")


def square(color):
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (32, 32), "white")
    ImageDraw.Draw(image).rectangle([8, 8, 24, 24], fill=color)
    return image


@pytest.fixture(scope="module")
def prompt(wrapper):
    messages = [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "The Eiffel Tower is in"}]}]
    return wrapper.processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)


def probs(model, prompt, image, edit=None):
    box = []
    with torch.no_grad(), model.trace(prompt, images=[image]):
        if edit is not None:
            edit(model)
        box.append(model.next_token_probs.save())
    return box[0]


def test_the_image_as_the_text_model_sees_it(wrapper, prompt):
    with torch.no_grad(), wrapper.trace(prompt, images=[square("red")]):
        mask = wrapper.vision.image_token_mask.save()
        features = wrapper.vision.image_features.save()
        first = wrapper.layers[0].layer_input.save()
        clean = wrapper.next_token_probs.save()
    assert torch.equal(first[mask], features)

    def zero(m):
        m.vision.image_features[:] = 0

    assert not torch.allclose(probs(wrapper, prompt, square("red"), zero), clean)


def test_an_edit_the_projector_never_reads_changes_nothing(wrapper, prompt):
    clean = probs(wrapper, prompt, square("red"))

    def zero_tower(m):
        m.vision.tower_output[:] = 0

    def zero_last_block(m):
        m.vision.layers[-1].layer_output[:] = 0

    assert torch.equal(probs(wrapper, prompt, square("red"), zero_tower), clean)
    assert not torch.allclose(probs(wrapper, prompt, square("red"), zero_last_block), clean)


def test_one_images_features_in_another_images_run(wrapper, prompt):
    box = []
    with torch.no_grad(), wrapper.trace(prompt, images=[square("red")]):
        box.append(wrapper.vision.image_features.save())
        box.append(wrapper.next_token_probs.save())
    red_features, red = box
    blue = probs(wrapper, prompt, square("blue"))
    assert not torch.allclose(red, blue)

    def patch(m):
        m.vision.image_features[:] = red_features

    assert torch.allclose(probs(wrapper, prompt, square("blue"), patch), red, atol=1e-6)


def test_attention_onto_the_image(wrapper, prompt):
    masses = []  # made outside the trace
    with torch.no_grad(), wrapper.trace(prompt, images=[square("red")]):
        mask = wrapper.vision.image_token_mask
        for i in range(wrapper.num_layers):
            pattern = wrapper.layers[i].self_attn.attention_probabilities
            masses.append(pattern[0, :, -1, mask[0]].sum(-1).save())
    masses = torch.stack(masses)  # [layers, num_heads]
    assert masses.shape == (wrapper.num_layers, wrapper.num_heads)
    assert bool(((masses > 0) & (masses < 1)).all())


def test_the_image_rows_of_a_text_block(wrapper, prompt):
    clean = probs(wrapper, prompt, square("red"))
    box = []
    with torch.no_grad(), wrapper.trace(prompt, images=[square("red")]):
        mask = wrapper.vision.image_token_mask.save()
        wrapper.layers[0].layer_output[mask] = 0  # the image rows leaving block 0; the text rows untouched
        box.append(wrapper.layers[0].layer_output.save())
        box.append(wrapper.next_token_probs.save())
    out, edited = box
    assert not torch.allclose(edited, clean)
    assert torch.equal(out[0].abs().sum(-1) == 0, mask[0])

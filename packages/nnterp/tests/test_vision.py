"""The vision components on the pinned wrappers: llava (SigLIP on Qwen2), qwen2_vl (packed Qwen ViT), gemma3, and
qwen3_5 (packed Qwen3 ViT on a gated-DeltaNet hybrid)."""

import numpy as np
import pytest
import torch

import nnterp
from nnterp import StandardizedTransformer, Unavailable
from nnterp.components import ImageFeatures, ImageTokenMask, Patches
from nnterp.components.vision import NO_PROJECTOR, PER_IMAGE, TEXT_ONLY, scatter_call, scatter_host

WRAPPERS = ("llava", "qwen2_vl", "gemma3", "qwen3_5")
#: The packed-ViT wrappers, whose processors are built from their saved parts, by processor class.
PACKED = {"qwen2_vl": "Qwen2VLProcessor", "qwen3_5": "Qwen3VLProcessor"}


def processor_for(name):
    if name not in PACKED:
        return {}
    from nnterp_harness.vision import processor_of

    return {"processor": processor_of(name, PACKED[name])}


@pytest.fixture(scope="module", params=WRAPPERS)
def wrapper(request, path):
    name = request.param
    kwargs = {"task": "image-text-to-text", "dispatch": True, "attn_implementation": "eager", **processor_for(name)}
    return name, StandardizedTransformer(path(name), **kwargs)


def picture(seed):
    from PIL import Image

    return Image.fromarray((np.random.RandomState(seed).rand(32, 32, 3) * 255).astype("uint8"))


def prompt(model, images=1):
    content = [{"type": "image"}] * images + [{"type": "text", "text": "The Eiffel Tower is in"}]
    return model.processor.apply_chat_template(
        [{"role": "user", "content": content}], add_generation_prompt=True, tokenize=False
    )


def test_layouts_are_exported():
    assert Patches.dim_str.split() == ["images", "patches", "vision_hidden_size"]
    assert ImageTokenMask.dim_str.split() == ["batch", "seq"]
    assert ImageFeatures.dim_str.split() == ["image_tokens", "hidden_size"]
    assert nnterp.components.Vision.image_features.layout is ImageFeatures


def test_the_family_is_the_wrappers_own(wrapper):
    name, model = wrapper
    assert model.family.__name__ == f"nnterp.families.{name}"
    assert model.tokenizer is model.processor.tokenizer


def test_features_are_read_at_the_scatter(wrapper):
    _, model = wrapper
    host, envoy = scatter_host(model)
    assert isinstance(envoy, nnterp.components.ImageScatter) and host == "model"
    assert scatter_call(model) == ("model.source.inputs_embeds_masked_scatter_0", 1)
    box = []
    with model.trace(prompt(model), images=[picture(0)]):
        mask = model.vision.image_token_mask.save()
        features = model.vision.image_features.save()
        first = model.layers[0].layer_input.save()
        box.append((mask, features, first))
    mask, features, first = box[0]
    assert torch.equal(first[mask], features)


def test_support_and_sizes(wrapper):
    name, model = wrapper
    rows = model.support()
    assert rows["vision.image_features"] is None and rows["vision.layer_output"] is None
    pattern = rows["vision.self_attn.attention_probabilities"]
    if name in PACKED:
        assert all(reason == PER_IMAGE for reason in pattern.values())
        with pytest.raises(Unavailable, match="own resolution"):
            model.vision.image_size  # noqa: B018
    else:
        assert pattern is None
        assert model.vision.image_size == 32
    assert model.vision.num_layers == 2 and model.vision.vision_hidden_size == (16 if name == "qwen3_5" else 32)


@pytest.mark.parametrize("dispatch", [False, True])
def test_a_text_only_load_serves_no_image(path, dispatch):
    # Llava has no causal-LM class: the lazy load builds the wrapper the dispatched one falls back to.
    model = StandardizedTransformer(path("llava"), dispatch=dispatch)
    assert model.vision.no_images() == TEXT_ONLY
    assert model.vision.support() == {}
    assert not any(name.startswith("vision.") for name in model.support())


@pytest.mark.parametrize("name", ["llava", "mistral3", "minicpmv4_6", "gemma3"])
def test_the_lazy_and_the_dispatched_default_task_loads_of_a_wrapper_agree(path, name):
    from transformers import AutoModelForCausalLM

    registered = dict(getattr(AutoModelForCausalLM._model_mapping, "_extra_content", {}))
    loads = [StandardizedTransformer(path(name)), StandardizedTransformer(path(name), dispatch=True)]
    outputs = []
    for model in loads:
        with model.trace("The Eiffel Tower is in"):
            outputs.append(model.logits.save())
    assert type(loads[0]._module) is type(loads[1]._module)
    assert all(model.processor is None for model in loads)
    assert torch.equal(outputs[0], outputs[1])
    # The causal-LM auto class lends the wrapper to the meta build only.
    assert dict(getattr(AutoModelForCausalLM._model_mapping, "_extra_content", {})) == registered


def test_a_wrapper_runs_a_prompt_without_images_on_its_text_model(path):
    model = StandardizedTransformer(path("llava"), task="image-text-to-text")
    with model.trace("The Eiffel Tower is in"):
        mask = model.vision.image_token_mask.save()
        out = model.layers[-1].layer_output.save()
        logits = model.logits.save()
    assert not mask.any()
    assert torch.allclose(model.project_on_vocab(out), logits, atol=1e-5)


def test_a_family_without_a_projector_serves_no_image(path):
    from nnterp.families import llava

    rename = {key: value for key, value in llava.RENAME.items() if value != "projector"}

    class Family:
        RENAME = rename
        ENVOYS = llava.ENVOYS

    model = StandardizedTransformer(path("llava"), family=Family, task="image-text-to-text", dispatch=True)
    assert model.vision.no_images() == NO_PROJECTOR
    with pytest.raises(Unavailable, match="projector"):
        with model.trace(prompt(model), images=[picture(0)]):
            model.vision.image_features.save()


def _sourced(module):
    from nnsight.intervention.source import STATE

    state = module.__dict__.get(STATE)
    return state is not None and state.sourced


@pytest.mark.parametrize("projector", [True, False])
def test_a_root_scatter_instruments_the_roots_forward_at_build_and_dispatch(path, projector):
    from nnterp.families import llava

    class Family:
        RENAME = {key: value for key, value in llava.RENAME.items() if projector or value != "projector"}
        ENVOYS = llava.ENVOYS
        ROOT_SCATTER = True

    model = StandardizedTransformer(path("llava"), family=Family, task="image-text-to-text")
    assert _sourced(model._module) is projector
    meta = model._module
    model.dispatch()
    assert model._module is not meta
    assert _sourced(model._module) is projector
    assert scatter_host(model) == ("", model)
    assert scatter_call(model) == ("source.inputs_embeds_masked_scatter_0", 1)


def test_a_child_scatter_leaves_the_roots_forward_plain(path):
    model = StandardizedTransformer(path("llava"), task="image-text-to-text", dispatch=True)
    assert not _sourced(model._module)
    assert _sourced(model.model._module)

"""The vision side of the harness: tiny wrapper processors, and `VisionSuite`, the contract of a wrapper's tower.

A wrapper checkpoint is the shared tokenizer with the image token(s) added, a tiny
text model, a shrunk tower, and a processor built offline from its classes with small
image sizes. Its test file runs `VisionSuite` on the tower and `FamilySuite`, loaded
with `LOAD_KWARGS = {"task": "image-text-to-text"}`, on the text stack.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import nnsight  # noqa: F401  - before any transformers modeling module
import numpy as np
import pytest
import torch

import nnterp
from nnterp import StandardizedTransformer, Unavailable, axis_size
from nnterp.components.vision import PER_IMAGE, TEXT_ONLY, Vision, VisionAttention, VisionLayer, VisionMlp, scatter_call

from . import locate
from .contracts import ChoosesChecks
from .helpers import moved, ulp_close
from .tokenizer import VOCAB_SIZE

#: The image placeholder most processors expand.
IMAGE_TOKEN = "<image>"
#: The question every wrapper test asks about its image.
QUESTION = "The Eiffel Tower is in"

#: The tokens added after the shared vocabulary, in id order; a wrapper uses those it needs.
ADDED_TOKENS = (
    IMAGE_TOKEN,
    "<|vision_start|>",
    "<|vision_end|>",
    "<|image_pad|>",
    "<|video_pad|>",
    "<start_of_image>",
    "<image_soft_token>",
    "<end_of_image>",
)
#: The text vocabulary of a wrapper: the shared tokenizer plus its added image tokens.
WRAPPED_VOCAB = VOCAB_SIZE + len(ADDED_TOKENS)
#: The most a wrapper's vocabulary may hold: some processors add tokens of their own.
WRAPPED_VOCAB_LIMIT = WRAPPED_VOCAB + 8

#: A SigLIP tower shrunk to two blocks over a 32-pixel image of 8-pixel patches.
SIGLIP_TOWER = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "image_size": 32,
    "patch_size": 8,
    "vision_use_head": False,
    "attention_dropout": 0.0,
}

#: The Qwen ViT shrunk to two blocks of width 32 over 8-pixel patches, merged 2x2.
QWEN_VIT = {
    "depth": 2,
    "embed_dim": 32,
    "num_heads": 2,
    "mlp_ratio": 2,
    "patch_size": 8,
    "spatial_merge_size": 2,
    "temporal_patch_size": 2,
    "in_channels": 3,
}


def with_image_tokens(tokenizer: Any, **named: str) -> Any:
    """The shared tokenizer with `ADDED_TOKENS` appended as special tokens (ids from `VOCAB_SIZE` on).

    `named` gives some of them the attribute names a processor reads off its tokenizer
    (`image_token="<|image_pad|>"`).
    """
    tokenizer.add_special_tokens({"additional_special_tokens": list(ADDED_TOKENS)})
    if named:
        # Saved into the tokenizer's config as named special tokens, so a reload has the attributes too.
        tokenizer._set_model_specific_special_tokens(special_tokens=named)
    return tokenizer


@contextmanager
def _video_slot_optional() -> Iterator[None]:
    """Let a processor class take `video_processor=None`.

    Without torchvision transformers has no video processor class, and a processor
    with a video slot (Qwen2-VL's) refuses to be built at all; images need none.
    """
    from transformers import ProcessorMixin

    check = ProcessorMixin.check_argument_for_proper_class

    def lenient(self: Any, name: str, argument: Any) -> Any:
        return None if name == "video_processor" and argument is None else check(self, name, argument)

    ProcessorMixin.check_argument_for_proper_class = lenient
    try:
        yield
    finally:
        ProcessorMixin.check_argument_for_proper_class = check


class ProcessorParts:
    """A processor's tokenizer, image processor and chat template, saved as its parts.

    A checkpoint of a wrapper whose processor has a video slot saves these, so the
    processor loads with `AutoProcessor` where torchvision is installed, and
    `processor_of` builds it from them where it is not.
    """

    def __init__(self, tokenizer: Any, image_processor: Any, template: str, **settings: Any) -> None:
        self.tokenizer = tokenizer
        self.image_processor = image_processor
        self.chat_template = template
        #: The processor's own arguments (a `processor_class` among them), saved as `processor_config.json`.
        self.settings = settings

    def save_pretrained(self, path: Any) -> None:
        import json

        self.tokenizer.save_pretrained(path)
        self.image_processor.save_pretrained(path)
        (Path(path) / "chat_template.jinja").write_text(self.chat_template, encoding="utf-8")
        if self.settings:
            text = json.dumps(self.settings, indent=2, sort_keys=True) + "\n"
            (Path(path) / "processor_config.json").write_text(text, encoding="utf-8")


def _pil_class(path: Path, name: str) -> Any:
    """The PIL image processor `name` from its model's module, or `None` (the top-level name may be a stand-in)."""
    import importlib
    import json

    model_type = json.loads((path / "config.json").read_text(encoding="utf-8"))["model_type"]
    for owner in (model_type, *_PIL_MODULES.get(model_type, ())):
        try:
            module = importlib.import_module(f"transformers.models.{owner}.image_processing_pil_{owner}")
        except ImportError:
            continue
        if hasattr(module, name):
            return getattr(module, name)
    return None


#: Wrappers whose image processor lives in another model's module.
_PIL_MODULES = {
    "cosmos3_omni": ("qwen2_vl",),
    "dots3_note": ("qwen2_vl",),
    "exaone4_5": ("qwen2_vl",),
    "glm4v_moe": ("glm4v",),
    "hyperclovax_vision_v2": ("qwen2_vl",),
    "glm_ocr": ("glm46v",),
    "lfm3_vl": ("qwen2_vl",),
    "minicpmv4_7": ("minicpmv4_6",),
    "minimax_m3_vl": ("qwen2_vl",),
    "qianfan_ocr": ("got_ocr2",),
    "qwen2_5_vl": ("qwen2_vl",),
    "qwen3_5": ("qwen2_vl",),
    "qwen3_5_moe": ("qwen2_vl",),
    "qwen3_vl": ("qwen2_vl",),
    "qwen3_vl_moe": ("qwen2_vl",),
    "qwen4_exp": ("qwen2_vl",),
}


def processor_of(checkpoint: str, processor_class: str, video_slot: bool = True, **extra: Any) -> Any:
    """The processor `processor_class` of a wrapper checkpoint, built from its saved parts.

    For a processor with a video slot (`video_slot`), saved as `ProcessorParts`, the
    slot is left empty. The image processor is the saved class's PIL variant where the
    release has one: an older release's auto class and base class ask for torchvision.
    The processor's own settings come from `processor_config.json` where it exists, and
    `extra` gives parts the checkpoint does not save (an audio `feature_extractor`).
    """
    import json

    import transformers
    from transformers import AutoTokenizer

    path = locate.checkpoint_path(checkpoint)
    settings: dict[str, Any] = {}
    if (path / "processor_config.json").is_file():
        settings = json.loads((path / "processor_config.json").read_text(encoding="utf-8"))
    images = settings.pop("image_processor", None)
    if images is None:
        images = json.loads((path / "preprocessor_config.json").read_text(encoding="utf-8"))
    saved = images["image_processor_type"].removesuffix("Pil")
    image_class = _pil_class(path, f"{saved}Pil") or getattr(transformers, saved)
    image_processor = image_class(**{key: value for key, value in images.items() if key != "image_processor_type"})
    own = {key: value for key, value in settings.items() if key not in ("processor_class", "video_processor")}
    parts = {"image_processor": image_processor, "tokenizer": AutoTokenizer.from_pretrained(path), **own, **extra}
    if (path / "chat_template.jinja").is_file():
        parts["chat_template"] = (path / "chat_template.jinja").read_text(encoding="utf-8")
    if not video_slot:
        return getattr(transformers, processor_class)(**parts)
    with _video_slot_optional():
        return getattr(transformers, processor_class)(video_processor=None, **parts)


def image_token_id(token: str = IMAGE_TOKEN) -> int:
    """The id `with_image_tokens` gives `token`."""
    return VOCAB_SIZE + ADDED_TOKENS.index(token)


def chat_template(placeholder: str) -> str:
    """A minimal chat template that writes `placeholder` for each image item of a message."""
    return (
        "{% for message in messages %}{{ message['role'] }}: "
        "{% if message['content'] is string %}{{ message['content'] }}{% else %}"
        "{% for item in message['content'] %}"
        f"{{% if item['type'] == 'image' %}}{placeholder}{{% else %}}{{{{ item['text'] }}}}{{% endif %}}"
        "{% endfor %}{% endif %}\n{% endfor %}{% if add_generation_prompt %}assistant:{% endif %}"
    )


def image(seed: int, side: int = 32) -> Any:
    """A fixed random RGB image, `side` pixels square."""
    from PIL import Image

    pixels = (np.random.RandomState(seed).rand(side, side, 3) * 255).astype("uint8")
    return Image.fromarray(pixels)


def assert_default_task_loads_agree(checkpoint: Any) -> Any:
    """Load `checkpoint` under the default task lazily and dispatched; assert both build one class with one output.

    A type with no causal-LM class gets the class transformers' pipeline falls back to on
    both loads. Returns the lazy load.
    """
    lazy = StandardizedTransformer(str(checkpoint))
    dispatched = StandardizedTransformer(str(checkpoint), dispatch=True)
    logits = []
    for load in (lazy, dispatched):
        with load.trace("The Eiffel Tower is in"):
            logits.append(load.logits.save())
    assert type(lazy._module) is type(dispatched._module), (type(lazy._module), type(dispatched._module))
    assert torch.equal(logits[0], logits[1])
    return lazy


def prompt_for(model: Any, images: int = 1) -> str:
    """`QUESTION` after `images` image placeholders, through the processor's chat template."""
    content = [{"type": "image"} for _ in range(images)] + [{"type": "text", "text": QUESTION}]
    messages = [{"role": "user", "content": content}]
    return model.processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)


def logits_of(model: Any, prompt: str, images: list, edit: Any = None) -> torch.Tensor:
    """The logits of one run, with `edit(model)` applied inside the trace when given."""
    box: list[Any] = []
    with model.trace(prompt, images=images):
        if edit is not None:
            edit(model)
        box.append(model.logits.save())
    return box[0]


class NewlineRowsChecks:
    """The any-resolution layout of LLaVA-NeXT and OneVision, one tile per image; declared in a `VisionSuite`'s `CHECKS`.

    The tower runs on each image's resized whole, then its tile; the wrapper writes the
    whole's projected patches, then the tile's grid with the learned `image_newline`
    after each of its rows.
    """

    CROPS = 2

    def test_features_are_the_crops_with_newline_rows(self, model):
        box: list[Any] = []
        with model.trace(prompt_for(model), images=self.images(0)):
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((projected, features))
        projected, features = box[0]
        crops, patches, width = projected.shape
        side = int(patches**0.5)
        newline = model._module.model.image_newline
        assert crops == self.CROPS
        assert features.shape == (patches + side * (side + 1), width)
        assert torch.equal(features[:patches], projected[0])
        tile = features[patches:].reshape(side, side + 1, width)
        assert torch.equal(tile[:, :side].reshape(-1, width), projected[1])
        assert torch.equal(tile[:, side], newline.expand(side, width))


class VisionSuite(metaclass=ChoosesChecks):
    """The contract of a wrapper's vision side; subclass it once per wrapper checkpoint.

    - `CHECKS`: the tower's own check classes the class runs (`MergerChecks`,
      `DeepstackChecks`, ...), declared as data; `ChoosesChecks` puts them among its bases.
    - `CHECKPOINT`: the pinned tiny wrapper checkpoint.
    - `FAMILY`: the family the wrapper resolves to (its own module).
    - `TOWER_ENVOYS`: the tower's `(Vision, VisionLayer, VisionAttention, VisionMlp)` classes.
    - `IMAGE_SIDE`: the side of the test images, in pixels.
    - `PATTERN_REASON`: a substring of the reason the tower's pattern is unavailable, or
      `None` where it reads.
    - `IMAGE_SIZE_FIXED`: whether the tower has a fixed resolution (`image_size` reads).
    - `TEXT_CLASS`: the text-only class the default task builds from the wrapper checkpoint
      (`Qwen3_5ForCausalLM`), or `None` where it builds the wrapper with no processor.
    - `CROPS`: the tower rows one test image becomes where each image is a row of its own
      (an any-resolution wrapper's crops).
    - `EMBEDDING_SCALE`: the text config's attribute by which the text model multiplies the
      embedded stream after the scatter (`"embedding_multiplier"`), or `None` where block 0
      receives `image_features` as written.
    """

    CHECKS: tuple[type, ...] = ()
    #: No envoy brings a vision check: the text family's envoys choose the text suite's.
    ENVOY_CHECKS: tuple[tuple[type, type], ...] = ()
    CHECKPOINT: str | None = None
    FAMILY: Any = None
    TOWER_ENVOYS: tuple[type, ...] = (Vision, VisionLayer, VisionAttention, VisionMlp)
    IMAGE_SIDE = 32
    PATTERN_REASON: str | None = None
    IMAGE_SIZE_FIXED = True
    TEXT_CLASS: str | None = None
    CROPS = 1
    EMBEDDING_SCALE: str | None = None
    #: Extra load arguments for both loads (a `processor=` built by `processor_of`).
    LOAD_KWARGS: dict[str, Any] = {}

    @pytest.fixture(scope="class")
    @classmethod
    def model(cls) -> Any:
        path = locate.checkpoint_path(cls.CHECKPOINT)
        kwargs = {"task": "image-text-to-text", "dispatch": True, "attn_implementation": "eager", **cls.LOAD_KWARGS}
        return StandardizedTransformer(str(path), **kwargs)

    @pytest.fixture(scope="class")
    @classmethod
    def text_only(cls) -> Any:
        path = locate.checkpoint_path(cls.CHECKPOINT)
        return StandardizedTransformer(str(path), dispatch=True, attn_implementation="eager")

    def images(self, *seeds: int) -> list:
        return [image(seed, self.IMAGE_SIDE) for seed in seeds]

    def clean(self, model: Any, images: int = 1) -> dict[str, torch.Tensor]:
        """One unedited run over `images` images: the mask, the features, block 0's input and the logits."""
        box: list[Any] = []
        with model.trace(prompt_for(model, images), images=self.images(*range(images))):
            mask = model.vision.image_token_mask.save()
            features = model.vision.image_features.save()
            first = model.layers[0].layer_input.save()
            box.append({"mask": mask, "features": features, "first": first, "logits": model.logits.save()})
        run = box[0]
        run["first"] = self.one_stream(run["first"])
        return run

    def one_stream(self, first: torch.Tensor) -> torch.Tensor:
        """Block 0's input as the one embedded stream; a hyper-connection text model's holds a copy per stream."""
        return first

    def entering(self, model: Any, features: torch.Tensor) -> torch.Tensor:
        """`features` as block 0 receives them: times the text model's scale where `EMBEDDING_SCALE` names one."""
        if self.EMBEDDING_SCALE is None:
            return features
        return features * getattr(model.config.get_text_config(), self.EMBEDDING_SCALE)

    # == names and sizes ==================================================================

    def test_family_resolved(self, model):
        assert model.family is self.FAMILY

    def test_tower_envoys(self, model):
        vision, layer, attention, mlp = self.TOWER_ENVOYS
        assert isinstance(model.vision, vision)
        assert "projector" in model._aliases
        assert len(model.vision.layers) == model.vision.num_layers > 0
        for block in model.vision.layers:
            assert isinstance(block, layer), type(block).__name__
            assert isinstance(block.self_attn, attention), type(block.self_attn).__name__
            assert isinstance(block.mlp, mlp), type(block.mlp).__name__

    def test_tower_sizes_are_its_own(self, model):
        vision = model.vision
        assert vision.vision_hidden_size != model.hidden_size
        assert axis_size(vision, "hidden_size") == model.hidden_size
        assert axis_size(vision.layers[0], "vision_hidden_size") == vision.vision_hidden_size
        assert vision.num_heads * vision.head_dim == vision.vision_hidden_size
        assert vision.layers[0].self_attn.num_heads == vision.num_heads
        assert vision.layers[0].mlp.intermediate_size == vision.intermediate_size
        assert vision.patch_size > 0
        if self.IMAGE_SIZE_FIXED:
            assert vision.image_size >= vision.patch_size
        else:
            with pytest.raises(Unavailable, match="own resolution"):
                vision.image_size  # noqa: B018

    # == the mask and the features ========================================================

    def test_mask_marks_the_image_tokens(self, model):
        run = self.clean(model)
        mask = run["mask"]
        assert mask.dtype == torch.bool and mask.shape == run["first"].shape[:2]
        assert 0 < int(mask.sum()) < mask.shape[1]

    def test_mask_is_read_only(self, model):
        with pytest.raises(AttributeError, match="cannot be assigned"):
            with model.trace(prompt_for(model), images=self.images(0)):
                mask = model.vision.image_token_mask
                model.vision.image_token_mask = torch.zeros_like(mask)

    def test_features_are_block_zero_input_at_the_mask(self, model):
        run = self.clean(model)
        mask, features = run["mask"], run["features"]
        assert features.shape == (int(mask.sum()), model.hidden_size)
        assert torch.equal(run["first"][mask], self.entering(model, features))

    def test_zeroing_features_moves_the_logits_and_lands(self, model):
        clean = self.clean(model)
        box: list[Any] = []
        with model.trace(prompt_for(model), images=self.images(0)):
            mask = model.vision.image_token_mask.save()
            model.vision.image_features[:] = 0
            box.append((mask, model.layers[0].layer_input.save(), model.logits.save()))
        mask, first, logits = box[0]
        first = self.one_stream(first)
        assert float(first[mask].detach().abs().max()) == 0.0
        assert torch.equal(first[~mask], clean["first"][~clean["mask"]])
        assert moved(logits, clean["logits"])

    def test_features_from_another_image(self, model):
        prompt = prompt_for(model)
        box: list[Any] = []
        with model.trace(prompt, images=self.images(1)):
            box.append((model.vision.image_features.save(), model.logits.save()))
        other, other_logits = box[0]
        own = logits_of(model, prompt, self.images(0))
        assert moved(own, other_logits), "two images give the same logits"

        def patch(m):
            m.vision.image_features[:] = other

        patched = logits_of(model, prompt, self.images(0), patch)
        assert ulp_close(patched, other_logits)

    def test_assigning_features_replaces_them(self, model):
        clean = self.clean(model)
        noise = torch.randn(clean["features"].shape, generator=torch.Generator().manual_seed(0))
        box: list[Any] = []
        with model.trace(prompt_for(model), images=self.images(0)):
            mask = model.vision.image_token_mask.save()
            model.vision.image_features = noise.to(clean["features"].dtype)
            box.append((mask, model.layers[0].layer_input.save()))
        mask, first = box[0]
        first = self.one_stream(first)
        assert torch.equal(first[mask], self.entering(model, noise))

    # == the tower ========================================================================

    def test_tower_values_read(self, model):
        box: list[Any] = []
        with model.trace(prompt_for(model), images=self.images(0)):
            patches = model.vision.patch_embeddings.save()
            block = model.vision.layers[0].layer_output.save()
            tower = model.vision.tower_output.save()
            box.append((patches, block, tower))
        patches, block, tower = box[0]
        width = model.vision.vision_hidden_size
        for value in (patches, block, tower):
            assert value.dim() == 3 and value.shape[-1] == width, tuple(value.shape)
        assert block.shape[:2] == tower.shape[:2]

    def test_tower_identity(self, model):
        for index, block in enumerate(model.vision.layers):
            box: list[Any] = []
            with model.trace(prompt_for(model), images=self.images(0)):
                box.append(
                    (
                        block.layer_input.save(),
                        block.self_attn.attention_output.save(),
                        block.mlp.mlp_output.save(),
                        block.layer_output.save(),
                    )
                )
            x, attn, mlp, out = box[0]
            assert ulp_close(x + attn + mlp, out), f"tower block {index}"

    def test_tower_pattern_is_not_causal(self, model):
        attn = model.vision.layers[0].self_attn
        if self.PATTERN_REASON is not None:
            entry = model.vision.support()["self_attn.attention_probabilities"]
            reasons = list(entry.values()) if isinstance(entry, dict) else [entry]
            assert len(reasons) == model.vision.num_layers, entry
            assert all(self.PATTERN_REASON in reason for reason in reasons), entry
            with pytest.raises(Unavailable):
                with model.trace(prompt_for(model), images=self.images(0)):
                    attn.attention_probabilities.save()
            return
        box: list[Any] = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append(attn.attention_probabilities.save())
        pattern = box[0].detach()
        n = pattern.shape[-1]
        assert pattern.shape[-2:] == (n, n) and pattern.shape[1] == attn.num_heads
        assert torch.allclose(pattern.sum(-1), torch.ones(()), atol=1e-5)
        above = torch.ones(n, n, dtype=torch.bool).triu(1)
        assert float(pattern[..., above].min()) > 0.0, "the tower's pattern has a causal mask"

    def test_tower_edit_is_causal(self, model):
        clean = self.clean(model)
        box: list[Any] = []
        with model.trace(prompt_for(model), images=self.images(0)):
            model.vision.layers[0].layer_output[:] = 0
            box.append(model.vision.image_features.save())
        assert moved(box[0], clean["features"])

    def test_two_images_in_one_invoke(self, model):
        one, two = self.clean(model, 1), self.clean(model, 2)
        assert int(two["mask"].sum()) == 2 * int(one["mask"].sum())
        assert two["features"].shape[0] == 2 * one["features"].shape[0]
        assert torch.equal(two["first"][two["mask"]], self.entering(model, two["features"]))
        box: list[Any] = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            box.append(model.vision.layers[0].layer_output.save())
        rows = box[0]
        if model.vision.ONE_ROW:
            assert rows.shape[0] == 1
        else:
            assert rows.shape[0] == 2 * self.CROPS

    def test_a_second_image_invoke_is_refused(self, model):
        prompt = prompt_for(model)
        with pytest.raises(Exception, match="batch"):
            with model.trace() as tracer:
                with tracer.invoke(prompt, images=self.images(0)):
                    model.logits.save()
                with tracer.invoke(prompt, images=self.images(1)):
                    model.logits.save()

    # == support, generate, the text-only load ===========================================

    def test_support_lists_the_tower(self, model):
        rows = model.support()
        tower = model.vision.support()
        assert tower and {f"vision.{name}": reason for name, reason in tower.items()}.items() <= rows.items()
        for name in ("image_token_mask", "image_features", "tower_output", "patch_embeddings", "layer_output"):
            assert tower[name] is None, (name, tower[name])
        assert "self_attn.attention_probabilities" in tower

    def test_tower_runs_once_under_generate(self, model):
        calls: list[int] = []
        handle = model.vision._module.register_forward_hook(lambda *_: calls.append(1))
        try:
            masks: list[Any] = []
            with model.generate(prompt_for(model), images=self.images(0), max_new_tokens=3, min_new_tokens=3) as tracer:
                for _ in tracer.iter[:]:
                    masks.append(model.vision.image_token_mask.save())
        finally:
            handle.remove()
        assert len(calls) == 1
        assert len(masks) == 3
        assert int(masks[0].sum()) > 0
        for mask in masks[1:]:
            assert mask.shape[1] == 1 and not bool(mask.any())

    def test_text_only_load_has_no_images(self, text_only):
        if self.TEXT_CLASS is not None:
            assert type(text_only._module).__name__ == self.TEXT_CLASS
            assert text_only.processor is None
            assert not {"vision", "projector"} & set(text_only._aliases)
            assert not [name for name in text_only.support() if name.startswith("vision")]
            return
        vision = text_only.vision
        assert text_only.processor is None
        assert vision.no_images() == TEXT_ONLY
        assert vision.support() == {}
        assert not [name for name in text_only.support() if name.startswith("vision.")]
        with pytest.raises(Unavailable, match="text-only load"):
            with text_only.trace(QUESTION):
                vision.image_features.save()

    def test_text_checkpoint_has_no_tower(self):
        path = locate.checkpoint_path("llama")
        text = StandardizedTransformer(str(path))
        assert not isinstance(getattr(text, "vision", None), nnterp.components.Vision)
        assert "vision" not in text._aliases


__all__ = [
    "ADDED_TOKENS",
    "assert_default_task_loads_agree",
    "IMAGE_TOKEN",
    "PER_IMAGE",
    "QUESTION",
    "QWEN_VIT",
    "ProcessorParts",
    "processor_of",
    "SIGLIP_TOWER",
    "VisionSuite",
    "WRAPPED_VOCAB",
    "WRAPPED_VOCAB_LIMIT",
    "chat_template",
    "image",
    "image_token_id",
    "prompt_for",
    "with_image_tokens",
]


def with_token_types(processor: Any) -> Any:
    """`processor`, its calls returning `mm_token_type_ids` unless told otherwise.

    Some processors (Cosmos3's) do not ask for the multimodal token types their model
    needs for its multimodal rotary positions; an image run then raises
    "`mm_token_type_ids` is missing".
    """
    base = type(processor)

    class TokenTypes(base):
        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            kwargs.setdefault("return_mm_token_type_ids", True)
            return super().__call__(*args, **kwargs)

    TokenTypes.__name__ = base.__name__
    processor.__class__ = TokenTypes
    return processor


class HelperScatterChecks:
    """A wrapper that scatters in a helper call (Idefics 2 and 3's `inputs_merger`): the features are its argument.

    The projector runs once per image, so its output holds a row of image tokens per
    image, and the features are those rows in order.
    """

    #: The helper call's operation label and the argument read as `image_features`.
    SCATTER_CALL = ("model.source.self_inputs_merger_0", "image_hidden_states")

    def test_features_are_read_at_the_helper_call(self, model):
        assert scatter_call(model) == self.SCATTER_CALL
        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            projected = model.projector.output.save()
            features = model.vision.image_features.save()
            box.append((projected, features))
        projected, features = box[0]
        assert projected.shape[0] == 2
        assert torch.equal(projected.reshape(-1, projected.shape[-1]), features)

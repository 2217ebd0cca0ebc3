"""The vision side of an image-text-to-text wrapper: the tower, its blocks, and where the image enters the text.

A family that hosts a tower keys `Vision` on the tower's module type, `VisionLayer`,
`VisionAttention` and `VisionMlp` on its blocks' types, and `ImageScatter` on the
wrapper's inner model, whose forward writes the projected image features into the
token embeddings. Its `RENAME` names the tower `vision` and the last module before the
scatter `projector`.

The block classes are the text classes with every stream value re-annotated as
`Patches` and every value guarded by `no_tower_run`, which asks the `Vision` above them
whether an image reaches the model at all (`Vision.no_images()`). A tower that runs on
`[patches, vision_hidden_size]` (the Qwen ViT, Pixtral) is served through the same
classes: its stream values gain a leading images axis of 1 as a view on a read and
lose it on a write.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxtyping import Bool, Float
from nnsight.intervention.interleaver import Mediator
from torch import Tensor

from .attention import Attention, HeadOutputs, Keys, Queries, Values
from .eproperty import EProperty, Unavailable, pick, unavailable
from .layer import Layer, Residual
from .mlp import Mlp
from .names import not_available
from .reasons import needs_child
from .scaled import scaled_output
from .standard import (
    BATCH,
    HIDDEN,
    IMAGE_TOKENS,
    IMAGES,
    PATCHES,
    SEQ,
    VISION_HIDDEN,
    Standard,
    blocks_support,
    named_layout,
)

# A tower block's stream: one vector per patch of each image the tower encodes.
Patches = named_layout("Patches", Float[Tensor, f"{IMAGES} {PATCHES} {VISION_HIDDEN}"])
# Which positions of the token sequence hold an image token.
ImageTokenMask = named_layout("ImageTokenMask", Bool[Tensor, f"{BATCH} {SEQ}"])
# The projected image, one text-width vector per image token of the batch, in row-major order.
ImageFeatures = named_layout("ImageFeatures", Float[Tensor, f"{IMAGE_TOKENS} {HIDDEN}"])

#: A wrapper loaded without its processor: nothing can hand it an image.
TEXT_ONLY = "a text-only load: no processor, so no image reaches the model; load with task='image-text-to-text'"
#: A wrapper whose family names no projector: the path from the tower to the text is unknown.
NO_PROJECTOR = "the family names no projector on this wrapper, so it does not know how the image reaches the text model"
#: The attention runs once per image, so no single tensor is the block's pattern.
PER_IMAGE = (
    "this tower calls the attention once per image, so no one tensor is the block's pattern or scores; "
    "split the queries and keys at cu_seqlens to rebuild each image's (loading eager does not change this)"
)


#: The wrapper-side names of a wrapper built like Llava's: the text model under `model.language_model`.
WRAPPED_TEXT_RENAME = {
    "model.language_model.embed_tokens": "embed_tokens",
    "model.language_model.layers": "layers",
    "model.language_model.norm": "norm",
}

#: A SigLIP or CLIP tower's inner names, keyed relative to the tower: multi-component keys and
#: single names no text block has. The final norm is left to the family, since CLIP's
#: `post_layernorm` norms the pooled CLS token where SigLIP's norms the patches.
SIGLIP_TOWER_RENAME = {
    "embeddings.patch_embedding": "patch_embed",
    "encoder.layers": "layers",
    "layer_norm1": "input_layernorm",
    "layer_norm2": "post_attention_layernorm",
    "out_proj": "o_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
}


#: Pixtral's inner names, keyed relative to the tower. It has no final norm.
PIXTRAL_TOWER_RENAME = {
    "patch_conv": "patch_embed",
    "transformer.layers": "layers",
    "attention_norm": "input_layernorm",
    "ffn_norm": "post_attention_layernorm",
    "attention": "self_attn",
    "feed_forward": "mlp",
}

#: A Llava-built wrapper around a SigLIP tower (llava, gemma3): the text model, the tower
#: and its final norm over the patches, and the projector.
SIGLIP_WRAPPER_RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
    **SIGLIP_TOWER_RENAME,
    "post_layernorm": "norm",
}

#: A wrapper built like Llava's: the text model under `model.language_model`, the tower at
#: `model.vision_tower` and the projector at `model.multi_modal_projector`.
LLAVA_LAYOUT_RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.multi_modal_projector": "projector",
}

#: InternViT's inner names (InternVL, Qianfan-OCR), keyed relative to the tower; its final
#: `layernorm` norms the patches.
INTERNVIT_TOWER_RENAME = {
    "embeddings.patch_embeddings": "patch_embed",
    "encoder.layer": "layers",
    "layernorm_before": "input_layernorm",
    "layernorm_after": "post_attention_layernorm",
    "attention": "self_attn",
    "projection_layer": "o_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
    "layernorm": "norm",
}

#: The MiniCPM NaViT tower's inner names and the projector (MiniCPM-V 4.6, 4.7, MiniCPM-OCR), keyed
#: for the wrappers built on it.
MINICPM_TOWER_RENAME = {
    "model.vision_tower": "vision",
    "model.merger": "projector",
    "embeddings.patch_embedding": "patch_embed",
    "encoder.layers": "layers",
    "layer_norm1": "input_layernorm",
    "layer_norm2": "post_attention_layernorm",
    # Only the tower's attention: the text model's DeltaNet has an `out_proj` of its own.
    "self_attn.out_proj": "self_attn.o_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
    "post_layernorm": "norm",
}

#: The Qwen ViT's inner names, keyed relative to the tower. It has no final norm: the
#: merger, the projector, norms its own input.
QWEN_TOWER_RENAME = {
    "blocks": "layers",
    "norm1": "input_layernorm",
    "norm2": "post_attention_layernorm",
    "attn": "self_attn",
    "proj": "o_proj",
    "fc2": "down_proj",
    "act": "act_fn",
}

#: A Qwen-VL-built wrapper (Qwen2.5-VL, Qwen2.5-Omni's thinker, EXAONE 4.5): the text model under
#: `model.language_model`, the Qwen ViT at `model.visual` and its merger as projector.
QWEN_VL_WRAPPER_RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN_TOWER_RENAME,
}

#: A GLM-4V-built wrapper (GLM-4V, GLM-4.5V, GLM-OCR): the text model under
#: `model.language_model`, the packed ViT at `model.visual`, its merger as projector, and
#: its final `post_layernorm` as the tower's norm.
GLM_VISION_RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN_TOWER_RENAME,
    "post_layernorm": "norm",
}

#: The Qwen3 ViT's inner names (Qwen3-VL, Qwen3.5), keyed relative to the tower: the Qwen
#: ViT's, with the MLP's output projection named `linear_fc2`.
QWEN3_TOWER_RENAME = {
    **{key: value for key, value in QWEN_TOWER_RENAME.items() if key != "fc2"},
    "linear_fc2": "down_proj",
}


def _config_id(config: Any) -> int | None:
    for key in ("image_token_id", "image_token_index"):
        value = getattr(config, key, None)
        if isinstance(value, int):
            return value
    return None


def vision_of(envoy: Any) -> Vision:
    """The `Vision` envoy at or above `envoy`."""
    node = envoy
    while node is not None:
        if isinstance(node, Vision):
            return node
        node = node.parent
    raise LookupError(f"{envoy.path} is not inside a vision tower")


def no_tower_run(envoy: Any) -> str | None:
    """The predicate every tower value carries: why no image reaches the tower above `envoy`, or `None`.

    A tower block's class can serve outside the tower too (Molmo 2's adapter pools with the
    tower's attention class); there it has no tower values, and says so.
    """
    try:
        vision = vision_of(envoy)
    except LookupError:
        return f"{envoy.path} is a tower module's class outside the vision tower: it serves no tower values"
    return vision.no_images()


def image_token_id(envoy: Any) -> str | None:
    """The predicate of `image_token_mask`: no image reaches the model, or the config names no image token."""
    reason = no_tower_run(envoy)
    if reason:
        return reason
    if _config_id(envoy.root._module.config) is None:
        return "the wrapper's config names no image_token_id, so nothing marks the image positions"
    return None


def variable_resolution(vision: Any) -> int:
    """`image_size` of a tower with no fixed resolution: always raises `Unavailable`."""
    raise Unavailable(
        not_available(
            vision,
            "image_size",
            "this tower takes images at their own resolution; "
            "each image's patch grid is in the processor's output (image_grid_thw or image_sizes)",
        )
    )


def scatter_host(model: Any) -> tuple[str, Any]:
    """(native path, envoy) of the module whose forward scatters the image features into the embeddings.

    The root's child the family keyed `ImageScatter` on, or the root itself where the
    family sets `ROOT_SCATTER` because the wrapper scatters in its own forward.
    """
    if getattr(model.family, "ROOT_SCATTER", False):
        return "", model
    for name, child in model._named_children():
        if isinstance(child, ImageScatter):
            return name, child
    raise LookupError(
        f"the family {model.family.__name__} keys no ImageScatter on a child of {type(model._module).__name__}"
    )


def scatter_call(model: Any) -> tuple[str, int | str]:
    """(the scatter operation's path from the root, the argument holding the features)."""
    name, host = scatter_host(model)
    kind = host if isinstance(host, ImageScatter) else getattr(model.family, "RootScatter", ImageScatter)
    prefix = f"{name}." if name else ""
    return f"{prefix}source.{kind.scatter}", kind.scatter_argument


def image_scatter(vision: Any) -> str:
    """The key of `image_features`: the scatter operation's inputs, from the root."""
    return f"/{scatter_call(vision.root)[0]}.inputs"


def scattered_argument(vision: Any) -> int | str:
    """The `select` of `image_features`: which argument of the scatter holds the features."""
    return scatter_call(vision.root)[1]


def _features_reason(vision: Any) -> str | None:
    reason = vision.no_images()
    if reason:
        return reason
    try:
        scatter_host(vision.root)
    except LookupError as error:
        return str(error)
    return None


def tower_rows(model: Any) -> dict[str, Any]:
    """The rows `model.support()` adds for each vision tower under the root, under its alias."""
    rows: dict[str, Any] = {}
    for alias in model._aliases:
        envoy = model.__dict__.get(alias)
        if isinstance(envoy, Vision):
            rows.update({f"{alias}.{name}": reason for name, reason in envoy.support().items()})
    return rows


class ImageScatter(Standard):
    """The wrapper model whose forward writes the projected image into the token embeddings.

    A marker: it serves no value itself, and `Vision.image_features` is read at its
    operation `scatter`, argument `scatter_argument`. Its forward is instrumented at
    build, since the tower runs inside it and a drill on first read, after a tower
    value, would ask for a location the model has passed.
    """

    sourced = True
    #: The operation of the forward that writes the features in.
    scatter = "inputs_embeds_masked_scatter_0"
    #: The operation's argument that holds the features (a position or a keyword).
    scatter_argument: int | str = 1


def as_patches(value: Any) -> Any:
    """A packed `[patches, width]` tensor as `[1, patches, width]`, as a view; a batched one as is."""
    return value.unsqueeze(0) if value.dim() == 2 else value


def as_native(envoy: Any, value: Any) -> Any:
    """A `Patches` tensor written back in the tower's own rank: the images axis dropped on a packed tower."""
    return value.squeeze(0) if vision_of(envoy).PACKED and value.dim() == 3 else value


def _either(first: Callable[[Any], str | None], prop: EProperty) -> Callable[[Any], str | None]:
    def predicate(envoy: Any) -> str | None:
        return first(envoy) or prop.reason(envoy)

    predicate.__name__ = f"{first.__name__}_or_{getattr(prop.unavailable, '__name__', 'reason')}"
    return predicate


def on_tower(prop: EProperty) -> EProperty:
    """A text value re-declared for a tower block: the same path, guarded by `no_tower_run`.

    A stream value (`Residual`) becomes `Patches`: a packed tower's 2-D tensor gains a
    leading images axis as a view, and a write drops it again.
    """
    if getattr(prop, "on_tower", False) or type(prop) is not EProperty or prop.is_marker():
        return prop
    stream = prop.layout is Residual
    tower = EProperty(
        prop.key,
        description=prop.description,
        unavailable=_either(no_tower_run, prop) if prop.unavailable is not None else no_tower_run,
        select=prop.select,
    )
    if prop._preprocess is not None:
        read_text = prop._preprocess

        def read(self: Any, value: Any) -> Any:
            served = read_text(self, value)
            return as_patches(served) if stream else served

        read.__name__ = prop.name
        read.__doc__ = read_text.__doc__
        read.__annotations__ = {"return": Patches if stream else prop.layout}
        tower(read)
    write_text = prop._postprocess
    if write_text is not None or stream:

        def write(self: Any, value: Any) -> Any:
            native = as_native(self, value) if stream else value
            return write_text(self, native) if write_text is not None else native

        tower._postprocess = write
    tower._transform = prop._transform
    tower.name = prop.name
    tower.on_tower = True
    return tower


class TowerValues(Standard):
    """Re-declares every value of a tower block class with `on_tower`, its own and those it inherits."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, prop in cls.values().items():
            tower = on_tower(prop)
            if tower is not prop:
                setattr(cls, name, tower)


class VisionLayer(TowerValues, Layer):
    """A tower block, `model.vision.layers[i]`: a text block's values over the patches."""


class VisionAttention(TowerValues, Attention):
    """A tower block's attention: the text attention's interior, with no causal mask on the pattern."""


class VisionMlp(TowerValues, Mlp):
    """A tower block's MLP."""


class QwenVisionAttention(VisionAttention):
    """The Qwen ViT's attention: one interface call per image, over the packed patches.

    The queries, keys and values are served whole, `[1, heads, patches, head_dim]`, at
    the `unsqueeze` operations that end their preparation; the head outputs at the
    `torch.cat` that joins the per-image calls. The scores and the pattern have no
    single tensor and carry `PER_IMAGE`.
    """

    @EProperty("source.unsqueeze_0.output", description="The queries entering attention")
    def attention_queries(self, value) -> Queries:
        return value

    @EProperty("source.unsqueeze_1.output", description="The keys entering attention")
    def attention_keys(self, value) -> Keys:
        return value

    @EProperty("source.unsqueeze_2.output", description="The values entering attention")
    def attention_values(self, value) -> Values:
        return value

    attention_scores = unavailable(PER_IMAGE)
    attention_probabilities = unavailable(PER_IMAGE)

    @EProperty("source.torch_cat_0.output", description="The per-head outputs before the output projection")
    def attention_head_outputs(self, value) -> HeadOutputs:
        return value

    @EProperty(
        "o_proj.input",
        description="Every head's output side by side, as the output projection takes it",
        unavailable=needs_child("o_proj", "attention"),
    )
    def attention_premix(self, value) -> HeadOutputs:
        return as_patches(value).unflatten(-1, (self.num_heads, -1))

    @attention_premix.postprocess
    def attention_premix(self, value):
        return value.flatten(-2).squeeze(0)


class Vision(Standard):
    """The vision tower, `model.vision`: its sizes, its patches, and where the image enters the text.

    The sizes are read off the tower's own config and shadow the root's for the
    tower's values; `hidden_size` is not one of them, since `image_features` has the
    text model's width.
    """

    #: The tower runs on `[patches, width]`, with no images axis.
    PACKED = False
    #: Every image's patches share one row of the tower's values.
    ONE_ROW = False

    # -- availability ---------------------------------------------------------------

    def no_images(self) -> str | None:
        """Why no image reaches this model, or `None`: the one place that decides the tower's values."""
        root = self.root
        if "projector" not in root._aliases:
            return NO_PROJECTOR
        if getattr(root, "processor", None) is None:
            return TEXT_ONLY
        return None

    def support(self) -> dict[str, Any]:
        """The tower's values and its blocks', by name; empty when no image reaches the model."""
        if self.no_images():
            return {}
        rows: dict[str, Any] = {name: attr.reason(self) for name, attr in type(self).values().items()}
        layers = self.__dict__.get("layers")
        if layers is not None:
            rows.update(blocks_support(layers))
        return rows

    # -- sizes ----------------------------------------------------------------------

    @property
    def tower_config(self) -> Any:
        """The tower's own config."""
        return self._module.config

    @property
    def num_layers(self) -> int:
        """The tower's blocks, `len(vision.layers)`."""
        return len(self.layers)

    @property
    def vision_hidden_size(self) -> int:
        """The width of the tower's stream."""
        return self.tower_config.hidden_size

    @property
    def num_heads(self) -> int:
        """The tower's attention heads."""
        return self.tower_config.num_attention_heads

    @property
    def head_dim(self) -> int:
        """The width of one of the tower's heads."""
        return self.vision_hidden_size // self.num_heads

    @property
    def intermediate_size(self) -> int:
        """The width of the tower's MLP."""
        return self.tower_config.intermediate_size

    @property
    def patch_size(self) -> int:
        """The side of one patch, in pixels."""
        return self.tower_config.patch_size

    @property
    def image_size(self) -> int:
        """The side of the image the tower takes, in pixels."""
        return self.tower_config.image_size

    # -- values ---------------------------------------------------------------------

    @EProperty(
        "/inputs",
        select="input_ids",
        description="Which token positions hold an image token, off the model's inputs",
        unavailable=image_token_id,
    )
    def image_token_mask(self, value) -> ImageTokenMask:
        return value == _config_id(self.root._module.config)

    @image_token_mask.postprocess
    def image_token_mask(self, value):
        raise AttributeError("image_token_mask is read off the input ids and cannot be assigned; assign input_ids")

    @EProperty(
        "patch_embed.output", description="The patch embedding's output, one row per patch", unavailable=no_tower_run
    )
    def patch_embeddings(self, value) -> Patches:
        if value.dim() == 4:  # a convolution's grid, [images, width, rows, columns]
            return value.flatten(2).transpose(1, 2)
        return as_patches(value)

    @patch_embeddings.postprocess
    def patch_embeddings(self, value):
        current = Mediator.value(f"{self.patch_embed.path}.output")
        if current.dim() == 4:
            return value.transpose(1, 2).reshape(current.shape)
        return value.reshape(current.shape)

    @EProperty(
        "output",
        description="The last block's stream after the tower's final norm, before any pooling or projection",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        hidden = value.last_hidden_state if hasattr(value, "last_hidden_state") else value
        return as_patches(hidden[0] if isinstance(hidden, tuple) else hidden)

    @tower_output.postprocess
    def tower_output(self, value):
        output = Mediator.value(f"{self.path}.output")
        if hasattr(output, "last_hidden_state"):
            output["last_hidden_state"] = value.reshape(output.last_hidden_state.shape)
            return output
        if isinstance(output, tuple):
            return (value.reshape(output[0].shape), *output[1:])
        return value.reshape(output.shape)

    @EProperty(
        image_scatter,
        select=scattered_argument,
        description="The projected image the wrapper writes into the token embeddings at the image tokens",
        unavailable=_features_reason,
    )
    def image_features(self, value) -> ImageFeatures:
        return value.reshape(-1, value.shape[-1])

    @image_features.postprocess
    def image_features(self, value):
        location, attribute = type(self).image_features._resolve(self, image_scatter(self))
        current = pick(attribute, Mediator.value(location), scattered_argument(self))
        return value.reshape(current.shape)


class QwenVision(Vision):
    """The Qwen ViT: packed patches of every image in one row, no fixed resolution.

    Its config names the stream's width `embed_dim` (its `hidden_size` is the text
    model's, which the merger projects to) and the MLP's width as a ratio.
    """

    PACKED = True
    ONE_ROW = True
    image_size = property(variable_resolution)

    @property
    def vision_hidden_size(self) -> int:
        config = self.tower_config
        return getattr(config, "embed_dim", None) or config.hidden_size

    @property
    def num_heads(self) -> int:
        config = self.tower_config
        return getattr(config, "num_heads", None) or config.num_attention_heads

    @property
    def intermediate_size(self) -> int:
        config = self.tower_config
        ratio = getattr(config, "mlp_ratio", None)
        return int(self.vision_hidden_size * ratio) if ratio else config.intermediate_size


class PixtralVision(Vision):
    """Pixtral's tower: the images' grids cropped and packed into one row, no fixed resolution.

    The blocks run on `[1, patches, width]`, and `patch_embeddings` is that packed row
    as it enters `ln_pre`, after the convolution's per-image grids are cropped and joined.
    """

    ONE_ROW = True
    image_size = property(variable_resolution)

    @EProperty(
        "ln_pre.input",
        description="The patch embedding's output, every image's patches in one row",
        unavailable=no_tower_run,
    )
    def patch_embeddings(self, value) -> Patches:
        return as_patches(value)


class PatchwiseVision(QwenVision):
    """A packed tower that embeds each patch alone: its convolution's output is `[patches, width, 1, 1]`.

    Every image's patches share one row, with no fixed resolution (PaddleOCR-VL's and
    VideoLLaMA 3's NaViT); `patch_embeddings` is that row, `[1, patches, width]`.
    """

    @EProperty(
        "patch_embed.output",
        description="The patch embedding's output, every image's patches in one row",
        unavailable=no_tower_run,
    )
    def patch_embeddings(self, value) -> Patches:
        return value.flatten(1).unsqueeze(0)

    @patch_embeddings.postprocess
    def patch_embeddings(self, value):
        return value.squeeze(0)[..., None, None]


class InputsMerger(ImageScatter):
    """An Idefics-built model (Idefics 2, Idefics 3): the features enter through its `inputs_merger` call, as `image_hidden_states`."""

    scatter = "self_inputs_merger_0"
    scatter_argument = "image_hidden_states"


class SiglipVision(Vision):
    """A SigLIP-built tower whose `post_layernorm` norms every patch, so it is the tower's final `norm`.

    Idefics 3, SmolVLM, Janus and Granite-Docling build their towers so; CLIP's
    `post_layernorm` norms the pooled CLS token only and is no `norm`.
    """

    @property
    def norm(self):
        """The tower's final norm, over the patches."""
        return self.post_layernorm


class InternVision(Vision):
    """InternViT (InternVL, Qianfan-OCR): its config gives the image and patch sides as `(height, width)` pairs, square here."""

    @property
    def patch_size(self) -> int:
        return self.tower_config.patch_size[0]

    @property
    def image_size(self) -> int:
        return self.tower_config.image_size[0]


def _lambda_1(envoy: Any) -> Any:
    return envoy.parent._module.lambda_1


def _lambda_2(envoy: Any) -> Any:
    return envoy.parent._module.lambda_2


class InternVisionAttention(VisionAttention):
    """InternViT's attention: the block multiplies its output by the per-channel `lambda_1` before the add."""

    attention_output = scaled_output(
        "What the attention adds to the patches' stream, after the block's lambda_1", multiplier=_lambda_1
    )


class InternVisionMlp(VisionMlp):
    """InternViT's MLP: the block multiplies its output by the per-channel `lambda_2` before the add."""

    mlp_output = scaled_output(
        "What the MLP adds to the patches' stream, after the block's lambda_2", multiplier=_lambda_2
    )


class MiniCPMVision(Vision):
    """The MiniCPM NaViT tower: all images' patches in the one row of a batch of one, at each image's own resolution."""

    ONE_ROW = True
    image_size = property(variable_resolution)


class MiniCPMVisionAttention(QwenVisionAttention):
    """The MiniCPM NaViT tower's attention: one interface call per image, queries, keys and values whole before it."""

    @EProperty("source.transpose_0.output", description="The queries entering attention")
    def attention_queries(self, value) -> Queries:
        return value

    @EProperty("source.transpose_1.output", description="The keys entering attention")
    def attention_keys(self, value) -> Keys:
        return value

    @EProperty("source.transpose_2.output", description="The values entering attention")
    def attention_values(self, value) -> Values:
        return value

    # The tower keeps its batch of one, so the output projection's input is written back as it is, not squeezed.
    attention_premix = VisionAttention.attention_premix


class MoonVisionAttention(QwenVisionAttention):
    """The MoonViT's attention (Kimi K2.5, Muse Glimmer): one interface call per image, the queries, keys and values whole before the split."""

    @EProperty("source.query_states_transpose_0.output", description="The queries entering attention")
    def attention_queries(self, value) -> Queries:
        return value

    @EProperty("source.key_states_transpose_0.output", description="The keys entering attention")
    def attention_keys(self, value) -> Keys:
        return value

    @EProperty("source.value_states_transpose_0.output", description="The values entering attention")
    def attention_values(self, value) -> Values:
        return value


class GlmVision(QwenVision):
    """The GLM-4V ViT (GLM-4V, GLM-4.6V, GLM-4.5V, GLM-OCR, GLM-5.3-Flash): the packed Qwen ViT's layout with a final norm, and block MLPs `out_hidden_size` wide.

    `tower_output` is the final norm's output, before the `downsample` convolution that
    merges each 2x2 group to the text width.
    """

    @property
    def intermediate_size(self) -> int:
        return self.tower_config.out_hidden_size

    @EProperty(
        "post_layernorm.output",
        description="The last block's stream after the tower's final norm, before any pooling or projection",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return as_patches(value)

    @tower_output.postprocess
    def tower_output(self, value: Any) -> Any:
        return as_native(self, value)


__all__ = [
    "GLM_VISION_RENAME",
    "INTERNVIT_TOWER_RENAME",
    "LLAVA_LAYOUT_RENAME",
    "MINICPM_TOWER_RENAME",
    "QWEN_VL_WRAPPER_RENAME",
    "NO_PROJECTOR",
    "PER_IMAGE",
    "TEXT_ONLY",
    "ImageFeatures",
    "ImageScatter",
    "GlmVision",
    "ImageTokenMask",
    "InputsMerger",
    "InternVision",
    "InternVisionAttention",
    "InternVisionMlp",
    "MiniCPMVision",
    "MiniCPMVisionAttention",
    "MoonVisionAttention",
    "Patches",
    "PatchwiseVision",
    "PixtralVision",
    "QwenVision",
    "QwenVisionAttention",
    "SiglipVision",
    "Vision",
    "VisionAttention",
    "VisionLayer",
    "VisionMlp",
    "as_native",
    "as_patches",
    "image_scatter",
    "image_token_id",
    "no_tower_run",
    "on_tower",
    "scatter_call",
    "scatter_host",
    "scattered_argument",
    "tower_rows",
    "variable_resolution",
    "vision_of",
]

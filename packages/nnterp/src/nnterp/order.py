"""The measured forward order of a block's values, for `model.order()`.

One probe trace records every location the interleaver passes, in the order the
model passes them. The calls that interior values drill into are instrumented for
that run, so the operations inside them are recorded too. A value's rank is the
dense rank of the first visit to its location, so values read at one location
share a rank.
"""

from __future__ import annotations

from typing import Any

from nnsight.intervention.source import instrument, make_op

from .components import DerivedEProperty, Unavailable, block_values, resolve

PROBE_PROMPT = "The Eiffel Tower is in"
#: The side, in pixels, of the grey image a wrapper's probe carries (its processor resizes it).
PROBE_IMAGE_SIDE = 32


def _op_drills(location: str) -> list[str]:
    # "a.b.source.call_1.source.op_0.output" needs "a.b.source.call_1" drilled.
    parts = location.split(".")
    bases = []
    for i, part in enumerate(parts):
        if part == "source" and i > 0 and "source" in parts[:i]:
            bases.append(".".join(parts[:i]))
    return bases


def _probe_inputs(model: Any, prompt: str) -> tuple[str, dict[str, Any]]:
    """The probe's prompt and keyword inputs: with one small image where an image reaches the model.

    A wrapper's text blocks can hold values only an image run reaches (Qwen3-VL's
    deepstack taps), so a text-only probe would leave them unranked.
    """
    try:
        vision = model.vision
    except (AttributeError, Unavailable):
        return prompt, {}
    # A tower no family keys is a plain envoy: no image reaches a value of it.
    no_images = getattr(vision, "no_images", None)
    if no_images is None or no_images() is not None:
        return prompt, {}
    import numpy as np
    from PIL import Image

    if getattr(model.processor, "chat_template", None) is None:
        # A processor with no chat template places the image itself (Kosmos-2's): the bare prompt.
        text = prompt
    else:
        content = [{"type": "image"}, {"type": "text", "text": prompt}]
        text = model.processor.apply_chat_template(
            [{"role": "user", "content": content}], add_generation_prompt=True, tokenize=False
        )
    # A PIL image: some processors (Idefics 2's) take no bare array.
    pixels = np.full((PROBE_IMAGE_SIDE, PROBE_IMAGE_SIDE, 3), 128, dtype=np.uint8)
    return text, {"images": [Image.fromarray(pixels)]}


def probe_order(model: Any, layer: int, prompt: str = PROBE_PROMPT) -> dict[str, int]:
    """Run one probe trace and rank block `layer`'s available values by first visit.

    A model loaded without `dispatch=True` loads its weights first: the probe runs
    the real forward, and instrumenting a call on the meta skeleton would not survive
    the load the trace triggers.
    """
    if not getattr(model, "dispatched", True):
        model.dispatch()
    block = model.layers[layer]
    wanted: dict[str, str] = {}
    for name, host, attr in block_values(block):
        if attr.reason(host) is not None or isinstance(attr, DerivedEProperty) or attr._preprocess is None:
            continue
        key = attr._key(host)
        segments = key.split(".")
        if "source" in segments and not key.startswith("../"):
            # The module whose forward holds the operation (the host, a child such as a
            # router, or a module named from the root by a key anchored at `/`).
            owner = host.root if key.startswith("/") else host
            for segment in key.lstrip("/").split(".")[: segments.index("source")]:
                owner = getattr(owner, segment)
            owner.source  # noqa: B018 - instruments that forward for the probe
        location, _ = resolve(host, key, walk=False, name=name)
        wanted[name] = location
    drills = {base for location in wanted.values() for base in _op_drills(location)}

    interleaver = model.interleaver
    seen: dict[str, int] = {}
    original = interleaver.handle

    def recording(provider: str, value: Any) -> Any:
        if not seen:
            for base in drills:
                interleaver.sourced.setdefault(base, None)
        seen.setdefault(provider, len(seen))
        if provider.endswith(".fn") and provider[:-3] in drills and interleaver.sourced.get(provider[:-3]) is None:
            base = provider[:-3]
            interleaver.sourced[base] = instrument(
                value, make_op(lambda base=base: (interleaver, base) if interleaver.interleaving else (None, None))
            )
        return original(provider, value)

    text, inputs = _probe_inputs(model, prompt)
    interleaver.handle = recording
    try:
        with model.trace(text, **inputs):
            model.output  # noqa: B018 - a request, so the run has a worker
    finally:
        del interleaver.handle
    visits = {name: seen[location] for name, location in wanted.items() if location in seen}
    ranks = {visit: rank for rank, visit in enumerate(sorted(set(visits.values())))}
    return {name: ranks[visit] for name, visit in sorted(visits.items(), key=lambda item: item[1])}

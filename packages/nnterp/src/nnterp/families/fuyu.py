"""Fuyu (`FuyuForCausalLM`, under either task): Persimmon's text model, with no tower.

The text stack sits under `model.language_model` and is served with Persimmon's classes
(`nnterp.families.persimmon`). Its one image module, `vision_embed_tokens`, linearly
projects each raw patch into the text stream, so no module is a tower apart from the
projector and the wrapper has no `vision` or `projector`.
"""

from nnterp.families import persimmon

RENAME = {
    **persimmon.RENAME,
    "model.language_model.embed_tokens": "embed_tokens",
    "model.language_model.layers": "layers",
    "model.language_model.final_layernorm": "norm",
}

ENVOYS = dict(persimmon.ENVOYS)

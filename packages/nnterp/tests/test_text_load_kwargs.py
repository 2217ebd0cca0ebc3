"""A family's `TEXT_LOAD_KWARGS`: the load arguments a default-task load from a checkpoint gets.

Emu3's is the one in use: its `key_mapping` loads a wrapper checkpoint's text weights
into `Emu3ForCausalLM`, which transformers alone leaves at their random init.
"""

import types

import torch
from safetensors import safe_open

from nnterp import StandardizedTransformer
from nnterp.families import emu3
from nnterp.families import llama as llama_family


def saved_embeddings(path) -> torch.Tensor:
    with safe_open(f"{path}/model.safetensors", "pt") as handle:
        return handle.get_tensor("text_model.model.embed_tokens.weight").float()


def test_a_default_task_load_gets_the_family_load_kwargs(path):
    model = StandardizedTransformer(path("emu3"), dispatch=True)
    assert model.family is emu3
    assert type(model._module).__name__ == "Emu3ForCausalLM"
    assert model.kwargs["key_mapping"] == emu3.TEXT_LOAD_KWARGS["key_mapping"]
    assert torch.equal(model.embed_tokens._module.weight, saved_embeddings(path("emu3")))


def test_the_callers_own_argument_wins(path):
    own = {r"^vqmodel\.": "vqmodel."}
    model = StandardizedTransformer(path("emu3"), dispatch=True, key_mapping=own)
    assert model.kwargs["key_mapping"] == own
    assert not torch.equal(model.embed_tokens._module.weight, saved_embeddings(path("emu3")))


def test_another_task_and_a_loaded_module_get_none(path, llama):
    wrapper = StandardizedTransformer(path("emu3"), task="image-text-to-text")
    assert wrapper.family is emu3
    assert "key_mapping" not in wrapper.kwargs
    family = types.SimpleNamespace(
        RENAME=llama_family.RENAME, ENVOYS=llama_family.ENVOYS, TEXT_LOAD_KWARGS={"key_mapping": {"^a$": "b"}}
    )
    assert StandardizedTransformer(path("llama"), family=family).kwargs["key_mapping"] == {"^a$": "b"}
    assert "key_mapping" not in StandardizedTransformer(llama._module, family=family).kwargs

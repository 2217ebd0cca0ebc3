"""The family registry: lookup order, register, known(), the light import, family=, the remote key."""

import subprocess
import sys
import types
import warnings

import pytest

import nnterp
from nnterp import StandardizedTransformer, families
from nnterp.families import default, gpt2, llama


def test_every_family_module_is_named_after_its_model_type():
    from transformers import CONFIG_MAPPING

    shipped = families.known()
    assert {"gpt2", "llama", "gpt_neox", "qwen2", "gemma2", "bloom", "opt"} <= set(shipped)
    # Llama-shaped dense types every release of the matrix has.
    assert {"mistral", "qwen3", "olmo", "granite", "phi3", "starcoder2", "nemotron", "youtu"} <= set(shipped)
    assert "default" not in shipped
    files = families._shipped("transformers")
    for model_type in shipped:
        assert model_type in CONFIG_MAPPING, model_type
        name = families.module_name(model_type)
        assert name in files, f"{model_type} has no module named {name}.py"
        # Either spelling reaches the one module, and it is no fallback.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            module = families.lookup(model_type)
            assert families.lookup(name) is module, model_type
        assert not [w for w in caught if "nnterp has no family" in str(w.message)], model_type
        assert module.__name__ == f"nnterp.families.{name}", module.__name__
        for key in module.ENVOYS:
            if isinstance(key, type):
                # A modeling class, or a container nnterp builds at load: the family's own (xlm's blocks), another
                # family's it reuses (FlauBERT's, XLM's), or a component's (BERT's feed-forward path).
                own = key.__module__.startswith(("nnterp.families.", "nnterp.components."))
                assert own or key.__module__.startswith("transformers.models."), f"{model_type}: {key!r}"
    # A module whose type this release lacks is left out of known(), never listed under another spelling.
    for name in files:
        assert name.isidentifier() and name == name.lower(), name
        spellings = {name, name.replace("_", "-")}
        if not spellings & set(CONFIG_MAPPING):
            assert not spellings & set(shipped), name


def test_import_nnterp_loads_no_modeling_module_and_lookup_loads_one_family():
    code = (
        "import sys, nnterp\n"
        "bad = [m for m in sys.modules if m.startswith('transformers.models.') and '.modeling_' in m]\n"
        "assert not bad, bad\n"
        "from nnterp import families\n"
        "families.lookup('gpt2')\n"
        "fams = sorted(m for m in sys.modules if m.startswith('nnterp.families.'))\n"
        "assert fams == ['nnterp.families.default', 'nnterp.families.gpt2'], fams\n"
        "mods = sorted(m for m in sys.modules if m.startswith('transformers.models.') and '.modeling_' in m and '.auto.' not in m)\n"
        "assert mods == ['transformers.models.gpt2.modeling_gpt2'], mods\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_unknown_model_type_falls_back_to_default_with_a_warning():
    with pytest.warns(UserWarning, match="nnterp has no family for model_type 'my_arch'.*nnterp/families/my_arch.py"):
        assert families.lookup("my_arch") is default


def test_a_dashed_model_type_is_one_module_under_either_spelling():
    with pytest.warns(UserWarning, match="nnterp/families/my_new_arch.py"):
        families.lookup("my-new-arch")
    variant = types.SimpleNamespace(**vars(gpt2))
    try:
        families.register(variant, "my-new-arch")
        assert families.REGISTRY["my_new_arch"] is variant
        assert families.lookup("my-new-arch") is variant
        assert families.lookup("my_new_arch") is variant
    finally:
        del families.REGISTRY["my_new_arch"]
    assert families.module_name("gpt-sw3") == "gpt_sw3"


def test_register_adds_overrides_and_cleans_up():
    variant = types.SimpleNamespace(**vars(gpt2))
    try:
        assert families.register(variant, "gpt2") is variant
        assert families.lookup("gpt2") is variant
    finally:
        del families.REGISTRY["gpt2"]
    assert families.lookup("gpt2") is gpt2


def test_register_takes_the_type_from_the_module_name():
    try:
        families.register(llama)
        assert families.REGISTRY["llama"] is llama
    finally:
        del families.REGISTRY["llama"]


def test_register_refuses_a_nameless_namespace():
    with pytest.raises(TypeError, match="a SimpleNamespace has no __name__ to take one from"):
        families.register(types.SimpleNamespace(RENAME={}, ENVOYS={}))


def test_vllm_engine_has_no_default():
    with pytest.raises(
        nnterp.UnsupportedFamily, match=r"^no standardization for model_type 'diffllama' on vllm; known: \["
    ):
        families.lookup("diffllama", engine="vllm")


def test_family_keyword_takes_a_namespace_for_one_load(path):
    variant = types.SimpleNamespace(**vars(gpt2))
    variant.RENAME = {**gpt2.RENAME, "mlp": ["mlp", "ffn"]}
    model = StandardizedTransformer(path("gpt2"), family=variant)
    assert model.family is variant
    assert model.layers[0].ffn is model.layers[0].mlp
    assert families.REGISTRY == {}
    assert model.intermediate_size == 4 * model.hidden_size


def test_a_size_or_project_on_vocab_on_the_family_wins(path):
    variant = types.SimpleNamespace(**vars(llama))
    variant.hidden_size = lambda model: 12345
    variant.project_on_vocab = lambda model, hidden: "own"
    model = StandardizedTransformer(path("llama"), family=variant)
    assert model.hidden_size == 12345
    assert model.project_on_vocab(None) == "own"


def test_a_namespace_without_the_size_function_falls_back_to_the_config(path):
    bare = types.SimpleNamespace(RENAME=gpt2.RENAME, ENVOYS=gpt2.ENVOYS)
    model = StandardizedTransformer(path("gpt2"), family=bare)
    assert model.support()["layer_output"] is None
    with pytest.raises(AttributeError):
        model.intermediate_size  # noqa: B018 - GPT-2's config has no intermediate_size


def test_sizes_refuse_assignment(gpt2):
    with pytest.raises(AttributeError, match="read off the config.*def hidden_size\\(model\\)"):
        gpt2.hidden_size = 5


def test_rename_and_envoys_merge_over_the_family(path):
    from transformers.models.gpt2.modeling_gpt2 import GPT2MLP

    class MyMlp(gpt2.Mlp):
        pass

    model = StandardizedTransformer(
        path("gpt2"), rename={"transformer.wpe": "embed_positions", "mlp": "ffn"}, envoys={GPT2MLP: MyMlp}
    )
    assert model.embed_positions is model.transformer.wpe
    assert model.layers[0].ffn is model.layers[0].mlp
    assert model.layers[0].self_attn is model.transformer.h[0].attn
    assert all(type(layer.mlp) is MyMlp for layer in model.layers)


def test_a_preloaded_module_uses_its_own_config(path):
    from transformers import AutoModelForCausalLM

    raw = AutoModelForCausalLM.from_pretrained(path("gpt2"), attn_implementation="eager")
    model = StandardizedTransformer(raw)
    assert model.family is gpt2
    with model.trace("Hello world"):
        out = model.layers[0].layer_output.save()
    assert out.shape[-1] == model.hidden_size


def test_remote_key_names_transformers_model_without_the_network(gpt2):
    key = gpt2.to_model_key()
    assert key.startswith("nnsight.modeling.transformers.TransformersModel:")
    assert gpt2.repo_id in key


def test_family_without_rename_is_refused(path):
    with pytest.raises(TypeError, match="RENAME and ENVOYS"):
        StandardizedTransformer(path("gpt2"), family=object())


def test_the_default_family_standardizes_a_known_layout(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = StandardizedTransformer(path("llama"), family=default, dispatch=True)
    support = model.support()
    assert support["layer_output"] is None
    assert "cannot tell what this sublayer adds" in support["mlp.mlp_output"][0]
    assert "cannot tell" in support["self_attn.attention_output"][0]
    assert "cannot tell" in support["layer_mid"][0]
    with pytest.raises(nnterp.Unavailable, match="project_on_vocab"):
        model.project_on_vocab(None)


def test_the_default_family_bit_matches_the_dedicated_one(path, llama):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        guess = StandardizedTransformer(path("llama"), family=default, dispatch=True, attn_implementation="eager")
    prompt = "The Eiffel Tower is in"
    with guess.trace(prompt):
        a = guess.layers[1].layer_output.save()
        b = guess.logits.save()
    with llama.trace(prompt):
        c = llama.layers[1].layer_output.save()
        d = llama.logits.save()
    assert a.equal(c) and b.equal(d)


def test_the_default_family_refuses_what_it_cannot_name_and_suggests_a_rename(path):
    with pytest.raises(
        nnterp.UnsupportedFamily,
        match=r"found no embed_tokens.*perhaps rename=\{'model.embed_tokens': 'embed_tokens'\}",
    ):
        StandardizedTransformer(path("llama"), family=default, rename={"model.embed_tokens": "emb"})


def _tiny(tmp_path, path, model_type, **config):
    """A random checkpoint of `model_type` with the pinned tokenizer, built in `tmp_path`."""
    import shutil

    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    torch.manual_seed(0)
    source = path("llama")
    built = AutoModelForCausalLM.from_config(AutoConfig.for_model(model_type, vocab_size=1024, **config))
    target = tmp_path / model_type
    built.save_pretrained(target)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(f"{source}/{name}", target / name)
    return str(target)


def test_a_type_without_a_family_loads_under_default_with_a_warning(tmp_path, path):
    from transformers import AutoConfig, AutoModelForCausalLM, MistralConfig, MistralForCausalLM

    # A model type no family will ever ship: Mistral's code registered under a new name.
    class NoFamilyConfig(MistralConfig):
        model_type = "nnterp_test_no_family"

    class NoFamilyForCausalLM(MistralForCausalLM):
        config_class = NoFamilyConfig

    AutoConfig.register("nnterp_test_no_family", NoFamilyConfig, exist_ok=True)
    AutoModelForCausalLM.register(NoFamilyConfig, NoFamilyForCausalLM, exist_ok=True)
    checkpoint = _tiny(
        tmp_path,
        path,
        "nnterp_test_no_family",
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=8,
    )
    with pytest.warns(UserWarning, match="nnterp has no family for model_type 'nnterp_test_no_family'"):
        model = StandardizedTransformer(checkpoint, dispatch=True)
    assert model.family is default
    support = model.support()
    assert support["layer_output"] is None
    assert support["mlp.mlp_output"][0].startswith("the default family cannot tell what this sublayer adds")
    with model.trace("The Eiffel Tower is in"):
        out = model.layers[1].layer_output.save()
    assert out.shape[-1] == 32


def test_the_default_cannot_name_ctrl_and_says_which_rename_would(tmp_path, path):
    checkpoint = _tiny(tmp_path, path, "ctrl", n_embd=32, dff=64, n_layer=2, n_head=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(nnterp.UnsupportedFamily) as error:
            StandardizedTransformer(checkpoint, dispatch=True, family=default)
        message = str(error.value)
        assert "the default family cannot standardize CTRLLMHeadModel: found no embed_tokens, norm" in message
        assert "perhaps rename={'transformer.w': 'embed_tokens', 'transformer.layernorm': 'norm'}" in message
        model = StandardizedTransformer(
            checkpoint,
            dispatch=True,
            family=default,
            rename={"transformer.w": "embed_tokens", "transformer.layernorm": "norm"},
        )
    assert model.family is default and model.support(layer=0)["layer_output"] is None


def wrapper_config(own, text):
    return types.SimpleNamespace(model_type=own, text_config=types.SimpleNamespace(model_type=text))


def test_a_wrapper_takes_its_own_family_where_one_ships_else_its_text_family():
    from nnterp.standardized import family_model_type

    assert (
        families.has_family("minicpmv4_7")
        and families.has_family("llava")
        and not families.has_family("unshipped_wrapper")
    )
    assert not families.has_family("default") and not families.has_family("_releases")
    assert family_model_type(wrapper_config("minicpmv4_7", "qwen3_5_text")) == "minicpmv4_7"
    assert family_model_type(wrapper_config("llava", "qwen2")) == "llava"
    assert family_model_type(wrapper_config("unshipped_wrapper", "gemma3_text")) == "gemma3_text"
    assert family_model_type(wrapper_config("minicpmv4_7", "qwen3_5_text"), engine="vllm") == "qwen3_5_text"


def test_a_family_registered_for_a_wrapper_type_wins_over_its_text_family():
    from nnterp.standardized import family_model_type

    variant = types.SimpleNamespace(**vars(llama))
    try:
        families.register(variant, "unshipped_wrapper")
        assert families.has_family("unshipped_wrapper")
        assert family_model_type(wrapper_config("unshipped_wrapper", "gemma3_text")) == "unshipped_wrapper"
    finally:
        del families.REGISTRY["unshipped_wrapper"]
    assert family_model_type(wrapper_config("unshipped_wrapper", "gemma3_text")) == "gemma3_text"

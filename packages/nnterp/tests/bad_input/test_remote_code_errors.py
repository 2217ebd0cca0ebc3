"""Custom code runs only with `trust_remote_code=True`, and the remote key follows nnsight's id cache."""

import json

import pytest

from nnterp import StandardizedTransformer


def test_custom_code_runs_only_with_trust_remote_code(tmp_path):
    marker = tmp_path / "executed"
    checkpoint = tmp_path / "custom"
    checkpoint.mkdir()
    (checkpoint / "config.json").write_text(
        json.dumps(
            {
                "model_type": "nnterp_custom",
                "architectures": ["CustomModel"],
                "auto_map": {
                    "AutoConfig": "configuration_custom.CustomConfig",
                    "AutoModelForCausalLM": "modeling_custom.CustomModel",
                },
            }
        )
    )
    (checkpoint / "configuration_custom.py").write_text(
        f"open({str(marker)!r}, 'w').write('ran')\n"
        "from transformers import PretrainedConfig\n\n\n"
        "class CustomConfig(PretrainedConfig):\n    model_type = 'nnterp_custom'\n"
    )
    with pytest.raises(ValueError, match="trust_remote_code=True") as caught:
        StandardizedTransformer(str(checkpoint))
    assert "nnterp" not in str(caught.value).replace("nnterp_custom", "")  # transformers' own message
    assert not marker.exists(), "the checkpoint's code ran without trust_remote_code=True"


def test_the_remote_key_follows_nnsights_id_cache(gpt2, monkeypatch):
    import nnsight
    from nnsight.modeling.huggingface import _ID_CACHE

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(gpt2, "repo_id", "gpt2")
    monkeypatch.delitem(_ID_CACHE, "gpt2", raising=False)
    # nnsight would ask the Hub here; nnterp keeps the id as given
    assert json.loads(gpt2.to_model_key().split(":", 1)[1])["repo_id"] == "gpt2"
    monkeypatch.setitem(_ID_CACHE, "gpt2", "openai-community/gpt2")
    key = gpt2.to_model_key()
    assert json.loads(key.split(":", 1)[1])["repo_id"] == "openai-community/gpt2"
    assert key.split(":", 1)[1] == nnsight.TransformersModel._remoteable_model_key(gpt2)

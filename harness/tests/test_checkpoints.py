"""Checks on the committed tiny checkpoints and the trained demo checkpoint."""

import os

os.environ["HF_HUB_OFFLINE"] = "1"

import json  # noqa: E402
import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import nnsight  # noqa: F401,E402  (nnsight must be imported before transformers.models.*)
import pytest  # noqa: E402
import torch  # noqa: E402
import transformers  # noqa: E402
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer, PreTrainedTokenizerFast  # noqa: E402

from nnterp_harness import checkpoints, facts, locate, release  # noqa: E402
from nnterp_harness.tokenizer import SPECIAL_ID, SPECIAL_TOKEN, VOCAB_SIZE, build_tokenizer  # noqa: E402
from nnterp_harness.vision import WRAPPED_VOCAB_LIMIT  # noqa: E402

TINY_LIMIT = 1_000_000
DEMO_LIMIT = 20_000_000
PROBE = "The Eiffel Tower is in"

TINY = sorted(checkpoints.ENTRIES)
ALL = [*TINY, checkpoints.DEMO_NAME, checkpoints.MLM_DEMO_NAME]


def one_id(value):
    """A token id, or the one id of a list (Phi-4-multimodal's config replaces an `eos_token_id` of 0 unless listed)."""
    return value[0] if isinstance(value, list) and len(value) == 1 else value


#: Vision configs of an encoder with no blocks in a tower's place: Gemma 4 unified's embedder, Apertus 1.5's VQ codec.
EMBEDDER_ONLY = ("gemma4_unified_vision", "apertus1p5_vision_tokenizer")


def needs_release(name: str) -> None:
    """Skip a check that loads checkpoint `name` on a transformers release without its model type."""
    if name in checkpoints.ENTRIES:
        release.skip_unless_known(checkpoints.ENTRIES[name].model_type, name)


def load_config(path: Path, name: str):
    """The checkpoint's config; skips with the entry's `cannot_run` reason where this release cannot load it."""
    try:
        return AutoConfig.from_pretrained(path)
    except Exception:
        cannot_run = checkpoints.ENTRIES[name].cannot_run if name in checkpoints.ENTRIES else None
        reason = cannot_run() if cannot_run is not None else None
        if reason:
            pytest.skip(reason)
        raise


@pytest.fixture(scope="module")
def root() -> Path:
    return locate.checkpoints_root()


def _dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


@pytest.mark.parametrize("name", ALL)
def test_matches_manifest(root: Path, name: str) -> None:
    assert (root / name).is_dir(), f"{name} is missing from {root}"
    assert checkpoints.verify(name, root) == []
    manifest = json.loads((root / name / checkpoints.MANIFEST).read_text())
    assert manifest["name"] == name
    assert {"config.json", "model.safetensors", "tokenizer.json"} <= set(manifest["files"])


def test_verify_reports_a_changed_file(root: Path, tmp_path: Path) -> None:
    shutil.copytree(root / "llama", tmp_path / "llama")
    config = tmp_path / "llama" / "config.json"
    config.write_text(config.read_text() + "\n")
    (tmp_path / "llama" / "extra.txt").write_text("not in the manifest")
    assert checkpoints.verify("llama", tmp_path) == ["config.json", "extra.txt"]
    assert checkpoints.main(["verify", "llama", "--root", str(tmp_path)]) == 1


@pytest.mark.parametrize("name", ALL)
def test_size(root: Path, name: str) -> None:
    limit = DEMO_LIMIT if name == checkpoints.DEMO_NAME else TINY_LIMIT
    size = _dir_size(root / name)
    assert 0 < size <= limit, f"{name} takes {size} bytes, limit {limit}"


@pytest.mark.parametrize("name", TINY)
def test_tiny_config_shape(root: Path, name: str) -> None:
    needs_release(name)
    config = load_config(root / name, name)
    assert config.model_type == checkpoints.ENTRIES[name].model_type
    # A wrapper is held to its text model's shape, its tower to a tiny one, and its
    # vocabulary may add the image tokens to the shared one.
    text = config.get_text_config()
    tower = getattr(config, "vision_config", None)
    assert text.hidden_size <= 64
    # LongCat-Flash counts its blocks in `num_layers`; 5.17 reads its `num_hidden_layers` as the default.
    blocks = min(text.num_hidden_layers, getattr(text, "num_layers", None) or text.num_hidden_layers)
    assert 2 <= blocks <= 4
    wrapper = tower is not None or checkpoints.ENTRIES[name].processor is not None  # Fuyu has no vision config
    assert text.vocab_size <= (WRAPPED_VOCAB_LIMIT if wrapper else VOCAB_SIZE)
    # A tower built of several (DeepSeek-OCR 2's SAM encoder, then its Qwen2 encoder) holds each to the bound.
    parts = [getattr(tower, key) for key in getattr(tower, "sub_configs", {}) if getattr(tower, key, None) is not None]
    for part in parts or ([tower] if tower is not None else []):
        assert getattr(part, "hidden_size", 0) <= 64 and getattr(part, "embed_dim", 0) <= 64
        assert getattr(part, "mm_embed_dim", 0) <= 64
        depth = getattr(part, "num_hidden_layers", None) or getattr(part, "depth", None)
        # An embedder in the tower's place (Gemma 4 unified's) has no blocks.
        assert (depth is None and part.model_type in EMBEDDER_ONLY) or 2 <= depth <= 4, f"{name}: depth {depth}"
    for part in (config, text, tower):
        for key, value in (part.to_dict() if part is not None else {}).items():
            if ("drop" in key) and isinstance(value, (int, float)) and not isinstance(value, bool):
                assert value == 0, f"{name}: {key} = {value}"
    if name in ("llama", "qwen2", "gemma2"):  # the reference grouped-query checkpoints
        assert config.num_key_value_heads >= 2
        assert config.num_key_value_heads < config.num_attention_heads


def test_demo_config_shape(root: Path) -> None:
    config = AutoConfig.from_pretrained(root / checkpoints.DEMO_NAME)
    assert config.model_type == "llama"
    assert config.vocab_size <= VOCAB_SIZE
    encoder = AutoConfig.from_pretrained(root / checkpoints.MLM_DEMO_NAME)
    assert encoder.model_type == "bert" and encoder.vocab_size <= VOCAB_SIZE


@pytest.mark.parametrize("name", ALL)
def test_tokenizer_matches_config(root: Path, name: str) -> None:
    needs_release(name)
    path = root / name
    config = load_config(path, name)
    tokenizer = AutoTokenizer.from_pretrained(path)
    PreTrainedTokenizerFast.from_pretrained(path, add_prefix_space=False)
    assert len(tokenizer) == config.get_text_config().vocab_size
    assert tokenizer.convert_ids_to_tokens(SPECIAL_ID) == SPECIAL_TOKEN
    framed = tokenizer.mask_token is not None
    if framed:
        # An encoder's tokenizer: padding and unknown at the special id, then [CLS], [SEP], [MASK]; no generation.
        assert (tokenizer.pad_token_id, tokenizer.unk_token_id) == (SPECIAL_ID, SPECIAL_ID)
        framing = (tokenizer.cls_token_id, tokenizer.sep_token_id, tokenizer.mask_token_id)
        assert framing == tuple(range(SPECIAL_ID + 1, SPECIAL_ID + 4)), framing
        assert one_id(config.get_text_config().pad_token_id) == SPECIAL_ID
        assert not (path / "generation_config.json").exists()
    else:
        for attr in ("bos_token_id", "eos_token_id", "pad_token_id", "unk_token_id"):
            assert getattr(tokenizer, attr) == SPECIAL_ID, attr
        for attr in ("bos_token_id", "eos_token_id", "pad_token_id"):
            assert one_id(getattr(config.get_text_config(), attr)) == SPECIAL_ID, attr
        generation = json.loads((path / "generation_config.json").read_text())
        for attr in ("bos_token_id", "eos_token_id", "pad_token_id"):
            assert one_id(generation[attr]) == SPECIAL_ID, attr
    ids = tokenizer(PROBE)["input_ids"]
    if framed:  # the encoder's framing: [CLS] ... [SEP]
        assert (ids[0], ids[-1]) == (tokenizer.cls_token_id, tokenizer.sep_token_id)
        ids = ids[1:-1]
    assert len(ids) <= 7
    assert SPECIAL_ID not in ids, "the tokenizer must not add special tokens"
    for word in facts.answer_words():
        assert len(tokenizer(" " + word, add_special_tokens=False)["input_ids"]) == 1, word


@pytest.mark.parametrize("name", TINY)
def test_tiny_forward(root: Path, name: str) -> None:
    needs_release(name)
    cannot_run = checkpoints.ENTRIES[name].cannot_run
    reason = cannot_run() if cannot_run is not None else None
    if reason:
        pytest.skip(reason)
    path = root / name
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = getattr(transformers, checkpoints.ENTRIES[name].auto_class).from_pretrained(path).eval()
    probe_inputs = checkpoints.ENTRIES[name].probe_inputs
    inputs = (
        probe_inputs(path, PROBE) if probe_inputs else {"input_ids": tokenizer(PROBE, return_tensors="pt")["input_ids"]}
    )
    with torch.no_grad():
        logits = model(**inputs).logits
    # A head may drop the rows a padded vocabulary adds (Inkling 2's `unpadded_vocab_size`).
    width = getattr(model.config.get_text_config(), "unpadded_vocab_size", None) or len(tokenizer)
    assert logits.shape == (1, inputs["input_ids"].shape[1], width)
    assert torch.isfinite(logits).all()
    assert logits[0, -1].std() > 0.1, "next-token logits are nearly flat"
    # A one-element parameter (xIELU's learned alphas) has no other element to repeat.
    constant = [n for n, p in model.named_parameters() if p.numel() > 1 and bool((p == p.reshape(-1)[0]).all())]
    assert constant == [], f"parameters holding a single repeated value: {constant}"


def test_tokenizer_rebuilds_identically(root: Path) -> None:
    built = build_tokenizer()
    committed = AutoTokenizer.from_pretrained(root / "llama")
    assert built.get_vocab() == committed.get_vocab()
    sample = "The Eiffel Tower is in the city of Paris. Gustave sold a wooden box at the market."
    assert built(sample)["input_ids"] == committed(sample)["input_ids"]


@pytest.mark.parametrize("name", TINY)
def test_tiny_rebuild_matches_manifest(root: Path, name: str, tmp_path: Path) -> None:
    needs_release(name)
    cannot_run = checkpoints.ENTRIES[name].cannot_run
    reason = cannot_run() if cannot_run is not None else None
    if reason:
        pytest.skip(reason)
    manifest = json.loads((root / name / checkpoints.MANIFEST).read_text())
    path = checkpoints.build(name, tmp_path)
    # The weights and the tokenizer rebuild bit for bit on every release of the matrix; the
    # configs carry the building release's version stamp, so they match only under that release.
    assert checkpoints.sha256_file(path / "tokenizer.json") == manifest["files"]["tokenizer.json"]
    building = manifest["transformers"] == transformers.__version__
    if checkpoints.sha256_file(path / "model.safetensors") != manifest["files"]["model.safetensors"]:
        # Another release may write a wrapper under its own legacy parameter names (MiniMax-M3-VL's
        # on 5.17 and 5.20): the file differs, and every weight must still be the same.
        assert not building, "model.safetensors differs from the manifest under the building release"
        auto = getattr(transformers, checkpoints.ENTRIES[name].auto_class)
        rebuilt = auto.from_pretrained(path).state_dict()
        pinned = auto.from_pretrained(root / name).state_dict()
        assert rebuilt.keys() == pinned.keys()
        for key, tensor in pinned.items():
            assert torch.equal(rebuilt[key], tensor), key
    if building:
        assert checkpoints.verify(name, tmp_path) == []


@pytest.fixture(scope="module")
def demo(root: Path):
    path = root / checkpoints.DEMO_NAME
    return AutoModelForCausalLM.from_pretrained(path).eval(), AutoTokenizer.from_pretrained(path)


def test_demo_predicts_paris(demo) -> None:
    model, tokenizer = demo
    ids = tokenizer("The Eiffel Tower is in the city of", return_tensors="pt")["input_ids"]
    with torch.no_grad():
        probs = model(input_ids=ids).logits[0, -1].softmax(-1)
    paris = tokenizer(" Paris", add_special_tokens=False)["input_ids"][0]
    assert int(probs.argmax()) == paris, tokenizer.decode([int(probs.argmax())])
    assert probs[paris] > 0.5


def test_demo_logit_lens(demo) -> None:
    model, tokenizer = demo
    ids = tokenizer("The Eiffel Tower is in the city of", return_tensors="pt")["input_ids"]
    paris = tokenizer(" Paris", add_special_tokens=False)["input_ids"][0]
    states: list[torch.Tensor] = []
    handles = [
        layer.register_forward_hook(lambda _m, _i, out: states.append(out[0] if isinstance(out, tuple) else out))
        for layer in model.model.layers
    ]
    try:
        with torch.no_grad():
            model(input_ids=ids)
            lens = [model.lm_head(model.model.norm(s[0, -1])).softmax(-1) for s in states]
    finally:
        for handle in handles:
            handle.remove()
    p_paris = [float(p[paris]) for p in lens]
    assert len(p_paris) == model.config.num_hidden_layers
    assert int(lens[0].argmax()) != paris, p_paris
    assert max(p_paris) == p_paris[-1], p_paris
    assert p_paris[-1] > 2 * p_paris[0], p_paris


def test_demo_landmark_accuracy(demo) -> None:
    model, tokenizer = demo
    hits = 0
    for landmark in facts.LANDMARKS:
        ids = tokenizer(facts.city_prompt(landmark), return_tensors="pt")["input_ids"]
        with torch.no_grad():
            top = int(model(input_ids=ids).logits[0, -1].argmax())
        hits += tokenizer.decode([top]) == " " + landmark.city
    assert hits / len(facts.LANDMARKS) >= 0.8, f"{hits}/{len(facts.LANDMARKS)}"


def test_mlm_demo_fills_the_mask_with_paris(root: Path) -> None:
    from transformers import AutoModelForMaskedLM

    path = root / checkpoints.MLM_DEMO_NAME
    model, tokenizer = AutoModelForMaskedLM.from_pretrained(path).eval(), AutoTokenizer.from_pretrained(path)
    ids = tokenizer("The Eiffel Tower is in the city of [MASK].", return_tensors="pt")["input_ids"]
    with torch.no_grad():
        logits = model(input_ids=ids).logits[0]
    probs = logits[ids[0] == tokenizer.mask_token_id][0].softmax(-1)
    paris = tokenizer(" Paris", add_special_tokens=False)["input_ids"][0]
    assert int(probs.argmax()) == paris, tokenizer.decode([int(probs.argmax())])
    assert probs[paris] > 0.5

"""The encyclopedia covers every shipped family, each page is what the code says now, and the generator survives a family it cannot read."""

from __future__ import annotations

from pathlib import Path

import pytest
from nnterp_site import encyclopedia

FAMILIES = encyclopedia.families()


def _page(built_site: Path, model_type: str) -> Path:
    return built_site / encyclopedia.SECTION / encyclopedia.slug(model_type) / "index.html"


def _embedded(built_site: Path, model_type: str) -> dict:
    page = _page(built_site, model_type)
    assert page.is_file(), f"the shipped family {model_type!r} has no encyclopedia page ({page} is missing)"
    found = encyclopedia.embedded(page.read_text())
    assert len(found) == 1, f"{page} embeds {len(found)} data blocks, not one"
    return found[0]


def test_families_are_found() -> None:
    assert "llama" in FAMILIES and "gpt2" in FAMILIES


@pytest.mark.parametrize("model_type", FAMILIES)
def test_every_family_has_a_complete_page(built_site: Path, model_type: str) -> None:
    data = _embedded(built_site, model_type)
    assert data["problems"] == [], f"the page of {model_type!r} says the generator could not read it: {data['problems']}"
    assert data["blocks"], f"the page of {model_type!r} draws no block"
    assert data["checkpoint"]["path"].startswith("tiny_checkpoints/")
    names = {row["name"] for block in data["blocks"] for row in block["values"]}
    assert "layer_output" in names, f"the page of {model_type!r} lists no layer_output"
    # A block with no read order serves nothing on the load, and every value of it says why.
    ordered = all(block["order"] or all(row["reason"] for row in block["values"]) for block in data["blocks"])
    assert ordered, f"the page of {model_type!r} has a block without its read order"
    html = _page(built_site, model_type).read_text()
    assert 'class="nnterp-ency"' in html


@pytest.mark.parametrize("model_type", FAMILIES)
def test_every_page_is_current(built_site: Path, model_type: str) -> None:
    """A page was built from the code and the checkpoint there are now: its embedded fingerprint is a fresh one."""
    page = _embedded(built_site, model_type)
    assert page.get("fingerprint") == encyclopedia.fingerprint(model_type), (
        f"the page of {model_type!r} was built from other code or another checkpoint: rebuild the site (nox -s docs)"
    )


def test_a_changed_checkpoint_changes_the_fingerprint(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "llama"
    shutil.copytree(encyclopedia.pinned_checkpoint("llama"), copy)
    monkeypatch.setenv("NNTERP_TINY_CHECKPOINTS", str(tmp_path))
    before = encyclopedia.fingerprint("llama")
    config = copy / "config.json"
    config.write_text(config.read_text() + "\n")
    assert encyclopedia.fingerprint("llama") != before


#: Families read a second time to show a read is deterministic: dense, mixture, hybrid blocks, wrapper.
REREAD = [t for t in ("llama", "qwen3_moe", "jamba", "llava") if t in FAMILIES]


@pytest.fixture(scope="module")
def reread() -> dict[str, dict]:
    """A second read of `REREAD`, in worker processes as the build reads them."""
    return {t: encyclopedia.canonical(data) for t, data in encyclopedia.extract_many(REREAD).items()}


@pytest.mark.parametrize("model_type", REREAD)
def test_a_second_read_equals_the_page(built_site: Path, reread: dict[str, dict], model_type: str) -> None:
    """Reading a family again, in another process, gives the data its page embeds."""
    page = _embedded(built_site, model_type)
    fresh = reread[model_type]
    differ = sorted(key for key in set(page) | set(fresh) if page.get(key) != fresh.get(key))
    assert not differ, f"a second read of {model_type!r} differs from its page in {differ}"


def test_index_lists_every_family(built_site: Path) -> None:
    index = (built_site / encyclopedia.SECTION / "index.html").read_text()
    missing = [t for t in FAMILIES if f'href="{encyclopedia.slug(t)}/"' not in index]
    assert not missing, f"the encyclopedia index does not link {missing}"


def test_a_family_without_a_checkpoint_still_gets_a_page(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NNTERP_TINY_CHECKPOINTS", str(tmp_path))
    data = encyclopedia.extract("llama")
    assert any("no pinned tiny checkpoint" in problem for problem in data["problems"])
    page = encyclopedia.render(data)
    assert page.startswith("# Llama") and "What the generator could not read" in page


def test_a_family_that_does_not_import_still_gets_a_page(monkeypatch: pytest.MonkeyPatch) -> None:
    import nnterp.families

    def broken(model_type: str, engine: str | None = None) -> None:
        raise ImportError("a half-written family module")

    monkeypatch.setattr(nnterp.families, "lookup_module", broken)
    data = encyclopedia.extract("newfamily")
    assert data["problems"] and "half-written" in data["problems"][0]
    assert "# newfamily" in encyclopedia.render(data)


def test_a_family_object_without_a_docstring_or_markers_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A family is any object with RENAME and ENVOYS: the module facts read off one the generator has never seen."""
    import types

    from nnterp.families import llama

    family = types.SimpleNamespace(__name__="unseen", __doc__=None, RENAME={"model.layers": "layers"}, ENVOYS={key: cls for key, cls in llama.ENVOYS.items() if key.__name__.startswith("Llama")})
    facts = encyclopedia.module_facts(family)
    assert facts["rename"] == [["model.layers", "layers"]]
    assert {row["module_class"] for row in facts["envoys"]} == {"LlamaDecoderLayer", "LlamaAttention", "LlamaMLP"}
    assert facts["formulas"] == [] and facts["doc"] == ""


def test_read_at_words() -> None:
    assert encyclopedia.read_at("input", None, "served") == "the module's own input"
    assert encyclopedia.read_at("../post_attention_layernorm.output", None, "served") == "the sibling module post_attention_layernorm's output"
    assert (
        encyclopedia.read_at("source.attention_interface_1.source.nn_functional_softmax_0.input", None, "served")
        == "inside the forward: the input of nn_functional_softmax_0 inside attention_interface_1"
    )
    assert encyclopedia.read_at("inputs", "input_ids", "served") == "the module's own arguments, keyword input_ids"

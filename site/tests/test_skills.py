"""The agent skills hold to the code: they install as a plugin, their code runs, and what they name exists.

- `.claude-plugin/marketplace.json` and the plugin's `plugin.json` list exactly the
  skill folders, so `/plugin marketplace add <repo>` installs all three.
- Every code block of a skill runs: its Python blocks in order in one namespace (a
  `#> ` line under a `print` is checked), its shell blocks in a scratch home.
- Every value name, layout, reason and error message a skill states exists in the code,
  and the values skill names every value, shared reason and shipped family the code has,
  so adding one fails here until the skill says it.
- Every skill links the documentation page it summarises, and that page exists.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from nnterp_site import encyclopedia
from pytest_examples import CodeExample, EvalExample, find_examples

import nnterp
from nnterp.components import EProperty

REPO = Path(__file__).resolve().parents[2]
SKILLS = REPO / "skills"
DOCS = REPO / "site" / "docs"
SITE_URL = "https://ndif-team.github.io/nnterp/"
SKILL_DIRS = sorted(path.parent for path in SKILLS.glob("*/SKILL.md"))
NAMES = [path.name for path in SKILL_DIRS]


def _text(name: str) -> str:
    return (SKILLS / name / "SKILL.md").read_text()


def _front_matter(text: str) -> dict[str, str]:
    match = re.match(r"^---\n(.*?)\n---\n", text, flags=re.S)
    assert match, "a SKILL.md starts with YAML front matter"
    return dict(re.findall(r"^(\w+): (.*)$", match.group(1), flags=re.M))


# -- the code's vocabulary ---------------------------------------------------------------------


def _source_text() -> str:
    """nnterp's, nnsight's and transformers' Python source, where a stated name or message must appear."""
    import nnsight
    import transformers

    chunks = [p.read_text(errors="ignore") for p in Path(nnterp.__file__).parent.rglob("*.py")]
    chunks += [p.read_text(errors="ignore") for p in Path(nnsight.__file__).parent.rglob("*.py")]
    chunks += [p.read_text(errors="ignore") for p in (Path(transformers.__file__).parent).glob("*.py")]
    return "\n".join(chunks)


SOURCE = _source_text()


def _classes() -> list[type]:
    from nnterp import StandardizedTransformer, families

    found: list[type] = [StandardizedTransformer]
    for model_type in families.known():
        try:
            module = families.lookup_module(model_type)
        except Exception:  # a family that does not import is the family tests' failure, not this one's
            continue
        found += [envoy for envoy in module.ENVOYS.values() if isinstance(envoy, type)]
    return found


def _values() -> dict[str, set[str]]:
    """Every value name the code serves or declares, with the layouts it is declared under."""
    values: dict[str, set[str]] = {}
    for cls in _classes():
        for klass in cls.__mro__:
            for name, attr in vars(klass).items():
                if isinstance(attr, EProperty):
                    layout = attr.layout
                    values.setdefault(name, set())
                    if layout is not None:
                        values[name].add(getattr(layout, "__name__", ""))
    return values


VALUES = _values()


def _layouts() -> dict[str, tuple[str, ...]]:
    import nnterp.components as components
    import nnterp.standardized as standardized

    found = {}
    for module in (components, standardized):
        for name in dir(module):
            layout = getattr(module, name)
            if hasattr(layout, "dim_str") and getattr(layout, "__name__", None) == name:
                found[name] = tuple(layout.dim_str.split())
    return found


LAYOUTS = _layouts()


# -- the plugin --------------------------------------------------------------------------------


def test_the_marketplace_installs_the_plugin_with_every_skill() -> None:
    marketplace = json.loads((REPO / ".claude-plugin" / "marketplace.json").read_text())
    assert marketplace["name"] and marketplace["owner"]["name"]
    [entry] = marketplace["plugins"]
    root = (REPO / entry["source"]).resolve()
    assert root == REPO, "the plugin's source is the repository itself"
    plugin = json.loads((root / ".claude-plugin" / "plugin.json").read_text())
    assert plugin["name"] == entry["name"]
    listed = sorted((root / path).resolve() for path in plugin["skills"])
    assert listed == [path.resolve() for path in SKILL_DIRS], "plugin.json lists every skill folder, and only those"
    assert len(SKILL_DIRS) == 3


@pytest.mark.parametrize("name", NAMES)
def test_front_matter_names_the_skill(name: str) -> None:
    meta = _front_matter(_text(name))
    assert meta.get("name") == name
    assert len(meta.get("description", "")) > 80


# -- every code block runs ---------------------------------------------------------------------


def _python(name: str) -> list[CodeExample]:
    return list(find_examples(SKILLS / name / "SKILL.md"))


@pytest.mark.parametrize("name", NAMES)
def test_every_python_block_runs(name: str, eval_example: EvalExample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    eval_example.set_config(line_length=120)
    namespace = None
    for example in _python(name):
        try:
            if eval_example.update_examples:
                namespace = eval_example.run_print_update(example, module_globals=namespace)
            else:
                namespace = eval_example.run_print_check(example, module_globals=namespace)
        except BaseException as error:  # pytest cannot render the example's rewritten traceback: say it plainly
            raise AssertionError(f"skills/{name}/SKILL.md, the block at line {example.start_line}: {type(error).__name__}: {error}") from None


def _shell_blocks(text: str) -> list[str]:
    return re.findall(r"^```(?:bash|sh|shell)\n(.*?)^```", text, flags=re.S | re.M)


@pytest.mark.parametrize("name", NAMES)
def test_every_shell_block_runs(name: str, tmp_path: Path) -> None:
    """A shell block runs from the repository root with a scratch home, so an install into ~/.claude stays there."""
    env = {"HOME": str(tmp_path), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "CUDA_VISIBLE_DEVICES": ""}
    for block in _shell_blocks(_text(name)):
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, f"skills/{name}: the shell block\n{block}\nfailed:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"


# -- what a skill names exists -------------------------------------------------------------------

#: A name that reads as a value (the suffixes values take, and the values without one).
VALUE_LIKE = re.compile(
    r"^(?:[a-z][a-z0-9]*_)+(?:output|outputs|input|mid|probs|probabilities|scores|queries|keys|values|premix|activation|"
    r"neurons|embeddings|logits|weights|indices|ids|mask)$|^logits$"
)


def _backticked(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", text)


def _names_in(text: str) -> set[str]:
    """Identifiers in backticks and in code: each dotted component on its own."""
    names = set()
    for span in _backticked(text) + re.findall(r"```python\n(.*?)```", text, flags=re.S):
        names.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span))
    return names


@pytest.mark.parametrize("name", NAMES)
def test_every_value_name_exists(name: str) -> None:
    stated = {token for token in _names_in(_text(name)) if VALUE_LIKE.match(token)}
    unknown = sorted(token for token in stated if token not in VALUES and not re.search(rf"\b{re.escape(token)}\b", SOURCE))
    assert not unknown, f"skills/{name} names values the code does not have: {unknown}"


@pytest.mark.parametrize("name", NAMES)
def test_every_layout_matches_the_code(name: str) -> None:
    """`Layout` `[a, b, c]` in a skill is the layout's axes in the code."""
    wrong = []
    for layout, axes in re.findall(r"`(\w+)`[^`\n|]{0,30}`\[([a-z_, ]+)\]`", _text(name)):
        if layout in LAYOUTS:
            stated = tuple(axis.strip() for axis in axes.split(","))
            if stated != LAYOUTS[layout]:
                wrong.append(f"{layout} is {list(LAYOUTS[layout])}, the skill says {list(stated)}")
    assert not wrong, f"skills/{name}: {wrong}"


def _messages(text: str) -> list[str]:
    """The error messages a skill quotes: backticked spans in its Errors section that carry a message after a colon."""
    section = text.split("## Errors", 1)[1] if "## Errors" in text else ""
    return [span for span in _backticked(section) if re.match(r"^[\w.]+(Error|Unavailable|Family|Exception)\b.*: ", span)]


@pytest.mark.parametrize("name", NAMES)
def test_every_error_message_exists(name: str) -> None:
    missing = []
    for message in _messages(_text(name)):
        text = message.split(": ", 1)[1]
        for fragment in re.split(r"<[^>]+>|\.\.\.", text):
            fragment = fragment.strip(" '\".:")
            if len(fragment) >= 8 and fragment not in SOURCE:
                missing.append(fragment)
    assert not missing, f"skills/{name} quotes messages no code raises: {missing}"


def test_the_values_skill_names_every_value_reason_and_family() -> None:
    from nnterp.components import reasons

    text = _text("nnterp-values")
    values = [value for value in VALUES if f"`{value}`" not in text and f".{value}" not in text]
    assert not values, f"skills/nnterp-values does not name the values {sorted(values)}"
    shared = [
        getattr(reasons, name)
        for name in dir(reasons)
        if name.isupper() and isinstance(getattr(reasons, name), str) and getattr(reasons, name) not in text
    ]
    assert not shared, f"skills/nnterp-values does not state the shared reasons {shared}"
    families = [t for t in encyclopedia.families() if f"`{t}`" not in text]
    assert not families, f"skills/nnterp-values does not list the shipped families {families}"


@pytest.mark.parametrize("name", NAMES)
def test_every_skill_links_its_page(name: str) -> None:
    links = re.findall(re.escape(SITE_URL) + r"([\w/.-]*)", _text(name))
    assert links, f"skills/{name} links no page of the site ({SITE_URL}...)"
    for link in links:
        path = link.strip("/")
        candidates = [DOCS / f"{path}.md", DOCS / path / "index.md"] if path else [DOCS / "index.md"]
        generated = path.startswith(encyclopedia.SECTION + "/")
        assert generated or any(c.is_file() for c in candidates), f"skills/{name} links {SITE_URL}{link}, which no page serves"


def test_the_values_skill_says_what_a_wrapper_does_under_the_default_task() -> None:
    """Every wrapper loads for text under the default task, lazily or dispatched, with an empty `vision.support()`."""
    from nnterp import StandardizedTransformer
    from nnterp.inspect import tiny_checkpoint

    text = _text("nnterp-values")
    assert "every wrapper loads for text, lazily or with `dispatch=True` alike" in text
    assert "`vision.support()` is `{}`" in text
    for name in ("llava", "mistral3", "gemma3"):
        for dispatch in (False, True):
            model = StandardizedTransformer(tiny_checkpoint(name), dispatch=dispatch)
            assert model.processor is None and model.vision.support() == {}, (name, dispatch)

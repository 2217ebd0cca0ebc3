"""The noxfile, `.ci/run`, the README and GitHub's workflows say one thing about what CI runs.

Each workflow job calls a nox session rather than copying its steps, so these checks read the
sessions off `noxfile.py` (its syntax tree: nox itself is not in the test environments) and the
`nox` calls off `.github/workflows/*.yml`.
"""

from __future__ import annotations

import ast
import re
import shlex
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"


def _decorator_call(node: ast.expr) -> tuple[str, ast.Call | None] | None:
    """`("session", call)` for `@nox.session` / `@nox.session(...)`, likewise `parametrize`; else `None`."""
    call = node if isinstance(node, ast.Call) else None
    target = call.func if call is not None else node
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "nox":
        return target.attr, call
    return None


def _noxfile() -> ast.Module:
    return ast.parse((ROOT / "noxfile.py").read_text())


def _constant(name: str):
    for node in _noxfile().body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise LookupError(f"noxfile.py defines no {name}")


def sessions() -> dict[str, dict]:
    """Session name to `{"tags": [...], "parameters": {argument: [values]}}`, read off the noxfile."""
    found = {}
    for node in _noxfile().body:
        if not isinstance(node, ast.FunctionDef):
            continue
        name, tags, parameters, is_session = node.name, [], {}, False
        for decorator in node.decorator_list:
            parsed = _decorator_call(decorator)
            if parsed is None:
                continue
            kind, call = parsed
            if kind == "session":
                is_session = True
                for keyword in call.keywords if call is not None else []:
                    if keyword.arg == "name":
                        name = ast.literal_eval(keyword.value)
                    if keyword.arg == "tags":
                        tags = ast.literal_eval(keyword.value)
            elif kind == "parametrize" and call is not None:
                argument = ast.literal_eval(call.args[0])
                values = call.args[1]
                parameters[argument] = (
                    _constant(values.id) if isinstance(values, ast.Name) else ast.literal_eval(values)
                )
        if is_session:
            found[name] = {"tags": tags, "parameters": parameters}
    return found


def nox_calls() -> list[tuple[str, dict, list[str]]]:
    """Every `nox` command line of every workflow job: (workflow file, job, the command's arguments)."""
    calls = []
    for path in sorted(WORKFLOWS.glob("*.yml")):
        workflow = yaml.safe_load(path.read_text())
        for job in workflow.get("jobs", {}).values():
            for step in job.get("steps", []):
                for line in str(step.get("run", "")).splitlines():
                    words = shlex.split(line)
                    if words[:1] == ["nox"]:
                        calls.append((path.name, job, words[1:]))
    return calls


def _selected(arguments: list[str], known: dict[str, dict]) -> set[str]:
    """The session names a nox command line selects, by `-s`/`--session` or by `-t`/`--tags`."""
    chosen, words = set(), iter(arguments)
    for word in words:
        if word == "--":
            break
        if word in ("-s", "--session", "--sessions", "-t", "--tags"):
            value = next(words)
            if word in ("-t", "--tags"):
                chosen |= {name for name, facts in known.items() if value in facts["tags"]}
            else:
                chosen.add(value.split("(", 1)[0])
    return chosen


def test_every_session_runs_in_a_workflow():
    known = sessions()
    assert {"tests", "vllm", "site", "lint", "demo", "package"} <= set(known)
    called = set().union(*(_selected(arguments, known) for _, _, arguments in nox_calls()))
    unknown = called - set(known)
    assert not unknown, f"workflows call sessions the noxfile lacks: {sorted(unknown)}"
    idle = set(known) - called
    assert not idle, f"no workflow under .github/workflows calls these nox sessions: {sorted(idle)}"


def test_no_workflow_installs_what_a_session_installs():
    # A job that pip-installs the stack or runs pytest or mkdocs itself is a copy of a session's steps.
    for path in sorted(WORKFLOWS.glob("*.yml")):
        for line in path.read_text().splitlines():
            run = line.strip().removeprefix("- ").removeprefix("run:").strip()
            if run.startswith(("pip install", "python -m pip install")):
                assert run.split()[-1] == '"$NOX"', f"{path.name} installs more than nox: {run}"
            assert not re.match(r"(python -m )?(pytest|mkdocs)\b", run), f"{path.name} runs {run} outside nox"


def _python_bounds() -> tuple[str, str]:
    text = (ROOT / "packages" / "nnterp" / "pyproject.toml").read_text()
    versions = re.findall(r"Programming Language :: Python :: (3\.\d+)\"", text)
    floor = re.search(r'requires-python = ">=(3\.\d+)"', text).group(1)
    assert versions and floor == min(versions, key=lambda v: int(v.split(".")[1]))
    return floor, max(versions, key=lambda v: int(v.split(".")[1]))


def _job_pythons(job: dict) -> set[str]:
    matrix = job.get("strategy", {}).get("matrix", {})
    if "python" in matrix:
        return {str(value) for value in matrix["python"]}
    container = job.get("container")
    if isinstance(container, str) and container.startswith("python:"):
        return {container.split(":", 1)[1].split("-", 1)[0]}
    return {
        str(step["with"]["python-version"])
        for step in job.get("steps", [])
        if str(step.get("uses", "")).startswith("actions/setup-python")
    }


def test_jobs_run_the_lowest_and_the_newest_declared_python():
    floor, newest = _python_bounds()
    seen = set()
    for name, job, _ in nox_calls():
        pythons = _job_pythons(job)
        assert pythons and pythons <= {floor, newest}, f"{name}: a job runs {pythons}, not {floor} or {newest}"
        seen |= pythons
    assert seen == {floor, newest}


def test_the_tests_matrix_covers_every_release_of_the_noxfile():
    releases = set(sessions()["tests"]["parameters"]["transformers"])
    for name, job, arguments in nox_calls():
        if "tests" not in _selected(arguments, sessions()) or "-t" in arguments:
            continue
        matrix = job["strategy"]["matrix"]
        assert set(matrix["transformers"]) == releases, f"{name} tests {matrix['transformers']}, not {releases}"
        excluded = {(str(row["python"]), row["transformers"]) for row in matrix.get("exclude", [])}
        floor, newest = _python_bounds()
        assert not {pair for pair in excluded if pair[0] == newest}, "the newest Python must run every release"


def _readme_test_command() -> str:
    """The second of the two commands in the README's "Two commands" section, without its `pip install nox &&`."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Two commands", 1)[1]
    block = section.split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#", 1)[0].strip() for line in block.splitlines() if line.strip()]
    assert len(commands) == 2, f"the README gives {len(commands)} set-up commands, not two: {commands}"
    assert all(command.startswith("pip install nox && nox ") for command in commands), commands
    return commands[1].removeprefix("pip install nox && ")


def test_ci_run_is_the_readme_test_command():
    command = _readme_test_command()
    script = (ROOT / ".ci" / "run").read_text()
    assert f"python -m {command}" in script or f"\n{command}" in script, f".ci/run does not run `{command}`"


def test_the_readme_test_command_runs_every_session_tagged_ci():
    known = sessions()
    tagged = {name for name, facts in known.items() if "ci" in facts["tags"]}
    assert _selected(shlex.split(_readme_test_command())[1:], known) == tagged
    assert {"tests", "vllm", "site", "lint", "demo", "package"} <= tagged


def test_per_release_paths_exist_and_sit_inside_what_the_newest_release_runs():
    per_release, everything = _constant("PER_RELEASE"), _constant("EVERYTHING")
    for path in per_release:
        assert (ROOT / path).exists(), f"noxfile.py PER_RELEASE names {path}, which does not exist"
        assert any(path == top or path.startswith(top + "/") for top in everything), path
    # Every test file lies under EVERYTHING, so the newest release runs each at least once.
    for folder in ("harness", "packages"):
        for test in (ROOT / folder).rglob("test_*.py"):
            relative = test.relative_to(ROOT).as_posix()
            if "/.nox/" in relative or "/scaffold/" in relative:
                continue
            assert any(relative.startswith(top + "/") for top in everything), f"no session runs {relative}"


def test_the_site_builds_in_the_newest_release_tests_venv():
    tree = _noxfile()
    site = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "site")
    call = next(d for d in site.decorator_list if isinstance(d, ast.Call))
    keywords = {keyword.arg: keyword.value for keyword in call.keywords}
    assert ast.literal_eval(keywords["venv_backend"]) == "none"
    assert isinstance(keywords["requires"], ast.List) and [e.id for e in keywords["requires"].elts] == ["NEWEST"]

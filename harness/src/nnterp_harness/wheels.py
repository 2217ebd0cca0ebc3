"""The packages as users receive them: the built artifacts, and the wheels installed into a fresh environment.

`nox -s package` builds the sdists and wheels of nnterp, nnterp-vllm and this harness into one folder,
installs the wheels into a new virtual environment outside the repository, and runs, from a working
directory outside the repository, in that environment:

    python -m nnterp_harness.wheels DIST SOURCE CHECKPOINT

`DIST` is the folder of artifacts, `SOURCE` the repository root (read for what the artifacts must hold,
never imported), `CHECKPOINT` a tiny checkpoint directory the trace loads by path. Each check prints one
line; the first failing one raises `WheelCheckFailed` with what is wrong, and the command exits 1.
"""

from __future__ import annotations

import argparse
import configparser
import importlib.metadata
import importlib.util
import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

#: Distribution name, import package, and the package's folder in the repository.
PROJECTS = (
    ("nnterp", "nnterp", "packages/nnterp/src/nnterp"),
    ("nnterp-vllm", "nnterp_vllm", "packages/nnterp-vllm/src/nnterp_vllm"),
    ("nnterp-harness", "nnterp_harness", "harness/src/nnterp_harness"),
)

#: The files of a source package that its wheel must hold: the code and the data the code reads.
SHIPPED_SUFFIXES = (".py", ".json")


class WheelCheckFailed(AssertionError):
    """An artifact or the environment its wheels make is not what a user must receive."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise WheelCheckFailed(message)


def _artifact(dist: Path, distribution: str, kind: str) -> Path:
    stem = distribution.replace("-", "_")
    pattern = f"{stem}-*-py3-none-any.whl" if kind == "wheel" else f"{stem}-*.tar.gz"
    found = sorted(dist.glob(pattern))
    _check(len(found) == 1, f"expected one {kind} of {distribution} in {dist}, found {[p.name for p in found]}")
    return found[0]


def shipped_files(source: Path, folder: str) -> set[str]:
    """The files under the repository's `folder` that the package must ship, relative to the package's parent."""
    package = source / folder
    return {
        path.relative_to(package.parent).as_posix()
        for path in package.rglob("*")
        if path.suffix in SHIPPED_SUFFIXES and "__pycache__" not in path.parts and path.is_file()
    }


def check_artifacts(dist: Path, source: Path) -> list[str]:
    """Every source file and data file is in its wheel, every sdist carries VERSION, every artifact has the version."""
    version = (source / "VERSION").read_text().strip()
    lines = []
    for distribution, _, folder in PROJECTS:
        wheel = _artifact(dist, distribution, "wheel")
        sdist = _artifact(dist, distribution, "sdist")
        for artifact in (wheel, sdist):
            _check(
                f"-{version}" in artifact.name,
                f"{artifact.name} does not carry the repository's version {version} (VERSION)",
            )
        with zipfile.ZipFile(wheel) as archive:
            names = set(archive.namelist())
        missing = sorted(shipped_files(source, folder) - names)
        _check(not missing, f"{wheel.name} lacks {len(missing)} files of {folder}: {missing[:10]}")
        with tarfile.open(sdist) as archive:
            top = {Path(name).relative_to(Path(name).parts[0]).as_posix() for name in archive.getnames()}
        _check("VERSION" in top, f"{sdist.name} has no VERSION file, so a wheel built from it has no version")
        lines.append(f"{wheel.name}: {len(shipped_files(source, folder))} source and data files; {sdist.name}")
    return lines


def check_installed(source: Path) -> list[str]:
    """The packages import from this environment, not the repository, and report the version they were built with."""
    version = (source / "VERSION").read_text().strip()
    lines = []
    for distribution, package, _ in PROJECTS:
        spec = importlib.util.find_spec(package)
        _check(spec is not None and spec.origin is not None, f"{package} is not installed in {sys.prefix}")
        origin = Path(spec.origin).resolve()
        _check(
            not origin.is_relative_to(source.resolve()),
            f"{package} imports from the repository ({origin}), not from the installed wheel",
        )
        installed = importlib.metadata.version(distribution)
        _check(installed == version, f"{distribution} is installed as {installed}, the repository says {version}")
        lines.append(f"{package} {installed} from {origin.parent}")
    for package in ("nnterp", "nnterp_vllm"):
        reported = _python(f"import {package}; print({package}.__version__)").strip()
        _check(reported == version, f"{package}.__version__ is {reported!r}, the repository says {version}")
    lines.append(f"nnterp.__version__ and nnterp_vllm.__version__ are {version}")
    return lines


def _python(code: str, *args: str, expect: int = 0) -> str:
    """Run `code` in a fresh interpreter of this environment; its standard output, or a failure naming both streams."""
    done = subprocess.run([sys.executable, *(["-c", code] if code else []), *args], capture_output=True, text=True)
    _check(
        done.returncode == expect,
        f"`python {'-c ...' if code else ' '.join(args)}` exited {done.returncode} (expected {expect}):\n"
        f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}",
    )
    return done.stdout + (done.stderr if expect else "")


LIGHT_IMPORT = """
import sys
import nnterp
loaded = sorted(name for name in sys.modules if name.startswith("transformers.models.") and ".modeling_" in name)
print(loaded)
"""


def check_light_import() -> list[str]:
    """`import nnterp` loads no transformers modeling module."""
    loaded = _python(LIGHT_IMPORT).strip()
    _check(loaded == "[]", f"import nnterp loaded modeling modules: {loaded}")
    return ["import nnterp loads no transformers modeling module"]


def check_commands() -> list[str]:
    """`python -m nnterp families` lists every family; `inspect` says what to pass; the scaffold runs from the harness."""
    from nnterp import families

    known = families.known()
    _check(len(known) > 0, "nnterp.families.known() is empty in the installed package")
    printed = _python("", "-m", "nnterp", "families")
    listed = {line.split(":", 1)[0] for line in printed.splitlines() if line and not line.startswith(" ")}
    absent = sorted(set(known) - listed)
    _check(not absent, f"python -m nnterp families leaves out {len(absent)} families: {absent[:10]}")
    said = _python("", "-m", "nnterp", "inspect", expect=2)
    _check(
        "NNTERP_DEMO_CHECKPOINT" in said and "python -m nnterp inspect PATH" in said,
        f"python -m nnterp inspect outside the repository does not say what to pass:\n{said[-1000:]}",
    )
    moved = _python("", "-m", "nnterp", "scaffold", "llama", expect=2)
    _check(
        "python -m nnterp_harness.scaffold llama" in moved and "pip install ./harness" in moved,
        f"python -m nnterp scaffold does not point at the harness's scaffold:\n{moved[-1000:]}",
    )
    usage = _python("", "-m", "nnterp_harness.scaffold", "--help")
    _check("model_type" in usage, f"python -m nnterp_harness.scaffold --help prints no usage:\n{usage[-1000:]}")
    return [
        f"python -m nnterp families lists the {len(known)} families",
        "python -m nnterp inspect outside the repository names the checkpoint to pass",
        "python -m nnterp scaffold points at python -m nnterp_harness.scaffold, which runs from the harness wheel",
    ]


TRACE = """
import json, sys
import torch
from nnterp import StandardizedTransformer

model = StandardizedTransformer(sys.argv[1], attn_implementation="eager")
rows = []  # bound before the trace: a name first bound inside the block does not outlive it
with torch.no_grad(), model.trace("The Eiffel Tower is in the city of"):
    for layer in model.layers:
        rows.append((layer.layer_input.save(), layer.self_attn.attention_output.save(),
                     layer.mlp.mlp_output.save(), layer.layer_output.save()))
    logits = model.logits.save()
lens = model.project_on_vocab(rows[-1][3])
print(json.dumps({
    "family": model.family.__name__,
    "identity": [bool(torch.equal(x + attn + mlp, out)) for x, attn, mlp, out in rows],
    "lens": bool(torch.allclose(lens, logits, atol=1e-5)),
}))
"""


def check_trace(checkpoint: Path) -> list[str]:
    """A trace on a checkpoint passed by path: the contribution identity on every block, and the logit lens."""
    out = json.loads(_python(TRACE, str(checkpoint)).strip().splitlines()[-1])
    _check(out["family"].startswith("nnterp.families."), f"{checkpoint} resolved to {out['family']}")
    _check(all(out["identity"]), f"the contribution identity fails on blocks {out['identity']} of {checkpoint}")
    _check(out["lens"], f"project_on_vocab of the last block is not the logits on {checkpoint}")
    return [f"a trace on {checkpoint.name} ({out['family']}): identity on {len(out['identity'])} blocks, logit lens"]


#: How nnterp-vllm adds the vLLM engine: the entry-point group, the engine's name, and the package of its families.
VLLM_ENGINE = ("nnterp.engines", "vllm", "nnterp_vllm.families")


def check_vllm_engine(dist: Path) -> list[str]:
    """The nnterp-vllm wheel declares the vLLM engine's entry point, and nnterp finds the engine through it alone."""
    from nnterp import families

    group, name, package = VLLM_ENGINE
    wheel = _artifact(dist, "nnterp-vllm", "wheel")
    with zipfile.ZipFile(wheel) as archive:
        found = [entry for entry in archive.namelist() if entry.endswith(".dist-info/entry_points.txt")]
        _check(len(found) == 1, f"{wheel.name} holds no entry_points.txt, so it declares no {group!r} entry point")
        declared = configparser.ConfigParser()
        declared.read_string(archive.read(found[0]).decode())
    value = declared.get(group, name, fallback=None)
    _check(value == package, f"{wheel.name} declares [{group}] {name} = {value!r}; nnterp needs {package!r}")
    installed = [entry for entry in importlib.metadata.entry_points(group=group) if entry.name == name]
    owners = [entry.dist.name.replace("_", "-").lower() if entry.dist else None for entry in installed]
    _check(
        owners == ["nnterp-vllm"] and installed[0].value == package,
        f"the environment's [{group}] {name} entry points are {[(e.value, o) for e, o in zip(installed, owners)]}; "
        f"expected nnterp-vllm's {package!r} alone",
    )
    engines = families.installed_engines()
    _check(
        engines.get(name) == package, f"nnterp.families.installed_engines() gives {engines}, not {name} -> {package}"
    )
    _check(
        importlib.util.find_spec("nnterp.families.vllm") is None,
        "nnterp still ships a nnterp.families.vllm package: the engine is found by its entry point, not grafted in",
    )
    # Neither check imports a family module, so vLLM itself need not be installed.
    _check(families.has_family("llama", name), f"the {name} engine has no llama family through {package}")
    try:
        families.lookup("no_such_type", engine=name)
    except families.UnsupportedFamily:
        pass
    else:
        raise WheelCheckFailed(f"a type with no {name} family did not raise UnsupportedFamily")
    return [f"{wheel.name} declares [{group}] {name} = {package}, and nnterp finds the {name} engine through it"]


def check_vllm_families() -> list[str]:
    """The vLLM families resolve under `nnterp_vllm.families` to the installed nnterp-vllm's files."""
    from nnterp import families

    spec = importlib.util.find_spec("nnterp_vllm")
    _check(spec is not None and spec.submodule_search_locations, "nnterp_vllm is not installed")
    folder = Path(next(iter(spec.submodule_search_locations))) / "families"
    files = sorted(path.stem for path in folder.glob("*.py") if not path.stem.startswith("_"))
    known = families.known("vllm")
    _check(known == files, f"known('vllm') is {len(known)} families, the installed folder holds {len(files)}")
    for name in files:
        found = importlib.util.find_spec(f"nnterp_vllm.families.{name}")
        _check(
            found is not None and Path(found.origin).resolve().parent == folder.resolve(),
            f"nnterp_vllm.families.{name} does not resolve to {folder}",
        )
    return [f"nnterp_vllm.families holds the {len(files)} families of {folder}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nnterp_harness.wheels", description=__doc__.splitlines()[0])
    parser.add_argument("dist", type=Path, help="the folder of built sdists and wheels")
    parser.add_argument("source", type=Path, help="the repository root, read for what the artifacts must hold")
    parser.add_argument("checkpoint", type=Path, help="a tiny checkpoint directory to trace by path")
    args = parser.parse_args(argv)
    checks = (
        lambda: check_artifacts(args.dist, args.source),
        lambda: check_installed(args.source),
        check_light_import,
        check_commands,
        lambda: check_trace(args.checkpoint),
        lambda: check_vllm_engine(args.dist),
        check_vllm_families,
    )
    try:
        for check in checks:
            for line in check():
                print(f"ok  {line}")
    except WheelCheckFailed as failure:
        print(f"FAILED  {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

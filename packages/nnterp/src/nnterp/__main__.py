"""`python -m nnterp inspect [REPO_OR_PATH] [--prompt TEXT]`: what nnterp makes of a checkpoint; `python -m nnterp families`: the coverage table."""

from .inspect import main

if __name__ == "__main__":
    raise SystemExit(main())

"""The site's build code: the encyclopedia generated from the family modules, and the mkdocs hooks.

`encyclopedia` reads a family module and its pinned tiny checkpoint into plain data and
renders it as a page; `hooks` adds those pages to the mkdocs build. Nothing here is
written per family.
"""

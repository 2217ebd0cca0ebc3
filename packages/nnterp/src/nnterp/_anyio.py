"""Define anyio's typed-attribute classes before nnsight mounts `.save` on every object.

anyio refuses a typed-attribute class with a public attribute that has no annotation,
and once nnsight has mounted `.save` on `object`, every class has one. nnsight's own
`import anyio` no longer defines them: anyio 4.16 imports its `abc` and `streams`
modules lazily, so the first use after nnsight raises "Attribute 'save' is missing its
type annotation" (an httpx client, or anyio's pytest plugin when it loads after ours).
Importing this module before nnsight defines every such class first; it does nothing
where anyio is absent or nnsight is already imported.
"""

import sys

if "nnsight" not in sys.modules:
    try:
        import anyio.abc._sockets  # noqa: F401  - SocketAttribute
        import anyio.streams.file  # noqa: F401  - FileStreamAttribute
        import anyio.streams.tls  # noqa: F401  - TLSAttribute
    except ImportError:
        pass

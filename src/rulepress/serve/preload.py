"""Imported once, by the preview server's fork server only: what every rebuild needs, loaded
before the first one. rulepress's own code is hashed here, as loaded; a game's engine is not
imported, so each rebuild loads it as it is on disk."""

import signal
import sys

import weasyprint  # noqa: F401

import rulepress.build  # noqa: F401
import rulepress.render.pdf  # noqa: F401
from rulepress.cache import code_digest

code_digest()

if sys.platform == "linux":
    # The fork server dies with the server, even one killed outright, and its workers with it
    # (each one's initializer asks for that); else they would wait for work forever.
    import ctypes

    ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG

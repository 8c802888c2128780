"""Imported once, by the preview server's fork server only: what every rebuild needs, loaded
before the first one. rulepress's own code is hashed here, as loaded; a game's engine is not
imported, so each rebuild loads it as it is on disk."""

import os
import signal
import sys

import fontTools.agl  # noqa: F401 - the glyph check's names (0.02 s to build)
import pypdfium2  # noqa: F401 - the faces page's rasterizer (0.08 s to import)
from PIL import Image

import rulepress.build  # noqa: F401
import rulepress.render.pdf  # noqa: F401
import rulepress.serve.builder  # noqa: F401 - each rebuild's job comes through it
import rulepress.serve.faces  # noqa: F401
import rulepress.simulate.ladder  # noqa: F401 - a playtest report's check (0.07 s)
import rulepress.simulate.report  # noqa: F401
import rulepress.simulate.tension  # noqa: F401
from rulepress.cache import code_digest
from rulepress.pnp.fonts import register_fonts
from rulepress.render.html import environment
from rulepress.serve.warm import warm
from rulepress.write import scratch_folder

with scratch_folder():  # its libraries' lookup writes temporary files (see build._worker_ready)
    import weasyprint  # noqa: F401

code_digest()
_theme = environment(None)  # the theme's templates compiled once, for every rebuild
for _name in _theme.list_templates(filter_func=lambda name: name.endswith(".j2")):
    _theme.get_template(_name)
register_fonts()  # the faces page's: read once, not by every rebuild
Image.init()  # its JPEG encoder, and the image formats a layout may use
warm()  # what else a rebuild would set up from rulepress and its libraries alone


FORK_SERVER = os.getpid()  # its workers' parent, inherited: see builder._worker_started

if sys.platform == "linux":
    # The fork server dies with the server, even one killed outright, and its workers with it
    # (each one's initializer asks for that); else they would wait for work forever.
    import ctypes

    ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG

# Out of the server's process group, the fork server and its workers: a signal to the whole group
# (timeout(1), a service manager, a terminal) reaches the server alone, which then stops them.
# Killed first, a worker would fail its job as killed, a false alarm as the server stops.
os.setpgid(0, 0)

"""What a rebuild sets up that depends on rulepress and its libraries alone, done once in the
fork server (serve/preload.py), so that each rebuild's fresh process inherits it: the bundled
fonts' characters, the Markdown parsers and the regular expressions their first parse
compiles, the prose sandbox's lexer, the stylesheet tokenizer. Nothing of a game is read."""

from __future__ import annotations

from rulepress import prose
from rulepress.document import reader
from rulepress.figure import text_width
from rulepress.render import references
from rulepress.render.body import render_parser
from rulepress.render.glyphs import covered
from rulepress.render.offline import read_page

# A little of everything the parsers meet in a rules text.
_MARKDOWN = """# Title {.reference}

A *paragraph* with **strong** text, `code`, "quotes" -- and a [link](#title), an
![image](images/a.png) and :icon[shell] and :dfn[a term] and <b>html</b>.

- a list
  1. nested

> a quote

| a | b |
| - | - |
| 1 | 2 |

::: reference
a block
:::

```example
id: x
```
"""

_PAGE = ('<!DOCTYPE html><html><head><style>@font-face { src: url("f.ttf") }</style></head>'
         '<body><p style="color: red">x &amp; y</p><svg><image href="data:image/png;base64,'
         'AAAA"/></svg><a href="#x">x</a></body></html>')


def warm() -> None:
    covered()
    for md in (render_parser(), reader._parser(), references.detection_parser()):
        md.render(_MARKDOWN)
    prose.environment().from_string("{{ a }} {% if b %}{{ c[0] }}{% endif %}")
    read_page(_PAGE)
    text_width("Warm 1", 10)
    text_width("Warm 1", 10, bold=True)

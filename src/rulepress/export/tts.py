"""``export --to tts``: a Tabletop Simulator Saved Object (``<game>.json``, with a thumbnail
``<game>.png`` beside it) and the images it names.

What becomes what, from the component's size and sides alone (a kit needs no change):

- a card (a rectangle 30 to 120 mm a side, not square): a ``DeckCustom`` of ``Card`` objects
  (a ``CardCustom`` when there is one copy); each distinct face once on a sheet of at most
  10 x 7 cells (``BackIsHidden``: the back shows a hidden card, so all 70 cells hold cards),
  more sheets for more faces; ``UniqueBack`` with a sheet of backs when backs vary; a
  landscape card is a ``SidewaysCard``;
- a board (``tileable``, or a side over 120 mm): a ``Custom_Board``;
- a token (both sides at most 40 mm, no back): a ``Custom_Token``, its shape the image's
  transparency;
- a die: a single-sided component 3 x 4 squares (or 4 x 3) whose drawing fills exactly six
  of them in a net that folds into a cube (Worm Derby's piecepack dice): a ``Custom_Dice``
  (d6) per copy, its faces cut out of the net and laid out on TTS's d6 image, each face on the
  side of the die it folds onto (opposite faces stay opposite);
- anything else (tiles, coins with two faces, tents): a ``Custom_Tile`` per copy, with its
  back (or its front again) underneath; round (``Type`` 2, the images clear outside the
  circle) when its faces' corners are clear or its layout cuts it round (a circle element
  centred and as wide as the square face, as a coin's cut line is).

Sizes: TTS measures in units that its ruler shows as inches; a card at scale 1 is taken as
2.2 x 3.15 units (56 x 80 mm, as tts-deckconverter sizes cards), every other object's longer
side at scale 1 as 1 unit. Images are PNG, RGB (RGBA for shapes), no side over 4096 px.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from rulepress.document.model import Component, Document
from rulepress.export.raster import Shot, SideFaces, png, rasterize, round_cut

MM_PER_IN = 25.4
MAX_SIDE = 4096
SHEET_COLUMNS, SHEET_ROWS = 10, 7
CARD_AT_SCALE_1 = (56.0 / MM_PER_IN, 80.0 / MM_PER_IN)  # inches (TTS units)
MAX_DPI = 300
TOKEN_MM, CARD_MM, BOARD_MM = 40.0, (30.0, 120.0), 120.0
BLANK_BACK = (96, 96, 96)  # a plain back for cards the kit prints single-sided
THUMBNAIL = 256
DIE_CELL = 256  # px, one face of a die's image
# TTS's d6 image: 4 x 3 cells, the four faces round the die in the middle row, the other two
# above and below (as TTS's d6 template, kb.tabletopsimulator.com/custom-content/custom-dice/);
# value -> (column, row). Each value's side of the die (its outward normal, TTS's axes) follows
# from the rotations TTS's own d6 shows each value up with (1: x -90, 2: none, 3: z -90,
# 4: z 90, 5: z 180, 6: x 90), so opposite values sum to 7.
D6_CELLS = {1: (1, 0), 2: (0, 1), 3: (1, 1), 5: (2, 1), 4: (3, 1), 6: (1, 2)}
D6_NORMALS = {1: (0, 0, 1), 2: (0, 1, 0), 3: (-1, 0, 0), 4: (1, 0, 0), 5: (0, -1, 0),
              6: (0, 0, -1)}
D6_ROTATIONS = {1: (-90, 0, 0), 2: (0, 0, 0), 3: (0, 0, -90), 4: (0, 0, 90), 5: (0, 0, 180),
                6: (90, 0, 0)}
Cell = tuple[int, int]
Vector = tuple[int, int, int]


def kind(comp: Component) -> str:
    """card, board, token or tile (a die is told by its drawing: see die_faces)."""
    assert comp.size is not None
    w, h = comp.size.width, comp.size.height
    small, large = min(w, h), max(w, h)
    if comp.tileable or large > BOARD_MM:
        return "board"
    if large <= TOKEN_MM and comp.back is None:
        return "token"
    if CARD_MM[0] <= small and large <= CARD_MM[1] and large / small >= 1.2:
        return "card"
    return "tile"


def _guid(*parts: object) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(x: float, z: float, sx: float, sz: float, face_down: bool = False
               ) -> dict[str, float]:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(sx, 4), "scaleY": 1.0,
            "scaleZ": round(sz, 4)}


def _dpi(w_in: float, h_in: float, columns: int = 1, rows: int = 1) -> float:
    """The most dots per inch (up to 300) at which ``columns`` x ``rows`` faces fit 4096 px."""
    return min(MAX_DPI, (MAX_SIDE - 1) / (columns * w_in), (MAX_SIDE - 1) / (rows * h_in))


def _pixels(w_in: float, h_in: float, dpi: float) -> tuple[int, int]:
    return max(1, math.floor(w_in * dpi)), max(1, math.floor(h_in * dpi))


@dataclass
class SavedObject:
    """The saved object being assembled: its objects and the files they name."""

    slug: str
    base: str  # the URL images are found under, ending in '/'
    files: dict[str, bytes | str]
    objects: list[dict[str, Any]]
    deck_id: int = 0
    x: float = 0.0  # where the next object goes on the table
    first: Image.Image | None = None  # the first image: the thumbnail's

    def url(self, name: str) -> str:
        return self.base + name

    def image(self, name: str, image: Image.Image) -> str:
        self.first = self.first or image
        self.files[name] = png(image)
        return self.url(name)

    def place(self, width: float) -> float:
        x = self.x + width / 2
        self.x += width + 1.0
        return x


def _face_images(side: SideFaces, pixels: tuple[int, int], dpi: float, clear: bool = False,
                 keys: list[int] | None = None) -> dict[int, Image.Image]:
    """The side's distinct faces (or those of ``keys``), drawn at ``pixels``."""
    assert side.comp.size is not None
    w, h = side.comp.size.width / MM_PER_IN, side.comp.size.height / MM_PER_IN
    taken = [Shot(side, key, side.comp.size, pixels, dpi, (w, h), clear=clear)
             for key in (side.distinct() if keys is None else keys)]
    return {s.key: image for s, image in zip(taken, rasterize(taken), strict=True)}


def _deck(out: SavedObject, comp: Component, front: SideFaces, back: SideFaces | None) -> None:
    assert comp.size is not None
    w, h = comp.size.width / MM_PER_IN, comp.size.height / MM_PER_IN
    pairs = list(dict.fromkeys(zip(front.keys, back.keys if back else [0] * comp.count,
                                   strict=True)))
    unique_back = back is not None and len(set(back.keys)) > 1
    per_sheet = SHEET_COLUMNS * SHEET_ROWS
    columns = min(SHEET_COLUMNS, len(pairs))
    rows = min(SHEET_ROWS, math.ceil(len(pairs) / columns))
    dpi = _dpi(w, h, columns, rows)
    cell = _pixels(w, h, dpi)
    fronts = _face_images(front, cell, dpi)
    backs = _face_images(back, cell, dpi) if back is not None else {}
    sheets: dict[str, dict[str, Any]] = {}
    slot_of: dict[tuple[int, int], int] = {}
    for first in range(0, len(pairs), per_sheet):
        chunk = pairs[first:first + per_sheet]
        out.deck_id += 1
        deck_id = out.deck_id
        grid = (columns, min(rows, math.ceil(len(chunk) / columns)))
        face_sheet = Image.new("RGB", (grid[0] * cell[0], grid[1] * cell[1]), "white")
        back_sheet = Image.new("RGB", face_sheet.size, "white") if unique_back else None
        for slot, (fk, bk) in enumerate(chunk):
            spot = (slot % grid[0] * cell[0], slot // grid[0] * cell[1])
            face_sheet.paste(fronts[fk], spot)
            if back_sheet is not None:
                back_sheet.paste(backs[bk], spot)
            slot_of[(fk, bk)] = deck_id * 100 + slot
        # A dot, which no component id holds: deck spells's second sheet is never deck spells-2's.
        sheet_no = f".{first // per_sheet + 1}" if len(pairs) > per_sheet else ""
        face_url = out.image(f"{comp.id}{sheet_no}-faces.png", face_sheet)
        if back_sheet is not None:
            back_url = out.image(f"{comp.id}{sheet_no}-backs.png", back_sheet)
        elif back is not None:
            back_url = out.url(f"{comp.id}-back.png")
            if f"{comp.id}-back.png" not in out.files:
                out.image(f"{comp.id}-back.png", backs[back.keys[0]])
        else:
            back_url = out.url(f"{comp.id}-back.png")
            out.files.setdefault(f"{comp.id}-back.png",
                                 png(Image.new("RGB", cell, BLANK_BACK)))
        sheets[str(deck_id)] = {"FaceURL": face_url, "BackURL": back_url,
                                "NumWidth": grid[0], "NumHeight": grid[1],
                                "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0}
    sx, sz = w / CARD_AT_SCALE_1[0], h / CARD_AT_SCALE_1[1]
    x = out.place(w)
    cards = []
    for i in range(comp.count):
        pair = (front.keys[i], back.keys[i] if back else 0)
        card_id = slot_of[pair]
        deck = str(card_id // 100)
        cards.append({"Name": "CardCustom", "GUID": _guid(out.slug, comp.id, i),
                      "Nickname": f"{comp.name} {i + 1}" if comp.count > 1 else comp.name,
                      "Description": "", "CardID": card_id, "SidewaysCard": w > h,
                      "CustomDeck": {deck: sheets[deck]},
                      "Transform": _transform(x, 0.0, sx, sz, face_down=back is not None)})
    if comp.count == 1:
        out.objects.append(cards[0])
        return
    out.objects.append({"Name": "DeckCustom", "GUID": _guid(out.slug, comp.id),
                        "Nickname": comp.name, "Description": comp.note,
                        "Transform": _transform(x, 0.0, sx, sz, face_down=back is not None),
                        "DeckIDs": [c["CardID"] for c in cards], "CustomDeck": sheets,
                        "ContainedObjects": cards})


def _clear_corners(image: Image.Image) -> bool:
    alpha = image.getchannel("A") if image.mode == "RGBA" else None
    if alpha is None:
        return False
    w, h = image.size
    return all(alpha.getpixel((x, y)) == 0 for x, y in ((0, 0), (w - 1, 0), (0, h - 1),
                                                         (w - 1, h - 1)))


def _flat(out: SavedObject, comp: Component, front: SideFaces, back: SideFaces | None,
          what: str, cut: bool = False) -> None:
    """Boards, tokens and tiles: one object per copy, images shared by equal faces; ``cut``:
    round, each image cleared outside its circle."""
    assert comp.size is not None
    w, h = comp.size.width / MM_PER_IN, comp.size.height / MM_PER_IN
    dpi = _dpi(w, h)
    pixels = _pixels(w, h, dpi)
    fronts = _face_images(front, pixels, dpi, clear=what != "board")
    backs = _face_images(back, pixels, dpi, clear=True) if back is not None else {}
    if cut:
        fronts = {k: _cut_round(v) for k, v in fronts.items()}
        backs = {k: _cut_round(v) for k, v in backs.items()}

    def named(side: str, key: int, image: Image.Image, keys: int) -> str:
        number = f"-{key + 1}" if keys > 1 and key >= 0 else ""
        name = f"{comp.id}-{side}{number}.png"
        if name not in out.files:
            out.image(name, image if what != "board" else image.convert("RGB"))
        return out.url(name)

    scale = max(w, h)
    x = out.place(w)
    for i in range(comp.count):
        fk = front.keys[i]
        face = fronts[fk]
        url = named("front", fk, face, len(fronts))
        under = named("back", back.keys[i], backs[back.keys[i]], len(backs)) if back else ""
        common = {"GUID": _guid(out.slug, comp.id, i),
                  "Nickname": f"{comp.name} {i + 1}" if comp.count > 1 else comp.name,
                  "Description": comp.note,
                  "Transform": _transform(x, i * (h + 0.2), scale, scale)}
        image: dict[str, Any] = {"ImageURL": url, "ImageSecondaryURL": under or url,
                                 "ImageScalar": 1.0, "WidthScale": 0.0}
        if what == "board":
            name = "Custom_Board"
        elif what == "token":
            name = "Custom_Token"
            image["CustomToken"] = {"Thickness": 0.2, "MergeDistancePixels": 15.0,
                                    "StandUp": False, "Stackable": True}
        else:
            name = "Custom_Tile"
            image["CustomTile"] = {"Type": 2 if _clear_corners(face) else 0,
                                   "Thickness": 0.1, "Stackable": True, "Stretch": True}
        out.objects.append({"Name": name, **common, "CustomImage": image})


def _roll(m: tuple[Vector, ...], step: Cell) -> tuple[Vector, ...]:
    """The cube's orientation (rows of a rotation matrix) rolled one cell along ``step``:
    the face on the side it rolls towards comes down."""
    dx, dy = step  # image axes: x right, y down; the table's z is up
    turn = (((0, 0, dx), (0, 1, 0), (-dx, 0, 0)) if dx else
            ((1, 0, 0), (0, 0, dy), (0, -dy, 0)))
    def row(i: int) -> Vector:
        a, b, c = (sum(turn[i][k] * m[k][j] for k in range(3)) for j in range(3))
        return a, b, c

    return row(0), row(1), row(2)


def fold(cells: set[Cell]) -> dict[Cell, Vector] | None:
    """Each cell of a net with the side of the cube it folds onto (its outward normal, the
    first cell's being -z), or None when the cells do not fold into a cube."""
    if len(cells) != 6:
        return None
    first = min(cells, key=lambda c: (c[1], c[0]))
    found: dict[Cell, Vector] = {}
    queue: list[tuple[Cell, tuple[Vector, ...]]] = [(first, ((1, 0, 0), (0, 1, 0), (0, 0, 1)))]
    while queue:
        cell, m = queue.pop()
        if cell in found:
            continue
        found[cell] = (m[2][0] * -1, m[2][1] * -1, m[2][2] * -1)  # what faces down, cube's axes
        for step in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nxt = (cell[0] + step[0], cell[1] + step[1])
            if nxt in cells and nxt not in found:
                queue.append((nxt, _roll(m, step)))
    if len(found) != 6 or len(set(found.values())) != 6:
        return None
    return found


def _blank(image: Image.Image, cell: Cell, size: int) -> bool:
    """Whether a net's cell is left blank (white paper, or clear) in its middle (glue tabs
    reach in from its edges)."""
    x, y = cell[0] * size, cell[1] * size
    m = size * 3 // 10
    middle = image.crop((x + m, y + m, x + size - m, y + size - m)).convert("L")
    return bool(min(middle.getdata()) >= 250)


def die_faces(side: SideFaces) -> dict[int, dict[int, Image.Image]] | None:
    """A net's faces, for each distinct key: TTS d6 value -> the face's image, or None when
    the component's drawing is not a cube's net."""
    comp = side.comp
    assert comp.size is not None
    w, h = comp.size.width / MM_PER_IN, comp.size.height / MM_PER_IN
    if abs(max(w, h) / min(w, h) - 4 / 3) > 0.01:
        return None
    columns, rows = (3, 4) if w < h else (4, 3)
    dpi = DIE_CELL / (w / columns)
    faces: dict[int, dict[int, Image.Image]] = {}
    pixels = (columns * DIE_CELL, rows * DIE_CELL)
    first, *rest = side.distinct()
    drawn = _face_images(side, pixels, dpi, keys=[first])  # a card is told by its first face
    for key, image in chain(drawn.items(), _lazy(side, pixels, dpi, rest)):
        cells = {(c, r) for c in range(columns) for r in range(rows)
                 if not _blank(image, (c, r), DIE_CELL)}
        folded = fold(cells)
        if folded is None:
            return None
        value = {v: n for n, v in D6_NORMALS.items()}
        faces[key] = {value[normal]: image.crop((c * DIE_CELL, r * DIE_CELL, (c + 1) * DIE_CELL,
                                                 (r + 1) * DIE_CELL)).convert("RGB")
                      for (c, r), normal in folded.items()}
    return faces


def _lazy(side: SideFaces, pixels: tuple[int, int], dpi: float, keys: list[int]
          ) -> Iterator[tuple[int, Image.Image]]:
    """The faces of ``keys``, drawn only when asked for."""
    if keys:
        yield from _face_images(side, pixels, dpi, keys=keys).items()


def _dice(out: SavedObject, comp: Component, front: SideFaces,
          faces: dict[int, dict[int, Image.Image]]) -> None:
    """A Custom_Dice per copy on TTS's d6 image of its net's faces."""
    assert comp.size is not None
    edge = min(comp.size.width, comp.size.height) / 3 / MM_PER_IN
    x = out.place(edge)
    urls: dict[int, str] = {}
    for n, key in enumerate(front.distinct(), 1):
        sheet = Image.new("RGB", (4 * DIE_CELL, 3 * DIE_CELL), "white")
        for value, (c, r) in D6_CELLS.items():
            sheet.paste(faces[key][value], (c * DIE_CELL, r * DIE_CELL))
        number = f"-{n}" if len(faces) > 1 else ""
        urls[key] = out.image(f"{comp.id}{number}-die.png", sheet)
    for i in range(comp.count):
        out.objects.append({
            "Name": "Custom_Dice", "GUID": _guid(out.slug, comp.id, i),
            "Nickname": f"{comp.name} {i + 1}" if comp.count > 1 else comp.name,
            "Description": comp.note,
            "Transform": _transform(x, i * (edge + 0.5), 1.0, 1.0),
            "CustomImage": {"ImageURL": urls[front.keys[i]], "ImageSecondaryURL": "",
                            "ImageScalar": 1.0, "WidthScale": 0.0,
                            "CustomDice": {"Type": 1}},
            "RotationValues": [{"Value": str(v), "Rotation": dict(zip("xyz", map(float, r),
                                                                      strict=True))}
                               for v, r in sorted(D6_ROTATIONS.items())]})


def _cut_round(image: Image.Image) -> Image.Image:
    """The image clear outside its inscribed circle."""
    mask = Image.new("L", (image.width * 4, image.height * 4), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, mask.width - 1, mask.height - 1), fill=255)
    mask = mask.resize(image.size, Image.Resampling.LANCZOS)
    cut = image.convert("RGBA")
    cut.putalpha(ImageChops.multiply(cut.getchannel("A"), mask))
    return cut


def saved_object(doc: Document, found: Mapping[tuple[str, bool], SideFaces], base: str
                 ) -> dict[str, bytes | str]:
    """The export folder's files: <slug>.json, <slug>.png and the images."""
    out = SavedObject(doc.slug, base, {}, [])
    for comp in doc.meta.components:
        front = found.get((comp.id, False))
        if front is None:
            continue
        back = found.get((comp.id, True))
        what = kind(comp)
        faces = die_faces(front) if back is None and not comp.tileable else None
        if faces is not None:
            _dice(out, comp, front, faces)
        elif what == "card":
            _deck(out, comp, front, back)
        else:
            _flat(out, comp, front, back, what, cut=what == "tile" and round_cut(doc, comp))
    if out.first is not None:
        small = out.first.convert("RGB")
        small.thumbnail((THUMBNAIL, THUMBNAIL))
        out.files[f"{doc.slug}.png"] = png(small)
    bag = {"SaveName": doc.meta.title, "GameMode": "", "Date": "", "Table": "", "Sky": "",
           "Note": f"{doc.meta.title}, exported by rulepress", "Rules": "", "XmlUI": "",
           "LuaScript": "", "LuaScriptState": "", "ObjectStates": out.objects,
           "TabStates": {}, "VersionNumber": ""}
    out.files[f"{doc.slug}.json"] = json.dumps(bag, indent=2, ensure_ascii=False) + "\n"
    return out.files

"""rulepress export: every output read back (JSON structure, image sizes and modes, each sheet
cell against the kit's own drawing of that face, counts against the source) for the bundled
games."""

from __future__ import annotations

import csv
import io
import json
import re
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pypdf
import pypdfium2
import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops, ImageStat
from reportlab.lib.colors import CMYKColor, HexColor
from reportlab.pdfgen.canvas import Canvas
from shared import made_once

from rulepress.cli import main
from rulepress.document.model import Document
from rulepress.document.reader import read_document
from rulepress.export.preflight import ink as preflight_ink
from rulepress.export.preflight import ink_totals, over_limit
from rulepress.export.products import PRODUCTS
from rulepress.export.raster import Shot, SideFaces
from rulepress.export.tts import D6_CELLS, DIE_CELL, fold
from rulepress.games import contract, load_engine
from rulepress.pnp.api import Face
from rulepress.pnp.faces import Art
from rulepress.press.colour import cmyk

pytestmark = pytest.mark.slow  # exports of the bundled games

ROOT = Path(__file__).parent.parent
SOURCES = ROOT / "sources"
GAMES = ("pigeon", "go-stop", "pigeon-race", "worm-derby")
# What no Game Crafter product fits: round and folded pieces, the long board, the dice nets.
TGC_SKIP = {"pigeon": "pigeon-coin", "go-stop": "player-tokens",
            "pigeon-race": "board,pigeons", "worm-derby": "dice,pawns"}


def export(tmp: Path, game: str, *args: str) -> tuple[Path, str]:
    out = tmp / "out"
    result = CliRunner().invoke(main, ["export", game, "--sources", str(SOURCES), "--out",
                                       str(out), *args])
    assert result.exit_code == 0, result.stderr
    return out / game, result.stderr


def doc_of(game: str) -> Document:
    return read_document(SOURCES / game / "rules.md")


@pytest.fixture(scope="session")
def tts_export(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """A bundled game's plain TTS export (``export GAME --to tts``), made once a run: the
    game's output folder, to read, never to change."""
    def of(game: str) -> Path:
        folder, _ = made_once(tmp_path_factory, f"tts-{game}",
                              lambda tmp: export(tmp, game, "--to", "tts")[1])
        return folder / "out" / game

    return of


@pytest.fixture(scope="module", params=GAMES)
def tts(request: pytest.FixtureRequest, tts_export: Callable[[str], Path]
        ) -> tuple[str, Path, dict[str, Any]]:
    game = request.param
    folder = tts_export(game)
    saved = json.loads((folder / "tts" / f"{game}.json").read_text())
    return game, folder / "tts", saved


def local(folder: Path, url: str) -> Path:
    """An image address written without --base-url: a bare name, relative to the saved
    object's folder (never a file:// path of the exporting machine)."""
    parts = urlsplit(url)
    assert not parts.scheme and not parts.netloc and "/" not in url, url
    return folder / url


def test_tts_saved_object_holds_every_component_as_tts_expects(
        tts: tuple[str, Path, dict[str, Any]]) -> None:
    game, folder, saved = tts
    doc = doc_of(game)
    assert saved["VersionNumber"] == "v13.2.2"
    copies: dict[str, int] = {}
    for obj in saved["ObjectStates"]:
        assert obj["Name"] in ("DeckCustom", "CardCustom", "Custom_Board", "Custom_Token",
                               "Custom_Tile", "Custom_Dice"), obj["Name"]
        cards = obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]
        if obj["Name"] == "DeckCustom":  # a deck holds Card objects, as TTS saves them
            assert obj["DeckIDs"] == [c["CardID"] for c in cards]
            assert {c["Name"] for c in cards} == {"Card"}
        for card in cards:
            if "CardID" not in card:
                continue
            deck = str(card["CardID"] // 100)
            sheet = card["CustomDeck"][deck]
            assert sheet == (obj["CustomDeck"][deck] if obj is not card else sheet)
            assert 1 <= sheet["NumWidth"] <= 10 and 1 <= sheet["NumHeight"] <= 7
            assert card["CardID"] % 100 < sheet["NumWidth"] * sheet["NumHeight"]
            with Image.open(local(folder, sheet["FaceURL"])) as faces:
                assert faces.width % sheet["NumWidth"] == 0
                assert faces.height % sheet["NumHeight"] == 0
            assert local(folder, sheet["BackURL"]).is_file()
            if sheet["UniqueBack"]:
                with Image.open(local(folder, sheet["BackURL"])) as backs:
                    assert backs.size == faces.size
        for image in [obj.get("CustomImage", {}).get(k) for k in ("ImageURL",
                                                                  "ImageSecondaryURL")]:
            if image:
                assert local(folder, image).is_file()
        if obj["Name"] == "Custom_Token":  # its outline is the image's transparency
            with Image.open(local(folder, obj["CustomImage"]["ImageURL"])) as token:
                assert token.mode == "RGBA" and token.getextrema()[3][1] == 255
        # A deck is named as the component; a piece without a data row's name as the
        # component with its number.
        name = obj["Nickname"] if obj is not cards[0] else re.sub(r" \d+$", "", obj["Nickname"])
        copies[name] = copies.get(name, 0) + len(cards)
    assert copies == {c.name: c.count for c in doc.meta.components if c.in_kit}
    if game == "pigeon":  # its round token: clear outside the circle, solid within
        with Image.open(folder / "pigeon-coin.front.png") as coin:
            assert coin.getpixel((0, 0))[3] == 0
            assert coin.getpixel((coin.width // 2, coin.height // 2))[3] == 255
    for png in folder.glob("*.png"):
        with Image.open(png) as image:
            assert image.mode in ("RGB", "RGBA") and max(image.size) <= 4096, png.name


def test_tts_cards_are_their_real_size_in_tts_units(
        tts: tuple[str, Path, dict[str, Any]]) -> None:
    """One scale for both axes (TTS takes a card's proportions from its sheet's cell), the
    card's longer side at its size: 80 mm at scale 1. Other pieces: their longer side in
    inches."""
    game, _, saved = tts
    sizes = {c.name: c.size for c in doc_of(game).meta.components if c.size}
    measured = 0
    for obj in saved["ObjectStates"]:
        t = obj["Transform"]
        assert t["scaleX"] == t["scaleZ"], obj["Nickname"]
        for card in obj.get("ContainedObjects", [obj]):
            assert card["Transform"]["scaleX"] == card["Transform"]["scaleZ"]
        if obj["Name"] in ("DeckCustom", "CardCustom"):
            size = sizes[re.sub(r" \d+$", "", obj["Nickname"])]
            assert size is not None
            assert t["scaleX"] * 80 == pytest.approx(max(size.width, size.height), abs=0.01)
            cards = obj.get("ContainedObjects", [obj])
            assert all(c["SidewaysCard"] == (size.width > size.height) for c in cards)
            measured += 1
        elif obj["Name"] in ("Custom_Tile", "Custom_Board", "Custom_Token"):
            size = sizes[re.sub(r" \d+$", "", obj["Nickname"])]
            assert size is not None
            assert t["scaleX"] * 25.4 == pytest.approx(max(size.width, size.height), abs=0.01)
            measured += 1
    assert measured


def kit_face(game: str, comp_id: str, index: int, pixels: tuple[int, int], back: bool = False
             ) -> Image.Image:
    """The face as the kit draws it: its drawer on a canvas of its own, rasterized."""
    doc = doc_of(game)
    engine = load_engine(doc.meta.engine) if doc.meta.engine else None
    comp = next(c for c in doc.meta.components if c.id == comp_id)
    name = comp.back if back else comp.front
    drawers, tables = contract.drawers(engine), contract.tables(engine)
    draw = drawers[name] if name in drawers else Art(doc, tables).drawer(comp, back)
    assert comp.size is not None
    w, h = comp.size.points
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w, h))
    draw(c, Face(index, comp.count, w, h, 0.0, back=back))
    c.save()
    page = pypdfium2.PdfDocument(buf.getvalue())[0]
    return page.render(scale=pixels[0] / w).to_pil().convert("RGB").resize(pixels)


def difference(a: Image.Image, b: Image.Image) -> float:
    return float(sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3)


HOSTILE = ROOT / "tests" / "hostile"


def test_tts_decks_never_share_a_sheet_and_name_each_card_from_its_row(tmp_path: Path) -> None:
    """Issue 40's case: 'spells' (72 faces, two sheets) and 'spells-2' once both wrote
    spells-2-faces.png. Each face is a colour of its own (its row's hue): every card's cell,
    on the sheet its CardID names, is its own row's colour, and its name and text its row's."""
    case = HOSTILE / "export-tts-sheet-names-collide"
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["export", "game", "--sources", str(case / "sources"),
                                       "--out", str(out), "--to", "tts"])
    assert result.exit_code == 0, result.stderr
    folder = out / "game" / "tts"
    saved = json.loads((folder / "game.json").read_text())
    rows = {deck: list(csv.DictReader((case / "sources" / "game" / "data" / f"{deck}.csv")
                                      .open()))
            for deck in ("spells", "spells-2")}
    decks = {o["Nickname"]: o for o in saved["ObjectStates"]}
    sheets: list[str] = []
    for deck_name, deck_id in (("Spells", "spells"), ("Spells 2", "spells-2")):
        deck = decks[deck_name]
        cards = deck["ContainedObjects"]
        assert len(cards) == len(rows[deck_id])
        sheets += [sheet["FaceURL"] for sheet in deck["CustomDeck"].values()]
        for card, row in zip(cards, rows[deck_id], strict=True):
            assert (card["Name"], card["Nickname"], card["Description"]) == (
                "Card", row["name"], row["text"])
            sheet = deck["CustomDeck"][str(card["CardID"] // 100)]
            with Image.open(local(folder, sheet["FaceURL"])) as faces:
                cw = faces.width // sheet["NumWidth"]
                ch = faces.height // sheet["NumHeight"]
                slot = card["CardID"] % 100
                centre = (slot % sheet["NumWidth"] * cw + cw // 2,
                          slot // sheet["NumWidth"] * ch + ch // 2)
                colour = faces.convert("RGB").getpixel(centre)
            want = tuple(int(row["hue"][i:i + 2], 16) for i in (1, 3, 5))
            assert colour == pytest.approx(want, abs=2), (card["Nickname"], colour, want)
    assert len(sheets) == len(set(sheets)) == 3
    assert {p.name for p in folder.iterdir()} == {
        "game.json", "game.png", "spells.faces-1.png", "spells.faces-2.png", "spells.back.png",
        "spells-2.faces.png", "spells-2.back.png"}


@pytest.mark.parametrize(("game", "comp_id"), [("pigeon", "deck"), ("go-stop", "player-cards")])
def test_each_sheet_cell_holds_its_cards_face(tts_export: Callable[[str], Path], game: str,
                                              comp_id: str) -> None:
    folder = tts_export(game)
    saved = json.loads((folder / "tts" / f"{game}.json").read_text())
    deck = next(o for o in saved["ObjectStates"] if o["Nickname"].startswith(
        next(c.name for c in doc_of(game).meta.components if c.id == comp_id)))
    sheet = deck["CustomDeck"]["1" if game == "pigeon" else str(deck["DeckIDs"][0] // 100)]
    faces = Image.open(local(folder / "tts", sheet["FaceURL"])).convert("RGB")
    cw, ch = faces.width // sheet["NumWidth"], faces.height // sheet["NumHeight"]
    checked = 0
    for index, card in enumerate(deck["ContainedObjects"]):
        if index % 7:
            continue  # every seventh card: the whole deck takes too long for one test
        slot = card["CardID"] % 100
        cell = faces.crop((slot % sheet["NumWidth"] * cw, slot // sheet["NumWidth"] * ch,
                           (slot % sheet["NumWidth"] + 1) * cw,
                           (slot // sheet["NumWidth"] + 1) * ch))
        own = kit_face(game, comp_id, index, (cw, ch))
        # Four on: another month of Go-Stop, another rank of the pigeon deck.
        other = kit_face(game, comp_id, (index + 4) % len(deck["ContainedObjects"]), (cw, ch))
        same, unlike = difference(cell, own), difference(cell, other)
        assert same < 2.0 and (unlike > 2 * same or unlike == same == 0), (index, same, unlike)
        checked += 1
    assert checked >= 7


@pytest.mark.parametrize("game", GAMES)
def test_tgc_images_are_the_products_pixels_with_their_counts(tmp_path: Path, game: str
                                                              ) -> None:
    folder, _ = export(tmp_path, game, "--to", "tgc", "--skip", TGC_SKIP[game])
    doc = doc_of(game)
    with (folder / "tgc" / "manifest.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    files = {p.name for p in (folder / "tgc").iterdir()} - {"manifest.csv"}
    assert {r["file"] for r in rows} == files
    products = {p.name: p for p in PRODUCTS["tgc"]}
    counted: dict[tuple[str, str], int] = {}
    for row in rows:
        with Image.open(folder / "tgc" / row["file"]) as image:
            assert image.mode == "RGB"
            assert sorted(image.size) == sorted(products[row["product"]].pixels), row
        assert phys(folder / "tgc" / row["file"]) == (11811, 11811, 1)  # 300 dpi
        assert row["file"].endswith(f"-x{row['copies']}.png")
        # The card's id leads its name: a shared back has none.
        card = row["card"] or row["component"]
        assert row["file"].startswith(f"{row['file'][:2]}-{card}-"), row
        if comp_backs_vary(doc, row["component"]):  # each back numbered as its front
            pair = (row["file"].replace("-front-", "-BACK-").replace("-back-", "-front-")
                    .replace("-BACK-", "-back-"))
            assert pair in files and pair != row["file"]
        key = (row["component"], row["side"])
        counted[key] = counted.get(key, 0) + int(row["copies"])
    skipped = TGC_SKIP[game].split(",")
    for comp in doc.meta.components:
        if comp.in_kit and comp.id not in skipped:
            assert counted[(comp.id, "front")] == comp.count
            if comp.back:
                assert counted[(comp.id, "back")] == comp.count
    orders = [int(r["file"][:2]) for r in rows]
    assert orders == sorted(orders)


def phys(path: Path) -> tuple[int, int, int]:
    """A PNG's pHYs chunk read from its bytes: pixels a unit across, down, and the unit (1: the
    metre)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at = 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"pHYs":
            x, y, unit = struct.unpack(">IIB", data[at + 8:at + 17])
            return x, y, unit
        if kind == b"IDAT":  # pHYs must come before the pixels
            break
        at += 12 + length
    raise AssertionError(f"{path.name}: no pHYs before the image data")


CARDS_CSV = """name,text,hue,qty
Tide Caller,Draw **2** cards.,#1f6f8b,2
Ébène & Co.,"Every player discards, *you too*.",#5b2c83,1
,No name here.,#8b1f1f,1
"""


def test_print_files_record_300_dpi_and_name_each_card(tmp_path: Path) -> None:
    """Each PNG carries 300 dpi (11811 px/m) in its pHYs chunk, and its name the card's id
    and name: NN-<component>-KKK-<name>-front-xQTY.png, the manifest saying the same."""
    game = tmp_path / "sources" / "tide"
    (game / "layouts").mkdir(parents=True)
    (game / "data").mkdir()
    (game / "rules.md").write_text(
        "---\ntitle: Tide\ndesigner: The tests\nplayers: {min: 1, max: 2}\n"
        "duration: 1 minute\nlicence: {name: CC0 1.0, url: \"https://example.com/cc0\"}\n"
        "provenance: [{title: Written for the tests, source: tests}]\ncomponents:\n"
        "  - {id: tide, name: Tide cards, size: 63.5mm x 88.9mm, front: layouts/card.yml, "
        "back: layouts/back.yml, data: data/cards.csv}\n---\n# Tide\n\n## Rules\n\nText.\n")
    (game / "layouts" / "card.yml").write_text(
        'background: "{{ hue }}"\nelements: {}\n')
    (game / "layouts" / "back.yml").write_text('background: "#202020"\nelements: {}\n')
    (game / "data" / "cards.csv").write_text(CARDS_CSV)
    for target in ("tgc", "mpc"):
        out = tmp_path / target
        result = CliRunner().invoke(main, ["export", "tide", "--sources",
                                           str(tmp_path / "sources"), "--out", str(out),
                                           "--to", target])
        assert result.exit_code == 0, result.stderr
        folder = out / "tide" / target
        with (folder / "manifest.csv").open() as fh:
            rows = [(r["file"], r["card"], r["name"], r["side"], r["copies"])
                    for r in csv.DictReader(fh)]
        assert rows == [
            ("01-tide-001-tide-caller-front-x2.png", "tide-001", "Tide Caller", "front", "2"),
            ("01-tide-002-ebene-co-front-x1.png", "tide-002", "Ébène & Co.", "front", "1"),
            ("01-tide-003-front-x1.png", "tide-003", "Tide cards", "front", "1"),
            ("01-tide-back-x4.png", "", "Tide cards", "back", "4")]
        assert {p.name for p in folder.glob("*.png")} == {r[0] for r in rows}
        for file, *_ in rows:
            assert phys(folder / file) == (11811, 11811, 1), file
            with Image.open(folder / file) as image:
                assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
        with Image.open(folder / rows[1][0]) as second:  # its own row's face
            assert second.convert("RGB").getpixel((200, 200)) == (0x5b, 0x2c, 0x83)


def comp_backs_vary(doc: Document, comp_id: str) -> bool:
    return next(c.back_varies for c in doc.meta.components if c.id == comp_id)


def test_a_poker_card_is_825_by_1125_at_tgc_and_822_by_1122_at_mpc(tmp_path: Path) -> None:
    for target, pixels in (("tgc", (825, 1125)), ("mpc", (822, 1122))):
        folder, _ = export(tmp_path / target, "pigeon", "--to", target, "--skip",
                           "pigeon-coin")
        with Image.open(folder / target / "01-deck-001-front-x1.png") as card:
            assert card.size == pixels
        # The trim sits centred: the bleed is as wide on every side, so the artwork's frame
        # is as far from each edge.
        with Image.open(folder / target / "01-deck-001-front-x1.png") as card:
            box = ImageChops.invert(card.convert("L")).point(lambda v: 255 * (v > 40)).getbbox()
            assert box is not None
            left, top, right, bottom = box
            assert abs(left - (card.width - right)) <= 3 and abs(top - (card.height - bottom)) <= 3


def test_dtc_deck_is_cmyk_back_then_front_with_fonts_embedded(tmp_path: Path) -> None:
    folder, _ = export(tmp_path, "pigeon", "--to", "dtc", "--skip", "pigeon-coin")
    reader = pypdf.PdfReader(folder / "dtc" / "pigeon-deck.pdf")
    assert len(reader.pages) == 2 * 52
    for page in reader.pages[:6]:
        assert [float(v) for v in page.mediabox] == [0, 0, 198, 270]  # 2.75 x 3.75 in
        assert [float(v) for v in page.trimbox] == [9, 9, 189, 261]  # 1/8 in of bleed
        content = page.get_contents().get_data()
        assert not re.search(rb"\b(rg|RG)\b", content) and re.search(rb"\bk\b", content)
        for font in page["/Resources"].get("/Font", {}).values():
            assert "/FontFile2" in font.get_object()["/FontDescriptor"]
    text = [reader.pages[n].extract_text() for n in (0, 1, 2)]
    assert text[0] == text[2] != text[1]  # every back alike, then a front


def test_preflight_warns_at_the_element_and_strict_stops(tmp_path: Path) -> None:
    _, said = export(tmp_path, "pigeon", "--to", "tgc", "--skip", "pigeon-coin")
    assert re.search(r"pigeon/layouts/reference\.yml:\d+:1: warning: tgc: Poker Card: text "
                     r"'title' is 3\.0 mm from the trim", said)
    out = tmp_path / "strict"
    result = CliRunner().invoke(main, ["export", "pigeon", "--sources", str(SOURCES), "--out",
                                       str(out), "--to", "tgc", "--skip", "pigeon-coin",
                                       "--strict"])
    assert result.exit_code == 2 and ": error: tgc: Poker Card: text 'title'" in result.stderr
    assert not out.exists()


def test_ink_is_measured_on_the_cmyk_rulepress_writes() -> None:
    assert cmyk(0.2, 0.2, 0.2) == pytest.approx((0, 0, 0, 0.8))
    navy = Image.new("RGB", (10, 10), (0x1f, 0x3a, 0x5f))
    total = sum(cmyk(0x1f / 255, 0x3a / 255, 0x5f / 255)) * 100
    assert over_limit(navy, int(total) - 1) == 1.0 and over_limit(navy, int(total) + 1) == 0.0


def test_base_url_makes_every_image_address_hosted(tmp_path: Path) -> None:
    folder, _ = export(tmp_path, "pigeon", "--to", "tts", "--base-url",
                       "https://example.com/pigeon")
    text = (folder / "tts" / "pigeon.json").read_text()
    urls = re.findall(r'"(?:FaceURL|BackURL|ImageURL|ImageSecondaryURL)": "([^"]*)"', text)
    assert urls and all(u.startswith("https://example.com/pigeon/") for u in urls)
    assert all((folder / "tts" / u.rsplit("/", 1)[1]).is_file() for u in urls)


def test_a_component_placed_by_its_size_variant_is_laid_out_at_that_size(tmp_path: Path
                                                                         ) -> None:
    # Go-Stop's reserve cards are hwatu-sized; The Game Crafter prints them as Poker Cards
    # through their `poker` variant, so the layout fills the poker card (its band runs along
    # the bottom), as the poker kit draws it.
    folder, _ = export(tmp_path, "go-stop", "--to", "tgc", "--skip", "player-tokens")
    with Image.open(folder / "tgc" / "02-reserve-cards-001-reserve-front-x6.png") as card:
        rgb = card.convert("RGB")
        near_bottom = rgb.getpixel((rgb.width * 3 // 4, rgb.height - 80))
    assert near_bottom == pytest.approx((0x5b, 0x2c, 0x83), abs=6)


def test_the_same_sources_give_byte_identical_exports(tmp_path: Path) -> None:
    made = []
    for run in ("one", "two"):
        folder, _ = export(tmp_path / run, "worm-derby", "--to", "tts", "--base-url",
                           "https://example.com/wd/")
        made.append({p.name: p.read_bytes() for p in sorted((folder / "tts").iterdir())})
    assert made[0] == made[1] and len(made[0]) > 10


# The Worm Derby net, as its engine draws it (image cells: column, row from the top): a cross
# whose middle column holds the null (suit), ace, 2 and 3 faces, 4 and 5 either side of the ace.
NET_OPPOSITE = {(1, 0): (1, 2), (1, 1): (1, 3), (0, 1): (2, 1)}


def test_a_net_folds_into_a_cube_only_when_it_is_one() -> None:
    cross = {(1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (1, 3)}
    folded = fold(cross)
    assert folded is not None and len(set(folded.values())) == 6
    for a, b in NET_OPPOSITE.items():
        assert folded[a] == tuple(-n for n in folded[b])
    stairs = {(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3)}  # the staircase net
    assert fold(stairs) is not None
    assert fold({(c, r) for c in range(3) for r in range(2)}) is None  # a 2 x 3 block
    assert fold({(0, r) for r in range(6)}) is None  # a strip wraps onto itself
    assert fold(cross - {(1, 3)}) is None  # five faces


def test_tts_dice_are_custom_d6_with_the_nets_faces_opposite_as_folded(
        tts_export: Callable[[str], Path]) -> None:
    folder = tts_export("worm-derby")
    saved = json.loads((folder / "tts" / "worm-derby.json").read_text())
    dice = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Dice"]
    assert len(dice) == 4 and not any(o["Name"].startswith("Deck") and "dice" in o["Nickname"]
                                      for o in saved["ObjectStates"])
    cell = DIE_CELL
    for index, die in enumerate(dice):
        assert die["CustomImage"]["CustomDice"] == {"Type": 1}
        assert [v["Value"] for v in die["RotationValues"]] == ["1", "2", "3", "4", "5", "6"]
        image = Image.open(local(folder / "tts", die["CustomImage"]["ImageURL"]))
        assert image.mode == "RGB" and image.size == (4 * cell, 3 * cell)
        net = kit_face("worm-derby", "dice", index, (3 * cell, 4 * cell))
        parts = {(c, r): net.crop((c * cell, r * cell, (c + 1) * cell, (r + 1) * cell))
                 for c in range(3) for r in range(4)}
        where: dict[int, tuple[int, int]] = {}
        for value, (c, r) in D6_CELLS.items():
            face = image.crop((c * cell, r * cell, (c + 1) * cell, (r + 1) * cell))
            scores = sorted((difference(face, part), at) for at, part in parts.items())
            assert scores[0][0] < 2.0 < scores[1][0], (index, value, scores[:2])
            where[value] = scores[0][1]
        assert len(set(where.values())) == 6
        pairs = NET_OPPOSITE | {b: a for a, b in NET_OPPOSITE.items()}
        for value, at in where.items():  # opposite values (summing to 7) are opposite faces
            assert pairs[at] == where[7 - value], (index, value)


def test_tts_round_coins_are_round_tiles_clear_outside_their_circle(
        tts_export: Callable[[str], Path]) -> None:
    folder = tts_export("worm-derby")
    saved = json.loads((folder / "tts" / "worm-derby.json").read_text())
    coins = [o for o in saved["ObjectStates"] if o["Nickname"].startswith("Piecepack coins")]
    tiles = [o for o in saved["ObjectStates"] if o["Nickname"].startswith("Piecepack tiles")]
    assert len(coins) == 24 and all(t["CustomImage"]["CustomTile"]["Type"] == 0 for t in tiles)
    for index, coin in enumerate(coins):
        assert coin["Name"] == "Custom_Tile"
        assert coin["CustomImage"]["CustomTile"]["Type"] == 2  # TTS's circle
        for key, back in (("ImageURL", False), ("ImageSecondaryURL", True)):
            image = Image.open(local(folder / "tts", coin["CustomImage"][key]))
            assert image.mode == "RGBA"
            w, h = image.size
            alpha = image.getchannel("A")
            assert all(alpha.getpixel(p) == 0 for p in ((0, 0), (w - 1, 0), (0, h - 1),
                                                        (w - 1, h - 1), (w // 10, h // 10)))
            assert alpha.getpixel((w // 2, h // 2)) == 255
            assert alpha.getpixel((w // 2, 1)) > 0  # the circle reaches the edge
            if index % 5 == 0:  # inside the circle: the kit's own face
                own = kit_face("worm-derby", "coins", index, (w, h), back=back)
                middle = (w // 4, h // 4, 3 * w // 4, 3 * h // 4)
                assert difference(image.convert("RGB").crop(middle), own.crop(middle)) < 2.0


# The houses' published image sizes (300 dpi, bleed included), written out here rather than
# computed: The Game Crafter's product pages and MakePlayingCards' upload FAQ.
PUBLISHED = {
    "tgc": {"Poker Card": (825, 1125), "Bridge Card": (750, 1125), "Mini Card": (600, 825),
            "Tarot Card": (900, 1500), "Jumbo Card": (1125, 1725), "Square Card": (1125, 1125),
            "Small Square Chit": (225, 225), "Medium Square Chit": (300, 300),
            "Large Square Chit": (375, 375), "Medium Circle Chit": (300, 300),
            "Small Square Tile": (675, 675), "Medium Square Tile": (825, 825),
            "Bi-Fold Board": (2775, 5475), "Quad-Fold Board": (5475, 5475),
            "Six-Fold Board": (5475, 8175)},
    "mpc": {"Poker Card": (822, 1122), "Bridge Card": (747, 1122), "Tarot Card": (897, 1497),
            "Domino Card": (597, 1122), "Business Card": (672, 1122),
            "Micro Card": (447, 597)},
}


def test_product_sizes_are_the_houses_published_pixels() -> None:
    for house, sizes in PUBLISHED.items():
        products = {p.name: p for p in PRODUCTS[house]}
        for name, pixels in sizes.items():
            assert products[name].pixels == pixels, (house, name)
    assert not {"Square Card", "Small Square Card"} & {p.name for p in PRODUCTS["mpc"]}


def _painted(colour: object) -> list[Shot]:
    """Shots of a card whose engine-style drawer paints ``colour`` out to the bleed."""
    comp = next(c for c in doc_of("pigeon").meta.components if c.id == "deck")
    assert comp.size is not None

    def draw(c: Canvas, face: Face) -> None:
        c.setFillColor(colour)
        c.rect(-face.bleed, -face.bleed, face.width + 2 * face.bleed,
               face.height + 2 * face.bleed, stroke=0, fill=1)

    side = SideFaces(comp, False, draw, (0,))
    return [Shot(side, 0, comp.size, (82, 112), 30, (2.5, 3.5))]


def test_ink_is_measured_in_the_cmyk_a_face_prints_with() -> None:
    rich_black = _painted(CMYKColor(1, 1, 1, 1))  # 400%: every ink full
    (total,) = ink_totals(rich_black)
    assert total.min() > 395  # its RGB picture is plain black: 100% by the RGB measure
    found = preflight_ink([(rich_black, rich_black[0].side.comp, False)], 300, "tgc", False)
    assert len(found) == 1 and "more than 300% total ink" in str(found[0])
    assert "warning" in str(found[0]) and "front of 'deck'" in str(found[0])
    strict = preflight_ink([(rich_black, rich_black[0].side.comp, False)], 300, "tgc", True)
    assert "error" in str(strict[0])
    (half,) = ink_totals(_painted(CMYKColor(0.5, 0.5, 0.5, 0.5)))
    assert abs(float(half.mean()) - 200) < 2
    navy = _painted(HexColor("#1f3a5f"))  # RGB: converted as the DTC PDF converts it
    (total,) = ink_totals(navy)
    expected = sum(cmyk(0x1f / 255, 0x3a / 255, 0x5f / 255)) * 100
    assert abs(float(total.mean()) - expected) < 2
    assert preflight_ink([(navy, navy[0].side.comp, False)], 300, "tgc", False) == []


def test_a_round_coin_goes_to_the_game_crafter_as_a_circle_chit_of_its_size(tmp_path: Path
                                                                           ) -> None:
    folder, _ = export(tmp_path, "worm-derby", "--to", "tgc", "--skip", "dice,pawns")
    with (folder / "tgc" / "manifest.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    coins = [r for r in rows if r["component"] == "coins"]
    assert len(coins) == 48 and {r["product"] for r in coins} == {"Medium Circle Chit"}
    assert {r["product"] for r in rows if r["component"] == "tiles"} == {"Small Square Tile"}
    with Image.open(folder / "tgc" / coins[0]["file"]) as image:  # 3/4 in and 1/8 in bleed
        assert image.size == (300, 300) and image.mode == "RGB"


def test_tts_sheet_names_of_two_decks_never_collide(tmp_path: Path) -> None:
    """Deck spells's second sheet was spells-2-faces.png, which deck spells-2 also wrote."""
    game = tmp_path / "sources" / "g"
    (game / "layouts").mkdir(parents=True)
    (game / "layouts" / "card.yml").write_text(
        'elements:\n  t: {type: text, x: 5mm, y: 5mm, width: 50mm, height: 20mm, '
        'text: "{{ name }}"}\n')
    rows = "\n".join(f"      - {{name: Spell {n}}}" for n in range(71))
    (game / "rules.md").write_text(f"""---
title: Sheets
designer: The rulepress tests
players: {{min: 1, max: 2}}
duration: 1 minute
licence: {{name: CC0 1.0, url: "https://creativecommons.org/publicdomain/zero/1.0/"}}
provenance: [{{title: Written for the tests, source: tests/test_export.py}}]
components:
  - id: spells
    name: Spells
    size: 63.5mm x 88.9mm
    front: layouts/card.yml
    data:
{rows}
  - id: spells-2
    name: More spells
    size: 63.5mm x 88.9mm
    front: layouts/card.yml
    data:
      - {{name: Other}}
---
# Sheets

## Rules

""")
    result = CliRunner().invoke(main, ["export", "g", "--to", "tts", "--sources",
                                       str(tmp_path / "sources"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    saved = (tmp_path / "out" / "g" / "tts" / "g.json").read_text()
    faces = re.findall(r'"FaceURL": "([^"]+)"', saved)
    names = sorted({local(tmp_path / "out" / "g" / "tts", u).name for u in faces})
    assert names == ["spells-2.faces.png", "spells.faces-1.png", "spells.faces-2.png"]
    other = Image.open(tmp_path / "out" / "g" / "tts" / "spells-2.faces.png")
    second = Image.open(tmp_path / "out" / "g" / "tts" / "spells.faces-2.png")
    assert other.size != second.size or ImageChops.difference(
        other.convert("RGB"), second.convert("RGB")).getbbox() is not None

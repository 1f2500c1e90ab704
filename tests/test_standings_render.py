"""The standings picture (render/standings.py) is readable on a phone: 800 px wide, every text at
least 12 CSS px when shown 400 px wide, a long name cut rather than spilling over the numbers."""

from __future__ import annotations

import io

from PIL import Image

from render.kit import css_px_at, measuring
from render.standings import WIDTH, Row, standings_png


def rows(n: int) -> list[Row]:
    return [
        Row(
            k + 1,
            f"Player number {k} with a very long display name indeed",
            3 - k / 2,
            4.5,
            2.25,
            10.0 - 4 * k,
        )
        for k in range(n)
    ]


def test_every_text_is_at_least_12_css_px_on_a_phone():
    with measuring() as sizes:
        png = standings_png(
            "Club Swiss: after round 2 of 3", "Pts, then Buchholz, then Sonneborn-Berger.", rows(6)
        )
    image = Image.open(io.BytesIO(png))
    assert image.size[0] == WIDTH
    assert sizes and css_px_at(sizes, image.size[0]) >= 12


def test_the_picture_grows_with_the_players_and_decodes():
    small = Image.open(io.BytesIO(standings_png("T", "", rows(2))))
    large = Image.open(io.BytesIO(standings_png("T", "", rows(20))))
    assert large.size[1] > small.size[1] + 17 * 40
    assert large.getpixel((WIDTH // 2, large.size[1] // 2)) != (0, 0, 0)


def test_points_and_tiebreaks_are_written_in_one_way_with_quarters_as_fractions():
    """Sonneborn-Berger comes in quarters (a draw against a player on a half point): written 3¼
    like the points' 2½, never 3.25 beside 2½ in the same column."""
    from render.standings import _half

    assert [_half(v) for v in (0, 0.25, 0.5, 0.75, 2, 2.5, 3.25, 4.75)] == [
        "0", "¼", "½", "¾", "2", "2½", "3¼", "4¾",
    ]  # fmt: skip


def test_a_withdrawn_player_is_marked_in_full_and_their_row_muted():
    """ "(withdrawn)" follows the name and is never the part cut; the row is drawn in the muted grey,
    not the ink (or the leader's gold) of the others."""
    from render.standings import INK, MUTED, ROW, name_cell

    long = Row(4, "Player number 3 with a very long display name indeed", 1, 4.5, 2, -8.0, True)
    assert name_cell(long).endswith("… (withdrawn)")
    assert name_cell(Row(2, "Bob", 1, 2, 1, 0, True)) == "Bob (withdrawn)"
    assert name_cell(Row(2, "Bob", 1, 2, 1, 0)) == "Bob"
    table = [Row(1, "Ann", 2, 1, 1, 8.0), Row(2, "Bob", 1, 2, 1, 0.0, True)]
    image = Image.open(io.BytesIO(standings_png("T", "", table))).convert("RGB")

    def colours(row: int) -> set[tuple[int, int, int]]:
        top = image.size[1] - 24 - (len(table) - row) * ROW  # rows end PAD above the bottom
        return {image.getpixel((x, y)) for x in range(60, 520) for y in range(top, top + ROW - 10)}  # type: ignore[misc]

    ann, bob = colours(0), colours(1)
    assert MUTED in bob and INK not in bob
    assert INK in ann or (176, 132, 20) in ann

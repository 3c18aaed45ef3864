"""What a person sees on the terminal, as plain text lines, read from Textual's own screenshot."""

from __future__ import annotations

import html
import re
from typing import Any

TEXT = re.compile(r'<text[^>]*\bx="([\d.]+)" y="([\d.]+)" textLength="([\d.]+)"[^>]*>([^<]*)</text>')


def lines_of(svg: str) -> list[str]:
    """The screenshot's characters, row by row (trailing blanks dropped)."""
    rows: dict[float, list[tuple[float, float, str]]] = {}
    for x, y, length, raw in TEXT.findall(svg):
        text = html.unescape(raw).replace("\xa0", " ")
        rows.setdefault(float(y), []).append((float(x), float(length) / max(len(text), 1), text))
    width = min((step for row in rows.values() for _, step, _ in row), default=1.0)
    lines = []
    for y in sorted(rows):
        line = ""
        for x, _, text in sorted(rows[y]):
            column = round(x / width)
            line = line.ljust(column)[:column] + text
        lines.append(line.rstrip())
    return lines


def lines(app: Any) -> list[str]:
    """The app's screen now, as text lines."""
    return lines_of(app.export_screenshot())

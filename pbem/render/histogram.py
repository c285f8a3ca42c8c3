"""A die's histogram as SVG, drawn as the map is (:mod:`.svg`): ``xml.etree`` alone, classes and ``data-`` attributes on
every bar, so that a page can style it and a test can count it.

One bar per face with its count, and a dashed line at the count a fair die
would give (``rolls / 6``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from pbem.render.svg import _fmt

WIDTH, HEIGHT = 260, 150
LEFT, BOTTOM, TOP = 30, 22, 34
STYLE = """
.bar { fill: #5d7fa8; }
.bar-count { font: 10px sans-serif; text-anchor: middle; fill: #222; }
.face { font: bold 11px sans-serif; text-anchor: middle; fill: #222; }
.expected { stroke: #c0392b; stroke-width: 1.5; stroke-dasharray: 4 3; }
.axis { stroke: #555; stroke-width: 1; }
.histogram-title { font: bold 11px sans-serif; fill: #222; }
"""


def histogram_svg(counts: dict[int, int], title: str, *, sample: str = "") -> str:
    """The standalone ``<svg>`` of ``counts`` (face -> rolls)."""
    faces = sorted(counts)
    total = sum(counts.values())
    expected = total / len(faces) if faces else 0
    top = max([*counts.values(), expected, 1])
    plot_w, plot_h = WIDTH - LEFT - 10, HEIGHT - TOP - BOTTOM
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "version": "1.1", "class": "histogram", "data-sample": sample,
                             "data-rolls": str(total), "viewBox": f"0 0 {WIDTH} {HEIGHT}", "width": str(WIDTH), "height": str(HEIGHT)})
    ET.SubElement(ET.SubElement(svg, "defs"), "style").text = STYLE
    ET.SubElement(svg, "title").text = f"{title}: {total} roll(s)"
    ET.SubElement(svg, "text", {"class": "histogram-title", "x": str(LEFT), "y": "14"}).text = title
    step = plot_w / max(len(faces), 1)
    base = TOP + plot_h
    for i, face in enumerate(faces):
        height = plot_h * counts[face] / top
        x = LEFT + i * step
        bar = ET.SubElement(svg, "rect", {"class": "bar", "data-face": str(face), "data-count": str(counts[face]),
                                          "x": _fmt(x + step * 0.15), "y": _fmt(base - height), "width": _fmt(step * 0.7), "height": _fmt(height)})
        ET.SubElement(bar, "title").text = f"{face}: {counts[face]} roll(s)"
        ET.SubElement(svg, "text", {"class": "bar-count", "x": _fmt(x + step / 2), "y": _fmt(base - height - 3)}).text = str(counts[face])
        ET.SubElement(svg, "text", {"class": "face", "x": _fmt(x + step / 2), "y": _fmt(base + 14)}).text = str(face)
    ET.SubElement(svg, "line", {"class": "axis", "x1": str(LEFT), "y1": _fmt(base), "x2": _fmt(LEFT + plot_w), "y2": _fmt(base)})
    if total:
        y = base - plot_h * expected / top
        line = ET.SubElement(svg, "line", {"class": "expected", "data-expected": _fmt(expected), "x1": str(LEFT), "y1": _fmt(y),
                                           "x2": _fmt(LEFT + plot_w), "y2": _fmt(y)})
        ET.SubElement(line, "title").text = f"a fair die: {_fmt(expected)} per face"
    return ET.tostring(svg, encoding="unicode")

"""Self-contained HTML reports: text, tables and figures in one file.

A :class:`Report` is a title, optional metadata and a list of :class:`Section` objects; each
section holds blocks — :class:`Text` (plain text or a small, safe Markdown subset),
:class:`Table` and :class:`Figure` (a PNG embedded as a ``data:`` URI).  :meth:`Report.render`
turns it into one HTML page through a Jinja2 template with autoescaping on, so every string a
user supplies — titles, captions, table cells — is escaped.  The page loads nothing from the
network: no external CSS, scripts, fonts or images (its Content-Security-Policy forbids them).
:meth:`Report.write` writes the file atomically (temporary file + rename).

Rendering costs O(total size of the blocks); figures are rasterized once, when added.
"""

from __future__ import annotations

import base64
import html as _html
import io
import math
import numbers
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from markupsafe import Markup

from privlab.errors import InputError
from privlab.io.atomic import atomic_path
from privlab.io.outputs import is_stdout, stdout_binary

__all__ = [
    "Figure",
    "Report",
    "Section",
    "Table",
    "Text",
    "format_number",
    "markdown_to_html",
]

_NUMBER_RE = re.compile(
    r"^\s*[-+−]?(\d[\d,]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?%?"
    r"(\s*±\s*(\d[\d,]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?%?)?\s*$"
    r"|^\s*([-+−]?(inf|∞)|nan|NaN|–)\s*$"
)


def format_number(x: float | int, digits: int = 4) -> str:
    """Format a number for a table cell: ``digits`` significant digits, thousands separators.

    Integers print exactly (``12,345``); floats print with ``digits`` significant digits,
    switching to scientific notation below 1e-4 and from 1e15 on.
    """
    if isinstance(x, numbers.Integral):
        return f"{int(x):,}"
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x == 0:
        return "0"
    a = abs(x)
    if a < 1e-4 or a >= 1e15:
        return f"{x:.{digits - 1}e}"
    if a >= 10 ** (digits - 1):
        return f"{x:,.0f}" if x.is_integer() else f"{x:,.1f}"
    return f"{x:.{digits}g}"


def _is_number(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


# --------------------------------------------------------------------------- Markdown subset

_INLINE_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_EM = re.compile(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])")
_LINK = re.compile(r"\[([^\]]+)\]\(((?:https?://|#)[^)\s]+)\)")


def _inline(text: str) -> str:
    """Escape ``text``, then apply inline Markdown: code, bold, emphasis, http(s)/# links."""
    parts = _INLINE_CODE.split(text)
    out = []
    for i, part in enumerate(parts):
        if i % 2:  # inside backticks: literal
            out.append(f"<code>{_html.escape(part)}</code>")
            continue
        s = _html.escape(part)
        s = _LINK.sub(lambda m: f'<a href="{m.group(2)}">{m.group(1)}</a>', s)
        s = _BOLD.sub(r"<strong>\1</strong>", s)
        s = _EM.sub(r"<em>\1</em>", s)
        out.append(s)
    return "".join(out)


def markdown_to_html(text: str) -> Markup:
    """Render plain text or a small Markdown subset to safe HTML.

    Supported: paragraphs (blank-line separated), ``#``-headings (rendered from ``h3`` down),
    ``-``/``*`` bullet lists, ``1.`` numbered lists, fenced code blocks (triple backticks),
    inline code, ``**bold**``, ``*emphasis*`` and ``[text](https://...)`` links.  Everything
    else is text: all input is HTML-escaped first, so no markup can be injected.
    """
    lines = text.replace("\r\n", "\n").strip("\n").split("\n")
    html_parts: list[str] = []
    para: list[str] = []
    items: list[str] = []
    list_tag = ""

    def flush() -> None:
        nonlocal list_tag
        if para:
            html_parts.append(f"<p>{_inline(' '.join(s.strip() for s in para))}</p>")
            para.clear()
        if items:
            lis = "".join(f"<li>{_inline(s)}</li>" for s in items)
            html_parts.append(f"<{list_tag}>{lis}</{list_tag}>")
            items.clear()
            list_tag = ""

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            code = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                code.append(lines[i])
                i += 1
            html_parts.append(f"<pre><code>{_html.escape(chr(10).join(code))}</code></pre>")
        elif not stripped:
            flush()
        elif m := re.match(r"^(#{1,4})\s+(.*)$", stripped):
            flush()
            level = min(len(m.group(1)) + 2, 6)
            html_parts.append(f"<h{level}>{_inline(m.group(2))}</h{level}>")
        elif m := re.match(r"^([-*]|\d+\.)\s+(.*)$", stripped):
            tag = "ol" if m.group(1)[0].isdigit() else "ul"
            if para or (items and tag != list_tag):
                flush()
            list_tag = tag
            items.append(m.group(2))
        elif items and line.startswith((" ", "\t")):
            items[-1] += " " + stripped  # continuation of a list item
        else:
            if items:
                flush()
            para.append(line)
        i += 1
    flush()
    return Markup("\n".join(html_parts))


# --------------------------------------------------------------------------- blocks


@dataclass
class Text:
    """A block of plain text or Markdown (see :func:`markdown_to_html`)."""

    text: str

    kind = "text"

    @property
    def html(self) -> Markup:
        return markdown_to_html(self.text)


@dataclass
class Table:
    """A table: column names, rows of cells and a caption.

    Numbers are formatted with :func:`format_number`; a column whose cells are all numbers
    (or numeric strings such as ``"0.12 ± 0.03"``) is right-aligned.
    """

    columns: list[str]
    rows: list[list[Any]]
    caption: str = ""

    kind = "table"

    @classmethod
    def from_data(cls, data: Any, caption: str = "", columns: Sequence[str] | None = None) -> Table:
        """Build a table from a polars/pandas DataFrame, a list of dicts or a list of rows.

        Rows given as sequences need ``columns``.
        """
        if hasattr(data, "rows") and hasattr(data, "columns") and callable(data.rows):  # polars
            cols = [str(c) for c in data.columns]
            rows = [list(r) for r in data.rows()]
        elif hasattr(data, "itertuples") and hasattr(data, "columns"):  # pandas
            cols = [str(c) for c in data.columns]
            rows = [list(r) for r in data.itertuples(index=False, name=None)]
        else:
            records = list(data)
            if records and all(isinstance(r, Mapping) for r in records):
                cols = list(columns) if columns is not None else []
                if columns is None:
                    for r in records:
                        cols.extend(str(k) for k in r if str(k) not in cols)
                rows = [[r.get(c) for c in cols] for r in records]
            else:
                if columns is None and records:
                    raise InputError(
                        "add_table: rows given as sequences need column names (columns=[...])"
                    )
                cols = [str(c) for c in (columns or [])]
                rows = [list(r) for r in records]
                for n, r in enumerate(rows, start=1):
                    if len(r) != len(cols):
                        raise InputError(
                            f"add_table: row {n} has {len(r)} cells but there are "
                            f"{len(cols)} columns"
                        )
        return cls(columns=cols, rows=rows, caption=caption)

    @property
    def numeric(self) -> list[bool]:
        """Per column: are all non-empty cells numbers (right-aligned)?"""
        flags = []
        for j in range(len(self.columns)):
            cells = [r[j] for r in self.rows if r[j] is not None and r[j] != ""]
            flags.append(
                bool(cells)
                and all(
                    _is_number(c) or (isinstance(c, str) and _NUMBER_RE.match(c)) for c in cells
                )
            )
        return flags

    @property
    def formatted_rows(self) -> list[list[str]]:
        """Cells as display strings."""
        return [[_cell(c) for c in r] for r in self.rows]


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if _is_number(v):
        return format_number(v)
    if isinstance(v, datetime):
        return v.isoformat(sep=" ", timespec="seconds")
    return str(v)


@dataclass
class Figure:
    """A PNG image (embedded as a base64 ``data:`` URI) with a caption."""

    png: bytes
    caption: str = ""
    alt: str = ""
    width: int = 0
    height: int = 0

    kind = "figure"

    @classmethod
    def from_matplotlib(
        cls, fig: Any, caption: str = "", *, alt: str = "", dpi: int = 110, close: bool = True
    ) -> Figure:
        """Rasterize a matplotlib figure to PNG (Agg), and close it when it came from pyplot."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        if not hasattr(fig, "savefig"):
            raise InputError(f"add_figure expects a matplotlib Figure, got {type(fig).__name__}")
        if not isinstance(fig.canvas, FigureCanvasAgg):
            FigureCanvasAgg(fig)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight", facecolor="white")
        png = buf.getvalue()
        if close and getattr(fig.canvas, "manager", None) is not None:
            import matplotlib.pyplot as plt

            plt.close(fig)
        width, height = _png_size(png)
        return cls(png=png, caption=caption, alt=alt or caption, width=width, height=height)

    @property
    def data_uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


def _png_size(png: bytes) -> tuple[int, int]:
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise InputError("figure is not a PNG image")
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


Block = Text | Table | Figure


@dataclass
class Section:
    """A titled part of a report (listed in the contents) holding blocks in order."""

    title: str | None = None
    blocks: list[Block] = field(default_factory=list)
    anchor: str = ""

    def add_text(self, text: str) -> Section:
        """Append plain text or Markdown (see :func:`markdown_to_html`)."""
        self.blocks.append(Text(str(text)))
        return self

    def add_table(
        self, data: Any, caption: str = "", *, columns: Sequence[str] | None = None
    ) -> Section:
        """Append a table from a DataFrame (polars or pandas), dicts or rows (+ ``columns``)."""
        self.blocks.append(Table.from_data(data, caption, columns))
        return self

    def add_figure(
        self, fig: Any, caption: str = "", *, alt: str = "", dpi: int = 110, close: bool = True
    ) -> Section:
        """Append a matplotlib figure, embedded as PNG; ``bytes`` are taken as a PNG."""
        if isinstance(fig, bytes | bytearray):
            png = bytes(fig)
            w, h = _png_size(png)
            self.blocks.append(Figure(png, caption, alt or caption, w, h))
        else:
            self.blocks.append(Figure.from_matplotlib(fig, caption, alt=alt, dpi=dpi, close=close))
        return self


class Report:
    """An HTML report: a title, metadata and sections of text, tables and figures.

    >>> r = Report("Release audit")
    >>> _ = r.add_section("Risk").add_text("Highest prosecutor risk: **0.5**")
    >>> "<strong>0.5</strong>" in r.render()
    True

    ``add_text``/``add_table``/``add_figure`` on the report append to the last section
    (an untitled one is opened if there is none); :meth:`add_section` opens a new one.
    ``sections`` may also be given up front, e.g. by ``privlab audit``.
    """

    def __init__(
        self,
        title: str,
        sections: Iterable[Section] | None = None,
        *,
        subtitle: str = "",
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        self.title = str(title)
        self.subtitle = subtitle
        self.meta: dict[str, str] = {str(k): _cell(v) for k, v in (meta or {}).items()}
        self.sections: list[Section] = list(sections or [])

    def add_section(self, title: str) -> Section:
        """Open a new titled section (listed in the contents) and return it."""
        section = Section(str(title))
        self.sections.append(section)
        return section

    def _current(self) -> Section:
        if not self.sections:
            self.sections.append(Section(None))
        return self.sections[-1]

    def add_text(self, text: str) -> Report:
        """Append plain text or Markdown to the current section."""
        self._current().add_text(text)
        return self

    def add_table(
        self, data: Any, caption: str = "", *, columns: Sequence[str] | None = None
    ) -> Report:
        """Append a table (polars/pandas DataFrame, dicts, or rows + ``columns``)."""
        self._current().add_table(data, caption, columns=columns)
        return self

    def add_figure(self, fig: Any, caption: str = "", *, alt: str = "", dpi: int = 110) -> Report:
        """Append a matplotlib figure, embedded as a base64 PNG."""
        self._current().add_figure(fig, caption, alt=alt, dpi=dpi)
        return self

    def _anchored(self) -> list[Section]:
        seen: set[str] = set()
        for n, s in enumerate(self.sections, start=1):
            base = re.sub(r"[^a-z0-9]+", "-", (s.title or "").lower()).strip("-") or f"s{n}"
            anchor, k = base, 2
            while anchor in seen:
                anchor, k = f"{base}-{k}", k + 1
            seen.add(anchor)
            s.anchor = anchor
        return self.sections

    def render(self) -> str:
        """The report as one self-contained HTML document."""
        from privlab import __version__

        sections = self._anchored()
        figure_no = table_no = 0
        numbered: list[tuple[Section, list[tuple[Block, int]]]] = []
        for s in sections:
            blocks = []
            for b in s.blocks:
                if isinstance(b, Figure):
                    figure_no += 1
                    blocks.append((b, figure_no))
                elif isinstance(b, Table):
                    table_no += 1
                    blocks.append((b, table_no))
                else:
                    blocks.append((b, 0))
            numbered.append((s, blocks))
        return _template().render(
            title=self.title,
            subtitle=self.subtitle,
            meta=self.meta,
            sections=numbered,
            contents=[s for s in sections if s.title],
            version=__version__,
            generated=datetime.now(UTC).isoformat(timespec="seconds"),
        )

    def write(self, path: str | Path) -> Path:
        """Render and write the report atomically (temporary file + rename; ``-``: standard
        output); return the path."""
        if is_stdout(path):
            stdout_binary().write(self.render().encode("utf-8"))
            return Path(path)
        path = Path(path)
        if path.is_dir():
            raise InputError(f"{path} is a folder; give a file name such as {path}/report.html")
        text = self.render()
        with atomic_path(path) as tmp:
            tmp.write_text(text, encoding="utf-8")
        return path


_TEMPLATE = None


def _template() -> Any:
    global _TEMPLATE
    if _TEMPLATE is None:
        from jinja2 import Environment, PackageLoader, StrictUndefined

        env = Environment(
            loader=PackageLoader("privlab.report", "templates"),
            autoescape=True,
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        _TEMPLATE = env.get_template("report.html.j2")
    return _TEMPLATE

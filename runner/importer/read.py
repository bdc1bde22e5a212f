"""From a file to numbered lines: the guards at the door, decoding, HTML to text, folding.

Every way a file can be wrong (missing, a folder, too large, empty, binary, an unknown
encoding) ends here as an :class:`ImportFailure` with a one-line message; nothing past
this module sees anything but text.
"""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

from runner.importer.model import Document, ImportFailure, Line
from runner.story.text import printable

MAX_BYTES = 5 * 1024 * 1024
"""The largest document read. Scenario documents are tens of kilobytes; a long campaign
book saved as HTML stays under 2 MB. Anything larger is refused before it is read."""

_MAGIC = (
    b"%PDF",
    b"PK\x03\x04",
    b"\x89PNG",
    b"GIF8",
    b"\xff\xd8\xff",
    b"\xd0\xcf\x11\xe0",
    b"\x7fELF",
    b"MZ",
    b"\x1f\x8b",
    b"BZh",
    b"7z\xbc\xaf",
    b"Rar!",
    b"OggS",
    b"ID3",
    b"RIFF",
    b"\x00\x00\x01\x00",
    b"wOFF",
    b"SQLite format",
)
_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-]+)""", re.I)
_ENCODINGS = {
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "windows-31j": "cp932",
    "cp932": "cp932",
    "ms932": "cp932",
    "euc-jp": "euc_jp",
    "euc_jp": "euc_jp",
    "utf-8": "utf-8",
    "utf8": "utf-8",
}


def read_document(path: str | Path, *, limit: int = MAX_BYTES) -> Document:
    p = Path(path)
    name = str(path)
    try:
        if not p.exists():
            raise ImportFailure("missing", path=name)
        if not p.is_file():
            raise ImportFailure("not_file", path=name)
        size = p.stat().st_size
        if size > limit:
            from runner.importer.messages import size_text

            raise ImportFailure("too_big", path=name, size=size_text(size), limit=size_text(limit))
        with open(p, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise ImportFailure("unreadable", path=name, why=e.strerror or type(e).__name__) from None
    if len(data) > limit:  # grew while we looked
        from runner.importer.messages import size_text

        raise ImportFailure("too_big", path=name, size=size_text(len(data)), limit=size_text(limit))
    text, encoding = decode(data, name)
    html = p.suffix.lower() in (".html", ".htm", ".xhtml") or _looks_html(text)
    if html:
        raw_lines, title = html_lines(text)
        fmt = "html"
    else:
        raw_lines = [(i + 1, s) for i, s in enumerate(_split(text))]
        title = ""
        fmt = (
            "markdown"
            if p.suffix.lower() in (".md", ".markdown") or _looks_markdown(raw_lines)
            else "text"
        )
    lines = []
    for no, s in raw_lines:
        s = printable(s)  # a story holds no control characters (docs/security.md, Stories)
        stripped = s.strip(" \t\u3000\ufeff\r")
        if not stripped:
            continue
        indent = len(s) - len(s.lstrip(" \t\u3000"))
        lines.append(Line(no, stripped, normalise(stripped), indent))
    if not lines:
        raise ImportFailure("empty", path=name)
    if fmt == "text":
        lines = drop_page_furniture(lines)
        mend_breaks(lines)
    return Document(name, lines, fmt, encoding, title)


_PAGE_NO = re.compile(
    r"^(?:[-–—ー－]\s*)?(?:P\.?\s*|p\.?\s*)?\d{1,3}(?:\s*/\s*\d{1,3})?(?:\s*[-–—ー－])?$"
)


def drop_page_furniture(lines: list[Line]) -> list[Line]:
    """Text taken out of a PDF (a BOOTH scenario) keeps each page's number and running header
    (「潮招きの宿 ｜ KP用資料」) between the lines: a bare number that counts up, and a line
    repeated next to such numbers, are the page's, not the scenario's."""
    nums = [i for i, ln in enumerate(lines) if _PAGE_NO.match(ln.norm)]
    values = [int(re.findall(r"\d+", lines[i].norm)[0]) for i in nums]
    if (
        len(nums) < 2
        or sum(1 for a, b in zip(values, values[1:], strict=False) if b > a) < len(values) // 2
    ):
        return lines
    drop = set(nums)
    near: dict[str, list[int]] = {}
    for i in nums:
        for j in (i - 1, i + 1):
            if 0 <= j < len(lines) and j not in drop and len(lines[j].norm) <= 40:
                near.setdefault(lines[j].norm, []).append(j)
    for text, idx in near.items():
        if len(idx) >= 2 and sum(1 for ln in lines if ln.norm == text) == len(idx):
            drop.update(idx)
    return [ln for i, ln in enumerate(lines) if i not in drop]


_OPENS = "〈《【〔[「『<"
_CLOSES = "〉》】〕]」』>"
_SAN_END = re.compile(
    r"(?:SAN値?|正気度)\s*(?:チェック|ロール|判定|c|C)?\s*[(\[【]?\s*(?:\d+\s*/\s*\d*[dD]?\d*)?$"
)
_STARTS_OWN = re.compile(r"^[\s]*(?:[・\-*●○◆◇■□▼▽▶☆★→※#|]|\d{1,2}[.)]\s|\d{1,2}:\d\d|[0-9]+日目)")


def mend_breaks(lines: list[Line]) -> None:
    """A PDF's lines break where the page is full, even inside 〈芸術／製作（日本 | 画）〉, a
    sanity roll's SANチェック（0/1D | 3）, or before a roll's （ハード）. For recognition only
    (the ``norm`` of the lines; the text stays as written), the broken piece is moved back to
    the line where it began."""
    for i, (a, b) in enumerate(zip(lines, lines[1:], strict=False)):
        if _STARTS_OWN.match(b.norm) or b.no - a.no > 3:
            continue
        s, n = a.norm, b.norm
        k = 0
        if (
            _SAN_END.search(s)
            and re.search(r"SAN|正気度", s[-16:])
            and i + 2 < len(lines)
            and len(n) <= 8
            and not re.search(r"[)\]】」。]", n)
        ):
            # SANチェック | （0/1D | 3）: the losses broken over two more lines
            c = lines[i + 2]
            m = re.match(
                r"^[\s(\[【「]*\d+\s*/\s*\d*[dD]?\d+(?:[+\-]\d*[dD]?\d+)*\s*[)\]】」]?", n + c.norm
            )
            if m and m.end() > len(n):
                a.norm = normalise(s + n + c.norm[: m.end() - len(n)])
                b.norm = ""
                c.norm = c.norm[m.end() - len(n) :].lstrip()
                continue
        depth = sum(s.count(c) for c in "〈《〔") - sum(s.count(c) for c in "〉》〕")
        if depth > 0:  # an unclosed skill bracket
            close = min((n.find(c) for c in "〉》〕" if n.find(c) >= 0), default=-1)
            if 0 <= close <= 16:
                k = close + 1
        elif _SAN_END.search(s) and re.search(r"SAN|正気度", s[-16:]):
            m = re.match(
                r"^[\s(\[【「]*\d*\s*/?\s*\d*[dD]?\d+(?:[+\-]\d*[dD]?\d+)*\s*[)\]】」]?", n
            )
            if m and m.end():
                k = m.end()
        elif re.search(r"[〉》〕]\s*$", s):
            m = re.match(r"^\s*[(（](?:ハード|イクストリーム|エクストリーム|レギュラー)[)）]", n)
            if m:
                k = m.end()
        if k:
            a.norm = normalise(s + n[:k])
            b.norm = n[k:].lstrip()


def decode(data: bytes, name: str = "") -> tuple[str, str]:
    """UTF-8 (with or without BOM), then the charset an HTML page declares, then Shift_JIS
    (cp932, Windows' superset) and EUC-JP. Binary data is refused first."""
    if not data.strip(b" \t\r\n\x0c\xef\xbb\xbf"):
        raise ImportFailure("empty", path=name)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return _check_text(data.decode("utf-16"), name), "utf-16"
        except UnicodeDecodeError:
            raise ImportFailure("encoding", path=name) from None
    head = data[:4096]
    if any(head.startswith(m) for m in _MAGIC) or b"\x00" in data[:65536]:
        raise ImportFailure("binary", path=name)
    sample = data[:65536]
    if sum(sample.count(bytes([b])) for b in _CONTROL) > max(8, len(sample) // 100):
        raise ImportFailure("binary", path=name)
    order = ["utf-8"]
    m = _CHARSET.search(data[:4096])
    if m:
        declared = _ENCODINGS.get(m.group(1).decode("ascii", "replace").lower())
        if declared and declared not in order:
            order.append(declared)
    for enc in ("cp932", "euc_jp"):
        if enc not in order:
            order.append(enc)
    for enc in order:
        try:
            text = data.decode("utf-8-sig" if enc == "utf-8" else enc)
        except UnicodeDecodeError:
            continue
        return _check_text(text, name), enc
    raise ImportFailure("encoding", path=name)


def _check_text(text: str, name: str) -> str:
    bad = sum(
        1
        for ch in text[:65536]
        if unicodedata.category(ch) in ("Cc", "Co", "Cs", "Cn") and ch not in "\t\n\r\x0c\x1b\x85"
    )
    if bad > max(8, min(len(text), 65536) // 100):
        raise ImportFailure("binary", path=name)
    return text


def _split(text: str) -> list[str]:
    # Only \n, \r\n and \r end a line: Shift_JIS text decoded may hold U+0085 and friends,
    # which str.splitlines() would also break on and so shift every line number.
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _looks_html(text: str) -> bool:
    head = text[:2048].lstrip().lower()
    return head.startswith(("<!doctype html", "<html")) or ("<body" in head and "</" in head)


def _looks_markdown(lines: list[tuple[int, str]]) -> bool:
    heads = sum(1 for _, s in lines[:400] if re.match(r"#{1,6}\s", s))
    return heads >= 3


_DICE = re.compile(r"(?<![A-Za-z])(\d*)[Dd](\d+)")
_DASHES = str.maketrans(
    {
        "\u2212": "-",
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u301c": "~",
        "\uff5e": "~",
        "\u223c": "~",
    }
)


def normalise(s: str) -> str:
    """Folds width (NFKC: ＳＡＮｃ１／１Ｄ６ → SANc1/1D6), dashes and tildes, and writes dice
    as lower-case ``1d6`` so that recognisers see one spelling. Only for recognition."""
    s = unicodedata.normalize("NFKC", s).translate(_DASHES)
    return _DICE.sub(lambda m: f"{m.group(1)}d{m.group(2)}", s)


# ------------------------------------------------------------------------------- HTML

_BLOCK = {
    "p",
    "div",
    "section",
    "article",
    "header",
    "footer",
    "main",
    "aside",
    "nav",
    "ul",
    "ol",
    "dl",
    "dt",
    "blockquote",
    "pre",
    "hr",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "caption",
    "figure",
    "figcaption",
    "form",
    "fieldset",
    "address",
    "details",
    "summary",
    "center",
}
_SKIP = {"script", "style", "noscript", "template", "svg", "math", "iframe", "object", "select"}


class _Text(HTMLParser):
    """Markup to lines, each with the source line its text starts on. Headings become
    Markdown headings (``<h2>`` → ``## ``), table rows ``| a | b |``, list items ``- ``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[int, str]] = []
        self.buf: list[str] = []
        self.buf_line = 0
        self.skip = 0
        self.in_title = False
        self.title = ""
        self.pre = 0
        self.prefix = ""

    def flush(self) -> None:
        text = "".join(self.buf).strip()
        if text.strip("| "):
            self.lines.append((self.buf_line or self.getpos()[0], self.prefix + text))
        self.buf = []
        self.buf_line = 0
        self.prefix = ""

    def handle_starttag(self, tag: str, attrs: list) -> None:  # noqa: ANN001
        if tag in _SKIP:
            self.skip += 1
            return
        if tag == "title":
            self.in_title = True
            return
        if tag == "br":
            self.flush()
        elif tag in _BLOCK:
            self.flush()
            if tag == "pre":
                self.pre += 1
        elif re.fullmatch(r"h[1-6]", tag):
            self.flush()
            self.prefix = "#" * int(tag[1]) + " "
        elif tag == "li":
            self.flush()
            self.prefix = "- "
        elif tag == "tr":
            self.flush()
            self.buf = ["|"]
            self.buf_line = 0
        elif tag in ("td", "th"):
            self.buf.append(" ")
        elif tag == "dd":  # <dt>人数</dt><dd>2～3人</dd> is one line: 人数：2～3人
            if "".join(self.buf).strip():
                self.buf.append("：")
            else:
                self.flush()

    def handle_startendtag(self, tag: str, attrs: list) -> None:  # noqa: ANN001
        if tag == "br" or tag == "hr":
            self.flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if tag == "title":
            self.in_title = False
            return
        if tag in ("td", "th"):
            self.buf.append(" |")
        elif tag == "dt":
            pass
        elif tag in _BLOCK or tag in ("li", "tr", "dd") or re.fullmatch(r"h[1-6]", tag):
            if tag == "pre":
                self.pre = max(0, self.pre - 1)
            self.flush()

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.in_title:
            self.title += data
            return
        line = self.getpos()[0]
        if self.pre:
            parts = data.split("\n")
            for i, part in enumerate(parts):
                if i:
                    self.flush()
                if part.strip():
                    if not self.buf_line:
                        self.buf_line = line + i
                    self.buf.append(part)
            return
        text = re.sub(r"[ \t\r\n]+", " ", data)
        if not text.strip():
            if self.buf and not self.buf[-1].endswith(" "):
                self.buf.append(" ")
            return
        if not self.buf_line:
            # the first text of the line: where it starts (after any leading newline)
            lead = len(data) - len(data.lstrip(" \t\r\n"))
            self.buf_line = line + data[:lead].count("\n")
        self.buf.append(text)


def html_lines(text: str) -> tuple[list[tuple[int, str]], str]:
    p = _Text()
    try:
        p.feed(text)
        p.close()
    except (AssertionError, ValueError):  # html.parser gives up on some broken markup
        pass
    p.flush()
    out = []
    for no, s in p.lines:
        s = re.sub(r"[ \t]{2,}", " ", s.replace("\xa0", " ")).strip()
        if s:
            out.append((no, s))
    return out, re.sub(r"\s+", " ", p.title).strip()

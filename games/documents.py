"""The repository's documents a running server shows: the JSON API's (docs/api.md) at
``/api/docs/``, and the documents it links to, each at ``/api/docs/<its path in the
repository>``: Markdown drawn as HTML (its headings anchored as GitHub anchors them, its links
to other documents pointed at their own pages), an example program as the text it is."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePosixPath

import markdown
from django.conf import settings
from django.urls import reverse

API_DOCUMENT = "docs/api.md"
# what may be shown: the documents, the engines' own READMEs, the example programs
SHOWN = (re.compile(r"docs/[a-z0-9-]+\.md"), re.compile(r"games/engines/[a-z_]+/README\.md"),
         re.compile(r"docs/examples/[a-z0-9_]+\.py"))
_HREF = re.compile(r'href="(?!/)([^"#:]+)(#[^"]*)?"')


@dataclass(frozen=True)
class Document:
    """One document: its title, its text as written, and that text drawn as HTML (a Markdown
    document's; None for a program)."""

    path: str
    title: str
    source: str
    html: str | None = None


def shown(path: str) -> bool:
    """Whether ``path`` (relative to the repository) is a document the server shows."""
    return any(pattern.fullmatch(path) for pattern in SHOWN)


def document(path: str = API_DOCUMENT) -> Document | None:
    """The document at ``path``; None when it is none the server shows, or is not installed."""
    if not shown(path):
        return None
    try:
        source = (settings.BASE_DIR / path).read_text(encoding="utf-8")
    except OSError:
        return None
    return _drawn(path, source)


@lru_cache(maxsize=32)
def _drawn(path: str, source: str) -> Document:
    if not path.endswith(".md"):
        return Document(path=path, title=PurePosixPath(path).name, source=source)
    title = next((line.lstrip("# ").strip() for line in source.splitlines() if line.startswith("# ")), path)
    html = markdown.markdown(source, extensions=["tables", "fenced_code", "toc"],
                             extension_configs={"toc": {"slugify": github_anchor}})
    return Document(path=path, title=title, source=source, html=_HREF.sub(lambda m: _pointed(path, m), html))


def github_anchor(heading: str, separator: str = "-") -> str:
    """A heading's anchor as GitHub makes it, so the documents' links work on both."""
    anchor = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return anchor.replace(" ", separator)


def address(path: str) -> str:
    """The page of a document the server shows."""
    docs = reverse("api_docs")
    return docs if path == API_DOCUMENT else f"{docs}{path}"


def _pointed(path: str, link: re.Match) -> str:
    """A relative link to another document shown here, pointed at that document's page."""
    target, fragment = link.group(1), link.group(2) or ""
    resolved = _resolved(PurePosixPath(path).parent, target)
    if resolved is None or not shown(resolved):
        return link.group(0)
    return f'href="{address(resolved)}{fragment}"'


def _resolved(folder: PurePosixPath, target: str) -> str | None:
    parts: list[str] = list(folder.parts)
    for part in PurePosixPath(target).parts:
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)

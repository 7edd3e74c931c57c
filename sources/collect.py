"""The fetch stage for files and registry captures: read bytes, archive them, describe them."""

from __future__ import annotations

import json
import os
import re
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from stat import S_ISREG
from urllib.parse import quote_from_bytes, urlsplit

from perfledger.sources import archive
from perfledger.sources.capture_time import utc_text
from perfledger.sources.fetch import FetchPolicy, FetchResult, fetch
from perfledger.sources.file_index import FileIndex
from perfledger.sources.layouts import file_media_types
from perfledger.sources.mlperf import collect as mlperf_collect
from perfledger.sources.mlperf.units import TreeUnit, find_units
from perfledger.sources.registry import Capture, Registry, Source

ARCHIVING_THREADS = 2  # files read, hashed and written side by side (see _FileReader)
# A file up to this size is read whole (one read, one write); a larger one is copied into the
# archive a chunk at a time, so that a huge file costs no memory.
IN_MEMORY_ARCHIVE_BYTES = 16 << 20


@dataclass(frozen=True)
class CollectedDocument:
    """One document version, archived, or the reason it could not be read."""

    source_id: str
    source_url: str
    location: str
    captured_at: str
    content_type: str
    layout: str = "auto"
    document_sha256: str | None = None
    archive_path: str | None = None
    byte_size: int = 0
    error: str | None = None
    fetch: dict | None = None  # the HTTP exchange, for documents fetched by URL
    not_modified: bool = False  # the server answered 304: nothing new to read
    # Where else its bytes are archived: a shared warehouse's s3://BUCKET/PREFIX/archive/,
    # read when this machine's archive lacks them (sources/remote_archive.py).
    archive_url: str | None = None


def _now() -> str:
    return utc_text(int(time.time()))


def _read_time() -> str:
    """Now, to the microsecond: a results-tree unit is captured when it is read, and a unit
    fixed and read again within the second of its last read is the newer version, not an
    older one (a capture at the same instant is not newer)."""
    now = time.time()
    return f"{utc_text(now)[:-1]}.{int(now % 1 * 1_000_000):06d}Z"


def _file_uri(resolved: str) -> str:
    """Path(resolved).as_uri(), without the Path: a re-run names every file again."""
    if os.name != "posix":
        return Path(resolved).as_uri()
    return "file://" + quote_from_bytes(os.fsencode(resolved))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:80] or "document"


def file_source_id(relative: str) -> str:
    """A file's source: `file-` and its path below the folder ingested (`file-a/index.html`;
    a file named itself: `file-index.html`), so that two files never share one. Every
    character is kept but `%`, control characters and bytes that are no text, which are
    written %XX: one name, one id, and back."""
    if relative.isprintable() and "%" not in relative:
        return f"file-{relative}"
    return "file-" + "".join(_escaped(character) for character in relative)


def _escaped(character: str) -> str:
    if 0xDC80 <= ord(character) <= 0xDCFF:  # a byte of the name that is no text
        return f"%{ord(character) - 0xDC00:02X}"
    if character == "%" or not character.isprintable():
        return "".join(f"%{byte:02X}" for byte in character.encode("utf-8"))
    return character


def _sighting(document: CollectedDocument) -> dict:
    return {
        "source_id": document.source_id,
        "location": document.location,
        "captured_at": document.captured_at,
        "content_type": document.content_type,
        "archived_at": _now(),
    }


def _archived(
    document: CollectedDocument, sha256: str, path: Path | str, size: int
) -> CollectedDocument:
    return CollectedDocument(
        **{
            **document.__dict__,
            "document_sha256": sha256,
            "archive_path": str(path),
            "byte_size": size,
        }
    )


def collect_captures(registry: Registry, store: Path) -> list[CollectedDocument]:
    """The bundled demo corpus, in capture order."""
    reader = _FileReader(store)
    with reader:
        for capture in sorted(registry.captures, key=lambda c: c.captured_at):
            source = registry.sources[capture.source]
            described = CollectedDocument(
                source_id=source.name,
                source_url=source.url,
                location=str(capture.path),
                captured_at=capture.captured_at,
                content_type=capture.content_type,
                layout=source.layout,
            )
            reader.read(capture.path, described)
    return reader.documents


class _FileReader:
    """Reads and archives local files, all made durable together when it is closed.

    A file whose stat signature is unchanged since a run that archived it is not read
    again (sources/file_index.py): its bytes are in the archive already. A file to archive
    is read, hashed and written on one of ARCHIVING_THREADS threads (each step lets go of
    the GIL), while this thread lists and describes the next files; the documents, their
    sightings and the index entries come out in the order the files were given."""

    def __init__(self, store: Path) -> None:
        self.documents: list[CollectedDocument] = []
        self._entries: list[CollectedDocument | _Archiving | _ArchivingUnit] = []
        self._index = FileIndex.load(store.parent)  # beside the archive: not a document
        self._batch = archive.Batch(store)
        self._threads: ThreadPoolExecutor | None = None  # started by the first file to archive

    def __enter__(self) -> _FileReader:
        return self

    def __exit__(self, exc_type, *_exc) -> None:
        try:
            if exc_type is None:
                self.documents = [self._finished(entry) for entry in self._entries]
        finally:
            if self._threads is not None:
                self._threads.shutdown(cancel_futures=True)
            self._batch.__exit__()
            self._index.save()

    def add(self, document: CollectedDocument) -> None:
        self._entries.append(document)

    def read(
        self, path: Path, described: CollectedDocument, stat: os.stat_result | None = None
    ) -> None:
        """Archive the file's bytes, or only sight them when its stat signature says they are
        archived already. `stat` is the file's, when the caller has it from listing it."""
        try:
            stat = stat or path.stat()
            if not S_ISREG(stat.st_mode):
                # A pipe would block the run forever and a device may never end (/dev/zero).
                self.add(
                    _failed(
                        described,
                        f"{path} is not a regular file (a pipe, socket or device): not read",
                    )
                )
                return
            known = self._index.sha256_of(path, stat)
            archived = (
                self._batch.sight(known, stat.st_size, _sighting(described)) if known else None
            )
        except OSError as error:
            self.add(_unreadable(described, path, error))
            return
        if known is not None and archived is not None:  # archived: sighted by its known hash
            self.add(_archived(described, known, archived, stat.st_size))
            return
        if self._threads is None:
            self._threads = ThreadPoolExecutor(
                ARCHIVING_THREADS, thread_name_prefix="perfledger-archive"
            )
        self._entries.append(
            _Archiving(
                self._threads.submit(self._archive, path, stat.st_size), path, stat, described
            )
        )

    def read_unit(
        self,
        unit: TreeUnit,
        found_round: tuple[str | None, str | None],
        source_name: str | None,
        captured_at: str | None,
    ) -> None:
        """Archive each file of a results-tree unit as `read` archives a file; the unit's
        document, its manifest, is written once they all are. `found_round`: (round, where
        it was read), as mlperf.collect.unit_round gives it."""
        mlperf_round, round_from = found_round
        source_id = mlperf_collect.unit_source_id(unit, mlperf_round, source_name)
        described = CollectedDocument(
            source_id=source_id,
            source_url=mlperf_collect.unit_source_url(unit, mlperf_round),
            location=str(unit.folder),
            captured_at=captured_at or _read_time(),
            content_type=mlperf_collect.CONTENT_TYPE,
            layout=mlperf_collect.LAYOUT,
        )
        parts: list[tuple[str, Path, _Archiving | tuple[str, int] | OSError]] = []
        for file in unit.files:
            record = {**_sighting(described), "location": str(file)}
            try:
                stat = file.stat()
                known = self._index.sha256_of(file, stat)
                archived = self._batch.sight(known, stat.st_size, record) if known else None
            except OSError as error:
                parts.append((unit.relative(file), file, error))
                continue
            if known is not None and archived is not None:  # archived: sighted by its known hash
                parts.append((unit.relative(file), file, (known, stat.st_size)))
                continue
            if self._threads is None:
                self._threads = ThreadPoolExecutor(
                    ARCHIVING_THREADS, thread_name_prefix="perfledger-archive"
                )
            future = self._threads.submit(self._archive, file, stat.st_size)
            parts.append((unit.relative(file), file, _Archiving(future, file, stat, described)))
        self._entries.append(_ArchivingUnit(unit, mlperf_round, round_from, described, parts))

    def _archive(self, path: Path, size: int) -> tuple[archive.Written, int] | OSError:
        """On an archiving thread. A file that cannot be read is a document that failed; a
        failure to write the archive is the run's (raised where the result is taken). A
        large file is copied a chunk at a time, so that memory holds a few of them whatever
        their size."""
        if size > IN_MEMORY_ARCHIVE_BYTES:
            try:
                return self._batch.write_file(path)
            except archive.UnreadableSource as error:
                return error
        try:
            data = path.read_bytes()
        except OSError as error:
            return error
        return self._batch.write(data), len(data)

    def _finished(
        self, entry: CollectedDocument | _Archiving | _ArchivingUnit
    ) -> CollectedDocument:
        if isinstance(entry, CollectedDocument):
            return entry
        if isinstance(entry, _ArchivingUnit):
            return self._finished_unit(entry)
        outcome = entry.future.result()
        if isinstance(outcome, OSError):
            return _unreadable(entry.described, entry.path, outcome)
        written, size = outcome
        sha256, stored = self._batch.record(written, _sighting(entry.described))
        if size == entry.stat.st_size:
            self._index.remember(entry.path, entry.stat, sha256)
        return _archived(entry.described, sha256, stored, size)

    def _finished_unit(self, entry: _ArchivingUnit) -> CollectedDocument:
        archived: dict[str, tuple[str, int]] = {}
        unreadable: dict[str, str] = {}
        for relative, file, part in entry.parts:
            if isinstance(part, _Archiving):
                outcome = part.future.result()
                if isinstance(outcome, OSError):
                    part = outcome
                else:
                    written, size = outcome
                    record = {**_sighting(entry.described), "location": str(file)}
                    sha256, _ = self._batch.record(written, record)
                    if size == part.stat.st_size:
                        self._index.remember(file, part.stat, sha256)
                    part = (sha256, size)
            if isinstance(part, OSError):
                unreadable[relative] = f"cannot read {file}: {part.strerror or part}"
            else:
                archived[relative] = part
        body = mlperf_collect.manifest_bytes(
            entry.unit, entry.mlperf_round, entry.round_from, archived, unreadable
        )
        sha256, stored = self._batch.store(body, _sighting(entry.described))
        return _archived(
            entry.described, sha256, stored, sum(size for _, size in archived.values())
        )


@dataclass(frozen=True)
class _ArchivingUnit:
    """A results-tree unit whose files are being archived, and what its manifest needs."""

    unit: TreeUnit
    mlperf_round: str | None
    round_from: str | None
    described: CollectedDocument
    # (relative path, file, its archiving, or its (sha256, size) once archived, or its error)
    parts: list[tuple[str, Path, _Archiving | tuple[str, int] | OSError]]


@dataclass(frozen=True)
class _Archiving:
    """A file being archived on a thread, and what its document needs once it is."""

    future: Future
    path: Path
    stat: os.stat_result
    described: CollectedDocument


def _failed(described: CollectedDocument, error: str) -> CollectedDocument:
    return CollectedDocument(**{**described.__dict__, "error": error})


def _unreadable(described: CollectedDocument, path: Path, error: OSError) -> CollectedDocument:
    return _failed(described, f"cannot read {path}: {error.strerror or error}")


def collect_paths(
    paths: list[Path],
    registry: Registry,
    store: Path,
    *,
    source_name: str | None = None,
    captured_at: str | None = None,
    mlperf_round: str | None = None,
) -> list[CollectedDocument]:
    """Files, and folders read recursively; an MLPerf results tree as its units.

    Each file is a document of its own source, unless `source_name` says they are all
    versions of one source (then they are ordered by capture time, the file's mtime unless
    `captured_at` is given). Each unit of a results tree is a document of its own source
    (sources/mlperf/units.py); `mlperf_round` is its round where neither its logs nor its
    folders say it.
    """
    overrides = _overrides(registry, source_name, captured_at)
    captures = _captures_by_path(registry)
    reader = _FileReader(store)
    with reader:
        for path in paths:
            if not path.exists():
                reader.add(_missing(path))  # gone since the ingest checked it
                continue
            units = find_units(path) if path.is_dir() else []
            if units:
                rounds = _unit_rounds(path, units, mlperf_round)
                for unit, found in zip(units, rounds, strict=True):
                    reader.read_unit(unit, found, source_name, captured_at)
                continue
            listed = _listed_files(path) if path.is_dir() else [_listed_file(path)]
            for file in listed:
                if isinstance(file, CollectedDocument):  # a folder that cannot be listed
                    reader.add(file)
                    continue
                if file.path.name.startswith(".") or file.path.name.endswith(".sightings.jsonl"):
                    continue
                described = _describe_file(file, captures, overrides)
                if file.linked:
                    # A link may point anywhere (`ln -s /etc/shadow d/s.txt`): what a folder
                    # holds is read, not what its links point at. A file named itself is read.
                    reader.add(
                        _failed(
                            described,
                            f"{file.path} is a symbolic link: links "
                            "inside a folder are not followed",
                        )
                    )
                    continue
                reader.read(file.path, described, file.stat)
    return sorted(reader.documents, key=lambda d: d.captured_at)


class UnknownRound(ValueError):
    """Units of a results tree whose round nothing names: no score can be computed."""


def _unit_rounds(
    path: Path, units: list[TreeUnit], given: str | None
) -> list[tuple[str | None, str | None]]:
    """Each unit's round and where it was read, before any is archived; UnknownRound, one
    message for the whole tree, when one has none."""
    rounds = [mlperf_collect.unit_round(unit, given) for unit in units]
    unknown = sum(found is None for found, _ in rounds)
    if unknown:
        kind = units[0].kind
        raise UnknownRound(
            f"{unknown} of the {len(units)} units of the MLPerf {kind} results tree at {path} "
            "name no round: their logs do not state it and no folder of the path is named "
            f"after one ({kind}_results_v4.0); give it with `perfledger ingest {path} "
            "--round X.Y`; nothing was ingested"
        )
    return rounds


def _overrides(registry: Registry, source_name: str | None, captured_at: str | None) -> dict:
    """What every file's description takes from `source_name` and `captured_at`."""
    overrides = {}
    if source_name is not None:
        overrides["source_id"] = source_name
        source = registry.sources.get(source_name)
        if source is not None:
            overrides |= {"source_url": source.url, "layout": source.layout}
    if captured_at is not None:
        overrides["captured_at"] = captured_at
    return overrides


def _captures_by_path(registry: Registry) -> dict[str, tuple[Capture, Source]]:
    """The registry's captures, with their sources, by resolved path; the first listed wins."""
    captures: dict[str, tuple[Capture, Source]] = {}
    for capture in registry.captures:
        captures.setdefault(str(capture.path), (capture, registry.sources[capture.source]))
    return captures


@dataclass(frozen=True)
class _ListedFile:
    path: Path  # as the user named it: the folder given, then the names below it
    resolved: str  # symbolic links resolved, as Path.resolve() gives it
    stat: os.stat_result | None  # None when the file could not be stat'ed while listed
    linked: bool = False  # a symbolic link found inside a folder: never followed
    relative: str = ""  # below the folder ingested, with "/"; a file named itself: its name

    @property
    def source_id(self) -> str:
        return file_source_id(self.relative or self.path.name)


def _listed_file(path: Path) -> _ListedFile:
    return _ListedFile(path, str(path.resolve()), None, relative=path.name)


def _listed_files(folder: Path) -> list[_ListedFile | CollectedDocument]:
    """The files below `folder`, in the order of their paths' parts, as sorted(Path.rglob)
    gives them. A symbolic link to a file or a folder is listed as linked, and neither read
    nor entered (see collect_paths). One scandir per folder replaces a stat and a resolve
    per file; a folder that cannot be listed is a document that failed, not files silently
    left out."""
    found: list[tuple[tuple[str, ...], _ListedFile | CollectedDocument]] = []
    real_folder = os.path.realpath(folder)
    pending: list[tuple[str, ...]] = [()]  # folders still to list; the order comes from the sort
    while pending:
        parts = pending.pop()
        directory = os.path.join(folder, *parts)
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except OSError as error:
            found.append((parts, _unlistable(Path(directory), error, "/".join(parts))))
            continue
        for entry in entries:
            entry_parts = (*parts, entry.name)
            try:
                linked = entry.is_symlink()
                if entry.is_dir() and not linked:
                    pending.append(entry_parts)
                    continue
                if not (entry.is_file() or linked and entry.is_dir()):
                    continue  # a broken link, a pipe, a socket or a device
                stat = entry.stat(follow_symlinks=False)
            except OSError:  # gone or broken since listed: Path.is_file() said False too
                continue
            found.append(
                (
                    entry_parts,
                    _ListedFile(
                        folder / os.path.join(*entry_parts),
                        os.path.join(real_folder, *entry_parts),
                        stat,
                        linked,
                        "/".join(entry_parts),
                    ),
                )
            )
    found.sort(key=lambda item: item[0])
    return [listed for _, listed in found]


def _unlistable(folder: Path, error: OSError, relative: str) -> CollectedDocument:
    return CollectedDocument(
        source_id=file_source_id(relative or folder.name),
        source_url=folder.resolve().as_uri(),
        location=str(folder),
        captured_at=_now(),
        content_type="",
        error=f"cannot list the folder {folder}: {error.strerror or error}",
    )


def _missing(path: Path) -> CollectedDocument:
    return CollectedDocument(
        source_id=file_source_id(path.name),
        source_url=path.resolve().as_uri(),
        location=str(path),
        captured_at=_now(),
        content_type="",
        error=f"no such file or folder: {path}",
    )


def _describe_file(
    file: _ListedFile, captures: dict[str, tuple[Capture, Source]], overrides: dict
) -> CollectedDocument:
    if file.resolved in captures:
        capture, source = captures[file.resolved]
        described = CollectedDocument(
            source_id=source.name,
            source_url=source.url,
            location=str(file.path),
            captured_at=capture.captured_at,
            content_type=capture.content_type,
            layout=source.layout,
        )
    else:
        path = file.path
        try:
            mtime = (file.stat or path.stat()).st_mtime
        except OSError as error:
            return CollectedDocument(
                source_id=file.source_id,
                source_url=_file_uri(file.resolved),
                location=str(path),
                captured_at=_now(),
                content_type="",
                error=f"cannot read {path}: {error.strerror or error}",
            )
        described = CollectedDocument(
            source_id=file.source_id,
            source_url=_file_uri(file.resolved),
            location=str(path),
            captured_at=utc_text(mtime),
            # The media type a layout declares for the suffix (sources/layouts/__init__.py).
            content_type=file_media_types().get(path.suffix.lower(), ""),
        )
    return CollectedDocument(**{**described.__dict__, **overrides}) if overrides else described


def is_url(target: str) -> bool:
    return target.startswith(("http://", "https://"))


def url_host(url: str) -> str:
    """The URL's host as a fetch checks it: lower case, an IPv6 literal without its brackets
    (`http://[::1]/x` -> `::1`), no user or port."""
    try:
        return urlsplit(url).hostname or ""
    except ValueError:  # a malformed IPv6 literal: the fetch refuses the URL with the reason
        return ""


def source_for_url(url: str, registry: Registry) -> Source:
    """The registered source with this URL, or an ad-hoc one allowed on the URL's host only."""
    registered = registry.source_for_url(url)
    if registered is not None:
        return registered
    host = url_host(url)
    rest = url.split(host, 1)[-1] if host else url
    return Source(name=f"url-{_slug(host + '-' + rest)}", url=url, allowed_hosts=(host,))


def _fetch_record(result: FetchResult) -> dict:
    return {
        "url": result.url,
        "final_url": result.final_url,
        "status": result.status,
        "outcome": result.outcome,
        "reason": result.reason,
        "elapsed_s": result.elapsed_s,
        "attempts": result.attempts,
        "fetched_at": result.fetched_at,
        "etag": result.headers.get("etag"),
        "last_modified": result.headers.get("last-modified"),
        "headers": json.dumps(result.headers, sort_keys=True),
        "document_sha256": None,
        "byte_size": len(result.body),
    }


def fetch_source(
    source: Source, store: Path, validators: dict[str, tuple[str | None, str | None]]
) -> CollectedDocument:
    """Fetch one source's URL; the body is archived before anything reads it, whatever the outcome."""
    host = url_host(source.url)
    policy = FetchPolicy(
        allowed_hosts=frozenset(source.allowed_hosts or (host,)), allow_local=source.local
    )
    etag, last_modified = validators.get(source.url, (None, None))
    result = fetch(source.url, policy, etag=etag, last_modified=last_modified)
    record = _fetch_record(result)
    described = CollectedDocument(
        source_id=source.name,
        source_url=source.url,
        location=source.url,
        captured_at=result.fetched_at,
        content_type=result.headers.get("content-type", ""),
        layout=source.layout,
        fetch=record,
    )
    if result.body:
        sha256, path = archive.store(
            store, result.body, {**record, "source_id": source.name, "archived_at": _now()}
        )
        record["document_sha256"] = sha256
        if result.outcome == "ok":
            return CollectedDocument(
                **{
                    **described.__dict__,
                    "document_sha256": sha256,
                    "archive_path": str(path),
                    "byte_size": len(result.body),
                }
            )
    if result.outcome == "not_modified":
        return CollectedDocument(**{**described.__dict__, "not_modified": True})
    reason = result.reason or result.outcome
    return _failed(described, f"{source.url}: {result.outcome}: {reason}")

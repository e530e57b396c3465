"""herald's reward-command protocol (version 1), shared by the adapters.

herald writes one JSON request per line on stdin and reads one answer per request on stdout:
{"request": N, "value": X} or {"request": N, "error": "..."}. stderr is shown as progress, so the
adapter writes its count there and the user's prints go there too: a stray print on stdout would
be read as an answer.

An adapter parses its options and gives `main` the user's FILE[:FUNCTION] and a function that scores
a batch of requests; everything else (loading, reading, answering, error answers) is here.
"""
import importlib.util
import json
import math
import os
import select
import sys
import time
import traceback

PROGRESS_SECONDS = 2.0
# A partial batch is answered once stdin has been quiet this long, so a batched adapter never waits
# for requests that herald holds back until it has read the answers it is owed.
QUIET_SECONDS = 0.2
MESSAGE_CHARS = 1000
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class AnswerError(Exception):
    """An error answer whose cause is not an exception in the user's code (a request the adapter
    cannot score, a value that is not a number); the message is sent as it is. An adapter may also
    return one in place of a value, failing that request alone."""


def split_target(target, default=None):
    """FILE[:NAME[,NAME…]] -> (FILE, [NAME…]); the names may be left out when there is a default."""
    path, sep, names = target.rpartition(":")
    if sep and names and all(n.isidentifier() for n in names.split(",")):
        return path, names.split(",")
    if default is None:
        _fail("herald_adapters: name the function as FILE:FUNCTION (got %r)" % target)
    return target, [default]


def load(path, names):
    """The named functions of the user's file. The file's folder goes first on sys.path, so the
    file's own imports of its neighbours work as they do when it is run from there. A file that
    cannot be loaded is not an answer to any request: traceback on stderr, exit status 2."""
    full = os.path.abspath(path)
    if not os.path.isfile(full):
        _fail("herald_adapters: no reward file %s (paths are relative to %s)" % (path, os.getcwd()))
    sys.path.insert(0, os.path.dirname(full))
    name = os.path.splitext(os.path.basename(full))[0]
    spec = importlib.util.spec_from_file_location(name, full)
    module = importlib.util.module_from_spec(spec)
    # Registered under its stem (as `python3 FILE` would be, as __main__) so pickling and dataclasses
    # in it work; never over a module that is already loaded.
    sys.modules.setdefault(name, module)
    try:
        spec.loader.exec_module(module)
    except BaseException:  # a sys.exit() at import is a failed load too
        traceback.print_exc()
        _fail("herald_adapters: could not import %s" % path)
    functions = []
    for n in names:
        fn = getattr(module, n, None)
        if not callable(fn):
            _fail("herald_adapters: %s has no function %s" % (path, n))
        functions.append(fn)
    return functions


def _fail(message):
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
    sys.exit(2)


def describe(exc, path, full):
    """`Type: message (path:line)`, the line being the innermost frame in the user's file `full`
    (else the innermost frame outside this package), so the audit's error points at the user's code."""
    text = str(exc)
    if len(text) > MESSAGE_CHARS:
        text = text[:MESSAGE_CHARS] + "…"
    head = "%s: %s" % (type(exc).__name__, text) if text else type(exc).__name__
    frames = traceback.extract_tb(exc.__traceback__)
    user = os.path.realpath(full)
    mine = [f for f in frames if os.path.realpath(f.filename) == user]
    if mine:
        return "%s (%s:%d)" % (head, path, mine[-1].lineno)
    others = [f for f in frames if not os.path.realpath(f.filename).startswith(PACKAGE_DIR + os.sep)]
    if others:
        return "%s (%s:%d)" % (head, os.path.basename(others[-1].filename), others[-1].lineno)
    return head


def checked(value):
    """The JSON value of an answer: a bool, or a finite number. numpy scalars and 0-d tensors are
    read through `.item()`, other number types through `float()`, without importing either."""
    if isinstance(value, (bool, int, float)):
        raw = value
    elif hasattr(value, "item") and callable(value.item):
        try:
            raw = value.item()
        except Exception as exc:
            raise AnswerError("the reward returned %s, not one number (%s)" % (_shown(value), exc))
        if not isinstance(raw, (bool, int, float)):
            raise AnswerError("the reward returned %s, not a number" % _shown(value))
    elif hasattr(value, "__float__") and not isinstance(value, (str, bytes)):
        try:
            raw = float(value)
        except Exception as exc:
            raise AnswerError("the reward returned %s, not a number (%s)" % (_shown(value), exc))
    else:
        raise AnswerError("the reward returned %s, not a number" % _shown(value))
    if isinstance(raw, float) and not math.isfinite(raw):
        raise AnswerError("the reward returned %s, not a finite number" % raw)
    return raw


def _shown(value):
    text = repr(value)
    return "%s %s" % (type(value).__name__, text if len(text) <= 80 else text[:80] + "…")


def _lines():
    """The request lines from stdin as they arrive, and None whenever stdin goes quiet."""
    fd = sys.stdin.fileno()
    pending = b""
    while True:
        try:
            ready = select.select([fd], [], [], QUIET_SECONDS)[0]
        except (OSError, ValueError):  # no select on this stdin (Windows pipes): just block
            ready = [fd]
        if not ready:
            yield None
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            if line.strip():
                yield line
    if pending.strip():
        yield pending


def _request(line):
    """A request; a line that is not one breaks the protocol, which no answer can report: exit 3."""
    try:
        request = json.loads(line)
    except ValueError:
        request = None
    if isinstance(request, dict) and isinstance(request.get("request"), int):
        return request
    sys.stderr.write("herald_adapters: not a request line: %.200r\n" % line)
    sys.exit(3)


def main(target, score_batch, batch_size=1, default=None):
    """Load the user's functions named by `target` (FILE[:NAME[,NAME…]]) and answer stdin with them."""
    answers = take_stdout()
    path, names = split_target(target, default)
    # Taken before the user's code runs, which may change the working folder.
    full = os.path.abspath(path)
    run(answers, load(path, names), path, full, score_batch, batch_size)


def run(answers, functions, path, full, score_batch, batch_size=1):
    """Answer every request on stdin with `score_batch(functions, requests)` -> one value (or
    AnswerError) per request, `batch_size` requests at a time, a partial batch when stdin goes quiet
    or ends. An exception from a batch answers each of its requests with that error; the adapter goes
    on, since herald stops the audit and names the trajectory itself."""
    answered, shown = 0, time.monotonic()
    batch = []

    def answer():
        nonlocal answered, shown
        try:
            values = score_batch(functions, batch)
            if len(values) != len(batch):
                raise AnswerError("the reward returned %d values for %d requests" % (len(values), len(batch)))
        except AnswerError as exc:
            values = [exc] * len(batch)
        except Exception as exc:
            values = [AnswerError(describe(exc, path, full))] * len(batch)
        for request, value in zip(batch, values):
            try:
                if isinstance(value, AnswerError):
                    raise value
                line = {"request": request["request"], "value": checked(value)}
            except AnswerError as exc:
                line = {"request": request["request"], "error": str(exc)}
            answers.write(json.dumps(line) + "\n")
        answers.flush()
        answered += len(batch)
        batch.clear()
        if time.monotonic() - shown >= PROGRESS_SECONDS:
            shown = time.monotonic()
            _progress(answered)

    for line in _lines():
        if line is not None:
            batch.append(_request(line))
        if batch and (line is None or len(batch) >= batch_size):
            answer()
    if batch:
        answer()
    _progress(answered)


def _progress(answered):
    sys.stderr.write("%d requests answered\n" % answered)
    sys.stderr.flush()


def take_stdout():
    """Keep stdout for answers and send everything else written to it (the user's prints, a
    library's C-level output on descriptor 1) to stderr, which herald shows as progress."""
    sys.stdout.flush()
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return answers

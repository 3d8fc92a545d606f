"""Helpers shared by the Python test modules tests/test_*.py.

Each module defines functions named test_*; pytest runs them (make test).
A test fails by raising (usually AssertionError with a message that says what
was expected and what came), and is skipped by raising Skip(reason): never by
returning early, so a skipped test is never counted as passed.
"""
import os
import re
import subprocess
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(TOP, 'build', 'bin')
DEBUG_BIN = os.path.join(TOP, 'build', 'debug', 'bin')


try:
    import pytest
    # Raised by a test that cannot run here (and says why): pytest's own skip
    # exception, so `raise Skip(reason)` is reported as a skip with its reason.
    Skip = pytest.skip.Exception
except ImportError:                 # helpers imported outside pytest
    class Skip(Exception):
        """Raised by a test that cannot run here (and says why)."""


# `make test` runs each sweep's representative part; `make test-all` (which
# sets ATTN_TEST_ALL=1) runs the rest too.  What make test leaves out is a
# test of its own that is reported as skipped, with this reason.
FULL = os.environ.get('ATTN_TEST_ALL') == '1'


def need_full(what):
    """Skip unless this is make test-all."""
    if not FULL:
        raise Skip('%s: part of the full sweep, run by make test-all' % what)


def numpy():
    """NumPy from Debian's python3-numpy, or Skip."""
    try:
        import numpy as np
    except ImportError:
        raise Skip('NumPy is not installed (Debian package python3-numpy)')
    return np


def torch():
    """PyTorch from Debian's python3-torch, or Skip."""
    try:
        import torch as t
    except ImportError:
        raise Skip('PyTorch is not installed (Debian package python3-torch)')
    return t


def run(program, args=(), stdin=None, debug=False, timeout=60, env=None):
    """Run build/bin/PROGRAM (or the sanitizer build); return (rc, out, err)."""
    path = os.path.join(DEBUG_BIN if debug else BIN, program)
    if not os.path.exists(path):
        raise AssertionError('%s is missing: run make first' % path)
    full_env = dict(os.environ)
    full_env.setdefault('ASAN_OPTIONS', 'detect_leaks=1')
    if env:
        full_env.update(env)
    p = subprocess.run([path] + list(args), input=stdin, capture_output=True,
                       text=True, timeout=timeout, cwd=TOP, env=full_env)
    return p.returncode, p.stdout, p.stderr


def parse_matrices(text):
    """All matrices in a program's output, as lists of rows of floats."""
    mats, lines = [], [l for l in text.split('\n')
                       if l.strip() and not l.lstrip().startswith('#')]
    i = 0
    while i < len(lines):
        rows, cols = (int(x) for x in lines[i].split())
        body = [[float(x) for x in lines[i + 1 + r].split()] for r in range(rows)]
        assert all(len(r) == cols for r in body), 'ragged matrix in output'
        mats.append(body)
        i += 1 + rows
    return mats


def matrix_text(rows, comment=None):
    """A matrix (list of rows, or a 2-D NumPy array) in the book's format."""
    rows = [list(r) for r in rows]
    out = ['# ' + comment] if comment else []
    out.append('%d %d' % (len(rows), len(rows[0]) if rows else 0))
    out += [' '.join(repr(float(x)) for x in r) for r in rows]
    return '\n'.join(out) + '\n'


class TempDir:
    """A temporary directory for input files: with TempDir() as d: d.write(...)."""

    def __enter__(self):
        self._t = tempfile.TemporaryDirectory()
        self.path = self._t.name
        return self

    def __exit__(self, *exc):
        self._t.cleanup()

    def write(self, name, text):
        path = os.path.join(self.path, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return path


def expect_bad_input(program, args, must_mention=(), stdin=None, debug=False):
    """The book's contract for bad input: exit status 2, nothing on stdout,
    exactly one line on stderr that mentions each string in must_mention,
    and no sanitizer report."""
    rc, out, err = run(program, args, stdin=stdin, debug=debug)
    what = '%s %s' % (program, ' '.join(args))
    assert rc == 2, '%s: expected exit status 2, got %d; stderr: %r' % (what, rc, err[:300])
    assert out == '', '%s: expected nothing on stdout, got %r' % (what, out[:200])
    lines = err.rstrip('\n').split('\n')
    assert len(lines) == 1 and lines[0], \
        '%s: expected one line on stderr, got %d: %r' % (what, len(lines), err[:300])
    for s in must_mention:
        assert s in err, '%s: the message should mention %r: %r' % (what, s, err)
    return err


def expect_bad_inputs(program, cases):
    """expect_bad_input for each (args, must_mention) in cases, on the release
    build and on the sanitizer build."""
    for args, must_mention in cases:
        for debug in (False, True):
            expect_bad_input(program, args, must_mention=must_mention, debug=debug)


def run_demo(program, limit=None):
    """Run PROGRAM's demo (no arguments): it must exit 0 with nothing on
    stderr.  Returns its output.  (LIMIT is ignored: how long a demo takes is
    measured by `make bench-demos`, never asserted by a test.)"""
    rc, out, err = run(program)
    assert rc == 0 and err == '', '%s demo: exit %d, stderr %r' % (program, rc, err[:300])
    return out


def assert_close(np, got, want, what, rtol=1e-5, atol=1e-9):
    """got and want have one shape, got is finite, and every entry is within
    atol + rtol * |want| of want; the message names the worst entry."""
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got.shape == want.shape, '%s: shape %s, expected %s' % (what, got.shape, want.shape)
    assert np.all(np.isfinite(got)), '%s: not finite: %s' % (what, got)
    excess = np.abs(got - want) - (atol + rtol * np.abs(want))
    if (excess > 0).any():
        i = np.unravel_index(np.argmax(excess), excess.shape)
        raise AssertionError('%s: max |difference| %.3g; entry %s is %r, expected %r' % (
            what, np.abs(got - want).max(), i, got[i], want[i]))


def chapter_text(chapter):
    """The text of chapters/CHAPTER, e.g. chapter_text('04-masking.nw')."""
    with open(os.path.join(TOP, 'chapters', chapter), encoding='utf-8') as f:
        return f.read()


def verbatim_block(chapter, containing):
    """The one verbatim block of chapters/CHAPTER whose text contains the
    string CONTAINING (a command the chapter prints, say)."""
    blocks = [b for b in re.findall(r'\\begin\{verbatim\}\n(.*?)\\end\{verbatim\}',
                                    chapter_text(chapter), re.S) if containing in b]
    assert len(blocks) == 1, 'expected one verbatim block with %r in %s, found %d' % (
        containing, chapter, len(blocks))
    return blocks[0]


def assert_transcripts(chapter, program, out, at_least):
    """Each verbatim block marked '% transcript: PROGRAM' in chapters/CHAPTER
    (at least AT_LEAST of them) is a run of consecutive lines of OUT, the
    demo's output, character for character."""
    blocks = re.findall(r'%% transcript: %s\n\\begin\{verbatim\}\n(.*?)\\end\{verbatim\}'
                        % re.escape(program), chapter_text(chapter), re.S)
    assert len(blocks) >= at_least, 'expected at least %d transcripts in %s, found %d' % (
        at_least, chapter, len(blocks))
    for b in blocks:
        assert b.strip(), 'an empty transcript block in %s' % chapter
        assert b in out, 'the chapter quotes output the demo does not print:\n' + b


def pdf_text(pdf):
    """pdftotext's UTF-8 text of PDF (pages separated by form feeds), kept in
    build/test-cache/ beside a key of the PDF's size and time, so that the
    modules reading the same PDF extract it once per build."""
    import shutil
    if not shutil.which('pdftotext'):
        raise Skip('pdftotext is not installed (Debian package poppler-utils)')
    assert os.path.exists(pdf), '%s is missing: run make' % pdf
    st = os.stat(pdf)
    cache = os.path.join(TOP, 'build', 'test-cache')
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, '%s.%d.%d.txt' % (os.path.basename(pdf), st.st_size, st.st_mtime_ns))
    try:
        with open(path, encoding='utf-8') as f:
            return f.read()
    except OSError:
        pass
    text = subprocess.run(['pdftotext', '-enc', 'UTF-8', pdf, '-'], capture_output=True,
                          text=True, check=True).stdout
    tmp = '%s.%d.tmp' % (path, os.getpid())
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(tmp, path)
    return text


# Both languages (issue 14): a program's Chinese output is its English output
# translated line for line, with every number unchanged and the columns of a
# table where they were (by display width: a Chinese character takes two).
LANG_EN = {'LC_ALL': '', 'LC_MESSAGES': '', 'LANG': 'C'}
LANG_ZH = {'LC_ALL': '', 'LC_MESSAGES': '', 'LANG': 'zh_CN.UTF-8'}
NUMBER = re.compile(r'-?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?!\d|-[A-Za-z])')
# ASCII words that stay in Chinese output: names, symbols and units.
ASCII_OK = set('''
    abs adam alpha avx avx2 beam blas bleu build cat cblas ckpt conv cpu dat dgemm die
    dog double dropout dtype eps exp fast fma float float64 gflop gib hal head heads
    inf katze layernorm linux lmr log mat max memory mib min msk naive nan needs nltk
    old openblas peak pytorch ram record relu rss sat saß scores sec seed softmax sqrt
    stream base big tanh the torch triad utc mha make epyc amd bench train decode
    attention kappa argmax mean var ms cooperlake haswell gnu pthread usr lib libblas
    libopenblas libopenblasp bin tools torch-blas zen rnn cnn matte auf der x86_64
    generic info lapack settings intel xeon processor
'''.split())


def display_width(text):
    import unicodedata
    return sum(2 if unicodedata.east_asian_width(c) in 'WF' else 1 for c in text)


def english_words(line):
    """Runs of two or more ASCII words (3+ letters) not in ASCII_OK."""
    line = re.sub(r'(?<!\w)--?[A-Za-z][\w-]*|\b(?:ch\d\d|app[A-Z])-[\w-]+|\S*[/_.=]\S*',
                  ' ', line)                # options, programs, paths, names, k=v
    return [w for w in re.findall(r'[A-Za-z][A-Za-z-]{2,}', line) if w.lower() not in ASCII_OK]


def both_languages(program, args=(), columns=None, english_has_chinese=False):
    """Run PROGRAM ARGS under C and zh_CN; check the Chinese output against
    the English one and return both (english_has_chinese: a translation demo,
    with Chinese in its English output and English in its Chinese output).  In the lines whose English matches the
    regular expression columns (a table's rows), every cell (a number after
    two or more spaces) also ends in the same display column in both."""
    rc, en, err = run(program, list(args), env=LANG_EN)
    assert rc == 0 and en, '%s %s: status %d, %r' % (program, ' '.join(args), rc, err[:300])
    rc, zh, err = run(program, list(args), env=LANG_ZH)
    assert rc == 0 and zh, '%s %s (zh_CN): status %d, %r' % (program, ' '.join(args), rc,
                                                             err[:300])
    compare_languages(en, zh, '%s %s' % (program, ' '.join(args)), columns, english_has_chinese)
    return en, zh


def compare_languages(en, zh, what, columns=None, english_has_chinese=False):
    """The checks of both_languages on two outputs already at hand."""
    assert english_has_chinese or not re.search(r'[\u4e00-\u9fff]', en), \
        '%s: Chinese in the English output' % what
    en_lines, zh_lines = en.split('\n'), zh.split('\n')
    assert len(en_lines) == len(zh_lines), '%s: %d lines in English, %d in Chinese' % (
        what, len(en_lines), len(zh_lines))
    for e, z in zip(en_lines, zh_lines):
        # every number but the small whole ones of labels ("1 thread", "2-pass")
        data = lambda s: [n for n in NUMBER.findall(s) if len(n.lstrip('-')) > 1]
        assert data(e) == data(z), \
            '%s: the numbers differ between\n  %s\n  %s' % (what, e, z)
        if e.strip() and re.search(r'[A-Za-z]{3,} [a-z]{3,} [a-z]{3,}', e) and not e.startswith('#'):
            assert re.search(r'[\u4e00-\u9fff]', z) or e == z and not english_words(z), \
                '%s: a line left in English:\n  %s' % (what, z)
        bad = english_words(z) if re.search(r'[\u4e00-\u9fff]', z) and not english_has_chinese \
            else []
        assert len(bad) < 2, '%s: English words %s in the Chinese line\n  %s' % (what, bad, z)
        if columns and re.search(columns, e):
            # the cells: numbers after two or more spaces
            ends = lambda s: [display_width(s[:m.end()])
                              for m in re.finditer(r'(?<=  )-?\d+(?:\.\d+)?%?', s)]
            assert ends(e) == ends(z), '%s: columns moved:\n  %s\n  %s' % (what, e, z)

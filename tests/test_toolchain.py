"""The toolchain's own checks must be able to fail: a broken translation
pair, a changed byte of code/ and a misspelled chunk name each stop the
build with a message that says what is wrong."""
import contextlib
import os
import re
import shutil
import subprocess
import tempfile

from helpers import TOP

PYTHON = '/usr/bin/python3'


@contextlib.contextmanager
def copy_of_sources(built=(), generated=True):
    """A scratch copy of the sources the build reads, removed afterwards:
    with copy_of_sources() as d: ...  BUILT names parts of build/ to copy too
    (with their times, as the sources keep theirs), so that make finds them
    up to date and the test runs only the step it is about.  The makefiles
    make generates and includes (build/tangle.mk, build/excerpts.mk), the
    tangle's stamps and its checksums always come along: without them make
    would tangle every chapter first, and it still remakes them when the
    test changes a chapter.  generated=False leaves them out:
    a tree whose first make tangles."""
    if generated:
        built = ('tangle.mk', 'roots.stamp', 'tangle.stamp', 'tangle.sums', 'tangle.sums.key',
                 'excerpts.mk', 'excerpts.stamp') + tuple(built)
    with tempfile.TemporaryDirectory(prefix='attn-toolchain-') as d:
        for name in ('Makefile', 'mk', 'chapters', 'code', 'tools', 'tex', 'figures'):
            src = os.path.join(TOP, name)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(d, name))
            else:
                shutil.copy2(src, d)
        for name in built:
            src = os.path.join(TOP, 'build', name)
            dst = os.path.join(d, 'build', name)
            if os.path.isdir(src):
                shutil.copytree(src, dst, symlinks=True)
            elif os.path.exists(src):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(src, dst)
        yield d


def make(d, *targets):
    p = subprocess.run(['make', '-s'] + list(targets), cwd=d, capture_output=True,
                       text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def test_unpaired_passage_fails_the_build_naming_file_and_line():
    with copy_of_sources() as d:
        path = os.path.join(d, 'chapters', '00-preface.nw')
        text = open(path, encoding='utf-8').read()
        start = text.index('\\begin{en}')
        end = text.index('\\end{en}', start) + len('\\end{en}\n')
        open(path, 'w', encoding='utf-8').write(text[:start] + text[end:])
        rc, out = make(d, 'check-lang')
        assert rc != 0, 'the build accepted a Chinese passage without its English partner'
        first_zh = text[:start].rindex('\\begin{zh}')
        want = 'chapters/00-preface.nw:%d:' % (text[:first_zh].count('\n') + 1)
        assert want in out and 'no English partner' in out, \
            'expected a message naming %s, got: %s' % (want, out[-500:])


def test_english_only_and_stray_chinese_are_caught():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'x.nw')
        open(path, 'w', encoding='utf-8').write(
            '% test\n\\begin{en}\nAn English passage alone.\n\\end{en}\n'
            '\\begin{zh}\n中文。\n\\end{zh}\n\\begin{en}\nEnglish with 中文 inside.\n\\end{en}\n'
            'This is an English sentence outside any language block.\n')
        p = subprocess.run([PYTHON, os.path.join(TOP, 'tools', 'nwlang.py'), 'check', path],
                           capture_output=True, text=True)
        assert p.returncode != 0
        for want in ('x.nw:2: English passage has no Chinese partner',
                     'x.nw:9: Chinese text in an English passage',
                     'x.nw:11: English prose outside'):
            assert want in p.stderr, 'missing %r in %r' % (want, p.stderr)


def test_changed_byte_of_code_fails_the_build():
    """The tangle refuses to overwrite a file of code/ changed by hand (here
    in a tree whose first make tangles), and check-tangle names the file."""
    with copy_of_sources(generated=False) as d:
        path = os.path.join(d, 'code', 'core.c')
        data = bytearray(open(path, 'rb').read())
        i = data.index(b'calloc')
        data[i] = ord('k')
        open(path, 'wb').write(bytes(data))
        rc, out = make(d, 'programs')
        assert rc != 0, 'the build accepted a hand-changed code/core.c'
        assert 'code/core.c' in out and 'edit the chapter' in out, out[-500:]
    with copy_of_sources() as d:
        path = os.path.join(d, 'code', 'core.c')
        open(path, 'ab').write(b'/* changed by hand */\n')
        rc, out = make(d, 'check-tangle')
        assert rc != 0 and 'code/core.c' in out and 'edit the chapter' in out, out[-500:]


def test_prose_edit_keeps_the_tangle_key_and_a_code_edit_tangles():
    """tools/tangle.sh skips the tangle when the chapters' code chunks are
    those of the last tangle (its key, build/tangle.sums.key): an edit to
    prose keeps the key, and an edit to a code line must still reach code/."""
    with copy_of_sources() as d:
        key = os.path.join(d, 'build', 'tangle.sums.key')
        assert os.path.exists(key), 'the build should keep the tangle\'s key'
        before = open(key).read()
        path = os.path.join(d, 'chapters', '90-appendix-core.nw')
        text = open(path, encoding='utf-8').read()
        k = text.index('\\begin{en}\n') + len('\\begin{en}\n')
        open(path, 'w', encoding='utf-8').write(text[:k] + 'An edited sentence. ' + text[k:])
        rc, out = make(d, 'build/tangle.stamp')
        assert rc == 0, out[-500:]
        assert open(key).read() == before, 'an edit to prose changed the tangle\'s key'
        text = open(path, encoding='utf-8').read()
        assert 'm.data = calloc(' in text
        open(path, 'w', encoding='utf-8').write(text.replace('m.data = calloc(', 'm.data = calloc (', 1))
        rc, out = make(d, 'build/tangle.stamp')
        assert rc == 0, out[-500:]
        assert 'm.data = calloc (' in open(os.path.join(d, 'code', 'core.c')).read(), \
            'an edit to a code chunk did not reach code/core.c'
        assert open(key).read() != before


def test_check_tangle_catches_a_stray_file_in_code():
    with copy_of_sources() as d:
        open(os.path.join(d, 'code', 'stray.c'), 'w').write('int x;\n')
        rc, out = make(d, 'check-tangle')
        assert rc != 0 and 'stray.c' in out, out[-500:]


def test_misspelled_chunk_name_fails_the_build_naming_file_and_line():
    with copy_of_sources() as d:
        path = os.path.join(d, 'chapters', '90-appendix-core.nw')
        lines = open(path, encoding='utf-8').read().split('\n')
        n = [l.strip() for l in lines].index('<<read the data rows>>')
        lines[n] = lines[n].replace('rows>>', 'row>>')
        open(path, 'w', encoding='utf-8').write('\n'.join(lines))
        rc, out = make(d, 'programs')
        assert rc != 0, 'the build accepted a use of an undefined chunk'
        assert 'chapters/90-appendix-core.nw:%d:' % (n + 1) in out and \
            'never defined' in out, out[-500:]
        # and the definition now unused is reported too
        lines[n] = lines[n].replace('row>>', 'rows>>')
        m = lines.index('<<read the data rows>>=')
        lines[m] = '<<read the data rowz>>='
        open(path, 'w', encoding='utf-8').write('\n'.join(lines))
        rc, out = make(d, 'programs')
        assert rc != 0 and 'never used' in out and ':%d:' % (m + 1) in out, out[-500:]


def test_two_chapters_defining_the_same_file_fails():
    with copy_of_sources() as d:
        path = os.path.join(d, 'chapters', '00-preface.nw')
        with open(path, 'a', encoding='utf-8') as f:
            f.write('\n<<code/core.h>>=\n/* a second definition */\n@\n')
        rc, out = make(d, 'programs')
        assert rc != 0, 'the build accepted code/core.h defined in two chapters'
        assert 'chapters/90-appendix-core.nw:' in out and 'already defined at' in out \
            and 'chapters/00-preface.nw:' in out, out[-500:]


def test_quoting_a_section_the_program_does_not_print_fails_the_build():
    with copy_of_sources(built=('obj', 'libattn.a', 'bin/appA-matrix')) as d:
        path = os.path.join(d, 'chapters', '90-appendix-core.nw')
        with open(path, 'a', encoding='utf-8') as f:
            f.write('\n\\programoutput{appA-none}{appA-matrix --histogram}{no such section}\n')
        lines = open(path, encoding='utf-8').read().count('\n')
        rc, out = make(d, os.path.join('build', 'excerpt', 'appA-none.tex'))
        assert rc != 0, 'the build quoted a section the program does not print'
        assert "chapters/90-appendix-core.nw:%d:" % lines in out and \
            "no section '## no such section'" in out, out[-500:]


def test_diagram_number_the_data_does_not_have_fails():
    """A diagram's \\figdata names a line of the numbers its program printed
    (tools/tikzfig.py): a name the data lacks, or no data at all, stops the
    build naming it, and a name it has becomes the program's number."""
    with tempfile.TemporaryDirectory(prefix='attn-tikzfig-') as d:
        tikz = os.path.join(d, 'fig.tikz')
        dat = os.path.join(d, 'fig.dat')
        out = os.path.join(d, 'fig.tex')
        with open(dat, 'w') as f:
            f.write('# numbers\nq 2 1\nmax 2.8284\n')

        def tikzfig(body, *data):
            with open(tikz, 'w') as f:
                f.write('%% data: prog --figure x\n\\begin{tikzpicture}%s\\end{tikzpicture}\n' % body)
            p = subprocess.run([PYTHON, os.path.join(TOP, 'tools', 'tikzfig.py'), 'tex', 'en',
                                tikz, out] + list(data), capture_output=True, text=True)
            return p.returncode, p.stderr

        rc, err = tikzfig(r'\node {$(\figdata{q})$, $\figdata{max}$};', dat)
        assert rc == 0, err
        # a diagram that cites no number is typeset once: OUT includes its
        # PDF, and the picture is beside it
        assert re.search(r'\\includegraphics(\[[^]]*\])?\{fig/fig\.pdf\}', open(out).read())
        assert r'\node {$(2, 1)$, $2.8284$};' in open(out[:-len('.tex')] + '-pic.tex').read()
        # one that cites a number is the picture itself, LaTeX resolving \ref
        rc, err = tikzfig(r'\node {\figref{ch:attention}};')
        assert rc == 0, err
        assert r'\ref{ch:attention}' in open(out).read() and 'includegraphics' not in open(out).read()
        rc, err = tikzfig(r'\node {$\figdata{maxx}$};', dat)
        assert rc != 0 and "no line 'maxx'" in err, err
        rc, err = tikzfig(r'\node {$\figdata{max}$};')
        assert rc != 0 and 'no data file' in err, err


def test_a_quote_across_lines_is_not_a_forced_line_break():
    """noweb's LaTeX back end sets a line break of the source inside
    [[...]] as a forced line break (\\nwnewline), which left short lines in
    the PDF; tools/nwlocals.py makes it a space, as the HTML edition does."""
    weave = ('/usr/lib/noweb/markup {src} | /usr/lib/noweb/autodefs.c | {py} tools/nwlocals.py | '
             '/usr/lib/noweb/finduses | {py} tools/nwlocals.py uses | /usr/lib/noweb/noidx | '
             '/usr/lib/noweb/totex')
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, 'quote.nw')
        with open(src, 'w', encoding='utf-8') as f:
            f.write('@ Run [[make\nbench-train]] on yours.\n<<a.c>>=\nint x;\n@\n')
        p = subprocess.run(['bash', '-o', 'pipefail', '-c', weave.format(src=src, py=PYTHON)],
                           cwd=TOP, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert 'make bench-train' in p.stdout.replace('\\', ''), p.stdout
    assert '\\nwnewline' not in p.stdout, p.stdout


def test_code_lines_fit_the_page():
    """A code line of the book is at most 92 columns wide (a Chinese
    character takes two): that is what fits between the code's indent and
    the right margin; a longer line runs into the margin of the PDF."""
    import sys
    import unicodedata
    sys.path.insert(0, os.path.join(TOP, 'tools'))
    from nwbook import noweb

    def width(s):
        return sum(2 if unicodedata.east_asian_width(c) in 'WF' else 1 for c in s.expandtabs(8))
    found = []
    for c in noweb.Source(noweb.chapter_paths(TOP)).chunks:
        for line in c.lines:
            # a use of a chunk is set as its name in angle brackets
            text = ''.join(p[1] if p[0] != 'use' else '<%s>' % p[1] for p in line)
            if width(text) > 92:
                found.append('%s, <<%s>>: %d columns: %s' % (os.path.basename(c.file), c.name,
                                                             width(text), text.strip()[:60]))
    assert not found, 'code lines wider than the page (92 columns):\n' + '\n'.join(found[:20])

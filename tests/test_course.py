"""Teaching from the book (issue 18): one difficulty scale, answer keys that
never reach a student, keys whose claims hold, the 4/8/14-week tracks with
numbers from the typeset book, one Gradescope package per week, a student
release that builds and runs what its README and exercises mention, and the
development container."""
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

from helpers import TOP, Skip, numpy, pdf_text

sys.path.insert(0, os.path.join(TOP, 'tools'))
import course  # noqa: E402
import grade_release  # noqa: E402
from nwbook import lang as nwlang  # noqa: E402  (answer keys: strip_answerkeys, KEY_BEGIN)

B = os.path.join(TOP, 'build')
CHAPTERS = sorted(glob.glob(os.path.join(TOP, 'chapters', '*.nw')))


def squash(text):
    """Text compared without whitespace, soft hyphens or hyphens (a line
    break's among them).  str.split() takes the whitespace re's \\s does,
    twenty times faster on a book's text."""
    return ''.join(text.replace('\u00ad', '').replace('-', '').split()).lower()


def keyed():
    return [ex for c in course.number_chapters(course.chapters(TOP)) for ex in c.exercises
            if ex.key is not None]


# ---------------------------------------------------------------------------
# One difficulty scale

def test_every_exercise_is_marked_easy_medium_or_hard():
    scale = {'易': 'easy', '中': 'medium', '难': 'hard'}
    bad = []
    for path in CHAPTERS:
        for n, line in enumerate(open(path, encoding='utf-8'), 1):
            if '\\begin{exercise}' in line:
                m = re.match(r'\s*\\begin\{exercise\}\[\\zhen\{(.)\}\{(\w+)\}\]\s*$', line)
                if not m or scale.get(m.group(1)) != m.group(2):
                    bad.append('%s:%d: %s' % (os.path.relpath(path, TOP), n, line.strip()))
    assert not bad, 'exercises off the one scale (易/easy, 中/medium, 难/hard):\n' + '\n'.join(bad)


# ---------------------------------------------------------------------------
# Answer keys: where they are, and where they never are

def markers():
    """{(path, line): [en marker, zh marker]}: sentences of each key found
    nowhere in the chapters once the keys are stripped (so finding one in an
    output means a key leaked)."""
    stripped = squash(''.join(nwlang.strip_answerkeys(open(p, encoding='utf-8').read())
                              for p in CHAPTERS))
    out = {}
    for ex in keyed():
        pair = []
        for lang in ('en', 'zh'):
            m = course.marker(ex.key, lang)
            assert len(m) >= (5 if lang == 'zh' else 20), \
                '%s:%d: the %s key has no sentence long enough to look for' % (
                    ex.chapter.path, ex.key_line, lang)
            assert squash(m) not in stripped, \
                '%s:%d: the marker %r is not specific to the key' % (ex.chapter.path, ex.key_line, m)
            pair.append(m)
        out[(ex.chapter.path, ex.key_line)] = pair
    return out


def test_keys_are_many_and_in_both_languages():
    ks = keyed()
    assert len(ks) >= 25, 'only %d keyed exercises' % len(ks)
    named = {ex.number for ex in ks}
    for must in ('2.2', '3.4', '7.5'):          # the parts issue 18 names
        assert must in named, 'Exercise %s has no answer key' % must
    for ex in ks:
        for lang, word in (('zh', '评分标准'), ('en', 'Rubric')):
            assert word in course.blocks(ex.key, lang), \
                '%s:%d: the %s key has no rubric' % (ex.chapter.path, ex.key_line, lang)


def test_keyanswers_quote_the_reference_solutions():
    """\\keyanswer{ID}{NAME} resolves for every key to the value the reference
    solution gives, which the grader's own tests check against the answer."""
    book = course.Book(B)
    seen = 0
    for ex in keyed():
        for ex_id, name in re.findall(r'\\keyanswer\{([^}]*)\}\{([^}]*)\}', ex.key):
            value = course.keyanswer(TOP, ex_id, name)
            float(value)
            seen += 1
        resolved = course.resolve(ex.body + ex.key, TOP, book)
        assert '\\keyanswer' not in resolved
        if book.ok:             # every \ref of the exercise and its key has a number
            assert '??' not in resolved, '%s: an unresolved reference' % ex.number
    assert seen >= 15
    assert course.keyanswer(TOP, 'ch07-tie-answers', 'answer_tie_constant') == '1.77'


def text_of_pdf(path):
    """pdftotext's text, extracted once per build (helpers.pdf_text)."""
    return pdf_text(path)


def student_outputs():
    """{name: text} of every output a student sees."""
    outs = {}
    for e in ('zh', 'en', 'bilingual'):
        pdf = os.path.join(B, 'book-%s.pdf' % e)
        assert os.path.exists(pdf), '%s is missing: run make' % pdf
        outs[pdf] = text_of_pdf(pdf)
        outs[pdf + ' (tex)'] = open(os.path.join(B, 'body-%s.tex' % e), encoding='utf-8').read()
    html = sorted(glob.glob(os.path.join(B, 'html', '**', '*.html'), recursive=True))
    slides = sorted(glob.glob(os.path.join(B, 'slides', '*.tex')))
    if not html or not slides:
        raise Skip('no build/html or build/slides: make html slides (make test builds them)')
    for p in html + slides:
        outs[p] = re.sub(r'<[^>]+>', ' ', open(p, encoding='utf-8').read())
    with tempfile.TemporaryDirectory() as tmp:
        _, _, files = grade_release.student(TOP, dest=os.path.join(tmp, 'student'))
        for k, v in files.items():
            outs['student.tar.gz:' + k] = v
        zips = [grade_release.gradescope(TOP, dest=os.path.join(tmp, 'gradescope.zip'))]
        zips += sorted(glob.glob(os.path.join(B, 'gradescope', '*.zip')))
        for z in zips:
            with zipfile.ZipFile(z) as f:
                for n in f.namelist():
                    outs['%s:%s' % (os.path.basename(z), n)] = f.read(n).decode('utf-8', 'replace')
    return outs


def test_answer_keys_never_reach_a_student():
    """A marker sentence of every key (each language) is in no PDF, HTML page,
    slide, student-release file or Gradescope package; and the same search
    finds every one of them in the instructor's text, so it can fail."""
    marks = markers()
    outs = {k: squash(v) for k, v in student_outputs().items()}
    leaks = []
    for where, pair in marks.items():
        for m in pair:
            s = squash(m)
            leaks += ['%s:%d key: %r in %s' % (where[0], where[1], m, name)
                      for name, text in outs.items() if s in text]
    assert not leaks, 'answer keys reached student outputs:\n' + '\n'.join(leaks[:20])
    chaps = course.number_chapters(course.chapters(TOP))
    course.exercises_pages(chaps, course.Book(B))
    instructor = squash(course.keys_nw(TOP, course.Book(B), chaps))
    missing = [m for pair in marks.values() for m in pair if squash(m) not in instructor]
    assert not missing, 'the search does not find these in the instructor text: %s' % missing


def test_strip_answerkeys_drops_a_malformed_key_rather_than_print_it():
    text = 'a\n\\begin{answerkey}\nsecret\n\\end{answerkey}\nb\n  \\begin{answerkey} x\nsecret2\n'
    out = nwlang.strip_answerkeys(text)
    assert 'secret' not in out and out.startswith('a\n') and '\nb' in out
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, 'x.nw')
        with open(bad, 'w', encoding='utf-8') as f:
            f.write('\\begin{answerkey}\n\\begin{zh}\n中文\n\\end{zh}\n\\begin{en}\nEnglish\n'
                    '\\end{en}\n\\end{answerkey}\n')
        p = subprocess.run([sys.executable, os.path.join(TOP, 'tools', 'nwlang.py'), 'check', bad],
                           capture_output=True, text=True)
        assert p.returncode != 0 and 'must follow the \\end{exercise}' in p.stderr, p.stderr


# ---------------------------------------------------------------------------
# The keys' claims, checked independently

def test_key_claims_hold():
    np = numpy()
    rng = np.random.default_rng(7)
    # 2.1: w1 = w2 (equal scores); the reference answers to four places
    q, K, v = np.array([1., 1.]), np.array([[1., 0.], [0., 1.], [1., 1.]]), np.array([1., 2., 4.])
    s = K @ q / math.sqrt(2)
    w = np.exp(s - s.max()) / np.exp(s - s.max()).sum()
    assert abs(w[0] - w[1]) == 0
    assert abs(float(course.keyanswer(TOP, 'ch02-by-hand', 'w[0]')) - w[0]) < 5.1e-5
    assert abs(float(course.keyanswer(TOP, 'ch02-by-hand', 'w[2]')) - w[2]) < 5.1e-5
    assert abs(float(course.keyanswer(TOP, 'ch02-by-hand', '*attn')) - w @ v) < 5.1e-5
    # 2.2: subtracting the minimum overflows at (1000, 0); log(DBL_MAX) = 709.78
    assert abs(math.log(np.finfo(float).max) - 709.78) < 0.01
    with np.errstate(over='ignore', invalid='ignore'):
        x = np.array([1000., 0.])
        e = np.exp(x - x.min())
        assert np.isnan((e / e.sum())[0])
    # 3.4: W_Q A, W_K A^-T keep the scores; W_V B, B^-1 W_O keep the output
    d, dk = 6, 3
    X, Wq, Wk, Wv, Wo = (rng.normal(size=(5, d)), rng.normal(size=(d, dk)), rng.normal(size=(d, dk)),
                         rng.normal(size=(d, dk)), rng.normal(size=(dk, d)))
    A, Bm = rng.normal(size=(dk, dk)), rng.normal(size=(dk, dk))
    S1 = (X @ Wq) @ (X @ Wk).T
    S2 = (X @ Wq @ A) @ (X @ Wk @ np.linalg.inv(A).T).T
    assert np.allclose(S1, S2, atol=1e-9)
    assert np.allclose(X @ Wv @ Wo, X @ Wv @ Bm @ np.linalg.inv(Bm) @ Wo, atol=1e-9)
    # 5.2: the GELU is not monotone (minimum near -0.75), so h does not give a
    a = np.linspace(-3, 0, 300001)
    phi = 0.5 * (1 + np.vectorize(math.erf)(a / math.sqrt(2)))
    assert abs(a[np.argmin(a * phi)] + 0.75) < 0.01
    # 6.3: the rotated dot product depends on s - t only
    def rot(x, t, dd=8):
        out = x.copy()
        for i in range(dd // 2):
            th = t * 10000 ** (-2 * i / dd)
            c, sn = math.cos(th), math.sin(th)
            out[2 * i], out[2 * i + 1] = x[2 * i] * c + x[2 * i + 1] * sn, -x[2 * i] * sn + x[2 * i + 1] * c
        return out
    qv, kv = rng.normal(size=8), rng.normal(size=8)
    dots = [rot(qv, s_) @ rot(kv, s_ - 3) for s_ in (3, 7, 20)]
    assert max(dots) - min(dots) < 1e-12
    # 7.1: Var = 64 * 4 * 4 / 64 = 16, kappa = 1/32
    assert int(course.keyanswer(TOP, 'ch07-variance-answers', 'answer_variance')) == 64 * 4 * 4 // 64
    assert int(course.keyanswer(TOP, 'ch07-variance-answers', 'answer_kappa_denominator')) == 32
    # 7.2: ||J||_F^2 = S2 - 2 S3 + S2^2; 1/2 for two halves; sqrt(n-1)/n uniform
    p = rng.dirichlet(np.ones(7))
    J = np.diag(p) - np.outer(p, p)
    s2, s3 = (p ** 2).sum(), (p ** 3).sum()
    assert abs(np.linalg.norm(J) ** 2 - (s2 - 2 * s3 + s2 ** 2)) < 1e-14
    for n in (2, 5):
        u = np.full(n, 1 / n)
        assert abs(np.linalg.norm(np.diag(u) - np.outer(u, u)) - math.sqrt(n - 1) / n) < 1e-14
    # 7.5: c = f(0) for 16 keys, by numerical integration
    xs = np.linspace(-12, 12, 240001)
    ph = np.exp(-xs ** 2 / 2) / math.sqrt(2 * math.pi)
    Ph = 0.5 * (1 + np.vectorize(math.erf)(xs / math.sqrt(2)))
    c = 16 * 15 * np.sum(ph ** 2 * Ph ** 14) * (xs[1] - xs[0])
    assert abs(float(course.keyanswer(TOP, 'ch07-tie-answers', 'answer_tie_constant')) - c) < 0.005
    # 8.1: the smallest smoothed loss, H(q) for eps 0.1 and V 11, is 0.514
    qy, qo = 0.9 + 0.1 / 11, 0.1 / 11
    assert abs(-(qy * math.log(qy) + 10 * qo * math.log(qo)) - 0.514) < 5e-4
    # 8.2: the rate at step 100000 is sqrt(4000 / 100000) = 0.2 of the peak
    rate = lambda step, wu=4000: min(step ** -0.5, step * wu ** -1.5)   # noqa: E731
    assert abs(rate(100000) / rate(4000) - 0.2) < 1e-12
    # 9.1: clipped unigram precision 1/4, unclipped 1
    hyp, ref = 'the the the the'.split(), 'the cat'.split()
    clipped = sum(min(hyp.count(g), ref.count(g)) for g in set(hyp))
    assert clipped / len(hyp) == 0.25 and sum(g in ref for g in hyp) / len(hyp) == 1


# ---------------------------------------------------------------------------
# Tracks

def test_tracks_cover_the_book():
    tracks, book = course.plan(TOP)
    assert [t['id'] for t in tracks] == ['4wk', '8wk', '14wk']
    assert [len(t['weeks']) for t in tracks] == [4, 8, 14]
    chaps = course.number_chapters(course.chapters(TOP))
    everything = {ex.number for c in chaps for ex in c.exercises}
    for t in tracks:
        numbers = [e['number'] for w in t['weeks'] for e in w['exercises']]
        assert len(numbers) == len(set(numbers)), '%s sets an exercise twice' % t['id']
        assert set(numbers) <= everything
        for w in t['weeks']:
            for lang in ('zh', 'en'):
                assert w['lab'][lang], '%s week %d has no %s lab' % (t['id'], w['week'], lang)
            for e in w['exercises']:
                assert 5 <= e['minutes'] <= 300 and e['how']['en'] and e['how']['zh']
            if w['package']:
                assert w['package'] == '%s-week%d.zip' % (t['id'], w['week'])
    full = tracks[2]
    assert {e['number'] for w in full['weeks'] for e in w['exercises']} == everything, \
        'the 14-week track misses exercises'
    by_label = {c.label: c for c in chaps}
    for raw_track in course.load_tracks(TOP):     # every section named exists
        for k, w in enumerate(raw_track['weeks'], 1):
            for r in w['readings']:
                if r['sections'] != 'all':
                    n = section_count(by_label[r['chapter']])
                    assert set(r['sections']) <= set(range(1, n + 1)), \
                        '%s week %d: %s has sections 1-%d, not %s' % (
                            raw_track['id'], k, r['chapter'], n, r['sections'])
    # every numbered section of Chapters 1-10 and Appendix A read exactly once
    raw = course.load_tracks(TOP)[2]
    read_ = []
    for w in raw['weeks']:
        for r in w['readings']:
            c = by_label[r['chapter']]
            if r['sections'] == 'all':
                read_ += [(c.label, s) for s in range(1, section_count(c) + 1)]
            else:
                read_ += [(c.label, s) for s in r['sections']]
    assert len(read_) == len(set(read_)), 'the 14-week track reads a section twice'
    want = {(c.label, s) for c in chaps if re.match(r'(\d|A$)', c.number or 'x')
            for s in range(1, section_count(c) + 1)}
    assert want - set(read_) == set(), 'unread: %s' % sorted(want - set(read_))


def section_count(chapter):
    """Numbered sections of a chapter, counted in its source."""
    text = nwlang.strip_answerkeys(open(os.path.join(TOP, chapter.path), encoding='utf-8').read())
    return len(re.findall(r'(?m)^\\section\{', text))


def test_readings_pages_come_from_the_typeset_book():
    """Chapter numbers agree with the .aux; each reading of the 4-week track's
    week 2 (and a sample elsewhere) names a page of book-en.pdf / book-zh.pdf
    on which that section's number is printed as a heading."""
    book = course.Book(B)
    if not book.ok:
        raise AssertionError('build/book-en.aux or .toc missing: run make')
    for c in course.number_chapters(course.chapters(TOP)):
        if c.label and c.number:
            assert book.number(c.label) == c.number, (c.path, book.number(c.label), c.number)
    tracks, _ = course.plan(TOP)
    sample = [s for w in (tracks[0]['weeks'][2], tracks[2]['weeks'][3]) for r in w['readings']
              for s in r['sections']]
    assert sample
    def page_text(pdf, physical):
        return subprocess.run(['pdftotext', '-f', str(physical), '-l', str(physical), '-enc',
                               'UTF-8', pdf, '-'], capture_output=True, text=True, check=True).stdout
    for lang in ('en', 'zh'):
        pdf = os.path.join(B, 'book-%s.pdf' % lang)
        # printed page 50 is physical page 50 + offset (the front matter)
        offset = next((k for k in range(60) if re.search(r'(?m)^\s*50\s*$', page_text(pdf, 50 + k))),
                      None)
        assert offset is not None, 'printed page 50 not found in %s' % pdf
        for s in sample:
            number, title, page = s[lang]
            assert page.isdigit(), s
            text = page_text(pdf, int(page) + offset)
            assert re.search(r'(?m)^\s*%s\s*$' % page, text), (pdf, page, 'not the printed page')
            assert re.search(r'(?m)^\s*%s\s' % re.escape(number), text), \
                'section %s is not on page %s of %s' % (number, page, pdf)


def test_one_gradescope_package_per_week():
    tracks, _ = course.plan(TOP)
    week = tracks[0]['weeks'][1]                # the 4-week track's week 2
    assert week['package'] == '4wk-week2.zip' and week['package_ids']
    with tempfile.TemporaryDirectory() as tmp:
        z = grade_release.gradescope(TOP, ','.join(week['package_ids']), os.path.join(tmp, 'w.zip'))
        with zipfile.ZipFile(z) as f:
            dirs = {n.split('/')[1] for n in f.namelist() if n.startswith('exercises/')
                    and n.count('/') >= 2 and not n.startswith('exercises/harness/')}
            assert 'run_autograder' in f.namelist()
    assert dirs == set(week['package_ids']), (dirs, week['package_ids'])
    readme = course.week_readme(tracks[0], week)
    for word in ('阅读', 'Readings', '实验', 'Lab', '4wk-week2.zip', 'decks/03-multi-head-zh.pdf',
                 'decks/03-multi-head-en.pdf'):
        assert word in readme, word
    # the week's load in all: 4wk week 2 sets 3.1, 3.2, 4.1, 4.2 and 4.3, all of them
    total = sum(e['minutes'] for e in week['exercises'])
    assert len(week['exercises']) == 5 and week['minutes'] == total
    assert 'about %d min (%d h %d min)' % (total, total // 60, total % 60) in readme, readme
    assert '合计约 %d 分钟' % total in readme
    last = tracks[2]['weeks'][-1]               # 14wk week 14: each student takes one project
    assert last['choose_one'] and len(last['exercises']) == 4
    assert last['minutes'] == max(e['minutes'] for e in last['exercises'])
    assert 'each student takes one, about %d to %d min' % (
        min(e['minutes'] for e in last['exercises']), last['minutes']) in course.week_readme(tracks[2], last)


# ---------------------------------------------------------------------------
# The student's environment

def readme_commands(readme):
    block = readme.split('<!-- commands:', 1)[1].split('```sh\n', 1)[1].split('```', 1)[0]
    return [l for l in block.split('\n') if l.strip()]


def test_student_release_runs_every_command_it_mentions():
    """Unpack the student release in an empty directory and run each command
    of its README's command block, which lists what the exercises mention."""
    if shutil.which('cc') is None or shutil.which('make') is None:
        raise Skip('no C compiler or make')
    with tempfile.TemporaryDirectory() as tmp:
        _, tarball, files = grade_release.student(TOP, dest=os.path.join(tmp, 'student'))
        for path in ('.devcontainer/Dockerfile', '.devcontainer/devcontainer.json',
                     'code/ch02-attention.c', 'code/appA-matrix.c'):
            assert path in files, path
        unpack = os.path.join(tmp, 'unpacked')
        with tarfile.open(tarball) as tar:
            tar.extractall(unpack)
        root = os.path.join(unpack, 'attention-exercises')
        cmds = readme_commands(open(os.path.join(root, 'README.md'), encoding='utf-8').read())
        assert 'make programs' in cmds and any('--table variance' in c for c in cmds)
        env = dict(os.environ, CFLAGS='-std=c11 -O0 -w', MAKEFLAGS='-j2')
        for cmd in cmds:
            if cmd.startswith('make grade'):
                # tests/test_grader_release.py runs `make grade` in an unpacked
                # release (stubs score 0, solutions full marks); grading again
                # here would only compile the sanitized library a second time.
                continue
            p = subprocess.run(['bash', '-c', cmd], cwd=root, capture_output=True, text=True,
                               timeout=600, env=env)
            assert p.returncode == 0, (cmd, p.stdout[-500:], p.stderr[-800:])
            assert p.stdout.strip() or cmd.endswith('> X.txt'), cmd
        # the mentions in the exercises are among the README's commands
        text = '\n'.join(course.blocks(ex.body, 'en') for c in course.chapters(TOP)
                         for ex in c.exercises)
        for flag in set(re.findall(r'\[\[(--[a-z-]+(?: [a-z]+)?)\]\]', text)) - {'--bench', '--trace'}:
            assert any(flag in c for c in cmds), 'an exercise mentions %s; the README does not' % flag


def test_devcontainer():
    for base in (TOP, os.path.join(TOP, 'exercises', 'student')):
        d = os.path.join(base, '.devcontainer')
        docker = open(os.path.join(d, 'Dockerfile'), encoding='utf-8').read()
        assert re.search(r'(?m)^FROM debian:12$', docker)
        conf = json.load(open(os.path.join(d, 'devcontainer.json'), encoding='utf-8'))
        assert conf['build']['dockerfile'] == 'Dockerfile'
    root_docker = open(os.path.join(TOP, '.devcontainer', 'Dockerfile'), encoding='utf-8').read()
    assert 'build.sh --packages-only' in root_docker
    assert '--packages-only' in open(os.path.join(TOP, 'build.sh'), encoding='utf-8').read()
    engine = shutil.which('docker') or shutil.which('podman')
    if engine is None:
        raise Skip('no container engine (docker or podman) on this machine: '
                   'the devcontainer images were not built')
    if subprocess.run([engine, 'info'], capture_output=True, timeout=60).returncode != 0:
        raise Skip('%s is installed but cannot reach its daemon: the devcontainer images '
                   'were not built' % os.path.basename(engine))
    for base, tag in ((TOP, 'attention-book-dev'), (os.path.join(TOP, 'exercises', 'student'),
                                                   'attention-exercises-dev')):
        ctx = base if base == TOP else os.path.join(base, '.devcontainer')
        p = subprocess.run([engine, 'build', '-f', os.path.join(base, '.devcontainer', 'Dockerfile'),
                            '-t', tag, ctx], capture_output=True, text=True, timeout=3600)
        assert p.returncode == 0, p.stderr[-2000:]
    # The sandbox starts inside the students' container when it runs as
    # devcontainer.json says (bubblewrap mounts its own /proc, which Docker's
    # masked /proc paths forbid unless systempaths=unconfined): grade the stub
    # of one exercise there, in an unpacked student release.
    conf = json.load(open(os.path.join(TOP, 'exercises', 'student', '.devcontainer',
                                       'devcontainer.json'), encoding='utf-8'))
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        _, tarball, _ = grade_release.student(TOP, dest=os.path.join(tmp, 'student'))
        with tarfile.open(tarball) as tar:
            tar.extractall(os.path.join(tmp, 'unpacked'))
        root = os.path.join(tmp, 'unpacked', 'attention-exercises')
        p = subprocess.run([engine, 'run', '--rm'] + conf['runArgs'] +
                           ['-v', root + ':/w', '-w', '/w', 'attention-exercises-dev',
                            'make', 'grade', 'EX=appA-transpose', 'LANG=en'],
                           capture_output=True, text=True, timeout=600)
        out = p.stdout + p.stderr
        assert 'cannot start a sandbox' not in out, out[-1500:]
        # the stub scores 0 (make exits 2 when the grader's status is not 0)
        assert p.returncode != 0 and 'Total: 0/5' in out, (p.returncode, out[-1500:])


def test_appendix_syllabus_table_follows_the_14_week_track():
    """Appendix C's table and course/tracks.json's 14-week track name the same
    chapters week by week (the table is prose; the track is the source)."""
    text = open(os.path.join(TOP, 'chapters', '92-appendix-instructor.nw'), encoding='utf-8').read()
    rows = re.findall(r'(?m)^(\d+) & (\\zhen\{.*?\}\{.*?\}) & ', text)
    weeks = course.load_tracks(TOP)[2]['weeks']
    assert [int(r[0]) for r in rows] == list(range(1, len(weeks) + 1))
    for (n, lecture), w in zip(rows, weeks):
        named = set(re.findall(r'\\ref\{((?:ch|app):[^}]*)\}', lecture))
        want = {r['chapter'] for r in w['readings']} - {'ch:preface'}
        assert named == want, 'week %s: the table names %s, the track reads %s' % (n, named, want)

"""The quizzes and question banks (quizzes/chNN.toml, tools/quiz.py, make quiz).

  - every chapter 1-10 has a reading quiz of 10 or more questions and an exam
    bank, every question both languages and an answer;
  - bad quiz sources are refused with one line naming file and line, exit 2;
  - the Moodle GIFT export parses under a checker of the grammar we use
    (written here, apart from the writer, and shown to reject malformed
    samples), and holds every question once per language;
  - the Canvas QTI 1.2 zips are well-formed XML with the elements Canvas's
    importer reads;
  - numeric answers, as exported, equal an independent computation (NumPy or
    worked by hand): at least one per chapter.
The export runs once per module into a temporary directory (the chapter
programs from build/bin, a few seconds); `make quiz` also typesets the PDFs.
"""
import functools
import math
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
import xml.etree.ElementTree as ET

from helpers import TOP, BIN, Skip, numpy

QUIZ = os.path.join(TOP, 'tools', 'quiz.py')
SOURCES = [os.path.join(TOP, 'quizzes', 'ch%02d.toml' % n) for n in range(1, 11)]
CJK = re.compile(r'[\u4e00-\u9fff]')


def run_quiz(*args):
    return subprocess.run([sys.executable, QUIZ] + list(args), capture_output=True,
                          text=True, cwd=TOP, timeout=600)


@functools.lru_cache(maxsize=None)
def exported():
    """Run the programs and export everything once; the output directory."""
    have = os.listdir(BIN) if os.path.isdir(BIN) else []
    for n in range(1, 11):
        if not any(f.startswith('ch%02d-' % n) for f in have):
            raise Skip('build/bin has no chapter %d program: run make first' % n)
    out = tempfile.mkdtemp(prefix='quiz-')
    values = os.path.join(out, 'values.json')
    p = run_quiz('values', '--bin', BIN, '--out', values, *SOURCES)
    assert p.returncode == 0, 'quiz.py values failed: %s' % p.stderr
    p = run_quiz('export', '--values', values, '--out', out, *SOURCES)
    assert p.returncode == 0, 'quiz.py export failed: %s' % p.stderr
    return out


def sources():
    out = {}
    for path in SOURCES:
        with open(path, 'rb') as f:
            out[path] = tomllib.load(f)
    return out


#### The sources #############################################################

def test_every_chapter_has_a_quiz_and_a_bank_in_both_languages():
    for path, data in sources().items():
        qs = data.get('q', [])
        reading = [q for q in qs if q.get('set') == 'reading']
        exam = [q for q in qs if q.get('set') == 'exam']
        assert len(reading) >= 10, '%s: %d reading questions, expected >= 10' % (path, len(reading))
        assert len(exam) >= 3, '%s: %d exam questions, expected >= 3' % (path, len(exam))
        for q in qs:
            where = '%s %s' % (path, q.get('id'))
            assert CJK.search(q.get('zh', '')), '%s: no Chinese text' % where
            assert q.get('en', '').strip(), '%s: no English text' % where
            t = q['type']
            if t == 'mc':
                assert sum(bool(c.get('correct')) for c in q['choices']) == 1, where
                for c in q['choices']:
                    assert c.get('zh') and c.get('en'), '%s: a choice lacks a language' % where
            elif t == 'tf':
                # true/false, or an expression comparing values read from a program
                a = q.get('answer')
                assert isinstance(a, bool) or (isinstance(a, str) and re.search(r'[<>]', a)), where
            elif t == 'numeric':
                # the answer names values read from a program, never a typed number
                assert isinstance(q.get('answer'), str) and re.search(r'[A-Za-z_]', q['answer']), where
            elif t == 'short':
                assert q.get('accept'), where
            else:
                assert t == 'essay', '%s: unknown type %s' % (where, t)
                assert CJK.search(q['key']['zh']) and q['key']['en'].strip(), \
                    '%s: an essay needs a model answer in both languages' % where


def test_quiz_check_accepts_the_sources():
    p = run_quiz('check', *SOURCES)
    assert p.returncode == 0, p.stderr
    assert len(p.stdout.splitlines()) == 10, p.stdout


def bad_source(tmp, text):
    path = os.path.join(tmp, 'ch99.toml')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    return path


GOOD_HEAD = '''[title]
zh = "测试"
en = "Test"
[values]
a = { run = "ch02-attention", pattern = '(\\d+)' }
'''


def question(i, **kw):
    q = {'id': '"ch99-r%02d"' % i, 'set': '"reading"', 'type': '"tf"', 'zh': '"对吗"',
         'en': '"Right?"', 'answer': 'true'}
    q.update(kw)
    return '[[q]]\n' + ''.join('%s = %s\n' % kv for kv in q.items() if kv[1] is not None)


def test_bad_sources_are_refused_with_file_and_line():
    exams = ''.join(question(50 + i, set='"exam"') for i in range(3))
    with tempfile.TemporaryDirectory() as tmp:
        cases = [
            # an English text missing
            (GOOD_HEAD + question(1, en=None) + ''.join(question(i) for i in range(2, 11)) + exams,
             'has no English text'),
            # a numeric answer typed as a number, not read from a program
            (GOOD_HEAD + question(1, type='"numeric"', answer='"3.5"') +
             ''.join(question(i) for i in range(2, 11)) + exams, 'names no value'),
            # nine reading questions only
            (GOOD_HEAD + ''.join(question(i) for i in range(1, 10)) + exams, '10 or more'),
            # a true/false answer comparing a value that is not defined
            (GOOD_HEAD + question(1, answer='"b > 1"') + ''.join(question(i) for i in range(2, 11)) + exams,
             'not defined'),
            # a placeholder naming no value
            (GOOD_HEAD + question(1, zh='"{{b}} 对吗"') + ''.join(question(i) for i in range(2, 11)) + exams,
             'not defined'),
            # LaTeX outside mathematics (it would reach Moodle and Canvas as text)
            (GOOD_HEAD + question(1, zh="'''用 \\texttt{x} 对吗'''") + ''.join(question(i) for i in range(2, 11)) + exams,
             'backslash outside'),
            # broken TOML
            (GOOD_HEAD + 'this is not toml\n', 'ch99.toml:6'),
        ]
        for text, expect in cases:
            p = run_quiz('check', bad_source(tmp, text))
            assert p.returncode == 2, 'expected exit 2 for %r, got %d' % (expect, p.returncode)
            assert p.stdout == '', p.stdout
            lines = p.stderr.strip().split('\n')
            assert len(lines) == 1 and 'ch99.toml' in lines[0] and expect in lines[0], \
                'expected one line naming the file and %r, got %r' % (expect, p.stderr)
        # the first case names the question's line
        p = run_quiz('check', bad_source(tmp, cases[0][0]))
        assert re.search(r'ch99\.toml:\d+:', p.stderr), p.stderr


def test_a_true_or_false_answer_can_follow_the_values():
    """answer = "EXPR": the statement's truth is computed from the values,
    so a new recording that turns a claim false turns the answer false."""
    sys.path.insert(0, os.path.join(TOP, 'tools'))
    import quiz
    for expr, vals, want in [('a > 1 and b < 1', {'a': '2.5', 'b': '0.9'}, True),
                             ('a > 1 and b < 1', {'a': '2.5', 'b': '1.06'}, False),
                             ('lo <= 64 <= hi', {'lo': '60.1', 'hi': '66'}, True),
                             ('not (lo <= 64 <= hi)', {'lo': '64.5', 'hi': '66'}, True),
                             ('a >= 2 or b > 5', {'a': '1', 'b': '1,024'}, True)]:
        assert quiz.evaluate(expr, vals) is want, (expr, vals)
    # the exported question carries the computed answer
    gift = open(os.path.join(exported(), 'gift', 'ch08-en.gift.txt'), encoding='utf-8').read()
    block = gift.split('::ch08-r10::')[1].split('\n\n')[0]
    assert re.search(r'\{(TRUE|FALSE)[#}]', block), block


#### GIFT ####################################################################
# The parts of Moodle's GIFT grammar the export uses: // comments, $CATEGORY,
# questions separated by blank lines, ::title::, [html], one answer block
# {...} at the end; inside it #number[:tolerance], TRUE/FALSE, =right ~wrong
# (exactly one =), =a =b (short answer), or nothing (essay); ####feedback.
# Escapes: \\ \~ \= \# \{ \} \: \n.

ESC = {'\\\\': '\x00', '\\~': '\x01', '\\=': '\x02', '\\#': '\x03', '\\{': '\x04',
       '\\}': '\x05', '\\:': '\x06', '\\n': '\x07'}


def unescape_marks(s):
    for k, v in ESC.items():
        s = s.replace(k, v)
    return s


def gift_parse(text):
    """([(title, kind, answer)], [errors])."""
    questions, errors = [], []
    lines = [l for l in text.split('\n') if not l.lstrip().startswith('//')]
    for block in re.split(r'\n\s*\n', '\n'.join(lines)):
        block = block.strip()
        if not block:
            continue
        if block.startswith('$CATEGORY:'):
            if '\n' in block:
                errors.append('a category takes one line: %r' % block[:40])
            continue
        s = unescape_marks(block)
        m = re.match(r'::([^:]+)::(.*)$', s, re.S)
        if not m:
            errors.append('no ::title:: in %r' % block[:40])
            continue
        title, rest = m.group(1), m.group(2)
        if rest.startswith('[html]'):
            rest = rest[6:]
        if rest.count('{') != 1 or rest.count('}') != 1 or not rest.rstrip().endswith('}'):
            errors.append('%s: expected one answer block {...} at the end' % title)
            continue
        stem, ans = rest[:rest.index('{')], rest[rest.index('{') + 1:rest.rindex('}')]
        if '::' in stem or not stem.strip():
            errors.append('%s: empty stem or unescaped :: in it' % title)
        ans = ans.split('####')[0].strip()
        if ans == '':
            questions.append((title, 'essay', None))
        elif ans in ('TRUE', 'FALSE', 'T', 'F'):
            questions.append((title, 'tf', ans.startswith('T')))
        elif ans.startswith('#'):
            num, _, tol = ans[1:].partition(':')
            try:
                questions.append((title, 'numeric', (float(num), float(tol or 0))))
            except ValueError:
                errors.append('%s: not a number in %r' % (title, ans))
        else:
            marks = re.findall(r'[=~]', ans)
            if not ans[0] in '=~' or '#' in ans:
                errors.append('%s: answers must start with = or ~: %r' % (title, ans[:30]))
            elif '~' in marks:
                if marks.count('=') != 1:
                    errors.append('%s: multiple choice needs exactly one =' % title)
                else:
                    questions.append((title, 'mc', len(marks)))
            else:
                questions.append((title, 'short', [a.strip() for a in ans.split('=')[1:]]))
    return questions, errors


def test_gift_checker_rejects_malformed_samples():
    good = '::q1::[html]What? {#3.5:0.1}\n\n::q2::Pick {=a ~b ~c}\n'
    qs, errs = gift_parse(good)
    assert errs == [] and [q[1] for q in qs] == ['numeric', 'mc'], (qs, errs)
    for bad, why in [('::q::What {is} this? {#1}', 'unescaped brace in the stem'),
                     ('::q::Pick {=a =b ~c}', 'two right answers'),
                     ('::q::How many? {#abc}', 'not a number'),
                     ('What? {TRUE}', 'no title'),
                     ('::q::Where: here? {TRUE', 'unclosed answer')]:
        _, errs = gift_parse(bad)
        assert errs, 'the checker accepted a malformed sample (%s): %r' % (why, bad)


@functools.lru_cache(maxsize=None)
def gift_answers(lang):
    with open(os.path.join(exported(), 'gift', 'all-%s.gift.txt' % lang), encoding='utf-8') as f:
        qs, errs = gift_parse(f.read())
    assert errs == [], 'GIFT (%s) does not parse: %s' % (lang, errs[:5])
    return {t: (k, a) for t, k, a in qs}


def test_gift_parses_and_holds_every_question_once():
    ids = {q['id']: q['type'] for data in sources().values() for q in data['q']}
    for lang in ('zh', 'en'):
        with open(os.path.join(exported(), 'gift', 'all-%s.gift.txt' % lang), encoding='utf-8') as f:
            qs, errs = gift_parse(f.read())
        assert errs == [], errs[:5]
        titles = [t for t, _, _ in qs]
        assert sorted(titles) == sorted(ids), 'GIFT %s: questions missing or twice' % lang
        for t, kind, _ in qs:
            assert kind == ids[t], '%s: exported as %s, written as %s' % (t, kind, ids[t])


#### Canvas QTI 1.2 ##########################################################

NS = {'q': 'http://www.imsglobal.org/xsd/ims_qtiasiv1p2',
      'm': 'http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1'}
CANVAS_TYPES = {'multiple_choice_question', 'true_false_question', 'numerical_question',
                'short_answer_question', 'essay_question'}


def test_canvas_zips_have_what_canvas_reads():
    ids = {q['id'] for data in sources().values() for q in data['q']}
    for lang in ('zh', 'en'):
        seen = []
        with zipfile.ZipFile(os.path.join(exported(), 'canvas', 'all-%s.zip' % lang)) as z:
            manifest = ET.fromstring(z.read('imsmanifest.xml'))
            resources = manifest.findall('m:resources/m:resource', NS)
            qti = [r for r in resources if r.get('type') == 'imsqti_xmlv1p2']
            assert len(qti) == 20, 'expected 20 assessments (a quiz and a bank per chapter)'
            for r in qti:
                href = r.find('m:file', NS).get('href')
                root = ET.fromstring(z.read(href))          # well-formed, or this raises
                assert root.tag == '{%s}questestinterop' % NS['q']
                a = root.find('q:assessment', NS)
                assert a is not None and a.get('ident') and a.get('title'), href
                for item in a.findall('q:section/q:item', NS):
                    seen.append(item.get('title'))
                    fields = {f.find('q:fieldlabel', NS).text: f.find('q:fieldentry', NS).text
                              for f in item.findall('q:itemmetadata/q:qtimetadata/q:qtimetadatafield', NS)}
                    t = fields.get('question_type')
                    assert t in CANVAS_TYPES, '%s: question_type %r' % (item.get('title'), t)
                    assert fields.get('points_possible')
                    text = item.find('q:presentation/q:material/q:mattext', NS)
                    assert text is not None and text.text, item.get('title')
                    if t in ('multiple_choice_question', 'true_false_question'):
                        labels = {l.get('ident') for l in item.findall(
                            'q:presentation/q:response_lid/q:render_choice/q:response_label', NS)}
                        right = [v.text for v in item.iter('{%s}varequal' % NS['q'])]
                        assert len(labels) >= 2 and len(right) == 1 and right[0] in labels, item.get('title')
                    elif t == 'numerical_question':
                        fib = item.find('q:presentation/q:response_str/q:render_fib', NS)
                        assert fib is not None and fib.get('fibtype') == 'Decimal'
                        lo = float(next(item.iter('{%s}vargte' % NS['q'])).text)
                        hi = float(next(item.iter('{%s}varlte' % NS['q'])).text)
                        assert lo <= hi, item.get('title')
                    elif t == 'essay_question':
                        assert item.find('q:presentation/q:response_str', NS) is not None
            # every file the manifest names is in the zip
            names = set(z.namelist())
            for f in manifest.iter('{%s}file' % NS['m']):
                assert f.get('href') in names, f.get('href')
        assert sorted(seen) == sorted(ids), 'QTI %s: questions missing or twice' % lang


#### Numeric answers against an independent computation ####################

def answer(qid, lang='en'):
    kind, a = gift_answers(lang)[qid]
    return a


def close(qid, expected, slack=0.0):
    """The exported answer, within its own tolerance (+ slack), of EXPECTED."""
    value, tol = answer(qid)
    assert abs(value - expected) <= tol + slack + 1e-12 * abs(expected), \
        '%s: exported %r (tolerance %g), independent computation %r' % (qid, value, tol, expected)
    zh = answer(qid, 'zh')
    assert zh == (value, tol), '%s: the Chinese export differs: %r' % (qid, zh)


def softmax(np, x):
    e = np.exp(x - np.max(x))
    return e / e.sum()


def test_numeric_answers_chapter_1_to_5():
    np = numpy()
    # ch01: layers until output n = 128 depends on input 1 (k = 3); Table 1's costs
    close('ch01-r01', math.ceil((128 - 1) / (3 - 1)))
    close('ch01-r02', min(L for L in range(1, 20) if 3 ** L >= 128))
    close('ch01-r05', 128 ** 2 * 512)
    close('ch01-e02', (128 * 512 ** 2) / (128 ** 2 * 512))
    # ch02
    close('ch02-r01', math.log(sys.float_info.max), 0.005)
    close('ch02-r03', softmax(np, np.array([1001.0, 1002.0, 1003.0]))[2], 0.00005)
    close('ch02-e02', 2 * 1024 * 1024 * 64)
    close('ch02-r09', 1 / math.sqrt(64))
    # ch03: d_model = 512, s = 100
    d, s = 512, 100
    close('ch03-r02', 4 * d * d + 4 * d)
    close('ch03-e01', 4 * s * d * d + 2 * s * s * d)
    close('ch03-r04', 8 * s * s)
    # ch04: the causal mask, 6 x 6, and 2 queries against 6 keys aligned at the end
    close('ch04-r03', int(np.tril(np.ones((6, 6))).sum()))
    close('ch04-e03', int(np.tril(np.ones((6, 6)))[-2:].sum()))
    close('ch04-r09', 1 / 4)
    # ch05: LayerNorm without gain and bias, eps = 1e-5
    x = np.array([1.0, 2.0, 3.0, 6.0])
    y = (x - x.mean()) / np.sqrt(x.var() + 1e-5)
    close('ch05-r08', y[0], 0.0000005)
    close('ch05-e01', y.var(), 0.0000000005)
    close('ch05-r01', 2 * 512 * 2048 + 2048 + 512)
    close('ch05-r04', 2 * 512)


def test_numeric_answers_chapter_6_to_10():
    np = numpy()
    # ch06: the sinusoidal encoding, d_model = 8
    close('ch06-r01', math.sin(1.0))
    close('ch06-r02', math.sin(2 / 10000 ** (2 / 8)))
    d, dff = 512, 2048
    mha, ffn, ln = 4 * d * d + 4 * d, 2 * d * dff + dff + d, 2 * d
    close('ch06-r06', mha + ffn + 2 * ln)
    close('ch06-e02', 2 * mha + ffn + 3 * ln)
    close('ch06-r05', 37000 * 512)
    # ch07: the chapter's logits at temperature 8 = sqrt(64); ln 16
    logits = np.array([1.5, 1, 0.3, -0.2, -0.8, -1.6])
    close('ch07-e03', softmax(np, logits / 8)[0], 0.0000005)
    close('ch07-r08', softmax(np, logits)[0], 0.0000005)
    close('ch07-r04', math.log(16), 0.00005)
    # ch08: the learning rate, d_model^-0.5 min(step^-0.5, step warmup^-1.5)
    lr = lambda dm, step, warm: dm ** -0.5 * min(step ** -0.5, step * warm ** -1.5)
    close('ch08-r01', lr(512, 4000, 4000), 0.0000000005)
    close('ch08-r03', lr(512, 10000, 8000), 0.0000000005)
    close('ch08-r04', lr(512, 4000, 4000) / lr(1024, 4000, 4000), 0.000005)
    # ch09: BLEU-4 of the two sentence files, computed here
    close('ch09-r02', bleu('ch09-hyp.txt', 'ch09-ref.txt')[0], 0.0000005)
    close('ch09-r03', bleu('ch09-hyp-short.txt', 'ch09-ref.txt')[1], 0.0000005)
    close('ch09-r01', 3 / 5)
    # ch10: 32 x 64 tiles; the causal tiles counted one by one
    close('ch10-r02', (1024 // 32) * (1024 // 64))
    causal = lambda s: sum(1 for i in range(s // 32) for j in range(s // 64) if 64 * j <= 32 * i + 31)
    close('ch10-r03', causal(1024))
    close('ch10-e02', causal(4096))
    close('ch10-r06', 2 * 200 * 32 * 4)


def bleu(hyp, ref):
    from collections import Counter
    with open(os.path.join(TOP, 'quizzes', 'data', hyp)) as f:
        h = f.read().split()
    with open(os.path.join(TOP, 'quizzes', 'data', ref)) as f:
        r = f.read().split()
    logp = 0.0
    for n in range(1, 5):
        hc = Counter(tuple(h[i:i + n]) for i in range(len(h) - n + 1))
        rc = Counter(tuple(r[i:i + n]) for i in range(len(r) - n + 1))
        logp += math.log(sum(min(c, rc[g]) for g, c in hc.items()) / sum(hc.values())) / 4
    bp = 1.0 if len(h) > len(r) else math.exp(1 - len(r) / len(h))
    return bp * math.exp(logp), bp


def test_short_answers_worked_by_hand():
    assert answer('ch09-r04') == ['一百零五'], answer('ch09-r04')
    assert answer('ch09-r05') == ['一千零一十'], answer('ch09-r05')
    assert answer('ch04-r04') == ['111110'], answer('ch04-r04')   # query 5 of 6 sees keys 1-5
    assert answer('ch05-r06') == ['2 3 4'], answer('ch05-r06')


#### Instructor material #####################################################

def test_quizzes_stay_out_of_the_student_release():
    # The student release is built from tools/grade.py, exercises/ and code/
    # (tools/grade_release.py); the quizzes live elsewhere and it never names them.
    with open(os.path.join(TOP, 'tools', 'grade_release.py'), encoding='utf-8') as f:
        assert 'quizzes' not in f.read()
    tarball = os.path.join(TOP, 'build', 'student.tar.gz')
    if not os.path.exists(tarball):
        return      # the static check above is the test; the tarball is checked when built
    ids = re.compile(r'ch\d\d-[re]\d\d\b')
    with tarfile.open(tarball) as t:
        for m in t.getmembers():
            assert 'quiz' not in m.name, m.name
            if m.isfile():
                data = t.extractfile(m).read().decode('utf-8', 'replace')
                assert not ids.search(data), '%s names a quiz question' % m.name


def test_chinese_follows_the_glossary():
    # The variants the glossary says to avoid (its "% avoid:" notes), and
    # ASCII double quotes, are kept out of the quizzes' Chinese as out of the book's.
    with open(os.path.join(TOP, 'chapters', '91-appendix-glossary.nw'), encoding='utf-8') as f:
        avoid = re.findall(r'% avoid: (\S+)', f.read())
    assert avoid, 'the glossary lists no variants to avoid'
    for path, data in sources().items():
        for q in data['q']:
            texts = [q['zh']] + [c['zh'] for c in q.get('choices', [])] + \
                ([q['key']['zh']] if 'key' in q else [])
            for t in texts:
                prose = re.sub(r'\$[^$]*\$|`[^`]*`', '', t)
                assert '"' not in prose, '%s %s: ASCII quotes in Chinese text' % (path, q['id'])
                for w in avoid:
                    assert w not in prose, '%s %s: %s (the glossary avoids it)' % (path, q['id'], w)

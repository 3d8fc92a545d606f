#!/usr/bin/python3
"""Course material from the one source (issue 18): tracks, answer keys and
rubrics, the instructor release, and one Gradescope package per week.

    tools/course.py gradescope-weeks   build/gradescope/TRACK-weekN.zip, one per
                                       week that sets exercises, of every track
    tools/course.py instructor         build/instructor/ and build/instructor.tar.gz
    tools/course.py plan [TRACK]       print the tracks: readings with pages,
                                       exercises with their expected time
    tools/course.py keys               list the keyed exercises and each key's
                                       marker sentences (tests/test_course.py)

Sources:
  course/tracks.json    the 4-, 8- and 14-week tracks: per week the readings
                        (a chapter's label and section numbers), the decks,
                        the lab and the exercises
  chapters/*.nw         the exercises and, right after each, its answerkey
                        (tools/nwbook/lang.py strips those from every student
                        output); \\keyanswer{ID}{NAME} in a key quotes the
                        value that exercise ID's reference solution gives
                        NAME (a function's return value or an assignment)
  build/book-{zh,en}.aux and .toc   chapter, section and exercise numbers and
                        their pages, as the typeset books have them: nothing
                        here is a hand-typed page number

Expected student time of an exercise is a model, not a measurement (nobody
has timed students on these exercises yet); EFFORT below states it, and the
instructor's PDF prints it with every figure.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TOOLS)
sys.path.insert(0, TOOLS)
import exercise  # noqa: E402
from exercise import read  # noqa: E402
import grade_release  # noqa: E402
from nwbook import aux, lang as nwlang  # noqa: E402  (answer keys: strip_answerkeys, KEY_BEGIN)

# The time model (minutes).  A programming exercise: reading the statement,
# setting up and a first grading run (20), plus 2, 3 or 4 minutes (easy,
# medium, hard) per line of the reference solution (non-blank, non-comment
# lines between the SOLUTION markers: writing, testing and debugging a line
# of C with the checks' feedback).  A numeric-answer exercise: 15 plus 5 per
# answer, plus the written time if it is medium or hard (a derivation).  A
# written or measured part (an answer key beside an autograded half, or an
# exercise nothing grades): by the book's difficulty mark.
EFFORT = {'base': 20, 'per_line': {'easy': 2, 'medium': 3, 'hard': 4},
          'answers_base': 15, 'per_answer': 5,
          'written': {'easy': 15, 'medium': 30, 'hard': 60},
          'written_only': {'easy': 20, 'medium': 45, 'hard': 90}}
EFFORT_TEXT = {
    'en': ('Expected times are estimates from a model, not from timed student '
           'attempts: a programming exercise takes 20 minutes plus 2, 3 or 4 per '
           'line of the reference solution (its non-blank, non-comment lines) for '
           'easy, medium or hard; a numeric-answer exercise 15 minutes plus 5 per '
           'answer (its written part counts too when it is medium or hard; an easy '
           "one's few lines of reasoning are in those 15); a written or measured "
           'part 15, 30 or 60 minutes for easy, '
           'medium or hard (20, 45 or 90 when nothing in the exercise is '
           'autograded).  Calibrate them with your own class.'),
    'zh': ('预计用时是按模型估算的，不是学生实测：编程练习为 20 分钟，加上参考答案每行 2、3 或 4 分钟'
           '（按易、中、难；只数非空、非注释的行）；数值答案练习为 15 分钟加每个答案 5 分钟'
           '（中等和难的题另加书面部分的时间；容易的题那几行说理已算在 15 分钟里）；书面或测量部分按难度，'
           '易、中、难分别为 15、30、60 分钟（整道题都不自动评分时为 20、45、90 分钟）。'
           '请用自己班级的实际情况校准。'),
}
QUIZ_SCRATCH = ('*.aux', '*.bcf', '*.bbl', '*.blg', '*.edx', '*.zdx', '*.log', '*.out',
                '*.run.xml', '*.toc', '*.stamp', '*.fls', '*.fdb_latexmk', '*.xdv', '*.running')
DIFFICULTY = {'易': 'easy', '中': 'medium', '难': 'hard'}
DIFF_ZH = {'easy': '易', 'medium': '中', 'hard': '难'}


def write_if_changed(path, text):
    if os.path.exists(path) and read(path) == text:
        return
    with open(path + '.tmp', 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(path + '.tmp', path)


# ---------------------------------------------------------------------------
# The exercises and their keys, from chapters/*.nw

class Exercise:
    def __init__(self, chapter, ordinal, difficulty, body, line):
        self.chapter = chapter          # its Chapter
        self.ordinal = ordinal          # 1, 2, ... within the chapter
        self.difficulty = difficulty    # easy, medium, hard or ''
        self.body = body                # LaTeX between \begin{exercise} and \end
        self.line = line
        self.key = None                 # LaTeX inside the answerkey, or None
        self.key_line = None

    @property
    def number(self):
        return '%s.%d' % (self.chapter.number, self.ordinal)


class Chapter:
    def __init__(self, path, label):
        self.path = path
        self.label = label
        self.number = '?'
        self.exercises = []


def chapters(root=ROOT):
    out = []
    for path in sorted(glob.glob(os.path.join(root, 'chapters', '*.nw'))):
        lines = read(path).split('\n')
        label = None
        for line in lines:
            m = re.search(r'\\label\{((?:ch|app):[^}]*)\}', line)
            if m:
                label = m.group(1)
                break
        chap = Chapter(os.path.relpath(path, root), label)
        i, n = 0, 0
        while i < len(lines):
            m = re.match(r'\s*\\begin\{exercise\}(?:\[(.*)\])?\s*$', lines[i])
            if not m:
                i += 1
                continue
            n += 1
            diff = ''
            dm = re.search(r'\\zhen\{([^}]*)\}', m.group(1) or '')
            if dm:
                diff = DIFFICULTY.get(dm.group(1), dm.group(1))
            j = i + 1
            while lines[j].strip() != '\\end{exercise}':
                j += 1
            ex = Exercise(chap, n, diff, '\n'.join(lines[i + 1:j]), i + 1)
            k = j + 1
            while k < len(lines) and not lines[k].strip():
                k += 1
            if k < len(lines) and nwlang.KEY_BEGIN.match(lines[k]):
                e = k + 1
                while not nwlang.KEY_END.match(lines[e]):
                    e += 1
                ex.key = '\n'.join(lines[k + 1:e])
                ex.key_line = k + 1
                j = e
            chap.exercises.append(ex)
            i = j + 1
        out.append(chap)
    return out


def blocks(tex, lang):
    """The text of TEX's zh or en blocks, joined."""
    return '\n'.join(re.findall(r'\\begin\{%s\}\n(.*?)\n\\end\{%s\}' % (lang, lang), tex, re.S))


def marker(tex, lang):
    """A sentence of a key, as plain text, that a test can look for in the
    student outputs: the longest run of plain words (English) or of Chinese
    characters (Chinese) outside math and commands."""
    text = blocks(tex, lang)
    text = re.sub(r'\$[^$]*\$|\\\[.*?\\\]|\[\[.*?\]\]', ' | ', text, flags=re.S)
    text = re.sub(r'\\[A-Za-z]+\*?(\{[^{}]*\})?', ' | ', text)
    if lang == 'zh':
        runs = re.findall(r'[\u4e00-\u9fff]{4,}(?:[，、][\u4e00-\u9fff]{2,})*', text)
    else:
        runs = re.findall(r"[A-Za-z][A-Za-z ,'-]{20,}[A-Za-z]", text)
        runs = [re.sub(r'\s+', ' ', r) for r in runs]
    return max(runs, key=len) if runs else ''


# ---------------------------------------------------------------------------
# Numbers and pages from the typeset books

class Book:
    """What the typeset editions say about numbers and pages."""

    def __init__(self, build):
        self.aux = {}
        for l in ('zh', 'en'):
            try:
                self.aux[l] = aux.Numbers(os.path.join(build, 'book-%s.aux' % l))
            except aux.AuxError:        # not typeset yet
                self.aux[l] = aux.Numbers(os.devnull)
        self.ok = bool(self.aux['en'].labels and self.aux['en'].sections)

    def number(self, label):
        return self.aux['en'].labels.get(label, '??')

    def page(self, label, lang):
        return self.aux[lang].pages.get(label, '??')

    def last_page(self, chapter, chaps, lang):
        """The page before the next chapter's first, or '' if not a number."""
        k = chaps.index(chapter)
        for nxt in chaps[k + 1:]:
            if nxt.label:
                p = self.page(nxt.label, lang)
                return str(int(p) - 1) if p.isdigit() else ''
        return ''

    def sections(self, chapter_number, lang):
        """{section index within the chapter: (number, title, page)}"""
        out = {}
        for num, title, page in self.aux[lang].sections:
            head, _, tail = num.rpartition('.')
            if head == chapter_number and tail.isdigit():
                out[int(tail)] = (num, title, page)
        return out


def number_chapters(chaps, book=None):
    """Chapter numbers as LaTeX gives them: the preface (00) none, chapters
    01.. in order 1, 2, ..., appendices (9x) A, B, ...; tests/test_course.py
    checks them against the typeset book's .aux."""
    n, app = 0, 0
    for c in chaps:
        stem = os.path.basename(c.path)
        if stem.startswith('00'):
            c.number = ''
        elif stem.startswith('9'):
            c.number = chr(ord('A') + app)
            app += 1
        else:
            n += 1
            c.number = str(n)
    return chaps


# ---------------------------------------------------------------------------
# \keyanswer: the reference solution's value

def keyanswer(root, ex_id, name):
    meta = exercise.load(os.path.join(root, 'exercises', ex_id))
    for f in meta['student_files']:
        sol = '\n'.join(exercise.solution_lines(read(os.path.join(root, 'exercises', ex_id, f))))
        text = read(os.path.join(root, 'exercises', ex_id, f))
        if re.match(r'\w+$', name):
            m = re.search(r'\b%s\s*\([^)]*\)\s*\{.*?return\s+([-+0-9.eE]+)\s*;' % re.escape(name),
                          text, re.S)
        else:
            m = re.search(r'(?m)^\s*%s\s*=\s*([-+0-9.eE]+)\s*;' % re.escape(name), sol)
        if m:
            return m.group(1)
    raise SystemExit('course: \\keyanswer{%s}{%s}: no such value in the reference solution'
                     % (ex_id, name))


def resolve(tex, root, book):
    """Cross-references and answers of a key, resolved for the instructor's PDF."""
    tex = re.sub(r'\\keyanswer\{([^}]*)\}\{([^}]*)\}',
                 lambda m: keyanswer(root, m.group(1), m.group(2)), tex)
    tex = re.sub(r'\\eqref\{([^}]*)\}', lambda m: '(%s)' % book.number(m.group(1)), tex)
    tex = re.sub(r'\\ref\{([^}]*)\}', lambda m: book.number(m.group(1)), tex)
    tex = re.sub(r'\\pageref\{([^}]*)\}', lambda m: book.page(m.group(1), 'en'), tex)
    tex = re.sub(r'~?\\cite[pt]?\{[^}]*\}', '', tex)
    tex = re.sub(r'(?m)^\s*\\label\{[^}]*\}\s*$\n?', '', tex)
    return re.sub(r'\\label\{[^}]*\}', '', tex)


# ---------------------------------------------------------------------------
# Exercises of the autograder, and the time model

def exercise_dirs(root=ROOT):
    """{book number "2.3": [(id, meta)]} of exercises/*/exercise.json."""
    out = {}
    for d, meta in exercise.exercises(root, everything=True):
        out.setdefault(meta.get('exercise', ''), []).append((meta['id'], meta))
    return out


def solution_size(root, ex_id, meta):
    """Non-blank, non-comment lines of the reference solution.  A line inside
    a /* ... */ comment is a comment; a line of code that starts with * (a
    store through a pointer, *peak = ...) is not."""
    n = 0
    for f in meta['student_files']:
        in_comment = False
        for line in exercise.solution_lines(read(os.path.join(root, 'exercises', ex_id, f))):
            s = line.strip()
            if in_comment:
                in_comment = '*/' not in s
                continue
            if s.startswith('/*'):
                in_comment = '*/' not in s
                continue
            if s and not s.startswith('//'):
                n += 1
    return n


def round5(x):
    return int(-(-x // 5) * 5)


def effort(root, ex, dirs):
    """(minutes, {'en': how, 'zh': how}) for exercise EX of the book."""
    parts_en, parts_zh, total = [], [], 0
    graded = dirs.get(ex.number, [])
    diff = ex.difficulty or 'medium'
    for ex_id, meta in graded:
        if meta.get('kind') == 'answers':
            n = len(meta['checks'])
            t = EFFORT['answers_base'] + EFFORT['per_answer'] * n
            parts_en.append('%d + %d answers × %d = %d min'
                            % (EFFORT['answers_base'], n, EFFORT['per_answer'], t))
            parts_zh.append('%d + %d 个答案 × %d = %d 分钟'
                            % (EFFORT['answers_base'], n, EFFORT['per_answer'], t))
        else:
            lines = solution_size(root, ex_id, meta)
            t = EFFORT['base'] + EFFORT['per_line'][diff] * lines
            parts_en.append('%d + %d solution lines × %d = %d min'
                            % (EFFORT['base'], lines, EFFORT['per_line'][diff], t))
            parts_zh.append('%d + 参考答案 %d 行 × %d = %d 分钟'
                            % (EFFORT['base'], lines, EFFORT['per_line'][diff], t))
        total += t
    answers_only = graded and all(m.get('kind') == 'answers' for _, m in graded)
    if ex.key is not None and (not answers_only or diff != 'easy'):
        t = EFFORT['written' if graded else 'written_only'][diff]
        parts_en.append('written or measured part (%s): %d min' % (diff, t))
        parts_zh.append('书面或测量部分（%s）：%d 分钟' % (DIFF_ZH.get(diff, diff), t))
        total += t
    elif not graded:
        t = EFFORT['written_only'][diff]
        parts_en.append('not autograded (%s): %d min' % (diff, t))
        parts_zh.append('不自动评分（%s）：%d 分钟' % (DIFF_ZH.get(diff, diff), t))
        total += t
    return round5(total), {'en': '; '.join(parts_en), 'zh': '；'.join(parts_zh)}


# ---------------------------------------------------------------------------
# Tracks

def load_tracks(root=ROOT):
    return json.loads(read(os.path.join(root, 'course', 'tracks.json')))['tracks']


def deck_names(root=ROOT):
    """{chapter label: slide deck stem}, e.g. ch:attention -> 02-attention."""
    out = {}
    for c in chapters(root):
        if c.label and re.search(r'(?m)^\s*%\s*slide', read(os.path.join(root, c.path))):
            out[c.label] = os.path.basename(c.path)[:-3]
    return out


def plan(root=ROOT, build=None):
    """Every track resolved: a list of tracks, each a dict with its weeks,
    each week with readings (numbers and pages in both editions), decks,
    lab, exercises (number, ids, difficulty, minutes, how) and the package."""
    build = build or os.path.join(root, 'build')
    book = Book(build)
    chaps = number_chapters(chapters(root), book)
    by_label = {c.label: c for c in chaps}
    by_number = {ex.number: ex for c in chaps for ex in c.exercises}
    dirs = exercise_dirs(root)
    decks = deck_names(root)
    out = []
    for track in load_tracks(root):
        weeks = track['weeks']
        explicit = {n for w in weeks for n in w.get('exercises', [])}
        last_week = {}                  # chapter label -> last week reading it
        for k, w in enumerate(weeks):
            for r in w['readings']:
                last_week[r['chapter']] = k
        assigned = [list(w.get('exercises', [])) for w in weeks]
        if track.get('all_exercises', track['id'] == '14wk'):
            for c in chaps:
                for ex in c.exercises:
                    if ex.number not in explicit and c.label in last_week:
                        assigned[last_week[c.label]].append(ex.number)
        tw = []
        for k, w in enumerate(weeks):
            readings = []
            for r in w['readings']:
                c = by_label[r['chapter']]
                item = {'chapter': c.number, 'label': c.label,
                        'page': {l: book.page(c.label, l) for l in ('zh', 'en')},
                        'last': {l: book.last_page(c, chaps, l) for l in ('zh', 'en')},
                        'sections': []}
                if r['sections'] != 'all':
                    for s in r['sections']:
                        item['sections'].append({
                            l: book.sections(c.number, l).get(s, ('%s.%d' % (c.number, s), '??', '??'))
                            for l in ('zh', 'en')})
                readings.append(item)
            exs = []
            for num in assigned[k]:
                ex = by_number.get(num)
                if ex is None:
                    raise SystemExit('course/tracks.json: track %s week %d: no exercise %s in the book'
                                     % (track['id'], k + 1, num))
                minutes, how = effort(root, ex, dirs)
                exs.append({'number': num, 'ids': [i for i, _ in dirs.get(num, [])],
                            'difficulty': ex.difficulty, 'minutes': minutes, 'how': how,
                            'keyed': ex.key is not None})
            ids = [i for e in exs for i in e['ids']]
            # a week that lets each student choose one exercise costs the longest of them
            each = [e['minutes'] for e in exs]
            total = (max(each) if w.get('choose_one') else sum(each)) if each else 0
            tw.append({'week': k + 1, 'readings': readings, 'minutes': total,
                       'choose_one': bool(w.get('choose_one')),
                       'decks': [decks[d] for d in w['decks'] if d in decks],
                       'lab': w['lab'], 'exercises': exs,
                       'package': ('%s-week%d.zip' % (track['id'], k + 1)) if ids else None,
                       'package_ids': ids})
        out.append({'id': track['id'], 'title': track['title'], 'audience': track['audience'],
                    'weeks': tw})
    return out, book


def reading_text(r, lang):
    """'Chapter 2, §2.1 (p. 23), ...' in one language."""
    if not r['sections']:
        first, last = r['page'][lang], r['last'][lang]
        pages = ('第 %s--%s 页' % (first, last) if lang == 'zh' else 'pp. %s--%s' % (first, last)) \
            if first.isdigit() and last else ('第 %s 页起' % first if lang == 'zh' else 'from p. %s' % first)
        pages = pages.replace('--', '–')
        if lang == 'zh':
            name = ('第 %s 章' % r['chapter']) if r['chapter'][:1].isdigit() else \
                ('附录 %s' % r['chapter'] if r['chapter'] else '前言')
            return '%s（%s）' % (name, pages)
        name = ('Chapter %s' % r['chapter']) if r['chapter'][:1].isdigit() else \
            ('Appendix %s' % r['chapter'] if r['chapter'] else 'the preface')
        return '%s (%s)' % (name, pages)
    secs = ['§%s（第 %s 页）' % (s['zh'][0], s['zh'][2]) if lang == 'zh'
            else '§%s (p. %s)' % (s['en'][0], s['en'][2]) for s in r['sections']]
    return ('、' if lang == 'zh' else ', ').join(secs)


def minutes_text(m, lang):
    return ('约 %d 分钟' % m) if lang == 'zh' else ('about %d min' % m)


def total_text(week, lang):
    """The week's exercises in all, as its README and the instructor's guide say it."""
    m = week['minutes']
    if week['choose_one']:
        low = min(e['minutes'] for e in week['exercises'])
        return ('本周练习：每人选做一题，约 %d 至 %d 分钟，视所选的题而定。' if lang == 'zh' else
                "This week's exercises: each student takes one, about %d to %d min "
                "depending on the choice.") % (low, m)
    hours = ('%d 小时 %d 分钟' % divmod(m, 60) if m % 60 else '%d 小时' % (m // 60)) if lang == 'zh' \
        else ('%d h %d min' % divmod(m, 60) if m % 60 else '%d h' % (m // 60))
    return ('本周练习合计约 %d 分钟（%s）。' if lang == 'zh' else
            "This week's exercises in all: about %d min (%s).") % (m, hours)


def week_readme(track, week, quiz=()):
    """README.md of one week's folder, in both languages; QUIZ: the week's
    files from build/quiz/ (linked under quiz/)."""
    L = []
    for lang in ('zh', 'en'):
        if lang == 'zh':
            L.append('# %s · 第 %d 周\n' % (track['title']['zh'], week['week']))
            L.append('## 阅读（页码为中文版 book-zh.pdf 的页码）\n')
        else:
            L.append('# %s · week %d\n' % (track['title']['en'], week['week']))
            L.append('## Readings (pages of the English edition, book-en.pdf)\n')
        for r in week['readings']:
            L.append('- ' + reading_text(r, lang))
        if not week['readings']:
            L.append('- ' + ('无新的阅读。' if lang == 'zh' else 'No new reading.'))
        L.append('')
        L.append('## 讲课幻灯片\n' if lang == 'zh' else '## Lecture decks\n')
        for d in week['decks']:
            L.append('- `decks/%s-%s.pdf`' % (d, lang))
        if not week['decks']:
            L.append('- —')
        L.append('')
        L.append('## 实验\n' if lang == 'zh' else '## Lab\n')
        L.append(week['lab'][lang] + '\n')
        L.append('## 练习\n' if lang == 'zh' else '## Exercises\n')
        for e in week['exercises']:
            diff = DIFF_ZH.get(e['difficulty'], e['difficulty']) if lang == 'zh' else e['difficulty']
            ids = ', '.join('`%s`' % i for i in e['ids']) or (
                '书面，由教师批改' if lang == 'zh' else 'written, marked by hand')
            L.append(('- 练习 %s（%s）：%s — %s（估算：%s）' if lang == 'zh' else
                      '- Exercise %s (%s): %s — %s (estimate: %s)') % (
                e['number'], diff, ids, minutes_text(e['minutes'], lang), e['how'][lang]))
        if not week['exercises']:
            L.append('- —')
        else:
            L.append('\n' + total_text(week, lang))
        L.append('')
        L.append('## Gradescope\n')
        if week['package']:
            L.append(('本周发布 `gradescope/%s`（自动评分：%s）。\n' if lang == 'zh' else
                      'Publish `gradescope/%s` this week (autograded: %s).\n')
                     % (week['package'], ', '.join(week['package_ids'])))
        else:
            L.append('本周没有要发布的评分包。\n' if lang == 'zh' else 'No package this week.\n')
        L.append('## 小测验\n' if lang == 'zh' else '## Quiz\n')
        for q in quiz:
            L.append('- `quiz/%s`' % q.replace(os.sep, '-'))
        if not quiz:
            L.append('- ' + ('没有生成小测验（build/quiz/ 不存在，或其中没有本周各章的文件）。' if lang == 'zh'
                             else 'No quiz was built (no build/quiz/, or nothing there for this week\'s chapters).'))
        L.append('')
    L.append('---\n')
    L.append(EFFORT_TEXT['zh'] + '\n')
    L.append(EFFORT_TEXT['en'] + '\n')
    return '\n'.join(L)


def print_plan(tracks, which=None):
    for t in tracks:
        if which and t['id'] != which:
            continue
        print('== %s: %s' % (t['id'], t['title']['en']))
        for w in t['weeks']:
            total = w['minutes']
            print('week %d: %s' % (w['week'], '; '.join(reading_text(r, 'en') for r in w['readings'])))
            print('   decks %s; exercises %s (%d min); package %s' % (
                ', '.join(w['decks']) or '-',
                ', '.join('%s %dmin' % (e['number'], e['minutes']) for e in w['exercises']) or '-',
                total, w['package'] or '-'))


# ---------------------------------------------------------------------------
# Gradescope, one package per week

def gradescope_weeks(root=ROOT, tracks=None):
    tracks = tracks or plan(root)[0]
    dest = os.path.join(root, 'build', 'gradescope')
    os.makedirs(dest, exist_ok=True)
    made = []
    for t in tracks:
        for w in t['weeks']:
            if w['package']:
                path = os.path.join(dest, w['package'])
                grade_release.gradescope(root, ','.join(w['package_ids']), path)
                made.append(path)
    return made


# ---------------------------------------------------------------------------
# The instructor's PDF: tracks, keys and rubrics, both languages

PREAMBLE = r"""\def\bookedition{bilingual}
\documentclass[fontset=none,zihao=5,oneside]{ctexbook}
\usepackage{attnbook}
\usepackage{longtable}
\newenvironment{answerkey}{\par\medskip\noindent\colorbox{black!6}{\textbf{答案要点与评分标准 / Key and rubric}}\par}{\par\medskip}
\newcommand{\exhead}[1]{\par\bigskip\noindent{\large\bfseries #1}\par\nopagebreak}
\begin{document}
\frontmatter
\begin{center}
{\Huge 教师用书 / Instructor's companion\par}\bigskip
{\Large 课程安排、答案要点与评分标准\par Tracks, answer keys and rubrics\par}\bigskip
{\large 《注意力机制：从公式到 C 代码》 / \emph{Attention, from Equations to C}\par}\bigskip
\end{center}
\noindent 本册只发给教师：学生版、Gradescope 评分包、三种 PDF、网页版和幻灯片里都没有这些答案要点。\par
\noindent {\color{entext}For instructors only: the keys in this booklet are in none of the student
release, the Gradescope packages, the three PDFs, the web edition or the slides.}\par
\tableofcontents
\mainmatter
"""


def tex_escape(s):
    return (s.replace('\\', r'\textbackslash{}').replace('_', r'\_').replace('#', r'\#')
            .replace('%', r'\%').replace('&', r'\&').replace('^', r'\^{}').replace('$', r'\$'))


def tracks_tex(tracks):
    out = [r'\chapter{课程安排 / Tracks}']
    out += [r'\begin{zh}', EFFORT_TEXT['zh'], r'\end{zh}', r'\begin{en}', EFFORT_TEXT['en'], r'\end{en}']
    for t in tracks:
        out.append(r'\section{%s / %s}' % (t['title']['zh'], t['title']['en']))
        out += [r'\begin{zh}', t['audience']['zh'], r'\end{zh}',
                r'\begin{en}', t['audience']['en'], r'\end{en}']
        for w in t['weeks']:
            out.append(r'\subsection*{第 %d 周 / Week %d}' % (w['week'], w['week']))
            out.append(r'\begin{itemize}')
            out.append(r'\item \textbf{阅读 / Readings:} ' + tex_escape('；'.join(
                reading_text(r, 'zh') for r in w['readings']) or '—') + r'\\ {\color{entext}' +
                tex_escape('; '.join(reading_text(r, 'en') for r in w['readings']) or '—') + '}')
            out.append(r'\item \textbf{幻灯片 / Decks:} ' + (', '.join(
                r'\texttt{%s-\{zh,en\}.pdf}' % tex_escape(d) for d in w['decks']) or '—'))
            out.append(r'\item \textbf{实验 / Lab:} ' + tex_escape(w['lab']['zh']) +
                       r'\\ {\color{entext}' + tex_escape(w['lab']['en']) + '}')
            exs = []
            for e in w['exercises']:
                ids = ', '.join(r'\texttt{%s}' % tex_escape(i) for i in e['ids']) or '书面 / written'
                exs.append(r'%s (%s / %s; %s): %d min \emph{(%s)}' % (
                    e['number'], DIFF_ZH.get(e['difficulty'], '?'), e['difficulty'], ids,
                    e['minutes'], tex_escape(e['how']['en'])))
            out.append(r'\item \textbf{练习 / Exercises:} ' + ('; '.join(exs) or '—'))
            if exs:
                out.append(r'\item \textbf{合计 / In all:} ' + tex_escape(total_text(w, 'zh')) +
                           r'\\ {\color{entext}' + tex_escape(total_text(w, 'en')) + '}')
            out.append(r'\item \textbf{Gradescope:} ' + (
                r'\texttt{%s} (%s)' % (tex_escape(w['package']), tex_escape(', '.join(w['package_ids'])))
                if w['package'] else '—'))
            out.append(r'\end{itemize}')
    return '\n'.join(out)


def keys_nw(root, book, chaps):
    """The keyed exercises as a documentation-only noweb file."""
    out = ['@', r'\chapter{答案要点与评分标准 / Answer keys and rubrics}']
    for c in chaps:
        keyed = [ex for ex in c.exercises if ex.key is not None]
        if not keyed:
            continue
        name = ('第 %s 章 / Chapter %s' % (c.number, c.number)) if c.number[:1].isdigit() \
            else ('附录 %s / Appendix %s' % (c.number, c.number))
        out.append(r'\section*{%s}\addcontentsline{toc}{section}{%s}' % (name, name))
        for ex in keyed:
            out.append(r'\exhead{练习 %s（%s）/ Exercise %s (%s)\hfill\normalfont\small'
                       r' 练习一节：中文版第 %s 页 / Exercises: p.~%s (en)}'
                       % (ex.number, DIFF_ZH.get(ex.difficulty, ''), ex.number, ex.difficulty,
                          c.ex_page['zh'], c.ex_page['en']))
            out.append(resolve(ex.body, root, book))
            out.append(r'\begin{answerkey}')
            out.append(resolve(ex.key, root, book))
            out.append(r'\end{answerkey}')
    return '\n'.join(out) + '\n'


def exercises_pages(chaps, book):
    """The page where each chapter's Exercises section starts, in each edition."""
    for c in chaps:
        c.ex_page = {}
        for lang in ('zh', 'en'):
            secs = book.sections(c.number, lang)
            c.ex_page[lang] = secs[max(secs)][2] if secs else '??'


def instructor_pdf(root, tracks, book, dest):
    chaps = number_chapters(chapters(root), book)
    exercises_pages(chaps, book)
    work = os.path.join(root, 'build', 'instructor-tex')
    os.makedirs(work, exist_ok=True)
    write_if_changed(os.path.join(work, 'keys.nw'), keys_nw(root, book, chaps))
    woven = subprocess.run(['noweave', '-n', os.path.join(work, 'keys.nw')], check=True,
                           capture_output=True, text=True).stdout
    tex = PREAMBLE + tracks_tex(tracks) + '\n' + woven + '\n\\end{document}\n'
    write_if_changed(os.path.join(work, 'instructor.tex'), tex)
    # latexmk, as for the book (tools/latex.sh); attnbook.sty reads
    # build/bookmeta.tex (book.toml as TeX; make makes it)
    r = subprocess.run([os.path.join(TOOLS, 'latex.sh'), work, 'instructor'],
                       env=dict(os.environ, LATEX_INPUTS=os.path.join(root, 'build')),
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit('course: %s' % r.stderr.strip())
    print(r.stdout, end='')         # latex.sh's one line: how many XeLaTeX runs
    shutil.copyfile(os.path.join(work, 'instructor.pdf'), dest)


def quiz_files(root, week_decks):
    """Files of build/quiz/ (helper `quiz`'s output) that belong to the week's
    chapters: their names hold the deck's stem (02-attention) or chNN."""
    qdir = os.path.join(root, 'build', 'quiz')
    out = []
    if not os.path.isdir(qdir):
        return out
    for path in sorted(glob.glob(os.path.join(qdir, '**', '*'), recursive=True)):
        if not os.path.isfile(path):
            continue
        name = os.path.relpath(path, qdir)
        for d in week_decks:
            if d in name or ('ch' + d[:2]) in name:
                out.append(name)
                break
    return out


def instructor(root=ROOT):
    tracks, book = plan(root)
    if not book.ok:
        raise SystemExit('course: build/book-en.aux or .toc is missing: run make first')
    for c in number_chapters(chapters(root)):
        if c.label and c.number != book.number(c.label) and c.number:
            raise SystemExit('course: %s is Chapter %s in the book, not %s'
                             % (c.path, book.number(c.label), c.number))
    build = os.path.join(root, 'build')
    dest = os.path.join(build, 'instructor')
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    instructor_pdf(root, tracks, book, os.path.join(dest, 'instructor.pdf'))
    packages = gradescope_weeks(root, tracks)
    os.makedirs(os.path.join(dest, 'gradescope'))
    for p in packages:
        shutil.copyfile(p, os.path.join(dest, 'gradescope', os.path.basename(p)))
    shutil.copyfile(os.path.join(build, 'gradescope.zip'), os.path.join(dest, 'gradescope', 'all.zip')) \
        if os.path.exists(os.path.join(build, 'gradescope.zip')) else None
    slides = os.path.join(build, 'slides')
    os.makedirs(os.path.join(dest, 'slides'))
    for pdf in sorted(glob.glob(os.path.join(slides, '*.pdf'))):
        shutil.copyfile(pdf, os.path.join(dest, 'slides', os.path.basename(pdf)))
    if os.path.isdir(os.path.join(build, 'quiz')):
        # the banks and the printable quizzes, not XeLaTeX's working files
        shutil.copytree(os.path.join(build, 'quiz'), os.path.join(dest, 'quiz'),
                        ignore=shutil.ignore_patterns(*QUIZ_SCRATCH))
    for t in tracks:
        for w in t['weeks']:
            wd = os.path.join(dest, 'tracks', t['id'], 'week%d' % w['week'])
            os.makedirs(os.path.join(wd, 'decks'))
            write_if_changed(os.path.join(wd, 'README.md'),
                             week_readme(t, w, quiz_files(root, w['decks'])))
            for d in w['decks']:
                for lang in ('zh', 'en'):
                    os.symlink(os.path.join('..', '..', '..', '..', 'slides', '%s-%s.pdf' % (d, lang)),
                               os.path.join(wd, 'decks', '%s-%s.pdf' % (d, lang)))
            if w['package']:
                os.makedirs(os.path.join(wd, 'gradescope'))
                os.symlink(os.path.join('..', '..', '..', '..', 'gradescope', w['package']),
                           os.path.join(wd, 'gradescope', w['package']))
            q = quiz_files(root, w['decks'])
            if q:
                os.makedirs(os.path.join(wd, 'quiz'))
                for name in q:
                    link = os.path.join(wd, 'quiz', name.replace(os.sep, '-'))
                    os.symlink(os.path.join('..', '..', '..', '..', 'quiz', name), link)
    with open(os.path.join(dest, 'tracks.json'), 'w', encoding='utf-8') as f:
        json.dump(tracks, f, ensure_ascii=False, indent=1)
    write_if_changed(os.path.join(dest, 'README.md'), INSTRUCTOR_README)
    tarball = os.path.join(build, 'instructor.tar.gz')
    grade_release.write_tarball(tarball, dest, 'attention-instructor')
    return dest, tarball, tracks


INSTRUCTOR_README = """\
# Instructor release · 教师版

- `instructor.pdf` — the tracks (4, 8 and 14 weeks) and the answer keys and
  rubrics of every exercise part the autograder does not grade, in Chinese
  and English. 课程安排（四周、八周、十四周）以及自动评分程序不评的各部分的答案要点与评分标准，中英文。
- `tracks/TRACK/weekN/` — one folder per week: `README.md` (readings with
  pages in both editions, lab, exercises with expected times, the package to
  publish), `decks/` (the week's slides), `gradescope/` (that week's
  autograder zip), `quiz/` (if the quiz banks were built).
  每周一个文件夹：阅读（两种版本的页码）、实验、练习及预计用时、本周发布的评分包、幻灯片、小测验。
- `gradescope/` — every week's package, and `all.zip` with every exercise.
- `slides/` — every chapter's deck in both languages.
- `quiz/` — the quiz banks (helper `quiz`), when `build/quiz/` exists.
- `tracks.json` — the same plan, machine-readable.

Keep this release away from students: it holds the keys.
本版本含答案要点，请勿发给学生。
"""


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ''
    if cmd == 'plan':
        print_plan(plan()[0], argv[2] if len(argv) > 2 else None)
    elif cmd == 'gradescope-weeks':
        made = gradescope_weeks()
        print('  ZIP      build/gradescope/ (%d packages, one per week and track)' % len(made))
    elif cmd == 'instructor':
        dest, tarball, tracks = instructor()
        print('  INSTR    %s/ and %s' % (os.path.relpath(dest, ROOT), os.path.relpath(tarball, ROOT)))
    elif cmd == 'keys':
        for c in chapters():
            for ex in c.exercises:
                if ex.key is not None:
                    print('%s:%d\t%s\t%s' % (c.path, ex.key_line, marker(ex.key, 'en'),
                                             marker(ex.key, 'zh')))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

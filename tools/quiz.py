#!/usr/bin/python3
r"""Reading quizzes and exam question banks, one source per chapter.

quizzes/chNN.toml holds a chapter's questions in Chinese and English.  Every
number an answer needs is read from what a chapter program prints, during the
build, never typed by hand:

    [values.w11]                        # a value, read from a program's output
    run = "ch02-attention"              # build/bin/PROGRAM ARGS, run in LC_ALL=C.UTF-8
    pattern = 'the\s+(\S+)'             # a regular expression (re.M), group 1
    [values.total]                      # or a value computed from other values
    expr = "w11 * 2"

Text may use {{EXPR}} or {{EXPR|FORMAT}}: EXPR is a value's name or an
arithmetic expression over values; FORMAT a Python format spec (",", ".3f").
A bare name prints the value as the program printed it.  Markup in text:
$...$ for mathematics (LaTeX), `...` for code, a paragraph whose lines all start
with four spaces for verbatim lines (program output), a blank line between
paragraphs.

A question:

    [[q]]
    id = "ch02-r01"
    set = "reading"          # reading (the reading quiz) or exam (the bank)
    type = "numeric"         # mc, tf, numeric, short, essay
    zh = "..."               # the question, each language
    en = "..."
    answer = "EXPR"          # numeric: the answer, tol = absolute tolerance
    tol = 0.0005
    # mc:     choices = [{zh="..", en="..", correct=true}, ...]
    # tf:     answer = true / false, or "EXPR" comparing values (its truth
    #         follows the programs' output: "lo <= 64 and 64 <= hi")
    # short:  accept = ["111110"] (exact strings)
    # essay:  key.zh, key.en  (the model answer; every type may have a key)

Commands:
  quiz.py check QUIZ.toml...             parse and validate; no programs run
  quiz.py values --bin DIR --out JSON QUIZ.toml...
                                          run the programs, write every value
  quiz.py export --values JSON --out DIR QUIZ.toml...
                                          write GIFT, Canvas QTI zips, Gradescope
                                          Markdown and the LaTeX for print
Bad input: one line on stderr naming the file (and line), exit status 2.
"""
import ast
import hashlib
import html
import json
import operator
import os
import re
import subprocess
import sys
import tomllib
import zipfile
import xml.etree.ElementTree as ET

LANGS = ('zh', 'en')
SETS = ('reading', 'exam')
TYPES = ('mc', 'tf', 'numeric', 'short', 'essay')
SET_NAME = {'reading': {'zh': '阅读测验', 'en': 'Reading quiz'},
            'exam': {'zh': '考试题库', 'en': 'Exam question bank'}}
TYPE_NAME = {'mc': {'zh': '单选', 'en': 'multiple choice'},
             'tf': {'zh': '判断', 'en': 'true or false'},
             'numeric': {'zh': '数值', 'en': 'numeric'},
             'short': {'zh': '填空', 'en': 'short answer'},
             'essay': {'zh': '简答', 'en': 'written answer'}}
WORDS = {
    'zh': {'chapter': '第 {n} 章', 'answers': '答案', 'true': '对', 'false': '错',
           'tol': '允许误差 ±{t}', 'accept': '接受的答案', 'key': '参考答案',
           'title': '测验与题库', 'answer': '答案', 'questions': '题目',
           'colon': '：', 'paren': '（%s）'},
    'en': {'chapter': 'Chapter {n}', 'answers': 'Answers', 'true': 'True',
           'false': 'False', 'tol': 'tolerance ±{t}', 'accept': 'accepted answers',
           'key': 'Model answer', 'title': 'Quizzes and question bank',
           'answer': 'Answer', 'questions': 'Questions', 'colon': ': ', 'paren': ' (%s)'},
}


class QuizError(Exception):
    pass


def where(path, text, needle):
    """file:line of the first line holding needle (for messages)."""
    for n, line in enumerate(text.split('\n'), 1):
        if needle in line:
            return '%s:%d' % (path, n)
    return path


#### Loading and checking ###################################################

def load(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r'line (\d+)', str(e))
        raise QuizError('%s:%s: %s' % (path, m.group(1) if m else '?', e))
    m = re.match(r'ch(\d\d)\.toml$', os.path.basename(path))
    if not m:
        raise QuizError('%s: a quiz file is named chNN.toml' % path)
    quiz = {'path': path, 'chapter': int(m.group(1)), 'text': text,
            'title': data.get('title', {}), 'values': data.get('values', {}),
            'questions': data.get('q', [])}
    validate(quiz)
    return quiz


def names_in(expr):
    try:
        tree = ast.parse(expr, mode='eval')
    except SyntaxError:
        return None
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def check_answer_expr(loc, qid, expr, values):
    """An answer computed from the values: it must name one, and only defined ones."""
    used = names_in(expr)
    if used is None or not used:
        raise QuizError('%s: %s: the answer %r names no value read from a program' % (loc, qid, expr))
    for u in used - set(values) - set(FUNCS):
        raise QuizError('%s: %s: the answer uses %s, which is not defined' % (loc, qid, u))


def placeholders(s):
    return [m.group(1).split('|')[0].strip() for m in re.finditer(r'\{\{(.+?)\}\}', s)]


def validate(quiz):
    path, text = quiz['path'], quiz['text']
    for lang in LANGS:
        if not isinstance(quiz['title'].get(lang), str) or not quiz['title'][lang].strip():
            raise QuizError('%s: [title] needs %s' % (path, lang))
    values = quiz['values']
    for name, v in values.items():
        loc = where(path, text, '[values.%s]' % name)
        if not re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', name):
            raise QuizError('%s: value name %r is not an identifier' % (loc, name))
        if ('run' in v) == ('expr' in v):
            raise QuizError('%s: value %s needs run and pattern, or expr' % (loc, name))
        if 'run' in v:
            if 'pattern' not in v:
                raise QuizError('%s: value %s has run but no pattern' % (loc, name))
            try:
                rx = re.compile(v['pattern'], re.M)
            except re.error as e:
                raise QuizError('%s: value %s: bad pattern: %s' % (loc, name, e))
            if rx.groups < 1:
                raise QuizError('%s: value %s: the pattern has no group' % (loc, name))
        else:
            used = names_in(v['expr'])
            if used is None:
                raise QuizError('%s: value %s: bad expression %r' % (loc, name, v['expr']))
            for u in used - set(values) - set(FUNCS):
                raise QuizError('%s: value %s uses %s, which is not defined' % (loc, name, u))
    seen = set()
    counts = {s: 0 for s in SETS}
    for q in quiz['questions']:
        qid = q.get('id')
        loc = where(path, text, 'id = "%s"' % qid) if qid else path
        if not qid or not re.fullmatch(r'ch\d\d-[a-z0-9-]+', qid):
            raise QuizError('%s: a question needs an id like "ch02-r01"' % loc)
        if qid in seen:
            raise QuizError('%s: question id %s is used twice' % (loc, qid))
        seen.add(qid)
        if q.get('set') not in SETS:
            raise QuizError('%s: %s: set must be one of %s' % (loc, qid, ', '.join(SETS)))
        counts[q['set']] += 1
        t = q.get('type')
        if t not in TYPES:
            raise QuizError('%s: %s: type must be one of %s' % (loc, qid, ', '.join(TYPES)))
        strings = []
        for lang in LANGS:
            s = q.get(lang)
            if not isinstance(s, str) or not s.strip():
                raise QuizError('%s: %s has no %s text' % (loc, qid, 'Chinese' if lang == 'zh' else 'English'))
            strings.append(s)
        key = q.get('key', {})
        if key or t == 'essay':
            for lang in LANGS:
                if not isinstance(key.get(lang), str) or not key[lang].strip():
                    raise QuizError('%s: %s: key.%s (the model answer) is missing' % (loc, qid, lang))
                strings.append(key[lang])
        if t == 'mc':
            choices = q.get('choices', [])
            if len(choices) < 2:
                raise QuizError('%s: %s: a multiple-choice question needs two choices or more' % (loc, qid))
            if sum(1 for c in choices if c.get('correct')) != 1:
                raise QuizError('%s: %s: exactly one choice must be correct' % (loc, qid))
            for c in choices:
                for lang in LANGS:
                    if not isinstance(c.get(lang), str) or not c[lang].strip():
                        raise QuizError('%s: %s: a choice has no %s text' % (loc, qid, lang))
                    strings.append(c[lang])
        elif t == 'tf':
            a = q.get('answer')
            if isinstance(a, str):
                check_answer_expr(loc, qid, a, values)
            elif not isinstance(a, bool):
                raise QuizError('%s: %s: answer = true or false, or "EXPR" comparing values'
                                % (loc, qid))
        elif t == 'numeric':
            a = q.get('answer')
            if not isinstance(a, str):
                raise QuizError('%s: %s: answer = "EXPR" over the values (a number is never typed)' % (loc, qid))
            check_answer_expr(loc, qid, a, values)
            if not isinstance(q.get('tol', 0), (int, float)) or q.get('tol', 0) < 0:
                raise QuizError('%s: %s: tol must be a number >= 0' % (loc, qid))
        elif t == 'short':
            acc = q.get('accept')
            if not acc or not all(isinstance(a, str) and a for a in acc):
                raise QuizError('%s: %s: accept = ["..."] lists the accepted answers' % (loc, qid))
            strings.extend(acc)
        for s in strings:
            for p in placeholders(s):
                used = names_in(p)
                if used is None:
                    raise QuizError('%s: %s: bad placeholder {{%s}}' % (loc, qid, p))
                for u in used - set(values) - set(FUNCS):
                    raise QuizError('%s: %s: {{%s}} uses %s, which is not defined' % (loc, qid, p, u))
            if s.count('$') % 2:
                raise QuizError('%s: %s: an odd number of $ in %r' % (loc, qid, s[:40]))
            outside = re.sub(r'\$[^$]*\$|`[^`]*`', '', s)
            if '\\' in outside:
                raise QuizError('%s: %s: a backslash outside $...$ (LaTeX belongs in '
                                'mathematics; code in `...`): %r' % (loc, qid, s[:40]))
    if counts['reading'] < 10:
        raise QuizError('%s: the reading quiz has %d questions; it needs 10 or more'
                        % (path, counts['reading']))
    if counts['exam'] < 3:
        raise QuizError('%s: the exam bank has %d questions; it needs 3 or more' % (path, counts['exam']))


#### Values: read from the programs ##########################################

FUNCS = {'abs': abs, 'round': round, 'min': min, 'max': max, 'int': int,
         'sqrt': lambda x: x ** 0.5}
CMPS = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
        ast.GtE: operator.ge}
OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
       ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv,
       ast.Pow: operator.pow, ast.Mod: operator.mod, ast.USub: operator.neg,
       ast.UAdd: operator.pos}


def number(s):
    s = s.replace(',', '')
    try:
        return int(s)
    except ValueError:
        return float(s)


def evaluate(expr, env):
    """Arithmetic over the values (names, numbers, + - * / // % **, a few
    functions); comparisons (< <= > >=, chained) joined by and, or, not."""
    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)):
            return n.value
        if isinstance(n, ast.Name):
            if n.id not in env:
                raise QuizError('no value %s' % n.id)
            return number(env[n.id]) if isinstance(env[n.id], str) else env[n.id]
        if isinstance(n, ast.BinOp) and type(n.op) in OPS:
            return OPS[type(n.op)](ev(n.left), ev(n.right))
        if isinstance(n, ast.UnaryOp) and type(n.op) in OPS:
            return OPS[type(n.op)](ev(n.operand))
        if isinstance(n, ast.Compare) and all(type(o) in CMPS for o in n.ops):
            left = ev(n.left)
            for o, c in zip(n.ops, n.comparators):
                right = ev(c)
                if not CMPS[type(o)](left, right):
                    return False
                left = right
            return True
        if isinstance(n, ast.BoolOp):
            vals = [bool(ev(v)) for v in n.values]
            return all(vals) if isinstance(n.op, ast.And) else any(vals)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return not ev(n.operand)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in FUNCS:
            return FUNCS[n.func.id](*[ev(a) for a in n.args])
        raise QuizError('not allowed in an expression: %s' % ast.dump(n)[:60])
    return ev(ast.parse(expr, mode='eval'))


def run_values(quizzes, bindir, env_extra=None):
    """Run each distinct command once; return {chapter: {name: printed string}}."""
    outputs = {}
    result = {}
    env = dict(os.environ, LC_ALL='C.UTF-8')
    for quiz in quizzes:
        vals = {}
        for name, v in quiz['values'].items():
            if 'run' not in v:
                continue
            cmd = v['run']
            if cmd not in outputs:
                argv = cmd.split()
                prog = os.path.join(bindir, argv[0])
                try:
                    p = subprocess.run([prog] + argv[1:], capture_output=True, text=True,
                                       env=env, timeout=300)
                except OSError as e:
                    raise QuizError('%s: %s: %s' % (where(quiz['path'], quiz['text'], cmd), prog, e))
                if p.returncode != 0:
                    raise QuizError('%s: `%s` exited with %d: %s'
                                    % (where(quiz['path'], quiz['text'], cmd), cmd,
                                       p.returncode, p.stderr.strip()[:200]))
                outputs[cmd] = p.stdout
            m = re.search(v['pattern'], outputs[cmd], re.M)
            if not m:
                raise QuizError("%s: value %s: `%s` printed nothing that matches %r"
                                % (where(quiz['path'], quiz['text'], '[values.%s]' % name),
                                   name, cmd, v['pattern']))
            vals[name] = m.group(v.get('group', 1))
        # Derived values, in an order that respects their uses.
        todo = {n: v['expr'] for n, v in quiz['values'].items() if 'expr' in v}
        while todo:
            ready = [n for n, e in todo.items() if names_in(e) - set(FUNCS) <= set(vals)]
            if not ready:
                raise QuizError('%s: values %s depend on each other' % (quiz['path'], ', '.join(todo)))
            for n in ready:
                vals[n] = evaluate(todo.pop(n), vals)
        result['%02d' % quiz['chapter']] = vals
    return result


#### Text: one light markup, four renderings #################################

def fmt(value, spec=None):
    if isinstance(value, str) and spec is None:
        return value
    v = number(value) if isinstance(value, str) else value
    if spec:
        return format(v, spec)
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    if isinstance(v, float):
        return '%.6g' % v
    return str(v)


def substitute(s, vals):
    def one(m):
        expr, _, spec = m.group(1).partition('|')
        expr = expr.strip()
        if re.fullmatch(r'[A-Za-z_]\w*', expr) and not spec:
            return fmt(vals[expr])
        return fmt(evaluate(expr, vals), spec.strip() or None)
    return re.sub(r'\{\{(.+?)\}\}', one, s)


def blocks(s):
    """Split text into ('p', text) and ('pre', text) blocks."""
    out = []
    for para in re.split(r'\n\s*\n', s.strip('\n')):
        lines = para.split('\n')
        if all(l.startswith('    ') for l in lines):
            out.append(('pre', '\n'.join(l[4:] for l in lines)))
        else:
            out.append(('p', ' '.join(l.strip() for l in lines) if not re.search(r'[\u4e00-\u9fff]', para)
                        else ''.join(l.strip() for l in lines)))
    return out


def spans(s):
    """Split a paragraph into ('text'|'math'|'code', str) pieces."""
    out = []
    for m in re.finditer(r'(\$[^$]+\$)|(`[^`]+`)|([^$`]+)', s):
        if m.group(1):
            out.append(('math', m.group(1)[1:-1]))
        elif m.group(2):
            out.append(('code', m.group(2)[1:-1]))
        else:
            out.append(('text', m.group(3)))
    return out


def to_html(s):
    parts = []
    for kind, b in blocks(s):
        if kind == 'pre':
            parts.append('<pre>%s</pre>' % html.escape(b, quote=False))
            continue
        p = []
        for k, t in spans(b):
            if k == 'math':
                p.append('\\(%s\\)' % html.escape(t, quote=False))
            elif k == 'code':
                p.append('<code>%s</code>' % html.escape(t, quote=False))
            else:
                p.append(html.escape(t, quote=False))
        parts.append('<p>%s</p>' % ''.join(p))
    return ''.join(parts)


def to_markdown(s):
    parts = []
    for kind, b in blocks(s):
        if kind == 'pre':
            parts.append('```\n%s\n```' % b)
        else:
            parts.append(''.join('$%s$' % t if k == 'math' else '`%s`' % t if k == 'code' else t
                                 for k, t in spans(b)))
    return '\n\n'.join(parts)


TEX_SPECIAL = {'\\': r'\textbackslash{}', '&': r'\&', '%': r'\%', '#': r'\#', '_': r'\_',
               '{': r'\{', '}': r'\}', '~': r'\textasciitilde{}', '^': r'\textasciicircum{}'}


def tex_escape(t):
    return ''.join(TEX_SPECIAL.get(c, c) for c in t)


def to_tex(s):
    parts = []
    for kind, b in blocks(s):
        if kind == 'pre':
            parts.append('\\begin{quizverbatim}\n%s\n\\end{quizverbatim}' % b)
            continue
        parts.append(''.join('$%s$' % t if k == 'math' else
                             '\\texttt{%s}' % tex_escape(t) if k == 'code' else tex_escape(t)
                             for k, t in spans(b)))
    return '\n\n'.join(parts)


#### Questions, resolved for one language ###################################

def resolve(quiz, vals, lang):
    out = []
    for q in quiz['questions']:
        r = {'id': q['id'], 'set': q['set'], 'type': q['type'],
             'text': substitute(q[lang], vals)}
        if 'key' in q:
            r['key'] = substitute(q['key'][lang], vals)
        if q['type'] == 'mc':
            r['choices'] = [(substitute(c[lang], vals), bool(c.get('correct')))
                            for c in q['choices']]
        elif q['type'] == 'tf':
            a = q['answer']
            r['answer'] = bool(evaluate(a, vals)) if isinstance(a, str) else a
        elif q['type'] == 'numeric':
            v = evaluate(q['answer'], vals)
            r['answer'] = v
            r['answer_text'] = fmt(v) if not re.fullmatch(r'[A-Za-z_]\w*', q['answer']) \
                else fmt(vals[q['answer']])
            r['tol'] = q.get('tol', 0)
        elif q['type'] == 'short':
            r['accept'] = [substitute(a, vals) for a in q['accept']]
        out.append(r)
    return out


def answer_line(r, lang):
    w = WORDS[lang]
    if r['type'] == 'mc':
        letter = 'ABCDEFGH'[[c for _, c in r['choices']].index(True)]
        return letter + w['paren'] % r['choices'][[c for _, c in r['choices']].index(True)][0]
    if r['type'] == 'tf':
        return w['true'] if r['answer'] else w['false']
    if r['type'] == 'numeric':
        return r['answer_text'] + ('' if not r['tol'] else w['paren'] % w['tol'].format(t=fmt(r['tol'])))
    if r['type'] == 'short':
        return ' | '.join(r['accept'])
    return ''


#### GIFT (Moodle) ###########################################################

def gift_escape(t):
    """Moodle's GIFT escapes: \\ for a backslash, then ~ = # { } : each with one."""
    t = t.replace('\\', '\\\\')
    for c in '~=#{}:':
        t = t.replace(c, '\\' + c)
    return t.replace('\n', '\\n')


def gift_num(v):
    return repr(float(v)) if isinstance(v, float) else str(v)


def gift(quiz, rs, lang):
    title = quiz['title'][lang]
    chap = WORDS[lang]['chapter'].format(n=quiz['chapter'])
    lines = ['// %s %s (%s; generated by tools/quiz.py from quizzes/ch%02d.toml)'
             % (chap, title, lang, quiz['chapter']), '']
    for s in SETS:
        lines.append('$CATEGORY: $course$/%s/%s %s/%s' % (
            gift_escape(WORDS[lang]['title']).replace('/', '-'),
            'ch%02d' % quiz['chapter'], gift_escape(title).replace('/', '-'),
            SET_NAME[s][lang]))
        lines.append('')
        for r in (r for r in rs if r['set'] == s):
            stem = '::%s::[html]%s' % (r['id'], gift_escape(to_html(r['text'])))
            fb = (' ####' + gift_escape(to_html(r['key']))) if r.get('key') else ''
            if r['type'] == 'mc':
                body = ' '.join(('=' if c else '~') + gift_escape(to_html(t))
                                for t, c in r['choices'])
                lines.append('%s {\n%s%s\n}' % (stem, body, fb))
            elif r['type'] == 'tf':
                lines.append('%s {%s%s}' % (stem, 'TRUE' if r['answer'] else 'FALSE', fb))
            elif r['type'] == 'numeric':
                tol = ':' + gift_num(r['tol']) if r['tol'] else ''
                lines.append('%s {#%s%s%s}' % (stem, gift_num(r['answer']), tol, fb))
            elif r['type'] == 'short':
                body = ' '.join('=' + gift_escape(a) for a in r['accept'])
                lines.append('%s {%s%s}' % (stem, body, fb))
            else:
                lines.append('%s {%s}' % (stem, fb))
            lines.append('')
    return '\n'.join(lines)


#### Canvas QTI 1.2 ##########################################################

QTI_NS = 'http://www.imsglobal.org/xsd/ims_qtiasiv1p2'
CANVAS_TYPE = {'mc': 'multiple_choice_question', 'tf': 'true_false_question',
               'numeric': 'numerical_question', 'short': 'short_answer_question',
               'essay': 'essay_question'}


def ident(*parts):
    return 'g' + hashlib.sha1('/'.join(parts).encode()).hexdigest()[:24]


def sub(parent, tag, text=None, **attrs):
    e = ET.SubElement(parent, tag, {k.rstrip('_'): str(v) for k, v in attrs.items()})
    if text is not None:
        e.text = text
    return e


def qti_item(section, r, lang, aid):
    item = sub(section, 'item', ident=ident(aid, r['id']), title=r['id'])
    md = sub(sub(item, 'itemmetadata'), 'qtimetadata')
    choices = []
    if r['type'] == 'mc':
        choices = [(ident(aid, r['id'], str(i)), t, c) for i, (t, c) in enumerate(r['choices'])]
    elif r['type'] == 'tf':
        w = WORDS[lang]
        choices = [(ident(aid, r['id'], 't'), w['true'], r['answer']),
                   (ident(aid, r['id'], 'f'), w['false'], not r['answer'])]
    for label, entry in (('question_type', CANVAS_TYPE[r['type']]),
                         ('points_possible', '1.0'),
                         ('original_answer_ids', ','.join(c[0] for c in choices)),
                         ('assessment_question_identifierref', ident(aid, r['id'], 'ref'))):
        f = sub(md, 'qtimetadatafield')
        sub(f, 'fieldlabel', label)
        sub(f, 'fieldentry', entry)
    pres = sub(item, 'presentation')
    sub(sub(pres, 'material'), 'mattext', to_html(r['text']), texttype='text/html')
    if choices:
        rl = sub(pres, 'response_lid', ident='response1', rcardinality='Single')
        rc = sub(rl, 'render_choice')
        for cid, t, _ in choices:
            lab = sub(rc, 'response_label', ident=cid)
            sub(sub(lab, 'material'), 'mattext', to_html(t) if r['type'] == 'mc' else t,
                texttype='text/html' if r['type'] == 'mc' else 'text/plain')
    else:
        rs_ = sub(pres, 'response_str', ident='response1', rcardinality='Single')
        fib = sub(rs_, 'render_fib', **({'fibtype': 'Decimal'} if r['type'] == 'numeric' else {}))
        sub(fib, 'response_label', ident='answer1', **({} if r['type'] == 'numeric' else {'rshuffle': 'No'}))
    proc = sub(item, 'resprocessing')
    sub(sub(proc, 'outcomes'), 'decvar', maxvalue='100', minvalue='0', varname='SCORE',
        vartype='Decimal')
    if r.get('key'):
        cond = sub(proc, 'respcondition', continue_='Yes')
        sub(sub(cond, 'conditionvar'), 'other')
        sub(cond, 'displayfeedback', feedbacktype='Response', linkrefid='general_fb')
    if r['type'] == 'essay':
        cond = sub(proc, 'respcondition', continue_='No')
        sub(sub(cond, 'conditionvar'), 'other')
    else:
        cond = sub(proc, 'respcondition', continue_='No')
        cv = sub(cond, 'conditionvar')
        if choices:
            sub(cv, 'varequal', next(c[0] for c in choices if c[2]), respident='response1')
        elif r['type'] == 'numeric':
            o = sub(cv, 'or')
            sub(o, 'varequal', gift_num(r['answer']), respident='response1')
            a = sub(o, 'and')
            sub(a, 'vargte', '%.12g' % (r['answer'] - r['tol']), respident='response1')
            sub(a, 'varlte', '%.12g' % (r['answer'] + r['tol']), respident='response1')
        else:
            for acc in r['accept']:
                sub(cv, 'varequal', acc, respident='response1')
        sub(cond, 'setvar', '100', action='Set', varname='SCORE')
    if r.get('key'):
        fb = sub(item, 'itemfeedback', ident='general_fb')
        sub(sub(sub(fb, 'flow_mat'), 'material'), 'mattext', to_html(r['key']), texttype='text/html')


def qti_assessment(quiz, rs, lang, s):
    aid = ident('ch%02d' % quiz['chapter'], s, lang)
    title = '%s %s: %s' % (WORDS[lang]['chapter'].format(n=quiz['chapter']),
                           quiz['title'][lang], SET_NAME[s][lang])
    root = ET.Element('questestinterop', xmlns=QTI_NS)
    a = sub(root, 'assessment', ident=aid, title=title)
    f = sub(sub(a, 'qtimetadata'), 'qtimetadatafield')
    sub(f, 'fieldlabel', 'cc_maxattempts')
    sub(f, 'fieldentry', '1')
    section = sub(a, 'section', ident='root_section')
    items = [r for r in rs if r['set'] == s]
    for r in items:
        qti_item(section, r, lang, aid)
    ET.indent(root)
    xml = '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding='unicode') + '\n'
    meta = ET.Element('quiz', identifier=aid, xmlns='http://canvas.instructure.com/xsd/cccv1p0')
    for tag, text in (('title', title), ('description', ''), ('shuffle_answers', 'false'),
                      ('scoring_policy', 'keep_highest'), ('quiz_type', 'assignment'),
                      ('points_possible', '%.1f' % len(items)), ('show_correct_answers', 'true'),
                      ('allowed_attempts', '1'), ('available', 'false')):
        sub(meta, tag, text)
    ET.indent(meta)
    meta_xml = '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(meta, encoding='unicode') + '\n'
    return aid, xml, meta_xml


def qti_zip(path, assessments, lang):
    """One zip, one Canvas quiz per assessment, as Canvas's QTI 1.2 import takes it."""
    man = ET.Element('manifest', {
        'identifier': ident('manifest', lang, *[a[0] for a in assessments]),
        'xmlns': 'http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1'})
    md = sub(man, 'metadata')
    sub(md, 'schema', 'IMS Content')
    sub(md, 'schemaversion', '1.1.3')
    sub(man, 'organizations')
    res = sub(man, 'resources')
    files = []
    for aid, xml, meta in assessments:
        r = sub(res, 'resource', identifier=aid, type='imsqti_xmlv1p2')
        sub(r, 'file', href='%s/%s.xml' % (aid, aid))
        sub(r, 'dependency', identifierref=aid + '_meta')
        r2 = sub(res, 'resource', identifier=aid + '_meta',
                 type='associatedcontent/imscc_xmlv1p1/learning-application-resource',
                 href='%s/assessment_meta.xml' % aid)
        sub(r2, 'file', href='%s/assessment_meta.xml' % aid)
        files += [('%s/%s.xml' % (aid, aid), xml), ('%s/assessment_meta.xml' % aid, meta)]
    ET.indent(man)
    files.insert(0, ('imsmanifest.xml', '<?xml version="1.0" encoding="UTF-8"?>\n'
                     + ET.tostring(man, encoding='unicode') + '\n'))
    tmp = path + '.tmp'
    with zipfile.ZipFile(tmp, 'w', zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data.encode('utf-8'))
    os.replace(tmp, path)


#### Gradescope: Markdown to paste into an online assignment ################

def gradescope_md(quiz, rs, lang):
    w = WORDS[lang]
    out = ['# %s %s' % (w['chapter'].format(n=quiz['chapter']), quiz['title'][lang]), '']
    for s in SETS:
        out += ['## %s' % SET_NAME[s][lang], '']
        for n, r in enumerate((r for r in rs if r['set'] == s), 1):
            out += ['### %d. %s%s' % (n, r['id'], w['paren'] % TYPE_NAME[r['type']][lang]), '',
                    to_markdown(r['text']), '']
            if r['type'] == 'mc':
                out += ['- (%s) %s' % ('ABCDEFGH'[i], to_markdown(t))
                        for i, (t, _) in enumerate(r['choices'])] + ['']
            out += ['**%s%s**%s' % (w['answer'], w['colon'].strip(), ' ' * (lang == 'en')
                                     + (answer_line(r, lang) or '—')), '']
            if r.get('key'):
                out += ['**%s%s**%s' % (w['key'], w['colon'].strip(), ' ' * (lang == 'en')
                                         + to_markdown(r['key'])), '']
    return '\n'.join(out)


#### Print: LaTeX with the book's style #####################################

def tex(quizzes, allrs, lang):
    w = WORDS[lang]
    edition = lang
    out = [r'\def\bookedition{%s}' % edition,
           r'\documentclass[fontset=none,%szihao=5,oneside]{ctexbook}' % ('scheme=plain,' if lang == 'en' else ''),
           r'\usepackage{attnbook}',
           r'\usepackage{fancyvrb}',
           r'\DefineVerbatimEnvironment{quizverbatim}{Verbatim}{fontsize=\footnotesize,xleftmargin=1.5em}',
           r'\newcommand{\quizid}[1]{\hfill{\footnotesize\ttfamily #1}}',
           r'\setcounter{secnumdepth}{-1}',
           r'\begin{document}',
           r'\begin{center}{\LARGE %s}\\[1ex]{\large %s}\end{center}' % (
               tex_escape(w['title']), tex_escape(
                   '注意力机制：从公式到 C 代码' if lang == 'zh' else 'Attention, from Equations to C')),
           r'\tableofcontents']
    for quiz, rs in zip(quizzes, allrs):
        out.append(r'\chapter{%s\texorpdfstring{\quad}{ } %s}' % (tex_escape(w['chapter'].format(n=quiz['chapter'])),
                                              tex_escape(quiz['title'][lang])))
        for s in SETS:
            out.append(r'\section{%s}' % SET_NAME[s][lang])
            out.append(r'\begin{enumerate}')
            for r in (r for r in rs if r['set'] == s):
                item = [r'\item ', to_tex(r['text'])]
                if r['type'] == 'tf':
                    item.append(r' \quad' + (w['paren'] % ('%s / %s' % (w['true'], w['false']))).strip())
                item.append(r' \quizid{%s}' % tex_escape(r['id']))
                if r['type'] == 'mc':
                    item.append('\n\\begin{enumerate}\\renewcommand{\\labelenumii}{(\\Alph{enumii})}')
                    item += ['\n\\item %s' % to_tex(t) for t, _ in r['choices']]
                    item.append('\n\\end{enumerate}')
                out.append(''.join(item))
            out.append(r'\end{enumerate}')
    out.append(r'\chapter{%s}' % w['answers'])
    for quiz, rs in zip(quizzes, allrs):
        out.append(r'\section{%s\texorpdfstring{\quad}{ } %s}' % (tex_escape(w['chapter'].format(n=quiz['chapter'])),
                                              tex_escape(quiz['title'][lang])))
        for s in SETS:
            out.append(r'\subsection*{%s}' % SET_NAME[s][lang])
            out.append(r'\begin{enumerate}')
            for r in (r for r in rs if r['set'] == s):
                a = answer_line(r, lang)
                item = r'\item ' + (r'\textbf{%s}' % to_tex(a) if a else '')
                if r.get('key'):
                    item += ('\n\n' if a else '') + to_tex(r['key'])
                item += r' \quizid{%s}' % tex_escape(r['id'])
                out.append(item)
            out.append(r'\end{enumerate}')
    out.append(r'\end{document}')
    return '\n'.join(out) + '\n'


#### Commands ################################################################

def write(path, text):
    """Write only when the content changes (a no-op build stays a no-op)."""
    try:
        with open(path, encoding='utf-8') as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path + '.tmp', 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(path + '.tmp', path)


def export(quizzes, values, outdir):
    for d in ('gift', 'canvas', 'gradescope'):
        os.makedirs(os.path.join(outdir, d), exist_ok=True)
    for lang in LANGS:
        allrs, everything = [], []
        for quiz in quizzes:
            ch = '%02d' % quiz['chapter']
            rs = resolve(quiz, values[ch], lang)
            allrs.append(rs)
            g = gift(quiz, rs, lang)
            write(os.path.join(outdir, 'gift', 'ch%s-%s.gift.txt' % (ch, lang)), g)
            everything.append(g)
            assessments = [qti_assessment(quiz, rs, lang, s) for s in SETS]
            qti_zip(os.path.join(outdir, 'canvas', 'ch%s-%s.zip' % (ch, lang)), assessments, lang)
            write(os.path.join(outdir, 'gradescope', 'ch%s-%s.md' % (ch, lang)),
                  gradescope_md(quiz, rs, lang))
        write(os.path.join(outdir, 'gift', 'all-%s.gift.txt' % lang), '\n'.join(everything))
        qti_zip(os.path.join(outdir, 'canvas', 'all-%s.zip' % lang),
                [qti_assessment(q, rs, lang, s) for q, rs in zip(quizzes, allrs) for s in SETS], lang)
        write(os.path.join(outdir, 'quiz-%s.tex' % lang), tex(quizzes, allrs, lang))


def main(argv):
    args = argv[1:]
    if not args or args[0] not in ('check', 'values', 'export'):
        print(__doc__, file=sys.stderr)
        return 2
    cmd, args = args[0], args[1:]
    opts = {}
    while args and args[0].startswith('--'):
        if len(args) < 2:
            print(__doc__, file=sys.stderr)
            return 2
        opts[args[0][2:]] = args[1]
        args = args[2:]
    try:
        quizzes = sorted((load(p) for p in args), key=lambda q: q['chapter'])
        if cmd == 'check':
            for q in quizzes:
                n = {s: sum(1 for x in q['questions'] if x['set'] == s) for s in SETS}
                print('%s: %d reading, %d exam' % (q['path'], n['reading'], n['exam']))
        elif cmd == 'values':
            vals = run_values(quizzes, opts.get('bin', 'build/bin'))
            write(opts['out'], json.dumps(vals, indent=1, sort_keys=True, ensure_ascii=False) + '\n')
        else:
            with open(opts['values'], encoding='utf-8') as f:
                vals = json.load(f)
            export(quizzes, vals, opts['out'])
    except QuizError as e:
        print('quiz: %s' % e, file=sys.stderr)
        return 2
    except KeyError as e:
        print('quiz: missing option or value %s' % e, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

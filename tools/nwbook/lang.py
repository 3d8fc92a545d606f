"""Two languages, one source.

Every prose passage in chapters/*.nw is written twice, as a Chinese block
followed by its English partner:

    \\begin{zh}
    ...中文...
    \\end{zh}
    \\begin{en}
    ...English...
    \\end{en}

Each \\begin/\\end stands alone on its line.  Short strings that must exist in
both languages inside one line (titles, captions, figure labels) use
\\zhen{中文}{English}.  Everything else in a documentation chunk (equations,
figures, labels) is language-neutral.

The language selection lives here once: select_language() keeps one
language's blocks (the PDF editions' filter of the woven TeX and the HTML
edition's reading of the documentation both call it), resolve_language()
picks one half of each \\zhen.  tools/nwlang.py is the command line:

  nwlang.py check FILE.nw ...     fail, naming file:line, on an unpaired or
                                  misplaced passage
  nwlang.py filter zh|en|bilingual TEX   print the woven TeX of one edition
  nwlang.py pairs FILE.nw ...     compare each zh/en pair: the same numbers,
                                  code identifiers [[..]] and references
  nwlang.py uses WOVEN.tex        print noweb's identifier index lines
                                  (\\nwixadd) in the order XeLaTeX writes them
                                  to the .aux (tex/attnbook.sty reads them)

Answer keys and rubrics (issue 18) sit next to their exercise in an
answerkey environment, its \\begin and \\end alone on their lines:

    \\end{exercise}
    \\begin{answerkey}
    \\begin{zh} ...答案要点与评分标准... \\end{zh}
    \\begin{en} ...key and rubric... \\end{en}
    \\end{answerkey}

Like the hidden checks, they never reach a student: every edition this
filter writes (and the HTML and slides, tools/html/htmlbook.py) leaves them
out, by strip_answerkeys; only the instructor's guide (tools/course.py)
prints them.
"""
import os
import re
import sys

from .tex import arguments, replace_macro, drop_comment

CJK = re.compile(r'[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]')
BEGIN = re.compile(r'^\s*\\begin\{(zh|en)\}\s*$')
END = re.compile(r'^\s*\\end\{(zh|en)\}\s*$')
ANY_ENV = re.compile(r'\\(begin|end)\{(zh|en)\}')
CODE_START = re.compile(r'^<<.*>>=\s*$')
DOC_START = re.compile(r'^@( |$)')
# An English sentence sitting outside any block: starts with a word and runs
# on in plain words for a while.  Equations, commands and labels do not.
LINKED_QUOTE = re.compile(r'(^|\s)\{\\Tt\{\}\\nwlinkedidentq')
PROSE = re.compile(r"^[A-Za-z][A-Za-z,.;:'’ -]{30}")
# Chinese typography, checked in every zh block (see zh_lint).
CJK_END = re.compile(r'[\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef“”]$')
CMD_CJK_START = re.compile(r'^\s*\\[A-Za-z]+\*?\{[\u3400-\u4dbf\u4e00-\u9fff“]')
CODE_QUOTE = re.compile(r'\[\[.*?\]\]|\\(?:texttt|verb)\{[^}]*\}')


KEY_BEGIN = re.compile(r'^\s*\\begin\{answerkey\}\s*$')
KEY_END = re.compile(r'^\s*\\end\{answerkey\}\s*$')
KEY_ANY = re.compile(r'\\(begin|end)\{answerkey\}')


def strip_answerkeys(text):
    """TEXT without its answerkey blocks (each \\begin/\\end alone on a line).
    A marker that is not alone on its line, or a block never closed, drops
    everything after it rather than let a key through; check() reports it."""
    out, inside = [], False
    for line in text.split('\n'):
        if KEY_BEGIN.match(line):
            inside = True
        elif KEY_END.match(line) and inside:
            inside = False
        elif KEY_ANY.search(line):
            inside = '\\begin{answerkey}' in line or inside
        elif not inside:
            out.append(line)
    return '\n'.join(out)


def glossary_variants(paths):
    """Words the glossary says to avoid in Chinese text: `% avoid: A B` after
    an entry of chapters/91-appendix-glossary.nw."""
    avoid = {}
    for path in paths:
        if not path.endswith('glossary.nw'):
            continue
        with open(path, encoding='utf-8') as f:
            for line in f:
                m = re.search(r'^([^&]*)&\s*([^&]*?)\s*&.*%\s*avoid:\s*(.*)$', line)
                if m:
                    for word in m.group(3).split():
                        avoid[word] = m.group(2)
    return avoid


def zh_lint(line, next_line, avoid):
    """Typography of one line of a Chinese passage: a list of complaints."""
    out = []
    text = CODE_QUOTE.sub('', drop_comment(line))
    # the subject index's keys are the glossary's English terms
    text = re.sub(r'\\(?:defterm|indexterm)\{[^{}]*\}', '', text)
    if '``' in text or "''" in text:
        out.append("ASCII quotes ``...'' in Chinese text: use “...”")
    if CJK_END.search(line) and next_line is not None and CMD_CJK_START.match(next_line):
        out.append('the line break before the next line\'s command prints a space '
                   'between Chinese characters: end this line with %')
    if re.search(r'[\u4e00-\u9fff] +[\u4e00-\u9fff]', drop_comment(line)):
        out.append('a space between two Chinese characters')
    for m in re.finditer(r'第[\s~]*\\ref\{[^}]*\}[\s~]*章', text):
        if not re.fullmatch(r'第~\\ref\{[^}]*\}~章', m.group()):
            out.append('write chapter references as 第~\\ref{...}~章')
    for word, good in avoid.items():
        pattern = re.escape(word)
        if word.isascii():                      # a whole word, not part of one
            pattern = r'(?<![-A-Za-z0-9_])' + pattern + r'(?![-A-Za-z0-9_])'
        if re.search(pattern, text):
            out.append('"%s": the glossary\'s term is "%s"' % (word, good))
    return out


def neutral(text):
    """The text of a line with its deliberate bilingual parts removed."""
    bad = []
    text = replace_macro(text, 'zhen', 2, lambda a, b: '', on_bad=bad.append, spaces=' \t')
    text = replace_macro(text, 'zhword', 1, lambda a: '', on_bad=bad.append)
    return drop_comment(text), bool(bad)


def check(paths):
    errors = []
    avoid = glossary_variants(paths)

    def err(path, n, msg):
        errors.append('%s:%d: %s' % (path, n, msg))

    for path in paths:
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
        in_code = False
        block = None          # 'zh' or 'en' while inside a block
        block_line = 0
        block_has_cjk = False
        pending_zh = None     # line of a closed zh block still waiting for en
        glossary = False
        verbatim = False
        key_line = 0          # line of an open answerkey
        key_pairs = 0
        last_env_end = ''     # the last \\end{...} outside the zh/en blocks
        for n, line in enumerate(lines, 1):
            if KEY_ANY.search(line) and not in_code:
                if not (KEY_BEGIN.match(line) or KEY_END.match(line)):
                    err(path, n, '\\begin{answerkey} and \\end{answerkey} must stand '
                        'alone on their lines')
                elif KEY_BEGIN.match(line):
                    if key_line:
                        err(path, n, 'answerkey inside another (line %d)' % key_line)
                    if last_env_end != 'exercise':
                        err(path, n, 'an answerkey must follow the \\end{exercise} '
                            'of its exercise')
                    key_line, key_pairs = n, 0
                else:
                    if not key_line:
                        err(path, n, '\\end{answerkey} without \\begin{answerkey}')
                    elif not key_pairs:
                        err(path, key_line, 'the answerkey holds no zh/en passage')
                    key_line = 0
                last_env_end = 'answerkey'
                continue
            if not in_code and block is None:
                m_end = re.match(r'^\s*\\end\{(\w+)\}', line)
                if m_end and m_end.group(1) not in ('zh', 'en'):
                    last_env_end = m_end.group(1)
                elif line.strip() and not BEGIN.match(line) and not line.lstrip().startswith('%'):
                    last_env_end = ''
            if key_line and END.match(line) and END.match(line).group(1) == 'en':
                key_pairs += 1
            if CODE_START.match(line):
                if block:
                    err(path, block_line, '\\begin{%s} is not closed before '
                        'the code chunk at line %d' % (block, n))
                    block = None
                if pending_zh:
                    err(path, pending_zh, 'Chinese passage has no English '
                        'partner (a \\begin{en} block must follow it)')
                    pending_zh = None
                in_code = True
                continue
            if in_code:
                if DOC_START.match(line):
                    in_code = False
                    line = line[1:]
                else:
                    continue
            b, e = BEGIN.match(line), END.match(line)
            if not b and not e and ANY_ENV.search(line):
                err(path, n, '\\begin{zh|en} and \\end{zh|en} must stand '
                    'alone on their lines')
                continue
            if b:
                lang = b.group(1)
                if block:
                    err(path, n, '\\begin{%s} inside an open \\begin{%s} '
                        'block (line %d)' % (lang, block, block_line))
                if lang == 'zh' and pending_zh:
                    err(path, pending_zh, 'Chinese passage has no English '
                        'partner (a \\begin{en} block must follow it)')
                if lang == 'en' and not pending_zh:
                    err(path, n, 'English passage has no Chinese partner '
                        '(a \\begin{zh} block must come just before it)')
                pending_zh = None
                block, block_line, block_has_cjk = lang, n, False
                continue
            if e:
                lang = e.group(1)
                if block != lang:
                    err(path, n, '\\end{%s} without \\begin{%s}' % (lang, lang))
                elif lang == 'zh':
                    if not block_has_cjk:
                        err(path, block_line, 'the zh block holds no Chinese '
                            'text')
                    pending_zh = block_line
                block = None
                continue
            # A \zhen{..}{..} may run over several lines: read on to its end.
            while '\\zhen{' in line and line.count('{') > line.count('}') \
                    and n < len(lines) and not BEGIN.match(lines[n]) \
                    and not CODE_START.match(lines[n]):
                line = drop_comment(line) + ' ' + lines[n]
                lines[n] = ''
                n += 1
            text, badargs = neutral(line)
            if block != 'en' and re.search(r"\\zhen\{[^{}]*(``|'')", line):
                err(path, n, "ASCII quotes ``...'' in the Chinese half of \\zhen: use “...”")
            if badargs:
                err(path, n, '\\zhen takes two arguments: \\zhen{中文}{English}')
            # Verbatim text (commands, program output) is neither a passage
            # nor prose; the PDF tests catch stray Chinese that reaches print.
            if re.search(r'\\begin\{verbatim\}', line):
                verbatim = True
            if re.search(r'\\end\{verbatim\}', line):
                verbatim = False
                continue
            if verbatim:
                continue
            if re.search(r'\\begin\{bilingual\}', line):
                glossary = True
            if re.search(r'\\end\{bilingual\}', line):
                glossary = False
            if block == 'zh':
                block_has_cjk = block_has_cjk or bool(CJK.search(line))
                for msg in zh_lint(line, lines[n] if n < len(lines) else None, avoid):
                    err(path, n, msg)
            elif block == 'en':
                if CJK.search(text):
                    err(path, n, 'Chinese text in an English passage (use '
                        '\\zhword{...} if it is meant to be there)')
            else:
                if line.strip() and pending_zh:
                    err(path, pending_zh, 'Chinese passage has no English '
                        'partner (a \\begin{en} block must follow it)')
                    pending_zh = None
                if glossary:
                    continue
                if CJK.search(text):
                    err(path, n, 'Chinese text outside a \\begin{zh} block')
                elif PROSE.match(text.strip()):
                    err(path, n, 'English prose outside a \\begin{en} block')
        if block:
            err(path, block_line, '\\begin{%s} is never closed' % block)
        if key_line:
            err(path, key_line, '\\begin{answerkey} is never closed')
        if pending_zh:
            err(path, pending_zh, 'Chinese passage has no English partner '
                '(a \\begin{en} block must follow it)')
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


def pair_facts(text):
    """What both halves of a pair must agree on: numbers, [[identifiers]],
    \\ref/\\eqref/\\cite keys."""
    text = drop_comment(text)
    idents = set(re.findall(r'\[\[(.*?)\]\]', text))
    refs = set(re.findall(r'\\(?:ref|eqref|cite[pt]?|pageref)\{([^}]*)\}', text))
    bare = re.sub(r'\[\[.*?\]\]|\\(?:ref|eqref|cite[pt]?|pageref|label)\{[^}]*\}', ' ', text)
    bare = re.sub(r'\\[A-Za-z]+', ' ', bare)
    nums = set(m for m in re.findall(r'(?<![A-Za-z_])\d+(?:\.\d+)?(?:e[-+]?\d+)?', bare)
               if m not in ('0', '1', '2'))
    return {'number': nums, 'identifier': idents, 'reference': refs}


def pairs(paths):
    """Report each zh/en pair whose numbers, identifiers or references differ;
    fail when numbers or references differ (identifiers may be reworded)."""
    found = strict = 0
    for path in paths:
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
        zh = None
        cur, start = None, 0
        for n, line in enumerate(lines, 1):
            b, e = BEGIN.match(line), END.match(line)
            if b:
                cur, start, buf = b.group(1), n, []
                continue
            if e and cur:
                if cur == 'zh':
                    zh = (start, '\n'.join(buf))
                elif zh:
                    a, b2 = pair_facts(zh[1]), pair_facts('\n'.join(buf))
                    for kind in a:
                        only_zh, only_en = a[kind] - b2[kind], b2[kind] - a[kind]
                        if only_zh or only_en:
                            found += 1
                            strict += kind != 'identifier'
                            print('%s:%d: %s differ: only in zh %s, only in en %s' % (
                                path, zh[0], kind, sorted(only_zh), sorted(only_en)))
                    zh = None
                cur = None
                continue
            if cur:
                buf.append(line)
    print('%d differences (%d in numbers or references)' % (found, strict),
          file=sys.stderr)
    return 1 if strict else 0


WIDE = re.compile(r'\\\[|\\begin\{(equation|align|gather|multline|verbatim|tabular|'
                  r'longtable|figure|table|center)\*?\}|\\programoutput')


LANG_LINE = re.compile(r'^(.*?)\\(begin|end)\{(zh|en)\}\s*$')


def select_language(lines, lang):
    """The lines of one language: the other language's blocks dropped, the
    \\begin/\\end lines of both gone (what stood before them on the line, as
    noweave's \\nwbegindocs, kept).  The one language selection of the book:
    the PDF editions (woven TeX) and the HTML edition (noweb's documentation
    text) both call it."""
    drop = 'en' if lang == 'zh' else 'zh'
    skipping = False
    for line in lines:
        m = LANG_LINE.match(line)
        if m:
            prefix, what, which = m.groups()
            if prefix.strip():
                yield prefix
            if which == drop:
                skipping = what == 'begin'
            continue
        if not skipping:
            yield line


def resolve_language(text, lang):
    """\\zhen{中文}{English} and the like, for one edition."""
    pick = 0 if lang == 'zh' else 1
    text = replace_macro(text, 'zhen', 2, lambda a, b: (a, b)[pick])
    text = replace_macro(text, 'zhenpar', 2, lambda a, b: (a, b)[pick] + '\n\n')
    text = replace_macro(text, 'zhword', 1, lambda a: a)
    text = replace_macro(text, 'texorpdfstring', 2, lambda a, b: a)
    text = replace_macro(text, 'tablehead', 1, lambda o, a: a, optional=True)
    # The subject index's marks (tex/attnbook.sty) print nothing; a web page
    # has no page numbers, so the glossary loses its page column (type G).
    text = replace_macro(text, 'defterm', 1, lambda a: '')
    text = replace_macro(text, 'indexterm', 1, lambda a: '')
    text = re.sub(r'[ \t]*&[ \t]*\\glosspage(?:head)?(?![A-Za-z])', '', text)
    text = text.replace('\\begin{longtable}{G}',
                        '\\begin{longtable}{@{}p{0.36\\textwidth}p{0.22\\textwidth}'
                        'p{0.36\\textwidth}@{}}')
    return text


# Where a page may not break inside a chunk (tex/attnbook.sty): TeX sets a
# chunk a line at a time and cannot know, at a line, what follows it.  The
# weave marks the lines after which a break would leave a widow on the next
# page, \attnkeep at their end: fewer than two lines that are not blank
# left, or a lone closing brace (or #endif) next.  \attncodelines{N} after
# \nwbegincode: the chunk's count of lines (its name's and its code's).
CODE_CHUNK = re.compile(r'(\\nwbegincode\{\d+\})(.*?\\nwendcode\{\})', re.S)
LONE_CLOSE = re.compile(r'^\s*(\\\}\s*[;,]?|#\s*endif\b.*)\s*$')    # noweave writes } as \}


def mark_code_breaks(text):
    def one(m):
        lines = m.group(2).split('\n')
        code = len(lines) - 1       # lines[0]: the name; lines[code]: "This code is used in"
        keep = [False] * len(lines)
        left = 0                    # lines not blank after line i
        for i in range(code - 1, 0, -1):
            keep[i] = left < 2 or bool(LONE_CLOSE.match(lines[i + 1]))
            left += lines[i].strip() != ''
        return '%s\\attncodelines{%d}%s' % (m.group(1), code, '\n'.join(
            l + '\\attnkeep' if k else l for l, k in zip(lines, keep)))
    return CODE_CHUNK.sub(one, text)


def filter_edition(edition, path):
    """Keep one language's blocks (or both, for the bilingual edition).

    The bilingual edition sets each zh/en pair side by side with paracol,
    synchronised per pair; a pair holding something that needs the full
    width (a display, verbatim, a table or figure) stays one passage after
    the other, each at full width."""
    with open(path, encoding='utf-8') as f:
        lines = mark_code_breaks(strip_answerkeys(f.read())).split('\n')
    if edition != 'bilingual':
        text = '\n'.join(LINKED_QUOTE.sub(r'\1\\mbox{}{\\Tt{}\\nwlinkedidentq', line)
                         for line in select_language(lines, edition))
        if edition == 'zh':
            text = chinese_chunk_names(text)
        sys.stdout.write(text)
        return 0
    out = []
    pair = None           # [zh lines, en lines] being collected
    lang_now = None
    for line in lines:
        m = LANG_LINE.match(line)
        if m:
            prefix, what, lang = m.groups()
            if prefix:
                out.append(prefix)
            if what == 'begin':
                lang_now = lang
                if lang == 'zh':
                    pair = [[], []]
            else:
                lang_now = None
                if lang == 'en' and pair is not None:
                    # A float still pending when paracol starts can
                    # be lost, so the pairs just after one stay
                    # sequential until the float has surely been set.
                    out.extend(bilingual_pair(*pair))
                    pair = None
                elif lang == 'en':
                    out += ['\\begin{en}', '\\end{en}']
            continue
        # xeCJK drops the space between a Chinese character and a
        # [[quote]] that starts with a linked identifier (the link is
        # not a character it can see); an empty box keeps the space.
        line = LINKED_QUOTE.sub(r'\1\\mbox{}{\\Tt{}\\nwlinkedidentq', line)
        if lang_now and pair is not None:
            pair[lang_now == 'en'].append(line)
        else:
            out.append(line)
    if pair is not None:                    # a zh block the check would reject
        out.extend(bilingual_pair(*pair))
    # English passages keep the English names
    parts = re.split(r'(\\begin\{en\}.*?\\end\{en\})', '\n'.join(out), flags=re.S)
    sys.stdout.write(''.join(p if k % 2 else chinese_chunk_names(p, gloss=True)
                             for k, p in enumerate(parts)))
    return 0


# Chunk names in the Chinese edition (chapters/chunk-names.zh, issue 14): the
# English name stays the key; where noweave set it, the Chinese one is shown.
CHUNK_NAME = re.compile(
    r'(\\moddef\{|\\LA\{\}|\\nwixlogsorted\{c\}\{\{)(.*?)'
    r'(~\{\\nwtagstyle\{\}|\}\\(?:plus)?endmoddef|\\RA\{\}|\}\{NW)', re.S)


def chinese_chunk_names(text, gloss=False):
    """Every chunk name noweave wrote into text, in Chinese; with gloss (the
    bilingual edition) the definition and the chunk index keep the English
    as a gloss.  A name the table lacks stays English, with a warning."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import chunknames
    table = chunknames.names()  # read once: the bilingual edition calls this per passage
    missing = set()

    def one(m):
        start, name, end = m.groups()
        key = chunknames.unweave(name)
        zh = chunknames.chinese(key, table)
        if zh is None:
            missing.add(key)
            return m.group(0)
        if zh == key:                           # a file: code/model.h
            return m.group(0)
        # \hbox{}: no xeCJK gap between the math angle bracket and the name
        shown = '\\hbox{}' + chunknames.weave(zh)
        if gloss and not start.startswith('\\LA'):
            shown += '\\nwchunkgloss{%s}' % name
        if end == '\\RA{}':
            shown += '\\hbox{}'
        return start + shown + end
    text = CHUNK_NAME.sub(one, text)
    if not gloss:       # the chunk index in the order of the Chinese names
        lines = text.split('\n')
        idx = [k for k, l in enumerate(lines) if l.startswith('\\nwixlogsorted{c}')]
        if idx and idx[-1] - idx[0] + 1 == len(idx):
            lines[idx[0]:idx[-1] + 1] = sorted(lines[idx[0]:idx[-1] + 1],
                                               key=lambda l: re.sub(r'\\[A-Za-z]+|[{}]', '', l))
            text = '\n'.join(lines)
    for key in sorted(missing):
        print('nwlang: no Chinese name for chunk <<%s>>: add a line "%s | 中文名" to '
              'chapters/chunk-names.zh' % (key, key), file=sys.stderr)
    return text


# noweb's identifier cross-references: each \nwindexdefn{NAME}{ID}{CHUNK} and
# \nwindexuse{NAME}{ID}{CHUNK} of the weave writes \nwixadd{\nwixd }{ID}{CHUNK}
# (or \nwixu) to the .aux as its page goes out, and the next pass reads them
# to print each chunk's "Defines: x, used in chunks ..." lines.  The same
# lines, in the same order, straight from the weave: tex/attnbook.sty reads
# them on the first pass too (a clean build's first pass otherwise has no
# such lines, and pages that run short).
INDEX_ENTRY = re.compile(r'\\nwindex(defn|use)(?![A-Za-z])')


def index_uses(text):
    out = []
    for m in INDEX_ENTRY.finditer(text):
        args, _ = arguments(text, m.end(), 3)
        if args is None:
            raise ValueError('\\nwindex%s without its three arguments' % m.group(1))
        out.append('\\nwixadd{\\nwix%s }{%s}{%s}\n' % (m.group(1)[0], args[1], args[2]))
    return ''.join(out)


def bilingual_pair(zh, en):
    text = '\n'.join(zh + en)
    if WIDE.search(text):
        return ['\\begin{zh}'] + zh + ['\\end{zh}', '\\begin{en}'] + en + ['\\end{en}']
    # \attnpairstart (tex/attnbook.sty) opens paracol only when no float is
    # pending: paracol loses a float still waiting when it starts.
    return (['\\attnpairstart\\begin{zh}'] + zh + ['\\end{zh}\\attnpairswitch\\begin{en}']
            + en + ['\\end{en}\\attnpairend'])


def main(argv):
    if len(argv) >= 3 and argv[1] == 'check':
        return check(argv[2:])
    if len(argv) >= 3 and argv[1] == 'pairs':
        return pairs(argv[2:])
    if len(argv) == 4 and argv[1] == 'filter' and argv[2] in ('zh', 'en', 'bilingual'):
        return filter_edition(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == 'uses':
        with open(argv[2], encoding='utf-8') as f:
            sys.stdout.write(index_uses(f.read()))
        return 0
    print('usage: nwlang.py check FILE.nw ... | nwlang.py filter zh|en|bilingual '
          'WOVEN.tex | nwlang.py uses WOVEN.tex', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))

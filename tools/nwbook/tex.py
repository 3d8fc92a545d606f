"""The one reader of TeX's braces in the book's sources.

Every tool that takes apart the LaTeX of chapters/*.nw (the language check
and filter, the HTML edition, the slides, the diagrams' labels) does it
with these few functions, so that a brace, an escaped brace or a macro's
arguments mean the same thing everywhere.
"""
import re


def read_group(text, i, open_='{', close='}'):
    """text[i] is open_: return (content, index after the closing one).
    An escaped \\{ or \\} does not count.  Raises ValueError if unbalanced."""
    if i >= len(text) or text[i] != open_:
        raise ValueError('expected %r at %r' % (open_, text[i:i + 30]))
    depth, j = 0, i
    while j < len(text):
        ch = text[j]
        if ch == '\\':
            j += 2
            continue
        if ch == open_:
            depth += 1
        elif ch == close:
            depth -= 1
            if depth == 0:
                return text[i + 1:j], j + 1
        j += 1
    raise ValueError('unbalanced %s in %r' % (open_, text[i:i + 60]))


def skip_space(text, i, chars=' \t\n'):
    while i < len(text) and text[i] in chars:
        i += 1
    return i


def arguments(text, j, nargs, optional=False, spaces=' \t\n'):
    """The arguments of a macro whose name ends at text[j]: ([opt,] a, b, ...)
    and the index after them, or (None, j) if fewer than nargs braced
    arguments follow."""
    args = []
    if optional:
        k = skip_space(text, j, spaces)
        if k < len(text) and text[k] == '[':
            try:
                opt, j = read_group(text, k, '[', ']')
            except ValueError:
                return None, j
            args.append(opt)
        else:
            args.append(None)
    for _ in range(nargs):
        k = skip_space(text, j, spaces)
        if k >= len(text) or text[k] != '{':
            return None, j
        try:
            a, j = read_group(text, k)
        except ValueError:
            return None, j
        args.append(a)
    return args, j


def replace_macro(text, name, nargs, fn, optional=False, on_bad=None, spaces=' \t\n'):
    """Replace \\name[opt]{a}{b}... (balanced) by fn(*args) everywhere.
    A use with too few arguments stays as it is (on_bad(position) is called)."""
    pat = re.compile(r'\\%s(?![A-Za-z@])' % re.escape(name))
    out, i = [], 0
    while True:
        m = pat.search(text, i)
        if not m:
            out.append(text[i:])
            return ''.join(out)
        out.append(text[i:m.start()])
        args, j = arguments(text, m.end(), nargs, optional, spaces)
        if args is None:
            if on_bad:
                on_bad(m.start())
            out.append(m.group(0))
            i = m.end()
            continue
        rep = fn(*args)
        # \raggedleft\zhen{..}{..} must not become \raggedleftclosed
        if rep[:1].isalpha() and re.search(r'\\[A-Za-z]+\Z', ''.join(out[-1:])):
            rep = '{}' + rep
        out.append(rep)
        i = j


COMMENT = re.compile(r'(?<!\\)%.*')


def drop_comment(line):
    """A line without its TeX comment."""
    return COMMENT.sub('', line)


def strip_comments(text):
    """TeX comments go, with the end of line and the next line's indent,
    as TeX reads them.  Verbatim environments are kept as they are."""
    out, verbatim = [], False
    for line in text.split('\n'):
        if verbatim:
            out.append(line + '\n')
            if re.match(r'\s*\\end\{verbatim\}', line):
                verbatim = False
            continue
        if re.search(r'\\begin\{verbatim\}', line):
            verbatim = True
            out.append(line + '\n')
            continue
        m = re.search(r'(?<!\\)%', line)
        if m:
            kept = line[:m.start()]
            if kept.strip() == '':
                continue            # a whole-line comment leaves nothing
            out.append(kept)        # and swallows the line end
            out.append('\x00')      # marker: skip the next line's indent
        else:
            out.append(line + '\n')
    return re.sub(r'\x00[ \t]*', '', ''.join(out))

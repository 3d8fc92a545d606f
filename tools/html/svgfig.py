#!/usr/bin/python3
"""Book figures as SVG for the HTML edition, labelled in one language:

    svgfig.py LANG figures/NAME.gp DATAFILE OUT.svg [GP DATAFILE OUT.svg ...]

The figure scripts are written for the cairolatex terminal: LaTeX sets their
labels, so a label may hold math ($k_j$, $\\kappa=1/\\sqrt{d_K}$) and
L(zh, en) gives both languages to \\zhen.  Here the same script, from the
same data, draws SVG:

  - gnuplot runs with lang='zh' or 'en' defined, and figures/common.gp then
    picks the svg terminal and makes L(zh, en) return one language;
  - a `set terminal` line in the script itself becomes the svg terminal of
    the same size (1 cm = PX_PER_CM pixels);
  - every single-quoted string with TeX in it ($...$ or a backslash) is
    rewritten as gnuplot's enhanced text: math letters in italics, _ and ^
    as sub- and superscripts, \\kappa as κ, \\sqrt{x} as √x, \\le as ≤,
    \\frac{a}{b} as a/b, \\mathrm{x} upright, `vs.\\ ` as `vs. `.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from nwbook import meta  # noqa: E402
from nwbook.tex import argument  # noqa: E402

PX_PER_CM = 50
_F = meta.load()['fonts']         # book.toml
FONTS = {'zh': _F['cjksans'], 'en': _F['sans']}
RELATIONS = '=<>≤≥≠≈∼→∈'

SYMBOLS = {
    'alpha': 'α', 'beta': 'β', 'gamma': 'γ', 'delta': 'δ', 'epsilon': 'ϵ',
    'varepsilon': 'ε', 'zeta': 'ζ', 'eta': 'η', 'theta': 'θ', 'kappa': 'κ',
    'lambda': 'λ', 'mu': 'μ', 'nu': 'ν', 'xi': 'ξ', 'pi': 'π', 'rho': 'ρ',
    'sigma': 'σ', 'tau': 'τ', 'phi': 'ϕ', 'varphi': 'φ', 'chi': 'χ', 'psi': 'ψ',
    'omega': 'ω', 'Gamma': 'Γ', 'Delta': 'Δ', 'Theta': 'Θ', 'Lambda': 'Λ',
    'Sigma': 'Σ', 'Phi': 'Φ', 'Psi': 'Ψ', 'Omega': 'Ω',
    'le': '≤', 'leq': '≤', 'ge': '≥', 'geq': '≥', 'ne': '≠', 'neq': '≠',
    'cdot': '·', 'times': '×', 'pm': '±', 'infty': '∞', 'approx': '≈',
    'sim': '∼', 'to': '→', 'sum': '∑', 'partial': '∂', 'in': '∈', 'ldots': '…',
    'dots': '…', 'cdots': '⋯', '|': '‖', 'langle': '⟨', 'rangle': '⟩',
    'ln': 'ln', 'log': 'log', 'exp': 'exp', 'max': 'max', 'min': 'min',
    'sin': 'sin', 'cos': 'cos', 'top': 'T',
    ',': ' ', ';': ' ', ':': ' ', ' ': ' ', '!': '', 'quad': '  ', 'qquad': '   ',
    '%': '%', '_': '\\_', '{': '\\{', '}': '\\}', '&': '\\&',
}
UPRIGHT = ('mathrm', 'text', 'operatorname', 'textrm', 'mathsf', 'texttt')


def math(s):
    """TeX math to gnuplot enhanced text."""
    out, i = [], 0
    while i < len(s):
        ch = s[i]
        if ch == '\\':
            m = re.match(r'\\([A-Za-z]+|.)', s[i:])
            name = m.group(1)
            i += m.end()
            while name.isalpha() and i < len(s) and s[i] == ' ':
                i += 1
            if name in UPRIGHT:
                g, i = argument(s, i)
                out.append(text(g))
            elif name == 'frac' or name == 'tfrac' or name == 'dfrac':
                a, i = argument(s, i)
                b, i = argument(s, i)
                out.append('%s/%s' % (math(a), math(b)))
            elif name == 'sqrt':
                a, i = argument(s, i)
                inner = math(a)
                out.append('√' + (inner if not re.search(r'[-+*/ ]', a) else '(%s)' % inner))
            elif name in ('bar', 'hat', 'tilde', 'vec', 'mathbf', 'bm', 'boldsymbol',
                          'mathit', 'left', 'right', 'bigl', 'bigr', 'Bigl', 'Bigr',
                          'big', 'Big'):
                continue            # the decoration is lost; the symbol stays
            elif name in SYMBOLS:
                sym = SYMBOLS[name]
                out.append(' %s ' % sym if sym in RELATIONS else sym)
            else:
                out.append(name)
            continue
        m = re.match(r'%[-+ #0-9.]*[A-Za-z]', s[i:])    # a printf format: as it is
        if m:
            out.append(m.group(0))
            i += m.end()
            continue
        m = re.match(r'[A-Za-z]+', s[i:])
        if m:
            out.append('{/:Italic %s}' % m.group(0))
            i += m.end()
            continue
        if ch in '_^':
            f = re.match(r'%[-+ #0-9.]*[A-Za-z]', s[i + 1:])
            g, j = (f.group(0), i + 1 + f.end()) if f else argument(s, i + 1)
            out.append(ch + '{' + math(g) + '}')
            i = j
            continue
        if ch in RELATIONS:
            out.append(' %s ' % ch)
        elif ch in '@&~':
            out.append('\\' + ch)
        elif ch in '{}':
            pass                    # TeX grouping; ours comes with _ and ^
        else:
            out.append(ch)
        i += 1
    return re.sub(r'  +', ' ', ''.join(out))


def text(s):
    """TeX text (outside $...$) to gnuplot enhanced text."""
    s = re.sub(r'\\(?:texttt|emph|textit|textbf|mbox)\{([^{}]*)\}', r'\1', s)
    s = s.replace('--', '–').replace('\\ ', ' ').replace('~', ' ')
    s = re.sub(r'\\([%&#$_{}])', r'\1', s)
    s = re.sub(r'([_^@&{}])', r'\\\1', s)
    return s


def tex_to_enhanced(s):
    parts = re.split(r'(?<!\\)\$', s)
    return ''.join(math(p).strip() if k % 2 else text(p) for k, p in enumerate(parts))


def rewrite(script, lang):
    """The figure script for the svg terminal."""
    script = re.sub(r'\\\n', ' ', script)       # continuation lines

    def terminal(m):
        size = re.search(r'size\s+([\d.]+)\s*cm\s*,\s*([\d.]+)\s*cm', m.group(0))
        w, h = (float(size.group(1)), float(size.group(2))) if size else (12, 6.5)
        return "set terminal svg size %d,%d dynamic enhanced font '%s,11' " \
               "background rgb 'white'" % (w * PX_PER_CM, h * PX_PER_CM, FONTS[lang])
    if not re.search(r'^\s*set\s+term', script, flags=re.M):
        # the size of common.gp, in the edition's font
        script = re.sub(r'^(\s*load\s+.common\.gp.*)$',
                        r'\1\nset terminal cairolatex\nset output outfile', script,
                        count=1, flags=re.M)
    script = re.sub(r'^\s*set\s+term(?:inal)?\s+.*$', terminal, script, flags=re.M)

    def literal(m):
        body = m.group(1).replace("''", "'")
        if '$' not in body and '\\' not in body:
            return m.group(0)
        return "'%s'" % tex_to_enhanced(body).replace("'", "''")
    return re.sub(r"'((?:[^'\n]|'')*)'", literal, script)


def draw(lang, script, datafile, out):
    """One figure: gnuplot on the rewritten script.  Returns 0 or 1."""
    src = rewrite(open(script, encoding='utf-8').read(), lang)
    env = dict(os.environ, GNUPLOT_LIB=os.path.dirname(os.path.abspath(script)),
               LC_ALL='C.UTF-8')    # as mk/figures.mk: no iconv warning under C
    with tempfile.NamedTemporaryFile('w', suffix='.gp', encoding='utf-8', delete=False) as f:
        f.write(src)
    try:
        tmp = out + '.tmp'
        p = subprocess.run(['gnuplot', '-e', "lang='%s'; datafile='%s'; outfile='%s'"
                            % (lang, datafile, tmp), f.name], env=env,
                           capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        print('svgfig: gnuplot failed on %s (%s)' % (script, lang), file=sys.stderr)
        return 1
    err = [l for l in p.stderr.splitlines() if l.strip()]
    if err:
        sys.stderr.write('\n'.join('svgfig: %s: %s' % (os.path.basename(script), l)
                                   for l in err) + '\n')
    # `with image` embeds a bitmap with one pixel per cell: keep the cells sharp
    svg = open(tmp, encoding='utf-8').read()
    svg = svg.replace('<image ', '<image style="image-rendering:pixelated" ')
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(svg)
    os.replace(tmp, out)
    return 0


def main(argv):
    """Every figure of one language in one process: most of a figure's time
    was starting Python."""
    if len(argv) < 5 or (len(argv) - 2) % 3 or argv[1] not in ('zh', 'en'):
        print(__doc__, file=sys.stderr)
        return 2
    lang, rest = argv[1], argv[2:]
    status = 0
    for k in range(0, len(rest), 3):
        status |= draw(lang, *rest[k:k + 3])
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv))

"""The bibliography: every \\cite names an entry of tex/book.bib, each
edition prints a bibliography, and no citation is left undefined."""
import glob
import os
import re

from helpers import TOP, pdf_text

B = os.path.join(TOP, 'build')


def bib_keys():
    text = open(os.path.join(TOP, 'tex', 'book.bib'), encoding='utf-8').read()
    return set(re.findall(r'^@\w+\{([^,\s]+),', text, re.M))


def test_every_cited_key_is_in_the_bibliography():
    keys = bib_keys()
    missing = []
    for path in sorted(glob.glob(os.path.join(TOP, 'chapters', '*.nw'))):
        for n, line in enumerate(open(path, encoding='utf-8'), 1):
            for group in re.findall(r'\\cite[pt]?\{([^}]*)\}', line):
                for key in group.split(','):
                    if key.strip() not in keys:
                        missing.append('%s:%d: %s' % (os.path.relpath(path, TOP), n, key.strip()))
    assert not missing, 'cited but not in tex/book.bib:\n' + '\n'.join(missing)


def test_each_edition_prints_its_bibliography_with_no_undefined_citation():
    for edition, heading in (('zh', '参考文献'), ('en', 'References'), ('bilingual', '参考文献')):
        log = open(os.path.join(B, 'book-%s.log' % edition), encoding='utf-8', errors='replace').read()
        bad = re.findall(r"Citation '([^']*)' .*undefined", log)
        assert not bad, 'book-%s.pdf: undefined citations %s' % (edition, sorted(set(bad)))
        text = pdf_text(os.path.join(B, 'book-%s.pdf' % edition))
        assert heading in text and 'Attention Is All You Need' in text, \
            'book-%s.pdf has no bibliography' % edition

"""The programs' shared command line (Appendix D): help and error messages in
the reader's language, chosen from LC_ALL, LC_MESSAGES and LANG (the first
that is set and not empty, as POSIX has it) and overridden by --lang; bad
input is one line on stderr naming the file and line, exit status 2, nothing
on stdout, in both languages."""
import os
import re

from helpers import TOP, Skip, TempDir, run

PROGRAMS = ['appA-matrix', 'ch01-why-attention', 'ch02-attention', 'ch03-multi-head',
            'ch04-masking', 'ch05-feed-forward', 'ch06-embeddings', 'ch07-saturation',
            'ch08-training', 'ch09-translate', 'ch10-fast-attention']
# The programs whose demo speaks Chinese under a Chinese locale: all but
# appA-matrix, whose demo is the histogram of Appendix A's figure (data).
DEMO_IN_CHINESE = PROGRAMS[1:]
CJK = re.compile(r'[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]')

# Each variable set explicitly, so the environment of the test run cannot leak in.
C = {'LC_ALL': '', 'LC_MESSAGES': '', 'LANG': 'C'}
EN = {'LC_ALL': '', 'LC_MESSAGES': '', 'LANG': 'en_US.UTF-8'}
ZH = {'LC_ALL': '', 'LC_MESSAGES': '', 'LANG': 'zh_CN.UTF-8'}
UNSET = {'LC_ALL': '', 'LC_MESSAGES': '', 'LANG': ''}


def help_text(program, env, extra=()):
    rc, out, err = run(program, ['--help'] + list(extra), env=env)
    assert rc == 0 and err == '', '%s --help: exit %d, stderr %r' % (program, rc, err[:200])
    return out


def test_help_is_english_only_under_c_en_and_unset():
    for program in PROGRAMS:
        for env in (C, EN, UNSET):
            out = help_text(program, env)
            assert out.startswith('usage: ' + program), (program, env, out[:80])
            assert '--help' in out and '--lang zh|en' in out, (program, out)
            bad = CJK.findall(out)
            assert not bad, '%s --help under LANG=%r has Chinese: %r' % (program, env['LANG'],
                                                                        ''.join(bad)[:40])


def test_help_is_chinese_under_zh():
    for program in PROGRAMS:
        out = help_text(program, ZH)
        assert out.startswith('用法：' + program), (program, out[:80])
        assert '打印本说明' in out and 'print this message' not in out, (program, out)
        # every option's help line is in Chinese too: the English table text is absent
        assert 'usage:' not in out and 'With no' not in out, (program, out)


def test_locale_variables_in_posix_order():
    prog = 'ch02-attention'
    # LC_ALL wins over LC_MESSAGES and LANG; LC_MESSAGES over LANG; empty means unset
    cases = [
        ({'LC_ALL': 'en_US.UTF-8', 'LC_MESSAGES': 'zh_CN.UTF-8', 'LANG': 'zh_CN.UTF-8'}, 'en'),
        ({'LC_ALL': 'zh_TW.UTF-8', 'LC_MESSAGES': '', 'LANG': 'C'}, 'zh'),
        ({'LC_ALL': '', 'LC_MESSAGES': 'zh_CN.UTF-8', 'LANG': 'en_US.UTF-8'}, 'zh'),
        ({'LC_ALL': '', 'LC_MESSAGES': 'POSIX', 'LANG': 'zh_CN.UTF-8'}, 'en'),
        ({'LC_ALL': '', 'LC_MESSAGES': '', 'LANG': 'zh_CN'}, 'zh'),
    ]
    for env, lang in cases:
        out = help_text(prog, env)
        assert bool(CJK.search(out)) == (lang == 'zh'), (env, lang, out[:60])


def test_lang_option_overrides_the_locale():
    for program in PROGRAMS:
        assert not CJK.search(help_text(program, ZH, ['--lang', 'en'])), program
        assert not CJK.search(help_text(program, ZH, ['--lang=en'])), program
        assert help_text(program, C, ['--lang', 'zh']).startswith('用法：'), program
    # --lang may come after --help and after an error's cause is already on the line
    rc, out, err = run('ch02-attention', ['--bogus', '--lang', 'zh'], env=C)
    assert rc == 2 and out == '' and CJK.search(err), err


def expect_one_line(program, args, env, mention=()):
    rc, out, err = run(program, args, env=env)
    what = '%s %s (LANG=%s)' % (program, ' '.join(args), env['LANG'])
    assert rc == 2, '%s: exit %d, expected 2; stderr %r' % (what, rc, err[:300])
    assert out == '', '%s: stdout should be empty: %r' % (what, out[:200])
    lines = err.rstrip('\n').split('\n')
    assert len(lines) == 1 and lines[0].startswith(program + ': '), \
        '%s: expected one line "%s: ...", got %r' % (what, program, err[:300])
    for m in mention:
        assert m in err, '%s: should mention %r: %r' % (what, m, err)
    return err


def bad_file_cases(d):
    """For each program, a command line whose first matrix file is bad at line 3."""
    bad = d.write('bad.txt', '2 3\n1 2 3\n4 5\n')
    good = d.write('good.txt', '2 3\n1 2 3\n4 5 6\n')
    return bad, [
        ('appA-matrix', ['--check', good, bad]),
        ('ch01-why-attention', ['--self-attention', bad]),
        ('ch02-attention', ['--q', bad, '--k', good, '--v', good]),
        ('ch03-multi-head', ['--q', bad, '--k', good, '--v', good, '--heads', '1', '--wq', good,
                             '--wk', good, '--wv', good, '--wo', good]),
        ('ch04-masking', ['--q', bad, '--k', good, '--v', good]),
        ('ch05-feed-forward', ['--layernorm', '--x', bad]),
        ('ch07-saturation', ['--softmax', bad]),
        ('ch09-translate', ['--decode', bad]),
        ('ch10-fast-attention', ['--q', bad, '--k', good, '--v', good]),
    ]


def test_bad_file_names_file_and_line_in_both_languages():
    with TempDir() as d:
        bad, cases = bad_file_cases(d)
        for program, args in cases:
            for debug_env in (C, EN):
                err = expect_one_line(program, args, debug_env, [bad + ':3:', 'expected 3 numbers'])
                assert not CJK.search(err), err
            err = expect_one_line(program, args, ZH, [bad + ':3:', '应有 3 个数，实际有 2 个'])
            err2 = expect_one_line(program, args + ['--lang', 'zh'], C, [bad + ':3:'])
            assert err == err2, (err, err2)
            assert program in [p for p, _ in cases]
        # the sanitizer build says the same
        for program, args in cases:
            rc, out, err = run(program, args, env=ZH, debug=True)
            assert rc == 2 and out == '' and bad + ':3:' in err and '应有' in err, (program, err)


def test_the_reason_a_file_cannot_be_opened_speaks_the_reader_language():
    """errno's text in a message is Chinese under zh_CN as well (cli_strerror,
    Appendix A): the programs never call setlocale, so strerror answers in
    English on every machine, and a Chinese message used to end in English.
    One line on stderr, exit status 2, nothing on stdout, in both languages,
    and the sanitizer build says the same."""
    with TempDir() as d:
        good = d.write('good.txt', '2 3\n1 2 3\n4 5 6\n')
        missing = os.path.join(d.path, 'missing.txt')
        through_a_file = good + '/q.txt'            # ENOTDIR
        cases = [   # program, arguments, the English line, the Chinese line
            ('ch02-attention', ['--q', missing, '--k', good, '--v', good],
             '%s: cannot open: No such file or directory' % missing,
             '%s: 无法打开：没有那个文件或目录' % missing),
            ('appA-matrix', ['--check', good, through_a_file],
             '%s: cannot open: Not a directory' % through_a_file,
             '%s: 无法打开：不是目录' % through_a_file),
            ('ch08-training', ['--report', missing],
             '--report %s: No such file or directory' % missing,
             '--report %s: 没有那个文件或目录' % missing),
        ]
        for program, args, en, zh in cases:
            for env, line in ((EN, en), (C, en), (ZH, zh)):
                err = expect_one_line(program, args, env)
                assert err == '%s: %s\n' % (program, line), \
                    '%s %s (LANG=%s): expected %r, got %r' % (program, ' '.join(args),
                                                             env['LANG'], line, err)
            assert expect_one_line(program, args + ['--lang', 'zh'], C) == \
                '%s: %s\n' % (program, zh), program
        program, args, _, zh = cases[0]
        rc, out, err = run(program, args, env=ZH, debug=True)
        assert (rc, out, err) == (2, '', '%s: %s\n' % (program, zh)), (rc, out, err)


def test_chinese_errno_text_is_glibc_wording():
    """Each Chinese text of cli_strerror's table is what glibc's own zh_CN
    catalogue says for that error (read from libc.mo where it is installed)."""
    import errno
    import gettext
    mo = '/usr/share/locale/zh_CN/LC_MESSAGES/libc.mo'
    if not os.path.exists(mo):
        raise Skip('%s is not installed (Debian package libc-l10n)' % mo)
    with open(mo, 'rb') as f:
        glibc = gettext.GNUTranslations(f)
    with open(os.path.join(TOP, 'code', 'core.c'), encoding='utf-8') as f:
        table = re.findall(r'\{ (E[A-Z]+), "([^"]+)" \}', f.read())
    assert len(table) >= 12, table
    for name, zh in table:
        english = os.strerror(getattr(errno, name))
        assert zh == glibc.gettext(english), \
            '%s: the table says %r, glibc says %r for %r' % (name, zh, glibc.gettext(english),
                                                            english)


def test_every_program_reports_bad_options_in_both_languages():
    cases = {
        'appA-matrix': ['--random', '3'],
        'ch01-why-attention': ['--connect', '--n', '1'],
        'ch02-attention': ['--scale', 'abc', '--q', 'x'],
        'ch03-multi-head': ['--heads', 'two'],
        'ch04-masking': ['--q'],
        'ch05-feed-forward': ['--depth', '0'],
        'ch06-embeddings': ['--posenc', '10', '7'],
        'ch07-saturation': ['--table', 'bogus'],
        'ch08-training': ['--steps', 'many'],
        'ch09-translate': ['--beam', '0'],
        'ch10-fast-attention': ['--kernel', 'fast'],
    }
    assert sorted(cases) == sorted(PROGRAMS)
    for program, args in cases.items():
        option = args[0] if program != 'ch01-why-attention' else '--n'
        err = expect_one_line(program, args, EN, [option])
        assert not CJK.search(err), err
        err = expect_one_line(program, args, ZH, [option])
        assert CJK.search(err), '%s %s: no Chinese under zh_CN: %r' % (program, args, err)
    for program in PROGRAMS:
        for env, words in ((C, 'unknown option'), (ZH, '没有选项')):
            expect_one_line(program, ['--frobnicate'], env, ['--frobnicate', words])
        expect_one_line(program, ['--lang', 'fr'], C, ['--lang', 'fr'])


def test_generic_checks_name_the_options():
    # a mode's required option, two modes at once, an option outside its mode
    expect_one_line('ch04-masking', ['--weights'], EN, ['--q is missing'])
    expect_one_line('ch04-masking', ['--weights'], ZH, ['缺少 --q'])
    expect_one_line('ch06-embeddings', ['--scale', '--pe-dot', '8'], ZH, ['--scale', '--pe-dot'])
    expect_one_line('ch01-why-attention', ['--table', '--seed', '2'], EN,
                    ['--seed', 'does not apply to --table'])
    expect_one_line('ch01-why-attention', ['--table', '--seed', '2'], ZH, ['--seed', '--table', '不能用于'])
    # Chapters 8-10 use the same table and the same checks
    expect_one_line('ch08-training', ['--schedule', '--steps', '3'], EN,
                    ['--steps', 'does not apply to --schedule'])
    expect_one_line('ch08-training', ['--compare', 'norm', '--bench', '3'], ZH,
                    ['--compare', '--bench', '不能同时使用'])
    expect_one_line('ch09-translate', ['--evaluate'], EN, ['--model is missing'])
    expect_one_line('ch09-translate', ['--attention', '5'], ZH, ['缺少 --model'])
    expect_one_line('ch09-translate', ['--bleu', 'a'], EN, ['--bleu needs HYP and REF'])
    expect_one_line('ch09-translate', ['--numbers', '5', '3'], ZH, ['--numbers', 'TO'])
    expect_one_line('ch10-fast-attention', ['--report', 'x', '--quick'], EN,
                    ['--quick does not apply to --report'])
    expect_one_line('ch10-fast-attention', ['--bench', 'stream'], ZH, ['--seq', '需要'])
    expect_one_line('ch10-fast-attention', ['--q', 'x'], EN, ['--k is missing'])


def test_data_output_does_not_depend_on_the_locale():
    # What scripts read (data modes, figures' data, machine-readable lines)
    # is byte for byte the same under every locale.
    with TempDir() as d:
        q = d.write('q.txt', '2 3\n1 2 3\n4 5 6\n')
        logits = d.write('logits.txt', '9 3\n' + '1 2 0\n0 1 3\n2 0 1\n' * 3)
        hyp = d.write('hyp.txt', 'a b c d e\nf g h\n')
        small = ['--d-model', '16', '--heads', '2', '--d-ff', '24', '--batch', '4',
                 '--max-len', '5', '--symbols', '6']
        cases = (('ch02-attention', ['--q', q, '--k', q, '--v', q]),
                 ('ch06-embeddings', ['--posenc', '3', '4']),
                 ('ch07-saturation', ['--table', 'temperature']),
                 ('ch08-training', ['--schedule']),
                 ('ch08-training', small + ['--batches', '2']),
                 ('ch09-translate', ['--numbers', '0', '30']),
                 ('ch09-translate', ['--held-out']),
                 ('ch09-translate', ['--bleu', hyp, hyp]),
                 ('ch09-translate', ['--decode', logits]),
                 ('ch10-fast-attention', ['--q', q, '--k', q, '--v', q, '--causal']),
                 ('ch10-fast-attention', ['--plot', 'data/ch10-measured.dat']))
        for program, args in cases:
            outs = [run(program, args, env=env) for env in (C, EN, ZH)]
            assert all(rc == 0 for rc, _, _ in outs), (program, args, outs[0][2])
            outs = [out for _, out, _ in outs]
            assert outs[0] and outs[0] == outs[1] == outs[2], (program, args)


NUMERALS = set('零一二三四五六七八九十百千万')   # ch09's demo shows numbers in Chinese


def chinese(text):
    return [c for c in CJK.findall(text) if c not in NUMERALS]


def test_demo_speaks_the_reader_language():
    for program in DEMO_IN_CHINESE:
        rc, en, err = run(program, [], env=EN)
        assert rc == 0 and en, (program, err[:200])
        assert not chinese(en), '%s: Chinese in the demo under en_US: %r' % (
            program, ''.join(chinese(en))[:40])
        rc, zh, err = run(program, [], env=ZH)
        assert rc == 0 and len(chinese(zh)) > 10, \
            '%s: the demo under zh_CN is not in Chinese: %r' % (program, zh[:200])
        assert run(program, ['--lang', 'zh'], env=EN)[1] == zh, program
        # the headings of the demo's sections are Chinese too
        headings = [l for l in zh.split('\n') if l.startswith('## ')]
        assert all(chinese(h) for h in headings), (program, headings)


def test_demos_and_reports_speak_chinese_line_for_line():
    """Under zh_CN each demo (and each human-readable report) prints its
    English output translated line for line: the same numbers on every line
    (the Chinese edition quotes a transcript's lines from the Chinese run by
    their place in the English one, tools/excerpt.py), no English sentence
    left, and the tables' columns aligned by display width."""
    from helpers import both_languages
    columns = {     # each demo's table rows, whose cells must stay in their columns
        'ch01-why-attention': r'^(self-attention|recurrent|conv)',
        'ch02-attention': r'^ +\d+ +(multiply-adds|exp|tanh) ',
        'ch03-multi-head': r'^(no biases|biases|   ?\d+ )',
        'ch06-embeddings': r'^(base|big|C-|B-) ',
    }
    for program in DEMO_IN_CHINESE:     # ch09's demo translates into Chinese
        both_languages(program, columns=columns.get(program),
                       english_has_chinese=program == 'ch09-translate')
    en, zh = both_languages('ch06-embeddings', ['--params', 'base'],
                            columns=r'^(embedding|encoder \(|decoder \(|total)')
    assert '编码器（6 层）' in zh and '合计' in zh, zh

#!/usr/bin/python3
"""The book's exercise grader: build each exercise's checks with the student's
C file, run every check in its own limited process, and report.

    tools/grade.py                       grade every exercise in exercises/
    tools/grade.py --ex appA-transpose   grade one (several: comma- or space-
                                         separated ids or globs, 'ch02-*')
    tools/grade.py --submission DIR      take the student's C files from DIR
                                         (nothing else: tests, headers and the
                                         grader are always this tree's own)

Prints, per check, OK or FAIL with its points and, on failure, what was
expected, what came and a hint; then the total.  Writes Gradescope's
results.json (--results, default build/grade/results.json) in every case, even
when the student's code crashes.  Exit status 0 only on a full score.

Feedback language: --lang zh|en|both, else $GRADE_LANG, else $LANG (zh_* gives
Chinese, en_* English); anything else gives both.

Each check runs as `checks NAME ATOL RTOL` in its own process group with a
CPU-time limit (ulimit -t), a wall-clock limit, AddressSanitizer's memory
limits (hard_rss_limit_mb, max_allocation_size_mb; RLIMIT_AS and RLIMIT_DATA
break ASan's shadow memory) plus the grader's own watch on the resident size,
and an output cap.  A result counts only if it carries the run's secret token
(see exercises/harness/harness.c) and the process then exits with status 0.

Python standard library only.
"""
import argparse
import concurrent.futures
import fnmatch
import hashlib
import json
import math
import os
import re
import secrets
import select
import shutil
import signal
import subprocess
import sys
import time
import traceback

TOOLS = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ROOT = os.path.dirname(TOOLS)

CC = os.environ.get('GRADE_CC', 'cc')
STD = ['-std=c11', '-D_POSIX_C_SOURCE=200809L', '-Wall', '-Wextra', '-pedantic',
       '-fdiagnostics-color=never']
SAN = ['-fsanitize=address,undefined', '-fno-sanitize-recover=all',
       '-fno-omit-frame-pointer', '-g', '-O1']

DEFAULT_LIMITS = {
    'cpu_seconds': 2,       # RLIMIT_CPU of one check
    'wall_seconds': 10,     # wall clock of one check
    'memory_mb': 512,       # resident memory of one check (ASan's hard_rss_limit_mb)
    'alloc_mb': 256,        # largest single allocation (ASan's max_allocation_size_mb)
    'output_kb': 64,        # stdout + stderr of one check
}

# What a student's file may call besides the book's core library.  Anything
# else (files, processes, signals, the environment, raw system calls) is
# refused before the code runs.
ALLOWED_EXTERNAL = set('''
malloc calloc realloc free aligned_alloc abs labs llabs div ldiv qsort bsearch
atoi atol atof strtod strtof strtold strtol strtoul strtoll strtoull rand srand
exit abort _Exit
memcpy memmove memset memcmp memchr strlen strcmp strncmp strcpy strncpy strcat
strncat strchr strrchr strstr strspn strcspn
printf fprintf puts putchar fputs fputc putc fwrite fflush snprintf sprintf
vprintf vfprintf vsnprintf vsprintf stdout stderr
__assert_fail __stack_chk_fail __errno_location __ctype_b_loc __ctype_tolower_loc
__ctype_toupper_loc toupper tolower _GLOBAL_OFFSET_TABLE_
'''.split())
_MATH = '''acos asin atan atan2 cos sin tan acosh asinh atanh cosh sinh tanh exp
exp2 expm1 frexp ilogb ldexp log log10 log1p log2 logb modf scalbn scalbln cbrt
fabs hypot pow sqrt erf erfc lgamma tgamma ceil floor nearbyint rint lrint llrint
round lround llround trunc fmod remainder remquo copysign nan nextafter
nexttoward fdim fmax fmin fma'''.split()
ALLOWED_EXTERNAL |= {f + s for f in _MATH for s in ('', 'f', 'l')}
# Core-library functions that touch files: not needed by any exercise.
DENIED_LIBRARY = {'mat_read', 'mat_load'}

STANDARD_HEADERS = set('''assert.h complex.h ctype.h errno.h fenv.h float.h
inttypes.h iso646.h limits.h math.h stdalign.h stdarg.h stdbool.h stddef.h
stdint.h stdio.h stdlib.h stdnoreturn.h string.h tgmath.h'''.split())
FORBIDDEN_WORDS = re.compile(
    r'\b(asm|__asm|__asm__|__attribute__|__attribute|__declspec|__builtin_frame_address|'
    r'__builtin_return_address|__builtin_extract_return_addr|__builtin_apply|'
    r'__builtin_longjmp|__builtin_setjmp|__builtin_trap|__builtin_unreachable)\b')
FORBIDDEN_SECTIONS = ('.init_array', '.preinit_array', '.fini_array', '.ctors',
                      '.dtors', '.init', '.fini')

SIGNALS = {
    signal.SIGSEGV: ('segmentation fault: a read or write through a bad pointer',
                     '段错误：通过无效指针读写'),
    signal.SIGBUS: ('bus error: a bad memory access', '总线错误：非法内存访问'),
    signal.SIGFPE: ('arithmetic error, e.g. an integer division by zero',
                    '算术错误，例如整数除以零'),
    signal.SIGILL: ('illegal instruction', '非法指令'),
    signal.SIGABRT: ('abort() was called', '调用了 abort()'),
}


# ---------------------------------------------------------------- language
class Lang:
    def __init__(self, mode):
        self.mode = mode

    def lines(self, en, zh):
        """One message as a list of lines in the chosen language(s)."""
        if self.mode == 'en':
            return [en]
        if self.mode == 'zh':
            return [zh]
        return [en, zh] if en != zh else [en]

    def join(self, en, zh, sep=' · '):
        return sep.join(self.lines(en, zh))


def choose_lang(arg):
    if arg:
        return arg
    for var in ('GRADE_LANG', 'LC_ALL', 'LC_MESSAGES', 'LANG'):
        v = os.environ.get(var, '')
        if v.startswith('zh'):
            return 'zh'
        if v.startswith('en'):
            return 'en'
        if var == 'GRADE_LANG' and v == 'both':
            return 'both'
    return 'both'


# ---------------------------------------------------------------- exercises
class Exercise:
    def __init__(self, root, path):
        self.dir = path
        with open(os.path.join(path, 'exercise.json'), encoding='utf-8') as f:
            meta = json.load(f)
        self.meta = meta
        self.id = meta['id']
        if self.id != os.path.basename(path):
            raise ValueError('%s: id %r differs from its directory name' % (path, self.id))
        self.title = meta['title']
        self.number = meta.get('exercise', '')
        self.student_files = meta['student_files']
        self.functions = set(meta['functions'])
        tol = meta.get('tolerance', {})
        self.atol = float(tol.get('atol', 1e-9))
        self.rtol = float(tol.get('rtol', 1e-9))
        self.limits = dict(DEFAULT_LIMITS, **meta.get('limits', {}))
        self.checks = meta['checks']
        # headers of the book's library the exercise builds on (e.g. layernorm.h):
        # an exercise whose chapter's code is not in code/ yet is left out
        self.requires = meta.get('requires', [])
        self.missing = [h for h in self.requires
                        if not os.path.isfile(os.path.join(root, 'code', h))]
        names = [c['name'] for c in self.checks]
        if len(set(names)) != len(names):
            raise ValueError('%s: two checks share a name' % self.id)


def find_exercises(root):
    base = os.path.join(root, 'exercises')
    out = []
    for name in sorted(os.listdir(base)):
        d = os.path.join(base, name)
        if name.startswith(('_', '.')) or not os.path.isfile(os.path.join(d, 'exercise.json')):
            continue
        out.append(Exercise(root, d))
    return out


def select_exercises(exercises, spec):
    """The exercises SPEC names (all by default), less those whose chapter's
    code is missing from code/: a note says so on stderr."""
    chosen = exercises
    if spec:
        pats = [p for p in re.split(r'[,\s]+', spec) if p]
        chosen = [e for e in exercises if any(fnmatch.fnmatchcase(e.id, p) for p in pats)]
        unknown = [p for p in pats if not any(fnmatch.fnmatchcase(e.id, p) for e in exercises)]
        if unknown:
            raise SystemExit('grade: no exercise matches %s; the exercises are:\n  %s'
                             % (', '.join(unknown), '\n  '.join(e.id for e in exercises)))
    for e in chosen:
        if e.missing:
            print('grade: %s left out: it needs code/%s, not in this tree'
                  % (e.id, ', code/'.join(e.missing)), file=sys.stderr)
    chosen = [e for e in chosen if not e.missing]
    if not chosen:
        raise SystemExit('grade: no exercise to grade')
    return chosen


def find_submitted(sub, ex, fname):
    """The student's FNAME for EX in the submission directory SUB, or None.
    Looked for as exercises/ID/FNAME, ID/FNAME, FNAME, then anywhere by name."""
    for rel in (os.path.join('exercises', ex.id, fname), os.path.join(ex.id, fname), fname):
        p = os.path.join(sub, rel)
        if os.path.isfile(p) and not os.path.islink(p):
            return p
    hits = []
    for dirpath, dirnames, filenames in os.walk(sub):
        dirnames[:] = [d for d in dirnames if not d.startswith('.')]
        if fname in filenames:
            hits.append(os.path.join(dirpath, fname))
    hits = [h for h in hits if not os.path.islink(h)]
    return min(hits, key=lambda h: (len(h), h)) if hits else None


# ---------------------------------------------------------------- building
def sha(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b'\0')
    return h.hexdigest()[:20]


def read_bytes(path):
    with open(path, 'rb') as f:
        return f.read()


def run_tool(args, cwd=None, timeout=120):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                       errors='replace')
    return p.returncode, p.stdout, p.stderr


class Toolchain:
    """The objects every exercise links: the harness (no sanitizers) and the
    book's library code/*.c (with sanitizers), built once and cached by the
    hash of their sources."""

    def __init__(self, root, build, pool):
        self.root = root
        self.build = build
        self.cache = os.path.join(build, 'cache')
        os.makedirs(self.cache, exist_ok=True)
        self.code = os.path.join(root, 'code')
        self.harness_dir = os.path.join(root, 'exercises', 'harness')
        headers = sorted([os.path.join(self.code, f) for f in os.listdir(self.code)
                          if f.endswith('.h')] + [os.path.join(self.harness_dir, 'grade.h')])
        # the grader itself is part of every key: new screening rules rebuild
        self.header_hash = sha(read_bytes(os.path.abspath(__file__)),
                               *[read_bytes(h) for h in headers])
        self.lib_srcs = sorted(os.path.join(self.code, f) for f in os.listdir(self.code)
                               if f.endswith('.c') and not re.match(r'(ch|app)', f))
        jobs = [pool.submit(self.compile, os.path.join(self.harness_dir, 'harness.c'),
                            STD + ['-Werror', '-O1', '-g'], ['-I', self.harness_dir])]
        jobs += [pool.submit(self.compile, s, STD + SAN, ['-I', self.code])
                 for s in self.lib_srcs]
        objs = [j.result() for j in jobs]
        self.harness = objs[0]
        self.library = self.archive(objs[1:])
        self.library_symbols = self.defined_symbols(objs[1:]) - DENIED_LIBRARY

    def compile(self, src, flags, incs, deps=()):
        key = sha(read_bytes(src), self.header_hash, CC, *flags, *incs,
                  *[read_bytes(d) for d in deps])
        obj = os.path.join(self.cache, '%s-%s.o' % (os.path.basename(src)[:-2], key))
        if not os.path.exists(obj):
            rc, out, err = run_tool([CC] + flags + incs + ['-c', src, '-o', obj + '.tmp'])
            if rc != 0:
                raise RuntimeError('cannot compile %s:\n%s' % (src, err))
            os.replace(obj + '.tmp', obj)
        return obj

    def archive(self, objs):
        key = sha(*objs)
        lib = os.path.join(self.cache, 'libattn-%s.a' % key)
        if not os.path.exists(lib):
            if objs:
                rc, out, err = run_tool(['ar', 'rcs', lib + '.tmp'] + objs)
                if rc != 0:
                    raise RuntimeError('ar: ' + err)
                os.replace(lib + '.tmp', lib)
            else:
                lib = None
        return lib

    @staticmethod
    def defined_symbols(objs):
        names = set()
        if objs:
            rc, out, err = run_tool(['nm', '-P', '--defined-only'] + objs)
            for line in out.splitlines():
                f = line.split()
                if len(f) >= 2 and f[1] in 'TDBR':
                    names.add(f[0])
        return names


class Built:
    """The outcome of building one exercise: a binary, or the reason there is none."""

    def __init__(self, binary=None, reason=None, message=None, warnings=''):
        self.binary = binary
        self.reason = reason          # None, 'missing', 'compile', 'forbidden', 'grader'
        self.message = message        # (en, zh) or None
        self.warnings = warnings


def filter_diagnostics(text, allowed_prefixes):
    """Compiler messages located in the student's file or the grader's public
    headers; messages from anywhere else are dropped (and counted), so an
    #include of a hidden file can never show its lines."""
    keep, out, dropped = True, [], 0
    loc = re.compile(r'^(?:In file included from |\s+from )?([^\s:][^:]*):(?:\d+:)*\s')
    for line in text.splitlines():
        m = loc.match(line)
        if m or line.startswith(('In file included from', '                 from')):
            path = m.group(1) if m else ''
            keep = any(path.startswith(p) for p in allowed_prefixes)
            if not keep and not line.startswith(('In file included', '                 from')):
                dropped += 1
        if keep and not line.startswith(('In file included from', '                 from')):
            out.append(line)
    if dropped:
        out.append('(%d message(s) from other files not shown)' % dropped)
    return '\n'.join(out)


def screen(ex, tc, src, rel, work):
    """Refuse, before anything runs, a file that includes what it should not,
    uses inline assembly or attributes, defines symbols the exercise does not
    ask for, or calls functions outside the allowed set.  Returns Built with a
    reason on refusal, else None (and the warnings)."""
    incs = ['-I', ex.dir, '-I', tc.code]
    rc, pre, err = run_tool([CC] + STD + incs + ['-E', rel], cwd=work)
    # includes made from the student's file, and the student's own lines
    allowed_dirs = [os.path.realpath(ex.dir), os.path.realpath(tc.code)]
    stack, words, bad_includes, pragmas = [], set(), [], []
    for line in pre.splitlines():
        m = re.match(r'# \d+ "([^"]*)"((?: \d)*)$', line)
        if m:
            fname, flags = m.group(1), m.group(2).split()
            if '1' in flags:
                if stack and stack[-1] == rel:
                    real = os.path.realpath(os.path.join(work, fname))
                    base = os.path.basename(fname)
                    ok = (any(real.startswith(d + os.sep) for d in allowed_dirs)
                          and base.endswith('.h')) or \
                         (base in STANDARD_HEADERS and real.startswith('/usr/'))
                    if not ok:
                        bad_includes.append(fname)
                stack.append(fname)
            elif '2' in flags:
                if stack:
                    stack.pop()
                if not stack or stack[-1] != fname:
                    stack.append(fname)
            else:
                if not stack:
                    stack.append(fname)
                else:
                    stack[-1] = fname
            continue
        if stack and stack[-1] == rel:
            if line.lstrip().startswith('#pragma'):
                if not re.match(r'\s*#pragma\s+(once|GCC\s+diagnostic)\b', line):
                    pragmas.append(line.strip())
            for w in FORBIDDEN_WORDS.findall(line):
                words.add(w)
    if bad_includes:
        return Built(reason='forbidden', message=(
            '#include of %s is not allowed: use the standard C headers and the '
            "exercise's own header" % ', '.join(sorted(set(os.path.basename(b) for b in bad_includes))),
            '不允许 #include %s：只能包含标准 C 头文件和本练习自己的头文件'
            % ', '.join(sorted(set(os.path.basename(b) for b in bad_includes)))))
    if rc != 0:
        return Built(reason='compile', message=(
            'did not compile (preprocessor):', '预处理失败：'),
            warnings=filter_diagnostics(err, [rel]))
    if words or pragmas:
        what = ', '.join(sorted(words) + pragmas)
        return Built(reason='forbidden', message=(
            'not allowed in an exercise file: %s' % what,
            '练习文件中不允许使用：%s' % what))
    # compile on its own, without sanitizers, to see its symbols and sections
    obj = os.path.join(work, 'screen.o')
    rc, out, err = run_tool([CC] + STD + incs + ['-O0', '-c', rel, '-o', obj], cwd=work)
    diags = filter_diagnostics(err, [rel, ex.dir, tc.code, '/usr/'])
    if rc != 0:
        return Built(reason='compile', message=('did not compile:', '编译失败：'),
                     warnings=diags)
    rc, out, err = run_tool(['nm', '-P', obj])
    extra_defined, not_allowed = [], []
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        name, kind = f[0], f[1]
        if kind in 'Uwv':
            if name not in ALLOWED_EXTERNAL and name not in tc.library_symbols:
                not_allowed.append(name)
        elif kind in 'TDBRCGSVWiuI' and name not in ex.functions:
            extra_defined.append(name)
    rc, sect, err = run_tool(['readelf', '-S', '-W', obj])
    bad_sections = sorted({s for s in FORBIDDEN_SECTIONS
                           if re.search(r'\s%s(\s|\.)' % re.escape(s), sect)})
    if extra_defined:
        names = ', '.join(sorted(extra_defined))
        return Built(reason='forbidden', message=(
            'your file defines %s, which the exercise does not ask for: make helper '
            'functions and variables static (the grader provides main)' % names,
            '你的文件定义了练习没有要求的 %s：辅助函数和变量请声明为 static'
            '（main 由评分程序提供）' % names), warnings=diags)
    if not_allowed:
        names = ', '.join(sorted(set(not_allowed)))
        return Built(reason='forbidden', message=(
            'your file uses %s, which exercises may not call (allowed: the C '
            "library's math, memory, string and printf functions, and the book's "
            'core library)' % names,
            '你的文件调用了练习中不允许使用的 %s（允许：C 标准库的数学、内存、字符串和 '
            'printf 函数，以及本书的核心库）' % names), warnings=diags)
    if bad_sections:
        return Built(reason='forbidden', message=(
            'your file has code that runs before or after main (%s)' % ', '.join(bad_sections),
            '你的文件含有在 main 之前或之后运行的代码（%s）' % ', '.join(bad_sections)))
    return Built(warnings=diags)


def build_exercise(ex, tc, sources, work):
    """sources: {student file name: path or None}.  Returns Built."""
    missing = [f for f, p in sources.items() if p is None]
    if missing:
        return Built(reason='missing', message=(
            'not submitted: %s' % ', '.join(missing), '没有提交：%s' % ', '.join(missing)))
    src_dir = os.path.join(work, 'src')
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(src_dir)
    incs = ['-I', ex.dir, '-I', tc.code]
    objs, warnings = [], []
    checks_src = os.path.join(ex.dir, 'checks.c')
    ex_headers = [os.path.join(ex.dir, h) for h in sorted(os.listdir(ex.dir)) if h.endswith('.h')]
    checks_obj = tc.compile(checks_src, STD + ['-Werror'] + SAN,
                            ['-I', ex.dir, '-I', tc.harness_dir, '-I', tc.code], ex_headers)
    for fname, path in sources.items():
        data = read_bytes(path)
        if len(data) > 1 << 20:
            return Built(reason='forbidden', message=(
                '%s is larger than 1 MiB' % fname, '%s 超过 1 MiB' % fname))
        rel = os.path.join('src', fname)
        with open(os.path.join(work, rel), 'wb') as f:
            f.write(data)
        key = sha(data, tc.header_hash, *[read_bytes(h) for h in ex_headers],
                  CC, *STD, *SAN, json.dumps(sorted(ex.functions)),
                  *sorted(tc.library_symbols))
        obj = os.path.join(tc.cache, 'student-%s.o' % key)
        note = obj + '.warnings'
        if os.path.exists(obj) and os.path.exists(note):
            with open(note, encoding='utf-8') as f:
                warnings.append(f.read())
            objs.append(obj)
            continue
        refused = screen(ex, tc, path, rel, work)
        if refused.reason:
            return refused
        rc, out, err = run_tool([CC] + STD + SAN + incs + ['-c', rel, '-o', obj + '.tmp'],
                                cwd=work)
        if rc != 0:
            return Built(reason='compile', message=('did not compile:', '编译失败：'),
                         warnings=filter_diagnostics(err, [rel, ex.dir, tc.code, '/usr/']))
        os.replace(obj + '.tmp', obj)
        with open(note, 'w', encoding='utf-8') as f:
            f.write(refused.warnings)
        warnings.append(refused.warnings)
        objs.append(obj)
    binary = os.path.join(work, 'checks')
    args = [CC] + SAN + ['-o', binary, tc.harness, checks_obj] + objs
    args += ([tc.library] if tc.library else []) + ['-lm']
    rc, out, err = run_tool(args, cwd=work)
    if rc != 0:
        return Built(reason='compile', message=(
            'did not link (is a function missing or defined twice?):',
            '链接失败（是否缺少某个函数或重复定义？）：'),
            warnings=filter_diagnostics(err, ['src/', '/usr/bin/ld']) or err[-2000:])
    return Built(binary=binary, warnings='\n'.join(w for w in warnings if w.strip()))


# ---------------------------------------------------------------- running
def rss_kb(pid):
    try:
        with open('/proc/%d/status' % pid) as f:
            for line in f:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def run_check(binary, name, atol, rtol, limits):
    """Run one check; return a dict with status 'pass'/'fail', a reason and
    the facts to explain it."""
    cpu, wall = limits['cpu_seconds'], limits['wall_seconds']
    cap = limits['output_kb'] * 1024
    token = secrets.token_hex(24)
    rfd, wfd = os.pipe()
    env = {
        'PATH': '/usr/bin:/bin',
        'LANG': 'C.UTF-8',
        'ASAN_OPTIONS': ':'.join([
            'detect_leaks=0', 'allocator_may_return_null=0',
            'hard_rss_limit_mb=%d' % limits['memory_mb'],
            'max_allocation_size_mb=%d' % limits['alloc_mb'],
            'malloc_limit_mb=%d' % limits['memory_mb'],
            'abort_on_error=0', 'exitcode=86', 'handle_abort=0', 'detect_stack_use_after_return=0',
            'print_summary=1', 'color=never', 'symbolize=1', 'fast_unwind_on_malloc=1']),
        'UBSAN_OPTIONS': 'print_stacktrace=1:halt_on_error=1:exitcode=87:color=never',
        'GRADE_TOKEN': token,
        'GRADE_FD': str(wfd),
    }
    # ulimit in the shell that execs the check: no preexec_fn (unsafe with threads)
    # (soft limit: SIGXCPU; the hard one, a second later, SIGKILL)
    script = ('ulimit -H -t %d; ulimit -S -t %d; ulimit -c 0; ulimit -f 1024; exec "$0" "$@"'
              % (math.ceil(cpu) + 1, math.ceil(cpu)))
    start = time.monotonic()
    try:
        p = subprocess.Popen(['/bin/sh', '-c', script, binary, name, repr(atol), repr(rtol)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, pass_fds=(wfd,), env=env,
                             cwd=os.path.dirname(binary), start_new_session=True)
    finally:
        os.close(wfd)
    ofd, efd = p.stdout.fileno(), p.stderr.fileno()
    streams = {ofd: bytearray(), efd: bytearray(), rfd: bytearray()}
    names = {ofd: 'out', efd: 'err', rfd: 'result'}
    open_fds = set(streams)
    killed = None
    status = rusage = None
    peak_rss = 0

    def kill(why):
        nonlocal killed
        if killed is None:
            killed = why
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    while True:
        if status is None:
            pid, st, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                status, rusage = st, ru
        if status is not None and not open_fds:
            break
        elapsed = time.monotonic() - start
        if status is None:
            if elapsed > wall:
                kill('timeout')
            r = rss_kb(p.pid)
            peak_rss = max(peak_rss, r)
            if r > limits['memory_mb'] * 1024 * 3 // 2:
                kill('memory')
        elif elapsed > wall + 5:       # exited, but a pipe stays open: give up on it
            break
        ready = select.select(list(open_fds), [], [], 0.02)[0] if open_fds else []
        if not open_fds:
            time.sleep(0.005)
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b''
            if not chunk:
                open_fds.discard(fd)
                continue
            buf = streams[fd]
            if names[fd] == 'result':
                if len(buf) < 65536:
                    buf.extend(chunk[:65536 - len(buf)])
                continue
            room = cap - (len(streams[ofd]) + len(streams[efd]))
            buf.extend(chunk[:max(room, 0)])
            if len(chunk) > room:
                kill('output')
                open_fds.discard(ofd)
                open_fds.discard(efd)
    if status is None:
        kill(killed or 'timeout')
        pid, status, rusage = os.wait4(p.pid, 0)
    p.returncode = 0       # reaped by wait4 above: keep Popen from waiting again
    p.stdout.close()
    p.stderr.close()
    os.close(rfd)
    elapsed = time.monotonic() - start
    out = bytes(streams[ofd]).decode('utf-8', 'replace')
    err = bytes(streams[efd]).decode('utf-8', 'replace')
    res = bytes(streams[rfd]).decode('utf-8', 'replace')
    cpu_used = rusage.ru_utime + rusage.ru_stime if rusage else 0.0
    facts = {'stdout': out, 'stderr': err, 'seconds': round(elapsed, 3),
             'cpu_seconds': round(cpu_used, 3)}
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None

    # results carrying the token, for this check
    verdicts = []
    for line in res.splitlines():
        tok, _, body = line.partition(' ')
        if tok != token:
            continue
        try:
            v = json.loads(body)
        except ValueError:
            continue
        if isinstance(v, dict) and v.get('check') == name:
            verdicts.append(v)

    if killed == 'output':
        return dict(facts, status='fail', reason='output-limit')
    if killed == 'timeout':
        return dict(facts, status='fail', reason='timeout')
    if killed == 'memory':
        return dict(facts, status='fail', reason='memory-limit')
    san = sanitizer_report(err)
    if sig in (signal.SIGXCPU,) or (sig == signal.SIGKILL and cpu_used >= 0.9 * cpu):
        return dict(facts, status='fail', reason='cpu-limit')
    if san:
        return dict(facts, status='fail', **san)
    if sig is not None:
        return dict(facts, status='fail', reason='signal', signal=sig)
    if len(verdicts) == 1 and code == 0:
        v = verdicts[0]
        if v.get('status') == 'pass':
            return dict(facts, status='pass', reason=None)
        return dict(facts, status='fail', reason='wrong', verdict=v)
    if len(verdicts) == 1:
        return dict(facts, status='fail', reason='after-check', code=code)
    if code == 2 and 'no check named' in err:
        return dict(facts, status='fail', reason='grader', detail=err.strip())
    return dict(facts, status='fail', reason='exit', code=code)


def sanitizer_report(err):
    """The first line of an ASan/UBSan report, with where it happened."""
    if 'hard rss limit exhausted' in err or 'malloc limit' in err:
        return {'reason': 'memory-limit'}
    m = re.search(r'ERROR: AddressSanitizer: requested allocation size (0x[0-9a-f]+)', err)
    if m or 'allocation-size-too-big' in err:
        size = int(m.group(1), 16) if m else 0
        return {'reason': 'alloc-too-big', 'size': size}
    if 'out of memory: allocator is trying to allocate' in err or 'ERROR: AddressSanitizer: out of memory' in err:
        return {'reason': 'memory-limit'}
    m = re.search(r'ERROR: AddressSanitizer: ([\w-]+)[^\n]*', err)
    u = re.search(r'^([^\n:]*):(\d+):(\d+): runtime error: ([^\n]*)', err, re.M)
    if not m and not u:
        return None
    if m:
        kind = m.group(1)
        detail = ''
        d = re.search(r'^(READ|WRITE) of size (\d+)', err, re.M)
        if d:
            detail = '%s of size %s' % (d.group(1), d.group(2))
        if kind == 'SEGV':
            d = re.search(r'SEGV on unknown address (0x[0-9a-f]+|\(nil\))', err)
            detail = 'address %s' % (d.group(1) if d else '?')
            if re.search(r'The signal is caused by a (READ|WRITE)', err):
                detail = re.search(r'The signal is caused by a (\w+)', err).group(1) + ' at ' + detail
        where = first_student_frame(err)
        return {'reason': 'sanitizer', 'tool': 'AddressSanitizer', 'kind': kind,
                'detail': detail, 'where': where}
    where = '%s:%s' % (os.path.basename(u.group(1)), u.group(2))
    return {'reason': 'sanitizer', 'tool': 'UndefinedBehaviorSanitizer', 'kind': 'runtime error',
            'detail': u.group(4), 'where': where}


def first_student_frame(err):
    for m in re.finditer(r'#\d+ 0x[0-9a-f]+ in (\S+) (\S+)', err):
        func, loc = m.group(1), m.group(2)
        if re.match(r'(.*/)?src/[^/:]+\.c:\d+', loc):     # the student's file, as compiled
            return '%s (%s)' % (func, os.path.basename(loc))
    for m in re.finditer(r'#\d+ 0x[0-9a-f]+ in (\S+) (\S+)', err):
        if 'harness' not in m.group(2) and 'libsanitizer' not in m.group(2):
            return '%s (%s)' % (m.group(1), os.path.basename(m.group(2)))
    return ''


# ---------------------------------------------------------------- messages
def fmt_num(x):
    if isinstance(x, str):
        return x
    if isinstance(x, float) and x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def explain(ex, check, outcome, built, lang):
    """The feedback lines for one failed (or passed) check."""
    L = lang.lines
    r = outcome['reason']
    lim = ex.limits
    lines = []
    if r is None:
        return lines
    if r in ('missing', 'compile', 'forbidden', 'grader-build'):
        lines += L(*built.message)
        if built.warnings:
            lines += ['    ' + w for w in built.warnings.splitlines()[:30]]
    elif r == 'wrong':
        v = outcome['verdict']
        kind = v.get('kind')
        if kind in ('value', 'int', 'changed'):
            what, exp, act = v.get('what', '?'), fmt_num(v.get('expected')), fmt_num(v.get('actual'))
            if kind == 'value':
                a, rt = v.get('atol', 0), v.get('rtol', 0)
                if a == 0 and rt == 0:
                    tol_en, tol_zh = 'compared exactly', '精确比较'
                else:
                    tol_en = 'tolerance %s + %s*|expected|' % (fmt_num(a), fmt_num(rt))
                    tol_zh = '容差 %s + %s*|期望值|' % (fmt_num(a), fmt_num(rt))
                lines += L('%s: expected %s, got %s (%s)' % (what, exp, act, tol_en),
                           '%s：期望 %s，实际得到 %s（%s）' % (what, exp, act, tol_zh))
                if act == 'nan':
                    lines += L('nan: this entry was never written, or came from inf - inf or 0/0',
                               'nan：这个位置从未被写入，或者来自 inf - inf、0/0 之类的运算')
            elif kind == 'int':
                lines += L('%s: expected %s, got %s' % (what, exp, act),
                           '%s：期望 %s，实际得到 %s' % (what, exp, act))
            else:
                lines += L('%s was changed: it was %s, now %s (inputs must stay as they were)'
                           % (what, exp, act),
                           '%s 被修改了：原来是 %s，现在是 %s（输入必须保持不变）' % (what, exp, act))
        else:
            lines += L(v.get('en', 'failed'), v.get('zh', '失败'))
    elif r == 'cpu-limit':
        cpu = fmt_num(float(lim['cpu_seconds']))
        lines += L('used more than %s s of CPU time and was stopped: an endless loop?' % cpu,
                   '占用 CPU 时间超过 %s 秒，已被终止：是不是死循环？' % cpu)
    elif r == 'timeout':
        lines += L('did not finish within %s s and was stopped' % lim['wall_seconds'],
                   '%s 秒内没有结束，已被终止' % lim['wall_seconds'])
    elif r == 'memory-limit':
        lines += L('used more than %s MB of memory and was stopped' % lim['memory_mb'],
                   '占用内存超过 %s MB，已被终止' % lim['memory_mb'])
    elif r == 'alloc-too-big':
        mb = outcome.get('size', 0) / 2 ** 20
        lines += L('tried to allocate %.0f MB in one block (the limit is %s MB)'
                   % (mb, lim['alloc_mb']),
                   '试图一次分配 %.0f MB 内存（上限为 %s MB）' % (mb, lim['alloc_mb']))
    elif r == 'output-limit':
        lines += L('printed more than %s KiB: output truncated and the check stopped'
                   % lim['output_kb'],
                   '输出超过 %s KiB：输出已截断，检查被终止' % lim['output_kb'])
    elif r == 'signal':
        s = outcome['signal']
        sname = signal.Signals(s).name if s in signal.Signals._value2member_map_ else 'signal %d' % s
        en, zh = SIGNALS.get(s, ('killed by a signal', '被信号终止'))
        lines += L('crashed: %s (%s)' % (sname, en), '程序崩溃：%s（%s）' % (sname, zh))
    elif r == 'sanitizer':
        where = outcome.get('where')
        head = '%s: %s%s%s' % (outcome['tool'], outcome['kind'],
                               ' (%s)' % outcome['detail'] if outcome.get('detail') else '',
                               ' in %s' % where if where else '')
        en = {'heap-buffer-overflow': 'a read or write past the end of a buffer',
              'stack-buffer-overflow': 'a read or write past the end of an array on the stack',
              'global-buffer-overflow': 'a read or write past the end of a global array',
              'SEGV': 'a read or write through a bad pointer',
              'stack-overflow': 'the stack overflowed: endless recursion or a huge local array',
              'heap-use-after-free': 'memory used after it was freed',
              'double-free': 'memory freed twice',
              'runtime error': 'undefined behaviour'}.get(outcome['kind'], 'a memory error')
        zh = {'heap-buffer-overflow': '越过缓冲区末尾读写',
              'stack-buffer-overflow': '越过栈上数组末尾读写',
              'global-buffer-overflow': '越过全局数组末尾读写',
              'SEGV': '通过无效指针读写',
              'stack-overflow': '栈溢出：无穷递归或过大的局部数组',
              'heap-use-after-free': '使用已释放的内存',
              'double-free': '重复释放内存',
              'runtime error': '未定义行为'}.get(outcome['kind'], '内存错误')
        lines += L('check %s stopped by %s: %s' % (check['name'], head, en),
                   '检查 %s 被 %s 终止：%s' % (check['name'], head, zh))
    elif r == 'exit':
        c = outcome.get('code')
        lines += L('your function called exit() or the program ended during the check '
                   '(exit status %s); no result was reported' % c,
                   '你的函数调用了 exit()，或程序在检查过程中结束（退出状态 %s）；没有得到检查结果' % c)
    elif r == 'after-check':
        lines += L('the program failed after the check (exit status %s)' % outcome.get('code'),
                   '检查之后程序异常结束（退出状态 %s）' % outcome.get('code'))
    elif r == 'grader':
        lines += L('grader error (tell your teacher): %s' % outcome.get('detail', ''),
                   '评分程序出错（请告诉老师）：%s' % outcome.get('detail', ''))
    hint = check.get('hint')
    if hint and r not in ('missing', 'compile', 'forbidden'):
        lines += L('hint: ' + hint['en'], '提示：' + hint['zh'])
    if outcome.get('stdout') and not check.get('hidden') and r not in ('output-limit',):
        printed = outcome['stdout'].splitlines()
        lines += L('your code printed:', '你的代码输出了：')
        lines += ['  | ' + l[:200] for l in printed[:8]]
        if len(printed) > 8:
            lines.append('  | ...')
    return lines


# ---------------------------------------------------------------- main
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--root', default=DEFAULT_ROOT,
                    help='the tree holding exercises/, code/ and tools/ (default: this one)')
    ap.add_argument('--ex', default=os.environ.get('EX', ''),
                    help='exercise ids or globs, comma- or space-separated')
    ap.add_argument('--check', default='', help='run only this check (of the one exercise chosen)')
    ap.add_argument('--submission', help="directory with the student's exercise C files")
    ap.add_argument('--results', help='where to write results.json (default build/grade/results.json)')
    ap.add_argument('--build', help='build directory (default build/grade under the root)')
    ap.add_argument('--lang', choices=('zh', 'en', 'both'))
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--cpu-seconds', type=float, help='override every check\'s CPU limit')
    ap.add_argument('--quiet', action='store_true', help='print only failures and the total')
    args = ap.parse_args(argv)

    root = os.path.abspath(args.root)
    build = os.path.abspath(args.build or os.path.join(root, 'build', 'grade'))
    results_path = os.path.abspath(args.results or os.path.join(build, 'results.json'))
    lang = Lang(choose_lang(args.lang))
    start = time.monotonic()
    tests, report, total, possible = [], [], 0, 0
    status = 1
    try:
        exercises = select_exercises(find_exercises(root), args.ex)
        if args.check and len(exercises) != 1:
            raise SystemExit('grade: --check needs exactly one exercise (--ex ID)')
        os.makedirs(build, exist_ok=True)
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            tc = Toolchain(root, build, pool)

            def sources(ex):
                if args.submission:
                    return {f: find_submitted(os.path.abspath(args.submission), ex, f)
                            for f in ex.student_files}
                return {f: (os.path.join(ex.dir, f) if os.path.isfile(os.path.join(ex.dir, f))
                            else None) for f in ex.student_files}

            builds = {ex.id: pool.submit(build_exercise, ex, tc, sources(ex),
                                         os.path.join(build, ex.id)) for ex in exercises}
            runs = []
            for ex in exercises:
                try:
                    b = builds[ex.id].result()
                except Exception as e:       # the grader's own files are broken
                    b = Built(reason='grader-build', message=(
                        'grader error (tell your teacher): %s' % e, '评分程序出错（请告诉老师）：%s' % e))
                builds[ex.id] = b
                lim = dict(ex.limits)
                if args.cpu_seconds:
                    lim['cpu_seconds'] = args.cpu_seconds
                    lim['wall_seconds'] = min(lim['wall_seconds'], args.cpu_seconds * 3 + 2)
                ex.limits = lim
                for c in ex.checks:
                    if args.check and c['name'] != args.check:
                        continue
                    if b.binary:
                        fut = pool.submit(run_check, b.binary, c['name'],
                                          float(c.get('atol', ex.atol)),
                                          float(c.get('rtol', ex.rtol)), lim)
                    else:
                        fut = None
                    runs.append((ex, c, fut))
            if args.check and not runs:
                raise SystemExit('grade: %s has no check %r' % (exercises[0].id, args.check))
            # report in order, exercise by exercise
            current = None
            ex_score = ex_max = 0
            for ex, c, fut in runs:
                if ex is not current:
                    if current is not None:
                        report.append('  %s %s/%s' % (lang.join('score', '得分', '/'), ex_score, ex_max))
                    current, ex_score, ex_max = ex, 0, 0
                    report.append('')
                    report.append('%s  %s %s' % (ex.id, ex.number,
                                                 lang.join(ex.title['en'], ex.title['zh'])))
                    b = builds[ex.id]
                    if b.binary and b.warnings.strip():
                        report += ['  ' + l for l in lang.lines('compiler warnings:', '编译器警告：')]
                        report += ['    ' + w for w in b.warnings.splitlines()[:20]]
                b = builds[ex.id]
                if fut is None:
                    outcome = {'status': 'fail', 'reason': b.reason}
                else:
                    try:
                        outcome = fut.result()
                    except Exception:
                        outcome = {'status': 'fail', 'reason': 'grader',
                                   'detail': traceback.format_exc(limit=2)}
                pts = c.get('points', 1)
                got = pts if outcome['status'] == 'pass' else 0
                ex_score += got
                ex_max += pts
                total += got
                possible += pts
                hidden = c.get('hidden', False)
                lines = explain(ex, c, outcome, b, lang)
                tag = ' (%s)' % lang.join('hidden', '隐藏', '/') if hidden else ''
                mark = 'OK' if got == pts else 'FAIL'
                if not args.quiet or mark == 'FAIL':
                    report.append('  %-42s %-4s %d/%d' % ((c['name'] + tag + ' ').ljust(42, '.'),
                                                        mark, got, pts))
                    report += ['      ' + l for l in lines]
                tests.append({
                    'name': '%s %s: %s' % (ex.number, ex.id, c['name']),
                    'score': got, 'max_score': pts,
                    'status': 'passed' if got == pts else 'failed',
                    'output': '\n'.join(lines) if lines else lang.join('passed', '通过'),
                    'visibility': 'after_published' if hidden else 'visible',
                    'extra_data': {'exercise': ex.id, 'check': c['name'],
                                   'reason': outcome.get('reason'),
                                   'seconds': outcome.get('seconds')},
                })
            if current is not None:
                report.append('  %s %s/%s' % (lang.join('score', '得分', '/'), ex_score, ex_max))
        elapsed = time.monotonic() - start
        report.append('')
        report.append('%s: %s/%s  (%d %s, %d %s, %.1f s)' % (
            lang.join('Total', '总分', '/'), total, possible, len(exercises),
            lang.join('exercises', '个练习', '/'), len(tests), lang.join('checks', '项检查', '/'),
            elapsed))
        print('\n'.join(report).lstrip('\n'))
        status = 0 if total == possible and possible > 0 else 1
        summary = '%s/%s' % (total, possible)
    except SystemExit as e:
        summary = str(e)
        print(summary, file=sys.stderr)
        status = 2
    except Exception:
        summary = 'grader error:\n' + traceback.format_exc()
        print(summary, file=sys.stderr)
        status = 2
    finally:
        write_results(results_path, total, tests, summary if status else '',
                      time.monotonic() - start)
    return status


def write_results(path, score, tests, output, seconds):
    """Gradescope's results.json, written atomically, always valid JSON."""
    data = {'score': score, 'execution_time': round(seconds, 2),
            'output': output or 'graded %d checks' % len(tests),
            'visibility': 'visible', 'stdout_visibility': 'hidden', 'tests': tests}
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
    os.replace(tmp, path)


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
"""The book's exercise grader: build each exercise's checks with the student's
C file in a sandbox, run every check in its own sandboxed process, and judge
the values it produced against the instructor's solution's, here.

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

How a submission is graded (exercises/INSTRUCTOR.md has the threat model):

  1. Only regular files, found inside the submission directory (no symbolic
     link, no path that leaves it), at most 1 MiB, are copied into a fresh
     scratch directory of their own.
  2. In the sandbox (bubblewrap: user, PID, mount, network, IPC and UTS
     namespaces; the system read-only; only the scratch directory writable;
     limits on CPU, memory, processes, open files and file size) the student's
     file is preprocessed under the real flags.  The lint reads exactly that
     preprocessed text, and exactly that text is compiled (again in the
     sandbox) and linked with the harness, the checks and the book's library.
  3. Each check runs in a sandbox of its own (the scratch directory is not in
     it, nor is anything of the grader) as `checks --emit 3 NAME ATOL RTOL`:
     the harness writes every value the check hands to expect_*() to fd 3.
     When the check's process ends, the whole sandbox (every process it
     started) is killed.
  4. The same checks linked with the instructor's solution (never with
     student code) produce the expected values, and verify them against the
     checks' own expected values.  This process compares the two streams under
     the exercise's tolerance.  Malformed, truncated, flooded or missing
     values fail the check with a message saying so.
  5. When a check fails on its values, the exercise's known wrong solutions
     (exercises/ID/mutants/, instructor code, run like the solution) are run
     on the same check; if the student's values are one mutant's, the
     feedback names that mutant's mistake instead of the check's general hint.

Python standard library only; the sandbox needs bubblewrap (`bwrap`).
"""
import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import re
import select
import shutil
import signal
import stat
import threading
import subprocess
import sys
import tempfile
import time
import traceback

from codefiles import is_program  # code/chNN-*.c, appX-*.c: programs, not the library
import exercise                      # exercises/ID/exercise.json and the markers, read once

TOOLS = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ROOT = os.path.dirname(TOOLS)

CC = os.environ.get('GRADE_CC', 'cc')
STD = ['-std=c11', '-D_POSIX_C_SOURCE=200809L', '-Wall', '-Wextra', '-pedantic',
       '-fdiagnostics-color=never']
# The checks as the student's program holds them: without their expected
# values (grade.h); what only those used is unused there.  And without debug
# information (-g0 after SAN's -g): GCC records an optimised-out constant
# array's values there (DW_OP_implicit_value), which the program could read
# from its own file.  The student's own object keeps -g for ASan's reports.
EMIT_FLAGS = ['-DGRADE_EMIT', '-Wno-unused-variable', '-Wno-unused-but-set-variable',
              '-Wno-unused-function', '-Wno-unused-parameter']
SAN = ['-fsanitize=address,undefined', '-fno-sanitize-recover=all',
       '-fno-omit-frame-pointer', '-g', '-O1']

DEFAULT_LIMITS = {
    'cpu_seconds': 2,       # RLIMIT_CPU of one check
    'wall_seconds': 10,     # wall clock of one check
    'memory_mb': 512,       # resident memory of one check's sandbox (ASan + the grader's watch)
    'alloc_mb': 256,        # largest single allocation (ASan's max_allocation_size_mb)
    'output_kb': 64,        # stdout + stderr of one check
    'values_mb': 16,        # the values a check's run may write to the grader
    'processes': 16,        # RLIMIT_NPROC inside one sandbox (threads count)
    'open_files': 64,       # RLIMIT_NOFILE
    'file_mb': 8,           # RLIMIT_FSIZE of a check (compile steps: 64)
}
COMPILE_LIMITS = {'cpu_seconds': 10, 'wall_seconds': 30, 'memory_mb': 1024,
                  'processes': 32, 'open_files': 256, 'file_mb': 64}
# Preprocessing a student's file takes a few hundredths of a second; a macro
# whose expansion explodes is stopped after 3 s of CPU instead of the 10 that
# compiling may take.
PREPROCESS_CPU_SECONDS = 3
MAX_SOURCE = 1 << 20         # bytes of one submitted file
MAX_PREPROCESSED = 16 << 20  # bytes of its preprocessed text

# What a student's file may call besides the book's core library.  This is a
# lint that explains, not the security boundary (the sandbox is): a file that
# opens files, starts processes or changes signals is doing something no
# exercise needs, and the message says so before anything runs.
ALLOWED_EXTERNAL = set('''
malloc calloc realloc free aligned_alloc abs labs llabs div ldiv lldiv qsort bsearch
atoi atol atoll atof strtod strtof strtold strtol strtoul strtoll strtoull rand srand
exit abort _Exit
memcpy memmove memset memcmp memchr strlen strcmp strncmp strcpy strncpy strcat
strncat strchr strrchr strstr strspn strcspn strpbrk strtok
printf fprintf puts putchar fputs fputc putc fwrite fflush snprintf sprintf
vprintf vfprintf vsnprintf vsprintf stdout stderr
__printf_chk __fprintf_chk __sprintf_chk __snprintf_chk __vfprintf_chk __vsnprintf_chk
__memcpy_chk __memmove_chk __memset_chk __strcpy_chk __strcat_chk __strncpy_chk
__assert_fail __stack_chk_fail __errno_location __ctype_b_loc __ctype_tolower_loc
__ctype_toupper_loc toupper tolower _GLOBAL_OFFSET_TABLE_
setjmp _setjmp __sigsetjmp longjmp _longjmp __longjmp_chk
time clock difftime
__muldc3 __divdc3 __mulsc3 __divsc3 __mulxc3 __divxc3
__popcountdi2 __popcountsi2 __clzdi2 __ctzdi2 __paritydi2 __ffsdi2
__powidf2 __powisf2 __powixf2
'''.split())
_MATH = '''acos asin atan atan2 cos sin tan acosh asinh atanh cosh sinh tanh exp
exp2 expm1 frexp ilogb ldexp log log10 log1p log2 logb modf scalbn scalbln cbrt
fabs hypot pow sqrt erf erfc lgamma tgamma ceil floor nearbyint rint lrint llrint
round lround llround trunc fmod remainder remquo copysign nan nextafter
nexttoward fdim fmax fmin fma sincos'''.split()
_COMPLEX = '''cabs cacos cacosh carg casin casinh catan catanh ccos ccosh cexp cimag
clog conj cpow cproj creal csin csinh csqrt ctan ctanh'''.split()
ALLOWED_EXTERNAL |= {f + s for f in _MATH + _COMPLEX for s in ('', 'f', 'l')}
ALLOWED_EXTERNAL |= {'__%s_finite' % f for f in _MATH}
# What the sanitizers' instrumentation itself calls (GCC's -fsanitize=address,
# undefined), and nothing else of their runtimes: their public interface also
# has functions that write anywhere (__sanitizer_set_report_fd with
# __sanitizer_report_error_summary) or run code later (the malloc hooks).
SANITIZER_CALLS = re.compile(
    r'__asan_(report_)?(exp_)?(load|store)(\d+|N|_n)(_noabort)?'
    r'|__asan_stack_(malloc|free)_\d+|__asan_set_shadow_[0-9a-f]{2}'
    r'|__asan_(init|version_mismatch_check_v\d+|register_globals|unregister_globals'
    r'|option_detect_stack_use_after_return|handle_no_return|poison_stack_memory'
    r'|unpoison_stack_memory|alloca_poison|allocas_unpoison|shadow_memory_dynamic_address)'
    r'|__ubsan_handle_\w+')
# Core-library functions that touch files: not needed by any exercise.
DENIED_LIBRARY = {'mat_read', 'mat_load', 'mat_write', 'mask_load', 'cli_init',
                  'cli_long', 'cli_double', 'cli_name'}
ALLOCATING = {'malloc', 'calloc', 'realloc', 'aligned_alloc', 'xcalloc', 'free'}
# The library's functions that compute a piece of the model (attention, its
# masks and gradients, the sublayers, the training and decoding steps, the
# counts): forbidden in every exercise unless its exercise.json lists them
# under "library" (5.4 builds on the sublayers, 6.2 on count_params, 6.4 on
# the encoder layer).  An exercise is to be solved, not called: a second
# attack round found five exercises a single library call solved, each
# missing from a hand-written "forbidden" list.  The matrix, random-number,
# memory and command-line helpers stay allowed.
LIBRARY_THAT_COMPUTES = frozenset('''
additive_scores attention attention_backward attention_masked attention_masked_backward
attention_query attention_sublayer bleu_corpus conv1d_forward decode_beam decode_greedy
decoder_layer_forward decoder_layer_step embed_backward embed_forward encoder_layer_forward
fa_rows ffn_backward ffn_forward ffn_sublayer kv_append kv_attend layernorm_backward
layernorm_forward length_penalty linear_backward linrnn_forward linrnn_kernel mask_and
mask_causal mask_padding mask_from_options mha_backward mha_forward mha_forward_by_head
mha_merge_head mha_project mha_split_head model_adam model_attention model_backward
model_decode model_decoder_layer model_encode model_encoder_layer model_ffn model_forward
model_grad_check model_greedy model_mha model_norm model_train_step noam_rate
online_attention_query
online_merge positional_encoding relu_backward relu_forward residual_sublayer rnn_forward
rnn_step saturation_entropy saturation_norm2 selfattn_forward selfattn_row softmax
softmax_backward softmax_jacobian tied_logits tied_logits_backward transpose matmul_backward
count_params attention_param_count ffn_param_count mha_param_count mha_multiply_adds
conv1d_macs rnn_macs sample_moments
'''.split())
# The rest of the library, which any exercise may call.  Every function of the
# library is in exactly one of the two sets or in DENIED_LIBRARY
# (tests/test_grader.py): a new one must be placed.
LIBRARY_HELPERS = frozenset('''
batch_free batch_new cli_cols cli_fail cli_given cli_help cli_options_given cli_parse
cli_range cli_set_lang cli_strerror cli_translate_line cli_zh config_at
decoder_layer_free decoder_layer_new encoder_layer_free encoder_layer_new fa_exp
fa_exp_shifted fa_isa fa_scratch_floats fa_use_baseline ffn_free ffn_init ffn_new
find_config fnv1a64 gemm_backend gemm_nn gemm_nt gemm_tn kv_cache_free kv_cache_new
kv_cache_start kv_cache_start_copy kv_free kv_new kv_step_work_size layer_work_size
mat_free mat_new matmul matmul_bt max_abs_diff mean_square mha_backward_work_size
mha_work_size model_config_check model_free model_load model_new model_profile_reset
model_save num_chinese num_detokenize num_draw num_draw_train num_english num_example
num_is_held_out num_split_free num_split_new num_token_text num_tokenize par_for
par_set_threads par_threads rng_fill_normal rng_fill_uniform rng_next rng_normal
rng_seed rng_uniform xcalloc
model_profile model_profile_name model_profile_name_zh model_profiling
'''.split())

STANDARD_HEADERS = set('''assert.h complex.h ctype.h errno.h fenv.h float.h
inttypes.h iso646.h limits.h locale.h math.h setjmp.h signal.h stdalign.h stdarg.h
stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h stdnoreturn.h string.h
tgmath.h threads.h time.h uchar.h wchar.h wctype.h'''.split())
FORBIDDEN_WORDS = re.compile(
    r'\b(asm|__asm|__asm__|__attribute__|__attribute|__declspec|__builtin_frame_address|'
    r'__builtin_return_address|__builtin_extract_return_addr|__builtin_apply|'
    r'__builtin_apply_args|__builtin_longjmp|__builtin_setjmp|__builtin_trap|'
    r'__builtin_unreachable|__builtin___clear_cache|__builtin_dwarf_cfa|__builtin_ia32_\w+|'
    r'__builtin_eh_return\w*|__builtin_frob_return_addr|__builtin_stack_save|'
    r'__builtin_stack_restore)\b')
# the insides of stdio's FILE (glibc's field names): pointing stdout at
# another descriptor is a way to write a forged stream of values
FILE_INTERNALS = re.compile(r'\b(_fileno|_flags2?|_IO_[A-Za-z_]+|_chain|_lock)\b')
# sections whose code runs before or after main; the sanitizers' own module
# constructors live in .init_array.00099 / .fini_array.00099
FORBIDDEN_SECTIONS = re.compile(r'^\.(preinit_array|init_array|fini_array|ctors|dtors|init|fini)'
                                r'(\.\d+)?$')
SANITIZER_SECTIONS = {'.init_array.00099', '.fini_array.00099'}

SIGNALS = {
    signal.SIGSEGV: ('segmentation fault: a read or write through a bad pointer',
                     '段错误：通过无效指针读写'),
    signal.SIGBUS: ('bus error: a bad memory access', '总线错误：非法内存访问'),
    signal.SIGFPE: ('arithmetic error, e.g. an integer division by zero',
                    '算术错误，例如整数除以零'),
    signal.SIGILL: ('illegal instruction', '非法指令'),
    signal.SIGABRT: ('abort() was called', '调用了 abort()'),
}


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
def read_text(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


class Exercise:
    """An exercise as the grader uses it: the metadata tools/exercise.py
    loaded and checked (the checks, and which are hidden, agree with
    checks.c), and what the grader derives from it."""

    def __init__(self, root, path, meta):
        self.dir = path
        self.meta = meta
        self.id = meta['id']
        self.title = meta['title']
        self.number = meta.get('exercise', '')
        self.student_files = meta['student_files']
        self.functions = set(meta['functions'])
        tol = meta.get('tolerance', {})
        self.atol = float(tol.get('atol', 1e-9))
        self.rtol = float(tol.get('rtol', 1e-9))
        self.limits = dict(DEFAULT_LIMITS, **meta.get('limits', {}))
        self.checks = meta['checks']                  # hidden ones with "hidden": true
        self.kind = meta.get('kind', 'code')          # 'answers': numeric answers
        # the book's functions that would solve the exercise outright, and
        # every other that computes a piece of the model, unless allowed
        self.forbidden = set(meta.get('forbidden', [])) | \
            (LIBRARY_THAT_COMPUTES - set(meta.get('library', [])))
        # "No allocation" in the contract: no allocating function may be called.
        # Unless exercise.json says, the header's contract decides (so a new
        # exercise is enforced as written, without an edit)
        headers = ''.join(read_text(os.path.join(path, h)) for h in sorted(os.listdir(path))
                          if h.endswith('.h'))
        self.no_alloc = bool(meta.get('no_alloc', 'no allocation' in headers.lower()))
        # in a release: the checks' values come from expected.json, not a solution
        self.expected_file = os.path.join(path, 'expected.json')
        # in the student release, numeric answers are checked only by the course's grader
        self.answers_elsewhere = bool(meta.get('answers_checked_elsewhere', False))
        # headers of the book's library the exercise builds on (e.g. layernorm.h):
        # an exercise whose chapter's code is not in code/ yet is left out
        self.requires = meta.get('requires', [])
        self.missing = exercise.missing(root, meta)
        # known wrong solutions (exercises/ID/mutants/NAME.c): the mistake each
        # makes names the bug when a submission's values match its values
        self.mutants = meta.get('mutants', [])


def find_exercises(root, ids=None):
    """The exercises of ROOT (those named in IDS only: each loads and checks
    its checks.c, so a grading of one exercise reads only that one)."""
    return [Exercise(root, d, exercise.load(d)) for d in exercise.directories(root)
            if ids is None or os.path.basename(d) in ids]


def select_exercises(root, spec):
    """The exercises SPEC names (all by default), less those whose chapter's
    code is missing from code/: a note says so on stderr."""
    every = [os.path.basename(d) for d in exercise.directories(root)]
    ids, unknown = exercise.matching(every, spec)
    if unknown:
        raise SystemExit('grade: no exercise matches %s; the exercises are:\n  %s'
                         % (', '.join(unknown), '\n  '.join(every)))
    chosen = find_exercises(root, set(ids))
    for e in chosen:
        if e.missing:
            print('grade: %s left out: it needs code/%s, not in this tree'
                  % (e.id, ', code/'.join(e.missing)), file=sys.stderr)
    chosen = [e for e in chosen if not e.missing]
    if not chosen:
        raise SystemExit('grade: no exercise to grade')
    return chosen



# ---------------------------------------------------------------- submissions
class Refused(Exception):
    """A submitted file the grader will not take, with the reason in both languages."""

    def __init__(self, en, zh):
        super().__init__(en)
        self.en, self.zh = en, zh


def _safe_path(sub, rel):
    """SUB/REL if every component is a real directory or (the last) a regular
    file, none a symbolic link, all inside SUB; else None."""
    path = sub
    parts = [p for p in rel.split(os.sep) if p]
    for i, part in enumerate(parts):
        if part in ('.', '..'):
            return None
        path = os.path.join(path, part)
        try:
            st = os.lstat(path)
        except OSError:
            return None
        last = i == len(parts) - 1
        if stat.S_ISLNK(st.st_mode):
            raise Refused('%s is a symbolic link: submit the file itself' % rel,
                          '%s 是符号链接：请提交文件本身' % rel)
        if last and not stat.S_ISREG(st.st_mode):
            return None
        if not last and not stat.S_ISDIR(st.st_mode):
            return None
    return path


def find_submitted(sub, ex, fname):
    """The student's FNAME for EX in the submission directory SUB, or None.
    Looked for as exercises/ID/FNAME, ID/FNAME, FNAME, then anywhere by name;
    never through a symbolic link.  Raises Refused for a link or a file too big."""
    sub = os.path.realpath(sub)
    found = None
    for rel in (os.path.join('exercises', ex.id, fname), os.path.join(ex.id, fname), fname):
        found = _safe_path(sub, rel)
        if found:
            break
    if not found:
        hits = []
        for dirpath, dirnames, filenames in os.walk(sub):      # does not follow links
            dirnames[:] = sorted(d for d in dirnames if not d.startswith('.'))
            if fname in filenames:
                hits.append(os.path.relpath(os.path.join(dirpath, fname), sub))
        for rel in sorted(hits, key=lambda h: (len(h), h)):
            found = _safe_path(sub, rel)
            if found:
                break
    return found


def read_submitted(path, fname):
    """The bytes of a submitted regular file, opened without following links."""
    fd = os.open(path, os.O_RDONLY | getattr(os, 'O_NOFOLLOW', 0) | getattr(os, 'O_NONBLOCK', 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused('%s is not a regular file' % fname, '%s 不是普通文件' % fname)
        data = os.read(fd, MAX_SOURCE + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_SOURCE:
        raise Refused('%s is larger than 1 MiB' % fname, '%s 超过 1 MiB' % fname)
    return data


# ---------------------------------------------------------------- sandbox
class SandboxUnavailable(Exception):
    pass


class Sandbox:
    """bubblewrap: a fresh user, PID, mount, network, IPC and UTS namespace for
    every command; /usr (and the merged-/usr links) read-only, a private /tmp,
    its own /proc and a minimal /dev; only the directories given are visible.
    Limits (prlimit) on CPU, processes, open files, file size and core dumps.
    --die-with-parent and the PID namespace end every process of the command
    when its first process ends or the grader goes."""

    def __init__(self, enabled=True):
        self.enabled = enabled
        self.bwrap = os.environ.get('GRADE_BWRAP') or shutil.which('bwrap')
        self.prlimit = shutil.which('prlimit')
        if not enabled:
            return
        missing = [n for n, p in (('bwrap (Debian package bubblewrap)', self.bwrap),
                                  ('prlimit (Debian package util-linux)', self.prlimit)) if not p]
        if missing:
            raise SandboxUnavailable('the sandbox needs %s' % ' and '.join(missing))
        self.base = [self.bwrap, '--unshare-all', '--die-with-parent', '--new-session',
                     '--cap-drop', 'ALL', '--uid', '1000', '--gid', '1000',
                     '--hostname', 'grader', '--clearenv',
                     '--setenv', 'PATH', '/usr/bin:/bin', '--setenv', 'LANG', 'C.UTF-8',
                     '--ro-bind', '/usr', '/usr', '--proc', '/proc', '--dev', '/dev',
                     '--size', str(64 << 20), '--tmpfs', '/tmp']
        for d in ('bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'):
            p = '/' + d
            if os.path.islink(p):
                self.base += ['--symlink', os.readlink(p), p]
            elif os.path.isdir(p):
                self.base += ['--ro-bind', p, p]
        for f in ('/etc/ld.so.cache', '/etc/alternatives'):
            if os.path.exists(f):
                self.base += ['--ro-bind', f, f]
        p = subprocess.run(self.command(['/bin/true'], {}, COMPILE_LIMITS),
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            if os.path.exists('/.dockerenv') or os.path.exists('/run/.containerenv'):
                # Docker and Podman mask parts of /proc, so bubblewrap may not
                # mount its own: the devcontainer.json files unmask them
                why = ('it needs user namespaces, and inside a container the container started with '
                       '--security-opt systempaths=unconfined and seccomp=unconfined, as '
                       '.devcontainer/devcontainer.json does')
            else:
                why = ('it needs user namespaces: as root it always works; as another user '
                       'the kernel must allow unprivileged user namespaces, e.g. sysctl '
                       'kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04 '
                       'kernel.apparmor_restrict_unprivileged_userns=0')
            raise SandboxUnavailable(
                'bubblewrap cannot start a sandbox here: %s (%s)'
                % ((p.stderr.strip().splitlines() or ['exit status %d' % p.returncode])[-1], why))

    def command(self, argv, binds, limits, cwd='/box', env=None, writable=()):
        """The command line running ARGV in a sandbox.  BINDS: {inside: outside}
        mounted read-only, except those in WRITABLE."""
        lim = ['--cpu=%d:%d' % (math.ceil(limits['cpu_seconds']), math.ceil(limits['cpu_seconds']) + 1),
               '--nproc=%d' % limits['processes'], '--nofile=%d' % limits['open_files'],
               '--fsize=%d' % (limits['file_mb'] << 20), '--core=0']
        if not self.enabled:
            return [self.prlimit or 'prlimit'] + lim + ['--'] + list(argv)
        cmd = list(self.base)
        for inside, outside in sorted(binds.items()):
            cmd += ['--bind' if inside in writable else '--ro-bind', outside, inside]
        if '/box' not in binds:
            cmd += ['--dir', '/box']
        for k, v in sorted((env or {}).items()):
            cmd += ['--setenv', k, v]
        cmd += ['--chdir', cwd, '--', self.prlimit] + lim + ['--'] + list(argv)
        return cmd


def tree_rss_kb(pid):
    """Resident memory of PID and all its descendants, in KiB."""
    total, todo, seen = 0, [pid], set()
    while todo and len(seen) < 512:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open('/proc/%d/statm' % p) as f:
                total += int(f.read().split()[1]) * (os.sysconf('SC_PAGE_SIZE') // 1024)
            for tid in os.listdir('/proc/%d/task' % p):
                with open('/proc/%d/task/%s/children' % (p, tid)) as f:
                    todo += [int(c) for c in f.read().split()]
        except (OSError, ValueError, IndexError):
            pass
    return total


def run_limited(cmd, limits, pass_fds=(), value_fd=None, stdin=None, cwd=None):
    """Run CMD (a sandbox command line) with a wall clock, an output cap, a
    watch on the resident memory of its whole process tree, and (VALUE_FD) a
    pipe's read end whose bytes are collected up to limits['values_mb'].
    Returns a dict: status, rusage, out, err, values, killed, seconds."""
    cap = limits.get('output_kb', 1024) * 1024
    vcap = limits.get('values_mb', 16) << 20
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdin=stdin if stdin is not None else subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, pass_fds=pass_fds,
                         start_new_session=True, cwd=cwd)
    for fd in pass_fds:
        os.close(fd)
    ofd, efd = p.stdout.fileno(), p.stderr.fileno()
    streams = {ofd: bytearray(), efd: bytearray()}
    if value_fd is not None:
        streams[value_fd] = bytearray()
    open_fds = set(streams)
    killed = None
    status = rusage = None
    last_watch = 0.0

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
        now = time.monotonic()
        elapsed = now - start
        if status is None:
            if elapsed > limits['wall_seconds']:
                kill('timeout')
            if now - last_watch > 0.05:
                last_watch = now
                if tree_rss_kb(p.pid) > limits['memory_mb'] * 1024 * 3 // 2:
                    kill('memory')
        elif elapsed > limits['wall_seconds'] + 2:   # ended, but a pipe stays open
            break
        ready = select.select(list(open_fds), [], [], 0.02)[0] if open_fds else []
        if not open_fds:
            time.sleep(0.005)
        for fd in ready:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b''
            if not chunk:
                open_fds.discard(fd)
                continue
            buf = streams[fd]
            if fd == value_fd:
                if len(buf) + len(chunk) > vcap:
                    kill('values')
                    open_fds.discard(fd)
                else:
                    buf.extend(chunk)
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
    p.returncode = 0        # reaped by wait4 above: keep Popen from waiting again
    p.stdout.close()
    p.stderr.close()
    if value_fd is not None:
        os.close(value_fd)
    return {'status': status, 'rusage': rusage, 'killed': killed,
            'out': bytes(streams[ofd]).decode('utf-8', 'replace'),
            'err': bytes(streams[efd]).decode('utf-8', 'replace'),
            'values': bytes(streams[value_fd]) if value_fd is not None else b'',
            'seconds': round(time.monotonic() - start, 3)}


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


def tool_stamp(path):
    """A tool as installed: its path, size and modification time."""
    try:
        st = os.stat(path)
        return '%s %d %d' % (path, st.st_size, st.st_mtime_ns)
    except OSError:
        return path + ' missing'


def link_flags(cc):
    """-fuse-ld=gold where the compiler has it: gold links a checks program
    in half the time of the default linker (0.06 s against 0.13 s here), and
    the grader links two for every exercise it grades.  --no-map-whole-files
    maps only the parts of each input gold reads: 41 ms a link instead of
    56 ms here.  Otherwise nothing."""
    rc, out, err = run_tool([cc, '-fuse-ld=gold', '-Wl,--version'])
    if rc != 0 or 'GNU gold' not in out:
        return []
    rc, out, err = run_tool([cc, '-fuse-ld=gold', '-Wl,--no-map-whole-files', '-Wl,--version'])
    return ['-fuse-ld=gold'] + (['-Wl,--no-map-whole-files'] if rc == 0 else [])


def nm_command(obj):
    """nm told the object format (that of OBJ, e.g. elf64-x86-64): without it
    nm first tries every linker plugin installed (GCC's LTO, LLVM's gold
    plugin), which takes ten times as long as reading the symbols."""
    rc, out, err = run_tool(['objdump', '-f', obj])
    m = re.search(r'file format (\S+)', out)
    return ['nm', '--target=' + m.group(1)] if rc == 0 and m else ['nm']


class Toolchain:
    """What the grader builds from its own sources, never from a submission:
    the harness, the book's library, each exercise's checks (all of them, and
    the visible ones alone), each reference solution and the values it gives.
    Built outside the sandbox (no student code is involved) and cached by the
    hash of everything that goes in; nothing a submission does reaches it."""

    def __init__(self, root, build, pool):
        self.root = root
        self.build = build
        self.cache = os.path.join(build, 'cache')
        os.makedirs(self.cache, exist_ok=True)
        self.lock, self.locks = threading.Lock(), {}
        self.cc = os.path.realpath(shutil.which(CC) or CC)
        self.code = os.path.join(root, 'code')
        self.harness_dir = os.path.join(root, 'exercises', 'harness')
        headers = sorted([os.path.join(self.code, f) for f in os.listdir(self.code)
                          if f.endswith('.h')] + [os.path.join(self.harness_dir, 'grade.h')])
        self.headers = headers
        self.header_hash = self.header_key(self.cc, headers)
        self.lib_srcs = sorted(os.path.join(self.code, f) for f in os.listdir(self.code)
                               if f.endswith('.c') and not is_program(f))
        # The largest sources first (model.c takes 3 s with the sanitizers, a
        # third of the library's time): started last, it would end long after
        # the others.  The archive keeps the sources' sorted order.
        lib_jobs = {s: pool.submit(self.compile, s, STD + SAN, ['-I', self.code])
                    for s in sorted(self.lib_srcs, key=lambda s: (-os.path.getsize(s), s))}
        jobs = [pool.submit(self.compile, os.path.join(self.harness_dir, 'harness.c'),
                            STD + ['-Werror', '-O1', '-g'], ['-I', self.harness_dir])]
        jobs += [lib_jobs[s] for s in self.lib_srcs]
        objs = [j.result() for j in jobs]
        self.harness = objs[0]
        self.link, self.nm = self.tool_flags()
        self.library = self.archive(objs[1:])
        self.library_symbols = self.library_defines(objs[1:])
        # the public headers a student's file may include, staged read-only
        self.inc = os.path.join(self.cache, 'inc-' + self.header_hash)
        if not os.path.isdir(self.inc):
            tmp = self.inc + '.tmp%d' % os.getpid()
            os.makedirs(os.path.join(tmp, 'code'))
            for h in headers:
                if os.path.dirname(h) == self.code:
                    shutil.copy(h, os.path.join(tmp, 'code'))
            try:
                os.rename(tmp, self.inc)
            except OSError:
                shutil.rmtree(tmp, ignore_errors=True)

    @staticmethod
    def header_key(cc, headers):
        """Part of every cached object's name: the grader itself (new rules
        rebuild), the compiler as installed (an upgrade in place keeps its
        path but not its size and time) and the headers."""
        return sha(read_bytes(os.path.abspath(__file__)),
                   read_bytes(os.path.join(TOOLS, 'exercise.py')), tool_stamp(cc),
                   *[read_bytes(h) for h in headers])

    def compile(self, src, flags, incs, deps=(), text=None, name=None):
        data = text.encode() if text is not None else read_bytes(src)
        key = sha(data, self.header_hash, *flags, *incs, *[read_bytes(d) for d in deps])
        obj = os.path.join(self.cache, '%s-%s.o' % (name or os.path.basename(src)[:-2], key))
        if not os.path.exists(obj):
            tmp = obj + '.tmp%d.%d' % (os.getpid(), threading.get_ident())
            if text is not None:
                srcfile = tmp + '.c'
                with open(srcfile, 'w', encoding='utf-8') as f:
                    f.write(text)
            else:
                srcfile = src
            rc, out, err = run_tool([self.cc] + flags + incs + ['-c', srcfile, '-o', tmp])
            if text is not None:
                os.unlink(srcfile)
            if rc != 0:
                raise RuntimeError('cannot compile %s:\n%s' % (src, err))
            os.replace(tmp, obj)
        return obj

    def remembered(self, path, compute, valid):
        """COMPUTE()'s JSON value, kept in PATH (under the cache, named by
        what it depends on) once computed: a grading run starts without
        running the compiler, objdump and nm to learn it again.  A kept
        value that VALID rejects is computed again."""
        try:
            with open(path, encoding='utf-8') as f:
                value = json.load(f)
            if valid(value):
                return value
        except (OSError, ValueError):
            pass
        value = compute()
        tmp = path + '.tmp%d.%d' % (os.getpid(), threading.get_ident())
        with open(tmp, 'w', encoding='utf-8') as f:
            json.dump(value, f)
        os.replace(tmp, path)
        return value

    def tool_flags(self):
        """(link_flags, nm_command), remembered for these tools as installed
        (their paths, sizes and times) and this harness object."""
        tools = [self.cc] + [shutil.which(t) or t for t in ('ld.gold', 'objdump', 'nm')]
        stats = [tool_stamp(t) for t in tools]
        path = os.path.join(self.cache, 'tools-%s.json' % sha(self.harness, *stats))
        return self.remembered(path, lambda: [link_flags(self.cc), nm_command(self.harness)],
                               lambda v: isinstance(v, list) and len(v) == 2 and v[1]
                               and all(isinstance(x, list) and all(isinstance(y, str) for y in x)
                                       for x in v))

    def library_defines(self, objs):
        """The library's defined symbols, remembered beside the archive (named
        by its objects' hash)."""
        if not objs:
            return set()
        return set(self.remembered(self.library + '.symbols.json',
                                   lambda: sorted(self.defined_symbols(self.nm, objs)),
                                   lambda v: isinstance(v, list) and v
                                   and all(isinstance(x, str) for x in v)))

    def archive(self, objs):
        if not objs:
            return None
        lib = os.path.join(self.cache, 'libattn-%s.a' % sha(*objs))
        if not os.path.exists(lib):
            tmp = lib + '.tmp%d.%d' % (os.getpid(), threading.get_ident())
            rc, out, err = run_tool(['ar', 'rcs', tmp] + objs)
            if rc != 0:
                raise RuntimeError('ar: ' + err)
            os.replace(tmp, lib)
        return lib

    @staticmethod
    def defined_symbols(nm, objs):
        names = set()
        if objs:
            rc, out, err = run_tool(nm + ['-P', '--defined-only'] + objs)
            if rc != 0:
                raise RuntimeError('nm: ' + err)
            for line in out.splitlines():
                f = line.split()
                if len(f) >= 2 and f[1] in 'TDBR':
                    names.add(f[0])
        return names

    def checks_objects(self, ex, emit=True):
        """(object of every check, object of the visible checks alone): for
        the student's program (EMIT: GRADE_EMIT defined, so no expected value
        is computed there, grade.h), or for the reference run."""
        src = os.path.join(ex.dir, 'checks.c')
        text = read_bytes(src).decode('utf-8')
        deps = [os.path.join(ex.dir, h) for h in sorted(os.listdir(ex.dir)) if h.endswith('.h')]
        incs = ['-I', ex.dir, '-I', self.harness_dir, '-I', self.code]
        flags = STD + ['-Werror'] + (EMIT_FLAGS + SAN + ['-g0'] if emit else SAN)
        kind = 'emit-' if emit else ''
        full = self.compile(src, flags, incs, deps, name='checks-' + kind + ex.id)
        visible = exercise.strip_hidden(text, src)
        if visible == text:
            return full, full
        vis = self.compile(src, flags, incs, deps, name='visible-' + kind + ex.id,
                           text='#line 1 "checks.c"\n' + visible)
        return full, vis

    def expected(self, ex, limits):
        """{check name: the records of the reference run} for EX: from the
        exercise's expected.json (a release), else by building the checks with
        the instructor's solution and running each check (cached).  Raises
        RuntimeError if the solution fails one of the checks' own expectations."""
        if os.path.isfile(ex.expected_file):
            with open(ex.expected_file, encoding='utf-8') as f:
                data = json.load(f)
            return {k: decode_records(v.encode('latin-1')) for k, v in data['checks'].items()}
        return {k: decode_records(v) for k, v in self.expected_raw(ex, limits).items()}

    def expected_raw(self, ex, limits):
        """{check name: bytes of the reference run's stream}, cached by hash."""
        srcs = [os.path.join(ex.dir, f) for f in ex.student_files]
        deps = [os.path.join(ex.dir, h) for h in sorted(os.listdir(ex.dir)) if h.endswith('.h')]
        key = sha(self.header_hash, read_bytes(os.path.join(ex.dir, 'checks.c')),
                  read_bytes(os.path.join(ex.dir, 'exercise.json')),
                  read_bytes(os.path.join(self.harness_dir, 'harness.c')),
                  *[read_bytes(s) for s in srcs + deps])
        path = os.path.join(self.cache, 'expected-%s-%s.json' % (ex.id, key))
        if os.path.exists(path):
            with open(path, encoding='utf-8') as f:
                return {k: v.encode('latin-1') for k, v in json.load(f).items()}
        full, _ = self.checks_objects(ex, emit=False)
        incs = ['-I', ex.dir, '-I', self.code]
        objs = [self.compile(s, STD + SAN, incs, deps, name='solution-' + ex.id) for s in srcs]
        binary = os.path.join(self.cache, 'solution-%s-%s' % (ex.id, key))
        if not os.path.exists(binary):
            # A private temporary name: two threads may link the same
            # solution at once, and exec'ing the file while the other linker
            # still writes that inode fails with 'Text file busy'.
            tmp = '%s.%d.%d.tmp' % (binary, os.getpid(), threading.get_ident())
            args = [self.cc] + SAN + self.link + ['-o', tmp, self.harness, full] + objs
            args += ([self.library] if self.library else []) + ['-lm']
            rc, out, err = run_tool(args)
            if rc != 0:
                raise RuntimeError('cannot link the reference solution of %s:\n%s' % (ex.id, err))
            os.replace(tmp, binary)
        # the checks program's own list (what the compiler saw) against the
        # checks the scanner read from checks.c's text
        rc, listed, err = run_tool(['/usr/bin/env', '-i', 'ASAN_OPTIONS=detect_leaks=0',
                                    binary, '--list'], timeout=60)
        if rc != 0 or sorted(listed.split()) != sorted(c['name'] for c in ex.checks):
            raise RuntimeError('%s: the checks program lists %s, checks.c\'s CHECK lines name %s'
                               % (ex.id, ' '.join(sorted(listed.split())) or err[-500:],
                                  ' '.join(sorted(c['name'] for c in ex.checks))))
        out = {}
        for c in ex.checks:
            r, w = os.pipe()
            res = run_limited(['/usr/bin/env', '-i', 'ASAN_OPTIONS=detect_leaks=0',
                               binary, '--reference', str(w), c['name'],
                               repr(float(c.get('atol', ex.atol))),
                               repr(float(c.get('rtol', ex.rtol)))],
                              dict(limits, wall_seconds=60, memory_mb=4096),
                              pass_fds=(w,), value_fd=r)
            code = os.WEXITSTATUS(res['status']) if os.WIFEXITED(res['status']) else None
            try:
                recs = decode_records(res['values'])
            except ValueError as e:
                raise RuntimeError('%s/%s: the reference run wrote bad values: %s'
                                   % (ex.id, c['name'], e))
            bad = [r for r in recs if r[0] == 'reference-fails']
            if bad:
                raise RuntimeError('the reference solution of %s fails its check %s: %s'
                                   % (ex.id, c['name'], bad[0][2].decode('utf-8', 'replace')))
            if code != 0 or not recs or recs[-1][0] != 'end':
                raise RuntimeError('the reference solution of %s did not finish check %s '
                                   '(status %s): %s' % (ex.id, c['name'], res['status'],
                                                        res['err'][-1500:]))
            out[c['name']] = res['values']
        tmp = '%s.%d.%d.tmp' % (path, os.getpid(), threading.get_ident())
        with open(tmp, 'w', encoding='utf-8') as f:
            json.dump({k: v.decode('latin-1') for k, v in out.items()}, f)
        os.replace(tmp, path)
        return out


    # ------------------------------------------------------------ diagnoses
    def diagnoses(self, ex, check, limits):
        """{mutant name: records} of the known wrong solutions that fail CHECK:
        from expected.json in a release, else by running each mutant on the
        check (cached)."""
        if os.path.isfile(ex.expected_file):
            with open(ex.expected_file, encoding='utf-8') as f:
                data = json.load(f).get('diagnoses', {}).get(check, {})
            return {k: decode_records(v.encode('latin-1')) for k, v in data.items()}
        return {k: decode_records(v) for k, v in self.diagnoses_raw(ex, check, limits).items()}

    def diagnoses_raw(self, ex, check, limits):
        """{mutant name: bytes of its run of CHECK} for each mutant of EX whose
        run ends and whose values differ from the solution's.  A mutant is the
        instructor's code, built and run like the solution, outside the sandbox;
        no student code is involved."""
        if not ex.mutants:
            return {}
        reference = decode_records(self.expected_raw(ex, limits)[check])
        c = next(c for c in ex.checks if c['name'] == check)
        deps = [os.path.join(ex.dir, h) for h in sorted(os.listdir(ex.dir)) if h.endswith('.h')]
        out = {}
        for m in ex.mutants:
            src = os.path.join(ex.dir, 'mutants', m['name'] + '.c')
            key = sha(self.header_hash, read_bytes(os.path.join(ex.dir, 'checks.c')),
                      read_bytes(os.path.join(self.harness_dir, 'harness.c')), read_bytes(src),
                      *[read_bytes(d) for d in deps])
            path = os.path.join(self.cache, 'diagnosis-%s-%s-%s-%s' % (ex.id, m['name'], check, key))
            if not os.path.exists(path):
                binary = self.mutant_binary(ex, src, m['name'], key, deps)
                r, w = os.pipe()
                res = run_limited(['/usr/bin/env', '-i', 'ASAN_OPTIONS=detect_leaks=0',
                                   binary, '--emit', str(w), check,
                                   repr(float(c.get('atol', ex.atol))),
                                   repr(float(c.get('rtol', ex.rtol)))],
                                  dict(limits, wall_seconds=60, memory_mb=4096),
                                  pass_fds=(w,), value_fd=r)
                values = res['values']
                try:
                    recs = decode_records(values)
                except ValueError:
                    recs = []
                # only a run that ended and fails the check can name a mistake
                if not recs or recs[-1][0] != 'end' or judge(recs, reference) is None:
                    values = b''
                tmp = '%s.%d.%d.tmp' % (path, os.getpid(), threading.get_ident())
                with open(tmp, 'wb') as f:
                    f.write(values)
                os.replace(tmp, path)
            with open(path, 'rb') as f:
                values = f.read()
            if values:
                out[m['name']] = values
        return out

    def mutant_binary(self, ex, src, name, key, deps):
        binary = os.path.join(self.cache, 'mutant-%s-%s-%s' % (ex.id, name, key))
        with self.lock:                 # one build of each mutant, whichever thread asks
            lock = self.locks.setdefault(binary, threading.Lock())
        with lock:
            return self._mutant_binary(ex, src, name, deps, binary)

    def _mutant_binary(self, ex, src, name, deps, binary):
        if not os.path.exists(binary):
            full, _ = self.checks_objects(ex)
            obj = self.compile(src, STD + SAN, ['-I', ex.dir, '-I', self.code], deps,
                               name='mutant-%s-%s' % (ex.id, name))
            tmp = '%s.%d.%d.tmp' % (binary, os.getpid(), threading.get_ident())
            args = [self.cc] + SAN + self.link + ['-o', tmp, self.harness, full, obj]
            args += ([self.library] if self.library else []) + ['-lm']
            rc, out, err = run_tool(args)
            if rc != 0:
                raise RuntimeError('cannot link the mutant %s of %s:\n%s' % (name, ex.id, err))
            os.replace(tmp, binary)
        return binary


def diagnose(tc, ex, check, outcome):
    """The mutants (known wrong solutions) whose values on CHECK the failed
    OUTCOME's values match within the tolerance: their mistakes name the bug."""
    if outcome.get('reason') != 'wrong' or ex.kind == 'answers' or not ex.mutants:
        return []
    values = outcome.get('values')
    if not values:
        return []
    found = tc.diagnoses(ex, check['name'], ex.limits)
    # the same values (within the tolerance), or the very same records (a check
    # that fails by grade_fail() writes the same message for the same mistake)
    out = []
    for m in ex.mutants:
        if m['name'] in found and (values == found[m['name']]
                                   or judge(values, found[m['name']]) is None):
            # all nan: an output never written looks the same; say so
            out.append(dict(m, all_nan=all_nan(found[m['name']])))
    return out


def all_nan(records):
    nums = [x for r in records if r[0] == 'near' and len(r) == 5
            for x in r[4].split(b' ') if x]
    return bool(nums) and all(x.lstrip(b'-') == b'nan' for x in nums)


class Built:
    """The outcome of building one exercise: binaries, or the reason there are none."""

    def __init__(self, binary=None, visible=None, reason=None, message=None, warnings=''):
        self.binary = binary          # every check
        self.visible = visible        # the visible checks alone (no hidden check's code)
        self.reason = reason          # None, 'missing', 'compile', 'forbidden', 'refused', 'grader-build'
        self.message = message        # (en, zh) or None
        self.warnings = warnings


def filter_diagnostics(text, allowed_prefixes):
    """Compiler messages located in the student's file or the grader's public
    headers; messages from anywhere else are dropped (and counted)."""
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
    return '\n'.join(out[:200])


def directives(text):
    """The preprocessing directives of C source TEXT, as (line number, name):
    after the translation phases that could hide one (trigraphs, line splices,
    comments; %: for #)."""
    text = text.replace('??=', '#').replace('??/', '\\')
    out, i, n, line = [], 0, len(text), 1
    buf, buf_line = [], 1
    at_start = True

    def flush():
        s = ''.join(buf).strip()
        if s.startswith('#') or s.startswith('%:'):
            rest = s[1:] if s.startswith('#') else s[2:]
            m = re.match(r'\s*([A-Za-z_]\w*|\d+)?', rest)
            out.append((buf_line, (m.group(1) or '') if m else ''))
    while i < n:
        c = text[i]
        if c == '\\' and text.startswith('\n', i + 1):
            i += 2
            line += 1
            continue
        if c == '\n':
            flush()
            buf, buf_line = [], line + 1
            line += 1
            i += 1
            continue
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            line += text.count('\n', i, j)
            buf.append(' ')
            i = j
            continue
        if text.startswith('//', i):
            while i < n and text[i] != '\n':
                if text[i] == '\\' and text.startswith('\n', i + 1):
                    line += 1
                    i += 1
                i += 1
            continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            buf.append(text[i:j + 1])
            i = j + 1
            continue
        buf.append(c)
        i += 1
    flush()
    del at_start
    return out


PSEUDO = ('<built-in>', '<command-line>')


def lint(ex, tc, rel, pre, raw, allowed_dirs):
    """The lint (a helpful explanation, not the security boundary): REL's
    preprocessed text PRE (exactly what gets compiled) and its raw text RAW.
    Returns (en, zh) for a refusal, or None."""
    for lineno, name in directives(raw):
        if name == 'line' or name.isdigit():
            return ('%s:%d: #line directives and line markers are not allowed: they would '
                    'make the compiler (and the grader) think your code is someone else\'s'
                    % (rel, lineno),
                    '%s:%d：不允许使用 #line 指令和行标记：它们会让编译器（和评分程序）'
                    '把你的代码当成别的文件的代码' % (rel, lineno))
    stack, words, bad_includes, pragmas, internals = [], set(), [], [], set()
    for line in pre.splitlines():
        m = re.match(r'# \d+ "([^"]*)"((?: \d)*)$', line)
        if m:
            fname, flags = m.group(1), m.group(2).split()
            if fname.endswith('//') and not flags:      # -g: the working directory
                continue
            if '1' in flags:
                if stack and stack[-1] == rel:
                    base = os.path.basename(fname)
                    ok = (any(fname.startswith(d) for d in allowed_dirs) and base.endswith('.h')) \
                        or (base in STANDARD_HEADERS and fname.startswith('/usr/'))
                    if not ok:
                        bad_includes.append(fname)
                stack.append(fname)
            elif '2' in flags:
                if stack:
                    stack.pop()
                if not stack or stack[-1] != fname:
                    stack.append(fname)
            elif not stack:
                stack.append(fname)
            elif stack[-1] == fname or fname in PSEUDO or stack[-1] in PSEUDO:
                stack[-1] = fname
            else:
                return ('%s: the file changes its own name for the compiler (a line marker)' % rel,
                        '%s：文件对编译器改换了自己的名字（行标记）' % rel)
            continue
        if stack and stack[-1] == rel:
            if line.lstrip().startswith('#pragma'):
                if not re.match(r'\s*#pragma\s+(once|GCC\s+diagnostic)\b', line):
                    pragmas.append(line.strip())
            for w in FORBIDDEN_WORDS.findall(line):
                words.add(w)
            for w in FILE_INTERNALS.findall(line):
                internals.add(w)
    if bad_includes:
        names = ', '.join(sorted(set(os.path.basename(b) for b in bad_includes)))
        return ('#include of %s is not allowed: use the standard C headers, the book\'s '
                "library headers and the exercise's own header" % names,
                '不允许 #include %s：只能包含标准 C 头文件、本书库的头文件和本练习自己的头文件' % names)
    if internals:
        what = ', '.join(sorted(internals))
        return ('not allowed in an exercise file: %s (the inside of stdio\'s FILE; '
                'no exercise needs to touch it)' % what,
                '练习文件中不允许使用：%s（stdio 的 FILE 的内部字段，练习用不到它们）' % what)
    if words or pragmas:
        what = ', '.join(sorted(words) + pragmas)
        return ('not allowed in an exercise file: %s (inline assembly, attributes and '
                'pragmas change how the program is built or run, which no exercise needs)' % what,
                '练习文件中不允许使用：%s（内联汇编、属性和 pragma 会改变程序的构建或运行方式，'
                '练习用不到它们）' % what)
    return None


def lint_object(ex, tc, nm_out, sections):
    """The lint of the compiled object: symbols it defines and uses, and
    sections that would run code before or after main."""
    extra_defined, not_allowed, forbidden, alloc = [], [], [], []
    library = tc.library_symbols - DENIED_LIBRARY
    for line in nm_out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        name, kind = f[0], f[1]
        if kind in 'Uwv':
            if SANITIZER_CALLS.fullmatch(name):
                continue
            if name in ex.forbidden:
                forbidden.append(name)
            elif ex.no_alloc and name in ALLOCATING:
                alloc.append(name)
            elif name not in ALLOWED_EXTERNAL and name not in library:
                not_allowed.append(name)
        elif kind in 'TDBRCGSVWiuI' and name not in ex.functions:
            extra_defined.append(name)
    bad_sections = sorted({s for s in sections
                           if FORBIDDEN_SECTIONS.match(s) and s not in SANITIZER_SECTIONS})
    if extra_defined:
        names = ', '.join(sorted(extra_defined))
        return ('your file defines %s, which the exercise does not ask for: make helper '
                'functions and variables static (the grader provides main)' % names,
                '你的文件定义了练习没有要求的 %s：辅助函数和变量请声明为 static'
                '（main 由评分程序提供）' % names)
    if forbidden:
        names = ', '.join(sorted(set(forbidden)))
        return ('your file calls %s, from the book\'s library, which this exercise does not '
                'let you use: it asks you to write that computation yourself' % names,
                '你的文件调用了本书库中的 %s，本练习不允许使用它：这部分计算请自己写' % names)
    if alloc:
        names = ', '.join(sorted(set(alloc)))
        return ('your file calls %s, but the exercise says "no allocation": use the '
                'buffers the caller gives you' % names,
                '你的文件调用了 %s，但练习要求“不分配内存”：请使用调用者提供的缓冲区' % names)
    if not_allowed:
        names = ', '.join(sorted(set(not_allowed)))
        return ('your file uses %s, which exercises may not call (allowed: the C '
                "library's math, memory, string and printf functions, and the book's "
                'core library; an exercise never needs files, processes, signals or the '
                'environment)' % names,
                '你的文件调用了练习中不允许使用的 %s（允许：C 标准库的数学、内存、字符串和 '
                'printf 函数，以及本书的核心库；练习用不到文件、进程、信号或环境变量）' % names)
    if bad_sections:
        return ('your file has code that runs before or after main (%s)' % ', '.join(bad_sections),
                '你的文件含有在 main 之前或之后运行的代码（%s）' % ', '.join(bad_sections))
    return None


def build_exercise(ex, tc, sb, sources, work, use_lint=True):
    """Build the student's checks program in WORK (a fresh directory).
    sources: {student file name: its bytes, a Refused, or None}."""
    missing = [f for f, d in sources.items() if d is None]
    if missing:
        return Built(reason='missing', message=(
            'not submitted: %s' % ', '.join(missing), '没有提交：%s' % ', '.join(missing)))
    for f, d in sources.items():
        if isinstance(d, Refused):
            return Built(reason='refused', message=(d.en, d.zh))
    os.makedirs(work)
    src_dir = os.path.join(work, 'src')
    os.makedirs(src_dir)
    full, vis = tc.checks_objects(ex)
    binds = {'/box': work, '/grader/inc/ex': ex.dir, '/grader/inc/code': os.path.join(tc.inc, 'code')}
    # the exercise's directory holds the checks and the solution: only its headers go in
    exinc = os.path.join(work, '.inc')
    os.makedirs(exinc)
    for h in sorted(os.listdir(ex.dir)):
        if h.endswith('.h'):
            shutil.copy(os.path.join(ex.dir, h), exinc)
    binds['/grader/inc/ex'] = exinc

    def P(inside):
        """A path as the compile step sees it: inside the sandbox, or (with
        --no-sandbox) the real one."""
        if sb.enabled:
            return inside
        for k, v in sorted(binds.items(), key=lambda kv: -len(kv[0])):
            if inside == k or inside.startswith(k + '/'):
                return v + inside[len(k):]
        return inside
    incs = ['-I', P('/grader/inc/ex'), '-I', P('/grader/inc/code')]
    lim = dict(COMPILE_LIMITS, output_kb=256)
    lim_pre = dict(lim, cpu_seconds=PREPROCESS_CPU_SECONDS)

    def boxed(argv, limits=lim):
        r = run_limited(sb.command(argv, binds, limits, writable=('/box',)), limits,
                        cwd=None if sb.enabled else work)
        ok = r['killed'] is None and os.WIFEXITED(r['status']) and os.WEXITSTATUS(r['status']) == 0
        return ok, r

    def too_much(r):
        # (cc1 stopped by its CPU limit: gcc itself reports that and exits 4)
        if r['killed'] == 'timeout' or \
                'CPU time limit exceeded signal terminated program' in r['err'] or \
                (os.WIFSIGNALED(r['status']) and os.WTERMSIG(r['status']) in (signal.SIGXCPU, signal.SIGKILL)):
            return ('compiling took too long and was stopped', '编译时间过长，已被终止')
        if r['killed'] == 'memory':
            return ('compiling used too much memory and was stopped', '编译占用内存过多，已被终止')
        if os.WIFSIGNALED(r['status']) and os.WTERMSIG(r['status']) == signal.SIGXFSZ or \
                'File size limit exceeded' in r['err']:
            return ('compiling wrote a file larger than %d MB and was stopped' % lim['file_mb'],
                    '编译写出的文件超过 %d MB，已被终止' % lim['file_mb'])
        if r['killed'] == 'output':
            return ('the compiler printed too much and was stopped', '编译器输出过多，已被终止')
        return None

    objs, warnings, defined = [], [], set()
    for fname, data in sources.items():
        rel = 'src/' + fname
        with open(os.path.join(work, rel), 'wb') as f:
            f.write(data)
        stem = fname[:-2] if fname.endswith('.c') else fname
        ok, r = boxed([tc.cc] + STD + SAN + incs + ['-E', rel, '-o', stem + '.i'], lim_pre)
        if not ok:
            msg = too_much(r)
            if msg:
                return Built(reason='compile', message=msg)
            return Built(reason='compile', message=('did not compile (preprocessor):', '预处理失败：'),
                         warnings=filter_diagnostics(r['err'], [rel]))
        ipath = os.path.join(work, stem + '.i')
        if os.path.getsize(ipath) > MAX_PREPROCESSED:
            return Built(reason='compile', message=(
                '%s is larger than %d MiB once preprocessed' % (fname, MAX_PREPROCESSED >> 20),
                '%s 预处理后超过 %d MiB' % (fname, MAX_PREPROCESSED >> 20)))
        pre = read_bytes(ipath).decode('utf-8', 'replace')
        if use_lint:
            refusal = lint(ex, tc, rel, pre, data.decode('utf-8', 'replace'),
                           [P('/grader/inc/ex') + '/', P('/grader/inc/code') + '/'])
            if refusal:
                return Built(reason='forbidden', message=refusal)
        # exactly the text just read is what is compiled
        ok, r = boxed([tc.cc] + STD + SAN + ['-x', 'cpp-output', '-c', stem + '.i', '-o', stem + '.o'])
        diags = filter_diagnostics(r['err'], [rel])
        if not ok:
            msg = too_much(r)
            if msg:
                return Built(reason='compile', message=msg)
            return Built(reason='compile', message=('did not compile:', '编译失败：'), warnings=diags)
        obj = os.path.join(work, stem + '.o')
        rc, nm_out, err = run_tool(tc.nm + ['-P', obj])
        defined |= {f[0] for f in (l.split() for l in nm_out.splitlines())
                    if len(f) >= 2 and f[1] in 'TW'}
        if use_lint:
            rc2, sect, err2 = run_tool(['readelf', '-S', '-W', obj])
            sections = re.findall(r'^\s*\[\s*\d+\]\s+(\S+)', sect, re.M)
            refusal = lint_object(ex, tc, nm_out, sections)
            if refusal:
                return Built(reason='forbidden', message=refusal, warnings=diags)
        warnings.append(diags)
        objs.append(P('/box/' + stem + '.o'))
    # what the exercise asks for comes from the student's files, never from
    # the book's library (A.1's transpose is also the library's)
    undefined = sorted(set(ex.functions) - defined)
    if undefined:
        names = ', '.join(undefined)
        return Built(reason='compile', message=(
            'your files do not define %s, which the exercise asks you to write' % names,
            '你的文件没有定义练习要求你写的 %s' % names))
    lib = {'/grader/obj/harness.o': tc.harness, '/grader/obj/checks.o': full,
           '/grader/obj/visible.o': vis}
    if tc.library:
        lib['/grader/obj/libattn.a'] = tc.library
    binds.update(lib)
    built = {}
    for out, checks in (('checks', '/grader/obj/checks.o'), ('visible', '/grader/obj/visible.o')):
        if out == 'visible' and vis == full:
            built[out] = built['checks']
            continue
        args = [tc.cc] + SAN + tc.link + ['-o', out, P('/grader/obj/harness.o'), P(checks)] + objs
        args += ([P('/grader/obj/libattn.a')] if tc.library else []) + ['-lm']
        ok, r = boxed(args)
        if not ok:
            msg = too_much(r)
            if msg:
                return Built(reason='compile', message=msg)
            return Built(reason='compile', message=(
                'did not link (is a function missing or defined twice?):',
                '链接失败（是否缺少某个函数或重复定义？）：'),
                warnings=filter_diagnostics(r['err'], ['src/', '/usr/bin/ld']) or r['err'][-2000:])
        built[out] = os.path.join(work, out)
    return Built(binary=built['checks'], visible=built['visible'],
                 warnings='\n'.join(w for w in warnings if w.strip()))


# ---------------------------------------------------------------- the values
KINDS = {'near', 'same', 'int', 'true', 'fail', 'end', 'reference-fails'}


def _netstring(buf, i):
    """(bytes, next index) of the netstring at BUF[i:]; ValueError if malformed."""
    j = i
    while j < len(buf) and j - i < 10 and 48 <= buf[j] <= 57:
        j += 1
    if j == i or j >= len(buf) or buf[j] != 58 or (buf[i] == 48 and j - i > 1):   # b':'
        raise ValueError('a record does not start with a length at byte %d' % i)
    n = int(buf[i:j])
    end = j + 1 + n
    if end >= len(buf):
        raise ValueError('truncated: a record of %d bytes at byte %d is cut short' % (n, i))
    if buf[end] != 44:                                                            # b','
        raise ValueError('a record at byte %d does not end where its length says' % i)
    return buf[j + 1:end], end + 1


def decode_records(buf, limit=1 << 20):
    """The records of a value stream: a list of tuples (kind, label, field...)
    with kind and label as str, the rest as bytes.  Strict: anything else is
    a ValueError saying what is wrong."""
    recs, i = [], 0
    while i < len(buf):
        payload, i = _netstring(buf, i)
        fields, k = [], 0
        while k < len(payload):
            f, k = _netstring(payload, k)
            fields.append(f)
        if len(fields) < 2:
            raise ValueError('a record has %d fields' % len(fields))
        kind = fields[0].decode('ascii', 'replace')
        if kind not in KINDS:
            raise ValueError('unknown record kind %r' % kind[:20])
        recs.append((kind, fields[1].decode('utf-8', 'replace')) + tuple(fields[2:]))
        if len(recs) > limit:
            raise ValueError('more than %d records' % limit)
    return recs


def parse_numbers(b, count):
    words = b.split(b' ') if b else []
    if len(words) != count:
        raise ValueError('%d numbers where %d were announced' % (len(words), count))
    return [float.fromhex(w.decode('ascii')) for w in words]


def near(actual, expected, atol, rtol):
    if math.isnan(expected):
        return math.isnan(actual)
    if math.isinf(expected):
        return actual == expected
    return math.isfinite(actual) and abs(actual - expected) <= atol + rtol * abs(expected)


def shape_of(b):
    nums = [int(x) for x in b.decode('ascii').split()]
    if len(nums) == 1 and nums[0] >= 0:
        return nums, nums[0]
    if len(nums) == 2 and nums[0] >= 0 and nums[1] >= 0:
        return nums, nums[0] * nums[1]
    raise ValueError('bad shape %r' % b[:40])


# A check's label may give its Chinese after "|zh:": "the returned lse|zh:返回的 lse".
ZH_LABEL = '|zh:'


def label_languages(what):
    """(English, Chinese) of a check's label; one label serves both when it
    has no Chinese of its own (a variable's name, an expression)."""
    en, sep, zh = what.partition(ZH_LABEL)
    return en, (zh if sep else en)


def index_label(what, shape, k):
    if len(shape) == 2:
        index = '[%d][%d]' % (k // max(shape[1], 1), k % max(shape[1], 1))
    else:
        index = '[%d]' % k if shape[0] != 1 else ''
    en, sep, zh = what.partition(ZH_LABEL)
    return en + index + (sep + zh + index if sep else '')


def judge(student, reference):
    """Compare the student's records with the reference's.  Returns None for a
    pass, else a verdict dict (as the harness used to write)."""
    for pos, ref in enumerate(reference):
        kind = ref[0]
        if kind == 'end':
            if pos < len(student) and student[pos][0] == 'end':
                if student[pos][1:] != ref[1:]:     # the check's name alone, as the harness writes it
                    return {'kind': 'structure', 'what': ref[1], 'got_kind': 'end',
                            'got_what': student[pos][1][:80]}
                if len(student) > pos + 1:
                    return {'kind': 'message', 'en': 'values after the end of the check',
                            'zh': '检查结束后还有多余的值'}
                return None
        if pos >= len(student):
            return {'kind': 'incomplete'}
        got = student[pos]
        if got[0] == 'fail':
            return {'kind': 'message', 'en': got[2].decode('utf-8', 'replace')[:500],
                    'zh': got[3].decode('utf-8', 'replace')[:500] if len(got) > 3 else ''}
        shaped = kind in ('near', 'same')          # the shape must agree too
        if got[0] != kind or got[1] != ref[1] or (shaped and got[2:3] != ref[2:3]) or \
                len(got) != len(ref):               # as many fields as the harness writes
            return {'kind': 'structure', 'what': ref[1], 'got_kind': got[0], 'got_what': got[1][:80]}
        if kind == 'near':
            shape, count = shape_of(ref[2])
            atol, rtol = parse_numbers(ref[3], 2)
            want = parse_numbers(ref[4], count)
            have = parse_numbers(got[4], count)
            for k, (a, e) in enumerate(zip(have, want)):
                if not near(a, e, atol, rtol):
                    return {'kind': 'value', 'what': index_label(ref[1], shape, k),
                            'expected': e, 'actual': a, 'atol': atol, 'rtol': rtol}
        elif kind == 'same':
            shape, count = shape_of(ref[2])
            want = parse_numbers(ref[3], count)
            have = parse_numbers(got[3], count)
            for k, (a, e) in enumerate(zip(have, want)):
                if a.hex() != e.hex() and not (math.isnan(a) and math.isnan(e)):
                    return {'kind': 'changed', 'what': index_label(ref[1], shape, k),
                            'expected': e, 'actual': a}
        elif kind == 'int':
            e, a = int(ref[2]), int(got[2])
            if a != e:
                return {'kind': 'int', 'what': ref[1], 'expected': e, 'actual': a}
        elif kind == 'true':
            if got[2] != ref[2]:
                return {'kind': 'message', 'en': ref[3].decode('utf-8', 'replace'),
                        'zh': ref[4].decode('utf-8', 'replace')}
    return {'kind': 'incomplete'}


# ---------------------------------------------------------------- running
def run_check(sb, binary, name, atol, rtol, limits, reference):
    """Run one check of the student's program in its own sandbox; judge its
    values against REFERENCE (the solution's records).  Returns a dict with
    status 'pass'/'fail', a reason and the facts to explain it."""
    env = {
        'ASAN_OPTIONS': ':'.join([
            'detect_leaks=0', 'allocator_may_return_null=0',
            'hard_rss_limit_mb=%d' % limits['memory_mb'],
            'max_allocation_size_mb=%d' % limits['alloc_mb'],
            'malloc_limit_mb=%d' % limits['memory_mb'],
            'abort_on_error=0', 'exitcode=86', 'handle_abort=0', 'detect_stack_use_after_return=0',
            'print_summary=1', 'color=never', 'symbolize=1', 'fast_unwind_on_malloc=1']),
        'UBSAN_OPTIONS': 'print_stacktrace=1:halt_on_error=1:exitcode=87:color=never',
    }
    r, w = os.pipe()
    argv = ['/grader/checks', '--emit', str(w), name, repr(atol), repr(rtol)]
    if sb.enabled:
        cmd = sb.command(argv, {'/grader/checks': binary}, limits, env=env)
    else:
        cmd = ['/usr/bin/env', '-i', 'PATH=/usr/bin:/bin'] + ['%s=%s' % kv for kv in env.items()] + \
            sb.command([binary] + argv[1:], {}, limits)
    res = run_limited(cmd, limits, pass_fds=(w,), value_fd=r)
    status, rusage = res['status'], res['rusage']
    err = res['err']
    cpu_used = rusage.ru_utime + rusage.ru_stime if rusage else 0.0
    facts = {'stdout': res['out'], 'stderr': err, 'seconds': res['seconds'],
             'cpu_seconds': round(cpu_used, 3)}
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    # bwrap reports the sandboxed command's death by a signal as 128 + signal
    if sb.enabled and code is not None and code > 128 and code - 128 < 65:
        sig, code = code - 128, None
    try:
        recs = decode_records(res['values'])
        malformed = None
    except ValueError as e:
        recs, malformed = [], str(e)

    if res['killed'] == 'output':
        return dict(facts, status='fail', reason='output-limit')
    if res['killed'] == 'values':
        return dict(facts, status='fail', reason='malformed',
                    detail='more than %d MB of values' % limits['values_mb'])
    if res['killed'] == 'timeout':
        return dict(facts, status='fail', reason='timeout')
    if res['killed'] == 'memory':
        return dict(facts, status='fail', reason='memory-limit')
    san = sanitizer_report(err)
    if sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu_used >= 0.9 * limits['cpu_seconds']):
        return dict(facts, status='fail', reason='cpu-limit')
    if san:
        return dict(facts, status='fail', **san)
    if sig is not None:
        return dict(facts, status='fail', reason='signal', signal=sig)
    if malformed:
        return dict(facts, status='fail', reason='malformed', detail=malformed)
    if code == 2 and 'no check named' in err:
        return dict(facts, status='fail', reason='grader', detail=err.strip()[-500:])
    v = judge(recs, reference)
    if v is None:
        if code != 0:
            return dict(facts, status='fail', reason='after-check', code=code)
        return dict(facts, status='pass', reason=None)
    if v['kind'] == 'incomplete':
        if not recs or recs[-1][0] != 'end':
            return dict(facts, status='fail', reason='exit', code=code)
        return dict(facts, status='fail', reason='malformed', detail='fewer values than the check has')
    return dict(facts, status='fail', reason='wrong', verdict=v, values=recs)


def sign_flipped(student, reference):
    """True when every value that fails is the expected one with its sign
    flipped (within the tolerance), and one fails at least: a sign error."""
    flipped = False
    try:
        for got, ref in zip(student, reference):
            if ref[0] != 'near' or got[0] != 'near' or len(got) != 5 or got[1:3] != ref[1:3]:
                continue
            shape, count = shape_of(ref[2])
            atol, rtol = parse_numbers(ref[3], 2)
            for a, e in zip(parse_numbers(got[4], count), parse_numbers(ref[4], count)):
                if near(a, e, atol, rtol):
                    continue
                if not near(a, -e, atol, rtol):
                    return False
                flipped = True
    except (ValueError, IndexError):
        return False
    return flipped


def run_and_diagnose(tc, ex, check, sb, binary, limits, reference):
    outcome = run_check(sb, binary, check['name'], float(check.get('atol', ex.atol)),
                        float(check.get('rtol', ex.rtol)), limits, reference)
    outcome['diagnoses'] = diagnose(tc, ex, check, outcome)
    outcome['sign_flipped'] = (outcome.get('reason') == 'wrong' and ex.kind != 'answers'
                               and sign_flipped(outcome.get('values') or [], reference))
    outcome.pop('values', None)         # up to 16 MB: not kept for the report
    return outcome


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
        # which side of the buffer: "located 8 bytes to the left of" (or
        # "before") is an index below 0, "to the right of" (or "after") past its end
        side = re.search(r'is located \d+ bytes? (to the left of|before|to the right of|after)', err)
        side = side and ('before' if side.group(1) in ('to the left of', 'before') else 'after')
        return {'reason': 'sanitizer', 'tool': 'AddressSanitizer', 'kind': kind,
                'detail': detail, 'where': where, 'side': side}
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
    if isinstance(x, float) and not math.isfinite(x):
        return 'nan' if math.isnan(x) else ('inf' if x > 0 else '-inf')
    if isinstance(x, float) and x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def gate(runs, outcomes):
    """A check whose right answer needs no work (a gradient that should be
    zero, a -1 for no solution) counts only when one of its "counts_with"
    checks of the same run passes too: a function that writes zeros must
    not score there.  Listed checks that did not run (the hidden ones of a
    student's own run, --check) are left out; if none ran, the check counts."""
    passed = {(ex.id, c['name']): o['status'] == 'pass' for (ex, c, _), o in zip(runs, outcomes)}
    for k, ((ex, c, _), o) in enumerate(zip(runs, outcomes)):
        needs = [n for n in c.get('counts_with', ()) if (ex.id, n) in passed]
        if o['status'] == 'pass' and needs and not any(passed[ex.id, n] for n in needs):
            outcomes[k] = {'status': 'fail', 'reason': 'gated', 'needs': needs,
                           'seconds': o.get('seconds')}


def explain(ex, check, outcome, built, lang):
    """The feedback lines for one failed (or passed) check."""
    L = lang.lines
    r = outcome['reason']
    lim = ex.limits
    lines = []
    if r is None:
        return lines
    if r in BUILD_REASONS:
        if outcome.get('first', True):
            lines += L(*built.message)
            if built.warnings:
                lines += ['    ' + w for w in built.warnings.splitlines()[:30]]
        else:
            lines += L('not built: see the first check of this exercise',
                       '未能构建：见本练习的第一项检查')
        return lines
    elif r == 'wrong' and ex.kind == 'answers':
        # a numeric answer: right or wrong, never the expected value
        v = outcome['verdict']
        what_en, what_zh = label_languages(v.get('what', ''))
        lines += L('%s: not right (a number within the tolerance of the answer was expected)'
                   % (what_en or 'the answer'),
                   '%s：不正确（答案应在容差范围内）' % (what_zh or '答案'))
    elif r == 'wrong':
        v = outcome['verdict']
        kind = v.get('kind')
        what_en, what_zh = label_languages(v.get('what') or '')
        if kind == 'structure':
            got_en, got_zh = label_languages(v.get('got_what', ''))
            lines += L('the check expected %s next, but your run produced %s %s: it did not '
                       'run the check as written' % (what_en or 'a value', v.get('got_kind'),
                                                    got_en),
                       '检查此处应得到 %s，你的程序却给出了 %s %s：它没有按检查的写法运行'
                       % (what_zh or '一个值', v.get('got_kind'), got_zh))
        elif kind in ('value', 'int', 'changed'):
            exp, act = fmt_num(v.get('expected')), fmt_num(v.get('actual'))
            if kind == 'value':
                a, rt = v.get('atol', 0), v.get('rtol', 0)
                if a == 0 and rt == 0:
                    tol_en, tol_zh = 'compared exactly', '精确比较'
                else:
                    tol_en = 'tolerance %s + %s*|expected|' % (fmt_num(a), fmt_num(rt))
                    tol_zh = '容差 %s + %s*|期望值|' % (fmt_num(a), fmt_num(rt))
                lines += L('%s: expected %s, got %s (%s)' % (what_en, exp, act, tol_en),
                           '%s：期望 %s，实际得到 %s（%s）' % (what_zh, exp, act, tol_zh))
                if act == 'nan':
                    lines += L('nan: this entry was never written, or came from inf - inf or 0/0',
                               'nan：这个位置从未被写入，或者来自 inf - inf、0/0 之类的运算')
                if outcome.get('sign_flipped'):
                    lines += L('every value of this check that is wrong is the expected one with '
                               'its sign flipped: look for a sign (+= for -=, a difference '
                               'taken the wrong way round)',
                               '这项检查里每个错的值都恰好是期望值的相反数：检查符号'
                               '（该用 -= 处用了 +=，或某个差减反了）')
            elif kind == 'int':
                lines += L('%s: expected %s, got %s' % (what_en, exp, act),
                           '%s：期望 %s，实际得到 %s' % (what_zh, exp, act))
            else:
                lines += L('%s was changed: it was %s, now %s (inputs must stay as they were)'
                           % (what_en, exp, act),
                           '%s 被修改了：原来是 %s，现在是 %s（输入必须保持不变）'
                           % (what_zh, exp, act))
        else:
            lines += L(v.get('en', 'failed'), v.get('zh', '失败'))
    elif r == 'gated':
        names = ', '.join(outcome['needs'])
        lines += L('right here, but this check counts only once one of %s passes too: '
                   'code that does no work (zeros, a constant, a copy of its input) '
                   'gets it right, so on its own it shows nothing' % names,
                   '此处的结果正确，但这项检查要等 %s 中至少一项也通过才计分：不做任何'
                   '计算的代码（全写 0、返回常数、照抄输入）也能答对它，单独通过说明不了'
                   '什么' % names.replace(', ', '、'))
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
        if outcome.get('side') == 'before':
            # an index below 0, not past the end
            en = {'heap-buffer-overflow': 'a read or write before the start of a buffer',
                  'stack-buffer-overflow': 'a read or write before the start of an array on the stack',
                  'global-buffer-overflow': 'a read or write before the start of a global array'
                  }.get(outcome['kind'], en)
            zh = {'heap-buffer-overflow': '在缓冲区开头之前读写',
                  'stack-buffer-overflow': '在栈上数组开头之前读写',
                  'global-buffer-overflow': '在全局数组开头之前读写'}.get(outcome['kind'], zh)
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
    elif r == 'malformed':
        lines += L('the values your run handed to the grader are unusable (%s): the check '
                   'counts as failed' % outcome.get('detail', ''),
                   '你的程序交给评分程序的值无法使用（%s）：此项检查记为失败' % outcome.get('detail', ''))
    elif r == 'grader':
        lines += L('grader error (tell your teacher): %s' % outcome.get('detail', ''),
                   '评分程序出错（请告诉老师）：%s' % outcome.get('detail', ''))
    hint = check.get('hint')
    known = outcome.get('diagnoses')
    if known:
        # the values are those of a known wrong solution: name its mistake
        # (instead of the check's general hint, which may point elsewhere)
        for m in known[:2]:
            if m.get('all_nan'):
                lines += L('hint (your values are all nan, as with a known mistake, but 0/0, '
                           'inf - inf or values never written give nan too): one possible cause: '
                           + m['mistake']['en'],
                           '提示（你的结果全是 nan，与一个常见错误相同；不过 0/0、inf - inf '
                           '或从未写入的位置也会得到 nan）：可能的原因之一：' + m['mistake']['zh'])
            else:
                lines += L('hint (your values are those of a known mistake): ' + m['mistake']['en'],
                           '提示（你的结果与一个常见错误的结果相同）：' + m['mistake']['zh'])
        # all nan is weak evidence for one mistake: the check's own hint too
        if hint and r not in BUILD_REASONS and all(m.get('all_nan') for m in known[:2]):
            lines += L('hint: ' + hint['en'], '提示：' + hint['zh'])
    elif hint and r not in BUILD_REASONS:
        lines += L('hint: ' + hint['en'], '提示：' + hint['zh'])
    if outcome.get('stdout') and not check.get('hidden') and r not in ('output-limit',):
        printed = outcome['stdout'].splitlines()
        lines += L('your code printed:', '你的代码输出了：')
        lines += ['  | ' + l[:200] for l in printed[:8]]
        if len(printed) > 8:
            lines.append('  | ...')
    return lines


# ---------------------------------------------------------------- main


BUILD_REASONS = ('missing', 'compile', 'forbidden', 'refused', 'grader-build')


# ---------------------------------------------------------------- main
def prepare_only(args):
    """--prepare: fill the cache of --build with everything that does not
    depend on a submission.  No student code runs, so no sandbox is needed
    (an image build may have none)."""
    root = os.path.abspath(args.root)
    build = os.path.abspath(args.build or os.path.join(root, 'build', 'grade'))
    exercises = select_exercises(root, args.ex)
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        tc = Toolchain(root, build, pool)
        for f in [pool.submit(lambda ex: (tc.checks_objects(ex), tc.expected(ex, ex.limits)), ex)
                  for ex in exercises if not ex.missing]:
            f.result()
        # the values of the known wrong solutions, which name a student's bug
        for f in [pool.submit(lambda ex: [tc.diagnoses(ex, c['name'], ex.limits)
                                          for c in ex.checks], ex)
                  for ex in exercises if not ex.missing and ex.kind != 'answers']:
            f.result()
    print('grade: prepared %d exercises in %s' % (len(exercises), build))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--root', default=DEFAULT_ROOT,
                    help='the tree holding exercises/, code/ and tools/ (default: this one)')
    ap.add_argument('--ex', default=os.environ.get('EX', ''),
                    help='exercise ids or globs, comma- or space-separated')
    ap.add_argument('--check', default='',
                    help='run only this check (comma-separated: these) of the one exercise chosen; '
                    'or checks named ID/NAME, of several exercises')
    ap.add_argument('--submission', help="directory with the student's exercise C files")
    ap.add_argument('--results', help='where to write results.json (default build/grade/results.json)')
    ap.add_argument('--build', help='build directory (default build/grade under the root)')
    ap.add_argument('--lang', choices=('zh', 'en', 'both'))
    ap.add_argument('--jobs', type=int, default=min(os.cpu_count() or 2, 2))
    ap.add_argument('--cpu-seconds', type=float, help='override every check\'s CPU limit')
    ap.add_argument('--quiet', action='store_true', help='print only failures and the total')
    ap.add_argument('--no-sandbox', action='store_true',
                    help='run without bubblewrap: only for your own code on your own machine')
    ap.add_argument('--no-lint', action='store_true',
                    help='skip the lint (the grader\'s own tests use it to show the sandbox and '
                    'the judge hold without it)')
    ap.add_argument('--keep', action='store_true', help='keep the scratch directories')
    ap.add_argument('--prepare', action='store_true',
                    help='only build what every grading shares (the library, the harness, the '
                    'checks and the reference values) into --build, and exit: Gradescope\'s '
                    'setup.sh does it once, so that each submission is graded warm')
    args = ap.parse_args(argv)
    if args.prepare:
        return prepare_only(args)

    root = os.path.abspath(args.root)
    build = os.path.abspath(args.build or os.path.join(root, 'build', 'grade'))
    results_path = os.path.abspath(args.results or os.path.join(build, 'results.json'))
    lang = Lang(choose_lang(args.lang))
    start = time.monotonic()
    tests, report, total, possible = [], [], 0, 0
    status = 1
    scratch = None
    try:
        exercises = select_exercises(root, args.ex)
        pairs = args.check and all('/' in x for x in args.check.split(','))
        if args.check and len(exercises) != 1 and not pairs:
            raise SystemExit('grade: --check needs exactly one exercise (--ex ID), '
                             'or checks named ID/NAME')
        if args.submission and not os.path.isdir(args.submission):
            raise SystemExit('grade: --submission %s: no such directory' % args.submission)
        try:
            sb = Sandbox(enabled=not args.no_sandbox)
        except SandboxUnavailable as e:
            raise SystemExit('grade: %s.  To grade your own code on your own machine without '
                             'it: --no-sandbox' % e)
        if args.no_sandbox:
            print('grade: --no-sandbox: the student\'s code runs unconfined', file=sys.stderr)
        os.makedirs(build, exist_ok=True)
        # every run builds in fresh scratch directories of its own, removed at the end
        scratch = tempfile.mkdtemp(prefix='run-', dir=build)
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            tc = Toolchain(root, build, pool)

            def sources(ex):
                out = {}
                for f in ex.student_files:
                    try:
                        if args.submission:
                            p = find_submitted(os.path.abspath(args.submission), ex, f)
                        else:
                            p = os.path.join(ex.dir, f)
                            p = p if os.path.isfile(p) else None
                        out[f] = read_submitted(p, f) if p else None
                    except Refused as e:
                        out[f] = e
                return out

            def prepare(ex):
                b = build_exercise(ex, tc, sb, sources(ex), os.path.join(scratch, ex.id),
                                   use_lint=not args.no_lint)
                ref = tc.expected(ex, ex.limits) if b.binary else {}
                return b, ref

            preps = {ex.id: pool.submit(prepare, ex) for ex in exercises}
            runs = []
            builds, refs = {}, {}
            for ex in exercises:
                try:
                    b, ref = preps[ex.id].result()
                except Exception as e:       # the grader's own files are broken
                    b, ref = Built(reason='grader-build', message=(
                        'grader error (tell your teacher): %s' % e,
                        '评分程序出错（请告诉老师）：%s' % e)), {}
                builds[ex.id], refs[ex.id] = b, ref
                lim = dict(ex.limits)
                if args.cpu_seconds:
                    lim['cpu_seconds'] = args.cpu_seconds
                    lim['wall_seconds'] = min(lim['wall_seconds'], args.cpu_seconds * 3 + 2)
                ex.limits = lim
                only = set(args.check.split(',')) if args.check else None
                for c in ex.checks:
                    if only and c['name'] not in only and '%s/%s' % (ex.id, c['name']) not in only:
                        continue
                    if b.binary and c['name'] in ref:
                        binary = b.binary if c.get('hidden') else b.visible
                        fut = pool.submit(run_and_diagnose, tc, ex, c, sb, binary, lim,
                                          ref[c['name']])
                    else:
                        fut = None
                    runs.append((ex, c, fut))
            if args.check and not runs:
                raise SystemExit('grade: %s has no check %r' % (exercises[0].id, args.check))
            # every outcome first (a check may count only with another that
            # comes after it: "counts_with"), then the report in order,
            # exercise by exercise
            outcomes = []
            for ex, c, fut in runs:
                b = builds[ex.id]
                if fut is None:
                    if b.binary:
                        outcome = {'status': 'fail', 'reason': 'grader',
                                   'detail': 'no reference values for %s' % c['name']}
                    else:
                        outcome = {'status': 'fail', 'reason': b.reason}
                else:
                    try:
                        outcome = fut.result()
                    except Exception:
                        outcome = {'status': 'fail', 'reason': 'grader',
                                   'detail': traceback.format_exc(limit=2)}
                outcomes.append(outcome)
            gate(runs, outcomes)
            current = None
            ex_score = ex_max = 0
            for (ex, c, fut), outcome in zip(runs, outcomes):
                b = builds[ex.id]
                first = ex is not current
                if first:
                    if current is not None:
                        report.append('  %s %s/%s' % (lang.join('score', '得分', '/'), ex_score, ex_max))
                    current, ex_score, ex_max = ex, 0, 0
                    report.append('')
                    report.append('%s  %s %s' % (ex.id, ex.number,
                                                 lang.join(ex.title['en'], ex.title['zh'])))
                    if b.binary and b.warnings.strip():
                        report += ['  ' + l for l in lang.lines('compiler warnings:', '编译器警告：')]
                        report += ['    ' + w for w in b.warnings.splitlines()[:20]]
                    if not b.binary:       # a build failure: said once, here
                        report += ['  ' + l for l in lang.lines(*b.message)]
                        report += ['    ' + w for w in b.warnings.splitlines()[:30]]
                if fut is None and not b.binary:
                    outcome['first'] = first
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
                    if b.binary:
                        report += ['      ' + l for l in lines]
                tests.append({
                    'name': '%s %s: %s' % (ex.number, ex.id, c['name']),
                    'score': got, 'max_score': pts,
                    'status': 'passed' if got == pts else 'failed',
                    'output': '\n'.join(lines) if lines else lang.join('passed', '通过'),
                    'visibility': 'after_published' if hidden else 'visible',
                    'extra_data': {'exercise': ex.id, 'check': c['name'],
                                   'reason': outcome.get('reason'),
                                   'diagnoses': [m['name'] for m in outcome.get('diagnoses') or ()],
                                   'seconds': outcome.get('seconds')},
                })
            if current is not None:
                report.append('  %s %s/%s' % (lang.join('score', '得分', '/'), ex_score, ex_max))
            for ex in exercises:
                if ex.answers_elsewhere:
                    b = builds[ex.id]
                    report.append('')
                    report += lang.lines(
                        '%s: numeric answers are checked only by your course\'s grader; '
                        'here: %s' % (ex.id, 'your file builds' if b.binary else 'not built'),
                        '%s：数值答案只由课程的评分程序检查；此处：%s'
                        % (ex.id, '文件可以构建' if b.binary else '未能构建'))
                    if not b.binary:
                        report += ['  ' + l for l in lang.lines(*b.message)]
                        report += ['    ' + w for w in b.warnings.splitlines()[:30]]
        elapsed = time.monotonic() - start
        report.append('')
        if lang.mode == 'zh':
            report.append('总分：%s/%s（%d 个练习，%d 项检查，%.1f 秒）' % (
                total, possible, len(exercises), len(tests), elapsed))
        else:
            report.append('%s: %s/%s  (%d %s, %d %s, %.1f s)' % (
                lang.join('Total', '总分', '/'), total, possible, len(exercises),
                lang.join('exercises', '个练习', '/'), len(tests),
                lang.join('checks', '项检查', '/'), elapsed))
        print('\n'.join(report).lstrip('\n'))
        # numeric answers checked elsewhere: here, success is a file that builds
        elsewhere = [ex for ex in exercises if ex.answers_elsewhere]
        unbuilt = [ex for ex in elsewhere if not builds[ex.id].binary]
        status = 0 if (total == possible and (possible > 0 or elsewhere)
                       and not unbuilt) else 1
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
        if scratch and not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
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

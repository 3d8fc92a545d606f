"""Cheap checks that the build is reproducible (make check-reproducible does
the full double build; it takes minutes, so it is not part of make test).

- the PDFs' CreationDate is SOURCE_DATE_EPOCH (a commit's date), not the
  wall clock of the build;
- the timing figures draw the recorded data/timings/ files, which name the
  machine that measured them;
- the student tarball comes out byte-identical from two runs at different
  times with different umasks, and its members carry the source date.
"""
import calendar
import io
import os
import re
import subprocess
import sys
import tarfile
import time

from helpers import TOP, TempDir

BUILD = os.path.join(TOP, 'build')


def pdf_creation_epoch(path):
    out = subprocess.run(['pdfinfo', '-isodates', path], capture_output=True,
                         text=True).stdout
    m = re.search(r'^CreationDate:\s+(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(Z|[+-]\d\d:?\d\d)?$',
                  out, re.M)
    assert m, 'no CreationDate in pdfinfo %s:\n%s' % (path, out)
    y, mo, d, h, mi, s = map(int, m.groups()[:6])
    tz = m.group(7) or 'Z'
    offset = 0 if tz == 'Z' else (1 if tz[0] == '+' else -1) * (
        int(tz[1:3]) * 3600 + int(tz[-2:]) * 60)
    return calendar.timegm((y, mo, d, h, mi, s)) - offset


def commit_dates():
    p = subprocess.run(['git', '-C', TOP, 'log', '--format=%ct'], capture_output=True,
                       text=True)
    return {int(t) for t in p.stdout.split()} | {1700000000}


def test_pdfs_are_dated_by_the_source_not_the_clock():
    dates = commit_dates()
    for edition in ('zh', 'en', 'bilingual'):
        path = os.path.join(BUILD, 'book-%s.pdf' % edition)
        assert os.path.exists(path), '%s is missing: run make' % path
        when = pdf_creation_epoch(path)
        assert when in dates, (
            '%s: CreationDate %s is no commit date: the build did not pass '
            'SOURCE_DATE_EPOCH to xdvipdfmx (mk/common.mk exports it)'
            % (path, time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(when))))


def test_timing_figures_replay_the_recorded_measurement():
    timings = os.path.join(TOP, 'data', 'timings')
    names = sorted(f for f in os.listdir(timings) if f.endswith('.dat'))
    assert {'ch01-timing.dat', 'ch02-cost.dat'} <= set(names), names
    for name in names:
        recorded = open(os.path.join(timings, name)).read()
        for key in ('command', 'machine', 'date'):
            assert re.search(r'^# %s: \S' % key, recorded, re.M), \
                '%s has no "# %s:" line' % (name, key)
        built = os.path.join(BUILD, 'data', name)
        assert open(built).read() == recorded, \
            '%s is not the recorded %s: the build measured again' % (built, name)


def test_student_tarball_is_byte_identical_across_runs():
    sys.path.insert(0, os.path.join(TOP, 'tools'))
    import grade_release
    saved = os.environ.get('SOURCE_DATE_EPOCH')
    os.environ['SOURCE_DATE_EPOCH'] = saved or '1700000000'
    blobs = []
    try:
        when = student_twice(grade_release, blobs)
    finally:
        if saved is None:
            del os.environ['SOURCE_DATE_EPOCH']
    assert blobs[0] == blobs[1], 'two runs of the student release gave different tarballs'
    with tarfile.open(fileobj=io.BytesIO(blobs[0])) as tar:
        mtimes = {m.mtime for m in tar.getmembers()}
        owners = {(m.uid, m.gid) for m in tar.getmembers()}
    assert mtimes == {when}, mtimes
    assert owners == {(0, 0)}, owners


def student_twice(grade_release, blobs):
    """The student release built twice, a second apart, under two umasks."""
    with TempDir() as tmp:
        for n, mask in enumerate((0o022, 0o077)):
            old = os.umask(mask)
            try:
                _, tarball, _ = grade_release.student(dest=os.path.join(tmp.path, 'run%d' % n,
                                                                        'student'))
            finally:
                os.umask(old)
            blobs.append(open(tarball, 'rb').read())
            if n == 0:
                time.sleep(1.1)             # a different second on the clock
    return int(os.environ['SOURCE_DATE_EPOCH'])

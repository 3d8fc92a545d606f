#!/usr/bin/python3
"""Headless Chromium driven over the DevTools protocol, Python stdlib only.

Chromium (Debian's `chromium`) starts with --remote-debugging-pipe: commands
go to it as JSON on file descriptor 3, answers and events come back on 4,
each message ended by a NUL byte.  No port, no network.

    with Chromium() as b:
        page = b.open('file:///.../index.html')   # waits for the load event
        page.evaluate('document.title')
        page.screenshot('out.png', width=1100)
        page.problems                               # console errors, failed loads

Also a command line, to look at pages and figures:

    browser.py shot URL OUT.png [WIDTH [HEIGHT]]
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

CANDIDATES = ('chromium', 'chromium-browser', 'google-chrome')


def find_chromium():
    for c in CANDIDATES:
        p = shutil.which(c)
        if p:
            return p
    return None


class Error(Exception):
    pass


class Chromium:
    def __init__(self, timeout=30):
        self.exe = find_chromium()
        if not self.exe:
            raise Error('chromium is not installed (Debian package chromium)')
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix='attn-chromium-')
        cmd_r, self._cmd_w = os.pipe()      # we write, Chromium reads (fd 3)
        self._ev_r, ev_w = os.pipe()        # Chromium writes (fd 4), we read
        # out of the way of 3 and 4, which the child's dup2 will overwrite
        hi_r = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10)
        hi_w = fcntl.fcntl(ev_w, fcntl.F_DUPFD, 10)
        os.close(cmd_r)
        os.close(ev_w)

        def child_fds():
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)
        args = [self.exe, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
                '--no-first-run', '--disable-background-networking',
                '--disable-component-update', '--disable-sync', '--disable-extensions',
                '--disable-default-apps', '--mute-audio', '--hide-scrollbars',
                '--remote-debugging-pipe', '--user-data-dir=' + self.profile,
                'about:blank']
        # close_fds runs after preexec_fn: 3 and 4 must be kept
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, pass_fds=(3, 4),
                                     preexec_fn=child_fds)
        os.close(hi_r)
        os.close(hi_w)
        self._buf = b''
        self._id = 0
        self._events = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.send('Browser.close', wait=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._cmd_w, self._ev_r):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    # -- the protocol -------------------------------------------------------
    def _read_message(self, deadline):
        while b'\0' not in self._buf:
            left = deadline - time.time()
            if left <= 0:
                raise Error('no answer from Chromium within %d s' % self.timeout)
            r, _, _ = select.select([self._ev_r], [], [], left)
            if not r:
                continue
            data = os.read(self._ev_r, 1 << 20)
            if not data:
                raise Error('Chromium closed the pipe (did it crash?)')
            self._buf += data
        msg, _, self._buf = self._buf.partition(b'\0')
        return json.loads(msg.decode('utf-8'))

    def send(self, method, params=None, session=None, wait=True):
        self._id += 1
        msg = {'id': self._id, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        os.write(self._cmd_w, json.dumps(msg).encode('utf-8') + b'\0')
        if not wait:
            return None
        want = self._id
        deadline = time.time() + self.timeout
        while True:
            m = self._read_message(deadline)
            if m.get('id') == want:
                if 'error' in m:
                    raise Error('%s: %s' % (method, m['error'].get('message')))
                return m.get('result', {})
            self._events.append(m)

    def wait_event(self, method, session, timeout=None):
        deadline = time.time() + (timeout or self.timeout)
        while True:
            for k, e in enumerate(self._events):
                if e.get('method') == method and e.get('sessionId') == session:
                    return self._events.pop(k)
            self._events.append(self._read_message(deadline))

    def events(self, session):
        """Take the events received so far for a session."""
        mine = [e for e in self._events if e.get('sessionId') == session]
        self._events = [e for e in self._events if e.get('sessionId') != session]
        return mine

    def open(self, url, width=1100, height=900):
        t = self.send('Target.createTarget', {'url': 'about:blank'})
        s = self.send('Target.attachToTarget', {'targetId': t['targetId'],
                                                'flatten': True})['sessionId']
        page = Page(self, t['targetId'], s)
        for domain in ('Page', 'Runtime', 'Log', 'Network'):
            self.send(domain + '.enable', session=s)
        self.send('Emulation.setDeviceMetricsOverride', {
            'width': width, 'height': height, 'deviceScaleFactor': 1, 'mobile': False},
            session=s)
        page.navigate(url)
        return page


class Page:
    def __init__(self, browser, target, session):
        self.b = browser
        self.target = target
        self.s = session
        self.problems = []

    def navigate(self, url):
        self.b.events(self.s)
        r = self.b.send('Page.navigate', {'url': url}, session=self.s)
        if r.get('errorText'):
            self.problems.append('could not open %s: %s' % (url, r['errorText']))
            return
        self.b.wait_event('Page.loadEventFired', self.s)
        # fonts and layout settle; then gather what the console said
        self.evaluate('document.fonts ? document.fonts.ready.then(() => 1) : 1', await_=True)
        self.collect()

    def collect(self):
        for e in self.b.events(self.s):
            m, p = e.get('method'), e.get('params', {})
            if m == 'Runtime.exceptionThrown':
                d = p.get('exceptionDetails', {})
                self.problems.append('exception: %s' % (
                    d.get('exception', {}).get('description') or d.get('text')))
            elif m == 'Runtime.consoleAPICalled' and p.get('type') in ('error', 'assert'):
                self.problems.append('console.%s: %s' % (p['type'], ' '.join(
                    str(a.get('value', a.get('description', ''))) for a in p.get('args', []))))
            elif m == 'Log.entryAdded' and p.get('entry', {}).get('level') == 'error':
                en = p['entry']
                self.problems.append('console error: %s %s' % (en.get('text'), en.get('url', '')))
            elif m == 'Network.loadingFailed':
                self.problems.append('failed to load: %s (%s)' % (
                    p.get('requestId'), p.get('errorText')))

    def evaluate(self, expr, await_=False):
        r = self.b.send('Runtime.evaluate', {'expression': expr, 'returnByValue': True,
                                             'awaitPromise': await_}, session=self.s)
        if 'exceptionDetails' in r:
            raise Error('evaluate: %s' % r['exceptionDetails'].get('text'))
        return r.get('result', {}).get('value')

    def screenshot(self, path, width=1100, height=None, max_height=6000):
        if height is None:
            height = min(int(self.evaluate('document.documentElement.scrollHeight')), max_height)
        self.b.send('Emulation.setDeviceMetricsOverride', {
            'width': width, 'height': height, 'deviceScaleFactor': 1, 'mobile': False},
            session=self.s)
        r = self.b.send('Page.captureScreenshot', {'format': 'png'}, session=self.s)
        with open(path, 'wb') as f:
            f.write(base64.b64decode(r['data']))

    def close(self):
        self.b.send('Target.closeTarget', {'targetId': self.target})


def main(argv):
    if len(argv) >= 4 and argv[1] == 'shot':
        url = argv[2]
        if '://' not in url:
            url = 'file://' + os.path.abspath(url)
        width = int(argv[4]) if len(argv) > 4 else 1100
        height = int(argv[5]) if len(argv) > 5 else None
        with Chromium() as b:
            p = b.open(url, width=width)
            p.screenshot(argv[3], width=width, height=height)
            for x in p.problems:
                print(x, file=sys.stderr)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))

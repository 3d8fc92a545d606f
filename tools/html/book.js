/* The HTML edition's one script (book2html.py puts ATTN_UI, the page's
   words, in front).  Everything works from file://: the search index and the
   chunks are scripts loaded on demand (search-index.js, chunks.js), not
   fetched.  Without the script the pages still read; the search box and the
   copy buttons stay hidden. */
(function () {
  'use strict';
  var ui = window.ATTN_UI || {};
  var attn = window.attnbook = {};

  /* Load the script SRC once, then call DONE (at once if it is loaded). */
  var scripts = {};
  function load(src, done) {
    var st = scripts[src];
    if (st === true) { done(); return; }
    if (st) { st.push(done); return; }
    scripts[src] = [done];
    var s = document.createElement('script');
    s.src = src;
    s.onload = function () {
      var waiting = scripts[src];
      scripts[src] = true;
      waiting.forEach(function (f) { f(); });
    };
    s.onerror = function () { delete scripts[src]; };   /* the next call tries again */
    document.head.appendChild(s);
  }

  /* The chapter's contents: open beside the text on a wide screen, a closed
     <details> above it on a phone. */
  var toc = document.getElementById('toc');
  var wide = window.matchMedia('(min-width: 70rem)');
  function fitToc() { if (toc) toc.open = wide.matches; }
  fitToc();
  if (wide.addEventListener) wide.addEventListener('change', fitToc);
  if (toc) toc.addEventListener('click', function (e) {
    if (e.target.closest('a') && !wide.matches) toc.open = false;
  });

  /* The language switch keeps the reader's place: both editions use the same
     ids, so the other edition opens at the section (or chunk) on screen. */
  attn.place = function () {
    var best = '';
    var els = document.querySelectorAll('main h2[id], main h3[id], main h4[id], ' +
                                        'main .chunk[id], main .equation[id], main figure[id]');
    for (var i = 0; i < els.length; i++) {
      if (els[i].getBoundingClientRect().top > 80) break;
      best = els[i].id;
    }
    return best;
  };
  /* The contents mark the section being read. */
  var tocLinks = document.querySelectorAll('aside.toc .toc-list a[href^="#"]');
  var marked = null;
  function markToc() {
    var best = null, els = document.querySelectorAll('main h2[id], main h3[id]');
    for (var i = 0; i < els.length; i++) {
      if (els[i].getBoundingClientRect().top > 120) break;
      best = els[i].id;
    }
    var link = null;
    tocLinks.forEach(function (a) { if (a.getAttribute('href') === '#' + best) link = a; });
    if (link === marked) return;
    if (marked) { marked.classList.remove('here'); marked.removeAttribute('aria-current'); }
    if (link) { link.classList.add('here'); link.setAttribute('aria-current', 'location'); }
    marked = link;
  }
  if (tocLinks.length) {
    var pending = false;
    window.addEventListener('scroll', function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; markToc(); });
    }, {passive: true});
    markToc();
  }

  document.querySelectorAll('a.lang').forEach(function (a) {
    a.addEventListener('click', function () {
      var id = attn.place() || (location.hash || '').slice(1);
      a.href = a.href.split('#')[0] + (id ? '#' + encodeURIComponent(id) : '');
    });
  });

  /* Copy: the chunk as code that compiles, its uses expanded as notangle
     expands them. */
  function expandName(name, seen) {
    var C = window.ATTN_CHUNKS, out = [];
    var labels = C.names[name];
    if (!labels) return ['/* <<' + name + '>> is not defined */'];
    if (seen.indexOf(name) >= 0) return ['/* <<' + name + '>> uses itself */'];
    labels.forEach(function (l) {
      out = out.concat(expandDef(l, seen.concat([name])));
    });
    return out;
  }
  function expandDef(label, seen) {
    var C = window.ATTN_CHUNKS, out = [];
    (C.defs[label] || []).forEach(function (parts) {
      var cur = '';
      parts.forEach(function (p) {
        if (typeof p === 'string') { cur += p; return; }
        var sub = expandName(p[0], seen || []);
        var indent = cur.replace(/[^\t]/g, ' ');
        sub.forEach(function (line, k) {
          if (k === 0) { cur += line; return; }
          out.push(cur);
          cur = line === '' ? '' : indent + line;
        });
      });
      out.push(cur);
    });
    return out;
  }
  attn.expandName = function (name) { return expandName(name, []).join('\n') + '\n'; };
  attn.expand = function (label) { return expandDef(label, []).join('\n') + '\n'; };
  attn.copied = null;

  function copyText(text, button) {
    attn.copied = text;
    function done() {
      button.textContent = ui.copied || 'Copied';
      setTimeout(function () { button.textContent = ui.copy || 'Copy'; }, 1500);
    }
    function fallback() {
      var t = document.createElement('textarea');
      t.value = text;
      t.setAttribute('readonly', '');
      t.style.position = 'fixed';
      t.style.opacity = '0';
      document.body.appendChild(t);
      t.select();
      try { document.execCommand('copy'); } catch (e) { /* nothing to do */ }
      document.body.removeChild(t);
      done();
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, fallback);
    } else {
      fallback();
    }
  }
  /* The book's code (chunks.js, half a megabyte) loads when a reader first
     reaches for a copy button (points at it, touches it, tabs to it), not
     with every page. */
  attn.withChunks = function (then) { load('chunks.js', then); };
  function preload() { attn.withChunks(function () {}); }
  document.querySelectorAll('button.copy').forEach(function (b) {
    b.hidden = false;
    ['pointerenter', 'touchstart', 'focus'].forEach(function (ev) {
      b.addEventListener(ev, preload, {once: true, passive: true});
    });
    b.addEventListener('click', function () {
      attn.withChunks(function () { copyText(attn.expand(b.dataset.chunk), b); });
    });
  });

  /* Search: a prebuilt index (search-index.js), loaded on first use.  Terms
     are English words and Chinese character pairs, as book2html.py made them. */
  function terms(text) {
    var out = [], re = /[a-z0-9_]+|[\u3400-\u4dbf\u4e00-\u9fff]+/g, m;
    text = text.toLowerCase();
    while ((m = re.exec(text))) {
      var w = m[0];
      if (w.charCodeAt(0) < 0x3400) {
        if (w.length > 3 && /s$/.test(w) && !/ss$/.test(w)) w = w.slice(0, -1);
        if (w.length >= 2) out.push(w);
      } else if (w.length === 1) {
        out.push(w);
      } else {
        for (var k = 0; k + 1 < w.length; k++) out.push(w.substr(k, 2));
      }
    }
    return out;
  }
  attn.search = function (query) {
    var S = window.ATTN_SEARCH;
    if (!S) return [];
    var ts = terms(query), score = {}, hits = {};
    ts.forEach(function (t) {
      var p = S.terms[t];
      if (!p) return;
      for (var k = 0; k < p.length; k += 2) {
        score[p[k]] = (score[p[k]] || 0) + Math.log(1 + p[k + 1]);
        hits[p[k]] = (hits[p[k]] || 0) + 1;
      }
    });
    var need = ts.length, res = [];
    Object.keys(score).forEach(function (d) {
      if (hits[d] < need) return;           // every term of the query
      var doc = S.docs[d], s = score[d];
      if (doc[1].toLowerCase().indexOf(query.toLowerCase().trim()) >= 0) s += 10;
      res.push({href: doc[0], title: doc[1], page: doc[2], score: s});
    });
    res.sort(function (a, b) { return b.score - a.score; });
    return res.slice(0, 12);
  };
  var form = document.querySelector('form.search');
  if (form) {
    form.hidden = false;
    var q = document.getElementById('search-q');
    var list = document.getElementById('search-results');
    var show = function () {
      var text = q.value.trim();
      list.innerHTML = '';
      if (!text) return;
      var res = attn.search(text);
      if (!res.length) {
        var li = document.createElement('li');
        li.className = 'none';
        li.textContent = list.dataset.none;
        list.appendChild(li);
      }
      res.forEach(function (r) {
        var li = document.createElement('li'), a = document.createElement('a');
        a.href = r.href;
        a.textContent = r.title;
        var small = document.createElement('span');
        small.className = 'where';
        small.textContent = r.page;
        li.appendChild(a);
        li.appendChild(small);
        list.appendChild(li);
      });
    };
    var ready = function (then) {
      load('search-index.js', then);
    };
    q.addEventListener('focus', function () { ready(function () {}); });
    q.addEventListener('input', function () { ready(show); });
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var first = list.querySelector('a');
      if (first) location.href = first.href;
    });
    document.addEventListener('keydown', function (e) {
      if (e.key === '/' && document.activeElement !== q &&
          !/INPUT|TEXTAREA/.test(document.activeElement.tagName)) {
        e.preventDefault();
        q.focus();
      } else if (e.key === 'Escape' && document.activeElement === q) {
        q.value = '';
        list.innerHTML = '';
      }
    });
  }
})();

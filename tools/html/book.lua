--[[ The HTML edition, one language: a pandoc Lua filter.

    pandoc -f latex+raw_tex -t html5 -o /dev/null --lua-filter book.lua \
           -M bookdata=DATA.lua < BOOK.tex

tools/html/book2html.py writes BOOK.tex (every chapter's prose, with
\htmlpage{N} where page N starts and markers where code chunks, figures,
equations and exercises stand) and DATA.lua (what the markers stand for:
numbers, labels, chunks, citations, the pages' words), both from the
chapters read by tools/nwbook/.  This filter builds the chunks, figures,
equations and cross-references into the AST, and writes every page through
pandoc.write and the template page.html5 (navigation, contents, downloads),
the search index (search-index.js) beside them.  Warnings go to stderr as
"book.lua: LANG: ...".  Only Lua API that pandoc 2.17 has and pandoc 3 keeps.
]]

-- beside this file: tools/html/nwname.lua, chunk names, shared with the
-- other filter; tools/html/highlight.lua, the code's colours
local HERE = PANDOC_SCRIPT_FILE:match('^(.*[/\\])') or ''
local nwname = dofile(HERE .. 'nwname.lua')
local highlight = dofile(HERE .. 'highlight.lua')
local D, W            -- the data file; its words (book.toml)
local warnings, unknown = {}, {}
local page            -- the chapter being built: {slug=..}
local tokens, ntokens = {}, 0
local in_figure = false

local function warn(msg) warnings[#warnings + 1] = D.lang .. ': ' .. msg end

-- ---------------------------------------------------------------------------
-- Text helpers

local function esc(s, quote)
  s = s:gsub('&', '&amp;'):gsub('<', '&lt;'):gsub('>', '&gt;')
  if quote ~= false then s = s:gsub('"', '&quot;'):gsub("'", '&#x27;') end
  return s
end

local function plain_replace(s, old, new)
  local i = s:find(old, 1, true)
  if not i then return s end
  return s:sub(1, i - 1) .. new .. plain_replace(s:sub(i + #old), old, new)
end

-- 'Chapter {}' with its {} filled in, in order
local function fmt(f, ...)
  local args, n = {...}, 0
  return (f:gsub('{}', function() n = n + 1; return (args[n]:gsub('%%', '%%%%')) end))
end

local function join_list(items)
  if #items <= 1 then return table.concat(items) end
  return table.concat(items, W.comma, 1, #items - 1) .. W['and'] .. items[#items]
end

-- Python's str.isspace, for the characters the book has
local SPACE = {[9]=1, [10]=1, [11]=1, [12]=1, [13]=1, [32]=1, [0x85]=1, [0xa0]=1,
               [0x1680]=1, [0x2028]=1, [0x2029]=1, [0x202f]=1, [0x205f]=1, [0x3000]=1}
local function isspace(c) return SPACE[c] or (c >= 0x2000 and c <= 0x200a) end

local function strip(s)
  local cs = {}
  for _, c in utf8.codes(s) do cs[#cs + 1] = c end
  local i, j = 1, #cs
  while i <= j and isspace(cs[i]) do i = i + 1 end
  while j >= i and isspace(cs[j]) do j = j - 1 end
  return utf8.char(table.unpack(cs, i, j))
end

-- runs of white space as one space, none at the ends
local function squash(s)
  local out, sp = {}, false
  for _, c in utf8.codes(s) do
    if isspace(c) then sp = #out > 0
    else
      if sp then out[#out + 1] = ' ' end
      sp = false
      out[#out + 1] = utf8.char(c)
    end
  end
  return table.concat(out)
end

local function prefix(s, n)        -- the first n characters
  local k = utf8.offset(s, n + 1)
  return k and s:sub(1, k - 1) or s
end

local function in_ranges(c, ranges)
  if not c then return false end
  for k = 1, #ranges, 2 do
    if c >= ranges[k] and c <= ranges[k + 1] then return true end
  end
  return false
end
local CJK_PUNCT = {0x3000, 0x303f, 0xff00, 0xffef, 0x2018, 0x201d, 0x2014, 0x2014, 0x2026, 0x2026}
local CJK_CHAR = {0x3400, 0x4dbf, 0x4e00, 0x9fff, table.unpack(CJK_PUNCT)}

local PUNCT = {}
for _, c in utf8.codes(',.;:!?)]，。；：、）！？') do PUNCT[c] = true end

-- ---------------------------------------------------------------------------
-- The AST

local function Attr(id, classes) return pandoc.Attr(id or '', classes or {}) end
local function RawB(s) return pandoc.RawBlock('html', s) end
local function RawI(s) return pandoc.RawInline('html', s) end

local function text_inlines(s)
  local out, n = {}, 0
  for word in (s .. ' '):gmatch('([^ ]*) ') do
    n = n + 1
    if n > 1 then out[#out + 1] = pandoc.Space() end
    if word ~= '' then out[#out + 1] = pandoc.Str(word) end
  end
  return out
end

local stringify
local function math_text(s)
  s = s:gsub('\\sqrt{([^}]*)}', '√%1')
  for _, m in ipairs({'mathrm', 'text', 'mathit'}) do s = s:gsub('\\' .. m .. '{([^}]*)}', '%1') end
  return (s:gsub('[{}$\\]', ''))
end

local STRINGIFY_CONTENT = {Emph=1, Strong=1, SmallCaps=1, Strikeout=1, Plain=1, Para=1,
                           Underline=1, Span=1, Quoted=1, Link=1, Image=1, Header=1}
-- Plain text of inlines or blocks (for <title>, alt text, the search index)
stringify = function(x)
  if x.t == nil then
    local out = {}
    for _, e in ipairs(x) do out[#out + 1] = stringify(e) end
    return table.concat(out)
  end
  local t = x.t
  if t == 'Str' then return x.text end
  if t == 'Space' or t == 'SoftBreak' or t == 'LineBreak' then return ' ' end
  if t == 'Code' then return x.text end
  if t == 'Math' then return math_text(x.text) end
  if STRINGIFY_CONTENT[t] then return stringify(x.content) end
  return ''
end

local EDGE = {Emph=1, Strong=1, Span=1, Quoted=1, Link=1, Underline=1, SmallCaps=1}
-- the first (or last) character an inline shows
local function edge_char(x, last)
  local s
  if x.t == 'Str' then s = x.text
  elseif EDGE[x.t] then s = stringify(x)
  else return nil end
  if last then
    local k = #s
    while k > 0 do
      local p = utf8.offset(s, 0, k)
      local c = utf8.codepoint(s, p)
      if not isspace(c) then return c end
      k = p - 1
    end
  else
    for _, c in utf8.codes(s) do
      if not isspace(c) then return c end
    end
  end
  return nil
end

-- A line break in the Chinese source is no space in the text (pandoc's
-- east_asian_line_breaks, which its LaTeX reader lacks), nor is a space next
-- to full-width punctuation; a no-break space next to Chinese (第~3~章) is a
-- narrow one, as xeCJK sets it.
local function cjk_spacing(xs)
  local res = {}
  for k, x in ipairs(xs) do
    local skip = false
    if (x.t == 'Space' or x.t == 'SoftBreak') and #res > 0 and k < #xs then
      local a, b = edge_char(res[#res], true), edge_char(xs[k + 1], false)
      skip = (in_ranges(a, CJK_CHAR) and in_ranges(b, CJK_CHAR)) or
             in_ranges(a, CJK_PUNCT) or in_ranges(b, CJK_PUNCT)
    end
    if not skip then
      if x.t == 'Str' and x.text:find('\u{a0}', 1, true) then
        x = pandoc.Str(plain_replace(x.text, '\u{a0}', '\u{202f}'))
      end
      res[#res + 1] = x
    end
  end
  return res
end

-- Chapter~1: a no-break space is an ordinary space in a no-wrap span (in the
-- text fonts the no-break space is a wide gap).
local function glue_nbsp(xs)
  local res, k = {}, 1
  while k <= #xs do
    local x = xs[k]
    if x.t == 'Str' and x.text:find('\u{a0}', 1, true) then
      local inner, n = {}, 0
      for piece in (x.text .. '\u{a0}'):gmatch('(.-)\u{a0}') do
        n = n + 1
        if n > 1 then inner[#inner + 1] = pandoc.Space() end
        if piece ~= '' then inner[#inner + 1] = pandoc.Str(piece) end
      end
      if x.text:sub(-2) == '\u{a0}' and k < #xs then
        inner[#inner + 1] = xs[k + 1]
        k = k + 1
      end
      res[#res + 1] = pandoc.Span(inner, Attr('', {'nowrap'}))
    else
      res[#res + 1] = x
    end
    k = k + 1
  end
  return res
end

-- no line break between inline math and the punctuation after it
local function glue_math(xs)
  local k = 1
  while k < #xs do
    local a, b = xs[k], xs[k + 1]
    if a.t == 'Math' and b.t == 'Str' then
      local n = 0
      for p, c in utf8.codes(b.text) do
        if not PUNCT[c] then break end
        n = p + #utf8.char(c) - 1
      end
      if n > 0 then
        local glued = pandoc.Span({a, pandoc.Str(b.text:sub(1, n))}, Attr('', {'nowrap'}))
        local rest = b.text:sub(n + 1)
        table.remove(xs, k + 1)
        xs[k] = glued
        if rest ~= '' then table.insert(xs, k + 1, pandoc.Str(rest)) end
      end
    end
    k = k + 1
  end
  return xs
end

local function href(slug, ident)
  if page and slug == page.slug then return '#' .. ident end
  return slug .. '.html#' .. ident
end

local function chunk_href(label)
  local slug = D.chunk_page[label]
  if not slug then
    warn('chunk ' .. label .. ' is not in any page')
    return '#'
  end
  return href(slug, label)
end

-- LaTeX that has no meaning on a web page (layout only): dropped silently.
local HARMLESS = {}
for w in ([[centering small footnotesize normalsize raggedright raggedleft arraybackslash
  noindent medskip bigskip smallskip newpage clearpage mainmatter frontmatter backmatter
  appendix par relax hfill vfill quad qquad endhead endfirsthead endfoot endlastfoot toprule
  midrule bottomrule newcommand gdef def protect nobreak needspace]]):gmatch('%a+') do
  HARMLESS[w] = true
end
local function harmless(s)
  local name = s:match('^\\(%a+)')
  if name and HARMLESS[name] and not s:sub(#name + 2):match('^[%d_]') then return true end
  return s:match('^\\mbox{}[%w_]') ~= nil
end
local function unknown_latex(s)
  if not harmless(s) then unknown[prefix(s, 60)] = true end
end

-- A figure is a link to its SVG: on a phone, where the page shrinks it, a tap
-- opens it alone to zoom (and book.css keeps it wide enough to read, scrolling).
local function img_html(name)
  local size = D.figsizes[name]
  size = size and (' width="' .. size[1] .. '" height="' .. size[2] .. '"') or ''
  return '<a class="figlink" href="fig/' .. name .. '.svg"><img class="plot" src="fig/' ..
         name .. '.svg"' .. size .. ' alt="ZZALTZZ"></a>'
end

local inlines, blocks

-- [3, 7]: numbers in order of first citation in the book, each a link to its
-- entry in the references on the contents page.
local function citation(keys)
  local out = {pandoc.Str('[')}
  for n, key in ipairs(keys) do
    local num = D.citations[key]
    if not num then
      warn('\\cite{' .. key .. '}: no such entry in tex/book.bib')
      out[#out + 1] = pandoc.Str('?')
    else
      out[#out + 1] = pandoc.Link({pandoc.Str(tostring(num))}, 'index.html#ref-' .. key, '',
                                  Attr('', {'cite'}))
    end
    if n < #keys then out[#out + 1] = pandoc.Str(', ') end
  end
  out[#out + 1] = pandoc.Str(']')
  return out
end

local REF = {ref=1, eqref=1, autoref=1, pageref=1}

local function raw_inline(s)
  local kind, arg = s:match('^\\(%a+){([^}]*)}$')
  if kind and REF[kind] then
    local l = D.labels[arg]
    if not l then
      warn(page.slug .. ': \\' .. kind .. '{' .. arg .. '}: no such label')
      return {pandoc.Str('??')}
    end
    local text = kind == 'eqref' and '(' .. l[1] .. ')' or l[1]
    return {pandoc.Link({pandoc.Str(text)}, href(l[2], arg), '', Attr('', {'ref'}))}
  elseif kind == 'cite' then
    local keys = {}
    for k in (arg .. ','):gmatch('([^,]*),') do keys[#keys + 1] = strip(k) end
    return citation(keys)
  elseif kind == 'htmlq' and arg:match('^%d+$') then
    local q = D.quotes[tonumber(arg) + 1]
    local code, ref, ident = q[1], q[2], q[3]
    -- a link only when the quote is the identifier itself (or its call,
    -- f()): not attention.h, build/bin/ch02-attention, x.attention
    if ref and D.chunk_page[ref] and strip(code):gsub('%(.*%)$', '') == ident then
      return {pandoc.Link({pandoc.Code(code)}, chunk_href(ref), '', Attr('', {'ident'}))}
    end
    return {pandoc.Code(code)}
  elseif kind == 'htmlnum' then
    return {pandoc.Span({pandoc.Str(arg)}, Attr('', {'secnum'})), pandoc.Space()}
  elseif kind == 'htmlanchor' or kind == 'label' then
    return {pandoc.Span({}, Attr(arg, {'anchor'}))}
  elseif kind == 'htmlimg' then
    return {RawI(img_html(arg))}
  end
  unknown_latex(s)
  return {}
end

local SIMPLE = {Emph=1, Strong=1, SmallCaps=1, Strikeout=1, Superscript=1, Subscript=1,
                Underline=1, Span=1, Link=1, Quoted=1, Cite=1}

local function inline(x)
  local t = x.t
  if t == 'RawInline' and x.format == 'latex' then return raw_inline(x.text) end
  if t == 'Str' and x.text:find('ZZtok', 1, true) then
    local out, s = {}, x.text
    while true do
      local i, j, n = s:find('ZZtok(%d+)ZZ')
      if not i then break end
      if i > 1 then out[#out + 1] = pandoc.Str(s:sub(1, i - 1)) end
      for _, y in ipairs(raw_inline(D.raw_tokens[tonumber(n) + 1])) do out[#out + 1] = y end
      s = s:sub(j + 1)
    end
    if s ~= '' then out[#out + 1] = pandoc.Str(s) end
    return out
  end
  if SIMPLE[t] then x.content = inlines(x.content)
  elseif t == 'Note' then x.content = blocks(x.content) end
  return {x}
end

inlines = function(xs)
  local out = {}
  for _, x in ipairs(xs) do
    for _, y in ipairs(inline(x)) do out[#out + 1] = y end
  end
  if D.lang == 'zh' then out = cjk_spacing(out) else out = glue_nbsp(out) end
  return glue_math(out)
end

-- \NAME{arg} if the block is such a marker (alone): NAME, arg
local function marker(b)
  local s
  local t = b.t
  if t == 'RawBlock' then
    if b.format == 'latex' then s = b.text end
  elseif t == 'Para' or t == 'Plain' then
    local only
    for _, i in ipairs(b.content) do
      local it = i.t
      if it ~= 'Space' and it ~= 'SoftBreak' then
        if only or it ~= 'RawInline' then return nil end
        only = i
      end
    end
    if only and only.format == 'latex' then s = only.text end
  end
  if not s then return nil end
  return s:match('^\\(html%a+){([^}]*)}%s*$')
end

-- the alt text of a figure's images: its caption
local function set_alt(bs, alt)
  local f = function(x)
    x.text = plain_replace(x.text, 'alt="ZZALTZZ"', 'alt="' .. alt .. '"')
    return x
  end
  return pandoc.Div(bs):walk({RawBlock=f, RawInline=f}).content
end

local function box(bx, inner)
  local kind, ident = bx.kind, bx.id
  local idattr = ident and (' id="' .. esc(ident) .. '"') or ''
  local function wrap(open, close)
    local out = {RawB(open)}
    for _, b in ipairs(inner) do out[#out + 1] = b end
    out[#out + 1] = RawB(close)
    return out
  end
  if kind == 'equation' then
    local tail = bx.number and '<span class="eqno">(' .. esc(bx.number) .. ')</span>' or ''
    return wrap('<div class="equation"' .. idattr .. '><div class="eqbody">',
                '</div>' .. tail .. '</div>')
  elseif kind == 'caption' then
    local first = inner[1]
    if bx.number and first and (first.t == 'Para' or first.t == 'Plain') then
      local c = {pandoc.Span({pandoc.Str(bx.number .. W.colon)}, Attr('', {'capnum'}))}
      for _, i in ipairs(first.content) do c[#c + 1] = i end
      first.content = c
      inner[1] = first
    end
    local tag = in_figure and 'figcaption' or 'div'
    return wrap('<' .. tag .. ' class="caption">', '</' .. tag .. '>')
  elseif kind == 'figure' then
    local cap, inside = {}, false
    for _, b in ipairs(inner) do
      if b.t == 'RawBlock' and b.text:find('<figcaption', 1, true) then inside = true
      elseif b.t == 'RawBlock' and b.text:find('</figcaption', 1, true) then inside = false
      elseif inside then cap[#cap + 1] = b end
    end
    local alt = esc(squash(stringify(cap)))
    if alt == '' then alt = ident or 'figure' end
    inner = set_alt(inner, alt)
    return wrap('<figure class="figure"' .. idattr .. '>', '</figure>')
  elseif kind == 'table' then
    return wrap('<div class="table"' .. idattr .. '>', '</div>')
  elseif kind == 'exercise' then
    -- "Exercise 1.1 (easy)" runs into the first paragraph, as in print
    if #inner >= 2 and inner[1].t == 'Para' and inner[2].t == 'Para' then
      local c = {}
      for _, i in ipairs(inner[1].content) do c[#c + 1] = i end
      c[#c + 1] = pandoc.Space()
      for _, i in ipairs(inner[2].content) do c[#c + 1] = i end
      table.remove(inner, 1)
      inner[1] = pandoc.Para(c)
    end
    return wrap('<div class="exercise"' .. idattr .. '>', '</div>')
  end
  return inner
end

-- ---------------------------------------------------------------------------
-- Code chunks

local function token(kind, h)
  local t = 'ZZnw' .. kind .. ntokens .. 'ZZ'
  ntokens = ntokens + 1
  tokens[t] = h
  return t
end

local function name_html(name)
  return nwname.format(name, esc, function(code) return '<code>' .. esc(code) .. '</code>' end)
end

local function chunk_link_html(label)
  return '<a class="chunkref" href="' .. esc(chunk_href(label)) .. '">' ..
         (D.chunk_tag[label] or '?') .. '</a>'
end

local function chunk_links(labels)
  local out = {}
  for _, l in ipairs(labels) do out[#out + 1] = chunk_link_html(l) end
  return join_list(out)
end

local function chunk(c)
  local cont = c.label ~= c.first
  local ui = W
  local head = '<div class="chunk" id="' .. c.label .. '"><p class="chunk-head">' ..
    '<a class="chunk-tag" href="#' .. c.label .. '">' .. c.tag .. '</a> ' ..
    '<span class="chunk-name">⟨' .. name_html(c.name) .. ' <a class="chunkref" href="' ..
    esc(chunk_href(c.first)) .. '">' .. c.firsttag .. '</a>⟩</span>' ..
    '<span class="chunk-def">' .. (cont and '+' or '') .. '≡</span>' ..
    '<button type="button" class="copy" data-chunk="' .. c.label .. '" title="' ..
    ui.copytitle .. '" hidden>' .. ui.copy .. '</button></p>'
  local lines = {}
  for _, line in ipairs(c.lines) do
    local s = {}
    for k, part in ipairs(line) do
      if part[1] == 'text' then
        s[#s + 1] = part[2]
      elseif part[1] == 'use' then
        local target = part[3]
        local tag = D.chunk_tag[target]
        if not tag then warn('chunk <<' .. part[4] .. '>> is used but never defined') end
        s[#s + 1] = token('U', '<a class="chunkuse" href="' ..
          (tag and esc(chunk_href(target)) or '#') .. '">⟨' .. name_html(part[2]) ..
          ' <span class="tag">' .. (tag or '?') .. '</span>⟩</a>')
      else
        local ident, deflabel = part[2], part[3]
        local before, after = {}, {}
        for j, p in ipairs(line) do
          if p[1] ~= 'use' then
            if j < k then before[#before + 1] = p[2] elseif j > k then after[#after + 1] = p[2] end
          end
        end
        before, after = table.concat(before):sub(-1), table.concat(after):sub(1, 2)
        -- a whole identifier only: not attention in attention.h,
        -- ch02-attention or self-attention (strings and comments)
        local whole = not before:match('^[-./%w_]') and
                      not after:match('^[%w_]') and not after:match('^[-.][%w_]')
        if whole and deflabel and deflabel ~= c.label and D.chunk_page[deflabel] then
          s[#s + 1] = token('I', '<a class="ident" href="' .. esc(chunk_href(deflabel)) ..
                                 '">' .. esc(ident) .. '</a>')
        else
          s[#s + 1] = ident
        end
      end
    end
    lines[#lines + 1] = table.concat(s)
  end
  local code = pandoc.CodeBlock(table.concat(lines, '\n'), Attr('', {'c'}))
  local notes = {}
  if c.continued then notes[#notes + 1] = fmt(W.continued, chunk_links(c.continued)) end
  if c.uses then notes[#notes + 1] = fmt(W.used, chunk_links(c.uses)) end
  if c.root then
    local r = esc(c.root)
    if c.root:sub(1, 5) == 'code/' then
      notes[#notes + 1] = fmt(W.file, '<a class="file" href="../' .. r .. '"><code>' .. r ..
                                      '</code></a>')
    else
      notes[#notes + 1] = fmt(W.file, '<code>' .. r .. '</code>')
    end
  end
  if c.defs then        -- as the PDF words it (book.toml's [noweb] table)
    local defs = {}
    for _, d in ipairs(c.defs) do
      defs[#defs + 1] = fmt(W.identused, '<code>' .. esc(d[1]) .. '</code>', chunk_links(d[2]))
    end
    notes[#notes + 1] = W.defines .. ' ' .. table.concat(defs, ' ')
  end
  local tail = {}
  for _, n in ipairs(notes) do tail[#tail + 1] = '<p>' .. n .. '</p>' end
  return {RawB(head), code,
          RawB('<div class="chunk-xref">' .. table.concat(tail) .. '</div></div>')}
end

-- ---------------------------------------------------------------------------
-- Blocks

local function each_blocks(list)
  local out = {}
  for _, item in ipairs(list) do out[#out + 1] = blocks(item) end
  return out
end

local function rows(rs)
  for _, row in ipairs(rs) do
    for _, cell in ipairs(row.cells) do cell.contents = blocks(cell.contents) end
  end
end

local function block(b)
  local t = b.t
  if t == 'Para' or t == 'Plain' then
    b.content = inlines(b.content)
    if #b.content == 0 then return {} end
  elseif t == 'Header' then b.content = inlines(b.content)
  elseif t == 'BlockQuote' or t == 'Div' or t == 'Figure' then   -- Figure: pandoc 3
    b.content = blocks(b.content)
  elseif t == 'BulletList' or t == 'OrderedList' then b.content = each_blocks(b.content)
  elseif t == 'DefinitionList' then
    local items = {}
    for _, item in ipairs(b.content) do
      items[#items + 1] = {inlines(item[1]), each_blocks(item[2])}
    end
    b.content = items
  elseif t == 'Table' then
    local cap = b.caption
    cap.long = blocks(cap.long)
    b.caption = cap
    local head = b.head
    rows(head.rows)
    b.head = head
    local bodies = b.bodies
    for _, body in ipairs(bodies) do
      rows(body.head)
      rows(body.body)
    end
    b.bodies = bodies
    local foot = b.foot
    rows(foot.rows)
    b.foot = foot
  end
  return {b}
end

-- a list of blocks; \htmlbegin and \htmlend markers group them
blocks = function(bs)
  local out, stack = {}, {}
  for _, b in ipairs(bs) do
    local name, n = marker(b)
    if name == 'htmlbegin' then
      stack[#stack + 1] = {tonumber(n), out}
      out = {}
    elseif name == 'htmlend' then
      local top = table.remove(stack)
      assert(top[1] == tonumber(n), 'markers out of order')
      -- a caption directly inside a figure is its <figcaption>
      in_figure = #stack > 0 and D.boxes[stack[#stack][1] + 1].kind == 'figure'
      local parent = top[2]
      for _, x in ipairs(box(D.boxes[top[1] + 1], out)) do parent[#parent + 1] = x end
      out = parent
    elseif name == 'htmlchunk' then
      for _, x in ipairs(chunk(D.chunks[tonumber(n) + 1])) do out[#out + 1] = x end
    elseif name == 'htmlimg' then
      out[#out + 1] = RawB(img_html(n))
    elseif b.t == 'RawBlock' and b.format == 'latex' then
      unknown_latex(strip(b.text))
    else
      for _, x in ipairs(block(b)) do out[#out + 1] = x end
    end
  end
  if #stack > 0 then warn(page.slug .. ': unclosed box') end
  return out
end

-- ---------------------------------------------------------------------------
-- Contents, search

local function clone_inlines(xs)
  local out = {}
  for _, x in ipairs(xs) do out[#out + 1] = x:clone() end
  return out
end

-- inlines for a link's text: no nested links, no ids (they are the heading's)
local function strip_anchors(xs)
  local out = {}
  for _, x in ipairs(xs) do
    if x.t == 'Link' then
      for _, y in ipairs(strip_anchors(x.content)) do out[#out + 1] = y end
    elseif x.t == 'Span' then
      if not x.classes:includes('anchor') then
        out[#out + 1] = pandoc.Span(strip_anchors(x.content), Attr('', x.classes))
      end
    elseif x.t ~= 'Note' then
      out[#out + 1] = x:clone()
    end
  end
  return out
end

-- the chapter's sections (levels 2 and 3) as a nested list of links
local function toc_blocks(bs)
  local tree = {}
  for _, b in ipairs(bs) do
    if b.t == 'Header' and (b.level == 2 or b.level == 3) and b.identifier ~= '' then
      local link = pandoc.Plain({pandoc.Link(strip_anchors(b.content), '#' .. b.identifier)})
      if b.level == 2 or #tree == 0 then
        tree[#tree + 1] = {link}
      else
        local last = tree[#tree]
        if #last == 1 then last[2] = {} end
        last[2][#last[2] + 1] = {link}
      end
    end
  end
  for k, item in ipairs(tree) do
    tree[k] = item[2] and {item[1], pandoc.BulletList(item[2])} or item
  end
  return #tree > 0 and {pandoc.BulletList(tree)} or {}
end

-- the contents page: every chapter and its sections, linked
local function contents_blocks(pages)
  local items = {}
  for k, ch in ipairs(D.chapters) do
    local heads = {}
    for _, b in ipairs(pages[k]) do
      if b.t == 'Header' and b.level <= 2 then heads[#heads + 1] = b end
    end
    if #heads > 0 then
      local entry = {pandoc.Plain({pandoc.Link(clone_inlines(heads[1].content),
                                               ch.slug .. '.html')})}
      local sub = {}
      for j = 2, #heads do
        sub[#sub + 1] = {pandoc.Plain({pandoc.Link(clone_inlines(heads[j].content),
                                                   ch.slug .. '.html#' .. heads[j].identifier)})}
      end
      if #sub > 0 then entry[2] = pandoc.BulletList(sub) end
      items[#items + 1] = entry
    end
  end
  return {pandoc.BulletList(items)}
end

local function unescape(s)
  s = s:gsub('&#[xX](%x+);', function(h) return utf8.char(tonumber(h, 16)) end)
  s = s:gsub('&#(%d+);', function(d) return utf8.char(tonumber(d)) end)
  local named = {lt='<', gt='>', quot='"', apos="'", nbsp='\u{a0}'}
  s = s:gsub('&(%a+);', function(n) return named[n] end)
  return (s:gsub('&amp;', '&'))
end

local TEXT_SPACE = {Para=1, Plain=1, Emph=1, Strong=1, BlockQuote=1, BulletList=1, Underline=1,
                    SmallCaps=1, Strikeout=1, Superscript=1, Subscript=1}
-- every word the reader sees (for the search index)
local function alltext(x, out)
  if x.t == nil then
    for _, e in ipairs(x) do alltext(e, out) end
    return
  end
  local t = x.t
  if t == 'Str' then out[#out + 1] = x.text
  elseif t == 'Space' or t == 'SoftBreak' or t == 'LineBreak' then out[#out + 1] = ' '
  elseif t == 'Code' or t == 'CodeBlock' then out[#out + 1] = ' ' .. x.text .. ' '
  elseif t == 'Math' then out[#out + 1] = ' ' .. math_text(x.text) .. ' '
  elseif t == 'RawInline' or t == 'RawBlock' then
    if x.format == 'html' then
      out[#out + 1] = ' ' .. unescape((x.text:gsub('<[^>]*>', ' '))) .. ' '
    end
  elseif TEXT_SPACE[t] then
    alltext(x.content, out)
    out[#out + 1] = ' '
  elseif t == 'OrderedList' or t == 'Span' or t == 'Div' or t == 'Link' or t == 'Quoted' or
         t == 'Image' or t == 'Header' or t == 'Note' or t == 'Cite' or t == 'LineBlock' or
         t == 'Figure' then
    alltext(x.content, out)
  elseif t == 'DefinitionList' then
    for _, item in ipairs(x.content) do
      alltext(item[1], out)
      for _, d in ipairs(item[2]) do alltext(d, out) end
    end
  elseif t == 'Table' then
    alltext(x.caption.long, out)
    local function rs(list)
      for _, row in ipairs(list) do
        for _, cell in ipairs(row.cells) do alltext(cell.contents, out) end
      end
    end
    rs(x.head.rows)
    for _, body in ipairs(x.bodies) do rs(body.head); rs(body.body) end
    rs(x.foot.rows)
  end
end

-- search terms: English words (lower case, a plural's s gone) and, for
-- Chinese, every pair of adjacent characters (and single characters)
local WORDCHAR = {}
for c in ('abcdefghijklmnopqrstuvwxyz0123456789_'):gmatch('.') do WORDCHAR[c:byte()] = true end

local function terms(text, out)
  text = text:lower()
  local word, kind, start = {}, nil, 0
  local function flush(i)
    if kind == 'a' then
      local w = text:sub(start, i - 1)
      if #w > 3 and w:sub(-1) == 's' and w:sub(-2) ~= 'ss' then w = w:sub(1, -2) end
      if #w >= 2 then out[#out + 1] = w end
    elseif kind == 'c' then
      for _, ch in ipairs(word) do out[#out + 1] = ch end
      for k = 1, #word - 1 do out[#out + 1] = word[k] .. word[k + 1] end
      word = {}
    end
    kind = nil
  end
  local i, n = 1, #text
  while i <= n do
    local b, k, len = text:byte(i), nil, 1
    if b < 0x80 then
      if WORDCHAR[b] then k = 'a' end
    elseif b >= 0xf0 then len = 4
    elseif b >= 0xe0 then
      len = 3
      local b2, b3 = text:byte(i + 1, i + 2)
      local c = ((b & 0x0f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f)
      if (c >= 0x3400 and c <= 0x4dbf) or (c >= 0x4e00 and c <= 0x9fff) then k = 'c' end
    elseif b >= 0xc0 then len = 2 end
    if k ~= kind then
      flush(i)
      kind, start = k, i
    end
    if k == 'c' then word[#word + 1] = text:sub(i, i + 2) end
    i = i + len
  end
  flush(i)
  return out
end

local function json(x)
  local t = type(x)
  if t == 'number' then return tostring(math.tointeger(x) or x) end
  if t == 'string' then
    return '"' .. x:gsub('[%c"\\]', function(c)
      local e = {['"']='\\"', ['\\']='\\\\', ['\n']='\\n', ['\r']='\\r', ['\t']='\\t',
                 ['\b']='\\b', ['\f']='\\f'}
      return e[c] or string.format('\\u%04x', c:byte())
    end) .. '"'
  end
  local out = {}
  if x.keys then            -- an object, its keys in order
    for _, k in ipairs(x.keys) do out[#out + 1] = json(k) .. ':' .. json(x.values[k]) end
    return '{' .. table.concat(out, ',') .. '}'
  end
  for _, v in ipairs(x) do out[#out + 1] = json(v) end
  return '[' .. table.concat(out, ',') .. ']'
end

-- the index for offline search: every section of every page, and for each
-- term the sections that hold it with a count
local function search_index(pages)
  local docs = {}
  for k, ch in ipairs(D.chapters) do
    local cur
    for _, b in ipairs(pages[k]) do
      if b.t == 'Header' then
        local title = squash(stringify(b.content))
        cur = {href = ch.slug .. '.html#' .. b.identifier, title = title, page = ch.title,
               text = {title, title, title}}
        docs[#docs + 1] = cur
      end
      if cur then alltext(b, cur.text) end
    end
  end
  local out_docs, postings = {}, {keys = {}, values = {}}
  for n, d in ipairs(docs) do
    local counts, order = {}, {}
    for _, t in ipairs(terms(table.concat(d.text, ' '), {})) do
      if not counts[t] then order[#order + 1] = t; counts[t] = 0 end
      counts[t] = counts[t] + 1
    end
    for _, t in ipairs(order) do
      local p = postings.values[t]
      if not p then
        p = {}
        postings.values[t] = p
        postings.keys[#postings.keys + 1] = t
      end
      p[#p + 1] = n - 1
      p[#p + 1] = counts[t]
    end
    out_docs[#out_docs + 1] = {d.href, d.title, d.page}
  end
  return {keys = {'docs', 'terms'}, values = {docs = out_docs, terms = postings}}
end

-- ---------------------------------------------------------------------------
-- The pages

-- texmath writes \mathrm{Attn} as <mstyle mathvariant="normal"> around one
-- <mi> per letter; MathML Core (Chromium) ignores mathvariant there.  One
-- <mi> with the whole word is upright, as MathML Core wants it.
local function mathml_for_chromium(h)
  local open, out, i = '<mstyle mathvariant="normal">', {}, 1
  while true do
    local a, b = h:find(open, i, true)
    if not a then break end
    local j, letters = b + 1, {}
    while true do
      local s, e, l = h:find('^<mi>([^<]*)</mi>', j)
      if not s then break end
      letters[#letters + 1] = l
      j = e + 1
    end
    local close = '</mstyle>'
    if #letters > 0 and h:sub(j, j + #close - 1) == close then
      local word = table.concat(letters)
      out[#out + 1] = h:sub(i, a - 1)
      out[#out + 1] = utf8.len(word) == 1 and '<mi mathvariant="normal">' .. word .. '</mi>'
                      or '<mi>' .. word .. '</mi>'
      i = j + #close
    else
      out[#out + 1] = h:sub(i, b)
      i = b + 1
    end
  end
  out[#out + 1] = h:sub(i)
  return table.concat(out)
end

-- texmath 0.12 makes every ( ) [ ] a stretchy fence in its own <mrow>:
-- Chromium then spaces them as "O ( n )".  Only \left and \right stretch.
local function fix_math(h)
  return (h:gsub('<math .-</math>', function(m)
    local ann = m:match('<annotation encoding="application/x%-tex">(.-)</annotation>')
    if ann and (ann:find('\\left%f[^%w_]') or ann:find('\\right%f[^%w_]')) then return m end
    return (m:gsub('<mo stretchy="true" form="p[a-z]+">([%(%)%[%]])</mo>',
                   '<mo stretchy="false">%1</mo>'))
  end))
end

local function permalinks(bs)
  for k, b in ipairs(bs) do
    if b.t == 'Header' and b.level <= 4 and b.identifier ~= '' then
      local c = clone_inlines(b.content)
      c[#c + 1] = RawI('<a class="permalink" href="#' .. esc(b.identifier) .. '" aria-label="' ..
                       W.permalink .. '">#</a>')
      bs[k] = pandoc.Header(b.level, c, b.attr)
    elseif b.t == 'Div' then
      b.content = permalinks(b.content)
    end
  end
  return bs
end

local template
local OPTS = {html_math_method = 'mathml', wrap_text = 'wrap-none'}

-- Every page's body in one pandoc.write (one document, as the highlighter
-- and the code blocks' numbering see it), then each page through the
-- template: its body one raw block, its contents list rendered there.
local function write_pages(list)
  local all = {}
  for n, p in ipairs(list) do
    all[#all + 1] = RawB('<!--PAGE ' .. n .. '-->')
    for _, b in ipairs(permalinks(p.blocks)) do all[#all + 1] = b end
  end
  -- C code as pandoc's highlighter would mark it up (highlight.lua), for a
  -- tenth of its time; pandoc counts every code block for the ids cbN
  local ncode = 0
  local doc = pandoc.Pandoc(all):walk({CodeBlock = function(b)
    ncode = ncode + 1
    if b.classes[1] == 'c' and b.identifier == '' then
      return RawB(highlight.html(b.text, ncode))
    end
  end})
  local out = pandoc.write(doc, 'html5', OPTS)
  local marks, bodies = {}, {}
  for a, n, b in out:gmatch('()<!%-%-PAGE (%d+)%-%->\n?()') do marks[#marks + 1] = {a, n, b} end
  for k, m in ipairs(marks) do
    local stop = marks[k + 1] and marks[k + 1][1] - 1 or #out
    bodies[tonumber(m[2])] = (out:sub(m[3], stop):gsub('\n$', ''))
  end
  local opts = {template = template}
  for k, v in pairs(OPTS) do opts[k] = v end
  for n, p in ipairs(list) do
    local meta = p.meta
    meta.ui = D.ui
    meta.htmllang = D.lang == 'zh' and 'zh-Hans' or 'en'
    meta.otherhtmllang = D.ui.otherlang == 'zh' and 'zh-Hans' or 'en'
    meta.pdflang = D.lang
    meta.here = p.name
    meta.glossary = D.glossary
    local h = pandoc.write(pandoc.Pandoc({RawB(bodies[n])}, meta), 'html5', opts)
    h = fix_math(mathml_for_chromium(h))
    h = h:gsub('ZZnw[UI]%d+ZZ', function(t) return (tokens[t]) end)
    local f = assert(io.open(D.dest .. '/' .. p.name .. '.html', 'w'))
    f:write(h)
    f:close()
  end
end

local function nav(k)
  local m = {}
  local prev, nxt = D.chapters[k - 1], D.chapters[k + 1]
  if k > 1 then m.prev = {slug = prev.slug, title = prev.title} end
  if nxt then m.next = {slug = nxt.slug, title = nxt.title} end
  return m
end

function Pandoc(doc)
  D = dofile(pandoc.utils.stringify(doc.meta.bookdata))
  W = D.ui
  local f = assert(io.open(D.template))
  template = pandoc.template.compile(f:read('a'))
  f:close()
  -- the pages, split at \htmlpage{N}
  local pages, cur = {}, nil
  for _, b in ipairs(doc.blocks) do
    if marker(b) == 'htmlpage' then
      cur = {}
      pages[#pages + 1] = cur
    elseif cur then
      cur[#cur + 1] = b
    end
  end
  for k, ch in ipairs(D.chapters) do
    page = ch
    pages[k] = blocks(pages[k] or {})
  end
  page = nil
  local f2 = assert(io.open(D.dest .. '/search-index.js', 'w'))
  f2:write('var ATTN_SEARCH = ' .. json(search_index(pages)) .. ';\n')
  f2:close()

  -- the contents page
  local index = {pandoc.Header(1, text_inlines(D.title), Attr('top'))}
  if D.subtitle then
    index[#index + 1] = pandoc.Para({pandoc.Span(text_inlines(D.subtitle), Attr('', {'subtitle'}))})
  end
  index[#index + 1] = pandoc.Header(2, text_inlines(W.contents), Attr('contents'))
  index[#index + 1] = contents_blocks(pages)[1]
  if D.references then
    index[#index + 1] = pandoc.Header(2, text_inlines(W.references), Attr('references'))
    index[#index + 1] = RawB(D.references)
  end
  local decks = {}
  for _, ch in ipairs(D.chapters) do
    if ch.deck and ch.number then
      decks[#decks + 1] = {file = ch.deck, name = fmt(W.chapter, ch.number)}
    end
  end
  local m = nav(0)
  m.next = D.chapters[1] and {slug = D.chapters[1].slug, title = D.chapters[1].title}
  m.index, m.decks, m.colophon = true, decks, D.colophon
  m.pagetitle = D.title .. ' · ' .. D.title
  local list = {{name = 'index', blocks = index, meta = m}}
  for k, ch in ipairs(D.chapters) do
    page = ch
    m = nav(k)
    m.pagetitle = ch.title .. ' · ' .. D.title
    m.deck = ch.deck
    m.roots = ch.roots
    m.pagetoc = pandoc.MetaBlocks(toc_blocks(pages[k]))
    list[#list + 1] = {name = ch.slug, blocks = pages[k], meta = m}
  end
  write_pages(list)

  local sorted = {}
  for s in pairs(unknown) do sorted[#sorted + 1] = s end
  table.sort(sorted)
  for _, s in ipairs(sorted) do warn('LaTeX with no meaning in HTML, dropped: ' .. s) end
  for _, w in ipairs(warnings) do io.stderr:write('book.lua: ' .. w .. '\n') end
  return pandoc.Pandoc({})
end

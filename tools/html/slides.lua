--[[ A chapter's slides, one deck in one language: a pandoc Lua filter.

    pandoc -f markdown -t beamer -s --slide-level=2 --highlight-style=tango \
           --template slides.latex --lua-filter slides.lua \
           -M slidesdata=DATA.lua -M deck=NN-topic < /dev/null

tools/html/slides.py writes DATA.lua (one language): every deck's frames as
the chapters' `% slide` marks give them (titles, takeaway lines, equations
with the book's numbers, figures as the files to \input, tables, code chunks
with their uses, speaker notes), the book's labels and words (the fonts are
tex/attnfonts.tex's).  The input is empty: this filter builds deck
NN-topic's frames (a level-2 header each, raw LaTeX in them, the notes in a
`notes` div) and the metadata the template slides.latex needs.  Warnings go
to stderr as "slides.lua: ...".  Only Lua API that pandoc 2.17 has and
pandoc 3 keeps.
]]

-- tools/html/nwname.lua, beside this file: chunk names, shared with the other filter
local nwname = dofile((PANDOC_SCRIPT_FILE:match('^(.*[/\\])') or '') .. 'nwname.lua')
local D, deck
local warnings = {}

local MAX_CODE_LINES = 14      -- readable when projected: about 12 lines a frame, 14 at most
local MAX_CODE_COLUMNS = 82    -- wider lines run off a 16:9 frame at \small

local function warn(msg) warnings[#warnings + 1] = msg end
local function strip(s) return (s:gsub('^%s+', ''):gsub('%s+$', '')) end
local function raw(s) return pandoc.RawBlock('latex', s) end
local function meta_raw(s) return pandoc.MetaInlines({pandoc.RawInline('latex', s)}) end

-- Text for \texttt, LaTeX's specials escaped
local TT = {['\\'] = '\\textbackslash{}', ['{'] = '\\{', ['}'] = '\\}', ['_'] = '\\_',
            ['&'] = '\\&', ['%'] = '\\%', ['#'] = '\\#', ['$'] = '\\$', ['^'] = '\\^{}',
            ['~'] = '\\~{}'}
local function tt(s) return (s:gsub('[\\{}_&%%#$^~]', TT)) end

-- A chunk's name: its [[code]] in \texttt
local function chunk_name(name)
  return nwname.format(name, tt, function(code) return '\\texttt{' .. tt(code) .. '}' end)
end

-- The chapter's LaTeX (as tools/nwbook left it) for a slide: markers out,
-- references the book's numbers
local function latex(s)
  s = s:gsub('\\htmlq{(%d+)}', function(n) return '\\texttt{' .. tt(D.quotes[n + 1]) .. '}' end)
  for _, kind in ipairs({'ref', 'eqref'}) do
    s = s:gsub('\\' .. kind .. '{([^}]*)}', function(label)
      local n = D.labels[label]
      if not n then
        warn('\\' .. kind .. '{' .. label .. '}: no such label')
        return '??'
      end
      return kind == 'eqref' and '(' .. n .. ')' or n
    end)
  end
  for _, name in ipairs({'htmlanchor', 'label', 'htmlnum'}) do
    s = s:gsub('\\' .. name .. '{[^}]*}', '')
  end
  return s
end

-- \name{...} (balanced, \{ and \} not counted) dropped everywhere
local function drop_macro(s, name)
  local out, i = {}, 1
  while true do
    local a, b = s:find('\\' .. name, i, true)
    if not a then break end
    out[#out + 1] = s:sub(i, a - 1)
    local j = b + 1
    if s:sub(j, j):match('[A-Za-z@]') then         -- a longer name: not this macro
      out[#out + 1] = s:sub(a, b)
      i = j
    else
      while s:sub(j, j):match('[ \t\n]') do j = j + 1 end
      local depth, k = 0, j
      while s:sub(j, j) == '{' and k <= #s do
        local c = s:sub(k, k)
        if c == '\\' then k = k + 1
        elseif c == '{' then depth = depth + 1
        elseif c == '}' then
          depth = depth - 1
          if depth == 0 then break end
        end
        k = k + 1
      end
      if s:sub(j, j) == '{' and depth == 0 then
        i = k + 1
      else                                         -- no argument: it stays
        out[#out + 1] = s:sub(a, b)
        i = b + 1
      end
    end
  end
  return table.concat(out) .. s:sub(i)
end

-- The paragraph before a mark, as the frame's notes: one paragraph, no
-- footnotes or index entries
local function speaker_notes(s)
  s = drop_macro(drop_macro(s, 'footnote'), 'index')
  return strip((s:gsub('\n%s*\n', '\n')))
end

-- A caption on a slide: its first sentence, what the figure shows, without
-- how the build made it (which program printed the data; the book says that)
local function slide_caption(c)
  c = strip(c:gsub('%s+', ' '))
  local sentences = {}
  if D.lang == 'zh' then
    for _, p in ipairs({'，', ''}) do
      c = c:gsub(p .. '%s*由%s*\\texttt{[^{}]*}%s*测得', '')
    end
    for s in (c .. '。'):gmatch('(.-。)') do
      if s ~= '。' then sentences[#sentences + 1] = s end
    end
    local last = sentences[#sentences]     -- the end added above is not the caption's
    if last and c:sub(-#'。') ~= '。' then sentences[#sentences] = last:sub(1, -#'。' - 1) end
  else
    for _, p in ipairs({', measured by \\texttt{[^{}]*}', ' measured by \\texttt{[^{}]*}'}) do
      c = c:gsub(p, '')
    end
    local i = 1
    for a in c:gmatch('()[.;] [A-Z$]') do
      -- not inside parentheses: "(intensities from the model; GFLOP/s by ...)"
      local _, opened = c:sub(1, a):gsub('%(', '')
      local _, closed = c:sub(1, a):gsub('%)', '')
      if opened == closed then
        sentences[#sentences + 1] = c:sub(i, a)
        i = a + 2
      end
    end
    sentences[#sentences + 1] = c:sub(i)
  end
  for _, s in ipairs(sentences) do
    if not (s:find('\\texttt', 1, true) or s:find('the build', 1, true)
            or s:find('构建', 1, true)) then
      return strip(s)
    end
  end
  return ''
end

-- The columns a line of code takes on the frame: tabs to 8, a Chinese
-- character two
local function columns(s)
  local n = 0
  for _, c in utf8.codes(s) do
    if c == 9 then n = n + 8 - n % 8
    else n = n + 1 end
  end
  for _, c in utf8.codes(s) do
    if (c >= 0x3000 and c <= 0x9fff) or (c >= 0xff00 and c <= 0xffef) then n = n + 1 end
  end
  return n
end

-- ---------------------------------------------------------------------------
-- The elements on a frame

local chunk_uses = {}          -- the uses in each code block, in order

-- The command line's writer options (its highlighting style), with a
-- template of their own
local function options(template)
  local opts = {}
  for k, v in pairs(PANDOC_WRITER_OPTIONS) do opts[k] = v end
  opts.template = pandoc.template.compile(template)
  return opts
end

-- A code chunk: its name, then the C (highlighted in Pandoc below), each
-- use of another chunk marked
local function code(e)
  local lines, uses, wide = {}, {}, 0
  for _, line in ipairs(e.lines) do
    local text, shown = {}, {}
    for _, p in ipairs(line) do
      if type(p) == 'table' then      -- a use: ⟨name⟩ in italics, not coloured <<...>>
        uses[#uses + 1] = p[1]
        text[#text + 1] = 'ZZnwuse' .. #uses .. 'ZZ'
        shown[#shown + 1] = '<' .. p[1] .. '>'
      else
        text[#text + 1], shown[#shown + 1] = p, p
      end
    end
    lines[#lines + 1] = table.concat(text)
    wide = math.max(wide, columns(table.concat(shown)))
  end
  if wide > MAX_CODE_COLUMNS then
    warn(('%s: chunk <<%s>> has a line of %d columns: too wide for a slide (at most %d)')
         :format(deck.file, e.chunk, wide, MAX_CODE_COLUMNS))
  end
  if #lines > MAX_CODE_LINES then
    warn(('%s: chunk <<%s>> has %d lines: too long for a slide (at most %d)')
         :format(deck.file, e.chunk, #lines, MAX_CODE_LINES))
  end
  chunk_uses[#chunk_uses + 1] = uses
  return {raw(('{\\footnotesize $\\langle$\\hbox{}\\emph{%s}\\hbox{}$\\rangle%s\\equiv$}')
              :format(chunk_name(e.name), e.cont and '+' or '')),
          pandoc.CodeBlock(table.concat(lines, '\n'), pandoc.Attr('', {'c'}))}
end

-- The deck's code blocks as pandoc highlights them, in one run, each use of
-- another chunk as \nwuse{name}; and the macros they need
local function highlight(blocks, meta)
  local at, code_blocks, sep = {}, {}, '%ZZchunkZZ'
  for i, b in ipairs(blocks) do
    if b.t == 'CodeBlock' then
      at[#at + 1] = i
      code_blocks[#code_blocks + 1] = b
      code_blocks[#code_blocks + 1] = raw(sep)
    end
  end
  if #at == 0 then return end
  local out = pandoc.write(pandoc.Pandoc(code_blocks), 'latex',
                           options('$highlighting-macros$\n' .. sep .. '\n$body$'))
  local parts, i = {}, 1
  while true do
    local a, b = out:find(sep, i, true)
    if not a then break end
    parts[#parts + 1] = strip(out:sub(i, a - 1))
    i = b + 1
  end
  meta['highlighting-macros'] = meta_raw(parts[1])
  for k, n in ipairs(at) do
    blocks[n] = raw((parts[k + 1]:gsub('ZZnwuse(%d+)ZZ', function(u)
      return '\\nwuse{' .. tt((chunk_uses[k][tonumber(u)]:gsub('%[%[(.-)%]%]', '%1'))) .. '}'
    end)))
  end
end

local function element(e)
  if e.kind == 'equation' then
    -- shrunk to the frame's width if it is wider (never enlarged)
    local math = ('\\adjustbox{max width=%s\\linewidth}{$\\displaystyle %s$}')
                 :format(e.tag and '0.86' or '1', latex(e.math))
    if e.tag then
      return {raw('\\begin{equation*}\n' .. math .. '\n\\tag{' .. e.tag .. '}\n\\end{equation*}')}
    end
    return {raw('\\[\n' .. math .. '\n\\]')}
  end
  if e.kind == 'code' then return code(e) end
  local parts = {}
  if e.kind == 'figure' then
    for _, f in ipairs(e.figs) do
      if f.diagram then       -- figures/NAME.tikz, shrunk (never enlarged) to the room
        parts[#parts + 1] = ('\\begin{center}\\adjustbox{max width=%.0fpt,max totalheight=%.0fpt}'
                             .. '{\\input{%s}}\\end{center}'):format(f.width, f.height, f.tex)
      else                    -- a plot drawn at the frame's size: labels of 9 pt or more
        parts[#parts + 1] = '\\begin{center}{\\fontsize{9.5}{11}\\selectfont\\input{'
                            .. f.tex .. '}}\\end{center}'
      end
    end
  else
    parts[#parts + 1] = '\\begin{center}\\adjustbox{max width=\\textwidth,'
                        .. 'max totalheight=0.6\\textheight}{\\small '
                        .. strip(latex(e.body)) .. '}\\end{center}'
  end
  local caption, number = slide_caption(e.caption), e.number or ''
  if caption ~= '' or number ~= '' then
    parts[#parts + 1] = '{\\usebeamerfont{caption}\\textbf{' .. number .. '}\\quad '
                        .. latex(caption) .. '\\par}'
  end
  return {raw(table.concat(parts, '\n'))}
end

-- One frame: its title, takeaway lines, elements and notes
local function frame(slide, k)
  local blocks, fragile = {}, false
  for _, e in ipairs(slide.elements) do fragile = fragile or e.kind == 'code' end
  local points = {}
  if #slide.elements == 0 then          -- a frame of its lines only
    for _, p in ipairs(slide.points) do points[#points + 1] = '\\item ' .. latex(p) end
    if #points > 0 then
      blocks[1] = raw('\\begin{itemize}\n' .. table.concat(points, '\n') .. '\n\\end{itemize}')
    end
  elseif #slide.points > 0 then
    for _, p in ipairs(slide.points) do points[#points + 1] = '\\textbullet\\ ' .. latex(p) end
    blocks[1] = raw('\\slidepoints{' .. table.concat(points, '\\\\\n') .. '}')
  end
  for _, e in ipairs(slide.elements) do
    for _, b in ipairs(element(e)) do blocks[#blocks + 1] = b end
  end
  local notes = speaker_notes(latex(slide.notes))
  if notes ~= '' then
    blocks[#blocks + 1] = pandoc.Div({raw(notes)}, pandoc.Attr('', {'notes'}))
  end
  table.insert(blocks, 1, pandoc.Header(2, {pandoc.RawInline('latex', strip(latex(slide.title)))},
                                        pandoc.Attr('', fragile and {'fragile'} or {})))
  return blocks
end

function Pandoc(doc)
  D = dofile(pandoc.utils.stringify(doc.meta.slidesdata))
  deck = D.decks[pandoc.utils.stringify(doc.meta.deck)]
  local blocks = {}
  for k, slide in ipairs(deck.slides) do
    for _, b in ipairs(frame(slide, k)) do blocks[#blocks + 1] = b end
  end
  local meta = {subtitle = meta_raw(D.subtitle), zh = D.lang == 'zh'}
  local title = latex(deck.title)
  if deck.number then
    title = D.words[deck.appendix and 'appendix' or 'chapter']:gsub('{}', deck.number)
            .. (D.lang == 'zh' and '\\quad ' or ':\\ ') .. title
  end
  meta.title = meta_raw(title)
  highlight(blocks, meta)
  for _, w in ipairs(warnings) do io.stderr:write('slides.lua: ' .. w .. '\n') end
  return pandoc.Pandoc(blocks, meta)
end

-- C code to HTML for the HTML edition's code chunks (tools/html/book.lua).
--
-- The markup is pandoc's own for a highlighted code block (the classes its
-- highlighter, skylighting, gives C through KDE's C syntax: kw, cf, dt, dv,
-- fl, bn, bu, st, sc, ch, co, pp, im, op; book.css colours them), so the
-- page reads as before; but a small lexer over the book's C takes a tenth
-- of a second where skylighting took 5 s of each language's run.
-- tests/test_html.py checks the marks on the words that carry them.
local M = {}

local function set(words)
  local s = {}
  for w in words:gmatch('%S+') do s[w] = true end
  return s
end

-- The words as KDE's C syntax sorts them (control flow, other keywords,
-- types and qualifiers).
local CF = set('if else for while do switch case default break continue return goto')
local KW = set('sizeof struct typedef enum union inline extern _Noreturn _Alignas _Alignof ' ..
               '_Atomic _Generic _Static_assert _Thread_local')
local DT = set('int double const size_t void static char long float unsigned signed short ' ..
               'volatile register auto restrict _Bool _Complex bool FILE va_list ' ..
               'int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t ' ..
               'intptr_t uintptr_t ptrdiff_t ssize_t intmax_t uintmax_t wchar_t')

local ESC = {['&'] = '&amp;', ['<'] = '&lt;', ['>'] = '&gt;', ['"'] = '&quot;', ["'"] = '&#39;'}
local function esc(s) return (s:gsub('[&<>"\']', ESC)) end

-- One line's marks: a list of {class or false, text}, neighbours of one
-- class merged.  state: nil, 'comment' (inside /* */) or 'pp' (a directive
-- continued with a backslash).
local function lex(line, state)
  local out = {}
  local function put(cls, text)
    if text == '' then return end
    local last = out[#out]
    if last and last[1] == cls then last[2] = last[2] .. text else out[#out + 1] = {cls, text} end
  end
  local i, n = 1, #line
  if state == 'pp' or (state == nil and line:match('^%s*#')) then
    -- a directive: pp to its end, but for the file an #include names (im)
    -- and a comment (co)
    local lead = state == nil and line:match('^%s*') or ''
    put(false, lead)
    local rest = line:sub(#lead + 1)
    local inc, file, after = rest:match('^(#%s*include%s*)([<"][^>"]*[>"])(.*)$')
    if inc and state == nil then
      put('pp', inc)
      put('im', file)
      rest = after
    end
    local cut = state == nil and rest:find('/[*/]')
    if cut then
      put('pp', rest:sub(1, cut - 1))
      put('co', rest:sub(cut))
    else
      put('pp', rest)
    end
    return out, line:match('\\$') and 'pp' or nil
  end
  while i <= n do
    local c, two = line:sub(i, i), line:sub(i, i + 1)
    if state == 'comment' or two == '/*' then
      -- a block comment, or the rest of one: co to its */ or the line's end
      local e = line:find('*/', state and i or i + 2, true)
      put('co', line:sub(i, e and e + 1 or n))
      i, state = e and e + 2 or n + 1, not e and 'comment' or nil
    elseif two == '//' then
      put('co', line:sub(i))
      i = n + 1
    elseif c:match('%s') then
      local e = line:find('%S', i) or n + 1
      put(false, line:sub(i, e - 1))
      i = e
    elseif c == '"' then
      put('st', '"')
      i = i + 1
      while i <= n do
        local ch = line:sub(i, i)
        if ch == '\\' then
          put('sc', line:sub(i, i + 1))
          i = i + 2
        elseif ch == '"' then
          put('st', '"')
          i = i + 1
          break
        else
          local e = line:find('[\\"]', i) or n + 1
          put('st', line:sub(i, e - 1))
          i = e
        end
      end
    elseif c == "'" then
      local e = i + 1
      while e <= n do
        local ch = line:sub(e, e)
        if ch == '\\' then e = e + 2 elseif ch == "'" then break else e = e + 1 end
      end
      put('ch', line:sub(i, e))
      i = e + 1
    elseif c:match('%d') or (c == '.' and line:sub(i + 1, i + 1):match('%d')) then
      local hexfloat = line:match('^0[xX]%x*%.?%x*[pP][-+]?%d+', i)
      local hex = line:match('^0[xX]%x+', i)
      local num, cls
      if hexfloat then
        num, cls = hexfloat, 'fl'
      elseif hex then
        num, cls = hex, 'bn'
      else
        num = line:match('^%d*%.?%d*[eE][-+]?%d+', i) or line:match('^%d*%.%d*', i)
        if num and num ~= '.' then
          cls = 'fl'
        else
          num, cls = line:match('^%d+', i), 'dv'
        end
      end
      put(cls, num)
      i = i + #num
      local suffix = line:match('^[uUlLfF]+', i)
      if suffix then
        put('bu', suffix)
        i = i + #suffix
      end
    elseif c:match('[%a_]') then
      local w = line:match('^[%w_]+', i)
      put(CF[w] and 'cf' or KW[w] and 'kw' or DT[w] and 'dt' or false, w)
      i = i + #w
    else
      put('op', c)
      i = i + 1
    end
  end
  return out, state
end

-- The block as pandoc writes a code block of class c with the id cbN, less
-- the empty link pandoc puts at the start of every line (a sixth of the
-- pages' bytes; nothing here links to a line).
function M.html(code, n)
  local id = 'cb' .. n
  local lines, state = {}, nil
  local k = 0
  for line in (code .. '\n'):gmatch('(.-)\n') do
    k = k + 1
    local marks
    marks, state = lex(line, state)
    local s = {}
    for _, m in ipairs(marks) do
      s[#s + 1] = m[1] and ('<span class="' .. m[1] .. '">' .. esc(m[2]) .. '</span>') or esc(m[2])
    end
    lines[k] = '<span id="' .. id .. '-' .. k .. '">' .. table.concat(s) .. '</span>'
  end
  return '<div class="sourceCode" id="' .. id .. '"><pre class="sourceCode c"><code class="sourceCode c">' ..
         table.concat(lines, '\n') .. '</code></pre></div>'
end

return M

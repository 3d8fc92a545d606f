-- A code chunk's name as both filters show it (book.lua: HTML, slides.lua:
-- beamer): the text and each [[code]] part through the caller's functions.
local M = {}

function M.format(name, text, code)
  local out, i = {}, 1
  while true do
    local a, b, c = name:find('%[%[(.-)%]%]', i)
    if not a then break end
    out[#out + 1] = text(name:sub(i, a - 1)) .. code(c)
    i = b + 1
  end
  out[#out + 1] = text(name:sub(i))
  return table.concat(out)
end

return M

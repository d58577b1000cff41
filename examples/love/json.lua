-- A small JSON decoder (RFC 8259) for the loader: objects become tables with string keys,
-- arrays sequences, null a unique sentinel (json.null). Errors name the byte offset.
local json = { null = setmetatable({}, { __tostring = function() return "null" end }) }

local escapes = { ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }

local function fail(text, at, what)
  error(("JSON: %s at byte %d"):format(what, at), 0)
end

local function skip(text, at)
  return text:find("[^ \t\r\n]", at) or #text + 1
end

local function utf8char(code)
  if code < 0x80 then return string.char(code) end
  if code < 0x800 then return string.char(0xC0 + math.floor(code / 0x40), 0x80 + code % 0x40) end
  if code < 0x10000 then
    return string.char(0xE0 + math.floor(code / 0x1000), 0x80 + math.floor(code / 0x40) % 0x40, 0x80 + code % 0x40)
  end
  return string.char(0xF0 + math.floor(code / 0x40000), 0x80 + math.floor(code / 0x1000) % 0x40,
    0x80 + math.floor(code / 0x40) % 0x40, 0x80 + code % 0x40)
end

local value

local function str(text, at)
  local parts, i = {}, at + 1
  while true do
    local j = text:find('["\\]', i)
    if not j then fail(text, at, "unterminated string") end
    parts[#parts + 1] = text:sub(i, j - 1)
    if text:sub(j, j) == '"' then return table.concat(parts), j + 1 end
    local e = text:sub(j + 1, j + 1)
    if e == "u" then
      local code = tonumber(text:sub(j + 2, j + 5), 16) or fail(text, j, "bad \\u escape")
      local next_at = j + 6
      if code >= 0xD800 and code < 0xDC00 and text:sub(next_at, next_at + 1) == "\\u" then
        local low = tonumber(text:sub(next_at + 2, next_at + 5), 16) or fail(text, next_at, "bad \\u escape")
        code = 0x10000 + (code - 0xD800) * 0x400 + (low - 0xDC00)
        next_at = next_at + 6
      end
      parts[#parts + 1] = utf8char(code)
      i = next_at
    else
      parts[#parts + 1] = escapes[e] or fail(text, j, "bad escape")
      i = j + 2
    end
  end
end

local function array(text, at)
  local out, i = {}, skip(text, at + 1)
  if text:sub(i, i) == "]" then return out, i + 1 end
  while true do
    out[#out + 1], i = value(text, i)
    i = skip(text, i)
    local c = text:sub(i, i)
    if c == "]" then return out, i + 1 end
    if c ~= "," then fail(text, i, "expected ',' or ']'") end
    i = skip(text, i + 1)
  end
end

local function object(text, at)
  local out, i = {}, skip(text, at + 1)
  if text:sub(i, i) == "}" then return out, i + 1 end
  while true do
    if text:sub(i, i) ~= '"' then fail(text, i, "expected a key") end
    local k
    k, i = str(text, i)
    i = skip(text, i)
    if text:sub(i, i) ~= ":" then fail(text, i, "expected ':'") end
    out[k], i = value(text, skip(text, i + 1))
    i = skip(text, i)
    local c = text:sub(i, i)
    if c == "}" then return out, i + 1 end
    if c ~= "," then fail(text, i, "expected ',' or '}'") end
    i = skip(text, i + 1)
  end
end

local literals = { ["true"] = true, ["false"] = false }

function value(text, at)
  local c = text:sub(at, at)
  if c == "{" then return object(text, at) end
  if c == "[" then return array(text, at) end
  if c == '"' then return str(text, at) end
  for word, v in pairs(literals) do
    if text:sub(at, at + #word - 1) == word then return v, at + #word end
  end
  if text:sub(at, at + 3) == "null" then return json.null, at + 4 end
  local num = text:match("^-?%d+%.?%d*[eE]?[-+]?%d*", at)
  if num and #num > 0 then return tonumber(num) or fail(text, at, "bad number"), at + #num end
  fail(text, at, "unexpected character")
end

function json.decode(text)
  local v, at = value(text, skip(text, 1))
  at = skip(text, at)
  if at <= #text then fail(text, at, "trailing text") end
  return v
end

return json

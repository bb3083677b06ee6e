-- Finds kernel definitions in a buffer's lines so that commands can name the
-- kernel under the cursor: CUDA `__global__` functions with a body, and Python
-- functions decorated with `@triton.jit` / `@jit`. A light, tolerant scan; the
-- server does the real parsing.

local M = {}

---@class kforecast.KernelSpan
---@field name string
---@field start_line integer 0-based first line (a Triton kernel starts at its first decorator)
---@field end_line integer 0-based last line of the body

--- Blanks out comments and string literals (keeping lengths and newlines).
local function blank(text, python)
  local out = {}
  local i, n = 1, #text
  local function push_blank(s)
    out[#out + 1] = (s:gsub("[^\n]", " "))
  end
  while i <= n do
    local c = text:sub(i, i)
    local two = text:sub(i, i + 1)
    local three = text:sub(i, i + 2)
    if not python and two == "//" then
      local e = text:find("\n", i, true) or (n + 1)
      push_blank(text:sub(i, e - 1))
      i = e
    elseif not python and two == "/*" then
      local _, e = text:find("*/", i + 2, true)
      e = e or n
      push_blank(text:sub(i, e))
      i = e + 1
    elseif python and c == "#" then
      local e = text:find("\n", i, true) or (n + 1)
      push_blank(text:sub(i, e - 1))
      i = e
    elseif python and (three == '"""' or three == "'''") then
      local _, e = text:find(three, i + 3, true)
      e = e or n
      out[#out + 1] = c
      push_blank(text:sub(i + 1, e - 1))
      out[#out + 1] = text:sub(e, e)
      i = e + 1
    elseif c == '"' or c == "'" then
      local j = i + 1
      while j <= n do
        local d = text:sub(j, j)
        if d == "\\" then
          j = j + 2
        elseif d == c or d == "\n" then
          break
        else
          j = j + 1
        end
      end
      out[#out + 1] = c
      push_blank(text:sub(i + 1, math.min(j, n + 1) - 1))
      if j <= n then
        out[#out + 1] = text:sub(j, j)
      end
      i = j + 1
    else
      out[#out + 1] = c
      i = i + 1
    end
  end
  return table.concat(out)
end

--- Index just past the bracket closing the one at `open`, or nil.
local function match_bracket(text, open)
  local o = text:sub(open, open)
  local close = ({ ["("] = ")", ["{"] = "}", ["["] = "]", ["<"] = ">" })[o]
  local depth = 0
  for i = open, #text do
    local ch = text:sub(i, i)
    if ch == o then
      depth = depth + 1
    elseif ch == close then
      depth = depth - 1
      if depth == 0 then
        return i + 1
      end
    end
  end
  return nil
end

local function line_of(text, offset)
  local _, count = text:sub(1, offset - 1):gsub("\n", "")
  return count
end

local ATTRIBUTES = { __launch_bounds__ = true, __attribute__ = true, __declspec = true, alignas = true, __align__ = true }

---@param lines string[]
---@return kforecast.KernelSpan[]
function M.find_cuda(lines)
  local text = blank(table.concat(lines, "\n"), false)
  local kernels = {}
  local pos = 1
  while true do
    local s, e = text:find("__global__", pos, true)
    if not s then
      break
    end
    pos = e + 1
    local before = s > 1 and text:sub(s - 1, s - 1) or " "
    local after = text:sub(e + 1, e + 1)
    if not before:match("[%w_]") and not after:match("[%w_]") then
      local i, last, params = e + 1, nil, nil
      while i <= #text do
        local ch = text:sub(i, i)
        if ch:match("[%s%*&:]") then
          i = i + 1
        elseif ch == ";" or ch == "{" then
          break
        elseif ch:match("[%a_]") then
          local word = text:match("^[%w_]+", i)
          i = i + #word
          local ws = #(text:match("^%s*", i))
          if ATTRIBUTES[word] and text:sub(i + ws, i + ws) == "(" then
            local close = match_bracket(text, i + ws)
            if not close then
              break
            end
            i = close
          else
            last = word
          end
        elseif ch == "<" then
          local close = match_bracket(text, i)
          if not close then
            break
          end
          i = close
        elseif ch == "(" then
          params = i
          break
        else
          i = i + 1
        end
      end
      if params and last then
        local params_end = match_bracket(text, params)
        if params_end then
          local body = text:find("[;{]", params_end)
          if body and text:sub(body, body) == "{" then
            local body_end = match_bracket(text, body)
            kernels[#kernels + 1] = {
              name = last,
              start_line = line_of(text, s),
              end_line = body_end and line_of(text, body_end - 1) or (#lines - 1),
            }
            pos = math.max(pos, params_end)
          end
        end
      end
    end
  end
  return kernels
end

---@param lines string[]
---@return kforecast.KernelSpan[]
function M.find_triton(lines)
  local blanked = vim.split(blank(table.concat(lines, "\n"), true), "\n", { plain = true })
  local depth, d = {}, 0
  for i, line in ipairs(blanked) do
    depth[i] = d
    for ch in line:gmatch("[%(%)%[%]{}]") do
      if ch == "(" or ch == "[" or ch == "{" then
        d = d + 1
      else
        d = math.max(0, d - 1)
      end
    end
  end
  local function indent(l)
    return #(l:match("^%s*"))
  end
  local function is_jit(l)
    return l:match("^%s*@%s*triton%s*%.%s*jit%f[^%w_]") or l:match("^%s*@%s*jit%f[^%w_]")
  end
  local kernels = {}
  local i = 1
  while i <= #blanked do
    if depth[i] == 0 and is_jit(blanked[i]) then
      local start = i
      for p = i - 1, 1, -1 do
        if depth[p] > 0 or blanked[p]:match("^%s*@") then
          start = p
        else
          break
        end
      end
      local def_line, name
      for k = i + 1, #blanked do
        if depth[k] == 0 then
          local t = vim.trim(blanked[k])
          if t ~= "" and t:sub(1, 1) ~= "@" then
            name = t:match("^def%s+([%a_][%w_]*)") or t:match("^async%s+def%s+([%a_][%w_]*)")
            if name then
              def_line = k
            end
            break
          end
        end
      end
      if def_line then
        local def_indent = indent(blanked[def_line])
        local last = def_line
        for k = def_line + 1, #blanked do
          if vim.trim(blanked[k]) ~= "" then
            if depth[k] == 0 and indent(blanked[k]) <= def_indent then
              break
            end
            last = k
          end
        end
        kernels[#kernels + 1] = { name = name, start_line = start - 1, end_line = last - 1 }
        i = last
      end
    end
    i = i + 1
  end
  return kernels
end

--- Whether Python lines hold GPU kernels: a Triton kernel (`@triton.jit`,
--- `@triton.autotune`, or `@jit` imported from triton), CUDA source given to
--- `load_inline`, or a CuPy `RawKernel` / `RawModule`. Read from the code alone:
--- comments and string contents are blanked first, so a comment that says
--- "triton" does not count.
---@param lines string[]
---@return boolean
function M.holds_kernels(lines)
  local code = blank(table.concat(lines, "\n"), true)
  local from_triton, from_cupy_raw = {}, false
  for line in (code .. "\n"):gmatch("([^\n]*)\n") do
    local names = line:match("^%s*from%s+triton[%w_.]*%s+import%s+%(?(.*)")
    if names then
      for name in names:gmatch("[%w_]+") do
        from_triton[name] = true
      end
    end
    if line:match("^%s*from%s+cupy%s+import") and line:match("Raw%a+") then
      from_cupy_raw = true
    end
  end
  for line in (code .. "\n"):gmatch("([^\n]*)\n") do
    local deco = line:match("^%s*@%s*triton%s*%.%s*([%a_]+)")
    if deco == "jit" or deco == "autotune" or deco == "heuristics" then
      return true
    end
    local bare = line:match("^%s*@%s*([%a_]+)")
    if bare and (bare == "jit" or bare == "autotune") and from_triton[bare] then
      return true
    end
    if line:match("load_inline%s*%(") then
      return true
    end
    if line:match("cupy%s*%.%s*Raw[KM]%a+%s*%(") or line:match("[^%w_.]cp%s*%.%s*Raw[KM]%a+%s*%(") or line:match("^cp%s*%.%s*Raw") then
      return true
    end
    if from_cupy_raw and (line:match("[^%w_.]Raw[KM]%a+%s*%(") or line:match("^Raw[KM]%a+%s*%(")) then
      return true
    end
  end
  return false
end


--- Kernels of a buffer.
---@param bufnr integer
---@return kforecast.KernelSpan[]
function M.find(bufnr)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  if vim.bo[bufnr].filetype == "python" then
    return M.find_triton(lines)
  end
  return M.find_cuda(lines)
end

--- The kernel whose definition holds `line` (0-based), if any.
---@param bufnr integer
---@param line integer
---@return string|nil
function M.at(bufnr, line)
  for _, k in ipairs(M.find(bufnr)) do
    if k.start_line <= line and line <= k.end_line then
      return k.name
    end
  end
  return nil
end

return M

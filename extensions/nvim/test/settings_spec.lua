-- Settings validation (lua/kforecast/config.lua) against the settings the server
-- accepts, read from its Rust source, so a server setting the plugin does not know
-- fails here:
--
--   server/kforecast/src/lsp/settings.rs  `Settings::apply` and `apply_search` match arms
--   server/kforecast/src/llm/mod.rs       `LlmConfig::apply_setting` match arms (llm.*)
--
-- Each arm whose pattern is string literals (`"key" =>`, `"a" | "b" =>`) is a key; the
-- arm's text gives the value's type (`v.as_bool()`, `v.as_u64()`, ...) and its range (the
-- error message's "from A to B" or "≥ N"; a `{}` there is the constant named after the
-- message, e.g. `rewrite::MAX_REWRITES`, read from its `const` in server/kforecast/src).
--
-- Run by test/e2e.lua (tests/nvim_e2e.sh), or alone, without a server binary:
--   nvim --clean --headless -l extensions/nvim/test/settings_spec.lua <repo>

local M = {}

local SETTINGS_RS = "server/kforecast/src/lsp/settings.rs"
local LLM_RS = "server/kforecast/src/llm/mod.rs"

local function read(path)
  local f = assert(io.open(path, "r"), "cannot read " .. path)
  local text = f:read("*a")
  f:close()
  return text
end

--- The text from the first `from` to the next `to` after it.
local function section(src, from, to, file)
  local s = src:find(from, 1, true)
  assert(s, string.format("%s: `%s` not found; update extensions/nvim/test/settings_spec.lua", file, from))
  local e = src:find(to, s + #from, true)
  assert(e, string.format("%s: `%s` not found after `%s`; update extensions/nvim/test/settings_spec.lua", file, to, from))
  return src:sub(s, e - 1)
end

local function type_of(text)
  if text:find("v.as_bool()", 1, true) then
    return "boolean"
  elseif text:find("v.as_u64()", 1, true) then
    return "integer"
  elseif text:find("v.as_f64()", 1, true) then
    return "number"
  elseif text:find("v.as_str()", 1, true) or text:find("text(v)", 1, true) then
    return "string"
  end
end

--- `const NAME: T = 123;` in every .rs file under `dir`.
local function constants(dir)
  local out = {}
  for _, file in ipairs(vim.fn.globpath(dir, "**/*.rs", false, true)) do
    for name, value in read(file):gmatch("const ([A-Z][A-Z0-9_]*): *[%w_:]+ *= *([%d_%.]+)%s*;") do
      out[name] = tonumber((value:gsub("_", "")))
    end
  end
  return out
end

--- The string-literal match arms of `body` as keys (with `prefix`), their type and range.
local function arms(body, prefix, source, out, consts)
  local lines = vim.split(body, "\n", { plain = true })
  local starts = {}
  for i, line in ipairs(lines) do
    local pat = line:match('^%s*(".-")%s*=>')
    if pat and pat:gsub('"[^"]*"', ""):match("^[%s|]*$") then
      starts[#starts + 1] = { line = i, pat = pat }
    end
  end
  for n, arm in ipairs(starts) do
    local last = n < #starts and starts[n + 1].line - 1 or #lines
    local text = table.concat(lines, "\n", arm.line, last)
    local at, lo, hi = text:match("()from (%d+) to (%d+)")
    if not at then
      at, lo, hi = text:match("()from ([%d{}]+) to ([%d{}]+)")
    end
    if not at then
      at, lo = text:match("()≥ ([%d{}]+)")
    end
    -- `{}` bounds: the constants named after the message, in order.
    local args = {}
    for name in (at and text:sub(at) or ""):gmatch("%f[%w_]([A-Z][A-Z0-9_]+)%f[^%w_]") do
      if consts[name] then
        args[#args + 1] = consts[name]
      end
    end
    local function bound(b)
      if b ~= "{}" then
        return tonumber(b)
      end
      assert(#args > 0, string.format("%s: cannot resolve the `{}` bound of %s%s; update settings_spec.lua", source, prefix, arm.pat))
      return table.remove(args, 1)
    end
    local minimum = lo and bound(lo)
    local maximum = hi and bound(hi)
    for name in arm.pat:gmatch('"([^"]*)"') do
      out[#out + 1] = {
        key = prefix .. name,
        source = source,
        type = type_of(text),
        minimum = minimum,
        maximum = maximum,
      }
    end
  end
end

--- Every `kforecast.*` key the server accepts: { key, source, type?, minimum?, maximum? }.
function M.server_keys(repo)
  local settings = read(repo .. "/" .. SETTINGS_RS)
  local llm = read(repo .. "/" .. LLM_RS)
  local apply = section(settings, "pub fn apply(", "fn apply_search(", SETTINGS_RS)
  local search = section(settings, "fn apply_search(", "#[cfg(test)]", SETTINGS_RS)
  local llm_apply = section(llm, "pub fn apply_setting(", "pub fn apply(", LLM_RS)
  local consts = constants(repo .. "/server/kforecast/src")
  local keys = {}
  arms(apply, "", SETTINGS_RS, keys, consts)
  arms(search, "", SETTINGS_RS, keys, consts)
  arms(llm_apply, "llm.", LLM_RS, keys, consts)
  -- Guards: `k if k == "llm" || k == "llmEndpoint" || k.starts_with("llm.") =>`.
  for name in apply:gmatch('%f[%w]k == "([^"]+)"') do
    keys[#keys + 1] = { key = name, source = SETTINGS_RS }
  end
  for prefix in apply:gmatch('starts_with%("([^"]+)"%)') do
    assert(prefix == "llm.", SETTINGS_RS .. ": settings starting with `" .. prefix .. "` are new; update settings_spec.lua")
  end
  -- Keys accepted and ignored for now (`const RESERVED: [&str; N] = ["cacheDir"];`).
  local reserved = settings:match("const RESERVED[^=]*=%s*%[([^%]]*)%]") or ""
  for name in reserved:gmatch('"([^"]+)"') do
    keys[#keys + 1] = { key = name, source = SETTINGS_RS .. " (RESERVED)" }
  end
  local seen, out = {}, {}
  for _, k in ipairs(keys) do
    if not seen[k.key] then
      seen[k.key] = true
      out[#out + 1] = k
    end
  end
  return out
end

--- `{ [key] = v }`, or nested for `llm.x` / `search.x`.
local function settings_with(key, v)
  local head, tail = key:match("^(%a+)%.(.+)$")
  if head then
    return { [head] = { [tail] = v } }
  end
  return { [key] = v }
end

local function sent(out, key)
  local head, tail = key:match("^(%a+)%.(.+)$")
  if head then
    return type(out[head]) == "table" and out[head][tail] or nil
  end
  return out[key]
end

local function names(problems, key)
  for _, p in ipairs(problems) do
    if p:find("kforecast." .. key .. " ", 1, true) then
      return true
    end
  end
  return false
end

--- Runs the checks; `check(cond, fmt, ...)` raises on failure.
function M.run(repo, check)
  local config = require("kforecast.config")
  local keys = M.server_keys(repo)
  local by_key = {}
  for _, k in ipairs(keys) do
    by_key[k.key] = k
  end
  for _, want in ipairs({ "confidenceThreshold", "learnFromMeasurements", "llm", "llmEndpoint", "llm.endpoint", "llm.weight", "search.budget", "search.seed", "searchBudget", "cacheDir" }) do
    check(by_key[want], "the parser did not find %s in the server source", want)
  end
  local t = by_key["llm.timeoutMs"]
  check(t and t.type == "integer" and t.minimum == 100 and t.maximum == 600000, "llm.timeoutMs parsed as %s", vim.inspect(t))

  -- Every server setting is known to the plugin, and the plugin knows no other.
  local known = {}
  for _, k in ipairs(config.known) do
    known[k] = true
  end
  local missing = {}
  for _, k in ipairs(keys) do
    local head, tail = k.key:match("^(%a+)%.(.+)$")
    local ok = (head == "llm" and config.llm_keys[tail]) or (head == "search" and config.search_keys[tail]) or (not head and known[k.key])
    if not ok then
      missing[#missing + 1] = string.format("kforecast.%s (%s)", k.key, k.source)
    end
  end
  check(#missing == 0, "the server accepts settings that lua/kforecast/config.lua does not know: %s "
    .. "(add them to config.lua, doc/kforecast.txt and the VS Code extension's package.json)", table.concat(missing, ", "))
  for _, k in ipairs(config.known) do
    check(by_key[k], "config.lua knows kforecast.%s, which the server does not accept", k)
  end
  for k in pairs(config.llm_keys) do
    check(by_key["llm." .. k], "config.lua knows kforecast.llm.%s, which the server does not accept", k)
  end
  for k in pairs(config.search_keys) do
    check(by_key["search." .. k], "config.lua knows kforecast.search.%s, which the server does not accept", k)
  end

  -- The server's types and ranges: a wrong-typed value is reported by name and left
  -- out; the bounds are accepted and what lies just past them is not.
  local wrong = { boolean = "yes", integer = "1", number = "0.5", string = 42 }
  for _, k in ipairs(keys) do
    if k.type then
      local out, problems = config.server_settings(settings_with(k.key, wrong[k.type]))
      check(names(problems, k.key), "a %s for kforecast.%s (the server reads a %s) was not reported: %s", type(wrong[k.type]), k.key, k.type, vim.inspect(problems))
      check(sent(out, k.key) == nil, "the wrong-typed kforecast.%s was sent", k.key)
    end
    local step = k.type == "number" and 0.5 or 1
    for _, bound in ipairs({ k.minimum or false, k.maximum or false }) do
      if bound then
        local out, problems = config.server_settings(settings_with(k.key, bound))
        check(#problems == 0 and sent(out, k.key) == bound, "kforecast.%s = %s (in the server's range) gave %s, %s", k.key, bound, vim.inspect(out), vim.inspect(problems))
      end
    end
    if k.minimum then
      local _, problems = config.server_settings(settings_with(k.key, k.minimum - step))
      check(names(problems, k.key), "kforecast.%s = %s (below the server's minimum) was not reported", k.key, k.minimum - step)
    end
    if k.maximum then
      local _, problems = config.server_settings(settings_with(k.key, k.maximum + step))
      check(names(problems, k.key), "kforecast.%s = %s (above the server's maximum) was not reported", k.key, k.maximum + step)
    end
  end

  -- A wrong-typed llm setting; learnFromMeasurements.
  local out, problems = config.server_settings({ llm = { endpoint = "http://localhost:8000/v1", model = "m", timeoutMs = "30s" } })
  check(#problems == 1 and problems[1] == 'kforecast.llm.timeoutMs must be a whole number of milliseconds from 100 to 600000, got "30s"',
    "llm.timeoutMs = \"30s\" gave %s", vim.inspect(problems))
  check(vim.deep_equal(out, { llm = { endpoint = "http://localhost:8000/v1", model = "m" } }), "llm sent as %s", vim.inspect(out))
  out, problems = config.server_settings({ llm = { weight = true, maxConcurrency = 0, retries = 2.5, endpoint = "ftp://x", bogus = 1 } })
  for _, key in ipairs({ "llm.weight", "llm.maxConcurrency", "llm.retries", "llm.endpoint", "llm.bogus" }) do
    check(names(problems, key), "no problem reported for kforecast.%s: %s", key, vim.inspect(problems))
  end
  check(out.llm == nil, "invalid llm settings were sent: %s", vim.inspect(out))
  out, problems = config.server_settings({ learnFromMeasurements = "false" })
  check(#problems == 1 and problems[1] == 'kforecast.learnFromMeasurements must be true or false, got "false"', "learnFromMeasurements: %s", vim.inspect(problems))
  check(out.learnFromMeasurements == nil, "a string learnFromMeasurements was sent")
  out, problems = config.server_settings({ learnFromMeasurements = false })
  check(#problems == 0 and out.learnFromMeasurements == false, "learnFromMeasurements = false gave %s %s", vim.inspect(out), vim.inspect(problems))

  -- The API key variable's value is never echoed (it may be the key itself).
  _, problems = config.server_settings({ llm = { apiKeyEnv = "sk=secret" } })
  check(names(problems, "llm.apiKeyEnv") and not table.concat(problems):find("secret", 1, true), "apiKeyEnv: %s", vim.inspect(problems))

  -- An empty endpoint is sent (it turns the surrogate off); flat keys join their table.
  out, problems = config.server_settings({ llm = { endpoint = "" }, ["llm.weight"] = 0.25, ["search.budget"] = 16, search = { seed = 1 } })
  check(#problems == 0 and vim.deep_equal(out, { llm = { endpoint = "", weight = 0.25 }, search = { budget = 16, seed = 1 } }), "flat keys: %s %s", vim.inspect(out), vim.inspect(problems))

  -- Deprecated llmEndpoint / searchBudget / searchSeed fold into llm / search.
  out, problems = config.server_settings({ llmEndpoint = { url = "http://old/v1", model = "old", apiKeyEnv = "OLD" }, llm = { weight = 0.3 }, searchBudget = 20, searchSeed = 4 })
  check(#problems == 0 and vim.deep_equal(out, { llm = { endpoint = "http://old/v1", model = "old", apiKeyEnv = "OLD", weight = 0.3 }, search = { budget = 20, seed = 4 } }),
    "deprecated keys: %s %s", vim.inspect(out), vim.inspect(problems))
  out, problems = config.server_settings({ llmEndpoint = { url = "http://old/v1", model = "old" }, llm = { endpoint = "http://new/v1", model = "new" }, search = { budget = 32 }, searchBudget = 20 })
  check(vim.deep_equal(out, { llm = { endpoint = "http://new/v1", model = "new" }, search = { budget = 32 } }), "new keys win: %s", vim.inspect(out))
  check(names(problems, "llmEndpoint") and names(problems, "searchBudget"), "ignored deprecated keys not reported: %s", vim.inspect(problems))

  -- gpuWorkers' tokenEnv and "local".
  out, problems = config.server_settings({ gpuWorkers = { { url = "http://gpu:7878", tokenEnv = "KFORECAST_WORKER_TOKEN" }, "local", { url = "gpu:7878" } } })
  check(vim.deep_equal(out.gpuWorkers, { { url = "http://gpu:7878", tokenEnv = "KFORECAST_WORKER_TOKEN" }, { url = "local" } }), "gpuWorkers: %s", vim.inspect(out.gpuWorkers))
  check(#problems == 1 and problems[1]:find("kforecast.gpuWorkers[3].url", 1, true), "gpuWorkers problems: %s", vim.inspect(problems))
end

-- Alone: nvim --clean --headless -l extensions/nvim/test/settings_spec.lua <repo>
if arg and arg[0] and arg[0]:match("settings_spec%.lua$") then
  local repo = arg[1] or vim.fn.fnamemodify(arg[0], ":p:h:h:h:h")
  vim.opt.runtimepath:prepend(repo .. "/extensions/nvim")
  local ok, err = pcall(M.run, repo, function(cond, fmt, ...)
    if not cond then
      error(string.format(fmt, ...), 0)
    end
  end)
  io.stdout:write(ok and "settings_spec: ok\n" or ("settings_spec: FAIL: " .. tostring(err) .. "\n"))
  os.exit(ok and 0 or 1)
end

return M

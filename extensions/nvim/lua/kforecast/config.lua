-- Options of require("kforecast").setup(), their defaults, and the mapping of
-- `settings` to what the server reads (initializationOptions and
-- workspace/didChangeConfiguration). Pure Lua apart from vim.tbl_* helpers.

local M = {}

---@class kforecast.Settings
---@field confidenceThreshold? number 0..1 (default 0.7)
---@field baselineMode? "git"|"open" (default "git")
---@field device? string (default "NVIDIA H100")
---@field maxFileSize? integer bytes (default: the server's, 16 MiB)
---@field gpuWorkers? {url: string, tokenEnv?: string, token?: string}[]
---@field autoVerify? boolean (default false)
---@field verifyTimeout? integer seconds 1..3600 (default 120)
---@field learnFromMeasurements? boolean (default true)
---@field llm? kforecast.LlmSettings the optional LLM surrogate (off by default)
---@field llmEndpoint? {url: string, model: string, apiKeyEnv?: string} deprecated: use llm
---@field search? {budget?: integer, seed?: integer}
---@field searchBudget? integer deprecated: use search.budget
---@field searchSeed? integer deprecated: use search.seed
---@field cacheDir? string

---@class kforecast.LlmSettings
---@field endpoint? string OpenAI-compatible base URL; "" (default): off
---@field model? string
---@field apiKeyEnv? string NAME of the variable holding the API key (default "KFORECAST_LLM_API_KEY")
---@field timeoutMs? integer 100..600000 (default 30000)
---@field maxConcurrency? integer 1..64 (default 4)
---@field retries? integer 0..10 (default 2)
---@field weight? number 0..1 (default 0.5)
---@field rewrites? integer 0..8 (default 2): variants per search generation the LLM is asked to rewrite

---@class kforecast.Options
M.defaults = {
  --- The server command. nil: { <server_path>, "lsp" }.
  cmd = nil,
  --- Path to the kforecast binary. nil: `kforecast` on $PATH.
  server_path = nil,
  --- Extra environment for the server, e.g. { KFORECAST_CACHE_DIR = "/tmp/kf" }.
  cmd_env = {},
  --- KFORECAST_LOG for the server ("error", "warn", "info", "debug", "trace"); nil: the server's default.
  log_level = nil,
  --- Settings sent to the server.
  ---@type kforecast.Settings
  settings = {
    confidenceThreshold = 0.7,
    baselineMode = "git",
    device = "NVIDIA H100",
    gpuWorkers = {},
    autoVerify = false,
  },
  --- Filetypes the server attaches to. Python buffers only when they mention triton.
  filetypes = { "cuda", "python" },
  --- Files or folders that mark the project root (for the server's root_dir).
  root_markers = { ".git" },
  --- Show the forecasts as inlay hints.
  inlay_hints = true,
  --- Show code lenses ("kforecast: ≈1.8× faster · 82% vs HEAD", "set as baseline"), refreshed
  --- while typing. Off by default: the inlay hint shows the same forecast.
  codelens = false,
  --- Milliseconds of quiet before the lenses are refreshed while typing.
  codelens_delay_ms = 200,
  --- Take settings that send data or name secrets (llm.endpoint, llm.apiKeyEnv, gpuWorkers
  --- and their tokens, autoVerify) from workspace-local config too (exrc, .nvim.lua). Only
  --- honoured from your own config.
  trust_workspace_settings = false,
  --- Create the :Kforecast* user commands.
  commands = true,
  --- Called as on_attach(client, bufnr) after kforecast's own attach logic.
  on_attach = nil,
  --- Client capabilities to merge in (e.g. from a completion plugin).
  capabilities = nil,
}

local function is_blank(v)
  return v == nil or v == vim.NIL or v == ""
end

local function show(v)
  if v == vim.NIL then
    return "null"
  end
  local ok, s = pcall(vim.json.encode, v)
  return ok and s or vim.inspect(v)
end

local function nonempty_string(v)
  return type(v) == "string" and vim.trim(v) ~= ""
end

local function is_integer(v)
  return type(v) == "number" and v == math.floor(v) and v < math.huge and v > -math.huge
end

local function is_http_url(v)
  return type(v) == "string" and (vim.startswith(v, "http://") or vim.startswith(v, "https://"))
end

--- The name of an environment variable (the server refuses an empty one or one with "=").
local function is_env_name(v)
  return nonempty_string(v) and not v:find("=", 1, true)
end

local function whole_in(min, max)
  return function(v)
    return is_integer(v) and v >= min and v <= max and v or nil
  end
end

local function number_in(min, max)
  return function(v)
    return type(v) == "number" and v == v and v >= min and v <= max and v or nil
  end
end

local function boolean(v)
  if type(v) == "boolean" then
    return v
  end
end

local function trimmed(v)
  return nonempty_string(v) and vim.trim(v) or nil
end

--- The largest whole number a double holds exactly.
local MAX_WHOLE = 2 ^ 53

--- The server's default search budget.
M.DEFAULT_SEARCH_BUDGET = 8

--- Top-level settings the server reads. `llm` and `search` are tables of the keys
--- below; keys written flat (["llm.model"], ["search.budget"]) are accepted too.
M.known = {
  "confidenceThreshold", "baselineMode", "device", "maxFileSize", "gpuWorkers", "autoVerify",
  "verifyTimeout", "learnFromMeasurements", "llm", "llmEndpoint", "search", "searchBudget",
  "searchSeed", "cacheDir",
}

--- `llm` keys: { convert, what it must be }. `convert` gives the value to send, or nil.
--- (`url` is the server's other name for `endpoint`.)
M.llm_keys = {
  endpoint = {
    function(v)
      if type(v) == "string" and (vim.trim(v) == "" or is_http_url(vim.trim(v))) then
        return vim.trim(v)
      end
    end,
    'an http:// or https:// URL ("": off)',
  },
  model = { function(v) return type(v) == "string" and vim.trim(v) or nil end, "a model name (a string)" },
  apiKeyEnv = {
    function(v) return is_env_name(v) and vim.trim(v) or nil end,
    "the NAME of an environment variable that holds the API key, not the key",
  },
  timeoutMs = { whole_in(100, 600000), "a whole number of milliseconds from 100 to 600000" },
  maxConcurrency = { whole_in(1, 64), "a whole number from 1 to 64" },
  retries = { whole_in(0, 10), "a whole number from 0 to 10" },
  weight = { number_in(0, 1), "a number from 0 to 1" },
  rewrites = { whole_in(0, 8), "a whole number from 0 to 8" },
}
M.llm_keys.url = M.llm_keys.endpoint

--- `search` keys.
M.search_keys = {
  budget = { whole_in(1, 1000), "a whole number of GPU runs from 1 to 1000" },
  seed = { whole_in(0, MAX_WHOLE), "a whole number >= 0" },
}

--- Validates `settings` and returns (server settings, problems). Invalid values are
--- left out (the server keeps its own value) and reported by name.
---@param settings table|nil
---@return table server_settings, string[] problems
function M.server_settings(settings)
  settings = settings or {}
  local out, problems = {}, {}
  local function problem(fmt, ...)
    problems[#problems + 1] = string.format(fmt, ...)
  end

  -- Flat keys such as ["llm.endpoint"] or ["search.budget"] join their table (and win).
  local tables = { llm = {}, search = {} }
  for _, name in ipairs({ "llm", "search" }) do
    local t = settings[name]
    if type(t) == "table" then
      tables[name] = vim.deepcopy(t)
    elseif not is_blank(t) then
      problem("kforecast.%s must be a table of %s settings, got %s", name, name, show(t))
      tables[name] = nil
    end
  end
  local known = {}
  for _, key in ipairs(M.known) do
    known[key] = true
  end
  for key, v in pairs(settings) do
    local head, tail = tostring(key):match("^(%a+)%.(.+)$")
    if head and (head == "llm" or head == "search") then
      if tables[head] then
        tables[head][tail] = v
      end
    elseif not known[key] then
      problem("kforecast.%s is not a kforecast setting", tostring(key))
    end
  end

  -- A plain setting: `convert` gives the value to send, or nil when `v` is not valid.
  local function plain(key, convert, expected)
    local v = settings[key]
    if is_blank(v) then
      return
    end
    local value = convert(v)
    if value == nil then
      problem("kforecast.%s must be %s, got %s", key, expected, show(v))
    else
      out[key] = value
    end
  end

  plain("confidenceThreshold", number_in(0, 1), "a number from 0 to 1")
  plain("baselineMode", function(v)
    return (v == "git" or v == "open") and v or nil
  end, '"git" or "open"')
  plain("device", trimmed, "a non-empty string")
  plain("maxFileSize", whole_in(1024, MAX_WHOLE), "a whole number of bytes >= 1024")

  local workers = settings.gpuWorkers
  if not is_blank(workers) then
    if type(workers) ~= "table" or (next(workers) ~= nil and not vim.islist(workers)) then
      problem('kforecast.gpuWorkers must be a list of { url = ..., tokenEnv = ... }, got %s', show(workers))
    else
      local list = {}
      for i, w in ipairs(workers) do
        if type(w) == "string" then
          w = { url = w }
        end
        if type(w) ~= "table" or not nonempty_string(w.url) then
          problem("kforecast.gpuWorkers[%d] needs a url string, got %s", i, show(w))
        elseif vim.trim(w.url) ~= "local" and not is_http_url(vim.trim(w.url)) then
          problem('kforecast.gpuWorkers[%d].url must be an http:// or https:// URL or "local", got %s', i, show(w.url))
        else
          local entry = { url = vim.trim(w.url) }
          if nonempty_string(w.token) then
            entry.token = w.token
          elseif not is_blank(w.token) then
            problem("kforecast.gpuWorkers[%d].token must be a string", i)
          end
          if is_env_name(w.tokenEnv) then
            entry.tokenEnv = vim.trim(w.tokenEnv)
          elseif not is_blank(w.tokenEnv) then
            problem("kforecast.gpuWorkers[%d].tokenEnv must be the name of an environment variable", i)
          end
          list[#list + 1] = entry
        end
      end
      out.gpuWorkers = list -- vim.json encodes an empty table as []
    end
  end

  plain("autoVerify", boolean, "true or false")
  plain("verifyTimeout", whole_in(1, 3600), "a whole number of seconds from 1 to 3600")
  plain("learnFromMeasurements", boolean, "true or false")

  -- llm: each key checked; an empty endpoint is sent too (it turns the surrogate off).
  local llm_in, llm = tables.llm or {}, {}
  local keeps_empty = { endpoint = true, url = true, model = true }
  for key, v in pairs(llm_in) do
    local spec = M.llm_keys[key]
    local name = "kforecast.llm." .. tostring(key)
    if not spec then
      problem("%s is not a kforecast setting (llm keys: endpoint, model, apiKeyEnv, timeoutMs, maxConcurrency, retries, weight, rewrites)", name)
    elseif key == "url" and llm_in.endpoint ~= nil then
      problem("kforecast.llm.url is ignored because kforecast.llm.endpoint is set")
    elseif v == vim.NIL or (v == "" and not keeps_empty[key]) then
      -- not set: the server keeps its value
    else
      local value = spec[1](v)
      if value == nil then
        if key == "apiKeyEnv" then
          -- Not echoed: it may be the key itself, pasted by mistake.
          problem("%s must be %s", name, spec[2])
        else
          problem("%s must be %s, got %s", name, spec[2], show(v))
        end
      else
        llm[key == "url" and "endpoint" or key] = value
      end
    end
  end

  -- The deprecated llmEndpoint, used only while llm.endpoint is empty.
  local legacy = settings.llmEndpoint
  if not is_blank(legacy) then
    if type(legacy) ~= "table" then
      problem("kforecast.llmEndpoint must be a table { url = ..., model = ..., apiKeyEnv = ... }, got %s", show(legacy))
    elseif not (is_blank(legacy.url) and is_blank(legacy.model) and is_blank(legacy.apiKeyEnv)) then
      if not nonempty_string(legacy.url) or not nonempty_string(legacy.model) then
        problem("kforecast.llmEndpoint needs url and model strings, got %s", show(legacy))
      elseif not is_http_url(vim.trim(legacy.url)) then
        problem("kforecast.llmEndpoint.url must be an http:// or https:// URL, got %s", show(legacy.url))
      elseif nonempty_string(llm.endpoint) then
        problem("kforecast.llmEndpoint (deprecated) is ignored because kforecast.llm.endpoint is set")
      else
        llm.endpoint, llm.model = vim.trim(legacy.url), vim.trim(legacy.model)
        if is_env_name(legacy.apiKeyEnv) then
          llm.apiKeyEnv = vim.trim(legacy.apiKeyEnv)
        elseif not is_blank(legacy.apiKeyEnv) then
          problem("kforecast.llmEndpoint.apiKeyEnv must be the NAME of an environment variable that holds the API key")
        end
      end
    end
  end
  if next(llm) ~= nil then
    out.llm = llm
  end

  -- search, and the deprecated searchBudget / searchSeed (used only while search.budget
  -- is unset or at its default, and while search.seed is unset).
  local search_in, search = tables.search or {}, {}
  for key, v in pairs(search_in) do
    local spec = M.search_keys[key]
    local name = "kforecast.search." .. tostring(key)
    if not spec then
      problem("%s is not a kforecast setting (search keys: budget, seed)", name)
    elseif not is_blank(v) then
      local value = spec[1](v)
      if value == nil then
        problem("%s must be %s, got %s", name, spec[2], show(v))
      else
        search[key] = value
      end
    end
  end
  local budget = settings.searchBudget
  if not is_blank(budget) then
    if not M.search_keys.budget[1](budget) then
      problem("kforecast.searchBudget must be %s, got %s", M.search_keys.budget[2], show(budget))
    elseif search.budget == nil or search.budget == M.DEFAULT_SEARCH_BUDGET then
      search.budget = budget
    elseif search.budget ~= budget then
      problem("kforecast.searchBudget (deprecated) is ignored because kforecast.search.budget is set")
    end
  end
  local seed = settings.searchSeed
  if not is_blank(seed) then
    if not M.search_keys.seed[1](seed) then
      problem("kforecast.searchSeed must be %s, got %s", M.search_keys.seed[2], show(seed))
    elseif search.seed == nil then
      search.seed = seed
    elseif search.seed ~= seed then
      problem("kforecast.searchSeed (deprecated) is ignored because kforecast.search.seed is set")
    end
  end
  if next(search) ~= nil then
    out.search = search
  end

  plain("cacheDir", trimmed, "a path")

  return out, problems
end

--- Settings that send data (kernel source to an LLM endpoint or a GPU worker), name a
--- secret (the variable a key or token is read from) or run kernels by themselves.
M.sensitive = { "llm.endpoint", "llm.url", "llm.apiKeyEnv", "llmEndpoint", "gpuWorkers", "autoVerify" }

--- Names of workspace-local config files (`:help exrc`, lazy.nvim's `.lazy.lua`).
local LOCAL_CONFIG = { [".nvim.lua"] = true, [".nvimrc"] = true, [".exrc"] = true, [".lazy.lua"] = true }

--- The workspace-local config file this call comes from: an exrc file (`.nvim.lua`,
--- `.nvimrc`, `.exrc`), lazy.nvim's `.lazy.lua`, or a Lua file in a project's `.nvim/`
--- folder; nil for the user's own config.
---@return string|nil
function M.workspace_source()
  local ok, sourcing = pcall(vim.fn.expand, "<sfile>")
  sourcing = ok and sourcing or ""
  for name in pairs(LOCAL_CONFIG) do
    local at = sourcing:find(name, 1, true)
    if at then
      return (sourcing:sub(1, at + #name - 1):gsub("^.*%.%.", ""):gsub("^script ", ""))
    end
  end
  local own = { vim.fs.normalize(vim.fn.stdpath("config")), vim.fs.normalize(vim.fn.stdpath("data")) }
  local level = 2
  while true do
    local info = debug.getinfo(level, "S")
    if not info then
      return nil
    end
    local src = info.source or ""
    if src:sub(1, 1) == "@" then
      local path = vim.fs.normalize(vim.fn.fnamemodify(src:sub(2), ":p"))
      local name = vim.fs.basename(path)
      local mine = false
      for _, dir in ipairs(own) do
        if vim.startswith(path, dir .. "/") then
          mine = true
        end
      end
      if not mine and (LOCAL_CONFIG[name] or path:find("/.nvim/", 1, true)) then
        return path
      end
    end
    level = level + 1
  end
end

--- Splits `settings` into what may be taken from workspace-local config and the names
--- of the sensitive settings it tried to set (those keep their value from `base`).
---@param settings table
---@param base table
---@return table kept, string[] refused
function M.refuse_sensitive(settings, base)
  local kept = vim.deepcopy(settings)
  local refused = {}
  local function differs(a, b)
    return not vim.deep_equal(a, b)
  end
  for _, key in ipairs({ "gpuWorkers", "autoVerify", "llmEndpoint" }) do
    if kept[key] ~= nil and differs(kept[key], base[key]) then
      refused[#refused + 1] = key
      kept[key] = base[key]
    end
  end
  for _, sub in ipairs({ "endpoint", "url", "apiKeyEnv" }) do
    local flat = "llm." .. sub
    if kept[flat] ~= nil then
      refused[#refused + 1] = flat
      kept[flat] = nil
    end
    local base_llm = type(base.llm) == "table" and base.llm or {}
    if type(kept.llm) == "table" and kept.llm[sub] ~= nil and differs(kept.llm[sub], base_llm[sub]) then
      refused[#refused + 1] = flat
      kept.llm[sub] = base_llm[sub]
    end
  end
  return kept, refused
end

--- Merges user options over the defaults. `settings` is merged key by key, so
--- setup({ settings = { baselineMode = "open" } }) keeps the other defaults.
---@param opts table|nil
---@return table
function M.resolve(opts)
  opts = opts or {}
  local merged = vim.tbl_extend("force", vim.deepcopy(M.defaults), opts)
  merged.settings = vim.tbl_extend("force", vim.deepcopy(M.defaults.settings), opts.settings or {})
  return merged
end

--- The kforecast binary: `server_path`, else `kforecast` on $PATH. Returns (path, nil)
--- or (nil, message saying what to do).
---@param opts table
---@return string|nil, string|nil
function M.find_server(opts)
  if opts.cmd and opts.cmd[1] then
    local exe = vim.fn.exepath(opts.cmd[1])
    if exe ~= "" then
      return exe, nil
    end
    return nil, string.format("kforecast: cmd[1] = %q is not an executable", opts.cmd[1])
  end
  if nonempty_string(opts.server_path) then
    local path = vim.fn.expand(opts.server_path)
    if vim.fn.executable(path) == 1 then
      return vim.fn.exepath(path) ~= "" and vim.fn.exepath(path) or path, nil
    end
    return nil,
      string.format(
        "kforecast: server_path = %q is not an executable file; fix it in require('kforecast').setup({ server_path = ... })",
        opts.server_path
      )
  end
  local exe = vim.fn.exepath("kforecast")
  if exe ~= "" then
    return exe, nil
  end
  return nil,
    "kforecast: cannot find the `kforecast` language server on $PATH. Install it with "
      .. "`cargo install --path server/kforecast` from a kforecast checkout, or build it "
      .. "(`cargo build --release -p kforecast`) and pass require('kforecast').setup({ server_path = '/path/to/kforecast' })."
end

return M

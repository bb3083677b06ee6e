-- Options of require("kforecast").setup(), their defaults, and the mapping of
-- `settings` to what the server reads (initializationOptions and
-- workspace/didChangeConfiguration). Pure Lua apart from vim.tbl_* helpers.

local M = {}

---@class kforecast.Settings
---@field confidenceThreshold? number 0..1 (default 0.7)
---@field baselineMode? "git"|"open" (default "git")
---@field device? string (default "NVIDIA H100")
---@field maxFileSize? integer bytes (default: the server's, 16 MiB)
---@field gpuWorkers? {url: string, token?: string}[]
---@field llmEndpoint? {url: string, model: string, apiKeyEnv?: string}
---@field autoVerify? boolean
---@field searchBudget? integer
---@field cacheDir? string

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
  --- Show code lenses ("kforecast: ≈1.8× faster …", "set as baseline") and refresh them on edits.
  codelens = true,
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

  local known = {
    confidenceThreshold = true, baselineMode = true, device = true, maxFileSize = true,
    gpuWorkers = true, llmEndpoint = true, autoVerify = true, searchBudget = true, cacheDir = true,
  }
  for key, _ in pairs(settings) do
    if not known[key] then
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
  local function trimmed(v)
    return nonempty_string(v) and vim.trim(v) or nil
  end

  plain("confidenceThreshold", function(v)
    return type(v) == "number" and v >= 0 and v <= 1 and v or nil
  end, "a number from 0 to 1")
  plain("baselineMode", function(v)
    return (v == "git" or v == "open") and v or nil
  end, '"git" or "open"')
  plain("device", trimmed, "a non-empty string")
  plain("maxFileSize", function(v)
    return is_integer(v) and v >= 1024 and v or nil
  end, "a whole number of bytes >= 1024")

  local workers = settings.gpuWorkers
  if not is_blank(workers) then
    if type(workers) ~= "table" or (next(workers) ~= nil and not vim.islist(workers)) then
      problem('kforecast.gpuWorkers must be a list of { url = ..., token = ... }, got %s', show(workers))
    else
      local list = {}
      for i, w in ipairs(workers) do
        if type(w) == "string" then
          w = { url = w }
        end
        if type(w) ~= "table" or not nonempty_string(w.url) then
          problem("kforecast.gpuWorkers[%d] needs a url string, got %s", i, show(w))
        else
          local entry = { url = vim.trim(w.url) }
          if nonempty_string(w.token) then
            entry.token = w.token
          elseif not is_blank(w.token) then
            problem("kforecast.gpuWorkers[%d].token must be a string", i)
          end
          list[#list + 1] = entry
        end
      end
      out.gpuWorkers = list -- vim.json encodes an empty table as []
    end
  end

  local llm = settings.llmEndpoint
  if not is_blank(llm) then
    if type(llm) ~= "table" then
      problem("kforecast.llmEndpoint must be a table { url = ..., model = ..., apiKeyEnv = ... }, got %s", show(llm))
    elseif not (is_blank(llm.url) and is_blank(llm.model) and is_blank(llm.apiKeyEnv)) then
      if not nonempty_string(llm.url) or not nonempty_string(llm.model) then
        problem("kforecast.llmEndpoint needs url and model strings, got %s", show(llm))
      else
        out.llmEndpoint = { url = vim.trim(llm.url), model = vim.trim(llm.model) }
        if nonempty_string(llm.apiKeyEnv) then
          out.llmEndpoint.apiKeyEnv = vim.trim(llm.apiKeyEnv)
        elseif not is_blank(llm.apiKeyEnv) then
          problem("kforecast.llmEndpoint.apiKeyEnv must be the name of an environment variable")
        end
      end
    end
  end

  plain("autoVerify", function(v)
    if type(v) == "boolean" then
      return v
    end
  end, "true or false")
  plain("searchBudget", function(v)
    return is_integer(v) and v >= 1 and v or nil
  end, "a whole number >= 1")
  plain("cacheDir", trimmed, "a path")

  return out, problems
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

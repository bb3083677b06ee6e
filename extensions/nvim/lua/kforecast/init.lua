-- kforecast for Neovim: starts `kforecast lsp` for CUDA buffers and for Python
-- buffers that hold kernels (Triton, load_inline, CuPy), enables its inlay hints
-- (and code lenses, when asked for),
-- and adds :KforecastVerify, :KforecastSearch, :KforecastSetBaseline and
-- :KforecastShowForecast. See :help kforecast.

local config = require("kforecast.config")
local kernels = require("kforecast.kernels")

local M = {}

M.name = "kforecast"

--- Server command ids.
M.commands = {
  verify = "kforecast.verify",
  search = "kforecast.search",
  setBaseline = "kforecast.setBaseline",
  showForecast = "kforecast.showForecast",
}

--- Commands that act on one kernel: with none under the cursor the user picks one.
local needs_kernel = {
  [M.commands.verify] = true,
  [M.commands.search] = true,
  [M.commands.showForecast] = true,
}

---@type table|nil resolved options (after setup)
M.options = nil
--- Settings as sent to the server (validated).
M.server_settings = nil
--- Problems found in the settings at the last setup()/update_settings().
M.problems = {}
--- The server command in use, e.g. { "/usr/bin/kforecast", "lsp" }.
M.cmd = nil
--- Why the server cannot start (binary not found), or nil.
M.error = nil
--- Commands sent and not yet answered.
M.jobs = 0
--- The last answer to each command: { err = ..., result = ..., kernel = ... } (for scripts and tests).
M.last_results = {}

local has_011 = vim.fn.has("nvim-0.11") == 1

local function notify(msg, level)
  vim.notify(msg, level or vim.log.levels.INFO, { title = "kforecast" })
end

local function request(client, method, params, handler, bufnr)
  if has_011 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

--- Whether the server should attach to this buffer: a CUDA buffer, or a Python
--- buffer whose code holds a kernel (kernels.holds_kernels).
---@param bufnr integer
---@return boolean
function M.wants(bufnr)
  if not M.options or not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= "" then
    return false
  end
  local ft = vim.bo[bufnr].filetype
  if not vim.tbl_contains(M.options.filetypes, ft) then
    return false
  end
  if ft == "python" then
    return kernels.holds_kernels(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false))
  end
  return true
end

local function root_for(bufnr)
  local root = vim.fs.root(bufnr, M.options.root_markers)
  if root then
    return root
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name ~= "" then
    return vim.fs.dirname(name)
  end
  return vim.fn.getcwd()
end

--- The kforecast client attached to a buffer, if any.
---@param bufnr integer|nil
function M.client(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  return get({ bufnr = bufnr, name = M.name })[1]
end

local function refresh_codelens(bufnr)
  if vim.api.nvim_buf_is_valid(bufnr) and M.client(bufnr) then
    pcall(vim.lsp.codelens.refresh, { bufnr = bufnr })
  end
end

local function on_attach(client, bufnr)
  if M.options.inlay_hints and vim.lsp.inlay_hint then
    vim.lsp.inlay_hint.enable(true, { bufnr = bufnr })
  end
  if M.options.codelens then
    -- Refreshed while typing too (after a short pause), so the lens says what the hint says.
    local group = vim.api.nvim_create_augroup("kforecast_codelens_" .. bufnr, { clear = true })
    local timer = vim.uv.new_timer()
    vim.api.nvim_create_autocmd({ "BufEnter", "InsertLeave", "TextChanged", "TextChangedI", "CursorHold" }, {
      group = group,
      buffer = bufnr,
      callback = function()
        timer:stop()
        timer:start(M.options.codelens_delay_ms or 200, 0, vim.schedule_wrap(function()
          refresh_codelens(bufnr)
        end))
      end,
    })
    vim.api.nvim_create_autocmd("BufWipeout", {
      group = group,
      buffer = bufnr,
      callback = function()
        timer:stop()
        timer:close()
      end,
    })
    refresh_codelens(bufnr)
  end
  if M.options.on_attach then
    M.options.on_attach(client, bufnr)
  end
end

local function client_config()
  local env = vim.tbl_extend("force", {}, M.options.cmd_env or {})
  if M.options.log_level then
    env.KFORECAST_LOG = M.options.log_level
  end
  if M.server_settings.cacheDir and not env.KFORECAST_CACHE_DIR then
    env.KFORECAST_CACHE_DIR = M.server_settings.cacheDir
  end
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  if M.options.capabilities then
    capabilities = vim.tbl_deep_extend("force", capabilities, M.options.capabilities)
  end
  return {
    name = M.name,
    cmd = M.cmd,
    cmd_env = env,
    filetypes = M.options.filetypes,
    init_options = M.server_settings,
    settings = { kforecast = M.server_settings },
    capabilities = capabilities,
    on_attach = on_attach,
  }
end

--- Starts (or reuses) the client for one buffer, whatever the Neovim version.
---@param bufnr integer
function M.start(bufnr)
  if not M.cmd or not M.wants(bufnr) or M.client(bufnr) then
    return
  end
  local cfg = client_config()
  cfg.root_dir = root_for(bufnr)
  vim.lsp.start(cfg, { bufnr = bufnr })
end

--- Python buffers that hold no kernel yet: start the client once they do.
local watched = {}
local function watch_python(bufnr)
  if watched[bufnr] or vim.bo[bufnr].filetype ~= "python" or M.client(bufnr) then
    return
  end
  watched[bufnr] = true
  local pending = false
  vim.api.nvim_buf_attach(bufnr, false, {
    on_lines = function()
      if not watched[bufnr] then
        return true -- detach
      end
      if not pending then
        pending = true
        vim.schedule(function()
          pending = false
          if watched[bufnr] and vim.api.nvim_buf_is_valid(bufnr) and M.wants(bufnr) then
            watched[bufnr] = nil
            M.start(bufnr)
          end
        end)
      end
    end,
    on_detach = function()
      watched[bufnr] = nil
    end,
  })
end

local function pretty_json(value, indent)
  indent = indent or ""
  local inner = indent .. "  "
  if type(value) == "table" and value ~= vim.NIL then
    if vim.tbl_isempty(value) then
      return vim.json.encode(value)
    end
    local parts = {}
    if vim.islist(value) then
      for _, v in ipairs(value) do
        parts[#parts + 1] = inner .. pretty_json(v, inner)
      end
      return "[\n" .. table.concat(parts, ",\n") .. "\n" .. indent .. "]"
    end
    local keys = vim.tbl_keys(value)
    table.sort(keys, function(a, b)
      return tostring(a) < tostring(b)
    end)
    for _, k in ipairs(keys) do
      parts[#parts + 1] = inner .. vim.json.encode(tostring(k)) .. ": " .. pretty_json(value[k], inner)
    end
    return "{\n" .. table.concat(parts, ",\n") .. "\n" .. indent .. "}"
  end
  return vim.json.encode(value)
end
M._pretty_json = pretty_json

--- The paper's bins, slowest first (as the server sends them).
local BINS = {
  { "<=0.25x", "severe slowdown" }, { "0.25-0.5x", "significant slowdown" }, { "0.5-0.71x", "moderate slowdown" },
  { "0.71-1x", "minor slowdown" }, { "1-1.41x", "minor speedup" }, { "1.41-2x", "significant speedup" },
  { "2-4x", "high speedup" }, { ">4x", "extreme speedup" },
}

local function pct(x)
  return type(x) == "number" and string.format("%.0f%%", x * 100) or "?"
end

--- :KforecastShowForecast's float: the forecast of one kernel in words, rounded,
--- bins slowest first (the JSON stays in M.last_results for scripts).
---@param f table the server's answer to kforecast.showForecast
---@return string[]
function M.forecast_lines(f)
  if type(f) ~= "table" then
    return { tostring(f) }
  end
  local name = f.kernel and ("`" .. f.kernel .. "`") or "this kernel"
  if f.changed == false then
    return { "**kforecast** · " .. name .. " has no forecast: it is unchanged or new." }
  end
  local base = f.baseline or "the baseline"
  local s = type(f.speedup) == "number" and f.speedup or 1
  local claim
  if f.identical then
    claim = "the same kernel as " .. base
  elseif f.claim == "faster" then
    claim = string.format("≈%.1f× faster than %s", s, base)
  elseif f.claim == "slower" then
    claim = string.format("≈%.1f× slower than %s", 1 / math.max(s, 1e-9), base)
  else
    claim = string.format("same speed as %s (≈%.2f×)", base, s)
  end
  local lines = {
    string.format("**kforecast** · %s: %s", name, claim),
    "",
    string.format("%s likely %s (the hint's percentage) · P(faster) %s · point forecast S = %.2f",
      pct(f.confidence), f.claim == "same" and "the same speed (within ±15%)" or f.claim or "?", pct(f.p_faster), s),
  }
  if f.defer then
    lines[#lines + 1] = "Unsure: below the confidence threshold; :KforecastVerify measures it on a GPU."
  end
  lines[#lines + 1] = ""
  lines[#lines + 1] = "```text"
  lines[#lines + 1] = "S = t_before / t_after        probability"
  for i, bin in ipairs(BINS) do
    local p = type(f.bins) == "table" and f.bins[i] or 0
    lines[#lines + 1] = string.format("%-10s %-20s %4s %s", bin[1], bin[2], pct(p), string.rep("#", math.floor(p * 20 + 0.5)))
  end
  lines[#lines + 1] = "```"
  if type(f.reasons) == "table" and #f.reasons > 0 then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "**Why**"
    for _, r in ipairs(f.reasons) do
      lines[#lines + 1] = "- " .. tostring(r)
    end
  end
  if f.forecaster then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "_forecaster " .. tostring(f.forecaster) .. "_"
  end
  return lines
end

local function present(command, result, kernel)
  if command == M.commands.setBaseline then
    local count = type(result) == "table" and result.baselined or nil
    local what = kernel and ("`" .. kernel .. "`") or (type(count) == "number" and (count .. " kernel(s)") or "this file")
    notify("kforecast: baseline set for " .. what)
  elseif command == M.commands.showForecast then
    if result == nil or result == vim.NIL then
      return
    end
    local lines = M.forecast_lines(result)
    vim.lsp.util.open_floating_preview(lines, "markdown", { border = "rounded", title = "kforecast", focus_id = "kforecast_forecast" })
  elseif result ~= nil and result ~= vim.NIL then
    notify(command .. ": " .. vim.json.encode(result))
  end
end

---@class kforecast.ExecOpts
---@field bufnr? integer buffer (default: current)
---@field kernel? string|false kernel name; nil: the kernel under the cursor; false: none
---@field arguments? table server arguments as is (from a code lens)

--- Runs a server command on a buffer via workspace/executeCommand with
--- [{ uri = <buffer uri>, kernel = <name> }].
---@param command string one of M.commands
---@param opts kforecast.ExecOpts|nil
---@param on_done fun(err: table|nil, result: any)|nil
function M.exec(command, opts, on_done)
  opts = opts or {}
  local bufnr = (opts.bufnr == nil or opts.bufnr == 0) and vim.api.nvim_get_current_buf() or opts.bufnr
  local client = M.client(bufnr)
  if not client then
    local why = M.error or "kforecast is not attached to this buffer (a CUDA file, or a Python file with Triton kernels?)"
    notify(why .. " — see :checkhealth kforecast", vim.log.levels.ERROR)
    return
  end
  local arguments = opts.arguments
  local kernel = opts.kernel or nil
  if not arguments then
    if opts.kernel == nil and vim.api.nvim_get_current_buf() == bufnr then
      kernel = kernels.at(bufnr, vim.api.nvim_win_get_cursor(0)[1] - 1)
    end
    if not kernel and needs_kernel[command] then
      local names = {}
      for _, k in ipairs(kernels.find(bufnr)) do
        if not vim.tbl_contains(names, k.name) then
          names[#names + 1] = k.name
        end
      end
      if #names == 0 then
        notify("kforecast: no kernel found in this buffer", vim.log.levels.WARN)
        return
      elseif #names > 1 then
        vim.ui.select(names, { prompt = "Kernel: " }, function(choice)
          if choice then
            M.exec(command, vim.tbl_extend("force", opts, { bufnr = bufnr, kernel = choice }), on_done)
          end
        end)
        return
      end
      kernel = names[1]
    end
    local arg = { uri = vim.uri_from_bufnr(bufnr) }
    if kernel then
      arg.kernel = kernel
    end
    arguments = { arg }
  elseif type(arguments[1]) == "table" then
    kernel = arguments[1].kernel
  end
  M.jobs = M.jobs + 1
  request(client, "workspace/executeCommand", { command = command, arguments = arguments }, function(err, result)
    M.jobs = math.max(0, M.jobs - 1)
    M.last_results[command] = { err = err, result = result, kernel = kernel }
    if err then
      notify(string.format("kforecast: %s failed: %s", command, err.message or vim.inspect(err)), vim.log.levels.ERROR)
    else
      present(command, result, kernel)
    end
    if on_done then
      on_done(err, result)
    end
  end, bufnr)
end

function M.verify(opts)
  M.exec(M.commands.verify, opts)
end
function M.search(opts)
  M.exec(M.commands.search, opts)
end
function M.set_baseline(opts)
  M.exec(M.commands.setBaseline, opts)
end
function M.show_forecast(opts)
  M.exec(M.commands.showForecast, opts)
end

--- Changes settings at run time: validates them, and sends
--- workspace/didChangeConfiguration to every running kforecast client.
---@param settings kforecast.Settings
function M.update_settings(settings)
  if not M.options then
    error("kforecast: call require('kforecast').setup() first")
  end
  if config.workspace_source() and not M.options.trust_workspace_settings then
    settings = M._refuse(settings or {}, M.options.settings)
  end
  local merged = vim.tbl_extend("force", M.options.settings, settings or {})
  -- The `llm` and `search` tables are merged key by key too: update_settings({ llm = { weight = 0.3 } })
  -- keeps the endpoint.
  for _, key in ipairs({ "llm", "search" }) do
    local old, new = M.options.settings[key], (settings or {})[key]
    if type(old) == "table" and type(new) == "table" then
      merged[key] = vim.tbl_extend("force", old, new)
    end
  end
  M.options.settings = merged
  local problems
  M.server_settings, problems = config.server_settings(M.options.settings)
  M.problems = problems
  for _, p in ipairs(problems) do
    notify(p, vim.log.levels.WARN)
  end
  if has_011 then
    vim.lsp.config(M.name, { init_options = M.server_settings, settings = { kforecast = M.server_settings } })
  end
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  for _, client in ipairs(get({ name = M.name })) do
    client.settings = { kforecast = M.server_settings }
    if has_011 then
      client:notify("workspace/didChangeConfiguration", { settings = { kforecast = M.server_settings } })
    else
      client.notify("workspace/didChangeConfiguration", { settings = { kforecast = M.server_settings } })
    end
  end
end

--- Settings that send data or name secrets, given by workspace-local config (exrc,
--- .nvim.lua, a project's config file), are dropped with a warning naming them,
--- unless the user's own config set trust_workspace_settings = true (the caller
--- checks). `base` holds the values kept instead.
function M._refuse(settings, base)
  local source = config.workspace_source() or "?"
  local kept, refused = config.refuse_sensitive(settings, base or {})
  for _, name in ipairs(refused) do
    notify(string.format(
      "kforecast: ignored `%s` from workspace-local config %s: settings that send data or name secrets are taken only from your own config (set trust_workspace_settings = true there to allow it)",
      name, source), vim.log.levels.WARN)
  end
  M.refused = refused
  return kept
end

local function complete_kernels()
  local names = {}
  for _, k in ipairs(kernels.find(vim.api.nvim_get_current_buf())) do
    names[#names + 1] = k.name
  end
  return names
end

local function create_commands()
  local defs = {
    { "KforecastVerify", M.commands.verify, "kforecast: verify the kernel under the cursor on a GPU" },
    { "KforecastSearch", M.commands.search, "kforecast: search faster variants of the kernel under the cursor" },
    { "KforecastSetBaseline", M.commands.setBaseline, "kforecast: make the current text the baseline (kernel under the cursor, else the file)" },
    { "KforecastShowForecast", M.commands.showForecast, "kforecast: show the forecast of the kernel under the cursor" },
  }
  for _, d in ipairs(defs) do
    local name, command, desc = d[1], d[2], d[3]
    vim.api.nvim_create_user_command(name, function(o)
      M.exec(command, { kernel = o.args ~= "" and o.args or nil })
    end, { nargs = "?", complete = complete_kernels, desc = desc })
  end
end

--- Sets kforecast up. See :help kforecast-setup.
---@param opts kforecast.Options|nil
function M.setup(opts)
  opts = vim.deepcopy(opts or {})
  local previous = M.options
  if config.workspace_source() then
    -- A project's config cannot grant itself trust; the user's own config can.
    opts.trust_workspace_settings = previous ~= nil and previous.trust_workspace_settings == true
    if opts.settings and not opts.trust_workspace_settings then
      opts.settings = M._refuse(opts.settings, previous and previous.settings or config.defaults.settings)
    end
  end
  M.options = config.resolve(opts)
  local problems
  M.server_settings, problems = config.server_settings(M.options.settings)
  M.problems = problems
  for _, p in ipairs(problems) do
    notify(p, vim.log.levels.WARN)
  end

  local exe, err = config.find_server(M.options)
  M.error = err
  if exe then
    if M.options.cmd then
      M.cmd = vim.list_extend({ exe }, vim.list_slice(M.options.cmd, 2))
    else
      M.cmd = { exe, "lsp" }
    end
  else
    M.cmd = nil
  end

  -- Code lenses run these through the plugin, so that results are shown the same way.
  for _, command in pairs(M.commands) do
    vim.lsp.commands[command] = function(cmd, ctx)
      M.exec(command, { bufnr = ctx.bufnr, arguments = cmd.arguments })
    end
  end

  if M.options.commands then
    create_commands()
  end

  local group = vim.api.nvim_create_augroup("kforecast", { clear = true })

  if not M.cmd then
    -- Say it once, when a buffer kforecast would serve is opened.
    vim.api.nvim_create_autocmd("FileType", {
      group = group,
      pattern = M.options.filetypes,
      callback = function(ev)
        if M.wants(ev.buf) and not M._warned then
          M._warned = true
          notify(M.error, vim.log.levels.ERROR)
        end
      end,
    })
    return
  end

  if has_011 and vim.lsp.config and vim.lsp.enable then
    local cfg = client_config()
    cfg.root_dir = function(bufnr, on_dir)
      if M.wants(bufnr) then
        on_dir(root_for(bufnr))
      end
    end
    vim.lsp.config(M.name, cfg)
    vim.lsp.enable(M.name)
  else
    vim.api.nvim_create_autocmd("FileType", {
      group = group,
      pattern = M.options.filetypes,
      callback = function(ev)
        M.start(ev.buf)
      end,
    })
    for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(bufnr) then
        M.start(bufnr)
      end
    end
  end

  if vim.tbl_contains(M.options.filetypes, "python") then
    vim.api.nvim_create_autocmd("FileType", {
      group = group,
      pattern = "python",
      callback = function(ev)
        -- vim.lsp.enable's own FileType handler runs first; watch only what it left out.
        vim.schedule(function()
          if vim.api.nvim_buf_is_valid(ev.buf) and not M.client(ev.buf) then
            watch_python(ev.buf)
          end
        end)
      end,
    })
    for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].filetype == "python" and not M.client(bufnr) then
        watch_python(bufnr)
      end
    end
  end
end

return M

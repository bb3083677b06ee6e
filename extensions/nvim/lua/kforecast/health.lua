-- :checkhealth kforecast

local M = {}

local health = vim.health

function M.check()
  health.start("kforecast: Neovim")
  local v = vim.version()
  local version = string.format("%d.%d.%d", v.major, v.minor, v.patch)
  if vim.fn.has("nvim-0.11") == 1 then
    health.ok("Neovim " .. version .. " (vim.lsp.config / vim.lsp.enable)")
  elseif vim.fn.has("nvim-0.10") == 1 then
    health.ok("Neovim " .. version .. " (vim.lsp.start fallback; 0.11+ recommended)")
  else
    health.error("Neovim " .. version .. " is too old", { "kforecast needs Neovim 0.10 or newer (0.11+ recommended)" })
  end

  local kf = package.loaded["kforecast"]
  health.start("kforecast: setup")
  if not kf or not kf.options then
    health.warn("require('kforecast').setup() has not been called", { "Add require('kforecast').setup({}) to your config" })
    kf = require("kforecast")
  else
    health.ok("setup() called")
  end
  local config = require("kforecast.config")
  local opts = kf.options or config.resolve({})

  health.start("kforecast: server binary")
  local exe, err = config.find_server(opts)
  if not exe then
    health.error(err or "kforecast not found", {
      "cargo install --path server/kforecast (from a kforecast checkout)",
      "or require('kforecast').setup({ server_path = '/path/to/kforecast' })",
    })
  else
    local out = vim.fn.system({ exe, "--version" })
    if vim.v.shell_error == 0 then
      health.ok(string.format("%s (%s)", exe, vim.trim(out)))
    else
      health.error(string.format("%s --version failed: %s", exe, vim.trim(out)))
    end
  end

  health.start("kforecast: settings")
  local settings, problems = config.server_settings(opts.settings)
  if #problems == 0 then
    health.ok("settings are valid: " .. vim.json.encode(settings))
  else
    for _, p in ipairs(problems) do
      health.error(p)
    end
  end
  local unknown_ft = {}
  for _, ft in ipairs(opts.filetypes or {}) do
    if ft ~= "cuda" and ft ~= "python" then
      unknown_ft[#unknown_ft + 1] = ft
    end
  end
  if #unknown_ft > 0 then
    health.warn("filetypes the server does not know: " .. table.concat(unknown_ft, ", "))
  end
  if opts.inlay_hints and not vim.lsp.inlay_hint then
    health.warn("inlay hints need Neovim 0.10+")
  end

  health.start("kforecast: clients")
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local clients = get({ name = "kforecast" })
  if #clients == 0 then
    health.info("no kforecast client running (it starts with a CUDA buffer or a Python buffer with Triton kernels)")
  end
  for _, client in ipairs(clients) do
    local bufs = vim.tbl_keys(client.attached_buffers or {})
    local msg = string.format("client %d: root %s, %d buffer(s)", client.id, client.root_dir or "?", #bufs)
    local ok, res = pcall(function()
      if vim.fn.has("nvim-0.11") == 1 then
        return client:request_sync("kforecast/status", nil, 2000)
      end
      return client.request_sync("kforecast/status", nil, 2000)
    end)
    if ok and res and res.result then
      local s = res.result
      msg = msg .. string.format("; forecaster %s, device %s, %s job(s)", tostring(s.forecaster), tostring(s.device), tostring(s.jobs or 0))
    end
    health.ok(msg)
  end
end

return M

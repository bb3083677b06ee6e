-- Init file for the Neovim screenshot (extensions/nvim/test/screenshot.sh):
-- a plain dark Neovim with the kforecast plugin. Once the forecast inlay hint
-- and code lens of KERNEL show, it puts the cursor on the kernel's name, opens
-- the hover, and writes DONE_FILE so that the script takes the picture.
--
--   nvim -u screenshot.lua FILE   with $KF_ROOT, $KF_BIN, $KF_CACHE, $KF_KERNEL, $KF_DONE
local root = assert(vim.env.KF_ROOT, "KF_ROOT")
local bin = assert(vim.env.KF_BIN, "KF_BIN")
local kernel = vim.env.KF_KERNEL or "transpose"
local done_file = assert(vim.env.KF_DONE, "KF_DONE")

vim.opt.runtimepath:append(root .. "/extensions/nvim")
vim.o.termguicolors = true
vim.o.background = "dark"
vim.o.number = true
vim.o.signcolumn = "yes"
vim.o.cursorline = true
vim.o.laststatus = 2
vim.o.showmode = false
vim.o.swapfile = false
vim.o.shada = ""
vim.o.winborder = "rounded"
vim.cmd.syntax("on")

require("kforecast").setup({
  server_path = bin,
  -- Off by default; on here so that the picture shows the lens beside the hint.
  codelens = true,
  cmd_env = { KFORECAST_CACHE_DIR = vim.env.KF_CACHE },
  settings = { confidenceThreshold = 0.7, baselineMode = "git" },
})

local function kforecast_hints(bufnr)
  local out = {}
  for _, item in ipairs(vim.lsp.inlay_hint.get({ bufnr = bufnr })) do
    local client = vim.lsp.get_client_by_id(item.client_id)
    if client and client.name == "kforecast" then
      out[#out + 1] = item.inlay_hint
    end
  end
  return out
end

local function finish(msg)
  local f = assert(io.open(done_file, "w"))
  f:write(msg, "\n")
  f:close()
end

local started = vim.uv.now()
local timer = assert(vim.uv.new_timer())
timer:start(500, 250, vim.schedule_wrap(function()
  local bufnr = vim.api.nvim_get_current_buf()
  local hints = kforecast_hints(bufnr)
  local lenses = vim.lsp.codelens.get(bufnr)
  if #hints == 0 or #lenses == 0 then
    if vim.uv.now() - started > 60000 then
      timer:stop()
      finish("FAIL: no kforecast inlay hint / code lens after 60 s")
    end
    return
  end
  timer:stop()
  -- The cursor on the kernel's name (the line that starts with it), then the hover.
  for lnum, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line:find("^" .. kernel .. "%(") then
      vim.api.nvim_win_set_cursor(0, { lnum, 0 })
      break
    end
  end
  vim.fn.winrestview({ topline = 1 })
  vim.defer_fn(function()
    -- One row lower than usual, so that the line opening the body (the hint) stays in view.
    vim.lsp.buf.hover({ border = "rounded", max_width = 90, max_height = 40, offset_y = 1 })
    vim.defer_fn(function()
      finish("ok")
    end, 1500)
  end, 500)
end))

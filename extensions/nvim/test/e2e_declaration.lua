-- A case of extensions/nvim/test/e2e.lua (tests/nvim_e2e.sh), kept apart: called with
-- e2e.lua's workdir, plugin and helpers.
--
-- A kernel with no `kforecast:` declaration that Verify cannot build a job for: Verify is a
-- quick fix on a deferred forecast, its failure is one Warning, and the quick fix inserts a
-- filled-in declaration, after which Verify builds its job.
return function(t)
  local workdir, kf, log, check, wait_for, hints, sync_request =
    t.workdir, t.kf, t.log, t.check, t.wait_for, t.hints, t.sync_request
  log("== the declaration quick fix lets Verify build its job")
  local before = {
    "__global__ void scale(const float* x, float* y, float a, int n) {",
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;",
    "    if (i < n) y[i] = a * x[i] + 0.0f;",
    "}",
  }
  local path = workdir .. "/scale.cu"
  vim.fn.writefile(before, path)
  local git = { "git", "-C", workdir, "-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", "-c", "commit.gpgsign=false" }
  check(vim.system(vim.list_extend(vim.deepcopy(git), { "add", "scale.cu" })):wait().code == 0, "git add scale.cu")
  check(vim.system(vim.list_extend(vim.deepcopy(git), { "commit", "-q", "-m", "scale" })):wait().code == 0, "git commit scale.cu")

  -- Deferred at this threshold: Verify is the quick fix for an unsure forecast.
  kf.update_settings({ confidenceThreshold = 0.9999 })
  vim.cmd.edit(vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  local client = wait_for("the kforecast client to attach to scale.cu", function()
    local c = kf.client(bufnr)
    return c and c.initialized and c or nil
  end)
  vim.api.nvim_buf_set_lines(bufnr, 2, 3, false, { "    if (i < n) y[i] = a * x[i];" })
  wait_for("a hint on scale", function()
    return #hints(bufnr) > 0 or nil
  end)
  local uri = vim.uri_from_bufnr(bufnr)
  local at = { start = { line = 0, character = 0 }, ["end"] = { line = 0, character = 0 } }
  local actions = sync_request(client, "textDocument/codeAction", { textDocument = { uri = uri }, range = at, context = { diagnostics = {} } }, bufnr) or {}
  local verify
  for _, a in ipairs(actions) do
    verify = verify or (vim.startswith(a.title, "Verify") and a or nil)
  end
  check(verify ~= nil and verify.kind == "quickfix", "Verify on a deferred forecast is not a quick fix: %s", vim.inspect(actions))

  -- Verify cannot build a job: one Warning saying so.
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  kf.last_results[kf.commands.verify] = nil
  vim.cmd("KforecastVerify")
  local failed = wait_for(":KforecastVerify's answer", function()
    return kf.last_results[kf.commands.verify]
  end)
  check(failed.err ~= nil, "Verify built a job without a declaration: %s", vim.inspect(failed.result))
  local diag = wait_for("a missing-declaration diagnostic", function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.code == "missing-declaration" then
        return d
      end
    end
  end)
  check(diag.severity == vim.diagnostic.severity.WARN, "missing declaration is not a Warning: %s", vim.inspect(diag))
  local lsp_diag = diag.user_data and diag.user_data.lsp
  check(lsp_diag ~= nil, "the diagnostic carries no LSP data: %s", vim.inspect(diag))

  -- The quick fix, applied as `vim.lsp.buf.code_action()` applies it.
  actions = sync_request(client, "textDocument/codeAction", { textDocument = { uri = uri }, range = at, context = { diagnostics = { lsp_diag } } }, bufnr) or {}
  local fix
  for _, a in ipairs(actions) do
    fix = fix or (a.title == "Insert a `kforecast:` declaration for `scale`" and a or nil)
  end
  check(fix ~= nil, "no declaration quick fix: %s", vim.inspect(actions))
  check(fix.kind == "quickfix", "the declaration fix is of kind %s", tostring(fix.kind))
  vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
  local first = vim.api.nvim_buf_get_lines(bufnr, 0, 1, false)[1]
  check(vim.startswith(first, "// kforecast: x: f32[n]; y: f32[n]; a = 1.0; n = 1 << 20"), "inserted %q", first)
  log("  inserted: %s", first)

  -- Applied, Verify builds its job (it runs, or says there is no GPU here).
  local kernel_row
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    kernel_row = kernel_row or (line:find("__global__", 1, true) and i or nil)
  end
  vim.api.nvim_win_set_cursor(0, { kernel_row + 1, 0 })
  kf.last_results[kf.commands.verify] = nil
  vim.cmd("KforecastVerify")
  local started = wait_for(":KforecastVerify's answer after the fix", function()
    return kf.last_results[kf.commands.verify]
  end)
  check(started.err == nil and type(started.result) == "table" and started.result.started == true,
    "Verify did not build its job after the fix: %s", vim.inspect(started))
  kf.update_settings({ confidenceThreshold = 0.7 })
  vim.cmd("silent! bwipeout!")
end

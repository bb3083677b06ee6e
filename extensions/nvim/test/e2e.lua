-- End-to-end runner for tests/nvim_e2e.sh: drives the plugin in a real
-- headless Neovim against the real server.
--
--   nvim --clean --headless -l extensions/nvim/test/e2e.lua <repo> <server> <workdir> <cache>
--
-- <workdir> is a git repository whose HEAD holds the PREVIOUS fixture files;
-- each case opens one, replaces its text with the CURRENT version (an edit),
-- and checks the hint, code lenses, hover, code actions, commands, and that
-- :KforecastSetBaseline removes the hint. Exits 0 on success, 1 on failure.
--
-- KFORECAST_E2E_CODE_ACTIONS (JSON list of titles, "{kernel}" replaced by the
-- kernel's name) is the code-action list expected at a changed kernel.

local repo, server, workdir, cache = arg[1], arg[2], arg[3], arg[4]
assert(repo and server and workdir and cache, "usage: e2e.lua <repo> <server> <workdir> <cache>")

local TIMEOUT = tonumber(os.getenv("KFORECAST_E2E_TIMEOUT_MS") or "") or 30000
local EXPECTED_ACTIONS = vim.json.decode(os.getenv("KFORECAST_E2E_CODE_ACTIONS") or "[]")

local failures, passes = 0, 0
local messages = {} -- everything vim.notify showed

local function log(fmt, ...)
  io.stdout:write(string.format(fmt, ...) .. "\n")
  io.stdout:flush()
end

local function fail(fmt, ...)
  error({ kforecast_failure = string.format(fmt, ...) }, 0)
end

local function check(cond, fmt, ...)
  if not cond then
    fail(fmt, ...)
  end
end

local function wait_for(what, fn, timeout)
  local value
  local ok = vim.wait(timeout or TIMEOUT, function()
    value = fn()
    return value ~= nil and value ~= false
  end, 50)
  if not ok then
    fail("timed out after %d ms waiting for %s", timeout or TIMEOUT, what)
  end
  return value
end

local function read_lines(path)
  local f = assert(io.open(path, "r"), "cannot read " .. path)
  local text = f:read("*a")
  f:close()
  local lines = vim.split(text, "\n", { plain = true })
  if lines[#lines] == "" then
    table.remove(lines)
  end
  return lines
end

local function label_text(hint)
  local label = hint.label
  if type(label) == "string" then
    return label
  end
  local parts = {}
  for _, part in ipairs(label or {}) do
    parts[#parts + 1] = part.value or ""
  end
  return table.concat(parts)
end

local function hints(bufnr)
  local out = {}
  for _, item in ipairs(vim.lsp.inlay_hint.get({ bufnr = bufnr })) do
    local client = vim.lsp.get_client_by_id(item.client_id)
    if client and client.name == "kforecast" then
      out[#out + 1] = { line = item.inlay_hint.position.line, col = item.inlay_hint.position.character, text = label_text(item.inlay_hint) }
    end
  end
  return out
end

local function describe_hints(list)
  local parts = {}
  for _, h in ipairs(list) do
    parts[#parts + 1] = string.format("line %d: %q", h.line + 1, h.text)
  end
  return #parts == 0 and "(none)" or table.concat(parts, "; ")
end

local function sync_request(client, method, params, bufnr)
  local res, err = client:request_sync(method, params, TIMEOUT, bufnr)
  check(res ~= nil, "%s: no answer (%s)", method, tostring(err))
  check(res.err == nil, "%s failed: %s", method, vim.inspect(res.err))
  return res.result
end

--- Asks the server directly (not the display cache) for the whole buffer's hints.
local function server_hints(client, bufnr)
  local n = vim.api.nvim_buf_line_count(bufnr)
  local result = sync_request(client, "textDocument/inlayHint", {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = 0, character = 0 }, ["end"] = { line = n, character = 0 } },
  }, bufnr) or {}
  local out = {}
  for _, h in ipairs(result) do
    out[#out + 1] = { line = h.position.line, text = label_text(h) }
  end
  return out
end

-- ---------------------------------------------------------------------------

vim.opt.runtimepath:prepend(repo .. "/extensions/nvim")
vim.cmd("filetype on")
vim.o.swapfile = false
vim.o.shortmess = vim.o.shortmess .. "F"

vim.notify = function(msg, level, opts)
  messages[#messages + 1] = { msg = tostring(msg), level = level }
  log("  [notify %s] %s", tostring(level), tostring(msg))
end

local kf = require("kforecast")
kf.setup({
  server_path = server,
  -- Off by default; on here to check that it says what the hint says, while typing too.
  codelens = true,
  cmd_env = { KFORECAST_CACHE_DIR = cache, KFORECAST_LOG = os.getenv("KFORECAST_LOG") or "info" },
  -- Every server setting at its default (the server must take them all without complaint).
  settings = {
    confidenceThreshold = 0.7, baselineMode = "git", verifyTimeout = 120, learnFromMeasurements = true,
    llm = { endpoint = "", model = "", apiKeyEnv = "KFORECAST_LLM_API_KEY", timeoutMs = 30000, maxConcurrency = 4, retries = 2, weight = 0.5, rewrites = 2 },
    search = { budget = 8, seed = 0 },
  },
})
check(kf.cmd ~= nil, "setup() found no server: %s", tostring(kf.error))
check(#kf.problems == 0, "setup() reported setting problems: %s", table.concat(kf.problems, "; "))

local function case(spec)
  log("== %s", spec.name)
  local path = workdir .. "/" .. spec.file
  vim.cmd.edit(vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  check(vim.bo[bufnr].filetype == spec.filetype, "filetype of %s is %q, expected %q", spec.file, vim.bo[bufnr].filetype, spec.filetype)

  local client = wait_for("the kforecast client to attach to " .. spec.file, function()
    local c = kf.client(bufnr)
    return c and c.initialized and c or nil
  end)
  log("  attached: client %d, root %s", client.id, tostring(client.root_dir))
  check(
    vim.lsp.inlay_hint.is_enabled({ bufnr = bufnr }),
    "inlay hints are not enabled in the buffer"
  )

  -- Unchanged file (same as HEAD): the server has no hint for it.
  check(#server_hints(client, bufnr) == 0, "expected no hint before the edit, got %s", describe_hints(server_hints(client, bufnr)))

  -- The edit: replace the buffer with the current version, like a user would.
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, read_lines(spec.new_text))
  local kernel_line
  for _, k in ipairs(require("kforecast.kernels").find(bufnr)) do
    if k.name == spec.kernel then
      kernel_line = k
    end
  end
  check(kernel_line ~= nil, "the plugin's kernel finder did not find %s", spec.kernel)
  local name_row
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if not name_row and line:match(spec.name_pattern) then
      name_row = i - 1
    end
  end
  check(name_row ~= nil, "no line matches %q", spec.name_pattern)

  local hint = wait_for("an inlay hint containing " .. spec.expect, function()
    for _, h in ipairs(hints(bufnr)) do
      if h.text:find(spec.expect, 1, true) then
        return h
      end
    end
  end)
  log("  hint at line %d: %s", hint.line + 1, hint.text)
  check(
    hint.line >= name_row and hint.line <= math.min(name_row + 3, kernel_line.end_line),
    "hint is on line %d, expected on %s's signature (from line %d)",
    hint.line + 1,
    spec.kernel,
    name_row + 1
  )
  check(hint.text:match("^≈%d+%.%d+× ") ~= nil, "hint %q does not look like `≈N.N× faster · NN%%`", hint.text)
  check(hint.text:match("· %d+%%") ~= nil, "hint %q has no confidence", hint.text)
  -- Placed after the body's opener (`{` or `:`), at the end of its line: never inside code.
  local hint_line = vim.api.nvim_buf_get_lines(bufnr, hint.line, hint.line + 1, false)[1]
  check(hint.col == #vim.trim(hint_line) + #hint_line:match("^%s*") and hint_line:match("[{:]%s*$") ~= nil,
    "hint at column %d of %q: expected at the end of the line that opens the body", hint.col, hint_line)

  -- Code lenses above the kernel.
  local uri = vim.uri_from_bufnr(bufnr)
  local lenses = sync_request(client, "textDocument/codeLens", { textDocument = { uri = uri } }, bufnr) or {}
  local lens_titles = {}
  for _, l in ipairs(lenses) do
    lens_titles[#lens_titles + 1] = l.command and l.command.title or "?"
  end
  local has_lens = false
  for _, t in ipairs(lens_titles) do
    has_lens = has_lens or vim.startswith(t, "kforecast:")
  end
  check(has_lens, "no code lens titled `kforecast: …`; got %s", vim.inspect(lens_titles))
  log("  code lenses: %s", table.concat(lens_titles, " | "))
  -- The lens says the hint's words, and is refreshed while typing (TextChangedI), not only
  -- on leaving insert mode.
  local want = "kforecast: " .. hint.text .. " vs HEAD"
  check(vim.tbl_contains(lens_titles, want), "no lens %q: %s", want, vim.inspect(lens_titles))
  check(#vim.api.nvim_get_autocmds({ group = "kforecast_codelens_" .. bufnr, event = "TextChangedI" }) > 0,
    "the lens is not refreshed while typing")
  vim.api.nvim_exec_autocmds("TextChangedI", { buffer = bufnr })
  wait_for("the displayed lens to agree with the hint", function()
    for _, l in ipairs(vim.lsp.codelens.get(bufnr)) do
      if l.command and l.command.title == want then
        return true
      end
    end
  end)

  -- Hover on the kernel name.
  local col = vim.api.nvim_buf_get_lines(bufnr, name_row, name_row + 1, false)[1]:find(spec.kernel, 1, true) - 1
  local hover = sync_request(client, "textDocument/hover", {
    textDocument = { uri = uri },
    position = { line = name_row, character = col },
  }, bufnr)
  local hover_text = hover and hover.contents and (hover.contents.value or vim.inspect(hover.contents)) or ""
  check(hover_text:find(spec.kernel, 1, true) ~= nil, "hover does not name %s: %q", spec.kernel, hover_text)
  check(hover_text:find("```text", 1, true) ~= nil and hover_text:find("|", 1, true) == nil,
    "hover's bins are not a text block (Neovim renders no markdown table): %q", hover_text)
  check(hover_text:find("likely faster%*%* than HEAD") ~= nil, "hover does not say what the percentage is: %q", hover_text)
  local block = hover_text:match("```text\n(.-)```") or ""
  check(block:find("severe slowdown", 1, true) < block:find("extreme speedup", 1, true), "bins not slowest first: %s", block)

  -- Code actions at the kernel: exactly the expected list (KFORECAST_E2E_CODE_ACTIONS).
  local titles = {}
  if client:supports_method("textDocument/codeAction", bufnr) then
    local actions = sync_request(client, "textDocument/codeAction", {
      textDocument = { uri = uri },
      range = { start = { line = name_row, character = col }, ["end"] = { line = name_row, character = col } },
      context = { diagnostics = {} },
    }, bufnr) or {}
    local kinds = {}
    for _, a in ipairs(actions) do
      titles[#titles + 1] = a.title
      kinds[a.title:match("^%a+")] = a.kind
    end
    check(kinds.Verify == "" and kinds.Set == "source" and kinds.Search == "refactor.rewrite",
      "code action kinds: %s", vim.inspect(kinds))
  end
  local expected = {}
  for _, t in ipairs(EXPECTED_ACTIONS) do
    expected[#expected + 1] = (t:gsub("{kernel}", spec.kernel))
  end
  table.sort(titles)
  table.sort(expected)
  check(vim.deep_equal(titles, expected), "code actions at %s: got %s, expected %s", spec.kernel, vim.inspect(titles), vim.inspect(expected))
  log("  code actions: %s", #titles == 0 and "(none)" or table.concat(titles, " | "))

  -- :KforecastShowForecast with the cursor inside the kernel.
  vim.api.nvim_win_set_cursor(0, { kernel_line.end_line + 1, 0 })
  kf.last_results[kf.commands.showForecast] = nil
  vim.cmd("KforecastShowForecast")
  local shown = wait_for(":KforecastShowForecast's answer", function()
    return kf.last_results[kf.commands.showForecast]
  end)
  check(shown.err == nil, ":KforecastShowForecast failed: %s", vim.inspect(shown.err))
  check(shown.kernel == spec.kernel, ":KforecastShowForecast asked for %s, expected %s", tostring(shown.kernel), spec.kernel)
  check(type(shown.result) == "table", ":KforecastShowForecast returned %s", vim.inspect(shown.result))
  local shown_lines = kf.forecast_lines(shown.result)
  log("  show forecast: %s", table.concat(shown_lines, " / "):sub(1, 200))
  check(shown_lines[1]:find("**kforecast** · `" .. spec.kernel .. "`: ≈", 1, true) == 1, "show forecast: %q", shown_lines[1])
  -- Its own figures are rounded (the reasons and the forecaster's id are the server's words).
  local figures = table.concat(vim.list_slice(shown_lines, 1, 15), "\n")
  check(not figures:find("%d%.%d%d%d"), "show forecast has unrounded numbers: %s", figures)

  -- :KforecastVerify is wired: an answer or the server's error, reported to the user.
  kf.last_results[kf.commands.verify] = nil
  local notified = #messages
  vim.cmd("KforecastVerify")
  local verified = wait_for(":KforecastVerify's answer", function()
    return kf.last_results[kf.commands.verify]
  end)
  if verified.err then
    local reported = false
    for i = notified + 1, #messages do
      reported = reported or messages[i].msg:find("kforecast.verify", 1, true) ~= nil
    end
    check(reported, ":KforecastVerify's error was not shown to the user")
  end

  -- A settings change reaches the server (workspace/didChangeConfiguration) and the hint follows it.
  if spec.unsure_threshold then
    kf.update_settings({ confidenceThreshold = spec.unsure_threshold })
    local unsure = wait_for("the hint to end in `· unsure` at confidenceThreshold " .. spec.unsure_threshold, function()
      for _, h in ipairs(hints(bufnr)) do
        if h.line == hint.line and vim.endswith(h.text, "· unsure") then
          return h
        end
      end
    end)
    log("  at threshold %.2f: %s", spec.unsure_threshold, unsure.text)
    kf.update_settings({ confidenceThreshold = 0.7 })
    wait_for("the hint to be confident again at threshold 0.7", function()
      for _, h in ipairs(hints(bufnr)) do
        if h.line == hint.line and not h.text:find("unsure", 1, true) then
          return true
        end
      end
    end)
  end

  -- :KforecastSetBaseline with the cursor on the kernel: the hint goes away.
  vim.api.nvim_win_set_cursor(0, { name_row + 1, col })
  kf.last_results[kf.commands.setBaseline] = nil
  vim.cmd("KforecastSetBaseline")
  local set = wait_for(":KforecastSetBaseline's answer", function()
    return kf.last_results[kf.commands.setBaseline]
  end)
  check(set.err == nil, ":KforecastSetBaseline failed: %s", vim.inspect(set.err))
  check(set.kernel == spec.kernel, ":KforecastSetBaseline targeted %s, expected %s", tostring(set.kernel), spec.kernel)
  wait_for("the hint on " .. spec.kernel .. " to disappear after :KforecastSetBaseline", function()
    for _, h in ipairs(hints(bufnr)) do
      if h.line >= name_row and h.line <= kernel_line.end_line then
        return false
      end
    end
    return true
  end)
  local left = {}
  for _, h in ipairs(server_hints(client, bufnr)) do
    if h.line >= name_row and h.line <= kernel_line.end_line then
      left[#left + 1] = h
    end
  end
  check(#left == 0, "the server still has a hint on %s after :KforecastSetBaseline: %s", spec.kernel, describe_hints(left))
  log("  after :KforecastSetBaseline: %s", describe_hints(hints(bufnr)))
  vim.cmd("silent! bwipeout!")
end

local function gating_case()
  log("== python without a kernel is left alone (a comment saying triton is not one), then attached once it holds one")
  local path = workdir .. "/plain.py"
  vim.cmd.edit(vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  check(vim.bo[bufnr].filetype == "python", "plain.py has filetype %q", vim.bo[bufnr].filetype)
  vim.wait(500)
  check(kf.client(bufnr) == nil, "kforecast attached to a Python file without triton")
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { "import triton  # soon a @triton.jit kernel" })
  vim.wait(500)
  check(kf.client(bufnr) == nil, "kforecast attached to a Python file whose only kernel is in a comment")
  vim.api.nvim_buf_set_lines(bufnr, 1, 1, false, { "@triton.jit", "def k(x_ptr):", "    pass" })
  wait_for("kforecast to attach once the buffer holds a kernel", function()
    return kf.client(bufnr)
  end)
  vim.cmd("silent! bwipeout!")
end

local function unit_case()
  log("== settings validation and kernel finder")
  local config = require("kforecast.config")
  local settings, problems = config.server_settings(config.resolve({
    settings = {
      baselineMode = "open",
      gpuWorkers = { { url = "http://gpu:7070", token = "t" }, "http://other:7070" },
      llm = { endpoint = "http://localhost:8000/v1", model = "m", apiKeyEnv = "KEY", timeoutMs = 5000, maxConcurrency = 2, retries = 0, weight = 0.3 },
      search = { budget = 16, seed = 3 },
      learnFromMeasurements = false,
      verifyTimeout = 300,
      maxFileSize = 4096,
    },
  }).settings)
  check(#problems == 0, "valid settings reported: %s", table.concat(problems, "; "))
  check(vim.deep_equal(settings, {
    confidenceThreshold = 0.7,
    baselineMode = "open",
    device = "NVIDIA H100",
    maxFileSize = 4096,
    gpuWorkers = { { url = "http://gpu:7070", token = "t" }, { url = "http://other:7070" } },
    llm = { endpoint = "http://localhost:8000/v1", model = "m", apiKeyEnv = "KEY", timeoutMs = 5000, maxConcurrency = 2, retries = 0, weight = 0.3 },
    search = { budget = 16, seed = 3 },
    learnFromMeasurements = false,
    verifyTimeout = 300,
    autoVerify = false,
  }), "settings mapped to %s", vim.inspect(settings))
  check(vim.json.encode(config.server_settings({ gpuWorkers = {} }).gpuWorkers) == "[]", "empty gpuWorkers must encode as []")
  local _, bad = config.server_settings({
    confidenceThreshold = 1.5, baselineMode = "HEAD", device = " ", maxFileSize = 10,
    gpuWorkers = { { token = "x" } }, llmEndpoint = { url = "u" }, autoVerify = "yes", searchBudget = 0, typo = 1,
    learnFromMeasurements = 1, verifyTimeout = 3601, llm = { weight = "high" }, search = { seed = -1 },
  })
  for _, key in ipairs({
    "confidenceThreshold", "baselineMode", "device", "maxFileSize", "gpuWorkers[1]", "llmEndpoint", "autoVerify", "searchBudget", "typo",
    "learnFromMeasurements", "verifyTimeout", "llm.weight", "search.seed",
  }) do
    local found = false
    for _, p in ipairs(bad) do
      found = found or p:find("kforecast." .. key, 1, true) ~= nil
    end
    check(found, "no problem reported for %s: %s", key, table.concat(bad, " | "))
  end
  -- Every setting the server accepts (parsed from its source), with its type and range.
  dofile(repo .. "/extensions/nvim/test/settings_spec.lua").run(repo, check)

  local k = require("kforecast.kernels")
  local cuda = {
    "// __global__ void commented(int x) {}",
    "__global__ void declared(float* x);",
    "template <int N>",
    "__global__ void __launch_bounds__(256, 2)",
    "templated(float* __restrict__ x, int n)",
    "{",
    "    if (n) { x[0] = N; }",
    "}",
    "static __global__ void other(void) { }",
  }
  check(vim.deep_equal(k.find_cuda(cuda), {
    { name = "templated", start_line = 3, end_line = 7 },
    { name = "other", start_line = 8, end_line = 8 },
  }), "CUDA kernels: %s", vim.inspect(k.find_cuda(cuda)))
  local py = {
    "import triton",
    "@triton.autotune(",
    "    configs=[triton.Config({'BLOCK': 64})],",
    "    key=['n'],",
    ")",
    "@triton.jit",
    "def k(x_ptr,",
    "      n):",
    '    """def not_a_kernel():"""',
    "    if n:",
    "",
    "        pass",
    "def host():",
    "    pass",
  }
  check(vim.deep_equal(k.find_triton(py), { { name = "k", start_line = 1, end_line = 11 } }), "Triton kernels: %s", vim.inspect(k.find_triton(py)))
  local names = {}
  for _, file in ipairs({ "elementwise", "reduction", "matmul", "softmax", "transpose" }) do
    for _, kern in ipairs(k.find_cuda(read_lines(repo .. "/test-workspaces/cuda/src/" .. file .. ".cu"))) do
      names[#names + 1] = kern.name
    end
  end
  for _, want in ipairs({ "saxpy", "scale", "relu", "reduce_sum", "sgemm", "softmax_rows", "transpose" }) do
    check(vim.tbl_contains(names, want), "kernel finder missed %s (found %s)", want, table.concat(names, ", "))
  end
  local mm = k.find_triton(read_lines(repo .. "/test-workspaces/triton/kernels/matmul.py"))
  check(#mm == 1 and mm[1].name == "matmul_kernel", "Triton matmul kernels: %s", vim.inspect(mm))
end

local cases = {
  {
    name = "CUDA: transpose.cu",
    file = "src/transpose.cu",
    new_text = repo .. "/test-workspaces/cuda/src/transpose.cu",
    filetype = "cuda",
    kernel = "transpose",
    name_pattern = "^transpose%(",
    expect = "faster",
  },
  {
    name = "Triton: kernels/matmul.py",
    file = "kernels/matmul.py",
    new_text = repo .. "/test-workspaces/triton/kernels/matmul.py",
    filetype = "python",
    kernel = "matmul_kernel",
    name_pattern = "^def matmul_kernel%(",
    expect = "faster",
    unsure_threshold = 0.99,
  },
}

local function run(fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then
    passes = passes + 1
    log("  ok")
  else
    failures = failures + 1
    local msg = type(err) == "table" and err.kforecast_failure or tostring(err)
    log("  FAIL: %s", msg)
    vim.cmd("silent! bwipeout!")
  end
end

run(unit_case)
for _, spec in ipairs(cases) do
  run(case, spec)
end
run(gating_case)
run(dofile(repo .. "/extensions/nvim/test/e2e_declaration.lua"), {
  workdir = workdir, kf = kf, log = log, check = check, wait_for = wait_for, hints = hints, sync_request = sync_request,
})
run(function()
  log("== workspace-local config cannot set what sends data or names secrets")
  local project = vim.fn.tempname()
  vim.fn.mkdir(project, "p")
  local exrc = project .. "/.nvim.lua"
  vim.fn.writefile({
    "require('kforecast').update_settings({",
    "  confidenceThreshold = 0.7,",
    "  llm = { endpoint = 'https://evil.example/v1', apiKeyEnv = 'AWS_SECRET_ACCESS_KEY' },",
    "  gpuWorkers = { { url = 'https://evil.example:7878', tokenEnv = 'GITHUB_TOKEN' } },",
    "  autoVerify = true,",
    "})",
  }, exrc)
  local before = #messages
  dofile(exrc)
  for _, name in ipairs({ "llm.endpoint", "llm.apiKeyEnv", "gpuWorkers", "autoVerify" }) do
    local warned = false
    for i = before + 1, #messages do
      warned = warned or (messages[i].msg:find("`" .. name .. "` from workspace-local config " .. exrc, 1, true) ~= nil)
    end
    check(warned, "no warning naming %s: %s", name, vim.inspect(vim.list_slice(messages, before + 1)))
  end
  local s = kf.options.settings
  check(s.llm.endpoint == "" and s.autoVerify == false and #s.gpuWorkers == 0, "refused settings were taken: %s", vim.inspect(s))
  check(s.confidenceThreshold == 0.7, "an ordinary setting was refused")
  -- The user opts in from their own config (this file), and the same project file is taken.
  kf.options.trust_workspace_settings = true
  vim.fn.writefile({ "require('kforecast').update_settings({ llm = { apiKeyEnv = 'MY_KEY' } })" }, exrc)
  dofile(exrc)
  check(kf.options.settings.llm.apiKeyEnv == "MY_KEY", "trusted workspace setting refused: %s", vim.inspect(kf.options.settings.llm))
  kf.options.trust_workspace_settings = false
  kf.update_settings({ llm = { apiKeyEnv = "KFORECAST_LLM_API_KEY" } })
end)
run(function()
  log("== the server took the settings")
  -- update_settings merges the llm table key by key.
  kf.update_settings({ llm = { weight = 0.4 } })
  check(kf.options.settings.llm.endpoint == "" and kf.options.settings.llm.weight == 0.4, "llm merged to %s", vim.inspect(kf.options.settings.llm))
  check(#kf.problems == 0, "update_settings reported %s", table.concat(kf.problems, "; "))
  local client = vim.lsp.get_clients({ name = "kforecast" })[1]
  if client then
    local status = sync_request(client, "kforecast/status", nil)
    check(status and (status.llm == nil or status.llm == vim.NIL), "the LLM surrogate is on: %s", vim.inspect(status))
  end
  for _, m in ipairs(messages) do
    check(not (m.msg:find("setting `kforecast.", 1, true)), "the server refused a setting: %s", m.msg)
  end
end)

local get = vim.lsp.get_clients
for _, c in ipairs(get({ name = "kforecast" })) do
  c:stop()
end
vim.wait(2000, function()
  return #get({ name = "kforecast" }) == 0
end, 50)

log("nvim_e2e: %d passed, %d failed", passes, failures)
os.exit(failures == 0 and 0 or 1)

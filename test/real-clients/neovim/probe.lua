-- Drives the HERALD language server from headless Neovim (0.7+) through Neovim's own LSP client:
-- opens a spec, waits for the pushed diagnostics, asks for a hover, and writes what the editor
-- saw as JSON. Neovim 0.7 has no pull diagnostics, so this exercises the server's push path.
-- Run by neovim.e2e.ts: nvim --headless --clean -u NONE -c 'luafile probe.lua', with
-- HERALD_PROBE pointing at a JSON file: { server, node, root, spec, result, log, hover, timeoutMs },
-- and optionally waitForCode / auditTimeoutMs: wait until a diagnostic with that code is shown (the
-- audit's findings come in a later push than the checker's).

local config = vim.fn.json_decode(table.concat(vim.fn.readfile(os.getenv('HERALD_PROBE')), '\n'))
local started = vim.loop.hrtime()
local log_lines = {}

local function log(message)
  local ms = math.floor((vim.loop.hrtime() - started) / 1e6)
  table.insert(log_lines, string.format('[%6d ms] %s', ms, message))
end

local function run()
  local result = { nvim = tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch, published = {} }
  local client_exited = false
  -- The RPC trace goes to vim.lsp.get_log_path(), which the test points under test-output/neovim/xdg.
  vim.lsp.set_log_level('debug')

  -- Neovim's own defaults (what start_client sends when given none). 0.7 declares no
  -- textDocument.diagnostic, so the server must push; 0.10+ declares pull, and is made to send
  -- what 0.7 sends so that this probe proves the push path on any version.
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  result.defaultsDeclarePull = capabilities.textDocument.diagnostic ~= nil
  capabilities.textDocument.diagnostic = nil
  local client_id = vim.lsp.start_client({
    name = 'herald',
    capabilities = capabilities,
    cmd = { config.node, config.server, '--stdio' },
    root_dir = config.root,
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, params, ctx, handler_config)
        log('publishDiagnostics ' .. vim.fn.json_encode(params))
        table.insert(result.published, params)
        return vim.lsp.diagnostic.on_publish_diagnostics(err, params, ctx, handler_config)
      end,
    },
    on_exit = function(code, signal)
      log(string.format('server exited: code %s, signal %s', code, signal))
      client_exited = true
    end,
  })
  assert(client_id, 'vim.lsp.start_client returned nil')
  log('started client ' .. client_id .. ': ' .. table.concat({ config.node, config.server, '--stdio' }, ' ')
    .. '; Neovim ' .. result.nvim .. ' declares pull diagnostics by default: ' .. tostring(result.defaultsDeclarePull))

  vim.cmd('edit ' .. vim.fn.fnameescape(config.spec))
  local bufnr = vim.api.nvim_get_current_buf()
  -- Neovim sends the buffer's filetype as the languageId of didOpen.
  vim.bo[bufnr].filetype = 'reward'
  local uri = vim.uri_from_bufnr(bufnr)
  assert(vim.lsp.buf_attach_client(bufnr, client_id), 'buf_attach_client failed')
  log('attached ' .. uri)

  local function published_for_buffer()
    for _, params in ipairs(result.published) do
      if params.uri == uri then return true end
    end
    return false
  end
  result.diagnosticsArrived = vim.wait(config.timeoutMs, published_for_buffer, 20)
  log('diagnostics arrived: ' .. tostring(result.diagnosticsArrived))
  if config.waitForCode then
    local function shown()
      for _, d in ipairs(vim.diagnostic.get(bufnr)) do
        if (d.code or ((d.user_data or {}).lsp or {}).code) == config.waitForCode then return true end
      end
      return false
    end
    result.awaitedCodeShown = vim.wait(config.auditTimeoutMs, shown, 50)
    log(config.waitForCode .. ' shown: ' .. tostring(result.awaitedCodeShown))
  end

  -- What the editor stores and shows (0-based lines and columns).
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(result.diagnostics, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, message = d.message, source = d.source,
      code = d.code, user_data_code = lsp.code,
    })
    log(string.format('diagnostic %d:%d-%d:%d severity %d [%s] %s',
      d.lnum, d.col, d.end_lnum, d.end_col, d.severity, tostring(d.code or lsp.code), d.message))
  end

  local params = { textDocument = { uri = uri }, position = config.hover }
  local responses, err = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, config.timeoutMs)
  local response = responses and responses[client_id]
  if response == nil then
    result.hoverError = 'no hover response: ' .. tostring(err)
  elseif response.err then
    result.hoverError = vim.fn.json_encode(response.err)
  elseif response.result then
    -- What Neovim would render in the hover window.
    local lines = vim.lsp.util.convert_input_to_markdown_lines(response.result.contents)
    result.hover = table.concat(vim.lsp.util.trim_empty_lines(lines), '\n')
    result.hoverRange = response.result.range
    result.hoverKind = response.result.contents.kind
  end
  -- JSON-encoded: writefile would turn the newlines inside one log line into NULs.
  log('hover at ' .. vim.fn.json_encode(config.hover) .. ': ' .. vim.fn.json_encode(result.hover or result.hoverError))

  vim.lsp.stop_client(client_id)
  result.serverStopped = vim.wait(config.timeoutMs, function() return client_exited end, 20)
  log('server stopped: ' .. tostring(result.serverStopped))
  return result
end

local ok, outcome = xpcall(run, debug.traceback)
if not ok then
  log('probe failed: ' .. tostring(outcome))
  outcome = { probeError = tostring(outcome) }
end
vim.fn.writefile({ vim.fn.json_encode(outcome) }, config.result)
vim.fn.writefile(log_lines, config.log)
vim.cmd(ok and 'qa!' or 'cq!')

-- Drives `cudalint lsp` from Neovim's built-in client (0.7 API):
-- opens a file, waits for the diagnostics, applies the swapped-axes fix
-- through a code action, checks the buffer, and waits for the fixed
-- buffer's diagnostics to clear. Exits 0 on success, 1 with a reason.
-- CUDALINT_BIN and CUDALINT_FILE come from the environment.
local function fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  os.exit(1)
end

local bin, file = os.getenv('CUDALINT_BIN'), os.getenv('CUDALINT_FILE')
if not bin or not file then fail('CUDALINT_BIN and CUDALINT_FILE must be set') end

vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = 'cudalint',
  cmd = { bin, 'lsp' },
  root_dir = vim.fn.fnamemodify(file, ':h'),
})
if not client_id then fail('the client did not start') end
vim.lsp.buf_attach_client(buf, client_id)
local client = vim.lsp.get_client_by_id(client_id)

local function swapped()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    if lsp.code == 'swapped-axes' then return d, lsp end
  end
end
if not vim.wait(20000, function() return swapped() ~= nil end, 50) then
  fail('no swapped-axes diagnostic; got ' .. vim.inspect(vim.diagnostic.get(buf)))
end
local d, lspdiag = swapped()
if d.source ~= 'cudalint' then fail('source ' .. tostring(d.source)) end

local params = {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
  context = { diagnostics = { lspdiag } },
}
local resp = client.request_sync('textDocument/codeAction', params, 10000, buf)
if not resp or resp.err then fail('codeAction: ' .. vim.inspect(resp)) end
local fix
for _, a in ipairs(resp.result or {}) do
  if a.kind == 'quickfix' and a.isPreferred then fix = a end
end
if not fix then fail('no preferred quickfix in ' .. vim.inspect(resp.result)) end
vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16')

local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local want = {
  [9] = '    int row = blockIdx.y * blockDim.y + threadIdx.y;',
  [10] = '    int col = blockIdx.x * blockDim.x + threadIdx.x;',
}
for n, text in pairs(want) do
  if lines[n] ~= text then fail(('line %d is %q, want %q'):format(n, lines[n] or '', text)) end
end

-- The edit reaches the server as didChange: the fixed buffer is clean.
if not vim.wait(20000, function() return #vim.diagnostic.get(buf) == 0 end, 50) then
  fail('diagnostics after the fix: ' .. vim.inspect(vim.diagnostic.get(buf)))
end
client.stop()
vim.wait(5000, function() return client.is_stopped() end, 50)
io.stdout:write('ok: swapped-axes fixed through a code action\n')
os.exit(0)

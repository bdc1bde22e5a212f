"""The language server (``katari lsp``): see :mod:`runner.lsp.server`; the analysis it serves
(files of a story, diagnostics, ids and where they are used) is :mod:`runner.lsp.index`."""

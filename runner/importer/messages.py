"""One-line answers to bad input, in Japanese (the default) and English.

The language is the console's (``KATARI_LANG``, see :func:`runner.ui.i18n.default_lang`)."""

from __future__ import annotations

_TEXT: dict[str, dict[str, str]] = {
    "ja": {
        "missing": "{path}: ファイルがありません。",
        "not_file": "{path}: ファイルではありません（フォルダなど）。シナリオの .txt / .md / .html を指定してください。",
        "unreadable": "{path}: 読めません（{why}）。",
        "too_big": "{path}: 大きすぎます（{size}）。読み込めるのは {limit} までです。シナリオ本文だけを保存したファイルを指定してください。",
        "empty": "{path}: 空のファイルです。",
        "binary": "{path}: テキストではありません（画像・PDF・Word などのバイナリ）。本文をテキストか HTML で保存してから読み込んでください。",
        "encoding": "{path}: 文字コードを判別できません（UTF-8 と Shift_JIS のどちらでもありません）。",
        "not_scenario": "{path}: シナリオとして読める箇所が見つかりません（判定・正気度ロール・探索箇所・エンディングのどれもありません）。",
        "out_exists": "{path}: すでにファイルがあります。別の出力先を -o で指定するか、--force で上書きしてください。",
        "out_file": "{path}: 出力先がファイルです。フォルダ名を -o で指定してください。",
        "write_failed": "{path}: 書き込めません（{why}）。",
        "bad_rules": "ルール {rules!r} には対応していません。対応しているのは {known} です。",
    },
    "en": {
        "missing": "{path}: no such file.",
        "not_file": "{path}: not a file (a folder?). Give a scenario .txt, .md or .html file.",
        "unreadable": "{path}: cannot be read ({why}).",
        "too_big": "{path}: too large ({size}); at most {limit} can be imported. Save just the scenario's text and import that.",
        "empty": "{path}: the file is empty.",
        "binary": "{path}: not a text document (an image, PDF, Word file or other binary). Save the scenario as text or HTML first.",
        "encoding": "{path}: unknown character encoding (neither UTF-8 nor Shift_JIS).",
        "not_scenario": "{path}: nothing here reads as a scenario (no checks, sanity rolls, places or endings).",
        "out_exists": "{path}: already holds files. Choose another folder with -o, or overwrite with --force.",
        "out_file": "{path}: is a file. Give a folder name with -o.",
        "write_failed": "{path}: cannot write ({why}).",
        "bad_rules": "rules {rules!r} are not supported; these are: {known}.",
    },
}


def text(key: str, lang: str = "ja", **params: object) -> str:
    table = _TEXT.get(lang, _TEXT["ja"])
    return table.get(key, key).format(**params)


def size_text(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB"
    if n >= 1024:
        return f"{n / 1024:.0f} KB"
    return f"{n} B"

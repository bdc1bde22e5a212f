"""Interface text of the console front end, in Japanese (the default) and English.

Story text is the story's own; only what Katari itself says lives here.
"""

from __future__ import annotations

import os
from typing import Any

LANGS = ("ja", "en")

_TEXT: dict[str, dict[str, str]] = {
    "ja": {
        "welcome": "{title}",
        "help_hint": "「help」で遊び方、Tab で行動の候補。数字でも選べます。",
        "resume_lang": "このゲームは{played}で遊ばれていたので、{played}で続けます（ほかの言語で遊ぶなら --new で新しいゲームを始めてください）。",
        "resume_lang_kept": "このゲームは{played}で遊ばれていました。--lang {lang} で続けますが、ゲームの中ですでに決まった名前などは{played}のままです。",
        "lang_ja": "日本語",
        "lang_en": "英語",
        "resume_q": "{when} のセーブ（{place}・{time}）から続けますか？ [Y/n] ",
        "resumed": "続きから再開しました（{place}）。",
        "new_game": "新しく始めます。",
        "prompt": "▶ ",
        "dice_prompt": "🎲 {what}{expr}：{dice} の出目を入力 ({n}個) ▶ ",
        "dice_for": "{label} ",
        "dice_for_target": "{label} {target} に ",
        "dice_percentile": "（十の位 00–90、一の位 0–9）",
        "dice_prompt_d100": "🎲 {what}{expr}：出目を入力（47、または十の位と一の位 40 7）▶ ",
        "dice_range_d100": "1d100 の目は 1–100（00 は 100）です：{face}",
        "dice_bad": "出目を読めません：「{text}」（例：{example}）",
        "dice_help": "振ったダイスの出目を数で入力してください（例：{example}）。Ctrl-C でこの手をやめます。「status」で状態を表示します。",
        "dice_range": "{sides}面ダイスに {face} の目はありません。",
        "dice_cancel": "ロールを取り消しました。コマンドは実行されていません。",
        "cancelled": "（入力を取り消しました）",
        "how_to_leave": "終わるときは「quit」か Ctrl-D です（ゲームは一手ごとにセーブされています）。",
        "count_usage": "使い方：undo [回数]／redo [回数]（回数は 1 以上の数。「{word}」は使えません）",
        "pause_already": "もう止まっています（「再開」か次のコマンドで動きます）。",
        "bye": "中断しました。次回「{cmd}」で続きから遊べます。",
        "bye_unsaved": "中断しました。セーブを書けなかったので、このゲームの続きは残っていません。",
        "bye_ended": "おつかれさまでした。",
        "actions": "行動：",
        "no_actions": "（いまできる行動はありません）",
        "meta_head": "コマンド（/ か : を前につけるといつでも使えます）：",
        "unknown_meta": "知らないコマンドです：{word}。「help」で一覧を表示します。",
        "rule_refused": "「{cmd}」は Katari が自分で送るコマンドで、入力はできません。",
        "rule_allowed": "入力できるのは {list} です。",
        "ended_already": "物語は終わりました。「undo」「restart」「load」「quit」が使えます。",
        "saved": "セーブしました：{slot}",
        "loaded": "ロードしました：{slot}（{place}・{time}）",
        "no_save": "セーブ「{slot}」はありません。",
        "bad_save": "セーブ「{name}」は読めません（{why}）。ファイルはそのままにしてあります。",
        "other_story": "このセーブは別の物語のものです（{story}）。",
        "story_changed": "注意：セーブ後に物語が変更されています。",
        "saves_head": "セーブ一覧：",
        "saves_none": "（セーブはまだありません）",
        "save_line": "  {slot} {when}  {place}・{time}{ended}",
        "ended_mark": "（終了）",
        "bad_slot": "セーブ名は文字・数字・_・- の40字まで（- で始めない）：「{slot}」",
        "bad_slot_try": "かわりに「{cmd} {slot}」が使えます。",
        "undone": "1手戻しました（手番 {turn}）。",
        "undone_n": "{n}手戻しました（手番 {turn}）。",
        "nothing_undo": "これ以上戻せません。",
        "redone": "やり直しました（手番 {turn}）。",
        "nothing_redo": "やり直す手がありません。",
        "restarted": "最初からやり直します。前のゲームは「{slot}」にセーブしました。",
        "history_head": "これまでのコマンド：",
        "history_none": "（まだコマンドはありません）",
        "inventory_head": "持ち物：",
        "inventory_none": "（何も持っていません）",
        "status_head": "状態：",
        "no_sheet": "この物語のルールには、キャラクターシートがありません。",
        "transcript_on": "記録を {path} に書いています。",
        "transcript_off": "記録を止めました（{path}）。",
        "transcript_err": "記録を書けません：{why}",
        "transcript_no_dir": "フォルダー「{dir}」がないので、記録しません（先にフォルダーを作ってください）。",
        "roll_usage": "使い方：roll 1d100 / roll CC<=50 など",
        "roll_err": "「{expr}」は振れません（例：roll 1d100、roll 2d6+1、roll CC<=50）",
        "dice_error": "その出目は使えません。コマンドは実行されていません。",
        # A dice expression that cannot be read (runner.rules.dice.DiceError's codes).
        "dice_face": "{sides}面ダイスに {face} の目はありません",
        "dice_empty": "ダイスの式がありません",
        "dice_read": "ダイスの式「{text}」の「{rest}」から先が読めません",
        "dice_ends": "ダイスの式「{text}」が途中で終わっています",
        "dice_count": "「{text}」：ダイスは 1〜{most} 個にしてください",
        "dice_sides": "「{text}」：ダイスの面は 1〜{most} です",
        "dice_many": "「{text}」：ダイスが {most} 個を超えています",
        "dice_zero": "「{text}」：0 で割っています",
        "dice_divisor": "「{text}」：割る数が 0 になるかもしれません",
        "dice_nested": "「{text}」：かっこが深すぎます",
        "dice_keep": "「{text}」：残す・除くダイスは {most} 個までです",
        "roll_too_long": "ダイスにしては長すぎます（{n} 文字、{most} 文字まで）：「{text}」",
        "roll_dice_usage": "--dice には 0〜{sides} の目をカンマ区切りで {most} 個まで書きます（「{text}」は読めません）",
        "roll_no_investigators": "--investigator：探索者を扱うルールシステムが入っていません",
        "roll_need_dice": "「{expr}」にはダイスが足りません：あと {n} 個（{dice}）",
        "roll_faces_hint": "（--dice はダイス 1 個に 1 つの目：1d100 や CC は十の位のダイス、一の位のダイスの順。例 3,5）",
        "roll_left_over": "使われなかった目が {n} 個あります",
        "narrate_none": "読み上げは使えません：{why}",
        "narrate_on": "読み上げ：オン",
        "narrate_off": "読み上げ：オフ",
        "no_narrator": "読み上げは動いていません（--narrate で起動）。",
        "voice_none": "音声入力は使えません：{why}",
        "heard": "🎤 {text}",
        "error": "！ {message}",
        "suggest": "もしかして：{list}",
        "unknown_command": "「{text}」はわかりませんでした。",
        "no_such_number": "{text} 番の行動はありません。",
        "not_now": "「{text}」は今ここではできません。",
        "ambiguous": "どれのことですか？（番号で選べます）",
        "ambiguous_more": "  ……ほか {n} 件",
        "too_long": "入力が長すぎます（{n} 文字まで）。",
        "miss_hint": "Tab で行動の候補が出ます。「help」で遊び方と行動の一覧を表示します。",
        "nothing_again": "繰り返すコマンドがまだありません。",
        "help_roll": "roll 式：ダイスを振る（1d100, 2d6+1, CC<=50, x3 2D6, SCC<=50{skill} など）",
        "help_roll_skill": "、roll {skill}（キャラクターの技能値で）",
        "again_gone": "「{label}」はいまはできません（g は直前と同じ行動をもう一度します）。",
        "back_none": "いま戻れる行動はありません。手を戻すなら「undo」か「一手戻す」です。",
        "paste_line": "▶ {text}",
        "empty": "",
        "ending": "━━ エンディング：{title}（{kind}）━━",
        "kind_good": "グッド",
        "kind_bad": "バッド",
        "kind_normal": "ノーマル",
        "kind_failure": "失敗",
        "kind_true": "トゥルー",
        "kind_death": "死亡",
        "kind_extra": "エクストラ",
        "kind_neutral": "ニュートラル",
        "kind_partial": "部分的な成功",
        "keeper": "［GM］",
        "untranslated": "〔未訳〕",
        "roll_line": "🎲 {label}{expr}：{dice} → {total}",
        "roll_target": "（目標 {target}）",
        "roll_needed": " ＞ 失敗（{level}が必要）",
        "roll_forced": "（GMの裁定で{outcome}）",
        "roll_maximum": "最大値",
        "place": "場所",
        "time": "時刻",
        "left": "残り",
        "turn": "手番",
        "hp": "HP",
        "items": "持ち物",
        "toolbar_keys": "Tab 候補 ・ help ・ Ctrl-D 中断",
        "gm_mode": "GM",
        "save_fail": "セーブを書けません（{path}：{why}）。",
        "save_broken": "セーブを書けません（{path}：{why}）。このまま遊べますが、進行は保存されません。",
        "dice_manual": "ダイスは手で振ります（--dice manual）。",
        "game_over": "物語は終わっています。",
        "replay_ok": "OK：{n} 手を再生し、同じ状態で終わりました（{place}・手番 {turn}）。",
        "replay_diff": "不一致：{n} 手を再生した結果が記録と違います：",
        "replay_bad": "再生できません：{why}",
        "replay_story_errors": "物語 {path} に {n} 件のエラーがあります（例：{first}）",
        "replay_other_story": "この記録は物語「{want}」のものですが、{path} は「{got}」です",
        "replay_broken": "記録どおりに再生できません（記録が壊れているか、物語が変わっています）",
        "replay_which_story": "記録の物語「{id}」はインストールされていません。物語のファイルかフォルダを --story で指定してください",
        # Why a file cannot be used (runner.ui.files.FileError codes; OS errors by errno).
        "why_bad_name": "セーブ名は文字・数字・_・- の40字まで（- で始めない）：「{slot}」",
        "why_entry_damaged": "セーブの中のコマンドが壊れています",
        "why_dice_damaged": "セーブの中のダイスの目が壊れています",
        "why_cannot_read_it": "読み込めません：{why}",
        "why_not_json": "ファイルが壊れているか、セーブではありません",
        "why_not_save": "Katari のセーブではありません",
        "why_no_version": "Katari のセーブではありません（版の記載がありません）",
        "why_newer": "新しい Katari のセーブです（形式 {v}、この Katari は {have} まで）",
        "why_checksum": "チェックサムが合いません。ファイルが壊れています",
        "why_other_story": "別の物語「{story}」のセーブです（いまの物語は「{have}」）",
        "why_damaged": "セーブが壊れています（{what}）",
        "why_timeline": "セーブが壊れています（手順の数が合いません）",
        "why_state_differs": "セーブが壊れています（状態と手順が食い違います）",
        "why_belongs": "別の物語「{story}」のセーブです",
        "why_cannot_read": "{path} を読めません：{why}",
        "why_not_text": "{path} はテキストファイルではありません",
        "why_no_block": "{name} に ```{fmt} の再現データがありません",
        "why_block_not_json": "再現データが壊れています（JSON ではありません）",
        "why_block_not_katari": "再現データが Katari のものではありません",
        "why_engine": "このセーブは読み込めません（物語が変わったか、ファイルが壊れています）",
        "os_not_found": "見つかりません",
        "os_not_dir": "フォルダーのはずの場所がファイルです",
        "os_is_dir": "フォルダーです（ファイルではありません）",
        "os_denied": "書き込み（読み込み）の権限がありません",
        "os_read_only": "読み取り専用の場所です",
        "os_disk_full": "ディスクに空きがありません",
        "os_other": "入出力エラー（{code}）",
        "level_critical": "クリティカル",
        "level_extreme": "イクストリーム成功",
        "level_hard": "ハード成功",
        "level_regular": "レギュラー成功",
        "level_success": "成功",
        "level_failure": "失敗",
        "level_fumble": "ファンブル",
        "gm_only": "GM モードでだけ使えます（katari play --gm）。",
        "gm_usage": "GM の上書き：gm set 変数 値 / gm clock +30 / gm damage 誰 量 [能力] / gm force success / gm give 物 / gm take 物 / gm goto 場所（日本語：変数・時計・ダメージ・強制・与える・取り上げる・移動）",
        "gm_panel_head": "［GM］",
        "gm_clock": "時刻 {time}",
        "gm_left": "残り {left}",
        "gm_pending": "予定",
        "gm_none": "（なし）",
        "gm_in": "あと{d}",
        "gm_next": "次 {what}",
        "gm_changed_n": "変化 {n}",
        "gm_changed": "変化",
        "gm_waiting": "条件待ち",
        "gm_more": "…ほか {n} 行（「gm」で全部）",
        "gm_panel_key": "［GM｜{key}］",
        "gm_panel_open": "GM パネルを開きました（{key} で畳む）。",
        "gm_panel_folded": "GM パネルを一行に畳みました（{key} で開く、「gm」で全部）。",
        "gm_vars": "変数",
        "gm_stats": "能力値",
        "gm_hidden": "隠し値",
        "override": "［GM 上書き］",
        "real_left": "残り時間",
        "paused": "⏸ 一時停止中",
        "pause_on": "時間を止めました（「再開」か次のコマンドで動きます）。",
        "pause_off": "時間が動き出しました。",
        "no_realtime": "この物語には実時間の制限がありません。",
        "time_report": "⏱ 実時間 +{n} 秒",
        "voice_heard": "🎤 「{text}」",
        "voice_file": "🎤 {file}：「{text}」",
        "voice_unclear": "🎤 聞き取れませんでした。もう一度どうぞ。",
        "voice_yes_no": "「はい」か「いいえ」で答えてください。",
        "voice_cancel": "取り消しました。",
        "voice_on_push": "音声入力：{key} を押して話し、もう一度押して終わります。",
        "voice_on_cont": "音声入力：話しかけてください（ハンズフリー）。",
        "talking": "🎤 録音中（{key} で終わる）",
        "skip_key": "Ctrl-S 読み上げを止める",
    },
    "en": {
        "welcome": "{title}",
        "help_hint": "Type “help” for how to play, Tab for the actions. Numbers work too.",
        "resume_lang": "This game was played in {played}: it resumes in {played} (start a new game with --new to play in another language).",
        "resume_lang_kept": "This game was played in {played}: it resumes in the language of --lang {lang}, but names already set in the game stay in {played}.",
        "lang_ja": "Japanese",
        "lang_en": "English",
        "resume_q": "Resume the game saved {when} ({place}, {time})? [Y/n] ",
        "resumed": "Resumed ({place}).",
        "new_game": "Starting a new game.",
        "prompt": "> ",
        "dice_prompt": "🎲 {what}{expr}: enter the faces of {dice} ({n} {n_dice}) > ",
        "dice_for": "{label} ",
        "dice_for_target": "{label} {target}: ",
        "dice_percentile": " (tens 00-90, then units 0-9)",
        "dice_prompt_d100": "🎲 {what}{expr}: enter the roll (47, or tens and units: 40 7) > ",
        "dice_range_d100": "A d100 roll is 1-100 (00 is 100): {face}",
        "dice_bad": "Cannot read the faces “{text}” (e.g. {example})",
        "dice_help": "Type the faces the dice showed, as numbers (e.g. {example}). Ctrl-C cancels this move; “status” shows the status.",
        "dice_range": "A d{sides} has no face {face}.",
        "dice_cancel": "Roll cancelled; the command was not run.",
        "cancelled": "(line cancelled)",
        "how_to_leave": "To leave, type quit or press Ctrl-D (the game is saved after every move).",
        "count_usage": "Usage: undo [N] / redo [N], N a number from 1 (not “{word}”)",
        "pause_already": "Already paused (resume, or any command, starts the time again).",
        "bye": "Saved. `{cmd}` resumes where you left off.",
        "bye_unsaved": "Left without saving: the game could not be saved, so it cannot be resumed.",
        "bye_ended": "Thanks for playing.",
        "actions": "Actions:",
        "no_actions": "(nothing to do now)",
        "meta_head": "Commands (always reachable with a leading / or :):",
        "unknown_meta": "Unknown command: {word}. Type “help” for the list.",
        "rule_refused": "“{cmd}” is a command Katari sends itself; it cannot be typed.",
        "rule_allowed": "You may type {list}.",
        "ended_already": "The story has ended. You can undo, restart, load or quit.",
        "saved": "Saved: {slot}",
        "loaded": "Loaded: {slot} ({place}, {time})",
        "no_save": "No save called {slot!r}.",
        "bad_save": "Cannot read the save {name!r} ({why}); the file is left as it is.",
        "other_story": "This save belongs to another story ({story}).",
        "story_changed": "Note: the story has changed since this save was made.",
        "saves_head": "Saves:",
        "saves_none": "(no saves yet)",
        "save_line": "  {slot} {when}  {place}, {time}{ended}",
        "ended_mark": " (ended)",
        "bad_slot": "A save name is up to 40 letters, digits, _ or - (not starting with -): “{slot}”",
        "bad_slot_try": "Try “{cmd} {slot}” instead.",
        "undone": "Undone (turn {turn}).",
        "undone_n": "Undid {n} steps (turn {turn}).",
        "nothing_undo": "Nothing to undo.",
        "redone": "Redone (turn {turn}).",
        "nothing_redo": "Nothing to redo.",
        "restarted": "Starting again. The previous game is saved as {slot!r}.",
        "history_head": "Commands so far:",
        "history_none": "(no commands yet)",
        "inventory_head": "Carrying:",
        "inventory_none": "(nothing)",
        "status_head": "Status:",
        "no_sheet": "This story's rules keep no character sheet.",
        "transcript_on": "Recording the session to {path}.",
        "transcript_off": "Stopped recording ({path}).",
        "transcript_err": "Cannot write the transcript: {why}",
        "transcript_no_dir": "The folder {dir} does not exist: not recording (make the folder first).",
        "roll_usage": "Usage: roll 1d100, roll CC<=50, ...",
        "roll_err": "Cannot roll “{expr}” (e.g. roll 1d100, roll 2d6+1, roll CC<=50)",
        "dice_error": "Those faces cannot be used; the command was not run.",
        "roll_too_long": "too long to be dice ({n} characters; at most {most}): {text!r}",
        "roll_dice_usage": "--dice takes at most {most} faces from 0 to {sides} separated by commas, not {text!r}",
        "roll_no_investigators": "--investigator: no installed rule system has investigators",
        "roll_need_dice": "not enough dice given for {expr!r}: {n} more needed ({dice})",
        "roll_faces_hint": " (--dice takes one number per die: for 1d100 or CC the tens die, then the units die, e.g. 3,5)",
        "roll_left_over": "{n} die face(s) left over",
        "narrate_none": "Narration is not available: {why}",
        "narrate_on": "Narration on",
        "narrate_off": "Narration off",
        "no_narrator": "No narrator is running (start with --narrate).",
        "voice_none": "Voice input is not available: {why}",
        "heard": "🎤 {text}",
        "error": "! {message}",
        "suggest": "Did you mean: {list}",
        "unknown_command": "I did not understand “{text}”.",
        "no_such_number": "There is no action {text}.",
        "not_now": "You cannot do “{text}” here now.",
        "ambiguous": "Which one do you mean? (a number chooses)",
        "ambiguous_more": "  ... and {n} more",
        "too_long": "That line is too long (at most {n} characters).",
        "miss_hint": "Press Tab to see the actions; type “help” for how to play and the list of actions.",
        "nothing_again": "There is no command to repeat yet.",
        "help_roll": "roll EXPR: roll dice (1d100, 2d6+1, CC<=50, x3 2D6, SCC<=50{skill}, ...)",
        "help_roll_skill": ", roll {skill} (the character's skill value)",
        "again_gone": "“{label}” cannot be done now (g repeats the same action as last time).",
        "back_none": "There is no way back from here now. To take back a move, type undo.",
        "paste_line": "> {text}",
        "empty": "",
        "ending": "━━ Ending: {title} ({kind}) ━━",
        "kind_good": "good",
        "kind_bad": "bad",
        "kind_normal": "normal",
        "kind_failure": "failure",
        "kind_true": "true",
        "kind_death": "death",
        "kind_extra": "extra",
        "kind_neutral": "neutral",
        "kind_partial": "partial success",
        "keeper": "[GM]",
        "untranslated": "[untranslated] ",
        "roll_line": "🎲 {label}{expr}: {dice} → {total}",
        "roll_target": " (target {target})",
        "roll_needed": " > failure ({level} needed)",
        "roll_forced": " (the GM's ruling: {outcome})",
        "roll_maximum": "maximum",
        "place": "Place",
        "time": "Time",
        "left": "Time left",
        "turn": "Turn",
        "hp": "HP",
        "items": "Items",
        "toolbar_keys": "Tab actions · help · Ctrl-D leave",
        "gm_mode": "GM",
        "save_fail": "Cannot save ({path}: {why}).",
        "save_broken": "Cannot save ({path}: {why}). You can go on playing, but nothing will be saved.",
        "dice_manual": "Dice are rolled by hand (--dice manual).",
        "game_over": "The story is over.",
        "replay_ok": "OK: replayed {n} commands and ended in the same state ({place}, turn {turn}).",
        "replay_diff": "MISMATCH: replaying {n} commands ends in a different state:",
        "replay_bad": "Cannot replay: {why}",
        "replay_story_errors": "{path}: {n} error(s) in the story, e.g. {first}",
        "replay_other_story": "the file is for the story {want!r}, but {path} is {got!r}",
        "replay_broken": "the recorded commands do not replay ({detail})",
        "replay_which_story": "the story {id!r} the file names is not installed: give its file or folder with --story PATH",
        "why_bad_name": "a save name is up to 40 letters, digits, _ or - (not starting with -): “{slot}”",
        "why_entry_damaged": "a command in the save is damaged",
        "why_dice_damaged": "the dice of a command in the save are damaged",
        "why_cannot_read_it": "cannot read it: {why}",
        "why_not_json": "not JSON: the file is damaged or not a save",
        "why_not_save": "not a Katari save",
        "why_no_version": "not a Katari save (no version)",
        "why_newer": "save format {v} is newer than this Katari understands ({have})",
        "why_checksum": "checksum mismatch: the file is damaged",
        "why_other_story": "this save is for the story {story!r}, not {have!r}",
        "why_damaged": "the save is damaged ({what})",
        "why_timeline": "the save is damaged (its timeline does not add up)",
        "why_state_differs": "the save is damaged (its state and timeline differ)",
        "why_belongs": "it belongs to another story ({story!r})",
        "why_cannot_read": "cannot read {path}: {why}",
        "why_not_text": "{path} is not a text file",
        "why_no_block": "{name} has no ```{fmt} block",
        "why_block_not_json": "the replay block is not JSON",
        "why_block_not_katari": "the replay block is not Katari's",
        "why_engine": "this save cannot be loaded",
        "os_not_found": "not found",
        "os_not_dir": "a file is where a folder should be",
        "os_is_dir": "it is a folder, not a file",
        "os_denied": "permission denied",
        "os_read_only": "read-only file system",
        "os_disk_full": "the disk is full",
        "os_other": "input/output error ({code})",
        "level_critical": "critical",
        "level_extreme": "extreme success",
        "level_hard": "hard success",
        "level_regular": "regular success",
        "level_success": "success",
        "level_failure": "failure",
        "level_fumble": "fumble",
        "gm_only": "Only in game-master mode (katari play --gm).",
        "gm_usage": "GM overrides: gm set VAR VALUE / gm clock +30 / gm damage WHO N [STAT] / gm force success / gm give ITEM / gm take ITEM / gm goto NODE",
        "gm_panel_head": "[GM]",
        "gm_clock": "time {time}",
        "gm_left": "left {left}",
        "gm_pending": "timed",
        "gm_none": "(none)",
        "gm_in": "in {d}",
        "gm_next": "next {what}",
        "gm_changed_n": "{n} changed",
        "gm_changed": "changed",
        "gm_waiting": "waiting",
        "gm_more": "… {n} more lines (type gm for all)",
        "gm_panel_key": "[GM|{key}]",
        "gm_panel_open": "GM panel open ({key} folds it).",
        "gm_panel_folded": "GM panel folded to one line ({key} opens it; gm shows it all).",
        "gm_vars": "vars",
        "gm_stats": "stats",
        "gm_hidden": "hidden",
        "override": "[GM override]",
        "real_left": "Real time left",
        "paused": "⏸ paused",
        "pause_on": "Time stopped (resume, or any command, starts it again).",
        "pause_off": "Time runs again.",
        "no_realtime": "This story has no real-time limit.",
        "time_report": "⏱ real time +{n} s",
        "voice_heard": "🎤 “{text}”",
        "voice_file": "🎤 {file}: “{text}”",
        "voice_unclear": "🎤 Sorry, I did not catch that.",
        "voice_yes_no": "Please answer yes or no.",
        "voice_cancel": "Cancelled.",
        "voice_on_push": "Voice input: press {key} and speak, press it again to finish.",
        "voice_on_cont": "Voice input: just speak (hands-free).",
        "talking": "🎤 listening ({key} to finish)",
        "skip_key": "Ctrl-S stops the narration",
    },
}

# What the engine answers, by the ``code`` of its ``error`` and ``override`` events (the
# engine's English ``message`` is for logs and bots; a console words every one of these).
# ``err_<code>`` for errors, ``ov_<code>`` for overrides, ``kind_<what>`` for what was named.
_CODES: dict[str, dict[str, str]] = {
    "ja": {
        "err_ended": "物語は終わっています。",
        "err_story_error": "物語にエラーがあります（作者向け：{detail}）",
        "err_unknown_rule_command": "「@{name}」というコマンドはありません。",
        "err_rule_command": "「@{name}」を実行できません（{detail}）",
        "err_bad_arguments": "「@{name}」：{detail}",
        "err_gm_only": "GM モードでだけ使えます（katari play --gm）。",
        "err_gm_usage": "GM の上書き：変数・時計・時刻・ダメージ・強制・与える・取り上げる・移動、:HP-3（「help」で一覧）",
        "err_gm_usage_set": "使い方：変数 名前 値（例：変数 天井の照明 はい）",
        "err_gm_usage_clock": "使い方：時計 +30 ／ 時計 1時間30分 ／ 時刻 13:00",
        "err_gm_usage_damage": "使い方：ダメージ [誰] 量 [能力値]（例：ダメージ 3、ダメージ 三浦 1d3、ダメージ 触腕 2）",
        "err_gm_usage_stat": "使い方：:HP-3 ／ :SAN+1 ／ :幸運=50（誰かを指すなら「ダメージ 誰 量 能力値」）",
        "err_gm_usage_force": "使い方：強制 成功（結果：{allowed}）",
        "err_gm_usage_give": "使い方：与える 物（例：与える 鍵）",
        "err_gm_usage_take": "使い方：取り上げる 物",
        "err_gm_usage_goto": "使い方：移動 場所",
        "err_gm_not_found": "「{query}」という{kind}は見つかりません。{known}",
        "err_gm_known": "候補：{list}",
        "err_gm_ambiguous": "「{query}」に当てはまる{kind}がいくつもあります：{candidates}。どれか一つを書いてください。",
        "err_gm_bad_type": "{label} に入るのは「{holds}」です（「{text}」は入れられません）。",
        "holds_switch": "はい・いいえ",
        "holds_number": "数",
        "holds_text": "文字",
        "err_gm_bad_value": "{label} に「{text}」は入れられません（はい・いいえ、数、'文字' が使えます）。",
        "err_gm_clock_back": "時計は戻せません：いまは {now} で、{text} はもう過ぎています（翌日の同じ時刻なら「時刻 {next}」）。",
        "err_gm_clock_now": "いまがちょうど {now} です（翌日の同じ時刻なら「時刻 {next}」）。",
        "err_gm_clock_minus": "時計は戻せません（進めるだけです）：「{text}」",
        "err_gm_clock_bad": "時刻を読めません：「{text}」（例：時計 +30、時計 1時間、時刻 13:00、翌日の 1時は 時刻 25:00）",
        "err_gm_force_unknown": "「{value}」という判定の結果はありません。強制できるのは：{allowed}",
        "err_gm_not_carried": "「{name}」は持っていません。",
        "err_gm_no_health": "{name}には HP（耐久力）がありません。能力値を書いてください。{known}",
        "err_gm_same": "{label}はすでに「{value}」です（何も変えていません）。",
        "err_gm_same_stat": "{name}の{stat}はすでに {value} です（何も変えていません）。",
        "err_gm_failed": "上書きできませんでした（{detail}）",
        "named_variable": "変数",
        "named_character": "キャラクター",
        "named_item": "物",
        "named_place": "場所",
        "named_stat": "能力値",
        "ov_set": "{label}：{old} → {value}",
        "ov_clock": "時計を{d}進めました（{from} → {to}）",
        "ov_stat": "{name}の{stat}：{old} → {new}",
        "ov_damage": "{name}の{stat}：{old} → {new}",
        "ov_force": "次の判定の結果を「{value}」にします。",
        "ov_forced": "判定の結果を「{value}」にしました。",
        "ov_force_kept": "この判定には「{value}」という結果がないので、出目どおりにしました（強制は次の判定に持ち越します）。",
        "ov_give": "「{name}」を渡しました。",
        "ov_take": "「{name}」を取り上げました。",
        "ov_goto": "「{title}」へ移動しました。",
        "value_true": "はい",
        "value_false": "いいえ",
        "value_none": "（なし）",
        "next_day": "（翌日）",
        "nth_day": "（{n}日後）",
        "watch_head": "━━ {title}（プレイヤーの画面）━━",
        "watch_bye": "━━ ゲームマスターがセッションを終えました ━━",
        "watch_none": "{path} はまだありません（katari play 物語 --gm --player-view {path} が書きます）。",
        "watch_wait": "{path} を待っています（katari play 物語 --gm --player-view {path}）…",
        "watch_undone": "（ゲームマスターが {n} 手戻しました）",
        "watch_redone": "（ゲームマスターが {n} 手やり直しました）",
        "watch_loaded": "（ゲームマスターがセーブを読み込みました）",
        "watch_restarted": "（ゲームマスターが最初からやり直します）",
        "player_view_on": "プレイヤー用の画面を {path} に書いています（別の端末で katari watch {path}）。",
        "player_view_err": "プレイヤー用の画面を書けません：{path}：{why}",
    },
    "en": {
        "err_ended": "The story is over.",
        "err_story_error": "The story has an error (for its author: {detail})",
        "err_unknown_rule_command": "There is no command “@{name}”.",
        "err_rule_command": "Cannot run “@{name}” ({detail})",
        "err_bad_arguments": "“@{name}”: {detail}",
        "err_gm_only": "Only in game-master mode (katari play --gm).",
        "err_gm_usage": "GM overrides: gm set / clock / damage / force / give / take / goto, :HP-3 (see help)",
        "err_gm_usage_set": "Usage: gm set NAME VALUE (e.g. gm set light yes)",
        "err_gm_usage_clock": "Usage: gm clock +30 / gm clock +1h30m / gm clock 13:00",
        "err_gm_usage_damage": "Usage: gm damage [WHO] AMOUNT [STAT] (e.g. gm damage 3, gm damage Miura 1d3)",
        "err_gm_usage_stat": "Usage: :HP-3 / :SAN+1 / :Luck=50 (for someone else: gm damage WHO N STAT)",
        "err_gm_usage_force": "Usage: gm force success (outcomes: {allowed})",
        "err_gm_usage_give": "Usage: gm give ITEM",
        "err_gm_usage_take": "Usage: gm take ITEM",
        "err_gm_usage_goto": "Usage: gm goto PLACE",
        "err_gm_not_found": "No {kind} called “{query}”. {known}",
        "err_gm_known": "Known: {list}",
        "err_gm_ambiguous": "“{query}” could be several {kind}s: {candidates}. Name one.",
        "err_gm_bad_type": "{label} holds {holds}: “{text}” does not fit.",
        "holds_switch": "yes or no",
        "holds_number": "a number",
        "holds_text": "text",
        "err_gm_bad_value": "Cannot put “{text}” in {label} (yes/no, numbers, 'text').",
        "err_gm_clock_back": "The clock cannot go back: it is {now} and {text} has passed (the same time tomorrow is “gm clock {next}”).",
        "err_gm_clock_now": "It is {now} now (the same time tomorrow is “gm clock {next}”).",
        "err_gm_clock_minus": "The clock only moves forward: “{text}” would turn it back.",
        "err_gm_clock_bad": "Cannot read the time “{text}” (e.g. gm clock +30, +1h, 13:00; 25:00 is 01:00 the next day)",
        "err_gm_force_unknown": "No check has the outcome “{value}”. Outcomes: {allowed}",
        "err_gm_not_carried": "“{name}” is not carried.",
        "err_gm_no_health": "{name} has no HP: name a stat. {known}",
        "err_gm_same": "{label} already holds {value}: nothing changed.",
        "err_gm_same_stat": "{name}'s {stat} is already {value}: nothing changed.",
        "err_gm_failed": "The override failed ({detail})",
        "named_variable": "variable",
        "named_character": "character",
        "named_item": "item",
        "named_place": "place",
        "named_stat": "stat",
        "ov_set": "{label}: {old} → {value}",
        "ov_clock": "Clock moved on {d} ({from} → {to})",
        "ov_stat": "{name} {stat}: {old} → {new}",
        "ov_damage": "{name} {stat}: {old} → {new}",
        "ov_force": "The next check's result will be: {value}.",
        "ov_forced": "Check result forced to {value}.",
        "ov_force_kept": "This check cannot end in {value}: it stands as rolled (the force waits for the next check).",
        "ov_give": "Gave “{name}”.",
        "ov_take": "Took “{name}” away.",
        "ov_goto": "Moved to “{title}”.",
        "value_true": "yes",
        "value_false": "no",
        "value_none": "(none)",
        "next_day": " (next day)",
        "nth_day": " (day +{n})",
        "watch_head": "━━ {title} (the players' screen) ━━",
        "watch_bye": "━━ The game master has ended the session ━━",
        "watch_none": "{path} does not exist yet (katari play STORY --gm --player-view {path} writes it).",
        "watch_wait": "Waiting for {path} (katari play STORY --gm --player-view {path})…",
        "watch_undone": "(the game master took back {n} move(s))",
        "watch_redone": "(the game master replayed {n} move(s))",
        "watch_loaded": "(the game master loaded a save)",
        "watch_restarted": "(the game master starts again)",
        "player_view_on": "Writing the players' screen to {path} (in another terminal: katari watch {path}).",
        "player_view_err": "Cannot write the players' screen: {path}: {why}",
    },
}
for _lang, _table in _CODES.items():
    _TEXT[_lang].update(_table)


def has_text(key: str, lang: str = "ja") -> bool:
    """Whether ``key`` is interface text of ``lang`` (a code the console can word)."""
    return key in (_TEXT.get(lang) or _TEXT["ja"])


# Meta commands: canonical name -> words per language. Every word works in either language;
# a leading "/" or ":" always means a meta command, even when a story action has that name.
META: dict[str, tuple[tuple[str, ...], tuple[str, ...], str, str]] = {
    # name: (ja words, en words, ja help, en help)
    "help": (("ヘルプ", "へるぷ", "？"), ("help", "?", "h"), "この一覧", "this list"),
    "look": (
        ("見る", "みる", "見回す"),
        ("look", "l"),
        "いまの場所の描写をもう一度",
        "describe the place again",
    ),
    "inventory": (("持ち物", "もちもの"), ("inventory", "inv", "i"), "持ち物", "what you carry"),
    "status": (
        ("状態", "じょうたい", "ステータス"),
        ("status", "stats"),
        "能力値・時刻・変数",
        "stats, time and values",
    ),
    "sheet": (
        ("シート", "しーと", "能力", "のうりょく"),
        ("sheet", "character"),
        "探索者のシート（能力値・技能・HP/MP/SAN/幸運・状態）",
        "the character sheet (characteristics, skills, HP/MP/SAN/Luck, conditions)",
    ),
    "history": (("履歴", "りれき"), ("history",), "これまでのコマンド", "the commands so far"),
    "save": (
        ("セーブ", "せーぶ", "保存"),
        ("save",),
        "save [名前]：セーブする",
        "save [name]: save the game",
    ),
    "load": (
        ("ロード", "ろーど", "読込"),
        ("load", "restore"),
        "load [名前]：セーブを読む",
        "load [name]: load a save",
    ),
    "saves": (
        ("セーブ一覧",),
        ("saves",),
        "セーブの一覧（日付・場所・時刻）",
        "list saves (date, place, time)",
    ),
    "undo": (
        ("戻す", "もどす", "一手戻す", "ひとてもどす"),
        ("undo", "u"),
        "undo [回数]（一手戻す）：手を戻す",
        "undo [n]: take back moves",
    ),
    "redo": (("やり直す", "やりなおす"), ("redo",), "戻した手をやり直す", "redo an undone move"),
    "restart": (("最初から", "さいしょから"), ("restart",), "最初から始める", "start again"),
    "transcript": (
        ("記録",),
        ("transcript",),
        "transcript [ファイル|off]：リプレイを Markdown で記録",
        "transcript [FILE|off]: record the session as Markdown",
    ),
    "roll": (
        ("ロール", "ダイス"),
        ("roll",),
        "roll 式：ダイスを振る（1d100, CC<=50 目星, x3 2D6, SCC<=50, roll 目星 など）",
        "roll EXPR: roll dice (1d100, CC<=50 Spot, x3 2D6, SCC<=50, roll 目星, ...)",
    ),
    "reveal": (
        ("公開", "こうかい"),
        ("reveal",),
        "シークレットダイスの結果を出す",
        "show the secret rolls",
    ),
    "import": (
        ("インポート", "取り込む", "取込"),
        ("import",),
        "import [ファイル]：CCFOLIA・キャラクター保管所の探索者を取り込む（探索者を選ぶところで）",
        "import [FILE]: bring an investigator from CCFOLIA or キャラクター保管所 (at the character choice)",
    ),
    "narrate": (
        ("読み上げ",),
        ("narrate",),
        "narrate on|off：読み上げ",
        "narrate on|off: read aloud",
    ),
    "skip": (("スキップ",), ("skip",), "読み上げを飛ばす", "skip the narration"),
    "again": (
        ("もう一度", "もういちど"),
        ("again", "g", "repeat"),
        "g：直前のコマンドをもう一度（読み上げ中の「もう一度」は読み上げをもう一度）",
        "g: the last command again (with narration on, “again” says the last line again)",
    ),
    "actions": (
        ("選択肢", "せんたくし"),
        ("actions", "choices"),
        "いまできる行動の一覧（読み上げ中は声でも）",
        "the actions you can take now (spoken too, with narration on)",
    ),
    "faster": (("速く", "はやく"), ("faster",), "読み上げを速く", "read aloud faster"),
    "slower": (("遅く", "おそく", "ゆっくり"), ("slower",), "読み上げを遅く", "read aloud slower"),
    "voice": (
        ("声", "こえ"),
        ("voice",),
        "声 名前：語り手の声を変える（名前なしで一覧）",
        "voice NAME: the narrator's voice (no NAME: the list)",
    ),
    "pause": (
        ("ポーズ", "一時停止"),
        ("pause",),
        "実時間を止める／動かす",
        "stop or restart the real-time clock",
    ),
    "resume": (("再開",), ("resume",), "止めた実時間を動かす", "restart the real-time clock"),
    "gm": (
        ("ＧＭ",),
        ("gm",),
        "gm：GM 表示、上書き：変数・時計（時刻）・ダメージ・強制・与える・取り上げる・移動（gm set/clock/damage/force/give/take/goto）",
        "gm: the GM panel; gm set/clock/damage/force/give/take/goto: overrides",
    ),
    "quit": (
        ("終了", "しゅうりょう", "やめる"),
        ("quit", "exit", "q"),
        "セーブして終わる",
        "save and leave",
    ),
}

GO_BACK_WORDS = ("戻る", "もどる", "back", "go back", "return")
"""What players type to go back in the story (never an undo): the story's own go-back action
(a label with one of GO_BACK_STEMS in it), else a hint at how to undo (#13)."""
GO_BACK_STEMS = ("戻", "もど", "back", "return")

NARRATOR_ONLY = ("narrate", "skip", "faster", "slower", "voice")
GM_ONLY = ("gm",)
REALTIME_ONLY = ("pause", "resume")

GM_VERBS: dict[str, str] = {
    # A game master's override words (after "gm", or on their own in Japanese) -> engine verb.
    "set": "set",
    "clock": "clock",
    "damage": "damage",
    "force": "force",
    "give": "give",
    "take": "take",
    "goto": "goto",
    "変数": "set",
    "設定": "set",
    "時計": "clock",
    "時刻": "clock",
    "ダメージ": "damage",
    "強制": "force",
    "与える": "give",
    "渡す": "give",
    "取り上げる": "take",
    "没収": "take",
    "移動": "goto",
    "ワープ": "goto",
}
GM_WORDS_ALONE = tuple(w for w in GM_VERBS if not w.isascii())
"""Japanese override words also work without "gm" in front (``変数 light true``)."""
FORCE_WORDS: dict[str, str] = {
    "成功": "success",
    "失敗": "failure",
    "クリティカル": "critical",
    "ファンブル": "fumble",
    "ハード": "hard",
    "イクストリーム": "extreme",
    "レギュラー": "regular",
}


# -- saves, locks and the files Katari writes (the saves part of the console) --
_TEXT["ja"].update(
    {
        "bad_save_moved": "セーブ「{name}」は読めません（{why}）。消さずに「{new}」へ移しました。",
        "kept_game": "前のゲームは「{slot}」に残しました（load {slot} で戻れます）。",
        "keep_failed": "前のゲームを移せません（{why}）。そのまま残し、新しいゲームは「{slot}」にセーブします。",
        "resume_again": "y（続ける）か n（新しく始める）で答えてください。Ctrl-D で終了します。",
        "busy": "このゲーム（{slot}）は別の画面で開かれています。",
        "busy_q": "[n] 別のスロットで新しく始める ／ [r] 読み取り専用で開く ／ [q] やめる： ",
        "busy_again": "n・r・q のどれかで答えてください。",
        "other_slot": "「{busy}」は別の画面で使われています。このゲームは「{slot}」にセーブします。",
        "read_only_on": "読み取り専用で開きました。このセッションは何も保存しません。",
        "read_only_save": "読み取り専用で開いているので、セーブしません。",
        "bye_read_only": "終了しました（読み取り専用だったので、何も保存していません）。",
        "slot_busy": "セーブ「{slot}」は別の画面で使われています。",
        "slot_reserved": "「{slot}」は自動セーブの名前です。別の名前にしてください。",
        "restart_keep_failed": "いまのゲームを残せないので、やり直しません（{why}）。",
        "load_keep_failed": "いまのゲームを残せないので、ロードしません（{why}）。",
        "load_kept": "それまでのゲームは「{slot}」にセーブしました。",
        "saves_moved": "（読めないセーブは「名前.broken-日時」として残してあります）",
        "why_too_big": "ファイルが大きすぎます（{mb} MB まで）",
        "why_schema": "セーブが壊れています（{field} の値が正しくありません）",
        "why_too_deep": "入れ子が深すぎます（{n} 段まで）。ファイルが壊れています",
        "why_too_many_digits": "桁の多すぎる数があります（{n} 桁まで）。ファイルが壊れています",
        "why_not_a_number": "数として使えない値（{what}）があります。ファイルが壊れています",
        "why_not_playable": "この物語では続けられません（物語が変わったか、セーブが壊れています）",
        "why_no_room": "移す先の名前が見つかりません",
        "os_not_regular": "通常のファイルではありません（デバイス・FIFO・フォルダー・リンクには読み書きしません）",
    }
)
_TEXT["en"].update(
    {
        "bad_save_moved": "Cannot read the save {name!r} ({why}); it is kept, moved to {new!r}.",
        "kept_game": "The previous game is kept as {slot!r} (load {slot} brings it back).",
        "keep_failed": "Cannot move the previous game ({why}); it stays as it is, and this game saves to {slot!r}.",
        "resume_again": "Answer y (resume) or n (new game); Ctrl-D quits.",
        "busy": "This game ({slot}) is open in another session.",
        "busy_q": "[n] new game in another slot / [r] open it read-only / [q] quit: ",
        "busy_again": "Answer n, r or q.",
        "other_slot": "{busy!r} is in use by another session; this game saves to {slot!r}.",
        "read_only_on": "Opened read-only: this session saves nothing.",
        "read_only_save": "Opened read-only: nothing is saved.",
        "bye_read_only": "Left (read-only: nothing was saved).",
        "slot_busy": "The save {slot!r} is in use by another session.",
        "slot_reserved": "{slot!r} is the autosave's name; choose another.",
        "restart_keep_failed": "Cannot keep the current game, so not starting again ({why}).",
        "load_keep_failed": "Cannot keep the current game, so not loading ({why}).",
        "load_kept": "The game you were playing is saved as {slot!r}.",
        "saves_moved": "(saves that cannot be read are kept as NAME.broken-DATE)",
        "why_too_big": "the file is too large (at most {mb} MB)",
        "why_schema": "the save is damaged ({field}: {detail})",
        "why_too_deep": "nested deeper than {n} levels: the file is damaged",
        "why_too_many_digits": "a number of more than {n} digits: the file is damaged",
        "why_not_a_number": "{what} is not a number a save may hold: the file is damaged",
        "why_not_playable": "it cannot be played with this story ({what}): the story has changed or the save is damaged",
        "why_no_room": "no free name to move it to",
        "os_not_regular": "not a regular file (Katari reads and writes no devices, FIFOs, folders or links)",
    }
)


def meta_words() -> dict[str, str]:
    """Every meta word (case-folded) -> its canonical name."""
    out: dict[str, str] = {}
    for name, (ja, en, _, _) in META.items():
        for w in (name, *ja, *en):
            out[w.casefold()] = name
    for w in GM_WORDS_ALONE:
        out.setdefault(w, "gm")
    out["ｇｍ"] = "gm"
    return out


def default_lang(story_lang: str | None = None) -> str:
    """The interface language when no ``--lang`` is given: ``KATARI_LANG`` if set to a known
    language, else the story's own ``language:`` (when there is a story and the console
    speaks it), else Japanese."""
    env = os.environ.get("KATARI_LANG", "")
    if env in LANGS:
        return env
    if story_lang:
        base = str(story_lang).replace("_", "-").split("-")[0].lower()
        if base in LANGS:
            return base
    return "ja"


def played_lang(arg: str | None, story_lang: str | None = None) -> str:
    """The language a game is played in: ``--lang``, else ``KATARI_LANG``, else the story's
    ``language:``, else Japanese. The console, the rules' own words and (when the story has a
    translation into it) the story itself all follow it."""
    return arg if arg else default_lang(story_lang)


# Names of state keys any story may have. A rule system names its own view and sheet keys
# (RuleSystem.display, runner/rules/<name>/), and those win; keys named nowhere are shown as
# they are, so a new rule system still shows up, in its own words.
VIEW_LABELS: dict[str, dict[str, str]] = {
    "ja": {
        "hp": "HP",
        "mp": "MP",
        "luck": "幸運",
        "life": "ライフ",
        "time_left": "残り",
        "time_limit": "制限時間",
        "time_spent": "経過",
        "hidden": "隠し値",
        # the kinds of characters a story has (docs/authoring.md)
        "npc": "NPC",
        "ally": "味方",
        "enemy": "敵",
    },
    "en": {
        "hp": "HP",
        "mp": "MP",
        "luck": "luck",
        "life": "life",
        "time_left": "time left",
        "time_limit": "time limit",
        "time_spent": "time spent",
        "hidden": "hidden",
        "npc": "NPC",
        "ally": "ally",
        "enemy": "enemy",
    },
}


def _display(system: str | None) -> Any:
    """The rule system's Display, or None (no system, or one not installed here)."""
    if not system:
        return None
    from runner.rules import BrokenRules, UnknownRules
    from runner.rules import system as find

    try:
        return find(system).display
    except (UnknownRules, BrokenRules):
        return None


def key_label(key: str, lang: str = "ja", system: str | None = None) -> str:
    """A state key as the status bar names it: the rule system's own name for it, else a
    common one, else the key itself."""
    d = _display(system)
    if d is not None and d.labels:
        hit = (d.labels.get(lang) or d.labels.get("ja") or {}).get(key)
        if hit is not None:
            return hit
    table = VIEW_LABELS.get(lang) or VIEW_LABELS["ja"]
    return table.get(key, key)


def value_name(key: str, value: Any, lang: str = "ja", system: str | None = None) -> str | None:
    """The name of a view value that has one (a module's ``led: yellow`` -> 黄), else None:
    rule systems name their values (RuleSystem.display.values)."""
    d = _display(system)
    names = ((d.values.get(lang) or {}).get(key)) if d is not None else None
    if names is None:
        return None
    try:
        return names.get(value)
    except TypeError:  # an unhashable value
        return None


def t(key: str, lang: str = "ja", /, **kw: object) -> str:
    """The interface text ``key`` in ``lang`` (falling back to Japanese), formatted with ``kw``."""
    table = _TEXT.get(lang) or _TEXT["ja"]
    text = table.get(key)
    if text is None:
        text = _TEXT["ja"].get(key, key)
    return text.format(**kw) if kw else text


def dice_reason(e: Exception, lang: str) -> str:
    """Why dice cannot be read (a DiceError), in ``lang``: its code's words here, else (English,
    or an error without a code) the exception's own English."""
    code = getattr(e, "code", "")
    if lang != "en" and code and f"dice_{code}" in _TEXT.get(lang, {}):
        return t(f"dice_{code}", lang, **getattr(e, "values", {}))
    return str(e)

"""The Japanese online table (#16): investigators in from CCFOLIA and キャラクター保管所
(:mod:`.investigator`), the game out as a CCFOLIA piece, room log and リプレイ
(:mod:`.export`), chat palettes (:mod:`.palette`) and the table's own dice at the console
(:mod:`.table`). Nothing here fetches anything: files and pasted text only, bounded
(:mod:`.read`). See docs/ccfolia.md."""

"""The UREG item catalogue as data.

Descriptions are in our own words; the figures (sizes, capacities, heights, power) are the
source's. ``props`` carries what the rules use:

- ``platform``: ways to stand on it, each ``{form, height, unstable?, support?}`` (metres as
  strings so that arithmetic stays exact); a ladder is unstable footing (UA-14).
- ``length``: metres, for poking, bridging and joining.
- ``power``: numeric-combat bonus from the table; items not in the table that can be swung
  or thrown count as improvised weapons (+0.5, UA-04) unless ``improvised`` is false.
- ``light``/``fire``/``uv``/``flash``: light sources.
- ``tools``: kinds of work the item does: break, lever, pick, cut, dig, bind, glue, lift,
  bend, key, safety_key, card_key, write, calc, search, reflect, measure, magnet, remote.
- ``needs``: "manual" when safe use needs expert knowledge (a マニュアル), "manual|強力" when
  strength or size also does.
- ``flower``: colour of a flower (UA-08). ``watch``: the pocket watch (continue rule).
  ``key_item``: key items A/B/C, whose meaning each story defines.
- ``aid``: the real-world helper a held item unlocks (UA-17): memo, calculator, lookup.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


@dataclass(frozen=True, slots=True)
class ItemInfo:
    id: str
    name: str
    name_en: str
    description: str
    description_en: str
    aliases: tuple[str, ...] = ()
    props: dict[str, Any] = field(default_factory=dict)


def _i(id: str, name: str, name_en: str, desc: str, desc_en: str, aliases: str = "",
       **props: Any) -> ItemInfo:
    return ItemInfo(id, name, name_en, desc, desc_en, tuple(a for a in aliases.split() if a), props)


NO_WEAPON = {"improvised": False}

ITEMS: tuple[ItemInfo, ...] = (
    _i("empty_bottle", "空き瓶", "empty bottle", "透明なガラス瓶。500ml入る。",
       "A clear glass bottle holding 500 ml.", "瓶 びん あきびん bottle", capacity_l="0.5"),
    _i("oil", "油", "oil", "1Lのペットボトルに入った油。", "Oil in a 1 L plastic bottle.",
       "あぶら", capacity_l="1", tools=["slippery"], improvised=False),
    _i("board", "板", "board", "薄く平らな物。材質はいろいろ。", "Something thin and flat, of any material.",
       "いた plank"),
    _i("chair", "椅子", "chair", "人が座る家具。材質はいろいろ。", "Furniture to sit on, of any material.",
       "いす イス", platform_story_height=True),
    _i("safety_key", "安全鍵", "safety key", "鍵開け防止の錠を開ける合鍵。",
       "The key for a lock made to resist picking.", "あんぜんかぎ", tools=["safety_key"],
       improvised=False),
    _i("instant_camera", "インスタントカメラ", "instant camera", "撮ったその場で写真ができるカメラ。フラッシュ付き。",
       "A camera that develops its film on the spot; it has a flash.", "カメラ camera", flash=True),
    _i("paint", "絵の具", "paint", "色を付ける画材。", "Art colours for painting.", "えのぐ paints",
       improvised=False),
    _i("card_key", "カードキー", "card key", "電子錠用のプラスチックのカード。", "A plastic card for an electronic lock.",
       "カード keycard", tools=["card_key"], improvised=False),
    _i("flashlight", "懐中電灯", "flashlight", "一方向を照らす乾電池式のライト。",
       "A battery torch that lights one direction.", "かいちゅうでんとう ライト torch", light=True),
    _i("key", "鍵", "key", "金属の合鍵。", "A metal key.", "かぎ カギ", tools=["key"], improvised=False),
    _i("timber", "角材", "timber", "長さ2m、切り口が四角い材木。", "A square-cut length of wood, 2 m long.",
       "かくざい 木材 lumber", length="2"),
    _i("duct_tape", "ガムテープ", "packing tape", "梱包用の粘着テープ。", "Sticky tape for packing.",
       "テープ tape duct", tools=["bind"], improvised=False),
    _i("stepladder", "脚立", "stepladder", "高さ2mの踏み台。脚を開けば4mの梯子になる。",
       "A 2 m step platform that opens out into a 4 m ladder.", "きゃたつ",
       platform=[{"form": "step", "height": "2", "support": True},
                 {"form": "ladder", "height": "4", "unstable": True}]),
    _i("wooden_box", "木箱", "wooden crate", "1辺1mの立方体。頑丈な木の箱。",
       "A sturdy wooden box, a 1 m cube.", "きばこ 箱 はこ box crate",
       platform=[{"form": "box", "height": "1"}]),
    _i("silverware", "銀食器", "silverware", "銀を使った食器。", "Tableware made with silver.",
       "ぎんしょっき 食器 silver"),
    _i("fruit", "果物", "fruit", "食べられる果実。", "Fruit you can eat.", "くだもの"),
    _i("mobile_phone", "携帯電話", "mobile phone", "持ち歩ける電話。通話・メール・ライトが使える。",
       "A portable phone with calls, mail and a light.", "けいたい スマホ phone", light=True),
    _i("handgun", "拳銃", "handgun", "弾を撃つ武器。離れた的を撃てるが、正確に当てるには訓練が要る。",
       "A weapon that fires bullets at distant targets; hitting reliably takes training.",
       "けんじゅう 銃 pistol gun", power="2"),
    _i("magnet", "磁石", "magnet", "上下がN極とS極の強力な磁石。", "A strong magnet, N pole on one face, S on the other.",
       "じしゃく", tools=["magnet"]),
    _i("jack", "ジャッキ", "jack", "2000kgまでの物を持ち上げ、30cmの隙間を作る器具。",
       "Lifts up to 2000 kg, opening a 30 cm gap.", "じゃっき", tools=["lift"], lift_kg=2000,
       gap_m="0.3"),
    _i("shovel", "シャベル", "trowel", "土を掘る園芸用品。大きさ30cm。", "A 30 cm garden tool for digging.",
       "しゃべる スコップ shovel", tools=["dig"], length="0.3"),
    _i("ruler", "定規", "ruler", "長さや角度を測る文房具。", "Stationery for measuring lengths and angles.",
       "じょうぎ", tools=["measure"]),
    _i("dynamite", "ダイナマイト", "dynamite", "土木工事用の爆薬。安全に使うには専門知識が要る。",
       "Blasting explosive; safe use needs expert knowledge.", "だいなまいと 爆薬 explosive",
       power="5", tools=["break"], needs="manual", blast=True),
    _i("timer", "時限装置", "timer device", "他の物と組み合わせて使う。指定時刻に動かすには専門知識が要る。",
       "Used together with something else; setting it for a time needs expert knowledge.",
       "じげんそうち タイマー timer", needs="manual", improvised=False),
    _i("tablet", "タブレット", "tablet", "情報端末。実際にスマホやPCでネット検索してよい。",
       "An information device: the players may really search the web.", "たぶれっと",
       tools=["search"], aid="lookup"),
    _i("cardboard_box", "ダンボール箱", "cardboard box", "板紙でできた梱包用の箱。",
       "A packing box made of cardboard.", "だんぼーる 段ボール cardboard", improvised=False),
    _i("chainsaw", "チェーンソー", "chainsaw", "回転する刃の動力工具。腕力・体格・専門知識があれば安全に使える。",
       "A power tool with a running chain blade; safe with strength, size or expert knowledge.",
       "ちぇーんそー chain", power="2.5", tools=["cut", "break"], needs="manual|強力"),
    _i("desk", "机", "desk", "食卓や作業台。材質はいろいろ。", "A table or workbench, of any material.",
       "つくえ table", platform_story_height=True, improvised=False),
    _i("pickaxe", "つるはし", "pickaxe", "土木作業の工具。1mの柄の先に両端が尖った鉄具。",
       "A digging tool: a 1 m handle with an iron head pointed at both ends.", "ツルハシ pick",
       power="1.5", tools=["break", "dig"], length="1"),
    _i("hand_mirror", "手鏡", "hand mirror", "光を反射して物を映す手持ちの平面鏡。",
       "A flat hand mirror that reflects light.", "てかがみ 鏡 mirror", tools=["reflect"]),
    _i("iron_pipe", "鉄パイプ", "iron pipe", "細長い2mの鉄管。", "A slender iron tube, 2 m long.",
       "てつぱいぷ パイプ pipe", length="2", bendable=True),
    _i("angel_statue", "天使の像", "angel statue", "微笑む天使の、高さ2mほどの彫像。",
       "A statue of a smiling angel, about 2 m tall.", "てんしのぞう 天使 angel", height_m="2",
       improvised=False, heavy=True),
    _i("calculator", "電卓", "calculator", "計算する電子機器。実際に電卓を使って計算してよい。",
       "An electronic calculator: the players may really use one.", "でんたく", tools=["calc"],
       aid="calculator"),
    _i("battery", "電池", "battery", "専用の充電池、乾電池、ボタン電池。",
       "Rechargeable, dry-cell or button batteries.", "でんち batteries", improvised=False),
    _i("sword", "刀剣", "sword", "刃の付いた武器。刃渡り1mほど。", "A bladed weapon with a blade about 1 m long.",
       "とうけん 刀 剣 かたな katana blade", power="2", tools=["cut"], length="1"),
    _i("screwdriver", "ドライバー", "screwdriver", "ネジを締めたり緩めたりする工具。",
       "A tool to drive and loosen screws.", "どらいばー ねじまわし driver", tools=["screw"]),
    _i("hammer", "トンカチ", "hammer", "平らな面と尖った面がある金槌。", "A hammer with one flat face and one pointed.",
       "とんかち 金槌 かなづち ハンマー", power="1", tools=["break"]),
    _i("knife", "ナイフ", "knife", "刃渡り10cmほどの短刀。", "A short blade about 10 cm long.",
       "ないふ 短刀", tools=["cut"]),
    _i("pot", "鍋", "pot", "アルミの片手鍋。3L入る。", "An aluminium saucepan holding 3 L.", "なべ pan",
       capacity_l="3"),
    _i("plush", "ぬいぐるみ", "stuffed toy", "20cmほどの布の人形。", "A cloth doll about 20 cm tall.",
       "ぬいぐるみ 人形 doll plushie", improvised=False),
    _i("crowbar", "バール", "crowbar", "先がL字の工具。50cmほどの鉄の道具。",
       "An iron tool about 50 cm long with an L-shaped end.", "ばーる bar", power="1",
       tools=["lever", "bend", "break"], length="0.5"),
    _i("bucket", "バケツ", "bucket", "高さ40cm、30L入るプラスチックの桶。",
       "A plastic pail 40 cm high that holds 30 L.", "ばけつ", capacity_l="30",
       platform=[{"form": "upturned", "height": "0.4"}]),
    _i("ladder", "梯子", "ladder", "高さ3mほどのステンレスの梯子。", "A stainless-steel ladder about 3 m high.",
       "はしご ハシゴ", platform=[{"form": "ladder", "height": "3", "unstable": True}], length="3",
       bendable=True),
    _i("wire", "針金", "wire", "金属を糸のように伸ばした物。", "Metal drawn out into a thread.",
       "はりがね ワイヤー", tools=["pick", "bind"], improvised=False),
    _i("glue", "万能接着材", "all-purpose glue", "すぐにゴム状に固まり、何でも物同士をくっ付ける接着剤。",
       "Glue that sets rubbery at once and sticks anything to anything.", "接着剤 せっちゃくざい ボンド",
       tools=["glue"], improvised=False),
    _i("marbles", "ビー玉", "marbles", "模様や色の付いたガラス玉。", "Patterned or coloured glass balls.",
       "びーだま marble", tools=["slippery"]),
    _i("plastic_sheet", "ビニールシート", "plastic sheet", "レジャーシートやブルーシートなど、ビニールのシート。",
       "A vinyl sheet such as a picnic or tarpaulin sheet.", "シート sheet tarp", improvised=False),
    _i("creepy_statue", "不気味な像", "creepy statue", "悪魔のような姿の、高さ2mほどの彫像。",
       "A devil-like statue about 2 m tall.", "ぶきみなぞう 像 悪魔 statue", height_m="2",
       improvised=False, heavy=True),
    _i("brush", "筆", "brush", "塗るための画材。", "An art brush for painting.", "ふで paintbrush",
       improvised=False),
    _i("black_light", "ブラックライト", "black light", "紫外線を出す青い光の照明。",
       "A lamp giving off ultraviolet as a blue glow.", "ぶらっくらいと uv", uv=True),
    _i("pen", "ペン", "pen", "15cmの油性ペン。実際にペンでメモしてよい。",
       "A 15 cm marker: the players may really take notes.", "ぺん マーカー marker", tools=["write"],
       aid="memo"),
    _i("stick", "棒", "stick", "細長い円筒状の物。材質はいろいろ。", "A long thin rod, of any material.",
       "ぼう rod pole", length_story=True),
    _i("broom", "箒", "broom", "掃除道具。1mのアルミ棒の先に毛の束。",
       "A cleaning tool: a 1 m aluminium pole with bristles at the end.", "ほうき ホウキ", length="1"),
    _i("bulletproof_vest", "防弾チョッキ", "bulletproof vest", "銃弾や爆発の破片から身を守る防具。",
       "Armour against bullets and shrapnel.", "ぼうだんちょっき ベスト vest", improvised=False,
       armour=True),
    _i("ball", "ボール", "ball", "球技に使う球。", "A ball for ball games.", "ぼーる"),
    _i("manual", "マニュアル", "manual", "専門知識が要る物を使えるようにする取扱説明書。",
       "Instructions that let you use things needing expert knowledge.", "まにゅある 説明書 instructions",
       improvised=False, expertise=True),
    _i("lighter", "ライター", "lighter", "ガスで燃えるライター。", "A gas lighter.", "らいたー", fire=True),
    _i("radio_control", "ラジコン", "radio controller", "無線の送信機。受信機の付いた模型やドローンを動かす。",
       "A radio transmitter that drives models or drones with a receiver.", "らじこん リモコン drone remote",
       tools=["remote"]),
    _i("candle", "ロウソク", "candle", "火を灯す照明。1時間ほど燃え続ける。",
       "A light you kindle with fire; it burns about an hour.", "ろうそく 蝋燭", needs_fire=True),
    _i("rope", "ロープ", "rope", "紐をより合わせた縄。10mほど。", "Twisted cord, about 10 m long.",
       "ろーぷ 縄 なわ", length="10", tools=["bind"], improvised=False),
    _i("flower_yellow", "花（黄）", "flower (yellow)", "黄色い薔薇。花言葉は「友情・献身」。ダメージを肩代わりする。違う色の花とは持てない。",
       "A yellow rose (friendship, devotion). Takes damage in your place; cannot be held with another colour.",
       "黄色い花 黄色 きいろ yellow", flower="yellow", improvised=False),
    _i("flower_white", "花（白）", "flower (white)", "白い薔薇。花言葉は「無邪気・清純」。ダメージを肩代わりする。違う色の花とは持てない。",
       "A white rose (innocence, purity). Takes damage in your place; cannot be held with another colour.",
       "白い花 白 しろ white", flower="white", improvised=False),
    _i("flower_purple", "花（紫）", "flower (purple)", "紫の薔薇。花言葉は「気品・尊敬」。ダメージを肩代わりする。違う色の花とは持てない。",
       "A purple rose (grace, respect). Takes damage in your place; cannot be held with another colour.",
       "紫の花 紫 むらさき purple", flower="purple", improvised=False),
    _i("flower_pink", "花（ピンク）", "flower (pink)", "ピンクの薔薇。花言葉は「賞賛・感謝」。ダメージを肩代わりする。違う色の花とは持てない。",
       "A pink rose (praise, gratitude). Takes damage in your place; cannot be held with another colour.",
       "ピンクの花 ピンク pink", flower="pink", improvised=False),
    _i("flower_blue", "花（青）", "flower (blue)", "青い薔薇。花言葉は「不可能・奇跡」。ダメージを肩代わりする。違う色の花とは持てない。",
       "A blue rose (impossible, miracle). Takes damage in your place; cannot be held with another colour.",
       "青い花 青 あお blue", flower="blue", improvised=False),
    _i("flower_red", "花（赤）", "flower (red)", "赤い薔薇。花言葉は「愛の告白」。ダメージを肩代わりする。違う色の花とは持てない。",
       "A red rose (a declaration of love). Takes damage in your place; cannot be held with another colour.",
       "赤い花 赤 あか red", flower="red", improvised=False),
    _i("pocket_watch", "懐中時計", "pocket watch", "制限時間を示す時計。PC全員が消滅するか、ネジを巻くと開始描写からやり直す。",
       "Shows the time limit. When every PC vanishes, or its crown is wound, play restarts from the opening.",
       "かいちゅうどけい 時計 watch", watch=True, improvised=False),
    _i("key_item_a", "キーアイテムA", "key item A", "脱出に必要な物。名前・働き・形はGMに聞くこと（シナリオが決める）。",
       "Needed to escape; its name, use and shape come from the scenario.", "キーアイテムＡ", key_item="A",
       improvised=False),
    _i("key_item_b", "キーアイテムB", "key item B", "脱出に必要な物。名前・働き・形はGMに聞くこと（シナリオが決める）。",
       "Needed to escape; its name, use and shape come from the scenario.", "キーアイテムＢ", key_item="B",
       improvised=False),
    _i("key_item_c", "キーアイテムC", "key item C", "脱出に必要な物。名前・働き・形はGMに聞くこと（シナリオが決める）。",
       "Needed to escape; its name, use and shape come from the scenario.", "キーアイテムＣ", key_item="C",
       improvised=False),
)

CATALOGUE: dict[str, ItemInfo] = {it.id: it for it in ITEMS}

FLOWER_COLOURS: dict[str, tuple[str, str]] = {
    "yellow": ("黄", "yellow"), "white": ("白", "white"), "purple": ("紫", "purple"),
    "pink": ("ピンク", "pink"), "blue": ("青", "blue"), "red": ("赤", "red"),
}

# Numeric-combat power of the items in the source's table (UA-04 for everything else).
IMPROVISED_POWER = Fraction(1, 2)


def _name_index() -> dict[str, ItemInfo]:
    """Lower-case id, names and aliases -> item; a word two items share names the first."""
    out: dict[str, ItemInfo] = {}
    for it in ITEMS:
        for w in (it.id, it.name.lower(), it.name_en.lower(), *(a.lower() for a in it.aliases)):
            out.setdefault(w, it)
    return out


_BY_NAME = _name_index()


def by_name(text: str) -> ItemInfo | None:
    """Finds a catalogue item by id, Japanese or English name, or alias (exact match)."""
    return _BY_NAME.get(text.strip().lower())

# SPDX-License-Identifier: MIT
"""A second, test-side reading of the catalog's `audit:` patterns: split the
expected bytes into instructions and say which patterns match each one.
Covers the encodings the catalog uses (legacy 0F/0F38/0F3A with 66/F2/F3
and REX, APX REX2 d5 with the 1-byte opcodes of its snippet, VEX c4/c5 with
maps 1-3, 5 and 7, EVEX 62 with maps 1-6, AMD XOP 8f; register or simple
memory ModRM)."""
import re

XOP_ALT = re.compile(r"XOP\.(08|09|0A)\.(W0|W1|WIG) ([0-9a-f]{2}) /r(?: ib)?")
VEX_ALT = re.compile(r"(E?VEX)(?:\.(128|256|512))?\.(NP|66|F3|F2)\.(0F|0F38|0F3A|MAP[4-7])\."
                     r"(W0|W1|WIG) ([0-9a-f]{2})((?: /[r0-7])?(?: i[bwd])?)")
# every instruction of a map (`*`: any opcode and pp), or with REX2
ANY_ALT = re.compile(r"(E?VEX)(?:\.(128|256|512))?\.MAP([4-7]) \*")
PP = {"NP": 0, "66": 1, "F3": 2, "F2": 3}
MAPS = {"0F": 1, "0F38": 2, "0F3A": 3, "MAP4": 4, "MAP5": 5, "MAP6": 6, "MAP7": 7}
# APX snippets' REX2 opcodes (1-byte map): push/pop r take no ModRM
REX2_NO_MODRM = range(0x50, 0x60)
IMM = {"ib": 1, "iw": 2, "id": 4}


def modrm_len(b, i):
    """Bytes taken by the ModRM at b[i] with its SIB and displacement."""
    mod, rm = b[i] >> 6, b[i] & 7
    n = 1
    if mod != 3 and rm == 4:
        n += 1
        if mod == 0 and b[i + 1] & 7 == 5:
            n += 4
    if mod == 0 and rm == 5:
        n += 4
    return n + {1: 1, 2: 4}.get(mod, 0)


def map4_imm(x):
    """Immediate bytes of an APX EVEX map 4 instruction: its opcodes are the
    1-byte map's (APX spec, table of map 4), 16-bit operands with pp 66."""
    iz = 2 if x["pp"] == 1 and not x["w"] else 4
    if x["op"] in (0x24, 0x2c, 0x6b, 0x80, 0x83, 0xc0, 0xc1):
        return 1
    if x["op"] in (0x69, 0x81):
        return iz
    if x["op"] in (0xf6, 0xf7) and x["modrm"] >> 3 & 7 < 2:
        return 1 if x["op"] == 0xf6 else iz
    return 0


def decode(b, bits=64):
    """Split b into instructions: dicts with raw bytes and, for VEX/EVEX,
    enc/pp/map/w/length/op/modrm."""
    out, i = [], 0
    while i < len(b):
        start = i
        if b[i] == 0x8f and b[i + 1] & 0x1f in (8, 9, 10):
            # XOP: 8f RXB.mmmmm W.vvvv.L.pp opcode ModRM [imm8 in map 8]
            x = {"enc": "XOP", "map": b[i + 1] & 0x1f, "w": b[i + 2] >> 7, "op": b[i + 3],
                 "modrm": b[i + 4]}
            i += 4 + modrm_len(b, i + 4) + (x["map"] == 8)
        elif b[i] in (0xc4, 0xc5, 0x62):
            x = {"enc": "EVEX" if b[i] == 0x62 else "VEX"}
            if b[i] == 0xc5:
                x.update(pp=b[i + 1] & 3, map=1, w=0, length=128 << (b[i + 1] >> 2 & 1))
                i += 2
            elif b[i] == 0xc4:
                x.update(map=b[i + 1] & 0x1f, w=b[i + 2] >> 7, pp=b[i + 2] & 3,
                         length=128 << (b[i + 2] >> 2 & 1))
                i += 3
            else:
                x.update(map=b[i + 1] & 7, w=b[i + 2] >> 7, pp=b[i + 2] & 3,
                         length=128 << (b[i + 3] >> 5 & 3))
                i += 4
            x["op"] = b[i]
            no_modrm = x["enc"] == "VEX" and x["map"] == 1 and x["op"] == 0x77
            x["modrm"] = None if no_modrm else b[i + 1]
            i += 1 if no_modrm else 1 + modrm_len(b, i + 1)
            i += 1 if x["map"] == 3 else 4 if x["map"] == 7 else map4_imm(x) if x["map"] == 4 else 0
        elif bits == 64 and b[i] == 0xd5:
            # REX2: d5 payload (M0 R4 X4 B4 W R3 X3 B3), then the opcode
            assert not b[i + 1] & 0x80, "REX2 with the 0F map: not in the catalog"
            x = {"enc": "legacy", "rex2": True, "op": b[i + 2]}
            i += 3
            if x["op"] not in REX2_NO_MODRM:
                i += modrm_len(b, i)
        else:
            x = {"enc": "legacy"}
            while b[i] in (0x66, 0xf2, 0xf3) or (bits == 64 and 0x40 <= b[i] <= 0x4f):
                i += 1
            assert b[i] == 0x0f, f"not a catalog instruction at {b[start:].hex(' ')}"
            esc = b[i + 1]
            i += 2 + (esc in (0x38, 0x3a))          # past 0f, 38|3a and the opcode
            i += modrm_len(b, i) + (esc == 0x3a)    # every catalog opcode has ModRM
        x["raw"] = b[start:i]
        x.setdefault("rex2", False)
        out.append(x)
    return out


def match_legacy(alt, raw):
    """Byte tokens, REX?, /r, /N, ib|iw|id against one instruction's bytes."""
    i = 0
    for tok in alt.split():
        if tok == "REX?":
            i += i < len(raw) and 0x40 <= raw[i] <= 0x4f
        elif tok.startswith("/"):
            if i >= len(raw) or (tok != "/r" and raw[i] >> 3 & 7 != int(tok[1])):
                return False
            i += modrm_len(raw, i)
        elif tok in IMM:
            i += IMM[tok]
        elif i >= len(raw) or raw[i] != int(tok, 16):
            return False
        else:
            i += 1
    return i == len(raw)


def match(alt, x):
    if alt == "REX2 *":
        return x["rex2"]
    m = ANY_ALT.fullmatch(alt)
    if m:
        enc, length, vmap = m.groups()
        return (enc == x["enc"] and x.get("map") == int(vmap)
                and (not length or int(length) == x["length"]))
    m = XOP_ALT.fullmatch(alt)
    if m:
        xmap, w, op = m.groups()
        return (x["enc"] == "XOP" and x["map"] == int(xmap, 16) and x["op"] == int(op, 16)
                and (w == "WIG" or int(w[1]) == x["w"]))
    m = VEX_ALT.fullmatch(alt)
    if not m:
        return x["enc"] == "legacy" and not x["rex2"] and match_legacy(alt, x["raw"])
    enc, length, pp, vmap, w, op, tail = m.groups()
    if (enc != x["enc"] or PP[pp] != x["pp"] or MAPS[vmap] != x["map"]
            or int(op, 16) != x["op"] or (length and int(length) != x["length"])
            or (w != "WIG" and int(w[1]) != x["w"])):
        return False
    reg = re.search(r"/([0-7])", tail)
    return not reg or (x["modrm"] is not None and x["modrm"] >> 3 & 7 == int(reg[1]))


def matches(audit, x):
    return any(match(alt.strip(), x) for alt in audit.split(" ; "))

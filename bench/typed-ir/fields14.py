#!/usr/bin/env python3
"""fields14.py — the dispatched field of each indirect call in typed-pointer
LLVM IR (LLVM 14, textual .ll), the reference the Facet paper checks its
recovered fields against (§5.2).

Usage: fields14.py FILE.ll...   (prints JSON: a list of sites)

In typed IR the address computation that feeds the callee load still names
the struct and the field index: %p = getelementptr %struct.S, %struct.S* %b,
i64 0, i32 K; %f = load ..., %p; call %f(...). The innermost struct the GEP
indexes and the field index there give (S, K); the debug info only turns
K into a member name (by byte offset, computed from the IR struct layout).
Sites are named by their debug location: file, line, column and the
inlining chain. Calls whose callee is not loaded from such a GEP are left
out: typed IR exposes no field there."""
import json
import re
import sys

MD_RE = re.compile(r"^!(\d+) = (?:distinct )?!(\w+)\((.*)\)\s*$")
TUPLE_RE = re.compile(r"^!(\d+) = (?:distinct )?!\{(.*)\}\s*$")
TYPE_RE = re.compile(r"^(%[\w.$\"-]+) = type (.*)$")


def md_fields(body):
    out = {}
    for m in re.finditer(r"(\w+): (\"(?:[^\"\\]|\\.)*\"|![\d]+|[\w.-]+)", body):
        v = m.group(2)
        out[m.group(1)] = v[1:-1] if v.startswith('"') else v
    return out


class Module:
    def __init__(self, text):
        self.md, self.tuples, self.types = {}, {}, {}
        self.lines = text.split("\n")
        for line in self.lines:
            m = MD_RE.match(line)
            if m:
                self.md["!" + m.group(1)] = (m.group(2), md_fields(m.group(3)))
                continue
            m = TUPLE_RE.match(line)
            if m:
                self.tuples["!" + m.group(1)] = [x.strip() for x in m.group(2).split(",") if x.strip()]
                continue
            m = TYPE_RE.match(line)
            if m:
                self.types[m.group(1)] = m.group(2).strip()
        self.records = {}    # name -> composite node
        for node, (kind, f) in self.md.items():
            if kind == "DICompositeType" and f.get("tag") in ("DW_TAG_structure_type", "DW_TAG_union_type") \
                    and f.get("elements"):
                if f.get("name"):
                    self.records.setdefault(f["name"], node)
        for node, (kind, f) in self.md.items():
            if kind == "DIDerivedType" and f.get("tag") == "DW_TAG_typedef" and f.get("name"):
                base = f.get("baseType")
                if base in self.md and self.md[base][0] == "DICompositeType" and self.md[base][1].get("elements"):
                    self.records.setdefault(f["name"], base)

    # ---- IR layout (x86-64) ----
    def split_top(self, s):
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch in "{[(<":
                depth += 1
            elif ch in "}])>":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append(cur.strip())
                cur = ""
            else:
                cur += ch
        if cur.strip():
            parts.append(cur.strip())
        return parts

    def size_align(self, t):
        t = t.strip()
        if t.endswith("*"):
            return 8, 8
        if t.startswith("%"):
            body = self.types.get(t, "opaque")
            return self.size_align(body) if body != "opaque" else (0, 1)
        m = re.match(r"^i(\d+)$", t)
        if m:
            bits = int(m.group(1))
            size = max(1, (bits + 7) // 8)
            size = 1 << (size - 1).bit_length()
            return size, min(size, 16)
        if t in ("float",):
            return 4, 4
        if t in ("double",):
            return 8, 8
        if t == "x86_fp80":
            return 16, 16
        if t == "fp128":
            return 16, 16
        m = re.match(r"^\[(\d+) x (.*)\]$", t)
        if m:
            s, a = self.size_align(m.group(2))
            return int(m.group(1)) * s, a
        m = re.match(r"^<(\d+) x (.*)>$", t)
        if m:
            s, a = self.size_align(m.group(2))
            return int(m.group(1)) * s, int(m.group(1)) * s
        if t.startswith("<{") or t.startswith("{"):
            offs, size, align = self.layout(t)
            return size, align
        return 8, 8   # function types etc. do not occur as fields

    def layout(self, t):
        packed = t.startswith("<{")
        inner = t[2:-2] if packed else t[1:-1]
        offs, off, align = [], 0, 1
        for ft in self.split_top(inner):
            s, a = self.size_align(ft)
            if packed:
                a = 1
            off = (off + a - 1) // a * a
            offs.append((off, ft))
            off += s
            align = max(align, a)
        size = (off + align - 1) // align * align
        return offs, size, align

    def field_offset(self, struct, index):
        body = self.types.get(struct)
        if not body or body == "opaque":
            return None, None
        offs, _, _ = self.layout(body)
        if index >= len(offs):
            return None, None
        return offs[index]

    def member_name(self, record, offset_bytes):
        node = self.records.get(record)
        if not node:
            return None
        names = []
        for el in self.tuples.get(self.md[node][1]["elements"], []):
            k, f = self.md.get(el, (None, {}))
            if k == "DIDerivedType" and f.get("tag") == "DW_TAG_member" and "DIFlagBitField" not in f.get("flags", ""):
                if int(f.get("offset", "0")) == offset_bytes * 8:
                    names.append(f.get("name", ""))
        return names[-1] if names else None

    # ---- locations ----
    def file_of(self, scope):
        for _ in range(64):
            kind, f = self.md.get(scope, (None, {}))
            if kind is None:
                return None
            if "file" in f and kind != "DIFile":
                fk, ff = self.md.get(f["file"], (None, {}))
                if fk == "DIFile":
                    return ff.get("filename")
            if kind == "DIFile":
                return f.get("filename")
            scope = f.get("scope")
        return None

    def location(self, node):
        chain = []
        while node:
            kind, f = self.md.get(node, (None, {}))
            if kind != "DILocation":
                break
            chain.append({"file": self.file_of(f.get("scope")), "line": int(f.get("line", 0)),
                          "column": int(f.get("column", 0))})
            node = f.get("inlinedAt")
        return chain


def strip_trailer(s):
    s = re.sub(r"(, ![\w.]+ ![\w.]+)+\s*$", "", s)
    s = re.sub(r", align \d+\s*$", "", s)
    return s.strip()


def struct_name(t):
    m = re.match(r"^%(?:struct|union)\.(.+?)(?:\.\d+)?$", t)
    return m.group(1).strip('"') if m else None


def gep_field(mod, line):
    """(record, field offset, member) of a GEP instruction or constant expression."""
    m = re.search(r"getelementptr (?:inbounds )?\(?(%[\w.$\"-]+), ", line)
    if not m:
        return None
    body = line[m.end():]
    idx = [int(x) for x in re.findall(r"i(?:32|64) (-?\d+)", body)]
    if len(re.findall(r"i(?:32|64) %", body)):
        return None   # a variable index
    if len(idx) < 2:
        return None
    cur = m.group(1)
    rec, field_index = None, None
    for k in idx[1:]:
        bodyt = mod.types.get(cur)
        if cur.startswith("%") and bodyt:
            if struct_name(cur) is None:
                return None
            rec, field_index = cur, k
            off, ft = mod.field_offset(cur, k)
            if ft is None:
                return None
            cur = ft
        else:
            am = re.match(r"^\[(\d+) x (.*)\]$", cur)
            if not am:
                return None
            cur = am.group(2)
    if rec is None:
        return None
    off, _ = mod.field_offset(rec, field_index)
    name = struct_name(rec)
    return name, off, mod.member_name(name, off)


def sites(path):
    mod = Module(open(path).read())
    out = []
    for fn_start, line in enumerate(mod.lines):
        if not line.startswith("define "):
            continue
        defs = {}
        i = fn_start + 1
        body = []
        while i < len(mod.lines) and mod.lines[i] != "}":
            body.append(mod.lines[i])
            m = re.match(r"^\s*(%[\w.$\"-]+) = (.*)$", mod.lines[i])
            if m:
                defs[m.group(1)] = m.group(2)
            i += 1
        for ins in body:
            cm = re.search(r"\b(?:call|invoke)\b[^@%]*?(%[\w.$\"-]+)\(", ins)
            if not cm or "asm " in ins:
                continue
            dbg = re.search(r"!dbg (![\d]+)", ins)
            callee = cm.group(1)
            for _ in range(4):   # through bitcasts
                d = defs.get(callee, "")
                bm = re.match(r"^bitcast \S.*? (%[\w.$\"-]+) to ", d)
                if not bm:
                    break
                callee = bm.group(1)
            d = defs.get(callee, "")
            if not d.startswith("load "):
                continue
            ptr = strip_trailer(d).split(" ")[-1]
            if ptr.startswith("%"):
                g = defs.get(ptr, "")
                field = gep_field(mod, g) if "getelementptr" in g else None
            else:
                field = gep_field(mod, d) if "getelementptr" in d else None
            if not field or not field[2]:
                continue
            loc = mod.location(dbg.group(1)) if dbg else []
            if not loc:
                continue
            out.append({"file": loc[0]["file"], "line": loc[0]["line"], "column": loc[0]["column"],
                        "inlined_at": loc[1:], "record": field[0], "offset": field[1], "field": field[2]})
    return out


def main():
    if len(sys.argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    all_sites = []
    for p in sys.argv[1:]:
        all_sites.extend(sites(p))
    json.dump(all_sites, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())

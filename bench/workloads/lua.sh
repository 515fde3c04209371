# lua: scripts exercising the interpreter and standard library (strings and
# patterns, tables and sorting, metatables, closures, coroutines, the GC,
# load/pcall/error, string.pack, utf8, io on temporary files, os, math).
# Debian's orig tarball carries no test suite, so the scripts are here.
set -u
cat >w1.lua <<'LUA'
local t = {}
for i = 1, 20000 do t[i] = (i * 7919) % 1000 end
table.sort(t)
table.sort(t, function(a, b) return a > b end)
local s = table.concat(t, ",", 1, 100)
assert(#s > 0)
local words = {}
for w in ("the quick brown fox jumps over the lazy dog"):gmatch("%a+") do words[#words + 1] = w:upper() end
print(table.concat(words, " "), ("x"):rep(3, "-"), string.format("%5.2f %d %s %q", 3.14159, 42, "s", "q\n"))
print(("hello world"):gsub("o", {o = "0"}), ("abc"):byte(1, -1), utf8.char(72, 228, 8364), utf8.len("häll€"))
local mt = {__index = function(_, k) return k * 2 end, __add = function(a, b) return a.v + b.v end,
            __tostring = function(o) return "obj" .. o.v end, __len = function() return 99 end,
            __call = function(self, x) return self.v + x end, __eq = function() return true end,
            __lt = function(a, b) return a.v < b.v end, __le = function(a, b) return a.v <= b.v end,
            __concat = function(a, b) return "cat" end, __close = function() end}
local a, b = setmetatable({v = 1}, mt), setmetatable({v = 2}, mt)
print(a[21], a + b, tostring(a), #a, a(5), a == b, a < b, a <= b, a .. b)
local co = coroutine.wrap(function(x) for i = 1, 3 do x = coroutine.yield(x + i) end return "done" end)
print(co(1), co(10), co(100), co(1000))
local ok, err = pcall(error, {code = 1})
print(ok, type(err), select("#", pcall(function() local x = nil; return x.y end)))
print(xpcall(function() error("boom") end, function(m) return "handled: " .. m end))
local f = load("return 1 + ...")
print(f(41), load(string.dump(f))(1))
local packed = string.pack("<i4 d s1", 7, 2.5, "hi")
print(string.unpack("<i4 d s1", packed))
local tmp = os.tmpname()
local fh = io.open(tmp, "w"); for i = 1, 1000 do fh:write(i, "\n") end; fh:close()
local n = 0; for line in io.lines(tmp) do n = n + tonumber(line) end
print(n); os.remove(tmp)
print(math.floor(3.7), math.max(1, 9, 3), math.type(1), math.type(1.0), math.tointeger(3.0), 7 // 2, 7 % -3)
for i = 1, 5 do local big = {} for j = 1, 10000 do big[j] = {j} end end
collectgarbage(); collectgarbage("step"); print(collectgarbage("count") > 0)
local weak = setmetatable({}, {__mode = "k"}); weak[{}] = 1; collectgarbage()
print(os.date("!%Y", 0), os.time{year = 2020, month = 1, day = 1, hour = 0} > 0, os.getenv("HOME") ~= nil)
print(string.rep("ab", 3), ("%d items"):format(3), ("  trim  "):match("^%s*(.-)%s*$"), ("a,b,,c"):find(",,", 1, true))
local g = {} for k, v in pairs({x = 1, y = 2, z = 3}) do g[#g + 1] = k .. v end table.sort(g) print(table.concat(g, ";"))
print(table.unpack({1, 2, 3}), table.pack(1, 2).n, table.move({1, 2, 3}, 1, 3, 2)[3], next({}))
do local x <close> = setmetatable({}, mt) end
print(require("string") == string, package.path ~= nil)
LUA
"$PROG" w1.lua
"$PROG" -e 'print(_VERSION)' -e 'for i=1,3 do io.write(i, " ") end print()'
echo 'x = 10; print(x * 2)' | "$PROG" -
"$PROG" -e 'local s = 0 for i = 1, 1e6 do s = s + i % 7 end print(s)'
"$PROG" -e 'error("deliberate")' 2>/dev/null; echo "error exit $?"
printf 'print(1+1)\nprint(("x"):rep(4))\n' | "$PROG" -i >/dev/null 2>&1
exit 0

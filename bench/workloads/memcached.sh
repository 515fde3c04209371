# memcached: the server on 127.0.0.1 (two worker threads, LRU crawler and
# maintainer, slab rebalancing, shutdown allowed) driven by a Python client
# made here: the text protocol (set/add/replace/append/prepend/cas, get/gets
# of many keys, incr/decr, touch/gat/gats, delete, noreply, flush_all,
# verbosity, every stats group, lru_crawler metadump, slabs reassign and
# automove, watch), the meta protocol (mg/ms/md/ma/mn/me with flags), the
# binary protocol (get/set/add/delete/incr/quiet variants/noop/version/stat/
# flush), values across every slab class, errors and malformed commands, and
# a graceful stop with SIGTERM.
set -u
port=$((25000 + $$ % 20000))
"$PROG" -U 0 -l 127.0.0.1 -p "$port" -t 2 -m 64 -c 256 -A -o modern,lru_crawler,lru_maintainer,slab_reassign,slab_automove=1,watcher_logbuf_size=64 -vv >server.log 2>&1 &
pid=$!
cat >client.py <<'PY'
import socket, struct, sys, time
port = int(sys.argv[1])
def conn():
    for _ in range(100):
        try: return socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError: time.sleep(0.1)
    sys.exit("no server")
s = conn(); f = s.makefile("rwb")
def cmd(line, data=None, lines=1, until=None):
    f.write(line.encode() + b"\r\n")
    if data is not None: f.write(data + b"\r\n")
    f.flush()
    out = []
    while True:
        l = f.readline()
        if not l: break
        out.append(l)
        if until is None and len(out) >= lines: break
        if until is not None and l.rstrip(b"\r\n") in until: break
    return out
ok = 0
for i in range(300):
    v = b"v" * (i * 37 % 9000 + 1)
    cmd("set k%d %d 0 %d" % (i, i, len(v)), v)
cmd("set big 0 0 500000", b"B" * 500000)
cmd("add k1 0 0 1", b"x"); cmd("add new1 0 0 1", b"x"); cmd("replace k2 0 0 2", b"yy"); cmd("replace nope 0 0 1", b"z")
cmd("append k3 0 0 3", b"app"); cmd("prepend k3 0 0 3", b"pre")
g = cmd("gets k4", until=[b"END"]); cas = int(g[0].split()[4]) if g and g[0].startswith(b"VALUE") else 1
cmd("cas k4 0 0 1 %d" % cas, b"c"); cmd("cas k4 0 0 1 %d" % cas, b"c")
cmd("get " + " ".join("k%d" % i for i in range(0, 300, 3)), until=[b"END"])
cmd("gets k1 k2 k3 nope", until=[b"END"])
cmd("set n 0 0 2", b"10"); cmd("incr n 5"); cmd("decr n 3"); cmd("incr k1 1"); cmd("decr nope 1")
cmd("touch k5 100"); cmd("gat 100 k6 k7", until=[b"END"]); cmd("gats 0 k8", until=[b"END"])
cmd("delete k9"); cmd("delete k9"); cmd("set q 0 0 1 noreply", b"q"); cmd("delete q noreply"); cmd("incr n 1 noreply")
for grp in ["", "items", "slabs", "sizes", "settings", "conns", "extstore", "detail on", "detail dump", "detail off", "reset"]:
    cmd("stats " + grp if grp else "stats", until=[b"END", b"OK", b"RESET", b"ERROR"])
cmd("verbosity 1"); cmd("version"); cmd("lru_crawler crawl all"); time.sleep(0.3)
cmd("lru_crawler metadump all", until=[b"END", b"BUSY", b"ERROR"])
cmd("lru_crawler metadump hash", until=[b"END", b"BUSY", b"ERROR"])
cmd("lru_crawler sleep 100"); cmd("lru_crawler tocrawl 100"); cmd("lru tune 10 25 0.1 2"); cmd("lru mode flat"); cmd("lru mode segmented"); cmd("lru temp_ttl 10")
cmd("slabs automove 2"); cmd("slabs reassign 1 2"); cmd("slabs automove 0"); cmd("cache_memlimit 100")
cmd("ms mk1 5 T0 F3", b"hello"); cmd("mg mk1 v f t s c k", until=[b"EN", b"HD", b"VA 5 f3 t-1 s5 c1 kmk1"], lines=2)
f.write(b"mg mk1 v\r\n"); f.flush(); f.readline(); f.readline()
cmd("mg missing v"); cmd("mn"); cmd("ma mcount N0 J13"); cmd("ma mcount MI D5"); cmd("md mk1 q"); cmd("mn"); cmd("me k1", lines=1)
cmd("ms mk2 2 I", b"xx"); cmd("mg mk2 v h l", lines=2); cmd("md mk2 I T30"); cmd("mg mk2 v", lines=2)
cmd("ms mk3 3 MA", b"abc"); cmd("ms mk3 3 MP", b"pre"); cmd("ms mk3 1 ME", b"x"); cmd("ms mk3 1 MR", b"r"); cmd("ms mk3 1 MS C0", b"s")
cmd("bogus command"); cmd("set bad 0 0 notanumber"); cmd("get"); cmd("set k 0 0 3", b"toolongdata"); cmd("incr k2 abc")
cmd("flush_all 0"); cmd("get k1", until=[b"END"])
w = conn(); wf = w.makefile("rwb"); wf.write(b"watch fetchers mutations evictions\r\n"); wf.flush(); wf.readline()
cmd("set wk 0 0 1", b"w"); cmd("get wk", until=[b"END"]); w.close()
# binary protocol on a new connection
b = conn()
def bin(op, key=b"", val=b"", extras=b"", opaque=0, cas=0):
    hdr = struct.pack(">BBHBBHIIQ", 0x80, op, len(key), len(extras), 0, 0, len(key) + len(extras) + len(val), opaque, cas)
    b.sendall(hdr + extras + key + val)
def readbin():
    h = b""
    while len(h) < 24: h += b.recv(24 - len(h))
    total = struct.unpack(">I", h[8:12])[0]
    body = b""
    while len(body) < total: body += b.recv(total - len(body))
    return h, body
bin(0x01, b"bk", b"binval", struct.pack(">II", 0, 0)); readbin()
bin(0x00, b"bk"); readbin(); bin(0x0c, b"bk"); readbin()
bin(0x02, b"bk", b"x", struct.pack(">II", 0, 0)); readbin(); bin(0x03, b"bk", b"y", struct.pack(">II", 0, 0)); readbin()
bin(0x05, b"bc", b"", struct.pack(">QQI", 1, 5, 0)); readbin(); bin(0x06, b"bc", b"", struct.pack(">QQI", 1, 5, 0)); readbin()
bin(0x0e, b"bk", b"tail"); readbin(); bin(0x0f, b"bk", b"head"); readbin()
bin(0x1c, b"bk", b"", struct.pack(">I", 100)); readbin(); bin(0x1d, b"bk", b"", struct.pack(">I", 100)); readbin()
bin(0x11, b"bq", b"q", struct.pack(">II", 0, 0)); bin(0x09, b"bq"); bin(0x0a); readbin(); readbin()
bin(0x04, b"bk"); readbin(); bin(0x0b); readbin()
bin(0x10); 
while True:
    h, body = readbin()
    if struct.unpack(">H", h[2:4])[0] == 0: break
bin(0x08, b"", b"", struct.pack(">I", 0)); readbin(); bin(0x55); readbin()
b.close()
cmd("stats", until=[b"END"])
print("client done")
PY
python3 client.py "$port"; echo "client -> $?"
clients=()
for i in 1 2 3 4; do python3 client.py "$port" >/dev/null 2>&1 & clients+=($!); done
wait "${clients[@]}"; echo "parallel clients done"
kill -TERM "$pid"; wait "$pid"; echo "memcached exit $?"
tail -3 server.log
exit 0

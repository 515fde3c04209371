# memcached: the server on 127.0.0.1 (two worker threads, LRU crawler and
# maintainer, slab rebalancing, shutdown allowed) driven by a Python client
# made here: the text protocol (set/add/replace/append/prepend/cas, get/gets
# of many keys, incr/decr, touch/gat/gats, delete, noreply, flush_all,
# verbosity, every stats group, lru_crawler metadump, slabs reassign and
# automove, watch), the meta protocol (mg/ms/md/ma/mn/me with flags), the
# binary protocol (get/set/add/delete/incr/quiet variants/noop/version/stat/
# flush), values across every slab class, errors and malformed commands, and
# a graceful stop with SIGTERM. It runs as root here (-u root) so it can append to the trace.
set -u
port=$((25000 + $$ % 20000))
"$PROG" -u root -U 0 -l 127.0.0.1 -p "$port" -t 2 -m 64 -c 256 -A -o modern,lru_crawler,lru_maintainer,slab_reassign,slab_automove=1,watcher_logbuf_size=64 -vv >server.log 2>&1 &
pid=$!
cat >client.py <<'PY'
# Each section runs on a fresh connection; a reply this client misreads ends its section only.
import socket, struct, sys, time
port = int(sys.argv[1])
def conn():
    for _ in range(100):
        try: return socket.create_connection(("127.0.0.1", port), timeout=3)
        except OSError: time.sleep(0.1)
    sys.exit("no server")
class C:
    def __init__(self): self.s = conn(); self.f = self.s.makefile("rwb")
    def __call__(self, line, data=None, lines=1, until=None):
        f = self.f
        f.write(line.encode() + b"\r\n")
        if data is not None: f.write(data + b"\r\n")
        f.flush()
        out = []
        while len(out) < lines or until:
            l = f.readline()
            if not l: break
            out.append(l)
            if until and l.rstrip(b"\r\n").split(b" ")[0] in until: break
        return out
END = [b"END", b"OK", b"RESET", b"ERROR", b"EN"]
def storage(cmd):
    for i in range(300):
        v = b"v" * (i * 37 % 9000 + 1)
        cmd("set k%d %d 0 %d" % (i, i, len(v)), v)
    cmd("set big 0 0 500000", b"B" * 500000)
    cmd("add k1 0 0 1", b"x"); cmd("add new1 0 0 1", b"x"); cmd("replace k2 0 0 2", b"yy"); cmd("replace nope 0 0 1", b"z")
    cmd("append k3 0 0 3", b"app"); cmd("prepend k3 0 0 3", b"pre")
    g = cmd("gets k4", until=END); cas = int(g[0].split()[4]) if g and g[0].startswith(b"VALUE") else 1
    cmd("cas k4 0 0 1 %d" % cas, b"c"); cmd("cas k4 0 0 1 %d" % cas, b"c")
    cmd("get " + " ".join("k%d" % i for i in range(0, 300, 3)), until=END)
    cmd("gets k1 k2 k3 nope", until=END)
    cmd("set n 0 0 2", b"10"); cmd("incr n 5"); cmd("decr n 3"); cmd("incr k1 1"); cmd("decr nope 1")
    cmd("touch k5 100"); cmd("gat 100 k6 k7", until=END); cmd("gats 0 k8", until=END)
    cmd("delete k9"); cmd("delete k9"); cmd("set q 0 0 1 noreply", b"q", lines=0); cmd("delete q noreply", lines=0)
    cmd("incr n 1 noreply", lines=0); cmd("version")
def admin(cmd):
    for grp in ["", "items", "slabs", "sizes", "settings", "conns", "detail on", "detail dump", "detail off", "reset"]:
        cmd("stats " + grp if grp else "stats", until=END)
    cmd("verbosity 1"); cmd("lru_crawler crawl all"); time.sleep(0.3)
    cmd("lru_crawler metadump all", until=END + [b"BUSY"])
    cmd("lru_crawler sleep 100"); cmd("lru_crawler tocrawl 100"); cmd("lru tune 10 25 0.1 2"); cmd("lru mode flat")
    cmd("lru mode segmented"); cmd("lru temp_ttl 10"); cmd("slabs automove 2"); cmd("slabs reassign 1 2"); cmd("slabs automove 0")
    cmd("cache_memlimit 100")
def meta(cmd):
    cmd("ms mk1 5 T0 F3", b"hello"); cmd("mg mk1 v f t s c k", lines=2); cmd("mg mk1 v", lines=2)
    cmd("mg missing v"); cmd("mn"); cmd("ma mcount N0 J13"); cmd("ma mcount MI D5"); cmd("mg mcount v", lines=2)
    cmd("md mk1"); cmd("mn"); cmd("me k1", until=END + [b"ME"])
    cmd("ms mk2 2", b"xx"); cmd("mg mk2 v h l", lines=2); cmd("md mk2 I T30"); cmd("mg mk2 v c", lines=2)
    cmd("ms mk3 3", b"abc"); cmd("ms mk3 3 MA", b"app"); cmd("ms mk3 3 MP", b"pre"); cmd("ms mk3 1 ME", b"x")
    cmd("ms mk3 1 MR", b"r"); cmd("ms mk3 1 MS C1", b"s"); cmd("mg mk3 v q k O123", lines=2); cmd("mn")
def watch(cmd):
    w = C(); w.f.write(b"watch fetchers mutations evictions\r\n"); w.f.flush(); w.f.readline()
    cmd("set wk 0 0 1", b"w"); cmd("get wk", until=END); time.sleep(0.2); w.s.close()
def errors(cmd):
    cmd("bogus command"); cmd("set bad 0 0 notanumber"); cmd("get"); cmd("incr k2 abc"); cmd("mg"); cmd("ms x notnum")
    cmd("flush_all 0"); cmd("get k1", until=END); cmd("set k 0 0 3", b"toolongdata", lines=2)
def binary(_):
    b = conn()
    def send(op, key=b"", val=b"", extras=b"", opaque=0, cas=0):
        b.sendall(struct.pack(">BBHBBHIIQ", 0x80, op, len(key), len(extras), 0, 0, len(key) + len(extras) + len(val), opaque, cas) + extras + key + val)
    def recv():
        h = b""
        while len(h) < 24: h += b.recv(24 - len(h))
        total = struct.unpack(">I", h[8:12])[0]; body = b""
        while len(body) < total: body += b.recv(total - len(body))
        return h, body
    fl = struct.pack(">II", 0, 0); num = struct.pack(">QQI", 1, 5, 0); exp = struct.pack(">I", 100)
    for op, key, val, ex in [(0x01, b"bk", b"binval", fl), (0x00, b"bk", b"", b""), (0x0c, b"bk", b"", b""), (0x02, b"bk", b"x", fl),
                             (0x03, b"bk", b"y", fl), (0x05, b"bc", b"", num), (0x06, b"bc", b"", num), (0x0e, b"bk", b"tail", b""),
                             (0x0f, b"bk", b"head", b""), (0x1c, b"bk", b"", exp), (0x1d, b"bk", b"", exp), (0x04, b"bk", b"", b""),
                             (0x0b, b"", b"", b""), (0x08, b"", b"", struct.pack(">I", 0)), (0x55, b"", b"", b"")]:
        send(op, key, val, ex); recv()
    send(0x11, b"bq", b"q", fl); send(0x09, b"bq"); send(0x0a); recv(); recv()
    send(0x10)
    while struct.unpack(">H", recv()[0][2:4])[0] != 0: pass
    b.close()
for name, section in [("storage", storage), ("admin", admin), ("meta", meta), ("watch", watch), ("errors", errors), ("binary", binary)]:
    try:
        section(C()); print(name, "ok")
    except Exception as e:
        print(name, "failed:", repr(e))
PY
python3 client.py "$port"; echo "client -> $?"
clients=()
for i in 1 2 3 4; do python3 client.py "$port" >/dev/null 2>&1 & clients+=($!); done
wait "${clients[@]}"; echo "parallel clients done"
kill -TERM "$pid"; wait "$pid"; echo "memcached exit $?"
tail -3 server.log
exit 0

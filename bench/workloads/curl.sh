# curl: the curl tool and a static libcurl against servers on 127.0.0.1
# made here with Python's standard library: an HTTP/1.1 server (static
# files, redirects, cookies, basic and digest-style auth challenges,
# chunked and gzip/deflate responses, ranges, POST/PUT/multipart echo,
# slow bodies, status codes, a forward proxy for absolute URIs) and an SMTP
# sink; then file:// and dict:// and error paths. Options cover the tool's
# callback tables: write/read/header/progress/debug callbacks (-o, -T, -D,
# -#, --trace), cookies, --parallel, -K config, -w write-out, --libcurl.
set -u
port=$((30000 + $$ % 20000)) smtp=$((port + 1))
mkdir -p www
for i in 1 2 3 4 5; do head -c $((i * 40000)) /dev/urandom | base64 >"www/f$i.txt"; done
printf 'hello from the server\n' >www/index.html
cat >server.py <<'PY'
import gzip, http.server, socketserver, sys, time, zlib, os
class H(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def body(self, code, data, ctype="text/plain", extra=()):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        for k, v in extra: self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD": self.wfile.write(data)
    def route(self):
        p = self.path
        if p.startswith("http://"):          # forward proxy
            p = "/" + p.split("/", 3)[3] if p.count("/") >= 3 else "/"
            self.path = p
        if p.startswith("/redirect/"):
            n = int(p.split("/")[2])
            self.send_response(302 if n % 2 else 301)
            self.send_header("Location", "/redirect/%d" % (n - 1) if n > 1 else "/index.html")
            self.send_header("Content-Length", "0"); self.end_headers(); return True
        if p == "/cookie":
            return self.body(200, b"set", extra=[("Set-Cookie", "a=1; Path=/"), ("Set-Cookie", "b=2; Max-Age=100")]) or True
        if p == "/echo-cookie":
            return self.body(200, (self.headers.get("Cookie") or "none").encode()) or True
        if p == "/auth":
            if self.headers.get("Authorization") == "Basic dXNlcjpwYXNz":
                return self.body(200, b"authorised") or True
            return self.body(401, b"no", extra=[("WWW-Authenticate", 'Basic realm="r"')]) or True
        if p == "/chunked":
            self.send_response(200); self.send_header("Transfer-Encoding", "chunked"); self.end_headers()
            for i in range(20):
                c = (b"chunk %d " % i) * 50
                self.wfile.write(b"%x\r\n%s\r\n" % (len(c), c))
            self.wfile.write(b"0\r\n\r\n"); return True
        if p in ("/gzip", "/deflate"):
            data = b"compressible " * 5000
            enc = gzip.compress(data) if p == "/gzip" else zlib.compress(data)
            return self.body(200, enc, extra=[("Content-Encoding", p[1:])]) or True
        if p == "/slow":
            self.send_response(200); self.send_header("Content-Length", "5000"); self.end_headers()
            for i in range(10): self.wfile.write(b"x" * 500); self.wfile.flush(); time.sleep(0.05)
            return True
        if p.startswith("/status/"):
            return self.body(int(p.split("/")[2]), b"status") or True
        return False
    def do_GET(self):
        if not self.route(): super().do_GET()
    def do_HEAD(self):
        if not self.route(): super().do_HEAD()
    def echo(self):
        n = int(self.headers.get("Content-Length") or 0)
        if self.headers.get("Transfer-Encoding") == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().strip(), 16)
                if size == 0: self.rfile.readline(); break
                data += self.rfile.read(size); self.rfile.readline()
        else:
            data = self.rfile.read(n)
        if self.headers.get("Expect") == "100-continue": pass
        self.body(200, b"got %d bytes" % len(data))
    do_POST = do_PUT = do_DELETE = do_PATCH = echo
class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True; allow_reuse_address = True
os.chdir(sys.argv[2])
S(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
cat >smtp.py <<'PY'
import socketserver, sys
class H(socketserver.StreamRequestHandler):
    def handle(self):
        w = lambda s: self.wfile.write(s.encode() + b"\r\n")
        w("220 localhost ESMTP")
        data = False
        for line in self.rfile:
            l = line.decode(errors="replace").rstrip("\r\n")
            if data:
                if l == ".": data = False; w("250 OK queued")
                continue
            c = l.split(" ")[0].upper()
            if c in ("EHLO", "HELO"): w("250-localhost"); w("250-SIZE 100000"); w("250 8BITMIME")
            elif c == "DATA": data = True; w("354 go ahead")
            elif c == "QUIT": w("221 bye"); return
            elif c in ("MAIL", "RCPT", "RSET", "NOOP"): w("250 OK")
            elif c == "VRFY": w("252 maybe")
            else: w("502 unknown")
class S(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True; allow_reuse_address = True
S(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
python3 server.py "$port" www & srv=$!
python3 smtp.py "$smtp" & smtpd=$!
trap 'kill $srv $smtpd 2>/dev/null' EXIT
for i in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$port/index.html" 2>/dev/null && break; python3 -c 'import time; time.sleep(0.2)'; done
u=http://127.0.0.1:$port
run() { "$PROG" "$@" >/dev/null 2>&1 </dev/null; echo "curl $* -> $?" | cut -c1-140; }
run -s "$u/index.html"; run -s -o out1.txt "$u/f1.txt"; run -s -O "$u/f2.txt"; run -s -I "$u/index.html"
run -s -L "$u/redirect/4"; run -s -L --max-redirs 2 "$u/redirect/5"; run -s "$u/redirect/1"
run -s -c jar.txt "$u/cookie"; run -s -b jar.txt "$u/echo-cookie"; run -s -b 'x=1; y=2' "$u/echo-cookie"; run -s -b jar.txt -c jar2.txt -L "$u/redirect/2"
run -s -u user:pass "$u/auth"; run -s -u user:bad "$u/auth"; run -s --anyauth -u user:pass "$u/auth"; run -s --basic -u user:pass "$u/auth"
run -s "$u/chunked"; run -s --compressed "$u/gzip"; run -s --compressed "$u/deflate"; run -s --raw "$u/chunked"
run -s -r 0-999 "$u/f3.txt"; run -s -r 500- "$u/f3.txt"; run -s -C 100 -o part.txt "$u/f1.txt"
run -s -d 'a=1&b=2' "$u/post"; run -s --data-binary @www/f1.txt "$u/post"; run -s --data-urlencode 'q=a b&c' "$u/post"
run -s -F 'field=value' -F 'file=@www/f2.txt;type=text/plain' "$u/upload"; run -s -T www/f1.txt "$u/put"
run -s -H 'Transfer-Encoding: chunked' -T www/f2.txt "$u/put"; run -s -X DELETE "$u/x"; run -s --request PATCH -d x "$u/x"
run -s --json '{"k": [1, 2]}' "$u/json"; run -s -G -d 'q=1' -d 'r=2' "$u/index.html"
run -s -D headers.txt -o /dev/null "$u/cookie"; run -s -i "$u/index.html"; run -s -v "$u/index.html"
run --trace trace.txt "$u/f1.txt"; run --trace-ascii trace2.txt --trace-time "$u/index.html"
run -# -o prog.txt "$u/slow"; run --progress-bar --limit-rate 20k -o slow.txt "$u/slow"; run -s -m 1 "$u/slow"
run -s -w '%{http_code} %{size_download} %{time_total} %{url_effective} %{content_type} %{num_redirects}\n' -L "$u/redirect/3"
run -s -w '%{json}' "$u/index.html"; run -s --write-out '%{header_json}' "$u/cookie"
run -s -Z "$u/f1.txt" "$u/f2.txt" "$u/f3.txt" "$u/f4.txt" -o p1 -o p2 -o p3 -o p4; run -s --parallel --parallel-max 2 "$u/f[1-5].txt" -o "pp#1"
run -s "$u/f{1,2,3}.txt" -o "glob_#1.txt"; run -s --remote-name-all "$u/f4.txt" "$u/f5.txt"
printf 'url = "%s/index.html"\noutput = "cfg.txt"\nsilent\nheader = "X-Test: 1"\nuser-agent = "workload"\n' "$u" >cfg.txt.conf; run -K cfg.txt.conf
run -s -x "$u" "http://example.invalid/index.html"; run -s --proxy "$u" -L "http://other.invalid/redirect/2"
run -s --retry 2 --retry-delay 0 "$u/status/503"; run -s -f "$u/status/404"; run -s --fail-with-body "$u/status/500"; run -s "$u/nope"
run -s -e "$u/ref" -A agent/1 -H 'Accept: text/plain' -H 'X-Extra:' "$u/index.html"; run -s --http1.0 "$u/index.html"; run -s -0 -I "$u/f1.txt"
run -s --keepalive-time 5 --tcp-nodelay "$u/index.html" "$u/f1.txt"; run -s --libcurl gen.c "$u/index.html"
run -s -z www/index.html "$u/index.html"; run -s --etag-save etag.txt "$u/index.html"; run -s --etag-compare etag.txt "$u/index.html"
run -s "file://$PWD/www/index.html"; run -s -o copy.txt "file://$PWD/www/f1.txt"; run -s "file://$PWD/nonexistent"
run -s "dict://127.0.0.1:$port/d:word"; run -s "http://127.0.0.1:1/"; run -s "bogus://x"; run -s "$u:99999/"; run --nosuch-option
printf 'From: a@b\r\nTo: c@d\r\nSubject: t\r\n\r\nbody line\r\n' >mail.txt
run -s --url "smtp://127.0.0.1:$smtp" --mail-from a@localhost --mail-rcpt c@localhost -T mail.txt
run -s "smtp://127.0.0.1:$smtp" --mail-rcpt x@localhost -X VRFY
run -s -K /nonexistent.conf; run -s --data @/nonexistent "$u/post"
kill $srv $smtpd 2>/dev/null; wait 2>/dev/null
exit 0

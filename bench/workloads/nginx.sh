# nginx: a master and two workers on loopback serving static files (index,
# autoindex, gzip, ranges, conditional requests, errors), rewrites and
# returns, SSI, map/split_clients, access and basic-auth checks, empty_gif,
# and proxying to a second server block (upstream with keepalive), driven by
# curl; then a configuration reload and a graceful stop. Workers run as root
# so they can append to the trace, and `env FACET_TRACE_OUT` keeps the
# variable (nginx clears the environment of its workers).
set -u
port=$((20000 + $$ % 20000)) back=$((port + 1))
mkdir -p logs html/dir html/ssi conf
for i in $(seq 1 20); do head -c $((i * 997)) /dev/urandom | base64 >"html/dir/f$i.txt"; done
printf '<html><body>hello <!--# echo var="host" --> <!--# include virtual="/dir/f1.txt" --></body></html>\n' >html/ssi/index.html
printf '<html><body>index</body></html>\n' >html/index.html
printf 'user:{PLAIN}secret\n' >conf/htpasswd
cat >conf/nginx.conf <<CONF
user root;
worker_processes 2;
daemon off;
master_process on;
error_log logs/error.log info;
pid logs/nginx.pid;
env FACET_TRACE_OUT;
events { worker_connections 256; }
http {
    access_log logs/access.log;
    sendfile on; tcp_nopush on; keepalive_timeout 5;
    gzip on; gzip_types text/plain text/css; gzip_min_length 100;
    default_type text/plain;
    map \$uri \$kind { default other; ~^/dir/ files; }
    split_clients "\${remote_addr}" \$bucket { 50% a; * b; }
    upstream backend { server 127.0.0.1:$back; keepalive 4; }
    server {
        listen 127.0.0.1:$port;
        root $PWD/html;
        location / { index index.html; add_header X-Kind \$kind; add_header X-Bucket \$bucket; }
        location /dir/ { autoindex on; }
        location /ssi/ { ssi on; }
        location /secret/ { auth_basic "x"; auth_basic_user_file $PWD/conf/htpasswd; }
        location /deny/ { deny all; }
        location = /gif { empty_gif; }
        location /old/ { rewrite ^/old/(.*)\$ /dir/\$1 permanent; }
        location = /ret { return 200 "returned \$request_method \$arg_x\n"; }
        location /proxy/ { proxy_pass http://backend/; proxy_http_version 1.1; proxy_set_header Connection ""; }
    }
    server {
        listen 127.0.0.1:$back;
        root $PWD/html;
        location / { }
    }
}
CONF
"$PROG" -p "$PWD" -c conf/nginx.conf -t || exit 1
"$PROG" -p "$PWD" -c conf/nginx.conf &
master=$!
for i in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
u=http://127.0.0.1:$port
for round in 1 2 3; do
	for i in $(seq 1 20); do
		curl -s -o /dev/null "$u/dir/f$i.txt"
		curl -s -o /dev/null -H 'Accept-Encoding: gzip' "$u/dir/f$i.txt"
		curl -s -o /dev/null -r 10-200 "$u/dir/f$i.txt"
		curl -s -o /dev/null "$u/proxy/dir/f$i.txt"
	done
	curl -s -o /dev/null "$u/dir/"; curl -s -o /dev/null "$u/ssi/"; curl -s -o /dev/null "$u/gif"
	curl -s -o /dev/null "$u/secret/"; curl -s -o /dev/null -u user:secret "$u/secret/"; curl -s -o /dev/null -u user:bad "$u/secret/"
	curl -s -o /dev/null "$u/deny/x"; curl -s -o /dev/null "$u/old/f2.txt"; curl -s -o /dev/null "$u/ret?x=1"
	curl -s -o /dev/null -X POST -d 'a=b' "$u/ret"; curl -s -o /dev/null "$u/nonexistent";
	curl -s -o /dev/null -H 'If-Modified-Since: Sat, 1 Jan 2050 00:00:00 GMT' "$u/index.html"
	curl -s -o /dev/null -I "$u/index.html"; curl -s -o /dev/null "$u/proxy/"
	curl -s -o /dev/null --http1.0 "$u/"; printf 'BAD REQUEST\r\n\r\n' | timeout 2 curl -s -o /dev/null telnet://127.0.0.1:$port || true
done
"$PROG" -p "$PWD" -c conf/nginx.conf -s reload; sleep 1
curl -s -o /dev/null "$u/"; curl -s -o /dev/null "$u/proxy/dir/f3.txt"
"$PROG" -p "$PWD" -c conf/nginx.conf -s quit
wait "$master"
echo "nginx exit $?"; tail -3 logs/error.log

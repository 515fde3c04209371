# redis: redis-server on loopback under redis-benchmark (the native one of
# the build tree) for the common commands, plus redis-cli sessions covering
# data types, transactions, Lua scripting, pub/sub, expiry, keyspace scans,
# persistence (BGSAVE forks a child that writes the RDB and exits with
# _exit), INFO/CONFIG/OBJECT/DEBUG, then SHUTDOWN.
set -u
port=$((30000 + $$ % 20000))
cli="$SRC/redis-cli -p $port"
"$PROG" --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$PWD" --daemonize no \
	--enable-debug-command yes >server.log 2>&1 &
server=$!
for i in $(seq 1 50); do $cli ping >/dev/null 2>&1 && break; sleep 0.2; done
"$SRC/redis-benchmark" -p "$port" -q -n 3000 -c 8 -r 1000 \
	-t ping,set,get,incr,lpush,rpush,lpop,rpop,sadd,hset,spop,zadd,zpopmin,lrange,mset
"$SRC/redis-benchmark" -p "$port" -q -n 2000 -P 16 -t set,get
$cli <<'CMDS' >/dev/null
SET a 1
INCRBY a 10
APPEND s hello
GETRANGE s 0 2
MSET k1 v1 k2 v2 k3 v3
MGET k1 k2 k3
EXPIRE k1 100
TTL k1
PERSIST k1
RPUSH l a b c d e
LRANGE l 0 -1
LINSERT l BEFORE c x
LREM l 1 x
SORT l ALPHA
HSET h f1 1 f2 2 f3 3
HGETALL h
HINCRBYFLOAT h f1 1.5
SADD s1 a b c
SADD s2 b c d
SINTER s1 s2
SUNIONSTORE s3 s1 s2
ZADD z 1 a 2 b 3 c
ZRANGEBYSCORE z 1 2 WITHSCORES
ZINTERSTORE z2 1 z
SETBIT bits 7 1
BITCOUNT bits
PFADD hll a b c d
PFCOUNT hll
GEOADD geo 13.361389 38.115556 Palermo 15.087269 37.502669 Catania
GEODIST geo Palermo Catania km
XADD st * f v
XRANGE st - +
XLEN st
MULTI
INCR a
INCR a
EXEC
EVAL "return redis.call('incr', KEYS[1])" 1 a
EVAL "local t = {} for i = 1, 10 do t[i] = redis.call('get', 'a') end return #t" 0
FUNCTION LOAD "#!lua name=lib\nredis.register_function('f', function(keys, args) return 1 end)"
FCALL f 0
SCAN 0 COUNT 100
KEYS k*
TYPE h
OBJECT ENCODING l
DUMP a
RENAME a a2
DEL a2
CONFIG GET maxmemory
CONFIG SET maxmemory-policy allkeys-lru
INFO
CLIENT LIST
SLOWLOG GET
DBSIZE
DEBUG OBJECT h
MEMORY USAGE h
LATENCY LATEST
ACL LIST
PUBLISH ch msg
SELECT 1
SET x y
SWAPDB 0 1
FLUSHDB
CMDS
$cli bgsave >/dev/null
for i in $(seq 1 50); do $cli info persistence | grep -q 'rdb_bgsave_in_progress:0' && break; sleep 0.2; done
$cli debug reload >/dev/null 2>&1
$cli shutdown nosave >/dev/null 2>&1
wait "$server"
echo "redis exit $?"; tail -3 server.log

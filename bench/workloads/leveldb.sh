# leveldb: its own db_bench over a fresh database in the work directory:
# sequential and random fills, overwrites, synced writes, batched writes,
# random and sequential reads (forward and reverse), seeks, deletes, a
# compaction and the crc32c micro-benchmark; then again on the existing
# database with a small cache and a bloom filter, and reads with
# verify_checksums paths through the table iterators.
set -u
db=$PWD/db
"$PROG" --db="$db" --num=20000 --value_size=100 \
	--benchmarks=fillseq,fillrandom,overwrite,fillbatch,readrandom,readseq,readreverse,seekrandom,deleteseq,deleterandom,compact,crc32c,stats \
	>run1.log 2>&1; echo "db_bench run 1 -> $?"
"$PROG" --db="$db" --num=2000 --benchmarks=fillsync >run2.log 2>&1; echo "db_bench fillsync -> $?"
"$PROG" --db="$db" --num=20000 --use_existing_db=1 --cache_size=65536 --bloom_bits=10 --reads=5000 \
	--benchmarks=readrandom,readmissing,readhot,seekrandom,readseq,sstables,heapprofile \
	>run3.log 2>&1; echo "db_bench run 3 -> $?"
tail -n 3 run1.log run3.log

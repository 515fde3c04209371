# re2: its own benchmark program (re2/testing/regexp_benchmark.cc) on the
# benchmarks that take no size range: parsing, simplifying, compiling and the
# null walker (the Regexp::Walker hierarchy), parse-and-match through each
# engine (NFA, OnePass, BitState, Backtrack, RE2's own choice), partial and
# full matches, PossibleMatchRange; and one ranged search through the DFA
# (Search_Easy1_CachedDFA, 8 bytes to 16 MiB). PCRE is not built (USEPCRE
# off), so its benchmarks are left out. Each benchmark runs about a second.
set -u
"$PROG" '^BM_(Regexp_Parse|Regexp_Simplify|CompileToProg|CompileByteMap|Regexp_Compile|Regexp_SimplifyCompile|Regexp_NullWalk|RE2_Compile)$' \
	'^Parse_(Cached)?(Digits|DigitDs|Split|SplitHard|SplitBig1|SplitBig2)_(NFA|OnePass|RE2|Backtrack|BitState)$' \
	'^(Empty|Simple|HTTP|SmallHTTP)PartialMatchRE2$' '^(Dot|ASCII)MatchRE2$' \
	'^PossibleMatchRange_' '^Search_Easy1_CachedDFA$' >bench.log 2>&1
echo "regexp_benchmark -> $?"
wc -l <bench.log
tail -n 3 bench.log

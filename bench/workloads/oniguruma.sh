# oniguruma: the program kept is test/test_utf8, oniguruma's own UTF-8 test
# suite (thousands of pattern/subject checks); it runs offline as is.
set -u
"$PROG" | tail -3

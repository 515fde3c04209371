# embed.cmake — writes the file IN as a C string named NAME into OUT (cmake -P):
# docs/concepts.md becomes `facet help concepts` without a file to find at run time.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT} "/* generated from ${IN} by scripts/embed.cmake: do not edit */\n#include \"cli/cli.h\"\n\n"
     "static const unsigned char bytes[] = {${bytes}0};\nconst char *const ${NAME} = (const char *)bytes;\n")

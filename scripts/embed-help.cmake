# embed-help.cmake — writes every docs/help/NAME.txt (DIR) as one table of C
# strings into OUT (cmake -P): the --help texts of facet's commands
# (src/cli/help.h), inside the binary so no file is looked for at run time.
file(GLOB files ${DIR}/*.txt)
list(SORT files)
set(body "/* generated from ${DIR} (every .txt) by scripts/embed-help.cmake: do not edit */\n#include \"cli/help.h\"\n\n")
set(rows "")
set(i 0)
foreach(f ${files})
  get_filename_component(name ${f} NAME_WE)
  file(READ ${f} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(APPEND body "static const unsigned char t${i}[] = {${bytes}0};\n")
  string(APPEND rows "\t{\"${name}\", (const char *)t${i}},\n")
  math(EXPR i "${i} + 1")
endforeach()
file(WRITE ${OUT} "${body}\nconst cli_help_text cli_help_texts[] = {\n${rows}\t{0, 0},\n};\n")

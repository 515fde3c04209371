/* shlib_lib.c — a shared library built natively (not part of the traced
 * bitcode): one exported function the program names, and one static
 * function the program only reaches through a pointer the library returns. */
int lib_inc(int x)
{
	return x + 1;
}

static int lib_hidden(int x)
{
	return x * 3;
}

int (*lib_get_hidden(void))(int)
{
	return lib_hidden;
}

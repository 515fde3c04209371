/* u.c — which call exists depends on a -D the compile_commands.json gives. */
void chosen(void);
void other(void);

void entry(void)
{
#ifdef PICK
	chosen();                                  /* -> chosen */
#else
	other();
#endif
}

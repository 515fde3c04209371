/* placeholder */
int oo_placeholder;

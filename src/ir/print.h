/* print.h — the program model as text, for debugging the analyses (facet
 * dump): globals with their initializer slots, constants, and per function
 * the pointer statements the points-to analysis reads; value ids as %N. */
#ifndef FACET_IR_PRINT_H
#define FACET_IR_PRINT_H

#include <stdio.h>

#include "ir/model.h"

void ir_print_model(FILE *out, const ir_program *p);

#endif

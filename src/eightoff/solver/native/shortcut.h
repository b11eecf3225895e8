#ifndef EIGHTOFF_SHORTCUT_H
#define EIGHTOFF_SHORTCUT_H

#include "engine.h"
#include "line.h"

/* shortcut_pass with one-move bridges, then, where the line is still LONG_LINE
 * single-card moves or more (and no more than TWO_MOVES_MAX moves), with two, until
 * ``deadline``. */
int shortcut_line(const Config *cfg, const EState *start, Line *line, double deadline);

#endif

#ifndef EIGHTOFF_SHORTCUT_H
#define EIGHTOFF_SHORTCUT_H

#include "engine.h"
#include "line.h"

/* shortcut_pass with one-move bridges, then, where the line is still long_line
 * single-card moves or more (and no more than two_moves_max moves), with two, until
 * ``deadline``. */
int shortcut_line(const Schedule *sch, const Config *cfg, const EState *start, Line *line, double deadline);

#endif

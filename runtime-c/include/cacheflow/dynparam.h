/* Dynamic parameters in generated programs: a configuration actor writes a parameter's value at run time (PREESM's
 * `OUT Param *name`), and the program runs only with the values it was planned for. */
#ifndef CACHEFLOW_DYNPARAM_H
#define CACHEFLOW_DYNPARAM_H

/* The index of `value` in planned[0..count): the variant of the program planned for it. When it is none of them, stops
 * the program (exit status 1) with a message naming the configuration actor, the parameter, the value, the iteration
 * (-1: before the first) and the planned values, before any other actor sees the value. */
int cf_gen_param_check(const char *actor, const char *parameter, long long value, long iteration,
                       const long long *planned, int count);

#endif
